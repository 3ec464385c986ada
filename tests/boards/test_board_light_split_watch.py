"""The board's light fitted past crowded pieces, touching pieces split by their colours, and the
incremental read (vision.boardwatch): the causes of issue 17's Tahiti misreads, each able to fail."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.boardpieces import BodyColours, _lab, light_gain, solidity, split_by_colour
from vision.boardreg import BoardReference, BoardRegistrar, BoardTracker
from vision.boardwatch import BoardWatch
from vision.sim.boardtable import BoardPiece

from .test_boardpieces import KINDS, NAMES, setup  # noqa: F401  (the module's enrolled Karibik pieces)


def _board(rng: np.random.Generator, h: int = 400, w: int = 400) -> np.ndarray:
    """A printed board's sea: blues with a few darker printed lines."""
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = (170, 120, 50)
    for x in range(0, w, 46):
        img[:, x:x + 2] = (40, 40, 40)
    for y in range(0, h, 46):
        img[y:y + 2] = (40, 40, 40)
    return cv2.add(img, rng.integers(0, 6, img.shape, dtype=np.uint8))


def test_the_light_is_fitted_under_a_crowd_of_pieces_not_pulled_to_their_colours():
    rng = np.random.default_rng(1)
    empty = _board(rng)
    h, w = empty.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    true = np.dstack([0.8 + 0.3 * xs / w, 0.9 + 0.0 * xs, 1.1 - 0.2 * ys / h]).astype(np.float32)  # cast + gradient
    canvas = np.clip(empty * true, 0, 255).astype(np.uint8)
    # a crowded corner: red boats side by side over a 120 x 120 px patch
    for y in range(40, 160, 14):
        for x in range(40, 160, 30):
            cv2.ellipse(canvas, (x + 13, y + 5), (13, 5), 0, 0, 360, (40, 40, 205), -1)
    gain = light_gain(canvas, empty)
    full = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    want = 1 / true
    under = (slice(60, 140), slice(60, 140))
    assert np.abs(full[under] / want[under] - 1).max() < 0.04
    assert np.abs(full[250:, 250:] / want[250:, 250:] - 1).max() < 0.04


def _two_boats(colour_a, colour_b, gap: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two 40 x 16 mm sailboats (2 px/mm) side by side, touching: picture, blob mask, first boat's mask."""
    img = np.zeros((80, 140, 3), np.uint8)
    img[:] = (170, 120, 50)
    first = np.zeros(img.shape[:2], np.uint8)
    for i, (cx, colour) in enumerate(((50, colour_a), (50 + 32 + gap, colour_b))):
        cv2.ellipse(img, (cx, 40), (16, 40), 0, 0, 360, colour, -1)
        sail = tuple(int(v * 0.45 + 255 * 0.55) for v in colour)
        cv2.rectangle(img, (cx - 14, 30), (cx + 14, 50), sail, -1)  # the light sail across the hull
        if i == 0:
            cv2.ellipse(first, (cx, 40), (16, 40), 0, 0, 360, 1, -1)
    blob = np.any(img != (170, 120, 50), axis=2)
    return img, blob, first.astype(bool)


COLOURS = BodyColours(np.float32([_lab(np.uint8([[c]]))[0, 0] for c in
                                  ((40, 40, 205), (40, 205, 235), (165, 55, 150), (60, 160, 30))]), np.arange(4))


def test_touching_boats_of_two_colours_are_split_by_colour_each_whole_with_its_sail():
    img, blob, first = _two_boats((40, 205, 235), (165, 55, 150))  # yellow and violet
    parts = split_by_colour(blob, _lab(img), 2.0, 0.4 * 225, COLOURS)
    assert parts is not None and len(parts) == 2
    a = max(parts, key=lambda p: (p & first).sum())
    # the yellow part is the yellow boat, its sail included (the sail is not a colour of its own)
    assert (a & first).sum() / first.sum() > 0.95
    assert (a & ~first).sum() / first.sum() < 0.05


def test_touching_boats_of_one_colour_are_left_to_the_shape_split():
    img, blob, _ = _two_boats((40, 40, 205), (40, 40, 205))
    assert split_by_colour(blob, _lab(img), 2.0, 0.4 * 225, COLOURS) is None


def test_a_small_boat_with_its_pearl_touching_the_disc_is_split_from_it():
    img = np.zeros((80, 120, 3), np.uint8)
    img[:] = (170, 120, 50)
    cv2.circle(img, (40, 40), 26, (50, 110, 35), -1)  # the disc ($ face: dark green), 26 mm
    cv2.ellipse(img, (92, 40), (26, 11), 90, 0, 360, (40, 40, 205), -1)  # a red boat touching it
    cv2.circle(img, (92, 40), 5, (20, 20, 20), -1)  # its black pearl in the middle
    boat = np.zeros(img.shape[:2], np.uint8)
    cv2.ellipse(boat, (92, 40), (26, 11), 90, 0, 360, 1, -1)
    blob = np.any(img != (170, 120, 50), axis=2)
    colours = BodyColours(np.vstack([COLOURS.lab, _lab(np.uint8([[(50, 110, 35)]]))[0]]), np.arange(5))
    parts = split_by_colour(blob, _lab(img), 2.0, 0.4 * 225, colours)
    assert parts is not None and len(parts) == 2
    red = max(parts, key=lambda p: (p & boat.astype(bool)).sum())
    assert (red & boat.astype(bool)).sum() / boat.sum() > 0.95


def test_one_piece_is_convex_two_touching_have_a_waist():
    rng = np.random.default_rng(2)
    one = np.zeros((100, 120), np.uint8)
    cv2.ellipse(one, (60, 50), (40, 16), 30, 0, 360, 1, -1)
    ragged = one.copy()  # a noisy outline: pixels off and on along the edge
    edge = cv2.morphologyEx(one, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)).astype(bool)
    ragged[edge & (rng.uniform(size=one.shape) < 0.3)] ^= 1
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))  # as blobs() cleans a mask (2.5 mm at 2 px/mm)
    ragged = cv2.morphologyEx(cv2.morphologyEx(ragged, cv2.MORPH_OPEN, k), cv2.MORPH_CLOSE, k)
    assert solidity(one) > 0.94 and solidity(ragged) > 0.92
    two = np.zeros((100, 120), np.uint8)
    cv2.ellipse(two, (40, 30), (26, 11), 0, 0, 360, 1, -1)
    cv2.ellipse(two, (40, 52), (26, 11), 0, 0, 360, 1, -1)  # side by side, touching
    assert solidity(two) < 0.92


