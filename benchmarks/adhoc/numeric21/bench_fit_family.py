"""numeric21: grid20's bench_fit_family.py with families21 on the path. Fit time of the
default `PLXClassifier` now against an older `plx_core` on a family table of
unseen19 / ratio20 (its first 70% of rows, split as `grid_choice.py`'s run 0), interleaved in one
process with a 100-tree random forest, as `benchmarks/bench_fit_change.py` does for the compare
sets (medians of 5; wall and CPU seconds).

OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/adhoc/numeric21/bench_fit_family.py /tmp/plx_before FAMS
"""
from __future__ import annotations

import os
import sys
import time
import warnings
from pathlib import Path

from sklearn.model_selection import StratifiedShuffleSplit

root = Path(__file__).parents[3]
sys.path.insert(0, str(root))
sys.path.insert(0, str(root / "benchmarks"))
sys.path.insert(0, str(root / "benchmarks" / "adhoc" / "numeric21"))
import families21  # noqa: E402,F401
from bench_fit_change import before_estimator  # noqa: E402
from families import FAMILIES  # noqa: E402
from timing import interleaved_times  # noqa: E402

from plx_core.estimator import PLXClassifier  # noqa: E402
from plx_core.experiments.compare import make  # noqa: E402


def main(old: str, keys: list[str]) -> None:
    before = before_estimator(old)
    print(f"load {os.getloadavg()[0]:.1f}, {time.strftime('%H:%M')}")
    print("| family | forest (wall / CPU s) | plx before | plx now | ratio to forest, CPU "
          "(before → now) |\n|---|---|---|---|---|")
    for key in keys:
        X, y, pos = FAMILIES[key]()
        yb = (y.astype(str).to_numpy() == pos).astype(int)
        tr, _ = next(StratifiedShuffleSplit(1, test_size=0.3, random_state=0).split(X, yb))
        Xt, yt = X.iloc[tr], yb[tr]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t = interleaved_times({
                "forest": lambda Xt=Xt, yt=yt: make("Forest", 0, Xt.shape[1]).fit(Xt, yt),
                "before": lambda Xt=Xt, yt=yt: before(positive=1, random_state=0).fit(Xt, yt),
                "now": lambda Xt=Xt, yt=yt: PLXClassifier(positive=1, random_state=0).fit(
                    Xt, yt)}, 5)
        f, b, n = t["forest"], t["before"], t["now"]
        print(f"| {key} | {f.wall:.2f} / {f.cpu:.2f} | {b.wall:.2f} / {b.cpu:.2f} | "
              f"{n.wall:.2f} / {n.cpu:.2f} | {b.cpu / f.cpu:.2f}x → {n.cpu / f.cpu:.2f}x |",
              flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2].split(","))
