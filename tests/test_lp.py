"""The LP path against Definition 3 written out independently in scipy.

The reference below follows the paper literally: one unknown per clause and per literal
(ω(z) and ω(¬z) both, tied by ω(z) + ω(¬z) = 1), Boole and monotonicity rows per clause, the
query as equality constraints (Algorithm 4: ω(a=v) = 1, ω(a=v') = 0 for the feature's other
known values), stage 1 min Σ w|ω(c) − p|, stage 2 min and max ω(POS) s.t. the objective stays
within 1e-9 of the optimum. None of `plx_core.lp`'s reformulations (no clause variables,
presolve, stage 2 on the optimal face) appear here.
"""

from __future__ import annotations

import functools
from unittest import mock

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paper import as_query, example2
from scipy.optimize import linprog

import plx_core.lp as lp
from plx_core import direct_kb
from plx_core.kb import KB, POS, Literal, WeightedClause
from plx_core.query import query

ATOMS = ("b1", "b2")  # plain propositional atoms of the general clauses
UNSEEN = "9"  # a query value outside every domain
HIGHS_OPTS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


# --------------------------------------------------------------------------- reference


def reference_bounds(
    features: tuple[str, ...],
    domains: dict[str, tuple[str, ...]],
    clauses: list[WeightedClause],
    q: dict,
    domain_constraint: bool = False,
) -> tuple[float, float, float]:
    """(lower, upper, optimum) of ω(POS) by Definition 3 + Algorithm 4 with scipy's linprog."""
    atoms: dict[tuple, int] = {}

    def atom(key: tuple) -> int:
        return atoms.setdefault(key, len(atoms))

    atom((POS, None))
    for f in features:
        for v in domains[f]:
            atom((f, v))
    for c in clauses:
        for lit in c.literals:
            atom((lit.atom, lit.value))
    A, m = len(atoms), len(clauses)
    # columns: ω(z) for atom z (A), ω(¬z) (A), ω(c) (m), t ≥ |ω(c) − p| (m)
    n = 2 * A + 2 * m

    def lit_col(lit: Literal) -> int:
        return atoms[(lit.atom, lit.value)] + (A if lit.negated else 0)

    ub_rows, ub_rhs, eq_rows, eq_rhs = [], [], [], []

    def row(entries: dict[int, float]) -> np.ndarray:
        r = np.zeros(n)
        for j, v in entries.items():
            r[j] += v
        return r

    for i, c in enumerate(clauses):
        ci, ti = 2 * A + i, 2 * A + m + i
        cols = sorted({lit_col(lit) for lit in c.literals})
        ub_rows.append(row({ci: 1.0} | {j: -1.0 for j in cols}))  # Boole: ω(c) ≤ Σ ω(z)
        ub_rhs.append(0.0)
        for j in cols:  # monotonicity: ω(c) ≥ ω(z)
            ub_rows.append(row({j: 1.0, ci: -1.0}))
            ub_rhs.append(0.0)
        ub_rows.append(row({ci: 1.0, ti: -1.0}))  # t ≥ ω(c) − p
        ub_rhs.append(c.p)
        ub_rows.append(row({ci: -1.0, ti: -1.0}))  # t ≥ p − ω(c)
        ub_rhs.append(-c.p)
    for k in range(A):  # ω(z) + ω(¬z) = 1
        eq_rows.append(row({k: 1.0, A + k: 1.0}))
        eq_rhs.append(1.0)
    for name, value in q.items():  # Algorithm 4
        if name in domains:
            for v in domains[name]:
                eq_rows.append(row({atoms[(name, v)]: 1.0}))
                eq_rhs.append(1.0 if v == str(value) else 0.0)
        else:
            eq_rows.append(row({atoms[(name, None)]: 1.0}))
            eq_rhs.append(1.0 if value else 0.0)
    if domain_constraint:  # the optional variant: Σ_v ω(a=v) = 1 for open features
        for f in features:
            if f not in q:
                eq_rows.append(row({atoms[(f, v)]: 1.0 for v in domains[f]}))
                eq_rhs.append(1.0)
    bounds = [(0.0, 1.0)] * (2 * A) + [(None, None)] * m + [(0.0, None)] * m
    cost = np.zeros(n)
    cost[2 * A + m:] = [c.w for c in clauses]
    A_ub = sp.csr_matrix(np.array(ub_rows)) if ub_rows else None
    A_eq = sp.csr_matrix(np.array(eq_rows))
    b_ub = np.array(ub_rhs) if ub_rows else None
    s1 = linprog(cost, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=np.array(eq_rhs), bounds=bounds,
                 method="highs", options=HIGHS_OPTS)
    assert s1.status == 0, s1.message
    A2 = sp.vstack([A_ub, sp.csr_matrix(cost)]) if A_ub is not None else sp.csr_matrix(cost)
    b2 = np.append(b_ub if b_ub is not None else [], s1.fun + 1e-9)
    out = []
    for sign in (1.0, -1.0):
        obj = np.zeros(n)
        obj[0] = sign
        s2 = linprog(obj, A_ub=A2, b_ub=b2, A_eq=A_eq, b_eq=np.array(eq_rhs), bounds=bounds,
                     method="highs", options=HIGHS_OPTS)
        assert s2.status == 0, s2.message
        out.append(s2.x[0])
    return out[0], out[1], s1.fun


