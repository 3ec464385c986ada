"""Camera to engine on the provisional Karibik board: a ship seen on another space becomes the
engine-checked sail (rendered frames, the six ships on their skull spaces)."""
from __future__ import annotations

import pytest

from tablehub.games.base import Setup
from tablehub.games.karibik.actions import Card, Deal, PlaceShips
from tablehub.games.karibik.engine import SHIPS, Karibik
from tablehub.tracking.boardmoves import read_board
from vision.boardpieces import SpaceMap, enrol_pieces, find_pieces
from vision.boardreg import BoardReference, BoardRegistrar
from vision.sim.boardtable import BoardPiece
from vision.sim.camera import NUISANCE


@pytest.fixture(scope="module")
def camera(table):
    cam = NUISANCE["default"].other_session()
    photo, truth = table.shoot(table.scene(), camera=cam, seed=21)
    lens = table.lens(truth)
    ref = BoardReference.from_photo(photo, table.size, 2.0, corners_px=table.corners(truth), lens=lens)
    reg = BoardRegistrar(ref, lens)
    c = table.board.centres
    spots = list(table.board.spaces)[20:26]
    frame, _ = table.shoot(table.scene([BoardPiece("ship", i, *c[s]) for i, s in enumerate(spots)]), camera=cam,
                           seed=22)
    book = enrol_pieces(reg.register(frame).canvas(frame, 2.0, table.size), ref.canvas, 2.0,
                        [(n, "ship", *c[s]) for n, s in zip(SHIPS, spots)])
    spaces = SpaceMap(dict(table.board.polygons), table.size, 2.0)

    def look(positions: dict[str, int], seed: int) -> dict[str, int | None]:
        pieces = [BoardPiece("ship", SHIPS.index(n), *c[s], 25.0 * i) for i, (n, s) in enumerate(positions.items())]
        frame, _ = table.shoot(table.scene(pieces, origin=(44.0, 37.0), angle=-1.0), "default", seed=seed)
        seen = find_pieces(reg.register(frame).canvas(frame, 2.0, table.size), ref.canvas, 2.0, book, spaces)
        out: dict[str, int | None] = {n: None for n in SHIPS}
        for p in seen:
            if p.name in out:
                out[p.name] = p.space
        return out

    return look


def test_a_ship_moved_on_the_table_is_read_as_its_sail(table, camera):
    board = table.board
    game = Karibik(Setup("karibik", ("Red", "Blue"), ("red", "blue"), {"board": "provisional"}))
    game.apply(Deal(tuple(t.name for t in board.towns[:6])))
    game.apply(PlaceShips(tuple(board.skulls)))
    game.apply(Card("Red", 2))
    game.apply(Card("Blue", 0))  # Red moves Arriba by up to 2 spaces
    start = game.ship_at["Arriba"]
    free = set(board.spaces) - set(game.occupant)
    goal = next(n for s in board.neighbours[start] if s in free for n in board.neighbours[s]
                if n in free and n != start and n not in board.neighbours[start])
    before = dict(game.ship_at)
    assert camera(before, seed=30) == before  # the camera agrees with the game's table first
    after = dict(before, Arriba=goal)
    reading = read_board(game, before, camera(after, seed=31))
    assert reading.status in ("pending", "unsure"), reading
    paths = [reading.actions] if reading.status == "pending" else [c for _, c in reading.choices]
    for actions in paths:
        assert actions[0]["type"] == "sail" and actions[0]["path"][-1] == goal and len(actions[0]["path"]) == 2
