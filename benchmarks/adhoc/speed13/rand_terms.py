import sys, shutil, os, importlib, tempfile
import numpy as np
tmp = tempfile.mkdtemp(); shutil.copytree("/tmp/speed13/base/plx_core", os.path.join(tmp, "plx_before"))
sys.path.insert(0, tmp)
OLD = importlib.import_module("plx_before.terms")
import plx_core.terms as NEW
rng = np.random.default_rng(1)
bad = 0
for it in range(400):
    n = int(rng.integers(5, 900)); f = int(rng.integers(1, 9))
    sizes = rng.integers(1, 7, size=f)
    codes = np.stack([rng.integers(-1, s + 1, size=n) for s in sizes], axis=1)
    y = (rng.random(n) < rng.uniform(0.05, 0.9)).astype(int)
    if it % 3 == 0:  # a logical label
        y = ((codes[:, 0] == 0) | ((codes[:, -1] == 1) & (codes[:, 0] != 1))).astype(int)
    cw = (float(rng.uniform(0.2, 3)), float(rng.uniform(0.2, 3))) if it % 2 else (1.0, 1.0)
    kw = dict(max_len=int(rng.integers(1, 5)), beam=int(rng.integers(1, 9)),
              min_rows=int(rng.integers(0, 6)), m=float(rng.choice([0.0, 1.0, 20.0, 50.0])),
              exact_m=float(rng.choice([0.0, 20.0])), max_terms=int(rng.integers(1, 13)),
              min_lift=float(rng.choice([0.0, 0.25])), rest=bool(rng.integers(0, 2)))
    a = OLD.learn_terms(codes, sizes, y, cw, **kw); b = NEW.learn_terms(codes, sizes, y, cw, **kw)
    if not (np.array_equal(a.bodies, b.bodies) and np.array_equal(a.group, b.group)):
        bad += 1; print("DIFF", it, kw)
print("bad", bad)
