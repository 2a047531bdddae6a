"""The notes plx says to its user while it works (values never seen, columns left out, rows
no answer was given for): a UserWarning in a script, a notebook or `plx`, or collected per
thread where one server answers several users at once (`collected`)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_SINK: ContextVar[list[str] | None] = ContextVar("plx_notes", default=None)


def say(message: str | UserWarning, stacklevel: int = 2) -> None:
    """Say a note: into the innermost `collected` list of this thread, else as a UserWarning
    (`stacklevel` as `warnings.warn`'s, counted from the caller of `say`). A note that carries
    data (`query.UnansweredRows`) is warned as itself, so a caller that counts reads the data."""
    sink = _SINK.get()
    if sink is not None:
        sink.append(str(message))
        return
    if isinstance(message, UserWarning):
        warnings.warn(message, stacklevel=stacklevel + 1)
    else:
        warnings.warn(str(message), UserWarning, stacklevel=stacklevel + 1)


@contextmanager
def collected() -> Iterator[list[str]]:
    """The notes this thread says inside the block, in order, instead of warned. The
    dashboard fits and answers in one thread per session; `warnings.catch_warnings` swaps
    process-wide state, so one session's notes (which name its values) could reach another
    session's page, or be lost. A new thread starts outside every block (its own context)."""
    sink: list[str] = []
    token = _SINK.set(sink)
    try:
        yield sink
    finally:
        _SINK.reset(token)


__all__ = ["collected", "say"]
