"""Ad hoc (session 19, acc19): where the smooth vote answers, its threshold by other rules than
`selection.steady_threshold` (the search's choice as main's), test F1 from `collect.py`'s
decisions of the smooth vote at every threshold.

    python benchmarks/adhoc/acc19/thresholds.py C_SET.pkl [C_SET2.pkl …]
"""
import pickle
import sys

import numpy as np
from sklearn.metrics import f1_score

import plx_core.selection as S

TS = np.asarray(S.THRESHOLDS)


def band(y, p, fold):
    """(F1 curve, best index, lo, hi) of the 1-SE run around the best, as `steady_threshold`."""
    f1 = S.f1_at(y, p, TS)
    t, best = S.best_threshold(y, p)
    per = S.fold_f1(y, p, t, fold)
    se = float(np.std(per, ddof=1) / np.sqrt(len(per)))
    at = lo = hi = int(np.flatnonzero(np.isclose(TS, t))[0])
    while lo > 0 and f1[lo - 1] >= best - se:
        lo -= 1
    while hi < len(TS) - 1 and f1[hi + 1] >= best - se:
        hi += 1
    return f1, at, lo, hi


def fold_mean(y, p, fold):
    """The best of the mean of the folds' F1 (not the pooled F1), ties nearest 0.5."""
    m = np.array([S.fold_f1(y, p, t, fold).mean() for t in TS])
    return float(TS[np.lexsort((np.abs(TS - 0.5), -m))[0]])


def half(y, p, fold):
    """In the 1-SE run around the best, the threshold nearest 0.5."""
    _f1, _at, lo, hi = band(y, p, fold)
    i = np.arange(lo, hi + 1)
    return float(TS[i[np.argmin(np.abs(TS[i] - 0.5))]])


def fold_median(y, p, fold):
    """The median of each fold's own best threshold (snapped)."""
    bests = [S.best_threshold(y[fold == f], p[fold == f])[0] for f in np.unique(fold)]
    med = float(np.median(bests))
    return float(TS[np.argmin(np.abs(TS - med) + 1e-6 * np.abs(TS - 0.5))])


RULES = {"steady": lambda y, p, f: S.steady_threshold(y, p, f),
         "at 0.5": lambda y, p, f: 0.5,
         "best": lambda y, p, f: S.best_threshold(y, p)[0],
         "foldmean": fold_mean, "half": half, "foldmed": fold_median}

for path in sys.argv[1:]:
    recs = [r for r in pickle.load(open(path, "rb")) if "args" in r]
    out = {k: [] for k in RULES}
    runs = []
    for rec in recs:
        a = rec["args"]
        sel = S.choose(**a)
        if not S.vote_bins(sel.key):
            continue
        rows = np.arange(len(a["y"])) if a["direct_rows"] is None else np.asarray(a["direct_rows"])
        y, p = np.asarray(a["y"], bool)[rows], np.asarray(a["oof"][sel.key])[rows]
        fold = np.asarray(a["vote_fold"])[rows]
        assert np.isclose(RULES["steady"](y, p, fold), sel.threshold)
        runs.append(rec["run"])
        for k, f in RULES.items():
            t = round(f(y, p, fold), 2)
            out[k].append((t, f1_score(rec["y_test"], rec["tests"][sel.key][t], zero_division=0)))
    runs = np.array(runs)
    print(path, f"{len(runs)} splits where the smooth vote answers")
    base = np.array([f for _t, f in out["steady"]])
    for k, v in out.items():
        f = np.array([x for _t, x in v])
        d = f - base
        parts = []
        for lo, hi in ((0, 9), (10, 19), (20, 39)):
            m = (runs >= lo) & (runs <= hi)
            if m.any():
                parts.append(f"{lo}-{hi} {np.mean(d[m]):+.4f} ({int((d[m] > 1e-9).sum())}/"
                             f"{int((d[m] < -1e-9).sum())})")
        print(f"  {k:9s} mean t {np.mean([t for t, _ in v]):.3f} " + " | ".join(parts))
