"""Evaluate: F1, the confusion matrix and baselines on the current split; ROC and
precision–recall curves with a movable decision threshold; agreement of plx explanations with
SHAP."""

from __future__ import annotations

import streamlit as st

from plx_app.classes_ui import among_all_classes
from plx_app.service.classes import (
    class_order,
    class_scores,
    fit_classes,
    fit_notes,
    label_classes,
    several,
)
from plx_app.service.explain import (
    SHAP_MODELS,
    ws_agreement,
    ws_agreement_done,
    ws_agreement_progress,
)
from plx_app.service.insight import ws_at_threshold, ws_curves
from plx_app.state import page_setup
from plx_app.widgets import (
    figure,
    fit_button,
    guard,
    keep_last,
    md,
    require_kb,
    row_counter,
    start_stop,
)
from plx_core import wording
from plx_core.baselines import BASELINES, DASHBOARD_BASELINES
from plx_core.plots import (
    agreement_figure,
    confusion_matrix_figure,
    metrics_bars,
    pr_figure,
    roc_figure,
)

ws = page_setup()
st.title("Evaluate")


def _own_threshold() -> None:
    """Answer at the model's own threshold again, the slider with it."""
    ws.set_threshold(None)
    st.session_state.pop("ev_threshold", None)  # the slider starts again at the threshold in use


require_kb(ws)

label = ws.kb_name
pos_name, neg_name = wording.class_names(ws.class_name)
st.caption(md(f"Test split of {ws.dataset.name}: {wording.counted(len(ws.X_test), 'row')}; answering {ws.class_name} or {neg_name}; "
              f"KB {label}" + (f" with {wording.counted(ws.rules_count()[1], 'rule')}" if ws.rules else "")))
if one_class := wording.one_class_part(int(ws.truth("test").sum()),
                                       int((~ws.truth("test")).sum()), ws.class_name):
    st.warning(md(one_class))

scored = None
with guard("Scoring the KB"):
    scored = keep_last("evaluate", f"the KB {label}", ws.data_key, lambda: ws.decisions("test"),
                       "Scoring the KB")
few = None
with guard("Showing the scores"):
    if scored is not None:
        dec = scored.value
        s = ws.scores("test", decisions=dec)
        m = st.columns(5)
        m[0].metric("F1", f"{s['F1']:.3f}")
        m[1].metric("Precision", f"{s['precision']:.3f}")
        m[2].metric("Recall", f"{s['recall']:.3f}")
        m[3].metric("Accuracy", f"{s['accuracy']:.3f}")
        m[4].metric(f"Ties at {ws.threshold:g}", f"{int(dec['tie'].sum())}",
                    help=md(f"Rows whose support for {pos_name} has its middle exactly at "
                            f"{ws.threshold:g}, the decision threshold of the KB in use; reported "
                            f"{neg_name} ({pos_name} only when the middle is above it)"))
        if copies := ws.copies_said(dec):  # test rows the model has seen: never silently
            st.warning(md(copies))
        if blank := ws.uninformed_said(dec):  # rows no clause bears on: the threshold decides
            st.info(md(blank))
        few = st.empty()  # filled once the baselines are scored (their best F1 is said)

# the threshold next to what it moves: the slider, sensitivity and specificity, and the
# confusion table side by side (one screen at 1024x768), the curves right under them
st.subheader("Decision threshold: ROC and precision–recall")
st.caption(md(f"plx calls a row {ws.class_name} when the middle of its support is above the "
              f"threshold ({ws.threshold_said()} for the KB in use; 0.5 is the paper's rule, "
              "plx's default chooses its own on the training rows). Move the threshold to trade "
              "sensitivity (finding every positive) against specificity (not raising false "
              "alarms); the curves show every threshold at once, the orange point the one chosen. "
              "Moving it changes no other page until you press \"Decide at … on every page\" "
              "(as plx fit --threshold)."))
