"""The dashboard answers as the estimator does: it opens (and switches to an upload) on plx's
default, the model `PLXClassifier()` fits on the training rows, built-in set included; it types
and cuts columns as the estimator; it numbers an upload's rows by their line in the file and
reads its decimal mark as `plx fit` does."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from plx_app.service import (
    KBSettings,
    new_workspace,
    prepare,
    raw_default,
    read_upload,
    use_data,
)
from plx_app.service.explain import ws_explain
from plx_app.service.instances import instance_from_row
from plx_core import Discretizer, PLXClassifier
from plx_core.cli import fit_model, read_rows
from plx_core.data import infer_schema
from plx_core.errors import DataError
from plx_core.vote import FINE_BINS


def clinic(n: int = 300, seed: int = 1) -> pd.DataFrame:
    """Small whole numbers (children 0–4 with missing cells, grade 1–3), a dose with four
    non-whole values, a measurement with decimals and missing cells, an age; sick mostly
    when old or of grade 3."""
    r = np.random.default_rng(seed)
    df = pd.DataFrame({"children": r.integers(0, 5, n).astype(float), "grade": r.integers(1, 4, n),
                       "dose": r.choice([0.5, 1.5, 2.5, 3.5], n),
                       "bmi": np.round(r.normal(27, 4, n), 1), "age": r.integers(20, 90, n)})
    sick = ((df["age"] > 60) | (df["grade"] == 3)) ^ (r.random(n) < 0.08)
    df["outcome"] = np.where(sick, "sick", "well")
    df.loc[r.random(n) < 0.1, "bmi"] = np.nan
    df.loc[r.random(n) < 0.1, "children"] = np.nan
    return df


TABLE = clinic()
CSV = TABLE.to_csv(index=False).encode()
FEATURES = [c for c in TABLE.columns if c != "outcome"]


def at_lines(index) -> pd.DataFrame:
    """TABLE's rows (as pandas reads the CSV) at the upload's index: lines (header = line 1)."""
    return TABLE.iloc[[int(i) - 2 for i in index]][FEATURES].set_axis(index)


@pytest.fixture(scope="module")
def upload_ws():
    raw = read_upload(CSV, "clinic.csv")
    return new_workspace(raw, replace(raw.defaults, positive="sick"))


def test_an_upload_is_typed_cut_and_answered_as_the_estimator(upload_ws):
    ws = upload_ws
    assert ws.kb_settings.kind == "auto" and ws.model is not None  # plx's default
    X, y = ws.part("train")
    est = PLXClassifier(positive="sick", random_state=0).fit(at_lines(X.index), y.astype(str))
    schema = ws.dataset.schema
    # same column typing: the dose (four non-whole values) is binned, small whole numbers
    # (children with missing cells, grade) stay categories
    assert {f for f, k in schema.kinds.items() if k == "numeric"} == set(est.cuts_) \
        == {"dose", "bmi", "age"}
    assert {f: b.cuts for f, b in schema.bins.items()} == dict(est.cuts_)
    # the same model, threshold and answers on every test row (missing cells unknown)
    assert ws.model.chosen == est.chosen_ and ws.threshold == est.threshold_
    rows = at_lines(ws.X_test.index)
    dec, ref = ws.decisions("test"), est.bounds(rows)
    assert np.allclose(dec["lower"], ref["lower"]) and np.allclose(dec["upper"], ref["upper"])
    assert (dec["decision"] == "POS").tolist() == (est.predict(rows) == "sick").tolist()
    # the explanation of a row with an unknown feature is the estimator's
    i = next(j for j in ws.X_test.index if pd.isna(ws.X_test.loc[j, "bmi"]))
    values = {f: v for f, v in ws.X_test.loc[i].items() if pd.notna(v)}
    mine = ws_explain(ws, values, 2)
    theirs = est.explain(at_lines([i]), k=2)
    assert mine.features.keys() == theirs.features.keys()
    assert (mine.bounds.lower, mine.bounds.upper) == pytest.approx(
        (theirs.bounds.lower, theirs.bounds.upper))


def test_a_grade_the_default_reads_as_ordered_numbers_is_cut_there_as_the_estimator():
    """A 1–5 grade whose risk steps up from 4 beside a ward code: where plx's default reads the
    grade as ordered numbers (its race of the two readings), the dashboard cuts it there — the
    column numeric with the model's bins in the rows and the schema, the same answers as the
    estimator — and the ward stays one level a ward."""
    r = np.random.default_rng(3)
    n = 600
    grade, ward, age = r.integers(1, 6, n), r.integers(1, 8, n), r.integers(20, 90, n)
    z = 1.6 * (grade >= 4) + 1.4 * np.isin(ward, [2, 6]) + 0.02 * (age - 55) - 1.4
    table = pd.DataFrame({"grade": grade, "ward": ward, "age": age,
                          "risk": np.where(r.random(n) < 1 / (1 + np.exp(-z)), "yes", "no")})
    feats = ["grade", "ward", "age"]
    raw = read_upload(table.to_csv(index=False).encode(), "grades.csv")
    for seed in range(6):  # a split whose default reads the grade as numbers
        ws = new_workspace(raw, replace(raw.defaults, label="risk", positive="yes", seed=seed))
        if "grade" in ws.model.bins:
            break
    assert "grade" in ws.model.bins, "no split of six read the grade as numbers"
    X, y = ws.part("train")
    lines = lambda idx: table.iloc[[int(i) - 2 for i in idx]][feats].set_axis(idx)  # noqa: E731
    est = PLXClassifier(positive="yes", random_state=0).fit(lines(X.index), y.astype(str))
    assert est.whole_read_ == {"grade": "numbers", "ward": "levels"}
    schema = ws.dataset.schema
    assert schema.kinds["grade"] == "numeric" and schema.kinds["ward"] == "categorical"
    assert schema.bins["grade"].cuts == est.cuts_["grade"]
    assert set(ws.X_test["grade"].dropna()) <= set(schema.bins["grade"].labels)
    rows = lines(ws.X_test.index)
    dec, ref = ws.decisions("test"), est.bounds(rows)
    assert np.allclose(dec["lower"], ref["lower"]) and np.allclose(dec["upper"], ref["upper"])
    i = ws.X_test.index[0]
    mine = ws_explain(ws, instance_from_row(*ws.part("test"), i, "test").known(), 2)
    assert mine.features == est.explain(lines([i]), k=2).features


def test_plx_fit_types_the_same_table_as_the_estimator(tmp_path):
    path = tmp_path / "clinic.csv"
    path.write_bytes(CSV)
    model = fit_model(path, "outcome", "sick", say=lambda m: None)
    est = PLXClassifier(positive="sick", random_state=0).fit(TABLE[FEATURES], TABLE["outcome"])
    assert {f: b.cuts for f, b in model.schema.bins.items()} == dict(est.cuts_)


def test_the_diagnosis_set_is_cut_on_the_training_rows_as_the_estimator():
    ws = new_workspace()
    assert ws.kb_settings.kind == "auto" and ws.model is not None
    assert ws.settings.cut_on == "train"
    raw = raw_default()
    X, y = ws.part("train")
    numbers = raw.frame.loc[X.index, list(ws.features)]
    # plx's default is PLXClassifier() fitted on the raw training rows, cut where it cuts
    est = PLXClassifier(positive="malignant", random_state=0).fit(numbers, y.astype(str))
    assert ws.model.chosen == est.chosen_ and ws.threshold == est.threshold_
    assert {f: b.cuts for f, b in ws.dataset.schema.bins.items()} == dict(est.cuts_)
    rows = raw.frame.loc[ws.X_test.index, list(ws.features)]
    ref, dec = est.bounds(rows), ws.decisions("test")
    assert np.allclose(dec["lower"], ref["lower"]) and np.allclose(dec["upper"], ref["upper"])
    # the Data page's bins: the estimator's discretiser (its default: MDLP, at most 4 bins)
    # on the training rows, what the paper's KBs are built on
    cuts = Discretizer().fit(numbers, y.astype(str)).cuts_
    direct = ws.fork()
    direct.set_kb(KBSettings("direct"))
    assert {f: b.cuts for f, b in direct.dataset.schema.bins.items()} == dict(cuts)
    # test rows never move a cut point
    frame = raw.frame.copy()
    frame.loc[ws.X_test.index, "worst radius"] = 1000.0
    moved = new_workspace(replace(raw, frame=frame), ws.settings, build=False)
    assert moved.dataset.schema.bins["worst radius"].cuts == direct.dataset.schema.bins["worst radius"].cuts


def rare_csv(n: int = 1000) -> tuple[pd.DataFrame, bytes]:
    """30% positives adding up 1.5·x1 − x2 + 0.5·x4² (`datasets.rare_positives`), eight
    numbers and two categories: `PLXClassifier()` answers with the smooth vote on 32 equal-frequency
    bins per number ("direct-vote bins=32"), not on MDLP's cut points."""
    from plx_core.datasets import rare_positives

    X, y = rare_positives(0.3, n=n, seed=0)
    cols = [f"x{i}" for i in range(1, 9)] + ["c1", "c2"]
    table = X[cols].assign(label=y.to_numpy())
    return table, table.to_csv(index=False).encode()


