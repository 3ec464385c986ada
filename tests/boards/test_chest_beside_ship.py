"""A face-up chest touching a ship's hull (issue 17, session 10: 4 of the whole Karibik game's 18 phone corrections were a
chest lying against a ship in port read as that ship's cargo, "sail; attack" where only the sail was played). Each cause
able to fail on the code before: (1) the whole blob (ship and chest, 506-548 mm2) matched the ship's laden template and
was never split, or split and merged back, because nothing said how large a ship with a chest aboard can be
(:func:`carry_limit`); (2) once split, the chest's part, its lid with a sliver of the hull's brown, scored 0.43-0.50
against its template, over a split part's bar, and was 'unsure' although no other piece came near it
(:func:`sized_like`); (3) a part larger than any piece of its look gives back what lies beyond its own colour
(:func:`trim_to_size`). Pictures at 2 px/mm, drawn as the simulated table draws its pieces."""
from __future__ import annotations

import numpy as np
import pytest

from vision.boardpieces import (PieceBook, PieceTemplate, SpaceMap, _NH, carry_limit, enrol_pieces, find_pieces,
                                merge_carried, sized_like, trim_to_size)
from vision.sim.boardtable import BoardPiece

from .test_board_split_flood import _draw, _touching

SHAPE = (240, 600)
NAMES = {2: "Caribic", 0: "Arriba", 5: "Fuego"}


@pytest.fixture(scope="module")
def laden_book():
    """Three ships bare and each carrying a chest, a face-up and a face-down chest, enrolled from one drawing, apart."""
    spots = [("Caribic", "ship", BoardPiece("ship", 2, 40, 40, 0.0)), ("Arriba", "ship", BoardPiece("ship", 0, 110, 40, 0.0)),
             ("Fuego", "ship", BoardPiece("ship", 5, 40, 90, 0.0)),
             ("chest down", "chest", BoardPiece("chest_down", 0, 110, 90, 0.0)),
             ("chest up", "chest", BoardPiece("chest_up", 5000, 180, 90, 0.0)),
             ("Caribic", "ship laden", BoardPiece("ship", 2, 180, 40, 0.0, carries=6000, deck=(10.0, 0.0, 0.0))),
             ("Arriba", "ship laden", BoardPiece("ship", 0, 250, 40, 0.0, carries=6000, deck=(-9.0, 1.0, 30.0))),
             ("Fuego", "ship laden", BoardPiece("ship", 5, 250, 90, 0.0, carries=6000, deck=(9.0, 0.0, 90.0)))]
    empty = _draw([], shape=SHAPE, seed=1)
    book = enrol_pieces(_draw([p for _, _, p in spots], shape=SHAPE, seed=2), empty, 2.0,
                        [(n, k, p.x_mm, p.y_mm) for n, k, p in spots])
    return empty, book, SpaceMap({1: [(0, 0), (300, 0), (300, 120), (0, 120)]}, (300.0, 120.0), 2.0)


def ship_and_chest(look: int, yaw: float, direction: float, kind: str, value: int):
    """A ship of ``look`` turned ``yaw`` degrees at (60, 55) mm and a chest of ``kind`` (``value``) touching it in
    ``direction`` degrees from its yaw, turned 35 degrees from it."""
    ship = BoardPiece("ship", look, 60.0, 55.0, float(yaw))
    d = np.radians(yaw + direction)
    return ship, _touching(ship, kind, value, yaw + 35.0, (np.cos(d), np.sin(d)))


# (ship's yaw, the chest's direction from the ship relative to its yaw, the ship's look): before, every one of these
# came out as the ship laden alone (the chest gone aboard) or the ship and an 'unsure' part
@pytest.mark.parametrize("yaw,direction,look", [(0, 0, 0), (0, 90, 2), (20, 180, 0), (45, 90, 2), (70, 0, 2),
                                                (70, 30, 5), (100, 60, 0), (150, 90, 2)])
def test_a_face_up_chest_touching_a_ship_is_a_chest_beside_it_not_its_cargo(laden_book, yaw, direction, look):
    empty, book, spaces = laden_book
    ship, chest = ship_and_chest(look, yaw, direction, "chest_up", 7000)
    seen = find_pieces(_draw([ship, chest], shape=SHAPE, seed=4), empty, 2.0, book, spaces)
    assert sorted((p.name or "?", p.kind or "?") for p in seen) == sorted([(NAMES[look], "ship"), ("chest up", "chest")]), \
        [(p.name, p.kind, p.unsure, p.score) for p in seen]
    mine = next(p for p in seen if p.name == NAMES[look])
    assert np.hypot(mine.x_mm - ship.x_mm, mine.y_mm - ship.y_mm) < 2.0, "the ship's centre pulled by the chest"


@pytest.mark.parametrize("deck", [(9.0, 0.0, 90.0), (-8.0, 1.5, 30.0), (5.0, -2.5, 120.0)])
def test_a_ship_carrying_a_chest_anywhere_on_its_deck_is_still_the_ship_laden(laden_book, deck):
    """The other side of the bar: a chest on the deck (at least 60 % of it over the hull) keeps the ship one piece."""
    empty, book, spaces = laden_book
    ship = BoardPiece("ship", 2, 60.0, 55.0, 25.0, carries=4000, deck=deck)
    seen = find_pieces(_draw([ship], shape=SHAPE, seed=5), empty, 2.0, book, spaces)
    assert [(p.name, p.kind) for p in seen] == [("Caribic", "ship laden")], [(p.name, p.kind, p.unsure) for p in seen]


