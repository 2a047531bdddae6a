"""Per-session state: the Workspace lives in `st.session_state` (one per browser session).

`st.cache_data` is used only for pure functions of their arguments (an uploaded file's bytes,
a built-in data set's name): the result is the same for every user, and each call returns a
copy. Nothing a user builds (KB, rules, selection) goes into a cache shared across sessions.
"""

from __future__ import annotations

import streamlit as st

from plx_core.session import (
    RawTable,
    Workspace,
    new_workspace,
    raw_builtin,
    raw_shared,
    read_upload,
)

WS_KEY = "ws"


def workspace() -> Workspace:
    """This session's workspace, created on first use (default data, Direct KB built)."""
    ws = st.session_state.get(WS_KEY)
    if ws is None:
        with st.spinner("Loading the default diagnosis data and building its Direct KB…"):
            ws = new_workspace()
        st.session_state[WS_KEY] = ws
    return ws


@st.cache_data(max_entries=8, show_spinner="Reading the file…")
def load_upload(data: bytes, name: str, header: bool, missing: tuple[str, ...],
                split_column: str | None) -> RawTable:
    return read_upload(data, name, header=header, missing=missing, split_column=split_column)


@st.cache_data(max_entries=16, show_spinner="Loading the data set…")
def load_builtin(name: str) -> RawTable:
    return raw_builtin(name)


@st.cache_data(max_entries=16, show_spinner="Loading the data set…")
def load_shared(name: str) -> RawTable:
    return raw_shared(name)


APP_SEEN = "_plx_app_ran"


def mark_app_ran() -> None:
    """Called by app.py on every run (see `page_setup`)."""
    st.session_state[APP_SEEN] = True


def page_setup() -> Workspace:
    """Call first on every page: returns the workspace.

    Streamlit quirk: while no session has yet called `st.navigation` (a fresh server), a first
    visit straight to a page URL runs that page file on its own, in the old pages-directory
    mode, without `app.py` (no wide layout, no sidebar summary). `st.navigation` itself clears
    the flag that selects that mode; clearing it here and rerunning once lets `app.py` run and
    keeps the deep link (the page hash is the same in both modes). Only a session in which
    app.py never ran is rerun: AppTest resets the flag before every run, and a rerun there
    would swallow the clicks a test sends."""
    try:
        from streamlit.runtime.pages_manager import PagesManager

        if PagesManager.uses_pages_directory and not st.session_state.get(APP_SEEN):
            PagesManager.uses_pages_directory = False
            st.session_state[APP_SEEN] = True
            st.rerun()
    except ImportError:  # a Streamlit without this internal: nothing to work around
        pass
    return workspace()
