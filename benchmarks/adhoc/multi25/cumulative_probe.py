"""Probe (multi25): ordered labels answered by K−1 cumulative binary plx models (y > k) against
the default one-vs-rest fit, on stratified 70/30 splits (`random_state=0`); test macro F1 of
several ways to combine the cumulative models, CPU of each fit.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=CODE python \
        benchmarks/adhoc/multi25/cumulative_probe.py TABLES SPLITS OUT.csv
"""
from __future__ import annotations

import os
import sys
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedShuffleSplit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tables25  # noqa: E402

from plx_core.estimator import PLXClassifier  # noqa: E402


def main(keys, splits, out):
    rows = []
    for key in keys:
        X, y, _ = tables25.TABLES[key]()
        y = y.astype(str)
        order = tables25.ORDERS[key]
        rank = y.map({c: i for i, c in enumerate(order)}).to_numpy()
        K = len(order)
        for s, (tr, te) in enumerate(StratifiedShuffleSplit(splits, test_size=0.3, random_state=0).split(X, y)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t0 = time.process_time()
                clf = PLXClassifier(random_state=s).fit(X.iloc[tr], y.iloc[tr])
                cpu = time.process_time() - t0
                base = f1_score(rank[te], pd.Series(clf.predict(X.iloc[te])).map(
                    {c: i for i, c in enumerate(order)}).to_numpy(), average="macro")
                t0 = time.process_time()
                P, D, chosen = [], [], []
                for k in range(K - 1):
                    yk = np.where(rank[tr] > k, "yes", "no")
                    m = PLXClassifier(random_state=s).fit(X.iloc[tr], yk)
                    p = m.predict_proba(X.iloc[te])[:, list(m.classes_).index("yes")]
                    P.append(p)
                    D.append(m.predict(X.iloc[te]) == "yes")
                    chosen.append(m.chosen_)
                cum = time.process_time() - t0
            P, D = np.column_stack(P), np.column_stack(D)
            votes = D.sum(axis=1)  # each cumulative model's own decision counted
            Pm = np.minimum.accumulate(P, axis=1)
            full = np.column_stack([np.ones(len(P)), Pm, np.zeros(len(P))])
            probs = full[:, :-1] - full[:, 1:]
            argmax = probs.argmax(axis=1)
            half = (Pm > 0.5).sum(axis=1)
            r = {"table": key, "split": s, "plx": base, "cum_votes": f1_score(rank[te], votes, average="macro"),
                 "cum_argmax": f1_score(rank[te], argmax, average="macro"),
                 "cum_half": f1_score(rank[te], half, average="macro"),
                 "cpu_plx": cpu, "cpu_cum": cum, "chosen": clf.chosen_, "cum_chosen": "/".join(chosen)}
            rows.append(r)
            print(r, flush=True)
            pd.DataFrame(rows).to_csv(out, index=False)
    df = pd.DataFrame(rows)
    print(df.groupby("table")[["plx", "cum_votes", "cum_argmax", "cum_half", "cpu_plx", "cpu_cum"]].mean().round(4).to_string())


if __name__ == "__main__":
    main(sys.argv[1].split(","), int(sys.argv[2]), sys.argv[3])
