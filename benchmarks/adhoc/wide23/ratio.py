"""Fit CPU of the default PLXClassifier / a 100-tree forest's, in the same process, and test F1
on 2,000 new rows of the same draw (wide21's protocol: the family's own rows of seed 1000 + run;
onehot / many: wide22's thousand.py tables of seed run), whichever plx_core is on PYTHONPATH.
Run twice, main's and the branch's, and compare the lines (the F1s must match).
Run: OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/wide23/ratio.py genes300,wide RUNS"""
# ruff: noqa: E402
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "wide21"))
warnings.simplefilter("ignore")
import numpy as np
import pandas as pd
from families import FAMILIES
from sklearn.metrics import f1_score

import plx_core
from plx_core.estimator import PLXClassifier
from plx_core.experiments.compare import make


def thousand(fam: str, seed: int, n: int):
    """wide22's thousand.py tables: onehot (1,500 sparse 0/1 columns), many (400 numbers)."""
    rng = np.random.default_rng(seed)
    if fam == "onehot":
        B = (rng.random((n, 1500)) < 0.05).astype(int)
        B[:, :3] = rng.random((n, 3)) < 0.3
        z = 2.0 * B[:, 0] + 1.5 * B[:, 1] - 1.5 * B[:, 2] - 0.6 + rng.normal(0, 0.7, n)
        return pd.DataFrame(B, columns=[f"w{i:04d}" for i in range(1500)]), np.where(z > 0, "yes", "no")
    Z = rng.normal(size=(n, 400)).round(3)
    z = Z[:, 0] - 0.8 * Z[:, 1] + 0.6 * Z[:, 2] * (Z[:, 3] > 0) + rng.normal(0, 0.8, n)
    return pd.DataFrame(Z, columns=[f"m{i:03d}" for i in range(400)]), np.where(z > 0.3, "yes", "no")


print(plx_core.__file__)
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
for fam in sys.argv[1].split(","):
    ratios, f1s = [], []
    for run in range(runs):
        if fam in FAMILIES:
            gen = FAMILIES[fam]
            n = gen.__defaults__[1]
            X, y, pos = gen(seed=1000 + run, n=n + 2000)
            y = np.asarray(y)
        else:
            n, pos = {"onehot": 200, "many": 5000}[fam], "yes"
            X, y = thousand(fam, run, n + 2000)
        Xtr, ytr, Xte, yte = X.iloc[:n], y[:n], X.iloc[n:], y[n:]
        t = time.process_time()
        make("Forest", run, X.shape[1]).fit(Xtr, (ytr == pos).astype(int))
        tf = time.process_time() - t
        t = time.process_time()
        m = PLXClassifier(positive=pos, random_state=run).fit(Xtr, ytr)
        tp = time.process_time() - t
        f1 = f1_score(yte, m.predict(Xte), pos_label=pos)
        ratios.append(tp / tf)
        f1s.append(f1)
        print(f"{fam} {run}: forest {tf:.2f}s plx {tp:.2f}s ratio {tp / tf:.2f}x F1 {f1:.4f} "
              f"{m.chosen_} max_len {m.max_len_}", flush=True)
    print(f"{fam} {runs} runs: median ratio {np.median(ratios):.2f}x, mean F1 {np.mean(f1s):.4f}",
          flush=True)
