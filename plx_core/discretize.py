"""Cut numeric columns into bins, fitted on training rows: `Discretizer` (what `PLXClassifier`
runs inside `fit`) and the cut-point finders it offers.

* "mdlp" — supervised: Fayyad & Irani's recursive entropy split with the minimum-description-
  length stopping rule (a cut is kept only if its information gain pays for describing it);
  a column where no cut pays on its own gets one cut where a shallow tree on all the numeric
  columns first splits it (`interaction_cuts`: its cut pays only beside another column's, as
  in an XOR-like label no single column predicts), else at its median, so it can still take
  part in interactions; a column MDLP cuts takes one extra cut that MDLP pays for within the
  rows of one level of a categorical column (`interaction_hints`: a limit that holds only
  for smokers, off a drug, for one sex), where it is no near copy of a cut it has;
* "tree" — supervised: the thresholds of a shallow CART tree on the column alone
  (`max_bins` leaves, at least 5% of the rows per leaf);
* "quantile" / "uniform" — unsupervised equal-frequency / equal-width cuts
  (`plx_core.data.fit_bins`).

`fit_binnings` refits the bins of a `plx_core.data.Schema` on chosen rows (the dashboard's
training rows), so a table read by a schema is cut where the estimator would cut it.

A column is numeric when its values are numbers (a numeric dtype, or numbers in an object
column — never text) and it either holds non-whole numbers or has more than `max_categories`
distinct values (or `fit` is given it in `whole`: `PLXClassifier`'s race of a few whole
numbers' two readings); other columns stay categorical. Bins are left-closed with open end bins
(`plx_core.data.Binning`), labelled `<4.5`, `[4.5, 7)`, `≥7`; missing values stay missing.
"""

from __future__ import annotations

import decimal
import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin

from .data import (
    DATE_ISO,
    DATE_KINDS,
    Binning,
    bin_labels,
    column_numbers,
    fit_bins,
    held_clock,
    held_cuts,
    held_format,
    held_minutes,
)
from .errors import DataError

METHODS = ("mdlp", "tree", "quantile", "uniform")
DEFAULT_METHOD = "mdlp"
"""Measured (benchmarks/RESULTS.md, "Discretisation"): see `plx_core.estimator`."""


# --------------------------------------------------------------------------------------------
# Which columns are numeric


_NUMBER_KINDS = ("floating", "integer", "mixed-integer-float", "decimal")
"""`pandas.api.types.infer_dtype` kinds of an object column whose every present cell is a
number (never a boolean): read at once, as the estimator's object frame holds every column."""


def numeric_values(s: pd.Series) -> np.ndarray | None:
    """The column as floats (NaN where missing) when every present value is a number held as a
    number (not text, not a boolean) or a date held as a date (`data.holds_dates`: days since
    1970-01-01, binned as a time line); None otherwise."""
    if pd.api.types.is_bool_dtype(s.dtype):
        return None
    if isinstance(s.dtype, pd.CategoricalDtype):  # ordered levels: each one's place
        codes = s.cat.codes.to_numpy()
        return np.where(codes < 0, np.nan, codes.astype(float)) if s.dtype.ordered else None
    if pd.api.types.is_numeric_dtype(s.dtype):
        return s.to_numpy(dtype=float, na_value=np.nan)
    if pd.api.types.is_datetime64_any_dtype(s.dtype):
        return column_numbers(s, DATE_ISO)
    if (clock := held_clock(s)) is not None:  # lengths of time, times of day: minutes
        return held_minutes(s, clock)
    vals = s.to_numpy(dtype=object)
    kind = pd.api.types.infer_dtype(vals, skipna=True)  # once: `holds_dates` reads the same kinds
    if s.dtype == object and kind in DATE_KINDS:
        return column_numbers(s, DATE_ISO)
    if kind == "string":  # text: no cell to look at
        return None
    present = pd.notna(vals)
    if kind not in _NUMBER_KINDS:  # each cell looked at (numbers.Real beside others)
        ok = np.fromiter(  # Decimal: what databases return for NUMERIC columns (SQLAlchemy)
            (isinstance(v, (numbers.Real, decimal.Decimal)) and not isinstance(v, (bool, np.bool_))
             for v in vals[present]), dtype=bool, count=int(present.sum()),
        )
        if not ok.all():
            return None
    if not present.any():
        return None
    out = np.full(len(vals), np.nan)
    out[present] = vals[present].astype(float)
    return out


def is_numeric(s: pd.Series, max_categories: int = 10) -> bool:
    """True when `s` should be binned (see the module docstring)."""
    x = numeric_values(s)
    if x is None:
        return False
    x = x[~np.isnan(x)]
    if len(x) == 0:
        return False
    if not np.isfinite(x).all():  # ±inf fits an open end bin; as a category it is refused
        return bool(np.isfinite(x).any())
    whole = bool(np.all(np.floor(x) == x))
    return not whole or len(np.unique(x)) > max_categories or (
        held_format(s) != "plain" and len(np.unique(x)) > 1)  # a few dates (or times) are
    # still a time line (and Timestamps no category)


# --------------------------------------------------------------------------------------------
# Cut points


def _entropy(counts: np.ndarray) -> np.ndarray:
    """Entropy (bits) of each row of class counts."""
    tot = counts.sum(axis=-1, keepdims=True)
    p = counts / np.where(tot > 0, tot, 1)
    t = p * np.log2(p, out=np.zeros_like(p), where=p > 0)  # 0 · log 0 = 0
    return -t.sum(axis=-1)


