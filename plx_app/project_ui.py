"""The session's saved project on screen: opening it, saving after every run, the sidebar
section (project, conflicts, your name, a note on the selected case), the Rules page history.

The logic is in `plx_app.service.projects`; this module only keeps the session's `Link` in
`st.session_state` and draws widgets. The `Store` (a database engine, no user data) is one per
database URL in the process (`Store.shared`).
"""

from __future__ import annotations

import logging
import re
import secrets

import pandas as pd
import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from plx_app.service import Workspace, new_workspace, rules_frame
from plx_app.service.projects import (
    DRAFT_FIELDS,
    Link,
    author,
    case_key,
    case_row,
    first_project,
    keep_both,
    load_draft,
    newer,
    open_project,
    restore,
    row_case,
    save_draft,
    set_author,
    sync,
)
from plx_app.widgets import md, wrapped_table
from plx_core.errors import PLXError
from plx_core.store import Store, database_url

log = logging.getLogger("plx.ui")

WS_KEY = "ws"  # the workspace's key in st.session_state (plx_app.state)
LINK = "plx_link"
HOME = "plx_home"  # a data folder chosen on the Projects page (this session)
WHY = "plx_why"
WHY_CLEAR = "plx_why_clear"
MSGS = "plx_project_msgs"
CASE = "case"  # the page URL's selected row (`row_case`), next to "project"
TAB = "tab"  # the page URL's tab token: whose unsaved typing a refresh restores
TAB_KEY = "plx_tab"
DRAFT = "plx_draft"  # this tab's unsaved typing on the Rules page (`DRAFT_FIELDS`)
DRAFT_SAVED = "plx_draft_saved"
STORE_ERRORS = (SQLAlchemyError, OSError, PLXError)


def store() -> Store:
    """The projects database of this session (`$PLX_DATABASE_URL`, else the data folder)."""
    home = st.session_state.get(HOME)
    return Store.shared(database_url(home) if home else database_url())


def link() -> Link | None:
    return st.session_state.get(LINK)


def say(message: str) -> None:
    st.session_state.setdefault(MSGS, []).append(message)


def tab_token() -> str:
    """This browser tab's token, kept in the page URL (a refresh keeps it; a new tab gets its
    own): the key of the tab's unsaved typing in the store, so two tabs never share it."""
    t = st.session_state.get(TAB_KEY)
    if t is None:
        u = st.query_params.get(TAB)
        t = u if isinstance(u, str) and re.fullmatch(r"[0-9a-f]{12}", u) else secrets.token_hex(6)
        st.session_state[TAB_KEY] = t
    return t


def _install(ws: Workspace, lk: Link | None, notes: list[str]) -> Workspace:
    st.session_state[WS_KEY] = ws
    st.session_state[LINK] = lk
    st.session_state[MSGS] = list(notes)
    draft: dict = {}
    if lk is not None:
        try:
            draft = load_draft(lk.store, lk.project_id, tab_token())
        except STORE_ERRORS:
            log.exception("reading the draft failed")
    for k in DRAFT_FIELDS:  # the Rules page's widgets start again from this project's draft
        st.session_state.pop(k, None)
    st.session_state[DRAFT] = draft
    st.session_state[DRAFT_SAVED] = dict(draft)
    keep_in_url(lk, ws)
    return ws


def draft_widgets(conditions: list[str]) -> None:
    """Call on the Rules page before its form: widgets not on screen yet (a refresh, a page
    switch) start from the tab's draft; a condition the model no longer has is dropped."""
    d = st.session_state.get(DRAFT) or {}
    start = {"r_conds": [], "r_text": "", "r_head": "POS", "r_p": 0.95, "r_w": None,
             "r_rules_text": "", WHY: ""}
    for k in DRAFT_FIELDS:
        if k not in st.session_state:
            v = d.get(k, start[k])
            st.session_state[k] = [c for c in v if c in conditions] if k == "r_conds" else v


