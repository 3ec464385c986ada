"""A figure standing near its tile's edge is named on its own tile and region, however it leans in the picture.

Seen through the mat's homography a standing figure's picture leans away from the camera's nadir (its top
lands several millimetres beyond its base, see ``vision/standing.py``). A figure 3-8 mm from its tile's edge on
the side away from the nadir then shows mostly over the next tile; the recogniser reported it there (missed on
its tile, a phantom on the neighbour: issue 14, the bench's ``field/hard`` rows). Its base, the end of its picture
nearest the nadir, is where it stands.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from vision.standing import camera_nadir, standing_point

COLOURS = ("red", "blue", "green", "yellow", "black")


def _pose(tilt: float, azimuth: float, hfov: float = 90.0):
    from vision.mat import Mat
    from vision.sim import CameraModel, place_camera

    mat = Mat.default()
    cam = CameraModel(hfov_deg=hfov, tilt_deg=tilt, tilt_azimuth_deg=azimuth, roll_deg=-5.0, shift_mm=(-20.0, 12.0))
    return place_camera(cam, (mat.width_mm, mat.height_mm), (1920, 1080))


@pytest.mark.parametrize("tilt, azimuth", [(0.0, 0.0), (9.0, 40.0), (16.0, 200.0), (14.0, 300.0)])
def test_the_nadir_and_the_height_of_the_camera_come_from_the_mats_homography(tilt, azimuth):
    pose = _pose(tilt, azimuth)
    H = np.linalg.inv(pose.mat_to_undistorted())        # undistorted image pixels -> mat mm, as the rectifier fits
    cx, cy, cz = pose.centre_mm
    x, y, height = camera_nadir(H, pose.K, pose.size)
    assert math.hypot(x - cx, y - cy) < 0.5 and abs(height + cz) < 0.5
    # without a lens calibration: the principal point at the middle, the focal length from the homography (a
    # camera looking straight down does not tell it, and its nadir is then the middle of the frame anyway)
    x, y, height = camera_nadir(H, None, pose.size)
    assert math.hypot(x - cx, y - cy) < 5.0, (x, y, pose.centre_mm)
    assert tilt == 0 or abs(height + cz) < 10.0, (height, pose.centre_mm)


def test_a_leaning_picture_stands_at_its_end_nearest_the_nadir():
    """A figure drawn as a stack of slices, each shifted away from the nadir by its height's lean: its base is
    found within a pixel and a half, wherever the nadir lies; the picture's middle is 3.5 pixels off."""
    yy, xx = np.mgrid[0:80, 0:80]
    for angle in np.radians([0, 35, 90, 160, 250, 330]):
        d = np.array([math.cos(angle), math.sin(angle)])
        base = np.array([40.0, 40.0]) - 6 * d
        nadir = base - 300 * d
        mask = np.zeros((80, 80), bool)
        for z in np.linspace(0, 1, 12):            # 12 px of lean from foot to head, a 6 px foot
            c = base + 12 * z * d
            mask |= (xx - c[0]) ** 2 + (yy - c[1]) ** 2 <= (6.0 - 3 * z) ** 2
        x, y, clipped = standing_point(mask, tuple(nadir), 6.0)
        assert math.hypot(x - base[0], y - base[1]) < 1.5 and not clipped
        assert math.hypot(xx[mask].mean() - base[0], yy[mask].mean() - base[1]) > 3


MEEPLE = [(0.0, 7.0, 3.8), (3.0, 6.8, 3.6), (6.0, 4.6, 3.4), (9.0, 8.0, 3.2), (11.5, 7.6, 3.0), (13.0, 3.3, 3.0),
          (15.5, 3.0, 2.8), (17.0, 2.4, 2.3)]
"""A wooden figure as horizontal slices: height, half width along its body, half depth (mm): legs, hips, arms,
shoulders, head."""


