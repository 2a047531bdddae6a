"""The KB's JSON codec (format "plx-kb", version 1)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .clause import MAX_COUNT, SOURCES, Literal, WeightedClause
from .errors import ClauseSyntaxError, DataError
from .plurals import noun
from .textformat import parse_literals
from .tokens import tokenize

if TYPE_CHECKING:
    from .kb import KB

JSON_FORMAT = "plx-kb"
JSON_VERSION = 1



def _clause_json(c: WeightedClause) -> dict[str, Any]:
    out: dict[str, Any] = {"literals": [str(lit) for lit in c.literals], "p": c.p}
    if c.w != 1.0:
        out["w"] = c.w
    if c.source != "data":
        out["source"] = c.source
    if c.support is not None:
        out["support"] = c.support
    if c.positives is not None:
        out["positives"] = c.positives
    if c.id is not None:
        out["id"] = c.id
    if not c.enabled:
        out["enabled"] = False
    return out


def learned_json(kb: KB) -> list[str]:
    """The JSON object of every learned clause (as `json.dumps(_clause_json(clause))` would
    write it), built column by column: linear and vectorised, no clause objects."""
    import numpy as np
    import pandas as pd

    m = kb.n_learned
    if m == 0:
        return []
    out = pd.Series(np.where(kb.head > 0, '{"literals": ["POS"', '{"literals": ["~POS"'),
                    dtype=object)
    for j, f in enumerate(kb.features):
        col = kb.codes[:, j]
        present = col >= 0
        if not present.any():
            continue
        texts = [", " + json.dumps(str(Literal(f, v, True)), ensure_ascii=False)
                 for v in kb.domains[f]]
        out = out + np.asarray(texts + [""], dtype=object)[np.where(present, col, len(texts))]
    out = out + '], "p": ' + pd.Series(kb.p).map(float.__repr__)
    if np.any(kb.w != 1.0):
        out = out + np.where(kb.w != 1.0, ', "w": ' + pd.Series(kb.w).map(float.__repr__), "")
    if np.any(kb.source != 0):
        names = np.asarray([f', "source": "{s}"' for s in SOURCES], dtype=object)
        out = out + np.where(kb.source != 0, names[kb.source], "")
    for name, arr in (("support", kb.support), ("positives", kb.positives)):
        if np.any(arr >= 0):
            out = out + np.where(arr >= 0, f', "{name}": ' + pd.Series(arr).astype(str), "")
    return list(out + "}")


def _kb_from_json(text: str | bytes) -> KB:

    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ClauseSyntaxError(f"KB JSON is not UTF-8 (byte {exc.start})") from None
    doc = load_json(text, "KB JSON")
    return kb_from_document(doc, text)


class _KeyTwice(ValueError):
    """A JSON object names one key twice (`_unique_keys`)."""


def _first_twice(pairs: list[tuple[str, Any]], d: dict[str, Any]) -> str | None:
    """The first key a JSON object's `pairs` name twice (`d`: their dict), None when none is."""
    if len(d) == len(pairs):
        return None
    seen: set[str] = set()
    return next(k for k, _ in pairs if k in seen or seen.add(k))


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's dict, refused when it names a key twice: json.loads keeps the last
    silently, so a schema naming a column twice (an edited file, two files joined) would be
    read as one of them without a word."""
    d = dict(pairs)
    if (twice := _first_twice(pairs, d)) is not None:
        raise _KeyTwice(twice)
    return d


class _Twice(dict):
    """A JSON object read on the error path, marked with the first key it names twice."""

    twice: str | None = None


def _twice_path(text: str) -> str:
    """Where the first object naming a key twice sits in `text` ("schema.bins"; "" for the
    document itself): read again, only to say so."""
    def mark(pairs: list[tuple[str, Any]]) -> _Twice:
        d = _Twice(pairs)
        d.twice = _first_twice(pairs, d)
        return d

    stack: list[tuple[str, Any]] = [("", json.loads(text, object_pairs_hook=mark))]
    while stack:
        path, node = stack.pop()
        if isinstance(node, _Twice) and node.twice is not None:
            return path
        items = node.items() if isinstance(node, dict) else enumerate(node) \
            if isinstance(node, list) else ()
        for k, v in reversed(list(items)):
            if isinstance(v, (dict, list)):
                stack.append((f"{path}[{k}]" if isinstance(k, int) else
                              f"{path}.{k}" if path else str(k), v))
    return ""


def load_json(text: str, what: str) -> Any:
    """json.loads with one clear error for malformed or too deeply nested documents, and for
    an object naming a key twice (`_unique_keys`: which one holds is not guessed)."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except _KeyTwice as exc:
        path = _twice_path(text)
        field = f"field {path!r} names" if path else "the document names"
        raise ClauseSyntaxError(f"{what}: {field} {exc.args[0]!r} twice (which one holds is "
                                "not guessed: keep one)") from None
    except json.JSONDecodeError as exc:
        if exc.pos >= len(text.rstrip()) and text.strip():  # a copy that stopped part way
            raise ClauseSyntaxError(f"{what} is not valid JSON (invalid JSON: it ends before "
                                    "the document does: cut short? copy or save it again)",
                                    exc.lineno, exc.colno) from None
        raise ClauseSyntaxError(f"{what} is not valid JSON (invalid JSON: {exc.msg})", exc.lineno, exc.colno) from None
    except RecursionError:
        raise ClauseSyntaxError(f"{what} is nested too deeply to be a plx file") from None
    except ValueError as exc:  # an integer past Python's digit limit for int()
        raise ClauseSyntaxError(f"{what} holds a number too long to read ({exc.args[0].split(':')[0]})"
                                ) from None