with guard("Drawing the ROC and precision–recall curves"):
    left, right = st.columns(2)
    with left:
        threshold = st.slider("Decision threshold (on the middle of the support)", 0.0, 0.99,
                              float(ws.threshold), 0.01, key="ev_threshold")
        use = st.container(horizontal=True)
        if abs(threshold - ws.threshold) > 1e-9:
            use.button(f"Decide at {threshold:.2f} on every page", key="ev_threshold_use",
                       on_click=ws.set_threshold, args=(threshold,),
                       help="Query, Explain, Rules, Evaluate and the case report then answer at "
                            "this threshold; the project keeps it (plx fit --threshold).")
        if ws.kb_settings.threshold is not None:
            use.button(f"Back to the model's own threshold ({ws.own_threshold:g})",
                       key="ev_threshold_own", on_click=_own_threshold)
        cv, _, _ = ws_curves(ws, "test")
        at_t = ws_at_threshold(ws, threshold, "test")
        pos_w, neg_w = wording.class_names(ws.class_name)
        t = st.columns(2)
        t[0].metric("Sensitivity", f"{at_t.sensitivity:.3f}",
                    help=md(f"rows that are {pos_w} found / all rows that are {pos_w}"))
        t[1].metric("Specificity", f"{at_t.specificity:.3f}",
                    help=md(f"rows that are {neg_w} kept / all rows that are {neg_w}"))
        t = st.columns(3)
        t[0].metric("Precision", wording.score_shown(at_t.precision),  # none flagged: not "nan"
                    help=md(wording.precision_help(pos_w, at_t.precision)))
        t[1].metric("F1", f"{at_t.f1:.3f}", help="harmonic mean of precision and sensitivity")
        t[2].metric("Accuracy", f"{at_t.accuracy:.3f}", help="rows called right / all rows")
        st.markdown(md(wording.counts_at_threshold(threshold, at_t.tp, at_t.fp, at_t.tn, at_t.fn,
                                                   ws.class_name)))
    with right:
        figure(confusion_matrix_figure(at_t.matrix(), (neg_name, pos_name),
                                       title=f"Confusion matrix at threshold {threshold:.2f}"),
               key="ev_cm_threshold")
    r1, r2 = st.columns(2)
    with r1:
        figure(roc_figure(cv, at_t), key="ev_roc")
    with r2:
        figure(pr_figure(cv, at_t, positive=ws.class_name), key="ev_pr")

st.subheader("Against other models")
with guard("Showing the scores"):
    if scored is not None and few is not None:
        offer = st.empty()  # what the button does, and the button, gone once they are fitted
        if not ws.baselines_fitted():  # fitted when asked: seconds to a minute on a large table
            with offer.container():
                st.caption(md(wording.baselines_offer_said(
                    [BASELINES[k].label for k in DASHBOARD_BASELINES], len(ws.X_train))))
                fit_button(f"Compare with {len(DASHBOARD_BASELINES)} other models",
                           "ev_baselines", "Fits each model on the training rows and scores it "
                           "on the test rows; kept for this data once fitted.",
                           "Fitting the other models", lambda progress: ws.baselines(progress))
        best = None
        if ws.baselines_fitted():
            offer.empty()
            table, best = ws.against_models(s)
            st.dataframe(table[["model", "F1", "precision", "sensitivity", "specificity",
                                "accuracy", "tp", "fp", "fn", "tn"]],
                         hide_index=True, width="stretch",
                         column_config={c: st.column_config.NumberColumn(format="%.3f")
                                        for c in ("F1", "precision", "sensitivity", "specificity",
                                                  "accuracy")})
            c1, c2 = st.columns(2)
            with c1:
                figure(metrics_bars(table, "F1", title="F1 on the test split"), key="ev_f1")
            c2.caption(f"Each model scored at its own threshold (plx's: {ws.threshold:g}). The "
                       "other models see the same binned columns (each value as its own yes/no "
                       "column) and the same training and test rows.")
        if said := wording.few_found_sentence(
                len(ws.X_test), s["tp"] + s["fn"], s["tp"], s["fp"], ws.class_name, best,
                where="test"):
            few.info(md(said + " Try it under \"Decision threshold\" just below."))

