"""The true shapes of a tile's regions, learnt from the tile's picture.

A catalog says which side slots each region touches, not how it is drawn; the slot model of
:mod:`vision.geometry` (a triangle per side, bands between runs) puts bays, spikes, inner lakes and
plains that reach the middle in the wrong place. Here each region gets its shape from the art:

1. every pixel of the (smoothed) picture is given the nearest of the tile's own terrains, by colour
   centres learnt from the whole set (pixels just inside each side slot, whose terrain the catalog
   gives), and each pixel then takes the terrain most of its neighbourhood has (towns, trees and
   boats drawn on a region go with what surrounds them);
2. the parts of each terrain (4-connected) are labelled;
3. each part is matched to the catalog region of its terrain whose side slots it touches; a part
   touching no slot is the tile's inner region of that terrain (a lake) when it has one, else it
   goes with what surrounds it;
4. where one part touches the slots of two regions (a spike between them too thin to see at this
   resolution) or a region finds no part, the tile is *ambiguous*: those pixels are split by the
   slot model and the region ids are listed in :attr:`RegionMap.ambiguous`.

>>> import numpy as np
>>> from vision.geometry import TileGeometry
>>> geo = TileGeometry({"format": "tablehub-tiles/1", "terrains": {"G": "plain", "S": "sea"},
...                     "tiles": [{"id": "t", "regions": [{"id": "S:N", "terrain": "S", "slots": "N"},
...                                                        {"id": "G:ESW", "terrain": "G", "slots": "E S W"}]}]})
>>> img = np.zeros((60, 60, 3), np.uint8); img[:] = (60, 170, 120); img[:12, 20:40] = (200, 150, 60)
>>> maps = RegionMaps(geo, {"t": img})
>>> maps.region_at("t", 0, 0.5, 0.1), maps.region_at("t", 0, 0.1, 0.1), maps.map("t").ambiguous
('S:N', 'G:ESW', ())
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import cv2
import numpy as np

from tablehub.i18n import T  # what the console reads (tablehub/locale/*/visionfiles.po)

from . import VisionError
from .geometry import TileGeometry, parse_slots, rotate_uv, unrotate_uv

log = logging.getLogger(__name__)

WORK_PX = 96
"""Pictures are segmented at this size (a tile side, pixels)."""
STRIP = (0.03, 0.09)
"""The band just inside a side where a slot's terrain is sampled (tile fractions from the edge) ..."""
STRIP_SPAN = 0.6
"""... over this middle share of the slot's third of the side."""
MIDDLE_SHARE = 0.25
"""A figure stands on the region under its footprint's middle when that region holds this share of the
footprint (see :meth:`RegionMaps.region_under`)."""


def _lab(bgr: np.ndarray) -> np.ndarray:
    lab = cv2.cvtColor(bgr.astype(np.float32) / 255.0, cv2.COLOR_BGR2LAB)
    lab[..., 0] *= 0.5          # lightness counts half: shading and the drawn strokes change it most
    return lab


def _work(image: np.ndarray) -> np.ndarray:
    """The picture at WORK_PX, smoothed (strokes and dots of texture gone, areas of colour kept)."""
    interp = cv2.INTER_AREA if image.shape[0] > WORK_PX else cv2.INTER_CUBIC
    img = cv2.resize(image[..., :3], (WORK_PX, WORK_PX), interpolation=interp)
    return _lab(cv2.GaussianBlur(img, (0, 0), 1.5))


