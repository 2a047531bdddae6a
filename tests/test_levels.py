"""Columns a model cannot learn from as they are: an ID column and free text are left out, a
category of many levels keeps its frequent levels and reads the rest as one "(other)" level —
said by the estimator, `plx fit` and the Data page, kept in model files, applied in predict."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score

from plx_core import PLXClassifier
from plx_core.cli import Model, main
from plx_core.data import OTHER_LEVEL, Schema, infer_schema
from plx_core.modelfile import load_model, save_model

WORDS = "the patient reported mild pain after a long walk in the morning and evening".split()
HOT = ["Z000", "Z001", "Z002", "Z003", "Z004"]


def clinic(n: int = 1500, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """An ID, a 300-level zip code (20 frequent levels, 5 of them raising the risk, and 280
    rare ones), a free-text note and a plain category; the label follows the zip's frequent
    levels and the category."""
    rng = np.random.default_rng(seed)
    frequent = np.array([f"Z{i:03d}" for i in range(20)])
    rare = np.array([f"R{i:03d}" for i in range(280)])
    is_rare = rng.random(n) < 0.25
    zips = frequent[rng.integers(0, 20, n)]
    zips[is_rare] = rare[np.arange(int(is_rare.sum())) % 280]  # each rare level 1-2 times
    notes = [" ".join(rng.choice(WORDS, rng.integers(4, 9))) for _ in range(n)]
    X = pd.DataFrame({"id": [f"P{i:05d}" for i in range(n)], "zip": zips, "note": notes,
                      "smoker": rng.choice(["yes", "no"], n)})
    risk = np.isin(zips, HOT) | ((X.smoker == "yes") & (rng.random(n) < 0.25))
    return X, np.where(risk, "sick", "well")


def fitted(X, y, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clf = PLXClassifier(positive="sick", **kw).fit(X, y)
    return clf, [str(w.message) for w in caught]


def test_the_estimator_leaves_out_an_id_and_free_text_and_groups_a_300_level_category():
    X, y = clinic()
    assert X["zip"].nunique() == 300
    tr, te = np.arange(1000), np.arange(1000, 1500)
    clf, said = fitted(X.iloc[tr], y[tr])
    assert set(clf.excluded_) == {"id", "note"}
    assert clf.excluded_["id"].startswith("ID-like: 1,000 distinct values in 1,000 rows")
    assert clf.excluded_["note"].startswith("free text (")
    assert "plx learns from categories" in clf.excluded_["note"]
    n_train = X["zip"].iloc[tr].nunique()
    assert clf.grouped_ == {"zip": f"{n_train} levels: the 20 most frequent (each in ≥ 10 rows) "
                                   f"kept, the other {n_train - 20} grouped as '(other)'"}
    assert any(m.startswith("grouped (rare and unseen values read as one level in predict): "
                            "'zip': ") for m in said), said
    assert any("left out of the KB" in m and "'note': free text" in m for m in said), said
    # the frequent levels carry the signal: grouped beats leaving the zip out
    without, _ = fitted(X.iloc[tr].drop(columns=["zip"]), y[tr])
    f_grouped = f1_score(y[te], clf.predict(X.iloc[te]), pos_label="sick")
    f_without = f1_score(y[te], without.predict(X.iloc[te].drop(columns=["zip"])),
                         pos_label="sick")
    assert f_grouped > f_without + 0.2, (f_grouped, f_without)
    # predict reads a rare or never-seen zip as the one "(other)" level (no unseen warning)
    new = X.iloc[te[:3]].assign(zip=["R999", "Q123", HOT[0]])
    assert clf.transform_rows(new)["zip"].tolist() == [OTHER_LEVEL, OTHER_LEVEL, HOT[0]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert clf.predict(new)[2] == "sick"


def test_a_saved_model_keeps_the_grouping_and_plx_predict_applies_it(tmp_path):
    X, y = clinic()
    clf, _ = fitted(X.iloc[:1000], y[:1000])
    path = tmp_path / "m.json"
    save_model(clf, path)
    doc = json.loads(path.read_text())
    assert doc["schema"]["grouped"]["zip"][:5] == list(clf.discretizer_.levels_["zip"][:5])
    assert len(doc["schema"]["grouped"]["zip"]) == 20
    back = load_model(path)
    assert back.schema.grouped == {"zip": clf.discretizer_.levels_["zip"]}
    assert Schema.from_dict(back.schema.to_dict()) == back.schema
    rows = tmp_path / "new.csv"
    new = X.iloc[1000:1100].assign(zip=lambda d: np.where(np.arange(len(d)) % 2, "R999",
                                                          d["zip"]))
    new.to_csv(rows, index=False)
    out = tmp_path / "p.csv"
    assert main(["predict", str(path), str(rows), "--out", str(out)]) == 0
    got = pd.read_csv(out, keep_default_na=False)
    assert got["decision"].tolist() == clf.predict(new).tolist()
    assert (got["unseen"] == "").all()  # a grouped zip is read, never "unseen"
    bad = {**doc["schema"], "grouped": {"zip": "Z000"}}  # a string is no list of levels
    with pytest.raises(Exception, match="grouped.zip"):
        Schema.from_dict(bad)


def test_plx_fit_says_what_it_left_out_and_grouped_and_predicts_with_it(tmp_path, capsys):
    X, y = clinic()
    data = tmp_path / "clinic.csv"
    X.assign(outcome=y).iloc[:1000].to_csv(data, index=False)
    model = tmp_path / "m.json"
    assert main(["fit", str(data), "--label", "outcome", "--positive", "sick",
                 "--out", str(model)]) == 0
    err = capsys.readouterr().err
    n = X["zip"].iloc[:1000].nunique()
    assert (f"column 'zip' is grouped: {n} levels: the 20 most frequent (each in ≥ 10 rows) "
            f"kept, the other {n - 20} grouped as '(other)'") in err
    assert "column 'note' is left out: free text (" in err
    assert "column 'id' is left out: ID-like" in err
    m = Model.load(model)
    assert set(m.schema.grouped) == {"zip"} and "zip" in m.schema.features
    assert m.schema.categories["zip"][-1] == OTHER_LEVEL
    summary = m.schema.summary().set_index("column")
    assert summary.loc["zip", "detail"] == ("the 20 most frequent values kept, the others "
                                            "grouped as '(other)'")


def test_a_listed_column_of_many_levels_is_grouped_and_one_of_few_kept_as_it_is():
    X, y = clinic()
    frame = X.assign(outcome=y)
    s = infer_schema(frame, "outcome", "sick", features=["zip", "smoker"])
    assert set(s.grouped) == {"zip"}  # listed: kept, and still grouped
    Xs, _ = s.apply(frame)
    assert Xs["zip"].nunique() == 21 and OTHER_LEVEL in set(Xs["zip"])
    ids = infer_schema(frame, "outcome", "sick", features=["id", "smoker"])
    assert ids.grouped == {} and "id" in ids.features  # no frequent level: as the user asked


@pytest.mark.slow
def test_the_data_page_says_what_it_left_out_and_grouped():
    from test_app import errors, run, texts

    X, y = clinic(600)
    data = X.assign(outcome=y).to_csv(index=False).encode()
    at = run("plx_app/views/1_Data.py")
    at.radio(key="data_source").set_value("Upload a CSV").run()
    at.file_uploader(key="data_upload").set_value(("clinic.csv", data, "text/csv")).run()
    assert not at.exception and not errors(at), errors(at)
    body = texts(at)
    n = X["zip"].nunique()
    assert (f"Grouped: zip ({n} levels: the 20 most frequent (each in ≥ 10 rows) kept, the "
            f"other {n - 20} grouped as '(other)')") in body
    assert "Left out by default: id (ID-like" in body and "note (free text (" in body
    assert ("Column 'zip' is grouped: the 20 most frequent (each in ≥ 10 rows) kept, the "
            "others grouped as '(other)'.") in body


def test_numbers_written_as_text_are_left_out_saying_how_not_grouped():
    # 360 lab values and two frequent markers ("n.a.", "—"): no categories to keep, the
    # column is left out with the hint to convert it, as before grouping existed
    rng = np.random.default_rng(62)
    lab = pd.Series([f"{x:.2f}" for x in rng.uniform(1, 90, 400)], dtype=object)
    marked = rng.random(400) < 0.2
    lab[marked] = rng.choice(["n.a.", "—"], int(marked.sum()))
    frame = pd.DataFrame({"lab": lab, "g": rng.choice(list("pqrs"), 400),
                          "y": rng.choice(["a", "b"], 400)})
    s = infer_schema(frame, "y", "a")
    assert s.grouped == {} and s.excluded["lab"].startswith("too many distinct values")
    assert "fewer than 2" not in s.excluded["lab"]  # two frequent markers: still no grouping
    clf, said = fitted(frame[["lab", "g"]], np.where(frame.y == "a", "sick", "well"))
    assert clf.grouped_ == {} and clf.excluded_["lab"].startswith(
        "too many distinct values for a categorical feature (")
    assert "to have it binned" in clf.excluded_["lab"]


@pytest.mark.slow
def test_the_vote_on_finer_bins_keeps_the_grouping_when_it_answers(tmp_path):
    """When the vote on finer bins answers, its bins become the model's (`discretizer_`): the
    grouped column's kept levels must come with them, or predict and model files read a rare
    zip as a never-seen value instead of the '(other)' level the KB learned."""
    rng = np.random.default_rng(0)
    n = 1500
    X = pd.DataFrame({f"x{i}": rng.normal(size=n) for i in range(3)})
    zips = np.array([f"Z{i:03d}" for i in range(300)])
    p = np.r_[np.full(40, 0.02), np.full(260, 0.2 / 260)]
    X["zip"] = rng.choice(zips, n, p=p / p.sum())
    s = X.x0 + 0.8 * X.x1 - 0.5 * X.x2 + np.isin(X.zip, zips[:10]) + 0.5 * rng.normal(size=n)
    y = np.where(s > np.quantile(s, 0.7), "sick", "well")
    clf, _ = fitted(X, y, random_state=0)
    assert clf.chosen_ == "direct-vote" and clf.selection_.bins and "zip" in clf.grouped_
    rare = X.iloc[:2].assign(zip=["Z299", "Q999"])  # a rare level and a never-seen one
    assert clf.transform_rows(rare)["zip"].tolist() == [OTHER_LEVEL, OTHER_LEVEL]
    path = tmp_path / "m.json"
    save_model(clf, path)
    assert load_model(path).schema.grouped["zip"] == clf.discretizer_.levels_["zip"]


def cities(n: int = 1200, seed: int = 3) -> tuple[pd.DataFrame, np.ndarray]:
    """A 150-level city column: "Paris" frequent (and the label's signal), also written
    "paris " and "PARIS" on a few rows; "(other)" written in the data itself."""
    rng = np.random.default_rng(seed)
    city = np.array([f"C{i:03d}" for i in rng.integers(0, 140, n)], dtype=object)
    city[:120] = "Paris"
    city[120:126] = "paris "
    city[126:130] = "PARIS"
    city[130:145] = "(other)"
    y = np.where((city == "Paris") | (city == "paris ") | (city == "PARIS")
                 | (rng.random(n) < 0.1), "sick", "well")
    return pd.DataFrame({"city": city, "smoker": rng.choice(["yes", "no"], n)}), y


def test_a_grouped_column_reads_another_spelling_of_a_kept_level_as_that_level():
    """"paris " and "PARIS" are Paris to a reader: in a grouped column they count with Paris
    and read as it (in fit and predict), never as "(other)" — and the warning says so."""
    X, y = cities()
    clf, said = fitted(X, y)
    grouped = clf.grouped_["city"]
    assert "other spellings of a kept level (case, spaces, accents) read as it" in grouped
    assert "'PARIS' as 'Paris'" in grouped and "'paris ' as 'Paris'" in grouped
    assert any("'PARIS' as 'Paris'" in m for m in said), said
    new = pd.DataFrame({"city": ["paris ", "Paris", "PARIS", " pArIs", "C001x"],
                        "smoker": ["no"] * 5})
    assert clf.transform_rows(new)["city"].tolist()[:4] == ["Paris"] * 4
    assert list(clf.predict(new)[:4]) == ["sick"] * 4


def test_a_value_written_as_the_group_label_is_said_and_kept_apart_when_frequent():
    """The data's own "(other)": frequent, it stays itself and the rare levels are grouped
    as "(other levels)"; rare, it is grouped with them — said either way, never merged
    silently."""
    X, y = cities()
    clf, _ = fitted(X, y)
    grouped = clf.grouped_["city"]
    assert "the column's own value '(other)' is kept as itself, so the others are grouped as " \
           "'(other levels)'" in grouped
    assert grouped.split(";")[0].endswith("grouped as '(other levels)'")
    read = clf.transform_rows(pd.DataFrame({"city": ["(other)", "nowhere"],
                                            "smoker": ["no", "no"]}))["city"].tolist()
    assert read == ["(other)", "(other levels)"]
    rare = X.copy()
    rare.loc[133:, "city"] = rare.loc[133:, "city"].replace("(other)", "C000")
    clf, _ = fitted(rare, y)
    assert "the column's own value '(other)' is rare and grouped with them" in clf.grouped_["city"]
    assert clf.transform_rows(pd.DataFrame({"city": ["(other)"], "smoker": ["no"]}))[
        "city"].tolist() == [OTHER_LEVEL]
