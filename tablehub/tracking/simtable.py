"""A simulated table for the demo, the live tests and the loop benchmark.

:func:`demo_record` makes a recorded game to play (a seeded random playout with
player colours) when none is given; :class:`SimTable` turns a record into the sim
camera's script (hands over the table, then a still table, per turn) and draws each
shot with :mod:`vision.sim` (imported here, lazily): drawn tile art from the game's
catalog, a fixed camera (same pose every frame, as on a real arm), fresh sensor noise
per frame, and the grid origin fixed for the whole game so tiles do not jump.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..games import game_class, new_game
from ..games.base import Setup
from ..records import Record
from ..hardware.cameras.sim import Shot, SimCamera, shots_for_turns
from .script import TurnScript, turns_of

COLOURS = ("red", "blue", "green", "yellow", "black")


def demo_record(game: str = "neuesland", players: int = 2, seed: int = 7) -> Record:
    """A whole game played with random legal moves, with player colours (for the renderer)."""
    from ..games.tiles.playout import random_game

    g = random_game(game, players=players, seed=seed, finish=False)
    names = ("Ana", "Ben", "Cleo", "Dan", "Eva")[:players]
    setup = Setup(g.setup.game, names, COLOURS[:players], dict(g.setup.options))
    return Record(setup, [a.to_dict() for a in g.history], source=f"random {game} game (seed {seed})")


def catalog_path(game: str) -> Path:
    """The tile catalog the engine of ``game`` uses."""
    return Path(getattr(game_class(game), "catalog_file"))


@lru_cache(maxsize=4)
def _art(catalog: str) -> Any:
    from vision.geometry import TileGeometry
    from vision.sim import DrawnArt

    return DrawnArt(TileGeometry(catalog))


@dataclass
class SimTable:
    record: Record
    size: tuple[int, int] = (1920, 1080)
    preset: str = "default"
    hand_frames: int = 4
    still_frames: int = 6
    seed: int = 0
    turns: list[TurnScript] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.turns:
            self.turns = turns_of(self.record)
        self.start_view = new_game(self.record.setup).view()
        self.catalog = str(catalog_path(self.record.setup.game))
        self._origin: tuple[float, float] | None = None
        self._camera_model: Any = None
        self._still: tuple[Shot, np.ndarray] | None = None

    def limit(self, turns: int | None) -> "SimTable":
        """Keep only the first ``turns`` turns (``None``: all)."""
        if turns is not None:
            self.turns = [t for t in self.turns if t.number <= turns]
        return self

    def shots(self) -> list[Shot]:
        return shots_for_turns(self.turns, self.start_view, self.hand_frames, self.still_frames)

    def camera(self) -> SimCamera:
        return SimCamera(self.shots(), self.draw)

    def _setup_render(self) -> None:
        from vision.sim import NUISANCE, scene_from_view

        model = NUISANCE[self.preset]
        # one camera on one arm: fixed tilt direction, no per-frame wobble or white-balance wander
        self._camera_model = model.with_(tilt_azimuth_deg=model.tilt_azimuth_deg or 30.0, pose_jitter_deg=0.0,
                                         cast_jitter=0.0, light_angle_deg=model.light_angle_deg or 40.0)
        last = self.turns[-1].view if self.turns else self.start_view
        self._origin = scene_from_view(last).origin  # centred for the final table, fixed all game

    def scene(self, shot: Shot) -> Any:
        from vision.sim import SceneHand, scene_from_view

        if self._camera_model is None:
            self._setup_render()
        scene = scene_from_view(shot.view, origin_mm=self._origin, rng=np.random.default_rng(self.seed),
                                sloppiness=1.0)
        if shot.hands:
            if shot.reach is not None:
                x, y = scene.cell_centre_mm(*shot.reach)
                scene.hands = [SceneHand(x, y)]
            else:
                scene.hands = shot.hands
        return scene

    def draw(self, shot: Shot, n: int) -> np.ndarray:
        """Hands move every frame; a still table is rendered once per shot (a real still table
        gives the same picture up to sensor noise, which the renderer already adds)."""
        from vision.sim import render

        if not shot.hands and self._still is not None and self._still[0] is shot:
            return self._still[1]
        scene = self.scene(shot)
        if shot.hands and shot.reach is not None:
            h = scene.hands[0]
            wobble = 12.0 * np.sin(n * 1.7)  # the hand moves between frames
            scene.hands = [type(h)(h.x_mm + wobble, h.y_mm - wobble, h.edge)]
        seed = 10_000 + n if shot.hands else self.seed + 1000 * shot.turn
        image, _ = render(scene, _art(self.catalog), self._camera_model, np.random.default_rng(seed), self.size)
        if not shot.hands:
            self._still = (shot, image)
        return image
