"""Ad hoc (session 12): the smooth vote always answering, its bins per column chosen per table
among BINS by out-of-fold (class-weighted) log loss — test F1 per split and the picks.

    python benchmarks/adhoc/gam/always_ll.py SETS RUN0 RUN1 BINS[,BINS…] …   # e.g. 16,32
"""
from __future__ import annotations

import sys
import warnings

import numpy as np
from sklearn.metrics import f1_score

from plx_core import estimator as E
from plx_core import vote as VT
from plx_core.experiments.compare import make, split_set

_FINE = E.PLXClassifier._fine_vote
GRID: list[int] = [32]
PICKS: list[int] = []


def log_loss(cand, y: np.ndarray) -> float:
    p = np.clip(np.nan_to_num(cand.oof, nan=0.5), 1e-12, 1 - 1e-12)
    return float(VT.row_weights(y, cand.cw) @ -(y * np.log(p) + (1 - y) * np.log(1 - p)) / len(y))


def fine(self, raw, nums, y, cv=True, bins=None):
    best = None
    for nb in GRID:
        got = _FINE(self, raw, nums, y, cv, bins=bins or nb)
        if got is None or len(GRID) == 1 or not cv:
            return got
        v = log_loss(got[0], np.asarray(y))
        if best is None or v < best[0]:
            best = (v, nb, got)
    PICKS.append(best[1])
    return best[2]


def main() -> None:
    E.PLXClassifier._fine_vote = fine
    E.PLXClassifier._cut_optimism = lambda self, *a, **k: 10.0  # it always answers
    VT.OPTIMISM_RUNS = 10**6
    warnings.simplefilter("ignore")
    sets, r0, r1 = sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3])
    for key in sets:
        X, y, splits = split_set(key, r1)
        for g in sys.argv[4:]:
            GRID[:] = [int(b) for b in g.split(",")]
            PICKS.clear()
            out = []
            for r in range(r0, r1):
                tr, te = splits[r]
                m = make("plx", r, X.shape[1]).fit(X.iloc[tr].reset_index(drop=True), y[tr])
                out.append(f1_score(y[te], m.predict(X.iloc[te].reset_index(drop=True))))
            print(f"{key} bins {g}: test {np.mean(out):.3f}  picks {PICKS}  "
                  + " ".join(f"{v:.3f}" for v in out), flush=True)


if __name__ == "__main__":
    main()
