"""The clause-text grammar: tokenizer, literal and clause parsers, and the vectorised printer."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .clause import POS, SOURCES, Literal, WeightedClause, _fmt_num, weight_problem
from .errors import ClauseSyntaxError, DataError
from .tokens import Token, quote, tokenize

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
        lit = np.asarray([f"~{quote(f)}={quote(v)}" for v in kb.domains[f]] + [""], dtype=object)
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


_tokenize = tokenize  # the one tokenizer (plx_core.tokens); old private name kept


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
    except (ValueError, RecursionError):  # also a number past int()'s digit limit, deep nesting
        raise ClauseSyntaxError(f"bad header value {text[:60]!r}{'…' if len(text) > 60 else ''}",
                                lineno) from None


def parse_literals(toks: Sequence[tuple[str, str, int]], lineno: int | None,
                   separators: tuple[str, ...] = ("|", "∨")) -> tuple[Literal, ...]:
    """Literals separated by `|`/`∨`: `POS`, `~POS`, `a=v`, `~a=v` (also `¬a=v`, `a!=v`),
    plain atoms."""
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
        if i < n and toks[i][0] in ("=", "!="):
            if i + 1 >= n or toks[i + 1][0] not in ("w", "q"):
                raise ClauseSyntaxError(f"literal {text}{toks[i][0]} needs a value", lineno, toks[i][2])
            lits.append(Literal(text, toks[i + 1][1], negated != (toks[i][0] == "!=")))
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


_META_KEYS = {"p": "p", "w": "w", "src": "source", "source": "source", "n": "support",
              "support": "support", "pos": "positives", "positives": "positives", "id": "id"}
OFF_WORDS = ("off", "disabled")  # `[…, off]` adds a clause or rule disabled (any case)
META_HELP = "p, w=, src=, n=, pos=, id=, off"


def parse_clause(line: str, lineno: int | None = None) -> WeightedClause:
    """Parse `[p, w=…] lit | lit | …` (also `¬` and `∨`)."""
    return clause_from_tokens(tokenize(line, lineno), lineno)


def clause_from_tokens(toks: Sequence[Token], lineno: int | None = None) -> WeightedClause:
    """The clause these tokens of one line spell (see `parse_clause`)."""
    if not toks or toks[0][0] != "[":
        raise ClauseSyntaxError("a clause starts with its probability in brackets, e.g. [0.9]",
                                lineno, toks[0][2] if toks else 1)
    close = _closing_bracket(toks, lineno)
    meta = {k: v for k, (v, _) in parse_meta(toks[1:close], lineno, toks[0]).items()}
    lits = parse_literals(toks[close + 1:], lineno)
    if "p" not in meta:
        raise ClauseSyntaxError("the clause has no probability", lineno, toks[0][2])
    try:
        return WeightedClause(lits, **meta)
    except DataError as exc:
        raise ClauseSyntaxError(str(exc), lineno, toks[0][2]) from None


def _closing_bracket(toks: Sequence[Token], lineno: int | None) -> int:
    for i, t in enumerate(toks):
        if t[0] == "]":
            return i
    raise ClauseSyntaxError("missing ']' after the probability", lineno, toks[0][2])


def parse_meta(toks: Sequence[Token], lineno: int | None, open_tok: Token,
               allowed: Sequence[str] | None = None) -> dict[str, tuple[Any, Token]]:
    """The fields between brackets, `[0.9, w=5, id=x, off]` (a bare first number is p; keys
    and `off`/`disabled` in any case) → {field: (value, token)}; fields are the WeightedClause
    argument names (p, w, source, support, positives, id, enabled). `allowed` limits them."""
    groups: list[list[Token]] = [[]]
    for t in toks:
        if t[0] == ",":
            groups.append([])
        else:
            groups[-1].append(t)
    meta: dict[str, tuple[Any, Token]] = {}
    keys = [k for k in ("p", "w", "id") if allowed is None or k in allowed]
    hint = META_HELP if allowed is None else ", ".join(
        [k + "=" for k in keys] + (["off"] if "enabled" in allowed else []))
    for k, g in enumerate(groups):
        if not g:
            raise ClauseSyntaxError("empty field in brackets", lineno, open_tok[2])
        if k == 0 and len(g) == 1 and not (g[0][0] == "w" and g[0][1].lower() in OFF_WORDS):
            g = [Token("w", "p", g[0][2]), Token("=", "=", g[0][2]), g[0]]
        if len(g) == 1 and g[0][0] == "w" and g[0][1].lower() in OFF_WORDS:
            field, value, tok = "enabled", False, g[0]
        elif len(g) == 3 and g[1][0] == "=" and g[0][0] == "w" and g[0][1].lower() in _META_KEYS \
                and g[2][0] in ("w", "q"):
            field, tok = _META_KEYS[g[0][1].lower()], g[2]
            value = _meta_value(field, tok, lineno)
        else:
            raise ClauseSyntaxError(
                f"unknown field {' '.join(t[1] for t in g)!r} in brackets (use {hint})",
                lineno, g[0][2])
        if allowed is not None and field not in allowed:
            raise ClauseSyntaxError(f"field {g[0][1]!r} is not allowed here (use {hint})",
                                    lineno, g[0][2])
        if field in meta:
            raise ClauseSyntaxError(f"field {g[0][1]!r} is given twice", lineno, g[0][2])
        meta[field] = (value, tok)
    return meta


def _meta_value(field: str, tok: Token, lineno: int | None) -> Any:
    if field == "id":
        return tok[1]
    if field == "source":
        if tok[1] not in SOURCES:
            raise ClauseSyntaxError(f"src={tok[1]!r} is not one of {SOURCES}", lineno, tok[2])
        return tok[1]
    if field not in ("p", "w"):  # n= / pos=: its ClauseSyntaxError is a ValueError too
        x = _number(tok, lineno, field)
    else:
        try:
            x = float(tok[1]) if tok[0] == "w" else _number(tok, lineno, field)
        except ValueError:
            x = _number(tok, lineno, {"p": "probability", "w": "weight"}[field])
    if field == "p" and not 0.0 <= x <= 1.0:
        raise ClauseSyntaxError(f"probability p={tok[1]} is outside [0, 1]", lineno, tok[2])
    if field == "w":
        problem = weight_problem(x, tok[1])
        if problem:
            raise ClauseSyntaxError(problem, lineno, tok[2])
    if field in ("support", "positives"):
        if not (x >= 0 and float(x).is_integer()):
            raise ClauseSyntaxError(f"{field} {tok[1]!r} must be a whole number ≥ 0", lineno, tok[2])
        return int(x)
    return x


def _is_number(s: str) -> bool:
    try:
        return math.isfinite(float(s))
    except ValueError:
        return False


def _number(tok, lineno, what) -> float:
    if tok[0] == "w" and _is_number(tok[1]):
        return float(tok[1])
    try:
        float(tok[1])
    except ValueError:
        raise ClauseSyntaxError(f"{what} {tok[1]!r} is not a number", lineno, tok[2]) from None
    raise ClauseSyntaxError(f"{what} {tok[1]!r} must be a finite number", lineno, tok[2])
