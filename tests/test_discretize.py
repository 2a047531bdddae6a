"""plx_core.discretize: which columns get bins, the supervised cut points, and the fitted
transformer that PLXClassifier keeps."""

import decimal
import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plx_core import DataError, Discretizer
from plx_core.discretize import is_numeric, mdlp_cuts, numeric_values, tree_cuts


def test_mdlp_finds_the_class_boundary_and_no_cut_in_noise():
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 10, 400)
    y = np.where(x >= 6.3, "p", "n")
    cuts = mdlp_cuts(x, y)
    assert len(cuts) == 1
    lo, hi = x[x < 6.3].max(), x[x >= 6.3].min()
    assert lo < cuts[0] <= hi  # between the two neighbouring values
    assert mdlp_cuts(x, rng.choice(["p", "n"], 400)) == []  # nothing pays for itself


def test_mdlp_finds_an_interval_and_respects_max_bins():
    x = np.arange(300, dtype=float)
    y = np.where((x >= 100) & (x < 200), 1, 0)
    assert mdlp_cuts(x, y) == [100.0, 200.0]  # short numbers: 99 < 100 ≤ 100
    assert len(mdlp_cuts(x, y, max_bins=2)) == 1


def test_tree_cuts_match_the_boundary():
    x = np.linspace(0, 1, 200)
    y = (x > 0.42).astype(int)
    (c,) = tree_cuts(x, y, max_bins=2)
    assert x[x <= 0.42].max() < c <= x[x > 0.42].min()


def test_which_columns_are_numeric():
    assert is_numeric(pd.Series([0.5, 1.5, 2.0]))  # non-whole numbers
    assert not is_numeric(pd.Series([1, 2, 3, 1, 2]))  # few whole numbers: a category
    assert is_numeric(pd.Series(np.arange(50)))  # many whole numbers
    assert not is_numeric(pd.Series(["1.5", "2.5"] * 10))  # numbers as text stay text
    assert not is_numeric(pd.Series([True, False] * 10))
    assert is_numeric(pd.Series([0.5, np.nan, 2.5], dtype=object))


def test_fit_on_training_rows_then_apply_the_same_cuts():
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"age": rng.uniform(0, 90, 300), "sex": rng.choice(["f", "m"], 300),
                      "kids": rng.integers(0, 4, 300)})
    X.loc[[3, 7], "age"] = np.nan
    y = np.where(X["age"] > 40, "yes", "no")
    d = Discretizer().fit(X.iloc[:200], y[:200])
    assert list(d.binnings_) == ["age"]  # sex is text, kids has 4 whole values
    out = d.transform(X)
    assert out["sex"].tolist() == X["sex"].tolist()
    assert out["age"].isna().tolist() == X["age"].isna().tolist()  # missing stays missing
    (cut,) = d.cuts_["age"]
    assert abs(cut - 40) < 2
    older = X["age"] >= cut
    assert (out.loc[older, "age"] == f"≥{cut:g}").all()
    again = Discretizer.from_dict(json.loads(json.dumps(d.to_dict())))
    assert again.transform(X).equals(out)


def test_quantile_and_bad_arguments():
    X = pd.DataFrame({"v": np.arange(100) + 0.5})
    assert len(Discretizer("quantile", 4).fit(X).cuts_["v"]) == 3
    with pytest.raises(DataError, match="discretize must be one of"):
        Discretizer("kmeans").fit(X, np.zeros(100))
    with pytest.raises(DataError, match="needs the labels"):
        Discretizer("mdlp").fit(X)
    with pytest.raises(DataError, match="max_bins"):
        Discretizer(max_bins=1).fit(X, np.zeros(100))
    d = Discretizer().fit(X, (X["v"] > 50).astype(int))
    with pytest.raises(DataError, match="not a number"):
        d.transform(pd.DataFrame({"v": ["tall"]}))


_CELLS = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True),
                   st.none(), st.booleans(), st.sampled_from(["1.5", "a", ""]),
                   st.decimals(allow_nan=False, allow_infinity=False, places=3),
                   st.integers(-50, 50).map(np.int64), st.floats(-1e3, 1e3).map(np.float32))


