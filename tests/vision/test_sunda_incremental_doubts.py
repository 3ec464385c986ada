"""An incremental read reads the doubts the reading before left (covered triangles without a second half,
``REREAD_DOUBTS``) in a window round each alone, not the table between them (``LOCAL_DOUBTS``; docs/sunda.md
"Incremental reads"). Seed 7 `hard` table 5 of the bench (``benchmarks/sunda_vision.read_table``): its frame before the
last piece, read from scratch, left three such triangles across the table, one by a piece paired wrong; reading them
in one window cost a read of the whole table (268 ms where the table's other incremental reads took 30-40)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import vision.sunda as sunda
from benchmarks.sunda_vision import read_table
from vision.mat import Mat
from vision.sim.sundatable import PAWN_COLOURS, compare_reading
from vision.sunda import LatticePose, SundaReader, SundaReading, _neighbours, tri_points

NAMES = ["P1", "P2"]
COLOURS = {p: PAWN_COLOURS[i] for i, p in enumerate(NAMES)}


def _note(q: int, r: int, corner: int):
    return sunda.T("triangle {q},{r},{corner} is covered but no second half of its piece was found", q=q, r=r,
                   corner=corner)


def _reader(angle: float = 17.0) -> tuple[SundaReader, LatticePose]:
    reader = SundaReader.__new__(SundaReader)
    reader.s, reader.side_mm = 2.0, 30.0
    reader._play = (0, 0, 2400, 2400)
    return reader, LatticePose((600.0, 600.0), angle, 30.0)


def _box_of(reader: SundaReader, lat: LatticePose, tris) -> tuple[int, int, int, int]:
    c = lat.to_mm(tri_points(*(np.array(v) for v in zip(*tris))).reshape(-1, 2)) * reader.s
    return (int(c[:, 0].min()), int(c[:, 1].min()), int(c[:, 0].max()) + 1, int(c[:, 1].max()) + 1)


@pytest.mark.parametrize("angle", [0.0, 17.0, 41.5])
def test_a_doubts_window_holds_whole_every_triangle_two_steps_from_it(angle):
    """The pieces a doubt may have been paired wrong with are its neighbours' (a neighbour's mate is one step
    farther): the window round it must hold each of them whole (``_whole_in_window``), or it is kept as read."""
    reader, lat = _reader(angle)
    for t in [(0, 0, 0), (3, -2, 1)]:
        reader._win = reader._doubt_box(lat, [t])
        near = {t} | {n for a in _neighbours(t) for n in [a] + _neighbours(a)}
        P = lat.to_mm(tri_points(*(np.array(v) for v in zip(*sorted(near)))).reshape(-1, 2)).reshape(-1, 3, 2)
        assert reader._whole_in_window(P).all()
        w, h = reader._win[2] - reader._win[0], reader._win[3] - reader._win[1]
        assert w * h < 0.03 * reader._play[2] * reader._play[3]     # (a small part of the table)


def test_doubts_by_the_change_are_read_in_its_window_and_the_others_each_in_their_own():
    reader, lat = _reader()
    near, far, beside, alone = (1, 1, 0), (12, 3, 1), (12, 4, 0), (-9, 14, 1)
    previous = SundaReading(lat, [], [], unsure=[_note(*t) for t in (near, far, beside, alone)])
    change = _box_of(reader, lat, [(0, 0, 0), (0, 0, 1)])
    change = (change[0] - 100, change[1] - 100, change[2] + 100, change[3] + 100)
    big = 0.4 * 2400 * 2400
    win, inside = reader._doubt_windows(previous, frozenset({near, far, beside, alone}), change, big)
    assert inside == {near}
    assert all(a <= b for a, b in zip(win[:2], change[:2])) and all(a >= b for a, b in zip(win[2:], change[2:]))
    assert all(a <= b for a, b in zip(win[:2], reader._doubt_box(lat, [near])[:2]))
    pending = {tris: box for box, tris in reader._pending}
    assert set(pending) == {frozenset({far, beside}), frozenset({alone})}      # two doubts side by side: one window
    for tris, box in pending.items():
        for t in tris:
            d = reader._doubt_box(lat, [t])
            assert box[0] <= d[0] and box[1] <= d[1] and box[2] >= d[2] and box[3] >= d[3]
    for (a, _), (b, _) in itertools.combinations(reader._pending, 2):
        assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


@pytest.fixture(scope="module")
def seed7_table5():
    return read_table("hard", 7, 5, NAMES, COLOURS, Mat.default())


def _windows(reader, frame, previous) -> tuple[list[tuple[int, int, int, int]], SundaReading]:
    """The windows an incremental read classified, and its reading."""
    seen = []
    classify = reader._classify

    def spy(*a, **k):
        seen.append(reader._win)
        return classify(*a, **k)
    reader._classify = spy
    try:
        out = reader.read(frame, previous=previous)
    finally:
        del reader._classify
    return seen, out


def test_scattered_doubts_are_read_again_without_reading_the_table_between(seed7_table5):
    t = seed7_table5
    reader, r0 = t["reader"], t["r0"]
    doubts = reader._doubts(r0)
    assert len(doubts) >= 2, "the frame before left fewer than two doubts: the case is gone"
    wins, out = _windows(reader, t["frame"], r0)
    play = reader._play
    area = (play[2] - play[0]) * (play[3] - play[1])
    assert play not in wins
    assert sum((w[2] - w[0]) * (w[3] - w[1]) for w in wins) < 0.4 * area
    examined = set()
    for w in wins:      # every doubt lay in a window read
        for d in doubts:
            c = r0.lattice.to_mm(tri_points(*(np.array([v]) for v in d)).reshape(-1, 2)) * reader.s
            c = np.clip(c, play[:2], play[2:])      # (a piece may reach past the play area: read to its edge)
            if (c >= w[:2]).all() and (c <= w[2:]).all():
                examined.add(d)
    assert examined == doubts
    # ... and the pieces pair as from scratch: none lost but what the read from scratch loses
    res = {k: compare_reading(v, t["truth"]) for k, v in (("r0", r0), ("r1", t["r1"]), ("ri", out))}

    def lost(k):
        return {w for w in res[k]["wrong"] if w.endswith("not found")}
    assert len(lost("r0")) > 1
    assert lost("ri") <= lost("r1"), sorted(lost("ri") - lost("r1"))
    assert res["ri"]["extra_pieces"] <= res["r1"]["extra_pieces"]
    assert not reader._doubts(out)          # read once: not again


def test_a_doubts_window_keeps_the_frames_tribes_and_markers(seed7_table5, monkeypatch):
    """A doubt's window reads the pieces alone: its tribes and markers were read in the same frame already (or lie
    where nothing changed), and measuring them again cost most of a window's read."""
    t = seed7_table5
    reader, r0 = t["reader"], t["r0"]
    calls = []
    tribes = reader._tribes

    def spy(*a, **k):
        calls.append(reader._win)
        return tribes(*a, **k)
    monkeypatch.setattr(reader, "_tribes", spy)
    wins, out = _windows(reader, t["frame"], r0)
    assert len(wins) > 1, "no doubt was read in a window of its own: the case is gone"
    assert len(calls) == 1
    assert [(x.q, x.r, x.top) for x in out.tribes] == [(x.q, x.r, x.top) for x in t["ri"].tribes]


