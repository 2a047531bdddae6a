"""The dashboard's working state and the plain functions its pages call.

One `Workspace` per browser session holds the data (raw table, settings, prepared data set, the
split), the KB and how it was built, the expert rules, the selected instance and a per-session
cache of results keyed by data and settings. Nothing here imports Streamlit: the pages keep a
Workspace in `st.session_state` (never in `st.cache_resource`, which all users share) and call
these functions, so everything below is testable without a browser.
"""

from __future__ import annotations

import difflib
import hashlib
import math
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from plx_core.baselines import DASHBOARD_BASELINES, baseline_scores, confusion, scores
from plx_core.data import (
    Dataset,
    infer_schema,
    load_csv,
    suggest_label,
    train_test_split_stratified,
)
from plx_core.datasets import SHARED_NAMES, data_dir, load_shared, paper_example, synthetic
from plx_core.direct import direct_kb, estimate_bytes
from plx_core.encoding import is_missing
from plx_core.errors import DataError, KBTooLargeError
from plx_core.estimator import KB_KINDS
from plx_core.export import FORMULA_START, safe_cell, safe_csv  # noqa: F401  (one home)
from plx_core.kb import KB, POS, Literal, WeightedClause
from plx_core.query import Bounds, BoundsArray, query, query_many
from plx_core.tree import Tree, tree_kb_with_trees

UNKNOWN = "(unknown)"
DEFAULT_NAME = "breast-cancer-wisconsin"
BUILTIN = {
    "breast-cancer-wisconsin": "Breast cancer diagnosis (default; scikit-learn's Wisconsin set)",
    "paper-example": "The paper's Example 2 (8 bit strings)",
    "syn-10-4": "Synthetic Syn 10/4 (1,000 strings, the paper's seed string)",
}
MAX_UPLOAD_BYTES = 50_000_000
MAX_UPLOAD_ROWS = 200_000
MAX_UPLOAD_COLS = 200


# =========================================================================== hashing


def fingerprint(*parts: Any) -> str:
    """A short stable hash of frames, series, bytes and plain values."""
    h = hashlib.sha1()
    for p in parts:
        if isinstance(p, (pd.DataFrame, pd.Series)):
            h.update(pd.util.hash_pandas_object(p.astype(object), index=True).to_numpy().tobytes())
            cols = list(p.columns) if isinstance(p, pd.DataFrame) else [p.name]
            h.update(repr(cols).encode())
        elif isinstance(p, (bytes, bytearray)):
            h.update(bytes(p))
        else:
            h.update(repr(p).encode())
        h.update(b"\x00")
    return h.hexdigest()[:16]


# =========================================================================== raw tables


@dataclass(frozen=True)
class DataSettings:
    """How a raw table becomes features, a label and a split (see `infer_schema`)."""

    label: str
    positive: str | None = None
    features: tuple[str, ...] | None = None  # None: every column but the label (auto exclusions)
    numeric: tuple[str, ...] = ()
    categorical: tuple[str, ...] = ()
    method: str = "quantile"
    bins: int = 4
    bins_per_column: tuple[tuple[str, int], ...] = ()
    test_size: float = 0.3
    seed: int = 0
    balance: str = "train"
    drop_unlabelled: bool = False  # rows whose label is missing are left out (else an error)


@dataclass(frozen=True)
class RawTable:
    """A table as read (strings/NaN, or numbers for the built-in default) and its defaults."""

    name: str
    frame: pd.DataFrame
    description: str
    fingerprint: str
    defaults: DataSettings
    source: str = "builtin"  # "builtin" | "shared" | "upload"


def raw_default() -> RawTable:
    """The default diagnosis set as raw numbers: `breast_cancer_default()` is this table with
    `defaults` applied (6 measurements, 3 quantile bins each)."""
    from sklearn.datasets import load_breast_cancer

    from plx_core.datasets import BREAST_CANCER_FEATURES

    raw = load_breast_cancer(as_frame=True)
    frame = raw.data[list(BREAST_CANCER_FEATURES)].copy()
    frame["diagnosis"] = np.asarray(raw.target_names, dtype=object)[raw.target.to_numpy()]
    frame = frame.reset_index(drop=True)
    feats = tuple(BREAST_CANCER_FEATURES)
    settings = DataSettings("diagnosis", "malignant", feats, numeric=feats, bins=3)
    return RawTable(
        DEFAULT_NAME, frame,
        "Breast cancer Wisconsin (diagnostic): 569 tumours, 212 malignant and 357 benign; six "
        "of the 30 measurements, each cut into three equal-frequency bins.",
        fingerprint("builtin", DEFAULT_NAME), settings,
    )


