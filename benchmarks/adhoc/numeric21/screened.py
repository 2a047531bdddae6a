"""numeric21: per split of a family, the default fit (the grid race after its screen past
`selection.GRID_COLUMNS` numeric columns) against the same fit with the race off: test F1,
what the grid did (raced and answered / raced and stayed / screened out / no race), CPU
seconds of each fit (same process). Splits as ratio20's `grid_choice.py`.

OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/numeric21/screened.py FAM,FAM RUNS OUT.csv SEED
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

from plx_core import selection as S  # noqa: E402
from plx_core.estimator import PLXClassifier  # noqa: E402

keys, runs, out, seed = sys.argv[1].split(","), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
cols = S.GRID_COLUMNS
rows = []
for key in keys:
    X, y, pos = FAMILIES[key](seed)
    yb = (y.astype(str).to_numpy() == pos).astype(int)
    for run, (tr, te) in enumerate(StratifiedShuffleSplit(runs, test_size=0.3, random_state=0).split(X, yb)):
        r = {"key": key, "seed": seed, "run": run}
        for name, gate in (("off", (99, 99)), ("now", cols)):
            S.GRID_COLUMNS = gate
            t0 = time.process_time()
            m = PLXClassifier(positive=1, random_state=run).fit(X.iloc[tr], yb[tr])
            r[f"cpu_{name}"] = time.process_time() - t0
            r[f"f1_{name}"] = f1_score(yb[te], np.asarray(m.predict(X.iloc[te])).astype(int))
            why = m.chosen_reason_
            r[f"grid_{name}"] = ("answered" if "which answers" in why else "screened" if
                                 "did not run again" in why else "stayed" if
                                 "equal-frequency grid" in why else "no race")
        S.GRID_COLUMNS = cols
        rows.append(r)
        print(r, flush=True)
        pd.DataFrame(rows).to_csv(out, index=False)
