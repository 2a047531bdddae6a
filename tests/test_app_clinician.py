"""What a clinician with a new table checks, without a browser: the decision threshold is a
control (`Workspace.set_threshold`, the Evaluate page's "Decide at … on every page", as
`plx fit --threshold`) that every answer follows and the project keeps; the class imbalance
handling of plx's default is said as it is done (class weights, not repeated rows; none when
the user chooses no balancing); a row of a several-class label shows its own class."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from plx_app.service import instance_from_row, new_workspace, read_upload, use_data
from plx_app.service.explain import ws_explain
from plx_app.service.insight import ws_case_report
from plx_app.service.projects import create_project, open_project, sync
from plx_core import wording
from plx_core.errors import DataError
from plx_core.store import Store


def rare_events(n: int = 400, seed: int = 3) -> bytes:
    """A clinic's export: ~8% 'event' rows, more of them when old with a high CRP."""
    r = np.random.default_rng(seed)
    age = r.integers(20, 90, n)
    crp = np.round(np.exp(r.normal(1.5, 1, n)), 1)
    risk = 0.05 * (age - 55) + 0.3 * np.log(crp) + r.normal(0, 1, n)
    f = pd.DataFrame({"age": age, "crp": crp, "smoker": r.choice(["yes", "no"], n),
                      "outcome": np.where(risk > np.quantile(risk, 0.92), "event", "no event")})
    return f.to_csv(index=False).encode()


@pytest.fixture
def store(tmp_path):
    s = Store(home=tmp_path)
    yield s
    s.close()


def test_a_threshold_set_answers_on_every_page_and_is_saved(store):
    raw = read_upload(rare_events(), "events.csv")
    pid = create_project(store, "Events")
    ws, lk, _ = open_project(store, pid)
    use_data(ws, raw, replace(raw.defaults, positive="event"))
    ws.ensure_kb()
    own = ws.threshold
    before = ws.decisions("test")
    low = round(float(np.quantile(before["lower"] + before["upper"], 0.5) / 2), 2)
    assert low < own  # half the test rows above it: more flagged than at the model's own
    ws.set_threshold(low)
    after = ws.decisions("test")  # not the cached answers at the old threshold
    assert ws.threshold == low and ws.own_threshold == own
    pos_before, pos_after = before["decision"] == "POS", after["decision"] == "POS"
    assert pos_after.sum() > pos_before.sum()
    flipped = after.index[pos_after & ~pos_before][0]
    values = ws.X_test.loc[flipped].to_dict()
    assert ws.decision_word(ws.query(values)) == "POS"
    assert ws_explain(ws, values, 1).positive  # the side it now decides
    assert ws.threshold_said() == f"{low:g}, set by you (the model's own: {own:g})"

    assert sync(ws, lk, "Ann") == ["data and settings"]
    ws2, _, notes = open_project(store, pid)  # a browser refresh opens the project again
    assert notes == [] and ws2.threshold == low
    assert (ws2.decisions("test")["decision"] == "POS").sum() == pos_after.sum()

    ws2.set_threshold(None)
    assert ws2.threshold == own and ws2.threshold_said() == f"{own:g}"
    for bad in (1.5, "0.3", float("nan")):  # checked as plx fit --threshold checks it
        with pytest.raises(DataError, match=r"threshold must be a number in \[0, 1\)"):
            ws2.set_threshold(bad)
    assert ws2.threshold == own  # nothing changed by the refused value

    # another positive class on the same table: the threshold set for 'event' is not kept
    ws2.set_threshold(low)
    notes = use_data(ws2, raw, replace(raw.defaults, positive="no event"))
    assert ws2.kb_settings.threshold is None
    assert any(f"threshold you set ({low:g}) was chosen for outcome = event" in n for n in notes)
    ws2.set_threshold(low)  # the same question again (another split): kept
    assert use_data(ws2, raw, replace(raw.defaults, positive="no event", test_size=0.25)) == []
    assert ws2.kb_settings.threshold == low
    ws2.set_threshold(None)

    # a project whose saved threshold is no threshold (edited by hand, 1.5) opens at the model's
    # own and says so; it answered at 1.5 (every row negative) before
    p = store.get(pid)
    store.save(pid, p.version, kb={**p.kb, "threshold": 1.5})
    ws3, _, notes = open_project(store, pid)
    assert ws3.threshold == own and len(notes) == 1
    assert "saved KB settings do not apply" in notes[0] and "got 1.5" in notes[0]


