"""The players' supplies by the mat's markers and the frame's edge (vision/sundasupply.py, ``SupplyCounter._cut``;
docs/sunda.md, "The supply, counted"): a blob that comes within a millimetre of a marker's square or of where the frame
stops seeing was never counted (its colour unknown all game: the heights the count would tell were asked), although
its pawns stand whole beside it. It is counted where its paint by them is its pawns' and the unseen has no room for
another pawn seen within that paint (tests/vision/test_sundasupply_edgeroom.py; before h-heights10 a pawn whose top
overhangs the marker, its paint cut there, left its colour uncounted: now counted, as it is seen)."""
from __future__ import annotations

import numpy as np

from tests.vision.test_sundasupply import SEP, _table


def _count(loose):
    from vision.sim.sundatable import render_sunda
    from vision.sundasupply import SupplyCounter

    game, pos, scene, cam, reader, rng = _table("clean", 3, loose)
    frame, truth = render_sunda(scene, cam, rng)
    reading = reader.read(frame)
    nadir, cam_h = reader._camera((frame.shape[1], frame.shape[0]), reading._loc.homography)
    return SupplyCounter().count(frame, reader, reading, nadir, cam_h)


def test_pawns_standing_whole_beside_a_marker_are_counted():
    # the mat's markers at 5-45 mm: red, a pair touching 3 mm off the square at 655-695 mm (as a hand leaves the
    # supply: the simulated table keeps 3 mm past a pawn's radius); their tops, pushed away from the nadir, come
    # within a millimetre of it. Yellow: one 0.5 mm off the square at 5-45 mm, whose top overhangs it, cut by it: the
    # pawn is seen, and no other could stand there seen within its paint (h-heights10: was asked)
    seen = _count([("red", (53.0, 664.0)), ("red", (53.0, 664.0 + SEP)), ("yellow", (50.5, 30.0))])
    assert seen.counts["red"] == 2, seen.why
    assert seen.counts["yellow"] == 1, seen.why