def saved_state(doc: Any, kb: KB, where: str = "") -> dict[str, Any]:
    """A KB file's `KB.saved_state` fields ("n_rows", "rule_only"), checked against the KB
    read (`where` prefixes the one-line error); {} when the file has none."""
    if not isinstance(doc, dict):
        raise ClauseSyntaxError(where + "must be a JSON object")
    out: dict[str, Any] = {}
    n = doc.get("n_rows")
    if n is not None:
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ClauseSyntaxError(where + f"field 'n_rows' must be a positive integer, got {n!r}")
        out["n_rows"] = n
    only = doc.get("rule_only")
    if only is not None:
        if not isinstance(only, dict) or not all(
                isinstance(v, list) and all(isinstance(x, str) for x in v) for v in only.values()):
            raise ClauseSyntaxError(where + "field 'rule_only' must map feature names to lists "
                                    "of strings")
        for f, vals in only.items():
            missing = [v for v in vals if v not in kb.domains.get(f, ())]
            if missing:
                raise ClauseSyntaxError(where + f"field 'rule_only': feature {f!r} has no value "
                                        f"{missing[0]!r} in 'domains'")
        out["rule_only"] = only
    return out


def kb_from_document(doc: Any, text: str | None = None, where: str = "") -> KB:
    """A KB from a parsed "plx-kb" JSON document (`text`, when given, lets errors name the
    line of a bad clause; it is only scanned when there is an error)."""
    from .kb import KB, KIND_RE

    def bad(msg: str) -> ClauseSyntaxError:
        return ClauseSyntaxError(where + msg, 1 if text is not None else None)

    if not isinstance(doc, dict):
        raise bad("KB JSON must be an object with 'format' and 'clauses'")
    if doc.get("format") != JSON_FORMAT:
        raise bad(f"field 'format' must be {JSON_FORMAT!r}, got {doc.get('format')!r}")
    if doc.get("version") != JSON_VERSION or isinstance(doc.get("version"), bool):
        raise bad(f"field 'version' must be {JSON_VERSION}, got {doc.get('version')!r}")
    features = doc.get("features", [])
    domains = doc.get("domains", {})
    if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
        raise bad("field 'features' must be a list of strings")
    seen: set[str] = set()
    for f in features:
        if f in seen:
            raise bad(f"field 'features' lists {f!r} twice")
        seen.add(f)
    if not isinstance(domains, dict) or not all(
        isinstance(v, list) and all(isinstance(x, str) for x in v) for v in domains.values()
    ):
        raise bad("field 'domains' must map feature names to lists of strings")
    for f, vals in domains.items():
        if len(set(vals)) != len(vals):
            dup = next(v for i, v in enumerate(vals) if v in vals[:i])
            raise bad(f"field 'domains': feature {f!r} lists the value {dup!r} twice")
    unknown = sorted(set(domains) - seen)
    if unknown:
        raise bad(f"field 'domains' names {unknown[:5]} not listed in 'features'")
    clauses = doc.get("clauses")
    if not isinstance(clauses, list):
        raise bad("field 'clauses' must be a list")
    kind = doc.get("kind", "general")
    if not isinstance(kind, str) or not KIND_RE.fullmatch(kind):
        raise bad(f"field 'kind' must be a short name such as \"direct\", got {kind!r}")
    positive = doc.get("positive")
    if positive is not None and not isinstance(positive, str):
        raise bad(f"field 'positive' must be a string or null, got {positive!r}")
    max_len = doc.get("max_len")
    if max_len is not None and (not isinstance(max_len, int) or isinstance(max_len, bool)
                                or max_len < 1):
        raise bad(f"field 'max_len' must be a positive integer or null, got {max_len!r}")
    doms = {f: tuple(domains.get(f, ())) for f in features}
    fast = _learned_columns(clauses, features, doms)
    if fast is not None:  # every clause a plain learned one: straight into the columns
        try:
            kb = KB(tuple(features), doms, *fast, kind=kind, positive=positive, max_len=max_len)
        except DataError as exc:
            raise bad(str(exc)) from None
        return kb.restore_state(saved_state(doc, kb, where))
    out = []
    for i, item in enumerate(clauses):
        try:
            out.append(_clause_from_json(item, i, None))
        except ClauseSyntaxError as exc:
            line = _element_line(text, i) if text is not None else None
            raise ClauseSyntaxError(where + str(exc), line) from None
    try:
        kb = KB(tuple(features), doms, kind=kind, positive=positive, max_len=max_len)
        kb.add(out)
    except DataError as exc:
        raise bad(str(exc)) from None
    return kb.restore_state(saved_state(doc, kb, where))