def mdlp_cuts(x: np.ndarray, y: np.ndarray, max_bins: int | None = None) -> list[float]:
    """Fayyad–Irani MDLP cut points of values `x` (no NaN) for labels `y` (any classes).

    Splits recursively at the boundary with the least class entropy, keeping a split only
    when gain > (log2(N − 1) + log2(3^k − 2) − k·E + k1·E1 + k2·E2) / N. Cuts are midpoints
    between neighbouring distinct values, rounded to the fewest significant digits that keep
    them between the two. `max_bins` caps the bins (best-gain splits first)."""
    return mdlp_cuts_many([(x, y)], max_bins)[0]


def mdlp_cuts_many(columns: list[tuple[np.ndarray, Any]], max_bins: int | None = None,
                   n_classes: int | None = None) -> list[list[float]]:
    """`mdlp_cuts` of several (values, labels) columns with batched searches
    (`mdlp_splits_many`, columns of like length within `BATCH_CELLS` a batch): a fit's
    Discretizer cuts a small table's numeric columns at once (30 columns' searches one by one
    were 70% of its fit on Breast cancer 30), a large one's a few at a time. The labels are coded over
    every column's classes, so a class a column's rows lack is a zero count — a term 0 in its
    entropies and no class in k: the same cuts as the column's own search. `n_classes`: the
    labels are already codes 0 … n_classes − 1, one coding of a table's labels for all its
    columns (`fit_cuts_many`), not coded column by column."""
    if not columns:
        return []
    if n_classes is None:
        # each column's classes and codes, not its labels as text: a text copy of every
        # column's labels at once held 84 MB on 20 columns of 50,000 rows
        coded = [np.unique(np.asarray(y).astype(str), return_inverse=True) for _x, y in columns]
        classes = np.unique(np.concatenate([u for u, _c in coded]))
        codes = [np.searchsorted(classes, u)[local] for u, local in coded]
        K = len(classes)
    else:
        codes = [np.asarray(y, dtype=np.int64) for _x, y in columns]
        K = int(n_classes)
    tables = []
    for (x, _y), code in zip(columns, codes):
        if len(x) < 2:
            tables.append((np.zeros(0), np.zeros((0, K))))
            continue
        values, inv = np.unique(x, return_inverse=True)
        counts = np.bincount(inv.ravel() * K + code.ravel(),
                             minlength=len(values) * K).reshape(-1, K).astype(float)
        tables.append((values, counts))
    lengths = np.array([len(v) for v, _c in tables], dtype=np.int64)
    splits: list[list[int]] = [[] for _ in tables]
    for group in _batches(lengths, K):  # columns of like length, within `BATCH_CELLS`
        width = int(lengths[group].max(initial=1))
        padded = np.zeros((len(group), width, K))
        for r, i in enumerate(group):
            padded[r, :lengths[i]] = tables[i][1]
        for i, at in zip(group, mdlp_splits_many(padded, lengths[group], max_bins)):
            splits[i] = at
    return [sorted(_between(values[i - 1], values[i]) for i in at)
            for at, (values, _c) in zip(splits, tables)]


BATCH_CELLS = 200_000
"""Padded cells (columns × distinct values × classes) of one batched MDLP search
(`mdlp_cuts_many`): each of its temporaries is that size and more per open segment, so a
large table is cut in batches of columns, not at once — all 20 columns of 50,000 distinct
values and 4 classes at once peaked at 252 MB against 14 MB one by one, and took twice the
CPU."""


def _batches(lengths: np.ndarray, n_classes: int) -> list[np.ndarray]:
    """The columns' positions in groups of like length whose padded cells stay within
    `BATCH_CELLS` (a column larger than that alone)."""
    order = np.argsort(lengths, kind="stable")
    groups: list[list[int]] = []
    for i in order.tolist():
        if groups and (len(groups[-1]) + 1) * int(lengths[i]) * n_classes <= BATCH_CELLS:
            groups[-1].append(i)  # ascending: this column is the group's longest
        else:
            groups.append([i])
    return [np.array(g, dtype=np.int64) for g in groups]


def mdlp_counts(values: np.ndarray, counts: np.ndarray, max_bins: int | None = None
                ) -> list[float]:
    """`mdlp_cuts` from the sorted distinct values and their class counts (values × classes):
    the cuts of many row subsets of one column (the folds of a cross-validation) without
    sorting it again."""
    return sorted(_between(values[i - 1], values[i]) for i in mdlp_splits(counts, max_bins))


def mdlp_splits(counts: np.ndarray, max_bins: int | None = None) -> list[int]:
    """MDLP's boundaries (`mdlp_cuts`' rule) over ordered groups of rows given their class
    counts (groups × classes), each the index i of the group a cut puts first on its upper
    side: over distinct values (`mdlp_counts`), or over fine bins, which cuts only at their
    edges (`PLXClassifier._cut_optimism`, many at once by `mdlp_splits_many`)."""
    counts = np.asarray(counts, dtype=float)
    return mdlp_splits_many(counts[None], np.array([len(counts)]), max_bins)[0]


