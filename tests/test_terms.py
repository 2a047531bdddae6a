"""Learned terms (`plx_core.terms`): the conjunctions the rule vote weighs."""

import numpy as np
import pandas as pd
import pytest
from test_vote import DNF_TERMS, dnf_table

from plx_core import terms as TM
from plx_core import variants as V
from plx_core import vote as VT
from plx_core.estimator import PLXClassifier
from plx_core.tree import tree_rows


def coded(X, y):
    """(codes, sizes, features, domains, 0/1 labels) of a table, as the search reads it."""
    rows = tree_rows(X, (np.asarray(y) == "yes").astype(int), positive=1)
    return rows.codes, [len(rows.domains[f]) for f in rows.features], rows.features, \
        rows.domains, rows.y


def term_literals(found, g, features, domains):
    """Term g as {feature: sorted values it allows}."""
    out: dict = {}
    for b in found.bodies[found.group == g]:
        for j in np.flatnonzero(b >= 0):
            out.setdefault(features[j], set()).add(domains[features[j]][b[j]])
    return {f: sorted(v) for f, v in out.items()}


def test_the_first_terms_of_a_noisy_dnf_are_its_terms():
    X, y = dnf_table(n=700, noise=0.1)
    codes, sizes, feats, doms, yb = coded(X, y)
    found = TM.learn_terms(codes, sizes, yb, V.balanced_weights(int(yb.sum()), len(yb)))
    first = [term_literals(found, g, feats, doms) for g in range(3)]
    want = [{f: [v] for f, v in t.items()} for t in DNF_TERMS]
    assert sorted(map(str, first)) == sorted(map(str, want))
    # deterministic
    again = TM.learn_terms(codes, sizes, yb, V.balanced_weights(int(yb.sum()), len(yb)))
    assert np.array_equal(again.bodies, found.bodies) and np.array_equal(again.group, found.group)


def test_a_rest_literal_is_one_clause_per_value_it_allows_and_they_vote_as_one():
    # MONK's 3 without noise: (a5 = 3 ∧ a4 = 1) ∨ (a5 ≠ 4 ∧ a2 ≠ 3)
    rng = np.random.default_rng(0)
    n = 400
    a2, a4, a5 = rng.integers(1, 4, n), rng.integers(1, 4, n), rng.integers(1, 5, n)
    y = np.where(((a5 == 3) & (a4 == 1)) | ((a5 != 4) & (a2 != 3)), "yes", "no")
    X = pd.DataFrame({"a2": a2.astype(str), "a4": a4.astype(str), "a5": a5.astype(str)},
                     dtype=object)
    codes, sizes, feats, doms, yb = coded(X, y)
    found = TM.learn_terms(codes, sizes, yb, V.balanced_weights(int(yb.sum()), len(yb)))
    terms = [term_literals(found, g, feats, doms) for g in range(found.n_terms)]
    assert {"a2": ["1", "2"], "a5": ["1", "2", "3"]} in terms  # a5 ≠ 4 ∧ a2 ≠ 3
    # a row holds at most one clause of a term, and the rule set makes each term one vote
    held = VT.body_matches(found.bodies, sizes, codes).toarray()
    for g in range(found.n_terms):
        assert held[:, found.group == g].sum(axis=1).max() <= 1
    rules = VT.rule_set(sizes, [(found.bodies, found.group)], sources=[TM.TERM_SOURCE])
    member = rules.member(codes, []).toarray()
    assert np.array_equal(member, rules.member(codes).toarray())  # slots + matched = matched
    at = rules.starts[0]
    for g in range(found.n_terms):
        vote = np.unique(rules.group[at + np.flatnonzero(found.group == g)])
        assert len(vote) == 1  # a term's clauses are one vote (a one-literal term: its value's)
        assert (member[:, vote[0]] == held[:, found.group == g].any(axis=1)).all()
    assert (rules.source[at:] == TM.TERM_SOURCE).all()


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@pytest.mark.parametrize(("n", "seed"), [(400, 4), (400, 5), (600, 0)])
def test_every_line_of_a_noise_free_x_has_a_line_label_is_a_term(n, seed):
    """A label without noise ("x has a line of three", 9 cells of x / o / blank): by m = 50
    alone the covering took, over the last line of x's, a term of more rows that a row of the
    other class breaks (7 of the 8 lines on these boards); its first term has no exception, so
    the second covering (`TERM_EXACT_M`) runs and finds each line as it is."""
    rng = np.random.default_rng(seed)
    board = rng.choice(list("xob"), size=(n, 9), p=[0.45, 0.35, 0.2])
    won = np.zeros(n, bool)
    for line in LINES:
        won |= (board[:, list(line)] == "x").all(axis=1)
    X = pd.DataFrame(board, columns=[f"c{i}" for i in range(9)])
    codes, sizes, feats, doms, yb = coded(X, np.where(won, "yes", "no"))
    found = TM.learn_terms(codes, sizes, yb, V.balanced_weights(int(yb.sum()), len(yb)))
    terms = [term_literals(found, g, feats, doms) for g in range(found.n_terms)]
    for line in LINES:
        assert {f"c{i}": ["x"] for i in line} in terms, line