@pytest.mark.slow
def test_the_default_answers_on_its_own_cut_points_as_the_estimator():
    # the same CSV: the dashboard's default is PLXClassifier() on the raw training rows — the
    # vote on finer bins answers, and its cut points are used for queries, explanations,
    # row lists and the model panel while it answers (the Data page keeps its MDLP bins)
    table, csv = rare_csv()
    feats = [c for c in table.columns if c != "label"]
    raw = read_upload(csv, "rare.csv")
    lines = lambda idx: table.iloc[[int(i) - 2 for i in idx]][feats].set_axis(idx)  # noqa: E731
    for seed in range(20):  # a split whose default is the vote on finer bins
        ws = new_workspace(raw, replace(raw.defaults, label="label", positive="yes", seed=seed))
        scores = ws.model.scores
        if scores.loc[scores["answers"], "candidate"].tolist() == ["direct-vote bins=32"]:
            break
    X, y = ws.part("train")
    est = PLXClassifier(positive="yes", random_state=0).fit(lines(X.index), y.astype(str))
    assert est.selection_.key == "direct-vote bins=32"
    assert ws.model.chosen == est.chosen_ == "direct-vote" and ws.threshold == est.threshold_
    # the cut points in effect are the model's, in the rows and in the model panel
    assert {f: b.cuts for f, b in ws.dataset.schema.bins.items()} == dict(est.cuts_)
    panel = ws.model_cut_points()
    assert panel is not None and len(panel) == 8
    assert all(len(c.split(", ")) == FINE_BINS - 1 for c in panel["cut points"])
    # the same bounds and decisions on every test row
    rows = lines(ws.X_test.index)
    dec, ref = ws.decisions("test"), est.bounds(rows)
    assert np.allclose(dec["lower"], ref["lower"]) and np.allclose(dec["upper"], ref["upper"])
    assert (dec["decision"] == "POS").tolist() == (est.predict(rows) == "yes").tolist()
    # a row picked from the list is queried and explained as the estimator does
    i = ws.X_test.index[3]
    inst = instance_from_row(*ws.part("test"), i, "test")
    b = ws.query(inst)
    assert (b.lower, b.upper) == pytest.approx((ref["lower"].iloc[3], ref["upper"].iloc[3]))
    mine, theirs = ws_explain(ws, inst.known(), 2), est.explain(lines([i]), k=2)
    assert mine.features == theirs.features
    # another KB kind answers on the Data page's bins (MDLP's), and back again
    other = ws.fork()
    other.set_selected(inst)
    other.set_kb(KBSettings("direct"))
    assert other.model_cut_points() is None
    assert other.dataset.schema.bins["x1"].cuts != est.cuts_["x1"]
    assert other.selected is not None and other.selected.row == i
    assert other.selected.known() == {f: v for f, v in other.X_test.loc[i].items() if pd.notna(v)}
    other.set_kb(KBSettings())
    assert other.kb is ws.kb and other.dataset.schema.bins["x1"].cuts == est.cuts_["x1"]
    assert other.selected.known() == inst.known()
    # a binning the user chose on the Data page is what plx's default is fitted on
    chosen = new_workspace(raw, replace(ws.settings, method="quantile", bins=3))
    assert chosen.model_cut_points() is None
    assert all(len(b.cuts) == 2 for b in chosen.dataset.schema.bins.values())
    assert set(chosen.kb.domains["x1"]) <= set(chosen.dataset.schema.bins["x1"].labels)


