"""The pieces' colours read lit evenly: the empty board's photo keeps its own light (issue 17, Karibik seed 3 ``hard``
frames 0 and 14: a white-sailed ship in the board's dim corner read as dark as the black-sailed one)."""
from __future__ import annotations

import cv2
import numpy as np

from vision.boardpieces import PieceBook, SpaceMap, enrol_pieces, find_pieces, reference_light

PPM = 2.0
SIZE = (300.0, 200.0)
SEA, SAND, INK = (140, 100, 40), (120, 190, 220), (40, 40, 40)
HULL, WHITE, GREY = (35, 60, 95), (225, 225, 225), (150, 150, 150)


def _board() -> np.ndarray:
    """A printed board: sea, sand islands, ink lines (its colours vary, not only its light)."""
    w, h = int(SIZE[0] * PPM), int(SIZE[1] * PPM)
    img = np.full((h, w, 3), SEA, np.uint8)
    for cx, cy, r in ((60, 50, 22), (210, 140, 30), (250, 40, 15)):
        cv2.circle(img, (int(cx * PPM), int(cy * PPM)), int(r * PPM), SAND, -1)
    for x in range(0, w, int(50 * PPM)):
        cv2.line(img, (x, 0), (x, h - 1), INK, 2)
    return img


def _light(shape) -> np.ndarray:
    """A lamp off to one side and a lens's vignette: from 1 to about half across the board."""
    h, w = shape[:2]
    v, u = np.mgrid[-1:1:h * 1j, -1:1:w * 1j].astype(np.float32)
    return (0.9 - 0.12 * u - 0.12 * v - 0.1 * (u * u + v * v))[..., None]


def _ship(img: np.ndarray, x: float, y: float, sail) -> None:
    c = (int(x * PPM), int(y * PPM))
    cv2.ellipse(img, c, (int(14 * PPM), int(6 * PPM)), 0, 0, 360, HULL, -1)
    cv2.rectangle(img, (c[0] - int(8 * PPM), c[1] - int(4 * PPM)), (c[0] + int(8 * PPM), c[1] + int(4 * PPM)), sail, -1)


def _lit(img: np.ndarray) -> np.ndarray:
    return np.clip(img.astype(np.float32) * _light(img.shape), 0, 255).astype(np.uint8)


def test_the_empty_boards_own_light_is_found_from_its_plainest_print():
    board = _board()
    got = reference_light(_lit(board))
    want = cv2.resize(_light(board.shape), got.shape[1::-1], interpolation=cv2.INTER_AREA)
    sea = cv2.resize((board == SEA).all(axis=2).astype(np.float32), got.shape[1::-1], interpolation=cv2.INTER_AREA) > 0.99
    ratio = got[sea] / want[sea]
    assert ratio.max() / ratio.min() < 1.12  # the light's shape (1.06 to 0.48 across the board), not the print's


def test_a_white_sailed_ship_in_the_dim_corner_is_not_the_grey_one():
    board = _board()
    empty = _lit(board)
    enrol = board.copy()
    _ship(enrol, 120, 90, WHITE)
    _ship(enrol, 170, 90, GREY)
    book = enrol_pieces(_lit(enrol), empty, PPM, [("white", "ship", 120, 90), ("grey", "ship", 170, 90)])
    assert book.flat
    spaces = SpaceMap({1: [(0, 0), (150, 0), (150, 200), (0, 200)], 2: [(150, 0), (300, 0), (300, 200), (150, 200)]},
                      SIZE, PPM)
    frame = board.copy()
    _ship(frame, 270, 175, WHITE)  # in the corner the lamp and the lens darken most: about 0.6 of where it was enrolled
    _ship(frame, 40, 30, GREY)  # in the brightest
    seen = sorted((p.name, p.space, p.unsure) for p in find_pieces(_lit(frame), empty, PPM, book, spaces))
    assert seen == [("grey", 1, ""), ("white", 2, "")]


def test_a_book_keeps_how_its_colours_were_read(tmp_path):
    board = _board()
    enrol = board.copy()
    _ship(enrol, 120, 90, WHITE)
    book = enrol_pieces(_lit(enrol), _lit(board), PPM, [("white", "ship", 120, 90)])
    again = PieceBook.load(book.save(tmp_path / "pieces.json"))
    assert again.flat and again.templates[0].flat
    old = PieceBook([type(t)(t.name, t.kind, t.area_mm2, t.hist, t.box) for t in book.templates])
    assert not PieceBook.load(old.save(tmp_path / "old.json")).flat  # enrolled before: read as it was enrolled
