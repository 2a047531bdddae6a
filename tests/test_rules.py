"""Expert rules: parsing, error positions, management, persistence and their effect."""

import json
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paper import as_query, example2

from plx_core import KB, ClauseSyntaxError, DataError, PLXError, direct_kb, query
from plx_core.explain import explain
from plx_core.kb import Literal
from plx_core.query import query_many
from plx_core.rules import (
    add_rules,
    conditions_text,
    disable_rule,
    edit_rule,
    enable_rule,
    list_rules,
    parse_conditions,
    parse_rules,
    remove_rule,
    replace_rule,
    rule_clause,
    rule_effect,
    rule_text,
    rules_text,
    with_rules,
)
from plx_core.ruleset import diff_rules

Q0101 = as_query("0101")


@pytest.fixture
def direct():
    X, y = example2()
    return direct_kb(X, y)


def lits(clause) -> list[str]:
    return [str(lit) for lit in clause.literals]


# --------------------------------------------------------------------------- parsing


def test_or_splits_and_and_builds_one_clause(direct):
    rules = parse_rules("IF a3=0 OR a4=0 THEN POS [p=0.9, w=5]\n"
                        "IF a1=1 AND a2=0 THEN NOT POS [p=0.8]", direct)
    assert [lits(c) for c in rules] == [["POS", "~a3=0"], ["POS", "~a4=0"],
                                        ["~POS", "~a1=1", "~a2=0"]]
    assert [(c.p, c.w, c.source) for c in rules] == [(0.9, 5.0, "rule")] * 2 + [(0.8, 1.0, "rule")]
    assert [c.id for c in rules] == ["r1.1", "r1.2", "r2"]


def test_the_papers_rule_as_raw_clauses_and_as_if_then():
    a = parse_rules("[0.9] POS | ~a3=0\n[0.9] POS ∨ ¬a4=0")
    b = parse_rules("IF a3=0 OR a4=0 THEN POS [0.9]")
    assert [c.literals for c in a] == [c.literals for c in b]
    assert all(c.source == "rule" and c.id is None for c in a + b)  # no KB: kb.add numbers them


def test_not_in_a_condition_gives_a_positive_literal(direct):
    (c,) = parse_rules("IF NOT a1=1 AND a2!=0 THEN POS [p=0.7]", direct)
    assert lits(c) == ["POS", "a1=1", "a2=0"]
    (d,) = parse_rules("IF NOT (a1=1 OR a2=0) THEN ~POS [p=0.7]", direct)  # De Morgan
    assert lits(d) == ["~POS", "a1=1", "a2=0"]


def test_parenthesised_or_of_ands(direct):
    rules = parse_rules("IF (a1=1 AND a2=0) OR a3=1 THEN POS [p=0.6, w=2, id=mine]", direct)
    assert [lits(c) for c in rules] == [["POS", "~a1=1", "~a2=0"], ["POS", "~a3=1"]]
    assert [c.id for c in rules] == ["mine.1", "mine.2"]
    rules = parse_rules("IF (a1=1 OR a2=0) AND a3=1 THEN POS [p=0.6]", direct)
    assert [lits(c) for c in rules] == [["POS", "~a1=1", "~a3=1"], ["POS", "~a2=0", "~a3=1"]]


def test_comments_blank_lines_keywords_and_options(direct):
    text = """
    # domain knowledge
    if a1=1 then pos [p=0.55]   # lower case is fine
    IF a2="1" THEN POS [p=0.5, w=2, off]
    """
    rules = parse_rules(text, direct)
    assert [lits(c) for c in rules] == [["POS", "~a1=1"], ["POS", "~a2=1"]]
    assert [c.enabled for c in rules] == [True, False]


def test_quoted_names_and_values():
    kb = KB(("age group", "x"), {"age group": ("[18, 30)", "≥30"), "x": ("a#b",)}, kind="direct")
    (c,) = parse_rules('IF "age group"="[18, 30)" AND x="a#b" THEN POS [p=0.8]  # note', kb)
    assert c.literals[1] == Literal("age group", "[18, 30)", True)
    assert c.literals[2] == Literal("x", "a#b", True)
    assert parse_rules(rule_text(c), kb)[0].literals == c.literals


@pytest.mark.parametrize("text, line, column, message", [
    ("IF a9=0 THEN POS [p=0.9]", 2, 4, "unknown feature 'a9'"),
    ("IF a1=7 THEN POS [p=0.9]", 2, 7, "feature 'a1' has no value '7'; its values are 0, 1"),
    ("IF a1=0 AND a2=1 OR a3=0 THEN POS [p=0.9]", 2, 18, "OR after AND (column 9) without parentheses"),
    ("IF a1=0 THEN POS", 2, 17, "needs a probability"),
    ("IF a1=0 THEN POS [p=1.5]", 2, 21, "p=1.5 is outside [0, 1]"),
    ("IF a1=0 THEN POS [p=0.5, w=0]", 2, 28, "w=0 must be a finite number > 0"),
    ("IF a1=0 THEN POS [p=0.5, q=1]", 2, 26, "unknown field"),
    ("a1=0 THEN POS [p=0.5]", 2, 1, "a rule starts with IF"),
    ("[0.9] POS | ~a3=5", 2, 17, "feature 'a3' has no value '5'"),
    ("[0.9] POS | ~a3", 2, 14, "'a3' is a feature"),
    ("IF a1 THEN POS [p=1]", 2, 7, "needs '=' and a value"),
    ("IF a1=0 AND a1=1 THEN POS [p=1]", 2, 13, "a1 cannot be both 0 and 1"),
    ("IF (a1=0 THEN POS [p=1]", 2, 10, "missing ')'"),
    ("IF a1=0 THEN POSS [p=1]", 2, 14, "must be POS or NOT POS"),
    ("IF a1=0 THEN POS NOW [p=1]", 2, 18, "unexpected 'NOW'"),
    ("IF a1=0 POS [p=1]", 2, 9, "expected THEN"),
    ("IF a1=0 THEN POS [p=1", 2, 22, "missing ']'"),
])
def test_errors_point_at_the_token(direct, text, line, column, message):
    with pytest.raises(ClauseSyntaxError) as exc:
        parse_rules("# first line\n" + text, direct)
    assert (exc.value.line, exc.value.column) == (line, column)
    assert message in str(exc.value)
    assert str(exc.value).startswith(f"line {line}, column {column}: ")


