"""A clinician's walk through the dashboard on a new table, in headless Chromium: screenshots
of what the window shows at each step, to look at (nothing is asserted; the browser tests do).

Run: `python benchmarks/clinic_walk.py [--width 1024 --height 768] [--out DIR]`. It writes a
700-row, 20-column table (numbers and empty cells, sepsis in 8% of rows) to DIR, starts
`streamlit run app.py` with its projects in DIR/home (tests/browser_util.py), and walks:
upload, label and positive class, use this data (plx's default built) -> Knowledge base ->
Query, a row with an unknown cell -> Explain -> Rules, an OR rule typed -> Evaluate, the
threshold slider scrolled into view -> Explain across KB kinds -> reload the browser (the
project from SQLite) -> Rules. DIR/shots/WIDTH/NN_step.png is the window, NN_step_full.png
the page at 2600 px high. Findings and fixes: benchmarks/RESULTS.md ("A clinician's walk").
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

RULE = "IF ward=ICU OR lactate=≥2.7 THEN POS [p=0.9, w=5]"  # lactate's cut on this table


def sepsis_table(path: Path, n: int = 700, seed: int = 17) -> Path:
    """Vital signs and labs with empty cells; sepsis (yes/no) in 8% of rows, from age, CRP,
    lactate, the ward and SpO2 with noise."""
    r = np.random.default_rng(seed)
    df = pd.DataFrame({
        "age": r.integers(18, 95, n), "sex": r.choice(["F", "M"], n),
        "systolic bp": r.normal(130, 18, n).round(0), "diastolic bp": r.normal(80, 10, n).round(0),
        "heart rate": r.normal(78, 12, n).round(0), "temp C": r.normal(37.0, 0.6, n).round(1),
        "resp rate": r.integers(10, 30, n), "spo2 %": r.normal(96, 2.5, n).round(0).clip(80, 100),
        "crp mg/L": r.gamma(1.5, 20, n).round(1), "wbc": r.normal(8, 2.5, n).round(1),
        "hb g/dL": r.normal(13, 1.8, n).round(1), "platelets": r.normal(250, 60, n).round(0),
        "creatinine": r.gamma(3, 0.3, n).round(2), "sodium": r.normal(139, 3, n).round(0),
        "potassium": r.normal(4.2, 0.5, n).round(1), "glucose": r.normal(6, 1.8, n).round(1),
        "lactate": r.gamma(2, 0.8, n).round(1), "bmi": r.normal(27, 5, n).round(1),
        "smoker": r.choice(["yes", "no", "former"], n),
        "ward": r.choice(["medical", "surgical", "ICU"], n, p=[.5, .4, .1]),
    })
    risk = (0.04 * (df["age"] - 60) + 0.03 * (df["crp mg/L"] - 30) + 0.9 * (df["lactate"] - 1.6)
            + 1.0 * (df["ward"] == "ICU") - 0.15 * (df["spo2 %"] - 96) + r.normal(0, 1, n))
    df["sepsis"] = np.where(risk > np.quantile(risk, 0.92), "yes", "no")
    for col, share in [("crp mg/L", .15), ("lactate", .25), ("wbc", .1), ("bmi", .2),
                       ("smoker", .1), ("temp C", .05)]:
        df[col] = df[col].astype(object)
        df.loc[r.random(n) < share, col] = ""
    df.to_csv(path, index=False)
    return path


def walk(width: int, height: int, out: Path) -> None:
    from browser_util import App, chromium_path, launch, streamlit_server
    from playwright.sync_api import sync_playwright

    shots = out / "shots" / str(width)
    shots.mkdir(parents=True, exist_ok=True)
    table = sepsis_table(out / "sepsis.csv")

    def shot(app: App, name: str, whole: bool = False) -> None:
        app.page.wait_for_timeout(400)
        app.page.screenshot(path=str(shots / f"{name}.png"))
        if whole:  # Streamlit scrolls inside its own box: a tall window shows the page
            app.page.set_viewport_size({"width": width, "height": 2600})
            app.page.wait_for_timeout(800)
            app.page.screenshot(path=str(shots / f"{name}_full.png"))
            app.page.set_viewport_size({"width": width, "height": height})
        print(f"{time.strftime('%H:%M:%S')} {name}", flush=True)

    with sync_playwright() as pw, streamlit_server(env={"PLX_HOME": str(out / "home")}) as url:
        browser = launch(pw, chromium_path())
        ctx = browser.new_context(viewport={"width": width, "height": height})
        app = App(ctx.new_page(), url, "walk")
        try:
            app.open("", expect="Data")
            shot(app, "01_open")
            app.radio("Source", "Upload a CSV", expect="Upload a file to continue")
            app.upload(table, expect="label")
            shot(app, "02_uploaded", True)
            if app.value("Positive class") != "yes":
                app.select("Positive class", "yes")
            app.click_button("Use this data", expect="Now using sepsis.csv")
            shot(app, "03_used", True)
            app.nav("Knowledge base", expect="The model that answers")
            shot(app, "04_kb", True)
            app.nav("Query", expect="Answer")
            app.act(app.page.get_by_text("Only rows with a missing value").click,
                    expect="rows. Click a row")
            app.select_other("Instance", 1, expect="Counterfactual")
            shot(app, "05_query", True)
            app.nav("Explain", expect="Explanation (k=")
            shot(app, "06_explain", True)
            app.nav("Rules", expect="Add a rule")
            app.page.get_by_text("…or type whole rules").first.click()
            app.fill_in_form("stTextArea", "Rules", RULE)
            app.click_button("Add these rules", expect="Added")
            shot(app, "07_rules", True)
            app.nav("Evaluate", expect="Confusion matrix")
            shot(app, "08_evaluate", True)
            app.widget("stSlider", "Decision threshold").scroll_into_view_if_needed()
            shot(app, "09_evaluate_slider")
            app.nav("Explain", expect="Side by side")
            app.radio("Compare", "Across KB kinds", expect="with rules")
            shot(app, "10_compare", True)
            app.page.reload()
            app.expect("Rules: 1")
            shot(app, "11_reloaded")
            app.nav("Rules", expect="Rules in the KB")
            shot(app, "12_rules_after_reload", True)
        except Exception:
            traceback.print_exc()
            shot(app, "zz_failure", True)
        finally:
            ctx.close()
            browser.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--width", type=int, default=1024)
    ap.add_argument("--height", type=int, default=768)
    ap.add_argument("--out", type=Path, default=Path("/tmp/plx_clinic_walk"))
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    walk(a.width, a.height, a.out)


if __name__ == "__main__":
    main()
