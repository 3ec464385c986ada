"""The Karibik board as data: the provisional board's counts, the loader's one-line errors, and
reachable spaces counted by hand on the provisional board."""
from __future__ import annotations

import json

import pytest

from tablehub.games.base import Setup
from tablehub.games.karibik.actions import Card, Deal, PlaceShips, Seventh
from tablehub.games.karibik.board import DEFAULT_BOARD, BoardError, board_from_dict, load_board
from tablehub.games.karibik.engine import Karibik
from tablehub.games.karibik.provisional import dumps, make_board

from tablehub.games.karibik.board import PACKAGED

GRID = PACKAGED["grid"]


def test_the_provisional_board_has_the_real_counts():
    b = load_board()
    assert b.provisional
    assert len(b.towns) == 16 and len({t.port for t in b.towns}) == 16
    assert sorted(t.chest for t in b.towns)[0] >= 4000 and max(t.chest for t in b.towns) <= 8000
    assert len(b.hideouts) == 12
    assert all(sum(1 for c in b.hideouts.values() if c == colour) == 3 for colour in b.colours)
    assert len(b.skulls) == 6 and len(b.piles) == 5
    assert len(b.centres) == len(b.polygons) > 60, "every space has its outline"
    assert len({len(ns) for ns in b.neighbours.values()}) > 2, "an irregular map, not a grid"


def test_the_packaged_board_is_what_the_generator_makes():
    assert DEFAULT_BOARD.read_text(encoding="utf-8") == dumps(make_board())


def test_a_board_round_trips_through_its_dict():
    b = load_board()
    again = board_from_dict(json.loads(json.dumps(b.to_dict())), "again")
    assert again.neighbours == b.neighbours and again.towns == b.towns and again.hideouts == b.hideouts


def grid() -> dict:
    return json.loads(GRID.read_text(encoding="utf-8"))


@pytest.mark.parametrize("change, message", [
    (lambda d: d.pop("spaces"), "x.json: 'spaces' must be a list, got None"),
    (lambda d: d["spaces"][3].update(id=11), "x.json: spaces[3].id 11 is used twice"),
    (lambda d: [d["spaces"][0].pop(k) for k in ("center", "polygon")],
     "x.json: spaces[0] needs a 'center' [x, y] or a 'polygon'"),
    (lambda d: d["adjacency"].append([11, 99]),
     "x.json: adjacency[82][1] must be the id of a space of the board, got 99"),
    (lambda d: d["adjacency"].append([11, 11]), "x.json: adjacency[82]: a space is not adjacent to itself (11)"),
    (lambda d: d["towns"].pop(), "x.json: 'towns' must list 16 items, got 15"),
    (lambda d: d["towns"][2].update(chest=9000),
     "x.json: towns[2].chest must be the chest's value, 4000 to 8000 doubloons, got 9000"),
    (lambda d: d["towns"][2].update(port=11), "x.json: towns[2].port: space 11 is already another town's port"),
    (lambda d: d["towns"][5].update(name="Tortuga"), "x.json: towns[5].name 'Tortuga' is used twice"),
    (lambda d: d["hideouts"][0].update(colour="pink"),
     "x.json: hideouts[0].colour must be one of red, blue, green, yellow, got 'pink'"),
    (lambda d: d["hideouts"][0].update(space=11), "x.json: hideouts[0].space: space 11 is a port, not a hideout"),
    (lambda d: d["hideouts"][0].update(colour="blue"),
     "x.json: 'hideouts' must give each colour 3 hideouts; red has 2"),
    (lambda d: d["skulls"].__setitem__(0, 21),
     "x.json: skulls[0]: space 21 is a port or a hideout, not open sea"),
    (lambda d: d["piles"].pop(), "x.json: 'piles' must list 5 items, got 4"),
    (lambda d: d.update(adjacency=[p for p in d["adjacency"] if 68 not in p]),
     "x.json: 'adjacency' leaves spaces unreachable from space 11 (e.g. [68])"),
])
def test_a_bad_board_is_refused_in_one_line_naming_the_field(change, message):
    data = grid()
    change(data)
    with pytest.raises(BoardError) as err:
        board_from_dict(data, "x.json")
    assert str(err.value) == message


def test_a_board_file_that_is_not_json_names_the_file(tmp_path):
    bad = tmp_path / "board.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(BoardError, match=r"board.json: not valid JSON \(line 1"):
        Karibik(Setup("karibik", ("Ana", "Ben"), options={"board": str(bad)}))
    with pytest.raises(BoardError, match="cannot read the Karibik board file"):
        Karibik(Setup("karibik", ("Ana", "Ben"), options={"board": str(tmp_path / "none.json")}))


def moving(ship_index: int, bid: int) -> Karibik:
    """A 2-player game on the provisional board, ships on the skulls in order, the ships before
    ``SHIPS[ship_index]`` left where they are (tied, nobody reveals), that one won by Ana with ``bid``
    (Ben shows one less: no thief)."""
    game = Karibik(Setup("karibik", ("Ana", "Ben")))
    game.apply(Deal(tuple(t.name for t in game.board.towns[:6])))
    game.apply(PlaceShips(game.board.skulls))
    ties = [c for c in (5, 4, 3, 2, 1, 0, -1) if c not in (bid, bid - 1)]
    for i in range(ship_index):
        game.apply(Card("Ana", ties[i]))
        game.apply(Card("Ben", ties[i]))
        if ties[i] >= 0:
            game.apply(Seventh("Ana"))
            game.apply(Seventh("Ben"))
    game.apply(Card("Ana", bid))
    game.apply(Card("Ben", bid - 1))
    assert game.mover == "Ana" and game.allowance == bid, game.note
    return game


def test_reachable_spaces_counted_by_hand_on_the_provisional_board():
    # Diabolo starts on space 14 (the 4th skull); none of its neighbours 5, 10, 11, 17, 18, 24 holds a ship.
    d = moving(3, 1)
    assert d.ship == "Diabolo" and d.ship_at["Diabolo"] == 14
    assert sorted(s for s, n in d.reachable().items() if n) == [5, 10, 11, 17, 18, 24]
    d = moving(3, 2)  # two spaces: those six, then 4, 13 (via 10), 6, 15 (via 11), 30 (via 17/24), 25 (via 18)
    assert sorted(s for s, n in d.reachable().items() if n) == [4, 5, 6, 10, 11, 13, 15, 17, 18, 24, 25, 30]
    # Evita on 58 has Fuego on 52 beside it: one space reaches 46, 51, 64, 65, 72 (5, not 6)
    e = moving(4, 1)
    assert e.ship == "Evita" and e.ship_at["Evita"] == 58 and e.ship_at["Fuego"] == 52
    assert len([s for s, n in e.reachable().items() if n]) == 5
    # two spaces: + 35, 39, 40 (via 46); 45, 57 (via 51); 71, 78 (via 64); 59, 73, 79 (via 65); 86 (via 72) = 16
    e = moving(4, 2)
    got = sorted(s for s, n in e.reachable().items() if n)
    assert got == [35, 39, 40, 45, 46, 51, 57, 59, 64, 65, 71, 72, 73, 78, 79, 86]
    assert e.view()["reachable"] == got
