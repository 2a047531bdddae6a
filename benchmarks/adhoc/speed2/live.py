# Share of (subset, row) pairs whose Direct KB body can vote in the leave-one-out, by length (RESULTS.md, session 10).
# usage: PYTHONPATH=. python benchmarks/adhoc/speed2/live.py SET
import sys, warnings, numpy as np
sys.path.insert(0, '.')
from plx_core.experiments.compare import make, split_set
import plx_core.variants as V
key = sys.argv[1]
X, yb, ((tr, _),) = split_set(key, 1, 1000)
Xt, yt, nf = X.iloc[tr], yb[tr], X.shape[1]
warnings.simplefilter("ignore")
orig = V.LooCount._visit
stats = {}
def g(self, k, at, sup, pos):
    m = len(sup)
    cv = min(c for c, _ in self._kinds)
    live = np.append(sup > cv, False)
    lp = live[at].mean() if m else 0
    s = stats.setdefault(k, [0, 0, 0])
    s[0] += at.size; s[1] += live[at].sum(); s[2] += 1
    return orig(self, k, at, sup, pos)
V.LooCount._visit = g
m = make("plx", 0, nf).fit(Xt, yt)
tot = sum(s[0] for s in stats.values()); lv = sum(s[1] for s in stats.values())
print(key, "pairs", tot, "live", lv, round(lv / max(tot,1), 3), "unit_row", m.model_ is not None)
for k, s in sorted(stats.items()): print("  k", k, s[0], round(s[1]/s[0], 3), "chunks", s[2])
