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

:func:`chests_seen` gathers a frame's chests (:class:`ChestsSeen`) for the tracker.

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

from tablehub.i18n import T  # what a phone reads (tablehub/locale/*/vision.po)

from . import VisionError
from .boardpieces import read_book

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
#: the half-side (mm) of the window cut round a chest on its own, and round a ship
CHEST_WINDOW_MM = 11.0
SHIP_WINDOW_MM = 20.0


def _lab(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor((np.clip(img, 0, 255) / 255).astype(np.float32), cv2.COLOR_BGR2Lab)


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


def _matched(win: np.ndarray, empty_win: np.ndarray) -> np.ndarray:
    """``win`` brought to the empty board's light: one gain per channel (the window is mostly board)."""
    a = np.median(win[::3, ::3].reshape(-1, 3), axis=0).astype(np.float32) + 1  # every third pixel: enough
    b = np.median(empty_win[::3, ::3].reshape(-1, 3), axis=0).astype(np.float32) + 1
    return np.clip(win.astype(np.float32) * (b / a), 0, 255)


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
            max_extent_mm: float = 9.0) -> list[_Print]:
    """The prints on lids: the dark marks inside each lid's outline (its convex hull), each no longer than
    ``max_extent_mm`` (a flag's stripe across a sail is longer)."""
    out = []
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
        dark = (inner & (grey < lid_grey - 25)).astype(np.uint8)
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
        near = ((grey < lid_grey - 25) & (wide > 0) & changed).astype(np.uint8)
        m2, ml = cv2.connectedComponents(near, connectivity=8)
        marks = (np.isin(ml, np.unique(ml[seeds & (near > 0)])) & (ml > 0)) | seeds
        ys, xs = np.nonzero(marks)
        if max(np.ptp(xs), np.ptp(ys)) <= max_extent_mm * ppm:
            x, y = float(xs.mean()), float(ys.mean())
        else:  # ran into something dark beside the chest: the marks inside the lid's outline only
            marks = seeds
        marks = marks.astype(np.uint8)
        grown = cv2.dilate(marks, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(ppm) | 1,) * 2))
        ink = np.clip(lid_grey - grey.astype(np.float32), 0, 120) * grown
        out.append(_Print(float(x), float(y), area, float(a.sum()) / (ppm * ppm), _axis_deg(comp), ink))
    out.sort(key=lambda t: -t.lid_mm2)
    return out


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
    _turned: dict = field(default_factory=dict, repr=False, compare=False)

    def turned(self) -> tuple[list[int], np.ndarray]:
        if not self._turned:
            vals = sorted(self.patches)
            self._turned["v"] = (vals, [_turns(self.patches[v]) for v in vals])
        return self._turned["v"]

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"format": VALUES_FORMAT, "read_ppm": READ_PPM, "lid_lab": [round(float(v), 2) for v in self.lid_lab],
                "lid_mm2": round(self.lid_mm2, 1),
                "values": {str(v): p.astype(int).tolist() for v, p in sorted(self.patches.items())}}
        path.write_text(json.dumps(data) + "\n")
        return path

    @classmethod
    def load(cls, path: str | Path) -> "ValueBook":
        path = Path(path)
        data = read_book(path, "chest value book", VALUES_FORMAT, "read_ppm", READ_PPM)
        try:
            lid = np.float32(data["lid_lab"])
            if lid.shape != (3,):
                raise ValueError("lid_lab must be 3 numbers")
            patches = {}
            for k, p in (data.get("values") or {}).items():
                arr = np.float32(p)
                if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
                    raise ValueError(f"values[{k}] must be a square patch")
                patches[int(k)] = arr
            area = float(data["lid_mm2"])
        except (KeyError, TypeError, ValueError) as e:
            raise VisionError(f"{path}: not a chest value book ({e})") from None
        if len(patches) < 2:
            raise VisionError(f"{path}: 'values' must hold at least 2 enrolled values")
        return cls(lid, patches, area)


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
        lab, elab = _lab(m), _lab(empty_win.astype(np.float32))
        d = lab - elab
        changed = (d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2) > 144  # Lab distance over 12
        return cls(lab, elab, cv2.cvtColor(m.astype(np.uint8), cv2.COLOR_BGR2GRAY), changed)


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
        raise VisionError("enrol chest values: give at least 2 face-up chests of different values")
    if len({v for v, _, _ in spots}) != len(spots):
        raise VisionError("enrol chest values: a value is given twice")
    lids, areas, patches = [], [], {}
    for value, x, y in spots:  # the lid colour: the light part of what differs from the empty board
        win = window(frame, to_image, (x, y), CHEST_WINDOW_MM)
        ewin = _empty_window(empty, empty_ppm, (x, y), CHEST_WINDOW_MM)
        m = _matched(win, ewin)
        lab, elab = _lab(m), _lab(ewin.astype(np.float32))
        changed = np.linalg.norm(lab - elab, axis=2) > 12
        changed = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)) > 0
        if changed.sum() < 20 * READ_PPM * READ_PPM:
            raise VisionError(f"enrol chest values: no chest found at ({x:.0f}, {y:.0f}) mm for the value {value} "
                              "(is it there, face up, and was the empty board enrolled under this camera?)")
        L = lab[..., 0][changed]
        light = changed & (lab[..., 0] >= np.percentile(L, 60))
        lids.append(np.median(lab[light], axis=0))
    lid = np.float32(np.median(np.stack(lids), axis=0))
    book = ValueBook(lid, {}, 1.0)
    for value, x, y in spots:
        win = window(frame, to_image, (x, y), CHEST_WINDOW_MM)
        ewin = _empty_window(empty, empty_ppm, (x, y), CHEST_WINDOW_MM)
        found = _read_window(_Window.of(win, ewin), book, tol)
        if not found:
            raise VisionError(f"enrol chest values: the chest at ({x:.0f}, {y:.0f}) mm shows no printed value "
                              f"(is the {value} chest face up there?)")
        c = CHEST_WINDOW_MM * READ_PPM
        pr, patch = min(found, key=lambda f: np.hypot(f[0].x - c, f[0].y - c))
        areas.append(pr.lid_mm2)
        k = int(round(SHIFT_MM * READ_PPM))
        patches[value] = patch[k:-k, k:-k].astype(np.float32)
    return ValueBook(lid, patches, float(np.median(areas)))


