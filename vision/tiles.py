"""Tiles on the table: the grid fixed by the start tile, and the classification of cells.

Conventions (the record conventions): grid cell ``(x, y)`` with x growing east and y
growing south, the start tile at ``(0, 0)``; a tile's rotation is clockwise degrees
(0, 90, 180, 270); the start tile's own north defines north, so the whole grid may be
turned against the mat (by quarter turns and a few degrees of hand placement).

The work happens on a *grid canvas*: the camera frame warped (one
``cv2.warpPerspective``) so that cells are axis-aligned squares of
:data:`TILE_PX` pixels, with a margin around every cell for tiles laid a few
millimetres off the grid. A cell is classified in three vectorised stages:

1. every cell against every tile type in 4 rotations at 8 px per tile (normalised
   correlation as one matrix product over a few shifts) -> a short list;
2. the short list at 24 px per tile with ``cv2.matchTemplate`` over all shifts;
3. the best few at 48 px per tile around the best shift, templates also turned
   by a few degrees (hand placement).

Constraints (tiles still in the box, expected edge terrains) only break ties
between candidates whose scores are within :attr:`TileClassifier.tie_margin`:
a tile that is clearly seen is reported as seen, legal or not.
"""
from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import cv2
import numpy as np

from . import VisionError
from .refs import ReferenceSet

log = logging.getLogger(__name__)

TILE_PX = 48
"""Pixels per tile side on the grid canvas (about 1 px per mm)."""
MARGIN_PX = 12
"""Extra pixels on every side of a cell window: how far off its cell a tile may lie."""
COARSE = 6
"""Stage-1 downsampling factor (48 -> 8 px per tile)."""
SIDES = "NESW"


class TileError(VisionError):
    """A tile problem a person can fix (no start tile in view, a bad catalog)."""


# --------------------------------------------------------------------------- catalog data


