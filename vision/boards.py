"""Fixed boards from a photo: find the board, straighten it, and propose its spaces.

``trace_board(photo, size_mm)`` proposes the spaces of an empty board from one photo: the
board's outer edge (the largest four-cornered outline) maps the photo onto a top-down canvas
in board millimetres; the printed space outlines (dark lines) cut the canvas into regions;
regions of the sea's colour and of a space's size are the spaces; two spaces are adjacent
where they face each other across an outline over a length (not at a single corner). The
result is geometry only (polygons and centres in millimetres, pairs of adjacent spaces):
which spaces are ports, hideouts or start spaces is for the owner to mark (no rules here).

``render_board(...)`` draws an empty board from such geometry, straight or as a camera would
see it (perspective, light gradient, noise, blur): the tests check the tracing on boards whose
truth is known.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np

from tablehub.i18n import T  # what a phone reads (tablehub/locale/*/vision.po)

from . import VisionError
from .sim.glyphs import put_text, text_size

Polygon = Sequence[Sequence[float]]


@dataclass
class TracedBoard:
    """Spaces proposed from a photo: ``polygons[i]``/``centres[i]`` in board mm, ``adjacency``
    as index pairs (i < j), ``found_edge`` whether the board's edge was found in the photo."""

    polygons: list[list[tuple[float, float]]]
    centres: list[tuple[float, float]]
    adjacency: list[tuple[int, int]]
    found_edge: bool
    canvas: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((1, 1, 3), np.uint8))


# --------------------------------------------------------------------------- rendering


def render_board(size_mm: tuple[float, float], spaces: Sequence[Polygon], land: Sequence[Polygon] = (),
                 marks: Sequence[tuple[float, float, tuple[int, int, int]]] = (),
                 labels: Sequence[tuple[float, float, str]] = (), px_per_mm: float = 2.0,
                 outline_mm: float = 1.2, sea=(178, 120, 46), land_colour=(150, 205, 228),
                 seed: int = 0) -> np.ndarray:
    """A straight, printed-looking picture of an empty board (BGR): sea spaces in slightly varied
    blues with dark outlines, land in sand, ``marks`` (x mm, y mm, BGR) as small printed discs
    (a hideout's flag, a port's anchor), ``labels`` (x mm, y mm, text) printed in dark ink (space
    numbers, town names; in OpenCV 5's font on every stack: ``vision.sim.glyphs``), a dark frame round the board."""
    rng = np.random.default_rng(seed)
    w, h = int(round(size_mm[0] * px_per_mm)), int(round(size_mm[1] * px_per_mm))
    img = np.full((h, w, 3), land_colour, np.uint8)
    line = max(1, int(round(outline_mm * px_per_mm)))

    def pts(poly: Polygon) -> np.ndarray:
        return np.round(np.asarray(poly, np.float64) * px_per_mm * 16).astype(np.int32)

    for poly in land:
        cv2.fillPoly(img, [pts(poly)], land_colour, cv2.LINE_AA, shift=4)
    for poly in spaces:
        tint = np.clip(np.asarray(sea) + rng.integers(-14, 15, 3), 0, 255)
        cv2.fillPoly(img, [pts(poly)], tuple(int(v) for v in tint), cv2.LINE_AA, shift=4)
    for poly in spaces:
        cv2.polylines(img, [pts(poly)], True, (40, 40, 40), line, cv2.LINE_AA, shift=4)
    for x, y, colour in marks:
        cv2.circle(img, (int(x * px_per_mm), int(y * px_per_mm)), int(3 * px_per_mm), colour, -1, cv2.LINE_AA)
    for x, y, text in labels:  # stored glyphs (OpenCV 5's font): the same art on the Pi's OpenCV 4.11
        scale = 0.25 * px_per_mm
        (tw, th), _ = text_size(text, scale, 1)
        put_text(img, text, (int(x * px_per_mm - tw / 2), int(y * px_per_mm + th / 2)), scale, (25, 25, 25), 1)
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (30, 30, 30), line * 2)
    return img


