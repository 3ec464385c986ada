"""Sampling the table through the mat: grid canvases from a frame, the cells in view, a cell's outline.

A *mapping* (:data:`MapFn`) takes mat millimetres to frame pixels (the rectifier's homography and lens);
everything here reads the frame through one, so the same code reads camera frames and top-down canvases.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import cv2
import numpy as np

from .tiles import MARGIN_PX, TILE_PX, Grid, GridCanvas

MapFn = Callable[[np.ndarray], np.ndarray]
"""Mat millimetres (n, 2) -> frame pixels (n, 2) (or back, for the inverse)."""

Cell = tuple[int, int]



class GridSampler:
    """Samples grid canvases from a frame through a mat -> frame mapping, caching the remap tables."""

    step = 8
    """The mapping is evaluated every ``step`` pixels and interpolated (it is smooth)."""

    def __init__(self) -> None:
        self._key: tuple | None = None
        self._maps: tuple[np.ndarray, np.ndarray] | None = None

    def sample(self, frame: np.ndarray, to_frame: MapFn, key: Any, grid: Grid, x0: int, y0: int, nx: int, ny: int,
               px: int = TILE_PX, margin: int = MARGIN_PX) -> GridCanvas:
        full_key = (key, grid, x0, y0, nx, ny, px, margin)
        if full_key != self._key or self._maps is None:
            self._maps = grid_maps(to_frame, grid, x0, y0, nx, ny, px, margin, self.step)
            self._key = full_key if key is not None else None
        image = cv2.remap(frame, self._maps[0], self._maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return GridCanvas(image, x0, y0, nx, ny, px, margin)


def grid_maps(to_frame: MapFn, grid: Grid, x0: int, y0: int, nx: int, ny: int, px: int, margin: int,
              step: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """``cv2.remap`` tables from grid-canvas pixels to frame pixels."""
    w, h = nx * px + 2 * margin, ny * px + 2 * margin
    cols = np.append(np.arange(0, w, step), w - 1).astype(np.float64)
    rows = np.append(np.arange(0, h, step), h - 1).astype(np.float64)
    uu, vv = np.meshgrid(cols, rows)
    gx = x0 - 0.5 + (uu - margin + 0.5) / px
    gy = y0 - 0.5 + (vv - margin + 0.5) / px
    m = grid.mat_from_grid()
    mm = np.stack([m[0, 0] * gx + m[0, 1] * gy + m[0, 2], m[1, 0] * gx + m[1, 1] * gy + m[1, 2]], axis=-1)
    fr = to_frame(mm.reshape(-1, 2)).reshape(len(rows), len(cols), 2).astype(np.float32)
    # interpolate the coarse lattice to every pixel (the lattice ends exactly on the last pixel), through a
    # table that depends only on the canvas size (kept). One channel at a time: OpenCV 5 interpolates a
    # two-channel float image differently (by up to 0.1 px here)
    fine = _fine_lattice(w, h, step)
    out = [cv2.remap(np.ascontiguousarray(fr[..., c]), fine[0], fine[1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE) for c in range(2)]
    return out[0], out[1]


_FINE: dict[tuple[int, int, int], tuple[np.ndarray, np.ndarray]] = {}


def _fine_lattice(w: int, h: int, step: int) -> tuple[np.ndarray, np.ndarray]:
    """Per canvas pixel, where it lies on the lattice of points :func:`grid_maps` evaluates every ``step``
    pixels (fractional lattice column, row): the same for every canvas of this size, so kept."""
    key = (w, h, step)
    hit = _FINE.get(key)
    if hit is None:
        cols = np.append(np.arange(0, w, step), w - 1).astype(np.float64)
        rows = np.append(np.arange(0, h, step), h - 1).astype(np.float64)
        fine_x = np.interp(np.arange(w), cols, np.arange(len(cols)))
        fine_y = np.interp(np.arange(h), rows, np.arange(len(rows)))
        mx, my = np.meshgrid(fine_x.astype(np.float32), fine_y.astype(np.float32))
        hit = (mx, my)
        if len(_FINE) > 64:
            _FINE.clear()
        _FINE[key] = hit
    return hit


def cells_in_view(grid: Grid, to_frame: MapFn, size: tuple[int, int], region_mm: tuple[float, float, float, float],
                  margin_mm: float = 5.0, from_frame: MapFn | None = None) -> list[Cell]:
    """The grid cells whose whole square, grown by ``margin_mm``, the camera sees on the table plane.

    Candidates are the cells of ``region_mm`` (x, y, width, height on the mat, the mat and beyond),
    narrowed to the frame's footprint on the table when ``from_frame`` (frame pixels -> mat mm) is
    given. A cell is in view when its corners and edge midpoints map inside the frame (a lens bends
    straight edges) and, with ``from_frame``, map back to where they came from: a lens model pushed far
    beyond the part of the picture it was calibrated on can fold distant points into the frame.
    Cells are listed row by row (y, then x).
    """
    w, h = size
    rx, ry, rw, rh = region_mm
    if from_frame is not None:
        t = np.linspace(0.0, 1.0, 17)
        border = np.concatenate([np.column_stack([t * (w - 1), np.zeros_like(t)]),
                                 np.column_stack([t * (w - 1), np.full_like(t, h - 1)]),
                                 np.column_stack([np.zeros_like(t), t * (h - 1)]),
                                 np.column_stack([np.full_like(t, w - 1), t * (h - 1)])])
        foot = from_frame(border)
        foot = foot[np.isfinite(foot).all(axis=1)]
        if len(foot):
            lo = np.maximum(foot.min(axis=0), (rx, ry))
            hi = np.minimum(foot.max(axis=0), (rx + rw, ry + rh))
            rx, ry, rw, rh = float(lo[0]), float(lo[1]), float(max(hi[0] - lo[0], 0.0)), float(max(hi[1] - lo[1], 0.0))
    corners = np.array([grid.grid_from_mat(rx + dx, ry + dy) for dx in (0, rw) for dy in (0, rh)])
    (gx0, gy0), (gx1, gy1) = np.floor(corners.min(axis=0)), np.ceil(corners.max(axis=0))
    gx, gy = np.meshgrid(np.arange(gx0, gx1 + 1), np.arange(gy0, gy1 + 1))
    cells = np.column_stack([gx.ravel(), gy.ravel()])                   # (n, 2), row by row
    half = 0.5 + margin_mm / grid.pitch_mm
    ring = np.array([(-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)], float) * half
    pts = (cells[:, None, :] + ring[None, :, :]).reshape(-1, 2)
    m = grid.mat_from_grid()
    mm = pts @ m[:2, :2].T + m[:2, 2]
    fr = to_frame(mm)
    ok = np.isfinite(fr).all(axis=1) & (fr[:, 0] >= 0) & (fr[:, 0] <= w - 1) & (fr[:, 1] >= 0) & (fr[:, 1] <= h - 1)
    if from_frame is not None and ok.any():
        back = np.full_like(mm, np.inf)
        back[ok] = from_frame(fr[ok])
        ok &= np.linalg.norm(back - mm, axis=1) < 1.0
    inside = ok.reshape(len(cells), len(ring)).all(axis=1)
    return [(int(x), int(y)) for x, y in cells[inside]]


def outline_strength(bgr: np.ndarray, top: int, left: int, side: int, reach: int = 3, band: int = 6
                     ) -> list[float]:
    """How clearly each side (N, S, W, E) of the square of ``side`` pixels at (top, left) of ``bgr`` shows as a
    straight edge: the mean grey gradient across the side (averaged along it, corners left out), at its
    strongest within ``reach`` pixels of where the side should be, over the median of that profile
    ``reach + band`` pixels either side."""
    pad = reach + band + 2
    h, w = bgr.shape[:2]
    y0, y1, x0, x1 = top - pad, top + side + pad, left - pad, left + side + pad
    window = np.ascontiguousarray(bgr[max(y0, 0):min(y1, h), max(x0, 0):min(x1, w)])
    grey = cv2.copyMakeBorder(cv2.cvtColor(window, cv2.COLOR_BGR2GRAY), max(-y0, 0), max(y1 - h, 0),
                              max(-x0, 0), max(x1 - w, 0), cv2.BORDER_REPLICATE).astype(np.float32)
    top, left = pad, pad
    inner = slice(top + band, top + side - band), slice(left + band, left + side - band)
    across = reach + band
    rows = np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3))[top - across:top + side + across, inner[1]].mean(axis=1)
    cols = np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3))[inner[0], left - across:left + side + across].mean(axis=0)
    out = []
    for prof in (rows, cols):
        base = float(np.median(prof)) + 1.0
        for at in (across, across + side - 1):
            out.append(float(prof[at - reach:at + reach + 1].max()) / base)
    return out


def cell_side_px(grid: Grid, to_frame: MapFn, cells: Sequence[Cell]) -> float:
    """The shortest side of the cells (frame pixels between neighbouring cell centres), at most a few sampled."""
    if not cells:
        return 0.0
    pick = np.array(cells[::max(1, len(cells) // 16)], float)
    m = grid.mat_from_grid()
    pts = np.concatenate([pick, pick + (1, 0), pick + (0, 1)])
    fr = to_frame(pts @ m[:2, :2].T + m[:2, 2]).reshape(3, len(pick), 2)
    return float(min(np.linalg.norm(fr[1] - fr[0], axis=1).min(), np.linalg.norm(fr[2] - fr[0], axis=1).min()))


def cell_bounds(cells: Sequence[Cell]) -> tuple[int, int, int, int]:
    """(x0, y0, nx, ny) of the rectangle of cells that holds ``cells``."""
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    return min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def canvas_mapping(px_per_mm: float) -> MapFn:
    """Mapping for frames that already are top-down canvases (pixel = mat mm * px_per_mm)."""
    return lambda pts: np.asarray(pts, np.float64) * px_per_mm


def median_u8(values: np.ndarray) -> np.ndarray:
    """``np.median(values.astype(np.float32), axis=0)`` of 8-bit rows (n, channels), the same float32 values (the
    middle one, or the mean of the middle two), found from each channel's histogram of its 256 levels instead of
    sorting (a figure's window's bare mat, a hundred windows a reading; a Sunda frame's cloth on the mat's margin, every
    frame: 3-5 ms sorted, under 1 counted; the supply gate's differences, 100 000 cells). NaN where there are no rows."""
    n, channels = values.shape
    out = np.full(channels, np.nan, np.float32)
    if not n:
        return out
    img = np.ascontiguousarray(values).reshape(n, 1, channels)
    for c in range(channels):
        cum = np.cumsum(cv2.calcHist([img], [c], None, [256], [0, 256]).ravel().astype(np.int64))
        lo = int(np.searchsorted(cum, (n - 1) // 2, side="right"))     # the (n - 1) // 2-th smallest (from 0)
        hi = int(np.searchsorted(cum, n // 2, side="right"))
        out[c] = np.float32(lo + hi) / np.float32(2.0)
    return out
