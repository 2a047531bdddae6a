"""The dashboard's state and page logic without Streamlit: plx_app.service."""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import require_shared_data

from plx_app.service import (
    KB_KINDS,
    BrowseQuery,
    DataSettings,
    Instance,
    KBSettings,
    browse_kb,
    confusion,
    default_max_len,
    edit_instance,
    instance_from_row,
    kb_csv,
    new_workspace,
    parse_conditions,
    prepare,
    raw_builtin,
    raw_default,
    read_upload,
    rule_clause,
    rule_text,
    scores,
    split_characters,
    use_data,
    validate,
    validate_conditions,
    with_rules,
)
from plx_core import query
from plx_core.datasets import breast_cancer_default
from plx_core.errors import DataError
from plx_core.rules import ClauseSyntaxError

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app_util import classic_settings, classic_workspace  # noqa: E402

from plx_app.service import explain as engine  # noqa: E402


@pytest.fixture(scope="module")
def ws0():
    return classic_workspace()


@pytest.fixture()
def ws():
    return classic_workspace()


# --------------------------------------------------------------------------- data


def test_classic_settings_reproduce_the_builtin_default():
    raw, settings = classic_settings()
    ds = prepare(raw, settings)
    ref = breast_cancer_default()
    assert ds.X.reset_index(drop=True).equals(ref.X.reset_index(drop=True))
    assert list(ds.y) == list(ref.y)
    assert ds.positive == ref.positive == "malignant"


def test_new_workspace_is_the_default_split_with_a_direct_kb(ws0):
    assert ws0.dataset.name == "breast-cancer-wisconsin"
    assert len(ws0.X_test) == 171  # 30 % of 569, stratified
    assert set(ws0.X_train.index).isdisjoint(ws0.X_test.index)
    assert ws0.kb is not None and ws0.kb.kind == "direct" and ws0.kb_settings.max_len is None
    assert ws0.build_seconds < 1.0


def test_prepare_errors_are_plain_words():
    raw = raw_default()
    with pytest.raises(DataError, match="choose the positive class"):
        prepare(raw, DataSettings("diagnosis", None))
    with pytest.raises(DataError, match="choose a label column"):
        prepare(raw, DataSettings("nope", "x"))
    with pytest.raises(DataError, match="at least one feature"):
        prepare(raw, DataSettings("diagnosis", "malignant", features=()))


def test_label_values_in_a_message_are_quoted_on_one_line():
    """fuzz17: an upload whose label cells hold line breaks and commas ('\n93,1.234,5') made
    a message of 20 lines whose values could not be told apart."""
    rows = "a,y\n" + "".join(f'{i},"{v}"\n' for i, v in enumerate(["x\ny", "p, q", " yes"] * 3))
    raw = read_upload(rows.encode(), "t.csv")
    with pytest.raises(DataError, match=r"values: ' yes', 'p, q', 'x\\ny'") as got:
        prepare(raw, DataSettings("y", None))
    assert "\n" not in str(got.value)


def test_prepare_multiclass_label_is_one_vs_rest():
    frame = pd.DataFrame({"a": list("xyzxyzxyzxyz"), "b": list("010101010101"),
                          "c": ["r", "g", "b"] * 4})
    raw = read_upload(frame.to_csv(index=False).encode(), "t.csv")
    ds = prepare(raw, DataSettings("c", "g", ("a", "b"), categorical=("a", "b")))
    assert set(ds.y) == {"g", "not g"}
    assert ds.positive == "g"


def test_numbers_written_with_a_decimal_comma_are_binned_and_said():
    rng = np.random.default_rng(2)
    x = rng.normal(50, 10, 60)
    frame = pd.DataFrame({"wert": [f"{v:.1f}".replace(".", ",") for v in x],
                          "g": rng.choice(["a", "b"], 60), "y": np.where(x > 50, "ja", "nein")})
    raw = read_upload(frame.to_csv(index=False, sep=";").encode(), "euro.csv")
    ds = prepare(raw, DataSettings("y", "ja"))
    assert ds.X["wert"].str.contains(r"<|≥|\[").all() and ds.X["wert"].nunique() == 4
    notes = [text for _, text in validate(ds, "direct", None)]
    assert any("'wert' is numeric" in t and "decimal comma" in t for t in notes), notes


def test_the_data_page_says_how_many_censored_lab_values_it_read():
    rng = np.random.default_rng(153)
    v = rng.lognormal(1.0, 1.2, 120)
    frame = pd.DataFrame({"il6": np.where(v < 1.5, "< 1,5", np.char.mod("%.2f", v)),
                          "ward": rng.choice(["A", "B"], 120), "y": np.where(v > 4, "ja", "nein")})
    frame["il6"] = frame["il6"].str.replace(".", ",", regex=False)
    raw = read_upload(frame.to_csv(index=False, sep=";").encode(), "lab.csv")
    ds = prepare(raw, DataSettings("y", "ja"))
    assert ds.X["il6"].notna().all()
    notes = [text for _, text in validate(ds, "auto", None, raw.frame)]
    n = int((v < 1.5).sum())
    assert any(t.startswith(f"'il6': {n} cells written beyond a bound ('< 1,5' ×{n})")
               for t in notes), notes


