"""Finding a printed board in a frame by its own art: feature registration against the enrolled
empty board, and noticing when the board was bumped.

A printed board is its own reference. Once, the owner photographs the empty board
(:meth:`BoardReference.from_photo`: the board's edge straightens it to board millimetres, or
the caller gives the four corners); every frame is then matched against that picture: ORB
features (OpenCV's standard, in opencv-python-headless 4.11 and newer), Lowe's ratio test,
a RANSAC homography, refined on its inliers. With a lens calibration the frame's keypoints are
undistorted first, so the homography is exact for a flat board. The result maps frame pixels
to board millimetres (:class:`Registration`), warps the frame to a straight canvas the size of
the reference, and is checked: too few inliers or a board that does not fit its own size is
refused (``None``) rather than guessed.

:class:`BoardTracker` keeps the last registration: each frame's new one is compared with it
over the board's corners; a shift beyond ``bump_mm`` means the board was bumped (reported, and
the new registration replaces the old); a frame that cannot be registered (a hand over most
of the board) keeps the last one and says so.

With a mat (:class:`MatAnchor`: the mat's four ArUco markers round the board) the tracker also
learns where the board lies on the mat: a frame whose art cannot be matched (a sheet or hands
over most of the board) is registered through the markers and that placement, and the
placement is the check that the board, not the camera, moved.
No rules here: the board's size in millimetres is data from the caller.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from tablehub.i18n import T  # what a phone and the console read (tablehub/locale/*/visionfiles.po)

from . import VisionError
from .boards import find_board
from .boardrefine import PatchRefiner
from .calibrate import LensCalibration


MAP_STEP = 8
"""Canvas pixels between the exactly computed points of the resampling maps (:func:`warp_maps`)."""


def _orb(n: int) -> "cv2.ORB":
    return cv2.ORB_create(nfeatures=n, scaleFactor=1.2, nlevels=8, edgeThreshold=15, patchSize=31, fastThreshold=10)


def _grey(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img


class BoardEdgeNotFound(VisionError):
    """No corners were given and the board's edge was not found in the photo (the phone then asks for taps)."""


@dataclass
class BoardReference:
    """The empty board, straight, at ``ppm`` px/mm (``canvas``), with its ORB features in board mm."""

    canvas: np.ndarray
    ppm: float
    points_mm: np.ndarray = field(repr=False)
    descriptors: np.ndarray = field(repr=False)

    @property
    def size_mm(self) -> tuple[float, float]:
        h, w = self.canvas.shape[:2]
        return (w / self.ppm, h / self.ppm)

    @classmethod
    def from_canvas(cls, canvas: np.ndarray, ppm: float, features: int = 3000) -> "BoardReference":
        if canvas is None or canvas.ndim != 3 or min(canvas.shape[:2]) < 50:
            raise VisionError(T("board reference: the picture is empty or not a colour picture"))
        kps, desc = _orb(features).detectAndCompute(_grey(canvas), None)
        if desc is None or len(kps) < 50:
            raise VisionError(T("board reference: only {n} features on the empty board (too dark, blurred, or plain?); enrol a "
                                "sharper photo", n=0 if desc is None else len(kps)))
        pts = np.float32([k.pt for k in kps]) / ppm
        return cls(canvas, ppm, pts, desc)

    @classmethod
    def from_photo(cls, photo: np.ndarray, size_mm: tuple[float, float], ppm: float = 2.0,
                   corners_px: np.ndarray | None = None, lens: LensCalibration | None = None) -> "BoardReference":
        """Enrol from a photo of the empty board: its four corners (TL, TR, BR, BL; found from the
        board's edge when not given; pixels as seen) map it to board mm."""
        if photo is None or photo.ndim != 3:
            raise VisionError(T("board reference: the photo is empty or not a colour picture"))
        if corners_px is None:
            corners_px = find_board(photo)
            if corners_px is None:
                raise BoardEdgeNotFound(T("board reference: the board's edge was not found in the photo (photograph "
                                          "the whole empty board on a darker table, or give its corners)"))
        corners_px = np.float64(corners_px).reshape(4, 2)
        if lens is not None:
            corners_px = lens.for_size((photo.shape[1], photo.shape[0])).undistort_points(corners_px)
        w, h = int(round(size_mm[0] * ppm)), int(round(size_mm[1] * ppm))
        dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        H = cv2.getPerspectiveTransform(np.float32(corners_px), dst)
        canvas = _warp(photo, np.linalg.inv(H), (w, h), lens)
        return cls.from_canvas(canvas, ppm)


