"""Answer a query: the lower and upper bound of ω(POS), the decision, and the evidence.

The query fixes literals (Algorithm 4); clauses are then substituted:
* a clause with a literal the query makes true is forced to ω(c) = 1 (a constant cost);
* a clause whose remaining literals are only POS (¬POS) becomes a *median term*
  `w |ω(POS) − p|` (`w |ω(POS) − (1 − p)|`);
* a clause with a literal on something the query leaves open needs the LP.
When no clause needs the LP, the optimal set of ω(POS) is the interval of weighted medians of
the targets (design.md §1) and no solver runs (`method="median"`). Otherwise the reduced
problem goes to the cvxpy LP (`method="lp"`). `method="lp"` forces the LP for every query.

Semantics: "relevant" (Algorithm 5) keeps only clauses whose feature literals the query
settles; "full" keeps the whole KB. "auto" is relevant for Direct KBs, full otherwise.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .clause import PRIOR_ID
from .encoding import is_missing, value_str
from .errors import DataError, SolverError
from .index import subset_plan
from .kb import KB, POS, WeightedClause
from .lp import ReducedProblem, solve_bounds
from .median import (
    counted_medians,
    equal_weight_medians,
    weighted_median,
    weighted_median_intervals,
)
from .notes import pool_map
from .plurals import counted, verb
from .rulecheck import unused_rules_said, warn_unused_rules

TIE_EPS = 1e-9  # |mean − 0.5| within this is a tie; ties are reported negative (paper: > 0.5)
UNSEEN = -2  # code of a query value never seen in training
OPEN = -1


@dataclass(frozen=True)
class Evidence:
    """The clauses that bear on ω(POS), with their value at the reported optimum.

    `clause` indexes the KB (learned rows first, then `kb.extra`); `target` is the ω(POS) a
    median term pulls towards (NaN for LP clauses that are not median terms).
    """

    clause: np.ndarray
    p: np.ndarray
    w: np.ndarray
    omega: np.ndarray
    target: np.ndarray

    @property
    def overridden(self) -> np.ndarray:
        return np.abs(self.omega - self.p) > 1e-7

    def frame(self, kb: KB) -> pd.DataFrame:
        texts = [kb.clause(int(i)).to_text() for i in self.clause]
        return pd.DataFrame(
            {
                "clause_id": self.clause,
                "clause": texts,
                "p": self.p,
                "w": self.w,
                "omega": self.omega,
                "target": self.target,
                "overridden": self.overridden,
                "support": [kb.clause(int(i)).support for i in self.clause],
            }
        )


@dataclass(frozen=True)
class ReadAs:
    """Cells of `feature` written `written` that the KB lacks as written, read as its value
    `value` (`encoding.value_twin`: the same number or text up to case and spaces), in `rows`
    rows. Reported, never silent: the answer uses `value`."""

    feature: str
    written: str
    value: str
    rows: int


def merge_read_as(groups: Sequence[Sequence[ReadAs]]) -> tuple[ReadAs, ...]:
    """The `ReadAs` of several blocks (or ensemble members) as one, rows summed per cell."""
    total: dict[tuple[str, str, str], int] = {}
    for group in groups:
        for r in group:
            key = (r.feature, r.written, r.value)
            total[key] = total.get(key, 0) + r.rows
    return tuple(ReadAs(f, w, v, n) for (f, w, v), n in total.items())


def read_as_note(read_as: Sequence[ReadAs], limit: int = 5) -> str:
    """One line naming the values read as the KB's value written otherwise ("" when none):
    the one wording of the CLI's stderr, the estimator's warning and the dashboard's note."""
    if not read_as:
        return ""
    shown = "; ".join(f"column {r.feature!r}: {r.written!r} read as {r.value!r} "
                      f"({r.rows} row{'s' if r.rows != 1 else ''})" for r in read_as[:limit])
    more = f"; and {len(read_as) - limit} more" if len(read_as) > limit else ""
    return f"values written otherwise than in training, read as the same value: {shown}{more}"


def unseen_note(cells: Mapping[str, int], n_rows: int, limit: int = 5, where: str = "") -> str:
    """One line naming the values the model never saw ("" when none), most rows first, each
    `feature='value' ×rows`; they are answered as missing: the one wording of `plx predict`'s
    stderr and the estimator's warning. `where` says where the rows are marked."""
    if not cells:
        return ""
    top = sorted(cells.items(), key=lambda kv: -kv[1])
    shown = ", ".join(f"{c} ×{n:,}" for c, n in top[:limit])
    more = f" and {len(top) - limit} more" if len(top) > limit else ""
    return (f"{counted(n_rows, 'row')} {verb(n_rows, 'holds', 'hold')} values the model never saw, answered as missing{where}: "
            f"{shown}{more}")


def unseen_cells(b: BoundsArray, X: pd.DataFrame) -> dict[str, int]:
    """`feature='value'` → rows, for the cells of X (the rows `b` answers, columns by name)
    whose value the KB never saw: one count per distinct value, no per-row Python."""
    out: dict[str, int] = {}
    for j in np.unique(b.unseen_cols):
        f = b.features[int(j)]
        cells = pd.Series(X[f].to_numpy(dtype=object)[b.unseen_rows[b.unseen_cols == j]],
                          dtype=object)
        for v, n in cells.value_counts(sort=False).items():
            key = f"{f}={value_str(v)!r}"
            out[key] = out.get(key, 0) + int(n)
    return out


@dataclass(frozen=True, eq=False)
class Bounds:
    """ω(POS) ∈ [lower, upper], and how it was found when it answers a query.

    The one bounds type: `query` fills every field; explanations, their candidates and
    counterfactuals report sub-query bounds as `Bounds(lower, upper, …)` with the details they
    know (the others keep their defaults: method "" = not reported, n_relevant -1 = not
    counted). For this release a Bounds also behaves as the tuple (lower, upper): it unpacks,
    indexes, has length 2 and equals that tuple.
    """

    lower: float
    upper: float
    method: str = ""  # "median" | "lp" ("" where not reported)
    semantics: str = ""  # "relevant" | "full"
    inconsistency: float = math.nan
    n_relevant: int = -1
    evidence: Evidence | None = None
    omega: float = math.nan  # ω(POS) at the optimum the evidence is reported for
    unseen: dict[str, str] = field(default_factory=dict)
    unknown: tuple[str, ...] = ()
    forced: int = 0  # clauses the query forces to a constant (full semantics)
    ignored: dict[str, str] = field(default_factory=dict)  # query names the KB does not know
    read_as: tuple[ReadAs, ...] = ()  # values the KB lacks as written, read as its own value

    def __iter__(self):
        yield self.lower
        yield self.upper

    def __len__(self) -> int:
        return 2

    def __getitem__(self, i):
        return (self.lower, self.upper)[i]

    def _key(self) -> tuple:
        nan = lambda v: None if isinstance(v, float) and math.isnan(v) else v  # noqa: E731
        return (self.lower, self.upper, self.method, self.semantics, nan(self.inconsistency),
                self.n_relevant, nan(self.omega), tuple(sorted(self.unseen.items())),
                self.unknown, self.forced)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, tuple):
            return (self.lower, self.upper) == other
        if isinstance(other, Bounds):
            return self is other or self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.lower, self.upper))

    @property
    def mean(self) -> float:
        return (self.lower + self.upper) / 2.0

    @property
    def tie(self) -> bool:
        return abs(self.mean - 0.5) <= TIE_EPS

    @property
    def positive(self) -> bool:
        return self.mean > 0.5 + TIE_EPS

    @property
    def no_evidence(self) -> bool:
        return self.n_relevant == 0

    @property
    def overridden(self) -> np.ndarray:
        """KB indices of the clauses whose ω(c) ≠ p at the reported optimum."""
        if self.evidence is None:
            return np.zeros(0, dtype=np.int64)
        return self.evidence.clause[self.evidence.overridden]

    def summary(self) -> str:
        verdict = "tie (reported negative)" if self.tie else ("positive" if self.positive else "negative")
        note = " — no evidence" if self.no_evidence else ""
        return (f"ω(POS) ∈ [{self.lower:.4g}, {self.upper:.4g}] → {verdict} "
                f"({self.method}, {self.n_relevant} relevant clauses){note}")