def keep_draft() -> None:
    """Call on the Rules page after its widgets: what they hold is the tab's draft, saved by
    `after_run` when it changed."""
    st.session_state[DRAFT] = {k: st.session_state[k] for k in DRAFT_FIELDS
                               if k in st.session_state}


def keep_in_url(lk: Link | None, ws: Workspace | None) -> None:
    """Name the session's project and its selected data row in the page URL, so that a refresh
    reopens this project on this row, not the project another session opened last. Every run:
    switching pages drops the URL's query."""
    if lk is None:
        return
    for key, value in (("project", str(lk.project_id)),
                       (CASE, row_case(ws.selected if ws is not None else None)),
                       (TAB, tab_token())):
        if st.query_params.get(key) != value:
            if value is None:
                del st.query_params[key]
            else:
                st.query_params[key] = value


def open_session() -> Workspace:
    """Open this session's project: the one in the page URL, else the last one opened, on the
    URL's row when it names a row of that project's data (else the pages pick their first).
    When the database cannot be opened the session works unsaved, and says so."""
    try:
        s = store()
        wanted = st.query_params.get("project")
        with st.spinner("Opening your project…"):
            ws, lk, notes = open_project(s, first_project(s, wanted))
        if wanted == str(lk.project_id):  # a row of another project never applies
            ws.selected = case_row(ws, st.query_params.get(CASE))
        return _install(ws, lk, notes)
    except STORE_ERRORS as exc:
        log.exception("opening the project failed")
        ws = new_workspace()
        return _install(ws, None, [f"Your work is not being saved: the project could not be "
                                   f"opened ({exc})."])


def switch(pid: int) -> None:
    """Open another project in this session (a callback)."""
    try:
        ws, lk, notes = open_project(store(), pid)
        _install(ws, lk, notes)
    except STORE_ERRORS as exc:
        say(f"The project could not be opened: {exc}")


def after_run() -> None:
    """Save what the page changed, then draw the sidebar's project section."""
    lk, ws = link(), st.session_state.get(WS_KEY)
    if ws is None:
        return
    keep_in_url(lk, ws)
    with st.sidebar:
        if lk is None:
            for m in st.session_state.get(MSGS, []):
                st.warning(md(m))
            return
        who = author(lk.store)
        why = str(st.session_state.get(WHY, "") or "")
        try:
            done = sync(ws, lk, who, why)
            if done and why:
                st.session_state[WHY_CLEAR] = True
        except STORE_ERRORS as exc:
            log.exception("saving the project failed")
            st.error(md(f"Not saved: {exc}. Your changes stay in this session; they are saved "
                        "with the next change once the database answers."))
            done = []
        draft = st.session_state.get(DRAFT)
        if draft is not None and draft != st.session_state.get(DRAFT_SAVED):
            try:  # what the tab typed and has not added: kept for a refresh
                save_draft(lk.store, lk.project_id, tab_token(), draft)
                st.session_state[DRAFT_SAVED] = dict(draft)
            except STORE_ERRORS:
                log.exception("saving the draft failed")
        st.caption(md(f"Project: {lk.name} · rules version {lk.rules_version}")
                   + (" · saved" if done else ""))
        if lk.conflict is not None:
            st.warning(md(f"Not saved: {lk.conflict}."))
            c1, c2 = st.columns(2)
            c1.button("Reload", key="plx_reload", on_click=_reload,
                      help="Drop your unsaved changes and load the saved project")
            c2.button("Keep both", key="plx_keep_both", on_click=_keep_both,
                      help="Rules: merge yours with theirs. Settings: save yours as a copy")
        else:
            try:
                line = newer(lk)
            except STORE_ERRORS:
                line = ""
            if line:
                st.info(md(line))
                st.button("Reload", key="plx_reload_newer", on_click=_reload)
        if not who:
            st.text_input("Your name (saved with your rule changes)", key="plx_author_in",
                          on_change=_set_author)
        if ws.selected is not None:
            _case_note(ws, lk)
        for m in st.session_state.pop(MSGS, []):
            st.caption(md(m))


