"""Several rows a case: what `PLXClassifier.fit(X, y, groups=cases)` changes, run on demand, not
by pytest.

    OMP_NUM_THREADS=1 python benchmarks/bench_case_folds.py [TABLES]

Each table (seed 0 … TABLES−1, default 8): 120 patients of 3–7 visits, the outcome the
patient's; a visit's CRP says something of it, the ward and the age are the patient's and say
nothing. The first 80 patients train, the other 40 are new patients to answer. Prints, without
and with the patients as groups: the search's out-of-fold F1 of the best tree and of the vote,
the chosen model, and its F1 on the new patients' visits.
"""

from __future__ import annotations

import os
import sys
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import f1_score

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from plx_core import PLXClassifier  # noqa: E402


def visits(seed: int, n: int = 120) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """(X, y, patient) of one table (see the module docstring)."""
    rng = np.random.default_rng(seed)
    k = rng.integers(3, 8, n)
    sick = np.repeat(rng.random(n) < 0.3, k)
    X = pd.DataFrame({"crp": np.round(rng.normal(np.where(sick, 30, 15), 15), 1),
                      "ward": np.repeat(rng.choice(list("ABCDEFGHIJKLMNOP"), n), k),
                      "age": np.repeat(rng.integers(20, 90, n), k).astype(float)})
    return X, sick.astype(int), np.repeat(np.arange(n), k)


def main(tables: int) -> None:
    print("| table | groups | best tree OOF F1 | vote OOF F1 | chosen | F1 new patients |")
    print("|---|---|---|---|---|---|")
    for seed in range(tables):
        X, y, case = visits(seed)
        tr, te = case < 80, case >= 80
        for grouped in (False, True):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                m = PLXClassifier().fit(X[tr], y[tr], groups=case[tr] if grouped else None)
            s = m.selection_.scores
            tree = max(v for k, v in s.items() if k.startswith("tree"))
            f1 = f1_score(y[te], m.predict(X[te]))
            print(f"| {seed} | {'patients' if grouped else 'none'} | {tree:.3f} | "
                  f"{s['direct-vote']:.3f} | {m.chosen_} | {f1:.3f} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 8)
