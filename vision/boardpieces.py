"""Pieces on a printed board's spaces, seen against the empty board.

Both pictures are straight canvases in board millimetres (``vision.boardreg``): the frame's
canvas is first brought to the empty board's light (:func:`light_gain`: a smooth per-channel gain
fitted robustly, the pieces left out, however crowded), then every pixel's colour difference from the empty
board (CIE Lab distance) marks what stands on the board. Thin differences along printed lines
(a fraction of a millimetre of registration error) are opened away; what is left falls into
blobs, one per piece, and blobs larger than any enrolled piece (pieces touching) are split
by the pieces' body colours (:func:`split_by_colour`), one colour's pieces by a watershed from the
peaks of their distance transform; a part of such a split is named only
with a clearly better match than a lone piece needs.

Each blob is told apart by its colours and size against the enrolled pieces (:class:`PieceBook`:
Lab histograms and the footprint's area per piece, learnt from one photo with each piece on a known spot) with a margin:
the best template must beat the runner-up clearly, else the blob is reported ``unsure`` with
both names. Its space is the space under the blob's centre (spaces given as polygons in board
mm: data, no rules); a centre within ``line_mm`` of another space is reported ``unsure`` with
the candidate spaces rather than guessed.

Chests carried by ships and the values printed on face-up chests are read by
:mod:`vision.chests` from the pieces found here (docs/boardcam.md, "Chests").
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from math import gamma
from pathlib import Path
from typing import Mapping, Sequence

import cv2
import numpy as np

from tablehub.i18n import N_, T, Tc, chain, reason  # what a phone reads (tablehub/locale/*/vision.po)

from . import VisionError
from .boardreg import seen_mask
from .identity_cache import IdentityCache

#: /2: the core's dominant colour (:func:`dominant_colour`) before its median colour
BOOK_FORMAT = "tablehub-board-pieces/2"
_BINS = (6, 8, 8)


def _light_terms(xs: np.ndarray, ys: np.ndarray, degree: int) -> np.ndarray:
    """The monomials x^i y^j (i + j <= degree) of points scaled to -1..1: the smooth light model."""
    return np.stack([xs ** i * ys ** j for i in range(degree + 1) for j in range(degree + 1 - i)], axis=-1)


_TERMS: dict = {}


def _grid_terms(small: tuple[int, int], degree: int) -> np.ndarray:
    key = (small, degree)
    if key not in _TERMS:
        ys, xs = np.mgrid[0:small[1], 0:small[0]].astype(np.float32)
        _TERMS[key] = _light_terms(xs / max(1, small[0] - 1) * 2 - 1, ys / max(1, small[1] - 1) * 2 - 1, degree)
    return _TERMS[key]


_CELLS = IdentityCache(4)


def _cells(img: np.ndarray, small: tuple[int, int]) -> np.ndarray:
    """``img``'s mean colour per cell of a ``small`` grid (float32): first shrunk by a whole factor (OpenCV's
    fast path: a 1000 px canvas by 8 costs a tenth of shrinking it by 16.13 at once), then to the grid."""
    h, w = img.shape[:2]
    f = max(1, min(w // small[0], h // small[1]) // 2)
    while f > 1 and (w % f or h % f):
        f -= 1
    if f > 1:
        img = cv2.resize(img, (w // f, h // f), interpolation=cv2.INTER_AREA)
    return cv2.resize(img, small, interpolation=cv2.INTER_AREA).astype(np.float32)


def light_gain(canvas: np.ndarray, empty: np.ndarray, cell_px: int = 16, degree: int = 3,
               rounds: int = 4) -> np.ndarray:
    """The per-channel gain (small grid, float32, ``cell_px`` canvas px a cell) that brings ``canvas`` to
    ``empty``'s light: a smooth field (a polynomial of ``degree`` in board position, per channel, in log
    gain) fitted to the cells' log ratios, each round dropping the cells it does not explain (pieces,
    whose colours are not the board's). Light on a flat board (colour balance, exposure, a gradient
    across the table, the lens's vignette) is smooth; a piece is not, so crowded pieces do not pull the
    board's light towards their own colours as a local median would."""
    h, w = empty.shape[:2]
    small = (max(2, w // cell_px), max(2, h // cell_px))
    a = _cells(canvas, small)
    # the empty board's cells: once per picture
    b = _CELLS.get((empty,), (small, int(empty[::97, ::89].sum())), lambda: _cells(empty, small))
    terms = _grid_terms(small, degree)
    ratio = np.log(b + 1) - np.log(a + 1)
    keep = (a.min(axis=2) > 8) & (b.min(axis=2) > 8) & (a.max(axis=2) < 250)  # seen, not black, not clipped
    if keep.sum() < 4 * terms.shape[-1]:
        return np.ones((small[1], small[0], 3), np.float32) * np.float32(np.median(np.exp(ratio), axis=(0, 1)))
    fit = np.zeros(ratio.shape, np.float32)
    for _ in range(rounds):
        A = terms[keep].astype(np.float64)
        coef = np.linalg.solve(A.T @ A + 1e-6 * np.eye(A.shape[1]), A.T @ ratio[keep].astype(np.float64))
        fit = (terms.reshape(-1, terms.shape[-1]) @ coef).reshape(ratio.shape).astype(np.float32)
        resid = np.abs(ratio - fit).max(axis=2)
        cut = max(0.04, 2.5 * float(np.median(resid[keep])))
        new = keep & (resid < cut)
        if new.sum() < 4 * terms.shape[-1] or (new == keep).all():
            break
        keep = new
    return np.exp(fit).astype(np.float32)


def match_light(canvas: np.ndarray, empty: np.ndarray, cell_px: int = 16, gain: np.ndarray | None = None,
                region: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """``canvas`` brought to ``empty``'s light and colour balance (uint8 BGR): :func:`light_gain` (or the
    ``gain`` grid given, from an earlier frame under the same light). With ``region`` (x0, y0, x1, y1 px)
    ``canvas`` is that part of the board only, and ``gain`` must be given."""
    h, w = empty.shape[:2]
    if gain is None:
        gain = light_gain(canvas, empty, cell_px)
    if region is None:
        full = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
        # straight to 8 bits (rounded and saturated as convertScaleAbs did, without the float picture between)
        return cv2.multiply(canvas, full, dtype=cv2.CV_8U)
    x0, y0, x1, y1 = region
    # the grid's cells are centred at (i + 0.5) * w / gw: one affine map to the region's pixels
    gh, gw = gain.shape[:2]
    sx, sy = gw / w, gh / h
    M = np.float32([[sx, 0, sx * (x0 + 0.5) - 0.5], [0, sy, sy * (y0 + 0.5) - 0.5]])
    full = cv2.warpAffine(gain, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)
    return cv2.multiply(canvas, full, dtype=cv2.CV_8U)


def _lab(img: np.ndarray) -> np.ndarray:
    """CIE Lab (float32, L 0-100) of a BGR picture, through OpenCV's 8-bit conversion (four times
    faster than the float one; a quarter of a unit coarser)."""
    lab8 = cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8) if img.dtype != np.uint8 else img,
                        cv2.COLOR_BGR2Lab)
    return cv2.add(cv2.multiply(lab8, _LAB8_SCALE, dtype=cv2.CV_32F), _LAB8_SHIFT, dtype=cv2.CV_32F)


_LAB8_SCALE = (100.0 / 255.0, 1.0, 1.0, 0.0)
_LAB8_SHIFT = (0.0, -128.0, -128.0, 0.0)

class LabCanvas:
    """A canvas's CIE Lab as :func:`_lab` gives it (float32, L 0-100), kept as OpenCV's 8-bit Lab and converted
    where it is read: the pieces' histograms read a few blobs' crops (``lab[y0:y1, x0:x1]``), not the whole
    board. Any other use (``np.asarray``, other indexing) converts the whole canvas once."""

    def __init__(self, lab8: np.ndarray):
        self.lab8 = lab8
        self.shape = lab8.shape
        self.dtype = np.dtype(np.float32)
        self._full: np.ndarray | None = None

    def full(self) -> np.ndarray:
        if self._full is None:
            self._full = _lab8_float(self.lab8)
        return self._full

    def __getitem__(self, idx):
        if self._full is None and isinstance(idx, tuple) and len(idx) <= 2 and all(isinstance(i, slice) for i in idx):
            return _lab8_float(self.lab8[idx])  # a crop: its pixels only
        return self.full()[idx]

    def __array__(self, dtype=None, copy=None):
        return self.full() if dtype is None else self.full().astype(dtype)


def _lab8_float(lab8: np.ndarray) -> np.ndarray:
    return cv2.add(cv2.multiply(lab8, _LAB8_SCALE, dtype=cv2.CV_32F), _LAB8_SHIFT, dtype=cv2.CV_32F)


#: squared Lab8 differences -> squared CIE Lab distance (L is stored as L * 255 / 100)
_LAB8_WEIGHTS = np.float32([[(100.0 / 255.0) ** 2, 1.0, 1.0]])

_EMPTY = IdentityCache(4)


def _empty_cached(empty: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The empty board's blurred 8-bit Lab and seen mask, computed once per picture."""
    return _EMPTY.get((empty,), int(empty[::97, ::89].sum()),
                      lambda: (cv2.GaussianBlur(cv2.cvtColor(empty, cv2.COLOR_BGR2Lab), (0, 0), 1.0), seen_mask(empty)))


#: the board's own edge left out of the difference (px): a sliver of table under a fraction of a millimetre of error
BORDER_PX = 6


def difference(canvas: np.ndarray, empty: np.ndarray, border_px: int = BORDER_PX, gain: np.ndarray | None = None,
               region: tuple[int, int, int, int] | None = None) -> tuple[np.ndarray, "LabCanvas"]:
    """Per-pixel Lab distance of the light-matched canvas from the empty board, and the matched
    canvas in Lab (:class:`LabCanvas`). With ``region`` (x0, y0, x1, y1 px of the board) ``canvas`` is that part
    only, lit by ``gain`` (:func:`light_gain` of a whole canvas): the incremental read of the changed spaces.
    Both pictures are blurred (sigma 1 px) and compared in OpenCV's 8-bit Lab, in integers until the squares
    (half the CPU of doing it all in float; the blur's rounding is under half a Lab unit)."""
    h, w = empty.shape[:2]
    x0, y0, x1, y1 = region or (0, 0, w, h)
    if region is not None and gain is None:
        raise VisionError(T("pieces: a region of the board is read under a known light (gain) only"))
    lab8 = cv2.cvtColor(match_light(canvas, empty, gain=gain, region=region), cv2.COLOR_BGR2Lab)
    ref_blur, ref_seen = _empty_cached(empty)
    diff = cv2.absdiff(cv2.GaussianBlur(lab8, (0, 0), 1.0), ref_blur[y0:y1, x0:x1])
    d = cv2.sqrt(cv2.transform(cv2.multiply(diff, diff, dtype=cv2.CV_32F), _LAB8_WEIGHTS))
    d[~(seen_mask(canvas) & ref_seen[y0:y1, x0:x1])] = 0  # parts of the board outside one of the frames
    b = border_px
    if b:  # the board's own edge: a sliver of table under a fraction of a millimetre of error
        d[:max(0, b - y0)], d[d.shape[0] - max(0, b - (h - y1)):] = 0, 0
        d[:, :max(0, b - x0)], d[:, d.shape[1] - max(0, b - (w - x1)):] = 0, 0
    return d, LabCanvas(lab8)


def _histogram(lab: np.ndarray, mask: np.ndarray, ppm: float = 2.0) -> np.ndarray:
    """Lab histogram of the whole blob and of its core (3 mm in from its outline: the sail or the
    lid without the hull's rim and the shadow), half the weight each."""
    m = mask.astype(np.uint8)
    k = max(3, int(round(6 * ppm)) | 1)
    core = cv2.erode(m, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    if not core.any():
        core = m
    out = []
    for part in (m, core):
        h = cv2.calcHist([lab], [0, 1, 2], part, list(_BINS), [0, 100, -80, 80, -80, 80]).ravel().astype(np.float32)
        out.append(h / max(1e-6, float(h.sum())) / 2)
    # the core's own colour (the colour split's seeds, a laden piece's own colour), then its median colour (the
    # match: bins split a colour that sits on their boundary, this does not; on a blurred two-tone sail the
    # dominant colour may flip between its two colours from frame to frame, the median does not)
    px = lab[core > 0]
    out.append(dominant_colour(px))
    out.append(np.float32(np.median(px, axis=0)))
    return np.concatenate(out)


def dominant_colour(px: np.ndarray, cell: float = 10.0, near: float = 15.0) -> np.ndarray:
    """The colour most of ``px`` (N x 3 Lab) have: the median of the pixels within ``near`` of the fullest
    ``cell``-sized Lab cell's mean. A two-tone sail's median is a colour no pixel has (Arriba's white sail with
    black stripes: a grey; Evita's green with a white cross: a pale green), and a piece's own colour looked for
    near it (the colour split's seeds, a laden ship's own colour) was found on a few pixels only (issue 17:
    14-29 mm2 of a 340 mm2 ship); one colour is its own median."""
    px = np.asarray(px, np.float32).reshape(-1, 3)
    if len(px) == 0:
        return np.zeros(3, np.float32)
    q = np.floor((px + np.float32([0.0, 128.0, 128.0])) / cell).astype(np.int64)
    code = (q[:, 0] * 64 + q[:, 1]) * 64 + q[:, 2]
    uniq, inv, counts = np.unique(code, return_inverse=True, return_counts=True)
    centre = px[inv.ravel() == int(np.argmax(counts))].mean(axis=0)
    sel = px[np.linalg.norm(px - centre, axis=1) < near]
    return np.float32(np.median(sel if len(sel) else px, axis=0))


_NH = 2 * int(np.prod(_BINS))
#: weight of the footprint's size in the match (|log| of the area ratio): a chest is half a ship
AREA_WEIGHT = 0.3


def _distance(a: np.ndarray, b: np.ndarray) -> float:
    """Bhattacharyya distance of the histograms plus the core colours' Lab distance / 100."""
    bh = cv2.compareHist(a[:_NH], b[:_NH], cv2.HISTCMP_BHATTACHARYYA)
    return float(bh + np.linalg.norm(a[_NH + 3:] - b[_NH + 3:]) / 100.0)


_BOOK_MATRICES = IdentityCache(8)
""":func:`_book_matrix`'s cache, by book (a few at a time)."""


def _book_matrix(book: "PieceBook") -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The book's templates softened, as matrices (built once per book and kept while its templates stay the
    same): square roots of the histograms, their sums, the core colours, the footprints' areas."""
    def build() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        soft = np.float64([soften(t.hist) for t in book.templates])
        return (np.sqrt(np.maximum(soft[:, :_NH], 0)), soft[:, :_NH].sum(axis=1), soft[:, _NH + 3:],
                np.float64([max(1.0, t.area_mm2) for t in book.templates]))

    return _BOOK_MATRICES.get((book, *(t.hist for t in book.templates)), None, build)


def _scores(hist: np.ndarray, area_mm2: float, book: "PieceBook", cut: bool = False) -> list[tuple[float, int]]:
    """:func:`_distance` of a softened blob histogram to every template of ``book`` plus the footprint's size
    term, best first: ``(score, template index)``. One matrix product for all templates (OpenCV's
    Bhattacharyya distance, written out), not a comparison per template. ``cut``: the blob runs off the board's
    edge (what lies beyond is not seen), so its area is only a lower bound of the piece's: the size term counts
    only a blob larger than the template (issue 17: Tahiti's yellow sailboat hanging over the board's far corner
    was named the smaller yellow boat by its area alone)."""
    roots, sums, cores, areas = _book_matrix(book)
    h = np.float64(hist)
    s1 = sums * float(h[:_NH].sum())
    norm = np.where(np.abs(s1) > np.finfo(np.float32).eps, 1.0 / np.sqrt(np.abs(s1)), 1.0)
    bh = np.sqrt(np.maximum(1.0 - (roots @ np.sqrt(np.maximum(h[:_NH], 0))) * norm, 0.0))
    size = np.log(area_mm2 / areas)
    total = bh + np.linalg.norm(h[_NH + 3:] - cores, axis=1) / 100.0 + AREA_WEIGHT * (
        np.maximum(size, 0.0) if cut else np.abs(size))
    order = np.argsort(total, kind="stable")
    return [(float(total[i]), int(i)) for i in order]


def soften(h: np.ndarray) -> np.ndarray:
    """The histograms with each bin spread a quarter to each neighbour along L, a and b: a colour sitting on
    a bin boundary (a red hull at a* = 60) then matches itself seen a little lighter or warmer, where hard
    bins would put all of it in the other bin."""
    global _SOFT
    n = int(np.prod(_BINS))
    if _SOFT is None:  # the spreading as one matrix, built once
        cube = np.eye(n, dtype=np.float32).reshape((n, *_BINS))
        for axis in (1, 2, 3):
            pad = np.concatenate([cube.take([0], axis), cube, cube.take([-1], axis)], axis=axis)
            size = cube.shape[axis]
            cube = 0.5 * cube + 0.25 * pad.take(range(0, size), axis) + 0.25 * pad.take(range(2, size + 2), axis)
        _SOFT = np.ascontiguousarray(cube.reshape(n, n))
    out = h.copy()
    out[:n] = h[:n] @ _SOFT
    out[n:2 * n] = h[n:2 * n] @ _SOFT
    return out


_SOFT: np.ndarray | None = None


@dataclass
class PieceTemplate:
    name: str
    kind: str
    area_mm2: float
    hist: np.ndarray = field(repr=False)
    #: the enrolled footprint's outline (:func:`outline_box`: its least rectangle's long and short sides, mm, and
    #: the share of that rectangle it fills); ``None`` in a book enrolled before it was kept (no shape check)
    box: tuple[float, float, float] | None = None


_BOOKS = {"piece book": Tc("file", "piece book"), "chest value book": Tc("file", "chest value book")}  # what read_book reads


def read_book(path: Path, what: str, fmt: str, key: str, want: object) -> dict:
    """An enrolled book's JSON (pieces, chest values): one line naming the file when it is unreadable, of another
    format, or made with another ``key`` than ``want`` (by another version: enrol again)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise VisionError(T("{path}: not a readable {what} ({why})", path=str(path), what=_BOOKS.get(what, what), why=str(e))) from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        found = data.get("format") if isinstance(data, dict) else None
        if isinstance(found, str) and found.split("/")[0] == fmt.split("/")[0]:  # the same book, another version
            raise VisionError(T("{path}: 'format' must be {format} (enrolled by another version: enrol again)",
                                path=str(path), format=repr(fmt)))
        raise VisionError(T("{path}: 'format' must be {format}", path=str(path), format=repr(fmt)))
    if data.get(key) != want:
        raise VisionError(T("{path}: '{key}' must be {value} (enrolled by another version: enrol again)", path=str(path), key=key, value=str(want)))
    return data

@dataclass
class PieceBook:
    """The enrolled pieces: one template each."""

    templates: list[PieceTemplate]

    def names(self) -> list[str]:
        return [t.name for t in self.templates]

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"format": BOOK_FORMAT, "bins": list(_BINS),
                "pieces": [{"name": t.name, "kind": t.kind, "area_mm2": round(t.area_mm2, 1),
                            "hist": [round(float(v), 5) for v in t.hist],
                            **({"box": [round(float(v), 3) for v in t.box]} if t.box is not None else {})}
                           for t in self.templates]}
        path.write_text(json.dumps(data) + "\n")
        return path

    @classmethod
    def load(cls, path: str | Path) -> "PieceBook":
        path = Path(path)
        data = read_book(path, "piece book", BOOK_FORMAT, "bins", list(_BINS))
        out = []
        for i, p in enumerate(data.get("pieces") or []):
            try:
                hist = np.float32(p["hist"])
                if hist.size != _NH + 6:
                    raise ValueError(T("wrong length"))
                box = p.get("box")
                if box is not None:
                    box = tuple(float(v) for v in box)
                    if len(box) != 3 or not all(np.isfinite(box)) or min(box) <= 0:
                        raise ValueError(T("box must be 3 positive numbers"))
                out.append(PieceTemplate(str(p["name"]), str(p["kind"]), float(p["area_mm2"]), hist, box))
            except (KeyError, TypeError, ValueError) as e:
                raise VisionError(T("{path}: pieces[{i}] is not a piece template ({why})", path=str(path), i=i, why=reason(e))) from None
        if not out:
            raise VisionError(T("{path}: 'pieces' is empty", path=str(path)))
        return cls(out)


@dataclass
class Blob:
    """A piece-sized blob of difference: ``mask`` (boolean) with its top-left at ``x0, y0`` (px)."""

    x0: int
    y0: int
    mask: np.ndarray
    split: bool = False  # cut from a blob of touching pieces
    apart: bool = False  # a part of such a split bordering only parts of other body colours (:func:`colour_parted`)

    def centre_mm(self, ppm: float) -> tuple[float, float]:
        ys, xs = np.nonzero(self.mask)
        return (float(xs.mean()) + self.x0) / ppm, (float(ys.mean()) + self.y0) / ppm

    def area_mm2(self, ppm: float) -> float:
        return float(self.mask.sum()) / (ppm * ppm)

    def crop(self, img: np.ndarray) -> np.ndarray:
        h, w = self.mask.shape
        return img[self.y0:self.y0 + h, self.x0:self.x0 + w]


def blobs(diff: np.ndarray, ppm: float, threshold: float = 14.0, min_mm2: float = 40.0,
          max_single_mm2: float | None = None, min_half_width_mm: float = 3.0,
          lab: np.ndarray | None = None, colours: "BodyColours | None" = None) -> list[Blob]:
    """One blob per piece-sized patch of difference (touching pieces split: by the pieces' own
    colours when ``lab`` and the enrolled ``colours`` are given, else by shape)."""
    mask = cv2.threshold(diff, threshold, 1, cv2.THRESH_BINARY)[1].astype(np.uint8)  # diff > threshold
    k = max(3, int(round(2.5 * ppm)) | 1)  # wider than a printed line under a little registration error
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    for i in range(1, n):
        area = stats[i, cv2.CC_STAT_AREA] / (ppm * ppm)
        if area < min_mm2:
            continue
        x, y, w, h = stats[i, :4]
        sub = (labels[y:y + h, x:x + w] == i)
        thick = cv2.distanceTransform(np.pad(sub.astype(np.uint8), 1), cv2.DIST_L2, 3).max() / ppm
        if thick < min_half_width_mm:  # thin: printed lines under registration error, not a piece
            continue
        parts = [sub]
        if max_single_mm2 is not None and area > max_single_mm2:
            parts = split_touching(sub, None if lab is None else lab[y:y + h, x:x + w], ppm, min_mm2, max_single_mm2,
                                   colours)
        out.extend(Blob(int(x), int(y), part, len(parts) > 1) for part in parts)
    return out


def solidity(mask: np.ndarray) -> float:
    """The blob's area over its convex hull's: about 1 for one piece (every piece is convex seen from
    above), less for pieces touching (the waist between them)."""
    pts = cv2.findNonZero(mask.astype(np.uint8))
    if pts is None or len(pts) < 3:
        return 1.0
    hull = cv2.contourArea(cv2.convexHull(pts))
    return float(len(pts) / max(1.0, hull + 0.5 * cv2.arcLength(cv2.convexHull(pts), True)))


def outline_box(mask: np.ndarray, ppm: float) -> tuple[float, float, float]:
    """A footprint's outline: its least (turned) rectangle's long and short sides (mm) and the share of that
    rectangle the footprint fills (a box seen from above, its edges softened by the blur, fills nearly all of it;
    a ship's pointed hull, or a part cut from it, much less)."""
    pts = cv2.findNonZero(mask.astype(np.uint8))
    if pts is None or len(pts) < 3:
        return 0.0, 0.0, 1.0
    (_, _), (w, h), _ = cv2.minAreaRect(pts)
    w, h = w + 1.0, h + 1.0  # pixel centres to pixel edges
    return max(w, h) / ppm, min(w, h) / ppm, float(len(pts)) / (w * h)


def convexity(mask: np.ndarray) -> float:
    """A footprint's area over its convex hull's (1 for a convex outline)."""
    pts = cv2.findNonZero(mask.astype(np.uint8))
    if pts is None or len(pts) < 3:
        return 1.0
    return float(len(pts)) / max(1.0, cv2.contourArea(cv2.convexHull(pts)))


#: a template whose footprint fills this share of its least rectangle or more is a box (a chest): a part of a split
#: is named that piece only with a box's convex outline (:func:`boxed_like`)
BOX_FILL = 0.87
#: the least convexity of a box's part: a chest with the end of a hull it touched, which the colour split may give it
#: (a face-down chest's wood and a hull's brown are one colour), is 0.86-0.90 on the drawn table; the halves of a
#: yellow sail the split cut apart 0.63 and 0.76
BOX_CONVEX = 0.8


def boxed_like(mask: np.ndarray, t: "PieceTemplate", ppm: float, least: float = BOX_CONVEX) -> bool:
    """Whether a part of a split blob has the outline of the piece ``t`` when that piece is a box (its enrolled
    footprint fills :data:`BOX_FILL` of its least rectangle: a chest): a box is convex, and so is a box with a sliver
    or an end of what it touched, so the part's area must be at least ``least`` of its convex hull's. A yellow sail's
    half cut from its ship by the colour split has the lids' colour and a chest's area but a notched outline (issue
    17, Karibik seed 2 ``hard`` frame 11: Diabolo read as two face-up chests; the parts' convexity 0.63 and 0.76).
    Its size is not asked here (the part may keep a hull's end: :func:`sized_like` asks the area). True for pieces
    that are no box (a ship) and for templates enrolled without their outline."""
    if not _box_like(t):
        return True
    return convexity(mask) >= least


def outlined_like(mask: np.ndarray, t: "PieceTemplate", ppm: float) -> bool:
    """Whether the enrolled outline of ``t`` (:func:`outline_box`) alone explains the blob ``mask``
    (:func:`split_by_outlines`: it fits inside, and what it leaves holds no other piece). True for a template enrolled
    without its outline."""
    if t.box is None:
        return True
    got = split_by_outlines(mask, [t.box], ppm, 0.0)
    return got is not None and len(got) == 1


def split_touching(sub: np.ndarray, lab: np.ndarray | None, ppm: float, min_mm2: float, max_single_mm2: float,
                   colours: "BodyColours | None") -> list[np.ndarray]:
    """Touching pieces: by their colours (:func:`split_by_colour`) when ``lab`` and ``colours`` are given,
    a part of one colour still larger than ``max_single_mm2`` and a blob of one colour by the outlines of that
    colour's pieces (:func:`split_by_outlines`), else by shape."""
    parts = None
    if lab is not None and colours is not None:
        parts = split_by_colour(sub, lab, ppm, min_mm2, colours)
    if not parts:
        return _split_one_colour(sub, lab, ppm, min_mm2, colours)
    parts = list(parts)
    big = [p.sum() / (ppm * ppm) > max_single_mm2 for p in parts]
    split = {i: _split_one_colour(parts[i], lab, ppm, min_mm2, colours, parts, big) for i in range(len(parts)) if big[i]}
    # a part of one colour still too large: pieces of one colour touching
    return [q for i, p in enumerate(parts) for q in split.get(i, [p])]


def _split_one_colour(part: np.ndarray, lab: np.ndarray | None, ppm: float, min_mm2: float,
                      colours: "BodyColours | None", parts: list[np.ndarray] | None = None,
                      big: list[bool] | None = None) -> list[np.ndarray]:
    """Pieces of one colour touching: the enrolled outlines of that colour's pieces fitted into the part
    (:func:`split_by_outlines`); by shape (:func:`_split`) when no set of them explains it. With the colour split's
    ``parts`` (``big``: those too large for one piece), what lies outside every fitted outline and belongs to a part
    it borders goes to it first (:func:`_hand_over`)."""
    outlines = colours.outlines_of(part, lab) if colours is not None and lab is not None else []
    if outlines:
        fitted = fit_outlines(part, outlines, ppm)
        if fitted and parts is not None:
            part = _hand_over(part, fitted, outlines, ppm, min_mm2, parts, big)
        pieces = split_by_outlines(part, outlines, ppm, min_mm2, fitted)
        if pieces is not None:
            return pieces
    return _split(part, ppm, min_mm2)


def _hand_over(part: np.ndarray, fitted: list, outlines: Sequence[tuple[float, float, float]], ppm: float,
               min_mm2: float, parts: list[np.ndarray], big: list[bool]) -> np.ndarray:
    """``part`` less the patches outside every outline fitted into it (``fitted``) that belong to a neighbouring part
    of the colour split: a patch of at least a quarter of ``min_mm2`` goes to the part (not itself too large:
    ``big``) it borders most when it borders that part along at least :data:`MIN_CONTACT` of its edge and twice as
    much as the rest of ``part`` (a rim round that part's colour, joined to ``part`` at a waist); ``parts`` is
    updated. A hull's brown within the colour split's reach of a face-down chest's wood seeds that colour's part, and
    where two ships touch the other ship's hull went with it (issue 17, Karibik seed 1 ``hard`` frame 7: Arriba's rim,
    flooded across the waist into laden Bravo's part, 44 % of its edge against Arriba's sail and 2 % against Bravo,
    left Arriba's sail unsure and Bravo, cut by shape, read on a line). A piece of the part's colour that no outline
    was fitted to touches a neighbour along a short stretch and stays."""
    ys, xs = np.nonzero(part)
    radius = _fitted_radius(xs, ys, outlines, ppm, fitted).min(axis=0)
    loose = np.zeros(part.shape, np.uint8)
    loose[ys[radius > 1], xs[radius > 1]] = 1
    k3 = np.ones((3, 3), np.uint8)
    cn, cl = cv2.connectedComponents(loose, connectivity=8)
    for c in range(1, cn):
        patch = cl == c
        if patch.sum() / (ppm * ppm) < 0.25 * min_mm2:
            continue
        ring = cv2.dilate(patch.astype(np.uint8), k3).astype(bool) & ~patch
        shared = [int((ring & q).sum()) if not big[j] else 0 for j, q in enumerate(parts)]
        j = int(np.argmax(shared))
        if shared[j] == 0:
            continue
        mine = _contact(patch, part & ~patch)
        theirs = _contact(patch, parts[j])
        if theirs >= MIN_CONTACT and theirs >= 2 * mine:
            parts[j] = parts[j] | patch
            part = part & ~patch
    return part


def _fitted_radius(xs: np.ndarray, ys: np.ndarray, outlines: Sequence[tuple[float, float, float]], ppm: float,
                   fitted: list) -> np.ndarray:
    """Each point's superellipse radius (below 1: inside) in each fitted outline (one row each)."""
    shapes = _shapes(outlines, ppm)
    return np.stack([_outline_radius(xs - x, ys - y, *shapes[i], deg) for i, x, y, deg in fitted])


def _shapes(outlines: Sequence[tuple[float, float, float]], ppm: float) -> list[tuple[float, float, float]]:
    """Enrolled outlines ``(long mm, short mm, fill)`` as superellipses ``(long px, short px, power)``."""
    return [(o[0] * ppm, o[1] * ppm, outline_power(o[2])) for o in outlines]


#: the turns tried when outlines are fitted (degrees; an outline is the same turned half a turn)
OUTLINE_TURNS = np.arange(0.0, 180.0, 6.0)
#: the least share of a fitted outline (1 px in from its edge: the blur) inside the part
OUTLINE_INSIDE = 0.92
#: the most a fitted outline may overlap the outlines fitted before it (pieces touch, never overlap; the blur and a
#: shadow blur where they meet)
OUTLINE_OVERLAP = 0.12
#: the least share of the part the fitted outlines must cover for the set to explain it, unless what they leave is
#: less than :data:`OUTLINE_LEFT` of the smallest outline (no piece's room: a laden ship's chest overhanging elsewhere
#: than where it lay at enrolment, a shadow)
OUTLINE_EXPLAINS = 0.9
#: the share of the smallest outline below which what is left uncovered holds no piece: outlines are fitted while more
#: is left
OUTLINE_LEFT = 0.6


def outline_power(fill: float) -> float:
    """The exponent ``n`` of the superellipse |x/a|^n + |y/b|^n <= 1 that fills ``fill`` of its bounding rectangle
    (Gamma(1 + 1/n)^2 / Gamma(1 + 2/n): a diamond 0.5 at n = 1, an ellipse pi/4 at 2, a rectangle 1 as n grows):
    an enrolled footprint's outline (:func:`outline_box`: its least rectangle and the share it fills) as a shape."""
    fill = float(np.clip(fill, 0.52, 0.98))
    lo, hi = 1.0, 40.0
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        if gamma(1 + 1 / mid) ** 2 / gamma(1 + 2 / mid) < fill:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _outline_radius(xs: np.ndarray, ys: np.ndarray, long_px: float, short_px: float, power: float,
                    deg: float) -> np.ndarray:
    """The superellipse's radius of points (px, from its centre) on an outline ``long_px`` by ``short_px`` turned
    ``deg``: below 1 inside, 1 on the outline."""
    a = np.deg2rad(deg)
    u = xs * np.cos(a) + ys * np.sin(a)
    v = -xs * np.sin(a) + ys * np.cos(a)
    return (np.abs(u / (0.5 * long_px)) ** power + np.abs(v / (0.5 * short_px)) ** power) ** (1.0 / power)


def _correlate(img: np.ndarray, kernel: tuple[np.ndarray, tuple[int, int]]) -> np.ndarray:
    """``img`` correlated with a kernel cropped to its support (:func:`_outline_kernels`: the kernel and where the
    outline's centre lies in it), outside ``img`` 0: the sum under the outline centred on each pixel. A kernel cut to
    its support is the same filter, on a smaller Fourier transform."""
    k, anchor = kernel
    return cv2.filter2D(img, -1, k, anchor=anchor, borderType=cv2.BORDER_CONSTANT)


def _support(k: np.ndarray, r: int) -> tuple[np.ndarray, tuple[int, int]]:
    """A ``2r + 1`` square kernel centred on its middle cut to its nonzero rows and columns, and its centre in it."""
    ys, xs = np.nonzero(k)
    y0, x0 = int(ys.min()), int(xs.min())
    return np.ascontiguousarray(k[y0:ys.max() + 1, x0:xs.max() + 1]), (r - x0, r - y0)


@lru_cache(maxsize=1024)
def _outline_kernels(long_px: float, short_px: float, power: float, deg: float, r: int, ring_px: float
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An outline turned ``deg`` on a ``2r + 1`` square kernel centred on it: filled 1 px in from its edge
    (normalised: the share inside), filled whole (0/1: the pixels it covers), and the ring ``ring_px`` wide just
    outside it (normalised: the share of it off the part), each cut to its support (:func:`_support`). Kept (the
    enrolled outlines are few): not to be changed."""
    ys, xs = np.mgrid[-r:r + 1, -r:r + 1].astype(np.float32)
    inner = _outline_radius(xs, ys, long_px - 2, short_px - 2, power, deg) <= 1
    whole = _outline_radius(xs, ys, long_px, short_px, power, deg) <= 1
    ring = (_outline_radius(xs, ys, long_px + 2 * ring_px, short_px + 2 * ring_px, power, deg) <= 1) & ~whole
    inner, ring = inner.astype(np.float32), ring.astype(np.float32)
    return (_support(inner / max(1.0, float(inner.sum())), r), _support(whole.astype(np.float32), r),
            _support(ring / max(1.0, float(ring.sum())), r))


def _least_outline_px(shapes: Sequence[tuple[float, float, float]]) -> float:
    """The smallest outline's area (px) of ``(long px, short px, power)`` superellipses (4 Gamma(1 + 1/n)^2 /
    Gamma(1 + 2/n) a b)."""
    return min(4 * gamma(1 + 1 / n) ** 2 / gamma(1 + 2 / n) * 0.25 * lp * sp for lp, sp, n in shapes)


def fit_outlines(part: np.ndarray, outlines: Sequence[tuple[float, float, float]], ppm: float,
                 min_share: float | None = None) -> list[tuple[int, float, float, float]]:
    """Outlines of known size and shape (``outlines``: the enrolled pieces' ``(long_mm, short_mm, fill)``,
    :func:`outline_box`) fitted into ``part``, one at a time: of the places and turns where an outline lies inside
    the part (:data:`OUTLINE_INSIDE`) and overlaps those fitted before it by at most :data:`OUTLINE_OVERLAP`, the one
    that covers most of what is left, weighted by how much of its edge is the part's edge (the ring just outside it
    lies off the part: a piece at the blob's end, not one straddling two); again while ``min_share`` of the smallest
    outline is left uncovered. ``(outline index, x px, y px, turn deg)`` each, in ``part``'s pixels. Pieces are rigid
    and of their enrolled size: where none fits (no such piece there) none is given."""
    shapes = _shapes(outlines, ppm)
    r = int(np.ceil(0.5 * max(s[0] for s in shapes) + ppm)) + 2
    ring_px = max(1.0, ppm)
    # not padded: outside the part is 0 (BORDER_CONSTANT), and no outline centred off the part lies inside it
    whole_part = part.astype(np.float32)
    cands = []
    for i, (lp, sp, pw) in enumerate(shapes):
        turns = OUTLINE_TURNS if lp > 1.1 * sp else OUTLINE_TURNS[:1]  # a round outline: one turn
        for deg in turns:
            inner, whole, ring = _outline_kernels(lp, sp, pw, float(deg), r, ring_px)
            fits = _correlate(whole_part, inner) >= OUTLINE_INSIDE
            if not fits.any():
                continue
            exposed = 1.0 - _correlate(whole_part, ring)
            cands.append((i, float(deg), inner, whole, fits, exposed))
    smallest = _least_outline_px(shapes)
    min_share = OUTLINE_LEFT if min_share is None else min_share
    rest = whole_part.copy()
    out: list[tuple[int, float, float, float]] = []
    while cands and rest.sum() >= min_share * smallest:
        taken = whole_part - rest
        best = None
        for i, deg, inner, whole, fits, exposed in cands:
            ok = fits & (_correlate(taken, inner) <= OUTLINE_OVERLAP) if out else fits
            if not ok.any():
                continue
            gain = _correlate(rest, whole) * (0.5 + exposed)
            score = np.where(ok, gain, -1.0)
            k = int(np.argmax(score))
            if score.flat[k] > 0 and (best is None or score.flat[k] > best[0]):
                best = (float(score.flat[k]), k, i, deg, whole)
        if best is None:
            break
        _, k, i, deg, whole = best
        y, x = np.unravel_index(k, rest.shape)
        (k, (ax, ay)) = whole
        covered = np.zeros((rest.shape[0] + 2 * r, rest.shape[1] + 2 * r), np.float32)
        covered[y + r - ay:y + r - ay + k.shape[0], x + r - ax:x + r - ax + k.shape[1]] = k
        covered = covered[r:-r, r:-r]
        if not (covered * rest).any():
            break
        rest = rest * (1 - covered)
        out.append((i, float(x), float(y), deg))
    return out


def split_by_outlines(part: np.ndarray, outlines: Sequence[tuple[float, float, float]], ppm: float,
                      min_mm2: float, fitted: list | None = None) -> list[np.ndarray] | None:
    """Pieces of one colour touching, told apart by their outlines: the enrolled outlines of that colour's pieces
    fitted into the part (:func:`fit_outlines`, or ``fitted`` already); when they cover :data:`OUTLINE_EXPLAINS` of
    it, or leave less than :data:`OUTLINE_LEFT` of the smallest outline uncovered (no piece's room), each pixel goes to
    the fitted outline it lies deepest in (or nearest outside). ``[part]`` when one outline
    explains it (one piece), ``None`` when no set of them does. A sailboat is not cut across its light sail into two
    boat-sized ends, a boat against it is not cut in half (issue 17, Tahiti: a letter boat on its own sailboat's
    track space, the split by the distance transform's peaks gave parts of convexity 0.41-0.70 and a second, wrong
    boat)."""
    if not outlines:
        return None
    if fitted is None:
        fitted = fit_outlines(part, outlines, ppm)
    if not fitted:
        return None
    ys, xs = np.nonzero(part)
    radius = _fitted_radius(xs, ys, outlines, ppm, fitted)
    left = int((radius.min(axis=0) > 1).sum())
    if left > max((1 - OUTLINE_EXPLAINS) * len(xs), OUTLINE_LEFT * _least_outline_px(_shapes(outlines, ppm))):
        return None
    if len(fitted) == 1:
        return [part]
    owner = np.zeros(part.shape, np.int32)
    owner[ys, xs] = np.argmin(radius, axis=0) + 2
    parts = _whole_parts(part, owner, len(fitted), ppm, min_mm2)
    return parts if len(parts) > 1 else [part]


#: a part of a split as large as this many times a box's enrolled footprint, and looking most like that box, holds
#: two or more boxes (:func:`split_boxes`); one box with the end of a hull it touched is 1.1-1.4 times
BOXES_AT = 1.6
#: a part of a split this many times a box's enrolled footprint, looking most like that box but without a box's outline
#: (:func:`boxed_like`), is one box with the end of the piece it touched (a face-down chest's wood and a hull's brown
#: are one colour: the split gives the chest's part the stern): the box fitted into it is the box, the rest goes back
#: to the piece it borders (:func:`split_boxes`)
BOX_AND_END = 1.15
#: the least share of that one box inside the part: the split's flood may give a blurred rim of the box to the piece it
#: touched (half a pixel round a 15 x 11.5 mm chest at 2 px/mm is 7 % of it; seed 2 frame 8's chest fitted at 0.9)
END_BOX_INSIDE = 0.9
#: the turns tried when boxes are fitted (degrees; a box is the same turned half a turn)
BOX_TURNS = np.arange(0.0, 180.0, 6.0)
#: the least share of a fitted box inside the part (its outline's blurred edge aside), and the most it may overlap
#: the boxes fitted before it
BOX_INSIDE = 0.95
BOX_OVERLAP = 0.2


def _box_kernels(long_px: float, short_px: float, deg: float, ring_px: float) -> tuple[np.ndarray, np.ndarray]:
    """A box's footprint turned ``deg`` (filled, 1 px in from its outline, normalised to sum 1) and the ring just
    outside it ``ring_px`` wide (normalised), on one odd-sided square kernel centred on the box."""
    r = int(np.ceil(0.5 * np.hypot(long_px, short_px) + ring_px)) + 1
    n = 2 * r + 1

    def filled(lw: float, sw: float) -> np.ndarray:
        k = np.zeros((n, n), np.uint8)
        pts = cv2.boxPoints(((float(r), float(r)), (lw, sw), float(deg)))
        cv2.fillConvexPoly(k, np.round(pts * 16).astype(np.int32), 1, cv2.LINE_8, shift=4)
        return k.astype(np.float32)

    inner = filled(long_px - 2, short_px - 2)
    ring = filled(long_px + 2 * ring_px, short_px + 2 * ring_px) - filled(long_px, short_px)
    ring = np.maximum(ring, 0)
    return inner / max(1.0, float(inner.sum())), ring / max(1.0, float(ring.sum()))


def fit_boxes(part: np.ndarray, long_mm: float, short_mm: float, ppm: float, min_share: float = 0.6,
              inside: float = BOX_INSIDE) -> list[np.ndarray]:
    """Boxes of one known size (a chest: ``long_mm`` by ``short_mm``, its enrolled outline) fitted into ``part``, one
    at a time: of the places and turns where a box lies wholly inside the part (:data:`BOX_INSIDE`) and overlaps the
    boxes fitted before it by at most :data:`BOX_OVERLAP`, the one whose outline is most exposed (the ring just outside
    it lies off the part: a box at the heap's edge, not one straddling two boxes, whose outline runs over both); the
    part's pixels left within it are taken, and the next is fitted, while at least ``min_share`` of a box is left.
    Each box is the part's pixels within its fitted outline (grown half a millimetre: the blur). Rigid boxes of one colour heaped together are one colour part (issue 17: two face-down chests against a
    ship's brown hull); no box fits where none lies, so a part with no box's room gives none."""
    rest = part.astype(np.uint8).copy()
    box_px = long_mm * short_mm * ppm * ppm
    ring_px = max(1.0, 1.0 * ppm)
    kernels = [_box_kernels(long_mm * ppm, short_mm * ppm, d, ring_px) for d in BOX_TURNS]
    pad = kernels[0][0].shape[0] // 2 + 1
    whole = np.pad(part.astype(np.float32), pad)
    fits = [cv2.filter2D(whole, -1, inner, borderType=cv2.BORDER_CONSTANT) >= inside for inner, _ in kernels]
    # how much of the ring just outside a box lies off the part: a box at the heap's edge, not one straddling two
    exposure = [1.0 - cv2.filter2D(whole, -1, ring, borderType=cv2.BORDER_CONSTANT) for _, ring in kernels]
    out = []
    while rest.sum() >= min_share * box_px:
        img = np.pad(rest, pad).astype(np.float32)
        taken = whole - img  # the boxes fitted so far
        best = None
        for deg, (inner, _), fit, exposed in zip(BOX_TURNS, kernels, fits, exposure):
            # wholly inside the part, overlapping the boxes already fitted by at most BOX_OVERLAP (the first may sit a
            # little into its neighbour: the blur rounds its corners)
            ok = fit & (cv2.filter2D(taken, -1, inner, borderType=cv2.BORDER_CONSTANT) <= BOX_OVERLAP) if out else fit
            score = np.where(ok, exposed, -1.0)
            i = int(np.argmax(score))
            if score.flat[i] >= 0 and (best is None or score.flat[i] > best[0]):
                best = (float(score.flat[i]), i, deg)
        if best is None:
            break
        _, i, deg = best
        y, x = np.unravel_index(i, img.shape)
        box = np.zeros(img.shape, np.uint8)
        pts = cv2.boxPoints(((float(x), float(y)), (long_mm * ppm + 1, short_mm * ppm + 1), float(deg)))
        cv2.fillConvexPoly(box, np.round(pts * 16).astype(np.int32), 1, cv2.LINE_8, shift=4)
        mine = box[pad:-pad, pad:-pad].astype(bool) & (rest > 0)
        if not mine.any():
            break
        out.append(mine)
        rest[mine] = 0
    return out


def split_boxes(parts: list[np.ndarray], score, book: "PieceBook", ppm: float, fragment: float = 0.6
                ) -> list[np.ndarray]:
    """Parts that look most like a box (a template filling :data:`BOX_FILL` of its least rectangle: a chest) and are
    :data:`BOXES_AT` times its footprint or more, cut into the boxes fitted into them (:func:`fit_boxes`) when two or
    more fit. The fragments touching such a part (parts under ``fragment`` times the smallest piece: no piece, which
    is seen whole, is that small) are fitted with it: the colour split may cut a chest's corner away with the hull it
    touches. Each patch that no box covers (a hull's end the colour split gave the heap) goes to the other part it
    borders most, to a box only when it borders no other part. A box is rigid and of known size: two of one colour
    touching are two boxes, however the colour split gave them (issue 17: two face-down chests heaped beside a ship in
    port were one part, a chest lost). A part :data:`BOX_AND_END` times the box or more that has no box's outline is
    one box with the end of the piece it touched, when one box fits and a part that is no box borders it (issue 17, Karibik
    seed 2 ``hard`` frame 8: a face-down chest's part kept Diabolo's stern, 231 mm2 against the box's 157, convexity
    0.78, and both parts were unsure). ``score`` gives a mask's sorted (distance, template index) list."""
    least = min((t.area_mm2 for t in book.templates if _box_like(t)), default=np.inf)
    small = fragment * min(t.area_mm2 for t in book.templates) * ppm * ppm
    k3 = np.ones((3, 3), np.uint8)
    used: set[int] = set()
    boxes: list[np.ndarray] = []
    left: list[np.ndarray] = []
    for i, p in enumerate(parts):
        area = p.sum() / (ppm * ppm)
        if i in used or area < BOX_AND_END * least:
            continue
        t = book.templates[score(p)[0][1]]
        if not _box_like(t) or area < BOX_AND_END * t.area_mm2:
            continue
        # a whole number of boxes, or one box with what it touched (a part larger than the box, not a box's shape)
        heap = area >= BOXES_AT * t.area_mm2
        if not heap and boxed_like(p, t, ppm):
            continue
        grown = cv2.dilate(p.astype(np.uint8), k3).astype(bool)
        frags = [j for j, q in enumerate(parts) if j != i and j not in used and q.sum() < small and (grown & q).any()]
        whole = np.any([p] + [parts[j] for j in frags], axis=0)
        fitted = fit_boxes(whole, t.box[0], t.box[1], ppm, inside=BOX_INSIDE if heap else END_BOX_INSIDE)
        if len(fitted) < (2 if heap else 1):
            continue
        if not heap:    # the end of a piece that is no box: a part it borders looks most like another kind (a ship)
            boxy = {j for j, q in enumerate(parts) if j not in used and j != i and j not in frags
                    and _box_like(book.templates[score(q)[0][1]])}
            if not _touches(whole, parts, used | {i, *frags} | boxy):
                continue
        used.update([i, *frags])
        boxes.extend(fitted)
        left.append(whole & ~np.any(fitted, axis=0))
    if not boxes:
        return parts
    others = [q for j, q in enumerate(parts) if j not in used]
    for rest in left:
        cn, cl = cv2.connectedComponents(rest.astype(np.uint8), connectivity=8)
        for c in range(1, cn):
            patch = cl == c
            ring = cv2.dilate(patch.astype(np.uint8), k3).astype(bool) & ~patch
            pool = others if any((ring & q).any() for q in others) else boxes
            shared = [int((ring & q).sum()) for q in pool]
            j = int(np.argmax(shared))
            if shared[j] > 0:
                pool[j] = pool[j] | patch
    return others + boxes


def colour_parted(parts: list[np.ndarray], best: list[int], colours: "BodyColours") -> list[bool]:
    """For each part of a split, whether every part it borders looks most like a piece of another body colour
    (``best``: each part's best template; :func:`body_colours`' groups): the cut between them then runs along an edge
    between two colours, where two pieces meet, not through one piece."""
    k3 = np.ones((3, 3), np.uint8)
    out = []
    for i, p in enumerate(parts):
        grown = cv2.dilate(p.astype(np.uint8), k3).astype(bool)
        out.append(all(colours.group[best[j]] != colours.group[best[i]]
                       for j, q in enumerate(parts) if j != i and (grown & q).any()))
    return out


def _box_like(t: "PieceTemplate") -> bool:
    """Whether a template is a box (a chest: it fills :data:`BOX_FILL` of its least rectangle)."""
    return t.box is not None and t.box[2] >= BOX_FILL


def _touches(mask: np.ndarray, parts: list[np.ndarray], skip: set[int]) -> bool:
    """Whether a part other than those in ``skip`` borders ``mask`` (8-neighbours)."""
    grown = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    return any((grown & q).any() for j, q in enumerate(parts) if j not in skip)


def _split(sub: np.ndarray, ppm: float, min_mm2: float) -> list[np.ndarray]:
    """Touching pieces: a seed at each local peak of the distance transform (a piece's middle),
    then a watershed from them."""
    pad = 2
    m = np.pad(sub.astype(np.uint8), pad)
    dist = cv2.distanceTransform(m, cv2.DIST_L2, 5)
    k = max(3, int(round(10 * ppm)) | 1)  # one seed per 10 mm: a piece's middle
    peaks = (dist >= cv2.dilate(dist, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))) - 0.5) \
        & (dist > 0.5 * dist.max())
    seeds = cv2.dilate(peaks.astype(np.uint8), np.ones((3, 3), np.uint8))
    n, markers = cv2.connectedComponents(seeds)
    if n <= 2:
        return [sub]
    markers = markers.astype(np.int32) + 1  # seeds 2..n, unknown 0, outside 1
    markers[(m > 0) & (seeds == 0)] = 0
    markers[m == 0] = 1
    img = cv2.cvtColor((255 - np.clip(dist * 20, 0, 255)).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    cv2.watershed(img, markers)
    parts = []
    for lab in range(2, n + 1):
        part = (markers == lab)[pad:-pad, pad:-pad] & sub
        if part.sum() / (ppm * ppm) >= min_mm2:
            parts.append(part)
    return parts if len(parts) > 1 else [sub]


def split_by_colour(sub: np.ndarray, lab: np.ndarray, ppm: float, min_mm2: float, colours: "BodyColours",
                    near: float = 18.0, inset_mm: float = 1.5, gap_mm: float = 12.0,
                    hole_mm: float = 3.0) -> list[np.ndarray] | None:
    """Touching pieces of different colours (two players' boats side by side): each blob pixel
    labelled with the enrolled pieces' body colour (:func:`body_colours`) it lies within ``near`` of;
    each label's cores (``inset_mm`` in from its edges: no rims, shadows or small marks such as a
    pearl) seed the parts; cores of one colour less than ``gap_mm`` apart (a sail parted by its flag, a sailboat's
    hull by its sail) are one seed, of at least a quarter of ``min_mm2``. The seeds grow inside the blob
    (:func:`_flood`) and each part is one body (:func:`_whole_parts`): the cores of a ship's brown hull ends (within
    ``near`` of a face-down chest's dark wood) bridged across two touching ships are one seed but two parts (issue
    17, Karibik seed 1 ``default`` frame 25), each joined back to its ship (:func:`merge_carried`). Pieces of one
    colour touching stay one part (the caller splits it by shape). ``None`` when fewer
    than two such cores are found (one colour: left to the shape)."""
    m = sub.astype(np.uint8)
    label, ok = colours.labels(lab, near)
    ok &= sub
    k = max(3, int(round(2 * inset_mm * ppm)) | 1)
    ell = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    markers = np.zeros(sub.shape, np.int32)
    n = 0
    gap = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(round(gap_mm * ppm)) | 1,) * 2)
    fill = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, int(round(hole_mm * ppm)) | 1),) * 2)
    for c in np.unique(label[ok]):
        mine = ((label == c) & ok).astype(np.uint8)
        # a colour's pixels are pitted by sensor noise and small marks (a mast, a pearl): filled before the core is
        # taken, else the inset leaves a sail with a dot in it no core and its piece no seed
        core = cv2.erode(cv2.morphologyEx(mine, cv2.MORPH_CLOSE, fill) & m, ell)
        # one piece's body colour shows in patches parted by its marks (a sail, a pearl): bridged
        whole = cv2.morphologyEx(mine, cv2.MORPH_CLOSE, gap) & m
        cn, cl, stats, _ = cv2.connectedComponentsWithStats(whole, connectivity=8)
        for i in range(1, cn):
            seed = (cl == i) & (core > 0)
            # a core is the piece less its inset all round: compare with half a piece's core
            if seed.sum() / (ppm * ppm) >= 0.25 * min_mm2:
                n += 1
                markers[seed] = n + 1
    if n < 2:
        return None
    owner = _flood(sub, markers, ppm)
    parts = _whole_parts(sub, owner, n, ppm, min_mm2)
    return parts if len(parts) > 1 else None


