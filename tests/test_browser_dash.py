"""The Evaluate and Explain pages in headless Chromium (session 23, dash23): the other models
are fitted only when asked — a caption naming them and a button; the page's first visit fits
nothing (it fitted six in silence: 10.9 s on 5,000 rows) — and, once fitted, a browser refresh
shows them at once; after why, the Explain page says what would change the decision."""

from __future__ import annotations

import os

import pytest
from browser_util import App, streamlit_server
from test_browser import browser, chromium  # noqa: F401 - the browser they drive

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_other_models_are_fitted_when_asked_and_kept_across_a_refresh(browser):  # noqa: F811
    with streamlit_server(int(os.environ.get("PLX_TEST_PORT", "0")) or None) as server:
        ctx = browser.new_context(viewport={"width": 1400, "height": 2400})
        app = App(ctx.new_page(), server, "dash23")
        app.timeout = 240_000
        app.page.set_default_timeout(app.timeout)
        try:
            app.open("", expect="breast-cancer-wisconsin")
            app.nav("Explain", expect="What would change it: ")
            said = " ".join(app.text().split())
            assert ("What would change it: Changing " in said
                    or "What would change it: No change of up to" in said), said
            app.nav("Evaluate", expect="Compare with 6 other models")
            said = " ".join(app.text().split())
            assert ("Six other models (majority class, logistic regression, decision tree "
                    "(CART), random forest (100 trees), gradient boosting, naive Bayes) can be "
                    "fitted on the same") in said
            assert "Each model scored at its own threshold" not in said  # nothing fitted yet
            app.click_button("Compare with 6 other models",
                             expect="Each model scored at its own threshold")
            assert "F1 on the test split" in app.text()  # the chart of every model's F1
            assert "Compare with 6 other models" not in app.text()
            assert not app.errors_shown(), app.errors_shown()
            app.shot("evaluate-other-models")
            # a refresh opens the project in a new session: the models are not fitted again
            app.open(app.page.url.split("/", 3)[-1], expect="Evaluate")
            app.nav("Evaluate", expect="Each model scored at its own threshold")
            assert "Compare with 6 other models" not in app.text()
            assert not app.errors_shown(), app.errors_shown()
        finally:
            ctx.close()