def test_suggestions_for_typos(direct):
    with pytest.raises(ClauseSyntaxError, match="did you mean 'a1'"):
        parse_rules("IF a11=0 THEN POS [p=1]", direct)


def test_without_a_kb_nothing_is_validated_but_syntax():
    (c,) = parse_rules("IF colour=red THEN POS [p=0.9]")
    assert lits(c) == ["POS", "~colour=red"]


@pytest.mark.parametrize("text, line, message", [
    ("IF a1=0 AND a2=1 THEN POS [p=0.9]\n# a note\nIF a2 = 1 AND a1=0 THEN POS [p=0.6, w=3]", 3,
     "the rule IF a2=1 AND a1=0 THEN POS repeats line 1: keep one"),
    ("IF a3=1 THEN NOT POS [p=0.8]\nIF a2=0 OR a3=1 THEN NOT POS [p=0.7]", 2,
     "IF a3=1 THEN NOT POS (a part of this line's OR rule) repeats line 1"),
    ("[0.9] POS | ~a1=1\nIF a1=1 THEN POS [p=0.2, off]", 2, "repeats line 1"),
])
def test_a_rule_written_twice_is_named_by_both_lines(direct, text, line, message):
    """A rule whose conditions and conclusion repeat an earlier line counts its weight twice
    (a pasted block, a rules file edited in two places): refused naming its line, the rule and
    the line it repeats, with a KB and without one."""
    for kb in (direct, None):
        with pytest.raises(ClauseSyntaxError, match=re.escape(message)) as exc:
            parse_rules(text, kb)
        assert exc.value.line == line and str(exc.value).startswith(f"line {line}: ")


def test_a_rule_already_in_the_kb_is_named_by_its_line_and_id(direct):
    kb = direct.with_rules(parse_rules("IF a1=0 THEN POS [p=0.9]", direct))
    with pytest.raises(ClauseSyntaxError, match=r"^line 2: the rule IF a1=0 THEN POS is already "
                       r"in the model as r1: edit its p or w instead"):
        parse_rules("IF a2=1 THEN POS [p=0.5]\nIF a1 = 0 THEN POS [p=0.1]", kb)
    same_body = parse_rules("IF a1=0 THEN NOT POS [p=0.9]\nIF a1=0 AND a2=1 THEN POS [p=0.9]", kb)
    assert len(same_body) == 2  # the other conclusion, or one condition more: other rules


def test_duplicate_ids_are_refused(direct):
    add_rules(direct, "IF a1=0 THEN POS [p=0.9, id=x]")
    with pytest.raises(ClauseSyntaxError, match="rule id 'x' is already used") as exc:
        parse_rules("IF a2=0 THEN POS [p=0.9, id=x]", direct)
    assert exc.value.column == 29


def test_an_id_with_dots_keeps_its_or_rule_whole(direct):
    # an OR rule's parts are `<id>.1`, `<id>.2`: only the last `.N` names the part, so a rule
    # `clinic.v2` stays one rule beside a rule `clinic` in the list, the text and edits
    text = ("IF a1=1 OR a2=0 THEN POS [p=0.9, id=clinic.v2]\n"
            "IF a3=1 THEN POS [p=0.6, id=clinic]\n")
    rules = parse_rules(text, direct)
    assert [c.id for c in rules] == ["clinic.v2.1", "clinic.v2.2", "clinic"]
    listed = list_rules(rules)
    assert listed["id"].tolist() == ["clinic.v2", "clinic"]
    assert listed["n_clauses"].tolist() == [2, 1]
    assert rules_text(rules) == text
    assert diff_rules([], rules).summary() == "added clinic.v2, clinic"
    kb = with_rules(direct, rules)
    remove_rule(kb, "clinic.v2")
    assert [c.id for c in kb.rules] == ["clinic"]


def test_rule_text_round_trip(direct):
    text = "IF (a1=1 AND a2=0) OR NOT a3=1 THEN NOT POS [p=0.7, w=2]"
    rules = parse_rules(text, direct)
    assert rule_text(rules) == text
    again = parse_rules(rule_text(rules), direct)
    assert [c.literals for c in again] == [c.literals for c in rules]


# --------------------------------------------------------------------------- one grammar

