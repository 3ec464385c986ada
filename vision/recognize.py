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

The recogniser is one class in four modules: this one holds the pipeline and the tile reading;
:mod:`vision.startfind` the start tile's search, :mod:`vision.occupancy` which cells hold a tile
and which changed, :mod:`vision.figurereading` the figures and what they cover.
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
from .colourcast import apply_gains, lab_under_gains, neutral_gains
from .cputime import StageClock
from .geometry import TileGeometry
from .mat import Mat
from .pieces import FigureFinder, FigureSeen, PlayerColours, bgr_to_lab, norm3
from .refs import ReferenceSet
from .regionmap import RegionMaps
from .standing import camera_nadir
from .figurereading import FigureReading, _apart_from_figures, _one_each, _one_each_standing
from .occupancy import CellOccupancy
from .sampling import (Cell, GridSampler, MapFn, cell_bounds, canvas_mapping, cell_side_px, cells_in_view,
                       outline_strength)
from .startfind import StartFinding
from .tiles import (TILE_PX, CatalogInfo, Constraints, FeatureCanvas, Grid, GridCanvas, TileClassifier, TileGuess,
                    settle_hidden)

log = logging.getLogger(__name__)


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


class Recognizer(StartFinding, CellOccupancy, FigureReading):
    """Frame -> :class:`Observation` for one tile game, one reference set, one mat.

    This class holds the pipeline (:meth:`observe` and :meth:`_read`) and the tile reading; its three other parts
    live in their own modules: the start tile's search (:class:`vision.startfind.StartFinding`), which cells hold
    a tile and which changed (:class:`vision.occupancy.CellOccupancy`), and the figures and what they cover
    (:class:`vision.figurereading.FigureReading`)."""

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
        prefitted = found and self.fit_found_grid and self.prefit_found_grid
        if prefitted:
            grid = self._prefit(frame, to_frame, key, grid, from_frame)
            self.clock.lap("fit")
        obs = self._read(frame, to_frame, key, grid, previous, constraints, figures, from_frame, known, nadir_mm)
        if previous is None and (self.fit_grid or (found and self.fit_found_grid)):
            # tiles are laid against their neighbours, not against the start tile's few degrees: fit the
            # lattice to where the tiles were found, and read again when it moved. After the prefit, on the
            # prefit's evidence: every tile matched clearly, however sure its name (the sure ones alone, a dozen
            # of Südsee's 60, put the lattice 0.15 degrees off the prefit's, itself within 0.04 of the table's, and
            # the board was read twice)
            fitted = fit_grid(grid, obs.tiles.values(), **({"min_confidence": 0.0,
                                                             "min_score": self.classifier.angle_below}
                                                            if prefitted else {}))
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
        mat_bgr = self.mat_colour(frame, to_frame, key)
        fc = FeatureCanvas(self._balance(gc, mat_bgr))
        # every clear tile counts, however sure its name: a twin or a tile alike when turned lies at the same place
        # (Südsee's drawn art: most clear tiles at confidence 0.5-0.6 against their twins, and none fitted); only
        # the cells the reading's own empty test holds for tiles are read (bare olive cloth matched Neues Land's
        # plain ds082 at 0.90, every turn alike, and pulled a first frame's grid 1.6 mm off)
        occupied, _ = self._occupied(gc, cells, mat_bgr, None, play, {}, {})
        tiles = [c for c in cells if occupied.get(c)]
        fitted = fit_grid(grid, self.classifier.clear_guesses(fc, tiles), min_confidence=0.0)
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
        tiles = settle_hidden(tiles, self.catalog.counts, evidence=self._evidence(looked),
                              twins_of=self.classifier.twins_of, known=said)
        self.clock.lap("tiles")
        found: list[tuple[FigureSeen, bool, tuple[float, float], frozenset]] = []
        under: dict[Cell, set] = {}
        if figures and self.figures is not None:
            nadir = None if nadir_mm is None else (*grid.grid_from_mat(*nadir_mm[:2]), *nadir_mm[2:3])
            mat_canvas = mat_bgr * self._gains(mat_bgr)
            for fc, group, spots, halved in looked:
                here = self._figure_pass(fc, group, spots, tiles, nadir, halved, mat_canvas, grid)
                # a marked guess under a figure: read again by its colours with the figure left out (the start
                # tile and the logged tiles kept as the tile pass keeps them), and the figures around it looked for
                # again on what it now holds
                changed = self._reread_covered(fc, group, tiles, [f for fs in here.values() for f in fs])
                changed = self._said_again(fc, changed, tiles, said)
                self._seen_on_twins(fc, group, tiles, here, nadir, halved, mat_canvas, grid)
                changed += self._hidden_again(fc, group, tiles, here, said, changed, under)
                if changed:
                    again = [c for c in group if any(abs(c[0] - x) <= 1 and abs(c[1] - y) <= 1 for x, y in changed)]
                    here.update(self._figure_pass(fc, again, spots, tiles, nadir, halved, mat_canvas, grid, changed))
                found.extend(f for fs in here.values() for f in fs)
        seen = _one_each_standing(seen, found, self.thresholds.figure_apart_mm / self.pitch)
        if nadir_mm is None:
            seen = _one_each(seen, self.thresholds.figure_apart, self.thresholds.figure_edge)
        # twins a neighbour read for sure rules out (a table played by the rules); then a figure on a tile the
        # photo cannot tell from its twins: its region on each where that differs
        seen = self._twins_by_sides(tiles, under, seen)
        seen = [self._on_twins(f, tiles.get((f.x, f.y)), under.get((f.x, f.y), ())) for f in seen]
        self.clock.lap("figures")
        if (0, 0) not in tiles:
            warnings.append(f"the start tile {self.catalog.start} is not seen at (0, 0) any more")
        for t in tiles.values():
            if t.hidden_twins:
                warnings.append(f"cell ({t.x}, {t.y}): {t.tile} r{t.rotation} or "
                                + " or ".join(f"{a} r{b}" for a, b in t.hidden_twins)
                                + ": a figure hides where they differ, or they look too alike here"
                                " (taken: the likelier by the tiles left)")
            elif t.confidence < 0.5:
                warnings.append(f"cell ({t.x}, {t.y}): unsure ({t.tile} r{t.rotation}, score {t.score:.2f}); "
                                f"a tile not in the set, a hand, or bad light?")
        for f in seen:
            if f.on_twins:
                warnings.append(f"cell ({f.x}, {f.y}): the {f.colour} figure stands on {f.region} of the tile taken, "
                                + " or ".join(f"on {g} of {a} r{b}" for a, b, g in f.on_twins)
                                + ": which tile lies there decides it")
        # an empty cell's look now; a tile's cell keeps the look it had when it was last empty
        looks = {c: bare[c] for c in tiles if c in bare}
        looks.update((c, sigs[c]) for c in cells if c not in tiles)
        self.clock.lap("other")
        return Observation(grid, tiles, seen, sigs, list(todo), warnings, in_view, looks)

    def _hidden_again(self, fc: FeatureCanvas, group: Sequence[Cell], tiles: dict[Cell, TileGuess], here: Mapping,
                      said: Mapping[Cell, Any], changed: Sequence[Cell], under: dict[Cell, set] | None = None
                      ) -> list[Cell]:
        """Twins that the found figures' pictures hide (:meth:`FigureReading._hidden_by_figures`): marked guesses.
        Returns the cells whose tile changed (not in ``changed`` already); ``tiles`` updated. The doubts are not
        settled again by the box: with the figures in the covered mask the photo's evidence for every doubtful cell
        changes, and on the bench's Südsee ``field/hard`` rows the tiles settled again lost 0.6 % (R1 and R2 swapped)."""
        before = {c: (t.tile, t.rotation) for c, t in tiles.items()}
        if not self._hidden_by_figures(fc, group, tiles, [f for fs in here.values() for f in fs], said, under):
            return []
        return [c for c, t in tiles.items() if (t.tile, t.rotation) != before.get(c) and c not in changed]

    def _evidence(self, looked: Sequence[tuple[FeatureCanvas, Sequence[Cell], Any, Any]]) -> Any:
        """What the photo says of a doubtful cell's choices (:meth:`TileClassifier.evidence` on the canvas that
        holds the cell), for :func:`vision.tiles.settle_hidden`; None for a cell on none (kept from before)."""
        canvas_of = {c: fc for fc, group, *_ in looked for c in group}

        def evidence(guess: TileGuess, options: Sequence[tuple[str, int]]) -> list[float | None] | None:
            fc = canvas_of.get((guess.x, guess.y))
            return None if fc is None else self.classifier.evidence(fc, guess, options)
        return evidence

    def _canvases(self, frame: np.ndarray, to_frame: MapFn, key: Any, grid: Grid, cells: Sequence[Cell],
                  incremental: bool) -> list[tuple[GridCanvas, list[Cell]]]:
        """Grid canvases (TILE_PX per cell) for the cells to classify: one per cell for a few changed cells,
        else one over the rectangle that holds each group of cells near each other (:attr:`canvas_gap`; the bare
        table around them is not sampled)."""
        if not cells:
            return []
        if incremental and len(cells) <= self.few_cells:
            return [(GridSampler().sample(frame, to_frame, None, grid, x, y, 1, 1), [(x, y)]) for x, y in cells]
        groups = _apart(cells, self.canvas_gap)
        if sum(nx * ny for *_, nx, ny in map(cell_bounds, groups)) >= math.prod(cell_bounds(cells)[2:]):
            groups = [list(cells)]      # apart, but their rectangles overlap: one canvas samples less
        main = max(range(len(groups)), key=lambda i: len(groups[i]))
        return [((self.sampler if i == main else GridSampler()).sample(frame, to_frame, key, grid, *cell_bounds(group)),
                 group) for i, group in enumerate(groups)]

    canvas_gap = 3
    """Cells to read that lie more than this many cells (along a row, a column or a diagonal) from every other are
    read on a canvas of their own, not on one rectangle with the rest: beyond the play area the field camera's cloth
    made a cell worth a look 14 cells from the tiles (the bench's Südsee ``field/hard`` full board, seed 1), and the
    one canvas over all of them was 22 x 20 cells where the tiles' is 11 x 11: 3.5 times the pixels sampled, balanced,
    turned into features and searched for figures' colours and blobs (issue 14, CPU). Cells this near share a canvas,
    so a tile and every cell its figure windows, twin contests and light look at lie on one (with the canvas's margin
    of :data:`MARGIN_PX` around them, as around the play area's tiles)."""

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

    def _said_again(self, fc: FeatureCanvas, changed: list[Cell], tiles: dict[Cell, TileGuess],
                    said: Mapping[Cell, Sequence[Any]]) -> list[Cell]:
        """Of the ``changed`` cells (read again by their colours under a figure, :meth:`_reread_covered`), those
        whose new tile stands: where the start tile (cell (0, 0)) or the game's log says which tile lies
        (``said``), the tile pass's rule holds again (:meth:`_prefer`: the said tile unless another fits clearly
        better by block scores); ``tiles`` updated. The colour re-reading compares whole references at whole-pixel
        shifts, and a reference enrolled a degree turned misfits more than a glyph weighs: the start tile read at
        (0, 0) on the table's own lattice became its twin D1 (its picture less the fish glyph: misfit 16.7 against
        21.1, the frame's floor 20.0), and the photo score found no start tile at (0, 0) (Südsee sim/default table
        8)."""
        kept = []
        for c in changed:
            name = said.get(c)
            if name is not None and (tiles[c].tile, tiles[c].rotation) != tuple(name):
                margin = self.thresholds.start_keep_margin if c == (0, 0) else self.thresholds.known_margin
                tiles[c] = self._prefer(fc, tiles[c], tuple(name), margin)
                if (tiles[c].tile, tiles[c].rotation) == tuple(name):
                    log.debug("cell %s: %s r%s kept against the colour re-reading", c, *name)
                    continue
            kept.append(c)
        return kept

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

        # the logged turn of a tile that plays the same in the read one (ds083, all sea) is the same answer: the
        # guess's confidence (against the other answers) holds for it; a margin against itself would say nothing
        same = clf.answer[jo] == clf.answer[jg]
        return TileGuess(guess.x, guess.y, other[0], int(other[1]) % 360, float(sc[0]),
                         guess.confidence if same else _confidence(float(sc[0]), float(sc[1])),
                         (Candidate(guess.tile, guess.rotation, float(sc[1])),) + guess.runners_up[:2],
                         (2 * float(dx[0]) * clf.mm_per_px, 2 * float(dy[0]) * clf.mm_per_px), 0.0, True)

    few_cells = 6
    """Up to this many changed cells are examined one by one (no whole-canvas features)."""