# --------------------------------------------------------------------------- query input


@dataclass(frozen=True)
class PreparedQuery:
    codes: np.ndarray  # per KB feature: value code, OPEN, or UNSEEN
    atoms: dict[str, bool]  # plain atoms fixed by the query
    unseen: dict[str, str]
    values: dict[str, str]  # known feature values as strings
    ignored: dict[str, str] = field(default_factory=dict)  # names no clause can mention
    read_as: tuple[ReadAs, ...] = ()  # "TRUE" read as the KB's "True" (value_twin)


def prepare_query(kb: KB, q: Any) -> PreparedQuery:
    """Normalise a dict / Series / sequence into codes. A name the KB does not know (not a
    feature, not an atom of a clause) cannot move ω(POS): it is left out and reported in
    `ignored` (a hand-written KB of a few rules is queried with a whole record)."""
    if isinstance(q, pd.Series):
        q = q.to_dict()
    elif isinstance(q, pd.DataFrame):
        if len(q) != 1:
            raise DataError(f"a query is one row; got {len(q)} rows (use predict for many)")
        q = q.iloc[0].to_dict()
    elif not isinstance(q, Mapping):
        seq = list(q)
        if len(seq) != len(kb.features):
            raise DataError(
                f"a query given as a sequence needs {len(kb.features)} values (features "
                f"{list(kb.features)}), got {len(seq)}"
            )
        q = dict(zip(kb.features, seq))
    codes = np.full(len(kb.features), OPEN, dtype=np.int64)
    atoms: dict[str, bool] = {}
    unseen: dict[str, str] = {}
    values: dict[str, str] = {}
    ignored: dict[str, str] = {}
    read_as: list[ReadAs] = []
    positions = kb.feature_positions()
    domains = kb.domains
    plain: set[str] | None = None
    for name, value in q.items():
        if type(name) is not str:
            name = str(name)
        if type(value) is not str and is_missing(value):
            continue
        if name in domains:
            s = value if type(value) is str else value_str(value)
            values[name] = s
            dom = domains[name]
            j = positions[name]
            try:
                codes[j] = dom.index(s)
            except ValueError:
                twin = kb.twins(name).find(s)  # "2" where the KB learned "2.0": the same value
                codes[j] = UNSEEN if twin is None else twin
                if twin is None:
                    unseen[name] = s
                else:
                    read_as.append(ReadAs(name, s, dom[twin], 1))
            continue
        plain = _plain_atoms(kb) if plain is None else plain
        if name == POS:
            raise DataError("a query cannot fix POS itself; it is what the query asks for")
        if name not in plain:
            ignored[name] = value if type(value) is str else value_str(value)
            continue
        atoms[name] = _truth(name, value)
    return PreparedQuery(codes, atoms, unseen, values, ignored, tuple(read_as))


def _unknown(kb: KB, name: str) -> DataError:
    feats = list(kb.features)
    shown = feats[:20] + (["…"] if len(feats) > 20 else [])
    return DataError(f"unknown feature {name!r} in the query; the KB has features {shown}")


def _truth(name: str, value: Any) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    s = str(value).strip().lower()
    if s in ("1", "true", "t", "yes"):
        return True
    if s in ("0", "false", "f", "no"):
        return False
    raise DataError(f"atom {name!r} takes true/false in a query, got {value!r}")


def _plain_atoms(kb: KB) -> set[str]:
    return {lit.atom for c in kb.extra for lit in c.literals if not lit.is_feature and not lit.is_class}


# --------------------------------------------------------------------------- main entry


def query(
    kb: KB,
    q: Any,
    semantics: str = "auto",
    method: str = "auto",
    domain_constraint: bool = False,
    time_limit: float | None = 60.0,
) -> Bounds:
    """Bounds of ω(POS) for query `q` (dict feature → value; None/NaN = unknown).

    `semantics`: "relevant" | "full" | "auto"; `method`: "auto" (exact median when possible,
    LP otherwise) | "lp" (always the cvxpy LP); `domain_constraint` adds Σ_v ω(a=v) = 1 for
    features the query leaves open (a variant of the full semantics, not in the paper).
    """
    sem = resolve_semantics(kb, semantics)
    if method not in ("auto", "lp"):
        raise DataError(f"method must be 'auto' or 'lp', got {method!r}")
    warn_unused_rules(kb)  # a rule on a value the model lacks never fires: say so
    pq = prepare_query(kb, q)
    red = reduce_kb(kb, pq, sem)
    unknown = tuple(kb.features[j] for j in np.flatnonzero(pq.codes == OPEN))
    if method == "auto" and len(red.lp_rows) == 0 and not red.lp_extra:
        lower, upper = weighted_median(red.med_target, red.med_w)
        omega = (lower + upper) / 2.0
        cost = float(red.med_w @ np.abs(omega - red.med_target)) + red.constant
        ev = Evidence(red.med_clause, red.med_p, red.med_w,
                      np.where(red.med_head > 0, omega, 1.0 - omega), red.med_target)
        return Bounds(lower, upper, "median", sem, _clean(cost), len(red.med_clause), ev, omega,
                      pq.unseen, unknown, red.forced, pq.ignored, pq.read_as)
    rp, ids, heads = build_problem(kb, pq, red, all_clauses=(method == "lp"),
                                   domain_constraint=domain_constraint)
    sol = solve_bounds(rp, time_limit=time_limit)
    x0 = float(sol.x[0]) if len(sol.x) else 0.0
    if method == "lp":
        omega_c = sol.c
        target = np.where(heads["kind"] == 1, np.where(heads["head"] > 0, rp.p, 1 - rp.p), np.nan)
        ev = Evidence(ids, rp.p, rp.w, omega_c, target)
    else:
        med_omega = np.where(red.med_head > 0, x0, 1.0 - x0)
        ev = Evidence(
            np.concatenate([red.med_clause, ids]),
            np.concatenate([red.med_p, rp.p]),
            np.concatenate([red.med_w, rp.w]),
            np.concatenate([med_omega, sol.c]),
            np.concatenate([red.med_target, np.full(len(ids), np.nan)]),
        )
    n_rel = len(red.med_clause) + len(ids) if method != "lp" else len(ids)
    return Bounds(sol.lower, sol.upper, "lp", sem, _clean(sol.optimum), n_rel, ev, x0,
                  pq.unseen, unknown, red.forced, pq.ignored, pq.read_as)


def _clean(v: float) -> float:
    return float(round(v, 9)) + 0.0


def resolve_semantics(kb: KB, semantics: str) -> str:
    if semantics == "auto":
        return "relevant" if kb.kind == "direct" else "full"
    if semantics not in ("relevant", "full"):
        raise DataError(f"semantics must be 'relevant', 'full' or 'auto', got {semantics!r}")
    return semantics


# --------------------------------------------------------------------------- reduction


