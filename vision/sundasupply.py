"""The players' supplies: pawns standing free on the mat off the layout, counted per colour (docs/sunda.md, "The
table's count").

A Sunda player's pawns not on the table stand in front of them on the mat (the rule book, seed 003: each player
takes 24, 16 or 12 pawns by the number of players; a pawn goes from the supply onto a node and never back but by a
challenge). How many of each colour left the supply between two still frames decides what one frame of a stack
cannot (``PawnRules.taken``, tablehub/tracking/sundaheights.py): a pawn put on a tribe its own colour already tops.

What is counted: the whole mat resampled at the reader's scale (2 px/mm), each pixel the reader's class for that
frame (its colour table: land, water, cloth, each pawn colour with its darker sides); per pawn colour, the blobs of
its paint that touch no piece (the covered triangles, 2 mm round them: a tribe's blob, however tall, rests on a piece).
A pawn standing on the mat is seen as the camera's central projection makes it: its base disc (radius ``R``, 5 mm) and
its top disc (``R H / (H - h)``) pushed from the nadir by ``d h / (H - h)`` (``h`` 7 mm high, ``d`` the base's distance
from the nadir), its near side between them: a tapered stadium. Pawns touching are split by that shape, not by a
tuned size: for each count ``n`` the blob's pixels are grouped into ``n`` (Lloyd's k-means from the farthest points),
each group's pawn put where its footprint's middle is, and the model (their footprints together) compared with the
blob: the pixels one has and the other lacks, and the pixels where two pawns' bases would overlap (two pawns cannot
stand in one place). The count is the ``n`` with the least misfit, taken only where every other ``n`` misfits by half a
pawn's footprint more, and the best misfits by under half a pawn's footprint a pawn; otherwise the colour's count is
unknown (``None``), with the reason. A heap's count is also fitted from where its pawns stand by the projection alone
(:meth:`SupplyCounter.seeds`: the places where one pawn's whole footprint fits in the paint), and competes as every
count does. The pawns' tops, seen in the frame's lightness (:meth:`SupplyCounter.tops`: each a disc of known size at a
known height, lighter than the shaded side or the gap round it, which the colour table fills between touching pawns),
are a second reading: a count is taken where the two agree (:meth:`SupplyCounter._by_tops`); where they do not, a
heap's paint as the frame's blur fills its waists (:meth:`SupplyCounter._by_fill`: the footprints' union blurred) is a
third, taken where it tells one count clearly and as many tops are seen; else asked. A colour
one of whose blobs may have lost a pawn's paint where the frame does not see, to a marker's square or past the mat's
edge is unknown too (:meth:`SupplyCounter._cut`: its paint there is not its pawns', or the unseen has room for one
more pawn seen within its paint, :meth:`SupplyCounter._room`); a blob whose pawns are all seen, whole or reaching into
the unseen, is counted.

The count is only read here; whether it is trusted (it must agree with the rules and with the frame before) is the
live loop's (``tablehub/tracking/sundacam.py``, ``SundaRecognizer.supply_taken``).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any, Mapping, NamedTuple, Sequence

import cv2
import numpy as np

from .sampling import median_u8

PAWN_MM = 10.0
PAWN_HEIGHT_MM = 7.0
#: a blob of a pawn's paint smaller than this share of one pawn's footprint is noise (a speck of the colour table), not a pawn
SPECK = 0.35
#: the best count must beat every other by this share of one pawn's footprint, and misfit by under it a pawn: a
#: pawn more or less changes the model by a whole footprint, so half of it is the midpoint
MARGIN = 0.5
#: an edge of the blob counts as placed where the model puts it within this (px at the reader's 2 px/mm: the colour
#: table is read on the frame blurred by one pixel, and the camera's blur and the nearest class move an edge as much)
BAND_PX = 1
#: a blob differing from one of the frame before by fewer pixels than this share of a pawn's footprint is the same
SAME_BLOB = 0.25
#: the most pawns a player has (the rule book: 26 alone, 24 of two): a blob of more paint is not one supply
MOST_PAWNS = 26
#: rounds of moving each fitted pawn by a pixel where the model fits better
REFINE_ROUNDS = 4
#: a heap that lost one pawn is fitted from the frame before's split (:meth:`SupplyCounter._refit`); False: afresh
REFIT = True
#: a heap that lost one pawn has its tops fitted from the last count's (:meth:`SupplyCounter._tops_lost_one`)
TOPS_REFIT = True
#: round the pieces (mm): a blob reaching this near a covered triangle is the layout's (a tribe on its node)
PIECES_MM = 2.0
#: pixels of the frame's edge and the mat's markers (mm round them) a supply's blob must keep clear of to be counted
EDGE_MM = 1.0
#: the canvas reaches this far past the mat's edge (mm): a pawn standing at the edge has its top pushed over it
OVERHANG_MM = 12.0
#: canvas px the half-millimetre blur before the colour table reaches (3 sigma at 2 px/mm, rounded up)
BLUR_PAD = 4
#: a pawn's top is seen where the frame's lightness over the middle of a top's disc (:data:`TOP_CORE` of its radius)
#: exceeds that over the ring just round it (from a pixel to :data:`TOP_RING_MM` past its edge, the blob's pixels
#: only, the rest taken as dark as the blob's darkest) by this share of the blob's contrast (its lightness, 90th
#: percentile less 2nd): a top is the pawn's lightest face and its own colour all round, the ring round it the pawn's
#: shaded side, the gap between touching pawns or the mat. Measured (docs/history/sunda-measured.md, session 21): red
#: and yellow true tops 0.16 at least (`hard`, far from the nadir), no other place of their blobs a peak at all; 0.25
#: lost the dimmest. Black and purple tops are not told from noise at `hard` (peaks up to 0.79 that are no top)
TOP_CONTRAST = 0.12
TOP_CORE = 0.7
TOP_RING_MM = 2.0
#: ... and a blob's lightness must span this (0-255) at least for its tops to be told from its sides
TOP_FLOOR = 6.0
#: the tops are a reading of a blob's count only where the blob's paint is this light at least (the median of its
#: inner pixels' lightness, 0-255): a top's excess over the pawn's side is a share of what the paint reflects, and on
#: a dark paint it is a few levels, which the noise and the blur match anywhere (peaks that are no top, tops lost).
#: On a darker blob the tops neither confirm a count the misfit alone does not tell nor tell one (the blob is asked).
#: Measured (docs/history/sunda-measured.md, session 21, h-darktops: 4-player tables, seeds 1-3, `default` and
#: `hard`): black pawns' blobs 29-45 (the three black heaps counted wrong 36-39), purple 52-93, red 65-96, yellow
#: 128-196. The weakest top's excess over the blob's noise does not part them: a red heap of 12 at `hard` (bench
#: seed 4) 7.2, the black heaps counted wrong 4.0-7.5
TOP_LIGHT = 55.0
#: the fill (:meth:`SupplyCounter._by_fill`): the paint of touching pawns is not their footprints side by side but
#: their union as the camera's blur and the colour table make it: the union blurred (a Gaussian of the frame's blur,
#: :meth:`SupplyCounter._fill_sigma`) and taken where it exceeds the level that puts a straight edge the frame's edge
#: spread out (``delta``: the lone pawns' and clear heaps' fattening), which fills the waists between touching pawns.
#: Where the footprints and the tops disagree, or the misfit leaves two counts the tops do not decide, a heap of two
#: pawns or more is counted where the fill tells one count clearly (the margins :data:`MARGIN` every count must
#: clear) and as many tops are seen. False: as before h-heights8 (asked)
FILL = True
#: where the fill ranks the tops' count first but by under :data:`MARGIN` of a footprint, the count is still taken when
#: the tops' own fit holds (:meth:`SupplyCounter._by_fill`): inside a heap a pawn more or less changes the filled
#: paint by little (its neighbours' footprints and the blur cover where it stands), so the paint cannot part the
#: counts by a margin there; the tops count each pawn (red and yellow: no place but a top peaks, docs/history/
#: sunda-measured.md, session 21), and the paint, as the blur fills it, must agree with them (ranked first, a fit as
#: any count's, no pawn's patch left unexplained). Measured (session 23, h-heights9): the true heaps' fill gap -0.06 to
#: 2.4 footprints, their misfit under the fill 0.07 of a footprint a pawn at most; where a red heap's tops were one off
#: (seeds 5-8 `hard`: 5 heaps) the fill ranked another count first by 0.56 at least; blobs where no pawn stands (the
#: table's wood read black) 0.15-0.74 a pawn, ranked first only at the frame's or the mat's edge (:meth:`_cut` asks
#: them). False: as h-heights8
FILL_TOPS = True
#: a blob by the unseen (past the frame's edge, a marker's square) is counted where the unseen has no room for one
#: more pawn whose seen part lies within the blob's paint (:meth:`SupplyCounter._room`); a pawn of the count may reach
#: into the unseen. False: as before h-heights10 (a blob one of whose pawns reaches the unseen is asked)
EDGE_ROOM = True
#: ... the bases there are measured to about this (mm): a hidden pawn's base is looked for this much nearer to theirs
#: than a pawn's width (the more room, the more asked)
EDGE_ROOM_MM = 1.0
#: the edge spread (``delta``, :meth:`_Split.spread`: how far the colour table puts a pawn's edge outside its outline)
#: is each colour's own, from that colour's blobs whose count the misfit alone tells: a light paint's edge on the dark
#: mat is classed farther out than a dark paint's. Measured (docs/history/sunda-measured.md, session 25, h-heights11):
#: `hard`, seeds 1 and 6, yellow's clear blobs 0.04-1.4 px, red's -0.4-0.9, and blobs read black that are no pawn's (a
#: red pawn's shadow, the table's wood at the frame's edge) -1.1 to -4.2, which took the one median over every colour
#: to -2.7 and a yellow heap's area 6-10 footprints off its tops' model. A colour with no such blob takes the median
#: over every colour's. False: one median for the frame (as before h-heights11)
DELTA_BY_COLOUR = True
#: the blurs (mm, a Gaussian's sigma on the canvas) the frame's is measured among: the blur the heaps whose count the
#: misfit alone tells are best modelled by (:meth:`SupplyCounter._fill_sigma`); the classes are read on the frame
#: blurred by half a millimetre (:meth:`SupplyCounter.label`), the least, and the camera's blur and the JPEG's halved
#: chroma add to it
FILL_SIGMAS_MM = (0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0)
#: the clear heaps the blur is measured on: the largest (the most waists), at most this many
FILL_HEAPS = 4
#: the fills kept a blob (:meth:`SupplyCounter._fill_again`): the edge spread's last few values
FILL_SEEN = 4


def footprint(base: np.ndarray, nadir: np.ndarray, cam_h: float, n_edge: int = 24) -> np.ndarray:
    """The outline (mat mm, a convex polygon) of a pawn standing at ``base`` as the camera sees it on the mat: the
    hull of its base disc and its top disc, pushed from the nadir and grown by the central projection."""
    ring = _ring(n_edge)
    z = PAWN_HEIGHT_MM
    top = base + (base - nadir) * z / (cam_h - z)
    pts = np.vstack([base + ring * PAWN_MM / 2, top + ring * PAWN_MM / 2 * cam_h / (cam_h - z)])
    return cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2).astype(np.float64)


@functools.lru_cache(maxsize=4)
def _ring(n_edge: int) -> np.ndarray:
    """``n_edge`` points round the unit circle (kept: every pawn fitted draws its footprint)."""
    a = np.linspace(0, 2 * math.pi, n_edge, endpoint=False)
    ring = np.column_stack([np.cos(a), np.sin(a)])
    ring.flags.writeable = False
    return ring


@dataclass
class SupplyBlob:
    """One blob of a colour's paint off the layout: its middle (mat mm), its pixels, the pawns counted in it (None:
    not told) and why not."""

    colour: str
    centre_mm: tuple[float, float]
    area_px: int
    pawns: int | None
    why: str = ""
    bases_mm: list[tuple[float, float]] = field(default_factory=list)


@dataclass
class SupplySeen:
    """The supplies seen in one frame: each colour's pawns standing off the layout (None: not counted, ``why`` says
    why), the blobs, and each colour's paint off the layout in pixels at ``px_per_mm`` (what a change of the supply
    between two frames is checked against), and one pawn's footprint there (pixels, the mean over the blobs)."""

    counts: dict[str, int | None]
    why: dict[str, str]
    blobs: list[SupplyBlob]
    area_px: dict[str, int]
    pawn_px: dict[str, float]
    px_per_mm: float
    #: each colour's paint off the layout on the mat (the canvas): where a pawn left or came between two frames
    paint: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {"counts": dict(self.counts), "why": {k: v for k, v in self.why.items() if v}}


class _Found(NamedTuple):
    """One blob a count looked at: its colour, middle (mat mm), pixels, what it is (a :class:`_Split`, or why it is not
    counted: "layout", "edge") and its key in the split cache (colour and box, canvas px)."""

    colour: str
    at: tuple[float, float]
    px: int
    split: Any
    key: tuple
    edge: tuple[np.ndarray, tuple[int, int]] | None = None  # near the bounds: the blob's mask and its origin (px)
    tops: "_Tops | None" = None     # the tops seen in the blob (:meth:`SupplyCounter._tops_fit`); None: not looked
    mask: tuple[np.ndarray, tuple[int, int]] | None = None  # a split blob's mask and its origin (px), for the fill


class _Tops(NamedTuple):
    """The pawns' tops seen in one blob (:meth:`SupplyCounter.tops`, mat mm) and as many pawns fitted to its paint from
    under them (:meth:`SupplyCounter._tops_fit`): the misfit (px; None: not fitted, the misfit's own count being as
    many) and the bases (mat mm)."""

    at: np.ndarray
    err: float | None
    bases: list
    loose: float = 0.0  # the largest patch of paint no fitted pawn explains, and of model on no paint (px)
    area: int = 0       # the model's pixels
    edge: int = 0       # the model's edge's pixels
    light: float = 255.0        # the blob's paint's lightness (:data:`TOP_LIGHT`)


class _Scan(NamedTuple):
    """What :meth:`SupplyCounter._scan` saw: the blobs, each colour's paint off the layout, every blob's box."""

    found: list[_Found]
    paint: dict[str, np.ndarray]
    boxes: dict[str, list[tuple[int, int, int, int]]]


