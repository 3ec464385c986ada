"""Optional lens calibration with a ChArUco board.

Most Pi cameras over a 70 cm mat are fine without it (the homography absorbs the
rest), but a wide lens bends straight lines by millimetres near the mat's edge.
Print the board (``tablehub lens board``), show it to the camera in 10-20 poses
(tilted, in every part of the image) and solve (``tablehub lens calibrate``, or
:func:`calibrate_charuco`); the resulting :class:`LensCalibration` is saved as JSON
and given to the :class:`~vision.rectify.Rectifier`, which then undistorts marker
corners and warps.

The board uses ``DICT_5X5_100`` so that its markers are never mistaken for the mat's.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import cv2
import numpy as np

from tablehub.i18n import T, Tc, reason  # what the console reads (tablehub/locale/*/visionfiles.po)

from . import VisionError
from .markers import get_dictionary, to_grey

log = logging.getLogger(__name__)

FORMAT = "tablehub-lens/1"
SPEC_FORMAT = "tablehub-charuco/1"
MIN_VIEWS = 5
"""Fewest views of the board a calibration is solved from (10-20 are better)."""
MAX_RMS_PX = 2.0
"""Highest acceptable RMS reprojection error; a good calibration is well under 1 px."""


def undistort_pixels(pts_px: np.ndarray, K: np.ndarray, dist: np.ndarray, iterations: int = 40,
                     eps: float = 1e-7) -> np.ndarray:
    """Ideal (pinhole) pixel positions of observed pixels, iterating OpenCV's model to convergence."""
    pts = np.asarray(pts_px, np.float64).reshape(-1, 1, 2)
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, iterations, eps)
    if hasattr(cv2, "undistortPointsIter"):  # OpenCV 4.x
        out = cv2.undistortPointsIter(pts, K, dist, None, K, criteria)
    else:  # OpenCV 5: undistortPoints takes the criteria
        out = cv2.undistortPoints(pts, K, dist, None, None, K, criteria)
    return out.reshape(-1, 2)


class CalibrationError(VisionError):
    """Lens calibration failed or a lens file is unusable."""


