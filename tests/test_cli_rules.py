"""`plx rules`: expert rules kept in a model file, answered with by predict / explain, tried
with --rules, refused in one line that leaves the file as it was."""

import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from plx_core.cli import main
from plx_core.modelfile import load_model

EXAMPLE = Path(__file__).resolve().parents[1] / "datasets" / "paper_example.csv"


def _table(seed: int = 7, n: int = 150) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"pid": [f"P{i:03d}" for i in range(n)], "ward": "A",
                       "colour": rng.choice(["red", "green", "blue"], n),
                       "size": rng.choice(["S", "M", "L"], n),
                       "crp": rng.uniform(0, 100, n).round(1)})
    risk = (df["colour"] == "red").astype(int) + (df["crp"] > 60) + rng.uniform(0, 1, n).round()
    df["label"] = np.where(risk >= 2, "sick", "well")
    return df


@pytest.fixture(scope="module")
def fitted(tmp_path_factory):
    """One yes/no model (Direct KB, paper variant: a fast fit) of a table with an ID and a
    constant column the fit leaves out, and a number it cuts in bins."""
    d = tmp_path_factory.mktemp("rules")
    df = _table()
    df.to_csv(d / "t.csv", index=False)
    assert main(["fit", str(d / "t.csv"), "--label", "label", "--positive", "sick", "--variant",
                 "paper", "--out", str(d / "m.json"), "--no-progress"]) == 0
    return d, df


@pytest.fixture
def model(fitted, tmp_path):
    shutil.copy(fitted[0] / "m.json", tmp_path / "m.json")
    return tmp_path / "m.json"


def _predict(model, csv, out, *extra):
    assert main(["predict", str(model), str(csv), "--out", str(out), *extra]) == 0
    return pd.read_csv(out)


