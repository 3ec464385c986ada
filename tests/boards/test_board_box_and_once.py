"""Two rules of the pieces' physics (issue 17, session 11). Each able to fail on the code before:

(1) **a chest is a box.** Karibik seed 2 ``hard`` frame 11: laden Diabolo's blob (453 mm2) was a square millimetre over
the ship's carry limit, so it was split; its yellow sail's two halves, cut apart by the hull's dark bow seeding a part
of its own, each had the lids' colour and about a chest's area, and were named 'chest up' by look and size alone
(:func:`sized_like`, :func:`_named_part`): two wrong pieces and Diabolo lost. A part of a split is now named a box-shaped
piece only with a box's convex outline (:func:`boxed_like`); the two masks below are those parts, as
the split cut them from that frame (2 px/mm), with their measured scores.

(2) **each ship once.** The six ships are known pieces: two blobs named the same ship cannot both be it
(:func:`once_each`, applied by :class:`vision.boardwatch.BoardWatch` to every reading)."""
from __future__ import annotations

import base64

import cv2
import numpy as np
import pytest

from vision.boardpieces import (BOX_CONVEX, BOX_FILL, _NH, convexity, PieceBook, PieceSeen, PieceTemplate, _named_part, boxed_like, blobs,
                                difference, enrol_pieces, once_each, outline_box)
from vision.sim.boardtable import BoardPiece

from .test_board_split_flood import _draw

# the two parts of Diabolo's blob the colour split cut at seed 2 `hard` frame 11 (PNG, cropped to the part)
FRAME11_PARTS = [
    "iVBORw0KGgoAAAANSUhEUgAAADAAAAAeCAAAAABPz8IdAAAAo0lEQVQ4y5VUSQ7EMAwqUf//ZUZqO6qX2iY5RRiC5SXHIRzyvaPjPVFaEAWTHkEn6B/E"
    "Jj8jHOLY5EeEAWcinQWfVa1RpONwfAbKN33aGOlBgZnuFUvh27M2+bfDPN8uO8kAew7m1aUYwChAIZOr1U+/g+B7eF3j/L6w3/JLzJDoKPjbUvhH7rIi"
    "z3AvoFKuNBovn2JPjANSZZH3ocsI0qdbQT/zQTMaqJbMGAAAAABJRU5ErkJggg==",
    "iVBORw0KGgoAAAANSUhEUgAAADEAAAAiCAAAAADTtW71AAAAjElEQVQ4y72UWw6AIAwEO8b7X7k+Qogoj64R+THEHbZLSc2Gy73YMpI/ZPR01aMZSu8M"
    "piKCRxITS3FhFlOXSLju4VWCcXwl+/zke1GLUGvXA70q9Bx8d1er2I2d8On9MH7w0F8JrZtp/OBoVGXk+fmpTy0iE7E4LjhFBaJAeNlBi5sQJDJC1CMx"
    "WbgBrqwZNlVzp2MAAAAASUVORK5CYII=",
]
# their scores in that frame: (distance, template index), 0 = chest up, 1 = Diabolo
FRAME11_SCORES = [[(0.32, 0), (0.62, 1)], [(0.35, 0), (0.55, 1)]]


def _mask(b64: str) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(base64.b64decode(b64), np.uint8), cv2.IMREAD_GRAYSCALE) > 0


def _frame11_book() -> PieceBook:
    """The chest and Diabolo as enrolled at that level (areas and outlines measured there)."""
    h = np.zeros(_NH + 6, np.float32)
    return PieceBook([PieceTemplate("chest up", "chest", 169.0, h, (15.5, 12.0, 0.91)),
                      PieceTemplate("Diabolo", "ship", 358.0, h, (31.0, 14.5, 0.80))])


@pytest.mark.parametrize("k", [0, 1])
def test_a_sail_half_with_the_lids_colour_and_a_chests_area_is_no_chest(k):
    book = _frame11_book()
    part = _mask(FRAME11_PARTS[k])
    area = part.sum() / 4.0
    # the cause: by look and size alone the part passes a part's bar as a chest (the code before named it so)
    assert _named_part(FRAME11_SCORES[k], area, book, 0.8, 0.08)
    # its outline is no box's (convex, with at most a hull's end): a notched sail half
    assert convexity(part) < BOX_CONVEX, convexity(part)
    assert not boxed_like(part, book.templates[0], 2.0)
    assert not _named_part(FRAME11_SCORES[k], area, book, 0.8, 0.08, part, 2.0)


