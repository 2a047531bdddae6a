# Ad hoc script behind benchmarks/RESULTS.md, "Balanced clause probabilities (5 splits, 1,500 rows, `max_len=3`)";
# kept as it ran (moved from /tmp/acc/cw.py). Run from the repository root: python benchmarks/adhoc/acc/cw.py …
import sys, time, numpy as np, pandas as pd, warnings
warnings.filterwarnings("ignore")
from sklearn.model_selection import StratifiedShuffleSplit
from sklearn.metrics import f1_score
from plx_core.estimator import PLXClassifier
from plx_core.datasets import rare_positives, dnf_noise, load_shared
sets = {}
for r in (0.05, 0.1, 0.3):
    X, y = rare_positives(r, 1500, 0); sets[f"rare{r}"] = (X, y, "yes")
X, y = dnf_noise(1500); sets["dnf"] = (X, y, "1")
for name in sys.argv[1].split(","):
    if name in sets: continue
    ds = load_shared(name); sets[name] = (ds.X, ds.y, ds.positive)
cfgs = eval(sys.argv[2])
for name, (X, y, pos) in sets.items():
    if name not in sys.argv[1].split(",") and sys.argv[1] != "all": continue
    if len(X) > 1500:
        idx = np.random.default_rng(0).choice(len(X), 1500, replace=False); X, y = X.iloc[idx].reset_index(drop=True), y.iloc[idx].reset_index(drop=True)
    res = {k: [] for k in cfgs}
    for tr, te in StratifiedShuffleSplit(5, test_size=0.3, random_state=0).split(X, y):
        for k, kw in cfgs.items():
            t = time.time()
            clf = PLXClassifier(positive=pos, **kw).fit(X.iloc[tr], y.iloc[tr])
            p = clf.predict(X.iloc[te])
            res[k].append(f1_score(y.iloc[te] == pos, p == pos))
    print(name, {k: round(float(np.mean(v)), 3) for k, v in res.items()}, flush=True)
