"""plx: explainable classification by probabilistic logic inference."""

from .direct import direct_kb
from .discretize import Discretizer
from .errors import (
    ClauseSyntaxError,
    DataError,
    KBTooLargeError,
    PLXError,
    SolverError,
    SolverTimeoutError,
)
from .estimator import PLXClassifier
from .explain import Explanation, counterfactual, evidence, explain, shapley
from .kb import KB, POS, Literal, WeightedClause, parse_clause
from .query import Bounds, query, query_many
from .rules import parse_rules, rule_effect
from .tree import Tree, TreeNode, tree_kb

__all__ = [
    "KB",
    "POS",
    "Bounds",
    "Explanation",
    "ClauseSyntaxError",
    "DataError",
    "Discretizer",
    "KBTooLargeError",
    "Literal",
    "PLXClassifier",
    "PLXError",
    "SolverError",
    "SolverTimeoutError",
    "Tree",
    "TreeNode",
    "WeightedClause",
    "counterfactual",
    "direct_kb",
    "evidence",
    "explain",
    "parse_clause",
    "parse_rules",
    "query",
    "query_many",
    "rule_effect",
    "shapley",
    "tree_kb",
]