def test_validate_says_records_exported_twice():
    rng = np.random.default_rng(4)
    frame = pd.DataFrame({"patient": [f"P{i:03d}" for i in range(80)],
                          "ward": rng.choice(["A", "B", "C"], 80),
                          "y": rng.choice(["Ja", "Nein"], 80)})
    frame = pd.concat([frame, frame.iloc[:3]])
    raw = read_upload(frame.to_csv(index=False).encode(), "k.csv")
    ds = prepare(raw, DataSettings("y", "Ja"))
    notes = [t for level, t in validate(ds, "direct", None, raw.frame) if level == "warning"]
    assert any(t.startswith("3 rows repeat an earlier row in every column, 'patient' "
                            "included (line 82 = line 2") for t in notes), notes
    assert not any("repeat" in t for _, t in validate(ds, "direct", None))
    # the Data page lists its features, so it names the ID columns its automatic choice left out
    listed = prepare(raw, DataSettings("y", "Ja", features=("ward",)))
    assert not any("repeat" in t for _, t in validate(listed, "direct", None, raw.frame))
    assert any("'patient' included" in t
               for _, t in validate(listed, "direct", None, raw.frame, ["patient"]))


def test_validate_warns_about_wide_direct_kbs():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.integers(0, 3, (3000, 30)).astype(str),
                         columns=[f"f{i}" for i in range(30)])
    frame["y"] = rng.integers(0, 2, 3000).astype(str)
    raw = read_upload(frame.to_csv(index=False).encode(), "wide.csv")
    ds = prepare(raw, DataSettings("y", "1", tuple(frame.columns[:-1]),
                                   categorical=tuple(frame.columns[:-1])))
    notes = validate(ds, "direct", None)
    assert any(level == "warning" and "max_len" in text for level, text in notes)
    # plx's default (the Data page's) picks its clause length itself: nothing to warn about
    assert not any("full Direct KB" in text for _, text in validate(ds, "auto", None))
    assert default_max_len(3000, 30) == 2 and default_max_len(400, 6) is None
    assert default_max_len(5000, 21) == 2 and default_max_len(5000, 8) is None


def test_read_upload_checks_size_and_rows():
    with pytest.raises(DataError, match="MB"):
        read_upload(b"a,b\n" + b"1,2\n" * 14_000_000, "big.csv")
    with pytest.raises(DataError, match="only 1 data row"):
        read_upload(b"a,b\n1,2\n", "tiny.csv")


def test_split_characters():
    frame = pd.DataFrame({"s": ["ABC", "ABD", "CCC"], "y": ["1", "0", "1"]})
    out = split_characters(frame, "s")
    assert list(out.columns) == ["s_1", "s_2", "s_3", "y"]
    assert out.iloc[1].tolist() == ["A", "B", "D", "0"]
    with pytest.raises(DataError, match="different lengths"):
        split_characters(pd.DataFrame({"s": ["AB", "ABC"]}), "s")
    # trust23: a column already named s_2 made two columns of that name
    with pytest.raises(DataError, match="would make column 's_2', which the table already has"):
        split_characters(frame.assign(s_2=["x", "y", "z"]), "s")


def test_builtin_paper_example_workspace():
    raw = raw_builtin("paper-example")
    w = new_workspace(raw, replace_split(raw.defaults, test_size=0.25))
    assert w.features == ("a1", "a2", "a3", "a4")
    assert w.positive == "1"


def replace_split(s: DataSettings, **kw) -> DataSettings:
    from dataclasses import replace

    return replace(s, **kw)


# --------------------------------------------------------------------------- KBs and caching


def test_kb_is_cached_per_session_by_data_and_settings(ws):
    kb1 = ws.kb
    ws.set_kb(KBSettings("tree"))
    assert ws.kb.kind == "tree" and ws.trees and not ws.kb_cached
    ws.set_kb(KBSettings("direct"))
    assert ws.kb is kb1 and ws.kb_cached  # the same object: nothing rebuilt
    ws.set_kb(KBSettings("tree"))
    assert ws.kb_cached


def test_workspaces_share_nothing():
    a, b = classic_workspace(), classic_workspace()
    a.rules.append(rule_clause([("worst radius", "<13.5")], "POS", 0.9, 10, "r1"))
    assert b.rules == []
    assert a.kbs is not b.kbs and a.results is not b.results


def test_with_rules_shares_the_learned_arrays_and_changes_answers(ws):
    kb = ws.kb
    inst = instance_from_row(ws.X_test, ws.y_test, ws.X_test.index[0], "test")
    vals = inst.known()
    before = query(kb, vals)
    cond = [(f, v) for f, v in list(vals.items())[:2]]
    head = "NOT POS" if before.positive else "POS"
    kr = with_rules(kb, [rule_clause(cond, head, 1.0, 1e4, "r1")])
    assert kr.codes is kb.codes and kr._index_cache is kb._index_cache
    assert len(kr) == len(kb) + 1 and len(kb.extra) == 0
    after = query(kr, vals)
    assert after.positive != before.positive


