"""CPU of the parts of one default fit (process time, wrappers on the estimator's names), beside a
100-tree forest in the same process; wide21's families, wide22's onehot/many, whichever plx_core is
on PYTHONPATH.
Run: OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/wide23/parts.py genes300[,many,...] [SEEDS]"""
# ruff: noqa: E402
import functools
import importlib.util
import sys
import time
import warnings
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "wide21"))
warnings.simplefilter("ignore")
import numpy as np
from families import FAMILIES

import plx_core.estimator as E
from plx_core.experiments.compare import make

_spec = importlib.util.spec_from_file_location(
    "thousand_fams", Path(__file__).parent.parent / "wide22" / "thousand_fams.py")

spent: dict[str, float] = defaultdict(float)


def timed(owner, name, label=None):
    f = getattr(owner, name)

    @functools.wraps(f)
    def g(*a, **k):
        t = time.process_time()
        try:
            return f(*a, **k)
        finally:
            spent[label or name] += time.process_time() - t
    setattr(owner, name, g)


for n in ("label_copy", "spelling_variants", "percent_scales", "copied_rows", "twin_columns"):
    timed(E, n)
for n in ("_leave_out", "_counted", "_select", "_vote", "_rule_vote", "_grid_screened", "_race_grid", "_whole_screens",
          "_race_whole", "_grid_races"):
    timed(E.PLXClassifier, n)
timed(E.Discretizer, "fit", "Discretizer.fit")
timed(E.Discretizer, "transform", "Discretizer.transform")


def thousand(fam, seed):
    import numpy as np
    import pandas as pd
    rng = np.random.default_rng(seed)
    if fam == "onehot":
        n = 200
        B = (rng.random((n, 1500)) < 0.05).astype(int)
        B[:, :3] = rng.random((n, 3)) < 0.3
        z = 2.0 * B[:, 0] + 1.5 * B[:, 1] - 1.5 * B[:, 2] - 0.6 + rng.normal(0, 0.7, n)
        return pd.DataFrame(B, columns=[f"w{i:04d}" for i in range(1500)]), np.where(z > 0, "yes", "no"), "yes"
    n = 5000
    Z = rng.normal(size=(n, 400)).round(3)
    z = Z[:, 0] - 0.8 * Z[:, 1] + 0.6 * Z[:, 2] * (Z[:, 3] > 0) + rng.normal(0, 0.8, n)
    return pd.DataFrame(Z, columns=[f"m{i:03d}" for i in range(400)]), np.where(z > 0.3, "yes", "no"), "yes"


seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 1
for fam in sys.argv[1].split(","):
    for run in range(seeds):
        if fam in FAMILIES:
            gen = FAMILIES[fam]
            X, y, pos = gen(seed=1000 + run, n=gen.__defaults__[1])
            y = np.asarray(y)
        else:
            X, y, pos = thousand(fam, run)
        t = time.process_time()
        make("Forest", run, X.shape[1]).fit(X, (y == pos).astype(int))
        tf = time.process_time() - t
        spent.clear()
        t = time.process_time()
        m = E.PLXClassifier(positive=pos, random_state=run).fit(X, y)
        tp = time.process_time() - t
        parts = " ".join(f"{k}={v:.3f}" for k, v in sorted(spent.items(), key=lambda kv: -kv[1]))
        print(f"{fam} {run}: plx {tp:.2f}s forest {tf:.2f}s ratio {tp / tf:.2f}x "
              f"{m.chosen_} max_len {m.max_len_} | {parts}", flush=True)
