"""Expert rules as the dashboard shows and checks them: IF … THEN text, condition checks in plain words."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from plx_core.kb import KB, WeightedClause
from plx_core.kb import next_rule_id as _next_rule_id
from plx_core.rules import (
    rule_clause as rule_clause,  # the engine's: one home of IF … THEN as a clause
)


def rule_parts(rule: WeightedClause) -> tuple[list[tuple[str, str]], str]:
    """(conditions, head) of a rule or learned clause: the (feature, value) of every feature
    literal (a positive literal `a=v`, from a condition `NOT a=v`, is listed too; `rule_text`
    shows the NOT)."""
    conds = [(lit.atom, lit.value) for lit in rule.literals if lit.is_feature]
    head = "NOT POS" if any(lit.is_class and lit.negated for lit in rule.literals) else "POS"
    return conds, head


def rule_text(rule: WeightedClause) -> str:
    """`IF a=v AND NOT b=w THEN POS` for display (the engine's renderer: quoted where needed,
    so it reads back)."""
    from plx_core.rules import rule_text as _rule_text

    return _rule_text(rule, meta=False)


def next_rule_id(rules: Sequence[WeightedClause]) -> str:
    """The id the next rule gets: the engine's (`plx_core.kb.next_rule_id`), which skips the
    ids of OR rules' parts (`r3.1`, `r3.2` take r3)."""
    return _next_rule_id(r.id for r in rules)


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


def parse_conditions(text: str, domains: Mapping[str, Sequence[str]] | None = None) -> list[tuple[str, str]]:
    """`a=v AND b=w` into pairs: the engine's conditions field (`plx_core.rules`)."""
    from plx_core.rules import parse_conditions as _parse_conditions

    return _parse_conditions(text, domains)


def rules_frame(rules: Sequence[WeightedClause], kb: KB | None = None,
                positive: str | None = None, X: pd.DataFrame | None = None,
                is_pos: pd.Series | None = None, weighed: bool = False) -> pd.DataFrame:
    """One row per rule as the user wrote it: an OR rule (a comparison on a number is the OR
    of its bins, `r1.1` … `r1.8`) is one row under its id, its text folded back
    (`wording.rule_said`: `IF crp >= 50 THEN …`), p, w and on/off of the whole rule. With the
    training rows `X` also "rows", how many of them hold the rule's conditions
    (`modelrules.rows_holding`: counted from the data, so for every KB kind). With the
    model's `kb` (without rules) also "vs data", the weight as a multiple of the evidence a
    training row brings under that model (`KB.rule_unit`: the same w is 1,000× a Direct KB's
    clause and 1× a tree's leaf), and a plain-text "note" saying "not used by this model: …"
    for a rule on a feature or value the model does not know (`plx_core.rulecheck.unused_rules`:
    typed under another model's bins, say). With `positive` (what POS stands for) a rule reads
    THEN the class (`THEN not readmitted`). With `is_pos` (whether each row of `X` is the
    positive class) also "in the data": the share of the rows holding the rule whose class is
    the one the rule concludes, to read beside its p, and a "note" where the two disagree
    (`wording.rule_against_data`: an expert rule the data contradict, said, not refused).
    `weighed`: the share as the model learns it, the classes weighed as equally common (plx's
    default's `class_weight="balanced"`: its learned clauses' p are on that scale, so a 2%
    class's 5% of rows reads 0.7 there, beside a rule's p)."""
    from plx_core.modelrules import holding, rows_holding
    from plx_core.rules import rule_groups
    from plx_core.wording import RULE_NOTE_SEP, rule_against_data, rule_said

    groups = rule_groups(rules)
    frame = pd.DataFrame(  # on/off next to the rule: read at 1024 px without scrolling
        [{"id": g, "rule": rule_said(cs, positive), "enabled": all(c.enabled for c in cs),
          "p": cs[0].p, "w": cs[0].w} for g, cs in groups],
        columns=["id", "rule", "enabled", "p", "w"],
    )
    if X is not None:
        frame.insert(3, "rows", pd.array([rows_holding(cs, X) for _, cs in groups], "Int64"))
    against: dict[str, str] = {}
    if X is not None and is_pos is not None:
        pos = is_pos.reindex(X.index).fillna(False).to_numpy(dtype=bool)
        n_pos = int(pos.sum())
        w = (np.where(pos, len(pos) / (2 * n_pos), len(pos) / (2 * (len(pos) - n_pos)))
             if weighed and 0 < n_pos < len(pos) else np.ones(len(pos)))
        share = []
        for g, cs in groups:
            hit = holding(cs, X)
            n = 0 if hit is None else int(hit.sum())
            same = pos if rule_parts(cs[0])[1] == "POS" else ~pos
            k = int((hit & same).sum()) if n else 0
            part = float(w[hit & same].sum() / w[hit].sum()) if n else None
            share.append(part)
            if n and (why := rule_against_data(rule_said(cs, positive), cs[0].p, k, n, part,
                                               weighed)):
                against[g] = why
        frame.insert(4, "in the data", pd.array(share, "Float64"))
    if kb is not None:
        notes = rule_notes(kb, rules)
        frame["vs data"] = [cs[0].w / kb.rule_unit() for _, cs in groups]  # × a row's evidence
        frame["note"] = [RULE_NOTE_SEP.join(x for x in (notes.get(g, ""), against.get(g, "")) if x)
                         for g, _ in groups]
    elif X is not None and is_pos is not None:
        frame["note"] = [against.get(g, "") for g, _ in groups]
    return frame


def rule_notes(kb: KB, rules: Sequence[WeightedClause]) -> dict[str, str]:
    """Rule id → "not used by this model: <why>" for the rules `kb` cannot use (none else);
    an OR rule is named once by its id, with each reason once."""
    from plx_core.rulecheck import unused_rules
    from plx_core.rules import rule_group

    why: dict[str, dict[str, None]] = {}
    for u in unused_rules(kb, rules):
        why.setdefault(rule_group(u.rule_id), {})[u.reason] = None
    return {rid: "not used by this model: " + "; ".join(rs) for rid, rs in why.items()}


def rules_signature(rules: Sequence[WeightedClause]) -> tuple:
    return tuple(r.to_text() for r in rules if r.enabled)