def test_current_kb_applies_only_enabled_rules(ws):
    inst = instance_from_row(ws.X_test, ws.y_test, ws.X_test.index[0], "test")
    b0 = ws.query(inst)
    cond = list(inst.known().items())[:2]
    ws.rules.append(rule_clause(cond, "NOT POS" if b0.positive else "POS", 1.0, 1e4, "r1"))
    assert ws.query(inst).positive != b0.positive
    from dataclasses import replace

    ws.rules[0] = replace(ws.rules[0], enabled=False)
    assert ws.query(inst).positive == b0.positive
    assert ws.current_kb() is ws.kb


def test_decisions_cached_and_consistent_with_query(ws):
    d = ws.decisions("test")
    assert ws.decisions("test") is d
    for idx in ws.X_test.index[:5]:
        b = query(ws.kb, ws.X_test.loc[idx].to_dict())
        assert d.loc[idx, "lower"] == pytest.approx(b.lower)
        assert (d.loc[idx, "decision"] == "POS") == b.positive


def test_use_data_sets_rules_aside_when_the_question_changes(ws):
    """A rule's THEN is the class it was written for: on another label or positive class it
    would conclude that one (IF diabetes = yes THEN IV read as THEN stroke, dash25's walk)."""
    ws.rules.append(rule_clause([("worst radius", "<13.5")], "POS", 0.9, 10, "r1"))
    raw = raw_builtin("paper-example")
    notes = use_data(ws, raw, replace_split(raw.defaults, test_size=0.25))
    assert ws.rules == []
    assert notes[-1] == ("1 rule written for diagnosis = malignant was set aside: a rule's THEN "
                         "is the class it was written for, not label = 1. The rules history on "
                         "the Rules page keeps it: restore it there if it holds for the new "
                         "question too."), notes
    assert ws.kb is None and ws.selected is None
    assert ws.ensure_kb().features == ("a1", "a2", "a3", "a4")


def test_use_data_drops_an_or_rule_whole_when_one_part_no_longer_fits(ws):
    """An OR rule (a comparison on a number is the OR of its bins) is one rule: when the new
    data lacks one part's value the whole rule goes, never a half that says something else."""
    raw = raw_builtin("paper-example")
    ws = new_workspace(raw, raw.defaults, build=False)  # the same question as syn-10-4's
    ws.rules.extend([rule_clause([("a1", "1")], "POS", 0.9, 10, "r1.1"),
                     rule_clause([("a1", "0")], "POS", 0.9, 10, "r1.2"),  # syn's a1: 1-4
                     rule_clause([("a2", "2")], "NOT POS", 0.8, 5, "r2")])
    raw = raw_builtin("syn-10-4")
    notes = use_data(ws, raw, replace_split(raw.defaults, test_size=0.25))
    assert [r.id for r in ws.rules] == ["r2"] and ws.rules_count() == (1, 1)
    assert "1 rule did not fit the new data and was removed." in notes


@pytest.mark.slow
def test_import_kb_round_trip(ws):
    ws.rules.append(rule_clause([("worst radius", "<13.5")], "POS", 0.9, 10, "r1"))
    text = ws.current_kb().to_json()
    w2 = classic_workspace()
    base = w2.import_kb(text)
    assert len(base) == len(ws.kb) and [r.id for r in w2.rules] == ["r1"]
    with pytest.raises(DataError, match="does not fit the data"):
        new_workspace(raw_builtin("paper-example"),
                      replace_split(raw_builtin("paper-example").defaults, test_size=0.25)).import_kb(text)
    with pytest.raises(Exception, match="JSON"):
        w2.import_kb(b"{not json")


def test_a_kb_for_the_other_class_is_refused_on_import(ws):
    """Issue 12: a KB whose POS is the other class (every p flipped) answered every row
    flipped without a word; the import now names the mismatch and keeps the session's KB."""
    import json

    doc = json.loads(ws.ensure_kb().to_json())
    other = next(v for v in map(str, pd.unique(ws.dataset.y)) if v != ws.positive)
    doc["positive"] = other
    for c in doc["clauses"]:
        c["p"] = 1 - c["p"]
    before = ws.kb
    with pytest.raises(DataError, match="POS stands for"):
        ws.import_kb(json.dumps(doc))
    assert ws.kb is before


# --------------------------------------------------------------------------- rules


def test_rule_clause_and_text():
    r = rule_clause([("a", "1"), ("b", "x y")], "NOT POS", 0.8, 5, "r3")
    assert r.source == "rule" and r.id == "r3" and r.head == -1
    assert rule_text(r) == 'IF a=1 AND b="x y" THEN NOT POS'  # quoted: it reads back
    # the engine's rule_clause (plx_core.rules), not a second copy: a rule with no condition,
    # which the copy built, is refused by name
    with pytest.raises(DataError, match="at least one condition"):
        rule_clause([], "POS", 0.9, 1.0, "r4")


