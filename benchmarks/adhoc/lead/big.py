# Ad hoc script behind benchmarks/RESULTS.md, "Against the targets, and why";
# kept as it ran (moved from /tmp/lead/big.py). Run from the repository root: python benchmarks/adhoc/lead/big.py …
import sys, time, numpy as np, pandas as pd
from sklearn.ensemble import RandomForestClassifier
from plx_core import PLXClassifier
n = int(sys.argv[1]); rng = np.random.default_rng(0)
X = pd.DataFrame({f"x{i}": rng.normal(size=n) for i in range(6)})
for i in range(7): X[f"c{i}"] = rng.choice(list("abcde"), n)
s = X.x0 + 0.8*X.x1 - 0.5*X.x2 + (X.c0 == "a") + 0.7*(X.c1 == "b") + rng.normal(size=n)
y = (s > np.quantile(s, 0.8)).astype(int)
def cpu(f):
    t0, c0 = time.perf_counter(), time.process_time(); f(); return time.perf_counter()-t0, time.process_time()-c0
Xe = pd.get_dummies(X)
rf = cpu(lambda: RandomForestClassifier(random_state=0, n_jobs=1).fit(Xe, y))
clf = PLXClassifier(positive=1, random_state=0)
px = cpu(lambda: clf.fit(X, y))
print(n, "forest wall %.2f cpu %.2f" % rf, "plx wall %.2f cpu %.2f" % px, "ratio cpu %.1f" % (px[1]/rf[1]), clf.chosen_)
