"""Each colour's edge spread (vision/sundasupply.py, ``DELTA_BY_COLOUR``, ``SupplyCounter._deltas``; docs/sunda.md,
"The supply, counted"). How far the colour table puts a pawn's edge outside its outline depends on the paint: a light
yellow on the dark mat is classed farther out than a dark red, and blobs that are no pawn's (a red pawn's shadow read
black, 0.4-0.65 of a footprint) are "one pawn" 3-4 px inside its outline. One median for the frame took yellow's
spread from them (-2.7 px at `hard`, seed 6), and a yellow heap of 17-24 whose tops were all seen and whose tops' pawns
fitted better than any other count was asked by the area (6-10 footprints off)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_sundasupply_tops import assert_counted_as_it_stands


def _blob(colour: str, n: int, spread: float, one: float = 400.0, edge: int = 60):
    """A blob of ``colour`` the misfit alone counts as ``n`` pawns, its paint ``spread`` px outside the model."""
    from vision.sundasupply import _Found, _Split

    u_area, u_edge = n * one, n * edge
    sp = _Split(u_area + spread * u_edge, one, {n: (0.1 * one, [(0.0, 0.0)] * n, u_area, u_edge),
                                               n + 1: (1.5 * one, [(0.0, 0.0)] * (n + 1), u_area + one, u_edge)})
    assert sp.clear() and sp.spread(n) == pytest.approx(spread)
    return _Found(colour, (0.0, 0.0), int(sp.area), sp, (colour, 0, 0, 1, 1))


def test_each_colour_takes_its_own_spread_and_one_without_a_clear_blob_the_frames():
    from vision.sundasupply import SupplyCounter

    found = [_blob("yellow", 1, 1.0), _blob("yellow", 3, 0.8), _blob("red", 2, 0.3)]
    found += [_blob("black", 1, -3.5) for _ in range(6)]
    found.append(_blob("purple", 1, 0.5)._replace(split="layout"))    # no clear blob of its own
    got = SupplyCounter._deltas(found)
    assert got["yellow"] == pytest.approx(0.9) and got["red"] == pytest.approx(0.3)
    assert got["black"] == pytest.approx(-3.5)
    assert got["purple"] == pytest.approx(float(np.median([1.0, 0.8, 0.3] + [-3.5] * 6)))
    assert SupplyCounter._deltas([_blob("red", 1, 0.5)._replace(split="layout")]) == {}


def test_a_yellow_heap_is_counted_beside_blobs_of_another_spread():
    # seed 6, table 0, `hard`, after 12 pawns put on, counted afresh: a yellow heap of 16, asked with one median for the
    # frame (the red pawns' shadows read black, "one pawn" each 3-4 px inside its outline, took it to about -2.7 px, and
    # the heap's area was footprints off any count's model). With yellow's own spread (its blobs the misfit alone
    # counts) every colour is counted as it stands. Fails with DELTA_BY_COLOUR False (yellow not counted)
    assert_counted_as_it_stands("hard", 6, 0, 12)
