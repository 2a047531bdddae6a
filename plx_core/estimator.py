"""`PLXClassifier`: the plx method behind scikit-learn's estimator contract.

Binary labels get one KB (POS = the positive class); more classes are one-vs-rest, a KB per
class, and the prediction is the class whose ω(POS) bounds have the largest mean.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d, validate_data

from .direct import direct_kb
from .encoding import natural_key, value_str
from .errors import DataError
from .kb import KB
from .query import TIE_EPS, BoundsArray, query_many

KB_KINDS = ("direct", "tree", "tree-all", "forest")


class PLXClassifier(ClassifierMixin, BaseEstimator):
    """Classify by probabilistic logic inference over a learned KB.

    kb: "direct" (Algorithm 3), "tree" (ID3 leaves), "tree-all" (all ID3 nodes) or "forest".
    max_len: cap on clause length for the Direct KB. semantics: "auto" | "relevant" | "full".
    n_trees, max_features, bootstrap: forest settings. positive: the positive class for binary
    labels (default: the last class in natural order, e.g. 1 of {0, 1}).
    """

    def __init__(
        self,
        kb: str = "direct",
        max_len: int | None = None,
        semantics: str = "auto",
        n_trees: int = 10,
        max_features: int | None = None,
        bootstrap: bool | None = None,
        max_depth: int | None = None,
        positive: Any = None,
        random_state: int | None = 0,
    ):
        self.kb = kb
        self.max_len = max_len
        self.semantics = semantics
        self.n_trees = n_trees
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.max_depth = max_depth
        self.positive = positive
        self.random_state = random_state

    # ------------------------------------------------------------------ sklearn plumbing

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.input_tags.allow_nan = True
        return tags

    def _frame(self, X: Any, reset: bool) -> pd.DataFrame:
        arr = validate_data(self, X, dtype=None, ensure_all_finite=False, reset=reset)
        names = getattr(self, "feature_names_in_", None)
        cols = [str(c) for c in names] if names is not None else [f"a{i + 1}" for i in range(arr.shape[1])]
        return pd.DataFrame(np.asarray(arr, dtype=object), columns=cols)

    # ------------------------------------------------------------------ fit

    def fit(self, X: Any, y: Any) -> PLXClassifier:
        if self.kb not in KB_KINDS:
            raise DataError(f"kb must be one of {KB_KINDS}, got {self.kb!r}")
        if y is None:
            raise DataError(f"{type(self).__name__} requires y to be passed, but the target y is None")
        frame = self._frame(X, reset=True)
        y_arr = column_or_1d(np.asarray(y.to_numpy() if isinstance(y, pd.Series) else y), warn=True)
        check_classification_targets(y_arr)
        y_arr = y_arr.astype(object)
        if len(y_arr) != len(frame):
            raise DataError(f"X has {len(frame)} rows but y has {len(y_arr)}")
        labels = np.array([value_str(v) for v in y_arr], dtype=object)
        classes = sorted(set(labels.tolist()), key=natural_key)
        if len(classes) < 2:
            raise DataError(f"y has only one class ({classes[0]!r}); plx needs at least two")
        originals = {value_str(v): v for v in y_arr}
        self.classes_ = np.array([originals[c] for c in classes])
        if len(classes) == 2:
            pos = value_str(self.positive) if self.positive is not None else classes[-1]
            if pos not in classes:
                raise DataError(f"positive={self.positive!r} is not a class of y ({classes})")
            self.positive_ = pos
            self.kbs_ = [self._build(frame, labels, pos)]
            self.kb_ = self.kbs_[0]
        else:
            self.positive_ = None
            self.kbs_ = [self._build(frame, labels, c) for c in classes]
            self.kb_ = None
        self._class_str = classes
        return self

    def _build(self, frame: pd.DataFrame, labels: np.ndarray, positive: str) -> KB:
        y = (labels == positive).astype(int)
        if self.kb == "direct":
            kb = direct_kb(frame, y, positive=1, max_len=self.max_len)
        else:
            from .tree import tree_kb

            n_trees = self.n_trees if self.kb == "forest" else 1
            kb = tree_kb(
                frame, y, positive=1, nodes="all" if self.kb == "tree-all" else "leaves",
                n_trees=n_trees, bootstrap=self.bootstrap, max_features=self.max_features,
                max_depth=self.max_depth, random_state=self.random_state,
            )
        kb.positive = positive
        return kb

    # ------------------------------------------------------------------ predict

    def bounds(self, X: Any) -> pd.DataFrame:
        """ω(POS) lower/upper/mean per row (binary), or per class with a `class` column level."""
        check_is_fitted(self, "kbs_")
        frame = self._frame(X, reset=False)
        results = [query_many(kb, frame, semantics=self.semantics) for kb in self.kbs_]
        if len(results) == 1:
            r = results[0]
            return pd.DataFrame({"lower": r.lower, "upper": r.upper, "mean": r.mean,
                                 "method": r.method}, index=frame.index)
        parts = {c: pd.DataFrame({"lower": r.lower, "upper": r.upper, "mean": r.mean})
                 for c, r in zip(self._class_str, results)}
        return pd.concat(parts, axis=1)

    def _means(self, X: Any) -> list[BoundsArray]:
        check_is_fitted(self, "kbs_")
        frame = self._frame(X, reset=False)
        return [query_many(kb, frame, semantics=self.semantics) for kb in self.kbs_]

    def predict_proba(self, X: Any) -> np.ndarray:
        """Binary: [1 − mean, mean] of the ω(POS) bounds. Several classes: the one-vs-rest
        means, normalised to sum to 1 (uniform where every mean is 0)."""
        res = self._means(X)
        if len(res) == 1:
            m = res[0].mean
            pos_col = self._class_str.index(self.positive_)
            out = np.empty((len(m), 2))
            out[:, pos_col] = m
            out[:, 1 - pos_col] = 1.0 - m
            return out
        means = np.column_stack([r.mean for r in res])
        total = means.sum(axis=1, keepdims=True)
        uniform = np.full_like(means, 1.0 / means.shape[1])
        return np.where(total > 0, means / np.where(total > 0, total, 1.0), uniform)

    def predict(self, X: Any) -> np.ndarray:
        """Binary: positive iff the mean of the bounds > 0.5 (a tie at 0.5 is negative, as in
        the paper). Several classes: the largest mean (first class in order on ties)."""
        res = self._means(X)
        if len(res) == 1:
            pos_col = self._class_str.index(self.positive_)
            positive = res[0].mean > 0.5 + TIE_EPS
            return np.where(positive, self.classes_[pos_col], self.classes_[1 - pos_col])
        means = np.column_stack([r.mean for r in res])
        return self.classes_[np.argmax(means, axis=1)]

    def explain(self, x: Any, k: int = 2, **kwargs: Any):
        """The k features that decide `x` (Algorithm 6) on the binary KB."""
        check_is_fitted(self, "kbs_")
        if self.kb_ is None:
            raise DataError("explain needs a binary classifier (one KB); this one is one-vs-rest")
        from .explain import explain

        if not isinstance(x, (dict, pd.Series)):
            x = dict(zip(self.kb_.features, list(np.asarray(x, dtype=object).ravel())))
        return explain(self.kb_, x, k=k, semantics=self.semantics, **kwargs)
