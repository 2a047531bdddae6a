"""What the dashboard says about an answer: checked as a reader would read it."""

from __future__ import annotations

import pandas as pd
import pytest
from paper import as_query, example2

from plx_core import KB, counterfactual, direct_kb, evidence, explain, parse_rules, query
from plx_core import wording as W
from plx_core.data import bin_reading
from plx_core.kb import parse_clause


@pytest.fixture(scope="module")
def kb():
    X, y = example2()
    return direct_kb(X, y, positive=1)


def test_answer_sentence_point_below_threshold(kb):
    b = query(kb, as_query("0---"))
    s = W.answer_sentence(b, "malignant", kb=kb)
    assert s.startswith("The learned rules put the support for malignant at 0.33; below 0.5, "
                        "so not malignant.")
    assert "Three values not known (a2, a3 and a4)" in s


def test_answer_sentence_interval_and_truth():
    kb = KB.from_text("[0.2] POS | ~a=1\n[0.4] POS | ~b=1\n")
    b = query(kb, {"a": "1", "b": "1"})
    assert (b.lower, b.upper) == pytest.approx((0.2, 0.4))
    s = W.answer_sentence(b, "malignant", truth="malignant")
    assert "bound the support for malignant between 0.20 and 0.40; below 0.5, so not malignant" in s
    assert s.endswith("The recorded label is malignant: plx is wrong here.")
    # a class of several is said with the side it counts on (dash23: "rehab: plx is right"
    # beside a decision "not died" read as if plx had picked rehab)
    s = W.answer_sentence(b, "died", truth="rehab")
    assert s.endswith("The recorded label is rehab: plx is right here (rehab counts as not died).")


def test_answer_sentence_interval_across_threshold_names_the_middle():
    kb = KB.from_text("[0.3] POS | ~a=1\n[0.8] POS | ~b=1\n")
    b = query(kb, {"a": "1", "b": "1"})
    s = W.answer_sentence(b, "yes")
    assert "between 0.30 and 0.80; the middle, 0.550, is above 0.5, so yes." in s
    # a range across the threshold is a weak decision, said so (a clinician read [0.3, 0.8]
    # as "0.55, so yes", dash23); a range on one side of it, or no evidence, says nothing more
    said = ("The range reaches both sides of 0.5: the values known allow either answer, so this "
            "decision rests on the middle alone and is weak; every value the rules ask is known, "
            "so only an expert rule could turn it.")
    assert said in s and W.open_range_said(0.3, 0.8, 0.5) == said
    # only a value the row does not know is offered as what could turn it (review23: with a
    # and b both known the sentence promised "a value not known yet")
    kb2 = KB.from_text("[0.3] POS | ~a=1\n[0.8] POS | ~b=1\n[0.6] POS | ~c=1\n")
    part = query(kb2, {"a": "1", "b": "1"})
    assert part.unknown and part.lower < 0.5 < part.upper
    assert (f"the value not known ({part.unknown[0]}), or an expert rule, could turn it."
            in W.answer_sentence(part, "yes"))
    assert "reaches both sides of 0.85" not in W.answer_sentence(b, "yes", threshold=0.85)
    assert W.open_range_said(0.2, 0.4, 0.5) == W.open_range_said(0.0, 1.0, 0.5) == ""
    assert "(say 0.3 to 0.9) means the values known allow either answer" in W.omega_meaning("yes")


def test_tie_is_said_in_words(kb):
    b = query(kb, as_query("0000"))
    assert b.tie
    s = W.answer_sentence(b)
    assert "exactly 0.5, a tie, which plx reports as NOT POS" in s
    assert W.decision_word(b.lower, b.upper, "malignant") == "tie (reported not malignant)"


def test_unseen_value_and_expert_rules_are_named(kb):
    kb2 = kb.copy()
    kb2.add(parse_rules("IF a1=1 THEN POS [p=0.9, w=5]"))
    b = query(kb2, {"a1": "1", "a2": "7"})
    s = W.answer_sentence(b, kb=kb2)
    assert s.startswith("The learned and expert rules")
    assert "a2 = 7 never occurred in the training data" in s


def test_no_evidence_said():
    kb = KB.from_text("[0.9] POS | ~a=1\n")
    b = query(kb, {"a": "2"})
    assert "No rule covers these values" in W.answer_sentence(b)
    # [0, 1]'s middle is 0.5, met against the threshold that answers as any answer's is
    assert "0.5, is exactly the threshold, a tie, reported as NOT POS" in W.answer_sentence(b)
    assert "0.5, is above the threshold 0.35, so POS" in W.answer_sentence(b, threshold=0.35)
    assert "0.5, is below the threshold 0.6, so NOT POS" in W.answer_sentence(b, threshold=0.6)


