"""Ad hoc (issue 11, session 11): the smooth vote on fine bins answering every split, with
knobs — test F1 and out-of-fold F1 per config "bins:smooth:pool:C:l1".

    python benchmarks/adhoc/gam/always.py SETS RUN0 RUN1 CONFIG[,CONFIG…]
"""
from __future__ import annotations

import sys
import time
import warnings

import numpy as np
from sklearn.metrics import f1_score

from plx_core import estimator as E
from plx_core import vote as VT
from plx_core.experiments.compare import make, split_set

KNOB = {"C": VT.VOTE_C, "l1": 0.0}
_orig_vote = E.PLXClassifier._vote


def _vote(self, full, frame, y, codes=None, cv=True, smooth=None):
    if smooth is None:
        return _orig_vote(self, full, frame, y, codes, cv, smooth)
    if codes is None:
        codes = self._codes
    sizes = [len(full.domains[f]) for f in full.features]
    slots = VT.value_slots(codes, sizes)
    return VT.VoteCandidate(full, slots, sizes, y, self._fold_weights, self.random_state,
                            smooth=smooth, C=KNOB["C"], l1=KNOB["l1"])


E.PLXClassifier._vote = _vote
E.PLXClassifier._cut_optimism = lambda self, *a, **k: 10.0
VT.OPTIMISM_RUNS = 10**6


def main() -> None:
    sets, r0, r1 = sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3])
    confs = [tuple(float(v) for v in c.split(":")) for c in sys.argv[4].split(",")]
    warnings.simplefilter("ignore")
    for key in sets:
        X, y, splits = split_set(key, r1)
        res = {c: [] for c in confs}
        for run in range(r0, r1):
            tr, te = splits[run]
            for c in confs:
                VT.FINE_BINS, VT.FINE_SMOOTH, VT.FINE_POOL = int(c[0]), c[1], int(c[2])
                KNOB["C"], KNOB["l1"] = c[3], c[4]
                m = make("plx", run, X.shape[1])
                t = time.process_time()
                m.fit(X.iloc[tr].reset_index(drop=True), y[tr])
                dt = time.process_time() - t
                est = m.model_
                k = est.selection_.key
                oof = est.selection_.scores.get(k, np.nan) - (10.0 if "bins=" in k else 0.0)
                f1 = f1_score(y[te], m.predict(X.iloc[te].reset_index(drop=True)))
                res[c].append((f1, oof, dt, k))
        for c, r in res.items():
            a = np.array([x[:3] for x in r], float)
            print(f"{key} {c}: test {a[:, 0].mean():.3f} ± {a[:, 0].std():.3f}  oof "
                  f"{a[:, 1].mean():.3f}  cpu {a[:, 2].mean():.2f}s  "
                  f"({sum('bins=' in x[3] for x in r)} fine) "
                  + " ".join(f"{v:.3f}" for v in a[:, 0]), flush=True)


if __name__ == "__main__":
    main()
