"""Twins told apart by the rules: a twin whose side does not fit a neighbour read for sure cannot lie there (issue 14,
session suedfig7).

Where a figure hides what tells Südsee's twins apart (R1's sea to the south against S's bridge from the south, W2
against X's fourth bridge, B1's open sea against A1's bridge), the photo cannot say which lies there, and a figure
on the bridge's place was asked. On a table played by the rules each tile fits its neighbours: where the twins
differ at a side a neighbour read for sure covers, only one of them can lie there
(``FigureReading._twins_by_sides``, ``CatalogInfo.side_fits``). Only on a table that keeps the rules
(``FigureReading._sides_known``): the vision bench lays random tiles in random turns (a third of their sides fit).
"""
from __future__ import annotations

import random

import pytest

from tests.vision.conftest import NEUESLAND, SUEDSEE
from vision.figurereading import FigureReading
from vision.pieces import FigureSeen
from vision.tiles import CatalogInfo, TileClassifier, TileGuess

STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))


def _catalog(path) -> CatalogInfo:
    if not path.is_file():
        pytest.skip(f"no catalog {path}")
    return CatalogInfo.load(path)


def _game_board(game: str, seed: int) -> dict:
    from tablehub.games.tiles.playout import random_game
    g = random_game(game, players=2, seed=seed, finish=False, within=lambda c: abs(c[0]) <= 6 and abs(c[1]) <= 4)
    return {c: (p.tile.id, 90 * p.rot) for c, p in g.board.cells.items()}


@pytest.mark.parametrize("game, path", [("suedsee", SUEDSEE), ("neuesland", NEUESLAND)])
def test_every_side_of_a_game_played_by_the_rules_fits(game, path):
    cat = _catalog(path)
    board = _game_board(game, 3)
    fit = misfit = 0
    for (x, y), (tile, rot) in board.items():
        for d, (dx, dy) in enumerate(STEPS):
            other = board.get((x + dx, y + dy))
            if other is not None:
                fit += cat.side_fits(tile, rot, d, *other)
                # a tile turned half round fits there only where its side reads the same both ways
                turned = cat.side_fits(tile, rot, d, other[0], (other[1] + 180) % 360)
                misfit += not turned
    assert fit > 50 and fit == sum(1 for (x, y) in board for dx, dy in STEPS if (x + dx, y + dy) in board)
    assert misfit > 0


class _Reader(FigureReading):
    """The rule alone: a catalog, no camera."""

    def __init__(self, catalog: CatalogInfo, region_at=None):
        self.catalog = catalog
        self.geometry = None if region_at is None else object()
        if region_at is not None:
            self.region_at_base = region_at


def _sure(c, tile, rot) -> TileGuess:
    return TileGuess(c[0], c[1], tile, rot, 0.9, 0.9)


def _twin_case(cat: CatalogInfo):
    """A Südsee game's board read for sure, and a cell whose tile has a twin that misfits a neighbour: R1/R2/Q
    against S/T (a bridge from the south), W1/W2 against X, B1 against A1."""
    twins = {"R1": "S", "R2": "S", "Q": "T", "W1": "X", "W2": "X", "B1": "A1", "B2": "A1"}
    for seed in range(40):
        board = _game_board("suedsee", seed)
        for c, (tile, rot) in sorted(board.items()):
            other = twins.get(tile)
            if other is None:
                continue
            sides = [(d, board[(c[0] + dx, c[1] + dy)]) for d, (dx, dy) in enumerate(STEPS)
                     if (c[0] + dx, c[1] + dy) in board]
            if not all(cat.side_fits(other, rot, d, *n) for d, n in sides):
                return board, c, (tile, rot), (other, rot)
    pytest.skip("no such cell in 40 games")


