"""Start-up with a damaged game database, a log that stops replaying, or the table's game: the hub
always comes up, keeps the damaged file beside itself, brings back what it can, and says so."""
from __future__ import annotations

import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from tablehub.config import load_config
from tablehub.games.base import Setup, TablehubError
from tablehub.session import Session
from tablehub.store import Store

from .conftest import ACTIONS, SETUP, TURNS, log_of

PIN = "4821"


def saved_game(path: Path, actions=ACTIONS, setup=SETUP) -> bytes:
    store = Store(path)
    s = Session.create(store, setup)
    for a in actions:
        s.submit(a)
    store.close()
    return path.read_bytes()


def start_hub(folder: Path):
    """What ``tablehub run`` does at start, without the camera."""
    from tablehub.commands._hub import open_game, open_hub

    cfg = load_config(None, environ={"TABLEHUB_DATA": str(folder)})
    hub, opened = open_hub(cfg, PIN, [])
    open_game(hub, cfg)
    return hub, opened


def damage(kind: str, db: Path, data: bytes) -> None:
    if kind == "text file":
        db.write_text("these are my notes, not a database\n")
    elif kind == "0 bytes":
        db.write_bytes(b"")
    elif kind == "truncated":
        db.write_bytes(data[: len(data) // 2 + 100])
    elif kind == "garbage pages":
        page = int.from_bytes(data[16:18], "big")
        db.write_bytes(data[: 2 * page] + b"\x5a" * page + data[3 * page:])  # page 3 (after the games table)


KINDS = ["text file", "0 bytes", "truncated", "garbage pages"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_database_is_kept_aside_salvaged_and_reported(tmp_path, kind):
    db = tmp_path / "games.sqlite"
    data = saved_game(db)
    damage(kind, db, data)
    damaged = db.read_bytes()
    hub, opened = start_hub(tmp_path)
    try:
        aside = [p for p in tmp_path.iterdir() if ".damaged-" in p.name and not p.name.endswith(("-wal", "-shm"))]
        assert len(aside) == 1 and aside[0].read_bytes() == damaged, "the damaged file is kept as it was"
        snap = hub.snapshot()
        [notice] = [n for n in snap["notices"] if n["id"].startswith("damaged-")]
        assert str(aside[0]) in notice["text"] and notice["kept"] == str(aside[0])
        assert ("0 bytes" in notice["text"]) == (kind == "0 bytes")
        if kind in ("text file", "0 bytes"):
            assert snap["game"] is None, "no silent fresh game: the owner starts one"
            assert "no game to bring back" in notice["text"]
        if kind == "truncated":
            assert "salvaged game 1" in notice["text"]
        if snap["game"] is not None:  # salvaged: the game on the table is back, as far as it reads
            played = [e["action"] for e in snap["game"]["history"]]
            assert played == ACTIONS[: len(played)]
        assert stat.S_IMODE(db.stat().st_mode) == 0o600
        hub.start(SETUP)  # the new database takes changes
        hub.submit(TURNS[0][0])
    finally:
        hub.shutdown()
        opened.store.close()
    hub, opened = start_hub(tmp_path)  # and the next start is a normal one, the notice still shown
    try:
        assert hub.session is not None and len(hub.session.rows) == 1
        assert any(n["id"].startswith("damaged-") for n in hub.snapshot()["notices"])
    finally:
        hub.shutdown()
        opened.store.close()


def test_garbage_pages_past_the_games_still_give_back_the_actions(tmp_path):
    db = tmp_path / "games.sqlite"
    data = saved_game(db)
    con = sqlite3.connect(db)
    pages = dict(con.execute("SELECT name, rootpage FROM sqlite_master"))
    con.close()
    page = int.from_bytes(data[16:18], "big")
    index = pages["actions_live"]  # an index page: the rows themselves still read
    db.write_bytes(data[: (index - 1) * page] + b"\xa5" * page + data[index * page:])
    hub, opened = start_hub(tmp_path)
    try:
        assert hub.session is not None and [r.action for r in hub.session.rows] == ACTIONS
        assert "salvaged game 1" in hub.snapshot()["notices"][0]["text"]
    finally:
        hub.shutdown()
        opened.store.close()


def test_an_edited_log_row_opens_up_to_the_last_good_action_and_the_owner_chooses(tmp_path):
    from web import create_app

    db = tmp_path / "games.sqlite"
    saved_game(db)
    con = sqlite3.connect(db)
    con.execute("""UPDATE actions SET action = '{"type": "place_tile", "tile": "ds999", "x": 0, "y": -1,
                   "rotation": 0}' WHERE seq = 3""")
    con.commit()
    con.close()
    hub, opened = start_hub(tmp_path)
    client = create_app(hub).test_client()
    pin = {"X-Tablehub-Pin": PIN}
    try:
        snap = client.get("/api/state").get_json()
        assert [e["seq"] for e in snap["game"]["history"]] == [1, 2], "replayed up to the last good action"
        [notice] = snap["notices"]
        assert notice["choices"] == ["continue", "new"] and "ds999" in notice["text"]
        before = log_of(db)
        resp = client.post("/api/submit", json={"action": ACTIONS[2]}, headers=pin)
        assert resp.status_code == 409 and "choose on the page" in resp.get_json()["error"]
        assert log_of(db) == before, "nothing changes until the owner chooses"
        assert client.get("/").status_code == 200
        resp = client.post("/api/notice", json={"id": notice["id"], "choice": "continue",
                                                "version": snap["game_version"]}, headers=pin)
        assert resp.status_code == 200, resp.get_json()
        assert [u for *_, u in log_of(db)] == [0, 0, 1, 1, 1], "set aside, not deleted"
        con = sqlite3.connect(db)
        notes = [n for (n,) in con.execute("SELECT note FROM actions WHERE note IS NOT NULL")]
        con.close()
        assert len(notes) == 3 and all("no longer replays" in n for n in notes)
        assert client.post("/api/submit", json={"action": ACTIONS[2]}, headers=pin).status_code == 200
        assert client.get("/api/state").get_json()["notices"] == []
    finally:
        hub.shutdown()
        opened.store.close()


def test_a_catalog_changed_under_a_saved_game(tmp_path, monkeypatch):
    import tablehub.games.tiles.game as tiles

    monkeypatch.setattr(tiles, "_CATALOG_CACHE", {})  # each start below is a new process: no catalog loaded yet
    shipped = json.loads((Path(__file__).parents[2] / "tablehub/games/neuesland/tiles.json").read_text())
    catalog = tmp_path / "my-tiles.json"
    catalog.write_text(json.dumps(shipped))
    db = tmp_path / "games.sqlite"
    saved_game(db, setup=Setup("neuesland", ("Ana", "Ben"), options={"catalog": str(catalog)}))
    shipped["tiles"] = [t for t in shipped["tiles"] if t["id"] != "ds004"]  # the owner edited the catalog
    catalog.write_text(json.dumps(shipped))
    tiles._CATALOG_CACHE.clear()
    hub, opened = start_hub(tmp_path)
    try:
        assert len(hub.session.rows) == 2 and hub.session.broken.seq == 3
        assert "ds004" in hub.snapshot()["notices"][0]["text"]
        hub.answer(hub.snapshot()["notices"][0]["id"], "new")
        assert hub.session is None and hub.snapshot()["notices"] == []
    finally:
        hub.shutdown()
        opened.store.close()
    catalog.unlink()  # now the game cannot even be set up
    tiles._CATALOG_CACHE.clear()
    hub, opened = start_hub(tmp_path)
    try:
        assert hub.session.game_id == 2, "put away: not brought back (the empty table starts the configured game)"
        with pytest.raises(TablehubError, match="cannot be set up any more"):
            hub.resume(1)
    finally:
        hub.shutdown()
        opened.store.close()


def test_the_game_on_the_table_comes_back_not_the_newest(tmp_path):
    db = tmp_path / "games.sqlite"
    hub, opened = start_hub(tmp_path)  # a first start: the configured game (1)
    hub.submit(TURNS[0][0])
    hub.start(SETUP)  # game 2
    hub.resume(1)  # game 1 back on the table while game 2 exists
    hub.shutdown()
    opened.store.close()
    hub, opened = start_hub(tmp_path)
    assert hub.session.game_id == 1 and len(hub.session.rows) == 1
    hub.end()  # end game 1: it stays on the page
    hub.shutdown()
    opened.store.close()
    hub, opened = start_hub(tmp_path)
    try:
        assert hub.session.game_id == 1 and hub.session.game.finished, "not game 2, the older unfinished one"
        hub.close()
    finally:
        hub.shutdown()
        opened.store.close()
    hub, opened = start_hub(tmp_path)
    try:
        assert hub.session.game_id == 3, "a table left empty starts the configured game, not game 2"
    finally:
        hub.shutdown()
        opened.store.close()
    assert db.exists()


def test_a_new_database_is_private_whatever_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        store = Store(tmp_path / "games.sqlite")
        Session.create(store, SETUP).submit(TURNS[0][0])
        for name in ("games.sqlite", "games.sqlite-wal", "games.sqlite-shm"):
            assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name
        store.close()
    finally:
        os.umask(old)


def test_a_data_folder_that_cannot_be_created_runs_from_memory_with_a_banner(tmp_path):
    (tmp_path / "file").write_text("x")
    hub, opened = start_hub(tmp_path / "file" / "data")
    try:
        [notice] = hub.snapshot()["notices"]
        assert notice["title"] == "Nothing is being saved" and "cannot be created" in notice["text"]
        assert notice["choices"] == [] and not opened.saving
        assert hub.session is not None, "the configured game runs (in memory)"
        hub.submit(TURNS[0][0])
    finally:
        hub.shutdown()
        opened.store.close()


def test_the_copy_in_memory_reads_actions_still_in_the_wal(tmp_path):
    """A read-only folder after a power cut: the last actions are only in the -wal file."""
    live = Store(tmp_path / "games.sqlite")
    live._db.execute("PRAGMA wal_autocheckpoint = 0")
    s = Session.create(live, SETUP)
    for a in ACTIONS:
        s.submit(a)
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    for name in ("games.sqlite", "games.sqlite-wal"):  # what the card holds after the plug was pulled
        (crashed / name).write_bytes((tmp_path / name).read_bytes())
    live.close()
    copy = Store.copy_in_memory(crashed / "games.sqlite")
    assert [r.action for r in copy.actions(1)] == ACTIONS and not copy.saving
    assert sorted(p.name for p in crashed.iterdir()) == ["games.sqlite", "games.sqlite-wal"], "nothing written there"
