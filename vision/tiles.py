"""Tiles on the table: the grid fixed by the start tile, and the classification of cells.

Conventions (the record conventions): grid cell ``(x, y)`` with x growing east and y
growing south, the start tile at ``(0, 0)``; a tile's rotation is clockwise degrees
(0, 90, 180, 270); the start tile's own north defines north, so the whole grid may be
turned against the mat (by quarter turns and a few degrees of hand placement).

The work happens on a *grid canvas* (made by :mod:`vision.recognize`): the camera frame
resampled so that cells are axis-aligned squares of :data:`TILE_PX` pixels, with a
margin around every cell for tiles laid a few millimetres off the grid. A cell is
classified in vectorised stages:

1. every cell against every tile type in 4 rotations at 8 px per tile (normalised
   correlation as one matrix product over 25 shifts) -> a short list;
2. the short list at 24 px per tile over 3 x 3 positions, all cells at once;
3. the best 3 at 48 px per tile, templates also turned by a few degrees (hand placement);
4. the best against close runners-up and its *twins* (pictures that differ only in a detail: a town,
   a goods glyph of a few pixels) on just the places where their references differ
   (:meth:`TileClassifier._verify`); a contest too close to call leaves the twins a marked guess
   (:meth:`TileClassifier._undecided`).

A cell that nothing fits as well as a bare tile does is *partly covered* (a figure, its
shadow): it is scored by blocks, leaving out the blocks that the photo shows covered,
the same for every candidate (:meth:`TileClassifier._block_grid`).

Constraints (tiles still in the box, expected edge terrains) only break ties
between candidates whose scores are within :attr:`TileClassifier.tie_margin`:
a tile that is clearly seen is reported as seen, legal or not. Twins whose telling
detail lies under a figure are such a tie whatever their whole-tile scores (those are
pulled by the figure and its shadow): the guess lists them (``TileGuess.hidden_twins``),
its confidence says it is a guess, and :func:`settle_hidden` picks the one of which the
box still holds the most copies (three of E1 left and one of E3: E1).
"""
from __future__ import annotations

import json
import logging
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Collection, Mapping, Sequence

import cv2
import numpy as np
from numpy.lib.stride_tricks import as_strided

from tablehub.i18n import T, Tc  # what a phone and the console read (tablehub/locale/*/visionfiles.po)

from . import VisionError
from .refs import ReferenceSet

log = logging.getLogger(__name__)

TILE_PX = 48
"""Pixels per tile side on the grid canvas (about 1 px per mm)."""
MARGIN_PX = 12
"""Extra pixels on every side of a cell window: how far off its cell a tile may lie."""
COARSE = 6
"""Stage-1 downsampling factor (48 -> 8 px per tile)."""
INSET = 3
"""Pixels cropped from each side of a template turned by a small angle (its corners leave the square)."""
SIDES = "NESW"


class TileError(VisionError):
    """A tile problem a person can fix (no start tile in view, a bad catalog)."""


# --------------------------------------------------------------------------- catalog data