def test_clause_text_is_if_then_never_raw():
    c = parse_clause('[1] POS | ~"worst concave points"=≥0.1424 | ~texture=low')
    t = W.clause_text(c, "malignant")
    assert t == 'IF "worst concave points" = ≥0.1424 AND texture = low THEN malignant'
    assert "|" not in t and "~" not in t  # quotes only round a name with a space
    neg = parse_clause("[0.8] ~POS | a=1 | ~b=2")
    assert W.clause_text(neg) == "IF NOT a = 1 AND b = 2 THEN NOT POS"
    assert W.clause_text(parse_clause("[0.7] POS")) == "ALWAYS POS"
    s = W.clause_sentence(parse_rules("IF a=1 THEN POS [p=0.9, w=5, id=r7]")[0])
    assert s == "IF a = 1 THEN POS (probability 0.90, weight 5, expert rule r7)"


def test_clause_sentence_names_support(kb):
    i = next(j for j in range(len(kb)) if kb.clause(j).support == 2)
    assert "seen in two training rows" in W.clause_sentence(kb.clause(i))


def test_evidence_summary_counts_sides(kb):
    ev = evidence(kb, as_query("0000"))
    s = W.evidence_summary(ev, "malignant")
    n_for = int((ev["side"] == "for").sum())
    n_against = int((ev["side"] == "against").sum())
    assert s.startswith(f"{W.plural(len(ev), 'rule').capitalize()} bear on these values")  # a sentence
    assert f"{W.number_word(n_for)} would raise the support for malignant" in s
    assert f"{W.number_word(n_against)} would lower it" in s
    assert W.evidence_summary(ev.iloc[:0]) == "No rule bears on these values."


def test_ties_in_words():
    assert W.ties_sentence([0.112, 0.1124, 0.1119, 0.0, 0.0, 0.3]) == \
        "Three sub-queries tie at 0.112 and two at 0.000."
    assert W.ties_sentence([0.1, 0.2]) == ""
    assert W.tie_groups([0.5, 0.5, 0.2]) == [(0.5, 2)]


def test_explanation_sentence(kb):
    e = explain(kb, as_query("0000"), k=1)
    s = W.explanation_sentence(e, "malignant")
    assert s.startswith("On their own, a1 = 0 puts the support for malignant at 0.33")
    assert "strongest case for not malignant among all 4 single values" in s
    e2 = explain(kb, as_query("1111"), k=2)
    s2 = W.explanation_sentence(e2)
    if e2.tied:
        assert f"{W.number_word(e2.tied).capitalize()} other candidate" in s2
        assert W.TIE_RESOLUTION[e2.resolved_by] in s2


def test_explanation_sentence_with_one_candidate_counts_no_group(kb):
    """A row that knows exactly k values has one size-k candidate: the sentence says it is the
    only one, not the strongest "among all 1 pairs of values"."""
    for q, k, group in ((as_query("0---"), 1, "single value"), (as_query("01--"), 2,
                                                                "pair of values")):
        e = explain(kb, q, k=k)
        assert e.n_total == 1
        s = W.explanation_sentence(e, "malignant")
        assert "among all 1" not in s and "strongest" not in s, s
        assert f"the only {group} there is to weigh (the row knows no other value)" in s, s
    one = KB.from_text("[0.6] POS | ~a=1\n[0.3] POS | ~b=1\n")  # mean 0.45: no pair decides POS
    e = explain(one, {"a": "1", "b": "1"}, k=2, direction="positive")
    s = W.explanation_sentence(e, "yes")
    assert not e.decides and s.startswith("No pair of values decides yes on its own. The only "
                                          "pair of values there is to weigh"), s
    many = explain(kb, as_query("0100"), k=2)  # six pairs: still the strongest among them
    assert "the strongest case for not malignant among all 6 pairs of values" in \
        W.explanation_sentence(many, "malignant")


def test_counterfactual_sentence(kb):
    cf = counterfactual(kb, as_query("1111"), max_changes=2)
    s = W.counterfactual_sentence(cf, "malignant")
    assert cf.found
    for f, (a, b) in cf.changes.items():
        assert f"{f} from {a} to {b}" in s
    assert "would make the answer not malignant" in s