def test_the_imbalance_handling_is_said_as_plx_default_does_it():
    raw = read_upload(rare_events(), "events.csv")
    balanced = new_workspace(raw, replace(raw.defaults, positive="event"), build=True)
    assert balanced.learner == "weighted" and len(balanced.X_train) > balanced.n_train_rows
    said = wording.split_sentence(400, balanced.n_train_rows, len(balanced.X_train),
                                  len(balanced.X_test), "train", 0.3, learner=balanced.learner)
    # it learns each row once, weighing the classes: never "the KB learns from" the repeats
    assert "the KB learns from" not in said
    assert (f"plx's default learns from each of the {balanced.n_train_rows} training rows once "
            "and weighs the classes equally instead of repeating rows") in said
    done = wording.rows_in_use("events.csv", balanced.n_train_rows, len(balanced.X_train),
                               len(balanced.X_test), balanced.learner)
    assert done.endswith("(plx's default weighs the classes equally instead of repeating rows)")

    # no balancing is what the model does too: the rows' own mix, no class weights
    mix = new_workspace(raw, replace(raw.defaults, positive="event", balance="none"), build=True)
    assert mix.learner == "mix"
    assert "own mix of classes" in wording.split_sentence(
        400, mix.n_train_rows, len(mix.X_train), len(mix.X_test), "none", learner=mix.learner)
    support = [w.decisions("test")["mean"].mean() for w in (balanced, mix)]
    assert support[1] < 0.15 < support[0]  # unweighted, an 8% class gets about its base rate


def test_a_row_of_a_several_class_label_shows_its_own_class():
    r = np.random.default_rng(21)
    n = 300
    cls = r.choice(["asthma", "copd", "pneumonia", "healthy", "heart failure"], n)
    frame = pd.DataFrame({"temp": np.round(36.8 + 1.5 * (cls == "pneumonia")
                                           + r.normal(0, 0.4, n), 1),
                          "wheeze": np.where(np.isin(cls, ["asthma", "copd"]), "yes", "no"),
                          "diagnosis": cls})
    raw = read_upload(frame.to_csv(index=False).encode(), "five.csv")
    ws = new_workspace(raw, replace(raw.defaults, positive="pneumonia"), build=True)
    row = next(i for i in ws.X_test.index if raw.frame.loc[i, "diagnosis"] == "copd")
    inst = instance_from_row(ws.X_test, ws.y_test, row, "test")
    assert inst.label == "not pneumonia"  # what the KB of pneumonia against the rest learns
    assert ws.recorded_label(inst) == "copd"  # what the Query, Explain pages and report show
    report = ws_case_report(ws, inst, 1)
    assert "The recorded label is copd: plx is" in report
    assert "The recorded label is not pneumonia" not in report
    # the Query page's rows and its Label filter: the table's classes
    from test_app import run

    at = run("plx_app/views/3_Query.py", ws)
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="q_f_label").options == [
        "(any)", "asthma", "copd", "healthy", "heart failure", "pneumonia"]
    assert ws.recorded_labels("train").isin(["asthma", "copd", "healthy", "heart failure",
                                             "pneumonia"]).all()


def visit_falls(patients: int = 120, seed: int = 22) -> bytes:
    """One row a visit, 1–5 visits a patient 'P0001'…; a fall recorded at each visit (its own
    outcome, so no column reads as several rows a case by itself)."""
    r = np.random.default_rng(seed)
    n = r.integers(1, 6, patients)
    frail = np.repeat(r.random(patients) < 0.3, n)
    m = int(n.sum())
    return pd.DataFrame({
        "patient": np.repeat([f"P{i:04d}" for i in range(patients)], n),
        "gait_speed": np.round(r.normal(np.where(frail, 0.8, 1.2), 0.2), 2),
        "lives_alone": r.choice(["yes", "no"], m),
        "fall": np.where((frail & (r.random(m) < 0.5)) | (r.random(m) < 0.08), "yes", "no"),
    }).to_csv(index=False).encode()


