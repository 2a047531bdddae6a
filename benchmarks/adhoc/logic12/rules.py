# ad hoc (session 12, logic12): test F1 of choice rules for the rule vote, offline, on the
# records of `dump.py` (each split's choose inputs, the test F1 of the choice without the rule
# vote and of the rule vote).  python benchmarks/adhoc/logic12/rules.py DUMPDIR [SETS]
import glob, os, pickle, sys
from collections import defaultdict
import numpy as np
import plx_core.selection as S

recs = []
for p in sorted(glob.glob(os.path.join(sys.argv[1], "*.pkl"))):
    with open(p, "rb") as fh:
        recs.append(pickle.load(fh))
only = set(sys.argv[2].split(",")) if len(sys.argv) > 2 else None


def facts(r):
    y, dp, dr, oof, fold, offsets = r["args"]
    y = np.asarray(y, bool)
    rows = np.arange(len(y)) if dr is None else np.asarray(dr)
    rest = {k: v for k, v in oof.items() if k != "rule-vote"}
    w = S._choose(y, dp, dr, rest, fold, offsets)
    rv = S._choose(y, None, dr, {"rule-vote": oof["rule-vote"]})
    wm = oof[w.key][rows] if w.key in oof else np.asarray(dp, float)
    a = S.fold_f1(y[rows], oof["rule-vote"][rows], rv.threshold, np.asarray(fold)[rows])
    b = S.fold_f1(y[rows], wm, w.thresholds[w.key], np.asarray(fold)[rows])
    d = a - b
    se = float(np.std(d, ddof=1) / np.sqrt(len(d)))
    # rows answered differently: how many of them the rule vote gets right, balanced
    pa = np.nan_to_num(oof["rule-vote"][rows], nan=-1) > rv.threshold + 1e-9
    pb = np.nan_to_num(wm, nan=-1) > w.thresholds[w.key] + 1e-9
    yy = y[rows]
    diff = pa != pb
    won = int((diff & (pa == yy)).sum()); lost = int((diff & (pb == yy)).sum())
    from sklearn.metrics import roc_auc_score
    ra = np.nan_to_num(oof["rule-vote"][rows], nan=0.5); rb = np.nan_to_num(wm, nan=0.5)
    brier_a = float(np.mean((ra - yy) ** 2)); brier_b = float(np.mean((rb - yy) ** 2))
    try:
        auc_a, auc_b = roc_auc_score(yy, ra), roc_auc_score(yy, rb)
    except ValueError:
        auc_a = auc_b = 0.5
    return dict(brier_a=brier_a, brier_b=brier_b, auc_a=auc_a, auc_b=auc_b, gain=rv.scores["rule-vote"] - w.scores[w.key], se=se, d=d, won=won, lost=lost,
                wkey=w.key, n=len(rows), rvs=rv.scores["rule-vote"], ws=w.scores[w.key])


