"""Evaluate: F1, the confusion matrix and baselines on the current split; agreement of plx
explanations with SHAP."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from plx_app.service import BASELINES, baseline_scores, confusion, scores
from plx_app.service.explain import SHAP_MODELS, ws_agreement
from plx_app.state import page_setup
from plx_app.widgets import figure, guard, keep_last, md, require_kb
from plx_core.plots import agreement_figure, confusion_matrix_figure, metrics_bars

ws = page_setup()
st.title("Evaluate")

require_kb(ws)

label = ws.kb_note or ws.kb_settings.label()
st.caption(md(f"Test split of {ws.dataset.name}: {len(ws.X_test)} rows; POS = {ws.positive!r}; "
              f"KB {label}" + (f" with {sum(r.enabled for r in ws.rules)} rule(s)" if ws.rules else "")))

scored = None
with guard("Scoring the KB"):
    scored = keep_last("evaluate", f"the KB {label}", ws.data_key, lambda: ws.decisions("test"),
                       "Scoring the KB")
with guard("Showing the scores"):
    if scored is not None:
        dec = scored.value
        truth = (ws.y_test.astype(str) == ws.positive).to_numpy()
        pred = dec["decision"].to_numpy() == "POS"
        s = scores(truth, pred)
        m = st.columns(5)
        m[0].metric("F1", f"{s['F1']:.3f}")
        m[1].metric("Precision", f"{s['precision']:.3f}")
        m[2].metric("Recall", f"{s['recall']:.3f}")
        m[3].metric("Accuracy", f"{s['accuracy']:.3f}")
        m[4].metric("Ties at 0.5", f"{int(dec['tie'].sum())}", help="Rows whose ω(POS) bounds have mean exactly 0.5; reported NOT POS (the paper's rule: positive iff mean > 0.5)")
        c1, c2 = st.columns(2)
        with c1:
            figure(confusion_matrix_figure(confusion(truth, pred), ("NOT POS", "POS")), key="ev_cm")
        with c2:
            with st.spinner("Fitting the baselines on the same split…"):
                key = ("baselines", ws.data_key)
                base = ws.results.get(key, lambda: baseline_scores(
                    ws.X_train, ws.y_train, ws.X_test, ws.y_test, ws.positive, BASELINES,
                    ws.settings.seed))
            table = pd.concat([pd.DataFrame([{"model": f"plx ({label})", **s}]), base], ignore_index=True)
            figure(metrics_bars(table, "F1", title="F1 on the test split"), key="ev_f1")
        st.dataframe(table[["model", "F1", "precision", "recall", "accuracy", "tp", "fp", "fn", "tn"]],
                     hide_index=True, width="stretch",
                     column_config={c: st.column_config.NumberColumn(format="%.3f")
                                    for c in ("F1", "precision", "recall", "accuracy")})
        st.caption("Baselines use one-hot features of the same discretised columns and the same split.")

st.subheader("Explanation agreement with SHAP")
st.caption("For test rows, plx's k-feature explanations are compared with the k features SHAP "
           "ranks highest towards the baseline's decision (the paper's Fig. 2), and plx's Shapley "
           "values of ω(POS) with the SHAP values.")
a1, a2, a3 = st.columns(3)
n_rows = a1.slider("Test rows", 10, max(10, min(200, len(ws.X_test))), min(40, len(ws.X_test)), 10,
                   key="ev_n")
k = a2.slider("k", 1, max(2, len(ws.features)), min(2, len(ws.features)), key="ev_k")
model = a3.selectbox("Baseline model", list(SHAP_MODELS), format_func=SHAP_MODELS.get, key="ev_model")
rep = None
with guard("Comparing explanations with SHAP"):
    with st.spinner("Explaining the rows with plx and with SHAP…"):
        agreed = keep_last("agreement", f"{n_rows} test rows, k={k}, {model}", ws.data_key,
                           lambda: ws_agreement(ws, n_rows, min(k, len(ws.features)), model),
                           "Comparing explanations with SHAP")
    rep = agreed.value if agreed is not None else None
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
        with st.expander("Per row"):
            st.dataframe(rep.rows, hide_index=True, width="stretch")
