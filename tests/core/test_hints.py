"""'Where can it go?': each game's hints equal what its validate() accepts, on fixed positions.

The positions are seeded random games replayed to fixed points. For every one, the candidates
are enumerated here independently of the engines' own enumerations (every cell x rotation in a
box round the tiles, every space by every path, every map cell x pearl, every lattice point x
turn), put to ``validate``, and the accepted set must be exactly the hinted set: never a wrong
hint, never a missing one.
"""
from __future__ import annotations

import itertools
from typing import Any, Callable, Iterator

import pytest

from tablehub.games import new_game
from tablehub.games.base import Game, IllegalAction, Setup, hinted_actions
from tablehub.games.karibik.actions import Sail
from tablehub.games.karibik.engine import MOVE, Karibik
from tablehub.games.karibik.playout import random_game as karibik_game
from tablehub.games.sunda.actions import PlacePiece
from tablehub.games.sunda.engine import Sunda
from tablehub.games.sunda.playout import random_game as sunda_game
from tablehub.games.tahiti.actions import PlaceBoat
from tablehub.games.tahiti.board import PEARLS, all_cells, cell_name
from tablehub.games.tahiti.engine import Tahiti
from tablehub.games.tahiti.playout import random_game as tahiti_game
from tablehub.games.tiles.game import PlaceTile, TileGame
from tablehub.games.tiles.playout import PlayoutStats, random_game as tile_game


def replayed(fresh: Callable[[], Game], history: list[Any], want: Callable[[Game], bool],
             every: int = 1, most: int = 6) -> Iterator[Game]:
    """Copies of the game replayed from ``history`` at the points where ``want`` holds (every
    ``every``-th such point, at most ``most`` of them)."""
    g = fresh()
    seen = given = 0
    for action in history:
        if want(g):
            if seen % every == 0:
                yield g.copy()
                given += 1
                if given >= most:
                    return
            seen += 1
        g.apply(action)


# ---------------------------------------------------------------------- tile games


