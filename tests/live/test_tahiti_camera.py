"""Tahiti's board camera without pictures: the adapter (tablehub/games/tahiti/camera.py) and the naming of
pieces that look alike (tablehub.tracking.boardmoves.name_sightings) on what a camera reports."""
from __future__ import annotations

import json

import pytest

from tablehub.games import new_game
from tablehub.games.base import Setup, SetupError
from tablehub.games.tahiti.camera import ISLAND, TRACK0, camera_board, cell_id, load_geometry
from tablehub.games.tahiti.board import load_board
from tablehub.tracking.boardmoves import OFF, BoardSeen, Sighting, board_reading, name_sightings, perfect_sightings

START = [{"type": "place_sailboat", "space": 0}, {"type": "place_sailboat", "space": 5},
         {"type": "start_pearl", "pearl": "white"}, {"type": "start_pearl", "pearl": "green"},
         {"type": "roll", "face": "blank"}, {"type": "roll", "face": 3}, {"type": "bid", "amount": 1},
         {"type": "pass"}]


def game_after(actions):
    g = new_game(Setup("tahiti", ("Ana", "Ben")))
    for a in actions:
        g.apply(g.parse_action(a))
    return g


def seen_with(game, *extra: Sighting, drop: tuple[str, ...] = ()) -> BoardSeen:
    s = perfect_sightings(game)
    looks = game.board_moves.looks(game)
    pieces = game.board_moves.pieces(game)
    found = [f for f in s.found if not any(looks[p] == f.look and pieces[p] == f.space for p in drop)]
    return BoardSeen({}, found=found + list(extra), board=game.board.name)


def test_a_sailboat_put_on_the_track_in_the_set_up_is_its_placement():
    g = game_after([])
    r = board_reading(g, seen_with(g, Sighting("red sailboat", TRACK0 + 7)))
    assert r.state == "pending" and list(r.actions) == [{"type": "place_sailboat", "space": 7}]
    r = board_reading(g, seen_with(g, Sighting("yellow sailboat", TRACK0 + 7)))  # Ben's, but Ana places now
    assert r.state == "illegal" and "Ana" in r.reason


def test_a_boat_placed_in_the_sector_is_the_placement_and_outside_it_is_flagged_with_the_engines_reason():
    g = game_after(START)  # Ana won the 3: space 3 (E, blue), her white pearl goes into sector E
    r = board_reading(g, seen_with(g, Sighting("red boat", cell_id("BE"))))
    assert r.state == "pending" and list(r.actions) == [{"type": "place_boat", "cell": "BE"}]
    r = board_reading(g, seen_with(g, Sighting("red boat", cell_id("AA"))))
    assert r.state == "illegal" and r.reason == "AA is outside sector E (row E and column E)"
    r = board_reading(g, seen_with(g, Sighting("yellow boat", cell_id("BE"))))  # Ben's colour
    assert r.state == "illegal" and "Ana (red) is to choose" in r.reason
    assert board_reading(g, seen_with(g)).state == "same"


def test_a_letter_boat_goes_from_the_track_onto_its_sector():
    g = new_game(Setup("tahiti", ("Ana", "Ben")))
    for a in [{"type": "place_sailboat", "space": 0}, {"type": "place_sailboat", "space": 5},
              {"type": "start_pearl", "pearl": "white"}, {"type": "start_pearl", "pearl": "green"}]:
        g.apply(g.parse_action(a))
    g.state[0].pearl = None  # Ana holds nothing: she may take a letter
    for a in [{"type": "roll", "face": 2}, {"type": "bid", "amount": 0}, {"type": "pass"}]:
        g.apply(g.parse_action(a))
    assert g.phase == "choose" and g.state[0].space == 2
    r = board_reading(g, seen_with(g, Sighting("red boat", TRACK0 + 2)))  # an empty boat on her sailboat's space
    assert r.state == "pending" and list(r.actions) == [{"type": "take_letter"}]
    r = board_reading(g, seen_with(g, Sighting("red boat", TRACK0 + 4)))  # not on her sailboat's space
    assert r.state == "illegal" and "the letter is taken on the sailboat's space, space 2" in r.reason
    g.apply(g.parse_action({"type": "take_letter"}))
    assert g.board_moves.pieces(g)["red letter boat"] == TRACK0 + 2
    before = g.board_moves.pieces(g)
    looks = g.board_moves.looks(g)
    found = [Sighting(looks[p], s) for p, s in before.items() if p != "red letter boat"] + [Sighting("red boat", 30)]
    _, seen, _ = name_sightings(before, looks, found)
    assert seen["red letter boat"] == 30  # the same look gone from the track and come onto a cell: moved


def test_naming_pieces_that_look_alike():
    before = {"red boat AA": 0, "red boat AB": 1, "red letter boat": 102, "disc": ISLAND}
    looks = {"red boat AA": "red boat", "red boat AB": "red boat", "red letter boat": "red boat", "disc": "disc $"}
    found = [Sighting("red boat", 0), Sighting("red boat", 1), Sighting("red boat", 102), Sighting("disc $", ISLAND),
             Sighting("red boat", 9)]
    b2, seen, _ = name_sightings(before, looks, found)
    assert seen == {"red boat AA": 0, "red boat AB": 1, "red letter boat": 102, "disc": ISLAND, "red boat": 9}
    assert b2["red boat"] == OFF
    # one gone, one unsure on its own space (taken as there, with a guess), nothing new
    found = [Sighting("red boat", 0), Sighting(None, 1, (1,), ("red boat", "yellow boat")), Sighting("disc $", ISLAND)]
    b2, seen, guesses = name_sightings(before, looks, found)
    assert seen["red boat AB"] is None and guesses["red boat AB"] == (1,)
    assert seen["red letter boat"] == OFF and set(b2) == set(before)


def test_a_colour_run_out_is_asked_on_the_phone():
    g = game_after(START)
    g.state[0].pearl = None
    g.state[0].letter_space = 1  # Ana holds the letter D of space 1; she takes the blue of space 3, run out
    g.supply["blue"] = 0
    r = board_reading(g, seen_with(g, Sighting("red boat", cell_id("DA")), drop=("red letter boat",)))
    assert r.state == "unsure", r
    assert sorted(c.actions[0]["pearl"] for c in r.choices) == ["black", "green", "white"]
    assert all(c.actions[0]["cell"] == "DA" for c in r.choices)


def test_the_board_geometry(tmp_path):
    board = camera_board(load_board(None))
    assert len(board.polygons) == 49 + 12 and board.size == (500.0, 500.0)
    assert board.space_name(TRACK0 + 3) == "space 3 (E, blue)" and board.space_name(cell_id("BE")) == "BE"
    bad = tmp_path / "geo.json"
    data = json.loads((__import__("pathlib").Path(load_geometry.__defaults__[0])).read_text())
    data["track"] = data["track"][:11]
    bad.write_text(json.dumps(data))
    with pytest.raises(SetupError, match=r"geo.json: track must list the 12 track spaces"):
        load_geometry(bad)
    del data["cells"]["BE"]
    data["track"] = data["track"] + [[[0, 0], [1, 0], [1, 1]]]
    bad.write_text(json.dumps(data))
    with pytest.raises(SetupError, match=r"cells must name the 49 map cells .*BE"):
        load_geometry(bad)
