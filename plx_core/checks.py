"""Argument checks the public functions share: one rule and one wording per kind of argument,
so that `PLXClassifier`, `explain`, the curves and a model file refuse the same values in the
same words."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .errors import DataError


def finite_number(value: Any) -> bool:
    """True for a number (not a bool) a float holds finitely: what a file's numeric field must
    be. An int of 400 digits is not (fuzz17: math.isfinite raised OverflowError on it)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def checked_threshold(value: Any, none_ok: bool = False) -> float | None:
    """`value` as a decision threshold (a number in [0, 1): positive iff the mean of the
    bounds is above it), or one DataError naming it; True, "0.3" and NaN are refused, not
    read as numbers. `none_ok`: None stands for "the model's own" and is returned as is."""
    if value is None and none_ok:
        return None
    if not finite_number(value) or not 0.0 <= float(value) < 1.0:
        raise DataError(f"threshold must be a number in [0, 1){' or None' if none_ok else ''}, "
                        f"got {value!r:.60}")
    return float(value)


def checked_int(name: str, value: Any, least: int | None = None, none_ok: bool = False
                ) -> int | None:
    """`value` as an int (≥ `least` if given), or one DataError naming `name`: 1.5, "2" and
    True are refused, not read as numbers. `none_ok`: None (no limit) is returned as is."""
    if value is None and none_ok:
        return None
    want = ("a whole number" + ("" if least is None else f" ≥ {least}")
            + (" or None" if none_ok else ""))
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise DataError(f"{name} must be {want}, got {value!r:.60} ({type(value).__name__})")
    if least is not None and value < least:
        raise DataError(f"{name} must be {want}, got {value!r}")
    return int(value)


SEED_LIMIT = 2**32  # numpy's seeds: 0 to 2^32 − 1


def checked_seed(value: Any) -> Any:
    """`value` as a random_state: None, a whole number in [0, 2^32), or a numpy RandomState /
    Generator (as scikit-learn takes them), or one DataError naming it. trust23: -1 or 2^70
    reached numpy deep in the fit ("Seed must be between 0 and 2**32 - 1": exit 1 in plx fit)."""
    if value is None or isinstance(value, (np.random.RandomState, np.random.Generator)):
        return value
    if (isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer))
            or not 0 <= value < SEED_LIMIT):
        raise DataError(f"random_state must be a whole number from 0 to {SEED_LIMIT - 1:,} or "
                        f"None, got {value!r:.60}")
    return value


__all__ = ["MOST_COPIES", "checked_counts", "checked_int", "checked_seed", "checked_threshold",
           "finite_number"]


MOST_COPIES = 2**31 - 1
"""The largest `sample_weight` a row may have (`checked_counts`): copies of one row a fit holds."""


def checked_counts(name: str, value: Any, n_rows: int) -> np.ndarray:
    """`value` (one weight a row, as scikit-learn's `sample_weight`) as whole counts ≥ 0 —
    how many times each row counts, which is what plx's counted probabilities can honour —,
    or one DataError naming the first row that is not one: 0.5, −1, NaN, a text."""
    src = value.to_numpy() if hasattr(value, "to_numpy") else value
    arr = np.asarray(src, dtype=object)
    if arr.ndim == 0 or arr.ndim > 1:
        raise DataError(f"{name} must give one weight a row (one dimension of {n_rows}), got "
                        f"the shape {arr.shape}")
    if len(arr) != n_rows:
        raise DataError(f"{name} has {len(arr)} entries for {n_rows} rows")
    if isinstance(src, np.ndarray) and src.dtype.kind in "iuf":  # numbers: checked at once
        a = src.astype(np.float64)  # (a fit of 1,000,000 rows: no loop in Python a row)
        whole = np.isfinite(a) & (a >= 0) & (a == np.floor(a))
    else:
        whole = np.array([finite_number(v) and float(v) >= 0 and float(v) == int(v)
                          for v in arr], dtype=bool)
        a = np.array([float(v) for v in arr], dtype=np.float64) if whole.all() else None
    if not whole.all():
        i = int(np.flatnonzero(~whole)[0])
        raise DataError(f"{name}: row {i} has the weight {arr[i]!r:.40}; plx counts rows, so a "
                        "weight is how many times its row counts, a whole number ≥ 0 (to weigh "
                        "the classes, class_weight=; for fractional weights, scale and round them)")
    if (a > MOST_COPIES).any():  # 1e300 raised OverflowError; 2**62 asked np.repeat for exabytes
        i = int(np.flatnonzero(a > MOST_COPIES)[0])
        raise DataError(f"{name}: row {i} has the weight {arr[i]!r:.40}, more copies of one row "
                        f"than a fit can hold (at most {MOST_COPIES:,}); scale the weights down")
    counts = a.astype(np.int64)
    if not counts.any():
        raise DataError(f"{name}: every weight is zero, so no row is left to learn from")
    return counts
