"""Explain: the k features that decide the selected instance, Shapley values of ω(POS), and
explanations side by side (two instances, across k, across KB kinds, SHAP on a baseline)."""

from __future__ import annotations

import streamlit as st

from plx_app.app import page
from plx_app.classes_ui import among_all_classes, class_answer, class_answer_notes
from plx_app.service import instance_from_row, plain_label
from plx_app.service.classes import (
    class_order,
    label_classes,
    several,
    ws_class_answer,
)
from plx_app.service.explain import (
    SHAP_MODELS,
    candidates_table,
    ws_citable,
    ws_counterfactual,
    ws_explain,
    ws_figure,
    ws_shap_comparison,
    ws_shapley,
)
from plx_app.state import page_setup
from plx_app.widgets import Progress, figure, guard, keep_last, md, require_kb
from plx_core import wording
from plx_core.explain import nothing_to_explain_said, start_value
from plx_core.plots import (
    HALF_LABEL_WIDTH,
    LABEL_WIDTH,
    esc,
    explanation_bars,
    shapley_bars,
    wrap,
)
from plx_core.tokens import condition_text


def shap_title(ws) -> str:
    """The Shapley chart's title in the class's words (escaped: the class comes from the file;
    wrapped: at 1024 px the chart is a third of the page)."""
    return wrap(esc(f"What each value adds to the {wording.support_for(ws.class_name)}"), 30)


def shap_axis(ws, view=None) -> str:
    """The Shapley chart's axis: the change from the one baseline (`start_value`)."""
    return wording.shapley_axis(*start_value((view or ws.view()).kb))


SHAPLEY_TOP = 12  # Shapley charts show this many features; the rest are summed in one bar


def two_a_row(n: int) -> list:
    """`n` columns, two a row: four side by side left a chart a sixth of a 1024-px page, its
    sub-query labels and title cut ("Top sub-queries o")."""
    cols: list = []
    for _ in range(0, n, 2):
        cols += st.columns(2)
    return cols[:n]

ws = page_setup()
st.title("Explain")

require_kb(ws)
if ws.selected is None:
    ws.set_selected(instance_from_row(ws.X_test, ws.y_test, ws.X_test.index[0], "test"))

inst = ws.selected
known = inst.known()
st.caption(md(f"Instance: {inst.title()} — "
              + wording.values_listed([condition_text(f, v) for f, v in known.items()])
              + (f" — true label {truth}" if (truth := ws.recorded_label(inst)) is not None
                 else "")))
st.page_link(page("3_Query.py"), label="Pick another instance on the Query page", icon=":material/help:")
if others := list((ws.dataset.schema.label_map or {}) if ws.dataset.schema else ()):
    st.caption(md(wording.explained_class_sentence(ws.class_name, others)))  # several classes
if not known:
    st.info("Every feature of this instance is unknown: there is nothing to explain it by. "
            "Fill in some values on the Query page.")
    st.stop()

n = len(known)
k = st.slider("k: number of features in the explanation", 1, n, min(2, n), key="x_k") if n > 1 else 1


def explain_answers(values, k, view=None):
    """The bounds and the k-feature explanation of `values` (cached per session)."""
    return ws.query(values, view=view), ws_explain(ws, values, k, view=view)


def cached_figure(name, values, *parts, make, fresh=True, view=None):
    """A figure from the session cache; a stale result's figure is drawn but never cached
    (its key would name the current KB and rules, which it was not computed with)."""
    return ws_figure(ws, name, values, *parts, make=make, view=view) if fresh else make()


def explanation_block(values, k, view=None, key="", title=None, show_shapley=True,
                      top=10, order=None, answers=None, fresh=True, width=HALF_LABEL_WIDTH):
    """Bounds (as text: the Query page charts them), the top sub-queries with the chosen one
    highlighted (labels wrapped at `width` characters: half a page by default), and Shapley
    bars. `answers`: (bounds, explanation) computed already."""
    b, e = answers if answers is not None else explain_answers(values, k, view)
    if title:
        st.markdown(f"**{md(title)}**")
    # in the Query page's words: the model's threshold, and whose rules (learned or expert)
    st.markdown(md(wording.answer_sentence(b, ws.class_name, kb=(view or ws.view()).kb,
                                           threshold=ws.threshold)))
    ties = wording.ties_sentence([c.mean for c in e.candidates[:top]], what="bar")
    st.markdown(f"**Explanation (k={e.k}, {e.search}):** "
                + md(wording.explanation_sentence(e, ws.class_name) + (" " + ties if ties else "")))
    if e.note:  # k lowered to the features the model can use, in plx_core's words
        st.caption(md(e.note + "."))
    if ws.dataset.schema is not None and (cut := wording.bins_said(ws.dataset.schema.bins,
                                                                   e.features)):
        st.caption(md("The numbers it names, as the model that answers cuts them: "
                      + "; ".join(cut) + "."))
    figure(cached_figure("bars", values, e.k, top, width, view=view, fresh=fresh,
                         make=lambda: explanation_bars(e, top=top, label_width=width,
                                                       title=f"Top sub-queries of size {e.k}")),
           key=f"{key}_bars", static=True)
    if show_shapley:
        phi = ws_shapley(ws, values, view=view)
        figure(ws_figure(ws, "shapley", values, tuple(order or ()), view=view,
                         make=lambda: shapley_bars(phi, title=shap_title(ws), xlabel=shap_axis(ws, view),
                                                   instance=values, order=order, top=SHAPLEY_TOP)),
               key=f"{key}_shap")  # not static: a shortened label reads whole on hover
    return b, e


