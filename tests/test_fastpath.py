"""Property tests: the exact weighted-median path equals the LP, and answers do not depend on
row or clause order."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plx_core import KB, Literal, WeightedClause, direct_kb, query
from plx_core.query import query_many
from plx_core.tree import tree_kb

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def datasets(draw):
    n_feat = draw(st.integers(2, 4))
    n_val = draw(st.integers(2, 3))
    n = draw(st.integers(4, 24))
    rows = draw(st.lists(st.lists(st.integers(0, n_val - 1), min_size=n_feat, max_size=n_feat),
                         min_size=n, max_size=n))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    if len(set(y)) < 2:
        y[0], y[-1] = 0, 1
    X = pd.DataFrame(np.array(rows).astype(str), columns=[f"a{i + 1}" for i in range(n_feat)])
    # a query: each feature a seen value, an unseen value, or unknown
    q = {}
    for f in X.columns:
        choice = draw(st.integers(0, n_val + 1))
        q[f] = None if choice == n_val else ("9" if choice == n_val + 1 else str(choice))
    return X, y, q


@st.composite
def rules(draw, features):
    out = []
    for _ in range(draw(st.integers(0, 3))):
        body = draw(st.lists(st.sampled_from(features), min_size=1, max_size=2, unique=True))
        lits = [Literal("POS", None, draw(st.booleans()))]
        lits += [Literal(f, str(draw(st.integers(0, 2))), True) for f in body]
        out.append(WeightedClause(tuple(lits), p=draw(st.sampled_from([0.0, 0.2, 0.5, 0.9, 1.0])),
                                  w=draw(st.sampled_from([0.5, 1.0, 3.0])), source="rule"))
    return out


def close(a, b):
    return a.lower == pytest.approx(b.lower, abs=2e-7) and a.upper == pytest.approx(b.upper, abs=2e-7)


@SETTINGS
@given(data=datasets(), extra=st.data())
def test_median_equals_lp_on_direct_kbs(data, extra):
    X, y, q = data
    kb = direct_kb(X, y)
    kb.add(extra.draw(rules(list(X.columns))))
    fast = query(kb, q)
    lp = query(kb, q, method="lp")
    assert fast.method == "median" and lp.method == "lp"
    assert close(fast, lp), (fast.summary(), lp.summary())
    assert fast.inconsistency == pytest.approx(lp.inconsistency, abs=1e-6)
    assert 0.0 <= fast.lower <= fast.upper <= 1.0


@SETTINGS
@given(data=datasets())
def test_full_semantics_auto_equals_lp(data):
    X, y, q = data
    kb = direct_kb(X, y)
    auto = query(kb, q, semantics="full")
    lp = query(kb, q, semantics="full", method="lp")
    assert close(auto, lp), (auto.summary(), lp.summary())
    assert auto.inconsistency == pytest.approx(lp.inconsistency, abs=1e-6)


@SETTINGS
@given(data=datasets())
def test_tree_kb_full_queries_take_the_median_path(data):
    X, y, _ = data
    kb = tree_kb(X, y, nodes="all")
    q = X.iloc[0].to_dict()
    fast = query(kb, q)
    assert fast.method == "median"
    assert close(fast, query(kb, q, method="lp"))


@SETTINGS
@given(data=datasets(), seed=st.integers(0, 2**16))
def test_answers_do_not_depend_on_row_or_clause_order(data, seed):
    X, y, q = data
    kb = direct_kb(X, y)
    rng = np.random.default_rng(seed)
    perm = rng.permutation(len(X))
    shuffled_rows = direct_kb(X.iloc[perm].reset_index(drop=True), [y[i] for i in perm])
    order = rng.permutation(kb.n_learned)
    shuffled_clauses = KB(kb.features, kb.domains, kb.codes[order], kb.head[order], kb.p[order],
                          kb.w[order], kb.support[order], kb.positives[order], kb.source[order],
                          kind=kb.kind)
    a = query(kb, q)
    for other in (shuffled_rows, shuffled_clauses):
        b = query(other, q)
        assert (a.lower, a.upper) == (b.lower, b.upper)
    full_a = query(kb, q, semantics="full")
    full_b = query(shuffled_clauses, q, semantics="full")
    assert close(full_a, full_b)


@SETTINGS
@given(data=datasets(), extra=st.data(), semantics=st.sampled_from(["relevant", "full"]))
def test_batched_queries_equal_single_queries(data, extra, semantics):
    X, y, _ = data
    kb = direct_kb(X, y)
    kb.add(extra.draw(rules(list(X.columns))))
    Q = X.copy()
    Q.iloc[0, 0] = None
    Q.iloc[-1, -1] = "9"
    many = query_many(kb, Q, semantics=semantics)
    for i in range(len(Q)):
        row = {k: v for k, v in Q.iloc[i].to_dict().items()}
        one = query(kb, row, semantics=semantics)
        assert many.lower[i] == pytest.approx(one.lower, abs=2e-7), (i, one.summary())
        assert many.upper[i] == pytest.approx(one.upper, abs=2e-7), (i, one.summary())


@SETTINGS
@given(data=datasets(), extra=st.data(),
       exponent=st.floats(-12, 12, allow_nan=False, allow_infinity=False))
def test_bounds_do_not_depend_on_the_scale_of_the_weights(data, extra, exponent):
    """Multiplying every weight by one factor in [1e-12, 1e12] keeps every answer (issue 12)."""
    from dataclasses import replace

    X, y, q = data
    kb = direct_kb(X, y)
    kb.add(extra.draw(rules(list(X.columns))))
    factor = 10.0**exponent
    scaled = kb.copy()
    scaled.w = scaled.w * factor
    scaled.extra = [replace(c, w=c.w * factor) for c in scaled.extra]
    for semantics in ("relevant", "full"):
        a, b = query(kb, q, semantics=semantics), query(scaled, q, semantics=semantics)
        assert close(a, b), (semantics, a.summary(), b.summary())
    many_a, many_b = query_many(kb, X), query_many(scaled, X)
    assert np.array_equal(many_a.lower, many_b.lower)
    assert np.array_equal(many_a.upper, many_b.upper)
