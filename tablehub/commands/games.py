"""``tablehub games``: the saved games in the hub's database: list them, export one as a record,
repair one whose log no longer replays.

``repair`` never deletes a row: the actions from the first one that no longer replays on are
marked undone, each with a note saying why, and the game continues from the last good action.
Everything set aside is still in the database (``export --all`` shows it) and comes back by
hand if the cause is fixed (e.g. the catalog is put back).

    tablehub games list --data /var/lib/tablehub
    tablehub games export 3 --out game3.json --data /var/lib/tablehub
    tablehub games repair 3 --data /var/lib/tablehub
"""
from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from ..recovery import fix_command, game_status
from ..i18n import T, capital, reason
from ..usage_i18n import say
from ..session import Broken
from ..store import Store, StoreError

NAME = "games"
HELP = T("list the saved games, export one as a record, repair one whose log no longer replays")
DESCRIPTION = T("{help}. 'repair' never deletes a row: the actions from the first one that no longer replays on "
                "are marked undone, each with a note saying why, and the game continues from the last good action. "
                "Everything set aside is still in the database ('export --all' shows it) and comes back by hand if "
                "the cause is fixed (e.g. the catalog is put back).", help=HELP)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ._options import add_settings

    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    where = argparse.ArgumentParser(add_help=False)
    add_settings(where)
    where.add_argument("--db", help=T("the game database file itself (default: games.sqlite in the data folder)"))
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    sub.add_parser("list", parents=[where], help=T("every saved game: players, actions, whether its log replays"))
    p = sub.add_parser("export", parents=[where], help=T("write one game as a record (the format 'tablehub score' reads)"))
    p.add_argument("id", type=int, help=T("the game's number (see 'list')"))
    p.add_argument("--out", help=T("file to write (default: standard output)"))
    p.add_argument("--all", action="store_true", help=T("every row ever logged, undone ones too, with their notes "
                   "(an audit, not a record)"))
    p = sub.add_parser("repair", parents=[where], help=T("set aside the actions that no longer replay (marked undone with a note, "
                       "never deleted); the game continues from the last good action"))
    p.add_argument("id", type=int, help=T("the game's number (see 'list')"))


def database(args: argparse.Namespace) -> Path:
    if getattr(args, "db", None):
        return Path(args.db)
    from ._options import settings

    return settings(args).db_path


def _open_read(db: Path) -> Store:
    if not db.is_file():
        raise StoreError(T("{path}: no game database here (give --data or --db)", path=str(db)))
    try:
        store = Store.copy_in_memory(db)
        store.path = str(db)  # read from a copy: the file is not touched while the hub may be running
        return store
    except StoreError as exc:
        raise StoreError(T("{why}; a damaged file is set aside and salvaged by the hub at its next start", why=reason(exc))) from None


def run(args: argparse.Namespace) -> int:
    db = database(args)
    if args.action == "list":
        return list_games(_open_read(db), db, args)
    if args.action == "export":
        return export_game(_open_read(db), args.id, args.out, args.all)
    return repair_game(db, args.id, args)


def list_games(store: Store, db: Path, args: argparse.Namespace) -> int:
    current = store.current_game()
    games = store.games()
    if not games:
        say(T("{path}: no saved games", path=str(db)))
        return 0
    bad = 0
    for row in games:
        n, status = game_status(store, row)
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(row.created))
        state = T("ended") if row.ended else T("open")
        players = ", ".join(row.setup.players)
        line: Any = (T("game {id} (on the table): {game}, {players}; {when}; {n} action(s); {state}", id=row.id,
                       game=row.game, players=players, when=when, n=n, state=state) if row.id == current else
                     T("game {id}: {game}, {players}; {when}; {n} action(s); {state}", id=row.id, game=row.game,
                       players=players, when=when, n=n, state=state))
        if isinstance(status, Broken):
            bad += 1
            line = T("{line}; LOG STOPS REPLAYING at action {seq}: {why} -> {fix}", line=line, seq=status.seq,
                     why=status.reason, fix=fix_command(row.id, db, getattr(args, "data", None)))
        elif isinstance(status, str):
            bad += 1
            line = T("{line}; {why} -> tablehub games export {id}", line=line, why=capital(status), id=row.id)
        say(line)
    return 1 if bad else 0


def export_game(store: Store, game_id: int, out: str | None, everything: bool) -> int:
    row = store.game(game_id)
    record: dict[str, Any] = row.setup.to_dict()
    if everything:
        notes = store.notes(game_id)
        record["log"] = [{"seq": seq, "action": a, "source": src, "undone": undone, "note": notes.get(seq)}
                         for seq, a, src, undone in store.iter_all_actions(game_id)]
    else:
        record["actions"] = [r.action for r in store.actions(game_id)]
    text = json.dumps(record, indent=1, ensure_ascii=False) + "\n"
    if out:
        Path(out).write_text(text, encoding="utf-8")
        count = len(record.get("actions", record.get("log", [])))
        say(T("game {id}: {n} action(s) written to {path}", id=game_id, n=count, path=out), file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def repair_game(db: Path, game_id: int, args: argparse.Namespace) -> int:
    from ..session import Session, SessionError

    if not db.is_file():
        raise StoreError(T("{path}: no game database here (give --data or --db)", path=str(db)))
    try:
        store = Store(db)
    except StoreError as exc:
        raise StoreError(T("{why}; a damaged file is set aside and salvaged by the hub at its next start", why=reason(exc))) from None
    try:
        try:
            session = Session(store, game_id, tolerant=True)
        except SessionError as exc:
            raise SessionError(T("{why}; export it with 'tablehub games export {game} --db {db}'", why=reason(exc), game=game_id,
                                   db=str(db))) from None
        broken = session.broken
        if broken is None:
            say(T("game {id} replays ({n} action(s)): nothing to repair", id=game_id, n=len(session.rows)))
            return 0
        n = session.repair()
        say(T("game {id}: {n} action(s) from action {seq} on set aside (marked undone with a note, not deleted): "
              "action {seq} no longer replays: {why}", id=game_id, n=n, seq=broken.seq, why=broken.reason))
        say(T("game {id} continues from action {seq} ({n} action(s)); restart the hub if it is running ('sudo "
              "systemctl restart tablehub') so that it loads the repaired log", id=game_id,
              seq=session.rows[-1].seq if session.rows else 0, n=len(session.rows)))
        return 0
    except sqlite3.Error as exc:  # pragma: no cover - the store turns these into NotSaved
        raise StoreError(T("{path}: {why}", path=str(db), why=str(exc))) from None
    finally:
        store.close()
