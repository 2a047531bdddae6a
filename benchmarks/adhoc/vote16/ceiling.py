"""Ad hoc (session 16, vote16): the default's smooth vote (as the search fitted it, its L1 the
one `vote.sparser` kept) refitted per split, answering with other weights or thresholds:
  base   the one fit on every training row (main), threshold best out-of-fold F1
  bag    weights = the 10 fold fits' signed votes averaged (s = sign_f · w_f), each clause's
         weight max(0, sign · mean s) under its full-row sign; intercept the folds' mean
  mix    (base + bag) / 2, likewise signed
  *_pl   threshold: the middle of the plateau of thresholds whose out-of-fold F1 is within one
         SE (folds' F1 at the best threshold) of the best
  *_sm   threshold: argmax of the out-of-fold F1 curve smoothed [1 2 1]/4
Test F1 of the vote always answering, and the default's own test F1 (its KB replaced by the
variant's where the smooth vote answers, predicted by the model itself).

    python benchmarks/adhoc/vote16/ceiling.py SET 0-9
"""
import sys, time, warnings
import numpy as np
warnings.simplefilter("ignore")
import plx_core.selection as S
import plx_core.vote as VT
from plx_core.estimator import PLXClassifier
from plx_core.query import encode_rows
from plx_core.experiments.compare import make, split_set

key, spec = sys.argv[1], sys.argv[2]
runs = range(int(spec.split("-")[0]), int(spec.split("-")[1]) + 1)
X, y, splits = split_set(key, max(runs) + 1)
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


