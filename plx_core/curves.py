"""ROC and precision–recall curves of the mean ω(POS), and what one decision threshold gives.

The decision rule is the estimator's: positive iff mean ω(POS) > threshold (default 0.5,
strictly greater, so a tie at the threshold is negative). Every point of a curve is that rule
at one threshold, so the point a user picks on a chart and the confusion matrix beside it
always agree.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .checks import checked_threshold
from .errors import DataError


@dataclass(frozen=True)
class ThresholdResult:
    """The confusion matrix and its rates at one threshold (positive iff score > threshold)."""

    threshold: float
    tp: int
    fp: int
    tn: int
    fn: int

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.tn + self.fn

    @property
    def sensitivity(self) -> float:
        """True-positive rate (recall): positives found / all positives."""
        return _ratio(self.tp, self.tp + self.fn)

    @property
    def specificity(self) -> float:
        """True-negative rate: negatives kept negative / all negatives."""
        return _ratio(self.tn, self.tn + self.fp)

    @property
    def precision(self) -> float:
        """Positive predictive value: right among those called positive."""
        return _ratio(self.tp, self.tp + self.fp)

    @property
    def accuracy(self) -> float:
        return _ratio(self.tp + self.tn, self.n)

    @property
    def f1(self) -> float:
        return _ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn)

    def matrix(self) -> np.ndarray:
        """[[tn, fp], [fn, tp]]: rows true NOT POS / POS, columns predicted NOT POS / POS."""
        return np.array([[self.tn, self.fp], [self.fn, self.tp]], dtype=int)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.update(sensitivity=self.sensitivity, specificity=self.specificity,
                 precision=self.precision, accuracy=self.accuracy, f1=self.f1)
        return d


@dataclass(frozen=True)
class Curves:
    """ROC and precision–recall points over every threshold that changes a decision.

    `thresholds[i]` gives `fpr[i]`, `tpr[i]`, `precision[i]`; thresholds decrease, from one at
    or above the largest score (nothing positive) to one below the smallest (all positive).
    `auc` is the ROC area (trapezoids), `average_precision` the step-wise PR area.
    """

    thresholds: np.ndarray
    fpr: np.ndarray
    tpr: np.ndarray
    precision: np.ndarray
    auc: float
    average_precision: float
    n_pos: int
    n_neg: int


def _ratio(a: float, b: float) -> float:
    return float(a) / float(b) if b else float("nan")


def _check(y_true: Any, score: Any) -> tuple[np.ndarray, np.ndarray]:
    y = np.asarray(y_true, dtype=bool).ravel()
    s = np.asarray(score, dtype=float).ravel()
    if len(y) != len(s):
        raise DataError(f"{len(y)} labels but {len(s)} scores")
    if not len(y):
        raise DataError("no rows to score")
    if np.isnan(s).any():
        raise DataError(f"{int(np.isnan(s).sum())} scores are missing (NaN)")
    return y, s


def at_threshold(y_true: Any, score: Any, threshold: float = 0.5) -> ThresholdResult:
    """The confusion matrix when rows with score > `threshold` are called positive."""
    y, s = _check(y_true, score)
    t = checked_threshold(threshold)
    pred = s > t
    return ThresholdResult(t, int((pred & y).sum()), int((pred & ~y).sum()),
                           int((~pred & ~y).sum()), int((~pred & y).sum()))


def curves(y_true: Any, score: Any) -> Curves:
    """ROC and PR points of `score` (mean ω(POS)) against `y_true`, one per distinct score
    (plus the all-negative end), computed with one sort (no loop over thresholds)."""
    y, s = _check(y_true, score)
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    distinct = np.unique(s)[::-1]  # decreasing
    # the largest score itself (nothing is > it), then midpoints between consecutive scores,
    # then just below the smallest (everything is positive)
    thresholds = np.concatenate([distinct[:1], (distinct[:-1] + distinct[1:]) / 2,
                                 distinct[-1:] - 1e-6])
    order = np.sort(s)
    pos_sorted = np.sort(s[y])
    # how many scores exceed each threshold
    called = len(s) - np.searchsorted(order, thresholds, side="right")
    tp = n_pos - np.searchsorted(pos_sorted, thresholds, side="right")
    fp = called - tp
    tpr = tp / n_pos if n_pos else np.full(len(tp), np.nan)
    fpr = fp / n_neg if n_neg else np.full(len(fp), np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        prec = np.where(called > 0, tp / np.maximum(called, 1), 1.0)
    auc = float(np.trapezoid(tpr, fpr)) if n_pos and n_neg else float("nan")
    recall_steps = np.diff(np.concatenate([[0.0], tpr])) if n_pos else np.zeros(0)
    ap = float(np.sum(recall_steps * prec)) if n_pos else float("nan")
    return Curves(thresholds, fpr, tpr, prec, auc, ap, n_pos, n_neg)


__all__ = ["Curves", "ThresholdResult", "at_threshold", "curves"]
