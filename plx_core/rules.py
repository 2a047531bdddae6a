"""Expert rules: parse them into weighted clauses, manage them in a KB, measure their effect.

Rule text, one rule per line (`#` starts a comment outside quotes):

    IF a3=0 OR a4=0 THEN POS [p=0.9, w=5]
    IF a1=1 AND a2=0 THEN NOT POS [p=0.8]
    IF (a1=1 AND a2=0) OR NOT a3=1 THEN POS [p=0.7, w=2, id=expert1]
    [0.9, w=5] POS | ~a3=0                      # the raw clause syntax

A condition is a disjunction of conjunctions: `AND` builds one clause, `OR` splits the rule
into one clause per disjunct (`IF A OR B THEN H` ≡ `H ∨ ¬A` and `H ∨ ¬B`). AND and OR may
not be mixed at one level without parentheses (an error points at the operator); groups in
parentheses and `NOT` over a group are expanded to disjunctive normal form. `NOT a=v` (or
`a!=v`) in a condition gives the positive literal `a=v` in the clause. `THEN POS` /
`THEN NOT POS` (also `~POS`, `¬POS`) is the head. In brackets: `p` (required), `w` (weight,
default 1), `id` and `off` (added disabled). Names and values with spaces or special
characters are written in double quotes.

Rules are clauses with source "rule" and an id; the clauses of one OR rule share the rule's
id as a prefix (`r3.1`, `r3.2`), and `edit_rule`, `remove_rule`, `enable_rule` act on the
whole rule. They are kept in `kb.extra` and so saved and loaded with the KB (text or JSON).
In a query they act exactly as learned clauses (in the relevant semantics a rule counts when
the query settles its feature literals).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from .data import bin_labels, bin_reading, bin_span, cut_text, cut_value
from .encoding import binary_target, value_str
from .errors import ClauseSyntaxError, DataError
from .explain import _jsonable
from .kb import KB, POS, Literal, WeightedClause, next_rule_id
from .query import query, query_many
from .textformat import clause_from_tokens, parse_meta
from .tokens import (
    AND_WORDS,
    Token,
    condition_text,
    format_number,
    name_text,
    quote,
    split_lines,
    tokenize,
)

MAX_CLAUSES_PER_RULE = 64
MAX_RULES_CHARS = 1_000_000  # rule text longer than this is refused before it is read
MAX_CONDITIONS = 10_000  # conditions in one rule (a table has far fewer features)
MAX_NESTING = 100  # parentheses inside one another
RULE_FIELDS = ("p", "w", "id", "enabled")

_Tok = Token  # old private name


# --------------------------------------------------------------------------- conditions

# A condition tree: ("lit", feature, value, negated, name_tok, value_tok) | ("and"|"or", [kids])
# | ("not", kid, tok)


class _Parser:
    def __init__(self, toks: list[Token], lineno: int, end_col: int, line: str = "",
                 kb: KB | None = None, left_out: Mapping[str, str] | None = None):
        self.toks, self.i, self.lineno, self.end_col = toks, 0, lineno, end_col
        self.depth = 0
        self.line, self.kb = line, kb  # the line's text and the model: comparisons need both
        self.left_out = left_out

    def peek(self) -> Token | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def fail(self, msg: str, tok: Token | None = None) -> ClauseSyntaxError:
        col = tok.col if tok is not None else self.end_col
        return ClauseSyntaxError(msg, self.lineno, col)

    def expect_kw(self, kw: str, what: str) -> Token:
        t = self.peek()
        if t is None or t.kw() != kw:
            found = "the end of the line" if t is None else repr(t.text)
            raise self.fail(f"expected {kw} {what}, found {found}", t)
        self.i += 1
        return t

    def condition(self) -> tuple:
        first = self.unit()
        kids, op, op_tok = [first], None, None
        while True:
            t = self.peek()
            if t is None or t.kw() not in ("AND", "OR"):
                break
            if op is None:
                op, op_tok = t.kw(), t
            elif t.kw() != op:
                raise self.fail(
                    f"{t.kw()} after {op} (column {op_tok.col}) without parentheses: write "
                    f"e.g. (a=1 AND b=2) OR c=3 to say which binds first", t)
            self.i += 1
            kids.append(self.unit())
        if op is None:
            return first
        return (op.lower(), kids)

    def unit(self) -> tuple:
        negated, not_tok = False, None
        while (t := self.peek()) is not None and t.kw() == "NOT":  # NOT NOT … in one loop
            negated, not_tok = not negated, not_tok or t
            self.i += 1
        node = self._atom()
        return ("not", node, not_tok) if negated else node

    def _atom(self) -> tuple:
        t = self.peek()
        if t is None:
            raise self.fail("expected a condition such as a1=0, found the end of the line")
        if t.kind == "(":
            if self.depth >= MAX_NESTING:
                raise self.fail(f"parentheses nested more than {MAX_NESTING} deep", t)
            self.i += 1
            self.depth += 1
            inner = self.condition()
            self.depth -= 1
            close = self.peek()
            if close is None or close.kind != ")":
                raise self.fail("missing ')' to close the '(' "
                                f"at column {t.col}", close)
            self.i += 1
            return inner
        if t.kind not in ("w", "q") or t.kw() in ("IF", "THEN", "AND", "OR", "POS"):
            raise self.fail(f"expected a condition such as a1=0, found {t.text!r}", t)
        self.i += 1
        cmp = self._comparison(t)
        if cmp is not None:
            return cmp
        op = self.peek()
        if op is None or op.kind not in ("=", "!="):
            raise self.fail(f"condition on {t.text!r} needs '=' and a value, e.g. {quote(t.text)}=1, "
                            f"or on a number a comparison, e.g. {quote(t.text)} >= 7 (quote names "
                            "with spaces or symbols)",
                            op if op is not None else None)
        self.i += 1
        val = self.peek()
        if val is None or val.kind not in ("w", "q"):
            raise self.fail(f"{quote(t.text)}{op.text} needs a value (quote values with spaces or "
                            "brackets: a=\"[1, 2)\")", val)
        self.i += 1
        return ("lit", t.text, val.text, op.kind == "!=", t, val)

    def _comparison(self, t: Token) -> tuple | None:
        """`x >= 7` (also `x>=7`, `≥`, `<`, `<=`, `≤`, `>`) after the name token `t`, resolved on
        the model's bins of x (`_resolve`); None when no comparison follows the name."""
        name, start = t.text, None
        kb = self.kb
        if t.kind == "w" and (m := _CMP_CHAR.search(t.text)) is not None and m.start() > 0 \
                and not (kb is not None and t.text in kb.domains):
            name, start = t.text[:m.start()], t.col - 1 + m.start()
        elif (nxt := self.peek()) is not None and nxt.kind == "w" and _CMP_CHAR.match(nxt.text):
            start = nxt.col - 1
        if start is None:
            return None
        m = _CMP_TAIL.match(self.line, start)
        j = self.i
        while m is not None and j < len(self.toks) and self.toks[j].col - 1 < m.end():
            j += 1
        last = self.toks[j - 1] if j > self.i else (t if name != t.text else None)
        if m is None or last is None or last.kind != "w" or last.col - 1 + len(last.text) != m.end():
            raise self.fail(f"cannot read the comparison after {quote(name)}: write e.g. "
                            f"{quote(name)} >= 7 (a number after <, <=, > or >=)", t)
        op, value = _CMP_OPS[m.group(1)], m.group(2)
        self.i = j
        return _resolve(kb, name, op, value, t, self.lineno, self.left_out)