def test_validate_conditions_in_plain_words():
    doms = {"colour": ("red", "green"), "size": ("S", "L")}
    assert validate_conditions([("colour", "red")], doms) == []
    assert "at least one condition" in validate_conditions([], doms)[0]
    msg = validate_conditions([("colur", "red")], doms)[0]
    assert "no feature 'colur'" in msg and "colour" in msg
    assert "no value 'blue'" in validate_conditions([("colour", "blue")], doms)[0]
    assert any("appears twice" in m for m in validate_conditions([("size", "S"), ("size", "L")], doms))


def test_parse_conditions():
    assert parse_conditions("a=1 AND b=x") == [("a", "1"), ("b", "x")]
    assert parse_conditions("IF a=1 ∧ 'b c'=2") == [("a", "1"), ("b c", "2")]
    assert parse_conditions("worst radius=<13.5") == [("worst radius", "<13.5")]
    assert parse_conditions("") == []
    with pytest.raises(ValueError, match="feature=value"):
        parse_conditions("justaword")
    with pytest.raises(ValueError, match="THEN"):  # the conclusion is chosen apart
        parse_conditions("a=1 THEN POS")


# --------------------------------------------------------------------------- browsing and export


def test_browse_filters_sort_and_paginate(ws0):
    kb = ws0.kb
    full = kb.to_frame()
    frame, total = browse_kb(kb, BrowseQuery(length=(2, 2), p_range=(0.5, 1.0), min_support=20,
                                             sort_by="p", descending=True, page_size=10))
    want = full[(full["length"] == 2) & (full["p"] >= 0.5) & (full["support"] >= 20)]
    assert total == len(want)
    assert list(frame["p"]) == sorted(frame["p"], reverse=True)
    assert len(frame) == 10
    page2, _ = browse_kb(kb, BrowseQuery(length=(2, 2), p_range=(0.5, 1.0), min_support=20,
                                         sort_by="p", page=2, page_size=10))
    assert set(page2["#"]).isdisjoint(frame["#"])
    f, n = browse_kb(kb, BrowseQuery(features=("worst radius",), length=(1, 1)))
    assert n == len(kb.domains["worst radius"])
    s, n2 = browse_kb(kb, BrowseQuery(search="worst radius=<13.5", length=(1, 1)))
    assert n2 == 1 and s.iloc[0]["IF"] == '"worst radius"=<13.5'  # quoted: it reads back
    pasted, n3 = browse_kb(kb, BrowseQuery(search=s.iloc[0]["IF"], length=(1, 1)))
    assert n3 == 1 and pasted.iloc[0]["IF"] == s.iloc[0]["IF"]
    s, n3 = browse_kb(kb, BrowseQuery(search="radius AND texture", length=(2, 2)))
    assert n3 == len(kb.domains["worst radius"]) * len(kb.domains["worst texture"])


def test_browse_includes_rules(ws):
    ws.rules.append(rule_clause([("worst radius", "<13.5")], "NOT POS", 0.9, 10, "r1"))
    frame, n = browse_kb(ws.current_kb(), BrowseQuery(source=("rule",)))
    assert n == 1 and frame.iloc[0]["THEN"] == "NOT POS"
    named, _ = browse_kb(ws.current_kb(), BrowseQuery(source=("rule",)), positive="readmitted = yes")
    assert named.iloc[0]["THEN"] == "readmitted ≠ yes"


def test_kb_csv_has_one_row_per_clause_and_is_safe():
    frame = pd.DataFrame({"=x": ["=1", "+2", "=1", "+2"], "b": ["@a", "@a", "b", "b"]})
    raw = read_upload(frame.to_csv(index=False).encode() + b"=1,b\n+2,@a\n", "f.csv")
    w = new_workspace(raw, DataSettings("b", "@a", ("=x",), categorical=("=x",), test_size=0.34))
    text = kb_csv(w.kb).decode()
    lines = text.splitlines()
    assert len(lines) == len(w.kb) + 1
    body = "\n".join(lines[1:])
    for line in lines[1:]:
        for cell in line.split(","):
            assert not cell.startswith(("=", "+", "-", "@"))
    assert "'=" in body or '"' in body


# --------------------------------------------------------------------------- instances and scores


def test_instance_edit_keeps_the_label_only_while_unchanged(ws0):
    src = instance_from_row(ws0.X_test, ws0.y_test, ws0.X_test.index[0], "test")
    f, v = src.values[0]
    other = [x for x in ws0.kb.domains[f] if x != v][0]
    e = edit_instance(src, f, other, src)
    assert e.origin == "edited" and e.label is None
    back = edit_instance(e, f, v, src)
    assert back == src and back.label is not None
    blank = edit_instance(src, f, None, src)
    assert f not in blank.known()


def test_scores_and_confusion():
    t = [True, True, False, False, True]
    p = [True, False, False, True, True]
    s = scores(t, p)
    assert s["tp"] == 2 and s["fp"] == 1 and s["fn"] == 1 and s["tn"] == 1
    assert s["F1"] == pytest.approx(2 / 3)
    assert confusion(t, p).tolist() == [[1, 1], [1, 2]]


