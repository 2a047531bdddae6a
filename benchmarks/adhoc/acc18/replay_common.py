"""Ad hoc (acc18): replay the search on session 17's collections with every candidate scored
at one common threshold — the best of the mean of the candidates' out-of-fold probabilities
(all candidates, or the mean of each family's mean) — instead of at its own best of 13, each
still answering at its own best (or the smooth vote at its steady threshold).

    python benchmarks/adhoc/acc18/replay_common.py RULE[,RULE…] ACC17.pkl …
"""
import importlib.util
import sys
from pathlib import Path

import numpy as np

spec = importlib.util.spec_from_file_location(
    "replay17", Path(__file__).parents[1] / "acc17" / "replay.py")
R = importlib.util.module_from_spec(spec)
sys.argv, argv = sys.argv[:1], sys.argv
spec.loader.exec_module(R)
S = R.S
orig_best, orig_steady = S.best_threshold, S.steady_threshold


def steady_plain(y, means, fold):  # `steady_threshold` on the true best F1 curve
    old = S.best_threshold
    S.best_threshold = orig_best
    try:
        return orig_steady(y, means, fold)
    finally:
        S.best_threshold = old


def common(rec, by_family=False):
    a = rec["args"]
    y = np.asarray(a["y"], bool)
    rows = np.arange(len(y)) if a["direct_rows"] is None else np.asarray(a["direct_rows"])
    oof = {k: np.nan_to_num(v[rows], nan=0.0) for k, v in a["oof"].items()}
    if by_family:
        fams = {}
        for k, v in oof.items():
            fams.setdefault(R.family(k), []).append(v)
        mean = np.mean([np.mean(v, axis=0) for v in fams.values()], axis=0)
    else:
        mean = np.mean(list(oof.values()), axis=0)
    t_c = orig_best(y[rows], mean)[0]

    def best(yy, means, guarded=False):
        t, _f = orig_best(yy, means, guarded)
        return t, float(S.f1_at(yy, means, np.array([t_c]))[0])

    S.best_threshold, S.steady_threshold = best, steady_plain
    try:
        return R.choose_with(a)
    finally:
        S.best_threshold, S.steady_threshold = orig_best, orig_steady


R.RULES["common"] = common
R.RULES["common-fam"] = lambda rec: common(rec, True)
R.run_rules(argv[1].split(","), argv[2:])