@dataclass(frozen=True)
class CharucoSpec:
    """The printed ChArUco board: squares across and down, square and marker side in mm.

    Only the board's proportions matter to the lens: a uniformly mis-scaled print gives
    the same camera matrix and distortion (just wrong board distances, which are not used).
    """

    squares_x: int = 9
    squares_y: int = 6
    square_mm: float = 30.0
    marker_mm: float = 22.0
    dictionary: str = "DICT_5X5_100"

    def __post_init__(self) -> None:
        if self.squares_x < 3 or self.squares_y < 3:
            raise CalibrationError(T("board: expected at least 3 x 3 squares, got {columns} x {rows}", columns=self.squares_x,
                                     rows=self.squares_y))
        if not 0 < self.marker_mm < self.square_mm:
            raise CalibrationError(T("board: marker_mm ({marker}) must be positive and smaller than square_mm ({square})",
                                     marker=format(self.marker_mm, "g"), square=format(self.square_mm, "g")))
        markers = self.squares_x * self.squares_y // 2
        available = get_dictionary(self.dictionary).bytesList.shape[0]
        if markers > available:
            raise CalibrationError(T("board: {columns} x {rows} squares need {markers} markers, {dictionary} has {available}",
                                     columns=self.squares_x, rows=self.squares_y, markers=markers,
                                     dictionary=self.dictionary, available=available))

    def board(self) -> "cv2.aruco.CharucoBoard":
        return cv2.aruco.CharucoBoard((self.squares_x, self.squares_y), self.square_mm, self.marker_mm,
                                      get_dictionary(self.dictionary))

    @property
    def size_mm(self) -> tuple[float, float]:
        return (self.squares_x * self.square_mm, self.squares_y * self.square_mm)

    @property
    def corners(self) -> int:
        """Inner chessboard corners: the points a full view of the board gives."""
        return (self.squares_x - 1) * (self.squares_y - 1)

    def image(self, ppm: float, margin_mm: float = 10.0) -> np.ndarray:
        """The board drawn at ``ppm`` px/mm with a white margin (grey uint8); board origin at (margin, margin)."""
        w, h = self.size_mm
        size = (int(round((w + 2 * margin_mm) * ppm)), int(round((h + 2 * margin_mm) * ppm)))
        return self.board().generateImage(size, marginSize=int(round(margin_mm * ppm)), borderBits=1)

    def page(self, paper_mm: tuple[float, float], dpi: float, margin_mm: float = 10.0) -> np.ndarray:
        """A printable page (grey uint8, ``paper_mm`` portrait or turned) with the board centred at true size."""
        ppm = dpi / 25.4
        board = self.image(ppm, margin_mm)
        bw, bh = (v + 2 * margin_mm for v in self.size_mm)
        for pw, ph in (paper_mm, paper_mm[::-1]):
            if bw <= pw and bh <= ph:
                page = np.full((int(round(ph * ppm)), int(round(pw * ppm))), 255, np.uint8)
                y0 = (page.shape[0] - board.shape[0]) // 2
                x0 = (page.shape[1] - board.shape[1]) // 2
                page[y0:y0 + board.shape[0], x0:x0 + board.shape[1]] = board
                return page
        raise CalibrationError(T("board: {width} x {height} mm (with its margin) does not fit on {paper_width} x "
                                 "{paper_height} mm paper; take larger paper or smaller squares", width=format(bw, "g"),
                                 height=format(bh, "g"), paper_width=format(paper_mm[0], "g"),
                                 paper_height=format(paper_mm[1], "g")))

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        return {"format": SPEC_FORMAT, "squares_x": self.squares_x, "squares_y": self.squares_y,
                "square_mm": self.square_mm, "marker_mm": self.marker_mm, "dictionary": self.dictionary}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "board") -> "CharucoSpec":
        if not isinstance(data, Mapping) or data.get("format") != SPEC_FORMAT:
            got = data.get("format") if isinstance(data, Mapping) else type(data).__name__
            raise CalibrationError(T("{source}: format: expected {expected}, got {value}", source=str(source),
                                     expected=repr(SPEC_FORMAT), value=repr(got)))
        try:
            return cls(int(data["squares_x"]), int(data["squares_y"]), float(data["square_mm"]),
                       float(data["marker_mm"]), str(data.get("dictionary", cls.dictionary)))
        except KeyError as exc:
            raise CalibrationError(T("{source}: {field}: missing", source=str(source), field=exc.args[0])) from None
        except (TypeError, ValueError) as exc:
            raise CalibrationError(T("{source}: not a board description ({why})", source=str(source), why=str(exc))) from None
        except CalibrationError as exc:
            raise CalibrationError(T("{source}: {why}", source=str(source), why=reason(exc))) from None

    def save(self, path: str | Path) -> Path:
        return _write_json(path, self.to_dict())

    @classmethod
    def load(cls, path: str | Path) -> "CharucoSpec":
        return cls.from_dict(_read_json(path, Tc("file", "board file")), str(path))


@dataclass(frozen=True)
class LensCalibration:
    """Camera matrix and OpenCV distortion coefficients (k1, k2, p1, p2, k3) for one image size."""

    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    image_size: tuple[int, int]
    rms_px: float = 0.0
    views: int = 0

    def for_size(self, size: tuple[int, int]) -> "LensCalibration":
        """The same lens for frames of another resolution (same aspect ratio, scaled sensor readout)."""
        if tuple(size) == tuple(self.image_size):
            return self
        sx, sy = size[0] / self.image_size[0], size[1] / self.image_size[1]
        if abs(sx - sy) > 0.01:
            raise CalibrationError(T("lens calibrated for {width}x{height} does not fit {frame_width}x{frame_height} frames "
                                     "(other aspect ratio); recalibrate", width=self.image_size[0],
                                     height=self.image_size[1], frame_width=size[0], frame_height=size[1]))
        K = self.camera_matrix.copy()
        K[0] *= sx
        K[1] *= sy
        return LensCalibration(K, self.dist_coeffs.copy(), (int(size[0]), int(size[1])), self.rms_px, self.views)

    def undistort_points(self, pts_px: np.ndarray) -> np.ndarray:
        """Pixel positions an ideal pinhole camera with the same matrix would have seen."""
        return undistort_pixels(pts_px, self.camera_matrix, self.dist_coeffs)

    def distort_points(self, pts_px: np.ndarray) -> np.ndarray:
        """Inverse of :meth:`undistort_points`: where ideal pixel positions land in the real image."""
        pts = np.asarray(pts_px, np.float64).reshape(-1, 2)
        K = self.camera_matrix
        k = np.zeros(5)
        k[:min(5, self.dist_coeffs.size)] = self.dist_coeffs.ravel()[:5]
        k1, k2, p1, p2, k3 = k
        x = (pts[:, 0] - K[0, 2]) / K[0, 0]
        y = (pts[:, 1] - K[1, 2]) / K[1, 1]
        r2 = x * x + y * y
        radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 ** 3
        xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
        yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        return np.column_stack([xd * K[0, 0] + K[0, 2], yd * K[1, 1] + K[1, 2]])

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "image_size": list(self.image_size), "camera_matrix": self.camera_matrix.tolist(),
                "dist_coeffs": self.dist_coeffs.ravel().tolist(), "rms_px": self.rms_px, "views": self.views}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "lens") -> "LensCalibration":
        if not isinstance(data, Mapping):
            raise CalibrationError(T("{source}: not a lens calibration (a JSON object is expected)", source=str(source)))
        try:
            if data.get("format", FORMAT) != FORMAT:
                raise CalibrationError(T("{source}: format: expected {expected}, got {value}", source=str(source),
                                         expected=repr(FORMAT), value=repr(data.get("format"))))
            K = np.asarray(data["camera_matrix"], np.float64)
            dist = np.asarray(data["dist_coeffs"], np.float64).ravel()
            size = tuple(int(v) for v in data["image_size"])
        except KeyError as exc:
            raise CalibrationError(T("{source}: {field}: missing", source=str(source), field=exc.args[0])) from None
        except (TypeError, ValueError) as exc:
            raise CalibrationError(T("{source}: not a lens calibration ({why})", source=str(source), why=str(exc))) from None
        if K.shape != (3, 3) or dist.size not in (4, 5, 8, 12, 14) or len(size) != 2:
            raise CalibrationError(T("{source}: camera_matrix must be 3x3 and dist_coeffs 4, 5, 8, 12 or 14 numbers",
                                     source=str(source)))
        return cls(K, dist, (size[0], size[1]), float(data.get("rms_px", 0.0)), int(data.get("views", 0)))

    def save(self, path: str | Path) -> Path:
        return _write_json(path, self.to_dict())

    @classmethod
    def load(cls, path: str | Path) -> "LensCalibration":
        return cls.from_dict(_read_json(path, Tc("file", "lens file")), str(path))


