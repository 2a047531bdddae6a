"""wide27's wide tables nobody tuned for: gene-expression-like numbers and 0/1 presence tables.
Each `f(seed, n)` returns (X, y, positive) of n rows; the default n is the training size.
- genes_add: 250 samples x 300 log-expression values in co-expressed modules of 10 (a shared
  factor), gene-specific means and spreads; the label logistic in 5 genes of 4 modules, ~35%.
- genes_rule: 200 x 300 the same way; a subtype rule `(g_a high and g_b low) or g_c very high`,
  6% flipped.
- genes_mod (held out, for the fix's check): 300 x 500; the label a module's mean above its
  upper quartile or one gene high, ~25%, 5% flipped.
- pres_or: 400 x 300 sparse 0/1 (each column present in 1-15% of rows); the label
  `a or b or (c and d)`, 5% flipped.
- pres_k: 300 x 200 symptoms ticked; the label "at least 2 of 4 named symptoms", 5% flipped.
- pres_buy (held out): 500 x 500 products bought; a weighted sum of 6 (one against) above a
  threshold, 5% flipped."""
import numpy as np
import pandas as pd


def _expression(rng, n: int, p: int):
    """log2-expression-like values: modules of 10 genes sharing a factor, own means/spreads."""
    F = rng.normal(size=(n, p // 10))
    load = rng.uniform(0.3, 0.9, size=p)
    E = load * np.repeat(F, 10, axis=1) + np.sqrt(1 - load ** 2) * rng.normal(size=(n, p))
    mean, sd = rng.uniform(2, 12, size=p), rng.uniform(0.3, 2.0, size=p)
    return E, pd.DataFrame((mean + sd * E).round(3), columns=[f"g{i:03d}" for i in range(p)]), F


def _flip(rng, hit, rate):
    return np.where(rng.random(len(hit)) < rate, ~hit, hit)


def genes_add(seed: int, n: int = 250):
    rng = np.random.default_rng(seed + 101)
    E, X, _ = _expression(rng, n, 300)
    z = 1.5 * E[:, 3] - 1.2 * E[:, 47] + 1.0 * E[:, 48] + 0.9 * E[:, 120] - 0.8 * E[:, 251] - 0.6
    hit = rng.random(n) < 1 / (1 + np.exp(-2 * z))
    return X, np.where(hit, "tumour", "normal"), "tumour"


def genes_rule(seed: int, n: int = 200):
    rng = np.random.default_rng(seed + 202)
    E, X, _ = _expression(rng, n, 300)
    hit = ((E[:, 12] > 0.5) & (E[:, 160] < 0)) | (E[:, 233] > 1.3)
    return X, np.where(_flip(rng, hit, 0.06), "subtypeB", "other"), "subtypeB"


def genes_mod(seed: int, n: int = 300):
    rng = np.random.default_rng(seed + 303)
    E, X, F = _expression(rng, n, 500)
    hit = (E[:, 70:80].mean(axis=1) > 0.55) | (E[:, 404] > 1.6)
    return X, np.where(_flip(rng, hit, 0.05), "responder", "non"), "responder"


def _presence(rng, n: int, p: int, lo: float, hi: float):
    rate = rng.uniform(lo, hi, size=p)
    return (rng.random((n, p)) < rate).astype(int)


def pres_or(seed: int, n: int = 400):
    rng = np.random.default_rng(seed + 404)
    B = _presence(rng, n, 300, 0.01, 0.15)
    B[:, [17, 88, 140, 141]] = rng.random((n, 4)) < [0.08, 0.1, 0.3, 0.3]
    hit = (B[:, 17] | B[:, 88] | (B[:, 140] & B[:, 141])).astype(bool)
    X = pd.DataFrame(B, columns=[f"w{i:03d}" for i in range(300)])
    return X, np.where(_flip(rng, hit, 0.05), "spam", "ham"), "spam"


def pres_k(seed: int, n: int = 300):
    rng = np.random.default_rng(seed + 505)
    B = _presence(rng, n, 200, 0.02, 0.25)
    S = [5, 61, 99, 150]
    B[:, S] = rng.random((n, 4)) < 0.3
    hit = B[:, S].sum(axis=1) >= 2
    X = pd.DataFrame(B, columns=[f"symptom_{i:03d}" for i in range(200)])
    return X, np.where(_flip(rng, hit, 0.05), "flu", "not"), "flu"


def pres_buy(seed: int, n: int = 500):
    rng = np.random.default_rng(seed + 606)
    B = _presence(rng, n, 500, 0.005, 0.12)
    S = [8, 77, 230, 231, 380, 499]
    B[:, S] = rng.random((n, 6)) < 0.2
    z = B[:, S] @ np.array([1.0, 1.0, 0.8, 0.8, 0.6, -1.5])
    hit = z >= 1.4
    X = pd.DataFrame(B, columns=[f"item{i:03d}" for i in range(500)])
    return X, np.where(_flip(rng, hit, 0.05), "churn", "stay"), "churn"


TABLES = {"genes_add": genes_add, "genes_rule": genes_rule, "genes_mod": genes_mod,
          "pres_or": pres_or, "pres_k": pres_k, "pres_buy": pres_buy}
