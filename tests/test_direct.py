"""Direct KB (Algorithm 3): counts against brute force, max_len, missing values, bad input."""

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paper import example2

from plx_core import DataError, KBTooLargeError, direct_kb
from plx_core.direct import (
    WIDE_MAX_LEN,
    choose_max_len,
    direct_kb_with_reason,
    direct_kbs_with_reason,
    estimate_bytes,
    parse_size,
)


def brute_force(X: pd.DataFrame, y, max_len=None) -> dict:
    """Algorithm 3 as the paper writes it: a dict over every row's feature-value subsets."""
    counts: dict = {}
    for (_, row), label in zip(X.iterrows(), y):
        pairs = [(f, v) for f, v in row.items() if isinstance(v, str)]
        top = len(pairs) if max_len is None else min(max_len, len(pairs))
        for k in range(1, top + 1):
            for key in itertools.combinations(pairs, k):
                n, pos = counts.get(frozenset(key), (0, 0))
                counts[frozenset(key)] = (n + 1, pos + label)
    return counts


def as_dict(kb) -> dict:
    out = {}
    for i in range(kb.n_learned):
        c = kb.clause(i)
        key = frozenset((lit.atom, lit.value) for lit in c.literals if lit.is_feature)
        assert key not in out, "each body appears once in a Direct KB"
        out[key] = (c.support, c.positives)
        assert c.p == pytest.approx(c.positives / c.support)
    return out


def test_example2_has_the_paper_counts():
    X, y = example2()
    kb = direct_kb(X, y)
    assert kb.kind == "direct" and kb.positive == "1"
    d = as_dict(kb)
    assert d == brute_force(X, y)
    assert d[frozenset({("a1", "0")})] == (3, 1)  # [0.33] POS ∨ ¬a1=0 of Example 7
    assert d[frozenset({("a4", "1")})] == (1, 1)
    assert len(kb) == 59


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(st.lists(st.sampled_from(["x", "y", "z", None]), min_size=3, max_size=3),
                  min_size=2, max_size=20),
    labels=st.data(),
    max_len=st.sampled_from([None, 1, 2]),
)
def test_counts_equal_brute_force(rows, labels, max_len):
    X = pd.DataFrame(rows, columns=["f1", "f2", "f3"])
    y = labels.draw(st.lists(st.integers(0, 1), min_size=len(rows), max_size=len(rows)))
    y[0], y[-1] = 0, 1
    if X.isna().all().any():
        X = X.fillna("x")
    kb = direct_kb(X, y, max_len=max_len)
    assert as_dict(kb) == brute_force(X, y, max_len)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), missing=st.sampled_from([0.0, 0.15]),
       max_len=st.sampled_from([None, 4]))
