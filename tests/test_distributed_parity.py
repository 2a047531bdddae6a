"""The Dask path says and answers what the in-memory path does, as a class: one seeded table
that triggers every note the in-memory fit gives, fitted both ways on one in-process
LocalCluster (cheap: one worker thread, no processes), and the bad inputs both refuse."""

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("distributed")

from plx_core import PLXClassifier  # noqa: E402
from plx_core import distributed as D  # noqa: E402
from plx_core.errors import DataError  # noqa: E402
from plx_core.notes import collected  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=1, processes=False, threads_per_worker=1,
                           dashboard_address=None)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


def noted_table(n=2000, copies=200, seed=25):
    """Columns each of which an in-memory note is about, then `copies` rows written twice."""
    rng = np.random.default_rng(seed)
    kg = rng.normal(75, 12, n).round(1)
    code = rng.choice(["A", "B", "C"], n)
    h = rng.normal(1.72, 0.09, n).round(2)
    y = np.where((kg > 80) ^ (code == "B") ^ (rng.random(n) < 0.1), "sick", "well")
    p = 1.0 / np.arange(1, 61)
    X = pd.DataFrame({
        "kg": kg, "lb": (kg * 2.2046).round(1), "code": code,  # lb: one measure twice
        "status": np.where(y == "sick", "S", "W"),  # a copy of the label
        "ticked": np.where(rng.random(n) < 0.3, "x", None),  # a flag and empty cells
        "smoker": rng.choice(["Yes", "yes ", "no"], n),  # one value written two ways
        "flag": rng.choice(["Y", "N", "TRUE", "FALSE"], n),  # two yes/no vocabularies
        "pct": np.where(rng.random(n) < 0.5, rng.uniform(0.05, 0.95, n).round(3),
                        rng.uniform(5, 95, n).round(1)),  # fractions and percents
        "height": np.where(np.arange(n) < 700, h, (h * 100).round(0)),  # m, then cm rows
        "creat": np.where(rng.random(n) < 0.06, -999.0, rng.uniform(0.2, 4, n).round(2)),
        "ratio": np.where(rng.random(n) < 0.03, np.inf, rng.uniform(0, 3, n).round(3)),
        "score": rng.integers(1, 6, n),  # a few whole numbers
        "row_id": rng.permutation(n) + 1,  # names the rows
        "patient_no": rng.integers(10000, 99999, n // 4).repeat(4),  # names cases
        "city": rng.choice([f"c{i}" for i in range(60)], n, p=p / p.sum()),  # grouped
        "comment": [f"patient said {w} about day {i}" for i, w in zip(
            rng.integers(0, 9999, n), rng.choice(["pain", "nothing", "sleep"], n))],
        "const": "same",
        "visit": np.where(rng.random(n) < 0.5, [f"2024-03-0{d}" for d in rng.integers(1, 9, n)],
                          [f"0{d}/03/2024" for d in rng.integers(1, 9, n)]),  # two formats
        "amount": [f"{v:,}" for v in rng.integers(500, 5000, n)],  # numbers written as text
    })
    X, y = pd.concat([X, X.iloc[n - copies:]]), np.concatenate([y, y[n - copies:]])  # copies
    return X.reset_index(drop=True), pd.Series(y, name="label")


def test_the_cluster_fit_says_and_answers_what_the_in_memory_fit_does(client):
    X, y = noted_table()
    with collected() as mem:
        m = PLXClassifier(positive="sick", variant="tuned").fit(X, y)
    with collected() as dask:
        d = D.fit_dask(D.as_dask_frame(X.assign(label=y), npartitions=3), "label",
                       positive="sick")
    for about in ("'lb'", "'status'", "'ticked'", "'smoker'", "'flag'", "'pct'", "'height'",
                  "'creat'", "'ratio'", "'visit'", "left out", "repeat an earlier"):
        assert any(about in note for note in mem), (about, mem)
    assert [note for note in mem if note not in dask] == [], dask
    # the cluster says no other note but plx fit's one on a few whole numbers kept as levels
    assert [note[:40] for note in dask if note not in mem] == [
        "column 'score' is used as categories: it"]
    assert "all of them the table's first 700 rows" in next(n for n in dask if "'height'" in n)
    assert d.cuts_ == m.cuts_ and list(d.excluded_.items()) == list(m.excluded_.items())
    assert d.kb_.to_text() == m.kb_.to_text()

    new = X.iloc[[3, 5, 8, 13, 21]].copy()
    new.loc[new.index[1], ["code", "city"]] = ["Z", None]  # never seen
    new.loc[new.index[2], ["kg", "lb", "code", "height"]] = [np.nan, np.nan, "Z", np.nan]
    new.index = [50, 40, 30, 20, 10]
    with collected() as mem:
        want = m.bounds(new)
    with collected() as dask:
        got = D.bounds_dask(d, D.as_dask_frame(new, npartitions=2), client).compute()
    assert mem == dask and any("never saw" in note for note in mem), (mem, dask)
    assert got.index.tolist() == [50, 40, 30, 20, 10]
    np.testing.assert_allclose(got[["lower", "upper", "mean"]], want[["lower", "upper", "mean"]])
    assert got["uninformed"].tolist() == want["uninformed"].tolist()
    with collected() as mem:
        decided = m.predict(new)
    with collected() as dask:
        answered = D.predict_dask(d, D.as_dask_frame(new, npartitions=2), client)
    assert list(answered) == list(decided) and mem == dask, (mem, dask)


def test_the_cluster_refuses_bad_input_in_the_in_memory_words(client, tmp_path):
    from plx_core.data import read_table

    X, y = noted_table(200, copies=0)
    X = X[["kg", "code"]]

    def refusals(frame, label):
        said = []
        for fit in (lambda: PLXClassifier(variant="tuned", positive="sick").fit(frame, label),
                    lambda: D.fit_dask(D.as_dask_frame(frame.assign(label=label)), "label",
                                       positive="sick")):
            with pytest.raises(DataError) as err:
                fit()
            said.append(str(err.value))
        return said

    mem, dask = refusals(X, pd.Series(["well"] * len(X)))
    assert mem.replace("y has", "the label 'label' has") == dask
    mixed = X.assign(dose=pd.Series([1, "a", 2.5, None] * 50, dtype=object))
    mem, dask = refusals(mixed, y)
    assert mem == dask and mem.startswith("column 'dose' mixes numbers (row 2: 2.5)")
    pytest.importorskip("pyarrow")
    path = tmp_path / "nested.parquet"
    X.assign(c=[[1, 2]] * len(X), label=y).to_parquet(path)
    with pytest.raises(DataError) as mem:
        read_table(str(path))
    with pytest.raises(DataError) as dask:
        D.as_dask_frame(str(path))
    assert "column 'c' holds lists" in str(mem.value)
    assert str(mem.value).split(": ", 1)[-1] == str(dask.value).split(": ", 1)[-1]
