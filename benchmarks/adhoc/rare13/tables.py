"""Ad hoc (issue 11, session 13): new tables of the class "additive signal, numeric columns,
rare positives", not in the comparison; each run draws its own table (seed = run) and one
stratified 70/30 split of it.

* "rare7-20": 1,000 rows of 20 standard normals (5% of cells missing), label 1 for the 7% of
  rows with the largest additive logit 1.2·x0 + 0.9·x1² − 0.8·|x2| + 0.7·sin(2·x3)
  + 0.6·tanh(3·x4) + 0.4·x5 + logistic noise; 14 columns tell nothing ("rare7-20-full": the
  same without missing cells).
* "wide40": 1,000 rows of 40 numbers — 3 strong (x0, x1 linear, x2 a step), 12 weak (0.25 each,
  some skewed: exponentials), 25 noise —, label 1 for the 12% with the largest sum + N(0, 1).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split


def rare7_20(seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    g = np.random.default_rng(1000 + seed)
    n = 1000
    x = g.standard_normal((n, 20))
    s = (1.2 * x[:, 0] + 0.9 * x[:, 1] ** 2 - 0.8 * np.abs(x[:, 2]) + 0.7 * np.sin(2 * x[:, 3])
         + 0.6 * np.tanh(3 * x[:, 4]) + 0.4 * x[:, 5] + g.logistic(0, 1, n))
    y = (s > np.quantile(s, 0.93)).astype(int)
    x[g.random(x.shape) < 0.05] = np.nan
    return pd.DataFrame(x.round(3), columns=[f"x{i}" for i in range(20)]), y


def wide40(seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    g = np.random.default_rng(2000 + seed)
    n = 1000
    x = g.standard_normal((n, 40))
    x[:, 3:9] = g.exponential(1.0, (n, 6))  # skewed weak columns
    s = (0.9 * x[:, 0] + 0.8 * x[:, 1] + 1.0 * (x[:, 2] > 0.5)
         + 0.25 * x[:, 3:15].sum(axis=1) + g.normal(0, 1.0, n))
    y = (s > np.quantile(s, 0.88)).astype(int)
    return pd.DataFrame(x.round(3), columns=[f"v{i}" for i in range(40)]), y


def rare7_20_full(seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    """rare7-20 without its missing cells (the same numbers otherwise)."""
    g = np.random.default_rng(1000 + seed)
    n = 1000
    x = g.standard_normal((n, 20))
    s = (1.2 * x[:, 0] + 0.9 * x[:, 1] ** 2 - 0.8 * np.abs(x[:, 2]) + 0.7 * np.sin(2 * x[:, 3])
         + 0.6 * np.tanh(3 * x[:, 4]) + 0.4 * x[:, 5] + g.logistic(0, 1, n))
    y = (s > np.quantile(s, 0.93)).astype(int)
    return pd.DataFrame(x.round(3), columns=[f"x{i}" for i in range(20)]), y


TABLES = {"rare7-20": rare7_20, "wide40": wide40, "rare7-20-full": rare7_20_full}


def split_table(name: str, run: int):
    """(X train, y train, X test, y test) of run `run`'s table."""
    X, y = TABLES[name](run)
    a, b, ya, yb = train_test_split(X, y, test_size=0.3, stratify=y, random_state=run)
    return a.reset_index(drop=True), ya, b.reset_index(drop=True), yb
