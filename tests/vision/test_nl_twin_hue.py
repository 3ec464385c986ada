"""A twin whose difference lies at a figure's rim: its colours, not its lightness, tell (issue 14, session nlboards).

Neues Land's ds039, ds040 and ds041 differ only in a town on the coast (orange, on land ds039 has as sea). A figure
standing on the sea where the twin's town would lie hides most of the town; what is left in view lies within a few
pixels of the figure's picture, where ``hidden_under`` keeps no contest (the picture's rim, the smoothing and the
shadow make the photo neither twin in lightness: a shadow reads as the dark rim of a town). There the twin was a
hidden twin and the figure asked. A shadow dims the art but keeps its hue: on colour alone (Lab a, b) the rim shows
sea, not the town (``TileClassifier._hue_contest``), and the twin is dropped (``_hue_shows``).
"""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.conftest import BENCH
from vision.tiles import TileClassifier


def _view(clf: TileClassifier, photo: int, ja: int, jb: int, shadow: float, reach: int):
    """A :meth:`TileClassifier._contest_view` made by hand: the smoothed reference ``photo`` as the photo, a figure's
    picture (a disc of 5 pixels) over the middle of where ``ja`` and ``jb`` differ, its shadow (the lightness less
    ``shadow``) on a disc of 11 pixels around it, kept ``reach`` pixels from the picture."""
    px = clf.px
    pad = int(3 * clf.verify_sigma) + clf.verify_reach
    smooth = cv2.copyMakeBorder(clf._blurred(photo).copy(), pad, pad, pad, pad, cv2.BORDER_REFLECT)
    rows, cols = clf._difference(ja, jb)[:2]
    cy, cx = int(np.median(rows)) + pad, int(np.median(cols)) + pad
    yy, xx = np.mgrid[:px + 2 * pad, :px + 2 * pad]
    r2 = (yy - cy) ** 2 + (xx - cx) ** 2
    smooth[..., 0][r2 <= 11 ** 2] -= shadow
    covered = r2 <= 5 ** 2
    return (smooth, clf._clear_of(covered, reach), pad), r2


@pytest.fixture(scope="module")
def twins(neuesland):
    clf = neuesland.recognizer().classifier
    return clf, clf._index("ds039", 90), clf._index("ds040", 90)


def test_the_rim_in_shadow_shows_the_sea_not_the_town(twins):
    """The photo is ds039 (sea where ds040 has its town), a figure on the middle of the town's place and a deep
    shadow around it: on colour the rim shows ds039 clearly, and the twin is dropped."""
    clf, j39, j40 = twins
    view, _ = _view(clf, j39, j39, j40, shadow=40.0, reach=clf.hidden_hue_reach)
    t, n = clf._hue_contest(view, j39, j40, 0.0)
    assert n >= clf.hidden_hue_pixels and t <= -clf.hidden_hue_sure, (t, n)
    assert clf._hue_shows(view, j39, j40, 0.0)


def test_the_town_in_view_keeps_the_twin(twins):
    """The photo is ds040 (its town there) under the same figure and shadow: the colours show the town, and the
    twin is not dropped (nor is it where the photo is the twin and the holder is asked about)."""
    clf, j39, j40 = twins
    view, _ = _view(clf, j40, j39, j40, shadow=40.0, reach=clf.hidden_hue_reach)
    t, n = clf._hue_contest(view, j39, j40, 0.0)
    assert t > 0, (t, n)
    assert not clf._hue_shows(view, j39, j40, 0.0)


def test_too_little_in_view_drops_nothing(twins):
    """A picture that hides all of the difference but a few pixels: nothing to tell, the twin stays."""
    clf, j39, j40 = twins
    view, r2 = _view(clf, j39, j39, j40, shadow=0.0, reach=clf.hidden_hue_reach)
    smooth, _, pad = view
    hidden = np.ones(r2.shape, bool)
    hidden[:3, :3] = False
    view = (smooth, clf._clear_of(hidden, clf.hidden_hue_reach), pad)
    assert not clf._hue_shows(view, j39, j40, 0.0)


def test_the_bench_green_figure_on_the_sea_beside_the_town_is_not_asked():
    """The bench's Neues Land ``sim/hard`` row, seed 1, board 11: a green figure on ds039's sea (turned 90) where
    ds040 has its town, ds040 named hidden under it and the figure asked (S:E on ds039, M:NSW on ds040). The rim in
    colour shows the sea: not asked, and right."""
    from tests.vision.test_sued_fig_hidden import _bench_board

    cell = (-3, 0)
    rec, obs, truth = _bench_board(1, "sim", 11, game="neuesland", level="hard")
    green = [f for f in obs.figures if (f.x, f.y, f.colour) == (*cell, "green")]
    assert len(green) == 1, obs.figures
    assert not green[0].on_twins, green[0].to_dict()
    tally = BENCH.Tally()
    BENCH.score_board(rec, obs, truth, tally, "board")
    assert not [e for e in tally.errors if f"({cell[0]}, {cell[1]}, " in e or f"({cell[0]}, {cell[1]})" in e], \
        tally.errors

