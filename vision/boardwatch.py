"""A printed board watched frame after frame: a full read when needed, else only what changed.

A full read (:meth:`BoardWatch.read` on the first frame, after a bump, under another light) registers
the frame (``vision.boardreg``), straightens the whole board, fits the board's light
(:func:`vision.boardpieces.light_gain`) and finds every piece. Between full reads the camera and the
board usually stay put and a move changes one or two spaces, so the next frame is read incrementally:

1. **Did the board move?** A few patches of the board's printed art (corners of its texture spread
   over the board, taken from the frame of the last full read) are looked for again within a few
   pixels (normalised cross-correlation). Patches a hand or a piece now covers do not match and are
   left out; if too few match, or the matched ones moved by more than ``moved_px``, the frame gets
   a full read (the registration is not trusted).
2. **What changed?** The frame's part the board lies in, shrunk 4 times (in colour: a red boat on a
   blue sea can be the sea's grey), against the last frame read: cells where a channel changed by more than
   ``change`` levels, mapped to the board. Nothing: the last reading
   stands. Most of the board (a light switched on): a full read.
3. **Only there:** the changed area widened by a piece's length (every piece touching it wholly
   inside) is straightened and read under the last full read's light; the pieces whose centres lie
   near the change are replaced by what is found there, the others kept.

No rules here: the pieces' book and the spaces come from the caller.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Collection

import cv2
import numpy as np

from tablehub.i18n import T  # what a phone and the console read (tablehub/locale/*/vision.po)

from .boardpieces import PieceBook, PieceSeen, SpaceMap, find_pieces, light_gain, once_each
from .boardreg import BoardTracker, Registration
from .cputime import StageClock

SHRINK = 4  # the frame difference's scale (1920 px -> 480)


@dataclass
class WatchReading:
    """One frame's reading: the pieces, whether it was a ``full`` read, the board area re-read
    (mm2, 0 when nothing changed), and the tracker's ``note`` (a bump, the board not found)."""

    pieces: list[PieceSeen]
    full: bool
    reread_mm2: float
    note: str = ""
    why: str = ""  # why a full read ("first frame", "the board moved", ...)


@dataclass
class _Last:
    registration: Registration
    gain: np.ndarray
    small: np.ndarray  # the last frame read, grey, shrunk
    patches: list[tuple[np.ndarray, tuple[int, int]]] = field(default_factory=list)  # art patch, where (frame px)
    pieces: list[PieceSeen] = field(default_factory=list)
    box: tuple[int, int, int, int] = (0, 0, 0, 0)  # the frame's part the board lies in (x0, y0, x1, y1 px)


