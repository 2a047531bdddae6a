"""plx dashboard: from an uploaded table to explained, compared decisions.

`main()` sets the page up, makes sure the session has its workspace (the default diagnosis data
with plx's default model), and builds the navigation; the page scripts in `views/` hold the widgets and
call the service. Started by `plx dashboard` (this file is the script) or, in a checkout, by
`streamlit run app.py` (which calls `main`).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from plx_app.project_ui import after_run
from plx_app.state import workspace
from plx_app.widgets import md
from plx_core import wording

VIEWS = Path(__file__).resolve().parent / "views"


MENU = [  # file in views/, title, icon; the first page opens by default
    ("1_Data.py", "Data", ":material/table:"),
    ("2_Knowledge_base.py", "Knowledge base", ":material/menu_book:"),
    ("3_Query.py", "Query", ":material/help:"),
    ("4_Explain.py", "Explain", ":material/lightbulb:"),
    ("5_Rules.py", "Rules", ":material/edit_note:"),
    ("6_Evaluate.py", "Evaluate", ":material/bar_chart:"),
    ("7_Global_view.py", "Global view", ":material/public:"),
    ("7_Projects.py", "Projects", ":material/folder_open:"),
]


def page(file: str):
    """The `st.Page` of one view (for `st.page_link` / `st.switch_page`): an absolute path, so
    links work whichever script started the app (`app.py` here or the checkout's)."""
    for i, (name, title, icon) in enumerate(MENU):
        if name == file:
            return st.Page(VIEWS / name, title=title, icon=icon, default=i == 0)
    raise KeyError(f"no dashboard page {file!r}")


def pages() -> list:
    """The dashboard's pages, in menu order."""
    return [page(name) for name, _, _ in MENU]


def main() -> None:
    # an emoji page icon is drawn in the browser; a ":material/…:" one is fetched from a font host
    st.set_page_config(page_title="plx — explainable classification", page_icon="⚖️",
                       layout="wide")
    nav = st.navigation(pages())
    ws = workspace()
    summary = st.sidebar.container()  # filled after the page ran, so it shows the page's changes

    def show_summary() -> None:
        with summary:
            st.markdown("**plx** — probabilistic logic explanations")
            n, f = ws.dataset.X.shape
            st.caption(f"Data: {md(ws.dataset.name)} · {wording.counted(n, 'row')} · {wording.counted(f, 'feature')} · class: {md(ws.class_name)}")
            if ws.kb is not None:
                chosen = (f" ({ws.model.name}, threshold {ws.threshold_said()})" if ws.model
                          else f" (threshold {ws.threshold_said()})"
                          if ws.kb_settings.threshold is not None
                          else "")
                st.caption(f"KB: {md(ws.kb_name + chosen)} · {len(ws.kb):,} clauses")
            else:
                st.caption("KB: not built yet")
            n_rules, n_on = ws.rules_count()
            st.caption(f"Rules: {n_rules} ({n_on} enabled)")
            if ws.selected is not None:
                st.caption(f"Instance: {md(ws.selected.title())}")

    try:
        nav.run()
    finally:  # also after st.stop() in a page
        show_summary()
        after_run()  # save what the page changed; the project's sidebar section


if __name__ == "__main__":  # `streamlit run` executes the script as __main__
    main()
