"""Resource markers on a rendered Sunda table (vision.sundamarkers): enrolled from one photo, found on the islands
by colour, told from pawns of the same paint by size and shape, placed at the tribe they follow."""
from __future__ import annotations

import numpy as np
import pytest

from tablehub.games.sunda.playout import random_game
from tablehub.games.sunda.position import position_of, score_position
from vision import VisionError
from vision.mat import Mat
from vision.sim.camera import NUISANCE
from vision.sim.sundatable import lattice_map, marker_enrolment_scene, random_scene, render_sunda
from vision.sundamarkers import MarkerFinder, enrol_markers
from tests.sunda_render import read_rendered

COLOURS = {"P1": "red", "P2": "yellow"}
OPTIONS = {"tribes": True, "resources": True}


@pytest.fixture(scope="module")
def table():
    rng = np.random.default_rng(5)
    cam = NUISANCE["default"].with_(tilt_azimuth_deg=40.0, light_angle_deg=300.0, pose_jitter_deg=0.0)
    game = next(g for g in (random_game(2, s, options=OPTIONS) for s in range(5, 40)) if len(g.markers) >= 3)
    pos = position_of(game, outlines=True)
    scene = random_scene(pos["position"], COLOURS, rng)
    _, truth, reading = read_rendered(scene, cam, rng, markers=True)
    return game, truth, reading


def test_every_marker_is_read_with_its_colour_at_its_tribe(table):
    game, truth, reading = table
    assert len(truth.markers) == len(game.markers) >= 3
    to_reader, _ = lattice_map(reading, truth)
    want = sorted((m["marker"], to_reader((m["q"], m["r"]))) for m in truth.markers)
    got = sorted((m.marker, (m.q, m.r)) for m in reading.markers)
    assert got == want


def test_the_reading_scores_with_its_markers_as_the_game(table):
    game, truth, reading = table
    to_reader, _ = lattice_map(reading, truth)
    true_at = {to_reader((s["q"], s["r"])): s["pawns"] for s in truth.stacks}
    players = {c: p for p, c in COLOURS.items()}
    data = reading.position(players, OPTIONS, {(t.q, t.r): true_at[(t.q, t.r)] for t in reading.tribes if t.ask})
    assert data["position"]["markers"]
    data["players"] = list(game.players)
    assert score_position(data, "reading").scores == game.scores()


def test_a_marker_missing_from_its_enrolment_photo_is_named():
    rng = np.random.default_rng(1)
    scene = marker_enrolment_scene()
    scene.loose_markers = tuple(m for m in scene.loose_markers if m[0] != "blue")
    frame, truth = render_sunda(scene, NUISANCE["clean"], rng)
    with pytest.raises(VisionError, match="no blue marker seen at its place"):
        enrol_markers(frame, Mat.default(), np.asarray(scene.cloth_bgr, np.float32), lens=truth.lens())


def test_a_marker_of_no_known_colour_is_refused_by_the_renderer():
    scene = marker_enrolment_scene()
    scene.position = {"pieces": [], "tribes": [], "markers": [{"marker": "teal", "q": 0, "r": 0}]}
    with pytest.raises(VisionError, match="no colour for marker 'teal'"):
        render_sunda(scene, NUISANCE["clean"], np.random.default_rng(0))


def _land_canvas(colours, markers, blur_px):
    """A canvas window of plain land (the enrolled land's colour) at 2 px/mm with markers drawn on it (their
    enrolled colours, a darker rim) and blurred as a camera does; returns the image."""
    import cv2

    from vision.sundamarkers import _bgr

    img = np.zeros((200, 200, 3), np.float32) + _bgr(colours.land)
    for colour, (x, y) in markers:
        c = _bgr(colours_markers()[colour])
        cv2.circle(img, (int(x * 2), int(y * 2)), 6, tuple(float(v) for v in c * 0.7), -1, cv2.LINE_AA)
        cv2.circle(img, (int(x * 2), int(y * 2)), 5, tuple(float(v) for v in c), -1, cv2.LINE_AA)
    return np.clip(cv2.GaussianBlur(img, (0, 0), blur_px), 0, 255).astype(np.uint8)


def colours_markers():
    """Marker colours (Lab) as enrolled from the simulated markers (vision.sim.art's paints)."""
    from vision.sim.art import PLAYER_COLOURS
    from vision.sundamarkers import MARKER_NAMES, _lab

    return {n: _lab(np.array([PLAYER_COLOURS[n]], np.float32))[0] for n in MARKER_NAMES}


