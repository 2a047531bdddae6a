"""Expert rules kept in a model file (`plx rules`): list, add, remove, enable / disable and
edit the rules of a `ModelFile` or a `ClassesModelFile`, in memory; the caller writes the file.

Rules live in the stored KB's `extra` (`plx_core.rules`), so every model file format keeps them
and `plx predict` / `plx explain` answer with the enabled ones exactly as with learned clauses
(the tuned window's answering KB keeps them too, `variants.windowed_kb`).

A model of several classes holds one KB a class, that class against the rest. A rule joins
the KB of the one class it is about (`cls`, `plx rules … add --class C`): THEN POS there is
"the row is C", THEN NOT POS "it is not C", and it moves that class's mean — so which class
answers — as a learned clause of that KB would. A rule is never copied to every class: "POS"
names one class. Rule ids are unique across the whole file, so `remove r3` needs no class.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .encoding import class_named
from .errors import DataError
from .kb import KB, WeightedClause
from .rules import edit_rule, parse_rules, remove_rule, rule_groups, rule_text, rules_text


@dataclass(frozen=True)
class RuleHome:
    """A KB of a model file that holds rules: the class it is about (None: a yes/no model's
    one KB, POS = `positive`) and the KB."""

    cls: str | None
    positive: str
    kb: KB


def homes(model: Any) -> list[RuleHome]:
    """Every KB of the model that rules can join: one, or one a class (a model of ordered
    classes: none yet, refused in one line — a rule's THEN would be a step, not a level)."""
    if getattr(model, "steps", None) is not None:
        from .wording import ORDERED_RULES_WHY

        raise DataError("a model of ordered classes (plx fit --class-order) holds no expert "
                        f"rules yet: {ORDERED_RULES_WHY}; fit without --class-order to add rules")
    members = getattr(model, "members", None)
    if members is not None:
        return [RuleHome(c, c, m.kb) for c, m in zip(model.classes, members)]
    return [RuleHome(None, model.positive, model.kb)]


def left_out(model: Any) -> dict[str, str]:
    """The columns the fit left out and why (`Schema.excluded`), for rules naming them."""
    return {str(c): str(why) for c, why in model.schema.excluded.items()}


def home_for(model: Any, cls: str | None) -> RuleHome:
    """The KB a new rule joins: the model's one KB, or that of class `cls` (needed, and
    checked, for several classes)."""
    hs = homes(model)
    if cls is not None:  # as the model writes it: "2" for a class "2.0" (`class_named`)
        cls = class_named(cls, [h.positive if h.cls is None else h.cls for h in hs],
                          "the model", "class", "--class", quiet=True, unknown_ok=True)
    if hs[0].cls is None:
        if cls is not None and cls != hs[0].positive:
            raise DataError(f"--class {cls!r}: this model is {hs[0].positive!r} against the rest "
                            f"(POS = {hs[0].positive!r}); leave --class out, and write THEN NOT "
                            "POS for the other side")
        return hs[0]
    names = [h.cls for h in hs]
    if cls is None:
        raise DataError(f"the model has {len(names)} classes {names[:10]}, one KB each against "
                        "the rest: name the class the rule is about with --class, or a "
                        "'# class: C' line above it in a rules file (THEN POS then means that "
                        "class, THEN NOT POS any other)")
    for h in hs:
        if h.cls == cls:
            return h
    raise DataError(f"--class {cls!r} is not a class of the model; its classes are {names[:10]}")


CLASS_LINE = re.compile(r"^\s*#\s*class:\s*(.*?)\s*$")
"""`# class: C` in rule text: the rules after it are about class C (`model_rules_text`)."""


def add_model_rules(model: Any, text: str, cls: str | None = None) -> list[str]:
    """Parse `text` against the KB of `cls` (`home_for`) and add its rules there; returns the
    new rules' ids. Every feature, value and threshold is checked on that KB, a column the
    fit left out is named so, ids are fresh across the file, and a rule already there (the
    same conditions and conclusion) is refused: it would count its weight twice. Text with
    `# class: C` lines (what `model_rules_text` writes for several classes) adds each part to
    its class, lines numbered as in the whole text."""
    lines = text.splitlines()
    marks = [(i, m.group(1)) for i, ln in enumerate(lines) if (m := CLASS_LINE.match(ln))]
    if not marks:
        return _add_to(model, text, cls)
    if cls is not None:
        raise DataError(f"--class {cls!r} and '# class:' lines (line {marks[0][0] + 1}) both "
                        "say which class; keep one")
    head = [ln for ln in lines[:marks[0][0]] if ln.strip() and not ln.lstrip().startswith("#")]
    if head:
        raise DataError(f"line {lines.index(head[0]) + 1}: a rule before the first '# class:' "
                        "line; say which class it is about")
    ids: list[str] = []
    for k, (start, name) in enumerate(marks):
        stop = marks[k + 1][0] if k + 1 < len(marks) else len(lines)
        part = [""] * (start + 1) + lines[start + 1:stop]  # blank lines keep the numbering
        if any(ln.strip() for ln in part):
            ids.extend(_add_to(model, "\n".join(part), name))
    return ids


def _add_to(model: Any, text: str, cls: str | None) -> list[str]:
    """`add_model_rules` for rules about one class (or the model's one KB)."""
    home = home_for(model, cls)
    others = [c.id for h in homes(model) if h.kb is not home.kb for c in h.kb.rules if c.id]
    new = parse_rules(text, home.kb, left_out(model), taken=others)  # ids unique in the file
    if not new:
        raise DataError("no rule given (only blank or comment lines)")
    home.kb.add(new)
    return list(dict.fromkeys(_rule_id(c) for c in new))


def _rule_id(c: WeightedClause) -> str:
    from .rules import rule_group

    return rule_group(c.id or "")


def find_rule(model: Any, rule_id: str) -> RuleHome:
    """The KB holding rule `rule_id` (an OR rule's id names all its clauses)."""
    known = []
    for h in homes(model):
        ids = [g for g, _ in rule_groups(h.kb)]
        if rule_id in ids:
            return h
        known.extend(ids)
    if not known:
        raise DataError(f"no rule with id {rule_id!r}: the model has no rules yet")
    raise DataError(f"no rule with id {rule_id!r}; the model's rules are {known[:20]}")


def remove_model_rules(model: Any, ids: Sequence[str]) -> None:
    """Remove these rules (all checked first: one unknown id changes nothing)."""
    found = [(find_rule(model, r), r) for r in _distinct(ids)]
    for h, r in found:
        remove_rule(h.kb, r)


def edit_model_rules(model: Any, ids: Sequence[str], **changes: Any) -> None:
    """Set `p`, `w` or `enabled` of these rules (all checked first)."""
    found = [(find_rule(model, r), r) for r in _distinct(ids)]
    for h, r in found:
        edit_rule(h.kb, r, **changes)


def _distinct(ids: Sequence[str]) -> list[str]:
    seen = list(dict.fromkeys(ids))
    if len(seen) != len(ids):
        dup = next(i for i in seen if list(ids).count(i) > 1)
        raise DataError(f"rule id {dup!r} is given twice")
    return seen


def model_rules_text(model: Any) -> str:
    """Every rule, one a line with its id (`rules.rules_text`): `add_model_rules` reads it back;
    for several classes each class's rules follow a `# class: C` line (`CLASS_LINE`)."""
    hs = homes(model)
    if hs[0].cls is None:
        return rules_text(hs[0].kb)
    return "".join(f"# class: {h.cls}\n{rules_text(h.kb)}" for h in hs if h.kb.rules)


def rules_table(model: Any) -> pd.DataFrame:
    """One row a rule: id, (class,) the rule as written back (`rule_text`: `parse_rules` reads
    it as the same clauses), p, w, on, `rows` — the training rows its conditions hold for,
    when the model file knows it (`rows_of_rule`), else empty —, and `vs_data`: w as a
    multiple of the evidence one training row brings in that KB (`KB.rule_unit`)."""
    several = homes(model)[0].cls is not None
    out = []
    for h in homes(model):
        unit = h.kb.rule_unit()
        for g, cs in rule_groups(h.kb):
            out.append({"id": g, **({"class": h.cls} if several else {}),
                        "rule": rule_text(cs, meta=False), "p": cs[0].p, "w": cs[0].w,
                        "on": "on" if all(c.enabled for c in cs) else "off",
                        "rows": rows_of_rule(h.kb, cs), "vs_data": cs[0].w / unit})
    cols = ["id", *(["class"] if several else []), "rule", "p", "w", "on", "rows", "vs_data"]
    frame = pd.DataFrame(out, columns=cols)
    frame["rows"] = frame["rows"].astype("Int64")
    return frame


def rows_of_rule(kb: KB, clauses: Sequence[WeightedClause]) -> int | None:
    """How many training rows hold the rule's conditions, read from a Direct KB's counts:
    the support of the learned clause with the same body (an OR rule: the sum, when no row
    can hold two of its parts). None when the KB does not know it (not a Direct KB, a body
    longer than its clause-length cap, a NOT condition, parts that can overlap)."""
    if kb.kind != "direct" or kb.n_learned == 0:
        return None
    fpos = kb.feature_positions()
    codes = np.full((len(clauses), len(kb.features)), -1, np.int32)
    bodies = []
    for r, c in enumerate(clauses):
        body = [lit for lit in c.literals if not lit.is_class]
        if not body or any(not (lit.is_feature and lit.negated) for lit in body):
            return None  # a NOT condition (a positive literal) or a non-feature atom
        for lit in body:
            dom = kb.domains[lit.atom]
            if lit.value not in dom:
                return None
            codes[r, fpos[lit.atom]] = dom.index(lit.value)
        bodies.append({lit.atom: lit.value for lit in body})
    for i in range(len(bodies)):  # parts must exclude each other: a feature, two values
        for j in range(i):
            if not any(f in bodies[j] and bodies[j][f] != v for f, v in bodies[i].items()):
                return None
    hit, row = kb.index().lookup(codes)
    support = {}
    for q, r in zip(hit.tolist(), row.tolist()):
        if kb.support[r] >= 0:
            support[q] = int(kb.support[r])
    if len(support) != len(clauses):
        return None
    return sum(support.values())


def rows_holding(clauses: Sequence[WeightedClause], X: pd.DataFrame) -> int | None:
    """How many rows of `X` (binned values, as the KB reads them) hold the rule's conditions
    for sure: any part of an OR rule, every condition of it (`a=v` the cell is v, `NOT a=v`
    the cell is known and not v; an empty cell holds neither). Exact for every KB kind, where
    `rows_of_rule` needs a Direct KB's counts; None when a condition names a column `X` lacks."""
    hit = holding(clauses, X)
    return None if hit is None else int(hit.sum())


def holding(clauses: Sequence[WeightedClause], X: pd.DataFrame) -> np.ndarray | None:
    """Which rows of `X` hold the rule's conditions for sure (`rows_holding`'s rows, as a
    mask); None when a condition names a column `X` lacks."""
    hit = np.zeros(len(X), bool)
    for c in clauses:
        part = np.ones(len(X), bool)
        for lit in c.literals:
            if lit.is_class:
                continue
            if not lit.is_feature or lit.atom not in X.columns:
                return None
            col = X[lit.atom]
            same = (col.astype(str) == str(lit.value)).to_numpy() & col.notna().to_numpy()
            part &= same if lit.negated else (col.notna().to_numpy() & ~same)
        hit |= part
    return hit


ROWS_UNKNOWN = ("rows —: the model file keeps no count of rows for this rule (only a Direct "
                "KB keeps them, for conditions without NOT); the dashboard counts them from "
                "the training rows")
"""What `plx rules list` says under a table with a rule whose rows it cannot count."""


def rules_said(model: Any) -> str:
    """`2 rules (1 on)`, or `no rules`: what a change leaves in the file."""
    n = sum(len(rule_groups(h.kb)) for h in homes(model))
    on = sum(all(c.enabled for c in cs) for h in homes(model) for _, cs in rule_groups(h.kb))
    return "no rules" if n == 0 else f"{n} rule{'s' if n != 1 else ''} ({on} on)"
