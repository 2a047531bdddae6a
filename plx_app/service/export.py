"""Safe exports: the KB as CSV a spreadsheet will not run (`plx_core.export` defuses the cells)."""

from __future__ import annotations

from plx_core.export import safe_cell, safe_csv  # noqa: F401  (one home: plx_core.export)
from plx_core.kb import KB


def kb_csv(kb: KB, limit: int | None = None) -> bytes:
    """The KB as a CSV table (one clause per row), safe against formula injection."""
    stop = len(kb) if limit is None else min(limit, len(kb))
    return safe_csv(kb.to_frame(0, stop))