ALPHABET = st.characters(codec="utf-8", exclude_categories=("Cs",))
NAMES = st.text(ALPHABET, max_size=10) | st.sampled_from(
    ["x!", "a = b", "worst radius", "[13.5, 16.82)", "POS", "not", "and", "&", "'q'", "a\u2028b",
     "a\x85b", "#1", "a|b", "~a", "¬", "x!=1", "p", "off", "", " ", '"', "\\", "∧", "a:b",
     "<0", "≥7", "<a", "<0]", "<5"])  # values written like a bin (a censored lab category)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(conds=st.lists(st.tuples(NAMES, NAMES, st.booleans()), min_size=1, max_size=4,
                      unique_by=lambda c: c[0]),
       head=st.booleans(), p=st.floats(0, 1), w=st.floats(1e-6, 1e6), on=st.booleans())
def test_any_rule_reads_back_as_itself(conds, head, p, w, on):
    """parse(render(rule)) == rule and render(parse(text)) == text for any names and values."""
    lit = [Literal("POS", None, head)] + [Literal(f, v, not neg) for f, v, neg in conds]
    rule = parse_rules("[0.5] POS")[0].__class__(tuple(lit), p, w, "rule", id="r7", enabled=on)
    text = rule_text(rule, with_id=True)
    back = parse_rules(text)
    assert len(back) == 1 and back[0] == rule
    assert rule_text(back[0], with_id=True) == text
    assert "\u2028" not in text and "\x85" not in text  # line separators are escaped
    assert parse_rules(rules_text([rule])) == [rule]


@pytest.mark.parametrize("values", [["<5"], [">100"], ["<5", ">100"], ["<a", "≥b"], ["<5", "≥5"]])
def test_a_rule_on_categories_written_like_bins_reads_back(values):
    """A lab column of only `<5` and `>100` stays categories: a rule on them is saved and read
    back as the same clauses with the model (a single `<5` was written `crp < 5`, which the model
    refused as 'not binned as numbers'; two values `<a`, `≥b` crashed the writer)."""
    rng = np.random.default_rng(3)
    crp = rng.choice(["<5", ">100", "<a", "≥b", "≥5"], 120)
    kb = direct_kb(pd.DataFrame({"crp": crp, "ward": rng.choice(["A", "B"], 120)}),
                   rng.random(120) < 0.3)
    text = "IF " + " OR ".join(f'crp="{v}"' for v in values) + " THEN POS [p=0.9]"
    rules = parse_rules(text, kb)
    saved = rules_text(rules)
    assert parse_rules(saved, kb) == rules
    assert parse_rules(saved) == rules  # without the model too
    assert {lit.value for c in rules for lit in c.literals if lit.atom == "crp"} == set(values)


@FUZZ
@given(st.lists(st.tuples(NAMES, NAMES), min_size=1, max_size=4))
def test_any_conditions_read_back(pairs):
    text = conditions_text(pairs)
    assert parse_conditions(text) == pairs
    assert conditions_text(parse_conditions(text)) == text


def test_a_rule_on_x_bang_does_not_read_as_not_equal():
    rule = rule_clause([("x!", "1")], "POS", 0.9, 2, "r1")
    kb = KB(("x!",), {"x!": ("0", "1")}).with_rules([rule])
    shown = list_rules(kb)["rule"].iloc[0]
    assert shown == 'IF "x!"=1 THEN POS [p=0.9, w=2]'
    assert parse_rules(shown) == [rule.__class__(rule.literals, 0.9, 2.0, "rule")]
    # and x!=1 still means "x is not 1"
    assert [str(x) for x in parse_rules("IF x!=1 THEN POS [p=0.9]")[0].literals] == ["POS", "x=1"]


def test_bin_labels_and_names_with_symbols_in_the_conditions_field():
    assert parse_conditions("worst radius=[13.5, 16.82)") == [("worst radius", "[13.5, 16.82)")]
    assert parse_conditions('"worst radius"="[13.5, 16.82)" AND b=1, c=(1, 2]') == [
        ("worst radius", "[13.5, 16.82)"), ("b", "1"), ("c", "(1, 2]")]
    assert parse_conditions("area=≥50 & x=1") == [("area", "≥50"), ("x", "1")]
    doms = {"a = b": ("1",), "a": ("x",)}
    assert parse_conditions("a = b=1", doms) == [("a = b", "1")]  # the reading the data knows
    assert parse_conditions('"a = b"=1') == [("a = b", "1")]
    assert parse_conditions("t=>=22.47", {"t": (">=22.47",)}) == [("t", ">=22.47")]
    with pytest.raises(ClauseSyntaxError, match="quote the name"):
        parse_conditions("a = b=1", {"a = b": ("1",), "a": ("b=1",)})
    for bad, msg in [("a=1 OR b=2", "OR"), ("NOT a=1", "NOT"), ("a!=1", "NOT"),
                     ("a=1 AND", "empty condition"), ('a="x', "closing")]:
        with pytest.raises(ClauseSyntaxError, match=msg):
            parse_conditions(bad)


def test_line_separators_inside_quotes_stay_in_the_name():
    text = 'IF "a\u2028b"=1 AND "c\x85d"="v\u2029" THEN POS [p=0.9]'
    [rule] = parse_rules(text)
    assert [(lit.atom, lit.value) for lit in rule.literals[1:]] == [("a\u2028b", "1"), ("c\x85d", "v\u2029")]
    assert parse_rules(rule_text(rule)) == [rule]
    assert parse_rules("IF a=1 THEN POS [p=0.9]\r\nIF b=1 THEN POS [p=0.8]\rIF c=1 THEN POS [p=0.7]")[2].p == 0.7


