"""Tree KBs (Algorithms 1-2 of the paper): ID3 trees and forests turned into clauses.

ID3 here means multiway splits on categorical features chosen by information gain; scikit-learn
only has binary CART trees, so the learner is ours. Each root-to-leaf path (or, with
`nodes="all"`, each root-to-node path) becomes the clause `POS ∨ ¬a1=v1 ∨ … ∨ ¬ak=vk` whose
probability is the fraction of positive training rows at the path's end node.

Split rule (it reproduces Fig. 1 / Table 1 of the paper exactly):

- a node is split while it is impure and a candidate feature remains, also when the best gain is
  zero; a candidate is a feature not used on the path that takes at least two distinct values
  among the node's rows (a split with a single child would only lengthen the clause);
- a split branches only on the values present at the node, children ordered by value code;
- ties in information gain (within `GAIN_TOL`) go to the column that comes first.

Missing values (code -1): the gain of a feature is computed on the rows where it is known and
scaled by their fraction (as C4.5 does); a row whose split feature is missing goes to no child, so
it counts at the node but in no clause below it.

Binary trees (`id3_binary`; `tree_kb(binary=True)`, `PLXClassifier(kb="tree-bin")`): each split is one value against the rest,
`a=v` / `a≠v` (CART's categorical split, by information gain), and a feature can be split again
further down. The clause language stays `feature = value` bodies: a node's path condition is a
set of allowed values per feature it constrains, and the node becomes one clause per
combination of allowed values (`trees_to_kb`), each with the node's probability. The
combinations are mutually exclusive, so a query (full or partial) matches at most one of a
node's clauses, and under the relevant semantics a row gets exactly the binary tree's
all-node answer. A split whose "rest" child would need more than `EXPAND_CAP` clauses is not
taken, so a KB has at most `EXPAND_CAP` clauses per node: nothing exponential in the features.
"""

from __future__ import annotations

import dataclasses
import functools
import heapq
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from . import encoding
from .checks import checked_int
from .errors import DataError
from .kb import KB, POS, SOURCES
from .kb import Literal as ClauseLiteral
from .plurals import noun
from .tokens import condition_text

GAIN_TOL = 1e-12
"""Gains closer than this (in bits) are ties; float noise must not decide a tie."""
EXPAND_CAP = 32
"""The most clauses one node of a binary tree may expand into (the product of its allowed
value-set sizes); a value-against-rest split whose "rest" child would exceed it is not
taken (another split, or none, is)."""

TREE_SOURCE = SOURCES.index("tree")

NodesMode = Literal["leaves", "all"]
Weighting = Literal["unit", "depth", "split"]
WEIGHTINGS = ("unit", "depth", "split")
DEPTH_WEIGHT_CAP = 40
"""Depth weights are 2^min(depth, this): sums of them stay exact in float64 (2^41 < 2^53)."""


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class TreeNode:
    """One node: the edge `feature=value` into it, its training counts and its children.

    `path` holds the (feature, value) conditions from the root down to this node (the body of
    its clause); the root has feature, value None and an empty path.
    """

    feature: str | None
    value: str | None
    count: int
    positives: int
    depth: int
    children: tuple[TreeNode, ...] = ()
    path: tuple[tuple[str, str], ...] = ()
    p: float = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "p", self.positives / self.count if self.count else 0.0)

    @property
    def is_leaf(self) -> bool:
        return not self.children

    @property
    def conditions(self) -> tuple[tuple[str, str], ...]:
        """The path conditions (feature, value) from the root to this node."""
        return self.path

    @property
    def split(self) -> str | None:
        """The feature this node's children split on (None for a leaf)."""
        return self.children[0].feature if self.children else None

    @property
    def label(self) -> str:
        return "root" if self.feature is None else condition_text(self.feature, self.value)

    def clause_text(self) -> str:
        """The body of this node's clause, `POS | ~a4=0 | ~a1=0`, literals in path order."""
        lits = [POS] + [str(ClauseLiteral(f, v, True)) for f, v in self.path]
        return " | ".join(lits)


@dataclass(frozen=True)
class BinaryTreeNode:
    """One node of a binary (value-against-rest) tree: the edge into it (`feature=value`, or
    `feature≠value` when `equal` is False), its training counts, its children (the `=` child
    first) and `allowed`, the values each constrained feature may take on its path (features
    in the order first split), whose combinations are its clauses' bodies."""

    feature: str | None
    value: str | None
    equal: bool
    count: int
    positives: int
    depth: int
    children: tuple[BinaryTreeNode, ...] = ()
    allowed: tuple[tuple[str, tuple[str, ...]], ...] = ()
    p: float = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "p", self.positives / self.count if self.count else 0.0)

    @property
    def is_leaf(self) -> bool:
        return not self.children

    @property
    def split(self) -> str | None:
        """The feature this node's children split on (None for a leaf)."""
        return self.children[0].feature if self.children else None

    @property
    def label(self) -> str:
        if self.feature is None:
            return "root"
        return f"{self.feature}{'=' if self.equal else '≠'}{self.value}"

    @property
    def n_clauses(self) -> int:
        """How many clauses the node expands into (the product of its allowed-set sizes)."""
        return int(np.prod([len(v) for _, v in self.allowed], dtype=np.int64))

    def clause_text(self) -> str:
        """The node's condition as one line, `POS | ~a4=0 | ~a1∈{1,2}` (a set: one clause per
        value combination in the KB)."""
        lits = [POS] + [str(ClauseLiteral(f, v[0], True)) if len(v) == 1
                        else f"~{f}∈{{{','.join(v)}}}" for f, v in self.allowed]
        return " | ".join(lits)


@dataclass(frozen=True, eq=False)
class TreeArrays:
    """A tree's nodes as arrays, in pre-order (children in their order: by value code under a
    multiway split, the `=` child before the `≠` one under a binary split) — what the growers
    give and `trees_to_kb`, `truncate` and `cut_to_features` read, with no Python per node."""

    parent: np.ndarray
    """The parent's position (−1: the root)."""
    depth: np.ndarray
    count: np.ndarray
    """Training rows at the node."""
    positives: np.ndarray
    feature: np.ndarray
    """The column of the edge into the node (−1: the root)."""
    value: np.ndarray
    """The value code of the edge into the node (−1: the root)."""
    equal: np.ndarray
    """Whether that edge is `=` (False: a binary split's `≠` child)."""
    path: np.ndarray | None = None
    """Multiway: per node and column, the value code its path fixes (−1: none)."""
    allowed: np.ndarray | None = None
    """Binary: per node, column and value code, whether the value is allowed on its path."""
    rank: np.ndarray | None = None
    """Binary: per node and column, the column's place among those its path narrows (−1:
    not narrowed), in the order of their first split in the grown tree's pre-order — the
    order of `BinaryTreeNode.allowed` and of the node's clause expansion; kept when the tree
    is cut."""

    @property
    def binary(self) -> bool:
        return self.allowed is not None

    def is_leaf(self) -> np.ndarray:
        """Whether each node has no children."""
        return np.bincount(self.parent[1:], minlength=len(self.parent)) == 0

    def constrained(self, sizes: np.ndarray) -> np.ndarray:
        """Per node and column (domain sizes `sizes`), whether its path narrows the column."""
        if self.allowed is None:
            return self.path >= 0
        return self.allowed.sum(axis=2) < sizes

    def n_clauses(self, sizes: np.ndarray) -> np.ndarray:
        """How many clauses each node expands into (the product of its allowed-set sizes)."""
        if self.allowed is None:
            return np.ones(len(self.parent), np.int64)
        n_allowed = self.allowed.sum(axis=2)
        return np.where(n_allowed < sizes, n_allowed, 1).prod(axis=1).astype(np.int64)

    def kept(self, keep: np.ndarray) -> TreeArrays:
        """The nodes where `keep` (closed under ancestors: a kept node's parent is kept)."""
        new = np.cumsum(keep) - 1
        parent = self.parent[keep]
        return dataclasses.replace(
            self, parent=np.where(parent >= 0, new[np.maximum(parent, 0)], -1),
            **{f: getattr(self, f)[keep] for f in ("depth", "count", "positives", "feature",
                                                    "value", "equal")},
            path=None if self.path is None else self.path[keep],
            allowed=None if self.allowed is None else self.allowed[keep],
            rank=None if self.rank is None else self.rank[keep])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TreeArrays):
            return NotImplemented
        return all((a is None and b is None) or (a is not None and b is not None
                                                 and np.array_equal(a, b))
                   for a, b in ((getattr(self, f.name), getattr(other, f.name))
                                for f in dataclasses.fields(self)))

    __hash__ = None  # type: ignore[assignment]


