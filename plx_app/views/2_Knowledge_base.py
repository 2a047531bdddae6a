"""Knowledge base: build it (Direct / Tree / Forest), view the ID3 tree, browse, export and
import clauses."""

from __future__ import annotations

import streamlit as st

from plx_app.service import (
    KB_KIND_HELP,
    KB_KINDS,
    SORT_KEYS,
    BrowseQuery,
    KBSettings,
    browse_kb,
    default_max_len,
    kb_csv,
)
from plx_app.service.classes import (
    check_model_file,
    class_order,
    classes_fitted,
    levels_model_file,
)
from plx_app.service.model import ModelChoice, model_file, tree_view_frame
from plx_app.state import page_setup
from plx_app.widgets import Progress, download, error, figure, guard, md, wrapped_table
from plx_core import wording
from plx_core.data import MISSING_MARKERS
from plx_core.kb import parse_clause
from plx_core.plots import tree_figure

ws = page_setup()


def node_of_point(pt, default: int) -> int:
    """The tree node a plotly selection point stands for: its customdata[0] (the node id),
    else its index in the node trace (trace 1, in node order)."""
    cd = pt.get("customdata") if hasattr(pt, "get") else None
    if isinstance(cd, dict):
        cd = [cd[k] for k in sorted(cd, key=str)]
    if isinstance(cd, (list, tuple)) and cd:
        return int(cd[0])
    if pt.get("curve_number", 1) == 1 and pt.get("point_index") is not None:
        return int(pt["point_index"])
    return default
st.title("Knowledge base")

st.subheader("Build")
kinds = list(KB_KINDS)
k1, k2 = st.columns([2, 1])
kind = k1.radio("Kind", kinds, index=kinds.index(ws.kb_settings.kind), format_func=KB_KINDS.get,
                captions=[KB_KIND_HELP[k] for k in kinds], key="kb_kind")
cur = ws.kb_settings
max_len, n_trees, max_depth = cur.max_len, cur.n_trees, cur.max_depth
F = len(ws.features)
if kind == "auto":
    k2.caption(wording.candidates_sentence())
elif kind == "direct":
    start = cur.max_len if cur.kind == "direct" else default_max_len(*ws.X_train.shape)
    ml = k2.number_input("max_len: most feature literals per clause (0 = no cap)", 0, F,
                         int(start or 0), key="kb_max_len",
                         help="Starts at the largest cap that keeps a click interactive here.")
    max_len = None if ml == 0 else int(ml)
else:
    md_ = k2.number_input("Maximum tree depth (0 = grow until pure)", 0, F, int(cur.max_depth or 0),
                          key="kb_max_depth")
    max_depth = None if md_ == 0 else int(md_)
    if kind == "forest":
        n_trees = k2.slider("Trees in the forest", 2, 50, int(cur.n_trees), key="kb_n_trees")
settings = KBSettings(kind, max_len if kind == "direct" else None, n_trees, max_depth,
                      cur.random_state, cur.threshold)  # a threshold set on Evaluate stays

if st.button("Build", type="primary", key="kb_build"):
    with Progress("Building…") as bar, guard("Building the KB"):
        ws.set_kb(settings, bar)

if ws.kb is None:
    with guard("Building the KB"), Progress("Building…") as bar:
        ws.ensure_kb(bar)
if ws.kb is None:
    st.stop()

kb = ws.kb
# the kind in the Build radio's words, as a line: a metric's large type cuts it at 1024 px
st.markdown("**KB in use:** " + md(ws.kb_name))
m2, m3, m4 = st.columns(3)
m2.metric("Clauses", f"{len(kb):,}")
m3.metric("Rules", f"{ws.rules_count()[0]}")
m4.metric("Build time", f"{ws.build_seconds:.3f} s")
if ws.kb_cached:
    st.caption("Taken from this session's cache (same data and settings): nothing was rebuilt.")
if settings != ws.kb_settings and not ws.kb_note:
    st.caption(md(f"The settings above ({settings.label()}) differ from the KB in use: press Build."))


