"""Query: pick an instance (test or training row, or edit values, leaving any unknown) and read
the ω(POS) bounds, the decision, the method, the evidence and a counterfactual."""

from __future__ import annotations

import functools

import pandas as pd
import streamlit as st

from plx_app.classes_ui import among_all_classes, class_answer, class_answer_notes
from plx_app.project_ui import link
from plx_app.service import (
    METHODS,
    SEMANTICS,
    UNKNOWN,
    Instance,
    RowFilter,
    filter_rows,
    front_columns,
    instance_from_row,
    plain_label,
)
from plx_app.service.classes import (
    class_order,
    class_table_shown,
    label_classes,
    several,
    ws_class_answer,
)
from plx_app.service.explain import ws_counterfactual, ws_evidence, ws_figure
from plx_app.service.insight import showcase_instance, ws_case_report
from plx_app.service.projects import rules_in_force
from plx_app.state import page_setup
from plx_app.widgets import (
    download,
    figure,
    guard,
    keep_last,
    md,
    require_kb,
    wrapped_table,
)
from plx_core import wording
from plx_core.plots import bounds_interval, evidence_bars

SUPPORT_LOW, SUPPORT_HIGH = "Support, at least", "Support, at most"
"""The metrics of the answer's bounds of ω(POS), in words."""

ws = page_setup()
st.title("Query")

require_kb(ws)

features = list(ws.features)
domains = ws.domains()

with st.expander("Query settings"):
    q1, q2 = st.columns(2)
    sem = q1.radio("Semantics", list(SEMANTICS), index=list(SEMANTICS).index(ws.semantics),
                   format_func=SEMANTICS.get, key="q_semantics")
    meth = q2.radio("Method", list(METHODS), index=list(METHODS).index(ws.method),
                    format_func=METHODS.get, key="q_method")
    ws.set_query_settings(sem, meth)


# ------------------------------------------------------------------ picking an instance


def _sync_editor(inst: Instance) -> None:
    for j, (_, v) in enumerate(inst.values):
        st.session_state[f"q_val_{j}"] = UNKNOWN if v is None else v


def _select(inst: Instance) -> None:
    ws.set_selected(inst)
    _sync_editor(inst)


def _picked(part: str) -> None:
    row = st.session_state.get("q_pick")
    if row is not None:
        X, y = ws.part(part)
        _select(instance_from_row(X, y, row, part))


def _table_selected(part: str, shown: list) -> None:
    state = st.session_state.get("q_table")
    rows = list(state["selection"]["rows"]) if state and "selection" in state else []
    if rows and rows[0] < len(shown):
        X, y = ws.part(part)
        st.session_state["q_pick"] = shown[rows[0]]
        _select(instance_from_row(X, y, shown[rows[0]], part))


if ws.selected is None:  # first visit: a row plx decides right and confidently
    _select(showcase_instance(ws))
    st.session_state["q_first"] = True

st.subheader("Instance")
p1, p2, p3 = st.columns(3)  # at 1024 px a fourth column cut its checkbox's label
PARTS = ["test", "train"]
part = p1.radio("Rows from", PARTS, horizontal=True, key="q_part",
                index=PARTS.index(ws.selected.origin) if ws.selected.origin in PARTS else 0,
                format_func=lambda p: {"test": "test split", "train": "training split"}[p])
X, y = ws.part(part)
dec = None  # without the decisions (e.g. the solver failed) the rows can still be picked
with guard("Answering the rows"):
    dec = ws.decisions(part)
with guard("Listing the rows"):
    said = dict(zip(("POS", "NOT POS"), wording.class_names(ws.class_name)))  # as the metric
    table, col = front_columns(X, {  # a feature called "label" keeps its name
        "label": ws.recorded_labels(part),  # a row's own class, 'copd', not 'not pneumonia'
        "plx decision": "?" if dec is None else
        dec["decision"].reindex(X.index).map(said).to_numpy(),
        wording.support_column(ws.class_name, ws.threshold): None if dec is None else dec["mean"].reindex(X.index).round(3).to_numpy()})
    classes = ["(any)"] + sorted(table[col["label"]].unique())
    lab = p2.selectbox("Label", classes, key="q_f_label")
    decf = p3.selectbox("plx decision", ["(any)", *said.values()], key="q_f_dec")
    text = st.text_input(md(f"Rows containing (any value, {wording.example_value(domains)})"),
                         key="q_f_text")
    t1, t2 = st.columns(2)
    wrong = t1.checkbox("Only wrong decisions", key="q_f_wrong",
                        help="Rows where plx's decision is not the recorded label")
    only_missing = t2.checkbox("Only rows with a missing value", key="q_f_missing",
                               help="Rows where at least one feature has no value")
    shown = filter_rows(table, col, features, RowFilter(
        None if lab == "(any)" else lab, None if decf == "(any)" else decf, wrong, only_missing,
        text), None if dec is None else dec["correct"])
    labels = [plain_label(i) for i in shown.index]
    st.caption(f"{len(shown):,} of {wording.counted(len(table), 'row')}. Click a row, or choose "
               "it below."
               + (" Rows are named by their line in your file (the header is line 1), as "
                  "plx fit names them." if ws.raw.rows_are_lines else ""))
    st.dataframe(shown, width="stretch", height=260, key="q_table", placeholder="(missing)",
                 on_select=functools.partial(_table_selected, part, labels),
                 selection_mode="single-row")
    opts = list(labels)
    edited = ws.selected.origin == "edited"
    if edited:  # the values no longer are a row's: the picker names no row
        st.session_state["q_pick"] = None
    elif ws.selected.origin == part and ws.selected.row is not None:
        cur = plain_label(ws.selected.row)
        if cur not in opts:
            opts = [cur] + opts
            st.caption(md(wording.row_outside_said(f"{part} row {cur}")))
        st.session_state["q_pick"] = cur
    elif "q_pick" in st.session_state and st.session_state["q_pick"] not in opts:
        st.session_state["q_pick"] = None
    if opts:
        st.selectbox("Instance", opts, key="q_pick", on_change=_picked, args=(part,),
                     placeholder=("edited values" + (f" (started from row {ws.selected.row})"
                                                     if ws.selected.row is not None else "")
                                  if edited else "choose a row"),
                     format_func=lambda r: f"{part} row {r} · label {table.loc[r, 'label']} · plx "
                     f"{table.loc[r, 'plx decision']}")

