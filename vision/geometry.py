"""Region geometry of square tiles, derived from the slot model of a tile catalog.

A catalog (``tablehub-tiles/1``, see docs/catalogs.md) says which of the twelve
side slots each region of a tile touches, not how the region is drawn. This
module turns that into plausible shapes, good enough to tell on which region a
figure stands and to draw synthetic tile art:

- each slot owns the triangle between the tile centre and its third of the side;
- a region whose slots form several separate runs around the border (``E W``, a
  bridge ``Nc Sc``) is joined by a band through the tile (a "hub");
- a region touching no side (an inner lake, a Südsee market) is a disc in the middle.

Tile coordinates are fractions ``(u, v)`` in [0, 1]: u grows east, v grows south.
Rotations are clockwise quarter turns in degrees: with 90 the tile's own N side
faces east. Region ids are those of the catalog, in the tile's unrotated frame.

>>> geo = TileGeometry({"format": "tablehub-tiles/1", "terrains": {"G": "plain", "S": "sea"},
...                     "tiles": [{"id": "t", "regions": [{"id": "S:NS", "terrain": "S", "slots": "N S"},
...                                                        {"id": "G:E", "terrain": "G", "slots": "E"},
...                                                        {"id": "G:W", "terrain": "G", "slots": "W"}]}]})
>>> geo.region_at("t", 0, 0.5, 0.5), geo.region_at("t", 90, 0.5, 0.05)
('S:NS', 'G:W')
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import cv2
import numpy as np

from tablehub.i18n import T, Tc, reason  # what a phone and the console read (tablehub/locale/*/visionfiles.po)

from . import VisionError

SLOTS = ("Nl", "Nc", "Nr", "El", "Ec", "Er", "Sl", "Sc", "Sr", "Wl", "Wc", "Wr")
SIDES = "NESW"
ROTATIONS = (0, 90, 180, 270)

#: distance multiplier of the bands that join separate runs of a region (>1: thinner bands)
HUB_WEIGHT = 1.25
#: how far a hub is pulled from the mean of its runs toward the tile centre
HUB_PULL = 0.35
#: radius of the disc of a region that touches no side (tile fractions)
DISC_RADIUS = 0.2
#: resolution of the label maps used to place anchors
ANCHOR_RES = 96


def perimeter_point(s: float) -> tuple[float, float]:
    """Point on the tile border at perimeter parameter ``s`` in [0, 4), clockwise from the top-left corner."""
    s = s % 4.0
    side, t = int(s), s - int(s)
    return [(t, 0.0), (1.0, t), (1.0 - t, 1.0), (0.0, 1.0 - t)][side]


def parse_slots(text: str) -> list[int]:
    """Slot indices (0..11, clockwise from Nl) of a catalog ``slots`` string such as ``"N Ec"``."""
    out: list[int] = []
    for token in text.split():
        if token in SIDES:
            base = SIDES.index(token) * 3
            out.extend((base, base + 1, base + 2))
        elif token in SLOTS:
            out.append(SLOTS.index(token))
        else:
            raise ValueError(T("unknown slot {token} (expected N, E, S, W or one of {slots})", token=repr(token), slots=" ".join(SLOTS)))
    return out


def rotate_uv(u: float | np.ndarray, v: float | np.ndarray, rotation: int) -> tuple[Any, Any]:
    """Where a point of the unrotated tile lies after turning the tile clockwise by ``rotation``."""
    for _ in range((rotation // 90) % 4):
        u, v = 1.0 - v, u
    return u, v


def unrotate_uv(u: float | np.ndarray, v: float | np.ndarray, rotation: int) -> tuple[Any, Any]:
    """Inverse of :func:`rotate_uv`."""
    for _ in range((rotation // 90) % 4):
        u, v = v, 1.0 - u
    return u, v


def _check_rotation(rotation: int) -> int:
    if rotation not in ROTATIONS:
        raise VisionError(T("rotation: expected 0, 90, 180 or 270 (clockwise degrees), got {value}", value=repr(rotation)))
    return int(rotation)


@dataclass(frozen=True)
class _Shape:
    """How one tile's regions are drawn: segments per region and discs."""

    region_ids: tuple[str, ...]
    terrains: tuple[str, ...]
    # (n, 4) segment end points, (n,) owning region index, (n,) distance weight
    seg: np.ndarray
    seg_region: np.ndarray
    seg_weight: np.ndarray
    # (region index, centre u, centre v, radius)
    discs: tuple[tuple[int, float, float, float], ...]


