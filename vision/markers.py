"""Drawing and detecting the mat's ArUco markers, and printable marker sheets.

Pixel convention used everywhere in ``vision``: an image drawn at ``ppm`` pixels
per millimetre has the centre of pixel ``(i, j)`` at mat point
``(i / ppm, j / ppm)`` mm, i.e. pixel coordinate = mm * ppm (OpenCV's
pixel-centre convention).
"""
from __future__ import annotations

import logging
import math
import struct
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from tablehub.i18n import T  # what a phone and the console read (tablehub/locale/*/visionfiles.po)

from . import VisionError
from .mat import Mat

log = logging.getLogger(__name__)

#: paper sizes in mm (portrait)
PAPER_MM = {"A4": (210.0, 297.0), "A3": (297.0, 420.0), "letter": (215.9, 279.4)}


@lru_cache(maxsize=8)
def get_dictionary(name: str):
    if not hasattr(cv2.aruco, name):
        raise VisionError(T("unknown ArUco dictionary {name} (e.g. 'DICT_4X4_50')", name=repr(name)))
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


@lru_cache(maxsize=64)
def marker_bits(dictionary: str, marker_id: int) -> np.ndarray:
    """The marker as a (n+2) x (n+2) uint8 array of 0/255 cells, one black border cell included."""
    d = get_dictionary(dictionary)
    cells = int(d.markerSize) + 2
    return cv2.aruco.generateImageMarker(d, int(marker_id), cells, borderBits=1)


def paint_square_pattern(image: np.ndarray, pattern: np.ndarray, corners_px: np.ndarray,
                         supersample: int = 3) -> None:
    """Paint a square cell pattern (uint8, 0..255) into ``image`` with its corners at ``corners_px``.

    ``corners_px`` are the pattern's top-left, top-right, bottom-right, bottom-left
    corners in pixel coordinates (pixel-centre convention). Edges are
    anti-aliased by supersampling; works for any rotation of the square.
    """
    corners_px = np.asarray(corners_px, np.float64)
    h, w = image.shape[:2]
    x0 = max(int(math.floor(corners_px[:, 0].min())) - 1, 0)
    x1 = min(int(math.ceil(corners_px[:, 0].max())) + 2, w)
    y0 = max(int(math.floor(corners_px[:, 1].min())) - 1, 0)
    y1 = min(int(math.ceil(corners_px[:, 1].max())) + 2, h)
    if x1 <= x0 or y1 <= y0:
        return
    n = pattern.shape[0]
    src = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float64)
    to_cell = cv2.getPerspectiveTransform(corners_px.astype(np.float32), src.astype(np.float32))
    s = supersample
    offs = (np.arange(s) + 0.5) / s - 0.5
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float64)
    acc = np.zeros(xs.shape, np.float64)
    inside = np.zeros(xs.shape, np.float64)
    for oy in offs:
        for ox in offs:
            px, py = xs + ox, ys + oy
            den = to_cell[2, 0] * px + to_cell[2, 1] * py + to_cell[2, 2]
            u = (to_cell[0, 0] * px + to_cell[0, 1] * py + to_cell[0, 2]) / den
            v = (to_cell[1, 0] * px + to_cell[1, 1] * py + to_cell[1, 2]) / den
            ok = (u >= 0) & (u < n) & (v >= 0) & (v < n)
            ui = np.clip(u.astype(np.int64), 0, n - 1)
            vi = np.clip(v.astype(np.int64), 0, n - 1)
            acc += np.where(ok, pattern[vi, ui].astype(np.float64), 0.0)
            inside += ok
    cover = inside / (s * s)
    value = np.divide(acc, np.maximum(inside, 1e-9))
    region = image[y0:y1, x0:x1].astype(np.float64)
    if region.ndim == 3:
        cover3, value3 = cover[..., None], value[..., None]
    else:
        cover3, value3 = cover, value
    image[y0:y1, x0:x1] = np.clip(region * (1 - cover3) + value3 * cover3, 0, 255).astype(image.dtype)


def paint_marker(image: np.ndarray, mat: Mat, marker_id: int, ppm: float,
                 offset_mm: tuple[float, float] = (0.0, 0.0), quiet_zone: bool = True) -> None:
    """Paint one mat marker (with a white quiet zone of one cell) at its true place, ``ppm`` px/mm."""
    bits = marker_bits(mat.dictionary, marker_id)
    corners = np.array(mat.marker_corners_mm(marker_id), np.float64)
    corners = (corners - np.asarray(offset_mm)) * ppm
    if quiet_zone:
        cell = mat.marker_mm / bits.shape[0]
        c = corners.mean(axis=0)
        grow = (mat.marker_mm / 2 + cell) / (mat.marker_mm / 2)
        paint_square_pattern(image, np.full((1, 1), 255, np.uint8), c + (corners - c) * grow, supersample=2)
    paint_square_pattern(image, bits, corners)


