"""Model files: JSON and npz round trips, the format choice, and malformed files named by field."""

import io
import json

import numpy as np
import pandas as pd
import pytest

from plx_core import direct_kb, query
from plx_core.data import infer_schema
from plx_core.errors import ModelFileError
from plx_core.modelfile import (
    BINARY_FROM_CLAUSES,
    ModelFile,
    choose_format,
    load_model,
    model_bytes,
    model_of,
    save_model,
)


@pytest.fixture
def model():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"colour": rng.choice(["red", "dark blue", "x!"], 60),
                          "size": rng.choice(["S", "L"], 60),
                          "label": rng.choice(["yes", "no"], 60)})
    schema = infer_schema(frame, "label", "yes")
    X, y = schema.apply(frame)
    kb = direct_kb(X, y, positive="yes")
    kb.add(__import__("plx_core").parse_rules('IF "colour"="x!" THEN NOT POS [p=0.8, w=3, off]', kb))
    return ModelFile(schema, kb, "yes", "no", None, {"kb_kind": "direct", "variant": "paper",
                                                    "n_train": 60})


@pytest.mark.parametrize("name", ["m.json", "m.npz"])
def test_both_formats_round_trip_the_whole_model(model, tmp_path, name):
    path = tmp_path / name
    assert save_model(model, path) == name.split(".")[1]
    back = load_model(path)
    assert back.kb == model.kb and back.kb.rules == model.kb.rules
    assert back.schema.to_dict() == model.schema.to_dict() and back.settings == model.settings
    assert (back.positive, back.negative, back.answer) == ("yes", "no", None)
    q = {"colour": "dark blue", "size": "S"}
    assert query(back.kb, q).lower == query(model.kb, q).lower


def test_the_format_follows_the_name_then_the_size(tmp_path):
    assert choose_format("a.json", 10**7) == "json" and choose_format("a.NPZ", 1) == "npz"
    assert choose_format("model", BINARY_FROM_CLAUSES) == "npz" and choose_format("model", 5) == "json"
    with pytest.raises(ModelFileError, match="format"):
        choose_format("a", 1, "pickle")


def test_the_file_is_sniffed_not_trusted_by_its_name(model, tmp_path):
    p = tmp_path / "really-binary.json"
    p.write_bytes(model_bytes(model, "npz"))
    assert load_model(p).kb == model.kb


def _json_doc(model):
    return json.loads(model_bytes(model, "json"))


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(schema={}), "field 'schema': schema field 'label' is missing"),
    (lambda d: d.update(schema={"label": "x"}), "field 'schema'"),
    (lambda d: d.update(answer={"min_len": "x", "max_len": 2, "prior_weight": 0}),
     "field 'answer.min_len' must be an integer"),
    (lambda d: d.update(answer={"min_len": 2, "max_len": 1, "prior_weight": 0}), "min_len"),
    (lambda d: d.update(positive=["yes"]), "field 'positive' must be a string"),
    (lambda d: d.update(positive="no"), "field 'positive' is 'no' but the KB's POS stands for 'yes'"),
    (lambda d: d["kb"].update(features=["colour", "colour"]), "field 'kb'"),
    (lambda d: d["kb"]["clauses"][0].update(w=1e308), "clauses[0]: clause: w=1e+308 must be"),
    (lambda d: d.update(n_train=True), "field 'n_train'"),
    # fuzz17: counts past int64 and numbers past a float were an OverflowError (exit 1)
    (lambda d: d["kb"]["clauses"][1].update(support=2**70),
     "clauses[1]: clause: support=1180591620717411303424 is not a count of rows"),
    (lambda d: d["kb"]["clauses"][0].update(positives=10**400), "positives=1000000"),
    (lambda d: d["kb"]["clauses"][2].update(w=10**400), "p and w must be numbers"),
    (lambda d: d.pop("kb"), "lacks the field ['kb']"),
    (lambda d: d.update(version=4), "model version 4"),
    (lambda d: d.update(version=2), "(version 2), and field 'classes' must list"),
])
def test_malformed_json_models_name_the_field(model, change, message):
    doc = _json_doc(model)
    change(doc)
    with pytest.raises(ModelFileError, match=__import__("re").escape(message)):
        load_model(json.dumps(doc).encode())