def test_a_saved_rule_flips_decisions_and_is_listed_with_its_rows(fitted, model, tmp_path, capsys):
    d, df = fitted
    rows = tmp_path / "rows.csv"
    df.head(40).drop(columns="label").to_csv(rows, index=False)
    before = _predict(model, rows, tmp_path / "p0.csv")
    blue = (df.head(40)["colour"] == "blue").to_numpy()
    assert (before["decision"][blue] == "well").any()
    rule = "IF colour=blue AND crp < 62 THEN POS [p=0.95, w=40]"
    assert main(["rules", str(model), "add", rule]) == 0
    assert "added r1" in capsys.readouterr().out
    after = _predict(model, rows, tmp_path / "p1.csv")
    low = blue & (df.head(40)["crp"] < 62).to_numpy()
    assert (after["decision"][low] == "sick").all()  # the rule settles them, weight 40
    assert (after["mean"][low] > before["mean"][low]).all()
    assert (after["decision"][~blue] == before["decision"][~blue]).all()  # others untouched

    capsys.readouterr()
    assert main(["rules", str(model), "list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0].split() == ["id", "rule", "p", "w", "on", "rows", "vs_data"]
    n_rows = int(((df["colour"] == "blue") & (df["crp"] < 62)).sum())  # in the training file
    assert listed[1].split()[:1] == ["r1"] and "IF colour=blue AND crp < 62 THEN POS" in listed[1]
    assert listed[1].split()[-3:-1] == ["on", str(n_rows)]
    assert main(["rules", str(model), "list", "--text"]) == 0  # reads back as written
    assert capsys.readouterr().out == "IF colour=blue AND crp < 62 THEN POS [p=0.95, w=40, id=r1]\n"

    assert main(["rules", str(model), "disable", "r1"]) == 0
    assert _predict(model, rows, tmp_path / "p2.csv")["decision"].tolist() == before["decision"].tolist()
    assert main(["rules", str(model), "enable", "r1"]) == 0
    assert main(["rules", str(model), "edit", "r1", "--p", "0.5"]) == 0  # p 0.5: no pull
    again = _predict(model, rows, tmp_path / "p3.csv")
    assert (again["mean"][low] < after["mean"][low]).all()
    assert main(["rules", str(model), "remove", "r1"]) == 0
    assert load_model(model).kb.rules == []


def test_rules_tried_from_a_file_answer_predict_and_explain_without_saving(tmp_path, capsys):
    model, q = tmp_path / "m.json", tmp_path / "q.csv"
    assert main(["fit", str(EXAMPLE), "--label", "label", "--out", str(model)]) == 0
    q.write_text("a1,a2,a3,a4\n0,1,0,1\n1,1,1,1\n", encoding="utf-8")
    rules = tmp_path / "rules.txt"
    rules.write_text("# the expert disagrees on 11--\nIF a1=1 AND a2=1 THEN NOT POS [p=1, w=100]\n",
                     encoding="utf-8")
    saved = model.read_bytes()
    plain = _predict(model, q, tmp_path / "p.csv")
    tried = _predict(model, q, tmp_path / "t.csv", "--rules", str(rules))
    assert plain["decision"].tolist() == [0, 1] and tried["decision"].tolist() == [0, 0]
    assert tried["upper"][1] < 0.1 and tried["mean"][0] == plain["mean"][0]
    assert "trying 1 rule from" in capsys.readouterr().err
    assert main(["explain", str(model), str(q), "--out", str(tmp_path / "e.csv"),
                 "--rules", str(rules)]) == 0
    e = pd.read_csv(tmp_path / "e.csv")
    assert e["decision"][1] == 0 and e["features"][1] == "a1=1 AND a2=1"  # the rule's own case
    assert model.read_bytes() == saved  # tried, never written


def test_several_classes_take_a_rule_for_one_class(tmp_path, capsys):
    """A model of several classes: a rule joins the KB of the class it names (--class), where
    POS is that class; it moves that class's mean and so which class answers."""
    rng = np.random.default_rng(5)
    n = 120
    df = pd.DataFrame({"colour": rng.choice(["red", "green", "blue"], n),
                       "size": rng.choice(["S", "M", "L"], n)})
    df["label"] = np.where(df["colour"] == "red", "A", np.where(df["size"] == "S", "B", "C"))
    df.to_csv(tmp_path / "t.csv", index=False)
    model = tmp_path / "m.npz"
    assert main(["fit", str(tmp_path / "t.csv"), "--label", "label", "--variant", "paper",
                 "--out", str(model), "--no-progress"]) == 0
    q = tmp_path / "q.csv"
    q.write_text("colour,size\ngreen,M\nred,M\n", encoding="utf-8")
    assert _predict(model, q, tmp_path / "p0.csv")["decision"].tolist() == ["C", "A"]
    saved = model.read_bytes()
    capsys.readouterr()
    assert main(["rules", str(model), "add", "IF colour=green THEN POS [p=1, w=500]"]) == 2
    assert "3 classes ['A', 'B', 'C']" in capsys.readouterr().err and model.read_bytes() == saved
    assert main(["rules", str(model), "add", "IF colour=green THEN POS [p=1, w=500]",
                 "--class", "B"]) == 0
    after = _predict(model, q, tmp_path / "p1.csv")
    assert after["decision"].tolist() == ["B", "A"]  # green rows are B now; red is not
    capsys.readouterr()
    assert main(["rules", str(model), "list"]) == 0
    line = capsys.readouterr().out.splitlines()[1].split()
    assert line[:2] == ["r1", "B"] and line[-2] == str(int((df["colour"] == "green").sum()))
    mf = load_model(model)
    assert [len(m.kb.rules) for m in mf.members] == [0, 1, 0]  # kept in the npz, class B's
    assert main(["rules", str(model), "add", "IF size=S THEN NOT POS [p=0.9]", "--class", "C",
                 "--out", str(tmp_path / "m2.json")]) == 0
    back = load_model(tmp_path / "m2.json")  # ids are the file's: r2, in class C's KB
    assert [[c.id for c in m.kb.rules] for m in back.members] == [[], ["r1"], ["r2"]]
    assert model.read_bytes() != saved and load_model(model).members[2].kb.rules == []

    capsys.readouterr()  # the text list --text writes reads back, each rule into its class
    assert main(["rules", str(tmp_path / "m2.json"), "list", "--text"]) == 0
    text = capsys.readouterr().out
    assert text == ("# class: B\nIF colour=green THEN POS [p=1, w=500, id=r1]\n"
                    "# class: C\nIF size=S THEN NOT POS [p=0.9, id=r2]\n")
    (tmp_path / "r.txt").write_text(text, encoding="utf-8")
    (tmp_path / "m0.npz").write_bytes(saved)
    assert main(["rules", str(tmp_path / "m0.npz"), "add", "--file", str(tmp_path / "r.txt")]) == 0
    assert [m.kb.rules for m in load_model(tmp_path / "m0.npz").members] == [
        m.kb.rules for m in back.members]
    (tmp_path / "r.txt").write_text("IF size=S THEN POS [p=0.9]\n" + text, encoding="utf-8")
    assert main(["rules", str(tmp_path / "m0.npz"), "add", "--file", str(tmp_path / "r.txt")]) == 2
    assert "line 1: a rule before the first '# class:' line" in capsys.readouterr().err


def test_a_tree_model_lists_no_row_counts(tmp_path, capsys):
    model = tmp_path / "tree.json"
    assert main(["fit", str(EXAMPLE), "--label", "label", "--kb", "tree", "--out", str(model)]) == 0
    assert main(["rules", str(model), "add", "IF a1=1 THEN POS [p=0.8]"]) == 0
    capsys.readouterr()
    assert main(["rules", str(model), "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[-3:-1] == ["on", "—"]  # the tree's leaves do not count it: said so
    assert out[2].startswith("rows —: the model file keeps no count of rows for this rule")


@pytest.mark.parametrize("argv, message", [
    (["add", "IF colour=purple THEN POS [p=0.9]"],
     "the rule: line 1, column 11: feature 'colour' has no value 'purple'"),
    (["add", "IF colr=red THEN POS [p=0.9]"], "unknown feature 'colr' (did you mean 'colour'?)"),
    (["add", "IF pid=P001 THEN POS [p=0.9]"], "column 'pid' was left out by the fit (ID-like"),
    (["add", "IF ward=A THEN POS [p=0.9]"], "column 'ward' was left out by the fit (constant"),
    (["add", "IF crp >= 50 THEN POS [p=0.9]"], "crp >= 50: 50 falls inside the bin <62"),
    (["add", "IF colour=red THEN POS [p=1.5]"], "column 27: probability p=1.5 is outside [0, 1]"),
    (["add", "IF colour=red THEN POS [p=0.5, w=-1]"], "w=-1 must be a finite number > 0"),
    (["add", "IF colour=red THEN POS [p=0.5, id=r1]"], "rule id 'r1' is already used"),
    (["add", "IF crp=≥62 AND colour=green THEN NOT POS [p=0.3]"],
     "is already in the model as r1"),
    (["add"], "give the rule text or --file FILE"),
    (["add", "IF colour=red THEN POS [p=0.5]", "--class", "well"],
     "this model is 'sick' against the rest"),
    (["remove", "r7"], "no rule with id 'r7'; the model's rules are ['r1']"),
    (["disable", "r1", "r1"], "rule id 'r1' is given twice"),
    (["edit", "r1", "--p", "2"], "argument --p: must be a probability in [0, 1], got '2'"),
    (["edit", "r1", "--w", "0"], "argument --w: must be a finite number > 0, got '0'"),
    (["edit", "r1"], "say what changes, --p P and/or --w W"),
])
def test_bad_input_is_one_line_and_leaves_the_file(model, capsys, argv, message):
    assert main(["rules", str(model), "add",
                 "IF colour=green AND crp >= 62 THEN NOT POS [p=0.3]"]) == 0
    saved = model.read_bytes()
    capsys.readouterr()
    assert main(["rules", str(model), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err, err
    assert model.read_bytes() == saved


def test_a_bad_rules_file_names_its_line(model, tmp_path, capsys):
    f = tmp_path / "rules.txt"
    f.write_text("IF colour=red THEN POS [p=0.9]\n\nIF size=XL THEN POS [p=0.9]\n", encoding="utf-8")
    saved = model.read_bytes()
    for argv in (["rules", str(model), "add", "--file", str(f)],
                 ["predict", str(model), str(EXAMPLE), "--out", str(tmp_path / "p.csv"),
                  "--rules", str(f)]):
        assert main(argv) == 2
        assert (f"error: {f}: line 3, column 9: feature 'size' has no value 'XL'"
                in capsys.readouterr().err)
    assert model.read_bytes() == saved and not (tmp_path / "p.csv").exists()


def test_a_rules_file_repeating_a_rule_names_both_lines(model, tmp_path, capsys):
    """plx predict --rules and plx rules add --file: a file holding one rule twice (written
    another way) is refused naming the file, the line, the rule and the line it repeats, not
    said to be 'already in the model'; the model file is left as it was."""
    f = tmp_path / "rules.txt"
    f.write_text("IF colour=red THEN POS [p=0.9]\nIF size=S THEN NOT POS [p=0.6]\n"
                 "IF colour = \"red\" THEN POS [p=0.7, w=2]\n", encoding="utf-8")
    saved = model.read_bytes()
    for argv in (["rules", str(model), "add", "--file", str(f)],
                 ["predict", str(model), str(EXAMPLE), "--out", str(tmp_path / "p.csv"),
                  "--rules", str(f)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err == (f"error: {f}: line 3: the rule IF colour=red THEN POS repeats line 1: "
                       "keep one (the same conditions and conclusion would count twice)\n")
    assert model.read_bytes() == saved and not (tmp_path / "p.csv").exists()


def test_a_call_centres_waits_and_start_times_print_as_written_and_rules_on_them_read_back(
        tmp_path, capsys):
    """Lengths of time ('0h 12m', '1:05:00') and times of day ('09:15') are read as minutes;
    their bins printed minutes (`<904`, `≥51`) in the model, explanations and rules text.
    Now each cut reads as its column is written (`≥1h5m`, `<16:58`), and a rule typed in that
    form (`IF wait >= …`, `IF start < …`) is read on those bins and listed back as typed."""
    rng = np.random.default_rng(41)
    n = 240
    wait = rng.integers(1, 150, n)
    start = rng.integers(8 * 60, 20 * 60, n)
    df = pd.DataFrame({
        "wait": [f"{w // 60}h {w % 60}m" if i % 2 else f"{w // 60}:{w % 60:02d}:00"
                 for i, w in enumerate(wait)],
        "start": [f"{s // 60:02d}:{s % 60:02d}" for s in start],
        "abandoned": np.where((wait > 60) | (start >= 18 * 60), "yes", "no")})
    df.to_csv(tmp_path / "calls.csv", index=False)
    m = tmp_path / "m.json"
    assert main(["fit", str(tmp_path / "calls.csv"), "--label", "abandoned", "--positive", "yes",
                 "--variant", "paper", "--out", str(m), "--no-progress"]) == 0
    bins = load_model(m).schema.bins
    assert all(re.fullmatch(r"(<|≥|\[)(\d+[hm])+(, (\d+[hm])+\))?", v)
               for v in bins["wait"].labels), bins["wait"].labels
    assert all(re.search(r"\d\d:\d\d", v) for v in bins["start"].labels), bins["start"].labels
    df.head(20).drop(columns="abandoned").to_csv(tmp_path / "new.csv", index=False)
    assert main(["explain", str(m), str(tmp_path / "new.csv"), "--k", "2",
                 "--out", str(tmp_path / "e.csv")]) == 0
    said = " ".join(pd.read_csv(tmp_path / "e.csv")["features"])
    assert re.search(r"wait=\W*[<≥\[]\d+[hm]", said) and re.search(r"start=\W*[<≥\[]\d\d:\d\d", said)
    wcut = next(v[1:] for v in bins["wait"].labels if v.startswith("≥"))
    scut = next(v[1:] for v in bins["start"].labels if v.startswith("<"))
    rule = f"IF wait >= {wcut} AND start < {scut} THEN POS [p=0.9, w=3]"
    assert main(["rules", str(m), "add", rule]) == 0
    capsys.readouterr()
    assert main(["rules", str(m), "list"]) == 0
    assert f"wait >= {wcut}" in capsys.readouterr().out
    assert main(["rules", str(m), "add", "IF wait >= 90 THEN POS"]) == 2  # minutes? said how
    assert "needs a length of time after >=, e.g. wait >= " in capsys.readouterr().err


def test_class_named_as_the_same_number_finds_its_kb(tmp_path, capsys):
    """--class 2 for a model whose classes the file writes 1.0 / 2.0 / 3.0: the class '2.0'."""
    from plx_core.cli import main

    rng = np.random.default_rng(0)
    a = rng.choice(list("xyz"), 150)
    pd.DataFrame({"a": a, "y": np.select([a == "x", a == "y"], [1.0, 2.0], 3.0)}).to_csv(
        tmp_path / "t.csv", index=False)
    model = tmp_path / "m.json"
    assert main(["fit", str(tmp_path / "t.csv"), "--label", "y", "--out", str(model),
                 "--no-progress"]) == 0
    assert main(["rules", str(model), "add", "IF a=z THEN POS [p=0.9, w=5]", "--class", "2"]) == 0
    capsys.readouterr()
    assert main(["rules", str(model), "list", "--text"]) == 0
    assert "# class: 2.0" in capsys.readouterr().out
