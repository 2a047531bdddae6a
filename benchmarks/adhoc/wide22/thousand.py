"""Tables of 1,000+ columns (wide22, task 3): does the default fit finish, in what CPU and peak
memory, with which cap and notes? Families: onehot (200 rows x 1,500 sparse 0/1 columns, 3 carry
the label), many (5,000 rows x 400 numeric columns, 4 carry it), both seeded.
Run: OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/wide22/thousand.py onehot|many [SEED]"""
import resource
import sys
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score

from plx_core.estimator import PLXClassifier
from plx_core.experiments.compare import make


def onehot(seed: int, n: int) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    B = (rng.random((n, 1500)) < 0.05).astype(int)
    B[:, :3] = rng.random((n, 3)) < 0.3
    z = 2.0 * B[:, 0] + 1.5 * B[:, 1] - 1.5 * B[:, 2] - 0.6 + rng.normal(0, 0.7, n)
    return pd.DataFrame(B, columns=[f"w{i:04d}" for i in range(1500)]), np.where(z > 0, "yes", "no")


def many(seed: int, n: int) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, 400)).round(3)
    z = Z[:, 0] - 0.8 * Z[:, 1] + 0.6 * Z[:, 2] * (Z[:, 3] > 0) + rng.normal(0, 0.8, n)
    return pd.DataFrame(Z, columns=[f"m{i:03d}" for i in range(400)]), np.where(z > 0.3, "yes", "no")


fam = sys.argv[1]
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
gen, n = {"onehot": (onehot, 200), "many": (many, 5000)}[fam]
X, y = gen(seed, n + 2000)
Xtr, ytr, Xte, yte = X.iloc[:n], y[:n], X.iloc[n:], y[n:]
t = time.process_time()
make("Forest", seed, X.shape[1]).fit(Xtr, (ytr == "yes").astype(int))
tf = time.process_time() - t
t = time.process_time()
with warnings.catch_warnings(record=True) as said:
    warnings.simplefilter("always")
    m = PLXClassifier(positive="yes", random_state=seed).fit(Xtr, ytr)
tp = time.process_time() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{fam} seed {seed}: {Xtr.shape}, plx {tp:.1f}s forest {tf:.1f}s ratio {tp / tf:.1f}x, peak RSS "
      f"{peak:.0f} MiB, test F1 {f1_score(yte, m.predict(Xte), pos_label='yes'):.3f}, chosen {m.chosen_}")
print("max_len_reason_:", m.max_len_reason_)
print("chosen_reason_:", m.chosen_reason_)
for w in said:
    print("note:", str(w.message)[:300])
