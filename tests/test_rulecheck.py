"""Rules the model cannot use (`plx_core.rulecheck`): named, with the values the model knows,
by the function the service calls and by `query` / `PLXClassifier` as a warning."""

import warnings

import numpy as np
import pandas as pd
import pytest

from plx_core import PLXClassifier, UnusedRule, direct_kb, query, query_many, tree_kb, unused_rules
from plx_core.rules import parse_rules, rule_clause, with_rules


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"age": rng.choice(["<40", "40-60", ">60"], 60),
                      "sex": rng.choice(["F", "M"], 60),
                      "smoker": rng.choice(["yes", "no"], 60)})
    y = np.where((X["age"] == ">60") | (X["smoker"] == "yes"), "sick", "well")
    return X, y


def _rules():
    return [rule_clause([("age", "(40, 52]")], p=0.9, w=5, rule_id="r1"),   # other model's bin
            rule_clause([("sex", "F")], p=0.9, w=5, rule_id="r2"),          # fine
            rule_clause([("bmi", "high")], p=0.9, w=5, rule_id="r3"),       # dropped column
            rule_clause([("smoker", "Yes")], p=0.9, w=5, rule_id="r4"),     # renamed value
            rule_clause([("age", "45")], p=0.9, w=5, rule_id="r5")]         # a number, no bin


def _caught(fn):
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        fn()
    return [str(w.message) for w in got if "not used by this model" in str(w.message)]


@pytest.mark.parametrize("build", [direct_kb, tree_kb])
def test_every_rule_the_model_cannot_use_is_named_with_feature_value_and_known_values(data, build):
    X, y = data
    kb = build(X, y, positive="sick")
    found = unused_rules(with_rules(kb, _rules()))
    assert [(u.rule_id, u.feature, u.value) for u in found] == [
        ("r1", "age", "(40, 52]"), ("r3", "bmi", "high"), ("r4", "smoker", "Yes"), ("r5", "age", "45")]
    by = {u.rule_id: u for u in found}
    assert set(by["r1"].known) == {"<40", "40-60", ">60"}
    assert "'(40, 52]'" in by["r1"].message and "'40-60'" in by["r1"].message
    assert by["r1"].message.startswith("rule r1 (IF age=\"(40, 52]\" THEN POS) is not used")
    assert by["r3"].known == () and "no feature 'bmi'" in by["r3"].reason
    assert "did you mean 'yes'" in by["r4"].reason
    # the same check on the KB without the rules, given the rules (what the service calls)
    assert unused_rules(kb, _rules()) == found
    assert unused_rules(with_rules(kb, [_rules()[1]])) == []
    assert isinstance(found[0], UnusedRule) and found[0].to_dict()["known"]


