"""Seeded random playouts of tile games: the conformance tests and the engine benchmark use them.

The physical world's randomness (the draw pile) is a shuffled list; where tiles
come from (one draw, or a hand in a variant) is the game's ``playout_*`` hooks;
every other choice is picked uniformly among the engine's legal actions. A game whose
engine has a pending mandatory choice says so with a truthy ``must_choose``
attribute; the playout then always picks one of ``legal_actions()``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from .. import new_game
from ..base import Action, Setup
from .game import DiscardTile, PlaceTile, TileGame


@dataclass
class PlayoutStats:
    placements: int = 0
    enumerated: int = 0   # legal placements listed, summed over every drawn tile
    discards: int = 0
    off_table: int = 0    # tiles set aside because they fit only outside ``within`` (the table's edge)
    actions: list[Action] = field(default_factory=list)


def random_game(game: str, players: int = 3, seed: int = 0, options: dict[str, Any] | None = None,
                step_rate: float = 0.6, stats: PlayoutStats | None = None, finish: bool = True,
                within: Callable[[tuple[int, int]], bool] | None = None) -> TileGame:
    """Play a whole game with random legal moves; return the (finished) engine.

    ``within``: the cells a tile may go to (a table's edge, for games photographed whole): a drawn tile that
    fits only elsewhere is set aside unplayed (counted in ``stats.off_table``)."""
    rng = random.Random(seed)
    names = tuple(f"P{i + 1}" for i in range(players))
    g = new_game(Setup(game, names, (), dict(options or {})))
    assert isinstance(g, TileGame)
    if within is not None and getattr(g, "expert", False):
        raise ValueError("within: not for the expert variant (a tile set aside there would leave a hand)")
    st = stats if stats is not None else PlayoutStats()
    pile = [tid for tid, n in sorted(g.box.items()) for _ in range(n)]
    rng.shuffle(pile)

    def do(action: Action) -> None:
        g.apply(action)
        st.actions.append(action)

    for action in g.playout_setup(pile):
        do(action)
    while True:
        _settle(g, rng, do)
        tiles = g.playout_tiles(pile)
        if not tiles:
            break
        # the enumeration a hub does for every drawn tile: all legal (x, y, rotation)
        choices = []
        for tile in dict.fromkeys(tiles):
            options_here = g.board.legal_placements(g.catalog.tile(tile))
            st.enumerated += len(options_here)
            choices.extend((tile, o) for o in options_here)
        if within is not None and choices:
            inside = [c for c in choices if within((c[1][0], c[1][1]))]
            if not inside:
                g.take_tile(tiles[0])   # it fits only beyond the table: out of the game, unlogged
                st.off_table += 1
                for action in g.playout_refill(pile):
                    do(action)
                continue
            choices = inside
        if not choices:
            do(DiscardTile(tiles[0]))
            st.discards += 1
            for action in g.playout_refill(pile):
                do(action)
            continue
        tile, (x, y, r) = rng.choice(choices)
        do(PlaceTile(tile, x, y, 90 * r))
        st.placements += 1
        for _ in range(4):
            steps = g.legal_actions()
            if not steps or not (getattr(g, "must_choose", False) or rng.random() < step_rate):
                break
            do(rng.choice(steps))
        _settle(g, rng, do)
        for action in g.playout_refill(pile):
            do(action)
        if getattr(g, "game_over", False):
            break
    if finish:
        g.finish()
    return g


def _settle(g: TileGame, rng: random.Random, do) -> None:
    """Make every pending mandatory choice (Südsee: ship reveals, market awards) before play goes on."""
    while getattr(g, "must_choose", False):
        do(rng.choice(g.legal_actions()))
