"""CPU and wall seconds of the Evaluate page's first visit, of its button that fits the six
other models, and of a visit after it (AppTest, one process), on one of dash23's walk tables.

Run from a checkout: `python benchmarks/adhoc/dash23/eval_time.py six|rare20k|wide60|iddate`.
"""

from __future__ import annotations

import runpy
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from streamlit.testing.v1 import AppTest

from plx_app.service import new_workspace, read_upload

HERE = Path(__file__).resolve().parent
APP = HERE.parents[2] / "app.py"


def timed(f):
    c, w = time.process_time(), time.perf_counter()
    f()
    return time.process_time() - c, time.perf_counter() - w


def main(name: str) -> None:
    walk = runpy.run_path(str(HERE / "walk.py"))
    make, positive, _ = walk["W21"]["TABLES"][name]
    path = make(Path(tempfile.mkdtemp()) / f"{name}.csv")
    raw = read_upload(path.read_bytes(), path.name)
    ws = new_workspace(raw, replace(raw.defaults, positive=positive))
    at = AppTest.from_file(str(APP), default_timeout=900)
    at.session_state["ws"] = ws
    at.run()
    c, w = timed(lambda: at.switch_page("plx_app/views/6_Evaluate.py").run())
    print(f"{name}: Evaluate's first visit {c:.1f} s CPU, {w:.1f} s wall")
    if not ws.baselines_fitted():
        c, w = timed(lambda: at.button(key="ev_baselines").click().run())
        print(f"{name}: the six other models (the button) {c:.1f} s CPU, {w:.1f} s wall")
    c, w = timed(lambda: at.run())
    print(f"{name}: Evaluate again {c:.1f} s CPU, {w:.1f} s wall")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "six")
