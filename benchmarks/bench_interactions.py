"""Numbers that decide only together: the default `PLXClassifier` of an older `plx_core` and of
this one against a depth-tuned CART and a random forest on the raw numbers, held-out F1 of the
positive class over seeded tables. Run on demand, not by pytest.

    git archive COMMIT plx_core | tar -x -C /tmp/plx_before
    OMP_NUM_THREADS=1 python benchmarks/bench_interactions.py /tmp/plx_before [SEEDS]

Tables (1,000 rows, 70/30 split, each seed a new table and split):
* xor — 12 standard-normal columns, "case" when a > 0.3 XOR b < −0.2, 10% of the labels
  flipped to "control" and 5% to "case": neither column predicts on its own;
* subgroup — 10 columns: age (uniform 20–90), sex, 8 lab values; "case" when a woman is older
  than 65 or a man's lab 1 is above 1, 8% label noise: age matters only for women.
"""

from __future__ import annotations

import os
import sys
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import f1_score
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.tree import DecisionTreeClassifier

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from bench_fit_change import before_estimator  # noqa: E402

from plx_core import PLXClassifier  # noqa: E402


def xor(seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = 1000
    X = pd.DataFrame(rng.normal(size=(n, 12)), columns=["a", "b", *(f"x{i}" for i in range(10))])
    y = ((X.a > 0.3) ^ (X.b < -0.2)) & (rng.random(n) > 0.1) | (rng.random(n) < 0.05)
    return X, np.where(y, "case", "control")


def subgroup(seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = 1000
    X = pd.DataFrame(rng.normal(size=(n, 8)), columns=[f"lab{i}" for i in range(1, 9)])
    X.insert(0, "sex", rng.choice(["F", "M"], n))
    X.insert(0, "age", rng.integers(20, 91, n))
    y = np.where(X.sex == "F", X.age > 65, X.lab1 > 1) ^ (rng.random(n) < 0.08)
    return X, np.where(y, "case", "control")


def cart_and_forest(Xtr, ytr, Xte):
    """Predictions of a depth-tuned CART and a forest on the numbers (sex as 0/1)."""
    def num(X):
        return X.assign(**{c: (X[c] == "F").astype(int) for c in X
                           if not pd.api.types.is_numeric_dtype(X[c])})
    cart = GridSearchCV(DecisionTreeClassifier(random_state=0),
                        {"max_depth": [2, 3, 4, 6, 8, None]}, cv=5).fit(num(Xtr), ytr)
    t = time.process_time()
    forest = RandomForestClassifier(100, random_state=0, n_jobs=1).fit(num(Xtr), ytr)
    return cart.predict(num(Xte)), forest.predict(num(Xte)), time.process_time() - t


def main(root: str, seeds: range) -> None:
    before = before_estimator(root)
    print("| table | plx before | plx now | CART (depth by CV) | forest | plx now's fit / forest's "
          "(CPU) | chosen now |\n|---|---|---|---|---|---|---|")
    for name, make in (("xor", xor), ("subgroup", subgroup)):
        got: dict[str, list[float]] = {k: [] for k in ("before", "now", "cart", "forest", "ratio")}
        chosen = []
        for seed in seeds:
            X, y = make(seed)
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=seed,
                                                  stratify=y)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                old = before(positive="case", random_state=0).fit(Xtr, ytr)
                t = time.process_time()
                new = PLXClassifier(positive="case", random_state=0).fit(Xtr, ytr)
                fit = time.process_time() - t
            cart, forest, ft = cart_and_forest(Xtr, ytr, Xte)
            for k, pred in (("before", old.predict(Xte)), ("now", new.predict(Xte)),
                            ("cart", cart), ("forest", forest)):
                got[k].append(f1_score(yte, pred, pos_label="case"))
            got["ratio"].append(fit / ft)
            chosen.append(new.chosen_)
        m = {k: float(np.mean(v)) for k, v in got.items()}
        s = {k: float(np.std(v)) for k, v in got.items()}
        print(f"| {name} | {m['before']:.3f} ± {s['before']:.3f} | {m['now']:.3f} ± {s['now']:.3f} | "
              f"{m['cart']:.3f} ± {s['cart']:.3f} | {m['forest']:.3f} ± {s['forest']:.3f} | "
              f"{np.median(got['ratio']):.1f}× | {', '.join(sorted(set(chosen)))} |", flush=True)


if __name__ == "__main__":
    a, b = (sys.argv[2].split("-") if len(sys.argv) > 2 else ("0", "9"))
    main(sys.argv[1], range(int(a), int(b) + 1))
