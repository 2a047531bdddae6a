"""plx_core.distributed on a real LocalCluster (2 worker processes): the Direct KB, the fit,
predictions and explanations of a partitioned Parquet table equal the in-memory answers."""

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("distributed")

from plx_core import PLXClassifier  # noqa: E402
from plx_core import distributed as D  # noqa: E402
from plx_core.direct import direct_kb_with_reason  # noqa: E402
from plx_core.errors import DataError  # noqa: E402
from plx_core.rules import features_text  # noqa: E402

pytestmark = pytest.mark.slow


def table(n=3000, F=6, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 3, (n, F)).astype(str), columns=[f"f{i}" for i in range(F)])
    X.loc[rng.random(n) < 0.05, "f2"] = None  # missing values stay unknown
    y = ((X["f0"] == "1") ^ (X["f1"] == "2") ^ (rng.random(n) < 0.15)).map({True: "yes", False: "no"})
    return X, y


@pytest.fixture(scope="module")
def client():
    c = D.connect(workers=2)
    yield c
    cluster = c.cluster
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def parquet(tmp_path_factory):
    X, y = table()
    path = tmp_path_factory.mktemp("pq") / "train"
    path.mkdir()
    frame = X.assign(label=y)
    for i, part in enumerate(np.array_split(np.arange(len(frame)), 5)):  # a partitioned data set
        frame.iloc[part].to_parquet(path / f"part.{i}.parquet")
    return str(path), X, y


def test_the_workers_run_this_checkout(client):
    import plx_core

    where = client.run(lambda: __import__("plx_core").__file__)
    assert set(where.values()) == {plx_core.__file__}


def test_direct_kb_of_partitions_equals_the_in_memory_kb(client, parquet):
    path, X, y = parquet
    kb, why = D.direct_kb_dask(path, "label", positive="yes", max_len=None)
    ref, ref_why = direct_kb_with_reason(X, y, positive="yes", max_len=None)
    assert kb.n_learned > 500 and kb.to_text() == ref.to_text()
    assert why == ref_why


def test_fit_predict_explain_equal_the_in_memory_answers(client, parquet):
    path, X, y = parquet
    clf = D.fit_dask(path, "label", positive="yes")
    ref = PLXClassifier(positive="yes", variant="tuned").fit(X, y)  # "auto" on Dask is tuned
    assert clf.chosen_ == "direct" and "Dask" in clf.chosen_reason_
    assert clf.max_len_ == ref.max_len_ and clf.max_len_reason_ == ref.max_len_reason_
    assert clf.tuned_[0] == ref.tuned_[0]
    test, _ = table(n=700, seed=1)
    part = D.as_dask_frame(test, npartitions=3)
    got = D.bounds_dask(clf, part, client=client).compute()
    want = ref.bounds(test)
    np.testing.assert_array_equal(got["lower"].to_numpy(), want["lower"].to_numpy())
    np.testing.assert_array_equal(got["upper"].to_numpy(), want["upper"].to_numpy())
    assert got["prediction"].tolist() == [str(v) for v in ref.predict(test)]
    assert set(got["prediction"]) == {"yes", "no"}
    ex = D.explain_dask(clf, part.head(6, compute=False), k=2, client=client).compute()
    for (_, row), (_, e) in zip(test.head(6).iterrows(), ex.iterrows()):
        r = ref.explain(row.astype(object), k=2)
        assert e["features"] == features_text(r.features)


def test_bad_input_is_named(client, parquet):
    path, _, _ = parquet
    with pytest.raises(Exception, match="label column 'nope'"):
        D.direct_kb_dask(path, "nope")
    with pytest.raises(Exception, match="'tuned' or 'paper'"):
        D.fit_dask(path, "label", variant="bagged")


def test_cli_predict_on_the_cluster_equals_the_plain_predict(client, parquet, tmp_path, capsys):
    from plx_core.cli import main

    path, X, y = parquet
    csv = tmp_path / "train.csv"
    X.assign(label=y).to_csv(csv, index=False)
    model = tmp_path / "model.json"
    assert main(["fit", str(csv), "--label", "label", "--positive", "yes", "--out", str(model)]) == 0
    plain, dist = tmp_path / "plain.csv", tmp_path / "dask.csv"
    assert main(["predict", str(model), str(csv), "--out", str(plain)]) == 0
    assert main(["predict", str(model), path, "--dask", client.scheduler.address,
                 "--out", str(dist)]) == 0
    a, b = pd.read_csv(plain), pd.read_csv(dist)
    pd.testing.assert_frame_equal(a, b)
    assert set(a["decision"]) == {"yes", "no"}


def test_the_cluster_fit_leaves_out_the_columns_the_in_memory_fit_leaves_out(client):
    # fit_dask kept ID and constant columns: a KB memorising row IDs, unlike PLXClassifier.fit
    X, y = table(n=600, F=3, seed=2)
    X = X.assign(id=[f"r{i}" for i in range(len(X))], k="same")
    with pytest.warns(UserWarning, match="'id': ID-like"):
        ref = PLXClassifier(positive="yes", variant="tuned").fit(X, y)
    with pytest.warns(UserWarning, match="'k': constant"):
        clf = D.fit_dask(D.as_dask_frame(X.assign(label=y), npartitions=3), "label",
                         positive="yes")
    assert clf.excluded_ == ref.excluded_ and set(clf.excluded_) == {"id", "k"}
    assert clf.kb_.features == ref.kb_.features == ("f0", "f1", "f2")
    test, _ = table(n=200, F=3, seed=3)
    test = test.assign(id="new", k="same")
    got = D.bounds_dask(clf, D.as_dask_frame(test, npartitions=2), client=client).compute()
    np.testing.assert_array_equal(got["mean"].to_numpy(), ref.bounds(test)["mean"].to_numpy())