def fit_grid(grid: Grid, tiles: Any, min_tiles: int = 6, min_confidence: float = 0.8,
             min_score: float = 0.0) -> Grid | None:
    """The grid turned and shifted (a little) to fit where the confidently read tiles lie (``min_score``: and
    matched at least that well).

    Each tile's offset from its cell centre was measured by the classifier; a least-squares small
    rotation and shift of the lattice explains them. ``None`` with too few tiles to say.
    """
    pts, want = [], []
    for t in tiles:
        if t.confidence < min_confidence or t.score < min_score or t.angle_deg:
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


def _apart(cells: Sequence[Cell], gap: int) -> list[list[Cell]]:
    """``cells`` in groups, each a cluster of cells at most ``gap`` cells apart (along a row, a column or a
    diagonal) from another of its own and further from every other group's; each group in the order of ``cells``,
    the groups in the order of their first cell."""
    x0, y0, nx, ny = cell_bounds(cells)
    xs = np.array([c[0] for c in cells]) - x0 + gap
    ys = np.array([c[1] for c in cells]) - y0 + gap
    marks = np.zeros((ny + 2 * gap, nx + 2 * gap), np.uint8)
    marks[ys, xs] = 1
    # each cell grown by gap - 1 towards the top left: two cells gap apart touch, gap + 1 apart do not
    grown = cv2.dilate(marks, np.ones((gap, gap), np.uint8), anchor=(0, 0))
    _, labels = cv2.connectedComponents(grown, connectivity=8)
    groups: dict[int, list[Cell]] = {}
    for c, label in zip(cells, labels[ys, xs].tolist()):
        groups.setdefault(label, []).append(c)
    return list(groups.values())


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
