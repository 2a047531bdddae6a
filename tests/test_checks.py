"""plx_core.checks: the public functions refuse a bad number in one wording, naming it."""

import numpy as np
import pandas as pd
import pytest

from plx_core import PLXClassifier, direct_kb, explain, tree_kb
from plx_core.curves import at_threshold
from plx_core.errors import DataError


@pytest.fixture(scope="module")
def table():
    rng = np.random.default_rng(7)
    X = pd.DataFrame({"a": rng.choice(list("xyz"), 60), "b": rng.choice(list("pq"), 60)})
    return X, (X["a"] == "x").astype(int)


def test_a_bad_whole_number_is_named_in_one_wording_wherever_it_is_given(table):
    X, y = table
    kb = direct_kb(X, y, positive=1)
    with pytest.raises(DataError, match=r"^max_depth must be a whole number ≥ 1 or None, got "
                                        r"True \(bool\)$"):
        tree_kb(X, y, positive=1, max_depth=True)
    with pytest.raises(DataError, match=r"^k must be a whole number, got '2' \(str\)$"):
        explain(kb, {"a": "x", "b": "p"}, k="2")
    with pytest.raises(DataError, match=r"^max_len must be a whole number ≥ 1 or None, got 0$"):
        PLXClassifier(kb="direct", max_len=0, positive=1).fit(X, y)
    with pytest.raises(DataError, match=r"^n_estimators must be a whole number ≥ 1, got 1.5 "):
        PLXClassifier(variant="bagged", n_estimators=1.5, positive=1).fit(X, y)


def test_a_bad_threshold_is_named_in_one_wording_wherever_it_is_given(table):
    X, y = table
    kb = direct_kb(X, y, positive=1)
    said = "threshold must be a number in [0, 1)"
    for odd in ("0.3", True, 1.0, float("nan")):
        with pytest.raises(DataError) as a:
            PLXClassifier(positive=1, threshold=odd).fit(X, y)
        with pytest.raises(DataError) as b:
            explain(kb, {"a": "x"}, threshold=odd)
        with pytest.raises(DataError) as c:
            at_threshold([True], [0.3], odd)
        assert str(a.value).startswith(said + " or None, got ")
        assert str(b.value) == str(c.value) == f"{said}, got {odd!r}"


def test_a_bad_random_state_is_named_before_the_fit(table):
    """trust23: random_state=-1 or 2^70 reached numpy deep in the search ("Seed must be between
    0 and 2**32 - 1"; `plx fit --random-state -1` ended in exit 1, a bug report)."""
    X, y = table
    for odd in (-1, 2**32, 2**70, 1.5, "3", True):
        with pytest.raises(DataError, match=r"^random_state must be a whole number from 0 to "
                                            r"4,294,967,295 or None, got "):
            PLXClassifier(positive=1, random_state=odd).fit(X, y)
    for fine in (None, 0, 2**32 - 1, np.int64(3), np.random.RandomState(0)):
        PLXClassifier(kb="direct", variant="paper", positive=1, random_state=fine).fit(X, y)
