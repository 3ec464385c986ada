"""Game records: a setup plus a list of actions, as JSON (see docs/records.md)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .games import new_game
from .jsonfile import read_json
from .games.base import Action, Game, Setup, TablehubError


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
    if not isinstance(data, dict):
        raise RecordError(f"{source}: a record is a JSON object with game, players and actions")
    for key in ("game", "players"):
        if key not in data:
            raise RecordError(f"{source}: missing field '{key}'")
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError(f"{source}: field 'players' must be a list of names")
    colors = data.get("colors", [])
    if not isinstance(colors, list) or not all(isinstance(c, str) for c in colors):
        raise RecordError(f"{source}: field 'colors' must be a list of colour names")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(f"{source}: field 'options' must be an object")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(f"{source}: field 'actions' must be a list")
    return Record(Setup(str(data["game"]), tuple(players), tuple(colors), options), actions, source)


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
        raise RecordError(f"{record.source}: {exc}") from None
    for i, data in enumerate(record.actions):
        try:
            action: Action = game.parse_action(data, where=f"action {i}")
            game.apply(action)
        except TablehubError as exc:
            msg = str(exc)
            if not msg.startswith(f"action {i}"):
                kind = data.get('type') if isinstance(data, dict) else None
                msg = f"action {i} ({kind}): {msg}"
            raise RecordError(f"{record.source}: {msg}") from None
    if finish and not game.finished:
        game.finish()
    return game


def record_of(game: Game) -> Record:
    return Record(game.setup, [a.to_dict() for a in game.history])
