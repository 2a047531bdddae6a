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
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from .encoding import binary_target, value_str
from .errors import ClauseSyntaxError, DataError
from .explain import _jsonable
from .kb import KB, POS, Literal, WeightedClause, _tokenize, parse_clause
from .query import query, query_many

MAX_CLAUSES_PER_RULE = 64

# --------------------------------------------------------------------------- tokens

_RULE_TOKEN = re.compile(
    r'\s*(?:(?P<q>"(?:[^"\\]|\\.)*")|(?P<op>!=|[=()\[\],~¬])|(?P<w>[^\s=!()\[\],~¬"#]+))'
)
_KEYWORDS = ("IF", "THEN", "AND", "OR", "NOT", "POS")


@dataclass(frozen=True)
class _Tok:
    kind: str  # "w" word, "q" quoted, or the operator text
    text: str
    col: int  # 1-based column in the line

    def kw(self) -> str | None:
        if self.kind == "w" and self.text.upper() in _KEYWORDS:
            return self.text.upper()
        return None


def _strip_comment(line: str) -> str:
    """The line up to a `#` that is not inside double quotes."""
    inside, esc = False, False
    for i, ch in enumerate(line):
        if inside:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                inside = False
        elif ch == '"':
            inside = True
        elif ch == "#":
            return line[:i]
    return line


def _rule_tokens(line: str, lineno: int) -> list[_Tok]:
    toks, pos = [], 0
    while pos < len(line):
        if line[pos:].strip() == "":
            break
        m = _RULE_TOKEN.match(line, pos)
        if not m or m.end() == pos:
            col = pos + len(line[pos:]) - len(line[pos:].lstrip()) + 1
            raise ClauseSyntaxError(f"cannot read {line[col - 1:col + 19]!r}", lineno, col)
        col = m.start(m.lastgroup) + 1
        if m.lastgroup == "q":
            try:
                toks.append(_Tok("q", json.loads(m.group("q")), col))
            except json.JSONDecodeError:
                raise ClauseSyntaxError(f"bad quoted string {m.group('q')!r}", lineno, col) from None
        elif m.lastgroup == "op":
            toks.append(_Tok(m.group("op"), m.group("op"), col))
        else:
            toks.append(_Tok("w", m.group("w"), col))
        pos = m.end()
    return toks


# --------------------------------------------------------------------------- conditions

# A condition tree: ("lit", feature, value, negated, name_tok, value_tok) | ("and"|"or", [kids])
# | ("not", kid, tok)


class _Parser:
    def __init__(self, toks: list[_Tok], lineno: int, end_col: int):
        self.toks, self.i, self.lineno, self.end_col = toks, 0, lineno, end_col

    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def fail(self, msg: str, tok: _Tok | None = None) -> ClauseSyntaxError:
        col = tok.col if tok is not None else self.end_col
        return ClauseSyntaxError(msg, self.lineno, col)

    def expect_kw(self, kw: str, what: str) -> _Tok:
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
        t = self.peek()
        if t is None:
            raise self.fail("expected a condition such as a1=0, found the end of the line")
        if t.kw() == "NOT":
            self.i += 1
            return ("not", self.unit(), t)
        if t.kind == "(":
            self.i += 1
            inner = self.condition()
            close = self.peek()
            if close is None or close.kind != ")":
                raise self.fail("missing ')' to close the '(' "
                                f"at column {t.col}", close)
            self.i += 1
            return inner
        if t.kind not in ("w", "q") or t.kw() in ("IF", "THEN", "AND", "OR", "POS"):
            raise self.fail(f"expected a condition such as a1=0, found {t.text!r}", t)
        self.i += 1
        op = self.peek()
        if op is None or op.kind not in ("=", "!="):
            raise self.fail(f"condition on {t.text!r} needs '=' and a value, e.g. {t.text}=1",
                            op if op is not None else None)
        self.i += 1
        val = self.peek()
        if val is None or val.kind not in ("w", "q"):
            raise self.fail(f"{t.text}{op.text} needs a value (quote values with spaces or "
                            "brackets: a=\"[1, 2)\")", val)
        self.i += 1
        return ("lit", t.text, val.text, op.kind == "!=", t, val)


def _dnf(node: tuple, negate: bool = False) -> list[list[tuple]]:
    """Disjunctive normal form: a list of conjunctions of ("lit", …) leaves."""
    kind = node[0]
    if kind == "lit":
        _, f, v, neg, nt, vt = node
        return [[("lit", f, v, neg != negate, nt, vt)]]
    if kind == "not":
        return _dnf(node[1], not negate)
    op = kind
    if negate:  # De Morgan
        op = "or" if kind == "and" else "and"
    parts = [_dnf(k, negate) for k in node[1]]
    if op == "or":
        out = [c for p in parts for c in p]
    else:
        out = [[]]
        for p in parts:
            out = [a + b for a in out for b in p]
            if len(out) > MAX_CLAUSES_PER_RULE:
                break
    return out


# --------------------------------------------------------------------------- validation