def warp_maps(img_from_canvas: np.ndarray, size: tuple[int, int], frame_size: tuple[int, int],
              lens: LensCalibration | None, step: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """cv2.remap maps: for each canvas pixel, where it lies in the frame (as seen). With ``step`` > 1 the
    mapping (a homography and the lens's smooth distortion) is computed exactly every ``step`` pixels only
    and interpolated bilinearly in between (off by far less than the 1/32 px remap resolves; a 1000 x 1000
    canvas costs a sixtieth of the exact maps)."""
    w, h = size
    if step <= 1:
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        return _map_points(img_from_canvas, xs, ys, frame_size, lens)
    # nodes at canvas (j + 0.5) * step - 0.5 for j = -1 .. n: cv2.resize by ``step`` puts them there exactly,
    # and the extra node each side keeps the border pixels interpolated, not clamped
    nx, ny = -(-w // step) + 2, -(-h // step) + 2
    gx = (np.arange(nx, dtype=np.float32) - 0.5) * step - 0.5
    gy = (np.arange(ny, dtype=np.float32) - 0.5) * step - 0.5
    xs, ys = np.meshgrid(gx, gy)
    mx, my = _map_points(img_from_canvas, xs, ys, frame_size, lens)
    big = (nx * step, ny * step)
    mx = cv2.resize(mx, big, interpolation=cv2.INTER_LINEAR)[step:step + h, step:step + w]
    my = cv2.resize(my, big, interpolation=cv2.INTER_LINEAR)[step:step + h, step:step + w]
    return np.ascontiguousarray(mx), np.ascontiguousarray(my)


def _map_points(img_from_canvas: np.ndarray, xs: np.ndarray, ys: np.ndarray, frame_size: tuple[int, int],
                lens: LensCalibration | None) -> tuple[np.ndarray, np.ndarray]:
    """Frame pixels (as seen, float32) of canvas pixels ``xs, ys``."""
    H = img_from_canvas.astype(np.float32)
    den = H[2, 0] * xs + H[2, 1] * ys + H[2, 2]
    mx = (H[0, 0] * xs + H[0, 1] * ys + H[0, 2]) / den
    my = (H[1, 0] * xs + H[1, 1] * ys + H[1, 2]) / den
    if lens is not None and np.any(lens.dist_coeffs):  # LensCalibration.distort_points, in float32 over a grid
        lz = lens.for_size(frame_size)
        K = lz.camera_matrix
        k = np.zeros(5)
        k[:min(5, lz.dist_coeffs.size)] = lz.dist_coeffs.ravel()[:5]
        k1, k2, p1, p2, k3 = (np.float32(v) for v in k)
        x = (mx - np.float32(K[0, 2])) / np.float32(K[0, 0])
        y = (my - np.float32(K[1, 2])) / np.float32(K[1, 1])
        r2 = x * x + y * y
        radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
        xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
        yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        mx = xd * np.float32(K[0, 0]) + np.float32(K[0, 2])
        my = yd * np.float32(K[1, 1]) + np.float32(K[1, 2])
    return mx, my


def _warp(frame: np.ndarray, img_from_canvas: np.ndarray, size: tuple[int, int],
          lens: LensCalibration | None) -> np.ndarray:
    """The frame resampled on a canvas; ``img_from_canvas`` maps canvas px to undistorted frame px.
    Canvas pixels outside the frame are black (see :func:`seen_mask`)."""
    mx, my = warp_maps(img_from_canvas, size, (frame.shape[1], frame.shape[0]), lens)
    return cv2.remap(frame, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def seen_mask(canvas: np.ndarray) -> np.ndarray:
    """Canvas pixels that came from inside the frame (the black fill outside it is not a colour a
    lit board shows), shrunk by a few pixels."""
    m = (cv2.cvtColor(canvas, cv2.COLOR_BGR2GRAY) > 0).astype(np.uint8)
    return cv2.erode(m, np.ones((7, 7), np.uint8)).astype(bool)


@dataclass
class Registration:
    """Frame -> board: ``board_from_image`` maps undistorted frame pixels to board mm."""

    board_from_image: np.ndarray
    inliers: int
    matches: int
    lens: LensCalibration | None = None
    frame_size: tuple[int, int] = (0, 0)
    refined: int = 0  # art patches that refined it (vision.boardrefine; 0: the features' homography as it is)
    _maps: dict = field(default_factory=dict, repr=False, compare=False)

    def to_board(self, pts_px: np.ndarray) -> np.ndarray:
        """Board mm of frame pixels (as seen, lens distortion included)."""
        pts = np.asarray(pts_px, np.float64).reshape(-1, 2)
        if self.lens is not None:
            pts = self.lens.for_size(self.frame_size).undistort_points(pts)
        p = np.column_stack([pts, np.ones(len(pts))]) @ self.board_from_image.T
        return p[:, :2] / p[:, 2:3]

    def to_image(self, pts_mm: np.ndarray) -> np.ndarray:
        """Frame pixels (as seen) of board mm."""
        pts = np.asarray(pts_mm, np.float64).reshape(-1, 2)
        p = np.column_stack([pts, np.ones(len(pts))]) @ np.linalg.inv(self.board_from_image).T
        und = p[:, :2] / p[:, 2:3]
        return self.lens.for_size(self.frame_size).distort_points(und) if self.lens is not None else und

    def canvas(self, frame: np.ndarray, ppm: float, size_mm: tuple[float, float],
               region: tuple[int, int, int, int] | None = None) -> np.ndarray:
        """The board straight at ``ppm`` px/mm, cut from the frame (``region``: only canvas pixels x0, y0, x1, y1)."""
        w, h = int(round(size_mm[0] * ppm)), int(round(size_mm[1] * ppm))
        key = (ppm, w, h, frame.shape[1], frame.shape[0])
        maps = self._maps.get(key)
        if maps is None:  # kept: later frames under the same registration only resample
            img_from_canvas = np.linalg.inv(self.board_from_image) @ np.diag([1 / ppm, 1 / ppm, 1.0])
            mx, my = warp_maps(img_from_canvas, (w, h), (frame.shape[1], frame.shape[0]), self.lens, step=MAP_STEP)
            maps = self._maps[key] = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        if region is not None:
            x0, y0, x1, y1 = region
            maps = (maps[0][y0:y1, x0:x1], maps[1][y0:y1, x0:x1])
        return cv2.remap(frame, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)

    def shift_mm(self, other: "Registration", size_mm: tuple[float, float]) -> float:
        """How far the board's corners moved between two registrations of frames from one camera
        (the largest of the four, in board mm)."""
        w, h = size_mm
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
        seen = self.to_image(corners)
        return float(np.linalg.norm(other.to_board(seen) - corners, axis=1).max())


FEATURES_PPM = 1.0
"""The scale (px/mm) of the empty board's features the frames are matched against: about the board's scale in a
1080p frame over a games table shrunk to half (0.8-1 px/mm), so the two ORB pyramids overlap from their first
levels (the enrolled 2 px/mm canvas's finest levels match nothing in a half-size frame: on the bench's `hard`
Tahiti frames the fewest agreeing matches went from 43 to 76)."""


def _features_at(reference: BoardReference, ppm: float, features: int = 3000) -> tuple[np.ndarray, np.ndarray]:
    """ORB features of the empty board shrunk to ``ppm`` px/mm (board mm, descriptors); the reference's own
    when it is that coarse already, or when the shrunk board shows too few."""
    if reference.ppm <= ppm * 1.2:
        return reference.points_mm, reference.descriptors
    grey = cv2.resize(_grey(reference.canvas), None, fx=ppm / reference.ppm, fy=ppm / reference.ppm,
                      interpolation=cv2.INTER_AREA)
    kps, desc = _orb(features).detectAndCompute(grey, None)
    if desc is None or len(kps) < 200:
        return reference.points_mm, reference.descriptors
    f = reference.ppm / ppm  # shrunk px -> canvas px, pixel centres kept
    pts = ((np.float32([k.pt for k in kps]) + 0.5) * f - 0.5) / reference.ppm
    return pts, desc


INDEX_SEED = 0
"""OpenCV's RNG seed the registrar's LSH index is drawn from (0: what a fresh process draws). Any seed gives as good an
index; a fixed one makes a frame's registration the same in every process (issue 17, h-regdet)."""


class BoardRegistrar:
    """Registers frames against one :class:`BoardReference`."""

    def __init__(self, reference: BoardReference, lens: LensCalibration | None = None, features: int = 1500,
                 ratio: float = 0.8, ransac_px: float = 3.0, min_inliers: int = 40, work_width: int = 960,
                 refine: bool = True):
        self.ref = reference
        self.lens = lens
        self.orb = _orb(features)
        self.ratio = ratio
        self.ransac_px = ransac_px
        self.min_inliers = min_inliers
        self.work_width = work_width
        # the coarse homography from the features refined by patches spread over the board (vision.boardrefine)
        self.refiner = PatchRefiner(reference.canvas, reference.ppm) if refine else None
        # LSH index over the reference's binary descriptors (built once; brute force is several times slower)
        # (8 tables, no multi-probing: a fifth of the time of one probe level, as many inliers on the bench's
        # frames; the refinement, not the features, gives the accuracy)
        self.matcher = cv2.FlannBasedMatcher(dict(algorithm=6, table_number=8, key_size=12, multi_probe_level=0),
                                             dict(checks=50))
        self.points_mm, desc = _features_at(reference, FEATURES_PPM)
        self.matcher.add([desc])
        # the LSH tables' bits are drawn from OpenCV's RNG (cv::randShuffle): seeded, the same index (and the same
        # registration of a frame, to the last bit) whatever ran before in the process; unseeded, two indexes put a
        # frame a fraction of a millimetre apart (docs/history/boardcam-measured.md, h-portchests and h-regdet)
        cv2.setRNGSeed(INDEX_SEED)
        self.matcher.train()

    def register(self, frame: np.ndarray) -> Registration | None:
        """The frame's registration, or ``None`` when the board is not found with confidence."""
        if frame is None or frame.ndim not in (2, 3) or min(frame.shape[:2]) < 50:
            raise VisionError(T("register: the frame is empty"))
        cv2.setRNGSeed(12345)  # LSH probing and MAGSAC sampling draw from OpenCV's RNG: same frame, same answer
        grey = _grey(frame)
        scale = min(1.0, self.work_width / grey.shape[1])
        small = grey if scale == 1.0 else cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        kps, desc = self.orb.detectAndCompute(small, None)
        if desc is None or len(kps) < self.min_inliers:
            return None
        knn = self.matcher.knnMatch(desc, k=2)
        good = [m[0] for m in knn if len(m) == 2 and m[0].distance < self.ratio * m[1].distance]
        if len(good) < self.min_inliers:
            return None
        img = (np.float64([kps[m.queryIdx].pt for m in good]) + 0.5) / scale - 0.5  # pixel centres of the shrunk frame
        size = (frame.shape[1], frame.shape[0])
        if self.lens is not None:
            img = self.lens.for_size(size).undistort_points(img)
        brd = np.float64([self.points_mm[m.trainIdx] for m in good])
        # RANSAC in reference pixels (its threshold is a pixel distance), then a refit on the inliers
        H, mask = cv2.findHomography(img, brd * self.ref.ppm, cv2.USAC_MAGSAC, self.ransac_px, maxIters=4000,
                                     confidence=0.999)
        if H is None or mask is None or int(mask.sum()) < self.min_inliers:
            return None
        inl = mask.ravel().astype(bool)
        H2, _ = cv2.findHomography(img[inl], brd[inl] * self.ref.ppm, 0)
        H = H2 if H2 is not None else H
        H = np.diag([1 / self.ref.ppm, 1 / self.ref.ppm, 1.0]) @ H
        H = H / H[2, 2]
        refined = 0
        if self.refiner is not None:
            H, refined = self.refiner.refine(H, grey, self.lens, size)
        reg = Registration(H, int(inl.sum()), len(good), self.lens, size, refined=refined)
        return reg if self._plausible(reg) else None

    def _plausible(self, reg: Registration) -> bool:
        """The board's corners seen as a convex quadrilateral inside a generous frame."""
        w, h = self.ref.size_mm
        quad = reg.to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)).astype(np.float32)
        fw, fh = reg.frame_size
        if not np.all(np.isfinite(quad)) or not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
            return False
        return bool((quad[:, 0] > -fw).all() and (quad[:, 0] < 2 * fw).all() and (quad[:, 1] > -fh).all()
                    and (quad[:, 1] < 2 * fh).all() and cv2.contourArea(quad) > 0.02 * fw * fh)


@dataclass
class BoardState:
    """One frame's outcome: the registration in use, whether it is new from this frame, and
    whether the board was found to have moved (``bumped``, with ``moved_mm``)."""

    registration: Registration | None
    fresh: bool
    bumped: bool
    moved_mm: float
    note: str = ""


class MatAnchor:
    """The mat's markers in a frame: ``mat_from_image`` (undistorted frame px -> mat mm), or
    ``None`` with fewer than three markers found."""

    def __init__(self, mat, lens: LensCalibration | None = None):
        self.mat = mat
        self.lens = lens

    def mat_from_image(self, frame: np.ndarray) -> np.ndarray | None:
        from .markers import detect_markers

        det = detect_markers(frame, self.mat)
        if len(det.corners) < 3:
            return None
        img = np.concatenate([det.corners[i] for i in sorted(det.corners)]).astype(np.float64)
        mm = np.concatenate([np.float64(self.mat.marker_corners_mm(i)) for i in sorted(det.corners)])
        if self.lens is not None:
            img = self.lens.for_size((frame.shape[1], frame.shape[0])).undistort_points(img)
        H, _ = cv2.findHomography(img, mm, 0)
        return None if H is None else H / H[2, 2]


def _corner_shift(a: np.ndarray, b: np.ndarray, size_mm: tuple[float, float]) -> float:
    """The largest distance between the board's corners mapped by two board <- X transforms' inverses."""
    w, h = size_mm
    c = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64)
    pa = c @ np.linalg.inv(a).T
    pb = c @ np.linalg.inv(b).T
    return float(np.linalg.norm(pa[:, :2] / pa[:, 2:] - pb[:, :2] / pb[:, 2:], axis=1).max())