def raw_builtin(name: str) -> RawTable:
    if name == DEFAULT_NAME:
        return raw_default()
    if name == "paper-example":
        ds = paper_example()
    elif name == "syn-10-4":
        from plx_core.datasets import PAPER_SYN_10_4_SEED

        ds = synthetic(10, 4, 1000, seed=0, seed_string=PAPER_SYN_10_4_SEED)
    else:
        raise DataError(f"unknown built-in data set {name!r}; choose one of {list(BUILTIN)}")
    return _from_dataset(ds, "builtin")


def shared_available() -> list[str]:
    """The shared data sets that can be loaded here (empty when the folder is absent)."""
    return list(SHARED_NAMES) if data_dir().is_dir() else []


def raw_shared(name: str) -> RawTable:
    return _from_dataset(load_shared(name), "shared")


def _from_dataset(ds: Dataset, source: str) -> RawTable:
    frame = ds.frame().reset_index(drop=True)
    label = ds.schema.label if ds.schema is not None else "label"
    feats = tuple(str(c) for c in ds.X.columns)
    settings = DataSettings(label, ds.positive, feats, categorical=feats)
    return RawTable(ds.name, frame, ds.description, fingerprint(source, ds.name), settings, source)


def read_upload(
    data: bytes,
    filename: str = "upload.csv",
    *,
    header: bool = True,
    missing: Sequence[str] = ("?", ""),
    split_column: str | None = None,
) -> RawTable:
    """An uploaded CSV as a raw table. Sizes are checked before parsing. `split_column` turns
    a column of equal-length strings (an octamer such as `SLNLRETN`) into one feature per
    character (`<col>_1` … `<col>_L`): that is how the HIV-1 files are used."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise DataError(
            f"the file is {len(data) / 1e6:.1f} MB; the dashboard reads at most "
            f"{MAX_UPLOAD_BYTES / 1e6:.0f} MB"
        )
    frame = load_csv(data, header=header, missing=tuple(missing), max_rows=MAX_UPLOAD_ROWS,
                     max_cols=MAX_UPLOAD_COLS)
    frame.columns = [str(c) for c in frame.columns]
    if split_column:
        frame = split_characters(frame, split_column)
    if len(frame) < 4:
        raise DataError(f"the file has only {len(frame)} data row(s); plx needs more rows to learn from")
    label = suggest_label(frame).column
    settings = DataSettings(label, None)
    return RawTable(filename, frame, f"Uploaded file {filename!r}.",
                    fingerprint(data, header, tuple(missing), split_column), settings, "upload")


def split_characters(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """Replace a text column by one column per character position (all values must have the
    same length, at most 64)."""
    if column not in frame.columns:
        raise DataError(f"there is no column {column!r} to split; the columns are {list(frame.columns)}")
    s = frame[column]
    if s.isna().any():
        row = int(np.flatnonzero(s.isna().to_numpy())[0])
        raise DataError(f"column {column!r} is empty in row {row + 1}; every value must be text to split")
    text = s.astype(str)
    lengths = text.str.len()
    if lengths.nunique() != 1:
        row = int(np.flatnonzero((lengths != lengths.iloc[0]).to_numpy())[0])
        raise DataError(
            f"column {column!r} holds texts of different lengths (row 1 has {lengths.iloc[0]} "
            f"characters, row {row + 1} has {lengths.iloc[row]}); only equal-length texts can be "
            "split into one feature per character"
        )
    n = int(lengths.iloc[0])
    if not 1 <= n <= 64:
        raise DataError(f"column {column!r} has {n}-character values; splitting needs 1 to 64")
    chars = pd.DataFrame([list(t) for t in text], columns=[f"{column}_{i + 1}" for i in range(n)],
                         index=frame.index, dtype=object)
    pos = list(frame.columns).index(column)
    left, right = frame.iloc[:, :pos], frame.iloc[:, pos + 1:]
    return pd.concat([left, chars, right], axis=1)


# =========================================================================== column overview


def column_overview(raw: RawTable, settings: DataSettings) -> pd.DataFrame:
    """One row per column: distinct and missing counts, whether it reads as numbers, a few
    example values, and the role the current settings give it."""
    rows = []
    for c in raw.frame.columns:
        s = raw.frame[c]
        nums = pd.to_numeric(s, errors="coerce")
        is_num = bool(s.notna().sum()) and bool(nums.notna().sum() == s.notna().sum())
        examples = ", ".join(str(v) for v in pd.unique(s.dropna())[:4])
        role = "label" if c == settings.label else (
            "feature" if settings.features is None or c in settings.features else "not used")
        rows.append({"column": str(c), "role": role, "distinct": int(s.nunique(dropna=True)),
                     "missing": int(s.isna().sum()), "numbers": is_num, "examples": examples})
    return pd.DataFrame(rows)


def label_values(raw: RawTable, label: str) -> list[str]:
    if label not in raw.frame.columns:
        return []
    s = raw.frame[label].dropna()
    vals = [str(v) if not isinstance(v, float) or not v.is_integer() else str(int(v)) for v in s]
    out = sorted(set(vals), key=lambda v: (-vals.count(v), v))
    return out


# =========================================================================== preparing


def prepare(raw: RawTable, settings: DataSettings) -> Dataset:
    """The data set the settings make of the raw table (errors say what to change)."""
    if settings.label not in raw.frame.columns:
        raise DataError(f"choose a label column; {settings.label!r} is not one of the columns")
    if settings.positive is None:
        vals = label_values(raw, settings.label)
        raise DataError(
            f"choose the positive class of the label {settings.label!r} (values: "
            f"{', '.join(vals[:8])}{' …' if len(vals) > 8 else ''})"
        )
    if settings.features is not None and not settings.features:
        raise DataError("choose at least one feature column")
    per = dict(settings.bins_per_column)
    bins: int | dict[str, int] = settings.bins
    if per:
        bins = {c: per.get(c, settings.bins) for c in raw.frame.columns}
    label_vals = label_values(raw, settings.label)
    label_map = None
    if len(label_vals) > 2:  # one-vs-rest: every other class becomes NOT POS
        label_map = {v: ("not " + settings.positive) for v in label_vals if v != settings.positive}
    frame = raw.frame
    if settings.drop_unlabelled:
        frame = frame[frame[settings.label].notna()]
    schema = infer_schema(
        frame, settings.label, settings.positive,
        features=list(settings.features) if settings.features is not None else None,
        numeric=[c for c in settings.numeric if c != settings.label],
        categorical=[c for c in settings.categorical if c != settings.label
                     and c not in settings.numeric],
        method=settings.method, bins=bins, label_map=label_map,
    )
    X, y = schema.apply(frame)
    assert y is not None
    classes = y.unique()
    if len(classes) < 2:
        raise DataError(f"every row has the label {classes[0]!r}; plx needs both outcomes")
    return Dataset(raw.name, X, y, schema.positive, raw.description, schema)


def validate(ds: Dataset, kind: str = "direct", max_len: int | None = None) -> list[tuple[str, str]]:
    """Plain-words notes on a prepared data set: (level, message), level info/warning."""
    notes: list[tuple[str, str]] = []
    n, F = ds.X.shape
    counts = ds.counts()
    pos = ds.positive
    notes.append(("info", f"{n} rows, {F} features; "
                  + ", ".join(f"{k}: {v}" for k, v in counts.items()) + f"; POS is {pos!r}."))
    if ds.schema is not None:
        for c, why in ds.schema.excluded.items():
            if why != "not among the requested features":  # the user's own choice
                notes.append(("warning", f"Column {c!r} is not used: {why}."))
        for f, b in ds.schema.bins.items():
            notes.append(("info", f"{f!r} is numeric and was cut into {len(b.labels)} bins ({b.method})."))
    miss = ds.X.isna().sum()
    for f, m in miss[miss > 0].items():
        notes.append(("info", f"{f!r} is missing in {int(m)} rows; a missing value is left unknown."))
    small = min(counts.values())
    if small < 10:
        notes.append(("warning", f"The smaller class has only {small} rows; results will be unstable."))
    if kind == "direct" and estimate_bytes(n, F, max_len) > 6 * 2**30:
        fit = [k for k in range(1, F + 1) if estimate_bytes(n, F, k) <= 6 * 2**30]
        hint = f"set max_len to {fit[-1]} or less" if fit else "use fewer rows or features"
        notes.append(("warning", f"{F} features is too many for a full Direct KB over {n} rows: "
                      f"{hint} on the Knowledge base page, or build a Tree KB."))
    return notes


# =========================================================================== KB settings


@dataclass(frozen=True)
class KBSettings:
    kind: str = "direct"  # direct | tree | tree-all | forest
    max_len: int | None = None  # Direct KB
    n_trees: int = 10  # forest
    max_depth: int | None = None  # trees
    random_state: int = 0

    def label(self) -> str:
        if self.kind == "direct":
            return "Direct" + ("" if self.max_len is None else f" (max_len {self.max_len})")
        if self.kind == "forest":
            return f"Forest ({self.n_trees} trees)"
        return {"tree": "Tree (leaves)", "tree-all": "Tree (all nodes)"}[self.kind]

    def key(self) -> tuple:
        if self.kind == "direct":
            return ("direct", self.max_len)
        if self.kind == "forest":
            return ("forest", self.n_trees, self.max_depth, self.random_state)
        return (self.kind, self.max_depth)


MAX_SUBSETS = 1000  # feature subsets per full query that keep a click under a second


def default_max_len(n_rows: int, n_features: int) -> int | None:
    """None (no cap) when a full query has at most `MAX_SUBSETS` feature subsets and the full
    Direct KB fits in 1 GiB; else the largest cap that meets both (at least 1). Wide uploads such
    as Mushroom (21 usable features) get max_len 2 and stay interactive."""
    from plx_core.direct import n_subsets

    if n_subsets(n_features, None) <= MAX_SUBSETS and estimate_bytes(n_rows, n_features, None) <= 2**30:
        return None
    fit = [k for k in range(1, n_features + 1)
           if n_subsets(n_features, k) <= MAX_SUBSETS and estimate_bytes(n_rows, n_features, k) <= 2**30]
    return fit[-1] if fit else 1


def build_kb(
    X: pd.DataFrame, y: pd.Series, positive: str, settings: KBSettings,
    progress: Callable[[float, str], None] | None = None,
) -> tuple[KB, list[Tree], float]:
    """Build a KB; returns (kb, trees (for tree kinds), seconds). `progress(fraction, text)`."""
    say = progress or (lambda f, t: None)
    t0 = time.perf_counter()
    trees: list[Tree] = []
    if settings.kind == "direct":
        say(0.05, "Counting every feature-value set of the training rows…")
        kb = direct_kb(X, y, positive=positive, max_len=settings.max_len)
    elif settings.kind in ("tree", "tree-all"):
        say(0.05, "Growing the ID3 tree…")
        kb, trees = tree_kb_with_trees(X, y, positive=positive,
                                       nodes="leaves" if settings.kind == "tree" else "all",
                                       max_depth=settings.max_depth, random_state=settings.random_state)
    elif settings.kind == "forest":
        say(0.05, f"Growing {settings.n_trees} ID3 trees…")
        kb, trees = tree_kb_with_trees(X, y, positive=positive, nodes="leaves",
                                       n_trees=settings.n_trees, max_depth=settings.max_depth,
                                       random_state=settings.random_state)
    else:
        raise DataError(f"unknown KB kind {settings.kind!r}; choose one of {list(KB_KINDS)}")
    say(0.8, "Indexing the clauses…")
    kb.index()
    secs = time.perf_counter() - t0
    say(1.0, f"Built {len(kb):,} clauses in {secs:.2f} s")
    return kb, trees, secs


def with_rules(kb: KB, rules: Sequence[WeightedClause]) -> KB:
    """The KB plus the rules, sharing the learned arrays and their lookup index (no copy)."""
    if not rules:
        return kb
    kb.index()
    out = KB(kb.features, dict(kb.domains), kb.codes, kb.head, kb.p, kb.w, kb.support,
             kb.positives, kb.source, list(kb.extra), kb.positive, kb.kind, kb.max_len,
             _index_cache=kb._index_cache)
    out.extra.extend(rules)
    return out


# =========================================================================== rules


def rule_clause(conditions: Sequence[tuple[str, str]], head: str, p: float, w: float,
                rule_id: str) -> WeightedClause:
    """`IF a=v AND b=w THEN POS` (or NOT POS) with probability p and weight w, as the clause
    `POS ∨ ¬a=v ∨ ¬b=w` (`¬POS ∨ …`)."""
    if head not in ("POS", "NOT POS"):
        raise DataError(f"a rule concludes POS or NOT POS, not {head!r}")
    lits = [Literal(POS, None, head == "NOT POS")] + [Literal(f, v, True) for f, v in conditions]
    return WeightedClause(tuple(lits), float(p), float(w), source="rule", id=rule_id)


def rule_parts(rule: WeightedClause) -> tuple[list[tuple[str, str]], str]:
    """(conditions, head) of a rule or learned clause: the (feature, value) of every feature
    literal (a positive literal `a=v`, from a condition `NOT a=v`, is listed too; `rule_text`
    shows the NOT)."""
    conds = [(lit.atom, lit.value) for lit in rule.literals if lit.is_feature]
    head = "NOT POS" if any(lit.is_class and lit.negated for lit in rule.literals) else "POS"
    return conds, head


def rule_text(rule: WeightedClause) -> str:
    """`IF a=v AND NOT b=w THEN POS` for display (names and values as typed, unquoted)."""
    parts = [("" if lit.negated else "NOT ") + f"{lit.atom}={lit.value}"
             for lit in rule.literals if lit.is_feature]
    if any(not lit.is_feature and not lit.is_class for lit in rule.literals) or not any(
            lit.is_class for lit in rule.literals):
        return rule.to_text()  # not of the IF … THEN shape: show the raw clause
    _, head = rule_parts(rule)
    return f"IF {' AND '.join(parts) or '(always)'} THEN {head}"


def next_rule_id(rules: Sequence[WeightedClause]) -> str:
    used = {r.id for r in rules}
    n = 1
    while f"r{n}" in used:
        n += 1
    return f"r{n}"


def validate_conditions(conditions: Sequence[tuple[str, str]], domains: Mapping[str, Sequence[str]]) -> list[str]:
    """Problems with a rule's conditions, in plain words (empty when fine)."""
    errors = []
    if not conditions:
        errors.append("Add at least one condition (feature = value).")
    seen: dict[str, str] = {}
    for f, v in conditions:
        if f not in domains:
            close = difflib.get_close_matches(f, list(domains), n=3)
            hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
            errors.append(f"There is no feature {f!r}.{hint}")
            continue
        if v not in domains[f]:
            shown = ", ".join(repr(x) for x in list(domains[f])[:12])
            errors.append(f"Feature {f!r} has no value {v!r}; its values are {shown}.")
        if f in seen and seen[f] != v:
            errors.append(f"Feature {f!r} appears twice ({seen[f]!r} and {v!r}); a row has one value "
                          "per feature, so such a rule never applies.")
        seen[f] = v
    return errors


