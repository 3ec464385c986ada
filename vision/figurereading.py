"""Figures on the tiles: where they stand, their colour, the region they claim, and what they cover (part of
:class:`vision.recognize.Recognizer`).

:meth:`FigureReading._covered` masks the pixels figures may hide (left out when tiles are classified) and the spots
where the figure finder looks; :meth:`FigureReading._figures_near` finds the figures on and around read tiles, seats
them on their tile and gives each its region from the tile's true region shapes (:mod:`vision.regionmap`);
:meth:`FigureReading._reread_covered` reads a tile under a figure again by its colours.
"""
from __future__ import annotations

import logging
import math
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Collection, Mapping, Sequence

import cv2
import numpy as np

from . import VisionError
from .pieces import (LIGHT_ART_VAR, FigureSeen, _gain_of, _weighted, bgr_to_lab, blurred_misfit, colour_misfit,
                     gains_of_many, norm3, shading)
from .regionmap import RegionMaps, maps_for_set
from . import undercover
from .standing import FIGURE_MIDDLE_MM, FOOT_MM, standing_point, touches_edge
from .sampling import Cell, median_u8 as _median_u8
from .tiles import TILE_PX, FeatureCanvas, Grid, TileGuess

log = logging.getLogger(__name__)


BLACK_MIDDLE_SD_MM = 2 * FIGURE_MIDDLE_MM / math.sqrt(12)
"""How far the height whose lean a black figure's picture's middle shows may err (sd, mm): anywhere on the figure's
height (``FigureReading._middle_sd``)."""

FIGURE_CORE_MM2 = 20.0
"""A loose blob of a player colour is a figure's body (``Recognizer._covered``, ``blobs_of(..., core=)``) when at
least this much of it is near the colour's paint (the strict test); the red figures of the whole Neues Land game at
1280x720 hold 35-70."""


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


def _sure(t: TileGuess) -> bool:
    """A tile read for sure: confidence 0.5 or more and no hidden twin."""
    return t.confidence >= 0.5 and not t.hidden_twins


def _tile_holding(placed: Sequence[tuple[Any, int, int]], x: float, y: float) -> tuple[Any, float, float, float] | None:
    """Of the tiles ``placed`` (each ``(tile, top, left)`` in a window's pixels, as seated), the one a base at window
    pixel ``(x, y)`` stands on: ``(tile, u, v, depth)``, ``u, v`` its place in that tile's sides and ``depth`` how
    far inside it lies (tile sides to the nearest edge; negative outside), the deepest. Seated tiles may overlap by
    a few millimetres (each tile's offset is read on its own, to a pixel or two); the seam between two lies in the
    overlap's middle, so a base in it stands on the tile it is deeper inside, whichever window it was seen from
    (before, the window's own tile: a green figure 0.5 mm inside M:W of Neues Land field/hard seed 3 board 9 was
    seen from both windows, 2.5 mm inside its tile and 0.6 mm inside the next, and named on the next)."""
    best = None
    for t, py, px in placed:
        u, v = (x - px) / TILE_PX, (y - py) / TILE_PX
        depth = min(u, 1.0 - u, v, 1.0 - v)
        if best is None or depth > best[3]:
            best = (t, u, v, depth)
    return best


def _one_each_standing(kept: list[FigureSeen], found: list[tuple[FigureSeen, bool, tuple[float, float], frozenset]],
                       apart: float, overlap: float = 0.3, whole_apart: float = 2.0) -> list[FigureSeen]:
    """``kept`` (figures of cells not read again) and the figures ``found`` (each with whether its picture ran
    off the window it was found in, where it stands in grid coordinates and its picture's pixels), one per
    figure: a figure found from two tiles' windows stands at the same place and is the same picture, and no two
    figures stand closer than their feet allow. Of sightings standing less than ``apart`` (tile sides) from each
    other or from a kept figure, or sharing ``overlap`` of the smaller one's picture, the first of whole
    pictures, then the largest, is kept (a picture cut by its window's edge may show only the figure's rim,
    whose colour blends with the tile under it, and stand elsewhere: a lying figure cut in two).

    Two whole pictures (neither cut by its window) that share pixels but stand ``whole_apart`` times ``apart`` (16
    mm: a figure's foot is 16 mm long) or more from each other are two figures: a whole picture is seen whole from
    every window and stands where its near end is, within a few millimetres; but in one window the pictures of two
    figures side by side can join into one blob read as one of them (a black figure's beside a blue one, 18 mm
    apart, read as a blue figure of 267 mm^2), which then took the other's own sighting for a second sighting of
    itself (Neues Land bench sim/hard seed 4 board 7, Südsee field/hard seed 4 board 4)."""
    out = list(kept)
    where: list[tuple[float, float, frozenset, bool]] = [(f.x - 0.5 + f.u, f.y - 0.5 + f.v, frozenset(), False)
                                                         for f in kept]

    def same(gx: float, gy: float, clipped: bool, pixels: frozenset, x: float, y: float, seen: frozenset,
             cut: bool) -> bool:
        d = math.hypot(gx - x, gy - y)
        if d < apart:
            return True
        if not (pixels and seen and len(pixels & seen) >= overlap * min(len(pixels), len(seen))):
            return False
        return clipped or cut or d < whole_apart * apart

    for f, clipped, (gx, gy), pixels in sorted(found, key=lambda item: (item[1], -item[0].area_mm2)):
        if any(same(gx, gy, clipped, pixels, *w) for w in where):
            continue
        out.append(f)
        where.append((gx, gy, pixels, clipped))
    return out


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


UNSURE = 0.5
"""A tile read with less confidence than this is unsure: the recogniser warns about it and the bench counts a wrong one
as marked (a guess the phone settles), not silent."""


TILE_GAP_MM = 4.0
"""Two tiles read side by side whose places (each tile's offset is read on its own, to a pixel or two; a tile laid by
hand lies up to 2.4 mm off its cell) leave a gap between them at most this wide meet there: the gap is no bare mat
beside the tiles (see :func:`_tiles_meet`)."""


