"""A carried chest's print beside its ship's sail, and one partly under it (issue 17, h-chests3).

The bench's chests not read right at `clean` and `default` (seeds 1 and 2) were mostly laden decks whose print
touched the sail or lay partly under it. Two causes, each with its fix:

- **a print touching a dark sail** (Bravo's black, Fuego's purple): the print's marks ran into the sail, which is
  darker than the lid by the marks' bar, so the print's outer strokes were dropped and a print wholly in view was
  taken as partly hidden. The sail is now found round the mast by its own colour (`vision.chests._sail_round_mast`);
  no mark is cut there, and what lies under it is out of view.
- **a print partly under the sail, read in its chest's box** (`_read_in_box`): half the best value's strokes had to
  be in view, though what is in view tells two values apart only where their prints differ. The bar is now on that:
  the share of where the best value's print differs from each other value's that is in view
  (`_told_apart_in_view`, `BOX_MIN_TOLD`)."""
from __future__ import annotations

import math

import numpy as np

from vision.chests import READ_PPM, ValueBook, _told_apart_in_view, read_aboard
from vision.sim.boardtable import CHEST_MM, SAIL_MM, BoardPiece, _chest_grid, deck_spot, print_hidden

from .test_chests import VALUES, shoot
from .test_chests import enrolled  # noqa: F401 (the fixture)


def _under_sail(deck) -> float:
    """The share of the whole chest (not only its print) that lies under the sail, from above."""
    x, y = _chest_grid(*deck)
    return float(((np.abs(x) <= SAIL_MM[0] / 2) & (np.abs(y) <= SAIL_MM[1] / 2)).mean())


def _decks(rng, n, keep):
    out = []
    while len(out) < n:
        d = deck_spot(rng)
        if keep(d):
            out.append(d)
    return out


def _read(table, book, reg, ref, pieces, carried, level, seed):
    frame, _ = shoot(table, pieces, level, seed, origin=(41.0, 39.0), angle=0.5)
    r = reg.register(frame)
    return [(v, read_aboard(frame, r.to_image, ref.canvas, 2.0, book, (p.x_mm, p.y_mm)))
            for v, p in zip(carried, pieces)]