def test_a_csv_fit_on_the_cluster_reads_the_missing_markers_as_the_in_memory_fit(client, tmp_path):
    # dd.read_csv took only "" as missing: the cluster KB learned f2 = "?" as a value
    from plx_core.data import load_csv

    X, y = table(n=900, F=4, seed=4)
    rng = np.random.default_rng(4)
    X.loc[rng.random(len(X)) < 0.1, "f1"] = "?"
    X.loc[rng.random(len(X)) < 0.05, "f3"] = "NA"
    csv = tmp_path / "train.csv"
    X.assign(label=y).to_csv(csv, index=False)
    frame = load_csv(csv)
    ref = PLXClassifier(positive="yes", variant="tuned").fit(frame.drop(columns="label"),
                                                            frame["label"])
    clf = D.fit_dask(str(csv), "label", positive="yes")
    assert "?" not in clf.kb_.domains["f1"] and "NA" not in clf.kb_.domains["f3"]
    assert clf.kb_.to_text() == ref.kb_.to_text()
    test = frame.drop(columns="label")
    got = D.bounds_dask(clf, str(csv), client=client).compute()
    np.testing.assert_array_equal(got["mean"].to_numpy(), ref.bounds(test)["mean"].to_numpy())


def test_cli_predict_on_the_cluster_says_values_written_otherwise_once(client, tmp_path, capsys):
    # each partition read "1 " as the learned "1": one line for the table, rows summed
    from plx_core.cli import main

    X, y = table(n=400, F=3, seed=5)
    train, clean, spaced = tmp_path / "train.csv", tmp_path / "clean.csv", tmp_path / "sp.csv"
    X.assign(label=y).to_csv(train, index=False)
    model = tmp_path / "model.json"
    assert main(["fit", str(train), "--label", "label", "--positive", "yes", "--out", str(model)]) == 0
    X.to_csv(clean, index=False)
    X.assign(f0=X["f0"].replace("1", "1 ")).to_csv(spaced, index=False)
    capsys.readouterr()
    plain, dist = tmp_path / "plain.csv", tmp_path / "dask.csv"
    assert main(["predict", str(model), str(clean), "--out", str(plain)]) == 0
    assert main(["predict", str(model), str(spaced), "--dask", client.scheduler.address,
                 "--out", str(dist)]) == 0
    said = [ln for ln in capsys.readouterr().err.splitlines() if "written otherwise" in ln]
    n = int((X["f0"] == "1").sum())
    assert said == [f"note: values written otherwise than in training, read as the same value: "
                    f"column 'f0': '1 ' read as '1' ({n} rows)"]
    pd.testing.assert_frame_equal(pd.read_csv(plain), pd.read_csv(dist))  # answers unchanged


def test_the_cluster_answers_warn_about_values_written_otherwise_as_in_memory(client):
    # bounds_dask / explain_dask said nothing when "1 " was read as the learned "1" (the
    # warning was raised on a worker, per partition, and never reached the user)
    X, y = table(n=600, F=3, seed=6)
    clf = PLXClassifier(positive="yes", variant="tuned").fit(X, y)
    test, _ = table(n=300, F=3, seed=7)
    test = test.assign(f0=test["f0"].replace("1", "1 "), f1=test["f1"].replace("2", "TWO")
                       ).astype(object)
    test.loc[test["f2"] == "0", "f2"] = 0  # a number where "0" was learned: the same value
    with pytest.warns(UserWarning, match="read as the same value") as mem:
        want = clf.bounds(test)
    part = D.as_dask_frame(test, npartitions=3)
    with pytest.warns(UserWarning, match="read as the same value") as dist:
        got = D.bounds_dask(clf, part, client=client).compute()
    said = [str(w.message) for w in dist if "read as the same value" in str(w.message)]
    assert said == [str(w.message) for w in mem if "read as the same value" in str(w.message)]
    assert "'1 ' read as '1' (" in said[0] and "TWO" not in said[0]  # TWO is unseen, not a twin
    np.testing.assert_array_equal(got["mean"].to_numpy(), want["mean"].to_numpy())
    with pytest.warns(UserWarning, match="'1 ' read as '1'"):
        D.explain_dask(clf, part, k=2, client=client)  # lazy: said before any explanation
    for answer in (D.bounds_dask, D.explain_dask):  # both name a missing column, lazily too
        with pytest.raises(DataError, match=r"lacks the model's feature column \['f1'\]"):
            answer(clf, part.drop(columns="f1"), client=client)


def test_cli_predict_on_the_cluster_reads_a_parquet_files_empty_text_as_plain_predict_does(
        client, tmp_path):
    # plain `plx predict` reads a Parquet text cell "" as missing (as a CSV's empty cell);
    # --dask masked every marker but "", so the cluster read "" as an unseen value
    from plx_core.cli import main

    X, y = table(n=400, F=3, seed=6)
    train = tmp_path / "train.csv"
    X.assign(label=y).to_csv(train, index=False)
    model = tmp_path / "model.json"
    assert main(["fit", str(train), "--label", "label", "--positive", "yes", "--out", str(model)]) == 0
    test = tmp_path / "test.parquet"
    X.assign(f0=X["f0"].where(np.arange(len(X)) % 7 != 0, "")).to_parquet(test)
    plain, dist = tmp_path / "plain.csv", tmp_path / "dask.csv"
    assert main(["predict", str(model), str(test), "--out", str(plain)]) == 0
    assert main(["predict", str(model), str(test), "--dask", client.scheduler.address,
                 "--out", str(dist)]) == 0
    a, b = pd.read_csv(plain), pd.read_csv(dist)
    assert a["unseen"].isna().all()  # "" is missing, not a value the model lacks
    pd.testing.assert_frame_equal(a, b)


