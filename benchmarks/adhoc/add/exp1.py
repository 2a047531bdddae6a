# Ad hoc script behind benchmarks/RESULTS.md, "Fitted vote weights on the one-feature clauses in the search ("direct-vote", old → new)";
# kept as it ran (moved from /tmp/add/exp1.py). Run from the repository root: python benchmarks/adhoc/add/exp1.py …
import sys, numpy as np
from lib import *

sets = sys.argv[1].split(",")
runs = range(int(sys.argv[2]) if len(sys.argv) > 2 else 10)
for key in sets:
    rows = {}
    for run in runs:
        d = get(key, run)
        F = d["ctr"].shape[1]
        rel = relevance(d)
        order = np.argsort(-rel, kind="stable")
        res = {}
        res["unit"] = evaluate(d, allk, unit)[:4]
        res["conf"] = evaluate(d, allk, conf())[:4]
        for m in range(1, F + 1):
            bits = int(sum(1 << int(j) for j in order[:m]))
            res[f"u{m}"] = evaluate(d, subset_keep(bits), unit)[:4]
            res[f"c{m}"] = evaluate(d, subset_keep(bits), conf())[:4]
        for fam in ("u", "c"):
            best = max(range(1, F + 1), key=lambda m: (res[f"{fam}{m}"][0], -m))
            res[f"{fam}*"] = res[f"{fam}{best}"][:4] + (best,)
        for k, v in res.items():
            rows.setdefault(k, []).append(v)
    print(f"== {key}  (loo f1, test f1 @loo thr, oracle)")
    for k, v in rows.items():
        a = np.array([x[:4] for x in v])
        extra = "" if len(v[0]) < 5 else " m=" + ",".join(str(x[4]) for x in v)
        print(f"{k:6s} loo {a[:,0].mean():.3f} test {a[:,2].mean():.3f} oracle {a[:,3].mean():.3f}{extra}")
