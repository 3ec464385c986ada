"""The simulated camera: the renderer (:mod:`vision.sim`) playing a scripted game.

A script is a list of :class:`Shot`: a table view (``Game.view()``), how many
hands reach over it and where, and how many frames to hold it. For a recorded game
:func:`shots_for_turns` makes, per turn, a few frames with hands over the cell
being played, then still frames of the table after the turn: what a camera above
a real table sees at a human pace. ``draw`` turns a shot into a BGR frame; by
default it is :func:`renderer` (vision.sim, imported lazily), tests may pass any
callable.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from .base import Camera, EndOfFrames, Frame

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Shot:
    view: dict[str, Any]
    hands: int = 0                         # hands over the table in this frame
    reach: tuple[int, int] | None = None   # the grid cell the hands reach for
    frames: int = 1                        # how many consecutive frames show it
    turn: int = 0                          # the turn this shot belongs to (for logs and tests)
    phase: str = "still"                   # "hands" or "still"


Draw = Callable[[Shot, int], Frame]        # (shot, frame number) -> BGR frame


def shots_for_turns(turns: Iterable[Any], start_view: dict[str, Any], hand_frames: int = 4,
                    still_frames: int = 6) -> list[Shot]:
    """Hands over the table, then a still table, for each turn (``TurnScript``-like objects)."""
    shots = [Shot(start_view, frames=still_frames, turn=0)]
    for t in turns:
        if not t.table:
            continue
        shots.append(Shot(shots[-1].view, hands=1, reach=t.cell, frames=hand_frames, turn=t.number, phase="hands"))
        shots.append(Shot(t.view, frames=still_frames, turn=t.number))
    return shots


class SimCamera(Camera):
    """Frames of a scripted table, one per ``read()``; :class:`EndOfFrames` after the last shot."""

    name = "sim"

    def __init__(self, shots: Sequence[Shot], draw: Draw, loop: bool = False):
        self.shots = list(shots)
        self.draw = draw
        self.loop = loop
        self._shot = 0
        self._left = 0
        self.frame_number = 0
        self.current: Shot | None = None

    def open(self) -> None:
        self._shot, self._left, self.frame_number = 0, self.shots[0].frames if self.shots else 0, 0

    def read(self) -> Frame:
        while self._left <= 0:
            self._shot += 1
            if self._shot >= len(self.shots):
                if not self.loop or not self.shots:
                    raise EndOfFrames(f"the simulated game is over ({self.frame_number} frames)")
                self._shot = 0
            self._left = self.shots[self._shot].frames
        shot = self.shots[self._shot]
        self._left -= 1
        self.current = shot
        frame = self.draw(shot, self.frame_number)
        self.frame_number += 1
        return frame

    @property
    def remaining_shots(self) -> int:
        return len(self.shots) - self._shot - (0 if self._left > 0 else 1)

    def describe(self) -> str:
        return f"simulated camera ({len(self.shots)} shots)"


def blank_draw(size: tuple[int, int] = (640, 360)) -> Draw:
    """A grey table with a moving dark blob for hands: enough for the motion gate, nothing to recognise."""
    def draw(shot: Shot, n: int) -> Frame:
        frame = np.full((size[1], size[0], 3), 120, np.uint8)
        if shot.hands:
            x = (n * 37) % max(1, size[0] - 80)
            frame[size[1] // 3: size[1] // 3 + 80, x:x + 80] = 40
        return frame
    return draw
