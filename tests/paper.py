"""The paper's worked examples as small fixtures shared by the tests."""

import pandas as pd

POSITIVE = ["0000", "1111", "1010", "1100"]
NEGATIVE = ["0010", "0100", "1110", "1000"]
FEATURES = ["a1", "a2", "a3", "a4"]


def example2() -> tuple[pd.DataFrame, list[int]]:
    """Example 2: four positive and four negative 4-bit strings."""
    rows = [list(s) for s in POSITIVE + NEGATIVE]
    return pd.DataFrame(rows, columns=FEATURES), [1] * 4 + [0] * 4


def as_query(bits: str) -> dict[str, str | None]:
    """'0101' → {'a1': '0', …}; '-' leaves a feature unknown."""
    return {f: (None if b == "-" else b) for f, b in zip(FEATURES, bits)}
