"""Ad hoc (issue 11, session 14, cvthr14): replay the search's choice on the splits
`benchmarks/adhoc/rare13/collect.py` gathered, under rules that choose every candidate's
threshold on the other folds ("cv") and score the trees on each fold's own cut points.

    python benchmarks/adhoc/cvthr14/replay14.py C_SET.pkl [C_SET2.pkl …]

A rule is (honest, s, cv, margin, own): `honest` — the trees and the rule vote scored on each
fold's own cut points (the collected "honest" out-of-fold means), and the candidates still
scored on the fit's cut points (the Direct KB, its confidence weighting, the MDLP vote, the
vote on pairs) debited by `s` × the vote's cut-optimism credit c (s = 1: as the smooth vote is
credited now, the consistent rule; without `honest`, the smooth vote is credited s × c);
`cv` — each candidate's F1 is the one with fold f's threshold chosen on the other folds'
out-of-fold means (the search's 5 folds, or `cv_folds` seeded ones; `only`: for these
candidates alone), the answering threshold still the best on all rows; `margin` —
`VOTE_MARGIN` and `RULE_MARGIN`; `own` — the trees on the fit's cuts, each offset by own × (c −
its own cut optimism), rare13's "own.5" at 0.5. The "current" rule reproduces the default's
test F1 on every split (asserted).
"""
import pickle
import sys
from dataclasses import replace

import numpy as np
from sklearn.metrics import f1_score

import plx_core.selection as S


def test_f1(rec, key, threshold):
    t = rec["tests"][key]
    thr = 0.5 if t["internal"] else threshold
    return f1_score(rec["y_test"], t["means"] > thr + 1e-9)


def is_tree(k):
    return k.startswith("tree") or k == "rule-vote"


def fit_cut(k):  # scored on the fit's (supervised) cut points, unless honest
    return k in ("direct", "direct-vote", "direct-vote pairs") or k.startswith("direct-conf")


def credit_of(rec):
    return next((v for k, v in rec["fit"]["offsets"].items() if S.vote_bins(k)), 0.0)


def cv_f1(y, means, fold, guarded=False):
    """F1 with each fold's threshold chosen on the other folds' rows."""
    pred = np.zeros(len(y), dtype=bool)
    m = np.nan_to_num(np.asarray(means, float), nan=-1.0)
    for f in np.unique(fold):
        at = fold == f
        t, _ = S.best_threshold(y[~at], m[~at], guarded=guarded)
        pred[at] = m[at] > t + 1e-9
    return f1_score(y, pred) if pred.any() or y.any() else 0.0


def rule(honest=False, s=1.0, cv=False, margin=S.VOTE_MARGIN, cv_folds=None, only=None,
         own=0.0, rule_margin=None):
    """`own` > 0: the trees stay on the fit's cuts, each offset by `own` × (the credit − its own
    cut optimism: its best-threshold F1 on the fit's cuts − on the folds' own), rare13's "own.5"
    at 0.5."""
    def make(rec):
        oof = dict(rec["fit"]["oof"])
        c = credit_of(rec)
        off = {}
        smooth = next((k for k in oof if S.vote_bins(k)), None)
        if own and smooth:
            rows = (rec["direct_rows"] if rec["direct_rows"] is not None
                    else np.arange(len(rec["y"])))
            y = rec["y"][rows].astype(bool)
            off[smooth] = c
            for k in oof:
                if is_tree(k) and k != "rule-vote":
                    mine = (S.best_threshold(y, oof[k][rows])[1]
                            - S.best_threshold(y, rec["honest"]["oof"][k][rows])[1])
                    off[k] = own * (c - mine)
        elif honest and smooth:
            oof.update({k: rec["honest"]["oof"][k] for k in oof if is_tree(k)})
            off.update({k: -s * c for k in (*oof, "direct") if fit_cut(k)})
        elif smooth:
            off[smooth] = s * c
        if cv:
            rows = (rec["direct_rows"] if rec["direct_rows"] is not None
                    else np.arange(len(rec["y"])))
            y = rec["y"][rows].astype(bool)
            fold = (rec["fold"][rows] if cv_folds is None else
                    S.fold_ids(y.astype(int), cv_folds, 0))
            for k, v in oof.items():
                if only is not None and not only(k):
                    continue
                g = k == "direct"
                best = S.best_threshold(y, v[rows], guarded=g)[1]
                off[k] = off.get(k, 0.0) + cv_f1(y, v[rows], fold, g) - best
        return oof, off, (margin, margin if rule_margin is None else rule_margin)
    return make


