"""A 240-row ward table fitted once, written twice and three times: the model chosen, the new rows
answered [0, 1] and F1 on 240 new rows (python benchmarks/adhoc/copies24/copied_tables.py SEEDS)."""
import sys
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score

from plx_core import PLXClassifier

warnings.simplefilter("ignore")
def table(seed, n=480):
    r = np.random.default_rng(seed)
    X = pd.DataFrame({"age": r.normal(60, 15, n).round(), "crp": r.gamma(2, 30, n).round(1),
                      "sex": r.choice(["f", "m"], n), "ward": r.choice(list("ABCD"), n),
                      "score": r.integers(0, 5, n)})
    X.loc[r.random(n) < .1, "crp"] = np.nan
    z = 0.04*(X.age-60) + 0.02*X.crp.fillna(60) + 0.5*X.score - 2.5 + (X.ward == "C")
    y = np.where(r.random(n) < 1/(1+np.exp(-z)), "sepsis", "ok")
    return X, pd.Series(y)
for seed in range(int(sys.argv[1]) if len(sys.argv) > 1 else 3):
    X, y = table(seed)
    Xtr, ytr, Xte, yte = X[:240], y[:240], X[240:].reset_index(drop=True), y[240:]
    for k in (1, 2, 3):
        Xk = pd.concat([Xtr] * k, ignore_index=True)
        yk = pd.concat([ytr] * k, ignore_index=True)
        m = PLXClassifier(positive="sepsis", random_state=0).fit(Xk, yk)
        b = m.bounds(Xte)
        p = m.predict(Xte)
        print(seed, k, m.chosen_, "uninformed", int(b["uninformed"].sum()), "F1 {:.3f}".format(f1_score(yte, p, pos_label="sepsis")), flush=True)
