"""Numbers that decide only together: the default `PLXClassifier` of an older `plx_core` and of
this one against a depth-tuned CART and a random forest on the raw numbers, held-out F1 of the
positive class over seeded tables. Run on demand, not by pytest.

    git archive COMMIT plx_core | tar -x -C /tmp/plx_before
    OMP_NUM_THREADS=1 python benchmarks/bench_interactions.py /tmp/plx_before [SEEDS] [TABLES]

Tables (1,000 rows, 70/30 split, each seed a new table and split):
* xor — 12 standard-normal columns, "case" when a > 0.3 XOR b < −0.2, 10% of the labels
  flipped to "control" and 5% to "case": neither column predicts on its own;
* subgroup — 10 columns: age (uniform 20–90), sex, 8 lab values; "case" when a woman is older
  than 65 or a man's lab 1 is above 1, 8% label noise: age matters only for women;
* bools — 500 rows, an Excel export: smoker "TRUE"/"FALSE", on_statin 0.0/1.0, chol
  (normal 5.5 ± 1): an event when a smoker's chol is above 5.5 or chol above 6.5 off statins,
  7% label noise: chol's second threshold matters only off statins (the read18 table);
* dose — 1,000 rows: sex, dose (uniform 0–100 mg), weight, 4 noise labs: a "case" when a
  woman's dose is above 40 or anyone's above 75, 6% noise: the 40 mg cut pays only for women;
* ranges — 1,000 rows: a three-level group (A/B/C), a lab value and 5 noise columns: a
  "case" when the lab is above the group's own limit (A 1.2, B 0.4, C −0.4), 6% noise.
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
from plx_core.baselines import BASELINES  # noqa: E402


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


def bools(seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = 500
    smoker, statin = rng.random(n) < 0.3, rng.random(n) < 0.5
    chol = rng.normal(5.5, 1, n).round(2)
    y = ((smoker & (chol > 5.5)) | (~statin & (chol > 6.5))) ^ (rng.random(n) < 0.07)
    X = pd.DataFrame({"smoker": np.where(smoker, "TRUE", "FALSE"),
                      "on_statin": statin.astype(float), "chol": chol})
    return X, np.where(y, "case", "control")


def dose(seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = 1000
    X = pd.DataFrame(rng.normal(size=(n, 4)).round(2), columns=[f"lab{i}" for i in range(1, 5)])
    X.insert(0, "weight", rng.normal(75, 12, n).round(1))
    X.insert(0, "dose", rng.uniform(0, 100, n).round(1))
    X.insert(0, "sex", rng.choice(["F", "M"], n))
    y = ((X.sex == "F") & (X.dose > 40) | (X.dose > 75)) ^ (rng.random(n) < 0.06)
    return X, np.where(y, "case", "control")


def ranges(seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = 1000
    X = pd.DataFrame(rng.normal(size=(n, 5)).round(2), columns=[f"x{i}" for i in range(1, 6)])
    X.insert(0, "lab", rng.normal(size=n).round(2))
    X.insert(0, "group", rng.choice(list("ABC"), n))
    limit = X.group.map({"A": 1.2, "B": 0.4, "C": -0.4})
    y = (X.lab > limit) ^ (rng.random(n) < 0.06)
    return X, np.where(y, "case", "control")


TABLES = {"xor": xor, "subgroup": subgroup, "bools": bools, "dose": dose, "ranges": ranges}


def cart_and_forest(Xtr, ytr, Xte):
    """Predictions of a depth-tuned CART and a forest on the numbers (sex as 0/1)."""
    def num(X):  # a text column one-hot (a flag, a sex: one 0/1 column)
        return pd.get_dummies(X, drop_first=True, dtype=int)
    cart = GridSearchCV(DecisionTreeClassifier(random_state=0),
                        {"max_depth": [2, 3, 4, 6, 8, None]}, cv=5).fit(num(Xtr), ytr)
    t = time.process_time()
    forest = RandomForestClassifier(100, random_state=0, n_jobs=1).fit(num(Xtr), ytr)
    ft = time.process_time() - t
    ebm = BASELINES["EBM"].make(0).fit(Xtr, ytr)
    return cart.predict(num(Xte)), forest.predict(num(Xte)), ebm.predict(Xte), ft


def main(root: str, seeds: range, tables: list[str]) -> None:
    before = before_estimator(root)
    print("| table | plx before | plx now | CART (depth by CV) | EBM | forest | plx now's fit / "
          "forest's (CPU) | chosen now |\n|---|---|---|---|---|---|---|---|")
    for name in tables:
        make = TABLES[name]
        got: dict[str, list[float]] = {k: [] for k in ("before", "now", "cart", "ebm", "forest",
                                                       "ratio")}
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
                cart, forest, ebm, ft = cart_and_forest(Xtr, ytr, Xte)
            for k, pred in (("before", old.predict(Xte)), ("now", new.predict(Xte)),
                            ("cart", cart), ("ebm", ebm), ("forest", forest)):
                got[k].append(f1_score(yte, pred, pos_label="case"))
            got["ratio"].append(fit / ft)
            chosen.append(new.chosen_)
        m = {k: float(np.mean(v)) for k, v in got.items()}
        s = {k: float(np.std(v)) for k, v in got.items()}
        print(f"| {name} | {m['before']:.3f} ± {s['before']:.3f} | {m['now']:.3f} ± {s['now']:.3f} | "
              f"{m['cart']:.3f} ± {s['cart']:.3f} | {m['ebm']:.3f} ± {s['ebm']:.3f} | "
              f"{m['forest']:.3f} ± {s['forest']:.3f} | "
              f"{np.median(got['ratio']):.1f}× | {', '.join(sorted(set(chosen)))} |", flush=True)


if __name__ == "__main__":
    a, b = (sys.argv[2].split("-") if len(sys.argv) > 2 else ("0", "9"))
    main(sys.argv[1], range(int(a), int(b) + 1),
         sys.argv[3].split(",") if len(sys.argv) > 3 else list(TABLES))
