"""Data: pick or upload a table, choose the label and positive class, column types,
discretisation and missing markers, preview, and the split."""

from __future__ import annotations

import streamlit as st

from plx_app.service import (
    BUILTIN,
    DEFAULT_NAME,
    DataSettings,
    column_overview,
    cut_points,
    keep_cuts,
    label_values,
    positive_choice,
    positive_note,
    shared_available,
    use_data,
    validate,
)
from plx_app.service.tables import (
    CUT_METHODS,
    ENCODINGS,
    UPLOAD_TYPES,
    case_candidates,
    case_column_named,
    upload_limits,
)
from plx_app.state import load_builtin, load_shared, load_upload, page_setup, split_table
from plx_app.widgets import Progress, error, guard, md
from plx_core import wording
from plx_core.data import MISSING_MARKERS, id_columns, is_parquet, suggest_label
from plx_core.errors import PLXError
from plx_core.ordered import class_order_of, order_from_text, recognised_order, scale_order

ws = page_setup()
st.title("Data")

n_rows, n_feat = ws.dataset.X.shape
st.markdown(f"**In use:** {md(ws.dataset.name)}")
st.caption(md(ws.dataset.description))
c2, c3, c4 = st.columns(3)
c2.metric("Rows × features", f"{n_rows:,} × {n_feat:,}")
c3.metric("Positive class", ws.positive)
c4.metric("Train / test rows", f"{ws.n_train_rows:,} / {len(ws.X_test):,}")
if ws.settings.class_order:  # the model of every class answers a level (section 2)
    st.caption(md(wording.levels_in_use_said(ws.settings.class_order)))
st.caption(md(wording.split_sentence(n_rows, ws.n_train_rows, len(ws.X_train),
                                     len(ws.X_test), ws.settings.balance, ws.settings.test_size,
                                     n_copies=int(ws.copies()[0].sum()), learner=ws.learner)))

st.subheader("1. Choose a table")
SOURCES = ["Built-in", "Shared data set", "Upload a CSV"]
source = st.radio("Source", SOURCES, horizontal=True, key="data_source",
                  index=SOURCES.index({"builtin": "Built-in", "shared": "Shared data set",
                                       "upload": "Upload a CSV"}[ws.raw.source]))

raw = None
if source == "Built-in":
    names = list(BUILTIN)
    current = ws.raw.name if ws.raw.source == "builtin" and ws.raw.name in BUILTIN else DEFAULT_NAME
    name = st.selectbox("Built-in data set", names, index=names.index(current),
                        format_func=lambda n: BUILTIN[n], key="data_builtin")
    with guard("Loading the data set"):
        raw = ws.raw if ws.raw.source == "builtin" and ws.raw.name == name else load_builtin(name)
elif source == "Shared data set":
    avail = shared_available()
    if not avail:
        st.info("The shared data sets folder (../shared/datasets, or $PLX_DATA_DIR) is not "
                "present on this machine. Upload the file instead.")
    else:
        current = ws.raw.name if ws.raw.source == "shared" else avail[0]
        name = st.selectbox("Shared data set", avail, key="data_shared",
                            index=avail.index(current) if current in avail else 0)
        with guard("Loading the shared data set"):
            raw = ws.raw if ws.raw.source == "shared" and ws.raw.name == name else load_shared(name)
