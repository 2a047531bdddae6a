"""`plx` command line: fit / predict / explain round trip on the paper's example, bad input."""

import json
import os
import re
import socket
from pathlib import Path

import numpy as np
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
    assert list(pred.columns) == ["row", "lower", "upper", "mean", "decision", "tie", "method",
                                  "unseen"]
    assert pred["lower"].tolist()[:3] == pytest.approx([0.5, 1.0, 3 / 7])  # Example 6: 0101
    assert pred["upper"].tolist()[:3] == pytest.approx([0.5, 1.0, 3 / 7])
    assert pred["lower"][3] == pytest.approx(1 / 3)  # 0---: relevant KB (design.md §1)
    assert pred["decision"].tolist() == [0, 1, 0, 0]  # the tie at 0.5 is negative
    assert pred["tie"].tolist() == [True, False, False, False]
    assert set(pred["method"]) == {"median"}
    # the summary names the file's two classes (it said "1 positive … (reported negative)")
    assert (f"wrote {out}: 4 rows, 1 label = 1, 3 label = 0; 1 tie at 0.5 (reported label = 0)"
            in capsys.readouterr().out)

    ex = tmp_path / "expl.csv"
    assert main(["explain", str(model), str(queries), "--k", "2", "--out", str(ex)]) == 0
    e = pd.read_csv(ex, keep_default_na=False)
    assert list(e.columns) == ["row", "decision", "explained_class", "lower", "upper", "k",
                               "features", "sub_lower", "sub_upper", "decides", "search", "note",
                               "unseen"]
    assert e["features"][1] in {"a1=1 AND a2=1", "a1=1 AND a3=1", "a1=1 AND a4=1",
                                "a2=1 AND a3=1", "a2=1 AND a4=1", "a3=1 AND a4=1"}
    assert float(e["sub_lower"][1]) == pytest.approx(1.0)  # 1111 is explained by a pair at 1
    assert e["k"].tolist() == [2, 2, 2, 1] and e["note"][3] == ("k lowered from 2 to 1: the row has 1 "
                                                                 "known feature")
    assert "wrote" in capsys.readouterr().out


def test_paper_variant_and_tree_kb(tmp_path, queries, capsys):
    model = tmp_path / "tree.json"
    assert main(["fit", str(EXAMPLE), "--label", "label", "--kb", "tree", "--variant", "paper",
                 "--out", str(model)]) == 0
    said = capsys.readouterr().out
    assert "--kb tree as given" in said and "chosen" not in said  # asked for, not chosen
    assert json.loads(model.read_text())["variant"] == "paper"
    assert "variant paper (" in said  # the variant the file records, not the option's default
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
         "argument --max-len: must be a positive integer, got '0'"),
        (["fit", str(EXAMPLE), "--label", "label", "--out", "no/such/dir/m.json"],
         "does not exist"),
    ],
)
def test_bad_fit_input_exits_2(argv, message, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_fit_with_a_kind_of_kb_says_the_variant_its_model_file_records(tmp_path, capsys):
    model = tmp_path / "bin.json"
    assert main(["fit", str(EXAMPLE), "--label", "label", "--kb", "tree-bin-deep",
                 "--out", str(model)]) == 0  # --variant left at auto
    said = capsys.readouterr().out
    recorded = json.loads(model.read_text())["variant"]
    assert f"variant {recorded} (--kb tree-bin-deep as given" in said and "variant auto" not in said


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
    assert "lack the feature column" in capsys.readouterr().err
    assert main(["explain", str(model), str(queries), "--k", "0",
                 "--out", str(tmp_path / "e.csv")]) == 2
    assert "argument --k: must be a positive integer, got '0'" in capsys.readouterr().err


def test_bad_subcommand_is_one_line_and_exit_2(capsys):
    assert main(["train"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice: 'train'" in err and "see plx -h" in err


def test_experiments_are_forwarded(tmp_path, capsys):
    assert main(["experiments", "fig4", "--runs", "1", "--quick", "--out", str(tmp_path),
                 "--no-png", "--no-progress"]) == 0
    assert (tmp_path / "fig4.csv").is_file()
    assert main(["experiments", "table3", "--sets", "syn-99", "--out", str(tmp_path)]) == 2
    assert "unknown data set" in capsys.readouterr().err


# --------------------------------------------------------------------------- issue 12: the CLI


def run(argv, capsys):
    """(exit status, stdout, stderr) of one `plx` command."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(err: str, *needles: str) -> None:
    """The failure ends in exactly one `error:` line naming the problem, no traceback."""
    assert "Traceback" not in err
    errors = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1 and err.rstrip("\n").splitlines()[-1] == errors[0], err
    for n in needles:
        assert n in errors[0], (n, errors[0])


@pytest.fixture
def model(tmp_path, capsys):
    m = tmp_path / "model.json"
    assert main(["fit", str(EXAMPLE), "--label", "label", "--out", str(m)]) == 0
    capsys.readouterr()
    return m


def test_an_output_that_is_an_input_is_refused_and_the_input_kept(tmp_path, model, queries,
                                                                  capsys, monkeypatch):
    before = queries.read_bytes()
    code, _, err = run(["predict", model, queries, "--out", queries], capsys)
    assert code == 2 and queries.read_bytes() == before
    assert_one_line_error(err, "is the input file", "q.csv")
    # the same file spelled another way, through a symbolic link and through a hard link
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    link = tmp_path / "link.csv"
    link.symlink_to(queries)
    hard = tmp_path / "hard.csv"
    hard.hardlink_to(queries)
    for out in ("../q.csv", link, hard):
        code, _, err = run(["predict", model, queries, "--out", out], capsys)
        assert code == 2 and queries.read_bytes() == before
        assert_one_line_error(err, "is the input file")
    code, _, err = run(["explain", model, link, "--out", queries], capsys)
    assert code == 2 and queries.read_bytes() == before
    # the model is an input too
    doc = model.read_bytes()
    code, _, err = run(["predict", model, queries, "--out", model], capsys)
    assert code == 2 and model.read_bytes() == doc


def test_fit_refuses_to_write_the_model_over_its_training_data(tmp_path, capsys):
    data = tmp_path / "data.csv"
    data.write_bytes(EXAMPLE.read_bytes())
    code, _, err = run(["fit", data, "--label", "label", "--out", data], capsys)
    assert code == 2 and data.read_bytes() == EXAMPLE.read_bytes()
    assert_one_line_error(err, "is the input file", "data.csv")


@pytest.mark.parametrize("kind", ["folder", "missing folder", "parent is a file", "unwritable"])
def test_bad_output_paths_are_one_line(kind, tmp_path, model, queries, capsys):
    out = {"folder": tmp_path, "missing folder": tmp_path / "no" / "p.csv",
           "parent is a file": queries / "p.csv", "unwritable": Path("/proc/plx-p.csv")}[kind]
    code, _, err = run(["predict", model, queries, "--out", out], capsys)
    assert code == 2
    assert_one_line_error(err, str(out) if kind != "parent is a file" else "is not a folder")


@pytest.mark.parametrize("seed", ["-1", "4294967296", "1180591620717411303424"])
def test_a_random_state_numpy_cannot_take_is_one_line_before_the_work(tmp_path, seed, capsys):
    """trust23: --random-state -1 ended in 'internal error: ValueError: Seed must be between 0
    and 2**32 - 1' (exit 1) once the fit searched."""
    code, _, err = run(["fit", EXAMPLE, "--label", "label", "--random-state", seed, "--out",
                        tmp_path / "m.json"], capsys)
    assert code == 2 and not (tmp_path / "m.json").exists()
    assert_one_line_error(err, "--random-state: must be a whole number from 0 to 4294967295",
                          repr(seed))


def test_a_utf8_file_read_as_the_utf16_named_is_said_in_fit_and_in_predicts_blocks(
        tmp_path, model, capsys):
    """trust23: both said 'a header (line 1) but no data rows' of a UTF-8 file with
    --encoding utf-16 (predict reads a plain text file in blocks: its own decoding path)."""
    q = tmp_path / "q.csv"
    q.write_text("a1,a2,a3,a4\n0,1,0,1\n1,1,1,1\n0,0,1,0\n", encoding="utf-8")  # even length
    for argv in (["fit", q, "--label", "a4", "--out", tmp_path / "m2.json"],
                 ["predict", model, q, "--out", tmp_path / "p.csv"]):
        code, _, err = run([*argv, "--encoding", "utf-16-le"], capsys)
        assert code == 2
        assert_one_line_error(err, "read as utf-16-le has no line break, though its bytes hold "
                                   "4 line feeds: it is not utf-16-le text")


def test_a_pipe_as_input_or_output_is_one_line_and_left_as_it_is(tmp_path, model, queries,
                                                                    capsys):
    """trust23: `--out /dev/full` (as root) replaced the device by the predictions."""
    import stat

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, _, err = run(["predict", model, queries, "--out", fifo], capsys)
    assert code == 2 and stat.S_ISFIFO(fifo.stat().st_mode)
    assert_one_line_error(err, f"--out '{fifo}' is a pipe, not a file")
    code, _, err = run(["predict", model, fifo, "--out", tmp_path / "p.csv"], capsys)
    assert code == 2
    assert_one_line_error(err, f"'{fifo}' is a device or pipe, not a file")


def test_a_failed_write_leaves_the_old_output_whole(tmp_path, model, queries, capsys,
                                                    monkeypatch):
    out = tmp_path / "p.csv"
    out.write_text("the previous predictions\n")
    import plx_core.export as export

    def boom(*a, **k):
        raise OSError(28, "No space left on device", str(out))

    monkeypatch.setattr(export.os, "replace", boom)
    code, _, err = run(["predict", model, queries, "--out", out], capsys)
    assert code == 2 and out.read_text() == "the previous predictions\n"
    assert_one_line_error(err, "No space left on device")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".p.csv")] == []


def test_plus_and_minus_one_labels_read_back_alike(tmp_path, capsys):
    """trust23: libsvm's labels +1 / -1 were written '+1 (quoted) beside a bare -1; a plain
    number with either sign is no formula and stays as written."""
    rows = ["a,b,label"] + [f"{'x' if i % 2 else 'y'},{i % 3},{'+1' if i % 2 else '-1'}"
                            for i in range(12)]
    data = tmp_path / "d.csv"
    data.write_text("\n".join(rows) + "\n")
    m, out = tmp_path / "m.json", tmp_path / "p.csv"
    assert run(["fit", data, "--label", "label", "--positive", "+1", "--variant", "paper",
                "--out", m], capsys)[0] == 0
    assert run(["predict", m, data, "--out", out], capsys)[0] == 0
    back = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert set(back["decision"]) == {"+1", "-1"}


def test_cli_csvs_are_defused_but_numbers_stay_numbers(tmp_path, capsys):
    """Cells starting with = + - @ tab CR in the predictions and explanations CSVs get a
    leading quote; bounds and class labels that are plain numbers (-1) read back as numbers."""
    rows = ["=cmd,@who,label"] + [f"{'=1+1' if i % 2 else '+x'},{'-2+3' if i % 3 else 'b'},"
                                  f"{'-1' if i % 2 else '1'}" for i in range(12)]
    data = tmp_path / "d.csv"
    data.write_text("\n".join(rows) + "\n")
    m = tmp_path / "m.json"
    assert run(["fit", data, "--label", "label", "--positive", "1", "--variant", "paper",
                "--out", m], capsys)[0] == 0
    for cmd in ("predict", "explain"):
        out = tmp_path / f"{cmd}.csv"
        q = tmp_path / "q.csv"
        q.write_text('=cmd,@who\n=1+1,-2+3\n+x,b\n\t=evil,"\r@x"\n', newline="")
        code, _, err = run([cmd, m, q, "--out", out], capsys)
        assert code == 0, err
        import csv as _csv

        with open(out, newline="", encoding="utf-8") as fh:
            cells = [c for r in _csv.reader(fh) for c in r]
        assert any(c.startswith("'=cmd='") for c in cells)  # the unseen column, defused
        risky = [c for c in cells if c.startswith(("=", "@", "\t", "\r"))
                 or (c.startswith(("-", "+")) and not c[1:].replace(".", "", 1).isdigit())]
        assert risky == [], risky
        back = pd.read_csv(out)
        assert set(back["decision"]) <= {-1, 1}  # plain numbers are not quoted
        assert back["lower"].between(0, 1).all()
    e = pd.read_csv(tmp_path / "explain.csv", keep_default_na=False)
    # names and values are quoted as the clause grammar reads them ("=cmd"=…), never bare
    assert e["features"].str.contains('"=cmd"=|"@who"=|@who=', regex=True).any()


def test_a_label_read_as_missing_is_refused_with_the_count(tmp_path, capsys):
    lines = EXAMPLE.read_text().splitlines()
    lines[2] = lines[2].rsplit(",", 1)[0] + ",NaN"
    lines[5] = lines[5].rsplit(",", 1)[0] + ","
    lines[7] = lines[7].rsplit(",", 1)[0] + ",NA"
    data = tmp_path / "d.csv"
    data.write_text("\n".join(lines) + "\n")
    m = tmp_path / "m.json"
    code, _, err = run(["fit", data, "--label", "label", "--out", m], capsys)
    assert code == 2 and not m.exists()
    assert_one_line_error(err, "label 'label' is missing in 3 of 8 rows", "lines 3, 6, 8",
                          "--drop-missing-label")
    code, _, err = run(["fit", data, "--label", "label", "--drop-missing-label", "--out", m],
                       capsys)
    assert code == 0
    assert "dropped 3 of 8 rows whose label 'label' is missing" in err
    assert json.loads(m.read_text())["n_train"] == 5
    # "NaN" kept as text on request: it is then a class of its own, said with the classes
    # (a model of several classes; --positive would make one of them POS)
    code, _, err = run(["fit", data, "--label", "label", "--missing", "?",
                        "--drop-missing-label", "--out", m], capsys)
    assert code == 0 and "4 classes ['0', '1', 'NA', 'NaN']" in err and "--positive" in err


@pytest.mark.parametrize("marker", ["NA", "NULL", "N/A", "?", "", "nan", "NaN"])
def test_missing_markers_keep_a_numeric_column_numeric(marker, tmp_path, capsys):
    rng = np.random.default_rng(0)
    age = rng.integers(18, 90, 60)
    rows = ["age,colour,label"] + [
        f"{marker if i % 7 == 0 else age[i]},{'red' if i % 2 else 'blue'},{int(age[i] > 50)}"
        for i in range(60)]
    data = tmp_path / "d.csv"
    data.write_text("\n".join(rows) + "\n")
    m = tmp_path / "m.json"
    code, _, err = run(["fit", data, "--label", "label", "--variant", "paper", "--out", m],
                       capsys)
    assert code == 0, err
    schema = json.loads(m.read_text())["schema"]
    assert schema["kinds"]["age"] == "numeric" and len(schema["bins"]["age"]["labels"]) <= 4
    assert f"'age' 9 ({marker!r} ×9)" in err  # said on stderr


def test_unseen_values_are_named_per_row_and_summarised(model, tmp_path, capsys):
    q = tmp_path / "q.csv"
    q.write_text("a1,a2,a3,a4\n0 ,1,0,1\nRed,1,1,1\n,1,1,1\n0,1,0,1\n")
    out = tmp_path / "p.csv"
    code, _, err = run(["predict", model, q, "--out", out], capsys)
    assert code == 0
    p = pd.read_csv(out, keep_default_na=False)
    # "0 " is the value 0 written with a space (encoding.value_twin), "Red" is unseen
    assert p["unseen"].tolist() == ["", "a1='Red'", "", ""]
    assert (p.loc[0, "lower"], p.loc[0, "upper"]) == (p.loc[3, "lower"], p.loc[3, "upper"])
    # an unseen value is answered as missing: row 2 equals row 3 (a1 missing)
    assert (p.loc[1, "lower"], p.loc[1, "upper"]) == (p.loc[2, "lower"], p.loc[2, "upper"])
    summary = [ln for ln in err.splitlines() if "never saw" in ln]
    assert len(summary) == 1 and "1 row " in summary[0] and "a1='Red'" in summary[0]
    ex = tmp_path / "e.csv"
    assert run(["explain", model, q, "--out", ex], capsys)[0] == 0
    assert pd.read_csv(ex, keep_default_na=False)["unseen"].tolist()[:2] == ["", "a1='Red'"]


def test_values_written_otherwise_are_said_once_with_their_rows(model, tmp_path, capsys):
    # "0 " was read as 0 silently: the answer is right, but the user was never told
    q, same = tmp_path / "q.csv", tmp_path / "same.csv"
    q.write_text("a1,a2,a3,a4\n0 ,1,0,1\n1,1,1,1\n0 ,0,0,1\n")
    same.write_text("a1,a2,a3,a4\n0,1,0,1\n1,1,1,1\n0,0,0,1\n")
    got, want = tmp_path / "p.csv", tmp_path / "w.csv"
    code, _, err = run(["predict", model, q, "--out", got], capsys)
    assert code == 0
    said = [ln for ln in err.splitlines() if "written otherwise" in ln]
    assert len(said) == 1 and "column 'a1': '0 ' read as '0' (2 rows)" in said[0]
    code, _, err = run(["predict", model, same, "--out", want], capsys)
    assert code == 0 and "read as" not in err
    pd.testing.assert_frame_equal(pd.read_csv(got), pd.read_csv(want))  # answers unchanged
    code, _, err = run(["explain", model, q, "--out", tmp_path / "e.csv"], capsys)
    assert code == 0 and "column 'a1': '0 ' read as '0' (2 rows)" in err


def test_columns_the_model_does_not_know_are_named(model, tmp_path, capsys):
    q = tmp_path / "q.csv"
    q.write_text("a1,a2,a3,a4,age,label\n0,1,0,1,33,1\n")
    code, _, err = run(["predict", model, q, "--out", tmp_path / "p.csv"], capsys)
    assert code == 0 and "does not know, ignored: ['age']" in err


def test_line_endings_and_compression_give_the_same_answers(model, tmp_path, queries, capsys):
    import bz2
    import gzip

    out = tmp_path / "base.csv"
    assert run(["predict", model, queries, "--out", out], capsys)[0] == 0
    base = out.read_bytes()
    text = queries.read_bytes()
    variants = {"cr.csv": text.replace(b"\n", b"\r"), "crlf.csv": text.replace(b"\n", b"\r\n"),
                "q.csv.gz": gzip.compress(text), "q.csv.bz2": bz2.compress(text),
                "utf16.csv": text.decode().encode("utf-16")}
    for name, raw in variants.items():
        (tmp_path / name).write_bytes(raw)
        o = tmp_path / f"out-{name}.csv"
        code, _, err = run(["predict", model, tmp_path / name, "--out", o], capsys)
        assert code == 0, (name, err)
        assert o.read_bytes() == base, name
    data = tmp_path / "train.csv.gz"
    data.write_bytes(gzip.compress(EXAMPLE.read_bytes()))
    assert run(["fit", data, "--label", "label", "--out", tmp_path / "m.json"], capsys)[0] == 0


def _xlsx_bytes() -> bytes:
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("xl/workbook.xml", "<workbook/>")
    return buf.getvalue()


@pytest.mark.parametrize(("raw", "needle"), [
    (_xlsx_bytes(), "an Excel workbook (.xlsx"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(100), "old Excel workbook (.xls)"),
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "a PDF document"),
    (b"PAR1\x15\x04", "a Parquet file"),
    (b"\x1f\x8b\x08\x00\x00\x00", "a damaged gzip file"),
    (b"a,b\n1,\x002\n", "NUL byte (line 2)"),
    (b"\x80\x04\x95\x10\x00", "pickle"),
])
def test_binary_uploads_are_named_for_what_they_are(raw, needle, tmp_path, capsys):
    data = tmp_path / "upload.csv"
    data.write_bytes(raw)
    code, _, err = run(["fit", data, "--label", "b", "--out", tmp_path / "m.json"], capsys)
    assert code == 2
    assert_one_line_error(err, "upload.csv", needle)