def _write_json(path: str | Path, data: Any) -> Path:
    path = Path(path)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return path


def _read_json(path: str | Path, what: str) -> Any:
    path = Path(path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CalibrationError(T("{path}: cannot read the {what} ({why})", path=str(path), what=what,
                                 why=exc.strerror or str(exc))) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        if isinstance(exc, json.JSONDecodeError):
            raise CalibrationError(T("{source}: not valid JSON (line {line}, column {column}: {why})", source=str(path),
                                     line=exc.lineno, column=exc.colno, why=exc.msg)) from None
        raise CalibrationError(T("{path}: the {what} is not UTF-8 text", path=str(path), what=what)) from None


@lru_cache(maxsize=4)
def _detector(spec: CharucoSpec) -> tuple["cv2.aruco.CharucoBoard", "cv2.aruco.CharucoDetector"]:
    board = spec.board()
    return board, cv2.aruco.CharucoDetector(board)


def detect_charuco(frame: np.ndarray, spec: CharucoSpec,
                   min_corners: int = 6) -> tuple[np.ndarray, np.ndarray] | None:
    """Board corners seen in one frame: (object points (n, 3) mm, image points (n, 2) px), or None.

    None when fewer than ``min_corners`` chessboard corners are seen (6 is about the least
    a view can add to a calibration; a third of the board or more makes a useful view).
    """
    board, detector = _detector(spec)
    corners, ids, _mc, _mi = detector.detectBoard(to_grey(frame))
    need = max(1, int(min_corners))
    if ids is None or len(ids) < need:
        return None
    obj, img = board.matchImagePoints(corners, ids)
    if obj is None or len(obj) < need:
        return None
    return obj.reshape(-1, 3).astype(np.float32), img.reshape(-1, 2).astype(np.float32)


@dataclass(frozen=True)
class BoardView:
    """The board corners found in one photo or frame, named for messages (a file name, "shot 3")."""

    name: str
    object_points: np.ndarray  # (n, 3) board mm
    image_points: np.ndarray   # (n, 2) px

    @property
    def corners(self) -> int:
        return len(self.image_points)


def solve_charuco(views: Sequence[BoardView], size: tuple[int, int], min_views: int = MIN_VIEWS,
                  max_rms: float = MAX_RMS_PX, fix_k3: bool = True) -> LensCalibration:
    """The lens from board views of one image ``size`` (w, h). Raises :class:`CalibrationError` with advice.

    Refuses too few views, a reprojection error above ``max_rms`` (naming the worst views,
    the ones to drop) and solutions that :func:`check_plausible` rejects. ``fix_k3`` keeps
    the sixth-order radial term at 0: boards rarely reach the image corners, where a free
    k3 would extrapolate wildly; Pi camera lenses do not need it.
    """
    if len(views) < min_views:
        raise CalibrationError(T("calibration: the board was found in {found} frame(s), need at least {least}; show the "
                                 "whole board, tilted, in different parts of the image", found=len(views),
                                 least=min_views))
    flags = cv2.CALIB_FIX_K3 if fix_k3 else 0
    obj = [v.object_points for v in views]
    img = [v.image_points for v in views]
    rms, K, dist, _r, _t, _std_in, _std_ex, per_view = cv2.calibrateCameraExtended(
        obj, img, (int(size[0]), int(size[1])), None, None, flags=flags)
    log.info("lens calibration from %d views: rms %.3f px", len(views), rms)
    if not np.isfinite(rms) or rms > max_rms:
        order = np.argsort(-per_view.ravel())[:3]
        worst = ", ".join(f"{views[i].name} {float(per_view.ravel()[i]):.2f} px" for i in order)
        raise CalibrationError(T("calibration: reprojection error {rms} px is too high (worst views: {worst}): drop "
                                 "blurred or glare-struck photos and check the board is flat, then run again",
                                 rms=format(rms, ".2f"), worst=worst))
    lens = LensCalibration(K, dist.ravel()[:5] if dist.size >= 5 else dist.ravel(), (int(size[0]), int(size[1])),
                           float(rms), len(views))
    check_plausible(lens)
    return lens


def check_plausible(lens: LensCalibration) -> None:
    """Refuse a solution that fits the views but cannot be used as the lens.

    The camera matrix need not be exact for the mat (a board seen only face-on leaves
    the focal length loose, and the mat's homography absorbs that), but a focal length
    or image centre far out of range means the solver went astray, and a distortion that
    folds the image over near its edges (undistorting and distorting again does not come
    back) would throw markers there miles off.
    """
    w, h = lens.image_size
    K = lens.camera_matrix
    advice = T("tilt the board 10-30 degrees in different directions and show it in every part of the image")
    fx, fy, cx, cy = K[0, 0], K[1, 1], K[0, 2], K[1, 2]
    if not (0.2 * w < fx < 20 * w and 0.2 * w < fy < 20 * w and 0.8 < fx / fy < 1.25):
        raise CalibrationError(T("calibration: focal length {fx} x {fy} px is implausible for {width}x{height} frames; "
                                 "{advice}", fx=format(fx, ".0f"), fy=format(fy, ".0f"), width=w, height=h,
                                 advice=advice))
    if abs(cx - w / 2) > 0.25 * w or abs(cy - h / 2) > 0.25 * h:
        raise CalibrationError(T("calibration: image centre found at ({x}, {y}), far from the middle of {width}x{height} "
                                 "frames; {advice}", x=format(cx, ".0f"), y=format(cy, ".0f"), width=w, height=h,
                                 advice=advice))
    border = np.array([[0, 0], [w / 2, 0], [w - 1, 0], [w - 1, h / 2], [w - 1, h - 1], [w / 2, h - 1],
                       [0, h - 1], [0, h / 2]], np.float64)
    back = lens.distort_points(lens.undistort_points(border))
    if not np.all(np.isfinite(back)) or float(np.abs(back - border).max()) > 0.5:
        raise CalibrationError(T("calibration: the fitted distortion folds over near the image edges (the board "
                                 "never reached them); take more shots with the board near each corner"))


def calibrate_charuco(frames: Iterable[np.ndarray], spec: CharucoSpec = CharucoSpec(),
                      min_views: int = MIN_VIEWS, fix_k3: bool = True,
                      max_rms: float = MAX_RMS_PX) -> LensCalibration:
    """Calibrate from frames showing the ChArUco board. Raises :class:`CalibrationError` with advice."""
    views: list[BoardView] = []
    size: tuple[int, int] | None = None
    for i, frame in enumerate(frames):
        h, w = frame.shape[:2]
        if size is None:
            size = (w, h)
        elif size != (w, h):
            raise CalibrationError(T("frame {i}: {width}x{height} differs from the first frame's {first_width}x{first_height}",
                                     i=i, width=w, height=h, first_width=size[0], first_height=size[1]))
        found = detect_charuco(frame, spec)
        if found is None:
            log.info("frame %d: board not found", i)
            continue
        views.append(BoardView(f"frame {i}", *found))
    return solve_charuco(views, size or (0, 0), min_views, max_rms, fix_k3)