def _turned_figure(yaw: float, dist_mm: float, height_mm: float, d: np.ndarray, mm_px: float = 1.88):
    """The picture (a mask at the figure finder's scale, about 1.9 mm a pixel) of a figure turned by ``yaw``
    standing ``dist_mm`` from the nadir of a camera ``height_mm`` up, along ``d``; its base and the nadir in
    pixels."""
    import cv2

    size, ss = 60, 8
    img = np.zeros((size * ss, size * ss), np.uint8)
    base = np.array([size / 2, size / 2]) * mm_px
    along = np.array([math.cos(yaw), math.sin(yaw)])
    for z, hw, hd in MEEPLE:
        c = base + d * dist_mm * z / (height_mm - z)
        a, b = (c - (hw - hd) * along) / mm_px * ss, (c + (hw - hd) * along) / mm_px * ss
        cv2.line(img, tuple(int(v) for v in a), tuple(int(v) for v in b), 255, max(1, int(2 * hd / mm_px * ss)))
    mask = cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA) > 127
    base_px = base / mm_px - 0.5
    return mask, base_px, base_px - d * dist_mm / mm_px


def test_the_base_along_the_lean_does_not_depend_on_how_the_figure_is_turned():
    """A figure's foot reaches 4 to 8 mm from its middle towards the nadir as it is turned, so its picture's near
    end plus a fixed half foot errs by up to 2-3 mm with the turn; with the camera's height the picture's middle
    taken back by the lean of the figure's middle height is a second estimate that does not depend on the turn.
    Over 12 turns, 4 directions, 3 distances and 2 camera heights the base's error along the lean spreads less
    (before: sd 0.93 mm, up to 2.2 mm; mean +0.5 mm)."""
    from vision.standing import FOOT_MM

    mm_px = 1.88
    errors = {None: [], "height": []}
    for cam_h in (600.0, 800.0):
        for dist in (150.0, 300.0, 450.0):
            for angle in np.radians([10, 100, 200, 290]):
                d = np.array([math.cos(angle), math.sin(angle)])
                for yaw in np.radians(np.arange(0, 180, 15)):
                    mask, base, nadir = _turned_figure(yaw, dist, cam_h, d, mm_px)
                    for key, h in ((None, None), ("height", cam_h)):
                        x, y, _ = standing_point(mask, tuple(nadir), FOOT_MM / mm_px, h)
                        errors[key].append(((x - base[0]) * d[0] + (y - base[1]) * d[1]) * mm_px)
    fixed, both = np.array(errors[None]), np.array(errors["height"])
    assert both.std() < 0.7 * fixed.std(), (both.std(), fixed.std())
    assert np.abs(both).max() < np.abs(fixed).max(), (np.abs(both).max(), np.abs(fixed).max())
    assert abs(both.mean()) < 0.5, both.mean()


# --------------------------------------------------------------------------- rendered tables


@pytest.fixture(scope="module")
def field_hard(neuesland_scans):
    """Neues Land enrolled on the bench's ``field`` camera at ``hard``: a 95 degree lens tilted 14 degrees, warm or
    magenta light, an olive cloth, JPEG 50 (see ``tablehub bench vision --camera field``)."""
    from tests.vision.conftest import BENCH
    from vision.enroll import enrol_simulated

    setup = BENCH.game_setup("neuesland", neuesland_scans)
    refs, colours, lens = enrol_simulated(setup.catalog_path, setup.art, BENCH.enrolment_camera("hard", "field"),
                                          np.random.default_rng(77), size=BENCH.SIZE, geometry=setup.geometry,
                                          mat_colour=BENCH.mat_colour_of("field"))
    return setup, refs, colours, lens


