"""A ship's deck is its hull, and the window's light is the board's (issue 17, h-chests5).

A ship's hull is the same either side of its mast, and a chest aboard lies with its centre over the hull: at most
about half of its lid lies off the hull, wherever it lies and whatever the sail hides. A face-up chest lying in port
against the ship's side lies wholly beside the hull: reflected through the mast it falls on the board
(`vision.chests._off_hull`, `HULL_OFF_LID`). Before, any lid colour within 17 mm of the ship's centre was its cargo:
such a chest, taken with the ship by the pieces' reader (not passed as a piece of its own), was read aboard with its
value (16 of 36 ship-and-chest pairs at `default`). That is what kept the window's light gain from being fixed
(h-chests4: the gain from each pixel's own ratio, `_light_gain`, showed such a chest on Fuego's deck and the whole
Karibik game went from 1 correction to 9); the gain is tested on its own below."""
from __future__ import annotations

import cv2
import numpy as np

from vision.chests import _lab, _matched, read_aboard
from vision.sim.boardtable import BoardPiece, _chest_grid, deck_spot, footprint, on_hull, print_hidden

from .test_chests import enrolled  # noqa: F401 (the fixture)
from .test_chests import shoot


def _touching(ship: BoardPiece, value: int, yaw: float, direction_deg: float) -> BoardPiece:
    """A face-up chest slid towards ``ship`` from ``direction_deg`` (from the ship's heading) until their footprints
    touch: lying in port against the ship, not on its deck."""
    d = np.radians(ship.yaw_deg + direction_deg)
    a = footprint("ship", ship.x_mm, ship.y_mm, ship.yaw_deg)
    for step in np.arange(30.0, 0.0, -0.25):
        x, y = ship.x_mm + step * np.cos(d), ship.y_mm + step * np.sin(d)
        if cv2.intersectConvexConvex(a, footprint("chest_up", x, y, yaw))[0] > 0.0:
            step += 0.25
            return BoardPiece("chest_up", value, ship.x_mm + step * np.cos(d), ship.y_mm + step * np.sin(d), yaw)
    raise AssertionError("never touched")


def test_a_chest_in_port_against_a_ships_side_is_not_read_as_its_cargo(table, enrolled):  # noqa: F811
    """Each ship (every sail) with a face-up chest against its side, the chest not known as a piece of its own: the
    hold is never read laden with a value, and never a print that would make it laden; lid colour left near the
    hull is at most a hold not sure to be laden (the game knows where the chest lies)."""
    ref, reg, book = enrolled
    rng = np.random.default_rng(23)
    c, spaces = table.board.centres, list(table.board.spaces)
    bad = []
    for k, direction in enumerate((60.0, 90.0, 270.0)):
        pieces = []
        for look in range(6):
            ship = BoardPiece("ship", look, *c[spaces[(11 * look + 5 * k + 3) % len(spaces)]], float(rng.uniform(0, 360)))
            pieces += [ship, _touching(ship, 4000 + 1000 * ((look + k) % 5), float(rng.uniform(0, 90)) + ship.yaw_deg,
                                       direction)]
        frame, _ = shoot(table, pieces, "default", 31 + k)
        r = reg.register(frame)
        for ship in pieces[::2]:
            got = read_aboard(frame, r.to_image, ref.canvas, 2.0, book, (ship.x_mm, ship.y_mm))
            if got is not None and (got.value or (got.value is None and not (got.maybe_empty or got.lid_only))):
                bad.append((ship.look, direction, got.value, got.unsure))
    assert not bad, bad


