"""Sunda to Sahul: a tribe's height is read right or asked, never sure and wrong (issue 18), on the photo bench's own
table (``tablehub bench photoscore --games sunda --seed 3``, `hard` table 5, docs/sunda.md "Heights and markers"):
a red stack of 2 whose dark near side met its own shadow, a colour ramp 2-3 mm long, so its near end was placed 1.7 mm
inside the stack; the base it gave lay 2.3 mm off its node and the parallax read one pawn, with the margin. The node
it stands on (within a millimetre) puts the top's middle a height of 2 away: the two disagree and the phone asks
(vision.sundastacks.node_agrees). The table is rendered as the bench renders it."""
from __future__ import annotations

import numpy as np

from benchmarks import photoscore_positions as P
from tablehub.photo_sunda import load_reader
from vision import sundastacks
from vision.sim.sundatable import compare_reading

from tests.photo.test_sunda_photo_seen import _seed


def _measure(near_off: float, d_node: float = 300.0, n: int = 2, cam_h: float = 900.0) -> sundastacks.StackMeasure:
    """The measure of a stack of ``n`` on a node ``d_node`` from the nadir (along x) whose near end was placed
    ``near_off`` mm too far out, decided as :func:`vision.sundastacks.decide` decides it."""
    d_meas = d_node + near_off
    top_mid = d_node * cam_h / (cam_h - n * sundastacks.PAWN_HEIGHT_MM)
    width = sundastacks.expected(d_node, n, cam_h)[1]
    parallax = top_mid - d_meas
    height, cands, why, est, size_est = sundastacks.decide(parallax, width, d_meas, cam_h, 0.6)
    return sundastacks.StackMeasure(d_meas - sundastacks.PAWN_MM / 2, top_mid + width / 2, width, parallax,
                                    (d_meas, 0.0), est, size_est, height, cands, why, 0.6, cam_h)


def test_the_node_vetoes_a_near_end_misplaced_by_a_step():
    nadir, node = np.zeros(2), np.array([300.0, 0.0])
    good = _measure(0.3)
    assert good.height == 2 and sundastacks.node_agrees(good, node, nadir)
    bad = _measure(2.4)      # the near end a pawn's step (2.4 mm at 300 mm) too far out: the parallax says 1, sure
    assert bad.height == 1
    assert not sundastacks.node_agrees(bad, node, nadir)


def test_a_stack_measured_off_its_node_is_asked_not_wrong(tmp_path, monkeypatch):
    t = P.sunda_table("hard", _seed("hard", 3), 5, tmp_path)
    reading = load_reader(tmp_path).read(t["frame"])
    res = compare_reading(reading, t["truth"])
    assert res["heights_wrong"] == 0, res["wrong"]
    assert res["pawns_right"] == res["stacks"]
    assert res["heights_right"] >= 4          # the others are still read
    monkeypatch.setattr(sundastacks, "node_agrees", lambda m, node, nadir: True)     # the near end alone decides
    res = compare_reading(load_reader(tmp_path).read(t["frame"]), t["truth"])
    assert res["heights_wrong"] == 1
    assert "red/red): read sure as red" in " ".join(res["wrong"])