def test_clause_text_and_rules_share_keywords_and_case_rules():
    for off in ("off", "OFF", "disabled", "Disabled"):
        assert parse_rules(f"IF a=1 THEN POS [P=0.9, W=2, {off}]")[0].enabled is False
        assert parse_rules(f"[0.9, W=2, {off}] pos | ~a=1")[0].enabled is False
        assert KB.from_text(f"[0.9, w=2, {off}] POS | ~a=1").extra[0].enabled is False
    assert str(parse_rules("[0.9] POS | a!=1")[0].literals[1]) == "~a=1"  # != in clause text too
    with pytest.raises(ClauseSyntaxError, match="given twice"):
        parse_rules("IF a=1 THEN POS [p=0.9, p=0.8]")
    with pytest.raises(ClauseSyntaxError, match="not allowed here"):
        parse_rules("IF a=1 THEN POS [p=0.9, src=data]")


def test_with_rules_shares_the_learned_block_and_its_index(direct):
    idx = direct.index()
    with_r = direct.with_rules(parse_rules("IF a1=1 THEN POS [p=0.9, w=5]", direct))
    assert with_r.index() is idx and len(direct.rules) == 0 and [c.id for c in with_r.rules] == ["r1"]
    assert with_r.without_rules().index() is idx
    again = with_rules(with_r, "IF a2=1 THEN NOT POS [p=0.8, w=30]", replace=True)
    assert [rule_text(c) for c in again.rules] == ["IF a2=1 THEN NOT POS [p=0.8, w=30]"]
    assert query(again, Q0101).mean == pytest.approx(0.2) and query(direct, Q0101).mean == 0.5
    # a rule naming a new value re-indexes the copy only
    grown = direct.with_rules([rule_clause([("a1", "9")], "POS", 0.9, 1)])
    assert grown.domains["a1"][-1] == "9" and "9" not in direct.domains["a1"]
    assert query(grown, Q0101).mean == query(direct, Q0101).mean


def test_rules_text_round_trips_a_kbs_rules(direct):
    add_rules(direct, "IF a3=0 OR (a4=0 AND NOT a1=1) THEN POS [p=0.9, w=5]\n"
                      "IF a1=1 THEN NOT POS [p=0.8, off]\n[0.6, w=3] POS | a2=0")
    text = rules_text(direct)
    back = parse_rules(text, direct.without_rules())
    assert back == direct.rules


# --------------------------------------------------------------------------- hostile rule text


def test_deep_nesting_is_one_clear_error_not_a_recursion_error():
    with pytest.raises(ClauseSyntaxError, match="nested more than"):
        parse_rules("IF " + "(" * 3000 + "a=1" + ")" * 3000 + " THEN POS [p=0.9]")
    [rule] = parse_rules("IF " + "NOT " * 3001 + "a=1 THEN POS [p=0.9]")  # odd: NOT a=1
    assert str(rule.literals[1]) == "a=1"


def test_long_and_chains_parse_in_one_pass_and_huge_ones_are_refused():
    n = 5000
    [rule] = parse_rules("IF " + " AND ".join(f"a{i}=1" for i in range(n)) + " THEN POS [p=0.9]")
    assert len(rule.literals) == n + 1
    with pytest.raises(ClauseSyntaxError, match="conditions; at most"):
        parse_rules("IF " + " AND ".join(["a=1"] * 10**5) + " THEN POS [p=0.9]")
    with pytest.raises(ClauseSyntaxError, match="characters; at most"):
        parse_rules("IF " + " AND ".join(f"a{i}=1" for i in range(10**5)) + " THEN POS [p=0.9]")
    with pytest.raises(ClauseSyntaxError, match="characters; at most"):
        parse_rules("IF a=1 THEN POS [p=0.9]\n" * 50_000)


@pytest.mark.parametrize("w", ["1e308", "inf", "nan", "1e101", "0", "1e-101", "-1"])
def test_weights_outside_the_documented_range_are_refused_at_the_door(w):
    with pytest.raises(ClauseSyntaxError, match="w="):
        parse_rules(f"IF a=1 THEN POS [p=0.9, w={w}]")
    with pytest.raises(PLXError):
        KB.from_text(f"[0.9, w={w}] POS | ~a=1")
    with pytest.raises(PLXError):
        rule_clause([("a", "1")], "POS", 0.9, float(w))


# --------------------------------------------------------------------------- management


def test_list_edit_disable_remove(direct):
    ids = add_rules(direct, "IF a3=0 OR a4=0 THEN POS [p=0.9, w=5]\nIF a1=1 THEN NOT POS [p=0.8]")
    assert ids == ["r1.1", "r1.2", "r2"]
    table = list_rules(direct)
    assert list(table["id"]) == ["r1", "r2"] and list(table["n_clauses"]) == [2, 1]
    assert table["rule"].iloc[0] == "IF a3=0 OR a4=0 THEN POS [p=0.9, w=5]"
    edit_rule(direct, "r1", w=6)
    assert [c.w for c in direct.rules] == [6.0, 6.0, 1.0]
    disable_rule(direct, "r1")
    assert list(list_rules(direct)["enabled"]) == [False, True]
    assert query(direct, Q0101).mean == 0.5  # disabled rules do not count
    enable_rule(direct, "r1")
    assert query(direct, Q0101).mean == pytest.approx(0.9)
    edit_rule(direct, "r1.2", p=0.1)  # one clause of the OR rule
    assert [c.p for c in direct.rules] == [0.9, 0.1, 0.8]
    new = replace_rule(direct, "r2", "IF a1=1 AND a2=1 THEN NOT POS [p=0.7]")
    assert new == ["r2"] and lits(direct.rules[-1]) == ["~POS", "~a1=1", "~a2=1"]
    with pytest.raises(ClauseSyntaxError):
        replace_rule(direct, "r2", "IF a1=9 THEN POS [p=1]")
    assert [c.id for c in direct.rules] == ["r1.1", "r1.2", "r2"]  # unchanged on error
    remove_rule(direct, "r1")
    assert [c.id for c in direct.rules] == ["r2"]
    with pytest.raises(DataError, match="no rule with id 'r1'"):
        remove_rule(direct, "r1")
    with pytest.raises(DataError, match="replace_rule"):
        edit_rule(direct, "r2", literals=())