class BoardWatch:
    """Reads a board frame after frame (module docstring). ``tracker`` keeps the registration."""

    def __init__(self, tracker: BoardTracker, book: PieceBook, spaces: SpaceMap, change: float = 10.0,
                 moved_px: float = 1.0, patch_px: int = 24, search_px: int = 6, n_patches: int = 16,
                 most: float = 0.35, once: Collection[str] = ()):
        self.tracker, self.book, self.spaces = tracker, book, spaces
        # the pieces there is only one of (Karibik's six ships): each named at most once (boardpieces.once_each)
        self.once = frozenset(once)
        self.ref = tracker.registrar.ref
        self.change, self.moved_px, self.patch_px, self.search_px = change, moved_px, patch_px, search_px
        self.n_patches, self.most = n_patches, most
        self.last: _Last | None = None
        # CPU per stage (vision.cputime): of the full reads, and of the incremental ones (``tablehub bench boards``)
        self.clocks = {"full": StageClock(), "incremental": StageClock()}
        # how far a piece reaches from its centre: half the largest enrolled piece's length, generously
        self.reach_mm = 0.9 * float(np.sqrt(max(t.area_mm2 for t in book.templates)))
        # the smallest piece's width, about: two pieces' centres lie at least that far apart (they do not overlap)
        self.min_width_mm = float(np.sqrt(min(t.area_mm2 for t in book.templates)))
        self._art_points = self._texture_points()

    def reset(self) -> None:
        self.last = None

    # ---- full read

    def read(self, frame: np.ndarray) -> WatchReading:
        if self.last is None:
            return self._full(frame, "first frame")
        clock = self.clocks["incremental"]
        clock.start()
        why = self._moved(frame)
        clock.lap("art patches")
        if why:
            return self._full(frame, why)
        small = _shrink(frame, self.last.box)
        d = cv2.split(cv2.absdiff(small, self.last.small))  # any channel (cv2: numpy's max over 3 channels is slow)
        changed = (cv2.max(cv2.max(d[0], d[1]), d[2]) > self.change).astype(np.uint8)
        changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        if not cv2.countNonZero(changed):
            return WatchReading(list(self.last.pieces), False, 0.0)
        zone = self._board_zone(changed)
        if zone is None:
            return WatchReading(list(self.last.pieces), False, 0.0)
        clock.lap("changes")
        if zone.mean() > self.most:
            return self._full(frame, "most of the board changed (the light?)")
        out = self._partial(frame, small, zone)
        clock.lap("re-read")
        return out

    def _full(self, frame: np.ndarray, why: str) -> WatchReading:
        clock = self.clocks["full"]
        clock.start()
        state = self.tracker.update(frame)
        clock.lap("register")
        reg = state.registration
        if reg is None:
            self.last = None
            return WatchReading([], True, 0.0, state.note or T("the board is not found"), why)
        ref = self.ref
        canvas = reg.canvas(frame, ref.ppm, ref.size_mm)
        clock.lap("straighten")
        gain = light_gain(canvas, ref.canvas)
        clock.lap("light")
        pieces = once_each(find_pieces(canvas, ref.canvas, ref.ppm, self.book, self.spaces, gain=gain), self.once)
        clock.lap("pieces")
        box = self._box(frame, reg)
        self.last = _Last(reg, gain, _shrink(frame, box), self._patches(frame, reg), pieces, box)
        clock.lap("watch")  # what the next incremental read compares with
        h, w = ref.canvas.shape[:2]
        return WatchReading(pieces, True, w * h / ref.ppm ** 2, state.note, why)

    def _box(self, frame: np.ndarray, reg: Registration) -> tuple[int, int, int, int]:
        """The frame's part the board lies in (its outline through the lens, a margin of a few pixels), on the
        frame difference's grid: only there is the frame shrunk and compared (the table round it is not read)."""
        w, h = self.ref.size_mm
        t = np.linspace(0.0, 1.0, 9)
        outline = np.concatenate([np.column_stack([t * w, 0 * t]), np.column_stack([w + 0 * t, t * h]),
                                  np.column_stack([t * w, h + 0 * t]), np.column_stack([0 * t, t * h])])
        pts = reg.to_image(outline)
        fh, fw = frame.shape[:2]
        m = 2 * SHRINK
        x0 = max(0, int(np.floor(pts[:, 0].min())) - m) // SHRINK * SHRINK
        y0 = max(0, int(np.floor(pts[:, 1].min())) - m) // SHRINK * SHRINK
        x1 = min(fw, int(np.ceil(pts[:, 0].max())) + m)
        y1 = min(fh, int(np.ceil(pts[:, 1].max())) + m)
        if not np.all(np.isfinite(pts)) or x1 - x0 < 4 * SHRINK or y1 - y0 < 4 * SHRINK:
            return (0, 0, fw, fh)
        return (x0, y0, x0 + (x1 - x0) // SHRINK * SHRINK, y0 + (y1 - y0) // SHRINK * SHRINK)

    # ---- did the board move?

    def _texture_points(self) -> np.ndarray:
        """Strong corners of the empty board's art, spread over it (board mm)."""
        grey = cv2.cvtColor(self.ref.canvas, cv2.COLOR_BGR2GRAY)
        h, w = grey.shape
        pts = cv2.goodFeaturesToTrack(grey, 4 * self.n_patches, 0.05, min(w, h) / 6.0, blockSize=7)
        if pts is None:
            return np.zeros((0, 2), np.float64)
        return pts.reshape(-1, 2).astype(np.float64) / self.ref.ppm

    def _patches(self, frame: np.ndarray, reg: Registration) -> list[tuple[np.ndarray, tuple[int, int]]]:
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        fh, fw = grey.shape
        half = self.patch_px // 2
        out = []
        for x, y in reg.to_image(self._art_points) if len(self._art_points) else []:
            cx, cy = int(round(x)), int(round(y))
            m = half + self.search_px
            if m <= cx < fw - m and m <= cy < fh - m:
                patch = grey[cy - half:cy + half, cx - half:cx + half]
                if float(patch.std()) > 8:  # textured enough to be found again exactly
                    out.append((patch.copy(), (cx, cy)))
            if len(out) >= self.n_patches:
                break
        return out

    def _moved(self, frame: np.ndarray) -> str:
        """Why the registration is not trusted for this frame ('' when the board stayed put)."""
        if self.tracker.current is not self.last.registration:
            return "the registration changed"
        half, s = self.patch_px // 2, self.search_px
        shifts = []
        for patch, (cx, cy) in self.last.patches:
            win = frame[cy - half - s:cy + half + s, cx - half - s:cx + half + s]
            win = cv2.cvtColor(win, cv2.COLOR_BGR2GRAY) if win.ndim == 3 else win  # the window only, not the frame
            res = cv2.matchTemplate(win, patch, cv2.TM_CCOEFF_NORMED)
            _, peak, _, (px, py) = cv2.minMaxLoc(res)
            if peak > 0.8:  # found (a covered patch is left out)
                shifts.append(float(np.hypot(px - s, py - s)))
        if len(shifts) < max(4, len(self.last.patches) // 3):
            return "the board's art is mostly covered or gone"
        if float(np.median(shifts)) > self.moved_px:
            return "the board moved"
        return ""

    # ---- what changed, and only there

    def _board_zone(self, changed: np.ndarray) -> np.ndarray | None:
        """The changed cells on the board (a mask at the canvas's scale, 1 px per mm)."""
        ys, xs = np.nonzero(changed)
        if not len(xs):
            return None
        pts = (np.column_stack([xs, ys]).astype(np.float64) + 0.5) * SHRINK + self.last.box[:2]
        mm = self.last.registration.to_board(pts)
        w, h = self.ref.size_mm
        zone = np.zeros((int(np.ceil(h)), int(np.ceil(w))), np.uint8)
        ok = (mm[:, 0] >= 0) & (mm[:, 0] < w) & (mm[:, 1] >= 0) & (mm[:, 1] < h)
        if not ok.any():
            return None
        zone[mm[ok, 1].astype(int), mm[ok, 0].astype(int)] = 1
        # a shrunk frame pixel covers about SHRINK frame pixels: close the gaps between the points
        return cv2.dilate(zone, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))

    def _partial(self, frame: np.ndarray, small: np.ndarray, zone: np.ndarray) -> WatchReading:
        ref, last = self.ref, self.last
        ppm = ref.ppm
        r = float(np.ceil(self.reach_mm))
        # within a piece's reach of the change, and within two (every piece touching that wholly inside): one
        # distance transform (a few ms) where two dilations by a 60 mm disc cost tens
        dist = cv2.distanceTransform((zone == 0).astype(np.uint8), cv2.DIST_L2, 5)
        near = (dist <= r).astype(np.uint8)
        crop = (dist <= 2 * r).astype(np.uint8)
        h, w = ref.canvas.shape[:2]
        kept = [p for p in last.pieces if not _inside(near, p.x_mm, p.y_mm)]
        found: list[PieceSeen] = []
        n, _, stats, _ = cv2.connectedComponentsWithStats(crop, connectivity=8)
        area = 0.0
        for i in range(1, n):
            x, y, bw, bh = (int(v) for v in stats[i, :4])
            region = (max(0, int(x * ppm)), max(0, int(y * ppm)), min(w, int((x + bw) * ppm)), min(h, int((y + bh) * ppm)))
            if region[2] - region[0] < 8 or region[3] - region[1] < 8:
                continue
            area += (region[2] - region[0]) * (region[3] - region[1]) / ppm ** 2
            canvas = last.registration.canvas(frame, ppm, ref.size_mm, region=region)
            for p in find_pieces(canvas, ref.canvas, ppm, self.book, self.spaces, gain=last.gain, region=region):
                if _inside(near, p.x_mm, p.y_mm):
                    found.append(p)
        # pieces never overlap: a kept piece with a found one nearer than half the smallest piece's width is that
        # same piece, its centre read a little apart on either side of the re-read area's edge (issue 17, Karibik
        # seed 2 `clean`: Arriba kept at 1.1 mm from where the re-read found it, read twice)
        last.pieces = once_each(not_overlapping(kept, found, 0.5 * self.min_width_mm) + found, self.once)
        last.small = small
        return WatchReading(list(last.pieces), False, area)


def not_overlapping(kept: list[PieceSeen], found: list[PieceSeen], apart_mm: float) -> list[PieceSeen]:
    """The ``kept`` pieces less those whose centre lies within ``apart_mm`` of a ``found`` one's: pieces never overlap,
    so such a pair is one piece read twice (the found reading is the newer)."""
    return [p for p in kept if all(np.hypot(p.x_mm - q.x_mm, p.y_mm - q.y_mm) >= apart_mm for q in found)]


def _inside(mask: np.ndarray, x_mm: float, y_mm: float) -> bool:
    x, y = int(x_mm), int(y_mm)
    return 0 <= y < mask.shape[0] and 0 <= x < mask.shape[1] and bool(mask[y, x])


def _shrink(frame: np.ndarray, box: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """The frame (its ``box``: x0, y0, x1, y1 px) shrunk, in colour (a red boat on a blue sea can be the sea's grey)."""
    if box is not None and box[2] > box[0]:
        frame = frame[box[1]:box[3], box[0]:box[2]]
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    return cv2.resize(frame, (frame.shape[1] // SHRINK, frame.shape[0] // SHRINK), interpolation=cv2.INTER_AREA)


__all__ = ["BoardWatch", "WatchReading"]
