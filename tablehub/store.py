"""SQLite storage for game sessions: a setup row and an append-only action log.

The log is the truth; a game's state is ``replay(setup, actions)``. Undo never
deletes: it marks rows as undone, so nothing recorded is ever lost. The database
runs in WAL mode with ``synchronous=FULL``: pull the plug mid-game and every
committed action is still there.

Every change is one transaction (:meth:`Store.write`): it is committed whole or
not at all, and a failure comes back as :class:`NotSaved` naming the reason in
words (the disk is full, another program holds the database, the folder is
read-only). Each change also bumps the game's ``revision``, which pages send
back with their next change so that a stale one can be refused. A new database
file is created readable by its owner only (0600).

>>> s = Store()
>>> g = s.create_game(Setup("neuesland", ("Ana", "Ben")))
>>> s.append_many(g, [({"type": "pass"}, "phone", 0)])
[1]
>>> s.game(g).revision, s.current_game()  # nothing recorded yet: the latest unfinished game
(1, 1)
>>> s.set_current_game(None); s.current_game()  # the table was left empty
"""
from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from .games.base import Setup, TablehubError
from .i18n import T

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
CREATE TABLE IF NOT EXISTS hub (
    key       TEXT PRIMARY KEY,
    value     TEXT NOT NULL
);
"""

#: columns added after the first release (added on open when missing; nothing is rewritten)
LATER_COLUMNS = {
    "games": [("revision", "INTEGER NOT NULL DEFAULT 0")],
    "actions": [("note", "TEXT")],
}

#: the busy timeout: how long a write waits for another program's lock before it is refused
BUSY_TIMEOUT_S = 5.0


class StoreError(TablehubError):
    pass


class NotSaved(StoreError):
    """A change the database did not take; nothing changed, in the log or in the game."""

    def __init__(self, reason: str):
        super().__init__(f"not saved: {reason}; nothing changed")
        self.reason = reason


def write_failure(exc: sqlite3.Error, path: str = "") -> str:
    """The reason a write failed, in words for the people at the table."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    text = str(exc)
    if primary == sqlite3.SQLITE_FULL or "full" in text:
        return f"the disk holding {path or 'the game database'} is full"
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in text:
        return "another program holds the game database (busy for longer than the timeout)"
    if primary == sqlite3.SQLITE_READONLY or "readonly" in text or "read-only" in text:
        return f"the game database {path} is read-only".replace("  ", " ")
    if primary == sqlite3.SQLITE_IOERR or "disk I/O" in text:
        return f"the card or disk holding {path or 'the game database'} failed to write ({text})"
    if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB) or "malformed" in text:
        return f"the game database {path} is damaged ({text}); restart the hub to recover it"
    return f"the game database refused the write ({text})"


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    setup: Setup
    created: float
    ended: float | None
    revision: int = 0


@dataclass(frozen=True)
class ActionRow:
    seq: int
    action: dict[str, Any]
    source: str
    turn: int
    at: float


def setup_from_json(text: str) -> Setup:
    d = json.loads(text)
    return Setup(d["game"], tuple(d["players"]), tuple(d.get("colors", ())), d.get("options", {}))


_setup_from_json = setup_from_json  # the old private name


def create_private(path: Path) -> None:
    """Create an empty file readable by its owner only (0600), whatever the umask; SQLite gives
    the -wal and -shm files the mode of the database."""
    fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    os.close(fd)


