"""End to end in headless Chromium: upload → KB → instance → bounds → k → rule → side by side,
and two concurrent sessions that never see each other's data or rules.

Screenshots of each step go to artifacts/screenshots/. Without /usr/bin/chromium the tests are
skipped — except in CI (CI set), where a missing browser is a failure.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from browser_util import App, chromium_path, launch, streamlit_server, wide_table
from conftest import in_ci

pytestmark = pytest.mark.browser

SHARED = Path(__file__).resolve().parents[2] / "shared" / "datasets"
VIEWPORT = {"width": 1400, "height": 2400}


@pytest.fixture(scope="module")
def chromium():
    path = chromium_path()
    if path is None:
        msg = "Chromium not found at /usr/bin/chromium (apt-get install -y chromium)"
        if in_ci():
            pytest.fail(msg + "; CI is set, so a missing browser is an error")
        pytest.skip(msg)
    return path


@pytest.fixture(scope="module")
def server():
    with streamlit_server(int(os.environ.get("PLX_TEST_PORT", "0")) or None) as url:
        yield url


@pytest.fixture(scope="module")
def browser(chromium):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = launch(pw, chromium)
        yield b
        b.close()


def new_app(browser, server, name):
    ctx = browser.new_context(viewport=VIEWPORT)
    return ctx, App(ctx.new_page(), server, name)


def titanic_csv(tmp_path: Path) -> Path:
    """The shared Titanic file, or (without the shared folder, outside CI) a small stand-in
    with the same columns."""
    src = SHARED / "titanic" / "train.csv"
    if src.is_file():
        return src
    if in_ci():
        pytest.fail(f"shared data set missing: {src}")
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    n = 300
    sex = rng.choice(["male", "female"], n)
    pclass = rng.choice(["1", "2", "3"], n)
    surv = ((sex == "female") ^ (rng.random(n) < 0.2)).astype(int)
    frame = pd.DataFrame({"PassengerId": range(1, n + 1), "Survived": surv, "Pclass": pclass,
                          "Sex": sex, "Age": rng.integers(1, 80, n), "Embarked": rng.choice(list("CQS"), n)})
    path = tmp_path / "train.csv"
    frame.to_csv(path, index=False)
    return path


def new_project(app: App, name: str) -> None:
    """Start a new project on the default data through the Projects page."""
    app.nav("Projects", expect="This project")
    app.fill("stTextInput", "New project's name", name)
    app.click_button("Create", expect=f"Project: {name}")


def upload_in_new_project(app: App, project: str, path: Path, label: str) -> None:
    """Open the app, start a project and use the CSV at `path` (its label guessed as `label`)."""
    app.open("")
    new_project(app, project)
    app.nav("Data")
    app.radio("Source", "Upload a CSV", expect="Upload a file to continue")
    app.upload(path, expect=f"Suggested label: {label}")
    app.click_button("Use this data", expect=f"Now using {path.name}")


def _decision(app: App, positive: str) -> str:
    """The Decision metric (the class `positive` names, the other, or `tie`) as POS / NOT POS
    / tie."""
    shown = app.metric("Decision")
    if shown == "tie":
        return "tie (reported NOT POS)"
    return "POS" if shown == positive else "NOT POS"


def test_end_to_end(browser, server, tmp_path):
    ctx, app = new_app(browser, server, "e2e")
    try:
        # 1. the app opens on the default diagnosis set
        app.open("", expect="breast-cancer-wisconsin")
        app.sidebar_shows("KB: plx's default (")
        app.shot("01_data_default")

        # 2. upload a CSV (Titanic): the label is guessed, POS defaults to "1"
        app.radio("Source", "Upload a CSV", expect="Upload a file to continue")
        app.upload(titanic_csv(tmp_path), expect="Left out by default")  # Name, Ticket, PassengerId …
        assert app.value("Label column") == "Survived" and app.value("Positive class") == "1"
        app.shot("02_data_uploaded_preview")
        app.click_button("Use this data", expect="Now using train.csv")
        app.sidebar_shows("train.csv")
        app.shot("03_data_in_use")

        # 3. build a Tree KB and select a node of the ID3 tree in the plotly chart
        app.nav("Knowledge base")
        app.radio("Kind", "One decision tree, its leaves (ID3)")
        app.click_button("Build", expect="KB in use: One decision tree, its leaves (ID3)")
        app.act(app.page.get_by_role("tab", name="ID3 tree").click,
                expect="Click a node to see its clause")
        points = app.page.locator('[data-testid="stPlotlyChart"] .scatterlayer .trace').nth(1).locator(".point")
        points.first.wait_for(state="visible")
        assert points.count() > 3
        app.act(lambda: points.nth(1).click(force=True), expect="Node #1:")
        clause = app.page.locator('[data-testid="stCode"]').first.inner_text()
        assert clause.startswith("IF ") and " THEN " in clause  # never the raw clause syntax
        app.shot("04_kb_tree_node_selected")
        # the Direct KB (the upload built plx's default; Direct is built now) for the queries
        app.radio("Kind", "Rules counted from the data (Direct)")
        app.click_button("Build", expect="KB in use: Rules counted from the data (Direct)")

        # 4. pick an instance and read the bounds
        app.nav("Query", expect="Answer")
        _, picked = app.select_index("Instance", 2, expect="Counterfactual")
        row = re.search(r"row (\d+)", picked).group(1)
        app.sidebar_shows(f"test row {row}")
        lower, upper = float(app.metric("Support, at least")), float(app.metric("Support, at most"))
        assert 0.0 <= lower <= upper <= 1.0
        before = _decision(app, "Survived = 1")
        assert before in ("POS", "NOT POS", "tie (reported NOT POS)")
        app.page.get_by_text("Advanced: how the answer was computed").first.click()  # no rerun
        app.expect("Relevant clauses")
        assert app.metric("Method") in ("median", "LP")
        assert app.page.locator('[data-testid="stPlotlyChart"]').count() >= 1
        app.shot("05_query_bounds")

        # 5. change k on the Explain page
        app.nav("Explain", expect="Explanation (k=2")
        app.slider_step("k: number of features", 1, expect="Explanation (k=3")
        app.shot("06_explain_k3")

        # 6. add a rule and watch the decision change
        app.nav("Rules", expect="Add a rule")
        app.click_button("Take the conditions from the selected instance")
        flip_to = "POS" if before != "POS" else "NOT POS"
        if flip_to != "POS":  # THEN names the class in words; the first is picked
            app.act(app.widget("stRadio", "THEN").locator("label").nth(1).click)
        app.type_and_leave("stNumberInput", "p (probability", "1")
        app.type_and_leave("stNumberInput", "w (weight)", "100000")
        app.click_button("Add rule", expect="Added r1")
        said = {"POS": "Survived = 1", "NOT POS": "Survived = 0", "tie": "Survived = 0"}  # never POS
        body = app.text().replace("tie (reported Survived = 0)", "Survived = 0")
        assert f"{said[before.split(' (')[0]]} → {said[flip_to]}" in body, body
        assert not re.search(r"\bPOS\b", body.split("…or type whole rules")[0])
        app.shot("07_rule_added")
        app.nav("Query", expect="Answer")
        assert _decision(app, "Survived = 1") == flip_to
        app.shot("08_query_after_rule")

        # 7. compare two explanations side by side
        app.nav("Explain", expect="Side by side")
        app.radio("Compare", "Two instances", expect="A: test row")
        app.select_index("Second instance (test row)", 4, expect="B: test row")
        body = app.text()
        assert body.count("Explanation (k=") >= 3  # the main one, A and B
        app.shot("09_explain_side_by_side")
        app.radio("Compare", "Across KB kinds", expect="(Direct) with rules")
        app.shot("10_explain_across_kb_kinds")

        # 8. the evaluation page
        app.nav("Evaluate", expect="Confusion matrix")
        app.click_button("Start the comparison", expect="How often each feature is in the top-k")
        app.shot("11_evaluate")
        assert not app.dialogs
    finally:
        ctx.close()


def test_a_lost_click_is_done_once_more_and_a_registered_one_never(browser, server):
    """App.act, under every browser test: a click the page never sent on (lost in a rerun) is
    done once more; a click that was sent is done once; one lost twice fails, saying what was
    clicked, what the page shows and what the server logged."""
    ctx, app = new_app(browser, server, "lost")
    try:
        app.open("", expect="Data")
        link = app.page.locator('[data-testid="stSidebarNav"] a', has_text="Projects").first
        calls: list[int] = []

        def click_but_lose_the_first() -> None:
            calls.append(1)
            if len(calls) > 1:
                link.click()

        app.register_s = 2.0  # a nav click is sent on in milliseconds
        app.act(click_but_lose_the_first, expect="This project", what="the lost click")
        assert len(calls) == 2 and app.repeated == ["the lost click"]
        back = app.page.locator('[data-testid="stSidebarNav"] a', has_text="Data").first
        app.register_s = 10.0
        calls.clear()
        app.act(lambda: (calls.append(1), back.click()), expect="Data", what="the sent click")
        assert len(calls) == 1 and app.repeated == ["the lost click"]
        app.register_s, app.timeout = 1.0, 2_000
        with pytest.raises(AssertionError) as failed:
            app.act(lambda: calls.append(1), what="the click lost twice", target=link)
        assert len(calls) == 3
        msg = str(failed.value)
        assert "the click lost twice: no rerun request was sent and no run began" in msg
        assert "the element is enabled" in msg and "the page says:" in msg and "server log:" in msg
    finally:
        ctx.close()


def test_two_sessions_never_share_data_or_rules(browser, server, tmp_path):
    ctx_a, a = new_app(browser, server, "a")
    ctx_b, b = new_app(browser, server, "b")
    try:
        a.open("")
        b.open("")
        for app in (a, b):  # each starts a project of its own (a new session opens the last one)
            new_project(app, f"Session {app.name}")
        a.nav("Data", expect="breast-cancer-wisconsin")
        b.nav("Data", expect="breast-cancer-wisconsin")
        # A switches to another data set while B is connected …
        a.select("Built-in data set", "Synthetic Syn 10/4")
        a.click_button("Use this data", expect="Now using syn")
        # … and adds a rule
        a.nav("Rules", expect="Add a rule")
        a.type_and_leave("stTextInput", "…or type conditions", "a1=1 AND a2=1")
        a.type_and_leave("stNumberInput", "w (weight)", "5")  # no weight is guessed
        a.click_button("Add rule", expect="Added r1")
        a.sidebar_shows("Rules: 1")
        a.shot("12_session_a")
        # B still has the default data, no rules, and its own KB
        b.nav("Rules", expect="Add a rule")
        b.expect("No rules yet")
        side = b.sidebar_text()
        assert "breast-cancer-wisconsin" in side and "Rules: 0" in side and "syn" not in side
        b.nav("Data", expect="breast-cancer-wisconsin")
        b.shot("13_session_b")
        # B adds its own rule; A still sees only its own
        from plx_app.service import new_workspace

        small = new_workspace().domains()["worst radius"][0]  # a bin plx's default answers on
        b.nav("Rules", expect="Add a rule")
        b.type_and_leave("stTextInput", "…or type conditions", f"worst radius={small}")
        b.type_and_leave("stNumberInput", "w (weight)", "5")  # no weight is guessed
        b.click_button("Add rule", expect="Added r1")
        a.nav("Rules", expect="Add a rule")
        mine = a.value("Edit rule")  # the rules table is a canvas; the editor names the rule
        assert mine.startswith("r1: IF a1 = 1 AND a2 = 1") and "worst radius" not in mine
        a.sidebar_shows("Rules: 1", "syn")
        assert b.value("Edit rule").startswith(f'r1: IF "worst radius" = {small} THEN ')
        # a refresh on any page reopens the session's own project, not the one B opened last,
        # on the patient A picked: the same row, answered with the same bounds
        a.nav("Query", expect="Counterfactual")
        _, picked = a.select_index("Instance", 3, expect="Counterfactual")
        row = re.search(r"row (\d+)", picked).group(1)
        bounds = (a.metric("Support, at least"), a.metric("Support, at most"), a.metric("Decision"))
        query = parse_qs(urlparse(a.page.url).query)
        assert "project" in query and query.get("case") == [f"test row {row}"], a.page.url
        a.page.reload()
        a.page.wait_for_selector("h1")
        a.idle()
        a.expect("Project: Session a")
        a.expect("Counterfactual")
        a.sidebar_shows(f"test row {row}")
        assert a.value("Instance") == picked
        assert (a.metric("Support, at least"), a.metric("Support, at most"),
                a.metric("Decision")) == bounds
        side = a.sidebar_text()
        assert "syn" in side and "Rules: 1" in side
        a.nav("Rules", expect="Add a rule")
        assert "worst radius" not in a.value("Edit rule")
        b.page.reload()  # and B's its own (B opened last again: the next test's new session
        b.page.wait_for_selector("h1")  # opens B's project, on the default data)
        b.idle()
        b.expect("Project: Session b")
        b.sidebar_shows("breast-cancer-wisconsin")
    finally:
        ctx_a.close()
        ctx_b.close()


def test_a_rule_typed_and_not_added_survives_a_refresh_and_stays_in_its_tab(browser, server):
    """dash25: the Add-a-rule form sent nothing until submitted, so a refresh lost an
    afternoon's typing. Each field is now kept as the tab's draft in the store (the tab's token
    in the URL): a refresh shows it again, another tab on the same project starts empty, and no
    weight is guessed (the rule waits for one, said in words)."""
    from plx_app.service import new_workspace

    small = new_workspace().domains()["worst radius"][0]
    ctx, app = new_app(browser, server, "draft")
    try:
        app.open("")
        new_project(app, "Draft kept")
        app.nav("Rules", expect="No weight chosen yet: w is how much the rule counts")
        app.type_and_leave("stTextInput", "…or type conditions", f"worst radius={small}")
        app.type_and_leave("stNumberInput", "p (probability", "0.80")
        app.click_button("Add rule", expect="Choose the rule's weight w: how much it counts")
        app.sidebar_shows("Rules: 0")
        other = App(ctx.new_page(), server, "draft-tab2")  # the same project, its own tab
        other.open("", expect="Draft kept")
        other.nav("Rules", expect="Add a rule")
        other.shows("stNumberInput", "p (probability", "0.95")  # the start, not A's 0.80,
        other.shows("stTextInput", "…or type conditions", "")  # once the page's values are in
        app.open(app.page.url.split("/", 3)[-1], expect="Rules")  # a browser refresh
        app.shows("stTextInput", "…or type conditions", f"worst radius={small}")
        app.shows("stNumberInput", "p (probability", "0.80")
        app.expect("No weight chosen yet")
        app.type_and_leave("stNumberInput", "w (weight)", "5")
        app.expect("w = 5 weighs as much as the data of ")
        app.click_button("Add rule", expect="Added r1")
        app.shows("stTextInput", "…or type conditions", "")
        app.sidebar_shows("Rules: 1")
    finally:
        ctx.close()


def test_user_text_stays_text_in_the_browser(browser, server, tmp_path):
    nasty = '<img src=x onerror="alert(1)">'
    lines = ["[link](http://example.invalid),<b>bold</b>,label"]
    quoted = '"' + nasty.replace('"', '""') + '"'
    lines += [f'{quoted if i % 2 else "<i>x</i>"},v{i % 3},{"a" if i % 3 else "b"}' for i in range(12)]
    path = tmp_path / "nasty.csv"
    path.write_text("\n".join(lines) + "\n")
    ctx, app = new_app(browser, server, "nasty")
    try:
        app.open("", expect="breast-cancer-wisconsin")
        app.radio("Source", "Upload a CSV", expect="Upload a file to continue")
        app.upload(path, expect="Positive class")
        app.select("Positive class", "a")
        app.click_button("Use this data", expect="Now using nasty.csv")
        for page in ("Knowledge base", "Query", "Explain"):
            app.nav(page)
        app.shot("14_user_text_escaped")
        assert app.page.locator('img[src="x"]').count() == 0
        assert app.page.locator('a[href*="example.invalid"]').count() == 0  # no autolink either
        assert not app.dialogs
        assert app.page.locator("i", has_text="x").count() == 0
        assert app.page.locator("b", has_text="bold").count() == 0
        text = app.text()
        # shown as typed; in a condition quoted as rule text quotes it (so it reads back)
        assert "<b>bold</b>" in text and nasty in text.replace('\\"', '"')
    finally:
        ctx.close()


def test_case_report_names_the_saved_rules_author(browser, server):
    """A rule saved under an author's name: the downloaded case report names that author in
    the rules in force (the project's history), escaped, and learned clauses say so."""
    ctx, app = new_app(browser, server, "report")
    try:
        app.open("")
        new_project(app, "Report")
        app.nav("Rules", expect="Add a rule")
        app.fill("stTextInput", "Your name", "Dr <i>Report</i>")
        from plx_app.service import new_workspace

        ws = new_workspace()  # the values plx's default answers on
        f = ws.features[0]
        app.page.get_by_text("…or type whole rules", exact=False).first.click()
        app.page.get_by_label("Rules", exact=True).first.wait_for(state="visible")
        app.type_and_leave("stTextArea", "Rules",
                         f'IF "{f}"="{ws.domains()[f][0]}" THEN POS [p=0.9, w=5, id=r1]')
        app.click_button("Add these rules", expect="rules version 1")
        app.nav("Query", expect="Case report")
        page = app.download("Download the case report (HTML)").read_text(encoding="utf-8")
        assert "Dr &lt;i&gt;Report&lt;/i&gt;" in page and "<i>Report" not in page
        assert "Expert rules in force" in page and "learned from data" in page
    finally:
        ctx.close()


def test_global_view_counts_rows_and_stops_on_stop(browser, server, tmp_path):
    """Heavy work is started by the user, counts its rows and stops on Stop, keeping and
    showing the rows done; starting again continues from there. On the 30-feature table, so
    that the run outlasts the click (the default's 6 features explain 300 rows in ~0.5 s)."""
    ctx, app = new_app(browser, server, "stop")
    try:
        upload_in_new_project(app, "Stop", wide_table(tmp_path / "wide.csv"), "diagnosis")
        app.nav("Global view", expect="Explain the rows")
        app.radio("Rows from", "training split", expect="Explaining 100 rows")
        app.start(app.page.get_by_role("button", name="Explain the rows").first.click)  # no wait
        app.page.get_by_text(re.compile(r"Explained [1-9]\d* of 100 rows")).first.wait_for(
            timeout=app.timeout)  # a row is done (a Stop before the first row keeps none)
        app.act(app.page.get_by_role("button", name="Stop").first.click, expect="Continue (",
                when_idle=False)  # during the run
        app.expect("Explanations given most often")  # the rows done are shown
        app.idle()
        text = app.text()  # one reading of the page (a second could catch a rerun mid-render)
        done = int(re.search(r"Stopped after (\d+) of 100 rows", text).group(1))
        assert 0 < done < 100 and f"Continue ({done} of 100 done)" in text
        assert "Explanations given most often" in text
        app.shot("15_global_view_stopped")
        app.click_button(f"Continue ({done} of 100 done)", expect="Explained a random sample")
        assert "Stopped" not in app.text()
    finally:
        ctx.close()


def test_kb_page_draws_the_binary_tree_plx_chose(browser, server, tmp_path):
    """plx's default on a value-against-rest rule answers with the binary tree: the page says
    which model answers and why, and draws its `≠` nodes; clicking one shows its condition."""
    from test_app_model import rest_table

    path = tmp_path / "rest.csv"
    rest_table().to_csv(path, index=False)
    ctx, app = new_app(browser, server, "binary")
    try:
        upload_in_new_project(app, "Binary tree", path, "outcome")
        app.nav("Knowledge base", expect="The model that answers")  # an upload gets the default
        assert "answers with the binary ID3 tree" in app.text()  # in plain words
        app.page.get_by_text("Details: the choice as plx fit reports it").first.click()
        app.expect("tree-bin-deep answers: out-of-fold F1")  # plx fit's reason, under Details
        text = app.text()
        assert "tree-bin-deep answers: out-of-fold F1" in text and "decision threshold" in text
        app.act(app.page.get_by_role("tab", name="ID3 tree").click,
                expect="Click a node to see its clause")
        chart = app.page.locator('[data-testid="stPlotlyChart"]').first
        points = chart.locator(".scatterlayer .trace").nth(1).locator(".point")
        points.first.wait_for(state="visible")
        assert "f1 ≠ a" in chart.text_content()  # the node labels are SVG text
        app.act(lambda: points.nth(2).click(force=True), expect="Node #2:")  # pre-order: f1 ≠ a
        clause = app.page.locator('[data-testid="stCode"]').first.inner_text()
        assert clause.startswith("IF f1 ≠ a THEN outcome = 1: support "), clause
        assert "five clauses" in app.text() or "5 clauses" in app.text()
        app.shot("16_kb_binary_tree_node")
    finally:
        ctx.close()
