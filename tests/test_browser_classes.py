"""A label of several classes in headless Chromium: the positive-class picker assumes no class
(it starts on the rarest and says so), and the Query page picks each instance's class among
all of them — every class's bounds, the runner-up, why the picked class and why not the
runner-up — with the model `plx fit` fits without --positive, explained on the Explain page
(the class it answers, why), said apart from the rules (one class against the rest) on the
Rules page and scored on the Evaluate page."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from browser_util import App, streamlit_server
from test_browser import browser, chromium  # noqa: F401 - the browser they drive

pytestmark = pytest.mark.browser


def fruit_csv(path: Path, n: int = 240, seed: int = 9) -> Path:
    """Three classes of fruit from their shape and colour (plum the rarest), a noise column."""
    r = np.random.default_rng(seed)
    shape = r.choice(["round", "long"], n, p=[0.6, 0.4])
    colour = r.choice(["purple", "yellow", "green"], n, p=[0.3, 0.4, 0.3])
    fruit = np.where(shape == "long", "banana", np.where(colour == "purple", "plum", "apple"))
    pd.DataFrame({"shape": shape, "colour": colour, "stall": r.choice(list("abc"), n),
                  "fruit": fruit}).to_csv(path, index=False)
    return path


def test_the_query_page_picks_a_class_among_several(browser, tmp_path):  # noqa: F811
    with streamlit_server(int(os.environ.get("PLX_TEST_PORT", "0")) or None) as server:
        ctx = browser.new_context(viewport={"width": 1400, "height": 2400})
        app = App(ctx.new_page(), server, "classes")
        try:
            app.open("", expect="breast-cancer-wisconsin")
            app.radio("Source", "Upload a CSV", expect="Upload a file to continue")
            app.upload(fruit_csv(tmp_path / "fruit.csv"), expect="Suggested label: fruit")
            body = app.text()
            assert app.value("Positive class") == "plum"  # the rarest, not assumed
            assert "plx assumes no positive class among 3 classes: the rarest, 'plum'" in body
            assert "the Query page also picks each instance's class among all 3" in body
            app.click_button("Use this data", expect="Now using fruit.csv")

            app.nav("Query", expect="Among all 3 classes")
            assert "the answer above is plum against the other 2" in app.text()
            app.click_button("Answer among all 3 classes", expect="Class picked")
            picked, truth = app.metric("Class picked"), app.metric("True class")
            assert picked == truth and picked in ("apple", "banana", "plum")
            runner = app.metric("Runner-up")
            body = app.text()
            assert runner != picked and f"plx picks {picked}: its KB's support for it" in body
            assert f"Why {picked}: " in body and f"Why not {runner}: " in body
            app.select_other("Instance", 1, expect="Class picked")  # another row, no refit
            assert app.metric("Class picked") == app.metric("True class")
            assert not app.errors_shown(), app.errors_shown()
            app.shot("query-several-classes")
            picked = app.metric("Class picked")
            # the Explain page says which class plx answers and why, clearly labelled
            app.nav("Explain", expect="Class plx answers")
            body = app.text()
            assert "The explanation above is plum against the other 2" in body
            assert app.metric("Class plx answers") == picked == app.metric("True class")
            assert f"plx picks {picked}: " in body and f"Why {picked}: " in body
            # said as the picked class's own KB: what it answers on the row (not "the model's")
            assert f"{picked}'s own KB ({picked} against the other 2 classes)" in body
            assert f"{picked} against the other 2 classes: top sub-queries of size" in body
            assert not app.errors_shown(), app.errors_shown()
            app.shot("explain-several-classes")
            app.nav("Rules", expect="a rule here is about 'plum' against the other 2")
            # the model of every class, fitted once, is scored on the Evaluate page too
            app.nav("Evaluate", expect="Macro F1 (all classes)")
            assert float(app.metric("Macro F1 (all classes)")) >= 0.9
            assert "the scores above are plum against the other 2" in app.text().lower()
            assert not app.errors_shown(), app.errors_shown()
        finally:
            ctx.close()