def draw_mat(mat: Mat, ppm: float, colour: tuple[int, int, int] = (255, 255, 255),
             outline: tuple[int, int, int] | None = (150, 150, 150), grid: bool = False,
             line_mm: float = 0.6) -> np.ndarray:
    """The whole mat, top-down, at ``ppm`` px/mm (BGR): background, play-area outline, markers."""
    w, h = int(round(mat.width_mm * ppm)), int(round(mat.height_mm * ppm))
    img = np.empty((h, w, 3), np.uint8)
    img[:] = colour
    thick = max(1, int(round(line_mm * ppm)))
    if outline is not None:
        x, y, pw, ph = mat.play_rect_mm
        shift = 4
        f = 1 << shift
        p0 = (int(round(x * ppm * f)), int(round(y * ppm * f)))
        p1 = (int(round((x + pw) * ppm * f)), int(round((y + ph) * ppm * f)))
        cv2.rectangle(img, p0, p1, outline, thick, cv2.LINE_AA, shift)
        if grid:
            cx, cy = mat.play_centre_mm
            t = mat.tile_mm
            tick = 2.5
            kx = np.arange(math.ceil((x - cx) / t - 0.5), math.floor((x + pw - cx) / t - 0.5) + 1)
            ky = np.arange(math.ceil((y - cy) / t - 0.5), math.floor((y + ph - cy) / t - 0.5) + 1)
            for gx in cx + (kx + 0.5) * t:
                for gy in cy + (ky + 0.5) * t:
                    for a, b in (((gx - tick, gy), (gx + tick, gy)), ((gx, gy - tick), (gx, gy + tick))):
                        cv2.line(img, (int(round(a[0] * ppm * f)), int(round(a[1] * ppm * f))),
                                 (int(round(b[0] * ppm * f)), int(round(b[1] * ppm * f))), outline, thick,
                                 cv2.LINE_AA, shift)
    for mid in mat.marker_ids:
        paint_marker(img, mat, mid, ppm)
    return img


# --------------------------------------------------------------------------- detection


@dataclass
class MarkerDetection:
    """Markers found in one frame: ``corners[id]`` is a (4, 2) float array in image pixels."""

    corners: dict[int, np.ndarray] = field(default_factory=dict)
    #: ids of the mat that were not found
    missing: tuple[int, ...] = ()
    #: ids found that do not belong to the mat (another mat, a stray marker)
    foreign: tuple[int, ...] = ()
    #: mat ids found more than once (the best-looking copy is kept)
    duplicated: tuple[int, ...] = ()
    #: quads that looked like markers but did not decode (a partly covered marker shows up here)
    rejected: list[np.ndarray] = field(default_factory=list)
    #: which search found them: "windows" (around the expected places), "sized" or "wide" (whole frame)
    search: str = "sized"
    #: pixels the ArUco detector scanned, all stages together (a busy-background regression shows here)
    searched_px: int = 0
    #: markers the half-size search found before reading them again at full size (0: no half-size search answered)
    half_found: int = 0


#: a marker narrower than this many pixels per cell is not read reliably (docs/vision-setup.md: ~1 px/mm
#: on a 40 mm marker of 6 cells is ~7 px per cell); the sized search ignores every quad smaller than that
MIN_CELL_PX = 4.0
#: how much larger than the mat's proportions allow a marker may look (tilted camera, the near corner)
PERSPECTIVE_SLACK = 1.5
#: the half-size search (:func:`_search_half`) looks for markers of at least this side (pixels at half size, 3 per
#: cell of a 4x4 marker with its border); it answers only when it finds every marker of the mat
HALF_MIN_SIDE_PX = 18.0
#: the window around a marker's expected place grows by at least this share of the frame's width (a
#: bumped camera: ~3 cm of the mat at 1.4 px/mm) and at least by 1.5 marker sides
WINDOW_GROW_FRAME = 0.04
WINDOW_GROW_MARKER = 1.5
#: the half-size search's markers say where to look for the others at full size (:func:`_search_half`) when it
#: finds at least this many (two markers' eight corners fix a homography); fewer: the whole frame at full size
HALF_MIN_FOUND = 2


