"""Rules the model cannot use: a condition on a feature or value the KB does not know.

A rule typed on one model's values (the default's fine bins, `age=(40, 52]`) and kept when the
model changes (a Direct KB cut in other bins, a column dropped, a value renamed) would never
fire: a row never holds a value the model does not have. `unused_rules` names every such rule,
its feature and value and the values the model knows, so the service can show "not used by
this model: …" and `query` / `PLXClassifier` warn once instead of silently ignoring it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .notes import say as say_note

if TYPE_CHECKING:
    from .kb import KB, WeightedClause

SHOWN_VALUES = 12  # known values listed in a message
_SAID: ContextVar[bool] = ContextVar("plx_unused_rules_said", default=False)


@dataclass(frozen=True)
class UnusedRule:
    """One condition of a rule the model cannot use: `rule_id`, the rule's `text`, the
    `feature` and `value` it names, and the values the model knows for that feature (`known`,
    empty when the model has no such feature)."""

    rule_id: str
    text: str
    feature: str
    value: str
    known: tuple[str, ...]

    @property
    def reason(self) -> str:
        """Why, in plain words, with the closest name the model knows when one is close."""
        from .rules import _suggest

        if not self.known:
            return f"the model has no feature {self.feature!r}"
        shown = ", ".join(repr(v) for v in self.known[:SHOWN_VALUES])
        more = ", …" if len(self.known) > SHOWN_VALUES else ""
        return (f"feature {self.feature!r} has no value {self.value!r} in this model"
                f"{_suggest(self.value, self.known)}; its values are {shown}{more}")

    @property
    def message(self) -> str:
        """One line: the rule, then why the model does not use it."""
        return f"rule {self.rule_id} ({self.text}) is not used by this model: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {"rule_id": self.rule_id, "text": self.text, "feature": self.feature,
                "value": self.value, "known": list(self.known), "reason": self.reason}


def unused_rules(kb: KB, rules: Iterable[WeightedClause] | None = None) -> list[UnusedRule]:
    """Every condition of `rules` (default: the KB's own rules, enabled or not) on a feature
    or value `kb` does not know from its data (`KB.known_domains`), in rule order; empty when
    every rule can fire."""
    from .rules import rule_text

    known = kb.known_domains()
    out: list[UnusedRule] = []
    for c in (kb.rules if rules is None else rules):
        text = None
        for lit in c.literals:
            if not lit.is_feature or lit.value in known.get(lit.atom, ()):
                continue
            text = text if text is not None else rule_text(c, meta=False)
            out.append(UnusedRule(str(c.id) if c.id else "(new)", text, lit.atom,
                                  lit.value, known.get(lit.atom, ())))
    return out


def unused_rules_note(found: list[UnusedRule]) -> str:
    """One line for all of them ("" when none): what `warn_unused_rules` says."""
    return "; ".join(f"rule {us[0].rule_id} ({us[0].text}) is not used by this model: "
                     + "; ".join(u.reason for u in us) for us in by_rule(found).values())


def by_rule(found: list[UnusedRule]) -> dict[str, list[UnusedRule]]:
    """`unused_rules`' findings grouped by rule id, in rule order: a rule with several
    conditions the model lacks is named once, with every reason."""
    out: dict[str, list[UnusedRule]] = {}
    for u in found:
        out.setdefault(u.rule_id, []).append(u)
    return out


def warn_unused_rules(kb: KB, stacklevel: int = 3) -> None:
    """Warn (UserWarning) naming the KB's enabled rules the model cannot use; cheap when a rule
    never named a value the data lacks (the usual case: nothing to check)."""
    if not kb._rule_only or _SAID.get():
        return
    found = unused_rules(kb, [c for c in kb.rules if c.enabled])
    if found:
        say_note(unused_rules_note(found), stacklevel=stacklevel)


@contextmanager
def unused_rules_said(kb: KB, stacklevel: int = 4) -> Iterator[None]:
    """Warn about `kb`'s unused rules once, then not again inside the block: a batch (every
    row of `query_many`, an explanation's sub-queries) says it once, not once a row."""
    warn_unused_rules(kb, stacklevel=stacklevel)
    token = _SAID.set(True)
    try:
        yield
    finally:
        _SAID.reset(token)