def tile_positions(name: str, seed: int) -> Iterator[TileGame]:
    stats = PlayoutStats()
    tile_game(name, 3, seed=seed, stats=stats, finish=False)
    players = ("P1", "P2", "P3")
    n = len(stats.actions)
    for stop in (1, n // 3, n // 2):  # the first tile, early and mid game
        g = new_game(Setup(name, players))
        for a in stats.actions[:stop]:
            g.apply(a)
        yield g  # type: ignore[misc]


def accepted_tiles(g: TileGame, tile: str) -> set[tuple[int, int, int]]:
    xs = [c[0] for c in g.board.cells]
    ys = [c[1] for c in g.board.cells]
    out = set()
    for x in range(min(xs) - 2, max(xs) + 3):
        for y in range(min(ys) - 2, max(ys) + 3):
            for rot in (0, 90, 180, 270):
                if g.validate(PlaceTile(tile, x, y, rot)) is None:
                    out.add((x, y, rot))
    return out


@pytest.mark.parametrize("name,seed", [("neuesland", 3), ("suedsee", 5)])
def test_tile_hints_are_exactly_what_validate_accepts(name: str, seed: int) -> None:
    checked = fitting = 0
    for g in tile_positions(name, seed):
        in_box = sorted(t for t, n in g.box.items() if n > 0)
        for tile in in_box[::4]:
            hints = g.hints(tile)
            got = {(p["x"], p["y"], r) for p in hints["places"] for r in p["rotations"]}
            assert got == accepted_tiles(g, tile), (name, tile, len(g.board.cells))
            assert {(a["x"], a["y"], a["rotation"]) for a in hinted_actions(hints)} == got
            for p in hints["places"]:
                assert sorted(p["looks"]) == sorted(str(r) for r in p["rotations"])
                assert all(len(look["slots"]) == 12 for look in p["looks"].values())
            checked += 1
            fitting += bool(got)
    assert checked >= 20 and fitting >= 10  # the positions do exercise the hints


def test_a_symmetric_tile_is_hinted_with_every_turn_the_rules_accept() -> None:
    g = new_game(Setup("neuesland", ("Ana", "Ben")))
    assert isinstance(g, TileGame)
    symmetric = next(t.id for t in g.catalog.tiles if len(t.distinct_rotations) < 4 and g.box[t.id] > 0
                     and g.board.can_place(t))
    hints = g.hints(symmetric)
    assert hints["places"]
    got = {(p["x"], p["y"], r) for p in hints["places"] for r in p["rotations"]}
    assert got == accepted_tiles(g, symmetric)
    # the board's own enumeration lists a symmetric tile's equal turns once; the hints list them all
    assert len(got) > len(g.legal_placements(symmetric))


def test_tile_hints_without_a_tile_or_for_a_tile_not_in_the_box() -> None:
    g = new_game(Setup("neuesland", ("Ana", "Ben")))
    assert g.hints()["places"] == [] and "drawn tile" in g.hints()["note"]
    with pytest.raises(IllegalAction, match="unknown tile"):
        g.hints("nope")
    assert isinstance(g, TileGame)
    gone = g.catalog.start.id
    while g.box[gone] > 0:
        g.box[gone] -= 1
    out = g.hints(gone)
    assert out["places"] == [] and "not in the box" in out["note"]


def test_expert_hints_follow_the_hand() -> None:
    stats = PlayoutStats()
    options = {"expert": True}
    tile_game("neuesland", 2, seed=11, options=options, stats=stats, finish=False)
    g = new_game(Setup("neuesland", ("P1", "P2"), options=options))
    stop = next(i for i, a in enumerate(stats.actions) if i >= 12 and isinstance(a, PlaceTile))
    for a in stats.actions[:stop]:
        g.apply(a)
    hand = g.hands[g.player_to_lay()]  # type: ignore[attr-defined]
    other = next(t for t, n in g.box.items() if n > 0 and t not in hand)  # type: ignore[attr-defined]
    laid = stats.actions[stop]
    assert laid.tile in hand and laid.to_dict() in hinted_actions(g.hints(laid.tile))
    assert g.hints(other)["places"] == [] and "does not hold" in g.hints(other)["note"]


# ---------------------------------------------------------------------- Karibik


def accepted_ends(g: Karibik) -> set[int]:
    """Every space where some sail the rules accept ends: all paths, depth first, a path
    followed further only while validate accepts it (every prefix of a legal sail is one)."""
    ends: set[int] = set()
    spaces = sorted(g.board.neighbours)

    def walk(path: tuple[int, ...]) -> None:
        for s in spaces:
            longer = path + (s,)
            if g.validate(Sail(longer, g.mover)) is None:
                ends.add(s)
                walk(longer)

    walk(())
    ends.discard(g.ship_at[g.ship])
    return ends


def test_karibik_hints_are_the_ends_of_every_accepted_sail() -> None:
    done = karibik_game(3, seed=4)
    fresh = lambda: Karibik(Setup("karibik", ("P1", "P2", "P3")))  # noqa: E731
    moving = lambda g: g.phase == MOVE and g.allowance - g.steps > 0  # noqa: E731
    tried = 0
    allowances = set()
    for g in replayed(fresh, done.history, moving, every=7, most=8):
        hints = g.hints()
        got = {p["space"] for p in hints["places"]}
        assert got == accepted_ends(g), (g.ship, g.allowance, g.steps)
        for p in hints["places"]:
            assert g.validate(Sail(tuple(p["path"]), g.mover)) is None and p["path"][-1] == p["space"]
        # the board's outline of reachable spaces is the same set (view and hints agree)
        assert set(g.view()["reachable"]) == got
        allowances.add(g.allowance - g.steps)
        tried += 1
    assert tried >= 5 and len(allowances) >= 2


def test_karibik_hints_outside_a_move() -> None:
    g = Karibik(Setup("karibik", ("Ana", "Ben")))
    out = g.hints()
    assert out["places"] == [] and "no ship is moving" in out["note"]


# ---------------------------------------------------------------------- Tahiti


def test_tahiti_hints_are_every_cell_validate_accepts() -> None:
    done = tahiti_game(3, seed=2)
    fresh = lambda: Tahiti(Setup("tahiti", ("P1", "P2", "P3")))  # noqa: E731
    placing = lambda g: any(isinstance(a, PlaceBoat) for a in g.legal_actions())  # noqa: E731
    tried = 0
    for g in replayed(fresh, done.history, placing, every=2, most=8):
        who = g.players[g.current]
        accepted = {cell_name(c) for c in all_cells() for pearl in (None, *PEARLS)
                    if g.validate(PlaceBoat(cell_name(c), pearl, who)) is None}
        hints = g.hints()
        assert {p["cell"] for p in hints["places"]} == accepted
        assert accepted and len(accepted) <= 13  # one sector (a row and a column), never the whole map
        tried += 1
    assert tried >= 4
    assert fresh().hints()["places"] == []  # at the start nobody places a boat


# ---------------------------------------------------------------------- Sunda to Sahul


def test_sunda_hints_are_every_point_and_turn_validate_accepts() -> None:
    done = sunda_game(2, seed=6, finish=False)
    fresh = lambda: Sunda(Setup("sunda", ("P1", "P2")))  # noqa: E731
    between = lambda g: g.pending is None and g.game_over is None  # noqa: E731
    tried = 0
    for g in replayed(fresh, done.history, between, every=9, most=5):
        placer = g.to_play
        pieces = sorted(g.pool)[::17]
        for pid in pieces:
            got = {(p["q"], p["r"], t) for p in g.hints(pid)["places"] for t in p["turns"]}
            if g.board.placed:
                qs = [c[0] for p in g.board.placed for c in p.corners]
                rs = [c[1] for p in g.board.placed for c in p.corners]
                box = itertools.product(range(min(qs) - 2, max(qs) + 3), range(min(rs) - 2, max(rs) + 3), range(6))
            else:
                box = itertools.product(range(-2, 3), range(-2, 3), range(6))
            accepted = {(q, r, t) for q, r, t in box if g.validate(PlacePiece(pid, q, r, t, placer)) is None}
            assert got == accepted, (pid, len(g.board.placed))
            tried += 1
    assert tried >= 10
    with pytest.raises(IllegalAction, match="no piece"):
        fresh().hints("nope")
    assert fresh().hints()["places"] == []


def test_the_hints_benchmark_prints_its_figures(capsys) -> None:
    from tablehub.cli import main

    assert main(["bench", "hints", "--seed", "3", "--players", "2"]) == 0
    out = capsys.readouterr().out
    for game in ("neuesland", "suedsee", "karibik", "tahiti", "sunda"):
        assert f"\n{game}" in out, game
    assert out.count("cached") == 2 and "hints median" in out