_LEARNED_KEYS = frozenset(("literals", "p", "w", "source", "support", "positives"))


def _learned_columns(clauses: list, features: list[str], domains: dict) -> tuple | None:
    """The KB columns when every clause is a plain learned one (`±POS ∨ ¬a=v …` over the
    declared features and values, valid p, w, source and counts) — one pass, each distinct
    literal string parsed once; None as soon as one is not (the general path then reads them
    all and names any error)."""
    import numpy as np

    from .clause import weight_problem

    fpos = {f: j for j, f in enumerate(features)}
    vpos = {f: {v: i for i, v in enumerate(vals)} for f, vals in domains.items()}
    cache: dict[str, tuple[int, int] | None] = {"POS": (-1, 1), "~POS": (-1, -1)}
    m, n_f = len(clauses), len(features)
    head, p, w, cells = [0] * m, [0.0] * m, [1.0] * m, []
    support, positives, source = [-1] * m, [-1] * m, [0] * m
    extras = {"support": support, "positives": positives}
    src_code = {s: i for i, s in enumerate(SOURCES) if s != "rule"}
    keys, get = _LEARNED_KEYS, cache.get
    for i, item in enumerate(clauses):
        if type(item) is not dict or not item.keys() <= keys:
            return None
        lits = item.get("literals")
        if type(lits) is not list:
            return None
        h = 0
        for s in lits:
            got = get(s) if type(s) is str else None
            if got is None:
                if type(s) is not str or s in cache:
                    return None
                got = cache[s] = _learned_literal(s, fpos, vpos)
                if got is None:
                    return None
            if got[0] < 0:
                if h:
                    return None
                h = got[1]
            else:
                cells.append((i, got[0], got[1]))
        if not h:
            return None
        head[i] = h
        pv = item.get("p")
        if type(pv) not in (int, float) or not 0 <= pv <= 1:
            return None
        p[i] = pv
        if len(item) > 2:
            if "w" in item:
                wv = item["w"]
                if type(wv) not in (int, float) or weight_problem(wv) is not None:
                    return None
                w[i] = wv
            if "source" in item:
                sc = src_code.get(item["source"]) if type(item["source"]) is str else None
                if sc is None:
                    return None
                source[i] = sc
            for key, arr in extras.items():
                if key in item:
                    v = item[key]
                    if type(v) is not int or not 0 <= v <= MAX_COUNT:  # the checked path says why
                        return None
                    arr[i] = v
    codes = np.full((m, n_f), -1, dtype=np.int32)
    if cells:
        rows, cols, vals = np.array(cells, dtype=np.int64).T
        codes[rows, cols] = vals
        if int((codes >= 0).sum()) != len(cells):  # a feature twice in one clause
            return None
    return (codes, np.array(head, np.int8), np.array(p, float), np.array(w, float),
            np.array(support, np.int64), np.array(positives, np.int64), np.array(source, np.int8))


