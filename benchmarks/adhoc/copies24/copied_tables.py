"""A 240-row ward table fitted once, written twice and three times: the model chosen, the new rows
answered [0, 1] and F1 on 240 new rows (python benchmarks/adhoc/copies24/copied_tables.py SEEDS)."""
import sys
import warnings
from pathlib import Path

import pandas as pd
from sklearn.metrics import f1_score

from plx_core import PLXClassifier

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tests"))
from test_estimator import _sepsis_table  # noqa: E402 (the test's table: one home)

warnings.simplefilter("ignore")


for seed in range(int(sys.argv[1]) if len(sys.argv) > 1 else 3):
    X, y = _sepsis_table(seed)
    y = pd.Series(y)
    Xtr, ytr, Xte, yte = X[:240], y[:240], X[240:].reset_index(drop=True), y[240:]
    for k in (1, 2, 3):
        Xk = pd.concat([Xtr] * k, ignore_index=True)
        yk = pd.concat([ytr] * k, ignore_index=True)
        m = PLXClassifier(positive="sepsis", random_state=0).fit(Xk, yk)
        b = m.bounds(Xte)
        p = m.predict(Xte)
        print(seed, k, m.chosen_, "uninformed", int(b["uninformed"].sum()), "F1 {:.3f}".format(f1_score(yte, p, pos_label="sepsis")), flush=True)