def _flood(sub: np.ndarray, markers: np.ndarray, ppm: float) -> np.ndarray:
    """Every pixel of the blob given to the seed (``markers``: 2.. the seeds, 0 the rest) nearest to it *inside the
    blob*: the seeds flooded over a flat picture (a watershed with nothing to climb is a breadth-first growth from
    every seed at once), so a path from a seed to a pixel never leaves the blob. The nearest seed as the crow flies
    gave a ship's hull end, next to where another ship touched it, to that ship's sail across the gap (issue 17,
    Karibik seed 1 ``hard`` frame 7: Arriba's rim went with Bravo, which was then too large a piece and cut in
    two); a flood up the distance from the blob's outline (tried) let a seed past a wide waist early and round the
    other ship's rim, whose pixels all lie at the flood's top level. What the flood leaves (its dams) goes to the
    nearest seed's pixels."""
    pad = 1
    m = np.pad(sub.astype(np.uint8), pad)
    # OpenCV's watershed floods a pixel in the order of its colour step from the pixel that reaches it: flat inside
    # the blob (every seed grows at once), a full step from the outside (whose basin then takes no blob pixel)
    img = np.zeros((*m.shape, 3), np.uint8)
    img[m == 0] = 255
    mk = np.pad(markers.astype(np.int32), pad)
    mk[m == 0] = 1  # outside the blob: its own basin, not flooded through
    cv2.watershed(img, mk)
    owner = mk[pad:-pad, pad:-pad]
    loose = sub & (owner < 2)  # dams between the seeds' floods
    if loose.any():
        held = sub & (owner >= 2)
        _, near_px = cv2.distanceTransformWithLabels((~held).astype(np.uint8), cv2.DIST_L2, 5,
                                                     labelType=cv2.DIST_LABEL_PIXEL)
        ids = np.concatenate([[0], owner[held]]).astype(np.int32)
        owner = np.where(loose, ids[near_px], owner)
    return np.where(sub, owner, 0)


