"""Fitted vote weights for the Direct KB's one-feature clauses: the "direct-vote" candidate of
`variant="auto"`; and for those clauses with learned terms (`terms.learn_terms`) or the trees'
path clauses: "rule-vote" (`RuleVote`; the default's rule vote weighs the terms).

Under the relevant semantics a query's ω(POS) is the weighted median of the probabilities of
the clauses inside it, so it lies above 0.5 exactly when the clauses whose p is above 0.5
outweigh those below: the decision is a weighted vote, Σ_c w_c · sign(p_c − 0.5). A median of
frequencies alone cannot add evidence up — on a table whose label sums many weak effects each
clause's p stays near the base rate — but the vote of one clause per known feature value does,
once the weights say how much each vote is worth. Here the KB is the Direct KB cut to its
one-feature clauses `POS ∨ ¬a=v` (p and counts as counted, class-corrected) plus the prior
clause `[1] POS` or `[0] POS`, and the weights are fitted on the training rows: a logistic
regression of the label on the clauses' votes, weights ≥ 0 (a clause votes the way its own
frequency says, or not at all), an L2 penalty (`VOTE_C`), classes weighed as the KB's
probabilities are corrected; its intercept is the prior clause's signed weight. A clause whose
weight is 0 (or whose p is exactly 0.5) is left out of the KB. Each training row's votes are
those of the clauses without the row (leave-one-out counts), as a held-out row would see them.

The answer is still the weighted median of clause probabilities (the LP's bounds, the fast
path), saved in the model file as it answers, and `explain` searches this KB. It is scored by
`VOTE_FOLDS`-fold cross-validation on the training rows (the counts of each fold are the
fold's own); its threshold is chosen on the out-of-fold logistic probabilities of the vote
among `selection.THRESHOLDS` (the smooth vote answers at the middle of its near-best ones,
`selection.steady_threshold`) and moved into the prior clause (a threshold t adds −logit(t) to
its signed weight), so the KB decides at 0.5. A held-out row no clause votes on is scored as
the KB answers it — [0, 1], no evidence, negative (`scores`) —, not by the intercept: the
prior clause alone decides nothing (`query.prior_alone`), and a score the model does not
answer with must not choose it. Measured in benchmarks/RESULTS.md ("Fitted vote
weights").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.optimize import minimize
from threadpoolctl import ThreadpoolController

from .kb import KB, POS, Literal, WeightedClause
from .variants import PRIOR_ID, windowed_kb

VOTE_C = 1.0
"""The inverse L2 penalty of the vote weights' logistic fit (scikit-learn's C: the loss is
summed over rows, each class weighing as the KB's correction says, mean row weight 1)."""
VOTE_FOLDS = 10
"""Folds the candidate is scored on: with 5, each fold's counts lose a fifth of the rows and
its out-of-fold F1 fell below its test F1 by ~0.04 on HIV-1 (10 folds: ~0.02), so it lost the
comparison with the leave-one-out of the Direct KBs where it was the better model."""
RULE_C = 1.0
"""The inverse L2 penalty of the rule vote's weights (as `VOTE_C`)."""
RULE_L1 = 0.5
"""The rule vote's L1 penalty per unit of weight (weights ≥ 0, so Σ w): most path clauses
get weight 0 and are left out of the KB, which stays readable (~40–450 clauses on the
comparison's sets against thousands of paths), and the tests scored better than without it
(MONK's 1 / Car, always answering, 5 splits: 0.871 / 0.957 against 0.855 / 0.954 at 0;
2.0: 0.892 / 0.948)."""
RULE_FTOL = 1e-5
"""The rule vote's solver stops when the loss changes by less than this share of itself
(1e-7, `FTOL`: the same out-of-fold F1 to three decimals on Syn 12/4 and Car, ~0.1 s slower)."""
RULE_ROWS = 5000
"""The most rows the rule vote's weights are fitted on (a budget that bites only on large
tables): above it they are fitted on a stratified sample of this many rows (`sample_rows`,
each class its share, drawn with a fixed seed), the rows' votes still by the counts of every
row and each sampled row weighing as len(rows) / RULE_ROWS, so the penalties keep their
weight against the loss. The solver's time grows with the rows (at 20,000 rows its fits in
every fold were half of the default's fit, 3.37× a random forest's; measured in
benchmarks/RESULTS.md, "Fit time at 10,000–50,000 rows"); the comparison's sets have at most
1,000 rows, where nothing changes."""
FTOL = 1e-7
"""The solver stops when the loss changes by less than this share of itself."""
FINE_BINS = 32
"""Equal-frequency bins per numeric column of the vote's second candidate, the smooth vote on
fine bins ("direct-vote bins=32", `selection.vote_key`): the same vote on the one-feature
clauses `POS ∨ ¬x=bin` of the numeric columns cut finer than the fit's own cut points (MDLP
keeps the 2–3 bins that pay on their own, so the vote on them is a linear model on those
bins), each column's bins voting as one smooth shape — a generalized additive model's shape
function, as EBM's, in plx's clauses: `FINE_POOL` and `FINE_SMOOTH` keep 32 bins from
fitting noise (without them 32 bins tested 0.685 on Rare 30% against 0.744 on 8). Unsupervised
cuts, so they are cut on every training row, the folds included (no label leaks into them);
when it answers, its cut points are the fitted model's (`PLXClassifier.discretizer_`). 0: no
such candidate. Measured in benchmarks/RESULTS.md ("A smooth vote on fine bins"; 8, 16, 32,
64 bins; before it, "The fitted vote on finer bins": 8 unsmoothed bins against 6, 12, 16,
MDLP with a weaker stop and an 8-leaf tree per column)."""
FINE_MIN_BINS = 8
"""The fewest equal-frequency bins per numeric column the smooth vote cuts (`fine_bins`)."""


