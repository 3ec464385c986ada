"""`tablehub bench vision` counts every wrong figure by its cause and every board fully right (issue 14's targets:
figures >= 99.5 %, boards of 40+ tiles fully right >= 97 %)."""
from __future__ import annotations

from types import SimpleNamespace

from tests.vision.conftest import BENCH


class _Rec:
    """Just what :func:`score_board` asks of a recogniser: every tile its own look."""

    def __init__(self, ids):
        self.classifier = SimpleNamespace(ids=list(ids), look=list(range(4 * len(ids))))
        self.catalog = SimpleNamespace(same_for_the_game=lambda tile, a, b: False)


def _seen(x, y, colour, region):
    return SimpleNamespace(x=x, y=y, colour=colour, region=region)


def _board(figures_seen, tiles_seen=None):
    truth = SimpleNamespace(tiles=[{"x": 0, "y": 0, "tile": "a", "rotation": 0},
                                   {"x": 1, "y": 0, "tile": "b", "rotation": 90}],
                            figures=[{"x": 0, "y": 0, "color": "red", "region": "G:N"},
                                     {"x": 1, "y": 0, "color": "blue", "region": "S:E"},
                                     {"x": 1, "y": 0, "color": "black", "region": "M:W"}])
    tiles = tiles_seen if tiles_seen is not None else {
        (0, 0): SimpleNamespace(tile="a", rotation=0, confidence=1.0, hidden_twins=()),
        (1, 0): SimpleNamespace(tile="b", rotation=90, confidence=1.0, hidden_twins=())}
    return truth, SimpleNamespace(tiles=tiles, figures=figures_seen, warnings=[])


def test_every_wrong_figure_is_counted_by_its_cause():
    rec, tally = _Rec(["a", "b"]), BENCH.Tally()
    truth, obs = _board([_seen(0, 0, "red", "G:S"),          # on another region
                         _seen(1, 0, "green", "S:E"),        # in another colour
                         _seen(1, 1, "yellow", "G:N")])      # where none stands; the black one is missed
    BENCH.score_board(rec, obs, truth, tally, "b")
    assert (tally.figures_wrong_region, tally.figures_missed, tally.figures_phantom, tally.figures_wrong_colour) \
        == (1, 1, 1, 1), tally.errors
    assert tally.figures_ok == 0 and tally.boards_ok == 1 and tally.boards_all_ok == 0


def test_a_board_is_fully_right_only_with_every_tile_and_figure():
    rec = _Rec(["a", "b"])
    right = [_seen(0, 0, "red", "G:N"), _seen(1, 0, "blue", "S:E"), _seen(1, 0, "black", "M:W")]
    tally = BENCH.Tally()
    BENCH.score_board(rec, _board(right)[1], _board(right)[0], tally, "right")
    turned = {(0, 0): SimpleNamespace(tile="a", rotation=0, confidence=1.0, hidden_twins=()),
              (1, 0): SimpleNamespace(tile="b", rotation=270, confidence=0.2, hidden_twins=())}
    truth, obs = _board(right, turned)
    BENCH.score_board(rec, obs, truth, tally, "a tile turned")
    assert (tally.boards_all_ok, tally.boards) == (1, 2)
    row = {"full_tally": BENCH.Tally(boards=1, boards_all_ok=1), "inc_tally": BENCH.Tally(boards=2, boards_all_ok=1)}
    assert BENCH._fully_right(tally, row) == "3/5 = 60.00%"


def test_a_board_the_phone_asks_about_is_counted_apart_from_one_it_does_not():
    """A right tile read unsure (or with a twin named hidden) leaves the board fully right, as an asked tile's first
    answer is right, but not among the boards with nothing to ask: the two readings of "fully right" side by side."""
    rec = _Rec(["a", "b"])
    right = [_seen(0, 0, "red", "G:N"), _seen(1, 0, "blue", "S:E"), _seen(1, 0, "black", "M:W")]
    tally = BENCH.Tally()
    BENCH.score_board(rec, _board(right)[1], _board(right)[0], tally, "sure")
    for unsure in (SimpleNamespace(tile="b", rotation=90, confidence=0.3, hidden_twins=()),
                   SimpleNamespace(tile="b", rotation=90, confidence=0.9, hidden_twins=("c",))):
        tiles = {(0, 0): SimpleNamespace(tile="a", rotation=0, confidence=1.0, hidden_twins=()), (1, 0): unsure}
        truth, obs = _board(right, tiles)
        BENCH.score_board(rec, obs, truth, tally, "unsure")
    assert (tally.boards_all_ok, tally.boards_unasked, tally.boards) == (3, 1, 3)
    assert (tally.tiles_ok, tally.tiles_ok_unsure) == (6, 2)