def choose_all(y, dp, dr, oof, fold, offsets):
    """`selection.choose`, the rule vote's own score offset too (cv, honest)."""
    if "rule-vote" in oof:
        rest = {k: v for k, v in oof.items() if k != "rule-vote"}
        without = S._choose(y, dp, dr, rest, fold, offsets)
        rv = S._choose(y, None, dr, {"rule-vote": oof["rule-vote"]}, offsets=offsets)
        if rv.scores["rule-vote"] <= without.scores[without.key] + S.RULE_MARGIN:
            return without
        return replace(rv)
    return S._choose(y, dp, dr, oof, fold, offsets)


def choose(rec, make):
    oof, off, (margin, rmargin) = make(rec)
    keep = S.VOTE_MARGIN, S.RULE_MARGIN
    S.VOTE_MARGIN, S.RULE_MARGIN = margin, rmargin
    try:
        sel = choose_all(rec["y"], rec["direct_pred"], rec["direct_rows"], oof, rec["fold"], off)
    finally:
        S.VOTE_MARGIN, S.RULE_MARGIN = keep
    return sel.key, sel.threshold


RULES = {
    "current": rule(),
    "cv": rule(cv=True),
    "cv m0": rule(cv=True, margin=0.0),
    "cv s0": rule(cv=True, s=0.0),
    "cv s.5": rule(cv=True, s=0.5),
    "honest s1": rule(honest=True),
    "honest s1 cv": rule(honest=True, cv=True),
    "honest s1 cv m0": rule(honest=True, cv=True, margin=0.0),
    "honest s1 cv m.005": rule(honest=True, cv=True, margin=0.005),
    "honest s1 cv m0 r.01": rule(honest=True, cv=True, margin=0.0, rule_margin=0.01),
    "honest s1 m0 r.01": rule(honest=True, margin=0.0, rule_margin=0.01),
    "m0 r.01": rule(margin=0.0, rule_margin=0.01),
    "honest s.5 cv": rule(honest=True, s=0.5, cv=True),
    "honest s.5 cv m0": rule(honest=True, s=0.5, cv=True, margin=0.0),
    "honest s0 cv": rule(honest=True, s=0.0, cv=True),
    "honest s0 cv m0": rule(honest=True, s=0.0, cv=True, margin=0.0),
    "honest s1 cv10": rule(honest=True, cv=True, cv_folds=10),
    "cv votes": rule(cv=True, only=lambda k: S.is_vote(k) or k == "rule-vote"),
    "cv votes m0": rule(cv=True, only=lambda k: S.is_vote(k) or k == "rule-vote", margin=0.0),
    "cv smooth": rule(cv=True, only=S.vote_bins),
    "cv smooth m0": rule(cv=True, only=S.vote_bins, margin=0.0),
    "cv10": rule(cv=True, cv_folds=10),
    "own.5": rule(own=0.5),
    "own.5 cv": rule(own=0.5, cv=True),
    "own.5 cv m0": rule(own=0.5, cv=True, margin=0.0),
    "own1 cv": rule(own=1.0, cv=True),
    "honest s.5 cv10": rule(honest=True, s=0.5, cv=True, cv_folds=10),
}


def fam(k):
    return k.split(" ")[0] + (" bins" if S.vote_bins(k) else "")


def main(paths):
    for p in paths:
        recs = pickle.load(open(p, "rb"))
        print(f"== {p} ({len(recs)} splits; runs {recs[0]['run']}-{recs[-1]['run']})")
        base = np.array([test_f1(r, *choose(r, RULES["current"])) for r in recs])
        real = np.array([f1_score(r["y_test"], r["fit"]["test_pred"]) for r in recs])
        assert np.allclose(base, real), "the current rule must reproduce the default"
        h = len(recs) // 2
        for name, make in RULES.items():
            got = [choose(r, make) for r in recs]
            f1 = np.array([test_f1(r, k, t) for r, (k, t) in zip(recs, got)])
            fams: dict = {}
            for k, _t in got:
                fams[fam(k)] = fams.get(fam(k), 0) + 1
            print(f"{name:20s} first {f1[:h].mean():.3f} second {f1[h:].mean():.3f} all "
                  f"{f1.mean():.4f} ({f1.mean() - base.mean():+.4f}) | +{(f1 > base + 1e-9).sum()} "
                  f"-{(f1 < base - 1e-9).sum()} | {fams}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
