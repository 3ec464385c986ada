"""The simulated table draws a tribe as a real 3-D stack seen through the camera (vision/sim/sundatable.py).

Checked against the camera's own 3-D projection (``CameraPose.project`` of points above the mat, OpenCV's
``projectPoints``), not against the renderer's formula: a stack of five differently coloured pawns far from the
nadir on a clean camera at 4K (so that a pawn's side band is several pixels wide), with no lean and no hand error.

- a point on the **near side** of pawn ``k`` (the side facing the nadir), half way up it, shows pawn ``k``'s colour;
- a point on the **far side** of the lowest pawn is hidden: the pawns above it cover it;
- the **top face** is where its 3-D centre projects, and it is the top pawn's colour;
- the outline's near end is the base's near edge: it does not move with the height.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from vision.mat import Mat
from vision.sim.art import PLAYER_COLOURS
from vision.sim.camera import NUISANCE
from vision.sim.sundatable import PAWN_HEIGHT_MM, PAWN_MM, SundaScene, render_sunda

PAWNS = ["P1", "P2", "P3", "P2", "P1"]
COLOURS = {"P1": "red", "P2": "yellow", "P3": "purple"}


def _nearest(pix: np.ndarray) -> str:
    """The pawn colour a pixel shows, whatever its shade (a side is darker than the top)."""
    best, name = float("inf"), ""
    for n in set(COLOURS.values()):
        c = np.asarray(PLAYER_COLOURS[n], np.float64)
        s = float(np.clip(pix @ c / (c @ c), 0.3, 1.3))
        d = float(np.linalg.norm(pix - s * c))
        if d < best:
            best, name = d, n
    return name


@pytest.fixture(scope="module")
def far_stack():
    mat = Mat.default()
    cam = NUISANCE["clean"].with_(light_angle_deg=90.0)
    # a lone stack (no pieces: the cloth round it) near the play area's corner, some 250 mm from the nadir
    scene = SundaScene({"pieces": [], "tribes": [{"q": 0, "r": 0, "pawns": PAWNS}]}, COLOURS, mat,
                       origin_mm=(140.0, 170.0), pawn_jitter_mm=0.0, lean_mm=0.0)
    img, truth = render_sunda(scene, cam, np.random.default_rng(3), size=(3840, 2160), plane_ppm=6.0)
    return img, truth


def test_the_rendered_stack_stands_far_enough_from_the_nadir(far_stack):
    _, truth = far_stack
    base = np.asarray(truth.stacks[0]["base_mm"])
    d = float(np.linalg.norm(base - truth.pose.centre_mm[:2]))
    assert 200.0 < d < 320.0


def _geometry(truth):
    base = np.asarray(truth.stacks[0]["base_mm"])
    nadir = truth.pose.centre_mm[:2]
    u = (base - nadir) / np.linalg.norm(base - nadir)
    return base, u


def test_each_pawns_side_shows_on_the_near_side_in_its_colour(far_stack):
    img, truth = far_stack
    base, u = _geometry(truth)
    for k, owner in enumerate(PAWNS):
        z = (k + 0.5) * PAWN_HEIGHT_MM
        p = base - u * (PAWN_MM / 2 - 0.3)          # on the cylinder's surface, facing the nadir
        x, y = truth.pose.project(p[None], z_mm=-z)[0]
        pix = img[int(round(y)), int(round(x))].astype(np.float64)
        assert _nearest(pix) == COLOURS[owner], f"pawn {k} ({COLOURS[owner]}) side reads {pix}"


def test_the_lowest_pawns_far_side_is_hidden_by_the_pawns_above(far_stack):
    img, truth = far_stack
    base, u = _geometry(truth)
    p = base + u * (PAWN_MM / 2 - 0.3)
    x, y = truth.pose.project(p[None], z_mm=-0.5 * PAWN_HEIGHT_MM)[0]
    pix = img[int(round(y)), int(round(x))].astype(np.float64)
    assert _nearest(pix) != COLOURS[PAWNS[0]] or COLOURS[PAWNS[0]] == COLOURS[PAWNS[-1]]
    # ... and it is covered by a pawn, not by the cloth: the top's own colour or a side above it
    assert _nearest(pix) in {COLOURS[o] for o in PAWNS[1:]}


def test_the_top_face_lies_where_its_3d_centre_projects(far_stack):
    img, truth = far_stack
    base, u = _geometry(truth)
    z = len(PAWNS) * PAWN_HEIGHT_MM
    centre = truth.pose.project(base[None], z_mm=-z)[0]
    # the top pawn's colour, lit (the top face is the lightest of the stack): pixels within its projected radius
    edge = truth.pose.project((base + np.array([PAWN_MM / 2, 0.0]))[None], z_mm=-z)[0]
    rad = float(np.linalg.norm(edge - centre))
    top = np.asarray(PLAYER_COLOURS[COLOURS[PAWNS[-1]]], np.float64) + 8
    diff = np.linalg.norm(img.astype(np.float64) - top, axis=2)
    ys, xs = np.nonzero(diff < 18)
    assert len(xs) > 0.5 * math.pi * rad ** 2
    found = np.array([xs.mean(), ys.mean()])
    assert np.linalg.norm(found - centre) < 0.08 * rad, (found, centre)
    # and it is displaced outward from the base's image by the parallax, as the 3-D points say
    base_px = truth.pose.project(base[None], z_mm=0.0)[0]
    assert np.linalg.norm(found - base_px) > 0.6 * rad


def test_the_outlines_near_end_is_the_bases_near_edge(far_stack):
    img, truth = far_stack
    base, u = _geometry(truth)
    cloth = np.asarray(truth.pose.project(base[None] - u * (PAWN_MM / 2 + 1.5))[0])
    inside = np.asarray(truth.pose.project(base[None] - u * (PAWN_MM / 2 - 0.7))[0])
    c_pix = img[int(round(cloth[1])), int(round(cloth[0]))].astype(np.float64)
    i_pix = img[int(round(inside[1])), int(round(inside[0]))].astype(np.float64)
    assert _nearest(i_pix) == COLOURS[PAWNS[0]]
    assert np.linalg.norm(c_pix - i_pix) > 40          # just outside the base: the cloth, not a pawn
