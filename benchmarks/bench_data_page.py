"""Seconds of the Data page's steps on a 2,000-row, 20-column clinic export (AppTest, no
browser): the upload's run, a rerun with nothing changed, and "Use this data" (plx's default
fitted, then the page drawn again) — in this checkout and in another one, runs alternated so
that both see the same load; medians and the ratio. Run on demand, not by pytest:

    git worktree add /tmp/plx_main main   # or any checkout of the code before
    OMP_NUM_THREADS=1 python benchmarks/bench_data_page.py /tmp/plx_main [RUNS]

Each run is a fresh process (`--one TREE`), as a new dashboard session's page runs are.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
STEPS = ("upload", "rerun", "use this data")


def one(tree: Path) -> dict[str, float]:
    """The three steps' seconds in `tree` (this process imports its plx_app and tests)."""
    sys.path[:0] = [str(tree), str(tree / "tests")]
    os.chdir(tree)
    from app_util import classic_workspace
    from test_app import run
    from test_browser_newuser import clinic_export

    path = clinic_export(Path("/tmp") / f"plx_bench_clinic_{os.getpid()}.csv")
    at = run("plx_app/views/1_Data.py", classic_workspace(build=False).fork())
    at.radio(key="data_source").set_value("Upload a CSV").run()
    out = {}
    t = time.perf_counter()
    at.file_uploader(key="data_upload").set_value(("clinic.csv", path.read_bytes(), "text/csv")).run()
    out["upload"] = time.perf_counter() - t
    t = time.perf_counter()
    at.run()
    out["rerun"] = time.perf_counter() - t
    t = time.perf_counter()
    at.button(key="data_apply").click().run()
    out["use this data"] = time.perf_counter() - t
    assert not at.exception, [e.value for e in at.exception]
    path.unlink()
    return out


def main() -> None:
    if sys.argv[1] == "--one":
        print(json.dumps(one(Path(sys.argv[2]))))
        return
    other, runs = Path(sys.argv[1]).resolve(), int(sys.argv[2]) if len(sys.argv) > 2 else 3
    times: dict[str, list[dict[str, float]]] = {"before": [], "now": []}
    for _ in range(runs):
        for name, tree in (("before", other), ("now", HERE)):
            env = {**os.environ, "PYTHONPATH": str(tree)}
            got = subprocess.run([sys.executable, __file__, "--one", str(tree)], env=env,
                                 capture_output=True, text=True, check=True)
            times[name].append(json.loads(got.stdout.strip().splitlines()[-1]))
    print(f"load {os.getloadavg()[0]:.1f}; medians of {runs} runs each, alternated")
    for step in STEPS:
        b = statistics.median(t[step] for t in times["before"])
        n = statistics.median(t[step] for t in times["now"])
        print(f"{step}: before {b:.2f} s, now {n:.2f} s, ratio {n / b:.2f}")


if __name__ == "__main__":
    main()
