"""Issue 12, faults 6 and 10: action fields and player names, where every caller (web API, CLI,
tracker, settings) meets them: ``Game.parse_action`` and the game's setup."""
from __future__ import annotations

import pytest

from tablehub.games import new_game
from tablehub.games.base import ActionFormatError, MAX_NAME, Setup, SetupError, check_name, show

BAD_NAMES = [
    ("A\x00na", "a control character (U+0000)"),
    ("\x1b[31mAna", "a control character (U+001B)"),
    ("Ana\nBen", "a control character (U+000A)"),
    ("Ana\u0085", "a control character (U+0085)"),
    ("\u202eneB", "a bidi control character (U+202E)"),
    ("Ana\u202a", "a bidi control character (U+202A)"),
    ("\u2066Ben\u2069", "a bidi control character (U+2066)"),
    ("Ben\u2069", "a bidi control character (U+2069)"),
    ("Ana\u2028Ben", "a control character (U+2028)"),
    ("x" * (MAX_NAME + 1), f"a name has at most {MAX_NAME} characters, got {MAX_NAME + 1}"),
    (" Ana", "cannot begin or end with a space"),
    ("", "a name cannot be empty"),
    (7, "expected a name (text), got 7"),
]


@pytest.mark.parametrize("game", ["neuesland", "suedsee", "tahiti"])
@pytest.mark.parametrize("name, why", BAD_NAMES)
def test_a_name_that_would_reach_the_log_or_page_raw_is_refused_at_setup(game, name, why):
    with pytest.raises(SetupError) as err:
        new_game(Setup(game, ("Ana2", name)))
    text = str(err.value)
    assert text.startswith(f"{game}: players[1]: ") and why in text
    assert text.isprintable(), "the message itself must not carry the raw character"


@pytest.mark.parametrize("name", ["Zoë", "Łukasz", "محمد", "李雷", "Ana-Lena", "O'Neil", "👩‍🚀 Kim", "x" * MAX_NAME])
def test_ordinary_names_of_every_script_are_kept_as_typed(name):
    game = new_game(Setup("neuesland", (name, "Ben")))
    assert game.players == (name, "Ben")


def test_names_differing_only_in_case_are_one_player():
    with pytest.raises(SetupError, match=r"players\[1\]: duplicate name 'ana' \(players\[0\] is 'Ana'; names must be distinct\)"):
        new_game(Setup("neuesland", ("Ana", "ana")))


@pytest.mark.parametrize("colors, expected", [
    (("red", "bl\x1bue"), "colours are colour names of 1 to 20 characters"),
    (("red", "red"), "player colours must be distinct"),
])
def test_colours_are_checked_too(colors, expected):
    with pytest.raises(SetupError, match=expected):
        new_game(Setup("neuesland", ("Ana", "Ben"), colors))


def test_check_name_returns_a_good_name():
    assert check_name("Ana", "x") == "Ana"


# ---------------------------------------------------------------- action fields

@pytest.fixture(scope="module")
def game():
    return new_game(Setup("neuesland", ("Ana", "Ben")))


@pytest.mark.parametrize("data, expected", [
    ({"type": ["place_tile"]}, "action: field 'type' must be a string naming the action (one of: "),
    ({"type": {"k": 1}}, "field 'type' must be a string naming the action"),
    ({"type": None}, "field 'type' must be a string naming the action"),
    ({"tile": "ds017"}, "action: missing field 'type'"),
    ({"type": "place_tile", "tile": "ds017", "x": float("nan"), "y": 0, "rotation": 0},
     "action (place_tile): field 'x' must be a whole number from -1000000 to 1000000, got nan"),
    ({"type": "place_tile", "tile": "ds017", "x": float("inf"), "y": 0, "rotation": 0}, "field 'x' must be a whole number"),
    ({"type": "place_tile", "tile": "ds017", "x": 1e400, "y": 0, "rotation": 0}, "got Infinity"),
    ({"type": "place_tile", "tile": "ds017", "x": 10 ** 5000, "y": 0, "rotation": 0}, "got a 5001-digit number"),
    ({"type": "place_tile", "tile": "ds017", "x": -(10 ** 30), "y": 0, "rotation": 0}, "got a 31-digit number"),
    ({"type": "place_tile", "tile": "ds017", "x": True, "y": 0, "rotation": 0}, "field 'x' must be a whole number"),
    ({"type": "place_tile", "tile": "ds017", "x": 1, "y": 0, "rotation": False}, "field 'rotation' must be a whole"),
    ({"type": "place_tile", "tile": "ds017", "x": 1, "y": 0}, "action (place_tile): missing field 'rotation'"),
    ({"type": "place_tile", "tile": "d" * 5000, "x": 1, "y": 0, "rotation": 0}, "field 'tile' must be at most 200"),
    ({"type": "place_tile", "tile": "ds017", "x": 1, "y": 0, "rotation": 0, "note": "a\x1bb"}, "field 'note' must be text"),
    ({"type": "place_tile", "tile": "ds017", "x": 1, "y": 0, "rotation": 0, "confidence": float("nan")},
     "field 'confidence' must be a finite number"),
    ({"type": "place_tile", "tile": "ds017", "x": 1, "y": 0, "rotation": 0, ("k",): 1}, "unknown field(s) ['k']"),
])
def test_an_action_that_cannot_be_read_is_one_line_naming_the_field(game, data, expected):
    with pytest.raises(ActionFormatError) as err:
        game.parse_action(data)
    text = str(err.value)
    assert expected in text and "\n" not in text and len(text) < 400


def test_a_whole_float_is_still_a_whole_number(game):
    action = game.parse_action({"type": "place_tile", "tile": "ds017", "x": 1.0, "y": 0, "rotation": 90})
    assert (action.x, action.rotation) == (1, 90) and isinstance(action.x, int)


def test_show_never_prints_a_huge_or_raw_value():
    assert show(10 ** 5000) == "a 5001-digit number"
    assert show("\x1b[2J" * 100).startswith("'\\x1b[2J") and len(show("x" * 1000)) < 70
    assert show([[1] * 100] * 100).endswith("]")
