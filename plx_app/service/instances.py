"""The instance a user queries: one value (or unknown) per feature, and where it came from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from plx_core.data import plain_label  # noqa: F401 (the one home; plx_app.service says it)
from plx_core.encoding import is_missing

UNKNOWN = "(unknown)"


@dataclass(frozen=True)
class Instance:
    """A query: one value (or None = unknown) per feature, where it came from, and the true
    label when the values are exactly those of a data row."""

    values: tuple[tuple[str, str | None], ...]
    origin: str = "edited"  # "test" | "train" | "edited"
    row: Any = None
    label: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        return dict(self.values)

    def known(self) -> dict[str, str]:
        return {f: v for f, v in self.values if v is not None}

    def title(self) -> str:
        if self.origin in ("test", "train") and self.row is not None:
            return f"{self.origin} row {self.row}"
        return "edited instance"


def instance_from_row(X: pd.DataFrame, y: pd.Series | None, row: Any, origin: str) -> Instance:
    r = X.loc[row]
    if isinstance(r, pd.DataFrame):  # replicas of a row share its index label
        r = r.iloc[0]
    vals = tuple((str(f), None if is_missing(v) else str(v)) for f, v in r.items())
    label = None
    if y is not None:
        lab = y.loc[row]
        label = str(lab.iloc[0] if isinstance(lab, pd.Series) else lab)
    return Instance(vals, origin, row, label)


def edit_instance(inst: Instance, feature: str, value: str | None, source: Instance | None = None) -> Instance:
    """The instance with one value changed; it keeps its origin and true label only while its
    values still equal those of `source` (the row it came from)."""
    vals = tuple((f, value if f == feature else v) for f, v in inst.values)
    if source is not None and vals == source.values:
        return source
    return Instance(vals, "edited", inst.row if inst.origin != "edited" else inst.row, None)


def unique_rows(X: pd.DataFrame) -> pd.DataFrame:
    """Rows with distinct index labels (training replicas dropped)."""
    return X[~X.index.duplicated(keep="first")]
