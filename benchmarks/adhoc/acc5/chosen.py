# Ad hoc script behind benchmarks/RESULTS.md, "The fitted vote on pairs of features ("direct-vote pairs", old → new)";
# kept as it ran (moved from /tmp/acc5/chosen.py). Run from the repository root: python benchmarks/adhoc/acc5/chosen.py …
import sys, numpy as np
from plx_core.experiments.compare import split_set, make
for key in sys.argv[1].split(","):
    X, y, s = split_set(key, 10)
    got = []
    for run, (tr, te) in enumerate(s):
        m = make("plx", run, X.shape[1]).fit(X.iloc[tr], y[tr]).model_
        sc = m.selection_.scores if m.selection_ else {}
        got.append((m.selection_.key if m.selection_ else "direct", sc.get("direct-vote pairs")))
    n = sum(k == "direct-vote pairs" for k, _ in got)
    print(key, "pairs answered", n, "of", len(got), [k for k, _ in got], flush=True)
