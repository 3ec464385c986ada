"""Treasure chests on a printed board: face up or down, a face-up chest's printed value, chests aboard ships.

The pieces (``vision.boardpieces``) already say where a chest stands and which face is up (the
enrolled templates ``chest up`` and ``chest down``), and where each ship stands. This module reads,
for each of them, what the piece itself does not tell:

- **a face-up chest's value.** The value is printed dark on the light lid. Around the piece, a
  window of the frame is cut straight at :data:`READ_PPM` px/mm (through the registration, so
  it is sharper than the 2 px/mm canvas), brought to the empty board's light (a gain per
  channel from the window's median against the empty board's), and the *lid* is every pixel
  near the enrolled lid colour (Lab, L weighted a half) that differs from the empty board. The
  print is the dark marks inside the lid's outline (its convex hull), each no longer than a
  print (a flag's stripe across a sail is longer), grown into the dark marks touching them just
  outside the outline. Its ink (how much darker than the lid) is cut as a patch turned along the
  lid's long axis and compared (normalised correlation, searched :data:`SHIFT_MM` round) with
  each enrolled value's patch either way round and turned by :data:`JITTER_DEG`; the best value
  must score ``min_score`` and beat the best *other* value by ``min_margin``, else the chest is
  ``unsure`` with both values.
- **a chest aboard a ship.** A ship carries its chest on its deck, partly covered: a print inside
  the ship's window (within ``aboard_mm`` of its centre, nearer it than any chest lying on its
  own) is the ship's chest, its patch turned along the ship's hull; none is an empty hold.

  A sail of nearly the lids' colour (Diabolo's yellow) is told apart by its own colour (:func:`_sail_apart`), and an
  empty deck under it by its shape (:func:`_sail_asymmetry`: the same either side of the mast).

:func:`chests_seen` gathers a frame's chests (:class:`ChestsSeen`) for the tracker; with a :class:`ChestWatch`
only the chests and holds whose windows changed since the last frame are read again (an incremental update).

Enrolment (:func:`enrol_values`): one photo with a face-up chest of each value on a known spot
(as the pieces are enrolled): the lid colour (the median of the chest's light part) and each
value's print patch. Nothing here knows a game's rules or its chest values: the values are the
names given at enrolment.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import cv2
import numpy as np

from tablehub.i18n import T, reason  # what a phone reads (tablehub/locale/*/vision.po)

from . import VisionError
from .boardpieces import read_book
from .boardwatch import SHRINK, _shrink

VALUES_FORMAT = "tablehub-chest-values/1"
#: px/mm of the windows the prints are read in
READ_PPM = 5.0
#: the print patch's side (mm) and the turns tried (degrees)
PATCH_MM = 7.0
JITTER_DEG = (-8, -4, 0, 4, 8)
#: how far (mm) the print's patch is searched round the print's centre of ink
SHIFT_MM = 1.0
#: the lid's colour tolerance (Lab, L weighted a half), and the match's bars
TOLERANCE = 22.0
MIN_MARGIN = 0.06
MIN_SCORE = 0.65
#: how much darker than the lid (grey levels, 0-255) a print's strokes must be at their darkest to be read: a
#: stroke 0.8 mm wide keeps erf(w / (2 sqrt(2) sigma)) of its ink under a blur of sigma mm; below this the
#: print's marks come apart into fragments (the `hard` camera: 45-72, against 107-120 at `clean` and `default`)
MIN_INK = 80.0
#: the half-side (mm) of the window cut round a chest on its own, and round a ship (its deck: within 17 mm of its centre)
CHEST_WINDOW_MM = 11.0
SHIP_WINDOW_MM = 18.0


def _lab(img: np.ndarray) -> np.ndarray:
    """Lab (L 0-100) of a BGR picture (8-bit, or float 0-255). OpenCV's float conversion: faster than its 8-bit one."""
    f = img.astype(np.float32) if img.dtype == np.uint8 else np.clip(img, 0, 255).astype(np.float32)
    return cv2.cvtColor(f * np.float32(1 / 255), cv2.COLOR_BGR2Lab)


def window(frame: np.ndarray, to_image, centre_mm: tuple[float, float], half_mm: float,
           ppm: float = READ_PPM) -> np.ndarray:
    """A square of the board (``half_mm`` each side of ``centre_mm``) cut straight from ``frame`` at ``ppm``;
    ``to_image`` maps board mm to frame pixels (``Registration.to_image``). Locally a homography: the lens's
    bending over 40 mm is far below a pixel."""
    x, y = centre_mm
    src = np.float32([[x - half_mm, y - half_mm], [x + half_mm, y - half_mm], [x + half_mm, y + half_mm],
                      [x - half_mm, y + half_mm]])
    n = int(round(2 * half_mm * ppm))
    dst = np.float32([[0, 0], [n, 0], [n, n], [0, n]])
    H = cv2.getPerspectiveTransform(np.float32(to_image(src)), dst)
    return cv2.warpPerspective(frame, H, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _empty_window(empty: np.ndarray, empty_ppm: float, centre_mm: tuple[float, float], half_mm: float,
                  ppm: float = READ_PPM) -> np.ndarray:
    x, y = centre_mm
    s = ppm / empty_ppm
    A = np.float32([[s, 0, -(x - half_mm) * ppm], [0, s, -(y - half_mm) * ppm]])
    n = int(round(2 * half_mm * ppm))
    return cv2.warpAffine(empty, A, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _light_gain(win: np.ndarray, empty_win: np.ndarray) -> np.ndarray:
    """The gain per channel that brings ``win`` to the empty board's light: the median over the window's pixels of
    each pixel's own ratio (the empty board's level over the frame's, pixel by pixel). The window is mostly board, so
    the pieces on it (up to a third of a deck's window) are outliers of that ratio and leave its median alone; the
    ratio of the two windows' medians did not: over a sea of several blues a red sail and a gold lid pulled the red
    median up the sea's spread, and the lid came out 20-35 (Lab) greener than enrolled (no lid seen on the deck, a
    laden deck read empty: bench seed 1 `clean` frames 1, 2, 10, 13; h-chests4)."""
    a = win[::3, ::3].reshape(-1, 3).astype(np.float32) + 1  # every third pixel: enough
    b = empty_win[::3, ::3].reshape(-1, 3).astype(np.float32) + 1
    return np.median(b / a, axis=0)


def _matched(win: np.ndarray, empty_win: np.ndarray) -> np.ndarray:
    """``win`` brought to the empty board's light: one gain per channel (:func:`_light_gain`), 8-bit."""
    g = _light_gain(win, empty_win)
    return cv2.multiply(win, (float(g[0]), float(g[1]), float(g[2]), 0.0))  # saturated at 255


def _lid_mask(lab: np.ndarray, changed: np.ndarray, lid: np.ndarray, tol: float) -> np.ndarray:
    d = lab - lid
    near = ((0.25 * d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2) < tol * tol) & (d[..., 0] > -22)
    m = (near & changed).astype(np.uint8)
    return cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _axis_deg(mask: np.ndarray) -> float:
    """The long axis of a mask (degrees from x towards y, image coordinates), from its second moments."""
    m = cv2.moments(mask.astype(np.uint8), binaryImage=True)
    return float(np.degrees(0.5 * np.arctan2(2 * m["mu11"], m["mu20"] - m["mu02"])))


@dataclass
class _Print:
    x: float  # px in the window
    y: float
    lid_mm2: float
    print_mm2: float
    axis_deg: float  # the lid's long axis
    ink: np.ndarray = field(repr=False, default=None)  # how much darker than the lid, inside the lid's outline


def _prints(lid_mask: np.ndarray, grey: np.ndarray, changed: np.ndarray, ppm: float, min_lid_mm2: float,
            max_extent_mm: float = 9.0, sail: np.ndarray | None = None) -> list[_Print]:
    """The prints on lids: the dark marks inside each lid's outline (its convex hull), each no longer than
    ``max_extent_mm`` (a flag's stripe across a sail is longer). ``sail`` (a ship's sail found round its mast:
    :func:`_sail_round_mast`) is no print's: no mark is cut there, so a print touching a dark sail keeps its
    strokes beside it (what lies under the sail is out of view: the readers' ``hidden``)."""
    out = []
    free = np.ones(grey.shape, bool) if sail is None else sail == 0
    # one lid, even where a bold print runs across it from edge to edge: the parts of the mask that a
    # closing 3 mm wide joins are one lid
    k = int(3 * ppm) | 1
    joined = cv2.morphologyEx(lid_mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, labels = cv2.connectedComponents(joined, connectivity=8)
    for i in range(1, n):
        comp = ((labels == i) & (lid_mask > 0)).astype(np.uint8)
        area = float(comp.sum()) / (ppm * ppm)
        if area < min_lid_mm2:
            continue
        pts = cv2.findNonZero(comp)
        hull = np.zeros_like(comp)
        cv2.fillConvexPoly(hull, cv2.convexHull(pts), 1)
        inner = cv2.erode(hull, np.ones((3, 3), np.uint8)).astype(bool) & (comp == 0)
        if not inner.any():
            continue
        lid_grey = float(np.median(grey[comp > 0]))
        dark = (inner & (grey < lid_grey - 25) & free).astype(np.uint8)
        k, dl, ds, dc = cv2.connectedComponentsWithStats(dark, connectivity=8)
        keep = [j for j in range(1, k) if ds[j, cv2.CC_STAT_AREA] >= 0.3 * ppm * ppm
                and max(ds[j, cv2.CC_STAT_WIDTH], ds[j, cv2.CC_STAT_HEIGHT]) <= max_extent_mm * ppm]
        if not keep:
            continue
        a = np.float64([ds[j, cv2.CC_STAT_AREA] for j in keep])
        if a.sum() < 0.8 * ppm * ppm:  # under ~1 mm2 of print: no print
            continue
        x, y = (dc[keep] * a[:, None]).sum(axis=0) / a.sum()
        # the whole print: the dark marks touching these that differ from the empty board, within the lid's
        # outline grown by 1.2 mm (where little lid is seen between a print and a sail, the outline cuts the
        # print), then the ink: how much darker than the lid, on the marks grown by half a millimetre (soft
        # edges; not the chest's rim, nor a sail's pattern beside a carried chest)
        seeds = np.isin(dl, keep)
        wide = cv2.dilate(hull, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(2.4 * ppm) | 1,) * 2))
        near = ((grey < lid_grey - 25) & (wide > 0) & changed & free).astype(np.uint8)
        m2, ml = cv2.connectedComponents(near, connectivity=8)
        marks = (np.isin(ml, np.unique(ml[seeds & (near > 0)])) & (ml > 0)) | seeds
        ys, xs = np.nonzero(marks)
        if max(np.ptp(xs), np.ptp(ys)) <= max_extent_mm * ppm:
            x, y = float(xs.mean()), float(ys.mean())
        else:  # ran into something dark beside the chest: the marks inside the lid's outline only
            marks = seeds
        marks = marks.astype(np.uint8)
        grown = cv2.dilate(marks, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(ppm) | 1,) * 2))
        ink = np.clip(lid_grey - grey.astype(np.float32), 0, 120) * (grown * free)
        out.append(_Print(float(x), float(y), area, float(a.sum()) / (ppm * ppm), _axis_deg(comp), ink))
    out.sort(key=lambda t: -t.lid_mm2)
    return out