def _hist(colour=(50.0, 0.0, 0.0)) -> np.ndarray:
    h = np.zeros(_NH + 6, np.float32)
    h[:_NH] = 1.0 / _NH
    h[_NH:_NH + 3] = colour
    h[_NH + 3:] = colour
    return h


def test_carry_limit_is_the_bare_piece_and_most_of_the_smallest_other_piece():
    book = PieceBook([PieceTemplate("Arriba", "ship", 370.0, _hist()), PieceTemplate("Arriba", "ship laden", 410.0, _hist()),
                      PieceTemplate("chest up", "chest", 170.0, _hist()), PieceTemplate("chest down", "chest", 160.0, _hist())])
    assert carry_limit(book, "Arriba") == pytest.approx(370.0 + 0.6 * 160.0)
    # a ship laden (overhang up to 40 % of a chest) passes; a ship with a whole chest beside it does not
    assert 370.0 + 0.4 * 165.0 < carry_limit(book, "Arriba") < 370.0 + 0.9 * 165.0
    assert carry_limit(PieceBook([PieceTemplate("x", "ship laden", 400.0, _hist())]), "x") == float("inf")


def test_merge_carried_never_makes_a_piece_larger_than_itself_laden():
    """Two touching parts whose union looks like the ship laden, but is a whole chest larger than the bare ship: two."""
    book = PieceBook([PieceTemplate("Arriba", "ship", 370.0, _hist()), PieceTemplate("Arriba", "ship laden", 470.0, _hist()),
                      PieceTemplate("chest up", "chest", 165.0, _hist())])
    ppm = 2.0
    a = np.zeros((80, 120), bool)
    b = np.zeros((80, 120), bool)
    a[20:60, 10:75] = True  # the ship, 650 mm2
    b[28:52, 75:105] = True  # a chest touching its end, 180 mm2
    a_mm2, b_mm2 = a.sum() / ppm ** 2, b.sum() / ppm ** 2
    book.templates[0].area_mm2, book.templates[1].area_mm2 = a_mm2, a_mm2 + b_mm2  # the laden template fits the union
    book.templates[2].area_mm2 = b_mm2
    score = lambda m: [(0.1, 1), (0.9, 2)] if m.sum() > a.sum() else [(0.1, 0), (0.9, 2)]  # noqa: E731
    parts = merge_carried([a, b], score, book, ppm, 0.8, 0.08, size_slack=2.0)
    assert len(parts) == 2
    book.templates[2].area_mm2 = 3 * b_mm2  # were the chest three times larger, its whole would fit a ship laden
    assert len(merge_carried([a, b], score, book, ppm, 0.8, 0.08, size_slack=2.0)) == 1


def test_a_part_is_named_by_its_size_only_far_from_every_other_look():
    book = PieceBook([PieceTemplate("chest up", "chest", 170.0, _hist()), PieceTemplate("Bravo", "ship", 360.0, _hist())])
    assert sized_like([(0.46, 0), (1.4, 1)], 180.0, book, 0.8, 0.08)
    assert not sized_like([(0.46, 0), (0.6, 1)], 180.0, book, 0.8, 0.08)  # another look too near
    assert not sized_like([(0.46, 0), (1.4, 1)], 260.0, book, 0.8, 0.08)  # half as large again: not that piece
    assert not sized_like([(0.85, 0), (1.9, 1)], 170.0, book, 0.8, 0.08)  # no piece at all


def test_a_part_larger_than_its_piece_gives_back_what_lies_beyond_its_own_colour():
    """A chest (a gold lid in a dark rim, 18 x 24 px) with a 6 px strip of brown the flood gave it (a hull's end): the
    strip goes back to the neighbouring part it came from; the chest alone keeps everything."""
    ppm = 2.0
    lab = np.zeros((60, 100, 3), np.float32)
    lab[:] = (40.0, 15.0, 25.0)  # brown
    box = np.zeros((60, 100), bool)
    box[20:38, 50:74] = True  # 108 mm2: the chest
    lab[box] = (20.0, 2.0, 5.0)  # its dark rim
    lab[23:35, 53:71] = (75.0, 10.0, 60.0)  # its gold lid
    strip = np.zeros_like(box)
    strip[20:38, 44:50] = True  # 27 mm2 of brown on the chest's side
    ship = np.zeros_like(box)
    ship[16:42, 4:44] = True
    book = PieceBook([PieceTemplate("chest up", "chest", 110.0, _hist((75.0, 10.0, 60.0))),
                      PieceTemplate("Arriba", "ship", 300.0, _hist((40.0, 15.0, 25.0)))])
    score = lambda m: [(0.3, 0), (1.2, 1)] if (m & box).sum() > 0.5 * m.sum() else [(0.3, 1), (1.2, 0)]  # noqa: E731
    chest_part, ship_part = trim_to_size([box | strip, ship], score, book, lab, ppm)
    assert (chest_part & box).sum() == box.sum(), "the chest lost part of itself"
    assert not (chest_part & strip)[:, 44:49].any(), "the hull's end stayed with the chest"
    assert (ship_part & strip).sum() >= 0.8 * strip.sum()
    same = trim_to_size([box.copy(), ship.copy()], score, book, lab, ppm)
    assert (same[0] == box).all() and (same[1] == ship).all()
