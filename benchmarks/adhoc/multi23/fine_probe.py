"""Several classes on MDLP's cut points with more bins (multi23): per table and split the
default fit (with its grid race) against one with `max_bins=FINE` (MDLP still, on the
several-class labels), each one's test macro F1 and its chosen family's mean out-of-fold F1
(`class_mean`), and the screen: a depth-6 tree of every class on the fine cut points' codes
against the default's (macro F1 out of fold, `selection.grid_class_screen`).

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=. python \
        benchmarks/adhoc/multi23/fine_probe.py TABLES SPLITS FINE OUT.csv
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tables  # noqa: E402

from plx_core import selection as S  # noqa: E402
from plx_core.estimator import PLXClassifier  # noqa: E402


def codes(m, X):
    frame = m.transform_rows(X)
    return np.column_stack([pd.factorize(frame[c].to_numpy(dtype=object))[0] for c in frame.columns])


def main(keys, splits, fine, out):
    rows = []
    for key in keys:
        X, y, _ = tables.TABLES[key]()
        y = y.astype(str)
        for s, (tr, te) in enumerate(StratifiedShuffleSplit(splits, test_size=0.3, random_state=0).split(X, y)):
            Xt, yt, Xe, ye = X.iloc[tr].reset_index(drop=True), y.iloc[tr].to_numpy(), X.iloc[te], y.iloc[te]
            rec = {"table": key, "split": s}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t0 = time.process_time()
                m = PLXClassifier(random_state=s).fit(Xt, yt)
                rec["cpu"] = time.process_time() - t0
                rec["f1"] = f1_score(ye, m.predict(Xe), average="macro")
                rec["mean"] = S.class_mean(m.class_selection_)
                rec["method"] = m.discretizer_.method
                t0 = time.process_time()
                f = PLXClassifier(random_state=s, max_bins=fine).fit(Xt, yt)
                rec["cpu_fine"] = time.process_time() - t0
                rec["f1_fine"] = f1_score(ye, f.predict(Xe), average="macro")
                rec["mean_fine"] = S.class_mean(f.class_selection_)
                rec["bins"] = {c: len(v) + 1 for c, v in f.cuts_.items()}
                rec["bins_default"] = {c: len(v) + 1 for c, v in m.cuts_.items()}
                base = PLXClassifier(random_state=s)
                base._no_grid = True
                base.fit(Xt, yt)
                cls = np.unique(yt, return_inverse=True)[1]
                fold = S.fold_ids(cls, S.SELECT_FOLDS, s)
                rec["scr_fine"], rec["scr_mdlp"] = S.grid_class_screen(codes(f, Xt), codes(base, Xt), cls, fold)
            rows.append(rec)
            print({k: (round(v, 4) if isinstance(v, float) else v) for k, v in rec.items()}, flush=True)
            pd.DataFrame(rows).to_csv(out, index=False)


if __name__ == "__main__":
    main(sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
