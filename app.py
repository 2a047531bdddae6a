"""plx dashboard: from an uploaded table to explained, compared decisions.

Run with `streamlit run app.py`. This file only sets the page up, makes sure the session has
its workspace (the default diagnosis data with its Direct KB), and builds the navigation; the
pages in `pages/` hold the widgets and call `plx_core`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

ROOT = Path(__file__).resolve().parent
if str(ROOT) not in sys.path:  # the `ui` package sits next to this file
    sys.path.insert(0, str(ROOT))

from ui.state import mark_app_ran, workspace  # noqa: E402
from ui.widgets import md  # noqa: E402

st.set_page_config(page_title="plx — explainable classification", page_icon=":material/functions:", layout="wide")

PAGES = [
    st.Page("pages/1_Data.py", title="Data", icon=":material/table:", default=True),
    st.Page("pages/2_Knowledge_base.py", title="Knowledge base", icon=":material/menu_book:"),
    st.Page("pages/3_Query.py", title="Query", icon=":material/help:"),
    st.Page("pages/4_Explain.py", title="Explain", icon=":material/lightbulb:"),
    st.Page("pages/5_Rules.py", title="Rules", icon=":material/edit_note:"),
    st.Page("pages/6_Evaluate.py", title="Evaluate", icon=":material/bar_chart:"),
]

nav = st.navigation(PAGES)
mark_app_ran()
ws = workspace()

summary = st.sidebar.container()  # filled after the page ran, so it shows the page's changes


def show_summary() -> None:
    with summary:
        st.markdown("**plx** — probabilistic logic explanations")
        n, f = ws.dataset.X.shape
        st.caption(f"Data: {md(ws.dataset.name)} · {n} rows · {f} features · POS = {md(ws.positive)}")
        if ws.kb is not None:
            st.caption(f"KB: {md(ws.kb_note or ws.kb_settings.label())} · {len(ws.kb):,} clauses")
        else:
            st.caption("KB: not built yet")
        n_on = sum(r.enabled for r in ws.rules)
        st.caption(f"Rules: {len(ws.rules)} ({n_on} enabled)")
        if ws.selected is not None:
            st.caption(f"Instance: {md(ws.selected.title())}")


try:
    nav.run()
finally:  # also after st.stop() in a page
    show_summary()
