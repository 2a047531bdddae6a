"""KB values: literals, clause text, JSON, browsing, rules in `extra`."""

import json
import re

import numpy as np
import pytest
from paper import example2

from plx_core import (
    KB,
    ClauseSyntaxError,
    DataError,
    Literal,
    WeightedClause,
    direct_kb,
    parse_clause,
)


def test_clause_text_parses_all_syntaxes():
    c = parse_clause('[0.9, w=5] POS | ~a3=0 ∨ ¬"my feature"="x = y"')
    assert c.p == 0.9 and c.w == 5
    assert c.literals == (
        Literal("POS"),
        Literal("a3", "0", True),
        Literal("my feature", "x = y", True),
    )
    assert c.is_learned_form and c.head == 1
    assert parse_clause(c.to_text()) == c


def test_learned_and_general_clauses_round_trip_through_text_and_json():
    text = (
        "[0.6] ~alpha | POS\n[0.8] alpha\n[0.9, w=5, src=rule] POS | ~a3=0\n"
        "[0.3333333333333333, n=3, pos=1] POS | ~a1=0\n[0.5] ~POS | ~a1=1 | ~a3=0\n"
    )
    kb = KB.from_text(text)
    assert len(kb) == 5 and kb.n_learned == 2 and len(kb.extra) == 3
    assert kb.rules[0].id == "r1" and kb.rules[0].w == 5
    again = KB.from_text(kb.to_text())
    assert again == kb and again.to_text() == kb.to_text()
    via_json = KB.from_json(kb.to_json())
    assert via_json == kb
    assert via_json.clause(0).support == 3 and via_json.clause(0).p == pytest.approx(1 / 3, abs=0)


def test_direct_kb_round_trips_exactly():
    X, y = example2()
    kb = direct_kb(X, y)
    back = KB.from_text(kb.to_text())
    assert np.array_equal(back.p, kb.p) and np.array_equal(back.support, kb.support)
    assert KB.from_json(kb.to_json()).to_text() == kb.to_text()


@pytest.mark.parametrize(
    "line, message",
    [
        ("POS | ~a=1", "starts with its probability"),
        ("[1.5] POS", "outside [0, 1]"),
        ("[0.5, w=0] POS", "must be a finite number > 0"),
        ("[0.5, w=-1] POS", "must be a finite number > 0"),
        ("[x] POS", "not a number"),
        ("[0.5] POS ~a=1", "expected '|'"),
        ("[0.5] POS | ", "expected a literal"),
        ("[0.5] POS | a=", "needs a value"),
        ("[0.5, colour=red] POS", "unknown field"),
        ("[0.5 POS", "missing ']'"),
    ],
)
def test_malformed_clause_text_names_the_problem(line, message):
    with pytest.raises(ClauseSyntaxError, match=re.escape(message)) as err:
        KB.from_text("# a comment\n" + line)
    assert err.value.line == 2


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d["clauses"][1].update(p=2), r"clauses\[1\].*outside \[0, 1\]"),
        (lambda d: d["clauses"][0].update(w=0), r"clauses\[0\].*> 0"),
        (lambda d: d["clauses"][0].update(p="high"), r"clauses\[0\]: field 'p' must be a number"),
        (lambda d: d["clauses"][2].update(literals=[]), r"clauses\[2\]: field 'literals'"),
        (lambda d: d["clauses"][2].update(literals=["POS |"]), r"clauses\[2\]: field 'literals'"),
        (lambda d: d["clauses"][0].update(colour=1), r"unknown field"),
        (lambda d: d.update(format="other"), r"field 'format'"),
        (lambda d: d.update(clauses={}), r"field 'clauses' must be a list"),
    ],
)
def test_malformed_json_is_rejected_with_field(mutate, message):
    X, y = example2()
    doc = json.loads(direct_kb(X, y).to_json())
    mutate(doc)
    with pytest.raises(ClauseSyntaxError, match=message):
        KB.from_json(json.dumps(doc))


def test_json_errors_carry_the_line_of_the_clause():
    X, y = example2()
    text = direct_kb(X, y).to_json()
    lines = text.splitlines()
    lines[3] = lines[3].replace('"p": 0.5', '"p": 7')
    with pytest.raises(ClauseSyntaxError, match="line 4") as err:
        KB.from_json("\n".join(lines))
    assert "outside [0, 1]" in str(err.value)
    with pytest.raises(ClauseSyntaxError, match="invalid JSON"):
        KB.from_json('{"format": "plx-kb", ')


def test_weighted_clause_validation():
    with pytest.raises(DataError, match="outside"):
        WeightedClause((Literal("POS"),), p=-0.1)
    with pytest.raises(DataError, match="> 0"):
        WeightedClause((Literal("POS"),), p=0.5, w=0)
    with pytest.raises(DataError, match="at least one literal"):
        WeightedClause((), p=0.5)


