"""Counts read as a user says them: `1 row`, `3 rows`, never `row(s)` (plx_core.plurals)."""

import ast
import re
from pathlib import Path

import pandas as pd
import pytest

from plx_core import wording
from plx_core.data import infer_schema, repeated_rows
from plx_core.errors import DataError
from plx_core.plurals import counted, noun, plural, verb

ROOT = Path(__file__).resolve().parents[1]
HEDGED = re.compile(r"(?<![\w.])[A-Za-z]+\((s|es)\)")  # "row(s)", "class(es)"; not "len(s)"


def test_counts_agree_with_their_nouns():
    assert [counted(n, "row") for n in (0, 1, 2, 1204)] == ["0 rows", "1 row", "2 rows",
                                                            "1,204 rows"]
    assert noun(1, "class", "classes") == "class" and noun(3, "class", "classes") == "classes"
    assert plural(3, "rule") == "three rules" and verb(1, "is", "are") == "is"
    assert wording.counted is counted  # the pages' import is the same helper


def test_a_note_on_one_row_says_row_and_on_two_says_rows():
    one = pd.DataFrame({"pid": [1, 2, 2], "x": [1, 2, 2]})
    two = pd.DataFrame({"pid": [1, 1, 1], "x": [5, 5, 5]})
    assert repeated_rows(one, ["pid"]).startswith("1 row repeats an earlier row")
    assert repeated_rows(two, ["pid"]).startswith("2 rows repeat an earlier row")


def test_two_unknown_columns_are_named_in_the_plural():
    frame = pd.DataFrame({"a": ["x", "y"] * 10, "y": ["p", "n"] * 10})
    with pytest.raises(DataError, match=r"^columns \['nope', 'nada'\] are not in the table"):
        infer_schema(frame, "y", "p", features=["nope", "nada"])


def test_no_message_hedges_a_plural():
    """Every string a user can read (messages, notes, help; not docstrings) words its count."""
    found = []
    for path in [*sorted((ROOT / "plx_core").rglob("*.py")), *sorted((ROOT / "plx_app").rglob("*.py")),
                 ROOT / "app.py"]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
        found += [f"{path.relative_to(ROOT)}:{n.lineno} {m.group(0)}" for n in ast.walk(tree)
                  if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
                  for m in [HEDGED.search(n.value)] if m]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found += [f"README.md {m.group(0)}" for m in HEDGED.finditer(readme)]
    assert found == []


def test_counts_beside_a_value_have_thousands_separators():
    # "'mmol/L' ×3535, 'mg/dL' ×1465" on a 5,000-row table (words22's walk): as every count
    from plx_core.data import unread_numbers

    s = pd.Series(["5.5 mmol/L"] * 1500 + ["99 mg/dL"] * 1100)
    assert "'mmol/L' ×1,500, 'mg/dL' ×1,100" in unread_numbers(s)
