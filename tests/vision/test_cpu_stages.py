"""Where a reading's CPU goes (vision.cputime) and the speed-ups that must not change a reading (issue 14's CPU
targets): the sampler's kept lattice table, the tile classifier's kept per-level terms."""
from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from vision.cputime import STAGES, StageClock
from vision.sampling import GridSampler, grid_maps
from vision.tiles import Grid


def test_the_stage_clock_puts_the_time_since_the_last_mark_on_each_stage():
    clock = StageClock()
    clock.lap("markers")                       # no reading opened: only sets the mark
    assert clock.totals == {}
    clock.start()
    t = time.thread_time()
    while time.thread_time() - t < 0.02:      # 20 ms of this thread's CPU
        pass
    clock.lap("tiles")
    clock.lap("figures")
    assert clock.readings == 1
    assert clock.totals["tiles"] >= 0.02
    assert clock.totals["figures"] < 0.01
    ms = clock.per_reading_ms()
    assert list(ms) == ["tiles", "figures"], "stages listed in reading order"
    assert "tiles 2" in clock.summary()
    clock.reset()
    assert clock.totals == {} and clock.readings == 0


def _curved(pts: np.ndarray) -> np.ndarray:
    """A homography and a little barrel: mat mm -> frame px."""
    h = np.array([[1.3, 0.05, 100.0], [0.02, 1.25, 50.0], [1e-5, 2e-5, 1.0]])
    q = np.c_[pts, np.ones(len(pts))] @ h.T
    r = q[:, :2] / q[:, 2:]
    return r + 1e-5 * (r - 900.0) ** 2


@pytest.mark.parametrize("nx, ny, px, margin", [(1, 1, 48, 12), (11, 9, 48, 12), (3, 3, 96, 24)])
def test_grid_maps_interpolate_the_mapping_to_every_pixel(nx, ny, px, margin):
    """The kept per-size lattice table gives the mapping exactly on the lattice points and close between them,
    the same on the second call as on the first."""
    grid = Grid((500.0, 400.0), 3.0, 45.0)
    mx, my = grid_maps(_curved, grid, -1, 0, nx, ny, px, margin)
    w, h = nx * px + 2 * margin, ny * px + 2 * margin
    assert mx.shape == my.shape == (h, w)
    rows, cols = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
    gx = -1 - 0.5 + (cols - margin + 0.5) / px
    gy = 0 - 0.5 + (rows - margin + 0.5) / px
    m = grid.mat_from_grid()
    mm = np.stack([m[0, 0] * gx + m[0, 1] * gy + m[0, 2], m[1, 0] * gx + m[1, 1] * gy + m[1, 2]], axis=-1)
    want = _curved(mm.reshape(-1, 2)).reshape(h, w, 2)
    assert np.abs(mx - want[..., 0]).max() < 0.15 and np.abs(my - want[..., 1]).max() < 0.15
    on = (slice(0, h, 8), slice(0, w, 8))
    assert np.abs(mx[on] - want[on][..., 0]).max() < 0.05, "exact (to float32 and remap's 1/32 px) on the lattice"
    again = grid_maps(_curved, grid, -1, 0, nx, ny, px, margin)
    assert np.array_equal(again[0], mx) and np.array_equal(again[1], my)


def test_a_sampled_canvas_shows_the_frame_through_the_mapping():
    frame = np.zeros((600, 900, 3), np.uint8)
    frame[:, ::2] = 255                                   # columns: black and white stripes
    grid = Grid((200.0, 150.0), 0.0, 45.0)
    gc = GridSampler().sample(frame, lambda p: np.asarray(p, float) * 2.0, None, grid, 0, 0, 2, 1, 48, 12)
    assert gc.image.shape == (72, 120, 3)
    # 2 px per mm, 45 mm per 48 px: not the identity, so the stripes are resampled but present
    assert gc.image.std() > 40


