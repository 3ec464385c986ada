"""Enrolment: learning what every tile of a set looks like, from scans or from the camera.

From scans: a folder holding one image per tile type named ``<tile id>.png`` (or
``.jpg``), the tile seen straight from above, its own north up, cropped to the tile.

From the camera (see docs/vision.md, "Enrolment"): the tiles are laid on the mat in
the catalog's order, **row by row from the top-left corner of the play area**, every
tile turned with its own north toward the mat's top edge, in the cells of an enrolment
grid whose pitch is the tile size plus ``gap_mm`` (a finger's width, 10 mm by
default). When the set does not fit on the mat at once, lay it in batches: photo 1
holds the first ``capacity`` tiles, photo 2 the next ones, and so on. Several photos of
the same batch (other light) may be given; their samples are averaged.

Each tile is found near its enrolment cell (it may lie a few millimetres and degrees
off) by matching the sample against a flat, straight square; then it is cut out,
straightened and stored at :data:`vision.refs.TILE_PX` pixels.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import cv2
import numpy as np

from tablehub.i18n import T  # what a phone and the console read (tablehub/locale/*/visionfiles.po)

from . import VisionError
from .colourcast import paper_white
from .mat import Mat
from .refs import TILE_PX, ReferenceSet
from .tiles import CatalogInfo, Grid, mat_margin_pixels

if TYPE_CHECKING:
    from .pieces import PlayerColours

log = logging.getLogger(__name__)

MapFn = Callable[[np.ndarray], np.ndarray]


class EnrolError(VisionError):
    """Enrolment input that cannot be used; one line naming what to fix."""


def read_image(path: str | Path) -> np.ndarray:
    """A colour image from disk (alpha composited on light grey); one-line error when unreadable."""
    p = Path(path)
    img = cv2.imread(str(p), cv2.IMREAD_UNCHANGED) if p.is_file() else None
    if img is None:
        raise EnrolError(T("{path}: not a readable image file", path=str(p)))
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    elif img.shape[2] == 4:
        a = img[..., 3:4].astype(np.float32) / 255
        img = (img[..., :3] * a + 235 * (1 - a)).astype(np.uint8)
    return img


def refs_from_scans(folder: str | Path, catalog: CatalogInfo, camera: str = "scans",
                    px: int = TILE_PX, blur_sigma: float = 0.0) -> ReferenceSet:
    """References from a folder of tile scans named ``<tile id>.png`` (every catalog tile needed)."""
    root = Path(folder)
    if not root.is_dir():
        raise EnrolError(T("{path}: no such folder of tile scans", path=str(root)))
    images = []
    missing = []
    for tid in catalog.tile_ids:
        path = next((root / f"{tid}{ext}" for ext in (".png", ".jpg", ".jpeg") if (root / f"{tid}{ext}").is_file()),
                    None)
        if path is None:
            missing.append(tid)
            continue
        img = read_image(path)
        if blur_sigma > 0:
            img = cv2.GaussianBlur(img, (0, 0), blur_sigma)
        images.append(cv2.resize(img, (px, px), interpolation=cv2.INTER_AREA))
    if missing:
        raise EnrolError(T("{path}: no scan for {n} tiles ({tiles}); expected files named <tile id>.png", path=str(root),
                           n=len(missing), tiles=", ".join(missing[:6]) + ("..." if len(missing) > 6 else "")))
    return ReferenceSet(game=catalog.game, tile_ids=list(catalog.tile_ids), images=np.stack(images), camera=camera,
                        source=f"scans:{root}", counts=[catalog.counts.get(t, 1) for t in catalog.tile_ids])


@dataclass(frozen=True)
class EnrolLayout:
    """Where tile number i of a batch lies on the mat during camera enrolment."""

    mat: Mat
    gap_mm: float = 10.0

    @property
    def pitch(self) -> float:
        return self.mat.tile_mm + self.gap_mm

    @property
    def columns(self) -> int:
        return max(1, int((self.mat.play_width_mm + self.gap_mm) // self.pitch))

    @property
    def rows(self) -> int:
        return max(1, int((self.mat.play_height_mm + self.gap_mm) // self.pitch))

    @property
    def capacity(self) -> int:
        return self.columns * self.rows

    def centre_mm(self, i: int) -> tuple[float, float]:
        r, c = divmod(i, self.columns)
        px, py = self.mat.play_origin_mm
        t = self.mat.tile_mm
        return (px + t / 2 + c * self.pitch, py + t / 2 + r * self.pitch)


def sample_tile(frame: np.ndarray, to_frame: MapFn, centre_mm: tuple[float, float], tile_mm: float,
                angle_deg: float = 0.0, px: int = TILE_PX, margin_px: int = 0) -> np.ndarray:
    """The square of ``tile_mm`` centred at ``centre_mm`` (turned by ``angle_deg``), as ``px`` pixels (+ margin)."""
    from .sampling import grid_maps

    g = Grid(centre_mm, angle_deg, tile_mm)
    mx, my = grid_maps(to_frame, g, 0, 0, 1, 1, px, margin_px, step=4)
    return cv2.remap(frame, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def locate_tile(frame: np.ndarray, to_frame: MapFn, centre_mm: tuple[float, float], tile_mm: float,
                background: np.ndarray, search_mm: float = 8.0) -> tuple[tuple[float, float], float]:
    """Where a lone tile really lies near ``centre_mm``: (centre, small angle), from its outline on the mat.

    First to about a pixel (where a tile-sized square covers most of what is unlike the mat), then by its four
    sides (:func:`measure_outline`), which give its turn; where the sides cannot be measured surely (a frame too
    soft or noisy, art of the cloth's colour along a side) the tile is taken square where the square lies."""
    ppm = TILE_PX / tile_mm
    margin = int(math.ceil(search_mm * ppm))
    win = sample_tile(frame, to_frame, centre_mm, tile_mm, 0.0, TILE_PX, margin)
    lab = cv2.cvtColor(win, cv2.COLOR_BGR2Lab).astype(np.float32)
    d = lab - background
    d[..., 0] *= 0.5
    mask = (np.linalg.norm(d, axis=2) > 24).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    if mask.sum() < 0.3 * TILE_PX * TILE_PX:
        raise EnrolError(T("enrolment: no tile found near ({x}, {y}) mm; lay the tiles in the documented order, one per "
                           "enrolment cell", x=format(centre_mm[0], ".0f"), y=format(centre_mm[1], ".0f")))
    # position: where a tile-sized square covers most of the mask (thin lines on the mat hardly count)
    cover = cv2.blur(mask.astype(np.float32), (TILE_PX, TILE_PX), anchor=(0, 0), borderType=cv2.BORDER_CONSTANT)
    valid = cover[:mask.shape[0] - TILE_PX + 1, :mask.shape[1] - TILE_PX + 1]
    ys, xs = np.nonzero(valid >= valid.max() - 1e-3)
    top, left = float(ys.mean()), float(xs.mean())
    if valid.max() < 0.6:
        # too little of it stands out from the mat to find its outline: trust where it was laid
        outline = measure_outline(frame, to_frame, centre_mm, tile_mm, background)
        if outline is not None:
            return outline.centre_mm, outline.angle_deg
        log.warning("enrolment: the tile near (%.0f, %.0f) mm is hard to tell from the mat; taking it where it "
                    "should lie", centre_mm[0], centre_mm[1])
        return centre_mm, 0.0
    # small turn: the outline of the mask inside that square (plus one pixel)
    t0, l0 = int(round(top)) - 1, int(round(left)) - 1
    sub = mask[max(t0, 0):t0 + TILE_PX + 2, max(l0, 0):l0 + TILE_PX + 2]
    pts = np.column_stack(np.nonzero(sub)[::-1]).astype(np.float32)
    angle = 0.0
    if len(pts) > 10:
        _, _, a = cv2.minAreaRect(pts)
        angle = float(np.clip(((a + 45.0) % 90.0) - 45.0, -5.0, 5.0))
    cx = (left + TILE_PX / 2 - margin) / ppm - tile_mm / 2 + centre_mm[0]
    cy = (top + TILE_PX / 2 - margin) / ppm - tile_mm / 2 + centre_mm[1]
    # the turn and the place to a fraction of a pixel, from the tile's four sides (the square above is found to
    # about a pixel and its outline, cut square to the mat, measures no turn: every reference kept the turn its
    # tile was laid at, 0.5-1.5 degrees, and glyph twins then differed by the turn more than by the glyph)
    outline = measure_outline(frame, to_frame, (cx, cy), tile_mm, background)
    if outline is not None:
        return outline.centre_mm, outline.angle_deg
    return (cx, cy), angle


#: pixels per millimetre at which a tile's outline is measured (finer than the frame: the edges' places are
#: interpolated to a fraction of a frame pixel)
OUTLINE_PPM = 4.0


@dataclass(frozen=True)
class Outline:
    """A lone tile's four sides measured in a frame: its centre on the mat (mm), its small turn (clockwise
    degrees), its sides' lengths (mm, W-E and N-S) and how many of its four sides were found."""

    centre_mm: tuple[float, float]
    angle_deg: float
    size_mm: tuple[float, float]
    sides: int
    turn_sd: float = 0.0


def _side_pieces(rise: np.ndarray, at: float, band: int, along: np.ndarray, pieces: int = 12
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Where a straight side lies in ``rise`` (rows across the side, from outside in; columns along it: how fast
    the colour departs from the mat's going in), expected near row ``at``: the side's length cut in ``pieces``,
    each piece's rise summed along it and placed where that sum peaks (the centroid of the peak: to a fraction of
    a pixel, where a pixel's own maximum would snap to the frame's pixels that the window interpolates); then
    the pieces on the straight line that most of them lie on (within 1.2 pixels: art of the mat's colour along a
    part of the side, a corner, a shadow's edge where the tile's is faint lie off it). (along, across, weight) of
    those pieces, or None when fewer than half agree."""
    lo, hi = max(int(round(at)) - band, 1), min(int(round(at)) + band + 1, rise.shape[0] - 1)
    xs, ys, ws = [], [], []
    w = max(2, band // 3)
    for part in np.array_split(along, pieces):
        prof = rise[lo:hi, part].sum(axis=1)
        k = int(np.argmax(prof))
        a, b = max(k - w, 0), min(k + w + 1, len(prof))
        seg = np.clip(prof[a:b], 0, None)
        if seg.sum() <= 0:
            continue
        xs.append(float(part.mean()))
        ys.append(lo + a + float((seg * np.arange(len(seg))).sum() / seg.sum()))
        ws.append(float(prof[k]))
    if len(xs) < pieces / 2:
        return None
    x, y, wt = np.array(xs), np.array(ys), np.array(ws)
    best = None
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            s = (y[j] - y[i]) / (x[j] - x[i])
            inl = np.abs(y - (y[i] + s * (x - x[i]))) <= 1.2
            score = (int(inl.sum()), float(wt[inl].sum()))
            if best is None or score > best[0]:
                best = (score, inl)
    keep = best[1]
    if keep.sum() < pieces / 2:
        return None
    return x[keep], y[keep], wt[keep]


SIDE_TURN_AGREE = 0.6
"""A side whose own slope lies more than this many degrees from the median side's is not the tile's edge."""

SQUARE_SLACK_MM = 0.8
"""A tile's measured sides may differ in length by this much (blur, JPEG); more, and one was taken elsewhere."""

TURN_SD_MAX = 0.25
"""A turn measured less surely than this (standard deviation, degrees, from the fit) is not taken."""

PLACEMENT_TURN_SD = 1.0
"""How far (standard deviation, degrees) a tile laid by hand square to the mat's edge may be turned: the measured
turn is trusted in the measure that it is more certain than this (a frame too soft or noisy to measure a side's
slope well turns the reference less than it measures)."""


def measure_outline(frame: np.ndarray, to_frame: MapFn, centre_mm: tuple[float, float], tile_mm: float,
                    background: np.ndarray, band_mm: float = 2.5, ppm: float = OUTLINE_PPM) -> Outline | None:
    """The lone tile lying near ``centre_mm`` (within about ``band_mm`` less its turn) measured by its four sides.

    A window square to the mat around the tile is sampled at ``ppm`` pixels per mm, smoothed by about half a
    frame pixel (the window interpolates the frame's pixels), and how fast the colour departs from the mat's
    (``background``, Lab) going into the tile taken across each side: signed, so a cloth's or a JPEG's noise sums
    to nothing along a side and the art's own edges inside count either way. Each side's places
    (:func:`_side_pieces`) are fitted together: four straight lines with one turn (N and S run down to the east
    and W and E to the west going south by the tangent of a clockwise turn). The turn is then weighed against
    how a hand lays a tile (:data:`PLACEMENT_TURN_SD`) by the fit's own uncertainty; the centre is where the
    lines between opposite sides cross. A shadow's edge runs parallel to the side and cannot turn the tile.

    None (not measured surely: the caller keeps the tile square) when a side is not found or its slope disagrees
    with the others' by more than :data:`SIDE_TURN_AGREE`, when the sides differ in length by more than
    :data:`SQUARE_SLACK_MM` or are longer than the tile, or when the fit's turn is less sure than
    :data:`TURN_SD_MAX`. On the bench's enrolments (seeds 1 and 2) the turn is measured for 43-44 of 44 tiles on
    the renderer's default camera (0.08 degrees off on average), 11-14 at ``hard`` and on the field camera's
    ``default``, about 6 on its ``hard`` (1.1 px a mm, JPEG 50, the olive cloth)."""
    n = int(round(tile_mm * ppm))
    margin = int(math.ceil((band_mm + 1.5) * ppm))
    win = sample_tile(frame, to_frame, centre_mm, tile_mm, 0.0, n, margin).astype(np.float32)
    probe = to_frame(np.array([[centre_mm[0] - 5.0, centre_mm[1]], [centre_mm[0] + 5.0, centre_mm[1]]], np.float64))
    frame_ppm = float(np.linalg.norm(np.subtract(probe[1], probe[0]))) / 10.0
    sigma = 0.6 * ppm / max(frame_ppm, 0.5)
    lab = cv2.cvtColor(cv2.GaussianBlur(win, (0, 0), sigma).clip(0, 255).astype(np.uint8), cv2.COLOR_BGR2Lab)
    d = lab.astype(np.float32) - np.asarray(background, np.float32)
    d[..., 0] *= 0.5
    away = np.sqrt((d * d).sum(axis=2))
    gy = cv2.Sobel(away, cv2.CV_32F, 0, 1, ksize=3)
    gx = cv2.Sobel(away, cv2.CV_32F, 1, 0, ksize=3).T
    band = int(round(band_mm * ppm))
    along = np.arange(margin + int(0.1 * n), margin + n - int(0.1 * n))
    c0 = margin + (n - 1) / 2.0
    found = {}
    for k, e, at in (("N", gy, margin - 0.5), ("S", -gy, margin + n - 0.5), ("W", gx, margin - 0.5),
                     ("E", -gx, margin + n - 0.5)):
        got = _side_pieces(np.ascontiguousarray(e), at, band, along)
        if got is not None:
            found[k] = got
    if len(found) < 4:
        return None     # a side lost in the art or the cloth: the turn would rest on too little
    # a side whose own slope disagrees with the others' (its places on art or a cloth's fold, not the edge) is
    # left out
    own = {k: math.degrees(math.atan(np.polyfit(x, y, 1)[0])) * (1 if k in "NS" else -1)
           for k, (x, y, _) in found.items()}
    mid = float(np.median(list(own.values())))
    found = {k: v for k, v in found.items() if abs(own[k] - mid) <= SIDE_TURN_AGREE}
    if len(found) < 4:
        return None     # a side lost in the art or the cloth: the turn would rest on too little
    # one least-squares fit: across = a_side + sign_side * t * (along - c0), t the tangent of the turn
    names = list(found)
    rows, rhs, wts = [], [], []
    for i, k in enumerate(names):
        x, y, w = found[k]
        sign = 1.0 if k in "NS" else -1.0
        for xi, yi, wi in zip(x, y, w):
            r = np.zeros(len(names) + 1)
            r[i] = 1.0
            r[-1] = sign * (xi - c0)
            rows.append(r)
            rhs.append(yi)
            wts.append(math.sqrt(max(wi, 1e-6)))
    A, yv, sw = np.array(rows), np.array(rhs), np.array(wts)
    sol, *_ = np.linalg.lstsq(A * sw[:, None], yv * sw, rcond=None)
    res = yv - A @ sol
    dof = max(len(yv) - len(sol), 1)
    s2 = float((sw * sw * res * res).sum() / dof)
    cov = s2 * np.linalg.pinv((A * sw[:, None]).T @ (A * sw[:, None]))
    t_sd = math.degrees(math.sqrt(max(float(cov[-1, -1]), 0.0)))
    measured = math.degrees(math.atan(float(sol[-1])))
    prior = PLACEMENT_TURN_SD ** 2
    angle = measured * prior / (prior + t_sd ** 2)
    slope = math.tan(math.radians(angle))
    across = {k: float(sol[i]) for i, k in enumerate(names)}
    if "N" in across and "S" in across:
        my, hy = (across["N"] + across["S"]) / 2, across["S"] - across["N"]
    else:
        hy = across["E"] - across["W"]
        my = across["S"] - hy / 2 if "S" in across else across["N"] + hy / 2
    if "W" in across and "E" in across:
        mx, hx = (across["W"] + across["E"]) / 2, across["E"] - across["W"]
    else:
        hx = hy
        mx = across["E"] - hx / 2 if "E" in across else across["W"] + hx / 2
    # the lines through the middle (row = my + slope (x - c0), column = mx - slope (y - c0)) cross at:
    ux = (mx + slope * (c0 - my) + slope * slope * c0) / (1 + slope * slope)
    uy = my + slope * (ux - c0)
    cx = centre_mm[0] + (ux - c0) / ppm
    cy = centre_mm[1] + (uy - c0) / ppm
    if (abs(hx - hy) / ppm > SQUARE_SLACK_MM or max(hx, hy) / ppm > tile_mm + 0.5 or t_sd > TURN_SD_MAX):
        return None     # not a square, or its sides too unsure: one was taken on the art or a shadow's edge
    return Outline((cx, cy), angle, (hx / ppm, hy / ppm), len(found), t_sd)


def refs_from_frames(frames: Sequence[np.ndarray], mappings: Sequence[MapFn], catalog: CatalogInfo, mat: Mat,
                     batches: Sequence[int] | None = None, gap_mm: float = 10.0, camera: str = "camera",
                     background: np.ndarray | None = None) -> ReferenceSet:
    """References from photos of the set laid out as :class:`EnrolLayout` says.

    ``batches[k]`` is the batch number of photo k (default: photo k is batch k).
    Batch b holds catalog tiles ``b*capacity`` .. ``(b+1)*capacity - 1``.
    """
    from .pieces import background_lab

    layout = EnrolLayout(mat, gap_mm)
    batches = list(batches) if batches is not None else list(range(len(frames)))
    if len(batches) != len(frames) or len(mappings) != len(frames):
        raise EnrolError(T("enrolment: one batch number and one mat mapping per photo"))
    n = len(catalog.tile_ids)
    need = math.ceil(n / layout.capacity)
    have = sorted(set(batches))
    if have != list(range(need)):
        raise EnrolError(T("enrolment: {n} tiles need {need} batches of {capacity} on this mat, got photos of batches "
                           "{have}", n=n, need=need, capacity=layout.capacity, have=str(have)))
    sums = np.zeros((n, TILE_PX, TILE_PX, 3), np.float64)
    counts = np.zeros(n)
    mat_bgr = []
    whites = []
    for frame, to_frame, b in zip(frames, mappings, batches):
        margin = mat_margin_pixels(frame, to_frame, mat.play_rect_mm, min(12.0, mat.play_origin_mm[1] / 2))
        mat_bgr.append(np.median(margin.astype(np.float64), axis=0))
        white = paper_white(frame, to_frame, mat)   # the light's colour in this session (vision.colourcast)
        if white is not None:
            whites.append(white)
        bg = background if background is not None else background_lab(margin.reshape(-1, 1, 3))
        for i in range(layout.capacity):
            k = b * layout.capacity + i
            if k >= n:
                break
            centre, angle = locate_tile(frame, to_frame, layout.centre_mm(i), mat.tile_mm, bg)
            sums[k] += sample_tile(frame, to_frame, centre, mat.tile_mm, angle)
            counts[k] += 1
    images = (sums / counts[:, None, None, None]).round().astype(np.uint8)
    return ReferenceSet(game=catalog.game, tile_ids=list(catalog.tile_ids), images=images, camera=camera,
                        source=f"camera:{len(frames)} photos", counts=[catalog.counts.get(t, 1) for t in catalog.tile_ids],
                        meta={"gap_mm": gap_mm, "tile_mm": mat.tile_mm,
                              "mat_bgr": [round(float(v), 2) for v in np.mean(mat_bgr, axis=0)],
                              **({"white_bgr": [round(float(v), 2) for v in np.mean(whites, axis=0)]}
                                 if whites else {})})


# --------------------------------------------------------------------------- simulated enrolment

#: the colours of the figures laid out for colour calibration, left to right
CALIBRATION_COLOURS = ("red", "blue", "green", "yellow", "black")


def enrolment_scene(mat: Mat, tile_ids: Sequence[str], rng: np.random.Generator | None = None,
                    gap_mm: float = 10.0, sloppiness: float = 1.0, first: int = 0,
                    mat_colour: tuple[int, int, int] | None = None) -> Any:
    """A :mod:`vision.sim` scene of tiles ``first``.. laid out for enrolment as :class:`EnrolLayout` says."""
    from .sim import Scene, SceneTile

    layout = EnrolLayout(mat, gap_mm)
    tiles = []
    for i, tid in enumerate(tile_ids[first:first + layout.capacity]):
        r, c = divmod(i, layout.columns)
        off, ang = (0.0, 0.0), 0.0
        if rng is not None and sloppiness > 0:
            off = tuple(float(v) for v in np.clip(rng.normal(0, 0.5, 2) * sloppiness, -1.2 * sloppiness,
                                                  1.2 * sloppiness))
            ang = float(np.clip(rng.normal(0, 0.6), -1.5, 1.5) * sloppiness)
        tiles.append(SceneTile(c, r, tid, 0, (c * gap_mm + off[0], r * gap_mm + off[1]), ang))
    px, py = mat.play_origin_mm
    scene = Scene(mat=mat, tiles=tiles, origin_mm=(px + mat.tile_mm / 2, py + mat.tile_mm / 2))
    if mat_colour is not None:
        scene.mat_colour = mat_colour
    return scene


def colour_scene(mat: Mat, names: Sequence[str] = CALIBRATION_COLOURS,
                 mat_colour: tuple[int, int, int] | None = None) -> Any:
    """A :mod:`vision.sim` scene of one figure per colour in a row across the middle of the bare mat."""
    from .sim import Scene, SceneFigure

    first = -(len(names) // 2)
    scene = Scene(mat=mat, figures=[SceneFigure(first + i, 0, name) for i, name in enumerate(names)])
    if mat_colour is not None:
        scene.mat_colour = mat_colour
    return scene


def calibrate_from_frame(frame: np.ndarray, rectifier: Any, names: Sequence[str]) -> "PlayerColours":
    """Player colours from a photo of figures laid in a row on the bare play area (left to right = ``names``)."""
    from .pieces import calibrate_colours

    loc = rectifier.locate(frame)
    canvas = rectifier.warp(frame, loc)
    ppm = rectifier.px_per_mm
    x, y, w, h = rectifier.mat.play_rect_mm
    rect = (int(x * ppm), int(y * ppm), int(w * ppm), int(h * ppm))
    return calibrate_colours(canvas, names, ppm, rect_px=rect)


def enrol_simulated(catalog_path: str | Path, art: Any, camera: Any, rng: np.random.Generator,
                    mat: Mat | None = None, names: Sequence[str] = CALIBRATION_COLOURS,
                    size: tuple[int, int] = (1920, 1080), geometry: Any = None,
                    mat_colour: tuple[int, int, int] | None = None) -> tuple[ReferenceSet, Any, Any]:
    """Enrol a set from the simulator as a person would: photos of the laid-out tiles, then of the figures.

    Returns ``(references, player colours, lens calibration)``; the lens is the rendered
    camera's exact one (what a ChArUco calibration would measure).
    """
    from .rectify import Rectifier
    from .sim import render

    mat = mat or Mat.default()
    catalog = CatalogInfo.load(catalog_path)
    layout = EnrolLayout(mat)
    frames, mappings = [], []
    lens = None
    rect = None
    for b in range(math.ceil(len(catalog.tile_ids) / layout.capacity)):
        scene = enrolment_scene(mat, catalog.tile_ids, rng, first=b * layout.capacity, mat_colour=mat_colour)
        frame, truth = render(scene, art, camera, rng, size, geometry=geometry)
        lens = truth.lens()
        rect = Rectifier(mat, lens=lens)
        loc = rect.locate(frame)
        frames.append(frame)
        mappings.append(lambda p, loc=loc, rect=rect: rect.mat_to_image(p, loc, size))
    refs = refs_from_frames(frames, mappings, catalog, mat, camera="sim")
    frame, _ = render(colour_scene(mat, names, mat_colour), art, camera, rng, size, geometry=geometry)
    colours = calibrate_from_frame(frame, Rectifier(mat, px_per_mm=2.0, lens=lens), names)
    return refs, colours, lens
