"""Tables of MONK's 3's class: random two-term DNFs over six small categorical features
(MONK's domains 3, 3, 2, 3, 4, 2; a term is 1–2 literals `a = v` or `a ≠ v`), `ROWS` rows drawn
from the 432-row attribute space with a share of labels flipped; the default (and CART, depth
by CV) fitted on them, scored on the whole noise-free attribute space.

    PYTHONPATH=CODE python benchmarks/adhoc/monks14/gen.py TABLES NOISE[,NOISE] OUT.csv
"""
from __future__ import annotations

import itertools
import sys

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score

from plx_core.experiments.compare import make

DOMAINS = (3, 3, 2, 3, 4, 2)
ROWS = 85


def space() -> pd.DataFrame:
    """Every combination of values (432 rows), as text categories."""
    rows = list(itertools.product(*[range(1, d + 1) for d in DOMAINS]))
    return pd.DataFrame(rows, columns=[f"a{i + 1}" for i in range(6)]).astype(str)


def dnf(rng: np.random.Generator) -> list[list[tuple[int, int, bool]]]:
    """Two terms of 1–2 literals (feature, value, equal?) on distinct features per term."""
    terms = []
    for _ in range(2):
        k = int(rng.integers(1, 3))
        feats = rng.choice(6, k, replace=False)
        terms.append([(int(f), int(rng.integers(1, DOMAINS[f] + 1)), bool(rng.random() < 0.5))
                      for f in feats])
    return terms


def label(X: pd.DataFrame, terms) -> np.ndarray:
    v = X.to_numpy().astype(int)
    out = np.zeros(len(v), bool)
    for t in terms:
        hit = np.ones(len(v), bool)
        for f, val, eq in t:
            hit &= (v[:, f] == val) if eq else (v[:, f] != val)
        out |= hit
    return out.astype(int)


def main(n: int, noises: list[float], out: str) -> None:
    S = space()
    rows = []
    for noise in noises:
        for i in range(n):
            rng = np.random.default_rng(1000 + i)
            terms = dnf(rng)
            truth = label(S, terms)
            if not 0.2 <= truth.mean() <= 0.8:  # a balance like MONK's (0.47 positive)
                continue
            pick = rng.choice(len(S), ROWS, replace=False)
            y = truth[pick].copy()
            flip = rng.random(ROWS) < noise
            y[flip] = 1 - y[flip]
            X = S.iloc[pick].reset_index(drop=True)
            if y.sum() < 5 or (1 - y).sum() < 5:
                continue
            for name in ("plx", "CART"):
                m = make(name, i, 6).fit(X, y)
                p = m.predict(S)
                chosen = m.model_.chosen_ if name == "plx" else ""
                key = (m.model_.selection_.key if name == "plx" and m.model_.selection_
                       else chosen)
                rows.append(dict(noise=noise, table=i, method=name, f1=f1_score(truth, p),
                                 acc=float((p == truth).mean()), chosen=key))
    d = pd.DataFrame(rows)
    d.to_csv(out, index=False)
    print(d.groupby(["noise", "method"])[["f1", "acc"]].agg(["mean", "count"]).round(4))


if __name__ == "__main__":
    main(int(sys.argv[1]), [float(x) for x in sys.argv[2].split(",")], sys.argv[3])
