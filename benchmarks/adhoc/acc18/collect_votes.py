"""Ad hoc (session 18, acc18): per split of the comparison, the out-of-fold and test-row vote
scores (logits) of the MDLP vote ("direct-vote") and the smooth vote ("direct-vote bins=N"),
the cut optimism's honest out-of-fold vote, plus everything `selection.choose` was given, so that `replay_mean.py` can replay a vote whose
log-odds are the mean of the two (one more candidate, or in place of the smooth vote). The
other candidates' test decisions come from session 17's collections (`acc17/collect.py`, same
splits and seeds).

    python benchmarks/adhoc/acc18/collect_votes.py SET RUNS OUT.pkl    # RUNS: 0-9 or 0,3,7
"""
import copy
import pickle
import sys
import warnings

import numpy as np
from sklearn.metrics import f1_score

import plx_core.selection as S
import plx_core.vote as VT
from plx_core.estimator import PLXClassifier
from plx_core.experiments.compare import make, split_set
from plx_core.query import encode_rows

warnings.simplefilter("ignore")
key, spec, out = sys.argv[1], sys.argv[2], sys.argv[3]
runs = (list(range(int(spec.split("-")[0]), int(spec.split("-")[1]) + 1)) if "-" in spec
        else [int(r) for r in spec.split(",")])
X, y, splits = split_set(key, max(runs) + 1)
orig_choose, orig_adopt, orig_init = S.choose, PLXClassifier._adopt, VT.VoteCandidate.__init__
orig_cross = VT.cross_fit
got: dict = {}
slots_of: dict = {}


def spy(*a, **kw):
    names = ("y", "direct_pred", "direct_rows", "oof", "fold", "offsets", "sizes", "fine_l1",
             "vote_fold")
    got["choose"] = dict(zip(names, a)) | kw
    return orig_choose(*a, **kw)


def adopt(self, sel, frame, labels, raw, votes=None, pairs=None):
    got["adopt"] = (copy.deepcopy(self), votes)
    return orig_adopt(self, sel, frame, labels, raw, votes, pairs)


def init(self, full, slots, sizes, yy, *a, **kw):
    slots_of[id(self)] = (slots, np.asarray(yy))
    return orig_init(self, full, slots, sizes, yy, *a, **kw)


def cross(*a, **kw):  # the cut optimism's honest vote: each fold on its own cut points
    out = orig_cross(*a, **kw)
    if kw.get("fold_slots") is not None and kw.get("final") is False:
        got["honest"] = VT.probability(out[0])
    return out


S.choose, PLXClassifier._adopt, VT.VoteCandidate.__init__ = spy, adopt, init
VT.cross_fit = cross


def test_scores(est, cand, disc, Xe):
    """The vote's logit on the test rows, as `cross_fit` scores a held-out row."""
    e = copy.copy(est)
    if disc is not None:
        e.discretizer_ = disc
    codes = encode_rows(cand.full, e.transform_rows(Xe))
    vs = VT.value_slots(codes, cand.sizes)
    tr_slots, yy = slots_of[id(cand)]
    counts = VT.slot_counts(tr_slots, yy)
    if cand.pool is not None:
        counts = VT.pooled(counts, cand.pool)
    Sm = VT.votes(vs, np.zeros(len(Xe), int), np.arange(len(Xe)), counts, cand.cw, False)
    return VT.scores(Sm, *cand.fit)


rows = []
for r in runs:
    tr, te = splits[r]
    Xt, yt, Xe, ye = X.iloc[tr], y[tr], X.iloc[te], y[te]
    got.clear()
    slots_of.clear()
    m = make("plx", r, Xt.shape[1]).fit(Xt, yt).model_
    pred = np.asarray(m.predict(Xe), dtype=int)
    rec = {"run": r, "y_test": ye, "f1": f1_score(ye, pred, zero_division=0),
           "chosen": m.selection_.key if m.selection_ else None, "reason": m.chosen_reason_}
    if "choose" not in got or not got["adopt"][1]:
        rows.append(rec)
        continue
    rec["args"] = got["choose"]
    base, votes = got["adopt"]
    rec["vote_test"] = {S.vote_key(b): test_scores(base, c, d, Xe) for b, (c, d) in votes.items()}
    rec["vote_oof"] = {S.vote_key(b): c.oof for b, (c, d) in votes.items()}
    rec["honest"] = got.get("honest")  # the MDLP vote with each fold's own cuts (None: no credit)
    if m.selection_.key in rec["vote_test"]:  # check: the answering vote decides as its logit
        t = m.selection_.threshold
        mine = np.nan_to_num(VT.probability(rec["vote_test"][m.selection_.key]), nan=-1) > t + 1e-9
        rec["check"] = float((mine == (pred == 1)).mean())
    rows.append(rec)
    print(f"{key} run {r}: {rec['chosen']} f1 {rec['f1']:.4f} check {rec.get('check')}",
          flush=True)
    with open(out, "wb") as f:
        pickle.dump(rows, f)