def _parameters(min_rate: float, max_rate: float, thresh_windows: tuple[int, int, int]):
    """Detector parameters; corner refinement runs only on decoded markers, so SUBPIX is cheap."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.cornerRefinementWinSize = 4
    params.cornerRefinementMaxIterations = 50
    params.cornerRefinementMinAccuracy = 0.01
    params.adaptiveThreshWinSizeMin, params.adaptiveThreshWinSizeMax, params.adaptiveThreshWinSizeStep = \
        thresh_windows
    params.minMarkerPerimeterRate = float(min_rate)
    params.maxMarkerPerimeterRate = float(max_rate)
    return params


@lru_cache(maxsize=8)
def _wide_detector(dictionary: str) -> "cv2.aruco.ArucoDetector":
    """Any marker from tiny to frame-filling, six threshold windows: the slow last resort.

    Every quad of a checked tablecloth passes its size filter and is decoded, which costs
    seconds per frame; it only runs when the sized search found too few markers and no
    earlier location is known (see :func:`detect_markers`)."""
    return cv2.aruco.ArucoDetector(get_dictionary(dictionary), _parameters(0.02, 4.0, (5, 45, 8)))


@lru_cache(maxsize=64)
def _sized_detector(dictionary: str, min_rate: float, max_rate: float) -> "cv2.aruco.ArucoDetector":
    """Only quads of a plausible marker size (rates rounded by the caller so the cache hits), three windows."""
    return cv2.aruco.ArucoDetector(get_dictionary(dictionary), _parameters(min_rate, max_rate, (7, 31, 12)))


def marker_size_range_px(mat: Mat, frame_size: tuple[int, int]) -> tuple[float, float]:
    """Smallest and largest marker side (px) worth looking for in a frame of ``frame_size`` (w, h).

    Smallest: ``MIN_CELL_PX`` per cell, below which a marker does not decode reliably anyway.
    Largest: the mat's marker centres must all be in view, so the mat spans at most the frame's
    diagonal; a marker is then at most its share of that, times ``PERSPECTIVE_SLACK``.
    """
    cells = int(get_dictionary(mat.dictionary).markerSize) + 2
    w, h = frame_size
    span_mm = max(min(mat.width_mm, mat.height_mm) - mat.marker_mm, mat.marker_mm)
    largest = math.hypot(w, h) * mat.marker_mm / span_mm * PERSPECTIVE_SLACK
    return MIN_CELL_PX * cells, max(largest, MIN_CELL_PX * cells * 2)


def _sized_for(mat: Mat, frame_size: tuple[int, int], smallest: float, largest: float):
    """A detector keeping quads with sides between ``smallest`` and ``largest`` px in this frame."""
    longest = float(max(frame_size))
    lo = math.floor(4 * smallest / longest * 1000) / 1000
    hi = math.ceil(4 * largest / longest * 1000) / 1000
    return _sized_detector(mat.dictionary, max(lo, 0.001), min(max(hi, lo + 0.001), 4.0))


def to_grey(frame: np.ndarray) -> np.ndarray:
    if frame.ndim == 2:
        return frame
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2GRAY)
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)


def refine_corners(grey: np.ndarray, quad: np.ndarray, cells: int) -> np.ndarray:
    """Sub-pixel marker corners from the four straight outer edges of the black border.

    Each edge is located where the intensity crosses half-way between the white quiet
    zone and the black border, at a dozen places along it (bilinear samples across the
    edge); a line is fitted through them and neighbouring lines are intersected. A
    symmetric blur moves no such half-way crossing, so corners stay unbiased on blurred
    frames, unlike a corner detector's. Falls back to ``quad`` where an edge is unclear.
    """
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    centre = quad.mean(axis=0)
    lines = []
    refined_edges = 0
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        length = float(np.linalg.norm(b - a))
        cell = length / cells
        if cell < 1.5:
            return quad
        d = (b - a) / length
        n = np.array([d[1], -d[0]])
        if np.dot((a + b) / 2 - centre, n) < 0:
            n = -n  # normal pointing out of the marker
        reach = max(0.8 * cell, 2.0)
        ts = np.linspace(0.12, 0.88, 14)
        offs = np.arange(-reach, reach + 1e-9, 0.25)
        base = a[None, :] + ts[:, None] * (b - a)[None, :]
        pts = base[:, None, :] + offs[None, :, None] * n[None, None, :]
        prof = cv2.remap(grey, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32), cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE).astype(np.float64)
        third = prof.shape[1] // 3
        inners = np.median(prof[:, :third], axis=1)      # every profile at once (the same values as one by one)
        outers = np.median(prof[:, -third:], axis=1)
        levels = (inners + outers)[:, None] / 2
        # per profile, the rising crossings of the half-way level, and of those the one nearest the predicted
        # edge (the first of equals): all profiles at once, as one by one before (issue 14: this loop was half
        # of the marker search's CPU)
        ups = (prof[:, :-1] < levels) & (prof[:, 1:] >= levels)
        far = np.where(ups, np.abs(offs[1:])[None, :], np.inf)
        j = np.argmin(far, axis=1) + 1
        rows = np.arange(len(ts))
        # no clear dark-to-light step (covered, glare), or no crossing: no point on this profile
        ok = (outers - inners >= 20) & ups.any(axis=1)
        lo_v, hi_v = prof[rows, j - 1], prof[rows, j]
        frac = (levels[:, 0] - lo_v) / np.where(ok, hi_v - lo_v, 1.0)
        at = offs[j - 1] + frac * (offs[j] - offs[j - 1])
        edge_pts = list(base[ok] + at[ok, None] * n[None, :])
        if len(edge_pts) < 6:  # keep the detector's edge for this side
            lines.append((a, d))
            continue
        refined_edges += 1
        e = np.array(edge_pts)
        # robust-ish line: fit, drop the worst third, refit
        for _ in range(2):
            m = e.mean(axis=0)
            _u, _s, vt = np.linalg.svd(e - m)
            direction = vt[0]
            normal = np.array([-direction[1], direction[0]])
            resid = np.abs((e - m) @ normal)
            if len(e) > 8:
                e = e[resid <= np.quantile(resid, 0.7)]
        lines.append((m, direction))
    out = np.empty((4, 2))
    for k in range(4):
        (p1, d1), (p2, d2) = lines[(k - 1) % 4], lines[k]  # corner k joins edge k-1 and edge k
        A = np.column_stack([d1, -d2])
        if abs(np.linalg.det(A)) < 1e-6:
            return quad
        t = np.linalg.solve(A, p2 - p1)
        out[k] = p1 + t[0] * d1
    cell_px = quad_side_px(quad) / cells
    if refined_edges == 0 or np.max(np.linalg.norm(out - quad, axis=1)) > max(3.0, 0.5 * cell_px):
        return quad  # nothing refined, or something odd (a finger on the edge): trust the detector
    return out


def _collect(det: MarkerDetection, corners, ids, rejected, mat: Mat, offset=(0.0, 0.0),
             only: int | None = None) -> None:
    """Add one detector call's results (found in a window at ``offset``) to ``det``.

    ``only``: the mat id the window was searched for; other mat ids seen there belong to
    another window (the same marker would count twice), other markers are foreign."""
    off = np.asarray(offset, np.float64)
    wanted = set(mat.marker_ids)
    dup = set(det.duplicated)
    foreign = set(det.foreign)
    if ids is not None:
        for c, i in zip(corners, ids.ravel()):
            i = int(i)
            pts = np.asarray(c, np.float64).reshape(4, 2) + off
            if i not in wanted:
                foreign.add(i)
                continue
            if only is not None and i != only:
                continue
            if i in det.corners:
                dup.add(i)
                # keep the larger copy: a printed marker is bigger than one on a stray card
                if cv2.contourArea(pts.astype(np.float32)) <= cv2.contourArea(det.corners[i].astype(np.float32)):
                    continue
            det.corners[i] = pts
    det.foreign, det.duplicated = tuple(sorted(foreign)), tuple(sorted(dup))
    det.rejected.extend(np.asarray(r, np.float64).reshape(4, 2) + off for r in (rejected if rejected is not None
                                                                                 else ()))


def _search_half(grey: np.ndarray, mat: Mat, smallest: float, largest: float) -> MarkerDetection:
    """The whole frame shrunk to half its size (area average), keeping quads of a plausible marker size there:
    a quarter of the pixels to threshold and trace. When every marker of the mat is found so, each is read again
    at full size in a small window around it (:func:`_search_windows`): the corners are the full-size search's.
    Markers under :data:`HALF_MIN_SIDE_PX` at half size are not looked for here (their cells would be under 3
    pixels): the full-size search finds them."""
    h, w = grey.shape[:2]
    small = cv2.resize(grey[:h - h % 2, :w - w % 2], (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    det = MarkerDetection(search="half", searched_px=int(small.size))
    detector = _sized_for(mat, (w // 2, h // 2), max(smallest / 2, HALF_MIN_SIDE_PX),
                          max(largest / 2, HALF_MIN_SIDE_PX * 2))
    corners, ids, rejected = detector.detectMarkers(small)

    def up(quads):     # half-size pixel (i, j) covers full-size pixels 2i, 2i + 1: its centre is at 2i + 0.5
        return [np.asarray(q, np.float64) * 2.0 + 0.5 for q in quads] if quads is not None else None

    _collect(det, up(corners), ids, up(rejected), mat)
    if len(det.corners) < min(HALF_MIN_FOUND, len(mat.marker_ids)):
        return det
    # found at half size: read again at full size in small windows around them, so that the corners are the
    # full-size detector's own (the half size's, refined on the same edges, were up to 0.1 px apart, and three
    # knife-edge cells of the bench's hard boards read differently). A marker missing at half size (covered, out
    # of view, too small or blurred there) is looked for at full size where the others put it, as the full-size
    # search of the whole frame would find it (issue 14, CPU: that search was 30 ms of a `hard` reading from
    # scratch, and found no marker more on the bench's boards). Two found are enough to say where to look (their
    # eight corners fix a homography: 18-36 px off on the field camera's `hard` frame, the windows grow by 77);
    # where the windows find fewer than three, the whole frame is searched at full size as before
    expected = dict(det.corners)
    expected.update(_expected_missing(det.corners, mat))
    full = _search_windows(grey, mat, expected)
    full.search, full.searched_px = "half", full.searched_px + det.searched_px
    full.rejected = det.rejected + full.rejected
    full.half_found = len(det.corners)
    return full


def _expected_missing(found: dict[int, np.ndarray], mat: Mat) -> dict[int, np.ndarray]:
    """Where the mat's markers missing from ``found`` (mat id -> image quad, two or more) lie in the image, by
    the homography of the found ones' corners (the lens's bend is left to the window's margin)."""
    missing = [m for m in mat.marker_ids if m not in found]
    if not missing:
        return {}
    seen = sorted(found)
    H, _ = cv2.findHomography(np.concatenate([np.asarray(mat.marker_corners_mm(m), np.float64) for m in seen]),
                              np.concatenate([found[m] for m in seen]), 0)
    if H is None:
        return {}
    return {m: cv2.perspectiveTransform(np.asarray(mat.marker_corners_mm(m), np.float64).reshape(-1, 1, 2),
                                        H).reshape(4, 2) for m in missing}