class Tree:
    """An ID3 tree (multiway `TreeNode`s, or binary `BinaryTreeNode`s) with the feature names
    and value domains of the data it was grown on. Its nodes are held as arrays (`arrays`:
    what `trees_to_kb`, `truncate` and `cut_to_features` read); `root`, the nodes as objects
    for showing and walking the tree, is built on first use — a fit's trees are read as KBs
    only. `Tree(root, features, domains, positive)` takes nodes built by hand."""

    def __init__(self, root: TreeNode | BinaryTreeNode | None = None,
                 features: tuple[str, ...] = (), domains: dict[str, tuple[str, ...]] | None = None,
                 positive: str | None = None, *, arrays: TreeArrays | None = None) -> None:
        if (root is None) == (arrays is None):
            raise DataError("a Tree is built from its root node or from its arrays, one of them")
        self.features = tuple(features)
        self.domains = {} if domains is None else domains
        self.positive = positive
        if root is not None:
            self.__dict__["root"] = root
            arrays = _arrays_of_nodes(root, self.features, self.domains)
        self.arrays: TreeArrays = arrays

    @functools.cached_property
    def root(self) -> TreeNode | BinaryTreeNode:
        """The root node (its descendants as `children`), built from `arrays` once."""
        return _nodes_of_arrays(self.arrays, self.features, self.domains)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tree):
            return NotImplemented
        return ((self.features, self.domains, self.positive, self.arrays)
                == (other.features, other.domains, other.positive, other.arrays))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        kind = "binary" if self.arrays.binary else "multiway"
        return (f"Tree({kind}, {self.n_nodes} nodes, depth {self.depth}, "
                f"features={self.features!r}, positive={self.positive!r})")

    def nodes(self) -> Iterator[TreeNode]:
        """All nodes in pre-order (children in value-code order)."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def leaves(self) -> list[TreeNode]:
        """Leaves in pre-order (left to right)."""
        return [n for n in self.nodes() if n.is_leaf]

    @property
    def n_nodes(self) -> int:
        return len(self.arrays.parent)

    @property
    def depth(self) -> int:
        return int(self.arrays.depth.max())

    def sizes(self) -> np.ndarray:
        """The number of values of each feature's domain."""
        return np.array([len(self.domains[f]) for f in self.features], dtype=np.int64)

    def to_frame(self) -> pd.DataFrame:
        """One row per node in pre-order, for a tree view: `node` is the pre-order id and
        `parent` the parent's id (-1 for the root)."""
        rows: list[dict[str, Any]] = []
        stack: list[tuple[TreeNode, int]] = [(self.root, -1)]
        while stack:
            node, parent = stack.pop()
            nid = len(rows)
            rows.append(
                {
                    "node": nid,
                    "parent": parent,
                    "feature": node.feature,
                    "value": node.value,
                    "label": node.label,
                    "count": node.count,
                    "positives": node.positives,
                    "p": node.p,
                    "depth": node.depth,
                    "is_leaf": node.is_leaf,
                    "clause": node.clause_text(),
                }
            )
            stack.extend((c, nid) for c in reversed(node.children))
        return pd.DataFrame(rows)


def _nodes_of_arrays(a: TreeArrays, features: tuple[str, ...],
                     domains: dict[str, tuple[str, ...]]) -> TreeNode | BinaryTreeNode:
    """The root of `a`'s nodes as objects (Python per node: for showing and walking a tree)."""
    n = len(a.parent)
    parent = a.parent.tolist()
    kids: list[list[int]] = [[] for _ in range(n)]
    for i in range(1, n):
        kids[parent[i]].append(i)
    dom = [domains[f] for f in features]
    feat, val, eq = a.feature.tolist(), a.value.tolist(), a.equal.tolist()
    count, pos, depth = a.count.tolist(), a.positives.tolist(), a.depth.tolist()
    built: list[Any] = [None] * n
    if a.allowed is None:
        paths: list[tuple[tuple[str, str], ...]] = [()] * n
        for i in range(1, n):
            paths[i] = paths[parent[i]] + ((features[feat[i]], dom[feat[i]][val[i]]),)
        for i in range(n - 1, -1, -1):
            built[i] = TreeNode(
                feature=paths[i][-1][0] if paths[i] else None,
                value=paths[i][-1][1] if paths[i] else None,
                count=count[i], positives=pos[i], depth=depth[i],
                children=tuple(built[k] for k in kids[i]), path=paths[i])
        return built[0]
    rank = a.rank
    order = np.argsort(np.where(rank >= 0, rank, len(features)), axis=1, kind="stable")
    n_con = (rank >= 0).sum(axis=1).tolist()
    order = order.tolist()
    every = a.allowed.tolist()
    named: dict[tuple[int, tuple[bool, ...]], tuple[str, tuple[str, ...]]] = {}

    def values(j: int, row: list[bool]) -> tuple[str, tuple[str, ...]]:
        """(feature, its allowed values) for one allowed-value row, each distinct row once."""
        key = (j, tuple(row))
        hit = named.get(key)
        if hit is None:
            hit = named[key] = (features[j], tuple(v for v, keep in zip(dom[j], row) if keep))
        return hit

    for i in range(n - 1, -1, -1):
        built[i] = BinaryTreeNode(
            feature=None if feat[i] < 0 else features[feat[i]],
            value=None if feat[i] < 0 else dom[feat[i]][val[i]],
            equal=eq[i], count=count[i], positives=pos[i], depth=depth[i],
            children=tuple(built[k] for k in kids[i]),
            allowed=tuple(values(j, every[i][j]) for j in order[i][: n_con[i]]))
    return built[0]


def _arrays_of_nodes(root: TreeNode | BinaryTreeNode, features: tuple[str, ...],
                     domains: dict[str, tuple[str, ...]]) -> TreeArrays:
    """The arrays of a tree given by its root node (a tree built by hand)."""
    col = {f: j for j, f in enumerate(features)}
    code = {f: {v: k for k, v in enumerate(domains[f])} for f in features}
    nodes: list[Any] = []
    parent: list[int] = []
    stack: list[tuple[Any, int]] = [(root, -1)]
    while stack:
        node, p = stack.pop()
        parent.append(p)
        nodes.append(node)
        stack.extend((c, len(nodes) - 1) for c in reversed(node.children))
    feature = [-1 if nd.feature is None else col[nd.feature] for nd in nodes]
    value = [-1 if nd.feature is None else code[nd.feature][nd.value] for nd in nodes]
    binary = isinstance(root, BinaryTreeNode)
    ints = {"parent": parent, "depth": [nd.depth for nd in nodes], "count": [nd.count for nd in nodes],
            "positives": [nd.positives for nd in nodes], "feature": feature, "value": value}
    a = {k: np.array(v, dtype=np.int64) for k, v in ints.items()}
    a["equal"] = np.array([nd.equal if binary else True for nd in nodes], dtype=bool)
    n, F = len(nodes), len(features)
    if not binary:
        path = np.full((n, F), -1, np.int64)
        for i, nd in enumerate(nodes):
            for f, v in nd.path:
                path[i, col[f]] = code[f][v]
        return TreeArrays(**a, path=path)
    sizes = np.array([len(domains[f]) for f in features], dtype=np.int64)
    allowed = np.repeat((np.arange(int(sizes.max(initial=1))) < sizes[:, None])[None], n, axis=0)
    rank = np.full((n, F), -1, np.int64)
    for i, nd in enumerate(nodes):
        for r, (f, vs) in enumerate(nd.allowed):
            allowed[i, col[f]] = False
            allowed[i, col[f], [code[f][v] for v in vs]] = True
            rank[i, col[f]] = r
    return TreeArrays(**a, allowed=allowed, rank=rank)


def _with_rank(a: TreeArrays, sizes: np.ndarray) -> TreeArrays:
    """A grown binary tree's arrays with `rank`: each node's narrowed columns in the order of
    their first split in pre-order."""
    feats, first = np.unique(a.feature[1:], return_index=True)
    place = np.full(len(sizes), len(sizes), np.int64)
    place[feats] = np.argsort(np.argsort(first, kind="stable"), kind="stable")
    con = a.allowed.sum(axis=2) < sizes
    key = np.where(con, place, len(sizes))
    rank = np.argsort(np.argsort(key, axis=1, kind="stable"), axis=1, kind="stable")
    return dataclasses.replace(a, rank=np.where(con, rank, -1))


