"""A clinician's walk through the dashboard in headless Chromium (session 24, dash24) on two
tables no earlier walk used: *ordinal*, 900 rows, a 3-class outcome with an ordered label
(mild / moderate / severe), two rows with every feature unknown, and an expert rule that
contradicts the data (high SpO2 said to mean severe); *rare2*, 3,000 rows, a 2% positive
("delirium") whose many rows get support 0. words21's steps (`benchmarks/adhoc/words21/walk.py`)
with a full-page screenshot after each (OUT/TABLE/NN_step.png beside NN_step.txt), then the
class answer among all classes, Evaluate's comparison with the other models and a browser
refresh in the middle of typing rules. Prints each step's seconds; nothing asserted.

Run: `python benchmarks/adhoc/dash24/walk.py [OUT] [ordinal,rare2]` (default /tmp/dash24_walk).
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
W21 = runpy.run_path(str(HERE.parent / "words21" / "walk.py"))  # its steps, not a copy


def ordinal_table(path: Path, n: int = 900, seed: int = 241) -> Path:
    """mild / moderate / severe (50/35/15%) from age, SpO2, respiratory rate and CRP; rows 5
    and 6 have every feature empty; 5-10% empty cells elsewhere."""
    r = np.random.default_rng(seed)
    age = r.integers(18, 95, n)
    spo2 = r.normal(95, 3, n).clip(75, 100).round(0)
    rr = r.normal(18, 4, n).round(0)
    crp = r.gamma(1.5, 25, n).round(0)
    risk = 0.03 * (age - 60) - 0.3 * (spo2 - 95) + 0.15 * (rr - 18) + 0.01 * crp + r.normal(0, 1, n)
    sev = np.where(risk > np.quantile(risk, 0.85), "severe",
                   np.where(risk > np.quantile(risk, 0.5), "moderate", "mild"))
    f = pd.DataFrame({"age": age, "spo2": spo2, "resp_rate": rr, "crp": crp,
                      "sex": r.choice(["F", "M"], n), "smoker": r.choice(["yes", "no"], n),
                      "outcome": sev}).astype({"age": object, "spo2": object, "resp_rate": object,
                                               "crp": object})
    for c, p in [("crp", .1), ("resp_rate", .05)]:
        f.loc[r.random(n) < p, c] = ""
    f.loc[[5, 6], ["age", "spo2", "resp_rate", "crp", "sex", "smoker"]] = ""
    f.to_csv(path, index=False)
    return path


def rare2_table(path: Path, n: int = 3000, seed: int = 242) -> Path:
    """'delirium' in 2% of admissions from age, a sedative count and sodium; 8 columns."""
    r = np.random.default_rng(seed)
    cols = {"age": r.integers(18, 99, n), "sedatives": r.integers(0, 5, n),
            "sodium": r.normal(139, 4, n).round(0), "hb": r.normal(130, 15, n).round(0),
            "ward": r.choice(["medical", "surgical", "ortho"], n), "sex": r.choice(["F", "M"], n)}
    risk = 0.06 * (cols["age"] - 60) + 0.6 * cols["sedatives"] - 0.15 * (cols["sodium"] - 139) \
        + r.normal(0, 1, n)
    f = pd.DataFrame(cols)
    f["status"] = np.where(risk > np.quantile(risk, 0.98), "delirium", "none")
    f["sodium"] = f["sodium"].astype(object)
    f.loc[r.random(n) < 0.05, "sodium"] = ""
    f.to_csv(path, index=False)
    return path


W21["TABLES"].clear()
W21["TABLES"].update({
    "ordinal": (ordinal_table, "severe", "IF spo2 >= 97 THEN POS [p=0.95, w=10]"),
    "rare2": (rare2_table, "delirium", "IF sedatives >= 3 THEN POS [p=0.5, w=5]"),
})
W21["walk_one"].__globals__["SHOTS"] = True
STEPS = W21["walk_one"]


def walk_more(app, out: Path, name: str) -> dict[str, float]:
    """words21's steps, then: a rule typed and the browser refreshed before it is added; the
    class among all classes (its progress bar); Evaluate's other models; the model file."""
    import time
    import traceback

    times = STEPS(app, out, name)
    steps = out / name

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

    def typed_then_refresh():
        app.nav("Rules", expect="Add a rule")
        app.page.get_by_text("…or type whole rules").first.click()
        app.type_and_leave("stTextArea", "Rules", "IF sex = M THEN POS [p=0.6, w=1]")
        app.open(app.page.url.split("/", 3)[-1], expect="Rules")
    step("typed, refreshed before adding", typed_then_refresh)
    if name == "ordinal":
        step("query again", lambda: app.nav("Query", expect="Answer"))
        step("answer among all classes", lambda: app.click_button(
            "Answer among all 3 classes", expect="picked"))
    step("evaluate again", lambda: app.nav("Evaluate", expect="Confusion matrix"))
    step("other models", lambda: app.click_button("Compare with 6 other models",
                                                  expect="F1"))

    def model_file():
        app.nav("Knowledge base", expect="The model that answers")
        app.page.get_by_role("tab", name="Export / import").click()
        app.idle()
        app.expect("Save the model")
        got = app.download("Model file (JSON, for plx predict)")
        (steps / "plx-model.json").write_bytes(got.read_bytes())
    step("model file", model_file)
    return times


W21["main"].__globals__["walk_one"] = walk_more

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.argv.append("/tmp/dash24_walk")
    W21["main"]()
