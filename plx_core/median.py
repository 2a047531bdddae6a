"""Weighted medians: the exact optimal set of ω(POS) when every clause is a median term.

Minimising Σ w_i |x − t_i| over x ∈ [0, 1] is solved by the first target where the cumulative
weight reaches half the total; when it equals half exactly at the end of a run of equal
targets, every x up to the next target is optimal (an interval).

**Scale-free ties.** Whether a cumulative weight equals half the total must not depend on the
scale of the weights (issue 12: an absolute tolerance changed 16 of 19 answers when every
weight was multiplied by 1e-13). Sums are taken as int64, which is exact:
* when every weight of a query is a whole number and their total is at most 2^53 (unit
  weights, integer rule weights, 1e15 included) the weights are summed as they are and the
  comparison is exact;
* otherwise (decimal weights such as 0.3 or 1e-13, whose binary values are already rounded,
  so that 3 · w and a weight of 3w need not agree in the last bit) each query's weights are
  scaled by one power of two (exact) so that their total is about 2^60, rounded to integers,
  and a tie is accepted within n · 2^-50 of the total — relative, so the answer is the same at
  any scale. Rounding moves a sum by less than that tolerance, so every
  decision outside it is exact; a tie inside it, in a query with a weight no larger than the
  tolerance (weights spanning ~1e12 and more, e.g. two cancelling rules of weight 1e308 over
  unit clauses), cannot be told from a near-tie: `WeightRangeError` says so, never a wrong
  answer.
"""

from __future__ import annotations

import numpy as np

from .errors import DataError

_TOP = 61  # a query's scaled total weight is below 2^_TOP (doubled cumulative sums fit int64)
_REL = 2.0**-50  # relative tie tolerance for weights that are not exact binary fractions


class WeightRangeError(DataError):
    """The weights of one query span a range too wide to compare their sums reliably."""