def _rename(values: list, old: str, new: str) -> None:
    values[values.index(old)] = new


def _rename_in_clause(doc: dict, old: str, new: str) -> None:
    clause = next(c for c in doc["kb"]["clauses"] if old in c["literals"])
    _rename(clause["literals"], old, new)


@pytest.mark.parametrize("change, message", [
    (lambda d: _rename_in_clause(d, "~colour=red", "~colour=Red"),
     "field 'kb': a clause names colour='Red', a value field 'schema.categories.colour' does "
     "not list ("),
    (lambda d: _rename(d["schema"]["categories"]["size"], "S", "small"),
     "a clause names size='S', a value field 'schema.categories.size' does not list ("),
    (lambda d: _rename(d["schema"]["classes"], "yes", "Yes"),
     "field 'positive' is 'yes', not one of the classes field 'schema.classes' lists"),
    (lambda d: d.update(negative="No"), "field 'negative' is 'No', not one of the classes"),
])
def test_a_model_file_edited_on_one_side_is_refused_naming_the_field(model, change, message):
    # users19: a value or class renamed in the schema or in a clause only was read without a
    # word, the clauses naming it then silent on every row (answers changed, nothing said)
    doc = _json_doc(model)
    change(doc)
    with pytest.raises(ModelFileError) as err:
        load_model(json.dumps(doc).encode())
    assert message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("raw, message", [
    (b"[" * 200_000, "nested too deeply"),
    (b"\xff\xfe garbage", "neither a JSON model"),
    (b"PK\x03\x04 not really a zip", "not a readable npz"),
    (b'{"format": "plx-model"', "not valid JSON"),
])
def test_unreadable_files_are_one_clear_error(raw, message):
    with pytest.raises(ModelFileError, match=message):
        load_model(raw)


def _npz_with(model, **arrays):
    raw = np.load(io.BytesIO(model_bytes(model, "npz")))
    data = {k: raw[k] for k in raw.files} | arrays
    buf = io.BytesIO()
    np.savez(buf, **data)
    return buf.getvalue()


@pytest.mark.parametrize("arrays, message", [
    (lambda kb: {"codes": np.full_like(kb.codes, 9)}, "codes outside"),
    (lambda kb: {"p": np.full(len(kb.p), 2.0)}, r"probability 2\.0 is outside \[0, 1\]"),
    (lambda kb: {"w": np.full(len(kb.w), 1e300)}, "w="),
    (lambda kb: {"head": np.zeros_like(kb.head)}, "'head'"),
    (lambda kb: {"source": np.full_like(kb.source, 7)}, "'source'"),
    (lambda kb: {"p": kb.p[:-1]}, "shape"),
    (lambda kb: {"p": np.array([{"x": 1}] * len(kb.p), dtype=object)}, "cannot be read|dtype"),
    (lambda kb: {"header": np.frombuffer(b'{"format": "plx-kb", "version": 1}', np.uint8)},
     "field 'clauses' must be a list"),
    (lambda kb: {"evil": np.zeros(1)}, "unknown array"),
])
def test_tampered_npz_models_are_refused_before_use(model, arrays, message):
    with pytest.raises(ModelFileError, match=message):
        load_model(_npz_with(model, **arrays(model.kb)))


def test_cli_writes_npz_by_name_and_reads_it(tmp_path, capsys):
    from plx_core.cli import main

    csv = tmp_path / "d.csv"
    rng = np.random.default_rng(1)
    pd.DataFrame({"a": rng.choice(list("xyz"), 80), "b": rng.choice(list("pq"), 80),
                  "label": rng.choice(["1", "0"], 80)}).to_csv(csv, index=False)
    for name in ("m.json", "m.npz"):
        assert main(["fit", str(csv), "--label", "label", "--variant", "paper",
                     "--out", str(tmp_path / name)]) == 0
        assert main(["predict", str(tmp_path / name), str(csv), "--out",
                     str(tmp_path / f"{name}.csv")]) == 0
    assert (tmp_path / "m.npz").read_bytes()[:4] == b"PK\x03\x04"
    a, b = (pd.read_csv(tmp_path / f"m.{e}.csv") for e in ("json", "npz"))
    pd.testing.assert_frame_equal(a, b)
    (tmp_path / "bad.npz").write_bytes(b"PK\x03\x04junk")
    assert main(["predict", str(tmp_path / "bad.npz"), str(csv), "--out", str(tmp_path / "o.csv")]) == 2
    assert "not a readable npz" in capsys.readouterr().err


