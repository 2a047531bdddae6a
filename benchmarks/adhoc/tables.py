"""What the ad-hoc families of tables share: each family's table written as the CSV a user
would hold (`unseen21/22/23/families.py` each wrote this loop)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path


def write_csvs(folder: Path, families: Mapping[str, Callable], texts: Mapping[str, str]) -> None:
    """Each family's table (seed 0) as `folder/NAME.csv` with its label as `outcome`; a family
    that kept the CSV text it wrote (`texts`: as Excel wrote it, a unit in the cells) as that
    text."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, fam in families.items():
        X, y, _ = fam()
        if name in texts:
            (folder / f"{name}.csv").write_text(texts[name])
        else:
            X.assign(outcome=y).to_csv(folder / f"{name}.csv", index=False)
