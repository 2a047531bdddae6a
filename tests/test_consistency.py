"""No silent wrong answer from the default model: for every candidate `variant="auto"` can
choose, what answers (`predict`), its bounds and probabilities, the LP, the saved model file,
`explain` and the CLI are the same model. Each candidate is made to answer through the real
search (its score and threshold as the search found them), on small seeded tables with
missing cells, unseen values and a numeric column."""

import contextlib
import warnings

import numpy as np
import pandas as pd
import pytest

from plx_core import cli
from plx_core import selection as S
from plx_core.estimator import PLXClassifier
from plx_core.explain import Unexplained, citable
from plx_core.modelfile import load_model, save_model
from plx_core.query import TIE_EPS, encode_rows, query_many

CHOOSABLE = tuple(S.CANDIDATES)


def table(n=160, seed=0):
    """Five categorical columns (3–4 values) and a numeric one; the label a small DNF with
    10% noise; about 4% of the cells missing."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({f"c{j}": rng.choice(list("abcd"[: 3 + j % 2]), n) for j in range(5)})
    X["num"] = np.round(rng.normal(0, 1, n), 2)
    y = ((X.c0 == "a") & (X.c1 != "c")) | ((X.c2 == "b") & (X.num > 0.3))
    y = np.where(rng.random(n) < 0.1, ~y, y)
    X = X.astype(object)
    X = X.mask(rng.random(X.shape) < 0.04)
    return X, np.where(y, "yes", "no")


def new_rows(X):
    """Rows a user brings: training-like rows, rows with missing cells, an unseen value, a row
    that knows nothing."""
    rows = X.iloc[:12].copy().reset_index(drop=True)
    rows.iloc[3, 0] = None
    rows.iloc[4, :3] = None
    rows.iloc[5, 1] = "zz"  # never seen in training
    rows.iloc[6, 4] = "zz"
    rows.iloc[7, :] = None  # no evidence at all
    rows.iloc[8, :5] = "zz"  # only its number is known
    return rows


def forced_choose(wanted):
    """`selection.choose` that returns the candidate `wanted` (its best-scored setting, with
    the threshold the search chose for it), as the search would had it scored best."""
    real = S.choose
    model_of = {k: (m, d) for k, m, d in S._candidates()}

    def choose(y, direct_pred, direct_rows, oof, fold=None, **kw):
        sel = real(y, direct_pred, direct_rows, oof, fold, **kw)
        keys = [k for k in sel.scores if model_of.get(k, (k, None))[0] == wanted]
        if not keys:
            pytest.skip(f"{wanted} was not scored on this table")
        key = max(keys, key=lambda k: sel.scores[k])
        setting = model_of.get(key, (wanted, None))[1]
        pruned = S.is_pruned(key)
        return S.Selection(
            wanted, sel.thresholds[key], f"{wanted} answers (forced by the test)", sel.scores,
            sel.thresholds, sel.n_rows,
            max_depth=None if pruned or wanted not in S.TREE_MODELS or setting is None
            else int(setting),
            m=float(setting) if wanted == "direct-conf" else None,
            alpha=float(setting) if pruned else None,
            bins=int(setting) if wanted == "direct-vote" and setting is not None else None)

    return choose


@pytest.fixture(params=CHOOSABLE)
def fitted(request, monkeypatch):
    monkeypatch.setattr(S, "choose", forced_choose(request.param))
    X, y = table()
    with _quiet():
        clf = PLXClassifier().fit(X, y)
    assert clf.chosen_ == request.param
    return request.param, clf, X, y


@contextlib.contextmanager
def _quiet():
    """Warnings (unseen values, values read as another spelling) are said, not checked here."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def explained(clf, rows, k=2):
    """`explain_many` of the rows with a value an explanation can cite (`explain.citable`:
    seen, of a feature the searched KB uses), None for the others (`plx explain` says "the
    row knows no feature …" for them; the estimator names the row)."""
    kb = clf.paper_kbs_[0] if clf.kb_ is not None and clf.paper_kbs_[0] is not None else (
        clf.kb_ if clf.kb_ is not None else clf.kbs_[0])
    frame = clf.transform_rows(rows)
    if clf.kb_ is None:  # several classes: the KB of each row's class explains it
        classes = list(clf.classes_)
        ok = np.array([citable(clf._searched(i), encode_rows(clf._searched(i), frame.iloc[[j]]))
                       .any() for j, i in enumerate(classes.index(p) for p in clf.predict(rows))])
    else:
        ok = citable(kb, encode_rows(kb, frame)).any(axis=1)
    got = iter(clf.explain_many(rows[ok], k=k))
    return [next(got) if o else None for o in ok]


def used_features(kb):
    """The features some clause of `kb` has a literal on."""
    used = {f for j, f in enumerate(kb.features) if (kb.codes[:, j] >= 0).any()} \
        if kb.n_learned else set()
    return used | {lit.atom for c in kb.extra for lit in c.literals if lit.is_feature}