values = inst.as_dict()
main = None
n_cited, uncited = n, ""
with guard("Reading the instance"):
    n_cited, uncited = ws_citable(ws, values)
if n_cited == 0:  # no rule bears on its known values: the answer, and why nothing explains it
    with guard("Answering the query"):
        st.markdown(md(wording.answer_sentence(ws.query(values), ws.class_name,
                                               kb=ws.view().kb, threshold=ws.threshold)))
    st.info(md(f"Nothing to explain: {nothing_to_explain_said(uncited)}."))
else:
    with guard("Explaining the instance"):
        main = keep_last("explain", f"{inst.title()} with k={k}", ws.data_key,
                         lambda: (values, explain_answers(values, k), ws_shapley(ws, values)),
                         "Explaining the instance")
with guard("Showing the explanation"):
    if main is not None:
        shown, (b, e), phi = main.value
        left, right = st.columns([3, 2])
        with left:
            explanation_block(shown, e.k, key="x_main", show_shapley=False, answers=(b, e),
                              fresh=main.fresh, width=LABEL_WIDTH)
            if main.fresh:  # why, then what would change it: the Query page's counterfactual
                with guard("Searching a counterfactual"):
                    cf = ws_counterfactual(ws, shown)
                    st.markdown(md(wording.what_would_change_said(cf, ws.class_name)))
            if st.toggle("List every scored sub-query", key="x_all"):  # drawn only on demand
                st.dataframe(candidates_table(e), hide_index=True, width="stretch", height=240)
        with right:
            top_n = SHAPLEY_TOP
            if len(phi) > SHAPLEY_TOP:
                top_n = st.slider("Features shown (the rest are summed into one bar)", 3,
                                  len(phi), SHAPLEY_TOP, key="x_shap_top")
            figure(cached_figure("shapley-main", shown, top_n, fresh=main.fresh, make=lambda: shapley_bars(
                phi, title=shap_title(ws), xlabel=shap_axis(ws), instance=shown, top=top_n)),
                   key="x_shap")
            st.markdown(md(wording.shapley_sentence(phi.to_dict(), ws.class_name, instance=shown)))
            start, by_prior = start_value(ws.view().kb)  # the one baseline, as the bars say it
            st.caption(md(wording.shapley_said(float(phi.sum()), phi.attrs.get("full", b.mean),
                                               start, by_prior, ws.class_name)))

if several(ws):  # the explanation above is POS against the rest; here, the class plx answers
    n_classes = len(label_classes(ws))
    st.divider()
    order = class_order(ws)
    intro = wording.levels_section_said(ws.class_name, order, "explain", "explanation") if (
        order) else (f"The explanation above is {ws.class_name} against the other "
             f"{n_classes - 1}. Here plx's model of every class (one KB per class against "
             f"the rest; {wording.class_decision_said()}, as on the Query page) says which "
             "class it answers for this instance and why: the k "
             "features of the picked class's KB against the other classes, and why not "
             "the runner-up.")
    if among_all_classes(ws, n_classes, intro, "Explain", "x_classes"):
        with guard("Explaining among all classes"):
            ca = ws_class_answer(ws, inst, k)
            class_answer(ws, inst, ca, *(("Level plx answers", "Runner-up level") if ca.order
                                         else ("Class plx answers", "Runner-up class")))
            if ca.why is not None:
                figure(explanation_bars(ca.why, top=8, title=(  # a class is user text
                    f"{esc(ca.steps[0])} against {esc(wording.class_names(ca.steps[0])[1])}: "
                    f"top sub-queries of size {ca.why.k}" if ca.order else
                    f"{esc(ca.picked)} against the other {n_classes - 1} classes: top sub-queries "
                    f"of size {ca.why.k}")), key="x_classes_bars", static=True)
            class_answer_notes(ws, ca)