# --------------------------------------------------------------------------- strategies

PROBS = st.sampled_from([0.0, 0.1, 0.25, 1 / 3, 0.5, 0.75, 0.9, 1.0]) | st.floats(0.0, 1.0)
WEIGHTS = st.sampled_from([1.0, 1.0, 1.0, 0.5, 2.0, 3.0])


@st.composite
def problems(draw):
    """(features, domains, clauses, query) for a small random KB."""
    n_feat = draw(st.integers(2, 4))
    features = tuple(f"a{i + 1}" for i in range(n_feat))
    domains = {f: tuple(str(v) for v in range(draw(st.integers(2, 3)))) for f in features}
    clauses: list[WeightedClause] = []
    for _ in range(draw(st.integers(1, 12))):  # learned form: ±POS ∨ ¬a=v ∨ …
        body = draw(st.lists(st.sampled_from(features), min_size=1, max_size=n_feat, unique=True))
        lits = [Literal(POS, None, draw(st.booleans()))]
        lits += [Literal(f, draw(st.sampled_from(domains[f])), True) for f in body]
        clauses.append(WeightedClause(tuple(lits), draw(PROBS), draw(WEIGHTS)))
    pool = [Literal(POS, None, False), Literal(POS, None, True)]
    pool += [Literal(f, v, neg) for f in features for v in domains[f] for neg in (False, True)]
    pool += [Literal(a, None, neg) for a in ATOMS for neg in (False, True)]
    for _ in range(draw(st.integers(0, 4))):  # general clauses: positive literals, plain atoms
        lits = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=4, unique=True))
        clauses.append(WeightedClause(tuple(lits), draw(PROBS), draw(WEIGHTS)))
    q: dict = {}
    for f in features:
        choice = draw(st.sampled_from(["open", "open", "value", "value", "unseen"]))
        if choice == "value":
            q[f] = draw(st.sampled_from(domains[f]))
        elif choice == "unseen":
            q[f] = UNSEEN
    used = {lit.atom for c in clauses for lit in c.literals}
    for a in ATOMS:
        if a in used and draw(st.booleans()):
            q[a] = draw(st.booleans())
    return features, domains, clauses, q


def make_kb(features, domains, clauses) -> KB:
    return KB(features, domains).add(clauses)


def check(features, domains, clauses, q, domain_constraint=False, **kw) -> None:
    kb = make_kb(features, domains, clauses)
    b = query(kb, q, semantics="full", method="lp", domain_constraint=domain_constraint, **kw)
    lo, hi, opt = reference_bounds(features, domains, clauses, q, domain_constraint)
    assert 0.0 <= b.lower <= b.upper <= 1.0
    assert b.lower == pytest.approx(lo, abs=1e-6)
    assert b.upper == pytest.approx(hi, abs=1e-6)
    assert b.inconsistency == pytest.approx(opt, abs=1e-6)


