"""SHAP side by side: SHAP values of a scikit-learn baseline on the same data, and how often
its top-k features agree with ours (the paper's Fig. 2).

`shap` is an optional extra (`pip install plx[shap]`); it is imported only when SHAP values are
asked for, with a clear error if it is missing. The agreement measures need no shap.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .baselines import OneHot, make_model
from .encoding import as_frame, binary_target
from .errors import DataError
from .explain import DECIMALS, _jsonable

MODELS = ("forest", "CART", "logistic")  # baselines with an exact SHAP explainer


def _import_shap():
    try:
        import shap
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise ImportError(
            "SHAP values need the optional 'shap' package: pip install 'plx[shap]' "
            "(or pip install shap)"
        ) from exc
    return shap


@dataclass(frozen=True)
class ShapBaseline:
    """SHAP values (towards the positive class) of a baseline model, one column per original
    feature (one-hot columns summed back), one row per explained instance.

    `base_value` + a row's sum = the model's output for that row (probability of the positive
    class for forests and trees, log-odds for the logistic model). `predicted` is the model's
    decision per row (positive iff P(positive) > 0.5).
    """

    values: pd.DataFrame
    base_value: float
    predicted: np.ndarray
    proba: np.ndarray
    model: str
    positive: str

    def top_k(self, k: int, direction: str | Sequence[bool] = "predicted") -> list[tuple[str, ...]]:
        """Per row, the k features pushing hardest towards the decision: the largest values
        for a positive row, the smallest for a negative one (`direction` "predicted", a
        fixed "positive"/"negative", or one bool per row); ties by feature order."""
        return top_k_features(self.values, k, self._direction(direction))

    def _direction(self, direction: str | Sequence[bool]) -> np.ndarray:
        n = len(self.values)
        if isinstance(direction, str):
            if direction == "predicted":
                return np.asarray(self.predicted, dtype=bool)
            if direction in ("positive", "negative"):
                return np.full(n, direction == "positive")
            raise DataError(f"direction must be 'predicted', 'positive', 'negative' or bools, "
                            f"got {direction!r}")
        d = np.asarray(direction, dtype=bool)
        if len(d) != n:
            raise DataError(f"direction has {len(d)} entries for {n} rows")
        return d

    def to_dict(self) -> dict[str, Any]:
        return _jsonable({
            "features": list(self.values.columns),
            "index": [str(i) for i in self.values.index],
            "values": self.values.to_numpy(),
            "base_value": self.base_value,
            "predicted": self.predicted,
            "proba": self.proba,
            "model": self.model,
            "positive": self.positive,
        })


MODEL_ALIASES = {"tree": "CART"}  # the old name of the decision tree


@dataclass
class ShapExplainer:
    """A baseline fitted once on one-hot training rows with its SHAP explainer, so explaining
    more rows (e.g. an edited instance) costs a transform, not a fit."""

    encoder: OneHot
    model: Any
    explainer: Any
    col: int
    base_value: float
    name: str
    positive: str

    def explain(self, X: Any) -> ShapBaseline:
        """SHAP values of the rows of `X` (one column per training feature)."""
        frame = as_frame(X, features=self.encoder.features_)
        missing = [c for c in self.encoder.features_ if c not in frame.columns]
        if missing:
            raise DataError(f"X_explain lacks the training features {missing}")
        B = self.encoder.transform(frame)
        raw = self.explainer.shap_values(B)
        sv = np.asarray(raw[self.col] if isinstance(raw, list) else raw, dtype=float)
        if sv.ndim == 3:
            sv = sv[:, :, self.col]
        proba = self.model.predict_proba(B)[:, self.col]
        values = pd.DataFrame(self.encoder.sum_back(sv), index=frame.index,
                              columns=list(self.encoder.features_))
        return ShapBaseline(values, self.base_value, proba > 0.5, proba, self.name, self.positive)


def fit_shap_baseline(X_train: Any, y_train: Any, model: str = "forest",
                      random_state: int | None = 0, positive: Any = None,
                      n_estimators: int = 100) -> ShapExplainer:
    """Fit the baseline `model` (a `plx_core.baselines` key among `MODELS`) on one-hot encoded
    categorical features and build its SHAP explainer (TreeExplainer for "forest"/"CART",
    LinearExplainer on the training rows for "logistic")."""
    key = MODEL_ALIASES.get(model, model)
    if key not in MODELS:
        raise DataError(f"model must be one of {MODELS}, got {model!r}")
    shap = _import_shap()
    Xtr = as_frame(X_train)
    yb, pos = binary_target(y_train, positive)
    if len(yb) != len(Xtr):
        raise DataError(f"X_train has {len(Xtr)} rows but y_train has {len(yb)}")
    enc = OneHot().fit(Xtr)
    A = enc.transform(Xtr)
    clf = make_model(key, random_state)
    if key == "forest":
        clf.set_params(n_estimators=n_estimators)
    clf.fit(A, yb)
    col = int(np.flatnonzero(clf.classes_ == 1)[0])
    explainer = shap.LinearExplainer(clf, A) if key == "logistic" else shap.TreeExplainer(clf)
    base = np.atleast_1d(np.asarray(explainer.expected_value, dtype=float))
    return ShapExplainer(enc, clf, explainer, col, float(base[col] if len(base) > 1 else base[0]),
                         model, pos)


def shap_values_baseline(
    X_train: Any,
    y_train: Any,
    X_explain: Any,
    model: str = "forest",
    random_state: int | None = 0,
    positive: Any = None,
    n_estimators: int = 100,
) -> ShapBaseline:
    """Fit a scikit-learn baseline on one-hot encoded categorical features and explain
    `X_explain` with SHAP (see `fit_shap_baseline`). One-hot SHAP values are summed back per
    original feature. Missing values become their own category; values unseen in training
    encode as all zeros."""
    return fit_shap_baseline(X_train, y_train, model, random_state, positive,
                             n_estimators).explain(X_explain)


def top_k_features(values: pd.DataFrame | np.ndarray, k: int,
                   positive: bool | Sequence[bool] = True,
                   features: Sequence[str] | None = None) -> list[tuple[str, ...]]:
    """Per row of attribution `values`, the k features with the largest values (rows with
    `positive` True) or the smallest (False); ties by feature (column) order."""
    if isinstance(values, pd.DataFrame):
        names = [str(c) for c in values.columns]
        arr = values.to_numpy(dtype=float)
    else:
        arr = np.asarray(values, dtype=float)
        names = list(features) if features is not None else [f"a{j + 1}" for j in range(arr.shape[1])]
    if not 1 <= k <= arr.shape[1]:
        raise DataError(f"k={k} is not between 1 and the {arr.shape[1]} features")
    pos = np.broadcast_to(np.asarray(positive, dtype=bool), (len(arr),))
    arr = np.round(arr, DECIMALS)
    key = np.where(pos[:, None], -arr, arr)
    idx = np.arange(arr.shape[1])
    out = []
    for r in range(len(arr)):
        order = np.lexsort((idx, key[r]))[:k]
        out.append(tuple(names[j] for j in sorted(order)))
    return out


@dataclass(frozen=True)
class Agreement:
    """How two explainers' top-k feature sets agree over the same instances (paper Fig. 2).

    `same` is the share of instances with identical sets; `at_least[j]` the share with at
    least j common features, `exactly[j]` with exactly j (j = 0…k). `chosen` gives, for each
    feature, the share of instances in which each side picked it (Fig. 2(b)/(d)).
    """

    k: int
    n: int
    same: float
    at_least: dict[int, float]
    exactly: dict[int, float]
    chosen: pd.DataFrame

    def to_dict(self) -> dict[str, Any]:
        return _jsonable({
            "k": self.k, "n": self.n, "same": self.same, "at_least": self.at_least,
            "exactly": self.exactly, "chosen": self.chosen.to_dict(orient="records"),
        })


def _as_set(x: Any) -> tuple[str, ...]:
    if isinstance(x, Mapping):
        return tuple(str(f) for f in x.keys())
    if hasattr(x, "features") and isinstance(x.features, (Mapping, tuple)):
        return _as_set(x.features)
    if isinstance(x, str):
        return (x,)
    return tuple(str(f) for f in x)


def top_k_agreement(our_features: Iterable[Any], shap_features: Iterable[Any], k: int,
                    features: Sequence[str] | None = None,
                    labels: tuple[str, str] = ("ours", "shap")) -> Agreement:
    """Agreement of two sequences of top-k feature sets (one per instance; each a tuple of
    names, a dict keyed by feature, or an `Explanation`). `features` fixes the rows (and
    order) of the `chosen` table; by default every feature seen, in first-seen order."""
    ours = [_as_set(x) for x in our_features]
    theirs = [_as_set(x) for x in shap_features]
    if len(ours) != len(theirs):
        raise DataError(f"{len(ours)} explanations on one side, {len(theirs)} on the other")
    if not ours:
        raise DataError("no instances to compare")
    for side, sets in zip(labels, (ours, theirs)):
        bad = [i for i, s in enumerate(sets) if len(set(s)) != k]
        if bad:
            raise DataError(f"{side}: instance {bad[0]} has {len(set(sets[bad[0]]))} features, "
                            f"expected k={k}")
    common = np.array([len(set(a) & set(b)) for a, b in zip(ours, theirs)])
    n = len(ours)
    at_least = {j: float((common >= j).mean()) for j in range(1, k + 1)}
    exactly = {j: float((common == j).mean()) for j in range(0, k + 1)}
    names = list(features) if features is not None else list(
        dict.fromkeys(itertools.chain.from_iterable(ours + theirs)))
    chosen = pd.DataFrame({
        "feature": names,
        labels[0]: [sum(f in s for s in ours) / n for f in names],
        labels[1]: [sum(f in s for s in theirs) / n for f in names],
    })
    return Agreement(k, n, float((common == k).mean()), at_least, exactly, chosen)


__all__ = ["Agreement", "MODELS", "ShapBaseline", "ShapExplainer", "fit_shap_baseline",
           "shap_values_baseline", "top_k_agreement",
           "top_k_features"]
