"""Optional lens calibration with a ChArUco board.

Most Pi cameras over a 70 cm mat are fine without it (the homography absorbs the
rest), but a wide lens bends straight lines by millimetres near the mat's edge.
Print the board (``tablehub markers --charuco``), show it to the camera in 10-20
poses (tilted, in every part of the image), and run :func:`calibrate_charuco`; the
resulting :class:`LensCalibration` is saved as JSON and given to the
:class:`~vision.rectify.Rectifier`, which then undistorts marker corners and warps.

The board uses ``DICT_5X5_100`` so that its markers are never mistaken for the mat's.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

import cv2
import numpy as np

from . import VisionError
from .markers import get_dictionary, to_grey

log = logging.getLogger(__name__)

FORMAT = "tablehub-lens/1"


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
    """The printed ChArUco board: squares across and down, square and marker side in mm."""

    squares_x: int = 9
    squares_y: int = 6
    square_mm: float = 30.0
    marker_mm: float = 22.0
    dictionary: str = "DICT_5X5_100"

    def board(self) -> "cv2.aruco.CharucoBoard":
        return cv2.aruco.CharucoBoard((self.squares_x, self.squares_y), self.square_mm, self.marker_mm,
                                      get_dictionary(self.dictionary))

    @property
    def size_mm(self) -> tuple[float, float]:
        return (self.squares_x * self.square_mm, self.squares_y * self.square_mm)

    def image(self, ppm: float, margin_mm: float = 10.0) -> np.ndarray:
        """The board drawn at ``ppm`` px/mm with a white margin (grey uint8); board origin at (margin, margin)."""
        w, h = self.size_mm
        size = (int(round((w + 2 * margin_mm) * ppm)), int(round((h + 2 * margin_mm) * ppm)))
        return self.board().generateImage(size, marginSize=int(round(margin_mm * ppm)), borderBits=1)


@dataclass(frozen=True)
class LensCalibration:
    """Camera matrix and OpenCV distortion coefficients (k1, k2, p1, p2, k3) for one image size."""

    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    image_size: tuple[int, int]
    rms_px: float = 0.0

    def for_size(self, size: tuple[int, int]) -> "LensCalibration":
        """The same lens for frames of another resolution (same aspect ratio, scaled sensor readout)."""
        if tuple(size) == tuple(self.image_size):
            return self
        sx, sy = size[0] / self.image_size[0], size[1] / self.image_size[1]
        if abs(sx - sy) > 0.01:
            raise CalibrationError(f"lens calibrated for {self.image_size[0]}x{self.image_size[1]} "
                                   f"does not fit {size[0]}x{size[1]} frames (other aspect ratio); recalibrate")
        K = self.camera_matrix.copy()
        K[0] *= sx
        K[1] *= sy
        return LensCalibration(K, self.dist_coeffs.copy(), (int(size[0]), int(size[1])), self.rms_px)

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
                "dist_coeffs": self.dist_coeffs.ravel().tolist(), "rms_px": self.rms_px}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "lens") -> "LensCalibration":
        try:
            if data.get("format", FORMAT) != FORMAT:
                raise CalibrationError(f"{source}: format: expected {FORMAT!r}, got {data.get('format')!r}")
            K = np.asarray(data["camera_matrix"], np.float64)
            dist = np.asarray(data["dist_coeffs"], np.float64).ravel()
            size = tuple(int(v) for v in data["image_size"])
        except KeyError as exc:
            raise CalibrationError(f"{source}: {exc.args[0]}: missing") from None
        except (TypeError, ValueError) as exc:
            raise CalibrationError(f"{source}: not a lens calibration ({exc})") from None
        if K.shape != (3, 3) or dist.size not in (4, 5, 8, 12, 14) or len(size) != 2:
            raise CalibrationError(f"{source}: camera_matrix must be 3x3 and dist_coeffs 4, 5, 8, 12 or 14 numbers")
        return cls(K, dist, (size[0], size[1]), float(data.get("rms_px", 0.0)))

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: str | Path) -> "LensCalibration":
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CalibrationError(f"{path}: cannot read the lens file ({exc.strerror or exc})") from None
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
        return cls.from_dict(data, str(path))


def detect_charuco(frame: np.ndarray, spec: CharucoSpec) -> tuple[np.ndarray, np.ndarray] | None:
    """Board corners seen in one frame: (object points (n, 3) mm, image points (n, 2) px), or None."""
    board = spec.board()
    detector = cv2.aruco.CharucoDetector(board)
    corners, ids, _mc, _mi = detector.detectBoard(to_grey(frame))
    if ids is None or len(ids) < 6:
        return None
    obj, img = board.matchImagePoints(corners, ids)
    if obj is None or len(obj) < 6:
        return None
    return obj.reshape(-1, 3).astype(np.float32), img.reshape(-1, 2).astype(np.float32)


def calibrate_charuco(frames: Iterable[np.ndarray], spec: CharucoSpec = CharucoSpec(),
                      min_views: int = 5, fix_k3: bool = True) -> LensCalibration:
    """Calibrate from frames showing the ChArUco board. Raises :class:`CalibrationError` with advice.

    ``fix_k3`` keeps the sixth-order radial term at 0: boards rarely reach the image
    corners, where a free k3 would extrapolate wildly; Pi camera lenses do not need it.
    """
    obj_pts, img_pts = [], []
    size: tuple[int, int] | None = None
    used = 0
    for i, frame in enumerate(frames):
        h, w = frame.shape[:2]
        if size is None:
            size = (w, h)
        elif size != (w, h):
            raise CalibrationError(f"frame {i}: {w}x{h} differs from the first frame's {size[0]}x{size[1]}")
        found = detect_charuco(frame, spec)
        if found is None:
            log.info("frame %d: board not found", i)
            continue
        obj_pts.append(found[0])
        img_pts.append(found[1])
        used += 1
    if size is None or used < min_views:
        raise CalibrationError(f"calibration: the board was found in {used} frame(s), need at least {min_views}; "
                               "show the whole board, tilted, in different parts of the image")
    flags = cv2.CALIB_FIX_K3 if fix_k3 else 0
    rms, K, dist, _r, _t = cv2.calibrateCamera(obj_pts, img_pts, size, None, None, flags=flags)
    log.info("lens calibration from %d views: rms %.3f px", used, rms)
    if rms > 2.0:
        raise CalibrationError(f"calibration: reprojection error {rms:.2f} px is too high (blurred frames, or "
                               "the board printed at the wrong scale / not flat)")
    return LensCalibration(K, dist.ravel()[:5] if dist.size >= 5 else dist.ravel(), size, float(rms))
