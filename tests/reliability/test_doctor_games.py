"""`tablehub doctor` sees a log that no longer replays (SQLite's own check passes it) and prints the
exact command that repairs it; `tablehub games` lists, exports and repairs without deleting a row."""
from __future__ import annotations

import json
import re
import shlex
import sqlite3

from tablehub.cli import main
from tablehub.session import Session
from tablehub.store import Store

from .conftest import ACTIONS, SETUP, log_of


def broken_log(folder):
    store = Store(folder / "games.sqlite")
    s = Session.create(store, SETUP)
    for a in ACTIONS:
        s.submit(a)
    store.close()
    con = sqlite3.connect(folder / "games.sqlite")
    con.execute("""UPDATE actions SET action = '{"type": "place_tile", "tile": "ds017", "x": 7, "y": 7,
                   "rotation": 0}' WHERE seq = 3""")
    con.commit()
    con.close()


def test_doctor_finds_a_log_that_no_longer_replays_and_prints_the_repair(tmp_path, capsys, monkeypatch):
    broken_log(tmp_path)
    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path))
    monkeypatch.delenv("TABLEHUB_CONFIG", raising=False)
    assert main(["doctor", "--no-camera"]) == 1
    out = capsys.readouterr().out
    assert re.search(r"FAIL game log: game 1 no longer replays at action 3: .*\(tile ds017 ", out), out
    command = re.search(r"`(tablehub games repair 1 [^`]*)`", out).group(1)
    before = log_of(tmp_path / "games.sqlite")
    assert main(shlex.split(command)[1:]) == 0, "the printed command runs as printed"
    after = log_of(tmp_path / "games.sqlite")
    assert [(s, a) for s, a, _ in after] == [(s, a) for s, a, _ in before], "no row deleted or changed"
    assert [u for *_, u in after] == [0, 0, 1, 1, 1]
    capsys.readouterr()
    assert main(["doctor", "--no-camera"]) in (0, 1)
    assert re.search(r"OK   game log: all 1 saved game\(s\) replay", capsys.readouterr().out)


def test_games_list_and_export(tmp_path, capsys):
    broken_log(tmp_path)
    assert main(["games", "list", "--data", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "game 1 (on the table)" in out and "LOG STOPS REPLAYING at action 3" in out
    out_file = tmp_path / "game1.json"
    assert main(["games", "export", "1", "--out", str(out_file), "--data", str(tmp_path)]) == 0
    record = json.loads(out_file.read_text())
    assert record["game"] == "neuesland" and len(record["actions"]) == 5
    assert main(["games", "repair", "1", "--data", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["games", "export", "1", "--all", "--data", str(tmp_path)]) == 0
    audit = json.loads(capsys.readouterr().out)["log"]
    assert [r["seq"] for r in audit] == [1, 2, 3, 4, 5]
    assert [r["note"] is not None for r in audit] == [False, False, True, True, True]
    assert main(["games", "repair", "1", "--data", str(tmp_path)]) == 0
    assert "nothing to repair" in capsys.readouterr().out
    assert main(["games", "export", "1", "--out", str(out_file), "--data", str(tmp_path)]) == 0
    assert len(json.loads(out_file.read_text())["actions"]) == 2, "the repaired game: its good actions"
    assert main(["score", str(out_file)]) == 0, "an export is a record 'tablehub score' reads"
    assert main(["games", "export", "9", "--data", str(tmp_path)]) == 2
    assert "no game with id 9" in capsys.readouterr().err
