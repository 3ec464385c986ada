"""Synthetic frames for tracker tests: a grey table, a hand blob, and a tag the scripted recognizer reads.

The scripted recognizer stands in for vision only in these tracker-logic tests: the
frame carries a number in its top-left pixels and the recognizer returns the
observation registered under it. End-to-end tests use the real renderer and recognizer.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from tablehub.tracking.table import FigureSeen, TableSeen, TileSeen

SIZE = (320, 180)


class ScriptedTable:
    """Registers table states; ``frame(state, hands)`` draws one, the instance itself recognises it."""

    def __init__(self):
        self.states: list[TableSeen] = []
        self.calls = 0

    def state(self, tiles: list[TileSeen], figures: list[FigureSeen] = ()) -> int:
        self.states.append(TableSeen({t.cell: t for t in tiles}, tuple(figures)))
        return len(self.states) - 1

    def frame(self, state: int, hand_at: int | None = None) -> np.ndarray:
        img = np.full((SIZE[1], SIZE[0], 3), 110, np.uint8)
        img[40:140, 60:260] = 160 + 5 * (state % 10)   # the tiles, a little different per state
        img[0:4, 0:4] = state
        if hand_at is not None:                          # a dark hand that moves
            x = 20 + (hand_at * 53) % 220
            img[60:150, x:x + 60] = 30
        return img

    def __call__(self, frame: np.ndarray) -> Any:
        self.calls += 1
        return self.states[int(frame[0, 0, 0])]


def start_tile(game) -> TileSeen:
    t = game.view()["tiles"][0]
    return TileSeen(0, 0, t["tile"], t["rotation"])


class Buttons:
    """The panel's buttons pressed by hand on gpiozero's MockFactory, on the test's own clock (``t``)."""

    def __init__(self, factory: Any, panel: Any, t: float = 0.0):
        self.factory, self.panel, self.t = factory, panel, t

    def press(self, pin: int, seconds: float = 0.1) -> None:
        """Hold ``pin`` down ``seconds`` (0.1: a click; past the panel's hold time: a hold), then let go."""
        self.factory.pin(pin).drive_low()
        self._poll(0.001, seconds)
        self.factory.pin(pin).drive_high()
        self._poll(0.001, 0.05)

    def _poll(self, *steps: float) -> None:
        for dt in steps:
            self.t += dt
            self.panel.poll(self.t)
