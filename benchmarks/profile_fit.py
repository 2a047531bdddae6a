"""cProfile of the default `PLXClassifier()` fit on the comparison's first split of a set: where
a fit's time goes, run on demand, not by pytest.

    OMP_NUM_THREADS=1 nice python benchmarks/profile_fit.py SET [FITS] [SORT] [LINES]

Fits `FITS` times (default 3) after one unprofiled warm-up fit and prints the top `LINES`
(default 40) functions by `SORT` in CPU seconds of this process (default "tottime"; "cumulative" for the call tree's parts).
"""

from __future__ import annotations

import cProfile
import os
import pstats
import sys
import time
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from plx_core.experiments.compare import make, split_set  # noqa: E402


def main(key: str, fits: int, sort: str, lines: int) -> None:
    X, yb, ((tr, _),) = split_set(key, 1, 1000)
    Xt, yt, nf = X.iloc[tr], yb[tr], X.shape[1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        make("plx", 0, nf).fit(Xt, yt)
        prof = cProfile.Profile(time.process_time)  # CPU seconds: the load moves them less
        prof.enable()
        for _ in range(fits):
            make("plx", 0, nf).fit(Xt, yt)
        prof.disable()
    pstats.Stats(prof).sort_stats(sort).print_stats(lines)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    a = sys.argv[1:] + [None] * 3
    main(a[0], int(a[1] or 3), a[2] or "tottime", int(a[3] or 40))