class BoardTracker:
    """Keeps the board registered across frames and notices a bumped board; with a
    :class:`MatAnchor`, falls back on the mat's markers and checks against them."""

    def __init__(self, registrar: BoardRegistrar, bump_mm: float = 3.0, anchor: MatAnchor | None = None):
        self.registrar = registrar
        self.bump_mm = bump_mm
        self.anchor = anchor
        self.current: Registration | None = None
        self.board_from_mat: np.ndarray | None = None  # where the board lies on the mat

    def update(self, frame: np.ndarray) -> BoardState:
        if self.anchor is not None:
            return self._update_anchored(frame)
        reg = self.registrar.register(frame)
        if reg is None:
            if self.current is None:
                return BoardState(None, False, False, 0.0, T("the board is not found (covered, or out of view?)"))
            return BoardState(self.current, False, False, 0.0, T("the board is not found in this frame: kept the last "
                                                                 "registration"))
        moved = 0.0 if self.current is None else reg.shift_mm(self.current, self.registrar.ref.size_mm)
        bumped = self.current is not None and moved > self.bump_mm
        if self.current is None or bumped:  # else the last one stays (its resampling maps are kept)
            self.current = reg
        note = T("the board moved {mm} mm: re-registered", mm=format(moved, ".0f")) if bumped else ""
        return BoardState(self.current, True, bumped, moved, note)

    def _update_anchored(self, frame: np.ndarray) -> BoardState:
        size = self.registrar.ref.size_mm
        mat_h = self.anchor.mat_from_image(frame)
        reg = self.registrar.register(frame)
        if reg is not None:
            if mat_h is None:  # no markers: as without a mat
                moved = 0.0 if self.current is None else reg.shift_mm(self.current, size)
                bumped = self.current is not None and moved > self.bump_mm
                self.current = reg
                return BoardState(reg, True, bumped, moved, T("the mat's markers are not in view; the board moved {mm} mm", mm=format(moved, ".0f"))
                                  if bumped else T("the mat's markers are not in view"))
            on_mat = reg.board_from_image @ np.linalg.inv(mat_h)
            moved = 0.0 if self.board_from_mat is None else _corner_shift(on_mat, self.board_from_mat, size)
            bumped = self.board_from_mat is not None and moved > self.bump_mm
            self.board_from_mat = on_mat / on_mat[2, 2]
            self.current = reg
            return BoardState(reg, True, bumped, moved,
                              T("the board moved {mm} mm on the mat: re-registered", mm=format(moved, ".0f")) if bumped else "")
        if mat_h is not None and self.board_from_mat is not None:
            H = self.board_from_mat @ mat_h
            fb = Registration(H / H[2, 2], 0, 0, self.registrar.lens, (frame.shape[1], frame.shape[0]))
            self.current = fb
            return BoardState(fb, True, False, 0.0, T("the board's art is not matched (covered?): placed by the mat's "
                                                      "markers"))
        return BoardState(self.current, False, False, 0.0, T("the board is not found in this frame: kept the last registration")
                          if self.current is not None else T("the board is not found in this frame"))