@pytest.mark.shared
def test_a_full_reading_records_its_cpu_per_stage(neuesland):
    cv2.setNumThreads(1)
    rec = neuesland.recognizer()
    frame, _ = neuesland.render(neuesland.board(seed=11, tiles=30, figures=4), seed=12)
    rec.clock = StageClock()
    obs = rec.observe(frame)
    assert obs.tiles
    ms = rec.clock.per_reading_ms()
    assert rec.clock.readings == 1
    for stage in ("markers", "start", "cells", "sample", "tiles", "figures"):
        assert stage in ms, f"{stage} is timed: {ms}"
    assert set(ms) <= set(STAGES)
    assert ms["tiles"] > 0 and ms["start"] > 0, ms
    # an update with the grid kept and nothing moved: no marker search, no start search, nothing classified
    rec.clock = StageClock()
    again = rec.observe(frame, previous=obs, relocate=False)
    assert again.changed == [] and again.tiles.keys() == obs.tiles.keys()
    assert rec.clock.per_reading_ms()["start"] < ms["start"] / 5


def _board_canvas(neuesland):
    """A rendered 30-tile board read once: the recogniser's classifier and the 3 x 3 cells round the start,
    sampled as a reading samples them."""
    rec = neuesland.recognizer()
    frame, _ = neuesland.render(neuesland.board(seed=11, tiles=30, figures=4), seed=12)
    obs = rec.observe(frame)
    size = (frame.shape[1], frame.shape[0])
    gc = GridSampler().sample(frame, lambda p: rec.rectifier.mat_to_image(p, rec.rectifier.last, size),
                              None, obs.grid, -1, -1, 3, 3)
    return rec.classifier, gc


