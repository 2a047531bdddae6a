"""What a fit of a long table does to stay within time and memory: the row budget of the
default's search (above it the candidates are scored on a stratified sample of rows and the
chosen model is built on every row) and the memory a fit needs, checked before the work."""

from __future__ import annotations

import math

import numpy as np

from .direct import DEFAULT_MEMORY_BUDGET, parse_size
from .direct import _size as size_text
from .errors import DataError

SEARCH_ROWS = 20_000
"""Above this many training rows, `PLXClassifier(variant="auto")` scores its candidates
(`plx_core.selection`: the folds, the leave-one-out, the votes' 10-fold fits) on a stratified
sample of this many rows (`search_sample`) and builds the chosen model — its settings, depth,
α and threshold — on every row; the fitted model says so (`search_rows_`, `chosen_reason_`).
The comparison's sets have ≤ 1,000 rows, so no answer there changes. Measured in
benchmarks/RESULTS.md ("Long tables"): at 200,000 rows the search on every row took 7 minutes
and the sample's choice tests as well on held-out rows."""

FIT_BYTES_PER_CELL = 300
"""The peak memory of a default fit per training cell (row × column), the table itself
included: measured 205 bytes on the long table of `benchmarks/bench_fit_large.py` at
1,000,000 × 12 (peak RSS 2.4 GB; benchmarks/RESULTS.md, "Long tables"), rounded up — what
`check_fit_size` holds a table against (4 GB: about 14 million cells)."""


CSV_BYTES_PER_CELL = 8
"""Bytes a cell of a CSV file takes at most in the tables `plx fit` is for (5.2 measured on the
long table: numbers of 4–6 digits, short categories): `read_bytes` lets a file that large per
cell the fit can take be read."""


def read_bytes(budget: int | str | None = None) -> int:
    """The largest file `plx fit` reads within the memory budget: the cells the fit can take
    (`FIT_BYTES_PER_CELL`) at `CSV_BYTES_PER_CELL` each, never below the reader's own cap
    (`data.MAX_BYTES`, what the dashboard takes)."""
    from .data import MAX_BYTES

    limit = DEFAULT_MEMORY_BUDGET if budget is None else parse_size(budget)
    return max(MAX_BYTES, limit // FIT_BYTES_PER_CELL * CSV_BYTES_PER_CELL)


def search_sample(y: np.ndarray, seed: int | None, n: int | None = None) -> np.ndarray | None:
    """The rows the search scores its candidates on (sorted positions): None within the
    budget n (default `SEARCH_ROWS`), else a stratified sample of n — each class its share,
    the same rows for the same labels and seed (`vote.sample_rows`)."""
    from .vote import sample_rows

    n = SEARCH_ROWS if n is None else n
    if len(y) <= n:
        return None
    return sample_rows(np.asarray(y), n, 0 if seed is None else int(seed))


def min_split(n_rows: int, n_searched: int | None) -> int:
    """The fewest rows a tree node must hold to be split when the search scored its trees on
    `n_searched` of `n_rows` rows: a split of 2 rows there stands for n_rows / n_searched times
    as many here, so the tree built on every row has the sample's resolution (a tree grown
    until pure on 200,000 rows had 121,008 clauses) — 2 (every split) without a sample."""
    if not n_searched or n_searched >= n_rows:
        return 2
    return max(2, math.ceil(2 * n_rows / n_searched))


def long_tree_said(kind: str, n_rows: int) -> str | None:
    """What a named tree kind (`kb="tree"`, "tree-all", "forest") costs on a table longer than
    `SEARCH_ROWS`, said before the work (the estimator's warning, `plx fit`, the Knowledge base
    page), or None within it: it grows its trees until pure on every row, unpruned, so its
    clauses grow with the rows. Not limited as the default's trees are (`min_split`): on a
    long table that cost the named tree F1 0.635 → 0.543 (benchmarks/RESULTS.md)."""
    if n_rows <= SEARCH_ROWS:
        return None
    return (f"kb={kind!r} on {n_rows:,} rows grows its tree{'s' if kind == 'forest' else ''} "
            "until pure on every row, unpruned (no sample, no depth chosen): its clauses grow "
            "with the rows — 31,217 and 5–7 s on 160,000 rows × 14 columns, measured; pass "
            "max_depth to cap it, or let the default (kb='direct') choose a tree's depth on a "
            f"sample of {SEARCH_ROWS:,} rows")


def fit_bytes(n_rows: int, n_cols: int) -> int:
    """The peak memory a default fit of this table is expected to need (`FIT_BYTES_PER_CELL`)."""
    return int(n_rows) * max(int(n_cols), 1) * FIT_BYTES_PER_CELL


def check_fit_size(n_rows: int, n_cols: int, budget: int | str | None = None) -> None:
    """Refuse, before any work, a table whose fit needs more memory than `budget` (bytes or a
    size such as "4GB"; default `direct.DEFAULT_MEMORY_BUDGET`): one line with the figure and
    what to do."""
    limit = DEFAULT_MEMORY_BUDGET if budget is None else parse_size(budget)
    need = fit_bytes(n_rows, n_cols)
    if need > limit:
        most = max(limit // (max(int(n_cols), 1) * FIT_BYTES_PER_CELL), 1)
        raise DataError(
            f"{n_rows:,} rows × {n_cols} columns need about {size_text(need)} to fit, over the "
            f"{size_text(limit)} memory budget: fit on at most {most:,} row{'s' * (most > 1)} "
            "(a sample), raise "
            "the budget (memory_budget= / --budget) if the machine has the memory, or fit on a "
            "Dask cluster (plx_core.distributed.fit_dask)")


__all__ = ["CSV_BYTES_PER_CELL", "FIT_BYTES_PER_CELL", "read_bytes", "SEARCH_ROWS", "check_fit_size", "fit_bytes", "min_split",
           "long_tree_said", "search_sample"]
