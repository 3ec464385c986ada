"""The venue board's model: every table, the finished games and the standings, from MQTT alone.

:class:`VenueBoard` is fed raw MQTT messages (:meth:`VenueBoard.handle`) and needs no
table's database. Nothing here can reach a table: the board only listens.
:class:`BoardListener` subscribes to a broker and feeds a board.

>>> board = VenueBoard()
>>> m = b'{"v":1,"type":"status","venue":"cafe","table":"t1","at":1.0,"status":"online"}'
>>> board.handle("tablehub/cafe/t1/status", m)
True
>>> [(t["table"], t["online"]) for t in board.tables()]
[('t1', True)]
"""
from __future__ import annotations

import csv
import io
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

from ..config import VenueConfig
from ..i18n import N_
from . import payloads

log = logging.getLogger(__name__)

#: ranking rules the organiser can pick: name -> (help, sort key of a standings row, larger first)
RULES: dict[str, tuple[str, Callable[[dict[str, Any]], tuple]]] = {
    "wins": (N_("most wins, then most points"), lambda r: (r["wins"], r["points"])),
    "points": (N_("most points, then most wins"), lambda r: (r["points"], r["wins"])),
    "average": (N_("best points per game, then most wins"), lambda r: (r["average"], r["wins"])),
}


@dataclass
class _Table:
    venue: str
    table: str
    online: bool | None = None      # None: no status seen yet
    state: dict[str, Any] | None = None
    last_event: str | None = None
    seen: float = 0.0               # when the board last heard from it (board clock)
    run: str | None = None
    seq: int = 0
    events: deque = field(default_factory=lambda: deque(maxlen=8))

    def to_dict(self) -> dict[str, Any]:
        s = self.state or {}
        return {"venue": self.venue, "table": self.table, "online": self.online, "seen": self.seen,
                "game_id": s.get("game_id"), "game": s.get("game"), "title": s.get("title"),
                "players": s.get("players", []), "turn": s.get("turn", 0), "current": s.get("current"),
                "finished": bool(s.get("finished")), "winners": s.get("winners", []),
                "last_event": self.last_event or s.get("last_event"), "events": list(self.events)}


