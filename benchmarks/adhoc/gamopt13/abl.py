"""Ad hoc (session 13, gamopt13): the smooth vote always answering, refitted on the default's fine
bins under other settings (VARIANTS: "l1=3.0,smooth=None,k=5", keyword arguments of the fit; on
"gen:rare7-20*" also the deciding columns alone): per split its out-of-fold F1 at its best
threshold, its test F1 at that threshold, and both F1 curves over `selection.THRESHOLDS`.

    python benchmarks/adhoc/gamopt13/abl.py SET RUNS VARIANTS    # RUNS 0-9; SET as collect.py
"""
import sys, warnings, pickle
import numpy as np
warnings.simplefilter("ignore")
import plx_core.selection as S
import plx_core.vote as VT
from plx_core.estimator import PLXClassifier
from plx_core.query import encode_rows
from plx_core.experiments.compare import make, split_set
sys.path.insert(0, __import__("os").path.join(__import__("os").path.dirname(__import__("os").path.abspath(__file__)), "..", "rare13"))
key, spec = sys.argv[1], sys.argv[2]
runs = range(int(spec.split("-")[0]), int(spec.split("-")[1]) + 1)
if key.startswith("gen:"):
    from tables import split_table
    split = lambda r: split_table(key[4:], r)
else:
    X, y, splits = split_set(key, max(runs) + 1)
    def split(r):
        tr, te = splits[r]
        return X.iloc[tr], y[tr], X.iloc[te], y[te]
orig_adopt = PLXClassifier._adopt
got = {}
def spy(y_, dp, dr, oof, fold=None, offsets=None):
    k = next(k for k in oof if S.vote_bins(k))
    got["y"], got["oof"] = y_, oof[k]
    return S._choose(y_, None, dr, {k: oof[k]}, fold)
def adopt(self, sel, frame, labels, raw, votes=None, pairs=None):
    got["votes"] = votes
    return orig_adopt(self, sel, frame, labels, raw, votes, pairs)
S.choose, PLXClassifier._adopt = spy, adopt
TS = np.array(S.THRESHOLDS)

def run_variant(vs_tr, ytr, vs_te, yte, cand, smooth, C, l1, seed, cols=None, k=10):
    if cols is not None:  # keep only these features' slots
        off = np.concatenate([[0], np.cumsum(cand.sizes)[:-1]])
        keep = np.zeros(vs_tr.n, bool)
        for j in cols: keep[off[j]:off[j] + cand.sizes[j]] = True
        def cut(vs):
            s = vs.slot.copy(); s[(s >= 0) & ~keep[np.maximum(s, 0)]] = -1
            return VT.ValueSlots(s, vs.n)
        vs_tr, vs_te = cut(vs_tr), cut(vs_te)
    oof, fit = VT.cross_fit(vs_tr, ytr, cand_cw, seed, k=k, C=C, l1=l1, smooth=smooth)
    po = VT.probability(oof)
    counts = VT.slot_counts(vs_tr, ytr)
    if smooth is not None and smooth[2] is not None:
        counts = VT.pooled(counts, smooth[2])
    Sm = VT.votes(vs_te, np.zeros(len(yte)), np.arange(len(yte)), counts, cand.cw, leave_out=False)
    pt = VT.probability(VT.scores(Sm, *fit))
    fo, ft = S.f1_at(ytr, po, TS), S.f1_at(yte, pt, TS)
    t, f = S.best_threshold(ytr, po)
    return dict(oof=f, test=float(ft[TS == t][0]), fo=fo, ft=ft, nw=int((fit[0] > 0).sum()))

variants = {"base": dict()}
for a in sys.argv[3].split(","):
    variants[a] = eval("dict(" + a + ")")
res = {v: [] for v in variants}
for r in runs:
    Xt, yt, Xe, ye = split(r)
    m = make("plx", r, Xt.shape[1]).fit(Xt, yt).model_
    cand, disc = next(v for b, v in got["votes"].items() if b)
    ytr = np.asarray(got["y"]).astype(int); yte = np.asarray(ye).astype(int)
    vs_tr = VT.value_slots(encode_rows(cand.full, m.transform_rows(Xt)), cand.sizes)
    vs_te = VT.value_slots(encode_rows(cand.full, m.transform_rows(Xe)), cand.sizes)
    smooth = VT.smoothing(cand.full, disc.binnings_)
    cand_cw = m._fold_weights
    feats = list(cand.full.features)
    sig = [feats.index(f) for f in feats if f in ("x0", "x1", "x2", "x3", "x4", "x5")]
    for v, o in variants.items():
        if v == "signal" and not key.startswith("gen:rare7"): continue
        kw = dict(smooth=smooth, C=VT.FINE_C, l1=VT.FINE_L1, seed=m.random_state)
        kw.update({a: b for a, b in o.items() if a not in ("cols",)})
        res[v].append(run_variant(vs_tr, ytr, vs_te, yte, cand, cols=sig if o.get("cols") else None, **kw))
    line = " ".join(f"{v}:{a[-1]['oof']:.3f}/{a[-1]['test']:.3f}/{a[-1]['nw']}" for v, a in res.items() if a)
    print(f"run {r} orig_oof={S.best_threshold(ytr, got['oof'])[1]:.3f} {line}", flush=True)
    pickle.dump(res, open(f"/tmp/abl_{key.replace(':','_')}_{spec}_{sys.argv[3]}.pkl", "wb"))
mid = (TS >= 0.3) & (TS <= 0.65)
for v, a in res.items():
    if not a: continue
    o = np.mean([x["oof"] for x in a]); t = np.mean([x["test"] for x in a])
    gap = np.mean([np.mean(x["fo"][mid] - x["ft"][mid]) for x in a])
    print(f"{v:10s} oof {o:.3f} test {t:.3f} oof-test {o-t:+.3f}  fixed-threshold gap (0.3–0.65) {gap:+.3f}  nw {np.mean([x['nw'] for x in a]):.0f}")
