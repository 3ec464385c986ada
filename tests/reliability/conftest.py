"""Fault injection for the game log: real SQLite errors, no mocks.

- :func:`held_lock`: a second connection holds the database's write lock past the store's
  busy timeout (what another program, or a stuck backup, does);
- :func:`full_database`: ``PRAGMA max_page_count`` at the current size, so SQLite reports
  SQLITE_FULL exactly as on a full card (a real full file system is in test_full_disk.py);
- :func:`failing_insert`: a trigger that aborts the n-th row of a transaction, so a turn of
  several actions fails half-way.
"""
from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any, Iterator

import pytest

from tablehub.games.base import Setup

SETUP = Setup("neuesland", ("Ana", "Ben"))
TURNS = [
    [{"type": "place_tile", "tile": "ds017", "x": 1, "y": 0, "rotation": 0}, {"type": "place_figure", "region": "G:S"}],
    [{"type": "place_tile", "tile": "ds004", "x": 0, "y": -1, "rotation": 0}],
    [{"type": "place_tile", "tile": "ds002", "x": -1, "y": -1, "rotation": 90},
     {"type": "score_figure", "x": 1, "y": 0, "region": "G:S"}],
]
ACTIONS = [a for turn in TURNS for a in turn]


@contextlib.contextmanager
def held_lock(path: Path) -> Iterator[sqlite3.Connection]:
    """Another connection holds the write lock until the block ends."""
    other = sqlite3.connect(path, isolation_level=None, timeout=0)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield other
    finally:
        other.execute("ROLLBACK")
        other.close()


@contextlib.contextmanager
def full_database(store: Any) -> Iterator[None]:
    """The database may not grow: the next write that needs a new page fails with SQLITE_FULL.

    The pages of the action log are filled first with the smallest possible rows of a ballast
    game (any real action is bigger), so that the next action needs a page SQLite may not add."""
    db = store._db
    ballast = store.create_game(SETUP)
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")
    seq = 0
    try:
        while True:
            seq += 1
            db.execute("INSERT INTO actions(game_id, seq, action, at) VALUES (?, ?, '{}', 0)", (ballast, seq))
    except sqlite3.Error as exc:
        assert "full" in str(exc), exc
    try:
        yield
    finally:
        db.execute("PRAGMA max_page_count = 1073741823")


@contextlib.contextmanager
def failing_insert(path: Path, nth_seq: int) -> Iterator[None]:
    """The database refuses the row with sequence number ``nth_seq`` (a real SQLite error mid-transaction)."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute(f"CREATE TRIGGER inject BEFORE INSERT ON actions WHEN NEW.seq = {nth_seq} "
                "BEGIN SELECT RAISE(ABORT, 'injected write failure'); END")
    try:
        yield
    finally:
        con.execute("DROP TRIGGER inject")
        con.close()


def quick_store(path: Path, timeout_ms: int = 200) -> Any:
    """A store on ``path`` whose writes wait ``timeout_ms`` for another program's lock (not 5 s)."""
    from tablehub.store import Store

    store = Store(path)
    store._db.execute(f"PRAGMA busy_timeout = {timeout_ms}")
    return store


def state_of(session: Any) -> tuple:
    """Everything a refusal must leave as it was."""
    g = session.game
    return (g.scores(), repr(g.resources()), g.turn, g.finished, [r.seq for r in session.rows],
            [r.action for r in session.rows])


def log_of(path: Path, game_id: int = 1) -> list[tuple]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return con.execute("SELECT seq, action, undone IS NOT NULL FROM actions WHERE game_id = ? ORDER BY seq",
                           (game_id,)).fetchall()
    finally:
        con.close()


@pytest.fixture()
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite"
