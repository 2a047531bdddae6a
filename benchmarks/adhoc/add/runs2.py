# Ad hoc script behind benchmarks/RESULTS.md, "Fitted vote weights on the one-feature clauses in the search ("direct-vote", old → new)";
# kept as it ran (moved from /tmp/add/runs2.py). Run from the repository root: python benchmarks/adhoc/add/runs2.py …
import sys, time, warnings, json, numpy as np, pandas as pd
warnings.simplefilter("ignore")
from plx_core.experiments.compare import split_set, make
from sklearn.metrics import f1_score
out = sys.argv[2]
for spec in sys.argv[1].split(";"):
    key, lo, hi = spec.split(":"); lo, hi = int(lo), int(hi)
    X, y, sp = split_set(key, 30 if hi > 20 else (20 if hi > 10 else 10))
    for run in range(lo, hi):
        tr, te = sp[run]
        m = make("plx", run, X.shape[1])
        t = time.perf_counter(); m.fit(X.iloc[tr], y[tr]); t = time.perf_counter() - t
        f = f1_score(y[te], m.predict(X.iloc[te]), zero_division=0)
        s = m.model_.selection_
        with open(out, "a") as fh:
            fh.write(json.dumps({"set": key, "run": run, "f1": f, "fit_s": t, "chosen": m.model_.chosen_,
                                 "scores": None if s is None else s.scores}) + "\n")