@dataclass(frozen=True)
class CatalogInfo:
    """What vision needs from a ``tablehub-tiles/1`` catalog: ids, counts, start tile, edges."""

    game: str
    tile_ids: tuple[str, ...]
    counts: Mapping[str, int]
    start: str
    edges: Mapping[str, tuple[str, str, str, str]]
    """Per tile, the slot terrains of its own N, E, S, W sides, each as 3 letters (l, c, r)."""
    data: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "catalog") -> "CatalogInfo":
        tiles = data.get("tiles") if isinstance(data, Mapping) else None
        if not isinstance(tiles, list) or not tiles:
            raise TileError(f"{source}: no 'tiles' list (expected a tablehub-tiles/1 catalog)")
        ids: list[str] = []
        counts: dict[str, int] = {}
        edges: dict[str, tuple[str, str, str, str]] = {}
        start = ""
        for i, tile in enumerate(tiles):
            tid = tile.get("id") if isinstance(tile, Mapping) else None
            if not isinstance(tid, str):
                raise TileError(f"{source}: tiles[{i}] has no string 'id'")
            ids.append(tid)
            counts[tid] = int(tile.get("count", 1))
            if tile.get("start") and not start:
                start = tid
            slots = {f"{s}{p}": "?" for s in SIDES for p in "lcr"}
            for region in tile.get("regions", []):
                for token in str(region.get("slots", "")).split():
                    names = [f"{token}{p}" for p in "lcr"] if token in SIDES else [token]
                    for name in names:
                        if name in slots:
                            slots[name] = str(region.get("terrain", "?"))
            edges[tid] = tuple("".join(slots[f"{s}{p}"] for p in "lcr") for s in SIDES)  # type: ignore[assignment]
        return cls(game=str(data.get("game", "")), tile_ids=tuple(ids), counts=counts,
                   start=start or ids[0], edges=edges, data=data)

    @classmethod
    def load(cls, path: str | Path) -> "CatalogInfo":
        p = Path(path)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except OSError as exc:
            raise TileError(f"{p}: cannot read the tile catalog ({exc.strerror or exc})") from None
        except json.JSONDecodeError as exc:
            raise TileError(f"{p}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
        return cls.from_dict(data, str(p))

    def edges_turned(self, tile_id: str, rotation: int) -> tuple[str, str, str, str]:
        """Slot terrains facing N, E, S, W once the tile is turned clockwise by ``rotation`` degrees."""
        own = self.edges[tile_id]
        k = (rotation // 90) % 4
        return tuple(own[(d - k) % 4] for d in range(4))  # type: ignore[return-value]


# --------------------------------------------------------------------------- grid


@dataclass(frozen=True)
class Grid:
    """The cell grid on the mat: where cell (0, 0)'s centre lies and how the grid is turned.

    ``angle_deg`` is the clockwise angle from the mat's x axis to the grid's x axis
    (east): 90 means the start tile lies with its north facing the mat's right edge.
    """

    origin_mm: tuple[float, float]
    angle_deg: float = 0.0
    pitch_mm: float = 45.0

    def _rot(self) -> np.ndarray:
        a = math.radians(self.angle_deg)
        return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])

    def mat_from_grid(self) -> np.ndarray:
        """3x3 matrix from grid coordinates (cell centres at integers) to mat millimetres."""
        m = np.eye(3)
        m[:2, :2] = self._rot() * self.pitch_mm
        m[:2, 2] = self.origin_mm
        return m

    def cell_centre_mm(self, x: float, y: float) -> tuple[float, float]:
        p = self.mat_from_grid() @ np.array([x, y, 1.0])
        return float(p[0]), float(p[1])

    def grid_from_mat(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        p = np.linalg.inv(self.mat_from_grid()) @ np.array([x_mm, y_mm, 1.0])
        return float(p[0]), float(p[1])

    def cells_in(self, rect_mm: tuple[float, float, float, float]) -> list[tuple[int, int]]:
        """Cells whose centre lies inside ``rect_mm`` = (x, y, width, height)."""
        rx, ry, rw, rh = rect_mm
        corners = [self.grid_from_mat(rx + dx, ry + dy) for dx in (0, rw) for dy in (0, rh)]
        xs = [c[0] for c in corners]
        ys = [c[1] for c in corners]
        out = []
        for y in range(math.floor(min(ys)), math.ceil(max(ys)) + 1):
            for x in range(math.floor(min(xs)), math.ceil(max(xs)) + 1):
                cx, cy = self.cell_centre_mm(x, y)
                if rx <= cx <= rx + rw and ry <= cy <= ry + rh:
                    out.append((x, y))
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"origin_mm": [round(self.origin_mm[0], 3), round(self.origin_mm[1], 3)],
                "angle_deg": round(self.angle_deg, 3), "pitch_mm": self.pitch_mm}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Grid":
        ox, oy = data["origin_mm"]
        return cls((float(ox), float(oy)), float(data.get("angle_deg", 0.0)), float(data.get("pitch_mm", 45.0)))


@dataclass
class GridCanvas:
    """Cells ``x0..x0+nx-1`` x ``y0..y0+ny-1`` warped to squares of ``px`` pixels, plus ``margin``."""

    image: np.ndarray
    x0: int
    y0: int
    nx: int
    ny: int
    px: int
    margin: int

    def window(self, x: int, y: int, margin: int | None = None) -> np.ndarray:
        """Cell (x, y) with ``margin`` pixels around it (default: the canvas margin)."""
        m = self.margin if margin is None else margin
        top = self.margin + (y - self.y0) * self.px - m
        left = self.margin + (x - self.x0) * self.px - m
        return self.image[top:top + self.px + 2 * m, left:left + self.px + 2 * m]

    def contains(self, x: int, y: int) -> bool:
        return self.x0 <= x < self.x0 + self.nx and self.y0 <= y < self.y0 + self.ny


def frame_from_canvas(mat_to_frame: np.ndarray, grid: Grid, x0: int, y0: int, px: int, margin: int) -> np.ndarray:
    """3x3 matrix from grid-canvas pixels to frame pixels (for ``WARP_INVERSE_MAP``)."""
    s = 1.0 / px
    # canvas pixel u (centre at integer u) -> grid coordinate x0 - 0.5 + (u - margin + 0.5) / px
    canvas_to_grid = np.array([[s, 0, x0 - 0.5 + (0.5 - margin) * s],
                               [0, s, y0 - 0.5 + (0.5 - margin) * s],
                               [0, 0, 1.0]])
    return np.asarray(mat_to_frame, float) @ grid.mat_from_grid() @ canvas_to_grid