def _arrays_of_records(records: list[dict[str, Any]], sizes: np.ndarray, binary: bool
                       ) -> TreeArrays:
    """The arrays of the node-by-node growers' records (pre-order: "count", "pos", "depth",
    "kids", and "path" ((column, code) from the root) or "allowed" and "edge")."""
    n = len(records)
    parent = np.full(n, -1, np.int64)
    for i, rec in enumerate(records):
        parent[rec["kids"]] = i
    a = {"parent": parent,
         **{k: np.array([r[src] for r in records], dtype=np.int64)
            for k, src in (("depth", "depth"), ("count", "count"), ("positives", "pos"))}}
    if binary:
        edges = [(-1, -1, True) if r["edge"] is None else r["edge"] for r in records]
        a["feature"] = np.array([e[0] for e in edges], dtype=np.int64)
        a["value"] = np.array([e[1] for e in edges], dtype=np.int64)
        a["equal"] = np.array([e[2] for e in edges], dtype=bool)
        return _with_rank(TreeArrays(**a, allowed=np.stack([r["allowed"] for r in records])),
                          sizes)
    last = [r["path"][-1] if r["path"] else (-1, -1) for r in records]
    a["feature"] = np.array([e[0] for e in last], dtype=np.int64)
    a["value"] = np.array([e[1] for e in last], dtype=np.int64)
    a["equal"] = np.ones(n, dtype=bool)
    path = np.full((n, len(sizes)), -1, np.int64)
    for i, rec in enumerate(records):
        for j, v in rec["path"]:
            path[i, j] = v
    return TreeArrays(**a, path=path)


# --------------------------------------------------------------------------- ID3


def _xlogx(c: np.ndarray) -> np.ndarray:
    c = np.asarray(c, dtype=np.float64)
    return c * np.log2(np.where(c > 0, c, 1.0))