def slot_strip(k: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns (pixel indices of an ``n`` px tile) of the band just inside slot ``k`` (0..11)."""
    side, third = divmod(k, 3)
    lo = (third + 0.5 - STRIP_SPAN / 2) / 3
    hi = (third + 0.5 + STRIP_SPAN / 2) / 3
    along = np.arange(int(lo * n), max(int(hi * n), int(lo * n) + 1))
    depth = np.arange(int(STRIP[0] * n), max(int(STRIP[1] * n), int(STRIP[0] * n) + 1))
    a, d = np.meshgrid(along, depth)
    a, d = a.ravel(), d.ravel()
    # clockwise from the top-left corner: N runs east, E south, S west, W north
    if side == 0:
        return d, a
    if side == 1:
        return a, n - 1 - d
    if side == 2:
        return n - 1 - d, n - 1 - a
    return n - 1 - a, d


@dataclass(frozen=True)
class TerrainColours:
    """A colour centre (weighted Lab) per terrain letter, learnt from pixels just inside the side slots."""

    centres: Mapping[str, np.ndarray]

    @classmethod
    def learn(cls, geometry: TileGeometry, images: Mapping[str, np.ndarray]) -> "TerrainColours":
        samples: dict[str, list[np.ndarray]] = {}
        for tid, image in images.items():
            lab = _work(image)
            for region in geometry.tile(tid)["regions"]:
                terrain = str(region.get("terrain", "?"))
                for k in parse_slots(str(region.get("slots", ""))):
                    rows, cols = slot_strip(k, WORK_PX)
                    samples.setdefault(terrain, []).append(lab[rows, cols])
        return cls({t: np.median(np.concatenate(s), axis=0) for t, s in samples.items()})


@dataclass(frozen=True)
class RegionMap:
    """Region indices (order of :meth:`TileGeometry.regions`) over the unrotated tile, ``WORK_PX`` square."""

    tile: str
    labels: np.ndarray
    ambiguous: tuple[str, ...] = ()
    """Regions whose shape the picture did not settle (split by the slot model there)."""


def learn_map(geometry: TileGeometry, tile_id: str, image: np.ndarray, colours: TerrainColours) -> RegionMap:
    """The true region shapes of one tile from its picture (see the module's doc)."""
    n = WORK_PX
    regions = geometry.tile(tile_id)["regions"]
    terrains = [str(r.get("terrain", "?")) for r in regions]
    kinds = sorted({t for t in terrains if t in colours.centres})
    geo = geometry.region_labels(tile_id, n, 0)
    if len(kinds) == 0:
        return RegionMap(tile_id, np.array(geo), tuple(str(r["id"]) for r in regions))
    lab = _work(image)
    centres = np.stack([colours.centres[t] for t in kinds])
    dist = np.linalg.norm(lab[:, :, None, :] - centres[None, None], axis=3)
    # each pixel takes the terrain most of its neighbourhood is nearest to (about 3 mm across)
    votes = np.stack([cv2.blur((dist.argmin(axis=2) == i).astype(np.float32), (7, 7)) for i in range(len(kinds))])
    terrain_px = votes.argmax(axis=0)
    labels = np.full((n, n), -1, np.int32)
    ambiguous: set[int] = set()
    slots_of = [parse_slots(str(r.get("slots", ""))) for r in regions]
    inner = {terrains[r]: r for r in range(len(regions)) if not slots_of[r]}
    for i, t in enumerate(kinds):
        count, parts = cv2.connectedComponents((terrain_px == i).astype(np.uint8), connectivity=4)
        claims: dict[int, set[int]] = {}
        for r, slots in enumerate(slots_of):
            if terrains[r] != t:
                continue
            for k in slots:
                rows, cols = slot_strip(k, n)
                under = parts[rows, cols]
                under = under[under > 0]
                if under.size >= 0.3 * rows.size:
                    claims.setdefault(int(np.bincount(under).argmax()), set()).add(r)
        for part in range(1, count):
            owners = claims.get(part)
            where = parts == part
            if owners is None:
                r = inner.get(t)
                if r is not None and where.sum() >= 0.01 * n * n:
                    labels[where & (labels < 0)] = r
                continue
            if len(owners) == 1:
                labels[where] = next(iter(owners))
                continue
            # one part reaching the slots of several regions: a spike between them thinner than the smoothing
            # at the corner it runs into. The part is split by the way round within it: each pixel goes to the
            # region whose slots it is nearest to without leaving the part
            ambiguous.update(owners)
            seeds = {}
            for r in owners:
                seed = np.zeros((n, n), bool)
                for k in slots_of[r]:
                    rows, cols = slot_strip(k, n)
                    seed[rows, cols] = True
                seeds[r] = seed & where
            _grow_within(labels, where, seeds)
    for r in range(len(regions)):
        if terrains[r] not in colours.centres:       # a terrain no side shows (Suedsee's markets): the slot model
            labels[geo == r] = r
    for r in range(len(regions)):
        if (labels == r).sum() < 0.01 * n * n:       # the picture showed no part of it: take the slot model's
            ambiguous.add(r)
            labels[(geo == r) & ((labels < 0) | np.isin(labels, list(ambiguous)))] = r
    # what is left (towns, trees, parts of no region) goes with the nearest region around it
    if (labels < 0).any():
        known = (labels >= 0).astype(np.uint8)
        _, nearest = cv2.distanceTransformWithLabels(1 - known, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL)
        ys, xs = np.nonzero(known)
        # DIST_LABEL_PIXEL numbers the zero pixels of the input (here: the labelled ones) in row-major order
        lut = np.zeros(len(ys) + 1, np.int32)
        lut[1:] = labels[ys, xs]
        labels = np.where(labels >= 0, labels, lut[nearest])
    ids = [str(r["id"]) for r in regions]
    return RegionMap(tile_id, labels.astype(np.int16), tuple(ids[r] for r in sorted(ambiguous)))


def _grow_within(labels: np.ndarray, where: np.ndarray, seeds: Mapping[int, np.ndarray]) -> None:
    """Labels the pixels of ``where`` by the seed they are nearest to along paths inside ``where`` (a
    breadth-first growth of all seeds together, a pixel a step)."""
    cross = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    free = where & (labels < 0)
    for r, seed in seeds.items():
        labels[seed & free] = r
    free = where & (labels < 0)
    grown = {r: (labels == r).astype(np.uint8) for r in seeds}
    while free.any():
        step = {r: cv2.dilate(m, cross).astype(bool) & free for r, m in grown.items()}
        if not any(v.any() for v in step.values()):
            break
        for r, new in step.items():
            new &= labels < 0
            labels[new] = r
            grown[r] |= new.astype(np.uint8)
        free = where & (labels < 0)


class RegionMaps:
    """True region shapes for the tiles of a set, learnt from their pictures (enrolled references, scans).

    ``images`` maps tile ids to unrotated BGR pictures (any size). Tiles without a picture keep the slot
    model of ``geometry``. Maps are learnt when first asked for.
    """

    def __init__(self, geometry: TileGeometry, images: Mapping[str, np.ndarray]):
        self.geometry = geometry
        self.images = dict(images)
        self.colours = TerrainColours.learn(geometry, self.images)
        self._maps: dict[str, RegionMap] = {}
        self._sized: dict[tuple[str, int, int], np.ndarray] = {}

    def map(self, tile_id: str) -> RegionMap:
        m = self._maps.get(tile_id)
        if m is None:
            image = self.images.get(tile_id)
            if image is None:
                m = RegionMap(tile_id, np.array(self.geometry.region_labels(tile_id, WORK_PX, 0)))
            else:
                m = learn_map(self.geometry, tile_id, image, self.colours)
            self._maps[tile_id] = m
        return m

    def ambiguous(self) -> dict[str, tuple[str, ...]]:
        """The tiles whose picture did not settle the shape of some regions, with those regions."""
        out = {}
        for tid in self.images:
            amb = self.map(tid).ambiguous
            if amb:
                out[tid] = amb
        return out

    def labels(self, tile_id: str, size_px: int, rotation: int = 0) -> np.ndarray:
        """``(size_px, size_px)`` region indices, the tile turned clockwise by ``rotation`` (read-only)."""
        key = (tile_id, int(size_px), int(rotation))
        out = self._sized.get(key)
        if out is None:
            base = self.map(tile_id).labels
            if size_px != WORK_PX:
                base = cv2.resize(base, (int(size_px), int(size_px)), interpolation=cv2.INTER_NEAREST_EXACT)
            out = np.ascontiguousarray(np.rot90(base, k=-((rotation // 90) % 4)))
            out.setflags(write=False)
            self._sized[key] = out
        return out

    def region_at(self, tile_id: str, rotation: int, u: float, v: float) -> str:
        """Region id under ``(u, v)`` (tile fractions in the turned tile, clipped to the tile). Clipped after the
        turn back: a point on the tile's west edge (u = 0) turned by 90 degrees lies at 1.0 - 0 of the unturned
        tile, one past its last pixel (before: an IndexError that ended `tablehub score`)."""
        uu, vv = unrotate_uv(float(u), float(v), rotation)
        lab = self.map(tile_id).labels
        col = min(max(int(float(uu) * WORK_PX), 0), WORK_PX - 1)
        row = min(max(int(float(vv) * WORK_PX), 0), WORK_PX - 1)
        return self.geometry.regions(tile_id)[int(lab[row, col])][0]

    def region_under(self, tile_id: str, rotation: int, footprint: np.ndarray) -> tuple[str, float]:
        """The region a figure's ``footprint`` (a boolean mask over the turned tile, any square size) stands on,
        and the share of the footprint on it: the region under the footprint's middle, unless that region
        takes less than :data:`MIDDLE_SHARE` of the footprint (the middle fell on a thin spike or a region's
        fringe), then the region under most of it. (The middle alone: a figure on a narrow bridge covers more
        sea either side than bridge; the most alone: one middle pixel on a spike decided.)"""
        side = footprint.shape[0]
        lab = self.labels(tile_id, side, rotation)
        counts = np.bincount(lab[footprint].ravel(), minlength=len(self.geometry.regions(tile_id)))
        total = max(int(counts.sum()), 1)
        ys, xs = np.nonzero(footprint)
        middle = int(lab[int(round(ys.mean())), int(round(xs.mean()))]) if len(ys) else int(counts.argmax())
        best = middle if counts[middle] >= MIDDLE_SHARE * total else int(counts.argmax())
        return self.geometry.regions(tile_id)[best][0], float(counts[best] / total)

    def region_at_base(self, tile_id: str, rotation: int, u: float, v: float, radius: float) -> tuple[str, float]:
        """The region a figure whose base was found at ``(u, v)`` (fractions of the turned tile) stands on, and the
        share of its foot there: the region at that point, unless it holds less than :data:`MIDDLE_SHARE` of a disc
        of ``radius`` (tile fractions: the foot, the base being found to 1-2 mm) around it, then the region under most
        of the disc (the tile's part of it). Decided at the maps' own resolution (:data:`WORK_PX`, 0.47 mm a pixel
        for 45 mm tiles) around the point itself: a disc drawn at the figures' scale (1.9 mm a pixel) had its
        middle rounded to a pixel, and a base found 1-2 mm inside its region was named on the next one (Neues
        Land ``field/hard`` seed 2: on S:N 2 mm from M:S, on M:W 2 mm from G:S)."""
        lab = self.labels(tile_id, WORK_PX, rotation)
        n = len(self.geometry.regions(tile_id))
        cx, cy = float(u) * WORK_PX, float(v) * WORK_PX
        r = max(float(radius) * WORK_PX, 0.5)
        y0, y1 = max(int(cy - r) - 1, 0), min(int(cy + r) + 2, WORK_PX)
        x0, x1 = max(int(cx - r) - 1, 0), min(int(cx + r) + 2, WORK_PX)
        yy, xx = np.mgrid[y0:y1, x0:x1]
        disc = (xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2 <= r * r
        counts = np.bincount(lab[y0:y1, x0:x1][disc].ravel(), minlength=n) if disc.any() else np.zeros(n, np.int64)
        middle = int(lab[min(max(int(cy), 0), WORK_PX - 1), min(max(int(cx), 0), WORK_PX - 1)])
        total = max(int(counts.sum()), 1)
        best = middle if counts[middle] >= MIDDLE_SHARE * total or counts.sum() == 0 else int(counts.argmax())
        return self.geometry.regions(tile_id)[best][0], float(counts[best] / total)

    def anchor(self, tile_id: str, region: str, rotation: int = 0) -> tuple[float, float]:
        """The deepest point of the region's shape (tile edges count as borders): ``(u, v)`` in the turned tile;
        the slot model's anchor for a tile without a picture (its shapes are the slot model's)."""
        if tile_id not in self.images:
            return self.geometry.anchor(tile_id, region, rotation)
        depth, inside = self._depth(tile_id, region, edge_is_border=True)
        y, x = np.unravel_index(int(np.argmax(np.where(inside, depth, -1))), depth.shape)
        ru, rv = rotate_uv((x + 0.5) / WORK_PX, (y + 0.5) / WORK_PX, rotation)
        return float(ru), float(rv)

    def anchor_clearance(self, tile_id: str, region: str) -> float:
        """How far (tile fractions) the anchor lies from the region's border."""
        if tile_id not in self.images:
            return self.geometry.anchor_clearance(tile_id, region)
        depth, inside = self._depth(tile_id, region, edge_is_border=True)
        return float(depth[inside].max()) if inside.any() else 0.0

    def _depth(self, tile_id: str, region: str, edge_is_border: bool) -> tuple[np.ndarray, np.ndarray]:
        r = self.geometry.region_index(tile_id, region)
        inside = (self.map(tile_id).labels == r).astype(np.uint8)
        pad = 0 if edge_is_border else 1
        depth = cv2.distanceTransform(np.pad(inside, 1, constant_values=pad), cv2.DIST_L2, 5)[1:-1, 1:-1] / WORK_PX
        return depth, inside > 0

    def points_in(self, tile_id: str, region: str, clear: float) -> np.ndarray:
        """``(n, 2)`` points ``(u, v)`` of the unrotated tile inside ``region`` at least ``clear`` (tile
        fractions) from any other region (the tile's own edge is no border); the region's deepest points
        when none is that clear."""
        depth, inside = self._depth(tile_id, region, edge_is_border=False)
        ok = (depth >= clear) & inside
        if not ok.any():
            ok = (depth >= 0.7 * depth.max()) & inside
        ys, xs = np.nonzero(ok)
        return np.stack([(xs + 0.5) / WORK_PX, (ys + 0.5) / WORK_PX], axis=1)


SCAN_EXTS = (".png", ".jpg", ".jpeg")
PAPER_GREY = 235
"""What a scan's transparent pixels are laid on (as :class:`vision.sim.ScanArt` and scan enrolment do)."""


def scan_pictures(folder: str | Path, tile_ids: list[str] | tuple[str, ...]) -> dict[str, np.ndarray]:
    """The pictures of ``tile_ids`` in a folder of scans named ``<tile id>.png`` (or .jpg), at the scans' own
    size, unrotated BGR: the tiles it holds (a tile without a scan is left out; its shapes come from elsewhere).
    A folder that does not exist, or a scan that cannot be read, is a :class:`VisionError` of one line."""
    root = Path(folder)
    if not root.is_dir():
        raise VisionError(T("{path}: no such folder of tile scans (for the regions' shapes)", path=str(root)))
    out = {}
    for tid in tile_ids:
        path = next((root / f"{tid}{ext}" for ext in SCAN_EXTS if (root / f"{tid}{ext}").is_file()), None)
        if path is None:
            continue
        img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if img is None:
            raise VisionError(T("{path}: not a readable image (a scan of tile {tile}, for its regions' shapes)",
                                path=str(path), tile=tid))
        if img.ndim == 2:
            img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
        elif img.shape[2] == 4:
            a = img[:, :, 3:4].astype(np.float32) / 255
            img = (img[:, :, :3] * a + PAPER_GREY * (1 - a)).astype(np.uint8)
        out[tid] = img
    return out


def shapes_folder_of(refs: Any, folder: str | Path | None = None) -> Path | None:
    """Where a set's scans are, for its regions' shapes: ``folder`` when given, else the one a reference set
    names (``meta["shapes"]``, or its source when it was enrolled from scans, ``scans:DIR``), else None."""
    if folder:
        return Path(folder)
    meta = getattr(refs, "meta", None) or {}
    if meta.get("shapes"):
        return Path(str(meta["shapes"]))
    source = str(getattr(refs, "source", "") or "")
    if source.startswith("scans:") and Path(source[len("scans:"):]).is_dir():
        return Path(source[len("scans:"):])
    return None


def maps_for_set(geometry: TileGeometry, refs: Any, folder: str | Path | None = None) -> RegionMaps:
    """The set's region maps, each tile's shapes learnt from its sharpest picture: its scan, where the set's scans
    are known (:func:`shapes_folder_of`), else its enrolled reference.

    A reference enrolled by a camera is blurred by the lens, the light and the sampling (48 px a tile, and at
    ``hard`` an out-of-focus, noisy frame): thin spikes and narrow bays vanish in it and a region's border moves by a
    millimetre or more, so a figure 3 mm inside its region on the art can lie outside it on the map learnt from the
    reference. The scan is the art itself, in the tile's frame, the same under every camera: shapes learnt from it
    hold whatever camera reads the table. (A scan's colours are never compared with the camera's: only its shapes
    are used.)"""
    known = set(geometry.tile_ids)
    tiles = [t for t in refs.tile_ids if t in known]
    pictures = {t: refs.images[i] for i, t in enumerate(refs.tile_ids) if t in known}
    root = shapes_folder_of(refs, folder)
    if root is not None:
        scans = scan_pictures(root, tiles)
        if len(scans) == len(tiles):
            pictures = scans
        else:
            # the terrains' colour centres are learnt across all the pictures: one source for the whole set
            log.warning("%s: no scan for %d of %d tiles; the regions' shapes come from the enrolled references",
                        root, len(tiles) - len(scans), len(tiles))
    return RegionMaps(geometry, pictures)


__all__ = ["RegionMap", "RegionMaps", "maps_for_set", "scan_pictures", "shapes_folder_of", "TerrainColours", "learn_map", "slot_strip", "rotate_uv", "WORK_PX"]