def _search_frame(grey: np.ndarray, mat: Mat, detector, how: str) -> MarkerDetection:
    det = MarkerDetection(search=how, searched_px=int(grey.size))
    _collect(det, *detector.detectMarkers(grey), mat)
    return det


def quad_side_px(quad: np.ndarray) -> float:
    """The mean side of a marker's quad (4 corners), in pixels."""
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    return float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))


def marker_window(quad: np.ndarray, frame_size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """Where to look for a marker expected at ``quad``: (x0, y0, x1, y1), clipped to the frame, or None.

    The quad's box grown by ``WINDOW_GROW_MARKER`` sides and at least ``WINDOW_GROW_FRAME`` of the
    frame's width, so a marker still lies wholly inside after a bumped camera moved it that far."""
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    w, h = frame_size
    side = quad_side_px(quad)
    grow = max(WINDOW_GROW_MARKER * side, WINDOW_GROW_FRAME * max(w, h))
    x0, y0 = np.floor(quad.min(axis=0) - grow).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0) + grow).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 - x0 < side or y1 - y0 < side:
        return None  # the marker is expected (mostly) out of view
    return int(x0), int(y0), int(x1), int(y1)


def _search_windows(grey: np.ndarray, mat: Mat, expected: dict[int, np.ndarray]) -> MarkerDetection:
    """Look for each marker only in a window around where it is expected (a few % of the frame)."""
    h, w = grey.shape[:2]
    det = MarkerDetection(search="windows")
    smallest_any, _ = marker_size_range_px(mat, (w, h))
    for mid, quad in expected.items():
        box = marker_window(quad, (w, h))
        if box is None:
            continue
        x0, y0, x1, y1 = box
        side = quad_side_px(quad)
        detector = _sized_for(mat, (x1 - x0, y1 - y0), max(side / 2, smallest_any / 2), side * 2)
        _collect(det, *detector.detectMarkers(np.ascontiguousarray(grey[y0:y1, x0:x1])), mat, (x0, y0), only=mid)
        det.searched_px += (x1 - x0) * (y1 - y0)
    return det


