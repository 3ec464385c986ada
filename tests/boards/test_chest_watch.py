"""Chests read incrementally (``vision.chests.ChestWatch``): a chest's or a hold's reading is kept while its piece
stands still and its window's pixels did not change; a chest swapped for another on the same spot, a chest put
down beside a ship, or a bumped board is read again."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.boardpieces import PieceSeen
from vision.chests import ChestWatch, chests_seen
from vision.sim.boardtable import BoardPiece

from .test_chests import enrolled, shoot  # noqa: F401 - the module's fixture: the values enrolled once

SHIPS = ["Arriba", "Bravo", "Caribic", "Diabolo", "Evita", "Fuego"]


def seen_of(pieces, spaces):
    """What the pieces' reader would say of ``pieces`` (each named right, on its space)."""
    out = []
    for p, s in zip(pieces, spaces):
        if p.kind == "ship":
            out.append(PieceSeen(SHIPS[p.look], "ship laden" if p.carries else "ship", s, p.x_mm, p.y_mm, 0.1, 0.5))
        else:
            out.append(PieceSeen("chest up" if p.kind == "chest_up" else "chest down", "chest", s, p.x_mm, p.y_mm,
                                 0.1, 0.5))
    return out


@pytest.fixture(scope="module")
def layout(table):
    c = table.board.centres
    spaces = list(table.board.spaces)[60:65]
    pieces = [BoardPiece("ship", 0, *c[spaces[0]], 20.0, carries=6000, deck=(-10.5, 0.0, 0.0)),
              BoardPiece("ship", 2, *c[spaces[1]], 75.0),
              BoardPiece("ship", 4, *c[spaces[2]], 130.0),
              BoardPiece("chest_up", 4000, *c[spaces[3]], 30.0),
              BoardPiece("chest_up", 8000, *c[spaces[4]], 100.0)]
    return pieces, spaces


def read(frame, reg, ref, book, pieces, spaces, watch):
    r = reg.register(frame)
    return chests_seen(frame, r.to_image, ref.canvas, 2.0, book, seen_of(pieces, spaces), SHIPS, watch)


def test_a_frame_with_nothing_changed_but_the_noise_keeps_every_reading(table, enrolled, layout):  # noqa: F811
    ref, reg, book = enrolled
    pieces, spaces = layout
    frame, _ = shoot(table, pieces, "default", 21, origin=(42.0, 38.0), angle=0.5)
    watch = ChestWatch()
    first = read(frame, reg, ref, book, pieces, spaces, watch)
    assert watch.read == 5 and watch.kept_n == 0  # three holds, two face-up chests
    assert first.aboard["Arriba"] in (6000, None) and first.aboard["Caribic"] == 0 and first.aboard["Evita"] == 0
    noisy = cv2.add(frame, np.random.default_rng(3).normal(0, 2.0, frame.shape), dtype=cv2.CV_8U)
    again = read(noisy, reg, ref, book, pieces, spaces, watch)
    assert watch.read == 5 and watch.kept_n == 5
    assert again.spaces == first.spaces and again.aboard == first.aboard and again.unsure == first.unsure


def test_a_chest_swapped_on_its_spot_is_read_again_and_the_rest_kept(table, enrolled, layout):  # noqa: F811
    ref, reg, book = enrolled
    pieces, spaces = layout
    frame, _ = shoot(table, pieces, "default", 21, origin=(42.0, 38.0), angle=0.5)
    watch = ChestWatch()
    first = read(frame, reg, ref, book, pieces, spaces, watch)
    assert ("up", 4000) in first.spaces[spaces[3]]
    swapped = pieces[:3] + [BoardPiece("chest_up", 7000, pieces[3].x_mm, pieces[3].y_mm, 30.0)] + pieces[4:]
    frame2, _ = shoot(table, swapped, "default", 21, origin=(42.0, 38.0), angle=0.5)  # the same pose, light, noise
    got = read(frame2, reg, ref, book, swapped, spaces, watch)
    assert watch.read == 6 and watch.kept_n == 4  # only the swapped chest's window changed
    assert got.spaces[spaces[3]] in ([("up", 7000)], [("up", None)])  # never the kept 4000
    assert got.spaces[spaces[4]] == first.spaces[spaces[4]] and got.aboard == first.aboard


def test_a_chest_put_down_beside_a_ship_reads_that_ships_hold_again(table, enrolled, layout):  # noqa: F811
    ref, reg, book = enrolled
    pieces, spaces = layout
    frame, _ = shoot(table, pieces, "default", 21, origin=(42.0, 38.0), angle=0.5)
    watch = ChestWatch()
    read(frame, reg, ref, book, pieces, spaces, watch)
    ship = pieces[1]
    beside = BoardPiece("chest_down", 0, ship.x_mm + 14.0 * np.cos(np.radians(75.0 + 90)),
                        ship.y_mm + 14.0 * np.sin(np.radians(75.0 + 90)), 75.0)
    frame2, _ = shoot(table, pieces + [beside], "default", 21, origin=(42.0, 38.0), angle=0.5)
    got = read(frame2, reg, ref, book, pieces + [beside], spaces + [spaces[1]], watch)
    assert watch.read == 6, (watch.read, watch.kept_n)  # Caribic's hold read again (a chest beside it), the rest kept
    assert got.aboard["Caribic"] == 0


def test_a_bumped_board_reads_every_chest_again(table, enrolled, layout):  # noqa: F811
    ref, reg, book = enrolled
    pieces, spaces = layout
    watch = ChestWatch()
    frame, _ = shoot(table, pieces, "default", 21, origin=(42.0, 38.0), angle=0.5)
    first = read(frame, reg, ref, book, pieces, spaces, watch)
    bumped, _ = shoot(table, pieces, "default", 21, origin=(45.0, 36.0), angle=1.5)
    got = read(bumped, reg, ref, book, pieces, spaces, watch)
    assert watch.read == 10 and watch.kept_n == 0
    assert got.aboard["Caribic"] == first.aboard["Caribic"] == 0