def photograph(board: np.ndarray, tilt: float = 0.08, seed: int = 0, out_size: tuple[int, int] | None = None,
               noise: float = 4.0, blur: float = 0.8, jpeg: int = 0) -> np.ndarray:
    """The board as a camera above a table sees it: on a darker table, in perspective (corners
    moved by up to ``tilt`` of the size), with a light gradient, sensor noise, a little blur and,
    with ``jpeg`` (a quality, 1-100), JPEG compression."""
    rng = np.random.default_rng(seed)
    h, w = board.shape[:2]
    ow, oh = out_size or (int(w * 1.25), int(h * 1.25))
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    margin = np.float32([(ow - w) / 2, (oh - h) / 2])
    jitter = rng.uniform(-tilt, tilt, (4, 2)).astype(np.float32) * np.float32([w, h])
    dst = src + margin + jitter
    H = cv2.getPerspectiveTransform(src, dst)
    photo = np.full((oh, ow, 3), (70, 85, 95), np.uint8)
    warped = cv2.warpPerspective(board, H, (ow, oh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT,
                                 dst=photo)
    yy, xx = np.mgrid[0:oh, 0:ow].astype(np.float32)
    gradient = 0.85 + 0.25 * (xx / ow) * (0.6 + 0.4 * yy / oh)
    out = warped.astype(np.float32) * gradient[..., None] + rng.normal(0, noise, warped.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    if jpeg:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg)])
        out = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else out
    return out


def draw_trace(traced: TracedBoard, px_per_mm: float = 2.0, names: Sequence[str] | None = None) -> np.ndarray:
    """The straightened photo with the proposed spaces outlined and named (``names[k]`` for
    ``traced.polygons[k]``; default their numbers from 1) and the adjacency drawn as thin lines
    between centres."""
    img = traced.canvas.copy()
    for i, j in traced.adjacency:
        a = tuple(int(v * px_per_mm) for v in traced.centres[i])
        b = tuple(int(v * px_per_mm) for v in traced.centres[j])
        cv2.line(img, a, b, (0, 200, 255), 1, cv2.LINE_AA)
    for k, poly in enumerate(traced.polygons):
        pts = np.round(np.asarray(poly) * px_per_mm).astype(np.int32)
        cv2.polylines(img, [pts], True, (0, 255, 0), 2, cv2.LINE_AA)
        x, y = (int(v * px_per_mm) for v in traced.centres[k])
        name = str(k + 1) if names is None else str(names[k])
        cv2.putText(img, name, (x - 8, y + 5), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 2, cv2.LINE_AA)
        cv2.putText(img, name, (x - 8, y + 5), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1, cv2.LINE_AA)
    return img


# --------------------------------------------------------------------------- tracing


def _order_corners(quad: np.ndarray) -> np.ndarray:
    """Top-left, top-right, bottom-right, bottom-left."""
    s = quad.sum(axis=1)
    d = np.diff(quad, axis=1).ravel()
    return np.float32([quad[np.argmin(s)], quad[np.argmin(d)], quad[np.argmax(s)], quad[np.argmax(d)]])


def find_board(photo: np.ndarray) -> np.ndarray | None:
    """The board's four corners in the photo (TL, TR, BR, BL), or ``None``: the largest convex
    four-cornered outline covering at least a fifth of the picture."""
    grey = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(cv2.GaussianBlur(grey, (5, 5), 0), 30, 90)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best, best_area = None, 0.2 * photo.shape[0] * photo.shape[1]
    for c in contours:
        hull = cv2.convexHull(c)
        quad = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
        area = cv2.contourArea(quad)
        if len(quad) == 4 and area > best_area:
            best, best_area = quad.reshape(4, 2).astype(np.float32), area
    return None if best is None else _order_corners(best)


