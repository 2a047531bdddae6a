"""plx: explainable classification by probabilistic logic inference."""

from .errors import (
    ClauseSyntaxError,
    DataError,
    KBTooLargeError,
    PLXError,
    SolverError,
    SolverTimeoutError,
)
from .kb import KB, POS, Literal, WeightedClause, parse_clause

__all__ = [
    "KB",
    "POS",
    "ClauseSyntaxError",
    "DataError",
    "KBTooLargeError",
    "Literal",
    "PLXError",
    "SolverError",
    "SolverTimeoutError",
    "WeightedClause",
    "parse_clause",
]
