# Ad hoc script behind benchmarks/RESULTS.md, "The fitted vote on finer bins ("direct-vote bins=8", old → new)";
# kept as it ran (moved from /tmp/fb/runs.py). Run from the repository root: python benchmarks/adhoc/fb/runs.py …
"""old → new per split: new = this worktree's default; old = the same with vote.FINE_BINS = 0
(the fine vote only adds a candidate, so where it does not answer old = new)."""
import sys, warnings, time
warnings.filterwarnings("ignore")
import numpy as np
from plx_core.experiments.compare import split_set, make
from plx_core.selection import f1_at
import plx_core.vote as VT
sets, a, b = sys.argv[1].split(","), int(sys.argv[2]), int(sys.argv[3])
out = open(sys.argv[4] if len(sys.argv) > 4 else "runs.csv", "a")  # was /tmp/fb/runs.csv
for s in sets:
    X, y, splits = split_set(s, b)
    for r in range(a, b):
        tr, te = splits[r]
        Xtr, Xte = X.iloc[tr].reset_index(drop=True), X.iloc[te].reset_index(drop=True)
        def f1(fine):
            VT.FINE_BINS = fine
            t = time.process_time()
            m = make("plx", r, X.shape[1]).fit(Xtr, y[tr])
            t = time.process_time() - t
            p = m.predict(Xte).astype(float)
            return float(f1_at(y[te], p, np.array([0.5]))[0]), m.model_, t
        new, e, t = f1(8)
        key = e.selection_.key if e.selection_ else e.chosen_
        old, eo, to = (f1(0) if key.startswith("direct-vote bins") else (new, e, t))
        okey = eo.selection_.key if eo.selection_ else eo.chosen_
        line = f"{s},{r},{old:.4f},{new:.4f},{okey},{key},{to:.2f},{t:.2f}"
        print(line, flush=True); out.write(line + "\n"); out.flush()