def thresholds(ytr, po, seed):
    f1 = S.f1_at(ytr, po, TS)
    t_best, f_best = S.best_threshold(ytr, po)
    fold = S.fold_ids(ytr, VT.VOTE_FOLDS, seed)
    ff = S.fold_f1(ytr, po, t_best, fold)
    se = float(np.std(ff, ddof=1) / np.sqrt(len(ff)))
    i = int(np.flatnonzero(TS == t_best)[0])
    lo = hi = i
    while lo > 0 and f1[lo - 1] >= f_best - se:
        lo -= 1
    while hi < len(TS) - 1 and f1[hi + 1] >= f_best - se:
        hi += 1
    t_pl = float(TS[(lo + hi) // 2]) if (lo + hi) % 2 == 0 else float(
        min(TS[(lo + hi) // 2], TS[(lo + hi + 1) // 2], key=lambda t: abs(t - t_best)))
    pad = np.r_[f1[0], f1, f1[-1]]
    sm = (pad[:-2] + 2 * pad[1:-1] + pad[2:]) / 4
    order = np.lexsort((np.abs(TS - 0.5), -sm))
    return {"": t_best, "_pl": t_pl, "_sm": float(TS[order[0]])}


def signed_mean(fits, signs, full_sign):
    s = np.mean([sg * w for (w, _b), sg in zip(fits, signs)], axis=0)
    return np.maximum(full_sign * s, 0.0), float(np.mean([b for _w, b in fits]))


names = ["base", "bag", "mix", "pen"]
res = {f"{n}{t}": [] for n in names for t in ["", "_pl", "_sm"]}
dres = {k: [] for k in res}
for r in runs:
    tr, te = splits[r]
    Xt, yt, Xe, ye = X.iloc[tr], y[tr], X.iloc[te], y[te]
    t0 = time.time()
    got.pop("fine", None)
    m = make("plx", r, Xt.shape[1]).fit(Xt, yt).model_
    chosen = m.chosen_
    yte = np.asarray(ye).astype(int)
    pred0 = (np.asarray(m.predict(Xe)).astype(str) == str(m.positive_)).astype(int)
    f_def = float(S.f1_at(yte, pred0.astype(float), np.array([0.5]))[0])
    if "fine" not in got:
        print(f"run {r} no smooth vote; default {f_def:.3f}", flush=True)
        continue
    cand, disc = got["fine"]
    ytr = np.asarray(got["y"]).astype(int)
    tf = lambda Z: disc.transform(m._frame(Z, reset=False))
    ctr = encode_rows(cand.full, tf(Xt)); cte = encode_rows(cand.full, tf(Xe))
    vs_tr, vs_te = VT.value_slots(ctr, cand.sizes), VT.value_slots(cte, cand.sizes)
    smooth = VT.smoothing(cand.full, disc.binnings_)
    seed = m.random_state
    prob = VT.cross_problems(vs_tr, ytr, m._fold_weights, seed, smooth=smooth)
    parts, slots, counts, problems, pens = prob
    fits = VT.fit_many(problems, VT.FINE_C, cand.l1, penalties=pens)
    same = np.allclose(fits[-1][0], cand.fit[0]) and abs(fits[-1][1] - cand.fit[1]) < 1e-9
    signs = [VT.vote_signs(c, cw) for c, (_tr, _te, cw) in zip(counts, parts)]
    k = VT.VOTE_FOLDS
    bag = signed_mean(fits[:k], signs[:k], signs[k])
    base = fits[k]
    mix = signed_mean([base, bag], [signs[k], signs[k]], signs[k])
    oof = np.full(len(ytr), np.nan)
    for s, (_tr, tei, cw), c, (w, b) in zip(slots, parts[:k], counts, fits):
        oof[tei] = VT.scores(VT.votes(s, ytr, tei, c, cw, leave_out=False), w, b)
    po = VT.probability(oof)
    assert np.allclose(np.nan_to_num(po, nan=-1), np.nan_to_num(cand.oof, nan=-1))
    ths = thresholds(ytr, po, seed)
    # pen: the mean of the vote fitted with the two L1 penalties the search already fits
    # (`FINE_L1`, `FINE_L1_SPARSE`; same folds, same signs), its threshold on its own oof
    other = VT.fit_many(problems, VT.FINE_C, VT.FINE_L1_SPARSE if cand.l1 == VT.FINE_L1 else VT.FINE_L1, penalties=pens)
    avg = [((w1 + w2) / 2, (b1 + b2) / 2) for (w1, b1), (w2, b2) in zip(fits, other)]
    oof2 = np.full(len(ytr), np.nan)
    for s, (_tr, tei, cw), c, (w, b) in zip(slots, parts[:k], counts, avg):
        oof2[tei] = VT.scores(VT.votes(s, ytr, tei, c, cw, leave_out=False), w, b)
    ths_pen = thresholds(ytr, VT.probability(oof2), seed)
    Sm = VT.votes(vs_te, np.zeros(len(yte)), np.arange(len(yte)), counts[k], cand.cw, leave_out=False)
    is_vote = S.is_vote(chosen) and m.selection_.bins is not None and not m.selection_.pairs
    line = []
    for n, (w, b) in zip(names, [base, bag, mix, avg[k]]):
        pt = VT.probability(VT.scores(Sm, w, b))
        for tn, t in (ths_pen if n == "pen" else ths).items():
            ft = float(S.f1_at(yte, pt, np.array([t]))[0])
            res[n + tn].append(ft)
            if is_vote:
                m.kbs_[0] = VT.vote_kb(cand.full, cand.sizes, cand.cw, w, b, t, cand.pool)
                p = (np.asarray(m.predict(Xe)).astype(str) == str(m.positive_)).astype(float)
                fd = float(S.f1_at(yte, p, np.array([0.5]))[0])
            else:
                fd = f_def
            dres[n + tn].append(fd)
        line.append(f"{n}:{res[n][-1]:.3f}")
    print(f"run {r} chosen={chosen} l1={cand.l1} same={same} th={ths} default={f_def:.3f}/"
          f"{dres['base'][-1]:.3f} " + " ".join(line)
          + f" bag_default={dres['bag'][-1]:.3f} {time.time()-t0:.0f}s", flush=True)
b0, d0 = np.array(res["base"]), np.array(dres["base"])
for v in res:
    a, d = np.array(res[v]), np.array(dres[v])
    print(f"{key} {spec} {v:8s} always {a.mean():.4f} ({(a - b0).mean():+.4f} +{(a > b0 + 1e-9).sum()}/-{(a < b0 - 1e-9).sum()})"
          f"  default {d.mean():.4f} ({(d - d0).mean():+.4f} +{(d > d0 + 1e-9).sum()}/-{(d < d0 - 1e-9).sum()})")
