"""A resource marker's colour as the JPEG shows it (vision.sundamarkers.paint_line): the JPEG keeps colour at half the
resolution of lightness and quantises it hardest, so a small token's chroma is mixed with what lies round it. A
marker enrolled lying on the cloth is read lying on the green land; its chroma then differs from the enrolled one by
a share of the land's chroma less the cloth's (at `hard`, JPEG quality 65: the green, orange and blue markers of the
photo bench's seed 1 read 16-22 from their enrolled colours and were missed). Synthetic canvases at the reader's
scale (2 px/mm) through a real JPEG at the frame's scale: every paint is read, and as itself (the bench's own tables,
where the marker is missed without the shift, are tests/photo/test_sunda_photo_hard.py's)."""
from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision.sim.art import PLAYER_COLOURS
from vision.sim.sundatable import CLOTHS, LAND_BGR, WATER_BGR
from vision.sunda import SundaColours
from vision.sundamarkers import MarkerFinder, _lab, paint_distances, paint_line

PPM = 2.0
NODE = (100.0, 100.0)
CLOTH = CLOTHS[0]
NAMES = ("red", "orange", "yellow", "green", "blue", "purple")


def _jpeg(img: np.ndarray, quality: int = 65, frame_ppm: float = 1.4) -> np.ndarray:
    """Through the camera's JPEG at the frame's scale (``frame_ppm`` px a mm: a 1920 x 1080 frame over the mat), back
    to the canvas's."""
    h, w = img.shape[:2]
    small = cv2.resize(np.clip(img, 0, 255).astype(np.uint8), (int(w * frame_ppm / PPM), int(h * frame_ppm / PPM)),
                       interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.resize(cv2.imdecode(buf, cv2.IMREAD_COLOR), (w, h), interpolation=cv2.INTER_LINEAR)


def _disc(img, name: str, at) -> None:
    bgr = np.asarray(PLAYER_COLOURS[name], np.float32)
    p = (int(round(at[0] * PPM)), int(round(at[1] * PPM)))
    cv2.circle(img, p, int(3.0 * PPM), tuple(float(v) for v in bgr * 0.7), -1, cv2.LINE_AA)
    cv2.circle(img, p, int(2.6 * PPM), tuple(float(v) for v in bgr), -1, cv2.LINE_AA)


def _canvas(ground, draw) -> np.ndarray:
    img = np.zeros((400, 400, 3), np.float32)
    img[:] = ground
    draw(img)
    return _jpeg(cv2.GaussianBlur(img, (0, 0), 1.0))


def _enrolled() -> dict[str, np.ndarray]:
    """Each marker's colour as enrolment measures it: the median of its middle (1.8 mm round it), lying on the cloth,
    through the JPEG."""
    spots = {n: (40.0 + 25.0 * k, 60.0) for k, n in enumerate(NAMES)}
    img = _canvas(CLOTH, lambda im: [_disc(im, n, at) for n, at in spots.items()])
    yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]]
    out = {}
    for n, (x, y) in spots.items():
        inner = (xx - x * PPM) ** 2 + (yy - y * PPM) ** 2 < (1.8 * PPM) ** 2
        out[n] = _lab(np.median(img[inner].astype(np.float32), axis=0)[None])[0]
    return out


def _finder() -> MarkerFinder:
    lab = lambda bgr: _lab(np.asarray(bgr, np.float32)[None])[0]   # noqa: E731
    colours = SundaColours(lab(LAND_BGR), lab(WATER_BGR), np.asarray(CLOTH, np.float32),
                           {c: lab(PLAYER_COLOURS[c]) for c in ("red", "yellow", "black", "purple")})
    return MarkerFinder(colours, _enrolled())


def _find(img):
    f = _finder()
    lattice = SimpleNamespace(side_mm=30.0, to_lattice=lambda mm: np.asarray(mm, float).reshape(-1, 2) / 30.0)
    tribe = SimpleNamespace(q=0, r=0, mat_mm=NODE)
    return f.find(img, np.ones(3, np.float32), np.asarray(CLOTH, np.float32), (0, 0), PPM, lattice, [tribe])


@pytest.mark.parametrize("name", NAMES)
def test_a_marker_enrolled_on_the_cloth_is_read_on_the_land(name):
    at = (NODE[0] + 14.0, NODE[1] + 3.0)
    img = _canvas(LAND_BGR, lambda im: (cv2.circle(im, (200, 200), 10, PLAYER_COLOURS["red"], -1), _disc(im, name, at)))
    found = _find(img)
    assert [(m.marker, round(m.mat_mm[0]), round(m.mat_mm[1])) for m in found] == [(name, round(at[0]), round(at[1]))] \
        or any(m.marker == name and np.hypot(*(np.asarray(m.mat_mm) - at)) < 2.5 for m in found), \
        [(m.marker, m.mat_mm) for m in found]
    assert all(m.marker == name for m in found)


def test_the_line_keeps_the_lightness_and_moves_the_chroma_towards_the_ground():
    paint = np.array([52.0, 140.0, 42.0])
    line = paint_line(paint, np.asarray(LAND_BGR, float), np.asarray(CLOTH, float))
    y = line @ np.array([0.114, 0.587, 0.299])
    assert np.allclose(y, y[0], atol=1e-6)                       # the lightness (the JPEG's Y) kept
    assert np.allclose(line[0], paint)                           # from the enrolled colour itself ...
    seen = _lab(line[-1][None].astype(np.float32))[0]
    assert paint_distances(seen, [paint], np.asarray(LAND_BGR, float), np.asarray(CLOTH, float))[0] < 0.5