@pytest.mark.parametrize("kb", ["tree-bin", "tree-bin-deep"])
def test_a_binary_tree_model_round_trips_through_the_cli_and_answers_as_the_estimator(tmp_path, kb):
    # label = (a = b) or c = "0" (MONK's 1's form): value-against-rest splits, each "rest"
    # expanded into clauses; the file keeps the clauses and their weights, so the loaded
    # model answers every row (also rows with a missing cell) as the fitted estimator does
    from plx_core import PLXClassifier
    from plx_core.cli import main

    rng = np.random.default_rng(3)
    v = rng.integers(0, 3, (150, 3)).astype(str)
    frame = pd.DataFrame(v, columns=["a", "b", "c"])
    frame["label"] = np.where((v[:, 0] == v[:, 1]) | (v[:, 2] == "0"), "1", "0")
    test = frame.sample(20, random_state=0).reset_index(drop=True)
    test.loc[:4, "b"] = ""  # missing cells: partial queries
    csv, rows = tmp_path / "d.csv", tmp_path / "t.csv"
    frame.to_csv(csv, index=False)
    test.drop(columns="label").to_csv(rows, index=False)
    clf = PLXClassifier(kb=kb).fit(frame[["a", "b", "c"]], frame["label"])
    want = clf.bounds(test[["a", "b", "c"]].replace("", np.nan))
    for name in ("m.json", "m.npz"):
        assert main(["fit", str(csv), "--label", "label", "--kb", kb,
                     "--out", str(tmp_path / name)]) == 0
        back = load_model(tmp_path / name)
        assert back.kb == clf.kb_ and back.kb.kind == kb and back.settings["kb_kind"] == kb
        assert main(["predict", str(tmp_path / name), str(rows), "--out",
                     str(tmp_path / "p.csv")]) == 0
        got = pd.read_csv(tmp_path / "p.csv")
        assert np.allclose(got["lower"], want["lower"]) and np.allclose(got["upper"], want["upper"])
    assert main(["explain", str(tmp_path / "m.npz"), str(rows), "--k", "1", "--out",
                 str(tmp_path / "e.csv")]) == 0
    assert len(pd.read_csv(tmp_path / "e.csv")) == len(test)


