"""Opening the game database at start-up, whatever state it is in.

The hub always comes up. :func:`open_store` returns a usable :class:`~tablehub.store.Store`
and the :class:`Notice` lines to show on every phone:

- a healthy database opens as it is;
- a damaged one (not a database, truncated, garbage pages, an emptied 0-byte file) is
  renamed aside beside itself with a timestamp (``games.sqlite.damaged-20261125-134501``,
  its ``-wal`` with it; never deleted), every game and action SQLite can still read is
  salvaged into a new database, and the notice says what happened, what was kept and where;
- a data folder the hub cannot write (read-only, or one it cannot create) gives a copy in
  memory of whatever database is there, and a notice that nothing is being saved, and why;
- a full disk, or another program holding the database, keeps the database (writes start
  working again once space is freed) with a notice that changes are refused until then.

A game whose log stops replaying (an edited row, a catalog changed under a saved game) is
not this module's business: :class:`~tablehub.session.Session` opens it up to its last good
action and the page asks the owner what to do.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "games.sqlite").write_text("not a database")
>>> opened = open_store(folder / "games.sqlite")
>>> opened.notices[0].title
'The game database was damaged'
>>> sorted({p.name.split("-")[0] for p in folder.iterdir()})
['games.sqlite', 'games.sqlite.damaged']
"""
from __future__ import annotations

import errno
import json
import logging
import os
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .games.base import TablehubError
from .session import Broken, replay_rows
from .store import BUSY_TIMEOUT_S, GameRow, NotSaved, Store, StoreError, setup_from_json

log = logging.getLogger(__name__)

#: how many ids or sequence numbers in a row may be unreadable before salvage stops looking further
SALVAGE_GAP = 64


@dataclass(frozen=True)
class Notice:
    """A banner for every phone: ``key`` names it (one banner per key), ``choices`` what the owner
    can answer (see ``web.hub.NOTICE_CHOICES``)."""

    key: str
    level: str
    title: str
    text: str
    kept: str | None = None
    choices: tuple[str, ...] = ("dismiss",)


@dataclass
class Opened:
    """What :func:`open_store` found: the store to use, the notices, and whether the file is new."""

    store: Store
    notices: list[Notice] = field(default_factory=list)
    fresh: bool = False  # no database was there: a first start

    @property
    def saving(self) -> bool:
        return self.store.saving


@dataclass
class Salvage:
    games: list[GameRow] = field(default_factory=list)
    actions: dict[int, list[tuple[Any, ...]]] = field(default_factory=dict)
    lost: dict[int, str] = field(default_factory=dict)  # game id -> what could not be read
    current: str | None = None

    def summary(self) -> str:
        if not self.games:
            return "nothing could be read from it"
        parts = []
        for g in self.games:
            rows = self.actions.get(g.id, [])
            live = sum(1 for r in rows if r[5] is None)
            part = f"game {g.id} ({g.game}, {', '.join(g.setup.players)}): {live} action(s)"
            if g.id in self.lost:
                part += f", {self.lost[g.id]}"
            parts.append(part)
        return "salvaged " + "; ".join(parts)


def stamp(clock: float | None = None) -> str:
    return time.strftime("%Y%m%d-%H%M%S", time.localtime(clock))


def set_aside(path: Path, clock: float | None = None) -> Path:
    """Rename a damaged database (and its -wal and -shm) beside itself with a timestamp; returns the new name."""
    base = path.with_name(f"{path.name}.damaged-{stamp(clock)}")
    aside, n = base, 1
    while aside.exists():
        n += 1
        aside = base.with_name(f"{base.name}.{n}")
    os.replace(path, aside)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, aside.with_name(aside.name + suffix))
    return aside


def health(path: Path) -> str | None:
    """Why the database at ``path`` cannot be used as it is (``None``: it reads and checks ok).
    Read-only: nothing is written to it."""
    if path.stat().st_size == 0:
        return "the file is empty (0 bytes): a crash or a full card emptied it"
    try:
        con = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S)
    except sqlite3.Error as exc:
        return f"it cannot be opened ({exc})" if _damage(exc) else None
    try:
        result = [r[0] for r in con.execute("PRAGMA quick_check").fetchall()]
        if result != ["ok"]:
            return "SQLite's check fails: " + "; ".join(str(r) for r in result[:3])
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and not {"games", "actions"} <= tables:
            return "it is an SQLite file but not a game database (no games or actions table)"
        for table in ("games", "actions"):
            if table in tables:
                con.execute(f"SELECT * FROM {table}").fetchall()
        return None
    except sqlite3.Error as exc:
        if not _damage(exc):
            return None  # a read-only or full folder, a lock: not the file's fault (the store says so)
        return f"it cannot be read ({exc})"
    finally:
        con.close()


