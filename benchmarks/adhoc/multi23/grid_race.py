"""The several-class grid race past four classes and four numeric columns, after its screen
(multi23): per table and split the default `PLXClassifier`'s test macro F1, CPU seconds of its
fit and a 100-tree forest's on the same rows (numbers as numbers, the rest one-hot,
`bench_fit_families.forest_frame`), what the race did (screened out / raced, stayed / grid
answers) and CART / EBM on the same rows (stratified 70/30 splits, `random_state=0`).

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=CODE python \
        benchmarks/adhoc/multi23/grid_race.py TABLES SPLITS [BASELINES] OUT.csv

CODE: the worktree whose `plx_core` is measured (main's for "before").
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
import tables  # noqa: E402
from bench_fit_families import forest_frame  # noqa: E402

from plx_core.estimator import PLXClassifier  # noqa: E402
from plx_core.experiments.compare import make  # noqa: E402


def race(reason: str) -> str:
    if "the search did not run again" in reason:
        return "screened out"
    if "numeric column, which answers" in reason:
        return "grid answers"
    if "equal-frequency grid" in reason:
        return "raced, stays"
    return "-"


def main(keys, splits, baselines, out):
    rows = []
    for key in keys:
        X, y, _ = tables.TABLES[key]()
        y = y.astype(str)
        classes = np.unique(y)
        yb = np.searchsorted(classes, y.to_numpy())
        F = forest_frame(X)
        for s, (tr, te) in enumerate(StratifiedShuffleSplit(splits, test_size=0.3, random_state=0).split(X, y)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t0 = time.process_time()
                make("Forest", s, F.shape[1]).fit(F.iloc[tr], yb[tr])
                forest = time.process_time() - t0
                t0 = time.process_time()
                clf = PLXClassifier(random_state=s).fit(X.iloc[tr], y.iloc[tr])
                cpu = time.process_time() - t0
                f1 = f1_score(y.iloc[te], clf.predict(X.iloc[te]), average="macro")
            rows.append({"table": key, "split": s, "method": "plx", "f1": f1, "cpu": cpu,
                         "forest_cpu": forest, "ratio": cpu / forest, "chosen": clf.chosen_,
                         "race": race(clf.chosen_reason_)})
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


if __name__ == "__main__":
    main(sys.argv[1].split(","), int(sys.argv[2]),
         [m for m in sys.argv[3].split(",") if m], sys.argv[4])