RULES = {
    "margin .01 (now)": lambda f: f["gain"] > 0.01,
    "margin .005": lambda f: f["gain"] > 0.005,
    "margin 0": lambda f: f["gain"] > 0,
    "1se": lambda f: f["gain"] > f["se"] + 1e-12,
    "0.5se": lambda f: f["gain"] > 0.5 * f["se"] + 1e-12,
    "2se": lambda f: f["gain"] > 2 * f["se"] + 1e-12,
    "1se & >.002": lambda f: f["gain"] > max(f["se"], 0.002),
    "min(.01,1se)": lambda f: f["gain"] > min(0.01, f["se"]) + 1e-12,
    "min(.01,2se)": lambda f: f["gain"] > min(0.01, 2 * f["se"]) + 1e-12,
    "allfolds>=0 & gain>0": lambda f: f["gain"] > 0 and (f["d"] >= -1e-12).all(),
    "sign won>lost+2": lambda f: f["gain"] > 0 and f["won"] > f["lost"] + 2,
    "sign z>1": lambda f: f["gain"] > 0 and (f["won"] - f["lost"]) > 1.0 * np.sqrt(f["won"] + f["lost"]),
    "sign z>1.64": lambda f: f["gain"] > 0 and (f["won"] - f["lost"]) > 1.64 * np.sqrt(f["won"] + f["lost"]),
    "1se|nofoldlost": lambda f: f["gain"] > f["se"] + 1e-12 or (f["gain"] >= -1e-12 and (f["d"] >= -1e-12).all()),
    "1se|same": lambda f: f["gain"] > f["se"] + 1e-12 or (f["won"] == 0 and f["lost"] == 0),
    ".01|same": lambda f: f["gain"] > 0.01 or (f["won"] == 0 and f["lost"] == 0),
    "1se|same&brier": lambda f: f["gain"] > f["se"] + 1e-12 or (f["won"] == 0 and f["lost"] == 0 and f["brier_a"] < f["brier_b"]),
    ".01|same&brier": lambda f: f["gain"] > 0.01 or (f["won"] == 0 and f["lost"] == 0 and f["brier_a"] < f["brier_b"]),
    ".01|same&auc": lambda f: f["gain"] > 0.01 or (f["won"] == 0 and f["lost"] == 0 and f["auc_a"] > f["auc_b"]),
    ">=0&brier": lambda f: f["gain"] >= -1e-12 and f["brier_a"] < f["brier_b"],
    ">=0&auc": lambda f: f["gain"] >= -1e-12 and f["auc_a"] > f["auc_b"],
    ".01|>=0&brier": lambda f: f["gain"] > 0.01 or (f["gain"] >= -1e-12 and f["brier_a"] < f["brier_b"]),
    ".01|>=0&auc": lambda f: f["gain"] > 0.01 or (f["gain"] >= -1e-12 and f["auc_a"] > f["auc_b"]),
    "always": lambda f: True,
}
res = defaultdict(lambda: defaultdict(list))  # rule -> set -> [(run, f1)]
info = defaultdict(list)
for r in recs:
    if only and r["set"] not in only:
        continue
    if r["args"] is None or "rule-vote" not in r["args"][3]:
        for name in RULES:
            res[name][r["set"]].append((r["run"], r["without_f1"]))
        continue
    f = facts(r)
    info[r["set"]].append((r["run"], f))
    for name, rule in RULES.items():
        res[name][r["set"]].append((r["run"], r["rule-vote_f1"] if rule(f) else r["without_f1"]))

sets = sorted({s for v in res.values() for s in v})
base = "margin .01 (now)"
for half, (lo, hi) in (("runs 0-9", (0, 9)), ("runs 10-19", (10, 19))):
    print(f"\n== {half}: mean F1 (now) and new − now per rule; +/− splits")
    print("set".ljust(18) + "now".rjust(7) + "".join(n[:14].rjust(16) for n in RULES if n != base and (not os.environ.get("ONLY") or n in os.environ["ONLY"].split(";"))))
    for s in sets:
        now = dict(res[base][s])
        line = s.ljust(18) + f"{np.mean([now[k] for k in now if lo <= k <= hi]):7.3f}"
        for n in RULES:
            if n == base or (os.environ.get("ONLY") and n not in os.environ["ONLY"].split(";")):
                continue
            got = dict(res[n][s])
            ks = [k for k in got if lo <= k <= hi]
            dd = np.array([got[k] - now[k] for k in ks])
            line += f"{dd.mean():+8.4f} {int((dd > 1e-9).sum())}/{int((dd < -1e-9).sum())}".rjust(16)
        print(line)
if os.environ.get("DETAIL"):
    for s in sets:
        if s not in os.environ["DETAIL"].split(","):
            continue
        for run, f in sorted(info[s], key=lambda t: t[0]):
            rec = next(r for r in recs if r["set"] == s and r["run"] == run)
            print(f"{s} {run}: brier {f['brier_a']:.4f}/{f['brier_b']:.4f} auc {f['auc_a']:.4f}/{f['auc_b']:.4f} {f['wkey']} {f['ws']:.3f} rv {f['rvs']:.3f} gain {f['gain']:+.4f} se {f['se']:.4f} won/lost {f['won']}/{f['lost']} "
                  f"folds {np.round(f['d'], 3)} | test without {rec['without_f1']:.3f} rv {rec['rule-vote_f1']:.3f}")