st.divider()
st.subheader("Side by side")
MODES = ["Two instances", "One instance across k", "Across KB kinds", "SHAP on a baseline model"]
mode = st.radio("Compare", MODES, horizontal=True, key="x_mode", index=None)
if mode is None:
    st.caption("Choose what to compare: each view draws its explanations next to each other.")

if mode == "Two instances":
    with guard("Comparing two instances"):
        X, y = ws.X_test, ws.y_test
        opts = [plain_label(i) for i in X.index]
        mine = inst.row if inst.origin == "test" else None
        default = next((i for i in opts if i != mine), opts[0])
        other = st.selectbox("Second instance (test row)", opts, index=opts.index(default),
                             key="x_other",
                             format_func=lambda r: f"test row {r} · label {y.loc[r]}")
        inst2 = instance_from_row(X, y, other, "test")
        c1, c2 = st.columns(2)
        order = list(ws.features)
        with c1:
            explanation_block(inst.as_dict(), k, key="x_a", title=f"A: {inst.title()}", order=order)
        with c2:
            explanation_block(inst2.as_dict(), k, key="x_b",
                              title=f"B: {inst2.title()} (label {ws.recorded_label(inst2)})",
                              order=order)

elif mode == "One instance across k":
    with guard("Comparing across k"):
        ks = st.multiselect("Values of k", list(range(1, n + 1)),
                            default=sorted({1, min(2, n), min(3, n)}), key="x_ks")
        ks = sorted(ks)[:4]
        if ks:
            cols = two_a_row(len(ks))
            for c, kk in zip(cols, ks):
                with c:
                    e = ws_explain(ws, values, kk)
                    st.markdown(f"**k = {kk}**")
                    st.markdown(md(wording.explanation_sentence(e, ws.class_name)))
                    figure(explanation_bars(e, top=6, label_width=HALF_LABEL_WIDTH),
                           key=f"x_k_{kk}", static=True)

elif mode == "Across KB kinds":
    with guard("Comparing KB kinds"):
        bar = Progress("Preparing the KBs to compare…")
        views = ws.comparison_views(bar)
        bar.done()
        with_shapley = st.toggle("Also compare Shapley values (on a Tree KB a partial instance "
                                 "needs one LP per coalition)", key="x_kinds_shapley")
        cols = two_a_row(len(views))
        order = list(ws.features)
        for c, view in zip(cols, views):
            with c:
                if view is None:
                    st.markdown(f"**{md(ws.kb_name)} with rules**")
                    st.info("No rules yet: add one on the Rules page to see its effect here.")
                    continue
                explanation_block(values, k, view=view, key=f"x_kind_{view.name}",
                                  title=f"{view.name} ({len(view.kb):,} clauses)", top=6,
                                  order=order, show_shapley=with_shapley)

elif mode == "SHAP on a baseline model":
    with guard("Comparing with SHAP"):
        model = st.selectbox("Baseline model", list(SHAP_MODELS), format_func=SHAP_MODELS.get,
                             key="x_shap_model")
        with st.spinner("Fitting the baseline and computing SHAP values…"):
            cmp = ws_shap_comparison(ws, values, k, model)
        b, e, sr = cmp.bounds, cmp.explanation, cmp.shap
        c1, c2 = st.columns(2)
        with c1:
            st.markdown(f"**plx: what each value adds to the {md(wording.support_for(ws.class_name))}**")
            st.caption(md(f"{wording.support_for(ws.class_name, start=True)}: {b.lower:.3f} to {b.upper:.3f} → "
                          f"{wording.decision_word(b.lower, b.upper, ws.class_name, ws.threshold)}"))
            figure(shapley_bars(cmp.plx, instance=values, order=cmp.order), key="x_cmp_plx")
        with c2:
            unit = "log-odds" if model == "logistic" else "probability"
            st.markdown(f"**SHAP on the {md(SHAP_MODELS[model].split(' (')[0])}** ({unit})")
            st.caption(md(f"P({ws.class_name}) = {sr.proba:.3f} → "
                          + wording.class_names(ws.class_name)[0 if sr.proba > 0.5 else 1]
                          + f" · base value {sr.base_value:.3f}"))
            figure(shapley_bars(sr.values, instance=values, order=cmp.order,
                                xlabel=f"SHAP value ({unit})"), key="x_cmp_shap")
        st.caption(md(f"Top {k} towards each side's decision: plx {', '.join(cmp.top_plx)}; SHAP "
                      f"{', '.join(cmp.top_shap)}; {cmp.in_common} in common. The plx explanation "
                      f"(k={k}) is {', '.join(e.features)}."))
