"""The data sets of the experiments and the paper's published numbers beside which ours are shown."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..data import Dataset

PAPER_TABLE2: dict[str, dict[str, float]] = {
    "Tree": {"titanic": 0.79, "mushroom": 0.99, "nursery": 0.99, "hiv1": 0.87, "bill": 0.98,
             "vehicle": 0.95},
    "Direct": {"titanic": 0.79, "mushroom": 0.99, "nursery": 0.99, "hiv1": 0.97, "bill": 0.99,
               "vehicle": 0.96},
    "CART": {"titanic": 0.82, "mushroom": 0.99, "nursery": 0.99, "hiv1": 0.94, "bill": 0.99,
             "vehicle": 0.98},
    "MLP": {"titanic": 0.81, "mushroom": 0.99, "nursery": 0.99, "hiv1": 0.73, "bill": 0.98,
            "vehicle": 0.96},
    "Forest": {"titanic": 0.82, "mushroom": 0.99, "nursery": 1.0, "hiv1": 0.98, "bill": 0.99,
               "vehicle": 0.98},
    "SVM": {"titanic": 0.78, "mushroom": 0.99, "nursery": 0.99, "hiv1": 0.99, "bill": 0.99,
            "vehicle": 0.97},
}
PAPER_TABLE3: dict[str, dict[str, float]] = {
    "Tree": {"syn-10-4": 0.71, "syn-10-8": 0.78, "syn-12-4": 0.62, "syn-12-8": 0.70},
    "Direct": {"syn-10-4": 0.92, "syn-10-8": 0.95, "syn-12-4": 0.89, "syn-12-8": 0.94},
    "CART": {"syn-10-4": 0.79, "syn-10-8": 0.87, "syn-12-4": 0.70, "syn-12-8": 0.84},
    "MLP": {"syn-10-4": 0.77, "syn-10-8": 0.83, "syn-12-4": 0.73, "syn-12-8": 0.80},
    "Forest": {"syn-10-4": 0.90, "syn-10-8": 0.96, "syn-12-4": 0.85, "syn-12-8": 0.93},
    "SVM": {"syn-10-4": 0.85, "syn-10-8": 0.86, "syn-12-4": 0.81, "syn-12-8": 0.81},
}
#: Table 4 (explanation accuracy, k = 1..5). The paper prints "0/962" for SHAP on 10/4 at k = 5
#: (read as 0.962) and labels its last block "12/4" a second time (it is 12/8).
PAPER_TABLE4: dict[tuple[str, str], list[float]] = {
    ("syn-10-4", "Direct"): [1, 1, 1, 0.995, 0.972],
    ("syn-10-4", "SHAP"): [1, 1, 0.996, 0.993, 0.962],
    ("syn-10-8", "Direct"): [1, 1, 0.997, 0.980, 0.976],
    ("syn-10-8", "SHAP"): [0.996, 0.995, 0.972, 0.967, 0.951],
    ("syn-12-4", "Direct"): [1, 0.982, 1, 0.997, 0.901],
    ("syn-12-4", "SHAP"): [0.993, 0.980, 0.973, 0.942, 0.856],
    ("syn-12-8", "Direct"): [1, 1, 0.998, 0.975, 0.964],
    ("syn-12-8", "SHAP"): [1, 0.990, 0.977, 0.929, 0.918],
}
#: Fig. 2(a), Titanic, from the text: k = 1: 75% same feature; k = 2: 72% share at least one
#: feature, 25% both. (Mushroom has no numbers in the text.)
PAPER_FIG2 = {("titanic", 1, 1): 0.75, ("titanic", 2, 1): 0.72, ("titanic", 2, 2): 0.25}

EXPERIMENTS = ("table2", "table3", "table4", "fig2", "fig3", "fig4", "variants")


# --------------------------------------------------------------------------- data sets


@dataclass(frozen=True)
class SetSpec:
    key: str
    label: str
    load: Callable[[bool], Dataset]
    max_len: int | None = None  # Direct KB clause cap (needed when 2^n is too large)


def _syn(L: int, m: int) -> Callable[[bool], Dataset]:
    def load(quick: bool) -> Dataset:
        from ..datasets import PAPER_SYN_10_4_SEED, synthetic

        seed_string = PAPER_SYN_10_4_SEED if (L, m) == (10, 4) else None
        return synthetic(L, m, 300 if quick else 3000, seed=0, seed_string=seed_string)

    return load


def _subsample(ds: Dataset, n: int, seed: int = 0) -> Dataset:
    """At most n rows, stratified by class (for --quick)."""
    if len(ds.y) <= n:
        return ds
    gen = np.random.default_rng(seed)
    keep: list[int] = []
    y = ds.y.to_numpy(dtype=object)
    for c in pd.unique(y):
        idx = np.flatnonzero(y == c)
        take = max(2, int(round(n * len(idx) / len(y))))
        keep.extend(gen.choice(idx, min(take, len(idx)), replace=False).tolist())
    keep = sorted(keep)
    return Dataset(ds.name, ds.X.iloc[keep].reset_index(drop=True),
                   ds.y.iloc[keep].reset_index(drop=True), ds.positive, ds.description,
                   ds.schema, ds.truth)


def _shared(name: str, n_cols: int | None = None) -> Callable[[bool], Dataset]:
    def load(quick: bool) -> Dataset:
        from ..datasets import load_shared

        ds = load_shared(name)
        if n_cols is not None:
            ds = Dataset(f"{ds.name}-{n_cols}", ds.X.iloc[:, :n_cols], ds.y, ds.positive,
                         ds.description + f" First {n_cols} features only.", None, ds.truth)
        return _subsample(ds, 200) if quick else ds

    return load


SETS: dict[str, SetSpec] = {
    "syn-10-4": SetSpec("syn-10-4", "Syn 10/4", _syn(10, 4)),
    "syn-10-8": SetSpec("syn-10-8", "Syn 10/8", _syn(10, 8)),
    "syn-12-4": SetSpec("syn-12-4", "Syn 12/4", _syn(12, 4)),
    "syn-12-8": SetSpec("syn-12-8", "Syn 12/8", _syn(12, 8)),
    "titanic": SetSpec("titanic", "Titanic", _shared("titanic")),
    "mushroom": SetSpec("mushroom", "Mushroom", _shared("mushroom")),
    "nursery": SetSpec("nursery", "Nursery", _shared("nursery")),
    "hiv1": SetSpec("hiv1", "HIV-1", _shared("hiv1")),
    "voting-8": SetSpec("voting-8", "Voting (8)", _shared("voting", 8)),
    "voting": SetSpec("voting", "Voting (16)", _shared("voting")),
    "breast-cancer": SetSpec("breast-cancer", "Breast Cancer", _shared("breast-cancer")),
    "spect": SetSpec("spect", "SPECT", _shared("spect"), max_len=3),
    "car": SetSpec("car", "Car", _shared("car")),
    "tic-tac-toe": SetSpec("tic-tac-toe", "Tic-Tac-Toe", _shared("tic-tac-toe")),
    "monks-1": SetSpec("monks-1", "MONK's 1", _shared("monks-1")),
    "monks-2": SetSpec("monks-2", "MONK's 2", _shared("monks-2")),
    "monks-3": SetSpec("monks-3", "MONK's 3", _shared("monks-3")),
}
TABLE2_SETS = ("titanic", "mushroom", "nursery", "hiv1")
TABLE3_SETS = ("syn-10-4", "syn-10-8", "syn-12-4", "syn-12-8")
VARIANT_SETS = tuple(SETS)
PAPER_ONLY_SETS = {"bill": "Bill", "vehicle": "Vehicle"}  # not public: paper's numbers only


#: The scikit-learn models of Tables 2 and 3, by the paper's column name → `plx_core.baselines` key.
BASELINE_KEYS = {"CART": "CART", "MLP": "MLP", "Forest": "forest", "SVM": "SVM"}
BASELINES = tuple(BASELINE_KEYS)
KS = (1, 2, 3, 4, 5)  # explanation sizes of Table 4