class Store:
    """One SQLite file holding any number of games. Thread-safe (one lock).

    ``timeout``: seconds a write waits for another program's lock (then :class:`NotSaved`).
    """

    #: False for a copy in memory of a database the hub cannot write (nothing is saved)
    saving = True

    def __init__(self, path: str | Path = ":memory:", timeout: float = BUSY_TIMEOUT_S):
        self.path = str(path)
        self.timeout = timeout
        created = False
        try:
            if self.path != ":memory:":
                file = Path(self.path)
                file.parent.mkdir(parents=True, exist_ok=True)
                if not file.exists():
                    create_private(file)
                    created = True
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=timeout)
        except (sqlite3.Error, OSError) as exc:
            self._forget(created)
            raise StoreError(T("{path}: cannot open the game database ({why})", path=str(self.path), why=str(exc))) from None
        self._lock = threading.RLock()
        try:
            self._prepare()
        except sqlite3.Error as exc:
            self._db.close()
            self._forget(created)
            raise StoreError(T("{path}: cannot open the game database ({why})", path=str(self.path),
                                 why=write_failure(exc, self.path))) from None

    def _prepare(self, wal: bool = True) -> None:
        with self._lock:
            if wal:
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            self._add_later_columns()

    def _forget(self, created: bool) -> None:
        """Remove the empty file this store just created and could not set up (a full disk):
        left behind it would read as an emptied database at the next start."""
        if created:
            with contextlib.suppress(OSError):
                if os.path.getsize(self.path) == 0:
                    os.unlink(self.path)

    @classmethod
    def copy_in_memory(cls, path: str | Path, timeout: float = BUSY_TIMEOUT_S) -> "Store":
        """A store in memory holding a copy of the database at ``path`` (read, never written: for a
        data folder the hub cannot write). Its :attr:`saving` is False. The file and its -wal are
        copied to a temporary folder first, so that actions still in the WAL are read too."""
        import shutil
        import tempfile

        store = cls(":memory:", timeout=timeout)
        store.path = f"{path} (a copy in memory: nothing is saved)"
        store.saving = False
        try:
            with tempfile.TemporaryDirectory(prefix="tablehub-copy-") as tmp:
                copy = Path(tmp) / "games.sqlite"
                shutil.copyfile(path, copy)
                wal = Path(f"{path}-wal")
                if wal.is_file():
                    shutil.copyfile(wal, f"{copy}-wal")
                src = sqlite3.connect(copy, timeout=timeout)
                try:
                    src.execute("SELECT COUNT(*) FROM games").fetchone()
                    src.backup(store._db)
                finally:
                    src.close()
            store._prepare(wal=False)
        except (sqlite3.Error, OSError) as exc:
            store.close()
            raise StoreError(T("{path}: cannot read the game database ({why})", path=str(path), why=str(exc))) from None
        return store

    def import_game(self, row: "GameRow", actions: Iterable[tuple[int, dict[str, Any], str, int, float, float | None,
                                                                  str | None]]) -> None:
        """Put a game salvaged from a damaged database into this one with its id and its rows
        ``(seq, action, source, turn, at, undone, note)``: one transaction."""
        with self.write() as db:
            db.execute("INSERT INTO games(id, game, setup, created, ended, revision) VALUES (?, ?, ?, ?, ?, ?)",
                       (row.id, row.game, json.dumps(row.setup.to_dict()), row.created, row.ended, row.revision))
            db.executemany("INSERT INTO actions(game_id, seq, action, source, turn, at, undone, note) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           [(row.id, seq, json.dumps(a), src, turn, at, undone, note)
                            for seq, a, src, turn, at, undone, note in actions])

    def _add_later_columns(self) -> None:
        for table, columns in LATER_COLUMNS.items():
            have = {r[1] for r in self._db.execute(f"PRAGMA table_info({table})")}
            for name, decl in columns:
                if name not in have:
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {decl}")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ---- one transaction per change

    @contextlib.contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed whole when the block ends, rolled back on any error.
        A database error comes out as :class:`NotSaved`."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise NotSaved(write_failure(exc, self.path)) from exc
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException as exc:
                try:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # SQLite rolled back itself (e.g. after SQLITE_FULL)
                if isinstance(exc, sqlite3.Error):
                    raise NotSaved(write_failure(exc, self.path)) from exc
                raise

    # ---- games

    def create_game(self, setup: Setup, current: bool = False) -> int:
        """A new game's row; ``current``: record it as the game on the table in the same transaction."""
        with self.write() as db:
            cur = db.execute("INSERT INTO games(game, setup, created) VALUES (?, ?, ?)",
                             (setup.game, json.dumps(setup.to_dict()), time.time()))
            game_id = int(cur.lastrowid)
            if current:
                self._put(db, "current_game", str(game_id))
            return game_id

    def game(self, game_id: int) -> GameRow:
        with self._lock:
            row = self._db.execute(
                "SELECT id, game, setup, created, ended, revision FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(T("{path}: no game with id {id}", path=str(self.path), id=game_id))
        return GameRow(row[0], row[1], setup_from_json(row[2]), row[3], row[4], row[5])

    def games(self) -> list[GameRow]:
        with self._lock:
            rows = self._db.execute("SELECT id, game, setup, created, ended, revision FROM games ORDER BY id").fetchall()
        return [GameRow(r[0], r[1], setup_from_json(r[2]), r[3], r[4], r[5]) for r in rows]

    def latest_open_game(self) -> GameRow | None:
        open_games = [g for g in self.games() if g.ended is None]
        return open_games[-1] if open_games else None

    def set_ended(self, game_id: int, ended: bool = True) -> int:
        """Mark a game ended (or not); returns its new revision."""
        with self.write() as db:
            db.execute("UPDATE games SET ended = ? WHERE id = ?", (time.time() if ended else None, game_id))
            return self._bump(db, game_id)

    @staticmethod
    def _bump(db: sqlite3.Connection, game_id: int) -> int:
        db.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))
        row = db.execute("SELECT revision FROM games WHERE id = ?", (game_id,)).fetchone()
        return int(row[0]) if row else 0

    # ---- which game is on the table

    def current_game(self) -> int | None:
        """The game on the table when the hub last changed it (``None``: the table was left empty);
        for a database from before the table was remembered, the latest unfinished game."""
        value = self.get("current_game")
        if value is None:
            row = self.latest_open_game()
            return row.id if row else None
        return int(value) if value.isdigit() else None

    def set_current_game(self, game_id: int | None) -> None:
        self.put("current_game", "" if game_id is None else str(game_id))

    def get(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM hub WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def put(self, key: str, value: str) -> None:
        with self.write() as db:
            self._put(db, key, value)

    @staticmethod
    def _put(db: sqlite3.Connection, key: str, value: str) -> None:
        db.execute("INSERT INTO hub(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                   (key, value))

    # ---- actions

    def append(self, game_id: int, action: dict[str, Any], source: str, turn: int) -> int:
        return self.append_many(game_id, [(action, source, turn)])[0]

    def append_many(self, game_id: int, rows: Iterable[tuple[dict[str, Any], str, int]],
                    ended: bool = False) -> list[int]:
        """Log ``rows`` (action, source, turn) in one transaction, and mark the game ended when
        ``ended``; returns their sequence numbers. All or nothing."""
        with self.write() as db:
            row = db.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,)).fetchone()
            seq = int(row[0])
            seqs = []
            now = time.time()
            for action, source, turn in rows:
                seq += 1
                db.execute("INSERT INTO actions(game_id, seq, action, source, turn, at) VALUES (?, ?, ?, ?, ?, ?)",
                           (game_id, seq, json.dumps(action), source, turn, now))
                seqs.append(seq)
            if ended:
                db.execute("UPDATE games SET ended = ? WHERE id = ?", (now, game_id))
            self._bump(db, game_id)
            return seqs

    def actions(self, game_id: int) -> list[ActionRow]:
        """The live (not undone) actions in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, action, source, turn, at FROM actions WHERE game_id = ? AND undone IS NULL "
                "ORDER BY seq", (game_id,)).fetchall()
        return [ActionRow(r[0], json.loads(r[1]), r[2], r[3], r[4]) for r in rows]

    def mark_undone(self, game_id: int, seqs: list[int], note: str | None = None) -> int:
        """Mark actions undone (never deleted), with an optional note saying why; one transaction.
        Returns the game's new revision."""
        with self.write() as db:
            now = time.time()
            db.executemany("UPDATE actions SET undone = ?, note = COALESCE(?, note) WHERE game_id = ? AND seq = ?",
                           [(now, note, game_id, s) for s in seqs])
            return self._bump(db, game_id)

    def iter_all_actions(self, game_id: int) -> Iterator[tuple[int, dict[str, Any], str, float | None]]:
        """Every action ever logged for a game, undone ones included (for audits)."""
        with self._lock:
            rows = self._db.execute("SELECT seq, action, source, undone FROM actions WHERE game_id = ? ORDER BY seq",
                                    (game_id,)).fetchall()
        for r in rows:
            yield r[0], json.loads(r[1]), r[2], r[3]

    def notes(self, game_id: int) -> dict[int, str]:
        """The notes left on actions (why a repair set them aside), by sequence number."""
        with self._lock:
            rows = self._db.execute("SELECT seq, note FROM actions WHERE game_id = ? AND note IS NOT NULL",
                                    (game_id,)).fetchall()
        return {int(r[0]): str(r[1]) for r in rows}
