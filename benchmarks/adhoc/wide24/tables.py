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


def steps50(seed: int, n: int = 1000):
    """1,000 x 50 numbers past the smooth vote's 40 (`vote.OPTIMISM_RUNS`): a label that adds up
    steps and curves of 8 of them, one threshold on a pair — where a vote on 8 bins a number
    might beat MDLP's cuts if the grid race runs."""
    rng = np.random.default_rng(seed + 11)
    Z = rng.normal(size=(n, 50)).round(2)
    z = (0.9 * (Z[:, 0] > 0.5) - 0.8 * (Z[:, 1] < -0.3) + 0.6 * np.sin(2 * Z[:, 2]) + 0.5 * Z[:, 3] ** 2
         - 0.7 * np.abs(Z[:, 4]) + 0.5 * np.tanh(2 * Z[:, 5]) + 0.4 * Z[:, 6] - 0.4 * Z[:, 7]
         + 1.0 * ((Z[:, 8] > 0) & (Z[:, 9] > 0)) + rng.logistic(0, 0.7, n))
    return pd.DataFrame(Z, columns=[f"s{i:02d}" for i in range(50)]), np.where(z > np.median(z), "up", "down"), "up"


def ratio_wide(seed: int, n: int = 1500):
    """Debt to income (test_selection's loans) beside 60 numbers, two of which add to the logit
    (1,500 rows): the grid screen passes and its race runs, where a vote might answer."""
    rng = np.random.default_rng(seed + 23)
    income = np.exp(rng.normal(np.log(45000), 0.5, n)).round(-2)
    debt = (income * rng.gamma(2.0, 0.2, n)).round(-2)
    Z = rng.normal(size=(n, 60)).round(2)
    z = 8 * (debt / income - 0.4) + 0.8 * Z[:, 0] - 0.6 * Z[:, 1] + rng.logistic(0, 0.6, n)
    X = pd.DataFrame({"income": income, "debt": debt, "age": rng.integers(20, 70, n)})
    X = X.join(pd.DataFrame(Z, columns=[f"lab{i:02d}" for i in range(60)]))
    return X, np.where(z > 0, "default", "repaid"), "default"


TABLES = {"ratio_wide": ratio_wide, "many": many, "mixed": mixed, "counts": counts, "steps50": steps50}