_SPLIT_AND = re.compile(r"\s+(?:AND|and|&|∧)\s+|\s*,\s*(?=[^,=]+=)")


def parse_conditions(text: str) -> list[tuple[str, str]]:
    """`a=v AND b=w` (also `∧`, `&`, or commas) into pairs; names and values may be quoted."""
    text = text.strip()
    if not text:
        return []
    m = re.match(r"(?is)^\s*IF\s+(.*?)(?:\s+THEN\s+.*)?$", text)
    if m:
        text = m.group(1)
    out = []
    for part in _SPLIT_AND.split(text):
        part = part.strip()
        if not part:
            continue
        if "=" not in part:
            raise DataError(f"condition {part!r} needs the form feature=value")
        f, v = part.split("=", 1)
        out.append((_unquote(f.strip()), _unquote(v.strip())))
    return out


def _unquote(s: str) -> str:
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "\"'":
        return s[1:-1]
    return s


def rules_frame(rules: Sequence[WeightedClause]) -> pd.DataFrame:
    return pd.DataFrame(
        [{"id": r.id, "rule": rule_text(r), "p": r.p, "w": r.w, "enabled": r.enabled} for r in rules],
        columns=["id", "rule", "p", "w", "enabled"],
    )


def rules_signature(rules: Sequence[WeightedClause]) -> tuple:
    return tuple(r.to_text() for r in rules if r.enabled)


