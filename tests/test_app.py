"""Every dashboard page and its main interactions through Streamlit's AppTest (no browser).

A page that needs earlier steps gets a seeded workspace in `session_state["ws"]`. Plotly
selection events cannot be sent through AppTest; the browser tests cover those."""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from app_util import classic_workspace
from streamlit.testing.v1 import AppTest

from plx_app.service import (
    DataSettings,
    KBSettings,
    default_max_len,
    instance_from_row,
    new_workspace,
    raw_builtin,
    read_upload,
    rule_clause,
)
from plx_core import wording
from plx_core.errors import DataError

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
APP = str(ROOT / "app.py")
TIMEOUT = 60


def run(page: str | None = None, ws=None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if ws is not None:
        at.session_state["ws"] = ws
    at.run()
    if page is not None:
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [e.value for e in at.info] + [e.value for e in at.warning] + [e.value for e in at.success]
    return "\n".join(str(p) for p in parts).replace("\\", "")


def applied_by_case(at: AppTest, column: str):
    """Click the Data page's "Use this data" and check what a case column promises: no error,
    the column in use as the case column and no feature, no case on both sides of the split.
    Returns the workspace."""
    at.button(key="data_apply").click().run()
    assert not at.exception and not errors(at)
    ws = at.session_state["ws"]
    assert ws.settings.case_column == column and column not in ws.features
    case = ws.raw.frame[column]
    assert not set(case.loc[ws.X_train.index]) & set(case.loc[ws.X_test.index])
    return ws


def errors(at: AppTest) -> list[str]:
    return [str(e.value).replace("\\", "") for e in at.error]


def metric(at: AppTest, label: str) -> str:
    for m in at.metric:
        if m.label == label:
            return m.value
    raise KeyError(label)


@pytest.fixture(scope="module")
def base_ws():
    return classic_workspace()


def fresh(base_ws):
    """A cheap copy of the default workspace (shares the built KB, own rules and caches)."""
    return base_ws.fork()


# --------------------------------------------------------------------------- app and Data page


@pytest.mark.slow
def test_app_opens_on_the_default_diagnosis_set():
    at = run()
    assert [t.value for t in at.title] == ["Data"]
    ws = at.session_state["ws"]
    assert ws.dataset.name == "breast-cancer-wisconsin" and ws.kb is not None
    assert metric(at, "Rows × features") == "569 × 6"
    assert metric(at, "Positive class") == "malignant"
    side = " ".join(c.value for c in at.sidebar.caption).replace("\\", "")
    # plx's default answers, and the sidebar says which model and at which threshold
    assert ws.kb_settings.kind == "auto" and ws.model is not None
    assert f"plx's default ({ws.model.name}, threshold {ws.threshold:g}) · {len(ws.kb):,} " \
        "clauses" in side and "Rules: 0" in side
    assert at.button(key="data_apply").disabled  # nothing to apply yet


@pytest.mark.slow
def test_data_page_switches_to_a_builtin_set(base_ws):
    at = run("plx_app/views/1_Data.py", fresh(base_ws))
    at.selectbox(key="data_builtin").set_value("paper-example").run()
    assert not at.exception
    at.slider(key="data_test_size").set_value(0.25).run()
    at.button(key="data_apply").click().run()
    ws = at.session_state["ws"]
    assert ws.dataset.name == "paper-example" and ws.features == ("a1", "a2", "a3", "a4")
    assert ws.kb is not None and ws.kb.features == ws.features
    assert any("Now using paper-example" in s.value.replace("\\", "") for s in at.success)


CSV = (
    "id,colour,size,weight,outcome\n"
    + "\n".join(f"{i},{c},{s},{w},{o}" for i, (c, s, w, o) in enumerate(
        [("red", "S", 1.5, "yes"), ("blue", "L", 3.2, "no"), ("red", "L", 2.2, "yes"),
         ("green", "S", 0.7, "no"), ("blue", "S", 1.1, "no"), ("red", "M", 2.9, "yes"),
         ("green", "L", 3.9, "no"), ("red", "S", 1.0, "yes"), ("blue", "M", 2.5, "yes"),
         ("green", "M", 1.7, "no"), ("red", "L", 3.3, "no"), ("blue", "L", 0.9, "yes")] * 3))
    + "\n"
).encode()


def test_data_page_counts_the_tables_rows_not_the_balancings_repeats():
    """A 200-row table, 8% positives: balancing repeats training rows of the smaller class;
    the page counted them as rows ("258 / 61" of a 200-row file, "Now using ward.csv: 902
    training" in a clinician's walk). Training and test rows add up to the table's rows, and
    the repeats are said apart."""
    r = np.random.default_rng(4)
    frame = pd.DataFrame({"age": r.integers(20, 90, 200), "ward": r.choice(list("ab"), 200)})
    frame["sick"] = np.where(r.random(200) < 0.08, "yes", "no")
    raw = read_upload(frame.to_csv(index=False).encode(), "ward.csv")
    ws = new_workspace(raw, DataSettings("sick", "yes", ("age", "ward")), kb=KBSettings("direct"))
    assert len(ws.X_train) > ws.n_train_rows  # the balancing repeated rows
    at = run("plx_app/views/1_Data.py", ws)
    assert metric(at, "Train / test rows") == f"{200 - len(ws.X_test)} / {len(ws.X_test)}"
    said = wording.rows_in_use("ward.csv", ws.n_train_rows, len(ws.X_train), len(ws.X_test))
    assert said == (f"Now using ward.csv: {ws.n_train_rows} training rows and {len(ws.X_test)} "
                    f"test rows (the KB learns from {len(ws.X_train)}: balancing repeats "
                    f"{len(ws.X_train) - ws.n_train_rows} training rows of the smaller class)")


@pytest.mark.slow
def test_data_page_upload_label_types_bins_and_split(base_ws):
    at = run("plx_app/views/1_Data.py", fresh(base_ws))
    at.radio(key="data_source").set_value("Upload a CSV").run()
    at.file_uploader(key="data_upload").set_value(("shop.csv", CSV, "text/csv")).run()
    assert not at.exception and not errors(at)
    raw_fp = [s for s in at.session_state if str(s).startswith("data_label_")]
    label_box = at.selectbox(key=raw_fp[0])
    assert label_box.value == "outcome"  # guessed from the name
    pos_key = [s for s in at.session_state if str(s).startswith("data_pos_")][0]
    at.selectbox(key=pos_key).set_value("yes").run()
    feat_key = [s for s in at.session_state if str(s).startswith("data_features_")][0]
    # the ID column is left out automatically (and the preview says why)
    assert "id" not in at.multiselect(key=feat_key).value
    assert "ID-like" in texts(at)
    num_key = [s for s in at.session_state if str(s).startswith("data_numeric_")][0]
    assert at.multiselect(key=num_key).value == ["weight"]  # 12 distinct numbers
    at.multiselect(key=num_key).set_value([]).run()
    assert "'weight' is numeric" not in texts(at)
    at.multiselect(key=num_key).set_value(["weight"]).run()
    bins_key = [s for s in at.session_state if str(s).startswith("data_bins_") and s.count("_") == 2][0]
    at.slider(key=bins_key).set_value(2).run()
    # before "Use this data" the note promises no count of bins; the caption says whose
    # cut points the table holds (a binning the user chose: every KB's once in use)
    assert "'weight' is numeric: cut into ordered bins on the training rows" in texts(at)
    assert "once you use this data, plx's default and every KB use them" in texts(at)
    at.slider(key="data_test_size").set_value(0.3).run()
    at.button(key="data_apply").click().run()
    assert not at.exception
    ws = at.session_state["ws"]
    assert ws.dataset.name == "shop.csv" and ws.positive == "yes"
    assert set(ws.features) == {"colour", "size", "weight"}
    assert ws.dataset.X["weight"].str.contains("<|≥").all()
    assert len(ws.X_test) == 2 * round(0.3 * 18)  # stratified: 30 % of each class of 18


def visits_csv(seed: int = 5) -> bytes:
    """One row a visit, 3–6 visits a patient numbered 1001…; the outcome is the patient's."""
    rng = np.random.default_rng(seed)
    visits = rng.integers(3, 7, 40)
    ids = np.repeat(np.arange(1001, 1041), visits)
    sick = np.repeat(rng.random(40) < 0.4, visits)
    return pd.DataFrame({"patient": ids,
                         "crp": np.round(rng.normal(np.where(sick, 50, 10), 12), 1),
                         "ward": np.repeat(rng.choice(list("ABCD"), 40), visits),
                         "outcome": np.where(sick, "yes", "no")}).to_csv(index=False).encode()


def test_data_page_offers_the_case_column_the_note_names(base_ws):
    # a patient number repeated over visits: the note names it, the page offers it as the case
    # column for the user to confirm; confirmed, it is no feature, the test rows are whole
    # patients, the page says so, and plx's default is fitted with the patients as groups
    at = run("plx_app/views/1_Data.py", fresh(base_ws))
    at.radio(key="data_source").set_value("Upload a CSV").run()
    at.file_uploader(key="data_upload").set_value(("visits.csv", visits_csv(), "text/csv")).run()
    pos_key = [s for s in at.session_state if str(s).startswith("data_pos_")][0]
    at.selectbox(key=pos_key).set_value("yes").run()
    assert "Column 'patient': its 40 values stand on" in texts(at)
    case_key = [s for s in at.session_state if str(s).startswith("data_case_")][0]
    assert at.checkbox(key=case_key).value is False  # offered, not assumed
    at.checkbox(key=case_key).check().run()
    assert not at.exception and not errors(at)
    assert "Column 'patient' names each row's case (40 cases)" in texts(at)
    assert "several rows a case (one a visit)?" not in texts(at)
    ws = applied_by_case(at, "patient")
    assert ws.model is not None


@pytest.mark.slow
def test_data_page_errors_in_plain_words_and_stays_usable(base_ws):
    at = run("plx_app/views/1_Data.py", fresh(base_ws))
    at.radio(key="data_source").set_value("Upload a CSV").run()
    # the limits, and the ways past them, said before a file is chosen (the browser's own
    # refusal of a larger file names neither)
    assert "200,000 rows" in at.file_uploader(key="data_upload").help
    assert "Parquet" in at.file_uploader(key="data_upload").help
    at.file_uploader(key="data_upload").set_value(("bad.csv", b"a,b\n1,2\n", "text/csv")).run()
    assert not at.exception
    assert any("only 1 data row" in e for e in errors(at))
    at.file_uploader(key="data_upload").set_value(("bin.csv", b"\xff\xfe\x00\x01", "text/csv")).run()
    assert not at.exception and any("not valid utf-8" in e.lower() for e in errors(at))
    # a Windows-1252 export: the error says how it reads there; choosing that encoding reads it
    euro = "Geschlecht;Alter;Ergebnis\n" + "".join(
        f"{'männlich' if i % 2 else 'weiblich'};{20 + i};{'Ja' if i % 3 else 'Nein'}\n"
        for i in range(12))
    at.file_uploader(key="data_upload").set_value(("k.csv", euro.encode("cp1252"), "text/csv")).run()
    assert any("reads 'männlich' as Windows-1252" in e for e in errors(at)), errors(at)
    at.selectbox(key="data_encoding").set_value("cp1252").run()
    assert not at.exception and not errors(at)
    assert [b.value for b in at.selectbox if b.label == "Label column"] == ["Ergebnis"]
    at.selectbox(key="data_encoding").set_value("utf-8").run()
    # a label with one class: the preview refuses it, the apply button stays off
    one = b"x,y\n" + b"".join(f"{i % 3},same\n".encode() for i in range(12))
    at.file_uploader(key="data_upload").set_value(("one.csv", one, "text/csv")).run()
    assert not at.exception
    assert any("the label 'y' has only one class ('same'" in e for e in errors(at)), errors(at)
    assert at.button(key="data_apply").disabled
    # the app still works: another page renders
    at.switch_page("plx_app/views/3_Query.py").run()
    assert not at.exception and metric(at, "Decision")


def test_user_text_is_not_rendered_as_markup(base_ws):
    nasty = "<img src=x onerror=alert(1)>"
    csv = ("[click](http://evil.example),**bold**,label\n"
           + "".join(f"{nasty},v{i % 2},{'a' if i % 3 else 'b'}\n" for i in range(12))).encode()
    at = run("plx_app/views/1_Data.py", fresh(base_ws))
    at.radio(key="data_source").set_value("Upload a CSV").run()
    at.file_uploader(key="data_upload").set_value(("x.csv", csv, "text/csv")).run()
    pos_key = [s for s in at.session_state if str(s).startswith("data_pos_")][0]
    at.selectbox(key=pos_key).set_value("a").run()
    at.button(key="data_apply").click().run()
    assert not at.exception
    for el in list(at.markdown) + list(at.caption) + list(at.info) + list(at.warning) + list(at.success):
        v = str(el.value)
        assert "<img" not in v.replace("\\<", "")
        assert "](http" not in v.replace("\\]\\(", "")
        assert not getattr(el.proto, "allow_html", False) or "<img" not in v


@pytest.mark.realdata
@pytest.mark.parametrize("name", ["titanic", "mushroom", "hiv1"])
@pytest.mark.slow
def test_shared_files_uploaded_through_the_data_page(base_ws, name):
    """Titanic, Mushroom and HIV-1 from ../shared/datasets, uploaded as a user would."""
    from conftest import require_shared_data

    root = require_shared_data()
    files = {"titanic": "titanic/train.csv", "mushroom": "mushroom/agaricus-lepiota.data",
             "hiv1": "hiv1-protease/746Data.txt"}
    path = root / files[name]
    at = run("plx_app/views/1_Data.py", fresh(base_ws))
    at.default_timeout = 300  # plx's default compares its candidates on 5,687 Mushroom rows
    at.radio(key="data_source").set_value("Upload a CSV").run()
    if name != "titanic":
        at.checkbox(key="data_header").uncheck().run()
    at.file_uploader(key="data_upload").set_value((path.name, path.read_bytes(), "text/csv")).run()
    assert not at.exception and not errors(at), errors(at)
    if name == "hiv1":
        at.selectbox(key="data_split").set_value("a1").run()  # the octamer, one feature per residue
    label_key = [k for k in at.session_state if str(k).startswith("data_label_")][-1]
    label = {"titanic": "Survived", "mushroom": "a1", "hiv1": "a2"}[name]
    at.selectbox(key=label_key).set_value(label).run()
    pos_key = [k for k in at.session_state if str(k).startswith("data_pos_") and str(k).endswith(label)][0]
    at.selectbox(key=pos_key).set_value({"titanic": "1", "mushroom": "p", "hiv1": "1"}[name]).run()
    at.button(key="data_apply").click().run()
    assert not at.exception and not errors(at), errors(at)
    ws = at.session_state["ws"]
    assert ws.dataset.name == path.name and ws.kb is not None
    if name == "hiv1":
        assert ws.features == tuple(f"a1_{i}" for i in range(1, 9))
    if name == "mushroom":  # an upload opens on plx's default, which says what answers
        assert ws.kb_settings.kind == "auto" and ws.model is not None
        at.switch_page("plx_app/views/2_Knowledge_base.py").run()
        assert not at.exception and ws.model.reason in [t.value for t in at.text]
    for page in ("plx_app/views/3_Query.py", "plx_app/views/4_Explain.py"):
        at.switch_page(page).run()
        assert not at.exception and not errors(at), (page, errors(at))


@pytest.mark.realdata
@pytest.mark.slow
def test_data_page_picks_a_shared_data_set(base_ws):
    from conftest import require_shared_data

    require_shared_data()
    at = run("plx_app/views/1_Data.py", fresh(base_ws))
    at.radio(key="data_source").set_value("Shared data set").run()
    at.selectbox(key="data_shared").set_value("tic-tac-toe").run()
    assert not at.exception and not errors(at), errors(at)
    at.button(key="data_apply").click().run()
    assert not at.exception and not errors(at), errors(at)
    ws = at.session_state["ws"]
    assert ws.dataset.name == "tic-tac-toe" and ws.kb is not None and len(ws.features) == 9


# --------------------------------------------------------------------------- Knowledge base page


@pytest.mark.slow
def test_kb_page_builds_a_tree_and_shows_a_node_clause(base_ws):
    at = run("plx_app/views/2_Knowledge_base.py", fresh(base_ws))
    assert metric(at, "Clauses") == "2,014"
    at.radio(key="kb_kind").set_value("tree").run()
    at.button(key="kb_build").click().run()
    ws = at.session_state["ws"]
    assert ws.kb.kind == "tree" and ws.trees
    assert "**KB in use:** One decision tree, its leaves (ID3)" in texts(at)
    nodes = ws.trees[0].to_frame()
    leaf = int(nodes.index[nodes["is_leaf"]][0])
    at.session_state["kb_tab"] = "ID3 tree"  # the tabs run lazily: open the tree tab
    at.run()
    at.selectbox(key="kb_node_pick_0").set_value(leaf).run()
    code = [c.value for c in at.code]
    from plx_core import wording
    from plx_core.kb import parse_clause

    clause = parse_clause(f"[{nodes.loc[leaf, 'p']:.4g}] {nodes.loc[leaf, 'clause']}")
    assert any(c.startswith(wording.clause_text(clause, ws.positive)) for c in code)  # IF … THEN
    # building the same KB again takes it from the session cache
    at.button(key="kb_build").click().run()
    assert "Taken from this session's cache" in texts(at)


@pytest.mark.slow
def test_kb_page_forest_and_max_len(base_ws):
    at = run("plx_app/views/2_Knowledge_base.py", fresh(base_ws))
    at.number_input(key="kb_max_len").set_value(2).run()
    at.button(key="kb_build").click().run()
    ws = at.session_state["ws"]
    assert ws.kb.max_len == 2 and int(ws.kb.lengths.max()) == 2
    at.radio(key="kb_kind").set_value("forest").run()
    at.slider(key="kb_n_trees").set_value(3).run()
    at.button(key="kb_build").click().run()
    ws = at.session_state["ws"]
    assert ws.kb.kind == "forest" and len(ws.trees) == 3
    at.session_state["kb_tab"] = "ID3 tree"
    at.run()
    at.selectbox(key="kb_tree_pick").set_value(2).run()
    assert not at.exception and "nodes, depth" in texts(at)


@pytest.mark.slow
def test_kb_browser_search_filter_sort_paginate(base_ws):
    at = run("plx_app/views/2_Knowledge_base.py", fresh(base_ws))
    at.text_input(key="kb_search").set_value("worst radius").run()
    at.slider(key="kb_len").set_value((1, 1)).run()
    cap = texts(at)
    assert "3 of 2,014 clauses match" in cap
    at.text_input(key="kb_search").set_value("").run()
    at.slider(key="kb_len").set_value((2, 2)).run()
    at.slider(key="kb_p").set_value((0.9, 1.0)).run()
    at.number_input(key="kb_sup").set_value(50).run()
    at.selectbox(key="kb_sort").set_value("p").run()
    at.selectbox(key="kb_size").set_value(25).run()
    at.number_input(key="kb_page").set_value(2).run()
    assert not at.exception
    table = at.dataframe[0].value
    assert (table["length"] == 2).all() and (table["p"] >= 0.9).all() and (table["support"] >= 50).all()
    assert list(table["p"]) == sorted(table["p"], reverse=True)


@pytest.mark.slow
def test_kb_export_and_import(base_ws):
    ws = fresh(base_ws)
    ws.rules.append(rule_clause([("worst radius", "<13.5")], "POS", 0.9, 10, "r1"))
    at = run("plx_app/views/2_Knowledge_base.py", ws)
    at.session_state["kb_tab"] = "Export / import"
    at.run()
    labels = [b.label for b in at.get("download_button")]
    assert {"JSON", "Clause text", "CSV (safe to open in a spreadsheet)"} <= set(labels)
    data = ws.current_kb().to_json().encode()
    ws2 = fresh(base_ws)
    at2 = run("plx_app/views/2_Knowledge_base.py", ws2)
    at2.session_state["kb_tab"] = "Export / import"
    at2.run()
    at2.file_uploader(key="kb_import").set_value(("kb.json", data, "application/json")).run()
    at2.button(key="kb_import_go").click().run()
    assert not at2.exception
    assert ("Imported a KB (Rules counted from the data (Direct)) with 2,014 clauses and one rule."
            in texts(at2))
    assert [r.id for r in at2.session_state["ws"].rules] == ["r1"]
    at2.file_uploader(key="kb_import").set_value(("kb.json", b"[1, 2]", "application/json")).run()
    at2.button(key="kb_import_go").click().run()
    assert any("could not be used as a KB" in e for e in errors(at2))


# --------------------------------------------------------------------------- Query page


def test_query_page_shows_bounds_decision_method_and_evidence(base_ws):
    ws = fresh(base_ws)
    at = run("plx_app/views/3_Query.py", ws)
    inst = at.session_state["ws"].selected
    b = ws.query(inst)
    assert metric(at, "Support, at least") == f"{b.lower:.3f}"
    assert metric(at, "Support, at most") == f"{b.upper:.3f}"
    assert metric(at, "Method") == "median"
    assert metric(at, "Relevant clauses") == f"{b.n_relevant:,}"
    assert metric(at, "True label") == inst.label
    assert any("Evidence for malignant" in m.value for m in at.markdown)  # the class, not POS
    rules = [r for d in at.dataframe[1:] if "rule" in d.value for r in d.value["rule"]]
    assert rules and all(r.startswith("IF ") and " THEN " in r and r.endswith("malignant")
                         for r in rules)
    assert "Counterfactual" in [h.value for h in at.subheader]
    # how to read "IF … THEN malignant" listed against malignant: on the strongest rule's number
    from plx_app.service.explain import ws_evidence

    for_pos, against = ws_evidence(ws, inst.as_dict())
    t = (against if len(against) else for_pos)["target"].iloc[0]
    said = wording.evidence_reading_said(t, ws.class_name)
    assert said in texts(at) and f"a rule at {t:.2f} holds that rows with those values are " \
        f"malignant with probability {t:.2f}, so it pulls the support for malignant " \
        f"{'down' if t < 0.5 else 'up'}" in said


def test_query_page_speaks_plainly_and_opens_on_a_confident_right_row(base_ws):
    from plx_core import wording

    ws = fresh(base_ws)
    at = run("plx_app/views/3_Query.py", ws)
    inst = at.session_state["ws"].selected
    b = ws.query(inst)
    # the first row shown is decided right, away from 0.5
    assert (inst.label == ws.positive) == b.positive and abs(b.mean - 0.5) > 0.25
    body = texts(at)
    assert wording.answer_sentence(b, ws.positive, kb=ws.current_kb(), truth=inst.label) in body
    assert "which is not the same as impossible" in body and "ruled out" not in body
    assert metric(at, "Decision") in wording.class_names(ws.class_name)  # the file's two
    # evidence rules read IF … THEN, never the raw clause syntax
    tables = [d.value for d in at.dataframe]
    rules = [r for t in tables if "rule" in t.columns for r in t["rule"]]
    assert rules and all(r.startswith("IF ") and "|" not in r for r in rules)
    assert at.get("download_button")  # the case report


def test_query_page_edited_values_name_no_row_and_missing_filter(base_ws):
    ws = fresh(base_ws)
    at = run("plx_app/views/3_Query.py", ws)
    at.selectbox(key="q_val_0").set_value("(unknown)").run()
    assert at.session_state["ws"].selected.origin == "edited"
    assert at.selectbox(key="q_pick").value is None  # no longer "test row …"
    at.checkbox(key="q_f_missing").check().run()
    assert not at.exception and "0 of" in texts(at)  # the default set has no missing value


def test_the_query_pages_row_filter_is_the_services_and_finds_no_text_in_empty_cells():
    """plx_app.service.filter_rows (it was page code): each filter narrows the rows, and a
    search for "nan" or "na" no longer matched every missing cell (shown as "(missing)")."""
    from plx_app.service import RowFilter, filter_rows, front_columns

    X = pd.DataFrame({"label": ["x", "y", "z", "w"], "city": ["Nancy", None, "Lyon", "Nantes"]},
                     index=[10, 11, 12, 13])  # a feature called "label" keeps its name
    table, col = front_columns(X, {"label": ["1", "0", "1", "0"],
                                   "plx decision": ["yes", "no", "no", "no"]})
    correct = pd.Series([True, True, False, True], index=X.index)
    feats = ["label", "city"]
    rows = lambda f, c=correct: filter_rows(table, col, feats, f, c).index.tolist()  # noqa: E731
    assert rows(RowFilter()) == [10, 11, 12, 13]
    assert rows(RowFilter(label="1")) == [10, 12] and col["label"] == "label (plx)"
    assert rows(RowFilter(decision="no", wrong=True)) == [12]
    assert rows(RowFilter(wrong=True), None) == [10, 11, 12, 13]  # no decisions: not filtered
    assert rows(RowFilter(missing=True)) == [11]
    assert rows(RowFilter(text=" Nan")) == [10, 13]
    assert rows(RowFilter(text="nan")) == [] and rows(RowFilter(text="na")) == []
    assert rows(RowFilter(text="w")) == [13]  # the feature "label" is searched too


def test_row_labels_reach_widgets_as_plain_values():
    """service.plain_label: the one home of what the Query and Explain pages each did inline."""
    from plx_app.service import plain_label

    got = [plain_label(i) for i in pd.Index([np.int64(7), 8])]
    assert got == [7, 8] and all(type(g) is int for g in got)
    assert plain_label("line 4") == "line 4" and plain_label(("a", 1)) == ("a", 1)


def test_rows_are_named_by_line_only_for_an_uploaded_csv_read_by_lines():
    """RawTable.rows_are_lines (the Query page's own test of the bytes before): a CSV's rows
    are its lines, a Parquet file's and a built-in set's are not (data.is_parquet, one home of
    Parquet's magic)."""
    import io

    from plx_app.service import raw_default
    from plx_core.data import is_parquet

    frame = pd.DataFrame({"a": list("xyxyxy"), "b": list("112233"), "y": list("010101")})
    csv = frame.to_csv(index=False).encode()
    assert read_upload(csv, "t.csv").rows_are_lines
    assert not read_upload(csv, "t.csv", rows="positions").rows_are_lines
    buf = io.BytesIO()
    frame.to_parquet(buf)
    assert is_parquet(buf.getvalue()) and not is_parquet(csv)
    assert not read_upload(buf.getvalue(), "t.parquet").rows_are_lines
    assert not raw_default().rows_are_lines


@pytest.mark.slow
def test_query_page_pick_a_row_and_filter(base_ws):
    ws = fresh(base_ws)
    at = run("plx_app/views/3_Query.py", ws)
    row = int(ws.X_test.index[5])
    at.selectbox(key="q_pick").set_value(row).run()
    assert at.session_state["ws"].selected.row == row
    assert at.session_state["ws"].selected.label == str(ws.y_test.loc[row])
    at.radio(key="q_part").set_value("train").run()
    at.checkbox(key="q_f_wrong").check().run()
    assert not at.exception
    dec = ws.decisions("train")
    assert f"{int((~dec['correct']).sum())} of" in texts(at)
    # the rows' decisions are named as the Decision metric names them, and filter by that name
    shown = at.dataframe[0].value
    assert set(shown["plx decision"]) <= {"malignant", "benign"}
    at.checkbox(key="q_f_wrong").uncheck().run()
    at.selectbox(key="q_f_dec").set_value("benign").run()
    n_neg = int((dec["decision"] == "NOT POS").sum())
    assert f"{n_neg} of {len(dec)} rows" in texts(at)


@pytest.mark.slow
def test_query_page_edit_values_leaving_features_unknown(base_ws):
    ws = fresh(base_ws)
    at = run("plx_app/views/3_Query.py", ws)
    for j in range(3):
        at.selectbox(key=f"q_val_{j}").set_value("(unknown)").run()
    sel = at.session_state["ws"].selected
    assert sel.origin == "edited" and len(sel.known()) == 3 and sel.label is None
    assert metric(at, "True label") == "unknown"
    b = ws.query(sel)
    assert metric(at, "Support, at least") == f"{b.lower:.3f}"
    at.button(key="q_clear").click().run()
    assert not at.exception
    assert at.session_state["ws"].selected.known() == {}
    assert "No clause bears on this query" in texts(at)


@pytest.mark.slow
def test_query_page_lp_method_gives_the_same_bounds(base_ws):
    ws = fresh(base_ws)
    ws.set_kb(KBSettings("tree"))
    inst = instance_from_row(ws.X_test, ws.y_test, ws.X_test.index[0], "test")
    ws.selected = replace(inst, values=tuple((f, v if i < 3 else None) for i, (f, v) in enumerate(inst.values)),
                          origin="edited", label=None)
    at = run("plx_app/views/3_Query.py", ws)
    lower, upper = metric(at, "Support, at least"), metric(at, "Support, at most")
    at.radio(key="q_method").set_value("lp").run()
    assert not at.exception and not errors(at)
    assert metric(at, "Method") == "LP"
    assert (metric(at, "Support, at least"), metric(at, "Support, at most")) == (lower, upper)


# --------------------------------------------------------------------------- Explain page


def test_explain_page_k_slider_changes_the_explanation(base_ws):
    ws = fresh(base_ws)
    at = run("plx_app/views/4_Explain.py", ws)
    assert "Explanation (k=2, exhaustive)" in texts(at)
    at.slider(key="x_k").set_value(3).run()
    assert not at.exception
    assert "Explanation (k=3, exhaustive)" in texts(at)
    # one stated baseline: a Direct KB has no base-rate clause, its values start from 0.5
    assert "from 0.5, the support with nothing known" in texts(at)
    assert "minus 0.5." in texts(at)
    assert "On their own, " in texts(at)  # the explanation in words


def test_explain_page_says_what_would_change_the_decision_as_the_query_page(base_ws):
    """After why, what would change it: the Query page's counterfactual, in the same words
    (a clinician read why on Explain and had to go back to Query for it, dash23)."""
    from plx_app.service.explain import ws_counterfactual

    ws = fresh(base_ws)
    at = run("plx_app/views/4_Explain.py", ws)
    cf = ws_counterfactual(ws, ws.selected.as_dict())
    said = wording.counterfactual_sentence(cf, ws.class_name)
    assert f"What would change it: {said}" in texts(at)
    assert said in texts(run("plx_app/views/3_Query.py", ws))


def test_explain_page_answers_at_the_models_threshold_and_names_expert_rules():
    # a clinic's table on which plx's default picks its own threshold (0.6): a row whose
    # support lies between 0.5 and it is not readmitted on the Query page, and the Explain
    # page must say so too (it said "above 0.5, so readmitted = yes"), and name an expert rule
    from user_tables import readmission

    raw = read_upload(readmission().data, "readmission.csv")
    for seed in (29, 25, 31, *range(20, 40)):  # a split whose model answers above 0.5
        ws = new_workspace(raw, replace(raw.defaults, positive="yes", seed=seed))
        if ws.threshold > 0.5:
            break
    t = ws.threshold
    assert t > 0.5
    d = ws.decisions("test")
    row = next(r for r in d.index if 0.5 < d.loc[r, "mean"] < t)
    assert d.loc[row, "decision"] == "NOT POS"
    inst = instance_from_row(ws.X_test, ws.y_test, row, "test")
    ws.set_selected(inst)
    at = run("plx_app/views/4_Explain.py", ws)
    body = texts(at)
    assert f"below {t:g}, so readmitted = no." in body  # the file's own other class
    assert "above 0.5" not in body
    at = run("plx_app/views/3_Query.py", ws)  # what ω(POS) means names the same threshold
    assert f"when the middle of that range is above {t:g}" in texts(at)
    f, v = next(iter(inst.known().items()))
    ws.rules.append(rule_clause([(f, v)], "NOT POS", 0.95, 1000, "r1"))
    at = run("plx_app/views/4_Explain.py", ws)
    assert "expert rules put the support for readmitted = yes at 0.05" in texts(at)


def test_explain_page_says_why_a_row_no_rule_bears_on_has_nothing_to_explain():
    # plx's default answers this clinic's table with an ID3 tree: a row reaching no clause is
    # answered [0, 1]; the page said so in a red error naming k ("k=2 is not between 1 and
    # the 0 feature(s)…"), and no answer; it answers, and says why nothing explains it
    from user_tables import readmission

    raw = read_upload(readmission().data, "readmission.csv")
    ws = new_workspace(raw, replace(raw.defaults, positive="yes", seed=3))
    d = ws.decisions("test")
    row = next(r for r in d.index if (d.loc[r, "lower"], d.loc[r, "upper"]) == (0.0, 1.0))
    ws.set_selected(instance_from_row(ws.X_test, ws.y_test, row, "test"))
    at = run("plx_app/views/4_Explain.py", ws)
    assert not errors(at), errors(at)
    body = texts(at)
    assert "No rule covers these values, so the support for readmitted = yes can be anything" in body
    assert f"above the threshold {ws.threshold:g}, so readmitted = yes" in body
    assert "Nothing to explain: the row knows no feature the model uses" in body

@pytest.mark.slow
def test_explain_page_names_the_class_of_a_several_class_label():
    # three species: the page says the bounds and features are for the positive class
    # against the other two, in plx_core's words (`wording.explained_class_sentence`)
    import numpy as np

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({c: rng.choice(list("abc"), 240) for c in "pqrs"})
    frame["species"] = np.where(frame.p == "a", "Adelie",
                                np.where(frame.q == "b", "Gentoo", "Chinstrap"))
    raw = read_upload(frame.to_csv(index=False).encode(), "penguins.csv")
    ws = new_workspace(raw, replace(raw.defaults, label="species", positive="Gentoo"),
                       kb=KBSettings("direct"))
    at = run("plx_app/views/4_Explain.py", ws)
    assert not errors(at), errors(at)
    body = texts(at)
    assert ("The label has 3 classes: these bounds and features are for Gentoo against the "
            "other 2 (") in body
    assert "the support for Gentoo" in body


@pytest.mark.slow
def test_explain_page_among_all_classes_shows_a_class_named_in_html_as_typed():
    # the chart of the picked class's KB is titled with the class: plotly renders <b> and
    # <a href> in titles, so a class written as HTML must reach it escaped, read as typed
    import json

    from plx_app.service.classes import class_answer, fit_classes

    rng = np.random.default_rng(3)
    frame = pd.DataFrame({c: rng.choice(list("abc"), 150) for c in "pq"})
    evil = "<b>rice</b>"
    frame["crop"] = np.where(frame.p == "a", evil, np.where(frame.q == "b", "fern", "wheat"))
    raw = read_upload(frame.to_csv(index=False).encode(), "crops.csv")
    ws = new_workspace(raw, replace(raw.defaults, label="crop", positive="fern"),
                       kb=KBSettings("direct"))
    X, y = ws.part("test")
    row = next(r for r in X.index if X.loc[r, "p"] == "a")
    inst = instance_from_row(X, y, row, "test")
    ws.set_selected(inst)
    assert class_answer(fit_classes(ws), inst).picked == evil  # fitted: the page shows it
    at = run("plx_app/views/4_Explain.py", ws)
    assert not errors(at), errors(at)
    assert metric(at, "Class plx answers") == evil
    titles = [json.loads(c.proto.spec)["layout"].get("title", {}).get("text", "")
              for c in at.get("plotly_chart")]
    ours = [t for t in titles if "against the other 2 classes" in t]
    assert ours == ["&lt;b&gt;rice&lt;/b&gt; against the other 2 classes: top sub-queries of "
                    "size 2"], titles
    at = run("plx_app/views/3_Query.py", ws)  # the same class answer (classes_ui.class_answer)
    assert not errors(at), errors(at)
    assert metric(at, "Class picked") == metric(at, "True class") == evil
    assert metric(at, "Runner-up") in ("fern", "wheat")


@pytest.mark.parametrize("mode", ["Two instances", "One instance across k", "Across KB kinds",
                                  "SHAP on a baseline model"])
@pytest.mark.slow
def test_explain_page_side_by_side(base_ws, mode):
    ws = fresh(base_ws)
    if mode == "Across KB kinds":
        ws.rules.append(rule_clause([("worst radius", "<13.5")], "POS", 0.9, 10, "r1"))
    at = run("plx_app/views/4_Explain.py", ws)
    at.radio(key="x_mode").set_value(mode).run()
    assert not at.exception and not errors(at), errors(at)
    body = texts(at)
    if mode == "Two instances":
        other = int(ws.X_test.index[3])
        at.selectbox(key="x_other").set_value(other).run()
        assert f"B: test row {other}" in texts(at)
    elif mode == "One instance across k":
        assert "k = 1" in body and "k = 3" in body
    elif mode == "Across KB kinds":
        assert "Rules counted from the data (Direct) (2,014 clauses)" in body
        assert "One decision tree, its leaves (ID3) (" in body and "Tree (leaves)" not in body
        assert "Rules counted from the data (Direct) with rules (2,015 clauses)" in body
        at.toggle(key="x_kinds_shapley").set_value(True).run()
        assert not at.exception and not errors(at)
        assert len(at.get("plotly_chart")) >= 2 + 3 * 2  # main view + bars and Shapley per KB
    else:
        assert "SHAP on the random forest" in body and "plx: what each value adds to the support for malignant" in body
        at.selectbox(key="x_shap_model").set_value("logistic").run()
        assert not at.exception and "SHAP on the logistic regression" in texts(at)


# --------------------------------------------------------------------------- Rules page


def _cond(ws, n=2):
    from plx_core.wording import condition

    return [condition(f, v) for f, v in list(ws.selected.known().items())[:n]]


def test_rules_page_add_rule_flips_the_selected_decision(base_ws):
    ws = fresh(base_ws)
    ws.selected = instance_from_row(ws.X_test, ws.y_test, ws.X_test.index[0], "test")
    before = ws.query(ws.selected)
    at = run("plx_app/views/5_Rules.py", ws)
    # THEN names the class as every page does, never "POS" / "NOT POS" (the typed syntax's)
    assert at.radio(key="r_head").options == ["malignant", "benign"]  # the file's two classes
    at.multiselect(key="r_conds").set_value(_cond(ws))
    at.radio(key="r_head").set_value("NOT POS" if before.positive else "POS")
    at.number_input(key="r_p").set_value(1.0)
    at.number_input(key="r_w").set_value(10000.0)
    at.button(key="r_add").click().run()
    assert not at.exception and not errors(at), errors(at)
    ws = at.session_state["ws"]
    assert len(ws.rules) == 1 and ws.rules[0].w == 10000.0
    assert ws.query(ws.selected).positive != before.positive
    assert int(metric(at, "Decisions that flip")) >= 1
    word = lambda p: "malignant" if p else "benign"  # noqa: E731 - the file's classes
    assert f"{word(before.positive)} → {word(not before.positive)}" in texts(at)
    assert "F1 with rules" in [m.label for m in at.metric]


def test_rules_page_validates_typed_conditions(base_ws):
    ws = fresh(base_ws)
    at = run("plx_app/views/5_Rules.py", ws)
    at.text_input(key="r_text").set_value("worst radius=huge AND colour=red")
    at.button(key="r_add").click().run()
    errs = errors(at)
    assert any("no value 'huge'" in e for e in errs) and any("no feature 'colour'" in e for e in errs)
    assert at.session_state["ws"].rules == []
    at.text_input(key="r_text").set_value("")
    at.button(key="r_add").click().run()
    assert any("at least one condition" in e for e in errors(at))
    at.text_input(key="r_text").set_value("worst radius=<13.5")
    at.button(key="r_add").click().run()  # no weight guessed: the expert chooses it
    assert at.session_state["ws"].rules == []
    assert any(e.startswith("Choose the rule's weight w: how much it counts against the data. "
                            "A training row brings about ") for e in errors(at)), errors(at)
    at.number_input(key="r_w").set_value(5.0).run()
    assert "w = 5 weighs as much as the data of " in texts(at)
    at.button(key="r_add").click().run()
    assert len(at.session_state["ws"].rules) == 1
    assert at.text_input(key="r_text").value == ""  # added: the conditions clear, w stays
    assert at.number_input(key="r_w").value == 5.0
    at.text_input(key="r_text").set_value("worst radius=<13.5")
    at.button(key="r_add").click().run()
    assert any("already there" in e for e in errors(at))


def test_rules_page_typed_rules_with_or_and_line_errors(base_ws):
    ws = fresh(base_ws)
    at = run("plx_app/views/5_Rules.py", ws)
    at.text_area(key="r_rules_text").set_value(
        'IF "worst radius"="<13.5" OR "worst texture"="<22.47" THEN NOT POS [p=0.95, w=100]')
    at.button(key="r_add_text").click().run()
    assert not at.exception and not errors(at), errors(at)
    ids = [r.id for r in at.session_state["ws"].rules]
    assert ids == ["r1.1", "r1.2"]
    # one row, as typed, in the class's words (typed THEN NOT POS reads THEN benign)
    assert list(at.dataframe[0].value["rule"]) == [
        'IF "worst radius" = <13.5 OR "worst texture" = <22.47 THEN benign']
    assert "Added one rule: r1" in [str(x.value).replace("\\", "") for x in at.success]
    assert at.text_area(key="r_rules_text").value == ""  # added: not kept to be added twice
    at.text_area(key="r_rules_text").set_value('IF "worst radius"=big THEN POS [p=0.9]')
    at.button(key="r_add_text").click().run()
    errs = errors(at)
    assert any("line 1, column" in e and "no value 'big'" in e for e in errs), errs
    assert len(at.session_state["ws"].rules) == 2


def test_rules_page_takes_a_comparison_on_a_number(base_ws):
    """`IF <number column> >= <cut> THEN POS` typed in the whole-rules box is read on the
    model's bins: listed as the bins at and above the cut, flipping exactly the decisions the
    same rule on those bins flips; a number inside a bin is refused and nothing is added."""
    from plx_core.data import bin_cuts, bin_labels, fmt_number
    from plx_core.tokens import condition_text, quote

    ws = fresh(base_ws)
    dom = ws.domains()
    f = next(f for f in ws.features if bin_cuts(dom[f]))
    cuts = bin_cuts(dom[f])
    c = cuts[len(cuts) // 2]
    above = [lab for lab in bin_labels(cuts)[len(cuts) // 2 + 1:] if lab in dom[f]]
    typed = f"IF {quote(f)} >= {fmt_number(c)} THEN POS [p=1, w=10000]"
    at = run("plx_app/views/5_Rules.py", ws)
    said = [str(x.value).replace("\\", "") for x in at.caption]
    assert any(typed.replace("p=1, w=10000", "p=0.9, w=5") in x for x in said), said
    c = cuts[0]  # at the lowest cut: a rule of several bins
    above = [lab for lab in bin_labels(cuts)[1:] if lab in dom[f]]
    assert len(above) >= 2
    typed = f"IF {quote(f)} >= {fmt_number(c)} THEN POS [p=1, w=10000]"
    flips = []
    X = ws.part("train")[0]
    for text in (typed, " OR ".join(condition_text(f, lab) for lab in above).join(
            ("IF ", " THEN POS [p=1, w=10000]"))):
        at = run("plx_app/views/5_Rules.py", fresh(base_ws))
        at.text_area(key="r_rules_text").set_value(text)
        at.button(key="r_add_text").click().run()
        assert not at.exception and not errors(at), errors(at)
        # one row, the comparison as typed (the bins spelled out fold back to it too), with
        # the training rows in those bins; the edit box names the rule once
        row = at.dataframe[0].value
        assert list(row["rule"]) == [f"IF {quote(f)} >= {fmt_number(c)} THEN malignant"]
        assert list(row["id"]) == ["r1"] and row["rows"].tolist() == [int(X[f].isin(above).sum())]
        assert at.selectbox(key="r_edit_id").options == [f"r1: {row['rule'][0]}"]
        flips.append(int(metric(at, "Decisions that flip")))
    assert flips[0] == flips[1] >= 1
    # p, w and on/off act on the whole rule: every bin's clause, and the rule is off
    at.number_input(key="r_edit_w_r1").set_value(3.0)
    at.checkbox(key="r_edit_on_r1").uncheck()
    at.button(key="r_save").click().run()
    kept = at.session_state["ws"].rules
    assert len(kept) == len(above) and {(r.w, r.enabled) for r in kept} == {(3.0, False)}
    assert metric(at, "Decisions that flip") == "0"
    assert at.session_state["ws"].rules_count() == (1, 0)  # the sidebar's "Rules: 1 (0 enabled)"
    inside = (cuts[0] + cuts[1]) / 2 if len(cuts) > 1 else cuts[0] + 1
    at.text_area(key="r_rules_text").set_value(f"IF {quote(f)} > {fmt_number(inside)} THEN POS [p=0.9]")
    at.button(key="r_add_text").click().run()
    assert any(f"{fmt_number(inside)} falls inside the bin" in e for e in errors(at)), errors(at)
    assert len(at.session_state["ws"].rules) == len(above)
    at.button(key="r_delete").click().run()  # the whole rule goes, no bin left behind
    assert at.session_state["ws"].rules == [] and "No rules yet." in texts(at)


def test_rules_page_hints_are_two_rules_that_can_be_added_as_shown(base_ws):
    """The hint's example rule and comparison were the same rule on a number column's top bin,
    and stayed on show after the user added it (typing it back was refused)."""
    import re

    at = run("plx_app/views/5_Rules.py", fresh(base_ws))
    for _ in range(2):
        said = "\n".join(str(x.value).replace("\\", "") for x in at.caption)
        shown = re.findall(r"e\.g\. (IF .+? THEN (?:NOT )?POS \[p=0\.9, w=5\])", said)
        assert len(shown) == 2 and shown[0] != shown[1], said
        n = len(at.session_state["ws"].rules)
        at.text_area(key="r_rules_text").set_value(shown[1])
        at.button(key="r_add_text").click().run()
        assert not errors(at), errors(at)
        assert len(at.session_state["ws"].rules) > n  # the comparison went in as shown
        n = len(at.session_state["ws"].rules)
        at.text_area(key="r_rules_text").set_value(shown[0])
        at.button(key="r_add_text").click().run()
        assert not errors(at), errors(at)  # and the other one too: not the same rule
        assert len(at.session_state["ws"].rules) > n, texts(at)


def test_rules_page_edit_disable_delete(base_ws):
    ws = fresh(base_ws)
    ws.selected = instance_from_row(ws.X_test, ws.y_test, ws.X_test.index[0], "test")
    before = ws.query(ws.selected)
    cond = list(ws.selected.known().items())[:2]
    ws.rules.append(rule_clause(cond, "NOT POS" if before.positive else "POS", 1.0, 1e4, "r1"))
    at = run("plx_app/views/5_Rules.py", ws)
    assert at.session_state["ws"].query(ws.selected).positive != before.positive
    at.number_input(key="r_edit_w_r1").set_value(2.0)
    at.checkbox(key="r_edit_on_r1").uncheck()
    at.button(key="r_save").click().run()
    ws = at.session_state["ws"]
    assert ws.rules[0].w == 2.0 and not ws.rules[0].enabled
    assert ws.query(ws.selected).positive == before.positive
    assert metric(at, "Decisions that flip") == "0"
    at.button(key="r_delete").click().run()
    assert at.session_state["ws"].rules == [] and "No rules yet." in texts(at)


def test_rules_page_names_a_rule_this_model_does_not_use(base_ws):
    """A rule typed on another model's bins (kept in the session's list) is flagged in plain
    words, with the values this model has; the others are listed as usual."""
    ws = fresh(base_ws)
    f = ws.features[0]
    ws.rules.extend([rule_clause([(f, "(40, 52]")], "POS", 0.9, 50.0, "r1"),
                     rule_clause([(f, ws.domains()[f][0])], "POS", 0.9, 50.0, "r2")])
    at = run("plx_app/views/5_Rules.py", ws)
    frame = at.dataframe[0].value
    note = dict(zip(frame["id"], frame["note"]))
    assert note["r1"].startswith("not used by this model: ") and "'(40, 52]'" in note["r1"]
    assert repr(ws.domains()[f][0]) in note["r1"] and "not used" not in note["r2"]
    unit = ws.ensure_kb().rule_unit()  # what w means for this model, said in numbers
    assert frame["vs data"].tolist() == pytest.approx([50.0 / unit, 50.0 / unit])
    said = [str(c.value).replace("\\", "") for c in at.caption]
    assert any(c.startswith("What w means for Rules counted from the data (Direct): a training "
                            "row brings about ")
               and f"{unit:,.0f}" in c for c in said), said
    warned = [str(w.value).replace("\\", "") for w in at.warning]
    assert any(w.startswith("Rule r1 is not used by this model") for w in warned), warned


def test_rules_page_says_when_the_data_disagree_with_a_rule(base_ws):
    """An expert rule the training rows contradict (IF the smallest bin THEN malignant, p 0.9,
    where nearly every such row is benign) is kept and said: its rows' share of the class it
    concludes beside p, and a warning in numbers; a rule the data bear out is not flagged."""
    ws = fresh(base_ws)
    X, y = ws.part("train")
    f = ws.features[0]
    low = ws.domains()[f][0]
    held = (X[f] == low).to_numpy()
    k, n = int((y[held].astype(str) == ws.positive).sum()), int(held.sum())
    assert n >= 10 and k / n < 0.5  # the walk's case: the data say otherwise
    ws.rules.extend([rule_clause([(f, low)], "POS", 0.9, 5.0, "r1"),
                     rule_clause([(f, low)], "NOT POS", 1 - k / n, 5.0, "r2")])
    at = run("plx_app/views/5_Rules.py", ws)
    frame = at.dataframe[0].value
    share = dict(zip(frame["id"], frame["in the data"]))
    assert share["r1"] == pytest.approx(k / n) and share["r2"] == pytest.approx(1 - k / n)
    note = dict(zip(frame["id"], frame["note"]))
    pos = wording.class_names(ws.class_name)[0]
    assert note["r1"] == (f"the data disagree: it says {pos} with probability 0.9, and {k:,} of "
                          f"the {n:,} training rows it holds ({k / n:.0%}) are {pos}")
    assert note["r2"] == ""
    warned = [str(w.value).replace("\\", "") for w in at.warning]
    assert f"Rule r1: {note['r1']}" in warned and not any(w.startswith("Rule r2") for w in warned)


def test_a_rules_share_in_the_data_is_read_as_the_model_learns_it():
    """Under plx's default the classes are weighed as equally common, so its clauses' p are on
    that scale: a rule at p 0.5 on rows 10% positive, where positives are 10% of all rows, is
    what the model itself learns there (0.5 weighed) — no warning; unweighed, it is one."""
    from plx_app.service.rules import rules_frame

    X = pd.DataFrame({"ward": ["a"] * 20 + ["b"] * 80})
    is_pos = pd.Series([True] * 2 + [False] * 18 + [True] * 8 + [False] * 72, index=X.index)
    rules = [rule_clause([("ward", "a")], "POS", 0.5, 5.0, "r1")]
    weighed = rules_frame(rules, X=X, is_pos=is_pos, positive="sepsis", weighed=True)
    assert weighed["in the data"].tolist() == pytest.approx([0.5]) and weighed["note"].tolist() == [""]
    plain = rules_frame(rules, X=X, is_pos=is_pos, positive="sepsis")
    assert plain["in the data"].tolist() == pytest.approx([0.1])
    assert plain["note"].tolist() == ["the data disagree: it says sepsis with probability 0.5, "
                                      "and 2 of the 20 training rows it holds (10%) are sepsis"]
    strong = [rule_clause([("ward", "a")], "POS", 0.95, 5.0, "r1")]
    assert rules_frame(strong, X=X, is_pos=is_pos, positive="sepsis", weighed=True)[
        "note"].tolist() == ["the data disagree: it says sepsis with probability 0.95, and 2 of "
                             "the 20 training rows it holds are sepsis, 50% with the classes "
                             "weighed as equally common, as the model learns them"]


# --------------------------------------------------------------------------- Evaluate page


def test_test_rows_no_clause_bears_on_are_said_with_the_score(base_ws):
    """Rows answered [0, 1] (every value missing) are decided by the threshold alone: the
    Evaluate page says how many and the first, as `plx predict` does (review22); none, nothing."""
    from plx_app.service.workspace import decision_frame

    ws = fresh(base_ws)
    X = ws.X_test.iloc[:6].copy()
    X.iloc[[2, 4]] = np.nan
    d = decision_frame(ws.view().kb, X, None, ws.positive, ws.answer_semantics, ws.method,
                       ws.threshold)
    said = ws.uninformed_said(d)
    neg = wording.class_names(ws.class_name)[1]
    assert said.startswith("2 rows get the bounds [0, 1]: nothing the model knows bears on them")
    assert said.endswith(f"alone decides them: {neg!r} (a tie at the threshold) "
                         f"(e.g. row {X.index[2].item()!r})")
    assert ws.uninformed_said(d.drop(index=X.index[[2, 4]])) == ""


def test_evaluate_page_fits_the_other_models_when_asked_and_keeps_them(base_ws, monkeypatch):
    """The other models are fitted on the button (10.9 s on 5,000 rows was a silent first
    visit, words22), with a caption naming them first; once fitted, a new session on the same
    rows (a browser refresh) shows their table at once, the button gone (dash23)."""
    from plx_app.service import workspace as service_ws
    from plx_app.service.cache import LRU

    monkeypatch.setattr(service_ws, "BASELINE_SCORES", LRU(8))  # none fitted in this process
    ws = fresh(base_ws)
    at = run("plx_app/views/6_Evaluate.py", ws)
    assert not errors(at) and not ws.baselines_fitted()
    assert [b.label for b in at.button if b.key == "ev_baselines"] == [
        "Compare with 6 other models"]
    assert ("Six other models (majority class, logistic regression, decision tree (CART), "
            f"random forest (100 trees), gradient boosting, naive Bayes) can be fitted on the "
            f"same {len(ws.X_train):,} training rows") in texts(at)
    assert all("logistic regression" not in list(d.value.get("model", []))
               for d in at.dataframe)  # nothing fitted, nothing shown
    at.button(key="ev_baselines").click().run()
    assert not errors(at) and ws.baselines_fitted()
    assert not [b for b in at.button if b.key == "ev_baselines"]  # gone with its caption
    assert "can be fitted on the same" not in texts(at)
    table = at.dataframe[0].value
    assert len(table) == 7 and list(table["model"])[1:] == list(ws.baselines()["label"])
    again = run("plx_app/views/6_Evaluate.py", fresh(base_ws))  # a new session, same rows
    assert not errors(again) and not [b for b in again.button if b.key == "ev_baselines"]
    assert again.dataframe[0].value.equals(table)


def test_evaluate_page_shows_plx_with_and_without_the_experts_rules(base_ws):
    """With a rule enabled, plx's row among the other models names it and the next row is
    plx without it: a rule that lowers F1 below another model's reads as the rule's doing,
    not the model's (dash24's walk: 0.525 without, 0.352 with a rule the data contradict)."""
    ws = fresh(base_ws)
    f = ws.features[0]
    ws.rules.append(rule_clause([(f, ws.domains()[f][0])], "POS", 0.9, 50.0, "r1"))
    ws.baselines()
    at = run("plx_app/views/6_Evaluate.py", ws)
    assert not errors(at)
    table = at.dataframe[0].value
    name = wording.plx_row_said(ws.kb_name)
    assert list(table["model"])[:2] == [f"{name} with your one rule", f"{name} without your rules"]
    assert table["F1"].iloc[0] == pytest.approx(ws.scores("test")["F1"])
    assert table["F1"].iloc[1] == pytest.approx(ws.scores("test", rules=False)["F1"])
    assert len(table) == 2 + len(ws.baselines())


@pytest.mark.slow
def test_evaluate_page_scores_baselines_and_agreement(base_ws):
    ws = fresh(base_ws)
    at = run("plx_app/views/6_Evaluate.py", ws)
    from plx_app.service import scores

    d = ws.decisions("test")
    s = scores((ws.y_test == ws.positive).to_numpy(), (d["decision"] == "POS").to_numpy())
    assert metric(at, "F1") == f"{s['F1']:.3f}"
    if not ws.baselines_fitted():  # fitted when asked (another test may have fitted them)
        at.button(key="ev_baselines").click().run()
    table = at.dataframe[0].value
    assert list(table["model"])[0].startswith("plx") and "logistic regression" in list(table["model"])
    assert len(table) == 7 and {"sensitivity", "specificity"} <= set(table.columns)
    # the table is the service's (Workspace.against_models); its best F1 leaves out the majority
    mine, best = ws.against_models(s)
    assert list(mine["model"]) == list(table["model"]) and mine.loc[0, "F1"] == s["F1"]
    base = ws.baselines()
    assert best == base.loc[base["model"] != "majority", "F1"].max()
    at.slider(key="ev_n").set_value(20).run()
    at.selectbox(key="ev_model").set_value("CART").run()
    assert not at.exception and not errors(at)
    assert "Per row" not in [e.label for e in at.expander]  # heavy work waits for the user
    at.button(key="ev_start").click().run()
    assert not at.exception and not errors(at)
    per_row = at.dataframe[-1].value  # the "Per row" table of the agreement
    assert len(per_row) == 20 and {"plx explanation", "SHAP top-k"} <= set(per_row.columns)


@pytest.mark.slow
def agreement_page(ws) -> AppTest:
    """The Evaluate page opened on `ws` for the agreement of 20 test rows with CART."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["ws"] = ws
    at.session_state["ev_n"] = 20
    at.session_state["ev_model"] = "CART"
    at.run()
    return at.switch_page("plx_app/views/6_Evaluate.py").run()


def test_evaluate_agreement_stopped_part_way_shows_rows_done_and_continues(base_ws):
    from plx_app.service.explain import ws_agreement, ws_agreement_progress

    ws = fresh(base_ws)
    from plx_app.service.explain import ws_explain, ws_shapley

    first = {f: (None if pd.isna(v) else str(v)) for f, v in ws.X_test.iloc[0].items()}
    ws_explain(ws, first, 2), ws_shapley(ws, first)  # as the Explain page does for row 1
    assert ws_agreement_progress(ws, 20, 2, "CART") == (0, 20)  # explained elsewhere: not started
    seen: list[tuple[int, int]] = []
    rep = ws_agreement(ws, 20, 2, "CART", progress=lambda i, n: seen.append((i, n)),
                       stop=lambda: len(seen) >= 4)  # what the Stop button does
    assert (rep.n, rep.planned, rep.complete) == (4, 20, False) and len(rep.rows) == 4
    assert ws_agreement_progress(ws, 20, 2, "CART") == (4, 20)
    at = agreement_page(ws)
    assert "Stopped after 4 of 20 rows" in texts(at) and len(at.dataframe[-1].value) == 4
    assert "Continue (4 of 20 done)" in [b.label for b in at.button]
    at.button(key="ev_start").click().run()
    assert not errors(at) and len(at.dataframe[-1].value) == 20
    assert ws_agreement_progress(ws, 20, 2, "CART") == (20, 20)
    full = ws_agreement(fresh(base_ws), 20, 2, "CART")  # as if never stopped
    assert ws_agreement(ws, 20, 2, "CART").summary == full.summary


@pytest.mark.slow
def test_evaluate_agreement_answers_every_row_and_notes_one_it_cannot_explain(base_ws):
    """A test row holding only values the model never saw is explained by nothing: the
    agreement goes on over the other rows, and the page says which row and why."""
    ws = fresh(base_ws)
    ws.X_test = ws.X_test.copy()
    ws.X_test.iloc[1, :] = "never seen"
    at = agreement_page(ws)
    at.button(key="ev_start").click().run()
    assert not at.exception and not errors(at), errors(at)
    per_row = at.dataframe[-1].value
    assert len(per_row) == 20 and per_row["plx explanation"].iloc[1] == ""
    assert "never seen in training" in per_row["note"].iloc[1]
    assert per_row["plx explanation"].iloc[[0, 2]].str.len().gt(0).all()
    assert "1 of these 20 rows could not be explained by plx" in texts(at)


def test_evaluate_offers_no_continue_when_a_stopped_run_ends_late(base_ws,
                                                                                  monkeypatch):
    """Streamlit starts the run a Stop click asks for while the stopped run's thread may still
    finish its rows: when it ends the run, the page shows the complete agreement and
    offers no 'Continue (20 of 20 done)' (whether it is done is read with what it shows)."""
    import plx_app.service.explain as explain

    ws = fresh(base_ws)
    seen: list[tuple[int, int]] = []
    explain.ws_agreement(ws, 20, 2, "CART", progress=lambda i, n: seen.append((i, n)),
                         stop=lambda: len(seen) >= 10)
    assert explain.ws_agreement_progress(ws, 20, 2, "CART") == (10, 20)
    done = explain.ws_agreement_done

    late: list[bool] = []

    def read_then_late_row(*args, **kwargs):  # read as not done, then the old thread ends
        got = done(*args, **kwargs)
        if not late:
            late.append(True)
            explain.ws_agreement(ws, 20, 2, "CART")
        return got

    monkeypatch.setattr(explain, "ws_agreement_done", read_then_late_row)
    at = agreement_page(ws)
    assert not errors(at) and len(at.dataframe[-1].value) == 20
    assert "Stopped after" not in texts(at)
    assert "ev_start" not in [b.key for b in at.button], [b.label for b in at.button]


def test_evaluate_threshold_moves_sensitivity_and_specificity(base_ws):
    from plx_core.curves import at_threshold

    ws = fresh(base_ws)
    at = run("plx_app/views/6_Evaluate.py", ws)
    truth = (ws.y_test.astype(str) == ws.positive).to_numpy()
    score = ws.decisions("test")["mean"].to_numpy()
    for t in (0.5, 0.2, 0.8):
        at.slider(key="ev_threshold").set_value(t).run()
        r = at_threshold(truth, score, t)
        assert metric(at, "Sensitivity") == f"{r.sensitivity:.3f}"
        assert metric(at, "Specificity") == f"{r.specificity:.3f}"
    assert at_threshold(truth, score, 0.2).sensitivity >= at_threshold(truth, score, 0.8).sensitivity
    assert wording.counts_at_threshold(0.8, r.tp, r.fp, r.tn, r.fn, ws.class_name) in \
        texts(at).replace("\n", " ")


def test_global_view_page_aggregates_the_sampled_rows(base_ws):
    ws = fresh(base_ws)
    at = run("plx_app/views/7_Global_view.py", ws)
    assert not errors(at)
    assert not at.dataframe and "Explain the rows" in [b.label for b in at.button]  # not on load
    at.button(key="g_start").click().run()
    assert not errors(at)
    body = texts(at)
    assert "random sample of 100 of" in body or f"all {len(ws.X_test)} rows" in body
    rules = at.dataframe[1].value
    assert len(rules) and all(r.startswith("IF ") for r in rules["rule"])
    # how to read them, in the Query page's words (it said "p of the training rows", which a
    # vote's fitted probabilities are not)
    assert wording.evidence_reading_said(None, ws.class_name, "probability") in body
    at.slider(key="g_k").set_value(1).run()
    assert not at.exception and not at.dataframe  # new settings: started again by the user
    at.button(key="g_start").click().run()
    assert not at.exception and "with one feature each" in texts(at)
    at.slider(key="g_k").set_value(2).run()  # the first run's rows are kept: shown, not redone
    body = texts(at)
    assert at.dataframe and ("random sample of 100 of" in body or f"all {len(ws.X_test)}" in body)


def test_global_view_stopped_part_way_shows_the_rows_done_and_continues(base_ws):
    from plx_app.service.insight import ws_global_progress, ws_global_view

    ws = fresh(base_ws)
    counts: list[tuple[int, int]] = []
    view = ws_global_view(ws, 2, 40, "test", progress=lambda i, n: counts.append((i, n)),
                          stop=lambda: len(counts) >= 3)  # what the Stop button does
    assert counts == [(1, 40), (2, 40), (3, 40)] and not view.complete
    assert ws_global_progress(ws, 2, 40, "test") == (3, 40)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["ws"] = ws
    at.session_state["g_rows"] = 40
    at.run()
    at.switch_page("plx_app/views/7_Global_view.py").run()
    assert "Stopped after 3 of 40 rows" in texts(at) and len(at.dataframe) == 2
    assert "Continue (3 of 40 done)" in [b.label for b in at.button]
    at.button(key="g_start").click().run()
    assert ws_global_progress(ws, 2, 40, "test") == (40, 40)
    assert "Stopped" not in texts(at) and "g_start" not in [b.key for b in at.button]


def test_global_view_counts_what_it_shows_when_a_stopped_run_finishes_its_row_late(base_ws, monkeypatch):
    """Streamlit starts the run a Stop click asks for while the stopped run's thread may still
    finish its row: the Continue button's count and the view must come from one reading."""
    import plx_app.service.insight as insight

    ws = fresh(base_ws)
    counts: list[tuple[int, int]] = []
    insight.ws_global_view(ws, 2, 40, "test", progress=lambda i, n: counts.append((i, n)),
                           stop=lambda: len(counts) >= 3)
    read = insight.ws_global_progress

    def read_then_late_row(*args, **kwargs):  # the count is read, then the old thread writes
        got = read(*args, **kwargs)
        more: list[int] = []
        insight.ws_global_view(ws, 2, 40, "test", progress=lambda i, n: more.append(i),
                               stop=lambda: len(more) >= 4)
        return got

    monkeypatch.setattr(insight, "ws_global_progress", read_then_late_row)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.session_state["ws"] = ws
    at.session_state["g_rows"] = 40
    at.run()
    at.switch_page("plx_app/views/7_Global_view.py").run()
    assert "Stopped after 4 of 40 rows" in texts(at)
    assert "Continue (4 of 40 done)" in [b.label for b in at.button]


# --------------------------------------------------------------------------- errors keep the app usable


@pytest.mark.slow
def test_kb_too_large_is_reported_in_plain_words():
    import numpy as np

    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.integers(0, 4, (400, 40)).astype(str), columns=[f"f{i}" for i in range(40)])
    frame["y"] = rng.integers(0, 2, 400).astype(str)
    from plx_app.service import read_upload

    raw = read_upload(frame.to_csv(index=False).encode(), "wide.csv")
    ws = new_workspace(raw, DataSettings("y", "1", tuple(frame.columns[:-1]),
                                         categorical=tuple(frame.columns[:-1])),
                       kb=KBSettings("tree"))
    at = run("plx_app/views/2_Knowledge_base.py", ws)
    at.radio(key="kb_kind").set_value("direct").run()
    # choosing Direct starts at the default cap, which keeps it buildable
    assert at.number_input(key="kb_max_len").value == default_max_len(*ws.X_train.shape) > 0
    at.number_input(key="kb_max_len").set_value(0).run()
    at.button(key="kb_build").click().run()
    assert not at.exception
    assert any("GiB" in e and "max_len" in e for e in errors(at)), errors(at)
    at.switch_page("plx_app/views/3_Query.py").run()
    assert not at.exception and metric(at, "Decision")


def penguin_like(n: int = 90, seed: int = 0) -> pd.DataFrame:
    """Three classes (first column), text and number columns, missing values in a feature and
    in the label, and a `year` column (three values) last."""
    import numpy as np

    rng = np.random.default_rng(seed)
    species = rng.choice(["Adelie", "Gentoo", "Chinstrap"], n)
    bill = np.where(species == "Gentoo", 47.0, np.where(species == "Adelie", 38.0, 49.0))
    frame = pd.DataFrame({
        "species": species,
        "island": rng.choice(["Biscoe", "Dream", "Torgersen"], n),
        "bill_length_mm": np.round(bill + rng.normal(0, 2, n), 1),
        "sex": rng.choice(["male", "female", None], n, p=[0.45, 0.45, 0.1]),
        "year": rng.choice([2007, 2008, 2009], n),
    })
    frame.loc[[3, 17], "species"] = None
    return frame


def test_data_page_label_suggestion_unlabelled_rows_and_counts():
    from plx_app.service import read_upload

    frame = penguin_like()
    raw = read_upload(frame.to_csv(index=False).encode(), "penguins.csv")
    assert raw.defaults.label == "species"  # not `year`, the last column
    with pytest.raises(DataError, match="missing"):
        new_workspace(raw, DataSettings("species", "Adelie"))
    ws = new_workspace(raw, DataSettings("species", "Adelie", drop_unlabelled=True))
    assert len(ws.dataset.X) == len(frame) - 2
    at = run("plx_app/views/1_Data.py", ws)
    assert at.checkbox(key=f"data_drop_{raw.fingerprint}_species").value is True
    body = texts(at)
    n_train_rows = ws.X_train.index.nunique()
    assert f"{len(frame) - 2} rows: {n_train_rows} for training and {len(ws.X_test)} for testing" in body
    # plx's default answers: it weighs the classes, each row once; the repeats are the others'
    assert (f"plx's default learns from each of the {n_train_rows} training rows once and "
            "weighs the classes equally instead of repeating rows") in body
    assert f"the other KB kinds and the baselines learn from the {len(ws.X_train)} rows" in body


@pytest.mark.slow
def test_each_session_has_its_own_workspace():
    a = run()
    b = run()
    wa, wb = a.session_state["ws"], b.session_state["ws"]
    assert wa is not wb
    wa.rules.append(rule_clause([("worst radius", "<13.5")], "POS", 0.9, 10, "r1"))
    assert wb.rules == []


@pytest.mark.slow
def test_paper_example_seeded_workspace_runs_every_page():
    raw = raw_builtin("paper-example")
    ws = new_workspace(raw, replace(raw.defaults, test_size=0.25))
    for page in ["plx_app/views/1_Data.py", "plx_app/views/2_Knowledge_base.py", "plx_app/views/3_Query.py",
                 "plx_app/views/4_Explain.py", "plx_app/views/5_Rules.py", "plx_app/views/6_Evaluate.py",
                 "plx_app/views/7_Global_view.py"]:
        at = run(page, ws)
        assert not errors(at), (page, errors(at))


# --------------------------------------------------------------------------- user text stays inert

EVIL = "![i](https://evil.example/i.png)"


def _hostile_workspace():
    """A table whose column names and values are markdown: an image, a link, emphasis."""
    rows = [f'outcome,"{EVIL}",[x](https://evil.example/x),**bold**']
    for i in range(40):
        rows.append(f"{'yes' if i % 3 else 'no'},{'a' if i % 2 else EVIL},{i % 4},{'_b_' if i % 5 else 'c'}")
    raw = read_upload("\n".join(rows).encode(), "evil.csv")
    return new_workspace(raw, DataSettings("outcome", "yes"))


def _shown_text(at: AppTest) -> list[str]:
    """Every label and markdown body on the page that Streamlit renders as markdown."""
    out = [m.value for m in at.markdown] + [c.value for c in at.caption]
    out += [e.value for e in (*at.error, *at.warning, *at.info, *at.success)]
    for kind in ("selectbox", "multiselect", "number_input", "slider", "checkbox", "toggle",
                 "radio", "text_input", "text_area", "button", "metric", "expander", "tabs"):
        out += [str(getattr(w, "label", "")) for w in at.get(kind)]
    return out


@pytest.mark.slow
def test_markdown_in_column_names_and_values_is_never_rendered():
    ws = _hostile_workspace()
    assert EVIL in ws.features
    ws.set_selected(instance_from_row(ws.X_test, ws.y_test, ws.X_test.index[0], "test"))
    for page in ["plx_app/views/1_Data.py", "plx_app/views/2_Knowledge_base.py",
                 "plx_app/views/3_Query.py", "plx_app/views/4_Explain.py",
                 "plx_app/views/5_Rules.py"]:
        at = run(page, ws)
        shown = _shown_text(at)
        assert shown, page
        for text in shown:
            # escaped text keeps its characters but never the markdown syntax itself
            assert "![i](" not in text and "](https://evil" not in text, (page, text)
        assert any("evil" in t for t in shown), page  # … and the user's text is still shown


def test_upload_reads_the_engines_missing_markers_and_says_which(base_ws):
    from plx_core.data import MISSING_MARKERS, read_table

    csv = "a,b,y\nNA,1,x\n?,2,z\nn/a,,x\nv,NULL,z\nw,3,x\n"
    raw = read_upload(csv.encode(), "m.csv")
    assert int(raw.frame["a"].isna().sum()) == 3 and int(raw.frame["b"].isna().sum()) == 2
    engine = read_table(csv.encode(), missing=MISSING_MARKERS)  # the CLI's reading
    assert raw.frame.isna().to_numpy().tolist() == engine.frame.isna().to_numpy().tolist()
    at = run("plx_app/views/1_Data.py", fresh(base_ws))
    at.radio(key="data_source").set_value("Upload a CSV").run()
    assert at.text_input(key="data_missing").value == ", ".join(m for m in MISSING_MARKERS if m)
    assert any(str(c.value).replace("\\", "").startswith("Read as missing: empty cells, ?, NA")
               for c in at.caption)


def test_one_progress_bar_serves_both_callback_shapes():
    """`widgets.Progress` is the pages' one progress bar: called as `progress(fraction, text)`
    (building a KB: clipped to [0, 1]) and through `rows` as `progress(i, n)` of row-by-row
    work (`Explained i of n rows`); `row_counter` starts it at the rows done; `done()` removes
    it."""

    def script():
        from plx_app.widgets import Progress, row_counter

        count = row_counter(2, 8)
        count.rows(3, 4)
        build = Progress("Building…")
        build(1.7, "Built")
        row_counter(5, 10)
        row_counter(text="Fitting the baseline…")
        gone = Progress("Removed")
        gone.done()
        try:
            with Progress("Removed on an error too") as bar:
                bar(0.5, "half")
                raise ValueError
        except ValueError:
            pass

    at = AppTest.from_function(script, default_timeout=TIMEOUT).run()
    assert not at.exception
    bars = [(p.proto.value, p.proto.text) for p in at.get("progress")]
    assert bars == [(75, "Explained 3 of 4 rows"), (100, "Built"), (50, "Explained 5 of 10 rows"),
                    (0, "Fitting the baseline…")]


def _typed_table(n: int = 60) -> pd.DataFrame:
    """Typed columns as a Parquet file keeps them: numbers (one missing), dates, booleans, a
    category with nulls and text holding the missing marker NA."""
    import numpy as np

    r = np.random.default_rng(0)
    df = pd.DataFrame({
        "age": r.integers(18, 90, n).astype(float),
        "when": pd.to_datetime("2024-01-01") + pd.to_timedelta(r.integers(0, 365, n), "D"),
        "smoker": r.random(n) < 0.3,
        "colour": pd.Categorical(r.choice(["red", "blue", None], n)),
        "note": r.choice(["a", "b", "NA"], n),
    })
    df["outcome"] = np.where((df["age"] > 50) | df["smoker"], "yes", "no")
    df.loc[3, "age"] = np.nan
    return df


def _upload_and_apply(base_ws, name: str, data: bytes) -> AppTest:
    at = run("plx_app/views/1_Data.py", fresh(base_ws))
    at.radio(key="data_source").set_value("Upload a CSV").run()
    at.file_uploader(key="data_upload").set_value((name, data, "application/octet-stream")).run()
    assert not at.exception and not errors(at), errors(at)
    pos_key = [s for s in at.session_state if str(s).startswith("data_pos_")][0]
    at.selectbox(key=pos_key).set_value("yes").run()
    at.button(key="data_apply").click().run()
    assert not at.exception and not errors(at), errors(at)
    return at


@pytest.mark.slow
def test_data_page_reads_a_parquet_upload_as_the_same_table_in_csv(base_ws):
    import io

    df = _typed_table()
    buf = io.BytesIO()
    df.to_parquet(buf)
    at = _upload_and_apply(base_ws, "typed.parquet", buf.getvalue())
    assert any("Parquet file" in c.value for c in at.caption)
    ws = at.session_state["ws"]
    assert ws.dataset.name == "typed.parquet" and ws.kb is not None and ws.positive == "yes"
    X = ws.dataset.X
    assert set(X.columns) == {"age", "when", "smoker", "colour", "note"}
    assert X["age"].isna().sum() == 1 and X["note"].isna().sum() == (df["note"] == "NA").sum()
    assert X["when"].dropna().str.contains("2024-").all()  # dates binned on a time line
    # the same table written as CSV gives the same features, bins and labels
    csv = _upload_and_apply(base_ws, "typed.csv", df.to_csv(index=False).encode())
    ws_csv = csv.session_state["ws"]
    # the same rows and values; each numbered as its file numbers it (plx fit does the same):
    # a Parquet file's rows from 1, a CSV's by their line (the header is line 1)
    assert list(ws_csv.dataset.X.index) == [i + 1 for i in X.index]
    pd.testing.assert_frame_equal(X.astype(str).reset_index(drop=True),
                                  ws_csv.dataset.X.astype(str).reset_index(drop=True))
    assert ws.dataset.y.astype(str).tolist() == ws_csv.dataset.y.astype(str).tolist()


@pytest.mark.slow
def test_data_page_refuses_a_damaged_or_too_large_parquet_in_one_line(base_ws, monkeypatch):
    import io

    import plx_app.service.tables as tables

    buf = io.BytesIO()
    _typed_table().to_parquet(buf)
    data = buf.getvalue()
    at = run("plx_app/views/1_Data.py", fresh(base_ws))
    at.radio(key="data_source").set_value("Upload a CSV").run()
    cases = [(data[: len(data) // 2], "is a Parquet file that cannot be read"),
             (b"PAR1" + bytes(200), "is a Parquet file that cannot be read"),
             (data[4:], "does not start with Parquet's PAR1 marker")]
    for i, (bad, said) in enumerate(cases):
        at.file_uploader(key="data_upload").set_value((f"bad{i}.parquet", bad, "application/octet-stream")).run()
        assert not at.exception
        shown = errors(at)
        assert len(shown) == 1 and said in shown[0] and "\n" not in shown[0], shown
    # the row cap is read from the file's footer, before any row is read
    monkeypatch.setattr(tables, "MAX_UPLOAD_ROWS", 50)
    at.file_uploader(key="data_upload").set_value(("big.parquet", data, "application/octet-stream")).run()
    assert not at.exception and any("has 60 rows, more than the cap" in e for e in errors(at)), errors(at)


@pytest.mark.slow
def test_data_page_says_a_positive_class_it_does_not_know_is_a_pick_to_check(base_ws):
    # "y"/"n" is no pair plx assumes: the picker starts on the rarer class and says so,
    # where `plx fit` and the estimator ask (no silent guess)
    from plx_app.service import positive_note

    assert positive_note(["n", "y"], "y").startswith("plx does not assume which of 'n' and 'y'")
    assert positive_note(["no", "yes"], "yes") == "" and positive_note(["n", "y"], "n") == ""
    rows = [("red", "y")] * 6 + [("blue", "n")] * 14 + [("blue", "y")] * 4
    csv = ("colour,answer\n" + "\n".join(f"{c},{a}" for c, a in rows) + "\n").encode()
    at = run("plx_app/views/1_Data.py", fresh(base_ws))
    at.radio(key="data_source").set_value("Upload a CSV").run()
    at.file_uploader(key="data_upload").set_value(("yn.csv", csv, "text/csv")).run()
    assert not at.exception
    pos_key = [s for s in at.session_state if str(s).startswith("data_pos_")][0]
    assert at.selectbox(key=pos_key).value == "y"
    assert any("plx does not assume which of 'n' and 'y'" in c.value for c in at.caption)
    at.selectbox(key=pos_key).set_value("n").run()  # the user chose: nothing more to say
    assert not any("plx does not assume" in c.value for c in at.caption)


def test_a_label_coded_1_2_starts_on_its_rarer_class_as_the_note_says():
    # outcome 1/2 (SPSS style), 170 rows of 1 and 130 of 2: the picker started on '1' (the
    # "1" of 0/1) and its note called it "the rarer"
    import io

    from user_tables import label_12

    from plx_app.service import positive_choice, positive_note

    y = pd.read_csv(io.BytesIO(label_12().data))["outcome"].astype(str)
    values = y.value_counts().index.tolist()
    assert values == ["1", "2"]  # most rows first, as label_values gives them
    chosen = values[positive_choice(values)]
    assert chosen == "2" and "the rarer, '2', is picked" in positive_note(values, chosen)


@pytest.mark.slow
def test_data_page_starts_on_the_positive_class_plx_fit_assumes(base_ws):
    # the picker started on the rarest class, so a table of mostly "Yes" opened with POS = "No"
    # where `plx fit` and the estimator take "Yes" (encoding.default_positive)
    from plx_app.service import positive_choice

    assert positive_choice(["Yes", "No"]) == 0 and positive_choice(["0", "1"]) == 1
    assert positive_choice(["FALSE", "TRUE"]) == 1 and positive_choice(["b", "a", "c"]) == 2
    # among more classes none is assumed (digits: '1' is no more positive than '7'): the rarest
    assert positive_choice(["0", "2", "1"]) == 2 and positive_choice(["1", "7", "3"]) == 2
    from plx_app.service import positive_note

    assert positive_note(["1", "7", "3"], "3").startswith(
        "plx assumes no positive class among 3 classes: the rarest, '3', is picked")
    assert positive_note(["1", "7", "3"], "7") == ""  # the user's choice needs no note
    rows = [("red", "yes")] * 14 + [("blue", "no")] * 6 + [("blue", "yes")] * 4
    csv = ("colour,answer\n" + "\n".join(f"{c},{a}" for c, a in rows) + "\n").encode()
    at = run("plx_app/views/1_Data.py", fresh(base_ws))
    at.radio(key="data_source").set_value("Upload a CSV").run()
    at.file_uploader(key="data_upload").set_value(("mostly-yes.csv", csv, "text/csv")).run()
    assert not at.exception and not errors(at)
    pos_key = [s for s in at.session_state if str(s).startswith("data_pos_")][0]
    assert at.selectbox(key=pos_key).value == "yes"


@pytest.mark.slow
def test_features_named_like_plx_columns_keep_the_query_and_rules_pages_working():
    # features called "label" and "before" (a product label, a before/after flag): the Query
    # page's row list ("cannot insert label, already exists") and the Rules page's effect
    # table failed; plx's own columns now give way as "label (plx)", "before (plx)"
    from user_tables import colliding_names

    raw = read_upload(colliding_names().data, "colliding.csv")
    ws = new_workspace(raw, DataSettings("default", "1"))
    assert {"label", "before", "decision", "note"} <= set(ws.features)
    at = run("plx_app/views/3_Query.py", ws)
    assert not errors(at), errors(at)
    at.selectbox(key="q_f_label").set_value("1").run()
    assert not at.exception and not errors(at), errors(at)
    n_pos = int((ws.y_test.astype(str) == "1").sum())
    assert f"{n_pos} of {len(ws.X_test)} rows" in texts(at)
    ws = at.session_state["ws"]
    f, v = "note", ws.domains()["note"][0]
    ws.add_rule([(f, v)], "POS", 1.0, 1e6)
    fx = ws.rules_effect()
    assert len(fx.flips) > 0 and list(fx.flips.columns[:3]) == ["label (plx)", "plx before", "plx after"]
    assert (fx.flips["label"] == ws.X_test.loc[fx.flips.index, "label"]).all()  # the feature
    at = run("plx_app/views/5_Rules.py", ws)
    assert not errors(at), errors(at)
    assert int(metric(at, "Decisions that flip")) == len(fx.flips)


@pytest.mark.slow
def test_evaluate_page_says_how_many_test_rows_repeat_a_training_row():
    """A table holding 80 records twice: some copies land in the test part, whose score is
    then partly recall. The Evaluate page says how many (counted on the columns as
    uploaded, not on their bins) and the F1 of the other test rows; a table of distinct
    records says nothing."""
    import numpy as np

    from plx_app.service import DataSettings, read_upload
    from plx_core.baselines import scores

    rng = np.random.default_rng(4)
    n = 240
    frame = pd.DataFrame({"dose": rng.normal(size=n).round(6), "arm": rng.choice(list("ab"), n),
                          "site": rng.choice(list("xyz"), n)})
    frame["outcome"] = np.where((frame.dose > 0) ^ (rng.random(n) < 0.15), "yes", "no")
    twice = pd.concat([frame, frame.iloc[:80]], ignore_index=True)
    for table, repeated in ((twice, True), (frame, False)):
        raw = read_upload(table.to_csv(index=False).encode(), "trial.csv")
        ws = new_workspace(raw, DataSettings("outcome", "yes", ("dose", "arm", "site")),
                           kb=KBSettings("direct"))
        at = run("plx_app/views/6_Evaluate.py", ws)
        assert not at.exception and not errors(at), errors(at)
        warned = [str(w.value).replace("\\", "") for w in at.warning]
        said = [w for w in warned if "repeat a training row" in w]
        if not repeated:
            assert said == [], said
            continue
        train = raw.frame.loc[ws.X_train.index, ["dose", "arm", "site"]].drop_duplicates()
        test = raw.frame.loc[ws.X_test.index, ["dose", "arm", "site"]]
        seen = test.merge(train, how="left", indicator=True)["_merge"].eq("both").to_numpy()
        assert 0 < seen.sum() < len(test)
        d = ws.decisions("test")
        rest = scores((ws.y_test == "yes").to_numpy()[~seen],
                      (d["decision"] == "POS").to_numpy()[~seen])
        assert said == [
            f"{seen.sum()} of the {len(test)} test rows ({seen.sum() / len(test):.0%}) repeat a "
            f"training row in every feature column ({seen.sum()} with its label too): the model "
            "has seen them, so the test score is optimistic by what they add — it measures "
            "recall of training rows as well as new ones. On the "
            f"{len(test) - seen.sum()} other test rows F1 is {rest['F1']:.3f}."], said
        data = run("plx_app/views/1_Data.py", ws)  # and the Data page's split sentence counts them
        captions = [str(c.value).replace("\\", "") for c in data.caption]
        assert any(f"{seen.sum()} of the {len(test)} test rows repeat a training row" in c
                   for c in captions), captions


@pytest.mark.slow
def test_evaluate_page_scores_a_test_part_without_the_rare_class():
    """A rare class's lone row drawn for training: the Evaluate page still scores plx and the
    baselines (was: an error instead of the scores) and says recall is undefined there."""
    rng = np.random.default_rng(11)
    frame = pd.DataFrame({"ward": rng.choice(["north", "south"], 48), "age": rng.integers(20, 90, 48)})
    frame["relapse"] = ["yes"] + ["no"] * 47
    raw = read_upload(frame.to_csv(index=False).encode(), "ward.csv")
    ws = new_workspace(raw, replace(raw.defaults, label="relapse", positive="yes"),
                       kb=KBSettings("direct"))
    assert not (ws.y_test == "yes").any()
    at = run("plx_app/views/6_Evaluate.py", ws)
    assert not errors(at), errors(at)
    at.button(key="ev_baselines").click().run()
    assert not errors(at), errors(at)
    table = at.dataframe[0].value
    assert (table[["tp", "fn"]] == 0).all().all() and (table[["fp", "tn"]].sum(axis=1) == len(ws.y_test)).all()
    said = [w.value.replace("\\", "") for w in at.warning if "holds no" in w.value.replace("\\", "")]
    assert len(said) == 1 and said[0].startswith("The test part holds no relapse = yes row")
    assert "recall (sensitivity) is undefined" in said[0]


# --------------------------------------------------------------------------- plain words


def _read_outside_details(node) -> list[str]:
    """Every text a reader sees on a page (markdown, captions, alerts, metrics, widget labels
    and help), leaving out what is inside an expander (Details / Advanced define ω(POS))."""
    from streamlit.testing.v1.element_tree import Block, Expander

    if isinstance(node, Expander):
        return []
    if isinstance(node, Block):
        return [t for child in node.children.values() for t in _read_outside_details(child)]
    proto = getattr(node, "proto", None)
    said = [str(getattr(proto, name, "") or "") for name in ("body", "label", "help", "body")]
    if type(node).__name__ == "Metric":
        said.append(str(node.value))
    return [s for s in said if s]


@pytest.mark.parametrize("page", ["1_Data.py", "2_Knowledge_base.py", "3_Query.py", "4_Explain.py",
                                  "5_Rules.py", "6_Evaluate.py", "7_Global_view.py"])
def test_a_clinician_reads_support_not_omega_or_pos_outside_details(base_ws, page):
    ws = fresh(base_ws)
    at = run(f"plx_app/views/{page}", ws)
    shown = _read_outside_details(at._tree[0]) + _read_outside_details(at._tree[1])
    raw = [s for s in shown if "ω(" in s or re.search(r"\bPOS\b", s)]
    assert shown and not raw, raw  # the class in words: "support for malignant", "not malignant"
    if page == "2_Knowledge_base.py":  # each kind a plain name with one line saying its rules
        kind = at.radio(key="kb_kind")
        assert "Rules counted from the data (Direct)" in kind.options, kind.options
        assert len(kind.proto.captions) == len(kind.options) and all(kind.proto.captions)
    if page == "3_Query.py":
        assert any(f"support for {ws.class_name}" in s.lower() for s in shown)
        advanced = [e for e in at.expander if e.label.startswith("Advanced")]
        assert "ω(POS)" in " ".join(c.value for c in advanced[0].caption).replace("\\", "")


def test_query_says_when_the_row_answered_is_outside_its_filters(base_ws):
    # words22's walk: "Only rows with a missing value" listed 693 of 1500 rows while the answer
    # below stayed a row with every value known, without a word; and counts lacked separators
    ws = fresh(base_ws)
    at = run("plx_app/views/3_Query.py", ws)
    assert not at.exception
    sel = at.session_state["ws"].selected
    X, y = at.session_state["ws"].part(sel.origin)
    own = str(at.session_state["ws"].recorded_labels(sel.origin).loc[sel.row])
    other = [c for c in at.selectbox(key="q_f_label").options if c not in ("(any)", own)][0]
    at.selectbox(key="q_f_label").set_value(other).run()
    assert not at.exception
    said = texts(at).replace("\\", "")
    assert f"The answer below is still for {sel.origin} row {sel.row}, which these filters leave out" in said
    at.selectbox(key="q_f_label").set_value(own).run()
    assert "which these filters leave out" not in texts(at)