def model_panel(model: ModelChoice) -> None:
    """Which model plx's default chose and why, in plain words; the precise reason (as
    `plx fit` prints it) and every candidate's score under "Details"."""
    said = model.summary(ws.class_name)
    if said:
        st.markdown(md(said))
    pos = wording.class_names(ws.class_name)[0]
    st.markdown(md(f"It calls a row {pos} when the middle of its support for {pos} is above "
                   f"{ws.threshold:g} (support runs from 0, nothing backs it, to 1, fully backed: a score "
                   "compared with this threshold, not a percentage chance)"
                   + (f": the threshold you set on the Evaluate page; the model's own is "
                      f"{model.threshold:g}." if ws.threshold != model.threshold else ".")))
    with st.expander("Details: the choice as plx fit reports it, and every candidate's score"):
        st.caption(md(f"Answering: {model.name} ({model.chosen}), decision threshold "
                      f"{model.threshold:g} on the mean of the ω(POS) bounds, "
                      f"{wording.semantics_name(model.semantics)}."))
        st.text(model.reason)
        if len(model.scores):
            st.dataframe(model.scores, hide_index=True, width="stretch", key="kb_model_scores",
                         column_config={
                             "out-of-fold F1": st.column_config.NumberColumn(format="%.3f"),
                             "threshold": st.column_config.NumberColumn(format="%.2f")})
            st.caption(f"Each candidate's F1, {wording.scoring_words()}, at its best "
                       f"threshold; the one marked "
                       f"answers. The test split was not used. {wording.threshold_column_said()}")
            if model.threshold_note():
                st.caption(model.threshold_note())
    for col, why in model.excluded:
        st.caption(md(f"Left out: {col} ({why})"))
    if model.tree_note:
        st.caption(md(model.tree_note))
    cuts = ws.model_cut_points()
    if cuts is not None:
        st.caption(wording.cut_points_caption(True, True, finer=True))
        st.dataframe(cuts, hide_index=True, width="stretch", key="kb_model_cuts")


if ws.model is not None:
    st.subheader("The model that answers")
    model_panel(ws.model)

TABS = ["Browse clauses", "ID3 tree", "Export / import"]
# the tabs keep their state across reruns (a click on the tree must not jump back to the
# first tab) and only the open one runs
tabs = st.tabs(TABS, key="kb_tab", on_change="rerun")


