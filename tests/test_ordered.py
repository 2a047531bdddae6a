"""Ordered classes (`class_order=`, `plx_core.ordered`): how the order is known, and one yes/no
model a step between levels answering as one model — predict, predict_proba, bounds and explain
alike (multi25)."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score

from plx_core.errors import DataError, ModelFileError
from plx_core.estimator import PLXClassifier
from plx_core.modelfile import save_model
from plx_core.ordered import class_order_of, recognised_order

LEVELS = ["low", "medium", "high", "very high"]


def _graded(n: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    """Four levels, cut from one noisy sum of two numbers and a category at fixed points:
    neighbouring levels overlap, as grades of one severity do."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(0, 1, n), rng.uniform(0, 4, n)
    kind = rng.choice(["x", "y", "z"], n)
    z = a + 0.6 * b + np.where(kind == "z", 0.8, 0.0) + rng.logistic(0, 0.3, n)
    X = pd.DataFrame({"a": a.round(2), "b": b.round(2), "kind": kind})
    return X, np.array(LEVELS)[np.digitize(z, [0.6, 1.6, 2.8])]


@pytest.fixture(scope="module")
def graded():
    X, y = _graded(900, 5)
    return PLXClassifier(class_order="auto").fit(X[:500], y[:500]), X[500:].reset_index(drop=True), y[500:]


def test_the_order_is_known_from_numbers_a_known_scale_or_the_users_list():
    assert recognised_order(["10", "2", "1"]) == ["1", "2", "10"]
    assert recognised_order(["severe", "Mild", "moderate", "none"]) == [
        "none", "Mild", "moderate", "severe"]
    assert recognised_order(["Agree", "Strongly agree", "Neutral", "Disagree",
                             "Strongly disagree"])[0] == "Strongly disagree"
    assert recognised_order(["Stage III", "Stage I", "Stage II"]) == [
        "Stage I", "Stage II", "Stage III"]
    assert recognised_order(["red", "green", "blue"]) is None
    assert class_order_of(["a", "b", "c"], ["c", "a", "b"]) == ["c", "a", "b"]
    assert class_order_of(["1", "2", "3"], [3, 2, 1]) == ["3", "2", "1"]  # labels as fit writes them
    for bad, words in ((["a", "b"], "leaves out the class 'c'"), (["a", "b", "c", "d"], "'d', which is no class"),
                       (["a", "a", "b", "c"], "'a' more than once"), ("up", "must be 'auto'")):
        with pytest.raises(DataError, match=words):
            class_order_of(["a", "b", "c"], bad)
    with pytest.raises(DataError, match="no order is known for the classes"):
        PLXClassifier(class_order="auto").fit(pd.DataFrame({"f": list("abcabc")}), list("xyzxyz"))


def test_ordered_levels_answer_by_the_steps_they_are_above(graded):
    clf, X, _y = graded
    assert clf.class_order_ == LEVELS and len(clf.ordered_) == 3
    assert "'low' < 'medium' < 'high' < 'very high'" in clf.chosen_reason_
    above = np.column_stack([s.predict(X) for s in clf.ordered_]).sum(axis=1)
    pred = clf.predict(X)
    assert (pred == np.array(LEVELS)[above]).all()  # a row's level: the steps it is above
    assert len(set(pred)) == 4
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert (clf.classes_[proba.argmax(axis=1)] == pred).all()
    b = clf.bounds(X.head(5))
    assert set(b.columns.get_level_values(0)) >= set(LEVELS)
    assert ((b[(pred[0], "lower")] <= b[(pred[0], "upper")]) & (b[(pred[0], "lower")] >= 0)).all()


def test_an_ordered_explanation_is_a_steps_and_says_which(graded):
    clf, X, _y = graded
    pred = clf.predict(X.head(20))
    one = clf.explain(X.head(1))
    many = clf.explain_many(X.head(20))
    assert [e.explained_class for e in many][0] == one.explained_class
    # each step's POS is its rarer side: "above 'high'" (very high is rare), "at most 'low'"
    assert [s.positive_ for s in clf.ordered_][0] == "False" and clf.ordered_[2].positive_ == "True"
    for e, p in zip(many, pred):  # a row is explained by a step bounding its level
        side, lo = e.explained_class.split(" '")
        lo = lo.strip("'")
        assert LEVELS.index(lo) in (LEVELS.index(p) - 1, LEVELS.index(p))
        assert e.positive == ((LEVELS.index(lo) < LEVELS.index(p)) == (side == "above"))
    low = next(i for i, p in enumerate(pred) if p == "low")  # why not higher: the step above it
    e = clf.explain(X.iloc[[low]], for_class="high")
    assert e.explained_class == "at most 'low'" and e.positive