def _runs(slots: Sequence[int]) -> list[list[int]]:
    """Split slot indices into runs contiguous around the border (cyclically)."""
    have = sorted(set(slots))
    if len(have) == 12:
        return [have]
    # start right after a gap so no run wraps around the start
    start = next(k for k in range(12) if k in have and (k - 1) % 12 not in have)
    runs: list[list[int]] = []
    for i in range(12):
        k = (start + i) % 12
        if k not in have:
            continue
        if runs and (runs[-1][-1] + 1) % 12 == k:
            runs[-1].append(k)
        else:
            runs.append([k])
    return runs


def _build_shape(tile: Mapping[str, Any], where: str) -> _Shape:
    regions = tile.get("regions")
    if not isinstance(regions, list) or not regions:
        raise VisionError(T("{where}: regions: missing or empty", where=where))
    ids: list[str] = []
    terrains: list[str] = []
    segs: list[tuple[float, float, float, float]] = []
    owner: list[int] = []
    weight: list[float] = []
    inner: list[int] = []
    seen_slots: dict[int, str] = {}
    for r, region in enumerate(regions):
        rid = str(region.get("id", f"#{r}"))
        ids.append(rid)
        terrains.append(str(region.get("terrain", "?")))
        try:
            slots = parse_slots(str(region.get("slots", "")))
        except ValueError as exc:
            raise VisionError(T("{where}: region {region}: slots: {why}", where=where, region=rid, why=reason(exc))) from None
        for k in slots:
            if k in seen_slots:
                raise VisionError(T("{where}: region {region}: slot {slot} already belongs to {other}", where=where, region=rid,
                                    slot=SLOTS[k], other=seen_slots[k]))
            seen_slots[k] = rid
        if not slots:
            inner.append(r)
            continue
        for k in slots:
            p0, p1 = perimeter_point(k / 3), perimeter_point((k + 1) / 3)
            segs.append((*p0, *p1))
            owner.append(r)
            weight.append(1.0)
        runs = _runs(slots)
        if len(runs) > 1:
            mids = [perimeter_point((run[0] + len(run) / 2) / 3) for run in runs]
            hx = float(np.mean([m[0] for m in mids]))
            hy = float(np.mean([m[1] for m in mids]))
            hx, hy = hx + (0.5 - hx) * HUB_PULL, hy + (0.5 - hy) * HUB_PULL
            for m in mids:
                segs.append((m[0], m[1], hx, hy))
                owner.append(r)
                weight.append(HUB_WEIGHT)
    missing = [SLOTS[k] for k in range(12) if k not in seen_slots]
    if missing:
        raise VisionError(T("{where}: slots {slots} belong to no region", where=where, slots=" ".join(missing)))
    discs: list[tuple[int, float, float, float]] = []
    if len(inner) == 1:
        discs.append((inner[0], 0.5, 0.5, DISC_RADIUS))
    else:
        for j, r in enumerate(inner):
            a = 2 * math.pi * j / len(inner) - math.pi / 2
            discs.append((r, 0.5 + 0.22 * math.cos(a), 0.5 + 0.22 * math.sin(a), DISC_RADIUS * 0.65))
    return _Shape(tuple(ids), tuple(terrains), np.array(segs, np.float64).reshape(-1, 4),
                  np.array(owner, np.int64), np.array(weight, np.float64), tuple(discs))


