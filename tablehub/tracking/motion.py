"""The motion gate: is anything moving over the table right now?

Frames are reduced to a small grey picture by striding (every ``step``-th pixel of
the green channel, then a 2x2 box average): about 240x135 for a 1920x1080 frame,
well under a millisecond with NumPy alone. Two consecutive small frames that differ
by more than ``threshold`` grey levels on more than ``fraction`` of their pixels
mean hands (or a bumped camera) are in view. :class:`Stillness` counts quiet frames
and fires once when the table has been still for ``quiet_frames`` frames.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def small_grey(frame: np.ndarray, target_width: int = 240) -> np.ndarray:
    """A small float32 grey picture of a BGR (or grey) frame, for motion and change checks."""
    step = max(1, frame.shape[1] // (2 * target_width))
    g = frame[::step, ::step, 1] if frame.ndim == 3 else frame[::step, ::step]
    h, w = (g.shape[0] // 2) * 2, (g.shape[1] // 2) * 2
    g = g[:h, :w].astype(np.float32)
    return (g[0::2, 0::2] + g[1::2, 0::2] + g[0::2, 1::2] + g[1::2, 1::2]) * 0.25


@dataclass
class MotionGate:
    threshold: float = 18.0
    fraction: float = 0.002
    _last: np.ndarray | None = None
    last_score: float = 0.0

    def moving(self, frame: np.ndarray) -> bool:
        """``True`` when this frame differs from the previous one (the first frame counts as moving)."""
        small = small_grey(frame)
        last, self._last = self._last, small
        if last is None or last.shape != small.shape:
            self.last_score = 1.0
            return True
        self.last_score = float(np.count_nonzero(np.abs(small - last) > self.threshold)) / small.size
        return self.last_score > self.fraction

    def reset(self) -> None:
        self._last = None


@dataclass
class Stillness:
    """Counts quiet frames; :meth:`update` is ``True`` exactly once per quiet spell, at frame N."""

    quiet_frames: int = 3
    quiet: int = 0

    def update(self, moving: bool) -> bool:
        if moving:
            self.quiet = 0
            return False
        self.quiet += 1
        return self.quiet == self.quiet_frames

    @property
    def settled(self) -> bool:
        return self.quiet >= self.quiet_frames

    def again(self) -> None:
        """Fire again on the next quiet frame (a re-read was asked for)."""
        self.quiet = max(0, self.quiet_frames - 1)
