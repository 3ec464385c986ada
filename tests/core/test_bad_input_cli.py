"""Issue 12, faults 6 and 7: the CLI meets bad files and options with one line and exit status 2.

Every case goes through the real command (``tablehub.cli.main``; a few through a subprocess), and
every one of them ended in a traceback, a wrong score or a silent fallback before.
"""
from __future__ import annotations

import json
import struct
import subprocess
import sys
import zlib

import pytest

from tablehub.cli import main
from tests.cli import one_line_error

NL = {"game": "neuesland", "players": ["Ana", "Ben"]}
TILE = {"type": "place_tile", "tile": "ds017", "x": 1, "y": 0, "rotation": 0}
SUEDSEE = {"game": "suedsee", "players": ["Ana", "Ben"]}



def score(tmp_path, capsys, data, name="game.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return one_line_error(capsys, ["score", str(path)])


# ---------------------------------------------------------------- action fields (fault 6)

@pytest.mark.parametrize("text, expected", [
    ('{"type": ["place_tile"]}', "actions[0].type: expected the action's type as text"),
    ('{"type": {"a": 1}}', "actions[0].type: expected the action's type as text"),
    ('{"type": "place_tile", "tile": "ds017", "x": NaN, "y": 0, "rotation": 0}',
     "game.json: actions[0].x: expected a finite number, got nan"),
    ('{"type": "place_tile", "tile": "ds017", "x": -Infinity, "y": 0, "rotation": 0}', "actions[0].x: expected a finite"),
    ('{"type": "place_tile", "tile": "ds017", "x": 1e400, "y": 0, "rotation": 0}', "got Infinity"),
    ('{"type": "place_tile", "tile": "ds017", "x": 1, "y": ' + "9" * 5000 + ', "rotation": 0}',
     "actions[0].y: expected a number of ordinary size, got a 5000-digit number"),
    ('{"type": "place_tile", "tile": "ds017", "x": 1, "y": 1000001, "rotation": 0}',
     "action 0 (place_tile): field 'y' must be a whole number from -1000000 to 1000000, got 1000001"),
    ('{"type": "place_tile", "tile": "ds017", "x": 1.5, "y": 0, "rotation": 0}', "field 'x' must be a whole number"),
    ('{"type": "place_tile", "tile": "ds017", "x": 1, "y": 0, "rotation": true}', "field 'rotation' must be a whole"),
    ('{"type": "place_tile", "tile": "ds017", "x": 1, "y": 0}', "action 0 (place_tile): missing field 'rotation'"),
])
def test_a_bad_action_field_is_named(tmp_path, capsys, text, expected):
    err = score(tmp_path, capsys, '{"game": "neuesland", "players": ["Ana", "Ben"], "actions": [' + text + "]}")
    assert expected in err


@pytest.mark.parametrize("option", ["catalog", "ships"])
@pytest.mark.parametrize("value", [True, 3, ["a.json"], {"x": 1}, ""])
def test_a_file_option_that_is_not_a_path(tmp_path, capsys, option, value):
    err = score(tmp_path, capsys, {**SUEDSEE, "options": {option: value}, "actions": []})
    assert f"option '{option}' must be a path to a" in err


def test_json_nested_30000_deep_is_one_line(tmp_path, capsys):
    err = score(tmp_path, capsys, '{"game": "neuesland", "players": ["A", "B"], "actions": ' + "[" * 30000 + "]" * 30000 + "}")
    assert "nested too deeply" in err


# ---------------------------------------------------------------- files barely checked (fault 7)

def test_a_suedsee_file_holding_a_tahiti_position_is_refused(tmp_path, capsys):
    tahiti = {"boats": [{"cell": "BE", "owner": "Ana", "pearl": "white"}], "vaults": {"Ana": 3}}
    err = score(tmp_path, capsys, {**SUEDSEE, "position": tahiti})
    assert "game.json: position: unknown fields 'boats', 'vaults' (expected: goods, ships)" in err


def test_a_tahiti_file_holding_a_suedsee_position_is_refused(tmp_path, capsys):
    err = score(tmp_path, capsys, {"game": "tahiti", "players": ["Ana", "Ben"],
                                   "position": {"ships": {"Ana": ["s01"]}, "goods": {}}})
    assert "position: unknown fields 'goods', 'ships' (expected: boats, vaults)" in err


@pytest.mark.parametrize("data, expected", [
    ({**NL, "players": ["Ana", "Ben", "Ana"], "actions": []}, "players[2]: duplicate name 'Ana' (players[0] is 'Ana'; names must be distinct)"),
    ({**NL, "players": ["Ana", "ana"], "actions": []}, "players[1]: duplicate name 'ana'"),
    ({**NL, "players": ["Ana"], "actions": []}, "players: Carcassonne Neues Land needs 2 to 5 players, got 1"),
    ({**NL, "players": list("ABCDEF"), "actions": []}, "needs 2 to 5 players, got 6"),
    ({**SUEDSEE, "players": list("ABCDEF"), "position": {"ships": {}, "goods": {}}}, "needs 2 to 5 players, got 6"),
    ({"game": "tahiti", "players": ["Ana"], "actions": []}, "players: Tahiti needs 2 to 4 players, got 1"),
    ({"game": "tahiti", "players": list("ABCDE"), "actions": []}, "Tahiti needs 2 to 4 players, got 5"),
    ({"game": "tahiti", "players": list("ABCDE"), "position": {"boats": [], "vaults": {}}}, "Tahiti needs 2 to 4"),
    ({"game": "tahiti", "position": {"boats": [], "vaults": {"Ana": 1}}}, "Tahiti needs 2 to 4 players, got 1"),
    ({"game": "tahiti", "position": {"boats": [], "vaults": {"Ana": 1, "B\u202eneB": 2}}},
     "position: players[1]: a name cannot contain a bidi control character (U+202E)"),
    ({**SUEDSEE, "position": {"ships": {"Ana": ["s01"], "Ben": ["s01"]}, "goods": {}}},
     "position.ships.Ben[0]: ship s01 is counted twice (also Ana's)"),
    ({**SUEDSEE, "position": {"ships": {"Ana": ["s01", "s01"]}, "goods": {}}}, "position.ships.Ana[1]: ship s01 is counted"),
    ({**SUEDSEE, "position": {"ships": {"Ana": [100]}, "goods": {}}},
     "position.ships.Ana[0]: no ship is worth 100 points in ships.json"),
    ({**SUEDSEE, "position": {"ships": {"A": "s01"}, "goods": {}}},
     "position.ships.A: expected a list of ship ids or point values, e.g. [\"s01\", \"s04\"], got 's01'"),
    ({**SUEDSEE, "position": {"ships": {"A": ["s01"]}, "goods": {}}}, "position.ships: 'A' is not a player (players: Ana, Ben)"),
    ({**SUEDSEE, "position": {"ships": {}, "goods": {"Ana": {"gold": 1}}}},
     "position.goods.Ana: unknown field 'gold' (expected: banana, fish, shell)"),
    ({**SUEDSEE, "position": {"ships": {}, "goods": {}}, "actions": []},
     "has both 'actions' (a record) and 'position' (a table to score)"),
    ({**NL, "actions": [], "turns": 3}, "game.json: unknown field 'turns' (expected: about, actions, colors"),
    ({**NL, "actions": [TILE], "colors": ["red"]}, "colors: give one colour per player (2), got 1"),
    ({"players": ["Ana", "Ben"], "actions": []}, "game.json: missing field 'game'"),
    ({**NL, "game": "chess", "actions": []}, "game: unknown game 'chess'"),
    ({**NL, "actions": {"type": "place_tile"}}, "actions: expected a list, got {'type': 'place_tile'}"),
    ({**NL, "actions": [17]}, "actions[0]: expected an action object like"),
])
def test_a_badly_formed_file_is_refused_with_the_path_to_the_field(tmp_path, capsys, data, expected):
    assert expected in score(tmp_path, capsys, data)


def test_a_good_suedsee_position_still_scores(tmp_path, capsys):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({**SUEDSEE, "position": {"ships": {"Ana": ["s01", 3]}, "goods": {"Ben": {"fish": 4.0}}}}))
    assert main(["score", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == {"Ana": 8, "Ben": 1}


# ---------------------------------------------------------------- tablehub recognize

def _png_header(width: int, height: int) -> bytes:
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b""))


