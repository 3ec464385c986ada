"""The tile-game recognition pipeline: camera frame -> :class:`Observation`.

>>> rec = Recognizer.for_game(catalog_path, refs, mat, colours=colours)        # doctest: +SKIP
>>> obs = rec.observe(frame)                      # full: finds the start tile, every cell  # doctest: +SKIP
>>> obs2 = rec.observe(next_frame, previous=obs)  # incremental: only cells that changed   # doctest: +SKIP
>>> obs2.to_dict()["tiles"][0]                                                  # doctest: +SKIP
{'x': 0, 'y': 0, 'tile': 'ds001', 'rotation': 0, 'confidence': 0.98, ...}

Steps: locate the mat (:class:`vision.rectify.Rectifier`), sample the play area as a
grid canvas (one ``cv2.remap`` through the lens model, cached while the camera is
still), find the start tile once (it fixes cell (0, 0) and north), tell empty cells
from occupied ones against the mat colour, classify occupied cells
(:class:`vision.tiles.TileClassifier`), then look for figures on them
(:class:`vision.pieces.FigureFinder`). With a previous observation only the cells
whose small signature changed are examined again.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import cv2
import numpy as np

from . import VisionError
from .geometry import TileGeometry
from .mat import Mat
from .pieces import FigureFinder, FigureSeen, PlayerColours, bgr_to_lab
from .refs import ReferenceSet
from .tiles import (MARGIN_PX, TILE_PX, CatalogInfo, Constraints, FeatureCanvas, Grid, GridCanvas,
                    TileClassifier, TileGuess, centre_lightness, mat_margin_pixels, to_features)

log = logging.getLogger(__name__)

SIG_PX = 8
"""Side of the per-cell thumbnail that tells which cells changed."""
START_FACTOR = 4
"""The start tile is first searched at TILE_PX / START_FACTOR pixels per tile."""
START_RING_PX = 3
"""Refining the start tile's place and angle leaves out this ring of its reference (see ``_start_inner``)."""

MapFn = Callable[[np.ndarray], np.ndarray]
"""Mat millimetres (n, 2) -> frame pixels (n, 2)."""


class NoStartTile(VisionError):
    """The start tile is not visible on the play area."""


@dataclass
class Observation:
    """What the camera sees on a tile game table at one moment."""

    grid: Grid
    tiles: dict[tuple[int, int], TileGuess]
    figures: list[FigureSeen]
    signatures: dict[tuple[int, int], np.ndarray] = field(repr=False, default_factory=dict)
    changed: list[tuple[int, int]] = field(default_factory=list)
    """Cells examined afresh for this observation (all of them for a full one)."""
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        tiles = sorted(self.tiles.values(), key=lambda t: (t.y, t.x))
        figs = sorted(self.figures, key=lambda f: (f.y, f.x, f.colour))
        return {"grid": self.grid.to_dict(),
                "tiles": [t.to_dict() for t in tiles],
                "figures": [f.to_dict() for f in figs],
                "warnings": list(self.warnings)}


# --------------------------------------------------------------------------- sampling


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
    # interpolate the coarse lattice to every pixel (the lattice ends exactly on the last pixel)
    out = []
    for c in range(2):
        coarse = fr[..., c]
        fine_x = np.interp(np.arange(w), cols, np.arange(len(cols)))
        fine_y = np.interp(np.arange(h), rows, np.arange(len(rows)))
        out.append(cv2.remap(coarse, *np.meshgrid(fine_x.astype(np.float32), fine_y.astype(np.float32)),
                             cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))
    return out[0], out[1]


def canvas_mapping(px_per_mm: float) -> MapFn:
    """Mapping for frames that already are top-down canvases (pixel = mat mm * px_per_mm)."""
    return lambda pts: np.asarray(pts, np.float64) * px_per_mm


# --------------------------------------------------------------------------- the recogniser


@dataclass
class Thresholds:
    occupied_share: float = 0.5
    """A cell is occupied when more than this share of its inner part is not mat."""
    mat_distance: float = 24.0
    """Weighted-Lab distance from the mat colour above which a pixel is "not mat"."""
    start_min_score: float = 0.55
    """The start tile must match at least this well to fix the grid."""
    signature_change: float = 45.0
    """A cell changed when a thumbnail pixel moved more than this (B+G+R, after removing the cell's mean change)."""
    figure_colour: float = 20.0
    """Pixels this near a player colour (weighted Lab) may belong to a figure (for the covered blocks)."""
    grid_refit_mm: float = 1.5
    """A full reading is done again on the fitted grid when it moves some cell by more than this."""
    start_keep_margin: float = 0.05
    """Cell (0, 0) stays the start tile unless another tile fits it better by more than this (block score)."""
    figure_hint: float = 3.0
    """Only tiles with a spot this unexplained by the tile (see :meth:`TileClassifier.unexplained`) are
    searched for figures."""
    keep_score_drop: float = 0.08
    """A changed cell keeps its tile when that tile still matches within this of its earlier score."""


