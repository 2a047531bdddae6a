"""Ad hoc (issue 11, session 13): replay the search's choice under other rules on the splits
`collect.py` gathered, and the test F1 each rule's choice gets.

    python benchmarks/adhoc/rare13/replay.py C_SET.pkl [C_SET2.pkl …]

Rules (`RULES`): "current" (the default's), "patch" (the trees and the rule vote on each fold's
own cuts with the vote's credit, `gam/honest_trees.patch`), "honest" (the same without any
credit, the MDLP votes debited by it), "own" / "own.5" / "onesided" (each tree debited by its
own cut optimism against the credit: fully, by half, only when it exceeds it), "cvthr" (every
candidate's threshold chosen on the other folds), "margin0" / "margin.02" (`VOTE_MARGIN`),
"smooth always". A rule-vote's test answer is read at the threshold its fit-cut score chose.
"""
import pickle
import sys

import numpy as np
from sklearn.metrics import f1_score

import plx_core.selection as S


def test_f1(rec, key, threshold):
    t = rec["tests"][key]
    thr = 0.5 if t["internal"] else threshold
    return f1_score(rec["y_test"], t["means"] > thr + 1e-9)


def trees(oof):
    return [k for k in oof if k.startswith("tree") or k == "rule-vote"]


def rule_current(rec):
    a = rec["fit"]
    return a["oof"], a["offsets"]


def credit_of(rec):
    return next((v for k, v in rec["fit"]["offsets"].items() if S.vote_bins(k)), 0.0)


def smooth_key(rec):
    return next((k for k in rec["fit"]["oof"] if S.vote_bins(k)), None)


def rule_patch(rec):  # honest trees with the vote's credit
    oof = {**rec["fit"]["oof"], **{k: rec["honest"]["oof"][k] for k in trees(rec["fit"]["oof"])}}
    c = credit_of(rec)
    off = dict(rec["fit"]["offsets"])
    if smooth_key(rec):
        off.update({k: c for k in trees(oof)})
    return oof, off


def rule_honest(rec):  # honest trees, no credit; the MDLP votes debited
    oof = {**rec["fit"]["oof"], **{k: rec["honest"]["oof"][k] for k in trees(rec["fit"]["oof"])}}
    c = credit_of(rec)
    off = {}
    if smooth_key(rec):
        off = {"direct-vote": -c, "direct-vote pairs": -c}
    return oof, off


def rule_own(rec):
    """each tree debited by its own optimism (fit F1 − honest F1), on the fit's cuts' scale
    the smooth vote credited as now"""
    oof = rec["fit"]["oof"]
    off = dict(rec["fit"]["offsets"])
    if smooth_key(rec):
        y = rec["y"][rec["direct_rows"]] if rec["direct_rows"] is not None else rec["y"]
        rows = rec["direct_rows"] if rec["direct_rows"] is not None else slice(None)
        c = credit_of(rec)
        for k in trees(oof):
            own = S.best_threshold(y, oof[k][rows])[1] - S.best_threshold(
                y, rec["honest"]["oof"][k][rows])[1]
            off[k] = c - own
    return oof, off


def rule_onesided(rec, shrink=1.0):
    """each tree debited by how much its own optimism exceeds the vote's credit (never
    credited): the current rule where the trees are flattered no more than the vote"""
    oof, off = rule_own(rec)
    for k in trees(oof):
        if k in off:
            off[k] = min(0.0, off[k]) * shrink
    return oof, off


def cv_f1(y, means, fold):
    """F1 with each fold's threshold chosen on the other folds' rows (no threshold optimism)."""
    pred = np.zeros(len(y), dtype=bool)
    m = np.nan_to_num(np.asarray(means, float), nan=-1.0)
    for f in np.unique(fold):
        at = fold == f
        t, _ = S.best_threshold(y[~at], m[~at])
        pred[at] = m[at] > t + 1e-9
    return f1_score(y, pred) if pred.any() or y.any() else 0.0


def with_cv(rule, folds=None):
    def out(rec):
        oof, off = rule(rec)
        off = dict(off)
        rows = rec["direct_rows"] if rec["direct_rows"] is not None else np.arange(len(rec["y"]))
        y = rec["y"][rows].astype(bool)
        fold = (rec["fold"][rows] if folds is None else
                S.fold_ids(y.astype(int), folds, 0))
        for k, v in oof.items():
            best = S.best_threshold(y, v[rows])[1]
            off[k] = off.get(k, 0.0) + cv_f1(y, v[rows], fold) - best
        return oof, off
    return out


def with_margin(rule, margin):
    def out(rec):
        return rule(rec) + (margin,)
    return out


def always(key_of):
    def rule(rec):
        return None, key_of(rec)
    return rule


RULES = {"own.5": lambda r: (lambda o: (o[0], {k: (v / 2 if k in trees(o[0]) else v)
                                             for k, v in o[1].items()}))(rule_own(r)),
         "margin0": with_margin(rule_current, 0.0), "margin.02": with_margin(rule_current, 0.02),
         "patch margin0": with_margin(rule_patch, 0.0),"onesided": rule_onesided, "onesided.5": lambda r: rule_onesided(r, 0.5),
         "current": rule_current, "patch": rule_patch, "honest": rule_honest, "own": rule_own,
         "smooth always": always(smooth_key), "cvthr": with_cv(rule_current),
         "patch+cvthr": with_cv(rule_patch), "cvthr10": with_cv(rule_current, 10),
         "patch+cvthr10": with_cv(rule_patch, 10)}


def choose(rec, rule):
    got = rule(rec)
    if len(got) == 3:
        keep = S.VOTE_MARGIN
        S.VOTE_MARGIN = got[2]
        try:
            return choose(rec, lambda r: got[:2])
        finally:
            S.VOTE_MARGIN = keep
    oof, off = got
    if oof is None:
        sel = S._choose(rec["y"], None, rec["direct_rows"], {off: rec["fit"]["oof"][off]})
        return off, sel.threshold
    sel = S.choose(rec["y"], rec["direct_pred"], rec["direct_rows"], oof, rec["fold"], off)
    return sel.key, sel.threshold


def main(paths):
    for p in paths:
        recs = pickle.load(open(p, "rb"))
        print(f"== {p} ({len(recs)} splits)")
        res = {}
        base = np.array([test_f1(r, *choose(r, rule_current)) for r in recs])
        for name, rule in RULES.items():
            got = [choose(r, rule) for r in recs]
            f1 = np.array([test_f1(r, k, t) for r, (k, t) in zip(recs, got)])
            res[name] = f1
            fam = {}
            for k, _t in got:
                fam[k.split(" ")[0] + (" bins" if S.vote_bins(k) else "")] = fam.get(
                    k.split(" ")[0] + (" bins" if S.vote_bins(k) else ""), 0) + 1
            print(f"{name:14s} 0-9 {f1[:10].mean():.3f} 10-19 {f1[10:].mean():.3f} all "
                  f"{f1.mean():.3f} | +{(f1 > base + 1e-9).sum()} "
                  f"-{(f1 < base - 1e-9).sum()} | {fam}")
        real = np.array([f1_score(r["y_test"], r["fit"]["test_pred"]) for r in recs])
        print(f"(the default's own test F1: {real.mean():.3f})")


if __name__ == "__main__":
    main(sys.argv[1:])
