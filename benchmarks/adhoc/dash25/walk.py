"""A clinician's walk through the dashboard in headless Chromium (session 25, dash25) on tables
no earlier walk used: *wide40*, 2,000 rows x 40 columns (30 labs, 10 categories), readmission
25%; *nyha*, 1,400 rows, an ordered 4-class label (NYHA I < II < III < IV, positive "IV", 9%);
*rare2pc*, 2,500 rows, "stroke" in 2% from binary flags and two numbers. words21's steps with
a full-page screenshot after each (OUT/TABLE/NN_step.png beside NN_step.txt), then: a rule
typed in the Add-a-rule form and the browser refreshed before it was added; the model file and
the KB JSON saved, the KB loaded back; an upload with a bad cell; two tabs at once. Prints each
step's seconds; nothing asserted (the tests do).

Run: `python benchmarks/adhoc/dash25/walk.py [OUT] [wide40,nyha,rare2pc]` (default /tmp/dash25_walk).
"""

from __future__ import annotations

import runpy
import sys
import time
import traceback
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
W21 = runpy.run_path(str(HERE.parent / "words21" / "walk.py"))  # its steps, not a copy


def wide40_table(path: Path, n: int = 2000, seed: int = 251) -> Path:
    """30 labs and 10 categories; 'readmitted' in 25% from four labs and one category."""
    r = np.random.default_rng(seed)
    cols = {f"lab_{i:02d}": r.normal(50, 10, n).round(1) for i in range(30)}
    for i in range(10):
        cols[f"cat_{i}"] = r.choice([f"c{i}{j}" for j in range(2 + i % 4)], n)
    risk = (0.08 * cols["lab_03"] - 0.06 * cols["lab_11"] + 0.05 * cols["lab_20"]
            + 0.9 * (cols["cat_2"] == "c20") + r.normal(0, 1, n))
    f = pd.DataFrame(cols)
    f["readmission"] = np.where(risk > np.quantile(risk, 0.75), "readmitted", "not readmitted")
    for c, p in [("lab_03", .1), ("lab_20", .05), ("cat_5", .08)]:
        f[c] = f[c].astype(object)
        f.loc[r.random(n) < p, c] = ""
    f.to_csv(path, index=False)
    return path


def nyha_table(path: Path, n: int = 1400, seed: int = 252) -> Path:
    """NYHA class I-IV (40/32/19/9%) from age, ejection fraction, BNP and walking distance."""
    r = np.random.default_rng(seed)
    age = r.integers(35, 95, n)
    ef = r.normal(45, 12, n).clip(10, 75).round(0)
    bnp = r.gamma(1.3, 300, n).round(0)
    walk = r.normal(380, 110, n).clip(20, 700).round(0)
    risk = 0.03 * (age - 65) - 0.05 * (ef - 45) + 0.002 * bnp - 0.006 * walk + r.normal(0, 1, n)
    q = np.quantile(risk, [0.40, 0.72, 0.91])
    cls = np.select([risk <= q[0], risk <= q[1], risk <= q[2]], ["I", "II", "III"], "IV")
    f = pd.DataFrame({"age": age, "ejection_fraction": ef, "bnp": bnp, "six_min_walk": walk,
                      "sex": r.choice(["F", "M"], n), "diabetes": r.choice(["yes", "no"], n),
                      "nyha": cls})
    for c, p in [("bnp", .12), ("six_min_walk", .2)]:
        f[c] = f[c].astype(object)
        f.loc[r.random(n) < p, c] = ""
    f.to_csv(path, index=False)
    return path


def rare2pc_table(path: Path, n: int = 2500, seed: int = 253) -> Path:
    """'stroke' in 2% from atrial fibrillation, age and systolic pressure; yes/no flags."""
    r = np.random.default_rng(seed)
    af = r.random(n) < 0.15
    age = r.integers(30, 95, n)
    sbp = r.normal(135, 20, n).round(0)
    cols = {"age": age, "sbp": sbp, "af": np.where(af, "yes", "no"),
            "smoker": r.choice(["yes", "no"], n, p=[.25, .75]),
            "diabetes": r.choice(["yes", "no"], n, p=[.2, .8]),
            "anticoagulant": r.choice(["yes", "no"], n, p=[.1, .9]),
            "cholesterol": r.normal(5.2, 1.0, n).round(1)}
    risk = 1.8 * af + 0.05 * (age - 60) + 0.03 * (sbp - 135) + r.normal(0, 1, n)
    f = pd.DataFrame(cols)
    f["event"] = np.where(risk > np.quantile(risk, 0.98), "stroke", "no stroke")
    f["cholesterol"] = f["cholesterol"].astype(object)
    f.loc[r.random(n) < 0.1, "cholesterol"] = ""
    f.to_csv(path, index=False)
    return path


def badcell_table(path: Path, n: int = 300, seed: int = 254) -> Path:
    """A potassium column of numbers with one cell '4..1' (file line 43) and one '>6.5'."""
    r = np.random.default_rng(seed)
    k = r.normal(4.2, 0.5, n).round(1).astype(object)
    k[41], k[120] = "4..1", ">6.5"
    f = pd.DataFrame({"age": r.integers(20, 90, n), "potassium": k,
                      "creatinine": r.normal(90, 25, n).round(0),
                      "arrhythmia": r.choice(["yes", "no"], n, p=[.2, .8])})
    f.to_csv(path, index=False)
    return path


