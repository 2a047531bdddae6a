"""Seeded tables of kinds neither the 23 compare sets nor unseen19 represent (session 20, unseen20).

Each family returns (X raw as a user would load it from a CSV, y labels as text, the positive
class, or None where several classes are asked for one KB per class and scored by macro-F1).
"""
from __future__ import annotations

import numpy as np
import pandas as pd


def _sig(z):
    return 1 / (1 + np.exp(-z))


def _yes(p: np.ndarray, rng) -> np.ndarray:
    return np.where(rng.random(len(p)) < p, "yes", "no")


def rare1(seed=0, n=20000):
    """20,000 rows, about 1% positives (fraud): two numerics and a channel carry it."""
    rng = np.random.default_rng(seed)
    amount = np.exp(rng.normal(4, 1.1, n)).round(2)
    age_days = rng.integers(0, 2000, n)
    channel = rng.choice(["web", "app", "phone", "shop"], n, p=[0.4, 0.35, 0.15, 0.1])
    z = -7.6 + 1.8 * (np.log(amount) - 4) - 0.002 * (age_days - 1000) + 2.0 * (channel == "phone")
    X = pd.DataFrame({"amount": amount, "account_age_days": age_days, "channel": channel,
                      "hour": rng.integers(0, 24, n), "items": rng.poisson(2, n) + 1})
    return X, pd.Series(np.where(rng.random(n) < _sig(z), "fraud", "ok")), "fraud"


def categories9(seed=0, n=3000):
    """Nine product categories of uneven sizes (34% down to 1.5%) from price, weight, shop and a
    word in the title; several classes: one KB per class, macro-F1."""
    rng = np.random.default_rng(seed)
    names = np.array(["books", "toys", "garden", "kitchen", "phones", "laptops", "tools",
                      "jewellery", "pianos"])
    p = np.array([34, 20, 14, 10, 8, 6, 4, 2.5, 1.5]) / 100
    c = rng.choice(9, n, p=p)
    price = np.exp(rng.normal(np.array([2.5, 3.0, 3.3, 3.5, 5.8, 6.6, 4.0, 5.0, 8.0])[c], 0.45)).round(2)
    weight = np.exp(rng.normal(np.array([-0.7, -0.2, 1.5, 0.3, -1.6, 0.7, 0.9, -3.0, 5.5])[c], 0.5)).round(3)
    shop = np.where(rng.random(n) < 0.7, np.array(["A", "B", "C", "A", "D", "D", "C", "E", "E"])[c],
                    rng.choice(["A", "B", "C", "D", "E"], n))
    word = np.where(rng.random(n) < 0.5, np.array(["novel", "kids", "outdoor", "steel", "smart",
                                                   "smart", "steel", "gold", "grand"])[c],
                    rng.choice(["new", "sale", "best", "premium"], n))
    X = pd.DataFrame({"price": price, "weight_kg": weight, "shop": shop, "title_word": word})
    return X, pd.Series(names[c]), None


def id_leak(seed=0, n=1500):
    """An ID left in twice (integer and 'P00123' text, unique per row), and a column recorded
    after the outcome (discharge ward: 'ICU' for 85% of the sick, 5% of the well)."""
    rng = np.random.default_rng(seed)
    age = rng.normal(60, 14, n).round()
    crp = np.exp(rng.normal(2, 1, n)).round(1)
    sick = rng.random(n) < _sig(-1.5 + 0.04 * (age - 60) + 0.6 * (np.log(crp) - 2))
    ward = np.where(rng.random(n) < np.where(sick, 0.85, 0.05), "ICU", rng.choice(["A", "B", "C"], n))
    ids = rng.permutation(n) + 10001
    X = pd.DataFrame({"patient_id": ids, "record": [f"P{i:06d}" for i in rng.permutation(n)],
                      "age": age, "crp": crp, "discharge_ward": ward})
    return X, pd.Series(np.where(sick, "sick", "well")), "sick"