def test_the_cluster_fit_bins_dates_and_numbers_as_the_in_memory_fit(client, tmp_path):
    # fit_dask read a date column as categories (one per day) where PLXClassifier.fit bins it
    # as a time line: same cut points, same KB, same answers
    rng = np.random.default_rng(5)
    n = 1200
    when = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 366, n), "D")
    X = pd.DataFrame({"when": when, "dose": rng.normal(5, 2, n).round(2),
                      "kind": rng.choice(list("abc"), n)})
    X.loc[rng.random(n) < 0.05, "when"] = pd.NaT  # missing dates stay unknown
    late = X["when"] > pd.Timestamp("2024-07-01")
    y = ((late ^ (X["dose"] > 6)) ^ (rng.random(n) < 0.1)).map({True: "yes", False: "no"})
    ref = PLXClassifier(positive="yes", variant="tuned").fit(X, y)
    path = tmp_path / "dates"
    path.mkdir()
    for i, part in enumerate(np.array_split(np.arange(n), 4)):
        X.assign(label=y).iloc[part].to_parquet(path / f"part.{i}.parquet")
    clf = D.fit_dask(str(path), "label", positive="yes")
    assert set(ref.cuts_) == {"when", "dose"} and clf.cuts_ == ref.cuts_
    assert ref.discretizer_.binnings_["when"].labels[0].startswith("<2024-")  # a time line
    assert clf.kb_.domains["when"] == ref.kb_.domains["when"]
    assert clf.kb_.to_text() == ref.kb_.to_text()
    test = X.sample(300, random_state=1)
    got = D.bounds_dask(clf, D.as_dask_frame(test, npartitions=3), client=client).compute()
    np.testing.assert_array_equal(got["mean"].to_numpy(), ref.bounds(test)["mean"].to_numpy())
    assert got["prediction"].tolist() == [str(v) for v in ref.predict(test)]


def test_the_cluster_fit_cuts_numbers_that_decide_together_as_the_in_memory_fit(client,
                                                                               monkeypatch):
    """Two numbers that decide only together (an XOR): no MDLP cut pays on either, the
    in-memory fit cuts each where a tree on every numeric column splits it — fit_dask grows
    that tree on the same rows (every row, or above `INTERACTION_ROWS` the same seeded
    sample), so the same cut points, not the median."""
    import plx_core.discretize as DZ

    rng = np.random.default_rng(8)  # a table where no MDLP cut pays on a
    n = 1200
    X = pd.DataFrame({"a": rng.normal(size=n).round(3), "b": rng.normal(size=n).round(3),
                      "c": rng.normal(size=n).round(3), "kind": rng.choice(list("xy"), n)})
    X.loc[rng.random(n) < 0.05, "c"] = np.nan
    y = pd.Series(np.where(((X.a > 0.3) ^ (X.b < -0.2)) & (rng.random(n) > 0.1), "yes", "no"))
    for rows in (DZ.INTERACTION_ROWS, 700):  # every row; a sample of 700 of the 1,200
        monkeypatch.setattr(DZ, "INTERACTION_ROWS", rows)
        ref = PLXClassifier(positive="yes", variant="tuned").fit(X, y)
        # near the threshold, not at the median (~0) the fit fell back to
        assert abs(ref.cuts_["a"][0] - 0.3) < 0.05 and abs(np.nanmedian(X.a)) < 0.1
        clf = D.fit_dask(D.as_dask_frame(X.assign(label=y), npartitions=3), "label",
                         positive="yes", variant="tuned")
        assert clf.cuts_ == ref.cuts_
        assert clf.kb_.to_text() == ref.kb_.to_text()


def test_the_cluster_fit_cuts_a_limit_that_holds_within_a_category_as_in_memory(client,
                                                                              monkeypatch):
    """A second cholesterol limit that pays only off statins (an extra cut, found within the
    rows of one level) beside a noise column: fit_dask gathers the categorical columns with
    the numbers on the rows the in-memory fit reads them on (every row, or the same seeded
    sample), so the same cut points and the same KB."""
    import plx_core.discretize as DZ

    rng = np.random.default_rng(2)
    n = 600
    smoker, statin = rng.random(n) < 0.3, rng.random(n) < 0.5
    chol = rng.normal(5.5, 1, n).round(2)
    event = ((smoker & (chol > 5.5)) | (~statin & (chol > 6.5))) ^ (rng.random(n) < 0.03)
    X = pd.DataFrame({"smoker": np.where(smoker, "TRUE", "FALSE"),
                      "on_statin": statin.astype(int), "chol": chol,
                      "lab": rng.normal(size=n).round(2)})
    y = pd.Series(np.where(event, "yes", "no"))
    for rows in (DZ.INTERACTION_ROWS, 400):  # every row; a sample of 400 of the 600
        monkeypatch.setattr(DZ, "INTERACTION_ROWS", rows)
        ref = PLXClassifier(positive="yes", variant="tuned").fit(X, y)
        assert len(ref.cuts_["chol"]) == 2
        clf = D.fit_dask(D.as_dask_frame(X.assign(label=y), npartitions=3), "label",
                         positive="yes", variant="tuned")
        assert clf.cuts_ == ref.cuts_
        assert clf.kb_.to_text() == ref.kb_.to_text()
    # the sample is set by the rows' content (`discretize.row_keys`): the table shuffled, in
    # memory and on the cluster in other parts, has the same cut points (tidy20: positions)
    shuffled = X.assign(label=y).sample(frac=1.0, random_state=5)
    again = D.fit_dask(D.as_dask_frame(shuffled, npartitions=4), "label", positive="yes",
                       variant="tuned")
    mem = PLXClassifier(positive="yes", variant="tuned").fit(shuffled.drop(columns="label"),
                                                             shuffled["label"])
    assert again.cuts_ == mem.cuts_ == ref.cuts_