else:
    up = st.file_uploader("CSV file (comma, semicolon, tab or pipe separated) or Parquet file",
                          type=list(UPLOAD_TYPES), key="data_upload",
                          help=upload_limits())
    u1, u2, u3 = st.columns(3)
    header = u1.checkbox("First row holds the column names", value=True, key="data_header")
    encoding = u1.selectbox("Text encoding", list(ENCODINGS), format_func=ENCODINGS.get,
                            key="data_encoding",
                            index=list(ENCODINGS).index(ws.raw.options.get("encoding", "utf-8"))
                            if ws.raw.source == "upload" else 0,
                            help="As plx fit --encoding: a file that is not UTF-8 is refused "
                                 "naming its first odd byte and how it reads in Windows-1252.")
    missing_txt = u2.text_input("Missing-value markers (comma separated; empty cells are "
                                "always missing)", value=", ".join(m for m in MISSING_MARKERS if m),
                                key="data_missing",
                                help="The same markers the plx command line reads as missing "
                                     "(plx_core.data.MISSING_MARKERS). Remove one that is a real "
                                     "value in your table (e.g. NA for North America).")
    DECIMALS = {None: "as the file's separator says ('1.234' is a thousand in a ';' file)",
                ".": "'.' (1.5, 1,234.5)", ",": "',' (1,5, 1.234,5)"}
    decimal = u3.selectbox("Decimal mark of numbers written as text", list(DECIMALS),
                           format_func=DECIMALS.get, key="data_decimal",
                           index=list(DECIMALS).index(ws.raw.options.get("decimal"))
                           if ws.raw.source == "upload" else 0,
                           help="As plx fit --decimal: by default a ';'-separated file reads "
                                "',' as the decimal mark and '1.234' as a thousand; name the "
                                "mark when the file writes numbers otherwise.")
    missing = tuple(dict.fromkeys(["", *(m.strip() for m in missing_txt.split(",") if m.strip())]))
    u2.caption(md("Read as missing: empty cells, " + ", ".join(m for m in missing if m)
                  if len(missing) > 1 else "Read as missing: empty cells only."))
    if up is None:
        if ws.raw.source == "upload":
            raw = ws.raw
            st.caption(f"In use: {md(ws.raw.name)}. Upload another file to replace it.")
        else:
            st.info("Upload a file to continue. Titanic (train.csv), Mushroom "
                    "(agaricus-lepiota.data: untick the header box) and the HIV-1 protease files "
                    "(untick the header box, then split the octamer column into characters) work.")
    else:
        data = up.getvalue()
        if is_parquet(data):
            u1.caption("A Parquet file: its column names and types (numbers, dates, booleans) "
                       "come from the file; the box above does not apply.")
        with guard("Reading the file"):
            first = load_upload(data, up.name, header, missing, None, decimal, encoding)
            text_cols = ["(none)"] + [c for c in first.frame.columns
                                      if first.frame[c].notna().all()
                                      and first.frame[c].astype(str).str.len().nunique() == 1
                                      and 2 <= first.frame[c].astype(str).str.len().iloc[0] <= 64]
            split = u3.selectbox("Split a text column into one feature per character",
                                 text_cols, key="data_split")
            raw = first if split == "(none)" else load_upload(data, up.name, header, missing,
                                                              split, decimal, encoding)

if raw is None:
    st.stop()

same = raw.fingerprint == ws.raw.fingerprint
base = ws.settings if same else raw.defaults
fp = raw.fingerprint  # widget keys carry the table's fingerprint: a new table resets them

st.subheader("2. Label and positive class")
cols = list(raw.frame.columns)
l1, l2 = st.columns(2)
label = l1.selectbox("Label column", cols, key=f"data_label_{fp}",
                     index=cols.index(base.label) if base.label in cols else len(cols) - 1)
if not same:
    guess = suggest_label(raw.frame)
    if label == guess.column:
        st.caption(md(f"Suggested label: {guess.column}, because {guess.reason}. Choose another "
                      "column above if that is not the outcome to predict."))
n_unlabelled = int(raw.frame[label].isna().sum())
drop_unlabelled = False
if n_unlabelled:
    drop_unlabelled = st.checkbox(
        f"Leave out the {wording.counted(n_unlabelled, 'row')} without a label (of {len(raw.frame):,})",
        value=bool(base.drop_unlabelled) if label == base.label else False,
        key=f"data_drop_{fp}_{label}",
        help="plx learns from labelled rows only; without this the table cannot be used.")
values = label_values(raw, label)
pos_default = positive_choice(values, base.positive if label == base.label else None)
if len(values) > 30:
    error(f"The label {label!r} has {len(values)} different values; choose a column with a few "
          "classes (a yes/no outcome).")
    st.stop()
positive = l2.selectbox("Positive class", values, index=pos_default, key=f"data_pos_{fp}_{label}")
if len(values) > 2:
    st.caption(md(f"The label has {len(values)} classes: {positive!r} is the positive class, every "
                  f"other class counts as not {positive} on every page; the Query page also picks each instance's "
                  f"class among all {len(values)}."))
    if not (base.positive == positive and label == base.label) and positive_note(values, positive):
        st.caption(md(positive_note(values, positive)))  # a start, not an assumed class
elif not (base.positive == positive and label == base.label) and positive_note(values, positive):
    st.caption(md(positive_note(values, positive)))  # a start to check, never a silent guess
class_order, order_bad = None, False
known = recognised_order(values) if len(values) > 2 else None
saved_order = base.class_order if label == base.label else None
if known is not None or saved_order:  # a known scale (plx fit's hint), or the project's order
    # on at first sight for a known scale's words, as plx's default fits them (class_order="scale")
    start = bool(saved_order) if same and label == base.label else scale_order(values) is not None
    if st.checkbox(wording.ORDERED_CHOICE, value=start, key=f"data_ordered_{fp}_{label}",
                   help="As plx fit --class-order: the model of every class answers a level."):
        typed = st.text_input(wording.ORDER_INPUT, value=", ".join(saved_order or known or values),
                              key=f"data_order_{fp}_{label}")
        try:
            class_order = tuple(class_order_of(values, order_from_text(typed), "The order",
                                               f"the label {label!r}"))
            st.caption(md(wording.ordered_offer_said(  # numbers may be codes: not said a scale
                class_order, bool(wording.ordered_hint(values)))))
        except PLXError as exc:  # one line naming the class; the data is not used until it fits
            error(str(exc))
            order_bad = True