def detect_markers(frame: np.ndarray, mat: Mat, refine: bool = True,
                   expected: dict[int, np.ndarray] | None = None, wide: bool = True) -> MarkerDetection:
    """Find the mat's markers in a BGR or grey frame (corners refined on the border edges by default).

    The search is staged so that a busy background (a checked tablecloth: thousands of quads
    that each have to be decoded) stays cheap; ``MarkerDetection.search`` says which stage
    answered:

    1. ``expected`` (mat id -> image quad where it should be, e.g. from the last location):
       small windows around those places; enough when three or more mat markers are found.
    2. ``"sized"``: the whole frame, keeping only quads of a plausible marker size
       (:func:`marker_size_range_px`).
    3. ``"wide"``: the whole frame, any size, more threshold windows; only when ``wide`` and the
       earlier stages found fewer than three markers (slow on a busy cloth).

    The stage finding the most markers wins (on a tie the later, which saw the whole frame).
    """
    grey = to_grey(frame)
    h, w = grey.shape[:2]
    best: MarkerDetection | None = None
    stages = []
    if expected:
        stages.append(lambda: _search_windows(grey, mat, expected))
    smallest, largest = marker_size_range_px(mat, (w, h))
    if not expected and refine:
        # the half-size frame first (issue 14: the full-size search was 60-100 ms of a from-scratch reading on
        # one core); its corners are refined on the full-size frame's edges below, and it must find every
        # marker of the mat, else the full-size search runs as before
        stages.append(lambda: _search_half(grey, mat, smallest, largest))
    stages.append(lambda: _search_frame(grey, mat, _sized_for(mat, (w, h), smallest, largest), "sized"))
    if wide:
        stages.append(lambda: _search_frame(grey, mat, _wide_detector(mat.dictionary), "wide"))
    searched = 0
    for stage in stages:
        det = stage()
        searched += det.searched_px
        if best is None or len(det.corners) >= len(best.corners):
            best = det
        if _enough(best, mat):
            break
    assert best is not None
    best.searched_px = searched
    if refine and best.corners:
        cells = int(get_dictionary(mat.dictionary).markerSize) + 2
        gf = grey.astype(np.float32)
        best.corners = {i: refine_corners(gf, q, cells) for i, q in best.corners.items()}
    best.missing = tuple(i for i in mat.marker_ids if i not in best.corners)
    return best