SETTINGS = settings(max_examples=80, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# --------------------------------------------------------------------------- properties


@SETTINGS
@given(problems())
def test_lp_bounds_match_definition_3(prob):
    check(*prob)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_domain_constraint_variant_matches_reference(prob):
    check(*prob, domain_constraint=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.sampled_from([{"presolve": False}, {"face": False},
                                    {"presolve": False, "face": False}]))
def test_presolve_and_face_do_not_change_the_answer(prob, switches):
    """The reformulations are exact: switching them off gives the reference answer too."""
    with mock.patch("plx_core.query.solve_bounds",
                    functools.partial(lp.solve_bounds, **switches)):
        check(*prob)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_untrusted_duals_fall_back_to_the_cost_row(prob):
    """When every dual looks ambiguous the classic stage 2 runs, with the same answer."""
    with mock.patch.object(lp, "DUAL_NONZERO", np.inf):
        check(*prob)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), st.randoms(use_true_random=False))
def test_answers_do_not_depend_on_clause_order(prob, rnd):
    features, domains, clauses, q = prob
    shuffled = list(clauses)
    rnd.shuffle(shuffled)
    a = query(make_kb(features, domains, clauses), q, semantics="full", method="lp")
    b = query(make_kb(features, domains, shuffled), q, semantics="full", method="lp")
    assert (a.lower, a.upper) == pytest.approx((b.lower, b.upper), abs=1e-7)
    assert a.inconsistency == pytest.approx(b.inconsistency, abs=1e-7)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_auto_method_agrees_with_the_lp(prob):
    features, domains, clauses, q = prob
    kb = make_kb(features, domains, clauses)
    a = query(kb, q, semantics="full")
    b = query(kb, q, semantics="full", method="lp")
    assert (a.lower, a.upper) == pytest.approx((b.lower, b.upper), abs=1e-7)
    assert a.inconsistency == pytest.approx(b.inconsistency, abs=1e-6)


@pytest.mark.parametrize("bits", ["0---", "-1--", "--0-", "01--", "0-1-", "--01", "010-", "0101"])
def test_direct_kb_full_semantics_matches_reference(bits):
    """The Direct KB under partial queries: many clauses share their open literals, which the
    LP groups (one epigraph per literal set)."""
    X, y = example2()
    kb = direct_kb(X, y)
    q = {f: v for f, v in as_query(bits).items() if v is not None}
    b = query(kb, q, semantics="full", method="lp")
    lo, hi, opt = reference_bounds(kb.features, kb.domains, list(kb), q)
    assert (b.lower, b.upper) == pytest.approx((lo, hi), abs=1e-6)
    assert b.inconsistency == pytest.approx(opt, abs=1e-6)


# --------------------------------------------------------------------------- solve_bounds


def random_sparse_problem(seed: int, m: int = 300, n: int = 250) -> lp.ReducedProblem:
    """The benchmark's shape in small: POS ∨ ¬x_1 ∨ … with 1–4 body atoms, many private."""
    rng = np.random.default_rng(seed)
    lens = rng.integers(1, 5, m)
    atom, neg = [], []
    for k in lens:
        atom += [0, *(1 + rng.choice(n, k, replace=False))]
        neg += [bool(rng.integers(0, 2) and seed % 2), *([True] * k)]
    p = rng.choice([0.0, 0.2, 0.5, 0.8, 1.0], m) if seed % 3 == 0 else rng.random(m)
    return lp.ReducedProblem(
        n_atoms=n + 1, indptr=np.concatenate([[0], np.cumsum(lens + 1)]),
        atom=np.array(atom), negated=np.array(neg), p=p, w=rng.choice([1.0, 2.0], m),
        med_target=rng.random(5), med_w=np.ones(5),
    )


