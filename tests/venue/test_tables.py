"""Many tables, one broker, one board: whole games, a broker restart, a hub killed mid-game."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tablehub.config import VenueConfig
from tablehub.venue.board import BoardListener, VenueBoard
from tablehub.venue.sim import SimTable

from .conftest import wait_for

ROOT = Path(__file__).resolve().parents[2]
TABLES = 20


def settings(broker, table: str) -> VenueConfig:
    return VenueConfig(broker=broker.host, port=broker.port, venue="cafe", table=table, keepalive=5)


def start_board(broker) -> tuple[VenueBoard, BoardListener]:
    board = VenueBoard("cafe")
    listener = BoardListener(settings(broker, "board"), board).start()
    assert listener.connected.wait(5)
    return board, listener


def tables_for(broker, n: int = TABLES) -> list[SimTable]:
    pool = ["Ana", "Ben", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"]  # players meet again at other tables
    return [SimTable(settings(broker, f"t{i + 1}"), seed=100 + i, names=(pool[i % 8], pool[(i + 3) % 8]))
            for i in range(n)]


def finals(board: VenueBoard) -> dict[str, dict[str, int]]:
    return {r["table"]: {p["name"]: p["score"] for p in r["players"]} for r in board.results(None)}


def play_round(tables: list[SimTable], only: slice = slice(None)) -> bool:
    """One action at every table of ``only`` that is still playing; False when none is."""
    return any([t.step() for t in tables[only]])


def test_twenty_tables_play_whole_games_and_the_board_ends_with_every_final_score(broker):
    board, listener = start_board(broker)
    tables = [t.start() for t in tables_for(broker)]
    try:
        while play_round(tables):
            time.sleep(0.001)
        expected = {t.settings.table: t.expected for t in tables}
        wait_for(lambda: finals(board) == expected, 20, what="every final score on the board")
        wait_for(lambda: all(r["finished"] for r in board.tables()), 10, what="every table's final state")
        rows = {r["table"]: r for r in board.tables()}
        assert set(rows) == set(expected)
        assert all(r["online"] and r["current"] is None for r in rows.values())
        assert {t: {p["name"]: p["score"] for p in r["players"]} for t, r in rows.items()} == expected
        # the standings add up the same results
        standings = board.standings("points")
        assert sum(r["points"] for r in standings) == sum(sum(s.values()) for s in expected.values())
        assert sum(r["games"] for r in standings) == 2 * TABLES
        wins = board.standings("wins")
        assert [r["wins"] for r in wins] == sorted((r["wins"] for r in wins), reverse=True)
        csv_lines = board.standings_csv("wins").strip().splitlines()
        assert len(csv_lines) == 1 + len(wins)
    finally:
        for t in tables:
            t.close()
    wait_for(lambda: all(r["online"] is False for r in board.tables()), 10, what="every table offline after closing")
    listener.close()


def test_a_broker_restart_mid_game_loses_no_final_result(broker, monkeypatch):
    import tablehub.venue.mqtt

    monkeypatch.setattr(tablehub.venue.mqtt, "RECONNECT_DELAY", (1, 2))  # the test waits less for the back-off
    n = 8
    board, listener = start_board(broker)
    tables = [t.start() for t in tables_for(broker, n)]
    try:
        for _ in range(30):  # every table is mid-game
            play_round(tables)
        wait_for(lambda: len(board.tables()) == n, what="every table on the board")
        broker.stop()
        # while it is away, half the tables finish their games and the others play on
        while play_round(tables, slice(0, n // 2)):
            pass
        for _ in range(20):
            play_round(tables, slice(n // 2, None))
        assert not finals(board)
        time.sleep(0.5)
        broker.start()
        while play_round(tables):
            time.sleep(0.001)
        expected = {t.settings.table: t.expected for t in tables}
        wait_for(lambda: finals(board) == expected, 30, what="every final score after the restart")
        wait_for(lambda: all(r["online"] and r["finished"] for r in board.tables()), 10,
                 what="every table online and finished")
    finally:
        for t in tables:
            t.close()
        listener.close()


def hub_process(broker, db: Path, interval: float) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.Popen([sys.executable, "-m", "tablehub.venue.sim", "--broker", broker.host, "--port",
                             str(broker.port), "--venue", "cafe", "--table", "t7", "--seed", "107", "--db", str(db),
                             "--interval", str(interval)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)


def test_a_hub_killed_mid_game_shows_offline_and_comes_back(broker, tmp_path):
    board, listener = start_board(broker)
    db = tmp_path / "t7.sqlite"
    proc = hub_process(broker, db, interval=0.03)
    try:
        wait_for(lambda: board.tables() and board.tables()[0]["turn"] >= 5, 20, what="the table mid-game")
        assert board.tables()[0]["online"] is True
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(5)
        wait_for(lambda: board.tables()[0]["online"] is False, 15, what="offline after SIGKILL")
        row = board.tables()[0]
        assert not row["finished"] and row["turn"] >= 5
        turn_at_kill = row["turn"]
        proc = hub_process(broker, db, interval=0.0)  # the hub starts again and resumes its game
        wait_for(lambda: board.tables()[0]["online"] is True, 20, what="online again")
        out, _ = proc.communicate(timeout=60)
        assert proc.returncode == 0, out
        expected = SimTable(settings(broker, "t7"), seed=107, db=":memory:").expected
        wait_for(lambda: finals(board).get("t7") == expected, 15, what="the final score of the resumed game")
        assert board.tables()[0]["turn"] >= turn_at_kill
        assert "game 1 at action" in out and " at action 0" not in out  # it resumed, not restarted
    finally:
        if proc.poll() is None:
            proc.kill()
        listener.close()