st.subheader("3. Columns")
overview_box = st.empty()  # drawn below, once the features are chosen

# the automatic choice: what infer_schema keeps and which columns it reads as numbers
auto_feats, auto_num, auto_excluded, auto_grouped = [c for c in cols if c != label], [], {}, {}
case_named = None  # the column the several-rows-a-case note names
case_pick: list[str] = []  # the columns the user may name the case column, when none is named
try:
    from plx_core.data import grouped_said, infer_schema

    auto = infer_schema(raw.frame[raw.frame[label].notna()], label, positive,  # labelled rows
                        delimiter=raw.delimiter)
    auto_feats = list(auto.features)
    auto_num = [f for f in auto.features if auto.kinds[f] == "numeric"]
    auto_excluded = dict(auto.excluded)
    auto_grouped = {c: grouped_said(kept, int(raw.frame[c].nunique()), s=raw.frame[c])
                    for c, kept in auto.grouped.items()}
    case_named = case_column_named(raw.frame, label, auto)
    case_pick = [] if case_named else case_candidates(raw.frame, label, auto)
except (PLXError, ValueError):
    pass
if same and label == base.label and base.features is not None:
    feat_default = [c for c in base.features if c in cols and c != label]
    num_default = [c for c in base.numeric if c in feat_default]
else:
    feat_default = auto_feats
    num_default = auto_num
feature_opts = [c for c in cols if c != label]
features = st.multiselect("Features to use", feature_opts, default=feat_default,
                          key=f"data_features_{fp}_{label}")
overview = column_overview(raw, DataSettings(label, positive, tuple(features)))
overview_box.dataframe(overview, hide_index=True, width="stretch",
                       height=min(38 + 35 * len(overview), 300))
if auto_excluded:
    st.caption(md("Left out by default: " + "; ".join(f"{c} ({why})" for c, why in auto_excluded.items())
                  + ". Add a column back above to use it anyway."))
if auto_grouped:
    st.caption(md("Grouped: " + "; ".join(f"{c} ({why})" for c, why in auto_grouped.items())
                  + "."))
kept_case = ws.settings.case_column  # the data in use's (a project's saved) case column
case_offer = kept_case if kept_case in cols and kept_case != label else case_named
case_column = None
offered = (case_pick if case_named is None and case_pick
           else [case_offer] if case_offer is not None and case_offer in cols and case_offer != label
           else [])
if kept_case is not None and kept_case not in offered:  # said once, never dropped silently
    st.info(md(wording.case_column_dropped(kept_case, kept_case in cols, kept_case == label,
                                           bool(offered))))
if case_named is None and case_pick:
    # no column reads like one (a visit's own outcome varies within a patient): name it
    NONE = "(none: each row is its own case)"
    saved = kept_case if same and label == base.label else None  # confirmed on this table only
    options = [NONE, *case_pick]
    chosen = st.selectbox(
        "Several rows a case? The case column", options,
        index=options.index(saved) if saved in options else 0, key=f"data_caseof_{fp}_{label}",
        help="A column naming each row's case (a patient with one row a visit), as plx fit "
             "--case-column: it is no feature, the test rows are whole cases, and plx's default "
             "keeps a case's rows on one side of the folds it scores its candidates on.")
    if chosen != NONE:
        case_column = chosen
        features = [c for c in features if c != case_column]
elif case_offer is not None and case_offer in cols and case_offer != label:
    if st.checkbox(f"Several rows a case: use {md(case_offer)} as the case column",
                   value=bool(same and label == base.label and kept_case == case_offer),
                   key=f"data_case_{fp}_{label}",
                   help="Its values name cases (a patient with one row a visit): it is no "
                        "feature, the test rows are whole cases, and plx's default keeps a "
                        "case's rows on one side of the folds it scores its candidates on (as "
                        "plx fit --case-column)."):
        case_column = case_offer
        features = [c for c in features if c != case_column]
numeric_opts = [c for c in features if bool(overview.set_index("column").loc[c, "numbers"])]
numeric = st.multiselect("Numeric columns to cut into bins (others are categorical)",
                         numeric_opts, default=[c for c in num_default if c in numeric_opts],
                         key=f"data_numeric_{fp}_{label}")
b1, b2 = st.columns(2)
method = b1.selectbox("Where to cut numeric columns into bins", list(CUT_METHODS),
                      index=list(CUT_METHODS).index(base.method) if base.method in CUT_METHODS else 0,
                      format_func=CUT_METHODS.get, key=f"data_method_{fp}",
                      help="Cut points are found on the training rows only, by the same "
                           "method as PLXClassifier and plx fit (the default is theirs).")
