"""cProfile (CPU seconds) of the default `PLXClassifier` fit on a several-class table's first
stratified 70/30 split: where a several-class fit's time goes (multi23).

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=. python \
        benchmarks/adhoc/multi23/profile_classes.py TABLE [SORT] [LINES]
"""
from __future__ import annotations

import cProfile
import os
import pstats
import sys
import time
import warnings

from sklearn.model_selection import StratifiedShuffleSplit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import tables  # noqa: E402

from plx_core.estimator import PLXClassifier  # noqa: E402

if __name__ == "__main__":
    key = sys.argv[1]
    X, y, _ = tables.TABLES[key]()
    y = y.astype(str)
    tr, _te = next(StratifiedShuffleSplit(1, test_size=0.3, random_state=0).split(X, y))
    Xt, yt = X.iloc[tr], y.iloc[tr]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prof = cProfile.Profile(time.process_time)
        prof.enable()
        PLXClassifier(random_state=0).fit(Xt, yt)
        prof.disable()
    pstats.Stats(prof).sort_stats(sys.argv[2] if len(sys.argv) > 2 else "cumulative").print_stats(
        int(sys.argv[3]) if len(sys.argv) > 3 else 60)
