"""SHAP side by side: the baseline's SHAP values and the Fig. 2 agreement measures."""

import importlib.util
import json

import numpy as np
import pandas as pd
import pytest

from plx_core import DataError, direct_kb
from plx_core.explain import explain, explain_all, explanation_accuracy, shapley
from plx_core.shap_compare import top_k_agreement, top_k_features

needs_shap = pytest.mark.skipif(importlib.util.find_spec("shap") is None,
                                reason="the optional 'shap' package is not installed")


# --------------------------------------------------------------------------- agreement


def test_top_k_agreement_by_hand():
    ours = [("a1", "a2"), ("a1", "a3"), ("a2", "a4"), ("a3", "a4")]
    shap = [("a2", "a1"), ("a1", "a4"), ("a1", "a3"), ("a3", "a4")]
    ag = top_k_agreement(ours, shap, k=2)
    assert ag.n == 4 and ag.same == 0.5
    assert ag.at_least == {1: 0.75, 2: 0.5}
    assert ag.exactly == {0: 0.25, 1: 0.25, 2: 0.5}
    chosen = ag.chosen.set_index("feature")
    assert list(chosen.index) == ["a1", "a2", "a3", "a4"]
    assert chosen.loc["a1", "ours"] == 0.5 and chosen.loc["a1", "shap"] == 0.75
    assert chosen.loc["a4", "ours"] == 0.5 and chosen.loc["a4", "shap"] == 0.5
    d = json.loads(json.dumps(ag.to_dict()))
    assert d["at_least"] == {"1": 0.75, "2": 0.5} and len(d["chosen"]) == 4


def test_top_k_agreement_accepts_explanations_and_dicts():
    from paper import as_query, example2

    X, y = example2()
    kb = direct_kb(X, y)
    e = explain_all(kb, as_query("0101"), ks=[1])[1]
    ag = top_k_agreement([e], [{"a1": "0"}], k=1, features=["a1", "a2", "a3", "a4"])
    assert ag.same == 1.0 and list(ag.chosen["ours"]) == [1.0, 0.0, 0.0, 0.0]


def test_top_k_agreement_checks_its_input():
    with pytest.raises(DataError, match="2 explanations on one side, 1"):
        top_k_agreement([("a",), ("b",)], [("a",)], k=1)
    with pytest.raises(DataError, match="expected k=2"):
        top_k_agreement([("a",)], [("a", "b")], k=2)


def test_top_k_features_direction_and_ties():
    v = pd.DataFrame([[0.3, 0.3, -0.2, 0.1], [0.0, -0.5, -0.5, 0.2]], columns=list("abcd"))
    assert top_k_features(v, 2) == [("a", "b"), ("a", "d")]  # a tie goes to feature order
    assert top_k_features(v, 2, positive=[True, False]) == [("a", "b"), ("b", "c")]
    with pytest.raises(DataError, match="k=5"):
        top_k_features(v, 5)


# --------------------------------------------------------------------------- SHAP values


@pytest.fixture(scope="module")
def small():
    from plx_core.datasets import synthetic

    ds = synthetic(8, 3, 300, seed=2)
    return ds.split(0.3, seed=2)


@needs_shap
@pytest.mark.parametrize("model", ["forest", "tree", "logistic"])
def test_shap_values_are_summed_back_per_feature_and_add_up(small, model):
    from plx_core.shap_compare import shap_values_baseline

    X_tr, X_te, y_tr, _ = small
    sb = shap_values_baseline(X_tr, y_tr, X_te.iloc[:20], model=model, positive="1",
                              n_estimators=20)
    assert list(sb.values.columns) == list(X_tr.columns)
    assert list(sb.values.index) == list(X_te.index[:20])
    total = sb.base_value + sb.values.sum(axis=1).to_numpy()
    if model == "logistic":  # SHAP of a linear model adds up in log-odds
        total = 1 / (1 + np.exp(-total))
    assert np.allclose(total, sb.proba, atol=1e-6)
    assert np.array_equal(sb.predicted, sb.proba > 0.5)
    tops = sb.top_k(2)
    assert len(tops) == 20 and all(len(t) == 2 for t in tops)
    json.dumps(sb.to_dict())


