"""Two weak readings of one slot across a shared side (vision/sunda.py ``WEAK_ACROSS_POOLED``;
docs/history/sunda-measured.md, "Session 15: a side under a token"): land and water continue across a side, so where
neither piece reads the slot strongly and they differ, both
pieces' samples vote together; before, the one read "clearly" (a land share of 0.5 or more) won, and a coast through the
slot read 55 % land on one piece and 16 % on the other was land on both (seed 2 table 3 at `hard`: 2 sides)."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cv2")

import vision.sunda as sunda  # noqa: E402
from tests.vision.test_sunda_joint import LAT  # noqa: E402

#: a piece and the piece across its side 0: slot j of the one is slot 2 - j of the other
A, B = (0, 0, 0), (1, 0, 3)


def _piece(at, slot: int, votes, deep_land: float = 0.0) -> dict:
    """An all-water piece read strongly but at ``slot`` (its (land, water) votes; its deep samples' land share)."""
    v = np.tile(np.array([0.0, 25.0], np.float32), (12, 1))
    v[slot] = votes
    deep = [(0.0, 1.0, 15)] * 12
    deep[slot] = (deep_land, 1.0 - deep_land, 15)
    return {"q": at[0], "r": at[1], "turn": at[2], "votes": v, "blank": np.zeros(12, np.float32), "deep": deep,
            "blend": [0.0] * 12, "mid": "W"}


def _rings(reader, a_votes, b_votes, a_deep: float = 0.0) -> tuple[str, str]:
    pieces = [_piece(A, 1, a_votes, a_deep), _piece(B, 1, b_votes)]
    assert sunda._directed_sides(pieces)[((1, 0), (0, 0))] == (1, 0)      # B's side 0 runs back along A's side 0
    reader._fill_hidden(pieces, set(), LAT, [])
    return "".join(pieces[0]["ring"]), "".join(pieces[1]["ring"])


def test_two_weak_readings_across_a_side_vote_together(sunda_reader, monkeypatch):
    # 55 % land on A ("clear"), 16 % on B (unclear): together 34 % land, water
    assert _rings(sunda_reader, (14.0, 11.0), (4.0, 21.0)) == ("W" * 12, "W" * 12)
    monkeypatch.setattr(sunda, "WEAK_ACROSS_POOLED", False)
    a, b = _rings(sunda_reader, (14.0, 11.0), (4.0, 21.0))
    assert a[1] == "L" and b[1] == "L"


def test_a_strong_reading_across_still_wins(sunda_reader):
    """A slot read weakly takes the strong reading of the piece across, as before (a spit thinned by the blur)."""
    assert _rings(sunda_reader, (22.0, 1.0), (4.0, 21.0)) == ("WLWWWWWWWWWW", "WLWWWWWWWWWW")


def test_a_spit_read_by_its_body_is_not_outvoted(sunda_reader):
    """A slot taken for a spit by its body deeper in (its own votes mostly water) is not a reading by votes: the
    piece across still takes it, as before."""
    a, b = _rings(sunda_reader, (4.0, 16.0), (2.0, 13.0), a_deep=0.3)
    assert a[1] == "L" and b[1] == "L"
