"""plx: explainable classification by probabilistic logic inference."""

from .direct import direct_kb
from .errors import (
    ClauseSyntaxError,
    DataError,
    KBTooLargeError,
    PLXError,
    SolverError,
    SolverTimeoutError,
)
from .kb import KB, POS, Literal, WeightedClause, parse_clause
from .query import Bounds, query

__all__ = [
    "KB",
    "POS",
    "Bounds",
    "ClauseSyntaxError",
    "DataError",
    "KBTooLargeError",
    "Literal",
    "PLXError",
    "SolverError",
    "SolverTimeoutError",
    "WeightedClause",
    "direct_kb",
    "parse_clause",
    "query",
]
