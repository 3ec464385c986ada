"""Seeded random playouts through the Tahiti engine (conformance tests, engine benchmarks)."""
from __future__ import annotations

import random
from typing import Any

from ..base import Action, Setup
from .actions import Bid, Pass, Roll
from .engine import Tahiti

#: the die has two blank faces
DIE_WEIGHTS = {1: 1, 2: 1, 3: 1, 4: 1, "blank": 2}


def _pick(rng: random.Random, actions: list[Action]) -> Action:
    """A random legal action: the die is rolled with its real odds, bidders pass half of the
    time and otherwise bid a little over the current bid; other choices are uniform."""
    if isinstance(actions[0], Roll):
        weights = [DIE_WEIGHTS[a.face] for a in actions]  # type: ignore[attr-defined]
        return rng.choices(actions, weights)[0]
    if isinstance(actions[0], Pass):
        bids = [a for a in actions if isinstance(a, Bid)]
        if not bids or rng.random() < 0.5:
            return actions[0]
        return rng.choice(bids[:4])
    return rng.choice(actions)


def random_game(players: int, seed: int, max_actions: int = 5000, options: dict[str, Any] | None = None) -> Tahiti:
    """Play a full seeded random game of ``players`` players by choosing among ``legal_actions()``.

    The game ends by the rules (a second colour runs out); should it not within
    ``max_actions`` actions (every boat used up, sectors full), it is finished there."""
    rng = random.Random(seed)
    game = Tahiti(Setup("tahiti", tuple(f"P{i + 1}" for i in range(players)), options=dict(options or {})))
    while not game.finished and len(game.history) < max_actions:
        game.apply(_pick(rng, list(game.legal_actions())))
    if not game.finished:
        game.finish()
    return game


def seeded_game(players: int, seed: int, options: dict[str, Any] | None = None) -> Tahiti:
    """:func:`random_game` with the signature of ``tablehub.games.PLAYOUTS`` (the demo, ``tablehub play``)."""
    return random_game(players, seed, options=options)
