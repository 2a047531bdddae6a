"""The fitted vote on pairs of features ("direct-vote pairs" of variant="auto"): the Direct KB's
one- and two-feature clauses with fitted weights — one KB of weighted clauses answered by the
LP / weighted median, whose decision is the vote it was fitted as; chosen where the label is
an interaction of features (Car), saved and explained as it answers."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from test_vote import (
    SETTINGS,
    decides_and_explains_by_its_kb,
    model_files_keep_it_as_it_answers,
    tables,
)

from plx_core import query, query_many
from plx_core import variants as V
from plx_core import vote as VT
from plx_core.direct import direct_kb
from plx_core.estimator import PLXClassifier
from plx_core.query import TIE_EPS, encode_rows


def pair_table(n=500, seed=0):
    """Six columns of three values; the label is "a = b" or f = 0, with 5% flipped."""
    rng = np.random.default_rng(seed)
    v = rng.integers(0, 3, (n, 6))
    y = (v[:, 0] == v[:, 1]) | (v[:, 5] == 0)
    y ^= rng.random(n) < 0.05
    X = pd.DataFrame(v.astype(str).astype(object), columns=list("abcdef"))
    return X, np.where(y, "yes", "no")


def test_pair_codes_give_every_two_feature_value_combination_a_slot():
    codes = np.array([[0, 1, 2], [1, -1, 0], [2, 0, 3]])
    got, sizes = VT.pair_codes(codes, [3, 2, 4])
    assert sizes == [3, 2, 4, 6, 12, 8]  # the pairs (0, 1), (0, 2), (1, 2)
    assert VT.pair_list(3) == [(0, 1), (0, 2), (1, 2)]
    assert got[:, 3:].tolist() == [[1, 2, 6], [-1, 4, -1], [4, 11, 3]]  # −1: an open cell
    # one slot per (feature, value) and per (pair, combination): no two collide
    slots = VT.value_slots(got, sizes)
    assert slots.n == sum(sizes)
    assert len(set(slots.slot[slots.slot >= 0].tolist())) == (slots.slot >= 0).sum()


@pytest.mark.slow
@SETTINGS
@given(data=tables())
def test_the_pair_vote_kb_answers_as_the_lp_and_decides_as_its_vote(data):
    X, y, q, t, balanced = data
    cw = V.balanced_weights(int(y.sum()), len(y)) if balanced else (1, 1)
    full = direct_kb(X, y, positive=1)
    if balanced:
        full = V.weighted_class_kb(full, *cw)
    codes, sizes = VT.pair_codes(encode_rows(full, X), [len(full.domains[f]) for f in full.features])
    slots = VT.value_slots(codes, sizes)
    w, b, counts = VT.fit_rows(slots, y, np.arange(len(y)), cw)
    kb = VT.vote_kb(full, sizes, cw, w, b, threshold=t)
    assert kb.n_learned == 0 or kb.lengths.max() <= 2
    fast, lp = query(kb, q), query(kb, q, method="lp")
    assert fast.method == "median" and lp.method == "lp"
    assert fast.lower == pytest.approx(lp.lower, abs=2e-7)
    assert fast.upper == pytest.approx(lp.upper, abs=2e-7)
    # the decision at 0.5 is the sign of the vote of the row's one- and two-feature clauses
    row_codes, _ = VT.pair_codes(encode_rows(full, pd.DataFrame([q]).astype(object)),
                                 [len(full.domains[f]) for f in full.features])
    s = VT.votes(VT.value_slots(row_codes, sizes), np.zeros(1), np.arange(1), counts, cw,
                 leave_out=False)
    score = float(VT.scores(s, w, b - np.log(t / (1 - t)))[0])
    assert (fast.n_relevant == 0) == np.isnan(score)
    if fast.n_relevant and abs(score) > 1e-9:
        assert (fast.mean > 0.5 + TIE_EPS) == (score > 0)


@pytest.mark.slow
def test_the_default_chooses_the_pair_vote_on_car_and_answers_as_the_lp(tmp_path, shared_data_dir):
    """Car (UCI): the label is a hierarchy of six graded attributes ("unacceptable" when the
    price is too high for the comfort and safety) — pairs of features decide it, not their sum."""
    from sklearn.metrics import f1_score

    import plx_core.selection as S
    from plx_core.experiments.compare import split_set

    X, yb, ((tr, te),) = split_set("car", 1)
    y = np.where(yb == 1, "yes", "no")
    clf = PLXClassifier(positive="yes", random_state=0).fit(X.iloc[tr], y[tr])
    s = clf.selection_
    assert clf.chosen_ == clf.variant_ == "direct-vote" and s.pairs
    assert s.key == "direct-vote pairs" and s.scores[s.key] == max(s.scores.values())
    assert s.scores[s.key] > s.scores["direct-vote"] + S.VOTE_MARGIN
    assert "one- and two-feature clauses' fitted vote" in clf.chosen_reason_
    # one KB of one- and two-feature clauses of the Direct KB, with its probabilities
    kb = clf.kb_
    assert kb.kind == "direct" and set(kb.lengths.tolist()) == {1, 2} and clf.threshold_ == 0.5
    tuned = PLXClassifier(positive="yes", variant="tuned").fit(X.iloc[tr], y[tr]).paper_kbs_[0]
    two = V.windowed_kb(tuned, 1, 2, 0)
    same = {tuple(c): p for c, p in zip(two.codes.tolist(), two.p)}
    assert all(same[tuple(c)] == p for c, p in zip(kb.codes.tolist(), kb.p))
    # answered by the LP: its bounds are the fast path's, on full rows and a partial one
    rows = X.iloc[te]
    for i in range(5):
        q = {f: rows.iloc[i][f] for f in X.columns[: 6 - i % 3]}
        fast, lp = query(kb, q), query(kb, q, method="lp")
        assert (fast.lower, fast.upper) == (pytest.approx(lp.lower, abs=2e-7),
                                            pytest.approx(lp.upper, abs=2e-7))
    # deterministic with a seed
    again = PLXClassifier(positive="yes", random_state=0).fit(X.iloc[tr], y[tr])
    assert again.kb_.to_text() == kb.to_text()
    # the decision is the KB's mean against 0.5, and explanations search that KB
    means, pred = decides_and_explains_by_its_kb(clf, rows)
    # it answers held-out rows better than the search without it
    keep = VT.PAIR_VOTES
    try:
        VT.PAIR_VOTES = 0
        before = PLXClassifier(positive="yes", random_state=0).fit(X.iloc[tr], y[tr])
    finally:
        VT.PAIR_VOTES = keep
    assert not before.selection_.pairs
    assert f1_score(y[te] == "yes", pred == "yes") > f1_score(
        y[te] == "yes", before.predict(rows) == "yes")
    # a model file keeps it as it answers
    model_files_keep_it_as_it_answers(clf, tmp_path, rows, "direct-vote", means, pred)
    # variant="paper" is the paper's Direct KB, untouched by the search
    paper = PLXClassifier(positive="yes", variant="paper").fit(X.iloc[tr], y[tr])
    assert paper.kb_.kind == "direct" and paper.chosen_ == "direct"


def test_no_pair_vote_without_two_feature_clauses_or_above_the_vote_budget():
    X, y = pair_table(n=200)
    one = PLXClassifier(positive="yes", random_state=0, max_len=1).fit(X, y)
    assert "direct-vote pairs" not in one.selection_.scores
    both = PLXClassifier(positive="yes", random_state=0, max_len=2).fit(X, y)
    assert "direct-vote pairs" in both.selection_.scores
    # 200 rows × 15 pairs of 6 features: over a budget of 2,999 pair votes, no candidate
    keep = VT.PAIR_VOTES
    try:
        VT.PAIR_VOTES = 200 * 15 - 1
        got = PLXClassifier(positive="yes", random_state=0, max_len=2).fit(X, y)
    finally:
        VT.PAIR_VOTES = keep
    assert "direct-vote pairs" not in got.selection_.scores
    assert got.selection_.scores == {k: v for k, v in both.selection_.scores.items()
                                     if k != "direct-vote pairs"}


def test_the_pair_vote_kb_decides_as_its_vote_where_features_have_different_sizes():
    """Each two-feature clause gets the weight of its own pair slot (c_i · size_j + c_j): with
    features of 2, 3 and 4 values a slot read with the wrong size gives another clause's weight
    (the property test's features all have the same number of values)."""
    rng = np.random.default_rng(7)
    n = 240
    v = np.column_stack([rng.integers(0, s, n) for s in (2, 3, 4)])
    y = ((v[:, 1] == v[:, 2]) ^ (rng.random(n) < 0.05)).astype(int)
    X = pd.DataFrame(v.astype(str).astype(object), columns=["a", "b", "c"])
    full = direct_kb(X, y, positive=1)
    sizes0 = [len(full.domains[f]) for f in full.features]
    assert sorted(sizes0) == [2, 3, 4]
    codes, sizes = VT.pair_codes(encode_rows(full, X), sizes0)
    slots = VT.value_slots(codes, sizes)
    cw = (1.0, 1.0)
    w, b, counts = VT.fit_rows(slots, y, np.arange(n), cw)
    kb = VT.vote_kb(full, sizes, cw, w, b)
    assert kb.lengths.max() == 2
    rows = X.drop_duplicates().reset_index(drop=True)
    s = VT.votes(VT.value_slots(VT.pair_codes(encode_rows(full, rows), sizes0)[0], sizes),
                 np.zeros(len(rows)), np.arange(len(rows)), counts, cw, leave_out=False)
    score = VT.scores(s, w, b)
    mean = query_many(kb, rows).mean
    decided = np.abs(score) > 1e-6
    assert decided.sum() > 10
    assert ((mean[decided] > 0.5 + TIE_EPS) == (score[decided] > 0)).all()


def equal_or_table(n, seed):
    """MONK's 1's shape: six columns of 3, 3, 2, 3, 4, 2 values, the label "a = b" or e = 0
    (no noise); n random rows, or with n None every combination of values (432 rows)."""
    sizes = (3, 3, 2, 3, 4, 2)
    if n is None:
        v = np.array(np.meshgrid(*[np.arange(s) for s in sizes], indexing="ij")).reshape(6, -1).T
    else:
        rng = np.random.default_rng(seed)
        v = np.column_stack([rng.integers(0, s, n) for s in sizes])
    y = (v[:, 0] == v[:, 1]) | (v[:, 4] == 0)
    return pd.DataFrame(v.astype(str).astype(object), columns=list("abcdef")), np.where(y, "yes", "no")


@pytest.mark.slow
def test_the_default_states_a_equals_b_or_e_from_ninety_rows_with_sparse_pair_weights(
        tmp_path, monkeypatch):
    """A label "either term suffices", one term an equality of two features, on 90 rows (MONK's
    1's shape): the pair vote with sparse weights (`vote.PAIR_C`, `PAIR_L1`) answers and gets
    every combination of values right, its heaviest clauses are the label's terms, and its
    explanations name them; with the one-feature vote's dense L2 weights it did not."""
    X, y = equal_or_table(90, 3)
    grid, truth = equal_or_table(None, 0)
    clf = PLXClassifier(positive="yes", random_state=0).fit(X, y)
    s = clf.selection_
    assert clf.chosen_ == clf.variant_ == "direct-vote" and s.pairs
    assert (clf.predict(grid) == truth).mean() >= 0.99
    kb = clf.kb_
    assert kb.kind == "direct" and set(kb.lengths.tolist()) <= {1, 2}
    # the four heaviest clauses are the terms: a = b = v (three pair clauses) and e = 0, p = 1
    top = np.argsort(-kb.w)[:4]
    said = {tuple((f, kb.domains[f][c]) for f, c in zip(kb.features, kb.codes[i]) if c >= 0)
            for i in top}
    assert said == {(("a", v), ("b", v)) for v in "012"} | {(("e", "0"),)}
    assert (kb.p[top] == 1.0).all()
    assert kb.n_learned < 60  # the L1 penalty leaves most of the ~150 clauses out
    # a positive row is explained by the term it holds
    pos = np.flatnonzero(truth == "yes")
    for i in pos[:: max(1, len(pos) // 12)]:
        row = grid.iloc[i]
        got = set(clf.explain(row, k=2).features)
        if row["a"] == row["b"] and row["e"] != "0":
            assert got == {"a", "b"}
        elif row["e"] == "0" and row["a"] != row["b"]:
            assert "e" in got
    means, pred = decides_and_explains_by_its_kb(clf, grid)
    model_files_keep_it_as_it_answers(clf, tmp_path, grid, "direct-vote", means, pred)
    # chosen on a sample of the rows (`scale.SEARCH_ROWS`), it is refitted on every row with
    # the same sparse penalty: few clauses, the terms the heaviest
    from plx_core import scale

    with monkeypatch.context() as m:
        m.setattr(scale, "SEARCH_ROWS", 80)
        sampled = PLXClassifier(positive="yes", random_state=0).fit(X, y)
    assert sampled.search_rows_ == 80 and sampled.selection_.pairs
    k = sampled.kb_
    assert k.n_learned < 60
    assert {tuple((f, k.domains[f][c]) for f, c in zip(k.features, k.codes[i]) if c >= 0)
            for i in np.argsort(-k.w)[:4]} == said
    # the pair vote with the one-feature vote's penalty (dense L2, no L1) misses it
    monkeypatch.setattr(VT, "PAIR_C", VT.VOTE_C)
    monkeypatch.setattr(VT, "PAIR_L1", 0.0)
    dense = PLXClassifier(positive="yes", random_state=0).fit(X, y)
    assert (dense.predict(grid) == truth).mean() < 0.9
