"""Expert rules as the dashboard shows and checks them: IF … THEN text, condition checks in plain words."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence

import pandas as pd

from plx_core.errors import DataError
from plx_core.kb import POS, Literal, WeightedClause


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