@dataclass
class Reduction:
    """The KB after substituting the query (see module docstring)."""

    med_clause: np.ndarray
    med_p: np.ndarray
    med_w: np.ndarray
    med_head: np.ndarray
    med_target: np.ndarray
    lp_rows: list[int] | np.ndarray  # learned rows with open literals (full semantics)
    lp_extra: list[tuple[int, WeightedClause, list]]  # (extra index, clause, open literals)
    constant: float
    forced: int


def subset_sums(v: np.ndarray) -> np.ndarray:
    """Σ of v over every subset, in mask order (entry m sums the v_i with bit i of m set).

    The two halves' sums are combined by one outer addition, so a 10-item query costs two
    32 × 5 products instead of a 1,023 × 10 one."""
    k = len(v)
    full = subset_plan(k, tuple(range(1, k + 1))).keys(np.asarray(v, np.int64)[None, :])[0]
    return np.concatenate([[0], full])


SUBSET_LIMIT = 1 << 20
"""Most subsets of one query looked up in the index; beyond (or beyond 4 × the clauses) the
KB is scanned instead: a Tree KB's long paths over 30 known features would need C(30, ≤ 10)."""


def use_subsets(kb: KB, k: int) -> bool:
    """Whether a query knowing k features finds its relevant clauses faster by looking up its
    subsets (of the KB's clause lengths only) than by scanning the KB's clauses."""
    if k == 0 or kb.n_learned == 0:
        return True
    n = kb.index().n_subsets(k)
    return n <= SUBSET_LIMIT and n <= 4 * max(kb.n_learned, 1)


def relevant_positions(kb: KB, qcodes: np.ndarray) -> np.ndarray | None:
    """Key-order index positions of the learned rows whose body ⊆ the query, in subset order
    (deterministic), or None when scanning the KB is the better way (`use_subsets`)."""
    known = np.flatnonzero(qcodes >= 0)
    if len(known) == 0 or kb.n_learned == 0:
        return np.zeros(0, np.int64)
    if not use_subsets(kb, len(known)):
        return None
    return kb.index().relevant(np.asarray(qcodes)[None, :], known)[1]


def learned_terms(kb: KB, rows: np.ndarray | None = None, pos: np.ndarray | None = None):
    """(rows, p, w, head, target) of learned clauses given by KB row or by key-order position;
    by position the index's key-order targets and constant columns spare random gathers."""
    if pos is None:
        p, head = kb.p[rows], kb.head[rows].astype(np.int64)
        return rows, p, kb.w[rows], head, np.where(head > 0, p, 1.0 - p)
    idx = kb.index()
    rows = idx.order[pos]
    target = idx.target[pos]
    n = len(pos)
    w = np.full(n, idx.w_const) if idx.w_const is not None else kb.w[rows]
    if idx.head_const is not None:
        head = np.full(n, idx.head_const, np.int64)
        p = target if idx.head_const > 0 else 1.0 - target
    else:
        head = kb.head[rows].astype(np.int64)
        p = kb.p[rows]
    return rows, p, w, head, target