def test_the_cluster_fit_leaves_each_case_out_as_the_in_memory_grouped_fit(client, monkeypatch):
    """A case column in a Dask table (`fit_dask(groups=)`, tidy20: not taken): no feature, and
    the tuned leave-one-out leaves each row's whole case out — the same window, prior, KB and
    answers as `PLXClassifier.fit(X, y, groups)` on the same rows, whether every row is left
    out or (a smaller pair budget) a sample of whole cases; a missing case is refused."""
    import plx_core.variants as V

    rng = np.random.default_rng(3)
    n_cases, visits = 45, 4
    case = np.repeat(np.arange(n_cases), visits)
    look = rng.integers(0, 3, (n_cases, 3))
    X = pd.DataFrame(look[case].astype(str), columns=["f0", "f1", "f2"])
    X["dose"] = rng.normal(size=len(case)).round(2)
    y = pd.Series(np.where((rng.random(n_cases) < 0.4)[case] ^ (X["f0"] == "1"), "yes", "no"))
    table = X.assign(patient=[f"p{c:02d}" for c in case], label=y)
    for budget in (V.TUNE_PAIR_BUDGET, 1000):  # every row; a sample of whole cases
        monkeypatch.setattr(V, "TUNE_PAIR_BUDGET", budget)
        ref = PLXClassifier(positive="yes", variant="tuned").fit(X, y, groups=table["patient"])
        plain = PLXClassifier(positive="yes", variant="tuned").fit(X, y)
        clf = D.fit_dask(D.as_dask_frame(table, npartitions=3), "label", groups="patient",
                         positive="yes", variant="tuned")
        assert "patient" not in clf.feature_names_in_
        got, want = clf.tuned_[0], ref.tuned_[0]
        assert (got.min_len, got.max_len, got.prior_weight, got.loo_f1) == \
            (want.min_len, want.max_len, want.prior_weight, want.loo_f1)
        assert got.loo_f1 != plain.tuned_[0].loo_f1  # the case left out, not the row alone
        assert clf.kb_.to_text() == ref.kb_.to_text()
        assert (clf.predict(X) == ref.predict(X)).all()
    bad = table.assign(patient=table["patient"].where(np.arange(len(table)) != 5))
    with pytest.raises(DataError, match="groups column 'patient': .*has no case"):
        D.fit_dask(D.as_dask_frame(bad, npartitions=3), "label", groups="patient",
                   positive="yes", variant="tuned")


def test_replica_groups_on_a_sampled_table_leave_out_as_the_in_memory_fit(client, monkeypatch):
    """users21: groups that mark replicas (each group one row repeated, as `data.balance`
    copies the rare class) on a table over the leave-one-out's pair budget. In memory each
    sampled row left out its group's identical rows counted on the whole table; the cluster
    counted them on the sample only, so a row whose copies were not drawn voted for itself
    through them: another window or prior, another KB. Both now count on the whole table."""
    import plx_core.variants as V
    from plx_core.data import balance

    X, y = table(n=300, F=4, seed=21)
    rare = y == "yes"
    X, y = X[~rare | (np.arange(len(y)) % 4 == 0)], y[~rare | (np.arange(len(y)) % 4 == 0)]
    X, y = balance(X.reset_index(drop=True), y.reset_index(drop=True), 21)
    src = X.index.to_numpy()  # a replica keeps its source row's index label: its group
    X, y = X.reset_index(drop=True), y.reset_index(drop=True)
    groups = pd.Series([f"r{i}" for i in src])
    assert groups.duplicated().any()
    monkeypatch.setattr(V, "TUNE_PAIR_BUDGET", 4000)  # a sample of the rows is left out
    ref = PLXClassifier(positive="yes", variant="tuned").fit(X, y, groups=groups)
    clf = D.fit_dask(D.as_dask_frame(X.assign(case=groups, label=y), npartitions=3), "label",
                     groups="case", positive="yes", variant="tuned")
    got, want = clf.tuned_[0], ref.tuned_[0]
    assert got.n_rows == want.n_rows < len(y)
    assert (got.min_len, got.max_len, got.prior_weight, got.loo_f1) == \
        (want.min_len, want.max_len, want.prior_weight, want.loo_f1)
    assert clf.kb_.to_text() == ref.kb_.to_text()
    assert (clf.predict(X) == ref.predict(X)).all()


def test_the_cluster_answers_rows_without_the_columns_the_fit_left_out(client):
    """As the in-memory predict and `plx predict` do, the Dask answers accept rows that lack an
    ID or constant column the fit left out (the KB never reads it)."""
    X, y = table(n=600, F=3, seed=2)
    X = X.assign(id=[f"r{i}" for i in range(len(X))], k="same")
    with pytest.warns(UserWarning, match="left out"):
        clf = PLXClassifier(positive="yes").fit(X, y)
    assert set(clf.excluded_) == {"id", "k"}
    test, _ = table(n=200, F=3, seed=3)  # f0, f1, f2 only
    ddf = D.as_dask_frame(test, npartitions=2)
    got = D.bounds_dask(clf, ddf, client=client).compute()
    np.testing.assert_array_equal(got["mean"].to_numpy(), clf.bounds(test)["mean"].to_numpy())
    assert D.predict_dask(clf, ddf, client=client).tolist() == clf.predict(test).astype(str).tolist()
    ex = D.explain_dask(clf, D.as_dask_frame(test.head(6), npartitions=2), k=2,
                        client=client).compute()
    assert ex["features"].tolist() == [features_text(clf.explain(test.iloc[[i]], k=2).features)
                                       for i in range(6)]
    with pytest.raises(DataError, match=r"lacks the model's feature column \['f1'\]"):
        D.bounds_dask(clf, D.as_dask_frame(test.drop(columns="f1"), npartitions=2), client=client)


