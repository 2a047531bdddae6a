"""Fit time of the default's model search with and without its newest candidates: run on
demand (`python3 benchmarks/bench_select.py [SETS]`), not by pytest.

On the first split of `python -m plx_core.experiments compare` (same rows, 70/30, up to 1,000
rows), interleaved medians of 3 fits each: a 100-tree random forest (the comparison's
"Forest"), `PLXClassifier()` without the newest candidates (the depth-weighted binary tree
pruned at each α of `selection.BIN_ALPHAS`), and the default. (The depth-limited trees, the
Direct KB's leave-one-out means and the binary tree itself were measured the same way, against
the search without them: RESULTS.md.)
"""

from __future__ import annotations

import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from timing import interleaved_times  # noqa: E402

from plx_core import selection  # noqa: E402
from plx_core.experiments.compare import SETS, make, split_set  # noqa: E402

DEFAULT_SETS = "dnf,rare-5,rare-10,rare-additive,voting,car,monks-3,breast-cancer-30"


def main(keys: list[str]) -> None:
    alphas = selection.BIN_ALPHAS
    print("| set | forest fit | plx before | plx default | ratio to forest (before → after) "
          "| CPU s: forest, before, default |\n|---|---|---|---|---|---|")
    for key in keys:
        spec = SETS[key]
        X, yb, ((tr, _),) = split_set(key, 1, 1000)
        Xt, yt = X.iloc[tr], yb[tr]

        nf = X.shape[1]

        def plx(before: bool, Xt=Xt, yt=yt, nf=nf) -> None:
            if before:
                selection.BIN_ALPHAS = ()
            try:
                make("plx", 0, nf).fit(Xt, yt)
            finally:
                selection.BIN_ALPHAS = alphas

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            times = interleaved_times(
                {"forest": lambda Xt=Xt, yt=yt, nf=nf: make("Forest", 0, nf).fit(Xt, yt),
                 "before": lambda: plx(True), "after": lambda: plx(False)}, 3)
        t = {k: v.wall for k, v in times.items()}
        f = t["forest"]
        print(f"| {spec.label} | {f:.2f} s | {t['before']:.2f} s | {t['after']:.2f} s | "
              f"{t['before'] / f:.1f}× → {t['after'] / f:.1f}× | "
              f"{times['forest'].cpu:.2f}, {times['before'].cpu:.2f}, {times['after'].cpu:.2f} |",
              flush=True)


if __name__ == "__main__":
    main((sys.argv[1] if len(sys.argv) > 1 else DEFAULT_SETS).split(","))
