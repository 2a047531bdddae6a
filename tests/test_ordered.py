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
from plx_core.ordered import class_order_of, recognised_order, scale_order

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
    # the default ("scale") reads levels from words only: numbers and numbered kinds may be codes
    assert scale_order(["Grade 2", "Grade 1", "Grade 3"]) == ["Grade 1", "Grade 2", "Grade 3"]
    assert scale_order(["severe", "mild", "moderate"]) == ["mild", "moderate", "severe"]
    assert scale_order(["Stage II", "Stage I", "Stage III"]) == ["Stage I", "Stage II", "Stage III"]
    for codes in (["1", "2", "3"], ["Type 1", "Type 2", "Type 3"], ["red", "green", "blue"],
                  ["mild", "severe"], ["I", "II", "III", "IV"], ["Type II", "Type I", "Type III"]):
        assert scale_order(codes) is None, codes
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


def _file_answers(path, X):
    """A saved model's answers as `plx predict` / `plx explain` give them (`cli.Model`)."""
    from plx_core.cli import Model, _explain_levels
    from plx_core.modelfile import load_model

    m = Model(load_model(path))
    rows = m.schema.apply(X, label=False)[0]
    return m, m.predict(rows), _explain_levels(m, rows, 2)


def _agrees(clf, path, X):
    """The model file answers every row as the fitted estimator: level, every level's bounds,
    predict_proba (its `vote:` numbers over their sum), the explaining step and its features."""
    m, pred, (found, said, _other) = _file_answers(path, X)
    assert m.classes == tuple(clf.class_order_)
    assert pred["decision"].tolist() == clf.predict(X).tolist()
    b = clf.bounds(X)
    for c in m.classes:
        np.testing.assert_array_equal(pred[f"lower:{c}"], b[(c, "lower")])
        np.testing.assert_array_equal(pred[f"upper:{c}"], b[(c, "upper")])
    votes = pred[[f"vote:{c}" for c in clf.classes_]].to_numpy()
    np.testing.assert_allclose(votes / votes.sum(axis=1, keepdims=True), clf.predict_proba(X))
    ref = clf.explain_many(X)
    assert [e.explained_class for e in ref] == said.tolist()
    assert [e.features for e in ref] == [e.features for e in found]
    return m


@pytest.mark.parametrize("name", ["m.json", "m.npz"])
def test_an_ordered_model_saves_and_its_file_answers_as_the_estimator(graded, tmp_path, name):
    """Version 3: one whole yes/no model a step (the first's POS its "at most" side)."""
    from plx_core.modelfile import OrderedModelFile, load_model

    clf, X, _y = graded
    save_model(clf, tmp_path / name)
    back = load_model(tmp_path / name)
    assert isinstance(back, OrderedModelFile) and back.classes == tuple(LEVELS)
    assert [s.positive for s in back.steps] == [s.positive_ for s in clf.ordered_] == [
        "False", "True", "True"]
    new = X.head(60).assign(kind=lambda d: d.kind.mask(d.index % 7 == 0))  # missing cells too
    _agrees(clf, tmp_path / name, new)


