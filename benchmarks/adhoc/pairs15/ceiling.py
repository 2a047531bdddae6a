"""Ad hoc (session 15, pairs15): the smooth vote always answering, refitted on the default's fine
bins per split, against the same vote plus two-feature clauses on coarse bins: (a) the oracle pair
x3 × c1 (numeric cut into B coarse equal-count groups of its fine bins × the category's levels),
(b) K pairs chosen on the training rows only, EBM-FAST-like: every pair ranked by the interaction
gain of its coarse grid on the one-feature vote's out-of-fold residuals. Test F1 at the threshold
chosen out of fold, as the search would.

    python benchmarks/adhoc/pairs15/ceiling.py SET RUNS [VARIANTS]   # RUNS 0-9
    VARIANTS e.g. "oracle4,oracle8,fast3,fast5,fast10" (B=4 for fast unless "fast5b8")
"""
import sys, warnings, re, time
import numpy as np
from scipy import sparse
warnings.simplefilter("ignore")
import plx_core.selection as S
import plx_core.vote as VT
from plx_core.estimator import PLXClassifier
from plx_core.query import encode_rows
from plx_core.experiments.compare import make, split_set

key, spec = sys.argv[1], sys.argv[2]
variants = (sys.argv[3] if len(sys.argv) > 3 else "oracle4,fast3,fast5,fast10").split(",")
runs = range(int(spec.split("-")[0]), int(spec.split("-")[1]) + 1)
X, y, splits = split_set(key, max(runs) + 1)
orig_adopt = PLXClassifier._adopt
got = {}
orig_choose = S.choose
def spy(y_, dp, dr, oof, **kw):
    got["y"] = y_
    return orig_choose(y_, dp, dr, oof, **kw)
orig_fine = PLXClassifier._fine_vote
def fine_spy(self, *a, **kw):
    out = orig_fine(self, *a, **kw)
    if out is not None and kw.get("cv", True):
        got["fine"] = out
    return out
S.choose, PLXClassifier._fine_vote = spy, fine_spy
TS = np.array(S.THRESHOLDS)