# --------------------------------------------------------------------------- comparisons

_CMP_CHAR = re.compile(r"[<>≤≥]")
_CMP_TAIL = re.compile(r"\s*(<=|>=|≤|≥|<|>)\s*([^\s\"()\[\],:|∨~¬#=!]+(?::\d\d)*)")  # 17:00 too
_CMP_OPS = {"<": "<", "<=": "<=", "≤": "<=", ">": ">", ">=": ">=", "≥": ">="}
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _cuts_text(cuts: Sequence[float], near: float, limit: int = 10, fmt: str = "plain") -> str:
    """`0.3 and 1.2`, `1, 2 and 3`; of many cuts the `limit` nearest `near`, with `…`; each
    written as its column is (`cut_text`: 17:00, 1h30m)."""
    shown = [cut_text(c, fmt) for c in cuts]
    if len(shown) > limit:
        k = int(np.searchsorted(np.asarray(cuts), near))
        lo = max(0, min(k - limit // 2, len(shown) - limit))
        shown = (["…"] if lo else []) + shown[lo:lo + limit] + (["…"] if lo + limit < len(cuts) else [])
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def _number_levels(dom: Sequence[str], op: str, value: str
                   ) -> tuple[list[str], list[str]] | None:
    """A comparison on a column kept as levels whose every value is a plain number (a count, a
    1-5 grade: `data.whole_levels`): (the values on its side, the others), exact — no bin to
    straddle; None when a value or `value` is not a plain number."""
    if not dom or not _NUMBER.fullmatch(value) or not all(_NUMBER.fullmatch(v) for v in dom):
        return None
    at = float(value)
    side = {"<": lambda x: x < at, "<=": lambda x: x <= at, ">": lambda x: x > at,
            ">=": lambda x: x >= at}[op]
    ins = [v for v in dom if side(float(v))]
    return ins, [v for v in dom if v not in ins]


def _resolve(kb: KB | None, name: str, op: str, value: str, tok: Token, lineno: int,
             left_out: Mapping[str, str] | None = None) -> tuple:
    """The comparison `name op value` as the model's bins of `name` that lie wholly on its side
    (and, for NOT, those wholly on the other side): ("cmp", name, in-leaves, out-leaves). A
    threshold a bin straddles (bins hold their lower edge, so `x > c` and `x <= c` straddle
    the bin [c, d) too), a feature without number bins, or no model: one line, refused —
    except `x < c` / `x >= c` without a model, or on a column of categories holding the value
    `<c` / `≥c` (a lab column of only `<5` and `>100` stays categories): that one value, as
    `rule_text` writes a rule on it, so every saved rule reads back."""
    said = f"{quote(name)} {op} {value}"
    col = tok.col
    label = {"<": f"<{value}", ">=": f"≥{value}"}.get(op)  # the one open bin `rule_text` folds
    if label is not None and (kb is None or (label in kb.known_domains().get(name, ())
                                             and bin_reading(kb.known_domains()[name]) is None)):
        return ("lit", name, label, False, tok, tok)  # a category written like a bin: itself
    if kb is None:
        raise ClauseSyntaxError(f"{said}: a comparison is read on the model's bins of {name!r}, "
                                f"and no model is given (parse_rules(text, kb)); without one "
                                f"write {quote(name)}=<bin>", lineno, col)
    if name not in kb.domains:
        raise _unknown_feature(kb, name, left_out, lineno, col)
    dom = list(kb.known_domains().get(name, ()))
    read = bin_reading(dom) if dom else None
    if read is None and (levels := _number_levels(dom, op, value)) is not None:
        ins, outs = levels  # a count of 0-4 kept as levels: `sedatives >= 3` is 3 or 4
        if not ins:
            raise ClauseSyntaxError(f"{said}: no value of {name!r} the model knows lies there "
                                    f"(its values are {_shown(dom)})", lineno, col)
        return ("cmp", name, [("lit", name, v, False, tok, tok) for v in ins],
                [("lit", name, v, False, tok, tok) for v in outs], tok)
    if read is None:
        raise ClauseSyntaxError(f"{said}: {name!r} is not binned as numbers in this model (its "
                                f"values are {_shown(dom)}); write {quote(name)}=<value>",
                                lineno, col)
    cuts, fmt = read
    at = cut_value(value, fmt) if fmt != "plain" or _NUMBER.fullmatch(value) else None
    if at is None:  # after the column: a date column's bins are refused
        eg = cut_text(cuts[len(cuts) // 2], fmt) if cuts else "7"  # one of its cut points
        what = {"time": "a time of day", "duration": "a length of time"}.get(fmt, "a number")
        raise ClauseSyntaxError(f"{said}: a comparison needs {what} after {op}, e.g. "
                                f"{quote(name)} {op} {eg}", lineno, col)
    v = at
    labels = bin_labels(cuts, None, fmt)
    edges = [-np.inf, *cuts, np.inf]
    upward = op in (">", ">=")
    ins, outs = [], []
    for k, lab in enumerate(labels):
        lo, hi = edges[k], edges[k + 1]
        if upward:
            inside, outside = (lo >= v if op == ">=" else lo > v), hi <= v
        else:
            inside, outside = hi <= v, (lo >= v if op == "<" else lo > v)
        if not (inside or outside):
            fix = ">=" if upward else "<"
            alts = " or ".join(f"{quote(name)} {fix} {cut_text(e, fmt)}" for e in (lo, hi)
                               if np.isfinite(e))
            where = (f"{value} falls inside the bin {lab}" if lo < v else
                     f"the bin {lab} holds {value} and the numbers just above it, so the rule "
                     f"cannot tell {quote(name)} = {value} from {quote(name)} > {value}")
            raise ClauseSyntaxError(f"{said}: {where}; the model cuts {name} at "
                                    f"{_cuts_text(cuts, v, fmt=fmt)} — write {alts}", lineno, col)
        (ins if inside else outs).append(lab)
    known = set(dom)
    ins, outs = [lab for lab in ins if lab in known], [lab for lab in outs if lab in known]
    if not ins:
        raise ClauseSyntaxError(f"{said}: no bin of {name!r} the model knows lies there (its bins "
                                f"are {_shown(dom)})", lineno, col)

    def leaves(labs: list[str]) -> list[tuple]:
        return [("lit", name, lab, False, tok, tok) for lab in labs]

    return ("cmp", name, leaves(ins), leaves(outs), tok)


def _dnf(node: tuple, negate: bool = False) -> list[list[tuple]]:
    """Disjunctive normal form: a list of conjunctions of ("lit", …) leaves (linear for a
    plain AND of n conditions; the recursion depth is bounded by MAX_NESTING). A comparison
    is the OR of its bins (NOT: of the bins on the other side)."""
    kind = node[0]
    if kind == "lit":
        _, f, v, neg, nt, vt = node
        return [[("lit", f, v, neg != negate, nt, vt)]]
    if kind == "cmp":
        return [[leaf] for leaf in (node[3] if negate else node[2])]
    if kind == "not":
        return _dnf(node[1], not negate)
    op = kind
    if negate:  # De Morgan
        op = "or" if kind == "and" else "and"
    parts = [_dnf(k, negate) for k in node[1]]
    if op == "or":
        return [c for p in parts for c in p]
    out: list[list[tuple]] = [[]]
    for p in parts:
        if len(p) == 1:  # one conjunction: extend every partial one in place
            for a in out:
                a.extend(p[0])
        else:  # conjunctions that fix one feature to two values go (`x >= 2 AND x < 5`)
            prod = [a + b for a in out for b in p]
            out = [c for c in prod if _consistent(c)] or prod[:1]  # one left says why
            if len(out) > MAX_CLAUSES_PER_RULE:
                break
    return out


def _consistent(conj: list[tuple]) -> bool:
    """No feature is fixed to two values (a=1 AND a=2) in this conjunction of leaves."""
    eq: dict[str, str] = {}
    return all(eq.setdefault(leaf[1], leaf[2]) == leaf[2] for leaf in conj if not leaf[3])


# --------------------------------------------------------------------------- validation


def _suggest(word: str, options: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _shown(values: Sequence[str], limit: int = 12) -> str:
    vs = [quote(v) for v in values[:limit]]
    return ", ".join(vs) + (", …" if len(values) > limit else "")


def _unknown_feature(kb: KB, name: str, left_out: Mapping[str, str] | None, lineno: int,
                     col: int | None) -> ClauseSyntaxError:
    """The one message for a rule naming a feature the model does not have: a column the fit
    left out (`left_out`: column → why, e.g. `Schema.excluded`) is said to be so, and why —
    a rule can never fire on it —, any other name gets the nearest feature."""
    features = f"the model's features are {_shown(list(kb.features), 20)}"
    if left_out and name in left_out:
        return ClauseSyntaxError(f"column {name!r} was left out by the fit ({left_out[name]}), so "
                                 f"the model has no such feature and a rule cannot name it; "
                                 f"{features}", lineno, col)
    return ClauseSyntaxError(f"unknown feature {name!r}{_suggest(name, kb.features)}; {features}",
                             lineno, col)


def _check_literal(kb: KB | None, feature: str, value: str, lineno: int, name_col: int | None,
                   value_col: int | None, left_out: Mapping[str, str] | None = None) -> None:
    if kb is None:
        return
    if feature not in kb.domains:
        raise _unknown_feature(kb, feature, left_out, lineno, name_col)
    dom = kb.domains[feature]
    if value not in dom:
        raise ClauseSyntaxError(
            f"feature {feature!r} has no value {value!r}{_suggest(value, dom)}; its values are "
            f"{_shown(list(dom))}", lineno, value_col)


# --------------------------------------------------------------------------- parsing


def _parse_if(toks: list[Token], line: str, lineno: int, kb: KB | None,
              left_out: Mapping[str, str] | None = None) -> tuple[list[tuple[Literal, ...]], dict]:
    end_col = len(line.rstrip()) + 1
    _check_conditions(sum(1 for t in toks if t.kind in ("=", "!=")), lineno, toks[0].col)
    # metadata: a trailing [ … ]
    meta: dict[str, Any] = {}
    opens = [i for i, t in enumerate(toks) if t.kind == "["]
    if opens:
        o = opens[-1]
        if toks[-1].kind != "]":
            raise ClauseSyntaxError("missing ']' at the end of the rule", lineno, end_col)
        meta = parse_meta(toks[o + 1:-1], lineno, toks[o], allowed=RULE_FIELDS)
        body, meta_tok = toks[:o], toks[o]
    else:
        body, meta_tok = toks, None
    p = _Parser(body, lineno, meta_tok.col if meta_tok else end_col, line, kb, left_out)
    p.expect_kw("IF", "at the start of the rule")
    cond = p.condition()
    p.expect_kw("THEN", "after the condition")
    negated = False
    while p.peek() is not None and (p.peek().kw() == "NOT" or p.peek().kind in ("~", "¬")):
        negated = not negated
        p.i += 1
    head = p.peek()
    if head is None or head.kw() != "POS":
        raise p.fail("the conclusion must be POS or NOT POS", head)
    p.i += 1
    if p.peek() is not None:
        raise p.fail(f"unexpected {p.peek().text!r} after the conclusion (probability and weight "
                     "go in brackets: [p=0.9, w=5])", p.peek())
    if "p" not in meta:
        raise ClauseSyntaxError("the rule needs a probability in brackets, e.g. [p=0.9] or "
                                "[p=0.9, w=5]", lineno, meta_tok.col if meta_tok else end_col)
    conj = _dnf(cond)
    if not conj:
        raise ClauseSyntaxError("the condition can never hold: it leaves out every bin the model "
                                "knows", lineno, toks[0].col)
    if len(conj) > MAX_CLAUSES_PER_RULE:
        raise ClauseSyntaxError(f"the condition expands to more than {MAX_CLAUSES_PER_RULE} "
                                "clauses; split the rule", lineno, toks[0].col)
    clauses: list[tuple[Literal, ...]] = []
    first_conflict = None
    for c in conj:
        lits: dict[tuple[str, str], tuple] = {}
        eq: dict[str, tuple] = {}
        bad = None
        for leaf in c:
            _, f, v, neg, nt, vt = leaf
            _check_literal(kb, f, v, lineno, nt.col, vt.col, left_out)
            if (f, v) in lits and lits[(f, v)][3] != neg:
                bad = (leaf, f"{f}={v} and NOT {f}={v} cannot both hold")
            if not neg:
                if f in eq and eq[f][2] != v:
                    bad = (leaf, f"{f} cannot be both {eq[f][2]} and {v}")
                eq[f] = leaf
            lits.setdefault((f, v), leaf)
        if bad is not None:
            first_conflict = first_conflict or bad
            continue
        # condition a=v (not negated) → ¬a=v in the clause; NOT a=v → a=v
        body_lits = tuple(Literal(f, v, not leaf[3]) for (f, v), leaf in lits.items())
        clause = (Literal(POS, None, negated),) + body_lits
        if clause not in clauses:
            clauses.append(clause)
    if not clauses:
        leaf, msg = first_conflict
        raise ClauseSyntaxError(f"the condition can never hold: {msg}", lineno, leaf[4].col)
    return clauses, meta


def _parse_raw(toks: list[Token], lineno: int, kb: KB | None,
               left_out: Mapping[str, str] | None = None) -> tuple[list[tuple[Literal, ...]], dict]:
    c = clause_from_tokens(toks, lineno)
    # positions of each literal's name and value tokens, for error messages
    close = next(i for i, t in enumerate(toks) if t[0] == "]")
    pos: list[tuple[int, int | None]] = []
    i = close + 1
    while i < len(toks):
        kind, _, col = toks[i]
        if kind in ("w", "q"):
            if i + 2 < len(toks) and toks[i + 1][0] in ("=", "!="):
                pos.append((col, toks[i + 2][2]))
                i += 3
                continue
            pos.append((col, None))
        i += 1
    plain = {lit.atom for e in (kb.extra if kb else ()) for lit in e.literals
             if not lit.is_feature and not lit.is_class}
    for lit, (ncol, vcol) in zip(c.literals, pos):
        if lit.is_feature:
            _check_literal(kb, lit.atom, lit.value, lineno, ncol, vcol, left_out)
        elif not lit.is_class and kb is not None and lit.atom not in plain:
            if lit.atom in kb.domains or (left_out and lit.atom in left_out):
                if lit.atom not in kb.domains:
                    raise _unknown_feature(kb, lit.atom, left_out, lineno, ncol)
                raise ClauseSyntaxError(f"{lit.atom!r} is a feature: write {quote(lit.atom)}=<value>",
                                        lineno, ncol)
            raise ClauseSyntaxError(f"unknown name {lit.atom!r}{_suggest(lit.atom, kb.features)}",
                                    lineno, ncol)
    meta = {"p": (c.p, None), "w": (c.w, None)}
    if c.id is not None:
        meta["id"] = (c.id, None)
    if not c.enabled:
        meta["enabled"] = (False, None)
    return [c.literals], meta


def _used_ids(kb: KB | None) -> set[str]:
    return {c.id for c in kb.extra if c.id is not None} if kb is not None else set()


def _groups(ids: Iterable[str]) -> set[str]:
    return {rule_group(i) for i in ids}


def _check_size(text: str | Iterable[str]) -> list[str]:
    if isinstance(text, str):
        if len(text) > MAX_RULES_CHARS:
            raise ClauseSyntaxError(f"the rule text has {len(text):,} characters; at most "
                                    f"{MAX_RULES_CHARS:,} are read at once")
        return split_lines(text)
    lines, total = [], 0
    for ln in text:
        total += len(ln)
        if total > MAX_RULES_CHARS:
            raise ClauseSyntaxError(f"the rule text has more than {MAX_RULES_CHARS:,} characters; "
                                    "that is the most read at once")
        lines.extend(split_lines(ln))
    return lines


def parse_rules(text: str | Iterable[str], kb: KB | None = None,
                left_out: Mapping[str, str] | None = None, taken: Iterable[str] = (),
                need_w: str | None = None) -> list[WeightedClause]:
    """Parse rules (one per line) into weighted clauses with source "rule".

    With `kb`, every feature and value is checked against `kb.features` / `kb.domains` (a
    `ClauseSyntaxError` gives the line and the column of the offending token) and rules without
    an `id=` get fresh ids that do not clash with the KB's (`r1`, `r2`, …; the clauses of an
    OR rule `r3.1`, `r3.2`, …). Without `kb`, single-clause rules keep id None (`kb.add`
    numbers them) and the parts of an OR rule get none either — pass `kb` (or use
    `add_rules`) to keep them under one id. `left_out` (column → why the fit left it out,
    `Schema.excluded` / `PLXClassifier.excluded_`) makes a rule naming such a column say so
    rather than "unknown feature". `taken`: ids in use beside `kb`'s (another class's KB of
    one model), not given again. A rule with the same conditions and conclusion as an earlier
    line, or as a rule of `kb`, is refused naming its line and that line or rule id: it would
    count its weight twice. Only \\n, \\r\\n and \\r end a line; text longer than
    MAX_RULES_CHARS is refused before it is read. `need_w`: a rule typed without its weight
    is refused with these words (the dashboard's: no weight is guessed), else it weighs 1.
    """
    lines = _check_size(text)
    used = _used_ids(kb) | set(taken)
    groups = _groups(used)
    have: dict[frozenset, str] = {} if kb is None else {  # a rule's clause → where it stands
        frozenset(c.literals): f"is already in the model as {rule_group(c.id or '')}: edit "
        "its p or w instead" for c in kb.rules}
    out: list[WeightedClause] = []
    pending: list[tuple[list[tuple[Literal, ...]], dict, int]] = []
    for lineno, line in enumerate(lines, start=1):
        toks = tokenize(line, lineno)
        if not toks:
            continue
        if toks[0].kind == "[":
            clauses, meta = _parse_raw(toks, lineno, kb, left_out)
        elif toks[0].kw() == "IF":
            clauses, meta = _parse_if(toks, line, lineno, kb, left_out)
        else:
            raise ClauseSyntaxError("a rule starts with IF (IF … THEN POS [p=…]) or with its "
                                    "probability in brackets ([0.9] POS | ~a=v)", lineno, toks[0].col)
        if need_w is not None and "w" not in meta:
            raise ClauseSyntaxError(need_w, lineno)
        for lits in clauses:
            if (where := have.get(frozenset(lits))) is not None:
                part = " (a part of this line's OR rule)" if len(clauses) > 1 else ""
                raise ClauseSyntaxError(f"the rule {_clause_said(lits, line)}{part} {where} (the same "
                                        "conditions and conclusion would count twice)", lineno)
            have[frozenset(lits)] = f"repeats line {lineno}: keep one"
        if "id" in meta:
            rid, tok = meta["id"]
            clash = {rid} & (used | groups) or (
                len(clauses) > 1 and any(u.startswith(rid + ".") for u in used))
            if clash:
                raise ClauseSyntaxError(f"rule id {rid!r} is already used", lineno,
                                        tok.col if tok else None)
            used.add(rid)
            groups.add(rid)
        pending.append((clauses, meta, lineno))
    n = 1
    for clauses, meta, lineno in pending:
        if "id" in meta:
            rid = meta["id"][0]
        elif kb is not None:
            while f"r{n}" in used or f"r{n}" in groups:
                n += 1
            rid = f"r{n}"
            used.add(rid)
            groups.add(rid)
        else:
            rid = None
        p, w = meta["p"][0], meta.get("w", (1.0, None))[0]
        enabled = meta.get("enabled", (True, None))[0]
        for j, lits in enumerate(clauses, start=1):
            cid = rid if rid is None or len(clauses) == 1 else f"{rid}.{j}"
            try:
                out.append(WeightedClause(lits, p, w, "rule", id=cid, enabled=enabled))
            except DataError as exc:
                raise ClauseSyntaxError(str(exc), lineno) from None
    return out


def _clause_said(lits: tuple[Literal, ...], line: str) -> str:
    """One clause of a rule as `rule_text` writes it (the line itself if it cannot be)."""
    try:
        return rule_text(WeightedClause(lits, 1.0, source="rule"), meta=False)
    except DataError:
        return repr(line.strip())


# --------------------------------------------------------------------------- the conditions field


def parse_conditions(text: str, domains: Mapping[str, Sequence[str]] | None = None
                     ) -> list[tuple[str, str]]:
    """`a=v AND b=w` (also `&`, `∧`, commas, an optional leading IF) → [(feature, value), …].

    The same tokens, quoting and keywords as rule text, read leniently: an unquoted name or
    value is the text between the separators, so `worst radius=[13.5, 16.82)` reads as one
    condition. Where an unquoted `=` leaves the split open (`a = b=1`), `domains` picks the
    reading that names a known feature and value; quote the name when two readings fit.
    """
    if len(text) > MAX_RULES_CHARS:
        raise ClauseSyntaxError(f"the conditions have {len(text):,} characters; at most "
                                f"{MAX_RULES_CHARS:,} are read")
    toks = tokenize(text, 1, comments=False)
    _check_conditions(sum(1 for t in toks if t.kind in ("=", "!=")), 1, 1)
    if toks and toks[0].kw() == "IF":
        toks = toks[1:]
    parts: list[list[Token]] = [[]]
    for t in toks:
        kw = t.kw()
        if kw == "AND" or (t.kind == "w" and t.text in AND_WORDS):
            parts.append([])
            continue
        if kw in ("OR", "NOT", "THEN", "IF"):
            raise ClauseSyntaxError(
                f"{t.text!r} cannot be used here: conditions are feature=value joined by AND "
                "(write OR, NOT and parentheses as a whole rule: IF … THEN POS [p=…])", 1, t.col)
        parts[-1].append(t)
    out: list[tuple[str, str]] = []
    for part in parts if toks else []:
        if not part:
            raise ClauseSyntaxError("an empty condition (AND at the start or end, or twice in a "
                                    "row?)", 1, toks[-1].col)
        for seg in _comma_segments(part):
            if not seg:
                raise ClauseSyntaxError("an empty condition (two separators in a row?)", 1,
                                        part[0].col if part else 1)
            out.append(_condition(seg, text, domains))
    if out == [] and toks:
        raise ClauseSyntaxError("conditions are feature=value joined by AND", 1, toks[0].col)
    return out


def _comma_segments(part: list[Token]) -> list[list[Token]]:
    """Split at commas, then glue back each piece that holds no '=' (a comma inside a value)."""
    out: list[list[Token]] = []
    seg: list[Token] = []
    comma: Token | None = None
    for t in [*part, None]:
        if t is not None and t.kind != ",":
            seg.append(t)
            continue
        if out and comma is not None and not any(x.kind in ("=", "!=") for x in seg):
            out[-1].extend([comma, *seg])
        else:
            out.append(seg)
        seg, comma = [], t
    return out if part else []


def _span(toks: list[Token], text: str) -> str | None:
    """What these tokens say as one name or value: a lone quoted string, or the unquoted text
    they cover (None if quoted and unquoted pieces are mixed, or nothing is there)."""
    if not toks:
        return None
    if len(toks) == 1 and toks[0].kind == "q":
        return toks[0].text
    if any(t.kind == "q" for t in toks):
        return None
    last = toks[-1]
    out = text[toks[0].col - 1: last.col - 1 + len(last.text)]
    if len(out) >= 2 and out[0] == out[-1] == "'":  # 'b c' as typed in a form: single quotes
        out = out[1:-1]
    return out


def _condition(seg: list[Token], text: str,
               domains: Mapping[str, Sequence[str]] | None) -> tuple[str, str]:
    cuts = [i for i, t in enumerate(seg) if t.kind in ("=", "!=")]
    said = _span(seg, text) or seg[0].text
    name = seg[:cuts[0]] if cuts else seg
    if any(t.kind == "w" and _CMP_CHAR.search(t.text) for t in name) and not (
            domains is not None and _span(name, text) in domains):
        raise ClauseSyntaxError(f"{said}: a comparison goes in a whole rule (IF {said} THEN POS "
                                "[p=0.9]), read on the model's bins; this field takes "
                                "feature=value", 1, seg[0].col)
    if not cuts:
        raise ClauseSyntaxError(f"condition {_span(seg, text) or seg[0].text!r} needs the form "
                                "feature=value", 1, seg[0].col)
    readings = []
    for k in cuts:
        f, v = _span(seg[:k], text), _span(seg[k + 1:], text)
        if f is not None and v is not None:
            readings.append((f, v, seg[k]))
    if not readings:
        raise ClauseSyntaxError("a condition reads feature=value (quote a name or value that "
                                "holds '=' or quotes)", 1, seg[0].col)
    if domains is not None and len(readings) > 1:
        known = [r for r in readings if r[0] in domains and r[1] in domains[r[0]]]
        if len(known) > 1:
            raise ClauseSyntaxError(
                f"{_span(seg, text)!r} can be read as " + " or as ".join(
                    f"{quote(f)}={quote(v)}" for f, v, _ in known) + "; quote the name", 1, seg[0].col)
        if known:
            readings = known
    f, v, op = readings[0]
    if op.kind == "!=":
        raise ClauseSyntaxError(f"{f}!={v}: the conditions field takes feature=value; write "
                                "NOT in a whole rule (IF NOT a=v THEN POS [p=…])", 1, op.col)
    return f, v


# --------------------------------------------------------------------------- rendering


def conditions_text(conditions: Iterable[tuple[str, str]]) -> str:
    """(feature, value) pairs as `a=v AND b=w`; `parse_conditions` reads it back exactly."""
    return " AND ".join(condition_text(f, v) for f, v in conditions)


def features_text(features: Mapping[str, Any]) -> str:
    """An explanation's features as `a=v AND b=w` (`conditions_text`: quoted where needed,
    `"a=b"=<0.5` for a column named `a=b` binned to `<0.5`), so the CLI's column pastes into
    a rule or the Rules page's conditions field and `parse_conditions` reads it back (it
    was joined by '; ', which a condition reads as part of its value)."""
    return conditions_text((str(f), str(v)) for f, v in features.items())


def rule_clause(conditions: Sequence[tuple[str, str]], head: str = "POS", p: float = 0.9,
                w: float = 1.0, rule_id: str | None = None, enabled: bool = True) -> WeightedClause:
    """`IF a=v AND b=w THEN POS` (or NOT POS) with probability p and weight w, as the clause
    `POS ∨ ¬a=v ∨ ¬b=w` (`¬POS ∨ …`) with source "rule"."""
    h = head.strip().upper() if isinstance(head, str) else head
    if h not in ("POS", "NOT POS"):
        raise DataError(f"a rule concludes POS or NOT POS, not {head!r}")
    if not conditions:
        raise DataError("a rule needs at least one condition (feature = value)")
    _check_conditions(len(conditions))
    lits = [Literal(POS, None, h == "NOT POS")] + [Literal(f, v, True) for f, v in conditions]
    # p and w as given: WeightedClause refuses True or "0.9" (float() read them as 1.0, 0.9)
    return WeightedClause(tuple(lits), p, w, source="rule", id=rule_id, enabled=enabled)


def _check_conditions(n: int, lineno: int | None = None, col: int | None = None) -> None:
    """At most MAX_CONDITIONS conditions in one rule, however it was written (the rule text,
    the form's conditions field, `rule_clause`): trust23, the form's field had no cap."""
    if n > MAX_CONDITIONS:
        raise ClauseSyntaxError(f"the rule has {n:,} conditions; at most {MAX_CONDITIONS:,} "
                                "are allowed in one rule", lineno, col)


# --------------------------------------------------------------------------- managing rules


def add_rules(kb: KB, rules: str | WeightedClause | Iterable[WeightedClause],
              left_out: Mapping[str, str] | None = None) -> list[str]:
    """Parse (if text) against `kb` (`left_out` as `parse_rules`), add in place, and return
    the ids of the added clauses."""
    if isinstance(rules, str):
        clauses = parse_rules(rules, kb, left_out)
    else:
        clauses = [rules] if isinstance(rules, WeightedClause) else list(rules)
        clauses = [c if c.source == "rule" else replace(c, source="rule") for c in clauses]
    before = len(kb.extra)
    kb.add(clauses)
    return [c.id for c in kb.extra[before:]]


def _rule_members(kb: KB, rule_id: str) -> list[int]:
    exact = [i for i, c in enumerate(kb.extra) if c.source == "rule" and c.id == rule_id]
    if exact:
        return exact
    parts = [i for i, c in enumerate(kb.extra)
             if c.source == "rule" and c.id is not None and re.fullmatch(re.escape(rule_id) + r"\.\d+", c.id)]
    if not parts:
        known = sorted(_groups(c.id for c in kb.rules if c.id is not None))
        raise DataError(f"no rule with id {rule_id!r}; rules are {known}")
    return parts


def edit_rule(kb: KB, rule_id: str, **changes: Any) -> KB:
    """Change `p`, `w` or `enabled` of a rule (all its clauses, for an OR rule), in place."""
    allowed = {"p", "w", "enabled"}
    if set(changes) - allowed:
        raise DataError(f"a rule's {sorted(set(changes) - allowed)} cannot be edited this way; "
                        "use replace_rule to change its text")
    for i in _rule_members(kb, rule_id):
        kb.set_rule(kb.extra[i].id, **changes)
    return kb


def enable_rule(kb: KB, rule_id: str, enabled: bool = True) -> KB:
    return edit_rule(kb, rule_id, enabled=enabled)


def disable_rule(kb: KB, rule_id: str) -> KB:
    return edit_rule(kb, rule_id, enabled=False)


def remove_rule(kb: KB, rule_id: str) -> KB:
    """Remove a rule (every clause of an OR rule), in place."""
    for i in sorted(_rule_members(kb, rule_id), reverse=True):
        del kb.extra[i]
    return kb


def replace_rule(kb: KB, rule_id: str, text: str) -> list[str]:
    """Replace a rule by new rule text (one rule), keeping its id; returns the new clause ids."""
    members = _rule_members(kb, rule_id)
    group = rule_id
    saved = [kb.extra[i] for i in members]
    remove_rule(kb, rule_id)
    try:
        lines = [ln for ln in _check_size(text) if tokenize(ln)]
        if len(lines) != 1:
            raise ClauseSyntaxError(f"replace_rule takes one rule, got {len(lines)} lines", 1)
        new = parse_rules(lines[0], kb)
        if len(new) == 1:
            new = [replace(new[0], id=group)]
        else:
            new = [replace(c, id=f"{group}.{j}") for j, c in enumerate(new, start=1)]
        kb.add(new)
    except Exception:
        kb.extra.extend(saved)
        raise
    return [c.id for c in new]


def rule_text(clauses: WeightedClause | Sequence[WeightedClause], meta: bool = True,
              with_id: bool = False, sep: str = "=") -> str:
    """`IF … THEN POS [p=…, w=…]` for a rule's clause(s) (an OR rule joins its clauses with
    OR; `meta=False` leaves out the brackets, `with_id=True` adds `id=`); clauses of another
    shape are shown in the raw clause syntax. Names and values are quoted where needed, so
    `parse_rules` reads the text back as the same clauses (`sep` " = " for prose)."""
    cs = [clauses] if isinstance(clauses, WeightedClause) else list(clauses)
    heads = set()
    for c in cs:
        cls_lits = [lit for lit in c.literals if lit.is_class]
        body = [lit for lit in c.literals if not lit.is_class]
        if len(cls_lits) != 1 or not body or any(not lit.is_feature for lit in body):
            return "\n".join(x.to_text() for x in cs)
        heads.add(cls_lits[0].negated)
    if len(heads) != 1 or len({(c.p, c.w, c.enabled) for c in cs}) != 1:
        return "\n".join(x.to_text() for x in cs)
    conds = _folded([[(lit.atom, lit.value, not lit.negated) for lit in c.literals
                      if not lit.is_class] for c in cs], sep)
    if len(conds) == 1:
        cond = " AND ".join(conds[0])
    else:
        cond = " OR ".join(p[0] if len(p) == 1 else "(" + " AND ".join(p) + ")" for p in conds)
    text = f"IF {cond} THEN {'NOT POS' if heads.pop() else 'POS'}"
    if not meta:
        return text
    c0 = cs[0]
    fields = [f"p={format_number(c0.p)}"]
    if c0.w != 1.0:
        fields.append(f"w={format_number(c0.w)}")
    if with_id and c0.id is not None:
        fields.append(f"id={quote(rule_group(c0.id) if len(cs) > 1 else c0.id)}")
    if not c0.enabled:
        fields.append("off")
    return f"{text} [{', '.join(fields)}]"


Cond = tuple[str, str, bool]  # (feature, value, NOT)


def _run(values: set[str]) -> tuple[str | None, str | None] | None:
    """The span of number bins `values` when they are one run without a gap (each bin's upper
    edge the next one's lower), as (lower, upper) edges written as in the labels; None if not."""
    spans = [bin_span(v) for v in values]
    read = bin_reading(values)  # plain numbers, 17:00, 1h30m: not a category `<a`, a date
    if read is None or any(sp is None or sp == (None, None) for sp in spans):
        return None

    def at(e: str) -> float:
        return float(cut_value(e, read[1]))  # type: ignore[arg-type]

    spans.sort(key=lambda sp: -np.inf if sp[0] is None else at(sp[0]))
    if any(a[1] is None or b[0] is None or at(a[1]) != at(b[0])
           for a, b in zip(spans, spans[1:])):
        return None
    return spans[0][0], spans[-1][1]


def _compared(feature: str, lo: str | None, hi: str | None) -> list[str]:
    """A run of bins as the comparison(s) `_resolve` reads back as those bins."""
    name = name_text(feature)
    return ([f"{name} >= {lo}"] if lo is not None else []) + (
        [f"{name} < {hi}"] if hi is not None else [])


def _folded(conjs: list[list[Cond]], sep: str = "=") -> list[list[str]]:
    """A rule's conjunctions as condition texts, each run of one number column's bins that the
    rule's OR spelled out bin by bin (`IF crp >= 50` is one clause per bin) written back as the
    comparison: every conjunction names the column once, the rest of the conjunctions is the
    same for each bin, and the bins are one run without a gap reaching an open end or at least
    two wide (one middle bin reads best as itself)."""
    first = conjs[0]
    for pos, (f, _v, neg) in enumerate(first):
        if neg or any(sum(c[0] == f for c in cj) != 1 for cj in conjs):
            continue
        rests: dict[tuple[Cond, ...], set[str]] = {}
        for cj in conjs:
            rest = tuple(c for c in cj if c[0] != f)
            rests.setdefault(rest, set()).update(c[1] for c in cj if c[0] == f and not c[2])
        runs = list(rests.values())
        if any(len(r) != len(runs[0]) or r != runs[0] for r in runs) or any(
                c[0] == f and c[2] for cj in conjs for c in cj):
            continue
        span = _run(runs[0])
        if span is None or span == (None, None) or (len(runs[0]) < 2 and None not in span):
            continue
        cmp = _compared(f, *span)
        return [cond[:pos] + cmp + cond[pos:] for cond in _folded(list(map(list, rests)), sep)] \
            if any(rests) else [cmp]
    return [[condition_text(f, v, neg, sep) for f, v, neg in cj] for cj in conjs]


def rule_group(clause_id: str) -> str:
    """The rule a clause id belongs to: `r3` for the parts `r3.1`, `r3.2` of an OR rule (only
    the last `.N` is the part's number: `my.rule.2` is a part of `my.rule`)."""
    head, _, tail = clause_id.rpartition(".")
    return head if head and tail.isdecimal() else clause_id


def rule_groups(rules: KB | Iterable[WeightedClause]) -> list[tuple[str, list[WeightedClause]]]:
    """(rule id, its clauses) in order: the clauses of an OR rule under one id."""
    members: dict[str, list[WeightedClause]] = {}
    for c in (rules.rules if isinstance(rules, KB) else rules):
        members.setdefault(rule_group(c.id or ""), []).append(c)
    return list(members.items())


def rules_text(rules: KB | Iterable[WeightedClause]) -> str:
    """Every rule, one per line with its id; `parse_rules(text, kb.without_rules())` gives the
    same clauses back (ids, p, w, enabled included) — the form to store or export rules in."""
    lines = []
    for _, cs in rule_groups(rules):
        text = rule_text(cs, with_id=True)
        if "\n" in text:  # clauses that share an id but not a shape: one raw line each
            lines.extend(text.split("\n"))
        else:
            lines.append(text)
    return "".join(line + "\n" for line in lines)


def list_rules(kb: KB | Iterable[WeightedClause]) -> pd.DataFrame:
    """One row per rule (an OR rule is one row): id, text, clauses, n_clauses, p, w, enabled."""
    rows = []
    for g, cs in rule_groups(kb):
        rows.append({
            "id": g,
            "rule": rule_text(cs),
            "clauses": " ; ".join(c.to_text() for c in cs),
            "n_clauses": len(cs),
            "p": cs[0].p,
            "w": cs[0].w,
            "enabled": all(c.enabled for c in cs),
        })
    cols = ["id", "rule", "clauses", "n_clauses", "p", "w", "enabled"]
    return pd.DataFrame(rows, columns=cols)


def with_rules(kb: KB, rules: str | WeightedClause | Iterable[WeightedClause] = (),
               replace: bool = False) -> KB:
    """`kb` plus rules (text is parsed against `kb`) as a new KB that shares the learned
    clauses and their lookup index (see `KB.with_rules`); `kb` itself is unchanged."""
    if isinstance(rules, str):
        rules = parse_rules(rules, kb.without_rules() if replace else kb)
    elif isinstance(rules, WeightedClause):
        rules = [rules]
    return kb.with_rules(rules, replace=replace)


# --------------------------------------------------------------------------- rule effect


@dataclass(frozen=True)
class RuleEffect:
    """What a rule set does on a test set: decisions that flip, scores before and after, and
    the inconsistency the rules add (mean over rows of the LP/median optimum, after − before).

    `flips` has one row per test row whose decision changes (its index label, the true label
    as 0/1, bounds and decision before and after, and whether it became right or wrong).
    """

    n: int
    accuracy_before: float
    accuracy_after: float
    f1_before: float
    f1_after: float
    n_flipped: int
    n_fixed: int
    n_broken: int
    inconsistency_before: float | None
    inconsistency_after: float | None
    inconsistency_added: float | None
    flips: pd.DataFrame
    rules: list[str]

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["flips"] = self.flips.to_dict(orient="records")
        for r in d["flips"]:
            r["row"] = str(r["row"])
        return _jsonable(d)

    def summary(self) -> str:
        inc = ("" if self.inconsistency_added is None
               else f"; inconsistency +{self.inconsistency_added:.4g} per row")
        return (f"{self.n_flipped} of {self.n} decisions flip ({self.n_fixed} fixed, "
                f"{self.n_broken} broken); accuracy {self.accuracy_before:.3f} → "
                f"{self.accuracy_after:.3f}, F1 {self.f1_before:.3f} → {self.f1_after:.3f}{inc}")


def _scores(y: np.ndarray, pred: np.ndarray) -> tuple[float, float]:
    acc = float((y == pred).mean())
    tp = int((y & pred).sum())
    denom = int(y.sum() + pred.sum())
    return acc, (2 * tp / denom if denom else 0.0)


def _inconsistency(kb: KB, X: pd.DataFrame, sem: str) -> np.ndarray:
    out = np.zeros(len(X))
    for i, row in enumerate(X.itertuples(index=False, name=None)):
        q = {f: v for f, v in zip(X.columns, row)}
        out[i] = query(kb, q, semantics=sem).inconsistency
    return out


def rule_effect(
    kb: KB,
    rules: str | WeightedClause | Iterable[WeightedClause] | None,
    X_test: Any,
    y_test: Any,
    semantics: str = "auto",
    inconsistency: bool = True,
) -> RuleEffect:
    """Compare `kb` with `kb` + `rules` on a test set (rule text is parsed against `kb`).
    With `rules=None`, compare the KB without its rules against the KB as it is.
    Inconsistent rules are fine: the answers stay defined and the added inconsistency is
    reported (`inconsistency=False` skips that per-row measurement)."""
    from .encoding import as_frame

    X = as_frame(X_test, features=kb.features)
    if rules is None:
        before, after = kb.without_rules(), kb
        added = kb.rules
    else:
        if isinstance(rules, str):
            added = parse_rules(rules, kb)
        else:
            added = [rules] if isinstance(rules, WeightedClause) else list(rules)
        before, after = kb, kb.with_rules(added)
        added = after.extra[len(kb.extra):]
    positive = kb.positive
    arr = np.asarray(y_test.to_numpy() if hasattr(y_test, "to_numpy") else y_test, dtype=object)
    if len(arr) != len(X):
        raise DataError(f"X_test has {len(X)} rows but y_test has {len(arr)}")
    if positive is not None:
        y = np.array([value_str(v) == value_str(positive) for v in arr])
    else:
        y = binary_target(arr)[0].astype(bool)
    b0 = query_many(before, X, semantics=semantics)
    b1 = query_many(after, X, semantics=semantics)
    p0, p1 = b0.positive, b1.positive
    acc0, f10 = _scores(y, p0)
    acc1, f11 = _scores(y, p1)
    flip = np.flatnonzero(p0 != p1)
    flips = pd.DataFrame({
        "row": X.index[flip],
        "label": y[flip].astype(int),
        "lower_before": b0.lower[flip], "upper_before": b0.upper[flip],
        "mean_before": b0.mean[flip], "positive_before": p0[flip],
        "lower_after": b1.lower[flip], "upper_after": b1.upper[flip],
        "mean_after": b1.mean[flip], "positive_after": p1[flip],
        "fixed": p1[flip] == y[flip],
    })
    inc0 = inc1 = inc_add = None
    if inconsistency:
        sem = semantics
        i0 = _inconsistency(before, X, sem)
        i1 = _inconsistency(after, X, sem)
        inc0, inc1 = float(i0.mean()), float(i1.mean())
        inc_add = float((i1 - i0).mean())
    n_fixed = int(flips["fixed"].sum())
    return RuleEffect(
        n=len(X), accuracy_before=acc0, accuracy_after=acc1, f1_before=f10, f1_after=f11,
        n_flipped=len(flip), n_fixed=n_fixed, n_broken=len(flip) - n_fixed,
        inconsistency_before=inc0, inconsistency_after=inc1, inconsistency_added=inc_add,
        flips=flips, rules=[c.to_text() for c in added],
    )


__all__ = [
    "MAX_CONDITIONS",
    "MAX_NESTING",
    "MAX_RULES_CHARS",
    "RuleEffect",
    "add_rules",
    "condition_text",
    "conditions_text",
    "disable_rule",
    "edit_rule",
    "enable_rule",
    "list_rules",
    "next_rule_id",
    "parse_conditions",
    "parse_rules",
    "remove_rule",
    "replace_rule",
    "rule_clause",
    "rule_effect",
    "rule_group",
    "rule_groups",
    "rule_text",
    "rules_text",
    "with_rules",
]