def _patients(n: int = 300, seed: int = 13) -> tuple[pd.DataFrame, np.ndarray]:
    """A raw table a Python user fits: numbers, a date, text with '=' in a value, a boolean, a
    0–4 code, an ID column (left out)."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"age": rng.normal(50, 12, n).round(1),
                      "seen": pd.Timestamp("2021-01-01") + pd.to_timedelta(rng.integers(0, 700, n), "D"),
                      "city": rng.choice(["Paris", "Zürich", "a=b"], n),
                      "flag": rng.choice([True, False], n), "grade": rng.integers(0, 5, n),
                      "id": [f"r{i}" for i in range(n)]})
    y = np.where((X.grade == 3) | (X.age > 60) | (X.flag & (X.city == "a=b")), "sick", "well")
    return X, y


@pytest.mark.parametrize("settings", [{}, {"kb": "tree"}, {"variant": "tuned", "threshold": 0.3}])
def test_a_fitted_estimator_saves_a_model_file_plx_predict_answers_as_it_does(tmp_path, settings):
    # there was no way to save a PLXClassifier but pickle: save_model wanted a ModelFile that
    # only `plx fit` could make
    import warnings

    from plx_core import PLXClassifier
    from plx_core.cli import main

    X, y = _patients()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the ID column is left out, and said
        clf = PLXClassifier(positive="sick", **settings).fit(X.iloc[:200], y[:200])
    test, rows = X.iloc[200:], tmp_path / "new.csv"
    test.to_csv(rows, index=False)
    want = clf.bounds(test)
    for name in ("m.json", "m.npz"):
        save_model(clf, tmp_path / name)
        back = load_model(tmp_path / name)
        assert (back.positive, back.negative) == ("sick", "well")
        assert back.schema.excluded == clf.excluded_ and back.settings["chosen"] == clf.chosen_
        assert main(["predict", str(tmp_path / name), str(rows), "--out", str(tmp_path / "p.csv")]) == 0
        got = pd.read_csv(tmp_path / "p.csv")
        np.testing.assert_allclose(got[["lower", "upper"]], want[["lower", "upper"]])
        assert got["decision"].tolist() == clf.predict(test).tolist()
    assert main(["explain", str(tmp_path / "m.json"), str(rows), "--out", str(tmp_path / "e.csv")]) == 0
    from plx_core.rules import features_text

    said = pd.read_csv(tmp_path / "e.csv")["features"].tolist()
    assert said == [features_text(e.features) for e in clf.explain_many(test)]


def test_a_model_file_refuses_what_it_cannot_hold_in_one_line(tmp_path):
    from plx_core import PLXClassifier

    X, y = _patients(120)
    X = X.drop(columns=["id", "seen"])
    named = X.rename(columns={"city": "label"})  # a feature called "label" stays a feature
    clf = PLXClassifier(positive="sick").fit(named, y)
    back = model_of(clf)
    assert back.schema.label == "label_" and "label" in back.schema.features
    assert back.schema.apply(named)[0]["label"].tolist() == named["label"].tolist()
    with pytest.raises(ModelFileError, match="not fitted"):
        save_model(PLXClassifier(), tmp_path / "m.json")
    with pytest.raises(ModelFileError, match="variant='bagged' answers with more than the one KB"):
        save_model(PLXClassifier(variant="bagged", positive="sick").fit(X, y), tmp_path / "m.json")
    assert not (tmp_path / "m.json").exists()


def test_class_weights_keyed_by_numpy_labels_save(tmp_path):
    # class weights keyed by the labels' own numpy values (dict(zip(np.unique(y), w)), as
    # scikit-learn's compute_class_weight is used) made save_model fail with a TypeError
    from plx_core import PLXClassifier

    X, y = _patients(120)
    X = X.drop(columns=["id", "seen"])
    yi = (y == "sick").astype(np.int64)
    clf = PLXClassifier(class_weight=dict(zip(np.unique(yi), [1.0, 3.0]))).fit(X, yi)
    save_model(clf, tmp_path / "m.json")
    back = load_model(tmp_path / "m.json")
    assert back.settings["class_weight"] == {"0": 1.0, "1": 3.0}
    assert back.positive == "1"


def _four_classes(n=160, seed=3):
    """A table of four classes set by two features (one numeric), with noise columns."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"shape": rng.choice(["round", "flat", "long"], n),
                      "weight": rng.normal(50, 15, n).round(1),
                      "tint": rng.choice(["a", "b"], n), "spare": rng.choice(list("xyz"), n)})
    y = np.where(X.shape == "round", np.where(X.weight > 50, "plum", "cherry"),
                 np.where(X.shape == "flat", "fig", "kiwi"))
    flip = rng.random(n) < 0.05
    y[flip] = rng.choice(["plum", "cherry", "fig", "kiwi"], int(flip.sum()))
    return X, y


@pytest.mark.parametrize("name", ["m.json", "m.npz"])
def test_a_model_of_several_classes_saves_and_answers_as_the_estimator(tmp_path, name):
    """Version 2: one member a class; the loaded file decides every row as predict does."""
    from plx_core import PLXClassifier
    from plx_core.cli import Model
    from plx_core.modelfile import ClassesModelFile

    X, y = _four_classes()
    clf = PLXClassifier().fit(X, y)
    save_model(clf, tmp_path / name)
    back = load_model(tmp_path / name)
    assert isinstance(back, ClassesModelFile)
    assert back.classes == ("cherry", "fig", "kiwi", "plum")
    assert [m.positive for m in back.members] == list(back.classes)
    assert [m.kb for m in back.members] == [clf._searched(i) for i in range(4)]
    new = X.sample(40, random_state=1).assign(weight=lambda d: d.weight.astype(object))
    new.iloc[0, 0] = np.nan  # a missing cell: answered from the others
    m = Model(back)
    pred = m.predict(m.schema.apply(new, label=False)[0])
    assert pred["decision"].tolist() == clf.predict(new).tolist()
    b = clf.bounds(new)
    for c in back.classes:
        assert np.allclose(pred[f"lower:{c}"], b[(c, "lower")])
        assert np.allclose(pred[f"upper:{c}"], b[(c, "upper")])
    assert (pred["runner_up"] != pred["decision"]).all()


