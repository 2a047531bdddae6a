"""Ready-made data sets: the paper's example, Syn L/m, the dashboard default, the shared loaders."""

from __future__ import annotations

import math
import re
import runpy
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from plx_core.data import discretise, load_csv
from plx_core.datasets import (
    BREAST_CANCER_FEATURES,
    ENV_VAR,
    PAPER_SYN_10_4_SEED,
    SHARED_NAMES,
    breast_cancer_default,
    data_dir,
    load_shared,
    paper_example,
    select_features,
    synthetic,
)
from plx_core.errors import DataError

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------- generated


def test_paper_example():
    ds = paper_example()
    strings = ["".join(r) for r in ds.X.to_numpy()]
    assert list(ds.X.columns) == ["a1", "a2", "a3", "a4"]
    assert dict(zip(strings, ds.y, strict=True)) == {
        "0000": "1", "1111": "1", "1010": "1", "1100": "1",
        "0010": "0", "0100": "0", "1110": "0", "1000": "0",
    }
    assert ds.positive == "1" and ds.schema is not None and ds.schema.label == "label"


def matches(ds) -> np.ndarray:
    truth = np.array(list(ds.truth))
    return (ds.X.to_numpy().astype(str) == truth).sum(axis=1)


def test_synthetic_positives_are_exactly_five_matches():
    ds = synthetic(10, 4, 3000, seed=0, seed_string=PAPER_SYN_10_4_SEED)
    assert ds.truth == PAPER_SYN_10_4_SEED and ds.shape == (3000, 10)
    m = matches(ds)
    assert ((m == 5) == (ds.y.to_numpy() == "1")).all()
    assert ds.counts() == {"0": 1500, "1": 1500}
    assert set(np.unique(ds.X.to_numpy())) == {"1", "2", "3", "4"}
    assert not ds.X.duplicated().any()  # unique strings: no test row copies a training row
    assert (m[ds.y.to_numpy() == "0"] != 5).all()


def test_synthetic_is_deterministic_and_seeded():
    a = synthetic(12, 8, 400, seed=5)
    b = synthetic(12, 8, 400, seed=5)
    c = synthetic(12, 8, 400, seed=6)
    assert a.truth == b.truth and a.X.equals(b.X) and a.y.equals(b.y)
    assert not a.X.equals(c.X)
    assert len(a.truth) == 12 and set(a.truth) <= set("12345678")
    assert ((matches(a) == 5) == (a.y.to_numpy() == "1")).all()
    assert "seed string" in a.description and a.truth in a.description


def test_synthetic_unbalanced_draws_uniform_strings():
    ds = synthetic(10, 4, 20000, seed=1, balanced=False)
    share = (ds.y == "1").mean()
    expected = math.comb(10, 5) * 3**5 / 4**10  # 5.8%
    assert abs(share - expected) < 0.01
    assert ((matches(ds) == 5) == (ds.y.to_numpy() == "1")).all()


def test_synthetic_argument_errors():
    with pytest.raises(DataError, match="L must be between 5 and 19"):
        synthetic(4, 4, 10, 0)
    with pytest.raises(DataError, match="m must be between 2 and 9"):
        synthetic(10, 10, 10, 0)
    with pytest.raises(DataError, match=re.escape("seed_string must be 10 digits from 1..4")):
        synthetic(10, 4, 10, 0, seed_string="3232411135")
    with pytest.raises(DataError, match="has only 1 distinct positive strings"):
        synthetic(5, 2, 10, 0)
    assert synthetic(5, 2, 10, 0, unique=False).counts() == {"0": 5, "1": 5}


def test_generated_files_match_the_generator():
    build = runpy.run_path(str(ROOT / "datasets" / "generate.py"))["build"]
    for name, text in build().items():
        assert (ROOT / "datasets" / name).read_text(encoding="utf-8") == text, name
    syn = load_csv(ROOT / "datasets" / "syn_10_4.csv")
    assert syn.shape == (3000, 11) and (syn["label"] == "1").sum() == 1500
    ex = load_csv(ROOT / "datasets" / "paper_example.csv")
    assert ex.equals(paper_example().frame().astype(object))
    assert (ROOT / "datasets" / "README.md").is_file()


