"""What `plx fit` does to a wide, long CSV before the estimator's fit starts (reading the file,
the columns' types, the checks on them, the rows as features), now against an older commit,
in one process: run on demand, not by pytest.

    git archive COMMIT plx_core | tar -x -C /tmp/plx_before
    OMP_NUM_THREADS=1 python benchmarks/bench_read_columns.py /tmp/plx_before [ROWS] [REPEAT]

The table is an analyst's (seeded, written to a temporary folder): 60 numeric columns — codes
1..7, measurements, counts, amounts —, a money column written `1,234.50`, True/False and a 3 %
outcome. Both versions run `cli.fit_model` until its first estimator step ("binning ..."),
interleaved, medians of REPEAT (wall and CPU seconds of this process).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from bench_fit_change import before_estimator  # noqa: E402
from timing import interleaved_times  # noqa: E402

from plx_core import cli  # noqa: E402


def analyst_table(path: Path, n: int, seed: int = 13) -> Path:
    """The analyst's table of `n` rows (see the module's docstring)."""
    rng = np.random.default_rng(seed)
    z = rng.normal(size=n)
    cols: dict[str, np.ndarray] = {}
    for j in range(60):
        kind = j % 6
        if kind == 0:
            cols[f"code_{j}"] = np.clip(np.round(4 + z * (j % 12 == 0) + rng.normal(size=n)), 1, 7).astype(int)
        elif kind == 1:
            cols[f"x_{j}"] = (rng.normal(size=n) + 0.5 * z * (j < 20)).round(4)
        elif kind == 2:
            cols[f"cnt_{j}"] = rng.poisson(3, size=n)
        else:
            cols[f"m_{j}"] = rng.gamma(2, 1, size=n).round(3)
    frame = pd.DataFrame(cols)
    frame["revenue"] = [f"{v:,.2f}" for v in np.exp(7 + 0.5 * rng.standard_t(3, size=n) + 0.3 * z)]
    frame["is_member"] = np.where(rng.random(n) < 0.4 + 0.1 * (z > 1), "True", "False")
    score = z + rng.normal(scale=0.6, size=n)
    frame["converted"] = (score > np.quantile(score, 0.97)).astype(int)
    frame.to_csv(path, index=False)
    return path


class _Fitting(Exception):
    """Raised at the estimator's first step: everything before it is what is timed."""


def _until_fit(fit_model):
    def run(path: Path) -> None:
        def told(fraction: float, text: str) -> None:
            if text.startswith("binning"):
                raise _Fitting

        try:
            fit_model(path, "converted", say=lambda s: None, progress=told)
        except _Fitting:
            return
        raise RuntimeError("the fit ended without binning")
    return run


def main(root: str, rows: int, repeat: int) -> None:
    before_estimator(root)  # imports the older plx_core as plx_before
    from plx_before import cli as before_cli  # type: ignore[import-not-found]

    with tempfile.TemporaryDirectory() as tmp:
        path = analyst_table(Path(tmp) / "analyst.csv", rows)
        t = interleaved_times({"before": lambda: _until_fit(before_cli.fit_model)(path),
                               "now": lambda: _until_fit(cli.fit_model)(path)}, repeat)
        b, n = t["before"], t["now"]
        print(f"| {rows:,} rows × 62 columns ({path.stat().st_size / 1e6:.0f} MB) | "
              f"{b.wall:.1f} / {b.cpu:.1f} s | {n.wall:.1f} / {n.cpu:.1f} s | "
              f"{n.cpu / b.cpu:.2f} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 200_000,
         int(sys.argv[3]) if len(sys.argv) > 3 else 3)