def test_the_data_page_lets_a_case_column_be_named_when_none_reads_as_one():
    # plx fit --case-column takes any column; the page offered only one whose rows all share
    # their case's label, so a table of visits with each visit's own outcome had no way to it
    from app_util import classic_workspace
    from test_app import applied_by_case, errors, run, texts

    at = run("plx_app/views/1_Data.py", classic_workspace(build=False).fork())
    at.radio(key="data_source").set_value("Upload a CSV").run()
    at.file_uploader(key="data_upload").set_value(("visits.csv", visit_falls(), "text/csv")).run()
    pos_key = next(s for s in at.session_state if str(s).startswith("data_pos_"))
    at.selectbox(key=pos_key).set_value("yes").run()
    key = next(s for s in at.session_state if str(s).startswith("data_caseof_"))
    box = at.selectbox(key=key)
    assert box.value.startswith("(none") and "patient" in box.options  # offered, not assumed
    box.set_value("patient").run()
    assert not at.exception and not errors(at)
    assert "Column 'patient' names each row's case (120 cases)" in texts(at)
    applied_by_case(at, "patient")
    said = " ".join(texts(at).split())
    assert "plx's default weighs the classes equally instead of repeating rows" in said


def test_both_classes_are_named_as_the_file_writes_them():
    # a two-class label's other class read "not event" on every page, the report and the
    # explanations, where the file writes "no event"; several classes grouped stay "not …"
    from test_app import run, texts

    raw = read_upload(rare_events(), "events.csv")
    ws = new_workspace(raw, replace(raw.defaults, positive="event"), build=True)
    assert wording.class_names(ws.class_name) == ("event", "no event")
    d = ws.decisions("test")
    row = d.index[d["decision"] == "NOT POS"][0]
    values = ws.X_test.loc[row].to_dict()
    b = ws.query(values)
    said = wording.answer_sentence(b, ws.class_name, kb=ws.view().kb, threshold=ws.threshold)
    assert said.endswith("so no event.") or "so no event" in said, said
    assert wording.decision_word(b.lower, b.upper, ws.class_name, ws.threshold) == "no event"
    assert "no event" in wording.explanation_sentence(ws_explain(ws, values, 1), ws.class_name)
    inst = instance_from_row(ws.X_test, ws.y_test, row, "test")
    report = ws_case_report(ws, inst, 1)
    assert "no event" in report and "not event" not in report
    ws.set_selected(inst)
    for page in ("plx_app/views/3_Query.py", "plx_app/views/4_Explain.py",
                 "plx_app/views/5_Rules.py"):
        at = run(page, ws)
        shown = texts(at) + " ".join(str(m.value) for m in at.metric)
        assert "not event" not in shown, page
    assert "no event" in " ".join(str(m.value) for m in run("plx_app/views/3_Query.py",
                                                            ws).metric)
    # 0/1 and yes/no values read with their column, both sides; several classes: "not …"
    assert wording.class_names(wording.class_name("1", "Survived", ["0", "1"])) == (
        "Survived = 1", "Survived = 0")
    assert wording.class_names(wording.class_name("yes", "smoker", ["no", "yes"])) == (
        "smoker = yes", "smoker = no")
    assert wording.class_names(wording.class_name("copd", "dx", [])) == ("copd", "not copd")
    assert wording.class_names("Survived = 1", "Survived = 0")[1] == "Survived = 0"


def test_a_case_column_no_longer_offered_is_said_naming_it():
    # the case column of the data in use (a project's saved one) fell back to "none" without a
    # word when another table was uploaded or the column was no longer offered
    from test_app import run, texts

    raw = read_upload(visit_falls(), "visits.csv")
    ws = new_workspace(raw, replace(raw.defaults, positive="yes", case_column="patient"),
                       build=False)
    assert ws.settings.case_column == "patient"
    at = run("plx_app/views/1_Data.py", ws)
    assert "is not kept" not in texts(at)  # the same table: offered, kept
    at.radio(key="data_source").set_value("Upload a CSV").run()
    at.file_uploader(key="data_upload").set_value(("events.csv", rare_events(), "text/csv")).run()
    said = " ".join(texts(at).split())
    assert ("The case column 'patient' of the data in use is not kept: this table has no such "
            "column. Each row is its own case") in said
    assert said.count("is not kept") == 1  # once
    assert wording.case_column_dropped("patient", True, others=True).endswith(
        "its values do not name cases of several rows. Each row is its own case unless you name "
        "another case column below.")


