"""Per table and split: macro F1 of the default several-class fit with an older `plx_core`
(before) and this one (now), CPU of both over a 100-tree forest's in the same process, and
the baselines named (CART with its depth by CV on macro F1, EBM) on the same stratified
70/30 splits (`tables27.splits`) (several27).

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=. python \
        benchmarks/adhoc/several27/race27.py /tmp/plx_before TABLES SPLITS [BASELINES] OUT.csv
"""
from __future__ import annotations

import os
import sys
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score

from plx_core.estimator import PLXClassifier  # (CODE's, imported before the paths below)
from plx_core.experiments.compare import make

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, os.pardir, os.pardir))
from bench_fit_change import before_estimator  # noqa: E402
from bench_fit_families import forest_frame  # noqa: E402
from tables27 import TABLES, splits  # noqa: E402


def main(root, keys, n, baselines, out):
    before = before_estimator(root)
    rows = []
    for key in keys:
        X, y, _ = TABLES[key]()
        y = y.astype(str)
        classes = np.unique(y)
        yb = np.searchsorted(classes, y.to_numpy())
        F = forest_frame(X)
        for s, (tr, te) in enumerate(splits(y, n)):
            row = {"table": key, "split": s}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t0 = time.process_time()
                make("Forest", s, F.shape[1]).fit(F.iloc[tr], yb[tr])
                forest = time.process_time() - t0
                for name, cls in (("before", before), ("now", PLXClassifier)):
                    t0 = time.process_time()
                    clf = cls(random_state=s).fit(X.iloc[tr], y.iloc[tr])
                    row[f"ratio_{name}"] = (time.process_time() - t0) / forest
                    row[name] = f1_score(y.iloc[te], clf.predict(X.iloc[te]), average="macro")
                    row[f"chosen_{name}"] = clf.chosen_
                for m in baselines:
                    model = make(m, s, X.shape[1])
                    if m == "CART":
                        model.model.set_params(scoring="f1_macro")
                    model.fit(X.iloc[tr], yb[tr])
                    pred = np.asarray(model.predict(X.iloc[te])).astype(int)
                    row[m] = f1_score(yb[te], pred, average="macro")
            rows.append(row)
            print(row, flush=True)
            pd.DataFrame(rows).to_csv(out, index=False)
    df = pd.DataFrame(rows)
    df["d"] = df["now"] - df["before"]
    g = df.groupby("table", sort=False)
    summary = g[["before", "now", *baselines]].mean().round(4)
    summary["better"] = g["d"].apply(lambda d: int((d > 1e-9).sum()))
    summary["worse"] = g["d"].apply(lambda d: int((d < -1e-9).sum()))
    summary["ratio_before"] = g["ratio_before"].median().round(1)
    summary["ratio_now"] = g["ratio_now"].median().round(1)
    print(summary.to_string())


if __name__ == "__main__":
    a = sys.argv[1:]
    main(a[0], a[1].split(","), int(a[2]), [m for m in (a[3] if len(a) > 4 else "").split(",") if m], a[-1])
