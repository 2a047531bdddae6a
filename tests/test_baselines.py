"""plx_core.baselines: one encoding, one set of models, one scorer for every caller."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import confusion_matrix, f1_score, precision_score, recall_score

from plx_core.baselines import (
    BASELINES,
    MISSING,
    OneHot,
    OneHotModel,
    baseline_scores,
    confusion,
    make_model,
    scores,
)
from plx_core.errors import DataError


def test_scores_match_scikit_learn_on_random_labels():
    rng = np.random.default_rng(0)
    for _ in range(20):
        t = rng.random(40) < 0.4
        p = rng.random(40) < 0.5
        s = scores(t, p)
        assert s["F1"] == pytest.approx(f1_score(t, p, zero_division=0.0))
        assert s["precision"] == pytest.approx(precision_score(t, p, zero_division=0.0))
        assert s["sensitivity"] == s["recall"] == pytest.approx(recall_score(t, p, zero_division=0.0))
        assert s["specificity"] == pytest.approx(recall_score(~t, ~p, zero_division=0.0))
        assert confusion(t, p).tolist() == confusion_matrix(t, p, labels=[False, True]).tolist()


def test_scores_of_no_positive_prediction_are_zero_not_an_error():
    s = scores([True, False], [False, False])
    assert s["F1"] == 0.0 and s["precision"] == 0.0 and s["specificity"] == 1.0
    with pytest.raises(DataError, match="2 true labels but 3 predictions"):
        scores([True, False], [True, False, True])


def test_one_hot_gives_missing_its_own_category_and_unseen_values_all_zeros():
    X = pd.DataFrame({"a": ["x", "y", None, "x"], "b": ["1", "1", "2", None]})
    enc = OneHot().fit(X)
    assert MISSING in enc.encoder_.categories_[0] and MISSING in enc.encoder_.categories_[1]
    A = enc.transform(pd.DataFrame({"b": ["2"], "a": ["z"]}))  # column order does not matter
    a_width = len(enc.encoder_.categories_[0])
    assert A[0, :a_width].sum() == 0 and A[0, a_width:].sum() == 1
    assert enc.sum_back(np.ones((1, A.shape[1]))).tolist() == [[3.0, 3.0]]


@pytest.mark.slow
def test_every_baseline_fits_and_predicts_deterministically():
    rng = np.random.default_rng(1)
    X = pd.DataFrame(rng.integers(0, 3, (80, 4)).astype(str), columns=list("abcd"))
    # labels with a few flipped (7 of 80): on the noiseless rule EBM never stopped early,
    # ~150,000 boosting rounds a fit (16 of the test's 25 CPU s); the seeded models still
    # answer otherwise with another seed (forest, RuleFit, MLP-default), so a lost seed is seen
    y = ((X["a"] == "0") | (X["b"] == "1")).astype(int) ^ (rng.random(80) < 0.1)
    for key in BASELINES:
        p1 = OneHotModel(key, seed=3).fit(X, y).predict(X)
        p2 = OneHotModel(key, seed=3).fit(X, y).predict(X)
        assert (p1 == p2).all(), key
    with pytest.raises(DataError, match="unknown baseline 'xgboost'"):
        make_model("xgboost")


def test_baseline_scores_name_each_model_and_score_the_positive_class():
    rng = np.random.default_rng(2)
    X = pd.DataFrame(rng.integers(0, 2, (120, 3)).astype(str), columns=list("abc"))
    y = pd.Series(np.where(X["a"] == "1", "sick", "well"))
    frame = baseline_scores(X.iloc[:80], y.iloc[:80], X.iloc[80:], y.iloc[80:], "sick",
                            ("majority", "CART"))
    assert list(frame["model"]) == ["majority", "CART"]
    assert frame.loc[1, "F1"] == 1.0 and frame.loc[1, "specificity"] == 1.0


@pytest.mark.parametrize("only", ["well", "sick"])
def test_baseline_scores_a_test_part_of_one_class(only):
    """A rare class whose rows all went to training leaves a test part of one class: the
    baselines are fitted and scored on it (was: refused, 'positive is not a value of the
    label'), the counts adding up to the test rows; the training rows still need both."""
    rng = np.random.default_rng(7)
    X = pd.DataFrame(rng.choice(["lo", "mid", "hi"], (50, 2)), columns=["dose", "site"])
    y = pd.Series(np.where(X["dose"] == "hi", "sick", "well"))
    test = X.index[40:]
    frame = baseline_scores(X.iloc[:40], y.iloc[:40], X.loc[test], pd.Series([only] * 10), "sick",
                            ("majority", "CART"))
    counts = frame[["tp", "fp", "fn", "tn"]]
    assert (counts.sum(axis=1) == 10).all()
    assert ((counts["tp"] + counts["fn"]) == (10 if only == "sick" else 0)).all()
    cart = frame.set_index("model").loc["CART"]
    hi = int((X.loc[test, "dose"] == "hi").sum())  # CART learns dose=hi exactly
    assert (cart["fp"], cart["tn"]) == ((hi, 10 - hi) if only == "well" else (0, 0))
    with pytest.raises(DataError, match="plx needs both"):
        baseline_scores(X.iloc[:40], pd.Series(["well"] * 40), X.loc[test], y.loc[test], "well",
                        ("majority",))