def _ink_axis(ink: np.ndarray) -> float:
    """The long axis of a print's ink (degrees, as :func:`_axis_deg`): a printed digit is taller than wide, so its
    ink's second moments turn with it, whichever way the chest lies."""
    m = cv2.moments(ink.astype(np.float32))
    return float(np.degrees(0.5 * np.arctan2(2 * m["mu11"], m["mu20"] - m["mu02"])))


def _extent(patch: np.ndarray, ppm: float = READ_PPM) -> tuple[float, float]:
    """How far a patch's ink reaches along its x and y (mm): where the ink is over a third of its strongest."""
    on = patch > 0.35 * float(patch.max()) if patch.max() > 0 else np.zeros(patch.shape, bool)
    if not on.any():
        return 0.0, 0.0
    ys, xs = np.nonzero(on)
    return (float(np.ptp(xs)) + 1) / ppm, (float(np.ptp(ys)) + 1) / ppm


def _canonical(ink: np.ndarray, x: float, y: float, axis_deg: float, ppm: float, pad_mm: float = 0.0
               ) -> np.ndarray:
    """The square patch (PATCH_MM, plus ``pad_mm`` each side) round (x, y), turned so that ``axis_deg`` lies
    along x."""
    n = int(round((PATCH_MM + 2 * pad_mm) * ppm)) | 1
    M = cv2.getRotationMatrix2D((x, y), axis_deg, 1.0)
    M[:, 2] += (n / 2 - 0.5 - x, n / 2 - 0.5 - y)
    return cv2.warpAffine(ink.astype(np.float32), M, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)


def _turns(p: np.ndarray) -> list[np.ndarray]:
    """The canonical patch either way round (the lid's axis does not say which end is up), each turned a few
    degrees either side (the axis is found to a few degrees)."""
    n = p.shape[0]
    out = []
    for flip in (0, 180):
        for a in JITTER_DEG:
            M = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), flip + a, 1.0)
            out.append(cv2.warpAffine(p.astype(np.float32), M, (n, n), flags=cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_CONSTANT))
    return out


@dataclass
class ValueBook:
    """The enrolled chest values: the lid's Lab colour, each value's print patch (grey, READ_PPM)."""

    lid_lab: np.ndarray
    patches: dict[int, np.ndarray]
    lid_mm2: float
    #: the lid's box (its least rectangle's long and short sides, mm) and each value's print in the lid's own frame
    #: (:func:`_in_lid_frame`: centred on the box, its long side along x), for a print partly under a sail
    #: (:func:`_read_in_box`); ``None`` and empty in a book enrolled before them (such prints stay unsure)
    lid_box: tuple[float, float] | None = None
    lid_prints: dict[int, np.ndarray] = field(default_factory=dict)
    #: enrolled from prints too blurred for their marks to be cut (:data:`MIN_INK`): ``lid_prints`` then hold each
    #: print's grey level itself (:func:`_lid_ink`), and a face-up chest is read by correlating its lid's grey level
    #: in its box (:func:`_read_faint`); a chest aboard is unsure
    faint: bool = False
    _turned: dict = field(default_factory=dict, repr=False, compare=False)

    def shapes(self) -> dict[int, tuple[float, tuple[float, float]]]:
        """Each enrolled print's ink axis (degrees, in its patch) and its extent (mm along x and y of its patch)."""
        if "s" not in self._turned:
            self._turned["s"] = {v: (_ink_axis(p), _extent(p)) for v, p in self.patches.items()}
        return self._turned["s"]

    def turned(self) -> tuple[list[int], np.ndarray]:
        if "v" not in self._turned:
            vals = sorted(self.patches)
            self._turned["v"] = (vals, [_turns(self.patches[v]) for v in vals])
        return self._turned["v"]

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"format": VALUES_FORMAT, "read_ppm": READ_PPM, "lid_lab": [round(float(v), 2) for v in self.lid_lab],
                "lid_mm2": round(self.lid_mm2, 1),
                "values": {str(v): p.astype(int).tolist() for v, p in sorted(self.patches.items())}}
        if self.lid_box is not None and self.lid_prints:
            data["lid_box"] = [round(float(v), 2) for v in self.lid_box]
            data["lid_prints"] = {str(v): p.astype(int).tolist() for v, p in sorted(self.lid_prints.items())}
        if self.faint:
            data["faint"] = True
        path.write_text(json.dumps(data) + "\n")
        return path

    @classmethod
    def load(cls, path: str | Path) -> "ValueBook":
        path = Path(path)
        data = read_book(path, "chest value book", VALUES_FORMAT, "read_ppm", READ_PPM)
        try:
            lid = np.float32(data["lid_lab"])
            if lid.shape != (3,):
                raise ValueError(T("lid_lab must be 3 numbers"))
            patches, faint = {}, bool(data.get("faint", False))
            for k, p in (data.get("values") or {}).items():
                arr = np.float32(p)
                if arr.ndim != 2 or (arr.shape[0] != arr.shape[1] and not faint):  # a faint book's: in the lid's box
                    raise ValueError(T("values[{key}] must be a square patch", key=k))
                patches[int(k)] = arr
            area = float(data["lid_mm2"])
            box, in_box = None, {}
            if data.get("lid_box") is not None:
                box = tuple(float(v) for v in data["lid_box"])
                if len(box) != 2 or min(box) <= 0:
                    raise ValueError(T("lid_box must be 2 lengths in mm"))
                for k, p in (data.get("lid_prints") or {}).items():
                    arr = np.float32(p)
                    if arr.ndim != 2:
                        raise ValueError(T("lid_prints[{key}] must be a patch", key=k))
                    in_box[int(k)] = arr
        except (KeyError, TypeError, ValueError) as e:
            raise VisionError(T("{path}: not a chest value book ({why})", path=str(path), why=reason(e))) from None
        if len(patches) < 2:
            raise VisionError(T("{path}: 'values' must hold at least 2 enrolled values", path=str(path)))
        return cls(lid, patches, area, box if in_box else None, in_box, faint and bool(in_box))


@dataclass
class _Window:
    """A window brought to the empty board's light: Lab of both, grey, and what differs from the empty board."""

    lab: np.ndarray
    empty_lab: np.ndarray
    grey: np.ndarray
    changed: np.ndarray

    @classmethod
    def of(cls, win: np.ndarray, empty_win: np.ndarray) -> "_Window":
        m = _matched(win, empty_win)
        lab, elab = _lab(m), _lab(empty_win)
        d = lab - elab
        changed = (d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2) > 144  # Lab distance over 12
        return cls(lab, elab, cv2.cvtColor(m, cv2.COLOR_BGR2GRAY), changed)


def _read_window(w: _Window, book: ValueBook, tol: float, axis_deg: float | None = None
                 ) -> list[tuple[_Print, np.ndarray]]:
    """The prints in a window, each with its canonical patch (turned along the lid's axis, or ``axis_deg``
    when given: a ship's, whose deck partly covers the lid)."""
    lid = _lid_mask(w.lab, w.changed, book.lid_lab, tol)
    return [(p, _canonical(p.ink, p.x, p.y, p.axis_deg if axis_deg is None else axis_deg, READ_PPM, SHIFT_MM))
            for p in _prints(lid, w.grey, w.changed, READ_PPM, 0.25 * book.lid_mm2)]


def enrol_values(frame: np.ndarray, to_image, empty: np.ndarray, empty_ppm: float,
                 spots: Sequence[tuple[int, float, float]], tol: float = TOLERANCE) -> ValueBook:
    """A value book from one photo with a face-up chest of each value on a known spot: ``spots`` holds
    ``(value, x_mm, y_mm)``; ``to_image`` maps board mm to the photo's pixels."""
    if len(spots) < 2:
        raise VisionError(T("enrol chest values: give at least 2 face-up chests of different values"))
    if len({v for v, _, _ in spots}) != len(spots):
        raise VisionError(T("enrol chest values: a value is given twice"))
    lids = []
    for value, x, y in spots:  # the lid colour: the light part of what differs from the empty board
        win = window(frame, to_image, (x, y), CHEST_WINDOW_MM)
        ewin = _empty_window(empty, empty_ppm, (x, y), CHEST_WINDOW_MM)
        m = _matched(win, ewin)
        lab, elab = _lab(m), _lab(ewin)
        changed = np.linalg.norm(lab - elab, axis=2) > 12
        changed = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)) > 0
        if changed.sum() < 20 * READ_PPM * READ_PPM:
            raise VisionError(T("enrol chest values: no chest found at ({x}, {y}) mm for the value {value} (is it there, face "
                                "up, and was the empty board enrolled under this camera?)", x=format(x, ".0f"), y=format(y, ".0f"), value=value))
        L = lab[..., 0][changed]
        light = changed & (lab[..., 0] >= np.percentile(L, 60))
        lids.append(np.median(lab[light], axis=0))
    lid = np.float32(np.median(np.stack(lids), axis=0))
    book = ValueBook(lid, {}, 1.0)
    seen = []  # each value's window, its lid, its print (None: not found) and patch, its lid's box (px, in the window)
    c = CHEST_WINDOW_MM * READ_PPM
    for value, x, y in spots:
        win = window(frame, to_image, (x, y), CHEST_WINDOW_MM)
        ewin = _empty_window(empty, empty_ppm, (x, y), CHEST_WINDOW_MM)
        w = _Window.of(win, ewin)
        found = _read_window(w, book, tol)
        lid_px = _lid_mask(w.lab, w.changed, lid, tol)
        if found:  # the whole lid is in view here: its box is the least rectangle round the lid and the print near it
            pr, patch = min(found, key=lambda f: np.hypot(f[0].x - c, f[0].y - c))
            box = _lid_box(_near_print(lid_px, pr, 1.2 * CHEST_WINDOW_MM * READ_PPM))
        else:  # a lid with no print found on it (its strokes came apart): the lid's box alone
            pts = _lid_round(lid_px, (c, c), 1.2 * CHEST_WINDOW_MM * READ_PPM)
            if len(pts) < MIN_LID_ENROL_MM2 * READ_PPM * READ_PPM:
                raise VisionError(T("enrol chest values: the chest at ({x}, {y}) mm shows no printed value (is the {value} "
                                    "chest face up there?)", x=format(x, ".0f"), y=format(y, ".0f"), value=value))
            pr, patch, box = None, None, _lid_box(pts)
        seen.append((value, x, y, w, lid_px, pr, patch, box))
    size = tuple(float(v) for v in np.median(np.float32([b[2:] for *_, b in seen]), axis=0) / READ_PPM)
    if any(e[5] is None or float(e[5].ink.max()) < MIN_INK for e in seen):
        # a print's marks come apart: the prints' grey level itself, in the lid's box
        return _enrol_faint(lid, seen, size)
    patches = {}
    k = int(round(SHIFT_MM * READ_PPM))
    for value, _, _, _, _, pr, patch, _ in seen:
        patches[value] = patch[k:-k, k:-k].astype(np.float32)
    in_box = {v: _in_lid_frame(pr.ink, b[0], b[1], size) for v, _, _, _, _, pr, _, b in seen}
    return ValueBook(lid, patches, float(np.median([e[5].lid_mm2 for e in seen])), size, in_box)


