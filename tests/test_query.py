"""Queries: the paper's worked examples, semantics, partial and unseen values, bad input."""

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from paper import as_query, example2

from plx_core import KB, DataError, PLXError, direct_kb, query, query_many
from plx_core.tree import tree_kb


@pytest.fixture(scope="module")
def direct():
    X, y = example2()
    return direct_kb(X, y)


def test_example6_7_query_0101_is_a_negative_tie_on_the_direct_kb(direct):
    b = query(direct, as_query("0101"))
    assert (b.lower, b.upper) == (0.5, 0.5)
    assert not b.positive and b.tie
    assert b.method == "median" and b.semantics == "relevant"
    assert b.n_relevant == 9  # Example 7's relevant KB
    texts = sorted(direct.clause(int(i)).to_text().split("] ")[1] for i in b.evidence.clause)
    assert texts == sorted([
        "POS | ~a1=0", "POS | ~a2=1", "POS | ~a3=0", "POS | ~a4=1",
        "POS | ~a1=0 | ~a2=1", "POS | ~a1=0 | ~a3=0", "POS | ~a2=1 | ~a3=0",
        "POS | ~a2=1 | ~a4=1", "POS | ~a1=0 | ~a2=1 | ~a3=0",
    ])
    ps = sorted(np.round(b.evidence.p, 2))
    assert ps == sorted([0.33, 0.5, 0.5, 1.0, 0.0, 0.5, 0.5, 1.0, 0.0])


def test_query_0101_through_the_lp_agrees(direct):
    b = query(direct, as_query("0101"), method="lp")
    assert (b.lower, b.upper, b.method) == (0.5, 0.5, "lp")
    full = query(direct, as_query("0101"), semantics="full", method="lp")
    assert (full.lower, full.upper) == (0.5, 0.5)


def test_query_0101_on_the_tree_kb_is_positive():
    X, y = example2()
    kb = tree_kb(X, y)
    b = query(kb, as_query("0101"))
    assert (b.lower, b.upper) == (1.0, 1.0) and b.positive
    assert b.method == "median" and b.semantics == "full"
    assert query(kb, as_query("0101"), method="lp").lower == 1.0


@pytest.mark.parametrize("bits, value", [("0---", 1 / 3), ("-1--", 0.5), ("--0-", 0.5), ("---1", 1.0)])
def test_example8_single_feature_sub_queries(direct, bits, value):
    b = query(direct, as_query(bits))
    assert b.lower == pytest.approx(value, abs=1e-12) and b.upper == pytest.approx(value, abs=1e-12)
    assert query(direct, as_query(bits), method="lp").mean == pytest.approx(value, abs=1e-7)


def test_full_semantics_differs_on_partial_queries_as_design_says(direct):
    b = query(direct, as_query("0---"), semantics="full")
    assert b.method == "lp" and b.mean == pytest.approx(0.25, abs=1e-9)


def test_example5_bounds_and_inconsistency():
    kb = KB.from_text("[0.6] ~alpha | POS\n[0.8] alpha\n")
    free = query(kb, {})
    assert (free.lower, free.upper) == pytest.approx((0.4, 0.6), abs=1e-9)
    assert free.inconsistency == 0.0 and free.method == "lp"
    fixed = query(kb, {"alpha": True})
    assert (fixed.lower, fixed.upper) == pytest.approx((0.6, 0.6), abs=1e-12)
    assert fixed.inconsistency == pytest.approx(0.2, abs=1e-12)
    assert list(fixed.overridden) == []  # the forced clause is a constant, not evidence
    lp = query(kb, {"alpha": True}, method="lp")
    assert lp.mean == pytest.approx(0.6, abs=1e-9) and lp.inconsistency == pytest.approx(0.2, abs=1e-9)


def test_minimal_case_relevant_vs_full():
    kb = direct_kb(np.array([["0", "1"], ["1", "0"]]), [1, 0])
    assert query(kb, {"a1": "0"}).mean == 1.0
    full = query(kb, {"a1": "0"}, semantics="full")
    assert (full.lower, full.upper) == (0.0, 1.0)


