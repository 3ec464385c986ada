"""The supply's tops' threshold from the measured margin (vision/sundasupply.py, ``TOP_CONTRAST``, ``_top_score``;
docs/sunda.md, "The tops"; docs/history/sunda-measured.md, session 21). A red pawn's top far from the nadir at ``hard``
(JPEG 65, a blur of 1.3 px) stands out of the ring round it by as little as 0.16 of its blob's contrast (no red or
yellow top of the measured tables under that), while no other place of a red or yellow blob is a peak of the score at
all (the score's local maxima a top's radius from every top: none, on 2- and 4-player tables at ``default`` and
``hard``). At 0.25 the dimmest tops were lost: a heap's footprints and its tops then disagreed, and it was asked."""
from __future__ import annotations

from tests.vision.test_sundasupply_tops import assert_counted_as_it_stands


def test_a_red_heap_far_from_the_nadir_at_hard_shows_all_its_tops_and_is_counted():
    # seed 4, table 0, `hard`, the first 6 pawns put on: a red heap of 12 touching pawns 650 mm from the nadir, its
    # dimmest top 0.24 of the blob's contrast over its ring. At a threshold of 0.25 it showed 11 tops against the
    # footprints' 12 and red was not counted (asked on the bench, 4 pawns put on); every top is seen now, and every
    # colour is counted as it stands
    assert_counted_as_it_stands("hard", 4, 0, 6)
