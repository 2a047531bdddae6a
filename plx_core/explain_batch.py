"""Exhaustive explanations of many rows at once on the exact median path (`explain_many`).

Rows that know the same number n of features and ask the same k share the C(n, k) candidate
sub-queries (as index combinations) and the feature sets each one settles. Each row's
relevant clauses of at most k features (from its full query, `explain._SubQueries`; a
longer clause is settled by no candidate) become one sorted table of (row, feature-set
bitmask) keys; every candidate of every row is looked up in it with one `searchsorted`, the
medians and evidence statistics of all (row, candidate) pairs are read in one pass, every row's
candidates are ranked by one `np.lexsort` on `explain`'s keys, and their values gathered in
one pass. Measured (benchmarks/RESULTS.md, bench_batch (d)): 3.3–4.0× a loop of `explain` at
30 features, k = 2; what is left per row is its full query and the 435 Candidate objects.

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
    _clause_sets,
    _ClauseSets,
    _explanation,
    _labels,
    _lookup_pairs,
    _rank_arrays,
    _resolution,
    _settled_sets,
    _settled_stats,
    _SubQueries,
    evidence_weights,
    idle_features,
    prior_decided,
    prior_only,
)
from .kb import KB
from .median import equal_weight_medians, weighted_median_intervals


def explain_rows(evs: Sequence[_SubQueries], ks: Sequence[int], positive: Sequence[bool],
                 budget: int, threshold: float = 0.5) -> list[Explanation | None]:
    """The size-k explanation of each row's query (`positive`: the side explained), in row
    order; None for a row `explain` would not score exhaustively on the exact median path by
    subset lookups (the caller explains it alone)."""
    out: list[Explanation | None] = [None] * len(evs)
    kb = evs[0].kb if evs else None
    lengths = _lengths(kb) if kb is not None else None
    groups: dict[tuple, list[int]] = {}
    sets: dict[int, _ClauseSets] = {}
    for i, (ev, k) in enumerate(zip(evs, ks)):
        if not (ev.sem == "relevant" and ev._direct and math.comb(ev.n, k) <= budget):
            continue
        cs = sets[i] = _clause_sets(ev.kb, ev.full.evidence, ev.cols, ev.names, k, lengths)
        sizes = cs.sizes  # those ≤ k: the only ones a size-k candidate looks up
        if sum(math.comb(k, s) for s in sizes) <= max(cs.n_finite, 1):  # as `evaluate` decides
            groups.setdefault((ev.n, k, sizes, cs.equal), []).append(i)
    for (n, k, sizes, equal), idx in groups.items():
        combos = np.array(list(itertools.combinations(range(n), k)), np.int64).reshape(-1, k)
        settled = _settled_sets((np.int64(1) << combos), sizes)  # candidates × feature sets
        S = len(combos)
        # rows per batch: (row << n) | set must fit 62 bits, lookups stay ≤ _CHUNK_LOOKUPS
        per = max(1, min(1 << (62 - n), _CHUNK_LOOKUPS // max(settled.size, 1)))
        labels: dict[tuple[str, ...], list[tuple]] = {}
        for a in range(0, len(idx), per):
            part = idx[a:a + per]
            lower, upper, evm, ncl, net, idle, by_prior = _evaluate(
                [sets[i] for i in part], n, combos, settled, equal)
            pos = np.array([positive[i] for i in part])[:, None]
            prim, bound, ev_key = _rank_arrays(lower, upper, net, pos, idle + by_prior)
            lower, upper = np.round(lower, 12) + 0.0, np.round(upper, 12) + 0.0
            order = np.lexsort((np.broadcast_to(np.arange(S), prim.shape), ev_key, bound, prim),
                               axis=-1)
            ranked = [np.take_along_axis(x, order, axis=1)
                      for x in (prim, bound, ev_key, lower, upper, evm, ncl, by_prior, net)]
            tied, resolved = _resolution(*ranked[:3])
            names = []
            for r, i in enumerate(part):
                ev = evs[i]
                if ev.names not in labels:
                    labels[ev.names] = _labels(combos, ev.names)[0]
                names.append(operator.itemgetter(*order[r].tolist())(labels[ev.names])
                             if S > 1 else labels[ev.names])
            # every row's values at its ranked candidates' features, as tuples, in one pass
            known = np.empty((len(part), n), dtype=object)
            known[:] = [evs[i].values for i in part]
            picked = known[np.arange(len(part))[:, None, None], combos[order]]
            flat = list(zip(*picked.reshape(-1, k).T.tolist()))
            values = [flat[r * S:(r + 1) * S] for r in range(len(part))]
            cands = _candidates(names, values, *ranked[3:])
            for r, i in enumerate(part):
                out[i] = _explanation(evs[i], k, bool(positive[i]), cands[r], "exhaustive", S,
                                      int(tied[r]), resolved[r], threshold)
    return out


def _lengths(kb: KB) -> np.ndarray:
    """Feature literals of each learned clause (from the index: no scan of the codes)."""
    out = np.zeros(kb.n_learned, np.int64)
    if kb.n_learned:
        idx = kb.index()
        out[idx.order] = idx.lengths
    return out


def _evaluate(sets: Sequence[_ClauseSets], n: int, combos: np.ndarray, settled: np.ndarray,
              equal: bool) -> tuple[np.ndarray, ...]:
    """lower, upper, evidence mean, number of settled clauses, net evidence, of idle features
    (`idle_features`) and whether the prior alone answers (`prior_decided`; rows × candidates) of every row's candidates `combos`, whose settled
    feature sets are `settled` (candidates × sets); `sets` holds each row's clauses (those
    no candidate is too small for)."""
    R, (S, J) = len(sets), settled.shape
    rows = np.repeat(np.arange(R, dtype=np.int64), [len(cs.target) for cs in sets])
    keys = (rows << n) | np.concatenate([cs.masks for cs in sets])
    order = np.argsort(keys, kind="stable")  # equal keys keep each row's clause order
    wanted = ((np.arange(R, dtype=np.int64)[:, None, None] << n) | settled[None]).reshape(R * S, J)
    s_idx, j_idx = _lookup_pairs(keys[order], order, wanted, np.arange(R * S))
    t = np.concatenate([cs.target for cs in sets])
    w = np.concatenate([cs.w for cs in sets])
    if equal:  # every row's clauses have one weight: medians from target ranks
        values, rank = np.unique(t, return_inverse=True)
        lo, hi = equal_weight_medians(s_idx, rank.ravel()[j_idx], values, R * S)
    else:
        lo, hi = weighted_median_intervals(s_idx, t[j_idx], w[j_idx], R * S)
    prior = np.concatenate([cs.prior if cs.prior is not None else np.zeros(len(cs.w), bool)
                            for cs in sets])
    if (bare := prior_only(prior, s_idx, j_idx, R * S)) is not None:  # a prior alone: [0, 1]
        lo, hi = np.where(bare, 0.0, lo), np.where(bare, 1.0, hi)
    ew = evidence_weights(w, prior)
    evm, ncl, net = _settled_stats(s_idx, ew[j_idx], (ew * t)[j_idx], R * S)
    masks = np.concatenate([cs.masks for cs in sets])
    own = np.tile((np.int64(1) << combos).sum(axis=1), R)  # each candidate's features
    idle = idle_features(s_idx, masks[j_idx], prior[j_idx], own)
    by_prior = prior_decided(prior, t, s_idx, j_idx, lo, hi)
    return tuple(x.reshape(R, S) for x in (lo, hi, evm, ncl, net, idle, by_prior))