if several(ws):  # the scores above are POS against the rest; here, among every class
    n_classes = len(label_classes(ws))
    order = class_order(ws)
    intro = wording.levels_section_said(ws.class_name, order, "evaluate", "scores") if (
        order) else (f"The scores above are {ws.class_name} against the other {n_classes - 1}. "
             "Here plx's model of every class (one KB per class against the rest; "
             f"{wording.class_decision_said()}, as on the Query page) is scored on the "
             "same test rows.")
    if among_all_classes(ws, n_classes, intro, "Score", "ev_classes"):
        with guard("Scoring among all classes"):
            cs = class_scores(ws, fit_classes(ws))
            m = st.columns(3 if cs.level_error is not None else 2)
            m[0].metric("Macro F1 (all classes)", f"{cs.macro_f1:.3f}")
            m[1].metric("Accuracy (all classes)", f"{cs.accuracy:.3f}")
            if cs.level_error is not None:  # ordered levels: how far off, not only whether
                m[2].metric(wording.LEVEL_ERROR, f"{cs.level_error:.3f}")
                st.caption(md(wording.level_error_said(cs.level_error, len(order or ()))))
                st.caption("Confusion matrix in the scale's order, lowest level first: rows are "
                           "the true levels, columns the levels answered.")
            else:
                st.caption("Confusion matrix: rows are the true classes, columns the classes "
                           "picked.")
            st.dataframe(cs.confusion, key="ev_classes_cm")
            for note in (*fit_notes(ws), *cs.notes):
                st.caption(md(note))

st.subheader("Explanation agreement with SHAP")
st.caption("For test rows, plx's k-feature explanations are compared with the k features SHAP "
           "ranks highest towards the baseline's decision (the paper's Fig. 2), and plx's Shapley "
           "values (what each value adds to the support) with the SHAP values.")
a1, a2, a3 = st.columns([1, 1, 2])  # the model names are long
n_rows = a1.slider("Test rows", 10, max(10, min(200, len(ws.X_test))), min(40, len(ws.X_test)), 10,
                   key="ev_n")
k = a2.slider("k", 1, max(2, len(ws.features)), min(2, len(ws.features)), key="ev_k")
model = a3.selectbox("Baseline model", list(SHAP_MODELS), format_func=SHAP_MODELS.get, key="ev_model")
k = min(k, len(ws.features))
rep = None
done_n, planned = ws_agreement_progress(ws, n_rows, k, model)
finished = ws_agreement_done(ws, n_rows, k, model)
if finished or done_n:  # what was done: nothing is computed. The Continue button (whether it
    # shows, and its count) is read from this same report: a stopped run's thread may still
    # finish its row after this run began (Streamlit's fast reruns), so a second reading could
    # count one row more.
    with guard("Comparing explanations with SHAP"):
        rep = ws_agreement(ws, n_rows, k, model, stop=lambda: True)
    if rep is not None:
        done_n, finished = rep.n, rep.complete
start = controls = None
if not finished:
    start, controls = start_stop(
        "ev", f"Explaining {planned} rows with plx and with SHAP takes a while on wide tables; it "
        "runs when you start it, shows how many rows are done, and can be stopped (the rows done "
        "are kept and shown; starting again continues).", done_n, planned, "Start the comparison")
if start:
    with guard("Comparing explanations with SHAP"):
        with row_counter(text="Fitting the baseline and computing SHAP values…") as count:
            agreed = keep_last("agreement", f"{n_rows} test rows, k={k}, {model}", ws.data_key,
                               lambda: ws_agreement(ws, n_rows, k, model, progress=count.rows),
                               "Comparing explanations with SHAP")
        rep = agreed.value if agreed is not None else None
        if rep is not None and rep.complete:
            controls.empty()
elif rep is not None and not rep.complete:
    st.caption(md(f"Stopped after {rep.n} of {rep.planned} rows; shown below: those rows."))
with guard("Showing the agreement"):
    if rep is not None:
        c1, c2 = st.columns(2)
        with c1:
            figure(agreement_figure(rep.summary, title=f"Agreement over {rep.n} test rows (k={rep.k})"),
                   key="ev_agree")
        with c2:
            chosen = rep.chosen.melt(id_vars="feature", var_name="group", value_name="value")
            chosen = chosen.rename(columns={"feature": "measure"})
            figure(agreement_figure(chosen, title="How often each feature is in the top-k"),
                   key="ev_chosen")
        skipped = int(rep.rows["in common"].isna().sum()) if "in common" in rep.rows else 0
        if skipped:
            st.caption(f"{skipped} of these {rep.n} rows could not be explained by plx and are "
                       "left out of the agreement; the Per row table's note column says why.")
        with st.expander("Per row"):
            st.dataframe(rep.rows, hide_index=True, width="stretch")
