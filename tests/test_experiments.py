"""`python -m plx_core.experiments`: every subcommand on tiny settings writes its CSV, figure
and markdown, and the markdown puts the paper's numbers beside ours."""

import math

import pandas as pd
import pytest
from conftest import require_shared_data

from plx_core.experiments.command import main
from plx_core.experiments.runner import seed_clause_p

QUICK = ["--runs", "1", "--quick", "--no-png", "--no-progress"]
F1_COLUMNS = {"dataset", "label", "protocol", "run", "method", "f1", "accuracy", "fit_s",
              "predict_s", "n_train", "n_test", "same_split_as_before"}


def run(tmp_path, *argv):
    assert main([*argv, *QUICK, "--out", str(tmp_path)]) == 0
    return tmp_path


def files(out, name):
    for ext in ("csv", "html", "md"):
        assert (out / f"{name}.{ext}").is_file(), f"{name}.{ext}"
    return pd.read_csv(out / f"{name}.csv"), (out / f"{name}.md").read_text(encoding="utf-8")


def test_table3_synthetic(tmp_path):
    out = run(tmp_path, "table3", "--sets", "syn-10-4", "--methods", "Direct,Direct (tuned),SVM")
    df, md = files(out, "table3")
    assert F1_COLUMNS <= set(df.columns)
    assert set(df["method"]) == {"Direct", "Direct (tuned)", "SVM"}
    assert set(df["protocol"]) == {"before", "train"}
    assert df[df["protocol"] == "train"]["same_split_as_before"].all()  # balanced: same split
    assert df["f1"].between(0, 1).all()
    summary = pd.read_csv(out / "table3_summary.csv")
    assert {"f1_mean", "f1_std", "runs"} <= set(summary.columns)
    assert "| Direct | " in md and "(0.92)" in md and "(0.85)" in md  # paper: Direct, SVM
    assert "Command: `python -m plx_core.experiments table3" in md


@pytest.mark.slow
def test_table2_real_sets(tmp_path):
    require_shared_data()
    out = run(tmp_path, "table2", "--sets", "titanic", "--methods", "Tree,Direct,CART",
              "--balance", "train")
    df, md = files(out, "table2")
    assert set(df["protocol"]) == {"train"} and set(df["method"]) == {"Tree", "Direct", "CART"}
    assert "(0.79)" in md and "(0.82)" in md  # Titanic: Direct, CART
    assert "n/a (0.99)" in md  # Bill: not public, the paper's value only


def test_variants(tmp_path):
    out = run(tmp_path, "variants", "--sets", "syn-10-4", "--methods", "Direct,tuned,CART",
              "--balance", "before")
    df, md = files(out, "variants")
    assert set(df["method"]) == {"Direct", "tuned", "CART"}
    assert "| Syn 10/4 |" in md and "(0.92)" in md and "tuned − best" in md


@pytest.mark.slow
def test_table4_explanation_accuracy(tmp_path):
    out = run(tmp_path, "table4", "--sets", "syn-10-4", "--rows", "3")
    df, md = files(out, "table4")
    assert {"dataset", "run", "k", "row", "method", "accuracy"} <= set(df.columns)
    assert set(df["method"]) == {"Direct", "SHAP", "Shapley (ours)"}
    assert set(df["k"]) == {1, 2, 3, 4, 5}
    assert df["accuracy"].between(0, 1).all()
    # at k = 1 every method names one seed position on these rows (paper: 1.000 for both)
    assert df[df["k"] == 1].groupby("method")["accuracy"].mean().min() > 0.5
    assert "| Syn 10/4 | Shapley (ours) |" in md
    assert "(0.972)" in md and "(0.962)" in md  # k = 5 on Syn 10/4: Direct, SHAP


def test_fig2_agreement(tmp_path):
    require_shared_data()
    out = run(tmp_path, "fig2", "--sets", "titanic", "--rows", "4")
    df, md = files(out, "fig2")
    assert {"dataset", "run", "k", "j", "exactly", "at_least"} <= set(df.columns)
    chosen = pd.read_csv(out / "fig2_chosen.csv")
    assert {"feature", "ours", "shap"} <= set(chosen.columns)
    assert "(0.75)" in md and "(0.72)" in md and "(0.25)" in md


def test_fig3_knowledge_incorporation(tmp_path):
    out = run(tmp_path, "fig3")
    df, md = files(out, "fig3")
    assert {"run", "clauses", "added", "f1", "kb_size"} <= set(df.columns)
    assert set(df["clauses"]) == {"seed", "match-set", "random"}
    base = df[df["added"] == 0]["f1"]
    assert base.nunique() == 1  # every curve starts from the same Tree KB
    assert "| seed |" in md and "| random |" in md


def test_fig4_timings(tmp_path):
    out = run(tmp_path, "fig4")
    df, md = files(out, "fig4")
    assert {"clauses", "literals", "run", "seconds", "lower", "upper"} <= set(df.columns)
    assert (df["lower"] <= df["upper"] + 1e-9).all() and (df["seconds"] > 0).all()
    assert "10,000" in md


def test_seed_clause_probabilities_are_exact():
    # Syn 10/4, one position equal to the seed: P(pos) = (1/2·1/2) / (1/2·1/2 + 1/2·P(neg))
    p1 = seed_clause_p(10, 4, 1)
    n5 = math.comb(10, 5) * 3**5
    neg = (4**9 - math.comb(9, 4) * 3**5) / (4**10 - n5)
    assert p1 == pytest.approx(0.5 / (0.5 + neg))
    assert seed_clause_p(10, 4, 6) == 0.0  # six seed positions: never exactly five


def test_bad_arguments(tmp_path, capsys):
    assert main(["table3", "--sets", "nope", "--out", str(tmp_path)]) == 2
    assert "unknown data set" in capsys.readouterr().err
    assert main(["table3", "--methods", "XGBoost", "--out", str(tmp_path)]) == 2
    assert "unknown method" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["table9"])
