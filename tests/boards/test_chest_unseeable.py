"""A carried chest whose value no camera can see (issue 17, h-chests2): the bench reports it apart.

Most of a carried chest's print may lie under its ship's sail. Where what shows of it is where two values' prints
agree, no camera reads the value: the game knows it (which chest went aboard: `tablehub.tracking.holds`). The bench
tells such a hold by the renderer's own drawing, before any camera (`benchmarks.boards.seeable_mm2`: the ship drawn
from above with its value against the same ship with each other value), and counts an unsure reading of it as
"unseeable (known from play)": neither right nor unsure; a wrong value or an empty hold read there stays wrong."""
from __future__ import annotations

import numpy as np

from benchmarks.boards import MIN_SEEABLE_MM2, VALUES, _score_chests, seeable_mm2
from vision.chests import ChestsSeen
from vision.sim.boardtable import BoardPiece, deck_spot, print_hidden


def _decks(rng, keep, n):
    out = []
    while len(out) < n:
        d = deck_spot(rng)
        if keep(print_hidden(d)):
            out.append(d)
    return out


def test_a_print_in_view_is_seeable_and_one_under_the_sail_is_not():
    rng = np.random.default_rng(5)
    shown = [seeable_mm2(BoardPiece("ship", k % 6, 0, 0, 0, carries=VALUES[k % 5], deck=d))
             for k, d in enumerate(_decks(rng, lambda h: h == 0, 5))]
    assert min(shown) > 4 * MIN_SEEABLE_MM2, shown  # a whole print: whole strokes tell it from every other value
    hidden = [seeable_mm2(BoardPiece("ship", k % 6, 0, 0, 0, carries=VALUES[k % 5], deck=d))
              for k, d in enumerate(_decks(rng, lambda h: h >= 0.75, 12))]
    assert min(hidden) < MIN_SEEABLE_MM2, hidden  # some prints three quarters under the sail show no telling stroke
    assert all(h < min(shown) for h in hidden)


def _counts():
    return {k: 0 for k in ("right", "unsure", "wrong", "unseeable", "n", "aboard_right", "aboard_n", "space_right",
                           "space_n", "covered_n", "covered_right", "unseeable_n")}


def test_an_unseeable_value_read_unsure_is_known_from_play_never_right_and_a_wrong_read_stays_wrong():
    truth = [("ship", "Arriba", 5000, 0.9, False), ("ship", "Bravo", 6000, 0.9, False),
             ("ship", "Caribic", 7000, 0.9, False), ("ship", "Diabolo", 8000, 0.9, False),
             ("ship", "Evita", 4000, 0.1, True), ("ship", "Fuego", 0, 0.0, True)]
    got = ChestsSeen(aboard={"Arriba": None, "Bravo": 8000, "Caribic": 0, "Diabolo": 8000, "Evita": None,
                             "Fuego": None}, maybe={"Fuego"})
    c = _counts()
    _score_chests(truth, got, c, False)
    # Arriba: laden, its value not read, none can be: known from play. Bravo: another value read: wrong. Caribic: read
    # empty: wrong. Diabolo: read right though unseeable (what showed told it). Evita, Fuego: unsure (seeable)
    assert (c["unseeable"], c["wrong"], c["right"], c["unsure"], c["unseeable_n"]) == (1, 2, 1, 2, 4), c
    assert c["n"] == 6 and c["aboard_right"] == 1


def test_a_ship_not_found_is_unsure_even_where_its_value_is_unseeable():
    c = _counts()
    _score_chests([("ship", "Arriba", 5000, 0.9, False)], ChestsSeen(), c, False)
    assert (c["unseeable"], c["unsure"]) == (0, 1), c