def test_domain_constraint_variant_recovers_example8_on_0___(direct):
    # Σ_v ω(a=v) = 1 for open features stops the LP from making every value false at once
    b = query(direct, as_query("0---"), semantics="full", domain_constraint=True)
    assert (b.lower, b.upper) == pytest.approx((1 / 3, 1 / 3), abs=1e-7)


def test_no_evidence_gives_unit_interval(direct):
    b = query(direct, {})
    assert (b.lower, b.upper) == (0.0, 1.0) and b.no_evidence and not b.positive


def test_unseen_values_are_reported_not_crashed_on(direct):
    b = query(direct, {"a1": "7", "a2": "1", "a3": None, "a4": float("nan")})
    assert b.unseen == {"a1": "7"}
    assert b.unknown == ("a3", "a4")
    assert b.mean == pytest.approx(0.5)  # only the clause on a2=1 remains


def test_values_are_compared_as_strings(direct):
    assert query(direct, {"a1": 0, "a2": 1, "a3": 0, "a4": 1}).mean == 0.5


def test_sequence_and_series_queries(direct):
    import pandas as pd

    assert query(direct, ["0", "1", "0", "1"]).mean == 0.5
    assert query(direct, pd.Series(as_query("0101"))).mean == 0.5
    with pytest.raises(DataError, match="needs 4 values"):
        query(direct, ["0", "1"])


def test_a_feature_no_clause_mentions_is_answered_and_reported(direct):
    b = query(direct, as_query("0101") | {"a9": "1", "age": 71})
    assert (b.lower, b.upper) == (0.5, 0.5)  # as without them: they cannot move ω(POS)
    assert b.ignored == {"a9": "1", "age": "71"}
    assert query(direct, as_query("0101")).ignored == {}


def test_bad_semantics_and_method_are_errors(direct):
    with pytest.raises(DataError, match="semantics"):
        query(direct, {}, semantics="partial")
    with pytest.raises(DataError, match="method"):
        query(direct, {}, method="simplex")


def test_rules_enter_the_query_like_learned_clauses(direct):
    from plx_core.kb import parse_clause

    kb = direct.copy()
    kb.add(parse_clause("[0.9, w=5, src=rule] POS | ~a3=0"))
    b = query(kb, as_query("0101"))
    assert b.method == "median" and b.positive and b.n_relevant == 10
    # 9 learned clauses of weight 1 (targets 0, 0, 1/3, 0.5 ×4, 1, 1) and the rule (0.9, w=5):
    # the weight below 0.5 inclusive is exactly half of 14, so the optimal set is [0.5, 0.9]
    assert (b.lower, b.upper) == (0.5, 0.9)
    lp = query(kb, as_query("0101"), method="lp")
    assert (lp.lower, lp.upper) == pytest.approx((0.5, 0.9), abs=1e-7)
    kb.set_rule("r1", w=6)  # now more than half the weight pulls to 0.9
    assert query(kb, as_query("0101")).mean == 0.9
    kb.set_rule("r1", enabled=False)
    assert query(kb, as_query("0101")).mean == 0.5


def test_inconsistent_rules_still_answer(direct):
    from plx_core.kb import parse_clause

    kb = direct.copy()
    kb.add([parse_clause("[1, w=3, src=rule] POS | ~a1=0"), parse_clause("[1, w=3, src=rule] ~POS | ~a1=0")])
    b = query(kb, as_query("0101"))
    assert 0.0 <= b.lower <= b.upper <= 1.0
    assert b.inconsistency > 3.0  # the two rules cannot both hold


def test_weighted_median_equal_weight_shortcut_matches_the_general_rule():
    from plx_core.query import weighted_median, weighted_median_intervals

    rng = np.random.default_rng(3)
    for n in range(1, 40):
        t = rng.choice([0.0, 0.25, 1 / 3, 0.5, 0.75, 1.0], n)
        lo, hi = weighted_median_intervals(np.zeros(n, np.int64), t, np.ones(n), 1)
        assert weighted_median(t, np.ones(n)) == (lo[0], hi[0])
        w = rng.choice([0.5, 1.0, 2.0], n)
        lo, hi = weighted_median_intervals(np.zeros(n, np.int64), t, w, 1)
        assert weighted_median(t, w) == (lo[0], hi[0])