class _Masks(NamedTuple):
    """The canvas's masks a count looks at, and one pawn's footprint at the play area's middle (px)."""

    pieces: np.ndarray
    bounds: np.ndarray
    marks: np.ndarray
    on_mat: np.ndarray
    layout: np.ndarray
    one_px: float
    unseen: np.ndarray      # where a pawn's paint is not seen: off the frame, or cut by a marker's square


@dataclass
class _Counted:
    """What the last count saw, for :class:`SupplyGate`: the canvas's classes, the blobs, each colour's paint off the
    layout and every blob's box (canvas px), and the masks."""

    label: np.ndarray
    found: list[_Found]
    paint: dict[str, np.ndarray]
    boxes: dict[str, list[tuple[int, int, int, int]]]
    masks: _Masks


def tribes_key(reading: Any) -> tuple:
    """What the tribes' reach is drawn from: each tribe's base (mat mm, to 0.1 mm)."""
    return tuple(sorted((round(float(t.mat_mm[0]), 1), round(float(t.mat_mm[1]), 1))
                        for t in getattr(reading, "tribes", ()) or () if np.all(np.isfinite(t.mat_mm))))


class SupplyCounter:
    """Counts the pawns standing off the layout on one camera's mat (module doc). ``count(frame, reader, reading)``
    after the reader read the frame (its location, colour table, covered triangles and lattice)."""

    def __init__(self, px_per_mm: float = 2.0):
        self.s = float(px_per_mm)
        self._maps_key: Any = None
        self._maps: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        #: the blobs split in the frame before, by colour and box: (mask, what the split said); a blob that looks the
        #: same (:data:`SAME_BLOB` of a footprint differs) is what it was
        self._split_before: dict[tuple, tuple[np.ndarray, tuple]] = {}
        self._split_now: dict[tuple, tuple[np.ndarray, tuple]] = {}
        #: the masks kept while what they are drawn from holds (:meth:`_masks`): (key, masks)
        self._zones_of: Any = None
        self._pieces_of: Any = None
        self._reach_of: Any = None
        #: what the last count saw (:class:`_Counted`): the canvas's classes, the blobs, the paint, the blobs' boxes;
        #: the gate (:class:`SupplyGate`) counts again only where the frame changed since
        self.last: _Counted | None = None
        #: the frame's lightness on the canvas where :meth:`label` classified it last (its relit frame in grey)
        self._grey: np.ndarray | None = None
        #: each blob's tops and their fit (:meth:`_tops_fit`) by colour and box, with what they were drawn from: the
        #: blob's mask, the lightness round it, the split's best count and whether it was clear, the nadir and the
        #: camera's height. Kept for the blobs of the last count (:meth:`_decide`); ``tops_calls`` says how often the
        #: tops were found afresh, the fit made afresh, or either taken from here (the tests count them)
        self._tops_of: dict[tuple, tuple] = {}
        #: each blob's paint's lightness (:meth:`_tops_seen`), by the same key, for the tops kept there
        self._light_of: dict[tuple, float] = {}
        self.tops_calls = {"tops": 0, "fit": 0, "tops kept": 0, "fit kept": 0, "refit": 0}
        #: the frame's blur (px, :meth:`_fill_sigma`) with what it was measured for: the camera's maps and the colour
        #: table (the blur is the camera's and the classes', not a heap's: measured once while they hold)
        self._lut: Any = None
        self._blur: tuple[Any, Any, float] | None = None
        #: each blob's fill (:meth:`_by_fill`) by its key, with what it was drawn from (kept for the last count's blobs)
        self._fill_of: dict[tuple, tuple] = {}
        self.fill_calls = {"blur": 0, "fill": 0, "fill kept": 0, "fill seen": 0}
        #: each blob's last fills (:meth:`_fill_again`, at most :data:`FILL_SEEN`), newest first, by its key: (what
        #: it was drawn from, its mask and corner, the nadir, the camera's height, the fill); the last count's blobs
        self._fill_seen: dict[tuple, list[tuple]] = {}
        #: each blob by the bounds whose count was told: what :meth:`_cut` said of it, with what it was drawn from
        #: (:meth:`_cut_once`; the last count's blobs)
        self._cut_of: dict[tuple, tuple] = {}
        #: each colour's paint's pixels (:meth:`_area`) by the array's id, with the array (the last count's only)
        self._areas: dict[int, tuple[np.ndarray, int]] = {}

    # ------------------------------------------------------------------ the mat, resampled
    def _canvas_maps(self, reader: Any, loc: Any, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """remap tables from the whole mat (``self.s`` px/mm) to frame pixels, and where the frame sees it (cached
        while the mat holds still)."""
        key = (loc.homography.tobytes(), shape[:2])
        if self._maps_key != key:
            mat = reader.mat
            w = int(math.ceil((mat.width_mm + 2 * OVERHANG_MM) * self.s))
            h = int(math.ceil((mat.height_mm + 2 * OVERHANG_MM) * self.s))
            ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
            mm = self.to_mm(np.column_stack([xs.ravel(), ys.ravel()]))
            px = reader.rect.mat_to_image(mm, loc, (shape[1], shape[0]))
            mx = px[:, 0].reshape(h, w).astype(np.float32)
            my = px[:, 1].reshape(h, w).astype(np.float32)
            seen = (mx >= 1) & (my >= 1) & (mx <= shape[1] - 2) & (my <= shape[0] - 2)
            self._maps = (mx, my, seen)
            self._maps_key = key
        assert self._maps is not None
        return self._maps

    def to_mm(self, px: np.ndarray) -> np.ndarray:
        """Mat mm of canvas pixels (their middles): the canvas reaches :data:`OVERHANG_MM` past the mat's edge."""
        return (np.asarray(px, np.float64) + 0.5) / self.s - OVERHANG_MM

    def to_px(self, mm: np.ndarray) -> np.ndarray:
        """Canvas pixels (fractional, pixel middles at integers) of mat mm."""
        return (np.asarray(mm, np.float64) + OVERHANG_MM) * self.s - 0.5

    def _zones(self, reader: Any, seen: np.ndarray, nadir: np.ndarray, cam_h: float
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Where a supply's blob may not reach to be counted whole: the frame's edge (the mat beyond it unseen) and the
        mat's markers, :data:`EDGE_MM` round them, and the table past the mat's edge; the markers' squares themselves (their print is no pawn: cut out
        of the paint); and the mat (a blob whose middle lies off it is the table's, not a pawn on the mat)."""
        mat = reader.mat
        bad = (~seen).astype(np.uint8)
        marks = np.zeros_like(bad)
        for mid in mat.marker_ids:
            c = np.array(mat.marker_corners_mm(mid))
            lo = np.floor(self.to_px(c.min(axis=0))).astype(int)
            hi = np.ceil(self.to_px(c.max(axis=0))).astype(int)
            cv2.rectangle(marks, (int(lo[0]), int(lo[1])), (int(hi[0]), int(hi[1])), 1, -1)
        k = 2 * max(int(round(EDGE_MM * self.s)), 1) + 1
        bad = cv2.dilate(bad | marks, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        on_mat = np.zeros_like(bad)
        a, b = np.round(self.to_px(np.array([[0.0, 0.0], [mat.width_mm, mat.height_mm]]))).astype(int)
        on_mat[a[1]:b[1], a[0]:b[0]] = 1
        # past the mat's edge by more than a pawn standing on it can show (its top pushed out from the farthest
        # corner, and the edge's blur): the table, whose wood may take a pawn's colour
        corners = np.array([[0.0, 0.0], [mat.width_mm, 0.0], [mat.width_mm, mat.height_mm], [0.0, mat.height_mm]])
        d = float(np.max(np.linalg.norm(corners - nadir, axis=1)))
        reach = d * PAWN_HEIGHT_MM / (cam_h - PAWN_HEIGHT_MM) + PAWN_MM / 2 * PAWN_HEIGHT_MM / (cam_h - PAWN_HEIGHT_MM) \
            + EDGE_MM
        r = max(int(math.ceil(reach * self.s)), 1)
        near = cv2.dilate(on_mat, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * r + 1, 2 * r + 1)))
        return (bad > 0) | (near == 0), marks > 0, on_mat > 0

    def _pieces(self, reading: Any, shape: tuple[int, int]) -> np.ndarray:
        """The covered triangles (the reader's lattice), :data:`PIECES_MM` round them, on the canvas."""
        out = np.zeros(shape, np.uint8)
        lat = getattr(reading, "lattice", None)
        covered = getattr(reading, "covered", None) or {}
        if lat is None or not covered:
            return out > 0
        from .sunda import tri_points

        tris = np.array(list(covered), np.int64).reshape(-1, 3)
        pts = tri_points(tris[:, 0], tris[:, 1], tris[:, 2])            # (n, 3, 2) lattice units
        mm = lat.to_mm(pts.reshape(-1, 2)).reshape(-1, 3, 2)
        polys = [np.round(self.to_px(p) * 16).astype(np.int32).reshape(-1, 1, 2) for p in mm]
        cv2.fillPoly(out, polys, 1, cv2.LINE_8, 4)
        k = 2 * int(round(PIECES_MM * self.s)) + 1
        return cv2.dilate(out, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))) > 0

    def _tribes_reach(self, reading: Any, nadir: np.ndarray, cam_h: float, shape: tuple[int, int],
                      into: np.ndarray | None = None) -> np.ndarray:
        """Where the reader's tribes can show on the canvas, each as tall as a tribe may be (five pawns): the capsule
        from its base to its top pushed from the nadir, the top's radius and :data:`PIECES_MM` round it; with ``into``
        (a mask of the canvas), drawn over a copy of it (the layout: the pieces and the tribes' reach, drawn in one
        pass)."""
        out = np.zeros(shape, np.uint8) if into is None else into.astype(np.uint8)
        z = 5 * PAWN_HEIGHT_MM
        for t in getattr(reading, "tribes", ()) or ():
            base = np.asarray(getattr(t, "mat_mm", (np.nan, np.nan)), np.float64)
            if not np.all(np.isfinite(base)):
                continue
            top = base + (base - nadir) * z / (cam_h - z)
            rad = PAWN_MM / 2 * cam_h / (cam_h - z) + PIECES_MM
            a, b = self.to_px(base), self.to_px(top)
            cv2.line(out, (int(round(a[0])), int(round(a[1]))), (int(round(b[0])), int(round(b[1]))), 1,
                     max(int(round(2 * rad * self.s)), 1))
            for p in (a, b):
                cv2.circle(out, (int(round(p[0])), int(round(p[1]))), int(round(rad * self.s)), 1, -1)
        return out.view(bool)       # (0 and 1 only)

    # ------------------------------------------------------------------ counting
    def count(self, frame: np.ndarray, reader: Any, reading: Any, nadir: np.ndarray, cam_h: float) -> SupplySeen:
        """Each pawn colour's pawns standing off the layout in ``frame`` (module doc)."""
        names = list(reader.pawn_names)
        loc, lut = getattr(reading, "_loc", None), getattr(reading, "_lut", None)
        if loc is None or lut is None:
            self.last = None
            return SupplySeen({c: None for c in names}, {c: "the frame was not read" for c in names}, [], {}, {},
                              self.s)
        mx, my, seen = self._canvas_maps(reader, loc, frame.shape)
        full = (0, 0, mx.shape[1], mx.shape[0])
        label = self.label(frame, lut, getattr(reading, "_relight", None), full)
        nadir = np.asarray(nadir, np.float64)
        masks = self._masks(reader, reading, seen, nadir, cam_h)
        scan = self._scan(label, full, full, masks, nadir, cam_h, names)
        self.last = _Counted(label, scan.found, scan.paint, scan.boxes, masks)
        return self._decide(scan.found, scan.paint, names, masks, nadir, cam_h)

    def label(self, frame: np.ndarray, lut: np.ndarray, relight: np.ndarray | None,
              box: tuple[int, int, int, int]) -> np.ndarray:
        """The reader's class of every canvas pixel in ``box`` (x0, y0, x1, y1), the frame put in the light of its
        colour table (``relight``: ``vision.sunda.relit``) and blurred by half a millimetre first, as the reader
        classifies (the blur reaches :data:`BLUR_PAD` pixels: the crop is resampled that much wider)."""
        from .sunda import colour_index, relit

        assert self._maps is not None
        mx, my, _ = self._maps
        h, w = mx.shape
        x0, y0, x1, y1 = box
        a0, b0, a1, b1 = max(x0 - BLUR_PAD, 0), max(y0 - BLUR_PAD, 0), min(x1 + BLUR_PAD, w), min(y1 + BLUR_PAD, h)
        img = cv2.remap(frame, np.ascontiguousarray(mx[b0:b1, a0:a1]), np.ascontiguousarray(my[b0:b1, a0:a1]),
                        cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        img = relit(img, relight)
        out = lut[colour_index(cv2.GaussianBlur(img, (0, 0), 0.5 * self.s))]
        self._lut = lut
        # the frame's lightness on the canvas, kept for the tops (:meth:`tops`): what the colour table's classes lose
        if self._grey is None or self._grey.shape != (h, w):
            self._grey = np.zeros((h, w), np.uint8)
        self._grey[y0:y1, x0:x1] = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)[y0 - b0:y1 - b0, x0 - a0:x1 - a0]
        return out[y0 - b0:y1 - b0, x0 - a0:x1 - a0]

    def _masks(self, reader: Any, reading: Any, seen: np.ndarray, nadir: np.ndarray, cam_h: float) -> "_Masks":
        """The canvas's masks a count looks at (:meth:`_zones`, :meth:`_pieces`, :meth:`_tribes_reach`), each made
        again only when what it is drawn from changed: the zones with the camera, the pieces with the covered
        triangles, the tribes' reach with the tribes."""
        shape = seen.shape
        zkey = (self._maps_key, nadir.tobytes(), float(cam_h))
        if self._zones_of is None or self._zones_of[0] != zkey:
            bounds, marks, on_mat = self._zones(reader, seen, nadir, cam_h)
            self._zones_of = (zkey, (bounds, marks, on_mat, ~seen | marks))
        bounds, marks, on_mat, unseen = self._zones_of[1]
        lat = getattr(reading, "lattice", None)
        pkey = (None if lat is None else (float(lat.angle_deg), float(lat.side_mm), tuple(lat.origin_mm)),
                frozenset(getattr(reading, "covered", None) or ()), shape)
        if self._pieces_of is None or self._pieces_of[0] != pkey:
            self._pieces_of = (pkey, self._pieces(reading, shape))
        pieces = self._pieces_of[1]
        tkey = (tribes_key(reading), nadir.tobytes(), float(cam_h), shape)
        if self._reach_of is None or self._reach_of[0] != tkey:
            self._reach_of = (tkey, self._tribes_reach(reading, nadir, cam_h, shape, into=pieces))
        one_px = self._single_px(np.asarray(reader.mat.play_centre_mm, np.float64), nadir, cam_h)
        return _Masks(pieces, bounds, marks, on_mat, self._reach_of[1], one_px, unseen)

    def _scan(self, label: np.ndarray, box: tuple[int, int, int, int], inner: tuple[int, int, int, int],
              masks: "_Masks", nadir: np.ndarray, cam_h: float, names: list[str]) -> "_Scan":
        """Each pawn colour's blobs in ``label`` (the canvas's classes in ``box``, x0, y0, x1, y1), those whose box
        meets ``inner`` (the whole canvas: every blob; a window of the gate, :class:`SupplyGate`: the blobs there,
        ``box`` being it grown by the opening's reach): what each is (split, or why it is not counted), the paint off
        the layout in ``inner`` and every blob's box (canvas px)."""
        x0, y0, x1, y1 = box
        pieces, bounds, marks = (m[y0:y1, x0:x1] for m in (masks.pieces, masks.bounds, masks.marks))
        on_mat, layout = masks.on_mat[y0:y1, x0:x1], masks.layout[y0:y1, x0:x1]
        one_px = masks.one_px
        k = int(2 * round(1.5 * self.s) + 1)       # thin lines (the play area's border, a marker's edge) opened away
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        found: list[_Found] = []
        paint_off: dict[str, np.ndarray] = {}
        boxes: dict[str, list[tuple[int, int, int, int]]] = {}
        ix0, iy0, ix1, iy1 = inner[0] - x0, inner[1] - y0, inner[2] - x0, inner[3] - y0
        for i, colour in enumerate(names):
            paint = (label == 3 + i) & ~marks
            mask = cv2.morphologyEx(paint.astype(np.uint8), cv2.MORPH_OPEN, disc)
            n, comp, stats, cent = cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=cv2.CV_32S)
            if n == 1:      # none of the colour's paint here (a gate's window: most colours): nothing to look at
                boxes[colour] = []
                paint_off[colour] = np.zeros((iy1 - iy0, ix1 - ix0), bool)
                continue
            here = ((stats[:, 0] < ix1) & (stats[:, 0] + stats[:, 2] > ix0) & (stats[:, 1] < iy1)
                    & (stats[:, 1] + stats[:, 3] > iy0))
            here[0] = False
            boxes[colour] = [(int(stats[j, 0]) + x0, int(stats[j, 1]) + y0, int(stats[j, 2]), int(stats[j, 3]))
                             for j in np.nonzero(here)[0]]
            on_pieces = np.zeros(n, bool)
            on_pieces[np.unique(comp[pieces])] = True
            # a blob on the pieces is a tribe's, unless it reaches beyond where any tribe there can show: then a
            # pawn of the supply touches the layout and cannot be told from it
            beyond = np.bincount(comp[~layout & (comp > 0)], minlength=n)
            touching = on_pieces & (beyond >= SPECK * one_px)
            at_bounds = np.zeros(n, bool)
            at_bounds[np.unique(comp[bounds])] = True
            # the colour's paint off the layout, on the mat (every pixel of it, specks too: what a change of the
            # supply between two frames is checked against)
            off = ~on_pieces[comp] & (comp > 0) & on_mat
            paint_off[colour] = off[iy0:iy1, ix0:ix1]
            for j in np.nonzero(here)[0]:
                x, y, w, h = (int(v) for v in stats[j, :4])
                key = (colour, x + x0, y + y0, w, h)
                if touching[j]:
                    at = tuple(float(v) for v in self.to_mm(cent[j] + (x0, y0)))
                    found.append(_Found(colour, at, int(stats[j, cv2.CC_STAT_AREA]), "layout", key))
                    continue
                if on_pieces[j] or stats[j, cv2.CC_STAT_AREA] < SPECK * one_px:
                    continue
                centre = (float(v) for v in self.to_mm(cent[j] + (x0, y0)))
                if not on_mat[int(round(cent[j][1])), int(round(cent[j][0]))]:
                    continue                            # off the mat: the table's wood, not a pawn on the mat
                sub = comp[y:y + h, x:x + w] == j
                at = tuple(centre)
                sp = self._split_once(colour, sub, (x + x0, y + y0), nadir, cam_h)
                # near the frame's edge, the mat's or a marker: counted only where no pawn may have lost paint there
                # (:meth:`_cut`), decided in :meth:`_decide`
                edge = (sub, (x + x0, y + y0)) if at_bounds[j] else None
                tops = (self._tops_fit(colour, sub, (x + x0, y + y0), sp, nadir, cam_h) if isinstance(sp, _Split)
                        else None)
                found.append(_Found(colour, at, int(sub.sum()), sp, key, edge, tops, (sub, (x + x0, y + y0))))
        return _Scan(found, paint_off, boxes)

    def _decide(self, found: list["_Found"], paint_off: dict[str, np.ndarray], names: list[str], masks: "_Masks",
                nadir: np.ndarray, cam_h: float) -> SupplySeen:
        """Each colour's count from its blobs (``found``, the whole canvas's), and the split cache turned over (what
        this count found is what the next compares with)."""
        counts: dict[str, int | None] = {}
        why: dict[str, str] = {}
        blobs: list[SupplyBlob] = []
        area = {c: self._area(paint_off[c]) for c in names}
        pawn_px: dict[str, float] = {}
        one_px = masks.one_px
        # how far the colour table puts a pawn's edge outside its outline (px): from the blobs whose count the misfit
        # alone tells (the median), each colour's own where it has such a blob (:data:`DELTA_BY_COLOUR`)
        deltas = self._deltas(found)
        reasons: dict[str, list[str]] = {c: [] for c in names}
        totals = {c: 0 for c in names}
        singles: dict[str, list[float]] = {c: [] for c in names}
        fill_of: dict[tuple, tuple] = {}
        cut_of: dict[tuple, tuple] = {}
        for colour, at, px, sp, key, edge, tops, mask in found:
            delta = deltas.get(colour)
            if not isinstance(sp, _Split):
                reasons[colour].append(f"a blob at {at[0]:.0f},{at[1]:.0f} mm " + (
                    "touches the layout" if sp == "layout" else "reaches the frame's or the mat's edge or a marker"))
                blobs.append(SupplyBlob(colour, at, px, None, sp))
                continue
            got, said = sp.decide(delta)
            got, said, bases = self._by_tops(sp, got, said, tops, delta)
            if (got is None and FILL and mask is not None and delta is not None and tops is not None
                    and tops.light >= TOP_LIGHT and len(tops.at) >= 2 and sp.fits):
                sigma = self._fill_sigma(found, delta, nadir, cam_h, deltas)
                drawn = (sp, tops, delta, sigma)
                old = self._fill_of.get(key)
                if (old is not None and old[0][0] is sp and old[0][1] is tops and old[0][2] == delta
                        and old[0][3] == sigma):
                    fill = old[1]
                    self.fill_calls["fill kept"] += 1
                else:
                    fill = self._fill_again(key, drawn, mask, nadir, cam_h)
                    if fill is None:
                        fill = self._by_fill(sp, tops, delta, sigma, *mask, nadir, cam_h)
                        self.fill_calls["fill"] += 1
                    self._fill_seen.setdefault(key, []).insert(0, (drawn, mask, nadir.tobytes(), float(cam_h),
                                                                   fill))
                    del self._fill_seen[key][FILL_SEEN:]
                fill_of[key] = (drawn, fill)
                if fill[0] is not None:
                    got, said, bases = fill
                else:
                    said = f"{said}; {fill[1]}"
            cut = edge is not None and (got is None or self._cut_once(key, edge, bases, nadir, cam_h, masks, cut_of))
            if cut:     # a pawn's paint may be lost there (a pawn cut by a marker is smaller than one: not a speck)
                said = "reaches the frame's or the mat's edge or a marker" + (f" ({said})" if got is None and said
                                                                              else "")
                got = None
            singles[colour].append(sp.one)
            if got is None and not cut and px < sp.one and sp.best == 1:
                continue                                # smaller than one pawn and no pawn's shape: not a pawn
            blobs.append(SupplyBlob(colour, at, px, got, said, bases if got is not None else []))
            if got is None:
                reasons[colour].append(f"the blob at {at[0]:.0f},{at[1]:.0f} mm: {said}")
            else:
                totals[colour] += got
        for colour in names:
            counts[colour] = None if reasons[colour] else totals[colour]
            why[colour] = "; ".join(reasons[colour])
            pawn_px[colour] = float(np.mean(singles[colour])) if singles[colour] else one_px
        self._split_before, self._split_now = self._split_now, {}
        keys = {f.key for f in found}
        self._tops_of = {k: v for k, v in self._tops_of.items() if k in keys}
        self._light_of = {k: v for k, v in self._light_of.items() if k in keys}
        self._fill_of = fill_of
        self._cut_of = cut_of
        self._fill_seen = {k: v for k, v in self._fill_seen.items() if k in keys}
        self._areas = {id(paint_off[c]): (paint_off[c], area[c]) for c in names}
        return SupplySeen(counts, why, blobs, area, pawn_px, self.s, paint_off)

    @staticmethod
    def _deltas(found: list["_Found"]) -> dict[str, float]:
        """Each colour's edge spread (px, :meth:`_Split.spread`): the median over the colour's blobs whose count the
        misfit alone tells; a colour with none such takes the median over every colour's (as before h-heights11, and
        every colour's where :data:`DELTA_BY_COLOUR` is False); no such blob at all: none (the area is no reading)."""
        by: dict[str, list[float]] = {}
        for f in found:
            if isinstance(f.split, _Split) and f.split.clear():
                by.setdefault(f.colour, []).append(f.split.spread(f.split.best))
        pooled = [v for vs in by.values() for v in vs]
        if not pooled:
            return {}
        every = float(np.median(pooled))
        out = {c: every for c in {f.colour for f in found}}
        if DELTA_BY_COLOUR:
            out.update({c: float(np.median(vs)) for c, vs in by.items()})
        return out

    def _fill_again(self, key: tuple, drawn: tuple, mask: tuple[np.ndarray, tuple[int, int]], nadir: np.ndarray,
                    cam_h: float) -> tuple | None:
        """A blob's fill (:meth:`_by_fill`) as it was drawn in one of its last counts from the very same split and
        tops (the split cache's and the tops cache's objects), edge spread and blur, with the same mask and corner,
        nadir and camera's height: the same result. The edge spread (``delta``, :meth:`_deltas`: the median over
        the colour's clear blobs) goes back and forth between a few values as other heaps lose a pawn and a speck
        comes and goes, and every heap's fill (some 10 ms each) was drawn again each time it moved. Else None."""
        sp, tops, delta, sigma = drawn
        nb = nadir.tobytes()
        for (d, m, n, h, fill) in self._fill_seen.get(key, ()):
            if (d[0] is sp and d[1] is tops and d[2] == delta and d[3] == sigma and n == nb and h == float(cam_h)
                    and m[1] == mask[1] and np.array_equal(m[0], mask[0])):
                self.fill_calls["fill seen"] += 1
                return fill
        return None

    def _cut_once(self, key: tuple, edge: tuple[np.ndarray, tuple[int, int]], bases: Sequence[Sequence[float]],
                  nadir: np.ndarray, cam_h: float, masks: "_Masks", cut_of: dict[tuple, tuple]) -> bool:
        """:meth:`_cut`, or what it said of the same blob (mask and corner) in the last count with the same bases,
        nadir, camera's height and zones (a blob by the bounds is looked at every frame: 1-2 ms each). What it says
        is kept in ``cut_of`` (this count's, :meth:`_decide`)."""
        drawn = (tuple(tuple(map(float, b)) for b in bases), nadir.tobytes(), float(cam_h), masks.unseen, masks.bounds)
        old = self._cut_of.get(key)
        if (old is not None and old[0][0] == drawn[0] and old[0][1] == drawn[1] and old[0][2] == drawn[2]
                and old[0][3] is drawn[3] and old[0][4] is drawn[4] and old[1][1] == edge[1]
                and np.array_equal(old[1][0], edge[0])):
            said = old[2]
        else:
            said = self._cut(*edge, bases, nadir, cam_h, masks.unseen, masks.bounds)
        cut_of[key] = (drawn, edge, said)
        return said

    def _area(self, paint: np.ndarray) -> int:
        """A colour's paint's pixels, kept for the last array counted (:class:`SupplyGate` hands a colour's paint
        on as the very array where no window changed it: 1.5 million pixels not counted again)."""
        kept = self._areas.get(id(paint))
        if kept is not None and kept[0] is paint:
            return kept[1]
        n = int(np.count_nonzero(paint))
        self._areas[id(paint)] = (paint, n)
        return n

    # ------------------------------------------------------------------ the fill: touching pawns' paint
    def _filled_misfit(self, blob: np.ndarray, origin_px: tuple[int, int], bases: Sequence[Sequence[float]],
                       nadir: np.ndarray, cam_h: float, sigma: float, delta: float) -> float:
        """How badly pawns standing at ``bases`` (mat mm) model a blob's paint as the camera's blur and the colour
        table make it (:data:`FILL`): their footprints' union (each filled whole: two pawns' overlap is paint, as the
        top of one hides the foot of its neighbour), blurred by a Gaussian of ``sigma`` px and taken where that exceeds
        the level putting a straight edge ``delta`` px out (the colour's edge spread, :meth:`_deltas`), so that the
        waists between touching pawns fill as the paint's do. The misfit as :meth:`_misfit` counts it against that
        paint: the pixels the two do not share, each edge placed within :data:`BAND_PX`, and the band two overlapping
        bases would have to move apart by."""
        b = np.asarray(bases, np.float64).reshape(-1, 2)
        ref, paint = self._filled(blob, origin_px, b, nadir, cam_h, sigma, delta)
        blob_in = _Blob(ref)
        return float(_pixels_off(blob_in.deep, blob_in.out, paint)) + self._overlap(b)

    def _filled(self, blob: np.ndarray, origin_px: tuple[int, int], bases: np.ndarray, nadir: np.ndarray,
                cam_h: float, sigma: float, delta: float) -> tuple[np.ndarray, np.ndarray]:
        """The blob and the paint pawns standing at ``bases`` (mat mm) leave as the blur fills it
        (:meth:`_filled_misfit`), on one window (the blob's box grown by a pawn and the blur's reach)."""
        h, w = blob.shape
        pad = int(math.ceil(PAWN_MM * self.s + 3 * sigma)) + 2
        ref = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
        ref[pad:pad + h, pad:pad + w] = blob
        shift = np.array([origin_px[0] - pad, origin_px[1] - pad], np.float64)
        union = np.zeros_like(ref)
        for poly in self._polys(bases, [footprint(x, nadir, cam_h) - x for x in bases], shift):
            cv2.fillPoly(union, [poly], 1, cv2.LINE_8, 4)       # one at a time: the union, overlaps filled
        level = 0.5 * math.erfc(delta / (sigma * math.sqrt(2.0)))     # the Gaussian's tail beyond delta
        paint = (cv2.GaussianBlur(union.astype(np.float32), (0, 0), sigma) >= level).astype(np.uint8)
        return ref, paint

    def _fill_sigma(self, found: list["_Found"], delta: float, nadir: np.ndarray, cam_h: float,
                    deltas: Mapping[str, float] | None = None) -> float:
        """The frame's blur (px) as the fill models it (:meth:`_filled_misfit`): among :data:`FILL_SIGMAS_MM`, the one
        under which the heaps whose count the misfit alone tells (:meth:`_Split.clear`, two pawns or more: their
        waists are what the blur fills; the :data:`FILL_HEAPS` largest) are modelled best, their best counts' pawns
        where the split put them. Measured once while the camera and the colour table hold (the blur is theirs, not a
        heap's); none such heap yet: the classes' own blur, half a millimetre, not kept."""
        key = (self._maps_key, self._lut)
        if self._blur is not None and self._blur[0] == key[0] and self._blur[1] is key[1]:
            return self._blur[2]
        heaps = [f for f in found if isinstance(f.split, _Split) and f.mask is not None and f.split.best is not None
                 and f.split.best >= 2 and f.split.clear()]
        if not heaps:
            return FILL_SIGMAS_MM[0] * self.s
        heaps = sorted(heaps, key=lambda f: -f.split.best)[:FILL_HEAPS]
        self.fill_calls["blur"] += 1
        errs = [sum(self._filled_misfit(*f.mask, f.split.bases[f.split.best], nadir, cam_h, sg * self.s,
                                        (deltas or {}).get(f.colour, delta)) for f in heaps) for sg in FILL_SIGMAS_MM]
        sigma = FILL_SIGMAS_MM[int(np.argmin(errs))] * self.s
        self._blur = (key[0], key[1], sigma)
        return sigma

    def _by_fill(self, sp: "_Split", tops: "_Tops", delta: float, sigma: float, blob: np.ndarray,
                 origin_px: tuple[int, int], nadir: np.ndarray, cam_h: float) -> tuple[int | None, str, list]:
        """A heap's count by the fill (:data:`FILL`), where the footprints and the tops did not agree on one
        (:meth:`_by_tops`): every count fitted (the split's, and the tops' pawns for their count, whichever fits the
        fill better) measured against the paint as the blur fills it (:meth:`_filled_misfit`). Taken where the best
        misfits by under :data:`MARGIN` of a footprint a pawn, every other count by :data:`MARGIN` of a footprint
        more, it is two pawns or more (the fill differs from the footprints only where pawns touch) and as many tops
        are seen: the fill and the tops, two readings, agree. Else (None, what the fill said)."""
        cands = {n: f[1] for n, f in sp.fits.items()}
        err = {n: self._filled_misfit(blob, origin_px, b, nadir, cam_h, sigma, delta) for n, b in cands.items()}
        m = len(tops.at)
        if tops.err is not None and len(tops.bases) == m:
            e = self._filled_misfit(blob, origin_px, tops.bases, nadir, cam_h, sigma, delta)
            if m not in err or e < err[m]:
                err[m], cands[m] = e, list(tops.bases)
        ranked = sorted(err, key=lambda n: err[n])
        best = ranked[0]
        gap = err[ranked[1]] - err[best] if len(ranked) > 1 else math.inf
        # the tops' own reading, where the fill ranks their count first but by less than the margin: every top seen
        # stands on a pawn of the heap (a red or yellow blob peaks nowhere but at a top), and the pawns under them leave
        # no pawn's patch of paint unexplained (:meth:`_loose`: a top missed on the heap's rim leaves one)
        tops_hold = (FILL_TOPS and best == m and gap > 0 and tops.err is not None and len(tops.bases) == m
                     and tops.loose < MARGIN * sp.one)
        if err[best] > MARGIN * sp.one * best or (gap < MARGIN * sp.one and not tops_hold) or best < 2:
            second = f" or {ranked[1]}" if len(ranked) > 1 else ""
            return None, (f"the paint as the blur fills it: {best}{second} pawns (misfits "
                          + ", ".join(f"{err[n] / sp.one:.2f}" for n in ranked[:2]) + " of a pawn's footprint)"), []
        if best != m:
            return None, f"the paint as the blur fills it: {best} pawns, {m} tops are seen", []
        return best, "", [tuple(map(float, x)) for x in cands[best]]

    def _cut(self, blob: np.ndarray, origin_px: tuple[int, int], bases: Sequence[Sequence[float]], nadir: np.ndarray,
             cam_h: float, unseen: np.ndarray, bounds: np.ndarray) -> bool:
        """Whether a blob near the frame's edge, the mat's or a marker (``bounds``) may have lost a pawn's paint there,
        its count (``bases``: its pawns, mat mm) being told by what the frame sees: the blob's paint by the bounds is
        not its pawns' (a pawn standing beyond them, a sliver of it seen: a patch no pawn of the count explains, as
        thick as the scan's opening keeps a blob's paint), or the unseen (past the frame's edge, a
        marker's square: ``unseen``) has room for one more pawn whose seen part lies within the blob's paint
        (:meth:`_room`: a pawn hidden there but for what its neighbours' paint already shows). A pawn of the count
        may itself reach into the unseen: its top and the rest of it are seen, and the count was told on the paint
        seen. :data:`EDGE_ROOM` False: as before h-heights10 (any pawn fitted reaching the unseen cuts)."""
        h, w = blob.shape
        pad = int(math.ceil(2 * PAWN_MM * self.s)) + 2
        x0, y0 = origin_px[0] - pad, origin_px[1] - pad
        H, W = h + 2 * pad, w + 2 * pad
        model = np.zeros((H, W), np.uint8)
        polys = [np.round((self.to_px(footprint(np.asarray(b, np.float64), nadir, cam_h)) - [x0, y0]) * 16)
                 .astype(np.int32).reshape(-1, 1, 2) for b in bases]
        cv2.fillPoly(model, polys, 1, cv2.LINE_8, 4)
        hidden = _window(unseen, x0, y0, W, H, True)
        if not EDGE_ROOM and (model.astype(bool) & hidden).any():
            return True
        own = np.zeros((H, W), np.uint8)
        own[pad:pad + h, pad:pad + w] = blob
        band = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * BAND_PX + 1, 2 * BAND_PX + 1))
        left = own.astype(bool) & ~(cv2.dilate(model, band) > 0)
        if EDGE_ROOM:
            # the paint no pawn of the count explains, as thick as the blob's own paint was kept (the scan's opening:
            # a row of pixels along a pawn fitted a pixel short is not a pawn's)
            k = int(2 * round(1.5 * self.s) + 1)
            left = cv2.morphologyEx(left.astype(np.uint8), cv2.MORPH_OPEN,
                                    cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))) > 0
        if (left & _window(bounds, x0, y0, W, H, True)).any():
            return True
        return EDGE_ROOM and self._room(own, hidden, (x0, y0), bases, nadir, cam_h)

    def _room(self, own: np.ndarray, hidden: np.ndarray, origin_px: tuple[int, int],
              bases: Sequence[Sequence[float]], nadir: np.ndarray, cam_h: float) -> bool:
        """Whether one more pawn may stand partly in the unseen (``hidden``, a window of the canvas at ``origin_px``)
        by a blob (``own``, 0/1 on that window) whose pawns stand at ``bases`` (mat mm), adding nothing to its paint:
        a base at least a pawn's width from each of theirs (two pawns cannot stand in one place; less
        :data:`EDGE_ROOM_MM` for where the fit puts them) whose footprint meets the unseen, and whose seen part lies
        within the blob's paint (each edge within :data:`BAND_PX`) and is :data:`SPECK` of a footprint at least. A pawn
        seen less than that is no pawn to the count anywhere (alone, its paint is a speck): hidden under a marker or
        past the frame's edge, whole or nearly, it is missed as a lone one is, which the live loop's count catches by
        the log (``SundaRecognizer.supply_taken``: the supply seen and the pawns logged must make the rule book's).
        The footprint is the one at the blob's middle (its shape changes by a tenth of a millimetre across a heap)."""
        ys, xs = np.nonzero(own)
        if not len(xs):
            return False
        mid = self.to_mm(np.array([[xs.mean() + origin_px[0], ys.mean() + origin_px[1]]], np.float64))[0]
        shape = self.to_px(footprint(mid, nadir, cam_h)) - self.to_px(mid[None])[0]
        r = int(math.ceil(np.abs(shape).max())) + 1
        whole = np.zeros((2 * r + 1, 2 * r + 1), np.uint8)
        cv2.fillPoly(whole, [np.round((shape + r) * 16).astype(np.int32).reshape(-1, 1, 2)], 1, cv2.LINE_8, 4)
        inner = cv2.erode(whole, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * BAND_PX + 1, 2 * BAND_PX + 1)))
        hid = hidden.astype(np.uint8)
        a = (r, r)
        fits = cv2.erode(own | hid, inner, anchor=a, borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0
        seen = cv2.filter2D((1 - hid).astype(np.float32), -1, whole.astype(np.float32), anchor=a,
                            borderType=cv2.BORDER_CONSTANT)
        room = fits & (seen >= SPECK * float(whole.sum())) & (cv2.dilate(hid, whole, anchor=a) > 0)
        if not room.any():
            return False
        b = np.asarray(bases, np.float64).reshape(-1, 2)
        if not len(b):
            return True
        py, px = np.nonzero(room)
        at = self.to_mm(np.column_stack([px + origin_px[0], py + origin_px[1]]).astype(np.float64))
        return bool((np.linalg.norm(at[:, None] - b[None], axis=2).min(axis=1) >= PAWN_MM - EDGE_ROOM_MM).any())

    def tops(self, blob: np.ndarray, origin_px: tuple[int, int], cam_h: float) -> np.ndarray | None:
        """The pawns' tops seen in a blob (``blob``: its mask, its box's corner at ``origin_px`` on the canvas): the
        middles (mat mm) of the top discs in the frame's lightness (:meth:`label` keeps it), which the colour table's
        classes lose between touching pawns. A top is a disc of radius ``R H / (H - h)`` (every supply pawn's top is at
        ``h``: none hides another's), its pawn's lightest face, of its own colour all round; round it lie the pawn's
        shaded side, the dark gap between touching pawns or the mat. Each top is where the lightness over the disc's
        middle (:data:`TOP_CORE` of its radius) exceeds that over the ring just round it (:data:`TOP_RING_MM`; the
        pixels off the blob taken as dark as its darkest: the mat may be lighter than a pawn) by :data:`TOP_CONTRAST` of
        the blob's contrast, the most within 0.7 of a top's diameter (two tops are a diameter apart at least). None: no
        lightness kept, or a blob of one flat tone (no top told from a side)."""
        got = self._top_grey(blob, origin_px, cam_h)
        return None if got is None else self._tops_in(blob, origin_px, cam_h, got)

    def _top_grey(self, blob: np.ndarray, origin_px: tuple[int, int], cam_h: float) -> np.ndarray | None:
        """The lightness :meth:`tops` looks at round a blob: the blob's box grown by a top's ring (0 off the canvas).
        None: no lightness kept."""
        if self._grey is None:
            return None
        pad = self._top_radii(cam_h)[3] + 1
        h, w = blob.shape
        x0, y0 = origin_px[0] - pad, origin_px[1] - pad
        H, W = h + 2 * pad, w + 2 * pad
        grey = np.zeros((H, W), np.float32)
        gx0, gy0 = max(x0, 0), max(y0, 0)
        gx1, gy1 = min(x0 + W, self._grey.shape[1]), min(y0 + H, self._grey.shape[0])
        grey[gy0 - y0:gy1 - y0, gx0 - x0:gx1 - x0] = self._grey[gy0:gy1, gx0:gx1]
        return grey

    def _top_radii(self, cam_h: float) -> tuple[float, int, int, int]:
        """A top's radius (px), its core's, and its ring's inner and outer (:meth:`tops`)."""
        rt = PAWN_MM / 2 * cam_h / (cam_h - PAWN_HEIGHT_MM) * self.s         # a top's radius (px)
        return rt, max(int(round(TOP_CORE * rt)), 1), int(round(rt)) + 1, int(round(rt + TOP_RING_MM * self.s))

    def _tops_in(self, blob: np.ndarray, origin_px: tuple[int, int], cam_h: float, grey: np.ndarray
                 ) -> np.ndarray | None:
        """:meth:`tops` in ``grey``, the lightness round the blob (:meth:`_top_grey`)."""
        return self._tops_seen(blob, origin_px, cam_h, grey)[0]

    def _tops_seen(self, blob: np.ndarray, origin_px: tuple[int, int], cam_h: float, grey: np.ndarray
                   ) -> tuple[np.ndarray | None, float]:
        """:meth:`_tops_in`, and the blob's paint's lightness: the median of its inner pixels' (:data:`TOP_LIGHT`;
        255: no tops looked at)."""
        got = self._top_score(blob, origin_px, cam_h, grey)
        if got is None:
            return None, 255.0
        score, own, (x0, y0) = got
        rt = self._top_radii(cam_h)[0]
        k = int(round(1.4 * rt)) | 1
        most = cv2.dilate(score, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        peak = ((score >= most) & (score > TOP_CONTRAST) & (own > 0)).astype(np.uint8)
        n, _, _, cent = cv2.connectedComponentsWithStats(peak, connectivity=8)
        light = float(np.median(grey[cv2.erode(own, np.ones((3, 3), np.uint8)) > 0]))
        return (self.to_mm(cent[1:] + [x0, y0]) if n > 1 else np.zeros((0, 2))), light

    def _top_score(self, blob: np.ndarray, origin_px: tuple[int, int], cam_h: float, grey: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, tuple[int, int]] | None:
        """Each pixel's score as a top's middle (:meth:`tops`: the core's lightness less the ring's, over the blob's
        contrast), the blob's mask on the same window and the window's corner (canvas px). None: too few pixels, or
        a blob of one flat tone."""
        rt, core, ri, ro = self._top_radii(cam_h)
        pad = ro + 1
        h, w = blob.shape
        x0, y0 = origin_px[0] - pad, origin_px[1] - pad
        H, W = h + 2 * pad, w + 2 * pad
        own = np.zeros((H, W), np.uint8)
        own[pad:pad + h, pad:pad + w] = blob
        # the blob's pixels a pixel inside its edge: its edge pixels are mixed with the mat by the blur
        inner = cv2.erode(own, np.ones((3, 3), np.uint8)) > 0
        if np.count_nonzero(inner) < 2:
            return None
        vals = grey[inner]
        lo, hi = float(np.percentile(vals, 2)), float(np.percentile(vals, 90))
        if hi - lo < TOP_FLOOR:
            return None
        g = np.where(inner, grey, lo).astype(np.float32)
        k_core = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * core + 1, 2 * core + 1)).astype(np.float32)
        k_ring = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ro + 1, 2 * ro + 1)).astype(np.float32)
        k_ring[ro - ri:ro + ri + 1, ro - ri:ro + ri + 1] -= cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (2 * ri + 1, 2 * ri + 1)).astype(np.float32)
        score = (cv2.filter2D(g, -1, k_core / k_core.sum(), borderType=cv2.BORDER_REPLICATE)
                 - cv2.filter2D(g, -1, k_ring / k_ring.sum(), borderType=cv2.BORDER_REPLICATE)) / (hi - lo)
        return score, own, (x0, y0)

    def _tops_fit(self, colour: str, blob: np.ndarray, origin_px: tuple[int, int], sp: "_Split", nadir: np.ndarray,
                  cam_h: float) -> "_Tops | None":
        """The tops seen in a blob (:meth:`tops`) and, unless the misfit alone tells the same count, as many pawns
        fitted to its paint from the bases under them (a top is its base pushed from the nadir by ``d h / (H - h)``),
        each moved a pixel at a time where the model fits better, as every count is fitted."""
        if sp.best is None:
            return None
        grey = self._top_grey(blob, origin_px, cam_h)
        if grey is None:
            return None
        # what the blob's tops and fit are drawn from; a blob of the last count drawn from the same (a heap a window
        # of the gate looked at again, its pixels unchanged; or its tops seen where they were) is not looked at again
        key = (colour, origin_px[0], origin_px[1], blob.shape[1], blob.shape[0])      # as :class:`_Found`'s key
        fit_of = (sp.best, sp.clear(), np.asarray(nadir, np.float64).tobytes(), float(cam_h))
        kept = next((v for v in self._tops_of.values() if v[5] is sp and v[2] == fit_of), None)
        if kept is not None:
            # the split cache took the blob for one of the last count (:meth:`_split_once`: under :data:`SAME_BLOB`
            # of a footprint differing): its tops and their fit are what they were, as its split is
            self._tops_of[key] = kept
            self.tops_calls["tops kept"] += 1
            return kept[4]
        old = self._tops_of.get(key)
        same = old is not None and np.array_equal(old[0], blob)
        light = self._light_of.get(key) if same and np.array_equal(old[1], grey) else None
        if light is not None:
            at = old[3]
            self.tops_calls["tops kept"] += 1
        else:
            at, light = self._tops_seen(blob, origin_px, cam_h, grey)
            self.tops_calls["tops"] += 1
        self._light_of[key] = light
        if at is None:
            got = None
        elif not len(at) or (len(at) == sp.best and sp.clear()):
            got = _Tops(at, None, [], light=light)
        elif same and old[2] == fit_of and old[4] is not None and np.array_equal(old[4].at, at):
            got = old[4]
            self.tops_calls["fit kept"] += 1
        else:
            bases = nadir + (at - nadir) * (cam_h - PAWN_HEIGHT_MM) / cam_h
            by = self._tops_lost_one(key, at, fit_of, bases) if TOPS_REFIT else None
            if by is not None:
                bases, by = by
                self.tops_calls["refit"] += 1
            err, placed, u_area, u_edge = self._placed(blob, origin_px, bases, nadir, cam_h, True, by)
            got = _Tops(at, float(err), placed, self._loose(blob, origin_px, placed, nadir, cam_h), int(u_area),
                        int(u_edge), light)
            self.tops_calls["fit"] += 1
        self._tops_of[key] = (blob, grey, fit_of, at, got, sp)
        return got

    def _tops_lost_one(self, key: tuple, at: np.ndarray, fit_of: tuple, bases: np.ndarray
                       ) -> tuple[np.ndarray, list[int]] | None:
        """A heap that lost one pawn since the last count, its tops fitted from that count's (as :meth:`_refit` fits
        its split): the one blob of its colour there whose box meets this one's and whose tops were fitted; each top
        seen now within a pixel of one seen then, and one top of then gone. The pawns start where that fit put them,
        and only those within two pawns' widths of the one gone are moved (``bases``, ``movable`` for
        :meth:`_placed`). Else None (fitted afresh from the tops)."""
        colour, x0, y0, w, h = key
        before = [v for k, v in self._tops_of.items() if k[0] == colour and k[1] < x0 + w
                  and x0 < k[1] + k[3] and k[2] < y0 + h and y0 < k[2] + k[4] and v[4] is not None
                  and v[4].err is not None]
        if len(before) != 1 or before[0][2][2:] != fit_of[2:]:
            return None
        old = before[0][4]
        if len(old.at) != len(at) + 1 or len(old.bases) != len(old.at):
            return None
        d = np.linalg.norm(at[:, None] - old.at[None], axis=2)
        j = np.argmin(d, axis=1)
        if d[np.arange(len(at)), j].max() > 1.0 / self.s or len(set(j.tolist())) != len(at):
            return None
        gone = np.asarray(old.bases[int(next(i for i in range(len(old.at)) if i not in set(j.tolist())))])
        start = np.asarray([old.bases[i] for i in j], np.float64).reshape(-1, 2)
        by = [i for i, b in enumerate(bases) if np.linalg.norm(b - gone) <= 2 * PAWN_MM]
        return start, by

    def _loose(self, blob: np.ndarray, origin_px: tuple[int, int], bases: Sequence[Sequence[float]],
               nadir: np.ndarray, cam_h: float) -> float:
        """The largest patch (px) of a blob's paint that no pawn standing at ``bases`` covers, or of those pawns'
        footprints on no paint, each a pixel (:data:`BAND_PX`) clear of the other's edge and opened by a disc half a
        top across (the edge's spread is a band, a pawn missed or too many a footprint, less what its neighbours
        cover)."""
        h, w = blob.shape
        pad = int(math.ceil(PAWN_MM * self.s)) + 2
        x0, y0 = origin_px[0] - pad, origin_px[1] - pad
        model = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
        polys = [np.round((self.to_px(footprint(np.asarray(b, np.float64), nadir, cam_h)) - [x0, y0]) * 16)
                 .astype(np.int32).reshape(-1, 1, 2) for b in bases]
        cv2.fillPoly(model, polys, 1, cv2.LINE_8, 4)
        own = np.zeros_like(model)
        own[pad:pad + h, pad:pad + w] = blob
        band = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * BAND_PX + 1, 2 * BAND_PX + 1))
        k = int(round(PAWN_MM / 2 * self.s)) | 1
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        most = 0
        for a, b in ((own, model), (model, own)):
            left = cv2.morphologyEx(((a > 0) & ~(cv2.dilate(b, band) > 0)).astype(np.uint8), cv2.MORPH_OPEN, disc)
            n, _, stats, _ = cv2.connectedComponentsWithStats(left, connectivity=8)
            if n > 1:
                most = max(most, int(stats[1:, cv2.CC_STAT_AREA].max()))
        return float(most)

    def _by_tops(self, sp: "_Split", got: int | None, said: str, tops: "_Tops | None", delta: float | None
                 ) -> tuple[int | None, str, list]:
        """A blob's count, and its pawns' bases, where the paint's footprints (``got``, ``said``:
        :meth:`_Split.decide`) and the tops seen (:meth:`_tops_fit`) are two readings of it. A count the misfit alone
        tells, or the paint's area where the misfit leaves two (:meth:`_Split.decide`), is kept where as many tops are
        seen. Otherwise the count of the tops is taken only where the pawns fitted from under them (:meth:`_tops_fit`)
        fit the paint as a count must (under :data:`MARGIN` of a footprint a pawn, and no count fitted better by
        :data:`MARGIN` of a footprint), leave no patch of paint unexplained, nor of model on no paint, of
        :data:`MARGIN` of a footprint (:meth:`_loose`: a top missed leaves a pawn's paint, a top too many a footprint
        of model on none), and hold the paint's area as :meth:`_Split.decide` holds it (``delta``: the colour's edge
        spread; within :data:`MARGIN` of a footprint: at ``hard`` a top missed in a heap left no patch, its
        neighbours' footprints covering it, but 0.7-0.8 of a footprint of area). Else the blob is asked. No tops
        looked at: the footprints' word, as before. The tops of a dark paint (:data:`TOP_LIGHT`) are no
        reading: a count the misfit alone tells is kept where as many are seen, and the blob is asked otherwise."""
        bases = sp.bases[got] if got is not None else []
        if tops is None:
            return got, said, bases
        m = len(tops.at)
        # an asked blob's reason starts with what the footprints said (never "None pawns fit ...")
        why = said or (f"{got} pawns fit the paint" if got is not None else "no count of pawns fits the paint")
        if tops.light < TOP_LIGHT and not (got is not None and m == got and sp.clear()):
            return None, (f"{why}; {m} tops are seen, on a paint too dark for its tops to be told (lightness "
                          f"{tops.light:.0f}, under {TOP_LIGHT:g})"), []
        if got is not None and m == got:
            return got, said, bases
        if tops.err is None or not m:
            return None, f"{why}; {m} tops are seen", []
        others = [f[0] for n, f in sp.fits.items() if n != m]
        if (tops.err > MARGIN * sp.one * m or (others and tops.err > min(others) + MARGIN * sp.one)
                or tops.loose >= MARGIN * sp.one or delta is None
                or abs(sp.area - tops.area - delta * tops.edge) > MARGIN * sp.one):
            return None, f"{why}; {m} tops are seen, and {m} pawns fitted from under them do not fit the paint", []
        return m, "", tops.bases

    def _single_px(self, base: np.ndarray, nadir: np.ndarray, cam_h: float) -> float:
        """One pawn's footprint at ``base`` in canvas pixels."""
        return float(cv2.contourArea(footprint(base, nadir, cam_h).astype(np.float32))) * self.s ** 2

    def _split_once(self, colour: str, blob: np.ndarray, origin_px: tuple[int, int], nadir: np.ndarray, cam_h: float
                    ) -> tuple:
        """:meth:`split`, or what it said of the same blob in the frame before: the same box (within a pixel) and
        under :data:`SAME_BLOB` of a pawn's footprint of pixels differing (noise moves an edge, a pawn taken or put
        down changes a whole footprint)."""
        h, w = blob.shape
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dw in (-1, 0, 1):
                    for dh in (-1, 0, 1):
                        got = self._split_before.get((colour, origin_px[0] + dx, origin_px[1] + dy, w + dw, h + dh))
                        if got is None:
                            continue
                        old, said = got
                        x0, y0 = min(origin_px[0], origin_px[0] + dx), min(origin_px[1], origin_px[1] + dy)
                        W, H = max(w, w + dw) + 2, max(h, h + dh) + 2
                        a = np.zeros((H, W), bool)
                        b = np.zeros((H, W), bool)
                        a[origin_px[1] - y0:origin_px[1] - y0 + h, origin_px[0] - x0:origin_px[0] - x0 + w] = blob
                        oy, ox = origin_px[1] + dy - y0, origin_px[0] + dx - x0
                        b[oy:oy + h + dh, ox:ox + w + dw] = old
                        if np.count_nonzero(a != b) < SAME_BLOB * said.one:
                            self._split_now[(colour, origin_px[0], origin_px[1], w, h)] = (blob, said)
                            return said
        said = self._refit(colour, blob, origin_px, nadir, cam_h) if REFIT else None
        if said is None:
            said = self.split(blob, origin_px, nadir, cam_h)
        self._split_now[(colour, origin_px[0], origin_px[1], w, h)] = (blob, said)
        return said

    def _refit(self, colour: str, blob: np.ndarray, origin_px: tuple[int, int], nadir: np.ndarray, cam_h: float
               ) -> "_Split | None":
        """A heap that lost one pawn since the frame before, fitted from what the frame before's split said (a split
        is half a second of one core for a heap of twenty): the one blob of its colour there that this one meets, whose
        count was clear (:meth:`_Split.clear`) at ``n``; its paint lost since is one place of at most a pawn's paint
        and a half (an opening by a disc a quarter of a pawn across keeps it; :func:`supply_change_agrees`), and no
        paint came. The pawn whose footprint held most of that place left: ``n - 1`` pawns start where the others
        stood, ``n`` where all did (the pawn that left may have stepped into the heap), and in both the pawns within
        two pawns' widths of the place are moved as a split moves them (the others stood fitted in the frame before,
        and nothing changed round them). Taken where ``n - 1`` fits clearly better than ``n`` (the margins a split's
        count must clear) and misfits by at most half a pawn's footprint more than ``n`` did the frame before: the
        same heap, a pawn less. Else None (:meth:`split` fits the blob afresh). A heap is not fitted afresh to each
        count again: the count's continuity is the frame before's, and whether it is trusted stays the live loop's
        (the rules, the log and the paint lost: ``SundaRecognizer.supply_taken``)."""
        h, w = blob.shape
        x0, y0 = origin_px
        before = [(k, v) for k, v in self._split_before.items() if k[0] == colour
                  and k[1] < x0 + w and x0 < k[1] + k[3] and k[2] < y0 + h and y0 < k[2] + k[4]
                  and _window(blob, k[1] - x0, k[2] - y0, k[3], k[4], False)[v[0]].any()]    # whose pixels it meets
        if len(before) != 1:
            return None
        (_, ox, oy, ow, oh), (old, said) = before[0]
        if not isinstance(said, _Split) or said.best is None or said.best < 2 or not said.clear():
            return None
        n = said.best
        X0, Y0 = min(x0, ox), min(y0, oy)
        a = np.zeros((max(y0 + h, oy + oh) - Y0, max(x0 + w, ox + ow) - X0), np.uint8)
        b = np.zeros_like(a)
        a[oy - Y0:oy - Y0 + oh, ox - X0:ox - X0 + ow] = old
        b[y0 - Y0:y0 - Y0 + h, x0 - X0:x0 - X0 + w] = blob
        k = max(int(round(PAWN_MM / 4 * self.s)), 3) | 1
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        place = MARGIN * said.one * 0.5       # a patch an opening keeps of a pawn's footprint (supply_change_agrees)
        gained = cv2.morphologyEx(b & (1 - a), cv2.MORPH_OPEN, disc)
        if np.count_nonzero(gained) >= place:
            return None
        nl, comp, stats, _ = cv2.connectedComponentsWithStats(cv2.morphologyEx(a & (1 - b), cv2.MORPH_OPEN, disc),
                                                              connectivity=8)
        places = [i for i in range(1, nl) if stats[i, cv2.CC_STAT_AREA] >= place]
        if len(places) != 1:
            return None
        lost = (comp == places[0]).astype(np.uint8)
        if np.count_nonzero(lost) > (1 + MARGIN) * said.one:
            return None                         # more than one pawn's paint: two pawns left, or the heap moved
        bases = np.asarray(said.bases[n], np.float64).reshape(-1, 2)
        held = []
        for base in bases:
            m = np.zeros_like(lost)
            cv2.fillPoly(m, [np.round((self.to_px(footprint(base, nadir, cam_h)) - [X0, Y0]) * 16)
                             .astype(np.int32).reshape(-1, 1, 2)], 1, cv2.LINE_8, 4)
            held.append(int(np.count_nonzero(m & lost)))
        j = int(np.argmax(held))
        if held[j] < 0.5 * np.count_nonzero(lost):
            return None
        gone = bases[j]
        rest = np.delete(bases, j, axis=0)
        by = [i for i, base in enumerate(rest) if np.linalg.norm(base - gone) <= 2 * PAWN_MM]
        fits: dict[int, tuple] = {n - 1: self._placed(blob, origin_px, rest, nadir, cam_h, True, by)}
        fits[n] = self._placed(blob, origin_px, np.vstack([rest, gone]), nadir, cam_h, True, by + [n - 1])
        ys, xs = np.nonzero(blob)
        mid = self.to_mm(np.column_stack([xs + x0, ys + y0])).mean(axis=0)
        got = _Split(float(len(xs)), self._single_px(mid, nadir, cam_h), fits)
        if got.best != n - 1 or not got.clear() or fits[n - 1][0] > said.fits[n][0] + MARGIN * got.one:
            return None
        return got

    def split(self, blob: np.ndarray, origin_px: tuple[int, int], nadir: np.ndarray, cam_h: float) -> "_Split":
        """The counts of pawns that may stand in one blob (``blob``: its mask, its box's corner at ``origin_px`` on
        the canvas), each fitted (:class:`_Split`; :meth:`_Split.decide` tells the count)."""
        ys, xs = np.nonzero(blob)
        pts = self.to_mm(np.column_stack([xs + origin_px[0], ys + origin_px[1]]))    # mat mm
        mid = pts.mean(axis=0)
        one = self._single_px(mid, nadir, cam_h)
        top = math.pi * (PAWN_MM / 2) ** 2 * self.s ** 2 * 0.9      # a top, as small as blur leaves it
        a = float(len(pts))
        lo = max(1, int(math.floor(a / one)) - 1)
        hi = max(lo, int(math.ceil(a / top)) + 1)
        if lo > MOST_PAWNS:
            return _Split(a, one, {})
        # the counts the paint allows (each pawn's footprint at most, its top at least), from the likeliest outwards
        # while the misfit falls
        fits: dict[int, tuple[float, list]] = {}
        n0 = min(max(int(round(2 * a / (one + top))), lo), hi)
        for n in (n0 - 1, n0, n0 + 1):
            if lo <= n <= hi:
                fits[n] = self._fit(blob, origin_px, pts, n, nadir, cam_h)
        for step in (-1, 1):
            n = min(fits) if step < 0 else max(fits)
            while lo <= n + step <= hi and fits[n][0] < fits[n - step][0] if (n - step) in fits else False:
                n += step
                fits[n] = self._fit(blob, origin_px, pts, n, nadir, cam_h)
        ranked = sorted(fits, key=lambda n: fits[n][0])
        for n in ranked[:2]:                        # the likeliest counts, each pawn's place refined
            fits[n] = self._fit(blob, origin_px, pts, n, nadir, cam_h, refine=True)
        # the places where a whole pawn's footprint fits in the blob (k-means groups a large cluster's pixels by
        # nearness, not by the pawns' shapes, and misplaces some of twenty pawns): that count fitted from there, and
        # one more and one less, so that it competes with its neighbours as every count does
        seeds = self.seeds(blob, origin_px, mid, nadir, cam_h)
        m = len(seeds)
        if lo <= m <= hi:
            for n in (m - 1, m + 1):
                if lo <= n <= hi and n not in fits:
                    fits[n] = self._fit(blob, origin_px, pts, n, nadir, cam_h, refine=True)
            got = self._fit(blob, origin_px, pts, m, nadir, cam_h, refine=True, bases0=seeds)
            if m not in fits or got[0] < fits[m][0]:
                fits[m] = got
        return _Split(a, one, fits)

    def seeds(self, blob: np.ndarray, origin_px: tuple[int, int], mid: np.ndarray, nadir: np.ndarray, cam_h: float
              ) -> np.ndarray:
        """Where pawns of a blob stand, by the projection alone: the bases (mat mm) at which one pawn's whole
        footprint (:func:`footprint` at the blob's middle, less :data:`BAND_PX` round it: the colour table's edge)
        lies in the blob's paint, one per connected place (two pawns' bases are a pawn's width apart; between touching
        pawns no footprint fits), at each place's middle."""
        shape = footprint(np.asarray(mid, np.float64), nadir, cam_h) - mid          # about the base (mm)
        lo = np.floor(shape.min(axis=0) * self.s).astype(int) - 1
        hi = np.ceil(shape.max(axis=0) * self.s).astype(int) + 1
        k = np.zeros((hi[1] - lo[1] + 1, hi[0] - lo[0] + 1), np.uint8)
        cv2.fillPoly(k, [np.round((shape * self.s - lo) * 16).astype(np.int32).reshape(-1, 1, 2)], 1, cv2.LINE_8, 4)
        k = cv2.erode(k, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * BAND_PX + 1, 2 * BAND_PX + 1)))
        if not k.any():
            return np.zeros((0, 2))
        pad = int(max(k.shape))
        ref = np.zeros((blob.shape[0] + 2 * pad, blob.shape[1] + 2 * pad), np.uint8)
        ref[pad:pad + blob.shape[0], pad:pad + blob.shape[1]] = blob
        # erode anchored at the base: a pixel stays where the footprint with its base there lies in the paint
        fit = cv2.erode(ref, k, anchor=(int(-lo[0]), int(-lo[1])), borderType=cv2.BORDER_CONSTANT, borderValue=0)
        n, _, _, cent = cv2.connectedComponentsWithStats(fit, connectivity=8)
        if n <= 1:
            return np.zeros((0, 2))
        return self.to_mm(cent[1:] + [origin_px[0] - pad, origin_px[1] - pad])

    def _fit(self, blob: np.ndarray, origin_px: tuple[int, int], pts: np.ndarray, n: int, nadir: np.ndarray,
             cam_h: float, refine: bool = False, bases0: np.ndarray | None = None
             ) -> tuple[float, list[tuple[float, float]]]:
        """``n`` pawns fitted to a blob: its pixels grouped by Lloyd's k-means (from the farthest points), each pawn's
        base where its footprint's middle is the group's; the misfit (px): the pixels the model and the blob do not
        share, and those where two bases overlap. ``bases0``: the bases to start from (:meth:`seeds`), not k-means'."""
        if bases0 is not None:
            return self._placed(blob, origin_px, np.asarray(bases0, np.float64).reshape(-1, 2), nadir, cam_h, refine)
        pts = pts[::2] if len(pts) > 400 else pts        # every other pixel groups as well
        centres = _farthest(pts, n)
        one_mm = _footprint_reach(nadir, cam_h, pts.mean(axis=0))
        x, y = np.ascontiguousarray(pts[:, 0]), np.ascontiguousarray(pts[:, 1])
        rows = np.arange(len(x))
        for _ in range(30):
            # the squared distances, a coordinate at a time (the (points, pawns, 2) array and its sum cost 4 times
            # as much: a heap of 25 pawns was split in 1.7 s, 1.5 s of it here)
            d = np.square(x[:, None] - centres[None, :, 0])
            d += np.square(y[:, None] - centres[None, :, 1])
            near = np.argmin(d, axis=1)
            # each pawn's pixels: those nearest its middle, within its footprint's reach (a pixel of another pawn
            # farther off does not pull it)
            own = d[rows, near] <= one_mm ** 2
            k_own = near[own]
            cnt = np.bincount(k_own, minlength=n)
            sums = np.column_stack([np.bincount(k_own, x[own], minlength=n), np.bincount(k_own, y[own], minlength=n)])
            new = np.where(cnt[:, None] > 0, sums / np.maximum(cnt, 1)[:, None], centres)
            # (``np.allclose(new, centres, atol=1e-3)`` written out: its checks cost as much as a round's distances)
            if (np.abs(new - centres) <= 1e-3 + 1e-5 * np.abs(centres)).all():
                break
            centres = new
        bases = np.array([_base_of(c, nadir, cam_h) for c in centres]).reshape(-1, 2)
        return self._placed(blob, origin_px, bases, nadir, cam_h, refine)

    def _placed(self, blob: np.ndarray, origin_px: tuple[int, int], bases: np.ndarray, nadir: np.ndarray,
                cam_h: float, refine: bool, movable: Sequence[int] | None = None
                ) -> tuple[float, list[tuple[float, float]], int, int]:
        """Pawns standing at ``bases`` (mat mm) against a blob: the misfit (:meth:`_misfit`), each pawn moved by a
        pixel at a time where the model fits better (``refine``), the bases, the model's pixels and its edge's.
        ``movable``: only these pawns are moved (:meth:`_refit`: those by the place a pawn left), each trial measured
        on the pixels round them (:class:`_Local`; the same misfit as on the whole window)."""
        n = len(bases)
        h, w = blob.shape
        pad = int(math.ceil(PAWN_MM * self.s))
        ref = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
        ref[pad:pad + h, pad:pad + w] = blob
        shift = np.array([origin_px[0] - pad, origin_px[1] - pad], np.float64)
        shapes = [footprint(b, nadir, cam_h) - b for b in bases]      # each pawn's outline about its base (mm)
        blob_in = _Blob(ref)
        polys = self._polys(bases, shapes, shift)
        if not refine:
            err, u_area, u_edge = self._misfit(blob_in, bases, polys)
            return err, [(float(b[0]), float(b[1])) for b in bases], u_area, u_edge
        err = self._miss(blob_in, bases, polys)
        # each pawn moved by a pixel at a time where that fits the blob better (k-means splits a cluster's
        # pixels by nearness, not by the pawns' shapes)
        step = 1.0 / self.s
        moves = np.array([[step, 0], [-step, 0], [0, step], [0, -step]])
        order = range(n) if movable is None else list(movable)
        local = _Local.of(blob_in, polys, order) if movable is not None else None
        for _ in range(REFINE_ROUNDS):
            better = False
            for k in order:
                for mv in moves:
                    trial = bases.copy()
                    trial[k] += mv
                    tpolys = list(polys)
                    tpolys[k] = self._poly(trial[k], shapes[k], shift)
                    if local is not None and local.holds(tpolys[k]):
                        e = float(local.pixels + local.delta(tpolys)) + self._overlap(trial)
                    else:
                        e = self._miss(blob_in, trial, tpolys)
                    if e < err - 0.5:
                        bases, err, better, polys = trial, e, True, tpolys
                        if local is not None:
                            local = (local.taken(tpolys) if local.holds(tpolys[k])
                                     else _Local.of(blob_in, polys, order))
            if not better:
                break
        _, u_area, u_edge = self._misfit(blob_in, bases, polys)
        return err, [(float(b[0]), float(b[1])) for b in bases], u_area, u_edge

    def _polys(self, bases: np.ndarray, shapes: Sequence[np.ndarray], shift: np.ndarray) -> list[np.ndarray]:
        """Pawns' outlines (``shapes`` about their ``bases``, mat mm) in a window whose corner is ``shift`` (canvas
        px), as ``cv2.fillPoly`` takes them (4 fractional bits): all pawns' corners converted together."""
        sizes = [len(sh) for sh in shapes]
        at = np.repeat(np.asarray(bases, np.float64).reshape(-1, 2), sizes, axis=0)
        px = np.round((self.to_px(at + np.concatenate(shapes)) - shift) * 16).astype(np.int32)
        return [p.reshape(-1, 1, 2) for p in np.split(px, np.cumsum(sizes)[:-1])]

    def _poly(self, base: np.ndarray, shape: np.ndarray, shift: np.ndarray) -> np.ndarray:
        """One pawn's outline as :meth:`_polys` draws it (the same sums: a refinement's trial moves one pawn)."""
        return np.round((self.to_px(base + shape) - shift) * 16).astype(np.int32).reshape(-1, 1, 2)

    def _miss(self, blob: "_Blob", bases: np.ndarray, polys: list[np.ndarray],
              union: np.ndarray | None = None) -> float:
        """:meth:`_misfit`'s misfit alone (a refinement's trials: the model's pixels and edge are not asked);
        ``union``: the model as :meth:`_model` draws it, where drawn already."""
        if union is None:
            union = self._model(blob, polys)
        return float(_pixels_off(blob.deep, blob.out, union)) + self._overlap(bases)

    @staticmethod
    def _model(blob: "_Blob", polys: list[np.ndarray]) -> np.ndarray:
        """The pawns' outlines ``polys`` filled in the blob's window (their union)."""
        union = np.zeros_like(blob.ref)
        cv2.fillPoly(union, polys, 1, cv2.LINE_8, 4)
        return union

    def _misfit(self, blob: "_Blob", bases: np.ndarray, polys: list[np.ndarray]) -> tuple[float, int, int]:
        """How badly pawns standing at ``bases`` (mat mm; ``polys``: their outlines in the blob's window,
        :meth:`_polys`) model a blob (:class:`_Blob`, its canvas window): the pixels the model and the blob do not
        share (:func:`_pixels_off`), and, where two pawns' bases overlap, the band they would have to move apart by
        (:meth:`_overlap`); and the model's pixels and its edge's."""
        union = self._model(blob, polys)
        miss = self._miss(blob, bases, polys, union)
        inner = cv2.erode(union, cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3)))
        return miss, int(np.count_nonzero(union)), int(np.count_nonzero(union) - np.count_nonzero(inner))

    def _overlap(self, bases: np.ndarray) -> float:
        """Where two pawns' bases overlap, the band they would have to move apart by, a pawn wide (px): two pawns
        cannot stand in one place (one pawn's top may hide another's foot)."""
        n = len(bases)
        if n < 2:
            return 0.0
        dd = np.sqrt(((bases[:, None] - bases[None]) ** 2).sum(-1))[_pairs(n)]
        return float(np.clip(PAWN_MM - dd, 0, None).sum()) * PAWN_MM * self.s ** 2