@pytest.mark.slow
def test_every_candidate_answers_saves_and_explains_as_one_model(fitted, tmp_path):
    name, clf, X, y = fitted
    rows = new_rows(X)
    with _quiet():
        pred = clf.predict(rows)
        b = clf.bounds(rows)
        proba = clf.predict_proba(rows)
    pos_col = list(clf.classes_).index(clf.positive_)
    # predict is the decision of the bounds and of predict_proba at the model's threshold
    want = np.where(b["mean"] > clf.threshold_ + TIE_EPS, clf.positive_, "no")
    assert list(pred) == list(want), name
    assert np.allclose(proba[:, pos_col], b["mean"])
    assert list(pred) == list(np.where(proba[:, pos_col] > clf._threshold() + TIE_EPS, "yes", "no"))
    # no evidence at all: [0, 1] whichever candidate answers, its middle 0.5 against the
    # threshold (a tie at 0.5: negative)
    assert (b.loc[7, "lower"], b.loc[7, "upper"]) == (0.0, 1.0)
    assert pred[7] == ("yes" if 0.5 > clf.threshold_ + TIE_EPS else "no")
    # the LP gives the fast path's bounds on the KB that answers
    frame = clf.transform_rows(rows).reindex(columns=list(clf.kb_.features))
    lp = query_many(clf.kb_, frame, semantics=clf.semantics_, method="lp")
    assert np.allclose(lp.lower, b["lower"], atol=2e-6), name
    assert np.allclose(lp.upper, b["upper"], atol=2e-6), name
    # explain: the decision it explains is predict's, and it cites only features the
    # answering KB has a clause on (never an unseen value)
    used = used_features(clf.kb_)
    with _quiet():
        exps = explained(clf, rows)
    for i, e in enumerate(exps):
        if isinstance(e, Unexplained):  # its known values settle no clause: nothing to cite
            assert "the row knows no feature the model uses" in e.reason, (name, i, e.reason)
            assert "settle no clause of the model for this row" in e.reason, (name, i, e.reason)
            assert (b.loc[i, "lower"], b.loc[i, "upper"]) == (0.0, 1.0), (name, i)
            continue
        if e is None:
            continue
        assert e.positive == (pred[i] == "yes"), (name, i)
        if e.features:
            assert set(e.features) <= used, (name, i, e.features, used)
            assert "zz" not in e.features.values()
    # the model file: same answers, bounds and explanations after a reload (CLI's reader)
    path = tmp_path / "m.json"
    save_model(clf, path)
    model = cli.Model(load_model(path))
    got = model.predict(model.schema.apply(rows.assign(label="no"))[0])
    assert list(got["decision"]) == list(pred), name
    assert np.allclose(got["lower"], b["lower"]) and np.allclose(got["upper"], b["upper"])
    assert model.threshold == pytest.approx(clf.threshold_)
    from plx_core.explain import explain_many

    Xm = model.schema.apply(rows.assign(label="no"))[0]
    qs = [{f: v for f, v in r.items() if isinstance(v, str)} for r in Xm.to_dict("records")]
    for i, e in enumerate(exps):
        if e is None or not e.features:
            continue
        again = explain_many(model.kb_full, [qs[i]], k=[e.k],
                             direction=["positive" if e.positive else "negative"],
                             semantics=model.semantics)[0]
        assert again.features == e.features and tuple(again.bounds) == pytest.approx(
            tuple(e.bounds)), (name, i)


@pytest.mark.slow
def test_the_cli_answers_and_explains_as_the_estimator(fitted, tmp_path, capsys):
    name, clf, X, y = fitted
    data = X.assign(label=y)
    data.to_csv(tmp_path / "train.csv", index=False)
    rows = new_rows(X)
    rows.to_csv(tmp_path / "new.csv", index=False)
    assert cli.main(["fit", str(tmp_path / "train.csv"), "--label", "label", "--positive", "yes",
                     "--out", str(tmp_path / "m.json")]) == 0
    assert cli.main(["predict", str(tmp_path / "m.json"), str(tmp_path / "new.csv"),
                     "--out", str(tmp_path / "p.csv")]) == 0
    assert cli.main(["explain", str(tmp_path / "m.json"), str(tmp_path / "new.csv"),
                     "--out", str(tmp_path / "e.csv")]) == 0
    got = pd.read_csv(tmp_path / "p.csv")
    with _quiet():
        b = clf.bounds(rows)
        pred = clf.predict(rows)
        exps = explained(clf, rows)
    assert list(got["decision"]) == list(pred), name
    assert np.allclose(got["lower"], b["lower"]) and np.allclose(got["upper"], b["upper"]), name
    ex = pd.read_csv(tmp_path / "e.csv", keep_default_na=False)
    from plx_core.rules import features_text

    for i, e in enumerate(exps):
        assert ex.loc[i, "decision"] == pred[i]
        assert ex.loc[i, "features"] == (features_text(e.features) if e else ""), (
            name, i)


def test_several_classes_predict_the_largest_mean_and_explain_that_class():
    X, _ = table(seed=1)
    rng = np.random.default_rng(1)
    y = np.where(X.c0 == "a", "red", np.where(X.c1 == "b", "green", "blue"))
    y = np.where(rng.random(len(y)) < 0.1, rng.choice(["red", "green", "blue"], len(y)), y)
    with _quiet():
        clf = PLXClassifier().fit(X, y)
        rows = new_rows(X)
        pred = clf.predict(rows)
        proba = clf.predict_proba(rows)
        exps = explained(clf, rows, k=1)
    assert list(pred) == list(clf.classes_[np.argmax(proba, axis=1)])
    assert all(e.positive for e in exps if e is not None and not hasattr(e, "reason"))
    # a row its class's fitted vote gives no weight to (decided by the prior) is said so
    assert all("knows no feature the model uses" in e.reason for e in exps if hasattr(e, "reason"))

