"""Old → new F1 of one method, split by split, from two `compare` logs of the same splits.

    python benchmarks/compare_runs_diff.py OLD_DIR NEW_DIR [--method plx] [--base BASE_DIR]

Each DIR holds a `compare_runs.csv` (`python -m plx_core.experiments compare … --out DIR`).
Prints per set: old and new F1 mean ± sd over the splits both logs have, splits better /
worse (by more than 1e-9), and, with `--base` (a log with the other methods on the same
splits), the best interpretable baseline's mean and new − it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

INTERPRETABLE = ("CART", "EBM", "FIGS", "RuleFit")


def table(old: Path, new: Path, method: str = "plx", base: Path | None = None) -> pd.DataFrame:
    """One row per set: old, new (mean, sd), better, worse, and the interpretable target."""
    read = [pd.read_csv(d / "compare_runs.csv") for d in (old, new)]
    o, n = (r[r.method == method].set_index(["dataset", "run"]).f1 for r in read)
    both = o.index.intersection(n.index)
    d = pd.DataFrame({"old": o[both], "new": n[both]})
    d["diff"] = d.new - d.old
    g = d.groupby(level=0)
    out = pd.DataFrame({"old": g.old.mean(), "old_sd": g.old.std(ddof=0), "new": g.new.mean(),
                        "new_sd": g.new.std(ddof=0), "better": g["diff"].apply(lambda x: int((x > 1e-9).sum())),
                        "worse": g["diff"].apply(lambda x: int((x < -1e-9).sum())), "runs": g.size()})
    if base is not None:
        b = pd.read_csv(base / "compare_runs.csv")
        b = b[b.method.isin(INTERPRETABLE)].set_index(["dataset", "run"])
        b = b[b.index.isin(both)].groupby(["dataset", "method"]).f1.mean().unstack()
        out["best_interp"] = b.max(axis=1).reindex(out.index)
        out["by"] = b.idxmax(axis=1).reindex(out.index)
        out["new_minus_interp"] = out.new - out.best_interp
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--method", default="plx")
    ap.add_argument("--base", type=Path)
    a = ap.parse_args()
    t = table(a.old, a.new, a.method, a.base)
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(t.round(4).to_string())


if __name__ == "__main__":
    main()
