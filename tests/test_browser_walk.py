"""Walk every dashboard page in headless Chromium on three tables — the default set, an uploaded
table with missing values and three classes, and a 30-feature table — at 1280 and 1920 px
width, saving a full-page screenshot of each page (to $PLX_SHOTS, else artifacts/screenshots).
Each page is rendered once and looked at in both widths (the window is resized on it): the
scripts never see the width, so a second walk at 1920 px would run the same server work again.

What a reader would check on each page: it renders without an error box, it says its decision
in words, and nothing is fetched from another host.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from browser_util import SHOTS, App, chromium_path, launch, streamlit_server, wide_table
from conftest import in_ci

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGES = ["Knowledge base", "Query", "Explain", "Rules", "Evaluate", "Global view"]
WIDTHS = (1280, 1920)


def penguin_like(path: Path, n: int = 150, seed: int = 0) -> Path:
    """Three classes, text and number columns, missing values in a feature and in the label,
    and a `year` column last."""
    rng = np.random.default_rng(seed)
    species = rng.choice(["Adelie", "Gentoo", "Chinstrap"], n)
    bill = np.where(species == "Gentoo", 47.0, np.where(species == "Adelie", 38.0, 49.0))
    flipper = np.where(species == "Gentoo", 217.0, 192.0)
    frame = pd.DataFrame({
        "species": species,
        "island": np.where(species == "Gentoo", "Biscoe", rng.choice(["Dream", "Torgersen"], n)),
        "bill_length_mm": np.round(bill + rng.normal(0, 2.5, n), 1),
        "flipper_length_mm": np.round(flipper + rng.normal(0, 6, n)),
        "sex": rng.choice(["male", "female", None], n, p=[0.46, 0.46, 0.08]),
        "year": rng.choice([2007, 2008, 2009], n),
    })
    frame.loc[[4, 40, 99], "species"] = None
    frame.loc[[7, 8], "bill_length_mm"] = None
    frame.to_csv(path, index=False)
    return path


@pytest.fixture(scope="module")
def chromium():
    path = chromium_path()
    if path is None:
        if in_ci():
            pytest.fail("Chromium not found at /usr/bin/chromium; CI is set")
        pytest.skip("Chromium not found at /usr/bin/chromium")
    return path


@pytest.fixture(scope="module")
def server():
    port = int(os.environ.get("PLX_TEST_PORT", "0")) or None
    with streamlit_server(port) as url:
        yield url


def _look(app: App, tag: str, i: int, title: str, shots: Path) -> None:
    """The page as it stands in each width: charts drawn, a full-page screenshot, no error box."""
    for width in WIDTHS:
        app.page.set_viewport_size({"width": width, "height": 2600})
        charts = app.page.locator('[data-testid="stPlotlyChart"]')
        for j in range(charts.count()):  # plotly draws after the script run: wait for each
            charts.nth(j).locator(".main-svg").first.wait_for(state="attached")
        app.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        app.page.screenshot(path=str(shots / f"{tag}_{width}_{i}_{title.replace(' ', '_')}.png"),
                            full_page=True)
        shown = app.errors_shown()
        assert not shown, (tag, width, title, shown)


def _walk(app: App, tag: str, shots: Path, outside: list[str]) -> None:
    _look(app, tag, 0, "Data", shots)
    for i, title in enumerate(PAGES, start=1):
        app.nav(title)
        if title == "Query":
            app.expect("The learned rules")
            app.act(app.page.get_by_text("Chart the strongest evidence").first.click)
        if title == "Global view":  # user-started: start it, as a reader would
            app.click_button("Explain the rows", expect="Explanations given most often")
        _look(app, tag, i, title, shots)
    assert not outside, outside
    assert not app.dialogs


def test_walk_every_page_on_three_tables(chromium, tmp_path):
    from playwright.sync_api import sync_playwright

    shots = Path(os.environ.get("PLX_SHOTS", SHOTS))
    shots.mkdir(parents=True, exist_ok=True)
    penguins = penguin_like(tmp_path / "penguins.csv")
    wide = wide_table(tmp_path / "wide.csv")
    with sync_playwright() as pw:
        browser = launch(pw, chromium)
        try:
            with streamlit_server() as server:  # a new data folder: opens on the default set
                ctx = browser.new_context(viewport={"width": WIDTHS[0], "height": 2600})
                page = ctx.new_page()
                outside: list[str] = []
                page.on("request", lambda r, out=outside: None if r.url.startswith(
                    (server, "data:", "blob:")) else out.append(r.url))
                app = App(page, server, "walk")
                app.timeout = 240_000  # a 30-feature table on a busy machine
                page.set_default_timeout(app.timeout)
                app.open("", expect="breast-cancer-wisconsin")
                _walk(app, "default", shots, outside)

                app.nav("Data")
                app.radio("Source", "Upload a CSV", expect="Upload a file to continue")
                app.upload(penguins, expect="Suggested label: species")
                assert app.value("Label column") == "species"
                box = app.page.get_by_text("Leave out the 3 rows without a label")
                app.act(box.click, expect="rows:")
                app.click_button("Use this data", expect="Now using penguins.csv")
                assert "147 rows" in app.text()
                _walk(app, "penguins", shots, outside)
                app.nav("Query")
                app.act(app.page.get_by_text("Only rows with a missing value").click,
                        expect="rows. Click a row")
                assert not re.search(r"\b0 of \d+ rows", app.text())  # missing values are found

                app.nav("Data")
                app.upload(wide, expect="Suggested label: diagnosis")
                app.click_button("Use this data", expect="Now using wide.csv")
                _walk(app, "wide30", shots, outside)
                ctx.close()
        finally:
            browser.close()
