"""A new user's 2% table in headless Chromium (session 21, words21's walk, kept small): the
file's own two classes on every page ('ICU transfer' and 'ward', never 'not ICU transfer'),
one stated baseline on Explain (its Shapley values start where its 'starting point alone' does, or
from 0.5 with nothing known), the counts at a threshold in their own number, and a typed rule
(a number inside a bin is refused naming the cuts; the user takes one) still there after a
browser refresh, which answers with the KB built before. Seconds per step printed (-s)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from browser_util import streamlit_server, tall_app
from test_browser import browser, chromium  # noqa: F401 - the browser they drive

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "adhoc" / "words21"))

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_rare_class_named_as_written_with_one_baseline_and_a_rule_kept(browser, tmp_path):  # noqa: F811
    from walk import rare_table

    times: dict[str, float] = {}
    with streamlit_server(int(os.environ.get("PLX_TEST_PORT", "0")) or None) as server:
        ctx, app = tall_app(browser, server, "words")
        try:
            app.open("", expect="breast-cancer-wisconsin")
            app.radio("Source", "Upload a CSV", expect="Upload a file to continue")
            times["upload"] = app.upload(rare_table(tmp_path / "rare30.csv", n=600),
                                         expect="Suggested label: outcome")
            if app.value("Positive class") != "ICU transfer":
                app.select("Positive class", "ICU transfer")
            times["use this data"] = app.click_button("Use this data",
                                                      expect="Now using rare30.csv")
            times["query"] = app.nav("Query", expect="Answer")
            said = " ".join(app.text().split())
            assert "otherwise ward." in said and "not ICU transfer" not in said
            times["explain"] = app.nav("Explain", expect="Explanation (k=")
            said = " ".join(app.text().split())
            assert "not ICU transfer" not in said
            start = re.search(r"moves the support for ICU transfer from (the model's starting point, "
                              r"(\d\.\d\d)|0\.5, the support with nothing known)", said)
            assert start, said
            if start.group(2) is not None and "starting point alone (" in said:  # one number
                assert f"starting point alone ({start.group(2)}," in said
            times["evaluate"] = app.nav("Evaluate", expect="Confusion matrix")
            said = " ".join(app.text().split())
            assert "ICU transfer rows found; specificity" in said and "ward rows kept ward" in said
            assert "(s)" not in said
            app.nav("Rules", expect="Add a rule")
            app.page.get_by_text("…or type whole rules").first.click()
            app.type_and_leave("stTextArea", "Rules", "IF sbp < 100 THEN POS [p=0.9, w=5]")
            app.click_button("Add these rules")
            cut = re.search(r"— write (sbp < [\d.]+) or ", app.text())
            if cut:  # 100 inside a bin: refused naming the cuts, never rounded
                app.type_and_leave("stTextArea", "Rules", f"IF {cut.group(1)} THEN POS [p=0.9, w=5]")
                app.click_button("Add these rules")
            app.expect("Added")
            times["browser refresh"] = app.open(app.page.url.split("/", 3)[-1], expect="Rules: 1")
            app.nav("Rules", expect="Rules in the KB")
            assert "THEN ICU transfer" in app.text()
            assert not app.errors_shown(), app.errors_shown()
            assert not app.dialogs
        finally:
            ctx.close()
    print("\n" + "\n".join(f"{k}: {v:.2f} s" for k, v in times.items()))