def browse_tab() -> None:
    b1, b2 = st.columns(2)
    first = next(iter(kb.features), "")
    search = b1.text_input(md(f"Search literals (e.g. {first} or "
                              f"{wording.example_condition(kb.domains)}; join terms with AND)"),
                           key="kb_search")
    feats = b2.multiselect("Clauses that mention every one of these features", list(kb.features),
                           key="kb_feats")
    lengths = kb.lengths
    top = int(lengths.max()) if len(lengths) else 1
    top = max(top, max((sum(lit.is_feature for lit in c.literals) for c in kb.extra), default=1), 1)
    c1, c2, c3 = st.columns(3)
    # from 0: the starting point (the prior clause) has no feature literal (from 1 the browser never showed it)
    length = c1.slider("Length (feature literals; 0: the model's starting point)", 0, max(top, 2),
                       (0, max(top, 2)), key="kb_len")
    p_range = c2.slider("p range", 0.0, 1.0, (0.0, 1.0), 0.01, key="kb_p")
    min_sup = c3.number_input("Minimum support (training rows)", 0, 10**9, 0, key="kb_sup")
    d1, d2, d3, d4 = st.columns(4)
    sort_by = d1.selectbox("Sort by", list(SORT_KEYS), key="kb_sort")
    desc = d2.toggle("Descending", value=True, key="kb_desc")
    size = d3.selectbox("Rows per page", [25, 50, 100], key="kb_size")
    page = d4.number_input("Page", 1, 10**9, 1, key="kb_page")
    with guard("Filtering the clauses"):
        q = BrowseQuery(search, tuple(feats), tuple(length), tuple(p_range), int(min_sup), (),
                        sort_by, desc, int(page), int(size))
        frame, total = browse_kb(kb, q, positive=ws.class_name)
        pages = max(1, -(-total // int(size)))
        st.caption(f"{total:,} of {len(kb):,} clauses match · page {min(int(page), pages)} of {pages}")
        wrapped_table(frame.drop(columns=["clause"]), max_rows=10,
                      column_config={"IF": st.column_config.TextColumn(width="large"),
                                     "p": st.column_config.NumberColumn(format="%.3f"),
                                     "w": st.column_config.NumberColumn(format="%.3g")})


def node_detail(row, chosen: int) -> None:
    """A node of the tree in use: its path, counts and, for plx's default, how it answers."""
    answers = "answer" in row.index and row["answer"] == row["answer"]  # NaN: answers no row
    st.markdown(f"**Node #{chosen}**: {md(row['label'])} · {row['count']} training rows · "
                f"{row['positives']} positive · p = {row['p']:.3f}"
                + (" · leaf" if row["is_leaf"] else ""))
    if row["clauses"] > 1 or "answer" in row.index:
        # a binary tree's node holds a set of values per feature: one clause per combination
        cond = row["condition"]
        said = (f"IF {cond} THEN {ws.class_name}: support {row['answer']:.3f}" if answers
                else f"IF {cond}: no clause (a row with no known feature answers nothing)")
        st.code(said, language=None)
        if answers:
            decided = wording.decision_word(row["answer"], row["answer"], ws.class_name,
                                            ws.threshold)
            st.caption(md(
                f"A row whose known values reach this node and no deeper gets the support "
                f"{row['answer']:.3f} (the share of positives here, {row['p']:.3f}, corrected "
                f"to a balanced prior) → {decided} at threshold {ws.threshold:g}. In the KB the "
                f"node is {wording.plural(int(row['clauses']), 'clause')} (one per combination "
                f"of its allowed values), weight {row['w']:g}"
                + (": deeper nodes outweigh it." if ws.model and ws.model.chosen == "tree-bin-deep"
                   else ".")))
        return
    raw = f"[{row['p']:.4g}] {row['clause']}"
    st.code(wording.clause_sentence(parse_clause(raw), ws.class_name), language=None)
    st.caption(md(f"The same clause in the clause syntax: {raw}"))


def tree_tab() -> None:
    if not ws.trees:
        if ws.model is not None:
            st.info(md(f"plx's default answers with {ws.model.name}: "
                       + (ws.model.tree_note or "it has no tree to draw (browse its clauses).")))
            return
        st.info("The tree view shows the ID3 tree behind a Tree or Forest KB, or the tree plx's "
                "default chose. Choose one above and press Build (the Direct KB has no tree).")
    else:
        t = 0
        if len(ws.trees) > 1:
            t = st.selectbox("Tree of the forest", list(range(len(ws.trees))),
                             format_func=lambda i: f"tree {i + 1}", key="kb_tree_pick")
        tree = ws.trees[t]
        nodes = tree_view_frame(tree, kb if ws.model is not None else None)
        st.caption(f"{len(nodes)} nodes, depth {tree.depth}. Click a node to see its clause.")
        shown = tree.depth
        if tree.depth > 4:
            shown = st.slider("Levels shown (deeper nodes are folded: …)", 1, tree.depth,
                              min(4, tree.depth), key=f"kb_tree_depth_{t}")
        node_key, pick_key, plot_key = f"kb_node_{t}", f"kb_node_pick_{t}", f"kb_tree_{t}"
        chosen = int(st.session_state.get(node_key, 0))
        # a click on the chart: its selection stays until cleared, so only a new one counts
        state = st.session_state.get(plot_key)
        pts = list(state["selection"]["points"]) if state and "selection" in state else []
        sig = repr(pts)
        if pts and sig != st.session_state.get(f"kb_tree_seen_{t}"):
            st.session_state[f"kb_tree_seen_{t}"] = sig
            chosen = node_of_point(pts[0], chosen)
        options = [int(i) for i in nodes["node"]]
        chosen = chosen if chosen in options else 0
        st.session_state[node_key] = chosen
        st.session_state[pick_key] = chosen
        figure(tree_figure(nodes, selected=chosen, max_depth=shown), key=plot_key, on_select="rerun",
               selection_mode=("points",))

        def _picked(node_key=node_key, pick_key=pick_key):
            st.session_state[node_key] = st.session_state[pick_key]

        st.selectbox("Node", options, key=pick_key, on_change=_picked,
                     format_func=lambda i: f"#{i} {nodes.loc[i, 'label']} "
                     f"(n={nodes.loc[i, 'count']}, p={nodes.loc[i, 'p']:.2f})")
        node_detail(nodes.loc[chosen], chosen)


def io_tab() -> None:
    st.markdown("**Export** the KB in use (with its rules).")
    full = ws.current_kb()
    e1, e2, e3 = st.columns(3)
    download("JSON", lambda: full.to_json().encode("utf-8"), file_name="plx-kb.json",
             mime="application/json", key="kb_dl_json", where=e1)
    download("Clause text", lambda: full.to_text().encode("utf-8"), file_name="plx-kb.txt",
             mime="text/plain", key="kb_dl_text", where=e2)
    download("CSV (safe to open in a spreadsheet)", lambda: kb_csv(full), file_name="plx-kb.csv",
             mime="text/csv", key="kb_dl_csv", where=e3)
    st.caption("In the CSV, text cells starting with = + - @ (or a tab) get a leading ' so a "
               "spreadsheet shows them instead of running them.")
    st.markdown("**Save the model** for the command line or Python.")
    if ws.model is None or ws.model.estimator is None:
        st.caption(md(wording.MODEL_FILE_NEEDS_DEFAULT))
    else:
        download("Model file (JSON, for plx predict)", lambda: model_file(ws),
                 file_name="plx-model.json", mime="application/json", key="kb_dl_model")
        st.caption(md(wording.model_file_said(
            ws.raw.options.get("missing", MISSING_MARKERS), ws.kb_settings.threshold,
            ws.rules_count()[1], None if ws.semantics == "auto" else ws.answer_semantics)))
    if order := class_order(ws):  # the model of the levels, as plx fit --class-order writes it
        if classes_fitted(ws):
            download("Model file of the ordered levels (JSON, for plx predict)",
                     lambda: levels_model_file(ws), file_name="plx-levels-model.json",
                     mime="application/json", key="kb_dl_levels")
        st.caption(md(wording.levels_file_said(order, classes_fitted(ws))))
    st.markdown(wording.MODEL_FILE_CHECK)
    checked = st.file_uploader("Model file (JSON or npz)", type=["json", "npz"], key="kb_model_check")
    if checked is not None:
        try:
            fc = check_model_file(ws, checked.getvalue())
            st.success(md(wording.model_file_check_said(fc.kind, fc.n_rows, fc.macro_f1,
                                                        fc.accuracy, fc.level_error, fc.differ)))
        except Exception as exc:  # plain words; nothing in use changes
            error(f"The model file could not answer this data: {exc}")
    st.markdown("**Import** a KB saved as JSON (its features must be this data's features).")
    up = st.file_uploader("KB JSON", type=["json"], key="kb_import")
    how = st.radio("Rules in the file", ["Merge with this project's rules",
                                         "Replace this project's rules"],
                   key="kb_import_rules", horizontal=True,
                   help="Merging keeps your rules and adds the file's new ones; a replaced "
                        "set stays in the rules history (Rules page) and can be restored.")
    if up is not None and st.button("Use the imported KB", key="kb_import_go"):
        try:
            base = ws.import_kb(up.getvalue(), rules="replace" if how.startswith("Replace") else "merge")
            st.success(md(f"Imported a KB ({KB_KINDS.get(base.kind, base.kind)}) with {len(base):,} clauses and "
                          f"{wording.plural(ws.rules_count()[0], 'rule')}."))
        except Exception as exc:  # plain words; the KB in use stays
            error(f"The file could not be used as a KB: {exc}")


for tab, body in zip(tabs, (browse_tab, tree_tab, io_tab)):
    if tab.open is not False:  # None when the tabs do not track state: run them all
        with tab:
            body()
