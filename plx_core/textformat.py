"""The clause-text grammar: tokenizer, literal and clause parsers, and the vectorised printer."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .clause import POS, SOURCES, Literal, WeightedClause, _fmt_num, _quote
from .errors import ClauseSyntaxError, DataError

if TYPE_CHECKING:
    from .kb import KB



def _learned_text(kb: KB, sl: slice = slice(None)) -> list[str]:
    """Clause text of learned clauses in `sl`, built column by column (vectorised)."""
    codes = kb.codes[sl]
    m = len(codes)
    if m == 0:
        return []
    parts = pd.Series(np.where(kb.head[sl] > 0, "POS", "~POS"), dtype=object)
    for j, f in enumerate(kb.features):
        col = codes[:, j]
        present = col >= 0
        if not present.any():
            continue
        lit = np.asarray([f"~{_quote(f)}={_quote(v)}" for v in kb.domains[f]] + [""], dtype=object)
        piece = lit[np.where(present, col, len(kb.domains[f]))]
        parts = parts + np.where(present, " | ", "") + piece
    meta = _meta_column(kb, sl)
    return list(meta + " " + parts)


def _meta_column(kb: KB, sl: slice) -> pd.Series:
    p = pd.Series(kb.p[sl]).map(_fmt_num)
    out = "[" + p
    w = kb.w[sl]
    if np.any(w != 1.0):
        out = out + np.where(w != 1.0, ", w=" + pd.Series(w).map(_fmt_num), "")
    src = kb.source[sl]
    if np.any(src != 0):
        out = out + np.where(src != 0, ", src=" + pd.Series(np.asarray(SOURCES)[src]), "")
    sup = kb.support[sl]
    if np.any(sup >= 0):
        out = out + np.where(sup >= 0, ", n=" + pd.Series(sup).astype(str), "")
    pos = kb.positives[sl]
    if np.any(pos >= 0):
        out = out + np.where(pos >= 0, ", pos=" + pd.Series(pos).astype(str), "")
    return out + "]"


def _feature_lists(kb: KB, codes: np.ndarray) -> np.ndarray:
    out = pd.Series([""] * len(codes), dtype=object)
    for j, f in enumerate(kb.features):
        present = codes[:, j] >= 0
        if present.any():
            sep = np.where(out == "", "", ", ")
            out = out + np.where(present, sep + f, "")
    return out.to_numpy()


_TOKEN = re.compile(
    r'\s*(?:(?P<q>"(?:[^"\\]|\\.)*")|(?P<op>[|∨~¬=\[\],:])|(?P<w>[^\s|∨~¬=\[\],:"]+))'
)


def _tokenize(text: str, lineno: int | None, offset: int = 0) -> list[tuple[str, str, int]]:
    """Tokens as (kind, text, column): kind is 'q' (quoted), 'w' (word) or the operator."""
    toks, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ClauseSyntaxError(f"cannot read {text[pos:pos + 20]!r}", lineno, offset + pos + 1)
        col = offset + m.start(m.lastgroup) + 1
        if m.lastgroup == "q":
            try:
                toks.append(("q", json.loads(m.group("q")), col))
            except json.JSONDecodeError as exc:
                raise ClauseSyntaxError(f"bad quoted string {m.group('q')!r}", lineno, col) from exc
        elif m.lastgroup == "op":
            toks.append((m.group("op"), m.group("op"), col))
        else:
            toks.append(("w", m.group("w"), col))
        pos = m.end()
    return toks


def _domain_tokens(toks, lineno) -> tuple[str, tuple[str, ...]]:
    if len(toks) < 2 or toks[0][0] not in ("w", "q") or toks[1][0] != ":":
        raise ClauseSyntaxError("domain line must read '# domain name: v1 v2 …'", lineno)
    vals = []
    for kind, text, col in toks[2:]:
        if kind not in ("w", "q"):
            raise ClauseSyntaxError(f"unexpected {text!r} in domain line", lineno, col)
        vals.append(text)
    return toks[0][1], tuple(vals)


def _parse_header_json(text: str, lineno: int) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ClauseSyntaxError(f"bad header value {text!r}", lineno) from exc


def parse_literals(toks: Sequence[tuple[str, str, int]], lineno: int | None,
                   separators: tuple[str, ...] = ("|", "∨")) -> tuple[Literal, ...]:
    """Literals separated by `|`/`∨`: `POS`, `~POS`, `a=v`, `~a=v`, `¬a=v`, plain atoms."""
    lits: list[Literal] = []
    i, n = 0, len(toks)
    while True:
        negated = False
        while i < n and toks[i][0] in ("~", "¬"):
            negated = not negated
            i += 1
        if i >= n:
            col = toks[-1][2] if toks else None
            raise ClauseSyntaxError("expected a literal at the end of the clause", lineno, col)
        kind, text, col = toks[i]
        if kind not in ("w", "q"):
            raise ClauseSyntaxError(f"expected a literal, found {text!r}", lineno, col)
        i += 1
        if i < n and toks[i][0] == "=":
            if i + 1 >= n or toks[i + 1][0] not in ("w", "q"):
                raise ClauseSyntaxError(f"literal {text}= needs a value", lineno, toks[i][2])
            lits.append(Literal(text, toks[i + 1][1], negated))
            i += 2
        else:
            if kind == "w" and text.upper() == POS:
                text = POS
            lits.append(Literal(text, None, negated))
        if i >= n:
            break
        if toks[i][0] not in separators:
            raise ClauseSyntaxError(
                f"expected '|' between literals, found {toks[i][1]!r}", lineno, toks[i][2]
            )
        i += 1
    return tuple(lits)


_META_KEYS = {"w": "w", "src": "source", "source": "source", "n": "support", "support": "support",
              "pos": "positives", "positives": "positives", "id": "id", "p": "p"}


def parse_clause(line: str, lineno: int | None = None) -> WeightedClause:
    """Parse `[p, w=…] lit | lit | …` (also `¬` and `∨`)."""
    toks = _tokenize(line, lineno)
    if not toks or toks[0][0] != "[":
        raise ClauseSyntaxError("a clause starts with its probability in brackets, e.g. [0.9]",
                                lineno, toks[0][2] if toks else 1)
    try:
        close = next(i for i, t in enumerate(toks) if t[0] == "]")
    except StopIteration:
        raise ClauseSyntaxError("missing ']' after the probability", lineno, toks[0][2]) from None
    meta = _parse_meta(toks[1:close], lineno, toks[0][2])
    lits = parse_literals(toks[close + 1:], lineno)
    try:
        return WeightedClause(lits, **meta)
    except DataError as exc:
        raise ClauseSyntaxError(str(exc), lineno, toks[0][2]) from None


def _parse_meta(toks, lineno, col0) -> dict[str, Any]:
    groups: list[list] = [[]]
    for t in toks:
        if t[0] == ",":
            groups.append([])
        else:
            groups[-1].append(t)
    meta: dict[str, Any] = {}
    for k, g in enumerate(groups):
        if not g:
            raise ClauseSyntaxError("empty field in brackets", lineno, col0)
        if k == 0 and len(g) == 1:
            meta["p"] = _number(g[0], lineno, "probability")
            continue
        if len(g) == 1 and g[0][1] == "off":
            meta["enabled"] = False
            continue
        if len(g) != 3 or g[1][0] != "=" or g[0][1] not in _META_KEYS:
            raise ClauseSyntaxError(
                f"unknown field {' '.join(t[1] for t in g)!r} (use p, w=, src=, n=, pos=, id=, off)",
                lineno, g[0][2])
        key = _META_KEYS[g[0][1]]
        if key in ("p", "w"):
            meta[key] = _number(g[2], lineno, key)
        elif key in ("support", "positives"):
            meta[key] = int(_number(g[2], lineno, key))
        else:
            meta[key] = g[2][1]
    if "p" not in meta:
        raise ClauseSyntaxError("the clause has no probability", lineno, col0)
    return meta


def _number(tok, lineno, what) -> float:
    try:
        return float(tok[1])
    except ValueError:
        raise ClauseSyntaxError(f"{what} {tok[1]!r} is not a number", lineno, tok[2]) from None