def test_a_noisy_label_gets_no_second_covering():
    """On noisy rows the first term has exceptions, so the terms are the m = 50 covering's
    alone (a small m fits the noise: DNF + 10% noise)."""
    X, y = dnf_table(n=700, noise=0.1)
    codes, sizes, _f, _d, yb = coded(X, y)
    cw = V.balanced_weights(int(yb.sum()), len(yb))
    found = TM.learn_terms(codes, sizes, yb, cw)
    alone = TM.learn_terms(codes, sizes, yb, cw, exact_m=0)
    assert np.array_equal(found.bodies, alone.bodies)


@pytest.mark.slow
def test_a_k3_explanation_of_a_dnf_row_is_the_term_that_fires():
    X, y = dnf_table()
    tr, te = np.arange(400), np.arange(400, 600)
    clf = PLXClassifier(positive="yes", random_state=0).fit(X.iloc[tr], y[tr])
    assert clf.chosen_ == "rule-vote"
    assert "terms learned by sequential covering" in clf.chosen_reason_
    rows = X.iloc[te].reset_index(drop=True)
    fires = np.array([[all(rows.at[i, f] == v for f, v in t.items()) for t in DNF_TERMS]
                      for i in range(len(rows))])
    pred = clf.predict(rows)
    one = np.flatnonzero((fires.sum(axis=1) == 1) & (pred == "yes"))
    assert len(one) >= 10
    for i in one[:10]:
        e = clf.explain(rows.iloc[i], k=3)
        term = DNF_TERMS[int(np.flatnonzero(fires[i])[0])]
        assert e.positive and set(term) <= set(e.features)


def test_terms_on_many_level_columns_stay_small_and_find_the_label():
    """A `≠` literal is one clause per value it allows: on 90-level columns three of them made
    one term 89³ clauses (a fit 10× slower, 1.8 GB). Above `REST_LEVELS` values a column gives
    only `a = v` literals, and the label's own terms are still found."""
    rng = np.random.default_rng(3)
    n = 1500
    cols = {c: np.where(rng.random(n) < 0.25, "v0", [f"v{x}" for x in rng.integers(1, 90, n)])
            for c in "abc"}
    X = pd.DataFrame(cols)
    X["d"] = rng.choice(list("pq"), n)
    y = np.where((X.a == "v0") | (X.b == "v0") | (X.c == "v0"), "yes", "no")
    codes, sizes, feats, doms, yb = coded(X, y)
    found = TM.learn_terms(codes, sizes, yb, V.balanced_weights(int(yb.sum()), len(yb)))
    most = (1 + (TM.TERM_EXACT_M > 0)) * 2 * TM.TERM_MAX * (TM.REST_LEVELS - 1) ** TM.TERM_LEN
    assert len(found.bodies) <= most
    positive = [term_literals(found, g, feats, doms) for g in range(found.n_terms)][:3]
    assert sorted(map(str, positive)) == sorted(str({f: ["v0"]}) for f in "abc")