def test_baseline_scores_cover_the_named_models(ws0):
    from plx_app.service import baseline_scores

    frame = baseline_scores(ws0.X_train, ws0.y_train, ws0.X_test, ws0.y_test, ws0.positive,
                            ("majority", "logistic"))
    assert list(frame["model"]) == ["majority", "logistic"]
    assert list(frame["label"]) == ["majority class", "logistic regression"]
    assert frame.loc[1, "F1"] > 0.8 and frame.loc[0, "F1"] == 0.0


# --------------------------------------------------------------------------- explanations


def _brute_best(kb, vals, k, positive):
    best = None
    for combo in itertools.combinations(list(vals), k):
        b = query(kb, {f: vals[f] for f in combo})
        key = b.mean if positive else -b.mean
        if best is None or key > best[0] + 1e-12:
            best = (key, combo, b)
    return best


def test_explain_matches_brute_force(ws0):
    kb = ws0.kb
    for idx in ws0.X_test.index[:6]:
        vals = ws0.X_test.loc[idx].to_dict()
        full = query(kb, vals)
        for k in (1, 2, 3):
            e = engine.explain(kb, vals, k)
            key, combo, b = _brute_best(kb, vals, k, full.positive)
            assert e.mean == pytest.approx(b.mean)
            assert e.positive == full.positive
            assert engine.candidates_table(e)["chosen"].sum() == 1 and len(e.candidates) == len(
                list(itertools.combinations(vals, k)))
            means = np.array([c.mean for c in e.candidates])
            assert np.all(np.diff(means) <= 1e-12) if full.positive else np.all(np.diff(means) >= -1e-12)


def test_explain_beam_beyond_the_budget(ws0):
    vals = ws0.X_test.iloc[0].to_dict()
    e = engine.explain(ws0.kb, vals, 2, budget=3)
    assert e.search == "beam" and len(e.features) == 2
    table = engine.candidates_table(e)
    assert table["chosen"].tolist()[0] and table["chosen"].sum() == 1



def test_candidates_the_base_rate_alone_answers_are_said_and_marked():
    # a clinic's table whose default is a fitted vote: pairs its prior clause answers (0.000)
    # rank after the chosen pair (0.38); the sentence says why and the chart marks them
    from dataclasses import replace

    from user_tables import readmission

    from plx_core import wording
    from plx_core.plots import explanation_bars

    raw = read_upload(readmission().data, "readmission.csv")
    for seed in (7, 11, 6, *range(20)):  # a split whose default is the fitted vote
        ws = new_workspace(raw, replace(raw.defaults, positive="yes", seed=seed))
        if ws.model.chosen == "direct-vote":
            break
    assert ws.model.chosen == "direct-vote"
    for row in ws.X_test.index[:60]:
        e = engine.ws_explain(ws, instance_from_row(ws.X_test, ws.y_test, row, "test").as_dict(), 2)
        prior = [c.by_prior for c in e.candidates]
        if any(prior) and not prior[0]:
            break
    else:
        raise AssertionError("no row with candidates the prior clause alone answers")
    said = wording.explanation_sentence(e, ws.class_name)
    n = sum(prior)
    assert f"{wording.plural(n, 'pair of values', 'pairs of values').capitalize()} " in said
    assert "answered by the model's starting point alone" in said
    labels = [a.text for a in explanation_bars(e, top=len(prior)).layout.annotations]
    marked = [t.replace("<br>", " ").endswith("(starting point alone)") for t in labels][::-1]
    assert marked == prior  # drawn bottom-up: the chart's first bar is the last candidate
    assert engine.candidates_table(e)["starting point alone"].tolist() == prior

def test_shapley_is_efficient(ws0):
    kb = ws0.kb
    vals = ws0.X_test.iloc[1].to_dict()
    phi = engine.shapley(kb, vals)
    assert list(phi.index) == list(ws0.features)
    v_full = query(kb, vals).mean
    v_empty = 0.5  # no clause of a Direct KB has an empty body: ω(POS) ∈ [0, 1]
    assert phi.sum() == pytest.approx(v_full - v_empty)


def test_shapley_sampling_beyond_the_exact_limit(ws0, monkeypatch):
    vals = ws0.X_test.iloc[1].to_dict()
    exact = engine.shapley(ws0.kb, vals)
    monkeypatch.setattr(engine, "SHAPLEY_EXACT_MAX", 2)
    sampled = engine.shapley(ws0.kb, vals, n_permutations=600)
    assert sampled.sum() == pytest.approx(exact.sum())  # every permutation adds up exactly
    assert np.abs(sampled - exact).max() < 0.05


def test_counterfactual_flips_the_decision(ws0):
    kb = ws0.kb
    for idx in ws0.X_test.index[:8]:
        vals = ws0.X_test.loc[idx].to_dict()
        b = query(kb, vals)
        cf = engine.counterfactual(kb, vals, max_changes=2)
        assert cf.evaluated > 0
        assert engine.counterfactual_text(cf).startswith("Changing" if cf.found else "No change")
        if cf.found:
            new = dict(vals)
            new.update({f: to for f, (_, to) in cf.changes.items()})
            assert query(kb, new).positive != b.positive
            assert 1 <= len(cf.changes) <= 2