bins = b2.slider("Bins per numeric column (at most, where cut by the outcome)", 2, 10,
                 int(base.bins), key=f"data_bins_{fp}")
per_column: dict[str, int] = dict(base.bins_per_column) if same else {}
if numeric:
    with st.expander("Bins for single columns"):
        for c in numeric:
            v = st.number_input(f"Bins for {md(c)} (0 = as above)", 0, 20, int(per_column.get(c, 0)),
                                key=f"data_bins_{fp}_{c}")
            if v >= 2:
                per_column[c] = int(v)
            else:
                per_column.pop(c, None)

st.subheader("4. Split")
s1, s2, s3 = st.columns(3)
test_size = s1.slider("Test share", 0.1, 0.5, float(base.test_size), 0.05, key="data_test_size")
seed = s2.number_input("Random seed", 0, 10_000, int(base.seed), key="data_seed")
BAL = {"train": "balance the training part",
       "before": "balance all, then split",
       "none": "no balancing"}
balance = s3.selectbox("Class balance", list(BAL), index=list(BAL).index(base.balance),
                       format_func=BAL.get, key="data_balance",
                       help="Balancing repeats rows of every smaller class for the paper's KB "
                            "kinds and the baselines; plx's default weighs the classes equally "
                            "instead (as plx fit), and with 'no balancing' learns the rows' own "
                            "mix. 'Balance the training part' keeps the test part's true mix; "
                            "'balance all, then split' is the paper's protocol (repeated rows can "
                            "land on both sides: optimistic scores).")

settings = DataSettings(
    label=label, positive=positive, features=tuple(features),
    numeric=tuple(numeric), categorical=tuple(c for c in features if c not in numeric),
    method=method, bins=int(bins), bins_per_column=tuple(sorted(per_column.items())),
    test_size=float(test_size), seed=int(seed), balance=balance, drop_unlabelled=drop_unlabelled,
    case_column=case_column, class_order=class_order,
)
settings = keep_cuts(base, settings)  # cut on training rows once the user changes the binning

st.subheader("5. Preview")
prepared = None
with guard("The settings do not give a usable table"):
    # cut points fitted on the training rows (one split a table and settings: cached)
    prepared = split_table(raw, raw.fingerprint, repr(settings), settings).dataset
if prepared is not None:
    notes = validate(prepared, "auto", None, raw.frame, id_columns(auto_excluded),
                     settings.case_column)
    for level, text in notes:
        if level == "warning":
            st.warning(md(text))
    st.info("  \n".join(md(t) for level, t in notes if level != "warning"))
    if raw.source == "upload" and any("--decimal" in t for _, t in notes):
        st.caption("To read these numbers with the other decimal mark, choose it under "
                   "\"Decimal mark of numbers written as text\" above (plx fit's --decimal).")
    cuts = cut_points(prepared)
    if len(cuts):
        in_use = same and settings == ws.settings and ws.kb is not None
        own = ws.model_cut_points() if in_use else None
        st.caption(wording.cut_points_caption(in_use, settings.cuts_as_estimator(),
                                              own is not None))
        st.dataframe(cuts if own is None else own, hide_index=True, width="stretch",
                     key="data_cut_points")
        if own is not None:
            with st.expander(wording.PAGE_BINS_SAID):
                st.dataframe(cuts, hide_index=True, width="stretch", key="data_page_cut_points")
    st.dataframe(prepared.frame().head(20), width="stretch", height=300, placeholder="(missing)")

unchanged = same and settings == ws.settings
if st.button("Use this data", type="primary", disabled=prepared is None or unchanged or order_bad,
             key="data_apply", help="Prepares the table, splits it and builds the KB."):
    with guard("Switching to the new data"):
        notes = use_data(ws, raw, settings)
        with Progress("Building the knowledge base…") as bar:
            ws.ensure_kb(bar)
        # rerun so that the whole page (the "In use" header first) shows the new data
        st.session_state["data_done"] = (
            wording.rows_in_use(ws.dataset.name, ws.n_train_rows, len(ws.X_train),
                                len(ws.X_test), ws.learner)
            + f"; {ws.kb_name} KB with {len(ws.kb):,} clauses built in "
            f"{ws.build_seconds:.2f} s" + (f": it answers with {ws.model.name}, decision "
                                           f"threshold {ws.threshold_said()}." if ws.model else "."),
            notes)
        st.rerun()
if "data_done" in st.session_state:
    done, notes = st.session_state.pop("data_done")
    st.success(md(done))
    for n in notes:
        st.info(md(n))
if unchanged:
    st.caption("These settings are the ones in use.")
elif prepared is not None:  # what a refresh keeps is the project's: said before it is lost
    st.caption(md(wording.DATA_NOT_KEPT_YET))
