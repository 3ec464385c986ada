"""Simulated tables for the venue tests and ``tablehub bench venue``: a seeded playout of a tile
game (:func:`tablehub.games.tiles.playout.random_game`) fed action by action into a real
:class:`~tablehub.session.Session` on an SQLite store, published by a real :class:`VenuePublisher`.

``python -m tablehub.venue.sim --broker 127.0.0.1 --port 1883 --venue cafe --table t7 --db t7.sqlite``
runs one such table as its own process (a hub that can be killed and started again: it
resumes the game in its database where it stopped).
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field

from ..config import VenueConfig
from ..games.base import Action, Setup
from ..games.tiles.playout import PlayoutStats, random_game
from ..session import Session
from ..store import Store
from .publisher import VenuePublisher


@dataclass
class SimTable:
    """One table: the whole seeded game to play, its session and its publisher."""

    settings: VenueConfig
    seed: int
    game: str = "neuesland"
    players: int = 2
    db: str = ":memory:"
    names: tuple[str, ...] = ()       # the players (default: <table>-P1, <table>-P2...)
    actions: list[Action] = field(default_factory=list)
    expected: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        stats = PlayoutStats()
        final = random_game(self.game, self.players, self.seed, stats=stats)
        self.actions = list(stats.actions)  # tile-game actions name no player: any names will do
        names = self.names or tuple(f"{self.settings.table}-P{i + 1}" for i in range(self.players))
        self.names = names
        self.expected = {names[i]: final.scores()[p] for i, p in enumerate(final.players)}
        self.store = Store(self.db)
        self.session = Session.resume(self.store) or Session.create(self.store, Setup(self.game, names))
        self.publisher = VenuePublisher(self.settings)

    @property
    def done(self) -> bool:
        return self.session.game.finished

    def start(self) -> "SimTable":
        self.publisher.start()
        self.publisher.attach(self.session)
        return self

    def step(self) -> bool:
        """Play the next action (the last step ends the game); False once it has ended."""
        if self.session.game.finished:
            return False
        played = len(self.session.rows)
        if played < len(self.actions):
            self.session.submit(self.actions[played], source="sim")
        else:
            self.session.finish()
        return True

    def close(self) -> None:
        self.publisher.close()
        self.store.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tablehub.venue.sim", description=__doc__.splitlines()[0])
    p.add_argument("--broker", default="127.0.0.1")
    p.add_argument("--port", type=int, default=1883)
    p.add_argument("--venue", default="cafe")
    p.add_argument("--table", required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--db", required=True, help="the table's SQLite game store (resumed if it has a game)")
    p.add_argument("--interval", type=float, default=0.05, help="seconds between actions")
    p.add_argument("--keepalive", type=int, default=5)
    args = p.parse_args(argv)
    settings = VenueConfig(broker=args.broker, port=args.port, venue=args.venue, table=args.table,
                           keepalive=args.keepalive)
    table = SimTable(settings, args.seed, db=args.db).start()
    print(f"table {args.table}: game {table.session.game_id} at action {len(table.session.rows)}", flush=True)
    try:
        while table.step():
            print(f"played {len(table.session.rows)}", flush=True)
            time.sleep(args.interval)
        print("finished " + " ".join(f"{k}={v}" for k, v in table.session.game.scores().items()), flush=True)
    finally:
        table.close()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