def test_the_cluster_fit_bins_numbers_held_as_objects_as_the_in_memory_fit(client):
    """Numbers held in an object column (Decimal from a database, astype(object)) are binned
    in memory; fit_dask left them out as too many distinct values: same cuts and KB now."""
    from decimal import Decimal

    rng = np.random.default_rng(11)
    n = 400
    dose = rng.normal(5, 2, n).round(2)
    X = pd.DataFrame({"dose": pd.Series([Decimal(str(v)) for v in dose], dtype=object),
                      "level": pd.Series(rng.normal(0, 1, n).round(3)).astype(object),
                      "kind": rng.choice(list("abc"), n)})
    X.loc[:20, "dose"] = None  # a partition may start with missing cells
    y = pd.Series(np.where((dose > 6) ^ (rng.random(n) < 0.1), "yes", "no"))
    ref = PLXClassifier(positive="yes", variant="tuned").fit(X, y)
    clf = D.fit_dask(D.as_dask_frame(X.assign(label=y), npartitions=4), "label",
                     positive="yes", variant="tuned")
    assert set(ref.cuts_) == {"dose", "level"} and clf.cuts_ == ref.cuts_
    assert clf.kb_.to_text() == ref.kb_.to_text()
    test = X.sample(100, random_state=2)
    got = D.bounds_dask(clf, D.as_dask_frame(test, npartitions=2), client=client).compute()
    np.testing.assert_array_equal(got["mean"].to_numpy(), ref.bounds(test)["mean"].to_numpy())


def test_the_cluster_fit_groups_and_leaves_out_as_the_in_memory_fit(client):
    # a 300-level zip keeps its frequent levels, an ID and free text are left out: on the
    # cluster as in memory (same words, same answers, a never-seen zip read as "(other)")
    from test_levels import clinic

    X, y = clinic(900)
    ref = PLXClassifier(positive="sick", variant="tuned").fit(X, y)
    with pytest.warns(UserWarning, match="grouped .*'zip': "):
        clf = D.fit_dask(D.as_dask_frame(X.assign(label=y), npartitions=3), "label",
                         positive="sick")
    assert clf.grouped_ == ref.grouped_ and set(clf.grouped_) == {"zip"}
    assert clf.excluded_ == ref.excluded_ and set(clf.excluded_) == {"id", "note"}
    assert clf.discretizer_.levels_ == ref.discretizer_.levels_
    assert clf.kb_.features == ref.kb_.features
    test = X.iloc[:200].assign(zip=np.where(np.arange(200) % 3 == 0, "R999", X["zip"][:200]))
    got = D.bounds_dask(clf, D.as_dask_frame(test, npartitions=2), client=client).compute()
    np.testing.assert_array_equal(got["mean"].to_numpy(), ref.bounds(test)["mean"].to_numpy())


def test_the_cluster_fit_says_how_to_convert_the_columns_it_leaves_out_as_in_memory(client):
    # dates and numbers written as text, of too many levels to be categories: the in-memory
    # fit's reason ends with how to convert them; the cluster's said only "too many levels".
    # A grouped column's spellings of a kept level: said alike too.
    from test_levels import cities

    X, y = cities(900)
    n = len(X)
    rng = np.random.default_rng(5)
    days = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 400, n), unit="D")
    X = X.assign(visit=days.strftime("%Y-%m-%d"),
                 amount=[f"{v:,.2f}" for v in rng.uniform(1000, 9000, n)])
    with pytest.warns(UserWarning):
        ref = PLXClassifier(positive="sick", variant="tuned").fit(X, y)
    with pytest.warns(UserWarning, match="'visit': too many .* convert it \\(pd.to_datetime\\)"):
        clf = D.fit_dask(D.as_dask_frame(X.assign(label=y), npartitions=3), "label",
                         positive="sick")
    assert set(clf.excluded_) == {"visit", "amount"}
    assert clf.excluded_ == ref.excluded_
    assert "it holds dates as text: convert it (pd.to_datetime)" in clf.excluded_["visit"]
    assert " as text: convert it with plx_core.data.column_numbers(s, 'thousands')" in \
        clf.excluded_["amount"]
    assert clf.grouped_ == ref.grouped_ and "'PARIS' as 'Paris'" in clf.grouped_["city"]
    # a feature column missing from the rows to answer: named, with its other spelling
    with pytest.raises(DataError, match=r"lacks the model's feature column \['smoker'\].*"
                                        "'Smoker'"):
        D.bounds_dask(clf, D.as_dask_frame(X.rename(columns={"smoker": "Smoker"}),
                                           npartitions=2), client=client)


