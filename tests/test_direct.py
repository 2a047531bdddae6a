"""Direct KB (Algorithm 3): counts against brute force, max_len, missing values, bad input."""

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paper import example2

from plx_core import DataError, KBTooLargeError, direct_kb
from plx_core.direct import estimate_bytes


def brute_force(X: pd.DataFrame, y, max_len=None) -> dict:
    """Algorithm 3 as the paper writes it: a dict over every row's feature-value subsets."""
    counts: dict = {}
    for (_, row), label in zip(X.iterrows(), y):
        pairs = [(f, v) for f, v in row.items() if isinstance(v, str)]
        top = len(pairs) if max_len is None else min(max_len, len(pairs))
        for k in range(1, top + 1):
            for key in itertools.combinations(pairs, k):
                n, pos = counts.get(frozenset(key), (0, 0))
                counts[frozenset(key)] = (n + 1, pos + label)
    return counts


def as_dict(kb) -> dict:
    out = {}
    for i in range(kb.n_learned):
        c = kb.clause(i)
        key = frozenset((lit.atom, lit.value) for lit in c.literals if lit.is_feature)
        assert key not in out, "each body appears once in a Direct KB"
        out[key] = (c.support, c.positives)
        assert c.p == pytest.approx(c.positives / c.support)
    return out


def test_example2_has_the_paper_counts():
    X, y = example2()
    kb = direct_kb(X, y)
    assert kb.kind == "direct" and kb.positive == "1"
    d = as_dict(kb)
    assert d == brute_force(X, y)
    assert d[frozenset({("a1", "0")})] == (3, 1)  # [0.33] POS ∨ ¬a1=0 of Example 7
    assert d[frozenset({("a4", "1")})] == (1, 1)
    assert len(kb) == 59


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(st.lists(st.sampled_from(["x", "y", "z", None]), min_size=3, max_size=3),
                  min_size=2, max_size=20),
    labels=st.data(),
    max_len=st.sampled_from([None, 1, 2]),
)
def test_counts_equal_brute_force(rows, labels, max_len):
    X = pd.DataFrame(rows, columns=["f1", "f2", "f3"])
    y = labels.draw(st.lists(st.integers(0, 1), min_size=len(rows), max_size=len(rows)))
    y[0], y[-1] = 0, 1
    if X.isna().all().any():
        X = X.fillna("x")
    kb = direct_kb(X, y, max_len=max_len)
    assert as_dict(kb) == brute_force(X, y, max_len)


def test_many_features_fall_back_to_per_subset_counting():
    # 70 binary features need more than 62 bits of packed key: the fallback must agree
    rng = np.random.default_rng(1)
    X = pd.DataFrame(rng.integers(0, 2, (30, 70)).astype(str), columns=[f"f{i}" for i in range(70)])
    y = rng.integers(0, 2, 30)
    kb = direct_kb(X, y, max_len=2)
    assert as_dict(kb) == brute_force(X, y, 2)
    from plx_core import query

    b = query(kb, X.iloc[0].to_dict())
    assert b.method == "median" and b.n_relevant == 70 + 70 * 69 // 2


def test_memory_guard_says_what_to_do():
    X = pd.DataFrame(np.zeros((100_000, 24), dtype=int).astype(str))
    X.columns = [f"f{i}" for i in range(24)]
    y = np.arange(100_000) % 2
    with pytest.raises(KBTooLargeError, match=r"pass max_len=\d") as err:
        direct_kb(X, y)
    assert "GiB" in str(err.value)
    assert estimate_bytes(100_000, 24, 2) < estimate_bytes(100_000, 24, None)


def test_bad_input_is_named():
    X, y = example2()
    with pytest.raises(DataError, match="column 'a1' holds non-categorical floats"):
        direct_kb(X.assign(a1=[0.5] * 8), y)
    with pytest.raises(DataError, match="no rows"):
        direct_kb(X.iloc[:0], [])
    with pytest.raises(DataError, match="only one class"):
        direct_kb(X, [1] * 8)
    with pytest.raises(DataError, match="pass positive="):
        direct_kb(X, ["a", "b", "c", "a", "b", "c", "a", "b"])
    with pytest.raises(DataError, match="pass positive="):
        direct_kb(X, ["sick", "well"] * 4)
    assert direct_kb(X, ["sick", "well"] * 4, positive="sick").positive == "sick"
    assert direct_kb(X, ["yes", "no"] * 4).positive == "yes"  # no/yes goes without saying
    with pytest.raises(DataError, match="missing in row"):
        direct_kb(X, [1, None, 1, 1, 0, 0, 0, 0])
    with pytest.raises(DataError, match="max_len"):
        direct_kb(X, y, max_len=0)
    with pytest.raises(DataError, match="duplicate column"):
        direct_kb(pd.concat([X, X[["a1"]]], axis=1), y)
    with pytest.raises(DataError, match="8 rows but y has 7"):
        direct_kb(X, y[:7])