# =========================================================================== instances


@dataclass(frozen=True)
class Instance:
    """A query: one value (or None = unknown) per feature, where it came from, and the true
    label when the values are exactly those of a data row."""

    values: tuple[tuple[str, str | None], ...]
    origin: str = "edited"  # "test" | "train" | "edited"
    row: Any = None
    label: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        return dict(self.values)

    def known(self) -> dict[str, str]:
        return {f: v for f, v in self.values if v is not None}

    def title(self) -> str:
        if self.origin in ("test", "train") and self.row is not None:
            return f"{self.origin} row {self.row}"
        return "edited instance"


def instance_from_row(X: pd.DataFrame, y: pd.Series | None, row: Any, origin: str) -> Instance:
    r = X.loc[row]
    if isinstance(r, pd.DataFrame):  # replicas of a row share its index label
        r = r.iloc[0]
    vals = tuple((str(f), None if is_missing(v) else str(v)) for f, v in r.items())
    label = None
    if y is not None:
        lab = y.loc[row]
        label = str(lab.iloc[0] if isinstance(lab, pd.Series) else lab)
    return Instance(vals, origin, row, label)


def edit_instance(inst: Instance, feature: str, value: str | None, source: Instance | None = None) -> Instance:
    """The instance with one value changed; it keeps its origin and true label only while its
    values still equal those of `source` (the row it came from)."""
    vals = tuple((f, value if f == feature else v) for f, v in inst.values)
    if source is not None and vals == source.values:
        return source
    return Instance(vals, "edited", inst.row if inst.origin != "edited" else inst.row, None)