def test_steps_cut_at_their_own_points_answer_from_one_file(tmp_path):
    """Three levels fitted as the paper's KB: each step's MDLP cuts are its own, and the file
    reads a row once, at every step's cut points together (`OrderedModelFile.step_rows`)."""
    X, y = _graded(500, 7)
    y = np.where(y == "very high", "high", y)
    clf = PLXClassifier(class_order=["low", "medium", "high"], variant="paper").fit(X[:250], y[:250])
    save_model(clf, tmp_path / "m.json")
    m = _agrees(clf, tmp_path / "m.json", X[250:].reset_index(drop=True))
    own = [s.schema.bins["a"].cuts for s in m.file.steps]
    assert own[0] != own[1] and set(own[0]) | set(own[1]) == set(m.schema.bins["a"].cuts)


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(version=4), "model version 4; this plx reads versions 1 (two classes), 2 "
                                    "(several classes) and 3 (ordered classes)"),
    (lambda d: d["steps"].pop(), "field 'steps' must be a list of one model per step between "
                                 "neighbouring levels (3), not list of 2"),
    (lambda d: d.update(classes=["low", "low", "high", "very high"]), "'classes' must list 3 or more distinct"),
    (lambda d: d["steps"][1].update(positive="maybe"), "steps[1]: field 'positive'"),
    (lambda d: d["steps"][0]["schema"]["bins"]["a"]["cuts"].__setitem__(0, -99.5),
     "steps[0]: field 'schema.bins.a.cuts' holds the cut -99.5, which field 'schema.bins.a.cuts' of "
     "the file lacks"),
    (lambda d: d["schema"].update(positive="low"), "'schema.positive' must be null"),
    (lambda d: d["steps"][2].pop("kb"), "steps[2] lacks the field ['kb']"),
])
def test_a_damaged_ordered_model_file_is_named_by_field(graded, tmp_path, change, message):
    import json

    from plx_core.modelfile import load_model

    save_model(graded[0], tmp_path / "m.json")
    doc = json.loads((tmp_path / "m.json").read_text())
    change(doc)
    with pytest.raises(ModelFileError) as err:
        load_model(json.dumps(doc).encode())
    assert message in str(err.value) and "\n" not in str(err.value)


def test_ordered_models_refuse_positive_and_expert_rules(graded, tmp_path):
    from plx_core.modelfile import load_model
    from plx_core.modelrules import add_model_rules

    clf, X, y = graded
    with pytest.raises(DataError, match="positive= is for two classes"):
        PLXClassifier(class_order="auto", positive="high").fit(X, y)
    save_model(clf, tmp_path / "m.json")
    with pytest.raises(DataError, match="a model of ordered classes .* holds no expert rules yet"):
        add_model_rules(load_model(tmp_path / "m.json"), "IF kind = z THEN high [p=0.9, w=5]")


@pytest.mark.slow
def test_ordered_steps_beat_one_against_the_rest_on_graded_levels():
    X, y = _graded(3000, 6)
    one_vs_rest = PLXClassifier(class_order=None).fit(X[:1000], y[:1000])
    assert "read as ordered levels ('low' < 'medium' < 'high' < 'very high'): plx's default" \
        in one_vs_rest.chosen_reason_  # the unordered fit says how to fit them as levels
    flat = one_vs_rest.predict(X[1000:])
    ordered = PLXClassifier(class_order="auto").fit(X[:1000], y[:1000]).predict(X[1000:])
    assert f1_score(y[1000:], ordered, average="macro") > f1_score(y[1000:], flat, average="macro") + 0.02
    # plx's default reads the scale's words as levels, said: the same steps, the same answers
    with pytest.warns(UserWarning, match=r"4 classes read as ordered levels \('low' < 'medium'"):
        default = PLXClassifier().fit(X[:1000], y[:1000])
    assert default.class_order_ == LEVELS and (default.predict(X[1000:]) == ordered).all()


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
    class_order='auto' as if they took it; plx fit takes it now (multi26), the dashboard's Data page too (ordered27)."""
    from plx_core.wording import ordered_hint

    said = ordered_hint(["severe", "mild", "moderate"])
    assert said.startswith("; the classes read as ordered levels ('mild' < 'moderate' < 'severe')")
    assert ("plx's default (class_order='scale'; plx fit without --class-order none) fits one "
            "yes/no model for each step between them (the dashboard: \"Treat the classes as "
            "ordered levels\" on the Data page)") in said
    assert ordered_hint(["1", "2", "3"]) == "" and ordered_hint(["red", "blue", "green"]) == ""
    assert ordered_hint(["I", "II", "III"]) == ""  # Roman numerals alone may be names
