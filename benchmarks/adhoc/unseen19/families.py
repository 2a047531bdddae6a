"""Seeded tables of kinds the 23 compare sets do not represent (session 19, unseen19).

Each family returns (X raw as a user would load it, y labels as text, the positive class).
"""
from __future__ import annotations

import numpy as np
import pandas as pd


def _yes(p: np.ndarray, rng) -> np.ndarray:
    return np.where(rng.random(len(p)) < p, "yes", "no")


def _sig(z):
    return 1 / (1 + np.exp(-z))


def highcard(seed=0, n=1500):
    """A postcode of 200 levels; 12 of them carry risk; 2 numeric and 2 categorical noise columns."""
    rng = np.random.default_rng(seed)
    levels = np.array([f"PC{i:03d}" for i in range(200)])
    w = rng.dirichlet(np.full(200, 2.0))
    pc = rng.choice(levels, n, p=w)
    hot = set(rng.choice(levels, 12, replace=False))
    age = rng.normal(50, 12, n).round()
    z = -1.6 + 2.4 * np.isin(pc, list(hot)) + 0.03 * (age - 50)
    X = pd.DataFrame({"postcode": pc, "age": age, "noise1": rng.normal(size=n).round(3),
                      "colour": rng.choice(["red", "green", "blue"], n),
                      "shift": rng.choice(["day", "night"], n)})
    return X, pd.Series(_yes(_sig(z), rng)), "yes"


def mnar(seed=0, n=1200):
    """A lab test ordered mostly for the sick (45% missing): missing itself carries signal."""
    rng = np.random.default_rng(seed)
    sick = rng.random(n) < 0.3
    age = rng.normal(55, 15, n).round()
    symptom = np.where(rng.random(n) < np.where(sick, 0.7, 0.25), "yes", "no")
    ordered = rng.random(n) < np.where(sick, 0.9, 0.4)
    lab = np.where(sick, rng.normal(7.0, 1.5, n), rng.normal(5.0, 1.5, n)).round(2)
    lab = np.where(ordered, lab, np.nan)
    bmi = rng.normal(27, 4, n).round(1)
    X = pd.DataFrame({"age": age, "symptom": symptom, "lab": lab, "bmi": bmi})
    return X, pd.Series(np.where(sick, "sick", "well")), "sick"


def skewed(seed=0, n=1500):
    """Lognormal income, negative-binomial counts, a lab value off by x1000 for 2% of rows."""
    rng = np.random.default_rng(seed)
    income = np.exp(rng.normal(10.5, 0.9, n)).round(0)
    visits = rng.negative_binomial(1, 0.2, n)
    lab = rng.normal(1.0, 0.25, n)
    z = -1.0 - 1.2 * (np.log(income) - 10.5) + 0.25 * (visits - 4) + 2.0 * (lab - 1.0)
    y = _yes(_sig(z), rng)
    unit = rng.random(n) < 0.02
    lab = np.where(unit, lab * 1000, lab).round(3)
    X = pd.DataFrame({"income": income, "visits": visits, "lab": lab,
                      "tenure": rng.exponential(3, n).round(2)})
    return X, pd.Series(y), "yes"


def rare_class(seed=0, n=2000):
    """Four classes, one rare (about 5%); the user asks for the rare one."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.normal(size=n)
    kind = rng.choice(["A", "B", "C"], n)
    cls = np.where(a > 0.3, "big", np.where(b > 0, "medium", "small"))
    rare = (a > 0.8) & (b > 0.5) & (kind != "C")
    rare |= rng.random(n) < 0.01
    cls = np.where(rare, "rare", cls)
    X = pd.DataFrame({"a": a.round(3), "b": b.round(3), "kind": kind,
                      "c": rng.normal(size=n).round(3)})
    return X, pd.Series(cls), "rare"


def oblique(seed=0, n=1000):
    """Label a + b > 1 on two numerics (5% label noise) plus two noise columns."""
    rng = np.random.default_rng(seed)
    a, b = rng.uniform(0, 1, n), rng.uniform(0, 1, n)
    y = (a + b > 1.1) ^ (rng.random(n) < 0.05)
    X = pd.DataFrame({"a": a.round(3), "b": b.round(3), "c": rng.uniform(0, 1, n).round(3),
                      "d": rng.choice(["x", "y"], n)})
    return X, pd.Series(np.where(y, "yes", "no")), "yes"


def ratio(seed=0, n=1000):
    """Label driven by debt / income > 0.4 (incomes lognormal), 5% label noise."""
    rng = np.random.default_rng(seed)
    income = np.exp(rng.normal(10.5, 0.6, n)).round(0)
    debt = (income * rng.gamma(2.0, 0.15, n)).round(0)
    y = (debt / income > 0.4) ^ (rng.random(n) < 0.05)
    X = pd.DataFrame({"income": income, "debt": debt, "age": rng.normal(40, 10, n).round()})
    return X, pd.Series(np.where(y, "default", "paid")), "default"


def weak_additive(seed=0, n=1500):
    """40 numeric columns, each a little signal (logit weights 0.15-0.35)."""
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, 40))
    w = rng.uniform(0.15, 0.35, 40) * rng.choice([-1, 1], 40)
    y = _yes(_sig(Z @ w - 0.8), rng)
    X = pd.DataFrame(Z.round(3), columns=[f"f{i}" for i in range(40)])
    return X, pd.Series(y), "yes"


def redundant(seed=0, n=800):
    """One signal column and 10 noisy copies of it, plus 5 noise columns."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    y = _yes(_sig(2.0 * x - 0.5), rng)
    cols = {"x": x.round(3)}
    for i in range(10):
        cols[f"x_copy{i}"] = (x + rng.normal(0, 0.3, n)).round(3)
    for i in range(5):
        cols[f"noise{i}"] = rng.normal(size=n).round(3)
    return pd.DataFrame(cols), pd.Series(y), "yes"


