"""Seeded random playouts through the Sunda to Sahul engine (conformance tests, ``tablehub play``, benchmarks).

As at the table: each phase a random piece is taken from the pool; one that fits
nowhere goes back and another is taken; it is laid at a random legal position;
then the placer claims (pawn, water right, challenge, consent, marker) at random
among the legal actions, and the table's dice are rolled for a challenge.
"""
from __future__ import annotations

import random
from typing import Any

from ..base import Setup
from .actions import PlacePiece, Roll
from .engine import LEVELS, Sunda  # noqa: F401  (LEVELS: benchmarks list them)
from .lattice import corners


def _compact(game: Sunda, rng: random.Random, spots: list[tuple[int, int, int]]) -> tuple[int, int, int]:
    """Players build islands, not snakes: of a few random legal spots, the one that closes in most
    around its corners (the most triangles already there)."""
    cover = game.board.cover
    best, best_score = spots[0], -1.0
    for spot in rng.sample(spots, min(len(spots), 6)):
        score = sum(cover.get(c, 0) for c in corners(*spot)) + rng.random()
        if score > best_score:
            best, best_score = spot, score
    return best


def all_levels() -> dict[str, bool]:
    return {lvl: True for lvl in LEVELS}


def random_game(players: int = 2, seed: int = 0, options: dict[str, Any] | None = None,
                claim_rate: float = 0.85, finish: bool = True) -> Sunda:
    rng = random.Random(seed)
    game = Sunda(Setup("sunda", tuple(f"P{i + 1}" for i in range(players)), options=dict(options or {})))
    while game.game_over is None:
        ids = list(game.pool)
        while ids:  # take a random piece; one that fits nowhere goes back and another is taken
            i = rng.randrange(len(ids))
            pid = ids[i]
            spots = game.board.legal_placements(game.set.by_id[pid], sort=False)
            if spots:
                q, r, turn = _compact(game, rng, spots)
                game.apply(PlacePiece(pid, q, r, turn))
                break
            ids[i] = ids[-1]
            ids.pop()
        for _ in range(4):
            if game.pending is not None:
                c, d = game.pending.dice
                game.apply(Roll(tuple(rng.randint(1, 6) for _ in range(c)),
                                tuple(rng.randint(1, 6) for _ in range(d))))
                continue
            acts = list(game.legal_actions())
            if not acts or rng.random() > claim_rate:
                break
            game.apply(rng.choice(acts))
    if finish:
        game.finish()
    return game
