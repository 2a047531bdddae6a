"""Rule sets as values: what changed between two versions, and merging two sets.

A rule set is a sequence of weighted clauses with source "rule", each known by its id (the
clauses `r3.1`, `r3.2` of an OR rule belong to rule `r3`: `rules.rule_group`). These pure
functions back the saved rules history (`plx_core.store`) and the dashboard's import choices
(merge or replace).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .clause import WeightedClause
from .rules import rule_group


def rule_key(c: WeightedClause, i: int = 0) -> str:
    """The name a rule is tracked by across versions: its id, else its position."""
    return c.id if c.id else f"#{i + 1}"


def _content(c: WeightedClause) -> tuple:
    """What a rule says, apart from its id."""
    return (frozenset(c.literals), float(c.p), float(c.w), bool(c.enabled))


def _keyed(rules: Sequence[WeightedClause]) -> dict[str, WeightedClause]:
    return {rule_key(c, i): c for i, c in enumerate(rules)}


@dataclass(frozen=True)
class RulesDiff:
    """Rules added, removed and changed (old, new) from one version to the next."""

    added: tuple[WeightedClause, ...] = ()
    removed: tuple[WeightedClause, ...] = ()
    changed: tuple[tuple[WeightedClause, WeightedClause], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed)

    def summary(self) -> str:
        """One line, e.g. `added r3; changed r1 (w 50 → 100, disabled); removed r2`."""
        parts = []
        if self.added:
            parts.append("added " + _ids(self.added))
        whats = [(rule_key(new), _what_changed(old, new)) for old, new in self.changed]
        by_rule: dict[str, list[str]] = {}  # an OR rule's clauses changed alike: named once
        for key, what in whats:
            by_rule.setdefault(rule_group(key), []).append(what)
        named: set[str] = set()
        for key, what in whats:
            rid = rule_group(key)
            if len(by_rule[rid]) == 1 or len(set(by_rule[rid])) > 1:
                parts.append(f"changed {key} ({what})")
            elif rid not in named:
                parts.append(f"changed {rid} ({what})")
                named.add(rid)
        if self.removed:
            parts.append("removed " + _ids(self.removed))
        return "; ".join(parts) or "no change"


def _ids(rules: Sequence[WeightedClause]) -> str:
    """Rule ids, an OR rule's clauses (`r2.1`, `r2.2`) named once (`r2`)."""
    return ", ".join(dict.fromkeys(rule_group(rule_key(c, i)) for i, c in enumerate(rules)))


def _what_changed(old: WeightedClause, new: WeightedClause) -> str:
    bits = []
    if frozenset(old.literals) != frozenset(new.literals):
        bits.append("conditions")
    if old.p != new.p:
        bits.append(f"p {old.p:g} → {new.p:g}")
    if old.w != new.w:
        bits.append(f"w {old.w:g} → {new.w:g}")
    if old.enabled != new.enabled:
        bits.append("enabled" if new.enabled else "disabled")
    return ", ".join(bits) or "details"


def diff_rules(old: Sequence[WeightedClause], new: Sequence[WeightedClause]) -> RulesDiff:
    """What changed from `old` to `new`, matching rules by id."""
    a, b = _keyed(old), _keyed(new)
    return RulesDiff(
        tuple(c for k, c in b.items() if k not in a),
        tuple(c for k, c in a.items() if k not in b),
        tuple((a[k], c) for k, c in b.items() if k in a and a[k].to_text() != c.to_text()),
    )


def _fresh_ids(taken: Iterable[str]) -> Iterable[str]:
    used = {rule_group(t) for t in taken}
    n = 1
    while True:
        if f"r{n}" not in used:
            used.add(f"r{n}")
            yield f"r{n}"
        n += 1


def _renamed(c: WeightedClause, new_base: str) -> WeightedClause:
    old = c.id or ""
    suffix = old[len(rule_group(old)):] if old else ""
    return replace(c, id=new_base + suffix)


def merge_rules(current: Sequence[WeightedClause],
                incoming: Sequence[WeightedClause]) -> list[WeightedClause]:
    """`current` plus the incoming rules it does not already hold (same conditions, p, w and
    state); an incoming rule whose id is taken gets a fresh one (the parts of an OR rule keep
    one shared id)."""
    have = {_content(c) for c in current}
    out = list(current)
    fresh = _fresh_ids([c.id for c in (*current, *incoming) if c.id])
    taken = {rule_group(c.id) for c in current if c.id}
    renames: dict[str, str] = {}
    for c in incoming:
        if _content(c) in have:
            continue
        have.add(_content(c))
        if c.id and rule_group(c.id) in taken:
            b = rule_group(c.id)
            if b not in renames:
                renames[b] = next(fresh)
            c = _renamed(c, renames[b])
        elif c.id:
            taken.add(rule_group(c.id))
        out.append(replace(c, source="rule"))
    return out


@dataclass(frozen=True)
class Merged:
    """The result of a three-way merge and the rules both sides changed (kept twice)."""

    rules: list[WeightedClause]
    both_changed: tuple[str, ...] = ()


def merge3(base: Sequence[WeightedClause], theirs: Sequence[WeightedClause],
           mine: Sequence[WeightedClause]) -> Merged:
    """Keep both sides' changes since `base`: a rule only one side changed takes that side;
    a rule one side deleted and the other edited is kept as edited; a rule both edited
    differently is kept twice (theirs under its id, mine under a fresh id)."""
    b, t, m = _keyed(base), _keyed(theirs), _keyed(mine)
    text = lambda c: None if c is None else c.to_text()  # noqa: E731
    order = list(t) + [k for k in m if k not in t]
    out: list[WeightedClause] = []
    clashes: list[WeightedClause] = []
    for k in order:
        bc, tc, mc = b.get(k), t.get(k), m.get(k)
        if text(tc) == text(mc) or text(bc) == text(mc):
            keep = tc  # same on both sides, or mine did not touch it
        elif text(bc) == text(tc):
            keep = mc  # only mine changed it (None: I deleted it)
        elif tc is None or mc is None:
            keep = tc or mc  # deleted on one side, edited on the other: keep the edit
        else:
            keep = tc
            clashes.append(mc)
        if keep is not None:
            out.append(keep)
    fresh = _fresh_ids([c.id for c in out if c.id] + [c.id for c in clashes if c.id])
    renames: dict[str, str] = {}
    for c in clashes:
        bb = rule_group(c.id or "")
        if bb not in renames:
            renames[bb] = next(fresh)
        out.append(_renamed(c, renames[bb]))
    return Merged(out, tuple(rule_key(c) for c in clashes))


__all__ = ["Merged", "RulesDiff", "diff_rules", "merge3", "merge_rules", "rule_key"]