def test_counts_by_sorting_equal_brute_force(seed, missing, max_len):
    """Many values a feature: long bodies have key ranges too wide for a table and are counted
    by sorting, many subsets at once."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 9, (30, 6)).astype(str), columns=[f"f{i}" for i in range(6)])
    X = X.mask(rng.random(X.shape) < missing).fillna({"f0": "0"})
    y = rng.integers(0, 2, 30)
    from plx_core import direct as D

    with pytest.MonkeyPatch.context() as mp:  # by level keys, not by ranks (`_count_ranked`)
        mp.setattr(D, "RANK_PAIRS", 0)
        kb = direct_kb(X, y, max_len=max_len)
    assert as_dict(kb) == brute_force(X, y, max_len)
    assert (kb.lengths == (kb.codes >= 0).sum(axis=1)).all()


@pytest.mark.parametrize("seed", range(4))
def test_ranked_count_is_the_key_count(seed):
    """Counting by ranks refined level by level (`_count_ranked`) gives the key count's cube
    (`_count_level`: same bodies in the same order, supports, positives of every target) and
    tells the visitor the same body for every (subset, distinct row) pair — with missing
    values, repeated rows, a cap, domains of 1 to 300 values."""
    from plx_core import direct as D

    rng = np.random.default_rng(seed)
    n, F = 80, 6
    sizes = [1, 2, 3, 9, 40, 300][: F] if seed % 2 else rng.integers(2, 6, F).tolist()
    codes = (rng.integers(0, 10**6, (n, F)) % np.array(sizes)).astype(np.int64)
    codes = codes[rng.integers(0, n // 2, n)]  # repeated rows
    if seed > 1:
        codes[rng.random((n, F)) < 0.25] = -1
    Y = (rng.random((n, 1 + seed % 3)) < 0.4).astype(np.int64)

    def count(rank_pairs: int, cap: int | None):
        seen: dict = {}

        def visit(k, at, sup, pos):  # each pair's body as its (support, positives), −1: none
            m = len(sup)
            got = np.where(at < m, np.append(sup * 10**6 + pos[:, 0], -1)[np.minimum(at, m)], -1)
            seen.setdefault(k, []).append(got)

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(D, "RANK_PAIRS", rank_pairs)
            rows = D.distinct_rows(codes, Y, radix=np.asarray(sizes) + 1)
            c = D.count_rows(codes, Y, sizes, cap, rows=rows, visit=visit)
        return c, {k: np.vstack(v) for k, v in seen.items()}

    for cap in (None, 3):
        (a, va), (b, vb) = count(0, cap), count(D.WORK, cap)
        for f in ("codes", "support", "positives", "lengths"):
            assert getattr(a, f).dtype == getattr(b, f).dtype
            assert np.array_equal(getattr(a, f), getattr(b, f)), f
        assert va.keys() == vb.keys() and all(np.array_equal(va[k], vb[k]) for k in va)


@pytest.mark.parametrize("seed", range(3))
def test_probabilities_are_the_counts_ratio_bit_for_bit(seed, monkeypatch):
    """A Direct KB's p, and its class-corrected p (`weighted_class_kb`), are positives /
    support and `reweighted_p` of it exactly — also where they are computed once per (support,
    positives) pair and gathered (`per_count`, here for every KB)."""
    from plx_core import direct as D
    from plx_core.variants import reweighted_p, weighted_class_kb

    monkeypatch.setattr(D, "PER_COUNT_MIN", 0)
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 3, (60, 5)).astype(str), columns=[f"f{i}" for i in range(5)])
    y = (rng.random(60) < 0.3).astype(int)
    kb = direct_kb(X, y)
    assert len(kb) * 4 >= (kb.support.max() + 1) * (kb.positives.max() + 1)  # a table
    assert kb.p.tobytes() == (kb.positives / kb.support).tobytes()
    for w in ((42, 18), (1.7, 0.3)):
        want = np.clip(reweighted_p(kb.positives / kb.support, *w), 0.0, 1.0)
        assert weighted_class_kb(kb, *w).p.tobytes() == want.tobytes()


def test_many_features_fall_back_to_per_subset_counting():
    # 70 binary features need more than 62 bits of packed key: the fallback must agree
    rng = np.random.default_rng(1)
    X = pd.DataFrame(rng.integers(0, 2, (30, 70)).astype(str), columns=[f"f{i}" for i in range(70)])
    y = rng.integers(0, 2, 30)
    kb = direct_kb(X, y, max_len=2)
    assert as_dict(kb) == brute_force(X, y, 2)
    from plx_core import query

    b = query(kb, X.iloc[0].to_dict())
    assert b.method == "median" and b.n_relevant == 70 + 70 * 69 // 2


def test_default_cap_fits_the_budget_and_says_why():
    # 24 features of 2 values over 3,000 distinct rows: the full cube would not fit 1 GiB
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 2, (3000, 24)).astype(str), columns=[f"f{i}" for i in range(24)])
    y = np.arange(3000) % 2
    kb, why = direct_kb_with_reason(X, y, memory_budget="64MB")
    assert kb.max_len is not None and 1 <= kb.max_len < 24
    assert f"max_len={kb.max_len}" in why and "64 MiB" in why
    assert int(kb.lengths.max()) == kb.max_len
    assert estimate_bytes(3000, 24, kb.max_len, [2] * 24) <= 64 * 2**20
    # a cap the user asks for that does not fit is refused with the one that would
    with pytest.raises(KBTooLargeError, match=rf"pass max_len={kb.max_len}\b") as err:
        direct_kb(X, y, max_len=kb.max_len + 2, memory_budget=64 * 2**20)
    assert "MiB" in str(err.value)
    # small data: no cap, and the reason says so
    Xs, ys = example2()
    kb, why = direct_kb_with_reason(Xs, ys)
    assert kb.max_len is None and why.startswith("no clause-length cap")


def test_choose_max_len_for_the_dashboard():
    cap, why = choose_max_len(10_000, 30, [4] * 30, 4 * 2**30)
    assert cap is not None and 2 <= cap <= 4 and f"max_len={cap}" in why
    assert choose_max_len(100, 4, [3] * 4, 2**30)[0] is None
    small, big = choose_max_len(2000, 30, [4] * 30, 100 * 2**20)[0], choose_max_len(2000, 30, [4] * 30, 2**30)[0]
    assert small is not None and (big is None or small < big)
    with pytest.raises(KBTooLargeError, match="raise the budget"):
        choose_max_len(10**6, 200, [50] * 200, 2**20)
    assert parse_size("4GB") == 4 * 2**30 and parse_size("512 MiB") == 512 * 2**20
    with pytest.raises(DataError, match="not a positive size"):
        parse_size("-3GB")


def test_a_wide_table_on_few_rows_counts_clauses_of_two():
    # 42 rows × 100 two-bin columns: a clause of 3 holds ~5 rows, so pairs at most, and said
    # (in the default's search; a Direct KB asked for itself keeps clauses of 3)
    cap, why = choose_max_len(42, 100, [2] * 100, 4 * 2**30, search=True)
    assert cap == 2 and "would hold about 5 of the 42 training rows" in why
    assert "in the default's search" in why
    assert choose_max_len(42, 100, [2] * 100, 4 * 2**30)[0] == WIDE_MAX_LEN
    # Breast cancer 30's shape (398 rows, 3 bins: ~15 rows a cell) keeps clauses of 3
    assert choose_max_len(398, 30, [3] * 30, 4 * 2**30, search=True)[0] == 3
    # 120 columns on 400 rows (~50 a cell): 280,840 subsets of 3 cost more than they say
    cap, why = choose_max_len(400, 120, [2] * 120, 4 * 2**30, search=True)
    assert cap == 2 and "280,840 subsets of 3" in why and "pass max_len=3 to keep them" in why
    assert choose_max_len(400, 120, [2] * 120, 4 * 2**30)[0] == WIDE_MAX_LEN
    # a table not wide by its pairs (Zoo: 70 rows × 16 columns) is not capped by cells
    assert choose_max_len(70, 16, [2] * 16, 4 * 2**30, search=True)[0] > WIDE_MAX_LEN
    # past 200 columns (genes300: 80 rows × 300) the search's pairs cost the same way
    cap, why = choose_max_len(80, 300, [2] * 300, 4 * 2**30, search=True)
    assert cap == 1 and "44,850 subsets of 2" in why and "pass max_len=2 to keep them" in why
    # where the memory budget stops even a Direct KB asked for itself, it says so
    cap, why = choose_max_len(80, 300, [2] * 300, 4 * 2**30)
    assert cap == 2 and "3 would need about" in why


@pytest.mark.slow
@pytest.mark.parametrize("n, F, dom, max_len", [(20_000, 10, 4, 10), (5_000, 30, 4, 3),
                                                (50_000, 12, 3, 2), (3_000, 60, 2, 2)])
def test_estimate_is_above_the_measured_peak_and_close(n, F, dom, max_len):
    """The estimate bounds tracemalloc's peak of building the KB (from the table) and is within
    2.5x of it on data whose clauses come close to the bound (uniform random values)."""
    import tracemalloc

    rng = np.random.default_rng(3)
    X = pd.DataFrame(rng.integers(0, dom, (n, F)), columns=[f"f{i}" for i in range(F)])
    y = rng.integers(0, 2, n)
    tracemalloc.start()
    kb = direct_kb(X, y, max_len=max_len, memory_budget="20GB")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    est = estimate_bytes(n, F, max_len, [dom] * F, distinct=n)
    assert kb.n_learned > 0
    assert peak <= est <= 2.5 * peak, (peak, est)


@pytest.mark.parametrize("n, F, dom, max_len, k", [(3_000, 20, 3, 3, 6), (5_000, 12, 4, 4, 8),
                                                   (2_000, 30, 2, 2, 10)])
def test_estimate_bounds_the_peak_of_one_vs_rest_kbs_counted_at_once(n, F, dom, max_len, k):
    """K one-vs-rest KBs counted in one pass stay under `estimate_bytes(..., targets=K)`: the
    pairs' weights are made one target at a time (made at once, 10 targets took 4x the
    estimate), and the KBs share the code rows (10 targets: ~1.1x one KB's estimate)."""
    import tracemalloc

    rng = np.random.default_rng(3)
    X = pd.DataFrame(rng.integers(0, dom, (n, F)), columns=[f"f{i}" for i in range(F)])
    labels = rng.integers(0, k, n)
    tracemalloc.start()
    kbs, _ = direct_kbs_with_reason(X, [(labels == c).astype(int) for c in range(k)],
                                    max_len=max_len, memory_budget="20GB")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(kbs) == k and kbs[0].n_learned > 0
    assert peak <= estimate_bytes(n, F, max_len, [dom] * F, distinct=n, targets=k), peak


def test_bad_input_is_named():
    X, y = example2()
    with pytest.raises(DataError, match="column 'a1' holds non-categorical floats"):
        direct_kb(X.assign(a1=[0.5] * 8), y)
    with pytest.raises(DataError, match="no rows"):
        direct_kb(X.iloc[:0], [])
    with pytest.raises(DataError, match="only one class"):
        direct_kb(X, [1] * 8)
    with pytest.raises(DataError, match="pass positive="):
        direct_kb(X, ["a", "b", "c", "a", "b", "c", "a", "b"])
    with pytest.raises(DataError, match="pass positive="):
        direct_kb(X, ["sick", "well"] * 4)
    assert direct_kb(X, ["sick", "well"] * 4, positive="sick").positive == "sick"
    assert direct_kb(X, ["yes", "no"] * 4).positive == "yes"  # no/yes goes without saying
    with pytest.raises(DataError, match=r"missing in 1 row \[1\]: drop them"):
        direct_kb(X, [1, None, 1, 1, 0, 0, 0, 0])
    with pytest.raises(DataError, match="max_len"):
        direct_kb(X, y, max_len=0)
    with pytest.raises(DataError, match="duplicate column"):
        direct_kb(pd.concat([X, X[["a1"]]], axis=1), y)
    with pytest.raises(DataError, match="8 rows but y has 7"):
        direct_kb(X, y[:7])


def wide_table(n, F, dom=4, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, dom, (n, F)).astype(str), columns=[f"f{i}" for i in range(F)])
    y = ((X["f0"] == "0") ^ (X["f1"] == "1") ^ (rng.random(n) < 0.1)).astype(int).to_numpy()
    return X, y