def test_subset_sums_are_in_mask_order():
    from plx_core.query import subset_sums

    rng = np.random.default_rng(0)
    for k in range(1, 9):
        v = rng.integers(1, 1000, k)
        want = [sum(int(v[i]) for i in range(k) if m >> i & 1) for m in range(2**k)]
        assert subset_sums(v).tolist() == want


def test_index_gathers_agree_with_row_gathers_for_mixed_heads_and_weights(direct):
    """The key-order targets and constant columns of the index give the same median terms as
    gathering p, w and head by row, for uniform and for mixed heads and weights."""
    from plx_core.query import OPEN, learned_terms, prepare_query, relevant_positions

    mixed = direct.copy()
    mixed.head = np.where(np.arange(mixed.n_learned) % 3 == 0, -1, 1).astype(np.int8)
    mixed.w = 1.0 + np.arange(mixed.n_learned) % 4
    for kb in (direct, mixed):
        for q in ("0101", "1100", "0-1-"):
            pq = prepare_query(kb, as_query(q))
            pos = relevant_positions(kb, pq.codes)
            rows = kb.index().order[pos]
            assert (pq.codes == OPEN).sum() == q.count("-")
            for a, b in zip(learned_terms(kb, pos=pos), learned_terms(kb, rows=rows)):
                np.testing.assert_array_equal(a, b)


def test_replacing_a_column_rebuilds_the_index(direct):
    """Bounds follow a KB whose p (or head) array was replaced after a query had cached the index."""
    kb = direct.copy()
    before = query(kb, as_query("1111"))
    assert before.lower == before.upper == 1.0
    kb.p = 1.0 - kb.p
    after = query(kb, as_query("1111"))
    assert after.lower == after.upper == 0.0
    kb.head = -kb.head
    back = query(kb, as_query("1111"))
    assert back.lower == back.upper == 1.0


def _kb_with_rules(direct, w1, w2):
    from plx_core.kb import parse_clause

    kb = direct.copy()
    kb.add([parse_clause(f"[1, w={w1!r}, src=rule] POS | ~a3=0"),
            parse_clause(f"[0, w={w2!r}, src=rule] POS | ~a3=0")])
    return kb


@pytest.mark.parametrize("factor", [1e-13, 1e-12, 3e-7, 0.1, 7.0, 1e6, 1e12])
def test_answers_do_not_depend_on_the_scale_of_the_weights(direct, factor):
    """Issue 12: an absolute tie tolerance changed answers when every weight was scaled."""
    from itertools import product

    base = _kb_with_rules(direct, 2.0, 1.0)
    scaled = base.copy()
    scaled.w = scaled.w * factor
    scaled.extra = [replace(c, w=c.w * factor) for c in scaled.extra]
    for bits in product("01", repeat=4):
        q = as_query("".join(bits))
        a, b = query(base, q), query(scaled, q)
        assert (a.lower, a.upper) == (b.lower, b.upper), "".join(bits)


def test_cancelling_heavy_rules_leave_the_learned_answer(direct):
    """Two rules of weight 1e12 pulling to 1 and 0 cancel: the learned clauses decide."""
    q = as_query("0101")
    plain = query(direct, q)
    for w in (1e12, 1e15):
        b = query(_kb_with_rules(direct, w, w), q)
        assert (b.lower, b.upper) == (plain.lower, plain.upper)
        assert b.method == "median"


def test_huge_weights_answer_or_fail_clearly(direct):
    from plx_core.median import WeightRangeError

    q = as_query("0101")
    with pytest.raises(PLXError, match="w="):  # beyond the documented range: refused at entry
        _kb_with_rules(direct, 1e308, 1.0)
    b = query(_kb_with_rules(direct, 1e100, 1.0), q)  # one rule outweighs everything
    assert (b.lower, b.upper) == (1.0, 1.0)
    with pytest.raises(WeightRangeError, match="too wide a range"):
        query(_kb_with_rules(direct, 1e100, 1e100), q)  # the learned clauses would vanish
    with pytest.raises(WeightRangeError, match="span"):
        query(_kb_with_rules(direct, 1e15, 1e15), q, method="lp")
    b = query(_kb_with_rules(direct, 1e6, 1e6), q, method="lp")
    assert (b.lower, b.upper) == (query(direct, q).lower, query(direct, q).upper)


