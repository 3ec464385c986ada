"""A tribe's height from above (vision.sundastacks): the top's parallax against the base, decided with a margin.

Rendered stacks far from the nadir (their tops move about 2 mm a pawn) are read sure and right, near it
they are asked; the decision itself is checked on measured numbers.
"""
from __future__ import annotations

import numpy as np
import pytest

from tablehub.games.sunda.playout import random_game
from tablehub.games.sunda.position import position_of
from vision.mat import Mat
from vision.sim.camera import NUISANCE, place_camera
from vision.sim.sundatable import PAWN_COLOURS, enrolment_scene, lattice_map, piece_corners, random_scene, render_sunda
from vision.sunda import SundaReader, enrol
from vision.sundastacks import decide, expected

COLOURS = {"P1": "red", "P2": "yellow"}


def test_a_parallax_that_fits_one_height_well_is_taken():
    d, H = 450.0, 1000.0
    for n in range(1, 6):
        par, width = expected(d, n, H)
        height, cands, why, est, _ = decide(par + 0.2, width, d, H, 0.7)
        assert height == n, why
        assert cands[0] == n and abs(est - n) < 0.2


def test_a_parallax_between_two_heights_is_asked_with_both_first():
    d, H = 320.0, 1000.0
    a, b = expected(d, 2, H)[0], expected(d, 3, H)[0]
    height, cands, why, _, _ = decide((a + b) / 2, 10.1, d, H, 0.7)
    assert height is None and set(cands[:2]) == {2, 3} and "sigma apart" in why


def test_near_the_nadir_or_blurred_the_height_is_asked():
    H = 1000.0
    par, width = expected(15.0, 3, H)
    assert decide(par, width, 15.0, H, 0.7)[0] is None          # the top hardly moves
    par, width = expected(120.0, 3, H)
    assert decide(par, width, 120.0, H, 0.7)[0] is None          # 0.9 mm a pawn: too close to tell at this blur
    par, width = expected(320.0, 3, H)
    assert decide(par, width, 320.0, H, 4.0)[0] is None          # a very blurred edge: not sure either


@pytest.fixture(scope="module")
def far_stacks():
    """Stacks of 2 and 4 (one colour) and of 3 (yellow, red, yellow) on the land nodes farthest from the nadir of a
    camera tilted 20 degrees (otherwise clean): their tops move 2-3 mm a pawn."""
    rng = np.random.default_rng(21)
    game = random_game(2, 21, options={"tribes": True})
    pos = position_of(game, outlines=True)
    scene = random_scene(pos["position"], COLOURS, rng)
    cam = NUISANCE["clean"].with_(tilt_deg=20.0, tilt_azimuth_deg=30.0, light_angle_deg=100.0)
    mid = place_camera(cam, (Mat.default().width_mm, Mat.default().height_mm), (1920, 1080)).centre_mm[:2]
    # the layout laid off the middle, away from the nadir, as far as the play area allows (players lay it anywhere
    # on the mat; the simulated table centres it): the farthest nodes then lie farthest from the nadir
    from vision.sim.sundatable import _piece_corners, unit_xy
    pts = scene.lattice_to_mat(np.array([unit_xy(*c) for c in _piece_corners(scene.position)]))
    x, y, w, h = Mat.default().play_rect_mm
    away = (pts.mean(axis=0) - mid) / np.linalg.norm(pts.mean(axis=0) - mid)
    room = [((x + w - 5 - pts[:, i].max()) if away[i] > 0 else (pts[:, i].min() - x - 5)) / max(abs(away[i]), 1e-6)
            for i in range(2)]
    scene.origin_mm = tuple(np.asarray(scene.origin_mm) + away * max(0.0, min(room)))
    taken = {(t["q"], t["r"]) for t in scene.position["tribes"]}
    cand = {(q, r) for p in scene.position["pieces"] for q, r in piece_corners(p["q"], p["r"], p["turn"])
            if game.board.nodes.get((q, r)) is not None and game.board.nodes[(q, r)].kind == "land"}
    cand -= taken

    def mm(c):
        return scene.lattice_to_mat(np.array([[c[0] + c[1] / 2, c[1] * np.sqrt(3) / 2]]))[0]
    far = sorted(cand, key=lambda c: -np.linalg.norm(mm(c) - mid))
    chosen = []
    for c in far:            # apart from each other and from the other tribes
        if all(np.linalg.norm(mm(c) - mm(o)) > 40 for o in chosen + list(taken)):
            chosen.append(c)
        if len(chosen) == 3:
            break
    stacks = {chosen[0]: ["P1", "P1"], chosen[1]: ["P2"] * 4, chosen[2]: ["P2", "P1", "P2"]}
    scene.position = dict(scene.position)
    scene.position["tribes"] = list(scene.position["tribes"]) + [{"q": q, "r": r, "pawns": p}
                                                                 for (q, r), p in stacks.items()]
    ef, et = render_sunda(enrolment_scene(cloth_bgr=scene.cloth_bgr, table_bgr=scene.table_bgr),
                          cam.other_session(), rng)
    reader = SundaReader(Mat.default(), enrol(ef, Mat.default(), PAWN_COLOURS, lens=et.lens()), lens=et.lens())
    frame, truth = render_sunda(scene, cam, rng)
    reading = reader.read(frame)
    to_reader, _ = lattice_map(reading, truth)
    at = {(t.q, t.r): t for t in reading.tribes}
    return {c: (at.get(to_reader(c)), p) for c, p in stacks.items()}


def test_stacks_far_from_the_nadir_are_read_sure_and_right(far_stacks):
    for c, (t, pawns) in list(far_stacks.items())[:2]:
        assert t is not None, f"no tribe read at {c}"
        assert not t.ask, f"tribe at {c} ({len(pawns)} pawns) asked: candidates {t.candidates}"
        assert t.height == len(pawns)
        assert t.colours == [COLOURS[p] for p in pawns]


def test_a_mixed_stack_is_right_or_asked_never_wrong(far_stacks):
    t, pawns = list(far_stacks.values())[2]
    assert t is not None
    if not t.ask:
        assert t.height == 3 and t.colours == ["yellow", "red", "yellow"]
    else:
        assert 3 in t.candidates[:2]
