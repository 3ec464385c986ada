"""Game records: a setup plus a list of actions, as JSON (see docs/records.md)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import schemas
from .games import game_class, new_game
from .i18n import T
from .jsonfile import read_json
from .games.base import Action, Game, PositionResult, Setup, TablehubError, check_players, show


class RecordError(TablehubError):
    pass


@dataclass
class Record:
    setup: Setup
    actions: list[dict[str, Any]]
    source: str = "<record>"

    def to_dict(self) -> dict[str, Any]:
        d = self.setup.to_dict()
        d["actions"] = list(self.actions)
        return d


def parse_record(data: Any, source: str = "<record>") -> Record:
    """Check a record against ``tablehub/schemas/record.schema.json``, then what a schema cannot say:
    the game exists, the names are distinct, the player count suits the game. One-line
    :class:`RecordError` naming the file and the field."""
    _not_both(data, source)
    schemas.check(data, "record", source, RecordError)
    cls = _game(data, source)
    _players(data, cls, source)
    return Record(Setup(data["game"], tuple(data["players"]), tuple(data.get("colors", ())),
                        dict(data.get("options", {}))), list(data.get("actions", [])), source)


def is_position(data: Any) -> bool:
    """A position file (``"position"`` in place of ``"actions"``), as opposed to a record."""
    return isinstance(data, dict) and "position" in data


def parse_position(data: Any, source: str = "<position>") -> tuple[type[Game], dict[str, Any]]:
    """Check a position file's setup (``position.schema.json``); returns the game class that scores it
    and the data. The body of ``position`` is checked by the game's own ``score_position``."""
    _not_both(data, source)
    schemas.check(data, "position", source, RecordError)
    cls = _game(data, source)
    if getattr(cls, "score_position", None) is None:
        raise RecordError(T("{source}: game: {game} is scored from records (actions), not positions", source=source,
                            game=cls.name))
    if "players" in data:
        _players(data, cls, source)
    return cls, data


def score_position(data: Any, source: str = "<position>") -> PositionResult:
    """Score a position file; the player count (given, or read off the position) must suit the game."""
    cls, data = parse_position(data, source)
    try:
        result = cls.score_position(data, source)  # type: ignore[attr-defined]
    except TablehubError as exc:
        raise RecordError(exc.text) from None
    if "players" not in data:  # read off the position (Tahiti: the boats' owners): names checked as given ones
        try:
            check_players(list(result.scores), f"{source}: position")
        except TablehubError as exc:
            raise RecordError(exc.text) from None
    n = len(result.scores)
    if not cls.min_players <= n <= cls.max_players:
        raise RecordError(T("{source}: players: {game} needs {least} to {most} players, got {n}", source=source,
                            game=cls.title, least=cls.min_players, most=cls.max_players, n=n))
    return result


def _not_both(data: Any, source: str) -> None:
    if isinstance(data, dict) and "position" in data and "actions" in data:
        raise RecordError(T("{source}: has both 'actions' (a record) and 'position' (a table to score); a file is one "
                            "or the other", source=source))


def _game(data: dict[str, Any], source: str) -> type[Game]:
    try:
        return game_class(data["game"])
    except TablehubError as exc:
        raise RecordError(T("{source}: game: {why}", source=source, why=exc.text)) from None


def _players(data: dict[str, Any], cls: type[Game], source: str) -> None:
    try:
        players = check_players(data["players"], source)
    except TablehubError as exc:
        raise RecordError(exc.text) from None
    if not cls.min_players <= len(players) <= cls.max_players:
        raise RecordError(T("{source}: players: {game} needs {least} to {most} players, got {n}", source=source,
                            game=cls.title, least=cls.min_players, most=cls.max_players, n=len(players)))
    colors = data.get("colors") or []
    if colors and len(colors) != len(players):
        raise RecordError(T("{source}: colors: give one colour per player ({players}), got {colours}", source=source,
                            players=len(players), colours=len(colors)))


def load_json(path: str | Path) -> tuple[Any, str]:
    """Read a record or position file (``-`` = stdin) with one-line errors."""
    return read_json(path, RecordError, "file")


def load_record(path: str | Path) -> Record:
    data, source = load_json(path)
    return parse_record(data, source)


def replay(record: Record, finish: bool = True) -> Game:
    """Play a record through its engine; one-line error naming the action index on refusal."""
    try:
        game = new_game(record.setup)
    except TablehubError as exc:
        raise RecordError(T("{source}: {why}", source=record.source, why=exc.text)) from None
    for i, data in enumerate(record.actions):
        try:
            action: Action = game.parse_action(data, where=T("action {i}", i=i))
            game.apply(action)
        except TablehubError as exc:
            msg = exc.text
            if not str(msg).startswith(f"action {i}"):
                kind = data.get('type') if isinstance(data, dict) else None
                msg = T("action {i} ({kind}): {why}", i=i, kind=kind if isinstance(kind, str) else show(kind), why=msg)
            raise RecordError(T("{source}: {why}", source=record.source, why=msg)) from None
    if finish and not game.finished:
        game.finish()
    return game


def record_of(game: Game) -> Record:
    return Record(game.setup, [a.to_dict() for a in game.history])
