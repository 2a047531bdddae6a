"""Seeded tables for session 22 (whole22): columns of 3–10 whole numbers that are ordered (a
1–5 severity, a 0–8 count of visits, a 0–9 pain score) or are codes (regions, departments),
and one mixing both. Each returns (X raw, y text, positive class) and joins numeric21's
`FAMILIES` (pain_score, ward_code …), so `whole22/race.py` runs them all."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).parents[1] / "numeric21"))
import families21  # noqa: E402,F401
from families import FAMILIES, _sig, _yes  # noqa: E402


def severity(seed=0, n=800):
    """A 1–5 severity grade whose risk steps up from grade 4, a 0–9 pain score rising gently,
    a sex and an age: two ordered scores beside other columns."""
    rng = np.random.default_rng(seed)
    grade = rng.integers(1, 6, n)
    pain = rng.integers(0, 10, n)
    sex = rng.choice(["f", "m"], n)
    age = rng.normal(60, 12, n).round()
    z = 1.3 * (grade >= 4) + 0.15 * (pain - 4.5) + 0.4 * (sex == "m") + 0.02 * (age - 60) - 0.9
    X = pd.DataFrame({"grade": grade, "pain": pain, "sex": sex, "age": age})
    return X, pd.Series(_yes(_sig(z), rng)), "yes"


def visits(seed=0, n=600):
    """Readmission rising with the number of visits last year (0–8, Poisson), a 1–4 frailty
    score and a drug: counts on 600 rows, where a level a value is thin at the top."""
    rng = np.random.default_rng(seed)
    count = np.minimum(rng.poisson(2.0, n), 8)
    frail = rng.integers(1, 5, n)
    drug = rng.choice(["a", "b", "c"], n)
    z = 0.45 * (count - 2) + 0.5 * (frail - 2.5) + 0.5 * (drug == "c") - 0.4
    X = pd.DataFrame({"visits": count, "frailty": frail, "drug": drug})
    return X, pd.Series(_yes(_sig(z), rng)), "yes"


def regions(seed=0, n=800):
    """A region code 1–9 (regions 3 and 7 risky) and a department 1–6 (department 1 risky, 4
    less), a 0–5 count of no effect, and an age: whole numbers that name things."""
    rng = np.random.default_rng(seed)
    region = rng.integers(1, 10, n)
    dept = rng.integers(1, 7, n)
    noise = rng.integers(0, 6, n)
    age = rng.normal(50, 15, n).round()
    z = 1.6 * np.isin(region, [3, 7]) + 0.9 * (dept == 1) - 0.8 * (dept == 4) \
        + 0.02 * (age - 50) - 0.8
    X = pd.DataFrame({"region": region, "dept": dept, "noise": noise, "age": age})
    return X, pd.Series(_yes(_sig(z), rng)), "yes"


def mixed(seed=0, n=800):
    """A 1–5 grade (ordered, risk from 4), a ward 1–7 (wards 2 and 6 risky), a 0–6 count of no
    effect and a lab value: both kinds in one table, each column its own reading."""
    rng = np.random.default_rng(seed)
    grade = rng.integers(1, 6, n)
    ward = rng.integers(1, 8, n)
    count = rng.integers(0, 7, n)
    lab = rng.normal(5, 2, n).round(1)
    z = 1.2 * (grade >= 4) + 1.3 * np.isin(ward, [2, 6]) + 0.2 * (lab - 5) - 1.2
    X = pd.DataFrame({"grade": grade, "ward": ward, "count": count, "lab": lab})
    return X, pd.Series(_yes(_sig(z), rng)), "yes"


def severity_text(seed=0):
    """`severity` with its grade and pain written as text ("1" … "5"), as a CSV read without
    types or a database's text column holds them: the same reading."""
    X, y, pos = severity(seed)
    return X.assign(grade=X["grade"].astype(str), pain=X["pain"].astype(str)), y, pos


NEW = {"severity": severity, "visits": visits, "regions": regions, "mixed": mixed,
       "severity_text": severity_text}
FAMILIES.update(NEW)