@settings(max_examples=200, deadline=None)
@given(st.lists(_CELLS, min_size=1, max_size=12))
def test_an_object_column_reads_as_numbers_iff_every_present_cell_is_a_number(cells):
    # the estimator holds every column as objects: numbers there are read at once, and a
    # boolean or a text among them still makes the column no number column
    s = pd.Series(cells, dtype=object)
    present = [v for v in cells if not pd.isna(v)]
    numbers = bool(present) and all(
        isinstance(v, (int, float, np.integer, np.floating, decimal.Decimal))
        and not isinstance(v, (bool, np.bool_)) for v in present)
    got = numeric_values(s)
    assert (got is not None) == numbers
    if numbers:
        want = [np.nan if pd.isna(v) else float(v) for v in cells]
        assert np.array_equal(got, np.array(want, dtype=float), equal_nan=True)


@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), min_size=1, max_size=40),
       st.integers(2, 6))
@settings(max_examples=60, deadline=None)
def test_mdlp_over_groups_cuts_where_mdlp_over_their_values_does(groups, max_bins):
    """`mdlp_splits` over ordered groups' class counts (the fine bins a fold's cuts are
    searched among) puts its boundaries where `mdlp_cuts` cuts rows whose value is their
    group's position: boundary i ↔ the cut between values i − 1 and i."""
    from plx_core.discretize import mdlp_splits

    counts = np.array([g for g in groups if sum(g) > 0] or [(1, 0)], dtype=float)
    x = np.repeat(np.arange(len(counts)), counts.sum(axis=1).astype(int)).astype(float)
    y = np.concatenate([[0] * int(n) + [1] * int(p) for n, p in counts])
    want = mdlp_cuts(x, y, max_bins)  # a cut c with i − 1 < c ≤ i puts group i above it
    assert [int(np.searchsorted(np.arange(len(counts)), c)) for c in want] == \
        mdlp_splits(counts, max_bins)


def test_a_cut_at_a_negative_zero_reads_as_zero_in_the_bins_and_explanations():
    """Values rounded to two decimals write tiny negatives as "-0.0"; an equal-frequency cut
    there is -0.0, and its bins read "<0" / "≥0" wherever they are shown (were "<-0" / "≥-0")."""
    from plx_core import PLXClassifier

    rng = np.random.default_rng(4)
    drift = np.concatenate([-rng.uniform(0.01, 0.5, 80).round(2), [-0.0] * 40,
                            rng.uniform(0.01, 0.5, 40).round(2)])
    X = pd.DataFrame({"drift": drift, "site": rng.choice(["a", "b"], 160)})
    y = np.where(drift < 0, "down", "up")
    clf = PLXClassifier(variant="paper", positive="up", discretize="quantile", max_bins=2).fit(X, y)
    labels = clf.discretizer_.binnings_["drift"].labels
    assert labels == ("<0", "≥0"), labels
    assert clf.explain(X.iloc[100], k=1).features == {"drift": "≥0"}


def test_mdlp_over_many_columns_at_once_cuts_as_each_alone():
    """`mdlp_splits_many` (a fit's cut optimism: every fold × numeric column in one search)
    finds each problem's own boundaries: its padding and the other problems change nothing."""
    from plx_core.discretize import mdlp_splits, mdlp_splits_many

    rng = np.random.default_rng(3)
    lengths = rng.integers(0, 33, 200)
    rows = rng.integers(0, 20, (200, 32))
    rate = 1 / (1 + np.exp(-rng.normal(0, 2, (200, 1)) * np.linspace(-2, 2, 32)))  # a trend
    rate[:40] *= 0.1  # rare positives: fewer cuts pay
    pos = rng.binomial(rows, rate)
    counts = np.stack([rows - pos, pos], axis=2).astype(float)
    for p, n in enumerate(lengths):
        counts[p, n:] = 0
    got = mdlp_splits_many(counts, lengths, 4)
    assert got == [mdlp_splits(counts[p, :n], 4) for p, n in enumerate(lengths)]
    assert sum(map(len, got)) > 60 and any(len(g) == 3 for g in got)  # cuts, up to max_bins