def test_advanced_lines_plain_names(kb):
    b = query(kb, as_query("0101"))
    lines = W.advanced_lines(b)
    assert any("exact weighted median" in x for x in lines)
    assert any(x.startswith("Inconsistency") for x in lines)
    assert W.method_name("lp").startswith("linear program")
    said = W.omega_meaning("malignant", 0.12)
    assert "from 0 (nothing it learned backs malignant for these values, which is not the same as " \
        "impossible) to 1 (fully backed)" in said and "ruled out" not in said
    assert "compares with the decision threshold 0.12, not a percentage chance" in said
    assert "equally common" not in said and "equally common" in W.omega_meaning("malignant", 0.12, "weighted")


def test_a_support_shown_as_zero_is_said_not_impossible():
    """A rare class's 0.000 (or a 1.000) is said beside the answer for what it is: nothing the
    model learned backs the class, below the threshold in use — not "impossible"."""
    from types import SimpleNamespace

    zero = W.answer_sentence(SimpleNamespace(lower=0.0, upper=0.0002), "sepsis", threshold=0.12)
    assert "A support of 0.000 does not say sepsis is impossible" in zero
    assert "below the threshold 0.12 and the answer is not sepsis" in zero
    one = W.answer_sentence(SimpleNamespace(lower=0.9999, upper=1.0), "sepsis", threshold=0.12)
    assert "A support of 1.000 does not say sepsis is certain" in one
    assert "does not say" not in W.answer_sentence(SimpleNamespace(lower=0.01, upper=0.02), "sepsis")
    assert W.support_column("sepsis", 0.12) == "support for sepsis (sepsis above 0.12)"


def test_user_text_is_kept_plain():
    """Markdown or HTML in a column name stays as typed (the caller shows it as text)."""
    kb = KB.from_text('[0.9] POS | ~"<b>x</b> [l](http://e)"=1\n')
    b = query(kb, {"<b>x</b> [l](http://e)": "1"})
    s = W.clause_text(kb.clause(0))
    assert s == 'IF "<b>x</b> [l](http://e)" = 1 THEN POS'  # quoted: it has spaces
    assert "0.90" in W.answer_sentence(b)


def test_shapley_sentence():
    s = W.shapley_sentence(pd.Series({"a": 0.2, "b": -0.3, "c": 0.01}).to_dict(), "yes", top=2,
                           instance={"a": "1", "b": "0"})
    assert s == "Most influential: a = 1 (+0.20) raises the support for yes; b = 0 (-0.30) lowers it."


def test_class_name_keeps_bare_values_readable():
    assert W.class_name("malignant", "diagnosis") == "malignant"
    assert W.class_name("1", "Survived") == "Survived = 1"
    assert W.class_name("yes", "smoker") == "smoker = yes"
    kb = KB.from_text("[0.9] POS | ~a=1\n")
    s = W.answer_sentence(query(kb, {"a": "1"}), "Survived = 1", truth="1", positive_value="1")
    assert "support for Survived = 1" in s and "plx is right here" in s


def test_hints_come_from_the_loaded_data():
    domains = {"worst radius": ["<13.5", "≥16.82"], "b": ["x"]}
    assert W.example_value(domains) == "e.g. ≥16.82"
    assert W.example_value({}) == "any value"
    assert W.example_condition(domains) == '"worst radius"=≥16.82'


def _examples_kb(columns: dict, n: int = 12):
    X = pd.DataFrame({f: [vals[i % len(vals)] for i in range(n)] for f, vals in columns.items()})
    return direct_kb(X, [i % 2 for i in range(n)], max_len=1)


@pytest.mark.parametrize("columns", [
    {"worst radius": ["<13.5", "[13.5, 16.82)", "≥16.82"], "b": ["x"]},  # both were the top bin
    {"age": ["<30", "≥30"]},  # one number of two bins: the only column
    {"age": ["<30", "≥30"], "smoker": ["no", "yes"], "x y": ["a=b", "c"]},
    {"colour": ["red", "green"]},  # no number: no comparison
    {"wait": ["<1h5m", "[1h5m, 2h)", "≥2h"], "b": ["x", "y"]},  # lengths of time: IF wait >= 2h
])
def test_rule_examples_are_distinct_and_read_back_after_each_is_added(columns):
    kb = _examples_kb(columns)
    rules: list = []
    for _ in range(2):  # the hints after the user typed both hints in
        example, compare = W.rule_examples(kb, rules)
        shown = [t for t in (example, compare) if t is not None]
        assert example is not None
        assert (compare is None) == all(bin_reading(v) is None for v in kb.domains.values())
        # each can be added as shown (not a rule already there), and then the other one too
        rules += parse_rules("\n".join(shown), kb.with_rules(rules))
    off = [c.__class__(c.literals, c.p, c.w, c.source, id=c.id, enabled=False) for c in rules]
    example, compare = W.rule_examples(kb, off)  # a disabled rule is still there
    for t in (example, compare):
        if t is not None:
            parse_rules(t, kb.with_rules(off))


