"""Ad hoc (acc18): the smooth vote always answering, at thresholds chosen by other rules than
`steady_threshold`: test F1 per range of runs (the collected logits, `collect_votes.py`).

    python benchmarks/adhoc/acc18/thresholds.py ACC18.pkl [...]
"""
import pickle
import sys

import numpy as np
from sklearn.metrics import f1_score

import plx_core.selection as S
import plx_core.vote as VT

TS = np.asarray(S.THRESHOLDS)


def logit(p):
    return np.log(p / (1 - p))


def half_f1(y, p, fold):  # Lipton et al.: on calibrated probabilities the F1-optimal cut is F*/2
    n_pos = int(y.sum())
    f = S.best_threshold(y, p)[1]
    t = 1 / (1 + np.exp(-(logit(f / 2) + np.log((len(y) - n_pos) / n_pos))))
    return float(t)


def half_f1_snap(y, p, fold):
    t = half_f1(y, p, fold)
    return float(TS[np.argmin(abs(TS - t))])


def rate(y, p, fold):  # as many rows above it out of fold as there are positives
    q = np.nan_to_num(p, nan=-1)
    return float(TS[np.argmin([abs((q > t + 1e-9).sum() - y.sum()) for t in TS])])


def smooth3(y, p, fold):  # the best of the F1 curve averaged over neighbouring thresholds
    f = S.f1_at(y, p, TS)
    g = np.convolve(np.r_[f[0], f, f[-1]], np.ones(3) / 3, "valid")
    order = np.lexsort((abs(TS - 0.5), -g))
    return float(TS[order[0]])


RULES = {"best": lambda y, p, f: S.best_threshold(y, p)[0], "steady": S.steady_threshold,
         "F*/2": half_f1, "F*/2 snap": half_f1_snap, "rate": rate, "smooth3": smooth3}
for path in sys.argv[1:]:
    recs = [r for r in pickle.load(open(path, "rb")) if "vote_oof" in r]
    print(path)
    for name, rule in RULES.items():
        out, ts = [], []
        for rec in recs:
            a = rec["args"]
            y = np.asarray(a["y"], bool).astype(int)
            fine = next(k for k in rec["vote_oof"] if S.vote_bins(k))
            t = rule(y, a["oof"][fine], np.asarray(a["vote_fold"]))
            d = np.nan_to_num(VT.probability(rec["vote_test"][fine]), nan=-1) > t + 1e-9
            out.append((rec["run"], f1_score(rec["y_test"], d, zero_division=0)))
            ts.append(t)
        runs, f1 = map(np.array, zip(*out))
        print(f"  {name:10s} mean t {np.mean(ts):.3f} " + " | ".join(
            f"{lo}–{hi} {f1[(runs >= lo) & (runs <= hi)].mean():.4f}"
            for lo, hi in ((0, 9), (10, 19), (20, 39))))
