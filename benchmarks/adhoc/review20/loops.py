"""Session 20 review: two per-row Python loops replaced by one pass over distinct values.
fit_dask(groups=)'s per-partition case hashes (`distributed._case_hashes`: value_str on every
cell vs `discretize.row_keys`) and the Query page's recorded labels (`Workspace.recorded_labels`:
a call per row vs one per class). Medians of 5, old and new in this process, same answers.
Run: PYTHONPATH=. python benchmarks/adhoc/review20/loops.py"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from plx_app.service.workspace import _label_text
from plx_core.discretize import row_keys
from plx_core.encoding import is_missing, value_str


def median_s(f) -> float:
    """Median seconds of 5 calls of `f`."""
    out = []
    for _ in range(5):
        t = time.perf_counter()
        f()
        out.append(time.perf_counter() - t)
    return float(np.median(out))


def main() -> None:
    """Print old / new medians and whether the answers agree."""
    r = np.random.default_rng(0)
    n = 200_000
    part = pd.DataFrame({f"f{i}": r.choice(["a", "b", "c", "<5", "[1, 2)"], n) for i in range(8)})
    part["label"] = r.choice(["yes", "no"], n)
    cases, cols = r.integers(0, 50_000, n).astype(str), list(part.columns)

    def per_cell() -> pd.DataFrame:
        h = pd.util.hash_pandas_object(part[cols].astype(object).map(value_str), index=False)
        return pd.DataFrame({"case": cases, "h": h.to_numpy()}).groupby("case")["h"].agg(["min", "max"])

    def per_value() -> pd.DataFrame:
        h = row_keys(np.empty((n, 0)), np.zeros(n, np.int64), [part[c] for c in cols])
        return pd.DataFrame({"case": cases, "h": h}).groupby("case")["h"].agg(["min", "max"])

    a, b = per_cell(), per_value()
    same = bool(((a["min"] != a["max"]) == (b["min"] != b["max"])).all())
    old, new = median_s(per_cell), median_s(per_value)
    print(f"case hashes, {n:,} rows x {len(cols)} columns: {old:.3f} s -> {new:.3f} s "
          f"({old / new:.1f}x), same cases differ: {same}")

    m = 30_000
    v = pd.Series(r.choice(np.array([1.0, 2.0, np.nan, "copd", "", None], dtype=object), m))
    y = pd.Series(r.choice(["a", "b"], m))

    def per_row() -> list:
        return [b if is_missing(a) else _label_text(a) for a, b in zip(v, y)]

    def per_class() -> np.ndarray:
        codes, uniques = pd.factorize(v.to_numpy(dtype=object))
        text = np.array([None if is_missing(u) else _label_text(u) for u in uniques] + [None],
                        dtype=object)[codes]
        return np.where(pd.isna(text), y.to_numpy(dtype=object), text)

    same = list(per_row()) == list(per_class())
    old, new = median_s(per_row), median_s(per_class)
    print(f"recorded labels, {m:,} rows: {old * 1000:.1f} ms -> {new * 1000:.1f} ms "
          f"({old / new:.1f}x), same labels: {same}")


if __name__ == "__main__":
    main()
