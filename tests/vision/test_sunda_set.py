"""The owner's set of prints as a constraint on the rings the Sunda camera reads (vision/sundaset.py), on
rings and sample votes written by hand (no images)."""
from __future__ import annotations

import numpy as np
import pytest

from vision.sundaset import fit_to_set, prints_array

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