def test_direct_and_tree_stay_selectable_and_answer_at_one_half(upload_ws):
    ws = upload_ws.fork()
    default_kb, t = ws.kb, ws.threshold
    ws.set_kb(KBSettings("direct"))
    assert ws.kb.kind == "direct" and ws.model is None and ws.threshold == 0.5
    ws.set_kb(KBSettings("tree"))
    assert ws.kb.kind == "tree" and ws.model is None
    ws.set_kb(KBSettings())  # back to plx's default, from the session's cache
    assert ws.kb is default_kb and ws.kb_cached and ws.threshold == t


def test_switching_to_another_table_goes_back_to_plx_default():
    ws = new_workspace(kb=KBSettings("direct"))
    raw = read_upload(CSV, "clinic.csv")
    use_data(ws, raw, replace(raw.defaults, positive="sick"))
    ws.ensure_kb()
    assert ws.kb_settings.kind == "auto" and ws.model is not None
    ws.set_kb(KBSettings("direct"))  # the same table with other settings keeps the choice
    use_data(ws, raw, replace(ws.settings, seed=1))
    assert ws.kb_settings.kind == "direct"


def test_upload_rows_are_numbered_by_their_line_as_plx_fit_numbers_them(tmp_path):
    text = "a,b,y\n1,x,yes\n\n2,x,no\n3,oops,yes\n4,x,no\n5,x,yes\n"  # a blank line 3
    raw = read_upload(text.encode(), "lines.csv")
    assert list(raw.frame.index) == [2, 4, 5, 6, 7]
    path = tmp_path / "lines.csv"
    path.write_text(text)
    cli = read_rows(path, say=lambda m: None)
    assert list(cli.frame.index) == list(raw.frame.index)
    # one message, one numbering: a column declared numeric holding text names its line
    with pytest.raises(DataError) as mine:
        prepare(raw, replace(raw.defaults, label="y", positive="yes", numeric=("b",)))
    with pytest.raises(DataError) as theirs:
        infer_schema(cli.frame, "y", "yes", numeric=["b"])
    assert str(mine.value) == str(theirs.value) and "line 2 (data row 1) " in str(mine.value)


