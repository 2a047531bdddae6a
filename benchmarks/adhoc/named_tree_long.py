"""kb="tree" on a long table: clauses, fit time and test F1 grown until pure (as plx fit --kb
tree does) against nodes split only as large as the default's search splits them
(`scale.min_split` at `SEARCH_ROWS`), same process, medians of 3 (benchmarks/RESULTS.md,
"Named tree kinds on a long table"). Usage: python named_tree_long.py [rows] [categories]."""
import statistics
import sys
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score

from plx_core import PLXClassifier, estimator, scale

warnings.simplefilter("ignore")
n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
n_cat = int(sys.argv[2]) if len(sys.argv) > 2 else 12
rng = np.random.default_rng(0)
X = pd.DataFrame({"age": rng.integers(18, 90, n).astype(float),
                  "score": rng.normal(600, 80, n).round(1),
                  **{f"c{i}": rng.choice(list("abcd"), n) for i in range(n_cat)}})
y = (((X.age > 65) & (X.c0 == "a")) | ((X.score > 700) & (X.c1 == "b")))
y = np.where(rng.random(n) < 0.05, ~y, y).astype(int)
te, tr = slice(0, n // 5), slice(n // 5, n)
least = scale.min_split(n - n // 5, scale.SEARCH_ROWS)
for label, split in (("grown until pure", 2), (f"nodes of ≥ {least} rows split", least)):
    estimator.min_split = lambda rows, searched, s=split: s  # the fit's node-size limit
    times = []
    for _ in range(3):
        t = time.perf_counter()
        m = PLXClassifier(kb="tree", positive=1).fit(X.iloc[tr], y[tr])
        times.append(time.perf_counter() - t)
    f1 = f1_score(y[te], m.predict(X.iloc[te]))
    print(f"{label}: {m.kb_.n_learned:,} clauses, fit median {statistics.median(times):.2f} s, "
          f"test F1 {f1:.3f}")
