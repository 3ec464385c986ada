"""A tile read in a turn the game cannot tell from the true one is the right answer (issue 14, session ds083).

ds083 (open sea with two boats: one region on every side) looks different turned but plays the same in every turn.
Vision's confidence weighed the best candidate against the best one that *looks* different, so ds083 in another turn
scoring a hair lower made a sure reading a marked guess (confidence 0.00-0.38 on the bench's field/hard boards): the
phone asked about a difference that changes nothing. The margin that decides "sure" is now against the best candidate
that is another answer for the game (``TileClassifier.answer``), and the game decides what that is
(``CatalogInfo.same_for_the_game`` asks the engine's catalog: ds056 turned 180 is another tile, its town then faces
the other bay). The bench counts tiles, silent errors and boards fully right the same way, and shows how many were
read in such a turn.
"""
from __future__ import annotations

from types import SimpleNamespace

from tests.vision.conftest import BENCH, NEUESLAND
from vision.tiles import CatalogInfo, TileClassifier, _game_answers


def test_the_game_says_which_turns_play_the_same():
    cat = CatalogInfo.load(NEUESLAND)
    assert all(cat.same_for_the_game("ds083", 0, r) for r in (90, 180, 270)), "all sea: every turn is one tile"
    assert cat.same_for_the_game("ds013", 0, 180) and not cat.same_for_the_game("ds013", 0, 90)
    # a town on the N bay: turned 180 it faces the other bay; the slots alone do not tell (before: same)
    assert not cat.same_for_the_game("ds056", 0, 180)
    assert not cat.same_for_the_game("ds033", 90, 270)


def _classifier(cat: CatalogInfo, ids: list[str]) -> SimpleNamespace:
    """Just what :meth:`TileClassifier._decide` asks of a classifier: every template its own look."""
    tids = [t for t in ids for _ in range(4)]
    rots = [90 * k for _ in ids for k in range(4)]
    look = list(range(len(tids)))
    return SimpleNamespace(ids=tids, rots=rots, look=look, answer=_game_answers(look, tids, rots, cat),
                           tie_margin=TileClassifier.tie_margin, mm_per_px=45.0 / 48)


def _decide(clf: SimpleNamespace, scored: list) -> object:
    return TileClassifier._decide(clf, 0, 0, 12, 12, [(s, j, 12, 12, 0.0) for s, j in scored], None)


def test_a_turn_that_plays_the_same_is_no_rival_for_the_confidence():
    cat = CatalogInfo.load(NEUESLAND)
    clf = _classifier(cat, ["ds083", "ds056", "ds001"])
    # ds083 turned 90 a hair above turned 0, ds001 far below: one answer, clearly seen
    # (block scores of a partly covered cell, as on the bench's field/hard boards: a hair apart is a guess there)
    guess = _decide(clf, [(0.80, 1), (0.799, 0), (0.798, 2), (0.70, 8)])
    assert (guess.tile, guess.rotation) == ("ds083", 90) and guess.confidence >= 0.8, guess.to_dict()
    # the runners-up are still listed, the turns too (the tracker groups them by what they mean to the rules)
    assert [(c.tile, c.rotation) for c in guess.runners_up][:2] == [("ds083", 0), ("ds083", 180)]
    # ds056 turned 180 is another tile for the game: as close, it is a guess
    guess = _decide(clf, [(0.80, 4), (0.799, 6), (0.70, 8)])
    assert guess.tile == "ds056" and guess.confidence < 0.5, guess.to_dict()
    # another tile close behind a ds083 turn: still a guess
    guess = _decide(clf, [(0.80, 0), (0.799, 1), (0.798, 8)])
    assert guess.confidence < 0.5, guess.to_dict()


def test_turns_that_play_the_same_share_one_answer_and_look_alikes_stay_one():
    cat = CatalogInfo.load(NEUESLAND)
    ids = [t for t in ("ds083", "ds013", "ds056") for _ in range(4)]
    rots = [0, 90, 180, 270] * 3
    look = list(range(12))
    look[9] = look[8]                       # as if two turns of ds056 looked alike: they stay one answer
    answer = _game_answers(look, ids, rots, cat)
    assert len(set(answer[:4])) == 1
    assert answer[4] == answer[6] and answer[5] == answer[7] and answer[4] != answer[5]
    assert answer[8] == answer[9] and len(set(answer[8:])) == 3
    assert _game_answers(look, ids, rots, None) == look, "without a catalog: the looks alone"


class _Rec:
    """Just what :func:`score_board` asks of a recogniser: every template its own look, Neues Land's rules."""

    def __init__(self, ids):
        self.classifier = SimpleNamespace(ids=list(ids), look=list(range(4 * len(ids))))
        self.catalog = CatalogInfo.load(NEUESLAND)


def _tile(tile, rotation, confidence):
    return SimpleNamespace(tile=tile, rotation=rotation, confidence=confidence, hidden_twins=())


def test_the_bench_counts_a_turn_that_plays_the_same_right_and_shows_it():
    rec = _Rec(["ds083", "ds056"])
    truth = SimpleNamespace(tiles=[{"x": 0, "y": 0, "tile": "ds083", "rotation": 0},
                                   {"x": 1, "y": 0, "tile": "ds056", "rotation": 0}], figures=[])
    tally = BENCH.Tally()
    obs = SimpleNamespace(tiles={(0, 0): _tile("ds083", 270, 0.3), (1, 0): _tile("ds056", 0, 0.9)}, figures=[],
                          warnings=[])
    BENCH.score_board(rec, obs, truth, tally, "b")
    assert (tally.tiles_ok, tally.tiles_turned_same, tally.boards_all_ok, tally.tiles_wrong_sure) == (2, 1, 1, 0)
    assert not tally.errors and len(tally.notes) == 1 and "(0, 0)" in tally.notes[0]
    # ds056 turned 180 plays otherwise: wrong, and read sure a silent error
    obs.tiles[(1, 0)] = _tile("ds056", 180, 0.9)
    tally = BENCH.Tally()
    BENCH.score_board(rec, obs, truth, tally, "b")
    assert (tally.tiles_ok, tally.tiles_turned_same, tally.boards_all_ok, tally.tiles_wrong_sure) == (1, 1, 0, 1)


def test_the_logged_turn_of_a_tile_that_plays_the_same_keeps_the_reads_confidence():
    import numpy as np

    from vision.recognize import Recognizer
    from vision.tiles import TileGuess

    clf = _classifier(CatalogInfo.load(NEUESLAND), ["ds083", "ds056"])
    clf.hard_reach = 3
    # the block scores of (the logged tile, the read): the logged turn a hair lower, as a turn of a flat tile is
    clf._block_grid = lambda fc, level, js, top, left, reach: (np.array([0.899, 0.9]), np.zeros(2), np.zeros(2))
    rec = SimpleNamespace(classifier=clf)
    fc = SimpleNamespace(top_left=lambda x, y: (12, 12))
    read = TileGuess(0, 0, "ds083", 90, 0.9, 0.95)
    kept = Recognizer._prefer(rec, fc, read, ("ds083", 0), 0.05)
    assert (kept.tile, kept.rotation, kept.confidence) == ("ds083", 0, 0.95), kept.to_dict()
    # the log's other turn of ds056 is another answer: its margin over the read is what it is, a hair
    read = TileGuess(0, 0, "ds056", 180, 0.9, 0.95)
    kept = Recognizer._prefer(rec, fc, read, ("ds056", 0), 0.05)
    assert (kept.tile, kept.rotation) == ("ds056", 0) and kept.confidence < 0.5, kept.to_dict()
