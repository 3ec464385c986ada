"""A piece's ``join`` read from its land, not its middle (vision/sunda.py ``_land_joined``, ``JOIN_BY_LAND``;
docs/history/sunda-measured.md, "Session 13, joins"): two runs of land are one region when the print's land runs
between them inside
the piece, wherever it runs. The provisional set's outlines close each run through the inside, so a piece whose runs
stay apart may hold land at its very middle (s075), which the middle's samples read as a join (the photo bench's
`default` tables 0, 5 and 7 at seed 1: an island merged, a score off by 2-8)."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

import vision.sunda as sunda  # noqa: E402
from tablehub.games.sunda.pieces import load_pieces  # noqa: E402
from tests.vision.test_sunda_joint import LAT  # noqa: E402
from vision.sunda import corners_of  # noqa: E402

FRAME = np.array([[0.0, 0.0], [1.0, 0.0], [1.5, np.sqrt(3) / 2], [0.5, np.sqrt(3) / 2]])


@pytest.fixture()
def reader(sunda_reader):
    return sunda_reader


def _print(pid: str):
    return next(p for p in load_pieces().pieces if p.id == pid)


def _label(reader, piece, hide_mm: float = 0.0) -> np.ndarray:
    """The piece ``piece`` of the packaged set drawn at 0,0 turn 0 as the classes show it (water 2, its outline's
    land 1), a gap's width inside its lattice rhombus; ``hide_mm``: a red pawn's paint (3) that wide over the
    piece's middle."""
    x0, y0, x1, y1 = reader._play
    label = np.zeros((y1 - y0, x1 - x0), np.uint8)
    C = LAT.to_mm(np.array(corners_of(0, 0, 0), float))
    A = np.linalg.lstsq(np.column_stack([FRAME, np.ones(4)]), C, rcond=None)[0]     # the piece's frame -> mat mm
    mid = C.mean(axis=0)

    def px(frame_pts) -> np.ndarray:
        mm = np.column_stack([np.asarray(frame_pts, float), np.ones(len(frame_pts))]) @ A
        mm = mid + (mm - mid) * (1.0 - 1.0 / (LAT.side_mm * np.sqrt(3) / 2))
        return np.round(reader._px(mm) * 16).astype(np.int32)
    cv2.fillPoly(label, [px(FRAME)], 2, cv2.LINE_8, shift=4)
    for poly in piece.outline:
        cv2.fillPoly(label, [px(poly)], 1, cv2.LINE_8, shift=4)
    if hide_mm:
        c = np.round(reader._px(mid[None])[0]).astype(int)
        cv2.circle(label, (int(c[0]), int(c[1])), int(round(hide_mm / 2 * reader.s)), 3, -1)
    return label


def _read(reader, label) -> dict:
    pieces = [{"q": 0, "r": 0, "turn": 0}]
    reader._read_sides(pieces, LAT, label)
    reader._fill_hidden(pieces, set(), LAT, [])
    return pieces[0]


def test_runs_apart_with_land_at_the_middle_are_no_join(reader, monkeypatch):
    """s075 (LLL LWL LWW LLL, join water): one run's land closes 1 mm past the piece's middle, 6 mm of water from the
    other's. Its join is water; the middle's samples read land (and did, without JOIN_BY_LAND)."""
    piece = _print("s075")
    assert piece.join == "water"
    label = _label(reader, piece)
    p = _read(reader, label)
    assert "".join(p["ring"]) == piece.ring.replace(" ", "")
    assert p["mid"] == "L"                       # what the middle shows: land
    assert p["join"] == "water"
    monkeypatch.setattr(sunda, "JOIN_BY_LAND", False)
    assert _read(reader, label)["join"] == "land"


@pytest.mark.parametrize("pid", ["s017", "s048"])
def test_runs_joined_through_the_piece_are_a_join(reader, pid):
    piece = _print(pid)
    assert piece.join == "land"
    assert _read(reader, _label(reader, piece))["join"] == "land"


@pytest.mark.parametrize("pid", ["s038", "s065", "s071", "s074", "s117"])
def test_runs_apart_are_no_join(reader, pid):
    piece = _print(pid)
    assert piece.join == "water"
    assert _read(reader, _label(reader, piece))["join"] == "water"


def test_a_pawns_paint_over_a_neck_of_land_does_not_cut_it(reader):
    """A pawn's paint over the land that joins two runs (a marker blurred to 8 mm, a leaning stack's top) hides it and
    the piece's middle: only water parts two runs (the middle's samples, hidden, read no join)."""
    piece = _print("s048")
    assert _read(reader, _label(reader, piece, hide_mm=8.0))["join"] == "land"


def test_a_neck_of_land_between_blurred_coasts_is_a_join(reader):
    """At `hard` a coast blurs into a band of the cloth's class (neither land nor water) up to 2 mm each side: s048's
    neck of land, 4 mm wide, shows a thread of land between two such bands, cut in places. Water alone parts runs."""
    piece = _print("s048")
    label = _label(reader, piece)
    land = (label == 1).astype(np.uint8)
    band = (cv2.dilate(land, np.ones((9, 9), np.uint8)) > 0) & (cv2.erode(land, np.ones((9, 9), np.uint8)) == 0)
    label[band & (label > 0)] = 0
    assert _read(reader, label)["join"] == "land"
