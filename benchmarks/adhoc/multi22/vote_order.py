"""Several classes compared by the vote's own probability (multi22): macro F1 of the default
`PLXClassifier` on the test rows of stratified 70/30 splits (`random_state=0`), with CART
(depth by CV on macro F1) and EBM on the same rows — multi21's runner (`modes.py`, its
tables) plus severity and label_typo (unseen21) and two tables of this session's.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 PYTHONPATH=CODE python \
        benchmarks/adhoc/multi22/vote_order.py TABLES SPLITS [BASELINES] [OUT.csv]

CODE: the worktree whose `plx_core` is measured (main's for "before"). BASELINES:
comma-separated `compare.make` names ("" for none).
"""
from __future__ import annotations

import os
import sys

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "multi21"))
import modes  # noqa: E402

U21 = modes._load(os.path.join(HERE, os.pardir, "unseen21", "families.py"), "u21")


def missing4(seed=0, n=2000):
    """Four care pathways from two lab values, an age and a ward; the most telling lab
    value (lactate) is missing in 20% of rows, more often on one ward."""
    rng = np.random.default_rng(seed + 303)
    lact, crp, age = np.exp(rng.normal(0.5, 0.5, n)), np.exp(rng.normal(2, 1, n)), rng.normal(60, 15, n)
    ward = rng.choice(["A", "B", "C"], n, p=[0.5, 0.3, 0.2])
    z1 = 1.5 * (np.log(lact) - 0.5) + rng.logistic(0, 0.4, n)
    z2 = 0.8 * (np.log(crp) - 2) + 0.03 * (age - 60) + rng.logistic(0, 0.4, n)
    path = np.select([(z1 > 0.4) & (z2 > 0.3), z1 > 0.4, z2 > 0.5], ["icu", "hdu", "ward"], "home")
    miss = rng.random(n) < np.where(ward == "C", 0.4, 0.15)
    X = pd.DataFrame({"lactate": np.where(miss, np.nan, lact.round(2)), "crp": crp.round(1),
                      "age": age.round(), "ward": ward})
    return X, pd.Series(path), None


def twins7(seed=0, n=2100):
    """Seven product lines from size, weight, colour and a plant; 'pro' and 'pro_plus' are
    near-identical (the same region, 'pro_plus' a little heavier), the other five apart."""
    rng = np.random.default_rng(seed + 404)
    lines = np.array(["basic", "lite", "max", "mini", "pro", "pro_plus", "eco"])
    c = rng.choice(7, n, p=[0.2, 0.15, 0.15, 0.15, 0.12, 0.08, 0.15])
    size_mu = np.array([10, 14, 30, 6, 22, 22.5, 17])
    wt_mu = np.array([1.0, 0.7, 3.0, 0.4, 2.0, 2.2, 1.4])
    size = rng.normal(size_mu[c], 2.0)
    weight = rng.normal(wt_mu[c], 0.25)
    colour = np.where(rng.random(n) < 0.5, rng.choice(["black", "white", "red"], n),
                      np.array(["white", "red", "black", "red", "black", "black", "white"])[c])
    X = pd.DataFrame({"size_cm": size.round(1), "weight_kg": weight.round(2), "colour": colour,
                      "plant": rng.choice(["P1", "P2"], n)})
    return X, pd.Series(lines[c]), None


modes.TABLES.update({"severity": lambda seed=0: U21["severity"](seed)[:2] + (None,),
                     "label_typo": lambda seed=0: U21["label_typo"](seed)[:2] + (None,),
                     "missing4": missing4, "twins7": twins7})
modes.MODES = ["macro"]

if __name__ == "__main__":
    modes.main(sys.argv[1].split(","), int(sys.argv[2]),
               [m for m in (sys.argv[3] if len(sys.argv) > 3 else "CART,EBM").split(",") if m],
               sys.argv[4] if len(sys.argv) > 4 else "/tmp/multi22_vote_order.csv")
