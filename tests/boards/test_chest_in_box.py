"""A chest's print partly under its ship's sail, read in the chest's box (issue 17, session 16).

On the bench (seed 1, 40 frames) nearly every hold the camera did not read right was a laden deck whose print lay
partly under the sail (98 of 104 at `clean`): the reader took a print only when wholly in view, since a value matched
on what shows at any shift slides its telling strokes under the sail (a partial 4 read as a 7). A chest is a rigid box
of the enrolled size with its value printed at a fixed place on its lid: the box is fitted round what shows of the lid
(`vision.chests._boxes_round`), each value's print, enrolled in the lid's own frame, is laid there and compared over the
pixels in view only, and a value is read only when every other value leaves at least twice as much of the ink in view
unexplained (`_read_in_box`)."""
from __future__ import annotations

import cv2
import numpy as np

from vision.chests import READ_PPM, ValueBook, _boxes_round, read_aboard
from vision.sim.boardtable import BoardPiece, deck_spot, print_hidden

from .test_chests import VALUES, shoot
from .test_chests import enrolled  # noqa: F401 (the fixture)


def _partly_hidden_decks(rng, n, lo=0.2, hi=0.6):
    """Where players put chests whose print the sail hides in part (a fifth to three fifths of it)."""
    out = []
    while len(out) < n:
        d = deck_spot(rng)
        if lo <= print_hidden(d) <= hi:
            out.append(d)
    return out


def test_a_print_partly_under_the_sail_is_read_in_its_box_never_as_another_value(table, enrolled):
    ref, reg, book = enrolled
    assert book.lid_box is not None and sorted(book.lid_prints) == VALUES
    rng = np.random.default_rng(23)
    c = table.board.centres
    spaces = list(table.board.spaces)[30:54]
    decks = _partly_hidden_decks(rng, 24)
    carried = [VALUES[k % 5] for k in range(24)]
    looks = [0, 1, 2, 4, 5] * 5  # not Diabolo: its sail has the lids' colour (a case of its own)
    pieces = [BoardPiece("ship", looks[k], *c[s], float(rng.uniform(0, 180)), carries=v, deck=d)
              for k, (v, s, d) in enumerate(zip(carried, spaces, decks))]
    got = []
    for level in ("clean", "default"):
        for k in range(0, 24, 8):
            frame, _ = shoot(table, pieces[k:k + 8], level, 40 + k, origin=(41.0, 39.0), angle=0.5)
            r = reg.register(frame)
            got += [(v, read_aboard(frame, r.to_image, ref.canvas, 2.0, book, (p.x_mm, p.y_mm)))
                    for v, p in zip(carried[k:k + 8], pieces[k:k + 8])]
    wrong = [(v, x.value, x.score) for v, x in got if x is not None and x.value not in (v, None)]
    assert not wrong, wrong
    assert all(x is not None for _, x in got)  # a chest aboard is never an empty hold
    read = sum(x.value == v for v, x in got)
    print(f"partly hidden prints read in their box: {read} of {len(got)}, none wrong")
    # measured 9 of 48 (.venv), 8 (.venv-pi); without the box 3 (every one of these prints is a fifth or more under the sail: most unsure)
    assert read >= 6, [(v, x.value, x.unsure) for v, x in got]


def test_the_lids_box_is_found_round_what_shows_of_it():
    """A 12 x 9 mm lid turned 30 degrees, its one end under a sail (a band across it): among the boxes fitted round
    what shows, one lies on the lid within half a millimetre."""
    ppm = READ_PPM
    n = int(36 * ppm)
    centre = np.float32([18 * ppm, 18 * ppm])
    lid = np.zeros((n, n), np.uint8)
    cv2.fillConvexPoly(lid, np.round(cv2.boxPoints(((float(centre[0]), float(centre[1])), (12 * ppm, 9 * ppm), 30.0))
                                     * 16).astype(np.int32), 1, cv2.LINE_8, shift=4)
    sail = np.zeros_like(lid)
    cv2.fillConvexPoly(sail, np.round(cv2.boxPoints(((float(centre[0]) + 4 * ppm, float(centre[1]) + 2.3 * ppm),
                                                     (6 * ppm, 30 * ppm), 30.0)) * 16).astype(np.int32), 1,
                       cv2.LINE_8, shift=4)
    shown = (lid > 0) & (sail == 0)
    ys, xs = np.nonzero(shown)
    changed = (lid > 0) | (sail > 0)
    boxes = _boxes_round(np.column_stack([xs, ys]).astype(np.float32), (12.0, 9.0), changed)
    assert boxes
    assert min(np.hypot(*(b - centre)) for b, _ in boxes) < 0.5 * ppm, [b / ppm for b, _ in boxes]
    # a box lying over the empty board is no chest's: with nothing but the part in view changed, only boxes within it
    assert not _boxes_round(np.column_stack([xs, ys]).astype(np.float32), (12.0, 9.0), shown)


def test_the_lids_box_and_prints_round_trip_and_an_older_book_still_loads(tmp_path, enrolled):
    _, _, book = enrolled
    back = ValueBook.load(book.save(tmp_path / "chests.json"))
    assert back.lid_box == tuple(round(v, 2) for v in book.lid_box)
    assert sorted(back.lid_prints) == VALUES and back.lid_prints[4000].shape == book.lid_prints[4000].shape
    old = ValueBook(book.lid_lab, book.patches, book.lid_mm2)  # enrolled before the box: partial prints unsure
    again = ValueBook.load(old.save(tmp_path / "old.json"))
    assert again.lid_box is None and not again.lid_prints
