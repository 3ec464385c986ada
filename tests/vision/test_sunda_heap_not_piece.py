"""A heap of the supply is no piece (vision/sunda.py, ``_heaps_not_pieces``, :data:`~vision.sunda.HEAP_NOT_PIECE`;
docs/sunda.md): a yellow heap's shaded sides took the land's class under it, a rhombus there read covered and paired
into a piece where none lies, and the supply's blob over it "touched the layout", its colour uncounted and the heights
its count would tell asked (issue 18: 17 of the 19 asked heights on the tracked line, seeds 2, 5, 6). The rules lay
every piece but the first side to side with the layout and pawns go only on formed land: a pair of triangles whose
group of covered triangles holds no other piece, under a pawn's paint, where other pieces lie, is a heap."""
from __future__ import annotations

A = ((0, 0, 1), (1, 0, 0))              # a rhombus: an up triangle and the down triangle east of it
B = ((0, 1, 0), (0, 1, 1))              # a rhombus sharing a side with A ((0, 1, 0) is (0, 0, 1)'s south neighbour)
C = ((2, 0, 0), (2, -1, 1))             # a rhombus touching A at a corner only (the point 2,0)
FAR = ((10, 10, 1), (11, 10, 0))        # the layout, far off


def _mate(*pairs):
    m = {}
    for t, o in pairs:
        m[t], m[o] = o, t
    return m


def _heaps(pairs, paint, lone=(), held=frozenset(), others=0):
    from vision.sunda import _heaps_not_pieces

    mate = _mate(*pairs)
    around = set(mate) | set(lone) | set(held)
    return set(_heaps_not_pieces(mate, around, paint, held, others))


def test_a_lone_pair_under_paint_apart_from_the_layout_is_no_piece():
    assert _heaps([A, FAR], {A[0]: 3, A[1]: 2}) == set(A)


def test_a_lone_pair_without_paint_stays_a_piece():
    # a piece laid off the layout: read, so that the engine flags the placement; a speck of paint is no heap
    assert _heaps([A, FAR], {A[0]: 1}) == set()


def test_a_pair_sharing_a_side_with_another_piece_stays():
    assert _heaps([A, B, FAR], {A[0]: 7, A[1]: 7, B[0]: 7}) == set()
    # ... or with a piece kept from an earlier reading (not read again)
    assert _heaps([A, FAR], {A[0]: 7, A[1]: 7}, held=frozenset(B)) == set()


def test_the_only_pieces_read_stay():
    # the first piece laid lies alone, a tribe may stand on it
    assert _heaps([A], {A[0]: 7, A[1]: 7}) == set()
    # ... unless pieces kept from an earlier reading lie elsewhere
    assert _heaps([A], {A[0]: 7, A[1]: 7}, held=frozenset(FAR), others=1) == set(A)


def test_a_heap_over_three_triangles_goes_whole():
    # the pair and a lone covered triangle beside it (no second half found: it would be noted and asked)
    assert _heaps([A, FAR], {A[0]: 2, B[0]: 4}, lone=[B[0]]) == set(A) | {B[0]}


def test_two_heaps_touching_at_a_corner_are_lone_twice():
    from vision.sunda import _neighbours, _tri_pts

    # (the fixtures' geometry: A, B and C are rhombi, B shares a side with A, C only the point 2,0)
    assert A[1] in _neighbours(A[0]) and B[0] in _neighbours(A[0]) and B[1] in _neighbours(B[0])
    assert C[1] in _neighbours(C[0]) and not set(C) & {n for t in A for n in _neighbours(t)}
    assert {p for t in A for p in _tri_pts(t)} & {p for t in C for p in _tri_pts(t)} == {(2, 0)}
    assert _heaps([A, C, FAR], {A[0]: 5, C[0]: 5}) == set(A) | set(C)