# --------------------------------------------------------------------------- wide tables


def wide_table(n_features: int, n_rows: int = 300, n_values: int = 4, seed: int = 0):
    """Random categorical rows whose label depends on three features (so trees grow deep)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    codes = rng.integers(0, n_values, (n_rows, n_features))
    y = ((codes[:, 0] == 1) ^ (codes[:, 3] > 1) | (codes[:, 7] == 0)).astype(int)
    X = pd.DataFrame(codes.astype(str), columns=[f"f{i}" for i in range(n_features)])
    return X, y


def brute_relevant(kb, q):
    """Clause rows whose body ⊆ the query's known values, by a plain scan."""
    from plx_core.query import prepare_query

    qc = prepare_query(kb, q).codes
    body = kb.codes >= 0
    ok = np.all(~body | (kb.codes == qc[None, :]), axis=1)
    return set(np.flatnonzero(ok).tolist())


@pytest.mark.parametrize("n_features,max_len", [(30, 3), (100, 2)])
def test_wide_direct_kbs_answer_like_a_scan_of_the_kb(n_features, max_len):
    from plx_core.query import query_many

    X, y = wide_table(n_features)
    kb = direct_kb(X, y, max_len=max_len)
    rows = X.iloc[:25]
    many = query_many(kb, rows)
    for i in range(len(rows)):
        q = rows.iloc[i].to_dict()
        b = query(kb, q)
        assert set(b.evidence.clause.tolist()) == brute_relevant(kb, q)
        assert (many.lower[i], many.upper[i]) == (b.lower, b.upper)
    q = rows.iloc[0].to_dict()
    q[X.columns[5]] = None  # a partial query
    lp = query(kb, q, method="lp")
    assert (lp.lower, lp.upper) == pytest.approx((query(kb, q).lower, query(kb, q).upper), abs=2e-7)


def test_hash_collisions_never_add_or_double_a_clause():
    """With multipliers that collide on purpose (all ones), the verified lookup still finds
    exactly the clauses whose body ⊆ the query."""
    from plx_core.index import ClauseIndex

    X, y = wide_table(12, n_rows=120, n_values=3)
    kb = direct_kb(X, y, max_len=3)
    idx = ClauseIndex.build(kb, hash_mult=np.ones(len(kb.features), np.int64))
    assert not idx.exact
    for i in range(10):
        q = X.iloc[i].to_dict()
        from plx_core.query import prepare_query

        codes = prepare_query(kb, q).codes
        known = np.flatnonzero(codes >= 0)
        row, pos = idx.relevant(codes[None, :], known)
        found = idx.order[pos].tolist()
        assert len(found) == len(set(found))
        assert set(found) == brute_relevant(kb, q)


@pytest.mark.parametrize("n_features,nodes,n_trees", [(30, "leaves", 1), (30, "all", 1),
                                                      (100, "leaves", 3)])
def test_tree_kbs_over_many_features_answer_in_batches(n_features, nodes, n_trees):
    """Issue 10: a Tree KB over 30 features made query_many enumerate 2^30 subsets."""
    from plx_core.query import query_many

    X, y = wide_table(n_features)
    kb = tree_kb(X, y, nodes=nodes, n_trees=n_trees, random_state=0)
    rows = X.iloc[:20]
    many = query_many(kb, rows)
    assert set(many.method) == {"median"}
    for i in range(len(rows)):
        b = query(kb, rows.iloc[i].to_dict())
        assert (many.lower[i], many.upper[i]) == (b.lower, b.upper)
        assert set(b.evidence.clause.tolist()) == brute_relevant(kb, rows.iloc[i].to_dict())