#: the least lid (mm2) a face-up chest shows at enrolment when no print is found on it (a lid is 108 mm2)
MIN_LID_ENROL_MM2 = 40.0


def _lid_round(lid: np.ndarray, centre: tuple[float, float], reach_px: float) -> np.ndarray:
    """The lid's pixels (x, y px) within ``reach_px`` of ``centre``."""
    ys, xs = np.nonzero(lid > 0)
    near = np.hypot(xs - centre[0], ys - centre[1]) <= reach_px
    return np.column_stack([xs[near], ys[near]]).astype(np.float32)


#: a print too blurred for its marks to be cut (under :data:`MIN_INK`) is enrolled and read by its grey level in the
#: lid's box: the lid's rim (this far in from the box's sides, mm) left out, and two values whose prints match each
#: other at this or more (normalised correlation, the best shift and end) are not told apart: the enrolment refuses
FAINT_RIM_MM = 1.0
FAINT_MAX_ALIKE = 0.94
#: ... and a lid seen whose least rectangle differs from the enrolled box by more than this (mm) is not read so (a
#: chest touching another, or partly covered)
FAINT_BOX_TOL_MM = 1.5


def _lid_ink(w: "_Window", lid: np.ndarray) -> np.ndarray:
    """How much darker than the lid (grey levels) each pixel of the window is: the print's grey level itself, no
    marks cut (a blurred print's strokes come apart into fragments when cut)."""
    lid_grey = float(np.median(w.grey[lid > 0])) if lid.any() else float(np.median(w.grey))
    return np.clip(lid_grey - w.grey.astype(np.float32), 0, 120)


def _faint_print(w: "_Window", lid: np.ndarray, centre: np.ndarray, e1: np.ndarray, size: tuple[float, float],
                 pad_mm: float = 0.0) -> np.ndarray:
    """The print's grey level in the lid's frame (:func:`_in_lid_frame`), the rim (:data:`FAINT_RIM_MM`) left out."""
    img = _in_lid_frame(_lid_ink(w, lid), centre, e1, size, pad_mm)
    r, p = int(round(FAINT_RIM_MM * READ_PPM)), int(round(pad_mm * READ_PPM))
    inner = np.zeros(img.shape, np.float32)
    inner[p + r:img.shape[0] - p - r, p + r:img.shape[1] - p - r] = 1
    return img * inner


def _faint_best(obs: np.ndarray, t: np.ndarray) -> float:
    """The best normalised correlation of the template ``t`` within ``obs``, either end of the lid first."""
    return max(float(cv2.matchTemplate(o, t, cv2.TM_CCOEFF_NORMED).max()) for o in (obs, obs[::-1, ::-1].copy()))


def _enrol_faint(lid: np.ndarray, seen: list, size: tuple[float, float]) -> "ValueBook":
    """A value book from blurred prints (:data:`FAINT_RIM_MM`): each value's grey level in its lid's box; refused,
    in one line, when two values' prints are too alike to be told apart."""
    k = int(round(SHIFT_MM * READ_PPM))
    prints = {}
    for value, _, _, w, lid_px, _, _, b in seen:
        prints[value] = _faint_print(w, lid_px, b[0], b[1], size)
    for value, x, y, w, lid_px, _, _, b in seen:
        obs = _faint_print(w, lid_px, b[0], b[1], size, SHIFT_MM)
        for other, t in prints.items():
            if other == value:
                continue
            alike = _faint_best(obs, t[k:-k, k:-k])
            if alike >= FAINT_MAX_ALIKE:
                raise VisionError(T("enrol chest values: the prints of the {value} and {other} chests are too blurred to "
                                    "tell apart (they match each other at {score}): focus the camera or light the table "
                                    "better, and enrol again; until then the phone enters the chests' values",
                                    value=value, other=other, score=format(alike, ".2f")))
    area = float(np.median([np.count_nonzero(e[4]) for e in seen])) / (READ_PPM * READ_PPM)
    return ValueBook(lid, dict(prints), area, size, prints, faint=True)


def _read_faint(w: "_Window", book: "ValueBook", min_margin: float, min_score: float, tol: float
                ) -> tuple[int | None, float, float, str, tuple[int, ...]]:
    """A face-up chest at the window's centre read with a book of blurred prints (:func:`_enrol_faint`): its lid's
    box (the least rectangle round the lid there: a chest on its own shows its whole lid), the grey level in it
    against each value's, either end first, shifted up to :data:`SHIFT_MM`; the best must score ``min_score`` and
    beat the next value by ``min_margin``."""
    lid = _lid_mask(w.lab, w.changed, book.lid_lab, tol)
    half = w.grey.shape[0] / 2
    c, e1, a, b = _lid_box(_lid_round(lid, (half, half), 1.2 * CHEST_WINDOW_MM * READ_PPM))
    want = np.float64(book.lid_box) * READ_PPM
    if abs(a - want[0]) > FAINT_BOX_TOL_MM * READ_PPM or abs(b - want[1]) > FAINT_BOX_TOL_MM * READ_PPM:
        return None, 0.0, 0.0, T("the chest's box is not found round what shows of its lid"), ()
    k = int(round(SHIFT_MM * READ_PPM))
    obs = _faint_print(w, lid, c, e1, book.lid_box, SHIFT_MM)
    vals = sorted(book.lid_prints)
    best = np.float32([_faint_best(obs, book.lid_prints[v][k:-k, k:-k]) for v in vals])
    return _verdict(vals, best, min_score, min_margin)[:5]


def _near_print(lid: np.ndarray, pr: "_Print", reach_px: float) -> np.ndarray:
    """The points (x, y px) of a chest seen round its print: the lid's pixels within ``reach_px`` of the print's
    centre and the print's own marks."""
    ys, xs = np.nonzero(((lid > 0) | (pr.ink > 0)))
    near = np.hypot(xs - pr.x, ys - pr.y) <= reach_px
    return np.column_stack([xs[near], ys[near]]).astype(np.float32)


def _lid_box(points: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, float]:
    """The least rectangle round ``points`` (x, y px): its centre, the unit vector along its long side and its long
    and short sides (px). From its corners, not its angle (OpenCV versions name the angle differently)."""
    if len(points) < 3:
        return np.zeros(2), np.float64([1.0, 0.0]), 0.0, 0.0
    rect = cv2.minAreaRect(points.reshape(-1, 1, 2))
    q = cv2.boxPoints(rect).astype(np.float64)
    a, b = q[1] - q[0], q[2] - q[1]
    la, lb = float(np.hypot(*a)), float(np.hypot(*b))
    if la < lb:
        a, la, lb = b, lb, la
    e1 = a / la if la > 0 else np.float64([1.0, 0.0])
    return np.float64(rect[0]), e1, la, lb


def _in_lid_frame(img: np.ndarray, centre: np.ndarray, e1: np.ndarray, size_mm: tuple[float, float],
                  pad_mm: float = 0.0, fill: float = 0.0) -> np.ndarray:
    """``img`` (a window at READ_PPM) cut in a lid's own frame: centred on ``centre`` (px), ``e1`` (the long side's
    direction) along x, ``size_mm`` (long, short) plus ``pad_mm`` each side; outside the window ``fill``."""
    nx = int(round((size_mm[0] + 2 * pad_mm) * READ_PPM))
    ny = int(round((size_mm[1] + 2 * pad_mm) * READ_PPM))
    e2 = np.float64([-e1[1], e1[0]])
    o = np.asarray(centre, np.float64) - (nx / 2 - 0.5) * e1 - (ny / 2 - 0.5) * e2
    A = np.float64([[e1[0], e2[0], o[0]], [e1[1], e2[1], o[1]]])
    return cv2.warpAffine(img.astype(np.float32), A, (nx, ny), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=fill)


@dataclass
class ChestRead:
    """What is read of one chest: ``value`` (``None`` when unsure; ``0`` a ship's empty hold), ``score`` and ``margin`` of the match,
    ``unsure`` (why, or empty), the candidate values when unsure, and where the print is (board mm)."""

    value: int | None
    score: float
    margin: float
    unsure: str = ""
    candidates: tuple[int, ...] = ()
    x_mm: float = 0.0
    y_mm: float = 0.0
    #: a hold not even sure to be laden (a sail of the lids' colour may hide a lid, or be taken for one)
    maybe_empty: bool = False
    #: lid colour on the deck but no print: weak evidence of a chest aboard (a lid wholly in view shows its print;
    #: what is left may be the rim of a chest touching the ship in port)
    lid_only: bool = False


def _score(patch: np.ndarray, book: ValueBook, min_margin: float, min_score: float
           ) -> tuple[int | None, float, float, str, tuple[int, ...]]:
    vals, turned = book.turned()
    if turned[0][0].shape[0] >= patch.shape[0]:
        raise VisionError(T("chest values: the value book was enrolled at another patch size: enrol again"))
    q = patch.astype(np.float32)
    # the best turn and shift of each value (normalised correlation)
    best_per = np.float32([max(float(cv2.matchTemplate(q, t, cv2.TM_CCOEFF_NORMED).max()) for t in turns)
                           for turns in turned])
    return _verdict(vals, best_per, min_score, min_margin)[:5]


