"""The owner's set of prints as a constraint on the rings the Sunda camera reads (vision/sundaset.py), on
rings and sample votes written by hand (no images)."""
from __future__ import annotations

import numpy as np
import pytest

from vision.sundaset import fit_to_pool, fit_to_set, print_counts, prints_array

SET = ["LLLWWWWWWWWW", "LLLLLLWWWWWW", "WWWWWWWWWWWW", "LWLWWWWWWWWW"]


def _piece(ring: str, weak: dict[int, float] | None = None, q: int = 0) -> dict:
    """A piece read as ``ring``, every slot's 16 samples all for what was read except the ``weak`` slots, whose
    share of samples for what was read is given."""
    votes = []
    for k, c in enumerate(ring):
        share = (weak or {}).get(k, 1.0)
        said, other = 16 * share, 16 * (1 - share)
        votes.append((said, other) if c == "L" else (other, said))
    return {"q": q, "r": 0, "turn": 0, "ring": list(ring), "votes": np.array(votes, np.float32)}


def test_prints_hold_each_print_and_its_half_turn_and_bad_rings_are_named():
    prints = prints_array(["LLLWWWWWWWWW", "LLL WWW WWW WWW"])
    rings = {"".join("L" if x else "W" for x in r) for r in prints}
    assert rings == {"LLLWWWWWWWWW", "WWWWWWLLLWWW"}
    with pytest.raises(ValueError, match="'LLLX'.*12 slots of L and W"):
        prints_array(["LLLX"])


def test_a_ring_none_of_the_set_is_takes_the_print_its_least_sure_slot_allows():
    p = _piece("LLLLWWWWWWWW", weak={3: 0.6})          # slot 3 barely land: the set says water
    sure = _piece("LLLLWWWWWWWW", weak={0: 0.55})      # slot 0 the least sure: still no print fits it better
    notes = fit_to_set([p], prints_array(SET), {})
    assert "".join(p["ring"]) == "LLLWWWWWWWWW" and notes == []
    fit_to_set([sure], prints_array(SET), {})
    assert "".join(sure["ring"]) in {"LLLWWWWWWWWW", "LLLLLLWWWWWW"}


def test_a_ring_of_the_set_is_left_as_read():
    p = _piece("LLLLLLWWWWWW", weak={5: 0.51})
    assert fit_to_set([p], prints_array(SET), {}) == []
    assert "".join(p["ring"]) == "LLLLLLWWWWWW"


def test_two_prints_equally_near_leave_a_note_and_a_ring_far_from_all_is_kept_with_one():
    even = _piece("LLWWWWWWWWWW", weak={2: 1.0})       # L at 0,1: LLL (slot 2) or LWL (slot 1) are both one slot
    even["votes"][1] = (9, 7)
    even["votes"][2] = (7, 9)
    notes = fit_to_set([even], prints_array(SET), {})
    assert len(notes) == 1 and "the set has" in notes[0]
    far = _piece("LWLWLWLWLWLW")
    notes = fit_to_set([far], prints_array(SET), {})
    assert "".join(far["ring"]) == "LWLWLWLWLWLW" and "none of the set's" in notes[0]


def test_the_piece_across_a_side_is_evidence_too():
    """Read LLLWLL...: the set's LLLLLL... (slot 3 undone) and LLL... (slots 4 and 5 undone) cost the same on the
    piece's own samples (a note); the piece across side 1 read its slot 2 land (across a side the slots run the
    other way: slot 3 meets its slot 2), and land continues across a side: LLLLLL..., with no note."""
    alone = _piece("LLLWLLWWWWWW", weak={3: 0.7, 4: 0.6, 5: 0.6})
    assert fit_to_set([alone], prints_array(SET), {}), "a tie without the piece across: a note"
    a = _piece("LLLWLLWWWWWW", weak={3: 0.7, 4: 0.6, 5: 0.6})
    b = _piece("LLLWWWWWWWWW", q=5)
    across = {(0, 3): (1, 2), (1, 2): (0, 3)}
    assert fit_to_set([a, b], prints_array(SET), across) == []
    assert "".join(a["ring"]) == "LLLLLLWWWWWW"
    assert "".join(b["ring"]) == "LLLWWWWWWWWW"


