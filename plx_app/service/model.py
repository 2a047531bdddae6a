"""The model plx's default picks (`PLXClassifier()`, as `plx fit` fits it) for the dashboard:
which candidate answers and why, its threshold and semantics, the tree it answers with, and
that tree's nodes in words for the tree view."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from plx_core import wording
from plx_core.data import Binning
from plx_core.encoding import value_str
from plx_core.estimator import PLXClassifier
from plx_core.kb import KB
from plx_core.notes import collected
from plx_core.scale import min_split
from plx_core.selection import is_vote
from plx_core.tree import (
    BinaryTreeNode,
    Tree,
    build_trees,
    prune,
    prune_alphas,
    tree_rows,
    trees_to_kb,
    truncate,
)

FIT_SPAN = (0.05, 0.85)
"""The share of the KB's progress bar the estimator's fit moves through: nearly all the work
(it had 0.05-0.65, then the bar ran 0.65 -> 1.0 in the moments of redrawing and indexing)."""
TREE_CHOICES = ("tree-all", "tree-bin-deep")
"""Chosen models that answer with one tree's nodes (the tree view draws them)."""


@dataclass(frozen=True)
class ModelChoice:
    """What the default fit chose: `chosen` (a `plx_core.selection.CANDIDATES` name),
    `reason` (its sentence), `threshold` and `semantics` (how it answers), `scores` (each
    candidate's out-of-fold F1 and threshold on the training rows, best first), the
    columns it left out and why, and a note when its tree could not be redrawn."""

    chosen: str
    reason: str
    threshold: float
    semantics: str
    scores: pd.DataFrame
    max_depth: int | None = None
    excluded: tuple[tuple[str, str], ...] = ()
    warnings: tuple[str, ...] = ()
    tree_note: str = ""
    searched: KB | None = field(default=None, compare=False, repr=False)
    """The KB explanations search when it is not the one that answers: the full Direct KB
    behind a tuned one (what `PLXClassifier.explain` searches); None: the answering KB."""
    bins: Mapping[str, Binning] = field(default_factory=dict, compare=False, repr=False)
    """The model's cut points (`PLXClassifier.discretizer_`), read from text as the Data
    page reads each column: its KB's values of a number are these bins' labels (the vote on
    finer bins cuts where the Data page does not)."""
    n_rows: int = 0
    """The training rows the candidates were scored on (`Selection.n_rows`)."""
    estimator: PLXClassifier | None = field(default=None, compare=False, repr=False)
    """The fitted `PLXClassifier` itself, for the model file (`model_file`)."""

    @property
    def name(self) -> str:
        """The chosen model in plain words."""
        return wording.model_name(self.chosen)

    def threshold_note(self) -> str:
        """Why the candidates table's threshold of the model that answers differs from the
        decision threshold, where it does: a fitted vote's cut is moved into its base-rate
        clause (`wording.threshold_moved_sentence`); "" where the two agree."""
        if not len(self.scores):
            return ""
        row = self.scores[self.scores["answers"]]
        if not len(row):
            return ""
        key, own = str(row["candidate"].iloc[0]), float(row["threshold"].iloc[0])
        if not (is_vote(key) or key == "rule-vote") or abs(own - self.threshold) < 1e-12:
            return ""
        return wording.threshold_moved_sentence(own, self.threshold)

    def summary(self, positive: str) -> str:
        """What was chosen and why in one plain sentence (`wording.selection_sentence`); ""
        without a selection (too few rows: the tuned Direct KB answers unscored)."""
        if not len(self.scores):
            return ""
        answers = self.scores.loc[self.scores["answers"], "candidate"]
        if not len(answers):
            return ""
        return wording.selection_sentence(
            dict(zip(self.scores["candidate"], self.scores["out-of-fold F1"])),
            answers.iloc[0], self.n_rows, positive)


def selection_table(sel) -> pd.DataFrame:
    """Every candidate of a `plx_core.selection.Selection`: out-of-fold F1, the threshold it
    would answer with, and which one answers (best F1 first)."""
    rows = [{"candidate": k, "out-of-fold F1": float(v),
             "threshold": float(sel.thresholds.get(k, np.nan))} for k, v in sel.scores.items()]
    frame = pd.DataFrame(rows, columns=["candidate", "out-of-fold F1", "threshold"])
    frame = frame.sort_values("out-of-fold F1", ascending=False, kind="stable").reset_index(drop=True)
    frame["answers"] = frame["candidate"] == sel.key
    return frame


