"""The light's colour in a frame, from what every frame holds: the markers' white paper.

Paper is white under any light, so the colour of the markers' quiet zone in a frame is the light's
cast (and the camera's white balance). Per-channel gains that make it grey put a picture in neutral
light, as a scanner sees a tile.

Why it was built (issue 14, the field camera): the references and the player colours are learnt under the
enrolment session's light and read by balancing each frame to it (the mat's colour). Under the field camera's
warm light Südsee's red reef and sand lie near the red and yellow player colours, and bare tiles were read as
partly covered there (their glyph twins guessed). Turned into neutral light by the enrolment's paper white, the
share of the drawn art within 20 Lab units of the yellow figure fell from 0.2 % to 0 and of the red from 14 %
to 10 %, but of the blue rose from 1.7 % to 3.5 % (one enrolment at ``hard``); on the bench it helped one seed
and cost another (docs/history/vision-measured.md, "Südsee on the field camera"), so the recogniser reads in
neutral light only when asked (``Recognizer.neutral_light``).

The enrolment stores its paper white (``ReferenceSet.meta["white_bgr"]``); asked to, the recogniser turns
its references and player colours into neutral light once (:func:`neutral_gains`) and every frame
likewise (its mat's colour against the enrolment's, then the enrolment's neutral gains).

:func:`toward_paint` judges a picture's colour against the art under it in the frame's light: whether a pixel moved
from the tile's reference toward a player's paint (the figure finder's strong pixels where a figure's colour lies near
the art's, a yellow figure on sand).
"""
from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

MapFn = Callable[[np.ndarray], np.ndarray]

CLIPPED = 250
"""A pixel with a channel this bright or brighter is taken as clipped: its colour is not the light's."""

GAIN_RANGE = (0.5, 2.0)
"""Neutral gains are clipped to this: a paper white further off is not paper (a marker covered, a reflection)."""


def paper_white(frame: np.ndarray, to_frame: MapFn, mat) -> np.ndarray | None:
    """BGR of the markers' white quiet zone (a ring one marker cell wide around each marker, the part in
    view), or None when too little of it is in view. ``mat``: a :class:`vision.mat.Mat`."""
    pts = []
    t = np.linspace(-1.0, 1.0, 17)
    for mid in mat.marker_ids:
        cx, cy = mat.marker_centre(mid)
        half = mat.marker_mm / 2 * (1 + 0.6 / 3)     # the middle of the quiet zone (1/6 marker wide)
        ring = np.concatenate([np.column_stack([cx + half * t, np.full_like(t, cy - half)]),
                               np.column_stack([cx + half * t, np.full_like(t, cy + half)]),
                               np.column_stack([np.full_like(t, cx - half), cy + half * t]),
                               np.column_stack([np.full_like(t, cx + half), cy + half * t])])
        pts.append(ring)
    fr = np.round(to_frame(np.concatenate(pts))).astype(int)
    h, w = frame.shape[:2]
    ok = (fr[:, 0] >= 0) & (fr[:, 0] < w) & (fr[:, 1] >= 0) & (fr[:, 1] < h)
    if ok.sum() < 24:
        return None
    px = frame[fr[ok, 1], fr[ok, 0]].astype(np.float32)
    unclipped = px.max(axis=1) < CLIPPED
    if unclipped.sum() >= 24:
        px = px[unclipped]      # paper the camera clipped in one channel (warm light: red) says too little of it
    bright = px.sum(axis=1)
    px = px[bright >= np.percentile(bright, 40)]        # a finger or a shadow on a marker's edge: the rest
    return np.median(px, axis=0)


def neutral_gains(white_bgr) -> np.ndarray:
    """Per-channel (B, G, R) gains that turn ``white_bgr`` grey at its own mean brightness (ones when None)."""
    if white_bgr is None:
        return np.ones(3, np.float32)
    white = np.maximum(np.asarray(white_bgr, np.float32), 1.0)
    return np.clip(float(white.mean()) / white, *GAIN_RANGE).astype(np.float32)


