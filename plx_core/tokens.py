"""The lexical layer shared by clause text, rule text and the conditions field: one tokenizer,
one set of keywords, one quoting rule (what `quote` leaves bare, `tokenize` reads as one word).

Tokens are words, JSON-style double-quoted strings, and the operators
`!=  =  |  ∨  ~  ¬  [  ]  (  )  ,  :`. `#` outside quotes starts a comment. Keywords
(`IF THEN AND OR NOT POS`) are case-insensitive words; quoted they are plain names.
"""

from __future__ import annotations

import json
import re
from typing import NamedTuple

from .errors import ClauseSyntaxError

KEYWORDS = ("IF", "THEN", "AND", "OR", "NOT", "POS")
AND_WORDS = ("AND", "&", "∧")  # the conditions field also accepts & and ∧ for AND
OPERATORS = ("!=", "=", "|", "∨", "~", "¬", "[", "]", "(", ")", ",", ":")

_OPS = r"=|∨~¬\[\](),:#"
_TOKEN = re.compile(
    rf'(?P<q>"(?:[^"\\]|\\.)*")|(?P<op>!=|[{_OPS}])|(?P<w>(?:[^\s"!{_OPS}]|!(?!=))+)'
)
_WS = re.compile(r"\s*")
_COMPARES = re.compile(r"[<>≤≥]")
_NEEDS_QUOTES = re.compile(rf'[\s"\\!{_OPS}]')
# characters str.splitlines() breaks at that json.dumps(ensure_ascii=False) leaves raw
_LINE_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_DECODER = json.JSONDecoder(strict=False)
LINE_END = re.compile(r"\r\n|\r|\n")


class Token(NamedTuple):
    """kind is 'w' (word), 'q' (quoted string) or the operator itself; col is 1-based."""

    kind: str
    text: str
    col: int

    def kw(self) -> str | None:
        """The keyword this word spells (any case), or None (quoted strings are never keywords)."""
        if self.kind == "w" and self.text.upper() in KEYWORDS:
            return self.text.upper()
        return None


def tokenize(text: str, lineno: int | None = None, offset: int = 0,
             comments: bool = True) -> list[Token]:
    """Tokens of one line, in one left-to-right pass (linear in the length of the line).
    With `comments=False` a `#` is an operator token instead of starting a comment."""
    toks: list[Token] = []
    pos, n = 0, len(text)
    match, ws = _TOKEN.match, _WS.match
    while True:
        pos = ws(text, pos).end()
        if pos >= n:
            return toks
        m = match(text, pos)
        if m is None:
            if text[pos] == '"':
                raise ClauseSyntaxError("unterminated quoted string (a closing \" is missing)",
                                        lineno, offset + pos + 1)
            raise ClauseSyntaxError(f"cannot read {text[pos:pos + 20]!r}", lineno, offset + pos + 1)
        col = offset + pos + 1
        kind = m.lastgroup
        if kind == "q":
            try:
                toks.append(Token("q", _DECODER.decode(m.group()), col))
            except json.JSONDecodeError:
                raise ClauseSyntaxError(f"bad quoted string {m.group()[:40]!r}", lineno, col) from None
        elif kind == "op":
            op = m.group()
            if op == "#" and comments:
                return toks  # a comment runs to the end of the line
            toks.append(Token(op, op, col))
        else:
            toks.append(Token("w", m.group(), col))
        pos = m.end()


def quote(name: str, always: bool = False) -> str:
    """`name` as one token: bare when `tokenize` reads it back as that word, else (or
    `always`) quoted."""
    if (always or name == "" or _NEEDS_QUOTES.search(name) or name.upper() in KEYWORDS
            or name in AND_WORDS or name[0] == "'"):
        out = json.dumps(name, ensure_ascii=False)
        if any(ch in out for ch in _LINE_BREAKS):
            out = "".join(_LINE_BREAKS.get(ch, ch) for ch in out)
        return out
    return name


def condition_text(feature: str, value: str, negated: bool = False, sep: str = "=") -> str:
    """One condition `a=v` (`NOT a=v`), names and values quoted where the grammar needs it
    (`"worst radius"="[13.5, 16.82)"`), so that every text naming a value — rule text,
    explanations, the CLI's columns, the dashboard — reads back (`sep` " = " for prose)."""
    return ("NOT " if negated else "") + f"{name_text(feature)}{sep}{quote(str(value))}"


def name_text(feature: str) -> str:
    """A feature's name as rule text writes it (quoted where the grammar needs it)."""
    name = str(feature)  # a name holding < > ≤ ≥ is quoted: bare, a rule reads `x<=0` as x <= 0
    return quote(name, bool(_COMPARES.search(name)))


def split_lines(text: str) -> list[str]:
    """Lines of rule or clause text: only \\n, \\r\\n and \\r end a line (str.splitlines would
    also split inside quoted names at U+0085, U+2028 and the like)."""
    return LINE_END.split(text)


def format_number(x: float) -> str:
    """The shortest text that reads back as the same float (`5` rather than `5.0`)."""
    s = repr(float(x))
    return s[:-2] if s.endswith(".0") else s
