"""The pearl a Tahiti boat on the map carries, read from the straightened board (for a finished table scored from
one photo: ``tablehub score --photo IMG --game tahiti``; the live tracker knows each boat's pearl from the game).

The board camera (:mod:`vision.boardpieces`) finds each boat and its player's colour; it enrols one template per
colour, whatever the boat carries, so it does not say the pearl. The pearl lies in the middle of the boat (the
rule book's four colours: green, white, black, blue). It is read from the board's picture brought to the empty
board's light (:func:`vision.boardpieces.match_light`), as CIE Lab in a 4 mm disc at the boat's middle (the half of
its pixels least like the hull round it, their median: a small pearl blurred into its hull, its rim), by what the four colours are, not by enrolled
paints: **white** light and without colour, **black** dark and without colour, **green** a green hue, **blue** a
blue hue. A window whose colour is none of them clearly (the hull's own colour: the boat found off its middle, or
a grey between white and black) is unsure, with the pearls it may be, nearest first.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

PEARLS = ("green", "white", "black", "blue")
#: the disc read at a boat's middle (mm across) and the ring round it that is the hull (mm from the middle)
WINDOW_MM = 4.0
HULL_RING_MM = (4.0, 5.5)
#: lightness (L*, 0-100) at most a black pearl's (dark pixels' hue means nothing: the hull's light, noise)
BLACK_L = 25.0
#: a white pearl: at least this light, its chroma (a*b* length) under ``WHITE_CHROMA`` (the hull's colour blurred in
#: and the light's cast leave it some)
WHITE_L, WHITE_CHROMA = 60.0, 32.0
#: hues (degrees of a*b*) of green and blue, how far from them a pearl's hue may lie, and the chroma it needs
HUES = {"green": 135.0, "blue": 275.0}
HUE_GAP = {"green": 40.0, "blue": 45.0}
HUE_CHROMA = {"green": 18.0, "blue": 8.0}
#: a blue pearl is darker than a white one
BLUE_MAX_L = 65.0


@dataclass
class PearlSeen:
    """``pearl`` (``None``: unsure), the pearls it may be nearest first (``candidates``), the window's Lab and why
    it is unsure."""

    pearl: str | None
    candidates: tuple[str, ...]
    lab: tuple[float, float, float]
    why: str = ""


def lab_canvas(canvas: np.ndarray) -> np.ndarray:
    """A BGR board picture as CIE Lab floats (L* 0-100, a* and b* round 0)."""
    lab = cv2.cvtColor(canvas, cv2.COLOR_BGR2Lab).astype(np.float32)
    lab[..., 0] *= 100.0 / 255.0
    lab[..., 1:] -= 128.0
    return lab


def _hue_gap(h: float, centre: float) -> float:
    return abs((h - centre + 180.0) % 360.0 - 180.0)


def classify(L: float, a: float, b: float) -> PearlSeen:
    """The pearl of one colour (module docstring): dark is black; a green or blue hue with enough colour is that
    pearl; light with little colour is white; anything else (the hull's own colour, a grey) is unsure, with every
    pearl as a candidate, the likelier first (by lightness, then hue)."""
    c = math.hypot(a, b)
    hue = math.degrees(math.atan2(b, a)) % 360.0
    lab = (round(L, 1), round(a, 1), round(b, 1))
    if L <= BLACK_L:
        return PearlSeen("black", ("black",), lab)
    for name in ("green", "blue"):
        if _hue_gap(hue, HUES[name]) <= HUE_GAP[name] and c >= HUE_CHROMA[name] and (name != "blue" or L < BLUE_MAX_L):
            return PearlSeen(name, (name,), lab)
    if L >= WHITE_L and c < WHITE_CHROMA:
        return PearlSeen("white", ("white",), lab)
    hued = tuple(sorted(HUES, key=lambda k: _hue_gap(hue, HUES[k])))
    light = ("white",) + hued + ("black",) if L >= (WHITE_L + BLACK_L) / 2 else ("black",) + hued + ("white",)
    return PearlSeen(None, light, lab, "the hull's colour" if c >= WHITE_CHROMA else "grey")


def read_pearl(lab: np.ndarray, x_mm: float, y_mm: float, ppm: float) -> PearlSeen:
    """The pearl at board point ``x_mm, y_mm`` of ``lab`` (:func:`lab_canvas` of the board at ``ppm`` px/mm): of the
    disc at the boat's middle, the pixels least like the hull round it (a ring 4-5.5 mm out: the blur of a small
    pearl mixes the hull's colour into it), their median."""
    h, w = lab.shape[:2]
    R = int(math.ceil(HULL_RING_MM[1] * ppm))
    x, y = int(round(x_mm * ppm)), int(round(y_mm * ppm))
    x0, y0, x1, y1 = max(0, x - R), max(0, y - R), min(w, x + R + 1), min(h, y + R + 1)
    if x1 <= x0 or y1 <= y0:
        return PearlSeen(None, PEARLS, (0.0, 0.0, 0.0), "off the board")
    yy, xx = np.mgrid[y0:y1, x0:x1]
    r = np.hypot(xx - x, yy - y) / ppm
    win = lab[y0:y1, x0:x1]
    disc = win[r <= WINDOW_MM / 2].reshape(-1, 3)
    ring = win[(r >= HULL_RING_MM[0]) & (r <= HULL_RING_MM[1])].reshape(-1, 3)
    if not len(disc):
        return PearlSeen(None, PEARLS, (0.0, 0.0, 0.0), "off the board")
    if len(ring):
        hull = np.median(ring, axis=0)
        d = np.linalg.norm((disc - hull) * (0.5, 1.0, 1.0), axis=1)
        disc = disc[d >= np.percentile(d, 50)]
    L, a, b = (float(v) for v in np.median(disc, axis=0))
    return classify(L, a, b)


def nearest_other(L: float, a: float, b: float, pearl: str) -> tuple[str, float]:
    """The pearl other than ``pearl`` that the colour ``L, a, b`` is nearest to, and how far (a rough Lab distance to
    that class's edge: less colour for a hued pearl read, a hue for a neutral one): which of several boats read with
    one pearl was likeliest another."""
    c = math.hypot(a, b)
    hue = math.degrees(math.atan2(b, a)) % 360.0
    if pearl in HUES:   # less colour: white or black by its lightness; or the other hue
        other = [k for k in HUES if k != pearl][0]
        neutral = "white" if L >= (WHITE_L + BLACK_L) / 2 else "black"
        by_hue = _hue_gap(hue, HUES[other]) - HUE_GAP[other]
        by_chroma = c - HUE_CHROMA[pearl]
        return (other, max(0.0, by_hue)) if by_hue < by_chroma else (neutral, max(0.0, by_chroma))
    if pearl == "white":
        hued = min(HUES, key=lambda k: _hue_gap(hue, HUES[k]))
        return hued, max(0.0, WHITE_CHROMA - c)
    return "blue", max(0.0, BLACK_L - L) + max(0.0, 20.0 - c)