def text_levels(seed=0, n=1200):
    """Ordinal text levels, dates as text, numbers as text with units."""
    rng = np.random.default_rng(seed)
    sev = rng.integers(0, 3, n)
    freq = rng.integers(0, 4, n)
    days = rng.integers(0, 730, n)
    weight = rng.normal(80, 15, n)
    z = -2.0 + 0.9 * sev + 0.5 * freq + 0.002 * (days - 365) + 0.04 * (weight - 80)
    y = _yes(_sig(z), rng)
    X = pd.DataFrame({
        "severity": np.array(["low", "medium", "high"])[sev],
        "exercise": np.array(["never", "1-2 times", "3-5 times", "6+ times"])[freq],
        "visit_date": (pd.Timestamp("2023-01-01") + pd.to_timedelta(days, "D")).strftime("%Y-%m-%d"),
        "weight": [f"{w:.1f} kg" for w in weight],
    })
    return X, pd.Series(y), "yes"


def small(seed=0, n=120):
    """120 rows, 6 columns (3 signal): overfitting matters."""
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, 4))
    g = rng.choice(["m", "f"], n)
    site = rng.choice(["s1", "s2", "s3", "s4"], n)
    y = _yes(_sig(1.3 * Z[:, 0] - 1.0 * Z[:, 1] + 0.8 * (g == "f") - 0.3), rng)
    X = pd.DataFrame(Z.round(2), columns=["v1", "v2", "v3", "v4"])
    X["sex"], X["site"] = g, site
    return X, pd.Series(y), "yes"


FAMILIES = {f.__name__: f for f in (highcard, mnar, skewed, rare_class, oblique, ratio,
                                    weak_additive, redundant, text_levels, small)}


def text_levels_converted(seed=0, n=1200):
    """`text_levels` after the user follows plx's hints: the dates through pd.to_datetime, the
    weights through plx_core.data.column_numbers (the unit taken off)."""
    from plx_core.data import column_numbers

    X, y, pos = text_levels(seed, n)
    X = X.copy()
    X["visit_date"] = pd.to_datetime(X["visit_date"])
    X["weight"] = column_numbers(X["weight"], "unit:kg")
    return X, y, pos


FAMILIES["text_levels_converted"] = text_levels_converted


def survey(seed=0, n=800):
    """25 ticked yes/no questions (a checklist); six of them add to the risk, the rest noise."""
    rng = np.random.default_rng(seed)
    B = rng.random((n, 25)) < rng.uniform(0.15, 0.6, 25)
    w = np.zeros(25)
    w[:6] = [1.2, 1.0, 0.9, 0.8, 0.7, 0.6]
    y = _yes(_sig(B @ w - 2.0), rng)
    X = pd.DataFrame(np.where(B, "yes", "no"), columns=[f"q{i + 1}" for i in range(25)])
    return X, pd.Series(y), "yes"


def zero_inflated(seed=0, n=1500):
    """Counts that are mostly 0 (70%) with a long tail (ER visits, claims), and a dose in mg."""
    rng = np.random.default_rng(seed)
    er = np.where(rng.random(n) < 0.7, 0, rng.negative_binomial(1, 0.3, n) + 1)
    claims = np.where(rng.random(n) < 0.6, 0, rng.poisson(3, n))
    dose = rng.choice([0, 5, 10, 20, 40, 80], n, p=[0.3, 0.2, 0.2, 0.15, 0.1, 0.05])
    z = -1.8 + 0.45 * np.minimum(er, 6) + 0.15 * claims + 0.012 * dose
    X = pd.DataFrame({"er_visits": er, "claims": claims, "dose_mg": dose,
                      "age": rng.normal(60, 12, n).round()})
    return X, pd.Series(_yes(_sig(z), rng)), "yes"


FAMILIES["survey"] = survey
FAMILIES["zero_inflated"] = zero_inflated
