"""The tile-game recognition pipeline: camera frame -> :class:`Observation`.

>>> rec = Recognizer.for_game(catalog_path, refs, mat, colours=colours)        # doctest: +SKIP
>>> obs = rec.observe(frame)                      # full: finds the start tile, every cell  # doctest: +SKIP
>>> obs2 = rec.observe(next_frame, previous=obs)  # incremental: only cells that changed   # doctest: +SKIP
>>> obs2.to_dict()["tiles"][0]                                                  # doctest: +SKIP
{'x': 0, 'y': 0, 'tile': 'ds001', 'rotation': 0, 'confidence': 0.98, ...}

Steps: locate the mat (:class:`vision.rectify.Rectifier`), sample every cell the camera
sees whole on the table plane as a grid canvas (one ``cv2.remap`` through the lens model,
cached while the camera is still; beyond the play area and the mat too, see
:func:`cells_in_view`), find the start tile once on the play area (it fixes cell (0, 0)
and north), tell empty cells from occupied ones (:meth:`Recognizer._occupied`: the mat's
or the table's colour, what the cell looked like when last read empty, and beyond the
play area the evidence of a tile's picture), classify occupied cells
(:class:`vision.tiles.TileClassifier`), then look for figures on them
(:class:`vision.pieces.FigureFinder`). With a previous observation only the cells
whose small signature changed are examined again.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping, Sequence

import cv2
import numpy as np

from tablehub.i18n import T  # what a phone reads (tablehub/locale/*/vision.po)

from . import VisionError
from .colourcast import apply_gains, lab_under_gains, neutral_gains, paper_white
from .cputime import StageClock
from .geometry import TileGeometry
from .mat import Mat
from .pieces import (FigureFinder, FigureSeen, PlayerColours, _gain_of, _weighted, bgr_to_lab, gains_of_many,
                     norm3, shading)
from .refs import ReferenceSet
from .regionmap import RegionMaps, maps_for_set
from . import undercover
from .standing import FOOT_MM, camera_nadir, standing_point
from .tiles import (MARGIN_PX, TILE_PX, CatalogInfo, Constraints, FeatureCanvas, Grid, GridCanvas,
                    TileClassifier, TileGuess, centre_lightness, mat_margin_pixels, settle_hidden, sum_of_squares,
                    to_features)

from .sampling import (Cell, GridSampler, MapFn, cell_bounds, canvas_mapping, cell_side_px, cells_in_view,
                       outline_strength)

log = logging.getLogger(__name__)

FIGURE_CORE_MM2 = 20.0
"""A loose blob of a player colour is a figure's body (``Recognizer._covered``, ``blobs_of(..., core=)``) when at
least this much of it is near the colour's paint (the strict test); the red figures of the whole Neues Land game at
1280x720 hold 35-70."""
SIG_PX = 8
"""Side of the per-cell thumbnail that tells which cells changed."""
SIG_SAMPLE = 16
"""Thumbnails are sampled at this many pixels per cell side, then averaged down to SIG_PX."""
START_FACTOR = 4
"""The start tile is first searched at TILE_PX / START_FACTOR pixels per tile."""
START_RING_PX = 3
"""Refining the start tile's place and angle leaves out this ring of its reference (see ``_start_inner``)."""
START_SHIFT_PX = 0.5
"""The start tile's turned templates are moved by this (pixels, right and down) so that all are interpolated alike."""

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
    in_view: frozenset[Cell] = frozenset()
    """The cells the camera sees whole (with a small margin) on the table plane: the cells read, on the
    mat or beyond it. Nothing is known about the others (a tile may lie there)."""
    bare: dict[Cell, np.ndarray] = field(repr=False, default_factory=dict)
    """What each cell looked like (its signature) when it was last read empty: a cell that looks so again
    is empty whatever lies under it (mat, wood, a patterned cloth)."""

    def sees(self, x: int, y: int) -> bool:
        """Whether cell (x, y) was in view (its absence from ``tiles`` then means it is empty)."""
        return (x, y) in self.in_view

    def to_dict(self) -> dict[str, Any]:
        tiles = sorted(self.tiles.values(), key=lambda t: (t.y, t.x))
        figs = sorted(self.figures, key=lambda f: (f.y, f.x, f.colour))
        return {"grid": self.grid.to_dict(),
                "tiles": [t.to_dict() for t in tiles],
                "figures": [f.to_dict() for f in figs],
                "warnings": list(self.warnings)}


# --------------------------------------------------------------------------- sampling


def _one_each(figures: list[FigureSeen], apart: float, edge: float) -> list[FigureSeen]:
    """``figures`` without the second sightings of a figure: a figure within ``edge`` (tile sides) of its
    tile's edge with one of the same colour on a neighbouring tile less than ``apart`` away, further
    inside its own tile."""
    def inside(f: FigureSeen) -> float:
        return min(f.u, 1.0 - f.u, f.v, 1.0 - f.v)

    out = []
    for f in figures:
        twin = None if inside(f) >= edge else next(
            (g for g in figures if g.colour == f.colour and (g.x, g.y) != (f.x, f.y)
             and abs(g.x - f.x) <= 1 and abs(g.y - f.y) <= 1 and inside(g) > inside(f)
             and math.hypot(g.x + g.u - f.x - f.u, g.y + g.v - f.y - f.v) < apart), None)
        if twin is None:
            out.append(f)
    return out


def _one_each_standing(kept: list[FigureSeen], found: list[tuple[FigureSeen, bool, tuple[float, float], frozenset]],
                       apart: float, overlap: float = 0.3) -> list[FigureSeen]:
    """``kept`` (figures of cells not read again) and the figures ``found`` (each with whether its picture ran
    off the window it was found in, where it stands in grid coordinates and its picture's pixels), one per
    figure: a figure found from two tiles' windows stands at the same place and is the same picture, and no two
    figures stand closer than their feet allow. Of sightings standing less than ``apart`` (tile sides) from each
    other or from a kept figure, or sharing ``overlap`` of the smaller one's picture, the first of whole
    pictures, then the largest, is kept (a picture cut by its window's edge may show only the figure's rim,
    whose colour blends with the tile under it, and stand elsewhere: a lying figure cut in two)."""
    out = list(kept)
    where: list[tuple[float, float, frozenset]] = [(f.x - 0.5 + f.u, f.y - 0.5 + f.v, frozenset()) for f in kept]
    for f, clipped, (gx, gy), pixels in sorted(found, key=lambda item: (item[1], -item[0].area_mm2)):
        if any(math.hypot(gx - x, gy - y) < apart
               or (pixels and seen and len(pixels & seen) >= overlap * min(len(pixels), len(seen)))
               for x, y, seen in where):
            continue
        out.append(f)
        where.append((gx, gy, pixels))
    return out


# --------------------------------------------------------------------------- the recogniser


@dataclass
class Thresholds:
    occupied_share: float = 0.5
    """A cell is occupied when more than this share of its inner part is not mat ..."""
    occupied_unsure: float = 0.2
    """... and empty for sure when at most this share is: in between (a strong colour cast, a cloth near a
    tile's colours: 42-50 % of tiles under a magenta cast) its picture decides, and an empty one is warned of."""
    mat_distance: float = 24.0
    """Weighted-Lab distance from the mat colour above which a pixel is "not mat"."""
    start_min_score: float = 0.55
    """The start tile must match at least this well to fix the grid."""
    signature_change: float = 45.0
    """A cell changed when a thumbnail pixel moved more than this (B+G+R, after removing the cell's mean change)."""
    figure_colour: float = 20.0
    """Pixels this near a player colour (weighted Lab) may belong to a figure (for the covered blocks)."""
    figure_shadow_mm: float = 9.5
    """A figure's shadow reaches this far (mm) beyond what is seen of the figure, and is covered too: the
    renderer's falls 6 mm beyond a standing figure's foot (its 17 mm height x 0.35) and is 8.5 mm long either
    way, softened over 1.6 mm; a real figure lit from aside casts one as long. (At 11 mm a Suedsee tile's
    telling part beside a figure was covered too: tests/vision/test_recognize.py read Q as its twin S.)"""
    figure_shadow_light: float = 0.75
    """Pixels that near a figure, darker than this share of the light around (the local upper envelope of
    each channel) and dimmed alike in every channel, are its shadow's core (or its dark side)."""
    grid_refit_mm: float = 1.5
    """A full reading is done again on the fitted grid when it moves some cell by more than this."""
    start_keep_margin: float = 0.05
    """Cell (0, 0) stays the start tile unless another tile fits it better by more than this (block score)."""
    known_margin: float = 0.05
    """A cell holds the tile the game's log says unless another tile fits it better by more than this."""
    figure_hint: float = 3.0
    """Only tiles with a spot this unexplained by the tile (see :meth:`TileClassifier.unexplained`) are
    searched for figures."""
    keep_score_drop: float = 0.08
    """A changed cell keeps its tile when that tile still matches within this of its earlier score."""
    figure_apart: float = 0.3
    """Two figures of one colour on neighbouring tiles closer than this (in tile sides), one of them at the
    very edge of its tile (within :attr:`figure_edge`), are one figure seen twice: a standing figure near
    a tile's edge leans over the next tile. The one further inside its own tile is kept."""
    figure_edge: float = 0.1
    """(see :attr:`figure_apart`; the sightings on the next tile lay within 0.07 of its edge, figures standing
    on regions 0.12 and more.)"""
    figure_apart_mm: float = 8.0
    """Sightings of one colour standing (their bases, see :mod:`vision.standing`) closer than this are one
    figure, seen from two tiles' windows (two figures' feet, 8-10 mm deep, stand further apart)."""
    figure_unlike_mm2: float = 40.0
    """A tile is searched for figures when a spot of a player's colour covers this much of it where its reference
    is not of that colour (see ``Recognizer._unlike_its_tile``), however little it changes the tile's picture."""
    tile_min_score: float = 0.78
    """Beyond the play area a cell unlike the table holds a tile only when a tile matches it this well
    (drawn tiles score 0.87 and more there, figures on them included; wood, the mat's edge and its markers
    0.7 at most) ..."""
    tile_min_score_covered: float = 0.72
    """... or this well where a figure stands on it (scans of tiles with a figure on them: 0.746 seen), ..."""
    tile_outline: float = 2.0
    """... and three of its sides show as straight edges: the strongest mean gradient across the side, within
    a few pixels of where it should be, at least this many times the usual gradient near it (tiles beyond
    the mat 2.7 and more; a printed cloth that matches a plain tile 1.5 at most)."""
    tile_min_coarse: float = 0.55
    """... and only when it matches some tile at least this well at the classifier's first, coarse stage
    (drawn tiles with a figure on them 0.63 and more; the mat's markers 0.3-0.51) ..."""
    tile_min_coarse_covered: float = 0.4
    """... or this well where a figure stands on the cell (scans of tiles with a figure on them 0.44 and more
    on OpenCV 4.11, 0.45 and more on 5; in a whole game beyond the play area 16 of 31 such reads fell under
    0.55 and the tile was lost)."""


