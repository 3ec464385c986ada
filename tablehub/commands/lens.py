"""``tablehub lens``: calibrate the camera's lens with a printed ChArUco board (optional; for wide lenses).

    tablehub lens board                          # charuco.png (print at 100 %) + charuco.json
    tablehub lens calibrate --camera             # the hub's camera: move the board between shots
    tablehub lens calibrate --photos DIR         # photos of the board taken with the hub's camera

The lens file is written where ``tablehub run``, ``recognize`` and ``enroll`` read it
(:func:`tablehub.setup_files.lens_path`): ``[camera] lens`` in the settings, else ``lens-<camera source>.json`` in the data folder
(``var/lens-picamera2.json`` in a checkout, ``/var/lib/tablehub/lens-picamera2.json`` on
the Pi). See docs/vision-setup.md.
"""
from __future__ import annotations

import argparse
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ..config import CAMERA_SOURCES, Config
from ..i18n import T
from ..usage_i18n import bad_value, said, say
from ..setup_files import LensError, edge_shift_px, lens_path

if TYPE_CHECKING:  # vision is imported when a lens is used: the core runs without OpenCV
    from vision.calibrate import BoardView, CharucoSpec

NAME = "lens"
HELP = T("calibrate the camera's lens with a printed ChArUco board (optional; wide lenses)")
DESCRIPTION = T("{help}. 'lens board' writes the board to print; 'lens calibrate' solves the lens from photos "
               "(--photos DIR) or from the hub's camera (--camera) and writes the lens file that 'tablehub run', "
               "'recognize' and 'enroll' read (see docs/vision-setup.md).", help=HELP)

CAMERA_CHOICES = tuple(s for s in CAMERA_SOURCES if s != "sim") + ("auto",)
# --------------------------------------------------------------------------- arguments