def test_a_tables_columns_are_cut_at_once_as_each_alone():
    """`Discretizer.fit` cuts every numeric column in one batched MDLP search
    (`mdlp_cuts_many`): each column's cuts are those of its own search on its present rows
    and their classes — three classes, a column whose rows hold only two of them (a class
    absent from a column counts nothing), missing cells, a column no cut pays on."""
    from plx_core.discretize import mdlp_counts

    rng = np.random.default_rng(7)
    n = 300
    y = rng.choice(["a", "b", "c"], n)
    X = pd.DataFrame({
        "signal": rng.normal(size=n) + (y == "b") * 1.5 - (y == "c") * 1.5,
        "two_classes": np.where(y == "c", np.nan, rng.normal(size=n) + (y == "b") * 2.0),
        "noise": rng.normal(size=n),
        "steps": rng.integers(0, 30, n) + (y == "a") * 10.0,
    })
    X.loc[rng.random(n) < 0.1, "steps"] = np.nan
    got = Discretizer("mdlp", 4).fit(X, y).binnings_
    for c in X.columns:
        x = X[c].to_numpy()
        keep = ~np.isnan(x)
        values, inv = np.unique(x[keep], return_inverse=True)
        classes, code = np.unique(y[keep], return_inverse=True)
        counts = np.zeros((len(values), len(classes)))
        np.add.at(counts, (inv, code), 1.0)
        want = mdlp_counts(values, counts, 4)
        if want:
            assert list(got[c].cuts) == want, c
        else:  # the median split `fit_cuts` falls back to
            assert len(got[c].cuts) == 1 and values[0] < got[c].cuts[0] <= values[-1], c
    assert len(got["signal"].cuts) >= 2 and got["two_classes"].cuts and got["steps"].cuts


def test_columns_cut_in_batches_keep_each_columns_cuts(monkeypatch):
    """`mdlp_cuts_many` on a large table cuts in batches of columns of like length
    (`BATCH_CELLS`: each batch's temporaries scale with its padded cells): the same cuts, in
    the columns' order, as all at once — columns of different lengths, one value, one row."""
    import plx_core.discretize as D

    rng = np.random.default_rng(17)
    y = rng.choice(["a", "b", "c"], 400)
    cols = [(np.round(rng.normal(size=400) + (y == "b") * k, d), y)
            for k, d in ((2.0, 1), (1.0, 3), (0.0, 2), (3.0, 0))]
    cols += [(np.full(50, 2.5), y[:50]), (np.array([1.0]), y[:1]),
             (np.round(rng.normal(size=200), 1) + (y[:200] == "c"), y[:200])]
    whole = D.mdlp_cuts_many(cols, 4)
    assert sum(map(len, whole)) >= 4 and whole[4] == [] and whole[5] == []
    monkeypatch.setattr(D, "BATCH_CELLS", 500)  # a few columns a batch, longest alone
    assert D.mdlp_cuts_many(cols, 4) == whole
    assert [len(g) for g in D._batches(np.array([400, 10, 400, 5]), 3)] == [2, 1, 1]


