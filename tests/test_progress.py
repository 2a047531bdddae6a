"""The fit's progress as a user's bar shows it: it moves forward with the work, each race and
screen after the search named, never taken back by a later stage."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from plx_core.estimator import PLXClassifier
from plx_core.progress import forward, within


def test_forward_never_takes_the_bar_back():
    told: list[tuple[float, str]] = []
    bar = forward(lambda f, t: told.append((f, t)))
    bar(0.4, "a")
    within(bar, 0.3, 0.6, "late: ")(0.0, "b")  # a stage planned from before where the bar is
    bar(0.9, "c")
    assert told == [(0.4, "a"), (0.4, "late: b"), (0.9, "c")]
    assert forward(bar) is bar and forward(None) is None


def _fit_told(X: pd.DataFrame, y: np.ndarray) -> list[tuple[float, str]]:
    told: list[tuple[float, str]] = []
    PLXClassifier(random_state=0).fit(X, y, progress=lambda f, t: told.append((f, t)))
    return told


def test_a_fit_with_a_grid_race_and_a_whole_number_race_moves_forward():
    """Two numeric columns (the equal-frequency grid races) and a 0–5 count (the whole-number
    race): each race had the bar's 0.65–1.0 and the second took it back to 0.65."""
    r = np.random.default_rng(3)
    n = 600
    X = pd.DataFrame({"a": r.normal(0, 1, n), "b": r.normal(0, 1, n),
                      "count": r.integers(0, 6, n), "sex": r.choice(["F", "M"], n)})
    y = np.where(X["a"] + 0.4 * X["count"] + r.normal(0, 0.7, n) > 1.2, "yes", "no")
    told = _fit_told(X, y)
    fractions = [f for f, _ in told]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    texts = [t for _, t in told]
    grid = [i for i, t in enumerate(texts) if t.startswith("grid: ")]
    whole = texts.index("checking the columns of a few whole numbers")
    assert grid and grid[-1] < whole and told[grid[-1]][0] <= 0.85 <= told[whole][0]


@pytest.mark.parametrize("k", [3, 5])
def test_a_fit_of_several_classes_names_its_screen_before_the_race(k):
    """Three or five classes from two numbers: the screen of the numbers' readings is said at
    0.65, not passed in silence before the bar jumps."""
    r = np.random.default_rng(4)
    n = 700
    X = pd.DataFrame({"a": r.normal(0, 1, n), "b": r.normal(0, 1, n)})
    s = X["a"] + 0.5 * X["b"] + r.normal(0, 0.3, n)
    y = np.digitize(s, np.quantile(s, np.linspace(0, 1, k + 1)[1:-1])).astype(str)
    told = _fit_told(X, y)
    fractions = [f for f, _ in told]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    screen = [f for f, t in told if t == "comparing two more readings of the numbers on every class"]
    assert screen == [0.65]