def _suggest(word: str, options: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _shown(values: Sequence[str], limit: int = 12) -> str:
    vs = [json.dumps(v, ensure_ascii=False) if re.search(r'[\s=!()\[\],~¬"#]', v) or v == ""
          else v for v in values[:limit]]
    return ", ".join(vs) + (", …" if len(values) > limit else "")


def _check_literal(kb: KB | None, feature: str, value: str, lineno: int, name_col: int | None,
                   value_col: int | None) -> None:
    if kb is None:
        return
    if feature not in kb.domains:
        raise ClauseSyntaxError(
            f"unknown feature {feature!r}{_suggest(feature, kb.features)}; the KB's features are "
            f"{_shown(list(kb.features), 20)}", lineno, name_col)
    dom = kb.domains[feature]
    if value not in dom:
        raise ClauseSyntaxError(
            f"feature {feature!r} has no value {value!r}{_suggest(value, dom)}; its values are "
            f"{_shown(list(dom))}", lineno, value_col)


# --------------------------------------------------------------------------- parsing


def _parse_meta(toks: list[_Tok], lineno: int, open_tok: _Tok) -> dict[str, Any]:
    """`[p=0.9, w=5, id=x, off]` or `[0.9, w=5]` (tokens between the brackets)."""
    groups: list[list[_Tok]] = [[]]
    for t in toks:
        if t.kind == ",":
            groups.append([])
        else:
            groups[-1].append(t)
    meta: dict[str, Any] = {}
    for k, g in enumerate(groups):
        if not g:
            raise ClauseSyntaxError("empty field in brackets", lineno, open_tok.col)
        if k == 0 and len(g) == 1 and g[0].kind == "w" and _is_number(g[0].text):
            g = [_Tok("w", "p", g[0].col), _Tok("=", "=", g[0].col), g[0]]
        if len(g) == 1 and g[0].text.lower() in ("off", "disabled"):
            meta["enabled"] = (False, g[0])
            continue
        if len(g) != 3 or g[1].kind != "=" or g[0].text.lower() not in ("p", "w", "id"):
            raise ClauseSyntaxError(
                f"unknown field {' '.join(t.text for t in g)!r} in brackets (use p=…, w=…, "
                "id=…, off)", lineno, g[0].col)
        key, val = g[0].text.lower(), g[2]
        if key in ("p", "w"):
            if not _is_number(val.text):
                raise ClauseSyntaxError(f"{key} {val.text!r} is not a number", lineno, val.col)
            x = float(val.text)
            if key == "p" and not 0.0 <= x <= 1.0:
                raise ClauseSyntaxError(f"p={val.text} is outside [0, 1]", lineno, val.col)
            if key == "w" and not (0.0 < x < float("inf")):
                raise ClauseSyntaxError(f"w={val.text} must be a finite number > 0", lineno,
                                        val.col)
            meta[key] = (x, val)
        else:
            meta["id"] = (val.text, val)
    return meta


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def _parse_if(line: str, lineno: int, kb: KB | None) -> tuple[list[tuple[Literal, ...]], dict]:
    toks = _rule_tokens(line, lineno)
    end_col = len(line.rstrip()) + 1
    # metadata: a trailing [ … ]
    meta: dict[str, Any] = {}
    opens = [i for i, t in enumerate(toks) if t.kind == "["]
    if opens:
        o = opens[-1]
        if toks[-1].kind != "]":
            raise ClauseSyntaxError("missing ']' at the end of the rule", lineno, end_col)
        meta = _parse_meta(toks[o + 1:-1], lineno, toks[o])
        body, meta_tok = toks[:o], toks[o]
    else:
        body, meta_tok = toks, None
    p = _Parser(body, lineno, meta_tok.col if meta_tok else end_col)
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
            _check_literal(kb, f, v, lineno, nt.col, vt.col)
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


def _parse_raw(line: str, lineno: int, kb: KB | None) -> tuple[list[tuple[Literal, ...]], dict]:
    c = parse_clause(line, lineno)
    # positions of each literal's name and value tokens, for error messages
    toks = _tokenize(line, lineno)
    close = next(i for i, t in enumerate(toks) if t[0] == "]")
    pos: list[tuple[int, int | None]] = []
    i = close + 1
    while i < len(toks):
        kind, _, col = toks[i]
        if kind in ("w", "q"):
            if i + 2 < len(toks) and toks[i + 1][0] == "=":
                pos.append((col, toks[i + 2][2]))
                i += 3
                continue
            pos.append((col, None))
        i += 1
    plain = {lit.atom for e in (kb.extra if kb else ()) for lit in e.literals
             if not lit.is_feature and not lit.is_class}
    for lit, (ncol, vcol) in zip(c.literals, pos):
        if lit.is_feature:
            _check_literal(kb, lit.atom, lit.value, lineno, ncol, vcol)
        elif not lit.is_class and kb is not None and lit.atom not in plain:
            if lit.atom in kb.domains:
                raise ClauseSyntaxError(f"{lit.atom!r} is a feature: write {lit.atom}=<value>",
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
    return {i.split(".")[0] if re.fullmatch(r".+\.\d+", i) else i for i in ids}


def parse_rules(text: str | Iterable[str], kb: KB | None = None) -> list[WeightedClause]:
    """Parse rules (one per line) into weighted clauses with source "rule".

    With `kb`, every feature and value is checked against `kb.features` / `kb.domains` (a
    `ClauseSyntaxError` gives the line and the column of the offending token) and rules without
    an `id=` get fresh ids that do not clash with the KB's (`r1`, `r2`, …; the clauses of an
    OR rule `r3.1`, `r3.2`, …). Without `kb`, single-clause rules keep id None (`kb.add`
    numbers them) and the parts of an OR rule get none either — pass `kb` (or use
    `add_rules`) to keep them under one id.
    """
    lines = text.splitlines() if isinstance(text, str) else list(text)
    used = _used_ids(kb)
    groups = _groups(used)
    out: list[WeightedClause] = []
    pending: list[tuple[list[tuple[Literal, ...]], dict, int]] = []
    for lineno, raw in enumerate(lines, start=1):
        line = _strip_comment(raw)
        if not line.strip():
            continue
        start = line.lstrip()
        if start.startswith("["):
            clauses, meta = _parse_raw(line, lineno, kb)
        elif start[:2].upper() == "IF" and (len(start) == 2 or not start[2].isalnum()):
            clauses, meta = _parse_if(line, lineno, kb)
        else:
            col = len(line) - len(start) + 1
            raise ClauseSyntaxError("a rule starts with IF (IF … THEN POS [p=…]) or with its "
                                    "probability in brackets ([0.9] POS | ~a=v)", lineno, col)
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


# --------------------------------------------------------------------------- managing rules


def add_rules(kb: KB, rules: str | WeightedClause | Iterable[WeightedClause]) -> list[str]:
    """Parse (if text) against `kb`, add in place, and return the ids of the added clauses."""
    if isinstance(rules, str):
        clauses = parse_rules(rules, kb)
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
        lines = [ln for ln in text.splitlines() if _strip_comment(ln).strip()]
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


def rule_text(clauses: WeightedClause | Sequence[WeightedClause]) -> str:
    """`IF … THEN POS [p=…, w=…]` for a rule's clause(s) (an OR rule joins its clauses with
    OR); clauses of another shape are shown in the raw clause syntax."""
    cs = [clauses] if isinstance(clauses, WeightedClause) else list(clauses)
    conds, heads = [], set()
    for c in cs:
        cls_lits = [lit for lit in c.literals if lit.is_class]
        body = [lit for lit in c.literals if not lit.is_class]
        if len(cls_lits) != 1 or not body or any(not lit.is_feature for lit in body):
            return "\n".join(x.to_text() for x in cs)
        heads.add(cls_lits[0].negated)
        parts = [("" if lit.negated else "NOT ") + str(Literal(lit.atom, lit.value)) for lit in body]
        conds.append(parts)
    if len(heads) != 1 or len({(c.p, c.w, c.enabled) for c in cs}) != 1:
        return "\n".join(x.to_text() for x in cs)
    if len(conds) == 1:
        cond = " AND ".join(conds[0])
    else:
        cond = " OR ".join(p[0] if len(p) == 1 else "(" + " AND ".join(p) + ")" for p in conds)
    c0 = cs[0]
    meta = f"p={c0.p:g}" + (f", w={c0.w:g}" if c0.w != 1.0 else "") + ("" if c0.enabled else ", off")
    return f"IF {cond} THEN {'NOT POS' if heads.pop() else 'POS'} [{meta}]"


def list_rules(kb: KB) -> pd.DataFrame:
    """One row per rule (an OR rule is one row): id, text, clauses, p, w, enabled."""
    order: list[str] = []
    members: dict[str, list[WeightedClause]] = {}
    for c in kb.rules:
        cid = c.id or ""
        g = cid.split(".")[0] if re.fullmatch(r".+\.\d+", cid) else cid
        if g not in members:
            order.append(g)
            members[g] = []
        members[g].append(c)
    rows = []
    for g in order:
        cs = members[g]
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


def _with_rules(kb: KB, clauses: list[WeightedClause]) -> KB:
    after = kb.copy()
    after.add(clauses)
    # rules live in `extra`: the learned block and its lookup index are unchanged
    if after.n_learned == kb.n_learned and after.domains == kb.domains:
        after._index_cache = kb._index_cache
    return after


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
        if before.n_learned == kb.n_learned:
            before._index_cache = kb._index_cache
        added = kb.rules
    else:
        if isinstance(rules, str):
            added = parse_rules(rules, kb)
        else:
            added = [rules] if isinstance(rules, WeightedClause) else list(rules)
        before, after = kb, _with_rules(kb, added)
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
    "RuleEffect",
    "add_rules",
    "disable_rule",
    "edit_rule",
    "enable_rule",
    "list_rules",
    "parse_rules",
    "remove_rule",
    "replace_rule",
    "rule_effect",
    "rule_text",
]

