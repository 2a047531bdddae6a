"""Seeded numeric tables where a GAM or logistic regression is the natural model (session 20, ratio20).

Each family returns (X raw as a user would load it, y labels as text, the positive class), as
`benchmarks/adhoc/unseen19/families.py`, whose `FAMILIES` these join (run them with its `run.py`
through `run.py` here). Two of them hide a column's effect from its own frequency (a suppressor:
height given weight, days given dose), two are additive with a gradual risk curve.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).parents[1] / "unseen19"))
from families import FAMILIES, _sig, _yes  # noqa: E402


def bmi(seed=0, n=1000):
    """Label: BMI = weight / height² > 30, 5% label noise; weight tracks height, as in people."""
    rng = np.random.default_rng(seed)
    height = rng.normal(1.70, 0.09, n)
    weight = np.exp(rng.normal(np.log(27.0), 0.18, n)) * height ** 2
    y = (weight / height ** 2 > 30) ^ (rng.random(n) < 0.05)
    X = pd.DataFrame({"height_m": height.round(2), "weight_kg": weight.round(1),
                      "age": rng.normal(45, 12, n).round()})
    return X, pd.Series(np.where(y, "obese", "not")), "obese"


def dose_days(seed=0, n=1000):
    """Risk from the total exposure dose × days (logistic in its log), the two drawn independently."""
    rng = np.random.default_rng(seed)
    dose = np.exp(rng.normal(3.0, 0.7, n))
    days = np.exp(rng.normal(2.5, 0.8, n))
    z = 1.6 * (np.log(dose * days) - 5.9)
    X = pd.DataFrame({"dose_mg": dose.round(1), "days": days.round().clip(1),
                      "weight_kg": rng.normal(75, 12, n).round(1)})
    return X, pd.Series(_yes(_sig(z), rng)), "yes"


def checklist(seed=0, n=900):
    """40 yes/no items, 12 of them each a small step of risk (logit 0.35–0.6), the rest noise."""
    rng = np.random.default_rng(seed)
    B = rng.random((n, 40)) < rng.uniform(0.2, 0.5, 40)
    w = np.zeros(40)
    w[:12] = rng.uniform(0.35, 0.6, 12)
    y = _yes(_sig(B @ w - 2.2), rng)
    return pd.DataFrame(np.where(B, "yes", "no"), columns=[f"item{i + 1}" for i in range(40)]), \
        pd.Series(y), "yes"


def lab_curve(seed=0, n=1000):
    """A lab value whose risk rises gradually (logit linear in it over its whole range), plus an
    age effect and two noise columns: no threshold anywhere for MDLP to find."""
    rng = np.random.default_rng(seed)
    lab = rng.gamma(4.0, 1.5, n)
    age = rng.normal(55, 14, n)
    z = 0.45 * (lab - 6.0) + 0.04 * (age - 55) - 0.8
    X = pd.DataFrame({"crp": lab.round(2), "age": age.round(), "sodium": rng.normal(140, 3, n).round(),
                      "ward": rng.choice(["A", "B", "C"], n)})
    return X, pd.Series(_yes(_sig(z), rng)), "yes"


NEW = {"bmi": bmi, "dose_days": dose_days, "checklist": checklist, "lab_curve": lab_curve}
FAMILIES.update(NEW)