def test_breast_cancer_default():
    ds = breast_cancer_default()
    assert ds.shape == (569, 6) and tuple(ds.X.columns) == BREAST_CANCER_FEATURES
    assert ds.positive == "malignant" and ds.schema.label == "diagnosis"
    assert ds.counts() == {"benign": 357, "malignant": 212}
    for f in BREAST_CANCER_FEATURES:
        counts = ds.X[f].value_counts()
        assert len(counts) == 3 and counts.min() >= 185 and counts.max() <= 195  # tertiles
        assert all(label[0] in "<[≥" for label in counts.index)
    assert ds.schema.bins["worst radius"].labels[1] == "[13.5, 16.82)"
    # new (raw, numeric) rows go through the same transform
    from sklearn.datasets import load_breast_cancer

    raw = load_breast_cancer(as_frame=True).data.head(3)
    X, y = ds.schema.apply(raw)
    assert y is None and X.equals(ds.X.head(3))


def test_breast_cancer_features_are_the_mrmr_choice():
    from sklearn.datasets import load_breast_cancer

    raw = load_breast_cancer(as_frame=True)
    binned = pd.DataFrame({c: discretise(raw.data[c], bins=3) for c in raw.data.columns})
    assert tuple(select_features(binned, raw.target, 6)) == BREAST_CANCER_FEATURES


# ---------------------------------------------------------------------------- data directory


def test_data_dir_env_var_and_clear_errors(monkeypatch, tmp_path):
    missing = tmp_path / "nowhere"
    monkeypatch.setenv(ENV_VAR, str(missing))
    assert data_dir() == missing
    with pytest.raises(DataError) as e:
        load_shared("titanic")
    assert str(missing) in str(e.value) and ENV_VAR in str(e.value)
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    with pytest.raises(DataError) as e:
        load_shared("zoo")
    assert str(tmp_path / "zoo" / "zoo.data") in str(e.value) and ENV_VAR in str(e.value)
    monkeypatch.delenv(ENV_VAR)
    assert data_dir() == ROOT.parent / "shared" / "datasets" or not (
        ROOT.parent / "shared" / "datasets"
    ).is_dir()


def test_unknown_names_and_parts(tmp_path):
    with pytest.raises(DataError, match="unknown data set 'iris'"):
        load_shared("iris", tmp_path)
    with pytest.raises(DataError, match="titanic has no parts"):
        load_shared("titanic", tmp_path, part="train")
    with pytest.raises(DataError, match="classes= applies to nursery only"):
        load_shared("car", tmp_path, classes=("acc", "unacc"))


# ---------------------------------------------------------------------------- shared data sets

# (name, part) → (rows, features, {class: count}, positive); numbers from SOURCES.md
EXPECTED = {
    ("titanic", None): (891, 7, {"0": 549, "1": 342}, "1"),
    ("mushroom", None): (8124, 11, {"e": 4208, "p": 3916}, "p"),
    ("nursery", None): (8310, 8, {"priority": 4266, "spec_prior": 4044}, "spec_prior"),
    ("hiv1", "746"): (746, 8, {"-1": 344, "1": 402}, "1"),
    ("hiv1", "1625"): (1625, 8, {"-1": 1250, "1": 375}, "1"),
    ("hiv1", "impens"): (947, 8, {"-1": 798, "1": 149}, "1"),
    ("hiv1", "schilling"): (3272, 8, {"-1": 2838, "1": 434}, "1"),
    ("hiv1", "union"): (5850, 8, {"-1": 4849, "1": 1001}, "1"),
    ("breast-cancer", None): (286, 9, {"no-recurrence-events": 201, "recurrence-events": 85},
                              "recurrence-events"),
    ("spect", "train"): (80, 22, {"0": 40, "1": 40}, "1"),
    ("spect", "test"): (187, 22, {"0": 15, "1": 172}, "1"),
    ("spect", None): (267, 22, {"0": 55, "1": 212}, "1"),
    ("voting", None): (435, 16, {"democrat": 267, "republican": 168}, "republican"),
    ("car", None): (1728, 6, {"unacc": 1210, "acceptable": 518}, "acceptable"),
    ("tic-tac-toe", None): (958, 9, {"positive": 626, "negative": 332}, "positive"),
    ("monks-1", None): (124, 6, {"0": 62, "1": 62}, "1"),
    ("monks-1", "test"): (432, 6, {"0": 216, "1": 216}, "1"),
    ("monks-2", None): (169, 6, {"0": 105, "1": 64}, "1"),
    ("monks-2", "test"): (432, 6, {"0": 290, "1": 142}, "1"),
    ("monks-3", None): (122, 6, {"0": 62, "1": 60}, "1"),
    ("monks-3", "test"): (432, 6, {"0": 204, "1": 228}, "1"),
    ("zoo", None): (101, 16, {"mammal": 41, "other": 60}, "mammal"),
}

