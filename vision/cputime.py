"""Where a reading's CPU goes: this thread's CPU time per named stage, summed over readings.

The recogniser marks the end of each stage with :meth:`StageClock.lap` (one line each, no nesting): the time
since the previous mark is put on that stage's name. :meth:`StageClock.start` opens a reading. Thread time,
not wall time, so other jobs on a shared machine do not count (OpenCV and BLAS must run on this thread:
``cv2.setNumThreads(1)``, ``OPENBLAS_NUM_THREADS=1``, as on the Pi's one core the targets are set for).
"""
from __future__ import annotations

import time

STAGES = ("markers", "start", "fit", "cells", "sample", "occlusion", "tiles", "figures", "other")
"""The stages the recogniser marks, in reading order (see docs/history/vision-measured.md, "Where the time goes")."""


class StageClock:
    """CPU seconds per stage, summed since :meth:`reset`, and how many readings were opened."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = {}
        self.readings = 0
        self._mark: float | None = None

    def reset(self) -> None:
        self.totals = {}
        self.readings = 0
        self._mark = None

    def start(self) -> None:
        """A reading begins: the next :meth:`lap` counts from here."""
        self.readings += 1
        self._mark = time.thread_time()

    def lap(self, stage: str) -> None:
        """The stage ``stage`` ends now (a lap before any :meth:`start` only sets the mark)."""
        now = time.thread_time()
        if self._mark is not None:
            self.totals[stage] = self.totals.get(stage, 0.0) + now - self._mark
        self._mark = now

    def per_reading_ms(self) -> dict[str, float]:
        """Milliseconds per reading for each stage, in :data:`STAGES` order (others after)."""
        n = max(self.readings, 1)
        names = [s for s in STAGES if s in self.totals] + [s for s in self.totals if s not in STAGES]
        return {s: 1000.0 * self.totals[s] / n for s in names}

    def summary(self) -> str:
        """``markers 60 | start 300 | ...`` (ms per reading)."""
        return " | ".join(f"{s} {ms:.0f}" if ms >= 10 else f"{s} {ms:.1f}" for s, ms in self.per_reading_ms().items())