def straighten(photo: np.ndarray, size_mm: tuple[float, float], px_per_mm: float = 2.0) -> tuple[np.ndarray, bool]:
    """The board top-down at ``px_per_mm`` (whole photo stretched when its edge is not found)."""
    w, h = int(round(size_mm[0] * px_per_mm)), int(round(size_mm[1] * px_per_mm))
    corners = find_board(photo)
    found = corners is not None
    if corners is None:
        ph, pw = photo.shape[:2]
        corners = np.float32([[0, 0], [pw, 0], [pw, ph], [0, ph]])
    H = cv2.getPerspectiveTransform(corners, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    return cv2.warpPerspective(photo, H, (w, h), flags=cv2.INTER_LINEAR), found


def trace_board(photo: np.ndarray, size_mm: tuple[float, float], px_per_mm: float = 2.0,
                min_space_mm2: float = 150.0, max_space_mm2: float = 6000.0, min_contact_mm: float = 4.0,
                sea_hue: tuple[int, int] = (85, 135)) -> TracedBoard:
    """Propose the spaces and their adjacency from a photo of the empty board (module docstring).

    ``sea_hue``: the OpenCV hue range (0-180) of the printed sea; regions of another colour
    (land, the frame) are not spaces. Raises :class:`VisionError` when no space is found."""
    if photo is None or photo.ndim != 3 or photo.shape[0] < 50 or photo.shape[1] < 50:
        raise VisionError(T("trace: the photo is empty or not a colour picture"))
    canvas, found = straighten(photo, size_mm, px_per_mm)
    grey = cv2.cvtColor(canvas, cv2.COLOR_BGR2GRAY)
    # outlines: dark against their neighbourhood
    local = cv2.GaussianBlur(grey, (0, 0), 4 * px_per_mm)
    outline = ((grey.astype(np.int16) < local.astype(np.int16) - 25) | (grey < 70)).astype(np.uint8)
    outline = cv2.morphologyEx(outline, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    n, labels, stats, cents = cv2.connectedComponentsWithStats((1 - outline).astype(np.uint8), connectivity=4)
    hsv = cv2.cvtColor(canvas, cv2.COLOR_BGR2HSV)
    area_px = px_per_mm * px_per_mm
    keep = np.zeros(n, bool)
    for i in range(1, n):
        area = stats[i, cv2.CC_STAT_AREA] / area_px
        if not min_space_mm2 <= area <= max_space_mm2:
            continue
        mask = labels == i
        hue = float(np.median(hsv[..., 0][mask]))
        sat = float(np.median(hsv[..., 1][mask]))
        keep[i] = sea_hue[0] <= hue <= sea_hue[1] and sat > 40
    ids = np.flatnonzero(keep)
    if not len(ids):
        raise VisionError(T("trace: no space found on the board (is it the empty board, well lit, filling the photo?)"))
    index = {int(lab): k for k, lab in enumerate(ids)}
    lut = np.full(n, -1, np.int32)
    lut[ids] = np.arange(len(ids))
    space_of = lut[labels]
    # grow the spaces over the outlines (nearest space wins) to find who faces whom
    reach = int(round((1.5 + 1.0) * px_per_mm))
    grown = space_of.copy()
    for _ in range(reach):
        free = grown < 0
        if not free.any():
            break
        shifted = []
        for dy, dx in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            shifted.append(np.roll(grown, (dy, dx), axis=(0, 1)))
        for s in shifted:
            take = free & (s >= 0)
            grown[take] = s[take]
            free &= ~take
    contact: dict[tuple[int, int], int] = {}
    for a, b in ((grown[:, :-1], grown[:, 1:]), (grown[:-1, :], grown[1:, :])):
        m = (a >= 0) & (b >= 0) & (a != b)
        pairs = np.stack([np.minimum(a[m], b[m]), np.maximum(a[m], b[m])], axis=1)
        if len(pairs):
            uniq, counts = np.unique(pairs, axis=0, return_counts=True)
            for (p, q), c in zip(uniq, counts):
                contact[(int(p), int(q))] = contact.get((int(p), int(q)), 0) + int(c)
    need = min_contact_mm * px_per_mm
    adjacency = sorted(pair for pair, length in contact.items() if length >= need)
    polygons, centres = [], []
    for lab in ids:
        mask = (grown == index[int(lab)]).astype(np.uint8)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        c = max(contours, key=cv2.contourArea)
        poly = cv2.approxPolyDP(c, 1.0 * px_per_mm, True).reshape(-1, 2) / px_per_mm
        polygons.append([(round(float(x), 1), round(float(y), 1)) for x, y in poly])
        cx, cy = cents[lab]
        centres.append((round(float(cx) / px_per_mm, 1), round(float(cy) / px_per_mm, 1)))
    return TracedBoard(polygons, centres, adjacency, found, canvas)


def score_trace(centres: dict[int, tuple[float, float]], pairs: set[tuple[int, int]],
                traced: TracedBoard) -> dict[str, float]:
    """How well ``traced`` recovers a board whose truth is known: ``centres`` (space id -> centre
    in mm) and ``pairs`` (adjacent ids, low first). A true space is recovered when exactly one
    proposed polygon holds its centre and that polygon holds no other true centre. Returns
    ``spaces`` (share recovered), ``pairs`` (share of true pairs proposed between recovered
    spaces) and ``precision`` (share of proposed pairs that are true)."""
    hit: dict[int, int] = {}
    for sid, (cx, cy) in centres.items():
        inside = [k for k, poly in enumerate(traced.polygons)
                  if cv2.pointPolygonTest(np.float32(poly), (float(cx), float(cy)), False) >= 0]
        if len(inside) == 1:
            hit[sid] = inside[0]
    uses: dict[int, int] = {}
    for k in hit.values():
        uses[k] = uses.get(k, 0) + 1
    space_of = {k: sid for sid, k in hit.items() if uses[k] == 1}
    proposed = set()
    for i, (p, q) in enumerate(traced.adjacency):
        if p in space_of and q in space_of:
            a, b = space_of[p], space_of[q]
            proposed.add((min(a, b), max(a, b)))
        else:
            proposed.add((-1, -1 - i))  # a pair of unrecovered spaces: never true
    true = proposed & set(pairs)
    return {"spaces": len(space_of) / max(1, len(centres)), "pairs": len(true) / max(1, len(pairs)),
            "precision": len(true) / max(1, len(proposed))}
