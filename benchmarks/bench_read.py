"""How long `infer_schema` takes to decide how a CSV column writes its numbers (or dates):
`plx_core.data._read_numbers` on 10^6-row text columns, against a plain `pd.to_numeric`
of the same column in the same process (the least any reading must do).

    nice python3 benchmarks/bench_read.py [--write]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.timing import fmt, interleaved, publish  # noqa: E402
from plx_core.data import _read_numbers  # noqa: E402


def columns(n: int = 1_000_000) -> dict[str, pd.Series]:
    """Text columns as a CSV holds them: measures with 2 and 3 decimals, categories, decimal
    commas, dates (day/month/year)."""
    rng = np.random.default_rng(0)
    x = rng.uniform(10, 99, n)
    day = pd.Timestamp("2020-01-01") + pd.to_timedelta(rng.integers(0, 2000, n), unit="D")
    return {
        "measure, 2 decimals (52.13)": pd.Series([f"{v:.2f}" for v in x], dtype=object),
        "measure, 3 decimals (52.125)": pd.Series([f"{v:.3f}" for v in x], dtype=object),
        "categories (north/south/east)": pd.Series(rng.choice(["north", "south", "east"], n),
                                                   dtype=object),
        "decimal comma (52,13)": pd.Series([f"{v:.2f}".replace(".", ",") for v in x],
                                           dtype=object),
        "dates (04/03/2021)": pd.Series(day.strftime("%d/%m/%Y"), dtype=object),
    }


def main(write: bool = False) -> None:
    started = time.perf_counter()
    rows = []
    for name, s in columns().items():
        t = interleaved({"ours": lambda s=s: _read_numbers(s),
                         "to_numeric": lambda s=s: pd.to_numeric(s, errors="coerce")}, repeat=3)
        rows.append(f"| {name} | {_read_numbers(s)[2]} | {fmt(t['ours'])} | "
                    f"{fmt(t['to_numeric'])} | {t['ours'] / t['to_numeric']:.1f}× |")
    section = (
        "Command: `nice python3 benchmarks/bench_read.py --write` (shared 2-core machine, "
        "median of 3 interleaved repeats, 10^6-row text columns). `_read_numbers` decides a "
        "column's reading for `infer_schema` / `plx fit` / the Data page (plain, one "
        "`NUMBER_FORMATS` entry on the whole column, a date format, stray texts) and reads it; "
        "the baseline is one `pd.to_numeric` of the column.\n\n"
        "| column | reading | `_read_numbers` | `pd.to_numeric` | ratio |\n|---|---|---|---|---|\n"
        + "\n".join(rows)
        + "\n\nReading: a plainly written measure or a text column costs little over the parse "
        "itself; formats and dates cost a few parses (regexes over the whole column, then the "
        "parse in that format); a format the head of a column (1,000 values) does not fit is "
        "never tried on the rest."
    )
    publish("Reading a CSV column's numbers and dates (_read_numbers)", section, write, started)


if __name__ == "__main__":
    main("--write" in sys.argv)
