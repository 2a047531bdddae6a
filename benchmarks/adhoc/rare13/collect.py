"""Ad hoc (issue 11, session 13): per split of the comparison, everything needed to replay the
search's choice offline under other rules: the search's out-of-fold means of every candidate
with the trees scored on the fit's cut points and on each fold's own (`selection.HONEST_TREES`),
the offsets, the Direct KB's leave-one-out, and every candidate's held-out ω(POS) means on the
test rows when it answers (each adopted from one search on a copy of the estimator).

    python benchmarks/adhoc/rare13/collect.py SET RUNS OUT.pkl    # RUNS: 0-19 or 0,3,7

Needs `honest_grid.patch` (beside it) applied to plx_core: `git apply
benchmarks/adhoc/rare13/honest_grid.patch` (made against main at d07787c; measured on b33110f, the same search). SET: a key of the
comparison or "gen:NAME" (a table of `tables.py`, one per run). Environment:
HONEST_GRID=all (fold cuts among every distinct value; default the fine bins' edges) or a
number of quantile bins, CREDIT_GRID=1 (the vote's credit on that grid too), SKIP_HONEST=1
(only the default's search).
"""
import copy
import pickle
import sys
import warnings

import numpy as np

import plx_core.selection as S
from plx_core.estimator import PLXClassifier
from plx_core.experiments.compare import make, split_set

warnings.simplefilter("ignore")
# experiment settings from the environment (see selection.HONEST_GRID, CREDIT_GRID)
_g = __import__("os").environ.get("HONEST_GRID")
S.HONEST_GRID = None if not _g else (_g if _g == "all" else int(_g))
S.CREDIT_GRID = __import__("os").environ.get("CREDIT_GRID") == "1"
key, spec, out = sys.argv[1], sys.argv[2], sys.argv[3]
runs = (list(range(int(spec.split("-")[0]), int(spec.split("-")[1]) + 1)) if "-" in spec
        else [int(r) for r in spec.split(",")])
if key.startswith("gen:"):  # a table of benchmarks/adhoc/rare13/tables.py, one per run
    sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
    from tables import split_table

    def split(r):
        return split_table(key[4:], r)
else:
    X, y, splits = split_set(key, max(runs) + 1)

    def split(r):
        tr, te = splits[r]
        return X.iloc[tr], y[tr], X.iloc[te], y[te]
orig_choose, orig_adopt = S.choose, PLXClassifier._adopt
got: dict = {}


def spy(y_, dp, dr, oof, fold=None, offsets=None):
    got["choose"] = (y_, dp, dr, dict(oof), fold, dict(offsets or {}))
    return orig_choose(y_, dp, dr, oof, fold, offsets)


def adopt(self, sel, frame, labels, raw, votes=None, pairs=None):
    got["adopt"] = (copy.deepcopy(self), frame, labels, raw, votes, pairs)
    return orig_adopt(self, sel, frame, labels, raw, votes, pairs)


S.choose, PLXClassifier._adopt = spy, adopt
rows = []
for r in runs:
    Xt, yt, Xe, ye = split(r)
    rec = {"run": r, "y_test": ye}
    for honest in (False, True)[:1 if __import__("os").environ.get("SKIP_HONEST") else 2]:
        S.HONEST_TREES = honest
        m = make("plx", r, Xt.shape[1]).fit(Xt, yt).model_
        yy, dp, dr, oof, fold, offsets = got["choose"]
        rec["honest" if honest else "fit"] = {"oof": oof, "offsets": offsets,
                                              "chosen": m.selection_.key if m.selection_ else "direct",
                                              "reason": m.chosen_reason_,
                                              "test_pred": m.predict(Xe)}
        if not honest:
            rec.update(y=yy, direct_pred=dp, direct_rows=dr, fold=fold)
            base, frame, labels, raw, votes, pairs = got["adopt"]
            classes = m._class_str
    keys = list(rec["fit"]["oof"]) + ["direct"]
    tests = {}
    for k in keys:
        e = copy.deepcopy(base)
        sel = (S._choose(rec["y"], rec["direct_pred"], rec["direct_rows"], {}, rec["fold"])
               if k == "direct" else S._choose(rec["y"], None, rec["direct_rows"],
                                              {k: rec["fit"]["oof"][k]}, rec["fold"]))
        orig_adopt(e, sel, frame, labels, raw, votes, pairs)
        e.kb_ = e.kbs_[0] if len(e.kbs_) == 1 else None
        e._class_str = classes
        tests[k] = {"means": e.bounds(Xe)["mean"].to_numpy(), "threshold": e.threshold_,
                    "internal": k.startswith("direct-vote") or k == "rule-vote"}
    rec["tests"] = tests
    rows.append(rec)
    ch = rec["fit"]["chosen"]
    print(f"{key} run {r}: chose {ch} / honest {rec.get('honest', {}).get('chosen')}", flush=True)
    with open(out, "wb") as f:
        pickle.dump(rows, f)
