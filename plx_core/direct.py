"""The Direct KB (Algorithm 3): one clause `POS ∨ ¬K` for every feature-value set K that occurs
in a training row, with p = positives / matches.

Counting is vectorised: every feature subset S of a row gets an integer key (the row's codes on
S, bit-packed), keys are built level by level (|S| = 1, 2, …) from the previous level by one
numpy addition, and each level is counted with one sort. No Python loop touches rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .encoding import Encoded, as_frame, binary_target, encode, smallest_int
from .errors import DataError, KBTooLargeError
from .kb import KB, ClauseIndex

DEFAULT_MEMORY_BUDGET = 6 * 2**30  # bytes; the machines here have 24 GiB


@dataclass(frozen=True)
class Counts:
    """Distinct bodies (code rows, -1 absent) with their support and positives."""

    codes: np.ndarray
    support: np.ndarray
    positives: np.ndarray


def n_subsets(n_features: int, max_len: int | None) -> int:
    top = n_features if max_len is None else min(max_len, n_features)
    return sum(math.comb(n_features, k) for k in range(1, top + 1))


def estimate_bytes(n_rows: int, n_features: int, max_len: int | None) -> int:
    """Rough peak memory of `direct_kb`: the largest level's keys (×4 for sort temporaries)
    plus the output, assuming every (row, subset) pair were a distinct clause."""
    top = n_features if max_len is None else min(max_len, n_features)
    widest = max((math.comb(n_features, k) for k in range(1, top + 1)), default=0)
    total = n_subsets(n_features, max_len)
    return n_rows * widest * 8 * 4 + n_rows * total * (n_features + 40)


def level_subsets(n_features: int, max_len: int | None):
    """Yield (parent_column, added_feature, members) arrays level by level.

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


def count_bodies(enc: Encoded, y: np.ndarray, max_len: int | None = None) -> Counts:
    """Support and positives of every feature-value set (size ≤ max_len) seen in the rows."""
    codes = enc.codes
    n, F = codes.shape
    sizes = np.array([len(enc.domains[f]) + 1 for f in enc.features])
    bits = np.maximum(1, np.ceil(np.log2(np.maximum(sizes, 2))).astype(np.int64))
    if bits.sum() <= 61:
        return _count_packed(codes, y, bits, max_len)
    return _count_per_subset(codes, y, sizes - 1, max_len)


def _count_packed(codes: np.ndarray, y: np.ndarray, bits: np.ndarray, max_len: int | None) -> Counts:
    n, F = codes.shape
    shifts = np.concatenate([[0], np.cumsum(bits)[:-1]]).astype(np.int64)
    # Subset-major layout (subsets × rows): gathering a level's parents copies whole rows.
    missing = np.ascontiguousarray((codes < 0).T)
    val = np.ascontiguousarray(((codes.astype(np.int64) + 1) << shifts).T)
    val[missing] = 0
    has_missing = bool(missing.any())
    ylab = y.astype(np.int64)
    out_keys, out_sup, out_pos = [], [], []
    prev_keys = prev_miss = None
    for parent, added, _ in level_subsets(F, max_len):
        if prev_keys is None:
            keys, miss = val, missing
        else:
            keys = prev_keys[parent] + val[added]
            miss = (prev_miss[parent] | missing[added]) if has_missing else None
        combined = (keys << 1) | ylab[None, :]
        flat = combined[~miss] if has_missing else combined.ravel()
        flat.sort()
        if len(flat):
            body = flat >> 1
            start = np.flatnonzero(np.concatenate([[True], body[1:] != body[:-1]]))
            out_keys.append(body[start])
            out_sup.append(np.diff(np.append(start, len(flat))))
            out_pos.append(np.add.reduceat(flat & 1, start))
        prev_keys, prev_miss = keys, miss
    keys = np.concatenate(out_keys) if out_keys else np.zeros(0, np.int64)
    masks = (np.int64(1) << bits) - 1
    dtype = smallest_int(np.array([int(masks.max())])).dtype
    body_codes = np.empty((len(keys), F), dtype=dtype)
    for j in range(F):
        body_codes[:, j] = ((keys >> shifts[j]) & masks[j]) - 1
    return Counts(
        body_codes,
        np.concatenate(out_sup).astype(np.int64) if out_sup else np.zeros(0, np.int64),
        np.concatenate(out_pos).astype(np.int64) if out_pos else np.zeros(0, np.int64),
    )