def _ships_read(table, enrolled, rng, spaces, decks, looks, seed):
    """Ships of the given looks on ``spaces``, each carrying a chest on its deck spot (``decks``), shot eight at a time
    (alternately `clean` and `default`) and read aboard: [(value carried, reading or None), ...]."""
    ref, reg, book = enrolled
    c = table.board.centres
    carried = [VALUES[k % 5] for k in range(len(decks))]
    pieces = [BoardPiece("ship", look, *c[s], float(rng.uniform(0, 180)), carries=v, deck=d)
              for look, v, s, d in zip(looks, carried, spaces, decks)]
    got = []
    for k in range(0, len(pieces), 8):
        got += _read(table, book, reg, ref, pieces[k:k + 8], carried[k:k + 8], ("clean", "default")[k // 8 % 2],
                     seed + k)
    return got


def test_a_print_wholly_in_view_beside_a_dark_sail_is_read(table, enrolled):
    """Chests lying partly under a dark sail (a tenth to a half of the chest) with their print wholly in view: every
    one read right. Measured (.venv): 32 of 32 with the sail found round the mast, 30 on main (da3fe02)."""
    rng = np.random.default_rng(31)
    decks = _decks(rng, 32, lambda d: print_hidden(d) == 0 and 0.1 <= _under_sail(d) <= 0.5)
    looks = [1, 5] * 16  # Bravo's black sail and Fuego's purple: darker than the lid by the print's bar
    got = _ships_read(table, enrolled, rng, list(table.board.spaces)[20:52], decks, looks, 60)
    wrong = [(v, x.value) for v, x in got if x is not None and x.value not in (v, None)]
    assert not wrong, wrong
    assert all(x is not None for _, x in got)  # a chest aboard is never an empty hold
    read = sum(x.value == v for v, x in got)
    print(f"prints beside a dark sail read: {read} of {len(got)}, none wrong")
    assert read == len(got), [(v, x.value, x.unsure) for v, x in got if x.value != v]


def test_a_print_partly_under_the_sail_is_read_where_what_tells_it_apart_is_in_view(table, enrolled):
    """Prints a fifth to three fifths under the sail (every sail but Diabolo's): read right or unsure, none wrong.
    Measured (.venv): 13 of 40 read, none wrong; main (da3fe02) read a 6000 as 8000 here."""
    rng = np.random.default_rng(47)
    decks = _decks(rng, 40, lambda d: 0.2 <= print_hidden(d) <= 0.6)
    looks = [(0, 1, 2, 4, 5)[(k + k // 5) % 5] for k in range(40)]
    got = _ships_read(table, enrolled, rng, list(table.board.spaces)[10:50], decks, looks, 80)
    wrong = [(v, x.value) for v, x in got if x is not None and x.value not in (v, None)]
    assert not wrong, wrong
    read = sum(x is not None and x.value == v for v, x in got)
    print(f"prints partly under the sail read: {read} of {len(got)}, none wrong")
    assert read >= 10, [(v, x and x.value, x and x.unsure) for v, x in got]


def test_a_chest_mostly_under_the_sail_is_never_an_empty_hold(table, enrolled):
    """Chests two fifths or more under the sail (every sail but Diabolo's; no chest fits wholly under it), a strip of
    lid beside it in view: a chest whose value is not seen, or read right, never an empty hold nor another value."""
    rng = np.random.default_rng(53)
    decks = _decks(rng, 32, lambda d: _under_sail(d) >= 0.4)
    looks = [(0, 1, 2, 4, 5)[(k + k // 5) % 5] for k in range(32)]
    got = _ships_read(table, enrolled, rng, list(table.board.spaces)[40:72], decks, looks, 90)
    empty = [(v, looks[i]) for i, (v, x) in enumerate(got) if x is None]
    wrong = [(v, x.value) for v, x in got if x is not None and x.value not in (v, None)]
    assert not empty and not wrong, (empty, wrong)


def _book(prints: dict[int, np.ndarray]) -> ValueBook:
    shape = next(iter(prints.values())).shape
    box = (shape[1] / READ_PPM, shape[0] / READ_PPM)
    return ValueBook(np.float32([70, 10, 60]), dict(prints), 108.0, box, dict(prints))


def test_what_tells_two_values_apart_is_where_their_prints_differ():
    """Two prints sharing a bar, each with a stroke of its own: in view where they agree only, nothing tells them
    apart (0), however much of the best value's strokes shows; both own strokes in view, all of it (1)."""
    n = int(round(CHEST_MM[0] * READ_PPM)), int(round(CHEST_MM[1] * READ_PPM))
    a, b = np.zeros((n[1], n[0]), np.float32), np.zeros((n[1], n[0]), np.float32)
    a[10:35, 20:25] = b[10:35, 20:25] = 100  # the bar both share (most of each print)
    a[10:14, 25:33] = 100  # a's own stroke
    b[31:35, 25:33] = 100  # b's own stroke
    book = _book({1: a, 2: b})
    shared = np.zeros(a.shape, np.float32)
    shared[:, :25] = 1  # the shared bar in view, both own strokes hidden: 5 x 25 of a's 5 x 25 + 4 x 8 strokes
    assert _told_apart_in_view(book, [1, 2], 0, shared) == 0.0
    assert _told_apart_in_view(book, [1, 2], 0, np.ones(a.shape, np.float32)) == 1.0
    top = np.zeros(a.shape, np.float32)
    top[:20] = 1  # a's own stroke in view, b's hidden: half of where they differ
    assert math.isclose(_told_apart_in_view(book, [1, 2], 0, top), 0.5)
