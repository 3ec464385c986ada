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
count does. A colour one of whose blobs may have lost a pawn's paint where the frame does not see, to a marker's
square or past the mat's edge is unknown too (:meth:`SupplyCounter._cut`: a pawn fitted to it reaches there, or its
paint there is not its pawns'); a blob whose pawns all stand whole beside them is counted.

The count is only read here; whether it is trusted (it must agree with the rules and with the frame before) is the
live loop's (``tablehub/tracking/sundacam.py``, ``SundaRecognizer.supply_taken``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import cv2
import numpy as np

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
#: round the pieces (mm): a blob reaching this near a covered triangle is the layout's (a tribe on its node)
PIECES_MM = 2.0
#: pixels of the frame's edge and the mat's markers (mm round them) a supply's blob must keep clear of to be counted
EDGE_MM = 1.0
#: the canvas reaches this far past the mat's edge (mm): a pawn standing at the edge has its top pushed over it
OVERHANG_MM = 12.0


def footprint(base: np.ndarray, nadir: np.ndarray, cam_h: float, n_edge: int = 24) -> np.ndarray:
    """The outline (mat mm, a convex polygon) of a pawn standing at ``base`` as the camera sees it on the mat: the
    hull of its base disc and its top disc, pushed from the nadir and grown by the central projection."""
    a = np.linspace(0, 2 * math.pi, n_edge, endpoint=False)
    ring = np.column_stack([np.cos(a), np.sin(a)])
    z = PAWN_HEIGHT_MM
    top = base + (base - nadir) * z / (cam_h - z)
    pts = np.vstack([base + ring * PAWN_MM / 2, top + ring * PAWN_MM / 2 * cam_h / (cam_h - z)])
    return cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2).astype(np.float64)


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

    def _tribes_reach(self, reading: Any, nadir: np.ndarray, cam_h: float, shape: tuple[int, int]) -> np.ndarray:
        """Where the reader's tribes can show on the canvas, each as tall as a tribe may be (five pawns): the capsule
        from its base to its top pushed from the nadir, the top's radius and :data:`PIECES_MM` round it."""
        out = np.zeros(shape, np.uint8)
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
        return out > 0

    # ------------------------------------------------------------------ counting
    def count(self, frame: np.ndarray, reader: Any, reading: Any, nadir: np.ndarray, cam_h: float) -> SupplySeen:
        """Each pawn colour's pawns standing off the layout in ``frame`` (module doc)."""
        from .sunda import colour_index

        names = list(reader.pawn_names)
        loc, lut = getattr(reading, "_loc", None), getattr(reading, "_lut", None)
        if loc is None or lut is None:
            return SupplySeen({c: None for c in names}, {c: "the frame was not read" for c in names}, [], {}, {},
                              self.s)
        mx, my, seen = self._canvas_maps(reader, loc, frame.shape)
        img = cv2.remap(frame, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        label = lut[colour_index(cv2.GaussianBlur(img, (0, 0), 0.5 * self.s))]
        pieces = self._pieces(reading, label.shape)
        nadir = np.asarray(nadir, np.float64)
        bounds, marks, on_mat = self._zones(reader, seen, nadir, cam_h)
        layout = pieces | self._tribes_reach(reading, nadir, cam_h, label.shape)
        k = int(2 * round(1.5 * self.s) + 1)       # thin lines (the play area's border, a marker's edge) opened away
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        counts: dict[str, int | None] = {}
        why: dict[str, str] = {}
        blobs: list[SupplyBlob] = []
        area: dict[str, int] = {}
        pawn_px: dict[str, float] = {}
        one_px = self._single_px(np.asarray(reader.mat.play_centre_mm, np.float64), nadir, cam_h)
        found: list[tuple[str, tuple[float, float], int, Any]] = []    # (colour, middle, pixels, _Split or why not)
        paint_off: dict[str, np.ndarray] = {}
        edge_blobs: dict[int, tuple[np.ndarray, tuple[int, int]]] = {}   # the splits of blobs at the bounds
        unseen = ~seen | marks          # where a pawn's paint is not seen: off the frame, or cut by a marker's square
        for i, colour in enumerate(names):
            paint = (label == 3 + i) & ~marks
            mask = cv2.morphologyEx(paint.astype(np.uint8), cv2.MORPH_OPEN, disc)
            n, comp, stats, cent = cv2.connectedComponentsWithStats(mask, connectivity=8, ltype=cv2.CV_32S)
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
            area[colour] = int(np.count_nonzero(off))
            paint_off[colour] = off
            for j in range(1, n):
                if touching[j]:
                    at = tuple(float(v) for v in self.to_mm(cent[j]))
                    found.append((colour, at, int(stats[j, cv2.CC_STAT_AREA]), "layout"))
                    continue
                if on_pieces[j] or stats[j, cv2.CC_STAT_AREA] < SPECK * one_px:
                    continue
                centre = (float(v) for v in self.to_mm(cent[j]))
                x, y, w, h = (int(v) for v in stats[j, :4])
                if not on_mat[int(round(cent[j][1])), int(round(cent[j][0]))]:
                    continue                            # off the mat: the table's wood, not a pawn on the mat
                sub = comp[y:y + h, x:x + w] == j
                at = tuple(centre)
                sp = self._split_once(colour, sub, (x, y), nadir, cam_h)
                if at_bounds[j]:
                    # near the frame's edge, the mat's or a marker: counted only where no pawn may have lost paint
                    # there (:meth:`_cut`), decided below
                    edge_blobs[id(sp)] = (sub, (x, y))
                found.append((colour, at, int(sub.sum()), sp))
        # how far the colour table puts a pawn's edge outside its outline (px), the same for every blob in the frame:
        # from the blobs whose count the misfit alone tells (the median)
        spread = [sp.spread(sp.best) for *_, sp in found if isinstance(sp, _Split) and sp.clear()]
        delta = float(np.median(spread)) if spread else None
        reasons: dict[str, list[str]] = {c: [] for c in names}
        totals = {c: 0 for c in names}
        singles: dict[str, list[float]] = {c: [] for c in names}
        for colour, at, px, sp in found:
            if not isinstance(sp, _Split):
                reasons[colour].append(f"a blob at {at[0]:.0f},{at[1]:.0f} mm " + (
                    "touches the layout" if sp == "layout" else "reaches the frame's or the mat's edge or a marker"))
                blobs.append(SupplyBlob(colour, at, px, None, sp))
                continue
            got, said = sp.decide(delta)
            cut = id(sp) in edge_blobs and (got is None or self._cut(*edge_blobs[id(sp)], sp.bases[got], nadir, cam_h,
                                                                     unseen, bounds))
            if cut:     # a pawn's paint may be lost there (a pawn cut by a marker is smaller than one: not a speck)
                got, said = None, "reaches the frame's or the mat's edge or a marker"
            singles[colour].append(sp.one)
            if got is None and not cut and px < sp.one and sp.best == 1:
                continue                                # smaller than one pawn and no pawn's shape: not a pawn
            blobs.append(SupplyBlob(colour, at, px, got, said, sp.bases[got] if got is not None else []))
            if got is None:
                reasons[colour].append(f"the blob at {at[0]:.0f},{at[1]:.0f} mm: {said}")
            else:
                totals[colour] += got
        for colour in names:
            counts[colour] = None if reasons[colour] else totals[colour]
            why[colour] = "; ".join(reasons[colour])
            pawn_px[colour] = float(np.mean(singles[colour])) if singles[colour] else one_px
        self._split_before, self._split_now = self._split_now, {}
        return SupplySeen(counts, why, blobs, area, pawn_px, self.s, paint_off)

    def _cut(self, blob: np.ndarray, origin_px: tuple[int, int], bases: Sequence[Sequence[float]], nadir: np.ndarray,
             cam_h: float, unseen: np.ndarray, bounds: np.ndarray) -> bool:
        """Whether a blob near the frame's edge, the mat's or a marker (``bounds``) may have lost a pawn's paint there:
        a pawn fitted to it (``bases``, mat mm) reaches where the frame does not see or a marker's square cuts the
        paint (``unseen``), or the blob's paint by the bounds is not its pawns' (a pawn standing beyond them, a sliver
        of it seen). A blob whose pawns all show whole beside the bounds is counted as any other."""
        h, w = blob.shape
        pad = int(math.ceil(PAWN_MM * self.s)) + 2
        x0, y0 = origin_px[0] - pad, origin_px[1] - pad
        H, W = h + 2 * pad, w + 2 * pad
        model = np.zeros((H, W), np.uint8)
        polys = [np.round((self.to_px(footprint(np.asarray(b, np.float64), nadir, cam_h)) - [x0, y0]) * 16)
                 .astype(np.int32).reshape(-1, 1, 2) for b in bases]
        cv2.fillPoly(model, polys, 1, cv2.LINE_8, 4)
        if (model.astype(bool) & _window(unseen, x0, y0, W, H, True)).any():
            return True
        own = np.zeros((H, W), bool)
        own[pad:pad + h, pad:pad + w] = blob
        band = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * BAND_PX + 1, 2 * BAND_PX + 1))
        return bool((own & _window(bounds, x0, y0, W, H, True) & ~(cv2.dilate(model, band) > 0)).any())

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
        said = self.split(blob, origin_px, nadir, cam_h)
        self._split_now[(colour, origin_px[0], origin_px[1], w, h)] = (blob, said)
        return said

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
        for _ in range(30):
            d = ((pts[:, None, :] - centres[None]) ** 2).sum(-1)
            near = np.argmin(d, axis=1)
            # each pawn's pixels: those nearest its middle, within its footprint's reach (a pixel of another pawn
            # farther off does not pull it)
            own = d[np.arange(len(pts)), near] <= one_mm ** 2
            new = np.array([pts[(near == k) & own].mean(axis=0) if np.any((near == k) & own) else centres[k]
                            for k in range(n)])
            if np.allclose(new, centres, atol=1e-3):
                break
            centres = new
        bases = np.array([_base_of(c, nadir, cam_h) for c in centres]).reshape(-1, 2)
        return self._placed(blob, origin_px, bases, nadir, cam_h, refine)

    def _placed(self, blob: np.ndarray, origin_px: tuple[int, int], bases: np.ndarray, nadir: np.ndarray,
                cam_h: float, refine: bool) -> tuple[float, list[tuple[float, float]], int, int]:
        """Pawns standing at ``bases`` (mat mm) against a blob: the misfit (:meth:`_misfit`), each pawn moved by a
        pixel at a time where the model fits better (``refine``), the bases, the model's pixels and its edge's."""
        n = len(bases)
        h, w = blob.shape
        pad = int(math.ceil(PAWN_MM * self.s))
        ref = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
        ref[pad:pad + h, pad:pad + w] = blob
        shift = np.array([origin_px[0] - pad, origin_px[1] - pad], np.float64)
        shapes = [footprint(b, nadir, cam_h) - b for b in bases]      # each pawn's outline about its base (mm)
        err = self._misfit(ref, shift, bases, shapes)[0]
        if refine:
            # each pawn moved by a pixel at a time where that fits the blob better (k-means splits a cluster's
            # pixels by nearness, not by the pawns' shapes)
            step = 1.0 / self.s
            moves = np.array([[step, 0], [-step, 0], [0, step], [0, -step]])
            for _ in range(REFINE_ROUNDS):
                better = False
                for k in range(n):
                    for mv in moves:
                        trial = bases.copy()
                        trial[k] += mv
                        e = self._misfit(ref, shift, trial, shapes)[0]
                        if e < err - 0.5:
                            bases, err, better = trial, e, True
                if not better:
                    break
        _, u_area, u_edge = self._misfit(ref, shift, bases, shapes)
        return err, [(float(b[0]), float(b[1])) for b in bases], u_area, u_edge

    def _misfit(self, ref: np.ndarray, shift: np.ndarray, bases: np.ndarray, shapes: list[np.ndarray]
                ) -> tuple[float, int, int]:
        """How badly pawns standing at ``bases`` (mat mm; ``shapes``: their outlines about their bases) model a blob
        (``ref``, its canvas window whose corner is ``shift``): the pixels the model and the blob do not share (each
        edge placed to within BAND_PX: the colour table's blur and the camera's move it as much: a pixel counts where it
        lies deeper than that in one and not in the other), and, where two
        pawns' bases overlap, the band they would have to move apart by, a pawn wide (two pawns cannot stand in one
        place; one pawn's top may hide another's foot); and the model's pixels and its edge's."""
        union = np.zeros_like(ref)
        polys = [np.round((self.to_px(b + sh) - shift) * 16).astype(np.int32).reshape(-1, 1, 2)
                 for b, sh in zip(bases, shapes)]
        cv2.fillPoly(union, polys, 1, cv2.LINE_8, 4)
        band = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * BAND_PX + 1, 2 * BAND_PX + 1))
        miss = float(np.count_nonzero((cv2.erode(ref, band) > 0) & (union == 0))
                     + np.count_nonzero((ref == 0) & (cv2.erode(union, band) > 0)))
        n = len(bases)
        if n > 1:
            dd = np.sqrt(((bases[:, None] - bases[None]) ** 2).sum(-1))[np.triu_indices(n, 1)]
            miss += float(np.clip(PAWN_MM - dd, 0, None).sum()) * PAWN_MM * self.s ** 2
        inner = cv2.erode(union, cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3)))
        return miss, int(np.count_nonzero(union)), int(np.count_nonzero(union) - np.count_nonzero(inner))


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
        (``delta``: the frame's edge spread, :meth:`spread`) decides when the model of one of them holds the blob's
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

    return places(a & ~b) == taken and places(b & ~a) == 0


def counts_of(seen: SupplySeen | None, colours: Sequence[str]) -> Mapping[str, int | None]:
    """The counts of ``colours`` (None where not counted, or no supply was seen)."""
    if seen is None:
        return {c: None for c in colours}
    return {c: seen.counts.get(c) for c in colours}
