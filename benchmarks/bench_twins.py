"""Values written otherwise ("2" where the KB learned "2.0"): run on demand
(`python3 benchmarks/bench_twins.py [--write]`), not by pytest.

A one-feature Direct KB whose domain holds 5,000 numbers written as floats ("1.0" … "5000.0")
answers 1,000 rows of 500 distinct values written otherwise ("1" … "500": each one's twin) and
500 unseen texts. Ours: the domain's `encoding.Twins` built once (`KB.twins`), one dict lookup
per value. Baseline, interleaved in the same process: the previous lookup, a pass over the whole
domain per value (reproduced below, patched in for `KB.twins`). Both through `query_many` and
through one `query` per distinct value.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import fmt, interleaved, publish  # noqa: E402

from plx_core import KB, direct_kb, query  # noqa: E402
from plx_core.encoding import number_key  # noqa: E402
from plx_core.query import query_many  # noqa: E402

TITLE = "## Values written otherwise: one lookup per value (encoding.Twins)"


class ScanTwins:
    """The previous lookup: a pass over the whole domain per value."""

    def __init__(self, domain):
        self.domain = domain

    def find(self, s):
        key = number_key(s)
        if key is not None:
            hits = [i for i, v in enumerate(self.domain) if number_key(v) == key]
        else:
            fold = s.strip().casefold()
            hits = [i for i, v in enumerate(self.domain) if v.strip().casefold() == fold]
        return hits[0] if len(hits) == 1 else None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true", help="write the section of RESULTS.md")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()

    n_dom = 5000
    X = pd.DataFrame({"f": [f"{i}.0" for i in range(1, n_dom + 1)]})
    y = np.arange(n_dom) % 2
    kb = direct_kb(X, y, positive=1)
    values = [str(i) for i in range(1, 501)] + [f"t{i}" for i in range(500)]
    rows = pd.DataFrame({"f": values})
    ours_twins = KB.twins

    def scan_twins(self, name):
        return ScanTwins(self.domains[name])

    def with_twins(how, fn):
        def run():
            KB.twins = how
            try:
                return fn()
            finally:
                KB.twins = ours_twins
        return run

    def batch():
        return query_many(kb, rows)

    def singles():
        return [query(kb, {"f": v}).mean for v in values]

    got = with_twins(ours_twins, batch)()
    ref = with_twins(scan_twins, batch)()
    assert got.mean.tolist() == ref.mean.tolist() and got.read_as == ref.read_as
    assert with_twins(ours_twins, singles)() == with_twins(scan_twins, singles)()
    t = interleaved({"batch ours": with_twins(ours_twins, batch),
                     "batch scan": with_twins(scan_twins, batch),
                     "singles ours": with_twins(ours_twins, singles),
                     "singles scan": with_twins(scan_twins, singles)}, a.repeat)
    lines = [
        TITLE, "",
        f"Command: `nice python3 benchmarks/bench_twins.py --write` ({dt.date.today()}, shared "
        f"2-core machine, median of {a.repeat} interleaved repeats). A {n_dom:,}-value domain "
        f"(\"1.0\" … \"{n_dom}.0\"); 1,000 rows: 500 values written otherwise (\"1\" … \"500\") and "
        f"500 unseen texts. Same answers and read-as notes both ways (asserted).", "",
        "| | ours (Twins built once) | a pass over the domain per value | ratio |",
        "|---|---|---|---|",
        f"| `query_many`, 1,000 rows | {fmt(t['batch ours'])} | {fmt(t['batch scan'])} | "
        f"{t['batch scan'] / t['batch ours']:.0f}× |",
        f"| 1,000 × `query` | {fmt(t['singles ours'])} | {fmt(t['singles scan'])} | "
        f"{t['singles scan'] / t['singles ours']:.0f}× |",
    ]
    publish(TITLE, "\n".join(lines) + "\n", a.write)


if __name__ == "__main__":
    main()