def _count_per_subset(codes: np.ndarray, y: np.ndarray, dom: np.ndarray, max_len: int | None) -> Counts:
    """Fallback when packed keys would overflow: mixed-radix keys per subset (loop over subsets,
    never over rows)."""
    n, F = codes.shape
    out_codes, out_sup, out_pos = [], [], []
    for _, _, members in level_subsets(F, max_len):
        for mem in members:
            sub = codes[:, mem].astype(np.int64)
            ok = (sub >= 0).all(axis=1)
            radix = np.maximum(dom[mem], 1).astype(object)
            if math.prod(int(r) for r in radix) * 2 >= 2**62:
                raise KBTooLargeError(
                    f"feature subset {mem.tolist()} has too many value combinations to count; "
                    "pass a smaller max_len"
                )
            mult = np.cumprod(np.concatenate([[1], dom[mem][:-1].astype(np.int64)]))
            key = (sub[ok] * mult).sum(axis=1)
            combined = np.sort((key << 1) | y[ok].astype(np.int64))
            if not len(combined):
                continue
            body = combined >> 1
            start = np.flatnonzero(np.concatenate([[True], body[1:] != body[:-1]]))
            ukeys = body[start]
            row = np.full((len(ukeys), F), -1, dtype=np.int64)
            rem = ukeys.copy()
            for f in mem:
                row[:, f] = rem % max(int(dom[f]), 1)
                rem //= max(int(dom[f]), 1)
            out_codes.append(row)
            out_sup.append(np.diff(np.append(start, len(combined))))
            out_pos.append(np.add.reduceat(combined & 1, start))
    if not out_codes:
        return Counts(np.zeros((0, F), np.int8), np.zeros(0, np.int64), np.zeros(0, np.int64))
    return Counts(smallest_int(np.vstack(out_codes)), np.concatenate(out_sup), np.concatenate(out_pos))


def direct_kb(
    X: Any,
    y: Any,
    positive: Any = None,
    max_len: int | None = None,
    memory_budget: int = DEFAULT_MEMORY_BUDGET,
) -> KB:
    """Build the Direct KB from a table of categorical features and a binary label.

    `max_len` caps the number of feature literals per clause. If the estimated memory exceeds
    `memory_budget` bytes, a `KBTooLargeError` says which `max_len` would fit.
    """
    frame = as_frame(X)
    if max_len is not None and (not isinstance(max_len, (int, np.integer)) or max_len < 1):
        raise DataError(f"max_len must be a positive integer or None, got {max_len!r}")
    yb, pos = binary_target(y, positive)
    if len(yb) != len(frame):
        raise DataError(f"X has {len(frame)} rows but y has {len(yb)}")
    n, F = frame.shape
    need = estimate_bytes(n, F, max_len)
    if need > memory_budget:
        fit = [k for k in range(1, F + 1) if estimate_bytes(n, F, k) <= memory_budget]
        hint = f"pass max_len={fit[-1]}" if fit else "use fewer rows or features"
        raise KBTooLargeError(
            f"a Direct KB over {F} features from {n} rows needs about {need / 2**30:.1f} GiB "
            f"(budget {memory_budget / 2**30:.1f} GiB): {hint}, select fewer features, or use "
            "the Tree KB"
        )
    enc = encode(frame)
    counts = count_bodies(enc, yb, max_len)
    m = len(counts.support)
    kb = KB(
        enc.features,
        enc.domains,
        counts.codes,
        np.ones(m, np.int8),
        counts.positives / counts.support,
        np.ones(m),
        counts.support,
        counts.positives,
        np.zeros(m, np.int8),
        positive=pos,
        kind="direct",
        max_len=max_len,
    )
    return kb


__all__ = ["ClauseIndex", "Counts", "count_bodies", "direct_kb", "estimate_bytes", "n_subsets"]
