"""plx_core.experiments.compare: every method on the same splits, resumable runs, and the target table."""

import numpy as np
import pandas as pd
import pytest
from conftest import require_shared_data

from plx_core.experiments.command import main
from plx_core.experiments.compare import METHODS, compare_runs, markdown, summary, targets


@pytest.mark.slow
def test_methods_share_splits_and_runs_resume(tmp_path):
    log = tmp_path / "runs.csv"
    methods = ["plx", "plx paper", "CART", "LogReg", "Forest"]
    df = compare_runs(["rare-30"], methods, runs=2, max_rows=200, log=log)
    assert len(df) == 2 * len(methods)
    assert (df.groupby("run")["n_test"].nunique() == 1).all()  # one split per run for all
    assert df["f1"].between(0, 1).all() and (df["fit_s"] > 0).all()
    plx = df[df["method"] == "plx"]["f1"]
    assert (plx > 0).all()  # 30% positives: never F1 = 0
    again = compare_runs(["rare-30"], methods, runs=2, max_rows=200, log=log)
    assert again["fit_s"].tolist() == df["fit_s"].tolist()  # reused, not re-measured
    assert len(pd.read_csv(log)) == len(df)


def test_targets_name_the_gaps():
    rows = []
    for m, f1 in [("plx", 0.80), ("plx paper", 0.81), ("CART", 0.78), ("EBM", 0.83),
                  ("Forest", 0.805), ("SVM", 0.70)]:
        rows += [{"dataset": "s", "label": "S", "run": r, "method": m, "f1": f1,
                  "fit_s": 1.0 if m != "plx" else 2.0} for r in range(2)]
    summ = summary(pd.DataFrame(rows))
    (t,) = targets(summ).to_dict("records")
    assert t["best_interpretable"] == "EBM" and t["vs_interpretable"] == pytest.approx(-0.03)
    assert t["best_black_box"] == "Forest" and t["vs_black_box"] == pytest.approx(-0.005)
    assert t["vs_paper"] == pytest.approx(-0.01) and t["fit_vs_forest"] == pytest.approx(2.0)
    md = markdown(summ, targets(summ), [m for m in METHODS if m in set(summ["method"])], "cmd")
    assert "| S | 0.800 ± 0.000 (2.00)" in md
    assert "within 0.01 of the best black box on 1/1" in md


@pytest.mark.slow
def test_command_line(tmp_path, capsys, shared_data_dir):  # Zoo: a shared data set
    assert main(["compare", "--runs", "2", "--sets", "zoo", "--methods", "plx,LogReg",
                 "--max-rows", "80", "--out", str(tmp_path), "--no-progress"]) == 0
    assert (tmp_path / "compare.md").read_text().startswith("Command: `python -m plx_core")
    assert main(["compare", "--sets", "iris", "--out", str(tmp_path)]) == 2
    assert "unknown data set ['iris']" in capsys.readouterr().err
    assert np.isfinite(pd.read_csv(tmp_path / "compare_summary.csv")["f1_mean"]).all()


@pytest.mark.slow
def test_summarise_only_measures_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PLX_DATA_DIR", str(tmp_path / "no-data-here"))  # nor reads any data
    assert main(["compare", "--sets", "zoo", "--summarise-only", "--out", str(tmp_path)]) == 2
    assert "no runs measured or logged" in capsys.readouterr().err
    monkeypatch.undo()
    require_shared_data()  # what follows measures on Zoo
    assert main(["compare", "--runs", "1", "--sets", "zoo", "--methods", "plx",
                 "--max-rows", "80", "--out", str(tmp_path), "--no-progress"]) == 0
    assert main(["compare", "--runs", "3", "--sets", "zoo", "--methods", "plx,SVM",
                 "--max-rows", "80", "--out", str(tmp_path), "--summarise-only"]) == 0
    summ = pd.read_csv(tmp_path / "compare_summary.csv")
    assert summ[["method", "runs"]].values.tolist() == [["plx", 1]]


def test_test_rows_the_lp_failed_on_are_counted_and_said(monkeypatch):
    """A plx model whose LP fails on a test row: the run's row counts it (`unanswered`) and
    the progress line says it, rather than the warning being swallowed with the others."""
    import dataclasses

    import plx_core.estimator as E

    real = E.query_many

    def first_row_fails(kb, rows, *a, **kw):
        b = real(kb, rows, *a, **kw)
        lo, up = b.lower.copy(), b.upper.copy()
        lo[0] = up[0] = np.nan
        return dataclasses.replace(b, lower=lo, upper=up, failed=((0, "solver crashed"),))

    monkeypatch.setattr(E, "query_many", first_row_fails)
    said: list[str] = []
    df = compare_runs(["rare-30"], ["plx paper"], runs=1, max_rows=200, progress=said.append)
    assert df["unanswered"].tolist() == [1]
    assert "1 test row could not be answered (the LP failed)" in said[0]
    assert summary(df)["unanswered"].tolist() == [1]