def _enough(det: MarkerDetection, mat: Mat) -> bool:
    """Whether a stage's markers end the search: three (or all the mat has); from the half-size search, every
    marker it found there read again at full size, and three or more."""
    need = min(3, len(mat.marker_ids))
    if det.search == "half":
        return len(det.corners) >= max(need, det.half_found)
    return len(det.corners) >= need


def verify_marker(grey: np.ndarray, quad: np.ndarray, dictionary: str, marker_id: int,
                  max_bad_cells: int = 1) -> np.ndarray | None:
    """Read the marker expected at ``quad`` (image corners, predicted from the other markers).

    Returns refined corners when the cells read match ``marker_id`` (upright, as the
    quad's corner order says) with at most ``max_bad_cells`` wrong, else None. This
    finds markers the detector missed (small, blurred, at the image border) without
    ever accepting a covered one.
    """
    bits = marker_bits(dictionary, marker_id)
    n = bits.shape[0]
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    h, w = grey.shape[:2]
    if (quad[:, 0] < 1).any() or (quad[:, 1] < 1).any() or (quad[:, 0] > w - 2).any() or (quad[:, 1] > h - 2).any():
        return None
    refined = refine_corners(grey.astype(np.float32), quad, n)
    per = 8
    dst = np.array([[0, 0], [n * per, 0], [n * per, n * per], [0, n * per]], np.float32)
    M = cv2.getPerspectiveTransform(refined.astype(np.float32), dst)
    patch = cv2.warpPerspective(grey, M, (n * per, n * per), flags=cv2.INTER_LINEAR)
    # mean of each cell's inner half
    cells = patch.reshape(n, per, n, per)[:, per // 4: 3 * per // 4, :, per // 4: 3 * per // 4].mean(axis=(1, 3))
    lo, hi = float(cells.min()), float(cells.max())
    if hi - lo < 30:
        return None
    read = (cells > (lo + hi) / 2).astype(np.uint8) * 255
    bad = int(np.count_nonzero(read != bits))
    return refined if bad <= max_bad_cells else None


# --------------------------------------------------------------------------- printable sheets


@dataclass
class SheetPage:
    """One printable page: ``image`` (grey, uint8) at ``dpi``; ``label`` says which part of the mat it holds."""

    image: np.ndarray
    dpi: float
    label: str


def _text(img: np.ndarray, text: str, org: tuple[int, int], px: float, colour: int = 0) -> None:
    scale = px / 22.0
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, max(1, int(round(scale * 1.5))),
                cv2.LINE_AA)