def present_literals(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(row, feature) of every entry ≥ 0 of a code matrix, row-major (features ascending within
    a row). Sparse matrices are scanned 8 bytes at a time: -1 is all ones in two's complement,
    so only words that are not all ones can hold a literal."""
    codes = np.ascontiguousarray(codes)
    F = codes.shape[1] if codes.ndim == 2 else 0
    flat = codes.reshape(-1)
    per = 8 // flat.itemsize if flat.itemsize in (1, 2, 4, 8) else 0
    if per and flat.size >= 64:
        cut = flat.size - flat.size % per
        hit = np.flatnonzero(flat[:cut].view(np.uint64) != np.uint64(0xFFFFFFFFFFFFFFFF))
        if len(hit) * 4 < cut // per:  # sparse enough for the word scan to pay
            cand = np.concatenate([(hit[:, None] * per + np.arange(per)).ravel(),
                                   np.arange(cut, flat.size)])
            pos = cand[flat[cand] >= 0]
            return pos // F, pos % F
    r, f = np.nonzero(codes >= 0)
    return r, f


def scan_rows(kb: KB, qcodes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Classify learned rows: (true-literal mask, open-literal mask, body ⊆ query mask)."""
    m = kb.n_learned
    r, f = present_literals(kb.codes)
    qc = qcodes[f]
    known = qc != OPEN
    true_lit = known & (kb.codes[r, f] != qc)
    has_true = np.bincount(r[true_lit], minlength=m) > 0
    has_open = np.bincount(r[~known], minlength=m) > 0
    return has_true, has_open, ~has_true & ~has_open


def reduce_kb(kb: KB, pq: PreparedQuery, sem: str) -> Reduction:
    qcodes = pq.codes
    lp_rows: np.ndarray = np.zeros(0, np.int64)
    constant, forced = 0.0, 0
    pos = None
    if sem == "relevant" and use_subsets(kb, int((qcodes >= 0).sum())):
        pos = relevant_positions(kb, qcodes)
        rows = None
    else:
        has_true, has_open, inside = scan_rows(kb, qcodes)
        rows = np.flatnonzero(inside)
        if sem == "full":
            lp_rows = np.flatnonzero(~has_true & has_open)
            forced = int(has_true.sum())
            constant += float(kb.w[has_true] @ (1.0 - kb.p[has_true]))
    rows, mp, mw, mh, target = learned_terms(kb, rows, pos)
    if not kb.extra:  # the common case, without copies
        return Reduction(rows, mp, mw, mh, target, lp_rows, [], constant, forced)
    med_clause = [rows]
    med_p = [mp]
    med_w = [mw]
    med_head = [mh]
    lp_extra: list[tuple[int, WeightedClause, list]] = []
    extra_med: list[tuple[int, float, float, int]] = []
    for j, c in enumerate(kb.extra):
        if not c.enabled:
            continue
        state, rest = substitute(kb, c, pq)
        if state == "true":
            if sem == "full":
                constant += c.w * (1.0 - c.p)
                forced += 1
        elif state == "false":
            constant += c.w * c.p
            forced += 1
        elif state == "median":
            extra_med.append((kb.n_learned + j, c.p, c.w, rest[0]))
        elif state == "open" and sem == "full":
            lp_extra.append((kb.n_learned + j, c, rest))
        elif state == "class-both":
            lp_extra.append((kb.n_learned + j, c, rest))
    if (extra_med and len(rows) == 0 and len(lp_rows) == 0 and not lp_extra
            and all(kb.extra[int(t[0]) - kb.n_learned].id == PRIOR_ID for t in extra_med)):
        extra_med = []  # a prior shifts evidence; alone it is no evidence (`prior_alone`)
    if extra_med:
        arr = np.array(extra_med, dtype=float)
        med_clause.append(arr[:, 0].astype(np.int64))
        med_p.append(arr[:, 1])
        med_w.append(arr[:, 2])
        med_head.append(arr[:, 3].astype(np.int64))
    mc = np.concatenate(med_clause)
    mp = np.concatenate(med_p)
    mw = np.concatenate(med_w)
    mh = np.concatenate(med_head)
    target = np.where(mh > 0, mp, 1.0 - mp)
    return Reduction(mc, mp, mw, mh, target, lp_rows, lp_extra, constant, forced)


def substitute(kb: KB, c: WeightedClause, pq: PreparedQuery) -> tuple[str, list]:
    """State of a general clause under the query: 'true' (forced 1), 'false' (forced 0),
    'median' (only ±POS left; rest = [head]), 'class-both' (POS and ¬POS left), or 'open'
    (rest = remaining literals as (kind, key, negated))."""
    rest: list = []
    for lit in c.literals:
        if lit.is_class:
            rest.append(("class", POS, lit.negated))
            continue
        if lit.is_feature:
            j = kb.feature_positions()[lit.atom]
            qc = pq.codes[j]
            if qc == OPEN:
                rest.append(("feature", (lit.atom, lit.value), lit.negated))
                continue
            holds = qc >= 0 and kb.domains[lit.atom][qc] == lit.value
        else:
            if lit.atom not in pq.atoms:
                rest.append(("atom", lit.atom, lit.negated))
                continue
            holds = pq.atoms[lit.atom]
        if holds != lit.negated:
            return "true", []
    if not rest:
        return "false", []
    if all(r[0] == "class" for r in rest):
        signs = {r[2] for r in rest}
        if len(signs) == 2:
            return "class-both", rest
        return "median", [(-1 if rest[0][2] else 1)]
    return "open", rest


# --------------------------------------------------------------------------- LP building


def build_problem(
    kb: KB, pq: PreparedQuery, red: Reduction, all_clauses: bool, domain_constraint: bool
) -> tuple[ReducedProblem, np.ndarray, dict[str, np.ndarray]]:
    """The reduced LP: open learned rows and open extra clauses as clauses; median terms as
    cost terms on ω(POS), or (all_clauses=True) as one-literal clauses too.

    Learned rows are converted without a dense copy: only their literals on open features are
    read (`present_literals`), each becoming `¬a=v` after the row's ±POS head."""
    atom_ids: dict[Any, int] = {POS: 0}

    def aid(key: Any) -> int:
        if key not in atom_ids:
            atom_ids[key] = len(atom_ids)
        return atom_ids[key]

    lens, atoms, negs, ps, ws, ids, kinds, heads = [], [], [], [], [], [], [], []
    rows = np.asarray(red.lp_rows, dtype=np.int64)
    if len(rows):
        r_idx, f_idx = present_literals(kb.codes[rows])
        keep = pq.codes[f_idx] == OPEN
        r_idx, f_idx = r_idx[keep], f_idx[keep]
        offsets = np.concatenate([[0], np.cumsum([len(kb.domains[f]) for f in kb.features])])
        gkey = offsets[f_idx] + kb.codes[rows[r_idx], f_idx].astype(np.int64)
        uniq, inv = np.unique(gkey, return_inverse=True)
        base = len(atom_ids)
        feat_of = np.searchsorted(offsets, uniq, "right") - 1
        for g, f in zip(uniq.tolist(), feat_of.tolist()):  # one entry per distinct open atom
            name = kb.features[f]
            atom_ids[(name, kb.domains[name][g - offsets[f]])] = len(atom_ids)
        n_lit = np.bincount(r_idx, minlength=len(rows)) + 1
        ptr = np.concatenate([[0], np.cumsum(n_lit)])
        at = np.empty(int(ptr[-1]), np.int64)
        ng = np.empty(int(ptr[-1]), bool)
        at[ptr[:-1]] = 0
        ng[ptr[:-1]] = kb.head[rows] < 0
        rank = np.arange(len(r_idx)) - np.searchsorted(r_idx, r_idx)  # place within its row
        body_pos = ptr[r_idx] + 1 + rank
        at[body_pos] = base + inv.ravel()
        ng[body_pos] = True
        lens.append(n_lit)
        atoms.append(at)
        negs.append(ng)
        ps.append(kb.p[rows])
        ws.append(kb.w[rows])
        ids.append(rows)
        kinds.append(np.zeros(len(rows), np.int64))
        heads.append(kb.head[rows].astype(np.int64))
    for gid, c, rest in red.lp_extra:
        atoms.append(np.array([0 if kind == "class" else aid(key) for kind, key, _ in rest], np.int64))
        negs.append(np.array([neg for _, _, neg in rest], bool))
        lens.append(np.array([len(rest)]))
        ps.append(np.array([c.p]))
        ws.append(np.array([c.w]))
        ids.append(np.array([gid]))
        kinds.append(np.zeros(1, np.int64))
        heads.append(np.array([c.head]))
    med_t, med_w = red.med_target, red.med_w
    if all_clauses and len(red.med_clause):
        n = len(red.med_clause)
        atoms.append(np.zeros(n, np.int64))
        negs.append(red.med_head < 0)
        lens.append(np.ones(n, np.int64))
        ps.append(red.med_p)
        ws.append(red.med_w)
        ids.append(red.med_clause)
        kinds.append(np.ones(n, np.int64))
        heads.append(red.med_head)
        med_t, med_w = np.zeros(0), np.zeros(0)
    groups: list[np.ndarray] = []
    if domain_constraint:
        for f, qc in zip(kb.features, pq.codes):
            if qc == OPEN and any(isinstance(k, tuple) and k[0] == f for k in atom_ids):
                groups.append(np.array([aid((f, v)) for v in kb.domains[f]]))

    def cat(xs: list, dt: Any) -> np.ndarray:
        return np.concatenate(xs).astype(dt) if xs else np.zeros(0, dt)

    rp = ReducedProblem(
        n_atoms=len(atom_ids),
        indptr=np.concatenate([[0], np.cumsum(cat(lens, np.int64))]).astype(np.int64),
        atom=cat(atoms, np.int64),
        negated=cat(negs, bool),
        p=cat(ps, float),
        w=cat(ws, float),
        med_target=med_t,
        med_w=med_w,
        constant=red.constant,
        groups=tuple(groups),
    )
    return rp, cat(ids, np.int64), {"kind": cat(kinds, np.int64), "head": cat(heads, np.int64)}


# --------------------------------------------------------------------------- medians


# --------------------------------------------------------------------------- many queries


@dataclass(frozen=True)
class BoundsArray:
    """Bounds for many queries: arrays aligned with the rows asked about.

    `unseen_rows` / `unseen_cols` are the (row, feature position) pairs whose value was never
    seen in training (answered as unknown); `ignored` the columns the KB does not know."""

    lower: np.ndarray
    upper: np.ndarray
    method: np.ndarray  # "median" | "lp" per row
    features: tuple[str, ...] = ()
    unseen_rows: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    unseen_cols: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    ignored: tuple[str, ...] = ()
    read_as: tuple[ReadAs, ...] = ()
    # (row, reason) of the rows that could not be answered (the LP failed on them): their
    # bounds are NaN and their method "failed"; every other row is answered
    failed: tuple[tuple[int, str], ...] = ()
    # several classes: per row the number this class is compared by when it is not `mean` (a
    # vote's own probability, `vote.kb_probability`); None: the mean (`compared_by`)
    vote: np.ndarray | None = None

    @classmethod
    def concat(cls, parts: Sequence[BoundsArray]) -> BoundsArray:
        """The bounds of consecutive blocks of rows as one array (unseen rows re-numbered)."""
        starts = np.cumsum([0] + [len(p.lower) for p in parts[:-1]])
        return cls(np.concatenate([p.lower for p in parts]),
                   np.concatenate([p.upper for p in parts]),
                   np.concatenate([p.method for p in parts]), parts[0].features,
                   np.concatenate([p.unseen_rows + a for p, a in zip(parts, starts)]),
                   np.concatenate([p.unseen_cols for p in parts]), parts[0].ignored,
                   merge_read_as([p.read_as for p in parts]),
                   tuple((int(r + a), why) for p, a in zip(parts, starts) for r, why in p.failed),
                   None if parts[0].vote is None else np.concatenate([p.vote for p in parts]))

    @property
    def compared_by(self) -> np.ndarray:
        """The number several classes are compared by, per row: the vote's probability where
        the KB is a vote's (`vote`), else the mean of the bounds; NaN where the LP failed."""
        if self.vote is None:
            return self.mean
        return np.where(np.isnan(self.mean), np.nan, self.vote)

    @property
    def notes(self) -> np.ndarray:
        """Per row, why it was not answered ("" for every row that was; `failed_notes`)."""
        return failed_notes([self])

    @property
    def mean(self) -> np.ndarray:
        return (self.lower + self.upper) / 2.0

    @property
    def positive(self) -> np.ndarray:
        return self.mean > 0.5 + TIE_EPS

    @property
    def tie(self) -> np.ndarray:
        return np.abs(self.mean - 0.5) <= TIE_EPS

    @property
    def n_unseen(self) -> np.ndarray:
        """Per row, how many of its values were never seen in training."""
        return np.bincount(self.unseen_rows, minlength=len(self.lower))

    def unseen_features(self, i: int) -> tuple[str, ...]:
        """The features of row i whose value was never seen in training."""
        return tuple(self.features[j] for j in self.unseen_cols[self.unseen_rows == i])


def encode_rows(kb: KB, X: Any) -> np.ndarray:
    """Query codes for many rows (columns matched by name; absent columns are unknown, columns
    the KB does not know are left out)."""
    return encode_query_rows(kb, X)[0]


def encode_query_rows(kb: KB, X: Any) -> tuple[np.ndarray, tuple[str, ...], tuple[ReadAs, ...]]:
    """(codes, ignored columns, values read as the KB's value written otherwise) for many
    rows. Each column is factorised once, so the Python work is per distinct value, not per
    cell."""
    from .encoding import as_frame, check_categorical

    frame = as_frame(X, features=kb.features)
    positions = kb.feature_positions()
    ignored = tuple(str(c) for c in frame.columns if str(c) not in positions)
    codes = np.full((len(frame), len(kb.features)), OPEN, dtype=np.int64)
    read_as: list[ReadAs] = []
    for col in frame.columns:
        name = str(col)
        if name not in positions:
            continue
        series = frame[col]
        if pd.api.types.is_float_dtype(series.dtype):
            check_categorical(frame[[col]])  # refuses non-categorical floats, naming the column
        fcodes, uniques = pd.factorize(series, use_na_sentinel=True)
        uniques = np.asarray(uniques, dtype=object)
        bad = [v for v in uniques if isinstance(v, float) and not math.isnan(v)
               and not float(v).is_integer()]
        if bad:
            check_categorical(frame[[col]])  # names the row
        dom = kb.domains[name]
        lookup = {v: k for k, v in enumerate(dom)}

        twins: dict[int, str] = {}  # unique position → its written value, read as a twin

        def code(i: int, v: Any, name=name, lookup=lookup, twins=twins) -> int:
            s = value_str(v)
            if s in lookup:
                return lookup[s]
            twin = kb.twins(name).find(s)  # 2 (or "2") where the KB learned "2.0"
            if twin is None:
                return UNSEEN
            twins[i] = s
            return twin

        ucodes = np.array([OPEN if is_missing(v) else code(i, v) for i, v in enumerate(uniques)]
                          + [OPEN], dtype=np.int64)  # [-1] → missing
        codes[:, positions[name]] = ucodes[fcodes]
        if twins:
            counts = np.bincount(fcodes[fcodes >= 0], minlength=len(uniques))
            read_as += [ReadAs(name, s, dom[ucodes[i]], int(counts[i])) for i, s in twins.items()]
    return codes, ignored, merge_read_as([read_as])  # 2 and "2" in one column: one entry


def recode_rows(kb: KB, codes: np.ndarray, features: Sequence[str], domains: Mapping
                ) -> tuple[np.ndarray, tuple[str, ...], tuple[ReadAs, ...]] | None:
    """`encode_query_rows(kb, frame)` of a frame already encoded — `codes` (−1 missing) over
    `features` and `domains`, every value of the frame in its domain, as `encoding.encode`
    gives them — by mapping each domain's values to `kb`'s, not by reading every cell again;
    None (read them) where a value `kb` lacks has a twin in it (`encode_query_rows` reads it
    as that twin, and says so), or the frame lacks one of `kb`'s features."""
    positions = kb.feature_positions()
    if any(f not in features for f in kb.features):
        return None
    out = np.full((len(codes), len(kb.features)), OPEN, dtype=np.int64)
    for j, f in enumerate(features):
        if f not in positions:
            continue
        lookup = {v: k for k, v in enumerate(kb.domains[f])}
        to = np.array([lookup.get(v, UNSEEN) for v in domains[f]] + [OPEN], dtype=np.int64)
        col = np.asarray(codes[:, j], dtype=np.int64)
        held = np.unique(col[col >= 0])
        if any(kb.twins(f).find(domains[f][i]) is not None for i in held if to[i] == UNSEEN):
            return None
        out[:, positions[f]] = to[col]  # −1 (missing) reads the last entry: OPEN
    ignored = tuple(str(f) for f in features if f not in positions)
    return out, ignored, merge_read_as([[]])


BATCH_PAIRS = 1 << 20
"""(row, subset) keys looked up per chunk of `query_many`: bounds its memory (~60 MB a chunk
whatever the number of rows)."""
COUNT_VALUES = 0.5
"""Rows are answered by counting target ranks (`median.counted_medians`) when the KB's distinct
targets are at most this many times the subsets a row looks up (the counts cost B × values,
the partition B × subsets; measured: 3× faster at 0.45 — 30 features, max_len 3 —, 1.5×
slower at 1.8 — Syn 10/4). With rules the alternative is the general sort, so counting is
used up to `COUNT_VALUES_RULES` times."""
COUNT_VALUES_RULES = 8
SCAN_CELLS = 1 << 22
"""(row, clause) cells per chunk when the KB is scanned instead (few clauses, long bodies)."""


def n_workers(n_jobs: int | None) -> int:
    """Threads for batched answers: numpy releases the GIL in the sorts, searches and gathers
    that dominate them, and threads share the KB's index where processes would copy it."""
    if n_jobs is None or n_jobs <= 0:
        return max(1, os.cpu_count() or 1)
    return int(n_jobs)


ROW_BLOCK = 100_000
"""Rows of a table encoded and answered at a time by `query_many` (the codes and per-row
work arrays of one block; the lookups inside are chunked again by `BATCH_PAIRS`)."""


def query_many(kb: KB, X: Any, semantics: str = "auto", method: str = "auto",
               n_jobs: int | None = None) -> BoundsArray:
    """Bounds for every row of X. Rows are encoded and answered `ROW_BLOCK` at a time; within
    a block, rows the exact median answers are batched: grouped by which features they know,
    cut into chunks of at most `BATCH_PAIRS` lookups (memory does not grow with the rows), and
    the chunks answered on `n_jobs` threads (None: every core). Rules are evaluated
    column-wise; rows where a clause needs the LP go through `query` one by one."""
    sem = resolve_semantics(kb, semantics)
    if method not in ("auto", "lp"):
        raise DataError(f"method must be 'auto' or 'lp', got {method!r}")
    with unused_rules_said(kb):  # once for the batch, not again for each row the LP answers
        if not isinstance(X, pd.DataFrame) or len(X) <= ROW_BLOCK:
            return _query_block(kb, X, sem, method, n_jobs)
        return BoundsArray.concat([_query_block(kb, X.iloc[a:a + ROW_BLOCK], sem, method,
                                                n_jobs) for a in range(0, len(X), ROW_BLOCK)])


def _query_block(kb: KB, X: Any, sem: str, method: str, n_jobs: int | None) -> BoundsArray:
    """`query_many` on one block of rows."""
    codes, ignored, read_as = encode_query_rows(kb, X)
    n = len(codes)
    lower, upper = np.zeros(n), np.ones(n)
    meth = np.full(n, "median", dtype=object)
    slow = np.zeros(n, dtype=bool)
    if method == "auto":
        if sem == "full":  # an open feature may leave a clause for the LP
            slow |= (codes == OPEN).any(axis=1)
        rq, rt, rw, rule_slow = _rule_terms(kb, codes, sem)
        slow |= rule_slow
        tasks = _batch_tasks(kb, codes, slow)
        rules = _RuleTerms(rq, rt, rw, n)
        scan = _ScanIncidence(kb) if any(not t[2] for t in tasks) else None
        counted = bool(tasks) and _countable(kb)

        def run(task: tuple[np.ndarray, np.ndarray, bool]) -> None:
            rows, known, subsets = task
            lo, hi = _chunk_bounds(kb, codes[rows], known, subsets, rules.of(rows), scan,
                                   counted)
            lower[rows], upper[rows] = lo, hi

        workers = min(n_workers(n_jobs), len(tasks))
        if workers > 1:
            with ThreadPoolExecutor(workers) as pool:
                pool_map(pool, run, tasks)
        else:
            pool_map(None, run, tasks)
        bare = prior_alone(kb, codes, rq, lower, upper) & ~slow
        lower[bare], upper[bare] = 0.0, 1.0  # what the KB answers without the prior
    else:
        slow[:] = True
    failed = []
    for i in np.flatnonzero(slow):
        q = {f: (kb.domains[f][c] if c >= 0 else None) for f, c in zip(kb.features, codes[i])}
        try:
            b = query(kb, {f: v for f, v in q.items() if v is not None} | _unseen_of(kb, codes[i]),
                      semantics=sem, method=method)
        except SolverError as exc:  # this row only: NaN with its reason, the others go on
            lower[i], upper[i], meth[i] = np.nan, np.nan, "failed"
            failed.append((int(i), str(exc)))
            continue
        lower[i], upper[i], meth[i] = b.lower, b.upper, b.method
    ur, uc = np.nonzero(codes == UNSEEN)
    return BoundsArray(lower, upper, meth, tuple(kb.features), ur, uc, ignored, read_as,
                       tuple(failed))


def uninformed_rows(lower: Sequence[np.ndarray], upper: Sequence[np.ndarray],
                    voted: bool) -> np.ndarray:
    """Per row whether nothing the model knows bears on it: the bounds [0, 1] (one array per
    KB: one for a binary model; several classes: every class's, where votes decide such rows
    by their priors (`voted`) — else all tie at 0.5 and the class order decides, a tie, said
    with the ties). One rule for `plx predict` and `PLXClassifier.predict`."""
    bare = [(np.asarray(lo, float) <= 0) & (np.asarray(hi, float) >= 1)
            for lo, hi in zip(lower, upper)]
    if len(bare) == 1:
        return bare[0]
    if not voted:
        return np.zeros(len(bare[0]), dtype=bool)
    return np.logical_and.reduce(bare)


def uninformed_note(n: int, first: int | str, threshold: float | None, decided: str) -> str:
    """The one wording for rows answered [0, 1] (no clause bears on them: every value missing,
    unseen or unused), whose decision the threshold alone makes — never silently; `first`: the
    first such row's number, or its name (`data.row_name`); `threshold` None: several classes
    voted, every class's KB [0, 1], their votes' priors decide (`vote.kb_probability`)."""
    by = (f"the threshold {threshold:g} alone decides" if threshold is not None else
          "the classes' vote priors alone decide")
    return (f"{counted(n, 'row')} {verb(n, 'gets', 'get')} the bounds [0, 1]"
            + ("" if threshold is not None else " from every class") + ": nothing the model "
            f"knows bears on them (their values missing, unseen or unused), so {by} "
            f"them: {decided} (e.g. {first if isinstance(first, str) else f'row {first}'})")


class UninformedRows(UserWarning):
    """The note that rows got the bounds [0, 1] (`uninformed_note`: nothing the model knows
    bears on them, so the threshold, or the classes' vote priors, alone decides them), warned
    by `PLXClassifier.predict`, `predict_proba` and `bounds` as `plx predict` says it, with the
    count and the first row's position as data (`rows`, `first`). Filter it as any warning:
    `warnings.simplefilter("ignore", UninformedRows)`."""

    def __init__(self, rows: int, first: int, threshold: float | None, decided: str):
        super().__init__(uninformed_note(rows, first, threshold, decided))
        self.rows, self.first = int(rows), int(first)


def failed_notes(parts: Sequence[BoundsArray], names: Sequence[Any] | None = None) -> np.ndarray:
    """Per row, why some KB's LP failed on it ("" for a row every KB answered): the reasons of
    the KBs `parts` (one per class when `names` gives the classes: "class 'A': why"), joined
    with "; " — one entry per row, so a row several classes failed on counts once."""
    said: dict[int, dict[str, None]] = {}  # per row its reasons, each once, in order
    for j, b in enumerate(parts):
        for r, why in b.failed:
            said.setdefault(int(r), {})[why if names is None else f"class {names[j]!r}: {why}"] = None
    out = np.full(len(parts[0].lower) if parts else 0, "", dtype=object)
    for r, texts in said.items():
        out[r] = "; ".join(texts)
    return out


def failed_rows_note(n: int, first: str, decided: str) -> str:
    """The one wording for rows the LP failed on, wherever a batch reports them (`PLXClassifier`,
    `plx predict`): how many, what was done with them, and the first with its reason."""
    return f"{counted(n, 'row')} could not be answered (NaN bounds; {decided}), e.g. {first}"


class UnansweredRows(UserWarning):
    """The note that a batch left rows unanswered (`failed_rows_note`), with how many as data
    (`rows`): whoever counts them (`plx compare`) reads the number, never the sentence."""

    def __init__(self, rows: int, first: str, decided: str):
        super().__init__(failed_rows_note(rows, first, decided))
        self.rows = int(rows)


def unanswered(notes: np.ndarray, decided: str, name: Any = None) -> UnansweredRows | None:
    """The note for the rows a batch could not answer, from their per-row reasons
    (`failed_notes`; "" for a row answered), or None when every row was: rows counted, the
    first named by `name(position)` ("row 3" by default) — every path (predict, explain, the
    CLI, Dask, the dashboard) says it from here, so "N rows" means N rows everywhere."""
    hit = np.flatnonzero(np.asarray(notes, dtype=object) != "")
    if not len(hit):
        return None
    first = int(hit[0])
    said = name(first) if name is not None else f"row {first}"
    return UnansweredRows(len(hit), f"{said}: {notes[first]}", decided)


def _batch_tasks(kb: KB, codes: np.ndarray, slow: np.ndarray
                 ) -> list[tuple[np.ndarray, np.ndarray, bool]]:
    """Chunks (rows, known features, by subsets?) of the rows answered without the LP: rows
    that know the same features share a subset plan; chunks hold ≤ BATCH_PAIRS lookups."""
    fast = np.flatnonzero(~slow)
    if not len(fast):
        return []
    known = codes[fast] >= 0
    if known.shape[1] <= 62:  # a row's pattern as one integer: a 1-D unique, not a row sort
        pattern = known @ (np.int64(1) << np.arange(known.shape[1], dtype=np.int64))
        _, first, inv = np.unique(pattern, return_index=True, return_inverse=True)
        groups = known[first]
    else:
        groups, inv = np.unique(known, axis=0, return_inverse=True)
    inv = inv.ravel()
    order = np.argsort(inv, kind="stable")
    bounds = np.searchsorted(inv[order], np.arange(len(groups) + 1))
    tasks = []
    R = max(kb.n_learned, 1)
    idx = kb.index()
    for g, pattern in enumerate(groups):
        rows = fast[order[bounds[g]:bounds[g + 1]]]
        # rows in key order: neighbours share their leading values, so their subsets' keys
        # repeat or lie close in the index (its gathers hit the cache)
        rows = rows[np.argsort(idx.row_keys(codes[rows]), kind="stable")]
        cols = np.flatnonzero(pattern)
        subsets = use_subsets(kb, len(cols))
        per_row = kb.index().n_subsets(len(cols)) if subsets and kb.n_learned else R
        step = max(1, (BATCH_PAIRS if subsets else SCAN_CELLS) // max(per_row, 1))
        tasks.extend((rows[a:a + step], cols, subsets) for a in range(0, len(rows), step))
    return tasks


class _RuleTerms:
    """Median terms of the rules per row, handed out by chunk of rows."""

    def __init__(self, qid: np.ndarray, target: np.ndarray, weight: np.ndarray, n: int):
        order = np.argsort(qid, kind="stable")
        self.qid, self.target, self.weight = qid[order], target[order], weight[order]
        self.start = np.searchsorted(self.qid, np.arange(n + 1))

    def of(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(local row, target, weight) of the terms of `rows` (local = position in rows)."""
        if not len(self.qid):
            return np.zeros(0, np.int64), np.zeros(0), np.zeros(0)
        cnt = self.start[rows + 1] - self.start[rows]
        if not cnt.any():
            return np.zeros(0, np.int64), np.zeros(0), np.zeros(0)
        first = np.repeat(self.start[rows] - np.concatenate([[0], np.cumsum(cnt)[:-1]]), cnt)
        at = first + np.arange(int(cnt.sum()))
        return np.repeat(np.arange(len(rows)), cnt), self.target[at], self.weight[at]


class _ScanIncidence:
    """A KB's learned bodies as a value-incidence matrix (values × clauses, float32): a row's
    number of matching literals per clause is one product, for KBs of few clauses with long
    bodies (Tree KBs over many features) whose subsets are too many to enumerate."""

    def __init__(self, kb: KB):
        sizes = np.array([len(kb.domains[f]) for f in kb.features], dtype=np.int64)
        self.offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        D = int(sizes.sum())
        r, f = present_literals(kb.codes)
        self.matrix = sp.csr_matrix(  # clauses × values, one entry per literal
            (np.ones(len(r), np.float32), (r, self.offsets[f] + kb.codes[r, f])),
            shape=(kb.n_learned, D))
        self.lengths = kb.lengths.astype(np.float32)
        self.D = D

    def relevant(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(row, clause row) of every learned clause whose body ⊆ the row's known values."""
        r, f = np.nonzero(codes >= 0)
        onehot = np.zeros((self.D, len(codes)), dtype=np.float32)
        onehot[self.offsets[f] + codes[r, f], r] = 1.0
        match = self.matrix @ onehot  # clauses × rows: literals of each clause the row meets
        c, row = np.nonzero(match == self.lengths[:, None])
        o = np.lexsort((c, row))
        return row[o], c[o]


def _countable(kb: KB) -> bool:
    """Whether chunks may count target ranks (`median.counted_medians`): a dense index of
    equal-weight learned clauses, and rules (if any) whose weights are whole numbers like the
    clauses' weight, with any row's total ≤ 2^53 — exactly the case `weighted_median_intervals`
    sums without rounding, so both give the same answers. The rank table is built here, before
    the threads."""
    idx = kb.index()
    if idx.table is None or idx.w_const is None or kb.n_learned == 0:
        return False
    rw = np.array([c.w for c in kb.extra if c.enabled], dtype=float)
    if len(rw):
        w0 = idx.w_const
        if not (float(w0).is_integer() and np.all(rw == np.floor(rw))
                and idx.n * w0 + rw.sum() <= 2.0**53):
            return False
    return idx.rank_table is not None


def _chunk_bounds(kb: KB, codes: np.ndarray, known: np.ndarray, subsets: bool,
                  rules: tuple[np.ndarray, np.ndarray, np.ndarray], scan: _ScanIncidence | None,
                  counted: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Bounds of one chunk of rows (all knowing `known`): their relevant learned clauses by
    subset lookup or by scan, plus the rules' median terms, through the weighted medians."""
    B = len(codes)
    rq, rt, rw = rules
    if kb.n_learned == 0 or len(known) == 0:
        return weighted_median_intervals(rq, rt, rw, B)
    idx = kb.index()
    if subsets:
        limit = COUNT_VALUES_RULES if len(rq) else COUNT_VALUES
        if counted and len(idx.values) <= limit * idx.n_subsets(len(known)):
            return _counted_bounds(idx, codes, known, rules)
        if not len(rq) and idx.w_const is not None and idx.table is not None:
            return _dense_median_bounds(idx, codes, known)
        row, pos = idx.relevant(codes, known)
        if not len(rq) and idx.w_const is not None:
            return _equal_weight_bounds(idx, row, pos, B)
        _, _, w, _, target = learned_terms(kb, pos=pos)
    else:
        row, crow = scan.relevant(codes)
        _, _, w, _, target = learned_terms(kb, crow)
    return weighted_median_intervals(np.concatenate([row, rq]), np.concatenate([target, rt]),
                                     np.concatenate([w, rw]), B)


def _dense_median_bounds(idx, codes: np.ndarray, known: np.ndarray
                         ) -> tuple[np.ndarray, np.ndarray]:
    """Median intervals of equal-weight learned clauses through a dense index (positions in
    target order): a row's subsets give a row of positions (−1: no clause); the missing ones
    are split into pads below and above so that the middle of the padded row is the middle of
    the found ones, and one `np.partition` per chunk reads the medians — no compaction, no
    sort, one random gather per subset (the table)."""
    B = len(codes)
    plan = idx.plan(len(known))
    if plan.n == 0:  # every clause is longer than the row's known features: none is relevant
        return np.zeros(B), np.ones(B)
    qc = codes[:, known].astype(np.int64)
    P = np.empty((B, plan.n + (plan.n % 2 == 1)), dtype=idx.table.dtype)  # even width
    W = P.shape[1]
    P[:, : plan.n] = idx.table[idx.subset_keys(qc, known, plan)]
    P[:, plan.n:] = -1
    missing = P < 0
    c = W - missing.sum(axis=1)  # clauses found per row
    low = (W - 1) // 2 - (c - 1) // 2  # pads to put below (the rest go above)
    rank = np.cumsum(missing, axis=1, dtype=np.int32)
    high = missing & (rank > low[:, None])
    P[high] = idx.n  # above every position
    part = np.partition(P, ((W - 1) // 2, W // 2), axis=1)
    mid_lo = part[:, (W - 1) // 2]
    mid_hi = np.where(c % 2 == 1, mid_lo, part[:, W // 2])
    has = c > 0
    lower, upper = np.zeros(B), np.ones(B)
    lower[has] = idx.target[mid_lo[has]]
    upper[has] = idx.target[mid_hi[has]]
    return lower, upper


def _counted_bounds(idx, codes: np.ndarray, known: np.ndarray,
                    rules: tuple[np.ndarray, np.ndarray, np.ndarray]
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Median intervals of a chunk through the dense index's rank table: every subset's key
    (S × B, row copies), its clause's target rank (one gather), the ranks counted per row (one
    `bincount`), then the weighted median of the counts and the rules' terms
    (`median.counted_medians`) — no sort, no partition, no target gathered per clause."""
    B = len(codes)
    plan = idx.plan(len(known))
    keys = idx.subset_keys_t(codes[:, known].astype(np.int64), known, plan)
    V1 = len(idx.values) + 1
    flat = np.add(idx.rank_table[keys], (np.arange(B, dtype=np.intp) * V1)[None, :],
                  dtype=np.intp)
    counts = np.bincount(flat.ravel(), minlength=B * V1).reshape(B, V1)[:, 1:]
    if len(rules[0]):
        return counted_medians(counts, idx.values, int(idx.w_const), rules)
    return counted_medians(counts, idx.values)


def _equal_weight_bounds(idx, row: np.ndarray, pos: np.ndarray, B: int
                         ) -> tuple[np.ndarray, np.ndarray]:
    """Median intervals when every learned term has the same weight (ranks from the index)."""
    return equal_weight_medians(row, idx.rank[pos], idx.values, B)


def _rule_terms(kb: KB, codes: np.ndarray, sem: str):
    """Median terms the enabled `extra` clauses give each row, evaluated column-wise, and the
    rows where one of them needs the LP (see `substitute` for the cases)."""
    n = len(codes)
    qids, targets, weights = [np.zeros(0, np.int64)], [np.zeros(0)], [np.zeros(0)]
    slow = np.zeros(n, dtype=bool)
    for c in kb.extra:
        if not c.enabled:
            continue
        true = np.zeros(n, dtype=bool)
        open_ = np.zeros(n, dtype=bool)
        signs = set()
        for lit in c.literals:
            if lit.is_class:
                signs.add(lit.negated)
            elif lit.is_feature:
                j = kb.feature_positions()[lit.atom]
                col = codes[:, j]
                holds = col == kb.domains[lit.atom].index(lit.value)
                true |= (col != OPEN) & (holds != lit.negated)
                open_ |= col == OPEN
            else:  # a plain atom: rows of a table never fix it
                open_[:] = True
        live = ~true
        if sem == "full":
            slow |= live & open_
        live &= ~open_
        if len(signs) == 2:
            slow |= live
        elif len(signs) == 1:
            rows = np.flatnonzero(live)
            qids.append(rows)
            targets.append(np.full(len(rows), 1.0 - c.p if True in signs else c.p))
            weights.append(np.full(len(rows), c.w))
    return np.concatenate(qids), np.concatenate(targets), np.concatenate(weights), slow


def prior_alone(kb: KB, codes: np.ndarray, rule_rows: np.ndarray, lower: np.ndarray,
                upper: np.ndarray) -> np.ndarray:
    """Rows (bool) answered by prior clauses (id `PRIOR_ID`) alone: no learned clause is
    relevant to them and no other rule gives them a term. A prior moves the decision among the
    evidence's clause probabilities (`plx_core.variants`); a row that knows nothing the
    training rows showed has no evidence, so it must not be decided with certainty by a tuning
    device — such rows are answered as without the prior ([0, 1], no evidence). `rule_rows`:
    the row of every rule term (`_rule_terms`); `lower`/`upper` the answers with the prior
    (only rows answered exactly at a prior's target are looked up again)."""
    n = len(codes)
    priors = [c for c in kb.extra if c.enabled and c.id == PRIOR_ID]
    if not priors or n == 0:
        return np.zeros(n, dtype=bool)
    others = np.bincount(rule_rows, minlength=n) > len(priors)
    at = np.zeros(n, dtype=bool)
    for c in priors:
        at |= (lower == upper) & (lower == (1.0 - c.p if c.literals[0].negated else c.p))
    cand = np.flatnonzero(at & ~others)
    if not len(cand):
        return np.zeros(n, dtype=bool)
    from .variants import relevant_pairs  # variants builds on this module

    row, _ = relevant_pairs(kb, codes[cand])
    out = np.zeros(n, dtype=bool)
    out[cand] = np.bincount(row, minlength=len(cand)) == 0
    return out


def _unseen_of(kb: KB, row: np.ndarray) -> dict[str, str]:
    # an unseen value only has to differ from every known value; a reserved marker does
    return {f: "\x00unseen" for f, c in zip(kb.features, row) if c == UNSEEN}


def subquery_bounds(kb: KB, q: Any, masks: np.ndarray, semantics: str = "auto") -> BoundsArray:
    """Bounds of many sub-queries of one query: row s of `masks` (S × F bools) keeps the
    features of q it marks. Under the relevant semantics with no clause needing the LP, all
    sub-queries share q's relevant clauses (a clause is active when its features are kept),
    so they are answered together; otherwise each goes through `query`."""
    sem = resolve_semantics(kb, semantics)
    pq = prepare_query(kb, q)
    masks = np.asarray(masks, dtype=bool)
    S = len(masks)
    if sem == "relevant":
        red = reduce_kb(kb, pq, sem)
        if not red.lp_extra and len(red.lp_rows) == 0:
            tmask = np.zeros((len(red.med_clause), len(kb.features)), dtype=bool)
            learned = red.med_clause < kb.n_learned
            tmask[learned] = kb.codes[red.med_clause[learned]] >= 0
            for r in np.flatnonzero(~learned):
                c = kb.extra[int(red.med_clause[r]) - kb.n_learned]
                for lit in c.literals:
                    if lit.is_feature:
                        tmask[r, kb.feature_positions()[lit.atom]] = True
            # active[s, j]: clause j's features are all kept by sub-query s
            if len(kb.features) <= 62:
                bits = np.int64(1) << np.arange(len(kb.features), dtype=np.int64)
                tb, sb = tmask.astype(np.int64) @ bits, masks.astype(np.int64) @ bits
                active = (tb[None, :] & ~sb[:, None]) == 0
            else:
                active = ~(tmask[None, :, :] & ~masks[:, None, :]).any(axis=2)
            s_idx, j_idx = np.nonzero(active)
            lo, hi = weighted_median_intervals(s_idx, red.med_target[j_idx], red.med_w[j_idx], S)
            extra = np.flatnonzero(~learned)
            prior = np.zeros(len(red.med_clause), bool)
            prior[extra] = [kb.extra[int(red.med_clause[r]) - kb.n_learned].id == PRIOR_ID
                            for r in extra.tolist()]
            if prior.any():  # a prior alone is no evidence: [0, 1], as `query` answers it
                bare = np.bincount(s_idx[~prior[j_idx]], minlength=S) == 0
                lo, hi = np.where(bare, 0.0, lo), np.where(bare, 1.0, hi)
            return BoundsArray(lo, hi, np.full(S, "median", dtype=object))
    lower, upper, meth = np.zeros(S), np.ones(S), np.full(S, "median", dtype=object)
    values = {f: pq.values.get(f) for f in kb.features}
    atoms = dict(pq.atoms)
    for s in range(S):
        sub = {f: v for (f, v), keep in zip(values.items(), masks[s]) if keep and v is not None}
        b = query(kb, sub | {f: v for f, v in pq.unseen.items() if f in sub} | atoms, semantics=sem)
        lower[s], upper[s], meth[s] = b.lower, b.upper, b.method
    return BoundsArray(lower, upper, meth)