def test_a_chest_overhanging_its_ships_side_is_still_aboard(table, enrolled):  # noqa: F811
    """The other side of the bar: chests aboard lying as far off the hull as a chest can (a quarter to 40 % of it
    over the side), their print in view, are read aboard, none taken for a chest beside the ship."""
    ref, reg, book = enrolled
    rng = np.random.default_rng(29)
    c, spaces = table.board.centres, list(table.board.spaces)

    def overhanging():
        while True:
            d = deck_spot(rng)
            if print_hidden(d) == 0 and on_hull(*_chest_grid(*d)).mean() < 0.75:
                return d

    got = []
    for k in range(2):
        pieces = [BoardPiece("ship", look, *c[spaces[(7 * look + 13 * k + 2) % len(spaces)]],
                             float(rng.uniform(0, 360)), carries=4000 + 1000 * ((look + k) % 5), deck=overhanging())
                  for look in range(6)]
        frame, _ = shoot(table, pieces, "clean", 41 + k)
        r = reg.register(frame)
        got += [(p.look, p.carries, read_aboard(frame, r.to_image, ref.canvas, 2.0, book, (p.x_mm, p.y_mm)))
                for p in pieces]
    bad = [(look, v, x and (x.value, x.unsure)) for look, v, x in got if x is None or x.value not in (v, None)
           or "beside the hull" in x.unsure]
    assert not bad, bad


def test_the_windows_light_is_the_boards_whatever_the_pieces_on_it():
    """A window over a sea of several blues, a third of it covered by a red sail and a gold lid, in the empty board's
    own light: brought to that light, the lid keeps its colour. The ratio of the two windows' medians (before) took the
    pieces for board: the red median moved up the sea's spread and the lid came out greener (h-chests4: 20-35 Lab on
    the bench, laden decks read with no lid)."""
    n = 180
    empty = np.zeros((n, n, 3), np.uint8)
    blues = [(200, 120, 40), (170, 110, 70), (230, 150, 30), (190, 140, 90)]  # BGR: four seas
    for i, b in enumerate(blues):
        empty[:, i * n // 4:(i + 1) * n // 4] = b
    win = empty.copy()
    win[: n // 2, : n * 2 // 3] = (40, 40, 210)  # a red sail over the first seas
    lid = (40, 175, 225)
    win[n // 2: n * 3 // 4, : n // 3] = lid
    got = _lab(_matched(win, empty))[n // 2 + 5: n * 3 // 4 - 5, 5: n // 3 - 5].reshape(-1, 3).mean(axis=0)
    want = _lab(np.uint8([[lid]]))[0, 0]
    assert float(np.linalg.norm(got - want)) < 3.0, (got, want)



def test_a_chest_beside_the_hull_seen_in_fragments_is_judged_as_one_lid():
    """h-portchests: the same chest touching a ship's side, read under two registrations 0.25 mm apart, was one lid part
    0.77 of a lid off the hull (beside: the hold not laden) or two parts of 0.28 and 0.46 (each under HULL_OFF_LID: the
    hold read laden, 9 phone corrections in the recorded Karibik game). Parts lying mostly off the hull near one another
    are judged together, as one chest's lid; a part mostly on the hull (a chest aboard) is never joined to them."""
    from vision.chests import HULL_OFF_LID, READ_PPM, ValueBook, _beside_hull

    book = ValueBook(np.zeros(3, np.float32), {}, 70.0, (10.0, 7.0))  # a 70 mm2 lid, 7 mm wide
    bar = HULL_OFF_LID * book.lid_mm2 * READ_PPM * READ_PPM
    labels = np.zeros((120, 120), np.int32)
    labels[10:30, 10:50] = 1  # 800 px wholly off the hull
    labels[10:30, 55:85] = 2  # 600 px wholly off the hull, 1 mm from it
    labels[35:65, 10:40] = 3  # 900 px, 100 of them off the hull: a chest aboard beside them
    off = np.float64([0, 800, 600, 100])
    assert max(off[1], off[2]) < bar < off[1] + off[2]  # each under the bar, together over it
    assert _beside_hull(labels, 4, off, book) == [1, 2]
    # smaller, together under the bar: neither
    assert _beside_hull(labels, 4, np.float64([0, 500, 400, 100]), book) == []
    # one part over the bar alone (whatever its size): beside, as before
    assert _beside_hull(labels, 4, np.float64([0, 0, 0, bar + 1]), book) == [3]
    # two fragments far apart (10 mm, more than a lid's width): two things, each judged alone
    far = np.zeros_like(labels)
    far[10:30, 10:50], far[80:100, 10:40] = 1, 2
    assert _beside_hull(far, 3, np.float64([0, 800, 600]), book) == []
