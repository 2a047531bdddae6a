"""Ordered labels (multi25): per table and split the test macro F1 and fit CPU of the default
`PLXClassifier` (one-vs-rest) and of `PLXClassifier(class_order=ORDER)` (one yes/no model a
step between levels), with CART (depth by CV on macro F1), EBM and a 100-tree forest on the
same rows (stratified 70/30 splits, `random_state=0`); fit ratio = plx CPU / the forest's CPU
in the same process.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=CODE python \
        benchmarks/adhoc/multi25/ordered_race.py TABLES SPLITS [BASELINES] OUT.csv

ARMS=ordered in the environment fits only the ordered model (and the forest for its ratio).
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
sys.path.insert(0, os.path.join(HERE, os.pardir, os.pardir))
import tables25  # noqa: E402
from bench_fit_families import forest_frame  # noqa: E402

from plx_core.estimator import PLXClassifier  # noqa: E402
from plx_core.experiments.compare import make  # noqa: E402


def main(keys, splits, baselines, out):
    rows = []
    for key in keys:
        X, y, _ = tables25.TABLES[key]()
        y = y.astype(str)
        order = tables25.ORDERS[key]
        yb = np.array([order.index(c) for c in y])
        F = forest_frame(X)
        for s, (tr, te) in enumerate(StratifiedShuffleSplit(splits, test_size=0.3, random_state=0).split(X, y)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t0 = time.process_time()
                forest = make("Forest", s, F.shape[1]).fit(F.iloc[tr], yb[tr])
                forest_cpu = time.process_time() - t0
                rows.append({"table": key, "split": s, "method": "Forest", "f1": f1_score(
                    yb[te], np.asarray(forest.predict(F.iloc[te])).astype(int), average="macro")})
                arms = (("plx", None), ("plx ordered", order))
                for name, order_arg in arms[1:] if os.environ.get("ARMS") == "ordered" else arms:
                    t0 = time.process_time()
                    clf = PLXClassifier(random_state=s, class_order=order_arg).fit(X.iloc[tr], y.iloc[tr])
                    cpu = time.process_time() - t0
                    f1 = f1_score(y.iloc[te], clf.predict(X.iloc[te]), average="macro")
                    rows.append({"table": key, "split": s, "method": name, "f1": f1, "cpu": cpu,
                                 "forest_cpu": forest_cpu, "ratio": cpu / forest_cpu,
                                 "chosen": clf.chosen_ if order_arg is None else
                                 "/".join(st.chosen_ for st in clf.ordered_)})
                    print(rows[-1], flush=True)
            for m in baselines:
                model = make(m, s, X.shape[1])
                if m == "CART":
                    model.model.set_params(scoring="f1_macro")
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    model.fit(X.iloc[tr], yb[tr])
                    pred = np.asarray(model.predict(X.iloc[te])).astype(int)
                rows.append({"table": key, "split": s, "method": m,
                             "f1": f1_score(yb[te], pred, average="macro")})
                print(rows[-1], flush=True)
            pd.DataFrame(rows).to_csv(out, index=False)
    df = pd.DataFrame(rows)
    print(df.pivot_table(index="table", columns="method", values="f1", aggfunc="mean").round(4).to_string())
    print(df.pivot_table(index="table", columns="method", values="f1", aggfunc="std").round(4).to_string())
    print(df.pivot_table(index="table", columns="method", values="ratio", aggfunc="median").round(2).to_string())


if __name__ == "__main__":
    main(sys.argv[1].split(","), int(sys.argv[2]),
         [m for m in sys.argv[3].split(",") if m], sys.argv[4])
