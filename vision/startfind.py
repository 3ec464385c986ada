"""Finding the start tile: where cell (0, 0) is and which way is north (part of :class:`vision.recognize.Recognizer`).

The start tile is searched once on the play area at a quarter of the tiles' resolution (:data:`START_FACTOR`), its
best places refined at full resolution (:meth:`StartFinding._refine_start`), and the grid it fixes squared up to the
tiles' outlines (:meth:`StartFinding._squared_up`). :class:`NoStartTile` says why when it is not found.
"""
from __future__ import annotations

import logging
import math
from typing import Any, Sequence

import cv2
import numpy as np

from tablehub.i18n import T  # what a phone reads (tablehub/locale/*/vision.po)

from . import VisionError
from .pieces import bgr_to_lab, norm3
from .sampling import GridSampler, MapFn
from .tiles import MARGIN_PX, TILE_PX, FeatureCanvas, Grid, GridCanvas, centre_lightness, sum_of_squares, to_features

log = logging.getLogger(__name__)

START_FACTOR = 4
"""The start tile is first searched at TILE_PX / START_FACTOR pixels per tile."""
START_RING_PX = 3
"""Refining the start tile's place and angle leaves out this ring of its reference (see ``_start_inner``)."""
START_SHIFT_PX = 0.5
"""The start tile's turned templates are moved by this (pixels, right and down) so that all are interpolated alike."""

class NoStartTile(VisionError):
    """The start tile is not visible on the play area."""


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


class StartFinding:
    """The start-tile search of :class:`vision.recognize.Recognizer` (a part of it: it uses the recogniser's
    classifier, mat, references and thresholds)."""

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
    start_read_among_tiles = True
    """Among other tiles, a place read as the start tile itself, clear but for its twins, is taken when no place is
    clear (:meth:`_is_start`); False: the whole play area is read on the lattice of the tiles' edges and the start
    tile taken where it is read, as before (issue 14, CPU: every Südsee board from scratch was read twice so)."""

    def _is_start(self, frame: np.ndarray, to_frame: MapFn, grid: Grid) -> int:
        """2: cell (0, 0) of ``grid`` shows the start tile unturned, clearly; 1: the start tile or one of its
        twins (:meth:`_start_and_twins`), clearly, but not which: lying alone (the game's first frame), any of
        them; among other tiles, read as the start tile itself (as the lattice's reading would take it); 0:
        neither."""
        raw = GridSampler().sample(frame, to_frame, None, grid, -1, -1, 3, 3, TILE_PX, MARGIN_PX)
        gc = self._in_light(raw)
        # only a reading as the start tile or a twin of it counts here: no twin contest where none can end on one
        guess = self.classifier.classify_for(FeatureCanvas(gc), [(0, 0)], self._start_and_twin_templates())[0]
        if guess.tile == self.catalog.start and guess.rotation == 0 and guess.confidence >= 0.8:
            return 2
        if not self._clear_but_for_twins(guess):
            return 0    # alone or not (below), not clear: whether it lies alone is asked only where that decides
            # (0.7 ms a place, and Südsee's twins keep all ten places classified; issue 14, CPU)
        if ((guess.tile != self.catalog.start or not self.start_read_among_tiles)
                and not (self._mat_bgr is not None and self._alone(raw, self._mat_bgr))):
            return 0    # among other tiles the lattice of all their edges gives the grid better than one picture
        # the start tile's twins unturned (its picture but for a detail: Südsee's D1 and D2, a glyph apart) lie at
        # the same place and turn, and a blurred frame cannot tell them apart: the place is clear when the best
        # *other* picture is far behind (else the lone start tile of a first frame was taken from the lattice of
        # its own edges, 3 degrees off on the field camera at hard, and every cell six out was misread). Among
        # other tiles a place read as the start tile itself, clear but for its twins, is what the fallback (every
        # cell of the lattice read, the start tile taken where it is read) would find: there it spares reading the
        # whole play area twice (issue 14, CPU: every Südsee board from scratch, the start tile at 0.50-0.52
        # against D1 and D2)
        return 1

    def _clear_but_for_twins(self, guess: Any) -> int:
        """1 when ``guess`` is the start tile or one of its twins, unturned, and the best picture other than
        those is far behind (confidence 0.8); else 0."""
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

    def _start_and_twin_templates(self) -> frozenset[int]:
        """:meth:`_start_and_twins` as the classifier's template indices."""
        clf = self.classifier
        return frozenset(clf._index(tile, rotation) for tile, rotation in self._start_and_twins())

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
