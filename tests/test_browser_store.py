"""Saved work in a real browser: rules added in Chromium are there after the server restarts,
and a server killed (SIGKILL) in the middle of a save leaves the last committed state.

Servers listen on 127.0.0.1:8900-8999 and keep their projects in a folder of the test's own.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest
from browser_util import App, launch, streamlit_server
from test_browser import chromium, new_app  # noqa: F401 - the shared browser fixture
from test_store import wait_for_writer

from plx_core.store import Store

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def browser(chromium):  # noqa: F811
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = launch(pw, chromium)
        yield b
        b.close()


def _a_condition() -> str:
    """`IF "feature"="value"` for the default data's first feature and its first value."""
    from plx_app.service import new_workspace

    ws = new_workspace()  # the values plx's default answers on
    f = ws.features[0]
    v = ws.domains()[f][0]
    return f'IF "{f}"="{v}"'


def _add_rules(app: App, text: str) -> None:
    app.page.get_by_text("…or type whole rules", exact=False).first.click()
    app.page.get_by_label("Rules", exact=True).first.wait_for(state="visible")
    app.type_and_leave("stTextArea", "Rules", text)


def _rules(app: App) -> tuple[str, str]:
    """The sidebar's rule count line and the first rule in the "Edit rule" box (the rules
    table is drawn on a canvas, so its text is not in the page)."""
    count = next(line for line in app.sidebar_text().splitlines() if line.startswith("Rules:"))
    return count, app.value("Edit rule")


def _head(home: Path) -> tuple[int, int]:
    """(rules version, number of rules) of the one project, read straight from the file."""
    s = Store(home=home)
    try:
        p = s.list_projects()[0]
        return p.rules_version, len(s.get(p.id).rules)
    finally:
        s.close()


def test_rules_survive_a_restart_and_a_kill_during_a_save(browser, tmp_path):
    home = tmp_path / "plx"
    env = {"PLX_HOME": str(home)}
    cond = _a_condition()
    # 1. add a rule, named by its author, with a reason
    with streamlit_server(env=env) as url:
        ctx, app = new_app(browser, url, "store1")
        app.open("", expect="Data")
        app.nav("Rules", expect="Add a rule")
        app.fill("stTextInput", "Your name", "Dr Ann")
        app.fill("stTextInput", "Why (optional", "seen at the clinic")
        _add_rules(app, f"{cond} THEN POS [p=0.9, w=77, id=r1]")
        app.click_button("Add these rules", expect="rules version 1")
        assert _rules(app)[0] == "Rules: 1 (1 enabled)" and _rules(app)[1].startswith("r1: IF")
        ctx.close()
    assert _head(home) == (1, 1)
    # 2. a new server: the rule is there; a save held open is killed
    procs: list[subprocess.Popen] = []
    with streamlit_server(env=dict(env, PLX_FAULT_SLOW_SAVE="120"), procs=procs) as url:
        ctx, app = new_app(browser, url, "store2")
        app.open("", expect="Data")
        app.nav("Rules", expect="Add a rule")
        app.sidebar_shows("rules version 1")
        assert _rules(app)[0] == "Rules: 1 (1 enabled)" and _rules(app)[1].startswith("r1: IF")
        _add_rules(app, f"{cond} THEN NOT POS [p=0.8, w=5, id=r2]")
        # the click's run is not awaited: it stops inside the save's transaction
        app.start(app.page.get_by_role("button", name="Add these rules").first.click)
        wait_for_writer(home / "plx.db")
        os.killpg(procs[0].pid, signal.SIGKILL)
        procs[0].wait(timeout=30)
        ctx.close()
    with sqlite3.connect(home / "plx.db") as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert _head(home) == (1, 1)  # the last committed state: r1 only
    # 3. and the dashboard opens it and keeps working
    with streamlit_server(env=env) as url:
        ctx, app = new_app(browser, url, "store3")
        app.open("", expect="Data")
        app.nav("Rules", expect="Add a rule")
        assert _rules(app)[0] == "Rules: 1 (1 enabled)" and _rules(app)[1].startswith("r1: IF")
        _add_rules(app, f"{cond} THEN NOT POS [p=0.8, w=5, id=r2]")
        app.click_button("Add these rules", expect="rules version 2")
        app.nav("Projects", expect="This project")
        exported = app.download("Export this project").read_bytes()  # the whole project, one file
        app.shot("store-projects")
        ctx.close()
    assert _head(home) == (2, 2)
    s = Store(home=home)
    hist = s.history(s.list_projects()[0].id)
    assert [(h.n, h.author) for h in hist] == [(2, "Dr Ann"), (1, "Dr Ann")]
    assert hist[1].note == "seen at the clinic" and hist[0].note == ""
    copy = s.import_project(exported)  # the downloaded file is a whole project
    assert [r.id for r in s.get(copy.id).rules] == ["r1", "r2"]
    s.close()