def _whole_parts(sub: np.ndarray, owner: np.ndarray, n: int, ppm: float, min_mm2: float) -> list[np.ndarray]:
    """The split's parts from the pixels' owners (2 .. n + 1): each owner's connected pieces apart (a piece is one
    body: one colour's seed found on two ships' hull ends is two parts, issue 17 seed 1 ``default`` frame 25),
    and a piece of less than ``min_mm2`` (no piece is that small) joined to the part it borders along most of its
    outline (it was cut from it: a hull end, a rim), never dropped."""
    comps = []
    for lab_id in range(2, n + 2):
        mine = ((owner == lab_id) & sub).astype(np.uint8)
        if not mine.any():
            continue
        cn, cl = cv2.connectedComponents(mine, connectivity=8)
        comps.extend(cl == i for i in range(1, cn))
    k = np.ones((3, 3), np.uint8)
    while len(comps) > 1:
        sizes = [c.sum() / (ppm * ppm) for c in comps]
        i = int(np.argmin(sizes))
        if sizes[i] >= min_mm2:
            break
        ring = cv2.dilate(comps[i].astype(np.uint8), k).astype(bool) & ~comps[i]
        shared = [(ring & c).sum() if j != i else -1 for j, c in enumerate(comps)]
        j = int(np.argmax(shared))
        if shared[j] <= 0:  # touches no other part (cannot happen in one blob): left as it is
            break
        comps[j] = comps[j] | comps[i]
        del comps[i]
    return [c for c in comps if c.sum() / (ppm * ppm) >= min_mm2]


