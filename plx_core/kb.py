"""Knowledge-base values: literals, weighted clauses and the `KB` container.

Learned clauses all have the shape `±POS ∨ ¬a1=v1 ∨ … ∨ ¬ak=vk`; the KB keeps them columnar
(an integer code matrix, one column per feature, -1 where a feature is absent) so that Direct
KBs with millions of clauses stay compact and can be looked up with numpy. Any other clause
(expert rules, plain propositional atoms, positive feature literals) is kept as a
`WeightedClause` object in `kb.extra`.
"""


from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from .checks import checked_int
from .clause import (
    MAX_WEIGHT,
    MIN_WEIGHT,
    POS,
    SOURCES,
    Literal,
    WeightedClause,
    _quote,
    weight_problem,
)
from .encoding import Twins
from .errors import ClauseSyntaxError, DataError
from .index import ClauseIndex
from .jsonformat import JSON_FORMAT, JSON_VERSION, _clause_json, _kb_from_json, learned_json
from .plurals import noun
from .textformat import (
    _domain_tokens,
    _feature_lists,
    _learned_text,
    _parse_header_json,
    _tokenize,
    parse_clause,
)

# --------------------------------------------------------------------------- the KB

KIND_RE = re.compile(r"[A-Za-z0-9_+\-]{1,40}")


def next_rule_id(ids: Iterable[str | None]) -> str:
    """The first of r1, r2, … not taken by these ids (nor by the parts r{n}.1 of an OR rule)."""
    used = {str(i).split(".")[0] for i in ids if i}
    n = 1
    while f"r{n}" in used:
        n += 1
    return f"r{n}"


def _rows_of_clauses(kb: KB, ok: np.ndarray) -> float:
    """Training rows read from learned clauses (`KB.rule_unit` when `n_rows` is unknown)."""
    single = ok & (kb.lengths == 1)
    if single.any():
        feat = np.argmax(kb.codes[single] >= 0, axis=1)
        return float(np.bincount(feat, weights=kb.support[single]).max())
    return float(kb.support[ok].sum())


