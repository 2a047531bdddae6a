"""The dashboard's model of every class (plx_app.service.classes): a label of several classes
gets each instance's class picked among all of them, with every class's bounds, the runner-up,
why and why not, and scores on the test split — the same answers as PLXClassifier."""

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from plx_app.service import Instance, KBSettings, instance_from_row, new_workspace, read_upload
from plx_app.service.classes import (
    ClassAnswer,
    answer_sentences,
    class_answer,
    class_scores,
    classes_fitted,
    fit_classes,
    several,
    true_class,
    ws_class_answer,
)


@pytest.fixture(scope="module")
def ws():
    rng = np.random.default_rng(21)
    n = 300
    frame = pd.DataFrame({"soil": rng.choice(["clay", "sand", "loam"], n),
                          "sun": rng.choice(["full", "shade"], n),
                          "rain": rng.normal(600, 150, n).round(0),
                          "plot": rng.choice(list("abcd"), n)})
    crop = np.where(frame.soil == "clay", "rice",
                    np.where(frame.sun == "shade", "fern", "wheat"))
    crop[rng.random(n) < 0.05] = "fern"
    frame["crop"] = crop
    raw = read_upload(frame.to_csv(index=False).encode(), "crops.csv")
    return new_workspace(raw, replace(raw.defaults, label="crop", positive="rice"),
                         kb=KBSettings("direct"))


def test_each_instance_gets_the_class_the_model_of_every_class_picks(ws):
    assert several(ws) and not classes_fitted(ws)
    est = fit_classes(ws)
    assert classes_fitted(ws) and fit_classes(ws) is est  # once a session
    X, y = ws.part("test")
    picked = []
    for row in X.index[:15]:
        inst = instance_from_row(X, y, row, "test")
        a = class_answer(est, inst)
        assert a.picked == est.predict(X.loc[[row]])[0]
        by = "vote" if "vote" in a.table else "mean"  # what predict compares (a vote's own)
        assert list(a.table["class"]) == sorted(a.table["class"], key=lambda c: -a.table.set_index(
            "class").loc[c, by])  # highest first
        assert a.picked == a.table["class"][0] and a.runner_up == a.table["class"][1]
        assert a.why.explained_class == a.picked and a.why.positive
        assert a.why_not.explained_class == a.runner_up and not a.why_not.positive
        said = answer_sentences(a)
        assert said[0].startswith(f"plx picks {a.picked}:") and said[2].startswith(
            f"Why not {a.runner_up}: ")
        picked.append(a.picked == true_class(ws, inst))
    assert np.mean(picked) >= 0.8  # the classes are the soil and the sun, 5% noise


def test_the_query_and_explain_pages_show_one_answer_per_instance_and_k(ws):
    # the Query page asks for k = 2, the Explain page for its slider's k: the same instance
    # at k = 2 is the one answer (made once), another k its own explanation of the same pick
    X, y = ws.part("test")
    inst = instance_from_row(X, y, X.index[0], "test")
    two = ws_class_answer(ws, inst)
    assert ws_class_answer(ws, inst, 2) is two and two.why.k == 2
    assert two.picked == fit_classes(ws).predict(X.loc[[X.index[0]]])[0]
    one = ws_class_answer(ws, inst, 1)
    assert one.picked == two.picked and one.why.k == 1


def test_an_instance_with_nothing_known_is_answered_without_an_explanation(ws):
    est = fit_classes(ws)
    inst = Instance(tuple((f, None) for f in ws.features), "edited")
    a = class_answer(est, inst)
    assert a.why is None and a.why_not is None and true_class(ws, inst) is None
    assert "Why " in answer_sentences(a)[1] and "no known value explains it" in answer_sentences(a)[1]


def test_the_scores_of_every_class_are_predict_s_on_the_test_rows(ws):
    from sklearn.metrics import f1_score

    est = fit_classes(ws)
    cs = class_scores(ws, est)
    truth = ws.raw.frame.loc[ws.X_test.index, "crop"].astype(str).to_numpy()
    picked = est.predict(ws.X_test).astype(str)
    assert cs.macro_f1 == pytest.approx(f1_score(truth, picked, average="macro"))
    assert cs.confusion.to_numpy().sum() == len(truth)
    assert int(np.trace(cs.confusion.to_numpy())) == int((truth == picked).sum())


