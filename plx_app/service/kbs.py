"""Which KB to build and building it: the settings, a default clause-length cap that keeps clicks interactive, and the build with progress."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from plx_core.checks import checked_threshold
from plx_core.data import Binning
from plx_core.direct import direct_kb
from plx_core.errors import DataError
from plx_core.estimator import KB_KINDS as ESTIMATOR_KB_KINDS
from plx_core.kb import KB, WeightedClause
from plx_core.scale import long_tree_said
from plx_core.tree import Tree, tree_kb_with_trees

from .model import ModelChoice, fit_default

KB_KINDS = {"auto": "plx's choice (recommended)",
            "direct": "Rules counted from the data (Direct)",
            "tree": "One decision tree, its leaves (ID3)",
            "tree-all": "One decision tree, every node (ID3)",
            "forest": "Several decision trees (forest)"}
"""The kinds the Knowledge base page builds and draws, in plain words: "auto" fits
`PLXClassifier()` on the training rows and answers with what it chose (a Direct KB, or a tree's
all-node KB — possibly a binary one, drawn node by node); the others build the paper's KBs as
asked (`plx_core.estimator.KB_KINDS` says them technically)."""
KB_KIND_HELP = {
    "auto": "plx tries several models on training rows they were not fitted on and keeps the "
            "best, with its own decision threshold (what plx fit does).",
    "direct": "One rule for every combination of values seen in the training rows; its "
              "probability is the share of positives among those rows.",
    "tree": "One rule per path from the tree's first question down to a final answer.",
    "tree-all": "One rule per path to any point of the tree: a row with unknown values still "
                "gets the deepest answer its values reach.",
    "forest": "The final-answer rules of several trees, each grown on a resample of the "
              "training rows.",
}
"""One line under each kind on the Knowledge base page: what its rules are."""
assert set(KB_KIND_HELP) == set(KB_KINDS) and set(ESTIMATOR_KB_KINDS) >= set(KB_KINDS) - {"auto"}


@dataclass(frozen=True)
class KBSettings:
    kind: str = "auto"  # auto (plx's default, what PLXClassifier() fits) | direct | tree | tree-all | forest
    max_len: int | None = None  # Direct KB
    n_trees: int = 10  # forest
    max_depth: int | None = None  # trees
    random_state: int = 0
    threshold: float | None = None  # the user's decision threshold (plx fit --threshold); None: the model's own

    def __post_init__(self) -> None:
        """A threshold checked as `plx fit --threshold` checks it, also one read back from a
        saved project (a hand-edited 1.5 or "0.3" is named, not answered with)."""
        checked_threshold(self.threshold, none_ok=True)

    def label(self) -> str:
        """The KB these settings build in the Build radio's words (`KB_KINDS`, one home), for
        the page's "KB in use", the sidebar and the side-by-side headings; the default stays
        "plx's default" (the pages' name for the model it chooses)."""
        if self.kind == "auto":
            return "plx's default"
        words = KB_KINDS[self.kind]
        if self.kind == "direct" and self.max_len is not None:
            return f"{words}, at most {self.max_len} values per rule"
        if self.kind == "forest":
            return f"{words}, {self.n_trees} trees"
        return words

    def key(self) -> tuple:
        if self.kind == "auto":
            return ("auto", self.random_state)
        if self.kind == "direct":
            return ("direct", self.max_len)
        if self.kind == "forest":
            return ("forest", self.n_trees, self.max_depth, self.random_state)
        return (self.kind, self.max_depth)


MAX_SUBSETS = 1000  # feature subsets per full query that keep a click under a second
DASHBOARD_BUDGET = 2**30  # bytes a session's Direct KB may take on a shared server


def default_max_len(n_rows: int, n_features: int) -> int | None:
    """None (no cap) when a full query has at most `MAX_SUBSETS` feature subsets and the full
    Direct KB fits the dashboard's budget (`plx_core.direct.choose_max_len`, 1 GiB); else the
    largest cap that meets both (at least 1). Wide uploads such as Mushroom (21 usable
    features) get max_len 2 and stay interactive."""
    from plx_core.direct import choose_max_len, n_subsets
    from plx_core.errors import KBTooLargeError

    try:
        mem_cap, _ = choose_max_len(n_rows, n_features, None, DASHBOARD_BUDGET)
    except KBTooLargeError:
        return 1
    if mem_cap is None and n_subsets(n_features, None) <= MAX_SUBSETS:
        return None
    top = n_features if mem_cap is None else mem_cap
    fit = [k for k in range(1, top + 1) if n_subsets(n_features, k) <= MAX_SUBSETS]
    return fit[-1] if fit else 1


def build_kb(
    X: pd.DataFrame, y: pd.Series, positive: str, settings: KBSettings,
    progress: Callable[[float, str], None] | None = None,
    raw: tuple[pd.DataFrame, Mapping[str, Binning]] | None = None,
    groups: pd.Series | None = None, class_weight: str | None = "balanced",
) -> tuple[KB, list[Tree], float, ModelChoice | None]:
    """Build a KB; returns (kb, trees (for tree kinds), seconds, the default's choice (kind
    "auto"; else None)). `progress(fraction, text)`. Kind "auto" fits on each training row
    once (`fit_default`), on `raw` when given: (X's rows with numbers as numbers, as `plx fit`
    fits them — `data.estimator_rows` —, how the Data page reads each binned column);
    `groups`: each row's case (indexed as the table), kept on one side of its search's folds;
    `class_weight` the default's (`PLXClassifier`'s; None: the Data page's no balancing)."""
    say = progress or (lambda f, t: None)
    t0 = time.perf_counter()
    trees: list[Tree] = []
    model = None
    if settings.kind == "auto":
        rows, formats = raw if raw is not None else (X, {})
        once = ~rows.index.duplicated(keep="first")
        kb, trees, model = fit_default(rows[once], y[once], positive, settings.random_state,
                                       DASHBOARD_BUDGET, progress, formats,
                                       None if groups is None else
                                       groups.loc[rows.index[once]].to_numpy(), class_weight)
    elif settings.kind == "direct":
        say(0.05, "Counting every feature-value set of the training rows…")
        # the page's "no cap" is every length (direct_kb's None would pick a cap itself)
        kb = direct_kb(X, y, positive=positive, max_len=settings.max_len or X.shape[1])
    elif settings.kind in ("tree", "tree-all", "forest"):
        # a long table: what the unpruned trees cost, said before the work (`scale`)
        cost = long_tree_said(settings.kind, len(X))
        limit = f" ({cost})" if cost else ""
        many = settings.kind == "forest"
        say(0.05, (f"Growing {settings.n_trees} ID3 trees" if many else "Growing the ID3 tree")
            + f"{limit}…")
        kb, trees = tree_kb_with_trees(X, y, positive=positive,
                                       nodes="all" if settings.kind == "tree-all" else "leaves",
                                       n_trees=settings.n_trees if many else 1,
                                       max_depth=settings.max_depth,
                                       random_state=settings.random_state)
    else:
        raise DataError(f"unknown KB kind {settings.kind!r}; choose one of {list(KB_KINDS)}")
    say(0.9, "Indexing the clauses…")
    kb.index()
    secs = time.perf_counter() - t0
    say(1.0, f"Built {len(kb):,} clauses in {secs:.2f} s")
    return kb, trees, secs, model


def with_rules(kb: KB, rules: Sequence[WeightedClause]) -> KB:
    """The KB plus the rules, sharing the learned arrays and their lookup index (no copy)."""
    if not rules:
        return kb
    kb.index()
    return kb.with_rules(rules)
