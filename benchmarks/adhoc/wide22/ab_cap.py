"""A/B of the default's search cap past 200 features (wide22): clauses of 1 (`direct.short_cap`
now) against 2 (as before), on wide21's families: each run trains on the family's own rows
(seed 1000 + run) and tests on 2,000 new rows of the same draw (wide21's probe protocol); CPU of
both fits and of a 100-tree forest in the same process.
Run: OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/wide22/ab_cap.py FAMILY RUNS"""
# ruff: noqa: E402
import math
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "wide21"))
warnings.simplefilter("ignore")
import numpy as np
from families import FAMILIES
from sklearn.metrics import f1_score

import plx_core.direct as D
from plx_core.estimator import PLXClassifier
from plx_core.experiments.compare import make

new_cap = D.short_cap


def old_cap(n_rows, n_features, domains):
    """wide21's: no cap of 1."""
    cap = new_cap(n_rows, n_features, domains)
    return 2 if cap == 1 else cap


fam, runs = sys.argv[1], int(sys.argv[2])
gen = FAMILIES[fam]
n = gen.__defaults__[1]
out = []
for run in range(runs):
    X, y, pos = gen(seed=1000 + run, n=n + 2000)
    Xtr, ytr, Xte, yte = X.iloc[:n], y.iloc[:n], X.iloc[n:], y.iloc[n:].to_numpy()
    t = time.process_time()
    make("Forest", run, X.shape[1]).fit(Xtr, (ytr == pos).astype(int).to_numpy())
    row = [time.process_time() - t]
    for cap in (old_cap, new_cap):
        D.short_cap = cap
        t = time.process_time()
        m = PLXClassifier(positive=pos, random_state=run).fit(Xtr, ytr)
        row += [time.process_time() - t, f1_score(yte, m.predict(Xte), pos_label=pos), m.chosen_,
                m.max_len_]
    out.append(row)
    print(run, " ".join(f"{v:.3f}" if isinstance(v, float) else str(v) for v in row), flush=True)
a = np.array([[r[0], r[1], r[2], r[5], r[6]] for r in out], float)
d = a[:, 4] - a[:, 2]
print(f"{fam} {runs} runs ({math.comb(X.shape[1], 2):,} pairs): F1 before {a[:, 2].mean():.4f} "
      f"now {a[:, 4].mean():.4f} (diff {d.mean():+.4f}, se {d.std(ddof=1) / np.sqrt(len(d)):.4f}, "
      f"{(d > 0).sum()} better {(d < 0).sum()} worse); plx/forest CPU median before "
      f"{np.median(a[:, 1] / a[:, 0]):.2f}x now {np.median(a[:, 3] / a[:, 0]):.2f}x")