def _bin_counts(codes: np.ndarray, y: np.ndarray, sizes: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rows and positive rows per (column, value) bin at a node, with one `np.bincount` over
    all columns at once: column j owns bins base[j] (missing) and base[j]+1 … base[j]+sizes[j]
    (its values). Returns (base, is_value, count, positives)."""
    base = np.concatenate([[0], np.cumsum(sizes + 1)[:-1]]).astype(np.int64)
    total = int(base[-1] + sizes[-1] + 1)
    bins = np.where(codes < 0, base, codes.astype(np.int64) + 1 + base)  # missing: base[j]
    cnt = np.bincount(bins.ravel(), minlength=total)
    pos = np.bincount(bins[y == 1].ravel(), minlength=total)
    is_value = np.ones(total, dtype=bool)
    is_value[base] = False
    return base, is_value, cnt, pos


def _nh(c: np.ndarray, p: np.ndarray, xl: np.ndarray | None = None) -> np.ndarray:
    """c · the entropy (bits) of c rows with p positives (`xl`: `_xlogx` of 0 … rows, looked up
    instead of computed — whole-number counts, the same values)."""
    if xl is not None:
        return xl[c] - xl[p] - xl[c - p]
    return _xlogx(c) - _xlogx(p) - _xlogx(c - p)


def _split_stats(
    codes: np.ndarray, y: np.ndarray, sizes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Information gain and number of distinct present values of each column at a node
    (bins: `_bin_counts`)."""
    n = len(y)
    base, is_value, cnt, pos = _bin_counts(codes, y, sizes)
    term = np.where(is_value, _nh(cnt, pos), 0.0)
    n_known = n - cnt[base]
    p_known = int(y.sum()) - pos[base]
    # n_known * (H(known) - H(known | column)), then scaled by 1/n (C4.5's fraction known).
    gain = (_nh(n_known, p_known) - np.add.reduceat(term, base)) / n
    distinct = np.add.reduceat((cnt > 0) & is_value, base)
    return gain, distinct


def _checked(codes: Any, y: Any, max_depth: Any, min_samples_split: Any, feature_subset: Any,
             rng: np.random.Generator | None, features: tuple[str, ...] | None,
             domains: dict[str, tuple[str, ...]] | None):
    """The growers' arguments checked and completed: (codes, 0/1 labels as int8, feature
    names, domains, domain sizes, rng)."""
    codes = np.asarray(codes)
    if codes.ndim != 2 or not np.issubdtype(codes.dtype, np.integer):
        raise DataError(
            f"codes must be a 2-D integer array, got {codes.dtype} of shape {codes.shape}"
        )
    n, n_feat = codes.shape
    if n == 0 or n_feat == 0:
        raise DataError(f"codes must have rows and feature columns, got shape {codes.shape}")
    yv = np.asarray(y)
    if yv.shape != (n,):
        raise DataError(f"y must be 1-D with {n} entries (one per row of codes), got {yv.shape}")
    if not np.isin(yv, (0, 1)).all():
        raise DataError("y must hold 0/1 labels (use encoding.binary_target first)")
    yv = yv.astype(np.int8)
    checked_int("max_depth", max_depth, 1, none_ok=True)
    checked_int("min_samples_split", min_samples_split, 2)
    checked_int("feature_subset", feature_subset, 1, none_ok=True)
    if feature_subset is not None and rng is None:
        rng = np.random.default_rng(0)
    if features is None:
        features = tuple(f"a{j + 1}" for j in range(n_feat))
    features = tuple(str(f) for f in features)
    if len(features) != n_feat:
        raise DataError(f"features names {len(features)} columns, codes have {n_feat}")
    if domains is None:
        top = codes.max(axis=0)
        domains = {f: tuple(str(k) for k in range(int(top[j]) + 1)) for j, f in enumerate(features)}
    absent = [f for f in features if f not in domains]
    if absent:
        raise DataError(f"domains has no entry for {noun(len(absent), 'feature')} {absent}")
    sizes_all = np.array([len(domains[f]) for f in features], dtype=np.int64)
    top = codes.max(axis=0)
    if np.any(top >= sizes_all):
        j = int(np.flatnonzero(top >= sizes_all)[0])
        raise DataError(f"column {features[j]!r} has code {int(top[j])} beyond its domain")
    return codes, yv, features, domains, sizes_all, rng


def _visit(records: list[dict[str, Any]], rows: np.ndarray, y: np.ndarray, parent: int,
           depth: int, min_samples_split: int, max_depth: int | None, **node: Any
           ) -> tuple[int, np.ndarray, bool]:
    """Record a node the growers reach (its counts, depth, `node` fields, as its parent's next
    child): (its id, its rows' labels, whether it stays a leaf — pure, too few rows to split,
    or at `max_depth`)."""
    yn = y[rows]
    npos = int(yn.sum())
    rid = len(records)
    records.append({"count": len(rows), "pos": npos, "depth": depth, "kids": [], **node})
    if parent >= 0:
        records[parent]["kids"].append(rid)
    leaf = (npos in (0, len(rows)) or len(rows) < min_samples_split
            or (max_depth is not None and depth >= max_depth))
    return rid, yn, leaf


def id3(
    codes: np.ndarray,
    y: Any,
    max_depth: int | None = None,
    min_samples_split: int = 2,
    feature_subset: int | None = None,
    rng: np.random.Generator | None = None,
    *,
    features: tuple[str, ...] | None = None,
    domains: dict[str, tuple[str, ...]] | None = None,
    positive: str | None = None,
) -> Tree:
    """Grow an ID3 tree on integer codes (rows × features, -1 = missing) and 0/1 labels.

    `feature_subset` samples that many candidate features per split from `rng` (random-forest
    style); None considers all. `features`/`domains` name the columns and values (default
    a1, a2, … and the codes as strings). See the module docstring for the exact split rule.
    """
    codes, yv, features, domains, sizes_all, rng = _checked(
        codes, y, max_depth, min_samples_split, feature_subset, rng, features, domains)
    n, n_feat = codes.shape

    if feature_subset is None:
        arrays = _id3_levels(codes, yv, sizes_all, max_depth, min_samples_split)
    else:  # sampled candidates: the rng draws in pre-order, node by node
        # Pre-order growth with an explicit stack (depth can reach min(rows, features)).
        records: list[dict[str, Any]] = []
        stack: list[tuple[np.ndarray, int, int, tuple[tuple[int, int], ...]]] = [
            (np.arange(n), -1, 0, ())
        ]
        while stack:
            rows, parent, depth, path = stack.pop()
            rid, yn, leaf = _visit(records, rows, yv, parent, depth, min_samples_split, max_depth,
                                   path=path)
            if leaf:
                continue
            used = np.zeros(n_feat, dtype=bool)
            used[[j for j, _ in path]] = True
            cols = np.flatnonzero(~used)
            if len(cols) == 0:
                continue
            sub = codes[np.ix_(rows, cols)]
            gain, distinct = _split_stats(sub, yn, sizes_all[cols])
            eligible = np.flatnonzero(distinct >= 2)
            if len(eligible) == 0:
                continue
            if feature_subset is not None and feature_subset < len(eligible):
                eligible = np.sort(rng.choice(eligible, size=feature_subset, replace=False))
            g = gain[eligible]
            best = eligible[np.flatnonzero(g >= g.max() - GAIN_TOL)[0]]  # first column wins ties
            j = int(cols[best])
            col = sub[:, best]
            order = np.argsort(col, kind="stable")
            sorted_col = col[order]
            values, starts = np.unique(sorted_col, return_index=True)
            ends = np.append(starts[1:], len(sorted_col))
            children = [
                (rows[order[a:b]], int(v))
                for v, a, b in zip(values, starts, ends, strict=True)
                if v >= 0  # rows missing the split feature go to no child
            ]
            for child_rows, v in reversed(children):  # reversed: first child popped first
                stack.append((child_rows, rid, depth + 1, path + ((j, v),)))

        arrays = _arrays_of_records(records, sizes_all, binary=False)
    return Tree(arrays=arrays, features=features,
                domains={f: tuple(domains[f]) for f in features}, positive=positive)


def _binary_gains(codes: np.ndarray, y: np.ndarray, sizes: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per (column, value) bin of a node (`_bin_counts`): the information gain of `a=v`
    against `a≠v` (on the rows where a is known, scaled by their fraction as in
    `_split_stats`), the rows on the `=` side and on the `≠` side (0 for a missing bin)."""
    n = len(y)
    base, is_value, cnt, pos = _bin_counts(codes, y, sizes)
    col = np.repeat(np.arange(len(sizes)), sizes + 1)
    n_known = (n - cnt[base])[col]
    p_known = (int(y.sum()) - pos[base])[col]
    left = np.where(is_value, cnt, 0)
    lpos = np.where(is_value, pos, 0)
    right = np.where(is_value, n_known - left, 0)
    rpos = np.where(is_value, p_known - lpos, 0)
    gain = (_nh(n_known, p_known) - _nh(left, lpos) - _nh(right, rpos)) / n
    return gain, left, right


def id3_binary(
    codes: np.ndarray,
    y: Any,
    max_depth: int | None = None,
    min_samples_split: int = 2,
    feature_subset: int | None = None,
    rng: np.random.Generator | None = None,
    *,
    features: tuple[str, ...] | None = None,
    domains: dict[str, tuple[str, ...]] | None = None,
    positive: str | None = None,
    expand_cap: int = EXPAND_CAP,
) -> Tree:
    """Grow a binary ID3 tree: every split is `a=v` against `a≠v` (the pair with the largest
    information gain; ties to the first column, then the first value), a feature may be split
    again below, and a split is taken while the node is impure and some pair leaves rows on
    both sides — also at zero gain, as `id3` does. A `≠` child keeps every value of the domain
    but v (CART's "rest"), so a split whose `≠` child would expand into more than `expand_cap`
    clauses is not a candidate. Rows missing the split feature go to no child, as in `id3`.
    Arguments as `id3`'s (`feature_subset`: that many candidate features per split)."""
    codes, yv, features, domains, sizes_all, rng = _checked(
        codes, y, max_depth, min_samples_split, feature_subset, rng, features, domains)
    checked_int("expand_cap", expand_cap, 1)
    n, n_feat = codes.shape
    if feature_subset is None:
        arrays = _id3_binary_levels(codes, yv, sizes_all, max_depth, min_samples_split,
                                    expand_cap)
    else:  # sampled candidates: the rng draws in pre-order, node by node
        col_of = np.repeat(np.arange(n_feat), sizes_all + 1)
        val_of = np.concatenate([np.arange(-1, int(s)) for s in sizes_all])
        root_allowed = np.zeros((n_feat, int(sizes_all.max())), dtype=bool)
        for j, s in enumerate(sizes_all):
            root_allowed[j, : int(s)] = True

        records: list[dict[str, Any]] = []
        # (rows, parent, depth, allowed values (features × values), clauses, edge (j, v, equal))
        stack: list[tuple[np.ndarray, int, int, np.ndarray, int, tuple[int, int, bool] | None]] = [
            (np.arange(n), -1, 0, root_allowed, 1, None)
        ]
        while stack:
            rows, parent, depth, allowed, combos, edge = stack.pop()
            rid, yn, leaf = _visit(records, rows, yv, parent, depth, min_samples_split, max_depth,
                                   allowed=allowed, edge=edge)
            if leaf:
                continue
            sub = codes[rows]
            gain, left, right = _binary_gains(sub, yn, sizes_all)
            n_allowed = allowed.sum(axis=1)
            constrained = n_allowed < sizes_all
            rest = combos // np.where(constrained, n_allowed, 1) * (n_allowed - 1)
            ok = (left > 0) & (right > 0) & (rest[col_of] <= expand_cap)
            if feature_subset is not None:
                cols = np.unique(col_of[ok])
                if feature_subset < len(cols):
                    ok &= np.isin(col_of, rng.choice(cols, size=feature_subset, replace=False))
            if not ok.any():
                continue
            g = np.where(ok, gain, -np.inf)
            best = int(np.flatnonzero(ok & (g >= g.max() - GAIN_TOL))[0])  # first bin wins ties
            j, v = int(col_of[best]), int(val_of[best])
            col = sub[:, j]
            eq_allowed = allowed.copy()
            eq_allowed[j] = False
            eq_allowed[j, v] = True
            ne_allowed = allowed.copy()
            ne_allowed[j, v] = False
            per = combos // (int(n_allowed[j]) if constrained[j] else 1)
            # pushed in reverse: the `=` child is popped (numbered) first
            stack.append((rows[(col >= 0) & (col != v)], rid, depth + 1, ne_allowed,
                          int(rest[j]), (j, v, False)))
            stack.append((rows[col == v], rid, depth + 1, eq_allowed, per, (j, v, True)))

        arrays = _arrays_of_records(records, sizes_all, binary=True)
    return Tree(arrays=arrays, features=features,
                domains={f: tuple(domains[f]) for f in features}, positive=positive)


def cut_to_features(tree: Tree, max_features: int | None) -> Tree:
    """`tree` without the nodes whose path constrains more than `max_features` features (a
    binary tree's depth limit as its KB sees it: the all-node KB of the cut tree is the whole
    tree's all-node KB cut to clauses of at most that many literals)."""
    checked_int("max_features", max_features, 1, none_ok=True)
    if max_features is None:
        return tree
    # a path only narrows further down, so the kept nodes keep their ancestors
    keep = tree.arrays.constrained(tree.sizes()).sum(axis=1) <= max_features
    return Tree(arrays=tree.arrays.kept(keep), features=tree.features, domains=tree.domains,
                positive=tree.positive)


def truncate(tree: Tree, max_depth: int | None) -> Tree:
    """`tree` as `id3` grows it with `max_depth` (nodes at that depth become leaves): growth is
    greedy and top-down, so cutting the full tree gives the same tree without regrowing it."""
    checked_int("max_depth", max_depth, 1, none_ok=True)
    if max_depth is None or tree.depth <= max_depth:
        return tree
    return Tree(arrays=tree.arrays.kept(tree.arrays.depth <= max_depth), features=tree.features,
                domains=tree.domains, positive=tree.positive)


# --------------------------------------------------------------------------- pruning




def prune_alphas(tree: Tree, w_pos: float = 1.0, w_neg: float = 1.0,
                 cost: Literal["error", "deviance"] = "error") -> np.ndarray:
    """Per node (pre-order): the cost-complexity α (CART's weakest-link pruning) from which
    the node is pruned away (its parent has become a leaf); inf for the root.

    The cost of a (sub)tree is its rows' weighted misclassification (positives weigh
    `w_pos`, negatives `w_neg`; each answer region decides its weighted majority) as a
    fraction of the root's weight, plus α per leaf; `cost="deviance"` counts its weighted
    entropy in bits instead (a split always lowers it by its information gain, also where it
    changes no decision but the probabilities). Rows a split cannot pass on (the split
    feature missing) stay answered by the node, so they count in its subtree's cost as they
    do in the KB. The α are nested: a tree pruned at α keeps the nodes whose value is > α,
    and every such set is closed towards the root (`prune`)."""
    a = tree.arrays
    parent, count, pos = a.parent, a.count.astype(np.float64), a.positives.astype(np.float64)
    n = len(parent)
    wp, wn = pos * w_pos, (count - pos) * w_neg
    total = max(wp[0] + wn[0], 1e-300)
    def risk(p: np.ndarray, q: np.ndarray) -> np.ndarray:
        return (np.minimum(p, q) if cost == "error" else _nh(p + q, p)) / total

    r_leaf = risk(wp, wn)
    par, depth = parent[1:], a.depth
    r_sub = r_leaf.copy()
    leaves = np.ones(n)
    n_kids = np.bincount(par, minlength=n)
    internal = n_kids > 0
    many = np.flatnonzero(n_kids > 2)
    by_parent = np.argsort(par, kind="stable") + 1  # children grouped by parent, in order
    start = np.concatenate([[0], np.cumsum(n_kids)])
    kids_of = {i: by_parent[start[i]:start[i + 1]] for i in many.tolist()}
    for d in range(int(depth.max(initial=0)) - 1, -1, -1):  # bottom-up, a depth at a time
        kid = np.flatnonzero(depth[1:] == d + 1) + 1
        up = parent[kid]
        # two children: a + b whether bincount adds them from 0 or a sum over the pair does;
        # more (multiway): the sum over the child list, whose pairwise order differs
        sub, cp, cn, cl = (np.bincount(up, weights=v[kid], minlength=n)
                           for v in (r_sub, wp, wn, leaves))
        for i in many[depth[many] == d].tolist():
            ks = kids_of[i]
            sub[i], cp[i], cn[i], cl[i] = r_sub[ks].sum(), wp[ks].sum(), wn[ks].sum(), leaves[ks].sum()
        at = np.flatnonzero((depth == d) & internal)
        rest = risk(np.maximum(wp[at] - cp[at], 0.0), np.maximum(wn[at] - cn[at], 0.0))
        r_sub[at] = sub[at] + rest  # rows left at the node (split feature missing) count here
        leaves[at] = cl[at]
    collapse = np.full(n, np.inf)
    end = _subtree_ends(parent, depth)
    alive = internal.copy()
    # weakest link first: a heap of (g, node), stale entries skipped, so the node collapsed
    # is argmin over the live g (ties: the first node), as a full scan per step would find
    g = np.where(alive, (r_leaf - r_sub) / np.maximum(leaves - 1, 1), np.inf)
    heap = [(float(g[i]), int(i)) for i in np.flatnonzero(alive)]
    heapq.heapify(heap)
    level = 0.0
    parent_l = parent.tolist()
    while heap:
        gt, t = heapq.heappop(heap)
        if not alive[t] or gt != g[t]:
            continue
        level = max(level, gt)
        collapse[t] = level
        # t becomes a leaf: its descendants (pre-order: the block after it) go, its
        # ancestors lose its subtree's leaves
        alive[t:end[t]] = False
        g[t:end[t]] = np.inf
        dr, dl = r_leaf[t] - r_sub[t], leaves[t] - 1
        r_sub[t], leaves[t] = r_leaf[t], 1
        u = parent_l[t]
        while u >= 0:
            r_sub[u] += dr
            leaves[u] -= dl
            if alive[u]:
                g[u] = (r_leaf[u] - r_sub[u]) / max(leaves[u] - 1, 1)
                heapq.heappush(heap, (float(g[u]), u))
            u = parent_l[u]
    out = np.full(n, np.inf)
    out[1:] = collapse[par]
    # a node goes with its parent or earlier (an ancestor that collapses first)
    for d in range(1, int(depth.max(initial=0)) + 1):
        at = np.flatnonzero(depth == d)
        out[at] = np.minimum(out[at], out[parent[at]])
    return out


def _subtree_ends(parent: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """Per node of a pre-order tree, one past its subtree's last node (its subtree is the
    block of positions node .. end − 1)."""
    n = len(parent)
    size = np.ones(n, np.int64)
    for d in range(int(depth.max(initial=0)), 0, -1):  # the deepest first: sizes add up
        at = np.flatnonzero(depth == d)
        np.add.at(size, parent[at], size[at])
    return np.arange(n) + size


def prune(tree: Tree, keep: np.ndarray) -> Tree:
    """`tree` without the nodes whose `keep` (one per node, pre-order) is False — with
    `prune_alphas(tree) > α`, the tree cost-complexity pruned at α."""
    a = tree.arrays
    keep = np.asarray(keep, dtype=bool)
    if len(keep) != len(a.parent):
        raise DataError(f"keep has {len(keep)} entries for a tree of {len(a.parent)} nodes")
    kept = keep.copy()
    kept[0] = True  # the root stays; a node goes with its parent
    for d in range(1, int(a.depth.max()) + 1):
        at = np.flatnonzero(a.depth == d)
        kept[at] &= kept[a.parent[at]]
    return Tree(arrays=a.kept(kept), features=tree.features, domains=tree.domains,
                positive=tree.positive)


def clause_values(tree: Tree, values: np.ndarray) -> np.ndarray:
    """One value per node (pre-order) spread over the clauses of `trees_to_kb([tree], "all")`
    (a binary tree's node gives one clause per combination of its allowed values)."""
    a = tree.arrays
    picked = _clause_nodes(a, "all")
    return np.repeat(np.asarray(values)[picked], a.n_clauses(tree.sizes())[picked])


# --------------------------------------------------------------------------- level-wise growth


@dataclass
class _Level:
    """The nodes of one depth of a growing tree: how many, and per row still in the tree, its
    row number and the position of its node in the level."""

    k: int
    rows: np.ndarray
    at: np.ndarray


def _root(n_feat: int, **body: np.ndarray) -> dict[str, np.ndarray]:
    """The root's level of `_from_levels` (its counts are filled in once counted)."""
    return {"parent": np.full(1, -1, np.int64), "depth": np.zeros(1, np.int64),
            "feature": np.full(1, -1, np.int64), "value": np.full(1, -1, np.int64),
            "equal": np.ones(1, dtype=bool), **body}


def _from_levels(levels: list[dict[str, np.ndarray]], sizes: np.ndarray) -> TreeArrays:
    """Nodes grown a depth at a time (a level's nodes grouped by parent, in order; parents
    numbered breadth-first) as pre-order arrays, numbered as the node-by-node growers number
    them: a node comes 1 + the sizes of its earlier siblings' subtrees after its parent."""
    cat = {k: np.concatenate([lv[k] for lv in levels]) for k in levels[0]}
    parent = cat["parent"]
    n = len(parent)
    bounds = np.cumsum([0] + [len(lv["parent"]) for lv in levels]).tolist()
    size = np.ones(n, np.int64)
    for lo, hi in reversed(list(zip(bounds[1:-1], bounds[2:], strict=True))):
        np.add.at(size, parent[lo:hi], size[lo:hi])
    pre = np.zeros(n, np.int64)
    for lo, hi in zip(bounds[1:-1], bounds[2:], strict=True):
        p, s = parent[lo:hi], size[lo:hi]
        before = np.cumsum(s) - s
        first = np.flatnonzero(np.r_[True, p[1:] != p[:-1]])  # each parent's first child
        pre[lo:hi] = pre[p] + 1 + before - np.repeat(before[first], np.diff(np.r_[first, len(p)]))
    order = np.empty(n, np.int64)
    order[pre] = np.arange(n)
    out = {k: v[order] for k, v in cat.items()}
    out["parent"] = np.where(out["parent"] >= 0, pre[np.maximum(out["parent"], 0)], -1)
    a = TreeArrays(**out)
    return _with_rank(a, sizes) if a.binary else a


def _level_counts(bins: np.ndarray, yv: np.ndarray, level: _Level, total: int, depth: int,
                  min_samples_split: int, max_depth: int | None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rows and positive rows per (node, bin) of a level from one `np.bincount` (bins:
    `_bin_counts`' layout); returns (count, positives, per-node rows and positive rows (k ×
    2), whether each node may split — impure, enough rows, above `max_depth`)."""
    k = level.k
    yr = yv[level.rows].astype(np.int64)
    key = ((level.at[:, None] * total + bins[level.rows]) * 2 + yr[:, None]).ravel()
    both = np.bincount(key, minlength=k * total * 2).reshape(k, total, 2)
    pos = both[:, :, 1]
    cnt = both[:, :, 0] + pos
    n_node = np.bincount(level.at, minlength=k)
    p_node = np.bincount(level.at, weights=yr, minlength=k).astype(np.int64)
    split = ((p_node > 0) & (p_node < n_node) & (n_node >= min_samples_split)
             & (max_depth is None or depth < max_depth))
    return cnt, pos, np.stack([n_node, p_node], axis=1), split


def _layout(codes: np.ndarray, sizes: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray]:
    """`_bin_counts`' bins for every row once: (base, is_value, total, bins per row × column,
    each count c · log2 c for c = 0 … rows — a node's counts are whole numbers)."""
    base = np.concatenate([[0], np.cumsum(sizes + 1)[:-1]]).astype(np.int64)
    total = int(base[-1] + sizes[-1] + 1)
    bins = np.where(codes < 0, base, codes.astype(np.int64) + 1 + base)
    is_value = np.ones(total, dtype=bool)
    is_value[base] = False
    return base, is_value, total, bins, _xlogx(np.arange(len(codes) + 1))


def _id3_levels(codes: np.ndarray, yv: np.ndarray, sizes: np.ndarray, max_depth: int | None,
                min_samples_split: int) -> TreeArrays:
    """`id3`'s tree grown a depth at a time, all nodes of a depth from one bincount: the same
    splits as node by node (same counts, same float operations)."""
    n, n_feat = codes.shape
    base, is_value, total, bins, xl = _layout(codes, sizes)
    vals = np.arange(int(sizes.max()))

    levels = [_root(n_feat, path=np.full((1, n_feat), -1, np.int64))]
    level = _Level(1, np.arange(n), np.zeros(n, dtype=np.int64))
    depth = offset = 0
    while True:
        cnt, pos, node, split = _level_counts(bins, yv, level, total, depth, min_samples_split,
                                              max_depth)
        levels[-1]["count"], levels[-1]["positives"] = node[:, 0], node[:, 1]
        s = np.flatnonzero(split)
        cnt, pos, node, path = cnt[s], pos[s], node[s], levels[-1]["path"][s]
        term = np.where(is_value, _nh(cnt, pos, xl), 0.0)
        n_known = node[:, :1] - cnt[:, base]
        p_known = node[:, 1:] - pos[:, base]
        gain = (_nh(n_known, p_known, xl) - np.add.reduceat(term, base, axis=1)) / node[:, :1]
        distinct = np.add.reduceat(((cnt > 0) & is_value).astype(np.int64), base, axis=1)
        eligible = (path < 0) & (distinct >= 2)  # a feature not yet on the path
        has = eligible.any(axis=1)
        if not has.any():
            break
        s, cnt, path, eligible, gain = s[has], cnt[has], path[has], eligible[has], gain[has]
        g = np.where(eligible, gain, -np.inf)
        j = np.argmax(eligible & (g >= g.max(axis=1, keepdims=True) - GAIN_TOL), axis=1)
        present = (vals < sizes[j][:, None]) & (
            np.take_along_axis(cnt, np.minimum(base[j][:, None] + 1 + vals, total - 1), 1) > 0)
        rank = np.cumsum(present, axis=1) - 1
        first = np.concatenate([[0], np.cumsum(present.sum(axis=1))[:-1]])
        i, v = np.nonzero(present)  # the children: per split node, its present values in order
        kid_path = path[i]
        kid_path[np.arange(len(i)), j[i]] = v
        levels.append({"parent": offset + s[i], "depth": np.full(len(i), depth + 1),
                       "feature": j[i], "value": v, "equal": np.ones(len(i), dtype=bool),
                       "path": kid_path})
        slot = np.full(level.k, -1)
        slot[s] = np.arange(len(s))
        sl = slot[level.at]
        rows, sl = level.rows[sl >= 0], sl[sl >= 0]
        c = codes[rows, j[sl]].astype(np.int64)
        known = c >= 0  # rows missing the split feature go to no child
        rows, sl, c = rows[known], sl[known], c[known]
        offset += level.k
        level = _Level(len(i), rows, first[sl] + rank[sl, c])
        depth += 1
    return _from_levels(levels, sizes)


def _id3_binary_levels(codes: np.ndarray, yv: np.ndarray, sizes: np.ndarray,
                       max_depth: int | None, min_samples_split: int, expand_cap: int
                       ) -> TreeArrays:
    """`id3_binary`'s tree grown a depth at a time, all nodes of a depth from one bincount:
    the same splits as node by node (same counts, same float operations)."""
    n, n_feat = codes.shape
    base, is_value, total, bins, xl = _layout(codes, sizes)
    col_of = np.repeat(np.arange(n_feat), sizes + 1)
    val_of = np.concatenate([np.arange(-1, int(s)) for s in sizes])

    levels = [_root(n_feat, allowed=(np.arange(int(sizes.max())) < sizes[:, None])[None])]
    combos = np.ones(1, dtype=np.int64)
    level = _Level(1, np.arange(n), np.zeros(n, dtype=np.int64))
    depth = offset = 0
    while True:
        cnt, pos, node, split = _level_counts(bins, yv, level, total, depth, min_samples_split,
                                              max_depth)
        levels[-1]["count"], levels[-1]["positives"] = node[:, 0], node[:, 1]
        s = np.flatnonzero(split)
        cnt, pos, node, allowed, combos = (cnt[s], pos[s], node[s], levels[-1]["allowed"][s],
                                           combos[s])
        n_known = (node[:, :1] - cnt[:, base])[:, col_of]
        p_known = (node[:, 1:] - pos[:, base])[:, col_of]
        left = np.where(is_value, cnt, 0)
        lpos = np.where(is_value, pos, 0)
        right = np.where(is_value, n_known - left, 0)
        rpos = np.where(is_value, p_known - lpos, 0)
        gain = (_nh(n_known, p_known, xl) - _nh(left, lpos, xl) - _nh(right, rpos, xl)
                ) / node[:, :1]
        n_allowed = allowed.sum(axis=2)
        constrained = n_allowed < sizes
        rest = combos[:, None] // np.where(constrained, n_allowed, 1) * (n_allowed - 1)
        ok = (left > 0) & (right > 0) & (rest[:, col_of] <= expand_cap)
        has = ok.any(axis=1)
        if not has.any():
            break
        s, ok, gain, allowed = s[has], ok[has], gain[has], allowed[has]
        n_allowed, constrained, rest, combos = (n_allowed[has], constrained[has], rest[has],
                                                combos[has])
        g = np.where(ok, gain, -np.inf)
        best = np.argmax(ok & (g >= g.max(axis=1, keepdims=True) - GAIN_TOL), axis=1)
        j, v = col_of[best], val_of[best]
        m = np.arange(len(s))
        kids = np.repeat(allowed, 2, axis=0)  # per split node: its `=` child, then its `≠`
        kids[2 * m, j] = False
        kids[2 * m, j, v] = True
        kids[2 * m + 1, j, v] = False
        per = combos // np.where(constrained[m, j], n_allowed[m, j], 1)
        combos = np.stack([per, rest[m, j]], axis=1).ravel()
        levels.append({"parent": offset + np.repeat(s, 2), "depth": np.full(2 * len(s), depth + 1),
                       "feature": np.repeat(j, 2), "value": np.repeat(v, 2),
                       "equal": np.tile([True, False], len(s)), "allowed": kids})
        slot = np.full(level.k, -1)
        slot[s] = m
        sl = slot[level.at]
        rows, sl = level.rows[sl >= 0], sl[sl >= 0]
        c = codes[rows, j[sl]].astype(np.int64)
        eqr = c == v[sl]
        known = c >= 0  # rows missing the split feature go to no child
        offset += level.k
        level = _Level(2 * len(s), rows[known], (2 * sl + ~eqr)[known])
        depth += 1
    return _from_levels(levels, sizes)


# --------------------------------------------------------------------------- KBs


def _tree_rngs(random_state: Any, n_trees: int) -> list[np.random.Generator]:
    """One independent generator per tree, so tree t does not depend on n_trees."""
    if isinstance(random_state, np.random.Generator):
        return list(random_state.spawn(n_trees))
    if random_state is not None and (
        isinstance(random_state, bool) or not isinstance(random_state, (int, np.integer))
    ):
        raise DataError(
            f"random_state must be an int, None or a numpy Generator, got {random_state!r}"
        )
    seeds = np.random.SeedSequence(random_state).spawn(n_trees)
    return [np.random.default_rng(s) for s in seeds]


@dataclass(frozen=True)
class TreeRows:
    """A table's integer codes and 0/1 labels encoded once, for several trees grown on the
    same rows (`tree_rows`; `build_trees` accepts it in place of X, y)."""

    codes: np.ndarray
    y: np.ndarray
    features: tuple[str, ...]
    domains: dict[str, tuple[str, ...]]
    positive: str | None


def tree_rows(X: Any, y: Any, positive: Any = None) -> TreeRows:
    """X (categorical features) and y encoded as `build_trees` grows its trees on them."""
    frame = encoding.as_frame(X)
    yb, pos = encoding.binary_target(y, positive)
    if len(yb) != len(frame):
        raise DataError(f"X has {len(frame)} rows but y has {len(yb)} labels")
    enc = encoding.encode(frame)
    return TreeRows(encoding.smallest_int(enc.codes), yb, enc.features, enc.domains, pos)


def subset_rows(codes: np.ndarray, features: tuple[str, ...], domains: dict, y: Any,
                rows: np.ndarray) -> TreeRows:
    """`tree_rows(frame.iloc[rows], y)` (y: those rows' 0/1 labels) of a frame already
    encoded — `codes` = `encoding.encode(frame)`'s codes, over `features` and `domains` — by
    renumbering, not by reading the rows' values again: the rows' domain of a feature is
    its values they hold, in the frame's order (both sorted by `natural_key`, a total
    order), each code its rank among them. For the folds of a search, whose encodings were
    ~5% of a fit."""
    sub = np.asarray(codes)[rows]
    out = np.full(sub.shape, -1, np.int32)
    doms: dict[str, tuple[str, ...]] = {}
    for j, f in enumerate(features):
        col = sub[:, j].astype(np.int64)
        held = col >= 0
        seen = np.bincount(col[held], minlength=len(domains[f])) > 0
        rank = np.cumsum(seen) - 1
        out[held, j] = rank[col[held]]
        doms[f] = tuple(domains[f][i] for i in np.flatnonzero(seen))
    yb, pos = _labels01(y)
    return TreeRows(encoding.smallest_int(out), yb, tuple(features), doms, pos)


def _labels01(y: Any) -> tuple[np.ndarray, str]:
    """`encoding.binary_target(y, 1)` — of a fold's 0/1 labels (an integer array holding both)
    read as they are, not written as text first (one a fold and a class: 1.4% of a 4-class
    fit); anything else, and its errors, through `binary_target`."""
    arr = np.asarray(y)
    if arr.ndim == 1 and arr.dtype.kind in "iu" and len(arr):
        one = arr == 1
        if ((arr == 0) | one).all() and one.any() and not one.all():
            return one.astype(np.int8), "1"
    return encoding.binary_target(y, 1)


def build_trees(
    X: Any,
    y: Any = None,
    positive: Any = None,
    n_trees: int = 1,
    bootstrap: bool | None = None,
    max_features: int | None = None,
    max_depth: int | None = None,
    min_samples_split: int = 2,
    random_state: Any = 0,
    binary: bool = False,
) -> list[Tree]:
    """Grow one ID3 tree (or a forest of `n_trees`) on a table of categorical features.

    For a forest, `bootstrap` defaults to True and `max_features` (features sampled per split)
    to round(sqrt(F)); each tree gets its own generator spawned from `random_state`.
    `binary`: value-against-rest splits (`id3_binary`) instead of multiway ones. X may be
    `TreeRows` (`tree_rows`: the rows encoded once for several calls; then no y, positive).
    """
    checked_int("n_trees", n_trees, 1)
    if bootstrap is not None and not isinstance(bootstrap, (bool, np.bool_)):
        raise DataError(f"bootstrap must be True, False or None, got {bootstrap!r}")
    checked_int("max_features", max_features, 1, none_ok=True)
    if isinstance(X, TreeRows):
        if y is not None or positive is not None:
            raise DataError("build_trees takes no y or positive with TreeRows (they hold them)")
        data = X
    else:
        if y is None:
            raise DataError("build_trees needs y, the labels of X's rows")
        data = tree_rows(X, y, positive)
    codes, yb, pos = data.codes, data.y, data.positive
    n, n_feat = codes.shape
    if max_features is not None and max_features > n_feat:
        raise DataError(f"max_features={max_features} exceeds the number of features ({n_feat})")
    forest = n_trees > 1
    if bootstrap is None:
        bootstrap = forest
    if max_features is None and forest:
        max_features = max(1, round(float(np.sqrt(n_feat))))
    trees = []
    for rng in _tree_rngs(random_state, n_trees):
        rows = rng.integers(0, n, size=n) if bootstrap else np.arange(n)
        trees.append(
            (id3_binary if binary else id3)(
                codes[rows], yb[rows], max_depth=max_depth, min_samples_split=min_samples_split,
                feature_subset=max_features, rng=rng,
                features=data.features, domains=data.domains, positive=pos,
            )
        )
    return trees


def _clause_nodes(a: TreeArrays, nodes: str) -> np.ndarray:
    """Which nodes give clauses: the leaves, or every non-root node (plus a root that is a
    leaf, whose clause is the bare `[base rate] POS`)."""
    leaf = a.is_leaf()
    if nodes == "leaves":
        return leaf
    keep = a.parent >= 0
    keep[0] |= leaf[0]
    return keep


def _node_bodies(a: TreeArrays, keep: np.ndarray, sizes: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(clauses per node, their code rows) of the nodes where `keep`: a multiway node's path;
    a binary node's allowed values expanded into one clause per combination, in
    `itertools.product` order over its narrowed columns by `rank` (the last varies fastest),
    values in code order."""
    if a.allowed is None:
        return np.ones(int(keep.sum()), np.int64), a.path[keep]
    rank = a.rank[keep]
    order = np.argsort(np.where(rank >= 0, rank, len(sizes)), axis=1, kind="stable")
    allowed = np.take_along_axis(a.allowed[keep], order[:, :, None], axis=1)  # in rank order
    con = np.take_along_axis(rank >= 0, order, axis=1)
    size = np.where(con, allowed.sum(axis=2), 1).astype(np.int64)
    per = size.prod(axis=1)
    stride = np.cumprod(size[:, ::-1], axis=1)[:, ::-1] // size  # clauses sharing a value
    values = np.argsort(~allowed, axis=2, kind="stable")  # each feature's allowed codes first
    node = np.repeat(np.arange(len(per)), per)
    r = np.arange(len(node)) - np.repeat(np.cumsum(per) - per, per)  # clause within its node
    codes = np.full((len(node), len(sizes)), -1, np.int64)
    for t in range(int(con.sum(axis=1).max(initial=0))):  # each node's t-th narrowed column
        on = np.flatnonzero(con[node, t])
        nd = node[on]
        codes[on, order[nd, t]] = values[nd, t, r[on] // stride[nd, t] % size[nd, t]]
    return per, codes


def trees_to_kb(trees: list[Tree], nodes: NodesMode = "leaves", kind: str | None = None,
                weights: Weighting = "unit") -> KB:
    """The KB of clauses drawn from `trees` (concatenated in order, nodes in pre-order).

    A binary tree's node gives one clause per combination of its allowed values (module
    docstring), each with the node's p, support and positives. `weights` (a node's weight,
    given to each of its clauses — at most one of them matches any query, so under the
    relevant semantics a node votes with it as in a multiway tree):

    * "unit" — 1: a row's answer is the median over the nodes its known features reach;
    * "depth" — 2^depth (depth capped at `DEPTH_WEIGHT_CAP`): a node outweighs all its
      ancestors together, so a full row gets its leaf's p (a decision tree's answer) and a
      partial row the p of the deepest node its known features reach;
    * "split" — 1 / (the node's clause count): a node's clauses weigh 1 together (only the
      full semantics' LP on partial queries tells it apart from "unit")."""
    if nodes not in ("leaves", "all"):
        raise DataError(f'nodes must be "leaves" or "all", got {nodes!r}')
    if weights not in WEIGHTINGS:
        raise DataError(f"weights must be one of {WEIGHTINGS}, got {weights!r}")
    if not trees:
        raise DataError("trees_to_kb needs at least one tree")
    features, domains, positive = trees[0].features, trees[0].domains, trees[0].positive
    sizes = trees[0].sizes()
    per_l, codes_l, count_l, pos_l, depth_l = [], [], [], [], []
    for tree in trees:
        a = tree.arrays
        keep = _clause_nodes(a, nodes)
        per, codes = _node_bodies(a, keep, sizes)
        per_l.append(per)
        codes_l.append(codes)
        count_l.append(a.count[keep])
        pos_l.append(a.positives[keep])
        depth_l.append(a.depth[keep])
    per = np.concatenate(per_l)
    count, positives = np.concatenate(count_l), np.concatenate(pos_l)
    p = np.where(count > 0, positives / np.maximum(count, 1), 0.0)
    m = int(per.sum())
    if kind is None:
        binary = trees[0].arrays.binary
        kind = ("forest" if len(trees) > 1 else
                ("tree-bin" + ("-deep" if weights == "depth" else "")
                 + ("-leaves" if nodes == "leaves" else "")) if binary else
                ("tree" if nodes == "leaves" else "tree-all"))
    return KB(
        features,
        dict(domains),
        codes=encoding.smallest_int(np.concatenate(codes_l)),
        head=np.ones(m, dtype=np.int8),
        p=np.repeat(p, per).astype(np.float64),
        w=(np.repeat(1.0 / per, per) if weights == "split" else
           np.repeat(2.0 ** np.minimum(np.concatenate(depth_l), DEPTH_WEIGHT_CAP), per)
           if weights == "depth" else np.ones(m)),
        support=np.repeat(count, per).astype(np.int64),
        positives=np.repeat(positives, per).astype(np.int64),
        source=np.full(m, TREE_SOURCE, dtype=np.int8),
        positive=positive,
        n_rows=int(max(int(t.arrays.count[0]) for t in trees)) if trees else None,
        kind=kind,
    )


def path_clauses(trees: list[Tree], codes: np.ndarray, nodes: NodesMode = "all"
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(query row, learned clause row) of every clause of `trees_to_kb(trees, nodes)` whose
    body ⊆ the row's known values — what `variants.relevant_pairs` finds in that KB — by walking each row
    down each tree's arrays: rows × depth, not rows × clauses.

    `codes`: query codes over the trees' features and domains (`query.encode_query_rows`;
    below 0: missing or unseen). A node's body is its path's conditions, so the nodes whose
    clauses a row meets are those its walk reaches: the walk stops where the split column is
    not known (every node below narrows that column) or no child admits the row's value;
    a binary node's clause is the one of its allowed-value combinations that holds the row's
    values (`_node_bodies`' order), found by mixed-radix position, not by search."""
    codes = np.asarray(codes)
    if not trees:
        raise DataError("path_clauses needs at least one tree")
    sizes = trees[0].sizes()
    rows_l, clauses_l = [], []
    offset = 0
    for tree in trees:
        a = tree.arrays
        # a one-leaf tree's bodiless `[p] POS` is no learned clause row: the KB moves it to
        # its extra clauses, which every query sees (`KB._move_bodiless`)
        keep = _clause_nodes(a, nodes) & (a.parent >= 0)
        per = np.where(keep, a.n_clauses(sizes), 0)
        first = offset + np.cumsum(per) - per  # each node's first clause in the KB
        offset += int(per.sum())
        r, nd = _walk(a, codes)
        on = keep[nd]
        r, nd = r[on], nd[on]
        rows_l.append(r)
        clauses_l.append(first[nd] + (_clause_within(a, sizes, codes, r, nd) if a.binary
                                      else 0))
    return (np.concatenate(rows_l).astype(np.int64),
            np.concatenate(clauses_l).astype(np.int64))


def _walk(a: TreeArrays, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(row, node) for every node of the tree `a` each query row's walk reaches (the root
    included): a node's child is the one whose edge admits the row's known value of the
    split column (multiway: the child of that value; binary: the `=` or `≠` child whose
    allowed set holds it); the walk stops where none does."""
    n, N = len(codes), len(a.parent)
    kid = np.arange(1, N)
    par = a.parent[1:]
    split = np.full(N, -1, np.int64)
    split[par] = a.feature[1:]  # every child of a node shares its split column
    rows_l, nodes_l = [np.arange(n)], [np.zeros(n, np.int64)]
    if a.binary:
        eq_kid = np.full(N, -1, np.int64)
        ne_kid = np.full(N, -1, np.int64)
        eq_kid[par[a.equal[1:]]] = kid[a.equal[1:]]
        ne_kid[par[~a.equal[1:]]] = kid[~a.equal[1:]]
    else:
        width = int(a.value.max(initial=0)) + 1
        child_key = par * width + a.value[1:]
        order = np.argsort(child_key, kind="stable")
        child_key, child_of = child_key[order], kid[order]
    rows, at = np.arange(n), np.zeros(n, np.int64)
    while len(rows):
        f = split[at]
        c = np.where(f >= 0, codes[rows, np.maximum(f, 0)], -1)
        go = c >= 0  # a leaf, or the split column missing / unseen: the walk ends
        rows, at, f, c = rows[go], at[go], f[go], c[go]
        if a.binary:
            e, ne = eq_kid[at], ne_kid[at]
            in_e = (e >= 0) & a.allowed[np.maximum(e, 0), f, c]
            in_ne = (ne >= 0) & a.allowed[np.maximum(ne, 0), f, c]
            nxt = np.where(in_e, e, np.where(in_ne, ne, -1))
        else:
            key = at * width + np.minimum(c, width - 1)
            pos = np.minimum(np.searchsorted(child_key, key), max(len(child_key) - 1, 0))
            hit = (c < width) & (child_key[pos] == key) if len(child_key) else np.zeros(
                len(key), bool)
            nxt = np.where(hit, child_of[pos] if len(child_key) else -1, -1)
        ok = nxt >= 0
        rows, at = rows[ok], nxt[ok]
        rows_l.append(rows)
        nodes_l.append(at)
    return np.concatenate(rows_l), np.concatenate(nodes_l)


def _clause_within(a: TreeArrays, sizes: np.ndarray, codes: np.ndarray, rows: np.ndarray,
                   nodes: np.ndarray) -> np.ndarray:
    """For (row, binary node) pairs the row's walk reached: which of the node's clauses
    (`_node_bodies`: allowed-value combinations over its narrowed columns in `rank` order,
    the last varying fastest, values in code order) holds the row's values."""
    con_all = a.rank >= 0
    size = np.where(con_all, a.allowed.sum(axis=2), 1).astype(np.int64)  # per tree node
    order = np.argsort(np.where(con_all, a.rank, len(sizes)), axis=1, kind="stable")
    size_r = np.take_along_axis(size, order, axis=1)
    stride_r = np.cumprod(size_r[:, ::-1], axis=1)[:, ::-1] // size_r
    stride = np.empty_like(stride_r)
    np.put_along_axis(stride, order, stride_r, axis=1)
    con = con_all[nodes]
    out = np.zeros(len(nodes), np.int64)
    for j in np.flatnonzero(con.any(axis=0)):
        on = np.flatnonzero(con[:, j])
        c = codes[rows[on], j]  # known and allowed: the walk passed every split of column j
        below = a.allowed[nodes[on], j, :] & (np.arange(a.allowed.shape[2]) < c[:, None])
        out[on] += below.sum(axis=1) * stride[nodes[on], j]
    return out


def tree_kb_with_trees(
    X: Any,
    y: Any,
    positive: Any = None,
    nodes: NodesMode = "leaves",
    n_trees: int = 1,
    bootstrap: bool | None = None,
    max_features: int | None = None,
    max_depth: int | None = None,
    min_samples_split: int = 2,
    random_state: Any = 0,
    binary: bool = False,
) -> tuple[KB, list[Tree]]:
    """`tree_kb` plus the trees it was drawn from (for showing them)."""
    if nodes not in ("leaves", "all"):
        raise DataError(f'nodes must be "leaves" or "all", got {nodes!r}')
    trees = build_trees(
        X, y, positive=positive, n_trees=n_trees, bootstrap=bootstrap, max_features=max_features,
        max_depth=max_depth, min_samples_split=min_samples_split, random_state=random_state,
        binary=binary,
    )
    return trees_to_kb(trees, nodes), trees


def tree_kb(
    X: Any,
    y: Any,
    positive: Any = None,
    nodes: NodesMode = "leaves",
    n_trees: int = 1,
    bootstrap: bool | None = None,
    max_features: int | None = None,
    max_depth: int | None = None,
    min_samples_split: int = 2,
    random_state: Any = 0,
    binary: bool = False,
) -> KB:
    """Tree KB (Algorithm 2): one clause per root-to-leaf path (`nodes="leaves"`) or per
    root-to-node path (`nodes="all"`) of an ID3 tree, or of every tree of a forest
    (`n_trees` > 1; kind "forest"). Clause p = positives / count at the path's end node.
    `binary`: value-against-rest splits, a node expanded into one clause per combination of
    its allowed values (kind "tree-bin"; see the module docstring)."""
    kb, _ = tree_kb_with_trees(
        X, y, positive=positive, nodes=nodes, n_trees=n_trees, bootstrap=bootstrap,
        max_features=max_features, max_depth=max_depth, min_samples_split=min_samples_split,
        random_state=random_state, binary=binary,
    )
    return kb
