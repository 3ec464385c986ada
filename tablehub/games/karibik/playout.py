"""Seeded random playouts through the Karibik engine (conformance tests, ``tablehub play``, the
engine benchmark).

The table's draws are made from the seed: the chests are shuffled (6 face up, then 5 piles of
2 in the order they will be turned up) and the ships are put on the skull spaces at random.
Each round every player deals their 7 cards at random: 6 on the ships, the 7th kept. In a tie a
player reveals the 7th card half of the time. A mover raids, steals and safeguards whenever it
can, otherwise sails a random single space or ends the move (more often as spaces run out).
"""
from __future__ import annotations

import random
from collections import deque
from typing import Any

from ..base import Action, Setup
from .actions import Attack, Card, Deal, EndMove, PlaceShips, RevealPile, Safeguard, Sail, Seventh, Steal, Transfer
from .engine import BIDS, CARDS, DEAL, MOVE, PILE, SEVENTH, SHIPS, SHIPS_PHASE, Karibik

def _distance_to(board, targets: list[int]) -> dict[int, int]:
    """Sea distance (ignoring ships) from every space to the nearest of ``targets``."""
    dist = {t: 0 for t in targets}
    queue = deque(targets)
    while queue:
        s = queue.popleft()
        for n in board.neighbours[s]:
            if n not in dist:
                dist[n] = dist[s] + 1
                queue.append(n)
    return dist


def _move(rng: random.Random, game: Karibik) -> Action:
    """The mover's next step: a chest action when one pays, else a sail towards something worth
    having (an own hideout with a chest aboard, a face-up chest or a loaded ship without), else a
    random space, or the end of the move."""
    board, who, ship = game.board, game.mover, game.ship
    chest_actions: list[Action] = []
    for a in game.legal_actions():
        if isinstance(a, (Sail, EndMove)):
            break
        chest_actions.append(a)
    good = [a for a in chest_actions if isinstance(a, (Attack, Steal))
            or (isinstance(a, Safeguard) and game.owners[game.ship_at[ship]] in (who, None))
            or (isinstance(a, Transfer) and a.safeguard and game.owners[game.ship_at[a.ship]] == who)]
    if good:
        return rng.choice(good)
    if chest_actions and rng.random() < 0.05:
        return rng.choice(chest_actions)
    left = game.allowance - game.steps
    if left <= 0:
        return EndMove(who)
    here = game.ship_at[ship]
    blocked = set(game.occupant) - {here}
    if game.hold[ship] is not None:
        targets = [s for s, o in game.owners.items() if o == who]
    else:
        targets = [t.port for t in board.towns if game.face_up[t.name]]
        targets += [n for s, c in game.hold.items() if c and s != ship for n in board.neighbours[game.ship_at[s]]]
    targets = [t for t in targets if t not in blocked]
    reach = board.reachable(here, left, blocked)
    if targets and rng.random() < 0.8:
        dist = _distance_to(board, targets)
        far = len(board.centres)
        best = min(reach, key=lambda s: (dist.get(s, far), reach[s], rng.random()))
        if best == here:
            return EndMove(who)
        path = board.shortest_path(here, best, blocked)
        if path:
            return Sail(tuple(path), who)
    steps = [n for n in board.neighbours[here] if n not in blocked]
    if steps and rng.random() < 0.7:
        return Sail((rng.choice(steps),), who)
    return EndMove(who)


def play_random(game: Karibik, seed: int, max_actions: int = 20000) -> Karibik:
    """Play ``game`` (fresh from its setup) to the end with seeded random draws and choices."""
    rng = random.Random(seed)
    towns = [t.name for t in game.board.towns]
    rng.shuffle(towns)
    piles = [tuple(towns[6 + 2 * k: 8 + 2 * k]) for k in range(game.piles_left)]
    hands: dict[str, list[int]] = {}
    hand_round = -1
    while not game.finished and len(game.history) < max_actions:
        if game.phase == DEAL:
            action: Action = Deal(tuple(towns[:6]))
        elif game.phase == SHIPS_PHASE:
            skulls = list(game.board.skulls)
            rng.shuffle(skulls)
            action = PlaceShips(tuple(skulls))
        elif game.phase == PILE:
            action = RevealPile(piles[len(piles) - game.piles_left])
        elif game.phase == BIDS:
            if hand_round != game.round:
                hand_round = game.round
                hands = {}
                for p in game.players:
                    cards = list(CARDS)
                    rng.shuffle(cards)
                    hands[p] = cards
            p = next(q for q in game.players if q not in game.cards)
            action = Card(p, hands[p][game.ship_index], game.ship)
        elif game.phase == SEVENTH:
            p = next(q for q in game.tied if q not in game.answers)
            action = Seventh(p, hands[p][6] if rng.random() < 0.5 else None)
        elif game.phase == MOVE:
            action = _move(rng, game)
        else:  # pragma: no cover - every phase is handled above
            raise AssertionError(game.phase)
        game.apply(action)
    if not game.finished:
        game.finish()
    return game


def random_game(players: int, seed: int, options: dict[str, Any] | None = None) -> Karibik:
    """A whole seeded random game of ``players`` players (named P1, P2, ...)."""
    game = Karibik(Setup("karibik", tuple(f"P{i + 1}" for i in range(players)), options=dict(options or {})))
    return play_random(game, seed)


__all__ = ["random_game", "play_random", "SHIPS"]