#: the kind's ending of a template enrolled carrying something (a ship with a chest on its deck: ``ship laden``)
LADEN = " laden"


def _own_colour(mask: np.ndarray, lab: np.ndarray, book: "PieceBook", name: str, ppm: float, near: float = 18.0,
                share: float = 0.2) -> bool:
    """Whether the piece ``name``'s own body colour (its bare template's core colour: a ship's sail, which lies over
    whatever it carries) covers at least ``share`` of its bare footprint within ``mask``: a black-sailed ship with a
    chest aboard that happens to match the white-sailed one's laden look shows almost no white."""
    bare = [t for t in book.templates if t.name == name and not t.kind.endswith(LADEN)]
    if not bare:
        return True
    own = (np.linalg.norm(lab - bare[0].hist[_NH:_NH + 3], axis=2) < near) & mask
    return float(own.sum()) / (ppm * ppm) >= share * bare[0].area_mm2


def _body_centre(b: Blob, lab: np.ndarray, book: "PieceBook", name: str, ppm: float, near: float = 18.0
                 ) -> tuple[float, float]:
    """Where a piece carrying something stands: the centre of its own body colour (the core colour of its
    template enrolled bare: a ship's sail on its mast), not of the blob, which what it carries pulls aside (a
    chest on the stern, overhanging it, moves a ship's blob 2 mm or more: across a line). The blob's centre
    when that colour covers less than 7 % or more than half of the bare piece's footprint (a sail is about 40 %:
    more means what it carries shares its colour), when another piece's body colour lies within 1.5 ``near`` of
    it (not its own alone), or no bare template exists."""
    bare = [t for t in book.templates if t.name == name and not t.kind.endswith(LADEN)]
    if not bare:
        return b.centre_mm(ppm)
    colour = bare[0].hist[_NH:_NH + 3]
    if any(np.linalg.norm(colour - t.hist[_NH:_NH + 3]) < 1.5 * near for t in book.templates if t.name != name):
        return b.centre_mm(ppm)  # its colour is not its own alone (a yellow sail near a chest's gold lid)
    sub = b.crop(lab)
    own = (np.linalg.norm(sub - colour, axis=2) < near) & b.mask
    area = own.sum() / (ppm * ppm)
    # too little of it seen, or more than a sail's worth: what it carries has its colour (a yellow sail and a
    # chest's gold lid): the blob's centre
    if not 0.07 * bare[0].area_mm2 <= area <= 0.5 * bare[0].area_mm2:
        return b.centre_mm(ppm)
    ys, xs = np.nonzero(own)
    return (float(xs.mean()) + b.x0) / ppm, (float(ys.mean()) + b.y0) / ppm


