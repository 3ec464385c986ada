"""A chest anywhere on a ship's deck: the renderer puts it where the player did (any point and turn that fits),
and the pieces keep the ship one piece with what it carries (``merge_carried``) while a chest standing beside a
ship stays a chest of its own; a laden ship stands where its hull is, not where its chest pulls its blob."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.boardpieces import (PieceBook, PieceTemplate, SpaceMap, _NH, enrol_pieces, find_pieces,
                                merge_carried)
from vision.boardreg import BoardReference, BoardRegistrar
from vision.sim.boardtable import (CHEST_MM, MAST_MM, SHIP_MM, BoardPiece, _draw_piece, deck_fits, deck_spot,
                                   on_hull, place_piece, print_hidden, render_board_scene)
from vision.sim.camera import NUISANCE

SHIPS = ["Arriba", "Bravo", "Caribic", "Diabolo", "Evita", "Fuego"]


def test_deck_spots_fit_anywhere_on_the_deck_clear_of_the_mast():
    rng = np.random.default_rng(3)
    spots = [deck_spot(rng) for _ in range(300)]
    for along, across, turn in spots:
        assert deck_fits(along, across, turn)
        assert on_hull(np.float64(along), np.float64(across))
        # the mast (the ship's middle) lies outside the chest grown by the mast's radius
        a = math.radians(turn)
        u = -along * math.cos(a) - across * math.sin(a)
        v = along * math.sin(a) - across * math.cos(a)
        assert abs(u) >= CHEST_MM[0] / 2 + MAST_MM or abs(v) >= CHEST_MM[1] / 2 + MAST_MM
    alongs = np.float64([s[0] for s in spots])
    turns = np.float64([s[2] for s in spots])
    assert (alongs < 0).mean() > 0.3 and (alongs > 0).mean() > 0.3  # bow and stern alike
    assert np.histogram(turns, bins=6, range=(0, 180))[0].min() > 10  # turned any way
    hidden = np.float64([print_hidden(s) for s in spots])
    assert (hidden == 0).any() and (hidden > 0.5).any()  # in view or under the sail, as it falls
    assert not deck_fits(0.0, 0.0, 0.0)  # over the mast
    assert not deck_fits(SHIP_MM[0] / 2 + 1, 0.0, 0.0)  # off the deck


def _gold(px) -> bool:
    b, g, r = (int(v) for v in px)
    return r > 180 and g > 140 and b < 90


def test_the_renderer_draws_the_carried_chest_where_the_deck_spot_says():
    ppm = 8.0
    for deck, side in (((-9.0, 0.0, 90.0), -1), ((9.0, 0.0, 90.0), 1)):
        plane = np.full((400, 400, 3), (200, 150, 90), np.uint8)
        _draw_piece(plane, ppm, BoardPiece("ship", 2, 25, 25, 0.0, carries=6000, deck=deck),
                    np.array([25.0, 25.0]), 0.0, np.array([0.7, 0.7]))
        # a point of the lid beside the print (crosswise: the lid's long side runs across the hull)
        here = plane[int(round((25 + 4.5) * ppm)), int(round((25 + side * 9.0) * ppm))]
        there = plane[int(round((25 + 4.5) * ppm)), int(round((25 - side * 9.0) * ppm))]
        assert _gold(here) and not _gold(there), (deck, here, there)


def _ellipse(shape, c, axes, angle):
    m = np.zeros(shape, np.uint8)
    cv2.ellipse(m, (int(c[0]), int(c[1])), (int(axes[0]), int(axes[1])), angle, 0, 360, 1, -1)
    return m > 0


def _box(shape, c, size, angle):
    m = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(m, cv2.boxPoints(((c[0], c[1]), size, angle)).astype(np.int32), 1)
    return m > 0


def _book(ship_mm2: float, laden_mm2: float) -> PieceBook:
    hist = np.zeros(_NH + 3, np.float32)
    return PieceBook([PieceTemplate("Arriba", "ship", ship_mm2, hist),
                      PieceTemplate("Arriba", "ship laden", laden_mm2, hist),
                      PieceTemplate("chest up", "chest", 108.0, hist)])


@pytest.mark.parametrize("deck", [(9.0, 0.0, 90.0), (-8.0, 1.5, 30.0), (10.0, -1.0, 0.0), (-7.5, 0.0, 90.0)])
def test_a_chest_on_the_deck_is_merged_back_into_its_ship(deck):
    """The parts the lid's colour cuts a laden ship into (the hull less the chest, the chest) are one ship: the
    chest lies over the hull and borders it, and the whole is a ship's size."""
    ppm = 2.0
    shape = (120, 120)
    c = np.array([60.0, 60.0])
    hull = _ellipse(shape, c, (SHIP_MM[0] / 2 * ppm, SHIP_MM[1] / 2 * ppm), 0)
    along, across, turn = deck
    chest = _box(shape, c + np.array([along, across]) * ppm, (CHEST_MM[0] * ppm, CHEST_MM[1] * ppm), turn)
    union = hull | chest
    book = _book(hull.sum() / ppm ** 2, union.sum() / ppm ** 2)
    parts = merge_carried([hull & ~chest, chest], lambda m: [(0.1, 1), (0.6, 2)], book, ppm, 0.8, 0.08)
    assert len(parts) == 1 and (parts[0] == union).all()


