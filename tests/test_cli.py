"""`plx` command line: fit / predict / explain round trip on the paper's example, bad input."""

import json
from pathlib import Path

import pandas as pd
import pytest

from plx_core.cli import main

EXAMPLE = Path(__file__).resolve().parents[1] / "datasets" / "paper_example.csv"


@pytest.fixture
def queries(tmp_path):
    p = tmp_path / "q.csv"
    p.write_text("a1,a2,a3,a4\n0,1,0,1\n1,1,1,1\n0,0,1,0\n0,,,\n", encoding="utf-8")
    return p


def test_fit_predict_explain_round_trip(tmp_path, queries, capsys):
    model = tmp_path / "model.json"
    assert main(["fit", str(EXAMPLE), "--label", "label", "--out", str(model)]) == 0
    doc = json.loads(model.read_text())
    assert doc["format"] == "plx-model" and doc["positive"] == "1" and doc["negative"] == "0"
    assert doc["schema"]["label"] == "label" and doc["kb"]["format"] == "plx-kb"
    assert doc["answer"] is None  # 8 rows: too few to tune, the paper's configuration

    out = tmp_path / "pred.csv"
    assert main(["predict", str(model), str(queries), "--out", str(out)]) == 0
    pred = pd.read_csv(out)
    assert list(pred.columns) == ["row", "lower", "upper", "mean", "decision", "tie", "method"]
    assert pred["lower"].tolist()[:3] == pytest.approx([0.5, 1.0, 3 / 7])  # Example 6: 0101
    assert pred["upper"].tolist()[:3] == pytest.approx([0.5, 1.0, 3 / 7])
    assert pred["lower"][3] == pytest.approx(1 / 3)  # 0---: relevant KB (design.md §1)
    assert pred["decision"].tolist() == [0, 1, 0, 0]  # the tie at 0.5 is negative
    assert pred["tie"].tolist() == [True, False, False, False]
    assert set(pred["method"]) == {"median"}

    ex = tmp_path / "expl.csv"
    assert main(["explain", str(model), str(queries), "--k", "2", "--out", str(ex)]) == 0
    e = pd.read_csv(ex, keep_default_na=False)
    assert list(e.columns) == ["row", "decision", "lower", "upper", "k", "features", "sub_lower",
                               "sub_upper", "search", "note"]
    assert e["features"][1] in {"a1=1; a2=1", "a1=1; a3=1", "a1=1; a4=1", "a2=1; a3=1",
                                "a2=1; a4=1", "a3=1; a4=1"}
    assert float(e["sub_lower"][1]) == pytest.approx(1.0)  # 1111 is explained by a pair at 1
    assert e["k"].tolist() == [2, 2, 2, 1] and e["note"][3] == "only 1 known feature(s)"
    assert "wrote" in capsys.readouterr().out


def test_paper_variant_and_tree_kb(tmp_path, queries):
    model = tmp_path / "tree.json"
    assert main(["fit", str(EXAMPLE), "--label", "label", "--kb", "tree", "--variant", "paper",
                 "--out", str(model)]) == 0
    out = tmp_path / "pred.csv"
    assert main(["predict", str(model), str(queries), "--out", str(out)]) == 0
    assert pd.read_csv(out)["mean"][0] == 1.0  # the tree KB answers 0101 with 1.0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["fit", "missing.csv", "--label", "label", "--out", "m.json"], "not found"),
        (["fit", str(EXAMPLE), "--label", "nope", "--out", "m.json"], "no label column 'nope'"),
        (["fit", str(EXAMPLE), "--label", "label", "--positive", "7", "--out", "m.json"],
         "positive='7' is not a value"),
        (["fit", str(EXAMPLE), "--label", "label", "--max-len", "0", "--out", "m.json"],
         "--max-len must be a positive integer"),
        (["fit", str(EXAMPLE), "--label", "label", "--out", "no/such/dir/m.json"],
         "does not exist"),
    ],
)
def test_bad_fit_input_exits_2(argv, message, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_bad_model_and_data_exit_2(tmp_path, queries, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main(["predict", str(bad), str(queries), "--out", str(tmp_path / "p.csv")]) == 2
    assert "is not valid JSON" in capsys.readouterr().err
    bad.write_text('{"format": "something-else"}', encoding="utf-8")
    assert main(["predict", str(bad), str(queries), "--out", str(tmp_path / "p.csv")]) == 2
    assert "is not a plx model file" in capsys.readouterr().err
    model = tmp_path / "m.json"
    assert main(["fit", str(EXAMPLE), "--label", "label", "--out", str(model)]) == 0
    capsys.readouterr()
    wrong = tmp_path / "wrong.csv"
    wrong.write_text("x,y\n1,2\n", encoding="utf-8")
    assert main(["predict", str(model), str(wrong), "--out", str(tmp_path / "p.csv")]) == 2
    assert "lack the feature column(s)" in capsys.readouterr().err
    assert main(["explain", str(model), str(queries), "--k", "0",
                 "--out", str(tmp_path / "e.csv")]) == 2
    assert "--k must be at least 1" in capsys.readouterr().err


def test_bad_subcommand_is_an_argparse_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["train"])
    assert exc.value.code == 2


def test_experiments_are_forwarded(tmp_path, capsys):
    assert main(["experiments", "fig4", "--runs", "1", "--quick", "--out", str(tmp_path),
                 "--no-png", "--no-progress"]) == 0
    assert (tmp_path / "fig4.csv").is_file()
    assert main(["experiments", "table3", "--sets", "syn-99", "--out", str(tmp_path)]) == 2
    assert "unknown data set" in capsys.readouterr().err


def test_threshold_is_saved_and_decides(tmp_path, queries):
    model = tmp_path / "m.json"
    assert main(["fit", str(EXAMPLE), "--label", "label", "--threshold", "0.4",
                 "--out", str(model)]) == 0
    doc = json.loads(model.read_text())
    assert doc["threshold"] == 0.4 and doc["class_weight"] == "balanced"
    out = tmp_path / "pred.csv"
    assert main(["predict", str(model), str(queries), "--out", str(out)]) == 0
    pred = pd.read_csv(out)
    assert pred["decision"].tolist() == (pred["mean"] > 0.4 + 1e-9).astype(int).tolist()
    assert pred["decision"][0] == 1  # 0101 at 0.5 is positive above a 0.4 threshold
    assert main(["fit", str(EXAMPLE), "--label", "label", "--threshold", "1.5",
                 "--out", str(model)]) == 2
