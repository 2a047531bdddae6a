"""The Direct KB (Algorithm 3): one clause `POS ∨ ¬K` for every feature-value set K that occurs
in a training row, with p = positives / matches — the table's data cube.

How it is counted (issue 10, "cost follows the KB, not the rows"):

* the rows are first reduced to the **distinct rows with their multiplicities** (support and
  positives), so repeated rows cost nothing;
* every feature subset S of length k gets a **level key**: the subsets of one length are
  numbered in colex order, subset i owns the key range [offset_i, offset_i + Π_{f∈S}(|dom f|+1))
  and a body's key is offset_i plus its codes (+1, 0 = missing) in mixed radix. Keys are plain
  int64 whatever the number of features (no 62-bit packing of all features), and a body's key
  is computed from its codes alone, so partial cubes (row chunks, Dask partitions) merge by key;
* each length is counted in chunks of (distinct rows × subsets) of at most `WORK` pairs, with
  one weighted `bincount` when the length's key range is small (`DENSE_MAX`), else by sorting;
  memory is the output plus a fixed working set, never rows × subsets.

The output is in canonical order: by length, then level key. Counts are sums, so the cube of a
table split in parts is `merge_counts` of the parts' cubes (`plx_core.distributed`).

**Choosing the clause-length cap.** `max_len=None` means "the largest cap that fits the memory
budget" (`choose_max_len`; every length when the whole cube fits), at most 3 on a table of
more than 12 features where 4 would count many pairs (`WIDE_MAX_LEN`, `WIDE_PAIRS`: subsets
grow as n^k), and in the default's search at most 2 where clauses of 3 cannot pay (`short_cap`). The estimate
(`estimate_bytes`) bounds the clauses by min(rows × subsets, Σ_k e_k(domain sizes)) and is
checked against tracemalloc peaks in tests/test_direct.py. An explicit `max_len` that does not
fit is refused with the cap that would.

**Where even that is too big** — a query needs only the clauses inside it, so `DirectBitmaps`
answers single queries and explanations without the cube: per-value bitmaps of the training rows,
the query's subsets counted level by level with AND + popcount, giving the query's relevant
Direct KB exactly, also beyond the cap the cube could afford. It is not used for batch
prediction: one query costs tens to hundreds of milliseconds at 10^6 rows, against microseconds
for lookups in a materialised cube (benchmarks/RESULTS.md, "Scale (issue 10)").
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .checks import checked_int
from .encoding import Encoded, as_frame, binary_target, encode
from .errors import DataError, KBTooLargeError
from .kb import KB, ClauseIndex

Visit = Callable[[int, np.ndarray, np.ndarray, np.ndarray], None]
"""What `count_rows` calls per chunk of bodies: (length, pairs' bodies, support, positives)."""

DEFAULT_MEMORY_BUDGET = 4 * 2**30
"""Bytes a Direct KB build may use by default (the issue's target machine: 4 GB)."""
WORK = 2**22
"""(distinct row, subset) pairs counted at once: the fixed working set (`BYTES_PER_PAIR` each)."""
DENSE_MAX = 2**22
"""A chunk of subsets whose key range is at most this (and at most 8 × its pairs) is counted by
`bincount` into a dense table; others by sorting."""
PAIR_LIMIT = 200_000_000
"""Default caps keep the (distinct row, subset) pairs counted under this (≈ 20–40 s)."""
CLAUSE_LIMIT = 4_000_000
"""Default caps keep the clause bound (`clause_bound`) under this: beyond it the KB is mostly
clauses of support one or two, slow to tune, index and save. (Syn 10/4 at 10^4 rows bounds at
2.9 M and stays uncapped.)"""
WIDE_FEATURES = 12
"""Beyond this many features a cap chosen by default (`choose_max_len`) is at most
`WIDE_MAX_LEN`: C(n, 4) subsets a row grow as n^4, and on wide tables the longer clauses did
not answer better (benchmarks/RESULTS.md, "Tables nobody tuned for (session 19, unseen19)":
40 weak numeric columns F1 0.609 at cap 4 vs 0.631 at 3, fit 11.5 s vs 2.0 s; the same F1 on
Breast cancer 30 in 1.7x less time)."""
WIDE_MAX_LEN = 3
"""The largest default clause-length cap of a table wider than `WIDE_FEATURES` (what the
comparison of issue 11 has always passed for such tables) where longer clauses cost
(`WIDE_PAIRS`)."""
WIDE_PAIRS = 5_000_000
"""A wide table keeps clauses longer than `WIDE_MAX_LEN` when those of one more feature count
at most this many (distinct row, subset) pairs (under a second): zoo's seven classes (101
rows, 16 columns, ~1 M) answer better uncapped (accuracy 0.955 vs 0.935 over 10 splits)."""
WIDE_CELL_ROWS = 10
"""A wide table (`WIDE_FEATURES`, `WIDE_PAIRS`) gets clauses of `WIDE_MAX_LEN` features in the
default's search (`choose_max_len(search=True)`) only where such a clause's cell holds this many training rows on average (rows / median domain
size ** length); else clauses of at most 2 (`short_cap`). On 42 rows × 100 columns of two bins a
clause of 3 holds ~5 rows, its probability is noise, and counting 161,700 subsets a row was 70%
of the fit (7× a forest's); the same answers on the 20 splits of that table at max_len 2
(benchmarks/RESULTS.md, "wide21"). The 23 comparison sets' wide ones hold 14.7 (Breast cancer
30) to 87.5 rows a cell."""
WIDE_SUBSETS = 20_000
"""A wide table gets clauses of `WIDE_MAX_LEN` features in the default's search only where they
number at most this many subsets (C(50, 3) = 19,600): counting C(120, 3) = 280,840 of them on 80 rows was 3/4 of
the fit (7.7× a forest's; 1.9 s → 0.4 s CPU at max_len 2), and on 80 rows × 120 columns (8 draws)
and 150 rows × 100 columns (6) every answer was the same at 2 (benchmarks/RESULTS.md, "wide21").
The 23 comparison sets' wide ones number 4,060 (Breast cancer 30) and 6,545 (35 columns). Not
for a named variant: the tuned Direct KB on 3,000 rows × 55 columns lost 0.04–0.06 F1 to it
(benchmarks/RESULTS.md, "review21")."""
SHIFT = 26
"""Support and positives share one float64 bincount weight (support·2^26 + positives) while the
rows number fewer than 2^26."""
BYTES_PER_PAIR = 20
"""Working-set bytes per (row, subset) pair of a chunk: the key, its weight, bincount's index."""
PREALLOC = 2**30
"""The cube's output columns are allocated at the clause bound's size up to this many bytes
(virtual: only the pages written are memory), so the levels are written in place, not joined."""
RANK_PAIRS = WORK
"""`_count_ranked` counts the cube when no level has more (distinct row, subset) pairs than this
(it keeps two levels' row orders and ranks: 16 bytes a pair), else `_count_level` does."""
RANK_STEP = 2**18
"""(distinct row, subset) pairs `_count_ranked` refines at once (its working set)."""
CHUNK_STARTS = 2**16
"""Subsets whose chunk ends `_subset_chunks` finds with one `searchsorted`."""
PER_COUNT_MIN = 2**16
"""Bodies from which `per_count` computes per (support, positives) pair, not per body."""
KEY_GROUP = 12
"""Features per pattern table of `LevelKeys.body_keys` (2^12 patterns: tables of ~0.5 MB)."""
CLAUSE_BYTES = 32
"""Bytes per output clause besides two copies of its code row (the levels' parts and the
joined block): support and positives twice, p, w, head, source. With `BYTES_PER_PAIR` and the
rows' term, measured against tracemalloc peaks in tests/test_direct.py (estimate/peak 1.0–2.1)."""


@dataclass(frozen=True)
class Counts:
    """Distinct bodies (code rows, -1 absent) with their support and positives."""

    codes: np.ndarray
    support: np.ndarray
    positives: np.ndarray
    inverse: np.ndarray | None = None
    """`distinct_rows` only: the distinct row of each input row."""
    lengths: np.ndarray | None = None
    """`count_rows` only: each body's length (the levels it was counted in)."""


def n_subsets(n_features: int, max_len: int | None) -> int:
    top = n_features if max_len is None else min(max_len, n_features)
    return sum(math.comb(n_features, k) for k in range(1, top + 1))


def level_subsets(n_features: int, max_len: int | None):
    """Yield (parent_column, added_feature, members) arrays level by level (lex order).

    Level k's subsets extend level k-1's with a feature larger than their largest one; the
    parent column indexes the previous level's key matrix (-1 for level 1).
    """
    top = n_features if max_len is None else min(max_len, n_features)
    members = [np.array([f]) for f in range(n_features)]
    last = np.arange(n_features)
    yield np.full(n_features, -1), np.arange(n_features), members
    for _ in range(2, top + 1):
        counts = n_features - 1 - last
        parent = np.repeat(np.arange(len(last)), counts)
        if len(parent) == 0:
            return
        starts = np.repeat(last + 1 - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
        added = starts + np.arange(len(parent))
        members = [np.append(members[p], a) for p, a in zip(parent.tolist(), added.tolist())]
        last = added
        yield parent, added, members


# --------------------------------------------------------------------------- memory


def _elementary(sizes: Sequence[float], top: int) -> list[float]:
    """e_0..e_top of the domain sizes: e_k = Σ over k-subsets of Π sizes (distinct k-bodies)."""
    e = [1.0] + [0.0] * top
    for s in sizes:
        for k in range(top, 0, -1):
            e[k] += e[k - 1] * float(s)
    return e


def clause_bound(n_rows: int, n_features: int, max_len: int | None,
                 domains: Sequence[int] | None = None) -> int:
    """At most this many clauses: per length, min(rows × subsets, distinct value combinations)."""
    top = n_features if max_len is None else min(max_len, n_features)
    e = _elementary(domains, top) if domains is not None else None
    total = 0.0
    for k in range(1, top + 1):
        per = float(n_rows) * math.comb(n_features, k)
        total += min(per, e[k]) if e is not None else per
    return int(min(total, 2.0**62))


def estimate_bytes(n_rows: int, n_features: int, max_len: int | None,
                   domains: Sequence[int] | None = None, distinct: int | None = None,
                   targets: int = 1) -> int:
    """Peak memory of `direct_kb` (bytes): the encoded rows, the fixed working set of a chunk,
    and the output clauses (`clause_bound`, each its code row plus `CLAUSE_BYTES`).
    `domains` are the features' numbers of values (without them every (row, subset) pair is
    assumed to be a distinct clause); `distinct` the number of distinct rows (default n_rows);
    `targets` the KBs counted at once (`direct_kbs_with_reason`: they share the code rows, each
    has its own `CLAUSE_BYTES`)."""
    d = n_rows if distinct is None else distinct
    m = clause_bound(d, n_features, max_len, domains)
    top = n_features if max_len is None else min(max_len, n_features)
    pairs = min(WORK, d * n_subsets(n_features, top)) if top else 0
    per_key = 8 * (targets + 1)  # a table a target (or support and positives), bincount's result
    dense = per_key * min(DENSE_MAX, 8 * pairs) if top else 0
    if domains is not None and top:
        dense = int(min(dense, per_key * max(_elementary([s + 1 for s in domains], top)[1:])))
    rows = n_rows * (n_features * 4 + 120) + d * n_features * 9  # encoding, distinct rows
    per_clause = 2 * n_features + targets * CLAUSE_BYTES
    return int(min(rows + pairs * BYTES_PER_PAIR + dense + float(m) * per_clause, 2.0**62)) + 2**20


def choose_max_len(n_rows: int, n_features: int, domains: Sequence[int] | None,
                   budget: int | None = None, distinct: int | None = None, targets: int = 1,
                   visits: int = 1, search: bool = False) -> tuple[int | None, str]:
    """The largest clause-length cap whose Direct KB fits `budget` bytes, counts at most
    `PAIR_LIMIT` (distinct row, subset) pairs — each seen `visits` times: the count, or the
    leave-one-out of each of several one-vs-rest classes (`direct_kbs_with_reason`'s
    `observe`) — and has at most `CLAUSE_LIMIT` clauses, and why, in words. `search`: for the
    default's model search (`PLXClassifier(variant="auto")`), which also stops at 2 on wide
    tables where clauses of 3 cannot pay (`short_cap`); a Direct KB asked for itself (a named
    variant, `direct_kb`) keeps every length the limits allow.

    Returns (None, reason) when every length fits (no cap). Raises `KBTooLargeError` only when
    not even one-literal clauses fit — the last resort."""
    budget = DEFAULT_MEMORY_BUDGET if budget is None else int(budget)
    d = n_rows if distinct is None else distinct

    def need(k: int | None) -> int:
        return estimate_bytes(n_rows, n_features, k, domains, distinct, targets)

    def pairs(k: int | None) -> int:
        return d * n_subsets(n_features, k) * max(1, visits)

    def fits(k: int | None) -> bool:
        return (need(k) <= budget and pairs(k) <= PAIR_LIMIT
                and clause_bound(d, n_features, k, domains) <= CLAUSE_LIMIT)

    wide = n_features > WIDE_FEATURES and pairs(WIDE_MAX_LEN + 1) > WIDE_PAIRS
    top = short_cap(n_rows, n_features, domains) if wide and search else None
    named = (None if top is None else  # what the limits allow a Direct KB asked for itself
             choose_max_len(n_rows, n_features, domains, budget, distinct, targets, visits)[0])
    if named is not None and named <= (top or 0):
        top = None  # the limits stop it there anyway: said as theirs, below
    if top is not None and fits(top):  # (else as below: not even that fits)
        fit, held = top, cell_rows(n_rows, domains, top + 1)
        why = (f"one of {fit + 1} would hold about {held:.0f} of the {n_rows} training rows, "
               f"fewer than {WIDE_CELL_ROWS}, too few for its probability to say much"
               if held < WIDE_CELL_ROWS else
               f"{math.comb(n_features, fit + 1):,} subsets of {fit + 1} would cost the fit more "
               f"than the rest of it (over {WIDE_SUBSETS:,}) and the default's search "
               f"answered the same without them where measured: pass max_len={fit + 1} to "
               f"keep them")
        return fit, (f"max_len={fit}: a table of more than {WIDE_FEATURES} features gets "
                     f"clauses of up to {fit} of its {n_features} features in the default's "
                     f"search (a variant named, such as \"tuned\", counts up to "
                     f"{'every length' if named is None else named}): {why} "
                     f"({_size(need(fit))} of the {_size(budget)} memory budget)")
    if not wide and fits(None):
        return None, (f"no clause-length cap: the full Direct KB over {n_features} features fits "
                      f"the memory budget ({_size(need(None))} of {_size(budget)})")
    fit = 0
    for k in range(1, (WIDE_MAX_LEN if wide else n_features) + 1):
        if not fits(k):
            break
        fit = k
    if wide and fit == WIDE_MAX_LEN:
        return fit, (f"max_len={fit}: a table of more than {WIDE_FEATURES} features gets clauses "
                     f"of up to {fit} of its {n_features} features by default ({_size(need(fit))} "
                     f"of the {_size(budget)} memory budget; {fit + 1} would count "
                     f"{pairs(fit + 1):,} (row, subset) pairs, over {WIDE_PAIRS:,})")
    if fit == 0:
        if need(1) <= budget:  # memory fits; only slow: still build it
            return 1, (f"max_len=1: only one-literal clauses, {d} distinct rows are many")
        raise KBTooLargeError(
            f"even one-literal clauses over {n_features} features from {n_rows} rows need about "
            f"{_size(need(1))} (memory budget {_size(budget)}): raise the budget, select fewer "
            "features, or use the Tree KB")
    nxt = fit + 1
    if need(nxt) > budget:
        why = f"{nxt} would need about {_size(need(nxt))}"
    elif pairs(nxt) > PAIR_LIMIT:
        why = (f"{nxt} would count {pairs(nxt):,} (row, subset) pairs, over the {PAIR_LIMIT:,} "
               "limit" if visits <= 1 else
               f"{nxt} would visit {pairs(nxt):,} (row, subset) pairs, each once for each of the "
               f"{visits} classes' leave-one-out, over the {PAIR_LIMIT:,} limit")
    else:
        why = (f"{nxt} could give up to {clause_bound(d, n_features, nxt, domains):,} clauses, "
               f"over the {CLAUSE_LIMIT:,} limit (mostly clauses of support one or two)")
    return fit, (f"max_len={fit}: clauses of up to {fit} of the {n_features} features fit the "
                 f"memory budget ({_size(need(fit))} of {_size(budget)}); {why}")


def cell_rows(n_rows: int, domains: Sequence[int], length: int) -> float:
    """The training rows a clause of `length` features holds on average: rows / median domain
    size ** length."""
    return n_rows / max(float(np.median(np.asarray(domains, float))), 1.0) ** length


def short_cap(n_rows: int, n_features: int, domains: Sequence[int] | None) -> int | None:
    """1 where a wide table has more than `WIDE_SUBSETS` pairs of features; 2 where its
    clauses of `WIDE_MAX_LEN` features would hold fewer than
    `WIDE_CELL_ROWS` training rows (`cell_rows`) or number more than `WIDE_SUBSETS` subsets,
    else None (the caps as before): the default's search only (`choose_max_len`'s `search`)."""
    if math.comb(n_features, 2) > WIDE_SUBSETS:  # past 200 features: pairs cost the same way
        return 1
    if math.comb(n_features, WIDE_MAX_LEN) > WIDE_SUBSETS:
        return 2
    if domains is None or not len(domains):
        return None
    return 2 if cell_rows(n_rows, domains, WIDE_MAX_LEN) < WIDE_CELL_ROWS else None


def _size(b: float) -> str:
    """A number of bytes in words: GiB, MiB, or KiB below one MiB (not "0 MiB")."""
    if b >= 2**30:
        return f"{b / 2**30:.1f} GiB"
    return f"{b / 2**20:.0f} MiB" if b >= 2**20 else f"{b / 2**10:.0f} KiB"


def parse_size(text: str | int | float) -> int:
    """'4GB', '512 MiB', '2e9' → bytes (GB and GiB both mean 2^30 here)."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        value, unit = float(text), ""
    else:
        s = str(text).strip().upper().replace(" ", "")
        num = s.rstrip("KMGTIB")
        unit = s[len(num):]
        try:
            value = float(num)
        except ValueError:
            raise DataError(f"memory budget {text!r} is not a size such as 4GB or 512MB") from None
    mult = {"": 1, "B": 1, "K": 2**10, "KB": 2**10, "KIB": 2**10, "M": 2**20, "MB": 2**20,
            "MIB": 2**20, "G": 2**30, "GB": 2**30, "GIB": 2**30, "T": 2**40, "TB": 2**40,
            "TIB": 2**40}.get(unit)
    if mult is None or not value > 0 or not math.isfinite(value):
        raise DataError(f"memory budget {text!r} is not a positive size such as 4GB or 512MB")
    return int(value * mult)


# --------------------------------------------------------------------------- level keys


@functools.lru_cache(maxsize=32)
def colex_members(n_features: int, k: int) -> np.ndarray:
    """The k-subsets of range(n_features) in colex order (C(F, k) × k, ascending members)."""
    if k == 1:
        out = np.arange(n_features, dtype=np.int64)[:, None]
    else:
        prev = colex_members(n_features, k - 1)
        blocks = [np.hstack([prev[: math.comb(m, k - 1)], np.full((math.comb(m, k - 1), 1), m)])
                  for m in range(k - 1, n_features)]
        out = np.vstack(blocks) if blocks else np.zeros((0, k), np.int64)
    out.setflags(write=False)
    return out


@dataclass(frozen=True)
class LevelKeys:
    """Level keys of bodies of length k (see the module docstring) for features with
    `radix[f]` = number of values + 1."""

    radix: np.ndarray  # int64, per feature
    top: int  # longest length keyed

    @classmethod
    def for_domains(cls, sizes: Sequence[int], max_len: int | None) -> LevelKeys:
        F = len(sizes)
        top = F if max_len is None else min(max_len, F)
        return cls(np.asarray(sizes, np.int64) + 1, top)

    @functools.cached_property
    def _levels(self) -> dict:
        return {}

    def level(self, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(members C × k, multipliers C × k, offsets C + 1) of length k."""
        cache = self._levels
        if k not in cache:
            mem = colex_members(len(self.radix), k)
            r = self.radix[mem]
            mult = np.ones_like(r)
            if k > 1:
                mult[:, 1:] = np.cumprod(r[:, :-1], axis=1)
            span = r.prod(axis=1) if len(r) else np.zeros(0, np.int64)
            if len(r) and float(np.prod(r.astype(float), axis=1).sum()) >= 2**62:
                raise KBTooLargeError(
                    f"clauses of {k} literals have too many value combinations to count "
                    "(more than 2^62); pass a smaller max_len")
            offsets = np.concatenate([[0], np.cumsum(span)]).astype(np.int64)
            cache[k] = (mem, mult, offsets)
        return cache[k]

    def subset_keys(self, digits_t: np.ndarray, k: int, lo: int, hi: int, base: int = 0
                    ) -> np.ndarray:
        """Keys − base (subsets lo..hi × rows) of rows given as digits (F × rows, code + 1);
        int32 when the range allows (half the memory traffic)."""
        mem, mult, offsets = self.level(k)
        dt = np.int32 if offsets[hi] - base < 2**31 else np.int64
        keys = np.repeat((offsets[lo:hi, None] - base).astype(dt), digits_t.shape[1], axis=1)
        for i in range(k):
            keys += digits_t[mem[lo:hi, i]] * mult[lo:hi, i, None].astype(dt)
        return keys

    def valid(self, digits_t: np.ndarray, k: int, lo: int, hi: int) -> np.ndarray:
        """Which (subset, row) pairs have every member present (digit > 0)."""
        mem = self.level(k)[0]
        ok = digits_t[mem[lo:hi, 0]] > 0
        for i in range(1, k):
            ok &= digits_t[mem[lo:hi, i]] > 0
        return ok

    def decode(self, k: int, keys: np.ndarray, n_features: int) -> np.ndarray:
        """Code rows (len(keys) × F, -1 absent; int64) of length-k keys; rows with a missing
        member get -1 on it (callers drop them). The digits are peeled off least significant
        first (key = Σ digit_i · Π_{j<i} radix_j); in float64 when every key is below 2^52,
        where floor(a / r) is exact and far cheaper than integer division."""
        mem, _, offsets = self.level(k)
        R = self.radix[mem]
        if len(keys) < 2 or (keys[1:] >= keys[:-1]).all():  # ascending (as counted): runs
            counts = np.diff(np.searchsorted(keys, offsets))
            local = keys - np.repeat(offsets[:-1], counts)

            def per_key(col: np.ndarray) -> np.ndarray:
                return np.repeat(col, counts)
        else:
            rank = np.searchsorted(offsets, keys, "right") - 1
            local = keys - offsets[rank]

            def per_key(col: np.ndarray) -> np.ndarray:
                return col[rank]
        out = np.full((len(keys), n_features), -1, self.code_dtype())
        flat = out.reshape(-1)
        base = np.arange(len(keys), dtype=np.int64) * n_features
        exact = float(offsets[-1]) < 2.0**52
        if exact:
            local = local.astype(np.float64)
        for i in range(k):
            r = per_key(R[:, i])
            if exact:
                q = np.floor(local / r)
                d = local - q * r
            else:
                q, d = np.divmod(local, r)
            flat[base + per_key(mem[:, i])] = d - 1
            local = q
        return out

    def code_dtype(self) -> np.dtype:
        """The smallest integer type of the code rows `decode` gives (codes below the radix)."""
        top = int(self.radix.max(initial=1))
        return np.dtype(np.int8 if top <= 127 else np.int16 if top <= 32767 else np.int32)

    def body_keys(self, codes: np.ndarray, step: int = 2**15, lengths: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
        """(length, level key) of clause bodies given as code rows (-1 absent), `step` rows at
        a time. The features are taken in groups of up to `KEY_GROUP`: within a group, which
        features a body holds (its pattern, one small integer) gives by table lookup its
        length, its part of the colex rank Σ C(m_i, i) (given the members before the group),
        its digits' multipliers and their product, so a body costs one pass over its codes
        whatever its length. `lengths`: the bodies' lengths when known (`KB.lengths`)."""
        codes = np.asarray(codes)
        lengths = (codes >= 0).sum(axis=1) if lengths is None else lengths
        keys = np.zeros(len(codes), np.int64)
        present = [k for k in np.flatnonzero(np.bincount(lengths)).tolist() if k > 0]
        if not present:
            return lengths, keys
        top = present[-1]
        # the offsets of every present length side by side (first a 0 for length 0); base[k]:
        # where length k's start
        base = np.zeros(top + 1, np.int64)
        parts = [np.zeros(1, np.int64)]
        for k in present:
            base[k] = sum(len(x) for x in parts)
            parts.append(self.level(k)[2][:-1])
        flat = np.concatenate(parts)
        groups = [self._pattern_tables(slice(a, min(a + KEY_GROUP, codes.shape[1])), top)
                  for a in range(0, codes.shape[1], KEY_GROUP)]
        for s in range(0, len(codes), step):
            part = codes[s : s + step]
            mult = 1  # the radix product of the digits held before the group
            for i, (cols, g_cnt, g_rank, g_mult, g_prod) in enumerate(groups):
                sub = part[:, cols]
                pat = _held_patterns(sub)
                digits = np.einsum("ij,ij->i", sub.astype(np.int64) + 1, g_mult[pat])
                if i == 0:  # nothing held before the first group
                    rank, key, cnt = g_rank[pat, 0], digits, g_cnt[pat]
                else:
                    rank += g_rank[pat, np.minimum(cnt, top)]
                    key += digits * mult
                    cnt += g_cnt[pat]
                if i < len(groups) - 1:
                    mult = mult * g_prod[pat]
            keys[s : s + len(part)] = flat[base[cnt] + rank] + key
        return lengths, keys

    def _pattern_tables(self, cols: slice, top: int) -> tuple:
        """Per pattern of the features `cols` (bit j: holds cols[j]; `_held_patterns`): (cols,
        number held, rank part per number held before the group (0..top), the held digits'
        multipliers within the group, their radix product)."""
        features = np.arange(len(self.radix))[cols]
        g = len(features)
        pats = np.arange(1 << g, dtype=np.int64)
        held = ((pats[:, None] >> np.arange(g)) & 1).astype(bool)
        before = np.arange(top + 1)[None, :]
        n_held = np.zeros(len(pats), np.int64)
        rank = np.zeros((len(pats), top + 1), np.int64)
        mult = np.zeros((len(pats), g), np.int64)
        prod = np.ones(len(pats), np.int64)
        for j, f in enumerate(features.tolist()):
            h = held[:, j]
            n_held += h
            # C(f, i) for i = before + n_held (≤ top; a longer body is never asked); capped:
            # a term of a length whose level exists is below 2^62
            comb = np.array([min(math.comb(f, i), 2**62) for i in range(top + 1)] + [0], np.int64)
            at = np.minimum(before + n_held[:, None], top + 1)
            rank += np.where(h[:, None], comb[at], 0)
            mult[:, j] = np.where(h, prod, 0)
            prod = np.where(h, prod * self.radix[f], prod)
        return cols, n_held.astype(np.intp), rank, mult, prod


def _held_patterns(sub: np.ndarray) -> np.ndarray:
    """Per code row, which columns hold a value (≥ 0) as one integer (bit j: column j)."""
    return (sub >= 0) @ (np.int64(1) << np.arange(sub.shape[1], dtype=np.int64))


# --------------------------------------------------------------------------- counting


def row_keys(codes: np.ndarray, radix: np.ndarray) -> list[np.ndarray]:
    """Whole code rows as int64 words (mixed radix over groups of features, each < 2^62):
    equal rows ⇔ equal words. One word unless the features' value combinations exceed 2^62."""
    words, cur, span = [], None, 1
    for f in range(codes.shape[1]):
        r = int(radix[f])
        if cur is None or span * r >= 2**62:
            if cur is not None:
                words.append(cur)
            cur, span = np.zeros(len(codes), np.int64), 1
        cur += (codes[:, f].astype(np.int64) + 1) * span
        span *= r
    if cur is not None:
        words.append(cur)
    return words


def distinct_rows(codes: np.ndarray, y: np.ndarray, weight: np.ndarray | None = None,
                  radix: np.ndarray | None = None) -> Counts:
    """The distinct code rows with how many rows (support) and positive rows each has, and
    which distinct row each row is (`inverse`); `y` n × K (one column a one-vs-rest target)
    gives positives d × K."""
    codes = np.asarray(codes)
    w = np.ones(len(codes), np.int64) if weight is None else np.asarray(weight, np.int64)
    if len(codes) == 0:
        return Counts(codes.reshape(0, codes.shape[1] if codes.ndim == 2 else 0),
                      np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64))
    if radix is None:
        radix = codes.max(axis=0).astype(np.int64) + 2
    words = row_keys(codes, radix)
    if len(words) == 1:
        _, first, inv = np.unique(words[0], return_index=True, return_inverse=True)
    else:
        order = np.lexsort(words[::-1])
        new = np.zeros(len(order), bool)
        new[0] = True
        for wd in words:
            s = wd[order]
            new[1:] |= s[1:] != s[:-1]
        grp = np.cumsum(new) - 1
        inv = np.empty(len(order), np.int64)
        inv[order] = grp
        first = order[new]
    inv = inv.ravel()
    uniq = codes[first]
    sup = np.bincount(inv, weights=w, minlength=len(uniq)).astype(np.int64)
    yy = np.asarray(y, np.int64)
    pos = np.column_stack([np.bincount(inv, weights=w * col, minlength=len(uniq))
                           for col in yy.reshape(len(yy), -1).T]).astype(np.int64)
    return Counts(uniq, sup, pos if yy.ndim == 2 else pos[:, 0], inv)


def _subset_chunks(offsets: np.ndarray, cstep: int) -> Iterator[tuple[int, int, int]]:
    """Consecutive subset ranges [lo, hi) of at most `cstep` subsets whose key range is at most
    `DENSE_MAX` (a single subset may exceed it), with that key range. Each start's end is
    found for `CHUNK_STARTS` starts at once (one `searchsorted`; a level of long bodies is
    hundreds of one-subset chunks)."""
    C = len(offsets) - 1
    lo, base, ends, spans = 0, 0, [], []
    while lo < C:
        if lo >= base + len(ends):
            base = lo
            s = np.arange(lo, min(C, lo + CHUNK_STARTS))
            reach = np.searchsorted(offsets, offsets[s] + DENSE_MAX, "right") - 1
            hi = np.maximum(s + 1, np.minimum(np.minimum(reach, s + cstep), C))
            ends, spans = hi.tolist(), (offsets[hi] - offsets[s]).tolist()
        hi = ends[lo - base]
        yield lo, hi, spans[lo - base]
        lo = hi


def _level_chunks(offsets: np.ndarray, cstep: int, d: int, merge: bool
                  ) -> Iterator[tuple[int, int, bool]]:
    """(lo, hi, dense) chunks of a level's subsets for `d` distinct rows: `_subset_chunks`,
    each counted by `bincount` when its key range is small (`DENSE_MAX`, at most 8 keys a
    pair), else by sorting — and with `merge` (every row in one chunk), consecutive sorted
    chunks joined up to `cstep` subsets: one sort of many subsets instead of a sort per
    subset (each with a key range over `DENSE_MAX`: 792 sorts of 700 keys for 7-literal
    bodies over 12 features of 8 values)."""
    run: tuple[int, int] | None = None
    for lo, hi, span in _subset_chunks(offsets, cstep):
        dense = span <= min(DENSE_MAX, 8 * (hi - lo) * d)
        if not dense and merge and run is not None and hi - run[0] <= cstep:
            run = (run[0], hi)
            continue
        if run is not None:
            yield run[0], run[1], False
            run = None
        if dense:
            yield lo, hi, True
        else:
            run = (lo, hi)
    if run is not None:
        yield run[0], run[1], False


def _count_level(lk: LevelKeys, rows: Counts, k: int, has_missing: bool, out: _Cube,
                 visit: Visit | None = None) -> None:
    """Add the length-k bodies of the distinct rows to `out` in key order (code rows, support,
    positives). When every row fits one chunk, a body's code row is copied from one (subset,
    row) pair that holds it (the row's codes on the subset's members) instead of decoded from
    its key; and `visit(k, at, support, positives)` is called per chunk of subsets with the
    chunk's bodies (in key order) and `at` (chunk subsets × distinct rows): the body of each
    (subset, row) pair, len(support) where the row misses a member."""
    mem, _, offsets = lk.level(k)
    C, d, F = len(mem), len(rows.support), rows.codes.shape[1]
    if C == 0 or d == 0:
        return
    digits_t = np.ascontiguousarray((rows.codes.astype(np.int64) + 1).T)
    if digits_t.max(initial=0) < 127:
        digits_t = digits_t.astype(np.int8)
    rstep = min(d, WORK)
    cstep = max(1, WORK // rstep)
    whole = rstep == d
    if not whole:
        visit = None
    else:  # bodies' code rows from the pairs that hold them: the row's codes on the members
        dtype = lk.code_dtype()
        row_codes = rows.codes.astype(dtype) + dtype.type(1)  # 0: missing
        members = np.zeros((C, F), dtype)
        members[np.arange(C)[:, None], mem] = 1
    total = int(rows.support.sum())
    many = rows.positives.ndim == 2  # several targets (one-vs-rest): their positives each
    targets = rows.positives.reshape(d, -1).T
    # one label a distinct row (one-vs-rest classes): every target's positives from one
    # bincount of (body, label) pairs, not a weighted bincount a target (`_row_labels`)
    label = _row_labels(rows) if whole else None
    # one weighted bincount counts both: support·2^SHIFT + positives is exact in float64
    packed = total < 2**SHIFT and label is None
    if label is not None:
        unit = bool((rows.support == 1).all())  # every pair weighs 1: unweighted bincounts
        weights = [None if unit else rows.support.astype(np.float64)]
    elif packed:
        weights = [rows.support.astype(np.float64) * 2.0**SHIFT + t for t in targets]
    else:
        weights = [rows.support.astype(np.float64), *(t.astype(np.float64) for t in targets)]
    for lo, hi, dense in _level_chunks(offsets, cstep, d, whole):
        a, b = int(offsets[lo]), int(offsets[hi])
        tabs = [np.zeros(b - a) for _ in weights] if dense else None
        parts: list[tuple[np.ndarray, ...]] = []
        at = rep = ok = None
        for r0 in range(0, d, rstep):
            r1 = min(d, r0 + rstep)
            dt = digits_t[:, r0:r1]
            keys = lk.subset_keys(dt, k, lo, hi, base=a)
            pair_keys = keys if visit is not None or label is not None else None
            shape = keys.shape
            if has_missing:
                ok = lk.valid(dt, k, lo, hi)
                keys = keys[ok]
            else:
                keys = keys.ravel()

            def paired(w: np.ndarray | None, r0: int = r0, r1: int = r1, shape: tuple = shape,
                       ok: np.ndarray | None = ok) -> np.ndarray | None:
                """A distinct row's weight on each of its (subset, row) pairs: made one
                weight at a time, so several targets cost no more memory than one."""
                if w is None:  # unweighted
                    return None
                wide = np.broadcast_to(w[None, r0:r1], shape)
                return wide[ok] if ok is not None else wide.ravel()

            if dense:
                for tab, w in zip(tabs, weights):
                    tab += np.bincount(keys, weights=paired(w), minlength=b - a)
                dense_keys = keys
            else:
                uk, inv, rep = _unique_keys(keys, b - a)
                parts.append((uk, *[np.bincount(inv, weights=paired(w), minlength=len(uk))
                                    for w in weights]))
                if visit is not None or label is not None:  # the pairs' bodies: their ranks
                    if ok is None:
                        at = inv.reshape(pair_keys.shape)
                    else:
                        at = np.full(pair_keys.shape, len(uk), np.int64)
                        at[ok] = inv
            del keys
        copy_rows = whole
        if dense:
            nz = np.flatnonzero(tabs[0])
            vals = [t[nz] for t in tabs]
            # a pair per body costs a pass over the pairs; decoding, k digits per body: copy
            # where bodies are many for their pairs (long bodies), decode where few are
            copy_rows = whole and 2 * k * len(nz) > len(dense_keys)
            if copy_rows:  # any pair of each key (the one written last)
                rep = np.empty(b - a, np.int64)
                rep[dense_keys] = np.arange(len(dense_keys))
                rep = rep[nz]
            del dense_keys
            if visit is not None or label is not None:  # a key no valid pair has (a missing
                rank = np.full(b - a, len(nz), np.int32)  # member) counts 0: none
                rank[nz] = np.arange(len(nz), dtype=np.int32)
                at = rank[pair_keys]
            keys = nz.astype(np.int64) + a
        else:
            keys, *vals = _sum_by_key(parts)
            keys = np.asarray(keys, np.int64) + a
        if label is not None:
            sup, pos = vals[0].astype(np.int64), _label_counts(at, label, len(keys), weights[0])
        elif packed:
            v = np.column_stack(vals).astype(np.int64)
            sup, pos = v[:, 0] >> SHIFT, v & (2**SHIFT - 1)
        else:
            sup, pos = vals[0].astype(np.int64), np.column_stack(vals[1:]).astype(np.int64)
        if not many:
            pos = pos[:, 0]
        if visit is not None:
            visit(k, at, sup, pos)
        body = out.add(k, sup, pos)
        if copy_rows:
            if ok is not None:  # positions among the valid pairs → among all pairs
                rep = np.flatnonzero(ok)[rep]
            sub, row = np.divmod(rep, d)
            # (code + 1) · member − 1, gathered straight into the output: no np.where
            np.take(row_codes, row, axis=0, out=body, mode="clip")
            body *= np.take(members, sub + lo, axis=0)
            body -= dtype.type(1)
        else:
            body[...] = lk.decode(k, keys, F)


def _row_labels(rows: Counts) -> tuple[np.ndarray, int] | None:
    """(each distinct row's target, the number of targets K) when every distinct row's rows
    are positive for at most one target and for that one all of them (one-vs-rest classes
    whose rows with the same codes share a class; K: none of the targets), else None — or
    for a single target, where one packed bincount already counts both."""
    pos = rows.positives
    if pos.ndim != 2 or pos.shape[1] < 2 or not len(pos):
        return None
    held = pos > 0
    if (held.sum(axis=1) > 1).any():
        return None
    which = np.where(held.any(axis=1), held.argmax(axis=1), pos.shape[1])
    got = pos[np.arange(len(pos)), np.minimum(which, pos.shape[1] - 1)]
    if not np.array_equal(np.where(which < pos.shape[1], got, rows.support), rows.support):
        return None
    return which.astype(np.int64), pos.shape[1]


def _label_counts(at: np.ndarray, label: tuple[np.ndarray, int], m: int,
                  support: np.ndarray | None) -> np.ndarray:
    """Positives (m × K) of a chunk's m bodies for each of the K targets: one bincount of
    (body, target) over the (subset, distinct row) pairs `at` (body index, m: none), each
    pair weighing its row's support (None: 1) — `_row_labels`' rows are positive for their
    one target on all their rows. Exact: sums of whole numbers."""
    which, K = label
    idx = at.astype(np.int64)
    idx *= K + 1
    idx += which[None, :]
    w = None if support is None else np.broadcast_to(support[None, :], at.shape).ravel()
    got = np.bincount(idx.ravel(), weights=w, minlength=(m + 1) * (K + 1))
    return got.reshape(m + 1, K + 1)[:m, :K].astype(np.int64)


def _unique_keys(keys: np.ndarray, span: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`np.unique(keys, return_inverse=True)` of keys in [0, span), and the position of one
    occurrence of each: one sort of key·2^b + position (int64; a plain sort is several times
    faster than the argsort `np.unique` does) where that fits in 62 bits."""
    n = len(keys)
    bits = max(1, int(n - 1).bit_length())
    if span >= 2 ** (62 - bits):
        uk, inv = np.unique(keys, return_inverse=True)
        rep = np.empty(len(uk), np.int64)
        rep[inv] = np.arange(n)
        return uk, inv, rep
    packed = keys.astype(np.int64)
    packed <<= bits
    packed |= np.arange(n)
    packed.sort()
    at = packed & ((1 << bits) - 1)
    packed >>= bits
    new = np.empty(n, bool)
    new[:1] = True
    np.not_equal(packed[1:], packed[:-1], out=new[1:])
    ids = np.cumsum(new)
    ids -= 1
    inv = np.empty(n, np.int64)
    inv[at] = ids
    return packed[new], inv, at[new]


def _sum_by_key(parts: list[tuple[np.ndarray, ...]]) -> tuple[np.ndarray, ...]:
    """Merge (keys, values…) parts: one entry per key with the values summed, keys ascending."""
    if len(parts) == 1:
        return parts[0]
    keys = np.concatenate([p[0] for p in parts])
    uk, inv = np.unique(keys, return_inverse=True)
    sums = [np.bincount(inv, weights=np.concatenate([p[j] for p in parts]), minlength=len(uk))
            for j in range(1, len(parts[0]))]
    return (uk, *sums)


def count_rows(codes: np.ndarray, y: np.ndarray, sizes: Sequence[int], max_len: int | None,
               weight: np.ndarray | None = None, rows: Counts | None = None,
               visit: Visit | None = None) -> Counts:
    """Support and positives of every feature-value set (size ≤ max_len) seen in the rows
    (`codes` n × F, -1 missing; `sizes` the features' numbers of values), canonical order.
    `rows` may pass the rows' `distinct_rows` when already computed; `visit` sees every chunk
    of bodies with the (subset, distinct row) pairs that hold them (`_count_level`) when the
    distinct rows fit one chunk (`WORK`)."""
    lk = LevelKeys.for_domains(sizes, max_len)
    if rows is None:
        rows = distinct_rows(codes, y, weight, lk.radix)
    F = len(sizes)
    has_missing = bool((rows.codes < 0).any())
    out = _Cube(clause_bound(len(rows.support), F, lk.top, sizes), F, lk.code_dtype(),
                rows.positives.shape[1:])
    if _ranked_fits(lk, len(rows.support), int(rows.support.sum())):
        _count_ranked(lk, rows, has_missing, out, visit)
    else:
        for k in range(1, lk.top + 1):
            _count_level(lk, rows, k, has_missing, out, visit)
    return out.counts()


def _ranked_fits(lk: LevelKeys, d: int, total: int) -> bool:
    """Whether `_count_ranked` counts these `d` distinct rows (of `total` rows): every level's
    (subset, row) pairs at most `RANK_PAIRS` (it keeps two levels' row orders and ranks), and
    a support below 2^31 (it sums support · 2^32 + positives in one int64)."""
    F = len(lk.radix)
    return 0 < d and total < 2**31 and d * max((math.comb(F, k) for k in range(1, lk.top + 1)), default=0) <= RANK_PAIRS


def _count_ranked(lk: LevelKeys, rows: Counts, has_missing: bool, out: _Cube,
                  visit: Visit | None = None) -> None:
    """`_count_level` of every length at once, without sorting keys: a subset S's bodies in
    key order are its parent's (S without its last member, one length shorter) refined by the
    last member's digit, the most significant in S's key. Each (subset, row) pair keeps the
    rank of its body within its subset and each subset the order of its rows by body, so a
    level is one stable sort of a small-integer digit per subset row (a radix sort) and a
    comparison with the neighbour — not a sort of (subset, row) keys (Syn 12/4: 700 rows ×
    4,095 subsets). Same bodies, counts, order and `visit` calls (per chunk of subsets) as
    `_count_level`. A missing digit (0) sorts first and holds no body (rank −1)."""
    d, F = rows.codes.shape
    digits_t = (rows.codes.astype(np.int64) + 1).T
    top_digit = int(digits_t.max(initial=0))
    digits_t = np.ascontiguousarray(digits_t.astype(
        np.int8 if top_digit < 127 else np.int16 if top_digit < 32767 else np.int32))
    dtype = lk.code_dtype()
    row_codes = rows.codes.astype(dtype) + dtype.type(1)  # 0: missing
    many = rows.positives.ndim == 2
    # each distinct row's support and positives in one int64 a target: support · 2^32 +
    # positives, summed by one reduceat (exact: the support is below 2^31, `_ranked_fits`)
    packed = [(rows.support.astype(np.int64) << 32) + p.astype(np.int64)
              for p in rows.positives.reshape(d, -1).T]
    order = np.arange(d, dtype=np.int32)[None, :]  # per subset: its rows by body (level 0: ∅)
    rank = np.zeros((1, d), np.int32)  # per (subset, row): its body's rank in the subset, −1: none
    step = max(1, RANK_STEP // d)
    for k in range(1, lk.top + 1):
        mem = lk.level(k)[0]
        C = len(mem)
        last = mem[:, -1]
        # colex: S = P ∪ {m} (m above P's members) sits at C(m, k) + P's index
        parent = np.arange(C) - np.array([math.comb(int(m), k) for m in range(F)], np.int64)[last]
        members = np.zeros((C, F), dtype)
        members[np.arange(C)[:, None], mem] = 1
        new_order = np.empty((C, d), np.int32)
        new_rank = np.empty((C, d), np.int32)
        for lo in range(0, C, step):
            hi = min(C, lo + step)
            par = parent[lo:hi]
            # flat indices into (subsets × rows) arrays: no take_along_axis index grids
            here = (np.arange(hi - lo, dtype=np.int64) * d)[:, None]
            by_parent = order[par]
            digit = digits_t.reshape(-1)[(last[lo:hi] * d)[:, None] + by_parent]
            prank_at = (par * d)[:, None]  # where each subset's parent's ranks start
            if has_missing:  # a pair whose parent holds no body holds none either
                digit[rank.reshape(-1)[prank_at + by_parent] < 0] = 0
            o = np.argsort(digit, axis=1, kind="stable")
            o += here
            srt = by_parent.reshape(-1)[o]
            ds = digit.reshape(-1)[o]
            del o, by_parent, digit  # (the working set: tests/test_direct.py's peaks)
            rs = rank.reshape(-1)[prank_at + srt]
            new = np.empty(ds.shape, bool)
            new[:, 0] = True
            np.not_equal(ds[:, 1:], ds[:, :-1], out=new[:, 1:])
            new[:, 1:] |= rs[:, 1:] != rs[:, :-1]
            del rs
            valid = ds > 0 if has_missing else None
            del ds
            if valid is not None:
                new &= valid
            cum = np.cumsum(new, axis=1, dtype=np.int32)
            cum -= 1  # missing pairs sort first: −1
            new_order[lo:hi] = srt
            new_rank.reshape(-1)[srt + here + lo * d] = cum
            n_body = cum[:, -1].astype(np.int64) + 1
            m = int(n_body.sum())
            starts = np.flatnonzero(new.reshape(-1))
            flat_rows = srt.reshape(-1)
            sup = np.zeros(m, np.int64)
            pos = np.zeros((m, len(packed)), np.int64)
            for j in range(len(packed) if m else 0):  # one target at a time (memory)
                w = packed[j][flat_rows]
                if valid is not None:  # missing pairs add nothing to the body before them
                    w[~valid.reshape(-1)] = 0
                v = np.add.reduceat(w, starts)
                sup, pos[:, j] = v >> 32, v & np.int64(2**32 - 1)
            if not many:
                pos = pos[:, 0]
            if visit is not None:
                first = np.concatenate([[0], np.cumsum(n_body)[:-1]]).astype(np.int64)
                at = new_rank[lo:hi] + first[:, None]
                if valid is not None:
                    at[new_rank[lo:hi] < 0] = m
                visit(k, at, sup, pos)
            body = out.add(k, sup, pos)
            # a body's code row: the row's codes on the members, from its first pair
            sub = starts // d
            np.take(row_codes, flat_rows[starts], axis=0, out=body, mode="clip")
            body *= np.take(members, sub + lo, axis=0)
            body -= dtype.type(1)
        order, rank = new_order, new_rank


class _Cube:
    """The cube's columns (code rows, support, positives, lengths) as the levels add them:
    written into arrays of the clause bound's size when those take at most `PREALLOC` bytes
    (pages never written cost no memory), else kept in parts and joined at the end — either
    way no level's parts are copied a second time."""

    def __init__(self, bound: int, F: int, dtype: np.dtype, targets: tuple[int, ...] = ()) -> None:
        self.F, self.dtype, self.m, self.targets = F, dtype, 0, targets
        self.parts: list[tuple[np.ndarray, ...]] | None = None
        if bound * (F * dtype.itemsize + 16 + 8 * math.prod(targets)) <= PREALLOC:
            self.cols = (np.empty((bound, F), dtype), np.empty(bound, np.int64),
                         np.empty((bound, *targets), np.int64), np.empty(bound, np.int64))
        else:
            self.parts = []

    def add(self, k: int, sup: np.ndarray, pos: np.ndarray) -> np.ndarray:
        """Append bodies of length k with these counts; returns their code rows to fill in."""
        n = len(sup)
        if self.parts is None and self.m + n > len(self.cols[1]):  # beyond the bound: parts
            self.parts = [tuple(c[: self.m] for c in self.cols)]
        if self.parts is not None:
            part = (np.empty((n, self.F), self.dtype), sup, pos, np.full(n, k, np.int64))
            self.parts.append(part)
            self.m += n
            return part[0]
        codes, s, p, lengths = self.cols
        a, b = self.m, self.m + n
        s[a:b], p[a:b], lengths[a:b] = sup, pos, k
        self.m = b
        return codes[a:b]

    def counts(self) -> Counts:
        if self.parts is None:
            return Counts(*(c[: self.m] for c in self.cols[:3]), lengths=self.cols[3][: self.m])
        if not self.parts:
            return Counts(np.zeros((0, self.F), self.dtype), np.zeros(0, np.int64),
                          np.zeros((0, *self.targets), np.int64), lengths=np.zeros(0, np.int64))
        codes, sup, pos, lengths = (np.concatenate([p[j] for p in self.parts]) for j in range(4))
        return Counts(codes, sup, pos, lengths=lengths)


def _concat(codes: list, sup: list, pos: list, F: int) -> Counts:
    if not codes:
        return Counts(np.zeros((0, F), np.int8), np.zeros(0, np.int64), np.zeros(0, np.int64))
    dtype = np.result_type(*[c.dtype for c in codes])
    return Counts(np.vstack(codes).astype(dtype, copy=False), np.concatenate(sup),
                  np.concatenate(pos))


def count_bodies(enc: Encoded, y: np.ndarray, max_len: int | None = None) -> Counts:
    """Support and positives of every feature-value set (size ≤ max_len) seen in the rows."""
    sizes = [len(enc.domains[f]) for f in enc.features]
    return count_rows(enc.codes, y, sizes, max_len)


def merge_counts(parts: Iterable[Counts], sizes: Sequence[int], max_len: int | None) -> Counts:
    """The cube of the union of the parts' rows: identical bodies summed, canonical order
    (the same result as counting all the rows at once)."""
    parts = [p for p in parts if len(p.support)]
    F = len(sizes)
    if not parts:
        return _concat([], [], [], F)
    lk = LevelKeys.for_domains(sizes, max_len)
    codes = np.vstack([p.codes.astype(np.int64) for p in parts])
    sup = np.concatenate([p.support for p in parts])
    pos = np.concatenate([p.positives for p in parts])
    lengths, keys = lk.body_keys(codes)
    out_codes, out_sup, out_pos = [], [], []
    for k in range(1, lk.top + 1):
        sel = lengths == k
        if not sel.any():
            continue
        uk, s, p = _sum_by_key([(keys[sel], sup[sel], pos[sel]), (np.zeros(0, np.int64),) * 3])
        out_codes.append(lk.decode(k, uk, F))
        out_sup.append(np.asarray(s, np.int64))
        out_pos.append(np.asarray(p, np.int64))
    return _concat(out_codes, out_sup, out_pos, F)


# --------------------------------------------------------------------------- the KB


def kb_from_counts(counts: Counts, features: Sequence[str], domains: dict, positive: str,
                   max_len: int | None, n_rows: int | None = None,
                   p_of: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None) -> KB:
    """The Direct KB of counted bodies: p = positives / support (`p_of(support, positives)`
    when given: a class-corrected p, `variants.corrected_ratio`), unit weights (the bodies'
    lengths, when counted, kept as `KB.lengths`); `n_rows` the rows counted (what a rule's
    weight is weighed against, `KB.rule_unit`)."""
    m = len(counts.support)
    lengths = None
    if counts.lengths is not None and len(counts.lengths) == m:
        lengths = np.asarray(counts.lengths, np.int64)
        lengths.setflags(write=False)
    return KB(
        tuple(features), dict(domains), counts.codes, np.ones(m, np.int8),
        per_count(counts.support, counts.positives, p_of or _ratio), np.ones(m), counts.support,
        counts.positives, np.zeros(m, np.int8), positive=positive, kind="direct",
        max_len=max_len, n_rows=None if n_rows is None else int(n_rows),
        _lengths_cache=None if lengths is None else (counts.codes, lengths),
    )


def _ratio(sup: np.ndarray, pos: np.ndarray) -> np.ndarray:
    return pos / np.maximum(sup, 1)


def per_count(sup: np.ndarray, pos: np.ndarray,
              fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """`fn(sup, pos)` (elementwise, one float64 per body) of bodies with these supports and
    positives, computed once per possible (support, positives) pair and gathered when the
    supports (or positives) are small against the bodies (a cube's long bodies have supports of
    a few rows: Syn 12/8, 2 M bodies of support ≤ 80; rare positives) — the same floats as `fn` on every body (the
    same operations on the same numbers), for a gather instead of a division per body."""
    m = len(sup)
    if m < PER_COUNT_MIN:
        return fn(sup, pos)
    smax, pmax = int(sup.max()), int(pos.max())
    if (smax + 1) * (pmax + 1) * 4 > m or int(sup.min()) < 0 or int(pos.min()) < 0:
        return fn(sup, pos)
    with np.errstate(all="ignore"):  # cells of no body (positives > support) may not divide
        table = fn(np.repeat(np.arange(smax + 1, dtype=np.int64), pmax + 1),
                   np.tile(np.arange(pmax + 1, dtype=np.int64), smax + 1))
    cell = np.multiply(sup, pmax + 1, dtype=np.int64)  # one pass, no int64 copy of sup first
    cell += pos
    return np.take(table, cell)


def check_max_len(max_len: Any) -> None:
    """`max_len`: a clause length ≥ 1, or None (as long as the memory budget allows)."""
    checked_int("max_len", max_len, 1, none_ok=True)


def resolve_max_len(n_rows: int, n_features: int, sizes: Sequence[int], max_len: int | None,
                    memory_budget: int | None, distinct: int | None = None, targets: int = 1,
                    visits: int = 1, search: bool = False) -> tuple[int | None, str]:
    """(cap, reason): `max_len` itself when given and it fits the budget, the largest cap that
    fits when None; `KBTooLargeError` when a given cap does not fit (`targets`: the KBs counted
    at once, `estimate_bytes`; `visits`, `search`: `choose_max_len`'s)."""
    budget = DEFAULT_MEMORY_BUDGET if memory_budget is None else int(memory_budget)
    if max_len is None:
        return choose_max_len(n_rows, n_features, sizes, budget, distinct, targets, visits,
                              search)
    need = estimate_bytes(n_rows, n_features, max_len, sizes, distinct, targets)
    if need > budget:
        try:
            fit, _ = choose_max_len(n_rows, n_features, sizes, budget, distinct, targets)
            hint = f"pass max_len={fit}" if fit is not None else "pass a smaller max_len"
        except KBTooLargeError:
            hint = "use fewer rows or features"
        raise KBTooLargeError(
            f"a Direct KB over {n_features} features from {n_rows} rows with max_len={max_len} "
            f"needs about {_size(need)} (memory budget {_size(budget)}): {hint}, raise the "
            "memory budget, select fewer features, or use the Tree KB")
    return int(max_len), (f"max_len={max_len} as given ({_size(need)} of the {_size(budget)} "
                 "memory budget)")


def direct_kb(
    X: Any,
    y: Any,
    positive: Any = None,
    max_len: int | None = None,
    memory_budget: int | str | None = None,
) -> KB:
    """Build the Direct KB from a table of categorical features and a binary label.

    `max_len` caps the number of feature literals per clause; None picks the largest cap whose
    KB fits `memory_budget` bytes (default `DEFAULT_MEMORY_BUDGET`; "4GB" strings accepted) —
    no cap when everything fits (`direct_kb_with_reason` also says why). A given `max_len`
    that does not fit raises `KBTooLargeError` naming the cap that would.
    """
    return direct_kb_with_reason(X, y, positive, max_len, memory_budget)[0]


def direct_kb_with_reason(X: Any, y: Any, positive: Any = None, max_len: int | None = None,
                          memory_budget: int | str | None = None,
                          observe: Callable[[np.ndarray, Counts, int | None], Visit | None]
                          | None = None,
                          p_of: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
                          ) -> tuple[KB, str]:
    """`direct_kb` and the sentence saying which clause-length cap was used and why.
    `observe(codes, distinct rows, cap)`, called once the cap is chosen, may return a `Visit`
    that sees the count (`count_rows`): the tuned variant's leave-one-out comes out of it.
    `p_of`: the clauses' p from their counts (`kb_from_counts`; default positives / support)."""
    yb, pos = binary_target(y, positive)
    kbs, reason = direct_kbs_with_reason(X, [yb], max_len, memory_budget,
                                         None if observe is None else [observe],
                                         None if p_of is None else [p_of])
    kbs[0].positive = pos
    return kbs[0], reason


def direct_kbs_with_reason(X: Any, ys: Sequence[np.ndarray], max_len: int | None = None,
                           memory_budget: int | str | None = None,
                           observe: Sequence[Callable[[np.ndarray, Counts, int | None],
                                                      Visit | None]] | None = None,
                           p_of: Sequence[Callable[[np.ndarray, np.ndarray], np.ndarray] | None]
                           | None = None, search: bool = False) -> tuple[list[KB], str]:
    """One Direct KB per 0/1 target in `ys` (POS = 1; one-vs-rest problems on the same rows)
    from one count: their bodies and supports are the same, only the positives differ, so
    K classes cost one pass over the rows' subsets (and share the bodies' code rows) instead
    of K. `observe[j]` sees target j's count as `direct_kb_with_reason`'s `observe` does;
    `p_of[j]` gives target j's p from its counts (`kb_from_counts`); `search`: the cap of the
    default's model search (`choose_max_len`)."""
    frame = as_frame(X)
    check_max_len(max_len)
    budget = None if memory_budget is None else parse_size(memory_budget)
    Y = np.column_stack([np.asarray(y, np.int64).ravel() for y in ys])
    if len(Y) != len(frame):
        raise DataError(f"X has {len(frame)} rows but y has {len(Y)}")
    n, F = frame.shape
    enc = encode(frame)
    sizes = [len(enc.domains[f]) for f in enc.features]
    rows = distinct_rows(enc.codes, Y, radix=np.asarray(sizes, np.int64) + 1)
    # each observer (a class's leave-one-out) visits every counted pair: K classes visit K
    # times the pairs one does (digits' 10 at 3 of 60 pixels: 430 M, 40% of its fit)
    cap, reason = resolve_max_len(n, F, sizes, max_len, budget, len(rows.support), len(ys),
                                  sum(o is not None for o in observe or ()), search)
    visits = [None if o is None else
              o(enc.codes, dataclasses.replace(rows, positives=rows.positives[:, j]), cap)
              for j, o in enumerate(observe or [None] * len(ys))]

    def visit(k: int, at: np.ndarray, sup: np.ndarray, pos: np.ndarray) -> None:
        for j, v in enumerate(visits):
            if v is not None:
                v(k, at, sup, np.ascontiguousarray(pos[:, j]))

    counts = count_rows(enc.codes, Y, sizes, cap, rows=rows,
                        visit=visit if any(v is not None for v in visits) else None)
    return [kb_from_counts(dataclasses.replace(counts, positives=np.ascontiguousarray(pos)),
                           enc.features, enc.domains, "1", cap, n, fn)
            for pos, fn in zip(counts.positives.T, p_of or [None] * len(ys))], reason


# --------------------------------------------------------------------------- lazy answers


@dataclass
class DirectBitmaps:
    """The Direct KB without the cube: per-value bitmaps of the training rows, from which the
    clauses inside one query are counted on demand (level by level, AND + popcount).

    `kb_for(q)` is exactly the part of `direct_kb(X, y, max_len=...)` whose bodies lie inside
    q (same clauses, counts and order), so `query(bm.kb_for(q), q)` answers q — and explains it,
    its sub-queries being inside it — as the full Direct KB does under the relevant semantics.
    Memory: one bit per (row, feature value); per query, the bitmaps of one length.
    """

    features: tuple[str, ...]
    domains: dict[str, tuple[str, ...]]
    bits: list[np.ndarray]  # per feature: (number of values, words) uint64
    ybits: np.ndarray  # (words,) uint64: the positive rows
    positive: str
    max_len: int | None = None

    @classmethod
    def from_data(cls, X: Any, y: Any, positive: Any = None, max_len: int | None = None
                  ) -> DirectBitmaps:
        check_max_len(max_len)
        frame = as_frame(X)
        yb, pos = binary_target(y, positive)
        if len(yb) != len(frame):
            raise DataError(f"X has {len(frame)} rows but y has {len(yb)}")
        enc = encode(frame)
        bits = []
        for j, f in enumerate(enc.features):
            col = enc.codes[:, j]
            eq = col[None, :] == np.arange(len(enc.domains[f]))[:, None]
            bits.append(pack_bits(eq))
        return cls(enc.features, enc.domains, bits, pack_bits(yb[None, :] > 0)[0], pos, max_len)

    def kb_for(self, q: Any) -> KB:
        """The Direct KB's clauses whose feature-value sets lie inside the query q."""
        from .query import prepare_query

        shell = KB(self.features, self.domains, positive=self.positive, kind="direct",
                   max_len=self.max_len)
        qc = prepare_query(shell, q).codes
        known = np.flatnonzero(qc >= 0)
        top = len(known) if self.max_len is None else min(self.max_len, len(known))
        base = np.array([self.bits[f][qc[f]] for f in known]) if len(known) else None
        sets: list[np.ndarray] = []
        sups: list[np.ndarray] = []
        poss: list[np.ndarray] = []
        members = np.arange(len(known))[:, None]
        cur = base
        for k in range(1, top + 1):
            if k > 1:  # extend each live set by a later feature of the query
                last = members[:, -1]
                n_ext = len(known) - 1 - last
                parent = np.repeat(np.arange(len(members)), n_ext)
                if not len(parent):
                    break
                added = (np.repeat(last + 1 - np.concatenate([[0], np.cumsum(n_ext)[:-1]]), n_ext)
                         + np.arange(len(parent)))
                members = np.hstack([members[parent], added[:, None]])
                cur = cur[parent] & base[added]
            sup = np.bitwise_count(cur).sum(axis=1, dtype=np.int64)
            live = sup > 0  # a set no row has: neither it nor its supersets are clauses
            members, cur, sup = members[live], cur[live], sup[live]
            if not len(members):
                break
            sets.append(members)
            sups.append(sup)
            poss.append(np.bitwise_count(cur & self.ybits[None, :]).sum(axis=1, dtype=np.int64))
        F = len(self.features)
        codes_parts = []
        for mem in sets:
            c = np.full((len(mem), F), -1, np.int64)
            cols = known[mem]
            c[np.repeat(np.arange(len(mem)), mem.shape[1]), cols.ravel()] = qc[cols].ravel()
            codes_parts.append(c)
        counts = _concat(codes_parts, sups, poss, F)
        if len(counts.support):  # the cube's canonical order: by length, then level key
            lk = LevelKeys.for_domains([len(self.domains[f]) for f in self.features], top)
            lengths, keys = lk.body_keys(counts.codes)
            order = np.lexsort((keys, lengths))
            top_code = max((len(d) for d in self.domains.values()), default=1)
            dtype = np.int8 if top_code <= 127 else np.int16 if top_code <= 32767 else np.int32
            counts = Counts(counts.codes[order].astype(dtype), counts.support[order],
                            counts.positives[order])
        return kb_from_counts(counts, self.features, self.domains, self.positive, self.max_len)


def pack_bits(rows: np.ndarray) -> np.ndarray:
    """Boolean rows (r × n) as bitmaps (r × ceil(n / 64)) of uint64."""
    packed = np.packbits(rows, axis=1, bitorder="little")
    pad = (-packed.shape[1]) % 8
    if pad:
        packed = np.hstack([packed, np.zeros((len(packed), pad), np.uint8)])
    return np.ascontiguousarray(packed).view(np.uint64)


__all__ = [
    "DEFAULT_MEMORY_BUDGET", "WIDE_FEATURES", "WIDE_MAX_LEN", "WIDE_PAIRS", "ClauseIndex", "Counts",
    "DirectBitmaps", "LevelKeys", "choose_max_len",
    "count_bodies", "count_rows", "direct_kb", "direct_kb_with_reason", "direct_kbs_with_reason",
    "distinct_rows",
    "estimate_bytes", "kb_from_counts", "merge_counts", "n_subsets", "pack_bits", "parse_size",
]
