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
from .explain import (
    Explanation,
    Unexplained,
    counterfactual,
    evidence,
    explain,
    explain_many,
    shapley,
)
from .kb import KB, POS, Literal, WeightedClause, check_kb_matches, parse_clause
from .query import Bounds, UninformedRows, query, query_many
from .rulecheck import UnusedRule, unused_rules
from .rules import (
    add_rules,
    conditions_text,
    list_rules,
    parse_conditions,
    parse_rules,
    rule_clause,
    rule_effect,
    rule_text,
    rules_text,
)
from .tree import Tree, TreeNode, tree_kb

__all__ = [
    "UninformedRows",
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
    "Unexplained",
    "UnusedRule",
    "WeightedClause",
    "add_rules",
    "check_kb_matches",
    "conditions_text",
    "counterfactual",
    "direct_kb",
    "evidence",
    "explain",
    "explain_many",
    "list_rules",
    "parse_clause",
    "parse_conditions",
    "parse_rules",
    "query",
    "query_many",
    "rule_clause",
    "rule_effect",
    "rule_text",
    "rules_text",
    "shapley",
    "tree_kb",
    "unused_rules",
]
