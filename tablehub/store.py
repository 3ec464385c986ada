"""SQLite storage for game sessions: a setup row and an append-only action log.

The log is the truth; a game's state is ``replay(setup, actions)``. Undo never
deletes: it marks rows as undone, so nothing recorded is ever lost. The database
runs in WAL mode with ``synchronous=FULL``: pull the plug mid-game and every
committed action is still there.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from .games.base import Setup, TablehubError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    game      TEXT NOT NULL,
    setup     TEXT NOT NULL,
    created   REAL NOT NULL,
    ended     REAL
);
CREATE TABLE IF NOT EXISTS actions (
    game_id   INTEGER NOT NULL REFERENCES games(id),
    seq       INTEGER NOT NULL,
    action    TEXT NOT NULL,
    source    TEXT NOT NULL DEFAULT 'manual',
    turn      INTEGER NOT NULL DEFAULT 0,
    at        REAL NOT NULL,
    undone    REAL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX IF NOT EXISTS actions_live ON actions(game_id, undone, seq);
"""


class StoreError(TablehubError):
    pass


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    setup: Setup
    created: float
    ended: float | None


@dataclass(frozen=True)
class ActionRow:
    seq: int
    action: dict[str, Any]
    source: str
    turn: int
    at: float


def _setup_from_json(text: str) -> Setup:
    d = json.loads(text)
    return Setup(d["game"], tuple(d["players"]), tuple(d.get("colors", ())), d.get("options", {}))


class Store:
    """One SQLite file holding any number of games. Thread-safe (one lock)."""

    def __init__(self, path: str | Path = ":memory:"):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the game database ({exc})") from None
        self._lock = threading.RLock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ---- games

    def create_game(self, setup: Setup) -> int:
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO games(game, setup, created) VALUES (?, ?, ?)",
                (setup.game, json.dumps(setup.to_dict()), time.time()))
            return int(cur.lastrowid)

    def game(self, game_id: int) -> GameRow:
        with self._lock:
            row = self._db.execute(
                "SELECT id, game, setup, created, ended FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"{self.path}: no game with id {game_id}")
        return GameRow(row[0], row[1], _setup_from_json(row[2]), row[3], row[4])

    def games(self) -> list[GameRow]:
        with self._lock:
            rows = self._db.execute("SELECT id, game, setup, created, ended FROM games ORDER BY id").fetchall()
        return [GameRow(r[0], r[1], _setup_from_json(r[2]), r[3], r[4]) for r in rows]

    def latest_open_game(self) -> GameRow | None:
        open_games = [g for g in self.games() if g.ended is None]
        return open_games[-1] if open_games else None

    def set_ended(self, game_id: int, ended: bool = True) -> None:
        with self._lock:
            self._db.execute("UPDATE games SET ended = ? WHERE id = ?", (time.time() if ended else None, game_id))

    # ---- actions

    def append(self, game_id: int, action: dict[str, Any], source: str, turn: int) -> int:
        with self._lock:
            row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?",
                                   (game_id,)).fetchone()
            seq = int(row[0]) + 1
            self._db.execute(
                "INSERT INTO actions(game_id, seq, action, source, turn, at) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, json.dumps(action), source, turn, time.time()))
            return seq

    def actions(self, game_id: int) -> list[ActionRow]:
        """The live (not undone) actions in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, action, source, turn, at FROM actions WHERE game_id = ? AND undone IS NULL "
                "ORDER BY seq", (game_id,)).fetchall()
        return [ActionRow(r[0], json.loads(r[1]), r[2], r[3], r[4]) for r in rows]

    def mark_undone(self, game_id: int, seqs: list[int]) -> None:
        if not seqs:
            return
        with self._lock:
            now = time.time()
            self._db.execute("BEGIN")
            try:
                self._db.executemany("UPDATE actions SET undone = ? WHERE game_id = ? AND seq = ?",
                                     [(now, game_id, s) for s in seqs])
                self._db.execute("COMMIT")
            except Exception:
                self._db.execute("ROLLBACK")
                raise

    def iter_all_actions(self, game_id: int) -> Iterator[tuple[int, dict[str, Any], str, float | None]]:
        """Every action ever logged for a game, undone ones included (for audits)."""
        with self._lock:
            rows = self._db.execute("SELECT seq, action, source, undone FROM actions WHERE game_id = ? ORDER BY seq",
                                    (game_id,)).fetchall()
        for r in rows:
            yield r[0], json.loads(r[1]), r[2], r[3]
