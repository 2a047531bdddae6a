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
  clause (the KB decides at 0.5); scored twice when the table has numeric columns: on the
  fit's own cut points ("direct-vote") and on `vote.fine_bins` equal-frequency bins per
  numeric column ("direct-vote bins=32", `vote_key`: the smooth vote, each column's bins
  voting as one smooth shape, `vote.smoothing`), whose cut points become the fitted model's
  when it answers; and, within `vote.PAIR_VOTES` and `vote.PAIR_SUPPORT`, on the
  one- and two-feature clauses ("direct-vote pairs", `vote.pair_codes`), which can state an
  interaction of two features; either must beat the vote on the fit's own cut points (by
  `BINS_MARGIN`, `VOTE_MARGIN`) and every other candidate by `VOTE_MARGIN` (a tree scored on
  the same cut points with the same credit as the vote: by `FINE_MARGIN`);
* "tree-all" — every node's path of one ID3 tree (the leaf-only "tree": see `CANDIDATES`),
  grown until pure or cut at a depth limit of `TREE_DEPTHS`, each depth a candidate of its own;
* "tree-bin", "tree-bin-deep" — the same for an ID3 tree of value-against-rest splits, with
  unit or depth weights (`TREE_MODELS`); "tree-bin-deep" also cost-complexity pruned at each α
  of `BIN_ALPHAS` (CART's weakest-link pruning, read off the one tree grown per fold);
* "rule-vote" — a rule vote in plx's clauses (`vote.RuleVote`): the one-feature clauses and
  the terms `terms.learn_terms` finds on the rows (conjunctions of up to three `a = v` or
  `a ≠ v` literals, by sequential covering for each class), with fitted non-negative vote
  weights (L1 `terms.TERM_L1` and L2) and a prior clause, answered by the weighted median
  like "direct-vote" (whose docstring says why the median reproduces the vote); a row that
  holds "either term" of a label gets that term's vote, which a median of subset frequencies
  cannot give it, and one tree states only by copying a term under each branch of another.
  Scored on the `SELECT_FOLDS` folds of the trees (each fold's terms learned on its training
  rows), its threshold chosen on the vote's out-of-fold probability and moved into the prior
  clause. (Its first version weighed the trees' path clauses, RuleFit's rules: measured
  against the terms in benchmarks/RESULTS.md, "The rule vote on learned terms");
* ("forest" — the leaf paths of `n_trees` ID3 trees on bootstrap samples: optional, see
  `CANDIDATES`);

(on a binary table of `GRID_COLUMNS` numeric columns and `GRID_ROWS` rows or more the whole search runs again on
`GRID_BINS` equal-frequency bins a numeric column, and its choice answers, on those bins, when
it beats this one's out of fold by more than `GRID_MARGIN`: `grid_wins`, `PLXClassifier._race_grid`;
on a binary table whose columns of a few whole numbers have a class rate that steps with the
value out of fold, `whole_screen`, it runs again with them cut as numbers, which answer when
they beat the levels by more than `WHOLE_MARGIN`: `whole_wins`, `PLXClassifier._race_whole`;)

the tree candidates are scored on `SELECT_FOLDS` stratified folds (seeded), each answering
its held-out rows with `TREE_SEMANTICS`, with a decision threshold on the balanced ω(POS)
means chosen among `THRESHOLDS` for out-of-fold F1 (the smooth vote, scored at its best,
answers at the middle of its near-best thresholds, `steady_threshold`). Where the smooth vote
races (an MDLP fit with numeric columns), the trees and the rule vote are scored on each fold's own cut points
(`out_of_fold`'s `frames`: one MDLP search per fold on its training rows, among the fine bins'
edges), not on the fit's, which every row's label placed: their held-out F1 then no longer
rests on cuts the held-out labels chose (on the fit's cuts a depth-3 tree scored 0.677 out of
fold on Rare 10% and tested 0.599; on the folds' 0.594), and they get the same credit for the
optimism of the fit's cuts as the smooth vote (`offsets`), the Direct KB and the MDLP vote
being the candidates left on the fit's cuts. With the sparser smooth vote (`vote.sparser`),
measured on all 23 sets × 10 splits: Rare 10% 0.6245 → 0.6289, Rare 5% 0.4704 → 0.4711, the
rare additive table 0.334 → 0.350, the other 20 sets the same on every split
(benchmarks/RESULTS.md, "Honest trees and a sparser smooth vote"); scored on the fit's cuts
alone the trees beat the vote unfairly on Rare 10% and Rare 5% (0.632 → 0.641, 0.470 → 0.499
over 20 splits with the fold cuts).

The candidate with the largest out-of-fold F1 answers; ties go to the Direct KB (the paper's
model), then to the order of `CANDIDATES`. A pruned tree answers only if it beats the best
candidate that is not pruned by more than `PRUNE_SE` standard errors of their paired per-fold
F1 differences (`one_se`), or ties it with fewer clauses than any candidate of that score
without pruning (`sizes`: a tree's in its folds, the tuned Direct KB's; the smallest such
tree; as CART's one-standard-error rule takes the smallest of the trees that score alike —
a pruning that removed nothing is no smaller than its tree): the α is a choice
among near-equal fold scores, so it must win by more than the folds' noise (CART's
one-standard-error rule, there for the same reason) — or be the smaller of equals. A vote
answers only past its margin, also where a pruned tree falls back (`VOTE_MARGIN`, `FINE_MARGIN`). The Direct KB's leave-one-out F1 is that of the
best of its tuned configurations, so the comparison leans towards it: another model must
beat the tuned paper model on rows it did not see. Measured in benchmarks/RESULTS.md
("Accuracy on the data users bring").
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from .variants import _f1  # the one F1 (the tuned variant's leave-one-out scores with it too)

CANDIDATES = ("direct", "direct-conf", "tree-all", "tree-bin-deep", "direct-vote", "rule-vote")
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
RULE_TREES = ("tree-all", "tree-bin-deep")
"""The trees the search grows for "rule-vote" too: its rows are read (features, domains,
codes) as the first one's are. (Its clauses were these trees' path clauses before the
learned terms, `terms.learn_terms`, replaced them.)"""
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
BIN_ALPHAS: tuple[float, ...] = (0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.02,
                                 0.03)
"""Cost-complexity α at which "tree-bin-deep" is also scored pruned (`tree.prune_alphas`: the
balanced misclassification rate of the training rows plus α per leaf, CART's weakest link),
in tie order (the larger tree first). Each fold's one grown tree is answered at every α from
one lookup; the chosen α prunes the tree grown on all training rows. A pruned tree answers
only past the `one_se` rule. Measured in benchmarks/RESULTS.md ("Pruning the binary tree"):
on DNF + 10% noise it stops at the label's terms (+0.05); chosen by out-of-fold F1 alone it
cost the rare sets up to 0.026, as the depth grid did."""
PRUNE_SE = 1.0
"""How many standard errors of the paired per-fold F1 differences a pruned tree must beat the
best candidate without pruning by (`one_se`). 0: the plain maximum (not kept, above)."""
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
this (a tree scored as it is: by `FINE_MARGIN`; and the vote on pairs only if it also beats the vote on the fit's own cut points by
more than this; the smooth vote on fine bins: `BINS_MARGIN`). Its score is a 10-fold estimate with a threshold chosen on the same rows, the others'
a leave-one-out or 5-fold one: on small tables the choice among near-equal scores is a draw
(SPECT, 187 training rows: the vote won the folds on 13 of 20 splits by 0.000–0.024 and lost
the test rows on runs 10–19 by 0.007 in all; with this margin −0.002). Measured in
benchmarks/RESULTS.md ("Fitted vote weights"), with margins 0, 0.005, 0.02, 0.03 and a sign
test on the rows answered correctly (as the Direct KB's threshold is guarded) that kept SPECT's
losing splits."""
BINS_MARGIN = 0.0
"""How much the smooth vote on fine bins ("direct-vote bins=32") must beat the vote on the
fit's own cut points by to race at all (the vote on pairs: `VOTE_MARGIN`). Both are the same
vote on other bins, and the smooth vote's score already carries the optimism the fit's cut
points give the other (the offset `choose` adds), so the higher of the two races; either must
still beat every other candidate by `VOTE_MARGIN` (the smooth vote the candidates scored as it
is: by `FINE_MARGIN`). It was `VOTE_MARGIN` while the vote on
fine bins was 8 unsmoothed bins (on Breast cancer 30 it won the folds of 2 splits by
0.002–0.007 and lost their test rows by 0.03–0.04); the smooth vote (on 13 bins there,
`vote.fine_bins`) lost 2 of 20 splits and won 16: 0.934 → 0.954 (benchmarks/RESULTS.md, "The
smooth vote on wide numeric tables")."""
FINE_MARGIN = 0.0
"""How much a vote must beat a tree scored as it is by to answer: the smooth vote ("direct-vote
bins=…") the trees and the rule vote, which where it races (an MDLP fit with numeric columns)
are scored on each fold's own cut points and get the same credit for the fit's cut optimism
(`offsets`); the vote on the fit's own codes ("direct-vote", "direct-vote pairs") a tree
without a credit (no numeric columns, or no smooth vote: both on the same cut points) — alike
scores, so the plain maximum chooses. On Voting the margin handed the draws to the trees, the
best of ~60 settings: the vote answering past them by any lead, +0.0037 / −0.0020 / +0.0032 /
+0.0024 / +0.0052 on runs 0–9 / 10–19 / 20–39 / 40–59 / 60–79 (benchmarks/RESULTS.md,
"Session 18"). Every other pair still needs `VOTE_MARGIN`: the vote on the fit's cuts against
the credited trees, and any vote against the Direct KB and its confidence-weighted kin (scored
by leave-one-out, on the fit's cut points without the credit: the credit, measured on the MDLP
vote, is an estimate of their optimism, not theirs — a Direct KB at 1.000 out of fold lost to a
smooth vote credited to 1.003 from 0.997).
With `VOTE_MARGIN` against the trees too (until session 17) a tree answered Rare 10% run 7
whose out-of-fold F1 was 0.008 below the smooth vote's and tested 0.462 against the vote's
0.541 (benchmarks/RESULTS.md, "Session 17: the last three gaps")."""
RULE_MARGIN = VOTE_MARGIN
""""rule-vote" answers only if its out-of-fold F1 beats that of the model the search chooses
without it by more than this (the same margin as "direct-vote"'s, for the same reason: a
threshold chosen on the rows it is scored on, among near-equal scores). Compared with the
best other score it would also stand in the way of the rules that guard the others (a pruned
tree must beat the best plain candidate by a standard error, "direct-vote" by its margin): on
DNF + 10% noise it blocked the pruned tree on 3 of 10 splits (−0.012). Measured in
benchmarks/RESULTS.md ("The rule vote")."""
GRID_BINS = 8
"""Equal-frequency bins per numeric column of the grid the search also races (`grid_wins`):
where a column's effect shows only beside another's (income given debt, weight given height)
MDLP, testing each column alone, leaves it (nearly) uncut and no ~4 × 4 grid states the
diagonal; on 8 × 8 the trees read the two columns as a table (ratio: 0.654 → 0.757 simulated,
benchmarks/RESULTS.md, "Session 20: numeric tables behind a GAM")."""
GRID_COLUMNS = (2, 4)
"""The fewest and most numeric columns a binary table has for the grid to race (a second whole
search on the grid: about one more fit). Two at least (an interaction of two columns); at most
four keeps it off the wide numeric tables, whose fit budget is spent (Breast cancer 30: 30
columns, the rare sets: 8, at ~2.6× a forest) and where out of fold it won none of 50 splits."""
GRID_ROWS = 5 * GRID_BINS ** 2
"""The fewest training rows for the grid to race: five a cell of two columns' 8 × 8 grid. On
fewer, cells of a few rows of one class answer p = 1 whatever the class weights (scikit-learn's
class-weight check, 50 rows weighted 1000 : 0.0001: the grid won out of fold 0.524 against
0.000 and called half the rows the weightless class), and the 120-row table lost its one split
to it (0.818 → 0.744)."""
GRID_SCREEN_DEPTH = 4
"""On a binary table of more than `GRID_COLUMNS` numeric columns the grid races only when a
CART tree of this depth on the grid's bins (`grid_screen`, the search's folds) scores out of
fold within `GRID_SCREEN_SLACK` of the MDLP search's chosen candidate: a few ms where the whole
second search would double the fit (the rare sets, Breast cancer 30: ~2.5× a forest). Depths
2, 3, 4, 6 measured (benchmarks/RESULTS.md, "numeric21"): 4 separates the ratio tables among
10–12 numeric columns from the additive ones best."""
GRID_SCREEN_SLACK = 0.02
"""How far the screen's tree (`GRID_SCREEN_DEPTH`) may score below the MDLP search's chosen
candidate for the grid to race: a tree of fixed depth states the grid's interactions less well
than the search's trees (bmi among 8 noise columns: 0.75–0.81 against the grid search's
0.81–0.84), so it screens, and the race (`GRID_MARGIN`) decides."""
GRID_MAX_LEN = 2
"""The clause-length cap of the search on the grid when it races after its screen (past
`GRID_COLUMNS`): counting the Direct KB's longer clauses over 8 bins of 10–12 columns was half the
grid's fit (ratio12: 0.43–0.70 s CPU against 0.23–0.26 s capped, 1.7× → 4.0× a forest with the
race uncapped), and on those tables the grid answers with its trees: capped at 2 or 3 the same
candidate, out-of-fold F1 and test F1 on all 12 splits of ratio12 and bmi_noise measured."""
GRID_MARGIN = 0.01
"""How much the search on the grid's best out-of-fold F1 (its chosen candidate's) must beat the
MDLP search's chosen one by to answer: both are out-of-fold estimates among many candidates,
and on small tables the grid won its folds by noise (120 rows: −0.012 with no margin)."""


def grid_wins(mdlp: Selection | None, grid: Selection | None) -> str | None:
    """The sentence to add to the reason when the search on the equal-frequency grid answers
    (its chosen candidate's out-of-fold F1 above the MDLP search's by more than `GRID_MARGIN`),
    else None (either search made no choice: the MDLP one stays)."""
    if mdlp is None or grid is None:
        return None
    ours, theirs = _chosen_score(mdlp), _chosen_score(grid)
    if not theirs > ours + GRID_MARGIN:
        return None
    return (f"; on an equal-frequency grid of {GRID_BINS} bins a numeric column, which "
            f"answers: {theirs:.3f} out of fold against {ours:.3f} for {mdlp.key} on MDLP's "
            f"cut points (more than {GRID_MARGIN:g} above)")


WHOLE_SLACK = 0.005
"""How much lower (nats a row, out of fold) the class rate read as ordered in a column of a
few whole numbers (`whole_screen`: a monotone step of its values) must score than both the
rate of each value on its own and no rate at all for the search to race that reading
(`PLXClassifier._race_whole`): an ordered grade passes, ward codes whose risky wards sit
among the others, a column of no effect and a spike at one value do not."""
WHOLE_MARGIN = 0.005
"""How much the search with a few whole-number columns read as ordered numbers must beat the
search on their levels (chosen candidates' out-of-fold F1) to answer. Measured on seeded
grades, counts and codes (benchmarks/RESULTS.md, "whole22"): where the numbers' search won by
0.005 or less its test F1 moved both ways (−0.037 … +0.035, net −0.006 over 7 splits), above
it +0.015 a split on average (27 splits); and the 23 sets stay identical at it; codes read as numbers lose out of fold by far more (MONK's 1
with every code a number: 0.997 → 0.92)."""


def _m_rate(pos: np.ndarray, n: np.ndarray, base: float) -> np.ndarray:
    """Each group's positive share, m-estimated (m = 2) toward the base rate."""
    return (pos + 2.0 * base) / (n + 2.0)


def _pava(rate: list[float], n: list[float]) -> np.ndarray:
    """The weighted rising isotonic fit of a few values (pool adjacent violators): a plain
    loop over ≤ `max_categories` groups, not scikit-learn's checks (10× the screen's cost)."""
    blocks: list[list[float]] = []  # [weighted mean, weight, how many values]
    for r, w in zip(rate, n):
        blocks.append([r, w, 1])
        while len(blocks) > 1 and blocks[-2][0] >= blocks[-1][0]:
            (r2, w2, k2), (r1, w1, k1) = blocks.pop(), blocks.pop()
            blocks.append([(r1 * w1 + r2 * w2) / (w1 + w2), w1 + w2, k1 + k2])
    return np.repeat([b[0] for b in blocks], [b[2] for b in blocks])


def _monotone(rate: np.ndarray, n: np.ndarray) -> np.ndarray:
    """The weighted isotonic fit (rising or falling, the closer) of group rates in value order."""
    up = _pava(rate.tolist(), n.tolist())
    down = _pava((-rate).tolist(), n.tolist()) * -1.0
    return min((up, down), key=lambda f: float(np.sum(n * (f - rate) ** 2)))


def whole_screen(x: np.ndarray, y: np.ndarray, fold: np.ndarray) -> tuple[float, ...]:
    """Out-of-fold log-loss (nats a row) of y (0/1) given a column of a few whole numbers `x`
    (NaN missing, left out) over the search's folds `fold` under four readings: each value's
    own rate, a monotone step of them (isotonic), the base rate, and one value's rate against
    the rest's (a code's or a flag's spike, the value chosen on the fold); then the monotone
    fit's steps on every row and the column's values. Counts a fold and value, no row loop."""
    ok = ~np.isnan(x)
    values, code = np.unique(x[ok], return_inverse=True)
    yy = np.asarray(y, dtype=float)[ok]
    folds_of, fo = np.unique(fold[ok], return_inverse=True)
    k, nf = len(values), len(folds_of)
    cell = fo * k + code
    n_f = np.bincount(cell, minlength=nf * k).reshape(nf, k).astype(float)
    p_f = np.bincount(cell, weights=yy, minlength=nf * k).reshape(nf, k)
    n_all, p_all = n_f.sum(axis=0), p_f.sum(axis=0)

    def held(q: np.ndarray, pos: np.ndarray, n: np.ndarray) -> float:
        q = np.clip(q, 1e-6, 1 - 1e-6)
        return -float(np.sum(pos * np.log(q) + (n - pos) * np.log(1 - q)))

    loss = np.zeros(4)
    for f in range(nf):
        n, pos = n_all - n_f[f], p_all - p_f[f]  # the fold's training rows
        if n.sum() == 0:
            continue
        base = float(np.clip(pos.sum() / n.sum(), 1e-3, 1 - 1e-3))
        free = _m_rate(pos, n, base)
        seen = n > 0
        step = free.copy()
        step[seen] = _monotone(free[seen], n[seen])
        rest = _m_rate(pos.sum() - pos, n.sum() - n, base)  # each value against the others
        fit = pos * np.log(free) + (n - pos) * np.log(1 - free) + (pos.sum() - pos) * np.log(
            rest) + (n.sum() - n - pos.sum() + pos) * np.log(1 - rest)
        one = int(np.argmax(np.where(seen, fit, -np.inf)))
        spike = np.where(np.arange(k) == one, free[one], rest[one])
        for i, q in enumerate((free, step, np.full(k, base), spike)):
            loss[i] += held(np.where(seen, q, base), p_f[f], n_f[f])
    base = float(np.clip(p_all.sum() / max(n_all.sum(), 1), 1e-3, 1 - 1e-3))
    fit = _monotone(_m_rate(p_all, n_all, base), n_all)
    loss /= max(n_all.sum(), 1)
    return (*map(float, loss), len(np.unique(fit)), k)


def whole_ordered(screen: tuple[float, ...], max_bins: int) -> bool:
    """Whether `whole_screen`'s scores say the column reads as ordered, and the reading can
    change the model: the monotone step within `WHOLE_SLACK` of each value's own rate and
    beating the base rate and one value's spike by it; and its steps fewer than the values or
    the values more than `max_bins` (else MDLP's bins are the values themselves)."""
    free, step, base, spike, steps, k = screen
    return (step < free + WHOLE_SLACK and step < min(base, spike) - WHOLE_SLACK
            and (steps < k or k > max_bins))


def whole_wins(levels: Selection | None, numbers: Selection | None
               ) -> tuple[bool, float | None, float | None]:
    """Whether the search with the screened columns read as numbers answers (its chosen
    candidate's out-of-fold F1 above the levels' search's by more than `WHOLE_MARGIN`), and
    the two scores (levels', numbers'; None where a search made no choice)."""
    if levels is None or numbers is None:
        return False, None, None
    ours, theirs = _chosen_score(levels), _chosen_score(numbers)
    return bool(theirs > ours + WHOLE_MARGIN), ours, theirs


GRID_CLASSES = 4
"""The most classes a table has for the grid to race on several classes without a screen
(`PLXClassifier._race_grid_classes`, 2–4 numeric columns): its second search is one search a
class again. Three debt-to-income tiers gain 0.71 → 0.83 macro F1 (6 of 6 splits), iris,
wine, ordinal5 (5 classes), faults6 (6) and rare_class keep MDLP's (benchmarks/RESULTS.md,
"whole22"). More classes race only past `grid_class_screen` (past `GRID_COLUMNS` numeric
columns several classes do not race: digits and wine, 13–64 numbers, gained nothing on its
capped clauses, multi23)."""
GRID_CLASS_SCREEN_DEPTH = 6
"""The depth of the several-class trees `grid_class_screen` compares on the grid's bins and on
MDLP's: 6 separated the tables whose grid search won the race (twins7, categories9, steps5:
+0.021 … +0.132 macro F1 out of fold) from those it lost on (ranges6, faults6, wine) better than
4 or no limit (benchmarks/RESULTS.md, "multi23")."""
GRID_CLASS_SCREEN_GAIN = 0.01
"""How far the screen's tree on the grid's bins must score above the same tree on MDLP's cut
points (`GRID_CLASS_SCREEN_DEPTH`) for the several-class grid to race past `GRID_CLASSES`
classes: the race is a second search of every class (about
one more fit), paid only where the grid's bins tell the classes apart better."""


FINE_CLASS_BINS = 32
"""The most bins a numeric column MDLP cuts on the several-class labels for the second reading
the several-class race may try past `GRID_CLASSES` classes (`PLXClassifier._class_reading`): a
number whose fine steps set the classes (five grades cycling over twenty bands of one reading)
needs more than the default 4 bins and more than the grid's 8 equal-frequency ones (steps5:
macro F1 0.29 on MDLP's 4, 0.37 on the grid, 0.69–0.72 on 16, which merge four of its 19 steps
so grade A is taken for E; 0.83–0.85 on 32, where MDLP stops by itself at the 19;
benchmarks/RESULTS.md, "multi23", "multi24"). A cap: MDLP's own stopping rule still decides."""


def class_mean(sels: Sequence[Selection] | None) -> float | None:
    """The mean out-of-fold F1 over the classes of a several-class search's chosen family
    (`PLXClassifier.class_selection_`; classes too rare to score left out), None without one."""
    got = [s.scores[s.key] for s in sels or () if s.scores and s.key in s.scores]
    return float(np.mean(got)) if got else None


def grid_classes_said(mdlp: float, grid: float | None, reading: str = "grid") -> str:
    """The sentence a several-class fit's reason adds on the grid's race
    (`PLXClassifier._race_grid_classes`; `reading` "fine": MDLP's finer cut points'): whether
    it answers, with both means."""
    if grid is None:
        return ""
    on = reading_said(reading)
    if grid > mdlp + GRID_MARGIN:
        return (f"; {on}, which answers: mean out-of-fold F1 over the classes {grid:.3f} "
                f"against {mdlp:.3f} on MDLP's cut points (more than {GRID_MARGIN:g} above)")
    return (f"; {on} the search scored {grid:.3f} (mean over the classes), not more than "
            f"{GRID_MARGIN:g} above {mdlp:.3f} on MDLP's cut points")


def grid_class_screen(grid: np.ndarray, mdlp: np.ndarray, labels: np.ndarray,
                      fold: np.ndarray) -> tuple[float, float]:
    """Several classes: (grid's, MDLP's) `class_tree_f1` on `grid` and on `mdlp` (rows ×
    columns of bin and level numbers, −1 missing): whether the grid's bins tell the classes
    apart better, a few hundredths of a second where the race is a second fit."""
    return class_tree_f1(grid, labels, fold), class_tree_f1(mdlp, labels, fold)


def class_tree_f1(codes: np.ndarray, labels: np.ndarray, fold: np.ndarray) -> float:
    """Out-of-fold macro F1 of a `GRID_CLASS_SCREEN_DEPTH` CART tree of every class (balanced
    class weights, 5 rows a leaf) on `codes` over the folds `fold`."""
    from sklearn.metrics import f1_score
    from sklearn.tree import DecisionTreeClassifier

    labels = np.asarray(labels)
    pred = labels.copy()
    for f in np.unique(fold):
        tr = fold != f
        t = DecisionTreeClassifier(max_depth=GRID_CLASS_SCREEN_DEPTH, class_weight="balanced",
                                   min_samples_leaf=5, random_state=0).fit(codes[tr], labels[tr])
        pred[~tr] = t.predict(codes[~tr])
    return float(f1_score(labels, pred, average="macro"))


def grid_class_screened(screen: tuple[float, float]) -> bool:
    """Whether the several-class grid races after its screen (`grid_class_screen`: the grid's
    tree more than `GRID_CLASS_SCREEN_GAIN` above MDLP's)."""
    return bool(screen[0] > screen[1] + GRID_CLASS_SCREEN_GAIN)


FINE_CLASS_MARGIN = 0.05
"""How far the screen's tree on MDLP's finer cut points (`FINE_CLASS_BINS`) must beat the one
on the grid for the finer ones to race instead of the grid: where both tell the classes apart
alike the grid races (twins7: trees 0.70–0.76 on either, the grid's search 0.81 macro F1 on new
rows, the finer one's 0.77–0.81); a number's fine steps put the finer ones far ahead (steps5:
0.60–0.75 against ≤ 0.46)."""


CLASS_SCREEN_SLACK = 0.10
"""How far below the first search's own out-of-fold macro F1 (`chosen_macro`) the better of
the screen's trees on the two second readings may score for either to race: a tree of fixed
depth states the classes less well than the search, but one far below it marks a second search
paid for nothing (products10 and products, 12 splits: the best tree 0.12–0.18 below the search,
and the grid's search, run on 4 of 6 in multi23, never answered; categories9, whose race
answered on 3 of 3: 0.01–0.07 below; twins7, steps5 and tariff8 above; benchmarks/RESULTS.md,
"multi24")."""


def class_reading(grid: float, fine: float, mdlp: float,
                  ours: float | None = None, always: bool = False) -> str | None:
    """Of the two second readings of a several-class table's numbers, "fine" when its screen
    tree (`class_tree_f1`) beats the grid's by more than `FINE_CLASS_MARGIN`, else "grid" —
    when that one's is more than `GRID_CLASS_SCREEN_GAIN` above MDLP's; None: neither races
    (one race at most: each is a second search of every class), nor when the better tree is
    more than `CLASS_SCREEN_SLACK` below `ours` (the first search's out-of-fold macro F1,
    `chosen_macro`; None: unchecked). `always` (up to `GRID_CLASSES` classes, whose grid
    races unscreened): "fine" as above when its tree is also above MDLP's, else "grid"."""
    if always:
        return "fine" if fine > grid + FINE_CLASS_MARGIN and grid_class_screened(
            (fine, mdlp)) else "grid"
    if ours is not None and max(grid, fine) < ours - CLASS_SCREEN_SLACK:
        return None
    best, score = ("fine", fine) if fine > grid + FINE_CLASS_MARGIN else ("grid", grid)
    return best if grid_class_screened((score, mdlp)) else None


def reading_said(reading: str) -> str:
    """How a several-class race's second reading of the numbers is named in the reason."""
    return (f"on an equal-frequency grid of {GRID_BINS} bins a numeric column" if reading == "grid"
            else f"on MDLP's cut points of up to {FINE_CLASS_BINS} bins a numeric column")


def grid_class_screened_out(screen: tuple[float, float], fine: float | None = None,
                            ours: float | None = None) -> str:
    """The sentence a several-class fit's reason adds when the screen keeps the grid (and, with
    `fine`, MDLP's finer cut points) from racing: not enough above MDLP's tree, or (`ours`, the
    first search's out-of-fold macro F1) more than `CLASS_SCREEN_SLACK` below the search."""
    also = "" if fine is None else f" ({fine:.3f} {reading_said('fine')})"
    said = (f"; on an equal-frequency grid of {GRID_BINS} bins a numeric column a depth-"
            f"{GRID_CLASS_SCREEN_DEPTH} tree of every class scored {screen[0]:.3f} macro F1 out "
            f"of fold{also} against {screen[1]:.3f} on MDLP's cut points")
    best = max(screen[0], fine if fine is not None else screen[0])
    if ours is not None and best < ours - CLASS_SCREEN_SLACK:
        return (said + f", and the search itself scored {ours:.3f} (each row's class of the "
                f"highest number), more than {CLASS_SCREEN_SLACK:g} above the better tree: the "
                "search did not run again on it")
    return (said + f", not more than {GRID_CLASS_SCREEN_GAIN:g} above: the search did not run "
            "again on it")


def grid_screen(codes: np.ndarray, y: np.ndarray, fold: np.ndarray) -> float:
    """Out-of-fold F1 (at its best threshold) of a `GRID_SCREEN_DEPTH` CART tree, balanced
    class weights, on `codes` (rows × columns of bin and level numbers, −1 missing) over the
    search's folds `fold`: what the grid's trees could reach, cheaply (`GRID_SCREEN_SLACK`)."""
    from sklearn.tree import DecisionTreeClassifier

    p = np.zeros(len(y))
    for f in np.unique(fold):
        tr = fold != f
        if len(np.unique(y[tr])) < 2:
            return float("nan")
        t = DecisionTreeClassifier(max_depth=GRID_SCREEN_DEPTH, class_weight="balanced",
                                   min_samples_leaf=5, random_state=0).fit(codes[tr], y[tr])
        p[~tr] = t.predict_proba(codes[~tr])[:, 1]
    return float(f1_at(y, p, np.unique(p)).max())


def grid_screened(mdlp: Selection | None, screen: float) -> bool:
    """Whether the grid races after its screen (`grid_screen`'s score within
    `GRID_SCREEN_SLACK` of the MDLP search's chosen candidate's out-of-fold F1)."""
    return mdlp is not None and bool(screen >= _chosen_score(mdlp) - GRID_SCREEN_SLACK)


def grid_screened_out(mdlp: Selection, screen: float) -> str:
    """The sentence to add to the reason when the screen keeps the grid from racing."""
    return (f"; on an equal-frequency grid of {GRID_BINS} bins a numeric column a depth-"
            f"{GRID_SCREEN_DEPTH} tree scored {screen:.3f} out of fold, more than "
            f"{GRID_SCREEN_SLACK:g} below {mdlp.key} ({_chosen_score(mdlp):.3f}): the search "
            "did not run again on it")


def grid_stays(mdlp: Selection | None, grid: Selection | None) -> str:
    """The sentence to add to the reason when the MDLP search stays (`grid_wins` None): the
    grid's score beside the one it did not beat by `GRID_MARGIN` ("" when either search made
    no choice)."""
    if mdlp is None or grid is None:
        return ""
    return (f"; on an equal-frequency grid of {GRID_BINS} bins a numeric column the search "
            f"scored {_chosen_score(grid):.3f}, not more than {GRID_MARGIN:g} above "
            f"{mdlp.key} ({_chosen_score(mdlp):.3f})")


def grid_too_large(why: str, reading: str = "grid") -> str:
    """The sentence to add to the reason when the search on the grid (`reading` "fine": on
    MDLP's finer cut points, `reading_said`) does not fit the memory budget (`why`: the
    refusal), so the search on MDLP's cut points answers unraced."""
    return f"; {reading_said(reading)} the search did not run: {why}"


def _chosen_score(sel: Selection) -> float:
    """A search's chosen candidate's out-of-fold F1 (its best listed when the chosen one is
    not scored): what `grid_wins` compares."""
    return sel.scores.get(sel.key, max(sel.scores.values(), default=np.nan))


MIN_CLASS_ROWS = SELECT_FOLDS
"""With several classes, a class with fewer training rows than this is not searched (its F1
out of fold on so few rows is noise, and some folds hold none of it): the model family is
chosen on the other classes, and the rare class keeps its tuned Direct KB (`unscored`), said
in `chosen_reason_` with the class and its row count. Given the family instead (at its first
setting), a vote fitted on 3 rows took 26 of 100 new rows on a 5-class table; measured in
benchmarks/RESULTS.md ("A class of 2–4 rows")."""
NOISY_SE = 0.05
"""A search whose chosen candidate's out-of-fold F1 has at least this standard error across its
folds (`chosen_se`) says so in its reason (`wording.few_rows_said`): on 42 training rows × 100
columns it was 0.04–0.09 (benchmarks/RESULTS.md, "wide21"), where choices 0.03 apart flipped
between splits."""
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
    alpha: float | None = None
    """The cost-complexity α the chosen "tree-bin-deep" is pruned at (None: not pruned)."""
    bins: int | None = None
    """The equal-frequency bins per numeric column of the chosen "direct-vote" (None: the
    fit's own cut points, or another model answers)."""
    pairs: bool = False
    """Whether the chosen "direct-vote" votes on pairs of features too ("direct-vote pairs")."""
    l1: float | None = None
    """The L1 penalty per unit of weight the chosen smooth vote ("direct-vote bins=…") was
    fitted with: `vote.FINE_L1`, or `vote.FINE_L1_SPARSE` where that won out of fold
    (`vote.sparser`, said in `reason`); None for the other models."""

    @property
    def key(self) -> str:
        """The name the chosen candidate was scored under in `scores`."""
        if self.alpha is not None:
            return prune_key(self.alpha)
        if self.chosen in TREE_MODELS:
            return tree_key(self.max_depth, self.chosen)
        if self.chosen == "direct-conf" and self.m is not None:
            return conf_key(self.m)
        if self.chosen == "direct-vote":
            return vote_key(self.bins, self.pairs)
        return self.chosen


def tree_key(depth: int | None, model: str = "tree-all") -> str:
    """The name a depth-limited tree candidate is scored under ("tree-all" unlimited; the
    unit-weight binary tree's limit is on the features a path constrains: "tree-bin
    features≤3")."""
    if depth is None:
        return model
    return f"{model} {'features' if model == 'tree-bin' else 'depth'}≤{depth}"


def prune_key(alpha: float) -> str:
    """The name "tree-bin-deep" cost-complexity pruned at α is scored under."""
    return f"tree-bin-deep pruned α={alpha:g}"


def depths_of(model: str) -> tuple[int | None, ...]:
    """The limits a tree model is scored at (`BIN_DEPTHS` for "tree-bin-deep")."""
    return BIN_DEPTHS if model == "tree-bin-deep" else TREE_DEPTHS


def conf_key(m: float) -> str:
    """The name the confidence-weighted Direct KB with m-estimate strength m is scored under."""
    return f"direct-conf m={m:g}"


def vote_key(bins: int | None, pairs: bool = False) -> str:
    """The name the fitted vote is scored under: "direct-vote" on the fit's own cut points,
    "direct-vote bins=32" on 32 equal-frequency bins per numeric column (`vote.FINE_BINS`,
    smoothed), "direct-vote pairs" on
    the one- and two-feature clauses (`vote.pair_codes`)."""
    if pairs:
        return "direct-vote pairs"
    return "direct-vote" if bins is None else f"direct-vote bins={bins}"


def vote_bins(key: str) -> int | None:
    """The bins per numeric column a vote key names ("direct-vote bins=13": 13), else None."""
    return int(key.split("=")[1]) if key.startswith("direct-vote bins=") else None


def is_vote(key: str) -> bool:
    """Whether a candidate key names the fitted vote (on either binning)."""
    return key == "direct-vote" or key.startswith("direct-vote ")


def _candidates(bins: int | None = None) -> list[tuple[str, str, float | str | None]]:
    """(key, model, setting) in tie order: the Direct KB, the confidence-weighted Direct KB per
    m of `weighting.M_GRID`, then the tree per depth of `TREE_DEPTHS` (setting: m or depth;
    a pruned "tree-bin-deep": its α, `is_pruned`; "direct-vote": its bins, `vote_key`; `bins`:
    the smooth vote's, `vote.fine_bins`, default `vote.FINE_BINS`)."""
    from .vote import FINE_BINS
    from .weighting import M_GRID

    out: list[tuple[str, str, float | str | None]] = []
    for name in CANDIDATES:
        if name in TREE_MODELS:
            out += [(tree_key(d, name), name, d) for d in depths_of(name)]
            if name == "tree-bin-deep":
                out += [(prune_key(a), name, a) for a in BIN_ALPHAS]
        elif name == "direct-conf":
            out += [(conf_key(m), name, m) for m in M_GRID]
        elif name == "direct-vote":
            out += [(vote_key(b), name, b) for b in (None, bins or FINE_BINS or None)]
            out = list(dict.fromkeys(out))  # FINE_BINS = 0: the one vote
            out.append((vote_key(None, pairs=True), name, "pairs"))
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


def steady_threshold(y: np.ndarray, means: np.ndarray, fold: np.ndarray) -> float:
    """The threshold the smooth vote answers at: the middle of the run of `THRESHOLDS` around
    the best (`best_threshold`) whose out-of-fold F1 is within one standard error of the best's
    (the SE of the mean of the best's F1 on each `fold`), of two middles the one nearer the best.
    At ~35–70 positives the best of 13 thresholds is the top of a noisy curve, mostly a step
    further from 0.5 than the test rows want: the vote always answering, runs 0–9 / 10–19 /
    20–39, Rare 5% +0.034 / +0.015 / +0.027, Rare 10% +0.002 / +0.000 / +0.020, Rare 30%
    +0.003 / +0.007 / +0.002, Breast cancer 30 −0.004 / +0.003 / +0.001 (benchmarks/RESULTS.md,
    "Cheaper variance for the smooth vote")."""
    ts = np.asarray(THRESHOLDS)
    f1 = f1_at(y, means, ts)
    t, best = best_threshold(y, means)
    per = fold_f1(y, means, t, np.asarray(fold))
    se = float(np.std(per, ddof=1) / np.sqrt(len(per))) if len(per) > 1 else 0.0
    at = lo = hi = int(np.flatnonzero(np.isclose(ts, t))[0])
    while lo > 0 and f1[lo - 1] >= best - se:
        lo -= 1
    while hi < len(ts) - 1 and f1[hi + 1] >= best - se:
        hi += 1
    mid = min(((lo + hi) // 2, (lo + hi + 1) // 2), key=lambda i: abs(i - at))
    return float(ts[mid])


def is_pruned(key: str) -> bool:
    """Whether a candidate key names a cost-complexity pruned tree (`prune_key`)."""
    return key.startswith("tree-bin-deep pruned")


def fold_f1(y: np.ndarray, means: np.ndarray, threshold: float, fold: np.ndarray) -> np.ndarray:
    """F1 at `threshold` on each fold's rows (`fold`: the fold number of each row)."""
    k = int(fold.max(initial=-1)) + 1
    pred = np.nan_to_num(np.asarray(means, float), nan=-1.0) > threshold + 1e-9
    yb = np.asarray(y, dtype=bool)
    tp = np.bincount(fold, weights=pred & yb, minlength=k)
    wrong = np.bincount(fold, weights=pred != yb, minlength=k)
    return np.where(2 * tp + wrong > 0, 2 * tp / np.maximum(2 * tp + wrong, 1), 0.0)


def one_se(y: np.ndarray, fold: np.ndarray, new: tuple[np.ndarray, float],
           old: tuple[np.ndarray, float], mult: float = PRUNE_SE) -> tuple[bool, float, float]:
    """(whether `new` beats `old` by more than `mult` standard errors, the F1 gain, that SE):
    each is (out-of-fold means, threshold); the gain is their F1 difference on all rows and
    the standard error that of the mean of their per-fold F1 differences."""
    a, b = fold_f1(y, *new, fold), fold_f1(y, *old, fold)
    gain = float(f1_at(y, new[0], np.array([new[1]]))[0] - f1_at(y, old[0], np.array([old[1]]))[0])
    se = float(np.std(a - b, ddof=1) / np.sqrt(len(a))) if len(a) > 1 else 0.0
    return gain > mult * se + 1e-12, gain, se


def fold_ids(y: np.ndarray, k: int, seed: int | None, groups: np.ndarray | None = None
             ) -> np.ndarray:
    """The fold number of each row in `folds(y, k, seed, groups)`."""
    out = np.zeros(len(y), dtype=np.int64)
    for i, (_tr, te) in enumerate(folds(y, k, seed, groups)):
        out[te] = i
    return out


def folds(y: np.ndarray, k: int, seed: int | None, groups: np.ndarray | None = None
          ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Stratified k-fold (train, held-out) positions, shuffled with `seed`; with `groups` (a
    case per row: several rows a case) a case's rows on one side of every fold, stratified
    where it can be (scikit-learn's `StratifiedGroupKFold`). Read-only arrays: the last
    `FOLDS_KEPT` labels' folds are kept, as a fit asks for the same folds up to six times —
    the search's, the votes', the cut optimism's."""
    from sklearn.model_selection import StratifiedGroupKFold, StratifiedKFold

    y = np.asarray(y)
    codes = None if groups is None else np.unique(np.asarray(groups), return_inverse=True)[1]
    key = (y.dtype.str, y.shape, y.tobytes(), k, seed,
           None if codes is None else codes.astype(np.int64).tobytes())
    with _FOLDS_LOCK:  # the dashboard fits in one thread per session
        got = _FOLDS.get(key)
    if got is None:
        skf = (StratifiedKFold(n_splits=k, shuffle=True, random_state=seed) if codes is None
               else StratifiedGroupKFold(n_splits=k, shuffle=True, random_state=seed))
        if codes is None and np.unique(y, return_counts=True)[1].min(initial=k) >= k:
            got = list(skf.split(np.zeros(len(y)), y))
        else:  # a class of fewer than k rows sits in fewer folds: expected here (its rows are
            # scored wherever they fall), not the user's to read (filters are process-wide:
            # changed only then)
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", "The least populated class in y", UserWarning)
                got = list(skf.split(np.zeros(len(y)), y, codes))
        for tr, te in got:
            tr.setflags(write=False)
            te.setflags(write=False)
        with _FOLDS_LOCK:
            while len(_FOLDS) >= FOLDS_KEPT:
                _FOLDS.pop(next(iter(_FOLDS)))
            _FOLDS[key] = got
    return list(got)


FOLDS_KEPT = 4
"""How many labels' folds `folds` keeps."""
_FOLDS: dict = {}
_FOLDS_LOCK = threading.Lock()


def out_of_fold(frame: pd.DataFrame, y: np.ndarray, fit_fold: Callable[..., dict],
                seed: int | None, k: int = SELECT_FOLDS, positions: bool = False,
                frames: Callable[[np.ndarray, np.ndarray],
                                 tuple[pd.DataFrame | None, pd.DataFrame]] | None = None,
                groups: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Per candidate, the out-of-fold ω(POS) mean of every row. `fit_fold(frame, y)` fits the
    candidates on one fold's training rows and returns {name: answer(frame) → means};
    `positions`: it is called `fit_fold(frame, y, (train, held-out positions, held-out
    frame))`, and its answers are given that held-out frame. `frames(train, held-out
    positions)`: those rows as that fold sees them (binned at its own cut points; the two frames
    indexed 0..; the training one None where `fit_fold` reads those rows' codes), else
    `frame`'s. `groups`: a case per row, its rows kept on one side of each fold (`folds`)."""
    out: dict[str, np.ndarray] = {}
    for tr, te in folds(y, k, seed, groups):
        if frames is None:
            train, held = (frame.iloc[at].reset_index(drop=True) for at in (tr, te))
        else:
            train, held = frames(tr, te)
        answers = fit_fold(train, y[tr], (tr, te, held)) if positions else fit_fold(train, y[tr])
        for name, answer in answers.items():
            out.setdefault(name, np.full(len(y), np.nan))[te] = answer(held)
    return out


def choose(y: np.ndarray, direct_pred: np.ndarray | None, direct_rows: np.ndarray | None,
           oof: dict[str, np.ndarray], fold: np.ndarray | None = None,
           offsets: dict[str, float] | None = None,
           sizes: dict[str, float] | None = None, fine_l1: float | None = None,
           vote_fold: np.ndarray | None = None) -> Selection:
    """The candidate with the best out-of-fold F1 (see the module docstring).

    `direct_pred`: the tuned Direct KB's leave-one-out decisions on `direct_rows` (positions
    into y; None: all rows); the other candidates are scored on the same rows. `fold`: each
    row's fold (`fold_ids`), for the `one_se` rule a pruned tree must pass (None: none).
    `offsets`: added to a candidate's F1 before the comparison (and in `scores`): the vote on
    unsupervised finer bins gets the optimism the fit's supervised cut points give the
    candidates scored on them (`PLXClassifier` measures it on the vote). `sizes`: a
    candidate's clauses (mean over its folds): a pruned tree that ties the best candidate
    without pruning with fewer clauses answers (a candidate without one counts as the
    largest). `fine_l1`: the L1 penalty the smooth vote was fitted with (`Selection.l1`).
    `vote_fold`: each row's fold of the votes' cross-fit (`vote.VOTE_FOLDS`): the smooth vote,
    should it answer, answers at its `steady_threshold` (None: at its best)."""
    if "rule-vote" in oof:  # it answers only past the choice made without it (`RULE_MARGIN`)
        rest = {k: v for k, v in oof.items() if k != "rule-vote"}
        if rest or direct_pred is not None:
            without = _choose(y, direct_pred, direct_rows, rest, fold, offsets, sizes, fine_l1,
                              vote_fold)
            rv = _choose(y, None, direct_rows, {"rule-vote": oof["rule-vote"]},
                         offsets=offsets)
            if rv.scores["rule-vote"] <= without.scores[without.key] + RULE_MARGIN:
                note = (f"; rule-vote scored {rv.scores['rule-vote']:.3f}, not more than "
                        f"{RULE_MARGIN:g} above it")
                return replace(without, reason=without.reason + note,
                               scores={**without.scores, **rv.scores},
                               thresholds={**without.thresholds, **rv.thresholds})
            rv_reason = (f"; without it {without.key} {without.scores[without.key]:.3f}")
            return replace(rv, reason=rv.reason + rv_reason,
                           scores={**without.scores, **rv.scores},
                           thresholds={**without.thresholds, **rv.thresholds})
    return _choose(y, direct_pred, direct_rows, oof, fold, offsets, sizes, fine_l1, vote_fold)


def _choose(y: np.ndarray, direct_pred: np.ndarray | None, direct_rows: np.ndarray | None,
            oof: dict[str, np.ndarray], fold: np.ndarray | None = None,
            offsets: dict[str, float] | None = None,
            sizes: dict[str, float] | None = None, fine_l1: float | None = None,
            vote_fold: np.ndarray | None = None) -> Selection:
    """`choose` among the candidates of `oof` as they are (the rule vote's margin aside)."""
    y = np.asarray(y, dtype=bool)
    rows = np.arange(len(y)) if direct_rows is None else np.asarray(direct_rows)
    scores: dict[str, float] = {}
    thresholds: dict[str, float] = {}
    order = _candidates(next(filter(None, map(vote_bins, oof)), None))
    if direct_pred is not None and "direct" not in oof:
        scores["direct"] = float(f1_at(y[rows], np.asarray(direct_pred, float), np.array([0.5]))[0])
        thresholds["direct"] = 0.5
    for key, _model, _depth in order:
        if key in oof:
            thresholds[key], scores[key] = best_threshold(y[rows], oof[key][rows],
                                                          guarded=key == "direct")
    shifted = {k: d for k, d in (offsets or {}).items() if k in scores and d != 0.0}
    for k, d in shifted.items():
        scores[k] += d
    rank = {key: i for i, (key, _m, _d) in enumerate(order)}

    def size(n: str) -> float:  # its clauses; unknown: the largest
        return float((sizes or {}).get(n, np.inf))

    def top(names: list[str]) -> str:
        return max(names, key=lambda n: (scores[n], -rank.get(n, len(rank))))

    # the vote on finer bins races only if it beats the vote on the fit's own cut points by
    # more than the margin: the choice of binning is a choice among near-equal scores too
    def over(n: str) -> float:  # the margin a vote on other clauses must beat it by
        return BINS_MARGIN if vote_bins(n) else VOTE_MARGIN

    racing = [n for n in scores if not (is_vote(n) and n != "direct-vote" and "direct-vote" in
                                        scores and scores[n] <= scores["direct-vote"] + over(n))]
    best = top(racing)
    def above(n: str) -> str:  # "not above" where the margin is none ("not more than 0 above")
        return f"not more than {over(n):g} above" if over(n) else "not above"

    unraced = "".join(  # said: it may score above the one that answers
        f"; {n} scored {scores[n]:.3f}, {above(n)} direct-vote "
        f"({scores['direct-vote']:.3f}), so not compared" for n in scores if n not in racing)

    def margin(v: str, n: str) -> float:  # what vote v must beat candidate n by
        # a tree (or the rule vote) scored on the same cut points with the same credit as v
        tree = n in shifted or next((m for k, m, _d in order if k == n), n) in TREE_MODELS
        alike = tree and shifted.get(n, 0.0) == shifted.get(v, 0.0)
        return FINE_MARGIN if alike else VOTE_MARGIN

    def short(v: str, names: list[str]) -> str | None:  # the first of names v does not clear
        return next((n for n in sorted(names, key=lambda n: -scores[n])
                     if scores[v] <= scores[n] + margin(v, n)), None)

    vote_note = ""
    others = [n for n in racing if not is_vote(n)]
    if is_vote(best) and others and (beaten := short(best, others)) is not None:
        vote_note = (f"; {best} scored {scores[best]:.3f}, not more than "
                     f"{margin(best, beaten):g} above {beaten} ({scores[beaten]:.3f})")
        best = top(others)
    pruned_note = ""
    plain = [n for n in racing if not is_pruned(n) and not (vote_note and is_vote(n))]
    tied = top(plain) if plain else None
    equals = [n for n in plain if scores[n] == scores[tied]]  # the best unpruned, votes too
    plain_rest = [n for n in plain if not is_vote(n)]
    if plain_rest and is_vote(tied) and short(tied, plain_rest) is not None:
        plain = plain_rest  # a vote within its margin answers no more where a pruned tree falls back
    least = min(map(size, equals), default=np.inf)  # the smallest plain candidate of equals
    smaller = [n for n in racing if is_pruned(n) and equals and fold is not None
               and scores[n] == scores[tied] and size(n) < least]
    if smaller and (best == tied or is_pruned(best)):  # the smallest of equals answers
        best = min(smaller, key=lambda n: (size(n), rank.get(n, len(rank))))
        pruned_note = (f"; ties {tied} with fewer clauses ({size(best):.0f} against "
                       f"{size(tied):.0f})")
    elif is_pruned(best) and fold is not None and plain:
        other = top(plain)

        def answered(n: str) -> tuple[np.ndarray, float]:
            got = oof[n][rows] if n in oof else np.asarray(direct_pred, float)
            return got, thresholds[n]

        wins, gain, se = one_se(y[rows], np.asarray(fold)[rows], answered(best), answered(other))
        if wins:
            pruned_note = (f"; beats {other} by {gain:.3f}, more than {PRUNE_SE:g} standard "
                           f"error ({se:.3f})")
        else:
            pruned_note = (f"; {best} scored {scores[best]:.3f}, not more than {PRUNE_SE:g} "
                           f"standard error ({se:.3f}) above it")
            best = other
    model, setting = next(((m, d) for k, m, d in order if k == best), (best, None))
    model_of = {k: m for k, m, _d in order}
    runner = sorted((n for n in racing if n != best and model_of.get(n, n) != model),
                    key=lambda n: -scores[n])
    against = (f"; next {runner[0]} {scores[runner[0]]:.3f}" if runner else "")
    from .vote import VOTE_FOLDS

    how = ("leave-one-out" if model in ("direct", "direct-conf") else
           f"{VOTE_FOLDS}-fold, the {'one- and two-feature' if setting == 'pairs' else 'one-feature'}"
           " clauses' fitted vote; its threshold is on the vote's probability, moved into the "
           "prior clause" if model == "direct-vote"
           else f"{SELECT_FOLDS}-fold, the fitted vote of the one-feature clauses and the terms "
           "learned by sequential covering (conjunctions of up to three values); its threshold "
           "is on the vote's probability, moved into the prior clause" if model == "rule-vote"
           else f"{SELECT_FOLDS}-fold")
    depth, m, alpha, bins, pairs = _settings(best, model, setting)
    if model == "tree-all":
        how += ", depth " + ("unlimited" if depth is None else f"≤ {depth}")
    elif model == "tree-bin":
        how += ", value-against-rest splits, " + (
            "depth unlimited" if depth is None else f"≤ {depth} features a path")
    elif model == "tree-bin-deep":
        how += ", value-against-rest splits, the deepest node answers, " + (
            f"pruned at α = {alpha:g}" if alpha is not None else
            "depth " + ("unlimited" if depth is None else f"≤ {depth}"))
    if m is not None:
        how += f", m = {m:g}"
    if bins is not None:
        from .vote import FINE_L1, FINE_POOL, FINE_SMOOTH

        how += f", on {bins} equal-frequency bins per numeric column"
        if FINE_POOL > 0 or FINE_SMOOTH > 0:
            how += ", smoothed (neighbouring bins vote alike)"
        if fine_l1 is not None and fine_l1 != FINE_L1:
            how += (f", sparser: L1 {fine_l1:g} a unit of weight (it beat L1 {FINE_L1:g} out of "
                    "fold by one standard error)")
        if best in shifted:
            how += (f"; its out-of-fold F1 {scores[best] - shifted[best]:.3f}, "
                    f"{shifted[best]:+.3f} for the optimism the supervised cut points give the "
                    "others")
    elif best in shifted:
        how += (f"; its out-of-fold F1 {scores[best] - shifted[best]:.3f} on each fold's own cut "
                f"points, {shifted[best]:+.3f} for the optimism the fit's give the others")
    sampled = (f" (a seeded sample of the {len(y)}: the tuned Direct KB's leave-one-out "
               "budget; every row is learned from)" if len(rows) < len(y) else "")
    scored = "score" if best in shifted else "out-of-fold F1"  # a credited F1 may pass 1
    threshold = thresholds[best]
    if bins is not None and vote_fold is not None and best in oof:  # the smooth vote's
        threshold = steady_threshold(y[rows], oof[best][rows], np.asarray(vote_fold)[rows])
    said = f"threshold {thresholds[best]:g}" + (
        "" if threshold == thresholds[best] else
        f"; it answers at {threshold:g}, the middle of the thresholds whose out-of-fold F1 is "
        "within one standard error of the best")
    reason = (f"{model} answers: {scored} {scores[best]:.3f} ({how}, {said}) on {len(rows)} "
              f"training rows{sampled}{against}{pruned_note}{vote_note}{unraced}")
    return Selection(model, threshold, reason, scores, thresholds, len(rows), depth, m,
                     alpha, bins, pairs, fine_l1 if bins is not None else None)


def _settings(key: str, model: str, setting: float | str | None
              ) -> tuple[int | None, float | None, float | None, int | None, bool]:
    """(depth, m, α, bins, pairs) of candidate `key` of `model` at `setting` (`_candidates`),
    as `Selection` holds them."""
    alpha = float(setting) if is_pruned(key) else None
    depth = (int(setting) if model in TREE_MODELS and setting is not None and alpha is None
             else None)
    m = float(setting) if model == "direct-conf" else None
    pairs = model == "direct-vote" and setting == "pairs"
    bins = int(setting) if model == "direct-vote" and setting is not None and not pairs else None
    return depth, m, alpha, bins, pairs


def chosen_se(sel: Selection, y: np.ndarray, direct_pred: np.ndarray | None,
              direct_rows: np.ndarray | None, oof: dict[str, np.ndarray], fold: np.ndarray
              ) -> float:
    """The standard error of the chosen candidate's out-of-fold F1 across `fold`'s folds (at its
    threshold; the tuned Direct KB: its leave-one-out decisions), on the rows it was scored on."""
    rows = np.arange(len(y)) if direct_rows is None else np.asarray(direct_rows)
    got = oof.get(sel.key)
    if got is None:
        if direct_pred is None:
            return float("nan")
        means, t = np.asarray(direct_pred, float), 0.5
    else:
        means, t = np.asarray(got, float)[rows], sel.thresholds.get(sel.key, sel.threshold)
    per = fold_f1(np.asarray(y)[rows], means, t, np.asarray(fold)[rows])
    return float(np.std(per, ddof=1) / np.sqrt(len(per))) if len(per) > 1 else float("nan")


def unscored(model: str, n_rows: int, reason: str) -> Selection:
    """The Selection of `model` at its first setting in tie order (`_candidates`: the deepest
    tree, unpruned, the vote on the fit's own cut points, the smallest m), threshold 0.5, no
    scores — what answers a class too rare to score out of fold (`MIN_CLASS_ROWS`)."""
    key, setting = next((k, d) for k, mm, d in _candidates() if mm == model)
    return Selection(model, 0.5, reason, {}, {}, n_rows, *_settings(key, model, setting))


CLASS_CHOICE = "macro"
"""How several classes choose their model family: "macro" (`class_choice`) or "mean" — the
family of the best mean over the classes of its out-of-fold F1 alone, as sessions 12–20 chose
(benchmarks/RESULTS.md, "Several classes: the family chosen as predict decides (multi21)")."""


def answered_means(search, sel: Selection) -> np.ndarray | None:
    """A class's out-of-fold ω(class) means as its chosen model answers them beside the other
    classes' (None: not kept): a vote's logistic probability with its threshold moved into the
    prior clause (logit − logit(t)), the others' as they are (their thresholds are left out
    with several classes)."""
    got = search.oof.get(sel.key)
    if got is None or sel.chosen not in VOTE_FAMILIES:
        return got
    t = float(np.clip(sel.threshold, 1e-9, 1 - 1e-9))
    p = np.clip(got, 1e-12, 1 - 1e-12)  # NaN (no clause votes) stays NaN
    return 1.0 / (1.0 + np.exp(np.log(t / (1 - t)) - np.log(p / (1 - p))))


FINE_FAMILY = "direct-vote bins"
"""Several classes: the fitted vote on the fine bins (`vote.fine_bins` equal-frequency bins a
numeric column, "direct-vote bins=N") as a family of its own, apart from the vote on the fit's
cut points: its bins are unsupervised and drawn on the same rows for every class, so when it
answers every class answers on that one binning (the model's `discretizer_`, as a binary fit's
vote on finer bins). Classes that are clusters in a few numbers state their evidence as smooth
per-number shapes, which ≤ 4 MDLP bins a number state coarsely (products 0.758 → 0.813 macro F1
on 2 splits, above EBM's 0.803; benchmarks/RESULTS.md, several26)."""


def family_of(key: str, model: dict[str, str]) -> str:
    """The several-class family of a candidate `key` (`model`: key → model, `_candidates`):
    `FINE_FAMILY` for the vote on fine bins, else its model."""
    return FINE_FAMILY if vote_bins(key) is not None else model.get(key, key)


VOTE_FAMILIES = ("direct-vote", "rule-vote")
"""Families whose out-of-fold means are the vote's logistic probability, not their KB's answer
(a weighted median of clause probabilities, which decides alike at 0.5 but does not order the
classes alike: products' vote scored 0.795 macro F1 out of fold on its probabilities and 0.734
on test rows by its KBs' means)."""


def argmax_macro_f1(cols: list[np.ndarray], truth: np.ndarray, rows: np.ndarray) -> float:
    """Macro F1 over the classes of each row's class of the largest mean (`cols`: one class's
    means each; `truth`: each row's class index, −1 for a row of an unscored class) on the
    rows of mask `rows`."""
    pred, t = np.argmax(np.column_stack(cols)[rows], axis=1), truth[rows]
    tp = np.bincount(pred[pred == t], minlength=len(cols))
    denom = np.bincount(pred, minlength=len(cols)) + np.bincount(t[t >= 0], minlength=len(cols))
    return float(np.mean(np.where(denom > 0, 2 * tp / np.maximum(denom, 1), 0.0)))


def chosen_macro(searches: list, sels: list, labels: np.ndarray, classes: list) -> float | None:
    """Several classes: the out-of-fold macro F1 of each row's class of the highest number
    (`answered_means`, as `predict` compares them) of one family's `sels` (one Selection a
    scored class, `searches` its `_Search`, `classes` their classes); None where a class's
    numbers are not kept or fewer than half the rows are scored (as `class_choice`)."""
    means = [answered_means(x, s) for x, s in zip(searches, sels)]
    if not means or any(v is None for v in means):
        return None
    rows = np.logical_and.reduce([np.isfinite(v) for v in means])
    if rows.sum() < len(labels) // 2:
        return None
    index = {c: i for i, c in enumerate(classes)}
    return argmax_macro_f1(means, np.array([index.get(v, -1) for v in labels]), rows)


def class_choice(searches: list, scored: dict, families: list[str], labels: np.ndarray,
                 classes: list, best: str) -> tuple[str, float, float, float] | None:
    """Several classes: the family whose classes' out-of-fold numbers, compared row by row as
    `predict` compares them (`answered_means`: a vote's own probability, as
    `BoundsArray.compared_by` gives it since multi22; a vote was left out while predict
    compared its KB's median), give the best macro F1, when it beats that of `best` (the
    family of the best mean F1) by more than one standard error over the folds: (family, its
    macro F1, best's, the standard error); None: `best` answers.
    `searches`: each scored class's `_Search` (in `classes`' order), `scored`: family → (mean
    F1, each class's Selection of it)."""
    if CLASS_CHOICE != "macro":
        return None
    index = {c: i for i, c in enumerate(classes)}
    truth = np.array([index.get(v, -1) for v in labels])
    means = {f: [answered_means(x, s) for x, s in zip(searches, scored[f][1])] for f in scored}
    usable = {f: m for f, m in means.items() if all(v is not None for v in m)}
    if best not in usable:
        return None
    rows = np.logical_and.reduce([np.isfinite(v) for m in usable.values() for v in m])
    if rows.sum() < len(labels) // 2:  # (the Direct KBs' leave-one-out on a sample)
        return None
    macro = {f: argmax_macro_f1(m, truth, rows) for f, m in usable.items()}
    rivals = [f for f in macro if f != best]
    if not rivals:
        return None
    top = max(rivals, key=lambda f: (round(macro[f], 12), round(scored[f][0], 12),
                                     -families.index(f)))
    fold = searches[0].fold
    gain = np.array([argmax_macro_f1(usable[top], truth, rows & (fold == k))
                     - argmax_macro_f1(usable[best], truth, rows & (fold == k))
                     for k in np.unique(fold[rows])])
    se = float(np.std(gain, ddof=1) / np.sqrt(len(gain))) if len(gain) > 1 else np.inf
    if not macro[top] - macro[best] > se:
        return None
    return top, macro[top], macro[best], se


__all__ = ["BINS_MARGIN", "CANDIDATES", "CLASS_CHOICE", "FINE_FAMILY", "family_of", "VOTE_FAMILIES", "answered_means",
           "argmax_macro_f1", "chosen_macro", "class_choice", "CLASS_SCREEN_SLACK", "FINE_MARGIN", "GRID_BINS", "GRID_COLUMNS", "GRID_MARGIN", "GRID_MAX_LEN", "GRID_ROWS", "GRID_SCREEN_DEPTH",
           "GRID_SCREEN_SLACK", "GRID_CLASSES", "GRID_CLASS_SCREEN_DEPTH", "GRID_CLASS_SCREEN_GAIN",
           "grid_class_screen", "class_tree_f1", "grid_class_screened", "grid_class_screened_out", "class_mean",
           "FINE_CLASS_BINS", "FINE_CLASS_MARGIN", "class_reading", "reading_said", "grid_classes_said", "grid_screen", "WHOLE_MARGIN", "WHOLE_SLACK", "whole_ordered",
           "whole_screen", "whole_wins", "grid_screened", "grid_screened_out",
           "grid_stays", "grid_too_large", "grid_wins", "RULE_MARGIN", "RULE_TREES", "SELECT_FOLDS", "VOTE_MARGIN", "THRESHOLDS", "steady_threshold", "TREE_DEPTHS", "TREE_MODELS", "BIN_DEPTHS",
           "BIN_ALPHAS", "NOISY_SE", "PRUNE_SE", "Selection", "chosen_se", "depths_of", "unscored", "MIN_CLASS_ROWS", "fold_f1", "fold_ids", "is_pruned", "is_vote",
           "one_se", "prune_key",
           "LOO_PAIRS", "best_threshold", "choose", "conf_key", "f1_at", "folds", "out_of_fold", "tree_key", "vote_bins", "vote_key",
           "TREE_SEMANTICS"]
