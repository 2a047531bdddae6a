"""Fit time of the default `PLXClassifier()` now against an older commit, in one process: run on
demand, not by pytest.

    git archive COMMIT plx_core | tar -x -C /tmp/plx_before
    nice -n 19 python benchmarks/bench_fit_change.py /tmp/plx_before [SETS]

The older `plx_core` is imported under another name (`plx_before`; its modules import each
other relatively), so both versions and a 100-tree random forest (the comparison's "Forest")
fit the same rows interleaved, medians of `REPEAT` — a ratio to the forest measured minutes
apart on a shared machine moves by ±50%. Each is given in wall-clock and in CPU seconds of
this process (`time.process_time`, which the other users' load moves less; run with
`OMP_NUM_THREADS=1` so that both count one thread). Rows: the first split of `python -m
plx_core.experiments compare` (70/30, up to 1,000 rows), as `bench_select.py`.
"""

from __future__ import annotations

import atexit
import importlib
import os
import shutil
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from timing import interleaved_times  # noqa: E402

from plx_core.experiments.compare import SETS, make, plx_max_len, split_set  # noqa: E402

DEFAULT_SETS = "dnf,rare-additive,syn-12-4,syn-12-8,syn-10-4,car"
REPEAT = 5


def before_estimator(root: str):
    """`PLXClassifier` of the `plx_core` package under `root`, imported as `plx_before`."""
    tmp = tempfile.mkdtemp(prefix="plx_before_")
    atexit.register(shutil.rmtree, tmp, True)
    shutil.copytree(os.path.join(root, "plx_core"), os.path.join(tmp, "plx_before"))
    sys.path.insert(0, tmp)
    return importlib.import_module("plx_before.estimator").PLXClassifier


def main(root: str, keys: list[str]) -> None:
    before = before_estimator(root)
    print("| set | forest fit (wall / CPU) | plx before | plx now | ratio to forest, wall "
          "(before → now) | ratio to forest, CPU (before → now) |\n|---|---|---|---|---|---|")
    for key in keys:
        spec = SETS[key]
        X, yb, ((tr, _),) = split_set(key, 1, 1000)
        Xt, yt, nf = X.iloc[tr], yb[tr], X.shape[1]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = interleaved_times({
                "forest": lambda Xt=Xt, yt=yt, nf=nf: make("Forest", 0, nf).fit(Xt, yt),
                "before": lambda Xt=Xt, yt=yt, nf=nf: before(
                    positive=1, random_state=0, max_len=plx_max_len(nf)).fit(Xt, yt),
                "now": lambda Xt=Xt, yt=yt, nf=nf: make("plx", 0, nf).fit(Xt, yt)}, REPEAT)
        f, b, n = t["forest"], t["before"], t["now"]
        print(f"| {spec.label} | {f.wall:.2f} / {f.cpu:.2f} s | {b.wall:.2f} / {b.cpu:.2f} s | "
              f"{n.wall:.2f} / {n.cpu:.2f} s | {b.wall / f.wall:.1f}× → {n.wall / f.wall:.1f}× | "
              f"{b.cpu / f.cpu:.2f}× → {n.cpu / f.cpu:.2f}× |", flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else DEFAULT_SETS).split(","))
