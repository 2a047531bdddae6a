"""Ad hoc (session 17, acc17): replay `selection.choose` under other rules on `collect.py`'s
splits and read each rule's test F1 (the "current" rule must reproduce the default's on every
split: asserted).

    python benchmarks/adhoc/acc17/replay.py RULE[,RULE…] C_SET.pkl [C_SET2.pkl …]

"main" is the collected default's rule (main at 080b99d), "current" the code on PYTHONPATH. The
other rules set module constants that only `switches.patch` (beside this file, against main
080b99d) reads: run them with a copy of that commit's plx_core with the patch applied first on
PYTHONPATH (on any other code they would silently replay "current").
"""
import pickle
import sys

import numpy as np
from sklearn.metrics import f1_score

import plx_core.selection as S

RULES = {}


def rule(name):
    def put(f):
        RULES[name] = f
        return f
    return put


def choose_with(args, **consts):
    """`selection.choose` with module constants set for the call."""
    old = {k: getattr(S, k) for k in consts}
    try:
        for k, v in consts.items():
            setattr(S, k, v)
        sel = S.choose(**args)
    finally:
        for k, v in old.items():
            setattr(S, k, v)
    return sel.key, sel.threshold


@rule("current")
def current(rec):
    return choose_with(rec["args"])


@rule("main")
def main_rule(rec):  # the rule of the collected default (main before acc17)
    return choose_with(rec["args"], FINE_MARGIN=S.VOTE_MARGIN)


def run_rules(names, paths):
    for path in paths:
        recs = [r for r in pickle.load(open(path, "rb")) if "args" in r]
        print(path)
        base = None
        for name in names:
            f1s, miss = [], 0
            for rec in recs:
                k, t = RULES[name](rec)
                tests = rec["tests"].get(k)
                if tests is None or round(float(t), 2) not in tests:
                    miss += 1
                    f1s.append(np.nan)
                    continue
                f1s.append(f1_score(rec["y_test"], tests[round(float(t), 2)], zero_division=0))
            f1s = np.array(f1s)
            if name == "main":
                ok = ~np.isnan(f1s)
                assert np.allclose(f1s[ok], np.array([r["f1"] for r in recs])[ok])
            if base is None:
                base = f1s
            d = f1s - base
            print(f"  {name:28s} {np.nanmean(f1s):.4f}  {np.nanmean(d):+.4f} "
                  f"({int((d > 1e-9).sum())}/{int((d < -1e-9).sum())})"
                  + (f" missing {miss}" if miss else ""))


for _c in (0.0, 0.5, 1.0, 1.5, 2.0):
    RULES[f"se{_c:g}"] = (lambda c: lambda rec: choose_with(rec["args"], VOTE_SE=c))(_c)
for _l in (0, 1):
    RULES[f"sign{_l}"] = (lambda l_: lambda rec: choose_with(
        rec["args"], VOTE_SE="sign", VOTE_SIGN_LOSE=l_))(_l)
for _m in (0.0, 0.005, 0.02):
    RULES[f"margin{_m:g}"] = (lambda m: lambda rec: choose_with(rec["args"], VOTE_MARGIN=m))(_m)


for _m in (0.0, 0.005):
    RULES[f"fm{_m:g}"] = (lambda m: lambda rec: choose_with(rec["args"], FINE_MARGIN=m))(_m)
for _c in (1.0, 1.5, 2.0):
    RULES[f"boot{_c:g}"] = (lambda c: lambda rec: choose_with(rec["args"], VOTE_SE=f"boot{c}"))(_c)
    RULES[f"bootonly{_c:g}"] = (lambda c: lambda rec: choose_with(
        rec["args"], VOTE_SE=f"boot{c}", VOTE_BOOT_MIN=False))(_c)
RULES["fm0 se1"] = lambda rec: choose_with(rec["args"], FINE_MARGIN=0.0, VOTE_SE=1.0)


def family(k):
    if k.startswith("tree"):
        return "tree"
    if S.is_vote(k):
        return "vote"
    if k.startswith("direct-conf"):
        return "conf"
    return k


def tt_bias(rec, per_key=False):
    """Tibshirani & Tibshirani's bias of the best out-of-fold F1 per family: the mean over the
    search's folds of (the best setting's F1 on that fold − the chosen setting's), settings =
    the family's keys × `THRESHOLDS`."""
    a = rec["args"]
    y = np.asarray(a["y"], bool)
    rows = np.arange(len(y)) if a["direct_rows"] is None else np.asarray(a["direct_rows"])
    fold = np.asarray(a["fold"])[rows]
    fams = {}
    for k in a["oof"]:
        fams.setdefault(k if per_key else family(k), []).append(k)
    out = {}
    ts = np.asarray(S.THRESHOLDS)
    for _f, keys in fams.items():
        E, P = [], []
        for k in keys:
            m = a["oof"][k][rows]
            for t in ts:
                E.append(S.fold_f1(y[rows], m, t, fold))
            P.append(S.f1_at(y[rows], m, ts))
        E = np.array(E)  # settings × folds
        P = np.concatenate(P)
        c = int(np.argmax(P))
        b = float(np.mean(E.max(axis=0) - E[c]))
        for k in keys:
            out[k] = b
    return out