def weighted_median(target: np.ndarray, weight: np.ndarray) -> tuple[float, float]:
    """The interval of minimisers of Σ w |x − t| over [0, 1] for one query ([0, 1] if empty)."""
    n = len(target)
    if n == 0:
        return 0.0, 1.0
    if weight[0] == weight.min() == weight.max():
        # equal weights (every learned clause): the middle order statistic(s), by partition;
        # with n even the cost is flat between the n/2-th and the (n/2 + 1)-th smallest target
        if n % 2:
            mid = float(np.partition(target, n // 2)[n // 2])
            return mid, mid
        part = np.partition(target, (n // 2 - 1, n // 2))
        return float(part[n // 2 - 1]), float(part[n // 2])
    lo, hi = weighted_median_intervals(np.zeros(n, np.int64), target, weight, 1, grouped=True)
    return float(lo[0]), float(hi[0])


def _sort_by_query(qid: np.ndarray, target: np.ndarray, grouped: bool) -> np.ndarray | None:
    """Permutation sorting the terms by (query, target), ties in their order (stable); None
    when they are so sorted already (the identity: the leave-one-out terms come sorted, and
    two sorts of every term were ~7% of a default fit)."""
    if len(qid) > 1:
        step = qid[1:] != qid[:-1]
        if (qid[1:] >= qid[:-1]).all() and (step | (target[1:] >= target[:-1])).all():
            return None
    order = np.argsort(target, kind="stable")
    if grouped and len(qid) and qid[0] == qid[-1]:
        return order  # one query
    return order[np.argsort(qid[order], kind="stable")]  # same as lexsort, faster


def scaled_weights(q: np.ndarray, w: np.ndarray, seg_start: np.ndarray, seg_len: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per term an int64 weight (whole-number weights as they are; otherwise each query's
    weights scaled by one power of two so that the query's total is < 2^61), per query the tie tolerance in doubled units (0 when exact), and
    per query the smallest scaled weight (a tie within the tolerance cannot be trusted when a
    weight is that small: it could be the difference).

    `q` are segment numbers 0..S-1 of terms sorted by query."""
    w = np.asarray(w, dtype=np.float64)
    if len(w) and not np.all(np.isfinite(w) & (w > 0)):
        bad = w[~(np.isfinite(w) & (w > 0))][0]
        raise DataError(f"a clause weight is {bad!r}; weights must be finite numbers > 0")
    is_whole = np.floor(w) == w
    if len(w) and bool(is_whole.all()) and float(w.sum()) <= 2.0**52:
        # whole numbers whose every sum is exact (unit weights, a prior clause's votes):
        # each query's weights as they are, what the scaling below ends in for them
        return (w.astype(np.int64), np.zeros(len(seg_start), np.int64),
                np.minimum.reduceat(w, seg_start))
    # per query: largest weight → scale it to ≤ 1 first (no overflow in the sum), then the sum
    wmax = np.maximum.reduceat(w, seg_start)
    e1 = np.frexp(wmax)[1]  # wmax < 2^e1
    wn = np.ldexp(w, -e1[q])
    total = np.add.reduceat(wn, seg_start)  # ≤ n per query
    e2 = np.frexp(total)[1]  # total < 2^e2
    shift = _TOP - 1 - e2  # scaled total < 2^(_TOP - 1): room for rounding up
    ws = np.ldexp(wn, shift[q])
    wi = np.rint(ws)
    # whole-number weights with a total ≤ 2^53 are summed as they are: exactly (none is
    # whole where no weight is, as the confidence weights: no query's sum to take)
    whole = np.logical_and.reduceat(is_whole, seg_start)
    exact = np.zeros(len(seg_start), bool)
    if whole.any():
        with np.errstate(over="ignore"):
            exact = whole & (np.add.reduceat(w, seg_start) <= 2.0**53)
        take = exact[q]
        wi[take] = w[take]
    tol = np.where(exact, 0, seg_len + np.ceil(_REL * seg_len * np.ldexp(total, shift))).astype(np.int64)
    smallest = np.minimum.reduceat(wi, seg_start)
    return wi.astype(np.int64), tol, smallest


def _too_wide(w: np.ndarray, q: np.ndarray, seg: int) -> None:
    ws = w[q == seg]
    raise WeightRangeError(
        f"the clause weights of a query span from {ws.min():.3g} to {ws.max():.3g}, too wide a "
        "range to tell whether their sums tie (the smallest weights are below the rounding of "
        "the largest); bring the weights closer (e.g. lower the largest rule weight)")


def weighted_median_intervals(
    qid: np.ndarray, target: np.ndarray, weight: np.ndarray, n: int, grouped: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Per query (segment `qid` in 0..n-1), the interval of minimisers of Σ w |x − t| over
    [0, 1]. Queries without terms get [0, 1] (no evidence). Exact: no solver, only sorting,
    and independent of the scale of the weights (module docstring). `grouped`: the terms of
    each query are already contiguous (only spares a sort when there is one query)."""
    lower = np.zeros(n)
    upper = np.ones(n)
    if len(target) == 0:
        return lower, upper
    order = _sort_by_query(qid, target, grouped)
    q, t, w = (qid, target, weight) if order is None else (qid[order], target[order],
                                                             weight[order])
    new = np.concatenate([[True], q[1:] != q[:-1]])
    seg_start = np.flatnonzero(new)
    seg_len = np.diff(np.append(seg_start, len(q)))
    seg = np.cumsum(new) - 1
    wi, tol, smallest = scaled_weights(seg, w, seg_start, seg_len)
    cum = np.cumsum(wi)  # exact: int64 (a wrap-around would cancel in the differences below)
    before = cum[seg_start] - wi[seg_start]
    cum_local = cum - before[seg]
    total = cum_local[seg_start + seg_len - 1]
    dev = 2 * cum_local - total[seg]  # 2 · cumulative − total, exact
    reached = dev >= -tol[seg]
    pos = np.arange(len(q))
    first = np.minimum.reduceat(np.where(reached, pos, len(q)), seg_start)
    # last index of the run of equal targets that `first` falls in
    run_end = np.concatenate([(t[1:] != t[:-1]) | (q[1:] != q[:-1]), [True]])
    ends = np.flatnonzero(run_end)
    last = ends[np.searchsorted(ends, first)]
    seg_last = seg_start + seg_len - 1
    exact = np.abs(dev[last]) <= tol
    has_next = last < seg_last
    unsure = exact & (tol > 0) & (smallest <= 2 * tol)
    if unsure.any():  # a tie within rounding, and a weight small enough to be the difference
        _too_wide(w, seg, int(np.flatnonzero(unsure)[0]))
    lo = t[first]
    hi = np.where(exact & has_next, t[np.minimum(last + 1, len(t) - 1)], lo)
    seg_q = q[seg_start]
    lower[seg_q] = lo
    upper[seg_q] = hi
    return lower, upper


def equal_weight_intervals(seg_start: np.ndarray, seg_len: np.ndarray, t: np.ndarray
                           ) -> tuple[np.ndarray, np.ndarray]:
    """Median intervals of equal-weight terms already sorted by (query, target): the middle
    order statistic(s) of each segment (no cumulative sums; exact)."""
    lo = t[seg_start + (seg_len - 1) // 2]
    hi = t[seg_start + seg_len // 2]
    return lo, hi


def unit_medians(qid: np.ndarray, target: np.ndarray, n: int, prior: int = 0
                 ) -> tuple[np.ndarray, np.ndarray] | None:
    """Median intervals per query (segment `qid` in 0..n-1) of unit-weight terms sorted by
    (query, target) and a prior term of whole weight |prior| at target 1 (prior > 0) or 0
    (prior < 0) in every query: the middle order statistics of each query's targets with
    |prior| copies of the prior's — `weighted_median_intervals` of those terms (the prior one
    term of weight |prior|) without cumulative sums. Queries without terms get [0, 1]. None
    when the terms are not so sorted (the caller falls back to the general path)."""
    qid = np.asarray(qid)
    target = np.asarray(target, dtype=np.float64)
    if prior != int(prior):
        return None
    if len(qid) > 1 and not bool(((qid[1:] > qid[:-1])
                                  | ((qid[1:] == qid[:-1]) & (target[1:] >= target[:-1]))).all()):
        return None
    count = np.bincount(qid, minlength=n)[:n]
    start = np.cumsum(count) - count
    k = abs(int(prior))
    total = count + k
    padded = np.append(target, 0.0)  # (a read outside a query's terms: the pad, replaced)

    def statistic(i: np.ndarray) -> np.ndarray:  # the i-th smallest of each query's multiset
        at = i if prior >= 0 else i - k  # the prior's copies first (at 0) or last (at 1)
        inside = (at >= 0) & (at < count)
        value = padded[np.where(inside, start + np.clip(at, 0, None), len(target))]
        return np.where(inside, value, 1.0 if prior > 0 else 0.0)

    has = total > 0
    lower = np.where(has, statistic((total - 1) // 2), 0.0)
    upper = np.where(has, statistic(total // 2), 1.0)
    return lower, upper


def equal_weight_medians(qid: np.ndarray, rank: np.ndarray, values: np.ndarray, n: int
                         ) -> tuple[np.ndarray, np.ndarray]:
    """Median intervals per query (segment `qid` in 0..n-1, any order) of equal-weight terms
    given as ranks into the sorted distinct `values`: one int64 sort of (query, rank), then
    the middle order statistics (no weights, no cumulative sums). Queries without terms get
    [0, 1]."""
    lower, upper = np.zeros(n), np.ones(n)
    if not len(qid):
        return lower, upper
    R = len(values)
    key = qid.astype(np.int64) * R + rank
    key.sort()
    q = key // R
    t = values[key - q * R]
    count = np.bincount(q, minlength=n)
    start = np.concatenate([[0], np.cumsum(count)[:-1]])
    has = count > 0
    lo, hi = equal_weight_intervals(start[has], count[has], t)
    lower[has], upper[has] = lo, hi
    return lower, upper


def counted_medians(counts: np.ndarray, values: np.ndarray, w0: int = 1,
                    terms: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Median intervals per row from `counts` (B × V): how many equal-weight terms (weight
    `w0`) of each row have each of the sorted distinct targets `values`, plus weighted
    `terms` (row, target, weight). Whole-number weights only (the caller checks that each
    row's total stays ≤ 2^53): sums are exact int64, so this is `weighted_median_intervals`'
    exact case without sorting anything — cost B × V, not B × terms. Rows without terms get
    [0, 1]."""
    B = len(counts)
    lower, upper = np.zeros(B), np.ones(B)
    if terms is not None and len(terms[0]):
        rq, rt, rw = terms
        ext = np.union1d(values, rt)
        W = np.zeros((B, len(ext)), np.int64)
        W[:, np.searchsorted(ext, values)] = counts
        if w0 != 1:
            W *= w0
        np.add.at(W, (rq, np.searchsorted(ext, rt)), rw.astype(np.int64))
    else:
        ext = values
        W = counts.astype(np.int64, copy=False)
        if w0 != 1:
            W = W * w0
    if not B or not W.shape[1]:
        return lower, upper
    cum = np.cumsum(W, axis=1)
    total = cum[:, -1]
    has = total > 0
    dev = 2 * cum - total[:, None]
    first = np.argmax(dev >= 0, axis=1)
    rows = np.arange(B)
    lo = ext[first]
    hi = lo.copy()
    tie = has & (dev[rows, first] == 0)  # flat between this target and the next one held
    if tie.any():
        later = (W[tie] > 0) & (np.arange(W.shape[1])[None, :] > first[tie][:, None])
        nxt = np.argmax(later, axis=1)
        hi[tie] = np.where(later.any(axis=1), ext[nxt], lo[tie])
    lower[has], upper[has] = lo[has], hi[has]
    return lower, upper
