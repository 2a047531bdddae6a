"""plx default fit CPU / forest fit CPU on wide21 families (3 draws each), whichever plx_core is on PYTHONPATH."""
# ruff: noqa: E401, E402, E702
import sys
import time
import warnings

sys.path.insert(0, str(__import__('pathlib').Path(__file__).parent))
warnings.simplefilter("ignore")
import numpy as np
from families import FAMILIES

import plx_core
from plx_core.estimator import PLXClassifier
from plx_core.experiments.compare import make

print(plx_core.__file__)
for fam in sys.argv[1].split(","):
    gen = FAMILIES[fam]; n = gen.__defaults__[1]
    r = []
    for run in range(3):
        X, y, pos = gen(seed=1000 + run, n=n)
        yb = (y == pos).astype(int).to_numpy()
        t = time.process_time(); make("Forest", run, X.shape[1]).fit(X, yb); tf = time.process_time() - t
        t = time.process_time(); m = PLXClassifier(positive=pos, random_state=run).fit(X, y); tp = time.process_time() - t
        r.append((tf, tp, m.max_len_, m.chosen_))
    tf = np.median([a for a, *_ in r]); tp = np.median([b for _, b, *_ in r])
    print(f"{fam}: forest {tf:.2f}s plx {tp:.2f}s ratio {tp/tf:.2f}x max_len {[c for *_, c, _ in r]} chosen {[d for *_, d in r]}", flush=True)