def coarse_codes(codes, sizes, orders, B):
    """Per feature: codes mapped to coarse groups (numeric: B equal-count groups of its fine bins
    in order; categorical: itself), and the coarse sizes."""
    out = np.full_like(codes, -1)
    csz = []
    for j, s in enumerate(sizes):
        c = codes[:, j]
        ok = (c >= 0) & (c < s)
        if j in orders and len(orders[j]) > B:
            o = orders[j]
            rank = np.full(s, -1)
            rank[o] = np.arange(len(o))
            grp = np.where(rank >= 0, rank * B // len(o), -1)
            out[:, j] = np.where(ok, grp[np.clip(c, 0, s - 1)], -1)
            csz.append(B)
        else:
            out[:, j] = np.where(ok, c, -1)
            csz.append(int(s))
    return out, np.array(csz)


def pair_cols(cc, csz, pairs):
    cols, szs = [], []
    for i, j in pairs:
        ok = (cc[:, i] >= 0) & (cc[:, j] >= 0)
        cols.append(np.where(ok, cc[:, i] * csz[j] + cc[:, j], -1))
        szs.append(int(csz[i] * csz[j]))
    return np.column_stack(cols), szs


def rank_pairs(cc, csz, ytr, p, rw):
    """Pairs by interaction gain of the coarse grid on residuals y − p (row weights rw), minus
    the df times the residual variance."""
    r = ytr - np.where(np.isnan(p), np.nanmean(p), p)
    n = cc.shape[1]
    sig2 = float(np.sum(rw * r * r) / np.sum(rw))
    def ss(code, ok, size):
        sw = np.bincount(code[ok], weights=rw[ok] * r[ok], minlength=size)
        w = np.bincount(code[ok], weights=rw[ok], minlength=size)
        m = w > 0
        return float(np.sum(sw[m] ** 2 / w[m])), int(m.sum())
    out = []
    for i in range(n):
        for j in range(i + 1, n):
            ok = (cc[:, i] >= 0) & (cc[:, j] >= 0)
            g2, k2 = ss(cc[:, i] * csz[j] + cc[:, j], ok, csz[i] * csz[j])
            gi, ki = ss(cc[:, i], ok, csz[i])
            gj, kj = ss(cc[:, j], ok, csz[j])
            df = k2 - ki - kj + 1
            out.append(((g2 - gi - gj) - df * sig2, (i, j)))
    out.sort(key=lambda t: -t[0])
    return out


def rank_quadrants(cc, csz, ytr, p, rw):
    """EBM FAST-like: each pair's best 2 × 2 cut (one threshold per axis on its coarse groups,
    categories ordered by their residual mean) by the interaction part of the four cells' gain
    on the residuals (cells' SS minus each axis split's SS)."""
    r = ytr - np.where(np.isnan(p), np.nanmean(p), p)
    n = cc.shape[1]
    order = []
    for j in range(n):  # categories (not ordered bins) by residual mean
        ok = cc[:, j] >= 0
        sw = np.bincount(cc[ok, j], weights=rw[ok] * r[ok], minlength=csz[j])
        w = np.bincount(cc[ok, j], weights=rw[ok], minlength=csz[j])
        order.append(np.argsort(np.argsort(sw / np.maximum(w, 1e-9))))
    out = []
    for i in range(n):
        for j in range(i + 1, n):
            ok = (cc[:, i] >= 0) & (cc[:, j] >= 0)
            a = order[i][cc[ok, i]] if i in cat else cc[ok, i]
            b = order[j][cc[ok, j]] if j in cat else cc[ok, j]
            ki, kj = csz[i], csz[j]
            code = a * kj + b
            H = np.bincount(code, weights=rw[ok] * r[ok], minlength=ki * kj).reshape(ki, kj)
            W = np.bincount(code, weights=rw[ok], minlength=ki * kj).reshape(ki, kj)
            cH, cW = H.cumsum(0).cumsum(1), W.cumsum(0).cumsum(1)
            tH, tW = cH[-1, -1], cW[-1, -1]
            q11, w11 = cH[:-1, :-1], cW[:-1, :-1]            # a <= s, b <= t
            rH, rW = cH[:-1, -1:], cW[:-1, -1:]              # a <= s
            cH_, cW_ = cH[-1:, :-1], cW[-1:, :-1]            # b <= t
            q12, w12 = rH - q11, rW - w11
            q21, w21 = cH_ - q11, cW_ - w11
            q22, w22 = tH - q11 - q12 - q21, tW - w11 - w12 - w21
            f = lambda h, w: np.where(w > 0, h * h / np.maximum(w, 1e-12), 0.0)
            cells = f(q11, w11) + f(q12, w12) + f(q21, w21) + f(q22, w22)
            rows = f(rH, rW) + f(tH - rH, tW - rW)
            cols = f(cH_, cW_) + f(tH - cH_, tW - cW_)
            g = cells - rows - cols
            out.append((float(g.max()) if g.size else 0.0, (i, j)))
    out.sort(key=lambda t: -t[0])
    return out


def fit_test(vs_tr, ytr, vs_te, yte, smooth, cw_of, cw, seed):
    oof, fit = VT.cross_fit(vs_tr, ytr, cw_of, seed, C=VT.FINE_C, l1=VT.FINE_L1, smooth=smooth)
    po = VT.probability(oof)
    counts = VT.slot_counts(vs_tr, ytr)
    if smooth is not None and smooth[2] is not None:
        counts = VT.pooled(counts, smooth[2])
    Sm = VT.votes(vs_te, np.zeros(len(yte)), np.arange(len(yte)), counts, cw, leave_out=False)
    pt = VT.probability(VT.scores(Sm, *fit))
    t, f = S.best_threshold(ytr, po)
    ft = S.f1_at(yte, pt, TS)
    return dict(oof=f, test=float(ft[TS == t][0]), po=po, nw=int((fit[0] > 0).sum()))


def extend(vs, smooth, extra_codes, extra_sizes):
    off = vs.n + np.concatenate([[0], np.cumsum(extra_sizes)[:-1]]).astype(np.int64)
    sz = np.asarray(extra_sizes)
    known = (extra_codes >= 0) & (extra_codes < sz[None, :])
    slot = np.hstack([vs.slot, np.where(known, extra_codes + off[None, :], -1)])
    n = vs.n + int(sz.sum())
    pool = smooth[2]
    if pool is not None:
        pool = sparse.block_diag([pool, sparse.identity(int(sz.sum()))], format="csr")
    return VT.ValueSlots(slot, n), (smooth[0], smooth[1], pool)


SCALE = [None, 1.0]
orig_votes = VT.votes
def scaled_votes(vs, *a, **kw):
    M = orig_votes(vs, *a, **kw)
    if SCALE[0] is not None and SCALE[1] != 1.0:
        M = M.tocsr(copy=True)
        M.data[M.indices >= SCALE[0]] *= SCALE[1]
    return M
VT.votes = scaled_votes
res = {v: [] for v in ["base", *variants]}
for r in runs:
    tr, te = splits[r]
    Xt, yt, Xe, ye = X.iloc[tr], y[tr], X.iloc[te], y[te]
    t0 = time.time()
    got.pop("fine", None)
    m = make("plx", r, Xt.shape[1]).fit(Xt, yt).model_
    chosen = m.chosen_
    cand, disc = got["fine"]
    ytr = np.asarray(got["y"]).astype(int); yte = np.asarray(ye).astype(int)
    tf = lambda Z: disc.transform(m._frame(Z, reset=False))
    ctr = encode_rows(cand.full, tf(Xt)); cte = encode_rows(cand.full, tf(Xe))
    vs_tr, vs_te = VT.value_slots(ctr, cand.sizes), VT.value_slots(cte, cand.sizes)
    smooth = VT.smoothing(cand.full, disc.binnings_)
    feats = list(cand.full.features)
    orders = {}
    for c, b in disc.binnings_.items():
        if c in feats:
            at = {str(v): i for i, v in enumerate(cand.full.domains[c])}
            orders[feats.index(c)] = np.array([at[lb] for lb in b.labels if lb in at], np.int64)
    cw_of, cw = m._fold_weights, cand.cw
    cat = {j for j in range(len(feats)) if j not in orders}
    base = fit_test(vs_tr, ytr, vs_te, yte, smooth, cw_of, cw, m.random_state)
    res["base"].append(base)
    rw = VT.row_weights(ytr, cw)
    ranked = {}
    for v in variants:
        mo = re.match(r"(oracle|fast|quad)(\d+)(?:b(\d+))?(?:s([0-9.]+))?(sm)?$", v)
        smp = bool(mo.group(5))
        scale = float(mo.group(4)) if mo.group(4) else 1.0
        kind, num, B = mo.group(1), int(mo.group(2)), mo.group(3)
        B = int(B) if B else (num if kind == "oracle" else 4)
        cc_tr, csz = coarse_codes(ctr, cand.sizes, orders, B)
        cc_te, _ = coarse_codes(cte, cand.sizes, orders, B)
        if kind == "oracle":
            if "x3" not in feats: continue
            pairs = [(feats.index("x3"), feats.index("c1"))]
        elif kind == "quad":
            if ("q", B) not in ranked:
                ranked[("q", B)] = rank_quadrants(cc_tr, csz, ytr, base["po"], rw)
            pairs = [p for _g, p in ranked[("q", B)][:num]]
        else:
            if B not in ranked:
                ranked[B] = rank_pairs(cc_tr, csz, ytr, base["po"], rw)
            pairs = [p for _g, p in ranked[B][:num]]
        etr, esz = pair_cols(cc_tr, csz, pairs)
        ete, _ = pair_cols(cc_te, csz, pairs)
        vtr, sm = extend(vs_tr, smooth, etr, esz)
        if smp:  # pair cells smoothed and pooled along their ordered axes, as fine bins are
            adj, at = [], vs_tr.n
            for (i, j), sz in zip(pairs, esz):
                ki, kj = csz[i], csz[j]
                g = np.arange(sz).reshape(ki, kj) + at
                if i in orders: adj.append(np.column_stack([g[:-1].ravel(), g[1:].ravel()]))
                if j in orders: adj.append(np.column_stack([g[:, :-1].ravel(), g[:, 1:].ravel()]))
                at += sz
            allp = np.vstack([smooth[0], *adj]) if adj else smooth[0]
            sm = (allp, smooth[1], VT.pool_matrix(vtr.n, allp, VT.FINE_POOL) if smooth[2] is not None else None)
        vte, _ = extend(vs_te, smooth, ete, esz)
        SCALE[:] = [vs_tr.n, scale]
        o = fit_test(vtr, ytr, vte, yte, sm, cw_of, cw, m.random_state)
        SCALE[:] = [None, 1.0]
        o["pairs"] = [(feats[i], feats[j]) for i, j in pairs]
        res[v].append(o)
    rk = ranked.get(4) or rank_pairs(*coarse_codes(ctr, cand.sizes, orders, 4), ytr, base["po"], rw)
    top = [(feats[i], feats[j]) for _g, (i, j) in rk[:3]]
    if "x3" in feats and "c1" in feats:
        want = (feats.index("x3"), feats.index("c1"))
        top.append(("oracle rank", [p for _g, p in rk].index(want)))
        rq = rank_quadrants(*coarse_codes(ctr, cand.sizes, orders, 8), ytr, base["po"], rw)
        top.append(("quad8 rank", [p for _g, p in rq].index(want)))
    line = " ".join(f"{v}:{a[-1]['oof']:.3f}/{a[-1]['test']:.3f}" for v, a in res.items() if a)
    print(f"run {r} chosen={chosen} {line} top={top} {time.time()-t0:.0f}s", flush=True)
for v, a in res.items():
    if not a: continue
    d = np.array([x["test"] for x in a]) - np.array([x["test"] for x in res["base"]])
    print(f"{key} {v:8s} oof {np.mean([x['oof'] for x in a]):.3f} test {np.mean([x['test'] for x in a]):.3f}"
          f"  vs base {d.mean():+.3f} (+{(d > 1e-9).sum()}/-{(d < -1e-9).sum()})")
