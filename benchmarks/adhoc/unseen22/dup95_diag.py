"""dup95 scored on splits that keep a record's copies on one side (GroupShuffleSplit by the
distinct row): what each model learns beyond recalling the copies.

python benchmarks/adhoc/unseen22/dup95_diag.py [SPLITS]
"""
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score
from sklearn.model_selection import GroupShuffleSplit

from plx_core.estimator import PLXClassifier
from plx_core.experiments.compare import make

sys.path.insert(0, str(Path(__file__).parent))
from families import dup95  # noqa: E402

X, y, pos = dup95()
yb = (y == pos).astype(int).to_numpy()
groups = X.astype(str).agg("|".join, axis=1)
k = int(sys.argv[1]) if len(sys.argv) > 1 else 6
rows = []
for run, (tr, te) in enumerate(GroupShuffleSplit(k, test_size=0.3, random_state=0).split(X, y, groups)):
    for m in ("plx", "CART", "EBM", "Forest"):
        if m == "plx":
            p = (PLXClassifier(positive=pos, random_state=run).fit(X.iloc[tr], y.iloc[tr]).predict(X.iloc[te]) == pos)
        else:
            p = make(m, run, X.shape[1]).fit(X.iloc[tr], yb[tr]).predict(X.iloc[te])
        rows.append({"run": run, "method": m, "f1": f1_score(yb[te], np.asarray(p).astype(int))})
        print(rows[-1], flush=True)
print(pd.DataFrame(rows).groupby("method").f1.agg(["mean", "std"]).round(3))
