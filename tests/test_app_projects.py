"""Saved projects through Streamlit's AppTest: work comes back in a new session, the Projects
page manages projects, the Rules page shows and restores the history, and a second session
saving over a newer version is told in the sidebar and can keep both."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest
from test_app import APP, TIMEOUT, run  # run: a fresh session (no seeded workspace)

from plx_core.store import Store

RULES = "plx_app/views/5_Rules.py"
QUERY = "plx_app/views/3_Query.py"
PROJECTS = "plx_app/views/7_Projects.py"


def sidebar(at: AppTest) -> str:
    parts = [c.value for c in at.sidebar.caption] + [w.value for w in at.sidebar.warning]
    parts += [i.value for i in at.sidebar.info]
    return "\n".join(str(p) for p in parts).replace("\\", "")


def add_rule(at: AppTest, text: str) -> None:
    at.text_area(key="r_rules_text").set_value(text)
    at.button(key="r_add_text").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]


def a_rule(at: AppTest, rid: str, w: float = 50) -> str:
    ws = at.session_state["ws"]
    f = ws.features[0]
    return f'IF "{f}"="{ws.domains()[f][0]}" THEN POS [p=0.9, w={w}, id={rid}]'


def project_store() -> Store:
    import os

    return Store(home=os.environ["PLX_HOME"])


def test_rules_come_back_in_a_new_session():
    at = run(RULES)
    assert "Project: My project · rules version 0" in sidebar(at)
    at.text_input(key="plx_author_in").set_value("Dr Ann").run()
    at.text_input(key="plx_why").set_value("clinic review").run()
    add_rule(at, a_rule(at, "r1"))
    assert "rules version 1" in sidebar(at)
    # a refresh or a restart is a new session: it opens the same project with the rule
    again = run(RULES)
    assert [r.id for r in again.session_state["ws"].rules] == ["r1"]
    h = project_store().history(project_store().list_projects()[0].id)[0]
    assert (h.n, h.author, h.note, h.summary) == (1, "Dr Ann", "clinic review", "added r1")
    assert again.text_input(key="plx_why").value == ""


def test_projects_page_creates_renames_duplicates_deletes():
    at = run(PROJECTS)
    at.text_input(key="pj_new_name").set_value("Second look").run()
    at.button(key="pj_create").click().run()
    assert not at.exception
    assert "Project: Second look" in sidebar(at)
    pid = project_store().find("Second look").id
    at.text_input(key=f"pj_name_{pid}").set_value("Second look, renamed").run()
    at.button(key="pj_rename").click().run()
    at.button(key="pj_duplicate").click().run()
    names = sorted(p.name for p in project_store().list_projects())
    assert names == ["My project", "Second look, renamed", "Second look, renamed (copy)"]
    assert "Project: Second look, renamed (copy)" in sidebar(at)
    at.checkbox(key="pj_delete_sure").check().run()
    at.button(key="pj_delete").click().run()
    assert sorted(p.name for p in project_store().list_projects()) == ["My project", "Second look, renamed"]
    assert not at.exception


def test_rules_history_restores_an_earlier_version():
    at = run(RULES)
    add_rule(at, a_rule(at, "r1"))
    add_rule(at, a_rule(at, "r2", w=7).replace("THEN POS", "THEN NOT POS"))
    at.button(key="r_delete").click().run()  # deletes the selected rule (r1)
    assert [r.id for r in at.session_state["ws"].rules] == ["r2"]
    assert "rules version 3" in sidebar(at)
    at.selectbox(key="plx_hist_n").set_value(2).run()
    at.button(key="plx_restore").click().run()
    assert sorted(r.id for r in at.session_state["ws"].rules) == ["r1", "r2"]
    assert "rules version 4" in sidebar(at)
    hist = project_store().history(project_store().list_projects()[0].id)
    assert [h.note for h in hist][:1] == ["restored version 2"]


def test_a_second_session_is_told_and_keeps_both():
    a = run(RULES)
    b = run(RULES)  # both opened version 0 of the same project
    add_rule(a, a_rule(a, "r1"))
    add_rule(b, a_rule(b, "r1", w=9).replace("THEN POS", "THEN NOT POS"))
    assert "Not saved: the rules were saved" in sidebar(b)
    b.button(key="plx_keep_both").click().run()
    rules = b.session_state["ws"].rules
    assert sorted(r.w for r in rules) == [9.0, 50.0] and len({r.id for r in rules}) == 2
    assert "Merged: rules version 2" in sidebar(b)
    a.run()  # the first session hears about the newer version
    assert "saved in another session" in sidebar(a)
    a.button(key="plx_reload_newer").click().run()
    assert sorted(r.w for r in a.session_state["ws"].rules) == [9.0, 50.0]


def test_kb_import_merges_or_replaces_the_rules():
    at = run(RULES)
    add_rule(at, a_rule(at, "r1"))
    kb_json = at.session_state["ws"].kb.without_rules().to_json().encode()  # no rules in it
    at.switch_page("plx_app/views/2_Knowledge_base.py").run()
    at.session_state["kb_tab"] = "Export / import"
    at.run()
    at.file_uploader(key="kb_import").set_value(("kb.json", kb_json, "application/json")).run()
    at.button(key="kb_import_go").click().run()
    assert [r.id for r in at.session_state["ws"].rules] == ["r1"]  # merged: nothing wiped
    at.radio(key="kb_import_rules").set_value("Replace this project's rules").run()
    at.button(key="kb_import_go").click().run()
    assert at.session_state["ws"].rules == []
    hist = project_store().history(project_store().list_projects()[0].id)
    assert [h.summary for h in hist] == ["removed r1", "added r1"]  # and it can be restored


def test_a_note_on_the_selected_case_is_kept():
    from plx_app.service import instance_from_row

    at = run(RULES)
    ws = at.session_state["ws"]
    row = ws.X_test.index[0]
    ws.selected = instance_from_row(ws.X_test, ws.y_test, row, "test")
    at.run()
    pid = project_store().list_projects()[0].id
    at.text_area(key=f"plx_note_{pid}_test row {row}").set_value("Biopsy says benign.").run()
    assert project_store().notes(pid)[f"test row {row}"].text == "Biopsy says benign."
    again = run(RULES)  # a new session shows it when the case is selected again
    again.session_state["ws"].selected = instance_from_row(ws.X_test, ws.y_test, row, "test")
    again.run()
    assert again.text_area(key=f"plx_note_{pid}_test row {row}").value == "Biopsy says benign."


def test_case_report_names_each_rules_author_from_the_saved_history(tmp_path):
    from plx_app.service import instance_from_row
    from plx_app.service.insight import ws_case_report
    from plx_app.service.projects import (
        NOT_SAVED,
        create_project,
        open_project,
        rules_in_force,
        sync,
    )
    from plx_core import parse_rules

    s = Store(home=tmp_path)
    try:
        ws, lk, _ = open_project(s, create_project(s, "P"))
        X, y = ws.part("test")
        inst = instance_from_row(X, y, X.index[0], "test")
        f = ws.features[0]
        v = inst.as_dict()[f]  # the rules bear on this case: their evidence names the author

        def rule(rid: str, w: float, head: str = "POS") -> list:
            return list(parse_rules(f'IF "{f}"="{v}" THEN {head} [p=0.9, w={w}, id={rid}]', ws.kb))

        ws.rules = rule("r1", 50)
        sync(ws, lk, who="Dr Ann")
        ws.rules = ws.rules + rule("r2", 7, "NOT POS")
        sync(ws, lk, who="Dr <b>Bo</b>")
        ws.rules = rule("r1", 80) + ws.rules[1:]  # Dr Cy changes r1's weight
        sync(ws, lk, who="Dr Cy")
        got = {r["id"]: r for r in rules_in_force(ws, lk)}
        assert (got["r1"]["author"], got["r1"]["added_by"]) == ("Dr Cy", "Dr Ann")
        assert (got["r2"]["author"], got["r2"]["added_by"]) == ("Dr <b>Bo</b>", "Dr <b>Bo</b>")
        hist = {h.author: h.created for h in s.history(lk.project_id)}
        assert got["r1"]["changed"] == hist["Dr Cy"] and got["r2"]["changed"] == hist["Dr <b>Bo</b>"]
        page = ws_case_report(ws, inst, rules=rules_in_force(ws, lk))
        assert "Dr Cy" in page and "Dr Ann" in page
        assert "Dr &lt;b&gt;Bo&lt;/b&gt;" in page and "<b>Bo" not in page  # escaped
        bo = f"rule r2: Dr &lt;b&gt;Bo&lt;/b&gt;, {hist['Dr <b>Bo</b>']:%Y-%m-%d %H:%M} UTC"
        assert bo in page  # its evidence row (r2 pulls against; r1 agrees with the answer)
        assert "learned from data" in page
        # a rule not saved yet says so
        ws.rules = ws.rules + rule("r3", 2)
        assert {r["id"]: r["author"] for r in rules_in_force(ws, lk)}["r3"] == NOT_SAVED
    finally:
        s.close()


def _reopen(query: dict, page: str) -> AppTest:
    """A refresh: a new session started from the page URL's query."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params = dict(query)
    at.run()
    at.switch_page(page).run()
    assert not at.exception and not at.error and not at.sidebar.warning, [e.value for e in at.error]
    return at