#: the share of what a piece carries that may show beyond the piece's own bare footprint: a chest on a ship's deck
#: rests mostly on the deck (the simulated table: at least 60 % on the hull), one standing beside it shows all of itself
CARRY_SHOW = 0.6


def carry_limit(book: "PieceBook", name: str) -> float:
    """The largest footprint (mm2) the piece ``name`` can have with something aboard: its bare template's area plus
    :data:`CARRY_SHOW` of the smallest other piece (what it may carry is one of them, a box of known size). A ship's
    blob larger than that is the ship and a chest *touching* it (issue 17: a face-up chest against a hull in port,
    read as the ship laden: the whole, 506-548 mm2 against a bare ship's 372 and a chest's 162-172, passed the laden
    template's look and the old bar of 1.15 times the laden template). No limit when ``name`` has no bare template."""
    bare = [t.area_mm2 for t in book.templates if t.name == name and not t.kind.endswith(LADEN)]
    other = [t.area_mm2 for t in book.templates if t.name != name]
    if not bare or not other:
        return float("inf")
    return max(bare) + CARRY_SHOW * min(other)


def trim_to_size(parts: list[np.ndarray], score, book: "PieceBook", lab: np.ndarray, ppm: float,
                 slack: float = 1.15, near: float = 18.0) -> list[np.ndarray]:
    """Parts of a split blob larger than ``slack`` times every template of the piece they look most like give back
    what lies beyond that piece's size: the part's own body colour (its template's core colour, within ``near``)
    grown inside the part until it covers the template's footprint is the piece; the rest is the neighbouring
    piece's (each leftover patch to the part it borders most). Pieces touch but never overlap, and a piece is no
    larger than itself: the flood of the colour split gives a chest's lid seed the end of the ship's hull it touches
    (the hull's brown is no seed), and the chest's part, a box with a hull end, was then no clear chest (issue 17:
    'touching another piece: chest up (0.43-0.50)?' for every face-up chest against a hull's end or side)."""
    if len(parts) < 2:
        return parts
    largest: dict[str, float] = {}
    for t in book.templates:
        largest[t.name] = max(largest.get(t.name, 0.0), t.area_mm2)
    parts = [p.copy() for p in parts]
    k3 = np.ones((3, 3), np.uint8)
    for i in range(len(parts)):
        p = parts[i]
        area = p.sum() / (ppm * ppm)
        t = book.templates[score(p)[0][1]]
        want = largest[t.name]
        if area <= slack * want:
            continue
        colour = t.hist[_NH:_NH + 3]
        own = ((np.linalg.norm(lab - colour, axis=2) < near) & p).astype(np.uint8)
        own_mm2 = own.sum() / (ppm * ppm)
        if not 0.2 * want <= own_mm2 <= 0.8 * want:
            # its own colour hardly shows (not told by it), or nearly fills the piece: the neighbour it touches
            # shares it (a face-down chest's dark wood and a hull's brown), so it cannot tell where one ends
            continue
        m = p.astype(np.uint8)
        grown = own
        for _ in range(int(4 * ppm) + 1):  # at most 4 mm round its own colour (a rim, the shadow)
            if grown.sum() / (ppm * ppm) >= want:
                break
            nxt = cv2.dilate(grown, k3) & m
            if (nxt == grown).all():
                break
            grown = nxt
        rest = p & ~(grown > 0)
        if not rest.any():
            continue
        cn, cl = cv2.connectedComponents(rest.astype(np.uint8), connectivity=8)
        for c in range(1, cn):
            patch = cl == c
            ring = cv2.dilate(patch.astype(np.uint8), k3).astype(bool) & ~patch
            shared = [(ring & q).sum() if j != i else -1 for j, q in enumerate(parts)]
            j = int(np.argmax(shared))
            if shared[j] > 0:
                parts[j] = parts[j] | patch
                parts[i] = parts[i] & ~patch
    return [q for q in parts if q.any()]


