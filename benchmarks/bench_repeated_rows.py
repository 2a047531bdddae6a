"""`data.repeated_rows` (records exported twice, said by `plx fit` and the Data page) on a wide,
long table with an ID column, now against an older commit, in one process: run on demand, not
by pytest.

    git archive COMMIT plx_core | tar -x -C /tmp/plx_before
    OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/bench_repeated_rows.py /tmp/plx_before [ROWS] [REPEAT]

The table is `bench_read_columns`'s analyst table (60 numeric columns, money, True/False, the
outcome) with a customer number, read as `plx fit` reads it (`cli.read_rows`), twice: every
customer once (the common case), and with 1 % of the rows exported twice. Both versions run
interleaved, medians of REPEAT (wall and CPU seconds of this process), and the peak memory of
one call (tracemalloc).
"""

from __future__ import annotations

import os
import sys
import tempfile
import tracemalloc
from pathlib import Path

import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from bench_fit_change import before_estimator  # noqa: E402
from bench_read_columns import analyst_table  # noqa: E402
from timing import interleaved_times  # noqa: E402

from plx_core import cli  # noqa: E402
from plx_core.data import repeated_rows  # noqa: E402


def peak_mb(fn) -> float:
    """Peak MB traced while `fn` runs."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def main(root: str, rows: int, repeat: int) -> None:
    before_estimator(root)  # imports the older plx_core as plx_before
    from plx_before.data import repeated_rows as before  # type: ignore[import-not-found]

    with tempfile.TemporaryDirectory() as tmp:
        path = analyst_table(Path(tmp) / "analyst.csv", rows)
        frame = cli.read_rows(path, say=lambda s: None, max_bytes=1 << 30).frame
    frame.insert(0, "customer", [f"C{i:07d}" for i in range(len(frame))])
    twice = pd.concat([frame, frame.iloc[: len(frame) // 100]])
    twice = twice.set_axis(pd.RangeIndex(len(twice)))
    print("| table | before (wall / CPU) | now (wall / CPU) | CPU now / before | peak MB "
          "before → now |\n|---|---|---|---|---|")
    for name, f in (("no row repeats", frame), ("1 % exported twice", twice)):
        assert before(f, ["customer"]) == repeated_rows(f, ["customer"])  # the same words
        t = interleaved_times({"before": lambda f=f: before(f, ["customer"]),
                               "now": lambda f=f: repeated_rows(f, ["customer"])}, repeat)
        b, n = t["before"], t["now"]
        pb, pn = peak_mb(lambda f=f: before(f, ["customer"])), peak_mb(
            lambda f=f: repeated_rows(f, ["customer"]))
        print(f"| {len(f):,} rows × {f.shape[1]} columns, {name} | {b.wall:.2f} / {b.cpu:.2f} s "
              f"| {n.wall:.2f} / {n.cpu:.2f} s | {n.cpu / b.cpu:.3f} | {pb:,.0f} → {pn:,.0f} |",
              flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 200_000,
         int(sys.argv[3]) if len(sys.argv) > 3 else 3)