def fit_default(X: pd.DataFrame, y: pd.Series, positive: str, random_state: int = 0,
                memory_budget: int | None = None,
                progress: Callable[[float, str], None] | None = None,
                formats: Mapping[str, Binning] | None = None,
                groups: np.ndarray | None = None, class_weight: str | None = "balanced",
                ) -> tuple[KB, list[Tree], ModelChoice]:
    """Fit `PLXClassifier()` (variant "auto") on the training rows; returns the KB that
    answers, the tree it answers with (redrawn from the same rows; empty for a Direct KB)
    and the `ModelChoice`. X holds each training row once (numbers as numbers, as `plx fit`
    passes them: `data.estimator_rows`): the estimator's balanced class weights do what
    replicated rows would, and replicas would stop its cross-validation. `formats`: how the
    Data page reads each binned column from text (the model's bins keep it, as `plx fit`'s).
    `progress(fraction, text)` is told the fit's phases, as `plx fit` tells them on stderr.
    `groups`: each row's case (the Data page's case column), as `plx fit --case-column`;
    `class_weight`: the estimator's ("balanced", its default; None on the Data page's no
    balancing: the rows' own mix)."""
    say = progress or (lambda f, t: None)
    say(0.05, "Fitting plx's default: comparing the Direct KB and the trees on the training rows…")
    labels = y.astype(str)
    with collected() as noted:  # this session's notes only (sessions run in threads)
        est = PLXClassifier(positive=positive, random_state=random_state,
                            memory_budget=memory_budget, class_weight=class_weight).fit(
            X, labels, groups,
            progress=lambda f, t: say(FIT_SPAN[0] + (FIT_SPAN[1] - FIT_SPAN[0]) * f,
                                      t[:1].upper() + t[1:] + "…"))
    said = tuple(dict.fromkeys(noted))
    sel = est.selection_
    scores = selection_table(sel) if sel is not None else pd.DataFrame(
        columns=["candidate", "out-of-fold F1", "threshold", "answers"])
    trees: list[Tree] = []
    note = ""
    if est.chosen_ in TREE_CHOICES:
        say(FIT_SPAN[1], "Redrawing the chosen tree…")
        trees, note = answering_tree(est, X, labels)
    formats = formats or {}
    bins = {f: b.with_reading(formats[f]) if f in formats else b
            for f, b in est.discretizer_.binnings_.items()}
    choice = ModelChoice(est.chosen_, est.chosen_reason_, float(est._threshold()),
                         est._semantics(), scores, None if sel is None else sel.max_depth,
                         tuple(est.excluded_.items()), said, note, est.paper_kbs_[0], bins,
                         0 if sel is None else sel.n_rows, est)
    return est.kb_, trees, choice


def answering_tree(est: PLXClassifier, X: pd.DataFrame, labels: pd.Series) -> tuple[list[Tree], str]:
    """The tree behind a fitted estimator's chosen tree KB, grown again on the same binned
    rows with the same settings (splitting nodes as large as the fit did, `scale.min_split`)
    and cut at the chosen depth (or pruned at the chosen cost-complexity α); ([], why) unless its all-node KB has exactly the answering KB's
    clauses (same bodies, supports, weights)."""
    binary = est.chosen_ == "tree-bin-deep"
    frame = est.transform_rows(X).drop(columns=list(est.excluded_))
    yy = (labels.to_numpy() == est.positive_).astype(int)
    grown = build_trees(tree_rows(frame, yy, positive=1), n_trees=1, bootstrap=est.bootstrap,
                        max_features=est.max_features, max_depth=est.max_depth,
                        min_samples_split=min_split(len(frame), est.search_rows_),
                        random_state=est.random_state, binary=binary)[0]
    sel = est.selection_
    tree = truncate(grown, sel.max_depth if sel is not None else None)
    if sel is not None and sel.alpha is not None:  # as the fit prunes it (its class weights)
        weights = est._prune_weights(yy, est._class_weights(
            np.array([value_str(v) for v in labels], dtype=object), est.positive_))
        tree = prune(tree, prune_alphas(tree, *weights) > sel.alpha)
    again = trees_to_kb([tree], "all", weights="depth" if binary else "unit")
    kb = est.kb_
    same = (again.codes.shape == kb.codes.shape and list(again.features) == list(kb.features)
            and np.array_equal(again.codes, kb.codes) and np.array_equal(again.support, kb.support)
            and np.array_equal(again.w, kb.w))
    if not same:
        return [], ("the chosen tree could not be redrawn clause for clause; browse its "
                    "clauses instead")
    return [tree], ""