def test_batches_are_cut_into_bounded_chunks(direct, monkeypatch):
    """Chunking (memory bounded whatever the number of rows) and threads keep the answers."""
    import sys

    import pandas as pd

    Q = sys.modules["plx_core.query"]  # the module (the package exports the function `query`)
    rows = pd.DataFrame([as_query(f"{i:04b}") for i in range(16)] * 5)
    whole = Q.query_many(direct, rows, n_jobs=1)
    monkeypatch.setattr(Q, "BATCH_PAIRS", 20)  # 15 subsets a row: one row per chunk
    tasks = Q._batch_tasks(direct, Q.encode_rows(direct, rows), np.zeros(len(rows), bool))
    assert len(tasks) == len(rows)
    for n_jobs in (1, 2, None):
        cut = Q.query_many(direct, rows, n_jobs=n_jobs)
        assert np.array_equal(cut.lower, whole.lower) and np.array_equal(cut.upper, whole.upper)


def test_batch_answers_report_unseen_values_and_unknown_columns(direct):
    import pandas as pd

    from plx_core.query import query_many

    rows = pd.DataFrame([as_query("0101") | {"a2": "7", "note": "x"}, as_query("1111") | {"note": "y"}])
    b = query_many(direct, rows)
    assert b.ignored == ("note",)
    assert b.unseen_features(0) == ("a2",) and b.unseen_features(1) == ()
    assert b.n_unseen.tolist() == [1, 0]
    one = query(direct, rows.iloc[0].to_dict())
    assert one.unseen == {"a2": "7"} and one.ignored == {"note": "x"}
    assert (b.lower[0], b.upper[0]) == (one.lower, one.upper)


def test_the_tuned_classifier_at_30_features_answers_batches_like_single_queries(monkeypatch):
    """The tuned KB (clauses of one length plus the prior rule, whole weights) is answered by
    counting target ranks per row; the answers are those of the exact single-query path, also
    when the rows are cut into blocks (a few of them with unseen or missing values)."""
    import sys

    from plx_core import PLXClassifier

    Q = sys.modules["plx_core.query"]
    X, y = wide_table(30, n_rows=400)
    clf = PLXClassifier(variant="tuned").fit(X, y)
    kb = clf.kbs_[0]
    assert kb.extra and kb.index().table is not None  # the prior rule, a dense index
    rows, _ = wide_table(30, n_rows=60, seed=1)
    rows = rows.astype(object)
    rows.iloc[3, 4] = "9"  # unseen
    rows.iloc[5, 0] = None  # missing: the row knows 29 features
    many = Q.query_many(kb, rows)
    for i in range(len(rows)):
        b = query(kb, {f: v for f, v in rows.iloc[i].items() if v is not None})
        assert (many.lower[i], many.upper[i]) == (b.lower, b.upper)
    monkeypatch.setattr(Q, "ROW_BLOCK", 7)
    cut = Q.query_many(kb, rows)
    assert np.array_equal(cut.lower, many.lower) and np.array_equal(cut.upper, many.upper)
    assert cut.unseen_rows.tolist() == [3] and cut.unseen_features(3) == ("f4",)
    from plx_core import estimator

    monkeypatch.setattr(estimator, "PREDICT_BLOCK", 11)
    assert np.array_equal(clf.predict_proba(rows), clf.predict_proba(rows.iloc[:11]).tolist()
                          + clf.predict_proba(rows.iloc[11:]).tolist())


@pytest.mark.parametrize("seed", range(6))
def test_counted_medians_equal_the_weighted_median_of_the_terms(seed):
    """Counts of equal-weight targets plus a few whole-weight terms give the same intervals as
    `weighted_median_intervals` over the terms written out (exact ties included)."""
    from plx_core.median import counted_medians, weighted_median_intervals

    rng = np.random.default_rng(seed)
    B, values = 40, np.array([0.0, 0.25, 0.5, 0.6, 1.0])
    counts = rng.integers(0, 3, (B, len(values)))
    counts[0] = 0  # a row without terms
    w0 = int(rng.integers(1, 3))
    rq = rng.integers(0, B, 15)
    rt = rng.choice(np.array([0.0, 0.5, 0.75, 1.0]), 15)
    rw = rng.integers(1, 4, 15).astype(float)
    rows, cols = np.nonzero(counts)
    rep = counts[rows, cols]
    q = np.concatenate([np.repeat(rows, rep), rq])
    t = np.concatenate([np.repeat(values[cols], rep), rt])
    w = np.concatenate([np.full(int(rep.sum()), float(w0)), rw])
    for terms in (None, (rq, rt, rw)):
        lo, hi = counted_medians(counts, values, w0, terms)
        n = int(rep.sum()) + (0 if terms is None else len(rq))
        elo, ehi = weighted_median_intervals(q[:n], t[:n], w[:n], B)
        assert np.array_equal(lo, elo) and np.array_equal(hi, ehi)


