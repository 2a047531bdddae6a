"""A new user's walk through the dashboard in headless Chromium (session 21, words21) on two
tables no earlier walk used: a three-class severity (mild / moderate / severe) with a
creatinine written in two units ("88 µmol/L", "1.0 mg/dL") and empty cells, and a 30-column
table with a 2% positive ("ICU transfer" against "ward"). Each: upload, outcome and positive
class, Use this data, Knowledge base, Query (rows with a missing value), Explain, Rules (one
typed, the browser refreshed, still there), Evaluate (the threshold moved and decided at),
Global view (rows explained), Projects. Prints the seconds of each step and writes each
step's page text to OUT/TABLE/NN_step.txt (nothing asserted: the tests do).

Run: `python benchmarks/adhoc/words21/walk.py [OUT]` (default /tmp/words21_walk).
"""

from __future__ import annotations

import sys
import time
import traceback
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests"))


def severity_table(path: Path, n: int = 900, seed: int = 211) -> Path:
    """Three severities from age, SpO2, CRP and creatinine; creatinine written with its unit,
    µmol/L in most rows and mg/dL (÷ 88.4) in a fifth; 10–20% empty cells."""
    r = np.random.default_rng(seed)
    age = r.integers(18, 95, n)
    spo2 = r.normal(95, 3, n).clip(75, 100).round(0)
    crp = r.gamma(1.5, 25, n).round(1)
    creat = r.gamma(4, 25, n).round(0)  # µmol/L
    risk = 0.03 * (age - 60) - 0.25 * (spo2 - 95) + 0.02 * (crp - 37) + 0.01 * (creat - 100) \
        + r.normal(0, 1, n)
    sev = np.where(risk > np.quantile(risk, 0.85), "severe",
                   np.where(risk > np.quantile(risk, 0.5), "moderate", "mild"))
    mg = r.random(n) < 0.2
    creat_txt = np.where(mg, [f"{c / 88.4:.2f} mg/dL" for c in creat],
                         [f"{int(c)} µmol/L" for c in creat])
    f = pd.DataFrame({"age": age, "sex": r.choice(["F", "M"], n), "spo2": spo2, "crp": crp,
                      "creatinine": creat_txt, "heart_rate": r.normal(85, 15, n).round(0),
                      "temp": r.normal(37.4, 0.8, n).round(1),
                      "oxygen": r.choice(["none", "nasal", "mask"], n),
                      "severity": sev})
    for c, p in [("crp", .15), ("creatinine", .1), ("temp", .2), ("oxygen", .1)]:
        f[c] = f[c].astype(object)
        f.loc[r.random(n) < p, c] = ""
    f.to_csv(path, index=False)
    return path


def rare_table(path: Path, n: int = 1500, seed: int = 212) -> Path:
    """30 columns (24 labs and vitals, 6 categories), 'ICU transfer' in 2% of rows against
    'ward', from lactate, a low blood pressure and a high respiratory rate; 5–15% empty."""
    r = np.random.default_rng(seed)
    cols = {f"lab{i:02d}": r.normal(50, 10, n).round(1) for i in range(21)}
    cols["lactate"] = r.gamma(2, 0.9, n).round(1)
    cols["sbp"] = r.normal(125, 20, n).round(0)
    cols["resp_rate"] = r.normal(18, 4, n).round(0)
    for i, k in enumerate(["ward", "sex", "smoker", "admission", "insurance", "diabetes"]):
        cols[k] = r.choice([f"{k[:2]}{j}" for j in range(2 + i % 3)], n)
    risk = 1.2 * cols["lactate"] - 0.04 * cols["sbp"] + 0.15 * cols["resp_rate"] + r.normal(0, 1, n)
    f = pd.DataFrame(cols)
    f["outcome"] = np.where(risk > np.quantile(risk, 0.98), "ICU transfer", "ward")
    for c, p in [("lactate", .15), ("lab03", .1), ("smoker", .05)]:
        f[c] = f[c].astype(object)
        f.loc[r.random(n) < p, c] = ""
    f.to_csv(path, index=False)
    return path


SHOTS = False  # set by a walk that wants screenshots

TABLES = {"severity": (severity_table, "severe", "IF oxygen=mask THEN POS [p=0.9, w=5]"),
          "rare30": (rare_table, "ICU transfer", "IF sbp < 100 THEN POS [p=0.9, w=5]")}


