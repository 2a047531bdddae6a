"""The notes plx says to its user while it works (values never seen, columns left out, rows
no answer was given for): a UserWarning in a script, a notebook or `plx`, or collected per
thread where one server answers several users at once (`collected`), those said in worker
threads included (`pool_map`)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

_SINK: ContextVar[list | None] = ContextVar("plx_notes", default=None)
T = TypeVar("T")
R = TypeVar("R")


def say(message: str | UserWarning, stacklevel: int = 2) -> None:
    """Say a note: into the innermost `collected` list of this thread, else as a UserWarning
    (`stacklevel` as `warnings.warn`'s, counted from the caller of `say`). A note that carries
    data (`query.UnansweredRows`) is warned as itself, so a caller that counts reads the data."""
    sink = _SINK.get()
    if sink is not None:
        sink.append(message if isinstance(sink, _Kept) else str(message))
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
    session's page, or be lost. A new thread starts outside every block (its own context):
    work given to threads goes through `pool_map`, which says their notes here."""
    sink: list[str] = []
    token = _SINK.set(sink)
    try:
        yield sink
    finally:
        _SINK.reset(token)


class _Kept(list):
    """A worker's notes as said (a `query.UnansweredRows` keeps its count), to be said again."""


def _noting(fn: Callable[[T], R], item: T) -> tuple[Any, _Kept, BaseException | None]:
    """fn(item) in a worker: its result (or what it raised) and the notes it said."""
    said = _Kept()
    token = _SINK.set(said)
    try:
        return fn(item), said, None
    except BaseException as exc:  # raised again by the caller, in the items' order
        return None, said, exc
    finally:
        _SINK.reset(token)


def pool_map(pool: Executor | None, fn: Callable[[T], R], items: Iterable[T]) -> list[R]:
    """`pool.map(fn, items)` as a list (plain `map` without a pool), the notes each call says
    said here, item by item in the items' order, as if the calls ran in this thread: a worker
    thread starts outside the caller's `collected` block (its own context), so a note said
    there was lost to the session that asked, or warned from another thread."""
    if pool is None:
        return [fn(x) for x in items]
    items = list(items)
    out: list[R] = []
    for got, said, exc in pool.map(_noting, [fn] * len(items), items):
        for note in said:
            say(note)
        if exc is not None:
            raise exc
        out.append(got)
    return out


__all__ = ["collected", "pool_map", "say"]
