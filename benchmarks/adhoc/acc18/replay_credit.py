"""Ad hoc (session 18, acc18): replay the search with the cut points' optimism (the credit the
honest candidates get, `PLXClassifier._cut_optimism`) measured in other ways from the same two
out-of-fold votes (the MDLP vote on the fit's cuts, `collect_votes.py`'s `honest` on each
fold's own): test decisions from session 17's collections for the trees, the rule vote and the
Direct KBs (`acc17/collect.py`), from the collected logits for the votes.

    python benchmarks/adhoc/acc18/replay_credit.py SET ACC18.pkl 'ACC17_GLOB.pkl'
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
    for path in glob.glob(p):
        for r in pickle.load(open(path, "rb")):
            tests[r["run"]] = r.get("tests", {})
TS = np.asarray(S.THRESHOLDS)


def credit_max(y, fit, hon):  # main: the difference of the two best F1
    return S.best_threshold(y, fit)[1] - S.best_threshold(y, hon)[1]


def credit_same_t(y, fit, hon):  # both at the fit's best threshold
    t = np.array([S.best_threshold(y, fit)[0]])
    return float(S.f1_at(y, fit, t)[0] - S.f1_at(y, hon, t)[0])


def credit_curve(y, fit, hon):  # the mean gap of the two F1 curves over every threshold
    return float(np.mean(S.f1_at(y, fit, TS) - S.f1_at(y, hon, TS)))


def credit_top(y, fit, hon, k=5):  # the mean of each curve's k best thresholds
    a, b = np.sort(S.f1_at(y, fit, TS))[-k:], np.sort(S.f1_at(y, hon, TS))[-k:]
    return float(a.mean() - b.mean())


def credit_near(y, fit, hon, w=2):  # each curve's mean within w steps of its own best
    def near(m):
        f = S.f1_at(y, m, TS)
        i = int(np.flatnonzero(np.isclose(TS, S.best_threshold(y, m)[0]))[0])
        return float(f[max(0, i - w): i + w + 1].mean())
    return near(fit) - near(hon)


CREDITS = {"main": credit_max, "same-t": credit_same_t, "curve": credit_curve,
           "top3": lambda *a: credit_top(*a, k=3), "top5": credit_top,
           "near1": lambda *a: credit_near(*a, w=1), "near2": credit_near,
           "zero": lambda *a: 0.0,
           "max(main,curve)": lambda *a: max(credit_max(*a), credit_curve(*a)),
           "max(main,same-t)": lambda *a: max(credit_max(*a), credit_same_t(*a)),
           "mean(main,curve)": lambda *a: (credit_max(*a) + credit_curve(*a)) / 2}


def decide(rec, k, t):
    if k in rec.get("vote_test", {}):
        return np.nan_to_num(VT.probability(rec["vote_test"][k]), nan=-1) > t + 1e-9
    return tests.get(rec["run"], {}).get(k, {}).get(round(float(t), 2))


def replay(rec, how):
    a = rec["args"]
    if rec.get("honest") is None or not a.get("offsets"):
        sel = S.choose(**a)
        return sel.key, decide(rec, sel.key, sel.threshold), None
    y = np.asarray(a["y"], bool)
    fit, hon = a["oof"]["direct-vote"], rec["honest"]
    got = next(iter(a["offsets"].values()))  # the collecting code's credit: main's or curve's
    assert any(abs(got - CREDITS[c](y, fit, hon)) < 1e-9 for c in ("main", "curve")), got
    new = CREDITS[how](y, fit, hon)
    sel = S.choose(**dict(a, offsets={k: new for k in a["offsets"]}))
    return sel.key, decide(rec, sel.key, sel.threshold), new


runs = sorted(r for r in recs if "args" in recs[r])
print(key, f"runs {runs[0]}–{runs[-1]}")
base = None
for name in CREDITS:
    f1s, keys, cr, miss = [], [], [], 0
    for r in runs:
        k, d, c = replay(recs[r], name)
        keys.append(k)
        cr.append(np.nan if c is None else c)
        if d is None:
            miss += 1
            f1s.append(np.nan)
            continue
        f1s.append(f1_score(recs[r]["y_test"], d, zero_division=0))
    f1s = np.array(f1s)
    ok = ~np.isnan(f1s)
    ref = np.array([recs[r]["f1"] for r in runs])
    if np.allclose(f1s[ok], ref[ok]):
        print(f"  (rule {name} reproduces the collected default)")
    if name == "main":
        base = f1s
    d = f1s - base
    out = []
    for lo, hi in ((0, 9), (10, 19), (20, 39)):
        m = (np.array(runs) >= lo) & (np.array(runs) <= hi)
        if m.any():
            out.append(f"{lo}–{hi}: {np.nanmean(f1s[m]):.4f} {np.nanmean(d[m]):+.4f} "
                       f"({int((d[m] > 1e-9).sum())}/{int((d[m] < -1e-9).sum())})")
    print(f"  {name:16s} credit {np.nanmean(cr):.4f} sd {np.nanstd(cr):.4f}  " + " | ".join(out)
          + (f" missing {miss}" if miss else ""))
    if name != "main":
        moved = [f"{r}:{k.replace('direct-vote', 'dv')}{'' if np.isfinite(dd) else '?'}"
                 for r, k, dd in zip(runs, keys, d) if not abs(dd) <= 1e-9]
        print("      moved", " ".join(moved))
