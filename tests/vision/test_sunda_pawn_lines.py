"""A pawn's paint is no gap: the Sunda camera measures the line along a side only on the profiles across it that are
clear of a pawn's or marker's paint and its blurred rim (vision/sunda.py ``_line_along``, ``HIDDEN_ROWS``). Pawns
stand on nodes, where sides start; a bright pawn a little off its node lay across the first profiles of a piece's own
diagonal and read as a light line there (seed 4 table 0 at `hard`: 2.7 on the diagonal, 0.7 on the true cut beside it:
three pieces paired wrong about it; docs/history/sunda-measured.md, "Session 14: a pawn's paint is no gap")."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

import vision.sunda as sunda  # noqa: E402
from tests.vision.test_sunda_cut import _poly, reader  # noqa: E402,F401 (reader: a fixture)
from tests.vision.test_sunda_joint import LAT, _hexagon  # noqa: E402
from vision.sunda import _tri_pts, _unhidden_rows  # noqa: E402

F = np.float32


def _line(reader, L, a, b, depth):
    """A faint dark line (a gap blurred nearly away) along the lattice side from point ``a`` to ``b``."""
    c, d = reader._px(LAT.to_mm(np.array([a, b], float)))
    line = np.zeros(L.shape, F)
    cv2.line(line, tuple(int(v) for v in np.round(c)), tuple(int(v) for v in np.round(d)), 1.0, 2)
    soft = cv2.GaussianBlur(line, (0, 0), 1.0)
    L -= soft * (depth / soft.max())


def _node_with_pawn(reader, seed, pawn=True):
    """Six all-land triangles about lattice point 1,1 laid as three pieces, a faint gap (a dip of 1) along each of
    the three cuts between them, noise; and a yellow pawn (lightness 75, 10 mm) 3 mm off the node along one piece's
    own diagonal, its paint blurred 1 mm into the print."""
    ring = _hexagon()
    laid = [(ring[1], ring[2]), (ring[3], ring[4]), (ring[5], ring[0])]
    x0, y0, x1, y1 = reader._play
    label = np.zeros((y1 - y0, x1 - x0), np.uint8)
    L = np.full(label.shape, 35.0, F)
    for piece in laid:
        for t in piece:
            cv2.fillPoly(label, [_poly(reader, t)], 1, cv2.LINE_8, shift=4)
            cv2.fillPoly(L, [_poly(reader, t)], 40.0, cv2.LINE_8, shift=4)
    for i in (0, 2, 4):   # the cuts: ring[0] | ring[1], ring[2] | ring[3], ring[4] | ring[5]
        a, b = sorted(set(_tri_pts(ring[i])) & set(_tri_pts(ring[i + 1])))
        _line(reader, L, a, b, 1.0)
    noise = cv2.GaussianBlur(np.random.default_rng(seed).normal(0, 1, label.shape).astype(F), (0, 0), 1.5)
    L += noise * (0.6 / noise.std())
    if pawn:
        a, b = (np.array(p, float) for p in sorted(set(_tri_pts(ring[1])) & set(_tri_pts(ring[2]))))
        node, far = (a, b) if tuple(a) == (1, 1) else (b, a)
        nm, fm = LAT.to_mm(np.array([node, far]))
        at = reader._px(nm + (fm - nm) / np.linalg.norm(fm - nm) * 3.0)
        centre, radius = tuple(int(v) for v in np.round(at)), int(round(5.0 * reader.s))
        paint = np.zeros(L.shape, F)
        cv2.circle(paint, centre, radius, 1.0, -1)
        paint = cv2.GaussianBlur(paint, (0, 0), 1.0 * reader.s)
        L += paint * (75.0 - L)
        cv2.circle(label, centre, radius, 3, -1)
    piece = ((label == 1) | (label == 2)).astype(np.uint8)
    return label, L, reader._lines(L, piece), {frozenset(p) for p in laid}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_pawn_by_a_node_does_not_turn_the_pieces_about_it(reader, seed, monkeypatch):
    """Measured on every profile, the pawn's paint over one diagonal's start outweighs the three faint cuts and the
    pairing takes the other tiling (every piece wrong); measured clear of the paint, the pieces are found."""
    label, L, lines, laid = _node_with_pawn(reader, seed)
    pieces, _, unsure = reader._pieces(LAT, label, L, [], lines)
    assert {frozenset(p["tris"]) for p in pieces} == laid, unsure
    monkeypatch.setattr(sunda, "HIDDEN_ROWS", False)
    pieces, _, _ = reader._pieces(LAT, label, L, [], lines)
    assert not {frozenset(p["tris"]) for p in pieces} & laid


def test_without_a_pawn_the_lines_are_measured_as_before(reader, monkeypatch):
    """No paint: every profile counts, the same measure either way."""
    label, L, lines, _ = _node_with_pawn(reader, 0, pawn=False)
    ring = _hexagon()
    ends = [sorted(set(_tri_pts(ring[i])) & set(_tri_pts(ring[(i + 1) % 6]))) for i in range(6)]
    a = LAT.to_mm(np.array([e[0] for e in ends], float))
    b = LAT.to_mm(np.array([e[1] for e in ends], float))
    rim = np.zeros(label.shape, np.uint8)
    with_rim = reader._line_along(L, a, b, lines, label, rim)
    assert np.allclose(with_rim, reader._line_along(L, a, b, lines, label))


def test_the_rows_clear_of_paint():
    """A profile crossing any hidden pixel is left out; a side with fewer than HIDDEN_LEAST clear profiles keeps
    them all (no better measure there)."""
    hid = np.zeros((3, 13, 13), np.uint8)
    hid[0, :3, 6] = 255                      # a pawn over the first three profiles' middles
    hid[1, :11, 0] = 255                     # a marker over all but two
    keep = _unhidden_rows(hid, hid.shape[:2])
    assert keep[0].tolist() == [0.0] * 3 + [1.0] * 10
    assert keep[1].tolist() == [1.0] * 13 and keep[2].tolist() == [1.0] * 13
    assert _unhidden_rows(None, (2, 13)).tolist() == [[1.0] * 13] * 2