def _verdict(vals: list[int], best_per: np.ndarray, min_score: float, min_margin: float
             ) -> tuple[int | None, float, float, str, tuple[int, ...], np.ndarray]:
    """The value whose print matched best, if it matched well enough and clearly better than the next; else
    ``None`` with why and between which values. Also the values' order, best first."""
    order = np.argsort(-best_per)
    b, r = float(best_per[order[0]]), float(best_per[order[1]])
    value, other = vals[order[0]], vals[order[1]]
    if b < min_score:
        return None, b, b - r, T("print not read: best {value} ({score})", value=value, score=format(b, ".2f")), (value, other), order
    if b - r < min_margin:
        return None, b, b - r, T("{value} ({score}) or {other} ({other_score})?", value=value, score=format(b, ".2f"), other=other, other_score=format(r, ".2f")), (value, other), order
    return value, b, b - r, "", (), order


#: the most of every value's strokes (laid where the best value matched, not grown) that may be out of view
MAX_HIDDEN_ANY = 0.05


def _score_any_turn(pr: "_Print", book: ValueBook, min_margin: float, min_score: float,
                    hidden: np.ndarray | None = None, max_hidden: float = 0.06
                    ) -> tuple[int | None, float, float, str, tuple[int, ...]]:
    """A print on a chest lying any way (a chest on a ship's deck, partly under the sail: the lid's visible part
    does not say how the chest lies). The print's own ink turns with the chest: for each enrolled value the patch
    is cut turned so that the print's ink axis lies where that value's does, and compared with it either way
    round and a few degrees either side. The best value's print, laid where it matched, must lie on the lid in
    full: ``hidden`` (the window's pixels that are neither lid nor the print's marks: a sail, the deck, the
    board) may cover at most ``max_hidden`` of its strokes grown by 0.6 mm (a print within half a millimetre
    of the sail's edge is not taken as whole: measured, reads of prints 7-12 % hidden so were wrong), else part of the print is out of
    view and the read is unsure, never a guess from what is left (a 4 half under the sail reads as a 7)."""
    vals, turned = book.turned()
    shapes = book.shapes()
    alpha = _ink_axis(pr.ink)
    best_per, where = [], {}
    for v, turns in zip(vals, turned):
        ang = alpha - shapes[v][0]
        q = _canonical(pr.ink, pr.x, pr.y, ang, READ_PPM, SHIFT_MM)
        if turns[0].shape[0] >= q.shape[0]:
            raise VisionError(T("chest values: the value book was enrolled at another patch size: enrol again"))
        top = (-2.0, 0, (0, 0))
        for k, t in enumerate(turns):
            _, mx, _, loc = cv2.minMaxLoc(cv2.matchTemplate(q, t, cv2.TM_CCOEFF_NORMED))
            if mx > top[0]:
                top = (float(mx), k, loc)
        best_per.append(top[0])
        where[v] = (ang, top)
    value, b, margin, unsure, between, order = _verdict(vals, np.float32(best_per), min_score, min_margin)
    if value is None:
        return value, b, margin, unsure, between
    if hidden is not None:
        ang, (_, k, (lx, ly)) = where[value]
        t = turned[order[0]][k]
        n = t.shape[0]
        occ = _canonical(hidden.astype(np.float32), pr.x, pr.y, ang, READ_PPM, SHIFT_MM)[ly:ly + n, lx:lx + n]
        body = cv2.dilate((t > 0.35 * float(t.max())).astype(np.uint8),
                          cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(1.2 * READ_PPM) | 1,) * 2)) > 0
        share = float((occ[body] > 0.5).mean()) if body.any() else 1.0
        # every value's strokes laid there (the same turn, not grown): where another value's strokes are out of
        # view, what is in view cannot rule that value out (a 7 matched on what shows of an 8 whose loop is under
        # Diabolo's sail, 6 % of the 7's strokes hidden, 6.5 % of all values')
        union = np.zeros(t.shape, bool)
        for turns_v in turned:
            union |= turns_v[k] > 0.35 * float(turns_v[k].max())
        share_any = float((occ[union] > 0.5).mean())
        if share > max_hidden or share_any > MAX_HIDDEN_ANY:
            other = vals[order[1]]
            return None, b, margin, T("the print is partly out of view (under the sail?): {value} ({score}) with "
                                     "{share} % of it hidden ({any} % of any value's strokes)", value=value,
                                     score=format(b, ".2f"), share=format(100 * share, ".0f"),
                                     any=format(100 * share_any, ".0f")), (value, other)
    return value, b, margin, "", ()


#: a print partly out of view, read in its lid's box (:func:`_read_in_box`): the bar of the best value's match over
#: the pixels in view, how many times more of the ink's variance in view every other value leaves unexplained (each
#: at its own best box, end and shift: 1 - r^2 against the best's) (and what must be in view: :data:`BOX_MIN_TOLD`).
#: Measured on 413 partly hidden prints (seeds 1-5, `clean` and `default`, 25 frames each drawn as the bench draws
#: them, each deck read at its ship's true centre): the best value was the wrong one at a ratio of at most 1.74, but
#: for a 4 read as a 7 at 2.17 with 29 % of the 7's strokes in view; with these bars 112 were read, none wrong (at
#: 0.4 of the strokes 135, but the bench's seed 1 `clean` frame 20 read a 5 as an 8 at 2.15 with 48 % in view)
BOX_MIN_SCORE = 0.85
BOX_MIN_RATIO = 2.0
#: how far (mm) the visible part's sides may pass the enrolled box's and still be the chest's, and the share of a
#: box that may lie over the empty board (a chest covers what it lies on)
BOX_TOL_MM = 1.0
BOX_MAX_BOARD = 0.05


