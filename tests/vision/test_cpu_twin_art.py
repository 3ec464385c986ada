"""A runner-up's art under a found figure, looked for without what the look leaves unused (issue 14, CPU: a full board
from scratch <= 250 ms on one core).

``FigureReading._art_of_another`` (the colour re-reading's first step: a figure's picture that a runner-up's art
explains) compares each picture with the guess and up to four runners-up through ``_misfit_of_pictures``, whose
``misfit`` also made the misfit in colour (Lab a and b of the cell and of every lit reference, blurred, a median):
``_art_of_another`` throws that away. And every cell turned every found figure's pixels (frozensets) into arrays
again. Now the colour terms are made only where asked (``misfit(..., colour=False)``; the observed cell's Lab at the
first that asks) and the pictures' arrays once a call (``_pixel_array``): the same changes of the same cells as the
code before on the bench's Südsee ``field/hard`` board 4 (about 9 of 25 ms of ``_art_of_another`` a reading there).
"""
from __future__ import annotations

import cv2

from tests.vision.test_sued_fig_hidden import _bench_board
from vision import figurereading
from vision.figurereading import FigureReading


def test_the_runners_up_art_is_looked_for_alike_without_the_colour_terms(monkeypatch):
    cv2.setNumThreads(1)
    real = FigureReading._art_of_another
    real_misfits = FigureReading._misfit_of_pictures
    calls: list = []
    state = {"inside": False, "lab": 0, "misfits": 0}

    def spied(self, fc, cells, tiles, found):
        before = dict(tiles)
        state["inside"] = True
        try:
            out = real(self, fc, cells, tiles, found)
        finally:
            state["inside"] = False
        calls.append((self, fc, list(cells), before, list(found), list(out), dict(tiles)))
        return out

    real_lab = figurereading.bgr_to_lab

    def lab(*a, **k):
        if state["inside"]:
            state["lab"] += 1
        return real_lab(*a, **k)

    def counted(self, fc, t, pictures):
        misfit = real_misfits(self, fc, t, pictures)
        if misfit is None or not state["inside"]:
            return misfit

        def each(*a, **k):
            state["misfits"] += 1
            return misfit(*a, **k)
        return each

    monkeypatch.setattr(FigureReading, "_art_of_another", spied)
    monkeypatch.setattr(FigureReading, "_misfit_of_pictures", counted)
    monkeypatch.setattr(figurereading, "bgr_to_lab", lab)
    _bench_board(1, "field", 4)
    assert calls and state["misfits"] > 0, "no runner-up's art looked at: the board no longer tests what it should"
    # no colour made for a look that does not use it
    assert state["lab"] == 0, state
    monkeypatch.setattr(FigureReading, "_misfit_of_pictures", real_misfits)
    monkeypatch.setattr(figurereading, "bgr_to_lab", real_lab)
    for self, fc, cells, before, found, out, after in calls:
        # the code before: every picture as its frozenset, every misfit with its colour terms
        tiles = dict(before)
        with monkeypatch.context() as m:
            def full(s, fc_, t, pictures, found=found):
                misfit = real_misfits(s, fc_, t, [pixels for *_, pixels in found])
                return None if misfit is None else (lambda tile, rotation, colour=True: misfit(tile, rotation))

            m.setattr(FigureReading, "_misfit_of_pictures", full)
            got = real(self, fc, cells, tiles, found)
        assert got == out and tiles == after, (cells, got, out)
