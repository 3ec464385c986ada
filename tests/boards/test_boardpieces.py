"""Pieces on the board's spaces: the six ships and the chests told apart, unsure when unsure."""
from __future__ import annotations

import numpy as np
import pytest

from vision import VisionError
from vision.boardpieces import PieceBook, SpaceMap, enrol_pieces, find_pieces
from vision.boardreg import BoardReference, BoardRegistrar
from vision.sim.boardtable import BoardPiece, spot_in
from vision.sim.camera import NUISANCE

NAMES = ["Arriba", "Bravo", "Caribic", "Diabolo", "Evita", "Fuego", "chest up", "chest down"]
KINDS = [("ship", i) for i in range(6)] + [("chest_up", 6000), ("chest_down", 0)]


@pytest.fixture(scope="module")
def setup(table):
    cam = NUISANCE["default"].other_session()
    photo, truth = table.shoot(table.scene(), camera=cam, seed=5)
    lens = table.lens(truth)
    ref = BoardReference.from_photo(photo, table.size, 2.0, corners_px=table.corners(truth), lens=lens)
    reg = BoardRegistrar(ref, lens)
    c = table.board.centres
    spots = list(table.board.spaces)[10:18]
    frame, _ = table.shoot(table.scene([BoardPiece(k, v, *c[s]) for (k, v), s in zip(KINDS, spots)]), camera=cam,
                           seed=6)
    canvas = reg.register(frame).canvas(frame, 2.0, table.size)
    book = enrol_pieces(canvas, ref.canvas, 2.0, [(n, k, *c[s]) for n, (k, _), s in zip(NAMES, KINDS, spots)])
    spaces = SpaceMap({s: table.board.polygons[s] for s in table.board.spaces}, table.size, 2.0)
    return ref, reg, book, spaces


def read(table, setup, pieces, seed=0, origin=(43.0, 37.0), angle=1.0):
    ref, reg, book, spaces = setup
    frame, _ = table.shoot(table.scene(pieces, origin=origin, angle=angle), "default", seed=seed)
    canvas = reg.register(frame).canvas(frame, 2.0, table.size)
    return find_pieces(canvas, ref.canvas, 2.0, book, spaces)


def test_every_ship_and_chest_is_named_on_its_space_wherever_it_stands_in_the_space(table, setup):
    rng = np.random.default_rng(3)
    polys = table.board.polygons
    where = [int(s) for s in rng.choice(list(table.board.spaces), len(KINDS), replace=False)]
    pieces = [BoardPiece(k, v, *spot_in(polys[s], rng), float(rng.uniform(0, 180))) for (k, v), s in zip(KINDS, where)]
    seen = read(table, setup, pieces, seed=8)
    assert sorted((p.name, p.space) for p in seen) == sorted(zip(NAMES, where))
    assert all(not p.unsure for p in seen)


def test_the_empty_board_shows_no_piece(table, setup):
    assert read(table, setup, [], seed=9) == []


def test_a_ship_on_a_line_is_unsure_with_both_spaces(table, setup):
    b = table.board
    a, n = 40, b.neighbours[40][0]
    pa, pb = np.mean(b.polygons[a], axis=0), np.mean(b.polygons[n], axis=0)
    # the point of the shared outline between the two centres
    shared = [p for p in b.polygons[a] if min(np.hypot(*(np.subtract(p, q))) for q in b.polygons[n]) < 1.0]
    mid = np.mean(shared, axis=0) if shared else (pa + pb) / 2
    seen = read(table, setup, [BoardPiece("ship", 2, float(mid[0]), float(mid[1]), 0.0)], seed=10)
    assert len(seen) == 1 and seen[0].name == "Caribic"
    assert seen[0].space is None and "line" in seen[0].unsure and {a, n} <= set(seen[0].candidates)


def test_the_piece_book_round_trips_and_refuses_a_bad_file(setup, tmp_path):
    book = setup[2]
    again = PieceBook.load(book.save(tmp_path / "pieces.json"))
    assert again.names() == NAMES and np.allclose(again.templates[3].hist, book.templates[3].hist, atol=1e-5)
    (tmp_path / "bad.json").write_text('{"format": "something else"}')
    with pytest.raises(VisionError, match="bad.json: 'format'") as refused:
        PieceBook.load(tmp_path / "bad.json")
    assert "enrol again" not in str(refused.value)
    # a book of an earlier version (its templates measured otherwise): the owner is told to enrol again
    (tmp_path / "old.json").write_text('{"format": "tablehub-board-pieces/1"}')
    with pytest.raises(VisionError, match=r"old.json: 'format' must be 'tablehub-board-pieces/2' \(enrolled by "
                                          r"another version: enrol again\)"):
        PieceBook.load(tmp_path / "old.json")