# ---------------------------------------------------------------- the set as a pool (fit_to_pool)
POOL = ["WWWWWWWWWWWW", "WWWWWWWWWWWW", "WWWWWLWWWWWW"]     # two open-sea pieces and one with a spit by a corner


def test_print_counts_take_a_print_and_its_half_turn_as_one():
    counts = print_counts(["WWWWWLWWWWWW", "WWWWWWWWWWWL", "WWWWWWWWWWWW"])
    assert sorted(counts.values()) == [1, 2]
    with pytest.raises(ValueError, match="12 slots"):
        print_counts(["WWW"])


def test_a_print_read_more_often_than_the_set_holds_gives_its_least_sure_piece_to_the_print_left_short():
    """Three open-sea pieces read where the set holds two and one with a spit: the one whose slot 5 showed a trace
    of land (a spit the blur thinned) is the spit piece; the two read clearly stay open sea."""
    clear1, clear2 = _piece("WWWWWWWWWWWW", q=0), _piece("WWWWWWWWWWWW", q=1)
    trace = _piece("WWWWWWWWWWWW", weak={5: 0.6}, q=2)
    assert fit_to_pool([clear1, trace, clear2], print_counts(POOL), {}) == []
    assert "".join(trace["ring"]) == "WWWWWLWWWWWW"
    assert "".join(clear1["ring"]) == "".join(clear2["ring"]) == "WWWWWWWWWWWW"
    # the spit from the other acute corner is the same print: slot 11 moves just as well
    far = _piece("WWWWWWWWWWWW", weak={11: 0.6}, q=3)
    fit_to_pool([far, _piece("WWWWWWWWWWWW"), _piece("WWWWWWWWWWWW")], print_counts(POOL), {})
    assert "".join(far["ring"]) == "WWWWWWWWWWWL"


def test_a_false_spit_read_twice_is_undone_on_the_less_sure_piece():
    true, false = _piece("WWWWWLWWWWWW", q=0), _piece("WWWWWWWWWWWL", weak={11: 0.6}, q=1)
    other = _piece("WWWWWWWWWWWW", q=2)
    fit_to_pool([true, false, other], print_counts(POOL), {})
    assert ["".join(p["ring"]) for p in (true, false, other)] == ["WWWWWLWWWWWW", "WWWWWWWWWWWW", "WWWWWWWWWWWW"]


def test_no_print_over_its_count_moves_nothing_and_a_tie_moves_nothing_with_a_note():
    few = [_piece("WWWWWWWWWWWW", weak={5: 0.8}), _piece("WWWWWWWWWWWW", q=1)]   # a table not yet full
    assert fit_to_pool(few, print_counts(POOL), {}) == []
    assert all("".join(p["ring"]) == "WWWWWWWWWWWW" for p in few)
    tie = [_piece("WWWWWWWWWWWW", weak={5: 0.8}, q=k) for k in range(3)]
    notes = fit_to_pool(tie, print_counts(POOL), {})
    assert len(notes) == 1 and "the set has" in notes[0]
    assert all("".join(p["ring"]) == "WWWWWWWWWWWW" for p in tie)


def test_across_a_side_the_pool_does_not_break_a_side_read_alike():
    """The trace is on a slot whose side the piece across read water too: undoing it there costs the side (ACROSS);
    the other piece with a weaker trace on a free side moves instead."""
    def table():
        return ([_piece("WWWWWWWWWWWW", weak={5: 0.2}, q=0), _piece("WWWWWWWWWWWW", weak={11: 0.6}, q=1),
                 _piece("WWWWWWWWWWWW", q=2), _piece("WWWWWWWWWWWW", q=3)])
    counts = print_counts(POOL + ["WWWWWWWWWWWW"])
    a, b, c, nb = table()
    fit_to_pool([a, b, c, nb], counts, {})
    assert "".join(a["ring"]) == "WWWWWLWWWWWW" and "".join(b["ring"]) == "WWWWWWWWWWWW"   # alone: a's trace wins
    a, b, c, nb = table()
    nb["votes"][3] = (0, 16)       # the piece across a's slot 5 read its slot 3 clearly water
    fit_to_pool([a, b, c, nb], counts, {(0, 5): (3, 3), (3, 3): (0, 5)})
    assert "".join(a["ring"]) == "WWWWWWWWWWWW" and "".join(b["ring"]) == "WWWWWWWWWWWL"
