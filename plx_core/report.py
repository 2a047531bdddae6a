"""A case report: one self-contained HTML page of an explained decision, for a patient's file.

The page holds the instance, the answer in words and as a small inline SVG chart, the
explanation, the evidence for and against, the counterfactual, the rules in force (with their
authors when known) and the model's data and settings. It fetches nothing (no script, font,
image or style sheet from elsewhere), prints to PDF from any browser, and every piece of user
text (column names, values, rule text, authors) is HTML-escaped.
"""

from __future__ import annotations

import datetime as _dt
import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from .clause import WeightedClause
from .encoding import is_missing
from .explain import counterfactual, evidence, explain
from .kb import KB
from .query import TIE_EPS, query
from .rules import list_rules, rule_group
from .wording import (
    LEARNED,
    advanced_lines,
    answer_sentence,
    class_names,
    clause_text,
    counterfactual_sentence,
    decision_word,
    evidence_summary,
    explanation_sentence,
    omega_meaning,
    source_text,
    support_axis,
)

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;max-width:52em;
margin:2em auto;padding:0 1em;line-height:1.45}
h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;width:100%;margin:.5em 0;font-size:.92em}
th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top;
overflow-wrap:break-word}
th{background:#f3f3f3}.muted{color:#666;font-size:.9em}.decision{font-size:1.15em;font-weight:600}
.for{color:#a93226}.against{color:#1f618d}
@media print{body{margin:0;max-width:none}h2{break-after:avoid}table,svg{break-inside:avoid}}
"""


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def bounds_svg(lower: float, upper: float, threshold: float = 0.5, width: int = 480,
               positive: Any = "the positive class") -> str:
    """The ω(POS) interval on [0, 1] as a small inline SVG: the range as a bar, its middle as a
    diamond, the threshold as a dashed line, each labelled; the axis names `positive` and what
    its ends mean (`wording.support_axis`)."""
    lo, hi = float(lower), float(upper)
    mid = (lo + hi) / 2
    pad, h = 20, 92
    span = width - 2 * pad

    def x(v: float) -> float:
        return pad + span * min(max(v, 0.0), 1.0)

    colour = "#c0392b" if mid > threshold + 1e-9 else "#2c7fb8" if mid < threshold - 1e-9 else "#7f7f7f"
    bar_w = max(x(hi) - x(lo), 3.0)
    ticks = "".join(
        f'<line x1="{x(t):.1f}" y1="62" x2="{x(t):.1f}" y2="66" stroke="#555"/>'
        f'<text x="{x(t):.1f}" y="78" font-size="10" text-anchor="middle">{t:g}</text>'
        for t in (0, 0.25, 0.5, 0.75, 1)
    )
    my = 44
    diamond = (f"{x(mid):.1f},{my - 7} {x(mid) + 7:.1f},{my} {x(mid):.1f},{my + 7} "
               f"{x(mid) - 7:.1f},{my}")
    anchor = "start" if mid < 0.75 else "end"
    dx = 10 if mid < 0.75 else -10
    return (
        f'<svg role="img" width="{width}" height="{h}" '
        f'viewBox="0 0 {width} {h}" aria-label="support for the positive class between '
        f'{lo:.3f} and {hi:.3f}">'
        f'<line x1="{pad}" y1="62" x2="{width - pad}" y2="62" stroke="#555"/>{ticks}'
        f'<line x1="{x(threshold):.1f}" y1="16" x2="{x(threshold):.1f}" y2="62" stroke="#000" '
        f'stroke-dasharray="4,3"/>'
        f'<text x="{x(threshold):.1f}" y="11" font-size="10" text-anchor="middle">'
        f'dashed: threshold {threshold:g}</text>'
        f'<rect x="{x(lo):.1f}" y="{my - 6}" width="{bar_w:.1f}" height="12" fill="{colour}" '
        f'opacity="0.85"/>'
        f'<polygon points="{diamond}" fill="#fff" stroke="#000" stroke-width="1.5"/>'
        f'<text x="{x(mid) + dx:.1f}" y="{my - 10}" font-size="10" text-anchor="{anchor}">'
        f'middle {mid:.3f}</text>'
        f'<text x="{width / 2:.0f}" y="{h - 2}" font-size="10" text-anchor="middle">'
        f'{_e(support_axis(positive))}</text></svg>'
    )


@dataclass(frozen=True)
class RuleAuthor:
    """Who added a rule in force, who changed it last and when (None: not saved yet)."""

    rule: str
    added_by: str
    changed_by: str
    changed: _dt.datetime | None


def rule_authors(
    versions: Sequence[tuple[str, _dt.datetime | None, Sequence[WeightedClause]]],
) -> dict[str, RuleAuthor]:
    """Per rule of the last of `versions` (author, when, rules; oldest first), who added it and
    who changed it last: a rule counts as changed in the first version where its clauses'
    text differs from the version before (an OR rule is one rule, its clauses under one id)."""
    seen: dict[str, tuple[str, ...]] = {}
    out: dict[str, RuleAuthor] = {}
    for author, when, rules in versions:
        groups: dict[str, list[str]] = {}
        for c in rules:
            groups.setdefault(rule_group(c.id or ""), []).append(c.to_text())
        now = {g: tuple(sorted(t)) for g, t in groups.items()}
        for g, text in now.items():
            if g not in out or seen.get(g) != text:
                first = out[g].added_by if g in out else author
                out[g] = RuleAuthor(g, first, author, when)
        out = {g: a for g, a in out.items() if g in now}
        seen = now
    return out


def _when(t: Any) -> str:
    if isinstance(t, _dt.datetime):
        return t.astimezone(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC") if t.tzinfo else \
            t.strftime("%Y-%m-%d %H:%M")
    return "" if t is None else str(t)


def _table(frame: pd.DataFrame) -> str:
    head = "".join(f"<th>{_e(c)}</th>" for c in frame.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{_e('' if is_missing(v) else v)}</td>" for v in row) + "</tr>"
        for row in frame.itertuples(index=False, name=None)
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _origin(source: Any, rule_id: Any, authors: Mapping[str, str]) -> str:
    """Where an evidence clause comes from: learned from data, or a rule and its author."""
    if source_text(source) == LEARNED:
        return LEARNED
    g = rule_group(str(rule_id)) if not is_missing(rule_id) and rule_id else ""
    who = authors.get(g, "author not recorded")
    return f"rule {g}: {who}" if g else f"rule: {who}"


def _evidence_rows(kb: KB, frame: pd.DataFrame, positive: Any, side: str, top: int,
                   authors: Mapping[str, str]) -> pd.DataFrame:
    sub = frame[frame["side"] == side].head(top)
    return pd.DataFrame({
        "rule": [clause_text(kb.clause(int(i)), positive) for i in sub["clause_id"]],
        "probability": [f"{p:.2f}" for p in sub["p"]],
        "weight": [f"{w:g}" for w in sub["w"]],
        "training rows": ["" if is_missing(s) else int(s) for s in sub["support"]],
        "from": [_origin(src, rid, authors) for src, rid in zip(sub["source"], sub["rule_id"],
                                                                  strict=True)],
    })


def _who(r: Mapping[str, Any]) -> str:
    """`Dr Ann, 2026-11-26 10:02 UTC` for a rule mapping (author and when last changed)."""
    who = str(r.get("author") or "author not recorded")
    when = _when(r.get("changed", r.get("created")))
    return f"{who}, {when}" if when else who


def case_report(
    kb: KB,
    instance: Mapping[str, Any],
    *,
    positive: Any = "POS",
    truth: Any = None,
    k: int = 2,
    semantics: str = "auto",
    rules: Sequence[Mapping[str, Any]] | None = None,
    data: Mapping[str, Any] | None = None,
    settings: Mapping[str, Any] | None = None,
    title: str = "plx case report",
    positive_value: Any = None,
    created: str | None = None,
    top_evidence: int = 10,
    max_changes: int = 2,
    threshold: float = 0.5,
    explained: KB | None = None,
    learner: str | None = None,
) -> str:
    """One self-contained HTML page explaining the decision on `instance`, positive iff the
    mean of its ω(POS) bounds is above `threshold` (the paper's 0.5, or the one the model
    chose): the decision, the side explained and the flip searched all follow it.

    `positive` names the class POS stands for; `truth` the recorded label (optional).
    `rules`: the rules in force as mappings with `text` and optionally `id`, `author` (who
    changed it last), `changed` (when; `created` is read too) and `added_by` (e.g. from the
    project store through `rule_authors`); without it the KB's own rules are listed (author
    not recorded). Evidence from a rule names its author; learned clauses say so. `data` and `settings`: what the model was built from and how (shown as tables).
    `created` stamps the page (default: now, UTC). `positive_value`: the class value POS stands
    for, when `positive` is a display name (`Survived = 1`). `explained`: the KB the
    explanation searches when it is not the one that answers (the full Direct KB behind a
    tuned one, as `PLXClassifier.explain` searches); the answer and evidence stay `kb`'s.
    `learner`: how the model weighed the classes (`wording.LEARNERS`), said with the support.
    """
    q = {str(f): v for f, v in instance.items() if not is_missing(v)}
    pos, neg = class_names(positive)
    b = query(kb, q, semantics=semantics)
    verdict = decision_word(b.lower, b.upper, positive, threshold)
    side = "positive" if b.mean > threshold + TIE_EPS else "negative"
    said = answer_sentence(b, positive, kb=kb, truth=truth, positive_value=positive_value,
                           threshold=threshold)
    stamp = created or _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    parts: list[str] = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_e(title)}</title>",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<style>{_CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f'<p class="muted">Created {_e(stamp)} by plx (probabilistic logic inference). '
        f"POS stands for {_e(pos)}.</p>",
        "<h2>Decision</h2>",
        f'<p class="decision">{_e(verdict)}</p>',
        f"<p>{_e(said)}</p>",
        bounds_svg(b.lower, b.upper, threshold, positive=class_names(positive)[0]),
        f'<p class="muted">{_e(omega_meaning(positive, threshold, learner))}</p>',
    ]
    # the instance
    inst = pd.DataFrame({"feature": [str(f) for f in instance],
                         "value": ["(unknown)" if is_missing(v) else str(v) for v in instance.values()]})
    parts += ["<h2>The case</h2>", _table(inst)]
    if truth is not None:
        parts.append(f"<p>Recorded label: {_e(truth)}.</p>")
    # the explanation
    parts.append("<h2>Why</h2>")
    if q:
        e = explain(kb if explained is None else explained, q, k=min(k, len(q)),
                    semantics=semantics, direction=side, threshold=threshold)
        parts.append(f"<p>{_e(explanation_sentence(e, positive))}</p>")
    else:
        parts.append("<p>No value is known, so there is nothing to explain.</p>")
    # evidence
    authors = {rule_group(str(r.get("id", ""))): _who(r) for r in (rules or ())}
    ev = evidence(kb, q, semantics=semantics) if q else pd.DataFrame()
    parts.append("<h2>Evidence for and against</h2>")
    parts.append(f"<p>{_e(evidence_summary(ev, positive))}</p>")
    if len(ev):
        for side, head in (("for", f"Rules that would raise the support for {pos}"),
                           ("against", f"Rules that would lower it (towards {neg})")):
            rows = _evidence_rows(kb, ev, positive, side, top_evidence, authors)
            n_side = int((ev["side"] == side).sum())
            parts.append(f'<h3 class="{side}">{_e(head)} — {len(rows)} of {n_side} shown, '
                         f"strongest first</h3>")
            parts.append(_table(rows) if len(rows) else "<p>None.</p>")
    # counterfactual
    parts.append("<h2>What would change the decision</h2>")
    if q:
        cf = counterfactual(kb, q, max_changes=max_changes, semantics=semantics,
                            threshold=threshold)
        parts.append(f"<p>{_e(counterfactual_sentence(cf, positive))}</p>")
    else:
        parts.append("<p>No value is known, so no change can be searched.</p>")
    # rules in force
    parts.append("<h2>Expert rules in force</h2>")
    if rules is None:
        listed = list_rules(kb)
        table = pd.DataFrame({
            "id": list(listed["id"]) if len(listed) else [],
            "rule": list(listed["rule"]) if len(listed) else [],
            "author": ["(not recorded)"] * len(listed),
        })
    else:
        table = pd.DataFrame({
            "id": [str(r.get("id", "")) for r in rules],
            "rule": [str(r.get("text", "")) for r in rules],
            "last changed by": [str(r.get("author") or "(not recorded)") for r in rules],
            "when": [_when(r.get("changed", r.get("created"))) or "(not saved yet)"
                     for r in rules],
            "added by": [str(r.get("added_by") or r.get("author") or "(not recorded)")
                         for r in rules],
        })
    parts.append(_table(table) if len(table) else "<p>None: the answer rests on the learned "
                                                   "rules alone.</p>")
    parts.append(f'<p class="muted">Besides these, {kb.n_learned:,} rules in force were learned '
                 f"from data ({_e(kb.kind)} knowledge base); no person wrote them.</p>")
    # model and data
    parts.append("<h2>The model</h2>")
    model = {"knowledge base": kb.kind, "learned rules": f"{kb.n_learned:,}",
             "expert rules": f"{len(kb.rules):,}", "features": ", ".join(map(str, kb.features))}
    model.update({str(key): str(v) for key, v in (settings or {}).items()})
    parts.append(_table(pd.DataFrame({"setting": list(model), "value": list(model.values())})))
    if data:
        parts.append("<h3>Data</h3>")
        parts.append(_table(pd.DataFrame({"": [str(x) for x in data],
                                          "value": [str(v) for v in data.values()]})))
    parts.append("<h3>Solver details</h3><ul>"
                 + "".join(f"<li>{_e(line)}</li>" for line in advanced_lines(b)) + "</ul>")
    parts.append('<p class="muted">This report supports a decision; it does not replace the '
                 "judgement of the person responsible for it.</p></body></html>")
    return "\n".join(parts)


__all__ = ["RuleAuthor", "bounds_svg", "case_report", "rule_authors"]
