"""Variants of the Direct method behind `PLXClassifier(variant=...)`, and the batched relevant-
clause lookup they share.

The paper answers a full query with the weighted median of the p of every Direct clause whose
body is a subset of the query (w = 1), positive iff the mean of the median interval > 0.5.
Measured here (benchmarks/RESULTS.md, "Experiments (issue 4)"), that rule is far from the
best a Direct KB can do on some sets: on Syn 10/4 the median over the 10 one-literal clauses
alone scores F1 0.99 against 0.91 for the median over all 1,023 subsets, because most long
clauses have a support of one or two rows and vote noise.

The *tuned* variant keeps the paper's semantics exactly — a KB of weighted clauses answered by
the LP's weighted median — and chooses two things on the training rows by leave-one-out:

* a clause-length window `min_len ≤ |K| ≤ max_len` (the Direct KB keeps only those clauses);
* a prior clause `[1] POS` (or `[0] POS`) with an integer weight W ≥ 0, i.e. W extra votes
  for (or against) POS. It moves the decision to another order statistic of the clause
  probabilities (Syn 12/4 needs "5 of 12 positions", which the plain median cannot express).

Leave-one-out is exact and cheap: a training row is counted in every clause whose body is a
subset of it, so its own contribution is removed by subtracting 1 from the support (and its
label from the positives); a clause whose support drops to 0 disappears. No KB is rebuilt.
Replicas are left out together (leave-one-group-out): balancing replicates minority rows, and
a replica would otherwise vote for its own copy — measured on Breast Cancer
(balance="train"), plain leave-one-out chose long clauses that no test row matches and F1
fell from 0.50 to 0.15. `plx_core.data.balance` gives a replica its source row's index
label, so the estimator passes the index as `groups` when it has repeated labels; leaving
out *every* identical row instead would also drop natural duplicates, which are real evidence
(Titanic: F1 0.816 → 0.777).
The paper's configuration (window 1..n, no prior) is kept unless another one answers more
leave-one-out rows correctly (`TUNE_Z`), and below `MIN_TUNE_ROWS` training rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from .clause import PRIOR_ID
from .direct import DENSE_MAX, WORK, Counts, LevelKeys, n_subsets, per_count
from .kb import KB, POS, Literal, WeightedClause
from .median import weighted_median_intervals
from .notes import pool_map
from .query import (
    SCAN_CELLS,
    TIE_EPS,
    UNSEEN,
    BoundsArray,
    _batch_tasks,
    _ScanIncidence,
    encode_query_rows,
    n_workers,
    query_many,
    resolve_semantics,
)

TUNE_Z = 0.0
"""A tuned configuration replaces the paper's only if it wins by more than this many standard
errors of the paired difference in leave-one-out correct answers (0: it must answer more
rows correctly than the paper's rule; its F1 decides among those). Measured with 5 runs on
Breast Cancer, SPECT, Titanic (balance="train"), Titanic and MONK's 2 (balance="before"):
z = 0 scored ≥ z = 1 ≥ z = 2 on F1 on all five (e.g. SPECT 0.890 / 0.874 / 0.853)."""
LOO_WEIGHTS = "sources"
"""How leave-one-out rows count in the F1 that chooses the configuration: "sources" weighs a
row 1 / (its replicas), so every source row counts once and the F1 is that of the data's own
class mix; "rows" counts replicas as rows (the balanced mix). Measured, 4 runs, tuned F1
sources / rows: HIV-1 0.966 / 0.933 (balance="before") and 0.768 / 0.721 ("train"), Titanic
0.813 / 0.800 and 0.737 / 0.743, Breast Cancer 0.703 / 0.695 and 0.469 / 0.496, SPECT
0.772 / 0.776 and 0.907 / 0.898, Voting (8) 0.957 / 0.957 and 0.939 / 0.934, Car 0.989 /
0.987 and 0.954 / 0.957."""
MIN_TUNE_ROWS = 30
"""Fewer training rows than this: no tuning, the paper's configuration."""
MIN_TUNE_CLASS = 5
"""Below this many rows of either class the paper's configuration is kept: leave-one-out F1
on one to four positives is noise, and under class balancing it chose windows that answered
every row positive (1 positive in 300: 300 of 300 predicted positive)."""
TUNE_PAIR_BUDGET = 60_000_000
"""Above this many (training row × subset) lookups, leave-one-out uses a sample of the rows."""
TUNE_WORK = 2**20
"""(training row, subset) pairs looked up at once by `loo_level_stats`."""
TUNE_BYTES = 128 * TUNE_WORK
"""Working memory of `tune` besides the KB (≈ 110 bytes a pair of a chunk, measured with
tracemalloc); `PLXClassifier` keeps it out of the budget it gives the Direct KB."""


def kb_share(budget: int) -> int:
    """The part of a memory budget the tuned fit gives its Direct KB (the rest: `tune`)."""
    return max(budget - TUNE_BYTES, budget // 2)


def kb_share_note(budget: int) -> str:
    """How `kb_share` split `budget`, in words (appended to the cap's reason)."""
    from .direct import _size

    return (f"; the Direct KB gets {_size(kb_share(budget))} of the {_size(budget)} memory "
            "budget, the rest is kept for the tuned variant's leave-one-out")


# --------------------------------------------------------------------------- lookups


SCAN_UP_TO = 8
"""`bounds_by_max_len` scans a KB of at most this many clauses per subset of a row instead of
looking the subsets up (`query.use_subsets` scans only below a quarter clause per subset): a
binary tree's KB of 3,015 clauses answered 140 held-out rows of 12 features (4,095 subsets
each) in 40 ms by subsets and 1.6 ms by the scan (5 folds a fit, DNF + 10% noise)."""


def relevant_pairs(kb: KB, codes: np.ndarray, n_jobs: int | None = None, scan_up_to: float = 0
                   ) -> tuple[np.ndarray, np.ndarray]:
    """(query row, learned clause row) for every learned clause whose body ⊆ the query.

    `codes` are query codes as `query.encode_rows` gives them (OPEN / UNSEEN below 0). The
    same chunked lookup `query_many` does (rows grouped by which features they know; subsets
    of the KB's clause lengths only, or a scan for few long clauses), on `n_jobs` threads;
    an unseen value is not known, so a subset holding it never matches a clause. With
    `scan_up_to`, rows with at least clauses / `scan_up_to` subsets scan the KB instead.
    """
    codes = np.asarray(codes)
    if len(codes) == 0 or kb.n_learned == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    tasks = _batch_tasks(kb, codes, np.zeros(len(codes), bool))
    if scan_up_to:  # rows with many subsets for the clauses: scan the KB instead
        n_sub = kb.index().n_subsets
        step = max(1, SCAN_CELLS // kb.n_learned)
        tasks = [t for rows, known, subsets in tasks for t in (
            [(rows[a:a + step], known, False) for a in range(0, len(rows), step)]
            if subsets and kb.n_learned <= scan_up_to * n_sub(len(known))
            else [(rows, known, subsets)])]
    scan = _ScanIncidence(kb) if any(not t[2] for t in tasks) else None
    idx = kb.index()

    def run(task):
        rows, known, subsets = task
        if subsets:
            row, pos = idx.relevant(codes[rows], known)
            return rows[row], idx.order[pos]
        row, crow = scan.relevant(codes[rows])
        return rows[row], crow

    workers = min(n_workers(n_jobs), len(tasks))
    if workers > 1:
        with ThreadPoolExecutor(workers) as pool:
            parts = pool_map(pool, run, tasks)
    else:
        parts = [run(t) for t in tasks]
    if not parts:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return (np.concatenate([p[0] for p in parts]).astype(np.int64),
            np.concatenate([p[1] for p in parts]).astype(np.int64))


# --------------------------------------------------------------------------- tuning


@dataclass(frozen=True)
class LevelStats:
    """Leave-one-out evidence per (training row, clause length): how many clauses vote above,
    below and exactly at 0.5, and the closest probability on each side (for exact halves)."""

    above: np.ndarray  # (n, L + 1) counts; column 0 unused
    below: np.ndarray
    equal: np.ndarray
    max_below: np.ndarray  # largest p < 0.5 (−inf if none)
    min_above: np.ndarray  # smallest p > 0.5 (+inf if none)


def duplicate_counts(codes: np.ndarray, y: np.ndarray, groups: np.ndarray | None = None
                     ) -> np.ndarray:
    """Per row, how many rows (itself included) have the same codes, the same label and the
    same group (all identical rows when `groups` is None)."""
    cols = [codes.astype(np.int64), np.asarray(y, dtype=np.int64)[:, None]]
    if groups is not None:
        cols.append(np.unique(np.asarray(groups), return_inverse=True)[1].reshape(-1, 1))
    key = np.column_stack(cols)
    _, inv, counts = np.unique(key, axis=0, return_inverse=True, return_counts=True)
    return counts[inv.ravel()]


def loo_level_stats(kb: KB, codes: np.ndarray, y: np.ndarray,
                    leave_out: np.ndarray | None = None,
                    weights: tuple[float, float] | None = None) -> LevelStats:
    """Leave-one-out level statistics of training rows `codes` (labels y ∈ {0, 1}) against the
    Direct KB `kb` built from the training rows (each row supports every subset of itself).

    `leave_out[i]` rows are removed for row i (default 1: the row itself); `tune` passes the
    number of identical rows with the same label, so a replicated row (class balancing) does
    not vote for itself through its replicas. `weights` = (w_pos, w_neg): the clause
    probabilities are then those of `weighted_class_kb` (a clause votes above 0.5 iff
    w_pos·positives > w_neg·negatives; exact for integer weights, as `tune` passes for
    "balanced").

    Rows with the same label and the same number left out see every clause alike, so per such
    group and clause length the clauses' leave-one-out vote (above / below / at 0.5 / gone)
    and probability are computed once, per clause; the group's rows × subsets are then visited
    in chunks of `TUNE_WORK` pairs, each subset's clause found by its level key
    (`plx_core.direct.LevelKeys`: plain int64 keys whatever the number of features) in a dense
    table or by `searchsorted`; memory stays bounded whatever the rows."""
    n = len(codes)
    c = np.ones(n, np.int64) if leave_out is None else np.asarray(leave_out, np.int64)
    y = np.asarray(y, np.int64)
    L = int(kb.lengths.max(initial=0))
    above = np.zeros((n, L + 1))
    below = np.zeros((n, L + 1))
    equal = np.zeros((n, L + 1))
    max_below = np.full((n, L + 1), -np.inf)
    min_above = np.full((n, L + 1), np.inf)
    if n == 0 or kb.n_learned == 0:
        return LevelStats(above, below, equal, max_below, min_above)
    lk = LevelKeys.for_domains([len(kb.domains[f]) for f in kb.features], L)
    lengths, keys = lk.body_keys(kb.codes, lengths=kb.lengths)
    digits_t = np.ascontiguousarray(np.maximum(np.asarray(codes, np.int64), -1).T + 1)
    if digits_t.max(initial=0) < 127:
        digits_t = digits_t.astype(np.int8)
    groups = np.unique(np.column_stack([c, y]), axis=0)
    members = [np.flatnonzero((c == cv) & (y == yv)) for cv, yv in groups.tolist()]
    for k in range(1, L + 1):
        sel = np.flatnonzero(lengths == k)
        if not len(sel):
            continue
        mem, _, offsets = lk.level(k)
        T = int(offsets[-1])
        dense = T <= DENSE_MAX
        if not dense and not (keys[sel][1:] > keys[sel][:-1]).all():  # a Direct KB is sorted
            sel = sel[np.argsort(keys[sel])]
        kk, sup, pos = keys[sel], kb.support[sel], kb.positives[sel]
        if not dense and T < 2**31:  # the subsets' keys come as int32 (`subset_keys`): search
            kk = kk.astype(np.int32)  # them without a cast
        for (cv, yv), rows in zip(groups.tolist(), members):
            vote, p = _loo_votes(sup - cv, pos - cv * yv, weights)
            if dense:  # tables indexed by key: one gather per pair (0: no clause)
                vote_tab = np.zeros(T, np.int8)
                p_tab = np.zeros(T)
                vote_tab[kk] = vote
                p_tab[kk] = p
            _loo_level_rows(lk, k, digits_t, rows, len(mem),
                            (vote_tab, p_tab) if dense else (kk, vote, p),
                            (above, below, equal, max_below, min_above))
    return LevelStats(above, below, equal, max_below, min_above)


ABOVE, BELOW, EQUAL = 1, 2, 3
"""A clause's leave-one-out vote in `loo_level_stats` (0: the clause is gone)."""


def case_codes(cases: Any) -> np.ndarray:
    """Each row's case as an integer code 0..n_cases-1 (int64), the cases in sorted order."""
    return np.unique(np.asarray(cases), return_inverse=True)[1].ravel().astype(np.int64)


def case_shares(case: np.ndarray, rows: np.ndarray, clauses: np.ndarray, n_clauses: int,
                y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per (row, clause) pair, the rows of the row's case inside the clause and their positives
    (`case`: `case_codes` of every row): what leaving the row's whole case out takes from the
    clause's support and positives."""
    inv = pd.factorize(case[rows] * np.int64(max(n_clauses, 1)) + clauses)[0]  # (case, clause)
    return np.bincount(inv)[inv], np.bincount(inv, weights=y[rows]).astype(np.int64)[inv]


def cases_differ(codes: np.ndarray, y: np.ndarray, groups: np.ndarray | None) -> bool:
    """Whether some group of `groups` holds rows that differ (codes or label): cases of several
    visits, where leaving a row's identical rows out (`duplicate_counts`) leaves the case's
    other rows in — not replicas (`data.balance`), whose group is one row repeated."""
    if groups is None or len(y) == 0:
        return False
    case = case_codes(groups)
    rows = np.unique(np.column_stack([case, np.asarray(y, np.int64), np.asarray(codes, np.int64)]),
                     axis=0)
    return len(rows) > int(case.max()) + 1


def loo_case_stats(kb: KB, codes: np.ndarray, y: np.ndarray, cases: np.ndarray,
                   weights: tuple[float, float] | None = None) -> LevelStats:
    """`loo_level_stats` with each row's whole case left out (`cases`, one a row): every clause
    inside the row loses the case's rows inside it and their positives, so another visit of
    the same patient does not vote for the row's label (as `weighting.loo_means(cases=)`).
    Cases are taken whole in chunks of about `TUNE_WORK` (row, subset) pairs, each chunk's
    clauses looked up once (`relevant_pairs`). One-row cases give `loo_level_stats` exactly."""
    n = len(codes)
    y = np.asarray(y, np.int64)
    L = int(kb.lengths.max(initial=0))
    acc = (np.zeros((n, L + 1)), np.zeros((n, L + 1)), np.zeros((n, L + 1)),
           np.full((n, L + 1), -np.inf), np.full((n, L + 1), np.inf))
    if n == 0 or kb.n_learned == 0:
        return LevelStats(*acc)
    case = case_codes(cases)
    order = np.argsort(case, kind="stable")
    ends = np.append(np.flatnonzero(np.diff(case[order])) + 1, n)  # each case's end
    step = max(1, TUNE_WORK // n_subsets(len(kb.features), L))
    a = 0
    while a < n:
        b = int(ends[min(np.searchsorted(ends, a + step), len(ends) - 1)])
        rows = order[a:b]
        qi, ci = relevant_pairs(kb, codes[rows], n_jobs=1)
        length = kb.lengths[ci]
        qi, ci, length = qi[length > 0], ci[length > 0], length[length > 0]
        out_sup, out_pos = case_shares(case, rows[qi], ci, kb.n_learned, y)
        vote, p = _loo_votes(kb.support[ci] - out_sup, kb.positives[ci] - out_pos, weights)
        cell = qi * (L + 1) + length
        size = len(rows) * (L + 1)
        for arr, v in zip(acc[:3], (ABOVE, BELOW, EQUAL)):
            arr[rows] += np.bincount(cell, weights=vote == v, minlength=size).reshape(-1, L + 1)
        for arr, v, fn, empty in ((acc[3], BELOW, np.maximum, -np.inf),
                                  (acc[4], ABOVE, np.minimum, np.inf)):
            local = np.full(size, empty)
            fn.at(local, cell[vote == v], p[vote == v])
            arr[rows] = fn(arr[rows], local.reshape(-1, L + 1))
        a = b
    return LevelStats(*acc)


def _loo_votes(sup: np.ndarray, pos: np.ndarray, weights: tuple[float, float] | None
               ) -> tuple[np.ndarray, np.ndarray]:
    """(vote, p) of clauses with these counts once the row is left out: `ABOVE` / `BELOW` /
    `EQUAL` 0.5, or 0 when no row is left (support 0), and the clause probability."""
    keep = sup > 0
    if weights is None:
        d = np.where(keep, 2 * pos - sup, 0)
    else:
        d = np.where(keep, pos * weights[0] - (sup - pos) * weights[1], 0)
    vote = np.where(d > 0, ABOVE, np.where(d < 0, BELOW, EQUAL)).astype(np.int8)
    vote[~keep] = 0
    with np.errstate(invalid="ignore", divide="ignore"):
        p = pos / sup
        if weights is not None:
            p = reweighted_p(p, *weights)
    return vote, p


def _loo_level_rows(lk: LevelKeys, k: int, digits_t: np.ndarray, rows: np.ndarray, C: int,
                    lookup: tuple, out: tuple) -> None:
    """Add the votes of length-k clauses to `out` (`LevelStats`' arrays) for training `rows`,
    whose clauses all vote as `lookup` says: (vote table, p table) by key, or (sorted keys,
    vote, p) searched."""
    above, below, equal, max_below, min_above = out
    n = len(rows)
    if not n:
        return
    rstep = min(n, TUNE_WORK)
    cstep = max(1, TUNE_WORK // rstep)
    for r0 in range(0, n, rstep):
        r = rows[r0 : r0 + rstep]
        dt = digits_t[:, r]
        for lo in range(0, C, cstep):
            q = lk.subset_keys(dt, k, lo, min(C, lo + cstep))  # (subsets × rows)
            if len(lookup) == 2:
                vote, p = lookup[0][q], lookup[1][q]
            else:
                kk, kv, kp = lookup
                at = np.minimum(np.searchsorted(kk, q), len(kk) - 1)
                vote = np.where(kk[at] == q, kv[at], 0)
                p = kp[at]
            is_above, is_below = vote == ABOVE, vote == BELOW
            above[r, k] += is_above.sum(axis=0)
            below[r, k] += is_below.sum(axis=0)
            equal[r, k] += (vote == EQUAL).sum(axis=0)
            max_below[r, k] = np.maximum(max_below[r, k],
                                         np.where(is_below, p, -np.inf).max(axis=0))
            min_above[r, k] = np.minimum(min_above[r, k],
                                         np.where(is_above, p, np.inf).min(axis=0))


class LooCount:
    """The tuned variant's leave-one-out `LevelStats`, gathered while the Direct KB is counted
    (`direct.direct_kb_with_reason(observe=...)`), so `tune` needs no second lookup of every
    training row's subsets: the count already groups each (row, subset) pair under its body,
    and the pair's leave-one-out counts are that body's counts minus the row's own share.
    Equal to `loo_level_stats` (a test); gathered only when `tune` would leave every row out
    (no `loo_sample`) and the distinct rows fit one chunk of the count (`direct.WORK`).

    Rows with the same distinct codes, label and number left out (`duplicate_counts`: replicas
    of one group leave together) have the same statistics: each such unit is computed once."""

    def __init__(self, y: np.ndarray, groups: np.ndarray | None = None,
                 weights: tuple[float, float] | None = None, keep_pairs: int = 0) -> None:
        self.y = np.asarray(y, np.int64)
        self.groups = groups
        self.weights = weights
        self.keep_pairs = keep_pairs
        self.codes: np.ndarray | None = None
        self._acc: tuple[np.ndarray, ...] | None = None
        self._pairs: list[np.ndarray] | None = None

    def __call__(self, codes: np.ndarray, rows: Counts, cap: int | None):
        """`direct_kb_with_reason`'s `observe`: the per-chunk visitor, or None when `tune`
        would not use the statistics (too few rows, a sample of the rows, too many rows)."""
        self.codes = np.asarray(codes, np.int64)
        n, F = self.codes.shape
        y = self.y
        present = int((self.codes >= 0).sum(axis=1).max(initial=0))
        longest = present if cap is None else min(cap, present)
        if (not _tunable(y) or longest == 0 or n * n_subsets(F, longest) > TUNE_PAIR_BUDGET
                or rows.inverse is None or len(rows.support) > WORK
                or cases_differ(self.codes, y, self.groups)):  # `tune`: `loo_case_stats`
            return None
        c = (np.ones(n, np.int64) if self.groups is None
             else duplicate_counts(self.codes, y, self.groups))
        units, self._unit_of = np.unique(np.column_stack([rows.inverse, c, y]), axis=0,
                                         return_inverse=True)
        self._unit_of = self._unit_of.ravel()
        # each unit's kind (left out, label) and distinct row; units sort by distinct row, so
        # with one unit a distinct row the units are the distinct rows (no column to pick)
        kinds, kind_of = np.unique(units[:, 1:], axis=0, return_inverse=True)
        self._kinds = [(int(cv), int(yv)) for cv, yv in kinds.tolist()]
        self._unit_kind = kind_of.ravel()
        self._unit_row = None if len(units) == len(rows.support) else units[:, 0]
        self._distinct = rows.inverse
        self._pairs = [] if n * n_subsets(F, longest) <= self.keep_pairs else None
        self._offset = 0
        U, top = len(units), longest
        self._acc = (np.zeros((U, top + 1)), np.zeros((U, top + 1)), np.zeros((U, top + 1)),
                     np.full((U, top + 1), -np.inf), np.full((U, top + 1), np.inf))
        self._top = 0
        return self._visit

    def _visit(self, k: int, at: np.ndarray, sup: np.ndarray, pos: np.ndarray) -> None:
        """Add a chunk of length-k bodies' leave-one-out votes to the units' statistics.

        A body's vote for a unit depends only on the unit's kind and the body's (support,
        positives), so the votes are computed per kind and distinct count (`_vote_tables`)
        and each (subset, unit) pair gathers its vote from small tables, `LOO_STEP` pairs at
        a time into reused buffers (no array the size of the chunk's pairs is allocated)."""
        above, below, equal, max_below, min_above = self._acc
        m = len(sup)
        if m:
            self._top = max(self._top, k)
        if self._pairs is not None:  # the pairs' clauses (KB rows), −1: none
            self._pairs.append(np.where(at < m, at.astype(np.int64) + self._offset, -1))
        self._offset += m
        if not m or int(sup.max()) <= min(cv for cv, _ in self._kinds):
            return  # every body gone once its row leaves (support 1 when nothing repeats)
        cell, fields, p_below, p_above, width = _vote_tables(sup, pos, self._kinds, self.weights)
        S, U = len(at), len(self._unit_kind)
        gone = min(cv for cv, _ in self._kinds)  # a body of support ≤ this votes for no unit
        if self._unit_row is None and int(sup[sup > gone].sum()) < LIVE_SHARE * at.size:
            # few pairs' bodies outlive their row (long bodies: support 1): only those pairs
            self._visit_live(k, at, sup > gone, cell, fields, p_below, p_above, width)
            return
        off = self._unit_kind * width  # each unit reads its kind's tables
        step = max(1, min(_FIELD - 1, LOO_STEP // max(U, 1), S))
        ix = np.empty((step, U), np.int64)
        got = np.empty((step, U), np.int64)
        val = np.empty((step, U))
        cnt = np.zeros(U, np.int64)
        mb = np.full(U, -np.inf)
        ma = np.full(U, np.inf)
        for s0 in range(0, S, step):
            blk = at[s0 : s0 + step]
            if self._unit_row is not None:  # one column a unit
                blk = blk[:, self._unit_row]
            n = len(blk)
            np.add(blk if cell is None else np.take(cell, blk), off, out=ix[:n])
            cnt += np.take(fields, ix[:n], out=got[:n], mode="clip").sum(axis=0)
            np.maximum(mb, np.take(p_below, ix[:n], out=val[:n], mode="clip").max(axis=0), out=mb)
            np.minimum(ma, np.take(p_above, ix[:n], out=val[:n], mode="clip").min(axis=0), out=ma)
        above[:, k] += cnt & (_FIELD - 1)
        below[:, k] += (cnt >> 21) & (_FIELD - 1)
        equal[:, k] += cnt >> 42
        np.maximum(max_below[:, k], mb, out=max_below[:, k])
        np.minimum(min_above[:, k], ma, out=min_above[:, k])

    def _visit_live(self, k: int, at: np.ndarray, live: np.ndarray, cell: np.ndarray | None,
                    fields: np.ndarray, p_below: np.ndarray, p_above: np.ndarray, width: int
                    ) -> None:
        """`_visit` for a chunk (one unit a distinct row) where few (subset, unit) pairs have a
        body that can vote (`live`: per body, its support is above the fewest rows a unit
        leaves out; a Direct KB's long bodies mostly hold one row): those pairs are found
        and gathered alone, their votes counted per unit — the same counts and extremes as
        gathering every pair (sums of whole numbers, maxima and minima: exact)."""
        above, below, equal, max_below, min_above = self._acc
        U = at.shape[1]
        flat = at.reshape(-1)
        held = np.flatnonzero(np.append(live, False)[flat])  # the body index len(live): none
        body = flat[held]
        unit = held % U
        ix = (body if cell is None else cell[body]).astype(np.int64)
        ix += self._unit_kind[unit] * width
        vote = fields[ix]
        for acc, packed in ((above, _VOTE_FIELDS[ABOVE]), (below, _VOTE_FIELDS[BELOW]),
                            (equal, _VOTE_FIELDS[EQUAL])):
            acc[:, k] += np.bincount(unit, weights=vote == packed, minlength=U)
        for ext, table, packed, fn in ((max_below, p_below, _VOTE_FIELDS[BELOW], np.maximum),
                                       (min_above, p_above, _VOTE_FIELDS[ABOVE], np.minimum)):
            sel = vote == packed
            col = ext[:, k].copy()
            fn.at(col, unit[sel], table[ix[sel]])
            ext[:, k] = col

    def pairs(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(training row, clause) of every clause of the counted KB inside each training row,
        by row then clause — `relevant_pairs` of the training rows without a lookup — when
        the rows × subsets were at most `keep_pairs`, else None."""
        if self._pairs is None or self._acc is None:
            return None
        n = len(self._distinct)
        if not self._pairs:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        per_row = np.vstack(self._pairs).T[self._distinct]  # training rows × subsets
        held = per_row >= 0
        return (np.repeat(np.arange(n), held.sum(axis=1)), per_row[held])

    def stats(self) -> LevelStats | None:
        """Each training row's statistics (as `loo_level_stats` gives them), or None when not
        gathered."""
        if self._acc is None:
            return None
        top = self._top
        return LevelStats(*(a[self._unit_of, : top + 1] for a in self._acc))


_FIELD = 1 << 21
_VOTE_FIELDS = np.array([0, 1, _FIELD, _FIELD * _FIELD], np.int64)
"""`LooCount`'s packed vote per `_loo_votes` vote: gone, `ABOVE`, `BELOW`, `EQUAL` (one int64
holds the three counts in 21-bit fields, so one gather and one sum count all three)."""
LIVE_SHARE = 0.25
"""Below this share of a chunk's (subset, unit) pairs with a body that can vote (bounded by
the supports above the rows left out), `LooCount` gathers those pairs alone: on Syn 12/8 0–6%
of the pairs of 5 literals and more, 27% at 4 (2.9 M pairs in all, 0.3 M that can vote)."""
LOO_STEP = 2**15
"""(subset, unit) pairs `LooCount` gathers at once: its buffers stay in cache and are reused."""


def _vote_tables(sup: np.ndarray, pos: np.ndarray, kinds: list[tuple[int, int]],
                 weights: tuple[float, float] | None
                 ) -> tuple[np.ndarray | None, np.ndarray, np.ndarray, np.ndarray, int]:
    """Each body's leave-one-out vote for each kind (rows left out, label) of `LooCount`:
    (cell, packed votes, p below 0.5, p above 0.5, width). The tables hold kind i's
    entries at i · width + cell; a body's cell is its (support, positives) pair when few
    such pairs exist (long bodies: supports of a few rows), else the body itself (`cell`
    None), and the last cell of a kind (index m of `at`: no body) is gone. Gone: the
    body's support is not above the rows left out; a vote is `_loo_votes`' (the same
    floats: computed by it on the same counts)."""
    m = len(sup)
    smax = int(sup.max())
    if (smax + 1) ** 2 <= m:  # few distinct (support, positives): one vote per pair
        grid = np.arange(smax + 1)
        sc, pc = np.repeat(grid, smax + 1), np.tile(grid, smax + 1)
        n_cells = len(sc)
        cell = np.append(sup * (smax + 1) + pos, n_cells).astype(
            np.int16 if n_cells < 2**15 else np.int32)
    else:
        sc, pc, cell, n_cells = sup, pos, None, m
    width = n_cells + 1
    fields = np.zeros((len(kinds), width), np.int64)
    p_below = np.full((len(kinds), width), -np.inf)
    p_above = np.full((len(kinds), width), np.inf)
    for i, (cv, yv) in enumerate(kinds):
        vote, p = _loo_votes(sc - cv, pc - cv * yv, weights)  # gone where support ≤ cv
        fields[i, :n_cells] = _VOTE_FIELDS[vote]
        p_below[i, :n_cells] = np.where(vote == BELOW, p, -np.inf)
        p_above[i, :n_cells] = np.where(vote == ABOVE, p, np.inf)
    return cell, fields.ravel(), p_below.ravel(), p_above.ravel(), width


def _tunable(y: np.ndarray) -> bool:
    """Whether `tune` leaves rows out for labels y (else the paper's configuration)."""
    n_pos = int(np.sum(y))
    return len(y) >= MIN_TUNE_ROWS and min(n_pos, len(y) - n_pos) >= MIN_TUNE_CLASS


def window_decisions(st: LevelStats, lo: int, hi: int, priors: np.ndarray) -> np.ndarray:
    """Decisions (len(priors) × n) of the unit-weight median over clause lengths lo..hi plus a
    prior clause of integer weight |W| at p = 1 (W > 0) or p = 0 (W < 0), for each W in priors.

    Exact: with a = votes above 0.5, b below, e at 0.5, the median interval of c = a + b + e
    values is [v_(c−1)//2, v_c//2] (sorted, 0-based), so the decision needs the counts and, when
    the interval straddles 0.5, the two values either side.

    A vote more at 1 (or one fewer at 0) moves both order statistics up, so a row's decision
    never turns negative as W grows (`_decide` keeps that, ties at 0.5 included): for a run of
    consecutive priors each row's first positive W is found by bisection and the decisions
    read off it — `PRIOR_SEARCH` evaluations a row instead of one per prior."""
    stats = _window_stats(st, lo, hi)
    W = np.asarray(priors, dtype=float)
    P = len(W)
    if P < PRIOR_SEARCH or not (np.diff(W) == 1).all():
        return _decide(*(x[None, :] for x in stats), W[:, None])
    return np.arange(P)[:, None] >= _first_positive(stats, W)[None, :]


def _first_positive(stats: Sequence[np.ndarray], W: np.ndarray) -> np.ndarray:
    """Each row's index of its first positive prior among the consecutive priors W (len(W):
    none), by bisection on `_decide` of the rows' window statistics `stats`."""
    P = len(W)
    first = np.zeros(len(stats[0]), np.int64)  # the first positive prior lies in [first, last]
    last = np.full(len(stats[0]), P, np.int64)  # (P: none)
    open_ = first < last
    while open_.any():
        mid = (first + last) // 2
        pos = _decide(*stats, W[np.minimum(mid, P - 1)])
        last = np.where(open_ & pos, mid, last)
        first = np.where(open_ & ~pos, mid + 1, first)
        open_ = first < last
    return first


def windows_decisions(st: LevelStats, L: int, priors: np.ndarray):
    """`window_decisions(st, lo, hi, priors)` of every window 1 ≤ lo ≤ hi ≤ L, yielded as
    (lo, hi, decisions) in that order (lo, then hi): the same decisions bit for bit, with the
    windows decided together — `_decide` and the bisection are elementwise, so one pass over
    many windows' rows (up to `WINDOW_CELLS` cells) does what one call a window did, without
    the per-call cost that was most of `tune` (78 windows × 5 bisection steps of a 12-feature
    KB). The windows' counts are differences of cumulative sums: exact for whole counts
    (`LevelStats` counts clauses), and each window summed alone otherwise."""
    W = np.asarray(priors, dtype=float)
    P, n = len(W), st.above.shape[0]
    windows = [(lo, hi) for lo in range(1, L + 1) for hi in range(lo, L + 1)]
    counts = (st.above, st.below, st.equal)
    whole = all(np.array_equal(c, np.floor(c)) and float(np.abs(c).sum()) < 2.0**52
                for c in counts)
    if not whole or P < PRIOR_SEARCH or not (np.diff(W) == 1).all():
        for lo, hi in windows:
            yield lo, hi, window_decisions(st, lo, hi, W)
        return
    cum = [np.cumsum(c[:, : L + 1], axis=1) for c in counts]  # column 0 unused: 0
    step = max(1, WINDOW_CELLS // max(1, n * P))
    for at in range(0, len(windows), step):
        chunk = windows[at:at + step]
        lo = np.array([w[0] for w in chunk])
        hi = np.array([w[1] for w in chunk])
        a, b, e = ((c[:, hi] - c[:, lo - 1]).T for c in cum)  # (windows × rows)
        mb = np.stack([st.max_below[:, x : y + 1].max(axis=1) for x, y in chunk])
        ma = np.stack([st.min_above[:, x : y + 1].min(axis=1) for x, y in chunk])
        first = _first_positive([v.ravel() for v in (a, b, e, mb, ma)], W).reshape(len(chunk), n)
        for i, (x, y) in enumerate(chunk):
            yield x, y, np.arange(P)[:, None] >= first[i][None, :]


WINDOW_CELLS = 1 << 21
"""(window, row, prior) cells `windows_decisions` decides in one pass (its arrays' size)."""
PRIOR_SEARCH = 4
"""`window_decisions` bisects for each row's first positive prior from this many priors on."""


def _window_stats(st: LevelStats, lo: int, hi: int) -> tuple[np.ndarray, ...]:
    """(votes above, below, at 0.5, largest p below, smallest p above) of each row over the
    clause lengths lo..hi."""
    return (st.above[:, lo : hi + 1].sum(axis=1), st.below[:, lo : hi + 1].sum(axis=1),
            st.equal[:, lo : hi + 1].sum(axis=1), st.max_below[:, lo : hi + 1].max(axis=1),
            st.min_above[:, lo : hi + 1].min(axis=1))


def _decide(a0: np.ndarray, b0: np.ndarray, e: np.ndarray, mb0: np.ndarray, ma0: np.ndarray,
            W: np.ndarray) -> np.ndarray:
    """`window_decisions` for rows with these window statistics and prior weights W (arrays
    that broadcast), element by element."""
    a = a0 + np.maximum(W, 0)
    b = b0 + np.maximum(-W, 0)
    ma = np.where(W > 0, np.minimum(ma0, 1.0), ma0)
    mb = np.where(W < 0, np.maximum(mb0, 0.0), mb0)
    c = a + b + e
    li = np.floor((c - 1) / 2)
    ui = np.floor(c / 2)
    both_above = li >= b + e
    straddle = (li < b) & (ui >= b + e)  # lower < 0.5 < upper: compare the two values
    half_up = (li >= b) & (li < b + e) & (ui >= b + e)  # lower = 0.5 < upper
    with np.errstate(invalid="ignore"):  # ±inf sums where no value lies on a side
        closer_above = ma + mb > 1.0 + 2 * TIE_EPS
    out = both_above | half_up | (straddle & closer_above)
    return out & (c > 0)


def _f1(pred: np.ndarray, y: np.ndarray, w: np.ndarray | None = None) -> np.ndarray:
    """F1 of the positive class for each row of pred (k × n), rows weighted by w."""
    w = np.ones(pred.shape[1]) if w is None else w
    tp = (pred & (y == 1)[None, :]) @ w
    fp = (pred & (y == 0)[None, :]) @ w
    fn = ((~pred) & (y == 1)[None, :]) @ w
    den = 2 * tp + fp + fn
    return np.where(den > 0, 2 * tp / np.where(den > 0, den, 1.0), 1.0)


@dataclass(frozen=True)
class TunedConfig:
    min_len: int
    max_len: int
    prior_weight: int  # > 0: [1] POS w=W ; < 0: [0] POS w=|W| ; 0: none
    loo_f1: float
    paper_loo_f1: float
    n_rows: int  # training rows the leave-one-out ran on
    top: int = 0  # the longest clause in the untuned KB
    scores: dict = field(default_factory=dict, repr=False, compare=False)
    #: the chosen configuration's leave-one-out decisions, on the training rows `loo_rows`
    #: (positions; None: every row) — what `plx_core.selection` compares other models with
    loo_pred: np.ndarray | None = field(default=None, repr=False, compare=False)
    loo_rows: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def is_paper(self) -> bool:
        return self.min_len == 1 and self.prior_weight == 0 and self.max_len >= self.top


def loo_sample(kb: KB, n_rows: int, random_state: int | None = 0,
               cases: np.ndarray | None = None) -> np.ndarray | None:
    """The training rows (sorted positions) `tune` leaves out one by one: None for all of them,
    a seeded sample when rows × subsets exceeds `TUNE_PAIR_BUDGET` — with `cases` (each row's,
    when `cases_differ`), of whole cases, so each sampled row's case is all there to leave out."""
    n_sub = n_subsets(len(kb.features), int(kb.lengths.max(initial=0)))
    if n_rows * n_sub <= TUNE_PAIR_BUDGET:
        return None
    keep = min(n_rows, max(50, TUNE_PAIR_BUDGET // n_sub))
    rng = np.random.default_rng(random_state)
    if cases is None:
        return np.sort(rng.choice(n_rows, keep, replace=False))
    case = case_codes(cases)
    order = rng.permutation(int(case.max()) + 1)
    took = np.cumsum(np.bincount(case)[order])
    return np.flatnonzero(np.isin(case, order[: int(np.searchsorted(took, keep)) + 1]))


def tune(kb: KB, codes: np.ndarray, y: np.ndarray, z: float | None = None,
         max_prior: int | None = None, random_state: int | None = 0,
         groups: np.ndarray | None = None, sampled: bool = False,
         class_weights: tuple[float, float] | None = None,
         stats: LevelStats | None = None, leave_out: np.ndarray | None = None) -> TunedConfig:
    """Choose the clause-length window and the prior weight by leave-one-out on the training
    rows (see the module docstring). `kb` is the Direct KB of exactly these rows; `groups`
    (one label per row) marks replicas, identical rows of one group left out together, or
    cases of several visits (`cases_differ`), each row's whole case left out
    (`loo_case_stats`; None: each row alone). When rows × subsets exceeds `TUNE_PAIR_BUDGET` a random sample
    of the rows is left out (`loo_sample`; `sampled=True`: the rows given are that sample).
    `class_weights` (w_pos, w_neg): `kb` is the `weighted_class_kb` of these weights, and the
    sign test that guards the paper's configuration weighs rows by them too — on rare positives
    plain accuracy prefers answering "negative" everywhere. `stats`: the rows' `LevelStats`
    when already gathered with the count (`LooCount`; used when every row is left out).
    `leave_out`: each row's `duplicate_counts` counted on the whole table when the rows given
    are a sample of it (`sampled`; a row's replicas outside the sample are left out too)."""
    z = TUNE_Z if z is None else z
    y = np.asarray(y, dtype=np.int64)
    prior = class_weights
    if leave_out is None:
        leave_out = (np.ones(len(y), np.int64) if groups is None
                     else duplicate_counts(codes, y, groups))
    cases = np.asarray(groups) if cases_differ(codes, y, groups) else None
    pick = None if sampled else loo_sample(kb, len(y), random_state, cases)
    if pick is not None or sampled or cases is not None:
        stats = None
    if pick is not None:
        codes, y, leave_out = codes[pick], y[pick], leave_out[pick]
        cases = None if cases is None else cases[pick]
    if kb.n_learned == 0 or not _tunable(y):
        top = int(kb.lengths.max(initial=0))
        return TunedConfig(1, top, 0, float("nan"), float("nan"), len(y), top)
    st = (loo_case_stats(kb, codes, y, cases, prior) if cases is not None
          else stats if stats is not None else loo_level_stats(kb, codes, y, leave_out, prior))
    rw = 1.0 / leave_out if LOO_WEIGHTS == "sources" else np.ones(len(y))
    tw = rw * np.where(y == 1, prior[0], prior[1]) if prior is not None else rw
    L = st.above.shape[1] - 1
    F = len(kb.features)
    wmax = F if max_prior is None else max_prior
    priors = np.arange(-wmax, wmax + 1)
    paper = window_decisions(st, 1, L, np.array([0]))[0]
    paper_ok = paper == (y == 1)
    paper_f1 = float(_f1(paper[None, :], y, rw)[0])
    best = (paper_f1, 0, 1, L, 0)  # (f1, -complexity, lo, hi, W)
    scores: dict[tuple[int, int, int], float] = {}
    for lo, hi, dec in windows_decisions(st, L, priors):
        f1 = _f1(dec, y, rw)
        ok = dec == (y == 1)[None, :]
        better = (ok & ~paper_ok) @ tw
        worse = (~ok & paper_ok) @ tw
        significant = (better - worse) > z * np.sqrt(better + worse)
        # a window that answers every row alike tells the classes apart nowhere: on a rare
        # class F1 prefers "all positive" (2π/(1 + π) > 0) to any rule that misses
        significant &= dec.any(axis=1) & ~dec.all(axis=1)
        for i, W in enumerate(priors.tolist()):
            scores[(lo, hi, W)] = float(f1[i])
            if not significant[i] and (lo, hi, W) != (1, L, 0):
                continue
            cand = (float(f1[i]), -((lo - 1) + (L - hi) + abs(W)), lo, hi, W)
            if cand[:2] > best[:2]:
                best = cand
    f1, _, lo, hi, W = best
    dec = window_decisions(st, lo, hi, np.array([W]))[0]
    return TunedConfig(lo, hi, int(W), f1, paper_f1, len(y), L, scores, dec, pick)


def reweighted_p(p: np.ndarray | float, w_pos: float, w_neg: float) -> np.ndarray:
    """P(POS | K) when each positive row counts w_pos and each negative w_neg. Balanced
    (w_pos : w_neg = 1/π : 1/(1 − π) for the base rate π) is what replicating the minority
    class until both classes are equal does, without copies (so no replica can leak into a
    test split). Monotone in p; balanced, p > π iff the result > 0.5."""
    p = np.asarray(p, dtype=float)
    a = p * w_pos
    den = 1.0 - p
    den *= w_neg
    den += a  # two temporaries of p's size: a KB's p can run to millions of clauses
    if p.ndim and (den > 0).all():
        return np.divide(a, den, out=a)
    return np.where(den > 0, a / np.where(den > 0, den, 1.0), p)


def balanced_weights(n_pos: int, n: int) -> tuple[int, int]:
    """(w_pos, w_neg) ∝ (1/π, 1/(1 − π)) as integers: (negatives, positives)."""
    return int(n - n_pos), int(n_pos)


def corrected_ratio(w_pos: float, w_neg: float):
    """The class-corrected p of clauses with (support, positives) counts — `reweighted_p` of
    positives / support, within [0, 1] — as a function of the two count arrays
    (`direct.per_count`'s `fn`): what `weighted_class_kb` gives a KB learned from data, and
    what a Direct KB is counted with when it is corrected from the start
    (`direct.direct_kb_with_reason`'s `p_of`)."""

    def corrected(s: np.ndarray, pos: np.ndarray) -> np.ndarray:
        q = reweighted_p(pos / s, w_pos, w_neg)
        return np.clip(q, 0.0, 1.0, out=q)

    return corrected


def weighted_class_kb(kb: KB, w_pos: float, w_neg: float) -> KB:
    """`kb` with its learned clauses' p replaced by the `reweighted_p` of their counts (support
    and positives stay the raw counts; the other learned arrays are shared, not copied);
    expert clauses (`extra`) are kept as written, but a learned clause with no condition kept
    there (a tree pruned to its root: `POS` with its counts) is corrected as the block is."""
    if not (w_pos > 0 and w_neg > 0):
        return kb.copy()
    if kb.n_learned == 0 or any(_counted(c) for c in kb.extra):
        kb = kb.copy()
        kb.extra = [_corrected_clause(c, w_pos, w_neg) if _counted(c) else c for c in kb.extra]
        if kb.n_learned == 0:
            return kb
    sup = kb.support
    if (sup > 0).all() and (kb.head == 1).all():  # a KB learned from data: the p of its counts
        return kb.with_p(per_count(sup, kb.positives, corrected_ratio(w_pos, w_neg)))
    raw = np.where(kb.head == 1, kb.p, 1 - kb.p)
    q = np.where(sup > 0, kb.positives / np.where(sup > 0, sup, 1), raw)
    qb = reweighted_p(q, w_pos, w_neg)
    return kb.with_p(np.clip(np.where(kb.head == 1, qb, 1.0 - qb), 0.0, 1.0))


def _counted(c: WeightedClause) -> bool:
    """A learned clause kept in `extra` with the counts its p came from (not an expert rule,
    not the prior clause, whose p is set, not counted)."""
    return (c.source != "rule" and c.id is None and c.is_learned_form
            and bool(c.support) and c.positives is not None)


def _corrected_clause(c: WeightedClause, w_pos: float, w_neg: float) -> WeightedClause:
    """`c` with the p of its counts under the class correction (`reweighted_p`)."""
    q = float(reweighted_p(c.positives / c.support, w_pos, w_neg))
    return replace(c, p=float(np.clip(q if c.head == 1 else 1.0 - q, 0.0, 1.0)))


def windowed_kb(kb: KB, min_len: int, max_len: int, prior_weight: int) -> KB:
    """The Direct KB restricted to clauses of length min_len..max_len, plus the prior clause
    `[1] POS` (prior_weight > 0) or `[0] POS` (< 0) with weight |prior_weight| (id "prior")."""
    lengths = kb.lengths
    top = int(lengths.max(initial=0))
    if len(lengths) and (lengths[1:] >= lengths[:-1]).all():  # a Direct KB: by length, views
        keep = slice(int(np.searchsorted(lengths, min_len)),
                     int(np.searchsorted(lengths, max_len, "right")))
    else:
        keep = (lengths >= min_len) & (lengths <= max_len)
    codes, kept = kb.codes[keep], lengths[keep]
    kept.setflags(write=False)
    out = KB(
        kb.features, dict(kb.domains), codes, kb.head[keep], kb.p[keep], kb.w[keep],
        kb.support[keep], kb.positives[keep], kb.source[keep], list(kb.extra),
        positive=kb.positive, kind=kb.kind, n_rows=kb.n_rows,
        max_len=max_len if max_len < top or kb.max_len is not None else kb.max_len,
        _lengths_cache=(codes, kept),  # the window's lengths: not counted again
    )
    if prior_weight:
        out.extra.append(prior_clause(prior_weight))
    return out


def bounds_by_max_len(kb: KB, X: Any, max_lens: Sequence[int | None], semantics: str = "auto",
                      n_jobs: int | None = None, levels: np.ndarray | None = None,
                      encoded: tuple | None = None, pairs: tuple[np.ndarray, np.ndarray] | None = None
                      ) -> dict[int | None, BoundsArray]:
    """`query_many(windowed_kb(kb, 1, m, 0), X, semantics)` for every clause-length limit m of
    `max_lens` (None: the whole KB), from one lookup of each row's relevant clauses.

    Under the relevant semantics a row's answer is the weighted median of the clauses whose
    body ⊆ the row, so the answer of the KB cut to lengths ≤ m is that median over the found
    clauses of length ≤ m: a Tree KB cut at depth m (`tree.truncate`) is exactly this cut of
    the whole tree's all-node KB, and the depth search of `variant="auto"` answers every depth
    of a fold from one lookup (rows with missing cells each form their own lookup pattern,
    so each extra lookup is expensive). With enabled `extra` clauses or the full semantics
    each limit is answered by `query_many` on its windowed KB. `levels` (one per learned
    clause; default its length): the limits cut on these instead — a depth-weighted binary
    tree's node depths, so each limit is that tree cut at a depth (`tree.truncate`).
    `encoded`: `encode_query_rows(kb, X)` when already known (from a KB of the same features
    and domains, e.g. the other tree of the same rows). `pairs`: the rows' relevant (row,
    clause) pairs when already known — `tree.path_clauses` of the trees the KB was drawn from,
    which walks each row down a tree instead of matching it against every clause."""
    sem = resolve_semantics(kb, semantics)
    limits = list(dict.fromkeys(max_lens))
    if levels is not None and (sem != "relevant" or any(c.enabled for c in kb.extra)):
        raise ValueError("levels need the relevant semantics and no enabled extra clause")
    if sem != "relevant" or any(c.enabled for c in kb.extra):
        return {m: query_many(kb if m is None else windowed_kb(kb, 1, m, 0), X, semantics=sem,
                              n_jobs=n_jobs) for m in limits}
    codes, ignored, read_as = encode_query_rows(kb, X) if encoded is None else encoded
    n = len(codes)
    row, crow = (relevant_pairs(kb, codes, n_jobs, scan_up_to=SCAN_UP_TO) if pairs is None
                 else pairs)
    length = (kb.lengths if levels is None else np.asarray(levels))[crow]
    target = np.where(kb.head[crow] > 0, kb.p[crow], 1.0 - kb.p[crow])
    w = kb.w[crow]
    ur, uc = np.nonzero(codes == UNSEEN)
    out = {}
    for m in limits:
        keep = slice(None) if m is None else length <= m
        lo, hi = weighted_median_intervals(row[keep], target[keep], w[keep], n)
        out[m] = BoundsArray(lo, hi, np.full(n, "median", dtype=object), tuple(kb.features),
                             ur, uc, ignored, read_as)
    return out


def prior_said(prior_weight: int) -> str:
    """The tuned prior in words: its clause (`[1] POS` or `[0] POS`) and weight, or none — not
    the signed number that encodes it (a "prior weight -1" read as a negative weight)."""
    if not prior_weight:
        return "no prior clause"
    return f"prior clause [{1 if prior_weight > 0 else 0}] POS of weight {abs(prior_weight)}"


def prior_clause(prior_weight: int) -> WeightedClause:
    return WeightedClause((Literal(POS),), 1.0 if prior_weight > 0 else 0.0,
                          float(abs(prior_weight)), source="data", id=PRIOR_ID)


def prior_of(kb: KB) -> tuple[float, float] | None:
    """(p, w) of the prior clause when it is the only enabled extra clause, else None."""
    enabled = [c for c in kb.extra if c.enabled]
    if len(enabled) == 1 and enabled[0].id == PRIOR_ID:
        return enabled[0].p, enabled[0].w
    return None


__all__ = [
    "balanced_weights", "bounds_by_max_len", "reweighted_p", "weighted_class_kb",
    "LevelStats", "LooCount", "PRIOR_ID", "TunedConfig", "duplicate_counts", "loo_level_stats", "loo_sample",
    "prior_clause", "prior_said",
    "corrected_ratio", "prior_of", "relevant_pairs", "tune", "window_decisions", "windowed_kb", "windows_decisions",
]