@pytest.mark.parametrize("where", ["side", "end"])
def test_a_chest_standing_beside_a_ship_stays_a_chest_of_its_own(where):
    """A chest touching the ship's side or its bow is no chest aboard, however well the whole matches the ship."""
    ppm = 2.0
    shape = (140, 140)
    c = np.array([70.0, 70.0])
    hull = _ellipse(shape, c, (SHIP_MM[0] / 2 * ppm, SHIP_MM[1] / 2 * ppm), 0)
    off = np.array([0.0, SHIP_MM[1] / 2 + CHEST_MM[1] / 2]) if where == "side" else \
        np.array([SHIP_MM[0] / 2 + CHEST_MM[0] / 2, 0.0])
    chest = _box(shape, c + off * ppm, (CHEST_MM[0] * ppm, CHEST_MM[1] * ppm), 0)
    assert (cv2.dilate(hull.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0)[chest].any()  # they touch
    laden = _ellipse(shape, c, (SHIP_MM[0] / 2 * ppm, SHIP_MM[1] / 2 * ppm), 0).sum() / ppm ** 2 * 1.1
    book = _book(hull.sum() / ppm ** 2, laden)
    # even a generous size bar does not make it one piece: the chest is not over the hull / borders it briefly
    parts = merge_carried([hull, chest], lambda m: [(0.1, 1), (0.6, 2)], book, ppm, 0.8, 0.08, size_slack=2.0)
    assert len(parts) == 2


@pytest.fixture(scope="module")
def enrolled(table):
    """The empty board, each ship and chest once and each ship laden, enrolled on another evening (720p)."""
    from tests.boards.conftest import FRAME
    from vision.calibrate import LensCalibration

    cam = NUISANCE["default"].other_session()
    photo, truth = render_board_scene(table.scene([]), cam, np.random.default_rng(21), size=FRAME)
    lens = LensCalibration(truth.pose.K, truth.pose.dist, FRAME)
    ref = BoardReference.from_photo(photo, table.size, 2.0, corners_px=table.corners(truth), lens=lens)
    reg = BoardRegistrar(ref, lens)
    c = table.board.centres
    spaces = list(table.board.spaces)
    pieces = [BoardPiece("ship", i, *c[spaces[3 * i]]) for i in range(6)] + [
        BoardPiece("chest_up", 6000, *c[spaces[20]]), BoardPiece("chest_down", 0, *c[spaces[23]])]
    photo, _ = render_board_scene(table.scene(pieces), cam, np.random.default_rng(22), size=FRAME)
    r = reg.register(photo)
    names = [(n, "ship", *c[spaces[3 * i]]) for i, n in enumerate(SHIPS)] + [
        ("chest up", "chest", *c[spaces[20]]), ("chest down", "chest", *c[spaces[23]])]
    book = enrol_pieces(r.canvas(photo, 2.0, table.size), ref.canvas, 2.0, names)
    laden = [BoardPiece("ship", i, *c[spaces[3 * i]], carries=5000, deck=(10.0, 0.0, 0.0)) for i in range(6)]
    photo, _ = render_board_scene(table.scene(laden), cam, np.random.default_rng(23), size=FRAME)
    r = reg.register(photo)
    book.templates.extend(enrol_pieces(r.canvas(photo, 2.0, table.size), ref.canvas, 2.0,
                                       [(n, "ship laden", *c[spaces[3 * i]]) for i, n in enumerate(SHIPS)]).templates)
    return ref, reg, book, SpaceMap(table.board.polygons, table.size, 2.0)


def test_laden_ships_with_the_chest_anywhere_are_one_piece_on_their_space_where_their_hull_is(table, enrolled):
    ref, reg, book, spaces = enrolled
    from tests.boards.conftest import FRAME

    rng = np.random.default_rng(31)
    polys = table.board.polygons
    right = n = 0
    for k in range(3):
        where = [int(s) for s in rng.choice(list(table.board.spaces), 6, replace=False)]
        pieces, fps = [], []
        for i, s in enumerate(where):
            x, y, yaw, fp = place_piece(polys[s], "ship", rng, fps)
            fps.append(fp)
            pieces.append(BoardPiece("ship", i, x, y, yaw, carries=4000 + 1000 * (i % 5), deck=deck_spot(rng)))
        frame, _ = render_board_scene(table.scene(pieces, origin=(43.0, 38.0), angle=1.0), "default",
                                      np.random.default_rng(40 + k), size=FRAME)
        r = reg.register(frame)
        seen = find_pieces(r.canvas(frame, 2.0, table.size), ref.canvas, 2.0, book, spaces)
        assert len(seen) == 6, seen  # one piece per ship: none cut in two by its chest
        for i, (p, s) in enumerate(zip(pieces, where)):
            got = [q for q in seen if q.name == SHIPS[i]]
            assert all(q.space in (s, None) for q in got)  # never on another space
            n += 1
            if got and got[0].space == s:
                right += 1
                # where its hull is (within 2.5 mm: the chest at the bow or stern shifts the blob a little), so a chest
                # overhanging the hull does not pull it across a printed line
                assert math.hypot(got[0].x_mm - p.x_mm, got[0].y_mm - p.y_mm) < 2.5, (SHIPS[i], got[0], p)
    assert right >= n - 1, (right, n)