def _fail_where_f0_is_one(on: bool, tag_by_kb: bool = False, explain: bool = False) -> None:
    """In this process (a test's or a worker's): the LP fails on every row whose f0 is '1' —
    its answers NaN with a reason naming the KB's POS when `tag_by_kb` (each class's KB
    fails for its own reason), or with `explain` the explanation search instead (a time-out);
    `on=False` restores the real functions."""
    import dataclasses
    import sys

    import plx_core  # noqa: F401 - its modules (plx_core.query is also a function's name)
    from plx_core.errors import SolverTimeoutError

    E, Q, X = (sys.modules[f"plx_core.{m}"] for m in ("estimator", "query", "explain"))
    real = getattr(_fail_where_f0_is_one, "real", None) or (X._SubQueries, X.explain_all)
    _fail_where_f0_is_one.real = real

    def failing(kb, frame, *a, **kw):
        b = Q.query_many(kb, frame, *a, **kw)
        rows = np.flatnonzero(frame["f0"].to_numpy(dtype=object) == "1")
        why = f"solver crashed on the KB of {kb.positive}" if tag_by_kb else "solver crashed"
        lo, up = b.lower.copy(), b.upper.copy()
        lo[rows] = up[rows] = np.nan
        return dataclasses.replace(b, lower=lo, upper=up, failed=tuple((int(r), why) for r in rows))

    def timing_out(fn):
        def run(kb, row, *a, **kw):
            if dict(row).get("f0") == "1":
                raise SolverTimeoutError("the LP hit the time limit of 60 s")
            return fn(kb, row, *a, **kw)
        return run

    E.query_many = failing if on and not explain else Q.query_many
    X._SubQueries, X.explain_all = (timing_out(real[0]), timing_out(real[1])) if on and explain else real


def test_predict_on_the_cluster_says_the_rows_the_lp_failed_on_as_in_memory(client):
    # predict_dask gave the rows the LP failed on the negative class with no word: the note
    # was said on a worker process, never to the user
    from plx_core.query import UnansweredRows

    X, y = table(n=400, F=3, seed=8)
    clf = PLXClassifier(positive="yes", variant="paper").fit(X, y)
    test, _ = table(n=120, F=3, seed=9)
    hit = np.flatnonzero(test["f0"].to_numpy(dtype=object) == "1")
    _fail_where_f0_is_one(True)
    try:
        with pytest.warns(UnansweredRows) as mem:
            want = clf.predict(test)
    finally:
        _fail_where_f0_is_one(False)
    client.run(_fail_where_f0_is_one, True)
    try:
        ddf = D.as_dask_frame(test, npartitions=3)
        with pytest.warns(UnansweredRows) as dist:
            got = D.predict_dask(clf, ddf, client=client)
        frame = D.bounds_dask(clf, ddf, client=client).compute()
    finally:
        client.run(_fail_where_f0_is_one, False)
    said = [w.message for w in dist if isinstance(w.message, UnansweredRows)]
    assert [w.rows for w in said] == [len(hit)] and len(hit) > 3  # summed over the partitions
    assert [str(w) for w in said] == [str(w.message) for w in mem]
    assert f"row {hit[0]}: solver crashed" in str(said[0]) and "negative class 'no'" in str(said[0])
    assert got.tolist() == want.astype(str).tolist()
    assert (frame["note"].to_numpy(dtype=object) != "").nonzero()[0].tolist() == hit.tolist()
    assert frame["mean"].isna().to_numpy().nonzero()[0].tolist() == hit.tolist()


def test_a_model_of_three_classes_predicts_on_the_cluster_as_in_memory(client):
    # bounds_dask read one 'lower' column, so a one-vs-rest model (bounds per class) failed on
    # the workers: a user with a 3-class model got an error instead of predictions
    X, _ = table(n=400, F=3, seed=10)
    rng = np.random.default_rng(10)
    y = np.where(X["f0"] == "0", 7, np.where(X["f1"] == "1", 8, 9))  # classes held as numbers
    y = np.where(rng.random(len(y)) < 0.1, rng.choice([7, 8, 9], len(y)), y)
    clf = PLXClassifier(variant="paper").fit(X, y)
    test, _ = table(n=150, F=3, seed=11)
    ddf = D.as_dask_frame(test, npartitions=3)
    got = D.predict_dask(clf, ddf, client=client)
    want = clf.predict(test)
    assert len(clf.kbs_) == 3 and set(want) == {7, 8, 9}
    assert got.tolist() == want.tolist() and got.dtype == want.dtype  # the classes, not text
    frame = D.bounds_dask(clf, ddf, client=client).compute()
    mem = clf.bounds(test)
    assert list(frame.columns) == [f"{s}:{c}" for c in (7, 8, 9) for s in ("lower", "upper", "mean")
                                   ] + ["prediction", "note", "uninformed"]
    assert frame["uninformed"].tolist() == mem[("uninformed", "")].tolist()
    for c in (7, 8, 9):
        for s in ("lower", "upper", "mean"):
            np.testing.assert_array_equal(frame[f"{s}:{c}"].to_numpy(), mem[(str(c), s)].to_numpy())
    assert frame["prediction"].tolist() == [str(v) for v in want] and set(frame["note"]) == {""}