def test_rules_are_saved_and_loaded_with_the_kb(direct):
    add_rules(direct, "IF a3=0 OR a4=0 THEN POS [p=0.9, w=5]\n"
                      "IF NOT a1=1 THEN NOT POS [p=0.8, off]\n"
                      "[0.6, w=2] POS | a2=0 | ~a3=1")
    for back in (KB.from_json(direct.to_json()), KB.from_text(direct.to_text())):
        assert [c.to_text() for c in back.rules] == [c.to_text() for c in direct.rules]
        assert list_rules(back).equals(list_rules(direct))
        for bits in ("0101", "1111", "0000"):
            assert query(back, as_query(bits)).mean == query(direct, as_query(bits)).mean
    doc = json.loads(direct.to_json())
    rules = [c for c in doc["clauses"] if c.get("source") == "rule"]
    assert [c["id"] for c in rules] == ["r1.1", "r1.2", "r2", "r3"]
    assert rules[2]["enabled"] is False


# --------------------------------------------------------------------------- in queries


def test_a_rule_moves_0101_to_positive_by_the_amount_the_lp_says(direct):
    before = query(direct, Q0101)
    assert (before.lower, before.upper) == (0.5, 0.5) and not before.positive
    add_rules(direct, "IF a3=0 OR a4=0 THEN POS [p=0.9, w=5]")
    fast = query(direct, Q0101)
    lp = query(direct, Q0101, method="lp")
    # a3=0 holds, so the rule's first clause is a median term (0.9, w=5); the second is
    # satisfied by a4=1 and drops out. Weight ≤ 0.5 is exactly half of 14: [0.5, 0.9].
    assert (fast.lower, fast.upper) == (0.5, 0.9) and fast.positive and fast.method == "median"
    assert (lp.lower, lp.upper) == pytest.approx((fast.lower, fast.upper), abs=1e-7)
    assert lp.method == "lp" and lp.positive
    edit_rule(direct, "r1", w=6)
    assert query(direct, Q0101).mean == 0.9 == pytest.approx(query(direct, Q0101, method="lp").mean)


def test_a_not_pos_rule_moves_1111_down_as_the_lp_says(direct):
    add_rules(direct, "IF a1=1 AND a2=1 THEN NOT POS [p=0.95, w=20]")
    q = as_query("1111")
    fast, lp = query(direct, q), query(direct, q, method="lp")
    assert fast.mean == pytest.approx(0.05) and not fast.positive
    assert (lp.lower, lp.upper) == pytest.approx((fast.lower, fast.upper), abs=1e-7)


def test_a_rule_counts_exactly_as_the_same_learned_clause(direct):
    from dataclasses import replace

    (rule,) = parse_rules("IF a2=1 AND a4=1 THEN NOT POS [p=0.7, w=4]", direct)
    as_rule, as_data = direct.copy(), direct.copy()
    as_rule.add(rule)
    as_data.add(replace(rule, source="data", id=None))
    assert as_rule.n_learned == direct.n_learned and as_data.n_learned == direct.n_learned + 1
    for bits in ("0101", "1111", "01-1", "-1-1", "0---"):
        for sem in ("relevant", "full"):
            a = query(as_rule, as_query(bits), semantics=sem)
            b = query(as_data, as_query(bits), semantics=sem)
            assert (a.lower, a.upper) == pytest.approx((b.lower, b.upper), abs=1e-9)


def test_a_rule_is_relevant_only_when_the_query_settles_its_literals(direct):
    base = query(direct, as_query("01--"))
    add_rules(direct, "IF a3=0 THEN POS [p=0.9, w=50]")
    assert query(direct, as_query("01--")).n_relevant == base.n_relevant  # a3 open: not relevant
    assert query(direct, as_query("010-")).mean == pytest.approx(0.9)  # a3=0: relevant, heavy
    settled_true = query(direct, as_query("011-"))
    assert settled_true.mean == query(direct.without_rules(), as_query("011-")).mean
    # in explanations the rule counts for exactly the sub-queries that keep a3
    plain = {c.features: c.mean for c in explain(direct.without_rules(), Q0101, k=1).candidates}
    ruled = {c.features: c.mean for c in explain(direct, Q0101, k=1).candidates}
    assert ruled[("a3",)] == pytest.approx(0.9)
    assert {f: m for f, m in ruled.items() if f != ("a3",)} == {
        f: m for f, m in plain.items() if f != ("a3",)}


