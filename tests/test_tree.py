"""Tree KBs: ID3 reproduces Fig. 1 / Table 1 of the paper; clause counts match the data."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from plx_core.errors import DataError
from plx_core.kb import KB, SOURCES
from plx_core.query import encode_query_rows, query, query_many
from plx_core.tree import (
    Tree,
    build_trees,
    id3,
    id3_binary,
    path_clauses,
    tree_kb,
    tree_kb_with_trees,
    tree_rows,
    trees_to_kb,
    truncate,
)

POSITIVE = ["0000", "1111", "1010", "1100"]
NEGATIVE = ["0010", "0100", "1110", "1000"]
FEATURES = ["a1", "a2", "a3", "a4"]


@pytest.fixture
def example2() -> tuple[pd.DataFrame, list[int]]:
    X = pd.DataFrame([list(s) for s in POSITIVE + NEGATIVE], columns=FEATURES)
    return X, [1] * 4 + [0] * 4


def clause_set(kb: KB) -> set[tuple[frozenset[tuple[str, str]], float]]:
    out = set()
    for c in kb:
        body = frozenset((lit.atom, lit.value) for lit in c.literals if lit.is_feature)
        out.add((body, c.p))
    return out


def body(*conds: str) -> frozenset[tuple[str, str]]:
    return frozenset((c.split("=")[0], c.split("=")[1]) for c in conds)


TABLE_1 = {
    (body("a1=0", "a2=0", "a3=1", "a4=0"), 0.0),
    (body("a1=0", "a2=0", "a3=0", "a4=0"), 1.0),
    (body("a1=0", "a2=1", "a4=0"), 0.0),
    (body("a1=1", "a2=0", "a3=1", "a4=0"), 1.0),
    (body("a1=1", "a2=0", "a3=0", "a4=0"), 0.0),
    (body("a1=1", "a2=1", "a3=1", "a4=0"), 0.0),
    (body("a1=1", "a2=1", "a3=0", "a4=0"), 1.0),
    (body("a4=1"), 1.0),
}


def matching(X: pd.DataFrame, conds: tuple[tuple[str, str], ...]) -> pd.Series:
    mask = pd.Series(True, index=X.index)
    for f, v in conds:
        mask &= X[f].map(lambda x, v=v: x is not None and str(x) == v).astype(bool)
    return mask


# --------------------------------------------------------------------------- the paper


def test_table_1_exactly(example2):
    X, y = example2
    kb, trees = tree_kb_with_trees(X, y)
    assert kb.n_learned == 8
    assert clause_set(kb) == TABLE_1
    tree = trees[0]
    assert len(tree.leaves()) == 8
    assert tree.root.split == "a4"
    assert [c.label for c in tree.root.children] == ["a4=0", "a4=1"]
    assert tree.n_nodes == 15 and tree.depth == 4


def test_fig_1_shape(example2):
    """The second level of Fig. 1 splits on a1 (a three-way tie a1/a2/a3 under a4=0), the
    third on a2 (ties under a4=0, a1=0 and a1=1), the fourth on a3."""
    X, y = example2
    tree = build_trees(X, y)[0]
    a40 = tree.root.children[0]
    assert a40.split == "a1"
    assert [c.split for c in a40.children] == ["a2", "a2"]
    assert a40.children[0].children[1].is_leaf  # a4=0, a1=0, a2=1 is pure
    assert {n.feature for n in tree.nodes() if n.depth == 4} == {"a3"}


def test_kb_columns(example2):
    X, y = example2
    kb = tree_kb(X, y)
    assert kb.kind == "tree" and kb.positive == "1"
    assert kb.features == tuple(FEATURES)
    assert kb.domains == {f: ("0", "1") for f in FEATURES}
    assert np.all(kb.head == 1) and np.all(kb.w == 1.0)
    assert np.all(kb.source == SOURCES.index("tree"))
    assert kb.support.sum() == 8 and kb.positives.sum() == 4
    assert np.array_equal(kb.p, kb.positives / kb.support)
    assert KB.from_text(kb.to_text()) == kb


def test_clause_order_is_preorder(example2):
    X, y = example2
    kb, (tree,) = tree_kb_with_trees(X, y)
    leaves = tree.leaves()
    for i, leaf in enumerate(leaves):
        c = kb.clause(i)
        assert {(lit.atom, lit.value) for lit in c.literals if lit.is_feature} == set(leaf.path)
    assert leaves[-1].path == (("a4", "1"),)


def test_tree_frame(example2):
    X, y = example2
    tree = build_trees(X, y)[0]
    frame = tree.to_frame()
    assert len(frame) == tree.n_nodes
    assert list(frame.columns) == [
        "node", "parent", "feature", "value", "label", "count", "positives", "p", "depth",
        "is_leaf", "clause",
    ]
    assert frame.loc[0, "parent"] == -1 and frame.loc[0, "label"] == "root"
    assert frame.loc[0, "clause"] == "POS"
    assert frame["is_leaf"].sum() == 8
    # a child's path extends its parent's by one condition
    by_id = frame.set_index("node")
    for _, row in frame.iloc[1:].iterrows():
        parent = by_id.loc[row["parent"]]
        assert row["depth"] == parent["depth"] + 1
        assert row["clause"] == f"{parent['clause']} | ~{row['feature']}={row['value']}"
    assert frame.loc[frame["label"] == "a4=1", "clause"].item() == "POS | ~a4=1"


# --------------------------------------------------------------------------- nodes="all"


def test_all_nodes(example2):
    X, y = example2
    kb, (tree,) = tree_kb_with_trees(X, y, nodes="all")
    assert kb.kind == "tree-all"
    assert kb.n_learned == tree.n_nodes - 1 == 14
    assert np.array_equal(kb.p, kb.positives / kb.support)
    assert clause_set(tree_kb(X, y)) <= clause_set(kb)
    top = {(b, p) for b, p in clause_set(kb) if len(b) == 1}
    assert top == {(body("a4=0"), 3 / 7), (body("a4=1"), 1.0)}


# --------------------------------------------------------------------------- split rule


def test_ties_go_to_first_column():
    # y = b XOR c: every single feature has zero gain; the first column wins.
    X = pd.DataFrame({"c": list("0011"), "b": list("0101")})
    y = [0, 1, 1, 0]
    assert build_trees(X, y)[0].root.split == "c"
    assert build_trees(X[["b", "c"]], y)[0].root.split == "b"


def test_pure_split_is_one_level():
    X = pd.DataFrame({"noise": list("010101"), "key": list("aabbcc"), "x": list("000111")})
    y = ["yes", "yes", "no", "no", "yes", "yes"]
    kb, (tree,) = tree_kb_with_trees(X, y, positive="yes")
    assert tree.root.split == "key" and tree.depth == 1
    assert clause_set(kb) == {(body("key=a"), 1.0), (body("key=b"), 0.0), (body("key=c"), 1.0)}


def test_branches_only_on_present_values():
    X = pd.DataFrame({"a": list("xxyyzz"), "b": list("010101")})
    y = [1, 1, 0, 0, 1, 0]
    tree = build_trees(X, y)[0]
    z = [c for c in tree.root.children if c.value == "z"][0]
    assert z.split == "b"
    sub = build_trees(X.iloc[:4], y[:4])[0]
    assert [c.value for c in sub.root.children] == ["x", "y"]


def test_constant_feature_is_not_split():
    # Conflicting labels on identical rows: impure, but no feature separates anything.
    X = pd.DataFrame({"a": ["u"] * 4, "b": ["v"] * 4})
    y = [1, 0, 1, 1]
    kb, (tree,) = tree_kb_with_trees(X, y)
    assert tree.root.is_leaf and tree.n_nodes == 1
    for nodes in ("leaves", "all"):
        kb = tree_kb(X, y, nodes=nodes)
        assert len(kb) == 1 and kb.clause(0).p == 0.75 and kb.clause(0).to_text().endswith("POS")
        # the one leaf holds for every row (it sits with the clauses every query sees)
        assert query(kb, {"a": "u", "b": "v"}, semantics="relevant").lower == 0.75


def test_max_depth_and_min_samples_split(example2):
    X, y = example2
    kb, (tree,) = tree_kb_with_trees(X, y, max_depth=2)
    assert tree.depth == 2
    assert kb.support.sum() == 8
    shallow = build_trees(X, y, min_samples_split=4)[0]
    assert all(leaf.count < 4 or leaf.p in (0.0, 1.0) for leaf in shallow.leaves())
    assert shallow.n_nodes < 15


def test_missing_values_go_to_no_child():
    X = pd.DataFrame({"a": ["0", "0", "1", "1", None], "b": ["0", "1", "0", "1", "1"]})
    y = [0, 0, 1, 1, 1]
    kb, (tree,) = tree_kb_with_trees(X, y)
    assert tree.root.split == "a" and tree.root.count == 5
    assert sum(leaf.count for leaf in tree.leaves()) == 4
    assert clause_set(kb) == {(body("a=0"), 0.0), (body("a=1"), 1.0)}


def test_id3_on_codes():
    codes = np.array([[0, 1], [1, 1], [1, 0], [0, 0]])
    tree = id3(codes, np.array([0, 1, 1, 0]))
    assert isinstance(tree, Tree)
    assert tree.features == ("a1", "a2") and tree.domains == {"a1": ("0", "1"), "a2": ("0", "1")}
    assert tree.root.split == "a1" and tree.depth == 1
    domains = {"u": ("n", "y"), "v": ("p", "q")}
    named = id3(codes, [0, 1, 1, 0], features=("u", "v"), domains=domains)
    assert [c.label for c in named.root.children] == ["u=n", "u=y"]


# --------------------------------------------------------------------------- forests


def random_data(seed: int, n: int = 80, n_feat: int = 6) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 3, size=(n, n_feat)).astype(str),
                     columns=[f"f{j}" for j in range(n_feat)])
    y = (rng.random(n) < 0.3 + 0.4 * (X["f0"] == "1")).astype(int)
    y[:2] = [0, 1]
    return X, y


def test_forest_is_deterministic():
    X, y = random_data(1)
    a = tree_kb(X, y, n_trees=5, random_state=7)
    b = tree_kb(X, y, n_trees=5, random_state=7)
    c = tree_kb(X, y, n_trees=5, random_state=8)
    assert a.kind == "forest"
    assert a.to_text() == b.to_text()
    assert a.to_text() != c.to_text()
    gen = [tree_kb(X, y, n_trees=5, random_state=np.random.default_rng(3)) for _ in range(2)]
    assert gen[0].to_text() == gen[1].to_text()


def test_forest_trees_do_not_depend_on_n_trees():
    X, y = random_data(2)
    three = build_trees(X, y, n_trees=3, random_state=5)
    five = build_trees(X, y, n_trees=5, random_state=5)
    assert three == five[:3]
    assert len({t.root for t in five}) > 1  # bootstrap samples differ


def test_forest_concatenates_trees():
    X, y = random_data(3)
    kb, trees = tree_kb_with_trees(X, y, n_trees=4, nodes="all", random_state=0)
    assert len(trees) == 4
    assert kb.n_learned == sum(t.n_nodes - 1 for t in trees)
    assert kb.to_text() == trees_to_kb(trees, nodes="all").to_text()
    # every tree is grown on a bootstrap sample of n rows
    assert all(t.root.count == len(X) for t in trees)
    # without bootstrap and feature sampling, a forest repeats the single tree
    same = tree_kb(X, y, n_trees=3, bootstrap=False, max_features=X.shape[1])
    single = tree_kb(X, y)
    assert same.n_learned == 3 * single.n_learned
    assert np.array_equal(same.codes, np.vstack([single.codes] * 3))


def test_single_tree_with_bootstrap_and_feature_subset():
    X, y = random_data(4)
    kb = tree_kb(X, y, bootstrap=True, max_features=2, random_state=1)
    assert kb.kind == "tree"
    assert kb.to_text() == tree_kb(X, y, bootstrap=True, max_features=2, random_state=1).to_text()


# --------------------------------------------------------------------------- properties


@st.composite
def small_tables(draw, missing: bool = False):
    n_feat = draw(st.integers(1, 4))
    n = draw(st.integers(2, 30))
    values = st.sampled_from(["x", "y", "z", None] if missing else ["x", "y", "z"])
    cols = {f"f{j}": draw(st.lists(values, min_size=n, max_size=n)) for j in range(n_feat)}
    labels = st.lists(st.integers(0, 1), min_size=n, max_size=n)
    y = draw(labels.filter(lambda v: 0 < sum(v) < len(v)))
    X = pd.DataFrame(cols, dtype=object)
    return X, y


def check_counts(X: pd.DataFrame, y: list[int], kb: KB) -> None:
    yy = pd.Series(y, index=X.index)
    for c in kb:
        conds = tuple((lit.atom, lit.value) for lit in c.literals if lit.is_feature)
        mask = matching(X, conds)
        assert c.support == int(mask.sum())
        assert c.positives == int(yy[mask].sum())
        assert c.p == yy[mask].sum() / mask.sum()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_tables())
def test_leaf_clauses_match_data(data):
    X, y = data
    kb, (tree,) = tree_kb_with_trees(X, y)
    check_counts(X, y, kb)
    assert sum(c.support for c in kb) == len(X)  # leaves partition the rows
    # every row matches exactly one leaf
    hits = sum(matching(X, leaf.path).astype(int) for leaf in tree.leaves())
    assert (hits == 1).all()
    # a leaf is pure or has no feature left that takes two values there
    for leaf in tree.leaves():
        if 0 < leaf.positives < leaf.count:
            rows = X[matching(X, leaf.path)]
            used = {f for f, _ in leaf.path}
            assert all(rows[f].nunique() < 2 for f in X.columns if f not in used)
    check_counts(X, y, tree_kb(X, y, nodes="all"))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_tables(missing=True), st.integers(0, 3))
def test_clauses_match_data_with_missing_values(data, seed):
    X, y = data
    if X.isna().all().any():
        X = X.fillna("x")  # an all-missing column has no values to encode
    check_counts(X, y, tree_kb(X, y, nodes="all"))
    # feature sampling without bootstrap: counts are still those of the training rows
    check_counts(X, y, tree_kb(X, y, n_trees=2, bootstrap=False, max_features=1,
                               random_state=seed))
    kb = tree_kb(X, y)
    assert kb.support.sum() <= len(X)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_tables(missing=True), st.integers(1, 4))
def test_a_cut_tree_is_the_tree_grown_to_that_depth(data, depth):
    # the depth search of variant="auto" reads shallow trees off one grown tree
    X, y = data
    if X.isna().all().any():
        X = X.fillna("x")
    (full,) = build_trees(X, y)
    (grown,) = build_trees(X, y, max_depth=depth)
    assert truncate(full, depth) == grown
    assert truncate(full, None) is full
    a, b = trees_to_kb([truncate(full, depth)], "all"), trees_to_kb([grown], "all")
    assert a.to_frame().equals(b.to_frame())


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"nodes": "paths"}, "nodes"),
        ({"n_trees": 0}, "n_trees"),
        ({"n_trees": 2.5}, "n_trees"),
        ({"n_trees": True}, "n_trees"),
        ({"max_features": 0}, "max_features"),
        ({"max_features": 5}, "max_features=5"),
        ({"max_depth": 0}, "max_depth"),
        ({"min_samples_split": 1}, "min_samples_split"),
        ({"bootstrap": "yes"}, "bootstrap"),
        ({"random_state": "seed"}, "random_state"),
    ],
)
def test_bad_arguments(example2, kwargs, message):
    X, y = example2
    with pytest.raises(DataError, match=message):
        tree_kb(X, y, **kwargs)


def test_bad_data(example2):
    X, y = example2
    with pytest.raises(DataError, match="rows"):
        tree_kb(X, y[:-1])
    with pytest.raises(DataError, match="only one class"):
        tree_kb(X, [1] * 8)
    with pytest.raises(DataError, match="2-D integer"):
        id3(np.zeros((3, 2)), [0, 1, 0])
    with pytest.raises(DataError, match="0/1"):
        id3(np.zeros((3, 2), dtype=int), [0, 2, 0])
    with pytest.raises(DataError, match="y must be 1-D"):
        id3(np.zeros((3, 2), dtype=int), [0, 1])
    with pytest.raises(DataError, match="nodes"):
        trees_to_kb(build_trees(X, y), nodes="every")


# --------------------------------------------------------------------------- binary trees


def walk(tree: Tree, row: dict) -> list:
    """The nodes a full row passes through in a binary tree, root first: at each split the
    `=` child when the row has that value, else the `≠` child."""
    node, path = tree.root, [tree.root]
    while node.children:
        eq, ne = node.children
        node = eq if row[eq.feature] == eq.value else ne
        path.append(node)
    return path


def median_interval(values: list[float]) -> tuple[float, float]:
    """The unit-weight median interval [v_((c−1)//2), v_(c//2)] of c sorted values."""
    v = sorted(values)
    return v[(len(v) - 1) // 2], v[len(v) // 2]


def test_a_binary_split_is_one_value_against_the_rest():
    # label = a ≠ 0 over four values: one split, its "rest" one clause per remaining value
    X = pd.DataFrame({"a": list("0123") * 3, "b": list("xy") * 6})
    y = [int(v != "0") for v in X["a"]]
    kb, (tree,) = tree_kb_with_trees(X, y, positive=1, nodes="all", binary=True)
    assert [c.label for c in tree.root.children] == ["a=0", "a≠0"]
    assert tree.root.children[1].allowed == (("a", ("1", "2", "3")),)
    assert tree.n_nodes == 3 and kb.kind == "tree-bin" and len(kb) == 4
    assert clause_set(kb) == {(body("a=0"), 0.0), (body("a=1"), 1.0), (body("a=2"), 1.0),
                              (body("a=3"), 1.0)}
    assert (kb.support == [3, 9, 9, 9]).all()  # every clause of a node carries its counts
    for v, want in zip("0123", [0.0, 1.0, 1.0, 1.0]):
        b = query(kb, {"a": v, "b": "x"}, semantics="relevant")
        assert b.lower == b.upper == want


def test_a_feature_is_split_again_below_and_ties_go_to_the_first_column_then_value():
    # y = a ∈ {1, 2}: no single value separates it; the first split (a tie between
    # a=1 and a=2 … on gain) takes a's first best value, the second splits a again
    X = pd.DataFrame({"a": list("0123") * 4})
    y = [int(v in "12") for v in X["a"]]
    tree = build_trees(X, y, positive=1, binary=True)[0]
    first = tree.root.children[0]
    assert tree.root.split == "a" and first.label == "a=0"
    rest = tree.root.children[1]
    assert rest.allowed == (("a", ("1", "2", "3")),) and rest.split == "a"
    assert [c.label for c in rest.children] == ["a=3", "a≠3"]
    assert rest.children[1].allowed == (("a", ("1", "2")),) and rest.children[1].p == 1.0


@st.composite
def coded_tables(draw, missing: bool = False):
    """Integer-coded tables of 1–4 features with 2–4 values each (-1: missing) and 0/1 labels."""
    n_feat = draw(st.integers(1, 4))
    sizes = [draw(st.integers(2, 4)) for _ in range(n_feat)]
    n = draw(st.integers(2, 40))
    low = -1 if missing else 0
    cols = [draw(st.lists(st.integers(low, s - 1), min_size=n, max_size=n)) for s in sizes]
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    X = pd.DataFrame({f"f{j}": [None if v < 0 else f"v{v}" for v in c]
                      for j, c in enumerate(cols)}, dtype=object)
    # every value of the domain appears in a row of its own (labels 0, 1, 0, …) so the domains
    # are the full ones and both classes occur; the other rows and labels stay random
    extra = pd.DataFrame({f"f{j}": [f"v{k % s}" for k in range(max(sizes))]
                          for j, s in enumerate(sizes)}, dtype=object)
    return (pd.concat([X, extra], ignore_index=True), y + [k % 2 for k in range(max(sizes))],
            sizes)


def full_rows(sizes: list[int], rng: np.random.Generator, n: int = 12) -> list[dict]:
    return [{f"f{j}": f"v{rng.integers(0, s)}" for j, s in enumerate(sizes)} for _ in range(n)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coded_tables(missing=True), st.integers(0, 2**16), st.integers(1, 8))
def test_the_expanded_kb_answers_a_full_row_as_the_binary_tree(data, seed, cap):
    X, y, sizes = data
    codes = np.column_stack([X[c].map(lambda v: -1 if v is None else int(v[1:])).to_numpy()
                             for c in X.columns]).astype(np.int64)
    doms = {c: tuple(f"v{k}" for k in range(s)) for c, s in zip(X.columns, sizes)}
    tree = id3_binary(codes, np.array(y), features=tuple(X.columns), domains=doms,
                      positive="1", expand_cap=cap)
    unit = trees_to_kb([tree], "all")
    deep = trees_to_kb([tree], "all", weights="depth")
    assert deep.kind == "tree-bin-deep" and unit.kind == "tree-bin"
    # nothing exponential: no node expands into more than the cap
    assert all(n.n_clauses <= cap for n in tree.nodes())
    assert len(unit) == sum(n.n_clauses for n in tree.nodes() if n.feature is not None
                            or n.is_leaf) <= cap * tree.n_nodes
    for row in full_rows(sizes, np.random.default_rng(seed)):
        path = walk(tree, row)
        clause_nodes = [n for n in path if n.feature is not None or n.is_leaf]
        leaf = path[-1]
        # depth weights: the leaf outweighs its ancestors, the row gets a decision tree's answer
        b = query(deep, row, semantics="relevant")
        assert b.method == "median" and b.lower == pytest.approx(leaf.p) \
            and b.upper == pytest.approx(leaf.p)
        # unit weights: the median over the nodes on the row's path, one clause each
        lo, hi = median_interval([n.p for n in clause_nodes])
        u = query(unit, row, semantics="relevant")
        assert (u.lower, u.upper) == (pytest.approx(lo), pytest.approx(hi))
        # a full query gets the same answer under the full semantics (no LP needed)
        f = query(deep, row, semantics="full")
        assert (f.lower, f.upper) == (pytest.approx(b.lower), pytest.approx(b.upper))


@pytest.mark.parametrize("seed", range(6))
def test_walking_rows_down_a_grown_binary_tree_finds_every_clause_a_scan_finds(seed):
    from plx_core.variants import relevant_pairs

    # nodes narrowing several columns to several values each (so the clause within a node
    # is a mixed-radix position), rows with missing and never-seen values
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({f"f{j}": rng.choice(list("abcde"), 300) for j in range(4)}, dtype=object)
    y = ((X.f0 != "a") & (X.f1 != "b") | (X.f2 == "c")).to_numpy() ^ (rng.random(300) < 0.2)
    trees = build_trees(X, y.astype(int), positive=1, binary=True, random_state=seed)
    kb = trees_to_kb(trees, "all")
    assert len(kb) > 0 and trees[0].n_nodes > 10
    Q = X.sample(200, random_state=seed).reset_index(drop=True)
    Q = Q.mask(rng.random(Q.shape) < 0.1).mask(rng.random(Q.shape) < 0.05, "zz")
    codes = encode_query_rows(kb, Q)[0]
    walked, scanned = path_clauses(trees, codes), relevant_pairs(kb, codes)
    assert sorted(zip(*map(list, walked))) == sorted(zip(*map(list, scanned)))


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coded_tables(missing=True), st.integers(0, 2**16), st.booleans(),
       st.sampled_from(["leaves", "all"]), st.sampled_from(["unit", "depth"]), st.integers(1, 2))
def test_walking_rows_down_the_trees_finds_the_clauses_the_relevant_semantics_answers_with(
        data, seed, binary, nodes, weights, n_trees):
    from plx_core.variants import bounds_by_max_len, relevant_pairs

    X, y, sizes = data
    trees = build_trees(X, y, positive=1, binary=binary, n_trees=n_trees,
                        bootstrap=n_trees > 1, random_state=seed)
    kb = trees_to_kb(trees, nodes, weights=weights)
    rng = np.random.default_rng(seed)
    # queries with known, missing and never-seen values ("zz": not in any domain)
    Q = pd.DataFrame({c: rng.choice([*(f"v{k}" for k in range(s)), None, "zz"], 10)
                      for c, s in zip(X.columns, sizes)}, dtype=object)
    codes = encode_query_rows(kb, Q)[0]
    walked = path_clauses(trees, codes, nodes)
    scanned = relevant_pairs(kb, codes)
    assert sorted(zip(*map(list, walked))) == sorted(zip(*map(list, scanned)))
    # so the bounds are the relevant semantics' (and the LP's) for every row
    got = bounds_by_max_len(kb, Q, [None], semantics="relevant", pairs=walked)[None]
    want = query_many(kb, Q, semantics="relevant")
    assert np.array_equal(got.lower, want.lower) and np.array_equal(got.upper, want.upper)
    for i in range(3):
        q = {c: Q.iloc[i][c] for c in Q.columns}
        lp = query(kb, q, semantics="relevant", method="lp")
        assert got.lower[i] == pytest.approx(lp.lower, abs=1e-6)
        assert got.upper[i] == pytest.approx(lp.upper, abs=1e-6)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coded_tables(), st.integers(0, 2**16), st.sampled_from(["unit", "depth", "split"]))
def test_the_lp_and_the_fast_path_agree_on_partial_rows_of_a_binary_tree_kb(data, seed, how):
    X, y, sizes = data
    tree = build_trees(X, y, positive=1, binary=True)[0]
    kb = trees_to_kb([tree], "all", weights=how)
    rng = np.random.default_rng(seed)
    for row in full_rows(sizes, rng, 4):
        keep = rng.random(len(row)) < 0.6
        q = {f: (v if k else None) for (f, v), k in zip(row.items(), keep)}
        fast = query(kb, q, semantics="relevant")
        lp = query(kb, q, semantics="relevant", method="lp")
        assert fast.method == "median" and lp.method == "lp"
        assert fast.lower == pytest.approx(lp.lower, abs=1e-6)
        assert fast.upper == pytest.approx(lp.upper, abs=1e-6)
        # a clause answers only when the row knows every feature its node constrains: a row
        # missing the root's split feature has no clause at all
        if tree.root.split is not None and q[tree.root.split] is None:
            assert (fast.lower, fast.upper) == (0.0, 1.0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coded_tables(missing=True), st.integers(1, 4))
def test_a_cut_binary_tree_is_its_kb_cut_by_depth_or_features(data, d):
    # the search reads every limit off one grown tree: by depth (depth weights 2^depth) for
    # "tree-bin-deep", by the features a path constrains (clause length) for "tree-bin"
    from plx_core.tree import cut_to_features
    from plx_core.variants import bounds_by_max_len

    X, y, sizes = data
    tree = build_trees(X, y, positive=1, binary=True)[0]
    deep = trees_to_kb([tree], "all", weights="depth")
    cut = trees_to_kb([truncate(tree, d)], "all", weights="depth")
    assert cut.to_text() == trees_to_kb([build_trees(X, y, positive=1, binary=True,
                                                     max_depth=d)[0]], "all",
                                        weights="depth").to_text()
    keep = deep.w <= 2.0 ** d
    assert clause_set(cut) == {(frozenset((lit.atom, lit.value) for lit in c.literals
                                          if lit.is_feature), c.p)
                               for c, k in zip(deep, keep) if k}
    rows = pd.DataFrame(full_rows(sizes, np.random.default_rng(d), 8))
    got = bounds_by_max_len(deep, rows, [d], semantics="relevant",
                            levels=np.rint(np.log2(deep.w)).astype(int))[d]
    from plx_core.query import query_many

    want = query_many(cut, rows, semantics="relevant")
    assert np.allclose(got.lower, want.lower) and np.allclose(got.upper, want.upper)
    unit = trees_to_kb([tree], "all")
    by_len = trees_to_kb([cut_to_features(tree, d)], "all")
    assert len(by_len) == int((unit.lengths <= d).sum())
    assert clause_set(by_len) == {c for c, n in zip(clause_set_list(unit), unit.lengths) if n <= d}


def clause_set_list(kb: KB) -> list:
    return [(frozenset((lit.atom, lit.value) for lit in c.literals if lit.is_feature), c.p)
            for c in kb]


def test_bad_binary_arguments():
    with pytest.raises(DataError, match="expand_cap"):
        id3_binary(np.zeros((3, 1), int), [0, 1, 0], expand_cap=0)
    with pytest.raises(DataError, match="weights"):
        trees_to_kb(build_trees(pd.DataFrame({"a": ["x", "y"]}), [0, 1], binary=True), "all",
                    weights="heavy")


@pytest.mark.parametrize("grow", [id3, id3_binary])
@pytest.mark.parametrize("seed", range(12))
def test_a_tree_grown_a_depth_at_a_time_is_the_tree_grown_node_by_node(grow, seed):
    """Without sampling, the growers split every node of a depth from one bincount; with
    `feature_subset` as large as the features they go node by node (the forest's path, which
    then samples nothing): the same nodes, counts, conditions and KB — with missing values,
    duplicated rows, many-valued columns, depth and size limits."""
    rng = np.random.default_rng(seed)
    n, n_feat = int(rng.integers(5, 300)), int(rng.integers(1, 8))
    sizes = rng.integers(1, 11, size=n_feat)
    codes = (rng.random((n, n_feat)) * sizes).astype(np.int64)
    if seed % 2:
        codes[rng.random(codes.shape) < 0.15] = -1
    y = ((codes[:, 0] % 2 == 0) ^ (rng.random(n) < 0.2)).astype(int)
    if seed % 3 == 0:  # replicas
        codes, y = np.concatenate([codes, codes[: n // 2]]), np.concatenate([y, y[: n // 2]])
    domains = {f"a{j + 1}": tuple(str(k) for k in range(int(s))) for j, s in enumerate(sizes)}
    kw = {"max_depth": (None, 2, 4)[seed % 3], "min_samples_split": (2, 2, 6, 12)[seed % 4],
          "domains": domains}
    if grow is id3_binary:
        kw["expand_cap"] = (32, 4, 1000)[seed % 3]
    levels = grow(codes, y, **kw)
    nodes = grow(codes, y, feature_subset=n_feat, **kw)
    assert levels.to_frame().equals(nodes.to_frame())
    assert levels.root == nodes.root
    for weights in ("unit", "depth"):
        assert (trees_to_kb([levels], "all", weights=weights).to_text()
                == trees_to_kb([nodes], "all", weights=weights).to_text())


def test_trees_grown_on_rows_encoded_once_are_the_trees_of_the_table(example2):
    X, y = example2
    X = X.mask(np.eye(8, 4, dtype=bool))  # a missing cell in four rows
    rows = tree_rows(X, y, positive=1)
    for binary in (False, True):
        for n_trees in (1, 3):
            got = build_trees(rows, n_trees=n_trees, binary=binary)
            want = build_trees(X, y, positive=1, n_trees=n_trees, binary=binary)
            assert trees_to_kb(got, "all").to_text() == trees_to_kb(want, "all").to_text()
    with pytest.raises(DataError, match="no y or positive"):
        build_trees(rows, y)
    with pytest.raises(DataError, match="needs y"):
        build_trees(X)


def reference_kb_rows(tree: Tree, nodes: str, weights: str) -> list[tuple]:
    """A plain reference for `trees_to_kb`: walk the node objects in pre-order and expand each
    clause node with `itertools.product` over its allowed values (a multiway node: its path)
    — (code row, p, w, support, positives) per clause."""
    import itertools

    col = {f: j for j, f in enumerate(tree.features)}
    code = {f: {v: k for k, v in enumerate(tree.domains[f])} for f in tree.features}
    out = []
    for node in tree.nodes():
        if (node.is_leaf if nodes == "leaves" else node.feature is not None or node.is_leaf):
            sets = (node.allowed if hasattr(node, "allowed")
                    else tuple((f, (v,)) for f, v in node.path))
            combos = list(itertools.product(*[vs for _, vs in sets]))
            w = {"unit": 1.0, "depth": 2.0 ** min(node.depth, 40), "split": 1 / len(combos)}
            for combo in combos:
                row = [-1] * len(tree.features)
                for (f, _), v in zip(sets, combo):
                    row[col[f]] = code[f][v]
                out.append((tuple(row), node.p, w[weights], node.count, node.positives))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coded_tables(missing=True), st.booleans(), st.sampled_from(["leaves", "all"]),
       st.sampled_from(["unit", "depth", "split"]), st.integers(1, 6))
def test_the_kb_of_a_tree_is_its_nodes_expanded_one_by_one(data, binary, nodes, weights, cap):
    """`trees_to_kb` reads the tree's arrays with no Python per node; it equals the plain
    reference expanding the tree's node objects one by one (clause order, bodies, p, weights
    and counts), for multiway and binary trees, cut by depth or by features, and a tree built
    by hand from its root node is the grown tree."""
    from plx_core.tree import cut_to_features

    X, y, sizes = data
    codes = np.column_stack([X[c].map(lambda v: -1 if v is None else int(v[1:])).to_numpy()
                             for c in X.columns]).astype(np.int64)
    doms = {c: tuple(f"v{k}" for k in range(s)) for c, s in zip(X.columns, sizes)}
    kw = {"features": tuple(X.columns), "domains": doms, "positive": "1"}
    tree = (id3_binary(codes, np.array(y), expand_cap=cap, **kw) if binary
            else id3(codes, np.array(y), **kw))
    cuts = [tree, truncate(tree, 2)] + ([cut_to_features(tree, 1)] if binary else [])
    for t in cuts:
        kb = trees_to_kb([t], nodes, weights=weights)
        got = [(tuple(r), p, w, s, q) for r, p, w, s, q in zip(
            kb.codes.tolist(), kb.p.tolist(), kb.w.tolist(), kb.support.tolist(),
            kb.positives.tolist())]
        want = reference_kb_rows(t, nodes, weights)
        assert len(kb) == len(want)  # a root leaf's bare `POS` is the KB's prior clause
        assert got == [r for r in want if max(r[0]) >= 0]
        by_hand = Tree(t.root, t.features, t.domains, t.positive)
        assert by_hand == t and by_hand.root is t.root
        assert trees_to_kb([by_hand], nodes, weights=weights).to_text() == kb.to_text()


# --------------------------------------------------------------------------- pruning


def test_cost_complexity_alphas_by_hand():
    # 8 rows, 4 positive. The tree splits a2=0 (5 rows, 1 positive) from a2≠0 (3 positives),
    # then a1=0 (1 negative) from a1≠0 (1 positive, 3 negatives: nothing left to split it).
    # Errors as a share of the 8 rows: the root as a leaf 4/8, a2=0 as a leaf 1/8, its two
    # children 0 + 1/8 — a split that changes no decision goes at α = 0 —, then the root
    # (4/8 − 1/8 over one more leaf) at α = 3/8.
    from plx_core.tree import prune, prune_alphas

    X = pd.DataFrame({"a1": list("00001111"), "a2": list("01110000")})
    y = [0, 1, 1, 1, 1, 0, 0, 0]
    (tree,) = build_trees(X, y, positive=1, binary=True)
    labels = [(n.label, n.depth) for n in tree.nodes()]
    assert labels == [("root", 0), ("a2=0", 1), ("a1=0", 2), ("a1≠0", 2), ("a2≠0", 1)]
    alpha = prune_alphas(tree)
    assert alpha.tolist() == pytest.approx([np.inf, 3 / 8, 0.0, 0.0, 3 / 8])
    assert prune(tree, alpha > 0.0).n_nodes == 3 and prune(tree, alpha > 0.4).n_nodes == 1
    assert prune(tree, alpha > -1.0) == tree
    # negatives weighing 3: the root as a leaf errs on the 4 positives (4/16), the tree on
    # the positive below a2=0 (1/16): the root goes at α = 3/16
    assert prune_alphas(tree, w_pos=1.0, w_neg=3.0).tolist() == pytest.approx(
        [np.inf, 3 / 16, 0.0, 0.0, 3 / 16])
    # the deviance counts what a split tells about the probabilities: every split pays
    dev = prune_alphas(tree, cost="deviance")
    assert (dev[1:] > 0).all()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coded_tables(missing=True), st.sampled_from([0.0, 0.01, 0.03, 0.1, 0.3]))
def test_a_pruned_binary_tree_is_its_kb_cut_by_alpha(data, a):
    # the search answers every α off one grown tree: the KB of the tree pruned at α is the
    # whole tree's KB keeping the clauses whose α is above it, and answers alike
    from plx_core.query import query_many
    from plx_core.tree import clause_values, prune, prune_alphas
    from plx_core.variants import bounds_by_max_len

    X, y, sizes = data
    (tree,) = build_trees(X, y, positive=1, binary=True)
    alpha = prune_alphas(tree, 2.0, 1.0)
    nodes = list(tree.nodes())
    index = {id(n): i for i, n in enumerate(nodes)}
    for n in nodes:  # nested: a node goes no later than its parent
        for c in n.children:
            assert alpha[index[id(c)]] <= alpha[index[id(n)]]
    pruned = prune(tree, alpha > a)
    deep = trees_to_kb([tree], "all", weights="depth")
    cut = trees_to_kb([pruned], "all", weights="depth")
    per_clause = clause_values(tree, alpha)
    assert len(per_clause) == len(deep)
    if pruned.root.is_leaf:  # pruned to the root: its one clause, the base rate (a KB needs one)
        assert len(cut) == 1 and cut.lengths.max(initial=0) == 0 and not (per_clause > a).any()
        return
    assert clause_set(cut) == {c for c, k in zip(clause_set_list(deep), per_clause > a) if k}
    rows = pd.DataFrame(full_rows(sizes, np.random.default_rng(3), 8))
    lim = np.nextafter(-a, -np.inf)
    got = bounds_by_max_len(deep, rows, [lim], semantics="relevant", levels=-per_clause)[lim]
    want = query_many(cut, rows, semantics="relevant")
    assert np.allclose(got.lower, want.lower) and np.allclose(got.upper, want.upper)


def weakest_link_by_scan(tree, w_pos: float, w_neg: float) -> np.ndarray:
    """CART's weakest-link α per node, the plain way: every step recomputes each live
    internal node's subtree risk and leaves from scratch and collapses the weakest."""
    nodes = list(tree.nodes())
    index = {id(n): i for i, n in enumerate(nodes)}
    kids = [[index[id(c)] for c in n.children] for n in nodes]
    wp = np.array([n.positives * w_pos for n in nodes], float)
    wn = np.array([(n.count - n.positives) * w_neg for n in nodes], float)
    total = max(wp[0] + wn[0], 1e-300)
    leaf_risk = np.minimum(wp, wn) / total
    cut = [False] * len(nodes)

    def sub(i):  # (risk, leaves) of the current subtree at i
        if cut[i] or not kids[i]:
            return leaf_risk[i], 1
        parts = [sub(k) for k in kids[i]]
        rest = min(max(wp[i] - sum(wp[k] for k in kids[i]), 0.0),
                   max(wn[i] - sum(wn[k] for k in kids[i]), 0.0)) / total
        return sum(r for r, _ in parts) + rest, sum(c for _, c in parts)

    def live(i):
        yield i
        if not cut[i]:
            for k in kids[i]:
                yield from live(k)

    collapse = np.full(len(nodes), np.inf)
    level = 0.0
    while True:
        cand = [i for i in live(0) if kids[i] and not cut[i]]
        if not cand:
            break
        g = {i: (leaf_risk[i] - sub(i)[0]) / max(sub(i)[1] - 1, 1) for i in cand}
        t = min(cand, key=lambda i: (g[i], i))
        level = max(level, g[t])
        collapse[t], cut[t] = level, True
    out = np.full(len(nodes), np.inf)
    for i in range(len(nodes)):
        for k in kids[i]:
            out[k] = min(collapse[i], out[i])
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coded_tables(missing=True), st.sampled_from([(1.0, 1.0), (2.0, 1.0), (1.0, 3.0)]))
def test_cost_complexity_alphas_are_the_weakest_link_found_by_a_full_scan(data, w):
    from plx_core.tree import prune_alphas

    X, y, _ = data
    (tree,) = build_trees(X, y, positive=1, binary=True)
    assert prune_alphas(tree, *w).tolist() == pytest.approx(
        weakest_link_by_scan(tree, *w).tolist(), abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_cost_complexity_alphas_of_a_large_tree_by_a_full_scan(seed):
    from plx_core.tree import prune_alphas

    rng = np.random.default_rng(seed)
    X = pd.DataFrame({f"f{j}": rng.choice(list("abcd"), 400) for j in range(5)}, dtype=object)
    X = X.mask(rng.random(X.shape) < 0.05)
    y = ((X.f0 == "a") | (X.f1 == "b")).to_numpy().astype(int) ^ (rng.random(400) < 0.2)
    (tree,) = build_trees(X, y, positive=1, binary=True)
    assert tree.n_nodes > 50
    assert prune_alphas(tree, 3.0, 1.0).tolist() == pytest.approx(
        weakest_link_by_scan(tree, 3.0, 1.0).tolist(), abs=1e-12)


def test_prune_checks_its_mask():
    from plx_core.tree import prune

    (tree,) = build_trees(pd.DataFrame({"a": list("0011")}), [0, 0, 1, 1], binary=True)
    with pytest.raises(DataError, match="keep has 1 entries"):
        prune(tree, np.ones(1, bool))


def fold_table(seed: int, n: int = 60) -> tuple[pd.DataFrame, np.ndarray]:
    """A seeded table of the values a search's folds split: numbers written two ways ("2" /
    "2.0"), text in two cases ("b" / "B "), missing cells, a value held by one row only."""
    rng = np.random.default_rng(seed)
    pick = lambda vals: np.array(vals, dtype=object)[rng.integers(0, len(vals), n)]  # noqa: E731
    X = pd.DataFrame({"num": pick(["1", "2", "10", "2.0", None]),
                      "txt": pick(["a", "b", "B ", "c", None]),
                      "one": pick(["x", "y"])})
    X.loc[int(rng.integers(0, n)), "one"] = "rare"
    return X, (rng.random(n) < 0.4).astype(int)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), share=st.sampled_from([0.2, 0.5, 0.8]))