class Recognizer:
    """Frame -> :class:`Observation` for one tile game, one reference set, one mat."""

    def __init__(self, catalog: CatalogInfo, refs: ReferenceSet, mat: Mat, geometry: TileGeometry | None = None,
                 colours: PlayerColours | None = None, rectifier: Any = None, lens: Any = None,
                 thresholds: Thresholds | None = None):
        missing = [t for t in catalog.tile_ids if t not in refs.tile_ids]
        if catalog.start not in refs.tile_ids:
            raise VisionError(f"references: no reference for the start tile {catalog.start}; enrol the set again")
        if missing:
            log.warning("references lack %d catalog tiles (%s...): they cannot be recognised",
                        len(missing), ", ".join(missing[:5]))
        self.catalog = catalog
        self.refs = refs
        self.mat = mat
        self.geometry = geometry
        self.colours = colours
        self.pitch = float(mat.tile_mm)
        self.classifier = TileClassifier(refs, catalog, TILE_PX, self.pitch)
        self.figures = FigureFinder(colours) if colours is not None else None
        self.thresholds = thresholds or Thresholds()
        if rectifier is None:
            from .rectify import Rectifier

            rectifier = Rectifier(mat, px_per_mm=TILE_PX / self.pitch, lens=lens)
        self.rectifier = rectifier
        self.sampler = GridSampler()
        self._ref_bgr = np.stack([cv2.resize(im, (TILE_PX, TILE_PX), interpolation=cv2.INTER_AREA)
                                  if im.shape[0] != TILE_PX else im for im in refs.images])
        self._mat_bgr: np.ndarray | None = None
        self._mat_key: Any = None
        self._start_template: tuple[np.ndarray, float] | None = None

    @classmethod
    def for_game(cls, catalog_path: str | Path, refs: ReferenceSet, mat: Mat, **kw: Any) -> "Recognizer":
        catalog = CatalogInfo.load(catalog_path)
        geometry = kw.pop("geometry", None) or TileGeometry(dict(catalog.data))
        return cls(catalog, refs, mat, geometry=geometry, **kw)

    # ------------------------------------------------------------------ entry points

    def observe(self, frame: np.ndarray, previous: Observation | None = None,
                constraints: Constraints | None = None, relocate: bool = True, grid: Grid | None = None
                ) -> Observation:
        """Recognise a camera frame.

        ``previous``: the last accepted observation; only cells that changed since are examined.
        ``grid``: the grid when it is already known (else the start tile is searched for).
        ``relocate=False`` reuses the last mat location (no marker search).
        """
        if relocate or self.rectifier.last is None:
            location = self.rectifier.locate(frame)
        else:
            location = self.rectifier.last
        size = (frame.shape[1], frame.shape[0])
        key = (location.homography.tobytes(), size)
        rect = self.rectifier

        def to_frame(pts: np.ndarray) -> np.ndarray:
            return rect.mat_to_image(pts, location, size)

        obs = self.observe_mapped(frame, to_frame, key, previous, constraints, grid)
        obs.warnings[:0] = list(getattr(location, "warnings", []))
        return obs

    def observe_canvas(self, canvas: np.ndarray, px_per_mm: float, previous: Observation | None = None,
                       constraints: Constraints | None = None, grid: Grid | None = None) -> Observation:
        """Recognise a top-down canvas (pixel = mat mm * ``px_per_mm``), e.g. from ``Rectifier.warp``."""
        return self.observe_mapped(canvas, canvas_mapping(px_per_mm), ("canvas", px_per_mm, canvas.shape),
                                   previous, constraints, grid)

    def observe_mapped(self, frame: np.ndarray, to_frame: MapFn, key: Any, previous: Observation | None = None,
                       constraints: Constraints | None = None, grid: Grid | None = None,
                       figures: bool = True) -> Observation:
        """Recognise ``frame`` seen through ``to_frame`` (mat mm -> frame pixels); ``key`` names the mapping
        (equal keys: the same mapping, so cached remap tables are reused)."""
        _check_image(frame)
        if grid is None:
            grid = previous.grid if previous is not None else self.find_start(frame, to_frame, key)
        obs = self._read(frame, to_frame, key, grid, previous, constraints, figures)
        if previous is None and self.fit_grid:
            # tiles are laid against their neighbours, not against the start tile's few degrees: fit the
            # lattice to where the tiles were found, and read again when it moved
            fitted = fit_grid(grid, obs.tiles.values())
            if fitted is not None and _grid_moved(grid, fitted, self.mat.play_rect_mm) > self.thresholds.grid_refit_mm:
                obs = self._read(frame, to_frame, key, fitted, previous, constraints, figures)
        return obs

    fit_grid = False
    """Fit the grid to the tiles found on a full reading and read again when it moved (off by default:
    on the benchmark boards it costs a second reading and brought no accuracy)."""

    def _read(self, frame: np.ndarray, to_frame: MapFn, key: Any, grid: Grid, previous: Observation | None,
              constraints: Constraints | None, figures: bool) -> Observation:
        warnings: list[str] = []
        cells = grid.cells_in(self.mat.play_rect_mm)
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        x0, y0 = min(xs), min(ys)
        gc = self.sampler.sample(frame, to_frame, key, grid, x0, y0, max(xs) - x0 + 1, max(ys) - y0 + 1)
        mat_bgr = self.mat_colour(frame, to_frame, key)
        sigs = self._signatures(gc, cells)
        todo = cells if previous is None else self._changed(cells, sigs, previous)
        occupied = self._occupied(gc, todo, bgr_to_lab(mat_bgr))
        gc = self._balance(gc, mat_bgr)
        tiles: dict[tuple[int, int], TileGuess] = {}
        seen: list[FigureSeen] = []
        if previous is not None:
            todo_set = set(todo)
            tiles = {c: t for c, t in previous.tiles.items() if c not in todo_set}
            seen = [f for f in previous.figures if (f.x, f.y) not in todo_set]
        fresh = [c for c in todo if occupied.get(c)]
        if previous is not None and len(fresh) <= self.few_cells:
            groups = [(FeatureCanvas(gc.crop(x, y, 1, 1)), [(x, y)]) for x, y in fresh]
        else:
            groups = [(FeatureCanvas(gc), fresh)] if fresh else []
        for fc, group in groups:
            spots = None
            if self.colours is not None:
                covered, spots = self._covered(fc.bgr)
                fc.set_occlusion(covered)
            kept, to_classify = self._keep_previous(fc, group, previous)
            tiles.update(kept)
            for guess in self.classifier.classify(fc, to_classify, constraints):
                if (guess.x, guess.y) == (0, 0) and guess.tile != self.catalog.start:
                    guess = self._start_cell(fc, guess)
                tiles[(guess.x, guess.y)] = guess
            if figures and self.figures is not None:
                for c in group:
                    # look closely only where something of a player's colour stands out and the tile
                    # does not explain all of the cell
                    top, left = fc.top_left(*c)
                    m = fc.margin // 2
                    if spots is not None and not spots[top - m:top + TILE_PX + m, left - m:left + TILE_PX + m].any():
                        continue
                    if self.classifier.unexplained(fc, tiles[c]) >= self.thresholds.figure_hint:
                        seen.extend(self._figures_on(fc, tiles[c]))
        if (0, 0) not in tiles:
            warnings.append(f"the start tile {self.catalog.start} is not seen at (0, 0) any more")
        for t in tiles.values():
            if t.confidence < 0.5:
                warnings.append(f"cell ({t.x}, {t.y}): unsure ({t.tile} r{t.rotation}, score {t.score:.2f}); "
                                f"a tile not in the set, a hand, or bad light?")
        return Observation(grid, tiles, seen, sigs, list(todo), warnings)

    def _covered(self, bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Where figures may stand, at the canvas's size: ``(covered, spots)``.

        ``covered``: compact, figure-sized blobs near a player colour (a strip of plain or sea the
        colour of a figure is not one) and the dark pixels right next to them, left out when tiles are
        classified. ``spots``: looser blobs of a player colour, where the figure finder looks.
        """
        assert self.colours is not None
        half = cv2.resize(bgr, (bgr.shape[1] // 2, bgr.shape[0] // 2), interpolation=cv2.INTER_AREA)
        lab = bgr_to_lab(half)
        idx, dist = self.colours.nearest(lab)
        mm = 2 * self.classifier.mm_per_px                         # millimetres per half-resolution pixel
        size = (bgr.shape[1], bgr.shape[0])

        def blobs_of(near: np.ndarray, lo: float, hi: float, longest_mm: float) -> np.ndarray:
            out = np.zeros(near.shape, np.uint8)
            for colour in range(len(self.colours.colours)):      # one colour at a time: a red figure on a
                mask = (near & (idx == colour)).astype(np.uint8)   # green plain stays a blob of its own
                n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
                area = stats[:, cv2.CC_STAT_AREA] * mm * mm
                longest = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) * mm
                ok = (area >= lo) & (area <= hi) & (longest <= longest_mm)
                ok[0] = False
                out |= ok[labels].astype(np.uint8)
            return out

        spots = blobs_of(dist < (self.figures.colour_distance if self.figures else 26.0), 20.0, 900.0, 45.0)
        spots_full = cv2.resize(spots, size, interpolation=cv2.INTER_NEAREST).astype(bool)
        blobs = blobs_of(dist < self.thresholds.figure_colour, 40.0, 450.0, 30.0)
        if not blobs.any():
            return np.zeros(bgr.shape[:2], bool), spots_full
        near = cv2.dilate(blobs, np.ones((9, 9), np.uint8))         # about 8 mm around a figure
        light = lab[..., 0]
        around = cv2.blur(light, (TILE_PX // 4, TILE_PX // 4))
        covered = cv2.dilate(blobs, np.ones((3, 3), np.uint8)).astype(bool) | ((light < 0.75 * around) & (near > 0))
        return (cv2.resize(covered.astype(np.float32), size, interpolation=cv2.INTER_LINEAR) > 0.5), spots_full

    def _start_cell(self, fc: FeatureCanvas, guess: TileGuess) -> TileGuess:
        """Cell (0, 0) is where the start tile was found: unless something else is clearly seen there
        (the start tile partly covered by a figure can look like its twins), it is the start tile."""
        clf = self.classifier
        j0 = clf.ids.index(self.catalog.start)
        jg = clf.ids.index(guess.tile) + guess.rotation // 90
        top, left = fc.top_left(0, 0)
        sc, dy, dx = clf._block_grid(fc, 1, [j0, jg], top // 2, left // 2,
                                     clf.hard_reach)
        if sc[0] < sc[1] - self.thresholds.start_keep_margin:
            return guess
        from .tiles import Candidate, _confidence

        return TileGuess(0, 0, self.catalog.start, 0, float(sc[0]), _confidence(float(sc[0]), float(sc[1])),
                         (Candidate(guess.tile, guess.rotation, float(sc[1])),) + guess.runners_up[:2],
                         (2 * float(dx[0]) * clf.mm_per_px, 2 * float(dy[0]) * clf.mm_per_px), 0.0, True)

    figure_scale = 2
    """Figures are looked for at TILE_PX / figure_scale pixels per tile (a figure is still ~60 pixels)."""

    few_cells = 6
    """Up to this many changed cells are examined one by one (no whole-canvas features)."""

    # ------------------------------------------------------------------ start tile

    def find_start(self, frame: np.ndarray, to_frame: MapFn, key: Any = None) -> Grid:
        """Find the start tile on the play area: it fixes cell (0, 0), north and the grid's small angle."""
        grid = self._find_start(frame, to_frame, key)
        return self._squared_up(frame, to_frame, grid, self.mat_colour(frame, to_frame, key))

    def _find_start(self, frame: np.ndarray, to_frame: MapFn, key: Any = None) -> Grid:
        px, py, pw, ph = self.mat.play_rect_mm
        f = START_FACTOR
        coarse_px = TILE_PX // f
        search = Grid((px + pw / 2, py + ph / 2), 0.0, self.pitch)
        cells = search.cells_in(self.mat.play_rect_mm)
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        x0, y0 = min(xs), min(ys)
        canvas = GridSampler().sample(frame, to_frame, None, search, x0, y0, max(xs) - x0 + 1, max(ys) - y0 + 1,
                                      TILE_PX, MARGIN_PX)
        mat_bgr = self.mat_colour(frame, to_frame, key)
        # where tiles lie: places mostly unlike the bare mat (the start tile is never on bare mat)
        bgr_small = cv2.resize(canvas.image, (canvas.image.shape[1] // f, canvas.image.shape[0] // f),
                               interpolation=cv2.INTER_AREA)
        d = bgr_to_lab(bgr_small) - bgr_to_lab(mat_bgr)
        d[..., 0] *= 0.5
        not_mat = (np.linalg.norm(d, axis=2) > self.thresholds.mat_distance).astype(np.float32)
        cover = cv2.blur(not_mat, (coarse_px, coarse_px), anchor=(0, 0), borderType=cv2.BORDER_CONSTANT)
        canvas = self._balance(canvas, mat_bgr)
        feat = to_features(canvas.image)
        small = cv2.resize(feat, (feat.shape[1] // f, feat.shape[0] // f), interpolation=cv2.INTER_AREA)
        j0 = self.classifier.ids.index(self.catalog.start)
        peaks: list[tuple[float, int, int, int]] = []
        for k in range(4):
            t = self.classifier.templates[j0 + k]
            tc = centre_lightness(cv2.resize(t, (coarse_px, coarse_px), interpolation=cv2.INTER_AREA))
            res = _match_map(small, tc)
            res[cover[:res.shape[0], :res.shape[1]] < 0.7] = -1.0
            for _ in range(self.start_peaks):
                _, s, _, (lx, ly) = cv2.minMaxLoc(res)
                peaks.append((s, k, lx, ly))
                r = coarse_px // 2
                res[max(ly - r, 0):ly + r + 1, max(lx - r, 0):lx + r + 1] = -2
        peaks.sort(key=lambda p: -p[0])
        lattice: tuple[float, Grid | None] = (-2.0, None)
        clear: list[tuple[float, Grid]] = []
        for s, k, lx, ly in peaks[:self.start_peaks]:
            # coarse top-left -> tile centre in the search grid's coordinates -> mat mm
            cu = (lx + coarse_px / 2) * f - MARGIN_PX
            cv_ = (ly + coarse_px / 2) * f - MARGIN_PX
            centre = search.mat_from_grid() @ np.array([x0 - 0.5 + cu / TILE_PX, y0 - 0.5 + cv_ / TILE_PX, 1.0])
            found = self._refine_start(frame, to_frame, Grid((float(centre[0]), float(centre[1])), 90.0 * k,
                                                             self.pitch))
            if found[0] > lattice[0]:
                lattice = found
            # the place must show the start tile clearly better than any other tile type
            if found[0] >= self.thresholds.start_min_score and self._is_start(frame, to_frame, found[1]):
                clear.append(found)
        if clear:
            return self._nearest_centre(clear)
        if lattice[1] is None or lattice[0] < 0.3:
            raise NoStartTile(f"start tile: {self.catalog.start} not found on the play area; lay it on the mat, "
                              "in view, before the first turn")
        # no clear start tile at the likely places (a figure or a hand on it): every tile lies on one
        # lattice, so read every cell of the lattice found and take the cell that looks most like the
        # start tile compared with what it looks like otherwise
        lat = self._lattice(frame, to_frame)
        obs = self.observe_mapped(frame, to_frame, key, grid=lat, figures=False)
        if not obs.tiles:
            raise NoStartTile(f"start tile: {self.catalog.start} not found: no tiles on the play area")
        starts = [t for t in obs.tiles.values() if t.tile == self.catalog.start]
        if starts:
            t = max(starts, key=lambda g: g.score)
        else:
            cells = list(obs.tiles)
            xs = [c[0] for c in cells]
            ys = [c[1] for c in cells]
            gc = GridSampler().sample(frame, to_frame, None, lat, min(xs), min(ys), max(xs) - min(xs) + 1,
                                      max(ys) - min(ys) + 1)
            fc = FeatureCanvas(self._balance(gc, self.mat_colour(frame, to_frame, key)))
            clf = self.classifier
            j0 = clf.ids.index(self.catalog.start)
            options: list[tuple[float, Grid]] = []
            for c, guess in obs.tiles.items():
                jg = clf.ids.index(guess.tile) + guess.rotation // 90
                top, left = fc.top_left(*c)
                sc, _, _ = clf._block_grid(fc, 1, [j0, j0 + 1, j0 + 2, j0 + 3, jg], top // 2, left // 2, clf.hard_reach)
                k = int(np.argmax(sc[:4]))
                centre = lat.mat_from_grid() @ np.array([c[0], c[1], 1.0])
                options.append((float(sc[k] - sc[4]),
                                Grid((float(centre[0]), float(centre[1])), lat.angle_deg + 90.0 * k, self.pitch)))
            log.debug("start options: %s", sorted((round(o[0], 3), o[1].origin_mm) for o in options)[-4:])
            if max(o[0] for o in options) < -0.05:
                raise NoStartTile(f"start tile: {self.catalog.start} not seen among the {len(obs.tiles)} tiles on "
                                  "the play area; lay it on the mat, in view, before the first turn")
            return self._refine_start(frame, to_frame, self._nearest_centre(options), *self.on_lattice)[1]
        cell, k = (t.x, t.y), t.rotation // 90
        centre = lat.mat_from_grid() @ np.array([cell[0], cell[1], 1.0])
        turned = Grid((float(centre[0]), float(centre[1])), lat.angle_deg + 90.0 * k, self.pitch)
        return self._refine_start(frame, to_frame, turned, *self.on_lattice)[1]

    on_lattice: tuple[tuple[tuple[float, float], ...], int] = (((0.0, 1.0),), 6)
    """Rounds and reach of :meth:`_refine_start` for a start tile found on the lattice of the other tiles:
    the lattice's angle is kept (the edges of all tiles give it better than a covered picture) and the
    place only moved by up to 6 px. That tile is partly covered, its match is weak and flat: a wide
    search wandered 3.5 degrees and 10 mm off when its reference was cropped one pixel differently."""

    lattice_span = 6.0
    """:meth:`_lattice` tries turns of the whole play area up to this (degrees) ..."""
    lattice_step = 0.25
    """... in steps of this."""

    def _lattice(self, frame: np.ndarray, to_frame: MapFn) -> Grid:
        """The lattice all tiles lie on, from the straight edges between them: at the right turn the
        play area's edge strength, summed along rows (columns) and folded onto one tile pitch, peaks
        sharply where the tiles meet. Used when the start tile is not clearly seen: a place matched
        to the start tile is then another tile (or a covered one), and its angle and offset could be
        anything within the refinement's range."""
        px, py, pw, ph = self.mat.play_rect_mm
        centre = (px + pw / 2, py + ph / 2)
        cells = Grid(centre, 0.0, self.pitch).cells_in(self.mat.play_rect_mm)
        x0, y0 = min(c[0] for c in cells), min(c[1] for c in cells)
        nx, ny = max(c[0] for c in cells) - x0 + 1, max(c[1] for c in cells) - y0 + 1
        p = TILE_PX // 2
        best = (-1.0, Grid(centre, 0.0, self.pitch), 0, 0)
        step = self.lattice_step
        # every 4th turn first, then the turns between around the best of those
        rounds = (np.arange(-self.lattice_span, self.lattice_span + 1e-6, 4 * step), np.arange(-3, 4) * step)
        for round_, turns in enumerate(rounds):
            base = best[1].angle_deg if round_ else 0.0
            for a in turns:
                g = Grid(centre, base + float(a), self.pitch)
                gc = GridSampler().sample(frame, to_frame, None, g, x0, y0, nx, ny, p, 0)
                grey = cv2.cvtColor(np.ascontiguousarray(gc.image), cv2.COLOR_BGR2GRAY).astype(np.float32)
                folds = []
                for axis, (dx, dy) in ((1, (0, 1)), (0, (1, 0))):
                    prof = np.abs(cv2.Sobel(grey, cv2.CV_32F, dx, dy, ksize=3)).sum(axis=axis)
                    fold = prof[:len(prof) // p * p].reshape(-1, p).sum(axis=0)
                    folds.append(fold + 0.5 * (np.roll(fold, 1) + np.roll(fold, -1)))
                score = sum(float(f.max() / max(f.mean(), 1e-6)) for f in folds)
                if score > best[0]:
                    best = (score, g, int(np.argmax(folds[1])), int(np.argmax(folds[0])))
        _, g, bu, bv = best
        # a boundary between cells at pixel bu (bv): the cell centres lie half a pitch further
        gx = x0 - 0.5 + (bu + 0.5) / p + 0.5
        gy = y0 - 0.5 + (bv + 0.5) / p + 0.5
        origin = g.mat_from_grid() @ np.array([gx, gy, 1.0])
        log.debug("lattice: angle %s, origin %s, score %.2f", g.angle_deg, origin, best[0])
        return Grid((float(origin[0]), float(origin[1])), g.angle_deg, self.pitch)

    squaring_span = 3.0
    """:meth:`_squared_up` tries turns up to this (degrees) ..."""
    squaring_step = 0.25
    """... in steps of this."""

    def _squared_up(self, frame: np.ndarray, to_frame: MapFn, grid: Grid, mat_bgr: np.ndarray) -> Grid:
        """The grid turned to the start tile's outline when the tile lies alone on bare mat (the game's
        first frame): its four straight edges against the mat give its angle more closely than matching
        its picture does (flat drawn art is unsure by a degree or two, which puts cells far from the start
        tile millimetres off). Unchanged when a neighbouring cell is not bare mat."""
        gc = GridSampler().sample(frame, to_frame, None, grid, -1, -1, 3, 3, TILE_PX, MARGIN_PX)
        d = bgr_to_lab(gc.image) - bgr_to_lab(mat_bgr)
        d[..., 0] *= 0.5
        not_mat = np.linalg.norm(d, axis=2) > self.thresholds.mat_distance
        ring = not_mat.copy()
        a, b = MARGIN_PX + TILE_PX - 4, MARGIN_PX + 2 * TILE_PX + 4
        ring[a:b, a:b] = False
        if ring.mean() > 0.01:
            return grid  # other tiles (or hands) around it: their edges would be mistaken for its own
        m = MARGIN_PX
        best = (-1.0, 0.0)
        for da in np.arange(-self.squaring_span, self.squaring_span + 1e-6, self.squaring_step):
            g = Grid(grid.origin_mm, grid.angle_deg + float(da), grid.pitch_mm)
            one = GridSampler().sample(frame, to_frame, None, g, 0, 0, 1, 1, TILE_PX, m)
            grey = cv2.cvtColor(np.ascontiguousarray(one.image), cv2.COLOR_BGR2GRAY).astype(np.float32)
            gy = np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)).mean(axis=1)   # per row: horizontal edges
            gx = np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)).mean(axis=0)   # per column: vertical edges
            # each side at its sharpest line within a few pixels of where the cell says (the tile may be off)
            score = sum(float(v[lo:hi].max()) for v in (gy, gx)
                        for lo, hi in ((m - 4, m + 5), (m + TILE_PX - 5, m + TILE_PX + 4)))
            if score > best[0]:
                best = (score, float(da))
        log.debug("squaring: best %s", best)
        if abs(best[1]) >= self.squaring_span:
            return grid  # at the end of the range: not a clear outline
        return Grid(grid.origin_mm, grid.angle_deg + best[1], grid.pitch_mm)

    def _nearest_centre(self, options: list[tuple[float, Grid]], tie: float = 0.03) -> Grid:
        """The best-scoring place, or among places scoring within ``tie`` of it (twins of the start tile,
        as in a drawn provisional set), the one nearest the middle of the play area."""
        best = max(o[0] for o in options)
        cx, cy = self.mat.play_centre_mm
        near = [o for o in options if o[0] >= best - tie]
        return min(near, key=lambda o: (o[1].origin_mm[0] - cx) ** 2 + (o[1].origin_mm[1] - cy) ** 2)[1]

    start_peaks = 10
    """How many places that look most like the start tile are examined closely."""

    def _is_start(self, frame: np.ndarray, to_frame: MapFn, grid: Grid) -> bool:
        gc = GridSampler().sample(frame, to_frame, None, grid, -1, -1, 3, 3, TILE_PX, MARGIN_PX)
        guess = self.classifier.classify(FeatureCanvas(gc), [(0, 0)])[0]
        return guess.tile == self.catalog.start and guess.rotation == 0 and guess.confidence >= 0.8

    def _start_inner(self) -> tuple[np.ndarray, float]:
        """The start tile's template without its outer ring of START_RING_PX pixels, and its norm: an
        enrolment crop a pixel off puts tile border or mat in that ring, which must not steer the grid."""
        if self._start_template is None:
            j0 = self.classifier.ids.index(self.catalog.start)
            r = START_RING_PX
            t = centre_lightness(np.array(self.classifier.templates[j0][r:TILE_PX - r, r:TILE_PX - r]))
            self._start_template = (t, float(np.linalg.norm(t)))
        return self._start_template

    def _refine_start(self, frame: np.ndarray, to_frame: MapFn, guess: Grid,
                      rounds: Sequence[tuple[float, float]] = ((4.5, 1.5), (1.0, 0.5)),
                      reach: int = MARGIN_PX) -> tuple[float, Grid]:
        """The start tile's best place and angle near ``guess``: turns of ``rounds`` (span, step in degrees,
        each round around the best so far), shifts up to ``reach`` pixels (1 px ~ 1 mm)."""
        t, norm = self._start_inner()
        r = START_RING_PX
        lo = MARGIN_PX + r - reach
        best = (-2.0, guess)
        for _round, (span, step) in enumerate(rounds):
            base = best[1] if _round else guess
            for da in np.arange(-span, span + 1e-6, step):
                g = Grid(base.origin_mm, base.angle_deg + float(da), self.pitch)
                gc = GridSampler().sample(frame, to_frame, None, g, 0, 0, 1, 1, TILE_PX, MARGIN_PX)
                feat = to_features(gc.image)
                res = _match_map(feat, t, norm)[lo:lo + 2 * reach + 1, lo:lo + 2 * reach + 1]
                _, s, _, (lx, ly) = cv2.minMaxLoc(res)
                if s > best[0]:
                    dx, dy = (lx - reach) / TILE_PX, (ly - reach) / TILE_PX
                    centre = g.mat_from_grid() @ np.array([dx, dy, 1.0])
                    best = (s, Grid((float(centre[0]), float(centre[1])), g.angle_deg, self.pitch))
        a = best[1].angle_deg % 360.0
        return best[0], Grid(best[1].origin_mm, a - 360.0 if a > 315.0 else a, self.pitch)

    # ------------------------------------------------------------------ cells

    def _signatures(self, gc: GridCanvas, cells: Sequence[tuple[int, int]]) -> dict[tuple[int, int], np.ndarray]:
        """A small colour thumbnail per cell (SIG_PX x SIG_PX), to tell which cells changed."""
        m = gc.margin
        core = gc.image[m:m + gc.ny * gc.px, m:m + gc.nx * gc.px]
        small = cv2.resize(core, (gc.nx * SIG_PX, gc.ny * SIG_PX), interpolation=cv2.INTER_AREA).astype(np.float32)
        out = {}
        for x, y in cells:
            r, c = (y - gc.y0) * SIG_PX, (x - gc.x0) * SIG_PX
            out[(x, y)] = small[r:r + SIG_PX, c:c + SIG_PX]
        return out

    def _changed(self, cells: Sequence[tuple[int, int]], sigs: Mapping, previous: Observation) -> list:
        out = []
        for cell in cells:
            old = previous.signatures.get(cell)
            if old is None:
                out.append(cell)
                continue
            d = sigs[cell] - old
            d = d - d.mean(axis=(0, 1), keepdims=True)
            if float(np.abs(d).sum(axis=2).max()) > self.thresholds.signature_change:
                out.append(cell)
        return out

    def mat_colour(self, frame: np.ndarray, to_frame: MapFn, key: Any = None) -> np.ndarray:
        """BGR colour of the bare mat (median of its margin strips), cached per mapping key."""
        if key is None or self._mat_key != key or self._mat_bgr is None:
            px = mat_margin_pixels(frame, to_frame, self.mat.play_rect_mm,
                                   min(12.0, self.mat.play_origin_mm[0] / 2, self.mat.play_origin_mm[1] / 2))
            self._mat_bgr = np.median(px.astype(np.float32), axis=0)
            self._mat_key = key
        return self._mat_bgr

    def _balance(self, gc: GridCanvas, mat_bgr: np.ndarray) -> GridCanvas:
        """Scale the canvas's colour channels so the mat looks as it did at enrolment (white balance, exposure)."""
        ref = self.refs.meta.get("mat_bgr") if self.refs.meta else None
        if not ref or not self.white_balance:
            return gc
        gains = np.clip(np.asarray(ref, np.float32) / np.maximum(mat_bgr, 1.0), 0.5, 2.0)
        if np.all(np.abs(gains - 1.0) < 0.01):
            return gc
        img = cv2.multiply(gc.image, np.array([*gains, 0.0]), dtype=cv2.CV_8U) if gc.image.dtype == np.uint8 else \
            np.clip(gc.image * gains, 0, 255).astype(gc.image.dtype)
        return GridCanvas(img, gc.x0, gc.y0, gc.nx, gc.ny, gc.px, gc.margin)

    white_balance = True
    """Correct each frame's colour balance against the mat colour seen at enrolment."""

    def _occupied(self, gc: GridCanvas, cells: Sequence[tuple[int, int]], mat: np.ndarray
                  ) -> dict[tuple[int, int], bool]:
        if not cells:
            return {}
        inset = TILE_PX // 6
        out = {}
        for x, y in cells:
            r = gc.margin + (y - gc.y0) * gc.px
            c = gc.margin + (x - gc.x0) * gc.px
            patch = gc.image[r + inset:r + TILE_PX - inset:2, c + inset:c + TILE_PX - inset:2]
            d = bgr_to_lab(patch) - mat
            d[..., 0] *= 0.5
            share = float((np.linalg.norm(d, axis=2) > self.thresholds.mat_distance).mean())
            out[(x, y)] = share > self.thresholds.occupied_share
        return out

    def _keep_previous(self, fc: FeatureCanvas, cells: Sequence[tuple[int, int]], previous: Observation | None
                       ) -> tuple[dict[tuple[int, int], TileGuess], list[tuple[int, int]]]:
        """Changed cells whose earlier tile still matches (a figure was added) keep it."""
        if previous is None:
            return {}, list(cells)
        kept: dict[tuple[int, int], TileGuess] = {}
        rest = []
        clf = self.classifier
        for cell in cells:
            old = previous.tiles.get(cell)
            if old is None:
                rest.append(cell)
                continue
            top, left = fc.top_left(*cell)
            dy = int(round(old.offset_mm[1] / clf.mm_per_px))
            dx = int(round(old.offset_mm[0] / clf.mm_per_px))
            score = clf.score_at(fc, old.tile, old.rotation, top + dy, left + dx, 2)
            if score >= old.score - self.thresholds.keep_score_drop:
                kept[cell] = old
            else:
                rest.append(cell)
        return kept, rest

    def _figures_on(self, fc: FeatureCanvas, tile: TileGuess) -> list[FigureSeen]:
        assert self.figures is not None
        mm = self.classifier.mm_per_px
        top, left = fc.top_left(tile.x, tile.y)
        ty = top + int(round(tile.offset_mm[1] / mm))
        tx = left + int(round(tile.offset_mm[0] / mm))
        obs = fc.bgr[ty:ty + TILE_PX, tx:tx + TILE_PX]
        ref = self._ref_bgr[self.refs.index_of(tile.tile)]
        if self.figure_scale > 1:
            side = TILE_PX // self.figure_scale
            obs = cv2.resize(obs, (side, side), interpolation=cv2.INTER_AREA)
            ref = cv2.resize(ref, (side, side), interpolation=cv2.INTER_AREA)
        ref = np.ascontiguousarray(np.rot90(ref, -(tile.rotation // 90)))
        out = []
        for colour, u, v, conf, area in self.figures.find(obs, ref, mm * self.figure_scale):
            region = None
            if self.geometry is not None and 0 <= u <= 1 and 0 <= v <= 1:
                try:
                    region = self.geometry.region_at(tile.tile, tile.rotation, u, v)
                except VisionError:
                    region = None
            out.append(FigureSeen(tile.x, tile.y, colour, region, float(u), float(v), conf, area))
        return out


def fit_grid(grid: Grid, tiles: Any, min_tiles: int = 6, min_confidence: float = 0.8) -> Grid | None:
    """The grid turned and shifted (a little) to fit where the confidently read tiles lie.

    Each tile's offset from its cell centre was measured by the classifier; a least-squares small
    rotation and shift of the lattice explains them. ``None`` with too few tiles to say.
    """
    pts, want = [], []
    for t in tiles:
        if t.confidence < min_confidence or t.angle_deg:
            continue
        pts.append((t.x * grid.pitch_mm, t.y * grid.pitch_mm))
        want.append((t.x * grid.pitch_mm + t.offset_mm[0], t.y * grid.pitch_mm + t.offset_mm[1]))
    if len(pts) < min_tiles:
        return None
    q = np.array(pts, float)
    d = np.array(want, float) - q
    # d = theta * (-qy, qx) + (tx, ty)
    a = np.zeros((2 * len(q), 3))
    a[0::2, 0], a[1::2, 0] = -q[:, 1], q[:, 0]
    a[0::2, 1] = 1.0
    a[1::2, 2] = 1.0
    (theta, tx, ty), *_ = np.linalg.lstsq(a, d.ravel(), rcond=None)
    c, s = math.cos(math.radians(grid.angle_deg)), math.sin(math.radians(grid.angle_deg))
    ox = grid.origin_mm[0] + c * tx - s * ty
    oy = grid.origin_mm[1] + s * tx + c * ty
    return Grid((float(ox), float(oy)), grid.angle_deg + math.degrees(float(theta)), grid.pitch_mm)


def _grid_moved(a: Grid, b: Grid, rect_mm: tuple[float, float, float, float]) -> float:
    """How far (mm) the two grids put the corners of the play area's cells apart, at most."""
    x, y, w, h = rect_mm
    worst = 0.0
    for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
        gx, gy = a.grid_from_mat(px, py)
        bx, by = b.cell_centre_mm(gx, gy)
        worst = max(worst, math.hypot(bx - px, by - py))
    return worst


def _match_map(image: np.ndarray, template: np.ndarray, norm: float | None = None) -> np.ndarray:
    """Correlation map like :meth:`FeatureCanvas.scores` (lightness centred per position) over a whole image."""
    th, tw = template.shape[:2]
    num = cv2.matchTemplate(image, template, cv2.TM_CCORR)
    il = cv2.integral(np.ascontiguousarray(image[..., 0]), sdepth=cv2.CV_64F)
    isq = cv2.integral((image * image).sum(axis=2), sdepth=cv2.CV_64F)
    s1 = il[th:, tw:] - il[:-th, tw:] - il[th:, :-tw] + il[:-th, :-tw]
    s2 = isq[th:, tw:] - isq[:-th, tw:] - isq[th:, :-tw] + isq[:-th, :-tw]
    den = np.sqrt(np.maximum(s2 - s1 * s1 / (th * tw), 1e-3)) * (norm if norm is not None else
                                                                 float(np.linalg.norm(template)))
    return (num / den).astype(np.float32)


def _check_image(frame: np.ndarray) -> None:
    if frame is None or not hasattr(frame, "shape") or frame.ndim != 3 or frame.shape[2] != 3 or frame.size == 0:
        raise VisionError("frame: expected a colour (BGR) image")


# --------------------------------------------------------------------------- set-up helpers


def default_catalog_path(game: str) -> Path:
    """Where the project keeps the catalog of ``game`` (data only: the engine is not imported)."""
    return Path(__file__).resolve().parents[1] / "tablehub" / "games" / game / "tiles.json"


def load_recognizer(game: str, refs_dir: str | Path, mat: Mat | str | Path | None = None,
                    catalog: str | Path | None = None, colours: PlayerColours | str | Path | None = None,
                    lens: Any = None) -> Recognizer:
    """A :class:`Recognizer` from files: the reference folder (``tablehub enroll``), the mat file, the catalog.

    ``colours`` defaults to ``colours.json`` in the reference folder, else typical colours
    (uncalibrated, logged). ``mat`` defaults to ``mat.json`` in the reference folder, else the
    default mat. ``lens`` is a :class:`vision.calibrate.LensCalibration` or a path to one.
    """
    root = Path(refs_dir)
    refs = ReferenceSet.load(root)
    if refs.game and refs.game != game:
        raise VisionError(f"{root}: these references are for {refs.game!r}, not {game!r}")
    cat_path = Path(catalog) if catalog is not None else default_catalog_path(game)
    if not cat_path.is_file():
        raise VisionError(f"{cat_path}: no tile catalog for game {game!r}")
    if mat is None:
        mat = Mat.load(root / "mat.json") if (root / "mat.json").is_file() else Mat.default()
    elif not isinstance(mat, Mat):
        mat = Mat.load(mat)
    if colours is None and (root / "colours.json").is_file():
        colours = root / "colours.json"
    if colours is None:
        log.warning("no colours.json in %s: using typical player colours (calibrate with 'tablehub enroll "
                    "--colours')", root)
        pc = PlayerColours.defaults()
    elif isinstance(colours, PlayerColours):
        pc = colours
    else:
        pc = PlayerColours.load(colours)
    if lens is None and (root / "lens.json").is_file():
        lens = root / "lens.json"
    if lens is not None and not hasattr(lens, "distort_points"):
        from .calibrate import LensCalibration

        lens = LensCalibration.load(lens)
    return Recognizer.for_game(cat_path, refs, mat, colours=pc, lens=lens)


class TrackerRecognizer:
    """``frame -> Observation`` for the tracker: keeps the last observation and works incrementally.

    Every ``relocate_every``-th frame re-finds the mat markers (a bumped camera); the others
    reuse the last mat location. A failed frame (no markers, blank) raises; the next call
    starts afresh from the last good observation.
    """

    def __init__(self, recognizer: Recognizer, relocate_every: int = 10):
        self.recognizer = recognizer
        self.relocate_every = max(1, int(relocate_every))
        self.last: Observation | None = None
        self._count = 0

    def __call__(self, frame: np.ndarray) -> Observation:
        relocate = self._count % self.relocate_every == 0
        self._count += 1
        obs = self.recognizer.observe(frame, previous=self.last, relocate=relocate)
        self.last = obs
        return obs

    def reset(self) -> None:
        self.last = None
        self._count = 0

    @staticmethod
    def confidence(best: float, second: float) -> float:
        """The confidence of a read scoring ``best`` when the best read that means something else scores
        ``second``: the tile classifier's own calibration, for the tracker, which groups reads by what
        they mean to the rules (twins with different pictures, symmetric turns) and rescores the groups."""
        from .tiles import _confidence

        return _confidence(best, second)


def for_tracker(game: str, catalog: str | None = None, references: str | None = None, sim: Any = None,
                **kw: Any) -> TrackerRecognizer:
    """The tracker's factory (see ``tablehub.tracking.recognizer``).

    With ``references`` (a folder from ``tablehub enroll``) the real set is used; with ``sim``
    (a simulated table) the set is enrolled from the simulator's own camera, as a person would
    with ``tablehub enroll``; without either there is nothing to recognise against.
    """
    if references:
        return TrackerRecognizer(load_recognizer(game, references, catalog=catalog, **kw))
    if sim is not None:
        from .enroll import enrol_from_sim

        return TrackerRecognizer(enrol_from_sim(game, sim, catalog))
    raise VisionError(f"no references for {game}: enrol the tiles first ('tablehub enroll --game {game} ...')")