def _xor(n: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    """An XOR of two thresholds (a > 0.3, b < −0.2) with 10% noise and a noise column: no
    cut on a or b pays on its own (MDLP finds none), each pays beside the other."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n), "c": rng.normal(size=n)})
    y = ((X.a > 0.3) ^ (X.b < -0.2)) & (rng.random(n) > 0.1) | (rng.random(n) < 0.05)
    return X, np.where(y, "case", "control")


def test_a_column_cut_only_beside_another_is_cut_where_a_tree_splits_it():
    """MDLP's one-column test finds no cut on either half of an XOR; the median it fell back
    to cut a at ~0 (the label turns at 0.3). Such a column is now cut where a shallow tree on
    every numeric column first splits it (`interaction_cuts`): near each true threshold."""
    from plx_core.discretize import interaction_cuts

    X, y = _xor(700, 3)
    assert mdlp_cuts(X.a.to_numpy(), y) == [] and mdlp_cuts(X.b.to_numpy(), y) == []
    cuts = Discretizer("mdlp", 4).fit(X, y).cuts_
    assert abs(cuts["a"][0] - 0.3) < 0.1 and abs(cuts["b"][0] + 0.2) < 0.1, cuts
    assert len(cuts["c"]) == 1  # a column of noise still gets one cut
    # a missing cell or an infinity is no threshold; one column or one class, no tree
    M = X.to_numpy().copy()
    M[::7, 0], M[1, 1] = np.nan, np.inf
    got = interaction_cuts(M, y)
    assert abs(got[0] - 0.3) < 0.15 and abs(got[1] + 0.2) < 0.15
    assert np.isnan(interaction_cuts(M[:, :1], y)).all()
    assert np.isnan(interaction_cuts(M, np.repeat("case", len(y)))).all()


def test_the_interaction_tree_grows_on_a_seeded_sample_of_a_long_table(monkeypatch):
    """Above `INTERACTION_ROWS` rows the tree grows on a sample of them set by a seeded hash of
    each row's content (`row_keys`): the same cut points on every fit of the same rows, and
    on the same table with its rows shuffled (tidy20: the sample was of positions, so a
    shuffled table got other cut points)."""
    import plx_core.discretize as D

    X, y = _xor(1500, 2)
    X["kind"] = np.random.default_rng(4).choice(["p", "q", "r"], len(X))
    monkeypatch.setattr(D, "INTERACTION_ROWS", 600)
    first = Discretizer("mdlp", 4).fit(X, y).cuts_
    assert first == Discretizer("mdlp", 4).fit(X, y).cuts_
    assert abs(first["a"][0] - 0.3) < 0.15
    for seed in (0, 1, 2):
        order = np.random.default_rng(seed).permutation(len(X))
        assert Discretizer("mdlp", 4).fit(X.iloc[order], y[order]).cuts_ == first, seed
    # the sample (`interaction_rows`, which fit_dask takes too): 600 distinct rows, and the
    # thresholds are the tree's on those rows alone; a row's key is its content's
    M = X[["a", "b", "c"]].to_numpy()
    codes = np.unique(y, return_inverse=True)[1]
    keys = D.row_keys(M, codes, [X["kind"]])
    at = D.interaction_rows(keys)
    assert len(at) == 600 == len(set(at)) and at.max() < 1500
    assert (np.diff(keys[at].astype(np.float64)) >= 0).all()  # in key order
    assert np.array_equal(D.interaction_rows(keys[:500]), np.arange(500))
    order = np.random.default_rng(7).permutation(len(X))
    assert np.array_equal(D.row_keys(M[order], codes[order], [X["kind"].iloc[order]]), keys[order])
    twin = M.copy()
    twin[0, 0] = -0.0 if twin[0, 0] == 0 else np.nextafter(twin[0, 0], 9)
    assert D.row_keys(twin, codes)[0] != D.row_keys(M, codes)[0]
    assert D.row_keys(M, codes, [X["kind"].where(X.index != 3, "s")])[3] != keys[3]
    at = D.interaction_rows(D.row_keys(M, codes))  # interaction_cuts alone: numbers and label
    np.testing.assert_array_equal(D.interaction_cuts(M, y), D.interaction_cuts(M[at], y[at]))



def statins_table(seed: int, n: int = 600, noise: float = 0.03) -> tuple[pd.DataFrame, np.ndarray]:
    """An Excel export: an event when a smoker's cholesterol is above 5.5, or anyone's above
    6.5 off statins; the flags as text ("TRUE"/"FALSE") and as 0.0/1.0 (test_estimator's too)."""
    rng = np.random.default_rng(seed)
    smoker, statin = rng.random(n) < 0.3, rng.random(n) < 0.5
    chol = rng.normal(5.5, 1, n).round(2)
    y = ((smoker & (chol > 5.5)) | (~statin & (chol > 6.5))) ^ (rng.random(n) < noise)
    return (pd.DataFrame({"smoker": np.where(smoker, "TRUE", "FALSE"),
                          "on_statin": statin.astype(float), "chol": chol}),
            np.where(y, "yes", "no"))


def test_a_second_threshold_that_pays_only_within_a_category_is_cut_too():
    """MDLP on cholesterol alone pays for 5.5 (the smokers' limit) but not for 6.5, which
    matters only off statins: it is cut where MDLP pays for a cut within the rows of one level
    (`interaction_hints`) — one extra, not a near copy of 5.5 — and `fit_binnings` (the
    dashboard's refit, given the categorical columns) cuts it the same; without categorical
    columns nothing is searched."""
    from plx_core.data import Binning
    from plx_core.discretize import fit_binnings

    X, y = statins_table(2)
    assert len(mdlp_cuts(X.chol.to_numpy(), y, 4)) == 1
    cuts = Discretizer("mdlp", 4).fit(X, y).cuts_["chol"]
    assert len(cuts) == 2 and abs(cuts[0] - 5.5) < 0.1 and abs(cuts[1] - 6.5) < 0.1, cuts
    plain = {"chol": Binning("quantile", (5.0,), ("<5", "≥5"), "plain")}
    got = fit_binnings(plain, X[["chol"]], y, "mdlp", 4, X[["smoker", "on_statin"]])
    assert got["chol"].cuts == cuts
    # at most max_bins bins: with two allowed there is no room for an extra
    assert len(Discretizer("mdlp", 2).fit(X, y).cuts_["chol"]) == 1
    assert len(Discretizer("mdlp", 4).fit(X[["chol"]], y).cuts_["chol"]) == 1



def _shifted_grades(n: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    """Five grades cycling over twenty 5-unit bands of a reading; a pressure above 62 (about
    one row in nine) moves a band's grade by one, so on its own it tells nothing; a column
    of noise."""
    rng = np.random.default_rng(seed)
    t, u = rng.uniform(0, 100, n), rng.normal(50, 10, n)
    X = pd.DataFrame({"reading": t.round(2), "pressure": u.round(1),
                      "noise": rng.normal(0, 1, n).round(2)})
    return X, np.array(list("ABCDE"))[(np.floor(t / 5).astype(int) + (u > 62)) % 5]


def test_a_number_that_moves_another_numbers_bands_to_other_classes_is_cut_within_them():
    """Several classes: MDLP leaves the pressure uncut (it tells nothing on its own) and the
    interaction tree's wide leaves never reach it; within the reading's bins its cut at 62
    pays (`within_cut`), so it is cut there, where a column of noise keeps its median."""
    X, y = _shifted_grades(1200, 3)
    d = Discretizer("mdlp", 32).fit(X, y)
    assert {"pressure", "noise"} <= set(d.uncut_)
    assert len(d.cuts_["pressure"]) == 1 and 60 < d.cuts_["pressure"][0] < 64
    assert d.cuts_["noise"] == Discretizer("quantile", 2).fit(X[["noise"]]).cuts_["noise"]
    assert d.interactions_["pressure"] == pytest.approx(d.cuts_["pressure"][0], abs=0.2)


def test_two_classes_take_no_cut_within_another_columns_bins(monkeypatch):
    """Binary labels keep the interaction tree's cuts alone (the yes/no fits, and the
    comparison sets' answers, unchanged): `within_cut` is not consulted."""
    X, y = _shifted_grades(600, 4)

    def refused(*_a, **_k):
        raise AssertionError("within_cut consulted for two classes")

    monkeypatch.setattr("plx_core.discretize.within_cut", refused)
    Discretizer("mdlp", 32).fit(X, y == "A")


def test_past_within_pairs_no_cut_is_searched_within_other_columns(monkeypatch):
    """A table of more (uncut column, column beside) pairs than `WITHIN_PAIRS` keeps the
    median of a column MDLP leaves uncut: a wide table's cost stays the interaction tree's."""
    X, y = _shifted_grades(1200, 3)
    monkeypatch.setattr("plx_core.discretize.WITHIN_PAIRS", 1)  # 2 uncut x 1 beside
    d = Discretizer("mdlp", 32).fit(X, y)
    assert d.cuts_["pressure"] == Discretizer("quantile", 2).fit(X[["pressure"]]).cuts_["pressure"]
