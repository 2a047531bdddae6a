"""Several classes answered by a vote family: compared by the vote's own probability
(`vote.kb_probability`, `BoundsArray.compared_by`) in predict, predict_proba, explain, model
files and `plx predict` alike, the KBs' bounds kept beside (multi22)."""

import numpy as np
import pandas as pd
import pytest

from plx_core import selection as S
from plx_core.cli import Model, main
from plx_core.estimator import PLXClassifier
from plx_core.modelfile import load_model, save_model
from plx_core.query import encode_rows
from plx_core.vote import kb_probability


def _three_scores(n: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    """Three colours, each the highest of a noisy sum of matching values over five
    categorical features: additive evidence, what a vote weighs."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({f"f{i}": rng.choice(["a", "b", "c", "d"], n) for i in range(5)})
    score = {c: sum((X[f"f{i}"] == "abcd"[(i + k) % 4]).astype(float) * (1 + 0.3 * i)
                    for i in range(5)) + rng.normal(0, .6, n)
             for k, c in enumerate(["red", "green", "blue"])}
    return X, pd.DataFrame(score).idxmax(axis=1).to_numpy()


@pytest.fixture
def voted(monkeypatch):
    """A model of three classes answered by the direct vote (the search offered the Direct KB
    and the vote, as `selection.CANDIDATES` is patched), with its held-out rows."""
    monkeypatch.setattr(S, "CANDIDATES", ("direct", "direct-vote"))
    X, y = _three_scores(600, 3)
    clf = PLXClassifier(random_state=0).fit(X[:300], y[:300])
    assert clf.class_chosen_ == ["direct-vote"] * 3
    return clf, X[300:].reset_index(drop=True), y[300:]


def test_classes_are_compared_by_the_votes_probability_not_the_kbs_mean(voted):
    clf, X, _y = voted
    rows = clf.transform_rows(X)
    votes = np.column_stack([kb_probability(kb, encode_rows(kb, rows)) for kb in clf.kbs_])
    b = clf.bounds(X)
    means = np.column_stack([b[c]["mean"] for c in clf._class_str])
    pred = clf.predict(X)
    assert (pred == clf.classes_[votes.argmax(axis=1)]).all()
    # the KB's weighted median says "this class or the rest" as its vote does (where some
    # clause bears on the row; else [0, 1] beside the vote's prior) …
    said = np.column_stack([(b[c]["upper"] - b[c]["lower"]) < 1 for c in clf._class_str])
    assert ((means > 0.5) == (votes > 0.5))[said].all()
    # … but orders the classes otherwise on some rows: predict follows the vote there
    assert (means.argmax(axis=1) != votes.argmax(axis=1)).sum() >= 5
    proba = clf.predict_proba(X)
    assert np.allclose(proba.sum(axis=1), 1.0)
    assert (clf.classes_[proba.argmax(axis=1)] == pred).all()
    assert np.allclose(proba, votes / votes.sum(axis=1, keepdims=True))


def test_explain_and_a_saved_model_follow_the_same_class_row_by_row(voted, tmp_path):
    clf, X, _y = voted
    pred = clf.predict(X)
    explained = [e.explained_class for e in clf.explain_many(X, k=2)]
    assert explained == [str(c) for c in pred]
    save_model(clf, tmp_path / "m.json")
    mf = load_model(tmp_path / "m.json")
    assert mf.decision == "highest vote" and all(map(mf.by_vote, range(3)))
    answered = Model(mf).predict(mf.schema.apply(X, label=False)[0])
    assert answered["decision"].tolist() == [str(c) for c in pred]
    for c, r in zip(clf._class_str, clf._means(X)):  # the file's numbers are the fit's
        assert np.allclose(answered[f"vote:{c}"], r.compared_by)
        assert np.allclose(answered[f"lower:{c}"], r.lower)  # and its bounds, beside


def test_a_rule_vote_is_compared_by_its_probability_too(monkeypatch):
    """The rule vote's KB (one-feature clauses and tree paths) gives back its vote's decision
    at 0.5 on every row, and predict compares its classes by that probability."""
    monkeypatch.setattr(S, "CANDIDATES", ("direct", "rule-vote"))
    from tests.test_estimator import _four_dnf_classes

    X, y = _four_dnf_classes(700, 11)
    clf = PLXClassifier(random_state=0).fit(X[:400], y[:400])
    assert clf.class_chosen_ == ["rule-vote"] * 4
    res = clf._means(X[400:])
    said = [(r.upper - r.lower) < 1 for r in res]  # a clause bears on the row
    assert all(((r.mean > 0.5) == (r.vote > 0.5))[k].all() for r, k in zip(res, said))
    votes = np.column_stack([r.vote for r in res])
    assert (clf.predict(X[400:]) == clf.classes_[votes.argmax(axis=1)]).all()


def test_a_model_of_kbs_keeps_the_highest_mean(monkeypatch, tmp_path):
    """Classes answered by Direct KBs are compared by their means, as before: the file says
    "highest mean" and `plx predict` writes no vote column."""
    monkeypatch.setattr(S, "CANDIDATES", ("direct",))
    X, y = _three_scores(300, 4)
    clf = PLXClassifier(random_state=0).fit(X, y)
    assert all(r.vote is None for r in clf._means(X[:20]))
    save_model(clf, tmp_path / "m.json")
    mf = load_model(tmp_path / "m.json")
    assert mf.decision == "highest mean"
    out = Model(mf).predict(mf.schema.apply(X[:20], label=False)[0])
    assert "vote" not in out and (out["decision"] == clf.predict(X[:20])).all()


def test_plx_predict_of_several_voted_classes(monkeypatch, tmp_path, capsys):
    """`plx fit` without --positive on a CSV of three classes the vote answers: the fit line
    says the vote's probability decides; `plx predict` writes each class's vote beside its
    bounds, the decision the highest vote."""
    monkeypatch.setattr(S, "CANDIDATES", ("direct", "direct-vote"))
    X, y = _three_scores(400, 5)
    data = tmp_path / "colours.csv"
    X.assign(colour=y).to_csv(data, index=False)
    model, out = tmp_path / "m.json", tmp_path / "p.csv"
    assert main(["fit", str(data), "--label", "colour", "--out", str(model)]) == 0
    said = capsys.readouterr().out
    assert "a row's class is the one whose vote gives it the highest probability" in said
    assert main(["predict", str(model), str(data), "--out", str(out)]) == 0
    pred = pd.read_csv(out)
    votes = pred[["vote:blue", "vote:green", "vote:red"]].to_numpy()
    assert (pred["decision"] == np.array(["blue", "green", "red"])[votes.argmax(axis=1)]).all()
    assert np.allclose(pred["vote"], votes.max(axis=1))
    assert {"lower:red", "upper:red", "mean"} <= set(pred.columns)


def test_a_rare_class_beside_votes_is_said_compared_by_its_kbs_mean(monkeypatch, tmp_path,
                                                                    capsys):
    """A 3-row class keeps its Direct KB beside three voted classes: it is compared by its
    KB's mean, and the fit's reason, `plx fit`'s line and the dashboard's sentence say so
    rather than calling every class's number a vote; a saved model answers as the fit."""
    from plx_app.service.classes import ClassAnswer, answer_sentences

    monkeypatch.setattr(S, "CANDIDATES", ("direct", "direct-vote"))
    X, y = _three_scores(600, 3)
    y = y.astype(object)
    y[[5, 17, 40]] = "purple"
    with pytest.warns(UserWarning, match="purple"):
        clf = PLXClassifier(random_state=0).fit(X[:300], y[:300])
    assert clf.class_chosen_ == ["direct-vote", "direct-vote", "direct", "direct-vote"]
    assert "its vote's probability, for 'purple' its KB's mean" in clf.chosen_reason_
    save_model(clf, tmp_path / "m.json")
    mf = load_model(tmp_path / "m.json")
    assert [mf.by_vote(i) for i in range(4)] == [True, True, False, True]
    rows = X[300:].reset_index(drop=True)
    answered = Model(mf).predict(mf.schema.apply(rows, label=False)[0])
    assert answered["decision"].tolist() == [str(c) for c in clf.predict(rows)]
    assert np.allclose(answered["vote:purple"], clf._means(rows)[2].mean)  # its KB's mean
    # a row nothing is known of: the votes' priors decide it, not the 3-row class's [0, 1]
    blank = pd.DataFrame(np.nan, index=range(2), columns=X.columns)
    assert "purple" not in clf.predict(blank)
    again = Model(mf).predict(mf.schema.apply(blank, label=False)[0])
    assert again["decision"].tolist() == [str(c) for c in clf.predict(blank)]
    table = pd.DataFrame({"class": ["purple", "red"], "lower": [0.6, 0.1], "upper": [0.8, 0.3],
                          "mean": [0.7, 0.2], "vote": [0.7, 0.25]})
    said = answer_sentences(ClassAnswer(table, "purple", "red", False, None, None,
                                        "direct-vote", kept_direct=("purple",)))[0]
    assert "plx picks purple: its KB's mean, 0.700" in said
    assert "red (its vote's probability, 0.250)" in said
    data = tmp_path / "colours.csv"
    X.assign(colour=y).to_csv(data, index=False)
    capsys.readouterr()
    assert main(["fit", str(data), "--label", "colour", "--out", str(tmp_path / "c.json")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "for 'purple' its KB's mean" in next(o for o in out if o.startswith("wrote"))


def test_a_class_whose_rules_say_nothing_of_a_row_is_compared_by_its_vote_prior(monkeypatch,
                                                                              tmp_path, capsys):
    """A rule vote answers a row none of its clauses holds [0, 1]; several classes compare
    that class by its vote's prior alone (σ of the prior clause's signed weight), as the vote
    answers, not by 0.5, which outranked classes whose rules had evidence."""
    from plx_core.vote import PRIOR_ID, probability

    monkeypatch.setattr(S, "CANDIDATES", ("direct", "rule-vote"))
    rng = np.random.default_rng(11)
    n = 1400
    X = pd.DataFrame({f"g{i}": rng.choice(["lo", "mid", "hi"], n) for i in range(8)})
    X = X.mask(rng.random(X.shape) < 0.3)
    y = np.where((X.g0 == "lo") & (X.g1 == "hi") | (X.g2 == "mid") & (X.g3 == "mid"), "north",
                 np.where((X.g4 == "hi") & (X.g5 != "lo"), "east",
                          np.where((X.g6 == "lo") & (X.g7 == "lo"), "south", "west")))
    clf = PLXClassifier(random_state=0).fit(X[:700], y[:700])
    assert clf.class_chosen_ == ["rule-vote"] * 4
    res = clf._means(X[700:])
    for kb, r in zip(clf.kbs_, res):
        bare = (r.lower == 0) & (r.upper == 1)
        prior = [c for c in kb.extra if c.enabled and c.id == PRIOR_ID]
        b = (prior[0].w if prior[0].p > 0.5 else -prior[0].w) if prior else 0.0
        assert bare.any() and np.allclose(r.vote[bare], probability(np.array(b)))
    assert (clf.predict(X[700:]) == y[700:]).mean() > 0.95  # 0.857 with 0.5 there
    # rows no class's KB knows anything of: decided by the priors, and `plx predict` says so
    save_model(clf, tmp_path / "m.json")
    blank = pd.concat([X[700:710], pd.DataFrame(np.nan, index=range(3), columns=X.columns)])
    blank.to_csv(tmp_path / "new.csv", index=False)
    assert main(["predict", str(tmp_path / "m.json"), str(tmp_path / "new.csv"),
                 "--out", str(tmp_path / "p.csv")]) == 0
    first = str(clf.predict(blank.iloc[[10]])[0])
    assert (f"3 rows get the bounds [0, 1] from every class: nothing the model knows bears on "
            f"them (their values missing, unseen or unused), so the classes' vote priors alone "
            f"decide them: {first!r} (e.g. row 11)") in capsys.readouterr().err


def test_an_experts_rule_moves_the_classes_the_vote_compares(voted, tmp_path):
    """A weighted rule added to a voted class's KB counts in the number the classes are
    compared by, as it counts in the bounds (it moved only the bounds): rows whose values hold
    its body go to its class, other rows keep their decision, and the vote's probability and
    the KB's mean still say "this class or the rest" alike."""
    from plx_core.query import query_many
    from plx_core.rules import parse_rules

    clf, X, _y = voted
    save_model(clf, tmp_path / "m.json")
    X.to_csv(tmp_path / "new.csv", index=False)
    (tmp_path / "r.txt").write_text("IF f0=a THEN POS [p=0.99, w=20]\n")
    before, after = tmp_path / "p0.csv", tmp_path / "p1.csv"
    assert main(["predict", str(tmp_path / "m.json"), str(tmp_path / "new.csv"),
                 "--out", str(before)]) == 0
    assert main(["predict", str(tmp_path / "m.json"), str(tmp_path / "new.csv"), "--rules",
                 str(tmp_path / "r.txt"), "--class", "blue", "--out", str(after)]) == 0
    p0, p1 = pd.read_csv(before), pd.read_csv(after)
    held = (X["f0"] == "a").to_numpy()
    assert (p0.decision[held] != "blue").sum() >= 10  # the rule has rows to move
    assert (p1.decision[held] == "blue").all()
    assert (p1.decision[~held] == p0.decision[~held]).all()
    i = list(clf.classes_).index("blue")
    kb = clf.kbs_[i].with_rules(parse_rules("IF f0=a THEN POS [p=0.99, w=20]"))
    b = query_many(kb, X)
    vote = kb_probability(kb, encode_rows(kb, X))
    said = (b.upper - b.lower) < 1
    assert ((b.mean > 0.5) == (vote > 0.5))[said].all()
