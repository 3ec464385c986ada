"""The disc pass asks a core's lightness as the paint pass does (vision.sundamarkers.MarkerFinder._discs,
``lightness_agrees``): the JPEG keeps lightness at full resolution and smears colour at half, so a 6 mm marker shows its
paint's lightness against the land (a green marker darker), while the colour smeared round a red stack is as green and
*lighter* (photo bench seed 5 `hard` table 4: a disc 6.7 lighter and 13.5 greener than the land, 13.6 mm from a red
stack, read as the green marker where none lies). The synthetic canvas of tests/vision/test_sunda_markers_disc.py."""
from __future__ import annotations

import cv2
import numpy as np

from tests.vision.test_sunda_markers_disc import NODE, PPM, _canvas, _disc, _find, _near, _px
from vision import sundamarkers
from vision.sim.sundatable import LAND_BGR
from vision.sundamarkers import _bgr, _lab

LAND = _lab(np.asarray(LAND_BGR, np.float32)[None])[0]
AT = (NODE[0] + 2.0, NODE[1] - 13.6)


def _halo(img) -> None:
    """A disc 6 mm across as the bench's false green showed: lighter and greener than the land."""
    bgr = _bgr(LAND + np.array([6.7, -13.5, 4.6], np.float32))
    cv2.circle(img, _px(AT), int(3 * PPM), tuple(float(v) for v in bgr), -1, cv2.LINE_AA)


def test_a_disc_lighter_than_the_land_is_no_green_marker(monkeypatch):
    found, f = _find(_canvas(_halo), only_discs=True)
    assert not _near(found, "green", AT), [(m.marker, m.mat_mm) for m in found]
    assert any("not its lightness" in why for _, why in f.rejected)
    monkeypatch.setattr(sundamarkers, "lightness_agrees", lambda *a: True)    # the lightness not asked: read green
    found, _ = _find(_canvas(_halo), only_discs=True)
    assert _near(found, "green", AT)


def test_a_green_marker_darker_than_the_land_is_still_read():
    found, _ = _find(_canvas(lambda img: _disc(img, "green", AT)), only_discs=True)
    assert _near(found, "green", AT)
