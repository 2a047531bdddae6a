"""The Evaluate and Explain pages in headless Chromium (session 23, dash23): the other models
are fitted only when asked — a caption naming them and a button; the page's first visit fits
nothing (it fitted six in silence: 10.9 s on 5,000 rows) — and, once fitted, a browser refresh
shows them at once; after why, the Explain page says what would change the decision."""

from __future__ import annotations

import os

import pytest
from browser_util import streamlit_server, tall_app
from test_browser import browser, chromium  # noqa: F401 - the browser they drive

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server():
    """One server for the file (ci26: a start costs ~4.7 CPU s, imports and the default set's
    fit). The first test needs a fresh data folder (it opens on the default set); the second
    uploads its own table first, so what the first left is no part of it."""
    with streamlit_server(int(os.environ.get("PLX_TEST_PORT", "0")) or None) as url:
        yield url


def test_the_other_models_are_fitted_when_asked_and_kept_across_a_refresh(browser, server):  # noqa: F811
    ctx, app = tall_app(browser, server, "dash23")
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


def test_a_clinicians_rare_class_contradicted_rule_and_model_file(browser, server, tmp_path):  # noqa: F811
    """dash24: a table whose lab writes -999 for "not measured", read with that marker; a rare
    class. The support's axis and meaning say 0 is not "impossible"; a rule the data
    contradict is warned in numbers and still there, warned, after a browser refresh; the
    model file downloaded from the Knowledge base page reads -999 as missing."""
    import numpy as np
    import pandas as pd

    from plx_core.modelfile import load_model
    from plx_core.modelrules import model_rules_text

    r = np.random.default_rng(24)
    n = 400
    lactate = r.gamma(2, 0.9, n).round(1)
    sick = np.where(lactate + r.normal(0, 0.5, n) > np.quantile(lactate, 0.92), "sepsis", "no sepsis")
    frame = pd.DataFrame({"lactate": np.where(r.random(n) < 0.1, "-999", lactate.astype(str)),
                          "age": r.integers(20, 95, n), "sex": r.choice(["F", "M"], n),
                          "outcome": sick})
    path = tmp_path / "labs.csv"
    frame.to_csv(path, index=False)
    ctx, app = tall_app(browser, server, "dash24", accept_downloads=True)
    try:
        app.open("", expect="Data")
        app.radio("Source", "Upload a CSV", expect="Upload a file to continue")
        app.fill("stTextInput", "Missing-value markers", "?, NA, -999",
                 expect="Read as missing: empty cells, ?, NA, -999")
        app.upload(path, expect="Suggested label")
        if app.value("Positive class") != "sepsis":
            app.select("Positive class", "sepsis")
        app.click_button("Use this data", expect="Now using labs.csv")
        app.nav("Query", expect="Answer")
        app.expect("nothing backs it, not 'impossible'")  # the chart's axis, drawn after the run
        said = " ".join(app.text().split())
        assert "(0: nothing backs it, not 'impossible'; 1: fully backed)" in said, said
        assert "which is not the same as impossible" in said and "ruled out" not in said
        app.nav("Rules", expect="Add a rule")
        app.page.get_by_text("…or type whole rules").first.click()
        app.type_and_leave("stTextArea", "Rules", "IF sex = F THEN POS [p=0.95, w=5]")
        app.click_button("Add these rules", expect="Added")
        assert "Rule r1: the data disagree: it says sepsis with probability 0.95" in " ".join(
            app.text().split())
        app.open(app.page.url.split("/", 3)[-1], expect="Rules: 1")  # a browser refresh
        app.nav("Rules", expect="Rule r1: the data disagree")
        assert not app.errors_shown(), app.errors_shown()
        app.nav("Knowledge base", expect="The model that answers")
        app.act(app.page.get_by_role("tab", name="Export / import").click,
                expect="Save the model")
        assert "reads empty cells and '?', 'NA' and '-999' in new rows as missing" in " ".join(
            app.text().split())
        model = load_model(app.download("Model file (JSON, for plx predict)"))
        assert model.schema.missing == ("", "?", "NA", "-999")
        assert "IF sex=F THEN POS [p=0.95, w=5" in model_rules_text(model)
        app.shot("dash24-model-file")
    finally:
        ctx.close()
