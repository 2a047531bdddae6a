"""Several classes (issue 11, trial 3): plx's default one-vs-rest against CART, logistic
regression and a random forest on scikit-learn's bundled wine, iris and digits tables, the
same stratified 70/30 splits for every method; macro F1 and fit CPU time (medians).

    nice python benchmarks/bench_multiclass.py [--splits 3] [--sets wine,iris,digits]
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from sklearn import datasets
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.tree import DecisionTreeClassifier

from plx_core import PLXClassifier


def methods(seed: int) -> dict:
    return {
        "plx": lambda: PLXClassifier(random_state=seed),
        "cart (depth by CV)": lambda: GridSearchCV(DecisionTreeClassifier(random_state=seed),
                                                   {"max_depth": [2, 3, 4, 6, 8, None]}, cv=5),
        "logistic": lambda: LogisticRegression(max_iter=5000),
        "forest": lambda: RandomForestClassifier(random_state=seed),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--splits", type=int, default=3)
    ap.add_argument("--sets", default="wine,iris,digits")
    a = ap.parse_args()
    warnings.simplefilter("ignore")
    print("| set | rows × features, classes | method | macro F1 (median) | fit CPU s (median) | fit / forest |")
    print("|---|---|---|---|---|---|")
    for name in a.sets.split(","):
        d = getattr(datasets, f"load_{name}")(as_frame=True)
        X, y = d.data, d.target
        f1s: dict[str, list[float]] = {}
        fits: dict[str, list[float]] = {}
        for seed in range(a.splits):
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=seed, stratify=y)
            for m, make in methods(seed).items():
                t = time.process_time()
                model = make().fit(Xtr, ytr)
                fits.setdefault(m, []).append(time.process_time() - t)
                f1s.setdefault(m, []).append(f1_score(yte, model.predict(Xte), average="macro"))
        rf = float(np.median(fits["forest"]))
        for m in f1s:
            med = float(np.median(fits[m]))
            print(f"| {name} | {X.shape[0]} × {X.shape[1]}, {y.nunique()} | {m} | "
                  f"{np.median(f1s[m]):.3f} | {med:.2f} | {med / rf:.1f}× |")


if __name__ == "__main__":
    main()
