"""No black tribe where the cloth shows through a hole in the layout (issue 18; vision/sunda.py ``hole_share``).

A pawn stands on a node the pieces surround (the rules place it only on a formed node), so its top lies over the six
triangles round that node. At the `hard` camera's blur the edge of a brown cloth, seen through a lattice triangle no
piece covers (or round the layout), against the blue water reads a black pawn's paint, and with the cloth as its dark
rim was kept as a dark pawn: `tablehub bench sunda-vision --levels hard` read 6 extra pawns on seed 5, 4 on seed 2,
13 on seed 8. Such a blob lies along the uncovered triangle's sides; a true stack's never does."""
from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("cv2")

from vision.sunda import HOLE_REACH_MM, HOLE_SHARE, LatticePose, hole_share, tri_points  # noqa: E402

LAT = LatticePose((200.0, 150.0), 12.0, 30.0)


def _cloth(p: np.ndarray) -> np.ndarray:
    return np.ones(len(p), bool)        # every triangle no piece covers shows the cloth


def _paint(p: np.ndarray) -> np.ndarray:
    return np.zeros(len(p), bool)       # ... or none does (a stack hides it)


def _ring(q: int, r: int, rings: int) -> dict[tuple[int, int, int], int]:
    """The triangles with a corner within ``rings - 1`` lattice steps of node ``q, r`` covered (a piece index each):
    ``rings=1``, the six round the node."""
    near = {(q + a, r + b) for a in range(-rings + 1, rings) for b in range(-rings + 1, rings) if abs(a + b) < rings}
    out = {}
    for a in range(q - rings - 1, q + rings + 1):
        for b in range(r - rings - 1, r + rings + 1):
            for u in (0, 1):
                pts = tri_points(np.array([a]), np.array([b]), np.array([u]))[0]
                if any((int(x), int(y)) in near for x, y in pts):
                    out[(a, b, u)] = 0
    return out


def _disc(centre: np.ndarray, radius: float, step: float = 0.5) -> np.ndarray:
    g = np.arange(-radius, radius + step, step)
    xx, yy = np.meshgrid(g, g)
    keep = xx ** 2 + yy ** 2 <= radius ** 2
    return np.column_stack([xx[keep], yy[keep]]) + centre


def test_a_band_along_an_uncovered_triangle_is_the_cloths_edge():
    covered = _ring(0, 0, 3)
    hole = (0, 0, 1)
    del covered[hole]                       # one triangle no piece covers: the cloth shows through it
    a, b, c = LAT.to_mm(tri_points(np.array([0]), np.array([0]), np.array([1]))[0])
    # the blurred edge along one of its sides, on both sides of it (what read black at `hard`)
    t = np.linspace(0.2, 0.8, 40)[:, None]
    normal = np.array([-(b - a)[1], (b - a)[0]]) / np.linalg.norm(b - a)
    band = np.vstack([a + t * (b - a) + o * normal for o in np.linspace(-2.0, 2.0, 5)])
    assert hole_share(LAT, covered, band, _cloth) >= HOLE_SHARE
    assert hole_share(LAT, _ring(0, 0, 3), band, _cloth) == 0.0     # the same pixels with the triangle covered
    # read uncovered but showing no cloth (a tall stack leaning over the triangle hides it): no hole
    assert hole_share(LAT, covered, band, _paint) == 0.0


def test_a_pawns_top_on_a_formed_node_lies_over_the_pieces():
    covered = _ring(0, 0, 1)                # only the six triangles round node 0,0: the layout's edge one ring out
    assert len(covered) == 6
    node = LAT.to_mm(np.array([[0, 0]]))[0]
    assert hole_share(LAT, covered, _disc(node, 5.0), _cloth) == 0.0
    # a stack of five leaning out from the nadir: its top up to 13 mm off the node, still over the six triangles
    # (a side's height is 26 mm: the nearest uncovered triangle is farther than the top's reach plus HOLE_REACH_MM)
    for ang in np.linspace(0, 2 * math.pi, 12, endpoint=False):
        top = node + 13.0 * np.array([math.cos(ang), math.sin(ang)])
        assert hole_share(LAT, covered, _disc(top, 5.0), _cloth) < HOLE_SHARE
    assert 5.0 + 13.0 + HOLE_REACH_MM < 30.0 * math.sqrt(3) / 2


@pytest.mark.parametrize("seed, table", [(5, 2), (2, 4)])
def test_no_extra_pawn_by_the_holes_on_the_benchs_hard_tables(seed, table):
    """The bench's own tables (`tablehub bench sunda-vision --levels hard`): without the rule, three black tribes by
    the holes on seed 5 table 2 (two of them read incrementally too) and one on seed 2 table 4; every true stack is
    still found with its top from scratch (the incremental read of seed 5 table 2 loses a yellow stack with or
    without the rule: not this issue's)."""
    from benchmarks import sunda_vision as sv
    from vision.mat import Mat
    from vision.sim.sundatable import lattice_map

    names = ["P1", "P2"]
    t = sv.read_table("hard", seed, table, names, {p: sv.PAWN_COLOURS[i] for i, p in enumerate(names)}, Mat.default())
    for key in ("r1", "ri"):                # from scratch and incrementally
        to_reader, _ = lattice_map(t[key], t["truth"])
        want = {to_reader((st["q"], st["r"])): st["colours"][-1] for st in t["truth"].stacks}
        read = {(tr.q, tr.r): tr.top for tr in t[key].tribes}
        assert {k: v for k, v in read.items() if k not in want} == {}, key
        if key == "r1":
            assert {k: read.get(k) for k in want} == want
