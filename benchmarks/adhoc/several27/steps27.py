"""CPU seconds per step of the default several-class fit (one BLAS thread), from timers
wrapped around `PLXClassifier`'s steps (each step's outermost calls, so nested steps are
inside their caller's time too), on each table's first split, with a 100-tree forest's CPU
on the same rows (several27).

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=CODE python \
        benchmarks/adhoc/several27/steps27.py TABLES
"""
from __future__ import annotations

import collections
import functools
import os
import sys
import time
import warnings

from plx_core.estimator import PLXClassifier  # (CODE's, imported before the paths below)
from plx_core.experiments.compare import make

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from bench_fit_families import forest_frame  # noqa: E402
from tables27 import TABLES, splits  # noqa: E402

STEPS = ["fit", "_select_classes", "_select", "_class_reading", "_race_grid_classes",
         "_fine_vote", "_vote", "_pair_vote", "_cut_optimism", "_rule_vote", "_tree_kbs",
         "_direct_loo", "_adopt", "_fold_frames", "_grid_fold_cuts"]
spent: dict = collections.defaultdict(float)
depth: dict = collections.defaultdict(int)


def timed(name, f):
    @functools.wraps(f)
    def g(*a, **k):
        depth[name] += 1
        t0 = time.process_time()
        try:
            return f(*a, **k)
        finally:
            depth[name] -= 1
            if not depth[name]:
                spent[name] += time.process_time() - t0
    return g


for s in STEPS:
    setattr(PLXClassifier, s, timed(s, getattr(PLXClassifier, s)))

if __name__ == "__main__":
    for key in sys.argv[1].split(","):
        X, y, _ = TABLES[key]()
        y = y.astype(str)
        tr, _te = splits(y, 1)[0]
        F = forest_frame(X)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = time.process_time()
            make("Forest", 0, F.shape[1]).fit(F.iloc[tr], y.iloc[tr])
            forest = time.process_time() - t0
            spent.clear()
            PLXClassifier(random_state=0).fit(X.iloc[tr], y.iloc[tr])
        print(f"[{os.path.dirname(sys.modules[PLXClassifier.__module__].__file__)}] {key}: forest {forest:.2f} s, fit {spent['fit']:.2f} s ({spent['fit'] / forest:.1f}x); "
              + ", ".join(f"{s.strip('_')} {spent[s]:.2f}" for s in STEPS[1:] if spent[s]), flush=True)
