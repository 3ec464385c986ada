"""A photo of a tile-game table read with the enrolled set: the files checked, one-line errors.

``tablehub recognize`` (what the camera sees, as JSON) and ``tablehub score --photo`` (the finished table
scored) share it. OpenCV and :mod:`vision` are imported when a photo is read, never at import time (the
core imports no OpenCV: see README "Layout").
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .games.base import TablehubError
from .i18n import T, reason
from .imagefile import check_image
from .setup_files import catalog_file


class RecognizeError(TablehubError):
    pass


#: the games whose finished table is scored from a photo by their own module (read into the engine's position and
#: scored by its position scorer: :mod:`tablehub.photo_position`); the tile games are :func:`score_photo`'s
POSITION_GAMES = {"sunda": "photo_sunda", "tahiti": "photo_board", "karibik": "photo_board"}


def position_module(game: str) -> Any:
    """The photo module of a position-scored game (``score_args``, ``score_upload``)."""
    import importlib

    return importlib.import_module(f"tablehub.{POSITION_GAMES[game]}")


def refs_folder(game: str, refs: str | Path | None) -> Path:
    """The reference folder (default ``refs/GAME``); one line when ``tablehub enroll`` has not filled it."""
    catalog_file(game)  # an unknown game first: "--game X: no tile catalog ..."
    root = Path(refs) if refs else Path("refs") / game
    if not (root / "index.json").is_file():
        raise RecognizeError(T("--refs {root}: no references there; enrol the set first ('tablehub enroll --game {game} "
                               "--out {root} ...')", root=str(root), game=game))
    return root


def load_frame(path: str | Path) -> Any:
    """The photo as a BGR image; one line for a missing, oversized or unreadable file."""
    cv2 = _cv2()
    path = Path(path)
    check_image(path)  # size from the header, before anything decodes it
    frame = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
    if frame is None:
        raise RecognizeError(T("{path}: not a readable image file", path=str(path)))
    return frame


def decode_frame(data: bytes, name: str = "photo") -> Any:
    """A photo sent as bytes (the page's upload) as a BGR image; one line when it is no image."""
    from .imagefile import check_head

    cv2 = _cv2()
    import numpy as np

    check_head(data, name)
    frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if frame is None:
        raise RecognizeError(T("{name}: not a readable image", name=name))
    return frame


def load_recognizer(game: str, refs: Path, mat: str | None = None, colours: str | None = None,
                    lens: Any = None) -> Any:
    """A :class:`vision.recognize.Recognizer` from the enrolled files; one line for a bad file."""
    _cv2()
    from vision import VisionError
    from vision.loader import load_recognizer as load

    try:
        rec = load(game, refs, mat=mat, catalog=catalog_file(game), colours=colours, lens=lens)
    except VisionError as exc:
        raise RecognizeError(reason(exc)) from None
    rec.fit_found_grid = True     # one photo of a full table: its lattice from all its tiles (docs/vision.md)
    return rec


def observe(recognizer: Any, frame: Any, source: str, grid: Any = None) -> Any:
    """The :class:`vision.recognize.Observation` of one photo; one line naming the photo when it cannot be
    read (no markers, blank, no start tile). ``grid``: the game's (from its first frame), else found afresh."""
    from vision import VisionError

    try:
        return recognizer.observe(frame) if grid is None else recognizer.observe(frame, grid=grid)
    except VisionError as exc:
        raise RecognizeError(T("{source}: {why}", source=source, why=reason(exc))) from None


def region_finder(recognizer: Any):
    """``region_at(tile, rotation, u, v)``: the region under a point of a tile as it lies (true shapes)."""
    from vision.loader import TrackerRecognizer

    return TrackerRecognizer(recognizer).region_at


def twin_finder(recognizer: Any):
    """``twins_of(tile, rotation)``: the (tile, rotation) pairs whose pictures differ from it only in a detail, as
    the recogniser's classifier knows them (:meth:`vision.tiles.TileClassifier.twins_of`)."""
    return recognizer.classifier.twins_of


def _cv2() -> Any:
    try:
        import cv2

        import vision  # noqa: F401
    except ImportError as exc:  # pragma: no cover - a broken install
        raise RecognizeError(T("vision is not installed ({why})", why=str(exc))) from None
    return cv2


def score_photo(recognizer: Any, frame: Any, game: str, source: str = "photo", names: Any = None,
                holdings: Any = None, options: Any = None, grid: Any = None) -> Any:
    """A finished table scored from one photo (:func:`tablehub.photoscore.score_reading` on what the camera
    reads); ``grid`` (the game's first frame's) skips finding the start tile afresh."""
    from .photoscore import DEFAULT_COLOURS, Reading, score_reading

    obs = observe(recognizer, frame, source, grid)
    reading = Reading.from_dict(obs.to_dict(), source)
    colours = list(getattr(recognizer.colours, "names", None) or DEFAULT_COLOURS)
    return score_reading(game, reading, names, region_finder(recognizer), holdings, options, colours=colours,
                         twins_of=twin_finder(recognizer))


def photo_scorer(refs_path: Any, lens_path: Any = None) -> Any:
    """``score(data, game, names)`` for the page's upload: the photo's bytes read with ``game``'s references
    (``refs_path(game)``: a folder from ``tablehub enroll``) and scored. The lens file (``lens_path()``, else the
    one kept with the references) is used only for a photo of the size it was calibrated for (the hub's
    camera): a phone's photo is read without it (phones correct their own lens)."""
    def score(data: bytes, game: str, names: Any = None, holdings: Any = None) -> Any:
        frame = decode_frame(data)
        if game in POSITION_GAMES:   # holdings: what the photo cannot show, as the page's fields give it
            given = lens_path() if lens_path is not None else None
            return position_module(game).score_upload(frame, game, refs_path(game), given, names, holdings or {})
        refs = refs_folder(game, refs_path(game))
        lens = _lens_for_frame(frame, lens_path() if lens_path is not None else None, refs)
        rec = load_recognizer(game, refs, lens=lens)
        if lens is None:
            _drop_lens(rec)
        return score_photo(rec, frame, game, "photo", names, holdings)

    return score


def _lens_for_frame(frame: Any, given: Any, refs: Path) -> Any:
    from vision.calibrate import LensCalibration

    path = Path(given) if given else refs / "lens.json"
    if not path.is_file():
        return None
    try:
        lens = LensCalibration.load(path)
    except TablehubError:
        return None
    h, w = frame.shape[:2]
    return lens if tuple(lens.image_size) == (w, h) else None


def _drop_lens(recognizer: Any) -> None:
    """Read through no lens model even where the reference folder keeps one (that is the hub camera's)."""
    from vision.rectify import Rectifier
    from vision.tiles import TILE_PX

    recognizer.rectifier = Rectifier(recognizer.mat, px_per_mm=TILE_PX / recognizer.pitch)
