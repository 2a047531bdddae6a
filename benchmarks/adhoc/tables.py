"""What the ad-hoc families of tables share: each family's table written as the CSV a user
would hold (`unseen21/22/23/families.py` each wrote this loop), and unseen23's runner loaded for
another round's families (`unseen22/run.py` and `reading24/run.py` each wrote the loader)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType


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


def unseen23_runner() -> ModuleType:
    """unseen23's `run.py` as a module, for a round whose own `families` module is already
    imported: unseen23's runner imports its families by that same name, so the caller's is
    taken out of `sys.modules` first (the caller keeps its own FAMILIES)."""
    folder = Path(__file__).parent / "unseen23"
    spec = importlib.util.spec_from_file_location("unseen23_run", folder / "run.py")
    runner = importlib.util.module_from_spec(spec)
    sys.modules.pop("families", None)
    sys.path.insert(0, str(folder))
    try:
        spec.loader.exec_module(runner)
    finally:
        sys.path.pop(0)
    return runner
