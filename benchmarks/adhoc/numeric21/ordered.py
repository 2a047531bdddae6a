"""numeric21: whole-number columns of ≤ 10 values read as categories (today's rule) or as
numbers cut by MDLP, per split of a family (ratio20's `grid_choice.py` splits: stratified
70/30, `random_state=run`): test F1 of each reading and its chosen candidate's out-of-fold F1.

OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/numeric21/ordered.py FAM,FAM RUNS OUT.csv SEED
"""
import sys
import time
import warnings

warnings.simplefilter("ignore")
sys.path.insert(0, "benchmarks/adhoc/numeric21")
import families21  # noqa: E402,F401
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from families import FAMILIES  # noqa: E402
from sklearn.metrics import f1_score  # noqa: E402
from sklearn.model_selection import StratifiedShuffleSplit  # noqa: E402

from plx_core import discretize as D  # noqa: E402
from plx_core.estimator import PLXClassifier  # noqa: E402

keys, runs, out, seed = sys.argv[1].split(","), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
init = D.Discretizer.__init__
rows = []
for key in keys:
    X, y, pos = FAMILIES[key](seed)
    yb = (y.astype(str).to_numpy() == pos).astype(int)
    for run, (tr, te) in enumerate(StratifiedShuffleSplit(runs, test_size=0.3, random_state=0).split(X, yb)):
        r = {"key": key, "seed": seed, "run": run}
        for name, most in (("category", 10), ("number", 1)):
            D.Discretizer.__init__ = lambda self, method="mdlp", max_bins=4, max_categories=most: init(
                self, method, max_bins, max_categories)
            t0 = time.process_time()
            m = PLXClassifier(positive=1, random_state=run).fit(X.iloc[tr], yb[tr])
            r[f"fit_{name}"] = time.process_time() - t0
            r[f"f1_{name}"] = f1_score(yb[te], np.asarray(m.predict(X.iloc[te])).astype(int))
            sel = m.selection_
            r[f"oof_{name}"] = sel.scores.get(sel.key, np.nan) if sel else np.nan
            r[f"chosen_{name}"] = sel.key if sel else "direct"
            r[f"numeric_{name}"] = len(m.discretizer_.cuts_)
        D.Discretizer.__init__ = init
        rows.append(r)
        print(r, flush=True)
        pd.DataFrame(rows).to_csv(out, index=False)
