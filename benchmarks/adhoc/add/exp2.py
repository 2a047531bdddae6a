# Ad hoc script behind benchmarks/RESULTS.md, "Fitted vote weights on the one-feature clauses in the search ("direct-vote", old → new)";
# kept as it ran (moved from /tmp/add/exp2.py). Run from the repository root: python benchmarks/adhoc/add/exp2.py …
import sys, numpy as np
from lib import *
sets = sys.argv[1].split(",")
runs = range(int(sys.argv[2]) if len(sys.argv) > 2 else 10)
for key in sets:
    rows = {}
    for run in runs:
        d = get(key, run)
        F = d["ctr"].shape[1]; L = int(d["kb"].lengths.max())
        res = {}
        res["conf"] = evaluate(d, allk, conf())[:4]
        for m in (1, 3, 10):
            for hi in range(1, L + 1):
                res[f"woe m{m} L1-{hi}"] = evaluate(d, len_keep(1, hi), woe(m))[:4]
                res[f"woe m{m} L1-{hi} g"] = evaluate(d, len_keep(1, hi), woe(m), guarded=True)[:4]
        for k, v in res.items():
            rows.setdefault(k, []).append(v)
    print(f"== {key}  (loo f1, test f1 @loo thr, oracle, test@0.5)")
    for k, v in rows.items():
        a = np.array([x[:4] for x in v])
        print(f"{k:18s} loo {a[:,0].mean():.3f} test {a[:,2].mean():.3f} oracle {a[:,3].mean():.3f} thr {a[:,1].mean():.2f}")
