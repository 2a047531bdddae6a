"""Tree KBs: ID3 reproduces Fig. 1 / Table 1 of the paper; clause counts match the data."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plx_core.errors import DataError
from plx_core.kb import KB, SOURCES
from plx_core.query import query
from plx_core.tree import (
    Tree,
    build_trees,
    id3,
    tree_kb,
    tree_kb_with_trees,
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
