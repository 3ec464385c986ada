"""From camera frames to a top-down canvas in millimetres.

:class:`Rectifier` finds the mat's markers, fits the homography from image pixels
to mat millimetres, and warps frames onto a canvas where canvas pixel
``(i, j)`` is mat point ``(i / px_per_mm, j / px_per_mm)`` mm.

- Four markers: a fresh homography (kept identical while it moves less than
  ``stable_mm``, so that consecutive canvases can be compared pixel by pixel).
- Three markers (a hand over one): the last good homography when the three still
  agree with it, else a homography from the three (12 corners).
- One or two markers: the last good homography if they agree with it; else an error.
- A homography that moved more than ``moved_mm`` from the last good one is reported
  as ``moved`` (a bumped camera or mat).

Errors are :class:`MarkersNotFound` (names the missing marker ids and why they may be
missing) and :class:`BadFrame` (blank, dark or overexposed frames).

>>> from vision.mat import Mat
>>> rect = Rectifier(Mat.default(), px_per_mm=2.0)
>>> rect.canvas_size
(1400, 1400)
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from tablehub.i18n import N_, T, chain, comma  # what a phone reads (tablehub/locale/*/vision.po)

from . import VisionError
from .calibrate import LensCalibration
from .markers import MarkerDetection, detect_markers, to_grey, verify_marker
from .mat import Mat

log = logging.getLogger(__name__)


#: where a marker lies (:meth:`vision.mat.Mat.marker_label`), in the reader's language
PLACES = {"top-left": T("top-left"), "top-centre": T("top-centre"), "top-right": T("top-right"),
          "middle-left": T("middle-left"), "middle-centre": T("middle-centre"), "middle-right": T("middle-right"),
          "bottom-left": T("bottom-left"), "bottom-centre": T("bottom-centre"), "bottom-right": T("bottom-right")}


class BadFrame(VisionError):
    """The frame shows nothing usable (blank, too dark, overexposed)."""


class MarkersNotFound(VisionError):
    """Too few mat markers are visible to place the frame on the mat."""

    def __init__(self, message: str, missing: tuple[int, ...], seen: tuple[int, ...]):
        super().__init__(message)
        self.missing = missing
        self.seen = seen


@dataclass
class Location:
    """Where the mat is in one frame.

    ``homography`` maps image pixels (undistorted ones when the rectifier has a lens
    calibration) to mat mm. ``source`` is ``"markers"`` (fitted on this frame),
    ``"kept"`` (the last good homography, confirmed by the markers seen) or
    ``"partial"`` (fitted on 3 markers, no earlier one to trust).
    """

    homography: np.ndarray
    seen: tuple[int, ...]
    missing: tuple[int, ...]
    source: str
    moved: bool = False
    moved_mm: float = 0.0
    residual_mm: float = 0.0
    warnings: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.missing


def check_frame(frame: np.ndarray) -> None:
    """Raise :class:`BadFrame` for frames that cannot show the mat (blank, dark, overexposed)."""
    if frame is None or not hasattr(frame, "shape") or frame.size == 0:
        raise BadFrame(T("frame: empty image (is the camera connected?)"))
    grey = to_grey(frame)
    small = cv2.resize(grey, (160, 90), interpolation=cv2.INTER_AREA) if grey.shape[1] > 320 else grey
    mean, std = float(small.mean()), float(small.std())
    saturated = float((small >= 250).mean())
    if mean < 25:
        raise BadFrame(T("frame: too dark (mean brightness {mean}/255): lens cap on? turn on the light or "
                         "raise the camera exposure", mean=format(mean, ".0f")))
    if std < 3.0:
        raise BadFrame(T("frame: blank image (uniform brightness {mean}/255): camera covered or not "
                         "delivering pictures?", mean=format(mean, ".0f")))
    if saturated > 0.4:
        raise BadFrame(T("frame: overexposed ({share} of the image is white): lower the camera "
                         "exposure or dim the light on the table", share=format(saturated, ".0%")))


def _fit(img_pts: np.ndarray, mat_pts: np.ndarray) -> np.ndarray:
    H, _ = cv2.findHomography(img_pts.astype(np.float64), mat_pts.astype(np.float64), 0)
    if H is None:
        raise VisionError(T("markers: could not fit a homography (markers degenerate)"))
    return H / H[2, 2]


def _apply(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    pts = np.asarray(pts, np.float64).reshape(-1, 2)
    p = np.column_stack([pts, np.ones(len(pts))]) @ H.T
    return p[:, :2] / p[:, 2:3]


class Rectifier:
    """Mat finder and top-down warper for one camera. Keeps the last good homography between frames."""

    def __init__(self, mat: Mat, px_per_mm: float = 2.0, lens: LensCalibration | None = None,
                 moved_mm: float = 2.0, stable_mm: float = 0.5):
        if px_per_mm <= 0:
            raise VisionError(T("px_per_mm: expected a positive scale, got {value}", value=px_per_mm))
        self.mat = mat
        self.px_per_mm = float(px_per_mm)
        self.lens = lens
        self.moved_mm = float(moved_mm)
        self.stable_mm = float(stable_mm)
        self.last: Location | None = None
        self._maps_key: tuple | None = None
        self._maps: tuple[np.ndarray, np.ndarray] | None = None
        self._mat_pts = {mid: np.array(mat.marker_corners_mm(mid), np.float64) for mid in mat.marker_ids}
        x, y, w, h = mat.play_rect_mm
        self._probe_mm = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h], [x + w / 2, y + h / 2]])

    # ------------------------------------------------------------------ geometry helpers
    @property
    def canvas_size(self) -> tuple[int, int]:
        """(width, height) of the canvas in pixels: the whole mat."""
        return (int(np.ceil(self.mat.width_mm * self.px_per_mm)), int(np.ceil(self.mat.height_mm * self.px_per_mm)))

    @property
    def scale(self) -> np.ndarray:
        s = self.px_per_mm
        return np.array([[s, 0, 0], [0, s, 0], [0, 0, 1]], np.float64)

    def reset(self) -> None:
        """Forget the last good homography (after the camera or mat was moved on purpose)."""
        self.last = None

    def _lens_for(self, shape: tuple[int, ...]) -> LensCalibration | None:
        if self.lens is None:
            return None
        return self.lens.for_size((shape[1], shape[0]))

    def image_to_mat(self, pts_px: np.ndarray, location: Location | None = None,
                     frame_size: tuple[int, int] | None = None) -> np.ndarray:
        """Mat mm of image pixels (raw frame pixels; the lens is undone first when there is one)."""
        loc = location or self.last
        if loc is None:
            raise VisionError(T("rectifier: the mat has not been located yet"))
        pts = np.asarray(pts_px, np.float64).reshape(-1, 2)
        if self.lens is not None:
            lens = self.lens if frame_size is None else self.lens.for_size(frame_size)
            pts = lens.undistort_points(pts)
        return _apply(loc.homography, pts)

    def mat_to_image(self, pts_mm: np.ndarray, location: Location | None = None,
                     frame_size: tuple[int, int] | None = None) -> np.ndarray:
        """Raw frame pixels of mat points."""
        loc = location or self.last
        if loc is None:
            raise VisionError(T("rectifier: the mat has not been located yet"))
        pts = _apply(np.linalg.inv(loc.homography), pts_mm)
        if self.lens is not None:
            lens = self.lens if frame_size is None else self.lens.for_size(frame_size)
            pts = lens.distort_points(pts)
        return pts

    def shift_mm(self, H_a: np.ndarray, H_b: np.ndarray) -> float:
        """How far (mm, worst point of the play area) two image->mat homographies disagree."""
        img = _apply(np.linalg.inv(H_a), self._probe_mm)
        return float(np.max(np.linalg.norm(_apply(H_b, img) - self._probe_mm, axis=1)))

    # ------------------------------------------------------------------ locating
    def locate(self, frame: np.ndarray) -> Location:
        """Find the mat in ``frame``; raises :class:`BadFrame` or :class:`MarkersNotFound`."""
        check_frame(frame)
        loc = self._located(frame)
        if loc.moved:
            # the camera or mat moved: the last location's search windows were off, and a marker they missed was
            # rescued where the others put it, its corners refined from there (0.1-0.3 px from where a search of
            # the frame finds them, issue 14 session suedfig11). Read the frame as a first one, so that where the
            # camera now stands reads the same whatever frame came before.
            kept, self.last = self.last, None
            try:
                first = self._located(frame)
            except VisionError:
                first = None
            finally:
                self.last = kept
            if first is not None:
                loc = Location(first.homography, first.seen, first.missing, first.source, True, loc.moved_mm,
                               first.residual_mm, [loc.warnings[-1], *first.warnings])
        if loc.source != "kept":
            self.last = loc
        for w in loc.warnings:
            log.info("%s", w)
        return loc

    def _located(self, frame: np.ndarray) -> Location:
        """The mat's location in ``frame``, its markers searched first where the last location puts them."""
        det = detect_markers(frame, self.mat, expected=self._expected_quads(frame.shape),
                             wide=self.last is None)
        lens = self._lens_for(frame.shape)
        if det.missing:
            self._rescue(frame, det, lens)
        corners = det.corners
        if lens is not None:
            corners = {mid: lens.undistort_points(c) for mid, c in corners.items()}
        return self._from_detection(det, corners, frame.shape)

    def _expected_quads(self, shape: tuple[int, ...]) -> dict[int, np.ndarray] | None:
        """Where the last good homography puts each marker in a frame of ``shape`` (raw pixels), or None.

        The marker search looks there first (small windows, cheap on a busy tablecloth) and scans the
        whole frame only when fewer than three markers turn up there. Without an earlier location the
        whole frame is searched, falling back to any marker size; with one, a failing search stops at
        the plausible sizes (a covered marker is not found by looking harder)."""
        if self.last is None:
            return None
        size = (shape[1], shape[0])
        return {mid: self.mat_to_image(pts, self.last, size) for mid, pts in self._mat_pts.items()}

    def _rescue(self, frame: np.ndarray, det: MarkerDetection, lens: LensCalibration | None) -> None:
        """Look for missing markers where the others (or the last good homography) say they are."""
        if len(det.corners) >= 3:
            seen = sorted(det.corners)
            img = np.concatenate([det.corners[m] for m in seen])
            if lens is not None:
                img = lens.undistort_points(img)
            H = _fit(img, np.concatenate([self._mat_pts[m] for m in seen]))
        elif self.last is not None:
            H = self.last.homography
        else:
            return
        grey = to_grey(frame)
        h, w = frame.shape[:2]
        for mid in list(det.missing):
            quad = _apply(np.linalg.inv(H), self._mat_pts[mid])
            if lens is not None:
                quad = lens.distort_points(quad)
            found = verify_marker(grey, quad, self.mat.dictionary, mid)
            if found is not None:
                det.corners[mid] = found
                log.debug("marker %d found where expected", mid)
        det.missing = tuple(m for m in self.mat.marker_ids if m not in det.corners)

    def _residual(self, H: np.ndarray, corners: dict[int, np.ndarray]) -> float:
        errs = [np.linalg.norm(_apply(H, c) - self._mat_pts[mid], axis=1) for mid, c in corners.items()]
        return float(np.sqrt(np.mean(np.concatenate(errs) ** 2))) if errs else 0.0

    def _from_detection(self, det: MarkerDetection, corners: dict[int, np.ndarray],
                        shape: tuple[int, ...]) -> Location:
        seen = tuple(sorted(corners))
        missing = det.missing
        last = self.last
        warnings: list[str] = []
        if missing:
            warnings.append(self._missing_message(det, shape, len(seen) >= 3 or last is not None))
        if det.foreign:
            warnings.append(f"markers {_ids(det.foreign)} are not on this mat ({self.mat.name}): another mat "
                            "file, or a stray marker on the table?")
        if len(seen) >= 3:
            img = np.concatenate([corners[m] for m in seen])
            ref = np.concatenate([self._mat_pts[m] for m in seen])
            H = _fit(img, ref)
            residual = self._residual(H, corners)
            if len(seen) >= 4 and residual > 2.0:
                # one marker may be misdetected or peeled off: try without each in turn
                best = min(((self._residual(_fit(np.concatenate([corners[m] for m in seen if m != drop]),
                                                 np.concatenate([self._mat_pts[m] for m in seen if m != drop])),
                                            {m: corners[m] for m in seen if m != drop}), drop) for drop in seen))
                if best[0] < residual / 3:
                    drop = best[1]
                    warnings.append(f"marker {drop} ({self.mat.marker_label(drop)}) is not where the mat file "
                                    f"says; ignoring it (moved or re-stuck?)")
                    keep = [m for m in seen if m != drop]
                    H = _fit(np.concatenate([corners[m] for m in keep]),
                             np.concatenate([self._mat_pts[m] for m in keep]))
                    residual = best[0]
            if last is None:
                return Location(H, seen, missing, "markers" if not missing else "partial",
                                residual_mm=residual, warnings=warnings)
            moved = self.shift_mm(last.homography, H)
            if moved > self.moved_mm:
                warnings.append(f"camera or mat moved by {moved:.1f} mm since the last frame; re-located")
                return Location(H, seen, missing, "markers" if not missing else "partial", True, moved, residual,
                                warnings)
            if missing or moved <= self.stable_mm:
                # keep the canvas identical: the earlier homography still fits the markers seen
                return Location(last.homography, seen, missing, "kept" if missing else "markers", False, moved,
                                self._residual(last.homography, corners), warnings)
            return Location(H, seen, missing, "markers", False, moved, residual, warnings)
        # fewer than three markers
        if last is not None and seen:
            residual = self._residual(last.homography, corners)
            if residual <= self.moved_mm:
                return Location(last.homography, seen, missing, "kept", False, residual, residual, warnings)
            raise MarkersNotFound(T("markers: only {seen} visible and they moved by {mm} mm: the camera or mat was "
                                    "bumped; uncover markers {missing} to re-locate", seen=_ids(seen),
                                    mm=format(residual, ".1f"), missing=_ids(missing)), missing, seen)
        raise MarkersNotFound(self._missing_message(det, shape, False), missing, seen)

    def _missing_message(self, det: MarkerDetection, shape: tuple[int, ...], coping: bool) -> Any:
        why = []
        h, w = shape[:2]
        for mid in det.missing:
            place = self.mat.marker_label(mid)
            label: Any = T("{where} ({kind})", where=mid, kind=PLACES.get(place, place))  # the core's "x (y)"
            if self.last is not None:
                quad = self.mat_to_image(np.array(self.mat.marker_corners_mm(mid)), self.last, (w, h))
                centre = quad.mean(axis=0)
                label = T("{marker}, expected at ({x}, {y}) px", marker=label, x=format(centre[0], ".0f"),
                          y=format(centre[1], ".0f"))
                if (quad[:, 0] < 0).any() or (quad[:, 1] < 0).any() or (quad[:, 0] >= w).any() or \
                        (quad[:, 1] >= h).any():
                    why.append(T("{marker}, out of the camera's view", marker=label))
                    continue
                side = float(np.linalg.norm(quad[0] - quad[1]))
                if min(quad[:, 0].min(), quad[:, 1].min(), w - 1 - quad[:, 0].max(), h - 1 - quad[:, 1].max()) \
                        < side / 6:
                    why.append(T("{marker}, its white border cut by the frame's edge", marker=label))
                    continue
                size = float(np.linalg.norm(quad[0] - quad[2]))
                if any(np.linalg.norm(r.mean(axis=0) - centre) < size for r in det.rejected):
                    why.append(T("{marker} partly hidden or blurred", marker=label))
                    continue
                why.append(T("{marker} hidden", marker=label))
            else:
                why.append(label)
        need = len(self.mat.marker_ids) - 1
        found = comma([T("{marker} at ({x}, {y}) px", marker=m, x=format(c.mean(axis=0)[0], ".0f"),
                         y=format(c.mean(axis=0)[1], ".0f")) for m, c in sorted(det.corners.items())])
        missing = chain(why, N_("{first}; {next}"))
        if coping:
            return T("markers: {missing}; using the {n} markers seen ({found})", missing=missing,
                     n=len(det.corners), found=found)
        seen = T("only {found} seen", found=found) if det.corners else T("none seen")
        return T("markers: cannot place the frame on the mat, missing markers {missing} ({seen}; need {need} of "
                 "{ids}): uncover them, check the light, or that the camera sees the whole mat", missing=missing,
                 seen=seen, need=need, ids=_ids(self.mat.marker_ids))

    # ------------------------------------------------------------------ warping
    def canvas_homography(self, location: Location) -> np.ndarray:
        """Homography from (undistorted) image pixels to canvas pixels."""
        return self.scale @ location.homography

    def warp(self, frame: np.ndarray, location: Location | None = None,
             interpolation: int = cv2.INTER_LINEAR) -> np.ndarray:
        """The frame seen top-down: ``canvas_size`` image, canvas pixel = mat mm * px_per_mm."""
        loc = location if location is not None else self.locate(frame)
        size = self.canvas_size
        Hc = self.canvas_homography(loc)
        lens = self._lens_for(frame.shape)
        if lens is None:
            return cv2.warpPerspective(frame, Hc, size, flags=interpolation, borderMode=cv2.BORDER_CONSTANT)
        key = (Hc.tobytes(), size, lens.camera_matrix.tobytes(), lens.dist_coeffs.tobytes())
        if key != self._maps_key:
            w, h = size
            ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
            pts = np.column_stack([xs.ravel(), ys.ravel()])
            und = _apply(np.linalg.inv(Hc), pts)
            src = lens.distort_points(und).astype(np.float32)
            self._maps = (src[:, 0].reshape(h, w), src[:, 1].reshape(h, w))
            self._maps_key = key
        assert self._maps is not None
        return cv2.remap(frame, self._maps[0], self._maps[1], interpolation, borderMode=cv2.BORDER_CONSTANT)


def _ids(ids) -> str:
    return ", ".join(str(i) for i in ids)