def test_query_and_query_many_warn_once_naming_the_rule_and_answer_as_before(data):
    X, y = data
    kb = direct_kb(X, y, positive="sick")
    plain = query(kb, {"age": "<40", "sex": "M"})
    bad = with_rules(kb, [_rules()[0]])
    msgs = _caught(lambda: query(bad, {"age": "<40", "sex": "M"}))
    assert len(msgs) == 1 and "rule r1" in msgs[0] and "'(40, 52]'" in msgs[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        again = query(bad, {"age": "<40", "sex": "M"})
    assert (again.lower, again.upper) == (plain.lower, plain.upper)
    assert _caught(lambda: query_many(bad, X.head(3)))
    # a disabled rule or a usable one says nothing
    good = with_rules(kb, [_rules()[1]])
    assert _caught(lambda: query(good, {"age": "<40"})) == []
    off = with_rules(kb, [rule_clause([("age", "(40, 52]")], rule_id="r9", enabled=False)])
    assert _caught(lambda: query(off, {"age": "<40"})) == []


def test_plxclassifier_with_a_rule_on_a_value_it_does_not_have_warns(data):
    X, y = data
    clf = PLXClassifier(kb="direct", positive="sick").fit(X, y)
    clf.kb_.add(parse_rules('IF age="(40, 52]" THEN POS [p=0.9, w=5]'))
    msgs = _caught(lambda: clf.predict(X.head(4)))
    assert msgs and "age" in msgs[0] and "(40, 52]" in msgs[0]


def test_a_tree_value_on_no_path_is_still_known(data):
    """A tree KB knows every value of its data, also those no path splits on: a rule there is
    used (the full semantics reads it), so it is not flagged."""
    X, y = data
    kb = tree_kb(X[["age"]], y, positive="sick")
    assert unused_rules(kb, [rule_clause([("age", "40-60")], rule_id="r1")]) == []


def test_rule_unit_is_the_evidence_a_training_row_brings(data):
    """A Direct KB over n always-known features: 2^n − 1 unit clauses per row; one tree: one
    leaf of weight 1 per row. Bounds without rules do not depend on it."""
    X, y = data
    assert direct_kb(X, y, positive="sick").rule_unit() == pytest.approx(7.0)
    assert tree_kb(X, y, positive="sick").rule_unit() == pytest.approx(1.0)
    kb = direct_kb(X, y, positive="sick")
    kb.n_rows = None  # read from the clauses when not recorded (a KB from a file)
    assert kb.rule_unit() == pytest.approx(7.0)


@pytest.mark.parametrize("times", [2.0, 0.5])
def test_the_same_weight_relative_to_the_data_moves_two_kb_kinds_alike(times):
    """A rule whose w is the same multiple of each model's evidence per row (the Rules page's
    'vs data') has a comparable effect under a Direct KB and a tree: at 2× it decides every
    row it applies to in both, its pull on ω(POS) within 10% of each other; the same raw w
    (14 here) would decide the tree's rows and barely move the Direct KB's."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({f"f{j}": rng.choice(["a", "b", "c"], 400) for j in range(6)})
    y = (((X.f0 == "a") & (X.f1 != "b")) | (rng.random(400) < 0.1)).astype(int).to_numpy()
    rows = X[X.f2 == "c"].head(60)
    shift, decided = {}, {}
    for build in (direct_kb, tree_kb):
        kb = build(X, y, positive=1)
        rule = rule_clause([("f2", "c")], "POS", 0.95, times * kb.rule_unit(), "r1")
        before, after = query_many(kb, rows), query_many(with_rules(kb, [rule]), rows)
        shift[kb.kind] = float(np.mean(after.mean - before.mean))
        decided[kb.kind] = float(np.mean(after.mean > 0.5))
    if times == 2.0:
        assert decided == {"direct": 1.0, "tree": 1.0}
        assert shift["direct"] == pytest.approx(shift["tree"], rel=0.1)
    else:  # a minority voice: it moves neither to decide every row
        assert decided["direct"] < 1.0 and decided["tree"] < 1.0


def test_a_rule_with_two_conditions_the_model_lacks_is_named_once_with_both(data):
    X, y = data
    kb = direct_kb(X, y, positive="sick")
    bad = with_rules(kb, [rule_clause([("age", "45"), ("smoker", "Yes")], p=0.9, w=5,
                                      rule_id="r7")])
    msgs = _caught(lambda: query(bad, {"age": "<40"}))
    assert len(msgs) == 1 and msgs[0].count("rule r7") == 1, msgs
    assert "no value '45'" in msgs[0] and "no value 'Yes'" in msgs[0]


def test_a_batch_and_an_explanation_say_an_unused_rule_once_not_once_a_row(data):
    from plx_core import explain

    X, y = data
    kb = direct_kb(X, y, positive="sick")
    bad = with_rules(kb, [rule_clause([("age", "(40, 52]"), ("sex", "F")], p=0.9, w=5,
                                      rule_id="r1")])
    assert len(_caught(lambda: query_many(bad, X.head(20), method="lp"))) == 1
    assert len(_caught(lambda: explain(bad, X.iloc[0].to_dict(), k=2))) == 1
    # and the next call says it again (the batch's silence does not outlive it)
    assert len(_caught(lambda: query(bad, {"age": "<40"}))) == 1


def test_a_saved_and_reloaded_kb_still_names_the_rules_it_cannot_use(data):
    import io

    from plx_core import KB
    from plx_core.binformat import read_npz, write_npz

    X, y = data
    kb = with_rules(direct_kb(X, y, positive="sick"), _rules())
    found = [(u.rule_id, u.feature, u.value) for u in unused_rules(kb)]
    buf = io.BytesIO()
    write_npz(kb, buf)
    for back in (KB.from_json(kb.to_json()), KB.from_text(kb.to_text()),
                 read_npz(buf.getvalue())[0]):
        assert [(u.rule_id, u.feature, u.value) for u in unused_rules(back)] == found
        assert back.n_rows == kb.n_rows == 60
        assert back.rule_unit() == pytest.approx(kb.rule_unit())
        assert _caught(lambda b=back: query(b, {"age": "<40"}))


def test_a_kb_file_whose_rule_only_value_is_not_a_domain_value_is_one_clear_error(data):
    import json

    from plx_core import KB
    from plx_core.errors import ClauseSyntaxError

    X, y = data
    kb = with_rules(direct_kb(X, y, positive="sick"), _rules()[:1])
    doc = json.loads(kb.to_json())
    doc["rule_only"] = {"age": ["(99, 100]"]}
    with pytest.raises(ClauseSyntaxError, match="rule_only.*'age'.*'\\(99, 100\\]'"):
        KB.from_json(json.dumps(doc))
    doc["rule_only"], doc["n_rows"] = {}, -3
    with pytest.raises(ClauseSyntaxError, match="n_rows"):
        KB.from_json(json.dumps(doc))