def _damage(exc: sqlite3.Error) -> bool:
    """Whether an error says the file is damaged (rather than the folder, the disk or a lock)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_FORMAT)
    return "malformed" in str(exc) or "not a database" in str(exc)


def salvage(path: Path) -> Salvage:
    """Every game and action SQLite can still read from the damaged database at ``path``
    (read from a copy, so the damaged file stays exactly as it was)."""
    out = Salvage()
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "damaged.sqlite"
        shutil.copyfile(path, copy)
        _pad(copy)
        wal = path.with_name(path.name + "-wal")
        if wal.exists():
            shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
        try:
            con = sqlite3.connect(copy)
        except sqlite3.Error:
            return out
        try:
            _salvage_from(con, out)
        finally:
            con.close()
    return out


def _pad(copy: Path) -> None:
    """Fill a truncated copy with zero pages up to the size its header states: SQLite then reads
    the pages that are still there instead of calling the whole file malformed."""
    with open(copy, "r+b") as f:
        head = f.read(100)
        if len(head) < 100 or not head.startswith(b"SQLite format 3\0"):
            return
        page = int.from_bytes(head[16:18], "big")
        page = 65536 if page == 1 else page
        want = page * int.from_bytes(head[28:32], "big")
        size = f.seek(0, os.SEEK_END)
        if page >= 512 and size < want <= 1 << 31:
            f.truncate(want)


def _rows(con: sqlite3.Connection, query: str, args: tuple = ()) -> list[tuple] | None:
    try:
        return con.execute(query, args).fetchall()
    except sqlite3.Error:
        return None


def _salvage_from(con: sqlite3.Connection, out: Salvage) -> None:
    games = _rows(con, "SELECT id, game, setup, created, ended FROM games ORDER BY id")
    if games is None:  # a damaged table: look the ids up one by one
        games, misses, game_id = [], 0, 0
        while misses < SALVAGE_GAP:
            game_id += 1
            row = _rows(con, "SELECT id, game, setup, created, ended FROM games WHERE id = ?", (game_id,))
            if row:
                games.append(row[0])
                misses = 0
            else:
                misses += 1
    actions = _all_actions(con)
    for gid, name, setup, created, ended in games:
        try:
            row = GameRow(int(gid), str(name), setup_from_json(setup), float(created),
                          None if ended is None else float(ended))
        except (TypeError, ValueError, KeyError, json.JSONDecodeError):
            continue
        out.games.append(row)
        out.actions[row.id], lost = _checked_actions(sorted(actions.get(row.id, []), key=lambda r: r[0]))
        if lost:
            out.lost[row.id] = lost
    current = _rows(con, "SELECT value FROM hub WHERE key = 'current_game'")
    out.current = str(current[0][0]) if current else None


def _all_actions(con: sqlite3.Connection) -> dict[int, list[tuple[Any, ...]]]:
    """Every readable action row by game: a scan of the table (not through its indexes, which
    may be the damaged part), else row by row."""
    query = "SELECT game_id, seq, action, source, turn, at, undone FROM actions NOT INDEXED"
    rows = _rows(con, query)
    if rows is None:
        rows, misses, rowid = [], 0, 0
        while misses < SALVAGE_GAP:
            rowid += 1
            got = _rows(con, query + " WHERE rowid = ?", (rowid,))
            if got:
                rows.extend(got)
                misses = 0
            else:
                misses += 1
    out: dict[int, list[tuple[Any, ...]]] = {}
    for game_id, *rest in rows:
        if isinstance(game_id, int) and isinstance(rest[0], int):
            out.setdefault(game_id, []).append(tuple(rest))
    return out


def _checked_actions(rows: list[tuple[Any, ...]]) -> tuple[list[tuple[Any, ...]], str]:
    """One game's readable rows as ``(seq, action, source, turn, at, undone, note)``; from the first
    missing or unreadable row on, the rest are kept but set aside (marked undone, with a note)."""
    out: list[tuple[Any, ...]] = []
    expected, gap_at = 1, None
    for seq, action, source, turn, at, undone in rows:
        try:
            parsed = json.loads(action)
            if not isinstance(parsed, dict):
                raise ValueError("not an object")
        except (TypeError, ValueError):
            gap_at = gap_at or int(seq)
            continue
        if gap_at is None and int(seq) != expected:
            gap_at = expected
        expected = int(seq) + 1
        note = None
        if gap_at is not None and undone is None:
            undone = time.time()
            note = f"salvage: action {gap_at} could not be read from the damaged database; set aside from there"
        out.append((int(seq), parsed, str(source), int(turn or 0), float(at or 0.0), undone, note))
    lost = f"actions from {gap_at} on set aside (action {gap_at} could not be read)" if gap_at is not None else ""
    return out, lost


def open_store(path: str | Path, timeout: float = BUSY_TIMEOUT_S, clock: float | None = None) -> Opened:
    """The game database at ``path``, opened whatever its state (see the module's notes); never raises
    for a damaged file or an unwritable folder."""
    path = Path(path)
    try:
        return _open(path, timeout, clock)
    except OSError as exc:  # anything the file system refuses that the steps below did not foresee
        log.error("%s: %s", path, exc)
        return _in_memory(path, f"{path} cannot be used ({exc.strerror or exc})", timeout)


def _open(path: Path, timeout: float, clock: float | None) -> Opened:
    notices: list[Notice] = []
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return _in_memory(path, f"the data folder {path.parent} cannot be created ({exc.strerror or exc})", timeout)
    fresh = not path.exists()
    if not fresh:
        why = health(path)
        if why is not None:
            return _recover(path, why, timeout, clock)
    if not _writable(path.parent):
        return _in_memory(path, f"the data folder {path.parent} is read-only", timeout)
    try:
        store = Store(path, timeout=timeout)
    except StoreError as exc:
        return _in_memory(path, str(exc).split(": ", 1)[-1], timeout)
    try:
        store.put("opened", str(time.time() if clock is None else clock))  # a write now says whether writes work
    except NotSaved as exc:
        notices.append(Notice("saving", "error", "Changes cannot be saved now",
                              f"{exc.reason}. Every change is refused (and nothing changes) until that is fixed; "
                              f"what is saved is safe in {path}.", str(path)))
    return Opened(store, notices, fresh=fresh)


def _writable(folder: Path) -> bool:
    """Whether a file can be made in ``folder`` (a real try: root passes ``os.access`` on a read-only mount)."""
    try:
        fd, name = tempfile.mkstemp(prefix=".tablehub-probe-", dir=folder)
    except OSError as exc:
        return exc.errno not in (errno.EROFS, errno.EACCES, errno.EPERM)
    os.close(fd)
    os.unlink(name)
    return True


def _in_memory(path: Path, why: str, timeout: float) -> Opened:
    """Nothing can be saved: a copy in memory of the database (if one reads), and a notice saying so."""
    kept = ""
    store = None
    try:
        readable = path.is_file() and path.stat().st_size > 0
    except OSError:
        readable = False
    if readable:
        try:
            store = Store.copy_in_memory(path, timeout=timeout)
            kept = f" The games in {path} are shown from a copy in memory; that file is left as it is."
        except TablehubError as exc:
            kept = f" {exc}; it is left as it is."
    if store is None:
        store = Store(":memory:", timeout=timeout)
        store.saving = False
    log.error("nothing is being saved: %s", why)
    notice = Notice("not-saving", "error", "Nothing is being saved",
                    f"{why}: this game lives only in memory and is lost when the hub stops.{kept} Fix the folder "
                    f"(free space, permissions, or set TABLEHUB_DATA / --data) and restart the hub.", str(path),
                    choices=())
    return Opened(store, [notice])


def _recover(path: Path, why: str, timeout: float, clock: float | None) -> Opened:
    """A damaged database: set it aside, salvage what reads into a new one, and say so."""
    found = salvage(path) if path.stat().st_size > 0 else Salvage()
    try:
        aside = set_aside(path, clock)
    except OSError as exc:  # a read-only folder: it cannot even be renamed
        return _in_memory(path, f"the game database is damaged ({why}) and cannot be set aside "
                                f"({exc.strerror or exc})", timeout)
    log.error("%s: %s; kept as %s", path, why, aside)
    try:
        store = Store(path, timeout=timeout)
        for game in found.games:
            store.import_game(game, found.actions.get(game.id, []))
        if found.current is not None:
            store.put("current_game", found.current)
    except TablehubError as exc:
        opened = _in_memory(path, f"a new game database cannot be made ({exc})", timeout)
        opened.notices.insert(0, _damaged(why, aside, found))
        return opened
    return Opened(store, [_damaged(why, aside, found)])


def _damaged(why: str, aside: Path, found: Salvage) -> Notice:
    if found.games:
        after = "The game on the table is back from what was salvaged."
    else:
        after = ("There was no game to bring back: start a new one below, or stop the hub and put a saved copy "
                 f"back as {aside.with_name(aside.name.split('.damaged-')[0])}.")
    title = "The game database was emptied" if "0 bytes" in why else "The game database was damaged"
    return Notice(f"damaged-{aside.name}", "error", title,
                  f"{why[0].upper()}{why[1:]}. It is kept as {aside} (nothing was deleted); {found.summary()}. {after}",
                  str(aside))


def game_status(store: Store, row: GameRow) -> tuple[int, "Broken | str | None"]:
    """(live actions, where its log stops replaying, a reason it cannot be set up, or ``None``)."""
    rows = store.actions(row.id)
    try:
        _, _, broken = replay_rows(row.setup, rows, row.id)
    except TablehubError as exc:
        return len(rows), f"cannot be set up any more: {exc}"
    return len(rows), broken


def fix_command(game_id: int, db: Path, data_dir: str | Path | None = None) -> str:
    """The exact command that repairs a game (what ``tablehub doctor`` prints)."""
    where = f"--data {data_dir}" if data_dir is not None and Path(data_dir) / "games.sqlite" == Path(db) \
        else f"--db {db}"
    return f"tablehub games repair {game_id} {where}"