def test_decimal_mark_of_an_upload_is_plx_fits(tmp_path):
    # a ';' file written with '.' decimals and three places reads as thousands by default
    r = np.random.default_rng(4)
    x = np.round(r.uniform(1, 3, 80), 3)
    lines = ["dose;y"] + [f"{v:.3f};{'yes' if v > 2 else 'no'}" for v in x]
    data = ("\n".join(lines) + "\n").encode()
    default = prepare(read_upload(data, "d.csv"), replace(read_upload(data, "d.csv").defaults,
                                                            positive="yes"))
    named = read_upload(data, "d.csv", decimal=".")
    ds = prepare(named, replace(named.defaults, positive="yes"))
    assert max(default.schema.bins["dose"].cuts) > 100  # 1.250 read as 1250
    assert max(ds.schema.bins["dose"].cuts) < 3  # read as 1.25, as plx fit --decimal . does
    path = tmp_path / "d.csv"
    path.write_bytes(data)
    model = fit_model(path, "y", "yes", say=lambda m: None, decimal=".")
    assert model.schema.bins["dose"].number_format == ds.schema.bins["dose"].number_format
    with pytest.raises(DataError, match="decimal mark"):
        read_upload(data, "d.csv", decimal=";")
    assert named.options["decimal"] == "." and named.fingerprint != read_upload(data, "d.csv").fingerprint