def mdlp_splits_many(counts: np.ndarray, lengths: np.ndarray, max_bins: int | None = None
                     ) -> list[list[int]]:
    """`mdlp_splits` of many problems at once (counts: problems × groups × classes, problem p
    using its first `lengths[p]` groups): each level of the recursion is one array step over
    every open segment of every problem, not one Python loop per segment — a fit's cut
    optimism solves folds × numeric columns of them (300 on 30 columns)."""
    counts = np.asarray(counts, dtype=float)
    n_prob, n_grp = counts.shape[:2]
    lengths = np.asarray(lengths, dtype=np.int64)
    cum = np.concatenate([np.zeros_like(counts[:, :1]), np.cumsum(counts, axis=1)], axis=1)
    found: list[list[tuple[float, int]]] = [[] for _ in range(n_prob)]
    prob = np.flatnonzero(lengths >= 2)
    a, b = np.zeros(len(prob), np.int64), lengths[prob]
    at = np.arange(1, n_grp)  # a cut before group i, for i = 1 … groups − 1
    while len(prob):
        base = cum[prob, a]
        total = cum[prob, b] - base  # segment × classes
        left = cum[prob, 1:n_grp] - base[:, None]  # segment × cut × classes
        right = total[:, None] - left
        nl, nr, big_n = left.sum(axis=2), right.sum(axis=2), total.sum(axis=1)
        e_l, e_r = _entropy(left), _entropy(right)
        inside = (at[None] > a[:, None]) & (at[None] < b[:, None])
        ent = np.where(inside, (nl * e_l + nr * e_r) / np.maximum(big_n, 1)[:, None], np.inf)
        j = np.argmin(ent, axis=1)
        s = np.arange(len(prob))
        e_s = _entropy(total)
        gain = e_s - ent[s, j]
        k = (total > 0).sum(axis=1)
        k1, k2 = (left[s, j] > 0).sum(axis=1), (right[s, j] > 0).sum(axis=1)
        delta = np.log2(np.maximum(3.0**k - 2, 1.0)) - (k * e_s - k1 * e_l[s, j] - k2 * e_r[s, j])
        # one class: no split gains (gain 0 ≤ the MDL cost)
        ok = (k >= 2) & (big_n >= 2) & (b - a >= 2)
        ok &= gain > (np.log2(np.maximum(big_n - 1, 1)) + delta) / np.maximum(big_n, 1)
        cut = j + 1  # ent runs over every cut of the problem: i = j + 1
        for p, g, c in zip(prob[ok], (gain * big_n)[ok], cut[ok]):
            found[p].append((float(g), int(c)))
        prob = np.concatenate([prob[ok], prob[ok]])
        a, b = np.concatenate([a[ok], cut[ok]]), np.concatenate([cut[ok], b[ok]])
        wide = b - a >= 2
        prob, a, b = prob[wide], a[wide], b[wide]
    out = []
    for f in found:
        if max_bins is not None and len(f) > max_bins - 1:
            f = sorted(f, reverse=True)[: max(max_bins - 1, 0)]
        out.append(sorted(i for _, i in f))
    return out


def _between(lo: float, hi: float) -> float:
    """A short number c with lo < c ≤ hi, near the midpoint (left-closed bins: hi goes up)."""
    mid = (lo + hi) / 2
    for digits in range(1, 16):
        c = float(np.format_float_positional(mid, precision=digits, unique=False, fractional=False))
        if lo < c <= hi:
            return c
    return float(hi)


def tree_cuts(x: np.ndarray, y: np.ndarray, max_bins: int = 4) -> list[float]:
    """Thresholds of a CART tree (entropy, `max_bins` leaves, ≥ 5% of the rows per leaf) on
    the one column, moved to short numbers between the neighbouring values."""
    from sklearn.tree import DecisionTreeClassifier

    if len(x) < 2 or max_bins < 2:
        return []
    t = DecisionTreeClassifier(criterion="entropy", max_leaf_nodes=max_bins,
                               min_samples_leaf=max(1, int(0.05 * len(x))), random_state=0)
    t.fit(x.reshape(-1, 1), np.asarray(y).astype(str))
    thr = t.tree_.threshold[t.tree_.feature >= 0]
    values = np.unique(x)
    out = []
    for th in np.unique(thr):
        i = int(np.searchsorted(values, th, side="right"))  # values[i-1] ≤ th < values[i]
        if 0 < i < len(values):
            out.append(_between(values[i - 1], values[i]))
    return sorted(set(out))


INTERACTION_DEPTH = 3
"""Depth of `interaction_cuts`' tree: two- and three-way interactions (a 12-feature XOR of
two thresholds: the default's F1 0.80 → 0.89, CART's 0.90, benchmarks/RESULTS.md
"Interactions of numeric columns"); deeper splits are mostly noise columns' on few rows."""
INTERACTION_LEAF = 0.15
"""The least share of the rows in each leaf of `interaction_cuts`' tree, so in each bin of a
cut it places: at 5% and 10% it made bins of a few rows of one class on 50–75 rows, which a
clause answers with p = 1 whatever the class weights (scikit-learn's class-weight check);
at 20% the XOR's second threshold no longer fits in its half (F1 0.89 → 0.87)."""
INTERACTION_ROWS = 100_000
"""`interaction_cuts` grows its tree on at most this many rows (a sample set by a seeded hash
of each row, `interaction_rows`): a shallow tree's thresholds are settled long before, and
its cost stays a fraction of the fit's."""