def _as_rule(c: WeightedClause) -> WeightedClause:
    return replace(c, source="rule")


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
    n_rows: int | None = None  # training rows the learned clauses were counted on (None: unknown)
    _index_cache: Any = field(default=None, repr=False, compare=False)
    _fpos_cache: Any = field(default=None, repr=False, compare=False)
    _lengths_cache: Any = field(default=None, repr=False, compare=False)
    _twins_cache: Any = field(default=None, repr=False, compare=False)
    _unit_cache: Any = field(default=None, repr=False, compare=False)
    # (feature, value) pairs only a rule put into `domains` (a value the data never had)
    _rule_only: frozenset = field(default=frozenset(), repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or not KIND_RE.fullmatch(self.kind):
            raise DataError(f"KB kind {self.kind!r} must be a short name such as 'direct' or "
                            "'tree' (letters, digits, '+', '-', '_')")
        if self.positive is not None and not isinstance(self.positive, str):
            raise DataError(f"KB positive class {self.positive!r} must be a string")
        checked_int("KB max_len", self.max_len, 1, none_ok=True)
        self.features = tuple(str(f) for f in self.features)
        if len(set(self.features)) != len(self.features):
            dup = next(f for i, f in enumerate(self.features) if f in self.features[:i])
            raise DataError(f"feature {dup!r} is listed twice in the KB's features")
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
        # checked by reductions (a NaN makes min and max NaN): no temporaries of the KB's size
        if m and not (self.p.min() >= 0 and self.p.max() <= 1):
            bad = int(np.flatnonzero((self.p < 0) | (self.p > 1) | np.isnan(self.p))[0])
            raise DataError(f"clause {bad}: probability {float(self.p[bad])!r} is outside [0, 1]")
        if m and not (self.w.min() >= MIN_WEIGHT and self.w.max() <= MAX_WEIGHT):
            bad_w = ~((self.w >= MIN_WEIGHT) & (self.w <= MAX_WEIGHT))
            bad = int(np.flatnonzero(bad_w)[0])
            raise DataError(f"clause {bad}: {weight_problem(float(self.w[bad]))}")
        if m and not (self.lengths > 0).all():  # (kept: the lengths are asked for again)
            self._move_bodiless()

    def _move_bodiless(self) -> None:
        """Move learned clauses without a feature literal (`[p] POS`: a tree that is one leaf, a
        hand-written prior) from the columnar block to `extra`, where every query sees them: the
        block's lookups enumerate the non-empty subsets of a query's features only."""
        empty = ~(self.codes >= 0).any(axis=1)
        moved = [self.clause(int(i)) for i in np.flatnonzero(empty)]
        keep = ~empty
        self.codes = np.ascontiguousarray(self.codes[keep])
        for name in ("head", "p", "w", "support", "positives", "source"):
            setattr(self, name, getattr(self, name)[keep])
        self.extra = moved + list(self.extra)

    # ------------------------------------------------------------------ sizes and access

    @property
    def n_learned(self) -> int:
        return len(self.p)

    def __len__(self) -> int:
        return self.n_learned + len(self.extra)

    @property
    def lengths(self) -> np.ndarray:
        """Number of feature literals of each learned clause (read-only; kept while `codes` is
        the same array, which is never written in place)."""
        cache = self._lengths_cache
        if cache is None or cache[0] is not self.codes:
            out = (self.codes >= 0).sum(axis=1)
            out.setflags(write=False)
            cache = self._lengths_cache = (self.codes, out)
        return cache[1]

    def feature_positions(self) -> dict[str, int]:
        """Feature name → column (cached while `features` stays the same tuple)."""
        cache = self._fpos_cache
        if cache is None or cache[0] is not self.features:
            cache = (self.features, {f: i for i, f in enumerate(self.features)})
            self._fpos_cache = cache
        return cache[1]

    def twins(self, name: str) -> Twins:
        """The `encoding.Twins` of a feature's domain (built once, kept while the domain stays
        the same tuple): where a value the KB lacks as written is read as one it knows."""
        dom = self.domains[name]
        cache = self._twins_cache
        hit = cache.get(name) if cache is not None else None
        if hit is None or hit[0] is not dom:
            hit = (dom, Twins.of(dom))
            # a new dict: KBs made by `_sharing` share the old one, and may hold other domains
            self._twins_cache = {**(cache or {}), name: hit}
        return hit[1]

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
            n_rows=self.n_rows, _rule_only=self._rule_only,
        )

    def _grow(self, literals: Iterable[Literal]) -> None:
        """Add the features and values these literals name that the KB does not know yet
        (one pass, one widening of `codes`: linear in the number of literals)."""
        new_feats: dict[str, None] = {}
        new_vals: dict[str, dict[str, None]] = {}
        domains = self.domains
        known: dict[str, set[str]] = {}
        for lit in literals:
            if not lit.is_feature:
                continue
            f, v = lit.atom, lit.value
            if f not in domains and f not in new_feats:
                new_feats[f] = None
            vals = known.get(f)
            if vals is None:
                vals = known[f] = set(domains.get(f, ()))
            if v not in vals:
                vals.add(v)
                new_vals.setdefault(f, {})[v] = None
        if not new_feats and not new_vals:
            return
        if new_feats:
            self.features = self.features + tuple(new_feats)
            self.codes = np.hstack([self.codes, np.full((self.n_learned, len(new_feats)), -1, np.int32)])
        for f, vals in new_vals.items():
            self.domains[f] = tuple(domains.get(f, ())) + tuple(vals)
        self._index_cache = None  # key widths depend on the features and domain sizes

    def _grow_by_rules(self, literals: Iterable[Literal]) -> None:
        """`_grow` for rules' literals, remembering the values only a rule named (the data
        never had them: `known_domains` leaves them out, `rulecheck` flags such rules)."""
        lits = [lit for lit in literals if lit.is_feature]
        new = {(lit.atom, lit.value) for lit in lits
               if lit.value not in self.domains.get(lit.atom, ())}
        self._grow(lits)
        if new:
            self._rule_only = self._rule_only | new

    def rule_unit(self) -> float:
        """The learned evidence one training row brings, in clause weights: Σ weight × support
        / rows over the learned clauses (a Direct KB over n known features: 2^n − 1 unit
        clauses; one tree: its leaf's weight; a forest: its trees'). A rule's weight w is a
        clause weight like theirs, so w ≈ `rule_unit()` ties a rule with the data on a full
        row and 2 × it outvotes them: the Rules page says so for the model in use, since the
        same w weighs very differently in a Direct KB and a tree. 1.0 without learned
        clauses with a support. Rows are `n_rows`, else read from the clauses: the most rows
        one feature's one-literal clauses cover, or (none: one tree's leaves) their support."""
        cache = self._unit_cache
        if cache is not None and cache[0] is self.w and cache[1] is self.support:
            return cache[2]
        ok = self.support > 0
        total = float(self.w[ok] @ self.support[ok]) if ok.any() else 0.0
        rows = self.n_rows if self.n_rows else _rows_of_clauses(self, ok)
        unit = total / rows if total > 0 and rows > 0 else 1.0
        self._unit_cache = (self.w, self.support, unit)
        return unit

    def saved_state(self) -> dict[str, Any]:
        """What a KB file keeps beside its clauses and domains, when there is any: the training
        rows (`n_rows`, for `rule_unit`) and the values only a rule named ("rule_only", so a
        reloaded model still flags the rules it cannot use)."""
        out: dict[str, Any] = {}
        if self.n_rows:
            out["n_rows"] = int(self.n_rows)
        if self._rule_only:
            only: dict[str, list[str]] = {}
            for f, v in sorted(self._rule_only):
                only.setdefault(f, []).append(v)
            out["rule_only"] = only
        return out

    def restore_state(self, state: dict[str, Any]) -> KB:
        """`saved_state` back onto this KB (read and checked by `jsonformat.saved_state`)."""
        self.n_rows = state.get("n_rows", self.n_rows)
        only = state.get("rule_only", {})
        self._rule_only = frozenset((f, v) for f, vals in only.items() for v in vals)
        return self

    def known_domains(self) -> dict[str, tuple[str, ...]]:
        """The values per feature the model knows from its data or learned clauses: `domains`
        without the values only a rule named (features only a rule named are left out)."""
        if not self._rule_only:
            return dict(self.domains)
        out = {f: tuple(v for v in vals if (f, v) not in self._rule_only)
               for f, vals in self.domains.items()}
        return {f: vals for f, vals in out.items() if vals}

    def _code_of(self, feature: str, value: str, grow: bool) -> tuple[int, int]:
        if grow:
            self._grow([Literal(feature, value)])
        if feature not in self.domains:
            raise DataError(f"unknown feature {feature!r}")
        dom = self.domains[feature]
        if value not in dom:
            raise DataError(f"feature {feature!r} has no value {value!r}")
        return self.feature_positions()[feature], dom.index(value)

    def add(self, clauses: WeightedClause | Iterable[WeightedClause]) -> KB:
        """Add clauses in place (and return self). Rules stay objects in `extra` (they keep
        their id and can be disabled); other learned-shape clauses join the columnar block."""
        if isinstance(clauses, WeightedClause):
            clauses = [clauses]
        clauses = list(clauses)
        for c in clauses:
            if not isinstance(c, WeightedClause):
                raise DataError(f"kb.add expects WeightedClause objects, got {type(c).__name__}")
        self._grow(lit for c in clauses if c.source != "rule" for lit in c.literals)
        self._grow_by_rules(lit for c in clauses if c.source == "rule" for lit in c.literals)
        rows = []
        for c in clauses:
            if (c.is_learned_form and c.source != "rule" and c.enabled and c.id is None
                    and any(lit.is_feature for lit in c.literals)):
                rows.append(c)
            else:
                if c.source == "rule" and c.id is None:
                    c = replace(c, id=self._next_rule_id())
                self.extra.append(c)
        if rows:
            fpos = self.feature_positions()
            vpos: dict[str, dict[str, int]] = {}
            codes = np.full((len(rows), len(self.features)), -1, np.int32)
            for r, c in enumerate(rows):
                for lit in c.literals:
                    if lit.is_feature:
                        vp = vpos.get(lit.atom)
                        if vp is None:
                            vp = vpos[lit.atom] = {v: i for i, v in enumerate(self.domains[lit.atom])}
                        codes[r, fpos[lit.atom]] = vp[lit.value]
            meta = rows
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
        return next_rule_id(c.id for c in self.extra)

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
        self._grow_by_rules(self.extra[i].literals)
        return self

    def _sharing(self, extra: list[WeightedClause]) -> KB:
        """A KB with these other clauses and this KB's learned block: the arrays and the lookup
        index are shared (never written in place), `domains` and `extra` are its own."""
        out = copy.copy(self)
        out.domains = dict(self.domains)
        out.extra = extra
        return out

    def with_p(self, p: np.ndarray) -> KB:
        """This KB with its learned clauses' probabilities replaced by `p` (in [0, 1]); the other
        learned arrays are shared, not copied (a class correction of a Direct KB of millions of
        clauses)."""
        p = np.asarray(p, dtype=np.float64)
        if p.shape != self.p.shape:
            raise DataError(f"with_p: {p.shape[0] if p.ndim else 0} probabilities for "
                            f"{self.n_learned} learned clauses")
        if len(p) and not (p.min() >= 0 and p.max() <= 1):  # two reductions, no temporaries
            bad = int(np.flatnonzero(~((p >= 0) & (p <= 1)))[0])
            raise DataError(f"clause {bad}: probability {float(p[bad])!r} is outside [0, 1]")
        out = self._sharing(list(self.extra))
        out.p = p
        return out

    def without_rules(self) -> KB:
        """This KB without its rules (the learned block and its index shared, not copied)."""
        return self._sharing([c for c in self.extra if c.source != "rule"])

    def with_rules(self, rules: Iterable[WeightedClause] = (), replace: bool = False) -> KB:
        """A new KB with `rules` added (after this KB's rules, or instead of them with
        `replace=True`), sharing the learned arrays and their lookup index: changing rules
        never copies or re-indexes the learned clauses. Rules without an id get r1, r2, …"""
        keep = [c for c in self.extra if not (replace and c.source == "rule")]
        out = self._sharing(keep)
        out.add([c if c.source == "rule" else _as_rule(c) for c in rules])
        return out

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
        state = self.saved_state()
        if state:
            head.append(f"# state={json.dumps(state, ensure_ascii=False)}")
        body = _learned_text(self)
        body.extend(c.to_text() for c in self.extra)
        return "\n".join(head + body) + "\n"

    @classmethod
    def from_text(cls, text: str) -> KB:
        features: list[str] = []
        domains: dict[str, tuple[str, ...]] = {}
        kind, positive, max_len, state = "general", None, None, {}
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
                m = re.match(r"#\s*state=(.*)$", line)
                if m:
                    state = _parse_header_json(m.group(1), lineno)
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
        from .jsonformat import saved_state

        return kb.restore_state(saved_state(state, kb, "the '# state=' line: "))

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
            **self.saved_state(),
        }
        lines = [json.dumps(header, ensure_ascii=False)[:-1] + ', "clauses": [']
        items = learned_json(self)
        items.extend(json.dumps(_clause_json(c), ensure_ascii=False) for c in self.extra)
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



