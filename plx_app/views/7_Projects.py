"""Projects: the saved work (data, settings, rules with their history, notes). Open, create,
rename, duplicate, delete, export to one file and import it again; your name; the data folder."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from plx_app.project_ui import HOME, link, project_export_name, say, store, switch
from plx_app.service.projects import author, create_project, first_project, set_author
from plx_app.state import page_setup
from plx_app.widgets import download, error, md
from plx_core import wording
from plx_core.errors import PLXError
from plx_core.store import MAX_PROJECT_FILE, check_name, plx_home

ws = page_setup()
st.title("Projects")

lk = link()
if lk is None:
    error("The project database could not be opened, so nothing is saved in this session. Set "
          "PLX_HOME to a folder plx may write to (or PLX_DATABASE_URL to a database) and restart.")
    st.stop()
s = lk.store

st.caption(md(wording.saved_where_said(s.file(), s.server()) + " A project holds its data (the "
              "uploaded file itself, or the name of a built-in set), the data and KB settings, "
              "the rules with every earlier version, and notes on cases."))


def _do(fn, *args) -> None:
    """Run a project action from a callback; problems are shown on the next run."""
    try:
        fn(*args)
    except (PLXError, ValueError, OSError) as exc:
        say(f"{exc}")


# ---------------------------------------------------------------- your name

def _name() -> None:
    _do(set_author, st.session_state.get("pj_author", ""))


st.text_input("Your name (saved with every rule change you make)", value=author(s),
              key="pj_author", on_change=_name, max_chars=200)

# ---------------------------------------------------------------- this project

st.subheader("This project")
info = s.info(lk.project_id)
c1, c2, c3 = st.columns([3, 1, 1])
c1.text_input("Name", value=info.name, key=f"pj_name_{info.id}", max_chars=200)


def _rename(pid: int, key: str) -> None:
    def go() -> None:
        new = s.rename(pid, st.session_state.get(key, ""))
        lk.name = new.name
    _do(go)


def _duplicate(pid: int) -> None:
    def go() -> None:
        copy = s.duplicate(pid, author=author(s))
        switch(copy.id)
        say(f"Now working on the copy {copy.name!r}.")
    _do(go)


c2.button("Rename", key="pj_rename", on_click=_rename, args=(info.id, f"pj_name_{info.id}"))
c3.button("Duplicate", key="pj_duplicate", on_click=_duplicate, args=(info.id,))
download("Export this project (one file)", lambda pid=info.id: s.export_project(pid),
         file_name=project_export_name(info.name), mime="application/zip", key="pj_export")
with st.expander("Delete this project"):
    sure = st.checkbox("Yes, delete it with its rules history and notes", key="pj_delete_sure")

    def _delete(pid: int) -> None:
        def go() -> None:
            s.delete(pid)
            rest = s.list_projects()
            switch(rest[0].id if rest else create_project(s, "My project", who=author(s)))
        _do(go)

    st.button("Delete", key="pj_delete", disabled=not sure, on_click=_delete, args=(info.id,))

# ---------------------------------------------------------------- all projects

st.subheader("All projects")
projects = s.list_projects()
st.dataframe(pd.DataFrame([{
    "name": p.name, "data": f"{p.data.name} ({p.data.source})", "rules version": p.rules_version,
    "changed (UTC)": f"{p.updated:%Y-%m-%d %H:%M}", "by": p.updated_by,
    "open": "◀ open" if p.id == lk.project_id else ""} for p in projects]),
    hide_index=True, width="stretch")
ids = [p.id for p in projects]
names = {p.id: p.name for p in projects}
o1, o2 = st.columns([3, 1])
pick = o1.selectbox("Project", ids, index=ids.index(lk.project_id) if lk.project_id in ids else 0,
                    format_func=lambda i: names[i], key="pj_pick")
o2.button("Open", key="pj_open", on_click=lambda: _do(switch, st.session_state["pj_pick"]),
          disabled=pick == lk.project_id)

n1, n2 = st.columns([3, 1])
n1.text_input("New project's name", key="pj_new_name", max_chars=200,
              placeholder="e.g. Diagnosis rules, spring review")


def _new() -> None:
    def go() -> None:
        name = check_name(st.session_state.get("pj_new_name", ""))
        switch(create_project(s, name, who=author(s)))
        say("The new project starts on the default data; choose other data on the Data page.")
    _do(go)


n2.button("Create", key="pj_create", on_click=_new)

# ---------------------------------------------------------------- import

st.subheader("Import a project file")
up = st.file_uploader("A project file exported by plx (.zip)", type=["zip"], key="pj_import_file")
if up is not None and st.button("Import as a new project", key="pj_import"):
    if up.size > MAX_PROJECT_FILE:
        error(f"The file has {up.size:,} bytes; a project file may have at most {MAX_PROJECT_FILE:,}.")
    else:
        try:
            new = s.import_project(up.getvalue(), author=author(s))
            switch(new.id)
            st.success(md(f"Imported as {new.name!r} and opened."))
        except (PLXError, ValueError) as exc:
            error(str(exc))

# ---------------------------------------------------------------- where

st.subheader("Data folder")
st.caption(md("Set the environment variable PLX_HOME to a folder (or PLX_DATABASE_URL to a "
              "database URL, e.g. a team's PostgreSQL) before starting plx to change where "
              "projects are kept for good; the folder below applies to this session."))
with st.expander("For an administrator: the database URL"):
    st.code(s.where(), language=None)
folder = st.text_input("Folder for this session", value=str(st.session_state.get(HOME) or plx_home()),
                       key="pj_home")


def _use_folder() -> None:
    def go() -> None:
        st.session_state[HOME] = st.session_state.get("pj_home", "").strip() or None
        switch(first_project(store()))  # the new folder's last project
    _do(go)


st.button("Use this folder", key="pj_use_home", on_click=_use_folder)
