"""The case report is one page that fetches nothing and shows user text as text."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pandas as pd
import pytest
from paper import as_query, example2

from plx_core import direct_kb, parse_rules, query
from plx_core.report import bounds_svg, case_report, rule_authors
from plx_core.wording import answer_sentence


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def _parse(page: str) -> _Tags:
    p = _Tags()
    p.feed(page)
    return p


@pytest.fixture(scope="module")
def kb():
    X, y = example2()
    kb = direct_kb(X, y, positive=1)
    kb.add(parse_rules("IF a1=1 AND a2=1 THEN POS [p=0.9, w=3, id=dr1]"))
    return kb


def test_report_has_every_part_and_no_external_fetch(kb):
    q = as_query("1100")
    page = case_report(kb, q, positive="malignant", truth="malignant", created="2026-01-01",
                       rules=[{"id": "dr1", "text": "IF a1=1 AND a2=1 THEN POS [p=0.9, w=3]",
                               "author": "Dr. Ada"}],
                       data={"rows": 8}, settings={"k": 2})
    p = _parse(page)
    text = " ".join(p.text)
    b = query(kb, q)
    assert answer_sentence(b, "malignant", kb=kb, truth="malignant") in text
    for heading in ("Decision", "The case", "Why", "Evidence for and against",
                    "What would change the decision", "Expert rules in force", "The model"):
        assert heading in text
    assert "Dr. Ada" in text and "IF a1=1 AND a2=1 THEN POS" in text
    assert any(t == "svg" for t, _ in p.tags)
    # nothing is fetched: no script, link, img, iframe, no src/href, no URL at all
    assert not [t for t, _ in p.tags if t in ("script", "link", "img", "iframe", "object")]
    assert not [a for _, attrs in p.tags for a in attrs if a in ("src", "href")]
    assert not re.search(r"https?:|//[a-z]|url\(", page, re.I)


def test_hostile_names_are_escaped():
    evil = '<script>alert("x")</script>'
    X = pd.DataFrame({evil: ["<img src=x onerror=alert(1)>", "b", "<img src=x onerror=alert(1)>", "b"],
                      "g": ["1", "1", "0", "0"]})
    kb = direct_kb(X, [1, 0, 1, 0], positive=1)
    page = case_report(kb, X.iloc[0].to_dict(), positive='<b>pos</b>', truth="<i>t</i>",
                       created="now", rules=[{"text": "<a href=x>r</a>", "author": "<u>me</u>"}])
    p = _parse(page)
    assert [t for t, _ in p.tags if t in ("script", "img", "a", "b", "i", "u")] == []
    assert "&lt;script&gt;" in page and "<script>" not in page
    text = " ".join(p.text)
    assert evil in text and "<u>me</u>" in text  # shown as typed, as text


def test_rules_default_to_the_kbs_own(kb):
    page = case_report(kb, as_query("1111"), created="x")
    assert "dr1" in page and "(not recorded)" in page


def test_bounds_svg_marks_threshold_and_middle():
    svg = bounds_svg(0.2, 0.4)
    assert "threshold 0.5" in svg and "middle 0.300" in svg and "stroke-dasharray" in svg


def test_rule_authors_follow_the_history():
    def rules(text: str) -> list:
        return list(parse_rules(text)) if text else []

    t = [f"2026-01-0{d}" for d in range(1, 6)]
    versions = [
        ("Ann", t[0], rules("IF a1=1 THEN POS [p=0.9, w=3, id=r1]")),
        ("Bo", t[1], rules("IF a1=1 THEN POS [p=0.9, w=3, id=r1]\n"
                           "IF a2=1 OR a3=0 THEN NOT POS [p=0.8, id=r2]")),
        ("Cy", t[2], rules("IF a1=1 THEN POS [p=0.9, w=9, id=r1]\n"  # r1's weight changed
                           "IF a2=1 OR a3=0 THEN NOT POS [p=0.8, id=r2]")),
        ("Di", t[3], rules("IF a2=1 OR a3=0 THEN NOT POS [p=0.8, id=r2]")),  # r1 removed
        ("Ed", t[4], rules("IF a2=1 OR a3=0 THEN NOT POS [p=0.8, id=r2]\n"
                           "IF a1=1 THEN POS [p=0.9, w=3, id=r1]")),  # r1 back, by Ed
    ]
    got = rule_authors(versions[:3])
    assert (got["r1"].added_by, got["r1"].changed_by, got["r1"].changed) == ("Ann", "Cy", t[2])
    assert (got["r2"].added_by, got["r2"].changed_by, got["r2"].changed) == ("Bo", "Bo", t[1])
    got = rule_authors(versions)
    assert set(got) == {"r1", "r2"}
    assert (got["r1"].added_by, got["r1"].changed_by) == ("Ed", "Ed")  # a new rule after removal
    assert got["r2"].changed_by == "Bo"


def test_evidence_names_rule_authors_and_learned_clauses(kb):
    page = case_report(kb, as_query("1100"), created="x",
                       rules=[{"id": "dr1", "text": "IF a1=1 AND a2=1 THEN POS", "author": "Dr Ann",
                               "changed": "2026-02-03 10:00 UTC", "added_by": "Dr Bo"}])
    text = " ".join(_parse(page).text)
    assert "rule dr1: Dr Ann, 2026-02-03 10:00 UTC" in text and "learned from data" in text
    assert "Dr Bo" in text  # who added it


def test_report_decides_explains_and_flips_at_the_threshold_given(kb):
    # plx's default may decide at another threshold than 0.5: the report follows it
    q = as_query("1101")  # ω(POS) = 2/3: positive at 0.5, negative at 0.7
    b = query(kb, q)
    at_half = " ".join(_parse(case_report(kb, q, created="2026-01-01")).text)
    page = " ".join(_parse(case_report(kb, q, created="2026-01-01", threshold=0.7)).text)
    assert answer_sentence(b, "POS", kb=kb) in at_half
    assert answer_sentence(b, "POS", kb=kb, threshold=0.7) in page
    assert "threshold 0.7" in page or "above 0.7" in page
    assert answer_sentence(b, "POS", kb=kb, threshold=0.7) != answer_sentence(b, "POS", kb=kb)