def _mutate(doc, path, value):
    d = json.loads(json.dumps(doc))
    cur = d
    for k in path[:-1]:
        cur = cur[k]
    cur[path[-1]] = value
    return d


@pytest.mark.parametrize(("path", "value", "needle"), [
    (("schema",), {}, "field 'label' is missing"),
    (("schema",), [], "field 'schema' must be an object"),
    (("schema", "features"), "a1a2", "field 'features' must be a list of strings"),
    (("schema", "features"), ["a1", "a1"], "lists ['a1'] more than once"),
    (("schema", "kinds", "a1"), "number", "kinds.a1"),
    (("schema", "label"), 3, "field 'label' must be a string"),
    (("answer",), {"min_len": "x", "max_len": 2, "prior_weight": 0}, "answer.min_len"),
    (("answer",), {"min_len": 3, "max_len": 2, "prior_weight": 0}, "min_len ≤ max_len"),
    (("answer",), {"min_len": True, "max_len": 2, "prior_weight": 0}, "answer.min_len"),
    (("answer",), 7, "field 'answer' must be an object"),
    (("kb",), [], "field 'kb' must be an object"),
    (("kb", "clauses"), "oops", "field 'kb'"),
    (("positive",), 1, "field 'positive' must be a string"),
    (("version",), 99, "model version 99"),
    (("threshold",), 10**400, "threshold must be a number in [0, 1)"),  # fuzz17: OverflowError
])
def test_malformed_model_fields_are_named(path, value, needle, model, queries, tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_mutate(json.loads(model.read_text()), path, value)))
    code, _, err = run(["predict", bad, queries, "--out", tmp_path / "p.csv"], capsys)
    assert code == 2, err
    assert_one_line_error(err, "bad.json", needle)


def test_schema_with_bad_bins_is_named(model, queries, tmp_path, capsys):
    doc = json.loads(model.read_text())
    doc["schema"]["kinds"]["a1"] = "numeric"
    bad = tmp_path / "bad.json"
    for bins, needle in [({}, "no binning for numeric feature 'a1'"),
                         ({"a1": {"method": "cuts", "cuts": [2, 1], "labels": ["x", "y", "z"]}},
                          "bins.a1.cuts"),
                         ({"a1": {"method": "cuts", "cuts": [1], "labels": ["x"]}},
                          "1 cuts need 2 labels"),
                         # fuzz17: a cut of 400 digits was an OverflowError (exit 1)
                         ({"a1": {"method": "cuts", "cuts": [10**400], "labels": ["x", "y"]}},
                          "bins.a1.cuts' must be a list of increasing finite numbers")]:
        doc["schema"]["bins"] = bins
        bad.write_text(json.dumps(doc))
        code, _, err = run(["predict", bad, queries, "--out", tmp_path / "p.csv"], capsys)
        assert code == 2
        assert_one_line_error(err, needle)


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a":' * 100_000, "\xff\xfe", ""])
def test_deep_or_broken_json_model_is_one_line(text, queries, tmp_path, capsys):
    bad = tmp_path / "deep.json"
    bad.write_bytes(text.encode("latin-1"))
    code, _, err = run(["predict", bad, queries, "--out", tmp_path / "p.csv"], capsys)
    assert code == 2
    assert_one_line_error(err, "deep.json")


@pytest.mark.parametrize("k", ["1.5", "two", "-1", "0", ""])
def test_explain_k_is_checked_before_the_work(k, model, queries, tmp_path, capsys):
    code, _, err = run(["explain", model, queries, "--k", k, "--out", tmp_path / "e.csv"],
                       capsys)
    assert code == 2 and not (tmp_path / "e.csv").exists()
    assert_one_line_error(err, "--k: must be a positive integer")


