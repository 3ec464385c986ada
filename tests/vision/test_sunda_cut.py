"""Two pieces are two prints: the Sunda camera's pairing reads a step in the print's tone across a side as a cut
(vision/sunda.py ``_tone_step``, ``STEP_WEIGHT``). On beige linen at `hard` the light cloth between two dark cut
edges blurs to nothing, and three all-land pieces about a node were paired across their true cuts, where the
only trace of the cut is that one piece's print lies a little lighter than the next (docs/history/sunda-measured.md,
"Session 12: two prints, and the piece as cut")."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

import vision.sunda as sunda  # noqa: E402
from tests.vision.test_sunda_joint import LAT, _hexagon  # noqa: E402
from vision.sunda import _tone_step, tri_points  # noqa: E402

F = np.float32


@pytest.fixture()
def reader(sunda_reader):
    return sunda_reader


def _poly(reader, tri):
    pts = reader._px(LAT.to_mm(tri_points([tri[0]], [tri[1]], [tri[2]]).reshape(-1, 2)))
    return np.round(pts * 16).astype(np.int32)


def _node_of_three(reader, seed):
    """Six all-land triangles about lattice point 1,1 laid as three pieces (ring[1]+ring[2], ring[3]+ring[4],
    ring[5]+ring[0]), their prints 40, 46 and 52 in lightness in a noisy texture, no gap seen between them, and a
    faint dark line (a dip of 1.5) along each piece's own diagonal (a shadow, the print's texture)."""
    ring = _hexagon()
    laid = [(ring[1], ring[2]), (ring[3], ring[4]), (ring[5], ring[0])]
    x0, y0, x1, y1 = reader._play
    label = np.zeros((y1 - y0, x1 - x0), np.uint8)
    L = np.full(label.shape, 35.0, F)
    for tone, piece in zip((40.0, 46.0, 52.0), laid):
        for t in piece:
            cv2.fillPoly(label, [_poly(reader, t)], 1, cv2.LINE_8, shift=4)
            cv2.fillPoly(L, [_poly(reader, t)], tone, cv2.LINE_8, shift=4)
        a, b = (set(tuple(p) for p in tri_points([t[0]], [t[1]], [t[2]])[0]) for t in piece)
        c, d = reader._px(LAT.to_mm(np.array(sorted(a & b), float)))
        line = np.zeros(label.shape, F)
        cv2.line(line, tuple(int(v) for v in np.round(c)), tuple(int(v) for v in np.round(d)), 1.0, 2)
        soft = cv2.GaussianBlur(line, (0, 0), 1.0)
        L -= soft * (1.5 / soft.max())
    noise = cv2.GaussianBlur(np.random.default_rng(seed).normal(0, 1, label.shape).astype(F), (0, 0), 1.5)
    L += noise * (1.3 / noise.std())
    return label, L, {frozenset(p) for p in laid}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_three_pieces_about_a_node_are_told_by_their_prints_tones(reader, seed, monkeypatch):
    """No gap shows between the three pieces and each one's own diagonal shows a faint line: on the lines alone the
    pairing takes the other tiling (every piece wrong); the tone steps across the true cuts put it right."""
    label, L, laid = _node_of_three(reader, seed)
    pieces, _, unsure = reader._pieces(LAT, label, L, [])
    assert {frozenset(p["tris"]) for p in pieces} == laid, unsure
    monkeypatch.setattr(sunda, "STEP_WEIGHT", 0.0)
    pieces, _, _ = reader._pieces(LAT, label, L, [])
    assert not {frozenset(p["tris"]) for p in pieces} & laid


def test_a_coast_along_a_side_is_no_tone_step():
    """Land on one side and water on the other steps in lightness too: only sides whose two ends show one terrain
    count, and none from fewer than 5 such samples along the side."""
    vals = np.zeros((3, 13, 13), F)
    vals[:, :, -2:] = 6.0                      # the far side 6 lighter
    ends = np.ones((3, 13, 2), np.uint8)       # land beside land
    ends[1, :, 1] = 2                          # a coast along the side: land beside water
    ends[2, 4:, 1] = 2                         # ... along all but 4 samples
    step = _tone_step(vals, ends)
    assert step[0] == pytest.approx(6.0) and step[1] == 0.0 and step[2] == 0.0


def test_the_slots_are_read_on_the_pieces_as_cut_at_the_hard_camera(monkeypatch):
    """A whole table at the `hard` camera (a seeded two-player game with tribes on a random cloth, as the camera
    tests draw it): every piece is smaller than its lattice rhombus by the gap between pieces, its acute corners a whole
    gap inside the lattice point. Read on the lattice's rhombi, the slots by an acute corner take the blur of the cut
    edge, the cloth and the piece across the corner (false and missed one-slot spits); read on the pieces as cut
    (``PIECE_GAP_MM``), fewer sides are wrong. (Table 13, used first, reads no side wrong either way since session
    13's enrolment of the pawns without their shadow and its test for a spit's body; then, as cut against on the
    lattice, tables 11, 12, 16-22: 27/59, 0/1, 0/0, 3/0, 1/2, 3/4, 0/0, 2/1, 4/4 wrong sides. The gap matters most
    where the lattice's rhombi lose the corners' slots wholesale, table 11, which is taken; elsewhere it is about even.)"""
    from tests.vision_sim.test_sunda_camera import _setup
    from vision.sim.sundatable import compare_reading

    game, scene, cam, rng, reader, frame, truth = _setup(11, "hard")
    reader.use_set([p.ring for p in game.set.pieces])

    def wrong_sides():
        res = compare_reading(reader.read(frame), truth)
        return 4 * res["pieces"] - res["sides"]
    as_cut = wrong_sides()
    monkeypatch.setattr(sunda, "PIECE_GAP_MM", 0.0)
    on_lattice = wrong_sides()
    assert as_cut < on_lattice, (as_cut, on_lattice)