def test_estimator_picks_a_cap_on_a_wide_table_and_says_why():
    from plx_core import PLXClassifier

    X, y = wide_table(600, 30)
    clf = PLXClassifier(variant="tuned").fit(X, y)  # the Direct KB answers (no selection)
    assert clf.max_len_ is not None and clf.max_len_ < 30
    assert f"max_len={clf.max_len_}" in clf.max_len_reason_
    assert int(clf.paper_kbs_[0].lengths.max()) == clf.max_len_
    assert set(clf.predict(X.iloc[:3])) <= {0, 1}
    # the user's cap wins when it fits, and is refused with a hint when it does not
    assert PLXClassifier(max_len=1, variant="paper").fit(X, y).max_len_ == 1
    with pytest.raises(KBTooLargeError, match=r"pass max_len=\d"):
        PLXClassifier(max_len=6, memory_budget="100MB").fit(X, y)
    small = PLXClassifier(memory_budget="40MB").fit(X, y)
    assert small.max_len_ is not None and small.max_len_ <= clf.max_len_


@pytest.mark.slow
def test_tuned_fit_stays_within_the_memory_budget():
    """The tuned fit (KB + leave-one-out) keeps tracemalloc's peak under the budget."""
    import tracemalloc

    from plx_core import PLXClassifier

    X, y = wide_table(4000, 13, dom=3, seed=2)
    budget = 300 * 2**20
    tracemalloc.start()
    clf = PLXClassifier(memory_budget=budget).fit(X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert clf.selection_ is not None  # the leave-one-out ran (and the trees were compared)
    assert peak <= budget, peak / 2**20


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), max_len=st.sampled_from([None, 1, 2, 3]))
def test_bitmaps_give_the_query_part_of_the_direct_kb(seed, max_len):
    """Counting a query's sets on demand (bitmaps) gives exactly the full KB's clauses inside the
    query, and the same answer, with or without a cap, with missing and unseen values."""
    from plx_core import query
    from plx_core.direct import DirectBitmaps

    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 3, (60, 5)).astype(str), columns=[f"f{i}" for i in range(5)])
    X = X.mask(rng.random(X.shape) < 0.1)
    y = rng.integers(0, 2, 60)
    y[:2] = [0, 1]
    full = direct_kb(X, y, max_len=max_len if max_len is not None else 5)
    bm = DirectBitmaps.from_data(X, y, max_len=max_len)
    q = {f: str(rng.integers(0, 4)) for f in X.columns if rng.random() < 0.8}  # "3" is unseen
    part = bm.kb_for(q)
    inside = {k: v for k, v in as_dict(full).items() if all(q.get(f) == val for f, val in k)}
    assert as_dict(part) == inside
    a, b = query(part, q), query(full, q)
    assert (a.lower, a.upper, a.n_relevant) == (b.lower, b.upper, b.n_relevant)