_ROW_KEY = "plx-interaction0"  # 16 characters: the seed of `row_keys`' hash


def row_keys(matrix: np.ndarray, codes: np.ndarray, others: list[pd.Series] | None = None
             ) -> np.ndarray:
    """A seeded hash of each row's content (its numbers in `matrix`, its label code, its
    categorical values of `others` as text): the same row the same key wherever it stands,
    so `interaction_rows` takes the same rows from the table in any order."""
    from .encoding import is_missing, value_str

    def hashed(a: np.ndarray) -> np.ndarray:
        return pd.util.hash_array(a, hash_key=_ROW_KEY, categorize=False)

    matrix = np.asarray(matrix, dtype=float).reshape(len(codes), -1)
    # one NaN and one zero (−0.0 and NaN payloads are other bits of the same number)
    parts = [hashed(np.where(np.isnan(matrix[:, j]), np.nan, matrix[:, j] + 0.0))
             for j in range(matrix.shape[1])]
    parts.append(hashed(np.asarray(codes, dtype=np.int64)))
    for col in others or ():
        cells, uniques = pd.factorize(col.to_numpy(dtype=object))
        text = np.array(["\0missing" if is_missing(u) else value_str(u) for u in uniques]
                        + ["\0missing"], dtype=object)
        parts.append(hashed(text)[cells])  # code −1 (missing): the last
    key = np.zeros(len(codes), dtype=np.uint64)
    for part in parts:  # a polynomial in the columns' hashes, mixed once more
        key = key * np.uint64(0x100000001B3) + part
    return hashed(key)


def interaction_rows(keys: np.ndarray, max_rows: int | None = None) -> np.ndarray:
    """The positions among the rows of `row_keys` `keys` that `interaction_hints` grows its
    tree on: every row in order, or the `max_rows` (default `INTERACTION_ROWS`) of least key
    in key order — a sample set by the rows' content, not their positions (one home for the
    in-memory and the Dask fit, which must grow the same tree)."""
    limit = INTERACTION_ROWS if max_rows is None else int(max_rows)
    if len(keys) <= limit:
        return np.arange(len(keys))
    return np.argsort(keys, kind="stable")[:limit]


