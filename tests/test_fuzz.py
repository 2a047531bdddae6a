"""Hostile input to the clause text, KB JSON and query: a clear plx error or a result, never an
unhandled exception; export → import round trips are lossless."""

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paper import example2

from plx_core import KB, Literal, PLXError, WeightedClause, direct_kb, query

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ALPHABET = st.characters(codec="utf-8", exclude_categories=("Cs",))
names = st.text(ALPHABET, min_size=1, max_size=12)


@FUZZ
@given(st.text(ALPHABET, max_size=200))
def test_clause_text_never_crashes(text):
    try:
        KB.from_text(text)
    except PLXError:
        pass


@FUZZ
@given(st.lists(st.sampled_from(["[", "]", "0.5", "1", "w=", "2", ",", "|", "~", "¬", "∨", "POS",
                                 "a", "=", "b", '"x y"', "src=rule", "off", "n=3", "#", "\n", " "]),
                max_size=25))
def test_clause_text_made_of_tokens_never_crashes(tokens):
    try:
        KB.from_text("".join(tokens))
    except PLXError:
        pass


json_values = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=False) | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@FUZZ
@given(json_values, st.data())
def test_kb_json_import_never_crashes(value, data):
    X, y = example2()
    doc = json.loads(direct_kb(X, y).to_json())
    # graft a random value somewhere in a valid document
    where = data.draw(st.sampled_from(["root", "clause", "literals", "p", "w", "domains", "features"]))
    if where == "root":
        doc = value
    elif where == "clause":
        doc["clauses"][0] = value
    elif where == "literals":
        doc["clauses"][1]["literals"] = value
    elif where in ("p", "w"):
        doc["clauses"][2][where] = value
    else:
        doc[where] = value
    try:
        KB.from_json(json.dumps(doc))
    except PLXError:
        pass


@FUZZ
@given(st.binary(max_size=200))
def test_kb_json_bytes_never_crash(raw):
    try:
        KB.from_json(raw)
    except PLXError:
        pass


@FUZZ
@given(st.dictionaries(st.sampled_from(["a1", "a2", "a3", "a4", "zz", "POS", ""]) | names,
                       st.none() | st.floats() | st.integers() | st.text(max_size=5) | st.booleans(),
                       max_size=6))
def test_query_inputs_never_crash(q):
    X, y = example2()
    kb = direct_kb(X, y)
    try:
        b = query(kb, q)
    except PLXError:
        return
    assert 0.0 <= b.lower <= b.upper <= 1.0


literal = st.builds(Literal, names, st.none() | names, st.booleans())
clauses = st.builds(
    WeightedClause,
    st.lists(literal, min_size=1, max_size=4).map(tuple),
    st.floats(0, 1),
    st.floats(1e-3, 1e3),
    st.sampled_from(["data", "tree", "rule", "user"]),
    st.none() | st.integers(0, 10**6),
    st.none() | st.integers(0, 10**6),
    st.none(),
    st.booleans(),
)


@FUZZ
@given(st.lists(clauses, max_size=6))
def test_export_import_round_trip_is_lossless(cs):
    kb = KB()
    kb.add(cs)
    text_back = KB.from_text(kb.to_text())
    json_back = KB.from_json(kb.to_json())
    assert text_back.to_text() == kb.to_text() == json_back.to_text()
    for a, b in zip(kb, json_back):
        assert a.literals == b.literals and a.p == b.p and a.w == b.w and a.enabled == b.enabled
        assert (a.support, a.positives, a.source) == (b.support, b.positives, b.source)
    assert not any(math.isnan(c.p) for c in kb)


def test_nan_and_infinite_numbers_are_refused():
    with pytest.raises(PLXError):
        KB.from_text("[nan] POS")
    with pytest.raises(PLXError):
        KB.from_text("[0.5, w=inf] POS")
    with pytest.raises(PLXError):
        KB.from_json('{"format": "plx-kb", "version": 1, "clauses": [{"literals": ["POS"], "p": NaN}]}')


@pytest.mark.parametrize("text, message", [
    # fuzz17: a bad n= / pos= was a KeyError, a count past int64 an OverflowError
    ("[0.5, n=abc] POS | ~a=b", "support 'abc' is not a number"),
    ("[0.5, pos=1e999] POS | ~a=b", "positives '1e999' must be a finite number"),
    ("[0.5, n=99999999999999999999999] POS | ~a=b", "is not a count of rows"),
    ("[0.5, w=1" + "0" * 500 + "] POS", "must be a finite number > 0"),
    ("# state={\"n_rows\": " + "9" * 5000 + "}\n[0.5] POS", "bad header value"),
    ("# state=" + "[" * 100_000 + "\n[0.5] POS", "bad header value"),
])
def test_hostile_numbers_in_clause_text_are_one_clear_error(text, message):
    with pytest.raises(PLXError, match=message):
        KB.from_text(text)


@pytest.mark.parametrize("field, value, message", [
    ("support", 2**70, "support=1180591620717411303424 is not a count of rows"),
    ("positives", 10**400, "is not a count of rows"),
    ("w", 10**400, "p and w must be numbers"),
], ids=["support", "positives", "w"])
def test_hostile_numbers_in_kb_json_are_one_clear_error(field, value, message):
    X, y = example2()
    doc = json.loads(direct_kb(X, y).to_json())
    doc["clauses"][1][field] = value
    with pytest.raises(PLXError, match=message):
        KB.from_json(json.dumps(doc))
    doc["clauses"][1][field] = "N"  # a number past int()'s 4300 digits
    with pytest.raises(PLXError, match="number too long"):
        KB.from_json(json.dumps(doc).replace('"N"', "9" * 5000))