def test_a_row_a_class_s_kb_could_not_answer_is_said_never_scored_silently(ws, monkeypatch):
    """A test row the LP failed on for one class: the scores among all classes are not given
    (the pick would be among the others only), naming the row and the class; one instance's
    answer leaves that class out of the pick and says so; an unseen value is said too."""
    import dataclasses

    import plx_core.estimator as E
    from plx_core.errors import SolverError

    est = fit_classes(ws)
    real = E.query_many
    fern = [str(c) for c in est._class_str].index("fern")

    def fern_fails(kb, rows, *a, **kw):  # the 'fern' KB fails on the first row it is given
        b = real(kb, rows, *a, **kw)
        if kb is not est.kbs_[fern]:
            return b
        lo, up = b.lower.copy(), b.upper.copy()
        lo[0] = up[0] = np.nan
        return dataclasses.replace(b, lower=lo, upper=up, failed=((0, "solver crashed"),))

    monkeypatch.setattr(E, "query_many", fern_fails)
    fresh = ws.fork()  # another session: its scores not yet cached
    with pytest.raises(SolverError, match=r"1 row could not be answered .*no class picked "
                       r"among all of them, so nothing is scored.*: class 'fern': solver crashed"):
        class_scores(fresh, est)
    X, y = ws.part("test")
    inst = instance_from_row(X, y, X.index[0], "test")
    inst = Instance(tuple((f, "peat" if f == "soil" else v) for f, v in inst.values), "edited")
    a = class_answer(est, inst)
    assert a.failed == (("fern", "solver crashed"),)
    assert a.picked != "fern" and a.runner_up != "fern"
    assert answer_sentences(a)[-1] == ("fern's KB could not answer this instance (solver "
                                       "crashed): fern is not compared.")
    assert any("'peat'" in n for n in a.notes), a.notes
    assert not any("could not be answered" in n for n in a.notes)  # said once, as `failed`


def test_the_class_table_says_what_each_compared_number_is():
    """A rare class kept on its Direct KB beside voting classes is compared by its KB's mean:
    the Query page's table heads that column in words and says per class which number it is
    (it was headed "vote" over a KB mean, dash23)."""
    from plx_app.service.classes import ClassAnswer, class_table_shown

    table = pd.DataFrame({"class": ["home", "died", "rehab"], "lower": [0.6, 0.1, 0.0],
                          "upper": [0.8, 0.5, 0.2], "mean": [0.7, 0.3, 0.1],
                          "vote": [0.72, 0.3, 0.05]})
    ca = ClassAnswer(table, "home", "died", False, None, None, "vote", kept_direct=("died",))
    shown = class_table_shown(ca)
    assert list(shown.columns) == ["class", "support, at least", "support, at most",
                                   "support, middle", "compared (highest picked)",
                                   "what is compared"]
    assert list(shown["what is compared"]) == [
        "its vote's probability", "its KB's mean (too few rows for a vote)",
        "its vote's probability"]
    assert answer_sentences(ca)[0].startswith(
        "plx picks home: its vote's probability, 0.720, is the highest of the 3 classes")
    assert "the runner-up is died (its KB's mean, 0.300)" in answer_sentences(ca)[0]
    # without votes every class is compared by its mean: no column to explain
    plain = class_table_shown(ClassAnswer(table.drop(columns="vote"), "home", "died", False,
                                          None, None, "direct"))
    assert list(plain.columns) == ["class", "support, at least", "support, at most",
                                   "support, middle"]


def test_a_class_explained_by_its_own_starting_point_is_said_as_that_class_s_kb():
    """One of several classes whose own KB answers a row by its starting point (its prior
    clause: 1.00 for a class of four, dash25's nyha): the sentence named "the model's starting
    point", a model the page does not show; now that class's own KB, its starting point and
    what it answers on all of the row's values."""
    from plx_core.explain import explain
    from plx_core.kb import KB

    head = "# plx KB kind=rule-vote\n" + "".join(f"# domain {f}: 0 1\n" for f in "abcd")
    kb = KB.from_text(head + "[0.97, w=3] POS | ~a=1 | ~b=1 | ~c=1\n[0.62, w=0.2] POS | ~a=1\n"
                      "[0.58, w=0.15] POS | ~b=1\n[0.55, w=0.1] POS | ~c=1\n"
                      "[0.3, w=1.5] POS | ~d=0\n[0, w=1, id=prior] POS\n")
    e = explain(kb, {"a": "1", "b": "1", "c": "1", "d": "1"}, k=2, semantics="relevant")
    bare = explain(kb, {"a": "1", "b": "0", "c": "1", "d": "1"}, k=2, semantics="relevant")
    assert e.best.by_prior and bare.answer_by_prior and not (e.decides or bare.decides)
    table = pd.DataFrame({"class": ["II", "III", "I", "IV"], "lower": [0.97, 0.0, 0.0, 0.0],
                          "upper": [0.97, 0.0, 0.0, 0.0], "mean": [0.97, 0.0, 0.0, 0.0]})
    said = answer_sentences(ClassAnswer(table, "II", "III", False, e, bare, "rule-vote",
                                        starts=(0.0, 0.0)))
    assert said[1].startswith("Why II: No pair of values decides II on its own; its support is "
                              "the starting point of II's own KB (0.00), which its rules about "
                              "these values do not outweigh."), said[1]
    assert said[1].endswith("II's own KB (II against the other 3 classes) starts from 0.00 "
                            "before any value is known (its starting point) and answers 0.97 on "
                            "all of the row's values."), said[1]
    assert said[2].startswith("Why not III: No pair of values decides not III on its own; the "
                              "answer itself is the starting point of III's own KB (0.00)"), said[2]
    assert not any("the model's starting point" in s for s in said), said
    # a class KB without a starting point (no prior clause): what it answers, nothing more
    plain = answer_sentences(ClassAnswer(table, "II", "III", False, e, None, "rule-vote"))[1]
    assert plain.endswith("II's own KB (II against the other 3 classes) answers 0.97 on all "
                          "of the row's values."), plain
