"""The files a table's set-up reads and writes, wherever they are needed (the commands, the page's
set-up screens): the camera's lens file, a tile game's catalog, the lens kept beside references.

The lens file is ``[camera] lens`` in the settings, else ``lens-<camera source>.json`` in the
data folder (``var/lens-picamera2.json`` in a checkout, ``/var/lib/tablehub/lens-picamera2.json``
on the Pi); ``tablehub lens calibrate`` writes it. See docs/vision-setup.md.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .config import Config
from .games.base import TablehubError
from .i18n import T, reason

if TYPE_CHECKING:  # vision is imported when a lens is used: the core runs without OpenCV
    from vision.calibrate import LensCalibration

GAMES_DIR = Path(__file__).resolve().parent / "games"


class SetupFileError(TablehubError):
    pass


class LensError(SetupFileError):
    pass


NO_LENS = "none"

# --------------------------------------------------------------------------- where the lens file lives


def lens_path(cfg: Config) -> Path:
    """The configured camera's lens file: ``[camera] lens``, else ``<data>/lens-<source>.json``."""
    from .hardware.cameras import resolve_source

    return cfg.lens_path(resolve_source(cfg.camera))


def configured_lens(cfg: Config, frame_size: tuple[int, int] | None = None) -> "LensCalibration | None":
    """The lens file of the configured camera, or None when there is none (calibration is optional).

    A file named in the settings must exist; any lens file that is there must be readable
    and, with ``frame_size``, fit frames of that size (same aspect ratio; it is then scaled
    to them). Each raises a one-line error naming the file.
    """
    from vision.calibrate import CalibrationError, LensCalibration

    path = lens_path(cfg)
    if not path.exists():
        if cfg.camera.lens:
            raise LensError(T("{path}: no lens file there ([camera] lens in {config}); run 'tablehub lens calibrate' or "
                              "remove the setting", path=str(path), config=str(cfg.source)))
        return None
    lens = LensCalibration.load(path)
    if frame_size is None:
        return lens
    try:
        return lens.for_size(frame_size)
    except CalibrationError as exc:
        raise CalibrationError(T("{path}: {why}", path=str(path), why=reason(exc))) from None


def lens_for(cfg: Config, given: str | None) -> "LensCalibration | None":
    """``--lens FILE`` when given (``--lens none``: no lens), else the configured camera's lens file."""
    if given and given.lower() == NO_LENS:
        return None
    if given:
        from vision.calibrate import LensCalibration

        return LensCalibration.load(given)
    return configured_lens(cfg)


def reading_lens(cfg: Config, given: str | None) -> "LensCalibration | None | bool":
    """The lens to read a photo through, for :func:`vision.loader.load_recognizer`: ``False`` for
    ``--lens none`` (no lens at all, not even the one kept with the references), else :func:`lens_for`
    (``None``: the references' own ``lens.json`` when they have one)."""
    if given and given.lower() == NO_LENS:
        return False
    return lens_for(cfg, given)


def describe(lens: "LensCalibration") -> str:
    """One line about a lens file's content, for the terminal and ``tablehub doctor``."""
    w, h = lens.image_size
    views = f"{lens.views} views, " if lens.views else ""
    return (f"{w}x{h}, {views}RMS reprojection error {lens.rms_px:.2f} px, bends the frame edges by "
            f"up to {edge_shift_px(lens):.0f} px")


def edge_shift_px(lens: "LensCalibration") -> float:
    """How far the lens moves points on the frame's border (what calibrating corrects), in pixels."""
    w, h = lens.image_size
    t = np.linspace(0.0, 1.0, 17)
    border = np.concatenate([np.column_stack([t * (w - 1), np.zeros_like(t)]),
                             np.column_stack([t * (w - 1), np.full_like(t, h - 1)]),
                             np.column_stack([np.zeros_like(t), t * (h - 1)]),
                             np.column_stack([np.full_like(t, w - 1), t * (h - 1)])])
    return float(np.linalg.norm(lens.undistort_points(border) - border, axis=1).max())


# --------------------------------------------------------------------------- the references


def catalog_file(game: str) -> Path:
    """The catalog JSON of a tile game (read as data; the engine is not imported)."""
    path = GAMES_DIR / game / "tiles.json"
    if not path.is_file():
        known = sorted(p.parent.name for p in GAMES_DIR.glob("*/tiles.json"))
        raise SetupFileError(T("--game {game}: no tile catalog {path} (tile games: {known})", game=game, path=str(path),
                                known=", ".join(known)))
    return path


def keep_lens(out: Path, lens) -> None:
    """Record the lens the references were taken through as ``lens.json`` beside them (none: no file).

    ``tablehub recognize`` and ``run`` fall back to it when the camera has no lens file;
    a lens.json left from an earlier enrolment into the same folder would be wrong.
    """
    path = out / "lens.json"
    if lens is not None:
        lens.save(path)
    elif path.is_file():
        path.unlink()
        print(f"removed {path} (these references were taken without a lens calibration)")
