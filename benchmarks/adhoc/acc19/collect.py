"""Ad hoc (session 19, acc19; session 17's `acc17/collect.py` plus the cut optimism's honest
out-of-fold vote, as `acc18/collect_votes.py` keeps it): per split of the comparison, everything `selection.choose` was
given (every candidate's out-of-fold means, folds, offsets, sizes, the votes' folds) and the
test-row decisions of every candidate within `NEAR` of the best score, each adopted from the
same search on a copy of the estimator (the smooth vote at every threshold of
`selection.THRESHOLDS`), so that `replay.py` can replay the choice under other rules.

    python benchmarks/adhoc/acc19/collect.py SET RUNS OUT.pkl    # RUNS: 0-9 or 0,3,7
"""
import copy
import pickle
import sys
import warnings
from dataclasses import replace

import numpy as np
from sklearn.metrics import f1_score

import plx_core.selection as S
import plx_core.vote as VT
from plx_core.estimator import PLXClassifier
from plx_core.experiments.compare import make, split_set

warnings.simplefilter("ignore")
NEAR = 0.04
key, spec, out = sys.argv[1], sys.argv[2], sys.argv[3]
runs = (list(range(int(spec.split("-")[0]), int(spec.split("-")[1]) + 1)) if "-" in spec
        else [int(r) for r in spec.split(",")])
X, y, splits = split_set(key, max(runs) + 1)
orig_choose, orig_adopt = S.choose, PLXClassifier._adopt
got: dict = {}


def spy(*a, **kw):
    names = ("y", "direct_pred", "direct_rows", "oof", "fold", "offsets", "sizes", "fine_l1",
             "vote_fold")
    args = dict(zip(names, a)) | kw
    got["choose"] = args
    return orig_choose(**args)


def adopt(self, sel, frame, labels, raw, votes=None, pairs=None):
    got["adopt"] = (copy.deepcopy(self), frame, labels, raw, votes, pairs)
    return orig_adopt(self, sel, frame, labels, raw, votes, pairs)


orig_cross = VT.cross_fit


def cross(*a, **kw):  # the cut optimism's honest vote: each fold on its own cut points
    out = orig_cross(*a, **kw)
    if kw.get("fold_slots") is not None and kw.get("final") is False:
        got["honest"] = VT.probability(out[0])
    return out


S.choose, PLXClassifier._adopt, VT.cross_fit = spy, adopt, cross
rows = []
for r in runs:
    tr, te = splits[r]
    Xt, yt, Xe, ye = X.iloc[tr], y[tr], X.iloc[te], y[te]
    got.clear()
    m = make("plx", r, Xt.shape[1]).fit(Xt, yt).model_
    pred = np.asarray(m.predict(Xe), dtype=int)
    rec = {"run": r, "y_test": ye, "f1": f1_score(ye, pred, zero_division=0),
           "chosen": m.selection_.key if m.selection_ else None, "reason": m.chosen_reason_}
    if "choose" not in got:  # no search (too few rows)
        rows.append(rec)
        continue
    args = got["choose"]
    rec["args"] = args
    rec["honest"] = got.get("honest")
    base, frame, labels, raw, votes, pairs = got["adopt"]
    sel_all = orig_choose(**args)
    top = max(sel_all.scores.values())
    tests = {}
    for k, s in sel_all.scores.items():
        if s < top - NEAR and k != sel_all.key:
            continue
        one = {k: args["oof"][k]} if k in args["oof"] else {}
        sel = orig_choose(args["y"], args["direct_pred"] if k == "direct" else None,
                          args["direct_rows"], one, args["fold"],
                          {kk: v for kk, v in (args["offsets"] or {}).items() if kk in one},
                          args["sizes"], args["fine_l1"], args["vote_fold"])
        ts = S.THRESHOLDS if S.vote_bins(k) else (sel.threshold,)
        tests[k] = {}
        for t in ts:
            e = copy.deepcopy(base)
            orig_adopt(e, replace(sel, threshold=t), frame, labels, raw, votes, pairs)
            e.kb_ = e.kbs_[0]
            e._class_str = m._class_str
            tests[k][round(float(t), 2)] = np.asarray(e.predict(Xe)).astype(int) == 1
        tests[k]["own"] = round(float(sel.threshold), 2)
    rec["tests"] = tests
    rows.append(rec)
    print(f"{key} run {r}: {rec['chosen']} f1 {rec['f1']:.4f} near {len(tests)}", flush=True)
    with open(out, "wb") as f:
        pickle.dump(rows, f)