def test_cli_budget_chooses_the_cap_and_says_so(tmp_path, capsys):
    from plx_core.cli import main

    X, y = wide_table(300, 24, dom=2)
    csv = tmp_path / "wide.csv"
    X.assign(label=y).to_csv(csv, index=False)
    out = tmp_path / "m.json"
    assert main(["fit", str(csv), "--label", "label", "--budget", "48MB", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "max_len=" in err and "48 MiB" in err
    assert main(["fit", str(csv), "--label", "label", "--budget", "lots", "--out", str(out)]) == 2
    assert "not a size" in capsys.readouterr().err


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), F=st.integers(1, 16), step=st.sampled_from([3, 2**15]))
def test_body_keys_are_the_level_keys_of_the_bodies(seed, F, step):
    """A body's level key is its subset's offset (colex rank among the subsets of its length)
    plus its codes + 1 in mixed radix (`LevelKeys.level`), whatever the chunking, and
    `decode` gives the body back."""
    from plx_core.direct import LevelKeys

    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 5, F).tolist() if seed % 4 or F > 8 else [120] * F  # keys ≥ 2^52
    codes = np.where(rng.random((30, F)) < 0.5, -1,
                     rng.integers(0, 100, (30, F)) % np.array(sizes)).astype(np.int8)
    lk = LevelKeys.for_domains(sizes, None)
    lengths, keys = lk.body_keys(codes, step=step)
    for k in range(1, F + 1):  # and back: in key order (as counted) or not
        at = np.flatnonzero(lengths == k)
        assert (lk.decode(k, keys[at], F) == codes[at]).all()
        o = np.argsort(keys[at])
        assert (lk.decode(k, keys[at][o], F) == codes[at][o]).all()
    for row, n, key in zip(codes, lengths, keys):
        members = np.flatnonzero(row >= 0)
        assert n == len(members)
        if not len(members):
            assert key == 0
            continue
        mem, mult, offsets = lk.level(len(members))
        r = int(np.flatnonzero((mem == members).all(axis=1))[0])
        assert key == offsets[r] + int(((row[members].astype(np.int64) + 1) * mult[r]).sum())


