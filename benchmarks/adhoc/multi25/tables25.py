"""multi25's tables: ordered labels (multi24's `tables24.TABLES`, where severity and ordinal5
live, plus four new ordered families none of the changes was built on)."""
from __future__ import annotations

import os
import sys

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "multi24"))
sys.path.insert(0, os.path.join(HERE, os.pardir, "multi23"))
import tables24  # noqa: E402


def _bands(z: np.ndarray, shares: list[float]) -> np.ndarray:
    """Level index of each row: `z` cut at its quantiles so the levels hold about `shares`."""
    return np.digitize(z, np.quantile(z, np.cumsum(shares)[:-1]))


def risk3(seed=0, n=1500):
    """Three levels low < medium < high, imbalanced extremes (12% / 76% / 12%), from a latent
    sum of two numbers, a count and a category; logistic noise."""
    rng = np.random.default_rng(seed + 1001)
    bp, chol = rng.normal(130, 18, n), rng.normal(5.5, 1.1, n)
    visits = rng.poisson(2, n)
    diet = rng.choice(["poor", "fair", "good"], n, p=[0.3, 0.4, 0.3])
    z = (0.035 * (bp - 130) + 0.5 * (chol - 5.5) + 0.2 * visits
         + np.select([diet == "poor", diet == "good"], [0.5, -0.5], 0.0) + rng.logistic(0, 0.35, n))
    X = pd.DataFrame({"bp": bp.round(), "chol": chol.round(1), "visits": visits, "diet": diet,
                      "clinic": rng.choice(["a", "b", "c", "d"], n)})
    return X, pd.Series(np.array(["low", "medium", "high"])[_bands(z, [0.12, 0.76, 0.12])]), None


def likert5(seed=0, n=1800):
    """A survey's five answers, strongly disagree … strongly agree, from an age, a tenure, a
    workload and a team; the middle answer most common, the extremes ~8% each."""
    rng = np.random.default_rng(seed + 1002)
    age, tenure, hours = rng.normal(40, 11, n), rng.exponential(5, n), rng.normal(42, 7, n)
    team = rng.choice(["ops", "sales", "dev", "hr"], n)
    z = (-0.06 * (hours - 42) + 0.08 * np.minimum(tenure, 15) + 0.01 * (age - 40)
         + np.select([team == "dev", team == "ops"], [0.4, -0.4], 0.0) + rng.logistic(0, 0.3, n))
    words = np.array(["strongly disagree", "disagree", "neutral", "agree", "strongly agree"])
    X = pd.DataFrame({"age": age.round(), "tenure": tenure.round(1), "hours": hours.round(),
                      "team": team})
    return X, pd.Series(words[_bands(z, [0.08, 0.22, 0.40, 0.22, 0.08])]), None


def stage4(seed=0, n=1600):
    """Stages 1 < 2 < 3 < 4 as numbers, stage 4 rare (5%), from a tumour size, a node count
    (missing in 15%), a marker and a grade letter."""
    rng = np.random.default_rng(seed + 1003)
    size, nodes, marker = rng.gamma(3, 8, n), rng.poisson(1.5, n).astype(float), rng.normal(0, 1, n)
    grade = rng.choice(["G1", "G2", "G3"], n, p=[0.3, 0.45, 0.25])
    z = (0.05 * size + 0.45 * nodes + 0.4 * marker
         + np.select([grade == "G3", grade == "G1"], [0.6, -0.4], 0.0) + rng.logistic(0, 0.4, n))
    nodes[rng.random(n) < 0.15] = np.nan
    X = pd.DataFrame({"size_mm": size.round(1), "nodes": nodes, "marker": marker.round(2),
                      "grade": grade})
    return X, pd.Series(_bands(z, [0.35, 0.35, 0.25, 0.05]) + 1), None


def score7(seed=0, n=2000):
    """Seven scores 0 … 6 as numbers, score 6 held by ~2% of rows, from three numbers (one
    pure noise) and a region."""
    rng = np.random.default_rng(seed + 1004)
    a, b, c = rng.normal(0, 1, n), rng.uniform(0, 10, n), rng.normal(0, 1, n)
    region = rng.choice(["n", "s", "e", "w"], n)
    z = 0.9 * a + 0.25 * b + np.where(region == "n", 0.5, 0.0) + rng.logistic(0, 0.35, n)
    X = pd.DataFrame({"a": a.round(3), "b": b.round(2), "noise": c.round(3), "region": region})
    return X, pd.Series(_bands(z, [0.10, 0.18, 0.22, 0.22, 0.16, 0.10, 0.02])), None


TABLES = dict(tables24.TABLES, risk3=risk3, likert5=likert5, stage4=stage4, score7=score7)
ORDERS = {"severity": ["none", "mild", "moderate", "severe"],
          "ordinal5": ["none", "mild", "moderate", "severe", "critical"],
          "risk3": ["low", "medium", "high"],
          "likert5": ["strongly disagree", "disagree", "neutral", "agree", "strongly agree"],
          "stage4": ["1", "2", "3", "4"], "score7": [str(i) for i in range(7)]}
