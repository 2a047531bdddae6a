"""Peak memory and CPU of `plx fit` and `plx predict` on a generated CSV, as a user runs them,
for one or more checkouts of `plx_core` in turn (mem26): run on demand, not by pytest.

    OMP_NUM_THREADS=1 nice -n 10 python benchmarks/bench_cli_memory.py TABLE ROWS OUTDIR CODE [CODE ...]

TABLE: "long" (`bench_fit_large.long_table`: 6 numbers, 6 categories of 3–40 levels written as
codes, 3 % missing) or "wide" (100 columns: 60 numbers written with 1–4 decimals, 40
categories of 2–12 levels, 5 % empty cells; a label from 6 of them). The CSV is written once
to OUTDIR; then for each CODE (a directory holding a `plx_core`, e.g. a `git archive` of
main) `plx fit CSV --label label` and `plx predict MODEL CSV` run in fresh child processes
(PYTHONPATH=CODE): user + system CPU seconds and peak RSS of each child (`os.wait4`), the
model files and the answer files compared byte for byte with the first CODE's.
"""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_fit_large import long_table  # noqa: E402


def wide_table(n: int, seed: int = 26) -> pd.DataFrame:
    """100 columns and a label (module docstring), seeded."""
    rng = np.random.default_rng(seed)
    cols = {}
    for i in range(60):
        cols[f"x{i}"] = rng.normal(i, 1 + i % 5, n).round(1 + i % 4)
    for i in range(40):
        k = 2 + i % 11
        cols[f"c{i}"] = rng.choice([f"c{i}v{j}" for j in range(k)], n)
    X = pd.DataFrame(cols)
    s = (X.x0 + 0.5 * (X.x7 - 7) / 3 - 0.2 * X.x12 + (X.c0 == "c0v1") + 0.8 * (X.c5 == "c5v2")
         + 0.5 * (X.c9 == "c9v0") + rng.normal(size=n))
    X["label"] = np.where(s > np.quantile(s, 0.85), "yes", "no")
    for c in list(X.columns[:-1]):
        X.loc[rng.random(n) < 0.05, c] = np.nan
    return X


def child(code: str, args: list[str], log: str) -> tuple[float, float, int]:
    """(CPU s, peak RSS MB, exit status) of `python -m plx_core.cli ARGS` with `code` first."""
    env = dict(os.environ, PYTHONPATH=code)
    with open(log, "w") as fh:
        p = subprocess.Popen([sys.executable, "-m", "plx_core.cli", *args], env=env,
                             stdout=fh, stderr=subprocess.STDOUT, cwd="/tmp")
        _, status, ru = os.wait4(p.pid, 0)
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def main() -> None:
    table, rows, out, codes = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    os.makedirs(out, exist_ok=True)
    csv = os.path.join(out, f"{table}{rows}.csv")
    if not os.path.exists(csv):
        if table == "long":
            X, y = long_table(rows)
            X = X.assign(label=np.where(y == 1, "yes", "no"))
        else:
            X = wide_table(rows)
        X.to_csv(csv, index=False)
    print(f"{table} {rows:,} rows, {os.path.getsize(csv) / 1e6:.1f} MB")
    first = None
    for i, code in enumerate(codes):
        model = os.path.join(out, f"{table}{rows}_{i}.json")
        answers = os.path.join(out, f"{table}{rows}_{i}_pred.csv")
        fit = child(code, ["fit", csv, "--label", "label", "--out", model, "--no-progress"],
                    model + ".log")
        pred = child(code, ["predict", model, csv, "--out", answers], answers + ".log")
        same = "" if first is None else (
            f"; model {'identical' if filecmp.cmp(first[0], model, shallow=False) else 'DIFFERS'}"
            f", answers {'identical' if filecmp.cmp(first[1], answers, shallow=False) else 'DIFFER'}")
        print(f"{code}: fit {fit[0]:.1f} s CPU, peak {fit[1]:.0f} MB (exit {fit[2]}); predict "
              f"{pred[0]:.1f} s CPU, peak {pred[1]:.0f} MB (exit {pred[2]}){same}", flush=True)
        first = first or (model, answers)


if __name__ == "__main__":
    main()