def test_no_rule_example_when_every_one_is_taken():
    kb = _examples_kb({"colour": ["red"]})
    taken = parse_rules("IF colour=red THEN POS [p=0.9]\nIF colour=red THEN NOT POS [p=0.9]", kb)
    assert W.rule_examples(kb, taken) == (None, None)


def test_split_sentence_makes_the_counts_add_up():
    s = W.split_sentence(569, 398, 500, 171, "train", 0.3)
    assert s.startswith("569 rows: 398 for training and 171 for testing (30%).")
    assert "repeats 102 rows" in s and "from 500 training rows" in s
    assert "repeats" not in W.split_sentence(569, 398, 398, 171, "none")
    assert "repeat a training row" not in s
    for balance in ("none", "train", "before"):  # test rows the model has seen are counted
        said = W.split_sentence(569, 398, 500, 171, balance, 0.3, n_copies=12)
        assert said.endswith(" 12 of the 171 test rows repeat a training row in every feature "
                             "column; the Evaluate page scores the others apart.")


def test_the_answer_sentence_says_a_value_read_as_written_in_training():
    X = pd.DataFrame({"smoker": ["True", "False"] * 10})
    kb = direct_kb(X, ["yes", "no"] * 10, positive="yes")
    text = W.answer_sentence(query(kb, {"smoker": "TRUE"}), "yes")
    assert "Read smoker = TRUE as True" in text
    assert "Read" not in W.answer_sentence(query(kb, {"smoker": "True"}), "yes")


def test_the_models_auto_chooses_between_have_plain_names():
    from plx_core.selection import CANDIDATES

    assert W.model_name("direct-conf") == "the Direct KB with confidence weights"
    assert W.model_name("tree-all") == "the ID3 tree"
    assert all(W.model_name(c) != c for c in CANDIDATES)  # every candidate has a name


def test_the_default_s_candidates_are_named_as_the_search_has_them():
    from plx_core.selection import CANDIDATES

    said = W.candidates_sentence()
    assert all(W.model_name(c) in said for c in CANDIDATES)
    assert "fitted vote" in said and "one row at a time" in W.scoring_words()
    # a clinician reads rounds, not folds (the reason plx fit prints keeps "10-fold")
    from plx_core.selection import SELECT_FOLDS
    from plx_core.vote import VOTE_FOLDS

    assert f"in {VOTE_FOLDS} rounds" in said and f"in {SELECT_FOLDS} for the trees" in said
    assert "fold" not in said and "leave-one-out" not in said


# --------------------------------------------------------------------------- quoting round trip

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from plx_core.explain import Candidate  # noqa: E402
from plx_core.kb import Literal, WeightedClause  # noqa: E402
from plx_core.rules import features_text, parse_conditions  # noqa: E402

NAMES = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1,
                max_size=10) | st.sampled_from(
    ["a = b", "worst radius", "[13.5, 16.82)", "POS", "and", "x!=1", "a;b", "a, b", "a|b",
     "#1", '"', "NOT", "≠", "x y = z"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(NAMES, NAMES), min_size=1, max_size=3, unique_by=lambda c: c[0]),
       st.booleans())
def test_every_text_naming_a_value_reads_back_for_any_names(pairs, negated_head):
    """Explanation wording, a clause as the dashboard shows it, an explanation's label and the
    CLI's features column name each feature and value so that the rule parser reads them back
    as the same (feature, value) pairs: a name with a space, '=', ',' or ';' is quoted."""
    for f, v in pairs:
        assert parse_conditions(W.condition(f, v)) == [(f, v)]
    # the CLI's features column and a candidate's label (", "-joined: commas separate)
    assert parse_conditions(features_text(dict(pairs))) == pairs
    cand = Candidate(tuple(f for f, _ in pairs), tuple(v for _, v in pairs), 0.0, 1.0, 0.5, 1, 1)
    assert parse_conditions(cand.label()) == pairs
    # a clause as the dashboard says it is rule text: it parses back as the same clause
    lits = (Literal("POS", None, negated_head),) + tuple(Literal(f, v, True) for f, v in pairs)
    back = parse_rules(W.clause_text(WeightedClause(lits, 0.9, 1.0)) + " [p=0.9]")
    assert len(back) == 1 and set(back[0].literals) == set(lits)


