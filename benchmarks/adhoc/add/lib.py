# Helper module of the ad hoc scripts beside it (moved from /tmp/add/lib.py), imported by them.
import numpy as np
from prep import get
from plx_core.median import weighted_median_intervals
from plx_core.variants import reweighted_p
from plx_core.selection import best_threshold, f1_at, THRESHOLDS
from plx_core.weighting import confidence_weights


def fmask(kb):
    c = kb.codes >= 0
    return (c * (1 << np.arange(c.shape[1], dtype=np.int64))).sum(axis=1)


def relevance(d, how="mi"):
    """balanced mutual information of each feature with y on the training rows"""
    codes, y = d["ctr"], d["ytr"]
    wp, wn = d["cw"]
    w = np.where(y == 1, wp, wn).astype(float)
    out = []
    for j in range(codes.shape[1]):
        k = codes[:, j] >= 0
        v = codes[k, j]
        ww, yy = w[k], y[k]
        vals = np.unique(v)
        P = np.array([[ww[(v == a) & (yy == c)].sum() for c in (0, 1)] for a in vals])
        P = P / P.sum()
        pv = P.sum(1, keepdims=True); pc = P.sum(0, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(P > 0, P * np.log(P / (pv * pc)), 0.0)
        out.append(t.sum())
    return np.array(out)


def terms(d, loo):
    kb = d["kb"]
    if loo:
        r, c = d["ptr"]
        y = d["ytr"]
        sup = kb.support[c] - 1
        pos = kb.positives[c] - y[r]
        k = sup > 0
        r, c, sup, pos = r[k], c[k], sup[k], pos[k]
        p = reweighted_p(pos / sup, *d["cw"])
        n = len(y)
    else:
        r, c = d["pte"]
        sup = kb.support[c]
        p = kb.p[c]
        n = len(d["yte"])
    return r, c, p, sup.astype(float), n


def means(r, p, w, n, keep=None):
    if keep is not None:
        r, p, w = r[keep], p[keep], w[keep]
    lo, hi = weighted_median_intervals(r, p, w, n)
    return (lo + hi) / 2


def evaluate(d, keepfn, wfn, guarded=False):
    """(loo f1, threshold, test f1 at it, oracle test f1)"""
    out = {}
    res = []
    for loo in (True, False):
        r, c, p, sup, n = terms(d, loo)
        keep = keepfn(d, c)
        w = wfn(d, c, p, sup)
        res.append(means(r, p, w, n, keep))
    ml, mt = res
    t, f = best_threshold(d["ytr"], ml, guarded=guarded)
    ft = float(f1_at(d["yte"], mt, np.array([t]))[0])
    orc = float(f1_at(d["yte"], mt, np.array(THRESHOLDS)).max())
    return f, t, ft, orc, ml, mt


def unit(d, c, p, sup):
    return np.ones(len(c))


def conf(m=3.0):
    def f(d, c, p, sup):
        return confidence_weights(p, sup, m, 0.5)
    return f


def allk(d, c):
    return None


def subset_keep(bits):
    def f(d, c):
        fm = d.setdefault("_fm", fmask(d["kb"]))
        return (fm[c] & ~bits) == 0
    return f


def woe(m=3.0, floor=1e-3):
    def f(d, c, p, sup):
        pm = (sup * p + m * 0.5) / (sup + m)
        pm = np.clip(pm, 1e-6, 1 - 1e-6)
        return np.abs(np.log(pm / (1 - pm))) + floor
    return f


def len_keep(lo, hi, bits=None):
    def f(d, c):
        L = d["kb"].lengths[c]
        k = (L >= lo) & (L <= hi)
        if bits is not None:
            fm = d.setdefault("_fm", fmask(d["kb"]))
            k &= (fm[c] & ~bits) == 0
        return k
    return f
