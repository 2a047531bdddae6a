"""`ClauseIndex`: a KB's learned clause bodies as sorted bit-packed keys, for fast lookup."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .kb import KB



@dataclass(frozen=True)
class ClauseIndex:
    """Learned-clause bodies as sorted integer keys (bit-packed codes) for `searchsorted`.

    Key of a body = Σ_f (code_f + 1) << shift_f. `order` maps sorted position → clause row.
    When the packed key would not fit in 62 bits, `keys` is None and lookups go through a dict
    of row bytes (slower; only for KBs over very many features or values).
    `target` is each clause's median target (p for POS heads, 1 − p for ¬POS) in key order, and
    `w_const` / `head_const` the weight / head when every clause has the same one: a lookup then
    gathers one column instead of three (random gathers into a large KB dominate a query).
    """

    n: int
    shifts: np.ndarray | None
    keys: np.ndarray | None
    order: np.ndarray
    table: dict[bytes, np.ndarray] | None
    unique: bool = False  # every key once (Direct KBs): one searchsorted per lookup
    target: np.ndarray | None = None
    w_const: float | None = None
    head_const: int | None = None
    source: tuple = ()  # the (p, w, head) arrays indexed; a KB that replaces one rebuilds

    @staticmethod
    def bits_for(kb: KB) -> np.ndarray:
        sizes = np.array([len(kb.domains[f]) + 1 for f in kb.features], dtype=np.int64)
        return np.maximum(1, np.ceil(np.log2(np.maximum(sizes, 2))).astype(np.int64))

    @classmethod
    def build(cls, kb: KB) -> ClauseIndex:
        bits = cls.bits_for(kb)
        src = (kb.p, kb.w, kb.head)
        w_const = float(kb.w[0]) if len(kb.w) and np.all(kb.w == kb.w[0]) else None
        head_const = int(kb.head[0]) if len(kb.head) and np.all(kb.head == kb.head[0]) else None
        if bits.sum() <= 62:
            shifts = np.concatenate([[0], np.cumsum(bits)[:-1]]).astype(np.int64)
            keys = pack_keys(kb.codes, shifts)
            order = np.argsort(keys, kind="stable")
            skeys = keys[order]
            unique = bool(len(skeys) < 2 or np.all(skeys[1:] != skeys[:-1]))
            target = np.where(kb.head[order] > 0, kb.p[order], 1.0 - kb.p[order])
            return cls(kb.n_learned, shifts, skeys, order, None, unique, target, w_const,
                       head_const, src)
        # Too many features/values to bit-pack: a dict from row bytes to clause rows.
        table: dict[bytes, list[int]] = {}
        for i, row in enumerate(kb.codes.astype(np.int32)):  # same dtype as lookups
            table.setdefault(row.tobytes(), []).append(i)
        arrays = {k: np.asarray(v, dtype=np.int64) for k, v in table.items()}
        return cls(kb.n_learned, None, None, np.arange(kb.n_learned), arrays, source=src)

    def current(self, kb: KB) -> bool:
        """Whether this index still describes `kb`'s learned block."""
        s = self.source
        return self.n == kb.n_learned and bool(s) and s[0] is kb.p and s[1] is kb.w and s[2] is kb.head

    def lookup(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For body code rows (q × F), return (query row, clause row) pairs of exact matches."""
        if self.keys is not None:
            return self.find(pack_keys(codes, self.shifts))
        codes = np.ascontiguousarray(codes, dtype=np.int32)
        empty = np.zeros(0, dtype=np.int64)
        hits = [self.table.get(row.tobytes(), empty) for row in codes]
        counts = np.array([len(h) for h in hits], dtype=np.int64)
        rows = np.repeat(np.arange(len(codes)), counts)
        return rows, (np.concatenate(hits) if len(hits) else empty)

    def find(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(position in q, clause row) pairs for packed keys q (needs `keys`)."""
        hit, pos = self.find_sorted(q)
        return hit, self.order[pos]

    def find_sorted(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(position in q, position in key order) pairs for packed keys q (needs `keys`)."""
        if self.unique:
            if not len(self.keys):
                return np.zeros(0, np.int64), np.zeros(0, np.int64)
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


def pack_keys(codes: np.ndarray, shifts: np.ndarray) -> np.ndarray:
    """Bit-pack code rows (-1 = absent) into int64 keys."""
    return ((codes.astype(np.int64) + 1) << shifts).sum(axis=1)