def id_only(seed=0, n=1500):
    """`id_leak` without the leaky column: the IDs must not be taken for signal."""
    X, y, pos = id_leak(seed, n)
    return X.drop(columns="discharge_ward"), y, pos


def messy_values(seed=0, n=1500):
    """Numbers as a lab exports them: censored '<0.1', '>500', 'ND'; thousands separators
    '1,234'; percentages '12%'; booleans 'TRUE'/'False'/'Y'/'N'."""
    rng = np.random.default_rng(seed)
    tox = np.exp(rng.normal(0.5, 1.6, n))
    income = np.exp(rng.normal(10.3, 0.7, n)).round(0)
    sat = rng.uniform(80, 100, n).round(0)
    smoker = rng.random(n) < 0.3
    z = -1.2 + 0.7 * np.clip(np.log(tox) - 0.5, -3, 3) - 0.12 * (sat - 90) + 1.0 * smoker
    y = _yes(_sig(z), rng)
    tox_s = np.where(tox < 0.1, "<0.1", np.where(tox > 500, ">500", np.char.mod("%.2f", tox)))
    tox_s = np.where(rng.random(n) < 0.05, "ND", tox_s)
    X = pd.DataFrame({
        "toxin": tox_s,
        "income": [f"{int(v):,}" for v in income],
        "o2_sat": [f"{int(v)}%" for v in sat],
        "smoker": np.where(smoker, rng.choice(["TRUE", "Y", "Yes"], n), rng.choice(["False", "N", "no"], n)),
        "insured": rng.choice(["TRUE", "FALSE"], n),
    })
    return X, pd.Series(y), "yes"