def test_ordered_models_are_refused_by_model_files_and_positive(graded, tmp_path):
    clf, X, y = graded
    with pytest.raises(ModelFileError, match="ordered classes"):
        save_model(clf, tmp_path / "m.json")
    with pytest.raises(DataError, match="positive= is for two classes"):
        PLXClassifier(class_order="auto", positive="high").fit(X, y)


@pytest.mark.slow
def test_ordered_steps_beat_one_against_the_rest_on_graded_levels():
    X, y = _graded(3000, 6)
    one_vs_rest = PLXClassifier().fit(X[:1000], y[:1000])
    assert "read as ordered levels ('low' < 'medium' < 'high' < 'very high'): class_order='auto'" \
        in one_vs_rest.chosen_reason_  # the unordered fit says how to fit them as levels
    flat = one_vs_rest.predict(X[1000:])
    ordered = PLXClassifier(class_order="auto").fit(X[:1000], y[:1000]).predict(X[1000:])
    assert f1_score(y[1000:], ordered, average="macro") > f1_score(y[1000:], flat, average="macro") + 0.02


def test_the_levels_bounds_read_an_at_most_step_from_its_own_side(graded):
    """review25: a step whose POS is its rarer side ('at most low') bounds that side, but its
    bounds were read as "above", so the lowest level got 1 − them (a row of 'medium' had
    'low' at [0.82, 0.87]). The lowest level is bounded as that step bounds 'at most', the
    highest as the last step bounds 'above'."""
    clf, X, _y = graded
    first, last = clf.ordered_[0], clf.ordered_[-1]
    assert first.positive_ == "False" and last.positive_ == "True"
    b, rows = clf.bounds(X.head(40)), X.head(40)
    for level, step in ((LEVELS[0], first), (LEVELS[-1], last)):
        own = step.bounds(rows)
        np.testing.assert_allclose(b[(level, "lower")], own["lower"])
        np.testing.assert_allclose(b[(level, "upper")], own["upper"])


def test_a_step_at_its_threshold_is_not_above_in_the_levels_numbers():
    """review25: a step answering exactly its threshold (0.5) is not "above" (`levels_above`),
    but the two levels it parts tied in `level_bounds`' numbers, so predict_proba's largest
    could be the higher level while predict said the lower."""
    from plx_core.ordered import level_bounds, levels_above
    from plx_core.query import BoundsArray

    steps = [np.array([1.0, 0.8, 0.5]), np.array([0.5, 0.5, 0.2]), np.array([0.2, 0.1, 0.1])]
    parts = [BoundsArray(s, s, np.full(3, "median", dtype=object)) for s in steps]
    votes = np.column_stack([b.compared_by for b in level_bounds(parts, steps)])
    assert levels_above(steps).tolist() == [1, 1, 0]
    assert votes.argmax(axis=1).tolist() == [1, 1, 0]
    assert (np.sort(votes, axis=1)[:, -1] > np.sort(votes, axis=1)[:, -2]).all()  # no tie


def test_the_hint_to_fit_levels_says_where_the_setting_is():
    """review25: plx fit and the dashboard show a several-class fit's reason, whose hint named
    class_order='auto' as if they took it; it says the setting is PLXClassifier's alone."""
    from plx_core.wording import ordered_hint

    said = ordered_hint(["severe", "mild", "moderate"])
    assert said.startswith("; the classes read as ordered levels ('mild' < 'moderate' < 'severe')")
    assert "(in Python, PLXClassifier; plx fit, the dashboard and model files do not take it yet)" in said
    assert ordered_hint(["1", "2", "3"]) == "" and ordered_hint(["red", "blue", "green"]) == ""
