"""Timing helpers shared by the benchmark scripts (run as `python3 benchmarks/<script>.py`)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def timed(fn: Callable[[], object]) -> float:
    """Seconds one call of `fn` takes."""
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def interleaved(fns: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Median seconds per function, running them in turn `repeat` times (so load on the
    machine hits ours and the baseline alike)."""
    return {k: t.wall for k, t in interleaved_times(fns, repeat).items()}


@dataclass(frozen=True)
class Times:
    """Median wall-clock and CPU seconds (this process: `time.process_time`) of one function;
    on a shared machine the CPU seconds move less with the other users' load."""

    wall: float
    cpu: float


def interleaved_times(fns: dict[str, Callable[[], object]], repeat: int) -> dict[str, Times]:
    """`interleaved`, with each function's median CPU seconds beside its wall-clock ones."""
    wall: dict[str, list[float]] = {k: [] for k in fns}
    cpu: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(repeat):
        for k, fn in fns.items():
            c = time.process_time()
            wall[k].append(timed(fn))
            cpu[k].append(time.process_time() - c)
    return {k: Times(statistics.median(wall[k]), statistics.median(cpu[k])) for k in fns}


def fmt(seconds: float, ms_digits: int = 2) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.{ms_digits}f} ms"
    return f"{seconds:.2f} s"


def publish(title: str, section: str, write: bool, started: float | None = None) -> None:
    """Print a RESULTS.md section (and, from `started`, how long the benchmark took); with
    `write`, put it in RESULTS.md under `title`."""
    print(section)
    if started is not None:
        print(f"(benchmark took {time.perf_counter() - started:.0f} s)")
    if write:
        write_section(title, section)


def write_section(title: str, section: str, path: Path = RESULTS) -> None:
    """Replace the section headed `title` of RESULTS.md with `section` (or append it), leaving
    every other section as it is."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n"
    if title in text:
        start = text.index(title)
        nxt = text.find("\n## ", start + len(title))
        text = text[:start] + section.rstrip("\n") + "\n" + ("" if nxt < 0 else "\n" + text[nxt + 1:])
    else:
        text = text.rstrip("\n") + "\n\n" + section
    path.write_text(text, encoding="utf-8")