def test_a_clause_without_feature_literals_is_relevant_to_every_query():
    """`[p] POS` (a tree that is one leaf, a hand-written base rate) holds for every row: both
    semantics, one query and a batch, see it, also beside clauses that have a body."""
    import pandas as pd

    from plx_core import query_many

    X = pd.DataFrame({"a": ["x"] * 10, "b": ["u"] * 10})
    y = np.array([1, 1, 1, 0, 1, 1, 1, 0, 1, 0])
    leaf = tree_kb(X, y, positive=1)  # no split helps: the root leaf, [0.7] POS
    rows = pd.DataFrame({"a": ["x", None], "b": ["u", None]})
    for sem in ("relevant", "full"):
        b = query(leaf, {"a": "x", "b": "u"}, semantics=sem)
        assert (b.lower, b.upper, b.n_relevant) == (0.7, 0.7, 1)
        many = query_many(leaf, rows, semantics=sem)
        assert list(many.lower) == list(many.upper) == [0.7, 0.7]
    mixed = KB.from_text("[0.2] POS\n[0.9] POS | ~a=x\n[0.8] POS | ~a=x | ~b=u\n")
    assert len(mixed) == 3
    b = query(mixed, {"a": "x", "b": "u"}, semantics="relevant")
    assert (b.lower, b.upper, b.n_relevant) == (0.8, 0.8, 3)  # median of 0.2, 0.8, 0.9
    many = query_many(mixed, pd.DataFrame({"a": ["x", "y"], "b": ["u", "u"]}), semantics="relevant")
    assert list(many.lower) == [0.8, 0.2] and list(many.upper) == [0.8, 0.2]
    again = KB.from_json(mixed.to_json())
    assert query(again, {"a": "x", "b": "u"}, semantics="relevant").lower == 0.8


def test_a_whole_number_written_otherwise_is_the_value_the_kb_learned():
    # a KB learned k from floats ("2.0"); rows from an integer column ("2", Int64 2) were
    # all unseen, so every answer ignored k (the estimator predicted 0 for every row)
    import pandas as pd

    from plx_core.query import query_many

    X = pd.DataFrame({"k": pd.Series([0.0, 1.0, 2.0, 3.0] * 10, dtype=object),
                      "g": list("ab") * 20})
    y = (X["k"] >= 2).astype(int)
    kb = direct_kb(X, y, positive=1)
    assert kb.domains["k"] == ("0.0", "1.0", "2.0", "3.0")
    for v in (3, "3", "3.0", np.int64(3)):
        b = query(kb, {"k": v, "g": "a"})
        assert b.unseen == {} and b.mean == query(kb, {"k": 3.0, "g": "a"}).mean
    assert query(kb, {"k": "7", "g": "a"}).unseen == {"k": "7"}
    rows = pd.DataFrame({"k": pd.array([0, 3, None], dtype="Int64"), "g": ["a"] * 3})
    many = query_many(kb, rows)
    assert many.mean[1] == query(kb, {"k": 3.0, "g": "a"}).mean > many.mean[0]


def test_a_value_written_otherwise_is_read_as_the_kb_value_and_said():
    # "TRUE" for the learned "True" was matched without a word (the batch path says it too)
    import pandas as pd

    from plx_core.query import query_many

    rng = np.random.default_rng(3)
    X = pd.DataFrame({"smoker": rng.choice(["True", "False"], 60), "n": rng.choice(["2.0", "3.0"], 60)})
    y = np.where(X["smoker"] == "True", "yes", "no")
    kb = direct_kb(X, y, positive="yes")
    got, want = query(kb, {"smoker": "TRUE", "n": "2"}), query(kb, {"smoker": "True", "n": "2.0"})
    assert (got.lower, got.upper) == (want.lower, want.upper) and not want.read_as
    assert [(r.feature, r.written, r.value) for r in got.read_as] == [
        ("smoker", "TRUE", "True"), ("n", "2", "2.0")]
    many = query_many(kb, pd.DataFrame({"smoker": ["TRUE", "TRUE", "False"], "n": [2, 3, 2]}))
    assert {(r.feature, r.written, r.value, r.rows) for r in many.read_as} == {
        ("smoker", "TRUE", "True", 2), ("n", "2", "2.0", 2), ("n", "3", "3.0", 1)}


