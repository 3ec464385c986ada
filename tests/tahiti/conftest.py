"""A small driver for Tahiti scenario tests: a fixed test track and helpers to play turns."""
from __future__ import annotations

import json
from typing import Any, Sequence

import pytest

from tablehub.games.base import Action, Setup
from tablehub.games.tahiti.actions import Bid, Pass, PlaceSailboat, Roll, StartPearl
from tablehub.games.tahiti.engine import Tahiti

#: the track used by the scenario tests (not the provisional one, which may change)
TEST_TRACK = [
    ("A", "green"), ("B", "white"), ("C", "black"), ("D", "blue"),
    ("E", "green"), ("F", "white"), ("A", "black"), ("B", "blue"),
    ("C", "green"), ("D", "white"), ("E", "black"), ("F", "blue"),
]
TEST_BOARD = {"name": "test", "provisional": False,
              "track": [{"letter": letter, "pearl": pearl} for letter, pearl in TEST_TRACK]}


class Table:
    """A game plus helpers that play whole turns the way a table would."""

    def __init__(self, game: Tahiti):
        self.game = game

    def do(self, *actions: Action | dict[str, Any]) -> None:
        for a in actions:
            self.game.apply(a if isinstance(a, Action) else self.game.parse_action(a))

    def cash(self, player: str) -> int:
        return self.game.resources()["players"][player]["cash"]

    def me(self, player: str) -> dict[str, Any]:
        return self.game.resources()["players"][player]

    def win(self, winner: str, die: int, bid: int = 0) -> None:
        """The roller rolls ``die``; everyone but ``winner`` passes, ``winner`` bids ``bid``."""
        g = self.game
        self.do(Roll(die))
        while g.phase == "auction":
            if g.current_player == winner and g.high_bidder is None:
                self.do(Bid(bid))
            else:
                self.do(Pass())

    def nobody_bids(self, die: int) -> None:
        self.do(Roll(die))
        while self.game.phase == "auction":
            self.do(Pass())

    def snapshot(self) -> str:
        g = self.game
        return json.dumps([g.resources(), g.view(), g.turn, g.current, g.finished, len(g.history),
                           [e.to_dict() for e in g.score_log]], sort_keys=True)

    def refused(self, action: Action | dict[str, Any], rule: str) -> str:
        """Check that ``action`` is refused under ``rule`` and changes nothing; returns the message."""
        from tablehub.games.base import IllegalAction

        before = self.snapshot()
        act = action if isinstance(action, Action) else self.game.parse_action(action)
        with pytest.raises(IllegalAction) as err:
            self.game.apply(act)
        assert err.value.rule == rule, f"refused under {err.value.rule!r} ({err.value}), expected {rule!r}"
        assert self.snapshot() == before, "a refused action changed the game"
        assert "\n" not in str(err.value)
        return str(err.value)


def new_table(players: Sequence[str] = ("Ana", "Ben", "Cy"), spaces: Sequence[int] | None = None,
              pearls: Sequence[str] | None = None, board: Any = None) -> Table:
    """A game past its setup: sailboats on ``spaces`` (default 0 each), starting pearls ``pearls``."""
    options = {"board": TEST_BOARD if board is None else board}
    game = Tahiti(Setup("tahiti", tuple(players), options=options))
    table = Table(game)
    spaces = spaces if spaces is not None else [0] * len(players)
    pearls = pearls if pearls is not None else ["green", "white", "black", "blue"][:len(players)]
    table.do(*[PlaceSailboat(s) for s in spaces], *[StartPearl(p) for p in pearls])
    return table


@pytest.fixture()
def table() -> Table:
    return new_table()


@pytest.fixture()
def make_table():
    return new_table
