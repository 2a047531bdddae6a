"""Standard classifiers beside plx: one one-hot encoding, one set of model factories, one scorer.

The experiments (paper Tables 2-3), the SHAP comparison, the dashboard's Evaluate page and its
service all take their baselines from here, so a "random forest" is the same model everywhere:
the same encoding (missing values as one category of their own, values unseen in training as all
zeros), the same defaults and the same seed. Scores are those of the positive class.

scikit-learn is imported only when a model is made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .encoding import as_frame, binary_target, check_labels, is_missing, label_strings, value_str
from .errors import DataError

MISSING = "\x00missing"  # the one category a missing value becomes (no real value can equal it)


def as_strings(X: Any) -> pd.DataFrame:
    """The table as text cells, missing values as `MISSING` (what the encoder sees)."""
    frame = as_frame(X).astype(object)
    return frame.map(lambda v: MISSING if is_missing(v) else value_str(v))


class OneHot:
    """One-hot encoding of categorical columns, fitted on the training rows: missing is its own
    category, a value unseen in training encodes as all zeros. `sum_back` turns per-column
    attributions (e.g. SHAP values) into one value per original feature."""

    def fit(self, X: Any) -> OneHot:
        from sklearn.preprocessing import OneHotEncoder

        frame = as_strings(X)
        self.features_ = [str(c) for c in frame.columns]
        self.encoder_ = OneHotEncoder(handle_unknown="ignore", sparse_output=False)
        self.encoder_.fit(frame)
        widths = [len(c) for c in self.encoder_.categories_]
        self.starts_ = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(int)
        return self

    def transform(self, X: Any) -> np.ndarray:
        frame = as_strings(as_frame(X, features=self.features_))
        missing = [f for f in self.features_ if f not in frame.columns]
        if missing:
            raise DataError(f"the rows lack the training features {missing}")
        return self.encoder_.transform(frame[self.features_])

    def fit_transform(self, X: Any) -> np.ndarray:
        return self.fit(X).transform(X)

    def sum_back(self, values: np.ndarray) -> np.ndarray:
        """Per-row sums of the one-hot columns of each original feature (rows × features)."""
        values = np.asarray(values, dtype=float)
        if values.shape[1] == 0:
            return np.zeros((len(values), 0))
        return np.add.reduceat(values, self.starts_, axis=1)


@dataclass(frozen=True)
class Baseline:
    """A named scikit-learn classifier with this project's defaults; `make(seed)` builds it."""

    key: str
    label: str
    make: Callable[[int], Any]


def _majority(seed: int) -> Any:
    from sklearn.dummy import DummyClassifier

    return DummyClassifier(strategy="most_frequent")


def _logistic(seed: int) -> Any:
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(max_iter=2000)


def _cart(seed: int) -> Any:
    from sklearn.tree import DecisionTreeClassifier

    return DecisionTreeClassifier(random_state=seed)


def _forest(seed: int) -> Any:
    from sklearn.ensemble import RandomForestClassifier

    return RandomForestClassifier(n_estimators=100, random_state=seed, n_jobs=1)


def _boosting(seed: int) -> Any:
    from sklearn.ensemble import GradientBoostingClassifier

    return GradientBoostingClassifier(random_state=seed)


def _svm(seed: int) -> Any:
    from sklearn.svm import SVC

    return SVC()


def _mlp(seed: int) -> Any:
    from sklearn.neural_network import MLPClassifier

    return MLPClassifier((12, 10), max_iter=1000, random_state=seed)


def _mlp_default(seed: int) -> Any:
    from sklearn.neural_network import MLPClassifier

    return MLPClassifier(random_state=seed)


def _cart_cv(seed: int) -> Any:
    """CART whose depth (1–8 or unlimited) is chosen by 3-fold CV (F1) on the training rows."""
    from sklearn.model_selection import GridSearchCV, StratifiedKFold
    from sklearn.tree import DecisionTreeClassifier

    return GridSearchCV(DecisionTreeClassifier(random_state=seed),
                        {"max_depth": [1, 2, 3, 4, 6, 8, None]}, scoring="f1",
                        cv=StratifiedKFold(3, shuffle=True, random_state=seed), n_jobs=1)


EBM_SETTINGS: dict[str, Any] = {"interactions": 0, "outer_bags": 1}
"""EBM without pairwise interaction terms and with one outer bag: with its defaults (14 bags,
interactions "3x") one fit of 700 rows × 16 columns took 66–326 s on the shared 2-core
machine, 4 s like this. A plain GAM, so weaker than EBM's defaults."""
RULEFIT_SETTINGS: dict[str, Any] = {"n_estimators": 30}
"""RuleFit grows its candidate rules from 30 boosted trees instead of 100 (one default fit
took 70–125 s on the shared machine)."""


def _ebm(seed: int) -> Any:
    from interpret.glassbox import ExplainableBoostingClassifier

    return ExplainableBoostingClassifier(n_jobs=1, random_state=seed, **EBM_SETTINGS)


def _figs(seed: int) -> Any:
    from imodels import FIGSClassifier

    return FIGSClassifier(random_state=seed)


def _rulefit(seed: int) -> Any:
    from imodels import RuleFitClassifier

    return RuleFitClassifier(random_state=seed, **RULEFIT_SETTINGS)


def _naive_bayes(seed: int) -> Any:
    from sklearn.naive_bayes import BernoulliNB

    return BernoulliNB()


