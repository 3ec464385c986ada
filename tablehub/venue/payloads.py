"""Topics and the JSON messages a hub publishes (schema: ``schema.json`` beside this file).

Every message is a JSON object with ``v`` (:data:`SCHEMA_VERSION`), ``type``, ``venue``,
``table``, ``at`` (Unix seconds when the hub made it), and, except the last will,
``run`` (one id per start of the hub) and ``seq`` (increasing within a run, so a board
can drop QoS 1 duplicates and stale copies).

Topics under ``tablehub/<venue>/<table>/``:

- ``state``   retained: the game on the table now (players, scores, whose turn, finished)
- ``events``  what just happened (an action and its score events, an undo, the end)
- ``status``  retained: ``online``; the broker publishes the last will ``offline``
- ``results/<game_id>``  retained: each finished game, so a board that starts late still
  has the evening's results; an empty message clears it (the game was reopened)

>>> topic("cafe", "t1", "state")
'tablehub/cafe/t1/state'
>>> parse_topic("tablehub/cafe/t1/results/4")
('cafe', 't1', 'results', '4')
"""
from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any, Mapping

from ..games.base import winners_of

SCHEMA_VERSION = 1
ROOT = "tablehub"
KINDS = ("state", "events", "status", "results")


def topic(venue: str, table: str, kind: str, game_id: int | None = None) -> str:
    base = f"{ROOT}/{venue}/{table}/{kind}"
    return f"{base}/{game_id}" if kind == "results" else base


def parse_topic(name: str) -> tuple[str, str, str, str | None] | None:
    """``(venue, table, kind, game_id or None)`` of one of our topics, else ``None``."""
    parts = name.split("/")
    if len(parts) == 4 and parts[0] == ROOT and parts[3] in ("state", "events", "status"):
        return parts[1], parts[2], parts[3], None
    if len(parts) == 5 and parts[0] == ROOT and parts[3] == "results":
        return parts[1], parts[2], "results", parts[4]
    return None


@functools.cache
def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every message; docs/venue.md describes it."""
    return json.loads(resources.files(__package__).joinpath("schema.json").read_text(encoding="utf-8"))


def encode(message: Mapping[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def decode(payload: bytes) -> dict[str, Any]:
    """The message in ``payload``; ValueError when it is not one of ours (wrong version included)."""
    data = json.loads(payload.decode("utf-8"))
    if not isinstance(data, dict) or data.get("v") != SCHEMA_VERSION or data.get("type") not in (
            "state", "event", "status", "result"):
        raise ValueError(f"not a tablehub v{SCHEMA_VERSION} message")
    return data


def players_of(session: Any) -> list[dict[str, Any]]:
    """Each player with colour (or ``None``) and score, in turn order (session locked)."""
    setup, scores = session.setup, session.game.scores()
    colours = list(setup.colors) if setup.colors and len(setup.colors) == len(setup.players) else []
    return [{"name": name, "colour": colours[i] if colours else None, "score": int(scores.get(name, 0))}
            for i, name in enumerate(setup.players)]


def game_fields(session: Any, started: float, ended: float | None) -> dict[str, Any]:
    """What ``state`` and ``result`` share about one game (session locked)."""
    game = session.game
    players = players_of(session)
    return {"game_id": session.game_id, "game": session.setup.game, "title": getattr(game, "title", "") or
            session.setup.game, "players": players, "turn": int(game.turn), "finished": bool(game.finished),
            "winners": winners_of({p["name"]: p["score"] for p in players}) if game.finished else [],
            "started": started, "ended": ended}


def state(head: Mapping[str, Any], session: Any, started: float, ended: float | None,
          last_event: str | None) -> dict[str, Any]:
    """The ``state`` message of ``session`` (``None``: no game on the table)."""
    if session is None:
        return {**head, "type": "state", "game_id": None, "game": None, "title": None, "players": [],
                "turn": 0, "current": None, "finished": False, "winners": [], "started": None, "ended": None,
                "last_event": last_event}
    fields = game_fields(session, started, ended)
    current = None if session.game.finished else session.game.to_play
    return {**head, "type": "state", **fields, "current": current, "last_event": last_event}


def result(head: Mapping[str, Any], session: Any, started: float, ended: float | None) -> dict[str, Any]:
    """The retained ``result`` of a finished game."""
    return {**head, "type": "result", **game_fields(session, started, ended)}


def event(head: Mapping[str, Any], session: Any, kind: str, text: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    """An ``event`` message: ``kind`` is the session's (action, undo, finish, reopen) or ``game`` (a game
    was started or resumed on the table)."""
    return {**head, "type": "event", "kind": kind, "game_id": session.game_id if session else None,
            "game": session.setup.game if session else None, "text": text,
            "source": payload.get("source"), "action": payload.get("action"),
            "score_events": [dict(e) for e in payload.get("events", [])]}


def status(head: Mapping[str, Any], online: bool) -> dict[str, Any]:
    return {**head, "type": "status", "status": "online" if online else "offline"}
