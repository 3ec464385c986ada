"""Which cells hold a tile, and which changed (part of :class:`vision.recognize.Recognizer`).

Empty cells are told from occupied ones by the mat's or the table's colour, by what a cell looked like when last
read empty, and beyond the play area by the evidence of a tile's picture (:meth:`CellOccupancy._occupied`). Each
frame's colour is balanced against the mat (:meth:`CellOccupancy._balance`); each cell's small signature
(:data:`SIG_PX`) tells which cells changed since the previous observation (:meth:`CellOccupancy._changed`).
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import cv2
import numpy as np

from . import VisionError
from .colourcast import paper_white
from .pieces import bgr_to_lab, norm3
from .sampling import Cell, GridSampler, MapFn, cell_bounds
from .tiles import FeatureCanvas, Grid, GridCanvas, TileGuess, mat_margin_pixels

if TYPE_CHECKING:
    from .recognize import Observation

log = logging.getLogger(__name__)

SIG_PX = 8
"""Side of the per-cell thumbnail that tells which cells changed."""
SIG_SAMPLE = 16
"""Thumbnails are sampled at this many pixels per cell side, then averaged down to SIG_PX."""


class CellOccupancy:
    """Occupancy, white balance and change detection of :class:`vision.recognize.Recognizer` (a part of it: it
    uses the recogniser's classifier, mat, references and thresholds)."""

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
    (docs/history/vision-measured.md, "Südsee on the field camera"); not measured on Neues Land."""

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
