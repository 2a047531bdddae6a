# Helper module of the ad hoc scripts beside it (moved from /tmp/add/fitlib.py), imported by them.
import numpy as np
from scipy.optimize import minimize
from scipy import sparse
from plx_core.selection import folds, best_threshold, f1_at
from plx_core.variants import balanced_weights


def vote_matrix(kb, pr, pc, y_rows, rows_mask, sup, pos, cw, loo, hi, n_rows, row_index):
    """sparse (rows × clauses) of sign(p - 0.5) for pairs of rows in rows_mask"""
    k = rows_mask[pr] & (kb.lengths[pc] <= hi)
    r, c = pr[k], pc[k]
    s = sup[c] - (1 if loo else 0)
    q = pos[c] - (y_rows[r] if loo else 0)
    keep = s > 0
    r, c, s, q = r[keep], c[keep], s[keep], q[keep]
    d = q * cw[0] - (s - q) * cw[1]
    v = np.sign(d).astype(float)
    return sparse.csr_matrix((v, (row_index[r], c)), shape=(n_rows, kb.n_learned))


def fit_nnlr(S, y, C, sw, x0=None):
    n, m = S.shape
    yy = 2 * y - 1
    def f(wb):
        w, b = wb[:-1], wb[-1]
        z = yy * (S @ w + b)
        l = np.logaddexp(0, -z)
        g = -sw * yy * np.exp(-np.logaddexp(0, z))
        return (sw * l).sum() + 0.5 / C * (w @ w), np.concatenate([S.T @ g + w / C, [g.sum()]])
    x0 = np.zeros(m + 1) if x0 is None else x0
    res = minimize(f, x0, jac=True, method="L-BFGS-B",
                   bounds=[(0, None)] * m + [(None, None)], options=dict(maxiter=1000))
    return res.x[:-1], res.x[-1]


def fit_on(kb, pr, pc, y, rows, hi, C):
    """fit weights on training rows `rows` (positions) with counts = full minus the other rows"""
    n = len(y)
    inrows = np.zeros(n, bool); inrows[rows] = True
    # counts of the fold: subtract the rows not in `rows`
    out = ~inrows[pr]
    sup = kb.support - np.bincount(pc[out], minlength=kb.n_learned)
    pos = kb.positives - np.bincount(pc[out], weights=y[pr[out]], minlength=kb.n_learned).astype(np.int64)
    yf = y[rows]
    cw = balanced_weights(int(yf.sum()), len(yf))
    idx = np.full(n, -1); idx[rows] = np.arange(len(rows))
    S = vote_matrix(kb, pr, pc, y, inrows, sup, pos, cw, True, hi, len(rows), idx)
    used = np.flatnonzero(kb.lengths <= hi)
    S = S[:, used]
    sw = np.where(yf == 1, 0.5 / yf.mean(), 0.5 / (1 - yf.mean()))
    ws, b = fit_nnlr(S, yf, C, sw)
    w = np.zeros(kb.n_learned); w[used] = ws
    return w, b, sup, pos, cw


def score_rows(kb, pr, pc, y, rows, hi, w, b, sup, pos, cw, n_all):
    inrows = np.zeros(n_all, bool); inrows[rows] = True
    idx = np.full(n_all, -1); idx[rows] = np.arange(len(rows))
    S = vote_matrix(kb, pr, pc, y, inrows, sup, pos, cw, False, hi, len(rows), idx)
    return S @ w + b


def oof_scores(kb, pr, pc, y, hi, C, seed, k=5):
    import os; k = int(os.environ.get("FOLDS", k))
    sc = np.full(len(y), np.nan)
    for tr, te in folds(y, k, seed):
        w, b, sup, pos, cw = fit_on(kb, pr, pc, y, tr, hi, C)
        sc[te] = score_rows(kb, pr, pc, y, te, hi, w, b, sup, pos, cw, len(y))
    return sc


def best_tau(y, sc):
    """F1-optimal shift among a grid of quantiles of the scores (ties to nearest 0)"""
    cand = np.unique(np.concatenate([[0.0], np.quantile(sc, np.linspace(0.02, 0.98, 49))]))
    pred = sc[None, :] > cand[:, None]
    yb = y.astype(bool)
    tp = (pred & yb).sum(1); fp = (pred & ~yb).sum(1); fn = (~pred & yb).sum(1)
    f1 = 2 * tp / np.maximum(2 * tp + fp + fn, 1)
    o = np.lexsort((np.abs(cand), -f1))
    return cand[o[0]], f1[o[0]], f1[cand == 0.0][0]


def best_grid(y, sc):
    from plx_core.selection import best_threshold
    t, f = best_threshold(y, 1/(1+np.exp(-sc)))
    return np.log(t/(1-t)), f, best_threshold(y, 1/(1+np.exp(-sc)))[1]