@dataclass
class ChestRead:
    """What is read of one chest: ``value`` (``None`` when unsure), ``score`` and ``margin`` of the match,
    ``unsure`` (why, or empty), the candidate values when unsure, and where the print is (board mm)."""

    value: int | None
    score: float
    margin: float
    unsure: str = ""
    candidates: tuple[int, ...] = ()
    x_mm: float = 0.0
    y_mm: float = 0.0


def _score(patch: np.ndarray, book: ValueBook, min_margin: float, min_score: float
           ) -> tuple[int | None, float, float, str, tuple[int, ...]]:
    vals, turned = book.turned()
    if turned[0][0].shape[0] >= patch.shape[0]:
        raise VisionError(T("chest values: the value book was enrolled at another patch size: enrol again"))
    q = patch.astype(np.float32)
    # the best turn and shift of each value (normalised correlation)
    best_per = np.float32([max(float(cv2.matchTemplate(q, t, cv2.TM_CCOEFF_NORMED).max()) for t in turns)
                           for turns in turned])
    order = np.argsort(-best_per)
    b, r = float(best_per[order[0]]), float(best_per[order[1]])
    value, other = vals[order[0]], vals[order[1]]
    if b < min_score:
        return None, b, b - r, f"print not read: best {value} ({b:.2f})", (value, other)
    if b - r < min_margin:
        return None, b, b - r, f"{value} ({b:.2f}) or {other} ({r:.2f})?", (value, other)
    return value, b, b - r, "", ()


def read_value(frame: np.ndarray, to_image, empty: np.ndarray, empty_ppm: float, book: ValueBook,
               centre_mm: tuple[float, float], min_margin: float = MIN_MARGIN, min_score: float = MIN_SCORE,
               tol: float = TOLERANCE) -> ChestRead:
    """The value printed on the face-up chest standing at ``centre_mm``."""
    win = window(frame, to_image, centre_mm, CHEST_WINDOW_MM)
    ewin = _empty_window(empty, empty_ppm, centre_mm, CHEST_WINDOW_MM)
    found = _read_window(_Window.of(win, ewin), book, tol)
    x0, y0 = centre_mm[0] - CHEST_WINDOW_MM, centre_mm[1] - CHEST_WINDOW_MM
    if not found:
        return ChestRead(None, 0.0, 0.0, "no printed value seen on the lid", (), *centre_mm)
    c = CHEST_WINDOW_MM * READ_PPM
    pr, patch = min(found, key=lambda f: np.hypot(f[0].x - c, f[0].y - c))
    value, s, m, why, cands = _score(patch, book, min_margin, min_score)
    return ChestRead(value, round(s, 3), round(m, 3), why, cands, round(x0 + pr.x / READ_PPM, 1),
                     round(y0 + pr.y / READ_PPM, 1))


