"""Confidence-weighted Direct KB: the "direct-conf" candidate of `variant="auto"`.

The Direct KB with unit weights answers with the plain median of every clause inside the
query, so the many clauses that barely tell the classes apart (p near the base rate) outvote
the few that decide. Here each learned clause keeps its probability and is weighted by how
far its probability, pulled towards the base rate by an m-estimate, lies from the base rate:

    w = |p_m − b| / max(b, 1 − b) + `WEIGHT_FLOOR`,   p_m = (n·p + m·b) / (n + m)

(p: the clause's class-corrected probability of POS; n: its support; b: the corrected base
rate — 0.5 when balanced, the default, where w = |2·p_m − 1| + `WEIGHT_FLOOR`). A pure clause seen on many rows weighs ~1, one seen once weighs
little (m > 0), a clause at the base rate ~0. The answer is still the weighted median of the
clause probabilities (the LP / weighted-median semantics), and `explain` searches this same
KB. The weights are a function of the clause counts, so leave-one-out is exact: `loo_means`
removes a training row from every clause it supports, recomputes p and w, and takes the
weighted median (the tuned variant's leave-one-out does the same for unit weights).
"""

from __future__ import annotations

import functools

import numpy as np

from .direct import n_subsets, per_count
from .kb import KB
from .median import unit_medians, weighted_median_intervals
from .variants import TUNE_WORK, case_codes, case_shares, relevant_pairs, reweighted_p

M_GRID: tuple[float, ...] = (3.0,)
"""The m-estimate strengths `variant="auto"` scores by leave-one-out (each a candidate).
Measured (benchmarks/RESULTS.md, "The Direct KB's leave-one-out means"): (1, 3, 10) and (3,) moved
the same six sets by +0.055 and +0.051 in all; one m is half the leave-one-out's cost."""
LOO_WORK = 2**15
"""(row, clause) terms per chunk of the leave-one-out means when the count gave the rows'
clauses (no lookup): a chunk's dozen arrays stay in a core's cache (2 MiB) — Rare 5%'s
457,000 terms in one chunk took 79 ms, in chunks of this size 52 ms, the same means (each
row's median is its own); `TUNE_WORK` where the clauses are looked up."""
WEIGHT_FLOOR = 1e-3
"""Added to every weight: weights must be > 0, and a clause at the base rate still counts a
little where nothing else does."""


def confidence_weights(p: np.ndarray, support: np.ndarray, m: float, base: float) -> np.ndarray:
    """w = |p_m − base| / max(base, 1 − base) + `WEIGHT_FLOOR` (in [floor, 1 + floor]) with
    p_m the m-estimate of p towards `base`."""
    n = np.asarray(support, dtype=float)
    pm = (n * np.asarray(p, dtype=float) + m * base) / np.maximum(n + m, 1e-300)
    return np.abs(pm - base) / max(base, 1.0 - base) + WEIGHT_FLOOR


def pos_probability(kb: KB) -> np.ndarray:
    """P(POS | body) of each learned clause (a ¬POS-headed clause's p is that of ¬POS)."""
    return np.where(np.asarray(kb.head) == 1, kb.p, 1.0 - np.asarray(kb.p))


def confidence_kb(kb: KB, m: float, base: float) -> KB:
    """A copy of the (class-corrected) Direct KB `kb` with confidence weights (module
    docstring); probabilities, counts and expert clauses are kept as they are."""
    out = kb.copy()
    if out.n_learned:
        out.w = confidence_weights(pos_probability(out), out.support, m, base)
    return out


