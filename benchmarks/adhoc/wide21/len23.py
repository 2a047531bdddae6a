"""Test F1 and fit CPU of the default at max_len=3 against max_len=2 on a wide21 family: FAMILY ROWS DRAWS (2,000 test rows a draw)."""
# ruff: noqa: E401, E402, E702
import sys
import time
import warnings

sys.path.insert(0, str(__import__('pathlib').Path(__file__).parent))
warnings.simplefilter("ignore")
import numpy as np
from families import FAMILIES
from sklearn.metrics import f1_score

from plx_core.estimator import PLXClassifier

fam, n, k = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
gen = FAMILIES[fam]
res = {2: [], 3: []}; cpu = {2: [], 3: []}
for run in range(k):
    X, y, pos = gen(seed=2000 + run, n=n + 2000)
    yb = (y == pos).to_numpy()
    for L in (3, 2):
        t = time.process_time()
        m = PLXClassifier(positive=pos, random_state=run, max_len=L).fit(X.iloc[:n], y.iloc[:n])
        cpu[L].append(time.process_time() - t)
        res[L].append(f1_score(yb[n:], np.asarray(m.predict(X.iloc[n:])) == pos))
    print(fam, n, run, f"L3 {res[3][-1]:.3f} L2 {res[2][-1]:.3f} cpu {cpu[3][-1]:.2f}/{cpu[2][-1]:.2f}", flush=True)
d = np.array(res[2]) - np.array(res[3])
print(fam, n, f"L3 {np.mean(res[3]):.4f} L2 {np.mean(res[2]):.4f} diff {d.mean():+.4f} se {d.std(ddof=1)/np.sqrt(len(d)):.4f} cpu {np.median(cpu[3]):.2f}/{np.median(cpu[2]):.2f}")
