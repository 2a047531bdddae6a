"""`ClauseIndex`: a KB's learned clause bodies as integer keys, for fast lookup of the clauses
whose body is a given set of feature values.

Key of a body = Σ_f (code_f + 1) · mult_f over its features (code −1 = absent adds 0), so the
key of a union of disjoint parts is the sum of their keys: the keys of every subset of a query
come from a few additions (`SubsetPlan`), never from building code rows. Three modes:

* **dense**: `mult` is the mixed radix Π_{g<f} (|D_g| + 1), keys are exact, and a table of
  Π (|D_f| + 1) entries maps a key to its clause (one gather per lookup, no search). Used for
  unique keys (Direct KBs) when the table has at most `DENSE_PER_CLAUSE` entries per clause.
* **sorted**: the same exact mixed-radix keys, sorted, looked up by `searchsorted` (keys up
  to 2^62: about 26 features of 4 values).
* **positional** (a variant of dense / sorted): wide KBs of short clauses (a Direct KB over
  30–200 features with a length cap): the key is the clause's literal ids (feature offset +
  code + 1) side by side in feature order, exact while clauses have ≤ 62 / bits literals;
  a subset's key comes from one gather per literal position.
* **hashed**: wide KBs with long clauses: `mult` are fixed random odd 64-bit numbers and the
  sums wrap modulo 2^64, a hash. Every hit is checked against the clause's codes
  (`relevant` verifies the clause has exactly the subset's features and values), so a
  collision can never add or double a clause.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .kb import KB

DENSE_PER_CLAUSE = 16  # dense table entries allowed per clause (int32: 64 bytes a clause)
DENSE_MAX = 2**25  # … and never more than this many entries (128 MB)
EXACT_MAX = 2**62  # mixed-radix keys up to this are exact int64
HASH_SEED = 0x706C78  # fixed: the same KB always gets the same hash keys


@dataclass(frozen=True)
class ClauseIndex:
    """Learned-clause bodies as integer keys (see the module docstring for the modes).

    `order` maps index position → clause row (positions are in key order, or in target order
    for a dense table); `target` is each clause's median target
    (p for POS heads, 1 − p for ¬POS) by position, `lengths` its number of feature literals,
    and `w_const` / `head_const` the weight / head when every clause has the same one: a
    lookup then gathers one column instead of three (random gathers into a large KB dominate
    a query). `values` / `rank` are the distinct targets and each clause's rank among them
    (batched medians sort small integers instead of (query, target) pairs).
    """

    n: int
    mult: np.ndarray
    mode: str  # "dense" | "sorted" | "hashed"
    keys: np.ndarray
    order: np.ndarray
    table: np.ndarray | None
    unique: bool
    target: np.ndarray
    lengths: np.ndarray
    length_set: tuple[int, ...]
    values: np.ndarray
    rank: np.ndarray
    codes: np.ndarray | None = None  # the KB's code matrix (hashed mode verifies against it)
    w_const: float | None = None
    head_const: int | None = None
    source: tuple = ()  # the (p, w, head) arrays indexed; a KB that replaces one rebuilds
    lit_bits: int = 0  # > 0: positional keys (literal ids of lit_bits bits, in feature order)
    offsets: np.ndarray | None = None  # per feature: id of its first value (positional keys)
    mentioned: np.ndarray | None = None  # per feature: whether some learned clause has a literal on it

    @property
    def exact(self) -> bool:
        """Whether a key match is a body match (False in hashed mode: hits need a check)."""
        return self.mode != "hashed"

    @classmethod
    def build(cls, kb: KB, hash_mult: np.ndarray | None = None) -> ClauseIndex:
        """The index of `kb`'s learned block; `hash_mult` forces hashed mode with these
        multipliers (tests use colliding ones to check that hits are verified)."""
        sizes = [len(kb.domains[f]) + 1 for f in kb.features]
        span = math.prod(sizes)
        n = kb.n_learned
        lit_bits = max(1, int(sum(sizes) - len(sizes) + 1).bit_length())
        longest = int((kb.codes >= 0).sum(axis=1).max(initial=0))
        offsets = np.concatenate([[0], np.cumsum(np.array(sizes, np.int64) - 1)[:-1]]).astype(np.int64)
        positional = False
        if hash_mult is not None:
            mult = np.asarray(hash_mult, dtype=np.int64)
            mode = "hashed"
        elif span <= EXACT_MAX:
            mult = np.array([math.prod(sizes[:j]) for j in range(len(sizes))], dtype=np.int64)
            mode = "sorted"
        elif longest * lit_bits <= 62:
            # wide but short clauses: the literals' ids side by side (exact)
            mult = np.zeros(len(sizes), np.int64)
            mode, positional = "sorted", True
            span = 1 << (longest * lit_bits)
        else:
            rng = np.random.default_rng(HASH_SEED)
            mult = rng.integers(-(2**63), 2**63 - 1, len(sizes), dtype=np.int64) | 1
            mode = "hashed"
        keys = (positional_keys(kb.codes, offsets, lit_bits) if positional
                else pack_keys(kb.codes, mult))
        order = np.argsort(keys, kind="stable")
        skeys = keys[order]
        unique = bool(len(skeys) < 2 or np.all(skeys[1:] != skeys[:-1]))
        table = None
        if mode == "sorted" and unique and n and span <= min(DENSE_MAX, DENSE_PER_CLAUSE * n):
            # dense: positions number the clauses in target order, so that comparing positions
            # compares targets (medians of equal weights never gather a target to sort)
            mode = "dense"
            t_row = np.where(kb.head > 0, kb.p, 1.0 - kb.p)
            order = np.lexsort((keys, t_row))
            skeys = keys[order]
            table = np.full(span, -1, dtype=np.int32 if n < 2**31 else np.int64)
            table[skeys] = np.arange(n, dtype=table.dtype)
        head = kb.head[order]
        target = np.where(head > 0, kb.p[order], 1.0 - kb.p[order])
        present = kb.codes >= 0
        lengths = present.sum(axis=1)[order].astype(np.int64)
        mentioned = present.any(axis=0)
        values, rank = np.unique(target, return_inverse=True)
        w_const = float(kb.w[0]) if n and np.all(kb.w == kb.w[0]) else None
        head_const = int(kb.head[0]) if n and np.all(kb.head == kb.head[0]) else None
        return cls(n, mult, mode, skeys, order, table, unique, target, lengths,
                   tuple(int(x) for x in np.unique(lengths)), values, rank.ravel().astype(np.int64),
                   kb.codes if mode == "hashed" else None, w_const, head_const,
                   (kb.p, kb.w, kb.head), lit_bits if positional else 0, offsets, mentioned)

    def current(self, kb: KB) -> bool:
        """Whether this index still describes `kb`'s learned block."""
        s = self.source
        return self.n == kb.n_learned and bool(s) and s[0] is kb.p and s[1] is kb.w and s[2] is kb.head

    # ------------------------------------------------------------------ lookups

    def lookup(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For body code rows (q × F), return (query row, clause row) pairs of exact matches.
        A row longer than every clause matches none, and is not looked up (its positional key
        would lie past a dense table's end, or wrap)."""
        codes = np.asarray(codes)
        rows = np.flatnonzero((codes >= 0).sum(axis=1) <= max(self.length_set, default=0))
        hit, pos = self.find_sorted(self.row_keys(codes[rows]))
        hit = rows[hit]
        if not self.exact and len(hit):  # hashed keys: a hit is a candidate
            ok = np.all(self.codes[self.order[pos]] == codes[hit], axis=1)
            hit, pos = hit[ok], pos[ok]
        return hit, self.order[pos]

    def find(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(position in q, clause row) pairs for keys q (candidates in hashed mode)."""
        hit, pos = self.find_sorted(q)
        return hit, self.order[pos]

    def find_sorted(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(position in q, index position) pairs for keys q; in hashed mode these are
        candidates that `relevant` / `lookup` verify."""
        q = np.asarray(q, dtype=np.int64).ravel()
        if self.table is not None:
            pos = self.table[q]
            hit = np.flatnonzero(pos >= 0)
            return hit, pos[hit].astype(np.int64)
        if not len(self.keys):
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        if self.unique:
            pos = np.searchsorted(self.keys, q)
            np.minimum(pos, len(self.keys) - 1, out=pos)
            hit = np.flatnonzero(self.keys[pos] == q)
            return hit, pos[hit]
        lo = np.searchsorted(self.keys, q, "left")
        hi = np.searchsorted(self.keys, q, "right")
        counts = hi - lo
        rows = np.repeat(np.arange(len(q)), counts)
        starts = np.repeat(lo - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
        return rows, starts + np.arange(counts.sum())

    def subset_keys(self, qc: np.ndarray, known: np.ndarray, plan: SubsetPlan) -> np.ndarray:
        """Keys (B × S) of the plan's subsets of rows whose codes on `known` are `qc`."""
        if not self.lit_bits:
            return plan.keys((qc + 1) * self.mult[known])
        return self.subset_keys_t(qc, known, plan).T  # positional keys: one construction

    def subset_keys_t(self, qc: np.ndarray, known: np.ndarray, plan: SubsetPlan) -> np.ndarray:
        """The same keys as `subset_keys`, transposed (S × B): each subset's keys for the whole
        chunk come from contiguous row copies (one per literal slot) instead of per-element
        gathers. int64 (intp) on purpose: numpy gathers with int32 indices 4–10× slower."""
        dt = np.int64
        if not self.lit_bits:
            v = (qc + 1) * self.mult[known]  # B × k
            if plan.member is not None:
                return plan.member @ v.T
            h = plan.k // 2
            lo = _mask_bits(h) @ v[:, :h].T  # 2^h × B
            hi = _mask_bits(plan.k - h) @ v[:, h:].T
            return (hi[:, None, :] + lo[None, :, :]).reshape(-1, len(qc))[1:]
        lits = np.zeros((len(known) + 1, len(qc)), dt)  # last row: no literal (0)
        lits[:-1] = (self.offsets[known][None, :] + qc + 1).T
        out = np.empty((plan.n, len(qc)), dt)
        if plan.prefix is None or not (plan.prefix[plan.size > 1] >= 0).all():
            part = np.empty_like(out)
            for i in range(plan.cols.shape[1]):  # the subset's i-th feature (ascending)
                c = plan.cols[:, i]
                slot = lits << (self.lit_bits * i)
                np.take(slot, np.where(c >= 0, c, len(known)), axis=0, out=out if i == 0 else part)
                if i:
                    out += part
            return out
        # subsets by size (contiguous in a product-form plan), each one's key = the key of it
        # without its last item (computed before) + that item's slot: one gather less per size
        size = plan.size
        start = 0
        while start < plan.n:
            L = int(size[start])
            stop = start + int(np.searchsorted(size[start:], L, "right"))
            block = np.take(lits << (self.lit_bits * (L - 1)), plan.cols[start:stop, L - 1], axis=0)
            if L > 1:
                block += np.take(out, plan.prefix[start:stop], axis=0)
            out[start:stop] = block
            start = stop
        return out

    @functools.cached_property
    def rank_table(self) -> np.ndarray | None:
        """Dense mode only: key → 1 + the rank of its clause's target among `values` (0: no
        clause), in the smallest unsigned type. Batched medians of equal weights count ranks
        per row (`median.counted_medians`) instead of sorting or partitioning positions."""
        if self.table is None:
            return None
        dt = next(t for t in (np.uint8, np.uint16, np.uint32) if len(self.values) < np.iinfo(t).max)
        out = np.zeros(len(self.table), dt)
        hit = self.table >= 0
        out[hit] = self.rank[self.table[hit]] + 1
        return out

    def row_keys(self, codes: np.ndarray) -> np.ndarray:
        """Keys of whole code rows (-1 absent), e.g. to order query rows."""
        if self.lit_bits:
            return positional_keys(codes, self.offsets, self.lit_bits)
        return pack_keys(codes, self.mult)

    def plan(self, k: int) -> SubsetPlan:
        """The subsets of k known features a lookup must try: those whose size is the length
        of some learned clause (never more: a Tree KB with paths of ≤ 6 literals over 30
        known features tries C(30, ≤ 6) sets, not 2^30)."""
        return subset_plan(k, tuple(s for s in self.length_set if 1 <= s <= k))

    def n_subsets(self, k: int) -> int:
        return sum(math.comb(k, s) for s in self.length_set if 1 <= s <= k)

    def relevant(self, qcodes: np.ndarray, known: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(row, key-order position) of every learned clause whose body ⊆ the row, for query
        rows (B × F codes) that all know exactly the features `known` (codes ≥ 0 there).
        Rows first, and within a row in subset order (deterministic)."""
        k = len(known)
        empty = np.zeros(0, np.int64), np.zeros(0, np.int64)
        if k == 0 or self.n == 0 or len(qcodes) == 0:
            return empty
        plan = self.plan(k)
        if plan.n == 0:
            return empty
        qc = np.asarray(qcodes)[:, known].astype(np.int64)
        needles = self.subset_keys(qc, known, plan)  # B × S
        hit, pos = self.find_sorted(needles)
        # hits are in (row, subset) order: rows from the counts, no division per hit
        cut = np.searchsorted(hit, np.arange(1, len(qc) + 1) * plan.n)
        row = np.repeat(np.arange(len(qc)), np.diff(np.concatenate([[0], cut])))
        if not self.exact and len(hit):
            s = hit - row * plan.n
            # the clause must have exactly the subset's features, with the row's values there
            ok = self.lengths[pos] == plan.size[s]
            cols = plan.cols[s]  # (hits × L), -1 padded
            body = self.codes[self.order[pos]]
            for j in range(cols.shape[1]):
                c = cols[:, j]
                use = c >= 0
                cc = np.where(use, c, 0)
                ok &= ~use | (body[np.arange(len(pos)), known[cc]] == qc[row, cc])
            row, pos = row[ok], pos[ok]
        return row, pos


@dataclass(frozen=True)
class SubsetPlan:
    """The non-empty subsets of k items with sizes in `sizes`, and how to sum values over them.

    `keys(v)` maps per-item values (B × k) to per-subset sums (B × S). All subsets: the two
    halves' sums are combined by one outer addition (2 · 2^(k/2) products per row instead of
    2^k · k); a few sizes: one product with the membership matrix. `size` and `cols` (item
    indices, -1 padded) describe each subset, in the order of `keys`' columns."""

    k: int
    n: int
    size: np.ndarray
    cols: np.ndarray
    member: np.ndarray | None  # S × k (int64) for the product form; None for halves
    prefix: np.ndarray | None = None  # per subset: the plan index of it without its last item (-1: none)

    def keys(self, v: np.ndarray) -> np.ndarray:
        v = np.asarray(v, dtype=np.int64)
        if self.member is not None:
            return v @ self.member.T
        h = self.k // 2
        lo = v[:, :h] @ _mask_bits(h).T
        hi = v[:, h:] @ _mask_bits(self.k - h).T
        return (hi[:, :, None] + lo[:, None, :]).reshape(len(v), -1)[:, 1:]


@functools.lru_cache(maxsize=128)
def subset_plan(k: int, sizes: tuple[int, ...]) -> SubsetPlan:
    """The plan for subsets of k items with the given sizes (cached)."""
    if sizes == tuple(range(1, k + 1)) and k <= 24:
        bits = _mask_bits(k)[1:]
        size = bits.sum(axis=1)
        cols = np.where(bits > 0, np.arange(k), k)
        cols = np.sort(cols, axis=1)[:, : max(k, 1)]
        cols = np.where(cols < k, cols, -1)
        plan = SubsetPlan(k, len(bits), size, cols, None)
    else:
        sets = [c for s in sizes for c in _combinations(k, s)]
        L = max(sizes, default=0)
        cols = np.full((len(sets), max(L, 1)), -1, np.int64)
        member = np.zeros((len(sets), k), np.int64)
        for s in sizes:
            rows = [i for i, c in enumerate(sets) if len(c) == s]
            if rows:
                arr = np.array([sets[i] for i in rows], dtype=np.int64).reshape(len(rows), s)
                cols[np.array(rows), :s] = arr
                member[np.repeat(rows, s), arr.ravel()] = 1
        where = {c: i for i, c in enumerate(sets)}
        prefix = np.array([where.get(c[:-1], -1) for c in sets], np.int64)
        plan = SubsetPlan(k, len(sets), np.array([len(c) for c in sets], np.int64), cols, member,
                          prefix)
    for a in (plan.size, plan.cols) + tuple(x for x in (plan.member, plan.prefix) if x is not None):
        a.setflags(write=False)
    return plan


def _combinations(k: int, s: int) -> list[tuple[int, ...]]:
    import itertools

    return list(itertools.combinations(range(k), s))


@functools.lru_cache(maxsize=64)
def _mask_bits(k: int) -> np.ndarray:
    """Membership (2^k × k, int64) of every subset of k items, the empty one first (mask order)."""
    masks = np.arange(2**k, dtype=np.int64)
    member = ((masks[:, None] >> np.arange(k)) & 1).astype(np.int64)
    member.setflags(write=False)
    return member


def positional_keys(codes: np.ndarray, offsets: np.ndarray, bits: int) -> np.ndarray:
    """Keys of code rows as their literal ids (offset of the feature + code + 1) side by side,
    `bits` each, in feature order: exact while rows have ≤ 62 // bits literals (longer rows,
    e.g. whole query rows when ordering them, wrap: fine for ordering, never for lookups)."""
    codes = np.asarray(codes)
    out = np.zeros(len(codes), np.int64)
    slot = np.zeros(len(codes), np.int64)
    for j in range(codes.shape[1] if codes.ndim == 2 else 0):
        c = codes[:, j].astype(np.int64)
        there = c >= 0
        out += np.where(there, (offsets[j] + c + 1) << ((bits * slot) % 63), 0)
        slot += there
    return out


def pack_keys(codes: np.ndarray, mult: np.ndarray) -> np.ndarray:
    """Keys of code rows (-1 = absent): Σ (code + 1) · mult, wrapping modulo 2^64."""
    codes = np.asarray(codes)
    out = np.zeros(len(codes), dtype=np.int64)
    for j in range(codes.shape[1] if codes.ndim == 2 else 0):  # column-wise: no F-wide temporaries
        out += (codes[:, j].astype(np.int64) + 1) * mult[j]
    return out
