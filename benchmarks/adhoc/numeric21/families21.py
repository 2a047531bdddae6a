"""Seeded tables for session 21 (numeric21): a two-column effect inside many numeric columns
(the grid race beyond 2–4 columns), and whole-number columns of ≤ 10 values that are ordered
(a score, a grade, a count) or are codes (wards). Each returns (X raw, y text, positive class)
and joins unseen19's `FAMILIES` (with ratio20's), so `grid20/race.py` and unseen19's `run.py`
run them."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).parents[1] / "ratio20"))
import families20  # noqa: E402,F401
from families import FAMILIES, _sig, _yes  # noqa: E402


def _noise(rng, n, k, prefix="lab"):
    """k numeric columns of no effect, on assorted scales."""
    scales = rng.uniform(0.5, 50.0, k)
    return {f"{prefix}{i + 1}": (rng.normal(0, 1, n) * s + 3 * s).round(2)
            for i, s in enumerate(scales)}


def ratio12(seed=0, n=1000):
    """debt / income > 0.4 (unseen19's ratio) among 12 numeric columns: age and 9 of no effect."""
    rng = np.random.default_rng(seed)
    income = np.exp(rng.normal(10.5, 0.6, n)).round(0)
    debt = (income * rng.gamma(2.0, 0.15, n)).round(0)
    y = (debt / income > 0.4) ^ (rng.random(n) < 0.05)
    X = pd.DataFrame({"income": income, "debt": debt, "age": rng.normal(40, 10, n).round(),
                      **_noise(rng, n, 9)})
    return X, pd.Series(np.where(y, "default", "paid")), "default"


def bmi_noise(seed=0, n=1000):
    """BMI > 30 (ratio20's bmi) beside age and 8 numeric columns of no effect (10 numeric)."""
    rng = np.random.default_rng(seed)
    height = rng.normal(1.70, 0.09, n)
    weight = np.exp(rng.normal(np.log(27.0), 0.18, n)) * height ** 2
    y = (weight / height ** 2 > 30) ^ (rng.random(n) < 0.05)
    X = pd.DataFrame({"height_m": height.round(2), "weight_kg": weight.round(1),
                      "age": rng.normal(45, 12, n).round(), **_noise(rng, n, 8)})
    return X, pd.Series(np.where(y, "obese", "not")), "obese"


def three_of_12(seed=0, n=1200):
    """Three relevant numbers among 12: risk from a product (dose × days, each alone weak) plus a
    threshold on a third (creatinine > 1.4), 9 numeric columns of no effect."""
    rng = np.random.default_rng(seed)
    dose = np.exp(rng.normal(3.0, 0.5, n))
    days = np.exp(rng.normal(2.5, 0.5, n))
    creat = rng.gamma(6.0, 0.18, n)
    z = 2.5 * (np.log(dose) - np.log(days) - 0.5) + 1.5 * (creat > 1.4) - 0.3
    X = pd.DataFrame({"dose_mg": dose.round(1), "days": days.round(1), "creatinine": creat.round(2),
                      **_noise(rng, n, 9)})
    return X, pd.Series(_yes(_sig(z), rng)), "yes"


def ratio_cats(seed=0, n=1000):
    """debt / income > 0.4 inside a table of 10 categorical columns (two of them a small step of
    risk, the rest noise): the ratio's two numbers are the only numeric columns."""
    rng = np.random.default_rng(seed)
    income = np.exp(rng.normal(10.5, 0.6, n)).round(0)
    debt = (income * rng.gamma(2.0, 0.15, n)).round(0)
    cats = {f"c{i + 1}": rng.choice(list("ABCD")[: 2 + i % 3], n) for i in range(10)}
    z = 6 * (debt / income - 0.4) + 0.8 * (cats["c1"] == "A") - 0.8 * (cats["c2"] == "B")
    X = pd.DataFrame({"income": income, "debt": debt, **cats})
    return X, pd.Series(np.where((z > 0) ^ (rng.random(n) < 0.05), "default", "paid")), "default"


def additive10(seed=0, n=1000):
    """Ten numeric columns each a gradual step of risk (a GAM's table, no interaction): where
    the grid should not answer."""
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, 10))
    w = rng.uniform(0.3, 0.7, 10) * rng.choice([-1, 1], 10)
    X = pd.DataFrame((Z * 10 + 50).round(1), columns=[f"m{i + 1}" for i in range(10)])
    return X, pd.Series(_yes(_sig(Z @ w - 0.5), rng)), "yes"


def pain_score(seed=0, n=1000):
    """Risk rising with a 0–10 pain score (logit linear), a 1–5 grade (steps up), the number of
    visits 0–9 (rising), and age; each whole-number column has ≤ 10 values."""
    rng = np.random.default_rng(seed)
    pain = rng.integers(0, 11, n)
    grade = rng.integers(1, 6, n)
    visits = np.minimum(rng.poisson(2.5, n), 9)
    age = rng.normal(55, 14, n).round()
    z = 0.35 * (pain - 5) + 0.45 * (grade - 3) + 0.3 * (visits - 2.5) + 0.02 * (age - 55) - 0.3
    X = pd.DataFrame({"pain": pain, "grade": grade, "visits": visits, "age": age})
    return X, pd.Series(_yes(_sig(z), rng)), "yes"


def ward_code(seed=0, n=1000):
    """A ward numbered 1–7 whose risk is not ordered (wards 2 and 6 risky), a 0–10 score of no
    effect, and age: the whole numbers name places."""
    rng = np.random.default_rng(seed)
    ward = rng.integers(1, 8, n)
    score = rng.integers(0, 11, n)
    age = rng.normal(55, 14, n).round()
    z = 1.8 * np.isin(ward, [2, 6]) + 0.03 * (age - 55) - 1.0
    X = pd.DataFrame({"ward": ward, "score": score, "age": age})
    return X, pd.Series(_yes(_sig(z), rng)), "yes"


def pain_small(seed=0):
    """`pain_score` on 400 rows: ~36 rows a pain value, where one level a value is thin."""
    return pain_score(seed, 400)


def ward_small(seed=0):
    """`ward_code` on 400 rows."""
    return ward_code(seed, 400)


NEW = {"ratio12": ratio12, "bmi_noise": bmi_noise, "three_of_12": three_of_12,
       "ratio_cats": ratio_cats, "additive10": additive10, "pain_score": pain_score,
       "ward_code": ward_code, "pain_small": pain_small, "ward_small": ward_small}
FAMILIES.update(NEW)