def test_positive_literal_rules_need_the_full_lp_only_when_open(direct):
    add_rules(direct, "IF NOT a3=1 THEN POS [p=0.9, w=5]")  # POS ∨ a3=1
    b = query(direct, Q0101)  # a3=0: a3=1 is false, the clause reduces to POS
    assert b.method == "median" and b.upper == pytest.approx(0.9)
    full = query(direct, as_query("01-1"), semantics="full")
    assert full.method == "lp"


def test_inconsistent_rules_still_answer(direct):
    add_rules(direct, "IF a1=0 THEN POS [p=1, w=3]\nIF a1=0 THEN NOT POS [p=1, w=3]")
    b = query(direct, Q0101)
    assert 0.0 <= b.lower <= b.upper <= 1.0
    assert b.inconsistency > query(direct.without_rules(), Q0101).inconsistency + 2.9
    lp = query(direct, Q0101, method="lp")
    assert (lp.lower, lp.upper) == pytest.approx((b.lower, b.upper), abs=1e-7)
    X, y = example2()
    eff = rule_effect(direct, None, X, y)  # the KB's rules vs none
    assert eff.inconsistency_added > 1.0 and eff.n == 8 and eff.n_flipped == 0


# --------------------------------------------------------------------------- rule effect


def test_rule_effect_on_the_paper_rows(direct):
    X, y = example2()
    rules = "IF a3=0 OR a4=0 THEN POS [p=0.9, w=5]"
    eff = rule_effect(direct, rules, X, y)
    after = direct.copy()
    add_rules(after, rules)
    p0, p1 = query_many(direct, X).positive, query_many(after, X).positive
    yb = np.array(y) == 1
    assert eff.accuracy_before == pytest.approx((p0 == yb).mean())
    assert eff.accuracy_after == pytest.approx((p1 == yb).mean())
    assert (eff.accuracy_before, eff.accuracy_after) == (0.625, 0.75)
    assert (eff.f1_before, eff.f1_after) == pytest.approx((0.4, 2 / 3))
    assert eff.n_flipped == 1 and eff.n_fixed == 1 and eff.n_broken == 0
    flip = eff.flips.iloc[0]
    assert flip["row"] == 3 and flip["label"] == 1  # 1100, positive
    assert (flip["mean_before"], flip["mean_after"]) == pytest.approx((0.5, 2 / 3))
    per_row = [query(after, X.iloc[i].to_dict()).inconsistency
               - query(direct, X.iloc[i].to_dict()).inconsistency for i in range(8)]
    assert eff.inconsistency_added == pytest.approx(np.mean(per_row))
    assert direct.rules == []  # the KB itself is left alone
    d = json.loads(json.dumps(eff.to_dict()))
    assert d["n_flipped"] == 1 and d["flips"][0]["row"] == "3"
    assert "1 of 8 decisions flip" in eff.summary()


def test_rule_effect_on_a_small_synthetic_split():
    from plx_core.datasets import synthetic

    ds = synthetic(8, 3, 400, seed=1)
    X_tr, X_te, y_tr, y_te = ds.split(0.3, seed=1)
    kb = direct_kb(X_tr, y_tr, positive="1")
    seed = ds.truth
    # a heavy rule: matching the seed at the first two places makes a row positive
    rule = f"IF a1={seed[0]} AND a2={seed[1]} THEN POS [p=0.9, w=300]"
    eff = rule_effect(kb, rule, X_te, y_te, inconsistency=False)
    assert eff.inconsistency_added is None
    assert eff.n == len(X_te) and eff.n_flipped == eff.n_fixed + eff.n_broken >= 5
    moved = (X_te["a1"] == seed[0]) & (X_te["a2"] == seed[1])
    assert set(eff.flips["row"]) <= set(X_te.index[moved])
    assert (eff.flips["positive_after"]).all()  # the rule only pushes up
    y = (y_te.to_numpy() == "1")
    pred = query_many(kb, X_te).positive
    pred[np.isin(X_te.index, eff.flips["row"])] = True
    assert eff.accuracy_after == pytest.approx((pred == y).mean())


# --------------------------------------------------------------------------- comparisons on numbers

CUTS = (2.5, 6.0)


@pytest.fixture(scope="module")
def numeric():
    """A Direct KB learned on a small table whose number column x is cut at 2.5 and 6."""
    import pandas as pd

    from plx_core.data import Binning, bin_labels

    rng = np.random.default_rng(7)
    x = rng.uniform(0, 10, 120).round(1)
    x[:3] = [2.5, 6.0, 5.9]  # a value at a cut point lies in the bin above it
    y = ((x >= 6) ^ (rng.random(120) < 0.2)).astype(int)
    binned = Binning("mdlp", CUTS, bin_labels(CUTS)).apply(pd.Series(x, name="x"))
    X = pd.DataFrame({"x": binned, "colour": rng.choice(["red", "blue"], 120)})
    return direct_kb(X, y), X


