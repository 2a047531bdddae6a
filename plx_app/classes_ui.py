"""The "Among all N classes" section the Query, Explain and Evaluate pages show on a label
with several classes: one heading, one button that fits plx's model of every class, and the
class answer (picked, runner-up, true class, in words) as the Query and Explain pages show it."""

from __future__ import annotations

import streamlit as st

from plx_app.service.classes import (
    FIT_HELP,
    FIT_WHAT,
    answer_sentences,
    classes_fitted,
    fit_classes,
    fit_notes,
    true_class,
)
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


def class_answer(ws, inst, ca, picked_title: str, runner_up_title: str) -> None:
    """The class picked, the runner-up (metrics titled `picked_title`, `runner_up_title`: each
    page words them its own way) and the instance's true class side by side, then the answer
    in sentences."""
    c = st.columns(3)
    c[0].metric(picked_title, ca.picked)
    c[1].metric(runner_up_title, ca.runner_up)
    truth = true_class(ws, inst)
    c[2].metric("True level" if ca.order else "True class", "unknown" if truth is None else truth)
    for line in answer_sentences(ca):
        st.markdown(md(line))


def class_answer_notes(ws, ca) -> None:
    """The notes of the fit of every class and of this answer, one caption each."""
    for note in (*fit_notes(ws), *ca.notes):
        st.caption(md(note))