def test_a_named_decimal_point_reads_an_uploads_1_234_column_as_thousands():
    # incomes written 12,345: not guessed (said, naming the decimal mark); with '.' named
    # the decimal mark, ',' separates thousands, as plx fit --decimal . reads them
    r = np.random.default_rng(67)
    v = r.integers(1_000, 99_999, 120)
    data = ("income,g,y\n" + "".join(f'"{x:,}",{g},{"hi" if x > 50_000 else "lo"}\n'
                                      for x, g in zip(v, r.choice(["a", "b"], 120)))).encode()
    raw = read_upload(data, "d.csv")
    ds = prepare(raw, replace(raw.defaults, positive="hi"))
    assert "income" in ds.schema.excluded and "decimal mark" in ds.schema.excluded["income"]
    named = read_upload(data, "d.csv", decimal=".")
    ds = prepare(named, replace(named.defaults, positive="hi"))
    assert ds.schema.bins["income"].number_format == "thousands"
    assert any(40_000 < c < 60_000 for c in ds.schema.bins["income"].cuts)  # not 12.345


@pytest.mark.slow
def test_case_report_and_global_view_explain_as_the_estimator_under_the_default():
    # the tuned Direct KB answers the clinic table; PLXClassifier.explain searches the full
    # Direct KB on the side answered: so do the Query page, the case report and the global view
    import html
    import re
    from collections import Counter

    from plx_app.service.insight import ws_case_report, ws_global_view
    from plx_core import wording

    raw = read_upload(CSV, "clinic.csv")
    ws = new_workspace(raw, replace(raw.defaults, positive="sick")).fork()
    assert ws.model.searched is not None and ws.model.searched is not ws.kb
    X, y = ws.part("test")
    rows = X.iloc[:40]
    mine = {i: ws_explain(ws, {f: v for f, v in X.loc[i].items() if pd.notna(v)}, 2)
            for i in rows.index}
    inst = instance_from_row(X, y, rows.index[0], "test")
    page = ws_case_report(ws, inst)
    why = re.search(r"<h2>Why</h2>\s*<p>([^<]*)</p>", page).group(1)
    assert html.unescape(why) == wording.explanation_sentence(mine[rows.index[0]], ws.class_name)
    g = ws_global_view(ws.fork(), k=2, max_rows=len(X))
    used = Counter(f for i in X.index for f in ws_explain(
        ws, {f: v for f, v in X.loc[i].items() if pd.notna(v)}, 2).features)
    assert dict(zip(g.features["feature"], g.features["in_explanation"])) == \
        {f: used.get(f, 0) for f in g.features["feature"]}
    assert g.positive_rows == int((ws.decisions("test")["decision"] == "POS").sum())


def test_a_one_class_label_is_refused_in_plx_fits_words(tmp_path):
    # one wording for a label of one class (`encoding.one_class`): the Data page says what
    # plx fit and the estimator say
    text = "x,y\n" + "".join(f"{i % 3},same\n" for i in range(12))
    raw = read_upload(text.encode(), "one.csv")
    with pytest.raises(DataError) as page:
        prepare(raw, replace(raw.defaults, label="y", positive="same"))
    path = tmp_path / "one.csv"
    path.write_text(text)
    with pytest.raises(DataError) as cli:
        fit_model(path, "y", "same", say=lambda m: None)
    assert str(page.value) == str(cli.value)
    assert str(page.value) == ("the label 'y' has only one class ('same', in every row); plx "
                               "needs rows of both outcomes")