def interaction_cuts(matrix: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per column of `matrix` (rows × numeric columns, NaN where missing): the threshold of the
    split nearest the root on that column in a shallow entropy tree on all of them (depth
    `INTERACTION_DEPTH`, ≥ `INTERACTION_LEAF` of the rows per leaf), NaN where the tree does
    not split on it — where a column's cut pays only with another column's, which MDLP's
    one-column test cannot see."""
    from sklearn.tree import DecisionTreeClassifier

    matrix = np.asarray(matrix, dtype=float)
    y = np.asarray(y)
    out = np.full(matrix.shape[1], np.nan)
    if matrix.shape[1] < 2 or len(y) < 2 or len(np.unique(y)) < 2:
        return out
    if len(y) > INTERACTION_ROWS:
        at = interaction_rows(row_keys(matrix, np.unique(y.astype(str), return_inverse=True)[1]))
        matrix, y = matrix[at], y[at]
    t = DecisionTreeClassifier(criterion="entropy", max_depth=INTERACTION_DEPTH,
                               min_samples_leaf=max(1, int(INTERACTION_LEAF * len(y))),
                               random_state=0)
    tree = t.fit(np.where(np.isfinite(matrix), matrix, np.nan), y).tree_
    depth = np.zeros(tree.node_count, dtype=np.int64)
    for i in range(tree.node_count):  # preorder: a parent comes before its children
        for child in (tree.children_left[i], tree.children_right[i]):
            if child >= 0:
                depth[child] = depth[i] + 1
    for i in np.lexsort((np.arange(tree.node_count), depth)):  # the shallowest split first
        f = tree.feature[i]
        if f >= 0 and np.isnan(out[f]):
            out[f] = tree.threshold[i]
    return out


LEVEL_SHARE = 0.15
"""A categorical level whose rows MDLP searches for a cut of its own (`level_rows`) holds at
least this share of the rows (`INTERACTION_LEAF`'s): at most six levels a column, each with
rows enough for a cut to pay."""
EXTRA_SHARE = 0.05
"""An extra cut (`extra_cut`) leaves at least this share of the column's rows on each side of
it within the MDLP bin it splits (as `tree_cuts`' least leaf): a second threshold, not a near
copy of an MDLP cut."""


def level_rows(columns: list[pd.Series]) -> np.ndarray:
    """A 0/1 column (rows × levels) per level of each categorical column held by at least
    `LEVEL_SHARE` of the rows, levels in sorted text order, a missing cell 0: the subgroups
    (a flag, a sex, a drug) within which `interaction_hints` looks for a numeric cut."""
    from .encoding import is_missing, value_str

    out = []
    for s in columns:  # each distinct value read once (a cell at a time was 60% of the search)
        codes, uniques = pd.factorize(s.to_numpy(dtype=object))
        names = np.array([None if is_missing(u) else value_str(u) for u in uniques] + [None],
                         dtype=object)[codes]  # code −1 (missing): the last, None
        present = names[names != None]  # noqa: E711 (elementwise)
        levels, counts = np.unique(present.astype(str), return_counts=True)
        for level in levels[counts >= LEVEL_SHARE * len(names)]:
            out.append((names == level).astype(float))
    return np.column_stack(out) if out else np.zeros((len(columns[0]) if columns else 0, 0))


def wants_interactions(found: list[list[float]], max_bins: Sequence[int], levels: bool) -> bool:
    """Whether `interaction_hints` can change these MDLP cuts (one list a column): a column
    without a cut takes the tree's; with categorical columns (`levels`), one with room below
    its `max_bins` bins an extra — else nothing is searched (nor, on a cluster, gathered)."""
    return any(not cuts or (levels and len(cuts) < b - 1) for cuts, b in zip(found, max_bins))


def _mdlp_each(columns: list[tuple[np.ndarray, Any]], max_bins: Sequence[int],
               n_classes: int | None) -> list[list[float]]:
    """`mdlp_cuts_many` of columns with their own `max_bins`, one batched search a cap."""
    out: list[list[float]] = [[] for _ in columns]
    for cap in sorted(set(max_bins)):
        at = [i for i, b in enumerate(max_bins) if b == cap]
        for i, cuts in zip(at, mdlp_cuts_many([columns[i] for i in at], cap, n_classes)):
            out[i] = cuts
    return out


def _split_gains(x: np.ndarray, codes: np.ndarray, n_classes: int, cuts: list[float]
                 ) -> np.ndarray:
    """Rows × information gain (bits) of splitting values `x` (labels `codes`) at each of the
    sorted `cuts` alone, from one count of the rows between them."""
    seg = np.bincount(np.searchsorted(cuts, x, "right") * n_classes + codes,
                      minlength=(len(cuts) + 1) * n_classes).reshape(-1, n_classes)
    left = np.cumsum(seg, axis=0)[:-1].astype(float)
    whole = seg.sum(axis=0).astype(float)
    right = whole - left
    return (whole.sum() * _entropy(whole) - left.sum(axis=1) * _entropy(left)
            - right.sum(axis=1) * _entropy(right))


WITHIN_CANDIDATES = 64
"""`within_cut` weighs a column's cut at most this many of its quantiles (the rows' counts per
quantile bin: its cost stays one count of the rows, whatever their number)."""
WITHIN_BESIDE = 8
"""`within_cut` looks within the bins of at most this many columns MDLP cuts, those of the
most cuts first (the bands a second number moves)."""
WITHIN_PAIRS = 256
"""Past this many (uncut column, column beside) pairs no `within_cut` is searched: a wide
table's cost stays the interaction tree's."""
WITHIN_ALPHA = 1e-3
"""`within_cut`'s test: the likelihood-ratio gain of the cut within another column's bins
must be above χ²'s 1 − WITHIN_ALPHA / (the candidates weighed) quantile, so a column of noise
takes none (its cut on chance counts would give every bin's clauses a spurious split)."""


def beside_columns(found: list[list[float]]) -> list[int]:
    """The columns `within_cut` looks within: of those MDLP cuts, the `WITHIN_BESIDE` of the
    most cuts (ties: in column order)."""
    cut = sorted((-len(c), j) for j, c in enumerate(found) if c)
    return [j for _n, j in cut[:WITHIN_BESIDE]]


def within_cut(matrix: np.ndarray, codes: np.ndarray, n_classes: int, i: int,
               found: list[list[float]]) -> float:
    """Several classes: the threshold on column `i` (which MDLP leaves uncut: on its own it
    tells the classes nothing) that best tells them apart within the bins of another column
    MDLP cuts (`found`, `beside_columns`), when that gain passes a χ² test (`WITHIN_ALPHA`);
    NaN if none. A second number that moves each band of the first to another class (steps5:
    a pressure above 62 moves a reading's grade by one), which the interaction tree misses:
    its leaves (`INTERACTION_LEAF`) are wider than 11% of the rows, its depth short of twenty
    bands (steps5 0.843 → 0.946 macro F1; benchmarks/RESULTS.md, several27)."""
    from scipy.stats import chi2

    x = matrix[:, i]
    best, at = 0.0, np.nan
    for j in beside_columns(found):
        cuts = found[j]
        ok = np.isfinite(x) & np.isfinite(matrix[:, j])
        if j == i or ok.sum() < 2:
            continue
        xi, yy = x[ok], np.asarray(codes)[ok]
        cell = np.searchsorted(np.asarray(cuts, dtype=float), matrix[ok, j], "right")
        cand = np.unique(np.quantile(xi, np.linspace(0, 1, WITHIN_CANDIDATES + 1)[1:-1]))
        n_cells, k = len(cuts) + 1, n_classes
        seg = np.searchsorted(cand, xi, "left")  # x ≤ cand[t] ⇔ seg ≤ t
        counts = np.bincount((seg * n_cells + cell) * k + yy,
                             minlength=(len(cand) + 1) * n_cells * k).reshape(-1, n_cells, k)
        left = np.cumsum(counts, axis=0)[:-1].astype(float)  # (candidates, cells, classes)
        whole = counts.sum(axis=0).astype(float)
        right = whole - left
        nl, nr = left.sum(axis=-1), right.sum(axis=-1)
        gain = (whole.sum(axis=-1) * _entropy(whole) - nl * _entropy(left)
                - nr * _entropy(right)).sum(axis=-1)  # bits, summed over the cells
        df = ((nl > 0) & (nr > 0)).sum(axis=-1) * (k - 1)
        share = np.minimum(nl.sum(axis=-1), nr.sum(axis=-1)) / len(xi)
        stat = 2.0 * np.log(2.0) * gain
        passed = (df > 0) & (share >= EXTRA_SHARE) & (
            stat > chi2.isf(WITHIN_ALPHA / len(cand), np.maximum(df, 1)))
        if passed.any():
            t = int(np.argmax(np.where(passed, gain, -np.inf)))
            if gain[t] > best:
                best, at = float(gain[t]), float(cand[t])
    return at


def interaction_hints(matrix: np.ndarray, codes: np.ndarray, n_classes: int,
                      others: list[pd.Series] | None, found: list[list[float]],
                      max_bins: Sequence[int]) -> list[list[float]]:
    """Per numeric column of `matrix` (rows × columns, NaN where missing; labels `codes`
    0 … n_classes − 1; MDLP's cuts `found` on every row): first `interaction_cuts`' threshold
    (the cut of a column MDLP leaves uncut; the tree grown only when some column is, NaN
    otherwise); then, for a column MDLP cuts with room below its `max_bins` bins, the cuts
    MDLP pays for within the rows of one level of a categorical column of `others`
    (`level_rows`), most informative first — `extra_cut`'s candidates. Found on
    `interaction_rows` (chosen by `row_keys`), so a cluster's fit, gathering those rows, and
    a fit of the rows in another order find the same."""
    matrix = np.asarray(matrix, dtype=float)
    at = interaction_rows(row_keys(matrix, codes, others) if len(codes) > INTERACTION_ROWS
                          else np.empty(len(codes), dtype=np.uint64))
    matrix, codes = matrix[at], np.asarray(codes)[at]
    tree = (interaction_cuts(matrix, codes) if any(not cuts for cuts in found)
            else np.full(len(found), np.nan))
    alone = [i for i, cuts in enumerate(found) if not cuts and np.isnan(tree[i])]
    if n_classes > 2 and len(alone) * len(beside_columns(found)) <= WITHIN_PAIRS:
        tree = np.array(tree, dtype=float)  # (binary labels: the tree's alone, as before)
        for i in alone:
            tree[i] = within_cut(matrix, codes, n_classes, i, found)
    room = [i for i, cuts in enumerate(found) if cuts and len(cuts) < max_bins[i] - 1]
    levels = level_rows([s.iloc[at] for s in others]) if others and room else None
    jobs = []
    for i in room if levels is not None else ():
        ok = np.isfinite(matrix[:, i])
        for j in range(levels.shape[1]):
            m = ok & (levels[:, j] > 0)
            jobs.append((i, matrix[m, i], codes[m]))
    ranked: dict[int, list[tuple[float, float]]] = {}
    for (i, x, c), cuts in zip(jobs, _mdlp_each([(x, c) for _i, x, c in jobs],
                                                [max_bins[i] for i, _x, _c in jobs], n_classes)):
        if cuts:
            ranked.setdefault(i, []).extend(zip(-_split_gains(x, c, n_classes, cuts), cuts))
    return [[float(tree[i]), *(cut for _g, cut in sorted(ranked.get(i, [])))]
            for i in range(len(found))]


def extra_cut(xs: np.ndarray, cuts: list[float], candidates: list[float], max_bins: int
              ) -> list[float]:
    """MDLP's `cuts` of the present values `xs` and the first of `candidates` that fits below
    `max_bins` bins with at least `EXTRA_SHARE` of the rows on each side of it within the MDLP
    bin it splits, sorted: one extra at most (two took the statins table from 0.744 to 0.768
    but moved more of the others)."""
    if not cuts or len(cuts) >= max_bins - 1:
        return cuts
    values = np.unique(xs)
    edges = np.asarray(cuts, dtype=float)
    for threshold in candidates:
        near = cut_near(values, threshold)
        if not near or near[0] in cuts:
            continue
        c = near[0]
        lo, hi = edges[edges < c].max(initial=-np.inf), edges[edges > c].min(initial=np.inf)
        if min(np.sum((xs >= lo) & (xs < c)), np.sum((xs >= c) & (xs < hi))) \
                >= EXTRA_SHARE * len(xs):
            return sorted([*cuts, c])
    return cuts


def cut_near(values: np.ndarray, threshold: float) -> list[float]:
    """A short cut between the sorted distinct `values` on either side of `threshold` (a
    tree's `x ≤ threshold`), as `tree_cuts` places its cuts; none if it splits no value off."""
    if not np.isfinite(threshold):
        return []
    i = int(np.searchsorted(values, threshold, side="right"))
    return [_between(values[i - 1], values[i])] if 0 < i < len(values) else []


def fit_cuts(values: pd.Series, y: Any, method: str = DEFAULT_METHOD, max_bins: int = 4,
             hint: Sequence[float] = ()) -> Binning:
    """The `Binning` of one numeric column, fitted on its present values (and `y` for the
    supervised methods); `hint`: its `interaction_hints` — the cut where MDLP finds none (else
    its median), or the candidates of an extra cut (`extra_cut`)."""
    return fit_cuts_many([values], y, method, max_bins, hints=[hint])[0]


def fit_cuts_many(columns: list[pd.Series], y: Any, method: str = DEFAULT_METHOD,
                  max_bins: int | Sequence[int] = 4,
                  hints: list[Sequence[float]] | None = None,
                  found_hints: dict[int, float] | None = None,
                  others: list[pd.Series] | None = None,
                  uncut: list[int] | None = None) -> list[Binning]:
    """`fit_cuts` of each numeric column (the same labels `y`), MDLP's searches batched
    (`mdlp_cuts_many`; `max_bins`: one for all or one a column); `hints`: each column's
    `interaction_hints` (None: found here, from these columns and the categorical columns
    `others`, when some column may take one, `wants_interactions`; the tree's threshold of
    each column it split on put in `found_hints` by column position; `uncut`: given, the
    positions of the columns where no MDLP cut pays on its own are put in it)."""
    if method not in METHODS:
        raise DataError(f"discretize must be one of {METHODS}, got {method!r}")
    fmts = [held_format(values) for values in columns]
    caps = ([int(max_bins)] * len(columns) if isinstance(max_bins, (int, np.integer))
            else [int(b) for b in max_bins])
    if method in ("quantile", "uniform"):
        return [fit_bins(values, method, cap, named=False, number_format=fmt)
                for values, fmt, cap in zip(columns, fmts, caps)]
    # the labels read once for every column (as text codes for MDLP: coding them column by
    # column was 2/3 of the cut search on 30 columns of 100,000 rows)
    labels = (np.unique(np.asarray(y).astype(str), return_inverse=True) if method == "mdlp"
              else (None, np.asarray(y, dtype=object)))
    data, read = [], []
    for values in columns:
        x = numeric_values(values)
        read.append(x)
        if x is None:
            raise DataError(f"column {str(values.name)!r} is not numeric; it cannot be discretised")
        keep = ~np.isnan(x) & np.isfinite(x)
        xs, ys = x[keep], labels[1].ravel()[keep]
        if len(xs) == 0:
            raise DataError(f"column {str(values.name)!r} has no values to discretise")
        data.append((xs, ys))
    found = (_mdlp_each(data, caps, len(labels[0])) if method == "mdlp" else
             [tree_cuts(xs, ys, cap) for (xs, ys), cap in zip(data, caps)])
    if uncut is not None and method == "mdlp":
        uncut.extend(i for i, cuts in enumerate(found) if not cuts)
    if method == "mdlp" and hints is None and wants_interactions(found, caps, bool(others)):
        hints = interaction_hints(np.column_stack(read), labels[1].ravel(), len(labels[0]),
                                  others, found, caps)
        if found_hints is not None:
            found_hints.update((i, h[0]) for i, h in enumerate(hints) if np.isfinite(h[0]))
    out = []
    for i, (values, fmt, (xs, _ys), cuts) in enumerate(zip(columns, fmts, data, found)):
        if method == "mdlp" and hints is not None and len(hints[i]):
            cuts = (extra_cut(xs, cuts, list(hints[i][1:]), caps[i]) if cuts else  # in a level
                    cut_near(np.unique(xs), hints[i][0]))  # a cut beside another column's
        if not cuts:  # nothing pays on its own: a median split keeps the column for interactions
            median = fit_bins(values, "quantile", 2, named=False, number_format=fmt)
            out.append(Binning(method, median.cuts, median.labels, fmt))
            continue
        if fmt != "plain":  # dates, times: cuts on whole days (minutes, seconds), so labelled
            cuts = [float(c) for c in held_cuts(cuts, xs, fmt)]
        out.append(Binning(method, tuple(cuts), bin_labels(cuts, None, fmt), fmt))
    return out


# --------------------------------------------------------------------------------------------
# The transformer


class Discretizer(TransformerMixin, BaseEstimator):
    """Bin the numeric columns of a table; leave the others as they are.

    method: "mdlp" (default), "tree", "quantile" or "uniform"; max_bins: the most bins per
    column (quantile / uniform: exactly that many, fewer where values tie); max_categories: whole-number
    columns with at most this many distinct values stay categorical.

    Fitted: `binnings_` (column → `plx_core.data.Binning`, in column order), `cuts_`
    (column → cut points), `feature_names_in_`, `interactions_` (column → threshold of every
    column `interaction_cuts`' tree split on; the tree is grown only when some column has no
    MDLP cut, and not when `fit` is given `hints`: empty then), `uncut_` (the columns where
    no MDLP cut paid on its own, cut at the tree's threshold or the median); `levels_` (column → the levels
    kept of a categorical column of many levels, the rest read as `data.OTHER_LEVEL`: set by
    `PLXClassifier.fit`, `data.frequent_levels`).
    """

    def __init__(self, method: str = DEFAULT_METHOD, max_bins: int = 4,
                 max_categories: int = 10):
        self.method = method
        self.max_bins = max_bins
        self.max_categories = max_categories

    def fit(self, X: pd.DataFrame, y: Any = None,
            hints: Mapping[str, Sequence[float]] | None = None,
            whole: Sequence[str] = ()) -> Discretizer:
        """Find the numeric columns of `X` and their cut points (`y` for mdlp / tree);
        `hints` (column → its `interaction_hints`: the tree's threshold, then the candidates
        of an extra cut, found on every column's rows: a cluster's fit, one column at a time)
        instead of those found on `X`'s; `whole`: columns of a few whole numbers (held as
        numbers) cut as numbers though `max_categories` would keep them as levels
        (`PLXClassifier`'s race of the two readings)."""
        if self.method not in METHODS:
            raise DataError(f"discretize must be one of {METHODS}, got {self.method!r}")
        if isinstance(self.max_bins, bool) or not isinstance(self.max_bins, (int, np.integer)) \
                or self.max_bins < 2:
            raise DataError(f"max_bins must be an integer ≥ 2, got {self.max_bins!r}")
        frame = _as_frame(X)
        if self.method not in ("quantile", "uniform"):
            if y is None:
                raise DataError(f"discretize={self.method!r} needs the labels y")
            y = np.asarray(y.to_numpy() if isinstance(y, pd.Series) else y, dtype=object).ravel()
            if len(y) != len(frame):
                raise DataError(f"X has {len(frame)} rows but y has {len(y)}")
        self.feature_names_in_ = np.array([str(c) for c in frame.columns], dtype=object)
        numeric = [c for c in frame.columns
                   if str(c) in whole or is_numeric(frame[c], self.max_categories)]
        found: dict[int, float] = {}
        uncut: list[int] = []
        self.binnings_ = dict(zip(map(str, numeric), fit_cuts_many(
            [frame[c] for c in numeric], y, self.method, int(self.max_bins),
            None if hints is None else [hints.get(str(c), ()) for c in numeric], found,
            [frame[c] for c in frame.columns if c not in set(numeric)], uncut)))
        self.interactions_ = {str(numeric[i]): h for i, h in found.items()}
        self.uncut_ = tuple(str(numeric[i]) for i in uncut)
        self.cuts_ = {c: b.cuts for c, b in self.binnings_.items()}
        self.levels_ = {}
        return self

    def transform(self, X: pd.DataFrame) -> pd.DataFrame:
        """The table with each fitted numeric column replaced by its bin labels, and each
        grouped column's rare levels by `data.OTHER_LEVEL`."""
        from .data import group_levels

        frame = _as_frame(X).copy()
        for c, b in getattr(self, "binnings_", {}).items():
            if c in frame.columns:
                frame[c] = b.apply(frame[c].rename(c))
        for c, kept in getattr(self, "levels_", {}).items():
            if c in frame.columns:
                frame[c] = group_levels(frame[c], kept)
        return frame

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data: the method and each column's binning."""
        return {"method": self.method, "max_bins": int(self.max_bins),
                "max_categories": int(self.max_categories),
                "binnings": {c: b.to_dict() for c, b in self.binnings_.items()},
                "levels": {c: list(v) for c, v in getattr(self, "levels_", {}).items()}}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Discretizer:
        """A fitted `Discretizer` from `to_dict` output."""
        out = cls(str(d["method"]), int(d.get("max_bins", 4)), int(d.get("max_categories", 10)))
        out.binnings_ = {str(c): Binning.from_dict(b) for c, b in d["binnings"].items()}
        out.cuts_ = {c: b.cuts for c, b in out.binnings_.items()}
        out.levels_ = {str(c): tuple(str(v) for v in lv) for c, lv in d.get("levels", {}).items()}
        return out


def fit_binnings(binnings: Mapping[str, Binning], frame: pd.DataFrame, y: Any,
                 method: str = DEFAULT_METHOD, max_bins: int | Mapping[str, int] = 4,
                 others: pd.DataFrame | None = None) -> dict[str, Binning]:
    """The columns of `binnings` (a schema's, which say how each column's text reads as
    numbers) cut again by `fit_cuts_many` on the rows of `frame` and their labels `y`, beside
    the categorical feature columns `others` (those rows' values, as the estimator sees them):
    the cut points `PLXClassifier` would find on those rows, kept with each column's reading."""
    from .data import as_held

    labels = np.asarray(y.to_numpy() if isinstance(y, pd.Series) else y, dtype=object).ravel()
    if len(labels) != len(frame):
        raise DataError(f"the rows have {len(frame)} entries but the labels {len(labels)}")
    # as dates, lengths of time as timedeltas …: labelled as the column reads
    held = [as_held(b.numbers(frame[f]), b.number_format, frame.index).rename(f)
            for f, b in binnings.items()]
    caps = [max_bins.get(f, 4) if isinstance(max_bins, Mapping) else max_bins for f in binnings]
    cut = fit_cuts_many(held, labels, method, caps, others=None if others is None else [
        others[c].reset_index(drop=True) for c in others.columns])
    return {f: c.with_reading(b) for (f, b), c in zip(binnings.items(), cut)}


def _as_frame(X: Any) -> pd.DataFrame:
    if isinstance(X, pd.DataFrame):
        return X
    arr = np.asarray(X, dtype=object)
    if arr.ndim != 2:
        raise DataError(f"X must be a table (2-D), got an array of shape {arr.shape}")
    return pd.DataFrame(arr, columns=[f"a{i + 1}" for i in range(arr.shape[1])])


__all__ = ["DEFAULT_METHOD", "Discretizer", "EXTRA_SHARE", "LEVEL_SHARE", "METHODS", "cut_near", "extra_cut", "fit_binnings", "fit_cuts", "fit_cuts_many", "interaction_cuts", "interaction_hints", "interaction_rows", "level_rows", "row_keys", "is_numeric", "mdlp_counts", "mdlp_cuts", "mdlp_cuts_many", "mdlp_splits", "mdlp_splits_many",
           "numeric_values", "tree_cuts", "wants_interactions"]
