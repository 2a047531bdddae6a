"""Ad hoc (acc18): each vote always answering (MDLP, smooth, their mean log-odds), at its
best out-of-fold threshold and at `steady_threshold`: test F1 per range of runs.

    python benchmarks/adhoc/acc18/votes_alone.py ACC18.pkl
"""
import pickle
import sys

import numpy as np
from sklearn.metrics import f1_score

import plx_core.selection as S
import plx_core.vote as VT

recs = [r for r in pickle.load(open(sys.argv[1], "rb")) if "vote_oof" in r]


def logit(p):
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return np.log(p / (1 - p))


def mean_logit(a, b):
    return np.where(np.isnan(a), b, np.where(np.isnan(b), a, (a + b) / 2))


res = {}
for rec in recs:
    a = rec["args"]
    y = np.asarray(a["y"], bool)
    fine = next(k for k in rec["vote_oof"] if S.vote_bins(k))
    cands = {"mdlp": (a["oof"]["direct-vote"], rec["vote_test"]["direct-vote"]),
             "smooth": (a["oof"][fine], rec["vote_test"][fine])}
    cands["mean"] = (VT.probability(mean_logit(logit(cands["mdlp"][0]), logit(cands["smooth"][0]))),
                     mean_logit(cands["mdlp"][1], cands["smooth"][1]))
    for name, (oof, te) in cands.items():
        for how in ("best", "steady"):
            t = (S.best_threshold(y, oof)[0] if how == "best"
                 else S.steady_threshold(y, oof, np.asarray(a["vote_fold"])))
            d = np.nan_to_num(VT.probability(te), nan=-1) > t + 1e-9
            res.setdefault((name, how), []).append(
                (rec["run"], f1_score(rec["y_test"], d, zero_division=0),
                 S.best_threshold(y, oof)[1]))
for (name, how), v in res.items():
    runs, f1, oo = map(np.array, zip(*v))
    print(f"{name:7s} {how:7s} " + " | ".join(
        f"{lo}–{hi} test {f1[(runs >= lo) & (runs <= hi)].mean():.4f} oof {oo[(runs >= lo) & (runs <= hi)].mean():.4f}"
        for lo, hi in ((0, 9), (10, 19), (20, 39)) if ((runs >= lo) & (runs <= hi)).any()))