def test_keys_beyond_float_precision_decode_exactly():
    """Level keys ≥ 2^52 (8 features of 120 values) are decoded by integer division."""
    from plx_core.direct import LevelKeys

    codes = np.random.default_rng(0).integers(0, 120, (50, 8)).astype(np.int8)
    codes[:5, 3] = -1
    lk = LevelKeys.for_domains([120] * 8, None)
    lengths, keys = lk.body_keys(codes)
    assert keys.max() >= 2**52
    for k in (7, 8):
        at = np.flatnonzero(lengths == k)
        assert (lk.decode(k, keys[at], 8) == codes[at]).all()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), k=st.integers(2, 5), cap=st.sampled_from([None, 1, 2]),
       missing=st.booleans())
def test_one_count_gives_every_one_vs_rest_kb(seed, k, cap, missing):
    """K one-vs-rest Direct KBs counted in one pass are the KBs counted one class at a time
    (same clauses in the same order, supports, positives, probabilities, cap)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 60))
    X = pd.DataFrame({f"f{i}": rng.choice(list("abc")[: int(rng.integers(1, 4))], n)
                      for i in range(4)}).astype(object)
    if missing:
        X = X.mask(rng.random(X.shape) < 0.2)
    labels = rng.permutation(np.concatenate([np.arange(k), rng.integers(0, k, n - k)]))
    ys = [(labels == c).astype(int) for c in range(k)]
    kbs, why = direct_kbs_with_reason(X, ys, max_len=cap)
    for y, kb in zip(ys, kbs):
        one, one_why = direct_kb_with_reason(X, y, positive=1, max_len=cap)
        assert why == one_why and kb.max_len == one.max_len and kb.features == one.features
        assert np.array_equal(kb.codes, one.codes)
        for a in ("support", "positives", "p", "w"):
            assert np.array_equal(getattr(kb, a), getattr(one, a)), a


@pytest.mark.parametrize("seed", range(4))
def test_class_labels_counted_at_once_are_each_class_counted_alone(seed):
    """One-vs-rest targets of one label column (`_row_labels`: each distinct row one class)
    counted by key (`_count_level`, dense and sorted) give each target's positives and visits
    as counting that target alone — with repeated rows, rows of a class no target names,
    missing values, domains of 2 to 400 values; and a table where rows with the same codes
    have different classes is counted too."""
    from plx_core import direct as D

    rng = np.random.default_rng(seed)
    n, F, K = 90, 4, 3 + seed % 2
    sizes = [2, 3, 400, 400] if seed % 2 else rng.integers(2, 6, F).tolist()
    codes = (rng.integers(0, 10**6, (n, F)) % np.array(sizes)).astype(np.int64)
    codes = codes[rng.integers(0, n // 2, n)]  # repeated rows
    if seed > 1:
        codes[rng.random((n, F)) < 0.2] = -1
    labels = (codes + 1) @ np.array([7, 11, 13, 17]) % (K + 1)  # one class a row; K: no target's
    if seed == 3:  # ... except one row, whose copy has another class
        codes[1], labels[1] = codes[0], (labels[0] + 1) % (K + 1)
    Y = np.column_stack([(labels == c).astype(np.int64) for c in range(K)])

    def count(Yc: np.ndarray):
        seen: dict = {}

        def visit(k, at, sup, pos):
            seen.setdefault(k, []).append((at.copy(), sup.copy(), pos.copy()))

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(D, "RANK_PAIRS", 0)  # by level keys
            rows = D.distinct_rows(codes, Yc, radix=np.asarray(sizes) + 1)
            return D.count_rows(codes, Yc, sizes, None, rows=rows, visit=visit), seen, rows

    together, seen, rows = count(Y)
    assert (D._row_labels(rows) is None) == (seed == 3)
    for c in range(K):
        alone, seen_c, _ = count(Y[:, [c]])
        assert np.array_equal(together.codes, alone.codes)
        assert np.array_equal(together.support, alone.support)
        assert np.array_equal(together.positives[:, c], alone.positives[:, 0])
        for k in seen:
            for (at, sup, pos), (at_c, sup_c, pos_c) in zip(seen[k], seen_c[k], strict=True):
                assert np.array_equal(at, at_c) and np.array_equal(sup, sup_c)
                assert np.array_equal(pos[:, c], pos_c[:, 0])


def test_each_class_leave_one_out_counts_against_the_pair_limit(monkeypatch):
    """K one-vs-rest KBs whose leave-one-outs visit every counted pair (`observe`) get a cap
    whose pairs, K visits of them, stay within `PAIR_LIMIT` (digits' 10 classes: 3 of 60
    pixels would be 430 M), said in the reason; one KB, or K counted without observers, keep
    the cap the pairs allow once."""
    from plx_core import direct as D

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 3, (200, 12)).astype(str), columns=[f"f{i}" for i in range(12)])
    labels = np.arange(200) % 4
    ys = [(labels == c).astype(int) for c in range(4)]
    monkeypatch.setattr(D, "PAIR_LIMIT", 4 * 200 * D.n_subsets(12, 2))  # 3 literals once
    alone, _ = direct_kbs_with_reason(X, ys)
    declined = [lambda codes, rows, cap: None] * 4  # observers that visit nothing still count
    seen, why = direct_kbs_with_reason(X, ys, observe=declined)
    one, _ = direct_kbs_with_reason(X, ys[:1], observe=declined[:1])
    assert alone[0].max_len == one[0].max_len == 3
    assert seen[0].max_len == 2
    assert "each once for each of the 4 classes' leave-one-out" in why


def test_a_wide_table_gets_clauses_of_at_most_three_features_by_default():
    """Beyond 12 features the default cap is 3 where clauses of 4 count many (row, subset) pairs,
    even where the budget allows more (40 weak columns: 11.5 s at cap 4, 2.0 s at 3, no better
    F1); a cheap wide table (zoo-like) and a given cap keep their length."""
    from plx_core import PLXClassifier
    from plx_core.direct import direct_kb_with_reason

    X, y = wide_table(300, 40, dom=2)
    kb, why = direct_kb_with_reason(X, y)
    assert kb.max_len == 3 and int(kb.lengths.max()) == 3
    assert "more than 12 features" in why and "40 features" in why
    assert direct_kb_with_reason(X.iloc[:120, :14], y[:120])[0].max_len is None  # cheap: uncapped
    assert direct_kb_with_reason(X.iloc[:, :12], y)[0].max_len is None  # 12: every length
    assert PLXClassifier(positive=1, variant="paper").fit(X, y).max_len_ == 3
    assert PLXClassifier(positive=1, variant="paper", max_len=4).fit(X, y).max_len_ == 4
