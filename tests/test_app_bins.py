"""The dashboard cuts numeric columns as `PLXClassifier` and `plx fit` do: the engine's one
discretiser (`plx_core.discretize`), fitted on the training rows only, its cut points shown on
the Data page, and the dashboard's answers for a row equal to the estimator's and the CLI's."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from plx_app.service import KBSettings, cut_points, new_workspace, read_upload, split
from plx_core import Discretizer, PLXClassifier
from plx_core.cli import Model, fit_model

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
APP = str(ROOT / "app.py")
FEATURES = ["age", "income", "colour"]


def people(n: int = 240, seed: int = 3) -> pd.DataFrame:
    """Whole-number ages 20–80, incomes with decimals, a colour; outcome mostly age > 62."""
    r = np.random.default_rng(seed)
    age = r.integers(20, 81, n)
    income = np.round(r.lognormal(3.5, 0.4, n), 2)
    colour = r.choice(["red", "green", "blue"], n)
    y = (age > 62) ^ (r.random(n) < 0.1)
    return pd.DataFrame({"age": age, "income": income, "colour": colour,
                         "outcome": y.astype(int)})


TABLE = people()
CSV = TABLE.to_csv(index=False).encode()


@pytest.fixture(scope="module")
def raw():
    return read_upload(CSV, "people.csv")


def settings_of(raw, **kw):
    return replace(raw.defaults, positive="1", features=tuple(FEATURES),
                   numeric=("age", "income"), categorical=("colour",), **kw)


def at_lines(index) -> pd.DataFrame:
    """TABLE's rows (as numbers) at the upload's index, the rows' lines in the CSV (the
    header is line 1), as `plx fit` numbers them."""
    return TABLE.iloc[[int(i) - 2 for i in index]][FEATURES].set_axis(index)


def train_rows(raw, ws):
    """The rows (as numbers) the workspace trained on, each once in its order, and labels."""
    X, y = ws.part("train")
    return at_lines(X.index), y.astype(str)


def test_cut_points_are_the_estimators_on_the_training_rows(raw):
    settings = settings_of(raw)
    assert settings.method == "mdlp"  # the estimator's default
    ws = new_workspace(raw, settings, build=False)
    X, y = train_rows(raw, ws)
    est = Discretizer().fit(X, y)
    got = {f: b.cuts for f, b in ws.dataset.schema.bins.items()}
    assert got == {f: est.cuts_[f] for f in ("age", "income")}
    assert got["age"]  # age is cut where the label turns, not at quantiles
    shown = cut_points(ws.dataset).set_index("column")
    assert shown.loc["age", "cut"] == "where the outcome changes most"  # never "mdlp"
    assert shown.loc["age", "bins"] == " | ".join(est.binnings_["age"].labels)
    # every row, test rows included, is binned by those cut points
    assert set(ws.X_test["age"]) <= set(est.binnings_["age"].labels)
    # the user's choice (quantiles, 3 bins) goes to the same discretiser, on training rows
    ws3 = new_workspace(raw, settings_of(raw, method="quantile", bins=3), build=False)
    X3, y3 = train_rows(raw, ws3)
    q = Discretizer("quantile", 3).fit(X3, y3)
    assert {f: b.cuts for f, b in ws3.dataset.schema.bins.items()} == dict(q.cuts_)


def test_test_rows_never_move_a_cut_point(raw):
    settings = settings_of(raw, method="quantile")
    ws = new_workspace(raw, settings, build=False)
    frame = raw.frame.copy()
    frame.loc[ws.X_test.index, "age"] = 1000  # only the test rows change
    frame.loc[ws.X_test.index, "income"] = 0.01
    changed = replace(raw, frame=frame)
    after = split(changed, settings)
    assert {f: b.cuts for f, b in after.dataset.schema.bins.items()} == \
        {f: b.cuts for f, b in ws.dataset.schema.bins.items()}
    assert (after.X_test["age"] == after.dataset.schema.bins["age"].labels[-1]).all()


@pytest.mark.slow
def test_dashboard_answers_as_the_estimator_and_plx_predict(raw, tmp_path):
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("plx_app/views/1_Data.py").run()
    at.radio(key="data_source").set_value("Upload a CSV").run()
    at.file_uploader(key="data_upload").set_value(("people.csv", CSV, "text/csv")).run()
    assert not at.exception, [e.value for e in at.exception]
    pos_key = [s for s in at.session_state if str(s).startswith("data_pos_")][0]
    at.selectbox(key=pos_key).set_value("1").run()
    num_key = [s for s in at.session_state if str(s).startswith("data_numeric_")][0]
    assert set(at.multiselect(key=num_key).value) == {"age", "income"}
    at.button(key="data_apply").click().run()
    assert not at.exception, [e.value for e in at.exception]
    ws = at.session_state["ws"]
    assert ws.dataset.name == "people.csv"
    X, y = train_rows(raw, ws)
    est = PLXClassifier(positive="1", random_state=0).fit(X, y)
    # the Data page shows the fitted model's cut points
    shown = [d.value for d in at.dataframe if "cut points" in d.value.columns]
    assert len(shown) == 1
    shown = shown[0].set_index("column")
    assert shown.loc["age", "bins"] == " | ".join(est.discretizer_.binnings_["age"].labels)
    assert shown.loc["income", "bins"] == " | ".join(est.discretizer_.binnings_["income"].labels)
    # plx's default in the dashboard answers each test row as the estimator does on raw rows
    ws.set_kb(KBSettings("auto"))
    dec = ws.decisions("test")
    rows = at_lines(ws.X_test.index)
    ref = est.bounds(rows)
    assert np.allclose(dec["lower"], ref["lower"]) and np.allclose(dec["upper"], ref["upper"])
    assert (dec["decision"] == "POS").tolist() == (est.predict(rows) == "1").tolist()
    # … and as `plx fit` / `plx predict` on a CSV of the same training rows
    train_csv = tmp_path / "train.csv"
    X.assign(outcome=y.to_numpy()).to_csv(train_csv, index=False)
    model = fit_model(train_csv, "outcome", "1", say=lambda m: None)
    m = Model(model)
    cli = m.predict(m.schema.apply(raw.frame.loc[ws.X_test.index, FEATURES])[0])  # as read
    assert np.allclose(cli["lower"], ref["lower"]) and np.allclose(cli["upper"], ref["upper"])


def test_a_session_saved_before_keeps_its_bins_and_rules(raw, tmp_path):
    """Settings saved before cuts were fitted on training rows (no `cut_on`, quantiles of the
    whole table) reopen with the bins they were saved with, so a saved rule still reads."""
    from plx_app.service import prepare, rule_clause
    from plx_app.service.projects import create_project, open_project, settings_dict
    from plx_core.store import Store

    old = settings_of(raw, method="quantile")
    whole = prepare(raw, old).schema.bins["income"]  # how the dashboard cut it before
    saved = settings_dict(old)
    del saved["cut_on"]
    store = Store(home=tmp_path)
    pid = create_project(store, "old", raw)
    info = store.get(pid)
    store.save(pid, info.version, settings=saved)
    rule = rule_clause([("income", whole.labels[-1])], "POS", 0.9, 5, "r1")
    store.save_rules(pid, [rule], store.get(pid).rules_version)
    ws, _, notes = open_project(store, pid)
    assert ws.settings.cut_on == "table" and not notes
    assert ws.dataset.schema.bins["income"].cuts == whole.cuts
    assert [r.id for r in ws.rules] == ["r1"]
    assert whole.labels[-1] in ws.domains()["income"]  # the rule form and the KB know its value
    assert len(ws.current_kb()) == len(ws.ensure_kb()) + 1  # and the rule takes part
    # a fresh upload of the same table is cut on the training rows
    assert new_workspace(raw, old, build=False).dataset.schema.bins["income"].cuts != whole.cuts


def test_data_page_says_how_columns_are_cut_in_plain_words():
    # a clinician read "mdlp", "quantile" and "id_threshold" on the Data page: every option,
    # note and table cell says it in words (the keys stay plx fit's --discretize values)
    from user_tables import readmission

    up = read_upload(readmission().data, "readmission.csv")
    ws = new_workspace(up, replace(up.defaults, positive="yes"), build=False)
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["ws"] = ws
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (how,) = [s for s in at.selectbox if s.label == "Where to cut numeric columns into bins"]
    assert how.value == "mdlp" and how.options[0] == "where the outcome changes most (default)"
    said = "\n".join(str(e.value) for e in [*at.markdown, *at.caption, *at.info, *at.warning]
                     ).replace("\\", "")
    shown = [*how.options, said, *(s.label for s in at.selectbox), *(s.label for s in at.slider)]
    for key in ("mdlp", "quantile", "uniform", "id_threshold", "max_levels"):
        assert not any(key in str(t) for t in shown), key
    assert "numeric columns ('age'" in said and "each cut into ordered bins on the training rows" in said
    assert "'age' is numeric and was cut into" not in said  # no count plx's default may not use
    assert "plx's default may cut finer, at its own points" in said  # settings as its own
    assert "patient_id (ID-like" in said and "names rows rather than describing them" in said
    cuts = cut_points(ws.dataset)
    assert set(cuts["cut"]) == {"where the outcome changes most"}


def test_data_page_shows_the_cut_points_of_the_model_that_answers():
    # the Data page said "cut into 3 bins" and listed its MDLP cut points while plx's default
    # answered on 32 finer bins of its own: once in use it shows the answering model's cut
    # points, the page's own bins folded away, and its notes count no bins
    from user_tables import readmission

    from plx_core import wording

    up = read_upload(readmission().data, "readmission.csv")
    ws = new_workspace(up, replace(up.defaults, positive="yes"), build=False)
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["ws"] = ws
    at.run()
    at.button(key="data_apply").click().run()  # in use, as the page's settings say
    assert not at.exception, [e.value for e in at.exception]
    ws = at.session_state["ws"]
    page = cut_points(ws.dataset)
    finer = page.assign(**{"cut points": "1, 2, 3, 4", "bins": "<1 | [1, 2) | [2, 3) | [3, 4) | ≥4"})
    ws.model_cut_points = lambda: finer  # as when the vote on finer bins answers
    at.run()
    captions = [str(c.value) for c in at.caption]
    assert wording.cut_points_caption(True, True, finer=True) in captions
    shown = [d.value for d in at.dataframe if "cut points" in d.value.columns]
    assert [t["cut points"].tolist() for t in shown] == [finer["cut points"].tolist(),
                                                         page["cut points"].tolist()]
    assert [e.label for e in at.expander if e.label == wording.PAGE_BINS_SAID]
    said = " ".join(str(e.value) for e in at.info).replace("\\", "")
    assert "each cut into ordered bins" in said and "was cut into" not in said


def test_explain_says_where_the_model_cuts_the_numbers_it_names(raw):
    # an explanation named "age ∈ [61, 63)" with no word on why the bins are so narrow; it
    # says the cut points of the model that answers, in the Data page's and plx fit's words
    from test_app import run

    from plx_core import wording

    ws = new_workspace(raw, settings_of(raw, test_size=0.3))
    at = run("plx_app/views/4_Explain.py", ws)
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(str(c.value) for c in at.caption).replace("\\", "")
    (age,) = wording.bins_said(ws.dataset.schema.bins, ["age"])
    assert age.startswith("'age': cut at ") and " bins, " in age
    assert "The numbers it names, as the model that answers cuts them: " in said
    assert age in said or wording.bins_said(ws.dataset.schema.bins, ["income"])[0] in said


def test_data_notes_say_the_numeric_columns_once_and_counts_with_separators():
    # a table of ten labs read ten alike notes "'x' is numeric and was cut ...", and counts
    # without thousands separators
    from plx_app.service.tables import validate

    r = np.random.default_rng(7)
    n = 1200
    f = pd.DataFrame({"q1": r.integers(1, 6, n), "q2": r.integers(1, 6, n),
                      **{f"lab{i}": r.normal(50, 9, n).round(1) for i in range(3)},
                      "y": r.choice(["yes", "no"], n)})
    f.loc[:1099, "lab0"] = np.nan
    up = read_upload(f.to_csv(index=False).encode(), "survey.csv")
    ds = split(up, replace(up.defaults, label="y", positive="yes")).dataset
    said = [t for _, t in validate(ds, "auto", None, up.frame)]
    assert said[0].startswith("1,200 rows, 5 features; ")
    (num,) = [t for t in said if "numeric columns (" in t or "is numeric" in t]
    assert num.startswith("3 numeric columns ('lab0', 'lab1', 'lab2'): each cut into ordered bins")
    assert "'lab0' is missing in 1,100 rows" in " ".join(said)