W21["TABLES"].clear()
W21["TABLES"].update({
    "wide40": (wide40_table, "readmitted", "IF cat_2 = c20 THEN POS [p=0.6, w=5]"),
    "nyha": (nyha_table, "IV", "IF diabetes = yes THEN POS [p=0.3, w=5]"),
    "rare2pc": (rare2pc_table, "stroke", "IF af = yes THEN POS [p=0.4, w=5]"),
})
W21["walk_one"].__globals__["SHOTS"] = True
STEPS = W21["walk_one"]


def type_in(app, testid: str, label: str, value: str) -> None:
    """Type as a user does and leave the field (Tab): inside a form nothing is sent, outside
    one leaving it sends the value; either way wait until the page is idle."""
    box = app.widget(testid, label).locator("input, textarea").first
    box.fill(value)
    box.press("Tab")
    time.sleep(2)
    app.idle()


def stepper(app, steps: Path, times: dict[str, float]):
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
        app.page.screenshot(path=str(steps / f"{len(times):02d}_{key}.png"), full_page=True)
        print(f"  {key}: {times[key]:.1f} s", flush=True)
    return step


def walk_more(app, out: Path, name: str) -> dict[str, float]:
    """words21's steps, then a rule typed in the form and the browser refreshed before it was
    added; the class among all classes; the model file and the KB JSON saved, the KB loaded."""
    times = STEPS(app, out, name)
    steps = out / name
    step = stepper(app, steps, times)

    def form_then_refresh():
        app.nav("Rules", expect="Add a rule")
        type_in(app, "stTextInput", "…or type conditions (feature=value, joined by AND)",
                W21["TABLES"][name][2].split(" THEN")[0][3:])
        app.open(app.page.url.split("/", 3)[-1], expect="Rules")
    step("form typed, refreshed before adding", form_then_refresh)
    if name == "nyha":
        step("query again", lambda: app.nav("Query", expect="Answer"))
        step("answer among all classes", lambda: app.click_button(
            "Answer among all 4 classes", expect="picked"))
        step("explain again", lambda: app.nav("Explain", expect="Explanation (k="))
        step("explain among all classes", lambda: app.click_button(
            "Explain among all 4 classes", expect="Why"))
        step("evaluate among all classes", lambda: (
            app.nav("Evaluate", expect="Confusion matrix"),
            app.click_button("Score among all 4 classes", expect="Macro F1")))

    def save_and_load():
        app.nav("Knowledge base", expect="The model that answers")
        app.page.get_by_role("tab", name="Export / import").click()
        app.idle()
        app.expect("Save the model")
        got = app.download("Model file (JSON, for plx predict)")
        (steps / "plx-model.json").write_bytes(got.read_bytes())
        kb = app.download("JSON")
        (steps / "plx-kb.json").write_bytes(kb.read_bytes())
        app.act(lambda: app.widget("stFileUploader", "KB JSON").locator("input[type=file]")
                .set_input_files(str(steps / "plx-kb.json")), expect="Use the imported KB")
        app.click_button("Use the imported KB", expect="Imported a KB")
    step("model file and KB saved, KB loaded back", save_and_load)
    return times


def walk_extra(app, out: Path) -> None:
    """An upload with a bad cell; two tabs at once (a rule typed in one, the other looked at)."""
    steps = out / "extra"
    steps.mkdir(parents=True, exist_ok=True)
    step = stepper(app, steps, {})
    bad = badcell_table(out / "badcell.csv")
    step("data page", lambda: app.nav("Data", expect="CSV file (comma"))
    step("upload a bad cell", lambda: app.upload(bad, expect="Suggested label"))
    step("use it", lambda: app.click_button("Use this data", expect="Now using badcell.csv"))
    step("query it", lambda: app.nav("Query", expect="Answer"))
    from browser_util import App
    other = App(app.page.context.new_page(), app.url, "dash25-tab2")
    other.timeout = app.timeout
    other.page.set_default_timeout(app.timeout)
    two = stepper(other, steps, {"tab2": 0.0})

    def tab2():
        other.open("", expect="Data")
        other.nav("Rules", expect="Add a rule")
    two("second tab opened", tab2)
    step("tab 1 types a rule", lambda: (app.nav("Rules", expect="Add a rule"), type_in(
        app, "stTextInput", "…or type conditions (feature=value, joined by AND)", "arrhythmia=yes")))
    two("second tab refreshed", lambda: other.open(other.page.url.split("/", 3)[-1],
                                                   expect="Add a rule"))
    step("tab 1 refreshed", lambda: app.open(app.page.url.split("/", 3)[-1], expect="Add a rule"))


W21["main"].__globals__["walk_one"] = walk_more

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.argv.append("/tmp/dash25_walk")
    NAMES = sys.argv[2].split(",") if len(sys.argv) > 2 else list(W21["TABLES"])
    sys.argv[2:] = [",".join(NAMES)]
    TABLE_NAMES = [n for n in NAMES if n in W21["TABLES"]] or ["extra"]

    def walk_all(app, out: Path, name: str) -> dict[str, float]:
        times = walk_more(app, out, name) if name in W21["TABLES"] else {}
        if name == NAMES[-1]:
            walk_extra(app, out)
        return times
    W21["main"].__globals__["walk_one"] = walk_all
    W21["main"]()
