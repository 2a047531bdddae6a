"""Ad hoc (issue 11, session 13): EBM (`baselines.EBM_SETTINGS`, as in the comparison) on the
tables of `tables.py`, F1 of the positive class per run.

    python benchmarks/adhoc/rare13/ebm_tables.py NAME RUNS      # e.g. rare7-20 0-19
"""
import os
import sys
import warnings

import numpy as np
from sklearn.metrics import f1_score

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tables import split_table  # noqa: E402

from plx_core.baselines import EBM_SETTINGS  # noqa: E402

warnings.simplefilter("ignore")
from interpret.glassbox import ExplainableBoostingClassifier  # noqa: E402

name, spec = sys.argv[1], sys.argv[2]
a, b = (int(v) for v in spec.split("-"))
got = []
for r in range(a, b + 1):
    Xt, yt, Xe, ye = split_table(name, r)
    e = ExplainableBoostingClassifier(n_jobs=1, random_state=r, **EBM_SETTINGS).fit(Xt, yt)
    got.append(f1_score(ye, e.predict(Xe)))
    print(f"{name} run {r}: EBM {got[-1]:.3f}", flush=True)
print(f"{name}: EBM runs 0-9 {np.mean(got[:10]):.3f}, 10-19 {np.mean(got[10:]):.3f}, "
      f"all {np.mean(got):.3f}")
