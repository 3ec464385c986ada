"""The simulated boards are the same on the development stack (OpenCV 5) and the Pi's (OpenCV 4.11), and a registrar
registers a frame the same whatever ran before it (issues 14, 17; h-pilabels).

cv2.putText draws another font on OpenCV 4.11: the board art's space labels (``vision.boards.render_board``) read
apart on the two stacks until they came from stored glyphs (``vision.sim.glyphs``); and the registrar's LSH index
was drawn from OpenCV's RNG as the process had left it, so tests/boards/test_chest_sail_edge.py passed alone on the
Pi's stack and failed after tests/boards/test_bench_boards.py."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tablehub.games.karibik.board import load_board
from tablehub.games.tahiti.board import load_board as load_tahiti
from tablehub.games.tahiti.camera import camera_board
from vision.boards import render_board
from vision.sim.glyphs import glyph, put_text, text_size

OPENCV5 = int(cv2.__version__.split(".")[0]) >= 5


def _labels():
    return load_board("provisional").printed()["labels"] + camera_board(load_tahiti()).printed()["labels"]


@pytest.mark.skipif(not OPENCV5, reason="the stored glyphs are OpenCV 5's: compared with its own putText there")
@pytest.mark.parametrize("ppm", [2.0, 3.0])
def test_stored_glyphs_draw_every_label_as_opencv5s_puttext(ppm):
    """Every label of both boards, on a noisy coloured ground (letters whose ink overlaps included): put_text and
    text_size are OpenCV 5's putText and getTextSize byte for byte; so is the "$" disc at 3 and 8 px/mm."""
    rng = np.random.default_rng(4)
    texts = sorted({t for _, _, t in _labels() if t}) + ["Curaçao Ñ {x}, 4000!"]
    cases = [(t, 0.25 * ppm, 1, (25, 25, 25)) for t in texts] + [("$", 0.35 * ppm, 2, (60, 190, 230))]
    for text, scale, thick, colour in cases:
        size = text_size(text, scale, thick)
        assert size == cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick), text
        (tw, th), base = size
        ground = rng.integers(0, 256, (th + base + 12, tw + 12, 3)).astype(np.uint8)
        own, ours = ground.copy(), ground.copy()
        cv2.putText(own, text, (6, 6 + th), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)
        put_text(ours, text, (6, 6 + th), scale, colour, thick)
        assert np.array_equal(own, ours), text


@pytest.mark.parametrize("ppm", [2.0, 3.0])
def test_the_board_arts_labels_are_the_stored_glyphs_on_every_stack(ppm):
    """What a label lays on the printed board is its stored glyphs (OpenCV 5's font) on every stack: before, the
    Pi's OpenCV 4.11 drew its own font there (another width, height and ink)."""
    printed = load_board("provisional").printed()
    size = tuple(printed.pop("size_mm"))
    labels = printed.pop("labels")
    bare = render_board(size, px_per_mm=ppm, **printed)
    art = render_board(size, px_per_mm=ppm, labels=labels, **printed)
    for x, y, text in labels[:12]:
        scale = 0.25 * ppm
        g, (tw, th, base, pad) = glyph(text, scale, 1)  # the mask laid with its origin at (pad, pad + th)
        x0, y0 = int(x * ppm - tw / 2) - pad, int(y * ppm + th / 2) - th - pad
        want = bare.copy()
        put_text(want, text, (x0 + pad, y0 + pad + th), scale, (25, 25, 25), 1)
        box = (slice(y0, y0 + g.shape[0]), slice(x0, x0 + g.shape[1]))
        assert np.array_equal(art[box], want[box]), text
        ink = (bare[box].astype(int) - art[box].astype(int)).clip(0).sum(axis=2) > 0
        assert np.array_equal(ink, g > 0), text  # exactly where the glyph has ink


def test_a_registrar_registers_a_frame_alike_whatever_opencvs_rng_was(table):
    """Two registrars of one reference, the second built after OpenCV's RNG was drawn from (as a bench, another
    board's registrar or another reading leaves it): the same homography for the same frame, to the last bit
    (h-regdet; unseeded, the LSH index differed and the frame registered a fraction of a millimetre apart)."""
    from vision.boardreg import BoardReference, BoardRegistrar
    from vision.sim.boardtable import BoardPiece
    from vision.sim.camera import NUISANCE

    photo, truth = table.shoot(table.scene(), camera=NUISANCE["default"].other_session(), seed=5)
    lens = table.lens(truth)
    ref = BoardReference.from_photo(photo, table.size, 2.0, corners_px=table.corners(truth), lens=lens)
    c = table.board.centres
    frame, _ = table.shoot(table.scene([BoardPiece("ship", i, *c[s], 40.0 * i)
                                        for i, s in enumerate(table.board.skulls)], origin=(46.0, 35.0), angle=1.5),
                           "default", seed=2)
    first = BoardRegistrar(ref, lens).register(frame)
    cv2.setRNGSeed(7)
    cv2.randu(np.zeros(100, np.float32), 0, 1)
    second = BoardRegistrar(ref, lens).register(frame)
    assert first is not None and second is not None
    assert (first.inliers, first.matches) == (second.inliers, second.matches)
    assert np.array_equal(first.board_from_image, second.board_from_image)