def merge_carried(parts: list[np.ndarray], score, book: "PieceBook", ppm: float, max_score: float,
                  min_margin: float, lab: np.ndarray | None = None, size_slack: float = 1.15) -> list[np.ndarray]:
    """Parts of a split blob that are one piece with what it carries (a ship with a chest on its deck: the lid's
    colour parts it from the hull, and the lid may overhang the hull's side or end), put back together. Two
    touching parts are one piece when their union is that piece by its size (no larger than ``size_slack``
    times the largest template of its name, a piece enrolled carrying something included: a chest lying
    *beside* a ship adds a whole chest, about 40 % of a ship) and by its look (the union's best template under
    ``max_score``, beating every other piece by ``min_margin``: the bar of a lone piece), the smaller part's
    centre lies over the larger's footprint (:func:`_inside`: what lies on a piece is inside its footprint, what
    stands beside it is not) and borders it along at least :data:`MIN_CONTACT` of its outline (a chest on a deck
    is hull on two or three sides; one touching a ship's side or end touches it along a short stretch), and the
    larger part alone looks most like the same piece (what lies on a ship does not make it another ship), its
    own body colour showing (:func:`_own_colour`). ``score`` gives a mask's
    sorted (distance, template index) list. The best such pair is merged first, again until none is left."""
    parts = list(parts)
    largest: dict[str, float] = {}
    for t in book.templates:
        largest[t.name] = max(largest.get(t.name, 0.0), t.area_mm2)
    near = np.ones((3, 3), np.uint8)
    while len(parts) > 1:
        best = None
        for i in range(len(parts)):
            grown = cv2.dilate(parts[i].astype(np.uint8), near).astype(bool)
            for j in range(i + 1, len(parts)):
                if not (grown & parts[j]).any():
                    continue
                union = parts[i] | parts[j]
                sc = score(union)
                d, k = sc[0]
                name = book.templates[k].name
                other = [v for v, q in sc[1:] if book.templates[q].name != name]
                if d > max_score or (other and other[0] - d < min_margin):
                    continue
                if _completes(parts[i], parts[j], union, d, other, name, score, book, max_score, min_margin, ppm):
                    pass  # a fragment that is no piece, completing its neighbour (its size is in the union's score)
                else:
                    ua = union.sum() / (ppm * ppm)
                    # no piece is larger than itself with what it carries: a chest beside a hull is no cargo
                    if ua > size_slack * largest[name] or ua > carry_limit(book, name):
                        continue
                    small = parts[i] if parts[i].sum() < parts[j].sum() else parts[j]
                    large = parts[j] if small is parts[i] else parts[i]
                    if book.templates[score(large)[0][1]].name != name:  # what lies on a piece does not change it
                        continue
                    if not _inside(small, union) or _contact(small, union & ~small) < MIN_CONTACT:
                        continue
                    if lab is not None and not _own_colour(union, lab, book, name, ppm):
                        continue
                if best is None or d < best[0]:
                    best = (d, i, j, union)
        if best is None:
            break
        _, i, j, union = best
        parts = [p for k, p in enumerate(parts) if k not in (i, j)] + [union]
    return parts


def _completes(a: np.ndarray, b: np.ndarray, union: np.ndarray, d: float, other: list, name: str, score,
               book: "PieceBook", max_score: float, min_margin: float, ppm: float = 2.0) -> bool:
    """Whether one of two touching parts is no piece on its own and completes the other: the union is clearly the
    other's piece (a part's bar: under half ``max_score``, beating every other piece by twice ``min_margin``), the
    fragment alone is not clearly any piece, and it borders the other along :data:`MIN_CONTACT` of its outline. Every
    piece is seen whole and pieces never overlap, so a fragment that is no piece is a piece's own rim or end cut
    away by the colour split: a ship's brown hull end, within the split's reach of a face-down chest's wood, seeded
    apart from its sail (issue 17, Karibik seed 1 ``default`` frame 25; the merge's other rules are for what a ship
    carries, and ask the larger part to be the piece alone and to show its own colour, which a sail with its hull
    ends cut away may not)."""
    if d > 0.5 * max_score or (other and other[0] - d < 2 * min_margin):
        return False
    for frag, rest in ((a, b), (b, a)):
        sf, sr = score(frag), score(rest)
        f_other = [v for v, q in sf[1:] if book.templates[q].name != book.templates[sf[0][1]].name]
        lone = (sf[0][0] <= 0.5 * max_score and (not f_other or f_other[0] - sf[0][0] >= 2 * min_margin) or
                sized_like(sf, frag.sum() / (ppm * ppm), book, max_score, min_margin)) and \
            boxed_like(frag, book.templates[sf[0][1]], ppm)  # a box's look without a box's outline is no lone box
        if not lone and book.templates[sr[0][1]].name == name and _contact(frag, rest) >= MIN_CONTACT:
            return True
    return False


