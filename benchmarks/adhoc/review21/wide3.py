"""Does direct.WIDE_SUBSETS' cap (clauses of 2 past C(n, 3) = 20,000 subsets) lose a three-way
rule on many rows? The default PLXClassifier on 3,000 training rows x 55 binary columns, the
label xor / and / majority of three of them (5% flipped), with the cap and without; test F1 on
1,000 rows, the chosen family, max_len_ and CPU seconds.
Run: PYTHONPATH=. python benchmarks/adhoc/review21/wide3.py SEED xor|and|maj [VARIANT: tuned, paper]"""
import sys
import time

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score

import plx_core.direct as direct
from plx_core.estimator import PLXClassifier

rng = np.random.default_rng(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
n, k = 4000, 55
X = pd.DataFrame(rng.integers(0, 2, size=(n, k)).astype(str), columns=[f"c{i}" for i in range(k)])
a, b, c = (X[f"c{i}"] == "1" for i in range(3))
rule = {"xor": a ^ b ^ c, "and": (a & b & c) | (rng.random(n) < 0.03),
        "maj": (a.astype(int) + b + c) >= 2}[sys.argv[2]]
y = np.where(rule, "yes", "no")
flip = rng.random(n) < 0.05
y = np.where(flip, np.where(y == "yes", "no", "yes"), y)
tr, te = slice(0, 3000), slice(3000, None)
for subs in (direct.WIDE_SUBSETS, 10**9):
    direct.WIDE_SUBSETS = subs
    t = time.process_time()
    m = PLXClassifier(variant=sys.argv[3] if len(sys.argv) > 3 else "auto", random_state=0).fit(X[tr], y[tr])
    print(subs, "F1", round(f1_score(y[te], m.predict(X[te]), pos_label="yes"), 4), m.chosen_, getattr(m, "max_len_", None), "cpu", round(time.process_time() - t, 1), flush=True)
