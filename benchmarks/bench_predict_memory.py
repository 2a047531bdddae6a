"""Peak memory of `plx predict` on a long file, as a user runs it: run on demand, not by pytest.

    OMP_NUM_THREADS=1 python benchmarks/bench_predict_memory.py [ROWS ...] [--workers N]
        [--code DIR]   (DIR: another checkout's plx_core, e.g. main, to compare)

A seeded table (8 columns: an ID, age, a town with accents, yes/no, a measure, a note with
empty cells, two lab values) is written for each row count; a model is fitted with `plx fit`
on its first 2,000 rows; then `plx predict` runs in a fresh subprocess per count — in one
process, and (`--workers N`) partition by partition on a local Dask cluster — and its peak
resident memory (ru_maxrss of the child) is printed beside the file's size and the same
figure for a subprocess that only imports plx (the floor every run pays), and its CPU
seconds (user + system: wall time under a shared machine's load is noise).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent


def table(n: int, seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    age = rng.integers(20, 80, n)
    town = rng.choice(["Orléans", "Besançon", "Nîmes", "Lyon"], n)
    y = np.where((age > 50) & (town != "Lyon") ^ (rng.random(n) < 0.1), "yes", "no")
    return pd.DataFrame({"id": np.arange(n), "age": age, "town": town,
                         "smoker": rng.choice(["oui", "non"], n),
                         "bmi": rng.normal(25, 4, n).round(1),
                         "note": rng.choice(["ok", "late", "none", ""], n),
                         "lab1": rng.normal(size=n).round(3), "lab2": rng.normal(size=n).round(3),
                         "outcome": y})


def peak_of(argv: list[str], code: Path = ROOT) -> tuple[float, float, float]:
    """(peak resident MB of the largest child, wall seconds, CPU seconds) of one subprocess."""
    env = {**os.environ, "PYTHONPATH": str(code), "OMP_NUM_THREADS": "1",
           "OPENBLAS_NUM_THREADS": "1"}
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, *argv], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, cwd=tempfile.gettempdir())
    # (not from the repository: `python -m` puts the working folder first on sys.path)
    _, _, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    err = proc.stderr.read() if proc.stderr else ""
    if "error:" in err or "Traceback" in err:
        print(err.strip().splitlines()[-1])
        return float("nan"), wall, usage.ru_utime + usage.ru_stime
    return usage.ru_maxrss / 1024, wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("rows", nargs="*", type=int, default=[100_000, 300_000])
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--code", type=Path, default=ROOT)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        fit = d / "fit.csv"
        table(2_000, seed=1).to_csv(fit, index=False)
        model = d / "m.json"
        subprocess.run([sys.executable, "-m", "plx_core.cli", "fit", str(fit), "--label",
                        "outcome", "--positive", "yes", "--out", str(model), "--no-progress"],
                       check=True, capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        floor, _, _ = peak_of(["-c", "import plx_core.cli, plx_core.modelfile, plx_core.estimator"],
                              a.code)
        print(f"import only: peak {floor:.0f} MB")
        for n in a.rows:
            data = d / f"new_{n}.csv"
            table(n).drop(columns="outcome").to_csv(data, index=False)
            mb = data.stat().st_size / 2**20
            runs = [("one process", [])]
            if a.workers:
                runs.append((f"--workers {a.workers}", ["--workers", str(a.workers)]))
            for name, extra in runs:
                peak, wall, cpu = peak_of(["-m", "plx_core.cli", "predict", str(model), str(data),
                                           "--out", str(d / "p.csv"), *extra], a.code)
                print(f"{n:,} rows ({mb:.1f} MB file), {name}: peak {peak:.0f} MB "
                      f"({peak - floor:.0f} MB above the import), {wall:.1f} s wall, "
                      f"{cpu:.1f} s CPU", flush=True)


if __name__ == "__main__":
    main()