@pytest.mark.parametrize("seed", range(4))
def test_median_terms_given_sorted_answer_as_shuffled_ones(seed):
    """Terms already sorted by (query, target) — the leave-one-out's, which skip the sort —
    get the same intervals, bit for bit, as the same terms in any order (decimal weights,
    whose sums depend on the order, and ties of targets included)."""
    from plx_core.median import weighted_median_intervals

    rng = np.random.default_rng(seed)
    n, B = 400, 30
    q = np.sort(rng.integers(0, B, n))
    t = rng.choice(np.array([0.0, 0.1, 1 / 3, 0.5, 0.7, 1.0]), n)
    w = rng.choice(np.array([0.3, 1e-3, 0.7, 1.1]), n)
    order = np.lexsort((t, q))  # sorted by (query, target), ties in their order
    shuffled = rng.permutation(n)
    lo, hi = weighted_median_intervals(q[order], t[order], w[order], B)
    slo, shi = weighted_median_intervals(q[shuffled], t[shuffled], w[shuffled], B)
    assert np.array_equal(lo, slo) and np.array_equal(hi, shi)
    assert (lo[np.bincount(q, minlength=B) == 0] == 0).all()


@pytest.mark.parametrize("seed", range(4))
def test_whole_number_weights_answer_as_the_same_weights_scaled(seed):
    """Whole-number weights (unit clauses, a prior clause's votes; summed as they are) give the
    intervals of the same weights times 2^-20 (not whole: scaled per query), exact ties and
    queries of one term included."""
    from plx_core.median import weighted_median_intervals

    rng = np.random.default_rng(seed)
    n, B = 500, 40
    q = rng.integers(0, B, n)
    q[:3] = B - 1  # a query of three terms
    t = rng.choice(np.array([0.0, 0.2, 0.5, 0.5 + 1e-12, 0.9, 1.0]), n)
    w = rng.choice(np.array([1.0, 1.0, 1.0, 2.0, 7.0]), n)
    lo, hi = weighted_median_intervals(q, t, w, B)
    slo, shi = weighted_median_intervals(q, t, w * 2.0**-20, B)
    assert np.array_equal(lo, slo) and np.array_equal(hi, shi)
    assert (hi > lo).any()  # some even splits: intervals


def test_query_many_answers_every_row_when_the_lp_fails_on_one(monkeypatch):
    """A row the LP fails on (a time-out, say) gets NaN bounds, method "failed" and its reason;
    the other rows are answered as before."""
    import sys

    from plx_core.errors import SolverTimeoutError

    Q = sys.modules["plx_core.query"]
    X, y = example2()
    kb = direct_kb(X, y)
    rows = pd.DataFrame([as_query("0101"), as_query("1111"), as_query("0011")])
    before = query_many(kb, rows, method="lp")
    real = Q.query

    def flaky(kb_, q, *a, **kw):
        if dict(q) == as_query("1111"):
            raise SolverTimeoutError("the LP solver hit its time limit (60 s)")
        return real(kb_, q, *a, **kw)

    monkeypatch.setattr(Q, "query", flaky)
    got = query_many(kb, rows, method="lp")
    assert np.isnan(got.lower[1]) and np.isnan(got.upper[1]) and got.method[1] == "failed"
    assert got.failed == ((1, "the LP solver hit its time limit (60 s)"),)
    assert list(got.notes) == ["", "the LP solver hit its time limit (60 s)", ""]
    assert np.array_equal(got.lower[[0, 2]], before.lower[[0, 2]])
    assert np.array_equal(got.upper[[0, 2]], before.upper[[0, 2]])