def _learned_literal(s: str, fpos: dict, vpos: dict) -> tuple[int, int] | None:
    """(feature column, value code) of a negated feature literal `~a=v` the header declares."""
    try:
        lits = parse_literals(tokenize(s), None)
    except ClauseSyntaxError:
        return None
    if len(lits) != 1 or not lits[0].is_feature or not lits[0].negated:
        return None
    lit = lits[0]
    code = vpos.get(lit.atom, {}).get(lit.value)
    return None if code is None else (fpos[lit.atom], code)


def _element_line(text: str, index: int) -> int | None:
    """Line number of element `index` of the top-level 'clauses' array (best effort; one
    linear scan, done only to report an error)."""
    m = re.search(r'"clauses"\s*:\s*\[', text)
    if not m:
        return None
    dec = json.JSONDecoder()
    pos = m.end()
    for i in range(index + 1):
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return None
        if i == index:
            return text.count("\n", 0, pos) + 1
        try:
            _, pos = dec.raw_decode(text, pos)
        except (json.JSONDecodeError, RecursionError):
            return None
    return None


def _clause_from_json(item: Any, i: int, line: int | None) -> WeightedClause:
    where = f"clauses[{i}]"

    def fail(msg: str) -> ClauseSyntaxError:
        return ClauseSyntaxError(f"{where}: {msg}", line)

    if not isinstance(item, Mapping):
        raise fail("each clause must be an object")
    unknown = set(item) - {"literals", "p", "w", "source", "support", "positives", "id", "enabled"}
    if unknown:
        raise fail(f"unknown {noun(len(unknown), 'field')} {sorted(unknown)}")
    lits_raw = item.get("literals")
    if not isinstance(lits_raw, list) or not lits_raw or not all(isinstance(x, str) for x in lits_raw):
        raise fail("field 'literals' must be a non-empty list of strings like 'POS' or '~a=v'")
    try:
        lits: list[Literal] = []
        for s in lits_raw:
            lits.extend(parse_literals(tokenize(s, line), line))
    except ClauseSyntaxError as exc:
        raise fail(f"field 'literals': {exc}") from None
    for key, typ in (("p", (int, float)), ("w", (int, float))):
        if key in item and (not isinstance(item[key], typ) or isinstance(item[key], bool)):
            raise fail(f"field '{key}' must be a number, got {item[key]!r}")
    if "p" not in item:
        raise fail("field 'p' is missing")
    for key in ("support", "positives"):
        v = item.get(key)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
            raise fail(f"field '{key}' must be a non-negative integer, got {v!r}")
    if "enabled" in item and not isinstance(item["enabled"], bool):
        raise fail("field 'enabled' must be true or false")
    if "id" in item and item["id"] is not None and not isinstance(item["id"], str):
        raise fail("field 'id' must be a string")
    if "source" in item and item["source"] not in SOURCES:
        raise fail(f"field 'source' must be one of {list(SOURCES)}, got {item['source']!r}")
    try:
        return WeightedClause(
            tuple(lits), item["p"], item.get("w", 1.0), item.get("source", "data"),
            item.get("support"), item.get("positives"), item.get("id"), item.get("enabled", True),
        )
    except DataError as exc:
        raise fail(str(exc)) from None