def test_outline_box_measures_a_turned_rectangle():
    m = np.zeros((80, 80), np.uint8)
    pts = cv2.boxPoints(((40.0, 40.0), (31.0, 24.0), 30.0))  # 15.5 x 12 mm at 2 px/mm
    cv2.fillConvexPoly(m, np.round(pts).astype(np.int32), 1)
    long_, short, fill = outline_box(m > 0, 2.0)
    assert abs(long_ - 15.5) < 1.2 and abs(short - 12.0) < 1.2 and fill > 0.9  # the fill rasterises edge pixels


def test_a_chest_drawn_alone_has_its_templates_outline_and_a_ship_is_no_box():
    shape = (120, 200)
    empty = _draw([], shape=shape, seed=1)
    spots = [("chest up", "chest", BoardPiece("chest_up", 5000, 30, 30, 0.0)),
             ("Diabolo", "ship", BoardPiece("ship", 3, 60, 30, 0.0))]
    book = enrol_pieces(_draw([p for _, _, p in spots], shape=shape, seed=2), empty, 2.0,
                        [(n, k, p.x_mm, p.y_mm) for n, k, p in spots])
    chest, ship = book.templates
    assert chest.box is not None and chest.box[2] >= BOX_FILL, chest.box  # a box
    assert ship.box is not None and ship.box[2] < BOX_FILL, ship.box  # a pointed hull: no box, never checked
    for yaw in (0.0, 35.0, 80.0, 130.0):
        diff, _ = difference(_draw([BoardPiece("chest_up", 7000, 50, 30, yaw)], shape=shape, seed=3), empty)
        (b,) = blobs(diff, 2.0)
        assert boxed_like(b.mask, chest, 2.0), (yaw, outline_box(b.mask, 2.0), chest.box)


def test_the_books_outline_is_saved_and_optional(tmp_path):
    book = _frame11_book()
    back = PieceBook.load(book.save(tmp_path / "pieces.json"))
    assert [t.box for t in back.templates] == [t.box for t in book.templates]
    old = PieceBook([PieceTemplate("chest up", "chest", 169.0, np.zeros(_NH + 6, np.float32))])
    back = PieceBook.load(old.save(tmp_path / "old.json"))
    assert back.templates[0].box is None
    assert boxed_like(_mask(FRAME11_PARTS[0]), back.templates[0], 2.0)  # no outline enrolled: no shape check


def _seen(name, score, x=10.0, space=1, unsure=""):
    return PieceSeen(name, "ship" if name else None, space, x, 20.0, score, 0.3, unsure)


def test_a_ship_seen_twice_keeps_its_name_only_where_it_looks_most_like_it():
    pieces = [_seen("Diabolo", 0.45, 10.0, 3), _seen("Arriba", 0.2, 50.0, 4), _seen("Diabolo", 0.19, 90.0, 5)]
    out = once_each(pieces, {"Diabolo", "Arriba"})
    named = [(p.name, p.space) for p in out if p.name]
    assert sorted(named) == [("Arriba", 4), ("Diabolo", 5)]
    (other,) = [p for p in out if p.name is None]
    assert other.space == 3 and other.candidates[:1] == ("Diabolo",) and "more than once" in other.unsure


def test_a_ship_seen_twice_alike_is_named_nowhere():
    out = once_each([_seen("Bravo", 0.30, 10.0, 3), _seen("Bravo", 0.33, 90.0, 5)], {"Bravo"})
    assert all(p.name is None and p.candidates[:1] == ("Bravo",) for p in out)


def test_pieces_there_are_many_of_are_left_alone():
    pieces = [_seen("red boat", 0.2, 10.0, 3), _seen("red boat", 0.5, 90.0, 5)]
    assert once_each(pieces, {"red sailboat"}) == pieces
