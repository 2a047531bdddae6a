# Ad hoc script behind benchmarks/RESULTS.md, "Against the targets, and why";
# kept as it ran (moved from /tmp/prof_fit.py). Run from the repository root: python benchmarks/adhoc/prof_fit.py …
import sys, cProfile, pstats, warnings
warnings.simplefilter("ignore")
from plx_core.experiments.compare import make, split_set
key = sys.argv[1]
X, yb, ((tr, _),) = split_set(key, 1, 1000)
Xt, yt, nf = X.iloc[tr], yb[tr], X.shape[1]
make("plx", 0, nf).fit(Xt, yt)
pr = cProfile.Profile(); pr.enable()
for _ in range(3):
    m = make("plx", 0, nf).fit(Xt, yt)
pr.disable()
print(type(m))
pstats.Stats(pr).sort_stats("cumtime").print_stats(45)