@pytest.fixture(scope="module")
def watch_setup(table, setup):  # noqa: F811
    ref, reg, book, spaces = setup
    return BoardWatch(BoardTracker(BoardRegistrar(ref, reg.lens)), book, spaces)


def _noisy(frame: np.ndarray, seed: int) -> np.ndarray:
    """The same view a moment later: fresh sensor noise."""
    return cv2.add(frame, np.random.default_rng(seed).normal(0, 2.0, frame.shape), dtype=cv2.CV_8U)


def test_a_moved_ship_is_read_incrementally_and_the_same_as_a_full_read(table, watch_setup):
    b = table.board
    spots = [int(s) for s in list(b.spaces)[20:28]]
    pieces = [BoardPiece(k, v, *b.centres[s]) for (k, v), s in zip(KINDS, spots)]
    watch = watch_setup
    watch.reset()
    watch.tracker.current = None
    first = watch.read(table.shoot(table.scene(pieces), "default", seed=21)[0])
    assert first.full and sorted((p.name, p.space) for p in first.pieces) == sorted(zip(NAMES, spots))
    assert not watch.read(_noisy(table.shoot(table.scene(pieces), "default", seed=21)[0], 1)).reread_mm2
    free = [s for s in b.spaces if s not in spots and all(np.hypot(*np.subtract(b.centres[s], b.centres[t])) > 60
                                                           for t in spots)][0]
    moved = [BoardPiece(KINDS[0][0], KINDS[0][1], *b.centres[free])] + pieces[1:]
    frame = _noisy(table.shoot(table.scene(moved), "default", seed=21)[0], 2)
    again = watch.read(frame)
    assert not again.full
    w, h = table.size
    assert 0 < again.reread_mm2 < 0.25 * w * h
    assert sorted((p.name, p.space) for p in again.pieces) == sorted(zip(NAMES, [free] + spots[1:]))


def test_a_bumped_board_gets_a_full_read(table, watch_setup):
    watch = watch_setup
    watch.reset()
    watch.tracker.current = None
    watch.read(table.shoot(table.scene([]), "default", seed=21)[0])
    bumped = watch.read(table.shoot(table.scene([], origin=(45.0, 42.0)), "default", seed=21)[0])
    assert bumped.full and bumped.why == "the board moved"