def walk_one(app, out: Path, name: str) -> dict[str, float]:
    make, positive, rule = TABLES[name]
    table = make(out / f"{name}.csv")
    steps = out / name
    steps.mkdir(parents=True, exist_ok=True)
    times: dict[str, float] = {}

    def step(key: str, fn) -> None:
        t = time.perf_counter()
        try:
            fn()
        except Exception:  # noqa: BLE001 - a walk goes on; the trace is the finding
            (steps / f"{len(times):02d}_{key}.error").write_text(traceback.format_exc())
            print(f"  {key}: FAILED (see {steps})", flush=True)
        times[key] = time.perf_counter() - t
        (steps / f"{len(times):02d}_{key}.txt").write_text(
            app.text() + "\n---sidebar---\n" + app.sidebar_text()
            + "\n---errors---\n" + "\n".join(app.errors_shown()))
        if SHOTS:  # a full-page screenshot beside the text, to look at (dash23's walk)
            app.page.screenshot(path=str(steps / f"{len(times):02d}_{key}.png"), full_page=True)
        print(f"  {key}: {times[key]:.1f} s", flush=True)

    step("data page", lambda: app.nav("Data", expect="CSV file (comma"))
    step("upload", lambda: app.upload(table, expect="Suggested label"))

    def outcome():
        if app.value("Positive class") != positive:
            app.select("Positive class", positive)
    step("positive class", outcome)
    step("use this data", lambda: app.click_button("Use this data", expect=f"Now using {name}.csv"))
    step("knowledge base", lambda: app.nav("Knowledge base", expect="The model that answers"))
    step("query", lambda: app.nav("Query", expect="Answer"))
    step("rows with a missing value", lambda: app.act(
        app.page.get_by_text("Only rows with a missing value").click, expect="rows. Click a row"))
    step("another row", lambda: app.select_other("Instance", 1, expect="Counterfactual"))
    step("explain", lambda: app.nav("Explain", expect="Explanation (k="))
    step("rules", lambda: app.nav("Rules", expect="Add a rule"))

    def add_rule():
        import re
        if not app.widget("stTextArea", "Rules").is_visible():  # open already while it holds text
            app.page.get_by_text("…or type whole rules").first.click()
        app.type_and_leave("stTextArea", "Rules", rule)
        app.click_button("Add these rules")
        said = re.search(r"— write (.+?)(?: or |\n|$)", app.text())
        if said:  # a number inside a bin is refused naming the cuts: take the first, as a user
            app.type_and_leave("stTextArea", "Rules", re.sub(r"IF .+? THEN", f"IF {said.group(1)} THEN",
                                                           rule))
            app.click_button("Add these rules")
        app.expect("Added")
    step("add a rule", add_rule)
    step("browser refresh", lambda: app.open(app.page.url.split("/", 3)[-1], expect="Rules: 1"))
    step("rules after refresh", lambda: app.nav("Rules", expect="Rules in the KB"))
    step("evaluate", lambda: app.nav("Evaluate", expect="Confusion matrix"))
    step("threshold step", lambda: app.slider_step("Decision threshold", -5))

    def decide():
        import re
        tried = re.search(r"At threshold (\d\.\d\d),", app.text()).group(1)
        app.click_button(f"Decide at {tried} on every page",
                         expect="Back to the model's own threshold")
    step("decide at it", decide)
    step("global view", lambda: app.nav("Global view", expect="Rows from"))
    step("explain the rows", lambda: app.click_button("Explain the rows", expect="Which features"))
    step("projects", lambda: app.nav("Projects", expect="This project"))
    return times


def main() -> None:
    from browser_util import App, chromium_path, launch, streamlit_server
    from playwright.sync_api import sync_playwright

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp/words21_walk")
    out.mkdir(parents=True, exist_ok=True)
    names = sys.argv[2].split(",") if len(sys.argv) > 2 else list(TABLES)
    with sync_playwright() as pw, streamlit_server(env={"PLX_HOME": str(out / "home")}) as url:
        browser = launch(pw, chromium_path())
        ctx = browser.new_context(viewport={"width": 1400, "height": 2400})
        app = App(ctx.new_page(), url, "words21")
        app.timeout = 240_000
        app.page.set_default_timeout(app.timeout)
        try:
            t = app.open("", expect="Data")
            print(f"first page load: {t:.1f} s", flush=True)
            app.radio("Source", "Upload a CSV", expect="Upload a file to continue")
            for name in names:
                print(name, flush=True)
                walk_one(app, out, name)
        finally:
            ctx.close()
            browser.close()


if __name__ == "__main__":
    main()