def test_a_bug_is_exit_1_with_a_short_message(model, queries, tmp_path, capsys, monkeypatch):
    import plx_core.cli as cli

    def broken(self, X):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(cli.Model, "answers", broken)
    code, _, err = run(["predict", model, queries, "--out", tmp_path / "p.csv"], capsys)
    assert code == 1 and "Traceback" not in err
    assert "internal error: ZeroDivisionError" in err and "bug in plx" in err
    monkeypatch.setenv("PLX_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        main(["predict", str(model), str(queries), "--out", str(tmp_path / "p.csv")])


def test_rows_are_named_by_their_line_and_encodings_can_be_named(tmp_path, capsys):
    rng = np.random.default_rng(1)
    age = rng.integers(18, 90, 40)
    data = tmp_path / "d.csv"
    data.write_text("age,label\n" + "".join(f"{a},{int(a > 50)}\n" for a in age))
    m = tmp_path / "m.json"
    assert run(["fit", data, "--label", "label", "--variant", "paper", "--out", m], capsys)[0] == 0
    q = tmp_path / "q.csv"
    q.write_text("age\n33\n\nabc\n")  # a blank line: 'abc' is on line 4
    code, _, err = run(["predict", m, q, "--out", tmp_path / "p.csv"], capsys)
    assert code == 2
    # the line a spreadsheet shows, and the data row: the `row` of predictions.csv
    assert_one_line_error(err, "file", "q.csv", "column 'age', line 4 (data row 2): value 'abc'")
    q.write_text("age\n33\n\n44\n")
    assert run(["predict", m, q, "--out", tmp_path / "p.csv"], capsys)[0] == 0
    assert pd.read_csv(tmp_path / "p.csv")["row"].tolist() == [1, 2]
    latin = tmp_path / "latin.csv"
    latin.write_bytes("a1,a2,a3,a4\nü,1,0,1\n".encode("latin-1"))
    model = tmp_path / "ex.json"
    assert run(["fit", EXAMPLE, "--label", "label", "--out", model], capsys)[0] == 0
    code, _, err = run(["predict", model, latin, "--out", tmp_path / "p.csv"], capsys)
    assert code == 2
    assert_one_line_error(err, "not valid utf-8", "line 2", "--encoding")
    code, _, err = run(["predict", model, latin, "--encoding", "latin-1", "--out",
                        tmp_path / "p.csv"], capsys)
    assert code == 0 and "a1='ü'" in (tmp_path / "p.csv").read_text(encoding="utf-8")
    code, _, err = run(["predict", model, latin, "--encoding", "klingon", "--out",
                        tmp_path / "p.csv"], capsys)
    assert code == 2
    assert_one_line_error(err, "unknown encoding 'klingon'")


def test_classes_merged_into_the_negation_are_named(tmp_path, capsys):
    lines = EXAMPLE.read_text().splitlines()
    lines[2] = lines[2].rsplit(",", 1)[0] + ",NaN"
    data = tmp_path / "d.csv"
    data.write_text("\n".join(lines) + "\n")
    code, _, err = run(["fit", data, "--label", "label", "--missing", "?", "--positive", "1",
                        "--out", tmp_path / "m.json"], capsys)
    assert code == 0
    assert "3 classes; POS = '1', and 2 become its negation 'not 1': ['0', 'NaN']" in err


def test_a_label_value_typed_by_mistake_is_named_by_its_line(tmp_path, capsys):
    """'yse' in one row of a yes/no label fitted with --positive yes: it would silently be a
    negative; the note names its line in the file (after a dropped row: lines, not positions)."""
    rng = np.random.default_rng(0)
    a = rng.normal(size=300).round(3)
    label = np.where(a + rng.normal(size=300) > 0, "yes", "no").astype(object)
    label[[3, 40]] = ["", "yse"]
    data = tmp_path / "d.csv"
    pd.DataFrame({"a": a, "outcome": label}).to_csv(data, index=False)
    code, _, err = run(["fit", data, "--label", "outcome", "--positive", "yes",
                        "--drop-missing-label", "--out", tmp_path / "m.json"], capsys)
    assert code == 0
    assert "become its negation 'not yes': ['no', 'yse']" in err
    assert "typed by mistake? 'yse' in line 42 (like 'yes'); correct those rows" in err
    assert err.count("typed by mistake") == 1


@pytest.mark.slow  # a fresh interpreter imports plx_core: ~15 s on the shared machine
def test_the_installed_command_exits_2_without_a_traceback(tmp_path):
    """A real process, as a shell user runs it: exit status and stderr."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run([sys.executable, "-m", "plx_core.cli", "predict", "nope.json",
                           str(EXAMPLE), "--out", str(tmp_path)], capture_output=True, text=True,
                          cwd=root, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [f"error: --out {str(tmp_path)!r} is a folder; "
                                                "name a file inside it"]


# --------------------------------------------------------------------------- fuzz: exit 0 or 2


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

CLI_FUZZ = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])
CELLS = st.sampled_from(["0", "1", "", "NA", "?", "NULL", "nan", "red ", "Red", "=cmd", "-0.5",
                         "1e308", "inf", '"', '"a,b"', "x\ty", "\x00", "label", "a1", "ü"])
SEPARATORS = st.sampled_from([",", ";", "\t", "|", ",,", '"'])
LINE_ENDS = st.sampled_from(["\n", "\r", "\r\n", "\n\n"])
PREFIXES = st.sampled_from([b"", b"", b"", b"\x1f\x8b", b"PK\x03\x04", b"\xef\xbb\xbf",
                            b"\xff\xfe", b"\xff", b"BZh"])


@st.composite
def csv_files(draw) -> bytes:
    """Small tables made of the cells, separators and line ends that break parsers."""
    n_cols = draw(st.integers(1, 6))
    header = draw(st.sampled_from([["a1", "a2", "a3", "a4", "label"], None]))
    rows = [header] if header else []
    for _ in range(draw(st.integers(0, 12))):
        rows.append(draw(st.lists(CELLS, min_size=max(1, n_cols - 1), max_size=n_cols + 1)))
    end = draw(LINE_ENDS)
    text = end.join(draw(SEPARATORS).join(r) if draw(st.booleans()) else ",".join(r)
                    for r in rows) + draw(st.sampled_from(["", end]))
    return draw(PREFIXES) + text.encode("utf-8")


def check_exit(code: int, err: str) -> None:
    assert code in (0, 2), err
    assert "Traceback" not in err
    if code == 2:
        assert_one_line_error(err)


@pytest.mark.slow
@CLI_FUZZ
@given(raw=csv_files())
def test_fuzz_predict_and_fit_on_malformed_csv(raw, model, tmp_path, capsys):
    data = tmp_path / "f.csv"
    data.write_bytes(raw)
    out = tmp_path / "p.csv"
    check_exit(*run(["predict", model, data, "--out", out], capsys)[::2])
    code, _, err = run(["fit", data, "--label", "label", "--variant", "paper", "--positive", "1",
                        "--out", tmp_path / "m.json"], capsys)
    check_exit(code, err)


json_values = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=True) | st.integers(-2**70, 2**70)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                               max_size=3),
    max_leaves=8,
)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node[:3]):
            yield from _paths(v, (*prefix, i))


@pytest.mark.slow
@CLI_FUZZ
@given(value=json_values, data=st.data())
def test_fuzz_predict_and_explain_on_malformed_models(value, data, model, queries, tmp_path,
                                                      capsys):
    doc = json.loads(model.read_text())
    doc["answer"] = {"min_len": 1, "max_len": 2, "prior_weight": 1}  # so 'answer' is fuzzed too
    paths = sorted(_paths(doc), key=repr)
    path = data.draw(st.sampled_from(paths))
    if not path:
        doc = value
    else:
        cur = doc
        for k in path[:-1]:
            cur = cur[k]
        if data.draw(st.booleans()) and isinstance(cur, dict):
            del cur[path[-1]]
        else:
            cur[path[-1]] = value
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    cmd = data.draw(st.sampled_from(["predict", "explain"]))
    check_exit(*run([cmd, bad, queries, "--out", tmp_path / "o.csv"], capsys)[::2])


@pytest.mark.slow
@CLI_FUZZ
@given(data=st.data())
def test_fuzz_argument_lists(data, model, queries, tmp_path, capsys):
    """Random argument lists (never `dashboard` or `experiments`, which start long jobs; only
    files under tmp_path, since a drawn `--out` may name any of them)."""
    train = tmp_path / "train.csv"
    if not train.exists():
        train.write_bytes(EXAMPLE.read_bytes())
    tokens = ["fit", "predict", "explain", "--label", "label", "a1", "--positive", "1", "0",
              "--k", "1.5", "2", "-1", "--max-len", "x", "--kb", "tree", "forest", "--variant",
              "paper", "--missing", "NA,?", "--encoding", "latin-1", "nope", "--out",
              "--drop-missing-label", "--random-state", "", "=", str(model), str(queries),
              str(train), str(tmp_path), str(tmp_path / "o.csv"), str(tmp_path / "x" / "o")]
    argv = data.draw(st.lists(st.sampled_from(tokens), max_size=9))
    if argv and argv[0] in ("-h", "--help"):
        return
    check_exit(*run(argv, capsys)[::2])


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


def numeric_csv(tmp_path, n=300, seed=0):
    rng = np.random.default_rng(seed)
    age, dose, sex = rng.uniform(18, 90, n).round(1), rng.normal(5, 2, n).round(2), \
        rng.choice(["f", "m"], n)
    y = np.where(((age > 60) & (sex == "m")) | (dose > 7), "sick", "well")
    p = tmp_path / "numeric.csv"
    pd.DataFrame({"age": age, "dose": dose, "sex": sex, "label": y}).to_csv(p, index=False)
    return p


@pytest.mark.parametrize("name", ["model.json", "model.npz"])
def test_numeric_cut_points_are_the_estimators_and_predict_applies_them(tmp_path, name):
    from plx_core.estimator import PLXClassifier
    from plx_core.modelfile import load_model

    csv = numeric_csv(tmp_path)
    model = tmp_path / name
    assert main(["fit", str(csv), "--label", "label", "--positive", "sick",
                 "--out", str(model)]) == 0
    mf = load_model(model)
    table = pd.read_csv(csv)
    X = table[["age", "dose", "sex"]]
    clf = PLXClassifier(positive="sick").fit(X, table["label"])
    # one home for the cut points: the file holds the estimator's own (mdlp) cuts
    assert {f: b.cuts for f, b in mf.schema.bins.items()} == clf.cuts_
    assert {b.method for b in mf.schema.bins.values()} == {"mdlp"}
    assert any(abs(c - 60) < 3 for c in mf.schema.bins["age"].cuts)
    assert mf.settings["chosen"] == clf.chosen_ and mf.settings["threshold"] == clf.threshold_
    new = tmp_path / "new.csv"
    rows = pd.DataFrame({"age": [75.0, 30.0, 200.0, 64.5], "dose": [5.0, 9.5, 5.0, np.nan],
                         "sex": ["m", "f", "m", "m"]})
    rows.to_csv(new, index=False)
    out = tmp_path / "pred.csv"
    assert main(["predict", str(model), str(new), "--out", str(out)]) == 0
    pred = pd.read_csv(out)
    assert pred["mean"].tolist() == pytest.approx(clf.bounds(rows)["mean"].tolist())
    assert pred["decision"].tolist() == clf.predict(rows).tolist()
    assert pred["decision"].tolist()[:3] == ["sick", "sick", "sick"]  # 200 falls in the top bin


def test_model_file_semantics_is_checked(tmp_path, capsys):
    model = tmp_path / "model.json"
    assert main(["fit", str(EXAMPLE), "--label", "label", "--out", str(model)]) == 0
    doc = json.loads(model.read_text())
    assert doc["semantics"] in ("auto", "relevant", "full")
    doc["semantics"] = "fuzzy"
    model.write_text(json.dumps(doc))
    capsys.readouterr()
    q = tmp_path / "q.csv"
    q.write_text("a1,a2,a3,a4\n0,1,0,1\n", encoding="utf-8")
    assert main(["predict", str(model), str(q), "--out", str(tmp_path / "p.csv")]) == 2
    assert "field 'semantics'" in capsys.readouterr().err


def test_a_chosen_tree_is_saved_and_answers_like_the_estimator(tmp_path, capsys, monkeypatch):
    from test_selection import dnf_table

    import plx_core.selection as S
    from plx_core.estimator import PLXClassifier

    # among the candidates before the rule vote, which wins this table's folds
    # (tests/test_vote.py saves that one)
    monkeypatch.setattr(S, "CANDIDATES", tuple(c for c in S.CANDIDATES if c != "rule-vote"))

    X, y = dnf_table()
    csv = tmp_path / "dnf.csv"
    X.assign(label=y).to_csv(csv, index=False)
    model = tmp_path / "m.json"
    assert main(["fit", str(csv), "--label", "label", "--positive", "yes",
                 "--out", str(model)]) == 0
    said = capsys.readouterr().err  # the binary tree, pruned: 5% of the labels are flipped
    assert "tree-bin-deep answers: out-of-fold F1" in said and "pruned at α = " in said
    doc = json.loads(model.read_text())
    assert (doc["chosen"], doc["kb_kind"], doc["semantics"]) == (
        "tree-bin-deep", "tree-bin-deep", "relevant")
    assert doc["answer"] is None and "out-of-fold F1" in doc["chosen_reason"]
    table = pd.read_csv(csv, dtype=str)
    clf = PLXClassifier(positive="yes").fit(table.drop(columns="label"), table["label"])
    assert doc["threshold"] == clf.threshold_ and clf.selection_.alpha is not None
    assert len(clf.kb_) < len(PLXClassifier(positive="yes", kb="tree-bin-deep").fit(
        table.drop(columns="label"), table["label"]).kb_)  # the pruned tree is what was saved
    rows = table.drop(columns="label").iloc[:40].copy()
    rows.iloc[0, 0] = np.nan  # a missing cell: answered from the path prefixes it knows
    rows.to_csv(tmp_path / "q.csv", index=False)
    out = tmp_path / "p.csv"
    assert main(["predict", str(model), str(tmp_path / "q.csv"), "--out", str(out)]) == 0
    pred = pd.read_csv(out)
    assert pred["mean"].tolist() == pytest.approx(clf.bounds(rows)["mean"].tolist())
    assert pred["decision"].tolist() == clf.predict(rows).tolist()


def test_a_chosen_confidence_weighted_kb_is_saved_with_its_weights(tmp_path, capsys,
                                                                   monkeypatch):
    from test_selection import nursery_rows

    import plx_core.selection as S
    from plx_core.estimator import PLXClassifier
    from plx_core.modelfile import load_model

    # among the candidates before the fitted vote, which wins these 300 rows' folds
    # (tests/test_vote.py saves that one)
    monkeypatch.setattr(S, "CANDIDATES", tuple(c for c in S.CANDIDATES if c != "direct-vote"))

    X, y, pos = nursery_rows()
    csv = tmp_path / "nursery.csv"
    X.assign(label=y).to_csv(csv, index=False)
    model = tmp_path / "m.json"
    assert main(["fit", str(csv), "--label", "label", "--positive", pos,
                 "--out", str(model)]) == 0
    said = capsys.readouterr()
    assert "direct-conf answers: out-of-fold F1" in said.err
    # the last line names the model that answers, not the paper's configuration
    assert "the Direct KB with confidence weights chosen (m as said above)" in said.out
    doc = json.loads(model.read_text())
    # one name for it in the model file, as `chosen_` and `variant_` are
    assert (doc["chosen"], doc["kb_kind"], doc["variant"]) == ("direct-conf", "direct", "direct-conf")
    table = pd.read_csv(csv, dtype=str)
    clf = PLXClassifier(positive=pos).fit(table.drop(columns="label"), table["label"])
    assert doc["threshold"] == clf.threshold_
    assert load_model(model).answering_kb().w.tolist() == pytest.approx(clf.kb_.w.tolist())
    rows = table.drop(columns="label").iloc[:40]
    rows.to_csv(tmp_path / "q.csv", index=False)
    out = tmp_path / "p.csv"
    assert main(["predict", str(model), str(tmp_path / "q.csv"), "--out", str(out)]) == 0
    pred = pd.read_csv(out, dtype={"decision": str})
    assert pred["mean"].tolist() == pytest.approx(clf.bounds(rows)["mean"].tolist())
    assert pred["decision"].tolist() == clf.predict(rows).tolist()
    # a model file written when the variant of the chosen direct-conf was called "confidence"
    old = tmp_path / "old.json"
    old.write_text(model.read_text().replace('"variant": "direct-conf"', '"variant": "confidence"'))
    assert json.loads(old.read_text())["variant"] == "confidence"
    assert load_model(old).settings["variant"] == "direct-conf"
    assert main(["predict", str(old), str(tmp_path / "q.csv"), "--out", str(out)]) == 0
    assert pd.read_csv(out)["mean"].tolist() == pred["mean"].tolist()


def test_fit_says_which_columns_it_leaves_out(tmp_path, capsys):
    rng = np.random.default_rng(0)
    n = 120
    table = pd.DataFrame({"id": np.arange(n), "k": 7, "b": rng.choice(list("xy"), n),
                          "label": rng.choice(["0", "1"], n)})
    csv = tmp_path / "t.csv"
    table.to_csv(csv, index=False)
    assert main(["fit", str(csv), "--label", "label", "--out", str(tmp_path / "m.json")]) == 0
    err = capsys.readouterr().err
    assert "column 'id' is left out: ID-like" in err
    assert "column 'k' is left out: constant" in err


def test_a_label_written_two_ways_is_refused_not_split(tmp_path, capsys):
    # with --positive yes the " Yes" rows used to become negatives without a word
    data = tmp_path / "d.csv"
    rows = ["a,y"] + [f"{'xy'[i % 2]},{['yes', ' Yes', 'no'][i % 3]}" for i in range(12)]
    data.write_text("\n".join(rows) + "\n")
    code, _, err = run(["fit", data, "--label", "y", "--positive", "yes", "--out",
                        tmp_path / "m.json"], capsys)
    assert code == 2 and not (tmp_path / "m.json").exists()
    assert_one_line_error(err, "label 'y'", "differ only in case or spaces", "' Yes', 'yes'")


def test_a_label_writing_one_number_two_ways_is_refused_not_split(tmp_path, capsys):
    # '1' and '1.0' were four classes: "pass --positive", and --positive 1 would have made
    # every '1.0' row a negative without a word
    from user_tables import label_number_spellings

    data = tmp_path / "d.csv"
    data.write_bytes(label_number_spellings().data)
    for extra in ([], ["--positive", "1"]):
        code, _, err = run(["fit", data, "--label", "cured", *extra, "--out",
                            tmp_path / "m.json"], capsys)
        assert code == 2 and not (tmp_path / "m.json").exists()
        assert_one_line_error(err, "label 'cured'", "one number written more than one way",
                              "['0', '0.0']")


def test_a_european_csv_keeps_its_decimal_comma_measure(tmp_path, capsys):
    # ';'-separated, BOM, CRLF, trailing blank lines, decimal commas: the deciding measure
    # used to be left out as "ID-like"
    rng = np.random.default_rng(11)
    x = rng.normal(50, 10, 300)
    g = rng.choice(["alpha", "beta"], 300)
    y = np.where(x + rng.normal(0, 2, 300) > 50, "ja", "nein")
    lines = ["wert;gruppe;ziel"] + [f"{v:.2f};{gg};{yy}".replace(".", ",")
                                    for v, gg, yy in zip(x, g, y)]
    data = tmp_path / "euro.csv"
    data.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode() + b"\r\n\r\n")
    code, out, err = run(["fit", data, "--label", "ziel", "--positive", "ja", "--out",
                          tmp_path / "m.json"], capsys)
    assert code == 0, err
    assert "column 'wert': read as numbers with a decimal comma" in err
    assert "left out" not in err
    new = tmp_path / "new.csv"
    new.write_text("wert;gruppe\n71,5;alpha\n28,25;beta\n")
    code, out, err = run(["predict", tmp_path / "m.json", new, "--out", tmp_path / "p.csv"],
                         capsys)
    assert code == 0, err
    assert pd.read_csv(tmp_path / "p.csv")["decision"].tolist() == ["ja", "nein"]
    new.write_text("wert;gruppe\n71.5;alpha\n")
    code, _, err = run(["predict", tmp_path / "m.json", new, "--out", tmp_path / "q.csv"],
                       capsys)
    assert code == 2
    assert_one_line_error(err, "column 'wert'", "'71.5' is not a number", "decimal comma")



def test_predict_reads_a_file_written_in_another_locale_than_the_training_file(tmp_path, capsys):
    """Trained on a ';' export with decimal commas (0,125 kg), asked about a ',' file of
    three-decimal numbers (0.125, as pandas writes with float_format='%.3f'): those were read
    in the model's format — 0.125 as 125, silently, deciding every row alike — and a ';' file
    for a model trained on plain numbers was refused with no way to read it."""
    rng = np.random.default_rng(21)
    kg = rng.integers(50, 950, 240) / 1000
    y = np.where(kg > 0.5, "schwer", "leicht")
    lines = ["gewicht;farbe;klasse"] + [f"{v:.3f};{c};{t}".replace(".", ",")
                                        for v, c, t in zip(kg, rng.choice(["rot", "blau"], 240), y)]
    euro = tmp_path / "euro.csv"
    euro.write_text("\n".join(lines) + "\n")
    model = tmp_path / "m.json"
    code, _, err = run(["fit", euro, "--label", "klasse", "--positive", "schwer", "--out", model],
                       capsys)
    assert code == 0 and "column 'gewicht': read as numbers with a decimal comma" in err, err
    new = tmp_path / "new.csv"
    pd.DataFrame({"gewicht": [0.875, 0.125, 0.625], "farbe": ["rot", "blau", "rot"]}).to_csv(
        new, index=False, float_format="%.3f")
    for cmd in ("predict", "explain"):
        out = tmp_path / f"{cmd}.csv"
        code, _, err = run([cmd, model, new, "--out", out], capsys)
        assert code == 0, err
        said = [ln for ln in err.splitlines() if "as this file writes them" in ln]
        assert said == [f"note: file {str(new)!r}: column 'gewicht': read as plain numbers (1234.5), "
                        "as this file writes them (the training file's as numbers with a decimal "
                        "comma (3,5 → 3.5; 1.234,5 → 1234.5))"], err
        assert pd.read_csv(out)["decision"].tolist() == ["schwer", "leicht", "schwer"]
    # the other way round: trained on plain numbers, asked about a ';' file of decimal commas
    plain = tmp_path / "plain.csv"
    pd.DataFrame({"gewicht": kg, "farbe": "rot", "klasse": y}).to_csv(plain, index=False)
    code, _, err = run(["fit", plain, "--label", "klasse", "--positive", "schwer", "--out", model],
                       capsys)
    assert code == 0, err
    new.write_text("farbe;gewicht\nrot;0,875\nblau;0,1\n")
    code, _, err = run(["predict", model, new, "--out", tmp_path / "p.csv"], capsys)
    assert code == 0 and "read as numbers with a decimal comma" in err, err
    assert pd.read_csv(tmp_path / "p.csv")["decision"].tolist() == ["schwer", "leicht"]
    new.write_text("farbe,gewicht\nrot,\"0,875\"\n")  # ',' file, ',' decimals: named, or refused
    code, _, err = run(["predict", model, new, "--out", tmp_path / "q.csv"], capsys)
    assert code == 2
    assert_one_line_error(err, "column 'gewicht'", "'0,875' is not a number")
    code, _, err = run(["predict", model, new, "--decimal", ",", "--out", tmp_path / "q.csv"],
                       capsys)
    assert code == 0 and pd.read_csv(tmp_path / "q.csv")["decision"].tolist() == ["schwer"], err
    # a later export of the same system with decimal commas no reader could take for
    # thousands (0,87; 12,5): told to name the mark, where it was told to list every value
    # among the missing markers, which would have answered each row without its weight
    new.write_text("farbe,gewicht\nrot,\"0,87\"\nblau,\"12,5\"\n")
    code, _, err = run(["predict", model, new, "--out", tmp_path / "q.csv"], capsys)
    assert code == 2
    assert_one_line_error(err, "column 'gewicht'", "'0,87' is not a number",
                          "decimal mark ','", "'0,87' → 0.87", "--decimal ,")
    assert "missing markers" not in err


def test_predict_refuses_a_column_written_in_another_unit_than_the_training_file(tmp_path,
                                                                               capsys):
    # users19: a later export writing glucose in mmol/L for a model fitted on mg/dL was read
    # as the bare numbers against the mg/dL cuts, with only a note: every row came out low
    rng = np.random.default_rng(23)
    mg = rng.integers(60, 250, 240)
    data = tmp_path / "fit.csv"
    pd.DataFrame({"glucose": [f"{v} mg/dL" for v in mg], "sex": rng.choice(["F", "M"], 240),
                  "dm": np.where(mg > 126, "yes", "no")}).to_csv(data, index=False)
    model = tmp_path / "m.json"
    code, _, err = run(["fit", data, "--label", "dm", "--positive", "yes", "--out", model], capsys)
    assert code == 0, err
    new = tmp_path / "new.csv"
    new.write_text("glucose,sex\n11.1,F\n11.1 mmol/L,F\n4.9 mmol/L,M\n")
    code, _, err = run(["predict", model, new, "--out", tmp_path / "p.csv"], capsys)
    assert code == 2 and not (tmp_path / "p.csv").exists()
    assert_one_line_error(err, "column 'glucose'", "in mmol/L ('11.1 mmol/L')",
                          "the training file in mg/dL", "convert the column to mg/dL")
    new.write_text("glucose,sex\n200 mg/dL,F\n90,M\n")  # its own unit, or none: read
    code, _, err = run(["predict", model, new, "--out", tmp_path / "p.csv"], capsys)
    assert code == 0 and pd.read_csv(tmp_path / "p.csv")["decision"].tolist() == ["yes", "no"]
    # the same unit in other case or spacing (review19: refused as another unit) is read
    for cells in (("200 mg/dl", "90 mg/dl"), ("200MG/DL", "90 MG/DL")):
        new.write_text(f"glucose,sex\n{cells[0]},F\n{cells[1]},M\n")
        code, _, err = run(["predict", model, new, "--out", tmp_path / "p.csv"], capsys)
        assert code == 0, err
        assert pd.read_csv(tmp_path / "p.csv")["decision"].tolist() == ["yes", "no"]
    # a model of bare numbers asked about a file with a unit: read, and said to be compared
    # as they stand (the training file named none to check against)
    pd.DataFrame({"glucose": mg, "sex": "F", "dm": np.where(mg > 126, "yes", "no")}).to_csv(
        data, index=False)
    code, _, err = run(["fit", data, "--label", "dm", "--positive", "yes", "--out", model], capsys)
    assert code == 0, err
    new.write_text("glucose,sex\n200 mg/dL,F\n90 mg/dL,M\n")
    code, _, err = run(["predict", model, new, "--out", tmp_path / "p.csv"], capsys)
    assert code == 0 and pd.read_csv(tmp_path / "p.csv")["decision"].tolist() == ["yes", "no"]
    said = [ln for ln in err.splitlines() if "column 'glucose'" in ln]
    assert len(said) == 1 and "read as numbers in mg/dL" in said[0], err
    assert "the training file named no unit, so if it held another than mg/dL, convert" in said[0]


def test_a_semicolon_csv_reads_dots_as_thousands_and_says_so(tmp_path, capsys):
    # ';'-separated with '.' between thousands and no decimals (45.000 is forty-five thousand):
    # it used to be read as 45.0, binned at "<50" for amounts of 50,000, and not said
    rng = np.random.default_rng(12)
    v = rng.integers(1_000, 99_999, 300)
    lines = ["betrag;gruppe;ziel"] + [f"{x:,};{g};{'ja' if x > 50_000 else 'nein'}"
                                      .replace(",", ".")
                                      for x, g in zip(v, rng.choice(["a", "b"], 300))]
    data = tmp_path / "euro.csv"
    data.write_text("\n".join(lines) + "\n")
    code, _, err = run(["fit", data, "--label", "ziel", "--positive", "ja", "--out",
                        tmp_path / "m.json"], capsys)
    assert code == 0, err
    assert "column 'betrag': read as whole numbers with '.' separating thousands" in err
    cuts = json.loads((tmp_path / "m.json").read_text())["schema"]["bins"]["betrag"]["cuts"]
    assert 40_000 < cuts[0] < 60_000
    new = tmp_path / "new.csv"
    new.write_text("betrag;gruppe\n71.500;a\n2.250;b\n")
    code, _, err = run(["predict", tmp_path / "m.json", new, "--out", tmp_path / "p.csv"],
                       capsys)
    assert code == 0, err
    assert pd.read_csv(tmp_path / "p.csv")["decision"].tolist() == ["ja", "nein"]
    new.write_text("betrag;gruppe\n71.5;a\n")
    code, _, err = run(["predict", tmp_path / "m.json", new, "--out", tmp_path / "q.csv"],
                       capsys)
    assert code == 2
    assert_one_line_error(err, "column 'betrag'", "'71.5' is not a number", "thousands")


def test_decimal_says_how_a_semicolon_file_writes_its_numbers(tmp_path, capsys):
    # a ';' file with '.' decimals and three decimal places (1.250 = one and a quarter) read
    # as thousands, and nothing let the user say otherwise
    rng = np.random.default_rng(14)
    v = rng.integers(1_000, 9_999, 200) / 1000
    lines = ["dose;gruppe;ziel"] + [f"{x:.3f};{g};{'ja' if x > 5 else 'nein'}"
                                    for x, g in zip(v, rng.choice(["a", "b"], 200))]
    data = tmp_path / "doses.csv"
    data.write_text("\n".join(lines) + "\n")
    model = tmp_path / "m.json"
    base = ["fit", data, "--label", "ziel", "--positive", "ja", "--out", model]
    code, _, err = run(base, capsys)
    assert code == 0 and "read as whole numbers with '.' separating thousands" in err
    assert "--decimal ." in err  # the note says how to read it otherwise
    code, _, err = run(base + ["--decimal", "."], capsys)
    assert code == 0, err
    assert "column 'dose': read as numbers with a decimal point" in err
    bins = json.loads(model.read_text())["schema"]["bins"]["dose"]
    assert bins["number_format"] == "decimal-point" and 4 < bins["cuts"][0] < 6
    new = tmp_path / "new.csv"  # new rows may then write 7.5 (no thousands reading)
    new.write_text("dose;gruppe\n7.5;a\n2.250;b\n")
    code, _, err = run(["predict", model, new, "--out", tmp_path / "p.csv"], capsys)
    assert code == 0, err
    assert pd.read_csv(tmp_path / "p.csv")["decision"].tolist() == ["ja", "nein"]
    for bad in ("x", ";", "comma"):
        code, _, err = run(base + ["--decimal", bad], capsys)
        assert code == 2
        assert_one_line_error(err, "--decimal", f"got {bad!r}")


def test_numbers_the_reader_cannot_read_are_said_with_the_way_to_read_them(tmp_path, capsys):
    # incomes written 12,345 with a few '-' cells (a thousand, or 12.345? not guessed), a
    # score with '-' in 15 % of its cells, and a 20-value count with 'x' in 20 %: each was
    # left out as "ID-like" / "too many values" or used as categories, without a word on
    # the numbers in it
    rng = np.random.default_rng(61)
    n = 300
    inc = rng.integers(1_000, 99_999, n)
    score = rng.normal(50, 10, n)
    count = rng.integers(0, 20, n)
    rows = ["income,score,count,klass"]
    for i in range(n):
        rows.append(",".join([
            "-" if i % 40 == 0 else f'"{inc[i]:,}"', "-" if i % 7 == 0 else f"{score[i]:.2f}",
            "x" if i % 5 == 0 else str(count[i]), "high" if inc[i] > 50_000 else "low"]))
    data = tmp_path / "numbers.csv"
    data.write_text("\n".join(rows) + "\n")
    model = tmp_path / "m.json"
    base = ["fit", data, "--label", "klass", "--positive", "high", "--out", model]
    code, _, err = run(base, capsys)
    assert code == 0, err
    line = next(ln for ln in err.splitlines() if "'income' is left out" in ln)
    assert "1,234" in line and "--decimal" in line
    line = next(ln for ln in err.splitlines() if "'score' is left out" in ln)
    assert "numbers except" in line and "'-' ×43" in line and "--missing" in line
    line = next(ln for ln in err.splitlines() if "'count' is used as categories" in ln)
    assert "'x' ×60" in line
    code, _, err = run(base + ["--decimal", "."], capsys)  # ',' then separates thousands
    assert code == 0, err
    assert "column 'income': read as numbers with thousands separators" in err
    bins = json.loads(model.read_text())["schema"]["bins"]["income"]
    assert bins["number_format"] == "thousands" and 40_000 < bins["cuts"][0] < 60_000
    new = tmp_path / "new.csv"
    new.write_text('income,score,count\n"71,500",50,3\n"2,250",50,3\n')
    code, _, err = run(["predict", model, new, "--out", tmp_path / "p.csv"], capsys)
    assert code == 0, err
    assert pd.read_csv(tmp_path / "p.csv")["decision"].tolist() == ["high", "low"]
    code, _, err = run(base + ["--missing", "-,x,?"], capsys)  # '-' reads as an option there
    assert code == 2
    assert_one_line_error(err, "--missing", "--missing=-,n/a")
    markers = "--missing=-,x,?,NA"  # named missing, both read as numbers and binned
    code, _, err = run(base + ["--decimal", ".", markers], capsys)
    assert code == 0, err
    assert set(json.loads(model.read_text())["schema"]["bins"]) >= {"income", "score", "count"}


def test_a_column_written_otherwise_is_named_beside_the_one_missing(tmp_path, capsys):
    # ' Age' and 'age' are two columns; a new file writing ' Age' as 'AGE' lacked ' Age', and
    # a label typed 'Outcome' for 'outcome' was not found, without a word on the near name
    rng = np.random.default_rng(65)
    a, b = rng.integers(18, 90, 200), rng.integers(18, 90, 200)
    data = tmp_path / "d.csv"
    sick = (a > 50) & (b > 30)  # both columns decide: every model names both
    pd.DataFrame({" Age": a, "age": b, "outcome": np.where(sick, "sick", "well")}).to_csv(
        data, index=False)
    m = tmp_path / "m.json"
    code, _, err = run(["fit", data, "--label", "Outcome", "--out", m], capsys)
    assert code == 2
    assert_one_line_error(err, "no label column 'Outcome'", "'outcome' differs from it only")
    code, _, err = run(["fit", data, "--label", "outcome", "--positive", "sick", "--out", m], capsys)
    assert code == 0, err
    new = tmp_path / "new.csv"
    new.write_text("AGE,age\n60,20\n")
    code, _, err = run(["predict", m, new, "--out", tmp_path / "p.csv"], capsys)
    assert code == 2
    assert_one_line_error(err.splitlines()[-1], "[' Age']", "'AGE' differs from it only")
    new.write_text(" Age\n60\n")  # 'age' lacking: ' Age' is another feature, not its twin
    code, _, err = run(["predict", m, new, "--out", tmp_path / "p.csv"], capsys)
    assert code == 2 and "['age']" in err and "differs" not in err


def test_fit_says_a_column_of_dates_in_two_formats_is_used_as_categories(tmp_path, capsys):
    rng = np.random.default_rng(15)
    days = pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 20, 120), unit="D")
    when = [d.strftime("%Y-%m-%d") if i % 2 else d.strftime("%d/%m/%Y") for i, d in enumerate(days)]
    data = tmp_path / "mixed.csv"
    pd.DataFrame({"when": when, "site": rng.choice(["n", "s"], 120),
                  "y": rng.choice(["no", "yes"], 120)}).to_csv(data, index=False)
    code, _, err = run(["fit", data, "--label", "y", "--out", tmp_path / "m.json"], capsys)
    assert code == 0, err
    said = [ln for ln in err.splitlines() if "'when' is used as categories" in ln]
    assert len(said) == 1 and "dates written in more than one format" in said[0]


def test_a_date_column_decides_and_predict_reads_new_dates_the_same_way(tmp_path, capsys):
    # dd/mm/yyyy dates used to be left out ("too many distinct values"): fit said so and the
    # model could not see that every row after June is positive
    rng = np.random.default_rng(13)
    days = pd.Timestamp("2022-01-01") + pd.to_timedelta(rng.integers(0, 365, 300), unit="D")
    y = np.where(days >= pd.Timestamp("2022-07-01"), "yes", "no")
    data = tmp_path / "visits.csv"
    pd.DataFrame({"visit": days.strftime("%d/%m/%Y"), "site": rng.choice(["n", "s"], 300),
                  "y": y}).to_csv(data, index=False)
    code, _, err = run(["fit", data, "--label", "y", "--positive", "yes", "--out",
                        tmp_path / "m.json"], capsys)
    assert code == 0, err
    assert "column 'visit': read as dates, day/month/year" in err and "left out" not in err
    b = json.loads((tmp_path / "m.json").read_text())["schema"]["bins"]["visit"]
    assert b["number_format"] == "date:%d/%m/%Y" and b["labels"][0].startswith("<2022-0")
    new = tmp_path / "new.csv"
    new.write_text("visit,site\n24/12/2022,n\n03/02/2022,s\n")
    code, _, err = run(["predict", tmp_path / "m.json", new, "--out", tmp_path / "p.csv"],
                       capsys)
    assert code == 0, err
    assert pd.read_csv(tmp_path / "p.csv")["decision"].tolist() == ["yes", "no"]
    new.write_text("visit,site\n2022-12-24,n\n")  # another way of writing dates: named
    code, _, err = run(["predict", tmp_path / "m.json", new, "--out", tmp_path / "q.csv"],
                       capsys)
    assert code == 2
    assert_one_line_error(err, "column 'visit'", "'2022-12-24' is not a date", "day/month/year")


def test_parquet_files_fit_and_predict_as_their_csv_does(tmp_path, capsys):
    # `plx predict --dask` read Parquet, plain `plx fit` / `plx predict` refused it ("save the
    # table as CSV"); its typed columns (codes, measures, dates) answer as the CSV's text does
    pytest.importorskip("pyarrow")
    rng = np.random.default_rng(14)
    n = 240
    frame = pd.DataFrame({
        "code": rng.choice([10, 20, 30], n), "dose": rng.normal(5, 2, n).round(3),
        "day": pd.Timestamp("2022-01-01") + pd.to_timedelta(rng.integers(0, 300, n), unit="D"),
        "site": rng.choice(["north", "south", "?"], n)})
    frame["y"] = np.where((frame["dose"] > 5) ^ (frame["code"] == 20), "yes", "no")
    csv, pq = tmp_path / "t.csv", tmp_path / "t.parquet"
    frame.assign(day=frame["day"].dt.strftime("%Y-%m-%d")).to_csv(csv, index=False)
    frame.to_parquet(pq)
    for src, name in ((csv, "c.json"), (pq, "p.json")):
        code, _, err = run(["fit", src, "--label", "y", "--positive", "yes", "--out",
                            tmp_path / name], capsys)
        assert code == 0, err
    k = int((frame["site"] == "?").sum())
    assert f"'site' {k} ('?' ×{k})" in err  # "?" read as missing in Parquet text too
    a = json.loads((tmp_path / "c.json").read_text())
    b = json.loads((tmp_path / "p.json").read_text())
    assert a["schema"]["bins"] == b["schema"]["bins"] and a["kb"] == b["kb"]
    test = frame.drop(columns="y").head(40)
    test.to_parquet(tmp_path / "new.parquet")
    test.assign(day=test["day"].dt.strftime("%Y-%m-%d")).to_csv(tmp_path / "new.csv", index=False)
    for src, out in (("new.parquet", "p1.csv"), ("new.csv", "p2.csv")):
        code, _, err = run(["predict", tmp_path / "c.json", tmp_path / src, "--out",
                            tmp_path / out], capsys)
        assert code == 0, err
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "p1.csv"), pd.read_csv(tmp_path / "p2.csv"))
    test.drop(columns="dose").to_parquet(tmp_path / "bad.parquet")
    code, _, err = run(["predict", tmp_path / "c.json", tmp_path / "bad.parquet", "--out",
                        tmp_path / "p3.csv"], capsys)
    assert code == 2
    assert_one_line_error(err, "bad.parquet", "['dose']")


def test_explanations_quote_names_and_values_that_hold_separators(tmp_path, capsys):
    # a column "a=b" binned to "<0.5" was written a=b=<0.5 (which '=' splits?)
    from plx_core.rules import parse_conditions

    rng = np.random.default_rng(12)
    x = rng.normal(size=120)
    frame = pd.DataFrame({"a=b": x, "two words": rng.choice(["p q", "r"], 120),
                          "y": np.where(x > 0, "yes", "no")})
    frame.to_csv(tmp_path / "d.csv", index=False)
    assert run(["fit", tmp_path / "d.csv", "--label", "y", "--out", tmp_path / "m.json"],
               capsys)[0] == 0
    frame.drop(columns="y").head(5).to_csv(tmp_path / "q.csv", index=False)
    code, _, err = run(["explain", tmp_path / "m.json", tmp_path / "q.csv", "--out",
                        tmp_path / "e.csv"], capsys)
    assert code == 0, err
    for cell in pd.read_csv(tmp_path / "e.csv")["features"]:
        pairs = parse_conditions(cell)  # the column reads back as rule conditions
        assert {f for f, _ in pairs} <= {"a=b", "two words"} and pairs, cell
        assert all(v for _, v in pairs), cell


def test_a_lab_column_says_how_many_cells_were_missing_and_how_many_censored(tmp_path, capsys):
    # 'ND' ×7 beside '<0.1' ×4: the note ended "… in the bin next to their bound — 7 cell(s)",
    # the missing cells' count read as the censored cells'
    rng = np.random.default_rng(12)
    x = rng.lognormal(0.5, 1.0, 200).round(2)
    lab = x.astype(str).astype(object)
    lab[:7], lab[7:11] = "ND", "<0.1"
    pd.DataFrame({"tox": lab, "y": np.where(x > 1.6, "yes", "no")}).to_csv(
        tmp_path / "d.csv", index=False)
    code, _, err = run(["fit", tmp_path / "d.csv", "--label", "y", "--positive", "yes",
                        "--out", tmp_path / "m.json"], capsys)
    assert code == 0, err
    note = next(line for line in err.splitlines() if "'ND' read as missing" in line)
    assert "'ND' read as missing in 7 cells" in note and "— 7 cells" not in note, note
    assert "4 cells written beyond a bound ('<0.1' ×4)" in err


def test_stray_text_in_a_number_column_is_missing_in_fit_and_predict(tmp_path, capsys):
    rng = np.random.default_rng(3)
    x = rng.normal(50, 10, 200).round(1)
    lab = x.astype(str).astype(object)
    lab[[3, 17]] = "unknown"
    pd.DataFrame({"lab": lab, "y": np.where(x > 50, "yes", "no")}).to_csv(
        tmp_path / "d.csv", index=False)
    code, _, err = run(["fit", tmp_path / "d.csv", "--label", "y", "--out", tmp_path / "m.json"],
                       capsys)
    assert code == 0, err
    assert "column 'lab': the text 'unknown' read as missing" in err and "2 cells" in err
    (tmp_path / "q.csv").write_text("lab\nunknown\n80\n20\n")
    code, _, err = run(["predict", tmp_path / "m.json", tmp_path / "q.csv", "--out",
                        tmp_path / "p.csv"], capsys)
    assert code == 0, err
    assert pd.read_csv(tmp_path / "p.csv")["decision"].tolist()[1:] == ["yes", "no"]


def test_censored_lab_values_are_values_in_fit_and_predict(tmp_path, capsys):
    # '<5' in 40 % of a CRP column left it out as 'too many distinct values': a clinician's
    # main lab value gone, the label learnt from the rest
    rng = np.random.default_rng(152)
    crp = rng.lognormal(1.8, 1.0, 240)
    cells = np.where(crp < 5, np.array(["<5", "< 5", "≤5"])[np.arange(240) % 3],
                     np.char.mod("%.1f", crp))
    pd.DataFrame({"crp": cells, "ward": rng.choice(["A", "B"], 240),
                  "y": np.where(crp > 8, "yes", "no")}).to_csv(tmp_path / "d.csv", index=False)
    code, _, err = run(["fit", tmp_path / "d.csv", "--label", "y", "--out", tmp_path / "m.json"],
                       capsys)
    assert code == 0, err
    n = int((crp < 5).sum())
    assert f"column 'crp': {n} cells written beyond a bound ('" in err and "left out" not in err
    (tmp_path / "q.csv").write_text("crp,ward\n<5,A\n< 5,B\n25.5,A\n>40,B\n")
    code, _, err = run(["predict", tmp_path / "m.json", tmp_path / "q.csv", "--out",
                        tmp_path / "p.csv"], capsys)
    assert code == 0, err
    assert pd.read_csv(tmp_path / "p.csv")["decision"].tolist() == ["no", "no", "yes", "yes"]
    assert "column 'crp': 3 cells written beyond a bound ('<5' ×1, '< 5' ×1, '>40' ×1)" in err


def test_predict_says_the_censored_cells_of_a_column_fitted_without_any(tmp_path, capsys):
    # a CRP column of plain numbers at fit; new rows write '<3' and '>= 60': read past their
    # bound (as PLXClassifier reads them), which predict did without a word
    rng = np.random.default_rng(31)
    crp = rng.gamma(2.0, 4.0, 200).round(1)
    pd.DataFrame({"crp": crp, "ward": rng.choice(["a", "b"], 200),
                  "y": np.where(crp > 9, "yes", "no")}).to_csv(tmp_path / "d.csv", index=False)
    assert run(["fit", tmp_path / "d.csv", "--label", "y", "--out", tmp_path / "m.json"],
               capsys)[0] == 0
    (tmp_path / "q.csv").write_text("crp,ward\n<3,a\n14.2,b\n>= 60,a\n<3,b\n")
    code, _, err = run(["predict", tmp_path / "m.json", tmp_path / "q.csv", "--out",
                        tmp_path / "p.csv"], capsys)
    assert code == 0, err
    assert ("column 'crp': 3 cells written beyond a bound ('<3' ×2, '>= 60' ×1) read just "
            "past it") in err
    assert pd.read_csv(tmp_path / "p.csv")["decision"].tolist() == ["no", "yes", "yes", "no"]


def test_a_label_of_measurements_is_named_as_such(tmp_path, capsys):
    rng = np.random.default_rng(13)
    pd.DataFrame({"a": rng.choice(list("xy"), 40), "y": rng.normal(size=40).round(3)}).to_csv(
        tmp_path / "d.csv", index=False)
    code, _, err = run(["fit", tmp_path / "d.csv", "--label", "y", "--out", tmp_path / "m.json"],
                       capsys)
    assert code == 2
    assert_one_line_error(err, "label 'y' holds 40 different numbers", "make a yes/no label")


def test_a_positive_class_written_otherwise_is_named_not_taken(tmp_path, capsys):
    # labels "Adélie  " (trailing spaces, as a spreadsheet left them): --positive Adélie was
    # refused with the values listed, and nothing said which one the user meant
    data = tmp_path / "p.csv"
    data.write_text("bill,species\n" + "".join(
        f"{40 + i % 9},{['Adélie  ', 'Gentoo pingüin', 'chin strap'][i % 3]}\n"
        for i in range(60)), encoding="utf-8")
    code, _, err = run(["fit", data, "--label", "species", "--positive", "adélie", "--out",
                        tmp_path / "m.json"], capsys)
    assert code == 2
    assert_one_line_error(err, "positive='adélie'", "did you mean 'Adélie  '")
    code, _, err = run(["fit", data, "--label", "species", "--positive", "Adélie  ", "--out",
                        tmp_path / "m.json"], capsys)
    assert code == 0, err
    only = tmp_path / "only.csv"  # a label and nothing else: said as such ("excluded: {}")
    only.write_text("y\nyes\nno\n")
    code, _, err = run(["fit", only, "--label", "y", "--out", tmp_path / "o.json"], capsys)
    assert code == 2
    assert_one_line_error(err, "no column besides the label 'y'")


@pytest.mark.parametrize("pos, neg, assumed", [
    ("TRUE", "FALSE", "TRUE"), ("1.0", "0.0", "1.0"), ("1", "0", "1"), ("Yes", "No", "Yes"),
    ("true", "false", "true"), ("1", "-1", "1"),
    (" Yes", " No", None), ("y", "n", None), ("T", "F", None), ("2", "1", None),
])
def test_plx_fit_assumes_the_positive_class_only_for_the_known_pairs(tmp_path, capsys, pos,
                                                                     neg, assumed):
    """As the estimator: the second of 0/1, −1/1, False/True, no/yes (case aside, as the file
    writes it) goes without saying; any other pair is asked for, naming the classes."""
    data = tmp_path / "d.csv"
    rows = ["a,y"] + [f"{'xyz'[i % 3]},\"{pos if i % 3 == 1 else neg}\"" for i in range(30)]
    data.write_text("\n".join(rows) + "\n")
    code, out, err = run(["fit", data, "--label", "y", "--variant", "tuned", "--out",
                          tmp_path / "m.json"], capsys)
    if assumed is None:
        assert code == 2 and not (tmp_path / "m.json").exists()
        assert_one_line_error(err, "pass --positive", repr(pos), repr(neg))
    else:
        from plx_core.modelfile import load_model

        assert code == 0 and f"POS = {assumed!r}" in out
        assert load_model(tmp_path / "m.json").positive == assumed


def _fail_on(monkeypatch, module, name, when):
    """Make `module.name` raise a SolverError for the calls `when(args, kwargs)` picks (as a
    solver time-out on one row would), the others answered as usual."""
    from plx_core.errors import SolverTimeoutError

    real = getattr(module, name)

    def patched(*args, **kwargs):
        if when(args, kwargs):
            raise SolverTimeoutError("the LP solver hit its time limit (60 s)")
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, patched)


def test_predict_and_explain_answer_every_row_when_one_fails(tmp_path, queries, capsys,
                                                             monkeypatch):
    """One row the LP fails on gets NaN bounds and its reason in a note; the other rows are
    answered and explained, and the exit status stays 0."""
    import sys

    E, Q = sys.modules["plx_core.explain"], sys.modules["plx_core.query"]  # the modules
    model, pred, expl = (tmp_path / n for n in ("m.json", "p.csv", "e.csv"))
    assert main(["fit", str(EXAMPLE), "--label", "label", "--kb", "tree", "--variant", "paper",
                 "--out", str(model)]) == 0
    assert main(["predict", str(model), str(queries), "--out", str(pred)]) == 0
    good = pd.read_csv(pred, keep_default_na=False)
    _fail_on(monkeypatch, Q, "query", lambda a, kw: dict(a[1]) == {"a1": "0"})  # row 4: 0---
    _fail_on(monkeypatch, E, "explain_all", lambda a, kw: dict(a[1]).get("a1") == "1")  # row 2
    capsys.readouterr()
    assert main(["predict", str(model), str(queries), "--out", str(pred)]) == 0
    got = pd.read_csv(pred, keep_default_na=False)
    assert got["note"].tolist()[:3] == ["", "", ""] and "time limit" in got["note"][3]
    assert got["method"][3] == "failed" and got["lower"][3] == "" and got["upper"][3] == ""
    assert got["decision"][3] == "" and not got["tie"][3]  # not decided negative
    cols = ["lower", "upper", "decision"]
    assert np.array_equal(got.iloc[:3][cols].astype(float), good.iloc[:3][cols].astype(float))
    assert "1 row could not be answered" in capsys.readouterr().err
    assert main(["explain", str(model), str(queries), "--k", "2", "--out", str(expl)]) == 0
    assert "1 row could not be answered" in capsys.readouterr().err  # as predict says it
    e = pd.read_csv(expl, keep_default_na=False)
    assert "time limit" in e["note"][1] and e["features"][1] == ""
    assert e["features"][0] != "" and e["features"][2] != ""


def test_fit_on_one_class_says_so_not_pass_positive(tmp_path, capsys):
    """A label of one class is one line saying so, with or without --positive: '--positive'
    cannot make two classes of one (it used to say 'has 1 classes …; pass --positive')."""
    f = tmp_path / "one.csv"
    f.write_text("a,y\n" + "".join(f"{'xy'[i % 2]},0\n" for i in range(10)), encoding="utf-8")
    for extra in ([], ["--positive", "0"]):
        code, _, err = run(["fit", f, "--label", "y", "--out", tmp_path / "m.json", *extra],
                           capsys)
        assert code == 2
        assert_one_line_error(err, "'y'", "only one class ('0'", "both outcomes")
        assert "--positive" not in err
    assert not (tmp_path / "m.json").exists()


def test_fit_says_a_copy_of_the_label_once(tmp_path, capsys):
    """A column pairing one to one with the label's classes is said once on stderr (a note,
    not a Python warning), also when --positive makes one of four classes POS."""
    rng = np.random.default_rng(5)
    g = rng.choice(["hi", "lo", "mid", "rare"], 200)
    f = tmp_path / "t.csv"
    pd.DataFrame({"x": rng.choice(list("abc"), 200), "code": pd.Series(g).str[0].str.upper(),
                  "cls": g}).to_csv(f, index=False)
    for pos in ("hi", "rare"):
        code, _, err = run(["fit", f, "--label", "cls", "--positive", pos,
                            "--out", tmp_path / "m.json"], capsys)
        assert code == 0 and "Traceback" not in err and "Warning" not in err
        said = [ln for ln in err.splitlines() if "copy of the label" in ln]
        assert len(said) == 1 and said[0].startswith("note: column 'code':"), err
        assert "'R' ↔ 'rare'" in said[0]


def test_predict_and_explain_answer_rows_whose_label_cell_is_empty(tmp_path, capsys):
    """Rows to predict may carry the label column with gaps (the training file itself, fitted
    with --drop-missing-label): they are answered, not refused as a training label would be."""
    from user_tables import label_bool_gaps

    data = tmp_path / "d.csv"
    data.write_bytes(label_bool_gaps().data)
    m, out, ex = tmp_path / "m.json", tmp_path / "p.csv", tmp_path / "e.csv"
    code, _, err = run(["fit", data, "--label", "sick", "--drop-missing-label", "--out", m], capsys)
    assert code == 0 and "dropped 14 of 300 rows" in err
    code, _, err = run(["predict", m, data, "--out", out], capsys)
    assert code == 0, err
    pred = pd.read_csv(out)
    assert len(pred) == 300 and set(pred["decision"]) == {True, False}
    truth = pd.read_csv(data)["sick"]
    known = truth.notna().to_numpy()
    assert (pred["decision"][known] == truth[known]).mean() > 0.7
    assert main(["explain", str(m), str(data), "--out", str(ex)]) == 0
    assert len(pd.read_csv(ex)) == 300


def test_fit_says_a_column_writing_one_value_several_ways_once(tmp_path, capsys):
    """'True' / 'TRUE' / 'yes' / 'Yes' / '1' in one column: one yes/no answer (reading27:
    merged, no longer kept as ten values), said once on stderr naming the column and the
    writings, the map kept in the model file."""
    from user_tables import mixed_bool

    data = tmp_path / "d.csv"
    data.write_bytes(mixed_bool().data)
    m = tmp_path / "m.json"
    code, _, err = run(["fit", data, "--label", "disease", "--out", m], capsys)
    assert code == 0 and "Warning" not in err
    said = [ln for ln in err.splitlines() if "read as one" in ln]
    assert len(said) == 1 and said[0].startswith(
        "note: column 'smoker': one yes/no answer written 10 ways, read as one: "), err
    assert "more than one way" not in err and "'TRUE', 'True'" in said[0]
    schema = json.loads(m.read_text())["schema"]
    assert len(schema["categories"]["smoker"]) == 2
    flags = schema["value_maps"]["smoker"]
    assert flags["Yes"] == flags["TRUE"] == flags["1"] != flags["no"] == flags["False"]


def _long_csv(tmp_path, n=400):
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"age": rng.integers(18, 90, n), "plan": rng.choice(list("abc"), n)})
    X["label"] = np.where((X.age > 60) & (X.plan == "a") | (rng.random(n) < 0.05), "yes", "no")
    csv = tmp_path / "long.csv"
    X.to_csv(csv, index=False)
    return csv


def test_fit_tells_its_phases_on_stderr_and_keeps_stdout_clean(tmp_path, capsys):
    csv, model = _long_csv(tmp_path), tmp_path / "m.json"
    assert main(["fit", str(csv), "--label", "label", "--out", str(model)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("wrote") and out.count("\n") == 1  # stdout: the result alone
    told = [line for line in err.splitlines() if line.startswith("plx fit: [")]
    phases = ["reading long.csv", "reading the types of 2 columns", "checking the columns",
              "reading the rows' values (400 rows × 2 features)",  # before the fit: told too
              "binning 400 rows", "building the Direct KB of 400 rows",
              "searching candidates 1 of ", "building the chosen model", "saving m.json"]
    at = [next(i for i, line in enumerate(told) if p in line) for p in phases]
    assert at == sorted(at)  # in this order
    assert "100%" not in told[0] and "searching candidates 10 of 10" in err
    notes = [line for line in err.splitlines() if not line.startswith("plx fit: [")]
    # silenced: the same notes, no progress line, the same model
    first = model.read_bytes()
    assert main(["fit", str(csv), "--label", "label", "--no-progress", "--out", str(model)]) == 0
    out2, err2 = capsys.readouterr()
    assert out2 == out and "plx fit: [" not in err2 and err2.splitlines() == notes
    assert model.read_bytes() == first


def test_fit_refuses_a_table_beyond_its_memory_budget_before_the_work(tmp_path, capsys):
    csv, model = _long_csv(tmp_path), tmp_path / "m.json"
    assert main(["fit", str(csv), "--label", "label", "--budget", "100KB", "--out",
                 str(model)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and not model.exists()
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "400 rows × 2 columns need about" in errors[0]
    assert "need about 234 KiB to fit, over the 100 KiB memory budget" in errors[0]
    assert "fit_dask" in errors[0]
    assert "binning" not in err  # said before the work: only the reading was told


def test_the_model_file_lists_the_bins_it_applies_as_a_columns_values(tmp_path, capsys):
    """A numeric column's values in the model file's schema are the labels of the cut points
    the model applies (the estimator's), not those of the reader's first binning."""
    from user_tables import scientific

    from plx_core.data import Binning

    data, m = tmp_path / "d.csv", tmp_path / "m.json"
    data.write_bytes(scientific().data)
    assert run(["fit", data, "--label", "toxic", "--out", m], capsys)[0] == 0
    schema = json.loads(m.read_text())["schema"]

    for f, b in schema["bins"].items():
        assert schema["categories"][f] == list(Binning.from_dict(b).labels), f


def test_fit_reads_a_file_as_large_as_its_budget_takes_and_refuses_a_larger_one_unread(
        tmp_path, capsys, monkeypatch):
    from plx_core import data, scale

    csv, model = _long_csv(tmp_path), tmp_path / "m.json"
    size = csv.stat().st_size
    monkeypatch.setattr(data, "MAX_BYTES", size // 4)  # the reader's own cap: below the file
    # the budget's cells at CSV_BYTES_PER_CELL each: the file fits, so it is read and fitted
    assert scale.read_bytes("8MB") > size
    assert main(["fit", str(csv), "--label", "label", "--budget", "8MB", "--out", str(model)]) == 0
    capsys.readouterr()

    def unread(*a, **k):
        raise AssertionError("the file was read")

    monkeypatch.setattr(data, "read_table", unread)
    assert main(["fit", str(csv), "--label", "label", "--budget", "100KB", "--out",
                 str(tmp_path / "n.json")]) == 2
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "is more than a fit within the" in errors[0]
    assert "raise --budget" in errors[0] and "fit_dask" in errors[0]


# --------------------------------------------------------------------------- several classes


def _weather(n: int, seed: int) -> pd.DataFrame:
    """Three classes from a numeric and a categorical column, plus a noise column."""
    rng = np.random.default_rng(seed)
    t = rng.uniform(-10, 35, n).round(1)
    sky = rng.choice(["clear", "cloudy", "rain"], n)
    kind = np.where(t < 5, "cold", np.where(sky == "rain", "wet", "mild"))
    return pd.DataFrame({"temp": t, "sky": sky, "noise": rng.choice(list("pq"), n),
                         "kind": kind})


@pytest.mark.parametrize("name", ["m.json", "m.npz"])
def test_a_label_of_several_classes_fits_predicts_and_explains(tmp_path, capsys, name):
    """Without --positive a 3-class label is one model per class in one file; predict names
    each row's class with every class's bounds, explain names the class it explains."""
    train, new = tmp_path / "train.csv", tmp_path / "new.csv"
    _weather(300, 0).to_csv(train, index=False)
    test = _weather(60, 1)
    test.drop(columns="kind").to_csv(new, index=False)
    code, out, err = run(["fit", train, "--label", "kind", "--out", tmp_path / name,
                          "--no-progress"], capsys)
    assert code == 0 and "3 classes ['cold', 'mild', 'wet']" in out, err
    code, out, _ = run(["predict", tmp_path / name, new, "--out", tmp_path / "p.csv"], capsys)
    assert code == 0 and "60 rows" in out
    pred = pd.read_csv(tmp_path / "p.csv", keep_default_na=False)
    assert (pred["decision"] == test["kind"]).mean() >= 0.9
    assert {"lower:cold", "upper:wet", "runner_up", "tie"} <= set(pred.columns)
    top = pred[[f"upper:{c}" for c in ("cold", "mild", "wet")]].to_numpy()
    mid = (top + pred[[f"lower:{c}" for c in ("cold", "mild", "wet")]].to_numpy()) / 2
    assert (np.array(["cold", "mild", "wet"])[mid.argmax(axis=1)] == pred["decision"]).all()
    assert (pred["runner_up"] != pred["decision"]).all()
    code, _, _ = run(["explain", tmp_path / name, new, "--k", "1", "--out", tmp_path / "e.csv"],
                     capsys)
    ex = pd.read_csv(tmp_path / "e.csv", keep_default_na=False)
    assert code == 0 and (ex["explained_class"] == pred["decision"]).all()
    cold = ex[pred["decision"] == "cold"]  # cold rows are cold by their temperature alone
    assert len(cold) and cold["features"].str.startswith("temp=").all()


def _severity(n: int, seed: int) -> pd.DataFrame:
    """Four levels of a known scale (mild < moderate < severe < critical) cut from one noisy
    sum of a lab value, a score and a category."""
    rng = np.random.default_rng(seed)
    lab, score = rng.normal(0, 1, n).round(2), rng.integers(0, 5, n)
    kind = rng.choice(["x", "y", "z"], n)
    z = lab + 0.6 * score + np.where(kind == "z", 0.8, 0.0) + rng.logistic(0, 0.3, n)
    levels = np.array(["mild", "moderate", "severe", "critical"])[np.digitize(z, [0.6, 1.6, 2.8])]
    return pd.DataFrame({"lab": lab, "score": score, "kind": kind, "severity": levels})


def test_class_order_fits_levels_that_predict_and_explain_answer_as_the_estimator(tmp_path,
                                                                                  capsys):
    """plx fit --class-order auto writes an ordered model file (each step its own cut points,
    read from the file as plx fit reads it); plx predict and plx explain answer every row as
    PLXClassifier(class_order='auto') fitted on the same table does."""
    from plx_core.estimator import PLXClassifier

    train, new = tmp_path / "train.csv", tmp_path / "new.csv"
    table = _severity(300, 0)
    table.to_csv(train, index=False)
    test = _severity(50, 1).drop(columns="severity")
    test.to_csv(new, index=False)
    code, out, err = run(["fit", train, "--label", "severity", "--class-order", "auto", "--out",
                          tmp_path / "m.json", "--no-progress"], capsys)
    assert code == 0 and "4 ordered levels 'mild' < 'moderate' < 'severe' < 'critical'" in out, err
    assert "the step above 'mild' cuts its numeric columns" in err
    code, out, _ = run(["predict", tmp_path / "m.json", new, "--out", tmp_path / "p.csv"], capsys)
    assert code == 0 and "50 rows" in out
    pred = pd.read_csv(tmp_path / "p.csv", keep_default_na=False)
    clf = PLXClassifier(class_order="auto").fit(table.drop(columns="severity"), table.severity)
    assert pred["decision"].tolist() == clf.predict(test).tolist()
    b = clf.bounds(test)
    for c in ("mild", "critical"):
        np.testing.assert_allclose(pred[f"lower:{c}"], b[(c, "lower")])
        np.testing.assert_allclose(pred[f"upper:{c}"], b[(c, "upper")])
    code, _, _ = run(["explain", tmp_path / "m.json", new, "--out", tmp_path / "e.csv"], capsys)
    ex = pd.read_csv(tmp_path / "e.csv", keep_default_na=False)
    assert code == 0
    assert ex["explained_class"].tolist() == [e.explained_class for e in clf.explain_many(test)]


def test_a_known_scale_is_fitted_as_levels_by_default_said_and_none_turns_it_off(tmp_path, capsys):
    """Without --class-order, classes that are a known scale's words are fitted as levels (the
    estimator's default, class_order='scale'), said on stderr with how to turn it off; the file
    answers as --class-order auto's. --class-order none and --positive fit one against the rest."""
    train, new = tmp_path / "train.csv", tmp_path / "new.csv"
    _severity(240, 3).to_csv(train, index=False)
    _severity(30, 4).drop(columns="severity").to_csv(new, index=False)
    answers = {}
    for name, extra in (("default", []), ("auto", ["--class-order", "auto"])):
        code, out, err = run(["fit", train, "--label", "severity", *extra, "--out",
                              tmp_path / f"{name}.json", "--no-progress"], capsys)
        assert code == 0 and "4 ordered levels 'mild' < 'moderate' < 'severe' < 'critical'" in out, err
        assert ("read as ordered levels ('mild' < 'moderate' < 'severe' < 'critical'), the words "
                "of a known scale" in err) == (name == "default")
        assert "--class-order none: each class against the rest" in err or name == "auto"
        code, _, _ = run(["predict", tmp_path / f"{name}.json", new, "--out", tmp_path / "p.csv"], capsys)
        answers[name] = pd.read_csv(tmp_path / "p.csv", keep_default_na=False)
    pd.testing.assert_frame_equal(answers["default"], answers["auto"])
    code, out, err = run(["fit", train, "--label", "severity", "--class-order", "none", "--out",
                          tmp_path / "flat.json", "--no-progress"], capsys)
    assert code == 0 and "4 classes" in out and "ordered levels" not in out
    assert "the words of a known scale" not in err  # the default's note; the hint may follow
    code, out, err = run(["fit", train, "--label", "severity", "--positive", "severe", "--out",
                          tmp_path / "pos.json", "--no-progress"], capsys)
    assert code == 0 and "POS = 'severe'" in out and "read as ordered" not in err + out


@pytest.mark.parametrize("order, words", [
    ("mild,moderate,severe", "--class-order leaves out the class 'critical' of the label 'severity'"),
    ("mild,mild,moderate,severe,critical", "--class-order names 'mild' more than once"),
    ("mild,moderate,severe,critical,fatal", "--class-order names 'fatal', which is no class of the label"),
])
def test_class_order_is_refused_in_one_line_as_the_estimator_words_it(tmp_path, capsys, order,
                                                                     words):
    train = tmp_path / "train.csv"
    _severity(60, 2).to_csv(train, index=False)
    code, _, err = run(["fit", train, "--label", "severity", "--class-order", order, "--out",
                        tmp_path / "m.json"], capsys)
    assert code == 2 and not (tmp_path / "m.json").exists()
    assert_one_line_error(err, words)


def test_several_classes_refuse_a_threshold_in_one_line(tmp_path, capsys):
    train = tmp_path / "train.csv"
    _weather(120, 2).to_csv(train, index=False)
    code, _, err = run(["fit", train, "--label", "kind", "--threshold", "0.3", "--out",
                        tmp_path / "m.json"], capsys)
    assert code == 2 and not (tmp_path / "m.json").exists()
    assert_one_line_error(err, "--threshold is for a yes/no model", "3 classes", "--positive")
    code, out, _ = run(["fit", train, "--label", "kind", "--positive", "wet", "--threshold",
                        "0.3", "--out", tmp_path / "m.json", "--no-progress"], capsys)
    assert code == 0 and "POS = 'wet'" in out


def test_predict_says_rows_the_model_knows_nothing_about_are_decided_by_the_threshold(tmp_path,
                                                                                      capsys):
    """A row whose every cell is empty (or unseen) gets [0, 1], and a threshold below 0.5
    calls it positive on no evidence: said in one line with how many and the first row (was:
    a positive decision and nothing on stderr)."""
    rng = np.random.default_rng(3)
    n = 160
    frame = pd.DataFrame({"plan": rng.choice(["basic", "pro"], n), "region": rng.choice(list("NSEW"), n)})
    frame["churn"] = np.where((frame.plan == "basic") ^ (rng.random(n) < 0.2), "yes", "no")
    data, model = tmp_path / "d.csv", tmp_path / "m.json"
    frame.to_csv(data, index=False)
    code, _, err = run(["fit", data, "--label", "churn", "--variant", "paper", "--threshold", "0.3",
                        "--out", model], capsys)
    assert code == 0, err
    new = tmp_path / "new.csv"
    new.write_text("plan,region\npro,N\n,\nbasic,S\nenterprise,\n")
    code, _, err = run(["predict", model, new, "--out", tmp_path / "p.csv"], capsys)
    assert code == 0, err
    pred = pd.read_csv(tmp_path / "p.csv")
    blind = pred[(pred.lower == 0) & (pred.upper == 1)]
    assert list(blind.row) == [2, 4] and set(blind.decision) == {"yes"}
    said = [ln for ln in err.splitlines() if "[0, 1]" in ln]
    assert said == ["note: 2 rows get the bounds [0, 1]: nothing the model knows bears on them "
                    "(their values missing, unseen or unused), so the threshold 0.3 alone decides "
                    "them: 'yes' (e.g. row 2)"], err
    code, _, err = run(["predict", model, data, "--out", tmp_path / "q.csv"], capsys)
    assert code == 0 and "[0, 1]" not in err


def test_predict_names_every_odd_text_of_a_number_column_and_how_to_read_it_as_unknown(
        tmp_path, capsys):
    """A lab value written 'hemolysed' in new rows (never in training): refused in one line
    that lists each such text (was: the first and a count) and says to list them as missing
    markers, which then answers those rows with the value unknown; '<0.1' is a value below
    0.1 (a censored cell, read so even where the training column held none)."""
    rng = np.random.default_rng(8)
    crp = rng.gamma(2.0, 3.0, 200).round(1)
    frame = pd.DataFrame({"crp": crp, "ward": rng.choice(["a", "b"], 200),
                          "sepsis": np.where(crp > 8, "yes", "no")})
    data, model = tmp_path / "d.csv", tmp_path / "m.json"
    frame.to_csv(data, index=False)
    assert run(["fit", data, "--label", "sepsis", "--out", model], capsys)[0] == 0
    new = tmp_path / "new.csv"
    new.write_text("crp,ward\n12.5,a\n<0.1,b\nhemolysed,a\n<0.1,a\n1.5,b\n")
    code, _, err = run(["predict", model, new, "--out", tmp_path / "p.csv"], capsys)
    assert code == 2
    assert_one_line_error(err, "column 'crp', line 4", "(1 such value: 'hemolysed')",
                          "list them among the missing markers (--missing")
    code, _, err = run(["predict", model, new, "--missing", "<0.1,hemolysed", "--out",
                        tmp_path / "p.csv"], capsys)
    assert code == 0, err
    pred = pd.read_csv(tmp_path / "p.csv")
    assert pred.decision.tolist()[::4] == ["yes", "no"] and len(pred) == 5


def test_predict_answers_a_file_without_the_columns_no_clause_names(tmp_path, capsys):
    """A tree that splits on `a` alone answers rows whatever `noise` holds: a file without
    `noise` gets the same answers and one note naming it; a file without `a` is refused."""
    rng = np.random.default_rng(3)
    n = 120
    a = rng.choice(["x", "y", "z"], n)
    table = pd.DataFrame({"a": a, "noise": rng.normal(size=n).round(3),
                          "label": np.where(a == "x", "yes", "no")})
    data, model = tmp_path / "t.csv", tmp_path / "m.json"
    table.to_csv(data, index=False)
    code, _, _ = run(["fit", data, "--label", "label", "--positive", "yes", "--kb", "tree",
                      "--out", model], capsys)
    assert code == 0
    full, short = tmp_path / "full.csv", tmp_path / "short.csv"
    table.drop(columns="label").to_csv(full, index=False)
    table[["a"]].to_csv(short, index=False)
    code, _, _ = run(["predict", model, full, "--out", tmp_path / "p1.csv"], capsys)
    assert code == 0
    code, _, err = run(["predict", model, short, "--out", tmp_path / "p2.csv"], capsys)
    assert code == 0 and "no clause of the model names is not in the file" in err
    assert "['noise']" in err
    p1, p2 = (pd.read_csv(tmp_path / f) for f in ("p1.csv", "p2.csv"))
    assert (p1["decision"] == p2["decision"]).all() and np.allclose(p1["lower"], p2["lower"])
    assert (p1["decision"] == np.where(a == "x", "yes", "no")).all()
    table[["noise"]].to_csv(short, index=False)  # the column the tree splits on is needed
    code, _, err = run(["predict", model, short, "--out", tmp_path / "p3.csv"], capsys)
    assert code == 2
    assert_one_line_error(err, "lack the feature column ['a']")


def test_predict_and_explain_copy_the_id_column_beside_each_answer(tmp_path, capsys):
    # a clinician's export: the patient number is left out of the model (ID-like), and every
    # answer and explanation names its patient, as the file writes it (P0007, not 7)
    rng = np.random.default_rng(13)
    n = 120
    crp = rng.normal(10, 4, n).round(1)
    train = pd.DataFrame({"decision": [f"P{i:04d}" for i in range(n)], "crp": crp,
                          "ward": rng.choice(["A", "B"], n),
                          "outcome": np.where(crp + rng.normal(0, 2, n) > 11, "yes", "no")})
    data, model = tmp_path / "k.csv", tmp_path / "k.json"
    pd.concat([train, train.iloc[[4, 9]]]).to_csv(data, sep=";", index=False)  # exported twice
    code, _, err = run(["fit", data, "--label", "outcome", "--out", model], capsys)
    assert code == 0 and ("2 rows repeat an earlier row in every column, 'decision' included "
                          "(line 122 = line 6, line 123 = line 11)") in err
    new = train.iloc[[7, 3, 50]].drop(columns="outcome")
    new.to_csv(tmp_path / "new.csv", sep=";", index=False)
    out = tmp_path / "p.csv"
    assert run(["predict", model, tmp_path / "new.csv", "--out", out], capsys)[0] == 0
    pred = pd.read_csv(out, dtype=str)
    # the ID column is named 'decision' too: plx's own column keeps its name
    assert list(pred.columns[:3]) == ["row", "decision (input)", "lower"]
    assert pred["decision (input)"].tolist() == ["P0007", "P0003", "P0050"]
    assert set(pred["decision"]) <= {"yes", "no"}
    out = tmp_path / "e.csv"
    assert run(["explain", model, tmp_path / "new.csv", "--k", "1", "--out", out], capsys)[0] == 0
    e = pd.read_csv(out, dtype=str)
    assert e["decision (input)"].tolist() == ["P0007", "P0003", "P0050"]
    assert e["features"].str.startswith(("crp=", "ward=")).all()
    # a file without the ID column is answered as before
    new.drop(columns="decision").to_csv(tmp_path / "bare.csv", sep=";", index=False)
    assert run(["predict", model, tmp_path / "bare.csv", "--out", tmp_path / "b.csv"], capsys)[0] == 0
    assert "decision (input)" not in pd.read_csv(tmp_path / "b.csv").columns


def test_explain_says_when_no_k_values_decide_as_the_dashboard_does(tmp_path):
    """A rule vote whose term needs three values (tests/test_explain.py's RULE_VOTE): asked for
    k = 2, `plx explain` must not present a pair at [0, 0] as the case for "yes" — its
    `decides` column is False and its note says why, in the words the dashboard's Explain page
    shows (`wording.undecided_said`), with the same features and bounds; at k = 3 the term."""
    import re

    from plx_app.service.explain import explain as page_explain
    from plx_core.data import infer_schema
    from plx_core.kb import KB
    from plx_core.modelfile import ModelFile, save_model
    from plx_core.wording import explanation_sentence, undecided_said
    from tests.test_explain import RULE_VOTE

    text = re.sub(r"(~\w)=0", r"\1=p", re.sub(r"(~\w)=1", r"\1=q", RULE_VOTE))
    kb = KB.from_text("# plx KB kind=rule-vote\n" + "".join(f"# domain {f}: p q\n" for f in "abcd")
                      + text)
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({f: rng.choice(["p", "q"], 40) for f in "abcd"}
                         | {"label": rng.choice(["yes", "no"], 40)})
    schema = infer_schema(frame, "label", "yes")
    model = tmp_path / "m.json"
    save_model(ModelFile(schema, kb, "yes", "no", None,
                         {"kb_kind": "rule-vote", "variant": "rule-vote", "semantics": "relevant",
                          "threshold": 0.5}), model)
    rows = tmp_path / "rows.csv"
    pd.DataFrame([{"a": "q", "b": "q", "c": "q", "d": "q"}]).to_csv(rows, index=False)
    row = {"a": "q", "b": "q", "c": "q", "d": "q"}
    for k, decided in ((2, False), (3, True)):
        out = tmp_path / f"e{k}.csv"
        assert main(["explain", str(model), str(rows), "--k", str(k), "--out", str(out)]) == 0
        got = pd.read_csv(out, keep_default_na=False).iloc[0]
        page = page_explain(kb, row, k, "relevant", direction="positive", threshold=0.5)
        assert got["decision"] == "yes" and bool(got["decides"]) is decided is page.decides
        assert got["features"] == " AND ".join(f"{f}={v}" for f, v in page.features.items())
        assert (got["sub_lower"], got["sub_upper"]) == pytest.approx(tuple(page.bounds))
        said = undecided_said(k, "yes", page.best.by_prior, page.answer_by_prior,
                               page.base_rate)  # the base rate with its number, as the page
        assert (got["note"] == said) is (not decided)
        assert (said[1:] in explanation_sentence(page, "yes")) is (not decided)


def test_a_missing_positive_class_is_refused_before_the_columns_are_read(tmp_path):
    # two classes plx assumes neither of (Ja / Nein): one line before the columns' types are
    # read, which takes most of the time before a fit on a long table
    from plx_core.cli import CLIError, fit_model

    data = tmp_path / "k.csv"
    data.write_text("x;Ergebnis\n" + "".join(f"{i % 7};{'Ja' if i % 3 else 'Nein'}\n"
                                             for i in range(30)))
    told: list[str] = []
    with pytest.raises(CLIError, match=r"the label 'Ergebnis' has 2 classes \['Ja', 'Nein'\]; "
                                       "pass --positive"):
        fit_model(data, "Ergebnis", say=lambda s: None, progress=lambda f, t: told.append(t))
    assert told == ["reading k.csv"]


def test_columns_read_the_same_way_are_said_in_one_line(tmp_path, capsys):
    # a clinic's 12 lab values with decimal commas were 12 identical notes; one line names them
    rng = np.random.default_rng(12)
    labs = {f"labor_{j}": rng.normal(5, 1, 80) for j in range(8)}
    frame = pd.DataFrame({k: [f"{v:.2f}".replace(".", ",") for v in x] for k, x in labs.items()})
    frame["dose"] = [f"{v:.1f}".replace(".", ",") for v in rng.normal(2, 1, 80)]
    frame.loc[3, "dose"] = "unbekannt"  # read as missing: its own line, with its count
    frame["ziel"] = np.where(labs["labor_0"] > 5, "ja", "nein")
    data = tmp_path / "k.csv"
    frame.to_csv(data, sep=";", index=False)
    code, _, err = run(["fit", data, "--label", "ziel", "--positive", "ja", "--out",
                        tmp_path / "m.json"], capsys)
    assert code == 0, err
    said = [ln for ln in err.splitlines() if "decimal comma" in ln]
    assert len(said) == 2, said
    assert said[0].startswith("note: columns 'labor_0', 'labor_1', 'labor_2', 'labor_3', "
                              "'labor_4', 'labor_5' and 2 more: read as numbers with a decimal comma")
    assert said[1].startswith("note: column 'dose': ") and "'unbekannt'" in said[1]


def test_numbers_written_with_a_unit_are_binned_and_the_unit_said(tmp_path, capsys):
    """A lab export writes '88,4 µmol/L' and '37,2 °C' (';' file, decimal comma): each column
    is one unit, read as numbers and binned, the unit said; a column mixing 'mg' and 'g' is
    not guessed, and says why. A new file writing another unit is one line naming the row."""
    rng = np.random.default_rng(41)
    n = 240
    creat = rng.lognormal(4.4, 0.35, n)
    aki = creat + rng.normal(0, 15, n) > 100
    dose = np.where(rng.random(n) < 0.8, [f"{v} mg" for v in rng.integers(100, 900, n)],
                    [f"{v} g" for v in rng.integers(1, 3, n)])
    frame = pd.DataFrame({"creatinine": [f"{v:.1f} µmol/L".replace(".", ",") for v in creat],
                          "temp": [f"{v:.1f}°C".replace(".", ",") for v in rng.normal(37, .5, n)],
                          "dose": dose, "aki": np.where(aki, "yes", "no")})
    data = tmp_path / "lab.csv"
    data.write_text(frame.to_csv(index=False, sep=";"), encoding="utf-8")
    model = tmp_path / "m.json"
    assert main(["fit", str(data), "--label", "aki", "--out", str(model), "--no-progress"]) == 0
    said = capsys.readouterr()
    said = said.out + said.err
    assert "column 'creatinine': read as numbers in µmol/L with a decimal comma" in said
    assert "column 'temp': read as numbers in °C with a decimal comma" in said
    assert "'dose'" in said and "numbers in more than one unit (2: 'mg' ×" in said
    schema = json.loads(model.read_text())["schema"]
    assert schema["kinds"]["creatinine"] == "numeric" and schema["kinds"]["temp"] == "numeric"
    assert "dose" not in schema["bins"]
    out = tmp_path / "p.csv"
    assert main(["predict", str(model), str(data), "--out", str(out)]) == 0
    pred = pd.read_csv(out)
    assert ((pred["decision"] == "yes") == aki).mean() > 0.8  # the lab value decides
    capsys.readouterr()
    new = frame.head(5).copy()
    new.loc[3, "creatinine"] = "1,1 mg/dL"
    (tmp_path / "new.csv").write_text(new.to_csv(index=False, sep=";"), encoding="utf-8")
    assert main(["predict", str(model), str(tmp_path / "new.csv"), "--out", str(out)]) == 2
    assert_one_line_error(capsys.readouterr().err, "column 'creatinine', line 5 (data row 4): value '1,1 mg/dL'",
                          "written as numbers in µmol/L with a decimal comma")


def test_a_file_lacking_a_feature_is_told_how_to_answer_without_it(tmp_path, capsys):
    """`plx predict` on a file without a feature column: one line naming it and saying that an
    empty column answers the rows with it unknown — which then works."""
    model = tmp_path / "m.json"
    assert main(["fit", str(EXAMPLE), "--label", "label", "--out", str(model)]) == 0
    new = tmp_path / "new.csv"
    new.write_text("a1,a2,a3\n0,1,0\n1,1,1\n", encoding="utf-8")
    out = tmp_path / "p.csv"
    capsys.readouterr()
    assert main(["predict", str(model), str(new), "--out", str(out)]) == 2
    assert_one_line_error(capsys.readouterr().err, "lack the feature column ['a4']; to answer "
                          "without them", "add them as empty columns")
    new.write_text("a1,a2,a3,a4\n0,1,0,\n1,1,1,\n", encoding="utf-8")
    assert main(["predict", str(model), str(new), "--out", str(out)]) == 0
    assert len(pd.read_csv(out)) == 2


def test_limits_in_arguments_are_checked_before_the_work(model, queries, tmp_path, capsys):
    """fuzz17: `--budget 99999999999999999999` made the reader allocate its cap (MemoryError,
    exit 1); `--workers 10**20` started a cluster of that many processes; a missing file with
    --workers started a cluster before it was found missing."""
    code, _, err = run(["fit", EXAMPLE, "--label", "label", "--out", tmp_path / "m.json",
                        "--budget", "99999999999999999999", "--no-progress"], capsys)
    assert code == 0 and "error" not in err
    code, _, err = run(["predict", model, queries, "--out", tmp_path / "o.csv",
                        "--workers", "99999999999999999999"], capsys)
    assert code == 2
    assert_one_line_error(err, "--workers must be between 1 and")
    code, _, err = run(["predict", model, tmp_path / "nope.csv", "--out", tmp_path / "o.csv",
                        "--workers", "2"], capsys)
    assert code == 2
    assert_one_line_error(err, "no file or folder matches", "nope.csv")


def test_predict_on_a_dask_address_where_nothing_listens_is_one_line(model, queries, tmp_path, capsys):
    """`--dask` at a closed port waited out Dask's 30 s connect timeout, then printed Dask's
    OSError (exit 1); a malformed address gave Dask's ValueError."""
    pytest.importorskip("distributed")
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens on it
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for address, needles in [(f"tcp://127.0.0.1:{port}", (f"tcp://127.0.0.1:{port}", "refused")),
                             (f"127.0.0.1:{port}", (f"tcp://127.0.0.1:{port}", "no Dask scheduler")),
                             ("scheduler-host", ("'scheduler-host'", "tcp://HOST:PORT")),
                             ("http://127.0.0.1:8786", ("'http://127.0.0.1:8786'", "scheme"))]:
        code, _, err = run(["predict", model, queries, "--out", tmp_path / "o.csv",
                            "--dask", address], capsys)
        assert code == 2, address
        assert_one_line_error(err, *needles)
    assert not (tmp_path / "o.csv").exists()


def test_shares_written_as_fractions_among_percentages_are_said_at_fit_and_predict(tmp_path,
                                                                                  capsys):
    """A utilisation column of '82%' and, in a quarter of its cells, '0.35' (a share typed as
    a fraction): read as percentages, the bare cells are 0.35 %, not 35 % — two scales no
    reading can tell apart. plx fit and plx predict now say how many, with one, and that
    they all lie in [0, 1]; before, only 'read as percentages' was said."""
    rng = np.random.default_rng(44)
    n = 200
    use = rng.uniform(0, 1, n)
    cells = [f"{v:.2f}" if i % 4 == 0 else f"{v * 100:.0f}%" for i, v in enumerate(use)]
    df = pd.DataFrame({"utilisation": cells, "beds": rng.integers(5, 40, n),
                       "overflow": np.where(use > 0.7, "yes", "no")})
    df.to_csv(tmp_path / "wards.csv", index=False)
    assert main(["fit", str(tmp_path / "wards.csv"), "--label", "overflow", "--positive", "yes",
                 "--variant", "paper", "--out", str(tmp_path / "m.json"), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert f"column 'utilisation': 50 cells written without '%' ({cells[0]!r}) read as that " \
           f"many percent ({cells[0]} %)" in err and "all between 0 and 1" in err, err
    df.drop(columns="overflow").to_csv(tmp_path / "new.csv", index=False)
    assert main(["predict", str(tmp_path / "m.json"), str(tmp_path / "new.csv"), "--out",
                 str(tmp_path / "p.csv")]) == 0
    assert "50 cells written without '%'" in capsys.readouterr().err


def test_several_rows_a_case_are_said_when_the_label_is_the_cases(tmp_path, capsys):
    """A long-format export (one row a visit, 1–4 visits a patient, the outcome the patient's):
    plx fit left the patient number out and said only 'too many distinct values', though each
    visit is answered and scored as its own case and the out-of-fold scores flatter; now it
    says so, naming the column. A label that changes between a patient's visits is not so
    read."""
    rng = np.random.default_rng(45)
    rows = []
    for pid in range(90):
        sick = rng.random() < 0.4
        for _v in range(int(rng.integers(1, 5))):
            rows.append({"mrn": f"MRN-{pid:05d}", "crp": round(float(rng.normal(60 if sick else 8, 9)), 1),
                         "flag": "sepsis" if sick else "ok"})
    df = pd.DataFrame(rows)
    df.to_csv(tmp_path / "long.csv", index=False)
    assert main(["fit", str(tmp_path / "long.csv"), "--label", "flag", "--positive", "sepsis",
                 "--variant", "paper", "--out", str(tmp_path / "m.json"), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "column 'mrn': its 90 values stand on" in err and "several rows a case" in err, err
    df["flag"] = rng.permutation(df["flag"].to_numpy())  # a visit's own label: not said
    df.to_csv(tmp_path / "visits.csv", index=False)
    assert main(["fit", str(tmp_path / "visits.csv"), "--label", "flag", "--positive", "sepsis",
                 "--variant", "paper", "--out", str(tmp_path / "m2.json"), "--no-progress"]) == 0
    assert "several rows a case" not in capsys.readouterr().err


@pytest.mark.parametrize("written", ["int", "float", "padded"])
def test_a_numbered_case_column_is_said_and_taken_by_case_column(tmp_path, capsys, written):
    """A patient number written as a number (1001, "1001.0", "0001001") was binned as a
    number, unseen by the several-rows-a-case note; now it is said, and --case-column takes
    it: no feature, the search's folds keep a patient's visits together, the model file keeps
    nothing of the numbers; a name that is no column is one line, exit 2."""
    rng = np.random.default_rng(46)
    visits = rng.integers(3, 7, 50)
    ids = np.repeat(np.arange(1001, 1051), visits)
    sick = np.repeat(rng.random(50) < 0.4, visits)
    admitted = pd.Timestamp("2024-01-01") + pd.to_timedelta(np.repeat(rng.permutation(50), visits),
                                                             unit="D")  # a run of days: no ID
    df = pd.DataFrame({"admitted": admitted.strftime("%Y-%m-%d"),
                       "patient": {"int": ids, "float": ids.astype(float),
                                   "padded": [f"{v:07d}" for v in ids]}[written],
                       "crp": np.round(rng.normal(np.where(sick, 50, 10), 12), 1),
                       "ward": np.repeat(rng.choice(list("ABCDEF"), 50), visits),
                       "flag": np.where(sick, "sepsis", "ok")})
    df.to_csv(tmp_path / "long.csv", index=False)
    args = ["fit", str(tmp_path / "long.csv"), "--label", "flag", "--positive", "sepsis",
            "--no-progress"]
    assert main([*args, "--out", str(tmp_path / "m.json")]) == 0
    err = capsys.readouterr().err
    assert "column 'patient': its 50 values stand on" in err and "several rows a case" in err, err
    assert main([*args, "--case-column", "patient", "--out", str(tmp_path / "g.json")]) == 0
    err = capsys.readouterr().err
    assert "column 'patient' names the rows' cases (50 cases for" in err
    assert "several rows a case" not in err
    from plx_core.modelfile import load_model

    model = load_model(tmp_path / "g.json")
    assert "patient" not in model.schema.features
    text = (tmp_path / "g.json").read_text()
    assert "patient" not in text and not re.search(r"(?<![\d.])10[0-5]\d(?![\d.])", text)
    assert main([*args, "--case-column", "patent", "--out", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("error: --case-column 'patent': no such column (the file's columns: "
                   "'admitted', 'patient', 'crp', 'ward', 'flag')")
    assert not (tmp_path / "x.json").exists()


def test_a_utf8_mark_before_windows_1252_text_is_no_part_of_the_header(tmp_path, capsys):
    """users21: a ';' file a Windows tool wrote with a UTF-8 byte order mark and then its text
    in Windows-1252 ('âge', 'Orléans'). Refused as not UTF-8, the hint read the mark too
    ("reads 'ï»¿âge'"); named --encoding cp1252, the mark became part of the first column's
    name ('ï»¿âge'), and the model and its rules named a column no later file has. The mark
    is left out and said; the accents read as written."""
    rng = np.random.default_rng(21)
    age = rng.integers(20, 80, 160)
    town = rng.choice(["Orléans", "Besançon", "Lyon"], 160)
    sick = np.where((age > 50) & (town != "Lyon"), "malade", "sain")
    body = pd.DataFrame({"âge": age, "ville": town, "état": sick}).to_csv(sep=";", index=False)
    data = tmp_path / "export.csv"
    data.write_bytes(b"\xef\xbb\xbf" + body.encode("cp1252"))
    model = tmp_path / "m.json"
    code, _, err = run(["fit", data, "--label", "état", "--positive", "malade", "--out", model],
                       capsys)
    assert code == 2 and not model.exists()
    assert_one_line_error(err, "is not valid utf-8", "reads 'âge' as Windows-1252", "cp1252")
    argv = ["fit", data, "--label", "état", "--positive", "malade", "--out", model,
            "--encoding", "cp1252"]
    code, _, err = run(argv, capsys)
    assert code == 0, err
    said = [ln for ln in err.splitlines() if "byte order mark" in ln]
    assert len(said) == 1 and "left out: its text is read as cp1252" in said[0], err
    schema = json.loads(model.read_text(encoding="utf-8"))["schema"]
    assert schema["features"] == ["âge", "ville"]
    assert schema["categories"]["ville"] == ["Besançon", "Lyon", "Orléans"]
    out = tmp_path / "p.csv"
    code, _, err = run(["predict", model, data, "--encoding", "cp1252", "--out", out], capsys)
    assert code == 0, err
    assert (pd.read_csv(out)["decision"] == sick).mean() > 0.9


def test_fit_says_how_a_few_whole_numbers_are_read(tmp_path, capsys):
    """A 1–5 grade whose risk rises with it is cut into ordered bins by the fit's race of the
    two readings, a 0–9 visit count of no effect stays one level a value: `plx fit` says each
    once a column, with why (and how to have the count cut into ordered bins); a 0/1 flag (no
    order to lose) and an 11-value score (cut into bins) are not named; the model file answers
    a grade as text. The grade has gaps, so pandas writes it as a float column ('4.0', lead26:
    such a column was one level a value in `plx fit` but raced in the estimator, and 22 of 400
    rows were answered otherwise than by `PLXClassifier` on the same table)."""
    rng = np.random.default_rng(2)
    n = 500
    grade, visits = rng.integers(1, 6, n), rng.integers(0, 10, n)
    flag, score = rng.integers(0, 2, n), rng.integers(0, 11, n)
    y = np.where(rng.random(n) < np.where(grade >= 4, 0.75, 0.2) + 0.1 * flag, "yes", "no")
    data = tmp_path / "visits.csv"
    pd.DataFrame({"grade": np.where(rng.random(n) < 0.05, np.nan, grade), "visits": visits,
                  "flag": flag, "score": score, "risk": y}).to_csv(data, index=False)
    assert "4.0" in data.read_text()
    code, _, err = run(["fit", data, "--label", "risk", "--positive", "yes", "--out",
                        tmp_path / "m.json", "--no-progress"], capsys)
    assert code == 0, err
    said = [ln for ln in err.splitlines() if "whole numbers (" in ln]
    assert len(said) == 2, said
    assert "column 'grade' is read as ordered numbers: its 5 whole numbers (1 to 5) are cut " \
        "into ordered bins" in said[0] and "steps with the value out of fold" in said[0]
    assert "column 'visits' is used as categories: its 10 whole numbers (0 to 9)" in said[1]
    assert "not ≥ 3" in said[1] and "did not step with the value" in said[1]
    assert "dashboard's numeric columns" in said[1]
    assert "column 'grade' read as ordered numbers cut into bins, which answers" in err
    rows = tmp_path / "new.csv"
    pd.DataFrame({"grade": [5.0, 1.0], "visits": [3, 3], "flag": [0, 0], "score": [4, 4]}).to_csv(
        rows, index=False)  # '5.0', '1.0': read as the numbers the model cut
    code, _, err = run(["predict", tmp_path / "m.json", rows, "--out", tmp_path / "p.csv"],
                       capsys)
    assert code == 0, err
    assert pd.read_csv(tmp_path / "p.csv")["decision"].tolist() == ["yes", "no"]


def test_broken_model_files_are_refused_in_one_line_naming_the_field(tmp_path, capsys,
                                                                     monkeypatch):
    """users21: model files as a user hits them — cut short (a copy that stopped), written by
    a newer plx, a schema naming a column twice (json kept the last 'power' silently), and a
    500 MB JSON file (read whole, then parsed at ~14× its size, before any check): each exit 2
    in one line naming the field or the size, the large one before a byte is read."""
    import plx_core.modelfile as MF

    rng = np.random.default_rng(4)
    w = rng.uniform(1, 100, 200)
    data = tmp_path / "fit.csv"
    pd.DataFrame({"power": [f"{v:.1f} mW" for v in w], "c": rng.choice(["a", "b"], 200),
                  "y": np.where(w > 50, "yes", "no")}).to_csv(data, index=False)
    new = tmp_path / "new.csv"
    new.write_text("power,c\n70 mW,a\n20 mW,b\n")
    good = {}
    for ext in ("json", "npz"):
        good[ext] = tmp_path / f"m.{ext}"
        code, _, err = run(["fit", data, "--label", "y", "--positive", "yes",
                            "--out", good[ext]], capsys)
        assert code == 0, err

    def refused(raw: bytes, *needles: str, name: str = "bad.json") -> None:
        bad = tmp_path / name
        bad.write_bytes(raw)
        code, _, err = run(["predict", bad, new, "--out", tmp_path / "p.csv"], capsys)
        assert code == 2 and not (tmp_path / "p.csv").exists(), err
        assert_one_line_error(err, *needles)

    text = good["json"].read_text(encoding="utf-8")
    refused(text[: len(text) // 2].encode(), "bad.json' is not valid JSON (invalid JSON: it ends before",
            "cut short?")
    raw = good["npz"].read_bytes()
    refused(raw[: len(raw) // 2], "bad.npz': not a readable npz archive", name="bad.npz")
    doc = json.loads(text)
    refused(json.dumps({**doc, "version": 7}).encode(), "has model version 7",
            "(field 'version')", "a newer plx wrote it: upgrade plx")
    bins = json.dumps(doc["schema"]["bins"]["power"], ensure_ascii=False)
    twice = text.replace(f'"power": {bins}', f'"power": {bins}, "power": {bins}', 1)
    assert twice != text
    refused(twice.encode(), "field 'schema.bins' names 'power' twice")
    cats = doc["schema"]["categories"]
    twice = text.replace('"categories": {', '"categories": {"c": ' + json.dumps(cats["c"], ensure_ascii=False) + ", ", 1)
    refused(twice.encode(), "field 'schema.categories' names 'c' twice")
    big = tmp_path / "big.json"
    with big.open("wb") as fh:  # 500 MB (sparse: no disk used), a model's text first
        fh.write(text.encode())
        fh.truncate(500 * 2**20)
    monkeypatch.setattr(type(big), "read_bytes", lambda self: pytest.fail("read whole"))
    code, _, err = run(["predict", big, new, "--out", tmp_path / "p.csv"], capsys)
    assert code == 2
    assert_one_line_error(err, "big.json' is 524,288,000 bytes and no npz model",
                          "plx reads as a JSON model", "save the model as npz")
    monkeypatch.undo()
    # the JSON cap is JSON's: an npz as large is read, and plx fit does not write a JSON
    # model it would refuse to read back
    monkeypatch.setattr(MF, "MAX_JSON_MODEL_BYTES", 1000)
    code, _, err = run(["predict", good["npz"], new, "--out", tmp_path / "p.csv"], capsys)
    assert code == 0 and good["npz"].stat().st_size > 1000, err
    code, _, err = run(["fit", data, "--label", "y", "--positive", "yes",
                        "--out", tmp_path / "again.json"], capsys)
    assert code == 2 and not (tmp_path / "again.json").exists()
    assert_one_line_error(err, "bytes as JSON, more than the 1,000 plx reads back as JSON",
                          "write it as npz")


def test_fit_says_a_column_missing_exactly_on_the_positive_rows(tmp_path, capsys):
    """A value filled in only after a negative outcome (unseen22's leak_missing): `plx fit` says
    the column's missingness gives the label away, with its counts, once, and still fits."""
    rng = np.random.default_rng(6)
    y = rng.choice(["no", "yes"], 200)
    f = tmp_path / "t.csv"
    pd.DataFrame({"a": rng.normal(size=200).round(3),
                  "lab_b": np.where(y == "yes", np.nan, rng.normal(5, 1, 200).round(2)),
                  "y": y}).to_csv(f, index=False)
    code, _, err = run(["fit", f, "--label", "y", "--positive", "yes",
                        "--out", tmp_path / "m.json"], capsys)
    n_yes = int((y == "yes").sum())
    said = [ln for ln in err.splitlines() if "gives the label away" in ln]
    assert code == 0 and len(said) == 1, err
    assert said[0].startswith(f"note: column 'lab_b': it is missing on {n_yes} of the {n_yes} "
                              "rows of class 'yes' and on 0 of the")


def test_fit_says_a_missing_code_and_reads_it_missing_when_asked(tmp_path, capsys):
    """unseen23's sentinel: creatinine -999 for "not measured", exported by pandas as '-999.0'.
    `plx fit` says the code once (binned as the lowest value); `--missing -999`, as the note
    says, reads those cells missing and counts them by the file's text, where it matched
    nothing before."""
    rng = np.random.default_rng(8)
    crea = np.exp(rng.normal(0, 0.35, 300)).round(2)
    f = tmp_path / "t.csv"
    pd.DataFrame({"creatinine": np.where(np.arange(300) % 10 == 0, -999.0, crea),
                  "y": np.where(crea > 1.2, "yes", "no")}).to_csv(f, index=False)
    code, _, err = run(["fit", f, "--label", "y", "--positive", "yes",
                        "--out", tmp_path / "m.json"], capsys)
    said = [ln for ln in err.splitlines() if "a code for a missing value" in ln]
    assert code == 0 and len(said) == 1, err
    assert said[0].startswith("note: column 'creatinine' holds -999 in 30 rows, far below")
    code, _, err = run(["fit", f, "--label", "y", "--positive", "yes", "--missing", "-999",
                        "--out", tmp_path / "m2.json"], capsys)
    assert code == 0 and "'creatinine' 30 ('-999.0' ×30)" in err, err
    assert "a code for a missing value" not in err


def test_predict_and_explain_read_new_rows_with_the_fits_missing_markers(tmp_path, capsys):
    """A model fitted with `--missing -999` read -999 in new rows as a number (the lowest bin,
    another answer), unsaid, unless --missing was given again: the markers are kept in the
    model file, `plx predict` / `explain` read with them, and a --missing given wins."""
    rng = np.random.default_rng(9)
    crea = np.exp(rng.normal(0, 0.35, 300)).round(2)
    y = np.where(crea > 1.1, "yes", "no")
    f = tmp_path / "t.csv"
    pd.DataFrame({"creatinine": np.where(np.arange(300) % 5 == 0, -999.0, crea),
                  "y": y}).to_csv(f, index=False)
    code, _, _ = run(["fit", f, "--label", "y", "--positive", "yes", "--missing", "-999",
                      "--out", tmp_path / "m.json"], capsys)
    assert code == 0 and json.loads((tmp_path / "m.json").read_text())["schema"]["missing"] == ["", "-999"]
    code, _, err = run(["predict", tmp_path / "m.json", f, "--out", tmp_path / "p.csv"], capsys)
    assert code == 0 and "'creatinine' 60 ('-999.0' ×60)" in err, err
    kept = pd.read_csv(tmp_path / "p.csv")
    code, _, _ = run(["predict", tmp_path / "m.json", f, "--missing", "-999",
                      "--out", tmp_path / "q.csv"], capsys)
    assert code == 0 and kept.equals(pd.read_csv(tmp_path / "q.csv"))
    coded = kept["unseen"].isna() & (np.arange(300) % 5 == 0)  # the -999 rows: creatinine unknown
    assert kept.loc[np.arange(300) % 5 == 0, "mean"].nunique() == 1 and coded.sum() == 60
    code, _, err = run(["predict", tmp_path / "m.json", f, "--missing", "",
                        "--out", tmp_path / "r.csv"], capsys)  # told otherwise: -999 a number
    assert code == 0 and "('-999.0' ×60)" not in err  # not read as missing, but far (review27):
    assert "60 cells far outside the training rows'" in err and "'-999.0' on line 2" in err
    code, _, err = run(["explain", tmp_path / "m.json", f, "--out", tmp_path / "e.csv"], capsys)
    assert code == 0 and "'creatinine' 60 ('-999.0' ×60)" in err, err


def test_fit_refuses_a_label_written_in_two_languages(tmp_path, capsys):
    """'ja' / 'nein' beside 'oui' / 'non' in one label: exit 2 naming the pairs, not a fit
    where --positive ja makes every 'oui' a negative."""
    rng = np.random.default_rng(7)
    f = tmp_path / "t.csv"
    pd.DataFrame({"a": rng.choice(list("uv"), 60),
                  "y": rng.choice(["ja", "nein", "oui", "non"], 60)}).to_csv(f, index=False)
    code, _, err = run(["fit", f, "--label", "y", "--positive", "ja", "--out", tmp_path / "m.json"],
                       capsys)
    assert code == 2 and "Traceback" not in err
    assert "['ja', 'oui']; ['nein', 'non']" in err and "more than one language" in err


def test_fit_says_where_the_model_cuts_its_numeric_columns(tmp_path, capsys):
    # the dashboard's Data and KB pages list the cut points the answering model uses; plx fit
    # said none: it says them in the same words (wording.cuts_said), counted bins included
    from plx_core.data import fmt_number
    from plx_core.modelfile import load_model

    rng = np.random.default_rng(5)
    age = rng.integers(20, 90, 300)
    data = tmp_path / "a.csv"
    pd.DataFrame({"age": age, "town": rng.choice(["a", "b"], 300),
                  "y": np.where(age + rng.normal(0, 10, 300) > 60, "yes", "no")}).to_csv(
        data, index=False)
    code, _, err = run(["fit", data, "--label", "y", "--positive", "yes", "--out",
                        tmp_path / "m.json", "--no-progress"], capsys)
    (line,) = [ln for ln in err.splitlines() if "the model cuts its numeric columns" in ln]
    cuts = load_model(tmp_path / "m.json").schema.bins["age"].cuts
    written = ", ".join(map(fmt_number, cuts))
    bins = "1 bin" if not cuts else f"{len(cuts) + 1} bins"
    assert code == 0 and f"'age': cut at {written} into {bins}" in line, line


def _long_files(tmp_path):
    """A seeded training file and a file to predict holding what predict says something of:
    an ID column, censored cells, unseen and missing values, a column the model ignores and
    the header repeated halfway (two exports joined)."""
    rng = np.random.default_rng(5)
    n = 120
    age = rng.integers(20, 80, n)
    town = rng.choice(["Orléans", "Nîmes", "Lyon"], n)
    crp = rng.normal(30, 10, n).round(1).astype(str).astype(object)
    crp[::17] = "<5"
    y = np.where((age > 50) & (town != "Lyon"), "yes", "no")
    fit = pd.DataFrame({"pid": np.arange(1000, 1000 + n), "age": age, "town": town, "crp": crp,
                        "outcome": y})
    fit.to_csv(tmp_path / "fit.csv", index=False)
    new = fit.drop(columns="outcome").astype(object).assign(extra="x")
    new.loc[5, "town"] = new.loc[44, "town"] = "Paris"
    new.loc[30, ["age", "town", "crp"]] = ["?", "NA", ""]
    new.loc[50, "crp"] = ">90"
    text = new.iloc[:60].to_csv(index=False) + new.iloc[60:].to_csv(index=False)
    (tmp_path / "new.csv").write_text(text, encoding="utf-8")
    return tmp_path / "fit.csv", tmp_path / "new.csv"


def test_predict_reads_a_long_file_in_blocks_with_the_same_answers_and_notes(
        tmp_path, capsys, monkeypatch):
    fit, new = _long_files(tmp_path)
    model = tmp_path / "m.json"
    assert main(["fit", str(fit), "--label", "outcome", "--positive", "yes", "--out", str(model),
                 "--no-progress"]) == 0
    capsys.readouterr()
    said = {}
    for rows in (100_000, 7):  # the whole file as one block, then 7 rows a block
        monkeypatch.setattr("plx_core.data.BLOCK_ROWS", rows)
        out = tmp_path / f"p{rows}.csv"
        assert main(["predict", str(model), str(new), "--out", str(out)]) == 0
        said[rows] = capsys.readouterr()
    assert (tmp_path / "p7.csv").read_bytes() == (tmp_path / "p100000.csv").read_bytes()
    assert said[7].err == said[100000].err and said[7].out.replace("p7", "p100000") == \
        said[100000].out
    pred = pd.read_csv(tmp_path / "p7.csv", keep_default_na=False)
    assert pred["row"].tolist() == list(range(1, 121)) and pred["pid"].iloc[-1] == 1119
    assert pred["unseen"][5] == "town='Paris'"
    err = said[7].err
    assert "1 line repeats the header (line 62" in err  # the file's own line numbers
    assert "'<5' ×8, '>90' ×1" in err and "ignored: ['extra']" in err
    assert "2 rows hold values the model never saw" in err and "town='Paris' ×2" in err
    assert "(e.g. row 31)" in err  # the row of [0, 1], counted over every block


def test_predict_in_blocks_names_a_bad_line_and_leaves_no_output(tmp_path, capsys, monkeypatch):
    fit, new = _long_files(tmp_path)
    model = tmp_path / "m.json"
    assert main(["fit", str(fit), "--label", "outcome", "--positive", "yes", "--out", str(model),
                 "--no-progress"]) == 0
    lines = new.read_text(encoding="utf-8").splitlines()
    lines[100] += ",7"
    new.write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr("plx_core.data.BLOCK_ROWS", 7)
    out = tmp_path / "p.csv"
    assert main(["predict", str(model), str(new), "--out", str(out)]) == 2
    assert_one_line_error(capsys.readouterr().err, "line 101 (data row 99): expected 5 fields")
    assert not out.exists() and [p.name for p in tmp_path.iterdir() if ".tmp" in p.name] == []


def test_predict_in_blocks_adds_the_note_column_when_a_late_row_fails(tmp_path, capsys,
                                                                      monkeypatch):
    from plx_core import cli

    fit, new = _long_files(tmp_path)
    model = tmp_path / "m.json"
    assert main(["fit", str(fit), "--label", "outcome", "--positive", "yes", "--out", str(model),
                 "--no-progress"]) == 0
    answers = cli.Model.answers

    def failing(self, X):  # the LP fails on the file's 100th row, in the 15th block of 7
        pred, read_as = answers(self, X)
        at = np.flatnonzero(X.index.to_numpy() == 102)  # line 102: data row 100 (one repeat)
        if len(at):
            pred.loc[at, ["lower", "upper", "mean"]] = np.nan
            pred.loc[at, "decision"] = ""
            pred["note"] = np.where(np.isin(np.arange(len(pred)), at), "LP failed (test)", "")
        return pred, read_as

    monkeypatch.setattr(cli.Model, "answers", failing)
    monkeypatch.setattr("plx_core.data.BLOCK_ROWS", 7)
    out = tmp_path / "p.csv"
    assert main(["predict", str(model), str(new), "--out", str(out)]) == 0
    pred = pd.read_csv(out, keep_default_na=False)
    assert list(pred.columns)[-1] == "note" and len(pred) == 120
    assert pred["note"].tolist() == ["LP failed (test)" if r == 100 else "" for r in range(1, 121)]
    assert "1 row could not be answered" in capsys.readouterr().err


def _season_files(tmp_path):
    """Visits over six years whose label is winter (Dec, Jan, Feb), dates as 31/12/2022, and
    a visit every third day of the fourth year to predict."""
    rng = np.random.default_rng(2)
    days = pd.Timestamp("2017-01-01") + pd.to_timedelta(rng.integers(0, 6 * 365, 900), unit="D")
    y = np.where(days.month.isin([12, 1, 2]) ^ (rng.random(900) < 0.05), "flu", "none")
    pd.DataFrame({"visit": days.strftime("%d/%m/%Y"), "age": rng.integers(20, 80, 900),
                  "dx": y}).to_csv(tmp_path / "fit.csv", index=False)
    later = pd.Timestamp("2020-01-01") + pd.to_timedelta(np.arange(0, 365, 3), unit="D")
    pd.DataFrame({"visit": later.strftime("%d/%m/%Y"), "age": 50}).to_csv(tmp_path / "new.csv",
                                                                          index=False)
    return tmp_path / "fit.csv", tmp_path / "new.csv", later.month.isin([12, 1, 2])


def test_date_parts_learn_a_month_driven_label_and_explain_it_by_month(tmp_path, capsys):
    fit, new, winter = _season_files(tmp_path)
    model = tmp_path / "m.json"
    assert main(["fit", str(fit), "--label", "dx", "--positive", "flu", "--date-parts", "month",
                 "--out", str(model), "--no-progress"]) == 0
    assert "column 'visit': its month as a column of its own ('visit month')" in \
        capsys.readouterr().err
    schema = json.loads(model.read_text())["schema"]
    assert schema["date_parts"] == {"visit month": ["visit", "month"]}
    assert main(["predict", str(model), str(new), "--out", str(tmp_path / "p.csv")]) == 0
    pred = pd.read_csv(tmp_path / "p.csv")
    assert ((pred["decision"] == "flu") == winter).mean() >= 0.95  # a time line alone: ~0.5
    assert main(["explain", str(model), str(new), "--k", "1", "--out", str(tmp_path / "e.csv")]) == 0
    ex = pd.read_csv(tmp_path / "e.csv")
    said = set(ex["features"][winter])  # in the file's words: its column, the month
    assert said == {'"visit month"=Dec', '"visit month"=Jan', '"visit month"=Feb'}


def test_a_file_without_the_date_a_used_date_part_comes_from_is_refused(tmp_path, capsys):
    """A model whose clauses name 'visit month' needs 'visit' to derive it: a file without
    'visit' is refused naming it (it was said to change no answer, and every row lost its
    month silently); given as an empty column, each row's month is unknown, as said."""
    fit, new, _ = _season_files(tmp_path)
    model = tmp_path / "m.json"
    assert main(["fit", str(fit), "--label", "dx", "--positive", "flu", "--date-parts", "month",
                 "--out", str(model), "--no-progress"]) == 0
    pd.read_csv(new).drop(columns="visit").to_csv(tmp_path / "nodate.csv", index=False)
    capsys.readouterr()
    assert main(["predict", str(model), str(tmp_path / "nodate.csv"),
                 "--out", str(tmp_path / "p.csv")]) == 2
    err = capsys.readouterr().err
    assert_one_line_error(err, "the rows lack the feature column ['visit']")
    assert "changes no answer" not in err
    pd.read_csv(new).assign(visit="").to_csv(tmp_path / "blank.csv", index=False)
    assert main(["predict", str(model), str(tmp_path / "blank.csv"),
                 "--out", str(tmp_path / "p.csv")]) == 0
    assert pd.read_csv(tmp_path / "p.csv")["tie"].all()  # nothing known of any row: [0, 1]


def test_date_parts_are_refused_in_one_line_without_a_date_or_with_a_taken_name(tmp_path,
                                                                              capsys):
    fit, _, _ = _season_files(tmp_path)
    out = str(tmp_path / "m.json")
    assert main(["fit", str(fit), "--label", "dx", "--positive", "flu", "--date-parts",
                 "season", "--out", out]) == 2
    assert "'season' is not a date part: give month, weekday or hour, or several" in capsys.readouterr().err
    pd.read_csv(fit).drop(columns="visit").to_csv(tmp_path / "nodate.csv", index=False)
    assert main(["fit", str(tmp_path / "nodate.csv"), "--label", "dx", "--positive", "flu",
                 "--date-parts", "month", "--out", out]) == 2
    assert_one_line_error(capsys.readouterr().err, "--date-parts month: no column is read as "
                                                   "dates")
    pd.read_csv(fit).assign(**{"visit weekday": "x"}).to_csv(tmp_path / "taken.csv", index=False)
    assert main(["fit", str(tmp_path / "taken.csv"), "--label", "dx", "--positive", "flu",
                 "--date-parts", "weekday", "--out", out]) == 2
    assert_one_line_error(capsys.readouterr().err, "would be column 'visit weekday', which the "
                                                   "table already has")


def test_positive_given_as_the_same_number_as_the_file_writes_it(tmp_path, capsys):
    """--positive 2 for labels written 1.0 / 2.0: the class '2.0', said once as a note."""
    rng = np.random.default_rng(0)
    a = rng.choice(list("xyz"), 120)
    pd.DataFrame({"a": a, "y": np.where(a == "x", "2.0", "1.0")}).to_csv(tmp_path / "t.csv",
                                                                       index=False)
    assert main(["fit", str(tmp_path / "t.csv"), "--label", "y", "--positive", "2",
                 "--out", str(tmp_path / "m.json"), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert err.count("the same number") == 1
    assert "note: positive='2' is the class '2.0' of the label 'y'" in err
    assert json.loads((tmp_path / "m.json").read_text())["schema"]["positive"] == "2.0"


def _comma_files(tmp_path, later: list[str]):
    """A model fitted on plain numbers (1234.5) and a ';' file of 3 blocks of 5 rows to
    predict: decimal commas first (1.234,5, 10,5), then the `later` cells (blocks 2 and 3)."""
    rng = np.random.default_rng(0)
    x = np.round(rng.uniform(0, 3000, 200), 1)
    pd.DataFrame({"x": x, "c": rng.choice(list("ab"), 200),
                  "y": np.where(x > 1500, "yes", "no")}).to_csv(tmp_path / "fit.csv", index=False)
    first = ["1.234,5", "2.500,25", "100,5", "2.900,5", "10,5"]
    (tmp_path / "new.csv").write_text(
        "x;c\n" + "".join(f"{v};a\n" for v in [*first, *later]), encoding="utf-8")
    assert main(["fit", str(tmp_path / "fit.csv"), "--label", "y", "--out",
                 str(tmp_path / "m.json"), "--no-progress"]) == 0
    return tmp_path / "m.json", tmp_path / "new.csv"


def test_predict_in_blocks_reads_every_block_as_the_first_decided_and_says_it_once(
        tmp_path, capsys, monkeypatch):
    """A file in 3 blocks whose later blocks alone would read otherwise ('1.234' alone is
    read as 1.234, not 1234 as beside '1.234,5'): read as the file reads, the note once."""
    model, new = _comma_files(tmp_path, ["1.234", "2.500", "1.750", "1.600", "2.100",
                                         "0,5", "1,2", "2.900", "1,1", "2.600,0"])
    capsys.readouterr()
    said = {}
    for rows in (100_000, 5):
        monkeypatch.setattr("plx_core.data.BLOCK_ROWS", rows)
        assert main(["predict", str(model), str(new), "--out", str(tmp_path / f"p{rows}.csv")]) == 0
        said[rows] = capsys.readouterr().err
    assert (tmp_path / "p5.csv").read_bytes() == (tmp_path / "p100000.csv").read_bytes()
    assert said[5] == said[100_000] and said[5].count("decimal comma") == 1
    assert pd.read_csv(tmp_path / "p5.csv")["decision"].tolist()[5:10] == ["no", "yes", "yes",
                                                                           "yes", "yes"]


def test_predict_in_blocks_refuses_a_block_that_reads_otherwise_naming_its_row(
        tmp_path, capsys, monkeypatch):
    """Block 3 writes 1234.5 where block 1 wrote 1.234,5: each block read alone was answered
    in its own reading (one file, two scales, silently); now one line names the row, the
    value and both readings, and no output is left."""
    model, new = _comma_files(tmp_path, ["1.234,5", "20,5", "100,5", "2.900,5", "10,5",
                                         "1234.5", "2500.25", "100.5", "2900.5", "10.5"])
    monkeypatch.setattr("plx_core.data.BLOCK_ROWS", 5)
    out = tmp_path / "p.csv"
    capsys.readouterr()
    assert main(["predict", str(model), str(new), "--out", str(out)]) == 2
    assert_one_line_error(capsys.readouterr().err, "column 'x', line 12 (data row 11): value "
                          "'1234.5' is not a number", "the file's rows from line 2 read column "
                          "'x' as numbers with a decimal comma", "these rows as plain numbers")
    assert not out.exists()


def test_predict_in_blocks_lets_whole_numbers_decide_nothing(tmp_path, capsys, monkeypatch):
    """A first block of whole numbers (1234) reads alike in every format: the block that
    writes 1.234 decides (thousands, in a ';' file, as the whole file reads it), not the
    first block's plain reading, which read 1.234 as 1.234."""
    model, new = _comma_files(tmp_path, [])
    (tmp_path / "new.csv").write_text("x;c\n" + "".join(f"{v};a\n" for v in [
        "1234", "2500", "100", "2900", "10", "1.234", "2.500", "1.750", "1.600", "2.100",
        "1234", "2500", "100", "2900", "10"]), encoding="utf-8")
    capsys.readouterr()
    for rows in (100_000, 5):
        monkeypatch.setattr("plx_core.data.BLOCK_ROWS", rows)
        assert main(["predict", str(model), str(new), "--out", str(tmp_path / f"p{rows}.csv")]) == 0
    assert (tmp_path / "p5.csv").read_bytes() == (tmp_path / "p100000.csv").read_bytes()
    assert pd.read_csv(tmp_path / "p5.csv")["decision"].tolist()[5:10] == ["no", "yes", "yes",
                                                                           "yes", "yes"]


def test_the_date_note_asks_for_date_parts_only_when_they_were_not_given(tmp_path, capsys):
    """reading24: 'a season or weekday that matters needs a column of its own: plx fit
    --date-parts month,weekday' was said right after the user's --date-parts month."""
    fit, _, _ = _season_files(tmp_path)
    out = str(tmp_path / "m.json")
    assert main(["fit", str(fit), "--label", "dx", "--positive", "flu", "--out", out,
                 "--no-progress"]) == 0
    assert "plx fit --date-parts month,weekday" in capsys.readouterr().err
    assert main(["fit", str(fit), "--label", "dx", "--positive", "flu", "--date-parts", "month",
                 "--out", out, "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "column 'visit': read as dates, day/month/year" in err
    assert "--date-parts month,weekday" not in err


def test_fit_reads_padded_codes_as_categories_and_leaves_out_a_repeated_case_number(tmp_path,
                                                                                   capsys):
    """reading24: a department written '01' … '40' was binned as amounts (cut at 12.5), and a
    patient number of four visits each as a measurement; both said, and predict answers a file
    that holds them as the training file did."""
    rng = np.random.default_rng(3)
    n = 480
    dept = rng.choice([f"{i:02d}" for i in range(1, 41)], n)
    x = rng.normal(size=n).round(2)
    y = np.where(np.isin(dept, ["03", "17", "29"]) | (x > 1.2), "yes", "no")
    path = tmp_path / "visits.csv"
    pd.DataFrame({"patient_no": rng.choice(np.arange(10000, 99999), n // 4).repeat(4),
                  "dept": dept, "x": x, "y": y}).to_csv(path, index=False)
    model = tmp_path / "m.json"
    assert main(["fit", str(path), "--label", "y", "--positive", "yes", "--out", str(model),
                 "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "column 'patient_no' is left out: ID-like: its header names an identifier" in err
    assert ("column 'dept' is used as categories: its 40 values are whole numbers written "
            "with leading zeros ('01', '02')") in err
    schema = json.loads(model.read_text())["schema"]
    assert "patient_no" in schema["excluded"] and "dept" not in schema.get("bins", {})
    assert main(["predict", str(model), str(path), "--out", str(tmp_path / "p.csv")]) == 0
    decision = pd.read_csv(tmp_path / "p.csv")["decision"].to_numpy()
    assert (decision[np.isin(dept, ["03", "17", "29"])] == "yes").mean() > 0.9


def test_predict_names_far_and_stray_cells_by_their_own_data_rows_in_any_block(
        tmp_path, capsys, monkeypatch):
    """review27: an age of 300 or a CRP of -5 was answered as the end bin with nothing said,
    and the stray text's data rows were counted within the cells kept ('pending' on line 5
    named data row 1): now the model file keeps each numeric column's training range and
    predict names the far cells, every cell by its own line and data row, in any block."""
    rng = np.random.default_rng(27)
    age = rng.integers(20, 90, 80).astype(object)
    age[[7, 30]] = "pending"
    sick = np.where(rng.random(80) < 0.5, "yes", "no")
    fit = tmp_path / "fit.csv"
    pd.DataFrame({"age": age, "crp": rng.uniform(1, 100, 80).round(1),
                  "sick": sick}).to_csv(fit, index=False)
    model = tmp_path / "m.json"
    assert main(["fit", str(fit), "--label", "sick", "--positive", "yes", "--out", str(model),
                 "--no-progress"]) == 0
    assert "far outside" not in capsys.readouterr().err  # the training rows are the range
    new = tmp_path / "new.csv"
    new.write_text("age,crp\n40,5\n41,6\n300,7\npending,-5\n44,1e9\n", encoding="utf-8")
    said = {}
    for rows in (100_000, 2):
        monkeypatch.setattr("plx_core.data.BLOCK_ROWS", rows)
        assert main(["predict", str(model), str(new), "--out", str(tmp_path / "p.csv")]) == 0
        said[rows] = capsys.readouterr().err
    assert said[2] == said[100_000]
    err = " ".join(said[2].split())
    assert "'pending' on line 5 (data row 4)" in err
    assert "(check these cells); 1 cell far outside the training rows' 20 … 89 ('300' on " \
           "line 4 (data row 3)): answered as the end bin it falls in ('<50.5' or" in err
    assert "2 cells far outside" in err and "'-5' on line 5 (data row 4), '1e9' on line 6 " \
           "(data row 5))" in err
    doc = json.loads(model.read_text(encoding="utf-8"))
    doc["schema"]["bins"]["age"]["span"] = [50, 20]
    model.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["predict", str(model), str(new), "--out", str(tmp_path / "q.csv")]) == 2
    assert "'bins.age.span' must be two finite numbers, the least first" in capsys.readouterr().err