def check_kb_matches(kb: KB, features: Iterable[str] | None = None,
                     domains: Mapping[str, Iterable[Any]] | None = None,
                     positive: Any = None) -> None:
    """Refuse (DataError naming the mismatch) a KB built for other data: another positive
    class, features the data lacks, or values a feature of the data never takes. Features of
    the data that the KB does not mention are fine (they cannot move ω(POS))."""
    from .encoding import value_str

    if positive is not None and kb.positive is not None and value_str(kb.positive) != value_str(positive):
        raise DataError(f"the KB's POS stands for {kb.positive!r} but the data's positive class is "
                        f"{value_str(positive)!r}: its answers would be flipped; build or import a "
                        f"KB for {value_str(positive)!r}")
    if features is not None:
        have = {str(f) for f in features}
        missing = [f for f in kb.features if f not in have]
        if missing:
            raise DataError(f"the KB has {noun(len(missing), 'feature')} {missing[:10]} that the data lacks "
                            f"(the data has {sorted(have)[:20]})")
    if domains is not None:
        for f in kb.features:
            if f not in domains:
                continue
            allowed = {value_str(v) for v in domains[f]}
            extra = [v for v in kb.domains[f] if v not in allowed]
            if extra:
                raise DataError(f"the KB's feature {f!r} has {noun(len(extra), 'value')} {extra[:10]} that the data's "
                                f"{f!r} never takes (its values are {sorted(allowed)[:20]})")
