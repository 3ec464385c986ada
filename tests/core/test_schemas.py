"""The declared file formats (tablehub/schemas): valid schemas, in step with the code and the shipped files."""
from __future__ import annotations

import dataclasses
import doctest
import json
import tomllib
from pathlib import Path

import pytest

from tablehub import config, imagefile, schemas
from tablehub.games.base import TablehubError

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = [("catalog", "tablehub/games/neuesland/tiles.json"), ("catalog", "tablehub/games/suedsee/tiles.json"),
           ("ships", "tablehub/games/suedsee/ships.json"), ("tahiti-board", "tablehub/games/tahiti/board.json")]


def test_every_schema_is_a_valid_draft_2020_12_schema():
    from jsonschema import Draft202012Validator

    assert {"record", "position", "suedsee-position", "tahiti-position", "catalog", "ships", "tahiti-board",
            "settings"} <= set(schemas.names())
    for name in schemas.names():
        Draft202012Validator.check_schema(schemas.resolved(name))
        assert schemas.schema(name)["$schema"].endswith("2020-12/schema")


@pytest.mark.parametrize("name, path", SHIPPED)
def test_the_shipped_files_follow_their_schema(name, path):
    schemas.check(json.loads((ROOT / path).read_text()), name, path)


def test_every_example_record_follows_the_record_schema():
    for path in (ROOT / "docs" / "examples").glob("*.json"):
        data = json.loads(path.read_text())
        schemas.check(data, "position" if "position" in data else "record", str(path))


def test_the_settings_schema_knows_exactly_the_settings_the_code_has():
    props = schemas.schema("settings")["properties"]
    cfg = config.Config()
    for section in config.SECTIONS:
        fields = {f.name for f in dataclasses.fields(getattr(cfg, section))}
        extra = {"map"} if section == "pins" else set()
        assert set(props[section]["properties"]) == fields | extra, section
    assert set(props) == set(config.SECTIONS) | {"data_dir"}


def test_the_example_settings_file_follows_the_schema():
    data = tomllib.loads((ROOT / "firmware_config" / "tablehub.toml").read_text())
    schemas.check(data, "settings", "tablehub.toml")


@pytest.mark.parametrize("parts, text", [
    (["players", 2], "players[2]"), (["position", "ships", "A"], "position.ships.A"),
    (["goods", "a b"], "goods['a b']"), ([0, "x"], "[0].x"),
])
def test_paths_read_like_the_file(parts, text):
    assert schemas.json_path(parts) == text


@pytest.mark.parametrize("parts, text", [
    (["web", "port"], "[web] port"), (["game", "players", 1], "[game] players[1]"),
    (["\x1f"], "['\\x1f']"), (["a b", "x"], "['a b'] x"),
])
def test_settings_paths_read_like_the_toml_file_and_never_carry_control_characters(parts, text):
    assert schemas.toml_path(parts) == text


def test_a_message_names_file_path_and_expectation_in_one_line():
    with pytest.raises(TablehubError) as err:
        schemas.check({"game": "neuesland", "players": ["Ana", 3]}, "record", "game.json")
    assert str(err.value) == "game.json: players[1]: expected a name of 1 to 24 characters without control or " \
                             "bidi-override characters, got 3"


@pytest.mark.parametrize("module", [schemas, config, imagefile])
def test_the_modules_examples_run(module):
    assert doctest.testmod(module).failed == 0
