"""Per-session caching: stable fingerprints of data and a small LRU (one per workspace, so per browser session)."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

import pandas as pd


def fingerprint(*parts: Any) -> str:
    """A short stable hash of frames, series, bytes and plain values."""
    h = hashlib.sha1()
    for p in parts:
        if isinstance(p, (pd.DataFrame, pd.Series)):
            h.update(pd.util.hash_pandas_object(p.astype(object), index=True).to_numpy().tobytes())
            cols = list(p.columns) if isinstance(p, pd.DataFrame) else [p.name]
            h.update(repr(cols).encode())
        elif isinstance(p, (bytes, bytearray)):
            h.update(bytes(p))
        else:
            h.update(repr(p).encode())
        h.update(b"\x00")
    return h.hexdigest()[:16]




class LRU:
    """A small least-recently-used cache (per workspace, so per browser session)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.data: OrderedDict[Hashable, Any] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        if key in self.data:
            self.data.move_to_end(key)
            self.hits += 1
            return self.data[key]
        self.misses += 1
        value = make()
        self.data[key] = value
        while len(self.data) > self.size:
            self.data.popitem(last=False)
        return value

    def __contains__(self, key: Hashable) -> bool:
        return key in self.data

    def clear(self) -> None:
        self.data.clear()

    def copy(self) -> LRU:
        """Another cache holding the same entries (the values themselves are shared)."""
        out = LRU(self.size)
        out.data = OrderedDict(self.data)
        return out