def test_counterfactual_budget_shrinks_with_wide_queries(ws0):
    assert engine.cf_rows(ws0.kb, 6) == engine.CF_WORK // 63
    capped = ws0.kb.copy()
    capped.max_len = 2
    assert engine.cf_rows(capped, 40) == engine.CF_WORK // (40 + 40 * 39 // 2)


@pytest.mark.slow
def test_shap_rows_come_from_the_test_split_cache_or_one_fit(ws):
    ws.selected = instance_from_row(ws.X_test, ws.y_test, ws.X_test.index[2], "test")
    sb = engine.ws_shap_test(ws, "CART")
    r = engine.ws_shap_row(ws, ws.selected.as_dict(), "CART")
    assert r.values.to_dict() == sb.values.loc[ws.X_test.index[2]].to_dict()
    edited = dict(ws.selected.as_dict())
    f0 = ws.features[0]
    edited[f0] = [v for v in ws.kb.domains[f0] if v != edited[f0]][0]
    r2 = engine.ws_shap_row(ws, edited, "CART")
    assert list(r2.values.index) == list(ws.features)
    # the session's fitted baseline gives shap_compare's numbers for the same row
    from plx_core.shap_compare import shap_values_baseline

    for model in ("CART", "logistic", "forest"):
        ref = shap_values_baseline(ws.X_train, ws.y_train, pd.DataFrame([edited]), model,
                                   positive=ws.positive)
        got = engine.ws_shap_row(ws, edited, model)
        assert got.values.to_numpy() == pytest.approx(ref.values.iloc[0].to_numpy(), abs=1e-9)
        assert got.proba == pytest.approx(float(ref.proba[0]))
    # SHAP's efficiency: base value + sum = the model's probability
    assert r2.base_value + r2.values.sum() == pytest.approx(r2.proba, abs=1e-6)


def test_agreement_measures():
    a = pd.DataFrame([[0.3, -0.1, 0.0], [0.1, 0.2, -0.3]], columns=list("xyz"))
    same = engine.agreement(a, a, k=2)
    assert same["top-1 feature (Shapley vs SHAP)"] == 1.0 and same["sign agreement"] == 1.0
    assert same["rank correlation (Spearman)"] == pytest.approx(1.0)
    assert engine.agreement(a, -a, k=2)["sign agreement"] == 0.0


def test_ws_agreement_on_the_default(ws0):
    rep = engine.ws_agreement(ws0, n_rows=10, k=2, model="CART")
    assert rep.n == 10 and len(rep.rows) == 10 and rep.k == 2
    assert 0.0 <= rep.summary["identical top-2 sets"] <= rep.summary["≥1 in common"] <= 1.0
    assert set(rep.chosen.columns) == {"feature", "plx", "SHAP"}
    assert rep.chosen["plx"].sum() == pytest.approx(2.0)  # k features per row
    assert engine.ws_agreement(ws0, n_rows=10, k=2, model="CART") is rep  # cached


# --------------------------------------------------------------------------- the shared data sets


@pytest.mark.realdata
@pytest.mark.parametrize("name", ["titanic", "mushroom", "hiv1"])
@pytest.mark.slow
def test_shared_files_work_as_uploads(name):
    root = require_shared_data()
    if name == "titanic":
        raw = read_upload((root / "titanic/train.csv").read_bytes(), "train.csv")
        assert raw.defaults.label == "Survived"
        settings = DataSettings("Survived", "1")
        ds = prepare(raw, settings)
        assert "Name" not in ds.X.columns and "PassengerId" not in ds.X.columns
        settings = DataSettings("Survived", "1", tuple(ds.X.columns),
                                numeric=tuple(f for f in ds.X.columns if f in ds.schema.bins))
    elif name == "mushroom":
        raw = read_upload((root / "mushroom/agaricus-lepiota.data").read_bytes(), "m.data",
                          header=False)
        settings = DataSettings("a1", "p")
    else:
        raw = read_upload((root / "hiv1-protease/746Data.txt").read_bytes(), "746Data.txt",
                          header=False, split_column="a1")
        assert [f"a1_{i}" for i in range(1, 9)] == list(raw.frame.columns[:8])
        settings = DataSettings("a2", "1")
    w = new_workspace(raw, settings)
    assert w.kb is not None and len(w.kb) > 0
    d = w.decisions("test")
    s = scores((w.y_test.astype(str) == w.positive).to_numpy(), d["decision"] == "POS")
    assert s["F1"] > 0.5, s
    inst = instance_from_row(w.X_test, w.y_test, w.X_test.index[0], "test")
    e = engine.ws_explain(w, inst.as_dict(), 2)
    assert len(e.features) == 2


def test_instance_title():
    assert Instance((("a", "1"),), "test", 5).title() == "test row 5"
    assert Instance((("a", "1"),)).title() == "edited instance"
    assert json.dumps(Instance((("a", None),)).as_dict()) == '{"a": null}'