def test_a_folds_rows_renumbered_are_its_rows_read_again(seed, share):
    """A fold's rows renumbered from the table's codes (`subset_rows`) are the rows
    `tree_rows` reads from its values — codes and their dtype, domains, labels — and the other
    rows renumbered for the fold's KB (`query.recode_rows`) are what `encode_query_rows` reads,
    values the fold lacks unseen; where such a value is a twin of one the fold has ("2" of
    "2.0", "B " of "b"), `recode_rows` leaves the reading to `encode_query_rows`."""
    from plx_core.encoding import encode
    from plx_core.query import recode_rows
    from plx_core.tree import subset_rows

    X, y = fold_table(seed)
    rng = np.random.default_rng(seed + 1)
    tr = np.sort(rng.choice(len(X), int(share * len(X)), replace=False))
    assume(0 < y[tr].sum() < len(tr))  # a search's folds are stratified: both classes in each
    te = np.setdiff1d(np.arange(len(X)), tr)
    enc = encode(X)
    got = subset_rows(enc.codes, enc.features, enc.domains, y[tr], tr)
    want = tree_rows(X.iloc[tr].reset_index(drop=True), y[tr], positive=1)
    assert got.codes.dtype == want.codes.dtype and np.array_equal(got.codes, want.codes)
    assert (got.features, got.domains, got.positive) == (want.features, want.domains,
                                                         want.positive)
    assert np.array_equal(got.y, want.y)
    kb = trees_to_kb(build_trees(got), "all")
    read = encode_query_rows(kb, X.iloc[te].reset_index(drop=True))
    mapped = recode_rows(kb, enc.codes[te], enc.features, enc.domains)
    if mapped is None:
        assert read[2], "left to encode_query_rows only for a value read as its twin"
    else:
        assert np.array_equal(mapped[0], read[0]) and mapped[1:] == read[1:]
