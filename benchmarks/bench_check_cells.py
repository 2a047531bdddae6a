"""Batch predict on rows with a "mixed" column (numbers beside text: pandas' type scan cannot
pass it), with `encoding.check_cells` as it is and as the per-cell loop it replaced (mem26):
run on demand, not by pytest.

    OMP_NUM_THREADS=1 python benchmarks/bench_check_cells.py [ROWS] [REPEAT]

One process, one fitted model, the same frame; each round times the check alone and a whole
`predict` with each check (CPU seconds, `time.process_time`), interleaved; medians printed.
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
import pandas as pd

from plx_core import PLXClassifier, encoding, estimator
from plx_core.errors import DataError


def per_cell(frame: pd.DataFrame) -> None:
    """The check before mem26: a Python pass over every cell of a "mixed" column."""
    for col in frame.columns:
        vals = frame[col].to_numpy()
        if vals.dtype != object or pd.api.types.infer_dtype(vals, skipna=True) in \
                encoding._ONE_VALUE:
            continue
        for i, v in enumerate(vals):
            if isinstance(v, encoding._CONTAINERS):
                raise DataError(f"column {str(col)!r}, row {i} holds a {type(v).__name__}")


def rows(n: int, seed: int = 26) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"age": rng.integers(18, 90, n), "sex": rng.choice(["f", "m"], n),
                      # a code column written as numbers and text ('unknown', 'see notes')
                      "code": pd.Series(rng.choice([1, 2, 3, "unknown", "see notes"], n)
                                        .astype(object)).map(lambda v: int(v) if v.isdigit()
                                                             else v)})
    y = np.where((X["age"] > 60) ^ (rng.random(n) < 0.1), "sick", "well")
    return X, y


def cpu(f, *a) -> float:
    t = time.process_time()
    f(*a)
    return time.process_time() - t


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    X, y = rows(n)
    assert pd.api.types.infer_dtype(X["code"], skipna=True) == "mixed-integer"
    clf = PLXClassifier(positive="sick").fit(X.iloc[:2000], y[:2000])
    now = estimator.check_cells
    got = {"per cell": [], "now": [], "predict, per cell": [], "predict, now": []}
    answers = []
    for _ in range(repeat):
        got["per cell"].append(cpu(per_cell, X))
        got["now"].append(cpu(now, X))
        for name, check in (("per cell", per_cell), ("now", now)):
            estimator.check_cells = check
            t = time.process_time()
            answers.append(clf.predict(X))
            got[f"predict, {name}"].append(time.process_time() - t)
    estimator.check_cells = now
    assert all(np.array_equal(answers[0], a) for a in answers)
    med = {k: statistics.median(v) for k, v in got.items()}
    print(f"{n:,} rows, medians of {repeat} (CPU s): " + ", ".join(
        f"{k} {v:.3f}" for k, v in med.items())
        + f"; check now/per cell {med['now'] / med['per cell']:.3f}, predict now/per cell "
        f"{med['predict, now'] / med['predict, per cell']:.3f}")


if __name__ == "__main__":
    main()
