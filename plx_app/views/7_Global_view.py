"""Global view: which features and which rules drive decisions across the data (aggregated
k-feature explanations, mean |Shapley value of ω(POS)|, the rules most often decisive)."""

from __future__ import annotations

import streamlit as st

from plx_app.service.insight import GLOBAL_ROWS, ws_global_progress, ws_global_view
from plx_app.state import page_setup
from plx_app.widgets import (
    figure,
    guard,
    keep_last,
    md,
    require_kb,
    row_counter,
    start_stop,
    wrapped_table,
)
from plx_core import wording
from plx_core.plots import global_features

ws = page_setup()
st.title("Global view")

require_kb(ws)
st.caption(md(f"Across many rows at once: how often each feature is part of a row's "
              f"explanation, how much it moves the support for {ws.class_name} on average (the "
              f"mean size of what its value adds to the support, its Shapley value), the "
              f"explanations given most often, and the rules the answers most often rest on. The "
              f"current KB and rules are used."))

g1, g2, g3 = st.columns(3)
part = g1.radio("Rows from", ["test", "train"], horizontal=True, key="g_part",
                format_func=lambda p: {"test": "test split", "train": "training split"}[p])
n_feat = len(ws.features)
k = g2.slider("k: features per explanation", 1, max(2, n_feat), min(2, n_feat), key="g_k") \
    if n_feat > 1 else 1
n_rows = g3.slider("Rows to explain (a seeded random sample beyond)", 20, 300, GLOBAL_ROWS, 20,
                   key="g_rows")

done_n, planned = ws_global_progress(ws, k, n_rows, part)
label = f"{part} rows, k={k}"
got = None
if done_n:  # what was done before (complete, or stopped part-way): nothing is computed. The
    # count on the Continue button is read from this same view: a stopped run's thread may
    # still finish its row after this run began (Streamlit's fast reruns), so a second reading
    # could count one row more than the view shows.
    with guard("Explaining the rows"):
        got = keep_last("global", label, ws.data_key,
                        lambda: ws_global_view(ws, k, n_rows, part, stop=lambda: True),
                        "Explaining the rows")
    if got is not None:
        done_n = got.value.n_rows
start = controls = None
if done_n < planned:
    start, controls = start_stop(
        "g", f"Explaining {planned} rows (a k-feature explanation, Shapley values and the decisive "
        "rules of each) takes a while on wide tables: it runs when you start it, shows how many "
        "rows are done, and can be stopped; the rows done are kept and shown, and starting again "
        "continues.", done_n, planned, "Explain the rows")

if start:
    with guard("Explaining the rows"):
        with row_counter(done_n, planned) as count:  # the bar goes, whatever ends the run
            got = keep_last("global", label, ws.data_key,
                            lambda: ws_global_view(ws, k, n_rows, part, progress=count.rows),
                            "Explaining the rows")
        if got is not None and got.value.complete:
            controls.empty()
view = got.value if got is not None else None
if view is not None:
    pos_name, neg_name = wording.class_names(ws.class_name)
    st.markdown(md(view.summary(ws.class_name)))
    figure(global_features(view.features, positive=ws.class_name), key="g_features", static=True)
    st.markdown("**Explanations given most often**")
    expl = view.explanations[["rows", "decision", "explanation"]].assign(
        decision=lambda f: f["decision"].map({"POS": pos_name, "NOT POS": neg_name}))
    wrapped_table(expl, max_rows=10,
                  column_config={"explanation": st.column_config.TextColumn(width="large"),
                                 "rows": st.column_config.NumberColumn("rows", width="small"),
                                 "decision": st.column_config.TextColumn(width="small")})
    st.markdown("**Rules the answers most often rest on** (the answer equals the rule's "
                "probability: the rule that settles the weighted median, or that the LP's "
                "optimum keeps)")
    rules = view.rules[["decisive", "p", "rule", "w", "source"]].assign(
        source=lambda f: [wording.source_text(s_) for s_ in f["source"]])
    wrapped_table(rules, max_rows=10,
                  column_config={"rule": st.column_config.TextColumn("rule (IF … THEN …)",
                                                                     width="large"),
                                 "decisive": st.column_config.NumberColumn("rows", width="small"),
                                 "p": st.column_config.NumberColumn("probability", format="%.2f",
                                                                    width="small"),
                                 "w": st.column_config.NumberColumn("weight", format="%.3g",
                                                                    width="small"),
                                 "source": st.column_config.TextColumn("from", width="small")})
    st.caption(md(wording.evidence_reading_said(None, ws.class_name, "probability")))
