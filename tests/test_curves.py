"""ROC / PR curves and the decisions at one threshold: checked against counting by hand and
against scikit-learn's areas."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, roc_auc_score

from plx_core import DataError
from plx_core.curves import at_threshold, curves


def test_confusion_at_threshold_counts_strictly_greater():
    y = [True, True, False, False, True]
    s = [0.9, 0.5, 0.5, 0.2, 0.6]
    r = at_threshold(y, s, 0.5)  # 0.5 itself is not > 0.5: negative (the paper's tie rule)
    assert (r.tp, r.fp, r.tn, r.fn) == (2, 0, 2, 1)
    assert r.sensitivity == pytest.approx(2 / 3) and r.specificity == 1.0
    assert r.matrix().tolist() == [[2, 0], [1, 2]]
    r2 = at_threshold(y, s, 0.4)
    assert (r2.tp, r2.fp) == (3, 1)


def test_bad_input_is_named():
    with pytest.raises(DataError, match="threshold"):
        at_threshold([True], [0.3], 1.0)
    for odd in ("0.3", True, float("nan")):  # refused as PLXClassifier and explain refuse them
        with pytest.raises(DataError, match=r"^threshold must be a number in \[0, 1\), got "):
            at_threshold([True], [0.3], odd)
    with pytest.raises(DataError, match="2 labels but 1 scores"):
        curves([True, False], [0.3])
    with pytest.raises(DataError, match="missing"):
        curves([True, False], [0.3, float("nan")])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 1.0])),
                min_size=2, max_size=40))
def test_curves_match_sklearn_and_every_point_is_a_threshold(pairs):
    y = np.array([p[0] for p in pairs])
    s = np.array([p[1] for p in pairs])
    c = curves(y, s)
    for t, fpr, tpr in zip(c.thresholds, c.fpr, c.tpr):
        pred = s > t
        if y.any():
            assert tpr == pytest.approx((pred & y).sum() / y.sum())
        if (~y).any():
            assert fpr == pytest.approx((pred & ~y).sum() / (~y).sum())
    if y.any() and (~y).any():
        assert c.auc == pytest.approx(roc_auc_score(y, s))
        assert c.average_precision == pytest.approx(average_precision_score(y, s))
    assert not y.any() or (c.tpr[0] == 0 and c.tpr[-1] == 1)
