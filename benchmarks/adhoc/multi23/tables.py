"""multi23's tables: multi21/multi22's several-class tables (`modes.TABLES`, `vote_order`)
plus two new ones with numeric columns."""
from __future__ import annotations

import os
import sys

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "multi22"))
sys.path.insert(0, os.path.join(HERE, os.pardir, "multi21"))
import modes  # noqa: E402
import vote_order  # noqa: E402,F401  (its tables join modes.TABLES)


def ranges6(seed=0, n=1800):
    """Six zones set by ranges of two numbers, the second's cut points depending on the first's
    range (an interaction no one column states alone), a noise number, a region; 6% of labels
    flipped."""
    rng = np.random.default_rng(seed + 505)
    a, b, c = rng.uniform(0, 100, n), rng.uniform(0, 50, n), rng.normal(0, 1, n)
    zone = np.select([a < 20, (a < 45) & (b < 15), a < 45, (a < 70) & (b < 35), a < 70],
                     ["north", "east", "south", "west", "centre"], "coast")
    flip = rng.random(n) < 0.06
    zone[flip] = rng.choice(["north", "east", "south", "west", "centre", "coast"], flip.sum())
    X = pd.DataFrame({"altitude": a.round(1), "rainfall": b.round(2), "wind": c.round(3),
                      "region": rng.choice(["r1", "r2", "r3"], n)})
    return X, pd.Series(zone), None


def steps5(seed=0, n=1500):
    """Five grades set by one number's fine steps (bands 5 units wide cycling through the five
    grades over 0–100), a second number that shifts the grade by one where it is high, a
    category; 5% of labels flipped."""
    rng = np.random.default_rng(seed + 606)
    t, u = rng.uniform(0, 100, n), rng.normal(50, 10, n)
    g = (np.floor(t / 5).astype(int) + (u > 62)) % 5
    flip = rng.random(n) < 0.05
    g[flip] = rng.integers(0, 5, flip.sum())
    grades = np.array(["A", "B", "C", "D", "E"])
    X = pd.DataFrame({"reading": t.round(2), "pressure": u.round(1),
                      "batch": rng.choice(["x", "y", "z", "w"], n)})
    return X, pd.Series(grades[g]), None


modes.TABLES.update({"ranges6": ranges6, "steps5": steps5})
TABLES = modes.TABLES
