"""The code base stays ruff-clean (configuration in pyproject.toml)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_every_download_is_made_on_click_without_a_rerun():
    """A deferred download whose click also reruns the page races the file's request against
    the rerun (the export button stayed spinning in CI): every page goes through
    `widgets.download`, which ignores the click for reruns."""
    import ast

    calls = []
    for path in sorted((ROOT / "plx_app").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "download_button":
                kw = {k.arg: k.value for k in node.keywords}
                calls.append((path.name, isinstance(kw.get("on_click"), ast.Constant)
                              and kw["on_click"].value == "ignore"))
    assert calls == [("widgets.py", True)]


def test_no_session_swaps_the_process_wide_warning_hooks():
    """The dashboard answers each session in its own thread: notes are collected per thread
    (`plx_core.notes.collected`), never by `warnings.catch_warnings`, which swaps one
    process-wide hook and can hand one session's notes (its values) to another's page."""
    import ast

    found = []
    for path in sorted((ROOT / "plx_app").rglob("*.py")) + [ROOT / "app.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in (
                    "catch_warnings", "simplefilter", "filterwarnings"):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_every_number_column_format_is_one_the_table_applies():
    """The data grid shows a printf format without a precision such as "%g" unformatted (a
    weight read 0.13563232908584963 on the Query page): every `format=` of a NumberColumn in
    plx_app names its precision ("%.3g", "%.3f", "%d") or is one of Streamlit's names."""
    import ast
    import re

    named = {"plain", "localized", "percent", "dollar", "euro", "yen", "accounting", "compact",
             "scientific", "engineering"}
    bad = []
    for path in sorted((ROOT / "plx_app").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "NumberColumn":
                for kw in node.keywords:
                    if kw.arg == "format" and isinstance(kw.value, ast.Constant):
                        f = kw.value.value
                        if f not in named and not re.fullmatch(r"[^%]*%(\.\d+[fge]|d|i)[^%]*", f):
                            bad.append((path.name, node.lineno, f))
    assert not bad, bad