_cache: dict[tuple[str, str | None], object] = {}


def shared(name: str, part: str | None = None):
    key = (name, part)
    if key not in _cache:
        _cache[key] = load_shared(name, part=part) if part else load_shared(name)
    return _cache[key]


def test_every_shared_name_is_covered():
    assert {n for n, _ in EXPECTED} == set(SHARED_NAMES)


@pytest.mark.realdata
@pytest.mark.parametrize(("name", "part"), list(EXPECTED), ids=lambda v: str(v))
def test_shapes_and_class_counts(shared_data_dir, name, part):
    rows, n_feat, counts, positive = EXPECTED[(name, part)]
    ds = shared(name, part)
    assert ds.shape == (rows, n_feat)
    assert ds.y.value_counts().to_dict() == counts
    assert ds.positive == positive
    assert all(ds.X[c].dtype == object for c in ds.X) and ds.y.dtype == object
    cells = ds.X.to_numpy().ravel()
    present = ~pd.isna(cells)
    assert all(type(v) is str for v in cells[present])  # strings, or NaN where missing
    assert ds.description and ds.schema is not None and ds.schema.features == tuple(ds.X.columns)


@pytest.mark.realdata
def test_titanic_prepared_as_the_paper(shared_data_dir):
    ds = shared("titanic")
    assert list(ds.X.columns) == ["Pclass", "Sex", "Age", "SibSp", "Parch", "Fare", "Embarked"]
    assert ds.X["Age"].value_counts().to_dict() == {
        "[18, 30)": 271, "[30, 50)": 256, "<18": 113, "≥50": 74}
    assert ds.X["Age"].isna().sum() == 177 and ds.X["Embarked"].isna().sum() == 2
    assert ds.schema.bins["Fare"].labels == ("<8.6833", "[8.6833, 26.25)", "≥26.25")
    assert ds.X["Fare"].value_counts(sort=False).tolist() == [308, 295, 288]  # tertiles
    assert sorted(ds.X["SibSp"].unique()) == ["0", "1", "2", "3", "4", "5", "8"]
    assert sorted(ds.X["Parch"].unique()) == ["0", "1", "2", "3", "4", "5", "6"]
    assert set(ds.X["Embarked"].dropna()) == {"S", "C", "Q"}
    assert set(ds.schema.excluded) == {"PassengerId", "Name", "Ticket", "Cabin"}
    new = pd.DataFrame({"Pclass": [1], "Sex": ["female"], "Age": [90.5], "SibSp": [0],
                        "Parch": [0], "Fare": [600.0], "Embarked": ["C"]})
    X, y = ds.schema.apply(new)
    assert y is None
    assert X.iloc[0].tolist() == ["1", "female", "≥50", "0", "0", "≥26.25", "C"]


@pytest.mark.realdata
def test_quirks_of_the_categorical_sets(shared_data_dir):
    mush = shared("mushroom")
    assert list(mush.X.columns)[-1] == "stalk-root" and mush.X["stalk-root"].isna().sum() == 2480
    voting = shared("voting")
    assert (voting.X == "?").to_numpy().sum() == 392  # '?' kept as a value, not missing
    assert voting.X.isna().to_numpy().sum() == 0
    bc = shared("breast-cancer")
    assert bc.X.isna().sum().to_dict()["node-caps"] == 8 and bc.X["breast-quad"].isna().sum() == 1
    assert "30-39" in set(bc.X["age"])  # ranges stay text
    assert "Id" not in shared("monks-1").X.columns
    zoo = shared("zoo")
    assert "animal" not in zoo.X.columns and set(zoo.X["legs"]) == {"0", "2", "4", "5", "6", "8"}
    assert ((zoo.X["milk"] == "1") == (zoo.y == "mammal")).all()


@pytest.mark.realdata
def test_hiv1_positions_and_union(shared_data_dir):
    first = shared("hiv1", "746")
    assert list(first.X.columns) == [f"p{i}" for i in range(1, 9)]
    assert "".join(first.X.iloc[0]) == "AAAKFERQ" and first.y.iloc[0] == "-1"
    assert load_shared("hiv1", part="746Data.txt").X.equals(first.X)
    union = shared("hiv1", "union")
    octamers = union.X.apply("".join, axis=1)
    assert octamers.nunique() == 5840  # 10 octamers carry both labels across files
    assert octamers.duplicated().sum() == 10
    with pytest.raises(DataError, match="hiv1 part must be one of"):
        load_shared("hiv1", part="all")


