"""Several classes: plx's default one-vs-rest against CART, logistic regression and a random
forest, the same stratified 70/30 splits for every method; macro F1 and fit CPU time
(medians), the fit also as a ratio to the forest's in the same process.

Sets: scikit-learn's bundled wine, iris and digits; UCI car (4 classes), nursery (5) and zoo
(7) with their original classes, read from $PLX_DATA_DIR (skipped without it); "syn4", a
seeded table of our own (4 classes, each a short DNF of 10 categorical features, 10% of the
labels redrawn).

    nice python benchmarks/bench_multiclass.py [--splits 3] [--sets wine,iris,digits,car,zoo,syn4]
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn import datasets
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder
from sklearn.tree import DecisionTreeClassifier

from plx_core import PLXClassifier
from plx_core.data import load_csv
from plx_core.datasets import CAR_COLUMNS, NURSERY_COLUMNS, ZOO_COLUMNS


def methods(seed: int, categorical: bool) -> dict:
    """Each method, one-hot encoded first for a table of categories (as the baselines are)."""

    def enc(model):
        return make_pipeline(OneHotEncoder(handle_unknown="ignore"), model) if categorical else model

    grid = {("decisiontreeclassifier__" if categorical else "") + "max_depth": [2, 3, 4, 6, 8, None]}
    return {
        "plx": lambda: PLXClassifier(random_state=seed),
        "cart (depth by CV)": lambda: GridSearchCV(
            enc(DecisionTreeClassifier(random_state=seed)), grid, cv=5),
        "logistic": lambda: enc(LogisticRegression(max_iter=5000)),
        "forest": lambda: enc(RandomForestClassifier(random_state=seed)),
    }


def syn4(n: int = 2000, seed: int = 0) -> tuple[pd.DataFrame, pd.Series]:
    """4 classes of 10 categorical features (3 values each): a, b and c are short DNFs tried
    in order, d the rest; 10% of the labels redrawn at random."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({f"f{i}": rng.choice(["x", "y", "z"], n) for i in range(10)})
    a = (X.f0 == "x") & (X.f1 == "y") | (X.f2 == "z") & (X.f3 == "z")
    b = (X.f4 == "x") & (X.f5 != "z") | (X.f6 == "y") & (X.f0 == "z")
    c = (X.f7 == "y") & (X.f8 == "y")
    y = np.where(a, "a", np.where(b, "b", np.where(c, "c", "d")))
    flip = rng.random(n) < 0.1
    y[flip] = rng.choice(list("abcd"), int(flip.sum()))
    return X, pd.Series(y, name="class")


def shared(name: str) -> tuple[pd.DataFrame, pd.Series] | None:
    """A UCI table with its original classes from $PLX_DATA_DIR (None without it)."""
    root = os.environ.get("PLX_DATA_DIR")
    files = {"car": ("car/car.data", CAR_COLUMNS, "class"),
             "nursery": ("nursery/nursery.data", NURSERY_COLUMNS, "class"),
             "zoo": ("zoo/zoo.data", ZOO_COLUMNS, "type")}
    if root is None or not (Path(root) / files[name][0]).is_file():
        return None
    rel, cols, label = files[name]
    frame = load_csv(Path(root) / rel, header=False, names=cols, delimiter=",").astype(str)
    if name == "zoo":
        frame = frame.drop(columns=[cols[0]])  # the animal's name
    if name == "nursery":  # 'recommend' has 2 of 12,960 rows: too few to split
        frame = frame[frame[label] != "recommend"]
    return frame.drop(columns=[label]).reset_index(drop=True), frame[label].reset_index(drop=True)


def table(name: str) -> tuple[pd.DataFrame, pd.Series, bool] | None:
    """(X, y, whether X is categorical) of one set."""
    if name == "syn4":
        return (*syn4(), True)
    if name in ("car", "nursery", "zoo"):
        got = shared(name)
        return None if got is None else (*got, True)
    d = getattr(datasets, f"load_{name}")(as_frame=True)
    return d.data, d.target, False


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--splits", type=int, default=3)
    ap.add_argument("--sets", default="wine,iris,digits,car,zoo,syn4")
    ap.add_argument("--methods", default="plx,cart (depth by CV),logistic,forest")
    a = ap.parse_args()
    warnings.simplefilter("ignore")
    keep = a.methods.split(",")
    if "forest" not in keep:
        keep.append("forest")  # the ratio's baseline
    print("| set | rows × features, classes | method | macro F1 (median) | fit CPU s (median) | fit / forest |")
    print("|---|---|---|---|---|---|")
    for name in a.sets.split(","):
        got = table(name)
        if got is None:
            print(f"| {name} | (not found: set PLX_DATA_DIR) | | | | |")
            continue
        X, y, categorical = got
        f1s: dict[str, list[float]] = {}
        fits: dict[str, list[float]] = {}
        for seed in range(a.splits):
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=seed, stratify=y)
            for m, make in methods(seed, categorical).items():
                if m not in keep:
                    continue
                t = time.process_time()
                model = make().fit(Xtr, ytr)
                fits.setdefault(m, []).append(time.process_time() - t)
                f1s.setdefault(m, []).append(f1_score(yte, model.predict(Xte), average="macro"))
                if m == "plx":
                    print(f"<!-- {name} split {seed}: {model.chosen_reason_[:300]} -->", flush=True)
        rf = float(np.median(fits["forest"]))
        for m in f1s:
            med = float(np.median(fits[m]))
            print(f"| {name} | {X.shape[0]} × {X.shape[1]}, {y.nunique()} | {m} | "
                  f"{np.median(f1s[m]):.3f} | {med:.2f} | {med / rf:.1f}× |", flush=True)


if __name__ == "__main__":
    main()