def sheet_pages(mat: Mat, paper: str = "A4", dpi: float = 300.0, margin_mm: float = 10.0,
                overlap_mm: float = 10.0, layout: str = "full") -> list[SheetPage]:
    """Printable pages for the mat at true size.

    ``layout="full"``: the whole mat (markers, play-area outline, cell ticks) tiled over
    as many pages as needed, each page overlapping its neighbours by ``overlap_mm`` with
    crop marks and "glue here" edges so the sheets can be taped into one mat.
    ``layout="corners"``: only the markers, each on a card with its position written on
    it, packed onto as few pages as possible; lay them out on the table at the
    distances printed on the cards (measure with a ruler; equal diagonals = square).
    """
    if paper not in PAPER_MM:
        raise VisionError(T("paper: expected one of {choices}, got {value}", choices=", ".join(PAPER_MM), value=repr(paper)))
    pw_mm, ph_mm = PAPER_MM[paper]
    ppm = dpi / 25.4
    if layout == "corners":
        return _corner_pages(mat, pw_mm, ph_mm, ppm, dpi, margin_mm)
    if layout != "full":
        raise VisionError(T("layout: expected 'full' or 'corners', got {value}", value=repr(layout)))
    full = to_grey(draw_mat(mat, ppm, grid=True))
    # orientation that needs the fewest pages
    best = None
    for (w, h) in ((pw_mm, ph_mm), (ph_mm, pw_mm)):
        uw, uh = w - 2 * margin_mm, h - 2 * margin_mm
        step_w, step_h = uw - overlap_mm, uh - overlap_mm
        nx = max(1, math.ceil((mat.width_mm - overlap_mm) / step_w)) if mat.width_mm > uw else 1
        ny = max(1, math.ceil((mat.height_mm - overlap_mm) / step_h)) if mat.height_mm > uh else 1
        if best is None or nx * ny < best[0]:
            best = (nx * ny, w, h, uw, uh, step_w, step_h, nx, ny)
    _, w, h, uw, uh, step_w, step_h, nx, ny = best
    pages: list[SheetPage] = []
    W, H = int(round(w * ppm)), int(round(h * ppm))
    for j in range(ny):
        for i in range(nx):
            page = np.full((H, W), 255, np.uint8)
            ox, oy = i * step_w, j * step_h  # mat mm at the page's printable top-left
            sx0, sy0 = int(round(ox * ppm)), int(round(oy * ppm))
            sx1 = min(int(round((ox + uw) * ppm)), full.shape[1])
            sy1 = min(int(round((oy + uh) * ppm)), full.shape[0])
            dx0, dy0 = int(round(margin_mm * ppm)), int(round(margin_mm * ppm))
            part = full[sy0:sy1, sx0:sx1]
            page[dy0:dy0 + part.shape[0], dx0:dx0 + part.shape[1]] = part
            # frame of the printed part (cut on the left/top edges of pages that overlap a neighbour)
            x0p, y0p = dx0, dy0
            x1p, y1p = dx0 + part.shape[1] - 1, dy0 + part.shape[0] - 1
            cv2.rectangle(page, (x0p, y0p), (x1p, y1p), 200, 1)
            tick = int(round(6 * ppm))
            for (cx, cy) in ((x0p, y0p), (x1p, y0p), (x1p, y1p), (x0p, y1p)):
                cv2.line(page, (cx - tick, cy), (cx + tick, cy), 0, max(1, int(ppm * 0.2)))
                cv2.line(page, (cx, cy - tick), (cx, cy + tick), 0, max(1, int(ppm * 0.2)))
            ov = int(round(overlap_mm * ppm))
            if i > 0:  # this page's left strip lies under the previous page: cut along it
                cv2.line(page, (x0p + ov, y0p), (x0p + ov, y1p), 0, 1)
                _text(page, "cut", (x0p + ov + 4, y0p + int(4 * ppm)), 2.5 * ppm, 0)
            if j > 0:
                cv2.line(page, (x0p, y0p + ov), (x1p, y0p + ov), 0, 1)
                _text(page, "cut", (x0p + int(4 * ppm), y0p + ov - 4), 2.5 * ppm, 0)
            label = f"{mat.name} mat page row {j + 1}/{ny} col {i + 1}/{nx}"
            _text(page, f"tablehub {label}: print at 100% (no scaling), {dpi:g} dpi",
                  (dx0, H - int(margin_mm * ppm * 0.55)), 2.4 * ppm, 90)
            _text(page, f"pages overlap {overlap_mm:g} mm: cut along 'cut', lay over the neighbour, tape",
                  (dx0, H - int(margin_mm * ppm * 0.15)), 2.4 * ppm, 90)
            pages.append(SheetPage(page, dpi, label))
    return pages