def test_several_classes_count_the_rows_that_failed_on_the_cluster_as_in_memory(client):
    # in memory the warning counted (row, reason) pairs, on Dask rows: a row every class's KB
    # failed on (each for its own reason) counted three times in memory, once on the cluster
    from plx_core.query import UnansweredRows

    X, _ = table(n=400, F=3, seed=10)
    rng = np.random.default_rng(10)
    y = np.where(X["f0"] == "0", "a", np.where(X["f1"] == "1", "b", "c"))
    y = np.where(rng.random(len(y)) < 0.1, rng.choice(["a", "b", "c"], len(y)), y)
    clf = PLXClassifier(variant="paper").fit(X, y)
    test, _ = table(n=90, F=3, seed=12)
    hit = np.flatnonzero(test["f0"].to_numpy(dtype=object) == "1")
    _fail_where_f0_is_one(True, tag_by_kb=True)
    try:
        with pytest.warns(UnansweredRows) as mem:
            want = clf.predict(test)
    finally:
        _fail_where_f0_is_one(False)
    client.run(_fail_where_f0_is_one, True, True)
    try:
        with pytest.warns(UnansweredRows) as dist:
            got = D.predict_dask(clf, D.as_dask_frame(test, npartitions=3), client=client)
    finally:
        client.run(_fail_where_f0_is_one, False)
    said = [[str(w.message) for w in ws if isinstance(w.message, UnansweredRows)]
            for ws in (mem, dist)]
    assert said[0] == said[1] and len(said[0]) == 1
    assert said[0][0].startswith(f"{len(hit)} rows could not be answered") and len(hit) > 3
    assert (f"row {hit[0]}: class 'a': solver crashed on the KB of a; class 'b': solver "
            "crashed on the KB of b; class 'c': solver crashed on the KB of c") in said[0][0]
    assert got.tolist() == want.tolist()


def test_explain_on_the_cluster_says_which_rows_could_not_be_explained(client):
    # explain_dask asked clf.explain row by row: one row whose explanation search failed
    # (a solver time-out) raised on the worker and the whole table got no explanation
    X, y = table(n=400, F=3, seed=8)
    clf = PLXClassifier(positive="yes", variant="paper").fit(X, y)
    test, _ = table(n=40, F=3, seed=9)
    hit = np.flatnonzero(test["f0"].to_numpy(dtype=object) == "1")
    _fail_where_f0_is_one(True, explain=True)
    try:
        want = clf.explain_many(test, k=2)
    finally:
        _fail_where_f0_is_one(False)
    client.run(_fail_where_f0_is_one, True, False, True)
    try:
        got = D.explain_dask(clf, D.as_dask_frame(test, npartitions=3), k=2,
                             client=client).compute()
    finally:
        client.run(_fail_where_f0_is_one, False)
    assert len(got) == len(test) and 3 < len(hit) < len(test) - 3
    for i, e in enumerate(want):
        row = got.iloc[i]
        if i in hit:  # said so: the reason, no features, no bounds
            assert row["note"] == "the LP hit the time limit of 60 s" and row["features"] == ""
            assert np.isnan(row["lower"]) and np.isnan(row["upper"])
        else:  # explained as in memory
            assert row["features"] == features_text(e.features) != ""
            assert (row["lower"], row["upper"]) == pytest.approx(tuple(e.bounds))


def test_a_folder_without_parquet_parts_is_one_clear_error(tmp_path):
    """fuzz17: plx predict --workers on a folder of no Parquet exited 1 with Dask's own
    several-line ValueError, and on '/' searched the whole disk."""
    with pytest.raises(DataError, match="holds no Parquet parts"):
        D.as_dask_frame(tmp_path)
    (tmp_path / "part.0.parquet").write_bytes(b"not parquet at all")
    with pytest.raises(DataError, match="cannot be read as Parquet") as got:
        D.as_dask_frame(tmp_path).compute()
    assert "\n" not in str(got.value)


def test_cli_predict_on_the_cluster_takes_and_says_the_columns_as_in_memory(client, tmp_path,
                                                                           capsys):
    """users21: `plx predict --dask` on a file whose columns come in another order, with one
    the model does not know and without one no clause names: in memory it is said and
    answered; on the cluster the extra column went unsaid and the missing one stopped every
    partition. Both now say the same two lines and give the same answers."""
    from plx_core.cli import main

    rng = np.random.default_rng(21)
    n = 300
    age = rng.integers(20, 80, n)
    town = rng.choice(["Orléans", "Lyon", "Nîmes"], n)
    sick = np.where((age > 50) & (town != "Lyon"), "yes", "no")
    train, new = tmp_path / "train.csv", tmp_path / "new.csv"
    pd.DataFrame({"age": age, "town": town, "smoker": rng.choice(["y", "n"], n),
                  "label": sick}).to_csv(train, index=False)
    model = tmp_path / "model.json"
    assert main(["fit", str(train), "--label", "label", "--positive", "yes", "--out",
                 str(model), "--no-progress"]) == 0
    pd.DataFrame({"height": 170, "town": town, "age": age}).to_csv(new, index=False)
    capsys.readouterr()
    plain, dist = tmp_path / "plain.csv", tmp_path / "dask.csv"
    assert main(["predict", str(model), str(new), "--out", str(plain)]) == 0
    said = [ln for ln in capsys.readouterr().err.splitlines() if "the model" in ln]
    assert any("column the model does not know, ignored: ['height']" in ln for ln in said), said
    assert any("no clause of the model names is not in the file" in ln and "'smoker'" in ln
               for ln in said), said
    assert main(["predict", str(model), str(new), "--dask", client.scheduler.address,
                 "--out", str(dist)]) == 0
    assert [ln for ln in capsys.readouterr().err.splitlines() if "the model" in ln] == said
    pd.testing.assert_frame_equal(pd.read_csv(plain), pd.read_csv(dist))


def notes_table(n=1200, seed=4):
    """A table holding what the in-memory fit says a note of: a weight in kg and in lb (one
    measure twice), a copy of a code under a new name, a box ticked 'x' or left empty, a
    value written two ways ('Yes' / 'yes '), a score of 5 whole levels, a column that pairs
    one to one with the label."""
    rng = np.random.default_rng(seed)
    kg = rng.normal(75, 12, n).round(1)
    code = rng.choice(["A", "B", "C"], n)
    y = np.where((kg > 80) ^ (code == "B") ^ (rng.random(n) < 0.1), "sick", "well")
    X = pd.DataFrame({"kg": kg, "lb": (kg * 2.2046).round(1), "code": code,
                      "code_copy": pd.Series(code).map({"A": "a1", "B": "b1", "C": "c1"}),
                      "ticked": np.where(rng.random(n) < 0.3, "x", None),
                      "smoker": rng.choice(["Yes", "yes ", "no"], n),
                      "score": rng.integers(1, 6, n),
                      "status": np.where(y == "sick", "S", "W")})
    return X, pd.Series(y, name="label")