def sample_grid(frame: np.ndarray, mat_to_frame: np.ndarray, grid: Grid, x0: int, y0: int, nx: int, ny: int,
                px: int = TILE_PX, margin: int = MARGIN_PX) -> GridCanvas:
    """Warp the cells ``x0..x0+nx-1, y0..y0+ny-1`` of ``frame`` onto an axis-aligned grid canvas."""
    m = frame_from_canvas(mat_to_frame, grid, x0, y0, px, margin)
    size = (nx * px + 2 * margin, ny * px + 2 * margin)
    image = cv2.warpPerspective(frame, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                borderMode=cv2.BORDER_REPLICATE)
    return GridCanvas(image, x0, y0, nx, ny, px, margin)


def frame_scale(mat_to_frame: np.ndarray, at_mm: tuple[float, float]) -> float:
    """Frame pixels per mat millimetre near ``at_mm`` (geometric mean of the two axes)."""
    h = np.asarray(mat_to_frame, float)
    pts = np.array([[at_mm, (at_mm[0] + 1, at_mm[1]), (at_mm[0], at_mm[1] + 1)]], float)
    q = cv2.perspectiveTransform(pts, h)[0]
    return float(math.sqrt(np.linalg.norm(q[1] - q[0]) * np.linalg.norm(q[2] - q[0])))