def _boxes_round(pts: np.ndarray, box_mm: tuple[float, float], changed: np.ndarray
                 ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Where the whole lid may lie, as (centre px, long side's unit vector), given the points of it in view
    (``pts``: the lid's visible part and its print) and its enrolled size: the visible part's least rectangle
    grown to the box's size on the side(s) it falls short, either way, its long side along either of the
    rectangle's sides; a box lying over the empty board (``changed`` false) is not the chest's."""
    c, e1, a, b = _lid_box(pts)
    if a <= 0:
        return []
    e2 = np.float64([-e1[1], e1[0]])
    L, S, tol = box_mm[0] * READ_PPM, box_mm[1] * READ_PPM, BOX_TOL_MM * READ_PPM
    out = []
    for u, v, ext_u, ext_v in ((e1, e2, a, b), (e2, e1, b, a)):  # the box's long side along u, short along v
        if ext_u > L + tol or ext_v > S + tol:
            continue
        du, dv = max(0.0, L - ext_u), max(0.0, S - ext_v)
        for su in ((0.0,) if du <= tol else (-du / 2, du / 2)):
            for sv in ((0.0,) if dv <= tol else (-dv / 2, dv / 2)):
                centre = c + su * u + sv * v
                corners = np.float32([centre + i * L / 2 * u + j * S / 2 * v
                                      for i, j in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
                m = np.zeros(changed.shape, np.uint8)
                cv2.fillConvexPoly(m, np.round(corners * 16).astype(np.int32), 1, cv2.LINE_8, shift=4)
                area = max(1, int(m.sum()))
                if float((m.astype(bool) & ~changed).sum()) / area <= BOX_MAX_BOARD and area >= 0.8 * L * S:
                    out.append((centre, u))
    return out


def _masked_ncc(obs: np.ndarray, seen: np.ndarray, t: np.ndarray) -> np.ndarray:
    """The normalised correlation of ``t`` with ``obs`` over the pixels in view (``seen`` 0 or 1) only, at each
    shift of ``t`` within ``obs`` (cv2.matchTemplate's layout)."""
    ones = np.ones_like(t)
    vo = seen * obs
    n = cv2.matchTemplate(seen, ones, cv2.TM_CCORR)
    so = cv2.matchTemplate(vo, ones, cv2.TM_CCORR)
    soo = cv2.matchTemplate(vo * obs, ones, cv2.TM_CCORR)
    st = cv2.matchTemplate(seen, t, cv2.TM_CCORR)
    stt = cv2.matchTemplate(seen, t * t, cv2.TM_CCORR)
    sot = cv2.matchTemplate(vo, t, cv2.TM_CCORR)
    n = np.maximum(n, 1.0)
    cov = sot - so * st / n
    var = np.maximum(soo - so * so / n, 0) * np.maximum(stt - st * st / n, 0)
    return np.where(var > 1e-6, cov / np.sqrt(np.maximum(var, 1e-6)), -1.0)


#: ... and the share of where its print differs from each other value's (in the lid's frame: either's strokes, not
#: the other's) that must be in view, the least over the other values: what is in view tells two values apart only
#: where their prints differ (h-chests3; it replaced half of the best value's own strokes in view). Measured with the
#: bench's truth (seeds 1 and 2, `clean` and `default`, 40 frames, 274 box reads of laden decks): the best value was
#: wrong once over the score and ratio bars, a 4 read as a 7 with 24 % of their difference in view (43 % of the 7's
#: strokes); at this bar 115 read, none wrong (at half the strokes 94)
BOX_MIN_TOLD = 0.35
#: ... or, where that share is less, the area (mm2) of it in view: what is in view is evidence by its amount, and a
#: share asks more of two values whose prints differ much (a 4 and an 8: 14 mm2) than of two that differ little
#: (3.4-8 mm2). Measured (h-chests8: every box read of the bench, seeds 1-8, `clean` and `default`, 40 frames, 1,465
#: with a laden deck): of the best values that were wrong but passed the score and ratio bars (9), at most 1.68 mm2
#: of the difference was in view (a 4 best as a 6 at ratios 3.2-3.9); of the wrong best values with 2.5 mm2 or more
#: in view (19), the ratio was at most 1.28 (bar 2.0). With this bar 670 read instead of 589, none wrong (at 2.0 mm2:
#: 786, but 0.32 mm2 over the worst wrong, not kept). The box's freedom (how far the lid's visible outline lets it
#: slide, the visible part's least rectangle short of the box's sides) did not tell wrong from right: 5 of the 9 wrong
#: bests lay in a box pinned to within 1.1 mm, as did 254 of the 463 right ones the share bar held back
BOX_MIN_TOLD_MM2 = 2.5


def _strokes(t: np.ndarray) -> np.ndarray:
    """A print's strokes: where its ink is over a third of its strongest (as :func:`_extent` takes them)."""
    return t > 0.35 * float(t.max())


def _told_apart(book: ValueBook, vals: list[int], i: int, inview: np.ndarray | None) -> tuple[float, float]:
    """How much of what tells the ``i``-th value's print from each other value's is in view (``inview``: the pixels
    in view under that print where it matched best, in the lid's frame), as the least share over the other values of
    the pixels where the two prints differ (either one's strokes, not the other's), and as the least area (mm2) of
    those pixels in view."""
    if inview is None:
        return 0.0, 0.0
    t = book.lid_prints[vals[i]]
    mine = _strokes(t)
    least, least_mm2 = 1.0, np.inf
    for j, u in enumerate(vals):
        if j == i:
            continue
        o = book.lid_prints[u]
        if o.shape != t.shape:
            return 0.0, 0.0
        diff = mine ^ _strokes(o)
        if diff.any():
            least = min(least, float(inview[diff].mean()))
            least_mm2 = min(least_mm2, float(inview[diff].sum()) / (READ_PPM * READ_PPM))
    return least, (0.0 if least_mm2 == np.inf else least_mm2)


def _told_apart_in_view(book: ValueBook, vals: list[int], i: int, inview: np.ndarray | None) -> float:
    """The share of what tells the ``i``-th value's print from each other value's that is in view
    (:func:`_told_apart`)."""
    return _told_apart(book, vals, i, inview)[0]


def _read_in_box(pr: "_Print", lid: np.ndarray, seen: np.ndarray, changed: np.ndarray, book: ValueBook
                 ) -> tuple[int | None, float, float, str, tuple[int, ...]]:
    """A print partly out of view (under a sail) read where it must lie: a chest is a rigid box of the enrolled
    size with its value printed at a fixed place on its lid, so the lid's box is fitted round what is in view of
    the lid and the print (:func:`_boxes_round`: the visible part grown to the box's size where it falls short),
    and each value's print, enrolled in the lid's frame, is compared there with what is in view only (``seen``),
    either end first, shifted by at most :data:`SHIFT_MM`. A value is read only when it matches what is in view
    (:data:`BOX_MIN_SCORE`), with enough of what tells it from each other value in view (:data:`BOX_MIN_TOLD` of it, or
    :data:`BOX_MIN_TOLD_MM2`), clearly better than every other value at that value's own best box
    (:data:`BOX_MIN_RATIO`): where what is in
    view is where two values agree, neither is read. The box pins the print: a value cannot slide its telling strokes under the sail."""
    if book.lid_box is None or not book.lid_prints:
        return None, 0.0, 0.0, "", ()
    reach = float(np.hypot(*book.lid_box)) * READ_PPM
    hyps = _boxes_round(_near_print(lid, pr, reach), book.lid_box, changed)
    vals = sorted(book.lid_prints)
    best = np.full(len(vals), -1.0)
    seen_share = np.zeros(len(vals))
    at: list = [None] * len(vals)  # each value's best placement: what is in view there, in the lid's frame
    vis = seen.astype(np.float32)
    for centre, e1 in hyps:
        obs = _in_lid_frame(pr.ink, centre, e1, book.lid_box, SHIFT_MM)
        inview = _in_lid_frame(vis, centre, e1, book.lid_box, SHIFT_MM)
        inview = (inview > 0.5).astype(np.float32)
        for o, v in ((obs, inview), (obs[::-1, ::-1].copy(), inview[::-1, ::-1].copy())):  # either end first
            for i, val in enumerate(vals):
                t = book.lid_prints[val]
                if t.shape[0] > o.shape[0] or t.shape[1] > o.shape[1]:
                    continue
                ncc = _masked_ncc(o, v, t)
                _, mx, _, (lx, ly) = cv2.minMaxLoc(ncc)
                if mx > best[i]:
                    strokes = _strokes(t)
                    best[i] = mx
                    at[i] = v[ly:ly + t.shape[0], lx:lx + t.shape[1]]
                    seen_share[i] = float(at[i][strokes].mean()) if strokes.any() else 0.0
    if not hyps or best.max() < 0:
        return None, 0.0, 0.0, T("the chest's box is not found round what shows of its lid"), ()
    order = np.argsort(-best)
    value, other = vals[order[0]], vals[order[1]]
    b, r = float(best[order[0]]), float(best[order[1]])
    ratio = (1 - r * r) / max(1e-6, 1 - b * b)  # how much more of the ink in view the next value leaves unexplained
    told, told_mm2 = _told_apart(book, vals, order[0], at[order[0]])
    if b < BOX_MIN_SCORE or ratio < BOX_MIN_RATIO or (told < BOX_MIN_TOLD and told_mm2 < BOX_MIN_TOLD_MM2):
        return None, b, b - r, T("in the chest's box: {value} ({score}, {share} % of its strokes in view) or {other} "
                                 "({other_score})?", value=value, score=format(b, ".2f"), other=other,
                                 share=format(100 * seen_share[order[0]], ".0f"),
                                 other_score=format(r, ".2f")), (value, other)
    return value, b, b - r, "", ()


def _faint(pr: "_Print") -> str:
    return T("the print is too blurred to read (strokes {ink} grey levels darker than the lid, under "
             "{needed})", ink=format(pr.ink.max(), ".0f"), needed=format(MIN_INK, ".0f"))


def read_value(frame: np.ndarray, to_image, empty: np.ndarray, empty_ppm: float, book: ValueBook,
               centre_mm: tuple[float, float], min_margin: float = MIN_MARGIN, min_score: float = MIN_SCORE,
               tol: float = TOLERANCE) -> ChestRead:
    """The value printed on the face-up chest standing at ``centre_mm``."""
    win = window(frame, to_image, centre_mm, CHEST_WINDOW_MM)
    ewin = _empty_window(empty, empty_ppm, centre_mm, CHEST_WINDOW_MM)
    w = _Window.of(win, ewin)
    if book.faint:  # the book holds the prints' grey level: read so
        value, s, m, why, cands = _read_faint(w, book, min_margin, min_score, tol)
        return ChestRead(value, round(s, 3), round(m, 3), why, cands, *centre_mm)
    found = _read_window(w, book, tol)
    x0, y0 = centre_mm[0] - CHEST_WINDOW_MM, centre_mm[1] - CHEST_WINDOW_MM
    if not found:
        return ChestRead(None, 0.0, 0.0, T("no printed value seen on the lid"), (), *centre_mm)
    c = CHEST_WINDOW_MM * READ_PPM
    pr, patch = min(found, key=lambda f: np.hypot(f[0].x - c, f[0].y - c))
    if pr.ink.max() < MIN_INK:
        return ChestRead(None, 0.0, 0.0, _faint(pr), (), round(x0 + pr.x / READ_PPM, 1), round(y0 + pr.y / READ_PPM, 1))
    value, s, m, why, cands = _score(patch, book, min_margin, min_score)
    return ChestRead(value, round(s, 3), round(m, 3), why, cands, round(x0 + pr.x / READ_PPM, 1),
                     round(y0 + pr.y / READ_PPM, 1))


_GRIDS: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _grid(n: int) -> tuple[np.ndarray, np.ndarray]:
    """x and y (mm) of an n x n window's pixel centres from the window's centre, at READ_PPM."""
    if n not in _GRIDS:
        gy, gx = np.mgrid[0:n, 0:n].astype(np.float32)
        _GRIDS[n] = ((gx + 0.5) / READ_PPM - n / (2 * READ_PPM), (gy + 0.5) / READ_PPM - n / (2 * READ_PPM))
    return _GRIDS[n]


def _lid_parts(lid: np.ndarray, book: ValueBook) -> tuple[int, np.ndarray, np.ndarray, list[int]]:
    """The lid mask's parts (those a closing 3 mm wide joins are one: a sail's flag stripe cuts a lid in two): their
    count (with the background), labels, sizes (px) and those no larger than a lid."""
    joined = cv2.morphologyEx(lid, cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(3 * READ_PPM) | 1,) * 2))
    k, labels, _, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    sizes = np.bincount(labels[lid > 0].ravel(), minlength=k)
    small = [j for j in range(1, k) if sizes[j] <= 1.15 * book.lid_mm2 * READ_PPM * READ_PPM]
    return k, labels, sizes, small


#: the mast's radius (mm) at the ship's centre: no chest lies there, a sail does
MAST_MM = 1.5
#: how far apart (Lab, L weighted a half) a sail's own colour must be from the lids' for the two to be told apart
#: pixel by pixel (Diabolo's yellow sail: about 18)
MIN_SAIL_APART = 10.0
#: ... and how far apart for a deck with no lid left beside it to be an empty hold (measured: Diabolo's sail 16-21
#: apart on the OpenCV 5 stack, 10-11 on the Pi's 4.11, where a laden deck told apart at 10 kept 0.6 mm2 of its lid)
MIN_SAIL_EMPTY = 15.0
#: a lid pixel beside such a sail: nearer the lid's colour than the sail's by this much, and this far (mm) from the
#: sail's own pixels
SAIL_MARGIN = 4.0
SAIL_EDGE_MM = 0.6


def _sail_apart(lid: np.ndarray, lab: np.ndarray, labels: np.ndarray, big: list[int], book: ValueBook
                ) -> tuple[np.ndarray, float] | None:
    """The lid mask without a lid-coloured sail, and how far apart the two colours lie: the sail's parts' own colour
    (their median: the sail, a whole 15 x 10 mm, outweighs any lid beside it) against the enrolled lid colour, each
    pixel kept when nearer the lid's (Lab, L weighted a half). ``None`` when the two colours lie too close to be
    told apart (:data:`MIN_SAIL_APART`)."""
    w = np.float32([0.5, 1.0, 1.0])
    sail = np.median(lab[np.isin(labels, big) & (lid > 0)], axis=0)
    apart = float(np.linalg.norm((sail - book.lid_lab) * w))
    if apart < MIN_SAIL_APART:
        return None
    d_lid = np.linalg.norm((lab - book.lid_lab) * w, axis=2)
    d_sail = np.linalg.norm((lab - sail) * w, axis=2)
    # the sail's own pixels, grown by SAIL_EDGE_MM (its edge blurred into the hull is darker: nearer the lid's colour)
    k = int(2 * SAIL_EDGE_MM * READ_PPM) | 1
    near_sail = cv2.dilate(((lid > 0) & (d_sail <= d_lid)).astype(np.uint8),
                           cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    out = (lid > 0) & (d_lid + SAIL_MARGIN < d_sail) & (near_sail == 0)
    return cv2.morphologyEx(out.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), apart


#: a ship's sail found round its mast (:func:`_sail_round_mast`): its own colour is read on a ring this far from the
#: mast (mm: inside any sail, which stands over the mast, and clear of a flag's mark on the mast), and the sail is the
#: pixels within :data:`SAIL_TOL` of it (Lab, L weighted a half) that touch that ring, parts thinner than
#: :data:`SAIL_THIN_MM` left out (a print's 0.8 mm stroke beside a dark sail), filled to their outline (a sail seen
#: from above is convex: a flag's stripe or cross across it is sail), grown by :data:`SAIL_EDGE_MM` (its blurred edge)
SAIL_RING_MM = (2.5, 4.5)
SAIL_TOL = 14.0
SAIL_THIN_MM = 1.6


def _sail_round_mast(w: "_Window", d_ship: np.ndarray, book: "ValueBook") -> np.ndarray | None:
    """The ship's sail in a deck's window (``d_ship``: each pixel's distance from the ship's centre, mm), 0/1: found
    by its own colour round the mast, whatever the ship's heading; ``None`` where no sail is told apart there (the
    ring is not the sail's, or the sail has nearly the lids' colour: :func:`_sail_apart` tells those)."""
    ring = (d_ship >= SAIL_RING_MM[0]) & (d_ship <= SAIL_RING_MM[1])
    on = ring & w.changed
    if on.sum() < 0.5 * ring.sum():  # the ring is mostly the empty board: no sail over the mast here
        return None
    wt = np.float32([0.5, 1.0, 1.0])
    sail = np.median(w.lab[on], axis=0)
    if float(np.linalg.norm((sail - book.lid_lab) * wt)) < 2 * SAIL_TOL:  # nearly the lids' colour
        return None
    near = ((np.linalg.norm((w.lab - sail) * wt, axis=2) < SAIL_TOL) & w.changed).astype(np.uint8)
    near = cv2.morphologyEx(near, cv2.MORPH_OPEN, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (int(SAIL_THIN_MM * READ_PPM) | 1,) * 2))
    n, labels = cv2.connectedComponents(near, connectivity=8)
    ids = np.unique(labels[ring & (near > 0)])
    ids = ids[ids > 0]
    if not len(ids):
        return None
    out = np.zeros(near.shape, np.uint8)
    cv2.fillConvexPoly(out, cv2.convexHull(cv2.findNonZero(np.isin(labels, ids).astype(np.uint8))), 1)
    k = int(2 * SAIL_EDGE_MM * READ_PPM) | 1
    return cv2.dilate(out, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))


#: a sail of the lids' colour told by its shape (:func:`_sail_asymmetry`): a sail hangs from its mast, the same either
#: side of it (a point reflection through the mast); the reflection's centre is searched this far (mm) round the ship's
#: centre (the pieces' reader's centre lies 1.2 mm from the mast at the median, 1.9 at most: bench seed 1), and what is
#: left over is opened this wide (mm: the slivers a blurred edge leaves)
SAIL_SYM_SEARCH_MM = 2.0
SAIL_SYM_SLIVER_MM = 1.0
#: ... and what may be left over (mm2) for the deck to be an empty hold (between the 0.0 and 6.2 measured)
SAIL_SYM_EMPTY_MM2 = 3.0


def _shifted(img: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """``img`` moved by (dx, dy) px, zeros coming in."""
    out = np.zeros_like(img)
    h, w = img.shape
    out[max(0, dy):min(h, h + dy), max(0, dx):min(w, w + dx)] = \
        img[max(0, -dy):min(h, h - dy), max(0, -dx):min(w, w - dx)]
    return out


def _reflection_shift(c: np.ndarray, search_mm: float) -> tuple[int, int]:
    """Where a square mask ``c`` (centred on a ship) is most its own point reflection: the shift (px) of the reflected
    mask that overlaps ``c`` most, the reflection's centre searched ``search_mm`` round the window's centre (reflected
    through a point moved by s, the mask moves by 2 s)."""
    n = c.shape[0]
    f = c[::-1, ::-1]
    pad = (2 * n, 2 * n)
    corr = np.fft.irfft2(np.fft.rfft2(c, pad) * np.conj(np.fft.rfft2(f, pad)), pad)  # overlap with f moved by t
    r = int(round(2 * search_mm * READ_PPM))
    t = np.arange(-r, r + 1)
    iy, ix = np.unravel_index(int(np.argmax(corr[np.ix_(t % pad[0], t % pad[1])])), (len(t), len(t)))
    return int(t[ix]), int(t[iy])


def _sail_asymmetry(w: "_Window", lid: np.ndarray, labels: np.ndarray, sails: list[int], mine: np.ndarray) -> float:
    """How much (mm2) of a lid-coloured sail and what touches it is not the same either side of the mast: a sail hangs
    from its mast, so an empty deck's sail is its own reflection through the mast, and a chest lies clear of the mast
    (never wholly under the sail: at least 49 mm2 of a 12 x 9 mm lid shows beside a 15 x 10 mm sail, wherever it lies
    on the deck), so what it adds on one side is not reflected on the other. The sail's pixels are those near the
    lids' colour or near the sail's own (its median: over a light gradient part of a sail drifts out of the lids'
    tolerance, and a ragged mask is not symmetric) joined to the parts over the mast (``sails``), on the deck
    (``mine``); reflected through the point near the ship's centre (:data:`SAIL_SYM_SEARCH_MM`) that makes them overlap
    most. Measured (bench seeds 1 and 2, `clean` and `default`, 40 frames): empty decks 0.0 mm2 every one (80), laden
    decks 6.2 mm2 at the least (70)."""
    part = np.isin(labels, sails) & (lid > 0)
    wt = np.float32([0.5, 1.0, 1.0])
    own = np.median(w.lab[part], axis=0)
    near = (lid > 0) | ((np.linalg.norm((w.lab - own) * wt, axis=2) < SAIL_TOL) & w.changed & mine)
    near = cv2.morphologyEx(near.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    joined = cv2.morphologyEx(near, cv2.MORPH_CLOSE, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (int(3 * READ_PPM) | 1,) * 2))  # a flag's stripe across the sail joined, as _lid_parts
    _, lab2 = cv2.connectedComponents(joined, connectivity=8)
    ids = np.unique(lab2[part])
    c = (np.isin(lab2, ids[ids > 0]) & (near > 0)).astype(np.float32)
    dx, dy = _reflection_shift(c, SAIL_SYM_SEARCH_MM)  # reflected through the mast (near the window's centre)
    rest = ((c > 0) & (_shifted(c[::-1, ::-1], dx, dy) == 0)).astype(np.uint8)
    k = int(SAIL_SYM_SLIVER_MM * READ_PPM) | 1
    rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return float(np.count_nonzero(rest)) / (READ_PPM * READ_PPM)


#: the ship's hull (:func:`_off_hull`): a pixel lies on the ship when its reflection through the mast is the ship too (a
#: hull is the same either side of its mast). A chest aboard lies with its centre over the hull (else it tips over),
#: so at most about half of its lid lies off the hull, whatever the sail hides; a chest in port touching the ship lies
#: wholly beside it. A lid part with more than this share of an enrolled lid (``ValueBook.lid_mm2``) off the hull is
#: beside the ship, not on its deck. Measured (h-chests5, 1920x1080 test frames, `clean` and `default`): chests aboard
#: overhanging the hull as far as the simulated table lets them (40 % of the chest) 0.57 at the most; face-up chests
#: touching a ship's side 0.83 at the least (touching its bow or stern, partly out of the deck's window: 0.19-0.85;
#: those kept are read as a lid with no print or a print not read: not sure)
HULL_OFF_LID = 0.7


def _off_hull(w: "_Window", mine: np.ndarray, chests: np.ndarray, labels: np.ndarray, k: int) -> np.ndarray:
    """For each of the lid's ``k`` parts (``labels``: :func:`_lid_parts`), how many of its pixels lie off the hull: their
    reflection through the mast falls on the board, not on the ship (what differs from the empty board on this deck).
    The mast is searched round the ship's centre as for its sail (:data:`SAIL_SYM_SEARCH_MM`) on the ship without the
    lid parts no larger than a lid (``chests``: one touching the ship would pull it towards it; a sail of the lids'
    colour, larger, stays: it hangs from the mast)."""
    hull = (w.changed & mine & ~chests).astype(np.float32)
    dx, dy = _reflection_shift(hull, SAIL_SYM_SEARCH_MM)
    ship = (w.changed & mine).astype(np.uint8)  # onto the hull, the sail or the chest aboard (a lid-coloured sail)
    off = (_shifted(ship[::-1, ::-1], dx, dy) == 0) & (labels > 0)
    return np.bincount(labels[off].ravel(), minlength=k)


def _beside_hull(labels: np.ndarray, k: int, off: np.ndarray, book: ValueBook) -> list[int]:
    """The lid parts beside the hull: any part with more than :data:`HULL_OFF_LID` of a lid off the hull, and the
    parts of a group that has as much: the parts lying mostly off the hull (more than half of their own pixels) that a
    closing as wide as a lid's short side joins. One chest beside the ship seen in fragments is judged whole, as one
    lid, not fragment by fragment (issue 17, h-portchests: a chest touching Fuego's side in the recorded Karibik game
    read as one part 0.77 of a lid off the hull, or, under a registration 0.25 mm away, as two of 0.28 and 0.46, each
    under the bar: the hold laden, 9 phone corrections). A part mostly on the hull (a chest aboard) joins no group."""
    bar = HULL_OFF_LID * book.lid_mm2 * READ_PPM * READ_PPM
    alone = [j for j in range(1, k) if off[j] > bar]  # one part as far off the hull (a lid with a sail of its colour)
    sizes = np.bincount(labels.ravel(), minlength=k)
    loose = [j for j in range(1, k) if off[j] > 0.5 * sizes[j] and j not in alone]
    if not loose:
        return alone
    short = book.lid_box[1] if book.lid_box is not None else float(np.sqrt(book.lid_mm2 / 1.5))
    ks = int(round(short * READ_PPM)) | 1
    joined = cv2.morphologyEx(np.isin(labels, loose).astype(np.uint8), cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (ks, ks)))
    _, groups = cv2.connectedComponents(joined, connectivity=8)
    out = list(alone)
    for g in np.unique(groups[np.isin(labels, loose)]):
        members = [j for j in loose if (groups[labels == j] == g).any()]
        if sum(off[j] for j in members) > bar:
            out += members
    return sorted(set(out))


#: a lid's visible part on a deck under which a chest is taken to be aboard (mm2): an empty deck shows none
MIN_LID_ABOARD_MM2 = 12.0
#: the same beside a sail of nearly the lids' colour told apart (:func:`_sail_apart`): its edge stripped, what is
#: left of a lid is smaller (measured: empty decks of the yellow-sailed Diabolo left 0-1.4 mm2, laden ones 3.4-51)
MIN_LID_BESIDE_SAIL_MM2 = 3.0


#: the coarse look at a deck before its full read (px/mm): a quarter of the pixels
GLIMPSE_PPM = 2.5
#: a deck whose coarse look shows less lid colour than this share of the full read's least lid is an empty hold.
#: Measured on 126 laden decks (chests anywhere on the deck, 6 frames of 12 ships at clean, default and hard): the
#: coarse look saw at least 1.6 times that least lid (4.1 / 3.0 / 1.6 at the three levels); on 54 empty decks
#: (Diabolo left out: its yellow sail is lid-coloured, always read in full) none at all
#: (tests/boards/test_chest_glimpse.py compares the two reads)
GLIMPSE_SHARE = 0.35


def _lid_glimpsed(frame: np.ndarray, to_image, empty: np.ndarray, empty_ppm: float, book: ValueBook,
                  ship_mm: tuple[float, float], aboard_mm: float, others: Sequence[tuple[float, float]],
                  tol: float) -> bool:
    """Is there lid colour enough on the deck, looked at coarsely (:data:`GLIMPSE_PPM`), for the full read to find
    a lid? Most decks are empty: this look costs about a fifth of the full read's window, light and Lab."""
    win = window(frame, to_image, ship_mm, SHIP_WINDOW_MM, GLIMPSE_PPM)
    ewin = _empty_window(empty, empty_ppm, ship_mm, SHIP_WINDOW_MM, GLIMPSE_PPM)
    lab, elab = _lab(_matched(win, ewin)), _lab(ewin)
    d = lab - elab
    changed = (d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2) > 144
    dl = lab - book.lid_lab
    near = ((0.25 * dl[..., 0] ** 2 + dl[..., 1] ** 2 + dl[..., 2] ** 2) < tol * tol) & (dl[..., 0] > -22) & changed
    n = win.shape[0]
    g = (np.arange(n, dtype=np.float32) + 0.5) / GLIMPSE_PPM - SHIP_WINDOW_MM
    gx, gy = np.meshgrid(g, g)
    mine = np.hypot(gx, gy) <= aboard_mm
    for ox, oy in others:
        dx, dy = ox - ship_mm[0], oy - ship_mm[1]
        if np.hypot(dx, dy) < 2 * (aboard_mm + 1):
            mine &= 2 * (gx * dx + gy * dy) <= dx * dx + dy * dy
    least = min(MIN_LID_ABOARD_MM2, 0.1 * book.lid_mm2)
    return int(np.count_nonzero(near & mine)) >= GLIMPSE_SHARE * least * GLIMPSE_PPM * GLIMPSE_PPM


def read_aboard(frame: np.ndarray, to_image, empty: np.ndarray, empty_ppm: float, book: ValueBook,
                ship_mm: tuple[float, float], aboard_mm: float = 17.0,
                others_mm: Iterable[tuple[float, float]] = (), min_margin: float = MIN_MARGIN,
                min_score: float = MIN_SCORE, tol: float = TOLERANCE) -> ChestRead | None:
    """The chest aboard the ship standing at ``ship_mm``: ``None`` for an empty hold (no lid on the deck), or ``value``
    0 for one whose sail has the lids' colour, told by its shape (:func:`_sail_asymmetry`: the ship's laden look is
    its sail's, not a chest's). The
    chest lies anywhere on the deck, turned any way, partly under the sail: its print is read turned by its own
    ink (:func:`_score_any_turn`); a lid seen on the deck (lid-coloured patches no larger than a lid, at least
    :data:`MIN_LID_ABOARD_MM2`) with no print read whole is a chest whose value is not seen (``value`` ``None``, ``unsure`` says why), never an empty hold. A lid or print nearer one of
    ``others_mm`` (chests on their own and other ships beside this one) than this ship's centre is theirs."""
    others = [tuple(o) for o in others_mm]
    if not _lid_glimpsed(frame, to_image, empty, empty_ppm, book, ship_mm, aboard_mm, others, tol):
        return None  # not even a glimpse of lid colour on the deck: an empty hold (the full read would say so too)
    win = window(frame, to_image, ship_mm, SHIP_WINDOW_MM)
    ewin = _empty_window(empty, empty_ppm, ship_mm, SHIP_WINDOW_MM)
    x0, y0 = ship_mm[0] - SHIP_WINDOW_MM, ship_mm[1] - SHIP_WINDOW_MM
    w = _Window.of(win, ewin)
    # which pixels of the window are this ship's deck: within aboard_mm of its centre, nearer it than the others
    n = win.shape[0]
    gx, gy = _grid(n)  # mm from the ship's centre (the window is centred on it)
    d_ship = np.hypot(gx, gy)
    nearer = np.ones((n, n), bool)
    for ox, oy in others:  # nearer the ship than the other: a half-plane, 2 p.(o - s) <= |o - s|^2
        dx, dy = ox - ship_mm[0], oy - ship_mm[1]
        if np.hypot(dx, dy) < 2 * (aboard_mm + 1):
            nearer &= 2 * (gx * dx + gy * dy) <= dx * dx + dy * dy
    mine = nearer & (d_ship <= aboard_mm)
    lid_near = _lid_mask(w.lab, w.changed, book.lid_lab, tol) & nearer.astype(np.uint8)
    lid = lid_near & mine.astype(np.uint8)
    least = min(MIN_LID_ABOARD_MM2, 0.1 * book.lid_mm2) * READ_PPM * READ_PPM
    if cv2.countNonZero(lid) < least:
        return None  # too little lid colour on the deck for a lid or a print (what follows would say so too)
    # lid colour beside the hull (reflected through the mast onto the board) is not this deck's: a chest in port
    # touching the ship (measured whole, in the window: not only what lies within aboard_mm); none left on the hull,
    # the hold is not sure (the game knows where that chest lies)
    k, lab_, _, small = _lid_parts(lid_near, book)
    off = _off_hull(w, nearer, np.isin(lab_, small) & (lid_near > 0), lab_, k)
    beside = _beside_hull(lab_, k, off, book)
    if beside:
        lid = lid & ~np.isin(lab_, beside)
        if cv2.countNonZero(lid) < least:
            return ChestRead(None, 0.0, 0.0, T("lid colour beside the hull: a chest touching the ship, or one "
                             "overhanging its side"), (), *ship_mm, maybe_empty=True)
    # a lid's visible part: the lid-coloured patches no larger than a lid (a yellow sail is lid-coloured and
    # larger: not a chest), the parts a closing 3 mm wide joins taken as one (a sail's flag stripe cuts it in two)
    k, lab_, sizes, small = _lid_parts(lid, book)
    lid0, lab0 = lid, lab_  # before a sail of the lids' colour is taken out
    min_lid = MIN_LID_ABOARD_MM2
    sail_apart = None  # how far a sail of nearly the lids' colour lies from it, when told apart
    # a lid-coloured part larger than a lid, or one over the mast (a chest lies clear of it): a sail of nearly the
    # lids' colour (Diabolo's)
    sails = {j for j in range(1, k) if j not in small} | set(np.unique(lab_[(d_ship <= MAST_MM) & (lid > 0)]).tolist())
    sails.discard(0)
    if sails:
        apart = _sail_apart(lid, w.lab, lab_, sorted(sails), book)
        if apart is not None:  # told apart by its own colour: the lid is what lies nearer the lids' colour
            lid, sail_apart = apart
            k, lab_, sizes, small = _lid_parts(lid, book)
            min_lid = MIN_LID_BESIDE_SAIL_MM2
    lid_mm2 = float(sum(sizes[j] for j in small)) / (READ_PPM * READ_PPM)
    sail = None if sails else _sail_round_mast(w, d_ship, book)  # no print is cut on the sail; under it is hidden
    if sail_apart is not None:  # a sail of the lids' colour told apart: what it covers is out of view too (a print
        # under it is not lid in view: a 7 whose foot alone showed beside Diabolo's sail matched a 4, h-chests5)
        k_ = int(2 * SAIL_EDGE_MM * READ_PPM) | 1
        sail = cv2.dilate((np.isin(lab0, sorted(sails)) & (lid0 > 0) & (lid == 0)).astype(np.uint8),
                          cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k_, k_)))
    reads = []
    for pr in _prints(lid, w.grey, w.changed, READ_PPM, 0.1 * book.lid_mm2, sail=sail):
        px, py = int(min(n - 1, max(0, round(pr.y)))), int(min(n - 1, max(0, round(pr.x))))
        if not mine[px, py]:
            continue
        reads.append((float(d_ship[px, py]), x0 + pr.x / READ_PPM, y0 + pr.y / READ_PPM, pr))
    if not reads:
        if lid_mm2 < min_lid:
            # a lid-coloured patch larger than a lid (a yellow sail) may hide a lid beside it; told apart, the deck
            # is empty only when the sail's colour lies far from the lids' (nearer, a lid's pixels go with the sail)
            if sails and _sail_asymmetry(w, lid0, lab0, sorted(sails), mine) < SAIL_SYM_EMPTY_MM2:
                # the lid colour is a sail's, the same either side of its mast: an empty hold, whatever the ship's
                # look (a sail of the lids' colour makes it look laden)
                return ChestRead(0, 0.0, 0.0, "", (), *ship_mm)
            if len(small) < k - 1 or (sail_apart is not None and sail_apart < MIN_SAIL_EMPTY):
                return ChestRead(None, 0.0, 0.0, T("the ship's sail has the lids' colour: a chest on its deck is not "
                                 "told from the sail"), (), *ship_mm, maybe_empty=True)
            return None
        ys, xs = np.nonzero(np.isin(lab_, small) & (lid > 0))
        return ChestRead(None, 0.0, 0.0, T("a chest's lid is seen on the deck ({area} mm2) but no printed "
                         "value (under the sail?)", area=format(lid_mm2, ".0f")), (), round(x0 + float(xs.mean()) / READ_PPM, 1),
                         round(y0 + float(ys.mean()) / READ_PPM, 1), lid_only=True)
    _, px, py, pr = min(reads, key=lambda m: m[0])
    if sails and sail_apart is None and lab0[int(min(n - 1, max(0, round(pr.y)))), int(min(n - 1, max(0, round(pr.x))))] \
            in sails:  # a print on a part with a sail of the lids' colour not told apart from it: what the sail covers
        # looks like lid in view with no ink, so a print partly under it reads as another value (bench seed 7 `default`
        # frame 1: the foot of Diabolo's 7 read as a 4 at 0.76, h-chests5)
        return ChestRead(None, 0.0, 0.0, T("the ship's sail has the lids' colour: its print may lie partly under the "
                         "sail"), (), round(px, 1), round(py, 1))
    # neither the lid nor the print's marks (the gaps a blurred stroke's edge leaves between them closed): a sail,
    # the deck, the board
    seen = cv2.morphologyEx(((lid > 0) | (pr.ink > 0)).astype(np.uint8), cv2.MORPH_CLOSE,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    hidden = (seen == 0) if sail is None else (seen == 0) | (sail > 0)
    if pr.ink.max() < MIN_INK:
        return ChestRead(None, 0.0, 0.0, _faint(pr), (), round(px, 1), round(py, 1))
    if book.faint:  # enrolled from blurred prints: a print partly under the sail is not read so
        return ChestRead(None, 0.0, 0.0, T("the values were enrolled from blurred prints: a chest aboard is not read"),
                         (), round(px, 1), round(py, 1))
    value, s_, m, why, cands = _score_any_turn(pr, book, min_margin, min_score, hidden)
    if value is None and book.lid_box is not None:  # not read whole: read in its lid's box what is in view
        in_box = _read_in_box(pr, lid & mine.astype(np.uint8), ~hidden, w.changed, book)
        if in_box[0] is not None:
            value, s_, m, why, cands = in_box
    return ChestRead(value, round(s_, 3), round(m, 3), why, cands, round(px, 1), round(py, 1))


@dataclass
class ChestsSeen:
    """The chests a frame shows: ``spaces`` (space -> the chests lying there: ``("up", value)``, value
    ``None`` when its print is not read sure, or ``("down", None)``), ``aboard`` (ship -> its chest's
    value, ``0`` for an empty hold, ``None`` when a chest is aboard but its value not read sure) and
    ``unsure`` (a line for each chest not read sure) and ``maybe`` (the ships whose hold is not even sure to be
    laden: a sail of the lids' colour, a ship that looks laden with no lid seen on its deck, lid colour on the deck
    but no print; ``aboard`` ``None`` for them too: a print seen is a chest aboard, a lid alone is not sure). A chest not on any space, or where spaces meet, is in ``unsure`` and
    on no space; one lying across a line (a crowded port's chest pushed to its edge) is also in ``between``: the
    spaces it may lie on, its face and value (``(spaces, face, value)``), for whoever knows how many lie where (the
    game) to place it."""

    spaces: dict[int, list[tuple[str, int | None]]] = field(default_factory=dict)
    aboard: dict[str, int | None] = field(default_factory=dict)
    unsure: list[str] = field(default_factory=list)
    maybe: set[str] = field(default_factory=set)
    between: list[tuple[tuple[int, ...], str, int | None]] = field(default_factory=list)


def chests_seen(frame: np.ndarray, to_image, empty: np.ndarray, empty_ppm: float, book: ValueBook,
                pieces: Sequence, ships: Iterable[str], watch: "ChestWatch | None" = None) -> ChestsSeen:
    """The chests among ``pieces`` (``vision.boardpieces.PieceSeen``: templates of kind ``chest``, face down
    when the name says ``down``) and aboard the pieces named in ``ships``: a ship whose best template is
    one enrolled carrying a chest (kind ``ship laden``) with no print seen on its deck is unsure, not empty.
    With ``watch`` (a :class:`ChestWatch` of this board), a chest or ship that stands where it stood when last
    read, its window's pixels unchanged, keeps that reading (an incremental update reads only what changed)."""
    out = ChestsSeen()
    ships = set(ships)
    lone = [p for p in pieces if p.kind == "chest"]
    up = [p for p in lone if p.space is not None and "down" not in (p.name or "")]
    upk = {id(p): k for k, p in enumerate(up)}
    aboard = [p for p in pieces if p.name in ships]
    if watch is not None:
        watch.begin(frame, to_image, [(p.x_mm, p.y_mm) for p in up], [(p.x_mm, p.y_mm) for p in aboard])
    for p in lone:
        if p.space is None:
            out.unsure.append(T("a chest at ({x}, {y}) mm: {why}", x=format(p.x_mm, ".0f"), y=format(p.y_mm, ".0f"), why=p.unsure or T("on no space")))
            across = tuple(c for c in (p.candidates or ()) if isinstance(c, (int, np.integer)))
            if len(across) > 1:  # named, on a line between spaces: which one, the game's counts tell
                face = "down" if "down" in (p.name or "") else "up"
                value = None if face == "down" else \
                    read_value(frame, to_image, empty, empty_ppm, book, (p.x_mm, p.y_mm)).value
                out.between.append((tuple(int(c) for c in across), face, value))
            continue
        if "down" in (p.name or ""):
            out.spaces.setdefault(p.space, []).append(("down", None))
            continue
        k = upk[id(p)]
        r = watch.kept("up", k) if watch is not None else _MISS
        if r is _MISS:
            r = read_value(frame, to_image, empty, empty_ppm, book, (p.x_mm, p.y_mm))
            if watch is not None:
                watch.keep("up", k, r)
        if r.unsure:
            out.unsure.append(T("the chest on space {space}: {why}", space=p.space, why=r.unsure))
        out.spaces.setdefault(p.space, []).append(("up", r.value))
    for k, p in enumerate(aboard):
        others = [(q.x_mm, q.y_mm) for q in pieces if q is not p and (q.kind == "chest" or q.name in ships)]
        r = watch.kept("ship", k, _near((p.x_mm, p.y_mm), others)) if watch is not None else _MISS
        if r is _MISS:
            r = read_aboard(frame, to_image, empty, empty_ppm, book, (p.x_mm, p.y_mm), others_mm=others)
            if watch is not None:
                watch.keep("ship", k, r)
        laden = (p.kind or "").endswith("laden")  # the ship's best template is the one enrolled carrying a chest
        if r is None and laden:  # no print seen on the deck, but it looks laden: not sure
            # nor sure it is laden: the look may be a chest touching the ship in port, taken with it (the pieces'
            # reader's blob), or a chest wholly under the sail (tablehub.tracking.holds: the history answers)
            out.aboard[p.name] = None
            out.maybe.add(p.name)
            out.unsure.append(T("the chest aboard {ship}: the ship looks laden but no printed value is seen", ship=p.name))
            continue
        out.aboard[p.name] = 0 if r is None else r.value
        if r is not None and (r.maybe_empty or r.lid_only):
            out.maybe.add(p.name)
        if r is not None and r.unsure:
            out.unsure.append(T("the chest aboard {ship}: {why}", ship=p.name, why=r.unsure))
    if watch is not None:
        watch.end()
    return out


_MISS = object()  # no kept reading


def _near(c: tuple[float, float], others: Sequence[tuple[float, float]], aboard_mm: float = 17.0
          ) -> tuple[tuple[float, float], ...]:
    """The pieces near enough a ship to share its deck's window (:func:`read_aboard`: a lid nearer them is
    theirs), sorted: part of what a ship's kept reading depends on."""
    return tuple(sorted((float(x), float(y)) for x, y in others
                        if np.hypot(x - c[0], y - c[1]) < 2 * (aboard_mm + 1)))


class ChestWatch:
    """The chests of one board read frame after frame (pass it to :func:`chests_seen`): a chest's reading (a
    face-up chest's value, a ship's hold) is kept while its piece stands where it stood (within ``moved_mm``)
    and its window's pixels in the frame did not change: the window's part of the frame, shrunk as the board
    watch shrinks frames (``vision.boardwatch``: the sensor's noise averaged out), differs from the last read's
    by at most ``change`` levels in every channel (a hand, a chest put down or taken, a ship beside it moving all change it). So an
    incremental update reads only the chests the move touched; a bumped board moves every window in the frame
    and reads them all. No rules, no board: only pixels and board mm. ``read`` and ``kept`` count the
    readings made and kept (``tablehub bench boards``)."""

    def __init__(self, change: float = 10.0, moved_mm: float = 1.0):
        self.change, self.moved_mm = change, moved_mm
        # per kind (``up``, ``ship``): (centre mm, window's box in the frame, its pixels shrunk, the reading,
        # the pieces near it)
        self._last: dict[str, list[tuple]] = {"up": [], "ship": []}
        self._now: dict[str, list] = {"up": [], "ship": []}
        self.read = self.kept_n = 0

    def reset(self) -> None:
        self._last = {"up": [], "ship": []}

    def begin(self, frame: np.ndarray, to_image, up_mm: Sequence[tuple[float, float]],
              ships_mm: Sequence[tuple[float, float]]) -> None:
        """This frame's windows: where each face-up chest's and each ship's window lies in the frame (one
        mapping for them all), and its pixels shrunk."""
        self._frame = frame
        self._now = {"up": [], "ship": []}
        todo = [("up", c, CHEST_WINDOW_MM) for c in up_mm] + [("ship", c, SHIP_WINDOW_MM) for c in ships_mm]
        if not todo:
            return
        corners = np.float64([[x + sx * h, y + sy * h] for _, (x, y), h in todo
                              for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        px = np.asarray(to_image(corners), np.float64).reshape(-1, 4, 2)
        fh, fw = frame.shape[:2]
        for (what, c, _), q in zip(todo, px):
            if not np.all(np.isfinite(q)):
                box = (0, 0, 0, 0)
            else:
                s = SHRINK
                x0, y0 = max(0, int(q[:, 0].min()) // s * s), max(0, int(q[:, 1].min()) // s * s)
                x1, y1 = min(fw, int(np.ceil(q[:, 0].max()))), min(fh, int(np.ceil(q[:, 1].max())))
                box = (x0, y0, x0 + max(0, x1 - x0) // s * s, y0 + max(0, y1 - y0) // s * s)
            self._now[what].append((tuple(c), box, None, _MISS, ()))

    def _small(self, box: tuple[int, int, int, int]) -> np.ndarray | None:
        x0, y0, x1, y1 = box
        return None if x1 <= x0 or y1 <= y0 else _shrink(self._frame, box)

    def _same(self, a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]) -> bool:
        return len(a) == len(b) and all(np.hypot(p[0] - q[0], p[1] - q[1]) <= self.moved_mm for p, q in zip(a, b))

    def kept(self, what: str, k: int, near: tuple = ()):
        """The reading kept for this frame's ``k``-th piece of ``what`` (``up``: a face-up chest, ``ship``: with
        the pieces ``near`` it), or :data:`_MISS` (it must be read)."""
        c, box, _, _, _ = self._now[what][k]
        small = self._small(box)
        self._now[what][k] = (c, box, small, _MISS, near)
        if small is None:
            return _MISS
        for lc, lbox, lsmall, lread, lnear in self._last[what]:
            if lbox != box or lsmall is None or not self._same([lc], [c]) or not self._same(lnear, near):
                continue
            if float(cv2.absdiff(small, lsmall).max()) <= self.change:
                self._now[what][k] = (c, box, small, lread, near)
                self.kept_n += 1
                return lread
        return _MISS

    def keep(self, what: str, k: int, reading) -> None:
        c, box, small, _, near = self._now[what][k]
        self._now[what][k] = (c, box, small, reading, near)
        self.read += 1

    def end(self) -> None:
        self._last = {w: [e for e in v if e[3] is not _MISS] for w, v in self._now.items()}
        self._frame = None
