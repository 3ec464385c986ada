"""The camera's nadir in the figure finder (issue 14, session nlfig9): a standing figure's picture is its foot swept
away from the nadir by its lean, never wider across that line than its arms (16 mm), so two parts of one blob whose
middles lie farther apart *across* it than half that and a pixel are two figures
(:meth:`vision.pieces.FigureFinder._two_apart`).

On the Neues Land bench (s3 field/default board 8) two yellow figures stood side by side across their lean: one blob
of 383 mm^2 whose halves lay 12.1 mm apart across it, under the 14 mm (one figure's halves along its lean at the
bench's widest) that says two without the nadir, and one was lost."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.pieces import DEFAULT_COLOURS_BGR, FigureFinder, PlayerColours

MM_PER_PX = 1.875        # the figures' scale: 24 pixels a 45 mm tile
SIZE = 48                # a window of 90 mm
PLAIN = (95, 150, 120)   # a tile's green plain, far from every player colour
CAMERA_H = 1070.0        # mm
HEIGHT = 17.0            # a figure, mm


def _meeple(img: np.ndarray, base_mm: np.ndarray, lean_mm: np.ndarray, yaw: float, colour: tuple[int, int, int]
            ) -> None:
    """A standing figure seen from above, drawn as the camera sees it: its foot (a 16 x 7 mm slab with round ends)
    at each height from its base to its top, shifted by that height's share of ``lean_mm`` (mm at its top), its lower
    body darker (the light from above)."""
    ca, sa = math.cos(yaw), math.sin(yaw)
    for k in range(8):
        z = k / 7.0
        c = (base_mm + lean_mm * z) / MM_PER_PX
        shade = 0.6 + 0.4 * z
        reach = (8.0 - 3.5) / MM_PER_PX
        a = (int(round((c[0] - ca * reach) * 16)), int(round((c[1] - sa * reach) * 16)))
        b = (int(round((c[0] + ca * reach) * 16)), int(round((c[1] + sa * reach) * 16)))
        cv2.line(img, a, b, tuple(float(v) * shade for v in colour), max(1, int(round(7.0 / MM_PER_PX))),
                 cv2.LINE_AA, 4)


def _scene(bases_mm: list[tuple[float, float]], nadir_mm: tuple[float, float], yaw: float, colour: str = "yellow"
           ) -> tuple[np.ndarray, np.ndarray]:
    """(observed, reference): figures of ``colour`` at ``bases_mm`` on a plain, each leaning away from the nadir by
    the projection, blurred as the lens and the halving do."""
    ref = np.empty((SIZE, SIZE, 3), np.uint8)
    ref[:] = PLAIN
    obs = ref.copy()
    paint = DEFAULT_COLOURS_BGR[colour]
    for base in bases_mm:
        b = np.array(base, np.float64)
        lean = (b - np.array(nadir_mm)) * HEIGHT / (CAMERA_H - HEIGHT)
        _meeple(obs, b, lean, yaw, paint)
    return cv2.GaussianBlur(obs, (0, 0), 0.7), cv2.GaussianBlur(ref, (0, 0), 0.7)


def _nadir_px(nadir_mm: tuple[float, float]) -> tuple[float, float]:
    return nadir_mm[0] / MM_PER_PX - 0.5, nadir_mm[1] / MM_PER_PX - 0.5


def test_two_parts_far_apart_across_the_lean_are_two_figures():
    """Middles 10.5 mm apart across the line from the nadir: two figures (one figure is 16 mm wide there, its
    halves 8 mm apart and a pixel of blur); the same distance along it: no more said than without the nadir (the lean,
    the lower body and the shadow lengthen a picture there), and 14 mm apart or more: two either way."""
    finder = FigureFinder(PlayerColours.defaults())
    nadir = (0.0, 0.0)
    at = np.array([200.0, 0.0])
    step = 10.5 / MM_PER_PX
    across, along = at + [0.0, step], at + [step, 0.0]
    assert finder._two_apart(at, across, nadir, MM_PER_PX)
    assert not finder._two_apart(at, along, nadir, MM_PER_PX)
    assert not finder._two_apart(at, across, None, MM_PER_PX)
    far = at + [14.0 / MM_PER_PX, 0.0]
    assert finder._two_apart(at, far, nadir, MM_PER_PX) and finder._two_apart(at, far, None, MM_PER_PX)
    # the bar across is half the arms and a pixel, wherever the figure stands (no lean across)
    bar = (finder.figure_width_mm / 2 + MM_PER_PX) / MM_PER_PX
    for r in (20.0, 200.0):
        a = np.array([r, 0.0])
        assert finder._two_apart(a - [0, bar * 0.51], a + [0, bar * 0.51], nadir, MM_PER_PX)
        assert not finder._two_apart(a - [0, bar * 0.49], a + [0, bar * 0.49], nadir, MM_PER_PX)


def _side_by_side(apart_mm: float) -> tuple[np.ndarray, np.ndarray, tuple[float, float]]:
    """Two yellow figures turned along their lean, 360 mm from the nadir (a lean of 6 mm), their middles
    ``apart_mm`` apart across it."""
    nadir = (45.0 - 360.0, 45.0)
    obs, ref = _scene([(40.0, 45.0 - apart_mm / 2), (40.0, 45.0 + apart_mm / 2)], nadir, 0.0)
    return obs, ref, nadir


@pytest.mark.parametrize("apart_mm", [11.0, 12.0])
def test_two_figures_side_by_side_across_the_lean_are_two(apart_mm):
    """Two yellow figures side by side across their lean make one blob larger than one figure (340 mm^2); its halves
    lie ``apart_mm`` apart across the lean: two yellow figures with the nadir, one without (main before this
    session)."""
    finder = FigureFinder(PlayerColours.defaults())
    obs, ref, nadir = _side_by_side(apart_mm)
    pictures: list[np.ndarray] = []
    got = finder.find(obs, ref, MM_PER_PX, fit=False, nadir=_nadir_px(nadir), pictures=pictures)
    assert [f[0] for f in got] == ["yellow", "yellow"]
    alone: list[np.ndarray] = []
    assert [f[0] for f in finder.find(obs, ref, MM_PER_PX, fit=False, pictures=alone)] == ["yellow"]
    assert alone[0].sum() * MM_PER_PX ** 2 > finder.two_figures_mm2      # one blob the halves rule looked at


@pytest.mark.parametrize("yaw", [0.0, math.pi / 2, math.pi / 4])
def test_one_figure_stays_one_with_the_nadir(yaw):
    """One yellow figure 360 mm from the nadir at any turn stays one figure with the nadir."""
    finder = FigureFinder(PlayerColours.defaults())
    nadir = (45.0 - 360.0, 45.0)
    obs, ref = _scene([(40.0, 45.0)], nadir, yaw)
    got = finder.find(obs, ref, MM_PER_PX, fit=False, nadir=_nadir_px(nadir))
    assert [f[0] for f in got] == ["yellow"]


def test_a_black_figure_beside_another_across_the_lean_is_no_shaded_side():
    """A blob under one figure's size with 9 black votes beside 15 yellow ones, their middles 10.1 mm apart across
    the lean and 4.9 mm along it (Neues Land bench s8 sim/default board 0, 185 mm from the nadir): a black figure of
    its own (a shaded side, the lower body, lies toward the nadir along the lean); without the nadir it is held back
    as the yellow one's shaded side (main before this session: the black figure lost); the same voters along the lean
    stay a shaded side."""
    finder = FigureFinder(PlayerColours.defaults())
    names = [c.name for c in finder.colours.colours]
    darkest, yellow = finder.colours.darkest, names.index("yellow")
    counts = np.zeros(len(names), int)
    counts[darkest], counts[yellow] = 9, 15
    many = sorted([darkest, yellow])
    nadir = (0.0, 0.0)
    at = np.array([185.0, 0.0]) / MM_PER_PX
    black = at + np.array([4.9, 10.1]) / MM_PER_PX

    def where(b: np.ndarray) -> list[np.ndarray]:
        return [b if k == darkest else at for k in many]

    assert finder._own_figure(darkest, counts, 278.0, many, where(black), MM_PER_PX, nadir)
    assert not finder._own_figure(darkest, counts, 278.0, many, where(black), MM_PER_PX)
    along = at + np.array([11.2, 0.0]) / MM_PER_PX
    assert not finder._own_figure(darkest, counts, 278.0, many, where(along), MM_PER_PX, nadir)
