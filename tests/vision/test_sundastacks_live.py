"""The live recognizer's tribe heights from its history, on rendered frames (tablehub/tracking/sundacam.py and
sundaheights.py): a table built one pawn at a time on the `default` simulated camera (noise, blur, JPEG, a light
drift between frames). Near the nadir no single frame tells a height; the history does where a pawn of another
colour went on top, and asks where one of the same colour did."""
from __future__ import annotations

import copy

import numpy as np
import pytest

from tablehub.games.sunda.playout import random_game
from tablehub.games.sunda.position import position_of
from tablehub.tracking.sundacam import SundaRecognizer
from vision.mat import Mat
from vision.sim.camera import NUISANCE
from vision.sim.sundatable import PAWN_COLOURS, enrolment_scene, random_scene, render_sunda
from vision.sunda import SundaReader, enrol

COLOURS = {"P1": "red", "P2": "yellow"}


def _at(tribes: list[dict], truth_stack: dict) -> dict:
    base = np.asarray(truth_stack["base_mm"])
    t = min(tribes, key=lambda t: float(np.linalg.norm(np.asarray(t["at_mm"]) - base)))
    assert np.linalg.norm(np.asarray(t["at_mm"]) - base) < 5.0
    return t


@pytest.fixture(scope="module")
def built():
    """Frames of one table: bare; A = P1; A = P1 P2; A and B = P1; B = P1 P1 (the same colour on top); the same
    again once the players logged it (the phone's answer); B = P1 P1 P2. Before each frame the recognizer is told
    the game as logged: the table of the frame before (``use_game``, as the tracker tells it), in the phase of the
    player who puts the frame's pawn on (frame 5 adds none: P1's phase with its pawn logged)."""
    rng = np.random.default_rng(5)
    game = random_game(2, 5, options={"tribes": True})
    pos = position_of(game, outlines=True)["position"]
    nodes = [(t["q"], t["r"]) for t in pos["tribes"]][:2]
    assert len(nodes) == 2
    scene = random_scene({**pos, "tribes": []}, COLOURS, rng)
    cam = NUISANCE["default"].with_(tilt_azimuth_deg=40.0, light_angle_deg=120.0, pose_jitter_deg=0.0)
    mat = Mat.default()
    ef, et = render_sunda(enrolment_scene(cloth_bgr=scene.cloth_bgr, table_bgr=scene.table_bgr), cam.other_session(), rng)
    reader = SundaReader(mat, enrol(ef, mat, PAWN_COLOURS, lens=et.lens()), lens=et.lens())
    recognizer = SundaRecognizer(reader)
    (qa, ra), (qb, rb) = nodes
    steps = [[], [(qa, ra, ["P1"])], [(qa, ra, ["P1", "P2"])], [(qa, ra, ["P1", "P2"]), (qb, rb, ["P1"])],
             [(qa, ra, ["P1", "P2"]), (qb, rb, ["P1", "P1"])], [(qa, ra, ["P1", "P2"]), (qb, rb, ["P1", "P1"])],
             [(qa, ra, ["P1", "P2"]), (qb, rb, ["P1", "P1", "P2"])]]
    # whose phase each frame is in, and whether its one pawn is logged already (the game's rules: PawnRules)
    phases = [(0, "pawn"), (0, None), (1, None), (0, None), (0, None), (0, "pawn"), (1, None)]
    out = []
    for k, step in enumerate(steps):
        logged = steps[k - 1] if k else []
        game.tribes = {(q, r): [int(p[1]) - 1 for p in pawns] for q, r, pawns in logged}
        game.current, game.claim = phases[k]
        game.pending, game.in_turn = None, 1
        game.supply = [24 - sum(p == i for v in game.tribes.values() for p in v) for i in (0, 1)]
        recognizer.use_game(game)
        now = copy.copy(scene)
        now.position = {**scene.position, "tribes": [{"q": q, "r": r, "pawns": p} for q, r, p in step]}
        frame, truth = render_sunda(now, cam, rng)
        out.append((recognizer(frame).observation["tribes"], truth))
    return out


def test_the_first_pawn_on_a_bare_node_is_known_as_one(built):
    tribes, truth = built[1]
    t = _at(tribes, truth.stacks[0])
    assert (t["height"], t["colours"], t["ask"]) == (1, ["red"], False)
    assert t["height_from"] in ("history", "camera")


def test_a_pawn_of_another_colour_on_top_makes_it_two(built):
    for k in (2, 3, 4):                       # and it stays known while other stacks change
        tribes, truth = built[k]
        a = [s for s in truth.stacks if s["pawns"] == ["P1", "P2"]][0]
        t = _at(tribes, a)
        assert (t["height"], t["colours"], t["ask"]) == (2, ["red", "yellow"], False), k


def test_a_pawn_of_the_same_colour_on_top_is_asked_never_guessed(built):
    tribes, truth = built[4]
    b = [s for s in truth.stacks if s["pawns"] == ["P1", "P1"]][0]
    t = _at(tribes, b)
    if t["height_from"] in ("camera", "step"):   # far enough from the nadir for the frame, or the top's step
        assert (t["height"], t["colours"]) == (2, ["red", "red"])
    else:
        assert t["ask"] and t["height"] is None and t["candidates"][:2] == [2, 1]


def test_once_logged_it_is_known_and_grows_by_the_next_colour(built):
    for k, want in ((5, ["red", "red"]), (6, ["red", "red", "yellow"])):
        tribes, truth = built[k]
        b = [s for s in truth.stacks if s["pawns"][:2] == ["P1", "P1"]][0]
        t = _at(tribes, b)
        assert (t["height"], t["colours"], t["ask"]) == (len(want), want, False), k
        assert t["height_from"] in ("history", "camera", "step")
