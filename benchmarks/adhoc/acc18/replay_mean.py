"""Ad hoc (session 18, acc18): replay the search with a vote whose log-odds are the mean of the
MDLP vote's and the smooth vote's (`collect_votes.py`'s logits), in place of the smooth vote or
as one more candidate, its score credited with a share of the cut points' optimism; the other
candidates' test decisions from session 17's collections (`acc17/collect.py`).

    python benchmarks/adhoc/acc18/replay_mean.py SET ACC18.pkl ACC17.pkl [ACC17.pkl …]
"""
import glob
import pickle
import sys

import numpy as np
from sklearn.metrics import f1_score

import plx_core.selection as S
import plx_core.vote as VT

key, mine, old = sys.argv[1], sys.argv[2], sys.argv[3:]
recs = {r["run"]: r for r in pickle.load(open(mine, "rb"))}
tests = {}
for p in old:
    for paths in glob.glob(p):
        for r in pickle.load(open(paths, "rb")):
            tests[r["run"]] = r.get("tests", {})


def logit(p):
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return np.log(p / (1 - p))


def mean_logit(a, b, wa=0.5):
    out = wa * a + (1 - wa) * b
    return np.where(np.isnan(a), b, np.where(np.isnan(b), a, out))


def decide(rec, k, t, logits):
    if k in logits:
        return np.nan_to_num(VT.probability(logits[k]), nan=-1) > t + 1e-9
    got = tests.get(rec["run"], {}).get(k, {})
    return got.get(round(float(t), 2))


def replay(rec, mode, credit, w_fine=0.5):
    a = dict(rec["args"])
    fine = next((k for k in rec["vote_oof"] if S.vote_bins(k)), None)
    logits = {k: v for k, v in rec["vote_test"].items()}
    if mode == "main" or fine is None:
        sel = S.choose(**a)
        return sel.key, decide(rec, sel.key, sel.threshold, logits)
    oof_m = mean_logit(logit(a["oof"][fine]), logit(a["oof"]["direct-vote"]), w_fine)
    test_m = mean_logit(rec["vote_test"][fine], rec["vote_test"]["direct-vote"], w_fine)
    offs = dict(a["offsets"] or {})
    c = offs.get(fine, 0.0) * credit
    b = dict(a, oof={**a["oof"], fine: VT.probability(oof_m)}, offsets={**offs, fine: c})
    if mode == "add":  # one more candidate of the smooth vote's kind: the better of the two races
        y = np.asarray(a["y"], bool)
        rows = np.arange(len(y)) if a["direct_rows"] is None else np.asarray(a["direct_rows"])
        s_f = S.best_threshold(y[rows], a["oof"][fine][rows])[1] + offs.get(fine, 0.0)
        s_m = S.best_threshold(y[rows], VT.probability(oof_m)[rows])[1] + c
        if s_m <= s_f:
            sel = S.choose(**a)
            return sel.key, decide(rec, sel.key, sel.threshold, logits)
    sel = S.choose(**b)
    logits[fine] = test_m
    return sel.key, decide(rec, sel.key, sel.threshold, logits)


RULES = {"main": ("main", 0), "replace c1": ("replace", 1.0), "replace c½": ("replace", 0.5),
         "replace c0": ("replace", 0.0), "add c1": ("add", 1.0), "add c½": ("add", 0.5),
         "add c0": ("add", 0.0)}
base = None
runs = sorted(r for r in recs if "args" in recs[r])
print(key, f"runs {runs[0]}–{runs[-1]}")
ranges = [(0, 9), (10, 19), (20, 39)]
for name, (mode, credit) in RULES.items():
    f1s, keys, miss = [], [], 0
    for r in runs:
        rec = recs[r]
        k, d = replay(rec, mode, credit)
        keys.append(k)
        if d is None:
            miss += 1
            f1s.append(np.nan)
            continue
        f1s.append(f1_score(rec["y_test"], d, zero_division=0))
    f1s = np.array(f1s)
    if name == "main":
        ok = ~np.isnan(f1s)
        ref = np.array([recs[r]["f1"] for r in runs])
        assert np.allclose(f1s[ok], ref[ok]), (f1s, ref)
        base = f1s
    d = f1s - base
    out = []
    for lo, hi in ranges:
        m = (np.array(runs) >= lo) & (np.array(runs) <= hi)
        if m.any():
            out.append(f"{lo}–{hi}: {np.nanmean(f1s[m]):.4f} {np.nanmean(d[m]):+.4f} "
                       f"({int((d[m] > 1e-9).sum())}/{int((d[m] < -1e-9).sum())})")
    print(f"  {name:12s} " + " | ".join(out) + (f" missing {miss}" if miss else ""))
    if name != "main":
        moved = [f"{r}:{k.replace('direct-vote', 'dv')}" for r, k, dd in zip(runs, keys, d)
                 if abs(dd) > 1e-9]
        print("      moved", " ".join(moved))