def test_recognize_refuses_a_png_claiming_60000_by_60000_from_its_header(tmp_path, capsys):
    (tmp_path / "refs").mkdir()
    (tmp_path / "refs" / "index.json").write_text("{}")
    image = tmp_path / "huge.png"
    image.write_bytes(_png_header(60000, 60000))
    err = one_line_error(capsys, ["recognize", str(image), "--game", "neuesland", "--refs", str(tmp_path / "refs"),
                                  "--lens", "none"])
    assert "huge.png: the image header says 60,000 x 60,000 pixels; the largest photo read is 50 megapixels" in err


def test_recognize_refuses_a_file_that_is_no_photo(tmp_path, capsys):
    (tmp_path / "refs").mkdir()
    (tmp_path / "refs" / "index.json").write_text("{}")
    image = tmp_path / "notes.png"
    image.write_text("hello")
    err = one_line_error(capsys, ["recognize", str(image), "--game", "neuesland", "--refs", str(tmp_path / "refs"),
                                  "--lens", "none"])
    assert "notes.png: not a readable image (not a PNG, JPEG or BMP file" in err


# ---------------------------------------------------------------- tablehub run

@pytest.fixture()
def nothing_starts(monkeypatch):
    """A tripwire: a bad option must stop ``tablehub run`` before the game store opens (else the
    test would go on serving the page)."""
    from tablehub.commands import _hub

    def started(*args, **kwargs):
        raise AssertionError("tablehub run got past its checks and opened the store")

    monkeypatch.setattr(_hub, "open_store", started)