@pytest.mark.shared
def test_block_scores_of_a_few_templates_equal_those_of_all(neuesland):
    """Block scores of a covered cell for a few templates (taken from the per-level terms kept on the classifier)
    are those the same templates get among all of them, at the same offsets; and the same on a second call."""
    from vision.tiles import FeatureCanvas

    clf, gc = _board_canvas(neuesland)
    for covered in (True, False):
        fc = FeatureCanvas(gc)
        top, left = fc.top_left(0, 0)
        if covered:
            cover = np.zeros(fc.bgr.shape[:2], np.float32)
            cover[top + 10:top + 22, left + 14:left + 26] = 1.0     # a figure-sized covered spot
            fc.set_occlusion(cover)
        for level in (1, 0):
            t0, l0 = (top // 2, left // 2) if level else (top, left)
            every = np.arange(len(clf.half))
            s_all, dy_all, dx_all = clf._block_grid(fc, level, every, t0, l0, 1)
            js = np.array([3, 17, 40, 200])
            s, dy, dx = clf._block_grid(fc, level, js, t0, l0, 1)
            assert np.allclose(s, s_all[js], atol=1e-5), (covered, level, s, s_all[js])
            assert np.array_equal(dy, dy_all[js]) and np.array_equal(dx, dx_all[js])
            again = clf._block_grid(fc, level, js, t0, l0, 1)
            assert np.array_equal(again[0], s)


@pytest.mark.shared
def test_block_scores_at_many_places_at_once_are_those_of_one_place_at_a_time(neuesland):
    """The covered cells' searches made for all of them at once (``_block_grids``: windows gathered and their terms
    made together, the products stacked) give each place the scores and offsets of ``_block_grid`` alone, to the
    bit: with one template set for all places and with one per place, where something is covered and where not."""
    from vision.tiles import FeatureCanvas

    clf, gc = _board_canvas(neuesland)
    fc = FeatureCanvas(gc)
    cover = np.zeros(fc.bgr.shape[:2], np.float32)
    for x, y in ((0, 0), (1, 0), (-1, 1)):
        top, left = fc.top_left(x, y)
        cover[top + 10:top + 22, left + 14:left + 26] = 1.0     # figure-sized covered spots on three cells
    fc.set_occlusion(cover)
    places = [fc.top_left(x, y) for y in range(-1, 2) for x in range(-1, 2)] + [(0, 0)]   # the canvas corner: clipped
    rng = np.random.default_rng(5)
    for level, reach in ((1, 1), (1, 3), (0, 1)):
        at = [(t // 2, lf // 2) if level else (t, lf) for t, lf in places]
        for jss in (np.arange(len(clf.half)), np.array([3, 17, 40, 200]),
                    [rng.choice(len(clf.half), 1, replace=False) for _ in at],
                    [rng.choice(len(clf.half), int(rng.integers(2, 30)), replace=False) for _ in at]):
            many = clf._block_grids(fc, level, jss, at, reach)
            assert len(many) == len(at)
            for i, (t, lf) in enumerate(at):
                one = clf._block_grid(fc, level, jss if not isinstance(jss, list) else jss[i], t, lf, reach)
                for a, b in zip(many[i], one):
                    assert np.array_equal(a, b), (level, reach, i, a, b)
    # the classifier's covered-cell candidates for several cells at once are those of one cell at a time
    cells = [(x, y) for y in range(-1, 2) for x in range(-1, 2)]
    s1, _ = clf.coarse_scores(fc, cells)
    tops = np.array([fc.top_left(x, y) for x, y in cells])
    together = clf._hard_candidates_many(fc, list(range(len(cells))), tops, s1)
    for n in range(len(cells)):
        assert together[n] == clf._hard_candidates_many(fc, [n], tops, s1)[n]


def test_canvas_scores_are_the_normalised_correlation_at_every_shift():
    """FeatureCanvas.scores (each shift correlated in place, issue 14) against the correlation written out: the
    window's lightness centred, over the norms of window and template."""
    from vision.tiles import FeatureCanvas, GridCanvas, centre_lightness

    rng = np.random.default_rng(3)
    image = rng.integers(0, 256, (3 * 48 + 24, 3 * 48 + 24, 3), np.uint8)
    fc = FeatureCanvas(GridCanvas(image, 0, 0, 3, 3, 48, 12))
    for level, n in ((0, 48), (1, 24)):
        temps = centre_lightness(rng.normal(size=(4, n, n, 3)).astype(np.float32))
        norms = np.linalg.norm(temps.reshape(4, -1), axis=1)
        tops, lefts = np.array([5, 20, 40, 12]) // (level + 1), np.array([30, 7, 18, 44]) // (level + 1)
        sc, t, left = fc.scores(level, temps, norms, tops, lefts, 2)
        assert sc.shape == (4, 5, 5)
        img = fc.levels[level].astype(np.float64)
        for k in range(4):
            for dy in range(5):
                for dx in range(5):
                    w = img[t[k] + dy:t[k] + dy + n, left[k] + dx:left[k] + dx + n].copy()
                    w[..., 0] -= w[..., 0].mean()
                    want = (w * temps[k]).sum() / (np.linalg.norm(w) * norms[k])
                    assert abs(sc[k, dy, dx] - want) < 1e-4, (level, k, dy, dx, sc[k, dy, dx], want)


@pytest.mark.shared
def test_the_start_search_scores_places_cheaply_near_where_the_full_search_puts_them(neuesland):
    """The start search scores its places with turned templates on one sample of the cell (issue 14) and runs the
    full search (the frame sampled at every turn) only where the start tile is seen clearly: both put the start
    tile within a millimetre and a degree (two of the search's steps) of each other, scoring alike."""
    cv2.setNumThreads(1)
    rec = neuesland.recognizer()
    frame, _ = neuesland.render(neuesland.board(seed=11, tiles=30, figures=4), seed=12)
    loc = rec.rectifier.locate(frame)
    size = (frame.shape[1], frame.shape[0])

    def to_frame(p):
        return rec.rectifier.mat_to_image(p, loc, size)

    found = rec.find_start(frame, to_frame)
    for shift, turn in (((3.0, -2.0), 0.0), ((-4.0, 1.0), 2.0), ((0.0, 5.0), -3.0)):
        guess = Grid((found.origin_mm[0] + shift[0], found.origin_mm[1] + shift[1]), found.angle_deg + turn, 45.0)
        cheap, cg = rec._prescore_start(frame, to_frame, guess)
        full, fg = rec._refine_start(frame, to_frame, guess)
        assert abs(cheap - full) < 0.03, (cheap, full)
        assert np.hypot(cg.origin_mm[0] - fg.origin_mm[0], cg.origin_mm[1] - fg.origin_mm[1]) < 1.0, (cg, fg)
        assert abs(cg.angle_deg - fg.angle_deg) <= 1.0 + 1e-9, (cg, fg)
    # the grid returned is the full search's from the place found (before the outline squares it up, which the
    # board's neighbouring tiles prevent here)
    exact = rec._refine_start(frame, to_frame, Grid(found.origin_mm, round(found.angle_deg / 90) * 90.0, 45.0))[1]
    assert abs(exact.angle_deg - found.angle_deg) <= 0.5 + 1e-9


# ------------------------------------------------------------------ third round (issue 14): the same numbers, faster

def _gain_one_at_a_time(obs: np.ndarray, ref: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The robust per-channel gain fit as it was written for one pair (before the batched version)."""
    o = obs.reshape(-1, 3).astype(np.float32)
    r = ref.reshape(-1, 3).astype(np.float32)
    w = np.ones((len(o), 1), np.float32)
    gain, offset = np.ones(3, np.float32), np.zeros(3, np.float32)
    for _ in range(2):
        n = float(w.sum())
        mr = (r * w).sum(axis=0) / n
        mo = (o * w).sum(axis=0) / n
        rc = r - mr
        var = (rc * rc * w).sum(axis=0) / n
        cov = (rc * (o - mo) * w).sum(axis=0) / n
        gain = np.clip(np.where(var > 1.0, cov / np.maximum(var, 1.0), 1.0), 0.3, 3.0)
        offset = mo - gain * mr
        err = np.abs(o - (gain * r + offset)).sum(axis=1)
        k = int(len(err) * 0.8)
        cut = max(float(np.partition(err, k)[k]) * 1.5, 6.0)
        w = (err < cut).astype(np.float32)[:, None]
    return gain, offset


@pytest.mark.parametrize("shape", [(16, 16, 3), (8, 16, 3), (11, 13, 3)])
def test_gains_fitted_in_a_batch_are_those_fitted_one_at_a_time(shape):
    """The figure pass fits the light of every tile around the cells it looks at in one batch: each gain and offset
    is the one fit alone gives, to the bit (a figure on some of the tiles, other casts on each)."""
    from vision.pieces import _gain_of, gains_of_many

    rng = np.random.default_rng(5)
    ref = rng.integers(0, 256, (9,) + shape).astype(np.float32)
    obs = ref * rng.uniform(0.5, 1.5, (9, 1, 1, 3)) + rng.normal(0, 8, (9,) + shape) + rng.uniform(-30, 30, (9, 1, 1, 1))
    obs[::2, 2:6, 3:8] = rng.integers(0, 256, 3)                       # a figure on every other tile
    obs = np.clip(obs, 0, 255).astype(np.float32)
    gains, offsets = gains_of_many(obs, ref)
    assert gains.shape == offsets.shape == (9, 3)
    for i in range(9):
        g, o = _gain_one_at_a_time(obs[i], ref[i])
        assert np.array_equal(gains[i], g) and np.array_equal(offsets[i], o), (i, gains[i], g, offsets[i], o)
        g1, o1 = _gain_of(obs[i], ref[i])
        assert np.array_equal(g1, g) and np.array_equal(o1, o)
    assert not np.allclose(gains[0], gains[1]), "each pair gets its own fit"


def test_shading_and_colour_distances_written_per_channel_equal_numpys():
    """shading() and norm3() write numpy's mean, std and norm over three channels out per channel: the same bits."""
    from vision.pieces import norm3, shading

    rng = np.random.default_rng(6)
    for shape in ((41, 41, 3), (120, 170, 3)):
        obs = rng.uniform(0, 255, shape).astype(np.float32)
        exp = np.clip(obs * rng.uniform(0.3, 1.2, shape) + rng.normal(0, 5, shape), 0, 255).astype(np.float32)
        ratio = (obs + 4.0) / (exp + 4.0)
        mean, grey = shading(obs, exp)
        assert np.array_equal(mean, ratio.mean(axis=2))
        assert np.array_equal(grey, ratio.std(axis=2) < 0.06 + 0.1 * (1 - ratio.mean(axis=2)))
        assert grey.any() and not grey.all()
        x = rng.normal(0, 40, shape).astype(np.float32)
        assert np.array_equal(norm3(x), np.linalg.norm(x, axis=2))


def test_features_from_the_look_up_table_equal_the_arithmetic():
    """to_features() takes each 8-bit Lab value's feature from a table: every value of every channel as computed."""
    from vision.tiles import CHROMA_WEIGHT, to_features

    rng = np.random.default_rng(7)
    image = rng.integers(0, 256, (96, 150, 3)).astype(np.uint8)
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab).astype(np.float32)
    lab[..., 1:] -= 128.0
    lab[..., 1:] *= CHROMA_WEIGHT
    got = to_features(image)
    assert got.dtype == np.float32 and np.array_equal(got, lab)
    assert np.array_equal(to_features(image[::2, 1::3]), lab[::2, 1::3]), "a view that is not contiguous"
    assert to_features(image.astype(np.float32) / 255.0).dtype == np.float32   # float input: no table


def test_a_window_at_the_figures_scale_any_and_all_by_blocks():
    """The figure window's seams (any pixel of a block) and known pixels (all of a block), from strided slices."""
    from vision.figurereading import _any_of_blocks

    rng = np.random.default_rng(8)
    for s in (2, 3):
        mask = rng.random((6 * s, 4 * s)) < 0.15
        want = mask.reshape(6, s, 4, s).any(axis=(1, 3))
        assert np.array_equal(_any_of_blocks(mask, s), want)
        assert np.array_equal(~_any_of_blocks(~mask, s), mask.reshape(6, s, 4, s).all(axis=(1, 3)))
        assert want.any() and not want.all()


def test_the_median_of_8_bit_colours_by_counting_is_numpys():
    """The bare mat's colour in a figure's window (``vision.sampling.median_u8``, issue 14's CPU) is ``np.median`` of the pixels as
    float32, value and type, for odd and even counts, spread and crowded levels."""
    from vision.sampling import median_u8 as _median_u8

    rng = np.random.default_rng(7)
    for n in (20, 21, 22, 101, 4000, 4001):
        for lo, hi in ((0, 256), (100, 103), (250, 256)):
            v = rng.integers(lo, hi, (n, 3)).astype(np.uint8)
            want = np.median(v.astype(np.float32), axis=0)
            got = _median_u8(v)
            assert got.dtype == want.dtype and np.array_equal(got, want), (n, lo, hi, got, want)


def _nearest_by_numpy(colours, lab):
    """``PlayerColours.nearest`` as it was before it went colour by colour (issue 14, session tilecpu10)."""
    from vision.pieces import _weighted

    w = np.asarray(_weighted(lab), np.float32)
    centres = np.asarray(colours.centres, np.float32)
    d2 = (w * w).sum(axis=-1, keepdims=True) - 2.0 * (w @ centres.T) + (centres * centres).sum(axis=-1)
    d2 = np.maximum(d2, 0.0)
    idx = d2.argmin(axis=-1)
    return idx, np.sqrt(np.take_along_axis(d2, idx[..., None], axis=-1)[..., 0])


def test_the_nearest_player_colour_colour_by_colour_is_numpys():
    """Each pixel's nearest player colour and its distance, made colour by colour on whole planes: the same index
    (the first of equally near colours) and the same float32 distance as numpy's reduction over the colours, on 8-bit
    Lab images, float Lab, single pixels and pixels exactly between two colours."""
    from vision.pieces import PlayerColour, PlayerColours, bgr_to_lab

    rng = np.random.default_rng(9)
    five = PlayerColours.defaults()
    twins = PlayerColours([PlayerColour("a", (50.0, 128.0, 128.0)), PlayerColour("b", (50.0, 128.0, 128.0)),
                           PlayerColour("c", (80.0, 100.0, 150.0))])
    cases = [bgr_to_lab(rng.integers(0, 256, (170, 230, 3)).astype(np.uint8)),
             rng.uniform(0, 255, (33, 3)).astype(np.float32), bgr_to_lab(np.array([30, 60, 200], np.uint8))]
    tie = np.full((4, 5, 3), (50.0, 128.0, 128.0), np.float32)
    for colours, lab in [(five, c) for c in cases] + [(twins, tie), (twins, cases[0])]:
        idx, dist = colours.nearest(lab)
        want_idx, want_dist = _nearest_by_numpy(colours, lab)
        assert idx.dtype == want_idx.dtype and idx.shape == want_idx.shape and np.array_equal(idx, want_idx)
        assert dist.dtype == want_dist.dtype and np.array_equal(dist, want_dist)
    assert len(np.unique(five.nearest(cases[0])[0])) == 5
    assert not twins.nearest(tie)[0].any(), "of two equally near colours the first"


# ------------------------------------------------------------------ fifth round (issue 14): cut what cannot find anything

def _figures_of(obs):
    return sorted((f.x, f.y, f.colour, f.region, round(f.u, 6), round(f.v, 6), round(f.confidence, 6))
                  for f in obs.figures)


@pytest.mark.shared
@pytest.mark.parametrize("seed", [11, 21])
def test_the_figure_gate_keeps_every_window_that_finds_a_figure(neuesland, seed):
    """The figure pass looks only in the windows that hold a loose figure-sized blob of the whole canvas
    (``Recognizer._figure_possible``): the same figures, at the same places and confidences, as looking in every
    window, from fewer windows, none of them one that found a figure."""
    cv2.setNumThreads(1)
    frame, _ = neuesland.render(neuesland.board(seed=seed, tiles=40, figures=8), seed=seed + 1)
    readings, windows = {}, {}
    for gate in (False, True):
        rec = neuesland.recognizer()
        rec.figure_gate = gate
        looked: list[tuple[tuple[int, int], int]] = []
        near = rec._figures_near

        def counted(fc, tiles, cell, *a, _near=near, _looked=looked, **k):
            out = _near(fc, tiles, cell, *a, **k)
            _looked.append((cell, len(out)))
            return out

        rec._figures_near = counted
        readings[gate] = _figures_of(rec.observe(frame))
        windows[gate] = looked
    assert len(readings[False]) >= 6, readings[False]
    assert readings[True] == readings[False]
    found_in = {c for c, n in windows[False] if n}
    assert found_in <= {c for c, _ in windows[True]}, "every window that found a figure is still looked in"
    assert len(windows[True]) < len(windows[False]), (len(windows[True]), len(windows[False]))


def test_the_gate_blob_mask_holds_a_painted_figure_and_nothing_on_a_bare_tile():
    """``FigureFinder.blob_mask``: no blob where the picture is its reference, and one over a figure-sized patch of a
    player's colour painted on it (what ``find`` then reports as a figure there)."""
    from vision.pieces import FigureFinder, PlayerColours, bgr_to_lab

    colours = PlayerColours.defaults()
    finder = FigureFinder(colours)
    rng = np.random.default_rng(3)
    ref = np.clip(rng.normal(150, 12, (40, 40, 3)), 0, 255).astype(np.uint8)
    ref = cv2.GaussianBlur(ref, (0, 0), 1.0)
    mm = 1.9
    lab = bgr_to_lab(ref)
    assert not finder.blob_mask(ref, ref, mm, colours.nearest(lab)).any()
    seen = ref.copy()
    cv2.circle(seen, (20, 18), 5, (170, 80, 22), -1)        # blue (BGR), about 300 mm^2 at 1.9 mm a pixel
    lab = bgr_to_lab(seen)
    mask = finder.blob_mask(seen, ref, mm, colours.nearest(lab), lab=lab)
    assert mask[18, 20] and mask.sum() >= 20
    feet: list[np.ndarray] = []
    found = finder.find(seen, ref, mm, feet, fit=False, nearest=colours.nearest(lab))
    assert [f[0] for f in found] == ["blue"]
    assert (mask | ~feet[0]).all(), "the found figure's pixels lie in the blob mask"


@pytest.mark.shared
def test_the_start_search_scores_the_other_places_only_when_the_best_few_show_no_start(neuesland):
    """Coarse to fine (issue 14): with the start tile clear among the best ``start_first`` coarse places only those
    are scored closely, and the grid found is the one scoring all ``start_peaks`` finds."""
    cv2.setNumThreads(1)
    frame, _ = neuesland.render(neuesland.board(seed=11, tiles=30, figures=4), seed=12)
    grids, calls = {}, {}
    for first in (3, 10):
        rec = neuesland.recognizer()
        rec.start_first = first
        n = []
        pre = rec._prescore_start

        def counted(*a, _pre=pre, _n=n, **k):
            _n.append(1)
            return _pre(*a, **k)

        rec._prescore_start = counted
        loc = rec.rectifier.locate(frame)
        size = (frame.shape[1], frame.shape[0])
        grids[first] = rec.find_start(frame, lambda p, loc=loc, rec=rec: rec.rectifier.mat_to_image(p, loc, size))
        calls[first] = len(n)
    assert calls[3] == 3 and calls[10] == rec.start_peaks, calls
    assert grids[3] == grids[10]


def test_a_board_read_from_scratch_is_read_once_on_the_grid_its_clear_tiles_give(neuesland, monkeypatch):
    """Issue 14, CPU: a grid found afresh is fitted before the reading (``Recognizer._prefit``) to the clear tiles on
    it, so the fit after the reading does not move it enough to read the whole frame again; without that fit the
    start tile's angle, a few tenths of a degree off, had every full board read twice."""
    from vision.recognize import Recognizer

    cv2.setNumThreads(1)
    rec = neuesland.recognizer()
    frame, _ = neuesland.render(neuesland.board(seed=701, tiles=30, figures=0), seed=801)
    grids = []
    read = Recognizer._read

    def counted(self, frame, to_frame, key, grid, *a, **kw):
        grids.append(grid)
        return read(self, frame, to_frame, key, grid, *a, **kw)

    monkeypatch.setattr(Recognizer, "_read", counted)
    obs = rec.observe(frame)
    assert len(grids) == 1 and obs.tiles
    assert "fit" in rec.clock.per_reading_ms()
    # the cause: the grid the start search finds, read and fitted, is read again
    grids.clear()
    rec.rectifier.reset()
    rec.prefit_found_grid = False
    again = rec.observe(frame)
    assert len(grids) == 2, "the found grid's fit moved it under 1.5 mm: the board no longer shows the cause"
    assert {c: (t.tile, t.rotation) for c, t in again.tiles.items()} == {c: (t.tile, t.rotation) for c, t in obs.tiles.items()}


# ------------------------------------------------------------------ session tilecpu10 (issue 14): work a decision does not need

def test_the_noise_floor_is_made_only_where_the_plain_ratio_does_not_decide():
    """A tile read again by colour asks for the frame's noise floor (:func:`vision.undercover.noise_floor`, 5 ms a tile
    on a Suedsee ``field/hard`` board) only where the candidate is not clearly better by the plain ratio: given as a
    function, it is called only then, and decides as the number would."""
    from vision.undercover import clearly_better

    calls = []

    def floor() -> float:
        calls.append(1)
        return 26.5

    assert clearly_better(20.0, 30.0, floor) and not calls          # the plain ratio decides: no floor made
    assert clearly_better(32.0, 38.8, floor) and len(calls) == 1     # beyond the floor: clearly better
    for best, mine, level in ((32.0, 38.8, 26.5), (26.9, 27.3, 26.7), (32.0, 38.8, None), (20.0, 30.0, None)):
        assert clearly_better(best, mine, lambda: level) == clearly_better(best, mine, level)