def prepare_frame(frame: np.ndarray, mat_to_frame: np.ndarray, mm_per_px_wanted: float,
                  at_mm: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """Halve the frame (pyrDown) while it is much finer than needed, to avoid aliasing in the warp."""
    h = np.asarray(mat_to_frame, float)
    while frame_scale(h, at_mm) * mm_per_px_wanted > 2.5 and min(frame.shape[:2]) > 64:
        frame = cv2.pyrDown(frame)
        h = np.diag([0.5, 0.5, 1.0]) @ h
    return frame, h


# --------------------------------------------------------------------------- features


def to_features(image: np.ndarray) -> np.ndarray:
    """The colour space the classifier correlates in: float32 CIE Lab (OpenCV 8-bit scaling)."""
    return cv2.cvtColor(np.ascontiguousarray(image), cv2.COLOR_BGR2Lab).astype(np.float32)


def _normalise_rows(x: np.ndarray) -> np.ndarray:
    """Zero mean per channel, unit norm per row: x has shape (..., pixels, channels)."""
    x = x - x.mean(axis=-2, keepdims=True)
    flat = x.reshape(*x.shape[:-2], -1)
    norm = np.linalg.norm(flat, axis=-1, keepdims=True)
    return flat / np.maximum(norm, 1e-3)


# --------------------------------------------------------------------------- classification


@dataclass(frozen=True)
class Candidate:
    tile: str
    rotation: int
    score: float

    def to_dict(self) -> dict[str, Any]:
        return {"tile": self.tile, "rotation": self.rotation, "score": round(self.score, 4)}


@dataclass(frozen=True)
class TileGuess:
    """What one cell shows: the best tile and rotation, how sure, and the runners-up."""

    x: int
    y: int
    tile: str
    rotation: int
    score: float
    confidence: float
    runners_up: tuple[Candidate, ...] = ()
    offset_mm: tuple[float, float] = (0.0, 0.0)
    """Where the tile's centre lies against its cell centre, in grid-aligned mm."""
    angle_deg: float = 0.0
    """The tile's small turn against the grid (hand placement), clockwise degrees."""
    constrained: bool = False
    """True when a constraint chose between near-equal candidates."""

    def to_dict(self) -> dict[str, Any]:
        return {"x": self.x, "y": self.y, "tile": self.tile, "rotation": self.rotation,
                "confidence": round(self.confidence, 3), "score": round(self.score, 4),
                "runners_up": [c.to_dict() for c in self.runners_up]}


@dataclass(frozen=True)
class Constraints:
    """Hints that break ties between near-equal candidates, never more.

    ``in_box``: tile ids still available (``None``: no hint). ``neighbours``: per cell,
    the terrains its sides are expected to show, ``{"N": "G", "E": "SSS"}`` (one letter
    for a whole side, or three for the l, c, r slots seen from the cell).
    """

    in_box: frozenset[str] | None = None
    neighbours: Mapping[tuple[int, int], Mapping[str, str]] = field(default_factory=dict)


class TileClassifier:
    """Classifies grid-canvas cells against a :class:`ReferenceSet` in four rotations."""

    shortlist = 8
    """Stage-1 candidates kept per cell."""
    finalists = 3
    """Stage-2 candidates examined at full resolution."""
    tie_margin = 0.015
    """Candidates scoring within this of the best count as a tie that constraints may break."""
    angles = (-3.0, 0.0, 3.0)
    """Small turns (degrees) tried at stage 3 for hand-placed tiles."""

    def __init__(self, refs: ReferenceSet, catalog: CatalogInfo | None = None, px: int = TILE_PX):
        if px % COARSE or px % 2:
            raise ValueError(f"px must be a multiple of {COARSE} and of 2")
        self.refs = refs
        self.catalog = catalog
        self.px = px
        imgs = refs.images
        if imgs.shape[1] != px:
            imgs = np.stack([cv2.resize(im, (px, px), interpolation=cv2.INTER_AREA) for im in imgs])
        self.ids: list[str] = []
        self.rots: list[int] = []
        full: list[np.ndarray] = []
        for i, tid in enumerate(refs.tile_ids):
            feat = to_features(imgs[i])
            for k in range(4):
                self.ids.append(tid)
                self.rots.append(90 * k)
                full.append(np.ascontiguousarray(np.rot90(feat, -k)))
        self.t3 = np.stack(full)                                   # (J, px, px, 3)
        c = px // COARSE
        coarse = np.stack([cv2.resize(f, (c, c), interpolation=cv2.INTER_AREA) for f in full])
        self.t1 = _normalise_rows(coarse.reshape(len(full), c * c, 3)).astype(np.float32)  # (J, c*c*3)
        h = px // 2
        self.t2 = [cv2.resize(f, (h, h), interpolation=cv2.INTER_AREA) for f in full]
        self._turned: dict[tuple[int, float], np.ndarray] = {}

    # ------------------------------------------------------------------ helpers

    def _turned_template(self, j: int, angle: float) -> np.ndarray:
        """Template j turned by a small angle, cropped to the central part that stays inside."""
        key = (j, angle)
        t = self._turned.get(key)
        if t is None:
            px = self.px
            if angle == 0.0:
                t = self.t3[j]
            else:
                rot = cv2.getRotationMatrix2D(((px - 1) / 2, (px - 1) / 2), -angle, 1.0)
                t = cv2.warpAffine(self.t3[j], rot, (px, px), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
            inset = 3
            t = np.ascontiguousarray(t[inset:px - inset, inset:px - inset])
            self._turned[key] = t
        return t

    # ------------------------------------------------------------------ stages

    def coarse_scores(self, windows: np.ndarray, margin: int) -> np.ndarray:
        """Stage 1: best correlation of each window (n, px+2m, px+2m, 3) with every template, (n, J)."""
        n = windows.shape[0]
        c = self.px // COARSE
        cm = margin // COARSE
        side = c + 2 * cm
        small = cv2.resize(windows.reshape(n * windows.shape[1], windows.shape[2], 3),
                           (side, n * side), interpolation=cv2.INTER_AREA).reshape(n, side, side, 3)
        shifts = [(dy, dx) for dy in range(0, 2 * cm + 1) for dx in range(0, 2 * cm + 1)]
        patches = np.stack([small[:, dy:dy + c, dx:dx + c] for dy, dx in shifts], axis=1)  # (n, s, c, c, 3)
        feats = _normalise_rows(patches.reshape(n, len(shifts), c * c, 3))                   # (n, s, d)
        scores = feats.reshape(n * len(shifts), -1) @ self.t1.T
        return scores.reshape(n, len(shifts), -1).max(axis=1)

    def classify_windows(self, windows: np.ndarray, cells: Sequence[tuple[int, int]], margin: int,
                         constraints: Constraints | None = None) -> list[TileGuess]:
        """Classify feature windows (n, px+2m, px+2m, 3) (see :func:`to_features`) of ``cells``."""
        if len(cells) == 0:
            return []
        s1 = self.coarse_scores(windows, margin)
        k = min(self.shortlist, s1.shape[1])
        short = np.argpartition(-s1, k - 1, axis=1)[:, :k]
        half = self.px // 2
        out = []
        for n, (x, y) in enumerate(cells):
            win = windows[n]
            win2 = cv2.resize(win, (win.shape[1] // 2, win.shape[0] // 2), interpolation=cv2.INTER_AREA)
            stage2 = []
            for j in short[n]:
                res = cv2.matchTemplate(win2, self.t2[j], cv2.TM_CCOEFF_NORMED)
                _, best, _, loc = cv2.minMaxLoc(res)
                stage2.append((best, int(j), loc))
            stage2.sort(key=lambda t: -t[0])
            final = []
            for s2, j, (lx, ly) in stage2[:self.finalists]:
                best3 = (-2.0, 0.0, 0.0, 0.0)
                for angle in self.angles:
                    t = self._turned_template(j, angle)
                    inset = (self.px - t.shape[0]) // 2
                    cx, cy = 2 * lx + inset, 2 * ly + inset          # top-left of the template in win
                    r = 2
                    y0, x0 = max(cy - r, 0), max(cx - r, 0)
                    y1 = min(cy + r + t.shape[0], win.shape[0])
                    x1 = min(cx + r + t.shape[1], win.shape[1])
                    res = cv2.matchTemplate(win[y0:y1, x0:x1], t, cv2.TM_CCOEFF_NORMED)
                    _, best, _, loc = cv2.minMaxLoc(res)
                    if best > best3[0]:
                        best3 = (best, angle, x0 + loc[0] - inset - margin, y0 + loc[1] - inset - margin)
                final.append((best3[0], j, best3))
            final.sort(key=lambda t: -t[0])
            seen = {j for _, j, _ in final}
            rest = [(s, j, None) for s, j, _ in stage2 if j not in seen]
            out.append(self._decide(x, y, final, rest, constraints))
        return out

    def _decide(self, x: int, y: int, final: list, rest: list, constraints: Constraints | None) -> TileGuess:
        pick = 0
        constrained = False
        if constraints is not None and len(final) > 1:
            top = final[0][0]
            tied = [i for i, f in enumerate(final) if top - f[0] <= self.tie_margin]
            if len(tied) > 1:
                fits = [i for i in tied if self._fits(final[i][1], x, y, constraints)]
                if fits and fits[0] != 0:
                    pick, constrained = fits[0], True
        score, j, (_, angle, dx, dy) = final[pick]
        others = [f for i, f in enumerate(final) if i != pick] + rest
        # runners-up: best score per other (tile, rotation)
        runners = tuple(Candidate(self.ids[oj], self.rots[oj], float(os_)) for os_, oj, _ in others[:3])
        second = max((o[0] for o in others if self.ids[o[1]] != self.ids[j] or
                      not self._same_look(j, o[1])), default=-1.0)
        confidence = _confidence(float(score), float(second))
        mm = self.refs_mm_per_px()
        return TileGuess(x, y, self.ids[j], self.rots[j], float(score), confidence, runners,
                         (dx * mm, dy * mm), angle, constrained)

    def _same_look(self, a: int, b: int) -> bool:
        return self.ids[a] == self.ids[b] and self.rots[a] == self.rots[b]

    def refs_mm_per_px(self) -> float:
        pitch = 45.0
        return pitch / self.px

    def _fits(self, j: int, x: int, y: int, constraints: Constraints) -> bool:
        tid = self.ids[j]
        if constraints.in_box is not None and tid not in constraints.in_box:
            return False
        want = constraints.neighbours.get((x, y)) if constraints.neighbours else None
        if want and self.catalog is not None and tid in self.catalog.edges:
            have = self.catalog.edges_turned(tid, self.rots[j])
            for side, terrain in want.items():
                h = have[SIDES.index(side)]
                if len(terrain) == 1 and set(h) != {terrain}:
                    return False
                if len(terrain) == 3 and h != terrain:
                    return False
        return True


def _confidence(best: float, second: float) -> float:
    """Map the best score and the margin to the runner-up onto 0..1."""
    margin = best - max(second, 0.0)
    quality = np.clip((best - 0.35) / 0.3, 0.0, 1.0)
    separation = np.clip(margin / 0.08, 0.0, 1.0)
    return float(quality * (0.5 + 0.5 * separation)) if margin > 0 else float(quality * 0.4)