def sized_like(scores: list[tuple[float, int]], area_mm2: float, book: "PieceBook", max_score: float,
               min_margin: float, size_tol: float = 0.2) -> bool:
    """Whether a part of a split blob is its best piece by its size as well as its look: under ``max_score`` (a lone
    piece's bar), every other piece four times ``min_margin`` further off, and its area within ``size_tol`` of that
    template's. A chest is a small box of known size: a chest cut from a ship's hull it touched, its lid with a sliver of
    the hull's brown, scored 0.43-0.47 against its template (over a part's bar, half ``max_score``) and 1.4 against any
    other piece (issue 17: 'touching another piece: chest up (0.46)?' for every face-up chest against a hull)."""
    best, k = scores[0]
    t = book.templates[k]
    other = [v for v, q in scores[1:] if book.templates[q].name != t.name]
    return best <= max_score and (not other or other[0] - best >= 4 * min_margin) and \
        abs(area_mm2 / max(1.0, t.area_mm2) - 1.0) <= size_tol


def _named_part(scores: list[tuple[float, int]], area_mm2: float, book: "PieceBook", max_score: float,
                min_margin: float, mask: np.ndarray | None = None, ppm: float = 2.0) -> bool:
    """Whether a part of a split blob is clearly one piece: a part's bar (under half ``max_score``, every other piece
    twice ``min_margin`` further off) or its size as well as its look (:func:`sized_like`), and, with its ``mask``,
    the outline of that piece when it is a box (:func:`boxed_like`)."""
    best, k = scores[0]
    if mask is not None and not boxed_like(mask, book.templates[k], ppm):
        return False
    other = [v for v, q in scores[1:] if book.templates[q].name != book.templates[k].name]
    return best <= 0.5 * max_score and (not other or other[0] - best >= 2 * min_margin) or \
        sized_like(scores, area_mm2, book, max_score, min_margin)


#: the share of a carried part's outline that borders the piece carrying it: a chest on a deck is hull on two or
#: three sides (it may overhang the others); a chest standing beside a ship touches it along a short stretch
MIN_CONTACT = 0.18


def _contact(part: np.ndarray, other: np.ndarray) -> float:
    """The share of ``part``'s outline (its pixels with a pixel outside it among their 8 neighbours) that touches
    ``other``."""
    p = part.astype(np.uint8)
    edge = (p > 0) & (cv2.erode(p, np.ones((3, 3), np.uint8)) == 0)
    if not edge.any():
        return 0.0
    touch = edge & (cv2.dilate(other.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0)
    return float(touch.sum()) / float(edge.sum())


def _inside(part: np.ndarray, whole: np.ndarray) -> bool:
    """Whether ``part`` lies on the piece ``whole`` is rather than beside it: its centre within the half-width of
    the rest of ``whole`` (the piece's own footprint, as an ellipse of the same second moments) from that
    footprint's long axis. A chest on a ship's deck lies over the hull (its centre on the deck, the chest may
    overhang); one beside the ship has its centre at least half a chest outside the hull."""
    rest = whole & ~part
    m = cv2.moments(rest.astype(np.uint8), binaryImage=True)
    if m["m00"] < 3:
        return False
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    cov = np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]]) / m["m00"]
    vals, vecs = np.linalg.eigh(cov)
    half_width = 2.0 * float(np.sqrt(max(vals[0], 0.0)))  # an ellipse's semi-axis is twice its deviation
    ys, xs = np.nonzero(part)
    off = np.array([xs.mean() - cx, ys.mean() - cy])
    return abs(float(off @ vecs[:, 0])) <= half_width


def enrol_pieces(canvas: np.ndarray, empty: np.ndarray, ppm: float,
                 spots: Sequence[tuple[str, str, float, float]], threshold: float = 14.0) -> PieceBook:
    """Templates from one canvas of the board with each piece once: ``spots`` holds
    ``(name, kind, x_mm, y_mm)`` (where it was put). Each piece is the blob nearest its spot."""
    diff, lab = difference(canvas, empty)
    found = blobs(diff, ppm, threshold)
    templates = []
    for name, kind, x, y in spots:
        best, best_d = None, 15.0
        for b in found:
            bx, by = b.centre_mm(ppm)
            d = float(np.hypot(bx - x, by - y))
            if d < best_d:
                best, best_d = b, d
        if best is None:
            raise VisionError(T("enrol pieces: no piece found within 15 mm of ({x}, {y}) mm for {name} (is it there, and was the "
                                "empty board enrolled under this camera?)", x=format(x, ".0f"), y=format(y, ".0f"), name=repr(name)))
        templates.append(PieceTemplate(name, kind, best.area_mm2(ppm), _histogram(best.crop(lab), best.mask, ppm),
                                       outline_box(best.mask, ppm)))
    return PieceBook(templates)


@dataclass
class PieceSeen:
    """A piece found: ``name``/``kind`` (``None`` when unsure which), its ``space`` (``None``
    when unsure or off every space), centre in board mm, the colour match's ``score`` (0 best)
    and ``margin`` to the runner-up, and ``unsure`` (why, or empty)."""

    name: str | None
    kind: str | None
    space: int | None
    x_mm: float
    y_mm: float
    score: float
    margin: float
    unsure: str = ""
    candidates: tuple = ()


class SpaceMap:
    """Which space lies under each point of the board: polygons (board mm) rasterised."""

    def __init__(self, polygons: Mapping[int, Sequence[Sequence[float]]], size_mm: tuple[float, float],
                 ppm: float = 2.0):
        self.ppm = ppm
        w, h = int(round(size_mm[0] * ppm)), int(round(size_mm[1] * ppm))
        self.labels = np.full((h, w), -1, np.int32)
        for sid, poly in polygons.items():
            pts = np.round(np.asarray(poly, np.float64) * ppm * 16).astype(np.int32)
            cv2.fillPoly(self.labels, [pts], int(sid), cv2.LINE_8, shift=4)

    def at(self, x_mm: float, y_mm: float) -> int | None:
        x, y = int(round(x_mm * self.ppm)), int(round(y_mm * self.ppm))
        h, w = self.labels.shape
        if not (0 <= x < w and 0 <= y < h):
            return None
        v = int(self.labels[y, x])
        return None if v < 0 else v

    def around(self, x_mm: float, y_mm: float, r_mm: float) -> set[int | None]:
        """The spaces (``None``: off every space) under the point and 12 points round it ``r_mm`` away, sampled at
        once."""
        x = np.round((x_mm + r_mm * _RING[:, 0]) * self.ppm).astype(np.int64)
        y = np.round((y_mm + r_mm * _RING[:, 1]) * self.ppm).astype(np.int64)
        h, w = self.labels.shape
        inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
        v = self.labels[y[inside], x[inside]]
        out: set[int | None] = {int(s) for s in np.unique(v[v >= 0])}
        if not inside.all() or (v < 0).any():
            out.add(None)
        return out


_A = np.linspace(0, 2 * np.pi, 12, endpoint=False)
#: the point itself and 12 round it on the unit circle (SpaceMap.around)
_RING = np.vstack([[0.0, 0.0], np.column_stack([np.cos(_A), np.sin(_A)])])


@dataclass
class BodyColours:
    """The enrolled pieces' body colours (their cores' median Lab, ``lab``) and which are one colour
    (``group``: a player's boat and sailboat, one piece enrolled under two lights)."""

    lab: np.ndarray
    group: np.ndarray
    #: each template's enrolled outline (:func:`outline_box`), ``None`` where it was not kept
    outlines: Sequence[tuple[float, float, float] | None] | None = None
    #: each template's piece (name and kind: a boat empty or with a pearl is one outline, a ship laden another)
    pieces: Sequence[tuple[str, str]] | None = None

    def labels(self, lab: np.ndarray, near: float = 18.0) -> tuple[np.ndarray, np.ndarray]:
        """Each pixel's nearest body colour's group, and whether it lies within ``near`` of it."""
        d = np.linalg.norm(lab[:, :, None, :] - self.lab[None, None, :, :], axis=3)
        return self.group[np.argmin(d, axis=2)], d.min(axis=2) < near

    def outlines_of(self, part: np.ndarray, lab: np.ndarray, near: float = 18.0) -> list[tuple[float, float, float]]:
        """The enrolled outlines of the pieces of the colour most of ``part`` has (one per size and shape: the
        median of each piece's templates'), for :func:`split_by_outlines`; none when no pixel has a body colour."""
        if self.outlines is None:
            return []
        label, ok = self.labels(lab[part][None], near)  # the part's pixels only
        mine = label[ok]
        if not len(mine):
            return []
        group = np.bincount(mine).argmax()
        out: dict = {}
        for o, g, piece in zip(self.outlines, self.group, self.pieces or range(len(self.group))):
            if o is not None and g == group:
                out.setdefault(piece, []).append(o)
        return [tuple(float(v) for v in np.median(np.float32(os), axis=0)) for os in out.values()]


def body_colours(book: PieceBook, same: float = 20.0) -> BodyColours:
    """The enrolled pieces' body colours, those closer than ``same`` (Lab) in one group, chained, and their outlines."""
    lab = np.float32([t.hist[_NH:_NH + 3] for t in book.templates])
    group = np.arange(len(lab))
    close = np.linalg.norm(lab[:, None] - lab[None], axis=2) < same
    for _ in range(len(lab)):  # chained: the smallest index of every colour reachable
        new = np.array([group[close[i]].min() for i in range(len(lab))])
        if (new == group).all():
            break
        group = new
    return BodyColours(lab, group, [t.box for t in book.templates], [(t.name, t.kind) for t in book.templates])