inst = ws.selected
source = None
if inst.origin in ("test", "train") and inst.row is not None:
    Xs, ys = ws.part(inst.origin)
    if inst.row in Xs.index:
        source = instance_from_row(Xs, ys, inst.row, inst.origin)
elif inst.row is not None:
    for name in ("test", "train"):
        Xs, ys = ws.part(name)
        if inst.row in Xs.index:
            source = instance_from_row(Xs, ys, inst.row, name)
            break


def _edited() -> None:
    cur = ws.selected
    vals = tuple((f, None if st.session_state[f"q_val_{j}"] == UNKNOWN else st.session_state[f"q_val_{j}"])
                 for j, f in enumerate(features))
    new = Instance(vals, "edited", cur.row, None)
    if source is not None and vals == source.values:
        new = source
    ws.set_selected(new)


with st.expander("Edit values (choose (unknown) to leave a feature out of the query)"):
    cols = st.columns(3)
    for j, (f, v) in enumerate(inst.values):
        key = f"q_val_{j}"
        opts = [UNKNOWN] + list(domains.get(f, ()))
        if v is not None and v not in opts:
            opts.append(v)  # a value never seen in training stays choosable (and is reported)
        if key not in st.session_state or st.session_state[key] not in opts:
            st.session_state[key] = UNKNOWN if v is None else v
        cols[j % 3].selectbox(md(f), opts, key=key, on_change=_edited)
    st.button("Set every feature unknown", key="q_clear", on_click=_select,
              args=(Instance(tuple((f, None) for f in features), "edited", inst.row, None),))

# ------------------------------------------------------------------ the answer