def _label_points(shape: _Shape, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Region index at unrotated tile points (vectorised)."""
    pu, pv = u.ravel()[None, :], v.ravel()[None, :]
    ax, ay, bx, by = (shape.seg[:, i:i + 1] for i in range(4))
    dx, dy = bx - ax, by - ay
    t = np.clip(((pu - ax) * dx + (pv - ay) * dy) / np.maximum(dx * dx + dy * dy, 1e-12), 0.0, 1.0)
    dist = np.hypot(pu - ax - t * dx, pv - ay - t * dy) * shape.seg_weight[:, None]
    n = len(shape.region_ids)
    best = np.full((n, dist.shape[1]), np.inf)
    for r in range(n):
        mask = shape.seg_region == r
        if mask.any():
            best[r] = dist[mask].min(axis=0)
    # exact ties (points on a diagonal) go to the first region, whatever rounding did to the point
    labels = (best + np.arange(n)[:, None] * 1e-9).argmin(axis=0)
    for r, cu, cv, rad in shape.discs:
        labels[(pu[0] - cu) ** 2 + (pv[0] - cv) ** 2 <= rad * rad] = r
    return labels.reshape(u.shape)


class TileGeometry:
    """Region label maps, region lists and figure anchors for every tile of a catalog.

    ``catalog`` is the parsed ``tablehub-tiles/1`` JSON or a path to it.
    Results are cached; label images are returned read-only (copy before editing).
    """

    def __init__(self, catalog: Mapping[str, Any] | str | Path):
        if isinstance(catalog, (str, Path)):
            path = Path(catalog)
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except OSError as exc:
                raise VisionError(T("{path}: cannot read the {what} ({why})", path=str(path), what=Tc("file", "catalog"),
                                    why=exc.strerror or str(exc))) from None
            except json.JSONDecodeError as exc:
                raise VisionError(T("{source}: not valid JSON (line {line}, column {column}: {why})", source=str(path),
                                    line=exc.lineno, column=exc.colno, why=exc.msg)) from None
            self.source = str(path)
        else:
            data = catalog
            self.source = str(catalog.get("game", "catalog"))
        tiles = data.get("tiles") if isinstance(data, Mapping) else None
        if not isinstance(tiles, list) or not tiles:
            raise VisionError(T("{where}: tiles: missing or empty", where=self.source))
        self.catalog: Mapping[str, Any] = data
        self.terrains: dict[str, str] = dict(data.get("terrains", {}))
        self._tiles: dict[str, Mapping[str, Any]] = {}
        for i, t in enumerate(tiles):
            tid = t.get("id") if isinstance(t, Mapping) else None
            if not isinstance(tid, str):
                raise VisionError(T("{where}: tiles[{i}].id: missing", where=self.source, i=i))
            self._tiles[tid] = t
        self._shapes: dict[str, _Shape] = {}
        self._labels: dict[tuple[str, int, int], np.ndarray] = {}
        self._anchors: dict[str, np.ndarray] = {}

    # ------------------------------------------------------------------ catalog access
    @property
    def tile_ids(self) -> list[str]:
        return list(self._tiles)

    def tile(self, tile_id: str) -> Mapping[str, Any]:
        """The catalog entry of a tile (raw dict)."""
        try:
            return self._tiles[tile_id]
        except KeyError:
            raise VisionError(T("{where}: no tile {tile} in the catalog", where=self.source, tile=repr(tile_id))) from None

    def _shape(self, tile_id: str) -> _Shape:
        shape = self._shapes.get(tile_id)
        if shape is None:
            shape = _build_shape(self.tile(tile_id), f"{self.source}: tile {tile_id}")
            self._shapes[tile_id] = shape
        return shape

    def regions(self, tile_id: str) -> list[tuple[str, str]]:
        """``[(region id, terrain letter), ...]`` in label order (label value = list index)."""
        shape = self._shape(tile_id)
        return list(zip(shape.region_ids, shape.terrains))

    def region_index(self, tile_id: str, region: str | int) -> int:
        shape = self._shape(tile_id)
        if isinstance(region, (int, np.integer)) and not isinstance(region, bool):
            if not 0 <= region < len(shape.region_ids):
                raise VisionError(T("tile {tile}: no region number {region}", tile=tile_id, region=region))
            return int(region)
        try:
            return shape.region_ids.index(region)
        except ValueError:
            raise VisionError(T("tile {tile}: no region {region} (has {regions})", tile=tile_id, region=repr(region),
                                regions=", ".join(shape.region_ids))) from None

    def region_info(self, tile_id: str, region: str | int) -> Mapping[str, Any]:
        """The catalog entry of one region (``terrain``, ``slots``, ``symbols``, ``boat``...)."""
        return self.tile(tile_id)["regions"][self.region_index(tile_id, region)]

    def slot_regions(self, tile_id: str) -> list[str]:
        """Region id of each of the 12 slots (order Nl Nc Nr El ... Wr), unrotated."""
        out = [""] * 12
        for region in self.tile(tile_id)["regions"]:
            for k in parse_slots(str(region.get("slots", ""))):
                out[k] = str(region["id"])
        return out

    # ------------------------------------------------------------------ label maps
    def region_labels(self, tile_id: str, size_px: int, rotation: int = 0) -> np.ndarray:
        """``(size_px, size_px)`` int16 image of region indices (see :meth:`regions`), tile turned by ``rotation``.

        Pixel ``(row, col)`` samples the tile at ``u = (col + 0.5) / size_px``, ``v = (row + 0.5) / size_px``.
        """
        rotation = _check_rotation(rotation)
        size_px = int(size_px)
        if size_px < 1:
            raise VisionError(T("size_px: expected a positive size, got {value}", value=size_px))
        key = (tile_id, size_px, rotation)
        out = self._labels.get(key)
        if out is None:
            if rotation:
                base = self.region_labels(tile_id, size_px, 0)
                out = np.ascontiguousarray(np.rot90(base, k=-(rotation // 90)))
            else:
                c = (np.arange(size_px) + 0.5) / size_px
                u, v = np.meshgrid(c, c)
                out = _label_points(self._shape(tile_id), u, v).astype(np.int16)
            out.setflags(write=False)
            if len(self._labels) > 4096:
                self._labels.clear()
            self._labels[key] = out
        return out

    def region_at(self, tile_id: str, rotation: int, u: float, v: float) -> str:
        """Region id under the point ``(u, v)`` (tile fractions, rotated frame)."""
        rotation = _check_rotation(rotation)
        uu, vv = unrotate_uv(np.asarray([float(u)]), np.asarray([float(v)]), rotation)
        label = int(_label_points(self._shape(tile_id), uu, vv)[0])
        return self._shape(tile_id).region_ids[label]

    def regions_at(self, tile_id: str, rotation: int, uv: np.ndarray) -> list[str]:
        """Vectorised :meth:`region_at` for an ``(n, 2)`` array of points."""
        rotation = _check_rotation(rotation)
        uv = np.asarray(uv, np.float64).reshape(-1, 2)
        uu, vv = unrotate_uv(uv[:, 0], uv[:, 1], rotation)
        ids = self._shape(tile_id).region_ids
        return [ids[i] for i in _label_points(self._shape(tile_id), uu, vv)]

    # ------------------------------------------------------------------ anchors
    def _anchor_table(self, tile_id: str) -> np.ndarray:
        table = self._anchors.get(tile_id)
        if table is None:
            labels = self.region_labels(tile_id, ANCHOR_RES, 0)
            n = len(self._shape(tile_id).region_ids)
            table = np.zeros((n, 2), np.float64)
            for r in range(n):
                mask = np.pad((labels == r).astype(np.uint8), 1)
                dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)[1:-1, 1:-1]
                if dist.max() <= 0:
                    raise VisionError(T("tile {tile}: region {region} has no area", tile=tile_id,
                                            region=self._shape(tile_id).region_ids[r]))
                # among the deepest points (within 10 %), take the one nearest the region's centroid
                ys, xs = np.nonzero(dist >= dist.max() * 0.9)
                rows, cols = np.nonzero(labels == r)
                cy, cx = rows.mean(), cols.mean()
                k = int(np.argmin((ys - cy) ** 2 + (xs - cx) ** 2))
                table[r] = ((xs[k] + 0.5) / ANCHOR_RES, (ys[k] + 0.5) / ANCHOR_RES)
            self._anchors[tile_id] = table
        return table

    def anchor(self, tile_id: str, region: str | int, rotation: int = 0) -> tuple[float, float]:
        """Where a figure on ``region`` stands: ``(u, v)`` tile fractions in the rotated frame.

        The point lies deep inside the region (the deepest point of its distance
        transform, ties broken toward its centroid), away from its borders.
        """
        rotation = _check_rotation(rotation)
        u, v = self._anchor_table(tile_id)[self.region_index(tile_id, region)]
        ru, rv = rotate_uv(float(u), float(v), rotation)
        return (float(ru), float(rv))

    def anchor_clearance(self, tile_id: str, region: str | int) -> float:
        """Distance (tile fractions) from the region's anchor to its nearest border: how far jitter may go."""
        labels = self.region_labels(tile_id, ANCHOR_RES, 0)
        r = self.region_index(tile_id, region)
        mask = np.pad((labels == r).astype(np.uint8), 1)
        dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)[1:-1, 1:-1]
        u, v = self._anchor_table(tile_id)[r]
        return float(dist[min(int(v * ANCHOR_RES), ANCHOR_RES - 1), min(int(u * ANCHOR_RES), ANCHOR_RES - 1)]
                     / ANCHOR_RES)
