"""A simulated table for the demo, the live tests and the loop benchmark.

:func:`demo_record` makes a recorded game to play (a seeded random playout with
player colours) when none is given; :class:`SimTable` turns a record into the sim
camera's script (hands over the table, then a still table, per turn) and draws each
shot with :mod:`vision.sim` (imported here, lazily): the tiles' art, a fixed camera (same
pose every frame, as on a real arm), fresh sensor noise per frame, and the grid origin fixed
for the whole game so tiles do not jump.

The art is the catalog's drawn art by default. ``art="scans"`` draws the printed tiles from
their scans (Neues Land: ``../shared/data/neues_land/scans``, never copied into the
project); ``art="auto"`` uses the scans when they are there and the drawn art otherwise.
The drawn art hides the printed art's look-alikes and detail, so the scans are what the
whole-game measurements use; :meth:`SimTable.recognizer` then enrols the set from the same
scans photographed in another session (other light, colour balance, exposure and pose), as
a person enrols the real set before playing.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..games import game_class, new_game
from ..games.base import Setup, TablehubError
from ..i18n import T, reason
from ..games.tiles.catalog import load_catalog
from ..records import Record
from ..hardware.cameras.sim import Shot, shots_for_turns
from .script import ScriptedTable, turns_of

COLOURS = ("red", "blue", "green", "yellow", "black")
ART = ("drawn", "scans", "auto")
SCANS = {"neuesland": Path("data") / "neues_land" / "scans"}
"""Per game, where the printed tiles' scans (``<tile id>.png``) lie in the shared folder."""
ENROL_SEED = 12345
"""The enrolment session's noise and hand placement (as ``vision.loader.enrol_from_sim``'s)."""


class SimTableError(TablehubError):
    """A simulated table that cannot be set up as asked; one line naming what to fix."""


def demo_record(game: str = "neuesland", players: int = 2, seed: int = 7) -> Record:
    """A whole game played with random legal moves, with player colours (for the renderer); a game that is
    not a tile game from its own playout (``tablehub.games.PLAYOUTS``: players P1, P2, ...)."""
    import importlib

    from ..games import PLAYOUTS
    from ..games.tiles.playout import random_game

    key = game_class(game).name
    if key in PLAYOUTS:
        module, _, func = PLAYOUTS[key].partition(":")
        g = getattr(importlib.import_module(module), func)(players, seed, {})
        return Record(g.setup, [a.to_dict() for a in g.history], source=f"random {key} game (seed {seed})")

    g = random_game(game, players=players, seed=seed, finish=False)
    names = ("Ana", "Ben", "Cleo", "Dan", "Eva")[:players]
    setup = Setup(g.setup.game, names, COLOURS[:players], dict(g.setup.options))
    return Record(setup, [a.to_dict() for a in g.history], source=f"random {game} game (seed {seed})")


def catalog_path(game: str) -> Path:
    """The tile catalog the engine of ``game`` uses."""
    return Path(getattr(game_class(game), "catalog_file"))


def scans_folder(game: str) -> Path | None:
    """Where ``game``'s scans are looked for: in ``$TABLEHUB_SHARED``, else ``../shared`` next to the checkout
    (as the tests look for them); ``None`` for a game without scans."""
    rel = SCANS.get(game)
    if rel is None:
        return None
    shared = os.environ.get("TABLEHUB_SHARED") or Path(__file__).resolve().parents[2].parent / "shared"
    return Path(shared) / rel


def missing_scans(game: str, catalog: str | Path) -> list[str] | None:
    """The catalog's tile ids without a scan in ``game``'s scan folder; ``None`` when there is no folder."""
    folder = scans_folder(game)
    if folder is None or not folder.is_dir():
        return None
    names = {p.stem for p in folder.iterdir() if p.suffix.lower() in (".png", ".jpg", ".jpeg")}
    return [t.id for t in load_catalog(catalog).tiles if t.id not in names]


def pick_art(game: str, catalog: str | Path, art: str) -> str:
    """``"scans"`` or ``"drawn"`` for ``art`` (one of :data:`ART`): ``"auto"`` takes the scans when every
    tile of the catalog has one. Asking for scans that are not there is a one-line error."""
    if art not in ART:
        raise SimTableError(f"sim table: art {art!r} is not one of {', '.join(ART)}")
    if art == "drawn":
        return "drawn"
    missing = missing_scans(game, catalog)
    if not missing and missing is not None:
        return "scans"
    if art == "auto":
        return "drawn"
    where = scans_folder(game)
    if missing is None:
        raise SimTableError(f"sim table: no scans of {game}'s tiles" + (f" ({where} is not there)" if where else ""))
    raise SimTableError(f"sim table: {where} has no scan of {len(missing)} tiles "
                        f"({', '.join(missing[:6])}{'...' if len(missing) > 6 else ''})")


