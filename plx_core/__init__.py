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
from .estimator import PLXClassifier
from .kb import KB, POS, Literal, WeightedClause, parse_clause
from .query import Bounds, query, query_many
from .tree import Tree, TreeNode, tree_kb

__all__ = [
    "KB",
    "POS",
    "Bounds",
    "ClauseSyntaxError",
    "DataError",
    "KBTooLargeError",
    "Literal",
    "PLXClassifier",
    "PLXError",
    "SolverError",
    "SolverTimeoutError",
    "Tree",
    "TreeNode",
    "WeightedClause",
    "direct_kb",
    "parse_clause",
    "query",
    "query_many",
    "tree_kb",
]
