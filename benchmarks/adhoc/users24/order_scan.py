"""Does a fit answer alike for the same training rows in another order, or the same columns
in another order? 12 small ward tables (tests/test_estimator.py `_ward_table`: seeds 0–5, two
and three classes, 240 rows), the default `PLXClassifier()` fitted on the table as drawn, on
its rows shuffled (with their index) and on its columns reversed; per table: whether
predict_proba is equal, the candidate chosen and how many of the 240 decisions differ.

    PYTHONPATH=. python benchmarks/adhoc/users24/order_scan.py   (from the repository root)
"""

import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests"))
from test_estimator import _ward_table  # noqa: E402

from plx_core import PLXClassifier  # noqa: E402

warnings.simplefilter("ignore")
moved_rows = moved_cols = total = 0
for seed in range(6):
    for k in (2, 3):
        X, y = _ward_table(seed, classes=k)
        kw = {"positive": "sepsis"} if k == 2 else {}
        m = PLXClassifier(**kw).fit(X, y)
        want, decided = m.predict_proba(X), m.predict(X)
        at = np.random.default_rng(1).permutation(len(X))
        rows = PLXClassifier(**kw).fit(X.iloc[at], y[at])
        cols = PLXClassifier(**kw).fit(X[X.columns[::-1]], y)
        same_r = np.array_equal(rows.predict_proba(X), want)
        same_c = np.array_equal(cols.predict_proba(X), want)
        moved_rows += not same_r
        moved_cols += not same_c
        total += 1
        print(seed, k, m.chosen_, "| rows:", same_r, rows.chosen_, int((rows.predict(X) != decided).sum()),
              "| cols:", same_c, cols.chosen_, int((cols.predict(X) != decided).sum()), flush=True)
print(f"rows moved {moved_rows}/{total}, columns moved {moved_cols}/{total}")