def reference_terms(codes, sizes, y, cw, max_len=TM.TERM_LEN, beam=TM.TERM_BEAM, m=TM.TERM_M):
    """The module docstring's search written plainly: per class, a beam search over the
    literals' row sets (Python sets), the m-estimate (m = 0: the weighted relative accuracy)
    on whole-number counts, the beam the
    first `beam` distinct terms by quality (ties: the order of (beam term, literal)), then
    the term's rows of the class taken out."""
    M, feat, _, _ = TM.literals(codes, sizes)
    holds = [set(np.flatnonzero(M[:, j]).tolist()) for j in range(M.shape[1])]
    w = VT.row_weights(y, cw)
    found = []
    for cls in (1, 0):
        is_t = y == cls
        base = float((w * is_t).sum() / w.sum())
        w_t, w_r = float(w[is_t][0]), float(w[~is_t][0])
        left = set(np.flatnonzero(is_t).tolist())  # the class's rows still to cover
        others = set(np.flatnonzero(~is_t).tolist())
        for _ in range(TM.TERM_MAX):
            best, terms = None, [((), set(range(len(y))))]
            for depth in range(max_len):
                cands = []
                for i, (t, rows) in enumerate(terms):
                    for j, lit in enumerate(holds):
                        if feat[j] in {feat[a] for a in t}:
                            continue
                        r = rows & lit
                        c = len(r & left)
                        P = w_t * c
                        T = P + w_r * len(r & others)
                        W = w_t * len(left) + w_r * len(others)
                        q = (P + m * base) / (T + m) if m > 0 else (P - base * T) / W
                        if c >= TM.TERM_MIN_ROWS and T > 0:
                            cands.append((-q, i, j, P / T, r))
                cands.sort(key=lambda c: c[:3])
                nxt, seen = [], set()
                for negq, i, j, prec, r in cands[: beam * (depth + 1) * 2]:
                    t = tuple(sorted((*terms[i][0], j)))
                    if t in seen:
                        continue
                    seen.add(t)
                    if best is None or -negq > best[1] + 1e-12:
                        best = (t, -negq, prec)
                    nxt.append((t, r))
                    if len(nxt) == beam:
                        break
                if not nxt:
                    break
                terms = nxt
            if best is None or best[2] < base + TM.TERM_MIN_LIFT:
                break
            found.append(best[0])
            left -= set.intersection(*(holds[j] for j in best[0]))
    return found


@pytest.mark.parametrize(("seed", "m", "n"), [(0, TM.TERM_M, 160), (1, TM.TERM_M, 160),
                                         (2, TM.TERM_M, 160), (3, 0.0, 160), (4, 5.0, 700)])
def test_terms_are_the_plain_beam_search(seed, m, n):
    """`learn_terms`' bit-packed, vectorised search finds the terms the plain search does, in
    the same order — ties between terms of equal counts included (counts are whole numbers,
    not sums of floating-point weights whose rounding depends on the rows' order); by the
    m-estimate and by relative accuracy (m = 0), on one and on several words of rows."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 3, (n, 5))
    y = ((codes[:, 0] == 1) & (codes[:, 1] != 2) | (codes[:, 2] == 0) & (codes[:, 3] == 0))
    y = np.where(rng.random(n) < 0.1, ~y, y).astype(int)
    cw = V.balanced_weights(int(y.sum()), n)
    found = TM.learn_terms(codes, [3] * 5, y, cw, m=m, exact_m=0.0)
    M, feat, val, neg = TM.literals(codes, np.array([3] * 5))
    want = TM._bodies(reference_terms(codes, [3] * 5, y, cw, m=m), feat, val, neg,
                      np.array([3] * 5))
    assert found.n_terms == want.n_terms >= 2
    assert np.array_equal(found.bodies, want.bodies) and np.array_equal(found.group, want.group)
