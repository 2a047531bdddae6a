"""wide25's wide tables nobody tuned for, beside wide24's counts and many. Each `f(seed, n)`
returns (X, y, positive) of n rows.
- presence: 200 x 2,000 presence/absence (0/1) columns, each present in 1-30% of rows; the
  label `(p0 and p1) or p2`, 8% flipped;
- rule3: 2,000 x 300 numbers: a 3-column rule `(x0 > 0.5 and x1 < 0) or x2 > 1.2`, 17 near
  copies of those three (each one of them plus a little noise, rounded otherwise), 280 noise
  columns, 5% flipped;
- holes: 1,000 x 200 numbers, 30% of cells missing at random, 5 add to the logit."""
import importlib.util  # noqa: E402
from pathlib import Path

import numpy as np
import pandas as pd

_spec = importlib.util.spec_from_file_location("wide24_tables", Path(__file__).parent.parent / "wide24" / "tables.py")
_w24 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_w24)
WIDE24 = _w24.TABLES


def presence(seed: int, n: int = 200):
    rng = np.random.default_rng(seed + 31)
    rate = rng.uniform(0.01, 0.3, size=2000)
    B = (rng.random((n, 2000)) < rate).astype(int)
    B[:, :3] = rng.random((n, 3)) < 0.35
    hit = (B[:, 0] & B[:, 1]) | B[:, 2]
    hit = np.where(rng.random(n) < 0.08, 1 - hit, hit)
    return pd.DataFrame(B, columns=[f"sp{i:04d}" for i in range(2000)]), np.where(hit, "yes", "no"), "yes"


def rule3(seed: int, n: int = 2000):
    rng = np.random.default_rng(seed + 41)
    Z = rng.normal(size=(n, 300))
    for j in range(3, 20):  # near copies of the rule's columns
        Z[:, j] = Z[:, j % 3] + rng.normal(0, 0.3, n)
    Z = Z.round(2)
    hit = ((Z[:, 0] > 0.5) & (Z[:, 1] < 0)) | (Z[:, 2] > 1.2)
    hit = np.where(rng.random(n) < 0.05, ~hit, hit)
    cols = [f"x{i:03d}" for i in range(300)]
    order = rng.permutation(300)  # the rule's columns not first
    return pd.DataFrame(Z[:, order], columns=[cols[i] for i in order]), np.where(hit, "pos", "neg"), "pos"


def holes(seed: int, n: int = 1000):
    rng = np.random.default_rng(seed + 53)
    Z = rng.gamma(2.0, 1.0, size=(n, 200)).round(2)
    z = 0.8 * Z[:, 0] - 0.7 * Z[:, 1] + 0.6 * (Z[:, 2] > 3) - 0.5 * np.abs(Z[:, 3] - 2) + 0.4 * Z[:, 4]
    z = z - np.median(z) + rng.logistic(0, 0.7, n)
    Z[rng.random(Z.shape) < 0.3] = np.nan
    return pd.DataFrame(Z, columns=[f"lab{i:03d}" for i in range(200)]), np.where(z > 0, "ill", "well"), "ill"


TABLES = {**WIDE24, "presence": presence, "rule3": rule3, "holes": holes}
