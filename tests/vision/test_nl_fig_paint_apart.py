"""Two figures of one colour whose paints lie apart in one blob are two (issue 14, session nlfig10).

One figure's picture is its paint whole: foot, body and head are one piece of one colour, its shaded side and blurred
rim join them. Two figures of one colour one behind the other along the lean make one blob, but between their paints
lies a band of neither: the back figure's lower body in its shade, blended with the art in the front one's shadow. On
the Neues Land bench (s3 sim/default board 11) two yellow figures so made one blob of 292 mm^2 and 24 mm (under the
340 mm^2 and 27 mm where two joined pictures are looked for), its 2-means halves 11 mm apart along the lean (under the
14 mm that says two there), a row of unpainted pixels across it between 5 rows of yellow on either side (105 and 119
mm^2 of paint): one figure was lost (``FigureFinder.paint_apart``, ``vision.pieces._two_painted``). Here that blob at
the figures' scale: two yellow pictures, a row or two of the paint in shade over the art in shadow between them.
"""
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.pieces import DEFAULT_COLOURS_BGR, FigureFinder, PlayerColours, _two_painted

MM_PER_PX = 1.875
PLAIN = np.array((95.0, 150.0, 120.0))      # a green plain, far from every player colour
SIZE = 32


def _two_yellows(gap_rows: int, band: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(observed, reference): two yellow pictures (5 x 8 pixels) one above the other, ``gap_rows`` rows between them
    of the paint at ``band`` of its light blended with the plain at half its light; blurred, with noise."""
    ref = np.empty((SIZE, SIZE, 3))
    ref[:] = PLAIN
    obs = ref.copy()
    yy, xx = np.mgrid[0:SIZE, 0:SIZE]
    c = (SIZE - 1) / 2
    for sign in (-1, 1):
        obs[((yy - (c + sign * (gap_rows / 2 + 2.5))) / 2.6) ** 2 + ((xx - c) / 4.0) ** 2 <= 1] = \
            DEFAULT_COLOURS_BGR["yellow"]
    mid = (np.abs(yy - c) <= gap_rows / 2) & (np.abs(xx - c) <= 3.5)
    obs[mid] = band * np.asarray(DEFAULT_COLOURS_BGR["yellow"], np.float64) + 0.5 * (1 - band) * PLAIN
    obs = cv2.GaussianBlur(obs, (0, 0), 0.6) + rng.normal(0.0, 3.0, obs.shape)
    return np.clip(obs, 0, 255).astype(np.uint8), ref.astype(np.uint8)


@pytest.mark.parametrize("gap_rows", [1, 2])
@pytest.mark.parametrize("band", [0.3, 0.45])
def test_two_yellows_whose_paints_lie_apart_are_two(gap_rows, band):
    finder = FigureFinder(PlayerColours.defaults())
    obs, ref = _two_yellows(gap_rows, band, np.random.default_rng(gap_rows))
    got = finder.find(obs, ref, MM_PER_PX, fit=False)
    assert [c for c, *_ in got] == ["yellow", "yellow"], got
    one = replace(finder, paint_apart=False).find(obs, ref, MM_PER_PX, fit=False)
    assert [c for c, *_ in one] == ["yellow"], one        # before: one figure, the other lost
    assert one[0][4] > 2 * finder.one_figure_min_mm2                # a blob that may hold two


def test_one_yellow_whose_paint_is_whole_stays_one():
    """The same pictures joined by their paint (the band lit as a figure's body is): one figure."""
    finder = FigureFinder(PlayerColours.defaults())
    obs, ref = _two_yellows(1, 1.0, np.random.default_rng(1))
    assert [c for c, *_ in finder.find(obs, ref, MM_PER_PX, fit=False)] == ["yellow"]


def test_two_painted_parts():
    """Two parts of paint each at least the bar, none between: each of the blob's pixels to the nearer; a second part
    under the bar, or a third: None."""
    blob = np.zeros((20, 20), bool)
    blob[2:18, 5:12] = True
    paint = blob.copy()
    paint[9:11] = False                                      # two parts of 7 x 7 and 7 x 7 pixels
    bar = 40 * MM_PER_PX ** 2
    parts = _two_painted(blob, paint, MM_PER_PX, bar)
    assert parts is not None and not (parts[0] & parts[1]).any() and ((parts[0] | parts[1]) == blob).all()
    assert parts[0][2:9, 5:12].all() and parts[1][11:18, 5:12].all()
    assert _two_painted(blob, paint, MM_PER_PX, 60 * MM_PER_PX ** 2) is None     # each part 49 pixels
    assert _two_painted(blob, blob, MM_PER_PX, bar) is None                     # the paint whole
