"""The registration refined by art patches spread over the board (vision.boardrefine), and the board camera's
CPU cuts that must not change a reading (issue 17): each compared with the slow way it replaced."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.boardpieces import (AREA_WEIGHT, LabCanvas, SpaceMap, _distance, _lab, _scores, difference, light_gain,
                                soften)
from vision.boardrefine import PatchRefiner
from vision.boardreg import BoardRegistrar, _grey, warp_maps

from .test_boardpieces import setup  # noqa: F401  (the module's enrolled Karibik pieces)
from .test_boardreg import enrol, ships


def _corner_error(reg_h: np.ndarray, truth, table, lens) -> float:
    """Worst error (mm) over the board's grid of a ``board_from_image`` homography."""
    g = table.grid()
    img = lens.undistort_points(truth.board_to_image(g))
    p = np.column_stack([img, np.ones(len(img))]) @ reg_h.T
    return float(np.linalg.norm(p[:, :2] / p[:, 2:] - g, axis=1).max())


def test_the_patches_pull_a_registration_3_mm_off_at_a_corner_back_under_half_a_millimetre(table):
    ref, lens = enrol(table, "hard")
    frame, truth = table.shoot(table.scene(ships(table), origin=(46.0, 35.0), angle=1.5), "hard", seed=2)
    reg = BoardRegistrar(ref, lens).register(frame)
    assert reg is not None and reg.refined >= 10
    assert _corner_error(reg.board_from_image, truth, table, lens.for_size(reg.frame_size)) <= 0.6
    # the same registration spoilt: the board's far corner 3 mm off (a projective error, as features crowded
    # in one half of the board leave it)
    w, h = table.size
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    bad = cv2.getPerspectiveTransform(src, src + np.float32([[0, 0], [0, 0], [2.1, 2.1], [0, 0]])) @ reg.board_from_image
    lz = lens.for_size(reg.frame_size)
    assert _corner_error(bad, truth, table, lz) > 2.5
    fixed, used = PatchRefiner(ref.canvas, ref.ppm).refine(bad / bad[2, 2], _grey(frame), lens, reg.frame_size)
    assert used >= 10
    assert _corner_error(fixed, truth, table, lz) <= 0.6


def test_a_refinement_the_patches_do_not_support_is_not_used(table):
    ref, lens = enrol(table, "default")
    frame, _ = table.shoot(table.scene(), "default", seed=3)
    reg = BoardRegistrar(ref, lens).register(frame)
    wrong = np.array([[1, 0, 60.0], [0, 1, -45.0], [0, 0, 1]]) @ reg.board_from_image  # 75 mm off: beyond the search
    out, used = PatchRefiner(ref.canvas, ref.ppm).refine(wrong, _grey(frame), lens, reg.frame_size)
    assert used == 0 and np.allclose(out, wrong)


def test_the_resampling_maps_on_an_8_px_grid_match_the_exact_ones_everywhere(table):
    _, lens = enrol(table, "hard")  # a wide lens: the distortion bends the maps
    lz = lens.for_size((1280, 720))
    assert np.any(lz.dist_coeffs)
    H = np.array([[0.55, 0.03, 210.0], [-0.02, 0.57, 60.0], [1e-5, -2e-5, 1.0]])
    for size in ((1200, 840), (997, 613)):  # not a multiple of the grid's step either
        ex, ey = warp_maps(H, size, (1280, 720), lz)
        gx, gy = warp_maps(H, size, (1280, 720), lz, step=8)
        assert gx.shape == ex.shape == (size[1], size[0])
        assert np.abs(gx - ex).max() < 0.02 and np.abs(gy - ey).max() < 0.02  # remap resolves 1/32 px


def test_the_template_scores_in_one_product_are_the_per_template_comparisons(setup):  # noqa: F811
    book = setup[2]
    rng = np.random.default_rng(4)
    for t in book.templates:
        hist = soften(t.hist * rng.uniform(0.3, 1.7, t.hist.shape).astype(np.float32))
        area = t.area_mm2 * float(rng.uniform(0.6, 1.4))
        slow = sorted((_distance(hist, soften(u.hist)) + AREA_WEIGHT * abs(np.log(area / max(1.0, u.area_mm2))), i)
                      for i, u in enumerate(book.templates))
        fast = _scores(hist, area, book)
        assert [i for _, i in fast] == [i for _, i in slow]
        assert np.allclose([s for s, _ in fast], [s for s, _ in slow], atol=1e-5)


def test_the_spaces_round_a_point_sampled_at_once_are_the_pointwise_ones(setup):  # noqa: F811
    spaces: SpaceMap = setup[3]
    rng = np.random.default_rng(5)
    h, w = spaces.labels.shape
    for _ in range(3000):
        x, y = rng.uniform(-4, w / spaces.ppm + 4), rng.uniform(-4, h / spaces.ppm + 4)
        r = float(rng.choice([1.0, 2.0, 3.5]))
        slow = {spaces.at(x, y)} | {spaces.at(x + r * np.cos(a), y + r * np.sin(a))
                                    for a in np.linspace(0, 2 * np.pi, 12, endpoint=False)}
        assert spaces.around(x, y, r) == slow, (x, y, r)


def test_the_8_bit_difference_is_the_float_one_and_the_lab_is_read_where_asked(table, setup):  # noqa: F811
    ref, reg = setup[0], setup[1]
    frame, _ = table.shoot(table.scene(ships(table), origin=(43.0, 37.0), angle=1.0), "default", seed=11)
    canvas, empty = reg.register(frame).canvas(frame, 2.0, table.size), ref.canvas
    gain = light_gain(canvas, empty)
    d, lab = difference(canvas, empty, gain=gain)
    assert isinstance(lab, LabCanvas) and lab.shape == canvas.shape
    # the float way it replaced: blurred float Lab of both, the Euclidean distance
    from vision.boardpieces import match_light

    matched = match_light(canvas, empty, gain=gain)
    full = _lab(matched)
    slow = np.linalg.norm(cv2.GaussianBlur(full, (0, 0), 1.0) - cv2.GaussianBlur(_lab(empty), (0, 0), 1.0), axis=2)
    inner = (slice(10, -10), slice(10, -10))
    seen = d[inner] > 0
    assert np.percentile(np.abs(d[inner][seen] - slow[inner][seen]), 99) < 1.0  # Lab units; pieces are > 14
    assert ((d[inner] > 14) != (slow[inner] > 14)).mean() < 0.002
    assert np.array_equal(lab[40:90, 100:180], full[40:90, 100:180])  # a crop, converted alone
    assert np.array_equal(np.asarray(lab), full) and np.array_equal(lab[..., 0], full[..., 0])


@pytest.mark.parametrize("frame_w", [1280, 1920])
def test_the_board_is_found_with_the_shrunk_frame_at_either_size(table, frame_w):
    ref, lens = enrol(table, "default")
    frame, truth = table.shoot(table.scene(ships(table)), "default", seed=7)
    if frame_w != frame.shape[1]:
        frame = cv2.resize(frame, (frame_w, frame_w * 9 // 16), interpolation=cv2.INTER_CUBIC)
    reg = BoardRegistrar(ref, lens).register(frame)
    assert reg is not None and reg.inliers >= 40 and reg.refined >= 10
    g = table.grid()
    seen = truth.board_to_image(g) * (frame_w / 1280.0)
    assert np.linalg.norm(reg.to_board(seen) - g, axis=1).max() <= 1.0
