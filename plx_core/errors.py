"""Exceptions plx raises. Each names the problem (column, row, value, line) in its message."""

from __future__ import annotations


class PLXError(Exception):
    """Base class of every error plx raises on purpose."""


class DataError(PLXError, ValueError):
    """The training or query data cannot be used as given (the message says which part)."""


class ClauseSyntaxError(PLXError, ValueError):
    """Clause text, rule text or KB JSON is malformed; carries the line and position."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        parts = ([f"line {line}"] if line is not None else []) + (
            [f"column {column}"] if column is not None else [])
        where = ", ".join(parts) + ": " if parts else ""
        super().__init__(where + message)
        self.line = line
        self.column = column


class ModelFileError(PLXError, ValueError):
    """A model file is malformed or cannot be read; the message names the file and the field."""


class KBTooLargeError(PLXError, MemoryError):
    """Building the requested KB would exceed the memory budget; the message says what to do."""


class SolverError(PLXError, RuntimeError):
    """The LP solver did not return an optimal solution (status in the message)."""


class SolverTimeoutError(SolverError):
    """The LP solver hit its time limit."""


class NotFittedError(PLXError, AttributeError):
    """Raised by helpers that need a fitted estimator (sklearn's check_is_fitted raises its own)."""