def label_variants(seed=0, n=1200):
    """Labels typed by hand: 'Yes', 'yes ', 'YES', 'no', 'No', ' no' for two classes."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.normal(size=n)
    yes = rng.random(n) < _sig(1.6 * a - 0.8 * b - 0.6)
    lab = np.where(yes, rng.choice(["yes", "Yes", "yes ", "YES"], n, p=[0.6, 0.2, 0.1, 0.1]),
                   rng.choice(["no", "No", " no"], n, p=[0.7, 0.2, 0.1]))
    X = pd.DataFrame({"a": a.round(3), "b": b.round(3), "grp": rng.choice(["x", "y", "z"], n)})
    return X, pd.Series(lab), "yes"


def heavy_missing(seed=0, n=2000):
    """The three signal columns 60-80% missing (at random); two complete noise columns."""
    rng = np.random.default_rng(seed)
    s1, s2 = rng.normal(size=n), rng.normal(size=n)
    s3 = rng.choice(["low", "mid", "high"], n)
    z = -0.7 + 1.4 * s1 - 1.1 * s2 + 1.0 * (s3 == "high") - 0.6 * (s3 == "low")
    y = _yes(_sig(z), rng)
    X = pd.DataFrame({"s1": np.where(rng.random(n) < 0.6, np.nan, s1.round(3)),
                      "s2": np.where(rng.random(n) < 0.7, np.nan, s2.round(3)),
                      "s3": np.where(rng.random(n) < 0.8, None, s3),
                      "n1": rng.normal(size=n).round(3), "n2": rng.choice(["u", "v"], n)})
    return X, pd.Series(y), "yes"


def dup_const(seed=0, n=1200):
    """Rows entered twice (a third of them), a constant column, a near-constant one (99.5%) and a
    column the same as another under a new name."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.integers(0, 5, n)
    y = _yes(_sig(1.3 * a + 0.5 * (b - 2) - 0.5), rng)
    X = pd.DataFrame({"a": a.round(2), "b": b, "site": "main",
                      "flag": np.where(rng.random(n) < 0.005, "x", "-"),
                      "b_again": b, "noise": rng.normal(size=n).round(2)})
    dup = rng.choice(n, n // 3, replace=False)
    X = pd.concat([X, X.iloc[dup]], ignore_index=True)
    yy = pd.Series(np.concatenate([y, y[dup]]))
    order = rng.permutation(len(X))
    return X.iloc[order].reset_index(drop=True), yy.iloc[order].reset_index(drop=True), "yes"


def tiny(seed=0, n=40):
    """40 rows: two signal columns, two noise."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.choice(["m", "f"], n)
    y = _yes(_sig(2.2 * a + 1.2 * (b == "f") - 0.5), rng)
    X = pd.DataFrame({"a": a.round(2), "sex": b, "c": rng.normal(size=n).round(2),
                      "d": rng.choice(["p", "q", "r"], n)})
    return X, pd.Series(y), "yes"


def wide(seed=0, n=60):
    """60 rows, 100 columns (gene-expression-like): 3 carry signal."""
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, 100))
    y = _yes(_sig(1.8 * Z[:, 0] - 1.5 * Z[:, 1] + 1.2 * Z[:, 2]), rng)
    return pd.DataFrame(Z.round(3), columns=[f"g{i:03d}" for i in range(100)]), pd.Series(y), "yes"


def ushape(seed=0, n=1500):
    """Risk at both ends: systolic blood pressure (low or high) and age (infants and the old)."""
    rng = np.random.default_rng(seed)
    bp = rng.normal(125, 22, n).round()
    age = rng.uniform(0, 95, n).round()
    z = -2.2 + 2.3 * ((bp < 95) | (bp > 160)) + 1.8 * ((age < 5) | (age > 80)) + 0.3 * rng.normal(size=n)
    X = pd.DataFrame({"systolic_bp": bp, "age": age, "bmi": rng.normal(26, 4, n).round(1),
                      "sex": rng.choice(["m", "f"], n)})
    return X, pd.Series(_yes(_sig(z), rng)), "yes"


def time_of_day(seed=0, n=1500):
    """An 'HH:MM' arrival time whose risk is at night (22:00-05:59, wrapping midnight), a weekday."""
    rng = np.random.default_rng(seed)
    minute = rng.integers(0, 1440, n)
    night = (minute >= 22 * 60) | (minute < 6 * 60)
    day = rng.choice(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], n)
    z = -1.8 + 2.0 * night + 0.6 * np.isin(day, ["Sat", "Sun"])
    X = pd.DataFrame({"arrival": [f"{m // 60:02d}:{m % 60:02d}" for m in minute], "weekday": day,
                      "age": rng.normal(45, 15, n).round()})
    return X, pd.Series(_yes(_sig(z), rng)), "yes"


FAMILIES = {f.__name__: f for f in (rare1, categories9, id_leak, id_only, messy_values,
                                    label_variants, heavy_missing, dup_const, tiny, wide, ushape,
                                    time_of_day)}


def time_of_day_converted(seed=0, n=1500):
    """`time_of_day` after the user follows plx's hint: the arrival through
    pd.to_datetime(s, format='%H:%M').dt.time (plx fit reads the text so itself)."""
    X, y, pos = time_of_day(seed, n)
    return X.assign(arrival=pd.to_datetime(X["arrival"], format="%H:%M").dt.time), y, pos


def messy_values_converted(seed=0, n=1500):
    """`messy_values` after the user follows plx's hints: the censored toxin, the income with
    thousands separators and the percentages through plx_core.data.column_numbers."""
    from plx_core.data import column_numbers

    X, y, pos = messy_values(seed, n)
    return X.assign(toxin=column_numbers(X["toxin"].where(X["toxin"] != "ND"), censored=True),
                    income=column_numbers(X["income"], "thousands"),
                    o2_sat=column_numbers(X["o2_sat"], "percent")), y, pos


FAMILIES["time_of_day_converted"] = time_of_day_converted
FAMILIES["messy_values_converted"] = messy_values_converted