def _ship_axis(w: _Window) -> float | None:
    """The long axis of the largest thing in the window that differs from the empty board (the ship's hull)."""
    changed = cv2.morphologyEx(w.changed.astype(np.uint8), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
    if n < 2:
        return None
    big = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return _axis_deg(labels == big)


def read_aboard(frame: np.ndarray, to_image, empty: np.ndarray, empty_ppm: float, book: ValueBook,
                ship_mm: tuple[float, float], aboard_mm: float = 17.0,
                others_mm: Iterable[tuple[float, float]] = (), min_margin: float = MIN_MARGIN,
                min_score: float = MIN_SCORE, tol: float = TOLERANCE) -> ChestRead | None:
    """The chest aboard the ship standing at ``ship_mm``: ``None`` for an empty hold. A print nearer one of
    ``others_mm`` (chests standing on their own beside the ship) than the ship's centre is theirs."""
    win = window(frame, to_image, ship_mm, SHIP_WINDOW_MM)
    ewin = _empty_window(empty, empty_ppm, ship_mm, SHIP_WINDOW_MM)
    x0, y0 = ship_mm[0] - SHIP_WINDOW_MM, ship_mm[1] - SHIP_WINDOW_MM
    others = [tuple(o) for o in others_mm]
    mine = []
    w = _Window.of(win, ewin)
    for pr, patch in _read_window(w, book, tol, _ship_axis(w)):
        bx, by = x0 + pr.x / READ_PPM, y0 + pr.y / READ_PPM
        d = float(np.hypot(bx - ship_mm[0], by - ship_mm[1]))
        if d > aboard_mm or any(np.hypot(bx - ox, by - oy) < d for ox, oy in others):
            continue
        mine.append((d, bx, by, patch))
    if not mine:
        return None
    d, bx, by, patch = min(mine, key=lambda m: m[0])
    value, s, m, why, cands = _score(patch, book, min_margin, min_score)
    return ChestRead(value, round(s, 3), round(m, 3), why, cands, round(bx, 1), round(by, 1))


@dataclass
class ChestsSeen:
    """The chests a frame shows: ``spaces`` (space -> the chests lying there: ``("up", value)``, value
    ``None`` when its print is not read sure, or ``("down", None)``), ``aboard`` (ship -> its chest's
    value, ``0`` for an empty hold, ``None`` when a chest is aboard but its value not read sure) and
    ``unsure`` (a line for each chest not read sure). A chest not on any space, or where spaces meet, is
    in ``unsure`` and on no space."""

    spaces: dict[int, list[tuple[str, int | None]]] = field(default_factory=dict)
    aboard: dict[str, int | None] = field(default_factory=dict)
    unsure: list[str] = field(default_factory=list)


def chests_seen(frame: np.ndarray, to_image, empty: np.ndarray, empty_ppm: float, book: ValueBook,
                pieces: Sequence, ships: Iterable[str]) -> ChestsSeen:
    """The chests among ``pieces`` (``vision.boardpieces.PieceSeen``: templates of kind ``chest``, face down
    when the name says ``down``) and aboard the pieces named in ``ships``: a ship whose best template is
    one enrolled carrying a chest (kind ``ship laden``) with no print seen on its deck is unsure, not empty."""
    out = ChestsSeen()
    ships = set(ships)
    lone = [p for p in pieces if p.kind == "chest"]
    for p in lone:
        if p.space is None:
            out.unsure.append(f"a chest at ({p.x_mm:.0f}, {p.y_mm:.0f}) mm: {p.unsure or 'on no space'}")
            continue
        if "down" in (p.name or ""):
            out.spaces.setdefault(p.space, []).append(("down", None))
            continue
        r = read_value(frame, to_image, empty, empty_ppm, book, (p.x_mm, p.y_mm))
        if r.unsure:
            out.unsure.append(f"the chest on space {p.space}: {r.unsure}")
        out.spaces.setdefault(p.space, []).append(("up", r.value))
    for p in pieces:
        if p.name not in ships:
            continue
        r = read_aboard(frame, to_image, empty, empty_ppm, book, (p.x_mm, p.y_mm),
                        others_mm=[(q.x_mm, q.y_mm) for q in lone])
        laden = (p.kind or "").endswith("laden")  # the ship's best template is the one enrolled carrying a chest
        if r is None and laden:  # no print seen on the deck, but it looks laden: not sure
            out.aboard[p.name] = None
            out.unsure.append(f"the chest aboard {p.name}: the ship looks laden but no printed value is seen")
            continue
        out.aboard[p.name] = 0 if r is None else r.value
        if r is not None and r.unsure:
            out.unsure.append(f"the chest aboard {p.name}: {r.unsure}")
    return out