@pytest.mark.realdata
def test_nursery_pair_and_choice(shared_data_dir):
    ds = load_shared("nursery", classes=("very_recom", "priority"))
    assert ds.counts() == {"priority": 4266, "very_recom": 328} and ds.positive == "very_recom"
    with pytest.raises(DataError, match="nursery has no class 'maybe'"):
        load_shared("nursery", classes=("maybe", "priority"))


@pytest.mark.realdata
def test_split_of_a_shared_set(shared_data_dir):
    ds = shared("breast-cancer")
    Xtr, Xte, ytr, yte = ds.split(seed=0)
    assert yte.value_counts().to_dict() == {"no-recurrence-events": 60, "recurrence-events": 26}
    assert ytr.value_counts().to_dict() == {"no-recurrence-events": 141,
                                            "recurrence-events": 141}


# ---------------------------------------------------------------------------- fetching


def _fake_source(shared: Path, calls: list):
    """A fetcher serving the public URLs from the local copies (zip archives built on the fly),
    recording every URL asked for."""
    import io
    import zipfile

    from plx_core.datasets import PUBLIC_SOURCES

    def fetch(url: str) -> bytes:
        calls.append(url)
        members = {src[1]: rel for rel, src in PUBLIC_SOURCES.items()
                   if isinstance(src, tuple) and src[0] == url}
        if members:
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w") as z:
                for name, rel in members.items():
                    z.writestr(f"data/{name}", (shared / rel).read_bytes())
            return buf.getvalue()
        (rel,) = [r for r, src in PUBLIC_SOURCES.items() if src == url]
        return (shared / rel).read_bytes()

    return fetch


def test_sets_are_fetched_once_into_the_cache(monkeypatch, tmp_path, shared_data_dir):
    import plx_core.datasets as D

    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setattr(D, "local_data_dir", lambda: None)
    monkeypatch.setenv(D.CACHE_ENV_VAR, str(tmp_path / "cache"))
    assert data_dir() == tmp_path / "cache"
    calls: list[str] = []
    fetch = _fake_source(shared_data_dir, calls)
    zoo = load_shared("zoo", fetch=fetch)
    assert calls == [D.PUBLIC_SOURCES["zoo/zoo.data"]]
    cached = tmp_path / "cache" / "zoo" / "zoo.data"
    assert cached.read_bytes() == (shared_data_dir / "zoo" / "zoo.data").read_bytes()
    again = load_shared("zoo", fetch=fetch)
    assert len(calls) == 1  # read from the cache the second time
    assert again.X.equals(zoo.X) and zoo.X.equals(load_shared("zoo", shared_data_dir).X)
    hiv = load_shared("hiv1", fetch=fetch)
    assert len(calls) == 2  # one archive for the four files
    assert len(hiv.y) == len(load_shared("hiv1", shared_data_dir).y)


def test_offline_gives_one_clear_message(monkeypatch, tmp_path):
    import urllib.error

    import plx_core.datasets as D

    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setattr(D, "local_data_dir", lambda: None)
    monkeypatch.setenv(D.CACHE_ENV_VAR, str(tmp_path))

    def offline(url: str) -> bytes:
        raise urllib.error.URLError("[Errno -3] Temporary failure in name resolution")

    with pytest.raises(DataError) as e:
        load_shared("car", fetch=offline)
    msg = str(e.value)
    assert "could not download 'car/car.data'" in msg and D.PUBLIC_SOURCES["car/car.data"] in msg
    assert "offline" in msg and ENV_VAR in msg and str(tmp_path) in msg
    assert "\n" not in msg
    assert not any(tmp_path.rglob("*"))  # nothing half-written


def test_generated_tables_for_the_comparison():
    from plx_core.datasets import dnf_noise, rare_positives

    for rate in (0.05, 0.3):
        X, y = rare_positives(rate, n=1000, seed=1)
        assert (y == "yes").mean() == pytest.approx(rate, abs=0.002)
        assert X.shape == (1000, 16) and X["x1"].dtype == float
        assert 0.02 < X["x5"].isna().mean() < 0.08 and X["x1"].notna().all()
    X, y = dnf_noise(n=2000, noise=0.1, seed=1)
    clean = (((X["f1"] == "0") & (X["f2"] == "1"))
             | ((X["f3"] == "2") & (X["f4"] == "0") & (X["f5"] == "1"))
             | ((X["f6"] == "1") & (X["f7"] == "1")))
    assert ((y == "1") != clean).mean() == pytest.approx(0.1, abs=0.02)
    with pytest.raises(DataError, match="rate must be between 0 and 1"):
        rare_positives(1.5)
