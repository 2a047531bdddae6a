"""Knowledge-base values: literals, weighted clauses and the `KB` container.

Learned clauses all have the shape `±POS ∨ ¬a1=v1 ∨ … ∨ ¬ak=vk`; the KB keeps them columnar
(an integer code matrix, one column per feature, -1 where a feature is absent) so that Direct
KBs with millions of clauses stay compact and can be looked up with numpy. Any other clause
(expert rules, plain propositional atoms, positive feature literals) is kept as a
`WeightedClause` object in `kb.extra`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from .errors import ClauseSyntaxError, DataError

POS = "POS"
SOURCES = ("data", "tree", "rule", "user")
JSON_FORMAT = "plx-kb"
JSON_VERSION = 1


# --------------------------------------------------------------------------- literals


@dataclass(frozen=True, order=True)
class Literal:
    """`a=v`, `¬a=v`, `POS`, `¬POS`, or a plain propositional atom (value None)."""

    atom: str
    value: str | None = None
    negated: bool = False

    @property
    def is_class(self) -> bool:
        return self.atom == POS and self.value is None

    @property
    def is_feature(self) -> bool:
        return self.value is not None

    def negate(self) -> Literal:
        return replace(self, negated=not self.negated)

    def __str__(self) -> str:
        body = _quote(self.atom) if self.value is None else f"{_quote(self.atom)}={_quote(self.value)}"
        return ("~" if self.negated else "") + body


_SPECIAL = re.compile(r'[\s=|"~¬∨\[\],#:]')


def _quote(token: str) -> str:
    if token == "" or _SPECIAL.search(token) or token.upper() in ("POS", "OR", "AND"):
        if token == POS:
            return token
        return json.dumps(token, ensure_ascii=False)
    return token


# --------------------------------------------------------------------------- clauses


@dataclass(frozen=True)
class WeightedClause:
    """A clause with probability `p` in [0, 1] and weight `w` > 0 in the LP objective."""

    literals: tuple[Literal, ...]
    p: float
    w: float = 1.0
    source: str = "data"
    support: int | None = None
    positives: int | None = None
    id: str | None = None
    enabled: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "literals", tuple(self.literals))
        _check_pw(self.p, self.w, where=f"clause {self.id or ''}".strip())
        if not self.literals:
            raise DataError("a clause needs at least one literal")
        if self.source not in SOURCES:
            raise DataError(f"clause source {self.source!r} is not one of {SOURCES}")

    @property
    def head(self) -> int:
        """+1 if the clause contains POS, -1 if ¬POS, 0 if neither (or both)."""
        has_pos = any(lit.is_class and not lit.negated for lit in self.literals)
        has_neg = any(lit.is_class and lit.negated for lit in self.literals)
        return int(has_pos) - int(has_neg) if has_pos != has_neg else 0

    @property
    def is_learned_form(self) -> bool:
        """True for `±POS ∨ ¬a1=v1 ∨ …` with distinct features (the columnar shape)."""
        if self.head == 0:
            return False
        body = [lit for lit in self.literals if not lit.is_class]
        if sum(lit.is_class for lit in self.literals) != 1:
            return False
        if any(not lit.is_feature or not lit.negated for lit in body):
            return False
        return len({lit.atom for lit in body}) == len(body)

    def to_text(self) -> str:
        return f"{_format_meta(self.p, self.w, self.source, self.support, self.positives, self.id, self.enabled)} " + " | ".join(
            str(lit) for lit in self.literals
        )

    def __str__(self) -> str:
        return self.to_text()


def _check_pw(p: Any, w: Any, where: str = "") -> None:
    prefix = f"{where}: " if where else ""
    try:
        pf, wf = float(p), float(w)
    except (TypeError, ValueError) as exc:
        raise DataError(f"{prefix}p and w must be numbers, got p={p!r}, w={w!r}") from exc
    if not (0.0 <= pf <= 1.0) or math.isnan(pf):
        raise DataError(f"{prefix}probability p={p!r} is outside [0, 1]")
    if not (wf > 0.0) or math.isinf(wf):
        raise DataError(f"{prefix}weight w={w!r} must be a finite number > 0")


def _fmt_num(x: float) -> str:
    return repr(float(x))


def _format_meta(p, w, source, support, positives, cid, enabled) -> str:
    parts = [_fmt_num(p)]
    if w != 1.0:
        parts.append(f"w={_fmt_num(w)}")
    if source != "data":
        parts.append(f"src={source}")
    if support is not None and support >= 0:
        parts.append(f"n={int(support)}")
    if positives is not None and positives >= 0:
        parts.append(f"pos={int(positives)}")
    if cid:
        parts.append(f"id={_quote(cid)}")
    if not enabled:
        parts.append("off")
    return "[" + ", ".join(parts) + "]"


# --------------------------------------------------------------------------- the KB


@dataclass
class KB:
    """A knowledge base: columnar learned clauses plus a list of other clauses (`extra`).

    `features` and `domains` describe the data the KB was learned from: the values a query may
    fix per feature. `positive` is the class value that POS stands for. `kind` records how the
    KB was built ("direct", "tree", "tree-all", "forest" or "general") and chooses the default
    query semantics.
    """

    features: tuple[str, ...] = ()
    domains: dict[str, tuple[str, ...]] = field(default_factory=dict)
    codes: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int32))
    head: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    p: np.ndarray = field(default_factory=lambda: np.zeros(0))
    w: np.ndarray = field(default_factory=lambda: np.zeros(0))
    support: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    positives: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    source: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    extra: list[WeightedClause] = field(default_factory=list)
    positive: str | None = None
    kind: str = "general"
    max_len: int | None = None
    _index_cache: Any = field(default=None, repr=False, compare=False)
    _fpos_cache: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.features = tuple(str(f) for f in self.features)
        self.domains = {str(f): tuple(str(v) for v in self.domains.get(f, ())) for f in self.features}
        m = len(self.p)
        if self.codes.shape != (m, len(self.features)):
            if m == 0:
                self.codes = np.zeros((0, len(self.features)), dtype=np.int32)
            else:
                raise DataError(f"codes has shape {self.codes.shape}, expected {(m, len(self.features))}")
        self.codes = np.ascontiguousarray(self.codes)
        if not np.issubdtype(self.codes.dtype, np.integer):
            self.codes = self.codes.astype(np.int32)
        for name in ("head", "p", "w", "support", "positives", "source"):
            arr = getattr(self, name)
            if len(arr) != m:
                raise DataError(f"KB column {name} has {len(arr)} entries, expected {m}")
        self.head = np.asarray(self.head, dtype=np.int8)
        self.p = np.asarray(self.p, dtype=np.float64)
        self.w = np.asarray(self.w, dtype=np.float64)
        self.support = np.asarray(self.support, dtype=np.int64)
        self.positives = np.asarray(self.positives, dtype=np.int64)
        self.source = np.asarray(self.source, dtype=np.int8)
        if m and (np.any((self.p < 0) | (self.p > 1)) or np.any(np.isnan(self.p))):
            bad = int(np.flatnonzero((self.p < 0) | (self.p > 1) | np.isnan(self.p))[0])
            raise DataError(f"clause {bad}: probability {self.p[bad]!r} is outside [0, 1]")
        if m and np.any(~(self.w > 0) | np.isinf(self.w)):
            bad = int(np.flatnonzero(~(self.w > 0) | np.isinf(self.w))[0])
            raise DataError(f"clause {bad}: weight {self.w[bad]!r} must be a finite number > 0")

    # ------------------------------------------------------------------ sizes and access

    @property
    def n_learned(self) -> int:
        return len(self.p)

    def __len__(self) -> int:
        return self.n_learned + len(self.extra)

    @property
    def lengths(self) -> np.ndarray:
        """Number of feature literals of each learned clause."""
        return (self.codes >= 0).sum(axis=1)

    def feature_positions(self) -> dict[str, int]:
        """Feature name → column (cached while `features` stays the same tuple)."""
        cache = self._fpos_cache
        if cache is None or cache[0] is not self.features:
            cache = (self.features, {f: i for i, f in enumerate(self.features)})
            self._fpos_cache = cache
        return cache[1]

    def feature_index(self, name: str) -> int:
        try:
            return self.feature_positions()[name]
        except KeyError:
            raise DataError(
                f"unknown feature {name!r}; the KB has features {list(self.features)}"
            ) from None

    def clause(self, i: int) -> WeightedClause:
        """Clause i as an object (learned clauses first, then `extra`)."""
        if i < 0:
            i += len(self)
        if i < self.n_learned:
            lits = [Literal(POS, None, self.head[i] < 0)]
            for j in np.flatnonzero(self.codes[i] >= 0):
                f = self.features[j]
                lits.append(Literal(f, self.domains[f][self.codes[i, j]], True))
            sup = int(self.support[i])
            pos = int(self.positives[i])
            return WeightedClause(
                tuple(lits), float(self.p[i]), float(self.w[i]), SOURCES[self.source[i]],
                sup if sup >= 0 else None, pos if pos >= 0 else None,
            )
        return self.extra[i - self.n_learned]

    def __iter__(self) -> Iterator[WeightedClause]:
        for i in range(len(self)):
            yield self.clause(i)

    def __eq__(self, other: object) -> bool:  # dataclass eq would compare arrays ambiguously
        if not isinstance(other, KB):
            return NotImplemented
        return self.to_text() == other.to_text() and self.features == other.features

    # ------------------------------------------------------------------ building

    def copy(self) -> KB:
        return KB(
            self.features, dict(self.domains), self.codes.copy(), self.head.copy(), self.p.copy(),
            self.w.copy(), self.support.copy(), self.positives.copy(), self.source.copy(),
            list(self.extra), self.positive, self.kind, self.max_len,
        )

    def _code_of(self, feature: str, value: str, grow: bool) -> tuple[int, int]:
        if feature not in self.domains:
            if not grow:
                raise DataError(f"unknown feature {feature!r}")
            self.features = self.features + (feature,)
            self.domains[feature] = ()
            self.codes = np.hstack([self.codes, np.full((self.n_learned, 1), -1, np.int32)])
            self._index_cache = None
        dom = self.domains[feature]
        if value not in dom:
            if not grow:
                raise DataError(f"feature {feature!r} has no value {value!r}")
            self.domains[feature] = dom + (value,)
            dom = self.domains[feature]
            self._index_cache = None  # key widths depend on the domain sizes
        return self.features.index(feature), dom.index(value)

    def add(self, clauses: WeightedClause | Iterable[WeightedClause]) -> KB:
        """Add clauses in place (and return self). Rules stay objects in `extra` (they keep
        their id and can be disabled); other learned-shape clauses join the columnar block."""
        if isinstance(clauses, WeightedClause):
            clauses = [clauses]
        rows, meta = [], []
        for c in clauses:
            if not isinstance(c, WeightedClause):
                raise DataError(f"kb.add expects WeightedClause objects, got {type(c).__name__}")
            for lit in c.literals:
                if lit.is_feature:
                    self._code_of(lit.atom, lit.value, grow=True)
            if c.is_learned_form and c.source != "rule" and c.enabled and c.id is None:
                rows.append(c)
            else:
                if c.source == "rule" and c.id is None:
                    c = replace(c, id=self._next_rule_id())
                self.extra.append(c)
        if rows:
            codes = np.full((len(rows), len(self.features)), -1, np.int32)
            for r, c in enumerate(rows):
                for lit in c.literals:
                    if lit.is_feature:
                        j, v = self._code_of(lit.atom, lit.value, grow=False)
                        codes[r, j] = v
                meta.append(c)
            self.codes = np.vstack([self.codes, codes])
            self.head = np.concatenate([self.head, [c.head for c in meta]]).astype(np.int8)
            self.p = np.concatenate([self.p, [c.p for c in meta]])
            self.w = np.concatenate([self.w, [c.w for c in meta]])
            self.support = np.concatenate(
                [self.support, [-1 if c.support is None else c.support for c in meta]]
            ).astype(np.int64)
            self.positives = np.concatenate(
                [self.positives, [-1 if c.positives is None else c.positives for c in meta]]
            ).astype(np.int64)
            self.source = np.concatenate(
                [self.source, [SOURCES.index(c.source) for c in meta]]
            ).astype(np.int8)
            self._index_cache = None  # only the learned block is indexed
        return self

    def _next_rule_id(self) -> str:
        """r1, r2, … skipping numbers taken by a rule or by the parts r{n}.1 of an OR rule."""
        used = {str(c.id).split(".")[0] for c in self.extra if c.id}
        n = 1
        while f"r{n}" in used:
            n += 1
        return f"r{n}"

    # ------------------------------------------------------------------ rules (extra clauses)

    @property
    def rules(self) -> list[WeightedClause]:
        return [c for c in self.extra if c.source == "rule"]

    def _rule_position(self, rule_id: str) -> int:
        for i, c in enumerate(self.extra):
            if c.id == rule_id:
                return i
        raise DataError(f"no rule with id {rule_id!r}; ids are {[c.id for c in self.rules]}")

    def remove_rule(self, rule_id: str) -> KB:
        del self.extra[self._rule_position(rule_id)]
        return self

    def set_rule(self, rule_id: str, **changes: Any) -> KB:
        """Edit a rule in place: `p`, `w`, `enabled` or `literals`."""
        i = self._rule_position(rule_id)
        self.extra[i] = replace(self.extra[i], **changes)
        for lit in self.extra[i].literals:
            if lit.is_feature:
                self._code_of(lit.atom, lit.value, grow=True)
        return self

    def without_rules(self) -> KB:
        kb = self.copy()
        kb.extra = [c for c in kb.extra if c.source != "rule"]
        return kb

    # ------------------------------------------------------------------ lookup index

    def index(self) -> ClauseIndex:
        """The (cached) sorted integer-key index of the learned clauses' bodies."""
        if self._index_cache is None or not self._index_cache.current(self):
            self._index_cache = ClauseIndex.build(self)
        return self._index_cache

    # ------------------------------------------------------------------ text

    def to_text(self) -> str:
        """One clause per line, `[p, w=…] POS | ~a=v | …`; `KB.from_text` reads it back."""
        head = [f"# plx KB kind={self.kind}"]
        if self.positive is not None:
            head.append(f"# positive={json.dumps(self.positive)}")
        if self.max_len is not None:
            head.append(f"# max_len={self.max_len}")
        for f in self.features:
            head.append(f"# domain {_quote(f)}: " + " ".join(_quote(v) for v in self.domains[f]))
        body = _learned_text(self)
        body.extend(c.to_text() for c in self.extra)
        return "\n".join(head + body) + "\n"

    @classmethod
    def from_text(cls, text: str) -> KB:
        features: list[str] = []
        domains: dict[str, tuple[str, ...]] = {}
        kind, positive, max_len = "general", None, None
        clauses: list[WeightedClause] = []
        # only "\n" ends a line: str.splitlines would also split inside quoted names at
        # characters such as U+0085 or U+2028
        for lineno, raw in enumerate(text.split("\n"), start=1):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("#"):
                m = re.match(r"#\s*plx KB kind=(\S+)", line)
                if m:
                    kind = m.group(1)
                m = re.match(r"#\s*positive=(.*)$", line)
                if m:
                    positive = _parse_header_json(m.group(1), lineno)
                m = re.match(r"#\s*max_len=(\d+)", line)
                if m:
                    max_len = int(m.group(1))
                m = re.match(r"#\s*domain\s+(.*)$", line)
                if m:
                    toks = _tokenize(m.group(1), lineno, offset=raw.index(m.group(1)))
                    if len(toks) < 2 or toks[1][0] != ":":
                        if not (len(toks) >= 1 and toks[0][0].endswith(":")):
                            raise ClauseSyntaxError("domain line needs 'name: values'", lineno)
                    name, vals = _domain_tokens(toks, lineno)
                    features.append(name)
                    domains[name] = vals
                continue
            clauses.append(parse_clause(line, lineno))
        kb = cls(tuple(features), domains, kind=kind, positive=positive, max_len=max_len)
        kb.add(clauses)
        return kb

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> str:
        """JSON with one clause per line (so import errors can name the line)."""
        header = {
            "format": JSON_FORMAT,
            "version": JSON_VERSION,
            "kind": self.kind,
            "positive": self.positive,
            "max_len": self.max_len,
            "features": list(self.features),
            "domains": {f: list(self.domains[f]) for f in self.features},
        }
        lines = [json.dumps(header, ensure_ascii=False)[:-1] + ', "clauses": [']
        items = [json.dumps(_clause_json(c), ensure_ascii=False) for c in self]
        lines.append(",\n".join(items))
        lines.append("]}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_json(cls, text: str | bytes) -> KB:
        return _kb_from_json(text)

    # ------------------------------------------------------------------ browsing

    def to_frame(self, start: int = 0, stop: int | None = None) -> pd.DataFrame:
        """Clauses start..stop as a table: text, head, length, p, w, source, support, …"""
        m = len(self)
        stop = m if stop is None else min(stop, m)
        lo, hi = min(start, self.n_learned), min(stop, self.n_learned)
        sl = slice(lo, hi)
        codes = self.codes[sl]
        text = np.asarray(_learned_text(self, sl), dtype=object)
        feats = _feature_lists(self, codes)
        frame = pd.DataFrame(
            {
                "id": np.arange(lo, hi).astype(str).astype(object),
                "clause": text,
                "head": np.where(self.head[sl] > 0, "POS", "¬POS"),
                "length": (codes >= 0).sum(axis=1),
                "features": feats,
                "p": self.p[sl],
                "w": self.w[sl],
                "source": np.asarray(SOURCES, dtype=object)[self.source[sl]],
                "support": pd.array(np.where(self.support[sl] >= 0, self.support[sl], -1)).astype("Int64"),
                "positives": pd.array(self.positives[sl]).astype("Int64"),
                "enabled": np.ones(hi - lo, dtype=bool),
            }
        )
        frame.loc[frame["support"] < 0, "support"] = pd.NA
        frame.loc[frame["positives"] < 0, "positives"] = pd.NA
        extra_lo, extra_hi = max(start - self.n_learned, 0), max(stop - self.n_learned, 0)
        rows = []
        for c in self.extra[extra_lo:extra_hi]:
            rows.append(
                {
                    "id": c.id or "",
                    "clause": c.to_text(),
                    "head": {1: "POS", -1: "¬POS", 0: "-"}[c.head],
                    "length": sum(lit.is_feature for lit in c.literals),
                    "features": ", ".join(sorted({lit.atom for lit in c.literals if lit.is_feature})),
                    "p": c.p,
                    "w": c.w,
                    "source": c.source,
                    "support": c.support,
                    "positives": c.positives,
                    "enabled": c.enabled,
                }
            )
        if rows:
            extra = pd.DataFrame(rows).astype({"support": "Int64", "positives": "Int64"})
            frame = pd.concat([frame, extra], ignore_index=True) if len(frame) else extra
        return frame


# --------------------------------------------------------------------------- index


@dataclass(frozen=True)
class ClauseIndex:
    """Learned-clause bodies as sorted integer keys (bit-packed codes) for `searchsorted`.

    Key of a body = Σ_f (code_f + 1) << shift_f. `order` maps sorted position → clause row.
    When the packed key would not fit in 62 bits, `keys` is None and lookups go through a dict
    of row bytes (slower; only for KBs over very many features or values).
    `target` is each clause's median target (p for POS heads, 1 − p for ¬POS) in key order, and
    `w_const` / `head_const` the weight / head when every clause has the same one: a lookup then
    gathers one column instead of three (random gathers into a large KB dominate a query).
    """

    n: int
    shifts: np.ndarray | None
    keys: np.ndarray | None
    order: np.ndarray
    table: dict[bytes, np.ndarray] | None
    unique: bool = False  # every key once (Direct KBs): one searchsorted per lookup
    target: np.ndarray | None = None
    w_const: float | None = None
    head_const: int | None = None
    source: tuple = ()  # the (p, w, head) arrays indexed; a KB that replaces one rebuilds

    @staticmethod
    def bits_for(kb: KB) -> np.ndarray:
        sizes = np.array([len(kb.domains[f]) + 1 for f in kb.features], dtype=np.int64)
        return np.maximum(1, np.ceil(np.log2(np.maximum(sizes, 2))).astype(np.int64))

    @classmethod
    def build(cls, kb: KB) -> ClauseIndex:
        bits = cls.bits_for(kb)
        src = (kb.p, kb.w, kb.head)
        w_const = float(kb.w[0]) if len(kb.w) and np.all(kb.w == kb.w[0]) else None
        head_const = int(kb.head[0]) if len(kb.head) and np.all(kb.head == kb.head[0]) else None
        if bits.sum() <= 62:
            shifts = np.concatenate([[0], np.cumsum(bits)[:-1]]).astype(np.int64)
            keys = pack_keys(kb.codes, shifts)
            order = np.argsort(keys, kind="stable")
            skeys = keys[order]
            unique = bool(len(skeys) < 2 or np.all(skeys[1:] != skeys[:-1]))
            target = np.where(kb.head[order] > 0, kb.p[order], 1.0 - kb.p[order])
            return cls(kb.n_learned, shifts, skeys, order, None, unique, target, w_const,
                       head_const, src)
        # Too many features/values to bit-pack: a dict from row bytes to clause rows.
        table: dict[bytes, list[int]] = {}
        for i, row in enumerate(kb.codes.astype(np.int32)):  # same dtype as lookups
            table.setdefault(row.tobytes(), []).append(i)
        arrays = {k: np.asarray(v, dtype=np.int64) for k, v in table.items()}
        return cls(kb.n_learned, None, None, np.arange(kb.n_learned), arrays, source=src)

    def current(self, kb: KB) -> bool:
        """Whether this index still describes `kb`'s learned block."""
        s = self.source
        return self.n == kb.n_learned and bool(s) and s[0] is kb.p and s[1] is kb.w and s[2] is kb.head

    def lookup(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For body code rows (q × F), return (query row, clause row) pairs of exact matches."""
        if self.keys is not None:
            return self.find(pack_keys(codes, self.shifts))
        codes = np.ascontiguousarray(codes, dtype=np.int32)
        empty = np.zeros(0, dtype=np.int64)
        hits = [self.table.get(row.tobytes(), empty) for row in codes]
        counts = np.array([len(h) for h in hits], dtype=np.int64)
        rows = np.repeat(np.arange(len(codes)), counts)
        return rows, (np.concatenate(hits) if len(hits) else empty)

    def find(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(position in q, clause row) pairs for packed keys q (needs `keys`)."""
        hit, pos = self.find_sorted(q)
        return hit, self.order[pos]

    def find_sorted(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(position in q, position in key order) pairs for packed keys q (needs `keys`)."""
        if self.unique:
            if not len(self.keys):
                return np.zeros(0, np.int64), np.zeros(0, np.int64)
            pos = np.searchsorted(self.keys, q)
            np.minimum(pos, len(self.keys) - 1, out=pos)
            hit = np.flatnonzero(self.keys[pos] == q)
            return hit, pos[hit]
        lo = np.searchsorted(self.keys, q, "left")
        hi = np.searchsorted(self.keys, q, "right")
        counts = hi - lo
        rows = np.repeat(np.arange(len(q)), counts)
        starts = np.repeat(lo - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
        return rows, starts + np.arange(counts.sum())


def pack_keys(codes: np.ndarray, shifts: np.ndarray) -> np.ndarray:
    """Bit-pack code rows (-1 = absent) into int64 keys."""
    return ((codes.astype(np.int64) + 1) << shifts).sum(axis=1)


# --------------------------------------------------------------------------- text helpers


def _learned_text(kb: KB, sl: slice = slice(None)) -> list[str]:
    """Clause text of learned clauses in `sl`, built column by column (vectorised)."""
    codes = kb.codes[sl]
    m = len(codes)
    if m == 0:
        return []
    parts = pd.Series(np.where(kb.head[sl] > 0, "POS", "~POS"), dtype=object)
    for j, f in enumerate(kb.features):
        col = codes[:, j]
        present = col >= 0
        if not present.any():
            continue
        lit = np.asarray([f"~{_quote(f)}={_quote(v)}" for v in kb.domains[f]] + [""], dtype=object)
        piece = lit[np.where(present, col, len(kb.domains[f]))]
        parts = parts + np.where(present, " | ", "") + piece
    meta = _meta_column(kb, sl)
    return list(meta + " " + parts)


def _meta_column(kb: KB, sl: slice) -> pd.Series:
    p = pd.Series(kb.p[sl]).map(_fmt_num)
    out = "[" + p
    w = kb.w[sl]
    if np.any(w != 1.0):
        out = out + np.where(w != 1.0, ", w=" + pd.Series(w).map(_fmt_num), "")
    src = kb.source[sl]
    if np.any(src != 0):
        out = out + np.where(src != 0, ", src=" + pd.Series(np.asarray(SOURCES)[src]), "")
    sup = kb.support[sl]
    if np.any(sup >= 0):
        out = out + np.where(sup >= 0, ", n=" + pd.Series(sup).astype(str), "")
    pos = kb.positives[sl]
    if np.any(pos >= 0):
        out = out + np.where(pos >= 0, ", pos=" + pd.Series(pos).astype(str), "")
    return out + "]"


def _feature_lists(kb: KB, codes: np.ndarray) -> np.ndarray:
    out = pd.Series([""] * len(codes), dtype=object)
    for j, f in enumerate(kb.features):
        present = codes[:, j] >= 0
        if present.any():
            sep = np.where(out == "", "", ", ")
            out = out + np.where(present, sep + f, "")
    return out.to_numpy()


_TOKEN = re.compile(
    r'\s*(?:(?P<q>"(?:[^"\\]|\\.)*")|(?P<op>[|∨~¬=\[\],:])|(?P<w>[^\s|∨~¬=\[\],:"]+))'
)


def _tokenize(text: str, lineno: int | None, offset: int = 0) -> list[tuple[str, str, int]]:
    """Tokens as (kind, text, column): kind is 'q' (quoted), 'w' (word) or the operator."""
    toks, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ClauseSyntaxError(f"cannot read {text[pos:pos + 20]!r}", lineno, offset + pos + 1)
        col = offset + m.start(m.lastgroup) + 1
        if m.lastgroup == "q":
            try:
                toks.append(("q", json.loads(m.group("q")), col))
            except json.JSONDecodeError as exc:
                raise ClauseSyntaxError(f"bad quoted string {m.group('q')!r}", lineno, col) from exc
        elif m.lastgroup == "op":
            toks.append((m.group("op"), m.group("op"), col))
        else:
            toks.append(("w", m.group("w"), col))
        pos = m.end()
    return toks


def _domain_tokens(toks, lineno) -> tuple[str, tuple[str, ...]]:
    if len(toks) < 2 or toks[0][0] not in ("w", "q") or toks[1][0] != ":":
        raise ClauseSyntaxError("domain line must read '# domain name: v1 v2 …'", lineno)
    vals = []
    for kind, text, col in toks[2:]:
        if kind not in ("w", "q"):
            raise ClauseSyntaxError(f"unexpected {text!r} in domain line", lineno, col)
        vals.append(text)
    return toks[0][1], tuple(vals)


def _parse_header_json(text: str, lineno: int) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ClauseSyntaxError(f"bad header value {text!r}", lineno) from exc


def parse_literals(toks: Sequence[tuple[str, str, int]], lineno: int | None,
                   separators: tuple[str, ...] = ("|", "∨")) -> tuple[Literal, ...]:
    """Literals separated by `|`/`∨`: `POS`, `~POS`, `a=v`, `~a=v`, `¬a=v`, plain atoms."""
    lits: list[Literal] = []
    i, n = 0, len(toks)
    while True:
        negated = False
        while i < n and toks[i][0] in ("~", "¬"):
            negated = not negated
            i += 1
        if i >= n:
            col = toks[-1][2] if toks else None
            raise ClauseSyntaxError("expected a literal at the end of the clause", lineno, col)
        kind, text, col = toks[i]
        if kind not in ("w", "q"):
            raise ClauseSyntaxError(f"expected a literal, found {text!r}", lineno, col)
        i += 1
        if i < n and toks[i][0] == "=":
            if i + 1 >= n or toks[i + 1][0] not in ("w", "q"):
                raise ClauseSyntaxError(f"literal {text}= needs a value", lineno, toks[i][2])
            lits.append(Literal(text, toks[i + 1][1], negated))
            i += 2
        else:
            if kind == "w" and text.upper() == POS:
                text = POS
            lits.append(Literal(text, None, negated))
        if i >= n:
            break
        if toks[i][0] not in separators:
            raise ClauseSyntaxError(
                f"expected '|' between literals, found {toks[i][1]!r}", lineno, toks[i][2]
            )
        i += 1
    return tuple(lits)


_META_KEYS = {"w": "w", "src": "source", "source": "source", "n": "support", "support": "support",
              "pos": "positives", "positives": "positives", "id": "id", "p": "p"}


def parse_clause(line: str, lineno: int | None = None) -> WeightedClause:
    """Parse `[p, w=…] lit | lit | …` (also `¬` and `∨`)."""
    toks = _tokenize(line, lineno)
    if not toks or toks[0][0] != "[":
        raise ClauseSyntaxError("a clause starts with its probability in brackets, e.g. [0.9]",
                                lineno, toks[0][2] if toks else 1)
    try:
        close = next(i for i, t in enumerate(toks) if t[0] == "]")
    except StopIteration:
        raise ClauseSyntaxError("missing ']' after the probability", lineno, toks[0][2]) from None
    meta = _parse_meta(toks[1:close], lineno, toks[0][2])
    lits = parse_literals(toks[close + 1:], lineno)
    try:
        return WeightedClause(lits, **meta)
    except DataError as exc:
        raise ClauseSyntaxError(str(exc), lineno, toks[0][2]) from None


def _parse_meta(toks, lineno, col0) -> dict[str, Any]:
    groups: list[list] = [[]]
    for t in toks:
        if t[0] == ",":
            groups.append([])
        else:
            groups[-1].append(t)
    meta: dict[str, Any] = {}
    for k, g in enumerate(groups):
        if not g:
            raise ClauseSyntaxError("empty field in brackets", lineno, col0)
        if k == 0 and len(g) == 1:
            meta["p"] = _number(g[0], lineno, "probability")
            continue
        if len(g) == 1 and g[0][1] == "off":
            meta["enabled"] = False
            continue
        if len(g) != 3 or g[1][0] != "=" or g[0][1] not in _META_KEYS:
            raise ClauseSyntaxError(
                f"unknown field {' '.join(t[1] for t in g)!r} (use p, w=, src=, n=, pos=, id=, off)",
                lineno, g[0][2])
        key = _META_KEYS[g[0][1]]
        if key in ("p", "w"):
            meta[key] = _number(g[2], lineno, key)
        elif key in ("support", "positives"):
            meta[key] = int(_number(g[2], lineno, key))
        else:
            meta[key] = g[2][1]
    if "p" not in meta:
        raise ClauseSyntaxError("the clause has no probability", lineno, col0)
    return meta


def _number(tok, lineno, what) -> float:
    try:
        return float(tok[1])
    except ValueError:
        raise ClauseSyntaxError(f"{what} {tok[1]!r} is not a number", lineno, tok[2]) from None


# --------------------------------------------------------------------------- JSON helpers


def _clause_json(c: WeightedClause) -> dict[str, Any]:
    out: dict[str, Any] = {"literals": [str(lit) for lit in c.literals], "p": c.p}
    if c.w != 1.0:
        out["w"] = c.w
    if c.source != "data":
        out["source"] = c.source
    if c.support is not None:
        out["support"] = c.support
    if c.positives is not None:
        out["positives"] = c.positives
    if c.id is not None:
        out["id"] = c.id
    if not c.enabled:
        out["enabled"] = False
    return out


def _kb_from_json(text: str | bytes) -> KB:
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ClauseSyntaxError(f"KB JSON is not UTF-8 (byte {exc.start})") from None
    dec = json.JSONDecoder()
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ClauseSyntaxError(f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    if not isinstance(doc, dict):
        raise ClauseSyntaxError("KB JSON must be an object with 'format' and 'clauses'", 1)
    if doc.get("format") != JSON_FORMAT:
        raise ClauseSyntaxError(f"field 'format' must be {JSON_FORMAT!r}, got {doc.get('format')!r}", 1)
    if doc.get("version") != JSON_VERSION:
        raise ClauseSyntaxError(f"field 'version' must be {JSON_VERSION}, got {doc.get('version')!r}", 1)
    features = doc.get("features", [])
    domains = doc.get("domains", {})
    if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
        raise ClauseSyntaxError("field 'features' must be a list of strings", 1)
    if not isinstance(domains, dict) or not all(
        isinstance(v, list) and all(isinstance(x, str) for x in v) for v in domains.values()
    ):
        raise ClauseSyntaxError("field 'domains' must map feature names to lists of strings", 1)
    clauses = doc.get("clauses")
    if not isinstance(clauses, list):
        raise ClauseSyntaxError("field 'clauses' must be a list", 1)
    lines = _element_lines(text, dec)
    out = []
    for i, item in enumerate(clauses):
        line = lines[i] if i < len(lines) else None
        out.append(_clause_from_json(item, i, line))
    kind = doc.get("kind", "general")
    if not isinstance(kind, str):
        raise ClauseSyntaxError("field 'kind' must be a string", 1)
    max_len = doc.get("max_len")
    if max_len is not None and (not isinstance(max_len, int) or max_len < 1):
        raise ClauseSyntaxError("field 'max_len' must be a positive integer or null", 1)
    kb = KB(tuple(features), {f: tuple(domains.get(f, ())) for f in features},
            kind=kind, positive=doc.get("positive"), max_len=max_len)
    kb.add(out)
    return kb


def _element_lines(text: str, dec: json.JSONDecoder) -> list[int]:
    """Line number of each element of the top-level 'clauses' array (best effort)."""
    m = re.search(r'"clauses"\s*:\s*\[', text)
    if not m:
        return []
    pos, lines = m.end(), []
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return lines
        lines.append(text.count("\n", 0, pos) + 1)
        try:
            _, pos = dec.raw_decode(text, pos)
        except json.JSONDecodeError:
            return lines


def _clause_from_json(item: Any, i: int, line: int | None) -> WeightedClause:
    where = f"clauses[{i}]"

    def fail(msg: str) -> ClauseSyntaxError:
        return ClauseSyntaxError(f"{where}: {msg}", line)

    if not isinstance(item, Mapping):
        raise fail("each clause must be an object")
    unknown = set(item) - {"literals", "p", "w", "source", "support", "positives", "id", "enabled"}
    if unknown:
        raise fail(f"unknown field(s) {sorted(unknown)}")
    lits_raw = item.get("literals")
    if not isinstance(lits_raw, list) or not lits_raw or not all(isinstance(x, str) for x in lits_raw):
        raise fail("field 'literals' must be a non-empty list of strings like 'POS' or '~a=v'")
    try:
        lits: list[Literal] = []
        for s in lits_raw:
            lits.extend(parse_literals(_tokenize(s, line), line))
    except ClauseSyntaxError as exc:
        raise fail(f"field 'literals': {exc}") from None
    for key, typ in (("p", (int, float)), ("w", (int, float))):
        if key in item and (not isinstance(item[key], typ) or isinstance(item[key], bool)):
            raise fail(f"field '{key}' must be a number, got {item[key]!r}")
    if "p" not in item:
        raise fail("field 'p' is missing")
    for key in ("support", "positives"):
        v = item.get(key)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
            raise fail(f"field '{key}' must be a non-negative integer, got {v!r}")
    if "enabled" in item and not isinstance(item["enabled"], bool):
        raise fail("field 'enabled' must be true or false")
    if "id" in item and item["id"] is not None and not isinstance(item["id"], str):
        raise fail("field 'id' must be a string")
    try:
        return WeightedClause(
            tuple(lits), item["p"], item.get("w", 1.0), item.get("source", "data"),
            item.get("support"), item.get("positives"), item.get("id"), item.get("enabled", True),
        )
    except DataError as exc:
        raise fail(str(exc)) from None
