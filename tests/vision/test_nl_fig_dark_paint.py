"""A black figure whose lit top reads as the blue next to black is black (issue 14, session nlfig11).

Black paint on lighter art dims it by much the same factor in every channel, as a shadow does (:func:`shading`'s
test), so the figure finder left most of a black figure's pixels out of its colour's votes and counted only its few
pixels of another hue: its lit top, tinted by the highlight and the cast. On the Neues Land bench under the field
camera's magenta cast (s4 field/default board 10) a black figure's picture was 44 pixels, 30 of them reading black, but
its core's votes were 5 blue (its lit top, BGR 53, 44, 53, as near the calibrated blue as the black) against 3 black,
and it was named blue. A figure's shadow falls beside its picture, not inside it: the core's pixels of the darkest
colour vote for it, shadow-like or not (``FigureFinder.dark_paint_votes``). Here that picture at the figures' scale,
with the player colours as the field camera's enrolment calibrated them (a dark blue, a brownish black).
"""
from dataclasses import replace

import numpy as np
import pytest

from vision.pieces import FigureFinder, PlayerColour, PlayerColours, bgr_to_lab, shading

MM_PER_PX = 1.875
SIZE = 31
#: the colours as the bench's field enrolment calibrated them (BGR): blue is dark, black brownish
CALIBRATED_BGR = {"red": (27, 55, 162), "blue": (84, 69, 61), "green": (31, 95, 51), "yellow": (40, 160, 215),
                  "black": (27, 40, 50)}
PLAIN = np.array((75.0, 112.0, 139.0))      # a beige plain: black paint on it is the plain at 0.36, alike in B, G, R


def _colours() -> PlayerColours:
    return PlayerColours([PlayerColour(n, tuple(float(v) for v in bgr_to_lab(np.array(bgr, np.uint8))))
                          for n, bgr in CALIBRATED_BGR.items()])


def _black_figure(rng: np.random.Generator, top: tuple[int, int, int] = (62, 52, 58)
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(observed, reference): a black figure's picture 5 x 10 pixels on the plain, its body the plain dimmed to 0.36-0.4
    (black paint), a 3 x 4 lit top (its head and shoulders) of ``top`` and a row of its paint darker still; a
    little noise."""
    ref = np.empty((SIZE, SIZE, 3))
    ref[:] = PLAIN
    obs = ref.copy()
    y0, x0 = 11, 13
    obs[y0:y0 + 10, x0:x0 + 5] = PLAIN * rng.uniform(0.36, 0.4, (10, 5, 1))
    obs[y0 + 1:y0 + 5, x0 + 1:x0 + 4] = top
    obs[y0 + 5, x0 + 1:x0 + 5] = PLAIN * 0.3
    obs += rng.normal(0.0, 1.0, obs.shape)
    return np.clip(obs, 0, 255).astype(np.uint8), ref.astype(np.uint8)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_black_figure_with_a_tinted_top_is_black(seed):
    finder = FigureFinder(_colours())
    obs, ref = _black_figure(np.random.default_rng(seed))
    # as on the bench: the body is shadow-like, and the top reads blue
    ratio, grey = shading(obs.astype(np.float32), ref.astype(np.float32))
    body = np.zeros(obs.shape[:2], bool)
    body[11:21, 13:18] = True
    assert (grey & (ratio > 0.33))[body].sum() >= 25
    idx, _ = finder.colours.nearest(bgr_to_lab(obs))
    assert (idx[12:16, 14:17] == finder.colours.names.index("blue")).all()
    got = finder.find(obs, ref, MM_PER_PX, fit=False)
    assert [c for c, *_ in got] == ["black"], got
    before = replace(finder, dark_paint_votes=False).find(obs, ref, MM_PER_PX, fit=False)
    assert [c for c, *_ in before] == ["blue"], before        # before: named by its lit top


@pytest.mark.parametrize("colour", ["red", "blue", "green", "yellow"])
@pytest.mark.parametrize("shadow_px", [2, 3, 4])
def test_a_figure_with_its_shadow_beside_it_stays_one(colour, shadow_px):
    """A figure of another colour with its shadow beside it, joined to its blob (the plain at half its light, reading
    black and shadow-like, up to 7.5 mm wide): one figure of its colour, no black one."""
    finder = FigureFinder(_colours())
    for seed in (1, 2):
        rng = np.random.default_rng(seed)
        ref = np.empty((SIZE, SIZE, 3))
        ref[:] = PLAIN
        obs = ref.copy()
        obs[11:20, 18:18 + shadow_px] = PLAIN * 0.5
        obs[11:20, 13:18] = CALIBRATED_BGR[colour]
        obs = np.clip(obs + rng.normal(0.0, 1.0, obs.shape), 0, 255).astype(np.uint8)
        got = finder.find(obs, ref.astype(np.uint8), MM_PER_PX, fit=False)
        assert [c for c, *_ in got] == [colour], got
