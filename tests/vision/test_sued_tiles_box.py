"""Südsee twins at ``hard``: the box's counts never overrule a clear photo (issue 14, cause 7; brief suedtiles2).

The vision bench's Südsee ``field/hard`` seed 2 board 3: a bare K2 at (2, -4), its glyph in plain view (the twin contest
on the pixels where K1 and K2 differ: K2 by 0.42, the block score K2 0.840 against K1 0.811), was made a K1. A cell
elsewhere on the table, seen poorly, was read K2 at 0.54 with no runner-up near; the set has one K2, so the pool
(:func:`vision.tiles.over_read`) put the plain K2 in doubt, and the copies over, counted before the photo's odds, took
its K2 away. A contest that goes well beyond the other reference (-6.5: a black figure that the covered mask missed,
standing on R2's boat, taken for R1's dark fish) says that the photo there is neither: it rules nothing out.
"""
from __future__ import annotations

import math
from types import SimpleNamespace

from vision.tiles import REFUTED, Candidate, TileClassifier, TileGuess, settle_hidden


def _read(x: int, tile: str, score: float, confidence: float, runners=()) -> TileGuess:
    return TileGuess(x, 0, tile, 0, score, confidence, tuple(Candidate(t, 0, s) for t, s in runners))


def _stand_in(block: dict[str, float], contest: dict[str, float | None]):
    """A classifier for :meth:`TileClassifier.evidence`: block scores and twin contests (from the first option)."""
    index = {t: i for i, t in enumerate(block)}
    names = list(block)
    return SimpleNamespace(
        _index=lambda t, r: index[t], hard_reach=3, verify_sure=TileClassifier.verify_sure,
        verify_beyond=TileClassifier.verify_beyond,
        _block_grid=lambda canvas, level, js, *where: ([block[names[j]] for j in js], None, None),
        _difference_contest=lambda canvas, guess, ja, jb: contest[names[jb]])


CANVAS = SimpleNamespace(top_left=lambda x, y: (0, 0))


def test_a_twin_shown_plainly_keeps_its_tile_against_the_box():
    """Board 3 in small: the plain K2 keeps its K2 (as read, unmarked) although a poorly seen cell took the set's
    one K2; the box's counts come after what the photo rules out."""
    plain = _read(1, "K2", 0.901, 0.59, runners=(("K1", 0.886), ("L2", 0.737)))
    poor = _read(2, "K2", 0.70, 0.54, runners=(("L1", 0.62),))
    classifier = _stand_in({"K2": 0.840, "K1": 0.811}, {"K1": -0.42})

    def evidence(guess, options):
        return TileClassifier.evidence(classifier, CANVAS, guess, options)
    got = settle_hidden({(1, 0): plain, (2, 0): poor}, {"K1": 2, "K2": 1, "L1": 2, "L2": 1}, evidence=evidence)
    assert got[(1, 0)] == plain, "the K2 the photo shows stays a K2, unmarked"
    assert got[(2, 0)] == poor


def test_the_box_still_settles_what_the_photo_does_not_rule_out():
    """A contest too close to call (or a figure on the difference) rules nothing out: the copies left decide as
    before (one K2 read elsewhere for sure, so the doubtful cell is a K1)."""
    near = _read(1, "K2", 0.901, 0.59, runners=(("K1", 0.886),))
    sure = _read(2, "K2", 0.95, 0.9)
    for contest in (-0.1, None):
        classifier = _stand_in({"K2": 0.840, "K1": 0.811}, {"K1": contest})

        def evidence(guess, options):
            return TileClassifier.evidence(classifier, CANVAS, guess, options)
        got = settle_hidden({(1, 0): near, (2, 0): sure}, {"K1": 2, "K2": 1}, evidence=evidence)
        assert (got[(1, 0)].tile, got[(2, 0)].tile) == ("K1", "K2"), contest
        assert got[(1, 0)].hidden_twins == (("K2", 0),) and got[(1, 0)].confidence <= 0.4


def test_a_contest_beyond_both_references_rules_nothing_out():
    """R1 against R2 at -6.5 (a missed black figure on R2's boat): the photo is neither there, so R2 is not ruled
    out (its block score counts as before); at -0.5, with the block score the same way, it is."""
    guess = _read(1, "R1", 0.888, 0.56, runners=(("R2", 0.878),))
    for contest, ruled in ((-6.5, False), (-0.5, True)):
        said = TileClassifier.evidence(_stand_in({"R1": 0.897, "R2": 0.893}, {"R2": contest}), CANVAS, guess,
                                       [("R1", 0), ("R2", 0)])
        assert (said[1] == REFUTED) == ruled, contest
        assert ruled or math.isclose(said[1], 0.893, abs_tol=1e-9)


def test_a_ruled_out_pick_is_taken_only_where_nothing_else_is_left():
    """Two cells, both read R1 clearly against R2 (ruled out), one R1 in the set: both stay R1 (one copy over,
    shown by the pool's consistency check), neither is made the R2 the photo rules out; where one cell's contest
    does not rule R2 out, that one takes the R2."""
    a = _read(1, "R1", 0.95, 0.6, runners=(("R2", 0.93),))
    b = _read(2, "R1", 0.94, 0.6, runners=(("R2", 0.92),))

    def evidence_of(contests):
        def evidence(guess, options):
            return TileClassifier.evidence(_stand_in({"R1": 0.93, "R2": 0.90}, {"R2": contests[guess.x]}),
                                           CANVAS, guess, options)
        return evidence
    got = settle_hidden({(1, 0): a, (2, 0): b}, {"R1": 1, "R2": 1}, evidence=evidence_of({1: -0.6, 2: -0.6}))
    assert (got[(1, 0)].tile, got[(2, 0)].tile) == ("R1", "R1")
    got = settle_hidden({(1, 0): a, (2, 0): b}, {"R1": 1, "R2": 1}, evidence=evidence_of({1: -0.6, 2: None}))
    assert (got[(1, 0)].tile, got[(2, 0)].tile) == ("R1", "R2")
    assert got[(1, 0)] == a
