"""The vote on finer bins with a smoothness penalty, answering every split ("always"): its
test F1 and out-of-fold F1 per (bins, strength) on the comparison's splits — the ceiling
check behind `vote.FINE_BINS` / `vote.FINE_SMOOTH` (benchmarks/RESULTS.md, "A smooth vote on
fine bins").

    MODE=always|offset|plain|scored python benchmarks/exp_smooth_vote.py SETS RUN0 RUN1 \
        BINS:STRENGTH[:POOL][,…]

always: the vote on fine bins answers every split (every table, whatever its columns);
offset: the default's own choice, with the optimism offset; plain: chosen without it;
scored: which sets score the candidate at all (first split; RUN0, RUN1, BINS… unused).
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np
from sklearn.metrics import f1_score

from plx_core import estimator as E
from plx_core import vote as VT
from plx_core.experiments.compare import make, split_set


def main() -> None:
    sets, r0, r1, confs = sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    confs = [tuple(float(v) for v in c.split(":")) for c in confs.split(",")]
    # always | offset (the default's choice) | plain (no optimism offset) | scored
    mode = os.environ.get("MODE", "always")
    if mode == "always":  # the fine vote always answers, on every table
        E.PLXClassifier._cut_optimism = lambda self, *a, **k: 10.0
        VT.OPTIMISM_RUNS = 10**6
    elif mode == "plain":  # chosen without the optimism offset, on every table
        E.PLXClassifier._cut_optimism = lambda self, *a, **k: 0.0
        VT.OPTIMISM_RUNS = 10**6
    shift = 10.0 if mode == "always" else 0.0
    if mode == "scored":  # which sets score the vote on fine bins at all (first split)
        for key in sets:
            X, y, splits = split_set(key, 1)
            m = make("plx", 0, X.shape[1]).fit(X.iloc[splits[0][0]].reset_index(drop=True),
                                               y[splits[0][0]])
            fine = [k for k in m.model_.selection_.scores if "bins=" in k]
            print(f"{key}: {fine or 'no vote on fine bins scored'}", flush=True)
        return
    for key in sets:
        X, y, splits = split_set(key, r1)
        res = {c: [] for c in confs}
        for run in range(r0, r1):
            tr, te = splits[run]
            for c in confs:
                VT.FINE_BINS, VT.FINE_SMOOTH = int(c[0]), c[1]
                VT.FINE_POOL = int(c[2]) if len(c) > 2 else 0
                m = make("plx", run, X.shape[1])
                t = time.process_time()
                m.fit(X.iloc[tr].reset_index(drop=True), y[tr])
                dt = time.process_time() - t
                est = m.model_
                k = est.selection_.key
                oof = est.selection_.scores.get(k, np.nan) - (shift if "bins=" in k else 0.0)
                f1 = f1_score(y[te], m.predict(X.iloc[te].reset_index(drop=True)))
                res[c].append((f1, oof, dt, k))
        for c, r in res.items():
            a = np.array([x[:3] for x in r], float)
            print(f"{key} {c}: test {a[:, 0].mean():.3f} ± "
                  f"{a[:, 0].std():.3f}  oof {a[:, 1].mean():.3f}  cpu {a[:, 2].mean():.2f}s  "
                  f"({sum('bins=' in x[3] for x in r)} fine)", flush=True)


if __name__ == "__main__":
    main()
