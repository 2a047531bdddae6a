"""Exhaustive explanations of many rows at once on the exact median path (`explain_many`).

Rows that know the same number n of features and ask the same k share the C(n, k) candidate
sub-queries (as index combinations) and the feature sets each one settles. Each row's
relevant clauses (from its full query, `explain._SubQueries`) become one sorted table of
(row, feature-set bitmask) keys; every candidate of every row is looked up in it with one
`searchsorted`, the medians and evidence means of all (row, candidate) pairs are read in one
pass, and every row's candidates are ranked by one `np.lexsort` on `explain`'s keys.

The same explanations as one `explain` per row, bit for bit: each candidate's clauses are
found in the same order and summed by the same functions, the ranking keys come from the
same `_rank_arrays` and the candidates from the same `_candidates`; tests compare the two.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Sequence

import numpy as np

from .explain import (
    _CHUNK_LOOKUPS,
    Explanation,
    _candidates,
    _explanation,
    _labels,
    _lookup_pairs,
    _rank_arrays,
    _resolution,
    _settled_sets,
    _settled_stats,
    _SubQueries,
)
from .median import equal_weight_medians, weighted_median_intervals


def batchable(ev: _SubQueries, k: int, budget: int) -> bool:
    """Whether `explain` of `ev`'s query at k scores every candidate on the exact median
    path by subset lookups (what this module does for many rows at once)."""
    return (ev.sem == "relevant" and ev._direct and math.comb(ev.n, k) <= budget
            and ev._lookups(k) <= max(len(ev._t), 1))


def explain_rows(evs: Sequence[_SubQueries], ks: Sequence[int], positive: Sequence[bool]
                 ) -> list[Explanation]:
    """The size-k explanation of each row's query (`batchable` rows; `positive`: the side
    explained), in row order."""
    out: list[Explanation | None] = [None] * len(evs)
    groups: dict[tuple, list[int]] = {}
    for i, (ev, k) in enumerate(zip(evs, ks)):
        groups.setdefault((ev.n, k, ev._sizes, ev._equal), []).append(i)
    for (n, k, sizes, equal), idx in groups.items():
        combos = np.array(list(itertools.combinations(range(n), k)), np.int64).reshape(-1, k)
        sets = _settled_sets((np.int64(1) << combos), sizes)  # candidates × feature sets
        S = len(combos)
        # rows per batch: (row << n) | set must fit 62 bits, lookups stay ≤ _CHUNK_LOOKUPS
        per = max(1, min(1 << (62 - n), _CHUNK_LOOKUPS // max(sets.size, 1)))
        labels: dict[tuple[str, ...], list[tuple]] = {}
        for a in range(0, len(idx), per):
            part = idx[a:a + per]
            lower, upper, evm, ncl = _evaluate(
                [evs[i] for i in part], n, sets, equal)
            pos = np.array([positive[i] for i in part])[:, None]
            prim, bound, ev_key = _rank_arrays(lower, upper, evm, pos)
            lower, upper = np.round(lower, 12) + 0.0, np.round(upper, 12) + 0.0
            order = np.lexsort((np.broadcast_to(np.arange(S), prim.shape), ev_key, bound, prim),
                               axis=-1)
            ranked = [np.take_along_axis(x, order, axis=1)
                      for x in (prim, bound, ev_key, lower, upper, evm, ncl)]
            tied, resolved = _resolution(*ranked[:3])
            names, values = [], []
            for r, i in enumerate(part):
                ev = evs[i]
                if ev.names not in labels:
                    labels[ev.names] = _labels(combos, ev.names)[0]
                names.append(operator.itemgetter(*order[r].tolist())(labels[ev.names])
                             if S > 1 else labels[ev.names])
                values.append(_labels(combos[order[r]], ev.values)[0])
            cands = _candidates(names, values, *ranked[3:])
            for r, i in enumerate(part):
                out[i] = _explanation(evs[i], k, bool(positive[i]), cands[r], "exhaustive", S,
                                      int(tied[r]), resolved[r])
    return out  # type: ignore[return-value]


def _evaluate(evs: Sequence[_SubQueries], n: int, sets: np.ndarray, equal: bool
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """lower, upper, evidence mean and number of settled clauses (rows × candidates) of
    every row's candidates, whose settled feature sets are `sets` (candidates × sets)."""
    R, (S, J) = len(evs), sets.shape
    lens = [len(ev._t) for ev in evs]
    rows = np.repeat(np.arange(R, dtype=np.int64), lens)
    keys = (rows << n) | np.concatenate([ev._cmb for ev in evs]) if R else rows
    order = np.argsort(keys, kind="stable")  # equal keys keep each row's clause order
    wanted = ((np.arange(R, dtype=np.int64)[:, None, None] << n) | sets[None]).reshape(R * S, J)
    s_idx, j_idx = _lookup_pairs(keys[order], order, wanted, np.arange(R * S))
    t = np.concatenate([ev._t for ev in evs])
    w = np.concatenate([ev._w for ev in evs])
    if equal:  # every row's clauses have one weight: medians from target ranks
        values = np.unique(t)
        lo, hi = equal_weight_medians(s_idx, np.searchsorted(values, t)[j_idx], values, R * S)
    else:
        lo, hi = weighted_median_intervals(s_idx, t[j_idx], w[j_idx], R * S)
    evm, ncl = _settled_stats(s_idx, w[j_idx], (w * t)[j_idx], R * S)
    return lo.reshape(R, S), hi.reshape(R, S), evm.reshape(R, S), ncl.reshape(R, S)
