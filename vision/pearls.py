"""The pearl a Tahiti boat on the map carries, read from the straightened board (for a finished table scored from
one photo: ``tablehub score --photo IMG --game tahiti``; the live tracker knows each boat's pearl from the game).

The board camera (:mod:`vision.boardpieces`) finds each boat and its player's colour; it enrols one template per
colour, whatever the boat carries, so it does not say the pearl. The pearl lies in the middle of the boat (the
rule book's four colours: green, white, black, blue). It is read from the board's picture brought to the empty
board's light (:func:`vision.boardpieces.match_light`), as CIE Lab in a 3.5 mm window at the boat's centre (the
median: a pearl's rim and a little of the hull do not move it), by what the four colours are, not by enrolled
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
#: the window read at a boat's centre (mm, a side)
WINDOW_MM = 3.5
#: chroma (Lab a*b* length) below which a colour is white, grey or black; above ``COLOURED`` it has a hue
NEUTRAL, COLOURED = 14.0, 20.0
#: lightness (L*, 0-100) at least white's, at most black's
WHITE_L, BLACK_L = 58.0, 32.0
#: hues (degrees of a*b*) of green and blue; a hue within ``HUE_SURE`` of one is that pearl, within ``HUE_NEAR`` maybe
HUES = {"green": 135.0, "blue": 275.0}
HUE_SURE, HUE_NEAR = 40.0, 60.0


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
    """The pearl of one colour (module docstring)."""
    c = math.hypot(a, b)
    hue = math.degrees(math.atan2(b, a)) % 360.0
    lab = (round(L, 1), round(a, 1), round(b, 1))
    hued = sorted(HUES, key=lambda k: _hue_gap(hue, HUES[k]))
    light = ("white", "black") if L >= (WHITE_L + BLACK_L) / 2 else ("black", "white")
    if L <= BLACK_L and c < COLOURED:   # dark: a little colour is the hull's light or noise on a black pearl
        return PearlSeen("black", ("black",), lab)
    if c <= NEUTRAL:
        if L >= WHITE_L:
            return PearlSeen("white", ("white",), lab)
        if L <= BLACK_L:
            return PearlSeen("black", ("black",), lab)
        return PearlSeen(None, light + tuple(hued), lab, "grey")
    if c >= COLOURED:
        best = hued[0]
        gap = _hue_gap(hue, HUES[best])
        if gap <= HUE_SURE:
            return PearlSeen(best, (best,), lab)
        if gap <= HUE_NEAR:
            return PearlSeen(None, (best,) + light + (hued[1],), lab, "hue between")
        return PearlSeen(None, tuple(hued) + light, lab, "the hull's colour")
    return PearlSeen(None, light + tuple(hued), lab, "faint colour")


def read_pearl(lab: np.ndarray, x_mm: float, y_mm: float, ppm: float) -> PearlSeen:
    """The pearl at board point ``x_mm, y_mm`` of ``lab`` (:func:`lab_canvas` of the board at ``ppm`` px/mm)."""
    r = max(1, int(round(WINDOW_MM * ppm / 2)))
    h, w = lab.shape[:2]
    x, y = int(round(x_mm * ppm)), int(round(y_mm * ppm))
    win = lab[max(0, y - r):min(h, y + r + 1), max(0, x - r):min(w, x + r + 1)].reshape(-1, 3)
    if not len(win):
        return PearlSeen(None, PEARLS, (0.0, 0.0, 0.0), "off the board")
    L, a, b = (float(v) for v in np.median(win, axis=0))
    return classify(L, a, b)