def tt_rule(rec, share=1.0, per_key=False, **consts):
    a = dict(rec["args"])
    b = tt_bias(rec, per_key)
    off = dict(a["offsets"] or {})
    for k, v in b.items():
        off[k] = off.get(k, 0.0) - share * v
    a["offsets"] = off
    return choose_with(a, **consts)


RULES["tt"] = lambda rec: tt_rule(rec)
RULES["tt.5"] = lambda rec: tt_rule(rec, 0.5)
RULES["tt m0"] = lambda rec: tt_rule(rec, VOTE_MARGIN=0.0)
RULES["ttkey"] = lambda rec: tt_rule(rec, per_key=True)
RULES["ttkey m0"] = lambda rec: tt_rule(rec, per_key=True, VOTE_MARGIN=0.0)


def steady_variant(kind):
    """`selection.steady_threshold` variants for the smooth vote (read by `choose`)."""
    def f(y, means, fold):
        ts = np.asarray(S.THRESHOLDS)
        f1 = S.f1_at(y, means, ts)
        t, best = S.best_threshold(y, means)
        if kind == "best":
            return t
        per = S.fold_f1(y, means, t, np.asarray(fold))
        se = float(np.std(per, ddof=1) / np.sqrt(len(per)))
        if kind == "halfse":
            se /= 2
        at = lo = hi = int(np.flatnonzero(np.isclose(ts, t))[0])
        while lo > 0 and f1[lo - 1] >= best - se:
            lo -= 1
        while hi < len(ts) - 1 and f1[hi + 1] >= best - se:
            hi += 1
        if kind == "wmed":
            w = f1[lo:hi + 1] - (best - se) + 1e-9
            c = np.cumsum(w) / w.sum()
            return float(ts[lo + int(np.searchsorted(c, 0.5))])
        if kind == "wmean":
            w = f1[lo:hi + 1] - (best - se) + 1e-9
            x = float(w @ ts[lo:hi + 1] / w.sum())
            return float(ts[np.argmin(np.abs(ts - x))])
        mid = min(((lo + hi) // 2, (lo + hi + 1) // 2), key=lambda i: abs(i - at))
        if kind == "near1":
            mid = int(np.clip(mid, at - 1, at + 1))
        return float(ts[mid])
    return f


def with_steady(kind):
    def r(rec):
        old = S.steady_threshold
        S.steady_threshold = steady_variant(kind)
        try:
            return choose_with(rec["args"])
        finally:
            S.steady_threshold = old
    return r


for _k in ("best", "steady", "halfse", "wmed", "wmean", "near1"):
    RULES[f"thr {_k}"] = with_steady(_k)
for _b in (-0.005, -0.01):
    RULES[f"bins{_b:g}"] = (lambda b: lambda rec: choose_with(rec["args"], BINS_MARGIN=b))(_b)


def depth_se(rec, mult=1.0, drop_all=False):
    """tree-all cut at a depth races only if it beats the tree grown until pure by `mult`
    SE of their paired per-fold F1 differences (as a pruned tree must beat the unpruned)."""
    a = dict(rec["args"])
    oof = dict(a["oof"])
    y = np.asarray(a["y"], bool)
    rows = np.arange(len(y)) if a["direct_rows"] is None else np.asarray(a["direct_rows"])
    fold = np.asarray(a["fold"])[rows]
    if "tree-all" in oof:
        full = (oof["tree-all"][rows], S.best_threshold(y[rows], oof["tree-all"][rows])[0])
        for k in [k for k in oof if k.startswith("tree-all depth")]:
            new = (oof[k][rows], S.best_threshold(y[rows], oof[k][rows])[0])
            wins, _g, _se = S.one_se(y[rows], fold, new, full, mult)
            if drop_all or not wins:
                del oof[k]
    a["oof"] = oof
    return choose_with(a)


RULES["depth1se"] = lambda rec: depth_se(rec)
RULES["depth0.5se"] = lambda rec: depth_se(rec, 0.5)
RULES["nodepth"] = lambda rec: depth_se(rec, drop_all=True)

if __name__ == "__main__":
    run_rules(sys.argv[1].split(","), sys.argv[2:])