@pytest.mark.slow
def test_engine_never_imports_streamlit_and_nothing_user_is_shared():
    import subprocess

    code = ("import sys, plx_core, plx_core.plots, plx_core.cli, plx_app, plx_app.service, "
            "plx_app.service.explain; "
            "assert 'streamlit' not in sys.modules, 'the engine or the service imported streamlit'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
    for path in [ROOT / "app.py", *ROOT.glob("plx_app/*.py"), *ROOT.glob("plx_app/views/*.py")]:
        text = path.read_text(encoding="utf-8")
        assert "st.cache_resource" not in text, f"{path.name}: cache_resource is shared by all users"
        assert "unsafe_allow_html" not in text, f"{path.name}: user text must never become HTML"
    config = (ROOT / "plx_app" / "config.toml").read_text(encoding="utf-8")
    assert "maxUploadSize" in config


# --------------------------------------------------------------------------- the service's one cache


def test_one_key_builder_separates_what_a_result_depends_on(ws0):
    w = ws0.fork()
    d = w.decisions("test")
    vals = w.X_test.loc[d.index[d["decision"] == "POS"][0]].to_dict()
    before = w.key("query", "x")
    assert w.key("shap", "m", scope="data") == w.key("shap", "m", scope="data")
    w.set_query_settings("full", "lp")
    assert w.key("query", "x") != before  # the answer depends on the query settings …
    assert w.key("kb+rules", scope="kb") == w.key("kb+rules", scope="kb")  # … the KB does not
    w.set_query_settings("auto", "auto")
    b0 = w.query(vals)
    rule, problems = w.add_rule([(w.features[0], vals[w.features[0]])], "NOT POS", 1.0, 1e6)
    assert rule is not None and not problems
    assert w.key("query", "x") != before  # an enabled rule changes every answer's key
    b1 = w.query(vals)
    assert b1.mean < b0.mean and not b1.positive  # and the answer itself
    w.edit_rule(rule.id, p=1.0, w=1e6, enabled=False)
    assert w.key("query", "x") == before and w.query(vals) == b0
    with pytest.raises(DataError, match="semantics must be one of"):
        w.set_query_settings("everything", "auto")


def test_rules_are_added_checked_edited_and_deleted_through_the_service(ws0):
    w = ws0.fork()
    f = w.features[0]
    v = w.domains()[f][0]
    rule, problems = w.add_rule([(f, v)], "POS", 0.9, 50)
    assert rule.id == "r1" and w.rules == [rule]
    again, problems = w.add_rule([(f, v)], "POS", 0.9, 50)
    assert again is None and "already there as r1" in problems[0]
    bad, problems = w.add_rule([("no such feature", v)], "POS", 1.5, 0)
    assert bad is None and len(problems) == 3  # the feature, p and w, each in plain words
    for p, wt, said in ((0.9, float("inf"), "w=inf must be a finite number"),  # trust23: raised
                        (float("nan"), 5, "probability p=nan is outside [0, 1]"),
                        ("0.9", 5, "p and w must be numbers, got p='0.9'")):
        bad, problems = w.add_rule([(f, v)], "NOT POS", p, wt)
        assert bad is None and len(problems) == 1 and said in problems[0], problems
    added = w.add_rules_text(f'IF "{f}"="{v}" THEN NOT POS [p=0.1, w=5]')
    assert len(added) == 1 and len(w.rules) == 2
    with pytest.raises(ClauseSyntaxError, match=rf"line 2: .* is already in the model as "
                       rf"{added[0].id}"):  # an import holding it again: not counted twice
        w.add_rules_text(f'IF "{f}"="{w.domains()[f][-1]}" THEN POS [p=0.5, w=1]\n'
                         f'IF "{f}"="{v}" THEN NOT POS [p=0.3, w=1]')
    assert len(w.rules) == 2
    w.delete_rule("r1")
    assert [r.id for r in w.rules] == [added[0].id]
    with pytest.raises(DataError, match="no rule 'r1'"):
        w.rule("r1")


@pytest.mark.parametrize("kind", ["direct", "auto"])
def test_a_typed_rule_naming_a_column_the_data_page_left_out_says_so(kind):
    """An ID column the Data page leaves out (before any KB is built) named in a typed rule:
    the error says it was left out and why, for the Direct KB (no model) and plx's default
    (whose model never saw the column) alike — both said 'unknown feature 'patient''."""
    rng = np.random.default_rng(4)
    frame = pd.DataFrame({"patient": [f"P{i:03d}" for i in range(80)],
                          "ward": rng.choice(["A", "B", "C"], 80),
                          "y": rng.choice(["Ja", "Nein"], 80)})
    raw = read_upload(frame.to_csv(index=False).encode(), "k.csv")
    w = new_workspace(raw, DataSettings("y", "Ja"), kb=KBSettings(kind))
    with pytest.raises(ClauseSyntaxError, match=r"column 'patient' was left out .*\(ID-like"):
        w.add_rules_text('IF "patient"="P001" THEN POS [p=0.9, w=5]')
    assert w.rules == []

def test_a_rule_added_after_an_or_rule_gets_an_id_of_its_own(ws0):
    """The form's next id skips an OR rule's (its parts are r1.1, r1.2), as the engine's
    numbering does: a form rule named r1 would be edited and deleted with the OR rule."""
    w = ws0.fork()
    f, g = w.features[:2]
    v, u = w.domains()[f][0], w.domains()[g][0]
    parts = w.add_rules_text(f'IF "{f}"="{v}" OR "{g}"="{u}" THEN POS [p=0.9, w=5]')
    assert [r.id for r in parts] == ["r1.1", "r1.2"]
    rule, problems = w.add_rule([(f, w.domains()[f][-1])], "NOT POS", 0.2, 3)
    assert not problems and rule.id == "r2"
    w.delete_rule("r2")
    assert [r.id for r in w.rules] == ["r1.1", "r1.2"]  # the OR rule is untouched


def test_rules_effect_and_comparison_views(ws0):
    w = ws0.fork()
    assert w.comparison_views()[2] is None  # no rules: nothing to compare with
    f = "worst radius"
    rule, _ = w.add_rule([(f, w.domains()[f][0])], "POS", 1.0, 1e5)
    fx = w.rules_effect()
    flipped = fx.flips
    assert len(flipped) > 0 and (flipped["plx after"] == w.class_name).all()  # in words
    assert "POS" not in set(flipped["plx before"]) and "support after" in flipped  # not ω
    assert fx.after["F1"] != fx.before["F1"]
    views = w.comparison_views()
    direct, tree = KB_KINDS["direct"], KB_KINDS["tree"]  # the Build radio's words
    assert [v.name for v in views] == [direct, tree, f"{direct} with rules"]
    assert len(views[2].kb) == len(views[0].kb) + 1
    vals = w.X_test.loc[flipped.index[0]].to_dict()
    assert w.query(vals, view=views[2]).positive and not w.query(vals, view=views[0]).positive


def test_evidence_splits_the_clauses_that_bear_on_the_answer(ws0):
    vals = ws0.X_test.iloc[0].to_dict()
    for_pos, against = engine.ws_evidence(ws0, vals)
    assert len(for_pos) + len(against) > 0
    assert (for_pos["target"] > 0.5).all() and (against["target"] < 0.5).all()
    assert all(r.startswith("IF ") and " THEN " in r for r in pd.concat([for_pos, against])["rule"])
    assert engine.ws_evidence(ws0, vals)[0] is for_pos  # cached


def test_agreement_reports_progress_and_resumes_from_the_rows_done(ws0):
    w = ws0.fork()
    seen = []
    assert not engine.ws_agreement_done(w, 10, 2, "CART")
    rep = engine.ws_agreement(w, 10, 2, "CART", progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, 10) and seen[-1] == (10, 10) and rep.n == 10
    assert engine.ws_agreement_done(w, 10, 2, "CART")


def test_decision_word():
    from plx_app.service import decision_word

    ws = new_workspace(raw_builtin("paper-example"))
    words = {decision_word(ws.query(r)) for r in ws.X_train.to_dict("records")}
    assert words <= {"POS", "NOT POS", "tie (reported NOT POS)"} and "POS" in words


def test_kinds_compared_on_a_wide_table_use_the_direct_kbs_cap():
    """Explain's "Across KB kinds" on a 20-column upload answered by another kind: the Direct
    KB to compare was built uncapped and refused ("needs about 30.2 GiB … pass max_len=5") in
    a clinician's walk; it gets the cap a Direct KB on these rows gets on the Data page."""
    r = np.random.default_rng(8)
    frame = pd.DataFrame({f"lab{j}": r.choice(list("abc"), 400) for j in range(20)})
    frame["sick"] = np.where(r.random(400) < 0.1, "yes", "no")
    raw = read_upload(frame.to_csv(index=False).encode(), "labs.csv")
    ws = new_workspace(raw, DataSettings("sick", "yes", tuple(frame.columns[:-1])),
                       kb=KBSettings("tree"))
    cap = default_max_len(*ws.X_train.shape)
    assert cap is not None and cap < 20
    views = ws.comparison_views()
    direct = next(v for v in views if v is not None and v.kb.kind == "direct")
    assert direct.kb.max_len == cap and len(direct.kb) > 0


def test_a_rule_typed_without_its_weight_is_refused_on_the_dashboard(ws0):
    """No weight is guessed for the expert (a default w outweighed 20 rows on one table and 1.4
    on another): a typed rule without w is refused on its line, with what w means."""
    from plx_core.wording import RULE_W_MISSING

    w = ws0.fork()
    f = w.features[0]
    with pytest.raises(ClauseSyntaxError, match=r"line 2: give the rule its weight w"):
        w.add_rules_text(f'IF "{f}"="{w.domains()[f][0]}" THEN POS [p=0.9, w=3]\n'
                         f'IF "{f}"="{w.domains()[f][-1]}" THEN POS [p=0.9]')
    assert w.rules == [] and RULE_W_MISSING.startswith("give the rule its weight w")
    rule, problems = w.add_rule([(f, w.domains()[f][0])], "POS", 0.9, None)
    assert rule is None and problems[0].startswith("Choose the rule's weight w")
