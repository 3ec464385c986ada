"""A small driver for the Südsee tests: a game with 4 ships face up and short ways to play turns."""
from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tablehub.games.base import Action, Setup
from tablehub.games.suedsee.engine import RevealShip, SkipIslander, Suedsee
from tablehub.games.tiles.game import PlaceFigure, PlaceTile


class Table:
    """A game plus helpers: ``t.play(("U1", 1, 0, 90), "B:NS", None)`` lays a tile, places an islander on
    region B:NS of it, and ``None`` ends an islander step."""

    def __init__(self, game: Suedsee):
        self.game = game

    def play(self, *actions: Any) -> "Table":
        for a in actions:
            if a is None:
                self.game.apply(SkipIslander())
            elif isinstance(a, str):
                self.game.apply(PlaceFigure(a))
            elif isinstance(a, tuple):
                self.game.apply(PlaceTile(*a))
            elif isinstance(a, dict):
                self.game.apply(self.game.parse_action(a))
            else:
                assert isinstance(a, Action)
                self.game.apply(a)
        return self

    def give(self, player: str, **goods: int) -> None:
        """Put goods in front of a player (delivery tests that need no board)."""
        self.game.goods[self.game.players.index(player)].update(Counter(goods))

    def has(self, player: str) -> dict[str, Any]:
        return self.game.resources()["players"][player]

    def refuses(self, action: Any, rule: str) -> str:
        """Assert ``action`` is refused for ``rule`` and changes nothing; return the reason."""
        from tablehub.games.base import IllegalAction

        g = self.game
        act = g.parse_action(action) if isinstance(action, dict) else action
        before = fingerprint(g)
        reason = g.validate(act)
        assert reason is not None, f"{act!r} was accepted"
        try:
            g.apply(act)
        except IllegalAction as exc:
            assert exc.rule == rule, f"refused for {exc.rule} ({exc}), expected {rule}"
            assert str(exc) == reason
        else:
            raise AssertionError(f"{act!r} was applied")
        assert fingerprint(g) == before, "the refused action changed the game"
        return reason


def fingerprint(g: Suedsee):
    return (g.scores(), [str(e) for e in g.score_log], g.resources(), g.view(), g.turn, g.current,
            g.finished, len(g.history), g.step_open, g.delivered, list(g.awards), sorted(g.pile))


def new_table(players=("Red", "Blue"), ships=("s10", "s15", "s01", "s02"), **options: Any) -> Table:
    g = Suedsee(Setup("suedsee", tuple(players), (), options))
    for s in ships:
        g.apply(RevealShip(s))
    return Table(g)


@pytest.fixture()
def make():
    """``make(players=..., ships=..., **options)`` -> a :class:`Table` with those ships revealed."""
    return new_table


@pytest.fixture()
def table() -> Table:
    return new_table()