def test_a_test_part_of_one_class_names_the_absent_class_and_what_it_leaves_undefined():
    assert W.one_class_part(3, 9, "spam") == ""
    assert W.one_class_part(0, 0, "spam") == ""
    no_pos = W.one_class_part(0, 12, "Survived = 1")
    assert no_pos.startswith("The test part holds no Survived = 1 row (all 12 are Survived ≠ 1)")
    assert "recall (sensitivity) is undefined" in no_pos
    no_neg = W.one_class_part(7, 0, "spam")
    assert no_neg.startswith("The test part holds no not spam row (all 7 are spam)")
    assert "specificity is undefined" in no_neg and "recall" not in no_neg


def test_few_positives_found_are_said_in_counts_with_the_threshold_trade():
    # a rare class the model misses on the held-out rows: "F1 0" alone read as a broken tool
    none = W.few_found_sentence(180, 15, 0, 13, "readmitted = yes", best_other=0.209)
    assert none.startswith("Of the 180 held-out rows, 15 are readmitted = yes. The model "
                           "flagged 13 rows as readmitted = yes, none of them rightly: it "
                           "missed 15 of the 15, so F1 is 0.")
    assert "do little better on these rows (best F1 0.209)" in none
    assert "a lower threshold flags more rows — fewer missed, more false alarms" in none
    quiet = W.few_found_sentence(40, 1, 0, 0, "churn")
    assert quiet.startswith("Of the 40 held-out rows, 1 is churn. The model flagged no rows "
                            "as churn: it missed 1 of the 1, so F1 is 0.") and "best F1" not in quiet
    some = W.few_found_sentence(90, 9, 2, 1, "spam", best_other=0.8)
    assert "flagged three rows as spam, two of them rightly: it missed 7 of the 9." in some
    assert "F1 is 0" not in some and "Other models find more of them (best F1 0.800)" in some
    assert W.few_found_sentence(90, 10, 5, 40, "spam") == ""  # half found: the scores say it
    assert W.few_found_sentence(90, 0, 0, 3, "spam") == ""  # no positive: one_class_part


def test_selection_sentence_says_what_answers_and_why_in_words():
    from plx_core.wording import selection_sentence

    scores = {"tree-all": 0.62, "direct": 0.58, "tree-all depth≤2": 0.5}
    said = selection_sentence(scores, "tree-all", 300, "readmitted = yes")
    assert said.startswith("plx tried two kinds of model (three settings in all) on the 300 "
                           "training rows")
    assert ("answers with the ID3 tree, grown in full: it found the readmitted = yes rows best "
            "(F1 0.620" in said)
    assert "against 0.580 for the next, the tuned Direct KB." in said
    # a higher score that does not answer is not hidden; its setting in words, not its key
    said = selection_sentence(scores, "direct", 300, "readmitted = yes")
    assert "answers with the tuned Direct KB (F1 0.580" in said
    assert ("Another candidate, the ID3 tree, grown in full, scored higher (0.620), but not by "
            "enough") in said
    said = selection_sentence(scores, "tree-all depth≤2", 300, "readmitted = yes")
    assert "answers with the ID3 tree, at most 2 levels deep" in said
    assert "Another candidate, the same model grown in full, scored higher (0.620)" in said
    assert "depth≤" not in said and "tree-all" not in said


def test_threshold_moved_sentence_names_both_thresholds():
    from plx_core.wording import threshold_column_said, threshold_moved_sentence

    said = threshold_moved_sentence(0.65, 0.5)
    assert said.startswith("The 0.65 beside the model that answers is a cut on its vote's "
                           "probability, not on ω(POS)")
    assert "above 0.5 where the vote's probability is above 0.65" in said
    assert "on the vote's probability for the fitted votes" in threshold_column_said()


def test_base_rate_clause_reads_as_what_it_does():
    # the fitted vote's prior `[0] POS` (weight 0.8) read "ALWAYS readmitted = yes" while it
    # pulls every row's ω(POS) toward 0
    from plx_core.clause import POS, PRIOR_ID, Literal, WeightedClause

    down = WeightedClause((Literal(POS),), 0.0, 0.8, source="data", id=PRIOR_ID)
    assert W.clause_text(down, "readmitted = yes") == (
        "STARTING POINT: every row's support for readmitted = yes is pulled toward 0")
    assert W.clause_sentence(down, "readmitted = yes").endswith("(probability 0.00, weight 0.8)")
    up = WeightedClause((Literal(POS),), 1.0, 3.0, source="data", id=PRIOR_ID)
    assert W.clause_text(up) == "STARTING POINT: every row's support for POS is pulled toward 1"
    # a rule without conditions that is no prior clause still reads as before
    assert W.clause_text(parse_clause("[0.7] POS")) == "ALWAYS POS"
