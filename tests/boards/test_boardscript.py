"""A recorded Karibik game cut into what the phone enters and what NEXT logs (tablehub/tracking/boardscript.py):
the same game as the record, and each step's NEXT actions what a perfect camera reads."""
from __future__ import annotations

import pytest

from tablehub.games import new_game
from tablehub.games.base import Setup
from tablehub.records import Record, RecordError, replay
from tablehub.tracking.boardmoves import read_board
from tablehub.tracking.boardscript import board_steps
from tablehub.tracking.script import equivalent
from tablehub.tracking.simtable import demo_record

GRID = Setup("karibik", ("Red", "Blue"), ("red", "blue"), {"board": "grid"})
SET_UP = [{"type": "deal", "towns": ["Tortuga", "Havana", "Nassau", "Port Royal", "Santiago", "San Juan"]},
          {"type": "place_ships", "spaces": [32, 42, 36, 34, 44, 46]},
          {"type": "card", "player": "Red", "card": 3}, {"type": "card", "player": "Blue", "card": 0}]


def test_a_seeded_game_cut_into_steps_is_the_same_game_and_each_step_is_what_the_camera_reads():
    record = demo_record("karibik", 2, 5)
    steps = board_steps(record)
    played = [a for s in steps for a in s.actions]
    assert replay(Record(record.setup, played, record.source)).scores() == replay(record).scores()
    game = new_game(record.setup)
    adapter = game.board_moves
    for step in steps:
        for a in step.before:
            game.apply(game.parse_action(a))
        assert {a["type"] for a in step.before}.isdisjoint(adapter.table_actions) or not step.table
        if not step.table:
            continue
        after = game.copy()
        for a in step.table:
            after.apply(after.parse_action(a))
        # what a perfect camera reads: the pieces, and the chests (face up, face down, aboard)
        r = read_board(game, adapter.pieces(game), adapter.pieces(after), extras=adapter.perfect_extras(after))
        offered = [r.actions] if r.status == "pending" else [c[:1] for _, c in r.choices]
        assert any(equivalent(game, o, step.table) for o in offered), (step.number, r)
        assert step.view["pieces"] == adapter.pieces(after)
        game = after


def test_legs_sailed_with_nothing_between_are_one_reading_of_where_the_ship_ended():
    record = Record(GRID, SET_UP + [{"type": "sail", "path": [33]}, {"type": "sail", "path": [43]},
                                    {"type": "end_move"}], "three legs")
    steps = board_steps(record)
    assert [s.table for s in steps] == [[{"type": "sail", "path": [33, 43]}, {"type": "end_move"}]]
    assert steps[0].before == SET_UP


def test_a_sail_into_a_port_a_raid_and_the_moves_end_are_three_next_steps_read_from_the_camera():
    record = Record(GRID, SET_UP + [{"type": "sail", "path": [22, 12]}, {"type": "attack"}, {"type": "end_move"}],
                    "raid")
    steps = board_steps(record)
    assert [(s.before[-1:], s.table) for s in steps] == [
        (SET_UP[-1:], [{"type": "sail", "path": [22, 12]}]), ([], [{"type": "attack"}]), ([], [{"type": "end_move"}])]
    # the steps' views carry the chests as the camera sees them: Havana's chest on its port, then aboard Arriba
    assert steps[0].view["chests"]["lying"][12] == [("up", 4000)] and steps[0].view["chests"]["aboard"]["Arriba"] == 0
    assert 12 not in steps[1].view["chests"]["lying"] and steps[1].view["chests"]["aboard"]["Arriba"] == 4000


def test_a_game_without_a_printed_board_is_refused_in_one_line():
    with pytest.raises(RecordError, match="neuesland has no printed board the camera reads"):
        board_steps(Record(Setup("neuesland", ("A", "B"), ("red", "blue")), [], "neuesland"))
