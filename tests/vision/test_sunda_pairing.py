"""How the Sunda camera pairs covered triangles into pieces (vision/sunda.py ``_pieces``, ``_augment``,
``_gap_limit``) on label and line images drawn by hand, and where the simulated table lays its layout
(vision/sim/sundatable.py ``centred_origin``): the causes of the pieces lost on the bench's tables with markers
and resources (docs/sunda.md, "Why the tables with resources read worse")."""
from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision.mat import Mat  # noqa: E402
from vision.sunda import LatticePose, SundaColours, SundaReader, _augment, _gap_limit, tri_points  # noqa: E402

F = np.float32
LAT = LatticePose((350.0, 350.0), 0.0, 30.0)


@pytest.fixture()
def reader():
    colours = SundaColours(np.array([60, -30, 40], F), np.array([60, -20, -20], F), np.array([70, 70, 70], F),
                           {"red": np.array([45, 60, 35], F)})
    r = SundaReader(Mat.default(), colours)
    r._win = r._play
    return r


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


def test_a_faint_gap_along_a_whole_side_outweighs_the_noise_peaks(reader):
    """A gap is a faint line along a whole side (strength 2.5 at `hard`, under the blur); the black-hat's noise
    peaks are stronger (9) but scattered (12 % of the pixels). Measured along the side before its strongest offset
    is taken, the gap shows clearly above a side with no gap; the median of each sample's strongest offset (the
    measure before) saw the peaks on both and could not tell them apart."""
    lines = np.zeros((1200, 1200), F)
    rng = np.random.default_rng(3)
    lines[:] = (rng.random(lines.shape) < 0.12) * 9.0
    gap_a, gap_b = np.array([[100.0, 100.0]]), np.array([[130.0, 100.0]])     # a side with a gap along it
    inner_a, inner_b = np.array([[100.0, 200.0]]), np.array([[130.0, 200.0]])  # a piece's own middle
    a, b = reader._px(gap_a), reader._px(gap_b)
    lines += cv2.line(np.zeros_like(lines), (int(round(a[0, 0])), int(round(a[0, 1]))),
                      (int(round(b[0, 0])), int(round(b[0, 1]))), 2.5, 1)
    gap = float(reader._line_along(lines, gap_a, gap_b)[0])
    inner = float(reader._line_along(lines, inner_a, inner_b)[0])
    assert gap > inner + 1.0, (gap, inner)
    # the measure before: each sample's strongest offset, the median along the side (the noise's peaks on both)
    def before(a, b):
        d = b - a
        n = np.array([-d[0, 1], d[0, 0]]) / np.linalg.norm(d)
        pts = (a[0] + np.linspace(0.2, 0.8, 7)[:, None, None] * d[0] + np.arange(-1.5, 1.51, 0.5)[None, :, None] * n)
        return float(np.median(reader._at(lines, pts).max(axis=1)))
    assert before(gap_a, gap_b) - before(inner_a, inner_b) < 1.0


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
