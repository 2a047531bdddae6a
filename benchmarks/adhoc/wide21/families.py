"""Seeded wide and tiny tables (session 21, wide21): columns ≥ rows, or few rows.

Each family returns (X raw as a user would load it from a CSV, y labels as text, the positive
class), as unseen20's do; `tiny` and `wide` are unseen20's, imported unchanged.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd

_spec = importlib.util.spec_from_file_location(
    "unseen20_families", Path(__file__).parent.parent / "unseen20" / "families.py")
_u20 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_u20)
_sig, _yes = _u20._sig, _u20._yes


def genes300(seed=0, n=80):
    """80 patients × 300 expression values; 5 carry signal (additive, unequal strength)."""
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, 300))
    y = _yes(_sig(1.6 * Z[:, 0] - 1.4 * Z[:, 1] + 1.2 * Z[:, 2] + 1.0 * Z[:, 3]
                  - 0.9 * Z[:, 4]), rng)
    return pd.DataFrame(Z.round(3), columns=[f"g{i:03d}" for i in range(300)]), pd.Series(y), "yes"


def survey60(seed=0, n=150):
    """150 answers to a 60-item survey (Likert words); 4 items carry signal."""
    rng = np.random.default_rng(seed)
    words = np.array(["never", "rarely", "sometimes", "often", "always"])
    L = rng.integers(0, 5, size=(n, 60))
    z = 0.9 * (L[:, 0] - 2) + 0.8 * (L[:, 1] >= 3) * 2 - 0.7 * (L[:, 2] - 2) + 1.2 * (L[:, 3] == 0) - 0.8
    y = _yes(_sig(z), rng)
    return pd.DataFrame(words[L], columns=[f"q{i:02d}" for i in range(60)]), pd.Series(y), "yes"


def rare50(seed=0, n=50):
    """50 patients × 20 measurements, ~20% positives: one strong numeric, one category."""
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, 19))
    grade = rng.choice(["I", "II", "III"], n, p=[0.4, 0.4, 0.2])
    y = _yes(_sig(2.0 * Z[:, 0] + 1.5 * (grade == "III") - 2.2), rng)
    X = pd.DataFrame(Z.round(2), columns=[f"m{i:02d}" for i in range(19)])
    X.insert(5, "grade", grade)
    return X, pd.Series(y), "yes"


def clinic120(seed=0, n=120):
    """120 patients × 150 mixed columns (120 numeric, 30 yes/no findings); a 2-term rule."""
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, 120))
    F = rng.random((n, 30)) < 0.3
    z = 2.2 * ((Z[:, 0] > 0.5) & F[:, 0]) + 1.8 * (Z[:, 1] < -0.3) - 1.2
    y = _yes(_sig(z), rng)
    X = pd.DataFrame(Z.round(2), columns=[f"lab{i:03d}" for i in range(120)])
    for j in range(30):
        X[f"finding{j:02d}"] = np.where(F[:, j], "yes", "no")
    return X, pd.Series(y), "yes"


def rules80(seed=0, n=80):
    """80 rows × 120 numeric columns; the label a rule (g0 > 0 and g1 > 0, or g2 > 1), 10% flipped."""
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, 120))
    hit = ((Z[:, 0] > 0) & (Z[:, 1] > 0)) | (Z[:, 2] > 1)
    hit ^= rng.random(n) < 0.1
    y = np.where(hit, "yes", "no")
    return pd.DataFrame(Z.round(3), columns=[f"g{i:03d}" for i in range(120)]), pd.Series(y), "yes"


FAMILIES = {"tiny": _u20.tiny, "wide": _u20.wide, "genes300": genes300, "survey60": survey60,
            "rare50": rare50, "clinic120": clinic120, "rules80": rules80}
