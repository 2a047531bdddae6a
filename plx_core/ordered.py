"""Ordered classes (mild < moderate < severe, grades 1–5, a survey's agree scale): the one home
for how plx knows an order (`class_order_of`: the user's list, or "auto" — numbers, or a
recognised vocabulary in `ORDERED_VOCABULARIES` —, or by default "scale": `scale_order`, a
known scale's words only) and for how K − 1 cumulative yes/no models
("above level k") answer as one model of K classes (`level_bounds`, `levels_above`).

One-vs-rest states each middle level as a two-sided band of the same evidence; the cumulative
models each state one side (severity 0.532 → 0.590, likert5 0.358 → 0.440 macro F1 over 6
splits, every split of six ordered families better; benchmarks/RESULTS.md, multi25)."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .encoding import value_str
from .errors import DataError
from .query import BoundsArray

ORDERED_VOCABULARIES: tuple[tuple[str, ...], ...] = (
    ("none", "minimal", "mild", "moderate", "severe", "critical"),
    ("none", "minimal", "mild", "moderate", "severe", "extreme"),
    ("very low", "low", "medium", "high", "very high"),
    ("very low", "low", "moderate", "high", "very high"),
    ("strongly disagree", "disagree", "somewhat disagree", "neutral", "somewhat agree",
     "agree", "strongly agree"),
    ("strongly disagree", "disagree", "neither agree nor disagree", "agree", "strongly agree"),
    ("very poor", "poor", "fair", "good", "very good", "excellent"),
    ("never", "rarely", "sometimes", "often", "always"),
    ("very unlikely", "unlikely", "neutral", "likely", "very likely"),
    ("very dissatisfied", "dissatisfied", "neutral", "satisfied", "very satisfied"),
    ("i", "ii", "iii", "iv", "v"),
)
"""Label vocabularies whose order is their meaning, lower case, least first: classes read as
ordered by `class_order="auto"` when every class is a word of one list (a prefix every class
shares, as "stage " or "grade ", is set aside first)."""

ORDER_WORDS = ("auto", "scale")
"""The words `class_order` takes besides a list of the classes in order: "auto" (numbers or a
known scale, else refused) and "scale" (the default: a known scale's words, else unordered)."""

ORDINAL_PREFIXES = ("stage", "grade", "level", "tier", "phase", "step", "score")
"""Shared prefixes that make numbered classes levels by their meaning ("Stage 1" … "Stage 4",
"Grade 2"); others ("Type 1", "Group 3", "Cluster 2") stay classes without an order."""

ROMAN_LEVELS = ("i", "ii", "iii", "iv", "v", "vi")
"""Roman numerals: levels of a label or a feature column under an `ORDINAL_PREFIXES` word
('Stage II') only; alone ('I' … 'IV') they may be names (scale27's steps4)."""


def _plain(c: str) -> str:
    return re.sub(r"\s+", " ", c.strip().lower().replace("_", " "))


def recognised_order(classes: Sequence[str]) -> list[str] | None:
    """`classes` (as `fit` writes them, `value_str`) in their order when that order is known
    without the user: every class a number (ascending), or every class a word of one of
    `ORDERED_VOCABULARIES` after a shared prefix ("Stage II"); None otherwise."""
    try:
        values = [float(c) for c in classes]
    except ValueError:
        values = None
    if values is not None and len(set(values)) == len(values):
        return [c for _v, c in sorted(zip(values, classes))]
    plain = [_plain(c) for c in classes]
    words = plain[0].split(" ")
    prefix = ""
    if len(words) > 1 and all(p.startswith(words[0] + " ") for p in plain):
        prefix = words[0] + " "  # "stage ii" → "ii"; "grade 3" → "3"
        rest = [p[len(prefix):] for p in plain]
        if prefix and (inner := recognised_order(rest)) is not None:
            return [classes[rest.index(r)] for r in inner]
    for vocab in ORDERED_VOCABULARIES:
        if len(set(plain)) == len(plain) and all(p in vocab for p in plain):
            return [c for _p, c in sorted(zip((vocab.index(p) for p in plain), classes))]
    return None


def scale_order(classes: Sequence[str]) -> list[str] | None:
    """`classes` in their order when they read as levels by their words alone — every class a
    word of one of `ORDERED_VOCABULARIES` ("mild" … "severe", "strongly disagree" … "strongly
    agree"), or numbered under an `ORDINAL_PREFIXES` prefix ("Grade 1" … "Grade 3", "Stage
    II") — the default `class_order="scale"`; None for bare numbers or Roman numerals and
    numbered kinds ("Type 1", "I" … "IV"), which may be names: steps4's grades I–IV cycle along
    a dial, and as levels scored 0.758 against one-vs-rest's 0.859 (RESULTS scale27)."""
    if len(classes) < 3 or (order := recognised_order(classes)) is None:
        return None
    plain = [_plain(c) for c in classes]
    first = plain[0].split(" ")[0]
    if all(p.startswith(first + " ") for p in plain):  # a shared prefix: "stage ii", "type 1"
        if first in ORDINAL_PREFIXES:
            return order
        plain = [p[len(first) + 1:] for p in plain]
    if all(_is_number(p) or p in ROMAN_LEVELS for p in plain):
        return None
    return order


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def default_order(classes: Sequence[str], positive: Any = None, threshold: Any = None
                  ) -> list[str] | None:
    """The levels plx's default (`class_order="scale"`) fits several classes as: a known
    scale's words (`scale_order`), unless `positive=` / `threshold=` (`plx fit --positive`)
    asks for one class against the rest; None: one against the rest."""
    if positive is not None or threshold is not None:
        return None
    return scale_order(classes)


def class_order_of(classes: Sequence[str], class_order: Any, name: str = "class_order",
                   label: str = "y") -> list[str]:
    """The fitted classes (`value_str` of each label) from lowest to highest level as
    `class_order` says them: a list naming every class once, or "auto" (`recognised_order`).
    Bad input: one line naming what is missing, unknown or repeated (`name`: the setting as
    the user wrote it, `plx fit --class-order`'s too; `label`: what holds the classes)."""
    cli = name.startswith("-")
    example = list(classes)[:3]
    if isinstance(class_order, str):
        if class_order not in ORDER_WORDS:
            raise DataError(f"{name} must be 'auto', 'scale' or the classes from lowest to "
                            f"highest level, got {class_order!r}")
        if class_order == "scale":
            if (order := scale_order(classes)) is None:
                raise DataError(f"{name}='scale': the classes {list(classes)[:10]} are no words "
                                "of a known scale")
            return order
        if (order := recognised_order(classes)) is None:
            raise DataError(
                f"{name}{' ' if cli else '='}'auto': no order is known for the classes "
                f"{list(classes)[:10]} (neither numbers nor words of a known scale): pass them "
                "from lowest to highest level, e.g. " + (
                    f"{name} \"{','.join(example)},…\"" if cli else
                    f"{name}=[" + ", ".join(repr(c) for c in example) + ", …]"))
        return order
    try:
        given = [value_str(v) for v in class_order]
    except TypeError:
        raise DataError(f"{name} must be 'auto' or the classes from lowest to highest level "
                        f"(a list), got {class_order!r}") from None
    if dup := sorted({c for c in given if given.count(c) > 1}):
        raise DataError(f"{name} names {dup[0]!r} more than once")
    if unknown := [c for c in given if c not in classes]:
        raise DataError(f"{name} names {unknown[0]!r}, which is no class of {label} "
                        f"(the classes: {list(classes)[:10]})")
    if missing := [c for c in classes if c not in given]:
        raise DataError(f"{name} leaves out the class {missing[0]!r} of {label}: name every "
                        "class from lowest to highest level")
    return given


def order_from_text(text: str) -> str | list[str]:
    """An order as a user types it (`plx fit --class-order`, the dashboard's Data page):
    "auto", or the classes from lowest to highest level separated by commas (for
    `class_order_of` to check)."""
    return text.strip() if text.strip() in ORDER_WORDS else [c.strip() for c in text.split(",")]


def step_numbers(mean: np.ndarray, threshold: float, above: bool = True) -> np.ndarray:
    """A step model's support for "above" with its own threshold at 0.5 (piecewise linear, 0
    and 1 kept): > 0.5 + `TIE_EPS` exactly where the step answers "above". `above`: whether
    the step's POS is "above" (else POS is "at most", the rarer side of a low step: "above"
    where POS is not answered, a tie at the threshold included)."""
    from .query import TIE_EPS

    t = float(threshold)
    q = np.where(mean <= t, mean / (2.0 * t), 0.5 + (mean - t) / (2.0 * (1.0 - t)))
    if above:
        return q
    return np.where(np.abs(mean - t) <= TIE_EPS, 0.5 + 2 * TIE_EPS, 1.0 - q)


def step_parts(own: Sequence[BoundsArray], thresholds: Sequence[float], above: Sequence[bool]
               ) -> tuple[list[BoundsArray], list[np.ndarray]]:
    """The steps' bounds on "above" (a step whose POS is "at most" turned to its other side:
    "above" is 1 − it) and their `step_numbers`, from each step's own bounds, threshold and
    POS side: one home for the estimator (`PLXClassifier._ordered_steps`) and a model file
    (`plx predict`)."""
    import dataclasses

    cum = [c if a else dataclasses.replace(c, lower=1.0 - c.upper, upper=1.0 - c.lower,
                                           vote=None if c.vote is None else 1.0 - c.vote)
           for c, a in zip(own, above)]
    return cum, [step_numbers(c.mean, t, a) for c, t, a in zip(own, thresholds, above)]


def explaining_step(steps: list[np.ndarray], want: int | None = None) -> np.ndarray:
    """Per row the step that explains it: for its own level the nearer of the two steps
    bounding it (the one whose number is nearest 0.5: the decision's weaker side); for the
    level `want` above (below) its own, the step just above (below) it: why not higher
    (lower)."""
    q = np.column_stack(steps)
    level = levels_above(steps)
    K = len(steps) + 1
    low = np.clip(level - 1, 0, K - 2)  # the step below the level ("above" it said yes)
    high = np.clip(level, 0, K - 2)  # the step above it ("above" it said no)
    rows = np.arange(len(q))
    nearer = np.where(np.abs(np.nan_to_num(q[rows, low], nan=0.5) - 0.5)
                      <= np.abs(np.nan_to_num(q[rows, high], nan=0.5) - 0.5), low, high)
    nearer = np.where(level == 0, high, np.where(level == K - 1, low, nearer))
    if want is None:
        return nearer
    return np.where(want > level, high, np.where(want < level, low, nearer))


def levels_above(steps: list[np.ndarray]) -> np.ndarray:
    """Per row the level index answered: how many of the K − 1 cumulative models answer
    "above" (`step_numbers` > 0.5, a tie at 0.5 is not above); NaN (a failed row) is not."""
    from .query import TIE_EPS

    return np.sum(np.column_stack([np.nan_to_num(s, nan=0.0) > 0.5 + TIE_EPS for s in steps]),
                  axis=1)


def level_bounds(parts: Sequence[BoundsArray], steps: list[np.ndarray]) -> list[BoundsArray]:
    """The K levels' bounds from the K − 1 cumulative models' (`parts`, level order), each
    level j the support of "above j − 1 and not above j": lower max(0, L(j−1) − U(j)), upper
    min(U(j−1), 1 − L(j)) (the steps nest); each level compared by min(q(j−1), 1 − q(j)) of the
    steps sorted high to low (`step_numbers`, so the largest is the level of `levels_above`)."""
    n = len(parts[0].lower)
    one, zero = np.ones(n), np.zeros(n)
    lows = [one] + [p.lower for p in parts] + [zero]
    ups = [one] + [p.upper for p in parts] + [zero]
    from .query import TIE_EPS

    q = np.column_stack(steps)
    failed_row = np.isnan(q).any(axis=1)
    q = np.nan_to_num(q, nan=0.0)
    # a step at its threshold is not above (`levels_above`): below ½ here, so the two levels
    # it parts do not tie and predict_proba's largest is predict's level
    q = -np.sort(-np.where(q > 0.5 + TIE_EPS, q, np.minimum(q, 0.5 - TIE_EPS)), axis=1)
    q = np.column_stack([one, q, zero])
    out = []
    first = parts[0]
    failed = tuple(sorted({f for p in parts for f in p.failed}))
    for j in range(len(parts) + 1):
        lower = np.maximum(0.0, lows[j] - ups[j + 1])
        upper = np.maximum(lower, np.minimum(ups[j], 1.0 - lows[j + 1]))
        vote = np.where(failed_row, np.nan, np.minimum(q[:, j], 1.0 - q[:, j + 1]))
        out.append(BoundsArray(lower, upper, np.full(n, "ordered", dtype=object), first.features,
                               first.unseen_rows, first.unseen_cols, first.ignored,
                               first.read_as, failed, vote))
    return out


@dataclass(frozen=True)
class LevelAnswers:
    """What an ordered model answers for rows, as `plx predict` writes it: every level's
    bounds (`levels`, lowest first, `vote` the number `predict_proba` divides by the sum), per
    row the `level` answered and the `runner_up` (indexes into the order), `compared` (rows ×
    levels) and `tie`: some step answers exactly at its threshold."""

    levels: list[BoundsArray]
    level: np.ndarray
    runner_up: np.ndarray
    compared: np.ndarray
    tie: np.ndarray


def level_answers(own: Sequence[BoundsArray], thresholds: Sequence[float],
                  above: Sequence[bool]) -> LevelAnswers:
    """The levels answered from each step's own bounds, threshold and POS side (`step_parts`,
    `level_bounds`, `levels_above`): the one home of the level, the runner-up (the level of
    the next number compared) and the tie, for `plx predict` (a model file) and the dashboard
    (the estimator's steps)."""
    from .query import TIE_EPS

    cum, nums = step_parts(own, thresholds, above)
    levels = level_bounds(cum, nums)
    top = levels_above(nums)
    compared = np.column_stack([b.compared_by for b in levels])
    scored = np.nan_to_num(compared, nan=-np.inf)
    scored[np.arange(len(top)), top] = np.inf  # the level answered, whatever the numbers say
    second = np.argsort(-scored, axis=1, kind="stable")[:, 1]
    tie = np.column_stack([np.abs(b.mean - t) <= TIE_EPS
                           for b, t in zip(own, thresholds)]).any(axis=1)
    return LevelAnswers(levels, top, second, compared, tie)


def mean_level_error(truth: Sequence[str], answered: Sequence[str], order: Sequence[str]
                     ) -> float | None:
    """The mean of |level answered − true level| over the rows whose true class is a level of
    `order` (a measure that respects the order, beside macro F1); None without such a row."""
    rank = {str(c): i for i, c in enumerate(order)}
    pairs = [(rank[str(t)], rank[str(a)]) for t, a in zip(truth, answered)
             if str(t) in rank and str(a) in rank]
    return float(np.mean([abs(t - a) for t, a in pairs])) if pairs else None


# --------------------------------------------------------------------------------------------
# Ordered bands in feature columns ("0-10", "10-20", "80+"; neg, trace, 1+ … 3+; Likert words)

LEVEL_VOCABULARIES: tuple[tuple[str, ...], ...] = (
    ("neg", "trace", "1+", "2+", "3+", "4+"),
    ("negative", "trace", "1+", "2+", "3+", "4+"),
    ("negative", "trace", "+", "++", "+++", "++++"),
    ("low", "normal", "high"),
    ("low", "medium", "high"),
    ("low", "moderate", "high"),
    ("none", "mild", "moderate", "severe"),
)
"""Feature-column scales beside `ORDERED_VOCABULARIES` (a dipstick's grades, a lab's flags):
a column every value of which is a word of one of these lists reads as ordered levels."""

_NUM = r"\d+(?:[.,]\d+)?"
_BAND = re.compile(
    rf"(?P<lo>{_NUM})\s*(?:-|–|—|to)\s*(?P<hi>{_NUM})|(?P<plus>{_NUM})\s*\+|"
    rf"(?P<below><=|=<|≤|<|under|below|less than)\s*(?P<b>{_NUM})|"
    rf"(?P<above>>=|=>|≥|>|over|above)\s*(?P<a>{_NUM})", re.IGNORECASE)
MIN_LEVELS, MAX_LEVELS = 3, 20
"""A column of 3 to 20 distinct bands or scale words reads as ordered levels: two are a flag
(no order to lose), more are rarely bands."""


def _f(text: str) -> float:
    return float(text.replace(",", "."))


def band_span(text: str) -> tuple[float, float] | None:
    """The numbers a band written as text covers, (low, high): '10-20' and '10 to 20' →
    (10, 20), '80+' and '≥80' → (80, ∞), '<5' → (−∞, 5), '>5' → (5, ∞); None when
    the text is no band. The one parser of numeric bands."""
    m = _BAND.fullmatch(text.strip())
    if m is None:
        return None
    if m["lo"] is not None:
        lo, hi = _f(m["lo"]), _f(m["hi"])
        return (lo, hi) if lo < hi else None
    if m["plus"] is not None:
        return _f(m["plus"]), np.inf
    if m["below"] is not None:
        return -np.inf, _f(m["b"])
    return _f(m["a"]), np.inf


def band_order(values: Sequence[str], ordinal: bool = False) -> list[str] | None:
    """`values` (a column's distinct texts) from lowest to highest when every one is a band of
    numbers that do not overlap ('0-10', '10-20', '80+'; '<5', '5-9', '≥10'), or every one is
    a word of one known scale (`LEVEL_VOCABULARIES`, `ORDERED_VOCABULARIES`, after a shared
    prefix: 'grade ii'; numerals only under an `ORDINAL_PREFIXES` word, `ordinal`: 'Stage
    II', 'Grade 2'); None otherwise, or for fewer than `MIN_LEVELS` or more than `MAX_LEVELS`
    values. The whole column decides: one value of neither kind, none is read."""
    if not MIN_LEVELS <= len(values) <= MAX_LEVELS:
        return None
    spans = [band_span(v) for v in values]
    if all(s is not None for s in spans):
        order = sorted(zip(spans, values))
        if any(a[0][1] > b[0][0] or a[0][0] >= b[0][0] for a, b in zip(order, order[1:])):
            return None  # overlapping or repeated bands ('10-20' beside '15-25'): no one order
        return [v for _s, v in order]
    if any(s is not None for s in spans) and not all(
            _plain(v) in ("neg", "negative", "trace") or s is not None
            for v, s in zip(values, spans)):
        return None
    plain = [_plain(v) for v in values]
    if len(set(plain)) < len(plain):
        return None  # 'Mild' beside 'mild': spellings of one level, said elsewhere
    if not ordinal and all(p in ROMAN_LEVELS for p in plain):
        return None  # 'I' … 'IV' alone may be names (scale27's steps4); 'Stage II' is a level
    for vocab in (ROMAN_LEVELS, *LEVEL_VOCABULARIES, *ORDERED_VOCABULARIES):
        if all(p in vocab for p in plain):
            return [v for _p, v in sorted(zip((vocab.index(p) for p in plain), values))]
    if ordinal and all(_is_number(p) for p in plain):  # 'Grade 1' … 'Grade 3'
        return [v for _x, v in sorted(zip((float(p) for p in plain), values))]
    words = plain[0].split(" ")
    if len(words) > 1 and all(p.startswith(words[0] + " ") for p in plain):
        rest = [" ".join(v.split()[1:]) for v in values]  # after the shared first word
        inner = band_order(rest, ordinal=words[0] in ORDINAL_PREFIXES)
        if inner is not None:
            return [values[rest.index(r)] for r in inner]
    return None
