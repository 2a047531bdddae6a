"""The several-class grid race measured before it is gated (multi23): per table and split the
default fit and the same with `discretize="quantile", max_bins=8` (past `GRID_COLUMNS` numeric
columns clauses capped at `GRID_MAX_LEN`, as `_race_grid` does), each one's test macro F1, its
chosen family's mean out-of-fold F1 (`class_mean`) and out-of-fold macro F1 of each row's class
of the highest number (`argmax_macro_f1` on `answered_means`), and screens: multiclass trees on
the grid's bins and on MDLP's, out of fold on the search's folds (macro F1), CPU of each.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=. python \
        benchmarks/adhoc/multi23/grid_probe.py TABLES SPLITS OUT.csv
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
from sklearn.tree import DecisionTreeClassifier

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tables  # noqa: E402

from plx_core import selection as S  # noqa: E402
from plx_core.discretize import Discretizer  # noqa: E402
from plx_core.estimator import PLXClassifier  # noqa: E402

CAUGHT: list = []
_orig = S.class_choice


def _spy(searches, scored, families, labels, classes, best):
    CAUGHT.append((searches, scored, labels, classes))
    return _orig(searches, scored, families, labels, classes, best)


S.class_choice = _spy


def oof_macro(clf) -> float:
    if not CAUGHT or clf.class_selection_ is None:
        return float("nan")
    searches, scored, labels, classes = CAUGHT[-1]
    fam = clf.chosen_
    if fam not in scored:
        return float("nan")
    index = {c: i for i, c in enumerate(classes)}
    truth = np.array([index.get(v, -1) for v in labels])
    m = [S.answered_means(x, s) for x, s in zip(searches, scored[fam][1])]
    if any(v is None for v in m):
        return float("nan")
    rows = np.logical_and.reduce([np.isfinite(v) for v in m])
    return S.argmax_macro_f1(m, truth, rows)


def screen(codes, labels, fold, depth):
    pred = np.empty(len(labels), dtype=object)
    for f in np.unique(fold):
        tr = fold != f
        t = DecisionTreeClassifier(max_depth=depth, class_weight="balanced", min_samples_leaf=5,
                                   random_state=0).fit(codes[tr], labels[tr])
        pred[~tr] = t.predict(codes[~tr])
    return f1_score(labels.astype(str), pred.astype(str), average="macro")


def main(keys, splits, out):
    rows = []
    for key in keys:
        X, y, _ = tables.TABLES[key]()
        y = y.astype(str)
        n_split = splits
        for s, (tr, te) in enumerate(StratifiedShuffleSplit(n_split, test_size=0.3, random_state=0).split(X, y)):
            Xt, yt, Xe, ye = X.iloc[tr].reset_index(drop=True), y.iloc[tr].to_numpy(), X.iloc[te], y.iloc[te]
            rec = {"table": key, "split": s, "classes": len(np.unique(yt))}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                CAUGHT.clear()
                t0 = time.process_time()
                m = PLXClassifier(random_state=s).fit(Xt, yt)
                rec["cpu_mdlp"] = time.process_time() - t0
                rec["f1_mdlp"] = f1_score(ye, m.predict(Xe), average="macro")
                rec["mean_mdlp"] = S.class_mean(m.class_selection_)
                rec["oofm_mdlp"] = oof_macro(m)
                rec["fam_mdlp"] = m.chosen_
                nums = list(m.discretizer_.binnings_)
                rec["nums"] = len(nums)
                frame = m.transform_rows(Xt)
                fold = S.fold_ids(np.asarray(yt == np.unique(yt)[0]).astype(int), S.SELECT_FOLDS, s)
                t0 = time.process_time()
                grid = Discretizer("quantile", S.GRID_BINS, m.discretizer_.max_categories).fit(Xt[nums])
                gcols = [b.codes(Xt[c]) for c, b in grid.binnings_.items()]
                other = [pd.factorize(frame[c].to_numpy(dtype=object))[0] for c in frame.columns if c not in grid.binnings_]
                G = np.column_stack(gcols + other)
                M = np.column_stack([pd.factorize(frame[c].to_numpy(dtype=object))[0] for c in frame.columns])
                for d in (4, 6, None):
                    rec[f"scr_grid_{d}"] = screen(G, yt, fold, d)
                    rec[f"scr_mdlp_{d}"] = screen(M, yt, fold, d)
                rec["cpu_screen"] = time.process_time() - t0
                kw = {"discretize": "quantile", "max_bins": S.GRID_BINS}
                if len(nums) > S.GRID_COLUMNS[1]:
                    kw["max_len"] = min(m.max_len_ or S.GRID_MAX_LEN, S.GRID_MAX_LEN)
                CAUGHT.clear()
                t0 = time.process_time()
                g = PLXClassifier(random_state=s, **kw).fit(Xt, yt)
                rec["cpu_grid"] = time.process_time() - t0
                rec["f1_grid"] = f1_score(ye, g.predict(Xe), average="macro")
                rec["mean_grid"] = S.class_mean(g.class_selection_)
                rec["oofm_grid"] = oof_macro(g)
                rec["fam_grid"] = g.chosen_
            rows.append(rec)
            print({k: (round(v, 4) if isinstance(v, float) else v) for k, v in rec.items()}, flush=True)
            pd.DataFrame(rows).to_csv(out, index=False)


if __name__ == "__main__":
    main(sys.argv[1].split(","), int(sys.argv[2]), sys.argv[3])
