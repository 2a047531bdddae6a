"""Ad hoc (session 12): the smooth vote rebuilt from `plx_core.vote`'s functions, always
answering, against the same additive model without the vote's sign constraint — test F1 per
config "bins:λ:pool:C:l1[:free][:unw]", and which config out-of-fold log loss would pick.

    python benchmarks/adhoc/gam/sign_free.py SET RUN0 RUN1 CONFIG[,CONFIG…]

free: each bin's weight free in sign (two ≥ 0 copies voting + and −, the smoothness penalty on
their difference), as a GAM's shape; unw: rows unweighted (the vote weighs classes balanced).
Numeric columns are cut at `bins` quantiles of the training rows; other columns keep their
values (no smoothing across them).
"""
from __future__ import annotations

import sys
import warnings

import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.metrics import f1_score

from plx_core import selection as S
from plx_core import vote as VT
from plx_core.experiments.compare import split_set
from plx_core.variants import balanced_weights

ROW_WEIGHTS = VT.row_weights


def cw_of(yy: np.ndarray) -> tuple[float, float]:
    return balanced_weights(int(yy.sum()), len(yy))


def bins(Xtr: pd.DataFrame, Xte: pd.DataFrame, nb: int):
    """(train codes, test codes, sizes, which columns are ordered)."""
    tr, te, sizes, ordered = [], [], [], []
    for c in Xtr.columns:
        if not pd.api.types.is_numeric_dtype(Xtr[c]):
            at = {v: i for i, v in enumerate(sorted(set(Xtr[c].dropna().astype(str))))}
            for frame, out in ((Xtr, tr), (Xte, te)):
                out.append(np.array([at.get(str(v), -1) if v == v else -1 for v in frame[c]]))
            sizes.append(len(at))
            ordered.append(False)
            continue
        v, vt = np.asarray(Xtr[c], float), np.asarray(Xte[c], float)
        cuts = np.unique(np.quantile(v[np.isfinite(v)], np.linspace(0, 1, nb + 1)[1:-1]))
        cuts = cuts[cuts > np.nanmin(v)]
        tr.append(np.where(np.isfinite(v), np.searchsorted(cuts, v, "right"), -1))
        te.append(np.where(np.isfinite(vt), np.searchsorted(cuts, vt, "right"), -1))
        sizes.append(len(cuts) + 1)
        ordered.append(True)
    return np.column_stack(tr), np.column_stack(te), sizes, ordered


def one_hot(vs: VT.ValueSlots) -> sparse.csr_matrix:
    r, j = np.nonzero(vs.slot >= 0)
    return sparse.csr_matrix((np.ones(len(r)), (r, vs.slot[r, j])), shape=(len(vs.slot), vs.n))


def log_loss(y: np.ndarray, score: np.ndarray) -> float:
    z = (2 * y - 1) * np.nan_to_num(score, nan=0.0)
    return float(VT.row_weights(y, cw_of(y)) @ np.logaddexp(0, -z) / len(y))


def run(ctr, cte, sizes, ordered, y, seed, C, l1, lam, pool, free):
    """(test probabilities, threshold, out-of-fold F1, out-of-fold log loss)."""
    vs, vt = VT.value_slots(ctr, sizes), VT.value_slots(cte, sizes)
    pairs = VT.adjacent_slots(sizes, {j: np.arange(s) for j, s in enumerate(sizes) if ordered[j]})
    smooth = (pairs, lam, VT.pool_matrix(int(sum(sizes)), pairs, pool) if pool else None)
    if not free:
        oof, (w, b) = VT.cross_fit(vs, y, cw_of, seed, C=C, l1=l1, smooth=smooth)
        counts = VT.slot_counts(vs, y)
        if pool:
            counts = VT.pooled(counts, smooth[2])
        St = VT.votes(vt, np.zeros(len(cte)), np.arange(len(cte)), counts, cw_of(y), False)
        sc = VT.scores(St, w, b)
    else:
        B = one_hot(vs)
        Q0 = VT.smooth_penalty(pairs, np.ones(vs.n), lam)
        Q = sparse.bmat([[Q0, -Q0], [-Q0, Q0]], format="csr")

        def fit(rows):
            yy = y[rows]
            A = sparse.hstack([B[rows], -B[rows]], format="csr")
            ((w, b),) = VT.fit_many([(A, yy, VT.row_weights(yy, cw_of(yy)))], C, l1,
                                    penalties=[Q])
            return w[:vs.n] - w[vs.n:], b

        oof = np.full(len(y), np.nan)
        for tr, te in S.folds(y, VT.VOTE_FOLDS, seed):
            w, b = fit(tr)
            oof[te] = B[te] @ w + b
        w, b = fit(np.arange(len(y)))
        sc = one_hot(vt) @ w + b
    t, f = S.best_threshold(y, VT.probability(oof))
    return VT.probability(sc), t, f, log_loss(y, oof)


def main() -> None:
    warnings.simplefilter("ignore")
    key, r0, r1, confs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split(",")
    X, y, splits = split_set(key, r1)
    res = {c: [] for c in confs}
    for r in range(r0, r1):
        tr, te = splits[r]
        for c in confs:
            p = c.split(":")
            VT.row_weights = ((lambda yy, cw: np.ones(len(yy))) if "unw" in p else ROW_WEIGHTS)
            nb, lam, pool, C, l1 = int(p[0]), float(p[1]), int(p[2]), float(p[3]), float(p[4])
            ctr, cte, sizes, ordered = bins(X.iloc[tr], X.iloc[te], nb)
            prob, t, f, ll = run(ctr, cte, sizes, ordered, y[tr], r, C, l1, lam, pool,
                                 "free" in p)
            res[c].append((f1_score(y[te], np.nan_to_num(prob, nan=0) > t + 1e-9), f, ll))
    a = np.array([res[c] for c in confs])  # config × split × (test F1, oof F1, oof log loss)
    pick = a[:, :, 2].argmin(axis=0)
    print(f"{key}: chosen by out-of-fold log loss: test "
          f"{a[pick, np.arange(a.shape[1]), 0].mean():.3f} {[confs[i] for i in pick]}")
    for c, row in zip(confs, a):
        print(f"{c:24s} test {row[:, 0].mean():.3f}  oof {row[:, 1].mean():.3f}  "
              f"log loss {row[:, 2].mean():.4f}  " + " ".join(f"{v:.3f}" for v in row[:, 0]),
              flush=True)


if __name__ == "__main__":
    main()
