"""The KB browser: filter, search, sort and page through clauses without building every clause text."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from plx_core.errors import DataError
from plx_core.kb import KB
from plx_core.tokens import condition_text
from plx_core.wording import BASE_RATE_IF, is_prior

from .rules import rule_parts, rule_text


@dataclass(frozen=True)
class BrowseQuery:
    search: str = ""
    features: tuple[str, ...] = ()  # clauses that mention all of these
    length: tuple[int, int] | None = None
    p_range: tuple[float, float] = (0.0, 1.0)
    min_support: int = 0
    source: tuple[str, ...] = ()
    sort_by: str = "support"  # support | p | length | w | index
    descending: bool = True
    page: int = 1
    page_size: int = 25


def _literal_texts(kb: KB, f: str) -> list[str]:
    """Each value of `f` as `f=v` and as the IF column writes it (quoted where needed), so a
    search typed either way, or pasted from the column, finds it."""
    return [f"{f}={v}\n{condition_text(f, v)}" for v in kb.domains[f]]


def _clause_columns(kb: KB) -> dict[str, np.ndarray]:
    """p, w, support, length and source of every clause (learned rows, then extra clauses)."""
    ex = kb.extra
    return {
        "p": np.concatenate([kb.p, [c.p for c in ex]]),
        "w": np.concatenate([kb.w, [c.w for c in ex]]),
        "support": np.concatenate([kb.support, [(-1 if c.support is None else c.support) for c in ex]]),
        "length": np.concatenate([kb.lengths, [sum(lit.is_feature for lit in c.literals) for c in ex]]).astype(int),
        "source": np.concatenate([np.asarray(["data", "tree", "rule", "user"], dtype=object)[kb.source],
                                  np.asarray([c.source for c in ex], dtype=object)]),
        "index": np.arange(len(kb)),
    }


def _search_terms(text: str) -> list[str]:
    return [t.strip().lower() for t in re.split(r"\s+(?:AND|and)\s+|;|∧", text.strip()) if t.strip()]


def browse_mask(kb: KB, q: BrowseQuery, cols: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """Which clauses (learned rows, then extra clauses) pass the filters, without building any
    clause text: a search term matches a literal `feature=value` as a substring (case-blind),
    and a clause matches when every term matches one of its literals."""
    cols = cols if cols is not None else _clause_columns(kb)
    p, length, sup = cols["p"], cols["length"], cols["support"]
    mask = (p >= q.p_range[0] - 1e-12) & (p <= q.p_range[1] + 1e-12)
    if q.length is not None:
        mask &= (length >= q.length[0]) & (length <= q.length[1])
    if q.min_support > 0:
        mask &= sup >= q.min_support
    if q.source:
        mask &= np.isin(cols["source"], list(q.source))
    for f in q.features:
        if f not in kb.domains:
            raise DataError(f"unknown feature {f!r}")
        j = kb.features.index(f)
        mask &= np.concatenate([kb.codes[:, j] >= 0,
                                np.asarray([any(lit.atom == f for lit in c.literals) for c in kb.extra],
                                           dtype=bool)])
    for t in _search_terms(q.search):
        hit = np.zeros(kb.n_learned, dtype=bool)
        for j, f in enumerate(kb.features):
            ok = [k for k, s in enumerate(_literal_texts(kb, f)) if t in s.lower()]
            if ok:
                hit |= np.isin(kb.codes[:, j], ok)
        if t in ("pos", "then pos"):
            hit |= kb.head > 0
        extra_hit = np.asarray([t in c.to_text().lower() or t in rule_text(c).lower()
                                or (is_prior(c) and t in BASE_RATE_IF) for c in kb.extra],
                               dtype=bool)
        mask &= np.concatenate([hit, extra_hit])
    return mask


SORT_KEYS = ("support", "p", "length", "w", "index")


def browse_kb(kb: KB, q: BrowseQuery, positive: str | None = None) -> tuple[pd.DataFrame, int]:
    """One page of the clauses that pass the filters, sorted (ties by index); and how many
    passed. With `positive` (what POS stands for) THEN names the class (`not readmitted`)."""
    from plx_core.wording import class_names

    heads = dict(zip(("POS", "NOT POS"), class_names(positive))) if positive else {}
    if q.sort_by not in SORT_KEYS:
        raise DataError(f"sort by one of {list(SORT_KEYS)}, not {q.sort_by!r}")
    cols = _clause_columns(kb)
    idx = np.flatnonzero(browse_mask(kb, q, cols))
    total = len(idx)
    vals = cols[q.sort_by][idx].astype(float)
    idx = idx[np.lexsort((idx, -vals if q.descending else vals))]
    size = max(1, int(q.page_size))
    pages = max(1, math.ceil(total / size))
    page = min(max(1, int(q.page)), pages)
    rows = []
    for i in idx[(page - 1) * size: page * size]:
        c = kb.clause(int(i))
        conds, head = rule_parts(c)
        said = (BASE_RATE_IF if is_prior(c) else
                " AND ".join(condition_text(f, v) for f, v in conds))
        rows.append({"#": int(i), "IF": said,
                     "THEN": heads.get(head, head), "p": c.p, "w": c.w, "support": c.support,
                     "positives": c.positives, "length": len(conds), "source": c.source,
                     "enabled": c.enabled, "clause": c.to_text()})
    frame = pd.DataFrame(rows, columns=["#", "IF", "THEN", "p", "w", "support", "positives",
                                        "length", "source", "enabled", "clause"])
    frame["support"] = frame["support"].astype("Int64")
    frame["positives"] = frame["positives"].astype("Int64")
    return frame, total
