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
and cost another (docs/vision.md, "Südsee on the field camera"), so the recogniser reads in neutral light only
when asked (``Recognizer.neutral_light``).

The enrolment stores its paper white (``ReferenceSet.meta["white_bgr"]``); asked to, the recogniser turns
its references and player colours into neutral light once (:func:`neutral_gains`) and every frame
likewise (its mat's colour against the enrolment's, then the enrolment's neutral gains).
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