def fine_bins(n_rows: int, n_numeric: int) -> int:
    """Equal-frequency bins per numeric column of the smooth vote on a table of `n_rows`
    training rows and `n_numeric` numeric columns: `FINE_BINS`, fewer on a wide table so that
    its bins — one fitted weight each — do not outnumber the rows (at least `FINE_MIN_BINS`),
    as the pair vote keeps rows per weight (`PAIR_SUPPORT`): on a wide table the shapes'
    weights fit the folds' noise, and fewer, wider bins are the stronger smoothing. The vote
    always answering, runs 0–9: Breast cancer 30 (398 rows, 30 columns: 13 bins) 0.955
    against 0.942 on 32 (EBM 0.953); the rare sets (700 rows, 8 columns) keep 32, where 16
    tested 0.010–0.014 lower (benchmarks/RESULTS.md, "The smooth vote on wide numeric
    tables")."""
    return int(max(FINE_MIN_BINS, min(FINE_BINS, n_rows // max(n_numeric, 1))))


FINE_POOL = 2
"""A fine bin's clause counts its rows and those of the `FINE_POOL` neighbouring bins on each
side of the same column (`pool_matrix`): its p, and so the sign it votes with, is its bin's
frequency smoothed over 2·FINE_POOL + 1 bins (the clause keeps its own support and
positives). A bin of 22 rows holds about one positive at a 5% rate, so its own count's sign
is noise, and the clauses' weights are ≥ 0 with each voting its own sign: a smooth shape
cannot be fitted across signs that flip bin to bin (Rare 5%, 32 bins, always answering:
0.298 own counts, 0.478 pooled over 5 bins). 0: each bin its own counts."""
FINE_SMOOTH = 10.0
"""Strength λ of the penalty λ Σ (s_b − s_a)² on the signed votes s = sign · w of
neighbouring bins a, b of a column in the vote on fine bins (`smooth_penalty`; a first
difference, as a P-spline's; the loss is summed over rows, ~630 a fold here): 1, 3, 10, 30
measured, 10 best or within noise of the best on the rare sets. 0: none."""
FINE_C = 10.0
"""The inverse L2 penalty of the smooth vote on fine bins (`VOTE_C` is the vote's on the fit's
own cut points; the pair vote's `PAIR_C` likewise): beside `FINE_SMOOTH`, which already keeps
neighbouring bins alike, an L2 penalty of C = 1 held every shape near 0, the deciding columns'
most; `FINE_L1` leaves the bins that tell nothing out instead. Measured in
benchmarks/RESULTS.md ("Sparse weights for the smooth vote"): the vote always answering, Rare
5% / 10% / 30%, runs 0–9, 0.478 / 0.615 / 0.769 at (C 1, L1 0), 0.471 / 0.637 / 0.784 at
(10, 0.3); runs 10–19 0.466 / 0.644 / 0.761 → 0.526 / 0.665 / 0.762."""
FINE_L1 = 0.3
"""The smooth vote's L1 penalty per unit of weight (as `PAIR_L1`): the bins of a column that
tells nothing (a noise column's 32 bins) get weight 0 and leave the KB, as EBM's boosting
leaves such a column's shape near 0 — a few of them: at a rare class most stay (see
`FINE_L1_SPARSE`, the stronger penalty the vote is also fitted with)."""
FINE_L1_SPARSE = 3.0
"""The smooth vote's second, sparser L1 penalty (`sparser`): it is also fitted with this, and
answers with it when that scores better out of fold by one standard error. `FINE_L1` is
negligible against the class-weighted loss of a bin at a rare class (a noise bin's gradient at
w = 0 is ~5–9 at 7–10% positives): on a table of pure noise (20 columns × 32 bins, 7%
positive, 700 rows) it keeps 439 of the 640 bins' weights (this: 155), and on tables where
most numeric columns tell nothing those weights cost the test rows more than the folds — on
the rare additive table (33 of 35 noise) the smooth vote always answering tests 0.316 → 0.379
with this penalty (16 splits), on rare7-20 (14 of 20) 0.313 → 0.368 (12). Where most columns
tell something it loses (Rare 10%, 4 of 8 noise: 0.637 → 0.596; Breast cancer 30 0.955 →
0.917), so it is a choice out of fold, not the default. 0: none. Measured in
benchmarks/RESULTS.md ("The smooth vote's out-of-fold F1 on many noise columns")."""
OPTIMISM_RUNS = 400
"""The most cut searches (folds × numeric columns) the vote on finer bins is scored with: its
score needs the optimism of the fit's supervised cut points, measured with each fold's own
cuts (`PLXClassifier._cut_optimism`, one MDLP search per fold and numeric column, all in one
batched search, `discretize.mdlp_splits_many`). Above it (more than 40 numeric columns) there
is no such candidate, but on a wide table of few rows (`FINE_CELLS`, `fine_reach`). It was 150 (15 columns) while the searches ran one by one: 10 folds × 30
columns took Breast cancer 30's fit to 3.1–3.3× a random forest's; batched, 2.4× (measured in
benchmarks/RESULTS.md, "The smooth vote on wide numeric tables")."""
FINE_CELLS = 150_000
"""On `FINE_FEWEST` to `VOTE_SCREEN_ROWS` training rows, the smooth vote (and the trees scored on
each fold's own cut points, with their credit) is fitted past `OPTIMISM_RUNS`' 40 numeric
columns while rows × numeric columns stay within this (`fine_reach`): there the searches'
cost is that of a narrow table (250 rows × 300 numbers: 75,000 cells). On gene-expression-like
tables (a few hundred samples × 300 log-expressions, 5 genes adding up) without it a depth-
limited tree on the fit's own cut points answered, out of fold 0.73–0.76 and on new rows
0.57–0.58, where the smooth vote tested 0.69–0.75 (wide27, benchmarks/RESULTS.md)."""
FINE_SHARE = 0.1
"""On a table of at least `FINE_WIDE` features, the smooth vote on fine bins is fitted only
where the numeric columns it cuts finely are at least this share of them (`fine_fitted`): its
KB is every feature's one-feature clauses, the other columns' the plain vote's own, so on a
counts table (300 rows x 1,000 word counts, 12 of 791 kept columns binned) it was the plain
vote again at twice its cost and a third of the fit (wide25, benchmarks/RESULTS.md). The
trees keep their credit for the cut points' optimism (measured on the plain vote)."""
FINE_WIDE = 50
"""The fewest features `FINE_SHARE` applies at: below it the smooth vote costs little."""


FINE_FEWEST = 100
"""The fewest training rows `FINE_CELLS` reaches at: measured on 150–300 rows; below, a table
of 44 rows × 60 numbers, the search is left as it was (a tree, and its few-rows note)."""


def fine_reach(n_rows: int, n_numeric: int) -> bool:
    """Whether the search scores a smooth vote on `n_numeric` numeric columns of `n_rows`
    training rows: up to `OPTIMISM_RUNS` cut searches, or a wide table of few rows
    (`FINE_FEWEST` to `VOTE_SCREEN_ROWS` rows, within `FINE_CELLS`)."""
    return (VOTE_FOLDS * n_numeric <= OPTIMISM_RUNS
            or (FINE_FEWEST <= n_rows < VOTE_SCREEN_ROWS and n_rows * n_numeric <= FINE_CELLS))


def fine_fitted(n_numeric: int, n_features: int) -> bool:
    """Whether the search fits the smooth vote on fine bins of `n_numeric` numeric columns
    among `n_features` features (`FINE_SHARE`, `FINE_WIDE`)."""
    return n_features < FINE_WIDE or n_numeric >= FINE_SHARE * n_features


VOTE_SCREEN_ROWS = 1000
"""From this many training rows, on a table of more numeric columns than the smooth vote takes
(`OPTIMISM_RUNS`: none is fitted, no cut optimism measured), the one-feature vote on MDLP's
cut points leaves out the numeric columns where no MDLP cut paid on its own
(`Discretizer.uncut_`: cut at the median or an interaction tree's threshold, for the trees'
interactions, which a sum of one-feature votes cannot read): on that many rows MDLP finds a
column's own evidence, and its fit's products no longer read every row of every noise column
(5,000 rows x 400 numbers, 397 such: wide25, benchmarks/RESULTS.md)."""


OPTIMISM_FTOL = 1e-5
"""The solver's stop (as `PAIR_FTOL`) for the vote fitted on each fold's own cut points, whose
out-of-fold F1 only measures the optimism (`PLXClassifier._cut_optimism`): 1e-7 moved that
measure by ≤ 0.003 on Rare 10% / 30% (5 splits each) and took 30% longer."""
PAIR_VOTES = 30_000
"""The most pair votes — training rows × pairs of features, n(n − 1)/2 a row — the vote on pairs
of features ("direct-vote pairs", `selection.vote_key`) is scored with; above it there is no
such candidate. It gives one slot to each value of each feature and to each combination of
values of each pair of features (the Direct KB's two-feature clauses `POS ∨ ¬a=v ∨ ¬b=w`), so
the vote can state an interaction — "a = v matters when b = w", a grade that depends on two
attributes — which no sum of one-feature votes states. Its solver's work grows with those
votes (×11 fits): at 700 rows of 12 features (46,200) it cost a Syn 12/8 fit +0.95 s of CPU
(0.70 → 1.65 s, 3.0× → 7.1× a random forest's), where it answered no split. Measured in
benchmarks/RESULTS.md ("The fitted vote on pairs of features")."""
PAIR_SUPPORT = 10
"""The fewest training rows a two-feature clause must hold on average (pair votes over the
combinations of values seen) for the vote on pairs to be scored — the rule of thumb of ten
rows per fitted weight: a clause seen on two or three rows votes by a sign its leave-one-out
count flips, and thousands of such weights fit the folds' noise (HIV-1: 20 values a residue,
7,500 pair clauses on 700 rows, 2.6 rows each; the pair vote won one split's folds and lost its
test rows, and took the fit from 1.7× to 6.9× a random forest's)."""
PAIR_C = 10.0
"""The inverse L2 penalty of the pair vote's weights (`VOTE_C` is the one-feature vote's):
on a logical label the deciding clauses must outweigh the many others, which a strong L2
penalty keeps small and spreads over correlated clauses. Measured in benchmarks/RESULTS.md
("Sparse weights for the vote on pairs"): MONK's 1, always answering, tests 0.877 at C = 1
without L1 and 1.000 at C = 10 with `PAIR_L1` (its 10 clauses state (a1 = a2) ∨ a5 = 1)."""
PAIR_L1 = 0.3
"""The pair vote's L1 penalty per unit of weight (as `RULE_L1`): most of its one- and
two-feature clauses get weight 0 and are left out of the KB, as RuleFit's lasso leaves its
rules out, so the few that state the label are not drowned by the noise of the rest
(hundreds of pair clauses on ~10 rows each)."""
PAIR_FTOL = 1e-5
"""The pair vote's solver stops at this loss change (as `RULE_FTOL`; `FTOL` for the
one-feature vote): its problems are several times larger."""
SOLVER_THREADS = 1
"""BLAS threads the L-BFGS-B solver runs with: its vectors are ~10³ long, and with
OpenBLAS's own threads on a loaded machine each of its steps waited ~9 ms for them (17× the
one-thread time on a test problem; the vote's three fits 1.3 s of a 2.4 s fit on Rare 30%)."""
_BLAS: list[ThreadpoolController] = []
"""The BLAS libraries the solver's thread limit applies to, found once (`solver_threads`):
finding them walks every loaded library, 6–11 ms a fit of the weights — 8 fits a
training set made it ~0.07 s of a ~0.9 s fit."""


def solver_threads():
    """A context in which BLAS runs on `SOLVER_THREADS` threads (the libraries found once)."""
    if not _BLAS:
        _BLAS.append(ThreadpoolController())
    return _BLAS[0].limit(limits=SOLVER_THREADS, user_api="blas")


WEIGHT_CUT = 1e-6
"""Fitted weights below this share of the largest vote (or of 1, on the logit scale) are 0:
the bound is active and the solver leaves them at ~1e-16; and the LP, the reference for
every answer, accepts weights at most `lp.MAX_WEIGHT_RATIO` (1e7) apart."""


@dataclass(frozen=True)
class ValueSlots:
    """One slot per (feature, value) code of the training rows: `slot` (rows × features, −1
    where the cell is open or unseen) and the number of slots."""

    slot: np.ndarray
    n: int


def value_slots(codes: np.ndarray, sizes: np.ndarray | list[int]) -> ValueSlots:
    """The slots of query codes (`query.encode_rows`) over features with `sizes` values."""
    codes = np.asarray(codes, dtype=np.int64)
    sizes = np.asarray(sizes, dtype=np.int64)
    offset = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    known = (codes >= 0) & (codes < sizes[None, :])
    return ValueSlots(np.where(known, codes + offset[None, :], -1), int(sizes.sum()))


def pair_codes(codes: np.ndarray, sizes: np.ndarray | list[int]
               ) -> tuple[np.ndarray, list[int]]:
    """(codes, sizes) of the features followed by one column per pair of features i < j (in
    `pair_list` order): the code of the pair's combination of values, c_i · size_j + c_j (−1
    where either cell is open or unseen), so `value_slots` gives every one- and two-feature
    clause a slot."""
    codes = np.asarray(codes, dtype=np.int64)
    sizes = [int(v) for v in sizes]
    pairs = pair_list(len(sizes))
    if not pairs:
        return codes, sizes
    i, j = np.array(pairs).T
    sz = np.asarray(sizes, dtype=np.int64)
    ok = (codes[:, i] >= 0) & (codes[:, i] < sz[i]) & (codes[:, j] >= 0) & (codes[:, j] < sz[j])
    both = np.where(ok, codes[:, i] * sz[j] + codes[:, j], -1)
    return np.hstack([codes, both]), sizes + (sz[i] * sz[j]).tolist()


def pair_list(n: int) -> list[tuple[int, int]]:
    """Every pair of n features (i < j), in the order `pair_codes` gives them columns."""
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def slot_counts(vs: ValueSlots, y: np.ndarray, rows: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """(support, positives) of every slot over `rows` (default all): the one-feature clauses'
    counts."""
    s = vs.slot if rows is None else vs.slot[rows]
    yy = np.asarray(y) if rows is None else np.asarray(y)[rows]
    known = s >= 0
    flat = s[known]
    sup = np.bincount(flat, minlength=vs.n)
    pos = np.bincount(flat, weights=np.broadcast_to(yy[:, None], s.shape)[known],
                      minlength=vs.n).astype(np.int64)
    return sup, pos


def votes(vs: ValueSlots, y: np.ndarray, rows: np.ndarray, counts: tuple[np.ndarray, np.ndarray],
          cw: tuple[float, float], leave_out: bool) -> sparse.csr_matrix:
    """(len(rows) × slots) sign(p − 0.5) of each row's one-feature clauses under `counts`
    (`leave_out`: the row taken out of them — the row is among the counted ones), p corrected
    by the class weights `cw` = (w_pos, w_neg): the sign of w_pos·positives − w_neg·negatives.
    A clause left without rows does not vote."""
    s = vs.slot[rows]
    r, j = np.nonzero(s >= 0)  # a row's slots in increasing order, as a membership matrix's
    return _signed(r, s[r, j], np.asarray(y)[rows], counts, cw, leave_out, (len(rows), vs.n),
                   ordered=True)


def group_votes(member: sparse.csr_matrix, y_rows: np.ndarray,
                counts: tuple[np.ndarray, np.ndarray], cw: tuple[float, float],
                leave_out: bool) -> sparse.csr_matrix:
    """(rows × votes) sign(w_pos·positives − w_neg·negatives) of each vote a row takes part in
    (`member`, rows × votes), under `counts` (support, positives per vote; `leave_out`: the
    row is among them and is taken out, with its label in `y_rows`)."""
    m = member.tocoo()
    return _signed(m.row, m.col, y_rows, counts, cw, leave_out, member.shape)


def _signed(r: np.ndarray, c: np.ndarray, y_rows: np.ndarray,
            counts: tuple[np.ndarray, np.ndarray], cw: tuple[float, float], leave_out: bool,
            shape: tuple[int, int], ordered: bool = False) -> sparse.csr_matrix:
    """`group_votes` of the (row r, vote c) memberships (`ordered`: they come row-major
    without repeats). Each vote's sign is worked out once per vote (and per label of the row
    left out), then read per membership: the same signs as per membership, at a fraction of
    the passes over them (5,000 rows x 400 columns: ~2 million a fold)."""
    y_rows = np.asarray(y_rows)
    sup, pos = counts
    if leave_out and len(y_rows) and np.isin(y_rows, (0, 1)).all():
        # the row's own label taken out: y 0 → (sup − 1, pos), y 1 → (sup − 1, pos − 1)
        table = np.stack([_vote_sign(sup - 1, pos, cw), _vote_sign(sup - 1, pos - 1, cw)])
        v = table[y_rows[r].astype(np.intp), c]
    elif leave_out:  # labels other than 0/1: per membership
        yy = y_rows[r]
        v = _vote_sign(sup[c] - 1, pos[c] - yy, cw)
    else:
        v = _vote_sign(sup, pos, cw)[c]
    keep = v != 0
    return row_major(v[keep], r[keep], c[keep], shape, ordered)


def _vote_sign(sup: np.ndarray, pos: np.ndarray, cw: tuple[float, float]) -> np.ndarray:
    """sign(w_pos·positives − w_neg·negatives) of (support, positives), 0 where it does not
    vote (no rows, or the two sides equal)."""
    d = pos * float(cw[0]) - (sup - pos) * float(cw[1])
    return np.where(sup > 0, np.sign(d), 0.0)


def row_major(data: np.ndarray, r: np.ndarray, c: np.ndarray, shape: tuple[int, int],
              ordered: bool = False) -> sparse.csr_matrix:
    """`sparse.csr_matrix((data, (r, c)), shape)` — from its CSR arrays when the (r, c) come
    in row-major order without repeats (a membership's `np.nonzero`, as they mostly do;
    `ordered`: the caller knows they do): the same matrix, arrays and all, without the
    conversion through COO."""
    r, c = np.asarray(r), np.asarray(c)
    if not ordered and len(r) > 1 and not bool(
            np.all((r[1:] > r[:-1]) | ((r[1:] == r[:-1]) & (c[1:] > c[:-1])))):
        return sparse.csr_matrix((data, (r, c)), shape=shape)
    idx = np.int32 if max(shape) < 2**31 - 1 and len(r) < 2**31 - 1 else np.int64
    indptr = np.zeros(shape[0] + 1, idx)
    np.cumsum(np.bincount(r, minlength=shape[0]), out=indptr[1:])
    return sparse.csr_matrix((np.asarray(data, np.float64), c.astype(idx), indptr), shape=shape)


def fit_weights(S: sparse.csr_matrix, y: np.ndarray, row_w: np.ndarray, C: float = VOTE_C,
                l1: float = 0.0, ftol: float | None = None) -> tuple[np.ndarray, float]:
    """(weights ≥ 0, intercept) minimising Σ_i row_w_i · log(1 + exp(−y±_i (S_i·w + b)))
    + |w|² / (2C) + l1 · Σ w (L-BFGS-B from 0, stopping at `ftol`, default `FTOL`;
    deterministic)."""
    return fit_many([(S, y, row_w)], C, l1, ftol)[0]


def fit_many(problems: list[tuple[sparse.csr_matrix, np.ndarray, np.ndarray]],
             C: float = VOTE_C, l1: float = 0.0, ftol: float | None = None,
             penalties: list[sparse.spmatrix] | None = None
             ) -> list[tuple[np.ndarray, float]]:
    """`fit_weights` of several independent problems (S, y, row weights) with one solver run
    on their sum (block-diagonal: each keeps its own weights and intercept), so the folds of
    the cross-validation cost one run's Python overhead, not ten. `penalties`: per problem a
    positive semi-definite Q (slots × slots) adding wᵀQw / 2 to its loss (`smooth_penalty`)."""
    k = len(problems)
    heights = [p[0].shape[0] for p in problems]
    block = np.repeat(np.arange(k), heights)
    widths = [p[0].shape[1] for p in problems]
    m = sum(widths)
    # each problem's intercept is a last column of ones, so one product gives S·w + b per row
    # (a row's sum in the same order, the intercept last) and one its gradient (each block's
    # rows summed in order, as `bincount` did)
    A = _stacked([p[0] for p in problems], m)
    if A is None:  # (a problem's matrix not in canonical form: scipy's own stacking)
        ones = sparse.csr_matrix((np.ones(len(block)), (np.arange(len(block)), block)),
                                 shape=(len(block), k))
        A = sparse.hstack([sparse.block_diag([p[0] for p in problems], format="csr"), ones],
                          format="csr")
    At = A.T.tocsr()
    A_x, At_g = _matvec(A), _matvec(At)
    ys = np.concatenate([2.0 * np.asarray(p[1], dtype=float) - 1.0 for p in problems])
    rw = np.concatenate([np.asarray(p[2], dtype=float) for p in problems])
    nrw = -rw * ys
    Q = (sparse.block_diag([q if q is not None else sparse.csr_matrix((wd, wd))
                            for q, wd in zip(penalties, widths)], format="csr")
         if penalties is not None and any(q is not None for q in penalties) else None)
    Q_w = _matvec(Q) if Q is not None else None  # (`Q @ w` by the same kernel, no dispatch)

    def loss(x):
        w = x[:m]
        z = ys * A_x(x)
        # log(1 + e^∓z) = log(1 + e^−|z|) + max(∓z, 0): numpy's logaddexp(0, ∓z), bit for
        # bit, from one exp and one log1p instead of two of each
        soft = np.log1p(np.exp(-np.abs(z)))
        g = nrw * np.exp(-(soft + np.maximum(z, 0.0)))  # d loss / d score
        val = float(rw @ (soft + np.maximum(-z, 0.0)) + 0.5 / C * (w @ w) + l1 * w.sum())
        grad = At_g(g)
        grad[:m] += w / C
        grad[:m] += l1
        if Q_w is not None:
            qw = Q_w(w)
            val += 0.5 * float(w @ qw)
            grad[:m] += qw
        return val, grad

    with solver_threads():
        x = lbfgsb(loss, m + k, m, FTOL if ftol is None else ftol, 1e-6 * k)
    out = []
    for i, (a, wd) in enumerate(zip(np.cumsum([0, *widths[:-1]]), widths)):
        w = x[a:a + wd].copy()
        w[w < WEIGHT_CUT * max(float(w.max(initial=0.0)), 1.0)] = 0.0
        out.append((w, float(x[m + i])))
    return out


def _stacked(mats: list[sparse.csr_matrix], m: int) -> sparse.csr_matrix | None:
    """`hstack([block_diag(mats), ones])` in CSR — each matrix on its own rows and columns,
    then one column of ones per matrix over its rows — built from the matrices' CSR arrays
    (the same arrays as scipy's stacking, whose COO round trips were ~8% of a fit of vote
    weights), or None when a matrix is not canonical CSR (sorted, no repeats). Built in the
    index type it ends in, each entry written once (5,000 rows x 400 columns, 11 problems:
    0.8 -> 0.15 s)."""
    k = len(mats)
    if not all(sparse.isspmatrix_csr(S) and S.has_canonical_format and S.dtype == np.float64
               for S in mats):
        return None
    heights = np.array([S.shape[0] for S in mats], np.int64)
    n_rows = int(heights.sum())
    nnz = sum(S.nnz for S in mats) + n_rows  # each row's entries, then its one
    idx = np.int32 if max(nnz, m + k) < 2**31 - 1 else np.int64
    indptr = np.zeros(n_rows + 1, idx)
    np.cumsum(np.concatenate([np.diff(S.indptr) for S in mats]) + 1, out=indptr[1:])
    last = indptr[1:] - 1  # where each row's one goes (after its entries)
    entry = np.ones(nnz, bool)
    entry[last] = False
    offsets = np.cumsum([0, *(S.shape[1] for S in mats[:-1])])
    indices = np.empty(nnz, idx)
    data = np.empty(nnz)
    indices[entry] = np.concatenate([S.indices.astype(idx) + idx(o)
                                     for S, o in zip(mats, offsets)])
    data[entry] = np.concatenate([S.data for S in mats])
    indices[last] = m + np.repeat(np.arange(k), heights)
    data[last] = 1.0
    return sparse.csr_matrix((data, indices, indptr), shape=(n_rows, m + k))


def _matvec(M: sparse.csr_matrix):
    """`lambda v: M @ v` for float64 vectors v, by scipy's own CSR kernel on M's arrays taken
    once: the same product bit for bit, without `@`'s per-call checks and dispatch (a third of
    a product's time on the vote's small problems, called twice per loss evaluation)."""
    try:
        from scipy.sparse._sparsetools import csr_matvec
    except ImportError:  # a scipy without it: the operator itself
        return lambda v: M @ v
    if M.dtype != np.float64:
        return lambda v: M @ v
    n_rows, n_cols = M.shape
    indptr, indices, data = M.indptr, M.indices, M.data

    def product(v: np.ndarray) -> np.ndarray:
        out = np.zeros(n_rows)
        csr_matvec(n_rows, n_cols, indptr, indices, data, v, out)
        return out

    probe = np.linspace(-1.0, 1.0, n_cols)  # a private kernel: checked once against `@`
    try:
        same = np.array_equal(product(probe), M @ probe)
    except (TypeError, ValueError):
        same = False
    return product if same else (lambda v: M @ v)


MAXITER = 2000
"""The most L-BFGS-B iterations of a fit of vote weights."""


def lbfgsb(loss, n: int, bounded: int, ftol: float, gtol: float) -> np.ndarray:
    """The x minimising `loss(x) → (value, gradient)` over n variables, the first `bounded`
    of them ≥ 0, from x = 0: `scipy.optimize.minimize(method="L-BFGS-B")` with `MAXITER`,
    `ftol` and `gtol` — the same iterates and result bit for bit (`_setulb_loop`, where
    scipy's own step function can be driven; else `minimize` itself). The vote's problems
    are small (10²–10⁴ variables, tens of steps), and minimize's wrapping of each step
    (its bounds read one by one in Python, a function object that copies and compares x
    per call) was a third of the solver's time (RESULTS.md, "Fit time of the default:
    same answers, less work (session 11 …)")."""
    for setulb in list(_SETULB):  # a copy: another thread's fit may clear it meanwhile
        try:
            return _setulb_loop(setulb, loss, n, bounded, ftol, gtol)
        except _SetulbMismatch:
            _SETULB.clear()
    res = minimize(loss, np.zeros(n), jac=True, method="L-BFGS-B",
                   bounds=[(0.0, None)] * bounded + [(None, None)] * (n - bounded),
                   options={"maxiter": MAXITER, "ftol": ftol, "gtol": gtol})
    return res.x


class _SetulbMismatch(Exception):
    """scipy's step function does not take the arguments `_setulb_loop` passes."""


SETULB_SCIPY = ((1, 15), (1, 18))
"""The scipy versions [from, to) whose private L-BFGS-B driver `_setulb_loop` repeats."""


def _find_setulb() -> list:
    """[scipy's L-BFGS-B step function] for the scipy versions whose `_minimize_lbfgsb`
    `_setulb_loop` repeats (1.15–1.17, the C translation, 17 arguments; checked bit for bit
    by tests/test_vote.py), else []: a later scipy may keep the private signature but change
    what the driver does, so it gets `minimize` itself (slower, never different)."""
    import scipy

    try:
        from scipy.optimize import _lbfgsb
    except ImportError:
        return []
    version = tuple(int(v) for v in re.findall(r"\d+", scipy.__version__)[:2])
    return [_lbfgsb.setulb] if SETULB_SCIPY[0] <= version < SETULB_SCIPY[1] and hasattr(
        _lbfgsb, "setulb") else []


def _setulb_loop(setulb, loss, n: int, bounded: int, ftol: float, gtol: float) -> np.ndarray:
    """`lbfgsb` by scipy's step function, as scipy 1.15–1.17's `_minimize_lbfgsb` drives it
    (10 corrections, 20 line-search steps, at most 15,000 evaluations; the loss evaluated
    at x = 0 first and again only where the step function moves x, on a copy of x)."""
    m, maxls, maxfun = 10, 20, 15000
    x = np.zeros(n)
    nbd = np.zeros(n, np.int32)
    nbd[:bounded] = 1  # a lower bound (0) only
    low, up = np.zeros(n), np.zeros(n)
    at = x.copy()
    value, grad = loss(at.copy())
    nfev = 1
    f, g = np.array(0.0), np.zeros(n)
    wa = np.zeros(2 * m * n + 5 * n + 11 * m * m + 8 * m)
    iwa = np.zeros(3 * n, np.int32)
    task, ln_task = np.zeros(2, np.int32), np.zeros(2, np.int32)
    lsave, isave, dsave = np.zeros(4, np.int32), np.zeros(44, np.int32), np.zeros(29)
    factr = ftol / np.finfo(float).eps
    steps, first = 0, True
    while True:
        g = g.astype(np.float64)
        try:
            setulb(m, x, low, up, nbd, f, g, factr, gtol, wa, iwa, task, lsave, isave, dsave,
                   maxls, ln_task)
        except TypeError as e:  # another signature: scipy's own driver
            if steps == 0 and nfev == 1:
                raise _SetulbMismatch from e
            raise
        if first and task[0] != 3:  # its first reply asks for the loss at x = 0
            raise _SetulbMismatch(f"setulb's first task code is {int(task[0])}, not 3")
        first = False
        if task[0] == 3:  # the loss and gradient at x
            if not np.array_equal(x, at):
                at = x.astype(np.float64)
                value, grad = loss(at.copy())
                nfev += 1
            f, g = value, grad
        elif task[0] == 1:  # a new iteration
            steps += 1
            if steps >= MAXITER:
                task[0], task[1] = 5, 504
            elif nfev > maxfun:
                task[0], task[1] = 5, 502
        else:
            return x


_SETULB: list = _find_setulb()


def sample_rows(y: np.ndarray, n: int, seed: int = 0) -> np.ndarray:
    """About n rows of labels y (sorted positions), each class its share of them (at least
    one row), drawn without replacement with a fixed seed: the same rows for the same labels."""
    y = np.asarray(y)
    rng = np.random.default_rng(seed)
    out = [rng.choice(at, max(1, min(len(at), round(n * len(at) / len(y)))), replace=False)
           for at in (np.flatnonzero(y == c) for c in np.unique(y))]
    return np.sort(np.concatenate(out))


def row_weights(y: np.ndarray, cw: tuple[float, float]) -> np.ndarray:
    """Each row's weight in the fit: w_pos or w_neg, scaled to mean 1."""
    yb = np.asarray(y) == 1
    w = np.where(yb, float(cw[0]), float(cw[1]))
    return w * (len(w) / max(float(w.sum()), 1e-300))


def fit_rows(vs: ValueSlots, y: np.ndarray, rows: np.ndarray, cw: tuple[float, float],
             C: float = VOTE_C) -> tuple[np.ndarray, float, tuple[np.ndarray, np.ndarray]]:
    """(weights per slot, intercept, the rows' slot counts) fitted on training `rows`."""
    counts = slot_counts(vs, y, rows)
    S = votes(vs, y, rows, counts, cw, leave_out=True)
    w, b = fit_weights(S, np.asarray(y)[rows], row_weights(np.asarray(y)[rows], cw), C)
    return w, b, counts


def cross_fit(vs: ValueSlots, y: np.ndarray, cw_of, seed: int | None, k: int = VOTE_FOLDS,
              C: float = VOTE_C, fold_slots: list[ValueSlots] | None = None,
              final: bool = True, ftol: float | None = None, l1: float = 0.0,
              smooth: tuple | None = None, prepared: tuple | None = None,
              groups: np.ndarray | None = None
              ) -> tuple[np.ndarray, tuple[np.ndarray, float] | None]:
    """(every row's out-of-fold vote score — S·w + b of the weights fitted without its fold,
    NaN for a row no clause votes on (`scores`) —,
    the (weights, intercept) fitted on every row); `cw_of(labels)` gives a fold's class
    weights. `fold_slots`: each fold's own slots of every row (its own cut points, placed on
    its training rows), `vs` those of the fit on every row (`final` False: no such fit, None).
    The k + 1 fits are one solver run (`fit_many`, stopping at `ftol`, with L1 `l1`).
    `smooth`: (adjacent slot pairs, strength, pool or None) — every fit's clauses vote by
    their counts pooled (`pooled`) and their signed votes are penalised by `smooth_penalty`,
    its signs from its own (pooled) counts. `prepared`: `cross_problems` of the same
    arguments, built once for fits with other penalties (`VoteCandidate`'s `like`). `groups`:
    a case per row, its rows on one side of each fold (`selection.folds`)."""
    y = np.asarray(y)
    parts, slots, counts, problems, pens = prepared or cross_problems(
        vs, y, cw_of, seed, k, fold_slots, final, smooth, groups)
    fits = fit_many(problems, C, l1, ftol=ftol, penalties=pens)
    out = np.full(len(y), np.nan)
    for s, (_tr, te, cw), c, (w, b) in zip(slots, parts[:k], counts, fits):
        out[te] = scores(votes(s, y, te, c, cw, leave_out=False), w, b)
    return out, fits[k] if final else None


def cross_problems(vs: ValueSlots, y: np.ndarray, cw_of, seed: int | None, k: int = VOTE_FOLDS,
                   fold_slots: list[ValueSlots] | None = None, final: bool = True,
                   smooth: tuple | None = None, groups: np.ndarray | None = None) -> tuple:
    """`cross_fit`'s k (+ 1) problems, independent of its penalties `C` and `l1`: (folds'
    (train, held-out, class weights), slots, counts, (votes, labels, row weights), smoothing
    penalties or None)."""
    from .selection import folds

    y = np.asarray(y)
    parts = [(tr, te, cw_of(y[tr])) for tr, te in folds(y, k, seed, groups)]
    if final:
        parts.append((np.arange(len(y)), None, cw_of(y)))
    slots = [*(fold_slots or [vs] * k), vs]
    counts = [slot_counts(s, y, tr) for s, (tr, _te, _cw) in zip(slots, parts)]
    pens = None
    if smooth is not None:
        if len(smooth) > 2 and smooth[2] is not None:  # signs from the neighbours' counts too
            counts = [pooled(c, smooth[2]) for c in counts]
        pens = [smooth_penalty(smooth[0], vote_signs(c, cw), smooth[1])
                for (_tr, _te, cw), c in zip(parts, counts)]
    problems = [(votes(s, y, tr, c, cw, leave_out=True), y[tr], row_weights(y[tr], cw))
                for s, (tr, _te, cw), c in zip(slots, parts, counts)]
    return parts, slots, counts, problems, pens


def vote_signs(counts: tuple[np.ndarray, np.ndarray], cw: tuple[float, float]) -> np.ndarray:
    """Per slot, the sign its clause votes with under `counts` and class weights `cw`
    (0: no rows, or p = 0.5 exactly: it does not vote)."""
    sup, pos = counts
    d = pos * float(cw[0]) - (sup - pos) * float(cw[1])
    return np.where(sup > 0, np.sign(d), 0.0)


def pooled(counts: tuple[np.ndarray, np.ndarray], pool: sparse.spmatrix
           ) -> tuple[np.ndarray, np.ndarray]:
    """(support, positives) of every slot summed over the slots `pool` (slots × slots, 0/1)
    joins it with: a bin's counts with its neighbours'."""
    return (np.rint(pool @ counts[0]).astype(np.int64), np.rint(pool @ counts[1]).astype(np.int64))


def pool_matrix(n: int, pairs: np.ndarray, width: int) -> sparse.csr_matrix:
    """(n × n) 0/1: each slot joined with the slots up to `width` steps away along `pairs`
    (`adjacent_slots`; slots in no pair: themselves only)."""
    A = sparse.csr_matrix((np.ones(2 * len(pairs)), (np.r_[pairs[:, 0], pairs[:, 1]],
                                                     np.r_[pairs[:, 1], pairs[:, 0]])),
                          shape=(n, n))
    P = sparse.identity(n, format="csr")
    step = P
    for _ in range(width):
        step = step @ A
        P = P + step
    P.data[:] = 1.0
    return P.tocsr()


def smoothing(full: KB, binnings: dict) -> tuple[np.ndarray, float, sparse.csr_matrix | None] | None:
    """The smooth vote's settings for the KB `full` whose numeric columns are cut by
    `binnings` (column → `data.Binning`): (neighbouring bins' slot pairs, `FINE_SMOOTH`,
    `pool_matrix` of `FINE_POOL` or None), for `cross_fit`; None when `FINE_SMOOTH` and
    `FINE_POOL` are both 0 (the plain vote on fine bins)."""
    if FINE_SMOOTH <= 0 and FINE_POOL <= 0:
        return None
    feats = list(full.features)
    orders = {}
    for c, b in binnings.items():
        if c in feats:
            at = {str(v): i for i, v in enumerate(full.domains[c])}
            orders[feats.index(c)] = np.array([at[lb] for lb in b.labels if lb in at], np.int64)
    sizes = [len(full.domains[f]) for f in feats]
    pairs = adjacent_slots(sizes, orders)
    return (pairs, FINE_SMOOTH,
            pool_matrix(int(sum(sizes)), pairs, FINE_POOL) if FINE_POOL > 0 else None)


def adjacent_slots(sizes: list[int], orders: dict[int, np.ndarray]) -> np.ndarray:
    """(pairs × 2) the slots of neighbouring bins of each ordered feature: `orders` maps a
    feature's position to its values' codes in bin order (values not listed: none)."""
    offset = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    out = [np.column_stack([offset[j] + o[:-1], offset[j] + o[1:]])
           for j, o in sorted(orders.items()) if len(o) > 1]
    return np.vstack(out).astype(np.int64) if out else np.zeros((0, 2), np.int64)


def smooth_penalty(pairs: np.ndarray, signs: np.ndarray, strength: float) -> sparse.csr_matrix:
    """Q with wᵀQw = strength · Σ over adjacent bins (a, b) of (s_b − s_a)², s = sign · w the
    slots' signed votes: a first-difference (P-spline-like) penalty that lets a numeric column
    cut into many bins vote as a smooth shape, not as many free steps. The weights stay ≥ 0
    with each clause voting its own sign, so the KB is the vote's as before; a bin whose sign
    differs from its neighbour's pulls both towards 0 (the shape crosses the base rate there)."""
    n = len(signs)
    if not len(pairs) or strength <= 0:
        return sparse.csr_matrix((n, n))
    k = np.arange(len(pairs))
    D = sparse.csr_matrix((np.concatenate([signs[pairs[:, 1]], -signs[pairs[:, 0]]]),
                           (np.concatenate([k, k]), np.concatenate([pairs[:, 1], pairs[:, 0]]))),
                          shape=(len(pairs), n))
    return (strength * (D.T @ D)).tocsr()


def scores(S: sparse.csr_matrix, w: np.ndarray, b: float) -> np.ndarray:
    """Each row's vote score S·w + b, NaN where no clause of weight > 0 votes: the vote KB has
    no clause for such a row and answers it [0, 1] (its prior clause alone decides nothing,
    `query.prior_alone`), so the cross-validation scores it as that answer — no evidence,
    negative at every threshold — not as the intercept, which would score a model that does
    not answer."""
    S = sparse.csr_matrix(S)
    voting = (abs(S) @ (np.asarray(w) > 0).astype(float)) > 0
    return np.where(voting, S @ w + b, np.nan)


def probability(score: np.ndarray) -> np.ndarray:
    """The vote's logistic probability (what the threshold is chosen on); NaN stays NaN (a row
    no clause votes on, `scores`), without numpy's warning."""
    with np.errstate(invalid="ignore"):
        return np.exp(-np.logaddexp(0.0, -np.asarray(score, dtype=float)))


def vote_kb(full: KB, sizes: list[int], cw: tuple[float, float], w: np.ndarray, b: float,
            threshold: float = 0.5, pool: sparse.spmatrix | None = None) -> KB:
    """The KB that answers: `full`'s one-feature clauses (and its two-feature ones when `sizes`
    are `pair_codes`' sizes, the pairs' slots after the features') with the fitted slot weights `w` (a
    clause of weight 0, or at p = 0.5 exactly under the class weights `cw`: left out) and the
    prior clause with signed weight b − logit(threshold) ([1] POS above 0, [0] POS below, none
    at 0). `sizes`: the values of each feature (`value_slots`). `pool` (slots × slots,
    `pool_matrix`): a clause's p is its slot's class-corrected frequency over the slots it
    joins — as its vote was fitted —, its support and positives its own."""
    n_feat = len(full.features)
    longest = 2 if len(sizes) > n_feat else 1  # `pair_codes`' sizes: the pairs' slots too
    kb = windowed_kb(full, 1, longest, 0)
    known = kb.codes >= 0
    first = np.argmax(known, axis=1)
    last = n_feat - 1 - np.argmax(known[:, ::-1], axis=1)
    rows = np.arange(kb.n_learned)
    offset = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    slot = offset[first] + kb.codes[rows, first]
    if longest == 2:
        col = np.full((n_feat, n_feat), -1, np.int64)  # the column of pair (i, j)
        for at, (i, j) in enumerate(pair_list(n_feat)):
            col[i, j] = n_feat + at
        two = first != last
        c = col[first[two], last[two]]
        slot[two] = offset[c] + (kb.codes[rows[two], first[two]].astype(np.int64)
                                 * np.asarray(sizes, np.int64)[last[two]]
                                 + kb.codes[rows[two], last[two]])
    d = kb.positives * float(cw[0]) - (kb.support - kb.positives) * float(cw[1])
    p = kb.p
    if pool is not None:  # a clause votes by its bin's and its neighbours' counts
        n = int(np.sum(sizes))
        sup = np.bincount(slot, weights=kb.support, minlength=n)
        pos = np.bincount(slot, weights=kb.positives, minlength=n)
        psup, ppos = pool @ sup, pool @ pos
        ps, pp = psup[slot], ppos[slot]
        d = pp * float(cw[0]) - (ps - pp) * float(cw[1])
        from .variants import reweighted_p

        p = np.clip(reweighted_p(pp / np.maximum(ps, 1), *cw), 0.0, 1.0)
    shift = prior_shift(b, threshold, w)
    ww = w[slot]
    keep = np.flatnonzero((ww >= WEIGHT_CUT * max(float(ww.max(initial=0.0)), abs(shift), 1.0))
                          & (d != 0))
    out = KB(kb.features, dict(kb.domains), kb.codes[keep], kb.head[keep], p[keep], ww[keep],
             kb.support[keep], kb.positives[keep], kb.source[keep], [], positive=kb.positive,
             kind=kb.kind, max_len=longest, n_rows=kb.n_rows)
    if shift != 0.0:
        out.extra.append(WeightedClause((Literal(POS),), 1.0 if shift > 0 else 0.0, abs(shift),
                                        source="data", id=PRIOR_ID))
    return out


def kb_probability(kb: KB, codes: np.ndarray) -> np.ndarray:
    """A vote KB's own logistic probability of rows (query codes over its features, as
    `query.encode_rows` gives them): σ of the signed weights of the learned clauses each row
    holds (+w where the clause's ω(POS) target is above 0.5, −w below) and of its prior
    clause — the vote's σ(S·w + b − logit(t)), t moved into the prior (`vote_kb`,
    `RuleVote.kb`). Its KB's weighted median says "this class or the rest" alike (above 0.5
    exactly where this is, on rows some learned clause holds), but several classes are compared
    by this number, which orders them as the vote does (`estimator.PLXClassifier.
    _compared_by_vote`; benchmarks/RESULTS.md, multi22). A row no learned clause holds (the KB
    answers it [0, 1]) gets σ of the prior clause alone, as the vote would: 0.5 there let a
    class its rules say nothing of outrank classes with evidence (a 4-class rule vote, 30% of
    cells missing: accuracy 0.857 → 0.987; benchmarks/RESULTS.md, review22). The KB's other
    enabled clauses — an expert's weighted rules — count as the learned ones do, on the rows
    whose known values hold their body (`query._rule_terms`, the terms the LP's median takes
    from them): the median and this number still agree on "this class or the rest", and a rule
    moves the classes' comparison as it moves the bounds (it moved only the bounds)."""
    from .query import _rule_terms

    n = kb.n_learned
    sizes = [len(kb.domains[f]) for f in kb.features]
    p, w = np.asarray(kb.p[:n], float), np.asarray(kb.w[:n], float)
    target = np.where(np.asarray(kb.head[:n]) > 0, p, 1.0 - p)
    held = body_matches(kb.codes[:n], sizes, codes).astype(np.float64)
    score = held @ (np.sign(target - 0.5) * w)
    # the prior clause (every row: the intercept) and the rules, as the LP's median terms
    rows, targets, weights, _ = _rule_terms(kb, np.asarray(codes), "relevant")
    score = score + np.bincount(rows, weights=np.sign(targets - 0.5) * weights,
                                minlength=len(score))
    return probability(score)


def with_vote(bounds, kb: KB, X) -> object:
    """`bounds` (a `query.BoundsArray` of `kb` on the rows X) carrying the vote's own
    probability of those rows (`kb_probability`): what a several-class model compares a vote
    family's class by (`BoundsArray.compared_by`) — predict, predict_proba, explain's class,
    `plx predict`'s and the dashboard's class tables alike."""
    from dataclasses import replace

    from .query import encode_rows

    return replace(bounds, vote=kb_probability(kb, encode_rows(kb, X)))


def beside_votes(bounds):
    """`bounds` (a `query.BoundsArray`) of a class compared by its KB's mean beside classes
    compared by their votes — a class of fewer than `selection.MIN_CLASS_ROWS` rows kept on its
    Direct KB —: its mean, but 0 on a row its KB answers [0, 1] (nothing it knows bears on it;
    its prior, a few rows in n, is about 0), where the votes' priors decide (`kb_probability`):
    0.5 there gave a 3-row class every row nothing was known of (review22)."""
    from dataclasses import replace

    bare = (bounds.lower <= 0) & (bounds.upper >= 1)
    return replace(bounds, vote=np.where(bare, 0.0, bounds.mean))


def class_compared(bounds, kb: KB, X, by_vote: bool, voted: bool):
    """`bounds` of one class of a several-class model (its `kb` on the rows X) as the classes
    are compared (`BoundsArray.compared_by`): a vote family's class by its vote's own
    probability (`with_vote`), another class beside votes by `beside_votes`, else as they are
    (`voted`: any class is compared by its vote). `PLXClassifier` and `plx predict` alike."""
    if by_vote:
        return with_vote(bounds, kb, X)
    return beside_votes(bounds) if voted else bounds


def prior_shift(b: float, threshold: float, w: np.ndarray) -> float:
    """The prior clause's signed weight b − logit(threshold), 0 where it is below
    `WEIGHT_CUT` of the largest vote (or of 1): an intercept at the solver's noise (4e-17 on a
    symmetric table) is no clause — the LP cannot resolve weights 1e7 apart."""
    shift = b - float(np.log(threshold / (1.0 - threshold)))
    return 0.0 if abs(shift) < WEIGHT_CUT * max(float(np.max(w, initial=0.0)), 1.0) else shift


DENSE_MATCHES = 4_000_000
"""The most rows × bodies × features with a literal that `body_matches` compares cell by cell;
above it (many bodies, many rows) it multiplies one-hot matrices, whose work is the literals'."""


def body_matches(bodies: np.ndarray, sizes: np.ndarray | list[int], codes: np.ndarray
                 ) -> sparse.csr_matrix:
    """(rows × bodies) whether a row (query codes, −1 open or unseen) holds every literal of a
    body (code rows over the same features, −1 where a body says nothing): under the relevant
    semantics, which clauses apply to the row. A body without literals applies to no row."""
    sizes = np.asarray(sizes, dtype=np.int64)
    n = int(sizes.sum())
    bodies = np.asarray(bodies, dtype=np.int64)
    codes = np.asarray(codes, dtype=np.int64)
    said = bodies >= 0
    used = np.flatnonzero(said.any(axis=0))  # the features some body has a literal on
    if len(codes) * len(bodies) * len(used) <= DENSE_MATCHES:
        # few bodies (a fold's learned terms: 3–125 on the search's tables): each row against
        # each body feature by feature, without the two one-hot matrices and their product
        # (a tenth of a 4-class fit's time); the same matrix
        held = np.broadcast_to(said.any(axis=1), (len(codes), len(bodies))).copy()
        for f in used:
            b = bodies[:, f]
            held &= (b < 0) | ((codes[:, f, None] == b) & (b < sizes[f]))
        r, c = np.nonzero(held)
        return sparse.csr_matrix((np.ones(len(r), bool), (r, c)), shape=held.shape)

    def one_hot(c: np.ndarray) -> sparse.csr_matrix:
        s = value_slots(c, sizes).slot
        r, j = np.nonzero(s >= 0)  # row-major, each row's slots rising with the feature
        return row_major(np.ones(len(r)), r, s[r, j], (len(c), n))

    hits = (one_hot(codes) @ one_hot(bodies).T).tocoo()
    full = hits.data == (bodies >= 0).sum(axis=1)[hits.col]
    return sparse.csr_matrix((np.ones(int(full.sum()), bool), (hits.row[full], hits.col[full])),
                             shape=hits.shape)


@dataclass(frozen=True)
class RuleSet:
    """The clauses a rule vote weighs: every clause's `bodies` row (codes over features of
    `sizes` values; the one-feature clauses first, then each tree's clauses in its KB's order)
    and `group`, the vote it belongs to (−1: none, a body without literals); a binary tree
    node's clauses are mutually exclusive — a row holds at most one — so they are one vote,
    with the node's counts, and a clause whose body another vote already has is that vote.
    `shown`: the clauses the KB writes (a vote's clauses once each); `source`: each clause's
    `clause.SOURCES` index ("data" for a one-feature clause, "tree" for a path)."""

    bodies: np.ndarray
    source: np.ndarray
    group: np.ndarray
    shown: np.ndarray
    n: int
    sizes: np.ndarray
    starts: tuple[int, ...]
    """Where each tree's clauses start (the one-feature clauses start at 0)."""

    def member(self, codes: np.ndarray, pairs: list[tuple[np.ndarray, np.ndarray]] | None = None
               ) -> sparse.csr_matrix:
        """(rows × votes) whether each row (query codes) takes part in each vote. `pairs`:
        per tree, the (row, clause of its KB) pairs whose body the row holds
        (`tree.path_clauses`); None: found by matching every body (`body_matches`)."""
        codes = np.asarray(codes, dtype=np.int64)
        if pairs is None:
            m = body_matches(self.bodies, self.sizes, codes).tocoo()
            r, c = m.row, m.col
        else:
            slot = value_slots(codes, self.sizes).slot
            r0, j = np.nonzero(slot >= 0)
            # the clauses after the trees' (learned terms, `terms.learn_terms`): matched
            if len(pairs) < len(self.starts):
                at = self.starts[len(pairs)]
                m = body_matches(self.bodies[at:], self.sizes, codes).tocoo()
                pairs = [*pairs, (m.row, m.col)]
            r = np.concatenate([r0, *(p[0] for p in pairs)])
            c = np.concatenate([slot[r0, j], *(np.asarray(p[1]) + s
                                               for p, s in zip(pairs, self.starts))])
        g = self.group[c]
        on = g >= 0
        m = sparse.csr_matrix((np.ones(int(on.sum())), (r[on], g[on])),
                              shape=(len(codes), self.n))
        m.data[:] = 1.0  # a vote's clauses are exclusive; a repeated body is one vote
        return m.astype(bool)


def rule_set(sizes: np.ndarray | list[int], paths: list[tuple[np.ndarray, np.ndarray | None]],
             sources: list[int] | None = None) -> RuleSet:
    """The one-feature clause of every (feature, value), then the clauses of `paths` — each
    (a tree KB's bodies, or learned terms' (`terms.learn_terms`), and the node or term of each
    clause, or None: one vote a clause) —, each vote once (a one-clause vote whose body is
    already there is that vote). `sources`: each path's `clause.SOURCES` index (default
    "tree")."""
    from .tree import TREE_SOURCE

    sizes = np.asarray(sizes, dtype=np.int64)
    sources_given = sources
    n_feat, n_one = len(sizes), int(sizes.sum())
    one = np.full((n_one, n_feat), -1, np.int64)
    one[np.arange(n_one), np.repeat(np.arange(n_feat), sizes)] = (
        np.arange(n_one) - np.repeat(np.cumsum(sizes) - sizes, sizes))
    bodies, groups, sources, starts, n = [one], [np.arange(n_one)], [np.zeros(n_one, np.int8)], [], n_one
    at = n_one
    for at_path, (b, node) in enumerate(paths):
        b = np.asarray(b, dtype=np.int64).reshape(-1, n_feat)
        node = np.arange(len(b)) if node is None or not len(b) else np.asarray(node)
        _u, g = np.unique(node, return_inverse=True)
        g = g.ravel() + n
        g[~(b >= 0).any(axis=1)] = -1  # the root's bare clause: the intercept's part
        bodies.append(b)
        groups.append(g)
        sources.append(np.full(len(b), TREE_SOURCE if sources_given is None
                               else sources_given[at_path], np.int8))
        starts.append(at)
        at += len(b)
        n += len(_u)
    body, group, source = np.concatenate(bodies), np.concatenate(groups), np.concatenate(sources)
    size = np.bincount(np.maximum(group, 0), minlength=n)
    single = (group >= 0) & (size[np.maximum(group, 0)] == 1)
    # a one-clause vote whose body came before: the same rows, so the same vote
    twin = np.arange(len(body))
    at = np.flatnonzero(single)
    twin[at] = at[first_equal_row(body[at], sizes)]
    group = np.where(single, group[twin], group)
    _g, dense = np.unique(group[group >= 0], return_inverse=True)
    out = np.full(len(group), -1, np.int64)
    out[group >= 0] = dense.ravel()
    shown = (out >= 0) & (~single | (twin == np.arange(len(body))))
    return RuleSet(body, source, out, shown, len(_g), sizes, tuple(starts))


def first_equal_row(bodies: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Per row of `bodies` (codes over features of `sizes` values, −1 where a body says
    nothing), the position of the first row equal to it: each row as one integer (mixed
    radix) when they fit int64, one 1-D sort instead of `np.unique(axis=0)`'s row sort; else
    each row as the (feature, value) pairs it says (`said_pairs`), a few columns, not one a
    feature (300 genes: 0.15 s of a 1 s fit sorting rows of 300 mostly −1)."""
    if not len(bodies):
        return np.zeros(0, np.int64)
    radix = np.asarray(sizes, dtype=np.int64) + 1
    if float(np.log2(radix).sum()) < 62:  # (a product of 1,500 radixes overflows a float: warned)
        mult = np.concatenate([np.cumprod(radix[::-1])[::-1][1:], [1]])
        key = (bodies.astype(np.int64) + 1) @ mult
        _k, first, inv = np.unique(key, return_index=True, return_inverse=True)
    else:
        _k, first, inv = np.unique(said_pairs(bodies), axis=0, return_index=True,
                                   return_inverse=True)
    return first[inv.ravel()]


def said_pairs(bodies: np.ndarray) -> np.ndarray:
    """(rows × 2k) each row's said (feature, value) pairs in feature order, then −1s (k: the
    most any row says): two rows are equal iff theirs are."""
    r, c = np.nonzero(bodies >= 0)  # row-major: each row's features in increasing order
    per = np.bincount(r, minlength=len(bodies))
    at = np.arange(len(r)) - np.repeat(np.cumsum(per) - per, per)
    out = np.full((len(bodies), 2 * max(int(per.max(initial=0)), 1)), -1, np.int64)
    out[r, 2 * at], out[r, 2 * at + 1] = c, bodies[r, c]
    return out


def rule_counts(member: sparse.csr_matrix, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(support, positives) of every vote over the rows of `member`."""
    sup = np.asarray(member.sum(axis=0)).ravel().astype(np.int64)
    pos = np.asarray(member.T.astype(np.int64) @ np.asarray(y, dtype=np.int64)).ravel()
    return sup, pos


class RuleVote:
    """A rule vote fitted on training rows (RuleFit in plx's clauses): the one-feature clauses
    and the learned terms' or trees' path clauses of `rules`, each vote sign(p − 0.5) with a fitted weight ≥ 0
    (each training row voted on by leave-one-out counts, as for `VoteCandidate`; L2 `RULE_C`
    and L1 `RULE_L1`, which leaves most paths out of the KB), the intercept the prior clause's
    signed weight. `like`: the KB whose features and domains rows are read with; `trees`: the
    trees of the path clauses, in `rules`' order, which rows walk down to find their clauses
    (`tree.path_clauses`; None: every body matched, `body_matches`)."""

    def __init__(self, like: KB, rules: RuleSet, codes: np.ndarray, y: np.ndarray,
                 cw: tuple[float, float], trees: list | None = None,
                 C: float | None = None, l1: float | None = None):
        self.like, self.rules, self.cw, self.trees = like, rules, cw, trees
        y = np.asarray(y)
        member = self.member(codes)
        self.counts = rule_counts(member, y)
        S = group_votes(member, y, self.counts, cw, leave_out=True)
        rw = row_weights(y, cw)
        if len(y) > RULE_ROWS:  # the budget: a stratified sample, each row weighing for more
            at = sample_rows(y, RULE_ROWS)
            S, y, rw = S[at], y[at], rw[at] * (len(y) / len(at))
        self.w, self.b = fit_weights(S, y, rw, RULE_C if C is None else C,
                                     RULE_L1 if l1 is None else l1, RULE_FTOL)

    @classmethod
    def of(cls, like: KB, kbs: list[KB], trees: list, frame, y: np.ndarray,
           cw: tuple[float, float], codes: np.ndarray | None = None) -> RuleVote:
        """The rule vote of the one-feature clauses over `like`'s features and the all-node
        KBs `kbs` of `trees` (`tree.trees_to_kb(…, "all")`), fitted on the rows of `frame`
        (`codes`: those rows already encoded over `like`, e.g. the trees' `TreeRows`)."""
        from .query import encode_rows
        from .tree import clause_values

        sizes = [len(like.domains[f]) for f in like.features]
        rules = rule_set(sizes, [(kb.codes, clause_values(t, np.arange(t.n_nodes)))
                                 for kb, t in zip(kbs, trees)])
        return cls(like, rules, encode_rows(like, frame) if codes is None else codes, y, cw,
                   trees)

    def member(self, codes: np.ndarray) -> sparse.csr_matrix:
        """(rows × votes) whether each row (codes over `like`) takes part in each vote."""
        if self.trees is None:
            return self.rules.member(codes)
        from .tree import path_clauses

        return self.rules.member(codes, [path_clauses([t], codes, "all") for t in self.trees])

    def score(self, codes: np.ndarray) -> np.ndarray:
        """The vote S·w + b of rows (codes over `like`) never counted; NaN where no clause of
        weight > 0 votes (`scores`)."""
        S = group_votes(self.member(codes), np.zeros(len(codes)), self.counts, self.cw,
                        leave_out=False)
        return scores(S, self.w, self.b)

    def score_rows(self, X) -> np.ndarray:
        """`score` of a frame of rows."""
        from .query import encode_rows

        return self.score(encode_rows(self.like, X))

    def kb(self, threshold: float = 0.5) -> KB:
        """The KB that answers (features and domains of `like`): every clause whose vote has a
        weight (and p ≠ 0.5), with its vote's counts, class-corrected p and weight, plus the
        prior clause of signed weight b − logit(threshold), as in `vote_kb`."""
        from .variants import reweighted_p

        r, like = self.rules, self.like
        g = np.maximum(r.group, 0)
        sup, pos = self.counts[0][g], self.counts[1][g]
        d = pos * float(self.cw[0]) - (sup - pos) * float(self.cw[1])
        ww = np.where(r.shown, self.w[g], 0.0)
        shift = prior_shift(self.b, threshold, self.w)
        keep = np.flatnonzero((ww >= WEIGHT_CUT * max(float(ww.max(initial=0.0)), abs(shift), 1.0))
                              & (d != 0) & (sup > 0))
        p = np.clip(reweighted_p(pos[keep] / sup[keep], *self.cw), 0.0, 1.0)
        lengths = (r.bodies[keep] >= 0).sum(axis=1)
        out = KB(like.features, dict(like.domains), r.bodies[keep].astype(np.int32),
                 np.ones(len(keep), np.int8), p, ww[keep], sup[keep], pos[keep], r.source[keep],
                 [], positive=like.positive, kind="rule-vote",
                 max_len=int(lengths.max(initial=1)), n_rows=like.n_rows)
        if shift != 0.0:
            out.extra.append(WeightedClause((Literal(POS),), 1.0 if shift > 0 else 0.0,
                                            abs(shift), source="data", id=PRIOR_ID))
        return out


class VoteCandidate:
    """The "direct-vote" candidate of one training set: its out-of-fold logistic
    probabilities (`oof`, scored like the other candidates) and, once chosen, its KB (`kb`)."""

    def __init__(self, full: KB, slots: ValueSlots, sizes: list[int], y: np.ndarray,
                 weights_of, seed: int | None, ftol: float | None = None, C: float = VOTE_C,
                 l1: float = 0.0, smooth: tuple | None = None, keep: bool = False,
                 like: VoteCandidate | None = None, groups: np.ndarray | None = None):
        """`keep`: its folds' problems (`cross_problems`) are kept in `problems` (else None),
        for a candidate `like` it: the same rows, folds and smoothing fitted with other
        penalties, whose problems are fitted again rather than built again (the smooth
        vote's sparser fit, `sparser`). `groups`: a case per row, kept on one side of each fold."""
        self.full, self.sizes, self.l1 = full, sizes, l1
        self.cw = weights_of(np.asarray(y))
        self.pool = smooth[2] if smooth is not None and len(smooth) > 2 else None
        problems = like.problems if like is not None and like.problems is not None else (
            cross_problems(slots, y, weights_of, seed, smooth=smooth, groups=groups))
        self.problems = problems if keep else None
        score, self.fit = cross_fit(slots, y, weights_of, seed, C=C, ftol=ftol, l1=l1,
                                    smooth=smooth, prepared=problems)
        self.oof = probability(score)

    @classmethod
    def fitted(cls, full: KB, slots: ValueSlots, sizes: list[int], y: np.ndarray, weights_of,
               ftol: float | None = None, C: float = VOTE_C, l1: float = 0.0,
               smooth: tuple | None = None) -> VoteCandidate:
        """The candidate's KB maker fitted on every row alone, without its folds (`oof`
        None): for a vote a search on a sample of the rows chose (`scale.SEARCH_ROWS`) — the
        problem `cross_fit` fits last (with the same penalties, `C`, `l1` and `smooth`)."""
        self = cls.__new__(cls)
        self.full, self.sizes, self.oof, self.l1, self.problems = full, sizes, None, l1, None
        self.pool = smooth[2] if smooth is not None and len(smooth) > 2 else None
        y = np.asarray(y)
        self.cw = weights_of(y)
        rows = np.arange(len(y))
        counts = slot_counts(slots, y, rows)
        if self.pool is not None:
            counts = pooled(counts, self.pool)
        S = votes(slots, y, rows, counts, self.cw, leave_out=True)
        pen = (None if smooth is None else
               [smooth_penalty(smooth[0], vote_signs(counts, self.cw), smooth[1])])
        self.fit = fit_many([(S, y, row_weights(y, self.cw))], C, l1, ftol=ftol,
                            penalties=pen)[0]
        return self

    def kb(self, threshold: float = 0.5) -> KB:
        """The vote KB fitted on every training row, deciding at 0.5 as the vote's logistic
        probability would at `threshold`."""
        return vote_kb(self.full, self.sizes, self.cw, *self.fit, threshold, self.pool)


def sparser(light: VoteCandidate, sparse_: VoteCandidate, y: np.ndarray, seed: int | None,
            groups: np.ndarray | None = None) -> VoteCandidate:
    """Of one vote fitted with two penalties on the same folds (`VOTE_FOLDS`, `seed`), `sparse_`
    (the stronger, `FINE_L1_SPARSE`) if its out-of-fold F1 beats `light`'s by more than one
    standard error of their paired per-fold differences (`selection.one_se`, each at its own
    best threshold), else `light`."""
    from .selection import best_threshold, fold_ids, one_se

    y = np.asarray(y)
    fold = fold_ids(y, VOTE_FOLDS, seed, groups)
    a, b = (best_threshold(y, c.oof)[0] for c in (sparse_, light))
    return sparse_ if one_se(y, fold, (sparse_.oof, a), (light.oof, b))[0] else light


__all__ = ["VOTE_SCREEN_ROWS", "FINE_CELLS", "FINE_FEWEST", "fine_reach", "FINE_BINS", "FINE_SHARE", "FINE_WIDE", "fine_fitted", "FINE_L1_SPARSE", "sparser", "cross_problems", "FINE_MIN_BINS", "fine_bins", "FINE_C", "FINE_L1", "FINE_POOL", "FINE_SMOOTH", "OPTIMISM_FTOL", "RuleSet", "first_equal_row", "RuleVote", "body_matches", "group_votes", "rule_counts",
           "rule_set", "RULE_ROWS", "sample_rows", "VoteCandidate", "VOTE_C", "VOTE_FOLDS", "ValueSlots", "cross_fit", "fit_many",
           "fit_rows", "fit_weights", "adjacent_slots", "pool_matrix", "pooled", "smooth_penalty", "smoothing", "vote_signs", "PAIR_C", "PAIR_FTOL", "PAIR_L1", "PAIR_SUPPORT", "PAIR_VOTES", "pair_codes", "pair_list",
           "beside_votes", "class_compared", "kb_probability", "with_vote", "probability", "row_weights", "scores", "slot_counts", "value_slots", "vote_kb", "votes"]