@pytest.mark.parametrize("typed, bins, shown", [
    ("IF x >= 6 THEN POS [p=0.95, w=30]", "IF x=≥6 THEN POS [p=0.95, w=30]",
     "IF x >= 6 THEN POS [p=0.95, w=30]"),
    ("IF x<2.5 THEN NOT POS [p=0.9, w=30]", "IF x=<2.5 THEN NOT POS [p=0.9, w=30]",
     "IF x < 2.5 THEN NOT POS [p=0.9, w=30]"),
    ('IF "x" ≥ 2.5 AND colour=red THEN NOT POS [p=0.9, w=30]',
     'IF (x="[2.5, 6)" AND colour=red) OR (x=≥6 AND colour=red) THEN NOT POS [p=0.9, w=30]',
     "IF x >= 2.5 AND colour=red THEN NOT POS [p=0.9, w=30]"),
    ("IF NOT x≥6 THEN NOT POS [p=0.9, w=30]",
     'IF x=<2.5 OR x="[2.5, 6)" THEN NOT POS [p=0.9, w=30]',
     "IF x < 6 THEN NOT POS [p=0.9, w=30]"),
    ("IF x >= 2.5 AND x < 6 THEN POS [p=0.99, w=30]", 'IF x="[2.5, 6)" THEN POS [p=0.99, w=30]',
     'IF x="[2.5, 6)" THEN POS [p=0.99, w=30]'),  # one middle bin reads best as itself
])
def test_a_comparison_is_its_bins_and_the_lp_answers_alike(numeric, typed, bins, shown):
    """`x >= 6` on a model that cuts x at 2.5 and 6 is the rule on the bins at and above 6:
    the same clauses, the same bounds on every row, and it is shown (and saved) as the
    comparison, which reads back as those bins."""
    kb, X = numeric
    a, b = parse_rules(typed, kb), parse_rules(bins, kb)
    assert [lits(c) for c in a] == [lits(c) for c in b]
    assert rule_text(a) == rule_text(b) == shown
    kb_a = kb.with_rules(a)
    again = parse_rules(rules_text(kb_a), kb)  # what rules.txt keeps reads back as itself
    assert [lits(c) for c in again] == [lits(c) for c in a]
    with_a, with_b, plain = (query_many(k, X) for k in (kb_a, kb.with_rules(b), kb))
    assert np.array_equal(with_a.lower, with_b.lower) and np.array_equal(with_a.upper, with_b.upper)
    assert not np.array_equal(with_a.lower, plain.lower)  # the rule does move answers


def test_a_threshold_a_bin_straddles_is_refused_with_the_cuts(numeric):
    kb, _ = numeric
    cases = {
        "IF x > 4 THEN POS [p=0.9]": "line 1, column 4: x > 4: 4 falls inside the bin [2.5, 6); "
                                     "the model cuts x at 2.5 and 6 — write x >= 2.5 or x >= 6",
        "IF colour=red AND x>=11 THEN POS [p=0.9]":
            "line 1, column 19: x >= 11: 11 falls inside the bin ≥6; the model cuts x at 2.5 "
            "and 6 — write x >= 6",
        # bins hold their lower edge: x <= 6 and x > 6 cannot be told from x < 6 / x >= 6
        "IF x <= 6 THEN POS [p=0.9]": "line 1, column 4: x <= 6: the bin ≥6 holds 6 and the "
                                      "numbers just above it, so the rule cannot tell x = 6 from "
                                      "x > 6; the model cuts x at 2.5 and 6 — write x < 6",
        "IF x > 2.5 THEN POS [p=0.9]": "line 1, column 4: x > 2.5: the bin [2.5, 6) holds 2.5 "
                                       "and the numbers just above it, so the rule cannot tell "
                                       "x = 2.5 from x > 2.5; the model cuts x at 2.5 and 6 — "
                                       "write x >= 2.5 or x >= 6",
    }
    for text, message in cases.items():
        with pytest.raises(ClauseSyntaxError) as err:
            parse_rules(text, kb)
        assert str(err.value) == message
    assert [lits(c) for c in parse_rules("IF x < 6 THEN POS [p=0.9]", kb)] == [
        ["POS", "~x=<2.5"], ["POS", '~x="[2.5, 6)"']]


def test_a_comparison_does_not_fire_on_a_missing_value(numeric):
    kb, _ = numeric
    rule = parse_rules("IF x >= 6 THEN POS [p=0.99, w=1000]", kb)
    with_rule = kb.with_rules(rule)
    for q in ({"colour": "red"}, {}):  # x unknown: the rule is not used
        a, b = query(with_rule, q), query(kb, q)
        assert (a.lower, a.upper) == pytest.approx((b.lower, b.upper))
    assert query(with_rule, {"x": "≥6", "colour": "red"}).lower > query(
        kb, {"x": "≥6", "colour": "red"}).lower


@pytest.mark.parametrize("text, kb_given, message", [
    ("IF x > 6 THEN POS [p=0.9]", False, "no model is given"),
    ("IF colour > 1 THEN POS [p=0.9]", True,
     "colour > 1: 'colour' is not binned as numbers in this model (its values are"),
    ("IF x >= six THEN POS [p=0.9]", True, "x >= six: a comparison needs a number after >="),
    # a value no number reads, on a column not binned as numbers (a date's '2021-01-01'):
    # the column is what is wrong, not the number (it said "needs a number, e.g. colour > 7")
    ("IF colour >= 2021-01-01 THEN POS [p=0.9]", True, "'colour' is not binned as numbers"),
    ("IF z >= 6 THEN POS [p=0.9]", True, "unknown feature 'z'"),
    ("IF x > THEN POS [p=0.9]", True, "a comparison needs a number after >"),
])
def test_comparisons_without_number_bins_are_refused(numeric, text, kb_given, message):
    with pytest.raises(ClauseSyntaxError, match=re.escape(message)):
        parse_rules(text, numeric[0] if kb_given else None)


