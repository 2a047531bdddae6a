"""A new user's walk through the dashboard in headless Chromium (session 22, words22) on two
tables no earlier walk used: *labs5k*, 5,000 rows of 12 numeric labs (two of them written in
two units, "5.2 mmol/L" / "94 mg/dL" and "13.1 g/dL" / "131 g/L"; four with 5–25% empty
cells) and a rare 3% outcome ("sepsis" against "no sepsis"); *survey*, 800 answers of 1–5 to
ten questions (a few "prefer not to say", some skipped) with a yes/no outcome. Each: upload,
positive class, Use this data, Knowledge base, Query (rows with a missing value), Explain,
Rules (one typed, the browser refreshed, still there), Evaluate (threshold), Global view,
Projects — words21's steps (`benchmarks/adhoc/words21/walk.py`, run on these tables), the
Data page's cut points after Use this data added. Prints each step's seconds and writes its
page text to OUT/TABLE/NN_step.txt (nothing asserted: the tests do).

Run: `python benchmarks/adhoc/words22/walk.py [OUT] [labs5k,survey]` (default /tmp/words22_walk).
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
W21 = runpy.run_path(str(HERE.parent / "words21" / "walk.py"))  # its steps, not a copy


def labs_table(path: Path, n: int = 5000, seed: int = 221) -> Path:
    """12 labs, sepsis in 3% of rows from lactate, CRP, white cells and a low pressure;
    glucose in mmol/L or mg/dL (×18), haemoglobin in g/dL or g/L (×10); 5–25% empty."""
    r = np.random.default_rng(seed)
    cols = {
        "age": r.integers(18, 96, n), "lactate": r.gamma(2, 0.8, n).round(1),
        "crp": r.gamma(1.3, 30, n).round(0), "wbc": r.normal(9, 3.5, n).clip(0.5).round(1),
        "sbp": r.normal(124, 19, n).round(0), "heart_rate": r.normal(84, 14, n).round(0),
        "temp": r.normal(37.3, 0.8, n).round(1), "creatinine": r.gamma(4, 24, n).round(0),
        "sodium": r.normal(139, 4, n).round(0), "platelets": r.normal(250, 70, n).round(0),
    }
    glucose = r.gamma(8, 0.75, n)  # mmol/L
    hb = r.normal(13.2, 1.8, n)  # g/dL
    risk = (0.9 * cols["lactate"] + 0.012 * cols["crp"] + 0.12 * cols["wbc"]
            - 0.03 * cols["sbp"] + 0.02 * (cols["heart_rate"] - 84) + r.normal(0, 0.8, n))
    f = pd.DataFrame(cols)
    mg = r.random(n) < 0.3
    f["glucose"] = np.where(mg, [f"{g * 18:.0f} mg/dL" for g in glucose],
                            [f"{g:.1f} mmol/L" for g in glucose])
    gl = r.random(n) < 0.4
    f["haemoglobin"] = np.where(gl, [f"{h * 10:.0f} g/L" for h in hb], [f"{h:.1f} g/dL" for h in hb])
    f["outcome"] = np.where(risk > np.quantile(risk, 0.97), "sepsis", "no sepsis")
    for c, p in [("lactate", .25), ("crp", .1), ("platelets", .05), ("temp", .15)]:
        f[c] = f[c].astype(object)
        f.loc[r.random(n) < p, c] = ""
    f.to_csv(path, index=False)
    return path


def survey_table(path: Path, n: int = 800, seed: int = 222) -> Path:
    """Ten 1–5 answers (some "prefer not to say", some skipped) and whether the person would
    recommend the clinic (yes/no) from three of them."""
    r = np.random.default_rng(seed)
    qs = {f"q{i:02d}_{w}": r.integers(1, 6, n) for i, w in enumerate(
        ["waiting", "staff", "clarity", "cleanliness", "parking", "food", "noise", "privacy",
         "followup", "cost"], 1)}
    score = qs["q02_staff"] + qs["q03_clarity"] + 0.7 * qs["q09_followup"] + r.normal(0, 1.5, n)
    f = pd.DataFrame(qs).astype(object)
    for c in ["q05_parking", "q08_privacy", "q10_cost"]:
        f.loc[r.random(n) < 0.06, c] = "prefer not to say"
        f.loc[r.random(n) < 0.08, c] = ""
    f["recommend"] = np.where(score > np.quantile(score, 0.55), "yes", "no")
    f.to_csv(path, index=False)
    return path


W21["TABLES"].clear()
W21["TABLES"].update({
    "labs5k": (labs_table, "sepsis", "IF lactate >= 4 THEN POS [p=0.9, w=5]"),
    "survey": (survey_table, "yes", "IF q02_staff >= 4 THEN POS [p=0.8, w=5]"),
})

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.argv.append("/tmp/words22_walk")
    W21["main"]()
