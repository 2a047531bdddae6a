"""Explanations of one query (Algorithm 6), Shapley values, evidence for and against, and
counterfactuals.

Every result is a plain, serialisable data object (`to_dict()`); drawing is elsewhere.

**Explanations.** For a positive query, the size-k sub-query with the largest ω(POS); for a
negative one (ties at 0.5 included, as the engine reports them negative) the smallest.
ω(POS) of a sub-query is the mean of its bounds. All C(n, k) sub-queries are evaluated when
that is cheap (one batched evaluation on the exact median path, `query` per sub-query where
the LP is needed); beyond a budget a beam search with hill-climbing swaps runs instead, and
the result says which ran.

**Features that settle nothing.** Under the relevant semantics a known feature that settles
no clause of the row's answer but the prior (a fitted vote gives its value no weight) changes
no sub-query's answer: it is never a candidate, as a feature no clause mentions (`settling`;
k is lowered to the features left, said in the note). A candidate one of whose features
settles no clause *of it* but the prior (b of a pair (a, b) when b's only clause is on b and
c) is a smaller sub-query padded: it ranks after every candidate whose features all settle a
clause, whatever its ω(POS) (`idle_features`). A Direct KB holds every seen value's own
clause, so neither rule changes its explanations.

**Explanations that decide nothing.** A sub-query's bounds are the model's answer to it (the
LP's, `query`'s: tests check them against `method="lp"`), but they need not decide the answer
explained: a rule vote whose terms need three values, asked for two, answers every pair by its
one-feature clauses and its prior clause, and the prior (the vote's intercept and threshold,
`[0] POS` or `[1] POS`) outweighs them — [0, 0] for a positive answer. Such a candidate is
answered by the prior clause's own target, which no clause it settles backs (`prior_decided`,
`Candidate.by_prior`): the threshold device, not its values, so it ranks after every
candidate its evidence answers and decides nothing. `Explanation.decides` says whether the
chosen sub-query decides the answer on its own at the model's threshold (`decides`); when
not, every caller says so in one wording (`wording.undecided_said`): the estimator, `plx
explain` (its `decides` column and note) and the dashboard. Measured on the default's models
in benchmarks/RESULTS.md ("Explanations that decide nothing").

**Tie-break** (documented in `TIE_BREAK` and measured): candidates with the same ω(POS) are
ranked by (1) the bound on the decision's side — the larger lower bound for a positive
query, the smaller upper bound for a negative one —, then (2) the net evidence of the
clauses the sub-query settles, Σ w·(t − ½) over their weights w and targets t (the median
terms: for `POS ∨ ¬K` its p, for `¬POS ∨ ¬K` 1 − p; a prior clause left out), larger first
for a positive query, smaller for a negative one, then (3) feature order. Criterion (2) asks
which candidate the *bulk* of its evidence favours when the median — decided by a single
clause — cannot tell them apart. It was the weighted mean Σ w·t / Σ w until the diabetes
table (binarised at the median, 3 random booleans added): where one clause sets every
pair's ω(POS), the mean ranked a second feature higher the *less* its clause weighed (it
diluted the first's target least), so a fitted vote's noise boolean of weight 0.017 was cited
in 76 of 133 test rows; a clause of weight near 0 adds near nothing to the net evidence.
On the Syn 10/4 protocol below both pick the same features for every row (2,097 rows × k =
1…5; `bench_explain.py`, section d, which prints both).

Measured on Syn 10/4 (3,000 balanced rows, seed string 3232411132, 70/30 split, Direct KB,
relevant semantics; data seeds 0–3; `benchmarks/bench_explain.py`, section d): explanation
accuracy for k = 1…5 over the true positives the KB classifies positive (1,797 rows) / over
every row it classifies positive (2,097 rows, false positives included):

==========================================  ===========================  ===========================
secondary criteria                          true positives               classified positive
==========================================  ===========================  ===========================
feature order only                          1, .9997, 1, .9976, .9852    1, .9990, 1, .9923, .9584
bound, then feature order                   same (the bounds were points on this data)
bound, evidence mean, feature order         1, 1, 1, .9999, .9901        1, 1, 1, .9956, .9626
bound, net evidence, feature order (kept)   the same picks: the same figures
bound, p of the clause on K itself [*]      1, 1, 1, .9965, .981         1, 1, 1, .9908, .9545
bound, total support of the clauses [*]     1, 1, 1, .9998, .9905        1, 1, 1, .9955, .9628
==========================================  ===========================  ===========================

[*] one-off measurement with the same protocol. Total support did as well, but only because
balancing over-represents the seed's values in this synthetic data; the evidence mean does not
depend on how the rows were sampled. The best ω(POS) was tied in 0, 100, 15, 29 and 8% of the rows
for k = 1…5. The errors left at k = 5 are not ties: there a sub-query with one non-seed
position has a strictly larger ω(POS) than the five seed positions (Algorithm 6 itself). SHAP
of a random forest scores 1, 1, 1, 1, 1 / 1, 1, 1, .9959, .9711 on the same rows, and so do
the top-k of our own Shapley values of ω(POS) (`shapley(...).top(k)`).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

import numpy as np
import pandas as pd

from .checks import checked_int, checked_threshold
from .clause import PRIOR_ID
from .errors import DataError, PLXError
from .index import subset_plan
from .kb import KB
from .lp import solve_bounds_many
from .median import equal_weight_medians
from .notes import pool_map
from .plurals import counted, verb
from .query import (
    OPEN,
    TIE_EPS,
    Bounds,
    PreparedQuery,
    build_problem,
    prepare_query,
    query,
    query_many,
    reduce_kb,
    resolve_semantics,
    subquery_bounds,
    weighted_median,
    weighted_median_intervals,
)
from .rulecheck import unused_rules_said
from .tokens import condition_text

DECIMALS = 9  # ω values are compared after rounding to this many decimals (no float noise)
TIE_BREAK = {
    "positive": "(after ω(POS); a candidate with a feature that settles no clause of it but the "
                "prior, or answered by the prior clause alone, ranks last) larger lower bound, then larger net evidence (Σ w·(target − ½) "
                "of the clauses the sub-query settles, a prior clause left out), then feature "
                "order",
    "negative": "(after ω(POS); a candidate with a feature that settles no clause of it but the "
                "prior, or answered by the prior clause alone, ranks last) smaller upper bound, then smaller net evidence (Σ w·(target − ½) "
                "of the clauses the sub-query settles, a prior clause left out), then feature "
                "order",
}
_LP_BATCH = 512  # full-semantics sub-queries solved as one block-diagonal LP
_CHUNK_LOOKUPS = 1 << 21  # subset lookups per batched evaluation of sub-queries (memory bound)
_CHUNK_CELLS = 24_000_000  # sub-queries × clauses × features per batched call (memory bound)
_CHAIN_TABLE = 1 << 22  # most entries of `chain_values`' table (features of a clause → rank)


# --------------------------------------------------------------------------- helpers


def _clean(x: float) -> float:
    return float(round(float(x), 12)) + 0.0


def _jsonable(x: Any) -> Any:
    """Convert numpy scalars/arrays, tuples and NaN into JSON-friendly values."""
    if isinstance(x, Bounds):
        return [_jsonable(x.lower), _jsonable(x.upper)]
    if isinstance(x, Mapping):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.ndarray):
        return [_jsonable(v) for v in x.tolist()]
    if isinstance(x, (np.bool_,)):
        return bool(x)
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, (float, np.floating)):
        f = float(x)
        return None if math.isnan(f) else f
    return x


@dataclass(frozen=True)
class _ClauseSets:
    """A query's relevant clauses of finite target (median terms): which of its n known
    features each one has (`member`, clauses × n; `masks` as int64 bitmasks when n ≤ 62),
    their number (`size`), target and weight. `equal` and `n_finite` describe every clause of
    finite target, also when only the short ones are kept (`_clause_sets`' `most`)."""

    member: np.ndarray
    masks: np.ndarray | None
    size: np.ndarray
    target: np.ndarray
    w: np.ndarray
    equal: bool
    n_finite: int
    sizes: tuple[int, ...]  # the distinct sizes
    prior: np.ndarray | None = None
    """Whether each clause is a prior clause (id `PRIOR_ID`): a sub-query with no other clause
    is answered [0, 1], as `query` answers it (`query.prior_alone`)."""



def evidence_weights(w: np.ndarray, prior: np.ndarray | None) -> np.ndarray:
    """Clause weights `w` as the tie-break's evidence counts them (`TIE_BREAK`): a prior clause's 0 —
    it is no feature's evidence, and in a fitted vote's KB (prior weight 1.8 against clause
    weights of 0.05–1.4) it made hundreds of sub-queries tie at [1, 1] with the prior's target
    as their mean, so noise features were cited by feature order."""
    return w if prior is None or not prior.any() else np.where(prior, 0.0, w)


def prior_only(prior: np.ndarray | None, s_idx: np.ndarray, j_idx: np.ndarray, S: int
                ) -> np.ndarray | None:
    """Which of S sub-queries settle no clause but a prior (answered [0, 1], as `query`
    answers them), from their (sub-query, clause) pairs; None without a prior clause."""
    if prior is None or not prior.any():
        return None
    return np.bincount(s_idx, weights=~prior[j_idx], minlength=S) == 0


def prior_decided(prior: np.ndarray | None, target: np.ndarray, s_idx: np.ndarray,
                  j_idx: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """Which sub-queries (bounds `lower`, `upper`; their (sub-query, clause) pairs, clauses'
    `prior` flags and `target`s) are answered at a prior clause's own target (0 or 1) that no
    other clause they settle has: the evidence they settle does not outweigh the prior, so
    their ω(POS) is the threshold device's [0, 0] or [1, 1], not a probability any value backs
    (a rule vote's 2-feature sub-query when its terms need 3). Such a sub-query decides
    nothing (`decides`) and ranks after every one its evidence answers (`TIE_BREAK`)."""
    S = len(lower)
    if prior is None or not prior.any():
        return np.zeros(S, bool)
    tp = np.unique(target[prior])
    p = prior[j_idx]
    has = np.bincount(s_idx[p], minlength=S) > 0
    backed = np.bincount(s_idx[~p & np.isin(target[j_idx], tp)], minlength=S) > 0
    return has & ~backed & (lower == upper) & np.isin(lower, tp)


def decided(full: Bounds, threshold: float) -> bool:
    """The model's decision on a query answered `full` at its decision `threshold` (a tie at
    the threshold reported negative): the side an explanation with direction "auto" explains
    and its `Explanation.positive` (at the default 0.5, `Bounds.positive`: the paper's rule)."""
    return bool(full.mean > threshold + TIE_EPS)


def decides(lower: float, upper: float, positive: bool, threshold: float, full: Bounds,
            by_prior: bool = False) -> bool:
    """Whether a sub-query with these bounds decides the answer explained on its own: its
    ω(POS) (the mean) strictly on the `positive` side of the model's `threshold` (a tie at the
    threshold — reported negative — decides only an answer that is itself a tie), and not
    answered by the prior clause alone (`prior_decided`). An explanation whose best candidate
    does not decide says so (`wording.undecided_said`)."""
    if by_prior:
        return False
    mean = (lower + upper) / 2
    if positive:
        return bool(mean > threshold + TIE_EPS)
    tie = abs(mean - threshold) <= TIE_EPS
    return bool(mean < threshold - TIE_EPS or (tie and abs(full.mean - threshold) <= TIE_EPS))


def other_side(full: Bounds, positive: bool, threshold: float) -> bool:
    """Whether the searched KB's own answer to the whole row (`full`, at `threshold`; a tie
    is negative) is not the side explained: an explanation of the tuned Direct variant
    searches the full Direct KB, which answers some rows the other way (said by
    `wording.other_side_said`, not hidden behind features that do argue for the answer)."""
    return decided(full, threshold) != bool(positive)


def _clause_sets(kb: KB, evidence: Any, cols: np.ndarray, names: tuple[str, ...],
                 most: int | None = None, lengths: np.ndarray | None = None) -> _ClauseSets:
    """`_ClauseSets` of the clauses of `evidence` (a relevant-semantics query's, known
    features `cols` named `names`); with `most`, only those of at most `most` features, the
    learned ones told by `lengths` (feature literals per learned clause: every literal of a
    relevant clause is on a known feature) before their features are read."""
    ids = evidence.clause
    finite = np.isfinite(evidence.target)
    w_all = evidence.w[finite]
    equal = bool(len(w_all) and np.all(w_all == w_all[0]))
    learned = ids < kb.n_learned
    pos = {f: i for i, f in enumerate(names)}
    rules = np.flatnonzero(~learned)
    rule_member = np.zeros((len(rules), len(cols)), dtype=bool)
    for r, j in enumerate(rules.tolist()):
        for lit in kb.extra[int(ids[j]) - kb.n_learned].literals:
            if lit.is_feature and lit.atom in pos:
                rule_member[r, pos[lit.atom]] = True
    keep = finite.copy()
    if most is not None:
        keep[learned] &= lengths[ids[learned]] <= most  # type: ignore[index]
        keep[rules] &= rule_member.sum(axis=1) <= most
    kept = np.flatnonzero(keep)
    member = np.zeros((len(kept), len(cols)), dtype=bool)
    from_kb = learned[kept]
    if from_kb.any():
        body = np.take(kb.codes, ids[kept[from_kb]], axis=0)
        member[from_kb] = (body if len(cols) == len(kb.features) else body[:, cols]) >= 0
    if len(rules):
        member[~from_kb] = rule_member[keep[rules]]
    if most is None:
        size = np.count_nonzero(member, axis=1)
    else:  # known already: no count over the member matrix
        size = np.zeros(len(kept), np.int64)
        size[from_kb] = lengths[ids[kept[from_kb]]]  # type: ignore[index]
        size[~from_kb] = rule_member[keep[rules]].sum(axis=1)
    prior = np.zeros(len(ids), bool)
    prior[rules] = [kb.extra[int(ids[j]) - kb.n_learned].id == PRIOR_ID for j in rules.tolist()]
    return _ClauseSets(member, _bitmasks(member) if len(cols) <= 62 else None, size,
                       evidence.target[kept], evidence.w[kept], equal, int(finite.sum()),
                       tuple(np.flatnonzero(np.bincount(size)).tolist()), prior[kept])


def unseen_said(unseen: dict[str, str]) -> str:
    """The clause an explanation's message adds for values never seen in training: they
    count as unknown, so k is capped at the known values the KB saw."""
    if not unseen:
        return ""
    return ("; values never seen in training count as unknown: "
            + ", ".join(f"{f}={v!r}" for f, v in list(unseen.items())[:5]))


def mentioned_features(kb: KB) -> np.ndarray:
    """Per feature of `kb`, whether some clause (learned, or an enabled rule) has a literal on
    it. A known value of a feature no clause mentions changes no answer under either
    semantics, so an explanation never cites it (as it never cites an unseen value): a tree
    that splits on 2 of 6 features explains by those 2."""
    mentioned = np.zeros(len(kb.features), bool)
    if kb.n_learned:  # from the index: one scan of the KB, not one per query
        mentioned |= kb.index().mentioned
    pos_of = kb.feature_positions()
    for c in kb.extra:
        if c.enabled:
            for lit in c.literals:
                if lit.is_feature:
                    mentioned[pos_of[lit.atom]] = True
    return mentioned


def citable(kb: KB, codes: np.ndarray) -> np.ndarray:
    """Which cells of query codes (`query.encode_rows`: rows × features, or one row) an
    explanation may cite: a value the KB saw, of a feature some clause mentions
    (`mentioned_features`). Its count per row is the largest k an explanation can have."""
    return (np.asarray(codes) >= 0) & mentioned_features(kb)


def uncited_said(kb: KB, pq: PreparedQuery) -> str:
    """The clause an explanation's message adds for known values of features no clause of
    the KB mentions (they count as unknown, as unseen values do), "" when none."""
    quiet = [f for f, c, m in zip(kb.features, pq.codes, mentioned_features(kb)) if c >= 0 and not m]
    if not quiet:
        return ""
    return ("; features no clause of the model uses count as unknown: "
            + ", ".join(quiet[:5]) + (", …" if len(quiet) > 5 else ""))


def settling(kb: KB, full: Bounds, cols: np.ndarray) -> np.ndarray:
    """Per known feature `cols` of a relevant-semantics query answered `full`, whether some
    clause of its answer other than the prior has a literal on it. A feature that settles
    none (a fitted vote gave its value no weight) changes no sub-query's answer, as a
    feature no clause mentions: an explanation never cites it, so a k = 2 explanation is
    never "A and B" with B doing nothing."""
    if len(cols) == 0 or full.evidence is None:
        return np.zeros(len(cols), bool)
    cs = _clause_sets(kb, full.evidence, cols, tuple(kb.features[j] for j in cols))
    member = cs.member if cs.prior is None else cs.member[~cs.prior]
    return member.any(axis=0)


def idle_said(idle: Sequence[str]) -> str:
    """The clause an explanation's message adds for known features that settle no clause of
    the model for the row (`settling`): they count as unknown. "" when none."""
    if not idle:
        return ""
    return ("; features that settle no clause of the model for this row (given no weight) "
            "count as unknown: " + ", ".join(idle[:5]) + (", …" if len(idle) > 5 else ""))


def own_clauses(kb: KB) -> tuple[np.ndarray, np.ndarray]:
    """(feature, value code) of every learned one-feature clause of weight > 0: a known value
    with such a clause settles it under the relevant semantics, so `_cited` needs no query
    for a row whose cited values all have one (every row of a Direct KB with its
    one-feature clauses; a fitted vote drops the values it gives no weight)."""
    one = (kb.lengths == 1) & (np.asarray(kb.w) > 0)
    if not one.any():
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    f, j = np.nonzero(kb.codes[one] >= 0)
    return j.astype(np.int64), kb.codes[one][f, j].astype(np.int64)


def settled(kb: KB, codes: np.ndarray, cols: np.ndarray, answer: Callable[[], Bounds],
            own: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """`settling` for the known features `cols` of a row (`codes`), the row's relevant-
    semantics `answer` asked only when some of their values has no clause of its own
    (`own_clauses`, given once by a batch): with one each, every feature settles one."""
    feat, val = own_clauses(kb) if own is None else own
    if len(feat) and np.isin(cols * (1 << 32) + codes[cols], feat * (1 << 32) + val).all():
        return np.ones(len(cols), bool)
    return settling(kb, answer(), cols)


def _cited(kb: KB, q: Any, pq: PreparedQuery, semantics: str,
           own: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[int, str]:
    """How many known values of a row an explanation can cite (`citable`; under the relevant
    semantics, those that settle a clause, `settling`) and the sentence naming the others.
    `own`: `own_clauses(kb)`, given once by a batch."""
    cite = citable(kb, pq.codes)
    said = f"{unseen_said(pq.unseen)}{uncited_said(kb, pq)}"
    if resolve_semantics(kb, semantics) != "relevant" or not cite.any():
        return int(cite.sum()), said
    cols = np.flatnonzero(cite)
    live = settled(kb, pq.codes, cols, lambda: query(kb, q, semantics="relevant"), own)
    return int(live.sum()), said + idle_said([kb.features[j] for j in cols[~live]])


def lower_k(k: Any, known: int, said: str = "") -> tuple[Any, str]:
    """The k an explanation of a row uses — `k` lowered to the `known` features the model can
    cite (`citable`) — and the sentence that says it was lowered ("" when it stands); `said`
    names the values that count as unknown (`unseen_said`, `uncited_said`). The one rule and
    wording of the estimator, `explain_many`, `plx explain` and the dashboard. A `k` that is
    not a whole number ≥ 1, or a row that knows nothing, is left for `explain` to name."""
    if (isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1 or known < 1
            or k <= known):
        return k, ""
    return known, (f"k lowered from {int(k)} to {known}: the row has {known} known "
                   f"feature{'' if known == 1 else 's'}{said}")


def nothing_to_explain_said(said: str = "") -> str:
    """Why a row cannot be explained: none of its known values is one the model can cite
    (`citable`); `said` names those counted as unknown. The one wording of `explain_many`'s
    `Unexplained` and the dashboard's Explain page."""
    return f"the row knows no feature the model uses, so nothing can explain it{said}"


def citable_count(kb: KB, q: Any, semantics: str = "auto") -> tuple[int, str]:
    """How many known values of the query `q` an explanation can cite, and the sentence naming
    the others (as `explain` counts them: unseen, unused and idle values are unknown)."""
    return _cited(kb, q, prepare_query(kb, q), semantics)


def known_k(kb: KB, q: Any, k: Any, semantics: str = "auto") -> tuple[Any, str]:
    """`lower_k` for one query `q` of `kb` (its known values an explanation can cite)."""
    try:
        pq = prepare_query(kb, q)
        return lower_k(k, *_cited(kb, q, pq, semantics))
    except DataError:  # explain names the bad value
        return k, ""


class _SubQueries:
    """Evaluates sub-queries of one query: bounds plus the tie-break statistics.

    Relevant semantics: a clause counts for a sub-query when the sub-query keeps all its
    feature literals. On the exact median path (the full query needs no LP) the bounds are the
    weighted-median intervals of those clauses — the same computation as `subquery_bounds`,
    but the clauses of each sub-query are found by enumerating its feature subsets and looking
    their bitmasks up (work ∝ pairs), where `subquery_bounds` tests every sub-query against
    every clause (a boolean S × R × F cube); tests check the two agree. Otherwise
    `subquery_bounds`. Full
    semantics: one `query` per sub-query (LP where needed), statistics from its median terms.
    """

    def __init__(self, kb: KB, q: Any, semantics: str = "auto", shared: dict | None = None,
                 cited_only: bool = True, own: tuple[np.ndarray, np.ndarray] | None = None):
        self.kb = kb
        self.shared = shared  # full semantics: sub-query answers shared across rows (explain_many)
        self.sem = resolve_semantics(kb, semantics)
        self.pq: PreparedQuery = prepare_query(kb, q)
        # the query as given (unseen values too), but explained by the known values the KB
        # saw: an unseen value is no evidence (query answers it as missing), so never cited
        self.query = {f: self.pq.values[f] for f, c in zip(kb.features, self.pq.codes)
                      if c != OPEN} | {a: v for a, v in self.pq.atoms.items()}
        # the features a sub-query may keep: known, and (`cited_only`, every explanation)
        # mentioned by some clause — keeping another changes nothing, citing it would mislead
        mentioned = mentioned_features(kb)
        self.cols = np.flatnonzero((self.pq.codes >= 0) & (mentioned | (not cited_only)))
        self.full = query(kb, self.query, semantics=self.sem)
        self.idle: tuple[str, ...] = ()  # known, mentioned, but settling nothing for this row
        if cited_only and self.sem == "relevant":
            live = settled(kb, self.pq.codes, self.cols, lambda: self.full, own)
            self.idle = tuple(kb.features[j] for j in self.cols[~live])
            self.cols = self.cols[live]
        self.names = tuple(kb.features[j] for j in self.cols)
        self.values = tuple(self.pq.values[f] for f in self.names)
        self.n = len(self.cols)
        self.evaluated = 0
        self._mentioned = mentioned[self.cols]  # per known feature of the query
        if self.sem == "relevant":
            # On the exact median path every relevant clause is a median term, and a sub-query's
            # terms are those whose features it keeps: the same computation as
            # `subquery_bounds`, with integer bitmasks instead of a boolean S × R × F cube.
            self._direct = self.full.method == "median" and self.n <= 62
            if self.n <= 62:
                self._bits = np.int64(1) << np.arange(self.n, dtype=np.int64)

    @functools.cached_property
    def _sets(self) -> _ClauseSets:
        """The relevant clauses' feature sets, targets and weights (built when first used)."""
        return _clause_sets(self.kb, self.full.evidence, self.cols, self.names)

    _cm = property(lambda self: self._sets.member)
    _cmb = property(lambda self: self._sets.masks)
    _t = property(lambda self: self._sets.target)
    _w = property(lambda self: self._sets.w)
    _equal = property(lambda self: self._sets.equal)
    # clause sizes present: a sub-query's lookups are its subsets of these sizes only
    _sizes = property(lambda self: self._sets.sizes)

    @functools.cached_property
    def _values(self) -> np.ndarray | None:
        """The distinct targets, sorted, when every relevant clause has one weight."""
        return np.unique(self._t) if self._equal else None

    @functools.cached_property
    def _rank(self) -> np.ndarray | None:
        """Each relevant clause's target as its rank in `_values` (equal weights only)."""
        return None if self._values is None else np.searchsorted(self._values, self._t)

    def full_masks(self, sub: np.ndarray) -> np.ndarray:
        """S × n masks over the known features → S × F masks over the KB's features."""
        out = np.zeros((len(sub), len(self.kb.features)), dtype=bool)
        out[:, self.cols] = sub
        return out

    def evaluate(self, sub: np.ndarray, stats: bool = True) -> dict[str, np.ndarray]:
        """lower, upper (and, with `stats`, the evidence mean, number and net evidence of the settled clauses)
        per sub-query mask (S × n over the query's known features)."""
        sub = np.asarray(sub, dtype=bool).reshape(-1, self.n)
        S = len(sub)
        self.evaluated += S
        lower, upper = np.zeros(S), np.ones(S)
        evm, ncl = np.full(S, np.nan), np.zeros(S, dtype=np.int64)
        net = np.full(S, np.nan)
        idle = np.zeros(S, dtype=np.int64)
        by_prior = np.zeros(S, dtype=bool)
        out = {"lower": lower, "upper": upper, "evidence_mean": evm, "n_clauses": ncl,
               "evidence": net, "idle": idle, "by_prior": by_prior}
        if S == 0:
            return out
        # pair enumeration costs 2^|coalition| lookups per sub-query, `subquery_bounds` one
        # clause × sub-query test per relevant clause: wide coalitions (sampled Shapley over
        # many features) go the second way
        if (self.sem == "relevant" and self._direct
                and self._n_lookups(sub.sum(axis=1)) <= S * max(len(self._t), 1)):
            self._evaluate_direct(sub, out, stats)
            return out
        if self.sem == "relevant":
            R = max(self.full.n_relevant, 1)
            chunk = max(16, _CHUNK_CELLS // (R * max(self.n, 1)))
            for a in range(0, S, chunk):
                b = subquery_bounds(self.kb, self.query, self.full_masks(sub[a:a + chunk]),
                                    semantics=self.sem)
                lower[a:a + chunk], upper[a:a + chunk] = b.lower, b.upper
            if stats and len(self._t):
                self._stats(sub, evm, ncl, net, idle, lower, upper, by_prior)
            return out
        # full semantics: each sub-query reduced on its own; those needing the LP are solved
        # together, _LP_BATCH at a time, as one block-diagonal LP (`solve_bounds_many`)
        # A feature no clause mentions changes nothing when kept, so sub-queries that differ
        # only in such features are one problem (a Tree KB uses few of 30 features)
        live = sub & self._mentioned[None, :]
        keys, first, inv = np.unique(live, axis=0, return_index=True, return_inverse=True)
        inv = inv.ravel()
        U = len(keys)
        u_lo, u_hi, u_evm, u_ncl = np.zeros(U), np.ones(U), np.full(U, np.nan), np.zeros(U, np.int64)
        u_net = np.full(U, np.nan)
        u_pri = np.zeros(U, bool)
        priors = self._prior_ids
        pending: list[tuple[int, Any]] = []
        shared = self.shared
        atoms = tuple(sorted(self.pq.atoms.items()))
        ukeys: list[tuple] = []
        for u in range(U):
            sq = {f: v for f, v, keep in zip(self.names, self.values, keys[u]) if keep}
            ukeys.append((tuple(sq.items()), atoms))
            if shared is not None and ukeys[u] in shared:  # the same sub-query of another row
                u_lo[u], u_hi[u], u_evm[u], u_ncl[u], u_pri[u], u_net[u] = shared[ukeys[u]]
                continue
            pq = prepare_query(self.kb, sq | dict(self.pq.atoms))
            red = reduce_kb(self.kb, pq, self.sem)
            u_ncl[u] = len(red.med_target)
            if len(red.med_target) and red.med_w.sum() > 0:
                u_evm[u] = float(red.med_w @ red.med_target / red.med_w.sum())
                u_net[u] = float(red.med_w @ (red.med_target - 0.5))  # `net_evidence`
            if len(red.lp_rows) == 0 and not red.lp_extra:
                u_lo[u], u_hi[u] = weighted_median(red.med_target, red.med_w)
                if len(priors):  # the prior's own target, backed by no other clause
                    pr = np.isin(red.med_clause, priors)
                    u_pri[u] = prior_decided(pr, red.med_target, np.zeros(len(pr), np.int64),
                                             np.arange(len(pr)), u_lo[u:u + 1],
                                             u_hi[u:u + 1])[0]
            else:
                pending.append((u, build_problem(self.kb, pq, red, all_clauses=False,
                                                 domain_constraint=False)[0]))
        for a in range(0, len(pending), _LP_BATCH):
            part = pending[a:a + _LP_BATCH]
            for (u, _), (lo, hi, _) in zip(part, solve_bounds_many([rp for _, rp in part])):
                u_lo[u], u_hi[u] = lo, hi
        if shared is not None:
            for u in range(U):
                shared[ukeys[u]] = (u_lo[u], u_hi[u], u_evm[u], u_ncl[u], u_pri[u], u_net[u])
        lower[:], upper[:], evm[:], ncl[:] = u_lo[inv], u_hi[inv], u_evm[inv], u_ncl[inv]
        net[:] = u_net[inv]
        by_prior[:] = u_pri[inv]
        return out

    @functools.cached_property
    def full_by_prior(self) -> bool:
        """Whether the full query's answer is the prior clause's own target alone
        (`prior_decided`): none of the row's rules outweighs the model's threshold device."""
        ev = self.full.evidence
        if ev is None or not len(self._prior_ids) or not np.isfinite(ev.target).all():
            return False
        n = len(ev.clause)
        return bool(prior_decided(np.isin(ev.clause, self._prior_ids), ev.target,
                                  np.zeros(n, np.int64), np.arange(n),
                                  np.array([self.full.lower]), np.array([self.full.upper]))[0])

    @functools.cached_property
    def _prior_ids(self) -> np.ndarray:
        """The clause ids of the KB's enabled prior clauses (`PRIOR_ID`)."""
        return np.array([self.kb.n_learned + j for j, c in enumerate(self.kb.extra)
                         if c.enabled and c.id == PRIOR_ID], np.int64)

    def chain_values(self, perms: np.ndarray) -> np.ndarray | None:
        """v (the mean of the bounds) of every prefix coalition of each permutation
        (P × (n + 1); column j keeps the permutation's first j features), or None where this
        does not apply (it needs the exact median path of equal-weight clauses, one per set
        of features, of at most `_CHAIN_SIZES` features).

        Along a permutation the coalitions grow one feature at a time, so each clause is
        found once, at the step that adds the last of its features: the lookups of a step are
        the added feature with every set of earlier ones of the KB's clause sizes (minus
        one), read from a table indexed by the features in any order (no search); the
        coalitions' target counts are running sums over the steps, whose medians
        `median.counted_medians` reads. The same values as answering every coalition on its
        own, at a fraction of the work."""
        n = self.n
        if not (self.sem == "relevant" and self._direct and self._equal
                and len(self._t) and 0 not in self._sizes):
            return None
        L = max(self._sizes)
        if (n + 1) ** L > _CHAIN_TABLE or len(np.unique(self._cmb)) < len(self._cmb):
            return None
        from .median import counted_medians

        V = len(self._values)
        # table: the features of a clause, in any order (slot i: index + 1, 0 = none) → rank + 1
        table = np.zeros((n + 1) ** L, np.int64)
        radix = (n + 1) ** np.arange(L, dtype=np.int64)
        sizes = self._cm.sum(axis=1)
        for size in self._sizes:
            rows = np.flatnonzero(sizes == size)
            feats = np.nonzero(self._cm[rows])[1].reshape(len(rows), size)
            for order in itertools.permutations(range(size)):
                table[(feats[:, order] + 1) @ radix[:size]] = self._rank[rows] + 1
        # per step j: the added position j first, then every set of < L earlier positions
        step, slots = [], []
        for j in range(n):
            for size in range(min(L - 1, j) + 1):
                for c in itertools.combinations(range(j), size):
                    step.append(j)
                    slots.append((j,) + c + (-1,) * (L - 1 - size))
        step_a = np.array(step, np.int64)
        slot_a = np.array(slots, np.int64).reshape(len(step), L)
        T = len(step_a)
        out = np.empty((len(perms), n + 1))
        per = max(1, _CHUNK_LOOKUPS // T)
        for a in range(0, len(perms), per):
            pf = np.concatenate([perms[a:a + per] + 1, np.zeros((min(per, len(perms) - a), 1),
                                                                np.int64)], axis=1)
            P = len(pf)
            key = np.zeros((P, T), np.int64)
            for i in range(L):  # the feature (+1) at each slot of each lookup; -1 → column n: 0
                key += pf[:, np.where(slot_a[:, i] >= 0, slot_a[:, i], n)] * radix[i]
            coal = (np.arange(P)[:, None] * (n + 1) + step_a[None, :] + 1) * (V + 1)
            counts = np.bincount((coal + table[key]).ravel(), minlength=P * (n + 1) * (V + 1))
            counts = np.cumsum(counts.reshape(P, n + 1, V + 1)[:, :, 1:], axis=1)
            lo_b, hi_b = counted_medians(counts.reshape(-1, V), self._values)
            out[a:a + P] = ((lo_b + hi_b) / 2).reshape(P, n + 1)
        self.evaluated += len(perms) * (n + 1)
        return out

    def _lookups(self, k: int) -> int:
        """Subset lookups `_pairs` makes for one sub-query keeping k features."""
        return sum(math.comb(k, s) for s in self._sizes if s <= k)

    def _n_lookups(self, sizes: np.ndarray) -> int:
        """Subset lookups `_pairs` makes for sub-queries keeping `sizes` features each."""
        ks, counts = np.unique(sizes, return_counts=True)
        return sum(int(c) * self._lookups(int(k)) for k, c in zip(ks, counts))

    def _pairs(self, sub: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(sub-query, clause) index pairs of every relevant clause each sub-query settles.

        A sub-query keeping k features settles the clauses whose feature set is one of its
        2^k subsets: enumerate those subsets (grouped by k) and look their bitmasks up in the
        sorted clause masks. Work is proportional to the pairs, not to sub-queries × clauses.
        """
        order = np.argsort(self._cmb, kind="stable")
        keys = self._cmb[order]
        size = sub.sum(axis=1)
        out_s, out_j = [], []
        for k in np.unique(size).tolist():
            rows = np.flatnonzero(size == k)
            pos = np.nonzero(sub[rows])[1].reshape(len(rows), k)
            s_idx, j_idx = _lookup_pairs(keys, order, _settled_sets(self._bits[pos], self._sizes),
                                         rows)
            out_s.append(s_idx)
            out_j.append(j_idx)
        if not out_s:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        return np.concatenate(out_s), np.concatenate(out_j)

    def _evaluate_direct(self, sub: np.ndarray, out: dict[str, np.ndarray], stats: bool) -> None:
        if len(self._t) == 0:
            return
        # chunks of ≤ _CHUNK_LOOKUPS subset lookups: memory bounded for many wide sub-queries
        sizes = sub.sum(axis=1)
        per = np.array([self._lookups(k) for k in range(self.n + 1)])[sizes]
        cut = np.searchsorted(np.cumsum(per), np.arange(1, int(per.sum()) // _CHUNK_LOOKUPS + 1)
                              * _CHUNK_LOOKUPS)
        for a, b in zip(np.concatenate([[0], cut]), np.concatenate([cut, [len(sub)]])):
            if b <= a:
                continue
            s_idx, j_idx = self._pairs(sub[a:b])
            S = b - a
            if self._equal:  # equal weights: one sort of (sub-query, target rank)
                lo, hi = equal_weight_medians(s_idx, self._rank[j_idx], self._values, S)
            else:
                lo, hi = weighted_median_intervals(s_idx, self._t[j_idx], self._w[j_idx], S)
            if (bare := prior_only(self._sets.prior, s_idx, j_idx, S)) is not None:  # [0, 1]
                lo, hi = np.where(bare, 0.0, lo), np.where(bare, 1.0, hi)
            out["lower"][a:b], out["upper"][a:b] = lo, hi
            if stats:
                self._stats_from_pairs(s_idx, j_idx, sub[a:b], out["evidence_mean"][a:b],
                                       out["n_clauses"][a:b], out["evidence"][a:b],
                                       out["idle"][a:b], lo, hi, out["by_prior"][a:b])

    @functools.cached_property
    def _w_evidence(self) -> np.ndarray:
        return evidence_weights(self._w, self._sets.prior)

    def _stats_from_pairs(self, s_idx, j_idx, sub, evm, ncl, net, idle, lower, upper, by_prior
                          ) -> None:
        w = self._w_evidence
        evm[:], ncl[:], net[:] = _settled_stats(s_idx, w[j_idx], (w * self._t)[j_idx], len(sub))
        idle[:] = idle_features(s_idx, self._cmb[j_idx], self._sets.prior[j_idx],
                                _bitmasks(sub))
        by_prior[:] = prior_decided(self._sets.prior, self._t, s_idx, j_idx, lower, upper)

    def _stats(self, sub: np.ndarray, evm: np.ndarray, ncl: np.ndarray, net: np.ndarray,
               idle: np.ndarray, lower: np.ndarray, upper: np.ndarray, by_prior: np.ndarray
               ) -> None:
        """Evidence mean and count of the clauses each sub-query settles (all features of the
        clause kept), how many of its features settle none of them but the prior, and whether
        the prior alone sets its answer (`prior_decided`)."""
        if self.n <= 62:
            self._stats_from_pairs(*self._pairs(sub), sub, evm, ncl, net, idle, lower, upper,
                                   by_prior)
            return
        R = len(self._t)
        w = self._w_evidence
        cols = np.column_stack([w, w * self._t, np.ones(R)])
        real = self._cm & ~self._sets.prior[:, None]  # the features of clauses but the prior
        chunk = max(16, _CHUNK_CELLS // (R * self.n))
        for a in range(0, len(sub), chunk):
            act = ~(self._cm[None, :, :] & ~sub[a:a + chunk, None, :]).any(axis=2)
            sums = act.astype(np.float64) @ cols  # Σw, Σw·t, count per sub-query
            ncl[a:a + chunk] = np.rint(sums[:, 2]).astype(np.int64)
            with np.errstate(invalid="ignore", divide="ignore"):
                evm[a:a + chunk] = np.where(sums[:, 0] > 0, sums[:, 1] / sums[:, 0], np.nan)
            net[a:a + chunk] = net_evidence(sums[:, 0], sums[:, 1])
            covered = (act.astype(np.float64) @ real) > 0
            idle[a:a + chunk] = (sub[a:a + chunk] & ~covered).sum(axis=1)


def _bitmasks(member: np.ndarray) -> np.ndarray:
    """Rows of a boolean matrix (≤ 62 columns) as int64 bitmasks (column j → bit j)."""
    bits = np.ldexp(1.0, np.arange(member.shape[1]))
    if member.shape[1] <= 52:  # sums of distinct powers of two below 2^53: exact in float64
        return (member.astype(np.float64) @ bits).astype(np.int64)
    return member.astype(np.int64) @ bits.astype(np.int64)


def _settled_sets(kept_bits: np.ndarray, sizes: tuple[int, ...]) -> np.ndarray:
    """Bitmasks (sub-queries × sets) of the feature sets of the clauses each sub-query
    settles: its subsets of the clause sizes `sizes` (the empty set first when 0 is one of
    them), in `subset_plan` order; `kept_bits` holds each sub-query's k kept features' bits."""
    S, k = kept_bits.shape
    parts = [np.zeros((S, 1), np.int64)] if 0 in sizes else []
    within = tuple(s for s in sizes if 1 <= s <= k)
    if within:
        parts.append(subset_plan(k, within).keys(kept_bits))
    return np.hstack(parts) if parts else np.zeros((S, 0), np.int64)


def _lookup_pairs(keys: np.ndarray, order: np.ndarray, sets: np.ndarray, owners: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(owner, clause) pairs: every clause whose key (`keys`, sorted; `order` maps back to
    clause numbers, equal keys in clause order) is one of the `sets` of its owner (rows of
    `sets` belong to `owners`), owner by owner, set by set."""
    flat = sets.ravel()
    lo = np.searchsorted(keys, flat, "left")
    if len(keys) and np.all(keys[1:] != keys[:-1]):  # one clause a key: a hit or none
        cnt = (keys[np.minimum(lo, len(keys) - 1)] == flat).astype(np.int64)
    else:
        cnt = np.searchsorted(keys, flat, "right") - lo
    total = int(cnt.sum())
    if not total:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    owner = np.repeat(np.repeat(owners, sets.shape[1]), cnt)
    first = np.repeat(lo - np.concatenate([[0], np.cumsum(cnt)[:-1]]), cnt)
    return owner, order[first + np.arange(total)]


def idle_features(s_idx: np.ndarray, masks: np.ndarray, prior: np.ndarray, sub: np.ndarray
                  ) -> np.ndarray:
    """How many kept features of each sub-query (bitmasks `sub`) settle no clause of it but
    the prior, from its (sub-query, clause) pairs: `masks` and `prior` of each pair's clause.
    `TIE_BREAK` ranks a candidate with such a feature after every one without."""
    cover = np.zeros(len(sub), np.int64)
    real = ~prior
    np.bitwise_or.at(cover, s_idx[real], masks[real])
    return np.bitwise_count(sub & ~cover).astype(np.int64)


def _settled_stats(s_idx: np.ndarray, w: np.ndarray, wt: np.ndarray, S: int
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Evidence mean (Σ w·t / Σ w; NaN without clauses), number and net evidence
    (`net_evidence`) of the clauses each of S sub-queries settles, from its (sub-query,
    weight, weight × target) pairs."""
    sw = np.bincount(s_idx, weights=w, minlength=S)
    swt = np.bincount(s_idx, weights=wt, minlength=S)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (np.where(sw > 0, swt / sw, np.nan), np.bincount(s_idx, minlength=S),
                net_evidence(sw, swt))


def net_evidence(sw: np.ndarray, swt: np.ndarray) -> np.ndarray:
    """The tie-break's net evidence for POS from Σ w and Σ w·t of the clauses a sub-query
    settles: Σ w·(t − ½) (NaN without clauses). A target ½ says nothing either way, so a
    clause of weight near 0 adds near nothing — where the weighted mean Σ w·t / Σ w ranked a
    feature higher the less its clause weighed (it diluted the other clauses' targets least):
    a vote's noise boolean of weight 0.017 was the second feature of 76 of 133 diabetes rows."""
    return np.where(sw > 0, swt - 0.5 * sw, np.nan)


def _masks_of(combos: Sequence[tuple[int, ...]], n: int) -> np.ndarray:
    m = np.zeros((len(combos), n), dtype=bool)
    by_size: dict[int, list[int]] = {}
    for i, c in enumerate(combos):
        by_size.setdefault(len(c), []).append(i)
    for size, rows in by_size.items():
        if size:
            idx = np.asarray(rows)
            m[idx[:, None], np.asarray([combos[i] for i in rows])] = True
    return m


# --------------------------------------------------------------------------- explanations


@dataclass(frozen=True)
class Candidate:
    """One size-k sub-query: its features and values, ω(POS) bounds and tie-break statistics.

    `evidence_mean` is the weighted mean of the targets of the clauses the sub-query settles
    (NaN when it settles none); `n_clauses` how many it settles; `evidence` their net evidence
    Σ w·(t − ½) (`net_evidence`), the tie-break's second key (`TIE_BREAK`).
    """

    features: tuple[str, ...]
    values: tuple[str, ...]
    lower: float
    upper: float
    mean: float
    evidence_mean: float = float("nan")
    n_clauses: int = 0
    rank: int = 0
    by_prior: bool = False
    """Its ω(POS) is the prior clause's own target, which no clause it settles backs
    (`prior_decided`): the model's threshold device answered it, not its values."""
    evidence: float = float("nan")

    def as_query(self) -> dict[str, str]:
        return dict(zip(self.features, self.values))

    @property
    def bounds(self) -> Bounds:
        return Bounds(self.lower, self.upper)

    def label(self) -> str:
        return ", ".join(condition_text(f, v) for f, v in zip(self.features, self.values))

    def to_dict(self) -> dict[str, Any]:
        return _jsonable(asdict(self))


@dataclass(frozen=True)
class Explanation:
    """The k-feature explanation of a query (Algorithm 6) and every candidate, ranked.

    `positive` is the decision of the full query (`query_bounds`) at `threshold` (`decided`);
    `features` the chosen
    sub-query and `bounds` its ω(POS) bounds. `decides` says whether those bounds decide the
    answer explained on their own at the model's `threshold` (`decides`): False when no size-k
    sub-query does (a rule vote whose terms need 3 values, asked for 2; a candidate answered
    by the prior clause alone), which `wording.explanation_sentence` says. `search` is "exhaustive" or "beam"; `evaluated`
    how many size-k sub-queries were scored (`n_total` = C(n, k)). `tied` counts the other
    candidates with the chosen one's ω(POS); `tie_break` is the rule that ranks them and
    `resolved_by` the criterion that decided ("none" without a tie, "bound", "net evidence"
    or "feature order"). `explained_class` names the class the bounds and features are for
    (the KB's POS; with several classes, the class whose KB against the rest was searched).
    """

    query: dict[str, str]
    k: int
    features: dict[str, str]
    bounds: Bounds  # unpacks as (lower, upper), as the tuple it was
    positive: bool
    query_bounds: Bounds
    #: every candidate, ranked (not in the repr: thousands of them on a wide row)
    candidates: list[Candidate] = field(repr=False)
    search: str
    evaluated: int
    n_total: int
    tied: int
    tie_break: str
    resolved_by: str
    semantics: str
    direction: str
    note: str = ""  # why fewer features than asked (`lower_k`; "" when k is as asked)
    explained_class: str = ""  # the class whose support ω(POS) is: the KB's POS (`class_of`)
    decides: bool = True  # the chosen sub-query decides the answer on its own (`decides`)
    threshold: float = 0.5  # the model's decision threshold `decides` was judged at
    answer_by_prior: bool = False  # the full answer is the prior clause's alone (`prior_decided`)
    #: the searched KB answers the whole row on the other side of `threshold` from `direction`
    #: (`other_side`): the tuned Direct variant answers with a window of the full KB searched
    other_side: bool = False

    @property
    def mean(self) -> float:
        return (self.bounds[0] + self.bounds[1]) / 2.0

    @property
    def best(self) -> Candidate:
        return self.candidates[0]

    @property
    def base_rate(self) -> float | None:
        """The model's base rate where it alone answers the row or the chosen sub-query (the
        prior's target, `start_value`: said with its number), else None."""
        if self.answer_by_prior:
            return (self.query_bounds[0] + self.query_bounds[1]) / 2.0
        return self.mean if self.candidates and self.best.by_prior else None

    @property
    def query_tie(self) -> bool:
        return abs((self.query_bounds[0] + self.query_bounds[1]) / 2 - 0.5) <= TIE_EPS

    def frame(self, top: int | None = None) -> pd.DataFrame:
        """The ranked candidates as a table (the chosen one first)."""
        rows = self.candidates if top is None else self.candidates[:top]
        return pd.DataFrame(
            {
                "rank": [c.rank for c in rows],
                "sub_query": [c.label() for c in rows],
                "features": [c.features for c in rows],
                "lower": [c.lower for c in rows],
                "upper": [c.upper for c in rows],
                "mean": [c.mean for c in rows],
                "evidence_mean": [c.evidence_mean for c in rows],
                "evidence": [c.evidence for c in rows],
                "n_clauses": [c.n_clauses for c in rows],
                "by_prior": [c.by_prior for c in rows],
                "tied_with_best": [round(c.mean, DECIMALS) == round(self.mean, DECIMALS)
                                   for c in rows],
            }
        )

    def summary(self) -> str:
        sub = ", ".join(condition_text(f, v) for f, v in self.features.items())
        verdict = self.direction  # the side explained (the KB may answer the other: `other_side`)
        tie = f"; {self.tied} tied, decided by {self.resolved_by}" if self.tied else ""
        cls = f" (POS = {self.explained_class!r})" if self.explained_class else ""
        how = "explains"
        if not self.decides:  # the strongest case, which decides nothing: said, not claimed
            from .wording import undecided_said

            said = undecided_said(self.k, self.direction, self.best.by_prior, self.answer_by_prior,
                                  self.base_rate)
            how = f"is the strongest case — {said} — for"
        other = ""
        if self.other_side:
            from .wording import other_side_said

            flip = "negative" if self.direction == "positive" else "positive"
            other = "; " + other_side_said(self.direction, flip, self.query_bounds,
                                           self.threshold)
        return (f"{sub} {how} the {verdict} decision{cls}: ω(POS) ∈ [{self.bounds[0]:.4g}, "
                f"{self.bounds[1]:.4g}] ({self.search} search over {self.evaluated} of "
                f"{self.n_total} sub-queries{tie})" + other
                + (f"; {self.note}" if self.note else ""))

    def to_dict(self) -> dict[str, Any]:
        d = {
            f.name: getattr(self, f.name)
            for f in self.__dataclass_fields__.values()  # type: ignore[attr-defined]
            if f.name != "candidates"
        }
        d["candidates"] = [c.to_dict() for c in self.candidates]
        return _jsonable(d)


@dataclass(frozen=True)
class Unexplained:
    """A row of a batch (`explain_many`) that cannot be explained, in place of its Explanation:
    `row` (0-based), its known values `query`, the `k` asked and the `reason` (one line: no
    feature the model uses is known, a value the model cannot read, a solver failure). Has no
    features, so code that lists an explanation's features lists none."""

    row: int
    query: dict[str, Any]
    k: int
    reason: str
    features: dict[str, str] = field(default_factory=dict)
    note: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "note", self.note or self.reason)

    def summary(self) -> str:
        return f"row {self.row}: not explained: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return _jsonable({"row": self.row, "query": self.query, "k": self.k,
                          "reason": self.reason, "explained": False})


def _rank_arrays(lower: np.ndarray, upper: np.ndarray, evidence: np.ndarray,
                 positive: Any, idle: np.ndarray | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The `TIE_BREAK` ranking keys of candidates, smaller first: the number of features that
    settle nothing but the prior (`idle_features`; plus 1 for a candidate the prior alone
    answers, `prior_decided`) with ∓ω(POS), then the bound on the
    decision's side, then ∓ the net evidence (`net_evidence`; none: last), each rounded to `DECIMALS`
    (feature order comes last). `positive` is one bool or one per row (broadcast)."""
    mean = np.round((lower + upper) / 2, DECIMALS)
    evm = np.round(evidence, DECIMALS)
    prim = np.where(positive, -mean, mean)
    if idle is not None:  # ∓ω(POS) lies in [−1, 1]: 3 per idle feature ranks it after all
        prim = prim + 3.0 * idle
    bound = np.where(positive, -np.round(lower, DECIMALS), np.round(upper, DECIMALS))
    ev = np.where(np.isnan(evm), np.inf, np.where(positive, -evm, evm))
    return prim, bound, ev


def _rank_keys(stats: dict[str, np.ndarray], combos: Sequence[tuple[int, ...]],
               positive: bool) -> list[tuple]:
    prim, bound, ev = _rank_arrays(stats["lower"], stats["upper"], stats["evidence"],
                                   positive, stats["idle"] + stats["by_prior"])
    return list(zip(prim.tolist(), bound.tolist(), ev.tolist(), combos))


def _resolution(prim: np.ndarray, bound: np.ndarray, ev: np.ndarray
                ) -> tuple[np.ndarray, list[str]]:
    """Per row of ranked keys (rows × candidates, best first): how many candidates tie with
    the best on ω(POS), and the criterion that decided ("none", "bound", "net evidence" or
    "feature order")."""
    tied = prim[:, 1:] == prim[:, :1]
    same_bound = tied & (bound[:, 1:] == bound[:, :1])
    same_both = same_bound & (ev[:, 1:] == ev[:, :1])
    resolved = np.where(~tied.any(axis=1), "none",
                        np.where(~same_bound.any(axis=1), "bound",
                                 np.where(~same_both.any(axis=1), "net evidence",
                                          "feature order")))
    return tied.sum(axis=1), resolved.tolist()


def _labels(combos: Sequence[tuple[int, ...]], *columns: Sequence[str]) -> list[list[tuple]]:
    """Per column (feature names, values), the tuple of each combination's entries."""
    idx = np.asarray(combos, dtype=np.int64).reshape(len(combos), -1)
    out = []
    for col in columns:
        arr = np.empty(len(col), dtype=object)
        arr[:] = list(col)
        out.append(list(zip(*arr[idx].T.tolist())) if idx.shape[1] else [()] * len(combos))
    return out


def _candidates(names: Sequence[Sequence[tuple]], values: Sequence[Sequence[tuple]],
                lower: np.ndarray, upper: np.ndarray, evidence_mean: np.ndarray,
                n_clauses: np.ndarray, by_prior: np.ndarray, evidence: np.ndarray
                ) -> list[list[Candidate]]:
    """Per row (rows × candidates arrays, ranked: rank 1 first), its Candidates, from bounds
    already rounded to 12 decimals; each mean is the rounded mean of its rounded bounds
    (Python's `round`, computed once per distinct value)."""
    mid, inv = np.unique((lower + upper) / 2, return_inverse=True)
    mean = np.array([round(x, 12) + 0.0 for x in mid.tolist()])[inv.reshape(lower.shape)]
    ranks = range(1, lower.shape[1] + 1)
    return [list(map(_new_candidate, zip(*row[:-2], ranks, *row[-2:])))
            for row in zip(names, values, lower.tolist(), upper.tolist(), mean.tolist(),
                           evidence_mean.tolist(), n_clauses.tolist(), by_prior.tolist(),
                           evidence.tolist())]


_CANDIDATE_FIELDS = tuple(f.name for f in fields(Candidate))


def _new_candidate(entries: tuple) -> Candidate:
    """`Candidate(*entries)` (every field, in order) without the frozen dataclass's one
    `object.__setattr__` per field: 1.4 µs instead of 2.4 µs, for the C(n, k) candidates of
    every explanation."""
    c = object.__new__(Candidate)
    vars(c).update(zip(_CANDIDATE_FIELDS, entries))
    return c


class _Search:
    """Scores size-k index tuples once each (cache) and keeps their rank keys."""

    def __init__(self, ev: _SubQueries, positive: bool):
        self.ev = ev
        self.positive = positive
        self.keys: dict[tuple[int, ...], tuple] = {}
        self.stats: dict[tuple[int, ...], tuple[float, float, float, int, bool, float]] = {}

    def score(self, combos: Iterable[tuple[int, ...]]) -> None:
        new = sorted({tuple(sorted(c)) for c in combos} - self.keys.keys())
        if not new:
            return
        st = self.ev.evaluate(_masks_of(new, self.ev.n))
        self.keys.update(zip(new, _rank_keys(st, new, self.positive)))
        lo = np.round(st["lower"], 12) + 0.0
        hi = np.round(st["upper"], 12) + 0.0
        self.stats.update(zip(new, zip(lo.tolist(), hi.tolist(),
                                       st["evidence_mean"].tolist(), st["n_clauses"].tolist(),
                                       st["by_prior"].tolist(), st["evidence"].tolist())))

    def best(self, combos: Iterable[tuple[int, ...]], m: int) -> list[tuple[int, ...]]:
        return sorted(combos, key=self.keys.__getitem__)[:m]


def _beam(search: _Search, n: int, k: int, width: int, stop_at: int) -> None:
    """Grow the `width` best sets one feature at a time, then hill-climb by single swaps."""
    level: list[tuple[int, ...]] = [(i,) for i in range(n)]
    beam: list[tuple[int, ...]] = []
    for size in range(1, k + 1):
        if size > 1:
            level = sorted({tuple(sorted(b + (j,))) for b in beam for j in range(n) if j not in b})
        search.score(level)
        beam = search.best(level, width)
    # hill-climb from every beam member (best first) while the budget lasts
    for current in beam:
        while search.ev.evaluated < stop_at:
            outside = [j for j in range(n) if j not in current]
            swaps = [tuple(sorted([x for x in current if x != a] + [b]))
                     for a in current for b in outside]
            search.score(swaps)
            nxt = search.best(swaps + [current], 1)[0]
            if nxt == current:
                break
            current = nxt


def explain(
    kb: KB,
    q: Any,
    k: int = 2,
    budget: int = 20000,
    beam_width: int = 8,
    semantics: str = "auto",
    lp_budget: int = 1024,
    direction: str = "auto",
    strategy: str = "subquery",
    threshold: float = 0.5,
) -> Explanation:
    """The size-k sub-query that best explains the decision on `q` (Algorithm 6).

    `strategy="shapley"` instead keeps the k features with the largest exact Shapley values
    of ω(POS) towards the decision (`shapley(kb, q).top(k)`): on Syn 10/4 it matches SHAP at
    every k, where Algorithm 6 is ~0.01 below at k = 5 (benchmarks/RESULTS.md).

    For a positive query the candidate with the largest ω(POS) wins, for a negative one (a tie
    at 0.5 is reported negative) the smallest; ties are broken by `TIE_BREAK` (see the module
    docstring for the measurement behind it). All C(n, k) candidates are scored when there
    are at most `budget` of them on the exact median path (`lp_budget` when each sub-query
    needs its own query, e.g. a Tree KB under the full semantics); otherwise a beam search of
    width `beam_width` (grown one feature at a time) followed by hill-climbing single swaps
    from every beam member, evaluating at most max(budget, 10 · beam_width · n · k)
    sub-queries. `direction` "positive"/"negative"
    overrides the side explained ("auto": the query's decision). `threshold`: the model's
    decision threshold on ω(POS), at which the query's decision (`decided`: the side "auto"
    explains) and the explanation's `decides` are judged (the estimator passes its own; the
    ranking of candidates does not depend on it).
    """
    threshold = checked_threshold(threshold)
    if strategy not in ("subquery", "shapley"):
        raise DataError(f"strategy must be 'subquery' or 'shapley', got {strategy!r}")
    k = checked_int("k", k, None)
    with unused_rules_said(kb):  # once, not once for each sub-query scored
        if strategy == "shapley":
            checked_int("budget", budget, 0)
            checked_int("lp_budget", lp_budget, 0)
            checked_int("beam_width", beam_width, 1)
            return _explain_by_shapley(kb, q, k, semantics, direction, threshold)
        return explain_all(kb, q, [k], budget=budget, beam_width=beam_width,
                           semantics=semantics, lp_budget=lp_budget, direction=direction,
                           threshold=threshold)[k]


def _explain_by_shapley(kb: KB, q: Any, k: int, semantics: str, direction: str,
                        threshold: float = 0.5) -> Explanation:
    """The sub-query of the k features whose Shapley values of ω(POS) push hardest towards the
    decision, with its bounds (one candidate)."""
    if direction not in ("auto", "positive", "negative"):
        raise DataError(f"direction must be 'auto', 'positive' or 'negative', got {direction!r}")
    ev = _SubQueries(kb, q, semantics)
    if not 1 <= k <= ev.n:
        raise DataError(f"k={k} is not between 1 and the {counted(ev.n, 'feature')} the query knows "
                        f"({list(ev.names)}){unseen_said(ev.pq.unseen)}"
                        f"{uncited_said(kb, ev.pq)}{idle_said(ev.idle)}")
    fb = ev.full
    positive = decided(fb, threshold) if direction == "auto" else direction == "positive"
    side = "positive" if positive else "negative"
    sh = shapley(kb, q, semantics=semantics)
    cited = set(ev.names)  # (a feature no clause uses has value 0 and is never cited)
    chosen = set([f for f in sh.top(len(sh.features), side) if f in cited][:k])
    mask = np.array([[f in chosen for f in ev.names]])
    r = ev.evaluate(mask)
    idx = [i for i, f in enumerate(ev.names) if f in chosen]
    lo, hi = float(r["lower"][0]), float(r["upper"][0])
    cand = Candidate(tuple(ev.names[i] for i in idx), tuple(ev.values[i] for i in idx), lo, hi,
                     round((lo + hi) / 2, 12) + 0.0, float(r["evidence_mean"][0]),
                     int(r["n_clauses"][0]), 1, bool(r["by_prior"][0]), float(r["evidence"][0]))
    return Explanation(
        decides=decides(lo, hi, positive, threshold, fb, cand.by_prior), threshold=threshold,
        answer_by_prior=ev.full_by_prior, other_side=other_side(fb, positive, threshold),
        query=dict(ev.query), k=k, features=cand.as_query(), bounds=cand.bounds,
        positive=decided(fb, threshold), query_bounds=_clean_bounds(fb),
        candidates=[cand], search="shapley", evaluated=1, n_total=math.comb(ev.n, k), tied=0,
        tie_break="the k largest Shapley values of ω(POS) towards the decision, then feature order",
        resolved_by="none", semantics=ev.sem, direction=side, explained_class=class_of(kb),
    )


def explain_all(
    kb: KB,
    q: Any,
    ks: Iterable[int] = (1, 2, 3, 4, 5),
    budget: int = 20000,
    beam_width: int = 8,
    semantics: str = "auto",
    lp_budget: int = 1024,
    direction: str = "auto",
    _shared: dict | None = None,
    threshold: float = 0.5,
) -> dict[int, Explanation]:
    """`explain` for several k at once ({k: Explanation}), sharing the full query and one
    batched evaluation of every exhaustively searched size. Every k must lie between 1 and
    the number of features the query knows (`threshold`: as in `explain`)."""
    threshold = checked_threshold(threshold)
    if isinstance(ks, (str, bytes)) or not isinstance(ks, Iterable):
        raise DataError(f"ks must be a list of whole numbers, got {ks!r}")
    ks = [checked_int("k", k, None) for k in ks]
    if direction not in ("auto", "positive", "negative"):
        raise DataError(f"direction must be 'auto', 'positive' or 'negative', got {direction!r}")
    budget = checked_int("budget", budget, 0)
    lp_budget = checked_int("lp_budget", lp_budget, 0)
    beam_width = checked_int("beam_width", beam_width, 1)
    resolve_semantics(kb, semantics)
    return _explain_ev(_SubQueries(kb, q, semantics, _shared), ks, budget, beam_width,
                       lp_budget, direction, threshold)


def _explain_ev(ev: _SubQueries, ks: list[int], budget: int, beam_width: int, lp_budget: int,
                direction: str, threshold: float = 0.5) -> dict[int, Explanation]:
    """`explain_all` of the query `ev` evaluates (arguments checked)."""
    n = ev.n
    for k in ks:
        if not 1 <= k <= n:
            raise DataError(
                f"k={k} is not between 1 and the {counted(n, 'feature')} the query knows "
                f"({list(ev.names)}){unseen_said(ev.pq.unseen)}{uncited_said(ev.kb, ev.pq)}"
                f"{idle_said(ev.idle)}"
            )
    positive = decided(ev.full, threshold) if direction == "auto" else direction == "positive"
    limit = budget if ev.sem == "relevant" else lp_budget
    search = _Search(ev, positive)
    exhaustive = {k: math.comb(n, k) <= limit for k in ks}
    # one batched call for every exhaustive size
    search.score(itertools.chain.from_iterable(
        itertools.combinations(range(n), k) for k in ks if exhaustive[k]))
    out: dict[int, Explanation] = {}
    for k in ks:
        if exhaustive[k]:
            pool = list(itertools.combinations(range(n), k))
        else:
            cap = max(limit, 10 * beam_width * n * k)
            _beam(search, n, k, beam_width, stop_at=ev.evaluated + cap)
            pool = [c for c in search.keys if len(c) == k]
        ranked = sorted(pool, key=search.keys.__getitem__)
        lo, hi, em, nc, bp, ne = (np.array(x) for x in zip(*map(search.stats.__getitem__,
                                                                  ranked)))
        cands = _candidates(*([x] for x in _labels(ranked, ev.names, ev.values)),
                            *(x[None, :] for x in (lo, hi, em, nc, bp, ne)))[0]
        keys = np.array([search.keys[c][:3] for c in ranked], dtype=np.float64)
        tied, resolved = _resolution(*(keys.T[:, None, :]))
        out[k] = _explanation(ev, k, positive, cands, "exhaustive" if exhaustive[k] else "beam",
                              len(pool), int(tied[0]), resolved[0], threshold)
    return out


def _explanation(ev: _SubQueries, k: int, positive: bool, cands: list[Candidate], search: str,
                 evaluated: int, tied: int, resolved: str, threshold: float = 0.5
                 ) -> Explanation:
    """The Explanation of `ev`'s query by its ranked candidates (the best first), judged at
    the model's decision `threshold` (`decides`)."""
    best = cands[0]
    side = "positive" if positive else "negative"
    return Explanation(
        decides=decides(best.lower, best.upper, positive, threshold, ev.full, best.by_prior),
        threshold=float(threshold), answer_by_prior=ev.full_by_prior,
        other_side=other_side(ev.full, positive, threshold),
        query=dict(ev.query), k=k, features=best.as_query(), bounds=best.bounds,
        positive=decided(ev.full, threshold), query_bounds=_clean_bounds(ev.full), candidates=cands,
        search=search, evaluated=evaluated, n_total=math.comb(ev.n, k), tied=tied,
        tie_break=TIE_BREAK[side], resolved_by=resolved, semantics=ev.sem, direction=side,
        explained_class=class_of(ev.kb))


def class_of(kb: KB) -> str:
    """The class an explanation on `kb` is for: its POS as a string ("" when unnamed)."""
    return "" if kb.positive is None else str(kb.positive)


EXPLAIN_CHUNK = 64
"""Rows explained between two progress reports / stop checks of `explain_many`."""


def _rows_of(X: Any) -> list[dict[str, Any]]:
    """Rows of a table (DataFrame, list of mappings / Series) as query mappings."""
    if isinstance(X, pd.DataFrame):
        cols = [str(c) for c in X.columns]
        return [dict(zip(cols, r)) for r in X.itertuples(index=False, name=None)]
    if isinstance(X, (Mapping, pd.Series)):
        raise DataError("explain_many takes a table of rows (a DataFrame or a list of rows); "
                        "for one row use explain")
    return [dict(r.items()) if isinstance(r, (Mapping, pd.Series)) else r for r in X]


def _per_row(name: str, value: Any, n: int) -> list:
    """`value` for every one of n rows: one value, or a sequence of n values."""
    if isinstance(value, (str, bytes, int, np.integer)) or value is None:
        return [value] * n
    vals = list(value)
    if len(vals) != n:
        raise DataError(f"{name} has {len(vals)} entries for {n} rows")
    return vals


def _stopped(stop: Any) -> bool:
    if stop is None:
        return False
    return bool(stop.is_set() if hasattr(stop, "is_set") else stop())


def unexplained_query(row: Any) -> dict[str, Any]:
    """A row's known values as an `Unexplained` shows them (missing cells left out)."""
    from .encoding import is_missing

    items = row.items() if isinstance(row, (Mapping, pd.Series)) else ()
    return {str(f): v for f, v in items if not is_missing(v)}


def _unexplained(i: int, row: Any, k: int, reason: str) -> Unexplained:
    return Unexplained(i, unexplained_query(row), k, reason)


def explain_many(
    kb: KB,
    X: Any,
    k: int | Sequence[int] = 2,
    budget: int = 20000,
    beam_width: int = 8,
    semantics: str = "auto",
    lp_budget: int = 1024,
    direction: str | Sequence[str] = "auto",
    strategy: str = "subquery",
    n_jobs: int | None = None,
    progress: Any = None,
    stop: Any = None,
    threshold: float = 0.5,
) -> list[Explanation | Unexplained]:
    """`explain` for every row of X (a DataFrame or a list of rows), in row order: the same
    explanations as a loop of `explain`, made together.

    Every row is answered: a row nothing can explain (no feature the model uses is known, a
    value that cannot be read, the LP failing on it) gets an `Unexplained` with the reason in
    its place, and a row that knows fewer features than its k is explained by those it knows,
    its `note` saying so; only bad arguments (a k below 1, an unknown direction) raise.

    `k` and `direction` are one value or one per row. Work is shared where it can be: rows
    asking the same question (same known values, k and direction) are explained once, and
    what depends only on the KB (its index, the features it mentions) is built once. Rows
    go `EXPLAIN_CHUNK` at a time to a pool of `n_jobs` threads (None: every core, as
    `query_many`, under the relevant semantics; one under the full semantics, whose
    sub-queries are answered once for all rows instead), so memory holds one chunk's searches. After each chunk `progress(done,
    total)` is called (rows done, rows asked); `stop` (a `threading.Event` or a callable
    returning True) ends the work at the next row: the explanations of the rows done so
    far, a prefix of the rows, are returned. Every row's k and direction is checked before
    any work (one error naming the row)."""
    from concurrent.futures import ThreadPoolExecutor

    from .query import n_workers

    if strategy not in ("subquery", "shapley"):
        raise DataError(f"strategy must be 'subquery' or 'shapley', got {strategy!r}")
    threshold = checked_threshold(threshold)  # the model's, for each explanation's `decides`
    rows = _rows_of(X)
    n = len(rows)
    ks = [checked_int("k" if n == 1 or isinstance(k, (int, np.integer)) else f"row {i}: k", v, 1)
          for i, v in enumerate(_per_row("k", k, n))]
    dirs = _per_row("direction", direction, n)
    for i, d in enumerate(dirs):
        if d not in ("auto", "positive", "negative"):
            raise DataError(f"row {i}: direction must be 'auto', 'positive' or 'negative', "
                            f"got {d!r}")
    checked_int("budget", budget, 0)
    checked_int("lp_budget", lp_budget, 0)
    checked_int("beam_width", beam_width, 1)
    resolve_semantics(kb, semantics)
    own = own_clauses(kb)  # a row whose cited values each have their own clause needs no query
    # the same question once: key = known codes, unseen values, atoms, k, direction; a row
    # that cannot be explained gets its reason instead (the batch goes on)
    keys: list[tuple | None] = []
    first_of: dict[tuple, int] = {}
    notes: dict[int, str] = {}
    unexplained: dict[int, Unexplained] = {}
    for i, r in enumerate(rows):
        try:
            pq = prepare_query(kb, r)
        except DataError as exc:
            unexplained[i] = _unexplained(i, r, ks[i], str(exc))
            keys.append(None)
            continue
        try:  # an unseen value, an unused or idle feature is unknown (_SubQueries)
            known, said = _cited(kb, r, pq, semantics, own)
        except PLXError as exc:
            unexplained[i] = _unexplained(i, r, ks[i], str(exc))
            keys.append(None)
            continue
        if known == 0:
            unexplained[i] = _unexplained(i, r, ks[i], nothing_to_explain_said(said))
            keys.append(None)
            continue
        ks[i], note = lower_k(ks[i], known, said)
        if note:
            notes[i] = note
        key = (pq.codes.tobytes(), tuple(sorted(pq.unseen.items())),
               tuple(sorted(pq.atoms.items())), ks[i], dirs[i])
        keys.append(key)
        first_of.setdefault(key, i)
    if kb.n_learned:
        kb.index()  # built once, before the threads
    out: list[Explanation] = []
    done: dict[tuple, Explanation] = {}

    shared: dict = {}  # sub-query answers under the full semantics, shared by every row

    def one(i: int) -> Explanation | Unexplained | None:
        if _stopped(stop):
            return None
        try:
            if strategy == "shapley":
                return explain(kb, rows[i], k=ks[i], semantics=semantics, direction=dirs[i],
                               strategy=strategy, threshold=threshold)
            return explain_all(kb, rows[i], [ks[i]], budget=budget, beam_width=beam_width,
                               semantics=semantics, lp_budget=lp_budget, direction=dirs[i],
                               _shared=shared, threshold=threshold)[ks[i]]
        except PLXError as exc:  # this row's LP failed, say: the others go on
            return _unexplained(i, rows[i], ks[i], str(exc))

    def prepared(i: int) -> _SubQueries | Unexplained | None:
        if _stopped(stop):
            return None
        try:
            return _SubQueries(kb, rows[i], semantics, own=own)
        except PLXError as exc:
            return _unexplained(i, rows[i], ks[i], str(exc))

    def batched(todo: list[int]) -> Iterable[Explanation | None]:
        """The relevant semantics: each row's full query, then the rows `explain_rows` can
        take together, the others one by one."""
        from .explain_batch import explain_rows

        evs = pool_map(pool, prepared, todo)
        failed = {j: ev for j, ev in enumerate(evs) if isinstance(ev, Unexplained)}
        made = [j for j, ev in enumerate(evs) if ev is not None and j not in failed]
        side = [decided(evs[j].full, threshold) if dirs[todo[j]] == "auto"  # type: ignore[union-attr]
                else dirs[todo[j]] == "positive" for j in made]
        got = {j: e for j, e in zip(made, explain_rows(
            [evs[j] for j in made], [ks[todo[j]] for j in made], side, budget, threshold))
            if e is not None}
        rest = [j for j in made if j not in got]

        def single(j: int) -> Explanation | Unexplained:
            i = todo[j]
            try:
                return _explain_ev(evs[j], [ks[i]], budget, beam_width, lp_budget,  # type: ignore
                                   dirs[i], threshold)[ks[i]]
            except PLXError as exc:
                return _unexplained(i, rows[i], ks[i], str(exc))

        got.update(zip(rest, pool_map(pool, single, rest)))
        got.update(failed)
        return [got.get(j) for j in range(len(todo))]

    # threads pay off where numpy does the work (the relevant semantics); the full semantics'
    # per-sub-query Python and LP building hold the GIL (2 threads measured slower than 1)
    sem = resolve_semantics(kb, semantics)
    full = sem == "full" and strategy == "subquery"
    workers = max(1, min(1 if n_jobs is None and full else n_workers(n_jobs), n))
    pool = ThreadPoolExecutor(workers) if workers > 1 else None
    try:
        for a in range(0, n, EXPLAIN_CHUNK):
            if _stopped(stop):
                break
            span = range(a, min(n, a + EXPLAIN_CHUNK))
            todo = sorted({first_of[key] for i in span
                           if (key := keys[i]) is not None and key not in done})
            if sem == "relevant" and strategy == "subquery":
                results = batched(todo)
            else:
                results = pool_map(pool, one, todo)
            for i, e in zip(todo, results):
                if e is not None:
                    done[keys[i]] = e
            for i in span:
                key = keys[i]
                if key is None:  # explained by nothing: its reason
                    out.append(unexplained[i])
                    continue
                if key not in done:
                    return out  # stopped inside this chunk: the prefix done so far
                e = done[key]
                if isinstance(e, Unexplained):
                    e = replace(e, row=i, query=dict(unexplained_query(rows[i])))
                elif i in notes:
                    e = replace(e, note=notes[i])
                out.append(e)
            if progress is not None:
                progress(len(out), n)
    finally:
        if pool is not None:
            pool.shutdown(wait=True)
    return out


def explanation_accuracy(features: Mapping[str, Any] | Iterable[str], row: Mapping[str, Any],
                         truth: Mapping[str, Any] | str) -> float:
    """Share of the explanation's features whose value in `row` equals the ground truth
    (paper §6: the seed string). `truth` is a mapping feature → value, or a string aligned
    with the row's features (Syn L/m: one character per feature)."""
    feats = list(features.keys() if isinstance(features, Mapping) else features)
    if not feats:
        raise DataError("an explanation has at least one feature")
    if isinstance(truth, str):
        names = list(row.keys())
        if len(truth) != len(names):
            raise DataError(f"the truth string has {len(truth)} characters for {len(names)} features")
        truth = dict(zip(names, truth))
    return sum(str(row[f]) == str(truth[f]) for f in feats) / len(feats)


# --------------------------------------------------------------------------- Shapley values


@dataclass(frozen=True)
class ShapleyValues:
    """Shapley values of ω(POS) over the query's features (a coalition's value is the mean of
    the bounds of that sub-query). `base_value` = v(∅), `full_value` = v(all features); the
    values sum to `full_value − base_value` (also when sampled: every permutation's
    contributions do). `stderr` is the standard error of each sampled value (zeros if exact).
    """

    query: dict[str, str]
    features: tuple[str, ...]
    values: tuple[float, ...]
    base_value: float
    full_value: float
    exact: bool
    stderr: tuple[float, ...]
    n_samples: int
    n_coalitions: int
    positive: bool
    semantics: str

    def as_dict(self) -> dict[str, float]:
        return dict(zip(self.features, self.values))

    def frame(self) -> pd.DataFrame:
        """One row per feature, largest |value| first (ties by feature order)."""
        df = pd.DataFrame({"feature": self.features,
                           "value": [self.query[f] for f in self.features],
                           "shapley": self.values, "stderr": self.stderr})
        order = np.lexsort((np.arange(len(df)), -np.abs(np.round(df["shapley"].to_numpy(), DECIMALS))))
        return df.iloc[order].reset_index(drop=True)

    def top(self, k: int, direction: str = "auto") -> tuple[str, ...]:
        """The k features pushing hardest towards the decision (largest values for a positive
        query, smallest for a negative one); ties by feature order."""
        pos = self.positive if direction == "auto" else direction == "positive"
        v = np.round(np.asarray(self.values), DECIMALS)
        order = np.lexsort((np.arange(len(v)), -v if pos else v))
        return tuple(self.features[i] for i in order[:k])

    def to_dict(self) -> dict[str, Any]:
        return _jsonable(asdict(self))


def _clean_bounds(b: Bounds) -> Bounds:
    """The query's Bounds with solver noise rounded off its two ends."""
    return replace(b, lower=_clean(b.lower), upper=_clean(b.upper))


def _popcount(x: np.ndarray) -> np.ndarray:
    c = np.zeros(len(x), dtype=np.int64)
    y = x.copy()
    while np.any(y):
        c += y & 1
        y >>= 1
    return c


def start_value(kb: KB) -> tuple[float, bool]:
    """(the support an explanation starts from before any value is known, whether that is the
    model's base rate): the target of its base-rate clause where it has one (a fitted vote's
    or the tuned Direct KB's prior, which answers every sub-query until the rules about its
    values outweigh it: the charts' "starting point alone"), else 0.5, the middle of [0, 1] where
    no rule applies. The one baseline of `shapley`'s v(∅), the Explain page and `plx explain`
    (`wording.start_said`); several priors: their weighted median target."""
    priors = [c for c in kb.extra if c.enabled and c.id == PRIOR_ID]
    if not priors:
        return 0.5, False
    pairs = sorted((1.0 - c.p if c.literals[0].negated else c.p, c.w) for c in priors)
    half, run = sum(w for _, w in pairs) / 2, 0.0
    for t, w in pairs:
        run += w
        if run >= half:
            return float(t), True
    return float(pairs[-1][0]), True


def shapley(
    kb: KB,
    q: Any,
    exact_max: int = 14,
    n_samples: int = 256,
    random_state: int | None = 0,
    semantics: str = "auto",
) -> ShapleyValues:
    """Shapley values of ω(POS) over the features `q` knows.

    Exact (all 2^n coalitions through `subquery_bounds`) up to `exact_max` features; beyond,
    `n_samples` random permutations (seeded by `random_state`) with the standard error of
    each value. v(∅), and every coalition answered with no evidence ([0, 1]), is `start_value`:
    the model's base rate where it has a base-rate clause (which answers the coalitions its
    values do not outweigh: the explanation's "starting point alone"), else 0.5 — one baseline
    for the values, the explanation and its words.
    """
    start = start_value(kb)[0]
    n_samples = checked_int("n_samples", n_samples, 2)
    exact_max = checked_int("exact_max", exact_max, 0)
    ev = _SubQueries(kb, q, semantics, cited_only=False)  # an unused feature: value 0
    n = ev.n
    fb = ev.full
    if n == 0:
        raise DataError("the query knows no feature; there is nothing to attribute")
    if n <= exact_max:
        codes = np.arange(2**n, dtype=np.int64)
        masks = ((codes[:, None] >> np.arange(n)) & 1).astype(bool)
        st = ev.evaluate(masks, stats=False)
        v = _from_start(st, start)
        size = _popcount(codes)
        fact = np.array([math.factorial(s) for s in range(n + 1)], dtype=float)
        weight = fact[size] * fact[np.maximum(n - size - 1, 0)] / fact[n]
        phi = np.zeros(n)
        for i in range(n):
            without = codes[(codes >> i) & 1 == 0]
            phi[i] = float(weight[without] @ (v[without | (1 << i)] - v[without]))
        stderr = np.zeros(n)
        exact, samples, n_coal = True, 0, 2**n
        base, full = v[0], v[-1]
    else:
        rng = np.random.default_rng(random_state)
        perms = np.argsort(rng.random((n_samples, n)), axis=1)
        vals = ev.chain_values(perms)  # the coalitions grown along each permutation
        if vals is not None:  # (a Direct KB of equal weights: no prior, its start is 0.5)
            grown = np.cumsum(ev._bits[perms], axis=1)  # each prefix as a bitmask
            n_uniq = len(np.unique(np.concatenate([[0], grown.ravel()])))
        else:
            prefix = np.zeros((n_samples, n + 1, n), dtype=bool)
            for j in range(n):
                prefix[:, j + 1] = prefix[:, j]
                prefix[np.arange(n_samples), j + 1, perms[:, j]] = True
            flat = prefix.reshape(-1, n)
            uniq, inv = np.unique(flat, axis=0, return_inverse=True)
            st = ev.evaluate(uniq, stats=False)
            vu = _from_start(st, start)
            vals = vu[inv.ravel()].reshape(n_samples, n + 1)
            n_uniq = len(uniq)
        contrib = np.zeros((n_samples, n))
        rows = np.arange(n_samples)
        for j in range(n):
            contrib[rows, perms[:, j]] = vals[:, j + 1] - vals[:, j]
        phi = contrib.mean(axis=0)
        stderr = contrib.std(axis=0, ddof=1) / math.sqrt(n_samples)
        exact, samples, n_coal = False, n_samples, n_uniq
        base, full = vals[0, 0], vals[0, -1]
    return ShapleyValues(
        query=dict(ev.query), features=ev.names, values=tuple(_clean(x) for x in phi),
        base_value=_clean(base), full_value=_clean(full), exact=exact,
        stderr=tuple(_clean(x) for x in stderr), n_samples=samples, n_coalitions=n_coal,
        positive=bool(fb.positive), semantics=ev.sem,
    )


def _from_start(st: Mapping[str, np.ndarray], start: float) -> np.ndarray:
    """Coalition values: the mean of the bounds, `start` where nothing bears on them ([0, 1])."""
    lo, hi = np.asarray(st["lower"], float), np.asarray(st["upper"], float)
    return np.where((lo <= 0) & (hi >= 1), start, (lo + hi) / 2)


# --------------------------------------------------------------------------- evidence


def evidence(kb: KB, q: Any, semantics: str = "auto", method: str = "auto",
             tol: float = 1e-7) -> pd.DataFrame:
    """The clauses that bear on the answer to `q`, for and against.

    One row per clause the answer depends on: its text, source, p, weight, support, the ω(POS)
    it pulls towards (`target`; NaN for clauses left to the LP), its value at the reported
    optimum (`omega`), whether the answer overrode it (ω(c) ≠ p) and `side`: "for" (it pulls
    ω(POS) above the answer), "against" (below), "agrees" (satisfied at the answer) or
    "neutral" (no class literal). Rows are ordered for, against, agrees, neutral, each by
    weight × distance from the answer. `frame.attrs` holds the bounds, answer and method.
    """
    b: Bounds = query(kb, q, semantics=semantics, method=method)
    ev = b.evidence
    ans = float(b.omega)
    info = _clause_columns(kb, ev.clause)
    heads = info["head"]
    over = ev.overridden
    target = ev.target
    side = np.full(len(heads), "agrees", dtype=object)
    med = np.isfinite(target)
    side[med & (target > ans + tol)] = "for"
    side[med & (target < ans - tol)] = "against"
    # LP clauses: a clause held below its p wants more of itself; more of POS (head +1) or
    # of ¬POS (head -1) gives it.
    lp = ~med
    below = ev.omega < ev.p - tol
    above = ev.omega > ev.p + tol
    side[lp & ((below & (heads > 0)) | (above & (heads < 0)))] = "for"
    side[lp & ((below & (heads < 0)) | (above & (heads > 0)))] = "against"
    side[lp & (heads == 0)] = "neutral"
    pull = np.where(med, target - ans, ev.p - ev.omega)
    frame = pd.DataFrame(
        {
            "clause_id": ev.clause,
            "clause": info["clause"],
            "source": info["source"],
            "rule_id": info["rule_id"],
            "p": ev.p,
            "w": ev.w,
            "support": pd.array(info["support"], dtype="Int64"),
            "target": target,
            "omega": ev.omega,
            "overridden": over,
            "side": side,
            "pull": pull,
        }
    )
    order_side = frame["side"].map({"for": 0, "against": 1, "agrees": 2, "neutral": 3})
    strength = -(frame["w"] * frame["pull"].abs())
    frame = frame.assign(_s=order_side, _m=strength).sort_values(
        ["_s", "_m", "clause_id"], kind="stable").drop(columns=["_s", "_m"]).reset_index(drop=True)
    frame.attrs.update(lower=float(b.lower), upper=float(b.upper), answer=ans,
                       method=b.method, semantics=b.semantics, positive=bool(b.positive),
                       inconsistency=float(b.inconsistency))
    return frame


def _clause_columns(kb: KB, ids: np.ndarray) -> dict[str, Any]:
    """Text, head, source, rule id and support of clauses `ids` (learned ones column-wise:
    thousands of relevant clauses at 30 features, no clause object each)."""
    from .clause import SOURCES
    from .textformat import _learned_text

    ids = np.asarray(ids, dtype=np.int64)
    n = len(ids)
    learned = ids < kb.n_learned
    rows = ids[learned]
    text = np.empty(n, dtype=object)
    head = np.zeros(n, np.int64)
    source = np.empty(n, dtype=object)
    rule_id = np.full(n, None, dtype=object)
    support = np.full(n, None, dtype=object)
    if len(rows):
        text[learned] = _learned_text(kb, rows)
        head[learned] = kb.head[rows]
        source[learned] = np.asarray(SOURCES, dtype=object)[kb.source[rows]]
        sup = kb.support[rows]
        support[learned] = [int(x) if x >= 0 else None for x in sup.tolist()]
    for i in np.flatnonzero(~learned):
        c = kb.extra[int(ids[i]) - kb.n_learned]
        text[i], head[i], source[i], rule_id[i], support[i] = (c.to_text(), c.head, c.source,
                                                               c.id, c.support)
    return {"clause": list(text), "head": head, "source": list(source),
            "rule_id": list(rule_id), "support": list(support)}


# --------------------------------------------------------------------------- counterfactuals


@dataclass(frozen=True)
class Counterfactual:
    """The fewest feature changes (to values seen in training) that flip the decision.

    `found` is False when no flip exists within `max_changes` (`message` says so). `changes`
    maps feature → (old, new); `alternatives` lists every flip with the same number of
    changes, best first (the furthest past 0.5, then feature order, then value order).
    """

    query: dict[str, str]
    positive: bool
    bounds: Bounds  # unpacks as (lower, upper), as the tuple it was
    found: bool
    n_changes: int | None
    changes: dict[str, tuple[str, str]]
    new_query: dict[str, str]
    new_bounds: Bounds | None
    alternatives: list[dict[str, Any]]
    evaluated: int
    max_changes: int
    truncated: bool
    message: str

    def to_dict(self) -> dict[str, Any]:
        return _jsonable({f: getattr(self, f) for f in self.__dataclass_fields__})


def counterfactual(
    kb: KB,
    q: Any,
    max_changes: int = 3,
    semantics: str = "auto",
    max_rows: int = 200_000,
    features: Sequence[str] | None = None,
    threshold: float = 0.5,
) -> Counterfactual:
    """Fewest changes of the query's known features (restricted to `features` if given), each
    to another value of the feature's training domain, that flip the decision (positive iff
    the mean of the bounds is above `threshold`: the paper's 0.5, or an estimator's). Search
    by number of changes (1, 2, …, `max_changes`), every candidate row of a level answered in
    one `query_many` batch; stops early (`truncated`) if a level would exceed `max_rows`
    rows."""
    max_changes = checked_int("max_changes", max_changes, 1)
    max_rows = checked_int("max_rows", max_rows, 1)
    sem = resolve_semantics(kb, semantics)
    pq = prepare_query(kb, q)
    names = [f for f, c in zip(kb.features, pq.codes) if c != OPEN]
    base = {f: pq.values[f] for f in names}
    if features is not None:
        unknown = [f for f in features if f not in base]
        if unknown:
            raise DataError(f"features {unknown} are not known in the query ({names})")
        names = [f for f in names if f in set(features)]
    b0 = query(kb, base | dict(pq.atoms), semantics=sem)
    pos0 = bool(b0.mean > threshold + TIE_EPS)
    alts = {f: [v for v in kb.domains[f] if v != base[f]] for f in names}
    evaluated, truncated = 0, False
    for m in range(1, max_changes + 1):
        rows: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        size = sum(math.prod(len(alts[f]) for f in fs) for fs in itertools.combinations(names, m))
        if size == 0:
            continue
        if evaluated + size > max_rows:
            truncated = True
            break
        for fs in itertools.combinations(names, m):
            for vs in itertools.product(*(alts[f] for f in fs)):
                rows.append((fs, vs))
        col = {f: j for j, f in enumerate(kb.features)}
        arr = np.empty((len(rows), len(kb.features)), dtype=object)
        arr[:] = np.array([base.get(f) for f in kb.features], dtype=object)[None, :]
        for i, (fs, vs) in enumerate(rows):
            for f, v in zip(fs, vs):
                arr[i, col[f]] = v
        frame = pd.DataFrame(arr, columns=list(kb.features))
        if pq.atoms:
            ba = [query(kb, frame.iloc[i].dropna().to_dict() | dict(pq.atoms), semantics=sem)
                  for i in range(len(frame))]
            lo = np.array([x.lower for x in ba])
            hi = np.array([x.upper for x in ba])
        else:
            res = query_many(kb, frame, semantics=sem)
            lo, hi = res.lower, res.upper
        evaluated += len(rows)
        mean = (lo + hi) / 2
        flips = (mean > threshold + TIE_EPS) != pos0
        if not flips.any():
            continue
        idx = np.flatnonzero(flips)
        margin = np.round(np.where(pos0, mean[idx], -mean[idx]), DECIMALS)  # smaller = better
        order = idx[np.argsort(margin, kind="stable")]  # rows were generated in feature/value order
        alternatives = [
            {"changes": {f: (base[f], v) for f, v in zip(*rows[i])},
             "lower": _clean(lo[i]), "upper": _clean(hi[i]), "mean": _clean(mean[i])}
            for i in order
        ]
        best = alternatives[0]
        new_q = dict(base) | {f: nv for f, (_, nv) in best["changes"].items()}
        return Counterfactual(
            query=base, positive=pos0, bounds=_clean_bounds(b0), found=True,
            n_changes=m, changes=best["changes"], new_query=new_q,
            new_bounds=Bounds(best["lower"], best["upper"], semantics=b0.semantics),
            alternatives=alternatives,
            evaluated=evaluated, max_changes=max_changes, truncated=False,
            message=f"{counted(m, 'change')} {verb(m, 'flips', 'flip')} the decision to "
                    f"{'negative' if pos0 else 'positive'}",
        )
    what = f"no flip within {counted(max_changes, 'change')}"
    if truncated:
        what += f" (search stopped after {evaluated} rows: the next level exceeds max_rows)"
    return Counterfactual(
        query=base, positive=pos0, bounds=_clean_bounds(b0), found=False,
        n_changes=None, changes={}, new_query=dict(base), new_bounds=None, alternatives=[],
        evaluated=evaluated, max_changes=max_changes, truncated=truncated, message=what,
    )


__all__ = [
    "TIE_BREAK",
    "Candidate",
    "citable",
    "known_k",
    "idle_features",
    "idle_said",
    "lower_k",
    "nothing_to_explain_said",
    "citable_count",
    "mentioned_features",
    "settling",
    "uncited_said",
    "Counterfactual",
    "Explanation",
    "ShapleyValues",
    "start_value",
    "counterfactual",
    "evidence",
    "explain",
    "explain_all",
    "explain_many",
    "explanation_accuracy",
    "shapley",
]
