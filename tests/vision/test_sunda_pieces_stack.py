"""A piece half under a leaning stack is found: a triangle left alone whose one uncovered neighbour is mostly a pawn's
paint and rim takes that neighbour as its other half (vision/sunda.py ``_halves_under_stacks``, ``UNDER_STACK``).

Seed 5 table 0 at `hard`: a red stack of four leaning over a piece covered most of one of its triangles (one of the 7
samples showed the print), so that triangle did not read as covered, its other half was left alone and the piece was
not found (docs/history/sunda-measured.md, "Session 16: a piece half under a stack")."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

import vision.sunda as sunda  # noqa: E402
from tests.vision.test_sunda_joint import LAT, _fill_tri, reader  # noqa: E402,F401 (reader: a fixture)
from tests.vision.test_sunda_pawn_lines import _line  # noqa: E402
from vision.sunda import _halves_under_stacks, _tri_pts, tri_points  # noqa: E402

F = np.float32
# a row of three land pieces, each two triangles of one lattice cell: (q, 0, 0) + (q, 0, 1)
LAID = [((q, 0, 0), (q, 0, 1)) for q in range(-1, 2)]


def _layout(reader, paint_mm: float, tri=(0, 0, 1), missing=()):
    """The three pieces as classes (land) and lightness (40, a dark gap, a dip of 3, along the two cuts between
    them), a pawn's paint (class 3) this wide a disc over the middle of ``tri``; the triangles ``missing`` are the
    cloth."""
    x0, y0, x1, y1 = reader._play
    label = np.zeros((y1 - y0, x1 - x0), np.uint8)
    L = np.full(label.shape, 60.0, F)
    for piece in LAID:
        for t in piece:
            if t not in missing:
                _fill_tri(reader, label, t, 1)
    L[label == 1] = 40.0
    for left, right in zip(LAID, LAID[1:]):
        a, b = sorted(set(_tri_pts(left[1])) & set(_tri_pts(right[0])))
        _line(reader, L, a, b, 3.0)
    c = reader._px(LAT.to_mm(tri_points([tri[0]], [tri[1]], [tri[2]]).reshape(-1, 2)).mean(axis=0))
    cv2.circle(label, (int(round(c[0])), int(round(c[1]))), int(round(paint_mm / 2 * reader.s)), 3, -1)
    return label, L


def _found(reader, layout):
    label, L = layout
    lines = reader._lines(L, ((label == 1) | (label == 2)).astype(np.uint8))
    pieces, _, unsure = reader._pieces(LAT, label, L, [], lines)
    return {frozenset(p["tris"]) for p in pieces}, unsure


@pytest.mark.parametrize("paint_mm", [14.0, 16.0])
def test_a_piece_half_under_a_stack_is_found(reader, monkeypatch, paint_mm):
    """A stack's paint (seen from above, a tall stack's outline is 14-17 mm long) over one triangle: with the rule the
    middle piece is found whole; without it its other half is a lone triangle and the piece is lost."""
    label = _layout(reader, paint_mm)
    found, unsure = _found(reader, label)
    assert found == {frozenset(p) for p in LAID}, unsure
    monkeypatch.setattr(sunda, "UNDER_STACK", False)
    found, unsure = _found(reader, label)
    assert frozenset(LAID[1]) not in found
    assert any("0,0,0" in u for u in unsure)


def test_a_pawn_on_the_cloth_beside_a_whole_layout_adds_no_piece(reader):
    """Every piece whole, a stack's paint on the cloth beside the layout: no triangle is alone, nothing is paired
    with the paint."""
    label = _layout(reader, 16.0, tri=(0, -1, 1))      # the cell above the middle piece: cloth there
    found, _ = _found(reader, label)
    assert found == {frozenset(p) for p in LAID}


def test_the_cloth_in_a_pawns_rim_is_no_half_under_a_stack(reader, monkeypatch):
    """Seed 5 table 4 at `hard`: a stack on the layout's outline, the cloth round it in its rim (the print's other
    classes, hidden to the coverage test), beside a lone triangle: taken as that triangle's other half it made a piece
    where none lies. A small paint (6 mm across: 1 of the 7 samples) on the cloth triangle, its rim over the other
    six: no piece (counting the rim's samples with the paint's, as the coverage test does, took it)."""
    label, L = _layout(reader, 6.0, missing=((0, 0, 1),))
    found, unsure = _found(reader, label_L := (label, L))
    assert not any((0, 0, 1) in p for p in found)
    assert any("0,0,0" in u for u in unsure)
    # the rule reaches this triangle: asked for one sample of paint, it takes it
    monkeypatch.setattr(sunda, "UNDER_STACK_SAMPLES", 1)
    found, _ = _found(reader, label_L)
    assert frozenset(LAID[1]) in found


def test_one_hidden_triangle_two_lone_claimants_takes_neither():
    """Two lone triangles beside one hidden triangle: which one's half it is cannot be told, so neither is paired;
    a lone triangle beside two hidden ones is not paired either."""
    hidden = (0, 0, 1)
    lone = [(1, 0, 0), (0, 1, 0)]            # both share a side with (0, 0, 1)
    assert _halves_under_stacks({}, lone, {hidden: 6}) == {}
    assert _halves_under_stacks({}, lone[:1], {hidden: 6}) == {lone[0]: hidden}
    assert _halves_under_stacks({}, [(0, 0, 0)], {(0, 0, 1): 6, (-1, 0, 1): 6}) == {}
    assert _halves_under_stacks({}, lone[:1], {hidden: sunda.UNDER_STACK_SAMPLES - 1}) == {}
