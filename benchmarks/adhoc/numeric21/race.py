"""numeric21: grid20's race.py with families21 on the path. Per split of a family (unseen19 / ratio20, split as ratio20's `grid_choice.py`): the search on
MDLP's cut points (the grid race off) and the search on the `selection.GRID_BINS` grid, each
fit's test F1 and its chosen candidate's out-of-fold F1, so the race at any margin reads off
the table (`table.py`).

OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/grid20/race.py FAM,FAM RUNS OUT.csv SEED
python benchmarks/adhoc/grid20/table.py OUT.csv ...
"""
import sys
import time
import warnings

warnings.simplefilter("ignore")
sys.path.insert(0, "benchmarks/adhoc/ratio20")
sys.path.insert(0, "benchmarks/adhoc/numeric21")
import families20  # noqa: E402,F401
import families21  # noqa: E402,F401
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from families import FAMILIES  # noqa: E402
from sklearn.metrics import f1_score  # noqa: E402
from sklearn.model_selection import StratifiedShuffleSplit  # noqa: E402

from plx_core import selection as S  # noqa: E402
from plx_core.estimator import PLXClassifier  # noqa: E402

keys, runs, out, seed = sys.argv[1].split(","), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
rows = []
for key in keys:
    X, y, pos = FAMILIES[key](seed)
    yb = (y.astype(str).to_numpy() == pos).astype(int)
    for run, (tr, te) in enumerate(StratifiedShuffleSplit(runs, test_size=0.3, random_state=0).split(X, yb)):
        r = {"key": key, "seed": seed, "run": run}
        for name, kw in (("mdlp", {}), ("grid", {"discretize": "quantile", "max_bins": S.GRID_BINS})):
            S.GRID_COLUMNS = (99, 99)
            t0 = time.perf_counter()
            m = PLXClassifier(positive=1, random_state=run, **kw).fit(X.iloc[tr], yb[tr])
            r[f"fit_{name}"] = time.perf_counter() - t0
            r[f"f1_{name}"] = f1_score(yb[te], np.asarray(m.predict(X.iloc[te])).astype(int))
            sel = m.selection_
            r[f"oof_{name}"] = sel.scores.get(sel.key, np.nan) if sel else np.nan
            r[f"chosen_{name}"] = sel.key if sel else "direct"
        rows.append(r)
        print(r, flush=True)
        pd.DataFrame(rows).to_csv(out, index=False)
