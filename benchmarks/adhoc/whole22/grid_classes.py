"""whole22, task 2: would grid20's race (the whole search again on 8 equal-frequency bins a
numeric column) pay on several classes? Per split (stratified 70/30, `random_state=run`): the
default fit (MDLP) and the same fit with `discretize="quantile", max_bins=8` (the grid's
search), test macro F1 of each, the mean out-of-fold F1 of each one's chosen family over the
classes (what a race would compare), and fit CPU seconds; the race reads off at a margin.

OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/whole22/grid_classes.py TABLES RUNS OUT.csv

TABLES: multi21/modes.py's (wine, iris, ordinal5, faults6, …) and ratio3 (below).
"""
import os
import sys
import time
import warnings

warnings.simplefilter("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "multi21"))
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from modes import TABLES  # noqa: E402
from sklearn.metrics import f1_score  # noqa: E402
from sklearn.model_selection import StratifiedShuffleSplit  # noqa: E402

from plx_core.estimator import PLXClassifier  # noqa: E402


def ratio3(seed=0, n=1200):
    """Three risk tiers by debt / income (< 0.25, 0.25–0.45, > 0.45), with age: a ratio of two
    numbers, the case the grid wins on two classes."""
    rng = np.random.default_rng(seed + 7)
    income = np.exp(rng.normal(10.5, 0.5, n)).round(-2)
    debt = (income * rng.gamma(2.0, 0.17, n)).round(-2)
    r = debt / income * np.exp(rng.normal(0, 0.1, n))
    tier = np.array(["low", "mid", "high"])[np.digitize(r, [0.25, 0.45])]
    X = pd.DataFrame({"income": income, "debt": debt, "age": rng.integers(20, 80, n)})
    return X, pd.Series(tier), None


TABLES["ratio3"] = ratio3


def oof(m):
    sels = getattr(m, "class_selection_", None) or []
    got = [s.scores[s.key] for s in sels if s.scores]
    return float(np.mean(got)) if got else np.nan


keys, runs, out = sys.argv[1].split(","), int(sys.argv[2]), sys.argv[3]
rows = []
for key in keys:
    X, y, _ = TABLES[key](0)
    y = y.astype(str).to_numpy()
    for run, (tr, te) in enumerate(StratifiedShuffleSplit(runs, test_size=0.3, random_state=0).split(X, y)):
        r = {"key": key, "run": run}
        for name, kw in (("mdlp", {}), ("grid", {"discretize": "quantile", "max_bins": 8})):
            t0 = time.process_time()
            m = PLXClassifier(random_state=run, **kw)
            m._no_grid = True  # each search alone (the default races the grid since whole22)
            m.fit(X.iloc[tr], y[tr])
            r[f"fit_{name}"] = time.process_time() - t0
            r[f"f1_{name}"] = f1_score(y[te], m.predict(X.iloc[te]), average="macro")
            r[f"oof_{name}"] = oof(m)
            r[f"chosen_{name}"] = m.chosen_
        rows.append(r)
        print(r, flush=True)
        pd.DataFrame(rows).to_csv(out, index=False)
