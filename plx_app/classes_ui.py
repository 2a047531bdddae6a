"""The "Among all N classes" section the Query, Explain and Evaluate pages show on a label
with several classes: one heading, one button that fits plx's model of every class."""

from __future__ import annotations

import streamlit as st

from plx_app.service.classes import FIT_HELP, FIT_WHAT, classes_fitted, fit_classes
from plx_app.widgets import fit_button, md


def among_all_classes(ws, n_classes: int, intro: str, action: str, key: str) -> bool:
    """The section's heading, `intro` (what it adds to the page's answer for one class against
    the rest) and, until the session has it, the button "`action` among all N classes" that
    fits plx's model of every class; True once that model is fitted."""
    st.subheader(f"Among all {n_classes} classes")
    st.caption(md(intro))
    if not classes_fitted(ws):
        fit_button(f"{action} among all {n_classes} classes", key, FIT_HELP, FIT_WHAT,
                   lambda progress: fit_classes(ws, progress=progress))
    return classes_fitted(ws)
