"""Ad hoc (session 17, review17): peak memory (tracemalloc) and CPU of MDLP cutting every column
of a synthetic table, one column at a time (mdlp_counts) against mdlp_cuts_many.

    python benchmarks/adhoc/review17/mdlp_memory.py ROWS COLUMNS [multi]   # multi: 4 classes
"""
import sys, time, tracemalloc, numpy as np
from plx_core.discretize import mdlp_cuts_many, mdlp_counts
n, m = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(0)
X = rng.normal(size=(n, m)).round(4)
y = (np.floor(X[:, :m].sum(1) * 2) % 4).astype(int).astype(str) if len(sys.argv) > 3 else np.where(X[:, :5].sum(1) + rng.normal(size=n) > 0, "a", "b")
def old(x, y):
    values, inv = np.unique(x, return_inverse=True)
    _, yc = np.unique(y.astype(str), return_inverse=True)
    c = np.zeros((len(values), yc.max() + 1)); np.add.at(c, (inv, yc), 1.0)
    return mdlp_counts(values, c, 4)
for name, f in [("old", lambda: [old(X[:, j], y) for j in range(m)]), ("new", lambda: mdlp_cuts_many([(X[:, j], y) for j in range(m)], 4))]:
    tracemalloc.start(); t = time.process_time(); r = f(); dt = time.process_time() - t
    peak = tracemalloc.get_traced_memory()[1] / 1e6; tracemalloc.stop()
    print(name, f"{dt:.2f}s CPU, peak {peak:.0f} MB", [len(c) for c in r][:8])