class VenueBoard:
    """Tables and results of one venue (``venue=None``: every venue on the broker).

    ``since``: only games that ended at or after this Unix time count in the standings
    (an evening); ``None``: all the results the broker still keeps.
    """

    def __init__(self, venue: str | None = None, since: float | None = None,
                 clock: Callable[[], float] = time.time):
        self.venue = venue
        self.since = since
        self.clock = clock
        self._lock = threading.Lock()
        self._tables: dict[tuple[str, str], _Table] = {}
        self._results: dict[tuple[str, str, int, float | None], dict[str, Any]] = {}
        self._listeners: list[Callable[[str, dict[str, Any]], None]] = []
        self.received = 0
        self.ignored = 0

    def subscribe(self, listener: Callable[[str, dict[str, Any]], None]) -> None:
        """``listener(topic, message)`` after each message that changed the board (from paho's thread)."""
        self._listeners.append(listener)

    # ---- input

    def handle(self, topic: str, payload: bytes) -> bool:
        """Take one MQTT message; True when it changed the board. Malformed messages are counted and ignored."""
        where = payloads.parse_topic(topic)
        if where is None or (self.venue is not None and where[0] != self.venue):
            return False
        venue, table, kind, game_id = where
        self.received += 1
        if kind == "results" and not payload:  # a reopened game: its result is withdrawn
            with self._lock:
                gone = [k for k in self._results if k[:3] == (venue, table, _int(game_id))]
                for k in gone:
                    del self._results[k]
            self._changed(topic, {"type": "result", "withdrawn": True})
            return bool(gone)
        try:
            message = payloads.decode(payload)
        except ValueError as exc:
            self.ignored += 1
            log.debug("ignored %s: %s", topic, exc)
            return False
        if message.get("venue") != venue or message.get("table") != table:
            self.ignored += 1
            return False
        with self._lock:
            changed = self._apply(self._table(venue, table), kind, message)
        if changed:
            self._changed(topic, message)
        return changed

    def _table(self, venue: str, table: str) -> _Table:
        key = (venue, table)
        if key not in self._tables:
            self._tables[key] = _Table(venue, table)
        return self._tables[key]

    def _apply(self, t: _Table, kind: str, m: dict[str, Any]) -> bool:
        t.seen = self.clock()
        mtype = m["type"]
        if mtype == "status":
            t.online = m.get("status") == "online"
            return True
        if mtype == "result":
            self._keep_result(m)
            return True
        run, seq = m.get("run"), m.get("seq")
        if run == t.run and isinstance(seq, int) and seq <= t.seq:
            return False  # a QoS 1 duplicate, or an older copy resent after a reconnection
        if run is not None and isinstance(seq, int):
            t.run, t.seq = run, seq
        if t.online is None:
            t.online = True  # it is talking; its status will say more
        if mtype == "state":
            t.state = m
            key = (t.venue, t.table, m.get("game_id"), m.get("started"))
            if m.get("finished") and m.get("game_id") is not None:
                self._keep_result(m)
            elif key in self._results:
                del self._results[key]  # reopened
            return True
        if mtype == "event":
            t.last_event = m.get("text")
            t.events.appendleft({"at": m.get("at"), "kind": m.get("kind"), "text": m.get("text")})
            return True
        return False

    def _keep_result(self, m: dict[str, Any]) -> None:
        if not m.get("finished") or m.get("game_id") is None:
            return
        key = (m["venue"], m["table"], int(m["game_id"]), m.get("started"))
        self._results[key] = {"venue": m["venue"], "table": m["table"], "game_id": m["game_id"],
                              "game": m.get("game"), "title": m.get("title"), "players": m.get("players", []),
                              "winners": m.get("winners", []), "started": m.get("started"),
                              "ended": m.get("ended") or m.get("at")}

    def _changed(self, topic: str, message: dict[str, Any]) -> None:
        for listener in list(self._listeners):
            try:
                listener(topic, message)
            except Exception:
                log.exception("venue board listener failed")

    # ---- output

    def tables(self) -> list[dict[str, Any]]:
        """Every table heard of, by venue and name."""
        with self._lock:
            return [self._tables[k].to_dict() for k in sorted(self._tables, key=_natural)]

    def results(self, since: float | None = ...) -> list[dict[str, Any]]:  # type: ignore[assignment]
        """Finished games, most recent first (``since``: the board's own by default)."""
        since = self.since if since is ... else since
        with self._lock:
            rows = [dict(r) for r in self._results.values() if since is None or (r["ended"] or 0) >= since]
        return sorted(rows, key=lambda r: -(r["ended"] or 0))

    def standings(self, rule: str = "wins",
                  since: float | None = ...) -> list[dict[str, Any]]:  # type: ignore[assignment]
        """One row per player name over the finished games: games, wins (a shared win counts for
        each), points, best game, average; ranked by ``rule`` (:data:`RULES`), ties share a rank."""
        if rule not in RULES:
            raise ValueError(f"ranking rule {rule!r} is unknown (expected one of: {', '.join(RULES)})")
        rows: dict[str, dict[str, Any]] = {}
        for r in self.results(since):
            for p in r["players"]:
                row = rows.setdefault(p["name"], {"player": p["name"], "games": 0, "wins": 0, "points": 0,
                                                  "best": None, "tables": []})
                row["games"] += 1
                row["points"] += int(p["score"])
                row["wins"] += 1 if p["name"] in r["winners"] else 0
                row["best"] = p["score"] if row["best"] is None else max(row["best"], p["score"])
                if r["table"] not in row["tables"]:
                    row["tables"].append(r["table"])
        key = RULES[rule][1]
        out = list(rows.values())
        for row in out:
            row["average"] = round(row["points"] / row["games"], 1)
            row["tables"] = sorted(row["tables"], key=lambda t: _natural(("", t)))
        out.sort(key=lambda r: (tuple(-v for v in key(r)), r["player"].lower()))
        previous = None
        for i, row in enumerate(out, 1):
            row["rank"] = previous["rank"] if previous is not None and key(previous) == key(row) else i
            previous = row
        return out

    def standings_csv(self, rule: str = "wins", since: float | None = ...) -> str:  # type: ignore[assignment]
        """The standings as CSV (rank, player, games, wins, points, average, best, tables)."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\r\n")
        w.writerow(["rank", "player", "games", "wins", "points", "average", "best", "tables"])
        for r in self.standings(rule, since):
            w.writerow([r["rank"], r["player"], r["games"], r["wins"], r["points"], r["average"], r["best"],
                        " ".join(r["tables"])])
        return buf.getvalue()

    def snapshot(self, rule: str = "wins") -> dict[str, Any]:
        """Everything the board page shows (the standings under every rule; ``rule`` is the organiser's)."""
        return {"venue": self.venue, "since": self.since, "rule": rule, "at": self.clock(),
                "rules": {name: help for name, (help, _) in RULES.items()},
                "tables": self.tables(), "results": self.results(),
                "standings": {name: self.standings(name) for name in RULES}}


def _int(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def _natural(key: tuple[str, str]) -> tuple:
    """Sort table 2 before table 10."""
    import re

    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part.lower())
                 for part in re.split(r"(\d+)", "/".join(key)) if part)


class BoardListener:
    """Subscribes to ``tablehub/<venue or +>/#`` on the broker of ``settings`` and feeds ``board``.

    Paho's network thread reconnects by itself and subscribes again each time; retained
    states, statuses and results arrive at once, so a board started late is complete.
    ``on_message(topic, payload, received)`` sees every raw message too (the benchmark).
    """

    def __init__(self, settings: VenueConfig, board: VenueBoard, client_id: str = "",
                 on_message: Callable[[str, bytes, float], None] | None = None):
        from .mqtt import make_client

        self.settings = settings
        self.board = board
        self.on_message = on_message
        self.connected = threading.Event()
        self._client = make_client(settings, client_id)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = lambda *a: self.connected.clear()
        self._client.on_message = self._on_message

    @property
    def filter(self) -> str:
        return f"{payloads.ROOT}/{self.board.venue or '+'}/#"

    def start(self) -> "BoardListener":
        s = self.settings
        self._client.connect_async(s.broker, s.broker_port, keepalive=s.keepalive)
        self._client.loop_start()
        return self

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if getattr(reason, "is_failure", False):
            log.warning("the broker refused the board: %s", reason)
            return
        client.subscribe(self.filter, qos=1)
        self.connected.set()
        log.info("venue board subscribed to %s on %s", self.filter, self.settings.broker)

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        received = time.time()
        self.board.handle(msg.topic, msg.payload)
        if self.on_message is not None:
            self.on_message(msg.topic, msg.payload, received)
