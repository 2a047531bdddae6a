"""Choosing plx's own model per data set by cross-validation on the training rows
(`PLXClassifier(variant="auto")`, the default).

Every candidate is one KB of weighted clauses answered by the LP / weighted-median semantics:

* "direct" — the tuned Direct KB (`plx_core.variants.tune`: clause-length window and prior
  clause chosen by exact leave-one-out); its evidence is that leave-one-out's decisions, which
  cost nothing more than the tuning itself;
* "direct-conf" — the Direct KB with confidence weights (`plx_core.weighting`: a clause
  weighs by how far its m-estimated probability lies from the base rate), one candidate per m
  of `weighting.M_GRID`; scored by its exact leave-one-out ω(POS) means, on the same rows as
  the tuned Direct KB's, with a threshold chosen like the trees';
* "direct-vote" — the Direct KB's one-feature clauses with fitted vote weights and a prior
  clause (`plx_core.vote`: the weighted median's decision is a weighted vote, so the weights
  let it add the evidence of every feature up); scored on `vote.VOTE_FOLDS` folds, its
  threshold chosen on the vote's out-of-fold logistic probability and moved into the prior
  clause (the KB decides at 0.5);
* "tree-all" — every node's path of one ID3 tree (the leaf-only "tree": see `CANDIDATES`),
  grown until pure or cut at a depth limit of `TREE_DEPTHS`, each depth a candidate of its own;
* "tree-bin", "tree-bin-deep" — the same for an ID3 tree of value-against-rest splits, with
  unit or depth weights (`TREE_MODELS`);
* ("forest" — the leaf paths of `n_trees` ID3 trees on bootstrap samples: optional, see
  `CANDIDATES`);

the tree candidates are scored on `SELECT_FOLDS` stratified folds (seeded), each answering
its held-out rows with `TREE_SEMANTICS`, with a decision threshold on the balanced ω(POS)
means chosen among `THRESHOLDS` for out-of-fold F1.

The candidate with the largest out-of-fold F1 answers; ties go to the Direct KB (the paper's
model), then to the order of `CANDIDATES`. The Direct KB's leave-one-out F1 is that of the
best of its tuned configurations, so the comparison leans towards it: another model must
beat the tuned paper model on rows it did not see. Measured in benchmarks/RESULTS.md
("Accuracy on the data users bring").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .variants import _f1  # the one F1 (the tuned variant's leave-one-out scores with it too)

CANDIDATES = ("direct", "direct-conf", "tree-all", "tree-bin-deep", "direct-vote")
"""The models compared (the binary trees: `TREE_MODELS`; "tree-bin", unit weights, is left
out: the median over every node of a path dilutes the leaf that decides — on the
comparison's splits at threshold 0.5 it tested 0.735 / 0.824 on MONK's 1 / Car against
0.872 / 0.952 with depth weights). The leaf-only "tree" KB is supported but left out:
answered by the relevant semantics, a row with a missing cell on its path and every explanation sub-query
shorter than a path have no clause at all ([0, 1]; measured on a DNF table: every k = 2
explanation of the leaf tree was [0, 1], those of the all-node tree named a term of the
label), and under the full semantics each of them is an LP. The all-node tree answers them
from the path prefixes it knows. A "forest" candidate (10 ID3 trees, `PLXClassifier`'s `kb="forest"`)
is supported but left out: grown in every fold it was 90% of the search's time (2.3–4.3× a
random forest's fit on Titanic and the rare sets at 210 rows) and won no set's 5-fold
comparison in the trial (Voting: tree-all 0.953, forest 0.927)."""
TREE_MODELS = ("tree-all", "tree-bin", "tree-bin-deep")
"""The tree models, each scored at every limit of `depths_of(model)`: the multiway ID3 tree,
and the binary one (`plx_core.tree.id3_binary`: value-against-rest splits, each node one
clause per combination of its allowed values) with unit node weights ("tree-bin": its limit
counts the features a path constrains, its KB cut to clauses of at most that many literals;
not in `CANDIDATES`, see RESULTS.md) or with depth weights ("tree-bin-deep": a node outweighs
its ancestors, so a full row gets its leaf's answer as from a decision tree, a partial row
the deepest node its known features reach; its limit is the tree's depth, as CART's)."""
BIN_DEPTHS: tuple[int | None, ...] = (None,)
"""Depth limits tried for "tree-bin-deep", in tie order: only the tree grown until pure, whose
leaf answers as a decision tree's does. Depth limits were measured and not kept
(benchmarks/RESULTS.md): (3, unlimited) cost the rare additive table 0.012, the full grid
(2, 3, 4, 5, 6, 8, unlimited) the rare sets 0.010–0.019 — there the best depth is a draw
among near-equal out-of-fold scores — although it took DNF + noise 0.04–0.05 up."""
TREE_DEPTHS: tuple[int | None, ...] = (None, 4, 3, 2)
"""Depth limits tried for "tree-all" (None: grown until pure, the ID3 of the paper), in tie
order: a limit answers only if it beats the deeper trees out of fold, so where depth makes no
difference on the training folds the tree is the one grown before the search existed. Each fold
grows one unlimited tree and reads the shallower ones off it (`plx_core.tree.truncate`); the
depth with the best out-of-fold F1 is refitted on all training rows. A tree grown until pure
fits label noise and leaves few rows per leaf (DNF + 10% noise, the rare sets)."""
SELECT_FOLDS = 5
THRESHOLDS = tuple(float(t) for t in np.round(np.arange(0.2, 0.801, 0.05), 2))
TREE_SEMANTICS = "relevant"
"""How a Tree KB candidate answers (with `semantics="auto"`): a full query gets the matching
path's answer under either semantics; a partial one (a missing cell) is answered by the paths
whose conditions it knows, without an LP per row (the full semantics' LP made the 5-fold
search 13–18× a random forest's fit on Titanic)."""
DIRECT_THRESHOLD = True
"""Whether the tuned Direct KB's threshold is chosen among `THRESHOLDS` on its leave-one-out
ω(POS) means (`weighting.loo_means`, "window") like the other candidates' — guarded: it leaves
0.5 only for a threshold that answers more rows correctly (`best_threshold`), as its window and
prior were already chosen for F1 at 0.5 on the same rows (unguarded, Car lost 0.005 over 10
splits). False: it decides at 0.5, the leave-one-out decisions of `variants.tune`."""
LOO_PAIRS = 1_000_000
"""Above this many (training row × subset) pairs the Direct KB's leave-one-out means are not
computed: no confidence-weighted candidate, and the tuned Direct KB decides at 0.5 (the search
as before them). Their cost is a sort of every pair (~1 µs a pair: +3 s on a 12-feature table
of 700 rows, 2.9 M pairs), and where they moved F1 the tables had ≤ 697 subsets a row
(Nursery, Car, HIV-1, MONK's, the rare sets: ≤ 0.5 M pairs); measured in benchmarks/RESULTS.md."""
VOTE_MARGIN = 0.01
""""direct-vote" answers only if its out-of-fold F1 beats every other candidate's by more than
this. Its score is a 10-fold estimate with a threshold chosen on the same rows, the others'
a leave-one-out or 5-fold one: on small tables the choice among near-equal scores is a draw
(SPECT, 187 training rows: the vote won the folds on 13 of 20 splits by 0.000–0.024 and lost
the test rows on runs 10–19 by 0.007 in all; with this margin −0.002). Measured in
benchmarks/RESULTS.md ("Fitted vote weights"), with margins 0, 0.005, 0.02, 0.03 and a sign
test on the rows answered correctly (as the Direct KB's threshold is guarded) that kept SPECT's
losing splits."""
MIN_SELECT_ROWS = 30
"""Fewer training rows (or fewer than `SELECT_FOLDS` rows of a class): no selection, the
tuned Direct KB answers."""


@dataclass(frozen=True)
class Selection:
    """What `choose` found: the candidate that answers, its threshold, and every candidate's
    out-of-fold F1 (`scores`) and threshold (`thresholds`), with a one-sentence `reason`."""

    chosen: str
    threshold: float
    reason: str
    scores: dict[str, float] = field(default_factory=dict)
    thresholds: dict[str, float] = field(default_factory=dict)
    n_rows: int = 0
    max_depth: int | None = None
    """The depth limit of the chosen "tree-all" (None: unlimited, or the Direct KB answers)."""
    m: float | None = None
    """The m-estimate strength of the chosen "direct-conf" (None for the other models)."""


def tree_key(depth: int | None, model: str = "tree-all") -> str:
    """The name a depth-limited tree candidate is scored under ("tree-all" unlimited; the
    unit-weight binary tree's limit is on the features a path constrains: "tree-bin
    features≤3")."""
    if depth is None:
        return model
    return f"{model} {'features' if model == 'tree-bin' else 'depth'}≤{depth}"


def depths_of(model: str) -> tuple[int | None, ...]:
    """The limits a tree model is scored at (`BIN_DEPTHS` for "tree-bin-deep")."""
    return BIN_DEPTHS if model == "tree-bin-deep" else TREE_DEPTHS


def conf_key(m: float) -> str:
    """The name the confidence-weighted Direct KB with m-estimate strength m is scored under."""
    return f"direct-conf m={m:g}"


def _candidates() -> list[tuple[str, str, float | None]]:
    """(key, model, setting) in tie order: the Direct KB, the confidence-weighted Direct KB per
    m of `weighting.M_GRID`, then the tree per depth of `TREE_DEPTHS` (setting: m or depth)."""
    from .weighting import M_GRID

    out: list[tuple[str, str, float | None]] = []
    for name in CANDIDATES:
        if name in TREE_MODELS:
            out += [(tree_key(d, name), name, d) for d in depths_of(name)]
        elif name == "direct-conf":
            out += [(conf_key(m), name, m) for m in M_GRID]
        else:
            out.append((name, name, None))
    return out


def f1_at(y: np.ndarray, means: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    """F1 of the positive class for "positive iff mean > t" at each t (rows: NaN means count
    as negative)."""
    pred = np.nan_to_num(np.asarray(means, float), nan=-1.0)[None, :] > (
        np.asarray(thresholds, float)[:, None] + 1e-9)
    return _f1(pred, np.asarray(y, dtype=bool).astype(np.int64))


def best_threshold(y: np.ndarray, means: np.ndarray, guarded: bool = False
                   ) -> tuple[float, float]:
    """(threshold, F1): the `THRESHOLDS` value with the best F1, ties to the one nearest 0.5.
    `guarded`: only thresholds that answer more rows correctly than 0.5 does, each class
    weighing the same in all (the sign test, z = 0, with which `variants.tune` keeps the paper's
    configuration unless another wins), may replace 0.5."""
    ts = np.asarray(THRESHOLDS)
    f1 = f1_at(y, means, ts)
    if guarded:
        yb = np.asarray(y, dtype=bool)
        m = np.nan_to_num(np.asarray(means, float), nan=-1.0)
        right = (m[None, :] > ts[:, None] + 1e-9) == yb[None, :]
        at_half = (m > 0.5 + 1e-9) == yb
        w = np.where(yb, 1.0 / max(int(yb.sum()), 1), 1.0 / max(int((~yb).sum()), 1))
        gain = (right & ~at_half) @ w - (~right & at_half) @ w
        f1 = np.where((gain > 1e-12) | np.isclose(ts, 0.5), f1, -1.0)
    order = np.lexsort((np.abs(ts - 0.5), -f1))
    return float(ts[order[0]]), float(f1[order[0]])


def folds(y: np.ndarray, k: int, seed: int | None) -> list[tuple[np.ndarray, np.ndarray]]:
    """Stratified k-fold (train, held-out) positions, shuffled with `seed`."""
    from sklearn.model_selection import StratifiedKFold

    skf = StratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
    return list(skf.split(np.zeros(len(y)), y))


def out_of_fold(frame: pd.DataFrame, y: np.ndarray, fit_fold: Callable[..., dict],
                seed: int | None, k: int = SELECT_FOLDS) -> dict[str, np.ndarray]:
    """Per candidate, the out-of-fold ω(POS) mean of every row. `fit_fold(frame, y)` fits the
    candidates on one fold's training rows and returns {name: answer(frame) → means}."""
    out: dict[str, np.ndarray] = {}
    for tr, te in folds(y, k, seed):
        answers = fit_fold(frame.iloc[tr].reset_index(drop=True), y[tr])
        held = frame.iloc[te].reset_index(drop=True)
        for name, answer in answers.items():
            out.setdefault(name, np.full(len(y), np.nan))[te] = answer(held)
    return out


def choose(y: np.ndarray, direct_pred: np.ndarray | None, direct_rows: np.ndarray | None,
           oof: dict[str, np.ndarray]) -> Selection:
    """The candidate with the best out-of-fold F1 (see the module docstring).

    `direct_pred`: the tuned Direct KB's leave-one-out decisions on `direct_rows` (positions
    into y; None: all rows); the other candidates are scored on the same rows."""
    y = np.asarray(y, dtype=bool)
    rows = np.arange(len(y)) if direct_rows is None else np.asarray(direct_rows)
    scores: dict[str, float] = {}
    thresholds: dict[str, float] = {}
    order = _candidates()
    if direct_pred is not None and "direct" not in oof:
        scores["direct"] = float(f1_at(y[rows], np.asarray(direct_pred, float), np.array([0.5]))[0])
        thresholds["direct"] = 0.5
    for key, _model, _depth in order:
        if key in oof:
            thresholds[key], scores[key] = best_threshold(y[rows], oof[key][rows],
                                                          guarded=key == "direct")
    rank = {key: i for i, (key, _m, _d) in enumerate(order)}
    guarded = False
    best = max(scores, key=lambda n: (scores[n], -rank.get(n, len(rank))))
    if best == "direct-vote" and len(scores) > 1:
        runner = max((n for n in scores if n != best),
                     key=lambda n: (scores[n], -rank.get(n, len(rank))))
        if scores[best] <= scores[runner] + VOTE_MARGIN:
            best, guarded = runner, True
    model, setting = next(((m, d) for k, m, d in order if k == best), (best, None))
    model_of = {k: m for k, m, _d in order}
    runner = sorted((n for n in scores if n != best and model_of.get(n, n) != model),
                    key=lambda n: -scores[n])
    against = (f"; next {runner[0]} {scores[runner[0]]:.3f}" if runner else "")
    if guarded:
        against += f" (the fitted vote answers only by more than {VOTE_MARGIN:g})"
    from .vote import VOTE_FOLDS

    how = ("leave-one-out" if model in ("direct", "direct-conf") else
           f"{VOTE_FOLDS}-fold, the one-feature clauses' fitted vote; its threshold is on the "
           "vote's probability, moved into the prior clause" if model == "direct-vote"
           else f"{SELECT_FOLDS}-fold")
    depth = int(setting) if model in TREE_MODELS and setting is not None else None
    m = float(setting) if model == "direct-conf" else None
    if model == "tree-all":
        how += ", depth " + ("unlimited" if depth is None else f"≤ {depth}")
    elif model == "tree-bin":
        how += ", value-against-rest splits, " + (
            "depth unlimited" if depth is None else f"≤ {depth} features a path")
    elif model == "tree-bin-deep":
        how += ", value-against-rest splits, the deepest node answers, depth " + (
            "unlimited" if depth is None else f"≤ {depth}")
    if m is not None:
        how += f", m = {m:g}"
    reason = (f"{model} answers: out-of-fold F1 {scores[best]:.3f} ({how}, threshold "
              f"{thresholds[best]:g}) on {len(rows)} training rows{against}")
    return Selection(model, thresholds[best], reason, scores, thresholds, len(rows), depth, m)


__all__ = ["CANDIDATES", "SELECT_FOLDS", "VOTE_MARGIN", "THRESHOLDS", "TREE_DEPTHS", "TREE_MODELS", "BIN_DEPTHS",
           "Selection", "depths_of",
           "LOO_PAIRS", "best_threshold", "choose", "conf_key", "f1_at", "folds", "out_of_fold", "tree_key",
           "TREE_SEMANTICS"]
