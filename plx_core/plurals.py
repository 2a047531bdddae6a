"""Counts with their nouns in the right number: `1 row`, `3 rows`, never `row(s)`.

Below every other module (no imports from plx_core), so the data readers, the encoders and
the CLI can word their notes with it; `plx_core.wording` re-exports these for the pages.
"""

from __future__ import annotations

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve")


def number_word(n: int) -> str:
    """`three` for 3 (0–12 in words, larger numbers as digits with thousands separators)."""
    n = int(n)
    return _WORDS[n] if 0 <= n < len(_WORDS) else f"{n:,}"


def noun(n: int, one: str, many: str | None = None) -> str:
    """The noun alone in the number `n` asks for: `column` for 1, `columns` otherwise (before a
    list: `columns ['a', 'b']`); `many` defaults to `one` + "s"."""
    return one if int(n) == 1 else (many or one + "s")


def plural(n: int, one: str, many: str | None = None) -> str:
    """`one rule` / `three rules` (`many` defaults to `one` + "s")."""
    return f"{number_word(n)} {noun(n, one, many)}"


def counted(n: int, one: str, many: str | None = None) -> str:
    """`1 rule` / `3 rules` / `1,204 rows`: a count in digits with its noun in the right
    number (never `rule(s)`), for tables, charts and notes where words would be long."""
    return f"{int(n):,} {noun(n, one, many)}"


def verb(n: int, one: str, many: str) -> str:
    """The verb that agrees with a count: `verb(1, "is", "are")` → `is`."""
    return one if int(n) == 1 else many


__all__ = ["counted", "noun", "number_word", "plural", "verb"]
