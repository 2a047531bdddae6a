"""The global view aggregates the engine's own per-row answers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from paper import example2

from plx_core import DataError, direct_kb, explain, query, shapley
from plx_core.globalview import global_view, sample_rows


@pytest.fixture(scope="module")
def data():
    X, y = example2()
    return X, y, direct_kb(X, y, positive=1)


def test_counts_match_per_row_explanations(data):
    X, _, kb = data
    g = global_view(kb, X, k=1, max_rows=100)
    assert (g.n_rows, g.n_total) == (8, 8)
    expected: dict[str, int] = {}
    shap = {f: [] for f in kb.features}
    for _, row in X.iterrows():
        q = row.to_dict()
        for f in explain(kb, q, k=1).features:
            expected[f] = expected.get(f, 0) + 1
        for f, v in shapley(kb, q).as_dict().items():
            shap[f].append(abs(v))
    got = dict(zip(g.features["feature"], g.features["in_explanation"]))
    assert got == {f: expected.get(f, 0) for f in kb.features}
    mean_abs = dict(zip(g.features["feature"], g.features["mean_abs_shapley"]))
    for f in kb.features:
        assert mean_abs[f] == pytest.approx(np.mean(shap[f]))
    assert g.explanations["rows"].sum() == 8
    assert g.positive_rows == sum(query(kb, r.to_dict()).positive for _, r in X.iterrows())


def test_decisive_rules_are_the_ones_answers_sit_on(data):
    X, _, kb = data
    g = global_view(kb, X, k=2)
    top = g.rules.iloc[0]
    n = sum(int(top["clause_id"]) in set(query(kb, r.to_dict()).evidence.clause[
        ~query(kb, r.to_dict()).evidence.overridden]) for _, r in X.iterrows())
    assert top["decisive"] == n
    assert top["rule"].startswith("IF ")


def test_sample_is_bounded_seeded_and_said():
    X = pd.DataFrame({"a": list("01") * 50, "b": list("0011") * 25})
    y = [1 if a == "1" else 0 for a in X["a"]]
    kb = direct_kb(X, y, positive=1)
    g = global_view(kb, X, max_rows=10, random_state=3)
    assert g.n_rows == 10 and "a random sample of 10 of 100 rows" in g.summary()
    assert sample_rows(X, 10, 3).index.tolist() == sample_rows(X, 10, 3).index.tolist()
    with pytest.raises(DataError, match="max_rows"):
        global_view(kb, X, max_rows=0)
    one = global_view(kb, X.iloc[:1])  # a table of one row: said as one, not "all 1 rows"
    assert one.summary().startswith("Explained the 1 row ("), one.summary()
    assert global_view(kb, X.iloc[:2]).summary().startswith("Explained all 2 rows (")


def test_showcase_row_is_right_confident_and_positive():
    from plx_core.globalview import showcase_row

    y = [False, True, True, False, True]
    lo = [0.0, 0.9, 0.95, 0.0, 0.2]
    hi = [0.1, 1.0, 0.95, 0.0, 0.3]  # row 4 is a confident miss; row 2 a tight confident hit
    assert showcase_row(y, lo, hi) == 2
    assert showcase_row([False, False], [0.1, 0.0], [0.1, 0.0]) == 1
    assert showcase_row([True], [0.1], [0.2]) is None


def test_progress_counts_stop_keeps_rows_done_and_resumes(data):
    X, _, kb = data
    full = global_view(kb, X, k=1, max_rows=100)
    seen: list[tuple[int, int]] = []
    done: dict = {}
    part = global_view(kb, X, k=1, progress=lambda i, n: seen.append((i, n)),
                       stop=lambda: len(seen) >= 3, done=done)
    assert seen == [(1, 8), (2, 8), (3, 8)] and len(done) == 3
    assert (part.n_rows, part.n_planned, part.complete) == (3, 8, False)
    assert "Stopped after 3 of 8 rows" in part.summary()
    assert part.explanations["rows"].sum() == 3  # what it shows is the three rows done
    first3 = global_view(kb, X.iloc[:3], k=1)
    assert dict(zip(part.features["feature"], part.features["in_explanation"])) == \
        dict(zip(first3.features["feature"], first3.features["in_explanation"]))
    # starting again continues from row 4 and ends where a run without a stop ends
    seen.clear()
    kept = dict(done)
    again = global_view(kb, X, k=1, progress=lambda i, n: seen.append((i, n)), done=done)
    assert seen[-1] == (8, 8) and again.complete and len(done) == 8
    assert all(done[i] is part for i, part in kept.items())  # the 3 rows done are not redone
    pd.testing.assert_frame_equal(again.features, full.features)
    pd.testing.assert_frame_equal(again.rules, full.rules)
    assert again.summary() == full.summary()


def test_rows_are_decided_and_explained_at_the_threshold_that_answers():
    """Under a model that decides at t ≠ 0.5 (plx's default), the view counts the rows it
    decides positive at t and explains each on that side, as PLXClassifier.explain does."""
    rng = np.random.default_rng(7)
    X = pd.DataFrame({c: rng.choice(list("abc"), 120) for c in "pqrs"})
    y = ((X["p"] == "a") | ((X["q"] == "b") & (rng.random(120) < 0.6))).astype(int).tolist()
    kb = direct_kb(X, y, positive=1)
    means = np.array([query(kb, r.to_dict()).mean for _, r in X.iterrows()])
    # a threshold (in [0, 1), as a model's) that turns the rows at 0.59-0.65, positive at 0.5,
    # negative and keeps those at 1 positive (the 0.8 quantile was 1.0: no row positive)
    t = 0.65
    flipped = (means > 0.5 + 1e-9) & ~(means > t + 1e-9)
    assert flipped.any()
    g = global_view(kb, X, k=1, max_rows=200, threshold=t)
    assert g.positive_rows == int((means > t + 1e-9).sum())
    expected: dict[str, int] = {}
    for (_, row), m in zip(X.iterrows(), means):
        side = "positive" if m > t + 1e-9 else "negative"
        for f in explain(kb, row.to_dict(), k=1, direction=side).features:
            expected[f] = expected.get(f, 0) + 1
    got = dict(zip(g.features["feature"], g.features["in_explanation"]))
    assert got == {f: expected.get(f, 0) for f in kb.features}
    at_half = global_view(kb, X, k=1, max_rows=200)
    assert at_half.positive_rows == int((means > 0.5 + 1e-9).sum()) != g.positive_rows
