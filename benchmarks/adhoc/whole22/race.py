"""whole22: columns of a few whole numbers, the race of their two readings against today's
levels, per split of a family (ratio20's `grid_choice.py` splits: stratified 70/30,
`random_state=run`): test F1 with the race off (each value a level) and on, each column's
reading, the two searches' chosen out-of-fold F1 where the race ran (levels, numbers), and
the fit's CPU seconds both ways (same process).

OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/whole22/race.py FAM,FAM RUNS OUT.csv SEED
"""
import sys
import time
import warnings

warnings.simplefilter("ignore")
sys.path.insert(0, "benchmarks/adhoc/whole22")
import families22  # noqa: E402,F401
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from families import FAMILIES  # noqa: E402
from sklearn.metrics import f1_score  # noqa: E402
from sklearn.model_selection import StratifiedShuffleSplit  # noqa: E402

from plx_core import selection as S  # noqa: E402
from plx_core.estimator import PLXClassifier  # noqa: E402

seen = {}
wins = S.whole_wins


def told(levels, numbers):
    """`whole_wins`, its two scores kept for the row."""
    got = wins(levels, numbers)
    seen.update(oof_levels=got[1], oof_numbers=got[2])
    return got


S.whole_wins = told

keys, runs, out, seed = sys.argv[1].split(","), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
screens = PLXClassifier._whole_screens
rows = []
for key in keys:
    X, y, pos = FAMILIES[key](seed)
    yb = (y.astype(str).to_numpy() == pos).astype(int)
    for run, (tr, te) in enumerate(StratifiedShuffleSplit(runs, test_size=0.3, random_state=0).split(X, yb)):
        r = {"key": key, "seed": seed, "run": run}
        for name, on in (("off", False), ("on", True)):
            seen.clear()
            PLXClassifier._whole_screens = screens if on else (lambda self, *a: {})
            t0 = time.process_time()
            m = PLXClassifier(positive=1, random_state=run).fit(X.iloc[tr], yb[tr])
            r[f"fit_{name}"] = time.process_time() - t0
            r[f"f1_{name}"] = f1_score(yb[te], np.asarray(m.predict(X.iloc[te])).astype(int))
            r[f"chosen_{name}"] = m.chosen_
        PLXClassifier._whole_screens = screens
        r.update(seen)
        seen.clear()
        r["read"] = " ".join(f"{c}={v[0]}" for c, v in m.whole_read_.items())
        rows.append(r)
        print(r, flush=True)
        pd.DataFrame(rows).to_csv(out, index=False)