def _region_layout(region: Mapping[str, Any], rotation: int) -> tuple[Any, frozenset]:
    """A catalog region's terrain and the slots it reaches once its tile is turned clockwise by ``rotation``."""
    k = (rotation // 90) % 4
    slots = set()
    for token in str(region.get("slots", "")).split():
        for name in ([f"{token}{p}" for p in "lcr"] if token in SIDES else [token]):
            slots.add(SIDES[(SIDES.index(name[0]) + k) % 4] + name[1:])
    return region.get("terrain"), frozenset(slots)


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
            raise TileError(T("{where}: no 'tiles' list (expected a tablehub-tiles/1 catalog)", where=str(source)))
        ids: list[str] = []
        counts: dict[str, int] = {}
        edges: dict[str, tuple[str, str, str, str]] = {}
        start = ""
        for i, tile in enumerate(tiles):
            tid = tile.get("id") if isinstance(tile, Mapping) else None
            if not isinstance(tid, str):
                raise TileError(T("{where}: tiles[{i}] has no string 'id'", where=str(source), i=i))
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
            raise TileError(T("{path}: cannot read the {what} ({why})", path=str(p), what=Tc("file", "catalog"), why=exc.strerror or str(exc))) from None
        except json.JSONDecodeError as exc:
            raise TileError(T("{source}: not valid JSON (line {line}, column {column}: {why})", source=str(p), line=exc.lineno, column=exc.colno, why=exc.msg)) from None
        return cls.from_dict(data, str(p))

    def same_for_the_game(self, tile_id: str, a: int, b: int) -> bool:
        """Whether the tile turned by ``a`` and by ``b`` degrees is the same tile for the rules: the game's own
        answer (:attr:`tablehub.games.tiles.catalog.TileType.distinct_rotations`: regions, their symbols and boats,
        towns and touching pairs on the same slots). ds083 (all sea) looks different turned but plays the same in
        every turn; ds013 (mountain N and S, a plain between) turned 180; ds056 turned 180 is not (its town then faces
        the other bay). Without the game's catalog (:meth:`rules` None), every region on the same slots."""
        if a % 360 == b % 360:
            return True
        rules = self.rules()
        if rules is not None and tile_id in rules.by_id:
            # the turns that leave a tile the same are a subgroup of the four: none, the half turn, or every
            # turn; the game lists one turn of each class, as many classes as the group's index
            return (((b - a) // 90) % 4) % len(rules.tile(tile_id).distinct_rotations) == 0

        def layout(rotation: int) -> frozenset:
            return frozenset((*_region_layout(region, rotation), bool(region.get("symbols")), bool(region.get("boat")))
                             for region in self.data["tiles"][self.tile_ids.index(tile_id)].get("regions", []))

        return bool(self.data) and tile_id in self.tile_ids and layout(a) == layout(b)

    def region_layout(self, tile_id: str, rotation: int, region_id: str) -> tuple[Any, frozenset] | None:
        """What region ``region_id`` of the tile turned by ``rotation`` degrees is for the rules: its terrain and
        the slots it reaches on the table's sides (``"Nl"``, ``"Ec"``, ...; an inner region none). Two regions of
        two tiles (twins, or one tile in two turns) with the same layout are the same place for a figure: U1 turned
        90 and 270 degrees puts its sea ``S:W`` where the other turn has ``S:E``. None: unknown here."""
        if not self.data or tile_id not in self.tile_ids:
            return None
        for region in self.data["tiles"][self.tile_ids.index(tile_id)].get("regions", []):
            if str(region.get("id")) == str(region_id):
                return _region_layout(region, rotation)
        return None

    def rules(self) -> Any:
        """The game's own catalog (:class:`tablehub.games.tiles.catalog.Catalog`) built from this one's data, once;
        None where the data is no full catalog (a hand-made one with unknown slots)."""
        if "_rules" not in self.__dict__:
            from tablehub.games.tiles.catalog import CatalogError, build_catalog
            try:
                rules = build_catalog(dict(self.data), "catalog") if self.data else None
            except (CatalogError, KeyError, TypeError, ValueError) as exc:
                # said once per catalog: an owner's hand-made set reads on, but twins are then told by art alone
                log.warning("vision: catalog %r is not one the game's rules can use (%s); hidden twins are told "
                            "apart by their art alone, not by which sides continue their neighbours",
                            self.data.get("game", "?"), exc)
                rules = None
            object.__setattr__(self, "_rules", rules)
        return self.__dict__["_rules"]

    def side_fits(self, tile_id: str, rotation: int, side: int, other: str, other_rotation: int) -> bool:
        """Whether ``other`` turned by ``other_rotation``, lying beside the tile on its ``side`` (0-3: N, E, S, W,
        the table's), continues it: the game's own rule (:meth:`tablehub.games.tiles.catalog.Catalog.continues`,
        the one the board and the photo's scoring ask). Without the game's catalog (:meth:`rules` None), or for a
        tile it does not know, anything fits: the rule tells nothing."""
        rules = self.rules()
        if rules is None or tile_id not in rules.by_id or other not in rules.by_id:
            return True
        return rules.continues(tile_id, int(rotation) % 360, side, other, int(other_rotation) % 360)

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
        """3x3 matrix from grid coordinates (cell centres at integers) to mat millimetres (made once per grid and
        kept, read-only: a reading asks for it thousands of times, issue 14)."""
        m = self.__dict__.get("_mat_from_grid")
        if m is None:
            m = np.eye(3)
            m[:2, :2] = self._rot() * self.pitch_mm
            m[:2, 2] = self.origin_mm
            m.flags.writeable = False
            object.__setattr__(self, "_mat_from_grid", m)
        return m

    def cell_centre_mm(self, x: float, y: float) -> tuple[float, float]:
        p = self.mat_from_grid() @ np.array([x, y, 1.0])
        return float(p[0]), float(p[1])

    def grid_from_mat(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        inv = self.__dict__.get("_grid_from_mat")
        if inv is None:
            inv = np.linalg.inv(self.mat_from_grid())
            inv.flags.writeable = False
            object.__setattr__(self, "_grid_from_mat", inv)
        p = inv @ np.array([x_mm, y_mm, 1.0])
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

    def crop(self, x0: int, y0: int, nx: int, ny: int) -> "GridCanvas":
        """The cells x0..x0+nx-1, y0..y0+ny-1 (inside this canvas) with the same margin; shares pixels."""
        top = (y0 - self.y0) * self.px
        left = (x0 - self.x0) * self.px
        img = self.image[top:top + ny * self.px + 2 * self.margin, left:left + nx * self.px + 2 * self.margin]
        return GridCanvas(img, x0, y0, nx, ny, self.px, self.margin)

    def contains(self, x: int, y: int) -> bool:
        return self.x0 <= x < self.x0 + self.nx and self.y0 <= y < self.y0 + self.ny


class FeatureCanvas(GridCanvas):
    """A grid canvas in classifier features (:func:`to_features`), at full and half resolution,
    with the box statistics that normalised correlation needs."""

    def __init__(self, canvas: GridCanvas):
        super().__init__(to_features(canvas.image), canvas.x0, canvas.y0, canvas.nx, canvas.ny, canvas.px,
                         canvas.margin)
        self.bgr = canvas.image
        self._boxes: dict[int, np.ndarray] = {}
        h, w = self.image.shape[:2]
        self.levels = [self.image, cv2.resize(self.image, (w // 2, h // 2), interpolation=cv2.INTER_AREA)]
        self._integrals: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._occlusion: list[np.ndarray] | None = None
        self._planes: dict[int, tuple[np.ndarray, ...]] = {}
        self.kept: dict[Any, Any] = {}
        """What readers make once per canvas from its picture and what else its key names (e.g. the grid)."""

    def planes(self, level: int) -> tuple[np.ndarray, ...]:
        """The level's three feature channels, each a contiguous image (made once): windows are gathered from these
        several times faster than from the interleaved image."""
        hit = self._planes.get(level)
        if hit is None:
            img = self.levels[level]
            hit = tuple(np.ascontiguousarray(img[..., c]) for c in range(img.shape[2]))
            self._planes[level] = hit
        return hit

    def set_occlusion(self, covered: np.ndarray) -> None:
        """Where things may lie on the tiles (figures, shadows): a boolean image the size of the canvas."""
        full = covered.astype(np.float32)
        self._occlusion = [full] + [cv2.resize(full, (lv.shape[1], lv.shape[0]), interpolation=cv2.INTER_AREA)
                                    for lv in self.levels[1:]]

    def occlusion(self, level: int) -> np.ndarray | None:
        return None if self._occlusion is None else self._occlusion[level]

    def covers(self, top: int, left: int, side: int) -> bool:
        """Whether something covered (a figure, its shadow) lies in the square at (top, left) of this canvas."""
        occ = self.occlusion(0)
        return occ is not None and bool((occ[top:top + side, left:left + side] >= 0.5).any())

    def top_left(self, x: int, y: int) -> tuple[int, int]:
        """Canvas (row, column) of the top-left pixel of cell (x, y)."""
        return (self.margin + (y - self.y0) * self.px, self.margin + (x - self.x0) * self.px)

    def box_means(self, size: int) -> np.ndarray:
        """Image whose pixel (r, c) is the mean of the ``size`` x ``size`` box starting at (r, c)."""
        out = self._boxes.get(size)
        if out is None:
            out = cv2.blur(self.image, (size, size), anchor=(0, 0), borderType=cv2.BORDER_REPLICATE)
            self._boxes[size] = out
        return out

    def _integral(self, level: int) -> tuple[np.ndarray, np.ndarray]:
        hit = self._integrals.get(level)
        if hit is None:
            img = self.levels[level]
            hit = (cv2.integral(np.ascontiguousarray(img[..., 0]), sdepth=cv2.CV_64F),
                   cv2.integral(sum_of_squares(img), sdepth=cv2.CV_64F))
            self._integrals[level] = hit
        return hit

    def scores(self, level: int, templates: np.ndarray, norms: np.ndarray, tops: np.ndarray, lefts: np.ndarray,
               reach: int) -> np.ndarray:
        """Correlation of template k placed at (tops[k] + dy, lefts[k] + dx), |dy|, |dx| <= reach: (K, 2r+1, 2r+1).

        Lightness is centred per placement, chroma is not; templates must have zero-mean lightness.
        """
        img = self.levels[level]
        k, n = templates.shape[0], templates.shape[1]
        side = n + 2 * reach
        h, w = img.shape[:2]
        tops = np.clip(np.asarray(tops, int) - reach, 0, h - side)
        lefts = np.clip(np.asarray(lefts, int) - reach, 0, w - side)
        # every window of the level as a strided view, the places' windows copied out in one gather (the same
        # values as stacking a slice per place, a third to a half of the time: issue 14)
        st = img.strides
        regions = as_strided(img, (h - side + 1, w - side + 1, side, side) + img.shape[2:],
                             (st[0], st[1], st[0], st[1]) + st[2:], writeable=False)[tops, lefts]
        p = 2 * reach + 1
        # one product per shift over each template's own pixels, read in place (a strided view made into one
        # matrix for a matrix product copied every window p * p times: twice as slow, issue 14)
        num = np.empty((k, p, p), np.float32)
        for dy in range(p):
            for dx in range(p):
                num[:, dy, dx] = np.einsum("kijc,kijc->k", regions[:, dy:dy + n, dx:dx + n], templates)
        il, isq = self._integral(level)
        r = (tops[:, None] + np.arange(p)[None, :])[:, :, None]
        c = (lefts[:, None] + np.arange(p)[None, :])[:, None, :]
        s1 = il[r + n, c + n] - il[r, c + n] - il[r + n, c] + il[r, c]
        s2 = isq[r + n, c + n] - isq[r, c + n] - isq[r + n, c] + isq[r, c]
        den = np.sqrt(np.maximum(s2 - s1 * s1 / (n * n), 1e-3)) * norms[:, None, None]
        return num / den, tops, lefts


def mat_margin_pixels(frame: np.ndarray, to_frame: Any, play_rect_mm: tuple[float, float, float, float],
                      inset_mm: float = 12.0, count: int = 40) -> np.ndarray:
    """BGR pixels of the bare mat: points along the four strips just outside the play area.

    ``to_frame`` maps mat mm (n, 2) to frame pixels (n, 2). Raises when the strips are out of view.
    """
    px, py, pw, ph = play_rect_mm
    d = inset_mm
    t = np.linspace(0.15, 0.85, count)
    pts = np.concatenate([np.column_stack([px + t * pw, np.full_like(t, py - d)]),
                          np.column_stack([px + t * pw, np.full_like(t, py + ph + d)]),
                          np.column_stack([np.full_like(t, px - d), py + t * ph]),
                          np.column_stack([np.full_like(t, px + pw + d), py + t * ph])])
    fr = np.round(to_frame(pts)).astype(int)
    h, w = frame.shape[:2]
    ok = (fr[:, 0] >= 0) & (fr[:, 0] < w) & (fr[:, 1] >= 0) & (fr[:, 1] < h)
    if ok.sum() < 10:
        raise VisionError(T("mat: the margin around the play area is out of view; aim the camera at the whole mat"))
    return frame[fr[ok, 1], fr[ok, 0]]


# --------------------------------------------------------------------------- features


CHROMA_WEIGHT = 0.7
"""Weight of the chroma channels against lightness in the correlation."""


def to_features(image: np.ndarray) -> np.ndarray:
    """The colour space the classifier correlates in: float32 CIE Lab with a, b centred on grey.

    Lightness keeps its offset here; :func:`centre_lightness` removes it per window, so
    that the correlation ignores brightness but keeps the absolute colour (a plain of
    uniform sea still looks like sea).
    """
    lab = cv2.cvtColor(np.ascontiguousarray(image), cv2.COLOR_BGR2Lab)
    if lab.dtype == np.uint8:
        # 8-bit Lab: every value's feature from a table (the same arithmetic, made once per value, not per pixel;
        # a quarter of the time on a grid canvas)
        return cv2.LUT(lab, _FEATURE_LUT)
    return _lab_features(lab.astype(np.float32))


def _lab_features(lab: np.ndarray) -> np.ndarray:
    """OpenCV's 8-bit-scaled Lab (float32, changed in place) -> features: a, b centred on grey and weighted."""
    lab[..., 1:] -= 128.0
    lab[..., 1:] *= CHROMA_WEIGHT
    return lab


_FEATURE_LUT = _lab_features(np.repeat(np.arange(256, dtype=np.float32)[:, None], 3, axis=1).reshape(1, 256, 3))
""":func:`to_features` of each 8-bit Lab value, per channel (a look-up table for ``cv2.LUT``)."""


def sum_of_squares(image: np.ndarray) -> np.ndarray:
    """``(image * image).sum(axis=-1)``, to the bit, channel by channel (numpy adds the channels in this order, but
    reducing a three-wide last axis is several times slower)."""
    out = image[..., 0] * image[..., 0]
    for c in range(1, image.shape[-1]):
        out += image[..., c] * image[..., c]
    return out


def centre_lightness(windows: np.ndarray) -> np.ndarray:
    """Subtract each window's mean lightness (windows: (..., h, w, 3) features), in place."""
    windows[..., 0] -= windows[..., 0].mean(axis=(-2, -1), keepdims=True)
    return windows


def _normalise_rows(x: np.ndarray) -> np.ndarray:
    """Zero-mean lightness, unit norm per row: x has shape (..., pixels, channels)."""
    x = x.copy()
    x[..., 0] -= x[..., 0].mean(axis=-1, keepdims=True)
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
    hidden_twins: tuple[tuple[str, int], ...] = ()
    """Twins (tile, rotation) this photo cannot tell from this tile: where their pictures differ, a figure
    stands, or what shows there is too close to call (:attr:`TileClassifier.verify_sure`). They are listed first
    among the runners-up, with this guess's score."""

    def to_dict(self) -> dict[str, Any]:
        out = {"x": self.x, "y": self.y, "tile": self.tile, "rotation": self.rotation,
               "confidence": round(self.confidence, 3), "score": round(self.score, 4),
               "runners_up": [c.to_dict() for c in self.runners_up]}
        if self.hidden_twins:
            out["hidden_twins"] = [{"tile": t, "rotation": r} for t, r in self.hidden_twins]
        return out


@dataclass(frozen=True)
class Constraints:
    """Hints that break ties between near-equal candidates, never more.

    ``in_box``: tile ids still available (``None``: no hint). ``neighbours``: per cell,
    the terrains its sides are expected to show, ``{"N": "G", "E": "SSS"}`` (one letter
    for a whole side, or three for the l, c, r slots seen from the cell).
    """

    in_box: frozenset[str] | None = None
    neighbours: Mapping[tuple[int, int], Mapping[str, str]] = field(default_factory=dict)



def whole_details(rows: np.ndarray, cols: np.ndarray, keep: np.ndarray, px: int) -> np.ndarray:
    """Of the pixels where two references differ (``rows``, ``cols``: every other pixel, as
    ``TileClassifier._difference`` takes them) those of the details wholly in view: the differing pixels joined into
    details (8-connected on that grid), and a detail kept when every one of its pixels is (``keep``: clear of
    figures). Glyph twins differ in several details: Südsee's Q and S in a second shell on the sand and a bridge over
    the sea; a green figure on the sea hid the bridge (95 % of the difference), and the share in view (4.4 %) fell
    under ``TileClassifier.verify_seen``, so the photo was taken to show neither, though the second shell lay wholly
    in view (Q read as S, ``tests/vision/test_recognize.py``'s Südsee board on the grid fitted to its tiles)."""
    if not len(rows):
        return keep
    grid = np.zeros((px // 2 + 2, px // 2 + 2), np.uint8)
    r, c = rows // 2, cols // 2
    grid[r, c] = 1
    n, labels = cv2.connectedComponents(grid, connectivity=8)
    lab = labels[r, c]
    hidden = np.bincount(lab[~keep], minlength=n)
    return keep & (hidden[lab] == 0)

class TileClassifier:
    """Classifies grid-canvas cells against a :class:`ReferenceSet` in four rotations."""

    shortlist = 6
    """Stage-1 candidates kept per cell."""
    finalists = 3
    """Stage-2 candidates examined at full resolution."""
    clear_shortlist = 2
    """:meth:`clear_guesses` (where the clear tiles lie, to fit the lattice before the full reading) takes this many
    of a cell's coarse candidates to half resolution ...
    (issue 14, CPU: a clear tile's place is the same for every candidate that matches it at 0.9; 6 and 3 there
    moved the fitted grid by under 0.05 mm and 0.02 degrees on the bench's full boards, and cost 55 ms instead of
    32)"""
    clear_finalists = 1
    """... and this many of those to full resolution."""
    shift_step = 3
    """Stage-1 shift step in canvas pixels."""
    shift_range = 6
    """Stage-1 shifts go from -shift_range to +shift_range pixels (a tile laid this far off its cell)."""
    verify_margin = 0.06
    """Runners-up scoring within this of the best are compared with it again where their pictures differ
    (:meth:`_verify`) ..."""
    verify_count = 2
    """... at most this many of them; and so are the best candidate's twins:"""
    twin_share = 0.34
    """Templates differing by more than :attr:`twin_detail` (smoothed, sigma 2 px) on less than this share of the
    pixels are twins ..."""
    twin_detail = 12.0
    """... (feature units), examined when there is a close runner-up or ..."""
    twins_below = 0.9
    """... when the best scores below this (a tile matching this well is not its twin: saves time)."""
    verify_sigma = 1.5
    """The comparison smooths photo and references by this (pixels, Gaussian sigma): texture gone, shapes and
    colours kept; ..."""
    verify_reach = 2
    """... aligns each reference with the photo within this many pixels, ..."""
    verify_gains = (0.7, 1.4)
    """... fits the photo's light per channel (a gain on the reference, within these bounds and kept near 1 on
    flat tiles by ..."""
    verify_gain_ridge = 4.0
    """... this ridge, and an offset) where each agrees with the best candidate; ..."""
    verify_detail = 10.0
    """... then compares two of them on the pixels where their smoothed references differ by at least this
    (feature units), ..."""
    verify_ring = 3
    """... leaving out this many pixels along the tile's edges (enrolment crops, hand placement) ..."""
    verify_clear = 4
    """... and those this near a covered pixel (a figure's shadow and lean look like a small dark glyph), ..."""
    verify_pixels = 8
    """... (at least this many of them in view ..."""
    verify_seen = 0.05
    """... and at least this share of their difference: else a figure hides the detail and nothing changes); ..."""
    verify_switch = 0.2
    """... the challenger wins when its misfit there is below the holder's by this share of the references'
    own difference (-1: the photo shows the holder, +1: the challenger) ..."""
    verify_switch_covered = 0.05
    """... or by this share where a figure stands by the tile's detail: there the whole-tile scores that made
    the holder are pulled by the figure and its shadow (a shadow reads like the dark edge of a strip of plain
    that the twin has), while the contest looks only at what shows clear of them."""
    verify_sure = 0.2
    """A final contest that the holder wins by less than this (either way: -0.2 < t) decides nothing: the
    challenger stays beside it as a marked guess (:meth:`_undecided`). On the bench's Südsee ``hard`` rows (seed 3,
    both cameras, 24 boards) the contests within 0.2 of 0 went the true tile's way 54 times in 76, those beyond it
    11,864 times in 11,885."""
    verify_art = 3.0
    """A covered part that a reference misfits by at most this many times its misfit where it was fitted is the
    tile's art, not a figure (:meth:`_less_art`); 0: never."""
    tie_margin = 0.015
    """Candidates scoring within this of the best count as a tie that constraints may break."""
    angles = (-2.0, 2.0)
    """Small turns (degrees) tried for the best candidates when the straight match is not convincing."""
    angle_below = 0.9
    """Try :attr:`angles` only when the best straight score is below this."""
    shortlist_wide = 24
    """Partly covered cells: candidates kept from the half-resolution block scores of every tile type (near the
    cell) for the search over positions."""
    hard_below = 0.8
    """A cell whose best coarse score is below this is treated as partly covered ..."""
    hard_final = 0.88
    """... and so is one whose best full-resolution score is below this (bare tiles score above 0.9)."""
    hard_reach = 3
    """Partly covered cells: positions up to this many half-resolution pixels off the cell are tried."""
    blocks = 4
    """The occlusion-tolerant score cuts a tile into blocks x blocks squares, each correlated on its own ..."""
    drop_blocks = 4
    """... and, where the photo shows nothing covered, leaves out each candidate's worst this many blocks
    (where it does, each block is correlated on its visible pixels: :meth:`FeatureCanvas.set_occlusion`)."""

    window_chunk = 200000
    """Covered cells' searches (:meth:`_block_grids`): the windows of about this many pixels are worked on at once
    (what the cache holds; CPU only, no effect on a reading)."""

    def __init__(self, refs: ReferenceSet, catalog: CatalogInfo | None = None, px: int = TILE_PX,
                 pitch_mm: float = 45.0):
        if px % COARSE:
            raise ValueError(f"px must be a multiple of {COARSE}")
        self.refs = refs
        self.catalog = catalog
        self.px = px
        self.mm_per_px = pitch_mm / px
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
                full.append(centre_lightness(np.ascontiguousarray(np.rot90(feat, -k))))
        self.templates = np.stack(full)                            # (J, px, px, 3)
        self.norms = np.linalg.norm(self.templates.reshape(len(full), -1), axis=1)
        c = px // COARSE
        coarse = self.templates.reshape(len(full), c, COARSE, c, COARSE, 3).mean(axis=(2, 4))
        self.coarse = _normalise_rows(coarse.reshape(len(full), c * c, 3)).astype(np.float32).T  # (d, J)
        h = px // 2
        self.half = np.stack([centre_lightness(cv2.resize(t, (h, h), interpolation=cv2.INTER_AREA))
                              for t in self.templates])
        self.half_norms = np.linalg.norm(self.half.reshape(len(full), -1), axis=1)
        self.look = _look_alikes(self.templates, self.ids, self.rots)
        self.answer = _game_answers(self.look, self.ids, self.rots, catalog)
        """Per template, the answer it gives the game: templates that look the same (:attr:`look`), or one tile in
        turns the game cannot tell apart (:meth:`CatalogInfo.same_for_the_game`: ds083 in any turn), share one."""
        self._turned: dict[tuple[int, float], tuple[np.ndarray, float]] = {}
        self._blocks: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._smooth: dict[tuple[int, float], np.ndarray] = {}
        self._twins: dict[int, list[int]] = {}
        self._visible_terms: dict[int, tuple] = {}
        self._differences: dict[tuple[int, int, float], Any] = {}
        self._difference_totals: dict[tuple[int, int, float], float] = {}
        self._difference_flats: dict[tuple[int, int, float, int], np.ndarray] = {}
        self._thin: dict[tuple[int, float], np.ndarray] = {}
        self._align_at: dict[tuple[int, int], np.ndarray] = {}
        self._all_blurred: list[np.ndarray] = []

    # ------------------------------------------------------------------ helpers

    def _turned_template(self, j: int, angle: float) -> tuple[np.ndarray, float]:
        """Template j turned by a small angle, cropped to the part that stays inside, and its norm."""
        key = (j, angle)
        hit = self._turned.get(key)
        if hit is None:
            px = self.px
            rot = cv2.getRotationMatrix2D(((px - 1) / 2, (px - 1) / 2), -angle, 1.0)
            t = cv2.warpAffine(self.templates[j], rot, (px, px), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)
            t = centre_lightness(np.array(t[INSET:px - INSET, INSET:px - INSET]))
            hit = (t, float(np.linalg.norm(t)))
            self._turned[key] = hit
        return hit

    # ------------------------------------------------------------------ stages

    def coarse_scores(self, canvas: "FeatureCanvas", cells: Sequence[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
        """Stage 1: best coarse correlation of each cell with every template over a few shifts.

        Returns ``(scores (n, J), shift index (n, J))``; shifts are :meth:`shifts`.
        """
        c = self.px // COARSE
        shifts = self.shifts()
        tops = np.array([canvas.top_left(x, y) for x, y in cells])              # (n, 2) row, col
        base = np.arange(c) * COARSE
        rows = tops[:, None, 0, None] + shifts[None, :, 0, None] + base[None, None, :]   # (n, s, c)
        cols = tops[:, None, 1, None] + shifts[None, :, 1, None] + base[None, None, :]
        box = canvas.box_means(COARSE)
        patches = box[rows[:, :, :, None], cols[:, :, None, :]]                  # (n, s, c, c, 3)
        n, s = rows.shape[:2]
        feats = _normalise_rows(patches.reshape(n, s, c * c, 3)).reshape(n * s, -1)
        scores = (feats @ self.coarse).reshape(n, s, -1)
        return scores.max(axis=1), scores.argmax(axis=1)

    def shifts(self) -> np.ndarray:
        r = np.arange(-self.shift_range, self.shift_range + 1, self.shift_step)
        return np.array([(dy, dx) for dy in r for dx in r])

    def _shortlisted(self, canvas: "FeatureCanvas", cells: Sequence[tuple[int, int]]):
        """The coarse stage for ``cells``: its scores ``s1`` (cell by candidate), ``shift_of``, each cell's
        :attr:`shortlist` best candidates best first (``order``) and each cell's top-left pixel (``tops``)."""
        s1, shift_of = self.coarse_scores(canvas, cells)
        k = min(self.shortlist, s1.shape[1])
        order = np.argpartition(-s1, k - 1, axis=1)[:, :k]
        order = np.take_along_axis(order, np.argsort(-np.take_along_axis(s1, order, axis=1), axis=1), axis=1)
        tops = np.array([canvas.top_left(x, y) for x, y in cells])
        return s1, shift_of, order, tops

    def classify(self, canvas: "FeatureCanvas", cells: Sequence[tuple[int, int]],
                 constraints: Constraints | None = None) -> list[TileGuess]:
        """Classify ``cells`` of a feature canvas (see :class:`FeatureCanvas`)."""
        return self._classify(canvas, cells, constraints)

    def classify_for(self, canvas: "FeatureCanvas", cells: Sequence[tuple[int, int]], wanted: Collection[int]
                     ) -> list[TileGuess]:
        """:meth:`classify` where only a reading among the templates ``wanted`` matters to the caller (the start
        search asks whether a place shows the start tile or one of its twins). A cell's twin contest
        (:meth:`_verify`, the costly part) is left out where no candidate it could end on is wanted
        (:meth:`_may_end_on`): its reading is then the best candidate unverified, not wanted either. A reading that
        is wanted is the same as :meth:`classify`'s, and one that is not stays not wanted (issue 14, CPU: Südsee's
        start search contested the twins of all ten places)."""
        return self._classify(canvas, cells, None, wanted)

    def _classify(self, canvas: "FeatureCanvas", cells: Sequence[tuple[int, int]],
                  constraints: Constraints | None = None, wanted: Collection[int] | None = None) -> list[TileGuess]:
        if len(cells) == 0:
            return []
        s1, shift_of, order, tops = self._shortlisted(canvas, cells)
        easy = [n for n in range(len(cells)) if s1[n, order[n, 0]] >= self.hard_below]
        results: dict[int, tuple[list, list]] = {}
        if easy:
            results.update(self._easy_candidates(canvas, easy, tops, order, shift_of))
        # nothing fits as well as a bare tile does: something may lie on it (all such cells searched at once)
        hard = [n for n in range(len(cells)) if not results.get(n, ([], []))[0]
                or results[n][0][0][0] < self.hard_final]
        results.update(self._hard_candidates_many(canvas, hard, tops, s1))
        out = []
        for n, (x, y) in enumerate(cells):
            top, left = int(tops[n, 0]), int(tops[n, 1])
            scored, others = results.get(n, ([], []))
            hidden: list[int] = []
            close: list[int] = []
            # a tile matching well is not its twin, unless something covers part of it: a figure on the
            # detail leaves a twin's whole-tile score as high (ds083 turned, its boats under a figure, 0.902)
            if len(scored) > 1 and (scored[0][0] - scored[1][0] < self.verify_margin
                                    or ((scored[0][0] < self.twins_below or canvas.covers(top, left, self.px))
                                        and self.twins(scored[0][1]))):
                if wanted is None or constraints is not None or self._may_end_on(scored, wanted):
                    scored, hidden, close = self._verify(canvas, scored)
            guess = self._decide(x, y, top, left, scored + others, constraints, hidden)
            if close and guess.confidence >= 0.5:
                # twins too close to call beside a reading that would pass as sure: a marked guess among them. A
                # reading unsure already (half hidden, a dim corner) keeps its pick: its twins put in doubt there
                # were settled by the box among unrelated look-alikes (B3 as J2 on field/hard seed 2)
                guess = self._decide(x, y, top, left, scored + others, constraints, hidden + close)
            out.append(guess)
        return out

    def _may_end_on(self, scored: list, wanted: Collection[int]) -> bool:
        """Whether :meth:`_verify` of ``scored`` (best first) could end on a template of ``wanted``: the holder it
        ends on is the best candidate or one of its challengers (the close runners-up it examines and the best
        one's twins), and without constraints :meth:`_decide` takes the holder."""
        ends = {scored[0][1], *self.twins(scored[0][1])}
        ends.update(s[1] for s in scored[1:1 + self.verify_count])
        return not ends.isdisjoint(wanted)

    def clear_guesses(self, canvas: "FeatureCanvas", cells: Sequence[tuple[int, int]], most: int | None = None
                      ) -> list[TileGuess]:
        """Where the tiles that a bare tile's picture clearly matches lie: ``cells`` read by the easy stages alone
        (coarse, half and full resolution; no small turns, no search for covered cells, no twin contest), each
        kept when its best straight score is at least :attr:`angle_below`. For placing the lattice before the
        full reading (``Recognizer._prefit``): there only each tile's offset from its cell counts, which a twin
        or a turn would not change, and a covered or turned cell is simply left out (issue 14, CPU). ``most``: only
        that many cells are read past the coarse stage, those it matches best. Each cell's best
        :attr:`clear_shortlist` coarse candidates go to half resolution and the best :attr:`clear_finalists` of those
        to full resolution (the full reading: :attr:`shortlist` and :attr:`finalists`)."""
        if len(cells) == 0:
            return []
        s1, shift_of, order, tops = self._shortlisted(canvas, cells)
        best = s1[np.arange(len(cells)), order[:, 0]]
        easy = [int(n) for n in np.argsort(-best, kind="stable") if best[n] >= self.hard_below][:most]
        if not easy:
            return []
        out = []
        for n, (scored, others) in self._easy_candidates(canvas, easy, tops, order[:, :self.clear_shortlist], shift_of,
                                                         turns=False, finalists=self.clear_finalists).items():
            if scored[0][0] >= self.angle_below:
                x, y = cells[n]
                out.append(self._decide(x, y, int(tops[n, 0]), int(tops[n, 1]), scored + others, None))
        if not out:
            return out
        # each offset to a fraction of a pixel: the top of a parabola through the scores around the best place
        mm = self.mm_per_px
        js = np.array([self._index(g.tile, g.rotation) for g in out])
        top_left = np.array([canvas.top_left(g.x, g.y) for g in out])
        at_y = top_left[:, 0] + np.rint(np.array([g.offset_mm[1] for g in out]) / mm).astype(int)
        at_x = top_left[:, 1] + np.rint(np.array([g.offset_mm[0] for g in out]) / mm).astype(int)
        sc, t, l = canvas.scores(0, self.templates[js], self.norms[js], at_y, at_x, 1)
        mid = sc[:, 1, 1]
        fine = []
        for k, g in enumerate(out):
            if mid[k] < sc[k].max():
                fine.append(g)      # the best place is not the middle one: the pixel is kept
                continue
            oy = _vertex(sc[k, 0, 1], mid[k], sc[k, 2, 1])
            ox = _vertex(sc[k, 1, 0], mid[k], sc[k, 1, 2])
            fine.append(replace(g, offset_mm=((l[k] + 1 + ox - top_left[k, 1]) * mm,
                                              (t[k] + 1 + oy - top_left[k, 0]) * mm)))
        return fine

    def _index(self, tile: str, rotation: int) -> int:
        """The template index of ``tile`` turned by ``rotation``."""
        return self.ids.index(tile) + rotation // 90

    def _easy_candidates(self, canvas: "FeatureCanvas", cells: list[int], tops: np.ndarray, order: np.ndarray,
                         shift_of: np.ndarray, turns: bool = True, finalists: int | None = None
                         ) -> dict[int, tuple[list, list]]:
        """Stages 2 and 3 for many cells at once: per cell ``(finalists, other candidates)``,
        each candidate ``(score, j, top, left, angle)``; ``turns=False``: no small turns tried; ``finalists``: how
        many go to full resolution (:attr:`finalists` by default)."""
        k = order.shape[1]
        idx = np.array(cells)
        picks = order[idx]                                                     # (c, k)
        sh = self.shifts()[np.take_along_axis(shift_of[idx], picks, axis=1)]   # (c, k, 2)
        t0 = tops[idx, 0][:, None] + sh[..., 0]
        l0 = tops[idx, 1][:, None] + sh[..., 1]
        # stage 2: half resolution, around each candidate's coarse shift
        flat_j = picks.ravel()
        sc, t2, l2 = canvas.scores(1, self.half[flat_j], self.half_norms[flat_j], t0.ravel() // 2,
                                   l0.ravel() // 2, 1)
        p = sc.shape[1]
        flat = sc.reshape(len(flat_j), -1)
        best = flat.argmax(axis=1)
        s2 = flat[np.arange(len(flat_j)), best].reshape(len(cells), k)
        ty = (2 * (t2 + best // p)).reshape(len(cells), k)
        tx = (2 * (l2 + best % p)).reshape(len(cells), k)
        f = min(self.finalists if finalists is None else finalists, k)
        keep = np.argsort(-s2, axis=1)[:, :f]                                 # (c, f)
        js = np.take_along_axis(picks, keep, axis=1).ravel()
        # stage 3: full resolution for the finalists
        sc3, t3, l3 = canvas.scores(0, self.templates[js], self.norms[js], np.take_along_axis(ty, keep, axis=1).ravel(),
                                    np.take_along_axis(tx, keep, axis=1).ravel(), 1)
        p3 = sc3.shape[1]
        flat3 = sc3.reshape(len(js), -1)
        b3 = flat3.argmax(axis=1)
        s3 = flat3[np.arange(len(js)), b3]
        y3 = t3 + b3 // p3
        x3 = l3 + b3 % p3
        out = {}
        askew = []
        for c, n in enumerate(cells):
            scored = sorted(((float(s3[c * f + i]), int(js[c * f + i]), int(y3[c * f + i]), int(x3[c * f + i]), 0.0)
                             for i in range(f)), key=lambda t: -t[0])
            if scored[0][0] < self.angle_below:
                askew.append(n)
            chosen = {t[1] for t in scored}
            others = [(float(s2[c, i]), int(picks[c, i]), 0, 0, 0.0) for i in np.argsort(-s2[c])
                      if int(picks[c, i]) not in chosen][:3]
            out[n] = (scored, others)
        # small turns for every cell that needs them at once (one correlation call, not one per cell)
        for n, scored in zip(askew, self._try_angles_many(canvas, [out[n][0] for n in askew]) if turns else ()):
            out[n] = (scored, out[n][1])
        return out

    def _hard_candidates(self, canvas: "FeatureCanvas", n: int, top: int, left: int, s1: np.ndarray,
                         shift_of: np.ndarray) -> tuple[list, list]:
        """Candidates for a partly covered cell, all ranked by block scores (see :meth:`_block_grid`)
        searched over positions near the cell: plain correlation is pulled off by a figure."""
        return self._hard_candidates_many(canvas, [n], np.array([[top, left]]), s1)[n]

    def _hard_candidates_many(self, canvas: "FeatureCanvas", ns: Sequence[int], tops: np.ndarray, s1: np.ndarray
                              ) -> dict[int, tuple[list, list]]:
        """:meth:`_hard_candidates` of the cells ``ns`` (rows of ``tops`` and ``s1``), each search made for all of
        them at once (:meth:`_block_grids`: the same scores as one cell at a time; issue 14, a covered cell cost ten
        clear ones in per-call overhead)."""
        if not len(ns):
            return {}
        places = [(int(tops[n, 0]), int(tops[n, 1])) for n in ns]
        halves = [(top // 2, left // 2) for top, left in places]
        # every tile type by block scores at half resolution near the cell: at a quarter of it a figure hides
        # most of a tile's few blocks, and the right tile could rank far down (144th: ds022 with a figure on
        # the sea beside the strip where its twin ds063 has plain)
        wide = self._block_grids(canvas, 1, np.arange(len(self.half)), halves, 1)
        pickss = []
        for n, (sh, _, _) in zip(ns, wide):
            picks = np.argpartition(-sh, self.shortlist_wide - 1)[:self.shortlist_wide]
            # and the plain coarse correlation's best few: with the covered blocks left out, the right tile can
            # rank low (its town half hidden by the figure, the rest flat sea)
            pickss.append(np.union1d(picks, np.argsort(-s1[n])[:self.shortlist]))
        near = self._block_grids(canvas, 1, pickss, halves, self.hard_reach)
        finals, at = [], []
        for (top, left), picks, (s2, dy, dx) in zip(places, pickss, near):
            for i in np.argsort(-s2)[:self.finalists]:
                finals.append(np.array([int(picks[i])]))
                at.append((top + 2 * int(dy[i]), left + 2 * int(dx[i])))
        full = iter(self._block_grids(canvas, 0, finals, at, 1))
        out = {}
        k = 0
        for n, picks, (s2, dy, dx) in zip(ns, pickss, near):
            scored = []
            for _ in np.argsort(-s2)[:self.finalists]:
                s3, dy3, dx3 = next(full)
                (ty, tx), j = at[k], int(finals[k][0])
                k += 1
                scored.append((float(s3[0]), j, ty + int(dy3[0]), tx + int(dx3[0]), 0.0))
            scored.sort(key=lambda t: -t[0])
            chosen = {t[1] for t in scored}
            others = [(float(s2[i]), int(picks[i]), 0, 0, 0.0) for i in np.argsort(-s2)
                      if int(picks[i]) not in chosen][:3]
            out[n] = (scored, others)
        return out

    def _block_grids(self, canvas: "FeatureCanvas", level: int, jss: np.ndarray | list[np.ndarray],
                     places: Sequence[tuple[int, int]], reach: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """:meth:`_block_grid` at several places (top, left) of ``level``: the templates ``jss`` (one index array for
        every place, or a list of one per place). The same results, to the bit, as one call per place; the windows
        of the places that show something covered are gathered at once and their own terms made together, only
        the per-block products stay per place (their shapes as in :meth:`_block_grid`). Places with nothing covered
        near them (or a canvas without an occlusion mask) go through :meth:`_block_grid`."""
        shared = not isinstance(jss, list)
        occ = canvas.occlusion(level)
        out: list[Any] = [None] * len(places)
        if occ is not None and len(places):
            image = canvas.levels[level]
            size = (self.templates, self.half)[level].shape[1]
            nb = self.blocks
            n = size - size % nb
            b = n // nb
            side = n + 2 * reach
            p = 2 * reach + 1
            h, w = image.shape[:2]
        if occ is not None and len(places) and h >= side and w >= side:
            tops = np.array([t for t, _ in places])
            lefts = np.array([lf for _, lf in places])
            t0 = np.clip(tops - reach, 0, h - side)
            l0 = np.clip(lefts - reach, 0, w - side)

            def windows(plane: np.ndarray, which: np.ndarray) -> np.ndarray:
                """The places ``which``'s windows of ``plane`` (2-D, or 3-D with channels) as blocks, copied into one
                array (Q, P2, B, N[, C]): a strided view of every window of the plane, taken at the places."""
                st = plane.strides
                view = as_strided(plane, (h - side + 1, w - side + 1, p, p, nb, nb, b, b) + plane.shape[2:],
                                  (st[0], st[1], st[0], st[1], st[0] * b, st[1] * b, st[0], st[1]) + st[2:],
                                  writeable=False)
                return view[t0[which], l0[which]].reshape((len(which), p * p, nb * nb, b * b) + plane.shape[2:])

            # the windows cover the square of ``side`` at (t0, l0): something covered there or not (as in _block_grid)
            some = np.array([i for i in range(len(places))
                             if (1.0 - occ[t0[i]:t0[i] + side, l0[i]:l0[i] + side]).min() < 1.0], int)
            all_blocks = self._level_blocks(level)[0]
            if shared:
                js = np.asarray(jss)
                whole = len(js) == len(all_blocks) and np.array_equal(js, np.arange(len(js)))
                common = self._template_terms(all_blocks, level, None if whole else js)
            # a few places at a time, so that the windows' arrays stay in the cache (a full-resolution place's
            # windows are 9 x 2304 pixels)
            per = max(1, self.window_chunk // (p * p * size * size))
            for c0 in range(0, len(some), per):
                chunk = some[c0:c0 + per]
                m = len(chunk) * p * p
                lum, ca, cb = (windows(plane, chunk).reshape(m, nb * nb, b * b) for plane in canvas.planes(level))
                terms = self._window_terms(lum, (ca, cb), (1.0 - windows(occ, chunk)).reshape(m, nb * nb, b * b))
                ks = [len(jss) if shared else len(jss[i]) for i in chunk]
                if shared or len(set(ks)) == 1:
                    # one template set (or as many templates at each place): the products of these places in one
                    # stacked call, each place's slices the same shapes as alone
                    if shared:
                        temps = common
                    else:
                        each = [self._template_terms(all_blocks, level, np.asarray(jss[i])) for i in chunk]
                        temps = tuple(np.stack(t) for t in zip(*each))
                    stacked = tuple(t.reshape((len(chunk), p * p) + t.shape[1:]) for t in terms)
                    sc, dy, dx = self._visible_finish(stacked, temps, p, t0[chunk, None], l0[chunk, None],
                                                      tops[chunk, None], lefts[chunk, None], reach, ks[0])
                    for q, i in enumerate(chunk):
                        out[i] = (sc[q], dy[q], dx[q])
                else:
                    for q, i in enumerate(chunk):
                        js = np.asarray(jss[i])
                        k = len(js)
                        whole = k == len(all_blocks) and np.array_equal(js, np.arange(k))
                        temps = self._template_terms(all_blocks, level, None if whole else js)
                        part = tuple(t[q * p * p:(q + 1) * p * p] for t in terms)
                        out[i] = self._visible_finish(part, temps, p, int(t0[i]), int(l0[i]), places[i][0],
                                                      places[i][1], reach, k)
        for i, (top, left) in enumerate(places):
            if out[i] is None:
                out[i] = self._block_grid(canvas, level, jss if shared else jss[i], top, left, reach)
        return out

    def _level_blocks(self, level: int) -> tuple[np.ndarray, np.ndarray]:
        """Every template of ``level`` (0 full, 1 half) cut into blocks, lightness centred per
        block: ``(J, B, N, 3)`` and, per block, matrices ``(B, N * 3, J)`` for the products."""
        hit = self._blocks.get(level)
        if hit is None:
            temps = (self.templates, self.half)[level]
            j, size = temps.shape[0], temps.shape[1]
            nb = self.blocks
            n = size - size % nb
            b = n // nb
            tb = temps[:, :n, :n].reshape(j, nb, b, nb, b, 3).transpose(0, 1, 3, 2, 4, 5).reshape(j, nb * nb, b * b, 3)
            tb = np.ascontiguousarray(tb, np.float32)
            tb[..., 0] -= tb[..., 0].mean(axis=2, keepdims=True)
            hit = (tb, np.ascontiguousarray(tb.reshape(j, nb * nb, -1).transpose(1, 2, 0)))
            self._blocks[level] = hit
        return hit

    def _block_grid(self, canvas: "FeatureCanvas", level: int, js: Sequence[int] | np.ndarray, top: int, left: int,
                    reach: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Block scores of templates ``js`` (indices) at every offset up to ``reach`` from (top, left) on ``level``.

        Returns the best score per template and its offset (dy, dx).
        """
        image = canvas.levels[level]
        js = np.asarray(js)
        all_blocks, all_mats = self._level_blocks(level)
        size = (self.templates, self.half)[level].shape[1]
        k = len(js)
        nb = self.blocks
        n = size - size % nb
        b = n // nb
        side = n + 2 * reach
        h, w = image.shape[:2]
        t0 = min(max(int(top) - reach, 0), h - side)          # np.clip's value, without its cost on one number
        l0 = min(max(int(left) - reach, 0), w - side)
        region = np.ascontiguousarray(image[t0:t0 + side, l0:l0 + side], np.float32)
        p = 2 * reach + 1
        st = region.strides
        # windows as blocks: (P, P, nb, nb, b, b, 3)
        win = as_strided(region, (p, p, nb, nb, b, b, 3),
                         (st[0], st[1], st[0] * b, st[1] * b, st[0], st[1], st[2]), writeable=False)

        def planes() -> tuple[np.ndarray, np.ndarray]:
            """The windows' lightness (P2, B, N) and chroma (P2, B, N, 2), each gathered once into contiguous
            memory (not all three channels, then the chroma copied again)."""
            lum = np.ascontiguousarray(region[..., 0])
            chroma = np.ascontiguousarray(region[..., 1:])
            sl, sc = lum.strides, chroma.strides
            wl = as_strided(lum, (p, p, nb, nb, b, b), (sl[0], sl[1], sl[0] * b, sl[1] * b, sl[0], sl[1]),
                            writeable=False).reshape(p * p, nb * nb, b * b)
            wc = as_strided(chroma, (p, p, nb, nb, b, b, 2),
                            (sc[0], sc[1], sc[0] * b, sc[1] * b, sc[0], sc[1], sc[2]),
                            writeable=False).reshape(p * p, nb * nb, b * b, 2)
            return wl, wc
        whole = k == len(all_blocks) and np.array_equal(js, np.arange(k))
        tb = all_blocks if whole else all_blocks[js]
        occ = canvas.occlusion(level)
        if occ is not None:
            # leave out the pixels the photo shows covered (a figure, its shadow), the same for every
            # candidate: each block is correlated on its visible pixels and weighs by how much is visible
            oreg = np.ascontiguousarray(occ[t0:t0 + side, l0:l0 + side], np.float32)
            so = oreg.strides
            ow = as_strided(oreg, (p, p, nb, nb, b, b), (so[0], so[1], so[0] * b, so[1] * b, so[0], so[1]),
                            writeable=False)
            vis = 1.0 - ow.reshape(p * p, nb * nb, b * b)                         # (P2, B, N) visible weight
            if vis.min() < 1.0:
                # (checked first: the plain block correlations below are not needed then)
                return self._visible_scores(planes(), vis, tb, p, t0, l0, top, left,
                                            reach, k, level, None if whole else js)
        wb = win.reshape(p * p, nb * nb, b * b, 3).copy()
        wb[..., 0] -= wb[..., 0].mean(axis=2, keepdims=True)
        mats = all_mats if whole else all_mats[:, :, js]
        wn = np.sqrt((wb * wb).sum(axis=(2, 3))) + 1e-3                      # (P2, B)
        tn = self._block_norms(level) if whole else np.sqrt((tb * tb).sum(axis=(2, 3))) + 1e-3   # (K, B)
        num = (wb.reshape(p * p, nb * nb, -1).transpose(1, 0, 2) @ mats).transpose(1, 2, 0)   # (P2, K, B)
        ncc = num / (wn[:, None, :] * tn[None, :, :])
        if occ is not None:
            score = ncc.mean(axis=2)
        else:
            # each candidate's worst blocks left out
            cut = np.sort(ncc, axis=2)[:, :, self.drop_blocks:self.drop_blocks + 1]
            score = _pooled(num, wn, tn, ncc >= cut)                          # (P2, K)
        best = score.argmax(axis=0)
        dy = best // p + t0 - (top - reach) - reach
        dx = best % p + l0 - (left - reach) - reach
        return score[best, np.arange(k)], dy, dx

    def _block_norms(self, level: int) -> np.ndarray:
        """Per template of ``level`` and block, the norm of its (lightness-centred) block plus 1e-3: (J, B), kept."""
        key = ("norms", level)
        hit = self._visible_terms.get(key)
        if hit is None:
            tb = self._level_blocks(level)[0]
            hit = np.sqrt((tb * tb).sum(axis=(2, 3))) + 1e-3
            self._visible_terms[key] = hit
        return hit

    def _visible_scores(self, wb: np.ndarray | tuple[np.ndarray, np.ndarray], vis: np.ndarray, tb: np.ndarray, p: int, t0: int, l0: int,
                        top: int, left: int, reach: int, k: int, level: int | None = None,
                        js: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Block correlations on visible pixels only (weights ``vis``), lightness centred per block.

        wb: (P2, B, N, 3) window blocks (raw features), or their lightness (P2, B, N) and chroma (P2, B, N, 2) apart,
        each contiguous; vis: (P2, B, N), tb: (K, B, N, 3) template blocks
        (lightness already centred over the whole block; it is centred again over the visible part).
        ``level``: the level of the templates ``tb`` (every one of them, or those of indices ``js``): their
        rearranged copies are made once for all of the level's templates and kept.
        """
        oL, oC = wb if isinstance(wb, tuple) else (wb[..., 0], wb[..., 1:])
        terms = self._window_terms(oL, oC, vis)
        return self._visible_finish(terms, self._template_terms(tb, level, js), p, t0, l0, top, left, reach, k)

    @staticmethod
    def _window_terms(oL: np.ndarray, oC: np.ndarray | tuple[np.ndarray, np.ndarray], vis: np.ndarray
                      ) -> tuple[np.ndarray, ...]:
        """The windows' side of :meth:`_visible_scores` (``oC``: the chroma (M, B, N, 2), or its two planes apart):
        ``(vis, sw, oLc, voc, var_o, keep)``, each with the windows
        first (M, ...). Every value is made per window (along its own rows), so windows of several places stacked
        give each the same bits as alone (:meth:`_block_grids`)."""
        sw = vis.sum(axis=2) + 1e-6                                              # (M, B)
        mo = (vis * oL).sum(axis=2) / sw                                         # (M, B)
        oLc = (oL - mo[..., None]) * vis                                         # weighted, centred
        # the weighted chroma once, both channels side by side in contiguous memory (numpy is slow on a
        # two-wide last axis broadcast against the weights: this was half of the function's time)
        if isinstance(oC, tuple):
            # the two chroma planes apart (gathered from contiguous planes): weighted one by one, then interleaved
            voc = np.stack((vis * oC[0], vis * oC[1]), axis=-1)                  # (M, B, N, 2)
            oC = np.stack(oC, axis=-1)
        else:
            oC = np.ascontiguousarray(oC)
            voc = np.repeat(vis[..., None], 2, axis=3) * oC                      # (M, B, N, 2)
        var_o = (oLc * (oL - mo[..., None])).sum(axis=2) + (voc * oC).sum(axis=(2, 3))
        keep = (sw / vis.shape[2]) >= 0.25                                       # (M, B)
        return vis, sw, oLc, voc, var_o, keep

    def _template_terms(self, tb: np.ndarray, level: int | None, js: np.ndarray | None
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The templates' side of :meth:`_visible_scores`: lightness, its square, chroma and its square, arranged
        for the per-block products ((B, N, K), (B, N, K), (B, N * 2, K), (B, N, K)); kept per level."""
        if level is None:
            level_tb, js = tb, None
        else:
            level_tb = self._level_blocks(level)[0]
        tL, tC = level_tb[..., 0], level_tb[..., 1:]
        nb_, n_ = tC.shape[1], tC.shape[2]
        hit = self._visible_terms.get(level) if level is not None else None
        if hit is None:
            tl = np.ascontiguousarray(tL.transpose(1, 2, 0))                     # (B, N, K)
            hit = (tl, tl * tl, np.ascontiguousarray(tC.transpose(1, 2, 3, 0).reshape(nb_, n_ * 2, -1)),
                   np.ascontiguousarray((tC * tC).sum(axis=3).transpose(1, 2, 0)))
            if level is not None:
                self._visible_terms[level] = hit
        if js is None:
            return hit
        # a few templates: taken from copies with the template first (kept), a contiguous slice each, not
        # gathered from the last axis of every row (which cost as much as the products for one template)
        key = ("by template", level)
        first = self._visible_terms.get(key) if level is not None else None
        if first is None:
            first = tuple(np.ascontiguousarray(np.moveaxis(t, -1, 0)) for t in hit)
            if level is not None:
                self._visible_terms[key] = first
        return tuple(np.moveaxis(t[js], 0, -1) for t in first)

    @staticmethod
    def _visible_finish(terms: tuple[np.ndarray, ...], temps: tuple[np.ndarray, ...], p: int, t0: Any, l0: Any,
                        top: Any, left: Any, reach: int, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`_visible_scores` from its windows' terms (one place's, :meth:`_window_terms`, or several places'
        stacked on a first axis: (Q, P2, ...)) and templates' terms (:meth:`_template_terms`, for all places or
        stacked per place): the per-block products, pooled; the best score per template and its offset (per place
        when stacked: t0, l0, top, left then broadcast against (Q, K))."""
        vis, sw, oLc, voc, var_o, keep_w = terms
        tl, tl2, tcm, tc2 = temps
        lead = vis.ndim - 3                                                      # 1 when places are stacked
        nb_, n_ = vis.shape[-2], vis.shape[-1]
        swap = lambda a: np.swapaxes(a, lead, lead + 1)                          # noqa: E731
        # per block, matrix products over the block's pixels: (B, P2, N) @ (B, N, K) -> (B, P2, K)
        vb = swap(vis)
        swt = vb @ tl
        num_L = swap(oLc) @ tl
        num_C = swap(voc).reshape(vis.shape[:lead] + (nb_, -1, n_ * 2)) @ tcm
        var_tL = vb @ tl2
        var_tC = vb @ tc2
        sw_b = swap(sw)[..., None]                                               # (B, P2, 1)
        var_t = var_tL - swt * swt / sw_b + var_tC
        # pooled over the blocks (a flat block of sea carries little weight), mostly hidden blocks left out
        keep = swap(keep_w)[..., None]                                           # (B, P2, 1)
        num = ((num_L + num_C) * keep).sum(axis=lead)                            # (P2, K)
        den = np.sqrt(np.maximum((swap(var_o)[..., None] * keep).sum(axis=lead)
                                 * (np.maximum(var_t, 0) * keep).sum(axis=lead), 1e-6))
        score = num / den
        best = score.argmax(axis=lead)
        dy = best // p + t0 - (top - reach) - reach
        dx = best % p + l0 - (left - reach) - reach
        if lead:
            return np.take_along_axis(score, best[:, None, :], axis=1)[:, 0], dy, dx
        return score[best, np.arange(k)], dy, dx

    def score_at(self, canvas: "FeatureCanvas", tile: str, rotation: int, top: int, left: int,
                 reach: int = 2) -> float:
        """Full-resolution score of one tile and rotation placed near canvas pixel (top, left)."""
        j = self.ids.index(tile) + (rotation // 90) % 4
        sc, _, _ = canvas.scores(0, self.templates[j:j + 1], self.norms[j:j + 1], np.array([top]),
                                 np.array([left]), reach)
        return float(sc.max())

    def unexplained(self, canvas: "FeatureCanvas", guess: TileGuess) -> float:
        """How badly the worst small spot of the cell fits its tile (relative to the median misfit).

        About 2 for a bare tile, 3.5 and more when something (a figure) lies on it.
        """
        top, left = canvas.top_left(guess.x, guess.y)
        ty = (top + int(round(guess.offset_mm[1] / self.mm_per_px))) // 2
        tx = (left + int(round(guess.offset_mm[0] / self.mm_per_px))) // 2
        j = self.ids.index(guess.tile) + (guess.rotation // 90) % 4
        t = self.half[j]
        o = np.array(canvas.levels[1][ty:ty + t.shape[0], tx:tx + t.shape[1]], np.float32)
        if o.shape != t.shape:
            return 0.0
        o[..., 0] -= o[..., 0].mean()
        r = np.abs(o / max(float(np.linalg.norm(o)), 1e-3) - t / self.half_norms[j]).sum(axis=2)
        return float(cv2.blur(r, (3, 3)).max() / max(float(np.median(r)), 1e-6))

    def _try_angles(self, canvas: "FeatureCanvas", scored: list) -> list:
        """Try the best two candidates turned by :attr:`angles` (hand-placed tiles)."""
        return self._try_angles_many(canvas, [scored])[0]

    def _try_angles_many(self, canvas: "FeatureCanvas", scoreds: list[list]) -> list[list]:
        """:meth:`_try_angles` for several cells' candidate lists, in one correlation call."""
        if not scoreds:
            return []
        groups = [[(c, a) for c in scored[:2] for a in self.angles] for scored in scoreds]
        cands = [ca for g in groups for ca in g]
        temps = [self._turned_template(c[1], a) for c, a in cands]
        sc, tt, ll = canvas.scores(0, np.stack([t for t, _ in temps]), np.array([nm for _, nm in temps]),
                                   np.array([c[2] + INSET for c, _ in cands]),
                                   np.array([c[3] + INSET for c, _ in cands]), 1)
        flat = sc.reshape(len(cands), -1)
        b = flat.argmax(axis=1)
        p = sc.shape[1]
        out = []
        i = 0
        for scored, group in zip(scoreds, groups):
            best = {t[1]: t for t in scored}
            for c, a in group:
                s = float(flat[i, b[i]])
                if s > best[c[1]][0]:
                    best[c[1]] = (s, c[1], int(tt[i] + b[i] // p) - INSET, int(ll[i] + b[i] % p) - INSET, a)
                i += 1
            out.append(sorted(best.values(), key=lambda t: -t[0]))
        return out

    def _blurred(self, j: int, angle: float = 0.0) -> np.ndarray:
        """Template j smoothed (:attr:`verify_sigma`): its shapes and colours without the fine texture; turned
        clockwise by ``angle`` degrees (a tile laid askew)."""
        hit = self._smooth.get((j, angle))
        if hit is None:
            hit = cv2.GaussianBlur(self.templates[j], (0, 0), self.verify_sigma)
            if angle:
                c = (self.px - 1) / 2
                hit = cv2.warpAffine(hit, cv2.getRotationMatrix2D((c, c), -angle, 1.0), (self.px, self.px),
                                     flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
            self._smooth[(j, angle)] = hit
        return hit

    def _verify(self, canvas: "FeatureCanvas", scored: list) -> list:
        """Settle the best candidate against close runners-up and its twins on the places where their
        pictures differ.

        Tiles that differ only in a detail (a town, a strip of plain along one side, a goods glyph of a
        few pixels) score nearly alike over the whole tile, and the fine texture of mountains (drawn
        differently on every tile) can outweigh the detail. Here the photo and the references are
        smoothed (texture gone, shapes and colours kept); each reference is aligned with the photo and
        fitted to its light where it agrees with the best candidate (:meth:`_alignments`), then two are
        compared on the pixels where they clearly differ and the photo is clear of figures
        (:meth:`_contest`). A challenger takes over when it explains those pixels clearly better; every
        challenger meets the current holder in turn.

        Returns ``(scored, hidden, close)``: the candidates, the winner first, the challengers whose detail a
        figure hides (the contest with the winner sees too little of it), and the twins whose contest with the
        winner is too close to call (:meth:`_undecided`). Those the photo cannot tell from the winner: its
        whole-tile score is pulled by the figure and its shadow (a dark figure reads as a dark boat or glyph),
        or came out a hair higher by chance, so it is no evidence between them.
        """
        sb, jb, tb_, lb, ab = scored[0]
        px = self.px
        r = self.verify_reach
        pad = int(3 * self.verify_sigma) + r
        h, w = canvas.image.shape[:2]
        if tb_ - pad < 0 or lb - pad < 0 or tb_ + px + pad > h or lb + px + pad > w:
            return scored, [], []
        smooth = cv2.GaussianBlur(canvas.image[tb_ - pad:tb_ + px + pad, lb - pad:lb + px + pad], (0, 0),
                                  self.verify_sigma)
        covered = self._covered_at(canvas, tb_ - pad, lb - pad, px + 2 * pad)
        vis = self._clear_of(covered)
        close = [i for i in range(1, min(len(scored), 1 + self.verify_count)) if sb - scored[i][0] <= self.verify_margin]
        # the best candidate's twins (a picture that differs from it only in a detail) are examined too, even
        # when the coarse stages left them out: a figure on the detail pulls the twin's scores down
        where = {s[1]: i for i, s in enumerate(scored)}
        challengers = [scored[i][1] for i in close] + [j for j in self.twins(jb) if where.get(j) not in close]
        fits = self._alignments(smooth, vis, pad, [jb] + challengers, ab)
        if covered is not None and self.verify_art > 0:
            # what the covered mask holds that a reference explains is the tile's art: seen again
            left = self._less_art(smooth, covered, pad, fits, ab)
            if left.sum() < covered.sum():
                vis = self._clear_of(left)
                fits = self._alignments(smooth, vis, pad, [jb] + challengers, ab)
        verdicts: dict[tuple[int, int], float | None] = {}

        def contest(ja: int, jc: int) -> float | None:
            if (ja, jc) not in verdicts:
                verdicts[(ja, jc)] = self._contest(smooth, vis, pad, ja, jc, fits, ab)
            return verdicts[(ja, jc)]

        holder = jb
        for jc in challengers:
            if self.look[jc] == self.look[holder]:
                continue
            t = contest(holder, jc)
            if t is not None and t > (self.verify_switch if vis is None else self.verify_switch_covered):
                holder = jc
        hidden, close = self._undecided(holder, [jb] + challengers, contest, covered=vis is not None, angle=ab)
        if holder == jb:
            return scored, hidden, close
        i = where.get(holder, -1)
        win = scored[i] if i > 0 else (sb, holder, tb_, lb, ab)
        top = max(s[0] for s in scored) + 1e-4
        return [(top,) + tuple(win[1:])] + [s for s in scored if s is not win], hidden, close

    def _undecided(self, holder: int, challengers: Sequence[int], contest: Any, covered: bool, angle: float = 0.0
                   ) -> tuple[list[int], list[int]]:
        """Of ``challengers``, those the photo does not tell from the final ``holder``, as ``(hidden, close)``: a
        figure hides where they differ (``contest`` gives None; only where something is ``covered``), or, between twins (:meth:`twins`), the
        holder explains the pixels where they differ better by less than :attr:`verify_sure`. A glyph of a few pixels
        (O's shell, P2's two fish on the sea, R1's fish or R2's boat) blurs and compresses at ``hard`` to a contest
        near 0 either way: the holder was then the one whose whole-tile score came out a hair higher (R1 and R2 both
        0.97194). Such twins are a marked guess like a hidden one, for the copies left in the box to settle
        (:func:`settle_hidden`), never decided by order. A close runner-up that is no twin differs in much more: a
        cell that only such runners-up match (half hidden, in a dim corner) would become a guess among unrelated
        tiles (B3 as J2 on the bench's ``field/hard`` seed 2)."""
        twins = set(self.twins(holder))
        hidden, close = [], []
        for jc in dict.fromkeys(challengers):
            # the tile in a turn that plays the same (ds083's boats under a figure) is no doubt for the game
            if self.answer[jc] == self.answer[holder] or self._difference(holder, jc, angle) is None:
                continue
            t = contest(holder, jc)
            if t is None and covered:
                hidden.append(jc)
            elif t is not None and t > -self.verify_sure and jc in twins:
                close.append(jc)
        return hidden, close

    def twins_of(self, tile: str, rotation: int) -> list[tuple[str, int]]:
        """:meth:`twins` by name: the (tile, rotation) pairs whose pictures differ from ``tile`` turned by
        ``rotation`` only in a detail."""
        return [(self.ids[k], self.rots[k]) for k in self.twins(self._index(tile, rotation))]

    def evidence(self, canvas: "FeatureCanvas", guess: TileGuess, options: Sequence[tuple[str, int]]
                 ) -> list[float | None]:
        """What the photo says of each of ``options`` (tile, rotation; the first is ``guess``'s own) in the cell
        of ``guess``, for :func:`settle_hidden`: its block score at half resolution (what the photo shows covered
        left out, the best place within :attr:`hard_reach`: as :meth:`_block_grid` scores a covered cell), or None
        where the photo does not show where it differs from the first: a figure hides their difference
        (:meth:`_contest` sees too little of it), or they differ nowhere (turns that look the same). There the
        scores are no evidence between them (a figure's dark body and shadow pull them towards the twin with the
        dark glyph), and the copies left in the box decide. The block score counts only where the contest on the
        pixels where they differ calls it (beyond :attr:`verify_sure`) the same way; elsewhere the option scores
        as the first (shown, a tie): the whole-tile score, each option at its own best place, is no evidence
        about a detail that the contest sees closer (the vision bench's Suedsee ``hard`` seed 2 board 0: an E3
        whose contest showed E3 against E1 by 0.22 scored E1 0.025 higher at half resolution, was made an E1,
        and the box left the E3 to a cell whose difference a figure hid)."""
        js = [self._index(t, r) for t, r in options]
        top, left = canvas.top_left(guess.x, guess.y)
        scores, _, _ = self._block_grid(canvas, 1, js, top // 2, left // 2, self.hard_reach)
        out: list[float | None] = [float(scores[0])]
        for s, j in zip(scores[1:], js[1:]):
            t = self._difference_contest(canvas, guess, js[0], j)
            shows = t is not None and abs(t) >= self.verify_sure and (t > 0) == (s > scores[0])
            out.append(None if t is None else float(s) if shows else float(scores[0]))
        return out

    def _difference_contest(self, canvas: "FeatureCanvas", guess: TileGuess, ja: int, jb: int,
                            hides: np.ndarray | None = None) -> float | None:
        """The twin contest of :meth:`_verify` between templates ``ja`` and ``jb`` at the place of ``guess``
        (:meth:`_contest`: -1 the photo shows ``ja``, +1 ``jb``), or None where the photo does not show, clear of
        figures, enough of where they differ."""
        view = self._contest_view(canvas, guess, hides)
        return None if view is None else self._contest_in(view, ja, jb, guess.angle_deg)

    def _contest_view(self, canvas: "FeatureCanvas", guess: TileGuess, hides: np.ndarray | None = None,
                      reach: int | None = None) -> tuple[np.ndarray, np.ndarray | None, int] | None:
        """What :meth:`_difference_contest` looks at in the cell of ``guess``, whichever two templates meet there:
        ``(smooth, vis, pad)``, the photo around the tile smoothed and where it shows clear of figures (or of
        ``hides``, kept ``reach`` pixels from them: :meth:`_clear_of`); None where the tile's surround is not wholly on
        the canvas. The same for every pair, so made once
        where one place holds several contests (:meth:`hidden_under`)."""
        px, mm = self.px, self.mm_per_px
        pad = int(3 * self.verify_sigma) + self.verify_reach
        top, left = canvas.top_left(guess.x, guess.y)
        tb = top + int(round(guess.offset_mm[1] / mm))
        lb = left + int(round(guess.offset_mm[0] / mm))
        h, w = canvas.image.shape[:2]
        if tb - pad < 0 or lb - pad < 0 or tb + px + pad > h or lb + px + pad > w:
            return None
        smooth = cv2.GaussianBlur(canvas.image[tb - pad:tb + px + pad, lb - pad:lb + px + pad], (0, 0),
                                  self.verify_sigma)
        covered = (self._covered_at(canvas, tb - pad, lb - pad, px + 2 * pad) if hides is None
                   else hides[tb - pad:tb + px + pad, lb - pad:lb + px + pad])
        return smooth, self._clear_of(covered, reach), pad

    def _contest_in(self, view: tuple[np.ndarray, np.ndarray | None, int], ja: int, jb: int, angle: float,
                    details: bool = True) -> float | None:
        """:meth:`_difference_contest` of templates ``ja`` and ``jb`` on a :meth:`_contest_view` (``details``: as
        :meth:`_contest`'s)."""
        smooth, vis, pad = view
        fits = self._alignments(smooth, vis, pad, [ja, jb], angle)
        return self._contest(smooth, vis, pad, ja, jb, fits, angle, details)

    hidden_prefilter = 0.25
    """:meth:`hidden_under` examines a template only where at most this share of its (half-size, smoothed) difference
    from the guess lies clear of what is covered (the exact test is :meth:`_contest`'s, 5 %)."""

    hidden_most = 0.25
    """:meth:`hidden_under` looks under figures' pictures that cover at most this share of the tile (a figure's is a tenth
    to a fifth: 150-400 mm2 of 2,025); more is no footprint but the art of a tile read wrong taken for figures."""

    hidden_clear = 10
    """:meth:`hidden_under`'s contests keep this many pixels (0.94 mm each) from the found figures' pictures, more than
    :attr:`verify_clear`: a picture is drawn at the figures' half resolution (a pixel more or less at its rim), the
    contest's smoothing (:attr:`verify_sigma`) spreads a figure's paint 3 sigma (5 pixels) around it, and its shadow
    and lean go further. Measured on the Neues Land bench's asked cells (``docs/history/vision-measured.md``, session
    twins9): the true tile's misfit where the twins differ, over their own difference, is 0.3-4.0 within 4 pixels of a
    picture (a shadow reads as the dark strip of a twin: the contest too close to call, or the twin ahead) and 0.01-0.08
    beyond 10. Where that leaves too little of the difference in view (:meth:`_contest` None), the contest is made
    :attr:`verify_clear` away as before: which twins the figures hide is decided as before (kept 10 pixels away it
    named 4 more hidden on the bench's ``field/hard`` seed 2, each figure on them asked)."""

    def hidden_under(self, canvas: "FeatureCanvas", guess: TileGuess, hides: np.ndarray
                     ) -> tuple[tuple[str, int], tuple[tuple[str, int], ...]]:
        """``(holder, hidden)``: the tile the twin contests call on what shows clear of the figures (``guess``'s own,
        or one of its :meth:`twins` that shows better there by more than :attr:`verify_sure`), and its hidden twins:
        the first read when another won, the twins whose contest there is too close to call (within
        :attr:`verify_switch_covered` to :attr:`verify_sure`), and every (tile, rotation) whose picture differs from
        the holder's only where ``hides`` (a boolean mask over the canvas: the found figures' pictures) lies in its
        cell: the twin contest of
        :meth:`_verify` sees too little of their difference (:meth:`_contest` gives None), whatever the whole-tile
        scores say. The covered mask that the tile pass had is made from colours alone: a yellow figure on Südsee's
        sand or sea was not in it, stood on the one place where B1 differs from A1 (A1's beach) or N1 from I (the
        banana), and its paint and rim read as that detail (B1 as A1 at confidence 0.52, N1 as I at 0.63, no twin
        named). Called once the figures are found. Only the figures' pictures: the colour-made mask can hold the
        tile's own art (a sand island near a yellow figure's colour), where every tile differs "under a figure"."""
        px, mm = self.px, self.mm_per_px
        j = self._index(guess.tile, guess.rotation)
        top, left = canvas.top_left(guess.x, guess.y)
        top, left = top + int(round(guess.offset_mm[1] / mm)), left + int(round(guess.offset_mm[0] / mm))
        covered = hides[top:top + px, left:left + px]
        if covered.shape != (px, px) or not covered.any() or covered.mean() > self.hidden_most:
            return (guess.tile, guess.rotation), ()
        # the tile pass's twins meet the holder again, on what shows clear of the figures (as :meth:`_verify` does)
        # (clear of the covered mask too, where it saw a shadow the pictures leave out); the tile taken first stays
        # beside the winner, a marked guess: two readings of one photo disagree
        if not self.twins(j):
            return (guess.tile, guess.rotation), ()     # nothing to meet (both searches below are over its twins)
        holder, close = j, []
        views: list = []
        contests: dict[tuple[int, int], float | None] = {}

        def contest(ja: int, jb: int) -> float | None:
            """The twin contest of ``ja`` and ``jb`` clear of ``hides`` (:meth:`_difference_contest`), made once a
            pair, on one view of the cell (smoothed once: it does not depend on the tiles that meet): kept
            :attr:`hidden_clear` from the figures, or, where that leaves less than :attr:`verify_seen` of the
            difference in view (a few pixels: a detail wholly in view does not count there), :attr:`verify_clear` as the
            tile pass does."""
            if (ja, jb) not in contests:
                t = None
                for i, (reach, details) in enumerate(((self.hidden_clear, False), (self.verify_clear, True))):
                    if len(views) <= i:         # each view made once a call, the near one only where needed
                        views.append(self._contest_view(canvas, guess, hides, reach))
                    t = None if views[i] is None else self._contest_in(views[i], ja, jb, guess.angle_deg, details)
                    if t is not None:
                        break
                contests[(ja, jb)] = t
            return contests[(ja, jb)]

        for k in self.twins(j):
            if self.answer[k] == self.answer[holder] or self._difference(holder, k, guess.angle_deg) is None:
                continue
            t = contest(holder, k)
            if t is not None and t > self.verify_switch_covered:
                # beside it, a marked guess: two readings of one photo disagree, or it is too close to call. Taken
                # over (above verify_sure) it turned a ds022 with a figure on its sea into ds063
                # (tests/vision/test_figure_on_twin.py seed 917)
                close.append(k)
        close = ([j] if holder != j and self.answer[j] != self.answer[holder] else []) + [k for k in close if k != holder]
        guess = replace(guess, tile=self.ids[holder], rotation=self.rots[holder])
        # of the holder's twins (a footprint is a detail), those whose difference from it lies mostly under the figures
        allb = self._blurred_halves()
        h = px // 2
        clear = cv2.resize(self._clear_of(covered).astype(np.uint8), (h, h), interpolation=cv2.INTER_AREA) > 0
        out = []
        for k in dict.fromkeys(self.twins(holder) + ([j] if holder != j else [])):
            differ = ((allb[k] - allb[holder]) ** 2).sum(axis=2) > self.twin_detail ** 2
            total = int(differ.sum())
            if (total == 0 or (differ & clear).sum() > self.hidden_prefilter * total or self.answer[k] == self.answer[holder]
                    or self._difference(holder, k, guess.angle_deg) is None):
                continue
            if contest(holder, k) is None:
                out.append((self.ids[k], self.rots[k]))
        out += [(self.ids[k], self.rots[k]) for k in close if (self.ids[k], self.rots[k]) not in out]
        if out and self.hidden_hue:
            # the colours at the pictures' rim: a shadow dims the art but keeps its hue (Neues Land's town on the
            # coast, orange, against the sea it stands on in the twin), on the smoothed photo the contests already
            # made (only where to look differs: as :meth:`_contest_view` at that reach, no view more to smooth)
            if views and views[0] is not None:
                smooth, _, pad = views[0]
                tb, lb = canvas.top_left(guess.x, guess.y)
                tb, lb = tb + int(round(guess.offset_mm[1] / mm)) - pad, lb + int(round(guess.offset_mm[0] / mm)) - pad
                near = hides[tb:tb + px + 2 * pad, lb:lb + px + 2 * pad]
                view = (smooth, self._clear_of(near, self.hidden_hue_reach), pad)
                out = [o for o in out if not self._hue_shows(view, holder, self._index(*o), guess.angle_deg)]
        return (self.ids[holder], self.rots[holder]), tuple(out)

    hidden_hue = True
    """:meth:`hidden_under` drops a hidden twin where the colours (Lab a, b) at the found figures' rim show the
    holder's art where the twin's differs (:meth:`_hue_shows`)."""
    hidden_hue_reach = 1
    """... looking at the pixels this far (or more) from the pictures: nearer than :attr:`hidden_clear` the lightness
    is no evidence (a shadow reads like a twin's dark strip), but a shadow keeps the art's hue; ..."""
    hidden_hue_pixels = 8
    """... on at least this many of the (every other) pixels where the two references differ in colour, ..."""
    hidden_hue_sure = 0.5
    """... the photo's colour nearer the holder's by at least this share of their difference (-1: the holder's
    exactly): a figure's paint spread by the smoothing onto its rim is a minority of such a pixel."""

    def _hue_shows(self, view: tuple[np.ndarray, np.ndarray | None, int], ja: int, jb: int, angle: float) -> bool:
        """Whether the photo of a :meth:`_contest_view` shows ``ja``'s colours where ``ja`` and ``jb`` differ in
        colour (:meth:`_hue_contest`), on at least :attr:`hidden_hue_pixels` of those pixels, nearer ``ja``'s by
        :attr:`hidden_hue_sure` of their difference."""
        got = self._hue_contest(view, ja, jb, angle)
        return got is not None and got[1] >= self.hidden_hue_pixels and got[0] <= -self.hidden_hue_sure

    def _hue_contest(self, view: tuple[np.ndarray, np.ndarray | None, int], ja: int, jb: int, angle: float
                     ) -> tuple[float, int] | None:
        """``(t, n)``: the twin contest of :meth:`_contest` on colour alone (Lab a and b, lightness left out), on the
        ``n`` pixels in view of a :meth:`_contest_view` where the smoothed references ``ja`` and ``jb`` differ in
        colour by at least :attr:`verify_detail` (-1: the photo shows ``ja``'s colours, +1 ``jb``'s); None where they
        differ so nowhere."""
        diff = self._difference(ja, jb, angle)
        if diff is None:
            return None
        rows, cols, _, ra, rb = diff
        d2 = ((rb - ra)[:, 1:] ** 2).sum(axis=1)
        keep = d2 > self.verify_detail ** 2
        if not keep.any():
            return None
        smooth, vis, pad = view
        fits = self._alignments(smooth, vis, pad, [ja, jb], angle)
        width = smooth.shape[1]
        at0 = rows * width + cols
        preds = []
        for j, ref in ((ja, ra), (jb, rb)):
            dy, dx, gain, offset, _ = fits[j]
            at = at0 + ((pad + dy) * width + pad + dx)
            preds.append((at, (gain * ref + offset)[:, 1:]))
            if vis is not None:
                keep &= vis.reshape(-1)[at]
        n = int(keep.sum())
        if n == 0:
            return 0.0, 0
        flat = smooth.reshape(-1, 3)[:, 1:]
        errs = [float(((flat[at[keep]] - pred[keep]) ** 2).sum()) for at, pred in preds]
        return (errs[0] - errs[1]) / float(d2[keep].sum()), n

    def twins(self, j: int) -> list[int]:
        """Templates that differ from template j only in a detail (smoothed, less than :attr:`twin_share` of the
        pixels differ clearly): a town more or less, a strip of plain instead of sea. Found for the tile's
        unturned template and turned along (template index = 4 x tile + quarter turns). The tile's own turns that play
        the same (:attr:`answer`: ds083's boats) are among them: their contests find the turn the picture shows, but
        they are never a hidden or close twin (:meth:`_undecided`, :meth:`hidden_under`, :meth:`_decide`)."""
        hit = self._twins.get(j)
        if hit is None:
            base = j - j % 4
            share = self.differing_share(base)
            found = [int(t) for t in np.nonzero(share < self.twin_share)[0]]
            for q in range(4):
                self._twins[base + q] = [t - t % 4 + (t % 4 + q) % 4 for t in found
                                         if self.look[t - t % 4 + (t % 4 + q) % 4] != self.look[base + q]]
            hit = self._twins[j]
        return hit

    def differing_share(self, j: int) -> np.ndarray:
        """Per template, the share of the pixels where it differs clearly from template j (by more than
        :attr:`twin_detail`, both smoothed: sigma 2 px at full size, compared at half size)."""
        allb = self._blurred_halves()
        d = ((allb - allb[j][None]) ** 2).sum(axis=3)
        return (d > self.twin_detail ** 2).mean(axis=(1, 2))

    def _blurred_halves(self) -> np.ndarray:
        """Every template smoothed (sigma 2 px at full size) at half size, stacked (made once): what
        :meth:`differing_share` and :meth:`hidden_under` compare."""
        if not self._all_blurred:
            h = self.px // 2
            self._all_blurred.append(np.stack([cv2.resize(cv2.GaussianBlur(t, (0, 0), 2.0), (h, h),
                                                          interpolation=cv2.INTER_AREA) for t in self.templates]))
        return self._all_blurred[0]

    def _covered_at(self, canvas: "FeatureCanvas", top: int, left: int, side: int) -> np.ndarray | None:
        """What the canvas's covered mask (figures and their shadows) holds in the square at canvas (top, left);
        None when nothing."""
        occ = canvas.occlusion(0)
        if occ is None:
            return None
        covered = occ[top:top + side, left:left + side] >= 0.5
        return covered if covered.any() else None

    def _clear_of(self, covered: np.ndarray | None, reach: int | None = None) -> np.ndarray | None:
        """Where the photo is clear of figures, given what is ``covered`` (:meth:`_covered_at`): not covered, and at
        least :attr:`verify_clear` pixels (or ``reach``) from anything covered (a figure's shadow and lean reach that
        far and can look like a small dark glyph). None when nothing is covered."""
        if covered is None or not covered.any():
            return None
        k = 2 * (self.verify_clear if reach is None else reach) + 1
        return cv2.dilate(covered.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))) == 0

    def _less_art(self, smooth: np.ndarray, covered: np.ndarray, pad: int, fits: dict, angle: float = 0.0
                  ) -> np.ndarray:
        """``covered`` less its parts that one of the references of ``fits`` explains as well as it explains the
        tile where they agree: there the picture is the tile's own art, not a figure.

        The covered mask is made from colours alone (a player's colour in a figure-sized blob, and the dimmed
        pixels beside it); under the field camera's casts a red bridge, a sand strip or two dark fish on the sea
        fall into it with no figure anywhere (Südsee's K2 read as K1, V3 as V4 at ``field/hard``): the glyph that
        tells the twins apart was then left out, and what little of the difference showed elsewhere decided.
        A figure is what no tile's art shows: each covered part (8-connected) whose pixels on the tile one of the
        references, placed and lit as :meth:`_alignments` fitted it, misfits by at most :attr:`verify_art` times
        that reference's misfit where it was fitted, is given back on the tile (a bridge or coast goes on across
        the seam: what lies beyond stays covered, no reference of this tile says what it is). A figure's shadow is
        dimmed against every reference, and what of a figure's picture lies over the art is one part with it.
        (``Recognizer._art_uncovered`` reads again, afterwards, a cell left a hidden twin; this works in every
        contest, also where one was decided, unmarked, on the little of the difference the mask left in view.)"""
        n, labels = cv2.connectedComponents(covered.astype(np.uint8), connectivity=8)
        if n <= 1:
            return covered
        px = self.px
        ring = np.zeros(covered.shape, bool)
        k = self.verify_ring
        ring[pad + k:pad + px - k, pad + k:pad + px - k] = True
        inside = np.bincount(labels[ring], minlength=n).astype(np.float64)
        # the misfits are needed on the covered parts' pixels in the ring only (the bare ones, part 0, are never
        # given back): taken there alone, in the same order, so each part's sum is the same to the bit (issue 14)
        rows, cols = np.nonzero(ring & (labels > 0))
        parts = labels[rows, cols]
        best = np.full(n, np.inf)
        # the pixels as flat indices (one gather each, the same values as indexing by rows and columns)
        on_ref = (rows - pad) * px + (cols - pad)
        on_photo = rows * smooth.shape[1] + cols
        flat = smooth.reshape(-1, 3)
        for j, (dy, dx, gain, offset, misfit) in fits.items():
            pred = self._blurred(j, angle).reshape(-1, 3)[on_ref] * gain + offset
            resid = sum_of_squares(flat[on_photo + (dy * smooth.shape[1] + dx)] - pred).astype(np.float64)
            per = np.bincount(parts, weights=resid, minlength=n) / np.maximum(inside, 1.0)
            best = np.minimum(best, per / max(misfit, 1e-6))
        art = (best <= self.verify_art) & (inside >= self.verify_pixels)
        art[0] = False
        return covered & ~(art[labels] & ring)

    def _difference(self, ja: int, jb: int, angle: float = 0.0
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """Where the smoothed references ja and jb differ clearly: pixel rows, columns, their squared difference
        there, and both references there (cached per pair); None when they differ nowhere. The outer
        :attr:`verify_ring` pixels are left out: there references differ by how the enrolment cut them out and
        photos by how the tile was laid, not by what is printed. ``angle``: both turned so (see :meth:`_blurred`)."""
        key = (ja, jb, angle)
        if key not in self._differences:
            ra, rb = self._blurred(ja, angle), self._blurred(jb, angle)
            d = rb - ra
            # the lightness offset between the two (each is centred over its own tile) is no difference
            d[..., 0] -= float(np.median(d[..., 0]))
            dn2 = (d * d).sum(axis=2)
            k = self.verify_ring
            inner = np.zeros(dn2.shape, bool)
            inner[k:-k:2, k:-k:2] = True                       # every other pixel: the pictures are smooth
            dmax = float(dn2[inner].max())
            hit = None
            if dmax >= self.verify_detail ** 2:
                rows, cols = np.nonzero(inner & (dn2 > max(self.verify_detail ** 2, 0.1 * dmax)))
                hit = (rows, cols, dn2[rows, cols], ra[rows, cols], rb[rows, cols])
            self._differences[key] = hit
        return self._differences[key]

    def _thinned(self, j: int, angle: float = 0.0) -> np.ndarray:
        """The smoothed reference j (:meth:`_blurred`) on every third pixel inside the ring, ``(n, 3)``, as
        :meth:`_alignments` fits it (kept)."""
        key = (j, angle)
        hit = self._thin.get(key)
        if hit is None:
            idx = np.arange(self.verify_ring, self.px - self.verify_ring, 3)
            hit = self._thin[key] = self._blurred(j, angle)[idx[:, None], idx[None, :]].reshape(-1, 3)
        return hit

    def _alignment_pixels(self, pad: int, width: int) -> np.ndarray:
        """Flat indices into a photo ``width`` pixels wide (the tile and ``pad`` around it) of the pixels
        :meth:`_thinned` takes, at every shift within :attr:`verify_reach`: ``(shifts, n)`` (kept per size)."""
        key = (pad, width)
        hit = self._align_at.get(key)
        if hit is None:
            idx = np.arange(self.verify_ring, self.px - self.verify_ring, 3)
            r = self.verify_reach
            dy, dx = np.divmod(np.arange((2 * r + 1) ** 2), 2 * r + 1)
            rows = pad - r + dy[:, None, None] + idx[None, :, None]
            cols = pad - r + dx[:, None, None] + idx[None, None, :]
            hit = self._align_at[key] = (rows * width + cols).reshape(len(dy), -1)
        return hit

    def _alignments(self, smooth: np.ndarray, vis: np.ndarray | None, pad: int, js: Sequence[int],
                    angle: float = 0.0) -> dict[int, tuple[int, int, np.ndarray, np.ndarray]]:
        """How each smoothed reference of ``js`` lies on the smoothed photo: the shift (within
        :attr:`verify_reach`) and the light (per channel a gain on the reference and an offset: the photo's
        light against the enrolment's) that fit it best where it agrees with the first of ``js`` (so that the
        light cannot explain away where they differ), leaving out the ring and covered pixels (on every third
        pixel: the pictures are smooth). Returns ``{j: (dy, dx, gain (3,), offset (3,), misfit)}``, ``misfit`` the
        mean squared difference left (summed over the channels) where it was fitted: what the photo's noise, blur,
        JPEG and print leave of a reference that is the tile (:meth:`_less_art`'s yardstick); ``angle``: the
        references turned so."""
        js = list(dict.fromkeys(js))
        t = np.stack([self._thinned(j, angle) for j in js])                 # (K, n, 3)
        r = self.verify_reach
        n = 2 * r + 1
        dy, dx = np.divmod(np.arange(n * n), n)
        at_ = self._alignment_pixels(pad, smooth.shape[1])
        o = smooth.reshape(-1, 3)[at_].reshape(n * n, -1, 3)               # (S, n, 3)
        seen = (np.ones(o.shape[:2], np.float32) if vis is None
                else vis.reshape(-1)[at_].reshape(n * n, -1).astype(np.float32))
        # each reference's light is fitted where it agrees with the first (the holder), so that the light cannot
        # explain away where they differ; where they agree on too little, everywhere
        agree = (sum_of_squares(t - t[:1]) <= self.verify_detail ** 2).astype(np.float32)           # (K, n)
        agree[agree.mean(axis=1) < 0.25] = 1.0
        # weighted least squares per (channel, reference, shift), o ~ gain * t + offset, the weight of pixel n
        # being agree[k, n] * seen[s, n]: every sum is a matrix product over the pixels
        at = agree[None] * t.transpose(2, 0, 1)                              # (3, K, n)
        so = (seen[..., None] * o).transpose(2, 1, 0)                       # (3, n, S)
        sw = np.maximum(agree @ seen.T, 1.0)                                  # (K, S)
        mt = (at @ seen.T) / sw                                              # (3, K, S)
        mo = (agree @ so) / sw
        tt = ((at * t.transpose(2, 0, 1)) @ seen.T) / sw - mt * mt
        to = (at @ so) / sw - mt * mo
        oo = (agree @ (so * o.transpose(2, 1, 0))) / sw - mo * mo
        ridge = self.verify_gain_ridge                                       # a flat tile's gain stays near 1
        gain = np.clip((to + ridge) / (tt + ridge), *self.verify_gains)
        err = (oo - 2 * gain * to + gain * gain * tt).sum(axis=0)            # (K, S)
        best = err.argmin(axis=1)
        # every reference's best shift taken out at once (the same values as one reference at a time: issue 14)
        each = np.arange(len(js))
        g = np.ascontiguousarray(gain[:, each, best].T)                      # (K, 3)
        off = np.ascontiguousarray((mo[:, each, best] - gain[:, each, best] * mt[:, each, best]).T)
        ys, xs, left = (dy[best] - r).tolist(), (dx[best] - r).tolist(), err[each, best].tolist()
        return {j: (ys[i], xs[i], g[i], off[i], left[i]) for i, j in enumerate(js)}

    def _contest(self, smooth: np.ndarray, vis: np.ndarray | None, pad: int, ja: int, jb: int,
                 fits: dict, angle: float = 0.0, details: bool = True) -> float | None:
        """How much better reference jb than ja explains the photo where the two differ: the difference of
        their misfits there over the difference of the references (-1: the photo shows ja, +1: jb); None
        when too little of it shows clear of figures.

        ``smooth``: the photo around the tile (``pad`` pixels more on every side), smoothed; ``vis``: where
        it is clear (:meth:`_clear_of`); ``fits``: :meth:`_alignments` of ja and jb; ``angle``: how the tile
        lies turned; ``details``: where less than :attr:`verify_seen` of the difference shows, a detail of it wholly
        in view still counts (False: None)."""
        diff = self._difference(ja, jb, angle)
        if diff is None:
            return None
        rows, cols, dn2, ra, rb = diff
        if vis is None and 4 * len(rows) < self.verify_pixels:
            return None
        total = self._difference_total(ja, jb, angle)
        width = smooth.shape[1]
        at0 = self._difference_flat(ja, jb, angle, width)
        preds = []
        for j, ref in ((ja, ra), (jb, rb)):
            dy, dx, gain, offset, _ = fits[j]
            preds.append((at0 + ((pad + dy) * width + pad + dx), gain * ref + offset))
        if vis is None:             # everything shows: every pixel kept, in order (the same sums)
            seen = total
            flat = smooth.reshape(-1, 3)
            errs = [float(((flat[at] - pred) ** 2).sum()) for at, pred in preds]
            return (errs[0] - errs[1]) / seen
        keep = np.ones(len(rows), bool)
        for at, _ in preds:
            keep &= vis.reshape(-1)[at]
        seen = float(dn2[keep].sum())
        if 4 * int(keep.sum()) < self.verify_pixels or seen < self.verify_seen * total:
            # most of the difference lies under a figure; a detail of it wholly in view still tells them apart
            if not details:
                return None
            keep = whole_details(rows, cols, keep, self.px)
            if 4 * int(keep.sum()) < self.verify_pixels:
                return None
            seen = float(dn2[keep].sum())
        flat = smooth.reshape(-1, 3)
        errs = [float(((flat[at[keep]] - pred[keep]) ** 2).sum()) for at, pred in preds]
        return (errs[0] - errs[1]) / seen

    def _difference_flat(self, ja: int, jb: int, angle: float, width: int) -> np.ndarray:
        """Flat indices into a photo ``width`` pixels wide of the pixels of :meth:`_difference` ``(ja, jb, angle)``,
        the tile at its top-left corner: a contest adds its reference's place (kept per pair and width)."""
        key = (ja, jb, angle, width)
        hit = self._difference_flats.get(key)
        if hit is None:
            rows, cols = self._difference(ja, jb, angle)[:2]
            hit = self._difference_flats[key] = rows * width + cols
        return hit

    def _difference_total(self, ja: int, jb: int, angle: float) -> float:
        """The summed squared difference of :meth:`_difference` ``(ja, jb, angle)`` (kept)."""
        key = (ja, jb, angle)
        hit = self._difference_totals.get(key)
        if hit is None:
            hit = self._difference_totals[key] = float(self._difference(ja, jb, angle)[2].sum())
        return hit

    def _decide(self, x: int, y: int, top: int, left: int, scored: list,
                constraints: Constraints | None, hidden: Sequence[int] = ()) -> TileGuess:
        if hidden:
            # twins whose detail a figure hides score as the best does: the photo cannot tell them apart
            best = scored[0]
            have = {f[1] for f in scored}
            scored = ([best] + [(best[0],) + tuple(f[1:]) for f in scored[1:] if f[1] in hidden]
                      + [(best[0], j) + tuple(best[2:]) for j in hidden if j not in have]
                      + [f for f in scored[1:] if f[1] not in hidden])
        pick = 0
        constrained = False
        if constraints is not None and len(scored) > 1:
            best = scored[0][0]
            tied = [i for i, f in enumerate(scored) if best - f[0] <= self.tie_margin]
            if len(tied) > 1:
                fits = [i for i in tied if self._fits(scored[i][1], x, y, constraints)]
                if fits and fits[0] != 0:
                    pick, constrained = fits[0], True
        score, j, ty, tx, angle = scored[pick]
        others = [f for i, f in enumerate(scored) if i != pick]
        runners = tuple(Candidate(self.ids[o[1]], self.rots[o[1]], o[0]) for o in others[:3])
        # the runner-up that matters is the best one that is another answer for the game: not one that looks the
        # same, nor the tile in a turn that plays the same (ds083 turned: the read turn is as good, a legal one)
        second = max((o[0] for o in others if self.answer[o[1]] != self.answer[j]), default=-1.0)
        confidence = _confidence(score, second)
        mm = self.mm_per_px
        tied_by_figure = {scored[0][1], *hidden} if hidden else set()
        twins = tuple(dict.fromkeys((self.ids[k], self.rots[k]) for k in [f[1] for f in scored]
                                    if k in tied_by_figure and self.answer[k] != self.answer[j]))
        return TileGuess(x, y, self.ids[j], self.rots[j], score, confidence, runners,
                         ((tx - left) * mm, (ty - top) * mm), angle, constrained, twins)

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


EVIDENCE_SCALE = 0.02
"""In :func:`settle_hidden`, a block score higher by this beyond a tie (:attr:`TileClassifier.tie_margin`) counts as
odds of e to 1 for that option: the spread of the block scores between a cell's twins where nothing tells them apart
(a few hundredths at ``hard``). Against the box's odds (four copies of U1 left against one of U3: 4 to 1, e^1.4) a
twin must score about 0.045 better."""

UNSURE_TWIN_NEAR = 0.06
"""A reading unsure already (confidence below 0.5) whose twin scores within this of it is a choice between them for
:func:`settle_hidden` (given ``twins_of``)."""


def settle_hidden(tiles: Mapping[tuple[int, int], TileGuess], counts: Mapping[str, int], most: int = 100_000,
                  evidence: Any = None, twins_of: Any = None, known: Any = ()) -> dict[tuple[int, int], TileGuess]:
    """Choose between twins a figure hides, or that the photo tells apart too little, by what is still in the box
    and what the photo shows of them.

    Where the photo cannot tell a tile from its twins (:attr:`TileGuess.hidden_twins`), the likelier choice is
    the one that what is left in the box makes likeliest: the set's ``counts`` less the copies on the table that
    are read for sure (every guess without hidden twins, kept or logged ones included). The cells in doubt are
    settled together, not one by one (issue 14, cause 7): of every way to choose (the cells that share no tile
    apart; an exact search of at most ``most`` steps for cells that do, beyond that one cell at a time), one that
    takes no tile more often than copies are left (:func:`_beyond`: a tile the sure reads exceed already least of
    all), then the likeliest: the copies left of each tile, drawn without putting back (``n (n - 1) ...`` for each
    tile taken), times the photo's odds for each cell's pick (``evidence``: a callable
    ``(guess, options) -> [score or None]``, :meth:`TileClassifier.evidence`; a score higher by
    :data:`EVIDENCE_SCALE` beyond a tie counts e to 1; None, where a figure hides the difference, no evidence), then
    the one keeping most readings that the photo shows against their alternatives (there the twin contest chose
    the reading: close contests went the true tile's way 54 times in 76, see :attr:`TileClassifier.verify_sure`;
    where a figure hides the difference the reading is a coin's throw), then most readings, then the best
    scores. One by one, two doubtful cells could swap: the first took
    the only copy left of the tile the second had to be. On a finished table the box is empty and every way that
    keeps to it is as likely by the box: the photo's block scores then decide which doubtful cell holds which
    twin (the photo-score bench's U1/U2, U1/U3 and B1/B2 read the wrong way round). The guess stays marked (its
    twins, confidence at most 0.4; the runners-up the other choices with their scores): it is the likelier tile,
    not a tile seen.

    A reading unsure already (confidence below 0.5) of a tile read on more cells than the set has, whose twins
    (``twins_of(tile, rotation)``, e.g. :meth:`TileClassifier.twins_of`) score within :data:`UNSURE_TWIN_NEAR` of it,
    is in doubt among them too: read as a sure copy, it took a copy from a twin read well elsewhere (U3 at 0.13 took
    the U3 the box had for a cell whose U3 showed plainly). Only twins: a half-hidden cell scores unrelated tiles as
    near (B3 and J2).

    A tile read for sure on more cells than the set has is a misreading on some of them (:func:`over_read`): those
    reads are put in doubt with their near runners-up that have copies left, and settled with the rest.

    ``known``: cells whose tile is known (the start tile at (0, 0), the game's log): never put in doubt.
    """
    held = {c: tiles[c] for c in known if c in tiles}
    if twins_of is not None:
        tiles = _unsure_twins(tiles, counts, twins_of)
    tiles = {**over_read(tiles, counts), **held}
    left = dict(counts)
    for t in tiles.values():
        if not t.hidden_twins:
            left[t.tile] = left.get(t.tile, 0) - 1
    doubt = sorted(c for c, t in tiles.items() if t.hidden_twins)
    options = {c: [(tiles[c].tile, tiles[c].rotation), *tiles[c].hidden_twins] for c in doubt}
    scores = {c: [_score_of(tiles[c], o) for o in options[c]] for c in doubt}
    seen = {c: _seen(evidence, tiles[c], options[c]) for c in doubt}
    picks: dict[tuple[int, int], int] = {}
    for group in _sharing(doubt, options):
        picks.update(_choose(group, options, scores, seen, left, most))
    out = dict(tiles)
    for cell, i in picks.items():
        t = tiles[cell]
        pick = options[cell][i]
        if i == 0 and seen[cell] is None:
            continue
        shown = seen[cell] or [None] * len(options[cell])
        said = [s if s is not None else shown[0] if shown[0] is not None else scores[cell][k]
                for k, s in enumerate(shown)]
        others = [Candidate(o[0], o[1], float(said[k])) for k, o in enumerate(options[cell]) if k != i]
        named = {(c.tile, c.rotation) for c in others} | {pick}
        runners = tuple(sorted(others, key=lambda c: -c.score)) + tuple(
            c for c in t.runners_up if (c.tile, c.rotation) not in named)
        out[cell] = replace(t, tile=pick[0], rotation=pick[1], score=float(said[i]), runners_up=runners[:3],
                            confidence=min(t.confidence, 0.4), constrained=t.constrained or i != 0,
                            hidden_twins=tuple(o for o in options[cell] if o != pick))
    return out


def _unsure_twins(tiles: Mapping[tuple[int, int], TileGuess], counts: Mapping[str, int], twins_of: Any
                  ) -> dict[tuple[int, int], TileGuess]:
    """Readings unsure already (marked guesses included) of a tile read on more cells than the set has, whose twins
    score within :data:`UNSURE_TWIN_NEAR`: marked guesses among them (see :func:`settle_hidden`). Only where the
    set's counts are broken: elsewhere the box's odds (four U1 to one A2) overruled the classifier's pick of an
    unsure cell by a tie of block scores (the vision bench's Südsee ``hard`` boards of seed 1: A2 read as U1,
    V4 as V1, I as M)."""
    read: dict[str, int] = {}
    for t in tiles.values():
        read[t.tile] = read.get(t.tile, 0) + 1
    out = dict(tiles)
    for cell, t in tiles.items():
        if t.confidence >= 0.5 or read[t.tile] <= counts.get(t.tile, read[t.tile]):
            continue
        twins = set(twins_of(t.tile, t.rotation))
        alts = tuple(dict.fromkeys(t.hidden_twins + tuple(
            (c.tile, c.rotation) for c in t.runners_up
            if t.score - c.score <= UNSURE_TWIN_NEAR and (c.tile, c.rotation) in twins)))
        if alts != t.hidden_twins:
            out[cell] = replace(t, confidence=min(t.confidence, 0.4), hidden_twins=alts)
    return out


def _seen(evidence: Any, guess: TileGuess, options: Sequence[tuple[str, int]]) -> list[float | None] | None:
    """``evidence(guess, options)`` (None when not given, or when it has nothing for this cell)."""
    if evidence is None:
        return None
    got = evidence(guess, options)
    return None if got is None else list(got)


def _sharing(doubt: Sequence[tuple[int, int]], options: Mapping[tuple[int, int], list[tuple[str, int]]]
             ) -> list[list[tuple[int, int]]]:
    """The doubtful cells in groups that share a tile among their options (cells of different groups draw on
    different copies: each group is settled on its own)."""
    group = {c: c for c in doubt}

    def root(c):
        while group[c] != c:
            group[c] = group[group[c]]
            c = group[c]
        return c
    holder: dict[str, tuple[int, int]] = {}
    for c in doubt:
        for tid, _ in options[c]:
            if tid in holder:
                group[root(c)] = root(holder[tid])
            else:
                holder[tid] = c
    out: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for c in doubt:
        out.setdefault(root(c), []).append(c)
    return list(out.values())


def _choose(cells: Sequence[tuple[int, int]], options: Mapping, scores: Mapping, seen: Mapping,
            left: Mapping[str, int], most: int) -> dict[tuple[int, int], int]:
    """The pick (an index into ``options[cell]``) of each of ``cells`` that :func:`settle_hidden` takes: the best
    way by its order (fewest copies over, likeliest, most shown readings kept, most readings kept, best scores),
    found by a search that drops every partial choice that cannot beat the best found (branch and bound: the
    copies over only grow, each cell adds at most its likeliest pick with the copies taken so far); past ``most``
    steps, one cell at a time by the copies left."""
    odds = {c: _photo_odds(seen[c], len(options[c])) for c in cells}
    tile = {c: [o[0] for o in options[c]] for c in cells}
    shown = {c: [i > 0 and seen[c] is not None and seen[c][i] is not None for i in range(len(options[c]))]
             for c in cells}
    top_score = [max(scores[c]) for c in cells]
    best: list = [None, None]
    steps = [0]
    taken: dict[str, int] = {}

    def gain(c, i):
        n, m = taken.get(tile[c][i], 0), left.get(tile[c][i], 0)
        return odds[c][i] + math.log(max(m - n, 1e-9)), _beyond(n, m)

    def go(k: int, over: int, likely: float, moved_shown: int, moved: int, score: float, combo: list) -> None:
        steps[0] += 1
        if steps[0] > most:
            raise _TooMany
        if k == len(cells):
            key = (-over, round(likely, 9), -moved_shown, -moved, score)
            if best[0] is None or key > best[0]:
                best[0], best[1] = key, list(combo)
            return
        if best[0] is not None:
            bound = (-over, round(likely + sum(max(gain(c, i)[0] for i in range(len(options[c]))) for c in cells[k:]), 9)
                     + 1e-9, -moved_shown, -moved, score + sum(top_score[k:]) + 1e-9)
            if bound <= best[0]:
                return
        c = cells[k]
        for i in sorted(range(len(options[c])), key=lambda i: -gain(c, i)[0]):
            g, o = gain(c, i)
            taken[tile[c][i]] = taken.get(tile[c][i], 0) + 1
            combo.append(i)
            go(k + 1, over + o, likely + g, moved_shown + shown[c][i], moved + (i > 0), score + scores[c][i], combo)
            combo.pop()
            taken[tile[c][i]] -= 1

    try:
        go(0, 0, 0.0, 0, 0, 0.0, [])
        return dict(zip(cells, best[1] or ()))
    except _TooMany:
        rest = dict(left)
        picks = {}
        for c in cells:
            i = max(range(len(options[c])), key=lambda k: (rest.get(options[c][k][0], 0), -k))
            rest[options[c][i][0]] = rest.get(options[c][i][0], 0) - 1
            picks[c] = i
        return picks


def _beyond(n: int, left: int) -> int:
    """The copies beyond the set that one more pick of a tile adds, ``n`` picks of it taken already and ``left``
    copies of it left in the box (negative where the sure reads take more than the set has): the excess on the
    table of every tile a doubtful cell takes, its sure reads' excess included (counted with its first pick). A tile
    read for sure more often than the set has is the least likely pick of all: where no copy of either twin is left,
    the one the sure reads exceed least (the flat tiles' board of seed 12: two ds025 read for sure and one ds024, one
    of each in the set; a ds024 torn between them, read ds025 by a tie, kept it: a third copy)."""
    return max(n + 1 - left, 0) - (max(n - left, 0) if n else 0)


class _TooMany(Exception):
    """The search of :func:`_choose` took more steps than allowed."""


def _photo_odds(shown: list[float | None] | None, n: int) -> list[float]:
    """Each option's log odds against the reading by the photo: what its score differs from the reading's beyond
    :attr:`TileClassifier.tie_margin` (closer is a tie: the reading's twin contest saw more than that), over
    :data:`EVIDENCE_SCALE`. 0 for all without evidence; an option the photo does not tell from the reading (None)
    as likely as the reading. (Without the tie, U2 scoring 0.007 above the U1 read by the contest took the cell,
    and the box gave the U1 to the U2 two cells off: the photo score's ``field/hard`` seed 1 table 3.)"""
    if shown is None or shown[0] is None:
        return [0.0] * n
    tie = TileClassifier.tie_margin
    return [0.0 if s is None else float(np.sign(s - shown[0])) * max(abs(s - shown[0]) - tie, 0.0) / EVIDENCE_SCALE
            for s in shown]


def _score_of(guess: TileGuess, option: tuple[str, int]) -> float:
    """The whole-tile score of ``option`` (tile, rotation) in the cell of ``guess``: its own, or a runner-up's."""
    if option == (guess.tile, guess.rotation):
        return guess.score
    return max((c.score for c in guess.runners_up if (c.tile, c.rotation) == option), default=0.0)


def over_read(tiles: Mapping[tuple[int, int], TileGuess], counts: Mapping[str, int], near: float = 0.06
              ) -> dict[tuple[int, int], TileGuess]:
    """Reads of a tile seen for sure on more cells than the set has (three O where the set has two) put in doubt:
    each such read whose runners-up include, within ``near`` of its score, a tile of which copies are left
    (the set's counts less the sure reads) becomes a marked guess among them (:attr:`TileGuess.hidden_twins`,
    confidence at most 0.4), for :func:`settle_hidden` to choose. On a finished table every tile of the box lies
    out: a P2 read as O (its glyph twin, the contest on their few differing pixels wrong) leaves the set's one
    P2 unread and one O too many, and the pool says which cell is in question. Reads without such a runner-up
    are left as they are (the photo score's consistency pass says them), and so are reads unsure already
    (confidence below 0.5: a half-hidden cell scores many unrelated tiles within ``near``, and the box then chose
    among them: B3 read as J2 on the bench's ``field/hard`` seed 2)."""
    sure: dict[str, int] = {}
    for t in tiles.values():
        if not t.hidden_twins:
            sure[t.tile] = sure.get(t.tile, 0) + 1
    over = {tid for tid, n in sure.items() if tid in counts and n > counts[tid]}
    if not over:
        return dict(tiles)
    out = dict(tiles)
    for cell, t in tiles.items():
        if t.hidden_twins or t.tile not in over or t.confidence < 0.5:
            continue
        alts = tuple(dict.fromkeys((c.tile, c.rotation) for c in t.runners_up
                                   if t.score - c.score <= near and c.tile != t.tile
                                   and counts.get(c.tile, 0) > sure.get(c.tile, 0)))
        if alts:
            out[cell] = replace(t, confidence=min(t.confidence, 0.4), hidden_twins=alts)
    return out


def _look_alikes(templates: np.ndarray, ids: Sequence[str], rots: Sequence[int],
                 threshold: float = 0.985) -> list[int]:
    """Group templates that look the same (duplicate tiles, symmetric tiles turned): group index per template."""
    n = len(templates)
    flat = templates.reshape(n, -1)
    flat = flat / np.maximum(np.linalg.norm(flat, axis=1, keepdims=True), 1e-6)
    sim = flat @ flat.T
    group = list(range(n))
    for a in range(n):
        for b in np.nonzero(sim[a, a + 1:] >= threshold)[0] + a + 1:
            ga, gb = group[a], group[int(b)]
            if ga != gb:
                group = [ga if g == gb else g for g in group]
    return group


def _game_answers(look: Sequence[int], ids: Sequence[str], rots: Sequence[int],
                  catalog: CatalogInfo | None) -> list[int]:
    """Group templates into the answers they give the game: :func:`_look_alikes`' groups, joined where one tile's
    turns are the same for the game (:meth:`CatalogInfo.same_for_the_game`); group index per template."""
    group = list(look)
    if catalog is None:
        return group
    known = set(catalog.tile_ids)
    for a in range(len(ids)):
        for b in range(a + 1, len(ids)):
            if ids[a] == ids[b] and ids[a] in known and group[a] != group[b] \
                    and catalog.same_for_the_game(ids[a], rots[a], rots[b]):
                ga, gb = group[a], group[b]
                group = [ga if g == gb else g for g in group]
    return group


def _pooled(num: np.ndarray, wn: np.ndarray, tn: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Correlation pooled over the kept blocks: num (P, K, B) block products, wn (P, B) and tn (K, B) block
    norms; flat blocks weigh little, unlike a mean of per-block correlations."""
    k = keep.astype(np.float32)
    top = (num * k).sum(axis=2)
    ow = ((wn * wn)[:, None, :] * k).sum(axis=2)
    tw = ((tn * tn)[None, :, :] * k).sum(axis=2)
    return top / np.sqrt(np.maximum(ow * tw, 1e-6))


def _vertex(left: float, mid: float, right: float) -> float:
    """Where (pixels, -0.5..0.5 from the middle) the top of a parabola through three neighbouring scores lies."""
    curve = float(left) - 2.0 * float(mid) + float(right)
    return min(max(0.5 * (float(left) - float(right)) / curve, -0.5), 0.5) if curve < 0 else 0.0


def _confidence(best: float, second: float) -> float:
    """Map the best score and its margin over the best runner-up that is another answer for the game onto 0..1.

    Bare tiles score 0.9 and more, partly covered ones 0.75 to 0.95 (block scores); a tile
    that is not in the set, or a hand, scores around 0.6 at best.
    """
    margin = best - max(second, 0.0)
    # clipped by min and max, not np.clip: the same floats, without numpy's cost per call on two numbers (a few
    # hundred calls a reading)
    quality = min(max(float((best - 0.62) / 0.22), 0.0), 1.0)
    separation = min(max(float(margin / 0.08), 0.0), 1.0)
    return quality * (0.5 + 0.5 * separation) if margin > 0 else quality * 0.4