@pytest.mark.parametrize("argv, expected", [
    (["--port", "-1"], "--port -1: expected a TCP port from 1 to 65535"),
    (["--port", "99999"], "--port 99999: expected a TCP port from 1 to 65535"),
    (["--host", "256.1.1.1"], "--host '256.1.1.1': not an IP address (each of the four numbers is 0 to 255)"),
    (["--host", "bad host!"], "--host 'bad host!': not an IP address or host name"),
    (["--players", "Ana,B\x1ben"], "[game] players[1]: expected a name of 1 to 24 characters without control"),
    (["--players", "Ana,Ana"], "[game]: players[1]: duplicate name 'Ana'"),
    (["--fps", "-3"], "[camera] fps: expected frames per second, more than 0"),
])
def test_run_refuses_bad_options_in_one_line(tmp_path, capsys, nothing_starts, argv, expected):
    err = one_line_error(capsys, ["run", "--config", "", "--data", str(tmp_path / "d"), "--camera", "sim",
                                  "--pins", "mock", *argv])
    assert expected in err
    assert not (tmp_path / "d" / "games.sqlite").exists()  # refused before anything started


def test_run_names_a_settings_file_that_is_not_utf8(tmp_path, capsys, nothing_starts):
    cfg = tmp_path / "tablehub.toml"
    cfg.write_bytes(b"[web]\nport = 8080\n# caf\xe9\n")
    err = one_line_error(capsys, ["run", "--config", str(cfg), "--data", str(tmp_path / "d")])
    assert "tablehub.toml: line 3: the settings must be UTF-8 text (byte 0xe9 is not)" in err


@pytest.mark.parametrize("text, expected", [
    ("[web]\nport = 99999\n", "[web] port: expected a TCP port from 1 to 65535 (0: any free port), got 99999"),
    ("[web]\nhost = \"256.1.1.1\"\n", "[web] host: '256.1.1.1' is not an IP address"),
    ("[camera]\nfps = nan\n", "[camera] fps: expected a finite number, got nan"),
    ("[camera]\nfps = 0\n", "[camera] fps: expected frames per second, more than 0 and at most 1000, got 0"),
    ("[pins]\nnext = 99\n", "[pins] next: expected a BCM pin number from 0 to 27, got 99"),
    ("[game]\nplayers = [\"Ana\", \"\\u202eneB\"]\n", "[game] players[1]: expected a name"),
])
def test_run_names_the_bad_setting(tmp_path, capsys, nothing_starts, text, expected):
    cfg = tmp_path / "tablehub.toml"
    cfg.write_text(text)
    err = one_line_error(capsys, ["run", "--config", str(cfg), "--data", str(tmp_path / "d")])
    assert f"{cfg}: {expected}" in err


def test_run_names_a_data_folder_it_cannot_create(tmp_path, capsys, nothing_starts):
    blocker = tmp_path / "file"
    blocker.write_text("")
    err = one_line_error(capsys, ["run", "--config", "", "--data", str(blocker / "sub"), "--camera", "sim"])
    assert f"--data {blocker / 'sub'}: cannot create the data folder (Not a directory)" in err


def test_the_real_command_prints_no_traceback(tmp_path):
    """The same through a real process: what a person at a terminal sees."""
    proc = subprocess.run([sys.executable, "-m", "tablehub", "run", "--config", "", "--data", str(tmp_path),
                           "--camera", "sim", "--pins", "mock", "--port", "99999"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == "tablehub run: --port 99999: expected a TCP port from 1 to 65535 (0: any free port)\n"
