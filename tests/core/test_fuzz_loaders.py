"""Issue 12: property-based fuzzing (Hypothesis) of every loader of a person's file and of
``parse_action``. Any JSON value in gives either a valid object or a
:class:`~tablehub.games.base.TablehubError` with one printable line, never another exception.

Two kinds of input: any JSON value at all, and a real file (record, position, catalog, ships,
board, settings) with one node replaced, removed or added, which reaches the deeper checks.
"""
from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablehub.config import load_config
from tablehub.games import game_class
from tablehub.games.base import TablehubError
from tablehub.games.suedsee.ships import build_ships
from tablehub.games.tahiti.board import board_from_dict
from tablehub.games.tiles.catalog import build_catalog
from tablehub.jsonfile import parse_json
from tablehub.records import parse_record, replay, score_position

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "tablehub" / "games"
FUZZ = settings(max_examples=120, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=-10**40, max_value=10**40)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30)
           | st.sampled_from(["", "Ana", "place_tile", "ds017", "s01", "\x00", "\x1b[2J", "\u202eneB", "BE",
                              "G:S", "white", "neuesland", "suedsee", "tahiti", "tablehub-tiles/1"]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                           | st.dictionaries(st.text(max_size=12), inner, max_size=5), max_leaves=25)


def paths(doc, prefix=()):
    """Every path to a node of a JSON document."""
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from paths(v, (*prefix, i))


@st.composite
def mutated(draw, original):
    """``original`` with one node replaced by any JSON value, deleted, or given a stray key."""
    doc = copy.deepcopy(original)
    where = draw(st.sampled_from(list(paths(doc))))
    how = draw(st.sampled_from(["replace", "delete", "add"]))
    if not where:
        return draw(json_values) if how == "replace" else doc
    parent = doc
    for key in where[:-1]:
        parent = parent[key]
    last = where[-1]
    if how == "replace":
        parent[last] = draw(json_values)
    elif how == "delete":
        del parent[last]
    elif isinstance(parent[last], dict):
        parent[last][draw(st.text(max_size=8))] = draw(json_values)
    else:
        parent[last] = [parent[last], draw(json_values)]
    return doc


def one_line(exc: BaseException) -> None:
    assert isinstance(exc, TablehubError), f"{type(exc).__name__}: {exc}"
    text = str(exc)
    assert text and "\n" not in text and text.isprintable(), repr(text)


def either_valid_or_one_line(fn, *args):
    try:
        return fn(*args)
    except TablehubError as exc:
        one_line(exc)
        return None


RECORD = json.loads((ROOT / "docs" / "examples" / "neuesland-short.json").read_text())
SUEDSEE_POSITION = {"game": "suedsee", "players": ["Ana", "Ben"],
                    "position": {"ships": {"Ana": ["s01", 3]}, "goods": {"Ben": {"fish": 4}}}}
TAHITI_POSITION = {"game": "tahiti", "players": ["Ana", "Ben"],
                   "position": {"boats": [{"cell": "BE", "owner": "Ana", "pearl": "white"},
                                          {"cell": "BF", "owner": "Ben", "pearl": "white"}],
                                "vaults": {"Ana": 3}}}
CATALOG = json.loads((GAMES / "suedsee" / "tiles.json").read_text())
SHIPS = json.loads((GAMES / "suedsee" / "ships.json").read_text())
BOARD = json.loads((GAMES / "tahiti" / "board.json").read_text())
SETTINGS = {"camera": {"source": "sim", "fps": 4.0}, "web": {"host": "127.0.0.1", "port": 8080},
            "game": {"name": "neuesland", "players": ["Ana", "Ben"]}, "tracking": {"confident": 0.7}}


def load_record(data):
    game = replay(parse_record(data, "fuzz.json"))
    assert game.finished


@FUZZ
@given(st.one_of(json_values, mutated(RECORD)))
def test_records(data):
    either_valid_or_one_line(load_record, data)


@FUZZ
@given(st.one_of(json_values, mutated(SUEDSEE_POSITION), mutated(TAHITI_POSITION)))
def test_positions(data):
    result = either_valid_or_one_line(score_position, data, "fuzz.json")
    if result is not None:
        assert all(isinstance(v, int) for v in result.scores.values())


@FUZZ
@given(st.one_of(json_values, mutated(CATALOG)))
def test_catalogs(data):
    either_valid_or_one_line(build_catalog, data, "fuzz.json")


@FUZZ
@given(st.one_of(json_values, mutated(SHIPS)))
def test_ships(data):
    ships = either_valid_or_one_line(build_ships, data, "fuzz.json")
    if ships is not None:
        assert all(isinstance(s.value, int) and 0 <= s.value <= 20 for s in ships.ships.values())


@FUZZ
@given(st.one_of(json_values, mutated(BOARD)))
def test_tahiti_boards(data):
    either_valid_or_one_line(board_from_dict, data, "fuzz.json")


@FUZZ
@given(st.one_of(json_values, mutated(SETTINGS)))
def test_settings(data):
    if not isinstance(data, dict):
        data = {"web": data}
    cfg = either_valid_or_one_line(lambda d: load_config(None, environ={}, overrides=d), data)
    if cfg is not None:
        assert 0 <= cfg.web.port <= 65535 and math.isfinite(cfg.camera.fps) and cfg.camera.fps > 0


@FUZZ
@given(st.text(max_size=200))
def test_json_text(text):
    either_valid_or_one_line(parse_json, text, "fuzz.json")


def action_dicts(game: str):
    cls = game_class(game)
    kinds = st.sampled_from(sorted(cls.ACTIONS))
    fields = st.sampled_from(["tile", "x", "y", "rotation", "region", "ship", "goods", "player", "amount", "bid",
                              "pearl", "space", "die", "cell", "note", "confidence", "source"])
    return st.one_of(json_values, st.builds(lambda kind, extra: {**extra, "type": kind}, kinds | json_values,
                                            st.dictionaries(fields, json_values, max_size=6)))


@pytest.mark.parametrize("game", ["neuesland", "suedsee", "tahiti"])
def test_parse_action(game):
    engine = game_class(game)

    from tablehub.games import new_game
    from tablehub.games.base import Setup

    instance = new_game(Setup(engine.name, ("Ana", "Ben")))

    @FUZZ
    @given(action_dicts(game))
    def check(data):
        action = either_valid_or_one_line(instance.parse_action, data)
        if action is not None:
            for value in vars(action).values():
                assert not isinstance(value, float) or math.isfinite(value)
            either_valid_or_one_line(instance.copy().apply, action)

    check()
