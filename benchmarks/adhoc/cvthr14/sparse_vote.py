"""Ad hoc (cvthr14): honest trees against a smooth vote that flatters itself less — the vote
fitted with L1 3 where that beats the default L1 0.3 out of fold (gamopt13's `abl.py` refits,
the plain maximum; its F1s out of fold and on the test rows replace the smooth vote's in the
replay of `replay14.py`).

    python benchmarks/adhoc/cvthr14/sparse_vote.py COLLECTED.pkl ABL.pkl L1KEY
"""
import pickle
import sys

import numpy as np

sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
from replay14 import RULES, S, choose, rule, test_f1  # noqa: E402

recs, abl, l1 = pickle.load(open(sys.argv[1], "rb")), pickle.load(open(sys.argv[2], "rb")), sys.argv[3]
n = len(abl["base"])
recs = recs[:n]


def with_vote(make, sparse):
    def out(rec):
        oof, off, margin = make(rec)  # margin: (VOTE_MARGIN, RULE_MARGIN)
        i = rec["run"] - recs[0]["run"]
        sm = next(k for k in oof if S.vote_bins(k))
        rows = rec["direct_rows"] if rec["direct_rows"] is not None else np.arange(len(rec["y"]))
        have = S.best_threshold(rec["y"][rows].astype(bool), oof[sm][rows])[1]
        b, s = abl["base"][i], abl[l1][i]
        pick = s if sparse and s["oof"] > b["oof"] else b
        rec["_smooth_test"] = (sm, pick["test"])
        off[sm] = off.get(sm, 0.0) + pick["oof"] - have
        return oof, off, margin
    return out


def f1_of(rec, key, t):
    sm, f = rec["_smooth_test"]
    return f if key == sm else test_f1(rec, key, t)


for name, make in (("current", RULES["current"]), ("honest s1", rule(honest=True)),
                   ("honest s1 m0", rule(honest=True, margin=0.0))):
    for sparse in (False, True):
        got = [choose(r, with_vote(make, sparse)) for r in recs]
        f1 = np.array([f1_of(r, k, t) for r, (k, t) in zip(recs, got)])
        if name == "current" and not sparse:
            base = f1
        print(f"{name:14s} {'vote max(L1 0.3, ' + l1 + ')' if sparse else 'vote as abl refits it':28s} "
              f"{f1.mean():.4f} ({f1.mean() - base.mean():+.4f}) +{(f1 > base + 1e-9).sum()} "
              f"-{(f1 < base - 1e-9).sum()}  smooth chosen {sum(S.vote_bins(k) is not None for k, _ in got)}/{n}")
