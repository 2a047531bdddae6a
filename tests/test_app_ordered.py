"""Ordered levels in the dashboard (ordered27): the Data page offers to treat a known scale's
classes as ordered (saved with the project), the Query / Explain / Evaluate pages' "Among all"
section answers a level as `plx predict` writes it and explains it by a step, the model file
of the levels answers as the dashboard does, and the Rules page says why its model takes no
rules. One small seeded table (mild < moderate < severe, a score and a category)."""

from __future__ import annotations

import io
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from test_app import errors, run, texts

from plx_app.service import KBSettings, instance_from_row, new_workspace, read_upload
from plx_app.service.classes import (
    answer_sentences,
    class_answer,
    class_order,
    class_scores,
    fit_classes,
    levels_model_file,
)
from plx_core import wording

LEVELS = ("mild", "moderate", "severe")


def severity_frame(n: int = 180, seed: int = 27) -> pd.DataFrame:
    """A pain score and swelling behind three graded levels, with noise (seeded)."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({"pain": rng.integers(0, 11, n),
                          "swelling": rng.choice(["none", "some", "marked"], n)})
    score = (frame.pain + 3.0 * (frame.swelling == "marked") + 1.5 * (frame.swelling == "some")
             + rng.normal(0, 1.2, n))
    frame["severity"] = np.where(score < 4, "mild", np.where(score < 8, "moderate", "severe"))
    return frame


@pytest.fixture(scope="module")
def ws():
    raw = read_upload(severity_frame().to_csv(index=False).encode(), "severity.csv")
    return new_workspace(raw, replace(raw.defaults, label="severity", positive="severe",
                                      class_order=LEVELS), kb=KBSettings("direct"))


def test_a_level_is_answered_as_plx_predict_writes_it_from_the_dashboard_s_model_file(
        ws, tmp_path):
    """The level, the runner-up, the tie and every level's bounds and vote of an instance are
    the columns `plx predict` writes from the model file the dashboard saves; the explanation
    is `plx explain`'s step and features; the file answers every test row as the dashboard's
    estimator does."""
    from plx_core.cli import main

    est = fit_classes(ws)
    assert class_order(ws) == LEVELS and est.class_order_ == list(LEVELS)
    model, rows = tmp_path / "levels.json", tmp_path / "rows.csv"
    model.write_bytes(levels_model_file(ws))
    test = ws.raw.frame.loc[ws.X_test.index]
    test.to_csv(rows, index=False)
    assert main(["predict", str(model), str(rows), "--out", str(tmp_path / "p.csv")]) == 0
    assert main(["explain", str(model), str(rows), "--out", str(tmp_path / "e.csv")]) == 0
    pred = pd.read_csv(tmp_path / "p.csv", dtype={"decision": str, "runner_up": str})
    expl = pd.read_csv(tmp_path / "e.csv", dtype=str)
    assert list(pred["decision"]) == [str(c) for c in est.predict(ws.X_test)]
    X, y = ws.part("test")
    for i, row in enumerate(X.index[:6]):
        a = class_answer(est, instance_from_row(X, y, row, "test"))
        p = pred.iloc[i]
        assert (a.picked, a.runner_up, a.tie) == (p["decision"], p["runner_up"], bool(p["tie"]))
        assert list(a.table["class"]) == list(LEVELS)  # the scale's order, lowest first
        for _, r in a.table.iterrows():
            for side in ("lower", "upper", "vote"):
                assert r[side] == pytest.approx(p[f"{side}:{r['class']}"], abs=1e-9)
        assert a.why.explained_class == expl["explained_class"].iloc[i] == str(a.steps[0])
        assert a.why.features == dict(f.split("=", 1) for f in expl["features"].iloc[i].split(" AND "))
        said = answer_sentences(a)
        assert said[0].startswith(f"plx answers the level {a.picked!r}: the row is above "
                                  f"{LEVELS.index(a.picked)} of the 2 steps")
        assert said[1].startswith(f"Why {a.picked!r}: the step that decides it is {a.steps[0]} "
                                  f"against {a.steps[0].negative}")
        if a.steps[1] == a.steps[0]:  # the runner-up across the same step: said once
            assert said[2] == wording.level_why_said("Why not", a.runner_up, a.steps[0], same=True)
        else:
            assert said[2].startswith(f"Why not {a.runner_up!r}: the step that decides it is "
                                      f"{a.steps[1]}")


def test_the_levels_are_scored_in_the_scale_s_order_with_the_mean_level_error(ws):
    cs = class_scores(ws, fit_classes(ws))
    assert list(cs.confusion.index) == list(cs.confusion.columns) == list(LEVELS)
    m = cs.confusion.to_numpy()
    rank = np.arange(3)
    error = (m * np.abs(rank[:, None] - rank[None, :])).sum() / m.sum()
    assert cs.level_error == pytest.approx(error) and 0 <= cs.level_error < 1


def test_the_pages_show_the_level_its_steps_its_scores_and_why_no_rules(ws):
    """Query, Explain, Evaluate, Rules and Knowledge base on one ordered session (the model
    of the levels fitted once: the pages show it without a button)."""
    est = fit_classes(ws)
    X, y = ws.part("test")
    ws.set_selected(instance_from_row(X, y, X.index[0], "test"))
    level = str(est.predict(X.loc[[X.index[0]]])[0])
    at = run("plx_app/views/3_Query.py", ws)
    assert {m.label: m.value for m in at.metric}["Level answered"] == level
    assert "The label's 3 classes are ordered levels ('mild' < 'moderate' < 'severe')" in texts(at)
    assert f"plx answers the level {level!r}" in texts(at)
    head = wording.LEVEL_TABLE_HEADERS["class"]
    shown = [d.value for d in at.dataframe if head in d.value]
    assert len(shown) == 1 and list(shown[0][head]) == list(LEVELS)
    at.switch_page("plx_app/views/4_Explain.py").run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Level plx answers"] == level
    assert f"Why {level!r}: the step that decides it is " in texts(at)
    at.switch_page("plx_app/views/6_Evaluate.py").run()
    assert not at.exception
    cs = class_scores(ws, est)
    assert {m.label: m.value for m in at.metric}[wording.LEVEL_ERROR] == f"{cs.level_error:.3f}"
    assert wording.level_error_said(cs.level_error, 3) in texts(at)
    assert "Confusion matrix in the scale's order, lowest level first" in texts(at)
    at.switch_page("plx_app/views/5_Rules.py").run()
    assert not at.exception
    assert "holds no expert rules yet: its steps answer 'above a level'" in texts(at)
    at.switch_page("plx_app/views/2_Knowledge_base.py").run()
    at.session_state["kb_tab"] = "Export / import"
    at.run()
    assert not at.exception
    assert wording.levels_file_said(LEVELS, True) in texts(at)
    assert "Model file of the ordered levels (JSON, for plx predict)" in [
        b.label for b in at.get("download_button")]
    # the file it saves, uploaded back: it answers the test rows as this session's levels do
    at.file_uploader(key="kb_model_check").set_value(
        ("levels.json", levels_model_file(ws), "application/json")).run()
    assert not at.exception and not errors(at)
    assert wording.model_file_check_said(
        "ordered levels 'mild' < 'moderate' < 'severe'", len(ws.X_test), cs.macro_f1,
        cs.accuracy, cs.level_error, 0) in texts(at)
    at.file_uploader(key="kb_model_check").set_value(
        ("levels.json", b'{"format": "plx-model", "version": 3}', "application/json")).run()
    assert not at.exception and len(errors(at)) == 1
    assert errors(at)[0].startswith("The model file could not answer this data: the model file")


def test_the_data_page_offers_the_order_and_a_refresh_keeps_it():
    """A new user uploads a table whose label is a known scale: the Data page offers to treat
    it as ordered with the order shown; an order leaving out a level is refused in one line
    (and the data not used); the order chosen is saved with the project: a new session (a
    refresh) opens with it."""
    csv = io.BytesIO()
    severity_frame(120, seed=5).to_csv(csv, index=False)
    at = run("plx_app/views/1_Data.py")
    at.radio(key="data_source").set_value("Upload a CSV").run()
    at.file_uploader(key="data_upload").set_value(("grades.csv", csv.getvalue(), "text/csv")).run()
    label = [k for k in at.session_state if str(k).startswith("data_label_")][0]
    at.selectbox(key=label).set_value("severity").run()
    box = [k for k in at.session_state if str(k).startswith("data_ordered_")][0]
    # ticked at first sight: a known scale's words are levels by default, as plx fit fits them
    assert at.checkbox(key=box).label == wording.ORDERED_CHOICE and at.checkbox(key=box).value
    order = [k for k in at.session_state if str(k).startswith("data_order_")][0]
    assert at.text_input(key=order).value == "mild, moderate, severe"
    assert "('mild' < 'moderate' < 'severe')" in texts(at)
    at.text_input(key=order).set_value("mild, severe").run()
    assert errors(at) == [
        "The order leaves out the class 'moderate' of the label 'severity': name every class "
        "from lowest to highest level"]
    assert at.button(key="data_apply").disabled
    at.text_input(key=order).set_value("mild, moderate, severe").run()
    at.button(key="data_apply").click().run()
    assert not at.exception and not at.error
    assert at.session_state["ws"].settings.class_order == LEVELS
    again = run("plx_app/views/1_Data.py")  # a refresh: a new session opens the project
    assert again.session_state["ws"].settings.class_order == LEVELS
    assert wording.levels_in_use_said(LEVELS) in texts(again)
    assert again.checkbox(key=box).value and again.text_input(key=order).value == (
        "mild, moderate, severe")


def test_ordered_levels_cut_numbers_where_the_levels_change():
    """A number that parts mild from moderate at 3 and moderate from severe at 7: against the
    positive class 'severe' alone only the upper change is a cut; treated as ordered levels,
    the Data page cuts at both (each step's model needs its own)."""
    from plx_app.service import split

    rng = np.random.default_rng(3)
    x = rng.uniform(0, 10, 300).round(2)
    frame = pd.DataFrame({"x": x, "other": rng.choice(["a", "b"], 300),
                          "severity": np.where(x < 3, "mild", np.where(x < 7, "moderate", "severe"))})
    raw = read_upload(frame.to_csv(index=False).encode(), "cuts.csv")
    base = replace(raw.defaults, label="severity", positive="severe")
    one = split(raw, base).dataset.schema.bins["x"].cuts
    levels = split(raw, replace(base, class_order=LEVELS)).dataset.schema.bins["x"].cuts
    assert not any(2 < c < 4 for c in one) and any(6 < c < 8 for c in one)
    assert any(2 < c < 4 for c in levels) and any(6 < c < 8 for c in levels)


def test_a_project_file_carries_the_order_to_another_store(tmp_path):
    """The Projects page's export / import (a .zip): the order comes back with the settings."""
    from plx_app.service.projects import create_project, open_project
    from plx_core.store import Store

    raw = read_upload(severity_frame(90, seed=8).to_csv(index=False).encode(), "grades.csv")
    settings = replace(raw.defaults, label="severity", positive="severe", class_order=LEVELS)
    here, there = Store(home=tmp_path / "a"), Store(home=tmp_path / "b")
    data = here.export_project(create_project(here, "grades", raw, settings))
    ws, _link, notes = open_project(there, there.import_project(data).id)
    assert notes == [] and ws.settings.class_order == LEVELS and class_order(ws) == LEVELS
