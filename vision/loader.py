"""Recognisers made ready for use: from the files ``tablehub enroll`` wrote, for the tracker, from a simulated
table.

:mod:`vision.recognize` holds the pipeline; this module puts it together with references, colours, a mat and a
lens (so that :mod:`vision.enroll` and :mod:`vision.recognize` need not import each other).
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from tablehub.i18n import T  # what a phone reads (tablehub/locale/*/vision.po)

from . import VisionError
from .enroll import enrol_simulated
from .geometry import TileGeometry
from .mat import Mat
from .pieces import PlayerColours
from .recognize import Observation, Recognizer
from .refs import ReferenceSet
from .sampling import Cell

log = logging.getLogger(__name__)


def default_catalog_path(game: str) -> Path:
    """Where the project keeps the catalog of ``game`` (data only: the engine is not imported)."""
    return Path(__file__).resolve().parents[1] / "tablehub" / "games" / game / "tiles.json"


def load_recognizer(game: str, refs_dir: str | Path, mat: Mat | str | Path | None = None,
                    catalog: str | Path | None = None, colours: PlayerColours | str | Path | None = None,
                    lens: Any = None) -> Recognizer:
    """A :class:`Recognizer` from files: the reference folder (``tablehub enroll``), the mat file, the catalog.

    ``colours`` defaults to ``colours.json`` in the reference folder, else typical colours
    (uncalibrated, logged). ``mat`` defaults to ``mat.json`` in the reference folder, else the
    default mat. ``lens`` is a :class:`vision.calibrate.LensCalibration` or a path to one; ``None``
    takes ``lens.json`` in the reference folder when there is one; ``False``: no lens (``--lens none``).
    """
    root = Path(refs_dir)
    refs = ReferenceSet.load(root)
    if refs.game and refs.game != game:
        raise VisionError(T("{root}: these references are for {theirs}, not {game}", root=str(root), theirs=repr(refs.game),
                              game=repr(game)))
    cat_path = Path(catalog) if catalog is not None else default_catalog_path(game)
    if not cat_path.is_file():
        raise VisionError(T("{path}: no tile catalog for game {game}", path=str(cat_path), game=repr(game)))
    if mat is None:
        if (root / "mat.json").is_file():
            log.warning("mat: none given; using %s, the mat the references were photographed on", root / "mat.json")
            mat = Mat.load(root / "mat.json")
        else:
            mat = Mat.default()
    elif not isinstance(mat, Mat):
        mat = Mat.load(mat)
    if colours is None and (root / "colours.json").is_file():
        colours = root / "colours.json"
    if colours is None:
        log.warning("no colours.json in %s: using typical player colours (calibrate with 'tablehub enroll "
                    "--colours')", root)
        pc = PlayerColours.defaults()
    elif isinstance(colours, PlayerColours):
        pc = colours
    else:
        pc = PlayerColours.load(colours)
    if lens is None and (root / "lens.json").is_file():
        lens = root / "lens.json"
    elif lens is False:
        lens = None
    if lens is not None and not hasattr(lens, "distort_points"):
        from .calibrate import LensCalibration

        lens = LensCalibration.load(lens)
    return Recognizer.for_game(cat_path, refs, mat, colours=pc, lens=lens)


class TrackerRecognizer:
    """``frame -> Observation`` for the tracker: keeps the last observation and works incrementally.

    Every ``relocate_every``-th frame re-finds the mat markers (a bumped camera); the others
    reuse the last mat location. A failed frame (no markers, blank) raises; the next call
    starts afresh from the last good observation.
    """

    def __init__(self, recognizer: Recognizer, relocate_every: int = 10):
        self.recognizer = recognizer
        self.relocate_every = max(1, int(relocate_every))
        self.last: Observation | None = None
        self.known: dict[Cell, tuple[str, int]] = {}
        self._count = 0

    def __call__(self, frame: np.ndarray) -> Observation:
        relocate = self._count % self.relocate_every == 0
        self._count += 1
        obs = self.recognizer.observe(frame, previous=self.last, relocate=relocate, known=self.known)
        self.last = obs
        return obs

    def follow(self, tiles: Mapping[Cell, tuple[str, int]]) -> None:
        """The tiles the game's log holds (cell -> (tile id, rotation)), given by the tracker before each
        reading: a cell read as a look-alike of its logged tile is read as the logged one (see
        :meth:`Recognizer.observe`), so figures on it are looked for against the right picture."""
        self.known = dict(tiles)

    def reset(self) -> None:
        self.last = None
        self._count = 0

    def region_at(self, tile: str, rotation: int, u: float, v: float) -> str | None:
        """The region of ``tile`` (laid turned by ``rotation``) under the point (u, v) in tile fractions, for
        the tracker to name a figure's region on the tile the log holds (the phone may have logged another
        tile than the camera read); ``None`` when the tile's shape is unknown. The region's true shape
        (:attr:`Recognizer.regions`) is used; a point just past the tile's edge (a figure overhanging the seam,
        up to 0.1 tile) is on the tile's nearest point."""
        regions = self.recognizer.regions
        if regions is None or not (-0.1 <= u <= 1.1 and -0.1 <= v <= 1.1):
            return None
        try:
            return regions.region_at(tile, rotation, u, v)
        except (VisionError, KeyError, ValueError):
            return None

    @staticmethod
    def confidence(best: float, second: float) -> float:
        """The confidence of a read scoring ``best`` when the best read that means something else scores
        ``second``: the tile classifier's own calibration, for the tracker, which groups reads by what
        they mean to the rules (twins with different pictures, symmetric turns) and rescores the groups."""
        from .tiles import _confidence

        return _confidence(best, second)


def for_tracker(game: str, catalog: str | None = None, references: str | None = None, sim: Any = None,
                **kw: Any) -> TrackerRecognizer:
    """The tracker's factory (see ``tablehub.tracking.recognizer``).

    With ``references`` (a folder from ``tablehub enroll``) the real set is used; with ``sim``
    (a simulated table) the set is enrolled from the simulator's own camera, as a person would
    with ``tablehub enroll``; without either there is nothing to recognise against.
    """
    if references:
        return TrackerRecognizer(load_recognizer(game, references, catalog=catalog, **kw))
    if sim is not None:

        return TrackerRecognizer(enrol_from_sim(game, sim, catalog))
    raise VisionError(T("no references for {game}: enrol the tiles first ('tablehub enroll --game {game} ...')", game=game))


def enrol_from_sim(game: str, sim: Any, catalog: str | Path | None = None) -> Any:
    """A :class:`vision.recognize.Recognizer` enrolled from a simulated table (``tablehub.tracking.simtable``)."""
    from .sim import NUISANCE, DrawnArt

    cat_path = Path(catalog) if catalog else Path(getattr(sim, "catalog", "") or default_catalog_path(game))
    model = getattr(sim, "_camera_model", None)
    if model is None and hasattr(sim, "_setup_render"):
        sim._setup_render()
        model = getattr(sim, "_camera_model", None)
    if model is None:
        model = NUISANCE[getattr(sim, "preset", "default")]
    geometry = TileGeometry(cat_path)
    art = DrawnArt(geometry)
    refs, colours, lens = enrol_simulated(cat_path, art, model, np.random.default_rng(12345),
                                          size=tuple(getattr(sim, "size", (1920, 1080))), geometry=geometry)
    return Recognizer.for_game(cat_path, refs, Mat.default(), colours=colours, lens=lens, geometry=geometry)
