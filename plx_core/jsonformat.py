"""The KB's JSON codec (format "plx-kb", version 1)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .clause import Literal, WeightedClause
from .errors import ClauseSyntaxError, DataError
from .textformat import _tokenize, parse_literals

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


def _kb_from_json(text: str | bytes) -> KB:
    from .kb import KB  # the container imports this codec

    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ClauseSyntaxError(f"KB JSON is not UTF-8 (byte {exc.start})") from None
    dec = json.JSONDecoder()
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ClauseSyntaxError(f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    if not isinstance(doc, dict):
        raise ClauseSyntaxError("KB JSON must be an object with 'format' and 'clauses'", 1)
    if doc.get("format") != JSON_FORMAT:
        raise ClauseSyntaxError(f"field 'format' must be {JSON_FORMAT!r}, got {doc.get('format')!r}", 1)
    if doc.get("version") != JSON_VERSION:
        raise ClauseSyntaxError(f"field 'version' must be {JSON_VERSION}, got {doc.get('version')!r}", 1)
    features = doc.get("features", [])
    domains = doc.get("domains", {})
    if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
        raise ClauseSyntaxError("field 'features' must be a list of strings", 1)
    if not isinstance(domains, dict) or not all(
        isinstance(v, list) and all(isinstance(x, str) for x in v) for v in domains.values()
    ):
        raise ClauseSyntaxError("field 'domains' must map feature names to lists of strings", 1)
    clauses = doc.get("clauses")
    if not isinstance(clauses, list):
        raise ClauseSyntaxError("field 'clauses' must be a list", 1)
    lines = _element_lines(text, dec)
    out = []
    for i, item in enumerate(clauses):
        line = lines[i] if i < len(lines) else None
        out.append(_clause_from_json(item, i, line))
    kind = doc.get("kind", "general")
    if not isinstance(kind, str):
        raise ClauseSyntaxError("field 'kind' must be a string", 1)
    max_len = doc.get("max_len")
    if max_len is not None and (not isinstance(max_len, int) or max_len < 1):
        raise ClauseSyntaxError("field 'max_len' must be a positive integer or null", 1)
    kb = KB(tuple(features), {f: tuple(domains.get(f, ())) for f in features},
            kind=kind, positive=doc.get("positive"), max_len=max_len)
    kb.add(out)
    return kb


def _element_lines(text: str, dec: json.JSONDecoder) -> list[int]:
    """Line number of each element of the top-level 'clauses' array (best effort)."""
    m = re.search(r'"clauses"\s*:\s*\[', text)
    if not m:
        return []
    pos, lines = m.end(), []
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return lines
        lines.append(text.count("\n", 0, pos) + 1)
        try:
            _, pos = dec.raw_decode(text, pos)
        except json.JSONDecodeError:
            return lines


def _clause_from_json(item: Any, i: int, line: int | None) -> WeightedClause:
    where = f"clauses[{i}]"

    def fail(msg: str) -> ClauseSyntaxError:
        return ClauseSyntaxError(f"{where}: {msg}", line)

    if not isinstance(item, Mapping):
        raise fail("each clause must be an object")
    unknown = set(item) - {"literals", "p", "w", "source", "support", "positives", "id", "enabled"}
    if unknown:
        raise fail(f"unknown field(s) {sorted(unknown)}")
    lits_raw = item.get("literals")
    if not isinstance(lits_raw, list) or not lits_raw or not all(isinstance(x, str) for x in lits_raw):
        raise fail("field 'literals' must be a non-empty list of strings like 'POS' or '~a=v'")
    try:
        lits: list[Literal] = []
        for s in lits_raw:
            lits.extend(parse_literals(_tokenize(s, line), line))
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
    try:
        return WeightedClause(
            tuple(lits), item["p"], item.get("w", 1.0), item.get("source", "data"),
            item.get("support"), item.get("positives"), item.get("id"), item.get("enabled", True),
        )
    except DataError as exc:
        raise fail(str(exc)) from None

