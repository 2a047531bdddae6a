"""Ad hoc (gamopt13): the default forced to answer with its smooth vote: out-of-fold F1, the
vote's own test F1 (its logistic probability at the chosen threshold) and its KB's.

    python benchmarks/adhoc/gamopt13/diag.py SET RUNS
"""
import sys, warnings, os, pickle
import numpy as np
warnings.simplefilter("ignore")
import plx_core.selection as S
import plx_core.vote as VT
from plx_core.estimator import PLXClassifier
from plx_core.query import encode_rows
from plx_core.experiments.compare import make, split_set
from sklearn.metrics import f1_score
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
orig_choose, orig_adopt = S.choose, PLXClassifier._adopt
got = {}
def spy(y_, dp, dr, oof, fold=None, offsets=None):
    k = next(k for k in oof if S.vote_bins(k))
    got["y"], got["oof"], got["dr"], got["fold"] = y_, oof[k], dr, fold
    return S._choose(y_, None, dr, {k: oof[k]}, fold)
def adopt(self, sel, frame, labels, raw, votes=None, pairs=None):
    got["votes"] = votes
    return orig_adopt(self, sel, frame, labels, raw, votes, pairs)
S.choose, PLXClassifier._adopt = spy, adopt
out = []
for r in runs:
    Xt, yt, Xe, ye = split(r)
    m = make("plx", r, Xt.shape[1]).fit(Xt, yt).model_
    bins = next(b for b in got["votes"] if b)
    cand, disc = got["votes"][bins]
    yy = got["y"]; rows = got["dr"] if got["dr"] is not None else np.arange(len(yy))
    t, f_oof = S.best_threshold(yy[rows].astype(bool), got["oof"][rows])
    fr = m.transform_rows(Xe)
    codes = encode_rows(cand.full, fr)
    vs = VT.value_slots(codes, cand.sizes)
    ytr = np.asarray(yy)
    counts = VT.slot_counts(VT.value_slots(encode_rows(cand.full, m.transform_rows(Xt)), cand.sizes), ytr)
    if cand.pool is not None:
        counts = VT.pooled(counts, cand.pool)
    Sm = VT.votes(vs, np.zeros(len(ye)), np.arange(len(ye)), counts, cand.cw, leave_out=False)
    p = VT.probability(VT.scores(Sm, *cand.fit))
    pv = np.nan_to_num(p, nan=0.0)
    ye = np.asarray(ye).astype(int)
    pos = np.asarray(m.classes_)[1] if hasattr(m, "classes_") else 1
    kbm = m.bounds(Xe)["mean"].to_numpy()
    f_vote = f1_score(ye, pv > t + 1e-9)
    f_kb = f1_score(ye, kbm > 0.5 + 1e-9)
    agree = np.mean((pv > t + 1e-9) == (kbm > 0.5 + 1e-9))
    thr = np.array(S.THRESHOLDS)
    f_best = max(f1_score(ye, pv > u + 1e-9) for u in thr)
    rec = dict(run=r, t=t, oof=f_oof, vote=f_vote, kb=f_kb, agree=agree, best=f_best,
               pos_oof=np.mean(got["oof"][rows] > t), pos_test=np.mean(pv > t), n_te_pos=ye.sum(),
               nw=int((cand.fit[0] > 0).sum()), b=cand.fit[1])
    out.append(rec)
    print(" ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in rec.items()), flush=True)
    pickle.dump(out, open(f"/tmp/diag_{key.replace(':','_')}_{spec}.pkl", "wb"))
a = {k: np.mean([o[k] for o in out]) for k in out[0]}
print("MEAN", " ".join(f"{k}={v:.3f}" for k, v in a.items()))
