"""PLXClassifier: the scikit-learn contract, binary and one-vs-rest predictions, bad input."""

import numpy as np
import pandas as pd
import pytest
from paper import example2
from sklearn.utils.estimator_checks import check_estimator

from plx_core import DataError, query
from plx_core.estimator import PLXClassifier

ASKS_FOR_POSITIVE = (
    "binary labels such as 1/2 or 'one'/'two': plx asks for positive= instead of guessing "
    "which class POS stands for (it assumes it only for 0/1, -1/1, False/True, no/yes)"
)
EXPECTED_FAILED_CHECKS = {
    "check_estimators_dtypes": ASKS_FOR_POSITIVE,
    "check_classifier_data_not_an_array": ASKS_FOR_POSITIVE,
    "check_classifiers_classes": ASKS_FOR_POSITIVE,
}


def test_sklearn_estimator_contract():
    results = check_estimator(
        PLXClassifier(), expected_failed_checks=EXPECTED_FAILED_CHECKS, on_fail=None
    )
    failed = [r["check_name"] for r in results if r["status"] == "failed"]
    assert failed == []
    xfailed = {r["check_name"] for r in results if r["status"] == "xfail"}
    assert xfailed == set(EXPECTED_FAILED_CHECKS)


def test_binary_predictions_match_the_paper():
    X, y = example2()
    clf = PLXClassifier().fit(X, y)
    q = pd.DataFrame([list("0101"), list("0000"), list("1000")], columns=X.columns)
    b = clf.bounds(q)
    singles = [query(clf.kb_, row.to_dict()) for _, row in q.iterrows()]
    assert b["lower"].tolist() == [s.lower for s in singles]
    assert b["upper"].tolist() == [s.upper for s in singles]
    assert b["lower"][0] == 0.5  # Example 6
    assert clf.predict(q).tolist() == [int(s.positive) for s in singles]
    assert clf.predict(q)[0] == 0  # 0101 is a tie at 0.5: negative, as in the paper
    proba = clf.predict_proba(q)
    assert proba[:, 1] == pytest.approx(b["mean"].to_numpy())
    assert proba.sum(axis=1) == pytest.approx(1.0)
    tree = PLXClassifier(kb="tree").fit(X, y)
    assert tree.predict(q).tolist() == [1, 1, 0]  # the tree KB answers 0101 with 1.0


def test_string_labels_and_positive_class():
    X, y = example2()
    labels = np.where(np.array(y) == 1, "sick", "healthy")
    clf = PLXClassifier(positive="sick").fit(X, labels)
    assert list(clf.classes_) == ["healthy", "sick"]
    assert clf.kb_.positive == "sick"
    means = clf.bounds(X)["mean"].to_numpy()
    assert clf.predict(X).tolist() == np.where(means > 0.5, "sick", "healthy").tolist()
    assert clf.predict_proba(X)[:, 1] == pytest.approx(means)
    with pytest.raises(DataError, match="positive='ill' is not a class"):
        PLXClassifier(positive="ill").fit(X, labels)


def test_one_vs_rest_predicts_the_largest_mean():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 3, (300, 3)).astype(str), columns=["a", "b", "c"])
    y = X["a"].map({"0": "red", "1": "green", "2": "blue"}).to_numpy()
    clf = PLXClassifier().fit(X, y)
    assert len(clf.kbs_) == 3 and clf.kb_ is None
    assert (clf.predict(X) == y).all()
    proba = clf.predict_proba(X)
    assert proba.shape == (300, 3) and proba.sum(axis=1) == pytest.approx(1.0)
    assert (clf.classes_[proba.argmax(axis=1)] == y).all()


def test_partial_rows_and_unseen_values_predict():
    X, y = example2()
    clf = PLXClassifier().fit(X, y)
    q = pd.DataFrame({"a1": ["0", None], "a2": [None, "1"], "a3": [None, "9"], "a4": [None, "1"]})
    b = clf.bounds(q)
    assert b["mean"].tolist() == pytest.approx([1 / 3, 1.0])


def test_bad_input_is_refused_with_a_clear_message():
    X, y = example2()
    with pytest.raises(DataError, match="kb must be one of"):
        PLXClassifier(kb="svm").fit(X, y)
    with pytest.raises(DataError, match="only one class"):
        PLXClassifier().fit(X, [1] * 8)
    with pytest.raises(ValueError, match="Unknown label type"):
        PLXClassifier().fit(X, np.linspace(0, 1, 8))
