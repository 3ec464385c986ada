"""Editing traced board spaces: the geometry behind the owner's corrections (no rules).

A traced space is a polygon in board millimetres (``vision.boards.trace_board``). When the
owner corrects the proposal on the phone, two spaces the tracer cut apart become one
(:func:`merge_outlines`: the union of the two outlines, drawn on a mask and traced again),
one it ran together becomes two (:func:`split_outline`: cut by a straight line, by default
across its longer axis through its centre, :func:`longer_axis_cut`), and the halves' new
neighbours are found as the tracer finds them (:func:`contact_mm`: the length over which two
outlines face each other).
"""
from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from tablehub.i18n import T  # what a phone reads (tablehub/locale/*/vision.po)

from . import VisionError

Point = tuple[float, float]

#: mask resolution for unions and contacts (pixels per millimetre)
PX_PER_MM = 4.0


def _frame(polys: Sequence[Sequence[Sequence[float]]], margin_mm: float) -> tuple[np.ndarray, tuple[int, int]]:
    """An empty mask covering ``polys`` with ``margin_mm`` round them, and its top-left corner in mm."""
    pts = np.concatenate([np.asarray(p, np.float64).reshape(-1, 2) for p in polys])
    lo = np.floor(pts.min(axis=0) - margin_mm)
    hi = np.ceil(pts.max(axis=0) + margin_mm)
    w, h = (int((hi - lo)[0] * PX_PER_MM) + 1, int((hi - lo)[1] * PX_PER_MM) + 1)
    return np.zeros((h, w), np.uint8), (lo[0], lo[1])


def _fill(mask: np.ndarray, origin: tuple[float, float], poly: Sequence[Sequence[float]]) -> None:
    pts = np.round((np.asarray(poly, np.float64) - origin) * PX_PER_MM * 16).astype(np.int32)
    cv2.fillPoly(mask, [pts], 255, cv2.LINE_8, shift=4)


def _outline(mask: np.ndarray, origin: tuple[float, float]) -> list[Point]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        raise VisionError(T("the outline vanished (spaces too small to edit)"))
    c = max(contours, key=cv2.contourArea)
    poly = cv2.approxPolyDP(c, 0.5 * PX_PER_MM, True).reshape(-1, 2) / PX_PER_MM + np.asarray(origin)
    return [(round(float(x), 1), round(float(y), 1)) for x, y in poly]


def merge_outlines(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]], gap_mm: float = 3.0) -> list[Point]:
    """One outline round both spaces: their union, the printed line between them (up to
    ``gap_mm`` wide) filled in. Spaces further apart than that come out as the larger one's
    outline plus nothing: check with :func:`contact_mm` first."""
    mask, origin = _frame([a, b], gap_mm + 2)
    _fill(mask, origin, a)
    _fill(mask, origin, b)
    k = int(round(gap_mm * PX_PER_MM)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return _outline(mask, origin)


def longer_axis_cut(poly: Sequence[Sequence[float]]) -> tuple[Point, Point]:
    """The line that halves a space across its longer axis: through its centre of area,
    square to the direction in which the outline is longest (two points on it, in mm)."""
    pts = np.asarray(poly, np.float32).reshape(-1, 2)
    m = cv2.moments(pts)
    if abs(m["m00"]) < 1e-6:
        raise VisionError(T("the space has no area"))
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    angle = 0.5 * np.arctan2(2 * mu11, mu20 - mu02)  # the longer axis's direction
    nx, ny = -np.sin(angle), np.cos(angle)  # the cut runs square to it
    return (float(cx - 10 * nx), float(cy - 10 * ny)), (float(cx + 10 * nx), float(cy + 10 * ny))


def _clip(poly: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The part of ``poly`` on the left of the line p -> q (Sutherland-Hodgman on one half-plane)."""
    d = q - p
    side = d[0] * (poly[:, 1] - p[1]) - d[1] * (poly[:, 0] - p[0])
    out = []
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        sa, sb = side[i], side[(i + 1) % n]
        if sa >= 0:
            out.append(a)
        if (sa >= 0) != (sb >= 0):
            t = sa / (sa - sb)
            out.append(a + t * (b - a))
    return np.asarray(out, np.float64).reshape(-1, 2)


def split_outline(poly: Sequence[Sequence[float]], p: Sequence[float], q: Sequence[float],
                  min_mm2: float = 20.0) -> tuple[list[Point], list[Point]]:
    """The two parts of a space cut along the straight line through ``p`` and ``q`` (mm).
    Raises :class:`VisionError` when the line misses the space or leaves a sliver (< ``min_mm2``)."""
    pts = np.asarray(poly, np.float64).reshape(-1, 2)
    p_, q_ = np.asarray(p, np.float64), np.asarray(q, np.float64)
    if float(np.hypot(*(q_ - p_))) < 1e-6:
        raise VisionError(T("the cut needs two different points"))
    halves = []
    for a, b in ((p_, q_), (q_, p_)):
        part = _clip(pts, a, b)
        area = abs(cv2.contourArea(part.astype(np.float32))) if len(part) >= 3 else 0.0
        if area < min_mm2:
            raise VisionError(T("the line does not cut the space in two (tap two points on either side of it, "
                                "across the space)"))
        halves.append([(round(float(x), 1), round(float(y), 1)) for x, y in part])
    return halves[0], halves[1]


def contact_mm(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]], within_mm: float = 2.5) -> float:
    """About how long (mm) the outlines of ``a`` and ``b`` face each other across a gap of at
    most ``within_mm`` (a printed line): the area of ``b`` inside ``a`` grown by that gap,
    divided by the gap. Spaces meeting at a corner only give a few millimetres."""
    mask_a, origin = _frame([a, b], within_mm + 2)
    mask_b = mask_a.copy()
    _fill(mask_a, origin, a)
    _fill(mask_b, origin, b)
    k = int(round(2 * within_mm * PX_PER_MM)) | 1
    grown = cv2.dilate(mask_a, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    overlap = cv2.countNonZero(cv2.bitwise_and(grown, cv2.bitwise_and(mask_b, cv2.bitwise_not(mask_a))))
    return overlap / (PX_PER_MM * PX_PER_MM) / within_mm


def centre_of(poly: Sequence[Sequence[float]]) -> Point:
    """A space's centre of area (mm), rounded as the tracer rounds."""
    pts = np.asarray(poly, np.float32).reshape(-1, 2)
    m = cv2.moments(pts)
    if abs(m["m00"]) < 1e-6:
        x, y = pts.mean(axis=0)
    else:
        x, y = m["m10"] / m["m00"], m["m01"] / m["m00"]
    return round(float(x), 1), round(float(y), 1)


def inside(poly: Sequence[Sequence[float]], point: Sequence[float]) -> bool:
    return cv2.pointPolygonTest(np.asarray(poly, np.float32).reshape(-1, 1, 2),
                                (float(point[0]), float(point[1])), False) >= 0
