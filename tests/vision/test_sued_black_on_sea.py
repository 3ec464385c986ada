"""A black figure on Südsee's sea under the field camera's light: its shadow and rim vote blue (issue 14, session
suedfig10).

Under the field camera's light Südsee's dark blue paint is the sea dimmed to about 0.55: a black figure's shadow and
blurred rim on the sea read as blue, and where the dimmed sea fits them no worse than the blue paint they kept their
votes (``FigureFinder._paint_votes``, margin 0). On the bench's ``--legal`` field/hard seed 4 table a black figure was
read as blue (board 0, 29 blue votes to 19 black), lost (board 6, 10 blue to 12 black: a share of 0.55) or split
into a black figure and a blue phantom (board 5). Beside the darkest colour's votes, a colour *none* of whose votes
its paint explains better than the art dimmed, by the frame's noise (``paint_margin``), is that art in the figure's
shadow: it does not vote (``FigureFinder.dark_votes_alike``). A blue figure on that sea keeps its votes: some of its
paint is no dimmed sea (4 of 15 on the bench's random field/hard seed 1 board 9, against 0 of 10-29 under the black
figures).
"""
from __future__ import annotations

import pytest

from tests.vision.conftest import BENCH
from tests.vision.test_sued_fig_hidden import _bench_board
from vision.recognize import Recognizer


def _errors_at(rec, obs, truth, cell):
    tally = BENCH.Tally()
    BENCH.score_board(rec, obs, truth, tally, "board")
    return [e for e in tally.errors if f"({cell[0]}, {cell[1]}" in e]


@pytest.mark.parametrize("board, cell", [(6, (1, -1)), (0, (-2, 0))], ids=["lost", "read-blue"])
def test_a_black_figure_on_the_sea_is_black(board, cell):
    # before: board 6's black figure lost (OpenCV 5; found on the Pi's stack), board 0's read blue (both stacks)
    rec, obs, truth = _bench_board(4, "field", board, legal=True)
    assert any((f.x, f.y, f.colour) == (*cell, "black") for f in obs.figures), [f.to_dict() for f in obs.figures]
    assert not _errors_at(rec, obs, truth, cell)


def test_without_the_rule_the_shadow_votes_blue(monkeypatch):
    observe = Recognizer.observe

    def without_the_rule(self, *a, **k):
        self.figures.dark_votes_alike = False
        return observe(self, *a, **k)

    monkeypatch.setattr(Recognizer, "observe", without_the_rule)
    rec, obs, truth = _bench_board(4, "field", 0, legal=True)
    assert any("in another colour" in e for e in _errors_at(rec, obs, truth, (-2, 0)))


def test_a_blue_figure_on_the_sea_stays_blue():
    # the bench's random field/hard seed 1 board 9: a blue figure on V-tile sea with a few black votes (its shaded
    # side); dropping every blue vote the dimmed sea fits as well read it black
    cell = (-6, 2)
    rec, obs, truth = _bench_board(1, "field", 9)
    assert any((f.x, f.y, f.colour) == (*cell, "blue") for f in obs.figures), [f.to_dict() for f in obs.figures]
    assert not _errors_at(rec, obs, truth, cell)
