"""Ad hoc (session 19, acc19): EBM's test F1 per split of the comparison (as `compare` fits it),
for the ranges past runs 0-9 that /work/cmp_base does not hold.

    python benchmarks/adhoc/acc19/ebm_runs.py SET RUNS
"""
import sys
import warnings

import numpy as np
from sklearn.metrics import f1_score

from plx_core.experiments.compare import make, split_set

warnings.simplefilter("ignore")
key, spec = sys.argv[1], sys.argv[2]
lo, hi = map(int, spec.split("-"))
X, y, splits = split_set(key, hi + 1)
f1s = []
for r in range(lo, hi + 1):
    tr, te = splits[r]
    m = make("EBM", r, X.shape[1]).fit(X.iloc[tr], y[tr])
    f1s.append(f1_score(y[te], np.asarray(m.predict(X.iloc[te])).astype(int) == 1))
    print(r, round(f1s[-1], 4), flush=True)
f1s = np.array(f1s)
rr = np.arange(lo, hi + 1)
print(" | ".join(f"{a}-{b} {f1s[(rr >= a) & (rr <= b)].mean():.4f}"
                 for a, b in ((0, 9), (10, 19), (20, 39)) if ((rr >= a) & (rr <= b)).any()))