def _loo_terms(kb: KB, codes: np.ndarray, y: np.ndarray,
               class_weights: tuple[float, float] | None, leave_out: np.ndarray | None,
               pairs: tuple[np.ndarray, np.ndarray] | None = None,
               cases: np.ndarray | None = None):
    """Per chunk of training rows (about `TUNE_WORK` (row, clause) pairs; `LOO_WORK` with
    `pairs`): (first row, number of rows, row of each term (0-based in the chunk), p, support, clause length), the terms
    sorted by (row, p). Each term is a clause inside the row with the row taken out of it
    (support − c, positives − c·y_i, c = `leave_out[i]`, default 1); clauses left without
    rows are dropped; p is the class-corrected probability of POS. `pairs`: the rows'
    (row, clause) pairs sorted by row when known (`variants.LooCount.pairs`), else looked up.
    `cases` (each row's case, several rows a case): a row's whole case is taken out of every
    clause inside the row — the clause's rows of that case and their positives — instead of
    `leave_out`, so another visit of the same patient does not vote for its own label."""
    n = len(codes)
    y = np.asarray(y, dtype=np.int64)
    c = np.ones(n, np.int64) if leave_out is None else np.asarray(leave_out, np.int64)
    out_sup = out_pos = None
    if cases is not None and n:  # per (case, clause): its rows and positives, over every pair
        if pairs is None:
            qi, ci = relevant_pairs(kb, codes, n_jobs=1)
            order = np.argsort(qi, kind="stable")
            pairs = (qi[order], ci[order])
        out_sup, out_pos = case_shares(case_codes(cases), pairs[0], pairs[1], kb.n_learned, y)
    lengths = kb.lengths
    work = TUNE_WORK if pairs is None else LOO_WORK
    step = max(1, work // n_subsets(len(kb.features), int(lengths.max(initial=0))))
    for a in range(0, n, step):
        rows = np.arange(a, min(n, a + step))
        if pairs is None:
            qi, ci = relevant_pairs(kb, codes[rows], n_jobs=1)
            r = rows[qi]
        else:
            lo, hi = np.searchsorted(pairs[0], [a, a + len(rows)])
            r, ci = pairs[0][lo:hi], pairs[1][lo:hi]
        if out_sup is not None:  # the row's whole case
            sup = kb.support[ci] - out_sup[lo:hi]
            pos = kb.positives[ci] - out_pos[lo:hi]
        elif leave_out is None:  # each row alone
            sup = kb.support[ci] - 1
            pos = kb.positives[ci] - y[r]
        else:
            sup = kb.support[ci] - c[r]
            pos = kb.positives[ci] - c[r] * y[r]
        keep = sup > 0
        r, sup, pos, ci = r[keep], sup[keep], pos[keep], ci[keep]
        p = per_count(sup, pos, functools.partial(_loo_p, class_weights=class_weights))
        # sorted by (row, p) once, so the medians' own (stable) sorts find it nearly in order;
        # one float key is cheaper than lexsort, and exactness does not depend on this order.
        # Stable: the terms come by row, and a merge sort takes each row's run as it is (the
        # unstable quicksort sorted them as one random array: 0.8x the leave-one-out's time)
        order = np.argsort(r + 0.5 * p, kind="stable")
        by_row = len(r) < 2 or bool(np.all(r[1:] >= r[:-1]))  # the order keeps such rows as is
        yield (a, len(rows), (r if by_row else r[order]) - a, p[order], sup[order],
               lengths[ci[order]])


def _loo_p(sup: np.ndarray, pos: np.ndarray, class_weights: tuple[float, float] | None
           ) -> np.ndarray:
    """The class-corrected probability of POS of clauses with these counts."""
    q = pos / sup
    return q if class_weights is None else reweighted_p(q, *class_weights)


def loo_means(kb: KB, codes: np.ndarray, y: np.ndarray, ms: tuple[float, ...],
              class_weights: tuple[float, float] | None, base: float,
              leave_out: np.ndarray | None = None,
              window: tuple[int, int, int] | None = None,
              pairs: tuple[np.ndarray, np.ndarray] | None = None,
              cases: np.ndarray | None = None) -> dict:
    """Per m in `ms`, the leave-one-out ω(POS) mean of every training row `codes` (labels y)
    under the confidence-weighted Direct KB built from these rows (`kb`, uncorrected counts in
    support/positives; `class_weights` the (w_pos, w_neg) correction its p carry); with
    `window` = (min_len, max_len, prior_weight) also, under the key "window", the tuned
    Direct KB's (`variants.tune` gives only its decisions): unit-weight clauses of length
    min_len..max_len plus the prior clause (|prior_weight| votes at 1 or 0).

    Row i is taken out of every clause inside it (`_loo_terms`); each row's answer is the
    weighted median of the relevant semantics (every clause whose body lies inside the row).
    One lookup of the rows' clauses serves every answer; none when the Direct KB's count
    gave them (`pairs`, `variants.LooCount.pairs`). `cases`: each row's case, left out whole
    (`_loo_terms`)."""
    keys = [*ms, *(["window"] if window is not None else [])]
    out = {k: np.full(len(codes), 0.5) for k in keys}
    if len(codes) == 0 or kb.n_learned == 0:
        return out
    for a, k, r, p, sup, length in _loo_terms(kb, codes, y, class_weights, leave_out, pairs,
                                              cases):
        for m in ms:
            lo, hi = weighted_median_intervals(r, p, confidence_weights(p, sup, m, base), k)
            out[m][a:a + k] = (lo + hi) / 2.0
        if window is not None:
            lo_len, hi_len, prior = window
            inside = (length >= lo_len) & (length <= hi_len)
            got = unit_medians(r[inside], p[inside], k, prior)  # unit weights: no sums
            if got is None:  # (not sorted by target: the general median)
                rr, pp, ww = r[inside], p[inside], np.ones(int(inside.sum()))
                if prior:  # each row's prior term where sorting by (row, target) puts it
                    # (after the row's terms at its target), so the terms stay sorted
                    at = (np.searchsorted(rr, np.arange(k), "right") if prior > 0 else
                          np.searchsorted(2 * rr + (pp > 0), 2 * np.arange(k) + 1, "left"))
                    rr = np.insert(rr, at, np.arange(k))
                    pp = np.insert(pp, at, 1.0 if prior > 0 else 0.0)
                    ww = np.insert(ww, at, float(abs(prior)))
                got = weighted_median_intervals(rr, pp, ww, k)
            out["window"][a:a + k] = (got[0] + got[1]) / 2.0
    return out


SAME_ROWS = 20
"""A row that at least this many training rows repeat exactly, as the KB reads them, is scored
by the fitted KB's own answer, not left out (`same_rows`)."""


def same_rows(codes: np.ndarray, least: int = SAME_ROWS) -> np.ndarray | None:
    """Which rows belong to a group of at least `least` rows identical in `codes` (None: no
    row does). Left out one at a time, such rows' answers can split by each row's own label
    where a weighted median sits on a knife edge, though the fitted KB answers them all alike:
    unseen23's any_count, 642 identical rows at 0.261 for every negative and 0.331 for every
    positive, which a threshold of 0.3 read as F1 0.714 while the fitted KB, 0.332 for all of
    them, answered every row positive (0.584). In such a group a row's own pull on its
    clauses is under 1/`least`: its in-sample answer is the honest one."""
    if len(codes) < least:
        return None
    _, inv, size = np.unique(codes, axis=0, return_inverse=True, return_counts=True)
    big = size[inv.ravel()] >= least
    return big if big.any() else None


__all__ = ["LOO_WORK", "M_GRID", "SAME_ROWS", "WEIGHT_FLOOR", "confidence_kb",
           "confidence_weights", "loo_means", "pos_probability", "same_rows"]