@functools.lru_cache(maxsize=64)
def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of ``n`` pawns (``np.triu_indices(n, 1)``, kept: a heap's refinement asks for them thousands of
    times)."""
    return np.triu_indices(n, 1)


def _pixels_off(deep: np.ndarray, out: np.ndarray, union: np.ndarray) -> int:
    """The pixels a model (``union``: the pawns' outlines filled together, as ``cv2.fillPoly`` fills several polygons:
    where two footprints overlap, the overlap is left out, so a pawn hidden in a heap is not had for free) and a blob
    do not share, each edge placed to within BAND_PX (the colour table's blur and the camera's move it as much): the
    blob's pixels deeper than that (``deep``) off the model, and the model's that deep on pixels off the blob
    (``out``)."""
    return int(np.count_nonzero(deep > union)) + int(np.count_nonzero(out & cv2.erode(union, _BAND)))


#: the band an edge is placed within (:data:`BAND_PX`), as a structuring element
_BAND = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * BAND_PX + 1, 2 * BAND_PX + 1))


class _Blob:
    """A blob's canvas window as :meth:`SupplyCounter._misfit` compares models with it: the blob (``ref``, 0/1), its
    pixels deeper than :data:`BAND_PX` (``deep``), and the pixels off it (``out``, 0/1)."""

    __slots__ = ("ref", "deep", "out")

    def __init__(self, ref: np.ndarray):
        self.ref, self.deep, self.out = ref, cv2.erode(ref, _BAND), (ref == 0).view(np.uint8)


def _poly_box(poly: np.ndarray) -> tuple[int, int, int, int]:
    """The pixels (x0, y0, x1, y1) ``cv2.fillPoly`` may fill for ``poly`` (4 fractional bits), a pixel round them."""
    pts = poly.reshape(-1, 2)
    lo, hi = pts.min(axis=0) >> 4, pts.max(axis=0) >> 4
    return int(lo[0]) - 1, int(lo[1]) - 1, int(hi[0]) + 2, int(hi[1]) + 2


def _box_meets(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


#: how far (px) the pixels a :class:`_Local` measures reach round the moving pawns' outlines (a pawn moved farther is
#: measured on the whole window, and the pixels measured there anew)
LOCAL_GROW = 4


class _Local:
    """The misfit's pixels (:func:`_pixels_off`) round a few pawns that move (``SupplyCounter._placed``'s
    ``movable``), the rest standing still: the model changes only within the moving footprints' reach (``reach``,
    their boxes grown by :data:`LOCAL_GROW`), its erosion a pixel round it (``counted``: where the misfit can change);
    the model there is drawn from the outlines that reach a pixel round that, on a patch that holds each whole
    (``cv2.fillPoly`` draws a polygon moved by whole pixels the same, and one polygon's edges change the fill only
    between them: a pixel's fill there equals the whole window's). ``pixels``: the whole window's misfit pixels now,
    ``here``: those counted here now."""

    def __init__(self, blob: "_Blob", reach: tuple[int, int, int, int], counted: tuple[int, int, int, int],
                 patch: tuple[int, int, int, int], which: list[int], pixels: int):
        self.blob, self.reach, self.counted, self.patch, self.which = blob, reach, counted, patch, which
        self.pixels, self.here = pixels, 0

    @classmethod
    def of(cls, blob: "_Blob", polys: list[np.ndarray], movable: Sequence[int]) -> "_Local | None":
        """The pixels round the ``movable`` pawns' outlines (``polys``); None where a patch would reach past the
        window (the whole window is measured then)."""
        H, W = blob.ref.shape
        boxes = [_poly_box(p) for p in polys]
        mv = [boxes[k] for k in movable]
        if not mv:
            return None
        g = LOCAL_GROW
        reach = (min(b[0] for b in mv) - g, min(b[1] for b in mv) - g, max(b[2] for b in mv) + g,
                 max(b[3] for b in mv) + g)
        counted = (reach[0] - 1, reach[1] - 1, reach[2] + 1, reach[3] + 1)
        near = (counted[0] - 1, counted[1] - 1, counted[2] + 1, counted[3] + 1)
        which = [i for i, b in enumerate(boxes) if _box_meets(b, near)]
        patch = (min([near[0]] + [boxes[i][0] for i in which]), min([near[1]] + [boxes[i][1] for i in which]),
                 max([near[2]] + [boxes[i][2] for i in which]), max([near[3]] + [boxes[i][3] for i in which]))
        if patch[0] < 0 or patch[1] < 0 or patch[2] > W or patch[3] > H:
            return None
        union = np.zeros_like(blob.ref)
        cv2.fillPoly(union, polys, 1, cv2.LINE_8, 4)
        out = cls(blob, reach, counted, patch, which, _pixels_off(blob.deep, blob.out, union))
        out.here = out._count(polys)
        return out

    def holds(self, poly: np.ndarray) -> bool:
        """Whether an outline lies within the reach (then :meth:`delta` measures it)."""
        b = _poly_box(poly)
        r = self.reach
        return r[0] <= b[0] and r[1] <= b[1] and b[2] <= r[2] and b[3] <= r[3]

    def _count(self, polys: list[np.ndarray]) -> int:
        x0, y0, x1, y1 = self.patch
        union = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(union, [polys[i] for i in self.which], 1, cv2.LINE_8, 4, (-16 * x0, -16 * y0))
        cx0, cy0, cx1, cy1 = self.counted
        eroded = cv2.erode(union, _BAND)[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
        union = union[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
        deep, out = self.blob.deep[cy0:cy1, cx0:cx1], self.blob.out[cy0:cy1, cx0:cx1]
        return int(np.count_nonzero(deep > union)) + int(np.count_nonzero(out & eroded))

    def delta(self, polys: list[np.ndarray]) -> int:
        """How the whole window's misfit pixels change with the outlines ``polys`` (the movable ones within reach)."""
        return self._count(polys) - self.here

    def taken(self, polys: list[np.ndarray]) -> "_Local":
        """The outlines ``polys`` taken as they are now."""
        here = self._count(polys)
        self.pixels, self.here = self.pixels + here - self.here, here
        return self


