"""How the Sunda camera pairs covered triangles into pieces (vision/sunda.py ``_pieces``, ``_augment``,
``_gap_limit``) on label and line and lightness images drawn by hand, and where the simulated table lays its layout
(vision/sim/sundatable.py ``centred_origin``): the causes of the pieces lost on the bench's tables with markers
and resources (docs/history/sunda-measured.md, "Session 7: why the bench's tables with resources read worse")."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision.mat import Mat  # noqa: E402
from vision.sunda import LatticePose, _augment, _gap_limit, tri_points  # noqa: E402

F = np.float32
LAT = LatticePose((350.0, 350.0), 0.0, 30.0)


@pytest.fixture()
def reader(sunda_reader):
    return sunda_reader


def _canvas(reader):
    x0, y0, x1, y1 = reader._play
    return np.zeros((y1 - y0, x1 - x0), np.uint8)


def _fill_tri(reader, img, tri, value):
    pts = reader._px(LAT.to_mm(tri_points([tri[0]], [tri[1]], [tri[2]]).reshape(-1, 2)))
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], int(value), cv2.LINE_8, shift=4)


def _disc(reader, img, tri, radius_mm, value):
    c = reader._px(LAT.to_mm(tri_points([tri[0]], [tri[1]], [tri[2]]).reshape(-1, 2)).mean(axis=0))
    cv2.circle(img, (int(round(c[0])), int(round(c[1]))), int(round(radius_mm * reader.s)), int(value), -1)


def test_a_triangle_mostly_under_a_pawn_is_covered_when_what_shows_is_the_piece(reader):
    """A stack's top seen off its node (or two stacks and a marker) over most of a triangle's samples: the
    samples that show are land, so the triangle is covered and its piece found (it was lost, and the tribe's
    node with it)."""
    label = _canvas(reader)
    for t in ((0, 0, 0), (0, 0, 1)):
        _fill_tri(reader, label, t, 1)
    _disc(reader, label, (0, 0, 1), 3.9, 3)      # hides the triangle's middle samples, 3 of 7 still show land
    pieces, covered, unsure = reader._pieces(LAT, label, np.zeros(label.shape, F), [])
    assert [set(p["tris"]) for p in pieces] == [{(0, 0, 0), (0, 0, 1)}], unsure
    assert not unsure


def test_a_pawn_on_the_cloth_is_no_piece(reader):
    label = _canvas(reader)
    for t in ((0, 0, 0), (0, 0, 1)):
        _fill_tri(reader, label, t, 1)
    _disc(reader, label, (3, 0, 0), 6.0, 3)      # a pawn beyond the layout: nothing round it is a piece
    pieces, covered, _ = reader._pieces(LAT, label, np.zeros(label.shape, F), [])
    assert len(pieces) == 1 and (3, 0, 0) not in covered


def _noisy_lightness(reader, seed):
    """A print's lightness as the `hard` camera gives it on the canvas: 35, with a texture of noise correlated
    over a few pixels (paper, JPEG blocks) of standard deviation 1.3 (as measured on the bench's tables)."""
    x0, y0, x1, y1 = reader._play
    noise = cv2.GaussianBlur(np.random.default_rng(seed).normal(0, 1, (y1 - y0, x1 - x0)).astype(F), (0, 0), 1.5)
    return (35 + noise * (1.3 / noise.std())).astype(F)


def _add_gap(reader, L, y_mm, x_mm=(100.0, 130.0), depth=3.5):
    """A gap along a side at ``y_mm``: cloth between two dark cut edges, blurred by the camera into a dip of
    ``depth`` in lightness, 0.75 mm sigma (a beige cloth at `hard`: its light and the dark cut edges nearly cancel,
    the median dip measured on the bench's seed-2 table 0 is 3.7)."""
    x0, y0 = reader._play[:2]
    yy = (np.arange(L.shape[0]) + y0) / reader.s
    dip = (-depth * np.exp(-0.5 * ((yy - y_mm) / 0.75) ** 2)).astype(F)
    L[:, int(x_mm[0] * reader.s) - x0:int(x_mm[1] * reader.s) - x0] += dip[:, None]
    return ((x_mm[0], y_mm), (x_mm[1], y_mm))


def _lines_measure_before(reader, L, a, b):
    """The measure before: the line image (black-hat and top-hat of the lightness) averaged along the side at each
    offset within 1.5 mm, the strongest offset."""
    lines = reader._lines(L, np.ones(L.shape, bool))
    along = np.linspace(0.15, 0.85, 13)
    d = b - a
    n = np.stack([-d[:, 1], d[:, 0]], 1) / np.linalg.norm(d, axis=1, keepdims=True)
    pts = (a[:, None, None, :] + along[None, :, None, None] * d[:, None, None, :]
           + np.arange(-1.5, 1.51, 0.5)[None, None, :, None] * n[:, None, None, :])
    return reader._at(lines, pts).mean(axis=1).max(axis=1)


@pytest.mark.parametrize("seed", [0, 3])
def test_a_faint_gap_is_told_from_a_pieces_middle_on_the_lightness_profile(reader, seed):
    """20 faint gaps (a dip of 3.5 under the blur) and 20 sides inside a piece, in a print's noisy texture: the
    lightness averaged along each side, then its dip across, tells every gap from every piece's middle by a margin.
    The line image (each pixel's black-hat first, then averaged) rectifies the noise, which keeps its mean: there
    the weakest gap shows no more than the strongest piece's middle (seed 2 at `hard`: 38 pieces paired across
    their gaps)."""
    L = _noisy_lightness(reader, seed)
    gaps = [_add_gap(reader, L, 80.0 + 25 * k) for k in range(20)]
    inner = [((200.0, 80.0 + 25 * k), (230.0, 80.0 + 25 * k)) for k in range(20)]
    ga, gb = (np.array([g[i] for g in gaps]) for i in (0, 1))
    ia, ib = (np.array([g[i] for g in inner]) for i in (0, 1))
    g, i = reader._line_along(L, ga, gb), reader._line_along(L, ia, ib)
    assert g.min() > i.max() + 0.5, (g.min(), i.max())
    bg, bi = _lines_measure_before(reader, L, ga, gb), _lines_measure_before(reader, L, ia, ib)
    assert bg.min() < bi.max(), (bg.min(), bi.max())


def test_a_step_between_two_prints_of_other_tones_is_no_gap(reader):
    """A step in lightness (the edge of a shadow or of the light, a print a little darker than the next) is not the
    line a gap draws: neither a dip below the darker side nor a rise above the lighter. Measured against the mean
    of the two sides, a step of 4 would read as a gap of 2."""
    L = _noisy_lightness(reader, 5)
    x0, y0 = reader._play[:2]
    L[int(100 * reader.s) - y0:, :] += 4.0
    step = reader._line_along(L, np.array([[100.0, 100.0]]), np.array([[130.0, 100.0]]))[0]
    gap = _add_gap(reader, L, 200.0)
    dip = reader._line_along(L, np.array([gap[0]]), np.array([gap[1]]))[0]
    assert step < 1.0 < dip, (step, dip)


@pytest.mark.parametrize("seed", [0, 2])
def test_a_thin_light_gap_under_a_step_of_the_light_is_seen_by_the_line_image(reader, seed):
    """A thin light gap between two dark cut edges (a ripple whose mean is nothing) on a step of the light across
    the side (seed 1 table 2 at `default`: beige cloth, 0.62 mm gaps): the lightness profile's dip against its
    sides is none, on the gap as on the step alone; the line image's mean along the side (each pixel's black-hat
    and top-hat) adds what tells them apart."""
    L = _noisy_lightness(reader, seed)
    x0, y0 = reader._play[:2]
    yy = (np.arange(L.shape[0]) + y0) / reader.s
    gaps, steps = [], []
    for k in range(10):
        y = 80.0 + 40 * k
        g = lambda mu: np.exp(-0.5 * ((yy - y - mu) / 0.35) ** 2)   # noqa: E731
        step = 4.5 * np.tanh((yy - y) / 1.5)
        band = np.abs(yy - y) < 12
        L[band, int(100 * reader.s) - x0:int(130 * reader.s) - x0] += (step + 5 * g(0) - 2.5 * g(0.6) - 2.5 * g(-0.6)
                                                                      )[band][:, None].astype(F)
        L[band, int(200 * reader.s) - x0:int(230 * reader.s) - x0] += step[band][:, None].astype(F)
        gaps.append(((100.0, y), (130.0, y)))
        steps.append(((200.0, y), (230.0, y)))
    ga, gb = (np.array([g[i] for g in gaps]) for i in (0, 1))
    sa, sb = (np.array([g[i] for g in steps]) for i in (0, 1))
    # the profile alone does not tell every gap from the steps (its dip on a ripple is none, but for the noise)
    assert reader._line_along(L, ga, gb).min() < reader._line_along(L, sa, sb).max() + 0.5
    lines = reader._lines(L, np.ones(L.shape, bool))
    g, st = reader._line_along(L, ga, gb, lines), reader._line_along(L, sa, sb, lines)
    assert g.min() > st.max() + 0.5, (g.min(), st.max())


def _row(n):
    """A row of 2n triangles t0..t(2n-1), neighbours in a chain; pieces (t0 t1) (t2 t3) ... paired, with weak
    lines inside them (1) and strong gaps between them (9)."""
    tris = [(k, 0, 0) for k in range(2 * n)]
    by = {t: [] for t in tris}
    pairs, gap = [], []
    for k in range(2 * n - 1):
        g = 1.0 if k % 2 == 0 else 9.0
        by[tris[k]].append((g, tris[k + 1]))
        by[tris[k + 1]].append((g, tris[k]))
        pairs.append((tris[k], tris[k + 1], None))
        gap.append(g)
    mate = {}
    for k in range(0, 2 * n, 2):
        mate[tris[k]], mate[tris[k + 1]] = tris[k + 1], tris[k]
    return tris, by, mate, pairs, np.array(gap)


def test_a_lone_triangle_does_not_re_pair_a_chain_of_pieces_across_their_gaps():
    """A triangle whose other half lies beyond the play area (or is hidden) next to a row of pieces: the shortest
    alternating path to another lone one swapped every pair along the row, each across a clear gap."""
    tris, by, mate, pairs, gap = _row(3)
    lone, far = (-1, 0, 0), (6, 0, 0)          # alone at both ends of the row
    by[lone] = [(9.0, tris[0])]
    by[tris[0]].append((9.0, lone))
    by[far] = [(9.0, tris[-1])]
    by[tris[-1]].append((9.0, far))
    limit = _gap_limit(mate, pairs, gap)
    assert 1.0 < limit < 9.0
    before = dict(mate)
    _augment(mate, by, limit)
    assert mate == before and lone not in mate and far not in mate


def test_a_wrong_early_pair_is_still_undone_across_weak_lines():
    """What the augmenting path is for: two triangles left alone by an early wrong pair whose own line was weak."""
    a, b, c, d = (0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)
    by = {a: [(1.0, b)], b: [(1.0, a), (1.5, c)], c: [(1.5, b), (1.0, d)], d: [(1.0, c)]}
    mate = {b: c, c: b}                          # paired first; a and d left alone
    _augment(mate, by, 4.0)
    assert mate == {a: b, b: a, c: d, d: c}


def test_the_simulated_table_centres_the_layout_as_laid():
    """The scene puts the middle of the layout's extent, turned as laid, on the play area's middle: the middle of
    the unturned extent, turned, is not it (a long layout turned 40 degrees ran over the play area's edge)."""
    from vision.sim.sundatable import SundaScene, _piece_corners, unit_xy

    # an L: a row of pieces and a column from its end (a shape symmetric about its middle hides the bug)
    pieces = [{"q": q, "r": 0, "turn": 0, "sides": "WWW WWW WWW WWW"} for q in range(0, 14)]
    pieces += [{"q": 0, "r": r, "turn": 0, "sides": "WWW WWW WWW WWW"} for r in range(1, 8)]
    mat = Mat.default()
    for angle in (0.0, 40.0, 75.0, 130.0):
        scene = SundaScene({"pieces": pieces}, {}, mat, angle_deg=angle)
        pts = scene.lattice_to_mat(np.array([unit_xy(*c) for c in _piece_corners(scene.position)]))
        mid = (pts.min(axis=0) + pts.max(axis=0)) / 2
        assert np.allclose(mid, mat.play_centre_mm, atol=1e-6), (angle, mid)
