"""Per-session state: the Workspace lives in `st.session_state` (one per browser session).

`st.cache_data` is used only for pure functions of their arguments (an uploaded file's bytes,
a built-in data set's name): the result is the same for every user, and each call returns a
copy. Nothing a user builds (KB, rules, selection) goes into a cache shared across sessions.
"""

from __future__ import annotations

import streamlit as st

from plx_app.service import (
    RawTable,
    Workspace,
    raw_builtin,
    raw_shared,
    read_upload,
)

WS_KEY = "ws"


def workspace() -> Workspace:
    """This session's workspace: on first use, its saved project (the one in the page URL, else
    the last one opened; a first start makes one on the default data with plx's default)."""
    ws = st.session_state.get(WS_KEY)
    if ws is None:
        from plx_app.project_ui import open_session

        ws = open_session()
    return ws


@st.cache_data(max_entries=8, show_spinner="Reading the file…")
def load_upload(data: bytes, name: str, header: bool, missing: tuple[str, ...],
                split_column: str | None, decimal: str | None = None,
                encoding: str = "utf-8") -> RawTable:
    return read_upload(data, name, header=header, missing=missing, split_column=split_column,
                       decimal=decimal, encoding=encoding)


@st.cache_data(max_entries=16, show_spinner="Loading the data set…")
def load_builtin(name: str) -> RawTable:
    return raw_builtin(name)


@st.cache_data(max_entries=16, show_spinner="Loading the data set…")
def load_shared(name: str) -> RawTable:
    return raw_shared(name)


def page_setup() -> Workspace:
    """Call first on every page: returns the session's workspace."""
    return workspace()