# ---------------------------------------------------------------------- the gate: when and where to count again
#: the gate compares the frames on the canvas at this fraction of its scale (0.5 px/mm at the reader's 2: a pawn is 5
#: cells across)
GATE_STEP = 4
#: a cell changed where a channel moved more than this many times the frame's median difference (the noise: the
#: two frames' sensor noise and JPEG, the light put in the colour table's by ``vision.sunda.relit``) ...
GATE_NOISE = 4.0
#: ... and at least this (0-255)
GATE_FLOOR = 8.0
#: where the cells changed cover more than this share of the canvas (the light changed, the camera moved, a hand over
#: the mat) every blob is counted again
GATE_MOST = 0.25


class SupplyGate:
    """When and where the supplies are counted again (docs/sunda.md, "The supply, counted"): a count resamples the whole
    mat (1.5 million pixels at 2 px/mm, some 150 ms of one core with every blob as before), and a player's supply
    changes only when a pawn leaves it. So each frame is first compared with the last one counted at a quarter of the
    canvas's scale (the light put in the colour table's: ``SundaReading._relight``), a cell changed where it differs
    by more than :data:`GATE_NOISE` times the frame's median difference; the covered triangles and the tribes' reach
    (what decides which blob is the layout's) are compared too. Nothing changed: the last count stands. Else only the
    changed cells are classified again, and only the blobs they reach are looked at again (a window grown to hold
    every blob it meets whole, so that no blob is cut: the blobs outside it are as they were); the rest of the count
    (each blob's split, the paint off the layout, the boxes) is kept, and the counts decided over every blob as a full
    count decides them. A new camera location or colour table, or a change over :data:`GATE_MOST` of the canvas:
    counted whole. ``calls`` says how often each happened (the tests count them)."""

    def __init__(self, counter: SupplyCounter):
        self.counter = counter
        self.calls = {"full": 0, "windows": 0, "kept": 0}
        self._key: Any = None                 # (the canvas maps' key, the colour table) of the last count
        self._small: np.ndarray | None = None   # the last counted frame on the canvas at 1/GATE_STEP, relit
        self._seen: SupplySeen | None = None
        #: the remap tables at 1/GATE_STEP (:meth:`_small_canvas`) with the canvas maps' key they were cut from
        self._small_maps: tuple[Any, np.ndarray, np.ndarray] | None = None

    def count(self, frame: np.ndarray, reader: Any, reading: Any, nadir: np.ndarray, cam_h: float) -> SupplySeen:
        """Each pawn colour's pawns standing off the layout in ``frame``, as :meth:`SupplyCounter.count` counts them."""
        c = self.counter
        loc, lut = getattr(reading, "_loc", None), getattr(reading, "_lut", None)
        if loc is None or lut is None:
            return self._full(frame, reader, reading, nadir, cam_h, None)
        c._canvas_maps(reader, loc, frame.shape)
        small = self._small_canvas(frame, getattr(reading, "_relight", None))
        last, key = c.last, (c._maps_key, lut)
        if (last is None or self._seen is None or self._small is None or self._key is None
                or self._key[0] != key[0] or self._key[1] is not lut):
            return self._full(frame, reader, reading, nadir, cam_h, small)
        nadir = np.asarray(nadir, np.float64)
        names = list(reader.pawn_names)
        masks = c._masks(reader, reading, c._maps[2], nadir, cam_h)
        cells = changed_cells(self._small, small)
        # the layout (the pieces and the tribes' reach) decides which blob is the layout's: where it changed, the
        # blobs are looked at again (each mask compared only when it was made again, :meth:`SupplyCounter._masks`)
        moved = [a ^ b for a, b in ((masks.pieces, last.masks.pieces), (masks.layout, last.masks.layout))
                 if a is not b]
        if moved:
            cells |= self._cells_of(moved[0] if len(moved) == 1 else moved[0] | moved[1])
        if not cells.any():
            self.calls["kept"] += 1
            return self._seen
        if np.count_nonzero(cells) > GATE_MOST * cells.size:
            return self._full(frame, reader, reading, nadir, cam_h, small)
        self.calls["windows"] += 1
        h, w = last.label.shape
        # the opening's reach (:meth:`SupplyCounter._scan`: an erosion and a dilation, each its kernel's radius), and
        # a pixel
        k = 2 * (int(2 * round(1.5 * c.s) + 1) // 2) + 1
        grown = cv2.dilate(cells.astype(np.uint8), np.ones((3, 3), np.uint8))
        n, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
        windows = []
        for x, y, bw, bh in stats[1:, :4]:
            box = (int(x) * GATE_STEP, int(y) * GATE_STEP, min(int(x + bw) * GATE_STEP, w),
                   min(int(y + bh) * GATE_STEP, h))
            last.label[box[1]:box[3], box[0]:box[2]] = c.label(frame, lut, getattr(reading, "_relight", None), box)
            windows.append((box[0] - k, box[1] - k, box[2] + k, box[3] + k))
        # a blob of more paint than a player has pawns is never counted and leaves its colour uncounted whatever a
        # pawn changes by it (the table past the mat's edge taking a pawn's class: a ring whose box is the whole
        # canvas, and every window grown to hold it was the whole canvas, 100-200 ms a frame): the windows are not
        # grown to hold it, it is kept as it was, and the pieces of it a window cuts are left out
        vast = [f for f in last.found if _vast(f)]
        vast_keys = {f.key for f in vast}
        windows = _closed(windows, [b for col, bs in last.boxes.items() for b in bs if (col, *b) not in vast_keys],
                          (w, h))
        found = [f for f in last.found if f.key in vast_keys or not any(_meets(f.key[1:], win) for win in windows)]
        boxes = {col: [b for b in last.boxes.get(col, [])
                       if (col, *b) in vast_keys or not any(_meets(b, win) for win in windows)] for col in names}
        # each colour's paint off the layout: the last count's array, copied only where a window changes it (a
        # colour whose paint no window changed keeps the very array, as :func:`supply_change_agrees` takes it: no
        # paint moved); the canvas's 1.5 million pixels a colour were copied every frame
        paint = {col: last.paint[col] for col in names}
        fresh: set[str] = set()
        for f in found:         # the blobs kept: their splits stay in the cache the next count compares with
            if isinstance(f.split, _Split) and f.key in c._split_before:
                c._split_now[f.key] = c._split_before[f.key]
        for win in windows:
            x0, y0, x1, y1 = win
            box = (max(x0 - k, 0), max(y0 - k, 0), min(x1 + k, w), min(y1 + k, h))
            scan = c._scan(last.label[box[1]:box[3], box[0]:box[2]], box, win, masks, nadir, cam_h, names)
            cut_of = {f.colour for f in vast if _meets(f.key[1:], win)}
            found += [f for f in scan.found if not (f.colour in cut_of and _cut_by(f.key[1:], box, (w, h)))]
            for col in names:
                boxes[col] += [b for b in scan.boxes[col] if not (col in cut_of and _cut_by(b, box, (w, h)))]
                if np.array_equal(paint[col][y0:y1, x0:x1], scan.paint[col]):
                    continue
                if col not in fresh:
                    paint[col], fresh = paint[col].copy(), fresh | {col}
                paint[col][y0:y1, x0:x1] = scan.paint[col]
        c.last = _Counted(last.label, found, paint, boxes, masks)
        self._small, self._key = small, key
        self._seen = c._decide(found, paint, names, masks, nadir, cam_h)
        return self._seen

    def _full(self, frame: np.ndarray, reader: Any, reading: Any, nadir: np.ndarray, cam_h: float,
              small: np.ndarray | None) -> SupplySeen:
        self.calls["full"] += 1
        self._seen = self.counter.count(frame, reader, reading, nadir, cam_h)
        lut = getattr(reading, "_lut", None)
        self._small = small
        self._key = (self.counter._maps_key, lut) if self.counter.last is not None else None
        return self._seen

    def _small_canvas(self, frame: np.ndarray, relight: np.ndarray | None) -> np.ndarray:
        """The frame on the canvas at 1/:data:`GATE_STEP` of its scale (a sample in each cell's middle), in the colour
        table's light, blurred over 3 x 3 cells."""
        from .sunda import relit

        if self._small_maps is None or self._small_maps[0] != self.counter._maps_key:
            mx, my, _ = self.counter._maps
            mid = GATE_STEP // 2
            self._small_maps = (self.counter._maps_key, np.ascontiguousarray(mx[mid::GATE_STEP, mid::GATE_STEP]),
                                np.ascontiguousarray(my[mid::GATE_STEP, mid::GATE_STEP]))
        img = cv2.remap(frame, self._small_maps[1], self._small_maps[2], cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
        return cv2.GaussianBlur(relit(img, relight), (3, 3), 0)

    def _cells_of(self, mask: np.ndarray) -> np.ndarray:
        """The gate's cells any pixel of ``mask`` (the canvas) lies in."""
        h, w = mask.shape
        g = GATE_STEP
        out = np.zeros((-(-h // g), -(-w // g)), bool)
        m = mask.view(np.uint8) if mask.dtype == bool else mask.astype(np.uint8, copy=False)
        x, y, bw, bh = cv2.boundingRect(m)     # (the covered triangles change by a piece, the tribes by a stack)
        if not bw or not bh:
            return out
        x0, y0, x1, y1 = x // g * g, y // g * g, -(-(x + bw) // g) * g, -(-(y + bh) // g) * g
        pad = np.zeros((y1 - y0, x1 - x0), np.uint8)
        pad[:min(y1, h) - y0, :min(x1, w) - x0] = mask[y0:y1, x0:x1]
        out[y0 // g:y1 // g, x0 // g:x1 // g] = pad.reshape((y1 - y0) // g, g, (x1 - x0) // g, g).max(axis=(1, 3)) > 0
        return out


def changed_cells(before: np.ndarray, now: np.ndarray) -> np.ndarray:
    """Where two frames on the gate's canvas (:meth:`SupplyGate._small_canvas`) differ past the noise: a channel moved
    by more than :data:`GATE_NOISE` times the median of the largest channel's difference, and :data:`GATE_FLOOR`, in
    a block of 2 x 2 cells."""
    d = cv2.absdiff(before, now)
    d = cv2.max(cv2.max(d[..., 0], d[..., 1]), d[..., 2])
    limit = max(GATE_FLOOR, GATE_NOISE * float(median_u8(d.reshape(-1, 1))[0]))
    # the noise past the limit is a cell here and there; a pawn taken or put down changes a disc some 5 cells across:
    # a change is a 2 x 2 block of cells at least
    c = d > limit
    block = c[:-1, :-1] & c[1:, :-1] & c[:-1, 1:] & c[1:, 1:]       # each 2 x 2 block all changed, at its top left
    out = np.zeros_like(c)
    for dy in (0, 1):
        for dx in (0, 1):
            out[dy:dy + block.shape[0], dx:dx + block.shape[1]] |= block
    return out


def _meets(box: tuple, win: tuple[int, int, int, int]) -> bool:
    """Whether a blob's box (x, y, w, h, canvas px) meets a window (x0, y0, x1, y1) or touches it."""
    x, y, w, h = box[:4]
    return x <= win[2] and x + w >= win[0] and y <= win[3] and y + h >= win[1]


def _vast(f: "_Found") -> bool:
    """Whether a blob holds more paint than :data:`MOST_PAWNS` pawns (:meth:`SupplyCounter.split` fits none)."""
    return isinstance(f.split, _Split) and not f.split.fits and f.split.area > MOST_PAWNS * f.split.one


def _cut_by(b: tuple, box: tuple[int, int, int, int], size: tuple[int, int]) -> bool:
    """Whether a blob's box (x, y, w, h) reaches an edge of the scanned ``box`` (x0, y0, x1, y1) that is not the
    canvas's (``size``): a piece of a blob that goes on past it."""
    x, y, w, h = b[:4]
    return ((x <= box[0] and box[0] > 0) or (y <= box[1] and box[1] > 0) or (x + w >= box[2] and box[2] < size[0])
            or (y + h >= box[3] and box[3] < size[1]))


def _closed(windows: list[tuple[int, int, int, int]], boxes: list[tuple[int, int, int, int]], size: tuple[int, int]
            ) -> list[tuple[int, int, int, int]]:
    """The windows grown until every blob box (x, y, w, h) that meets one lies wholly inside it, and windows that meet
    merged: then no blob crosses a window's edge, and a blob outside every window is as the last count saw it."""
    w, h = size
    out = [(max(a, 0), max(b, 0), min(c, w), min(d, h)) for a, b, c, d in windows]
    changed = True
    while changed:
        changed = False
        for i, win in enumerate(out):
            x0, y0, x1, y1 = win
            for bx, by, bw, bh in boxes:
                if _meets((bx, by, bw, bh), win) and not (x0 <= bx and y0 <= by and bx + bw <= x1 and by + bh <= y1):
                    x0, y0, x1, y1 = min(x0, bx), min(y0, by), max(x1, bx + bw), max(y1, by + bh)
            if (x0, y0, x1, y1) != win:
                out[i], changed = (x0, y0, x1, y1), True
        merged: list[tuple[int, int, int, int]] = []
        for win in out:
            for j, m in enumerate(merged):
                if _meets((win[0], win[1], win[2] - win[0], win[3] - win[1]), m):
                    merged[j] = (min(m[0], win[0]), min(m[1], win[1]), max(m[2], win[2]), max(m[3], win[3]))
                    changed = True
                    break
            else:
                merged.append(win)
        out = merged
    return out


class _Split:
    """What each count of pawns fitted to one blob gave (:meth:`SupplyCounter.split`): ``fits`` n -> (misfit px, the
    bases, the model's pixels, its edge's pixels); ``area`` the blob's pixels, ``one`` one pawn's footprint there."""

    def __init__(self, area: float, one: float, fits: Mapping[int, tuple]):
        self.area, self.one, self.fits = float(area), float(one), dict(fits)
        ranked = sorted(self.fits, key=lambda n: self.fits[n][0])
        self.best = ranked[0] if ranked else None
        self.second = ranked[1] if len(ranked) > 1 else None
        self.bases = {n: f[1] for n, f in self.fits.items()}

    def spread(self, n: int) -> float:
        """How far (px) the blob's edge lies outside the model of ``n`` pawns: its pixels beyond the model's, over the
        model's edge."""
        _, _, u_area, u_edge = self.fits[n]
        return (self.area - u_area) / max(u_edge, 1)

    def clear(self) -> bool:
        """Whether the misfit alone tells the count: the best fits under :data:`MARGIN` of a footprint a pawn, every
        other count :data:`MARGIN` of a footprint worse."""
        if self.best is None or self.fits[self.best][0] > MARGIN * self.one * self.best:
            return False
        return self.second is None or self.fits[self.second][0] - self.fits[self.best][0] >= MARGIN * self.one

    def area_off(self, n: int, delta: float) -> float:
        """How many footprints the blob's pixels differ from the model of ``n`` pawns with its edge ``delta`` px out."""
        _, _, u_area, u_edge = self.fits[n]
        return abs(self.area - u_area - delta * u_edge) / self.one

    def decide(self, delta: float | None) -> tuple[int | None, str]:
        """The count and, where none, why: the misfit's (:meth:`clear`); where it leaves two counts, the paint's area
        (``delta``: the colour's edge spread, :meth:`spread`) decides when the model of one of them holds the blob's
        pixels within :data:`MARGIN` of a footprint and the other's does not (a pawn more or less is a whole footprint
        of paint)."""
        if self.best is None:
            return None, f"more paint than {MOST_PAWNS} pawns"
        err = self.fits[self.best][0]
        if err > MARGIN * self.one * self.best:
            return None, f"{self.best} pawns fit it badly ({err / self.one:.2f} of a pawn's footprint off)"
        if self.clear():
            return self.best, ""
        two = (self.best, self.second)
        if delta is not None:
            ok = [n for n in two if self.area_off(n, delta) <= MARGIN]
            if len(ok) == 1:
                return ok[0], ""
        return None, (f"{self.best} or {self.second} pawns (misfits {err / self.one:.2f} and "
                      f"{self.fits[self.second][0] / self.one:.2f} of a pawn's footprint)")


def _window(arr: np.ndarray, x0: int, y0: int, w: int, h: int, fill: bool) -> np.ndarray:
    """``arr[y0:y0 + h, x0:x0 + w]``, ``fill`` where the window lies past ``arr``'s edge."""
    out = np.full((h, w), fill, bool)
    ax0, ay0 = max(x0, 0), max(y0, 0)
    ax1, ay1 = min(x0 + w, arr.shape[1]), min(y0 + h, arr.shape[0])
    if ax1 > ax0 and ay1 > ay0:
        out[ay0 - y0:ay1 - y0, ax0 - x0:ax1 - x0] = arr[ay0:ay1, ax0:ax1]
    return out


def _footprint_reach(nadir: np.ndarray, cam_h: float, at: np.ndarray) -> float:
    """How far a pawn's footprint reaches from its middle (mm): half its length along the line from the nadir."""
    d = float(np.linalg.norm(np.asarray(at) - nadir))
    push = PAWN_HEIGHT_MM / (cam_h - PAWN_HEIGHT_MM)
    return PAWN_MM / 2 * (1 + push) + d * push / 2


def _base_of(centre: np.ndarray, nadir: np.ndarray, cam_h: float) -> np.ndarray:
    """A pawn's base from its footprint's middle: the middle lies half the top's push (``d h / (H - h)``) from the
    base, away from the nadir."""
    r = np.asarray(centre, np.float64) - nadir
    d = float(np.linalg.norm(r))
    if d < 1e-6:
        return np.asarray(centre, np.float64)
    push = PAWN_HEIGHT_MM / (cam_h - PAWN_HEIGHT_MM)
    return nadir + r / d * d / (1 + push / 2)


def _farthest(pts: np.ndarray, n: int) -> np.ndarray:
    """``n`` starting points for k-means: the point farthest from the middle, then each next the farthest from those
    chosen (deterministic)."""
    mid = pts.mean(axis=0)
    chosen = [pts[int(np.argmax(((pts - mid) ** 2).sum(-1)))]]
    d = ((pts - chosen[0]) ** 2).sum(-1)
    for _ in range(1, n):
        chosen.append(pts[int(np.argmax(d))])
        d = np.minimum(d, ((pts - chosen[-1]) ** 2).sum(-1))
    return np.array(chosen, np.float64)


def supply_change_agrees(before: SupplySeen, now: SupplySeen, colour: str, taken: int) -> bool:
    """Whether the paint of ``colour`` off the layout changed between two frames as ``taken`` pawns leaving the supply
    changes it: exactly ``taken`` places lost a pawn's paint and none gained any. A place is a patch of paint lost (or
    gained) that an opening by a disc a quarter of a pawn across keeps (an edge's flicker between two frames, noise
    and the light, is thinner), of :data:`MARGIN` of a footprint at least. A count that changed without the paint, or
    the paint without the count, is a miscount in one of the frames."""
    a, b = before.paint.get(colour), now.paint.get(colour)
    if a is None or b is None or a.shape != b.shape:
        return False
    one = 0.5 * (before.pawn_px.get(colour, 0.0) + now.pawn_px.get(colour, 0.0))
    if one <= 0:
        return False
    k = max(int(round(PAWN_MM / 4 * now.px_per_mm)), 3) | 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))

    def places(mask: np.ndarray) -> int:
        m = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, disc)
        n, _, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
        # a patch opened keeps a pawn's footprint less a band as wide as the disc's radius round it
        return int(np.count_nonzero(stats[1:, cv2.CC_STAT_AREA] >= MARGIN * one * 0.5))

    if a is b:        # the same count kept (SupplyGate): no paint moved
        return taken == 0
    cut = _where_differ(a, b, k)
    if cut is None:
        return taken == 0
    a, b = cut
    return places(a & ~b) == taken and places(b & ~a) == 0


def _where_differ(a: np.ndarray, b: np.ndarray, margin: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Two masks cut to where they differ, grown by ``margin`` pixels (an opening there by a disc ``margin`` across,
    and the patches it keeps, are those of the whole masks: outside it both differences are empty); None where they do
    not differ."""
    x, y, w, h = cv2.boundingRect((a != b).view(np.uint8))     # the box of the pixels that differ (a quarter of
    if not w or not h:                                         # findNonZero's time on the 1.5 million)
        return None
    y0, x0 = max(y - margin, 0), max(x - margin, 0)
    y1, x1 = min(y + h + margin, a.shape[0]), min(x + w + margin, a.shape[1])
    return a[y0:y1, x0:x1], b[y0:y1, x0:x1]


def counts_of(seen: SupplySeen | None, colours: Sequence[str]) -> Mapping[str, int | None]:
    """The counts of ``colours`` (None where not counted, or no supply was seen)."""
    if seen is None:
        return {c: None for c in colours}
    return {c: seen.counts.get(c) for c in colours}
