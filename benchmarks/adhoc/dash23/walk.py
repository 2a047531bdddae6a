"""A clinician's walk through the dashboard in headless Chromium (session 23, dash23) on four
tables no earlier walk used: *six*, a 6-class discharge outcome from numeric labs with 5–20%
empty cells; *rare20k*, 20,000 rows with a 2% positive; *wide60*, 60 columns; *iddate*, a
table with a patient ID column and an admission date column. words21's steps
(`benchmarks/adhoc/words21/walk.py`) run on each, with a full-page screenshot after every step
(OUT/TABLE/NN_step.png, looked at one by one) beside its page text (NN_step.txt). Prints each
step's seconds; nothing asserted (the tests do).

Run: `python benchmarks/adhoc/dash23/walk.py [OUT] [six,rare20k,wide60,iddate]`
(default /tmp/dash23_walk).
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
W21 = runpy.run_path(str(HERE.parent / "words21" / "walk.py"))  # its steps, not a copy


def six_table(path: Path, n: int = 1500, seed: int = 231) -> Path:
    """Six discharge outcomes (home, home with care, rehab, nursing home, readmitted, died)
    from age, a frailty score, albumin, CRP, creatinine and length of stay; 5–20% empty."""
    r = np.random.default_rng(seed)
    age = r.integers(20, 98, n)
    frail = r.integers(1, 10, n)
    alb = r.normal(36, 6, n).round(0)
    crp = r.gamma(1.4, 30, n).round(0)
    creat = r.gamma(4, 25, n).round(0)
    los = r.gamma(2, 3, n).round(0) + 1
    risk = 0.04 * (age - 60) + 0.35 * (frail - 5) - 0.08 * (alb - 36) + 0.01 * crp \
        + 0.004 * creat + r.normal(0, 1, n)
    q = np.quantile(risk, [0.35, 0.55, 0.72, 0.86, 0.95])
    names = np.array(["home", "home with care", "rehab", "nursing home", "readmitted", "died"])
    f = pd.DataFrame({"age": age, "frailty": frail, "albumin": alb, "crp": crp,
                      "creatinine": creat, "length_of_stay": los,
                      "sex": r.choice(["F", "M"], n), "lives_alone": r.choice(["yes", "no"], n)})
    f["discharge"] = names[np.searchsorted(q, risk)]
    for c, p in [("albumin", .2), ("crp", .1), ("creatinine", .05)]:
        f[c] = f[c].astype(object)
        f.loc[r.random(n) < p, c] = ""
    f.to_csv(path, index=False)
    return path


def rare20k_table(path: Path, n: int = 20000, seed: int = 232) -> Path:
    """20,000 admissions, 'sepsis' in 2% from lactate, heart rate, temperature and a low
    pressure; ten columns, two with empty cells."""
    r = np.random.default_rng(seed)
    cols = {"age": r.integers(18, 96, n), "lactate": r.gamma(2, 0.8, n).round(1),
            "heart_rate": r.normal(84, 14, n).round(0), "temp": r.normal(37.2, 0.8, n).round(1),
            "sbp": r.normal(124, 19, n).round(0), "wbc": r.normal(9, 3.5, n).clip(0.5).round(1),
            "resp_rate": r.normal(18, 4, n).round(0), "sodium": r.normal(139, 4, n).round(0),
            "ward": r.choice(["medical", "surgical", "emergency"], n),
            "sex": r.choice(["F", "M"], n)}
    risk = (1.0 * cols["lactate"] + 0.03 * (cols["heart_rate"] - 84) + 0.6 * (cols["temp"] - 37.2)
            - 0.03 * cols["sbp"] + r.normal(0, 0.8, n))
    f = pd.DataFrame(cols)
    f["outcome"] = np.where(risk > np.quantile(risk, 0.98), "sepsis", "no sepsis")
    for c, p in [("lactate", .2), ("wbc", .08)]:
        f[c] = f[c].astype(object)
        f.loc[r.random(n) < p, c] = ""
    f.to_csv(path, index=False)
    return path


def wide60_table(path: Path, n: int = 1200, seed: int = 233) -> Path:
    """60 columns: 50 labs (most noise), 10 categories; 'relapse' in 20% from four labs and
    two categories; a few empty cells."""
    r = np.random.default_rng(seed)
    cols = {f"lab_{i:02d}": r.normal(100, 15, n).round(1) for i in range(50)}
    for i in range(10):
        cols[f"cat_{i}"] = r.choice(["a", "b", "c"][: 2 + i % 2], n)
    risk = (0.05 * cols["lab_03"] - 0.04 * cols["lab_17"] + 0.03 * cols["lab_29"]
            + 0.8 * (cols["cat_1"] == "c") + r.normal(0, 1, n))
    f = pd.DataFrame(cols)
    f["relapse"] = np.where(risk > np.quantile(risk, 0.8), "relapse", "no relapse")
    for c in ["lab_03", "lab_40"]:
        f[c] = f[c].astype(object)
        f.loc[r.random(n) < 0.1, c] = ""
    f.to_csv(path, index=False)
    return path


def iddate_table(path: Path, n: int = 1000, seed: int = 234) -> Path:
    """A patient ID ("P000123") and an admission date (2023-2025) beside six columns;
    'readmitted' in 15%, from age, length of stay and the number of drugs (not the date)."""
    r = np.random.default_rng(seed)
    days = r.integers(0, 3 * 365, n)
    date = (pd.Timestamp("2023-01-01") + pd.to_timedelta(days, unit="D")).strftime("%Y-%m-%d")
    f = pd.DataFrame({"patient_id": [f"P{i:06d}" for i in r.permutation(n) + 100],
                      "admission_date": date, "age": r.integers(20, 95, n),
                      "length_of_stay": (r.gamma(2, 3, n) + 1).round(0),
                      "n_drugs": r.integers(0, 15, n),
                      "diabetes": r.choice(["yes", "no"], n),
                      "discharged_to": r.choice(["home", "care home", "other"], n)})
    risk = 0.03 * f["age"] + 0.15 * f["length_of_stay"] + 0.15 * f["n_drugs"] + r.normal(0, 1, n)
    f["readmitted"] = np.where(risk > np.quantile(risk, 0.85), "yes", "no")
    f.to_csv(path, index=False)
    return path


W21["TABLES"].clear()
W21["TABLES"].update({
    "six": (six_table, "died", "IF frailty >= 8 THEN POS [p=0.7, w=5]"),
    "rare20k": (rare20k_table, "sepsis", "IF lactate >= 4 THEN POS [p=0.9, w=5]"),
    "wide60": (wide60_table, "relapse", "IF cat_1 = c THEN POS [p=0.6, w=5]"),
    "iddate": (iddate_table, "yes", "IF n_drugs >= 10 THEN POS [p=0.6, w=5]"),
})

W21["walk_one"].__globals__["SHOTS"] = True  # NN_step.png beside NN_step.txt

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.argv.append("/tmp/dash23_walk")
    W21["main"]()