def apply_gains(images: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``images`` (uint8 BGR, any leading shape) with each channel scaled by ``gains``, rounded and clipped."""
    return np.clip(np.rint(images.astype(np.float32) * np.asarray(gains, np.float32)), 0, 255).astype(np.uint8)


def lab_under_gains(lab: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """Lab colours (OpenCV's 8-bit scaling: L 0..255, a and b centred on 128; shape (n, 3)) as they look once
    their BGR is scaled by ``gains``."""
    lab = np.asarray(lab, np.float32).reshape(-1, 1, 3)
    f = np.empty_like(lab)
    f[..., 0] = lab[..., 0] * (100.0 / 255.0)
    f[..., 1:] = lab[..., 1:] - 128.0
    bgr = cv2.cvtColor(f, cv2.COLOR_Lab2BGR) * np.asarray(gains, np.float32)
    out = cv2.cvtColor(np.clip(bgr, 0.0, 1.0).astype(np.float32), cv2.COLOR_BGR2Lab)
    out[..., 0] *= 255.0 / 100.0
    out[..., 1:] += 128.0
    return out.reshape(-1, 3)


def lab_to_bgr(lab) -> np.ndarray:
    """BGR (float32, shape (n, 3)) of Lab colours in OpenCV's 8-bit scaling (as :attr:`PlayerColour.lab`)."""
    arr = np.clip(np.rint(np.asarray(lab, np.float32).reshape(-1, 1, 3)), 0, 255).astype(np.uint8)
    return cv2.cvtColor(arr, cv2.COLOR_Lab2BGR).reshape(-1, 3).astype(np.float32)


TOWARD_SHARE = (0.5, 2.0)
"""A pixel of a figure has moved from the art under it this share of the way to its paint, or more (a figure's rim
blends with the art; its lit top lies beyond its calibrated paint)."""


def toward_paint(observed: np.ndarray, expected: np.ndarray, paint_bgr: np.ndarray, nearest: np.ndarray,
                 factor: float, known: np.ndarray | None = None, where: np.ndarray | None = None) -> np.ndarray:
    """Where ``observed`` (float BGR) has moved from the art ``expected`` there (the tile's reference in the frame's
    light, same size) toward the paint of its nearest player colour (``paint_bgr`` (n, 3), ``nearest`` the index per
    pixel): by more than ``factor`` times the frame's noise along that line (its sd, from the median absolute
    difference over ``known``), :data:`TOWARD_SHARE` of the way, and less across the line than along it.

    A fixed bar on the difference (B+G+R, or the colour alone) is set by the noise of every channel at once, and by
    the whole difference a figure makes against any art; a figure of a colour near the art under it (a yellow figure
    on a Südsee sand island, at ``field/hard``: B+G+R 60-78 against a bar of 78, the colour 16-21 against 23) stays
    under it. Along the one line from the art to the paint the noise is a third of the B+G+R sum's, and the figure's
    move stands 6-8 sd clear of it. The darkest colour is the caller's to leave out (every shadow moves toward it).
    ``where``: the pixels to judge (the others are False; the noise is still the whole image's).

    >>> art = np.full((1, 3, 3), (120.0, 190.0, 205.0), np.float32)          # sand
    >>> paint = np.array([[28.0, 196.0, 232.0]], np.float32)                  # yellow
    >>> obs = art.copy(); obs[0, 1] = 0.4 * art[0, 1] + 0.6 * paint[0]         # a figure's rim: 60 % paint
    >>> obs[0, 2] += (30.0, -30.0, 0.0)                                         # as large a change, elsewhere
    >>> toward_paint(obs, art, paint, np.zeros((1, 3), int), 4.0, np.ones((1, 3), bool)).tolist()
    [[False, True, False]]
    """
    d = observed.astype(np.float32) - expected.astype(np.float32)
    if d.shape[0] > 2 and d.shape[1] > 2:
        d = cv2.GaussianBlur(d, (0, 0), 0.8)
    use = d if known is None or not known.any() else d[known]
    sd = max(1.4826 * float(np.median(np.abs(use))), 1.0)
    out = np.zeros(d.shape[:-1], bool)
    if where is None:
        where = np.ones(out.shape, bool)
    d, ref = d[where], expected[where].astype(np.float32)
    e = paint_bgr[nearest[where]] - ref
    ee = np.maximum((e * e).sum(axis=-1), 1.0)
    de = (d * e).sum(axis=-1)
    share = de / ee
    along = de / np.sqrt(ee)
    across = d - share[..., None] * e
    across = np.sqrt((across * across).sum(axis=-1))
    # and not the art dimmed or brightened (a shadow, a figure's dark rim over sea moves it toward a dark paint): what
    # the picture differs from the art scaled to it by its best factor
    obs = ref + d
    k = (obs * ref).sum(axis=-1) / np.maximum((ref * ref).sum(axis=-1), 1.0)
    unscaled = obs - k[..., None] * ref
    unscaled = np.sqrt((unscaled * unscaled).sum(axis=-1))
    out[where] = ((share >= TOWARD_SHARE[0]) & (share <= TOWARD_SHARE[1]) & (along > factor * sd) & (across < along)
                  & (unscaled > factor * sd))
    return out