def unique_rows(X: pd.DataFrame) -> pd.DataFrame:
    """Rows with distinct index labels (training replicas dropped)."""
    return X[~X.index.duplicated(keep="first")]


# =========================================================================== the workspace


class LRU:
    """A small least-recently-used cache (per workspace, so per browser session)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.data: OrderedDict[Hashable, Any] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        if key in self.data:
            self.data.move_to_end(key)
            self.hits += 1
            return self.data[key]
        self.misses += 1
        value = make()
        self.data[key] = value
        while len(self.data) > self.size:
            self.data.popitem(last=False)
        return value

    def __contains__(self, key: Hashable) -> bool:
        return key in self.data

    def clear(self) -> None:
        self.data.clear()


@dataclass
class Workspace:
    """Everything one user works on. Create with `new_workspace()`."""

    raw: RawTable
    settings: DataSettings
    dataset: Dataset
    X_train: pd.DataFrame
    X_test: pd.DataFrame
    y_train: pd.Series
    y_test: pd.Series
    data_key: str
    kb_settings: KBSettings = field(default_factory=KBSettings)
    kb: KB | None = None
    trees: list[Tree] = field(default_factory=list)
    build_seconds: float = 0.0
    kb_cached: bool = False
    kb_key: tuple | None = None
    kb_note: str = ""
    rules: list[WeightedClause] = field(default_factory=list)
    selected: Instance | None = None
    semantics: str = "auto"
    method: str = "auto"
    kbs: LRU = field(default_factory=lambda: LRU(6))
    results: LRU = field(default_factory=lambda: LRU(512))

    # ------------------------------------------------------------------ data

    @property
    def positive(self) -> str:
        return str(self.dataset.positive)

    @property
    def class_name(self) -> str:
        """What POS stands for, readable alone (`malignant`, `Survived = 1`)."""
        from plx_core.wording import class_name

        return class_name(self.positive, self.settings.label)

    @property
    def features(self) -> tuple[str, ...]:
        return tuple(str(c) for c in self.dataset.X.columns)

    def domains(self) -> dict[str, tuple[str, ...]]:
        if self.kb is not None:
            return {f: self.kb.domains.get(f, ()) for f in self.features}
        from plx_core.encoding import natural_key

        return {f: tuple(sorted(self.X_train[f].dropna().astype(str).unique(), key=natural_key))
                for f in self.features}

    def part(self, name: str) -> tuple[pd.DataFrame, pd.Series]:
        if name == "test":
            return self.X_test, self.y_test
        if name == "train":
            X = unique_rows(self.X_train)
            return X, self.y_train[~self.y_train.index.duplicated(keep="first")]
        raise DataError(f"part must be 'test' or 'train', not {name!r}")

    # ------------------------------------------------------------------ KB

    def ensure_kb(self, progress: Callable[[float, str], None] | None = None) -> KB:
        if self.kb is None:
            self.set_kb(self.kb_settings, progress)
        assert self.kb is not None
        return self.kb

    def set_kb(self, settings: KBSettings, progress: Callable[[float, str], None] | None = None) -> KB:
        """Build (or fetch from this session's cache) the KB for the data and settings."""
        key = ("kb", self.data_key, settings.key())
        cached = key in self.kbs
        kb, trees, secs = self.kbs.get(
            key, lambda: build_kb(self.X_train, self.y_train, self.positive, settings, progress))
        self.kb, self.trees, self.build_seconds = kb, trees, secs
        self.kb_settings, self.kb_key, self.kb_cached = settings, key, cached
        self.kb_note = ""
        return kb

    def kb_for(self, settings: KBSettings,
               progress: Callable[[float, str], None] | None = None) -> tuple[KB, tuple]:
        """Another KB on the same data (e.g. a Tree KB to compare with), from the session cache
        when built before; the current KB stays as it is."""
        key = ("kb", self.data_key, settings.key())
        kb, _, _ = self.kbs.get(
            key, lambda: build_kb(self.X_train, self.y_train, self.positive, settings, progress))
        return kb, key

    def import_kb(self, text: str | bytes) -> KB:
        """Use a KB read from JSON (its features must be the data's features)."""
        kb = KB.from_json(text)
        missing = [f for f in self.features if f not in kb.features]
        extra = [f for f in kb.features if f not in self.features]
        if missing or extra:
            raise DataError(
                "the imported KB does not fit the data: "
                + (f"it lacks the feature(s) {missing}" if missing else "")
                + ("; " if missing and extra else "")
                + (f"it has feature(s) the data lacks {extra}" if extra else "")
            )
        rules = [c for c in kb.extra if c.source == "rule"]
        base = kb.without_rules()
        base.index()
        key = ("kb", "import", fingerprint(text))
        self.kbs.get(key, lambda: (base, [], 0.0))
        self.kb, self.trees, self.build_seconds, self.kb_key = base, [], 0.0, key
        self.kb_cached = False
        self.kb_note = f"imported ({base.kind}, {len(base):,} clauses)"
        self.rules = list(rules)
        return base

    def current_kb(self) -> KB:
        """The KB with the enabled rules (cached per rule set)."""
        base = self.ensure_kb()
        sig = rules_signature(self.rules)
        if not sig:
            return base
        return self.results.get(("kb+rules", self.kb_key, sig),
                                lambda: with_rules(base, [r for r in self.rules if r.enabled]))

    def rules_key(self) -> tuple:
        return rules_signature(self.rules)

    # ------------------------------------------------------------------ queries

    def query(self, inst: Instance | Mapping[str, Any], rules: bool = True,
              kb: KB | None = None, kb_key: Any = None) -> Bounds:
        values = inst.known() if isinstance(inst, Instance) else {
            f: v for f, v in inst.items() if not is_missing(v)}
        if kb is None:
            kb = self.current_kb() if rules else self.ensure_kb()
            kb_key = (self.kb_key, self.rules_key() if rules else ())
        key = ("query", kb_key, tuple(sorted(values.items())), self.semantics, self.method)
        return self.results.get(key, lambda: query(kb, values, semantics=self.semantics,
                                                   method=self.method))

    def decisions(self, part: str = "test", rules: bool = True) -> pd.DataFrame:
        """Bounds and decision for every row of a split part (cached)."""
        X, y = self.part(part)
        kb = self.current_kb() if rules else self.ensure_kb()
        key = ("decisions", part, self.data_key, self.kb_key, self.rules_key() if rules else (),
               self.semantics, self.method)
        return self.results.get(key, lambda: decision_frame(kb, X, y, self.positive,
                                                            self.semantics, self.method))

    def set_selected(self, inst: Instance | None) -> None:
        self.selected = inst


def decision_frame(kb: KB, X: pd.DataFrame, y: pd.Series | None, positive: str,
                   semantics: str = "auto", method: str = "auto") -> pd.DataFrame:
    ba: BoundsArray = query_many(kb, X, semantics=semantics, method=method)
    out = pd.DataFrame({"lower": ba.lower, "upper": ba.upper, "mean": ba.mean,
                        "decision": np.where(ba.positive, "POS", "NOT POS"),
                        "tie": ba.tie, "method": ba.method}, index=X.index)
    if y is not None:
        truth = (y.astype(str) == str(positive)).to_numpy()
        out["label"] = y.astype(str).to_numpy()
        out["correct"] = truth == ba.positive
    return out


def new_workspace(raw: RawTable | None = None, settings: DataSettings | None = None,
                  build: bool = True) -> Workspace:
    """A workspace on `raw` (default: the built-in diagnosis set, split 70/30 with seed 0),
    with the Direct KB built unless `build` is False."""
    raw = raw if raw is not None else raw_default()
    settings = settings if settings is not None else raw.defaults
    ws = _workspace_for(raw, settings)
    if build:
        ws.kb_settings = KBSettings(max_len=default_max_len(*ws.X_train.shape))
        ws.ensure_kb()
    return ws


def _workspace_for(raw: RawTable, settings: DataSettings) -> Workspace:
    ds = prepare(raw, settings)
    X_tr, X_te, y_tr, y_te = train_test_split_stratified(ds.X, ds.y, settings.test_size,
                                                         settings.seed, settings.balance)
    key = fingerprint(raw.fingerprint, X_tr, y_tr, X_te, y_te, ds.positive)
    return Workspace(raw, settings, ds, X_tr, X_te, y_tr, y_te, key)


def use_data(ws: Workspace, raw: RawTable, settings: DataSettings) -> list[str]:
    """Switch the workspace to new data (in place). Keeps the KB cache; drops the selection and
    the rules that no longer fit the features and values. Returns notes for the user."""
    fresh = _workspace_for(raw, settings)
    notes = []
    old_rules = ws.rules
    for name in ("raw", "settings", "dataset", "X_train", "X_test", "y_train", "y_test", "data_key"):
        setattr(ws, name, getattr(fresh, name))
    ws.kb = None
    ws.kb_key = None
    ws.trees = []
    ws.selected = None
    kind = ws.kb_settings.kind
    ml = default_max_len(*ws.X_train.shape) if kind == "direct" else ws.kb_settings.max_len
    ws.kb_settings = replace(ws.kb_settings, max_len=ml)
    if kind == "direct" and ml is not None:
        notes.append(f"With {ws.X_train.shape[1]} features the Direct KB is capped at max_len={ml} "
                     "(change it on the Knowledge base page).")
    doms = ws.domains()
    ws.rules = [r for r in old_rules if not validate_conditions(rule_parts(r)[0], doms)]
    dropped = len(old_rules) - len(ws.rules)
    if dropped:
        notes.append(f"{dropped} rule(s) did not fit the new data and were removed.")
    return notes


# =========================================================================== KB browser


@dataclass(frozen=True)
class BrowseQuery:
    search: str = ""
    features: tuple[str, ...] = ()  # clauses that mention all of these
    length: tuple[int, int] | None = None
    p_range: tuple[float, float] = (0.0, 1.0)
    min_support: int = 0
    source: tuple[str, ...] = ()
    sort_by: str = "support"  # support | p | length | w | index
    descending: bool = True
    page: int = 1
    page_size: int = 25


def _literal_texts(kb: KB, f: str) -> list[str]:
    return [f"{f}={v}" for v in kb.domains[f]]


def _clause_columns(kb: KB) -> dict[str, np.ndarray]:
    """p, w, support, length and source of every clause (learned rows, then extra clauses)."""
    ex = kb.extra
    return {
        "p": np.concatenate([kb.p, [c.p for c in ex]]),
        "w": np.concatenate([kb.w, [c.w for c in ex]]),
        "support": np.concatenate([kb.support, [(-1 if c.support is None else c.support) for c in ex]]),
        "length": np.concatenate([kb.lengths, [sum(lit.is_feature for lit in c.literals) for c in ex]]).astype(int),
        "source": np.concatenate([np.asarray(["data", "tree", "rule", "user"], dtype=object)[kb.source],
                                  np.asarray([c.source for c in ex], dtype=object)]),
        "index": np.arange(len(kb)),
    }


def _search_terms(text: str) -> list[str]:
    return [t.strip().lower() for t in re.split(r"\s+(?:AND|and)\s+|;|∧", text.strip()) if t.strip()]


def browse_mask(kb: KB, q: BrowseQuery, cols: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """Which clauses (learned rows, then extra clauses) pass the filters, without building any
    clause text: a search term matches a literal `feature=value` as a substring (case-blind),
    and a clause matches when every term matches one of its literals."""
    cols = cols if cols is not None else _clause_columns(kb)
    p, length, sup = cols["p"], cols["length"], cols["support"]
    mask = (p >= q.p_range[0] - 1e-12) & (p <= q.p_range[1] + 1e-12)
    if q.length is not None:
        mask &= (length >= q.length[0]) & (length <= q.length[1])
    if q.min_support > 0:
        mask &= sup >= q.min_support
    if q.source:
        mask &= np.isin(cols["source"], list(q.source))
    for f in q.features:
        if f not in kb.domains:
            raise DataError(f"unknown feature {f!r}")
        j = kb.features.index(f)
        mask &= np.concatenate([kb.codes[:, j] >= 0,
                                np.asarray([any(lit.atom == f for lit in c.literals) for c in kb.extra],
                                           dtype=bool)])
    for t in _search_terms(q.search):
        hit = np.zeros(kb.n_learned, dtype=bool)
        for j, f in enumerate(kb.features):
            ok = [k for k, s in enumerate(_literal_texts(kb, f)) if t in s.lower()]
            if ok:
                hit |= np.isin(kb.codes[:, j], ok)
        if t in ("pos", "then pos"):
            hit |= kb.head > 0
        extra_hit = np.asarray([t in c.to_text().lower() or t in rule_text(c).lower()
                                for c in kb.extra], dtype=bool)
        mask &= np.concatenate([hit, extra_hit])
    return mask


SORT_KEYS = ("support", "p", "length", "w", "index")


def browse_kb(kb: KB, q: BrowseQuery) -> tuple[pd.DataFrame, int]:
    """One page of the clauses that pass the filters, sorted (ties by index); and how many
    passed."""
    if q.sort_by not in SORT_KEYS:
        raise DataError(f"sort by one of {list(SORT_KEYS)}, not {q.sort_by!r}")
    cols = _clause_columns(kb)
    idx = np.flatnonzero(browse_mask(kb, q, cols))
    total = len(idx)
    vals = cols[q.sort_by][idx].astype(float)
    idx = idx[np.lexsort((idx, -vals if q.descending else vals))]
    size = max(1, int(q.page_size))
    pages = max(1, math.ceil(total / size))
    page = min(max(1, int(q.page)), pages)
    rows = []
    for i in idx[(page - 1) * size: page * size]:
        c = kb.clause(int(i))
        conds, head = rule_parts(c)
        rows.append({"#": int(i), "IF": " AND ".join(f"{f}={v}" for f, v in conds),
                     "THEN": head, "p": c.p, "w": c.w, "support": c.support,
                     "positives": c.positives, "length": len(conds), "source": c.source,
                     "enabled": c.enabled, "clause": c.to_text()})
    frame = pd.DataFrame(rows, columns=["#", "IF", "THEN", "p", "w", "support", "positives",
                                        "length", "source", "enabled", "clause"])
    frame["support"] = frame["support"].astype("Int64")
    frame["positives"] = frame["positives"].astype("Int64")
    return frame, total


# =========================================================================== exports


def kb_csv(kb: KB, limit: int | None = None) -> bytes:
    """The KB as a CSV table (one clause per row), safe against formula injection."""
    stop = len(kb) if limit is None else min(limit, len(kb))
    return safe_csv(kb.to_frame(0, stop))


__all__ = [
    "DASHBOARD_BASELINES", "BUILTIN", "DEFAULT_NAME", "SORT_KEYS", "LRU", "BrowseQuery", "DataSettings", "Instance", "KBSettings", "KB_KINDS",
    "RawTable", "UNKNOWN", "Workspace", "baseline_scores", "browse_kb", "browse_mask", "build_kb",
    "column_overview", "confusion", "decision_frame", "default_max_len", "edit_instance",
    "fingerprint", "instance_from_row", "kb_csv", "label_values", "new_workspace", "next_rule_id",
    "parse_conditions", "prepare", "raw_builtin", "raw_default", "raw_shared", "read_upload",
    "rule_clause", "rule_parts", "rule_text", "rules_frame", "safe_cell", "safe_csv", "scores",
    "shared_available", "split_characters", "use_data", "validate", "validate_conditions",
    "with_rules", "KBTooLargeError",
]