def _art_a_pixel_off(obs: np.ndarray, ref: np.ndarray, picture: np.ndarray, bar: float, least: int,
                     seams: np.ndarray | None = None, colour_bar: float | None = None) -> bool:
    """Whether a sighting's ``picture`` (a boolean mask over the window ``obs``, ``ref`` its reference there) is the art
    of the tiles a pixel off where they were read to lie: it holds at least ``least`` pixels whose misfit passes ``bar``
    (the figure finder's strict bar), but fewer than ``least`` (and under a third of them) once the reference may move
    by a pixel either way at each pixel. Tiles laid by hand lie up to 2.4 mm off and 3 degrees turned; each is seated
    by its offset alone, so where two meet their art's edges lie a millimetre or two off the references', and a strip
    of sand there read as a yellow figure (Südsee bench sim/hard seed 5: three phantoms of 74-137 mm2 along seams). A
    figure's paint is no shift of the art around it: moving the art a pixel explains only its rim. ``seams``: where
    tiles meet (a boolean mask like ``picture``); with it, only a picture whose strong pixels all lie within a pixel of
    a seam is judged (a yellow figure on sand beside the sea, its paint near the sand's, had its picture explained so
    and was lost: Südsee field/hard seed 3). ``colour_bar``: the finder's bar on the colour misfit
    (:meth:`FigureFinder.colour_bar`); with it, a pixel over either bar is strong, as the finder takes it, and stays
    so unless one move of the art brings it under both: a strip of the neighbour's yellow plain 3 pixels by 8 where
    the reference has the dark tile edge, the art two small pixels off, had 7 pixels over the B+G+R bar (too few to
    judge) and the rest over the colour bar, and stood as a yellow figure (Neues Land bench sim/hard seed 3 board
    10; issue 14, session nlboards4)."""
    o = obs.astype(np.float32)
    r = ref.astype(np.float32)

    def over(fitted: np.ndarray) -> np.ndarray:
        # the pixels over the finder's bars against ``fitted``
        out = blurred_misfit(o, fitted) > bar
        if colour_bar is not None:
            out |= colour_misfit(o, fitted) > colour_bar
        return out

    strong = picture & over(r)
    n = int(np.count_nonzero(strong))
    if n < least:
        return False
    if seams is not None:
        near_seam = cv2.dilate(seams.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        if (strong & ~near_seam).any():
            return False
    h, w = picture.shape
    pr = cv2.copyMakeBorder(r, 1, 1, 1, 1, cv2.BORDER_REPLICATE)
    left = strong.copy()
    for dy in range(3):
        for dx in range(3):
            left &= over(pr[dy:dy + h, dx:dx + w])
    left = int(np.count_nonzero(left))
    return left < least and 3 * left < n


def _main_body(mask: np.ndarray, nadir_px: tuple[float, float] | None, width_px: float) -> np.ndarray:
    """What of a figure's picture ``mask`` is the figure's body, for its base: the picture less the bits apart from its
    largest 8-connected part that a figure's solid body cannot have beside it. A figure is one body from its foot up,
    no wider across its lean (the line from the camera's nadir, ``nadir_px``) than its arms (``width_px``: and a
    blurred rim pixel each side), leaning away from the nadir from its foot. So, where the largest part holds at least
    half the picture: when the picture is wider than ``width_px`` across the lean and that part is not, that part
    alone; else, where that part holds at least :data:`BODY_SHARE` of it, the bits that lie wholly nearer the nadir
    than its near end (beyond the foot) are left out. Such bits are the art around the figure over the finder's bar by
    a hair: the bar and the art's edges move with a tenth of a pixel of the mat's homography. No nadir: the whole
    picture."""
    if nadir_px is None:
        return mask
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    if n <= 2:
        return mask
    ys, xs = np.nonzero(mask)
    d = np.array([xs.mean() - nadir_px[0], ys.mean() - nadir_px[1]])
    norm = float(np.linalg.norm(d))
    if norm < 1e-6:
        return mask
    d /= norm
    lab = labels[ys, xs]
    along = xs * d[0] + ys * d[1]
    across = -xs * d[1] + ys * d[0]
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    body = lab == biggest
    share = np.count_nonzero(body) / len(xs)
    if share < 0.5:
        return mask

    def width(sel: np.ndarray) -> float:
        return float(across[sel].max() - across[sel].min()) + 1.0

    if width(body) <= width_px < width(np.ones_like(body)):
        return labels == biggest
    if share < BODY_SHARE:
        return mask
    near_end = float(along[body].min())
    keep = mask.copy()
    for k in range(1, n):
        part = lab == k
        if k != biggest and part.any() and float(along[part].max()) < near_end:
            keep[labels == k] = False
    return keep


BODY_SHARE = 2.0 / 3.0
"""The least share of a figure's picture its largest connected part holds for :func:`_main_body` to leave out bits
nearer the nadir than its near end: a figure's picture cut in two by a stripe of art has two parts of a size (a black
figure's 15 pixels in parts of 9 and 6, Südsee ``--legal`` field/hard seed 1 board 4), a strip of art beside a body
is a few pixels against tens (5 against 45, seed 4 board 4)."""


def _tiles_meet(known: np.ndarray, gap_px: int) -> np.ndarray:
    """``known`` (where a tile read lies, a boolean window) with the gaps between two tiles up to ``gap_px`` pixels wide
    filled: the seam where they meet (a closing with a square ``gap_px + 1`` wide, which keeps the outline's corners
    and its edge against the bare mat as they are). The figure finder takes a dark picture over the bare mat for a
    shadow on the cloth, and a blob there hugging the tiles' outline for a tile's edge; in a one-pixel gap left
    between two seated tiles that cut a black figure standing over the seam in two, and neither half was a figure
    (Neues Land bench, sim camera, ``default`` seed 2 board 6: a black figure 3.5 mm inside S:E, 67 mm2 of it kept)."""
    if gap_px < 1 or known.all() or not known.any():
        return known
    k = np.ones((gap_px + 1, gap_px + 1), np.uint8)
    return cv2.morphologyEx(known.astype(np.uint8), cv2.MORPH_CLOSE, k).astype(bool) | known


def _forget_cell(fitted: dict[Any, Any], cell: Cell) -> None:
    """What :meth:`FigureReading._figures_near` kept in ``fitted`` that depends on the tile read in ``cell``: its place,
    seat, light and lit reference, and every neighbour's reference lit in a window's own tile's light (dropped)."""
    for key in [k for k in fitted if isinstance(k, tuple) and (k[1:3] == cell or "in the light of" in k)]:
        del fitted[key]


def _pixel_array(pixels: "frozenset | np.ndarray") -> np.ndarray:
    """A picture's pixels ``(x, y)`` as an ``(n, 2)`` int64 array (a frozenset's in its iteration order); an array
    as it is."""
    if isinstance(pixels, np.ndarray):
        return pixels
    return np.array(list(pixels), np.int64).reshape(-1, 2)


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


def _pictures_on(fc: FeatureCanvas, found: Sequence[tuple[FigureSeen, bool, tuple[float, float], frozenset]], s: int
                 ) -> np.ndarray:
    """The found figures' pictures (as ``FigureReading._figures_near`` gives them, on the grid at the figures' scale
    ``s``) as a boolean mask over the canvas ``fc``."""
    small_tile = TILE_PX // s
    h, w = fc.bgr.shape[:2]
    pictures = np.zeros((h, w), bool)
    at = np.array([p for *_, pixels in found for p in pixels], np.int64).reshape(-1, 2)
    cols = (at[:, 0] - fc.x0 * small_tile) * s + fc.margin
    rows = (at[:, 1] - fc.y0 * small_tile) * s + fc.margin
    inside = (rows >= 0) & (rows < h) & (cols >= 0) & (cols < w)
    rows, cols = rows[inside], cols[inside]
    for dy in range(s):         # each grid pixel is an s x s block on the canvas, cut at its edge
        for dx in range(s):
            keep = (rows + dy < h) & (cols + dx < w)
            pictures[rows[keep] + dy, cols[keep] + dx] = True
    return pictures


def _art_explains(misfit: Callable[..., Any], t: Any, others: Sequence[tuple[str, int]], explains: float,
                  better: float, fits_rest: float) -> tuple[str, int] | None:
    """Of ``others``, the one whose art explains a picture on the cell of ``t`` (``misfit``: what
    :meth:`FigureReading._misfit_of_pictures` gives): it misfits the picture by at most ``explains`` times its own
    misfit over the rest of the tile and ``better`` of the misfit of ``t``'s tile there, and fits that rest within
    ``fits_rest`` of it; of several, the one that fits the rest best. None: none does."""
    on_pic, noise, _, _ = misfit(t.tile, t.rotation, colour=False)     # the colour terms are not used here
    best = None
    for other in others:
        if tuple(other) == (t.tile, t.rotation):
            continue
        o_pic, o_noise, _, _ = misfit(*other, colour=False)
        gone = [k for k in range(len(on_pic))
                if o_pic[k] <= explains * o_noise and o_pic[k] <= better * on_pic[k]]
        if gone and o_noise <= fits_rest * noise and (best is None or o_noise < best[0]):
            best = (o_noise, (str(other[0]), int(other[1])))   # of those that explain a picture, the best-fitting
    return None if best is None else best[1]


class FigureReading:
    """Figure reading of :class:`vision.recognize.Recognizer` (a part of it: it uses the recogniser's classifier,
    colours, mat, references and thresholds)."""

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
        darkest = self.colours.darkest

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
                    out[y:y + h, x:x + w] |= np.take(ok.view(np.uint8), labels)   # ok[labels] as 0/1, twice as fast
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

    spots_by_paint = True
    """Spots (where figures are looked for) also from the pixels within their nearest colour's calibrated spread
    (:meth:`_covered`)."""

    figure_scale = 2
    """Figures are looked for at TILE_PX / figure_scale pixels per tile (a figure is still ~60 pixels)."""

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
                                           im[part].astype(np.float32), self.light_art_var)
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
                # where the whole canvas shows the mat, made once per canvas and grid, whatever pass looks (each
                # pixel's own test, as for a window alone)
                on_mat = fc.kept.get(("on mat", grid))
                if on_mat is None:
                    on_mat = fc.kept[("on mat", grid)] = self._on_mat(fc, grid, slice(0, h), slice(0, w))
                fitted["on mat"] = on_mat
            bare = ~known if grid is None else ~known & fitted["on mat"][y0:y1, x0:x1]
            if bare.any():
                ref[bare] = self._mat_here(window, bare, mat)
        known = _tiles_meet(known, int(round(TILE_GAP_MM / mm)))
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
                                      pictures=pictures, nadir=nadir_px)
        off_bar = self._art_off_bar(obs, ref, known) if self.art_off_rule and sightings else None
        for i, ((colour, _, _, conf, area), foot) in enumerate(zip(sightings, feet)):
            if off_bar is not None and _art_a_pixel_off(obs, ref, pictures[i], off_bar[0], self.figures.min_strong_px,
                                                        seams, off_bar[1]):
                continue            # the art of the tiles here a pixel off where they lie (a seam), no figure
            # the base from the figure's body: bits of the picture apart from it left out (they come and go with a tenth
            # of a pixel of the mat's homography)
            base_foot = foot
            if self.base_from_body:
                base_foot = _main_body(foot, nadir_px, self.figures.figure_width_mm / (mm * s) + 2.0)
            bx, by, clipped = standing_point(base_foot, nadir_px, FOOT_MM / (mm * s), camera_h,
                                             self._middle_sd(colour))
            clipped = clipped or touches_edge(foot)
            # the base in canvas pixels (pixel edges at integers), then on the tile that holds it
            X, Y = x0 + (bx + 0.5) * s, y0 + (by + 0.5) * s
            best = _tile_holding(placed, X - x0, Y - y0)
            if best is None or -best[3] * self.pitch > self.figure_off_tile_mm:
                log.debug("cell %s: a %s figure's base %.1f mm off every tile read: not reported", cell, colour,
                          float("inf") if best is None else -best[3] * self.pitch)
                continue            # it stands on no tile read (the mat, or a tile beyond the window)
            t, u, v, _ = best
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

    base_from_body = True
    """A figure's base is found from the largest connected part of its picture where the picture is wider across its
    lean than a figure's arms (:attr:`FigureFinder.figure_width_mm` and a pixel of blur each side) and that part is
    not (:func:`_main_body`): a black figure below an island's rim had 8 of its 31 pixels in bits on the rim, 2 mm
    from its body, which made its picture 23 mm wide and which a 0.1 px move of the mat's homography took away; its
    base moved 4.6 mm across the rim (Südsee ``--legal`` field/hard seed 4 board 4; issue 14, session suedfig12).
    False: as before."""

    art_off_rule = True
    """A sighting whose strongly differing pixels (B+G+R over the figure finder's strict bar) the references around
    explain once moved by a pixel (at the figures' scale, about 1.9 mm) is no figure (:func:`_art_a_pixel_off`). False:
    as before (issue 14's session suedfig4)."""

    art_off_colour = True
    """:func:`_art_a_pixel_off` judges a sighting's pixels over the finder's colour bar too, as the finder took them
    (:meth:`FigureFinder.colour_bar`), not only those over its B+G+R bar. False: as before (issue 14's session
    nlboards4)."""

    def _art_off_bar(self, obs: np.ndarray, ref: np.ndarray, known: np.ndarray) -> tuple[float, float | None]:
        """The figure finder's strict bar on a window's B+G+R misfit (:attr:`FigureFinder.residual_threshold` and
        :attr:`FigureFinder.residual_factor` times the median misfit where a tile's reference is known), and its bar
        on the colour misfit (:meth:`FigureFinder.colour_bar`; None without :attr:`art_off_colour`)."""
        o, r = obs.astype(np.float32), ref.astype(np.float32)
        colour = self.figures.colour_bar(colour_misfit(o, r), known) if self.art_off_colour else None
        return self.figures.strict_bar(blurred_misfit(o, r), known), colour

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
                     mat_bgr: np.ndarray | None = None, grid: Grid | None = None, must: Collection[Cell] = (),
                     fitted: dict[Any, Any] | None = None
                     ) -> dict[Cell, list[tuple[FigureSeen, bool, tuple[float, float], frozenset]]]:
        """The figures seen around each cell of ``group`` on one canvas (see :meth:`_figures_near`), per cell
        whose window they were seen in. ``halved``: :meth:`_halved` of the canvas, when made already (the covered
        mask's): at the figures' scale of 2 it is the canvas :meth:`_small` would make. ``mat_bgr``: the bare
        mat's colour in the canvas (None: unknown), ``grid`` the canvas's grid on the mat (where it shows the mat,
        :meth:`_on_mat`). ``must``: cells looked at whatever the gates below say (a tile just read again by colour
        because a figure's picture lies on it: on its new art the figure may make no spot, a yellow figure on
        orange roofs joined with the yellow plain around, and was lost). ``fitted``: what an earlier pass on this
        canvas with the same tiles made (:meth:`_figures_near`'s), used and added to (None: made afresh)."""
        fitted = {} if fitted is None else fitted
        fitted.update(mat=mat_bgr, grid=grid)
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
            if c in must and c in tiles:
                looked.append(c)
                continue
            if c not in tiles or (possible is not None and c not in possible):
                continue
            # look closely only where something of a player's colour stands out and the tile
            # does not explain all of the cell
            top, left = fc.top_left(*c)
            m = fc.margin // 2
            spotted = (spots is None or spots[top - m:top + TILE_PX + m, left - m:left + TILE_PX + m].any()
                       or (possible is not None and self.gate_spots))
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
    gate_spots = True
    """Where the gate ran (:meth:`_figure_possible`), a cell it passed needs no spot of a player colour
    (:meth:`_covered`) to be looked at: the gate compares the picture with the art under it, the spots with the player
    colours alone, and a yellow figure on a yellow-green plain under the field camera's warm cast is 13-17 units from
    yellow with the plain around it 15-30 (one blob with the plain, far larger than a figure; none of its pixels within
    yellow's calibrated spread of 9.6): no spot, and the figure was lost though the gate saw it (Neues Land bench
    ``field/hard`` seed 4 board 0). False: a spot needed as before (issue 14, session nlboards3)."""
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
                        min_area_mm2=f * fig.min_area_mm2, toward_factor=f * fig.toward_factor)
        known = _tiles_meet(known, int(round(TILE_GAP_MM / (mm * s))))
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

    light_art_var = LIGHT_ART_VAR
    """The light a tile is seen in, for the figure search: its gain per channel set by the tile's own spread of art
    only where that spread is well over this variance, else by its mean level (:func:`vision.pieces.gains_of_many`,
    :data:`vision.pieces.LIGHT_ART_VAR`); 0: a free gain and offset per channel (before issue 14's session
    suedlight)."""

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
        gains, offsets = gains_of_many(np.stack(obs), np.stack(refs), self.light_art_var)
        for key, g, o in zip(keys, gains, offsets):
            fitted[key] = (g, o)

    base_from_middle = True
    """Place a figure's base along the lean from its picture's near end plus half a foot and its picture's middle taken
    back by the lean of its middle height, each weighed by how far it can err (:func:`vision.standing.standing_point`
    with the camera's height). On since session nlfig3 (issue 14): on the bench's Neues Land field/hard rows at 12
    boards a row, seeds 1 and 2, the base's error along the lean spread 1.1-1.8 mm (sd) against 1.6-2.2 with the near
    end alone, and three figures named on another region or the next tile were right
    (docs/history/vision-measured.md, "Whole boards on both cameras"); off before, when 5 boards a row could not tell
    the gain."""

    def _middle_sd(self, colour: str) -> float | None:
        """How far the height whose lean a figure's picture's middle shows may err (sd, mm) for a figure of ``colour``
        (:func:`vision.standing.standing_point`; None: :data:`vision.standing.MIDDLE_HEIGHT_SD_MM`). For the darkest
        colour (:attr:`vision.pieces.PlayerColours.darkest`) anywhere on the figure's height (uniform over twice
        :data:`vision.standing.FIGURE_MIDDLE_MM`: 4.9 mm): black paint dims every channel alike, as a shadow does, so
        on grey art its lighter top is taken for shadow and what is left of its picture may be its lower body alone,
        whose middle lies low; where the lean is small (near the nadir) the middle still tells the base best. On the
        bench's Neues Land ``sim/hard`` seed 3 (29 black figures) the middle weighed as the other colours' put black
        bases 0.9 mm toward the nadir on average (rms 1.35 mm), weighed so -0.15 (rms 0.93); Südsee ``field/hard`` seed
        2 (23) -1.1 (rms 2.0) against -0.8 (rms 1.9). The other colours' pictures keep their tops (their paint has a
        hue)."""
        if self.colours is None or colour != self.colours.colours[self.colours.darkest].name:
            return None
        return BLACK_MIDDLE_SD_MM

    reread_covered = True
    """Read a marked guess under a figure again by its colours, the figure left out (:mod:`vision.undercover`)."""

    reread_flat = True
    """... and a marked guess with no figure on it too (issue 14, session nlfig3): a flat tile (ds083 all sea, ds024,
    ds031) in a strong cast and heavy noise has so little texture that the tile pass's correlation is near noise with
    nothing on it either (the bench's Neues Land field/hard: ds083 read as ds059, half plain, at confidence 0.00); its
    colours tell it at once."""

    reread_unsure_flat = True
    """A tile with no figure on it is read again by colour wherever the tile pass is unsure of it (confidence below
    :data:`UNSURE`, where the reading is marked and said so), not only below :data:`undercover.MAX_CONFIDENCE`."""

    def _reread_covered(self, fc: FeatureCanvas, group: Sequence[Cell], tiles: dict[Cell, TileGuess],
                        found: Sequence[tuple[FigureSeen, bool, tuple[float, float], frozenset]]) -> list[Cell]:
        """Tiles of ``group`` read as a marked guess (confidence below :data:`undercover.MAX_CONFIDENCE`) where a
        figure's picture (one of ``found``) lies, or anywhere with :attr:`reread_flat`: read again by colour with the pictures and
        the covered mask near them left out (:func:`vision.undercover.reread`); ``tiles`` updated. Returns the
        cells changed. A guess with hidden twins too (session nlfig5): its twins were named because the covered mask
        hid where they differ, and that mask can be the art itself (Neues Land ``hard`` seed 1 board 8: ds020's green
        plain, covered as a figure-coloured blob, made ds020 read as ds039 with ds040 its twin, and the plain was then
        a phantom yellow figure on ds039's sea); the re-reading leaves out only the figures' pictures and their shadows,
        and the twins, alike there, stay as read."""
        if not self.reread_covered:
            return []
        limit = max(undercover.MAX_CONFIDENCE, undercover.MAX_CONFIDENCE_UNDER_FIGURE)
        doubtful = [c for c in group if c in tiles and tiles[c].confidence < limit]
        if not doubtful:
            return []
        h, w = fc.bgr.shape[:2]
        pictures = _pictures_on(fc, found, self.figure_scale)
        mm = self.classifier.mm_per_px
        # what to leave out: the figures' pictures, grown by their rim, and the covered mask (shadows) near them
        # only: a patch of the tile's own art in a player's colour that no figure was found in stays in (it is what
        # tells ds044's plain wedge from all sea)
        occ = fc.occlusion(0)
        reach = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * int(6 / mm) + 1,) * 2)
        near = cv2.dilate(pictures.astype(np.uint8), reach).astype(bool)
        hidden = undercover.visible_mask((h, w), None if occ is None else np.where(near, occ, 0.0), [pictures],
                                         int(round(1.5 / mm)))
        # a tile with no figure's picture on it is read again below this confidence
        bare_below = (0.0 if not self.reread_flat else max(UNSURE, undercover.MAX_CONFIDENCE) if self.reread_unsure_flat
                      else undercover.MAX_CONFIDENCE)
        changed = []
        if self.twin_art:
            changed = self._art_of_another(fc, doubtful, tiles, found)
            doubtful = [c for c in doubtful if c not in changed]
        for c in doubtful:
            top, left = fc.top_left(*c)
            if (tiles[c].confidence >= bare_below
                    and not pictures[max(top, 0):top + TILE_PX, max(left, 0):left + TILE_PX].any()):
                continue        # between the two bounds only under a figure (undercover.MAX_CONFIDENCE_UNDER_FIGURE)
            if not self.reread_flat and not pictures[top:top + TILE_PX, left:left + TILE_PX].any():
                continue        # no figure's picture on it
            sure = []
            near_of = []
            for dx in (-2, -1, 0, 1, 2):
                for dy in (-2, -1, 0, 1, 2):
                    t = tiles.get((c[0] + dx, c[1] + dy))
                    if t is None or (dx, dy) == (0, 0) or t.confidence < 0.5 or t.hidden_twins:
                        continue
                    tt, tl = fc.top_left(t.x, t.y)
                    im = np.rot90(self._ref_bgr[self.refs.index_of(t.tile)], -(t.rotation // 90))
                    sure.append((im, tt + int(round(t.offset_mm[1] / mm)), tl + int(round(t.offset_mm[0] / mm))))
                    near_of.append((dx, dy))
            light = undercover.light_from(fc.bgr, sure, ~hidden)
            if light is None:
                continue
            # what the right references around misfit in this frame's noise (the tiles beside it), made only where
            # the plain ratio does not decide (issue 14, CPU: 2 of 11 re-read tiles of a Suedsee field/hard board)
            beside = [p for p, (dx, dy) in zip(sure, near_of) if abs(dx) <= 1 and abs(dy) <= 1]

            def floor(beside=beside, light=light) -> float | None:
                return undercover.noise_floor(fc.bgr, beside, ~hidden, light)

            new = undercover.reread(fc.bgr, self._ref_bgr, self.refs.tile_ids, tiles[c], top, left, mm, hidden,
                                    light, floor)
            if (new.tile, new.rotation) != (tiles[c].tile, tiles[c].rotation):
                log.debug("cell %s: %s r%d read again by colour under a figure: %s r%d", c, tiles[c].tile,
                          tiles[c].rotation, new.tile, new.rotation)
                tiles[c] = new
                changed.append(c)
        return changed

    hidden_by_pictures = True
    """Once the figures are found, a tile whose picture differs from another tile's only under a figure's picture
    (and the covered mask) has that tile as a hidden twin, whatever the scores say (:meth:`_hidden_by_figures`).
    False: as before (session suedfig5)."""

    def _hidden_by_figures(self, fc: FeatureCanvas, group: Sequence[Cell], tiles: dict[Cell, TileGuess],
                           found: Sequence[tuple[FigureSeen, bool, tuple[float, float], frozenset]],
                           keep: Collection[Cell] = (), under: dict[Cell, set] | None = None) -> list[Cell]:
        """The found figures' pictures put into the canvas's covered mask, and every tile of ``group`` under one (but
        those of ``keep``: the start tile, the game's log) given the twins that differ from it only there
        (:meth:`TileClassifier.hidden_under`) as hidden twins: a marked guess (confidence at most 0.4), for the box
        and the phone to settle. The covered mask the tile pass had is made from colours alone and can miss a
        figure (a yellow figure on Südsee's sea under a warm cast: B1 read as A1, its beach where the figure stood,
        at confidence 0.52 and nothing named). Returns the cells marked; ``tiles`` updated; ``under`` (when given)
        gets, per cell, the tiles it may be that differ only under the figures there (the holder and its hidden ones):
        where a figure's region depends on which of them lies there (:meth:`_on_twins`)."""
        if not self.hidden_by_pictures or not found:
            return []
        pictures = _pictures_on(fc, found, self.figure_scale)
        if not pictures.any():
            return []
        occ = fc.occlusion(0)
        fc.set_occlusion(pictures if occ is None else (occ >= 0.5) | pictures)
        marked = []
        for c in group:
            t = tiles.get(c)
            if t is None or c in keep:
                continue
            top, left = fc.top_left(*c)
            if not pictures[max(top, 0):top + TILE_PX, max(left, 0):left + TILE_PX].any():
                continue
            holder, hidden = self.classifier.hidden_under(fc, t, pictures)
            shown = self._twin_shown(fc, replace(t, tile=holder[0], rotation=holder[1]),
                                     [o for o in dict.fromkeys([*hidden, *t.hidden_twins]) if o != holder], found)
            if shown is not None:
                # a picture found on the tile is that twin's own art where the holder differs: the photo shows it
                log.debug("cell %s: a picture on %s r%d is its twin %s r%d's art", c, *holder, *shown)
                twins = self._alike_at_sides(shown, [o for o in t.hidden_twins if o not in (holder, shown, *hidden)])
                tiles[c] = replace(t, tile=shown[0], rotation=shown[1], hidden_twins=twins,
                                   confidence=min(t.confidence, 0.4 if twins else 0.5))
                marked.append(c)
                continue
            if under is not None and hidden:
                under[c] = {holder, *hidden}
            if holder != (t.tile, t.rotation):
                log.debug("cell %s: %s r%d is %s r%d where the figures leave it in view", c, t.tile, t.rotation, *holder)
                twins = tuple(o for o in t.hidden_twins + hidden if o != holder)
                tiles[c] = replace(t, tile=holder[0], rotation=holder[1], hidden_twins=twins,
                                   confidence=min(t.confidence, 0.4 if twins else 0.5))
                marked.append(c)
                continue
            new = tuple(o for o in hidden if o not in t.hidden_twins)
            if new:
                log.debug("cell %s: %s r%d differs from %s only under a figure", c, t.tile, t.rotation, new)
                tiles[c] = replace(t, hidden_twins=t.hidden_twins + new, confidence=min(t.confidence, 0.4))
                marked.append(c)
        return marked

    twin_shown = True
    """A tile under a figure whose hidden twin's own art explains another picture found on it is that twin
    (:meth:`_twin_shown`). False: as before (session suedfig9)."""
    twin_shown_explains = 3.0
    """... its art explains a picture when, in its light, it misfits it by at most this many times its own median
    misfit over the rest of the tile (and half the holder's misfit there: :attr:`twin_better`). A figure's paint on
    any art differs by 4 times that and more (the figure finder's strong pixels); a twin's art beside a figure, with
    the figure's rim and shadow in its picture, 2.3 (the bench's ``--legal`` ``sim/hard`` seed 2 board 3)."""

    def _twin_shown(self, fc: FeatureCanvas, t: TileGuess, hidden: Sequence[tuple[str, int]],
                    found: Sequence[tuple[FigureSeen, bool, tuple[float, float], frozenset]]) -> tuple[str, int] | None:
        """The one of ``hidden`` (twins of ``t`` that a figure hides, :meth:`TileClassifier.hidden_under`) whose own
        art explains a picture found on the cell of ``t`` (:meth:`_art_of_another`'s test, against the hidden twins
        only), or None. Where twins differ at a side (Südsee's S and T: a bridge from the south; R1, R2 and Q: the
        sea there) a figure on the bridge's place hides most of the difference, but the rest of it, between the
        figure and the tile's edge, is seen against the tile taken as a picture of its own: Q's sea where T has its
        brown bridge read as a blue figure at the bridge's end (the bench's ``--legal`` ``field/hard`` seed 2 board
        1; ``sim/hard`` board 3: R1's sea against S's bridge). That picture is the twin's art: the twin lies there.
        """
        if not self.twin_shown or not hidden:
            return None
        misfit = self._misfit_of_pictures(fc, t, [_pixel_array(pixels) for *_, pixels in found])
        if misfit is None:
            return None
        return _art_explains(misfit, t, list(hidden)[:4], self.twin_shown_explains, self.twin_better,
                             self.twin_fits_rest)

    def _alike_at_sides(self, tile: tuple[str, int], others: Sequence[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
        """Those of ``others`` (twins named before) whose sides show what ``tile``'s show (R1, R2 and Q: the sea to
        the south), which the picture that showed ``tile`` does not tell apart: they stay its hidden twins."""
        catalog = getattr(self, "catalog", None)
        if catalog is None or not getattr(catalog, "edges", None) or tile[0] not in catalog.edges:
            return ()
        sides = catalog.edges_turned(tile[0], int(tile[1]))
        return tuple((o, int(r)) for o, r in others if o in catalog.edges and catalog.edges_turned(o, int(r)) == sides)

    figures_on_twins = True
    """Look for figures on a tile with hidden twins against each of those twins too (:meth:`_seen_on_twins`)."""
    twins_looked = 3
    """... at most this many of its hidden twins (the tile pass lists the likeliest first)."""

    def _seen_on_twins(self, fc: FeatureCanvas, group: Sequence[Cell], tiles: Mapping[Cell, TileGuess],
                       here: dict[Cell, list[tuple[FigureSeen, bool, tuple[float, float], frozenset]]],
                       nadir: tuple[float, float] | None, halved: Any = None, mat_bgr: np.ndarray | None = None,
                       grid: Grid | None = None) -> int:
        """Figures on the tiles of ``group`` that have hidden twins, looked for against each twin as well: where
        twins differ, the photo does not tell which art lies under a figure, and the figure was looked for against
        the one taken. A red figure on Südsee's Q (the sea where T has a brown bridge), Q read as T with Q a hidden
        twin: against T's bridge the figure's paint differed too little, and the figure was missed (bench
        ``field/hard`` seed 1 board 7). A sighting standing on the tile and not a picture found already joins
        ``here`` (its region looked up on the tile taken, where it stands). Returns how many joined."""
        if not self.figures_on_twins:
            return 0
        seen_px = [pixels for fs in here.values() for *_, pixels in fs]
        added = 0
        # what every window here shares but what depends on the tile in the cell looked at (the tiles around, their
        # places and lights, where the canvas shows the mat): made once (issue 14, CPU)
        shared: dict[Any, Any] = {}
        for c in group:
            t = tiles.get(c)
            if t is None or not t.hidden_twins:
                continue
            for tile, rotation in t.hidden_twins[:self.twins_looked]:
                other = dict(tiles)
                other[c] = replace(t, tile=tile, rotation=int(rotation))
                _forget_cell(shared, c)
                sightings = self._figure_pass(fc, [c], None, other, nadir, halved, mat_bgr, grid, must=[c],
                                              fitted=shared)
                _forget_cell(shared, c)
                for f, clipped, at, pixels in sightings.get(c, []):
                    if (f.x, f.y) != c or any(len(pixels & p) >= 0.3 * min(len(pixels), len(p)) for p in seen_px):
                        continue
                    if self._art_of_one(fc, t, pixels):
                        continue        # one of them explains it: its own art where the one looked against differs
                    region = f.region
                    if self.geometry is not None and region is not None:
                        try:
                            region = self.region_at_base(t.tile, t.rotation, f.u, f.v)
                        except VisionError:
                            region = None
                    log.debug("cell %s: a %s figure seen against its twin %s r%d", c, f.colour, tile, rotation)
                    here.setdefault(c, []).append((replace(f, region=region), clipped, at, pixels))
                    seen_px.append(pixels)
                    added += 1
        return added

    def _art_of_one(self, fc: FeatureCanvas, t: TileGuess, pixels: frozenset) -> bool:
        """Whether a picture (``pixels``, as :meth:`_figures_near` gives them) on the cell of ``t`` is the art of the
        tile taken or of one of its hidden twins, or a shadow on it: that reference, in its light, misfits it within
        :attr:`twin_explains` times its own noise over the rest of the cell, or in colour (Lab a and b, which a shadow
        keeps) within the figure finder's colour bar (:attr:`FigureFinder.chroma_threshold`, and
        :attr:`FigureFinder.chroma_factor` times that colour misfit's median over the rest). A figure's paint is a
        colour the art under it has not (a red figure on Q's sea, looked for against its twin R1: T, the tile taken,
        misfits it 93 against a noise of 25 and by 26.4 in colour against a rest of 5.2). Where the twin looked against
        differs from the tile lying there, that tile's art is a picture too: T's bridge against R1's sea stood as a red
        figure (S, its twin, misfits it 25 against 24, in colour 6.4 against 5.3), V1's bridge against A1 (46 against
        20, but 9.1 in colour against 4.1), and a red figure's shadow on B1's sea against A1's bridge as a blue one (B2:
        57 against 24, in colour 5.7 against 5.1)."""
        misfit = self._misfit_of_pictures(fc, t, [pixels])
        if misfit is None:
            return False
        for tile, rotation in ((t.tile, t.rotation), *t.hidden_twins):
            on_pic, noise, colour, colour_noise = misfit(tile, int(rotation))
            bar = max(self.figures.chroma_threshold, self.figures.chroma_factor * colour_noise)
            if on_pic[0] <= self.twin_explains * noise or colour[0] <= bar:
                log.debug("cell %s: a picture there is the art of %s r%d or a shadow on it (misfit %.1f, noise %.1f; "
                          "in colour %.1f, bar %.1f)", (t.x, t.y), tile, rotation, on_pic[0], noise, colour[0], bar)
                return True
        return False

    def _on_twins(self, f: FigureSeen, t: TileGuess | None, under: Collection[tuple[str, int]] = ()) -> FigureSeen:
        """``f`` with the regions it would stand on on its tile's hidden twins that differ from it only under the
        figures (``under``, from :meth:`_hidden_by_figures`) where they are not its own region
        (:attr:`FigureSeen.on_twins`, confidence at most 0.4): the photo cannot tell which of them lies there, so
        neither which region the figure claims. Each region is looked up where the figure stands, alike on every
        twin. (A twin in doubt for another reason, a contest too close to call or the pool's near runners-up, is
        asked about as a tile: the figure's region follows the tile the phone confirms.) Not asked either where the
        tile settles it (:meth:`_settled_by_tile`: its colour clear, its foot wholly on one region of each)."""
        if t is None or (t.tile, t.rotation) not in under or self.geometry is None or f.region is None:
            return f
        twins = [o for o in t.hidden_twins if o in under]
        if not twins:
            return f
        try:
            own = self.region_at_base(t.tile, t.rotation, f.u, f.v)
            other = [(tile, rot, self.region_at_base(tile, rot, f.u, f.v)) for tile, rot in twins]
        except VisionError:
            return f
        differ = tuple(o for o in other if not self._same_place(t.tile, t.rotation, own, *o))
        if not differ or (self.region_follows_tile and self._settled_by_tile(f, t, twins)):
            return f
        return replace(f, confidence=min(f.confidence, 0.4), on_twins=differ)

    region_follows_tile = True
    """A figure sure of its colour whose foot stands wholly on one region of its tile and of every twin that tile
    may be is not asked about (:meth:`_settled_by_tile`): the tile is (a marked guess), and the figure's region
    follows the tile the phone confirms (the live loop names it there from where the figure stands). False: asked
    wherever its region differs between them (sessions suedfig5 to nlfig11)."""
    foot_whole = 0.95
    """... wholly: at least this share of its foot's disc (:data:`FOOT_MM` around its base, the tile's part of it) on
    that one region."""
    colour_clear = 0.5
    """... sure of its colour: the figure finder's confidence at least this."""

    def _settled_by_tile(self, f: FigureSeen, t: TileGuess, twins: Sequence[tuple[str, int]]) -> bool:
        """Whether the tile settles the region of ``f`` (on ``t``, which may be any of ``twins``): its colour is clear
        (:attr:`colour_clear`) and, whichever of them lies there, its foot stands wholly on one region
        (:attr:`foot_whole`). Then only the tile is in doubt, and the phone asks about it as a tile; a foot across
        two regions of one of them, or a colour in doubt, is asked about as a figure (:meth:`_on_twins`)."""
        if f.confidence < self.colour_clear:
            return False
        try:
            return all(self._foot_on(tile, int(rotation), f.u, f.v)[1] >= self.foot_whole
                       for tile, rotation in ((t.tile, t.rotation), *twins))
        except VisionError:
            return False

    def _foot_on(self, tile: str, rotation: int, u: float, v: float) -> tuple[str, float]:
        """The region a figure based at ``(u, v)`` (fractions of ``tile`` turned by ``rotation``) stands on, and the
        share of its foot there (:meth:`vision.regionmap.RegionMaps.region_at_base`, a disc of :data:`FOOT_MM`)."""
        assert self.regions is not None
        return self.regions.region_at_base(tile, rotation, u, v, FOOT_MM / self.pitch)

    def _same_place(self, tile: str, rotation: int, region: str | None, other: str, other_rotation: int,
                    other_region: str | None) -> bool:
        """Whether a figure on ``region`` of ``tile`` turned by ``rotation`` claims the same as on ``other_region`` of
        ``other``: the same region id (what the game records: which of the two tiles lies there is asked about as a
        tile), or the same place for the rules (:meth:`CatalogInfo.region_layout`: one terrain reaching the same slots
        of the table; U1 turned 90 and 270 degrees has its sea ``S:W`` where the other turn has ``S:E``)."""
        if region == other_region:
            return True
        catalog = getattr(self, "catalog", None)
        if catalog is None or region is None or other_region is None:
            return False
        a, b = catalog.region_layout(tile, rotation, region), catalog.region_layout(other, other_rotation, other_region)
        return a is not None and a == b

    twins_by_sides = True
    """Twins settled by the rules: on a table whose tiles read for sure fit each other (:attr:`rules_kept`), a twin
    whose side does not fit a neighbour read for sure cannot lie there (:meth:`_twins_by_sides`)."""
    rules_kept = 0.9
    """... when at least this share of the sides between two tiles read for sure fit (and :attr:`rules_pairs` of
    them at least): a table played by the rules (a tile laid where it does not fit is refused by the game). A table
    laid at random (the vision bench's boards) fits on 0.22-0.46 of them (Südsee and Neues Land, seed 1, every
    reading); the bench's boards laid by the rules (``--legal``) on all."""
    rules_pairs = 6

    def _sides_known(self, tiles: Mapping[Cell, TileGuess]) -> float | None:
        """The share of the sides between two tiles read for sure (confidence 0.5 or more, no hidden twin) that fit
        (:meth:`CatalogInfo.side_fits`); None with fewer than :attr:`rules_pairs` such sides or no catalog."""
        catalog = getattr(self, "catalog", None)
        if catalog is None or not getattr(catalog, "edges", None):
            return None
        sure = {c: t for c, t in tiles.items() if _sure(t) and t.tile in catalog.edges}
        fit = n = 0
        for (x, y), t in sure.items():
            for d, (dx, dy) in ((1, (1, 0)), (2, (0, 1))):         # each pair once: east and south
                o = sure.get((x + dx, y + dy))
                if o is not None:
                    n += 1
                    fit += catalog.side_fits(t.tile, t.rotation, d, o.tile, o.rotation)
        return fit / n if n >= self.rules_pairs else None

    def _side_known(self, t: TileGuess, side: int) -> bool:
        """Whether the ``side`` (0-3: N, E, S, W) of the tile read as ``t`` is known: read for sure, or a marked guess
        (confidence 0.4 or more, :func:`vision.tiles.settle_hidden`'s) whose hidden twins all show that side alike
        (U1/U2/U3, E1/E3: twins in their goods, not their sides). Worse guesses (V2 read as A2 at 0.28, its twin
        named) may be another tile altogether."""
        catalog = self.catalog
        if t.tile not in catalog.edges:
            return False
        if _sure(t):
            return True
        if not t.hidden_twins or t.confidence < 0.4:
            return False
        side_of = catalog.edges_turned(t.tile, t.rotation)[side]
        return all(o in catalog.edges and catalog.edges_turned(o, int(r))[side] == side_of for o, r in t.hidden_twins)

    def _twins_by_sides(self, tiles: dict[Cell, TileGuess], under: dict[Cell, set], seen: Sequence[FigureSeen]
                        ) -> list[FigureSeen]:
        """Of each tile's hidden twins (``tiles``, updated), those that fit every neighbour read for sure (its side
        toward them: :meth:`CatalogInfo.side_fits`), on a table that keeps the rules (:meth:`_sides_known` at least
        :attr:`rules_kept`). Where the twins differ at a side a neighbour covers, the photo cannot show it but the
        rules tell it: Südsee's R1 (sea to the south) and S (a bridge from the south) under a figure on the bridge's
        place, W2 and X (a fourth bridge), A1 and B1. One left: the tile, read by the rules (confidence 0.5, no twin);
        several: the twins that fit stay (``under`` too: the figure is asked only between those); none (a neighbour
        misread): as it was. A neighbour counts where its side is known (:meth:`_side_known`). The figures on a cell whose tile changed (``seen``) get their region on the new tile
        where they stand (:meth:`region_at_base`). Returns ``seen``, those updated."""
        catalog = getattr(self, "catalog", None)
        if not self.twins_by_sides or not any(t.hidden_twins for t in tiles.values()):
            return list(seen)
        kept = self._sides_known(tiles)
        if kept is None or kept < self.rules_kept:
            return list(seen)
        changed = set()
        for c, t in list(tiles.items()):
            if not t.hidden_twins or t.tile not in catalog.edges:
                continue
            options = [(t.tile, t.rotation), *t.hidden_twins]
            nearby = [(d, tiles.get((c[0] + dx, c[1] + dy))) for d, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1),
                                                                                           (-1, 0)))]
            nearby = [(d, o) for d, o in nearby if o is not None and self._side_known(o, (d + 2) % 4)]
            fit = [(tile, int(rot)) for tile, rot in options if tile in catalog.edges and all(
                catalog.side_fits(tile, int(rot), d, o.tile, o.rotation) for d, o in nearby)]
            if not fit or len(fit) == len(options):
                continue
            pick = (t.tile, t.rotation) if (t.tile, t.rotation) in fit else fit[0]
            rest = tuple(o for o in fit if o != pick)
            log.debug("cell %s: of %s r%d and its twins %s only %s fit the tiles around", c, t.tile, t.rotation,
                      t.hidden_twins, fit)
            tiles[c] = replace(t, tile=pick[0], rotation=pick[1], hidden_twins=rest, constrained=True,
                               confidence=max(t.confidence, 0.5) if not rest else t.confidence)
            if c in under:
                under[c] = {o for o in under[c] if tuple(o) in fit}
            if pick != (t.tile, t.rotation):
                changed.add(c)
        if not changed or self.geometry is None:
            return list(seen)
        out = []
        for f in seen:
            t = tiles.get((f.x, f.y))
            if (f.x, f.y) in changed and t is not None and f.region is not None:
                try:
                    f = replace(f, region=self.region_at_base(t.tile, t.rotation, f.u, f.v))
                except VisionError:
                    pass
            out.append(f)
        return out

    twin_art = True
    """A marked guess on which a figure was found where one of its runners-up (a hidden twin first) shows its own
    art: the tile is that one, and the figure its art (:meth:`_art_of_another`)."""
    twin_explains = 2.0
    """... when the runner-up, in its light, misfits the figure's picture on the tile by at most this many times its
    own median misfit over the rest of the tile (the figure finder's pixels differ by 4 times and more), ..."""
    twin_better = 0.5
    """... and by at most this share of the guess's misfit there ..."""
    twin_fits_rest = 1.1
    """... and misfits the rest of the tile by at most this many times the guess's own median misfit there (of
    several such, the one that misfits the rest least). Two references of twins are two pictures, each with its own
    noise and blur: the one with the glyph misfits the rest a few per cent more where its glyph's blurred rim lies
    (the synthetic twins of ``tests/vision/test_figure_twin_art.py``: always, at 1.0 never taken); 1.25 took B1 (31.5
    against U2's 28.3) where A1 lay, before the best-fitting was taken."""

    def _misfit_of_pictures(self, fc: FeatureCanvas, t: TileGuess, pictures: Sequence[frozenset | np.ndarray]
                            ) -> Callable[..., tuple[list[float], float, list[float] | None, float | None]] | None:
        """``misfit(tile, rotation)``: how a reference, put in the light of the cell of ``t`` (where ``t`` lies),
        misfits each of the ``pictures`` mostly on that cell (pixels on the grid at the figures' scale, as
        :meth:`_figures_near` gives them: the mean blurred B+G+R misfit over the picture) and the rest of the cell
        (the median: its noise), and the same in colour (the a and b of Lab, as the figure finder's colour misfit).
        None where the cell runs off the canvas, no picture lies mostly on it, or they
        leave less than half of it. A picture may come as its pixels' ``(x, y)`` array already (:func:`_pixel_array`;
        issue 14, CPU: made once for all cells, not once a cell); ``misfit(..., colour=False)`` leaves the colour
        terms out (None), for a caller that does not use them."""
        mm = self.classifier.mm_per_px
        s = self.figure_scale
        small_tile = TILE_PX // s
        h, w = fc.bgr.shape[:2]
        top, left = fc.top_left(t.x, t.y)
        top, left = top + int(round(t.offset_mm[1] / mm)), left + int(round(t.offset_mm[0] / mm))
        if top < 0 or left < 0 or top + TILE_PX > h or left + TILE_PX > w:
            return None
        pics = []
        for pixels in pictures:
            if not len(pixels):
                continue
            g = _pixel_array(pixels)
            rows = (g[:, 1] - fc.y0 * small_tile) * s + fc.margin - top
            cols = (g[:, 0] - fc.x0 * small_tile) * s + fc.margin - left
            on = (rows >= 0) & (rows < TILE_PX) & (cols >= 0) & (cols < TILE_PX)
            if on.sum() < 0.5 * len(g):
                continue                # a picture mostly on another tile
            pic = np.zeros((TILE_PX + s, TILE_PX + s), bool)     # each pixel an s x s block of the canvas
            for dy in range(s):
                for dx in range(s):
                    pic[rows[on] + dy, cols[on] + dx] = True
            pics.append(pic[:TILE_PX, :TILE_PX])
        if not pics:
            return None
        obs = fc.bgr[top:top + TILE_PX, left:left + TILE_PX].astype(np.float32)
        rest = ~cv2.dilate(np.any(pics, axis=0).astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
        if rest.sum() < TILE_PX * TILE_PX // 2:
            return None
        obs_ab = None

        def observed_ab() -> np.ndarray:
            nonlocal obs_ab
            if obs_ab is None:
                obs_ab = bgr_to_lab(obs)[..., 1:]       # the same for every reference (issue 14, CPU)
            return obs_ab

        def misfit(tile: str, rotation: int, colour: bool = True
                   ) -> tuple[list[float], float, list[float] | None, float | None]:
            ref = np.rot90(self._ref_bgr[self.refs.index_of(tile)], -(rotation // 90)).astype(np.float32)
            gain, offset = _gain_of(obs[::3, ::3], ref[::3, ::3], self.light_art_var)
            lit = ref * gain + offset
            e = cv2.GaussianBlur(np.abs(obs - lit).sum(axis=2), (0, 0), 0.8)
            if not colour:
                return [float(np.mean(e[p])) for p in pics], float(np.median(e[rest])), None, None
            d = observed_ab() - bgr_to_lab(lit)[..., 1:]
            ab = cv2.GaussianBlur(np.hypot(d[..., 0], d[..., 1]), (0, 0), 0.8)
            return ([float(np.mean(e[p])) for p in pics], float(np.median(e[rest])),
                    [float(np.mean(ab[p])) for p in pics], float(np.median(ab[rest])))

        return misfit

    def _art_of_another(self, fc: FeatureCanvas, cells: Sequence[Cell], tiles: dict[Cell, TileGuess],
                        found: Sequence[tuple[FigureSeen, bool, tuple[float, float], frozenset]]) -> list[Cell]:
        """Of ``cells`` (marked guesses), those where a found figure's picture (``found``, as
        :meth:`_reread_covered` takes them) is a
        runner-up's art: the picture on the tile, against each runner-up in its own light (a hidden twin first, then
        the runners-up), misfits it within :attr:`twin_explains` of that reference's noise, while the guess misfit it
        as a figure, and the runner-up fits the rest of the tile as well (:attr:`twin_fits_rest`). ``tiles``
        updated to that runner-up; returns the cells changed.

        A figure stands up from the tile: its paint, its lean and its shadow are on no tile's art. A market or a
        town in a player's colour that only the twin has (Südsee's J1 against L1, L1 against D2 at ``hard``, where
        the twin contest was left to the box under the colour-made covered mask) was read as a red figure on the
        wrong twin, and the figure standing on the tile was named on that twin's regions."""
        changed = []
        pictures = [_pixel_array(pixels) for *_, pixels in found]     # once for every cell (issue 14, CPU)
        for c in cells:
            t = tiles[c]
            misfit = self._misfit_of_pictures(fc, t, pictures)
            if misfit is None:
                continue
            others = list(dict.fromkeys(list(t.hidden_twins) + [(r.tile, r.rotation) for r in t.runners_up]))
            best = _art_explains(misfit, t, others[:4], self.twin_explains, self.twin_better, self.twin_fits_rest)
            if best is not None:
                log.debug("cell %s: %s r%d read as %s r%d: a figure found there is its art", c, t.tile, t.rotation,
                          *best)
                tiles[c] = replace(t, tile=best[0], rotation=int(best[1]), hidden_twins=())
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
        return self._foot_on(tile, rotation, u, v)[0]

    def region_under(self, tile: str, rotation: int, footprint: np.ndarray) -> str:
        """The region a figure stands on: where most of what is seen of it (``footprint``, a mask over the tile
        as it lies) falls on the region's true shape. A figure is about 16 mm across: on a narrow spike or
        beside a bay one point of it can fall on the next region."""
        assert self.regions is not None
        return self.regions.region_under(tile, rotation, footprint)[0]