#: Every baseline, by key (the paper's four are CART, MLP, forest and SVM).
BASELINES: dict[str, Baseline] = {b.key: b for b in (
    Baseline("majority", "majority class", _majority),
    Baseline("logistic", "logistic regression", _logistic),
    Baseline("CART", "decision tree (CART)", _cart),
    Baseline("forest", "random forest (100 trees)", _forest),
    Baseline("boosting", "gradient boosting", _boosting),
    Baseline("SVM", "support vector machine (RBF)", _svm),
    Baseline("MLP", "neural network (MLP 12-10)", _mlp),
    Baseline("naive-bayes", "naive Bayes", _naive_bayes),
    Baseline("MLP-default", "neural network (MLP, scikit-learn defaults)", _mlp_default),
    Baseline("CART-cv", "decision tree (CART, depth by CV)", _cart_cv),
    Baseline("EBM", "explainable boosting machine (interpret)", _ebm),
    Baseline("FIGS", "fast interpretable greedy-tree sums (imodels)", _figs),
    Baseline("RuleFit", "RuleFit (imodels)", _rulefit),
)}
#: Interpretable models the `compare` experiment measures plx against (the `experiments` extra
#: installs interpret and imodels).
INTERPRETABLE_BASELINES = ("CART-cv", "EBM", "FIGS", "RuleFit")
DASHBOARD_BASELINES = ("majority", "logistic", "CART", "forest", "boosting", "naive-bayes")


def make_model(key: str, seed: int = 0) -> Any:
    """A fresh, unfitted baseline model."""
    try:
        return BASELINES[key].make(seed)
    except KeyError:
        raise DataError(f"unknown baseline {key!r}; choose one of {list(BASELINES)}") from None


class OneHotModel:
    """A baseline on one-hot features: fit and predict on the categorical table itself."""

    def __init__(self, key: str, seed: int = 0) -> None:
        self.key, self.seed = key, seed

    def fit(self, X: Any, y: Any) -> OneHotModel:
        self.encoder_ = OneHot().fit(X)
        self.model_ = make_model(self.key, self.seed).fit(self.encoder_.transform(X), y)
        return self

    def predict(self, X: Any) -> np.ndarray:
        return self.model_.predict(self.encoder_.transform(X))


# --------------------------------------------------------------------------- scores


def scores(y_true: Iterable[bool], y_pred: Iterable[bool]) -> dict[str, float]:
    """F1, precision, recall (= sensitivity), specificity and accuracy of the positive class,
    with the confusion counts tp, fp, fn, tn. An empty denominator scores 0."""
    t = np.asarray(list(y_true) if not isinstance(y_true, np.ndarray) else y_true, dtype=bool)
    p = np.asarray(list(y_pred) if not isinstance(y_pred, np.ndarray) else y_pred, dtype=bool)
    if t.shape != p.shape:
        raise DataError(f"{len(t)} true labels but {len(p)} predictions")
    tp, fp = int((t & p).sum()), int((~t & p).sum())
    fn, tn = int((t & ~p).sum()), int((~t & ~p).sum())
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    spec = tn / (tn + fp) if tn + fp else 0.0
    f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    return {"F1": f1, "precision": prec, "recall": rec, "sensitivity": rec, "specificity": spec,
            "accuracy": (tp + tn) / max(len(t), 1), "tp": tp, "fp": fp, "fn": fn, "tn": tn}


def confusion(y_true: Iterable[bool], y_pred: Iterable[bool]) -> np.ndarray:
    """[[TN, FP], [FN, TP]] (rows: true NOT POS / POS; columns: predicted)."""
    s = scores(y_true, y_pred)
    return np.array([[s["tn"], s["fp"]], [s["fn"], s["tp"]]])


def scored_target(y_test: Any, positive: str) -> np.ndarray:
    """0/1 labels of rows to score against `positive` (a class of the training rows): unlike
    `binary_target`, every row may hold one class, or a class the training rows never had."""
    arr = np.asarray(y_test.to_numpy() if isinstance(y_test, (pd.Series, pd.DataFrame)) else y_test,
                     dtype=object).ravel()
    check_labels(arr)
    return (label_strings(arr) == positive).astype(np.int8)


def f1_score(y_true: Sequence[Any], y_pred: Sequence[Any], positive: Any) -> float:
    """F1 of the class `positive` for label values (compared as text)."""
    pos = value_str(positive)
    return scores([value_str(v) == pos for v in y_true], [value_str(v) == pos for v in y_pred])["F1"]


def baseline_scores(X_train: Any, y_train: Any, X_test: Any, y_test: Any, positive: Any,
                    keys: Sequence[str] = DASHBOARD_BASELINES, seed: int = 0,
                    progress: Callable[[float, str], None] | None = None) -> pd.DataFrame:
    """Test scores of the baselines `keys`, each fitted on the one-hot training rows (one row
    per model: model key, label, then `scores`). Only the training rows need both classes: a
    test part of one class (a rare class's few rows all drawn for training) is scored as is.
    `progress(fraction, text)` is told before each model is fitted (the dashboard's bar)."""
    ytr, pos = binary_target(y_train, positive)
    yte = scored_target(y_test, pos)
    enc = OneHot().fit(X_train)
    A, B = enc.transform(X_train), enc.transform(X_test)
    rows = []
    for i, key in enumerate(keys):
        model = make_model(key, seed)
        if progress is not None:
            progress(i / len(keys), f"fitting {BASELINES[key].label} ({i + 1} of {len(keys)})")
        model = model.fit(A, ytr)
        pred = np.asarray(model.predict(B)) == 1
        rows.append({"model": key, "label": BASELINES[key].label, **scores(yte == 1, pred)})
    return pd.DataFrame(rows)


__all__ = ["BASELINES", "DASHBOARD_BASELINES", "EBM_SETTINGS", "INTERPRETABLE_BASELINES",
           "RULEFIT_SETTINGS", "MISSING", "Baseline", "OneHot", "OneHotModel",
           "as_strings", "baseline_scores", "confusion", "f1_score", "make_model", "scores"]
