"""Concurrent sessions in one headless Chromium (issue 6, the small version of
benchmarks/bench_sessions.py): 4 browser contexts walk the pages at once on one server — build a
KB, change a value, explain, add a rule of their own weight — and each sees only its own KB,
value and rule, with no exception or error box.

Skipped without /usr/bin/chromium, except in CI (CI set), where a missing browser fails."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from browser_util import CHROMIUM_ARGS, streamlit_server
from test_browser import chromium  # noqa: F401 - the fixture (skip, or fail in CI)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from bench_sessions import sessions, weight  # noqa: E402

pytestmark = pytest.mark.browser
N = 4


async def _walks(executable: str, url: str):
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS,
                                           headless=True)
        try:
            return await sessions(browser, url, N, timeout_s=90)
        finally:
            await browser.close()


def test_concurrent_sessions_see_only_their_own_work(chromium):  # noqa: F811
    with streamlit_server() as url:
        walks = asyncio.run(_walks(chromium, url))
    assert [w.index for w in walks] == list(range(N))
    for w in walks:
        assert not w.failures, (w.index, w.failures)
        assert not w.crosstalk, (w.index, w.crosstalk)
        assert not w.errors, (w.index, w.errors)
        assert "Rules: add a rule" in w.times  # the walk got to its last step
    assert len({weight(w.index) for w in walks}) == N