def find_pieces(canvas: np.ndarray, empty: np.ndarray, ppm: float, book: PieceBook, spaces: SpaceMap,
                threshold: float = 14.0, min_margin: float = 0.08, max_score: float = 0.8,
                line_mm: float = 2.0, gain: np.ndarray | None = None,
                region: tuple[int, int, int, int] | None = None) -> list[PieceSeen]:
    """Every piece standing on the board (module docstring); with ``region`` (x0, y0, x1, y1 px) and
    ``gain`` (:func:`light_gain` of an earlier whole canvas), every piece in that part of the board
    (``canvas`` is that part only)."""
    want = empty.shape if region is None else (region[3] - region[1], region[2] - region[0], *empty.shape[2:])
    if canvas.shape != want:
        raise VisionError(T("pieces: canvas {w}x{h} does not match the empty board {want_w}x{want_h}",
                            w=canvas.shape[1], h=canvas.shape[0], want_w=want[1], want_h=want[0]))
    diff, lab = difference(canvas, empty, gain=gain, region=region)
    ox, oy = (region[0] / ppm, region[1] / ppm) if region is not None else (0.0, 0.0)
    largest = max(t.area_mm2 for t in book.templates)
    smallest = min(t.area_mm2 for t in book.templates)
    out = []

    H, W = empty.shape[:2]
    rx, ry = (region[0], region[1]) if region is not None else (0, 0)
    edge = BORDER_PX + 1

    def cut_off(b: Blob) -> bool:
        ys, xs = np.nonzero(b.mask)
        # the part of the board whose difference is not read (its outer BORDER_PX): a blob reaching it runs off the edge
        return bool(len(xs)) and (xs.min() + b.x0 + rx <= edge or ys.min() + b.y0 + ry <= edge
                                  or xs.max() + b.x0 + rx >= W - 1 - edge or ys.max() + b.y0 + ry >= H - 1 - edge)

    def scored(b: Blob) -> list[tuple[float, int]]:
        return _scores(soften(_histogram(b.crop(lab), b.mask, ppm)), b.area_mm2(ppm), book, cut_off(b))

    found = []
    colours = body_colours(book)
    for b in blobs(diff, ppm, threshold, min_mm2=0.4 * smallest):
        scores = scored(b)
        area = b.area_mm2(ppm)
        t0 = book.templates[scores[0][1]]
        other = [sc[0] for sc in scores[1:] if book.templates[sc[1]].name != t0.name]
        clear = scores[0][0] <= 0.5 * max_score and (not other or other[0] - scores[0][0] >= 2 * min_margin)
        laden_large = False
        if area > 1.3 * largest:
            # larger than any piece: touching pieces (one that looks clearly like a piece, enlarged, is most often
            # a sailboat or the disc with a small boat against it: kept whole, such a boat was lost)
            parts = split_touching(b.mask, b.crop(lab), ppm, 0.4 * smallest, 1.3 * largest, colours)
        elif area > 1.6 * smallest and not clear and solidity(b.mask) < 0.92 and (
                scores[0][0] > 0.5 * max_score or len(scores) > 1 and scores[1][0] - scores[0][0] < min_margin):
            # no clear match, room for two small pieces (small boats touching while a large piece is enrolled
            # too), and a waist where they touch (a piece is convex: a sailboat seen poorly is not two boats):
            # the parts, when the blob splits
            parts = split_touching(b.mask, b.crop(lab), ppm, 0.4 * smallest, 1.3 * largest, colours)
        elif area > 1.6 * smallest and not clear and solidity(b.mask) < 0.92 and not outlined_like(b.mask, t0, ppm):
            # as above, the look not clear and the piece it looks like not fitting it: pieces of one colour whose
            # outlines explain it (two boats of one colour end to end look like their sailboat, but it is wider than
            # they are: issue 17, Tahiti seed 2 ``default`` frame 26), else the blob whole
            parts = split_by_outlines(b.mask, colours.outlines_of(b.mask, b.crop(lab)), ppm, 0.4 * smallest) \
                or [b.mask]
        elif laden_large := area > carry_limit(book, t0.name):
            # larger than the piece it looks like with what it may carry (bare or laden): the piece and another touching
            # it (a chest beside a ship's hull; a face-down chest against Bravo's dark hull read as Bravo whole, its
            # chest lost: the whole Karibik game), when the parts say so (below)
            parts = split_touching(b.mask, b.crop(lab), ppm, 0.4 * smallest, 1.3 * largest, colours)
        else:
            parts = [b.mask]
        parts = split_boxes(parts, lambda m: scores if m is b.mask else scored(Blob(b.x0, b.y0, m)), book, ppm)
        if len(parts) > 1:
            parts = trim_to_size(parts, lambda m: scored(Blob(b.x0, b.y0, m)), book, b.crop(lab), ppm)
        if len(parts) > 1:
            parts = merge_carried(parts, lambda m: scored(Blob(b.x0, b.y0, m)), book, ppm, max_score, min_margin,
                                  b.crop(lab))
        if laden_large and len(parts) > 1 and not all(
                _named_part(scored(Blob(b.x0, b.y0, m)), m.sum() / (ppm * ppm), book, max_score, min_margin, m, ppm)
                for m in parts):
            # the parts are not each a piece (a laden ship blurred larger at ``hard``, its hull end seeded apart, issue
            # 17 seed 1 ``hard`` frame 28): the piece laden, as it looked whole
            parts = [b.mask]
        if len(parts) > 1:
            part_scores = [scored(Blob(b.x0, b.y0, m)) for m in parts]
            found.extend((Blob(b.x0, b.y0, m, True, apart), sc) for m, sc, apart in
                         zip(parts, part_scores, colour_parted(parts, [sc[0][1] for sc in part_scores], colours)))
        else:  # one piece (the parts, if any, were one piece with what it carries): the whole blob
            found.append((b, scores))
    for b, scores in found:
        best, idx = scores[0]
        t = book.templates[idx]
        x, y = b.centre_mm(ppm) if not t.kind.endswith(LADEN) else _body_centre(b, lab, book, t.name, ppm)
        x, y = x + ox, y + oy
        # the runner-up is the best template of another piece (a piece may have several: a boat empty or laden)
        scores = [scores[0]] + [sc for sc in scores[1:] if book.templates[sc[1]].name != t.name]
        # a part named by its size must be far from every other look, whether or not that piece's colour shows
        sized = b.split and sized_like(scores, b.area_mm2(ppm), book, max_score, min_margin)
        # a part of touching pieces that looks like a box (a chest) but has no box's outline of its size is no such
        # piece (a yellow sail's half cut from Diabolo: issue 17 seed 2 ``hard`` frame 11): not named
        unboxed = b.split and not boxed_like(b.mask, t, ppm)
        margin = (scores[1][0] - best) if len(scores) > 1 else 1.0
        if margin < (2 * min_margin if b.split else min_margin) and len(scores) > 1:
            # a runner-up whose own body colour does not show on the blob is not this piece, however close its
            # histogram (issue 17, Karibik seed 3 ``hard`` frames 0 and 14: a lone Arriba in the board's dim far
            # corner, its white sail greyed, 0.05 from Bravo laden, the black-sailed ship with a gold lid aboard,
            # and no black sail in sight); checked only where the margin is short (a few blobs a frame)
            crop = b.crop(lab)
            # its core (3 mm in, as the match's): the sail, not the hull's dark rim and shadow, which at ``hard``
            # lie within reach of a black sail's colour
            k = max(3, int(round(6 * ppm)) | 1)
            core = cv2.erode(b.mask.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))) > 0
            names = {}
            for sc in scores[1:]:
                nm = book.templates[sc[1]].name
                if nm not in names:
                    names[nm] = _own_colour(core if core.any() else b.mask, crop, book, nm, ppm)
            shown = [sc for sc in scores[1:] if names[book.templates[sc[1]].name]]
            scores = [scores[0]] + shown
            margin = (scores[1][0] - best) if len(scores) > 1 else 1.0
            if not b.split and margin < min_margin and len(scores) > 1 and relit_margin(
                    b.crop(lab.lab8), b.mask, b.area_mm2(ppm), book, ppm, cut_off(b), t.name,
                    {book.templates[sc[1]].name for sc in scores[1:]}) >= min_margin:
                margin = min_margin  # told apart once the light's unknown share is left out (relit_margin)
        vague = b.split and (best > 0.5 * max_score or margin < 2 * min_margin) and not sized and not unboxed
        if vague and b.apart and best <= max_score:
            # a part parted by colour from all it touches is held to the part's bar under a light of its own as well
            # (issue 17, Tahiti seed 4 ``hard`` frame 2: a yellow and a violet sailboat touching on a track space in
            # the board's dim corner, 0.85 of the light they were enrolled in, "yellow sailboat (0.48)?" 0.04 from the
            # yellow boat; brightened 1.18, 0.14 against the boat's 0.42): the light's unknown share counts no more
            # against such a part than against a lone piece. Not a part beside one of its own colour: that cut is no
            # colour's edge and may run through one piece (a sailboat's two ends, parted by its light sail, are each
            # a boat's size and look)
            relit_best, relit_by = relit(b.crop(lab.lab8), b.mask, b.area_mm2(ppm), book, ppm, cut_off(b), t.name,
                                         {book.templates[sc[1]].name for sc in scores[1:]})
            if relit_best <= 0.5 * max_score and relit_by >= 2 * min_margin:
                vague, margin = False, max(margin, relit_by)
        name, kind, why, cands = t.name, t.kind, [], ()
        if best > max_score:
            name, kind = None, None
            why.append(T("looks like no enrolled piece (best {piece}, {score})", piece=t.name, score=format(best, ".2f")))
        elif vague or unboxed:
            # a part of touching pieces, not clearly one
            name, kind = None, None
            cands = (t.name,) + ((book.templates[scores[1][1]].name,) if len(scores) > 1 else ())
            why.append(T("touching another piece: {piece} ({score})?", piece=t.name, score=format(best, ".2f")))
        elif margin < min_margin:
            other = book.templates[scores[1][1]]
            name, kind = None, None
            cands = (t.name, other.name)
            why.append(T("{piece} ({score}) or {other} ({other_score})?", piece=t.name, score=format(best, ".2f"), other=other.name, other_score=format(scores[1][0], ".2f")))
        near = spaces.around(x, y, line_mm)
        space = spaces.at(x, y)
        if len(near) > 1:
            why.append(T("on a line between spaces {spaces}", spaces=", ".join(str(s) for s in sorted(s for s in near if s is not None))))
            cands = cands + tuple(sorted(s for s in near if s is not None))
            space = None
        out.append(PieceSeen(name, kind, space, round(x, 1), round(y, 1), round(float(best), 3),
                             round(float(margin), 3), chain(why, N_("{first}; {next}")), cands))
    return out


#: the light a piece may stand in against where its template was enrolled, both read in the empty board photo's light
#: (:func:`light_gain` brings a frame to that photo's light, not to an even one): the photo's own lamp falloff and
#: vignette differ across the board by this factor either way (issue 17, Karibik seed 3 ``hard``: 0.84 between the dim
#: far corner and the enrolment spot), and one photo cannot tell that light from the print's own shades (an even light
#: estimated from the board's plainest print took the provisional sea's tints for light, 0.97-1.05 on an evenly lit
#: board, and lost the whole game's reading: h-boards8)
RELIGHT = np.exp(np.linspace(np.log(0.8), np.log(1.25), 9)).astype(np.float32)


def relit(crop_lab8: np.ndarray, mask: np.ndarray, area_mm2: float, book: PieceBook, ppm: float, cut: bool,
          name: str, others: set[str]) -> tuple[float, float]:
    """How well the piece ``name`` matches a blob, and how much better than the best of ``others``, when each may see
    the blob under its own light within :data:`RELIGHT` (the blob's colours scaled, as light scales a camera's values,
    and each template's best score kept): a white sail greyed by the dim corner matches its own white sail brightened,
    where the black-sailed ship it came close to matches no brightening of it. ``(score, margin)``, the margin
    negative when ``name`` is not the better. ``crop_lab8``: the blob's crop of the light-matched canvas in OpenCV's
    8-bit Lab."""
    bgr = cv2.cvtColor(crop_lab8, cv2.COLOR_Lab2BGR).astype(np.float32)
    best = np.full(len(book.templates), np.inf)
    for g in RELIGHT:
        for d, i in _scores(soften(_histogram(_lab(bgr * g), mask, ppm)), area_mm2, book, cut):
            best[i] = min(best[i], d)
    mine = min(best[i] for i, t in enumerate(book.templates) if t.name == name)
    rest = [best[i] for i, t in enumerate(book.templates) if t.name in others and t.name != name]
    return float(mine), float(min(rest) - mine) if rest else 1.0


def relit_margin(crop_lab8: np.ndarray, mask: np.ndarray, area_mm2: float, book: PieceBook, ppm: float, cut: bool,
                 name: str, others: set[str]) -> float:
    """:func:`relit`'s margin: how much better ``name`` matches a lone blob than the best of ``others`` under a light
    of its own."""
    return relit(crop_lab8, mask, area_mm2, book, ppm, cut, name, others)[1]


def once_each(pieces: list[PieceSeen], names, min_margin: float = 0.08) -> list[PieceSeen]:
    """The pieces read, each of ``names`` (pieces there is only one of: Karibik's six ships) named at most once: where
    two or more blobs are named the same such piece, only the one that looks most like it keeps the name, and only
    when it beats the next by ``min_margin``; the others (all of them when none is clearly the better) are
    ``unsure``, with that piece as their candidate. A piece is on the board once: a second blob with its name is
    another piece, or a part of one, that looks like it (issue 17)."""
    names = set(names)
    out = list(pieces)
    for name in names:
        hits = sorted((i for i, p in enumerate(out) if p.name == name), key=lambda i: out[i].score)
        if len(hits) < 2:
            continue
        keep = out[hits[0]].score + min_margin <= out[hits[1]].score
        for j, i in enumerate(hits):
            if j == 0 and keep:
                continue
            p = out[i]
            why = T("{piece} is seen more than once ({score}; it is one piece)", piece=name, score=format(p.score, ".2f"))
            out[i] = PieceSeen(None, None, p.space, p.x_mm, p.y_mm, p.score, p.margin,
                               chain([p.unsure, why] if p.unsure else [why], N_("{first}; {next}")),
                               (name,) + tuple(c for c in p.candidates if c != name))
    return out