def test_a_twin_that_does_not_fit_a_neighbour_read_for_sure_is_ruled_out():
    cat = _catalog(SUEDSEE)
    board, cell, truth, twin = _twin_case(cat)
    tiles = {c: _sure(c, *t) for c, t in board.items()}
    # taken as the twin that misfits, the true tile a hidden twin (a figure hides where they differ)
    tiles[cell] = TileGuess(cell[0], cell[1], twin[0], twin[1], 0.8, 0.4, hidden_twins=(truth,))
    figure = FigureSeen(cell[0], cell[1], "red", "B:S", 0.9, 0.5, 0.8)
    under = {cell: {twin, truth}}
    rec = _Reader(cat, region_at=lambda tile, rot, u, v: f"on {tile}")
    seen = rec._twins_by_sides(tiles, under, [figure])
    got = tiles[cell]
    assert (got.tile, got.rotation) == truth and not got.hidden_twins and got.confidence >= 0.5, got.to_dict()
    assert under[cell] == {truth}
    assert seen[0].region == f"on {truth[0]}"           # its region where it stands, on the tile the rules leave


def test_on_a_table_laid_at_random_the_sides_say_nothing():
    cat = _catalog(SUEDSEE)
    board, cell, truth, twin = _twin_case(cat)
    rng = random.Random(5)
    laid = list(board.values())
    rng.shuffle(laid)
    tiles = {c: _sure(c, t, rng.choice((0, 90, 180, 270))) for c, (t, _) in zip(board, laid)}
    tiles[cell] = TileGuess(cell[0], cell[1], twin[0], twin[1], 0.8, 0.4, hidden_twins=(truth,))
    rec = _Reader(cat)
    share = rec._sides_known(tiles)
    assert share is not None and share < rec.rules_kept
    before = dict(tiles)
    rec._twins_by_sides(tiles, {}, [])
    assert tiles == before


def test_twins_that_both_misfit_stay_as_they_were():
    cat = _catalog(SUEDSEE)
    board, cell, truth, twin = _twin_case(cat)
    tiles = {c: _sure(c, *t) for c, t in board.items()}
    # a neighbour misread so that neither twin fits it: a neighbour is wrong, the twins stay asked
    for d, (dx, dy) in enumerate(STEPS):
        n = (cell[0] + dx, cell[1] + dy)
        if n not in tiles:
            continue
        for tile in cat.tile_ids:
            for rot in (0, 90, 180, 270):
                if not any(cat.side_fits(o, r, d, tile, rot) for o, r in (truth, twin)):
                    tiles[n] = _sure(n, tile, rot)
                    break
            else:
                continue
            break
        break
    tiles[cell] = TileGuess(cell[0], cell[1], twin[0], twin[1], 0.8, 0.4, hidden_twins=(truth,))
    before = dict(tiles)
    _Reader(cat)._twins_by_sides(tiles, {}, [])
    assert tiles[cell] == before[cell]


def test_a_figure_on_the_bench_board_laid_by_the_rules_is_settled(monkeypatch):
    """The bench's ``--legal`` board (``sim/hard`` seed 1 board 10): a red figure on the sea of the tile at (-1, -1),
    where a twin has a bridge reaching the side toward a neighbour read for sure; the rules leave one twin, and the
    figure is named on its true region. Without the rule it was asked."""
    from tests.vision.test_sued_fig_hidden import _bench_board
    from tests.vision.test_sued_fig_twins import _errors_on

    cell = (-1, -1)
    rec, obs, truth = _bench_board(1, "sim", 10, legal=True)
    red = [f for f in obs.figures if (f.x, f.y, f.colour) == (*cell, "red")]
    assert len(red) == 1 and not red[0].on_twins, obs.figures
    tally, errors = _errors_on(rec, obs, truth, cell)
    assert not errors, errors
    monkeypatch.setattr(FigureReading, "twins_by_sides", False)
    # the rules alone: the colours at the figure's rim (session nlboards) name it right without them too
    monkeypatch.setattr(TileClassifier, "hidden_hue", False)
    rec, obs, truth = _bench_board(1, "sim", 10, legal=True)
    tally, errors = _errors_on(rec, obs, truth, cell)
    assert any("asked" in e for e in errors), tally.errors