def test_to_frame_lists_every_clause_with_its_numbers():
    X, y = example2()
    kb = direct_kb(X, y)
    kb.add(parse_clause("[0.9, w=5, src=rule] POS | ~a3=0"))
    frame = kb.to_frame()
    assert len(frame) == len(kb) == 60
    first = frame.iloc[0]
    assert first["clause"].endswith("POS | ~a1=0") and first["length"] == 1
    assert first["support"] == 3 and first["p"] == pytest.approx(1 / 3)
    rule = frame.iloc[-1]
    assert rule["source"] == "rule" and rule["w"] == 5 and rule["id"] == "r1"
    assert len(kb.to_frame(10, 20)) == 10


def test_rules_can_be_edited_disabled_and_removed():
    kb = KB.from_text("[0.9, src=rule] POS | ~a=1\n[0.2, src=rule] ~POS | ~a=0\n")
    assert [r.id for r in kb.rules] == ["r1", "r2"]
    kb.set_rule("r1", p=0.7, enabled=False)
    assert kb.rules[0].p == 0.7 and not kb.rules[0].enabled
    assert "off" in kb.to_text()
    kb.remove_rule("r2")
    assert [r.id for r in kb.rules] == ["r1"]
    with pytest.raises(DataError, match="no rule with id 'r9'"):
        kb.remove_rule("r9")


# --------------------------------------------------------------------------- the entry paths


def _doc(**over):
    X, y = example2()
    doc = json.loads(direct_kb(X, y).to_json())
    doc.update(over)
    return doc


@pytest.mark.parametrize("over, message", [
    ({"features": ["a1", "a1", "a2", "a3", "a4"]}, "lists 'a1' twice"),
    ({"kind": "direct\n[1] POS"}, "field 'kind'"),
    ({"max_len": True}, "field 'max_len'"),
    ({"positive": 1}, "field 'positive'"),
    ({"domains": {"a1": ["0", "0"]}}, "lists the value '0' twice"),
])
def test_malformed_kb_json_fields_are_named(over, message):
    with pytest.raises(ClauseSyntaxError, match=re.escape(message)):
        KB.from_json(json.dumps(_doc(**over)))


def test_a_newline_in_kind_never_reaches_the_clause_text():
    with pytest.raises(DataError, match="kind"):
        KB(("a",), {"a": ("0",)}, kind="direct\n[1] POS")
    kb = KB.from_json(json.dumps(_doc()))
    assert KB.from_text(kb.to_text()) == kb and len(KB.from_text(kb.to_text())) == len(kb)


def test_max_len_survives_text_and_json_round_trips():
    X, y = example2()
    kb = direct_kb(X, y, max_len=2)
    assert KB.from_text(kb.to_text()).max_len == 2 and KB.from_json(kb.to_json()).max_len == 2


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000])
def test_deeply_nested_json_is_one_clear_error(text):
    with pytest.raises(ClauseSyntaxError, match="nested too deeply|not valid JSON|must be an object"):
        KB.from_json(text)


@pytest.mark.parametrize("w", [1e308, 1e101, 1e-300])
def test_weights_outside_the_documented_range_are_refused_on_import(w):
    doc = _doc()
    doc["clauses"][0]["w"] = w
    with pytest.raises(ClauseSyntaxError, match=r"clauses\[0\].*w="):
        KB.from_json(json.dumps(doc))
    with pytest.raises(DataError, match="w="):
        WeightedClause((Literal("POS"),), 0.5, w)


def test_a_clause_of_100000_literals_reads_in_one_pass():
    n = 100_000
    feats = [f"f{i}" for i in range(n)]
    doc = {"format": "plx-kb", "version": 1, "features": feats, "domains": {f: ["1"] for f in feats},
           "clauses": [{"literals": ["POS"] + [f"~{f}=1" for f in feats], "p": 0.9}]}
    kb = KB.from_json(json.dumps(doc))
    assert kb.n_learned == 1 and int(kb.lengths[0]) == n
    rules = {"format": "plx-kb", "version": 1, "features": [], "domains": {},
             "clauses": [{"literals": ["POS"] + [f"{f}=1" for f in feats], "p": 0.9}]}
    kb2 = KB.from_json(json.dumps(rules))  # not learned-form: the general path, also linear
    assert len(kb2.extra) == 1 and len(kb2.features) == n


def test_json_line_numbers_are_found_only_for_an_error():
    X, y = example2()
    lines = direct_kb(X, y).to_json().splitlines()
    lines[20] = lines[20].replace('"p": ', '"p": "x", "q": ')
    with pytest.raises(ClauseSyntaxError, match="line 21: clauses"):
        KB.from_json("\n".join(lines))


def test_check_kb_matches_names_the_mismatch():
    from plx_core import check_kb_matches

    X, y = example2()
    kb = direct_kb(X, y, positive="1")
    assert kb.positive == "1"
    check_kb_matches(kb, X.columns, {c: X[c].unique() for c in X}, "1")
    check_kb_matches(kb, [*X.columns, "extra"], None, None)  # data may have more features
    with pytest.raises(DataError, match="POS stands for '1' but the data's positive class is '0'"):
        check_kb_matches(kb, X.columns, None, "0")
    with pytest.raises(DataError, match=r"feature \['a4'\] that the data lacks"):
        check_kb_matches(kb, ["a1", "a2", "a3"])
    with pytest.raises(DataError, match="value"):
        check_kb_matches(kb, X.columns, {"a1": ["0"]})