def test_the_cluster_fit_says_the_notes_of_the_in_memory_fit(client):
    from plx_core.notes import collected

    X, y = notes_table()
    with collected() as mem:
        PLXClassifier(positive="sick", variant="tuned").fit(X, y)
    with collected() as dask:
        D.fit_dask(D.as_dask_frame(X.assign(label=y), npartitions=3), "label", positive="sick")
    about = [m for m in mem if m.startswith(("column 'lb'", "column 'code_copy'",
                                              "column 'ticked'", "column 'smoker'",
                                              "column 'status'"))]
    assert len(about) >= 5 and all(m in dask for m in about), (mem, dask)
    assert any("'score' is used as categories: " in m and "5 whole numbers" in m for m in dask)


def test_the_cluster_fit_names_a_stray_label_as_the_in_memory_fit(client):
    X, y = table(600)
    y = y.copy()
    y.iloc[[7, 300]] = "yse"
    with pytest.raises(DataError, match=r"needs a binary label.*'yse' in row 7, 300 \(like 'yes'\)"):
        D.fit_dask(D.as_dask_frame(X.assign(label=y), npartitions=3), "label", positive="yes")


def test_a_failing_partition_on_plx_s_own_cluster_is_plx_s_one_line_alone(tmp_path, capfd):
    """trust23: `plx predict --workers 1` on rows lacking the model's columns printed the
    worker's log ("distributed.worker - ERROR - Compute Failed … Traceback: …") before plx's
    one line; the LocalCluster plx starts now keeps its workers' logs to CRITICAL."""
    from plx_core.cli import main

    rng = np.random.default_rng(23)
    n = 120
    age = rng.integers(20, 80, n)
    train, new, model = tmp_path / "train.csv", tmp_path / "new.csv", tmp_path / "m.json"
    pd.DataFrame({"age": age, "colour": rng.choice(["red", "blue"], n),
                  "label": np.where(age > 50, "yes", "no")}).to_csv(train, index=False)
    assert main(["fit", str(train), "--label", "label", "--kb", "direct", "--no-progress",
                 "--out", str(model)]) == 0
    new.write_text("age,zz\n33,1\n61,2\n")
    capfd.readouterr()
    assert main(["predict", str(model), str(new), "--out", str(tmp_path / "p.csv"),
                 "--workers", "1"]) == 2
    err = capfd.readouterr().err
    assert "Compute Failed" not in err and "Traceback" not in err, err
    assert [ln for ln in err.splitlines() if ln.startswith("error:")] == [
        "error: the rows lack the feature column ['colour']; to answer without them (each "
        "row's value unknown, as the model answers a missing cell), add them as empty columns"]


def test_the_dask_reader_refuses_a_nested_parquet_column_from_the_footer(tmp_path):
    """reading24: `plx predict --dask` and the Dask fit read a Parquet column of lists without
    the pandas reader's check (trust23); a file, a folder of parts and a glob are refused in
    one line naming the column, before any row is read."""
    pytest.importorskip("pyarrow")
    (tmp_path / "parts").mkdir()
    nested = pd.DataFrame({"a": [1.0, 2.0], "c": [[1, 2], [3]]})
    nested.to_parquet(tmp_path / "n.parquet")
    nested.to_parquet(tmp_path / "parts" / "p0.parquet")
    for path in (tmp_path / "n.parquet", tmp_path / "parts", tmp_path / "parts" / "*.parquet"):
        with pytest.raises(DataError, match=r"column 'c' holds lists \(Parquet type list<"):
            D.as_dask_frame(str(path))
    pd.DataFrame({"a": [1.0, 2.0]}).to_parquet(tmp_path / "flat.parquet")
    assert D.as_dask_frame(str(tmp_path / "flat.parquet")).compute()["a"].tolist() == [1.0, 2.0]


def test_an_ordered_categorical_is_cut_in_its_order_as_in_memory(client):
    """reading27: a Dask column of ordered levels (age bands as an ordered Categorical) is cut
    where the in-memory fit cuts it, its bins named by the levels, new text read the same."""
    rng = np.random.default_rng(2)
    bands = ["0-9", "10-19", "20-29", "30-39", "40-49", "50-59", "60-69", "70+"]
    k = rng.integers(0, 8, 1200)
    y = np.where((k >= 5) ^ (rng.random(1200) < 0.1), "yes", "no")
    X = pd.DataFrame({"age": pd.Categorical(np.array(bands)[k], categories=bands, ordered=True),
                      "g": rng.choice(["a", "b"], 1200)})
    clf = D.fit_dask(D.as_dask_frame(X.assign(label=y), npartitions=3), "label", positive="yes")
    ref = PLXClassifier(positive="yes", variant="tuned").fit(X, y)
    assert clf.discretizer_.binnings_["age"] == ref.discretizer_.binnings_["age"]
    assert clf.discretizer_.binnings_["age"].labels == ("≤40-49", "≥50-59")
    new = pd.DataFrame({"age": ["60-69", "0-9"], "g": ["a", "a"]})
    assert clf.predict(new).tolist() == ref.predict(new).tolist() == ["yes", "no"]
