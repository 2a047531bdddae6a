"""Ad hoc (session 12): new wide numeric tables, not in the comparison — plx before a change
(an older `plx_core` under ROOT), plx now and EBM (`baselines.EBM_SETTINGS`), F1 of the
positive class on a 70/30 split per seed.

    python benchmarks/adhoc/gam/new_wide_tables.py ROOT SEED0 SEED1

"collinear30": `make_classification`, 600 rows, 30 numeric columns (6 informative, 12 of
their combinations), 30% positive; "smooth-rare24": 800 rows of 24 standard normals, the 12%
of rows with the largest sin(1.5·x0) + 0.8·x1² − x2 + 0.6·tanh(2·x3) + N(0, 0.8²).
"""
from __future__ import annotations

import os
import sys
import warnings

import numpy as np
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.metrics import f1_score
from sklearn.model_selection import train_test_split

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from bench_fit_change import before_estimator  # noqa: E402

from plx_core import PLXClassifier  # noqa: E402
from plx_core.baselines import EBM_SETTINGS  # noqa: E402


def collinear(seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    X, y = make_classification(n_samples=600, n_features=30, n_informative=6, n_redundant=12,
                               weights=[0.7], flip_y=0.03, class_sep=0.8, random_state=seed)
    return pd.DataFrame(X, columns=[f"v{i}" for i in range(30)]), y


def smooth_rare(seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    g = np.random.default_rng(seed)
    x = g.standard_normal((800, 24))
    s = (np.sin(1.5 * x[:, 0]) + 0.8 * x[:, 1] ** 2 - x[:, 2] + 0.6 * np.tanh(2 * x[:, 3])
         + g.normal(0, 0.8, 800))
    y = (s > np.quantile(s, 0.88)).astype(int)
    return pd.DataFrame(x, columns=[f"x{i}" for i in range(24)]), y


def main(root: str, s0: int, s1: int) -> None:
    from interpret.glassbox import ExplainableBoostingClassifier

    warnings.simplefilter("ignore")
    old = before_estimator(root)
    res = []
    for name, gen in (("collinear30", collinear), ("smooth-rare24", smooth_rare)):
        for seed in range(s0, s1):
            X, y = gen(seed)
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y,
                                                  random_state=seed)
            Xtr, Xte = Xtr.reset_index(drop=True), Xte.reset_index(drop=True)
            kw = {"positive": 1, "random_state": seed, "max_len": 3}
            a, b = old(**kw).fit(Xtr, ytr), PLXClassifier(**kw).fit(Xtr, ytr)
            e = ExplainableBoostingClassifier(n_jobs=1, random_state=seed, **EBM_SETTINGS)
            e.fit(Xtr, ytr)
            row = (name, seed, *(f1_score(yte, m.predict(Xte)) for m in (a, b, e)),
                   b.selection_.key)
            res.append(row)
            print(f"{name} {seed}: before {row[2]:.3f} now {row[3]:.3f} EBM {row[4]:.3f} "
                  f"({row[5]})", flush=True)
    d = pd.DataFrame(res, columns=["set", "seed", "before", "now", "EBM", "key"])
    print(d.groupby("set")[["before", "now", "EBM"]].mean().round(3))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