def test_the_npz_of_several_classes_stores_their_shared_clauses_once(tmp_path):
    from plx_core import PLXClassifier

    X, y = _four_classes()
    save_model(PLXClassifier().fit(X, y), tmp_path / "m.npz")
    names = set(np.load(tmp_path / "m.npz").files)
    assert {"0.codes", "0.p", "3.p", "3.positives"} <= names and "1.codes" not in names


def _doc_of_classes(tmp_path):
    from plx_core import PLXClassifier

    X, y = _four_classes(160)
    save_model(PLXClassifier(variant="paper").fit(X, y), tmp_path / "m.json")
    return json.loads((tmp_path / "m.json").read_text())


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(version=4), "model version 4; this plx reads versions 1"),
    (lambda d: d.update(classes=["a", "a", "b", "c"]), "'classes' must list 3 or more distinct"),
    (lambda d: d["members"].pop(), "'members' must be a list of one model per class (4), not list of 3"),
    (lambda d: d.update(decision="vote"), "field 'decision' must be one of ['highest mean', 'highest vote'], not 'vote'"),
    (lambda d: d["members"].reverse(), "members[0] is the model of 'plum', but class 0 is 'cherry'"),
    (lambda d: d["members"][2].pop("negative"), "members[2] lacks the field ['negative']"),
    (lambda d: d["members"][1]["kb"].update(clauses=7), "members[1]: field 'kb'"),
    (lambda d: d["schema"].update(positive="fig"), "'schema.positive' must be null"),
    (lambda d: d.update(semantics="both"), "field 'semantics' must be one of"),
])
def test_a_malformed_model_of_several_classes_is_named_by_field(tmp_path, change, message):
    doc = _doc_of_classes(tmp_path)
    change(doc)
    with pytest.raises(ModelFileError) as err:
        load_model(json.dumps(doc).encode())
    assert message in str(err.value) and "\n" not in str(err.value)


def test_a_tampered_npz_of_several_classes_is_refused(tmp_path):
    from plx_core import PLXClassifier

    X, y = _four_classes(160)
    save_model(PLXClassifier(variant="paper").fit(X, y), tmp_path / "m.npz")
    raw = dict(np.load(tmp_path / "m.npz"))
    for drop, message in (("2.p", "missing array ['2.p']"),):
        buf = io.BytesIO()
        np.savez(buf, **{k: v for k, v in raw.items() if k != drop})
        with pytest.raises(ModelFileError, match=__import__("re").escape(message)):
            load_model(buf.getvalue())
    buf = io.BytesIO()
    np.savez(buf, **{**raw, "1.p": raw["1.p"][:-1]})
    with pytest.raises(ModelFileError, match="KB 1: array 'codes' has shape"):
        load_model(buf.getvalue())


def test_a_json_model_over_the_cap_is_refused_yet_can_be_read_once_to_keep_as_npz(model, tmp_path):
    """A JSON model larger than the JSON cap (one written before the cap was) is not lost: the
    refusal says how to read it once, and read so it is saved as npz, which reads back."""
    big = tmp_path / "old.json"
    save_model(model, big)
    cap = big.stat().st_size - 1
    with pytest.raises(ModelFileError, match=r"max_json_bytes=None\), 'model\.npz'\)"):
        load_model(big, max_json_bytes=cap)
    with pytest.raises(ModelFileError, match="no npz model"):
        load_model(big.read_bytes(), max_json_bytes=cap)
    kept = tmp_path / "model.npz"
    save_model(load_model(big, max_json_bytes=None), kept)
    assert load_model(kept, max_json_bytes=cap).kb == model.kb
