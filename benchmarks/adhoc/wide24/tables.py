"""wide24's tables: wide22's many (5,000 x 400 numbers), and two of its own nobody tuned for:
mixed (2,000 x 150: 120 numbers, 30 categories, 10 informative) and counts (300 x 1,000 sparse
word counts, 4 informative). Each returns (X, y, positive) for `seed`; `n` rows."""
import numpy as np
import pandas as pd


def many(seed: int, n: int = 5000):
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(n, 400)).round(3)
    z = Z[:, 0] - 0.8 * Z[:, 1] + 0.6 * Z[:, 2] * (Z[:, 3] > 0) + rng.normal(0, 0.8, n)
    return pd.DataFrame(Z, columns=[f"m{i:03d}" for i in range(400)]), np.where(z > 0.3, "yes", "no"), "yes"


def mixed(seed: int, n: int = 2000):
    rng = np.random.default_rng(seed + 77)
    Z = rng.gamma(2.0, 1.5, size=(n, 120)).round(2)
    Z[rng.random(Z.shape) < 0.03] = np.nan
    cats = {f"c{j:02d}": rng.choice(list("ABCDEFG")[: 2 + j % 6], size=n) for j in range(30)}
    X = pd.DataFrame(Z, columns=[f"x{i:03d}" for i in range(120)]).assign(**cats)
    z = (0.5 * np.nan_to_num(Z[:, 0], nan=3) - 0.4 * np.nan_to_num(Z[:, 5], nan=3)
         + 0.8 * (np.nan_to_num(Z[:, 9], nan=0) > 4) + 0.3 * np.log1p(np.nan_to_num(Z[:, 17], nan=1))
         + 0.6 * (cats["c00"] == "A") - 0.7 * (cats["c04"] == "C") + 0.5 * np.isin(cats["c11"], ["B", "D"])
         + 0.4 * (np.nan_to_num(Z[:, 30], nan=3) * (cats["c07"] == "B") > 3)
         - 0.3 * np.nan_to_num(Z[:, 44], nan=3) * 0.5 + 0.5 * (cats["c21"] == "A")
         + rng.normal(0, 0.9, n))
    return X, np.where(z > np.quantile(z, 0.7), "pos", "neg"), "pos"


def counts(seed: int, n: int = 300):
    rng = np.random.default_rng(seed + 5)
    lam = rng.gamma(0.3, 1.0, size=1000)
    C = rng.poisson(lam, size=(n, 1000))
    z = 0.9 * np.minimum(C[:, 0], 3) + 0.7 * (C[:, 1] > 0) - 0.8 * (C[:, 2] > 1) + 0.5 * C[:, 3] - 0.8 + rng.normal(0, 0.8, n)
    return pd.DataFrame(C, columns=[f"w{i:04d}" for i in range(1000)]), np.where(z > 0, "spam", "ham"), "spam"


TABLES = {"many": many, "mixed": mixed, "counts": counts}
