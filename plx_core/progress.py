"""Progress of a long piece of work (a fit), told as it goes: one callable
`progress(fraction, text)` — the fraction of the work done in [0, 1] and what is being done —,
the shape the dashboard's status already takes, so `plx fit`, `PLXClassifier.fit` and the
dashboard tell the same phases."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

Progress = Callable[[float, str], None]


def silent(fraction: float, text: str) -> None:
    """No progress told."""


def within(progress: Progress | None, start: float, end: float, prefix: str = "") -> Progress:
    """A part of the work told as [start, end] of the whole (`prefix` before its text)."""
    if progress is None:
        return silent
    return lambda f, t: progress(start + (end - start) * min(max(f, 0.0), 1.0), prefix + t)


def forward(progress: Progress | None) -> Progress | None:
    """`progress` never told a fraction below one it was told (a fit's later stage planned
    from an earlier point, a race after a race, takes no bar back); None stays None."""
    if progress is None or getattr(progress, "forward", False):
        return progress
    top = [0.0]

    def told(fraction: float, text: str) -> None:
        top[0] = max(top[0], min(max(float(fraction), 0.0), 1.0))
        progress(top[0], text)

    told.forward = True  # type: ignore[attr-defined]
    return told


class StderrProgress:
    """Progress as lines on a stream (stderr: stdout stays the command's output), each phase
    once: `plx: [ 35%  0:42] searching candidates 3 of 10 …` — a line per step, not a redrawn
    bar, so a log or a pipe keeps every line."""

    def __init__(self, stream: TextIO | None = None, prog: str = "plx",
                 clock: Callable[[], float] = time.monotonic):
        self.stream, self.prog, self.clock = stream, prog, clock
        self.start, self.last = clock(), None

    def __call__(self, fraction: float, text: str) -> None:
        if text == self.last:
            return
        self.last = text
        secs = int(self.clock() - self.start)
        print(f"{self.prog}: [{round(100 * min(max(fraction, 0.0), 1.0)):3d}% "
              f"{secs // 60:2d}:{secs % 60:02d}] {text}", file=self.stream or sys.stderr,
              flush=True)


__all__ = ["Progress", "StderrProgress", "forward", "silent", "within"]