def _reload() -> None:
    lk = link()
    if lk is not None:
        switch(lk.project_id)


def _keep_both() -> None:
    lk, ws = link(), st.session_state.get(WS_KEY)
    if lk is None or ws is None:
        return
    try:
        ws2, lk2, msg = keep_both(ws, lk, author(lk.store))
        _install(ws2, lk2, [msg])
    except STORE_ERRORS as exc:
        say(f"Keeping both failed: {exc}")


def _set_author() -> None:
    lk = link()
    name = st.session_state.get("plx_author_in", "")
    if lk is not None and name.strip():
        try:
            set_author(lk.store, name)
        except STORE_ERRORS as exc:
            say(str(exc))


def _case_note(ws: Workspace, lk: Link) -> None:
    case = case_key(ws.selected)
    try:
        note = lk.store.notes(lk.project_id).get(case)
    except STORE_ERRORS:
        return
    key = f"plx_note_{lk.project_id}_{case}"
    if key not in st.session_state:
        st.session_state[key] = note.text if note else ""
    st.text_area("Note on this case", key=key, height=80, on_change=_save_note,
                 args=(case, key, note.version if note else 0))
    if note:
        st.caption(md(f"by {note.author or 'someone'} · {note.updated:%Y-%m-%d %H:%M} UTC"))


def _save_note(case: str, key: str, base: int) -> None:
    lk = link()
    if lk is None:
        return
    try:
        lk.store.set_note(lk.project_id, case, st.session_state.get(key, ""), base,
                          author=author(lk.store))
    except STORE_ERRORS as exc:
        say(f"The note was not saved: {exc}")


# --------------------------------------------------------------------------- Rules page


def why_input() -> None:
    """An optional reason, saved with the next rule change (then cleared)."""
    if st.session_state.pop(WHY_CLEAR, False):
        st.session_state[WHY] = ""
    if link() is not None:
        st.text_input("Why (optional; saved with your next rule change in the history)", key=WHY,
                      max_chars=2000)


def rules_history(ws: Workspace) -> None:
    """Every saved version of the rules: who, when, why, what changed; restore any."""
    lk = link()
    if lk is None:
        return
    with st.expander("History of the rules"):
        try:
            hist = lk.store.history(lk.project_id)
        except STORE_ERRORS as exc:
            st.error(md(f"The history could not be read: {exc}"))
            return
        if not hist:
            st.caption("No saved version yet: the first rule you add is version 1.")
            return
        st.dataframe(pd.DataFrame([{"version": h.n, "saved (UTC)": f"{h.created:%Y-%m-%d %H:%M:%S}",
                                    "by": h.author, "why": h.note, "what changed": h.summary,
                                    "rules": h.n_rules} for h in hist]),
                     hide_index=True, width="stretch")
        n = st.selectbox("Version", [h.n for h in hist], key="plx_hist_n",
                         format_func=lambda v: f"version {v}")
        wrapped_table(rules_frame(lk.store.rules_at(lk.project_id, n)), max_rows=6,
                      column_config={"rule": st.column_config.TextColumn(width="large")})
        st.button(f"Restore version {n}", key="plx_restore", on_click=_restore, args=(n,),
                  disabled=n == lk.rules_version)


def _restore(n: int) -> None:
    lk, ws = link(), st.session_state.get(WS_KEY)
    if lk is None or ws is None:
        return
    try:
        v = restore(ws, lk, n, author(lk.store))
        if v is not None:
            say(f"Restored version {n} as version {v.n}.")
    except STORE_ERRORS as exc:
        say(f"Restoring failed: {exc}")


def project_export_name(name: str) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name).strip("_") or "project"
    return f"{safe}.plx.zip"


__all__: list[str] = ["after_run", "draft_widgets", "keep_draft", "link", "open_session", "project_export_name", "rules_history",
                      "say", "store", "switch", "why_input"]