@pytest.mark.parametrize("seed", range(6))
def test_solution_is_a_feasible_optimum_of_definition_3(seed):
    """x and c returned are a point of Definition 3's LP whose cost is the reported optimum,
    with and without the presolve; all variants report the same bounds."""
    rp = random_sparse_problem(seed)
    rows = np.repeat(np.arange(rp.n_clauses), np.diff(rp.indptr))
    answers = []
    for kw in ({}, {"presolve": False}, {"face": False}):
        s = lp.solve_bounds(rp, **kw)
        lit = np.where(rp.negated, 1.0 - s.x[rp.atom], s.x[rp.atom])
        assert np.all((s.x >= -1e-9) & (s.x <= 1 + 1e-9))
        assert np.all(lit <= s.c[rows] + 1e-9)  # monotonicity
        assert np.all(s.c <= np.bincount(rows, lit, rp.n_clauses) + 1e-9)  # Boole
        cost = rp.w @ np.abs(s.c - rp.p) + rp.med_w @ np.abs(s.x[0] - rp.med_target)
        assert cost == pytest.approx(s.optimum, abs=1e-7)
        answers.append((s.lower, s.upper, s.optimum))
    for a in answers[1:]:
        assert a == pytest.approx(answers[0], abs=1e-7)


def test_presolve_removes_private_atoms_and_their_boole_rows():
    # [0.3] POS ∨ ¬x1 and [0.6] POS ∨ ¬x2 ∨ ¬x3 lose x1, x3 (private) and their Boole rows;
    # then x2 is only in rows t ≥ l − p ([0.0] POS ∨ ¬x2 has no Boole row) and is fixed true:
    # everything but POS goes, and the answer is unchanged
    rp = lp.ReducedProblem(
        n_atoms=4, indptr=np.array([0, 2, 5, 7]), atom=np.array([0, 1, 0, 2, 3, 0, 2]),
        negated=np.array([False, True, False, True, True, False, True]),
        p=np.array([0.3, 0.6, 0.0]), w=np.ones(3),
    )
    core = lp._core(rp, presolve=True)
    assert list(core.atoms) == [0]
    full = lp.solve_bounds(rp, presolve=False)
    fast = lp.solve_bounds(rp)
    assert (fast.lower, fast.upper, fast.optimum) == pytest.approx(
        (full.lower, full.upper, full.optimum), abs=1e-9)


def test_no_clauses_leaves_pos_free():
    rp = lp.ReducedProblem(n_atoms=1, indptr=np.zeros(1, np.int64), atom=np.zeros(0, np.int64),
                           negated=np.zeros(0, bool), p=np.zeros(0), w=np.zeros(0))
    s = lp.solve_bounds(rp)
    assert (s.lower, s.upper, s.optimum) == (0.0, 1.0, 0.0)


def test_many_problems_in_one_lp_give_each_problems_bounds():
    """`solve_bounds_many` (one block-diagonal LP for many sub-queries) answers each problem as
    `solve_bounds` does on its own, inconsistency included."""
    import itertools

    import pandas as pd

    from plx_core.query import build_problem, prepare_query, reduce_kb
    from plx_core.tree import tree_kb

    rng = np.random.default_rng(4)
    codes = rng.integers(0, 3, (200, 8))
    y = ((codes[:, 0] == 1) ^ (codes[:, 3] > 0) | (codes[:, 5] == 2)).astype(int)
    X = pd.DataFrame(codes.astype(str), columns=[f"f{i}" for i in range(8)])
    kb = tree_kb(X, y, nodes="all")
    q = X.iloc[0].to_dict()
    rps = []
    for fs in itertools.chain(itertools.combinations(q, 1), itertools.combinations(q, 2)):
        pq = prepare_query(kb, {f: q[f] for f in fs})
        red = reduce_kb(kb, pq, "full")
        if len(red.lp_rows) or red.lp_extra:
            rps.append(build_problem(kb, pq, red, False, False)[0])
    assert len(rps) > 10
    many = lp.solve_bounds_many(rps)
    for rp, (lo, hi, opt) in zip(rps, many):
        one = lp.solve_bounds(rp)
        assert (lo, hi) == pytest.approx((one.lower, one.upper), abs=2e-7)
        assert opt == pytest.approx(one.optimum, abs=1e-6)