def test_a_comparison_on_a_count_kept_as_levels_is_its_values_on_that_side():
    """A 0-4 count the model keeps as levels (dash24's walk: `sedatives >= 3` was refused,
    'not binned as numbers … write sedatives=<value>'): the comparison is the OR of the values
    on its side, exact (no bin to straddle); NOT takes the others; a side holding no value the
    model knows is refused naming them."""
    kb = KB.from_text("".join(f"[0.{k + 1}] POS | ~sedatives={k}\n" for k in (3, 0, 1, 2, 4)))
    said = {c.literals[1].value for c in parse_rules("IF sedatives >= 3 THEN POS [p=0.9]", kb)}
    assert said == {"3", "4"}
    assert {c.literals[1].value for c in parse_rules("IF sedatives < 2 THEN NOT POS [p=0.8]", kb)} \
        == {"0", "1"}
    assert {c.literals[1].value for c in parse_rules("IF NOT sedatives >= 3 THEN POS [p=0.5]", kb)} \
        == {"0", "1", "2"}
    with pytest.raises(ClauseSyntaxError, match=re.escape(
            "sedatives > 4: no value of 'sedatives' the model knows lies there (its values are")):
        parse_rules("IF sedatives > 4 THEN POS [p=0.9]", kb)


def test_the_conditions_field_sends_a_comparison_to_a_whole_rule(numeric):
    with pytest.raises(ClauseSyntaxError, match="a comparison goes in a whole rule"):
        parse_conditions("x >= 6 AND colour=red", numeric[0].domains)
    assert parse_conditions('"a=b"=<0.5') == [("a=b", "<0.5")]  # a bin label is still a value


@pytest.mark.parametrize("text, column", [
    ("IF patient=P7 THEN POS [p=0.9]", 4),
    ("IF patient >= 2 THEN POS [p=0.9]", 4),
    ("IF colour=red AND NOT ward=A THEN POS [p=0.9]", 23),
    ("[0.9] POS | ~patient=P7", 14),
])
def test_a_column_the_fit_left_out_is_named_with_why(text, column):
    """A rule naming an ID-like or constant column the fit dropped says the fit left it out
    and why (the estimator's own reasons), not "unknown feature"; a typo still gets the
    nearest feature."""
    import pandas as pd

    from plx_core import PLXClassifier

    rng = np.random.default_rng(3)
    X = pd.DataFrame({"patient": [f"P{i}" for i in range(40)], "ward": "A",
                      "colour": rng.choice(["red", "blue"], 40), "size": rng.choice(["S", "L"], 40)})
    y = np.where((X["colour"] == "red") | (X["size"] == "S"), "yes", "no")
    clf = PLXClassifier(kb="direct", variant="paper").fit(X, y)
    left = dict(clf.excluded_)
    assert set(left) == {"patient", "ward"}
    with pytest.raises(ClauseSyntaxError) as exc:
        parse_rules(text, clf.kb_, left_out=left)
    name = re.search(r"column '(\w+)'", str(exc.value)).group(1)
    assert str(exc.value).startswith(f"line 1, column {column}: column {name!r} was left out "
                                     f"by the fit ({left[name]})")
    assert "unknown feature" not in str(exc.value)
    with pytest.raises(ClauseSyntaxError, match="unknown feature 'colur' \\(did you mean 'colour'"):
        parse_rules("IF colur=red THEN POS [p=0.9]", clf.kb_, left_out=left)


def test_a_comparison_on_fine_bins_is_shown_as_typed_and_reads_back():
    """`plx rules list` showed `IF crp >= 50.8` on a model with 20 bins of crp as the OR of
    its 8 bins; every comparison — open at either end, a run in the middle, beside a category,
    on two columns at once — is shown as the comparison and reads back as the same clauses."""
    import pandas as pd

    from plx_core.data import Binning, bin_labels

    rng = np.random.default_rng(11)
    cuts = tuple(float(c) for c in range(5, 100, 5))  # 19 cuts: 20 bins
    crp = pd.Series(rng.uniform(0, 110, 400).round(1), name="crp")
    age = pd.Series(rng.uniform(18, 90, 400).round(0), name="age")
    X = pd.DataFrame({"crp": Binning("mdlp", cuts, bin_labels(cuts)).apply(crp),
                      "age": Binning("mdlp", (40.0, 65.0), bin_labels((40.0, 65.0))).apply(age),
                      "sex": rng.choice(["F", "M"], 400)})
    kb = direct_kb(X, (crp > 50).to_numpy().astype(int), max_len=1)
    for typed in ("IF crp >= 50 THEN POS [p=0.9]", "IF crp < 20 THEN NOT POS [p=0.8, w=3]",
                  "IF crp >= 20 AND crp < 45 THEN POS [p=0.7]",
                  "IF crp >= 20 AND crp < 45 AND sex=F THEN POS [p=0.7]",
                  "IF crp >= 60 AND age >= 65 THEN POS [p=0.95]",
                  "IF crp >= 60 AND age >= 40 AND age < 65 THEN POS [p=0.95]"):
        clauses = parse_rules(typed, kb)
        assert len(clauses) > 1  # the OR of the bins
        shown = typed.replace("age >= 40 AND age < 65", 'age="[40, 65)"')  # one bin: itself
        assert rule_text(clauses) == shown
        assert [lits(c) for c in parse_rules(rule_text(clauses), kb)] == [lits(c) for c in clauses]
    mixed = parse_rules('IF crp="[20, 25)" OR crp="[40, 45)" THEN POS [p=0.9]', kb)  # a gap
    assert rule_text(mixed) == 'IF crp="[20, 25)" OR crp="[40, 45)" THEN POS [p=0.9]'
