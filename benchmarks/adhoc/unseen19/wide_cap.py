"""plx default fit with the clause-length cap chosen by the memory budget (max_len=None, what a
user gets) vs max_len=3 (what `compare` passes beyond 12 features): F1 and fit seconds.

python benchmarks/adhoc/unseen19/wide_cap.py SET[,SET...] RUNS OUT.csv [FIRST]
(runs FIRST..RUNS-1 of RUNS splits; FIRST defaults to 0)
SET: a compare set key or an unseen19 family name.
"""
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score
from sklearn.model_selection import StratifiedShuffleSplit

sys.path.insert(0, str(Path(__file__).parent))
from families import FAMILIES  # noqa: E402

from plx_core.estimator import PLXClassifier  # noqa: E402
from plx_core.experiments.compare import split_set  # noqa: E402

rows = []
for key in sys.argv[1].split(","):
    if key in FAMILIES:
        X, y, pos = FAMILIES[key]()
        yb = (y.astype(str).to_numpy() == pos).astype(int)
        splits = list(StratifiedShuffleSplit(int(sys.argv[2]), test_size=0.3, random_state=0).split(X, yb))
    else:
        X, yb, splits = split_set(key, int(sys.argv[2]), 1000)
    for run, (tr, te) in enumerate(splits):
        if run < (int(sys.argv[4]) if len(sys.argv) > 4 else 0):
            continue
        for cap in (None, 3):
            warnings.simplefilter("ignore")
            t0 = time.perf_counter()
            m = PLXClassifier(positive=1, random_state=run, max_len=cap).fit(X.iloc[tr], yb[tr])
            t1 = time.perf_counter()
            pred = np.asarray(m.predict(X.iloc[te])).astype(int)
            rows.append({"set": key, "run": run, "cap": str(cap), "used": m.max_len_,
                         "chosen": m.chosen_, "f1": f1_score(yb[te], pred), "fit_s": t1 - t0})
            print(rows[-1], flush=True)
pd.DataFrame(rows).to_csv(sys.argv[3], index=False)