@needs_shap
def test_unseen_and_missing_values_are_handled(small):
    from plx_core.shap_compare import shap_values_baseline

    X_tr, X_te, y_tr, _ = small
    odd = X_te.iloc[:3].copy()
    odd.iloc[0, 0] = "9"
    odd.iloc[1, 1] = None
    sb = shap_values_baseline(X_tr, y_tr, odd, positive="1", n_estimators=10)
    assert sb.values.shape == (3, X_tr.shape[1]) and np.isfinite(sb.values.to_numpy()).all()
    with pytest.raises(DataError, match="lacks the training features"):
        shap_values_baseline(X_tr, y_tr, odd.drop(columns=["a1"]), positive="1")
    with pytest.raises(DataError, match="model must be one of"):
        shap_values_baseline(X_tr, y_tr, odd, model="svm", positive="1")


# --------------------------------------------------------------------------- Syn 10/4


@needs_shap
@pytest.mark.slow
def test_explanation_accuracy_against_shap_on_syn_10_4():
    """Paper Table 4 on Syn 10/4: ours (Algorithm 6) vs SHAP of a random forest, on the same
    positive test instances (the first 60 true positives the Direct KB classifies positive).

    Measured on all 449 such instances (seed 0): ours 1, 1, 1, 1, 0.989; SHAP (forest) 1, 1,
    1, 1, 1. At k = 5 Algorithm 6 sometimes prefers four seed positions plus one other (a
    strictly larger ω(POS), not a tie), so ours is below SHAP there; our own Shapley values of
    ω(POS) match SHAP at every k.
    """
    from plx_core.datasets import PAPER_SYN_10_4_SEED, synthetic
    from plx_core.query import query_many
    from plx_core.shap_compare import shap_values_baseline

    ds = synthetic(10, 4, 3000, seed=0, seed_string=PAPER_SYN_10_4_SEED)
    X_tr, X_te, y_tr, y_te = ds.split(0.3, seed=0)
    kb = direct_kb(X_tr, y_tr, positive="1")
    pos = query_many(kb, X_te).positive & (y_te.to_numpy() == "1")
    sel = np.flatnonzero(pos)[:60]
    rows = [X_te.iloc[i].to_dict() for i in sel]
    ours = [explain_all(kb, r) for r in rows]
    sb = shap_values_baseline(X_tr, y_tr, X_te.iloc[sel], model="forest", positive="1")
    for k in range(1, 6):
        theirs = sb.top_k(k, "positive")
        acc_ours = np.mean([explanation_accuracy(e[k].features, r, ds.truth)
                            for e, r in zip(ours, rows)])
        acc_shap = np.mean([explanation_accuracy(t, r, ds.truth) for t, r in zip(theirs, rows)])
        if k <= 4:
            assert acc_ours >= acc_shap, f"k={k}: ours {acc_ours} < SHAP {acc_shap}"
        else:
            # the measured gap: 0.011 over all 449 instances, 0.027 over these 60
            assert acc_ours >= acc_shap - 0.03, f"k=5: ours {acc_ours} vs SHAP {acc_shap}"
        ag = top_k_agreement([e[k] for e in ours], theirs, k)
        assert ag.n == len(sel) and 0 <= ag.same <= ag.at_least[1] <= 1
    sh = [shapley(kb, r) for r in rows[:30]]
    for k in range(1, 6):
        assert np.mean([explanation_accuracy(s.top(k), r, ds.truth)
                        for s, r in zip(sh, rows)]) == 1.0
        # the same choice through explain(strategy="shapley"): never below SHAP at any k
        by_shapley = [explain(kb, r, k=k, strategy="shapley") for r in rows[:30]]
        assert [set(e.features) for e in by_shapley] == [set(s.top(k)) for s in sh]
        acc = np.mean([explanation_accuracy(e.features, r, ds.truth)
                       for e, r in zip(by_shapley, rows)])
        theirs = sb.top_k(k, "positive")[:30]
        acc_shap = np.mean([explanation_accuracy(t, r, ds.truth) for t, r in zip(theirs, rows)])
        assert acc >= acc_shap and by_shapley[0].search == "shapley"