def test_a_case_column_is_ticked_only_on_the_table_it_was_confirmed_on():
    # the data in use's case column started chosen on any newly uploaded table with a column of
    # that name (review21): a case column is confirmed per table, as the page says
    from test_app import run

    raw = read_upload(visit_falls(), "visits.csv")
    ws = new_workspace(raw, replace(raw.defaults, positive="yes", case_column="patient"),
                       build=False)
    at = run("plx_app/views/1_Data.py", ws)
    key = next(s for s in at.session_state if str(s).startswith("data_caseof_"))
    assert at.selectbox(key=key).value == "patient"  # the same table: kept
    at.radio(key="data_source").set_value("Upload a CSV").run()
    at.file_uploader(key="data_upload").set_value(
        ("visits_b.csv", visit_falls(80, seed=5), "text/csv")).run()
    pos_key = next(s for s in at.session_state if str(s).startswith("data_pos_"))
    at.selectbox(key=pos_key).set_value("yes").run()
    box = at.selectbox(key=next(s for s in at.session_state
                                if str(s).startswith("data_caseof_") and s != key))
    assert box.value.startswith("(none") and "patient" in box.options  # offered, not assumed


def test_counts_are_said_in_their_own_number_and_the_files_classes():
    # words21's walk, a 2% class: "1 false negatives", "8 / 9 positives found", "in 1
    # explanation(s)", "with 1 rule(s)"; a three-class pick said the Query page sentence twice
    from plx_app.service import positive_note
    from plx_core.plots import global_features

    icu = wording.class_name("ICU transfer", "outcome", ["ward", "ICU transfer"])
    said = wording.counts_at_threshold(0.45, 8, 51, 390, 1, icu)
    assert said == ("At threshold 0.45, of the 450 test rows: 8 true positives, 51 false "
                    "positives, 390 true negatives, 1 false negative. Sensitivity 0.889 = 8 of "
                    "the 9 ICU transfer rows found; specificity 0.884 = 390 of the 441 ward rows "
                    "kept ward.")
    assert "1 true positive, 1 false positive, 1 true negative" in wording.counts_at_threshold(
        0.5, 1, 1, 1, 0, icu)
    assert wording.counted(1, "rule") == "1 rule" and wording.counted(1204, "row") == "1,204 rows"
    frame = pd.DataFrame({"feature": ["lactate", "sbp"], "mean_abs_shapley": [0.03, 0.09],
                          "in_explanation": [1, 41], "for_pos": [0, 11], "for_neg": [1, 30]})
    labels = " ".join(a.text for a in global_features(frame, positive=icu).layout.annotations)
    assert "in 1 explanation (0 ICU transfer, 1 ward)" in labels and "(s)" not in labels
    assert "in 41 explanations (11 ICU transfer, 30 ward)" in labels
    note = positive_note(["mild", "moderate", "severe"], "severe")
    assert note.startswith("plx assumes no positive class among 3 classes") and "Query" not in note

    from test_app import run, texts

    raw = read_upload(rare_events(), "events.csv")
    ws = new_workspace(raw, replace(raw.defaults, positive="event"), build=True)
    at = run("plx_app/views/6_Evaluate.py", ws)
    body = " ".join(texts(at).split())
    assert "event rows found; specificity" in body and "no event rows kept no event." in body


def test_a_browser_refresh_answers_with_the_kb_built_before(store):
    # a refresh opens the project in a new session, which fitted the uploaded table's model
    # again (13 s at load 10 on 1,050 rows x 30 columns in words21's walk); the same rows and
    # settings give the same KB (a fit is deterministic), so it is the one built before
    raw = read_upload(rare_events(n=300, seed=11), "events.csv")
    pid = create_project(store, "Events")
    ws, lk, _ = open_project(store, pid)
    use_data(ws, raw, replace(raw.defaults, positive="event"))
    ws.ensure_kb()
    sync(ws, lk, "Ann")
    ws2, _, notes = open_project(store, pid)
    assert notes == [] and ws2.kb is ws.kb and ws2.model is ws.model
    ws3, _, _ = open_project(store, pid)
    assert ws3.decisions("test").equals(ws.decisions("test"))
    other = new_workspace(raw, replace(raw.defaults, positive="event", balance="none"))
    assert other.kb is not ws.kb  # other settings: fitted on their own