def tree_view_frame(tree: Tree, kb: KB | None = None) -> pd.DataFrame:
    """`Tree.to_frame()` in words for the tree view: `label` the edge into the node
    (`safety = low`, `safety ≠ low`, or `buying ∈ {high, vhigh}` where the path narrowed
    the feature before), `condition` its whole path (`;`-joined), `clauses` how many
    clauses it is in the KB, and, given the KB drawn from this tree's every node,
    `answer` (ω(POS) of a row whose known values reach no deeper: the node's corrected p)
    and `w` (its weight); the root answers no row (NaN) unless it is the only node."""
    nodes = tree.to_frame()
    objs = list(tree.nodes())  # the same pre-order as to_frame
    labels, conds, n_clauses = [], [], []
    for node in objs:
        if isinstance(node, BinaryTreeNode):
            sets = dict(node.allowed)
            parts = [wording.values_condition(f, v, tree.domains[f]) for f, v in node.allowed]
            n_clauses.append(node.n_clauses)
            if node.feature is None:
                labels.append("root")
            elif node.equal:
                labels.append(wording.condition(node.feature, node.value))
            else:
                keep = sets[node.feature]
                narrowed = len(keep) < len(tree.domains[node.feature]) - 1
                labels.append(wording.values_condition(node.feature, keep, tree.domains[node.feature])
                              if narrowed else f"{node.feature} ≠ {node.value}")
        else:
            parts = [wording.condition(f, v) for f, v in node.path]
            n_clauses.append(1)
            labels.append("root" if node.feature is None else wording.condition(node.feature, node.value))
        conds.append("; ".join(parts) if parts else "every row")
    nodes["label"] = labels
    nodes["condition"] = conds
    nodes["clauses"] = n_clauses
    if kb is not None:
        with_clause = [n.feature is not None or n.is_leaf for n in objs]
        sizes = np.array([c for c, has in zip(n_clauses, with_clause) if has], dtype=np.int64)
        if int(sizes.sum()) == len(kb.p):
            first = np.cumsum(sizes) - sizes
            answer = np.full(len(objs), np.nan)
            weight = np.full(len(objs), np.nan)
            answer[np.flatnonzero(with_clause)] = kb.p[first]
            weight[np.flatnonzero(with_clause)] = kb.w[first]
            nodes["answer"], nodes["w"] = answer, weight
    return nodes


def file_schema(ws, cut: Mapping[str, Binning]) -> Any:
    """How a model file of this session reads raw rows: the Data page's reading of the
    columns (`Workspace.dataset`'s schema) cut at `cut` (a model's cut points, read as the page
    reads text, as plx fit's schema takes them), with the missing-value markers the table was
    read with (`Schema.missing`, as `plx fit --missing`)."""
    from dataclasses import replace

    from plx_core.data import MISSING_MARKERS

    markers = tuple(ws.raw.options.get("missing", MISSING_MARKERS))
    schema = ws.dataset.schema
    return replace(schema, bins={**schema.bins, **cut},
                   kinds={**schema.kinds, **{f: "numeric" for f in cut if f in schema.kinds}},
                   categories={**schema.categories, **{f: tuple(b.labels) for f, b in cut.items()}},
                   missing=None if markers == MISSING_MARKERS else markers)


def model_file(ws, fmt: str = "json") -> bytes:
    """plx's default as this session fitted it, as the model file `plx fit` writes
    (`modelfile.model_of` with the Data page's reading of the columns, `Workspace.dataset`'s
    schema cut where the model cuts): with every setting the model needs at predict that the
    dashboard holds — the missing-value markers the table was read with (`Schema.missing`,
    as `plx fit --missing`: `plx predict` and `load_model` read new rows' cells alike), the
    threshold set on Evaluate (as `plx fit --threshold`), the semantics set on the Query page
    and the enabled rules (as `plx rules add`), the session's own KB left as it is. Raises `ValueError` when the KB in use is not plx's default."""
    from plx_core.modelfile import model_bytes, model_of
    from plx_core.modelrules import add_model_rules
    from plx_core.rules import rules_text

    est = ws.model.estimator if ws.model is not None else None
    if est is None or ws.dataset.schema is None:
        raise ValueError(wording.MODEL_FILE_NEEDS_DEFAULT)
    model = model_of(est, file_schema(ws, ws.model.bins), n_train=ws.n_train_rows)
    model.kb = model.kb.copy()  # the estimator's KB is the one the pages answer with: the
    # rules go into the file's copy (added in place, they counted twice on every page after)
    if ws.semantics != "auto":  # the Query page's semantics answer every page (as predict)
        model.settings["semantics"] = ws.answer_semantics
    if ws.kb_settings.threshold is not None and getattr(model, "positive", None) is not None:
        model.settings["threshold"] = float(ws.threshold)
    if enabled := [r for r in ws.rules if r.enabled]:
        add_model_rules(model, rules_text(enabled))
    return model_bytes(model, fmt)


__all__ = ["ModelChoice", "TREE_CHOICES", "answering_tree", "file_schema", "fit_default", "model_file",
           "selection_table", "tree_view_frame"]