inst = ws.selected
st.subheader("Answer")
b = None
with guard("Answering the query"):
    answer = keep_last("query", inst.title(), ws.data_key, lambda: (ws.query(inst), inst),
                       "Answering the query")
    if answer is not None:
        b, shown = answer.value
        known = shown.known()
        pos_name, neg_name = wording.class_names(ws.class_name)
        word = wording.decision_word(b.lower, b.upper, ws.class_name, ws.threshold)
        # two per row: at 1024 px four in a row cut a class name ("m…")
        a = st.columns(2)
        a[0].metric("Decision", word, help=md(f"A tie at exactly {ws.threshold:g} is reported "
                                              f"as {neg_name}"))
        truth = ws.recorded_label(shown)  # the row's own class, 'asthma', not 'not pneumonia'
        a[1].metric("True label", "unknown" if truth is None else truth)
        sup = st.columns(2)
        sup[0].metric(SUPPORT_LOW, f"{b.lower:.3f}",
                    help=md(f"The least support the rules leave for {pos_name} (lower bound; "
                            f"{wording.SUPPORT_ENDS})"))
        sup[1].metric(SUPPORT_HIGH, f"{b.upper:.3f}",
                    help=md(f"The most support the rules leave for {pos_name} (upper bound)"))
        st.markdown(md(wording.answer_sentence(b, ws.class_name, kb=ws.current_kb(),
                                               truth=truth, positive_value=ws.positive,
                                               threshold=ws.threshold)))
        if st.session_state.pop("q_first", False):
            st.info("This first row is one plx decides correctly and confidently. Pick any "
                    "other row above, or change values under \"Edit values\".")
        st.caption(md(wording.omega_meaning(ws.class_name, ws.threshold, ws.learner)))
        with st.expander("Advanced: how the answer was computed"):
            m = st.columns(3)
            m[0].metric("Method", {"median": "median", "lp": "LP"}[b.method],
                        help=wording.method_name(b.method))
            m[1].metric("Relevant clauses", f"{b.n_relevant:,}")
            m[2].metric("Inconsistency", f"{b.inconsistency:.4g}")
            st.markdown(md("\n".join(wording.advanced_lines(b))))
            st.caption(md(wording.omega_symbol(ws.class_name)))
    if answer is not None and answer.fresh:  # the details belong to the current instance only
        values = inst.as_dict()
        figure(ws_figure(ws, "bounds", values, make=lambda: bounds_interval(
                   b, positive=ws.class_name, threshold=ws.threshold)),
               key="q_bounds")
        notes = [f"{len(known):,} of {wording.counted(len(features), 'feature')} known."]
        if b.no_evidence:
            notes.append("No clause bears on this query, so the support can be anything from 0 to 1.")
        st.caption(md(" ".join(notes)))

        for_pos, against = ws_evidence(ws, values)
        st.markdown(md(wording.evidence_summary(pd.concat([for_pos, against]), ws.class_name)))
        if len(for_pos) or len(against):  # how to read a rule: on the strongest one's number
            strongest = (against if len(against) else for_pos)["target"].iloc[0]
            st.caption(md(wording.evidence_reading_said(strongest, ws.class_name)))
            cols_show = ["rule", "target", "w", "support", "overridden"]
            config = {"rule": st.column_config.TextColumn("rule (IF … THEN …)", width="large"),
                      "target": st.column_config.NumberColumn("pulls the support to", format="%.3f"),
                      "w": st.column_config.NumberColumn("weight", format="%.3g"),
                      "support": st.column_config.NumberColumn("training rows"),
                      "overridden": st.column_config.CheckboxColumn("overridden")}
            pos_name, neg_name = wording.class_names(ws.class_name)
            for head, side in ((f"Evidence for {pos_name}", for_pos),
                               (f"Evidence against {pos_name} (towards {neg_name})", against)):
                st.markdown(f"**{md(head)}** ({len(side)} clause{'' if len(side) == 1 else 's'}, "
                            "strongest first"
                            + (", the first 50 listed)" if len(side) > 50 else ")"))
                if len(side):
                    wrapped_table(side[cols_show].head(50), max_rows=5, column_config=config,
                                  placeholder="—")  # the prior clause counts no rows
                else:
                    st.caption("None.")
            if st.toggle("Chart the strongest evidence", key="q_ev_chart"):  # drawn only on demand
                figure(ws_figure(ws, "evidence", values, make=lambda: evidence_bars(
                    pd.concat([for_pos, against]), omega=b.omega, positive=ws.class_name)), key="q_evidence")

if several(ws):  # the answer above is POS against the rest; here, among every class
    n_classes = len(label_classes(ws))
    order = class_order(ws)
    intro = (wording.levels_section_said(ws.class_name, order, "query") if order else
             f"The label has {n_classes} classes and the answer above is "
             f"{ws.class_name} against the other {n_classes - 1}. Here plx's model of "
             "every class (PLXClassifier() on all the classes, as plx fit without "
             "--positive: one KB per class against the rest) picks the class of this "
             "instance, with every class's bounds and why it is the picked class and not "
             "the runner-up.")
    if among_all_classes(ws, n_classes, intro, "Answer", "q_classes"):
        with guard("Answering among all classes"):
            ca = ws_class_answer(ws, inst)
            class_answer(ws, inst, ca, *(("Level answered", "Runner-up level") if ca.order
                                         else ("Class picked", "Runner-up")))
            heads = wording.LEVEL_TABLE_HEADERS if ca.order else wording.CLASS_TABLE_HEADERS
            st.dataframe(class_table_shown(ca), hide_index=True, key="q_classes_table",
                         column_config={heads[k]: st.column_config.NumberColumn(format="%.3f")
                                        for k in ("lower", "upper", "mean", "vote")})
            class_answer_notes(ws, ca)

st.subheader("Counterfactual")
if b is None or not answer.fresh:
    st.info("The counterfactual needs the answer for this instance; it shows once the query is answered.")
else:
    with guard("Searching a counterfactual"):
        cf = ws_counterfactual(ws, inst.as_dict())
        st.markdown(md(wording.counterfactual_sentence(cf, ws.class_name) if cf is not None
                       else "No known value to change."))

st.subheader("Case report")
if b is None or not answer.fresh:
    st.info("The case report needs the answer for this instance.")
else:
    st.caption("One HTML page with the instance, the decision in words and as a chart, the "
               "explanation, the evidence, the counterfactual, the rules in force with their "
               "authors and the model's settings. It fetches nothing from outside; print it to "
               "PDF from the browser.")
    name = "".join(ch if ch.isalnum() else "-" for ch in inst.title()).strip("-") or "case"
    lk = link()  # the saved project: the report names each rule's author from its history
    download("Download the case report (HTML)",
             lambda: ws_case_report(ws, inst, rules=rules_in_force(ws, lk)).encode("utf-8"),
             file_name=f"plx-report-{name}.html", mime="text/html", key="q_report")
