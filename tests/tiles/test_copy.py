"""A game copy (the tracker and the page fork the game for every reading) is independent of its
original: playing on in the copy changes nothing in the original, and both agree with a replay."""
from __future__ import annotations

import pytest

from tablehub.games import new_game
from tablehub.games.tiles.playout import random_game


def _state(game) -> tuple:
    board = game.board
    return (game.view(), game.scores(), game.resources(), sorted(board.open.items()),
            {c: dict(v) for c, v in board.groups.items()}, list(board.parent), list(board.open_slots),
            [None if c is None else sorted(c) for c in board.cover],
            [None if o is None else [f.key() for f in o] for o in board.occupants])


def _replay(setup, actions):
    game = new_game(setup)
    for a in actions:
        game.apply(a)
    return game


@pytest.mark.parametrize("name", ["neuesland", "suedsee"])
def test_playing_on_in_a_copy_leaves_the_original_as_it_was(name):
    whole = random_game(name, players=3, seed=11, finish=False)
    half = len(whole.history) // 2
    original = _replay(whole.setup, whole.history[:half])
    before = _state(original)
    fork = original.copy()
    assert _state(fork) == before
    for a in whole.history[half:]:
        fork.apply(a)
    assert _state(fork) == _state(_replay(whole.setup, whole.history)), "the copy plays on like the game"
    fork.finish()
    assert _state(original) == before, "the copy shares nothing that play or the final scoring changes"
    figures_in_fork = [f for o in fork.board.occupants if o for f in o]
    assert all(any(f is g for g in fork.figures) for f in figures_in_fork), \
        "the copy's board holds the copy's own figures"