def leaning_board(setup, seed: int, edge_mm: float, figures: int = 8, far_mm: float = 200.0, beyond: str = "tile"):
    """A bench board on the field camera with its tilt turned to ``seed``'s azimuth, and figures standing
    ``edge_mm`` from their tile's edge on the side away from the camera's nadir, on tiles at least ``far_mm`` from
    the nadir, with a tile beyond that edge (the picture leans over it; ``beyond="mat"``: the bare mat), each on a
    region of its tile, anywhere along the edge but its corners."""
    from tests.vision.conftest import BENCH
    from vision.geometry import rotate_uv
    from vision.mat import Mat
    from vision.sim import SceneFigure, place_camera

    mat = Mat.default()
    rng = np.random.default_rng(seed)
    _, lattice = BENCH.first_frame(setup.catalog, rng, mat)
    cam = BENCH.camera_of("field", "hard").with_(tilt_azimuth_deg=float(rng.uniform(0, 360)), pose_jitter_deg=0.0)
    nadir = place_camera(cam, (mat.width_mm, mat.height_mm), BENCH.SIZE, np.random.default_rng(0)).centre_mm[:2]
    scene = BENCH.random_board(setup.catalog, setup.geometry, rng, 60, 0, 1.5, lattice=lattice)
    scene.mat_colour = BENCH.mat_colour_of("field")
    cells = {(t.x, t.y) for t in scene.tiles}
    T = mat.tile_mm
    used: set = set()
    for t in scene.tiles:
        away = np.array(scene.cell_centre_mm(t.x, t.y)) - nadir
        if np.linalg.norm(away) < far_mm:        # near the nadir a figure hardly leans
            continue
        side = (int(np.sign(away[0])), 0) if abs(away[0]) > abs(away[1]) else (0, int(np.sign(away[1])))
        next_cell = (t.x + side[0], t.y + side[1])
        if (next_cell in cells) != (beyond == "tile") or next_cell in used or (t.x, t.y) in used:
            continue
        regions = [r[0] for r in setup.geometry.regions(t.tile)]
        for region in rng.permutation(regions):
            pts = setup.true_regions.points_in(t.tile, str(region), 3.0 / T)
            ru, rv = rotate_uv(pts[:, 0], pts[:, 1], t.rotation)
            to_edge = {(1, 0): 1 - ru, (-1, 0): ru, (0, 1): 1 - rv, (0, -1): rv}[side] * T
            along = (rv if side[1] == 0 else ru) * T
            ok = (np.abs(to_edge - edge_mm) < 0.6) & (along > 10) & (along < T - 10)
            ok &= np.minimum(np.minimum(ru, 1 - ru), np.minimum(rv, 1 - rv)) * T >= edge_mm - 0.7
            if not ok.any():
                continue
            k = int(rng.choice(np.nonzero(ok)[0]))
            au, av = setup.true_regions.anchor(t.tile, str(region), t.rotation)
            colour = COLOURS[len(scene.figures) % len(COLOURS)]
            scene.figures.append(SceneFigure(t.x, t.y, colour, str(region), ((ru[k] - au) * T, (rv[k] - av) * T)))
            used |= {(t.x, t.y), next_cell}
            break
        if len(scene.figures) >= figures:
            break
    return scene, cam


@pytest.mark.shared
def test_figures_3_5_mm_from_a_seam_are_named_on_their_own_tile_and_region(field_hard):
    """Figures 3.5 mm from the edge facing away from the nadir (200 mm or more from it), in every colour, on a 95
    degree lens tilted 14 degrees: each named on its own tile and region, at most one on the tile it leans over."""
    from tests.vision.conftest import BENCH
    from vision.mat import Mat
    from vision.recognize import Recognizer
    from vision.rectify import Rectifier
    from vision.sim import render

    setup, refs, colours, lens = field_hard
    mat = Mat.default()
    rec = Recognizer(setup.catalog, refs, mat, geometry=setup.geometry, colours=colours,
                     rectifier=Rectifier(mat, lens=lens))
    right = total = 0
    wrong, leaning = [], []
    for seed in (301, 302, 303):
        scene, cam = leaning_board(setup, seed, 3.5)
        assert len(scene.figures) == 8, "the board has tiles enough for 8 figures at a seam"
        frame, truth = render(scene, setup.art, cam, np.random.default_rng(seed + 50), BENCH.SIZE,
                              geometry=setup.geometry, shapes=setup.true_regions)
        rec.rectifier.reset()
        obs = rec.observe(frame)
        got = [(f.x, f.y, f.colour, f.region) for f in obs.figures]
        for f in truth.figures:
            want = (f["x"], f["y"], f["color"], f["region"])
            total += 1
            if want in got:
                right += 1
                got.remove(want)
            else:
                wrong.append((seed, want))
        # a figure of a colour named on the next tile, where none of that colour stands: it leaned over there
        stands = {(f["x"], f["y"], f["color"]) for f in truth.figures}
        leaning += [(seed, g) for g in got if g[:3] not in stands and any(
            (g[0] + dx, g[1] + dy, g[2]) in stands for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))]
        wrong += [(seed, ("seen", g)) for g in got]
    # before (the middle of a figure's picture decided its tile): 21 of 24 right, 3 named on the next tile; now
    # 24 of 24 on OpenCV 5, and on the Pi's 4.11 one base found 3.5 mm off, on the next tile (the base is found
    # to 1-3 mm: a figure standing 3.5 mm from the seam is at that limit)
    assert len(leaning) <= 1, f"figures named on the tile their picture leans over: {leaning}"
    assert right >= total - 2, f"{right}/{total} figures at a seam right; wrong: {wrong}"
