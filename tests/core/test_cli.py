"""The ``tablehub`` command as a person uses it: explained scores, JSON for machines, one-line errors."""
import json
import subprocess
import sys

import pytest

from tablehub.cli import main

RECORD = {"game": "neuesland", "players": ["Ana", "Ben"], "options": {},
          "actions": [
              {"type": "place_tile", "tile": "ds017", "x": 1, "y": 0, "rotation": 0},
              {"type": "place_figure", "region": "G:S"},
              {"type": "place_tile", "tile": "ds040", "x": -1, "y": 0, "rotation": 90},
              {"type": "place_tile", "tile": "ds002", "x": 1, "y": 1, "rotation": 0},
              {"type": "score_figure", "x": 1, "y": 0, "region": "G:S"}]}


def write(tmp_path, data, name="game.json"):
    p = tmp_path / name
    p.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(p)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_prints_every_event_explained(tmp_path, capsys):
    code, out, err = run(capsys, "score", write(tmp_path, RECORD))
    assert code == 0 and err == ""
    assert "Ana +2: removed explorer from complete plain of 2 tiles: 2 tiles, 1 per tile (an area of 2 tiles or fewer scores as incomplete)" in out
    assert "Ana wins." in out


def test_score_json_for_machines(tmp_path, capsys):
    code, out, _ = run(capsys, "score", "--json", write(tmp_path, RECORD))
    data = json.loads(out)
    assert code == 0 and data["scores"] == {"Ana": 2, "Ben": 0} and data["winners"] == ["Ana"]
    assert data["events"][0]["reason"].startswith("removed explorer")


BAD = [
    ({**RECORD, "actions": [{"type": "place_tile", "tile": "ds999", "x": 1, "y": 0, "rotation": 0}]},
     "action 0 (place_tile): unknown tile 'ds999'"),
    ({**RECORD, "actions": [{"type": "place_tile", "tile": "ds017", "x": 1, "y": 0, "rotation": 45}]},
     "action 0 (place_tile): rotation must be 0, 90, 180 or 270 (degrees clockwise), got 45"),
    ({**RECORD, "actions": RECORD["actions"][:1] + [{"type": "place_figure", "region": "S:S"}]},
     "action 1 (place_figure): the tile just laid has no such area (tile ds017 has no region 'S:S'"),
    ({**RECORD, "actions": [{"type": "place_tile", "tile": "ds017", "x": 1, "y": 0, "rotation": 90}]},
     "action 0 (place_tile): The tile with a plain and three mountains cannot lie east of the start tile this way: its "
     "west side (plain) does not continue the east side of the start tile (mountain) (ds017 turned 90"),
    ({**RECORD, "actions": [{"type": "teleport"}]}, "action 0: unknown action type 'teleport'"),
    ({**RECORD, "actions": [{"type": "place_tile", "tile": "ds017", "y": 0}]}, "action 0 (place_tile): missing field 'x'"),
    ({**RECORD, "players": ["Ana"]}, "needs 2 to 5 players, got 1"),
    ({**RECORD, "game": "chess"}, "unknown game 'chess'"),
    ({**RECORD, "options": {"catalog": "/nonexistent/tiles.json"}}, "/nonexistent/tiles.json: cannot read the catalog"),
    ("{ not json", "not valid JSON (line 1, column 3"),
    ([1, 2], "expected an object, got [1, 2]"),
]


@pytest.mark.parametrize("data,message", BAD, ids=[m[:30] for _, m in BAD])
def test_bad_input_gets_one_clear_line_and_exit_2(tmp_path, capsys, data, message):
    code, out, err = run(capsys, "score", write(tmp_path, data))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and err.startswith("tablehub score: ")


def test_a_malformed_catalog_is_reported_with_file_tile_and_region(tmp_path, capsys):
    cat = json.loads((__import__("pathlib").Path(__file__).resolve().parents[2] /
                      "tablehub/games/neuesland/tiles.json").read_text())
    cat["tiles"][16]["regions"][3]["slots"] = "S N"
    path = write(tmp_path, cat, "my_tiles.json")
    code, _, err = run(capsys, "score", write(tmp_path, {**RECORD, "options": {"catalog": path}}))
    assert code == 2 and "my_tiles.json: tile ds017: region G:S: slot Nl is also claimed by region M:N" in err


def test_a_missing_record_file(capsys, tmp_path):
    code, _, err = run(capsys, "score", str(tmp_path / "nope.json"))
    assert code == 2 and "nope.json: cannot read the file (No such file or directory)" in err


def test_play_prints_a_whole_explained_game(capsys, tmp_path):
    saved = tmp_path / "played.json"
    code, out, _ = run(capsys, "play", "--players", "4", "--seed", "5", "--save", str(saved))
    assert code == 0 and "Final scoring:" in out and "Totals:" in out
    # the saved record scores the same through `tablehub score`
    code, out2, _ = run(capsys, "score", "--json", str(saved))
    totals = json.loads(out2)["scores"]
    for name, points in totals.items():
        assert f"{name} " in out and str(points) in out


def test_the_installed_command_runs_as_a_program(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "tablehub", "score", write(tmp_path, RECORD), "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["scores"]["Ana"] == 2
