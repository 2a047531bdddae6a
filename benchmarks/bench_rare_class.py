"""Several classes with one class of 3–4 training rows: macro F1 of the other classes on the
test rows, and how many test rows the rare class takes (its own are 0–2), per seed.

Tables: "syn4" (`bench_multiclass.syn4`, 2000 rows, 6 of them relabelled as a class
"rare one" at random: noise) and "clinic" (600 rows, 4 classes from age, dose and site with
8% of labels redrawn, numeric columns with missing cells, and a class "very rare kind" of
old smokers on the top dose in the annex: 3 training rows, 1–2 test rows). Compare code
versions by PYTHONPATH:

    OMP_NUM_THREADS=1 PYTHONPATH=. python benchmarks/bench_rare_class.py [--seeds 8]
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
import pandas as pd
from bench_multiclass import syn4
from sklearn.metrics import f1_score
from sklearn.model_selection import train_test_split

from plx_core import PLXClassifier


def syn4_rare(seed: int):
    """syn4 with 6 random rows relabelled "rare one", split 70/30 stratified."""
    X, y = syn4(2000, seed)
    y = y.to_numpy().astype(object)
    y[np.random.default_rng(seed).choice(len(y), 6, replace=False)] = "rare one"
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=seed, stratify=y)
    return Xtr, ytr, Xte, yte, "rare one"


def clinic(seed: int):
    """A 5-class table a user might bring (see the module docstring), 400 / 200 rows."""
    rng = np.random.default_rng(seed)
    n = 600
    df = pd.DataFrame({"age": rng.normal(50, 12, n).round(1),
                       "dose mg": rng.choice([5, 10, 20, 40], n).astype(float),
                       "site": rng.choice(["north wing", "south wing", "annex"], n),
                       "smoker": rng.choice(["yes", "no"], n), "ward": rng.choice(list("abcde"), n)})
    big = ["high risk", "dose related", "annex case", "routine"]
    lab = np.where(df.age > 60, big[0], np.where(df["dose mg"] >= 20, big[1],
                   np.where(df.site == "annex", big[2], big[3]))).astype(object)
    flip = rng.random(n) < 0.08
    lab[flip] = rng.choice(big, int(flip.sum()))
    pat = np.flatnonzero((df.age > 55) & (df["dose mg"] == 40) & (df.site == "annex")
                         & (df.smoker == "yes"))
    lab[np.r_[pat[pat < 400][:3], pat[pat >= 400][:2]]] = "very rare kind"
    for c in ("age", "site", "dose mg"):
        df.loc[rng.choice(n, 30, replace=False), c] = np.nan
    return df.iloc[:400], lab[:400], df.iloc[400:], lab[400:], "very rare kind"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=8)
    a = ap.parse_args()
    warnings.simplefilter("ignore")
    for name, make in (("syn4 + rare", syn4_rare), ("clinic", clinic)):
        f1s, taken = [], []
        for seed in range(a.seeds):
            Xtr, ytr, Xte, yte, rare = make(seed)
            pred = PLXClassifier(random_state=seed).fit(Xtr, ytr).predict(Xte)
            others = sorted(set(ytr) - {rare})
            f1s.append(f1_score(yte, pred, average="macro", labels=others))
            taken.append(int(((pred == rare) & (yte != rare)).sum()))
            print(f"{name} seed {seed}: macro F1 of the other classes {f1s[-1]:.3f}, rows the "
                  f"rare class took {taken[-1]}", flush=True)
        print(f"| {name} | {np.mean(f1s):.4f} | {np.mean(taken):.1f} (max {max(taken)}) |")


if __name__ == "__main__":
    main()