def _squares(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not m:
        raise bad_value(T("expected COLUMNSxROWS of squares, e.g. 9x6, got {value}", value=repr(text)))
    return int(m.group(1)), int(m.group(2))


def _camera_source(text: str) -> str:
    if text and text not in CAMERA_CHOICES:  # "": --camera alone, the configured camera
        raise bad_value(T("expected one of {choices}, got {value}", choices=", ".join(CAMERA_CHOICES), value=repr(text)))
    return text


def add_arguments(p: argparse.ArgumentParser) -> None:
    from ._options import add_settings

    sub = p.add_subparsers(dest="lens_action", metavar="ACTION", required=True)
    board = sub.add_parser("board", help=T("write the ChArUco board to print (PNG at true size) and its description"),
                           description=T("Write the board as a PNG page at true size (DPI in the file: print at "
                           "100 %, no scaling) and, beside it, a JSON description for 'lens calibrate --board'."))
    board.add_argument("--out", default="charuco.png", help=T("PNG to write (default charuco.png; the JSON goes "
                       "beside it with the same name)"))
    board.add_argument("--paper", default="A4", choices=["A4", "A3", "letter"], help=T("paper size (default A4)"))
    board.add_argument("--dpi", type=float, default=300.0, help=T("print resolution (default 300)"))
    board.add_argument("--squares", type=_squares, default=(9, 6), metavar="CxR",
                       help=T("squares across and down (default 9x6)"))
    board.add_argument("--square-mm", type=float, default=30.0, help=T("square side in mm (default 30)"))
    board.add_argument("--marker-mm", type=float, default=22.0, help=T("marker side in mm (default 22)"))
    board.set_defaults(_lens=write_board)

    cal = sub.add_parser("calibrate", help=T("solve the lens from photos or camera frames of the board"),
                         description=T("Solve the lens from views of the printed board, print the RMS reprojection "
                         "error and the number of views used, and write the lens file (default: where the hub "
                         "reads it, see --out)."))
    source = cal.add_mutually_exclusive_group(required=True)
    source.add_argument("--photos", metavar="DIR", help=T("a folder of photos of the board (PNG/JPEG), all taken "
                        "with the hub's camera at one resolution"))
    source.add_argument("--camera", nargs="?", const="", type=_camera_source, metavar="SOURCE",
                        help=T("take the shots with the camera (the configured one, or {choices})",
                               choices="|".join(CAMERA_CHOICES)))
    add_settings(cal)
    cal.add_argument("--out", help=T("lens file to write (default: [camera] lens, else <data>/lens-<camera>.json)"))
    cal.add_argument("--board", help=T("board description from 'tablehub lens board' (default: the default board)"))
    cal.add_argument("--shots", type=int, default=15, help=T("--camera: views to take (default 15)"))
    cal.add_argument("--pause", type=float, default=2.0,
                     help=T("--camera: seconds between shots to move the board (default 2)"))
    cal.add_argument("--save", metavar="DIR", help=T("--camera: also save the shots there (for --photos later)"))
    cal.add_argument("--min-corners", type=int, help=T("a view needs this many board corners (default: a third of "
                     "the board's)"))
    cal.add_argument("--min-views", type=int, help=T("refuse to solve from fewer views (default 5)"))
    cal.add_argument("--max-rms", type=float, help=T("refuse a reprojection error above this, px (default 2)"))
    cal.set_defaults(_lens=calibrate)


def run(args: argparse.Namespace) -> int:
    return int(args._lens(args) or 0)


# --------------------------------------------------------------------------- lens board


def write_board(args: argparse.Namespace) -> int:
    from vision.calibrate import CharucoSpec
    from vision.markers import PAPER_MM, write_png_with_dpi

    spec = CharucoSpec(args.squares[0], args.squares[1], args.square_mm, args.marker_mm)
    page = spec.page(PAPER_MM[args.paper], args.dpi)
    out = Path(args.out)
    if out.suffix.lower() != ".png":
        raise LensError(T("--out {path}: the board is written as a PNG; give a name ending in .png", path=str(out)))
    out.parent.mkdir(parents=True, exist_ok=True)
    png = write_png_with_dpi(out, page, args.dpi)
    described = spec.save(out.with_suffix(".json"))
    w, h = spec.size_mm
    say(T("wrote {path}: {paper} page at {dpi} dpi with a board of {cols} x {rows} squares of {square} mm ({width} x "
          "{height} mm)", path=str(png), paper=args.paper, dpi=format(args.dpi, "g"), cols=spec.squares_x,
          rows=spec.squares_y, square=format(spec.square_mm, "g"), width=format(w, "g"), height=format(h, "g")))
    say("  " + said(T("print at 100 % (no scaling), check a square is {square} mm, glue the page flat on card",
                      square=format(spec.square_mm, "g"))))
    say(T("wrote {path}", path=str(described)) if spec == CharucoSpec() else
        T("wrote {path}; give it to 'tablehub lens calibrate --board {path}'", path=str(described)))
    return 0


# --------------------------------------------------------------------------- lens calibrate


def calibrate(args: argparse.Namespace) -> int:
    from vision.calibrate import MAX_RMS_PX, MIN_VIEWS, CharucoSpec, solve_charuco

    from ..hardware.cameras import resolve_source
    from ._options import settings

    cfg = settings(args)
    if resolve_source(cfg.camera) == "sim" and not (args.out or cfg.camera.lens or args.camera is not None):
        raise LensError(T("this machine has no camera (auto found no Pi camera) for the lens to go with: say which "
                          "camera took the photos (TABLEHUB_CAMERA=picamera2) or give --out FILE"))
    out = Path(args.out) if args.out else lens_path(cfg)
    spec = CharucoSpec.load(args.board) if args.board else CharucoSpec()
    min_corners = max(6, args.min_corners or spec.corners // 3)  # fewer add nothing to the solution
    min_views = args.min_views or MIN_VIEWS
    if args.photos:
        views, size, looked = views_from_photos(Path(args.photos), spec, min_corners)
        what = T("photos")
    else:
        views, size, looked = views_from_camera(cfg, spec, min_corners, args.shots, args.pause,
                                                Path(args.save) if args.save else None)
        what = T("frames")
    if len(views) < min_views:
        raise LensError(T("the board was found in {found} of {looked} {what} (with {corners}+ corners), need at least "
                          "{least}: show the whole board, tilted 10-30 degrees, in different parts of the image",
                          found=len(views), looked=looked, what=what, corners=min_corners, least=min_views))
    assert size is not None
    lens = solve_charuco(views, size, min_views=min_views, max_rms=args.max_rms or MAX_RMS_PX)
    out.parent.mkdir(parents=True, exist_ok=True)
    lens.save(out)
    k = lens.dist_coeffs
    say(T("lens from {n} views ({width}x{height}): RMS reprojection error {rms} px; k1 {k1}, k2 {k2}; it bends the "
          "frame edges by up to {shift} px", n=len(views), width=size[0], height=size[1], rms=format(lens.rms_px, ".2f"),
          k1=format(k[0], "+.4f"), k2=format(k[1], "+.4f"), shift=format(edge_shift_px(lens), ".0f")))
    say(T("wrote {path}", path=str(out)) if args.out else
        T("wrote {path} (read by 'tablehub run', 'recognize' and 'enroll')", path=str(out)))
    return 0


def _view(frame: np.ndarray, spec: "CharucoSpec", name: str) -> "BoardView | None":
    """The board corners seen in a frame (however few), or None when not one is seen."""
    from vision.calibrate import BoardView, detect_charuco

    found = detect_charuco(frame, spec, min_corners=1)
    return None if found is None else BoardView(name, *found)


def views_from_photos(folder: Path, spec: "CharucoSpec",
                      min_corners: int) -> tuple[list["BoardView"], tuple[int, int] | None, int]:
    """Board views in a folder of photos, a progress line per photo: (views, image size, photos looked at)."""
    import cv2

    from ..hardware.cameras.replay import IMAGE_SUFFIXES

    if not folder.is_dir():
        raise LensError(T("--photos {folder}: not a folder", folder=str(folder)))
    photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not photos:
        raise LensError(T("--photos {folder}: no photos there ({kinds}); take 10-20 of the board with the hub's camera",
                          folder=str(folder), kinds=", ".join(IMAGE_SUFFIXES)))
    views: list[BoardView] = []
    size: tuple[int, int] | None = None
    for photo in photos:
        frame = cv2.imread(str(photo), cv2.IMREAD_COLOR)
        if frame is None:
            say(T("{name}: not an image OpenCV can read; skipped", name=photo.name), flush=True)
            continue
        h, w = frame.shape[:2]
        if size is None:
            size = (w, h)
        elif size != (w, h):
            raise LensError(T("{path}: {width}x{height} differs from the other photos' {first_width}x{first_height}: "
                              "calibrate photos of one camera at one resolution", path=str(photo), width=w, height=h,
                              first_width=size[0], first_height=size[1]))
        view = _view(frame, spec, photo.name)
        corners = view.corners if view is not None else 0
        say(_progress(photo.name, corners, min_corners, spec), flush=True)
        if view is not None and corners >= min_corners:
            views.append(view)
    return views, size, len(photos)


def _progress(name: str, corners: int, min_corners: int, spec: "CharucoSpec") -> Any:
    if corners >= min_corners:
        return T("{name}: {corners} of {total} corners", name=name, corners=corners, total=spec.corners)
    return T("{name}: skipped, {corners} of {total} corners seen (need {least})", name=name, corners=corners,
             total=spec.corners, least=min_corners)


def views_from_camera(cfg: Config, spec: "CharucoSpec", min_corners: int, shots: int, pause_s: float,
                      save: Path | None, clock: Callable[[], float] = time.monotonic
                      ) -> tuple[list["BoardView"], tuple[int, int] | None, int]:
    """Take ``shots`` views with the configured camera, telling the person to move the board between them.

    A frame counts when enough corners are seen, ``pause_s`` has passed since the last
    shot and the board moved since then (the same pose twice adds nothing). Ctrl-C or the
    end of a replay stops early; the views so far are used.
    """
    from ..hardware.cameras import EndOfFrames, make_camera, resolve_source

    source = resolve_source(cfg.camera)
    if source == "sim":
        raise LensError(T("--camera: no camera here (auto found no Pi camera); name one (--camera {choices}) or give "
                          "--photos DIR", choices="|".join(CAMERA_CHOICES[:-1])))
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
    camera = make_camera(cfg.camera)
    say(T("camera {source}: hold the board in view; {shots} shots, {pause} s apart. Between shots move it to another "
          "part of the picture (corners too) and tilt it 10-30 degrees another way. Ctrl-C stops early.",
          source=source, shots=shots, pause=format(pause_s, "g")), flush=True)
    views: list[BoardView] = []
    size: tuple[int, int] | None = None
    looked = 0
    last_shot = -float("inf")
    said = ""
    try:
        with camera:
            while len(views) < shots:
                try:
                    frame = camera.read()
                except EndOfFrames:
                    say(T("the camera has no more frames"), flush=True)
                    break
                if clock() - last_shot < pause_s:
                    continue  # the person is moving the board
                looked += 1
                h, w = frame.shape[:2]
                size = size or (w, h)
                view = _view(frame, spec, f"shot {len(views) + 1}")
                corners = view.corners if view is not None else 0
                if view is None or corners < min_corners:
                    why: Any = T("{corners} of {total} corners seen (need {least}): show more of the board",
                                 corners=corners, total=spec.corners, least=min_corners)
                elif views and not _moved(views[-1], view, 0.03 * w):
                    why = T("the board has not moved since the last shot: move or tilt it")
                else:
                    why = ""
                if why:
                    if why != said:  # one line when the reason changes, not one per frame
                        say(T("frame {n}: skipped, {why}", n=looked, why=why), flush=True)
                        said = why
                    continue
                assert view is not None
                views.append(view)
                last_shot, said = clock(), ""
                if save is not None:
                    import cv2

                    cv2.imwrite(str(save / f"shot-{len(views):02d}.png"), frame)
                say(T("shot {n}/{shots}: {corners} of {total} corners; now move the board", n=len(views), shots=shots,
                      corners=corners, total=spec.corners) if len(views) < shots else
                    T("shot {n}/{shots}: {corners} of {total} corners", n=len(views), shots=shots, corners=corners,
                      total=spec.corners), flush=True)
    except KeyboardInterrupt:
        say(T("stopped after {n} shot(s): solving from those", n=len(views)), flush=True)
    return views, size, looked


def _moved(before: "BoardView", after: "BoardView", min_px: float) -> bool:
    """Whether the board corners both views saw moved by ``min_px`` on average (or none are shared)."""
    same = (before.object_points[:, None, :2] == after.object_points[None, :, :2]).all(axis=2)
    i, j = np.nonzero(same)
    if len(i) == 0:
        return True
    shift = np.linalg.norm(before.image_points[i] - after.image_points[j], axis=1)
    return float(shift.mean()) >= min_px