def test_a_blurred_marker_is_named_by_its_core_and_each_colour_once():
    """Blur mixes a marker's rim with the green land round it: red reads orange and orange reads yellow when the
    whole blob's colour is taken. The marker's core names it, and each colour is one marker (the red and the
    orange side by side are not both orange)."""
    from types import SimpleNamespace

    from vision.sunda import SundaColours, _lab

    land = _lab(np.array([[78, 158, 118]], np.float32))[0]
    colours = SundaColours(land, _lab(np.array([[178, 138, 62]], np.float32))[0], np.array([72, 74, 78], np.float32),
                           {"red": colours_markers()["red"], "yellow": colours_markers()["yellow"]})
    finder = MarkerFinder(colours, colours_markers())
    img = _land_canvas(colours, [("red", (40.0, 50.0)), ("orange", (60.0, 50.0))], 2.6)
    lattice = SimpleNamespace(side_mm=30.0, to_lattice=lambda mm: np.array([[0.0, 0.0]]))
    tribe = SimpleNamespace(q=0, r=0, mat_mm=(50.0, 62.0))
    got = finder.find(img, np.ones(3, np.float32), np.array([72, 74, 78], np.float32), (0, 0), 2.0, lattice, [tribe])
    assert sorted(m.marker for m in got) == ["orange", "red"], (got, finder.rejected)


def _green_on_land(shape):
    """A green marker's paint on green land (within GROUND_CONTRAST of it under the simulated paints: the shades of
    the print come that near too), drawn as ``shape`` ("disc": a token 6 mm across with its darker rim; "patch": a
    streak 2.4 x 7 mm of the same colour, as a shade of the print is) near a tribe; returns what the finder took."""
    import cv2
    from types import SimpleNamespace

    from vision.sunda import SundaColours, _lab
    from vision.sundamarkers import GROUND_CONTRAST, L_WEIGHT, _bgr

    land = _lab(np.array([[78, 158, 118]], np.float32))[0]
    paints = colours_markers()
    assert np.linalg.norm((paints["green"] - land) * [L_WEIGHT, 1, 1]) < GROUND_CONTRAST + 2
    colours = SundaColours(land, _lab(np.array([[178, 138, 62]], np.float32))[0], np.array([72, 74, 78], np.float32),
                           {"red": paints["red"], "yellow": paints["yellow"]})
    finder = MarkerFinder(colours, paints)
    img = np.zeros((200, 200, 3), np.float32) + _bgr(land)
    c = _bgr(paints["green"])
    if shape == "disc":
        cv2.circle(img, (80, 100), 6, tuple(float(v) for v in c * 0.7), -1, cv2.LINE_AA)
        cv2.circle(img, (80, 100), 5, tuple(float(v) for v in c), -1, cv2.LINE_AA)
    else:
        cv2.ellipse(img, (80, 100), (5, 3), 30, 0, 360, tuple(float(v) for v in c), -1, cv2.LINE_AA)
    img = np.clip(cv2.GaussianBlur(img, (0, 0), 1.3), 0, 255).astype(np.uint8)
    lattice = SimpleNamespace(side_mm=30.0, to_lattice=lambda mm: np.array([[0.0, 0.0]]))
    tribe = SimpleNamespace(q=0, r=0, mat_mm=(50.0, 62.0))
    return finder.find(img, np.ones(3, np.float32), np.array([72, 74, 78], np.float32), (0, 0), 2.0, lattice,
                       [tribe]), finder.rejected


def test_a_green_marker_on_green_land_is_read_by_its_whole_disc():
    """Its colour is within GROUND_CONTRAST of the land (a shade of the print could be), but it shows a token's
    whole disc: it is read (it was left to the phone, on seed 2 even at `clean`)."""
    got, rejected = _green_on_land("disc")
    assert [m.marker for m in got] == ["green"], rejected


def test_a_patch_of_a_markers_colour_near_the_ground_is_no_marker():
    """The same colour as a streak (a shade of the print the light pushed towards green): no whole disc, not taken."""
    got, rejected = _green_on_land("patch")
    assert got == [], got
    assert [why for _, why in rejected] and all("whole disc" in why for _, why in rejected), rejected