def test_the_sets_notes_doubt_the_pieces_they_name():
    """A "piece at q,r" note of the owner's set doubts both triangles of each piece anchored there (``SET_DOUBTS``);
    a note on a triangle, that triangle; other notes nothing."""
    pieces = [{"q": 2, "r": 0, "turn": 0, "tris": ((2, 0, 0), (2, 0, 1))},
              {"q": 5, "r": 1, "turn": 1, "tris": ((5, 1, 1), (5, 2, 0))}]
    unsure = [sunda.T("piece at {q},{r}: read {ring}, the set has {first} or {second}", q=2, r=0, ring="W" * 12,
                      first="W" * 12, second="W" * 11 + "L"),
              _note(-1, 3, 0), "piece at 5,1: a note without its place"]
    assert sunda._doubted(SundaReading(None, pieces, [], unsure=unsure)) == {(2, 0, 0), (2, 0, 1), (-1, 3, 0)}


@pytest.mark.parametrize("seed, table", [(6, 2), (8, 2)])
def test_a_piece_the_set_doubts_is_read_again_in_this_frame(seed, table):
    """Seed 6 `hard` table 2: the frame before the last piece, read from scratch, read a slot of a piece far from the
    change wrong (the set said so: "piece at 5,-5: read LWLWWWWWWWWL, the set has LLLWWWWWWWLL or ..."), and the
    incremental read kept it as read: 542 sides of 544 where the read from scratch of the same frame read 544 (seed 8
    table 2: 543, "piece at 2,0"). Read again once in a window round the piece, it reads as from scratch. (On the Pi's
    stack, numpy 1.24 and OpenCV 4.11, neither frame before shows the case: seed 6's reads that slot right, seed 8's
    has no note of the set's; skipped there.)"""
    t = read_table("hard", seed, table, NAMES, COLOURS, Mat.default())
    r0, ri = t["r0"], t["ri"]
    tri_notes = {sunda._triangle_of(u) for u in r0.unsure}
    if not sunda._doubted(r0) - tri_notes:
        pytest.skip("the set doubted no piece of the frame before on this stack: no case")

    def wrong(reading):
        return {w for w in compare_reading(reading, t["truth"])["wrong"] if w.startswith("piece") and "asked" not in w}
    misread = {w for w in wrong(t["r0"]) if not w.endswith("not found")}      # (the last piece: not laid yet)
    if not misread - wrong(t["r1"]):
        pytest.skip("the frame before read every piece as from scratch on this stack: no case")
    assert wrong(ri) <= wrong(t["r1"]), sorted(wrong(ri) - wrong(t["r1"]))


def test_the_doubts_windows_read_in_one_pass_read_as_each_in_a_pass_of_its_own():
    """Seed 1 `hard` table 4: six doubts and three pieces the set doubts, in four windows of their own read in one pass
    (the slots filled once). The slots' unmixing looked at the change's window's colours in every window (two windows
    of one size: three all-water pieces read all land, 534 sides of 544); each window must be read as a pass of its
    own reads it."""
    t = read_table("hard", 1, 4, NAMES, COLOURS, Mat.default())
    reader, r0 = t["reader"], t["r0"]

    def one_by_one(frame, previous):
        reader._pending = None
        out = reader._read(frame, previous)
        pending, reader._pending = reader._pending, None
        assert pending and len(pending) > 1, "the doubts lay in fewer than two windows of their own: the case is gone"
        for force in pending:
            out = reader._read(frame, out, [force])
        return out
    together = reader.read(t["frame"], previous=r0)
    apart = one_by_one(t["frame"], r0)
    assert sorted((p["tris"], p["sides"], p["join"]) for p in together.pieces) == \
        sorted((p["tris"], p["sides"], p["join"]) for p in apart.pieces)