class Recognizer:
    """Frame -> :class:`Observation` for one tile game, one reference set, one mat."""

    def __init__(self, catalog: CatalogInfo, refs: ReferenceSet, mat: Mat, geometry: TileGeometry | None = None,
                 colours: PlayerColours | None = None, rectifier: Any = None, lens: Any = None,
                 thresholds: Thresholds | None = None):
        missing = [t for t in catalog.tile_ids if t not in refs.tile_ids]
        if catalog.start not in refs.tile_ids:
            raise VisionError(T("references: no reference for the start tile {tile}; enrol the set again", tile=catalog.start))
        if missing:
            log.warning("references lack %d catalog tiles (%s...): they cannot be recognised",
                        len(missing), ", ".join(missing[:5]))
        self.catalog = catalog
        # references and player colours in neutral light, when the enrolment measured its light (vision.colourcast)
        self._neutral = (neutral_gains((refs.meta or {}).get("white_bgr")) if self.white_balance and self.neutral_light
                         else np.ones(3, np.float32))
        if not np.all(np.abs(self._neutral - 1.0) < 0.01):
            refs = replace(refs, images=apply_gains(refs.images, self._neutral))
            if colours is not None:
                labs = lab_under_gains([c.lab for c in colours.colours], self._neutral)
                colours = replace(colours, colours=[replace(c, lab=tuple(float(v) for v in lab))
                                                    for c, lab in zip(colours.colours, labs)])
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
        self.sig_sampler = GridSampler()
        self._ref_bgr = np.stack([cv2.resize(im, (TILE_PX, TILE_PX), interpolation=cv2.INTER_AREA)
                                  if im.shape[0] != TILE_PX else im for im in refs.images])
        self._mat_bgr: np.ndarray | None = None
        self._mat_key: Any = None
        self._start_template: tuple[np.ndarray, float] | None = None
        self._start_templates: dict[tuple[float, tuple[int, int]], tuple[np.ndarray, float, np.ndarray]] = {}
        self._start_twins: frozenset[tuple[str, int]] | None = None
        self._markers_seen: tuple[int, ...] = ()    # the markers the frame being read shows (observe)
        self._table_bgr: np.ndarray | None = None
        self._table_key: Any = None
        self._view_key: Any = None
        self._view: tuple[list[Cell], float] = ([], 0.0)
        self._play_key: Grid | None = None
        self._play: frozenset[Cell] = frozenset()
        self._regions: RegionMaps | None = None
        self._white_bgr: np.ndarray | None = None
        self._ref_colours: dict[tuple[str, int], np.ndarray] = {}
        self._ref_small: dict[tuple[str, int], np.ndarray] = {}     # references at the figures' scale, per turn
        self.clock = StageClock()
        """CPU per stage of the readings (:mod:`vision.cputime`); ``tablehub bench vision`` prints it."""

    @classmethod
    def for_game(cls, catalog_path: str | Path, refs: ReferenceSet, mat: Mat, **kw: Any) -> "Recognizer":
        catalog = CatalogInfo.load(catalog_path)
        geometry = kw.pop("geometry", None) or TileGeometry(dict(catalog.data))
        return cls(catalog, refs, mat, geometry=geometry, **kw)

    # ------------------------------------------------------------------ entry points

    def observe(self, frame: np.ndarray, previous: Observation | None = None,
                constraints: Constraints | None = None, relocate: bool = True, grid: Grid | None = None,
                known: Mapping[Cell, tuple[str, int]] | None = None) -> Observation:
        """Recognise a camera frame.

        ``previous``: the last accepted observation; only cells that changed since are examined.
        ``grid``: the grid when it is already known (else the start tile is searched for).
        ``relocate=False`` reuses the last mat location (no marker search).
        ``known``: tiles known to lie in some cells (the game's log: cell -> (tile id, rotation)); a cell
        read as another tile that the known one matches about as well is read as the known one (a
        figure on the detail that tells look-alikes apart, or a misread the phone corrected).
        """
        self.clock.start()
        if relocate or self.rectifier.last is None:
            location = self.rectifier.locate(frame)
        else:
            location = self.rectifier.last
        self.clock.lap("markers")
        size = (frame.shape[1], frame.shape[0])
        key = (location.homography.tobytes(), size)
        rect = self.rectifier

        def to_frame(pts: np.ndarray) -> np.ndarray:
            return rect.mat_to_image(pts, location, size)

        def from_frame(pts: np.ndarray) -> np.ndarray:
            return rect.image_to_mat(pts, location, size)

        lens = rect.lens.for_size(size) if getattr(rect, "lens", None) is not None else None
        nadir = camera_nadir(location.homography, None if lens is None else lens.camera_matrix, size)
        self._markers_seen = tuple(getattr(location, "seen", ()))
        try:
            obs = self.observe_mapped(frame, to_frame, key, previous, constraints, grid, from_frame=from_frame,
                                      known=known, nadir_mm=nadir)
        finally:
            self._markers_seen = ()
        obs.warnings[:0] = list(getattr(location, "warnings", []))
        return obs

    def observe_canvas(self, canvas: np.ndarray, px_per_mm: float, previous: Observation | None = None,
                       constraints: Constraints | None = None, grid: Grid | None = None) -> Observation:
        """Recognise a top-down canvas (pixel = mat mm * ``px_per_mm``), e.g. from ``Rectifier.warp``."""
        self.clock.start()
        return self.observe_mapped(canvas, canvas_mapping(px_per_mm), ("canvas", px_per_mm, canvas.shape),
                                   previous, constraints, grid, from_frame=canvas_mapping(1.0 / px_per_mm))

    def observe_mapped(self, frame: np.ndarray, to_frame: MapFn, key: Any, previous: Observation | None = None,
                       constraints: Constraints | None = None, grid: Grid | None = None,
                       figures: bool = True, from_frame: MapFn | None = None,
                       known: Mapping[Cell, tuple[str, int]] | None = None,
                       nadir_mm: tuple[float, ...] | None = None) -> Observation:
        """Recognise ``frame`` seen through ``to_frame`` (mat mm -> frame pixels); ``key`` names the mapping
        (equal keys: the same mapping, so cached remap tables are reused). ``from_frame`` is the inverse
        (frame pixels -> mat mm): with it every cell the camera sees is read, without it the cells near
        the mat (see :meth:`view`). ``nadir_mm``: the table point straight under the camera (a figure's
        picture leans away from it, see :mod:`vision.standing`), with the camera's height over it (mm) as a third
        value when known; None: unknown, a figure stands where the middle of its picture is."""
        _check_image(frame)
        found = grid is None and previous is None
        if grid is None:
            grid = previous.grid if previous is not None else self.find_start(frame, to_frame, key)
        self.clock.lap("start")
        if found and self.fit_found_grid and self.prefit_found_grid:
            grid = self._prefit(frame, to_frame, key, grid, from_frame)
            self.clock.lap("fit")
        obs = self._read(frame, to_frame, key, grid, previous, constraints, figures, from_frame, known, nadir_mm)
        if previous is None and (self.fit_grid or (found and self.fit_found_grid)):
            # tiles are laid against their neighbours, not against the start tile's few degrees: fit the
            # lattice to where the tiles were found, and read again when it moved
            fitted = fit_grid(grid, obs.tiles.values())
            if fitted is not None and _grid_moved(grid, fitted, self.mat.play_rect_mm) > self.thresholds.grid_refit_mm:
                obs = self._read(frame, to_frame, key, fitted, previous, constraints, figures, from_frame, known,
                                 nadir_mm)
        return obs

    fit_grid = False
    """Fit the grid to the tiles found on a full reading and read again when it moved, also a grid given by the
    caller (off by default: with the game's grid from its first frame, the start tile squared up by its outline,
    it costs a second reading and brought no accuracy)."""

    fit_found_grid = True
    """Fit a grid found afresh here (no grid given, no previous reading) to the tiles read on it, and read again
    when it moved by more than :attr:`Thresholds.grid_refit_mm` somewhere on the play area. Among other tiles
    the start tile's place is matched on its picture alone, whose angle is unsure by a degree or so (its outline
    squares it only when it lies alone); 1.3 degrees put cells six out 6 mm off and misread them (the photo score's
    Neues Land field/default tables 4 and 9: 1.5 and 1.5 degrees read, 0.22 and 0.34 true; fitted 0.21 and 0.37).
    Every tile is laid against its neighbours, so the tiles found together give the lattice's angle and place
    far better. A lone start tile (fewer than 6 tiles: the live loop's first frame) is never fitted, so the live
    loop pays for it only where it reads a full table from scratch. Was off outside photos because on OpenCV 4.11
    the re-read put two glyph twins of ``test_a_suedsee_board_in_drawn_art`` wrong: the fitted grid was the true
    one (within 0.11 mm, 0.01 degrees) and OpenCV 5 misread them the same on it (on 5 the fit moved under 1.5 mm
    and no re-read came); the twin reading was at fault (:func:`vision.tiles.whole_details`,
    :func:`_apart_from_figures`)."""

    prefit_found_grid = True
    """With :attr:`fit_found_grid`: fit a grid found afresh to the tiles a cheap first look finds clear on it
    (:meth:`_prefit`) before the full reading, so that the fit after it rarely moves the grid enough to read the
    whole frame again (issue 14, CPU: the start search's angle was off by 0.6-0.7 degrees on the bench's boards,
    the fit moved the play area's corners 5 mm, and every reading from scratch was made twice)."""

    def _prefit(self, frame: np.ndarray, to_frame: MapFn, key: Any, grid: Grid,
                from_frame: MapFn | None = None) -> Grid:
        """``grid`` fitted (:func:`fit_grid`) to the tiles that a bare tile's picture clearly matches on the play
        area's cells in view, read by the classifier's easy stages alone (:meth:`TileClassifier.clear_guesses`:
        no occlusion, no covered cells, no figures, no twins; only where each tile lies is used); ``grid`` itself
        when too few are clear. The full reading then starts on (about) the lattice the tiles are laid on."""
        size = (frame.shape[1], frame.shape[0])
        cells, _ = self.view(grid, to_frame, size, key, from_frame)
        play = self._play_cells(grid)
        cells = [c for c in cells if c in play]
        if len(cells) < 6:
            return grid
        gc = GridSampler().sample(frame, to_frame, None, grid, *cell_bounds(cells))
        fc = FeatureCanvas(self._balance(gc, self.mat_colour(frame, to_frame, key)))
        fitted = fit_grid(grid, self.classifier.clear_guesses(fc, cells))
        return grid if fitted is None else fitted

    # (Fitting to the best 24 tiles within 4 cells of the start only, at 40 % of the cost, put the grid 0.14 degrees
    # off on a 30-tile board: hand-laid tiles lie 1.5 mm apart from the lattice, and the angle needs every tile and
    # the whole play area's reach; two figures by a seam six cells out were lost, test_figures_side_by_side.py.)

    view_margin_mm = 5.0
    """A cell is in view when its square grown by this much on every side lies inside the frame."""

    def view(self, grid: Grid, to_frame: MapFn, size: tuple[int, int], key: Any = None,
             from_frame: MapFn | None = None) -> tuple[list[Cell], float]:
        """The cells the camera sees whole on the table plane (see :func:`cells_in_view`) and the
        smallest side of a cell in frame pixels, cached per mapping ``key`` and grid. Without
        ``from_frame`` the cells looked at are those on the mat and within half its size around it."""
        cache_key = (key, grid, size) if key is not None else None
        if cache_key is not None and self._view_key == cache_key:
            return self._view
        w, h = self.mat.width_mm, self.mat.height_mm
        region = (-w / 2, -h / 2, 2 * w, 2 * h)
        cells = cells_in_view(grid, to_frame, size, region, self.view_margin_mm, from_frame)
        found = (cells, cell_side_px(grid, to_frame, cells))
        if cache_key is not None:
            self._view_key, self._view = cache_key, found
        return found

    def _read(self, frame: np.ndarray, to_frame: MapFn, key: Any, grid: Grid, previous: Observation | None,
              constraints: Constraints | None, figures: bool, from_frame: MapFn | None = None,
              known: Mapping[Cell, tuple[str, int]] | None = None,
              nadir_mm: tuple[float, ...] | None = None) -> Observation:
        warnings: list[str] = []
        size = (frame.shape[1], frame.shape[0])
        cells, side_px = self.view(grid, to_frame, size, key, from_frame)
        if not cells:
            raise VisionError(T("view: no cell of the table lies whole in the frame; aim the camera at the mat"))
        in_view = frozenset(cells)
        mat_bgr = self.mat_colour(frame, to_frame, key)
        thumbs, sigs = self._signatures(frame, to_frame, key, grid, cells, side_px)
        todo = cells if previous is None else self._changed(cells, sigs, previous)
        bare = previous.bare if previous is not None else {}
        occupied, unsure = self._occupied(thumbs, todo, mat_bgr, self.table_colour(frame, to_frame, key),
                                          self._play_cells(grid), sigs, bare)
        tiles: dict[tuple[int, int], TileGuess] = {}
        seen: list[FigureSeen] = []
        if previous is not None:
            todo_set = set(todo)
            tiles = {c: t for c, t in previous.tiles.items() if c not in todo_set and c in in_view}
            seen = [f for f in previous.figures if (f.x, f.y) not in todo_set and (f.x, f.y) in in_view]
        # beyond the play area, a cell unlike the table is classified when some tile roughly matches it; a
        # cell that held a tile (the last reading, the game's log) always is: a figure put on it can pull the
        # rough match under the bar (scans of tiles with a figure: 0.52 and more), and the tile was lost
        held = set(previous.tiles if previous is not None else ()) | set(known or ())
        maybe = {c for c in todo if occupied[c] is None
                 and (c in held or self._tile_like(frame, to_frame, grid, c, mat_bgr))}
        fresh = [c for c in todo if occupied[c] is True or c in maybe or c in unsure]
        looked: list[tuple[FeatureCanvas, list[Cell], np.ndarray | None, Any]] = []
        pending: list[tuple[TileGuess, list[bool]]] = []
        self.clock.lap("cells")
        for gc, group in self._canvases(frame, to_frame, key, grid, fresh, previous is not None):
            fc = FeatureCanvas(self._balance(gc, mat_bgr))
            self.clock.lap("sample")
            spots = halved = None
            if self.colours is not None:
                # the canvas at half size and its player colours: what the covered mask and the figure pass both
                # start from (made once)
                halved = self._halved(fc.bgr)
                covered, spots = self._covered(fc.bgr, mat_bgr * self._gains(mat_bgr), halved)
                fc.set_occlusion(covered)
            self.clock.lap("occlusion")
            looked.append((fc, group, spots, halved))
            kept, to_classify = self._keep_previous(fc, group, previous)
            tiles.update(kept)
            for guess in self._art_uncovered(fc, self.classifier.classify(fc, to_classify, constraints), constraints):
                if (guess.x, guess.y) in unsure:
                    # neither clearly bare mat nor clearly a tile by its colours (a strong cast, a cloth near a
                    # tile's colours): a tile when its picture matches one well, else empty, and said so
                    top, left = fc.top_left(guess.x, guess.y)
                    bar = (self.thresholds.tile_min_score_covered if fc.covers(top, left, TILE_PX)
                           else self.thresholds.tile_min_score)
                    if guess.score < bar:
                        warnings.append(f"cell ({guess.x}, {guess.y}): taken as empty, but only "
                                        f"{100 * unsure[(guess.x, guess.y)]:.0f}% of it looks like the bare mat "
                                        f"and the best tile ({guess.tile}) scores {guess.score:.2f}; a tile in odd "
                                        "light or something else on the mat?")
                        continue
                if (guess.x, guess.y) in maybe:
                    sides = self._tile_evidence(fc, guess)
                    if sides is None:
                        continue  # beyond the play area, and nothing there looks like a tile: the table itself
                    if sum(sides) < 3:
                        pending.append((guess, sides))   # settled below, once its neighbours are known
                        continue
                if (guess.x, guess.y) == (0, 0) and guess.tile != self.catalog.start:
                    guess = self._prefer(fc, guess, (self.catalog.start, 0), self.thresholds.start_keep_margin)
                logged = known.get((guess.x, guess.y)) if known else None
                if logged is not None and (guess.tile, guess.rotation) != tuple(logged):
                    guess = self._prefer(fc, guess, logged, self.thresholds.known_margin)
                tiles[(guess.x, guess.y)] = guess
            self.clock.lap("tiles")
        tiles.update(self._outlined_by_neighbours(pending, tiles))
        # twins whose telling detail a figure hides: the game's log (or the start) says which one lies in its
        # cells, kept readings included; elsewhere the likelier one by what is left in the box
        said = dict(known or {})
        said[(0, 0)] = (self.catalog.start, 0)
        for c, t in tiles.items():
            if t.hidden_twins and c in said:
                name = tuple(said[c])
                pick = name if name in t.hidden_twins else (t.tile, t.rotation)
                tiles[c] = replace(t, tile=pick[0], rotation=int(pick[1]), hidden_twins=())
        tiles = settle_hidden(tiles, self.catalog.counts)
        self.clock.lap("tiles")
        found: list[tuple[FigureSeen, bool, tuple[float, float], frozenset]] = []
        if figures and self.figures is not None:
            nadir = None if nadir_mm is None else (*grid.grid_from_mat(*nadir_mm[:2]), *nadir_mm[2:3])
            mat_canvas = mat_bgr * self._gains(mat_bgr)
            for fc, group, spots, halved in looked:
                here = self._figure_pass(fc, group, spots, tiles, nadir, halved, mat_canvas, grid)
                # a marked guess under a figure: read again by its colours with the figure left out, and the
                # figures around it looked for again on what it now holds
                changed = self._reread_covered(fc, group, tiles, [f for fs in here.values() for f in fs])
                if changed:
                    again = [c for c in group if any(abs(c[0] - x) <= 1 and abs(c[1] - y) <= 1 for x, y in changed)]
                    here.update(self._figure_pass(fc, again, spots, tiles, nadir, halved, mat_canvas, grid))
                found.extend(f for fs in here.values() for f in fs)
        seen = _one_each_standing(seen, found, self.thresholds.figure_apart_mm / self.pitch)
        if nadir_mm is None:
            seen = _one_each(seen, self.thresholds.figure_apart, self.thresholds.figure_edge)
        self.clock.lap("figures")
        if (0, 0) not in tiles:
            warnings.append(f"the start tile {self.catalog.start} is not seen at (0, 0) any more")
        for t in tiles.values():
            if t.hidden_twins:
                warnings.append(f"cell ({t.x}, {t.y}): {t.tile} r{t.rotation} or "
                                + " or ".join(f"{a} r{b}" for a, b in t.hidden_twins)
                                + ": a figure hides where they differ (taken: the likelier by the tiles left)")
            elif t.confidence < 0.5:
                warnings.append(f"cell ({t.x}, {t.y}): unsure ({t.tile} r{t.rotation}, score {t.score:.2f}); "
                                f"a tile not in the set, a hand, or bad light?")
        # an empty cell's look now; a tile's cell keeps the look it had when it was last empty
        looks = {c: bare[c] for c in tiles if c in bare}
        looks.update((c, sigs[c]) for c in cells if c not in tiles)
        self.clock.lap("other")
        return Observation(grid, tiles, seen, sigs, list(todo), warnings, in_view, looks)

    def _canvases(self, frame: np.ndarray, to_frame: MapFn, key: Any, grid: Grid, cells: Sequence[Cell],
                  incremental: bool) -> list[tuple[GridCanvas, list[Cell]]]:
        """Grid canvases (TILE_PX per cell) for the cells to classify: one per cell for a few changed cells,
        else one over the rectangle that holds them all (the bare table around them is not sampled)."""
        if not cells:
            return []
        if incremental and len(cells) <= self.few_cells:
            return [(GridSampler().sample(frame, to_frame, None, grid, x, y, 1, 1), [(x, y)]) for x, y in cells]
        x0, y0, nx, ny = cell_bounds(cells)
        return [(self.sampler.sample(frame, to_frame, key, grid, x0, y0, nx, ny), list(cells))]

    def _tile_like(self, frame: np.ndarray, to_frame: MapFn, grid: Grid, cell: Cell, mat_bgr: np.ndarray) -> bool:
        """Whether some tile matches ``cell`` even roughly (the classifier's first, cheap stage, on the cell
        alone): a mat marker or a cup beyond the play area does not, and is not worth the slow path for
        covered tiles (nor a feature canvas spread over the whole view). Where a figure stands the bar is
        lower (:attr:`Thresholds.tile_min_coarse_covered`): a scanned tile with a figure matched at 0.44-0.45,
        on the old bar of 0.45, read on OpenCV 5 and lost on 4.11, whose remap samples a hair differently.
        (Letting every cell with a figure-coloured spot through made whole games beyond the mat slow: a
        Suedsee game's reads took a median 482 ms and the tracker needed the phone in 71 of 72 turns.)

        A cell a quarter or more of which is a marker the frame shows is no tile (:meth:`_on_marker`): a marker's
        black square reads as a black figure, and on the field camera at ``hard`` two corner cells over markers
        passed the lower bar for covered cells and were read as Südsee's all-sea tile C (confidence 0.34). A tile
        laid over a marker hides it (three markers are enough to find the mat) and is read."""
        if self._on_marker(grid, cell, self._markers_seen) >= 0.25:
            return False
        gc = GridSampler().sample(frame, to_frame, None, grid, cell[0], cell[1], 1, 1)
        fc = FeatureCanvas(self._balance(gc, mat_bgr))
        coarse, _ = self.classifier.coarse_scores(fc, [cell])
        best = float(coarse.max())
        if best >= self.thresholds.tile_min_coarse:
            return True
        return (best >= self.thresholds.tile_min_coarse_covered and self.colours is not None
                and bool(self._covered(fc.bgr)[0].any()))

    def _on_marker(self, grid: Grid, cell: Cell, markers: Sequence[int]) -> float:
        """The share of ``cell``'s square that lies on one of ``markers`` (their printed squares, where the mat
        says they are)."""
        steps = (np.arange(8) + 0.5) / 8 - 0.5
        gx, gy = np.meshgrid(cell[0] + steps, cell[1] + steps)
        m = grid.mat_from_grid()
        x = m[0, 0] * gx + m[0, 1] * gy + m[0, 2]
        y = m[1, 0] * gx + m[1, 1] * gy + m[1, 2]
        on = np.zeros(x.shape, bool)
        half = self.mat.marker_mm / 2
        for cx, cy in (self.mat.marker_centre(m) for m in markers if m in self.mat.marker_ids):
            on |= (np.abs(x - cx) <= half) & (np.abs(y - cy) <= half)
        return float(on.mean())

    def _tile_evidence(self, fc: FeatureCanvas, guess: TileGuess) -> list[bool] | None:
        """Whether a cell beyond the play area may hold the tile it was read as: None when the tile does not
        match well enough (:attr:`Thresholds.tile_min_score`), else which of its sides (N, S, W, E) show as
        straight edges where the classifier put it (:attr:`Thresholds.tile_outline`). Three are needed; a
        side against a neighbouring tile is a seam, not an edge, and counts once that tile is read
        (:meth:`_outlined_by_neighbours`). A smooth print on a tablecloth can match a plain tile's picture
        well; it has no tile's outline."""
        top, left = fc.top_left(guess.x, guess.y)
        covered = fc.covers(top, left, TILE_PX)
        if guess.score < (self.thresholds.tile_min_score_covered if covered else self.thresholds.tile_min_score):
            return None
        mm = self.classifier.mm_per_px
        sides = outline_strength(fc.bgr, top + int(round(guess.offset_mm[1] / mm)),
                                 left + int(round(guess.offset_mm[0] / mm)), TILE_PX)
        return [s >= self.thresholds.tile_outline for s in sides]

    @staticmethod
    def _outlined_by_neighbours(pending: list[tuple[TileGuess, list[bool]]], tiles: Mapping[Cell, TileGuess]
                                ) -> dict[Cell, TileGuess]:
        """The cells beyond the play area with fewer than three clear sides that are tiles all the same: their
        other sides border tiles read (a row of tiles past the mat's edge has seams, not edges, between its
        tiles; 3 of 4 sides there failed a tile flanked by two). Settled in rounds, each cell taking the
        tiles accepted before it as neighbours."""
        accepted: dict[Cell, TileGuess] = {}
        todo = list(pending)
        while todo:
            rest = []
            for guess, sides in todo:
                c = (guess.x, guess.y)
                near = [(c[0], c[1] - 1), (c[0], c[1] + 1), (c[0] - 1, c[1]), (c[0] + 1, c[1])]   # N, S, W, E
                n = sum(ok or (nb in tiles or nb in accepted) for ok, nb in zip(sides, near))
                if n >= 3 and any(sides):
                    accepted[c] = guess
                else:
                    rest.append((guess, sides))
            if len(rest) == len(todo):
                break
            todo = rest
        return accepted

    def _play_cells(self, grid: Grid) -> frozenset[Cell]:
        """The cells whose centre lies on the mat's play area (cached per grid)."""
        if self._play_key != grid:
            self._play_key, self._play = grid, frozenset(grid.cells_in(self.mat.play_rect_mm))
        return self._play

    seam_mm = 3.0
    """Lines of the darkest player colour this thin (mm) are not figures, nor parts of one: the gaps and
    drawn outlines between tiles (1 to 2 mm) read as black. :meth:`_covered` opens that colour's mask with
    the smallest odd square at least this wide (3 half-resolution pixels, 5.6 mm), which removes lines
    narrower than the square. A figure is 7 mm deep or more seen from above (a standing figure's slab,
    more where it leans; 16 mm lying)."""

    def _unlike_its_tile(self, fc: FeatureCanvas, t: TileGuess, fitted: dict[Any, Any]) -> bool:
        """Whether the tile's square holds a patch of a player's colour where its reference is not of that colour, at
        least :attr:`Thresholds.figure_unlike_mm2` in one piece and some 6 mm across (thinner strips are the art's
        edges a little off). A figure whose colour is near the terrain around it changes the tile's picture too
        little for :meth:`TileClassifier.unexplained` (a yellow figure on an orange mountain), and its picture
        joins the terrain of its colour beside it (a yellow-green plain) into a blob larger than any figure, which
        is no spot; but a yellow patch where the art is not yellow is no art. ``fitted``: what the windows of this
        canvas share (:meth:`_small`)."""
        if self.colours is None:
            return False
        s = self.figure_scale
        mm = self.classifier.mm_per_px
        top, left = fc.top_left(t.x, t.y)
        top = (top + int(round(t.offset_mm[1] / mm))) // s
        left = (left + int(round(t.offset_mm[0] / mm))) // s
        _, (idx, dist) = self._small(fc, fitted)
        n = TILE_PX // s
        if top < 0 or left < 0 or top + n > idx.shape[0] or left + n > idx.shape[1]:
            return False
        key = (t.tile, t.rotation)
        ref = self._ref_colours.get(key)
        if ref is None:
            im = cv2.resize(np.rot90(self._ref_bgr[self.refs.index_of(t.tile)], -(t.rotation // 90)), (n, n),
                            interpolation=cv2.INTER_AREA)
            ri, rd = self.colours.nearest(bgr_to_lab(im))
            ref = self._ref_colours[key] = np.where(rd < self._colour_distance(), ri, -1)
        here = (slice(top, top + n), slice(left, left + n))
        odd = (dist[here] < self._colour_distance()) & (idx[here] != ref)
        if odd.sum() * (mm * s) ** 2 < self.thresholds.figure_unlike_mm2:
            return False
        odd = cv2.morphologyEx(odd.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        count, _, stats, _ = cv2.connectedComponentsWithStats(odd, connectivity=8)
        largest = float(stats[1:, cv2.CC_STAT_AREA].max()) if count > 1 else 0.0
        return largest * (mm * s) ** 2 >= self.thresholds.figure_unlike_mm2

    def _small(self, fc: FeatureCanvas, fitted: dict[Any, Any]) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
        """The canvas at the figures' scale and its nearest player colour and distance per pixel, once per canvas
        (kept in ``fitted``)."""
        small = fitted.get("small")
        if small is None:
            assert self.colours is not None
            s = self.figure_scale
            h, w = fc.bgr.shape[:2]
            half = cv2.resize(fc.bgr, (w // s, h // s), interpolation=cv2.INTER_AREA) if s > 1 else fc.bgr
            small = fitted["small"] = (half, self.colours.nearest(bgr_to_lab(half)))
        return small

    def _colour_distance(self) -> float:
        return self.figures.colour_distance if self.figures is not None else 26.0

    def _gains(self, mat_bgr: np.ndarray) -> np.ndarray:
        """The per-channel gains :meth:`_balance` applies to a frame whose mat looks ``mat_bgr`` (ones: none)."""
        ref = self.refs.meta.get("mat_bgr") if self.refs.meta else None
        if not self.white_balance:
            return np.ones(3, np.float32)
        if ref:
            # to the enrolment's look by the mat, then into neutral light by the enrolment's paper white
            return (np.clip(np.asarray(ref, np.float32) / np.maximum(mat_bgr, 1.0), 0.5, 2.0)
                    * self._neutral).astype(np.float32)
        if self._white_bgr is not None:
            white = np.maximum(self._white_bgr, 1.0)
            return np.clip(float(white.mean()) / white, 0.6, 1.6).astype(np.float32)
        return np.ones(3, np.float32)

    def _halved(self, bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
        """``bgr`` shrunk to half (area average), its Lab and its nearest player colour and distance per pixel."""
        assert self.colours is not None
        half = cv2.resize(bgr, (bgr.shape[1] // 2, bgr.shape[0] // 2), interpolation=cv2.INTER_AREA)
        lab = bgr_to_lab(half)
        return half, lab, self.colours.nearest(lab)

    def _covered(self, bgr: np.ndarray, mat_bgr: np.ndarray | None = None,
                 halved: tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]] | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
        """Where figures may stand, at the canvas's size: ``(covered, spots)``. ``mat_bgr``: the bare mat's colour
        in the canvas; the spots are also looked for without the pixels nearer to it than to every player colour
        (a black figure at a tile's edge against a dark green mat joins the mat into one blob far larger than a
        figure, and was never looked for). Both: leaving those pixels out alone broke up a yellow figure on a
        plain, whose shaded side is nearer the dark mat's colour, into pieces too small to be a spot. The covered
        mask keeps its colours as they were (telling the mat apart there put a tile under such a figure wrong on
        the bench's ``hard`` boards).

        ``covered``: compact, figure-sized blobs near a player colour (a strip of plain or sea the
        colour of a figure is not one) and their shadows (pixels within
        :attr:`Thresholds.figure_shadow_mm` of them, dimmed alike in every channel below
        :attr:`Thresholds.figure_shadow_light` of the light around), left out when tiles are classified. ``spots``: looser blobs of a player colour, where the figure finder looks.
        """
        assert self.colours is not None
        half, lab, (idx, dist) = halved if halved is not None else self._halved(bgr)
        not_mat = None
        if mat_bgr is not None:
            mat_w = _weighted(bgr_to_lab(np.asarray(mat_bgr, np.float32).reshape(1, 1, 3))).reshape(1, 1, 3)
            not_mat = norm3(_weighted(lab) - mat_w) >= dist
        mm = 2 * self.classifier.mm_per_px                         # millimetres per half-resolution pixel
        size = (bgr.shape[1], bgr.shape[0])

        # the dark gaps between tiles (and their drawn outlines) read as the darkest colour: opened away
        # first, or a black figure beside them joins them into one blob longer than a figure
        side = int(math.ceil(self.seam_mm / mm)) | 1
        no_seams = np.ones((side, side), np.uint8)
        darkest = int(np.argmin([c.lab[0] for c in self.colours.colours]))

        of_colour = [idx == colour for colour in range(len(self.colours.colours))]   # made once for every call

        def blobs_of(near: np.ndarray, lo: float, hi: float, longest_mm: float, lit_tops: bool = False,
                     core: np.ndarray | None = None) -> np.ndarray:
            """Blobs of one player colour in ``near`` of ``lo``-``hi`` mm2, no longer than ``longest_mm``; with
            ``core``, only those holding at least :data:`FIGURE_CORE_MM2` of that colour's ``core`` pixels."""
            out = np.zeros(near.shape, np.uint8)
            for colour in range(len(self.colours.colours)):      # one colour at a time: a red figure on a
                cored = None
                if core is not None:
                    cored = core & of_colour[colour]
                    if np.count_nonzero(cored) * mm * mm < FIGURE_CORE_MM2:
                        continue  # no figure's paint of this colour anywhere: nothing to grow
                mask = (near & of_colour[colour]).astype(np.uint8)   # green plain stays a blob of its own
                if colour == darkest:
                    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, no_seams)
                # components are looked for only in the box around the colour's pixels (the same components and
                # statistics: a player's colour is seldom more than a few spots of the canvas; issue 14, CPU)
                x, y, w, h = cv2.boundingRect(mask)
                if w == 0 or h == 0:
                    continue
                n, labels, stats, _ = cv2.connectedComponentsWithStats(mask[y:y + h, x:x + w], connectivity=8)
                area = stats[:, cv2.CC_STAT_AREA] * mm * mm
                longest = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) * mm
                ok = (area >= lo) & (area <= hi) & (longest <= longest_mm)
                if cored is not None:
                    ok &= np.bincount(labels[cored[y:y + h, x:x + w]], minlength=n) * mm * mm >= FIGURE_CORE_MM2
                ok[0] = False
                if lit_tops:
                    ok |= _lit_top_rings(labels, stats, area, longest, lo, longest_mm, mm, lab[y:y + h, x:x + w],
                                         self.colours.colours[colour].lab)
                if ok.any():
                    out[y:y + h, x:x + w] |= ok[labels].astype(np.uint8)
            return out

        loose = dist < self._colour_distance()
        spots = blobs_of(loose, 20.0, 900.0, 45.0)
        if not_mat is not None:
            # and again without the mat's pixels: a figure that joined the mat stands out as a blob of its own
            spots |= blobs_of(loose & not_mat, 20.0, 900.0, 45.0)
        # and by the figure's own paint alone (within its colour's calibrated spread): a yellow figure on a
        # yellow-green plain, the plain 15-25 units from yellow and the figure 3-12, made one blob with the plain far
        # larger than a figure, and was never looked for (Neues Land field/default photoscore table 6)
        if self.spots_by_paint:
            paint = np.array([max(c.spread, 6.0) for c in self.colours.colours], np.float32)
            spots |= blobs_of(dist < paint[idx], 20.0, 900.0, 45.0)
        spots_full = cv2.resize(spots, size, interpolation=cv2.INTER_NEAREST).astype(bool)
        strict = dist < self.thresholds.figure_colour
        blobs = blobs_of(strict, 40.0, 450.0, 30.0, lit_tops=True)
        # and a figure's whole blurred picture: figure-sized blobs of the looser colour test around a core of its
        # paint (hysteresis); the strict test alone caught 35 to 42 mm2 of a red figure at 1280x720, at its 40 mm2
        # floor, so a 2 % change of the white balance between frames put the figure in or out (issue 14, nle2e)
        blobs |= blobs_of(loose, 40.0, 450.0, 30.0, core=strict)
        if not blobs.any():
            return np.zeros(bgr.shape[:2], bool), spots_full
        reach = int(round(self.thresholds.figure_shadow_mm / mm))
        near = cv2.dilate(blobs, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))) > 0
        # the colour there without the shadow: the local upper envelope of each channel (a shadow is several
        # millimetres wide and smooth, the tile's texture not: both smoothed a little first). The mean around,
        # used before, is pulled down by the figure's dark body and by the shadow itself: of the shadows'
        # core on three Suedsee boards 64 % was covered, 71 % now (tests/vision/test_figures_shadow.py)
        colour = cv2.blur(half.astype(np.float32), (3, 3))
        lit = cv2.blur(cv2.dilate(colour, np.ones((5, 5), np.uint8)), (5, 5))
        dim, grey = shading(colour, lit)
        # a shadow dims every colour alike; a boat or a roof drawn beside the figure does not, and stays in
        shade = near & grey & (dim < self.thresholds.figure_shadow_light)
        covered = cv2.dilate(blobs, np.ones((3, 3), np.uint8)).astype(bool) | shade
        return (cv2.resize(covered.astype(np.float32), size, interpolation=cv2.INTER_LINEAR) > 0.5), spots_full

    art_agree = 10.0
    """A covered piece of a cell is the art of one of the twins its reading is torn between when its colours lie
    within this of that twin's reference there: the median over the piece of the Lab distance (OpenCV's 8-bit
    scale, lightness halved, both pictures smoothed by 1.5 px) after the difference that the cell's uncovered rest
    shows, were it that twin, is taken off (the light on the cell: a dim corner, a shadow). On the bench's
    ``field/hard`` boards the right twin's art lies 2-9 from such pieces, the wrong twins' 15-45."""

    figure_least_mm2 = 40.0
    """A covered piece that no twin's art explains is a figure when it is at least this large (the covered test's
    smallest figure blob, :meth:`_covered`); smaller ones are specks of texture or the art's edges."""

    def _art_uncovered(self, fc: FeatureCanvas, guesses: list[TileGuess], constraints: Constraints | None
                       ) -> list[TileGuess]:
        """Guesses torn between twins because the covered test hid where they differ, read again with the covered
        pieces that a twin's art explains uncovered (issue 14, cause 4 of session ``sfield``). Under the field
        camera's warm light Südsee's red reef and sand lie near the red and yellow figures' colours, and pieces of
        them pass the covered test as figures: the classifier leaves them out, the twins that differ there (or
        under them: a glyph on the reef) look alike, one is guessed (confidence 0.4, a hidden twin), often with a
        phantom figure on it: A2's reef strip read as B1 (its twin without the strip), X's reef cross in a dim
        cell as W1, whole reef bands of U2, V2, E2, N1 as their glyph twins. A piece that a twin's art explains is
        that art or a figure of the art's colour standing on it; uncovered, the classifier compares it with every
        twin like any other pixel. The new reading is kept only when it is clear (no hidden twin, confidence 0.5
        or more), else the guess stands."""
        guesses = [self._start_twin_elsewhere(g) for g in guesses]
        occ = fc.occlusion(0)
        if occ is None or not any(g.hidden_twins for g in guesses):
            return guesses
        mm = self.classifier.mm_per_px
        n = TILE_PX
        out = []
        for g in guesses:
            if not g.hidden_twins:
                out.append(g)
                continue
            top, left = fc.top_left(g.x, g.y)
            here = (slice(top, top + n), slice(left, left + n))
            pieces, labels = cv2.connectedComponents((occ[here] >= 0.5).astype(np.uint8), connectivity=8)
            if pieces <= 1:
                out.append(g)
                continue
            free = labels == 0
            if free.mean() < 0.25:
                out.append(g)
                continue
            seen = cv2.GaussianBlur(bgr_to_lab(fc.bgr[here]), (0, 0), 1.5)
            oy, ox = int(round(g.offset_mm[1] / mm)), int(round(g.offset_mm[0] / mm))
            far = []            # per twin: per piece, how far its colours lie from the twin's art there
            for tile, rot in ((g.tile, g.rotation), *g.hidden_twins):
                ref = np.ascontiguousarray(np.rot90(self._ref_bgr[self.refs.index_of(tile)], -(rot // 90)))
                ref = cv2.warpAffine(ref, np.float32([[1, 0, ox], [0, 1, oy]]), (n, n), borderMode=cv2.BORDER_REPLICATE)
                d = seen - cv2.GaussianBlur(bgr_to_lab(ref), (0, 0), 1.5)
                # the light on this cell (a dim corner, a shadow, the balance a little off): what the uncovered
                # rest of the cell says, were it this twin
                d -= np.median(d[free], axis=0)
                d[..., 0] *= 0.5
                e = norm3(d)
                far.append([float(np.median(e[labels == k])) for k in range(1, pieces)])
            far_arr = np.array(far)
            if log.isEnabledFor(logging.DEBUG):
                log.debug("covered pieces of %s (pixels %s) from its twins' art: %s", (g.x, g.y),
                          [int((labels == k).sum()) for k in range(1, pieces)], np.round(far_arr, 1).tolist())
            explained = far_arr.min(axis=0) <= self.art_agree
            sizes = np.bincount(labels.ravel(), minlength=pieces)[1:] * mm * mm
            if np.any(~explained & (sizes >= self.figure_least_mm2)):
                # a figure stands on the cell (a piece no twin's art explains): its shadow and lean reach the pieces
                # around it, which may look like the art but hide what tells the twins apart; only pieces that tell
                # them apart by themselves (one twin's art there, another's twice as far) are uncovered
                telling = far_arr.max(axis=0) >= 2 * self.art_agree
                apart = _apart_from_figures(labels, ~explained & (sizes >= self.figure_least_mm2),
                                            self.classifier.verify_clear)
                art = [k + 1 for k in range(pieces - 1) if explained[k] and (telling[k] or apart[k])]
            else:
                art = [k + 1 for k in range(pieces - 1) if explained[k]]
            if not art:
                out.append(g)
                continue
            uncovered = occ >= 0.5
            uncovered[here][np.isin(labels, art)] = False
            fc.set_occlusion(uncovered)
            again = self._start_twin_elsewhere(self.classifier.classify(fc, [(g.x, g.y)], constraints)[0])
            if again.hidden_twins or again.confidence < 0.5:
                fc.set_occlusion(occ >= 0.5)
                out.append(g)
            else:
                occ = fc.occlusion(0)
                out.append(again)
        return out

    start_elsewhere_clear = 0.8
    """A cell other than (0, 0) read as the start tile with less confidence than this is a marked guess among the
    start tile and its twins (:meth:`_start_twin_elsewhere`)."""

    def _start_twin_elsewhere(self, guess: TileGuess) -> TileGuess:
        """A cell other than (0, 0) read as the start tile, not clearly, made a marked guess among the start tile's
        twins at that turn (:meth:`_start_and_twins`: Südsee's D1 and D2, the same drawn picture but for a glyph).
        The start tile is one, and the grid puts it at (0, 0) (the reading there is settled to it); its twins' glyph
        is a few pixels that blur and JPEG soften until a D1 scores a little above it as the start tile: on the
        bench's ``field/hard`` rows D1 was read as the start tile at confidence 0.50-0.53, unmarked (seed 1's full
        board, seed 2's board 0). Marked (confidence at most 0.4, the twins listed), the copies left in the box
        settle it (:func:`vision.tiles.settle_hidden`: the start tile's one copy lies at (0, 0)), and a wrong one
        is never unmarked. A clear reading (:attr:`start_elsewhere_clear`) stands: the start search reads a
        lattice whose (0, 0) is anywhere, and takes the start tile where it is read clearly."""
        if (guess.tile != self.catalog.start or (guess.x, guess.y) == (0, 0) or guess.hidden_twins
                or guess.confidence >= self.start_elsewhere_clear):
            return guess
        twins = tuple((t, guess.rotation) for t, r in sorted(self._start_and_twins()) if t != self.catalog.start)
        if not twins:
            return guess
        from .tiles import Candidate

        rest = tuple(c for c in guess.runners_up if (c.tile, c.rotation) not in twins)
        return replace(guess, confidence=min(guess.confidence, 0.4), hidden_twins=twins,
                       runners_up=tuple(Candidate(t, r, guess.score) for t, r in twins) + rest)

    def _prefer(self, fc: FeatureCanvas, guess: TileGuess, other: tuple[str, int], margin: float) -> TileGuess:
        """``other`` (tile id, rotation) in the cell of ``guess`` unless ``guess`` is clearly better seen there,
        by more than ``margin`` in block scores (which leave out what covers the tile). Used where the tile is
        known: cell (0, 0) holds the start tile (found there; partly covered by a figure it can look like its
        twins), and the game's log says which tile lies in a cell."""
        clf = self.classifier
        if other[0] not in clf.ids:
            return guess
        jo = clf.ids.index(other[0]) + (int(other[1]) % 360) // 90
        jg = clf.ids.index(guess.tile) + guess.rotation // 90
        top, left = fc.top_left(guess.x, guess.y)
        sc, dy, dx = clf._block_grid(fc, 1, [jo, jg], top // 2, left // 2, clf.hard_reach)
        if sc[0] < sc[1] - margin:
            return guess
        from .tiles import Candidate, _confidence

        return TileGuess(guess.x, guess.y, other[0], int(other[1]) % 360, float(sc[0]),
                         _confidence(float(sc[0]), float(sc[1])),
                         (Candidate(guess.tile, guess.rotation, float(sc[1])),) + guess.runners_up[:2],
                         (2 * float(dx[0]) * clf.mm_per_px, 2 * float(dy[0]) * clf.mm_per_px), 0.0, True)

    spots_by_paint = True
    """Spots (where figures are looked for) also from the pixels within their nearest colour's calibrated spread
    (:meth:`_covered`)."""

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
        not_mat = (norm3(d) > self.thresholds.mat_distance).astype(np.float32)
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
            res[cover[:res.shape[0], :res.shape[1]] < self.start_cover] = -1.0
            for _ in range(self.start_peaks):
                _, s, _, (lx, ly) = cv2.minMaxLoc(res)
                peaks.append((s, k, lx, ly))
                r = coarse_px // 2
                res[max(ly - r, 0):ly + r + 1, max(lx - r, 0):lx + r + 1] = -2
        peaks.sort(key=lambda p: -p[0])
        lattice: tuple[float, Grid | None] = (-2.0, None)
        places: list[tuple[float, Grid]] = []
        guesses: list[Grid] = []
        seen_at: dict[int, int] = {}

        def prescore(upto: int) -> None:
            nonlocal lattice
            for s, k, lx, ly in peaks[len(places):upto]:
                # coarse top-left -> tile centre in the search grid's coordinates -> mat mm
                cu = (lx + coarse_px / 2) * f - MARGIN_PX
                cv_ = (ly + coarse_px / 2) * f - MARGIN_PX
                centre = search.mat_from_grid() @ np.array([x0 - 0.5 + cu / TILE_PX, y0 - 0.5 + cv_ / TILE_PX, 1.0])
                guess = Grid((float(centre[0]), float(centre[1])), 90.0 * k, self.pitch)
                # every place is first scored cheaply (the template turned, the frame sampled once); the full search
                # (the frame sampled at every turn) only where the start tile is then seen clearly
                found = self._prescore_start(frame, to_frame, guess)
                if found[0] > lattice[0]:
                    lattice = found
                places.append(found)
                guesses.append(guess)

        def clear_places() -> tuple[list[int], list[int]]:
            # the place must show the start tile clearly better than any other tile type (a classification of its
            # cell, the costly part): best places first, and none scoring below the best clear one by more than
            # _nearest_centre's tie, which could not be chosen anyway
            clear_at: list[int] = []
            twin_at: list[int] = []     # clear but for the start tile's twins: taken when no place is clear
            for i in sorted(range(len(places)), key=lambda i: -places[i][0]):
                if places[i][0] < self.thresholds.start_min_score:
                    break
                if clear_at and places[i][0] < places[clear_at[0]][0] - self.start_tie:
                    break
                if i not in seen_at:
                    seen_at[i] = self._is_start(frame, to_frame, places[i][1])
                if seen_at[i] == 2:
                    clear_at.append(i)
                elif seen_at[i] == 1:
                    twin_at.append(i)
            return clear_at, twin_at

        # coarse to fine: the best few coarse places first; the start tile seen clearly at one of them is the start
        # tile (one in the set), and the other places are scored only when none is (issue 14, CPU)
        prescore(min(self.start_first, self.start_peaks))
        clear_at, twin_at = clear_places()
        if not clear_at and len(places) < min(len(peaks), self.start_peaks):
            prescore(self.start_peaks)
            clear_at, twin_at = clear_places()
        clear = [self._refine_start(frame, to_frame, guesses[i]) for i in sorted(clear_at or twin_at)]
        if clear:
            return self._nearest_centre(clear, self.start_tie)
        if lattice[1] is None or lattice[0] < 0.3:
            raise NoStartTile(T("start tile: {tile} not found on the play area; lay it on the mat, "
                                "in view, before the first turn", tile=self.catalog.start))
        # no clear start tile at the likely places (a figure or a hand on it): every tile lies on one
        # lattice, so read every cell of the lattice found and take the cell that looks most like the
        # start tile compared with what it looks like otherwise
        lat = self._lattice(frame, to_frame)
        obs = self.observe_mapped(frame, to_frame, key, grid=lat, figures=False)
        if not obs.tiles:
            raise NoStartTile(T("start tile: {tile} not found: no tiles on the play area", tile=self.catalog.start))
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
                raise NoStartTile(T("start tile: {tile} not seen among the {n} tiles on the play area; lay it on "
                                    "the mat, in view, before the first turn", tile=self.catalog.start, n=len(obs.tiles)))
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
        if not self._alone(gc, mat_bgr):
            return grid  # other tiles (or hands) around it: their edges would be mistaken for its own
        turns = np.arange(-self.squaring_span, self.squaring_span + 1e-6, self.squaring_step)
        scores = np.array([self._outline_score(frame, to_frame, Grid(grid.origin_mm, grid.angle_deg + float(da),
                                                                     grid.pitch_mm)) for da in turns])
        i = int(np.argmax(scores))
        if i in (0, len(turns) - 1):
            # sharpest at the end of the range: the outline may lie further on that side (a start tile taken from
            # the lattice of its own edges was 3.15 degrees off); look on up to twice as far, and take it only
            # where it peaks there
            side = 1.0 if i else -1.0
            turns = side * np.arange(self.squaring_span, 2 * self.squaring_span + 1e-6, self.squaring_step)
            scores = np.array([self._outline_score(frame, to_frame, Grid(grid.origin_mm, grid.angle_deg + float(da),
                                                                         grid.pitch_mm)) for da in turns])
            i = int(np.argmax(scores))
            if i in (0, len(turns) - 1):
                return grid  # no peak there either: not a clear outline
        log.debug("squaring: best %s at %s", scores[i], turns[i])
        best = Grid(grid.origin_mm, grid.angle_deg + float(turns[i]), grid.pitch_mm)
        # between the steps: the outline's sharpness is flat there (a quarter degree smears an edge by a
        # fifth of a pixel), its sides' slopes are not
        turn = _outline_turn(frame, to_frame, best)
        if turn is None or abs(turn) > self.squaring_step:
            return best  # no clear sides, or they disagree with their sharpness by more than a step
        return Grid(grid.origin_mm, best.angle_deg + turn, grid.pitch_mm)

    def _alone(self, gc: GridCanvas, mat_bgr: np.ndarray) -> bool:
        """Whether the cells around the middle one of a 3 x 3 canvas (unbalanced) are bare mat: a tile alone."""
        d = bgr_to_lab(gc.image) - bgr_to_lab(mat_bgr)
        d[..., 0] *= 0.5
        ring = norm3(d) > self.thresholds.mat_distance
        a, b = MARGIN_PX + TILE_PX - 4, MARGIN_PX + 2 * TILE_PX + 4
        ring[a:b, a:b] = False
        return bool(ring.mean() <= 0.01)

    @staticmethod
    def _outline_score(frame: np.ndarray, to_frame: MapFn, g: Grid) -> float:
        """How sharp the four sides of cell (0, 0) of ``g`` are: each side at its sharpest line within a few
        pixels of where the cell says (the tile may be off), summed."""
        m = MARGIN_PX
        one = GridSampler().sample(frame, to_frame, None, g, 0, 0, 1, 1, TILE_PX, m)
        grey = cv2.cvtColor(np.ascontiguousarray(one.image), cv2.COLOR_BGR2GRAY).astype(np.float32)
        gy = np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)).mean(axis=1)   # per row: horizontal edges
        gx = np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)).mean(axis=0)   # per column: vertical edges
        return sum(float(v[lo:hi].max()) for v in (gy, gx)
                   for lo, hi in ((m - 4, m + 5), (m + TILE_PX - 5, m + TILE_PX + 4)))

    def _nearest_centre(self, options: list[tuple[float, Grid]], tie: float = 0.03) -> Grid:
        """The best-scoring place, or among places scoring within ``tie`` of it (twins of the start tile,
        as in a drawn provisional set), the one nearest the middle of the play area."""
        best = max(o[0] for o in options)
        cx, cy = self.mat.play_centre_mm
        near = [o for o in options if o[0] >= best - tie]
        return min(near, key=lambda o: (o[1].origin_mm[0] - cx) ** 2 + (o[1].origin_mm[1] - cy) ** 2)[1]

    start_cover = 0.5
    """The start tile is looked for where at least this share of a cell is unlike the bare mat. It was 0.7: Südsee's
    start tile on the field camera's olive cloth, its red band within the mat distance of the cloth in that light,
    showed 0.60 in a first frame at ``hard`` and was not looked at (no start tile found); bare mat shows 0-0.05."""

    start_peaks = 10
    """How many places that look most like the start tile are examined closely."""
    start_first = 3
    """... the best this many of them first: the others only when none of these shows the start tile clearly."""
    start_tie = 0.03
    """Places of the start tile scoring within this of the best are twins: the one nearest the middle is taken."""

    def _is_start(self, frame: np.ndarray, to_frame: MapFn, grid: Grid) -> int:
        """2: cell (0, 0) of ``grid`` shows the start tile unturned, clearly; 1: the start tile or one of its
        twins (:meth:`_start_and_twins`), clearly, but not which, lying alone (the game's first frame); 0: neither."""
        raw = GridSampler().sample(frame, to_frame, None, grid, -1, -1, 3, 3, TILE_PX, MARGIN_PX)
        gc = self._in_light(raw)
        guess = self.classifier.classify(FeatureCanvas(gc), [(0, 0)])[0]
        if guess.tile == self.catalog.start and guess.rotation == 0 and guess.confidence >= 0.8:
            return 2
        if self._mat_bgr is None or not self._alone(raw, self._mat_bgr):
            return 0    # among other tiles the lattice of all their edges gives the grid better than one picture
        # the start tile's twins unturned (its picture but for a detail: Südsee's D1 and D2, a glyph apart) lie at
        # the same place and turn, and a blurred frame cannot tell them apart: the place is clear when the best
        # *other* picture is far behind (else the lone start tile of a first frame was taken from the lattice of
        # its own edges, 3 degrees off on the field camera at hard, and every cell six out was misread)
        from .tiles import _confidence
        same = self._start_and_twins()
        if (guess.tile, guess.rotation) not in same:
            return 0
        others = [c.score for c in guess.runners_up if (c.tile, c.rotation) not in same]
        return int(bool(others) and _confidence(guess.score, max(others)) >= 0.8)

    start_twin_share = 0.1
    """Unturned tiles whose picture differs clearly from the start tile's on less than this share of the pixels
    (Südsee's D1 and D2: 2-5 %, the next tile 28-30 %) stand at the start tile's place and turn."""
    start_twin_slop = 1
    """... their references laid against the start tile's up to this many pixels each way at the comparison's half
    size (2 px of the references, about 2 mm) first: the enrolment cuts each reference where it finds the tile, to
    about a pixel, and leaves its small turn in. Compared where they were cut, D2 differed from the start tile on
    13 % of the pixels in one field-camera enrolment (cut 1.1 mm and 0.9 degrees apart), and the lone start tile of
    that game's first frame, read as itself and D1 at 0.966 and as D2 at 0.943, was never clear."""

    def _start_and_twins(self) -> frozenset[tuple[str, int]]:
        """The start tile unturned and the tiles whose pictures differ from it only in a small detail, unturned,
        as (tile, rotation): the share of the pixels where they differ clearly is taken where the two references
        agree best within :attr:`start_twin_slop` (both smoothed and compared at half size, as
        :meth:`TileClassifier.differing_share`)."""
        if self._start_twins is None:
            clf = self.classifier
            j0 = clf.ids.index(self.catalog.start)
            unturned = [k for k in range(len(clf.ids)) if clf.rots[k] == 0]
            h = clf.px // 2
            small = np.stack([cv2.resize(cv2.GaussianBlur(clf.templates[k], (0, 0), 2.0), (h, h),
                                         interpolation=cv2.INTER_AREA) for k in unturned])
            r = self.start_twin_slop
            start = small[unturned.index(j0), r:h - r, r:h - r]
            share = np.full(len(unturned), np.inf)
            for dy in range(-r, r + 1):
                for dx in range(-r, r + 1):
                    d = ((small[:, r + dy:h - r + dy, r + dx:h - r + dx] - start[None]) ** 2).sum(axis=3)
                    share = np.minimum(share, (d > clf.twin_detail ** 2).mean(axis=(1, 2)))
            self._start_twins = frozenset((clf.ids[k], 0) for k, sh in zip(unturned, share)
                                          if sh < self.start_twin_share or clf.look[k] == clf.look[j0])
        return self._start_twins

    def _start_inner(self) -> tuple[np.ndarray, float]:
        """The start tile's template without its outer ring of START_RING_PX pixels, and its norm: an
        enrolment crop a pixel off puts tile border or mat in that ring, which must not steer the grid."""
        if self._start_template is None:
            j0 = self.classifier.ids.index(self.catalog.start)
            r = START_RING_PX
            t = centre_lightness(np.array(self.classifier.templates[j0][r:TILE_PX - r, r:TILE_PX - r]))
            self._start_template = (t, float(np.linalg.norm(t)))
        return self._start_template

    def _turned_start(self, turn: float, size: tuple[int, int]) -> tuple[np.ndarray, float, tuple[np.ndarray, ...]]:
        """The start tile's template turned clockwise by ``turn`` degrees about the tile's centre and moved by
        half a pixel right and down (:data:`START_SHIFT_PX`), without its outer ring of START_RING_PX pixels, and
        its norm. The ring: an enrolment crop a pixel off puts tile border or mat in it, which must not steer the
        grid. The half pixel: every turn, none included, is then interpolated alike (each pixel a blend of about
        four), so the turns compare fairly; unshifted, the unturned template alone stays sharp and the smoothed
        turned ones match a camera's soft picture better (the tile came out 1 degree off either way). Kept per
        turn (a few dozen quarter and half degrees). Up to 6 degrees the inner square stays within the template.
        Also the conjugate of its Fourier transform on an image of ``size`` (rows, columns), channels apart: the
        correlation with an image of that size is the inverse transform of the product (no wrap-around at the
        places where the template lies wholly inside the image)."""
        hit = self._start_templates.get((turn, size))
        if hit is None:
            j0 = self.classifier.ids.index(self.catalog.start)
            c = (TILE_PX - 1) / 2.0
            m = cv2.getRotationMatrix2D((c, c), -turn, 1.0)
            m[:, 2] += START_SHIFT_PX
            t = cv2.warpAffine(self.classifier.templates[j0], m, (TILE_PX, TILE_PX), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)
            r = START_RING_PX
            t = centre_lightness(np.array(t[r:TILE_PX - r, r:TILE_PX - r]))
            conj = np.conj(np.fft.rfft2(t, s=size, axes=(0, 1)))
            # each channel's plane in contiguous memory: the products summed channel by channel (numpy's order)
            # instead of reduced over a three-wide last axis, ten times slower
            planes = tuple(np.ascontiguousarray(conj[..., c]) for c in range(conj.shape[2]))
            hit = self._start_templates[(turn, size)] = (t, float(np.linalg.norm(t)), planes)
        return hit

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
                gc = self._in_light(GridSampler().sample(frame, to_frame, None, g, 0, 0, 1, 1, TILE_PX, MARGIN_PX))
                feat = to_features(gc.image)
                res = _match_map(feat, t, norm)[lo:lo + 2 * reach + 1, lo:lo + 2 * reach + 1]
                _, s, _, (lx, ly) = cv2.minMaxLoc(res)
                if s > best[0]:
                    dx, dy = (lx - reach) / TILE_PX, (ly - reach) / TILE_PX
                    centre = g.mat_from_grid() @ np.array([dx, dy, 1.0])
                    best = (s, Grid((float(centre[0]), float(centre[1])), g.angle_deg, self.pitch))
        a = best[1].angle_deg % 360.0
        return best[0], Grid(best[1].origin_mm, a - 360.0 if a > 315.0 else a, self.pitch)

    def _prescore_start(self, frame: np.ndarray, to_frame: MapFn, guess: Grid,
                        rounds: Sequence[tuple[float, float]] = ((4.5, 1.5), (1.0, 0.5)),
                        reach: int = MARGIN_PX) -> tuple[float, Grid]:
        """:meth:`_refine_start` done cheaply, to rank the places the start tile may lie at and to tell whether it
        is clearly seen there: the cell is sampled once, square to ``guess``, and each turn is tried by turning
        the start tile's template (:meth:`_turned_start`, kept) instead of sampling the frame again, one warp and
        one colour conversion per place instead of one per turn (issue 14: the full search at all 10 places was
        a third of a from-scratch reading; now it runs only where the start tile is clearly seen). Scores and
        places come out within about 0.02, a millimetre and a degree (two turns) of the full search's."""
        r = START_RING_PX
        lo = MARGIN_PX + r - reach
        gc = self._in_light(GridSampler().sample(frame, to_frame, None, guess, 0, 0, 1, 1, TILE_PX, MARGIN_PX))
        image = to_features(gc.image)
        side = TILE_PX - 2 * r
        _, spread = _match_stats(image, side)
        # every turn's correlation through one transform of the cell (the turned templates' are kept)
        spectrum = np.fft.rfft2(image, axes=(0, 1))
        spectra = [np.ascontiguousarray(spectrum[..., c]) for c in range(spectrum.shape[2])]
        h, w = image.shape[:2]
        best: tuple[float, float, int, int, np.ndarray | None] = (-2.0, 0.0, 0, 0, None)   # score, turn, place, map
        tried: set[float] = set()
        window = (slice(lo, lo + 2 * reach + 1), slice(lo, lo + 2 * reach + 1))
        spread_here = spread[window]
        for _round, (span, step) in enumerate(rounds):
            base = best[1] if _round else 0.0
            turns = []
            for da in np.arange(-span, span + 1e-6, step):
                turn = round(base + float(da), 6)
                if turn in tried:
                    continue          # the same turn again (each round's middle): the same score, not better
                tried.add(turn)
                turns.append(turn)
            if not turns:
                continue
            # the round's turns through one stacked inverse transform (each turn's the same as alone), only the
            # searched window divided by the spread
            kept = [self._turned_start(turn, (h, w)) for turn in turns]
            product = spectra[0] * np.stack([k[2][0] for k in kept])
            for c in range(1, len(spectra)):
                product += spectra[c] * np.stack([k[2][c] for k in kept])   # (the channels' products summed in
                #                                                            order, as .sum(axis=2))
            nums = np.fft.irfft2(product, s=(h, w), axes=(1, 2))
            for turn, (t, norm, _), num in zip(turns, kept, nums):
                res = (num[:h - side + 1, :w - side + 1][window] / (spread_here * norm)).astype(np.float32)
                _, s, _, (lx, ly) = cv2.minMaxLoc(res)
                if s > best[0]:
                    best = (s, turn, lx, ly, res)
        s, turn, lx, ly, res = best
        # the place to a fraction of a pixel (a parabola through the best and its neighbours, each way): the
        # templates lie half a pixel off the canvas's pixels, and a place on whole pixels would stay that far off
        fx, fy = float(lx), float(ly)
        if res is not None:
            if 0 < lx < res.shape[1] - 1:
                fx += _peak_offset(res[ly, lx - 1], res[ly, lx], res[ly, lx + 1])
            if 0 < ly < res.shape[0] - 1:
                fy += _peak_offset(res[ly - 1, lx], res[ly, lx], res[ly + 1, lx])
        shift = reach - START_SHIFT_PX             # the template's tile centre lies half a pixel right and down
        centre = guess.mat_from_grid() @ np.array([(fx - shift) / TILE_PX, (fy - shift) / TILE_PX, 1.0])
        a = (guess.angle_deg + turn) % 360.0
        return s, Grid((float(centre[0]), float(centre[1])), a - 360.0 if a > 315.0 else a, self.pitch)

    # ------------------------------------------------------------------ cells

    def _signatures(self, frame: np.ndarray, to_frame: MapFn, key: Any, grid: Grid, cells: Sequence[Cell],
                    side_px: float) -> tuple[GridCanvas, dict[Cell, np.ndarray]]:
        """The cells in view at SIG_SAMPLE pixels per cell (enough to tell empty cells from occupied ones)
        and a small colour thumbnail per cell (SIG_PX x SIG_PX), to tell which cells changed.

        Every cell in view is sampled on every reading, so this is done cheaply: the frame shrunk by
        whole pixel blocks (area average) to about SIG_SAMPLE pixels per cell side, sampled at SIG_SAMPLE
        pixels per cell, then averaged down to SIG_PX: each thumbnail pixel still averages the whole
        patch of the frame under it (sensor noise stays out of the comparison)."""
        r = max(1, int(side_px // SIG_SAMPLE))
        h, w = frame.shape[:2]
        small = frame if r == 1 else cv2.resize(frame[:h - h % r, :w - w % r], (w // r, h // r),
                                                interpolation=cv2.INTER_AREA)

        def to_small(pts: np.ndarray) -> np.ndarray:
            return (to_frame(pts) - (r - 1) / 2.0) / r

        x0, y0, nx, ny = cell_bounds(cells)
        gc = self.sig_sampler.sample(small, to_small, None if key is None else (key, r), grid, x0, y0, nx, ny,
                                     SIG_SAMPLE, 0)
        thumbs = cv2.resize(gc.image, (nx * SIG_PX, ny * SIG_PX), interpolation=cv2.INTER_AREA).astype(np.float32)
        out = {}
        for x, y in cells:
            r0, c0 = (y - y0) * SIG_PX, (x - x0) * SIG_PX
            out[(x, y)] = thumbs[r0:r0 + SIG_PX, c0:c0 + SIG_PX]
        return gc, out

    def _changed(self, cells: Sequence[Cell], sigs: Mapping[Cell, np.ndarray], previous: Observation) -> list[Cell]:
        """The cells whose thumbnail moved by more than :attr:`Thresholds.signature_change` somewhere (after
        removing the cell's mean change: light), or that have none from before."""
        known = [c for c in cells if c in previous.signatures]
        out = set(cells) - set(known)
        if known:
            d = np.stack([sigs[c] for c in known]) - np.stack([previous.signatures[c] for c in known])
            d -= d.mean(axis=(1, 2), keepdims=True)
            moved = np.abs(d).sum(axis=3).max(axis=(1, 2)) > self.thresholds.signature_change
            out.update(c for c, m in zip(known, moved) if m)
        return [c for c in cells if c in out]

    def mat_colour(self, frame: np.ndarray, to_frame: MapFn, key: Any = None) -> np.ndarray:
        """BGR colour of the bare mat (median of its margin strips), cached per mapping key."""
        if key is None or self._mat_key != key or self._mat_bgr is None:
            px = mat_margin_pixels(frame, to_frame, self.mat.play_rect_mm,
                                   min(12.0, self.mat.play_origin_mm[0] / 2, self.mat.play_origin_mm[1] / 2))
            self._mat_bgr = np.median(px.astype(np.float32), axis=0)
            self._mat_key = key
            self._white_bgr = self._paper_white(frame, to_frame)
        return self._mat_bgr

    def _paper_white(self, frame: np.ndarray, to_frame: MapFn) -> np.ndarray | None:
        """BGR of the markers' white quiet zone, or None when too little of it is in view
        (:func:`vision.colourcast.paper_white`)."""
        return paper_white(frame, to_frame, self.mat)

    def _balance(self, gc: GridCanvas, mat_bgr: np.ndarray) -> GridCanvas:
        """Scale the canvas's colour channels so the mat looks as it did at enrolment (white balance, exposure)."""
        gains = self._gains(mat_bgr)
        if np.all(np.abs(gains - 1.0) < 0.01):
            return gc
        img = cv2.multiply(gc.image, np.array([*gains, 0.0]), dtype=cv2.CV_8U) if gc.image.dtype == np.uint8 else \
            np.clip(gc.image * gains, 0, 255).astype(gc.image.dtype)
        return GridCanvas(img, gc.x0, gc.y0, gc.nx, gc.ny, gc.px, gc.margin)

    white_balance = True
    """Correct each frame's colour balance against the mat colour seen at enrolment."""

    neutral_light = False
    """... and read in neutral light: references, player colours and frames turned by the gains that make the
    enrolment's paper white grey (when the enrolment measured it, ``refs.meta["white_bgr"]``). Off: on Südsee's
    field camera at ``hard`` it moved tiles right from 95.7 to 98.4 % at seed 1 and from 97.8 to 96.9 % at seed 2
    (docs/vision.md, "Südsee on the field camera"); not measured on Neues Land."""

    def _in_light(self, gc: GridCanvas) -> GridCanvas:
        """``gc`` balanced as :meth:`_balance` does, by the mat colour last measured (the start search samples
        the frame cell by cell; it compared them with the references unbalanced, right only while the frame's
        light was the enrolment's: a magenta cast, or references in neutral light, lost the start tile)."""
        return gc if self._mat_bgr is None else self._balance(gc, self._mat_bgr)

    def _occupied(self, gc: GridCanvas, cells: Sequence[Cell], mat_bgr: np.ndarray, table_bgr: np.ndarray | None,
                  play: frozenset[Cell], sigs: Mapping[Cell, np.ndarray], bare: Mapping[Cell, np.ndarray]
                  ) -> tuple[dict[Cell, bool | None], dict[Cell, float]]:
        """Which of ``cells`` hold something: ``True`` (a tile: classify it), ``False`` (empty) or ``None``
        (beyond the play area something that is not the table: a tile only if its picture says so); and the
        cells of the play area neither clearly empty nor clearly a tile (:attr:`Thresholds.occupied_unsure`
        to :attr:`Thresholds.occupied_share` of them unlike the mat), with that share: they are classified,
        and a tile only when one matches well.

        A cell is empty when it looks as it did when it was last read empty (``bare``: any background, a
        patterned cloth too), or when most of its inner part has the colour of the bare mat. On the play
        area anything else is a tile. Beyond it the table may show anything (the mat's edge and markers,
        wood, a cup), so the classifier's score decides (:attr:`Thresholds.tile_min_score`) for a cell that
        changed since it was last empty; one never seen empty (the first reading) is first screened by the
        colour of the table around the mat (a tile there is unlike both the mat and the table: wood is not
        screened again once its look is known, so a brown island laid on it still counts).
        """
        unsure: dict[Cell, float] = {}
        if not cells:
            return {}, unsure
        looks_bare = {c: c in bare and self._same_look(sigs[c], bare[c]) for c in cells}
        rest = [c for c in cells if not looks_bare[c]]
        out: dict[Cell, bool | None] = {c: False for c in cells if looks_bare[c]}
        if not rest:
            return out, unsure
        inset = round(gc.px / 6)
        offs = np.arange(inset, gc.px - inset, max(1, gc.px // 24))
        tops = np.array([gc.margin + (y - gc.y0) * gc.px for _, y in rest])
        lefts = np.array([gc.margin + (x - gc.x0) * gc.px for x, _ in rest])
        rows = (tops[:, None] + offs[None, :])[:, :, None]
        cols = (lefts[:, None] + offs[None, :])[:, None, :]
        lab = bgr_to_lab(gc.image[rows, cols])                               # (n, k, k, 3)
        not_bg = self._far_from(lab, mat_bgr)
        shares_mat = not_bg.mean(axis=(1, 2))
        if table_bgr is not None:
            not_bg &= self._far_from(lab, table_bgr)
        shares = not_bg.mean(axis=(1, 2))
        limit = self.thresholds.occupied_share
        for c, on_mat, anywhere in zip(rest, shares_mat, shares):
            if c in play:
                out[c] = bool(on_mat > limit)
                if self.thresholds.occupied_unsure < on_mat <= limit:
                    unsure[c] = float(1.0 - on_mat)
            elif c in bare:
                out[c] = None  # unlike the last time it was empty: whatever the colours, ask the tiles
            else:
                out[c] = None if anywhere > limit else False
        return out, unsure

    def _far_from(self, lab: np.ndarray, bgr: np.ndarray) -> np.ndarray:
        """Pixels (Lab) unlike the colour ``bgr`` (lightness weighs half: shading on cloth or wood)."""
        d = lab - bgr_to_lab(np.asarray(bgr, np.float32))
        d[..., 0] *= 0.5
        return norm3(d) > self.thresholds.mat_distance

    def _same_look(self, sig: np.ndarray, ref: np.ndarray) -> bool:
        """Two signatures of a cell that show the same thing (sensor noise and a little light apart)."""
        return float(np.abs(sig - ref).sum(axis=2).max()) <= self.thresholds.signature_change

    def table_colour(self, frame: np.ndarray, to_frame: MapFn, key: Any = None) -> np.ndarray | None:
        """BGR colour of the table around the mat (median of strips just outside the mat's edges), cached
        per mapping key; ``None`` when the camera sees too little of it."""
        if key is None or self._table_key != key:
            try:
                px = mat_margin_pixels(frame, to_frame, (0.0, 0.0, self.mat.width_mm, self.mat.height_mm),
                                       self.table_strip_mm)
                self._table_bgr = np.median(px.astype(np.float32), axis=0)
            except VisionError:
                self._table_bgr = None
            self._table_key = key
        return self._table_bgr

    table_strip_mm = 15.0
    """The table's colour is sampled this far outside the mat's edges."""

    def _keep_previous(self, fc: FeatureCanvas, cells: Sequence[Cell], previous: Observation | None
                       ) -> tuple[dict[Cell, TileGuess], list[Cell]]:
        """Changed cells whose earlier tile still matches (a figure was added) keep it. A cell that had a
        figure is read afresh: its tile was read with part of it covered, and between look-alike tiles
        (a town more or less) the part under the figure may be the difference, which shows once the
        figure has left (telling whether it left by the colours there was worse: a town's roof is red)."""
        if previous is None:
            return {}, list(cells)
        kept: dict[Cell, TileGuess] = {}
        rest = []
        clf = self.classifier
        had_figure = {(f.x, f.y) for f in previous.figures}
        for cell in cells:
            old = previous.tiles.get(cell)
            if old is None or cell in had_figure:
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

    figure_reach_mm = 16.0
    """Figures are looked for on a tile and this far around it, on the neighbouring tiles' references: a figure
    standing near its tile's edge leans over the seam in the picture (see :mod:`vision.standing`), by its foot
    (up to 8 mm) and its lean (a 17 mm figure 350 mm from the nadir of a camera 680 mm up, the benchmark's
    widest: 9 mm) less how far inside it stands (3 mm or more)."""

    def _figures_near(self, fc: FeatureCanvas, tiles: Mapping[Cell, TileGuess], cell: Cell,
                      nadir: tuple[float, float] | None, fitted: dict[Any, Any]
                      ) -> list[tuple[FigureSeen, bool, tuple[float, float], frozenset]]:
        """Figures seen on the tile at ``cell`` and up to :attr:`figure_reach_mm` around it, each on the tile
        it stands on: its base (the end of its picture nearest the camera's nadir, ``nadir`` in grid
        coordinates, see :mod:`vision.standing`), which may lie on a neighbouring tile. Around the tile the
        picture is compared with the neighbouring tiles' references where they lie (where no tile lies, with
        the picture itself: nothing is found there). Returns ``(figure, clipped, (gx, gy), pixels)``: clipped when
        the picture runs off the window (part of it may lie beyond), ``gx, gy`` where it stands in grid coordinates,
        ``pixels`` the picture's pixels on the grid at the figures' scale. ``fitted``: what windows of this
        canvas share (the tiles' references fitted to their light so far, the canvas at the figures' scale)."""
        assert self.figures is not None
        mm = self.classifier.mm_per_px
        s = self.figure_scale
        reach = int(round(self.figure_reach_mm / mm))
        h, w = fc.bgr.shape[:2]
        small = self._small(fc, fitted)

        def place(t: TileGuess) -> tuple[int, int]:
            key = ("place", t.x, t.y)      # the same in every window of the canvas (issue 14, CPU)
            if key not in fitted:
                top, left = fc.top_left(t.x, t.y)
                ox, oy = self._seat(fc, tiles, t, fitted)
                fitted[key] = (top + int(round(oy / mm)), left + int(round(ox / mm)))
            return fitted[key]

        ty, tx = place(tiles[cell])
        y0, x0 = max(ty - reach, 0) // s * s, max(tx - reach, 0) // s * s
        y1, x1 = min(ty + TILE_PX + reach, h // s * s), min(tx + TILE_PX + reach, w // s * s)
        y1, x1 = y0 + (y1 - y0) // s * s, x0 + (x1 - x0) // s * s
        ref = fc.bgr[y0:y1, x0:x1].copy()
        placed: list[tuple[TileGuess, int, int]] = []
        for dx, dy in ((0, 0), (-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)):
            t = tiles.get((cell[0] + dx, cell[1] + dy))
            if t is not None:
                py, px = place(t)
                placed.append((t, py - y0, px - x0))

        def light_of(t: TileGuess, py: int, px: int) -> tuple[np.ndarray, np.ndarray] | None:
            """The reference's gain and offset per channel that put it in the light the tile is seen in, fitted on
            the tile where this canvas shows at least half of it (a window's own fit, mostly mat or one tile,
            cannot fit a neighbour seen in another light or cast); None where it shows less."""
            key = ("light", t.x, t.y)
            if key not in fitted:
                im = np.rot90(self._ref_bgr[self.refs.index_of(t.tile)], -(t.rotation // 90))
                ta, tb = max(py + y0, 0), min(py + y0 + TILE_PX, h)
                tc, td = max(px + x0, 0), min(px + x0 + TILE_PX, w)
                fitted[key] = None
                if tb - ta >= TILE_PX // 2 and td - tc >= TILE_PX // 2:
                    part = (slice(ta - py - y0, tb - py - y0, 3), slice(tc - px - x0, td - px - x0, 3))
                    fitted[key] = _gain_of(fc.bgr[ta:tb:3, tc:td:3].astype(np.float32),
                                           im[part].astype(np.float32))
            return fitted[key]

        own = light_of(*placed[0])
        seams = np.zeros(ref.shape[:2], bool)
        known = np.zeros(ref.shape[:2], bool)
        # the tile's outer pixels (3 of them): where a tile laid by hand meets the next one, or its reference's crop
        # took in a pixel of border, the picture is a little off its reference
        ring = _SEAM_RING
        # the neighbours first, the tile itself last (on top where hand-laid tiles overlap by a pixel); a neighbour
        # the canvas shows too little of (a canvas of one changed cell) in the tile's own light
        for t, py, px in placed[1:] + placed[:1]:
            a, b = max(py, 0), min(py + TILE_PX, y1 - y0)
            c, d = max(px, 0), min(px + TILE_PX, x1 - x0)
            if a >= b or c >= d:
                continue
            light = light_of(t, py, px)
            # the reference in its light, as the window holds it (uint8), made once per tile and canvas
            lit_key = ("lit", t.x, t.y) if light is not None else ("lit", t.x, t.y, "in the light of", cell)
            lit = fitted.get(lit_key)
            if lit is None:
                light = light or own
                lit = np.rot90(self._ref_bgr[self.refs.index_of(t.tile)], -(t.rotation // 90))
                if light is not None:
                    lit = np.clip(lit.astype(np.float32) * light[0] + light[1], 0, 255).astype(np.uint8)
                fitted[lit_key] = lit
            ref[a:b, c:d] = lit[a - py:b - py, c - px:d - px]
            known[a:b, c:d] = True
            seams[a:b, c:d] |= ring[a - py:b - py, c - px:d - px]
        # where no tile lies, the bare mat: its colour there, not the picture itself. A figure standing at a tile's
        # edge beside the bare mat leans over it, away from the nadir; compared with itself that part of its picture
        # was not seen, and the rest put its base on the tile's inner region (Neues Land field/hard photoscore
        # table 8: a blue figure on M:E named on G:NSW) or was too small to be a figure (a green one on a Suedsee
        # sea, never seen)
        mat = fitted.get("mat")
        if mat is not None and not known.all():
            window = fc.bgr[y0:y1, x0:x1]
            grid = fitted.get("grid")
            if grid is not None and "on mat" not in fitted:
                # where the whole canvas shows the mat, made once (each pixel's own test, as for a window alone)
                fitted["on mat"] = self._on_mat(fc, grid, slice(0, h), slice(0, w))
            bare = ~known if grid is None else ~known & fitted["on mat"][y0:y1, x0:x1]
            if bare.any():
                ref[bare] = self._mat_here(window, bare, mat)
        # the window at the figures' scale: the canvas's pixels (s x s blocks averaged) and their colours
        win = (slice(y0 // s, y1 // s), slice(x0 // s, x1 // s))
        obs = small[0][win]
        nearest = (small[1][0][win], small[1][1][win])
        if s > 1:
            ref = cv2.resize(ref, ((x1 - x0) // s, (y1 - y0) // s), interpolation=cv2.INTER_AREA)
            seams, known = _any_of_blocks(seams, s), ~_any_of_blocks(~known, s)
        # the nadir in the small window's pixel coordinates (pixel centres at integers)
        nadir_px = None
        if nadir is not None:
            col = fc.margin + (nadir[0] - fc.x0 + 0.5) * TILE_PX
            row = fc.margin + (nadir[1] - fc.y0 + 0.5) * TILE_PX
            nadir_px = ((col - x0) / s - 0.5, (row - y0) / s - 0.5)
        # the camera's height in the units of the figure's (mm): the lean is a ratio, the same in pixels
        camera_h = float(nadir[2]) if self.base_from_middle and nadir is not None and len(nadir) > 2 else None
        out = []
        feet: list[np.ndarray] = []
        pictures: list[np.ndarray] = []
        small_tile = TILE_PX // s
        sightings = self.figures.find(obs, ref, mm * s, feet, fit=False, nearest=nearest, seams=seams, known=known,
                                      pictures=pictures)
        for i, ((colour, _, _, conf, area), foot) in enumerate(zip(sightings, feet)):
            bx, by, clipped = standing_point(foot, nadir_px, FOOT_MM / (mm * s), camera_h)
            # the base in canvas pixels (pixel edges at integers), then on the tile that holds it
            X, Y = x0 + (bx + 0.5) * s, y0 + (by + 0.5) * s
            best, best_out = None, float("inf")
            for t, py, px in placed:
                u, v = (X - x0 - px) / TILE_PX, (Y - y0 - py) / TILE_PX
                outside = max(-u, u - 1.0, -v, v - 1.0, 0.0)
                if outside < best_out:
                    best, best_out = (t, u, v), outside
            if best is None or best_out * self.pitch > self.figure_off_tile_mm:
                continue            # it stands on no tile read (the mat, or a tile beyond the window)
            t, u, v = best
            u, v = min(max(u, 0.0), 0.999), min(max(v, 0.0), 0.999)
            region = None
            if self.geometry is not None:
                if nadir_px is None:
                    # where the picture is all one knows: the figure's pixels on its tile
                    py, px = next((py, px) for tt, py, px in placed if tt is t)
                    mask = np.zeros((small_tile, small_tile), bool)
                    ys, xs = np.nonzero(foot)
                    ys, xs = ys - py // s, xs - px // s
                    keep = (ys >= 0) & (ys < small_tile) & (xs >= 0) & (xs < small_tile)
                    mask[ys[keep], xs[keep]] = True
                else:
                    mask = np.zeros(0, bool)
                try:
                    if mask.any():
                        region = self.region_under(t.tile, t.rotation, mask)
                    else:
                        # the figure's base: the point where it stands, and a disc the size of its foot around it
                        region = self.region_at_base(t.tile, t.rotation, u, v)
                except VisionError:
                    region = None
            gx = fc.x0 - 0.5 + (X - fc.margin) / TILE_PX
            gy = fc.y0 - 0.5 + (Y - fc.margin) / TILE_PX
            # the picture's pixels on the grid at the figures' scale (the same in every window and canvas)
            ys, xs = np.nonzero(pictures[i])
            px_grid = (xs + (x0 - fc.margin) // s + fc.x0 * small_tile, ys + (y0 - fc.margin) // s + fc.y0 * small_tile)
            pixels = frozenset(zip(px_grid[0].tolist(), px_grid[1].tolist()))
            out.append((FigureSeen(t.x, t.y, colour, region, float(u), float(v), conf, area), clipped, (gx, gy),
                        pixels))
        return out

    seat_mm = 4.0
    """A tile whose offset from its cell, as read, differs from its sure neighbours' median offset by more than this
    (mm, either axis) is placed for the figure search where its reference fits the picture best, as read or at the
    neighbours' offset on that axis (a pixel either way). Tiles laid by hand lie up to 2.4 mm off the lattice (``hard``) and the lattice the grid was
    fitted to bends smoothly, so neighbours agree to a few millimetres; a figure over a tile's edge pulled the reading
    6-9 mm off (Neues Land field/default photoscore table 8, Suedsee sim/hard table 6): its reference then lay beside the
    picture, the whole tile misfit and the figure was under the bar, or was placed on the next tile."""

    def _seat(self, fc: FeatureCanvas, tiles: Mapping[Cell, TileGuess], t: TileGuess, fitted: dict[Any, Any]
              ) -> tuple[float, float]:
        """The offset (mm, x and y) of tile ``t`` from its cell for the figure search (see :attr:`seat_mm`); kept
        in ``fitted``."""
        key = ("seat", t.x, t.y)
        if key in fitted:
            return fitted[key]
        fitted[key] = own = (float(t.offset_mm[0]), float(t.offset_mm[1]))
        near = [n.offset_mm for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)
                for n in [tiles.get((t.x + dx, t.y + dy))] if n is not None and n.confidence >= 0.5]
        if len(near) < 2:
            return own
        median = np.median(np.asarray(near, np.float64), axis=0)
        if np.abs(np.asarray(own) - median).max() <= self.seat_mm:
            return own
        mm = self.classifier.mm_per_px
        im = np.rot90(self._ref_bgr[self.refs.index_of(t.tile)], -(t.rotation // 90)).astype(np.float32)
        top, left = fc.top_left(t.x, t.y)
        h, w = fc.bgr.shape[:2]

        def misfit(off: tuple[float, float]) -> float:
            y, x = top + int(round(off[1] / mm)), left + int(round(off[0] / mm))
            a, b, c, d = max(y, 0), min(y + TILE_PX, h), max(x, 0), min(x + TILE_PX, w)
            if b - a < TILE_PX // 2 or d - c < TILE_PX // 2:
                return float("inf")
            obs = fc.bgr[a:b:2, c:d:2].astype(np.float32)
            ref = im[a - y:b - y:2, c - x:d - x:2]
            gain, offset = _gain_of(obs, ref)
            err = np.sort(np.abs(obs - (ref * gain + offset)).sum(axis=2), axis=None)
            return float(err[:int(0.85 * len(err))].mean())   # the worst 15 %: a figure on it, not the tile's fit

        # the neighbours' offset on the axis that disagrees (the other one as read: a tile's art can pin it to a
        # millimetre), and a pixel either way on both axes around that
        base = [m if abs(o - m) > self.seat_mm else o for o, m in zip(own, median)]
        best, best_misfit = own, misfit(own)
        for dx in (-mm, 0.0, mm):
            for dy in (-mm, 0.0, mm):
                trial = (float(base[0] + dx), float(base[1] + dy))
                e = misfit(trial)
                if e < best_misfit:
                    best, best_misfit = trial, e
        if best != own:
            fitted[key] = best
            log.debug("cell (%d, %d): placed at %s for the figure search, read at %s", t.x, t.y, best, own)
        return fitted[key]

    def _on_mat(self, fc: FeatureCanvas, grid: Grid, rows: slice, cols: slice) -> np.ndarray:
        """Where the canvas's ``rows`` x ``cols`` show the mat (each pixel's centre, through the grid, inside the
        mat's edges; a figure's window, made only where some of it is bare): where no
        tile lies, the bare mat is the figures' reference there, and the picture itself beyond (the table's wood
        past the mat's edge, where tiles may be laid too: a figure on such a tile was lost against the mat's
        colour, tests/vision/test_coverage.py)."""
        m = grid.mat_from_grid()
        gx = fc.x0 + (np.arange(cols.start, cols.stop, dtype=np.float64) + 0.5 - fc.margin) / TILE_PX - 0.5
        gy = fc.y0 + (np.arange(rows.start, rows.stop, dtype=np.float64) + 0.5 - fc.margin) / TILE_PX - 0.5
        x = m[0, 0] * gx[None, :] + m[0, 1] * gy[:, None] + m[0, 2]
        y = m[1, 0] * gx[None, :] + m[1, 1] * gy[:, None] + m[1, 2]
        return (x >= 0) & (x <= self.mat.width_mm) & (y >= 0) & (y <= self.mat.height_mm)

    def _mat_here(self, window: np.ndarray, bare: np.ndarray, mat_bgr: np.ndarray) -> np.ndarray:
        """The bare mat's colour (BGR) in ``window`` where no tile lies (``bare``): the median of those of its pixels
        that look like the mat (within :attr:`Thresholds.mat_distance` of ``mat_bgr``, the frame's mat colour in the
        canvas: a dim corner or a lamp's gradient makes the mat differ across the table), else ``mat_bgr``."""
        raw = window[bare]
        px = raw.astype(np.float32)
        mat = np.asarray(mat_bgr, np.float32).reshape(3)
        if len(px) >= 20:
            d = np.linalg.norm(_weighted(bgr_to_lab(px)) - _weighted(bgr_to_lab(mat)), axis=-1)
            close = d < self.thresholds.mat_distance
            if np.count_nonzero(close) >= 20:
                if raw.dtype == np.uint8:
                    return _median_u8(raw[close])      # np.median's value, by counting (issue 14, CPU)
                return np.median(px[close], axis=0)
        return mat

    def _figure_pass(self, fc: FeatureCanvas, group: Sequence[Cell], spots: np.ndarray | None,
                     tiles: Mapping[Cell, TileGuess], nadir: tuple[float, float] | None, halved: Any = None,
                     mat_bgr: np.ndarray | None = None, grid: Grid | None = None
                     ) -> dict[Cell, list[tuple[FigureSeen, bool, tuple[float, float], frozenset]]]:
        """The figures seen around each cell of ``group`` on one canvas (see :meth:`_figures_near`), per cell
        whose window they were seen in. ``halved``: :meth:`_halved` of the canvas, when made already (the covered
        mask's): at the figures' scale of 2 it is the canvas :meth:`_small` would make. ``mat_bgr``: the bare
        mat's colour in the canvas (None: unknown), ``grid`` the canvas's grid on the mat (where it shows the mat,
        :meth:`_on_mat`)."""
        fitted: dict[Any, Any] = {"mat": mat_bgr, "grid": grid}
        if halved is not None and self.figure_scale == 2:
            fitted["small"] = (halved[0], halved[2])
            fitted["small lab"] = halved[1]
        out: dict[Cell, list[tuple[FigureSeen, bool, tuple[float, float], frozenset]]] = {}
        looked: list[Cell] = []
        # on a canvas of many cells, first one loose search for figure-sized blobs over the whole canvas at the
        # figures' scale: a window that holds none of them is not built (issue 14, CPU; :meth:`_figure_possible`)
        possible = None
        read = [c for c in group if c in tiles]
        if self.figure_gate and len(read) >= self.figure_gate_cells and not self.figures.report_unknown:
            self._fit_lights(fc, tiles, read, fitted)
            possible = self._figure_possible(fc, tiles, read, fitted)
        for c in group:
            out[c] = []
            if c not in tiles or (possible is not None and c not in possible):
                continue
            # look closely only where something of a player's colour stands out and the tile
            # does not explain all of the cell
            top, left = fc.top_left(*c)
            m = fc.margin // 2
            spotted = spots is None or spots[top - m:top + TILE_PX + m, left - m:left + TILE_PX + m].any()
            if ((spotted and self.classifier.unexplained(fc, tiles[c]) >= self.thresholds.figure_hint)
                    or self._unlike_its_tile(fc, tiles[c], fitted)):
                looked.append(c)
        self._fit_lights(fc, tiles, looked, fitted)
        for c in looked:
            out[c] = self._figures_near(fc, tiles, c, nadir, fitted)
        return out

    figure_gate = True
    """Look for figures (:meth:`_figures_near`) only around cells whose window holds some of a figure-sized blob that
    the figure finder, with looser bars, finds on the whole canvas at once (:meth:`_figure_possible`)."""
    figure_gate_cells = 4
    """... on canvases of at least this many cells read (a few changed cells are looked at as before)."""
    figure_gate_share = 0.8
    """The gate's finder: the figure finder with this share of its bars (the B+G+R and colour misfits, absolute and
    as factors of the median, the strong pixels a blob needs, its least area)."""

    def _figure_possible(self, fc: FeatureCanvas, tiles: Mapping[Cell, TileGuess], cells: Sequence[Cell],
                         fitted: dict[Any, Any]) -> set[Cell]:
        """The cells of ``cells`` whose figure window (:meth:`_figures_near`: the tile and :attr:`figure_reach_mm`
        around it, as read or where it is seated, two pixels more) holds a pixel of a blob that the figure finder,
        its bars lowered to :attr:`figure_gate_share` and before any blob is judged
        (:meth:`FigureFinder.blob_mask`), finds on the whole canvas at the figures' scale against one reference:
        every tile read there in its light (``fitted``, :meth:`_fit_lights`) where it was read, the mat's colour
        elsewhere (the picture itself where that is unknown). A window's own reference differs from it only where
        tiles meet or lie a little elsewhere, and where the bare mat is shaded: the lower bars take that in. One
        search over the canvas costs about what three windows do; on a full board 30 of 55 windows held nothing
        (issue 14, CPU)."""
        assert self.figures is not None
        s = self.figure_scale
        mm = self.classifier.mm_per_px
        n = TILE_PX // s
        half, (idx, dist) = self._small(fc, fitted)
        hh, ww = half.shape[:2]
        mat = fitted.get("mat")
        if mat is None:
            ref = half.astype(np.float32)
        else:
            ref = np.empty(half.shape, np.float32)
            ref[:] = np.asarray(mat, np.float32).reshape(3)
        known = np.zeros((hh, ww), bool)
        for t in tiles.values():
            top, left = fc.top_left(t.x, t.y)
            ty = (top + int(round(t.offset_mm[1] / mm))) // s
            tx = (left + int(round(t.offset_mm[0] / mm))) // s
            a, b, c, d = max(ty, 0), min(ty + n, hh), max(tx, 0), min(tx + n, ww)
            if a >= b or c >= d:
                continue
            key = (t.tile, t.rotation)
            im = self._ref_small.get(key)
            if im is None:
                im = self._ref_small[key] = cv2.resize(
                    np.rot90(self._ref_bgr[self.refs.index_of(t.tile)], -(t.rotation // 90)), (n, n),
                    interpolation=cv2.INTER_AREA).astype(np.float32)
            light = fitted.get(("light", t.x, t.y))
            part = im[a - ty:b - ty, c - tx:d - tx]
            ref[a:b, c:d] = part if light is None else np.clip(part * light[0] + light[1], 0, 255)
            known[a:b, c:d] = True
        f = self.figure_gate_share
        fig = self.figures
        loose = replace(fig, residual_threshold=f * fig.residual_threshold, chroma_threshold=f * fig.chroma_threshold,
                        residual_factor=f * fig.residual_factor, chroma_factor=f * fig.chroma_factor,
                        coloured_factor=f * fig.coloured_factor, min_strong_px=max(int(fig.min_strong_px * f), 2),
                        min_area_mm2=f * fig.min_area_mm2)
        blobs = loose.blob_mask(half, ref, mm * s, (idx, dist), known, fitted.get("small lab"))
        sums = cv2.integral(blobs.astype(np.uint8))
        reach = int(round(self.figure_reach_mm / mm)) + 2 * s
        out: set[Cell] = set()
        for cell in cells:
            t = tiles[cell]
            top, left = fc.top_left(*cell)
            seat = self._seat(fc, tiles, t, fitted)
            oy, ox = (t.offset_mm[1], seat[1]), (t.offset_mm[0], seat[0])
            y0 = max((top + int(round(min(oy) / mm)) - reach) // s, 0)
            x0 = max((left + int(round(min(ox) / mm)) - reach) // s, 0)
            y1 = min((top + int(round(max(oy) / mm)) + TILE_PX + reach) // s + 1, hh)
            x1 = min((left + int(round(max(ox) / mm)) + TILE_PX + reach) // s + 1, ww)
            if y1 > y0 and x1 > x0 and sums[y1, x1] - sums[y0, x1] - sums[y1, x0] + sums[y0, x0] > 0:
                out.add(cell)
        return out

    def _fit_lights(self, fc: FeatureCanvas, tiles: Mapping[Cell, TileGuess], cells: Sequence[Cell],
                    fitted: dict[Any, Any]) -> None:
        """The light of every tile that the windows around ``cells`` hold, each wholly on the canvas, fitted at once
        (:func:`vision.pieces.gains_of_many`, the same to the bit as :meth:`_figures_near`'s one at a time, which
        fits the others): kept in ``fitted`` under the key :meth:`_figures_near` looks for."""
        if len(cells) < 2:
            return
        mm = self.classifier.mm_per_px
        h, w = fc.bgr.shape[:2]
        obs, refs, keys = [], [], []
        for c in {(x + dx, y + dy) for x, y in cells for dx in (-1, 0, 1) for dy in (-1, 0, 1)}:
            t = tiles.get(c)
            if t is None or ("light", t.x, t.y) in fitted:
                continue
            top, left = fc.top_left(t.x, t.y)
            ta, tc = top + int(round(t.offset_mm[1] / mm)), left + int(round(t.offset_mm[0] / mm))
            if ta < 0 or tc < 0 or ta + TILE_PX > h or tc + TILE_PX > w:
                continue
            im = np.rot90(self._ref_bgr[self.refs.index_of(t.tile)], -(t.rotation // 90))
            obs.append(fc.bgr[ta:ta + TILE_PX:3, tc:tc + TILE_PX:3])
            refs.append(im[::3, ::3])
            keys.append(("light", t.x, t.y))
        if not keys:
            return
        gains, offsets = gains_of_many(np.stack(obs), np.stack(refs))
        for key, g, o in zip(keys, gains, offsets):
            fitted[key] = (g, o)

    base_from_middle = True
    """Place a figure's base along the lean from its picture's near end plus half a foot and its picture's middle taken
    back by the lean of its middle height, each weighed by how far it can err (:func:`vision.standing.standing_point`
    with the camera's height). On since session nlfig3 (issue 14): on the bench's Neues Land field/hard rows at 12
    boards a row, seeds 1 and 2, the base's error along the lean spread 1.1-1.8 mm (sd) against 1.6-2.2 with the near
    end alone, and three figures named on another region or the next tile were right (docs/vision.md, Measured,
    "Whole boards on both cameras"); off before, when 5 boards a row could not tell the gain."""

    reread_covered = True
    """Read a marked guess under a figure again by its colours, the figure left out (:mod:`vision.undercover`)."""

    reread_flat = True
    """... and a marked guess with no figure on it too (issue 14, session nlfig3): a flat tile (ds083 all sea, ds024,
    ds031) in a strong cast and heavy noise has so little texture that the tile pass's correlation is near noise with
    nothing on it either (the bench's Neues Land field/hard: ds083 read as ds059, half plain, at confidence 0.00); its
    colours tell it at once."""

    def _reread_covered(self, fc: FeatureCanvas, group: Sequence[Cell], tiles: dict[Cell, TileGuess],
                        found: Sequence[tuple[FigureSeen, bool, tuple[float, float], frozenset]]) -> list[Cell]:
        """Tiles of ``group`` read as a marked guess (confidence below :data:`undercover.MAX_CONFIDENCE`, no
        hidden twin) where a figure's picture (one of ``found``) lies, or anywhere with :attr:`reread_flat`: read again by colour with the pictures and
        the covered mask near them left out (:func:`vision.undercover.reread`); ``tiles`` updated. Returns the
        cells changed."""
        if not self.reread_covered:
            return []
        limit = max(undercover.MAX_CONFIDENCE, undercover.MAX_CONFIDENCE_UNDER_FIGURE)
        doubtful = [c for c in group if c in tiles and tiles[c].confidence < limit and not tiles[c].hidden_twins]
        if not doubtful:
            return []
        s = self.figure_scale
        small_tile = TILE_PX // s
        h, w = fc.bgr.shape[:2]
        pictures = np.zeros((h, w), bool)
        for _, _, _, pixels in found:
            for gx, gy in pixels:
                col = (gx - fc.x0 * small_tile) * s + fc.margin
                row = (gy - fc.y0 * small_tile) * s + fc.margin
                if 0 <= row < h and 0 <= col < w:
                    pictures[row:row + s, col:col + s] = True
        mm = self.classifier.mm_per_px
        # what to leave out: the figures' pictures, grown by their rim, and the covered mask (shadows) near them
        # only: a patch of the tile's own art in a player's colour that no figure was found in stays in (it is what
        # tells ds044's plain wedge from all sea)
        occ = fc.occlusion(0)
        reach = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * int(6 / mm) + 1,) * 2)
        near = cv2.dilate(pictures.astype(np.uint8), reach).astype(bool)
        hidden = undercover.visible_mask((h, w), None if occ is None else np.where(near, occ, 0.0), [pictures],
                                         int(round(1.5 / mm)))
        changed = []
        for c in doubtful:
            top, left = fc.top_left(*c)
            if (tiles[c].confidence >= undercover.MAX_CONFIDENCE
                    and not pictures[max(top, 0):top + TILE_PX, max(left, 0):left + TILE_PX].any()):
                continue        # between the two bounds only under a figure (undercover.MAX_CONFIDENCE_UNDER_FIGURE)
            if not self.reread_flat and not pictures[top:top + TILE_PX, left:left + TILE_PX].any():
                continue        # no figure's picture on it
            sure = []
            for dx in (-2, -1, 0, 1, 2):
                for dy in (-2, -1, 0, 1, 2):
                    t = tiles.get((c[0] + dx, c[1] + dy))
                    if t is None or (dx, dy) == (0, 0) or t.confidence < 0.5 or t.hidden_twins:
                        continue
                    tt, tl = fc.top_left(t.x, t.y)
                    im = np.rot90(self._ref_bgr[self.refs.index_of(t.tile)], -(t.rotation // 90))
                    sure.append((im, tt + int(round(t.offset_mm[1] / mm)), tl + int(round(t.offset_mm[0] / mm))))
            light = undercover.light_from(fc.bgr, sure, ~hidden)
            if light is None:
                continue
            new = undercover.reread(fc.bgr, self._ref_bgr, self.refs.tile_ids, tiles[c], top, left, mm, hidden,
                                    light)
            if (new.tile, new.rotation) != (tiles[c].tile, tiles[c].rotation):
                log.debug("cell %s: %s r%d read again by colour under a figure: %s r%d", c, tiles[c].tile,
                          tiles[c].rotation, new.tile, new.rotation)
                tiles[c] = new
                changed.append(c)
        return changed

    figure_off_tile_mm = 3.0
    """A figure whose base is found up to this far outside every tile read is on the nearest one (the base is
    found to a few millimetres); further out it stands on no tile and is not reported."""

    shapes_folder: str | Path | None = None
    """The set's scans (``<tile id>.png``), where the regions' true shapes are learnt (sharp, in the tile's frame, the
    same under every camera); None: the folder the references name (``meta["shapes"]``, or the scans they were
    enrolled from), else the enrolled references themselves (:func:`vision.regionmap.maps_for_set`)."""

    @property
    def regions(self) -> RegionMaps | None:
        """The true shapes of the set's regions, learnt from the set's scans where known, else from the enrolled
        references (:mod:`vision.regionmap`)."""
        if self._regions is None and self.geometry is not None:
            self._regions = maps_for_set(self.geometry, self.refs, self.shapes_folder)
            for t in self._regions.images:    # all at once (about 15 ms a tile), not in the middle of a game's frame
                self._regions.map(t)
        return self._regions

    def region_at_base(self, tile: str, rotation: int, u: float, v: float) -> str:
        """The region a figure whose base was found at ``(u, v)`` (fractions of the tile as it lies) stands on
        (:meth:`vision.regionmap.RegionMaps.region_at_base`, a foot of :data:`FOOT_MM` around it)."""
        assert self.regions is not None
        return self.regions.region_at_base(tile, rotation, u, v, FOOT_MM / self.pitch)[0]

    def region_under(self, tile: str, rotation: int, footprint: np.ndarray) -> str:
        """The region a figure stands on: where most of what is seen of it (``footprint``, a mask over the tile
        as it lies) falls on the region's true shape. A figure is about 16 mm across: on a narrow spike or
        beside a bay one point of it can fall on the next region."""
        assert self.regions is not None
        return self.regions.region_under(tile, rotation, footprint)[0]


_SEAM_RING = np.ones((TILE_PX, TILE_PX), bool)
_SEAM_RING[3:TILE_PX - 3, 3:TILE_PX - 3] = False
"""A tile's outer 3 pixels (where the figure finder's weak pixels are not taken, see ``Recognizer._figures_near``)."""


def _lit_top_rings(labels: np.ndarray, stats: np.ndarray, area: np.ndarray, longest: np.ndarray, lo: float,
                   longest_mm: float, mm: float, lab: np.ndarray, paint_lab: Sequence[float]) -> np.ndarray:
    """Which components (rows of ``stats``; ``labels`` their map, ``lab`` the picture's Lab there) are a figure
    whose lit top reads off its colour: short of ``lo`` square millimetres by their pixels, not by their footprint
    (the pixels' convex hull), and what the hull holds besides them of the paint's own hue (``paint_lab``), at
    least as strong. A glossy figure's top, lit, is lighter and more saturated than its calibrated colour, beyond
    the colour distance at half resolution: what is left of it in its colour is a ring or a crescent. The whole
    Neues Land game on the scans (tests/live/test_e2e.py) asked the phone about ds033 at (0, 2): its red figure,
    once the grid was found 0.9 mm nearer the truth (session ``sfield4``), read as a crescent of 39 mm2 (its top
    Lab (119, 183, 162) against the paint's (94, 166, 152)) and a piece of 14 mm2, and was not left out of the
    tile's scores. A stroke of the colour's hue around art of another hue (a red reef's edge around sea or sand)
    is not one; a colour without a hue (black) has no lit top to tell; pieces are never merged; only components
    of at least half ``lo`` and no longer than ``longest_mm`` are looked at."""
    out = np.zeros(len(stats), bool)
    paint = np.asarray(paint_lab, np.float32)[1:] - 128.0
    strength = float(np.hypot(*paint))
    if strength < 15.0:
        return out
    cand = np.flatnonzero((area < lo) & (area >= lo / 2) & (longest <= longest_mm))
    for k in cand[cand > 0]:
        x, y, w, h = (int(v) for v in stats[k, :4])
        mine = labels[y:y + h, x:x + w] == k
        ys, xs = np.nonzero(mine)
        hull = cv2.convexHull(np.stack([xs, ys], axis=1).astype(np.int32))
        box = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(box, hull, 1)
        if float(box.sum()) * mm * mm < lo:
            continue
        inside = (box > 0) & ~mine
        if not inside.any():
            continue
        top = np.median(lab[y:y + h, x:x + w][inside].reshape(-1, 3), axis=0)[1:] - 128.0
        out[k] = float(top @ paint) >= 0.9 * strength * max(float(np.hypot(*top)), 1e-3) and \
            float(np.hypot(*top)) >= 0.8 * strength
    return out


def _median_u8(values: np.ndarray) -> np.ndarray:
    """``np.median(values.astype(np.float32), axis=0)`` of 8-bit rows (n, channels), the same float32 values, found by
    counting each channel's 256 levels instead of sorting (a figure's window's bare mat: thousands of pixels, a
    hundred windows a reading)."""
    n = len(values)
    out = np.empty(values.shape[1], np.float32)
    for c in range(values.shape[1]):
        cum = np.cumsum(np.bincount(values[:, c], minlength=256))
        lo = int(np.searchsorted(cum, (n - 1) // 2, side="right"))
        hi = int(np.searchsorted(cum, n // 2, side="right"))
        out[c] = np.float32(lo + hi) / np.float32(2.0)
    return out


def _any_of_blocks(mask: np.ndarray, s: int) -> np.ndarray:
    """Whether any pixel of each ``s`` x ``s`` block of ``mask`` (a boolean image, sides multiples of ``s``) is set:
    the s * s pixel lattices or-ed together (a reshape and ``any`` over two axes cost more on windows this small)."""
    out = mask[0::s, 0::s].copy()
    for i in range(s):
        for j in range(s):
            if i or j:
                out |= mask[i::s, j::s]
    return out


def _apart_from_figures(labels: np.ndarray, figure: np.ndarray, reach_px: int) -> np.ndarray:
    """Per covered piece (``labels`` 1..n of a cell, ``figure`` per piece: a figure stands there), whether it lies
    more than ``reach_px`` pixels from every figure piece: neither that figure's shadow nor its lean (the classifier
    keeps ``TileClassifier.verify_clear`` pixels clear around anything covered for just those), so a piece there
    that a twin's art explains is the art. With the grid fitted to a full table's tiles (``Recognizer.fit_found_grid``)
    a band of plain sand on Südsee's M, 7 mm from the red figure on its sea, split off as a compact figure-coloured
    piece and hid M's glyph: M was read as its twin N1 (``tests/vision/test_recognize.py``'s Südsee board, the same
    on OpenCV 4.11 and 5 with that grid)."""
    n = int(labels.max())
    out = np.zeros(n, bool)
    if n == 0:
        return out
    ids = 1 + np.nonzero(figure)[0]
    if ids.size == 0:
        return np.ones(n, bool)
    far = cv2.distanceTransform((~np.isin(labels, ids)).astype(np.uint8), cv2.DIST_L2, 5)
    for k in range(1, n + 1):
        if not figure[k - 1]:
            out[k - 1] = float(far[labels == k].min()) > reach_px
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


OUTLINE_PX = 2 * TILE_PX
"""Pixels per cell side at which :func:`_outline_turn` samples the start tile: finer than a 1920x1080
frame's 1.4 px per mm of the mat, so the sampling adds no steps of its own to the edges."""


def _outline_turn(frame: np.ndarray, to_frame: MapFn, g: Grid, reach: int = 8, trim: int = 12,
                  pieces: int = 6, min_sides: int = 3) -> float | None:
    """How far (degrees) the tile in cell (0, 0) is turned against ``g``, from the slopes of its four
    sides: each side (its corners, ``trim`` pixels, left out) is cut into ``pieces``; in each, the edge
    strength averaged along the piece peaks where the side crosses it (found to a fraction of a pixel
    within ``reach`` pixels of where the cell has the side), and a straight line fitted through those
    places gives the side's slope. Averaging along a piece first keeps the art and the noise beside the
    edge from pulling single pixels off. None when fewer than ``min_sides`` sides show a clear line."""
    m = 2 * MARGIN_PX
    one = GridSampler().sample(frame, to_frame, None, g, 0, 0, 1, 1, OUTLINE_PX, m)
    grey = cv2.cvtColor(np.ascontiguousarray(one.image), cv2.COLOR_BGR2GRAY).astype(np.float32)
    n = (OUTLINE_PX - 2 * trim) // pieces
    mid = m + trim + n * np.arange(pieces) + (n - 1) / 2.0                # each piece's middle, along the side
    slopes = []
    for grad, sign in ((np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)), 1.0),           # top, bottom
                       (np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)).T, -1.0)):      # left, right
        for at in (m, m + OUTLINE_PX):
            band = grad[at - reach:at + reach + 1, m + trim:m + trim + n * pieces]   # rows across the side
            prof = band.reshape(band.shape[0], pieces, n).mean(axis=2)              # per piece
            k = np.clip(np.argmax(prof, axis=0), 1, prof.shape[0] - 2)
            cols = np.arange(pieces)
            lo, top, hi = prof[k - 1, cols], prof[k, cols], prof[k + 1, cols]
            curve = lo - 2 * top + hi
            where = k + np.where(curve < 0, 0.5 * (lo - hi) / np.minimum(curve, -1e-6), 0.0)
            if top.min() < 2.0 * np.median(prof):
                continue  # a piece without a clear edge: art or a hand there, not the tile's side
            fit, res, *_ = np.polyfit(mid, where, 1, full=True)
            if res.size and math.sqrt(float(res[0]) / pieces) > 0.5:
                continue  # not straight
            slopes.append(sign * math.degrees(math.atan(float(fit[0]))))
    if len(slopes) < min_sides:
        return None
    return float(np.mean(slopes))


def _grid_moved(a: Grid, b: Grid, rect_mm: tuple[float, float, float, float]) -> float:
    """How far (mm) the two grids put the corners of the play area's cells apart, at most."""
    x, y, w, h = rect_mm
    worst = 0.0
    for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
        gx, gy = a.grid_from_mat(px, py)
        bx, by = b.cell_centre_mm(gx, gy)
        worst = max(worst, math.hypot(bx - px, by - py))
    return worst


def _peak_offset(left: float, mid: float, right: float) -> float:
    """Where (pixels, -0.5..0.5) the top of a parabola through three neighbouring values lies from the middle one,
    the largest of them."""
    curve = float(left) - 2.0 * float(mid) + float(right)
    return float(np.clip(0.5 * (float(left) - float(right)) / curve, -0.5, 0.5)) if curve < 0 else 0.0


def _match_stats(image: np.ndarray, side: int) -> tuple[np.ndarray, np.ndarray]:
    """Per position of a ``side`` x ``side`` template on ``image``: the sum of lightness under it and the spread of
    the features there (lightness centred), which :func:`_match_map` divides by; once for several templates."""
    il = cv2.integral(np.ascontiguousarray(image[..., 0]), sdepth=cv2.CV_64F)
    isq = cv2.integral(sum_of_squares(image), sdepth=cv2.CV_64F)
    s1 = il[side:, side:] - il[:-side, side:] - il[side:, :-side] + il[:-side, :-side]
    s2 = isq[side:, side:] - isq[:-side, side:] - isq[side:, :-side] + isq[:-side, :-side]
    return s1, np.sqrt(np.maximum(s2 - s1 * s1 / (side * side), 1e-3))


def _match_map(image: np.ndarray, template: np.ndarray, norm: float | None = None) -> np.ndarray:
    """Correlation map like :meth:`FeatureCanvas.scores` (lightness centred per position) over a whole image."""
    th, tw = template.shape[:2]
    num = cv2.matchTemplate(image, template, cv2.TM_CCORR)
    il = cv2.integral(np.ascontiguousarray(image[..., 0]), sdepth=cv2.CV_64F)
    isq = cv2.integral(sum_of_squares(image), sdepth=cv2.CV_64F)
    s1 = il[th:, tw:] - il[:-th, tw:] - il[th:, :-tw] + il[:-th, :-tw]
    s2 = isq[th:, tw:] - isq[:-th, tw:] - isq[th:, :-tw] + isq[:-th, :-tw]
    den = np.sqrt(np.maximum(s2 - s1 * s1 / (th * tw), 1e-3)) * (norm if norm is not None else
                                                                 float(np.linalg.norm(template)))
    return (num / den).astype(np.float32)


def _check_image(frame: np.ndarray) -> None:
    if frame is None or not hasattr(frame, "shape") or frame.ndim != 3 or frame.shape[2] != 3 or frame.size == 0:
        raise VisionError(T("frame: expected a colour (BGR) image"))


# --------------------------------------------------------------------------- set-up helpers


_MOVED = {"default_catalog_path", "load_recognizer", "TrackerRecognizer", "for_tracker"}


def __getattr__(name: str) -> Any:
    """The recognisers made ready for use moved to :mod:`vision.loader` (which imports this module, not the
    other way round); their old names here still work."""
    if name in _MOVED:
        from . import loader

        return getattr(loader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
