"""Clause values: literals and weighted clauses, and how one prints as clause text."""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, replace
from typing import Any

from .errors import DataError
from .tokens import quote as _quote

POS = "POS"
PRIOR_ID = "prior"
"""The id of a tuned prior clause `[1] POS` / `[0] POS` (`plx_core.variants`): extra votes that
move the decision among the evidence's clause probabilities. It shifts evidence, so a query
with no other clause to answer it is answered without it (`query.prior_alone`), not by it."""
SOURCES = ("data", "tree", "rule", "user")
MAX_COUNT = 2**62  # a clause's support / positives: a count of rows (the KB holds them as int64)


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
        if self.is_class:
            body = POS
        elif self.value is None:
            body = _quote(self.atom)
        else:
            body = f"{_quote(self.atom)}={_quote(self.value)}"
        return ("~" if self.negated else "") + body


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
        for name in ("support", "positives"):
            v = getattr(self, name)
            if v is not None and not -1 <= v <= MAX_COUNT:
                raise DataError(f"clause{' ' + self.id if self.id else ''}: {name}={_short(v)} is "
                                f"not a count of rows (0 to 2^62)")

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


# Weights must be finite and positive; this range keeps every weighted-median sum and the LP's
# rescaling (by a power of two, `lp.MAX_WEIGHT_RATIO`) far from overflow and underflow, while
# answers stay independent of the scale of the weights (a KB's weights can all be multiplied by
# 1e-12 or 1e12). Weights more than `lp.MAX_WEIGHT_RATIO` apart inside one problem are refused
# at query time with `WeightRangeError`, where the solver could not resolve them.
MIN_WEIGHT = 1e-100
MAX_WEIGHT = 1e100
WEIGHT_RANGE = f"between {MIN_WEIGHT:g} and {MAX_WEIGHT:g}"


def weight_problem(w: float, shown: str | None = None) -> str | None:
    """Why `w` is not a usable clause weight (None when it is); `shown` is how the user wrote it."""
    if not (MIN_WEIGHT <= w <= MAX_WEIGHT):  # also catches nan and ±inf
        return f"w={shown or repr(w)} must be a finite number > 0, {WEIGHT_RANGE}"
    return None


def _short(v: Any) -> str:
    """`v` for a message, at most 40 characters (a number of 10⁴ digits is no message)."""
    try:
        text = repr(v)
    except ValueError:  # an int past Python's 4300 digits for str()
        return f"an integer of more than {sys.get_int_max_str_digits()} digits"
    return text if len(text) <= 40 else text[:37] + "…"


def _check_pw(p: Any, w: Any, where: str = "") -> None:
    prefix = f"{where}: " if where else ""
    if isinstance(p, (bool, str, bytes)) or isinstance(w, (bool, str, bytes)):
        # trust23: "0.3" and "5" were read as numbers (True had been refused): text is not
        # a number here, as in checks.py, whichever form or caller passed it
        raise DataError(f"{prefix}p and w must be numbers, got p={_short(p)}, w={_short(w)}")
    try:
        pf, wf = float(p), float(w)
    except (TypeError, ValueError, OverflowError) as exc:  # OverflowError: an int of 400 digits
        raise DataError(f"{prefix}p and w must be numbers, got p={_short(p)}, w={_short(w)}") from exc
    if not (0.0 <= pf <= 1.0) or math.isnan(pf):
        raise DataError(f"{prefix}probability p={p!r} is outside [0, 1]")
    problem = weight_problem(wf)
    if problem:
        raise DataError(prefix + problem)


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