def table_for(record: Record, size: tuple[int, int] = (1920, 1080), art: str = "drawn", **kw: Any) -> Any:
    """The simulated table for ``record``: :class:`SimTable` for a tile game, a printed board
    (:class:`~tablehub.tracking.simboard.SimBoardTable`) for a game whose engine has a ``board_moves``
    adapter (Karibik; ``art`` is the board's own), a laid-out table (:class:`~tablehub.tracking.simsunda.SimSundaTable`)
    for one whose engine has a ``layout_moves`` adapter (Sunda to Sahul)."""
    if getattr(game_class(record.setup.game), "layout_moves", None) is not None:
        from .simsunda import SimSundaTable

        return SimSundaTable(record, size=size, **kw)
    if getattr(game_class(record.setup.game), "board_moves", None) is not None:
        from .simboard import SimBoardTable

        return SimBoardTable(record, size=size, **kw)
    return SimTable(record, size=size, art=art, **kw)


@lru_cache(maxsize=4)
def _art(catalog: str, kind: str, folder: str | None) -> tuple[Any, Any]:
    """(tile art, tile geometry) for a catalog, loaded once per process (the scans lazily, per tile)."""
    from vision.geometry import TileGeometry
    from vision.sim import DrawnArt, ScanArt

    geometry = TileGeometry(catalog)
    return (ScanArt(folder) if kind == "scans" else DrawnArt(geometry)), geometry


@lru_cache(maxsize=4)
def _true_shapes(catalog: str, folder: str) -> Any:
    """The regions' true shapes in the scans (:class:`vision.regionmap.RegionMaps`), where figures are drawn: the
    slot model's anchor of a region can lie on another region of a scanned tile."""
    from vision.regionmap import RegionMaps

    art, geometry = _art(catalog, "scans", folder)
    return RegionMaps(geometry, {t: art.image(t, 100) for t in geometry.tile_ids})


@dataclass
class SimTable(ScriptedTable):
    def __post_init__(self) -> None:
        if not self.turns:
            self.turns = turns_of(self.record)
        self.start_view = new_game(self.record.setup).view()
        self.catalog = str(catalog_path(self.record.setup.game))
        self.art = pick_art(self.record.setup.game, self.catalog, self.art)
        self._scans = scans_folder(self.record.setup.game) if self.art == "scans" else None
        self._origin: tuple[float, float] | None = None
        self._camera_model: Any = None
        self._still: tuple[Shot, np.ndarray] | None = None

    def shots(self) -> list[Shot]:
        return shots_for_turns(self.turns, self.start_view, self.hand_frames, self.still_frames)

    @property
    def art_name(self) -> str:
        """What the tiles are drawn from, for reports: "drawn art" or "scans (<folder>)"."""
        return f"scans ({self.scans})" if self.scans else "drawn art"

    @property
    def scans(self) -> Path | None:
        """The folder the tiles are drawn from, when they are drawn from scans."""
        return self._scans

    def tile_art(self) -> tuple[Any, Any]:
        """(the tiles' art, their geometry) as :mod:`vision.sim` draws them."""
        return _art(self.catalog, self.art, str(self.scans) if self.scans else None)

    def recognizer(self) -> Any:
        """The tracker's recognizer for this table (``frame -> observation``).

        On scans the set is enrolled from the same scans in another session (``CameraModel.other_session``),
        as ``tablehub bench vision`` does; on drawn art through
        :func:`~tablehub.tracking.recognizer.make_recognizer` (vision enrols the drawn art under this
        table's own camera). Raises ``RecognitionUnavailable`` with the reason when vision cannot."""
        from .recognizer import RecognitionUnavailable, make_recognizer

        game = self.record.setup.game
        if not self.scans:
            return make_recognizer(game, sim=self)
        try:
            from vision import VisionError
            from vision.enroll import enrol_simulated
            from vision.mat import Mat
            from vision.loader import TrackerRecognizer
            from vision.recognize import Recognizer
        except ImportError as exc:
            raise RecognitionUnavailable(f"table recognition is not in this build ({exc}); play from the phone") \
                from None
        if self._camera_model is None:
            self._setup_render()
        art, geometry = self.tile_art()
        try:
            refs, colours, lens = enrol_simulated(self.catalog, art, self._camera_model.other_session(),
                                                  np.random.default_rng(ENROL_SEED), size=self.size,
                                                  geometry=geometry)
            rec = Recognizer.for_game(self.catalog, refs, Mat.default(), colours=colours, lens=lens, geometry=geometry)
            rec.shapes_folder = self._scans     # the regions' shapes from the scans, as bench vision learns them
            return TrackerRecognizer(rec)
        except VisionError as exc:  # vision's own one-line errors (an enrolment photo it cannot read)
            raise RecognitionUnavailable(T("table recognition is off: enrolling {art}: {why}", art=self.art_name,
                                           why=reason(exc))) from None

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
        art, geometry = self.tile_art()
        shapes = _true_shapes(self.catalog, str(self.scans)) if self.scans else None
        image, _ = render(scene, art, self._camera_model, np.random.default_rng(seed), self.size, geometry=geometry,
                          shapes=shapes)
        if not shot.hands:
            self._still = (shot, image)
        return image
