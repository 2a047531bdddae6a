"""Hostile files through the loader and the schema: each gets a clear message naming the
problem, or loads with every value kept verbatim (nothing silently altered)."""

import contextlib
import signal

import numpy as np
import pytest

from plx_core import DataError, direct_kb
from plx_core.data import infer_schema, load_csv


def csv_bytes(rows: list[list[str]]) -> bytes:
    return ("\n".join(",".join(r) for r in rows) + "\n").encode()


@pytest.mark.parametrize("raw, message", [
    (b"", r"empty \(0 bytes\)"),
    (b"\n\n  \n", "empty"),
    (b"\xff\xfe\x00\x01garbage\x00\x9c\x80", "not valid utf-8: byte offset 0"),
    (b"\x9c\x80garbage\x00", "not valid utf-8: byte offset 0"),
    ("a,b\nü,1\n".encode("latin-1"), r"not valid utf-8: byte offset 4 \(line 2"),
    (b"a,b,c\n1,2,3\n4,5\n", "line 3"),
    (b"a,a,b\n1,2,3\n", "duplicate column"),
    (b'a,b\n"1,2\n3,4\n', "quote"),
])
def test_bad_files_are_named(raw, message):
    with pytest.raises(DataError, match=message):
        load_csv(raw)


def test_caps_are_checked_before_parsing():
    big = b"a,b\n" + b"1,2\n" * 1_000_001
    with pytest.raises(DataError, match="max_rows"):
        load_csv(big)
    wide = (",".join(f"c{i}" for i in range(10_000)) + "\n" + ",".join("1" * 10_000) + "\n").encode()
    with pytest.raises(DataError, match="max_cols"):
        load_csv(wide)
    with pytest.raises(DataError, match="max_bytes|cap"):
        load_csv(b"a,b\n1,2\n" * 1000, max_bytes=100)


def test_a_column_of_many_distinct_values_is_flagged_not_built():
    n = 100_000
    rng = np.random.default_rng(0)
    rows = [["id", "colour", "label"]] + [[f"u{i}", "red" if i % 3 else "blue", str(i % 2)]
                                           for i in rng.permutation(n)]
    frame = load_csv(csv_bytes(rows))
    schema = infer_schema(frame, "label")
    assert "id" not in schema.features and "id" in dict(schema.excluded)
    X, y = schema.apply(frame)
    kb = direct_kb(X, y)
    assert kb.features == ("colour",)


def test_formula_and_html_cells_load_verbatim():
    rows = [["<script>alert(1)</script>", "=cmd|' /C calc'!A0", "label"],
            ["<b>bold</b>", "+1+2", "1"], ["@SUM(A1)", "-3", "0"], ["x", "=1", "1"]]
    frame = load_csv(csv_bytes(rows))
    assert list(frame.columns) == ["<script>alert(1)</script>", "=cmd|' /C calc'!A0", "label"]
    assert frame.iloc[0].tolist() == ["<b>bold</b>", "+1+2", "1"]
    assert frame.iloc[1].tolist() == ["@SUM(A1)", "-3", "0"]
    schema = infer_schema(frame, "label")
    X, y = schema.apply(frame)
    kb = direct_kb(X, y)
    assert "<b>bold</b>" in kb.domains["<script>alert(1)</script>"]


def test_one_class_label_is_refused_when_building():
    frame = load_csv(csv_bytes([["a", "label"], ["x", "1"], ["y", "1"]]))
    X, y = infer_schema(frame, "label").apply(frame)
    with pytest.raises(DataError, match="only one class"):
        direct_kb(X, y)


def test_a_column_mixing_numbers_and_text_is_named_with_both_rows():
    """(1, "two", 3.5): neither binned (not all numbers) nor categories (3.5); the message
    names the column, a number's row and a text's row, and says the two ways out."""
    import pandas as pd

    from plx_core import PLXClassifier

    X = pd.DataFrame({"m": [1, "two", 3.5, 4, 5.5, "six"] * 10, "c": list("abcabc") * 10})
    y = np.array([0, 1] * 30)
    with pytest.raises(DataError, match=r"column 'm' mixes numbers \(row 2: 3.5\) and text "
                                        r"\(row 1: 'two'\)"):
        PLXClassifier().fit(X, y)
    X["m"] = X["m"].astype(str)  # all text: categories
    assert PLXClassifier().fit(X, y).predict(X.head(3)).shape == (3,)


@contextlib.contextmanager
def hang_guard(seconds: int = 60):
    """Fail (rather than hang the suite) when the block runs `seconds`: a guard, not a timing."""
    def stop(*_):
        raise AssertionError(f"still running after {seconds} s: does a regular expression backtrack?")
    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("cell", ["1" * 100_000 + "|43", "9" * 60_000 + "%%", "7" * 80_000 + " x!"])
def test_a_huge_cell_is_read_without_backtracking(cell):
    """A 10⁵-character cell of digits that is no number at its end (fuzz17: the number-shape
    pattern backtracked quadratically, an upload hung for hours): read, and named as text."""
    rows = [["n", "c", "label"]] + [[str(i % 7), "ab"[i % 3 % 2], str(i % 2)] for i in range(30)]
    rows[5][0] = cell
    frame = load_csv(csv_bytes(rows))
    with hang_guard():
        schema = infer_schema(frame, "label")
    assert frame["n"].iloc[4] == cell  # kept verbatim
    assert schema.kinds.get("n") != "numeric" or "n" in schema.bins