def _corner_pages(mat: Mat, pw_mm: float, ph_mm: float, ppm: float, dpi: float,
                  margin_mm: float) -> list[SheetPage]:
    card = mat.marker_mm + 30.0  # card side: marker + room for the text and corner arrows
    cols = max(1, int((pw_mm - 2 * margin_mm) // card))
    rows = max(1, int((ph_mm - 2 * margin_mm) // card))
    per_page = cols * rows
    pages: list[SheetPage] = []
    W, H = int(round(pw_mm * ppm)), int(round(ph_mm * ppm))
    ids = list(mat.marker_ids)
    for p in range(math.ceil(len(ids) / per_page)):
        page = np.full((H, W), 255, np.uint8)
        for k, mid in enumerate(ids[p * per_page:(p + 1) * per_page]):
            r, c = divmod(k, cols)
            x0, y0 = margin_mm + c * card, margin_mm + r * card
            cx, cy = x0 + card / 2, y0 + card / 2
            # paint the marker centred on the card, by faking a mat offset
            mx, my = mat.marker_centre(mid)
            paint_marker(page, mat, mid, ppm, offset_mm=(mx - cx, my - cy))
            cv2.rectangle(page, (int(x0 * ppm), int(y0 * ppm)), (int((x0 + card) * ppm), int((y0 + card) * ppm)),
                          170, 1)
            s = mat.marker_mm / 2
            _text(page, f"id {mid}  {mat.marker_label(mid)}", (int((x0 + 2) * ppm), int((y0 + 6) * ppm)),
                  3.0 * ppm)
            _text(page, f"centre at x {mx:g} mm, y {my:g} mm", (int((x0 + 2) * ppm), int((cy + s + 9) * ppm)),
                  2.6 * ppm)
            _text(page, "top edge of the mat ^", (int((x0 + 2) * ppm), int((cy - s - 3) * ppm)), 2.4 * ppm, 90)
        if p == 0:
            xs = sorted({c[0] for c in mat.marker_centres_mm})
            ys = sorted({c[1] for c in mat.marker_centres_mm})
            lines = ["Cut out the cards. Stick them so that the marker centres lie at the positions written on them",
                     f"(mat {mat.width_mm:g} x {mat.height_mm:g} mm; centres {xs[-1] - xs[0]:g} mm apart across and "
                     f"{ys[-1] - ys[0]:g} mm down; equal diagonals of "
                     f"{math.hypot(xs[-1] - xs[0], ys[-1] - ys[0]):.0f} mm = square), all upright (^ to the top edge).",
                     "Print at 100% (no scaling). The play area is the rectangle between them, inside the cards."]
            for k, line in enumerate(lines):
                _text(page, line, (int(margin_mm * ppm), int((ph_mm - margin_mm - 12 + 5 * k) * ppm)), 2.3 * ppm, 40)
        pages.append(SheetPage(page, dpi, f"{mat.name} marker cards page {p + 1}"))
    return pages


def write_png_with_dpi(path: str | Path, image: np.ndarray, dpi: float) -> Path:
    """Write a PNG carrying a pHYs chunk so that printers and viewers know its true size."""
    path = Path(path)
    ok, buf = cv2.imencode(".png", image)
    if not ok:  # pragma: no cover - OpenCV always encodes uint8 images
        raise VisionError(T("{path}: could not encode the PNG", path=str(path)))
    data = buf.tobytes()
    ppmetre = int(round(dpi / 0.0254))
    body = b"pHYs" + struct.pack(">IIB", ppmetre, ppmetre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature + IHDR length, type, data, crc
    path.write_bytes(data[:ihdr_end] + chunk + data[ihdr_end:])
    return path


def png_dpi(path: str | Path) -> float | None:
    """The DPI recorded in a PNG's pHYs chunk, or None."""
    data = Path(path).read_bytes()
    at = data.find(b"pHYs")
    if at < 0:
        return None
    x, _y, unit = struct.unpack(">IIB", data[at + 4:at + 13])
    return x * 0.0254 if unit == 1 else None
