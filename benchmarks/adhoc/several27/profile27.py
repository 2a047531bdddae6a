"""cProfile (CPU seconds) of the default several-class fit on a table's first split: the
functions whose cumulative time is largest (several27).

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=CODE python \
        benchmarks/adhoc/several27/profile27.py TABLE [SORT] [LINES]
"""
from __future__ import annotations

import cProfile
import os
import pstats
import sys
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tables27 import TABLES, splits  # noqa: E402

from plx_core.estimator import PLXClassifier  # noqa: E402

if __name__ == "__main__":
    X, y, _ = TABLES[sys.argv[1]]()
    y = y.astype(str)
    tr, _te = splits(y, 1)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prof = cProfile.Profile(time.process_time)
        prof.enable()
        PLXClassifier(random_state=0).fit(X.iloc[tr], y.iloc[tr])
        prof.disable()
    pstats.Stats(prof).sort_stats(sys.argv[2] if len(sys.argv) > 2 else "cumulative").print_stats(
        int(sys.argv[3]) if len(sys.argv) > 3 else 60)