def test_the_picked_row_comes_back_after_a_refresh():
    at = run(QUERY)
    first = at.session_state["ws"].selected.row  # the row a first visit opens on
    row = next(r for r in at.session_state["ws"].X_test.index[1:] if r != first)
    at.selectbox(key="q_pick").set_value(row).run()
    assert at.query_params["case"] == f"test row {row}"
    again = _reopen(at.query_params, QUERY)
    assert again.selectbox(key="q_pick").value == row
    assert f"Instance: test row {row}" in sidebar(again)
    # a row the data no longer has opens the first visit's row, without a word
    gone = _reopen({**at.query_params, "case": "test row no-such-row"}, QUERY)
    assert gone.selectbox(key="q_pick").value == first
    # a row kept for another project (one that is gone) does not apply to the one opened
    other = _reopen({**at.query_params, "project": "999"}, "plx_app/views/4_Explain.py")
    assert f"Instance: test row {row}" not in sidebar(other)
    assert other.query_params["project"] != "999" and other.query_params["case"] != f"test row {row}"


def test_projects_page_says_where_work_is_saved_in_words():
    # it said "saved as you go, in sqlite:////root/.local/…/plx.db": a clinician reads the
    # file's name and folder and how to back it up; the URL is kept for an administrator
    import os
    from pathlib import Path

    at = run(PROJECTS)
    assert not at.exception
    said = " ".join(str(c.value) for c in at.caption).replace("\\", "")
    folder = Path(os.environ["PLX_HOME"]).resolve()
    assert f"in one file on this computer: plx.db, in the folder {folder}" in said
    assert "To back up your work, close plx and copy the file" in said
    assert "sqlite:" not in said
    (admin,) = [e for e in at.expander if e.label == "For an administrator: the database URL"]
    assert [c.value for c in admin.code] == [f"sqlite:///{folder / 'plx.db'}"]


def test_a_server_database_is_said_as_the_teams_and_memory_as_unsaved():
    from plx_core import wording

    server = Store("sqlite://")
    assert server.file() is None and server.server() == ""
    assert "nothing is saved when plx stops" in wording.saved_where_said(None, "")
    assert "your team's database (postgresql on db.example.org)" in wording.saved_where_said(
        None, "postgresql on db.example.org")
