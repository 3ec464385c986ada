"""A carried chest's print partly under the sail, read in its box where 30 % of what tells its value from each other
value's is in view (issue 17, h-chests7).

On the bench's seeds 1-8 (`clean` and `default`, 40 frames) the box reader (`vision.chests._read_in_box`) found the
true value best in 2,345 of its 2,541 reads (prints not read whole; first and incremental reads) but read only 1,041:
the bar on the share of the values' difference in view (`BOX_MIN_TOLD`) held back most of the rest. Where the best
value was the wrong one (score and ratio bars passed) at most 0.26 of that difference was in view, so the bar is now
0.3 (it was 0.35): docs/history/boardcam-measured.md, "h-chests7"."""
from __future__ import annotations

import numpy as np

from vision.chests import read_aboard
from vision.sim.boardtable import BoardPiece, deck_spot, print_hidden

from .test_chests import VALUES, shoot
from .test_chests import enrolled  # noqa: F401 (the fixture)


def test_prints_partly_under_the_sail_are_read_where_a_third_of_their_difference_shows(table, enrolled):
    """Forty prints a fifth to three fifths under the sail (every sail but Diabolo's), shot eight at a time at `clean`
    and `default`: none read as another value, and more read than at the old bar. Measured (.venv): 12 of 40 read,
    9 at BOX_MIN_TOLD 0.35."""
    ref, reg, book = enrolled
    rng = np.random.default_rng(71)
    decks = []
    while len(decks) < 40:
        d = deck_spot(rng)
        if 0.2 <= print_hidden(d) <= 0.6:
            decks.append(d)
    looks = [(0, 1, 2, 4, 5)[(k + k // 5) % 5] for k in range(40)]
    c = table.board.centres
    carried = [VALUES[k % 5] for k in range(40)]
    pieces = [BoardPiece("ship", look, *c[s], float(rng.uniform(0, 180)), carries=v, deck=d)
              for look, v, s, d in zip(looks, carried, list(table.board.spaces)[10:50], decks)]
    got = []
    for k in range(0, 40, 8):
        frame, _ = shoot(table, pieces[k:k + 8], ("clean", "default")[k // 8 % 2], 71 + k, origin=(41.0, 39.0),
                         angle=0.5)
        r = reg.register(frame)
        got += [(v, read_aboard(frame, r.to_image, ref.canvas, 2.0, book, (p.x_mm, p.y_mm)))
                for v, p in zip(carried[k:k + 8], pieces[k:k + 8])]
    wrong = [(v, x.value) for v, x in got if x is not None and x.value not in (v, None)]
    assert not wrong, wrong
    assert all(x is not None for _, x in got)  # a chest aboard is never an empty hold
    read = sum(x.value == v for v, x in got)
    print(f"prints partly under the sail read: {read} of {len(got)}, none wrong")
    assert read >= 11, [(v, x.value, x.unsure) for v, x in got if x.value != v]
