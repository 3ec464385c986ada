"""Render a photo of the table: mat, tiles, figures, hands, seen through a :class:`CameraModel`.

The table is drawn top-down on a "plane" image in millimetres (wood, the mat and
its markers, tiles with shadows, figures leaning away from the camera as standing
things do), warped into the camera with the true homography and lens distortion,
then hands, lighting, colour cast, blur, noise and JPEG are applied in the image.

>>> from vision.sim import Scene, render, NUISANCE
>>> img, truth = render(Scene(), art=None, camera=NUISANCE["clean"], size=(640, 360))
>>> img.shape, sorted(truth.markers_hidden)
((360, 640, 3), [])
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

import cv2
import numpy as np

from .. import VisionError
from ..geometry import TileGeometry
from ..markers import draw_mat
from ..mat import Mat
from .art import PLAYER_COLOURS, TileArt
from .camera import NUISANCE, CameraModel, CameraPose, photograph, place_camera
from .scene import Scene, SceneFigure, SceneHand, SceneTile

FIGURE_HEIGHT_MM = 17.0
SKIN_TONES = [(150, 180, 225), (120, 155, 205), (95, 130, 185), (70, 100, 150), (55, 75, 115), (160, 190, 235)]


@dataclass
class RenderTruth:
    """What is really on the rendered table, and the exact camera.

    ``homography`` maps *undistorted* image pixels to mat mm (equal to the image when the
    camera has no distortion); :meth:`image_to_mat` and :meth:`mat_to_image` are exact
    for the distorted image. ``tiles`` are in grid coordinates (x, y, tile, rotation), each
    with where it lies on the mat (``centre_mm``, ``angle_deg``: the lattice's turn and its own);
    ``origin_mm`` and ``grid_angle_deg`` are the lattice's.
    """

    tiles: list[dict[str, Any]]
    figures: list[dict[str, Any]]
    homography: np.ndarray
    pose: CameraPose
    markers_hidden: list[int]
    hands: list[dict[str, Any]]
    light_angle_deg: float
    origin_mm: tuple[float, float]
    tile_mm: float
    grid_angle_deg: float = 0.0

    @property
    def camera_matrix(self) -> np.ndarray:
        return self.pose.K

    @property
    def dist_coeffs(self) -> np.ndarray:
        return self.pose.dist

    @property
    def image_size(self) -> tuple[int, int]:
        return self.pose.size

    def lens(self):
        """The rendered camera's :class:`vision.calibrate.LensCalibration` (what ChArUco would measure)."""
        from ..calibrate import LensCalibration

        return LensCalibration(self.pose.K.copy(), self.pose.dist.copy(), self.pose.size, rms_px=0.0)

    def image_to_mat(self, pts_px: np.ndarray) -> np.ndarray:
        return self.pose.image_to_mat(pts_px)

    def mat_to_image(self, pts_mm: np.ndarray, height_mm: float = 0.0) -> np.ndarray:
        return self.pose.project(pts_mm, -float(height_mm))

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly summary (tiles, figures, homography) for saving next to a rendered frame."""
        return {"tiles": [{k: t[k] for k in ("x", "y", "tile", "rotation")} for t in self.tiles],
                "figures": [{k: f[k] for k in ("x", "y", "color", "region")} for f in self.figures],
                "homography_image_to_mat": self.homography.tolist(),
                "camera_matrix": self.pose.K.tolist(), "dist_coeffs": self.pose.dist.tolist(),
                "markers_hidden": self.markers_hidden, "origin_mm": list(self.origin_mm), "tile_mm": self.tile_mm,
                "grid_angle_deg": self.grid_angle_deg}


# --------------------------------------------------------------------------- textures (cached)


@lru_cache(maxsize=4)
def _wood(w_mm: int, h_mm: int, colour: tuple[int, int, int], seed: int = 3) -> np.ndarray:
    """Wood table texture at 1 px/mm (float32 BGR)."""
    rng = np.random.default_rng(seed)
    ys, xs = np.mgrid[0:h_mm, 0:w_mm].astype(np.float32)
    warp = cv2.resize(rng.standard_normal((max(h_mm // 60, 2), max(w_mm // 200, 2))).astype(np.float32),
                      (w_mm, h_mm), interpolation=cv2.INTER_CUBIC)
    plank = (ys // 140).astype(np.int32)
    phase = rng.uniform(0, 100, 64).astype(np.float32)[plank % 64]
    grain = np.sin((ys + 6 * warp + phase) * (2 * np.pi / 7.0) + 0.002 * xs) * 0.5 + 0.5
    fine = cv2.GaussianBlur(rng.standard_normal((h_mm, w_mm)).astype(np.float32), (0, 0), 0.7, 3.0)
    tone = 0.9 + 0.08 * grain + 0.04 * fine + rng.uniform(-0.06, 0.06, 64).astype(np.float32)[plank % 64]
    seam = (ys % 140) < 1.2
    tone[seam] *= 0.55
    return np.clip(np.asarray(colour, np.float32)[None, None, :] * tone[..., None], 0, 255).astype(np.uint8)


@lru_cache(maxsize=4)
def _mat_image(mat: Mat, ppm: float, colour: tuple[int, int, int]) -> np.ndarray:
    outline = tuple(int(min(255, c * 1.45 + 20)) for c in colour)
    img = draw_mat(mat, ppm, colour=colour, outline=outline, grid=False).astype(np.float32)
    rng = np.random.default_rng(11)
    h, w = img.shape[:2]
    fabric = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.8)
    coarse = cv2.resize(rng.standard_normal((max(h // 40, 2), max(w // 40, 2))).astype(np.float32), (w, h),
                        interpolation=cv2.INTER_CUBIC)
    # texture only on the mat cloth, not on the printed white marker squares
    cloth = (np.abs(img - np.asarray(colour, np.float32)).sum(axis=2) < 1)[..., None]
    img *= np.where(cloth, (1 + 0.035 * fabric + 0.03 * coarse)[..., None], 1.0)
    return img


# --------------------------------------------------------------------------- the plane


@dataclass
class _Plane:
    img: np.ndarray          # float32 BGR
    ppm: float
    x0: float                # mm of pixel column 0
    y0: float

    @property
    def from_mat(self) -> np.ndarray:
        return np.array([[self.ppm, 0, -self.x0 * self.ppm], [0, self.ppm, -self.y0 * self.ppm], [0, 0, 1]])

    def px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return ((x_mm - self.x0) * self.ppm, (y_mm - self.y0) * self.ppm)


def _build_plane(scene: Scene, pose: CameraPose) -> _Plane:
    mat = scene.mat
    w, h = pose.size
    border = np.concatenate([np.column_stack([np.linspace(0, w - 1, 9), np.zeros(9)]),
                             np.column_stack([np.linspace(0, w - 1, 9), np.full(9, h - 1)]),
                             np.column_stack([np.zeros(9), np.linspace(0, h - 1, 9)]),
                             np.column_stack([np.full(9, w - 1), np.linspace(0, h - 1, 9)])])
    foot = pose.image_to_mat(border)
    lim = float(max(mat.width_mm, mat.height_mm))
    xmin = max(float(foot[:, 0].min()) - 20, -lim)
    xmax = min(float(foot[:, 0].max()) + 20, mat.width_mm + lim)
    ymin = max(float(foot[:, 1].min()) - 20, -lim)
    ymax = min(float(foot[:, 1].max()) + 20, mat.height_mm + lim)
    image_ppm = pose.K[0, 0] / float(-pose.centre_mm[2])
    ppm = float(np.clip(round(image_ppm * 1.3 * 4) / 4, 1.5, 4.0))
    x0 = math.floor(xmin * ppm) / ppm
    y0 = math.floor(ymin * ppm) / ppm
    pw, ph = int(math.ceil((xmax - x0) * ppm)), int(math.ceil((ymax - y0) * ppm))
    base = _plane_base(x0, y0, pw, ph, ppm, lim, mat, tuple(scene.mat_colour), tuple(scene.table_colour))
    return _Plane(base.copy(), ppm, x0, y0)


@lru_cache(maxsize=2)
def _plane_base(x0: float, y0: float, pw: int, ph: int, ppm: float, lim: float, mat: Mat,
                mat_colour: tuple[int, int, int], table_colour: tuple[int, int, int]) -> np.ndarray:
    """Wood and mat, top-down (float32); cached, since a camera on an arm sees the same plane every frame."""
    # one cached wood texture (1 px/mm) covering the mat and `lim` around it; crop and scale per frame
    wood = _wood(int(mat.width_mm + 2 * lim) + 2, int(mat.height_mm + 2 * lim) + 2, table_colour)
    A = np.float32([[1 / ppm, 0, x0 + lim], [0, 1 / ppm, y0 + lim]])
    img = cv2.warpAffine(wood, A, (pw, ph), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                         borderMode=cv2.BORDER_REFLECT).astype(np.float32)
    # the mat, pasted with pixel alignment (plane origin is on the mat's pixel grid)
    mimg = _mat_image(mat, ppm, mat_colour)
    _paste(img, mimg, int(round(-x0 * ppm)), int(round(-y0 * ppm)), shadow=True)
    img.setflags(write=False)
    return img


def _paste(dst: np.ndarray, src: np.ndarray, ox: int, oy: int, shadow: bool = False) -> None:
    h, w = src.shape[:2]
    H, W = dst.shape[:2]
    if shadow:  # the mat lies on the wood: a faint soft edge around it
        pad = 6
        sx0, sy0 = max(ox - pad, 0), max(oy - pad, 0)
        sx1, sy1 = min(ox + w + pad, W), min(oy + h + pad, H)
        if sx1 > sx0 and sy1 > sy0:
            dst[sy0:sy1, sx0:sx1] *= 0.8
    x0, y0 = max(ox, 0), max(oy, 0)
    x1, y1 = min(ox + w, W), min(oy + h, H)
    if x1 > x0 and y1 > y0:
        dst[y0:y1, x0:x1] = src[y0 - oy:y1 - oy, x0 - ox:x1 - ox]


# --------------------------------------------------------------------------- tiles and figures


def _tile_transform(scene: Scene, t) -> tuple[np.ndarray, tuple[float, float]]:
    """Centre of a scene tile in mm and the 2x2 rotation of its small turn on the mat (the lattice's turn
    and its own hand placement)."""
    (cx, cy), angle = scene.tile_pose(t)
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return rot, (cx, cy)


def _draw_tiles(scene: Scene, plane: _Plane, art: TileArt | None, shadow_dir: np.ndarray,
                geometry: TileGeometry | None) -> list[dict[str, Any]]:
    ppm = plane.ppm
    side_mm = scene.mat.tile_mm - 0.4
    n = max(8, int(round(side_mm * ppm)))
    truth = []
    shadow = np.zeros(plane.img.shape[:2], np.float32)
    placed = []
    bbox = None
    for t in scene.tiles:
        if t.rotation not in (0, 90, 180, 270):
            raise VisionError(f"scene: tile {t.tile} at ({t.x}, {t.y}): rotation must be 0/90/180/270, "
                              f"got {t.rotation}")
        rot, (cx, cy) = _tile_transform(scene, t)
        if art is not None:
            picture = np.ascontiguousarray(np.rot90(art.image(t.tile, n), k=-(t.rotation // 90)))
        else:
            picture = _plain_tile(geometry, t.tile, n, t.rotation)
        s = side_mm * ppm / n
        px, py = plane.px(cx, cy)
        c = (n - 1) / 2
        A = np.zeros((2, 3))
        A[:, :2] = rot * s
        A[:, 2] = np.array([px, py]) - A[:, :2] @ np.array([c, c])
        half = side_mm / 2 * ppm * 1.5 + 3
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * (side_mm / 2)
        quad = (corners @ rot.T + [cx, cy] - [plane.x0, plane.y0]) * ppm
        squad = quad + shadow_dir * 1.1 * ppm
        cv2.fillPoly(shadow, [np.round(squad * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        bbox = _grow(bbox, squad)
        placed.append((picture, A, px, py, half))
        truth.append({"x": t.x, "y": t.y, "tile": t.tile, "rotation": t.rotation, "centre_mm": (cx, cy),
                      "angle_deg": scene.grid_angle_deg + t.angle_deg})
    if placed:
        _apply_shadow(plane.img, shadow, sigma=1.0 * ppm, strength=0.55, bbox=bbox)
    for picture, A, px, py, half in placed:
        x0, y0 = max(int(px - half), 0), max(int(py - half), 0)
        x1, y1 = min(int(px + half) + 1, plane.img.shape[1]), min(int(py + half) + 1, plane.img.shape[0])
        if x1 <= x0 or y1 <= y0:
            continue
        B = A.copy()
        B[:, 2] -= [x0, y0]
        size = (x1 - x0, y1 - y0)
        rgba = np.dstack([picture.astype(np.float32), np.ones(picture.shape[:2], np.float32)])
        warped = cv2.warpAffine(rgba, B, size, flags=cv2.INTER_LINEAR)
        mask = warped[..., 3:4]
        roi = plane.img[y0:y1, x0:x1]
        roi *= 1 - mask
        roi += warped[..., :3]  # premultiplied: the picture was warped together with its mask
    return truth


def _plain_tile(geometry: TileGeometry | None, tile_id: str, n: int, rotation: int) -> np.ndarray:
    """Grey tile (when no art is given): terrains as grey levels, so geometry still shows."""
    img = np.full((n, n, 3), 190, np.uint8)
    if geometry is not None:
        labels = geometry.region_labels(tile_id, n, rotation)
        levels = np.array([120 + (37 * i) % 110 for i in range(labels.max() + 1)], np.uint8)
        img[:] = levels[labels][..., None]
    return img


def _apply_shadow(img: np.ndarray, mask: np.ndarray, sigma: float, strength: float,
                  bbox: tuple[float, float, float, float] | None = None) -> None:
    """Darken ``img`` under a blurred ``mask``; ``bbox`` (x0, y0, x1, y1 in pixels) bounds what was drawn."""
    if bbox is None:
        x, y, w, h = cv2.boundingRect((mask > 0).astype(np.uint8))
        if w == 0:
            return
        bbox = (x, y, x + w, y + h)
    pad = int(3 * sigma) + 2
    x0, y0 = max(int(bbox[0]) - pad, 0), max(int(bbox[1]) - pad, 0)
    x1, y1 = min(int(bbox[2]) + pad + 1, mask.shape[1]), min(int(bbox[3]) + pad + 1, mask.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    soft = cv2.GaussianBlur(mask[y0:y1, x0:x1], (0, 0), sigma)
    img[y0:y1, x0:x1] *= (1 - strength * np.clip(soft, 0, 1))[..., None]


def _grow(bbox, pts: np.ndarray):
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    if bbox is None:
        return (lo[0], lo[1], hi[0], hi[1])
    return (min(bbox[0], lo[0]), min(bbox[1], lo[1]), max(bbox[2], hi[0]), max(bbox[3], hi[1]))


def _figure_positions(scene: Scene, fig: SceneFigure, geometry: TileGeometry | None, tiles_at: dict,
                      rng: np.random.Generator, jitter_mm: float, shapes: Any = None
                      ) -> tuple[tuple[float, float], str | None]:
    """Mat mm where a figure stands, and its region id (None if not on a known region)."""
    tile = tiles_at.get((fig.x, fig.y))
    t = scene.mat.tile_mm
    if tile is None or fig.region is None:
        off = fig.offset_mm or (0.0, 0.0)
        region = None
        if tile is not None and geometry is not None:
            region = geometry.region_at(tile.tile, tile.rotation, 0.5, 0.5)
        # the cell's middle (where its tile lies, when it has one), moved along the lattice
        base = tile if tile is not None else SceneTile(fig.x, fig.y, "")
        return scene.tile_pose(SceneTile(base.x, base.y, "", 0, (base.offset_mm[0] + off[0],
                                                                  base.offset_mm[1] + off[1])))[0], region
    if geometry is None:
        raise VisionError("render: figures on regions need the tile geometry (pass geometry=TileGeometry(...))")
    region_id = geometry.regions(tile.tile)[geometry.region_index(tile.tile, fig.region)][0]
    # the region's true shape in the art when it is known (scans), else the slot model the art was drawn from
    where = shapes if shapes is not None else geometry
    u, v = where.anchor(tile.tile, region_id, tile.rotation)
    if fig.offset_mm is not None:
        du, dv = fig.offset_mm[0] / t, fig.offset_mm[1] / t
    else:
        reach = min(jitter_mm / t, 0.45 * where.anchor_clearance(tile.tile, region_id))
        a = rng.uniform(0, 2 * math.pi)
        r = reach * math.sqrt(rng.uniform(0, 1))
        du, dv = r * math.cos(a), r * math.sin(a)
    rot, (cx, cy) = _tile_transform(scene, tile)
    local = rot @ np.array([(u + du - 0.5) * t, (v + dv - 0.5) * t])
    return (cx + local[0], cy + local[1]), region_id


def _draw_figures(scene: Scene, plane: _Plane, pose: CameraPose, geometry: TileGeometry | None,
                  rng: np.random.Generator, shadow_dir: np.ndarray, jitter_mm: float, shapes: Any = None
                  ) -> list[dict[str, Any]]:
    tiles_at = {(t.x, t.y): t for t in scene.tiles}
    nadir = pose.centre_mm[:2]
    cam_h = float(-pose.centre_mm[2])
    ppm = plane.ppm
    shadow = np.zeros(plane.img.shape[:2], np.float32)
    jobs = []
    truth = []
    bbox = None
    for fig in scene.figures:
        colour = PLAYER_COLOURS.get(str(fig.color).lower())
        if colour is None:
            raise VisionError(f"scene: figure colour {fig.color!r} unknown (expected one of "
                              f"{', '.join(PLAYER_COLOURS)})")
        (bx, by), region = _figure_positions(scene, fig, geometry, tiles_at, rng, jitter_mm, shapes)
        yaw = rng.uniform(0, math.pi)
        height = 8.0 if fig.lying else FIGURE_HEIGHT_MM
        # a point at height z appears displaced away from the camera's nadir by z / (H - z)
        lean = (np.array([bx, by]) - nadir) / (cam_h - height)
        sx, sy = plane.px(bx + shadow_dir[0] * height * 0.35, by + shadow_dir[1] * height * 0.35)
        cv2.ellipse(shadow, (int(sx * 16), int(sy * 16)), (int(8.5 * ppm * 16), int(6 * ppm * 16)),
                    math.degrees(yaw), 0, 360, 1.0, -1, cv2.LINE_AA, 4)
        bbox = _grow(bbox, np.array([[sx - 9 * ppm, sy - 9 * ppm], [sx + 9 * ppm, sy + 9 * ppm]]))
        jobs.append((fig, colour, bx, by, yaw, height, lean))
        mid = pose.project(np.array([[bx, by]]), -height / 2)[0]
        truth.append({"x": fig.x, "y": fig.y, "color": fig.color, "region": region, "mat_mm": (bx, by),
                      "image_px": (float(mid[0]), float(mid[1]))})
    if jobs:
        _apply_shadow(plane.img, shadow, sigma=1.6 * ppm, strength=0.5, bbox=bbox)
    for fig, colour, bx, by, yaw, height, lean in jobs:
        _draw_meeple(plane, np.array([bx, by]), colour, yaw, height, lean, fig.lying)
    return truth


def _draw_meeple(plane: _Plane, base: np.ndarray, colour: tuple[int, int, int], yaw: float, height: float,
                 lean: np.ndarray, lying: bool) -> None:
    """A wooden figure seen from above: horizontal slices drawn bottom to top, each shifted by the lean."""
    ppm = plane.ppm
    ca, sa = math.cos(yaw), math.sin(yaw)
    base_col = np.asarray(colour, np.float64)
    if lying:  # flat meeple outline: (along, across) half sizes per slice
        slices = [(0.0, (8.5, 8.0, 0)), (3.0, (8.0, 7.5, 0)), (6.0, (7.2, 6.5, 0)), (8.0, (6.5, 5.5, 0))]
    else:  # legs, hips, arms, shoulders, head: (half width, half depth, head?)
        slices = [(0.0, (7.0, 3.8, 0)), (3.0, (6.8, 3.6, 0)), (6.0, (4.6, 3.4, 0)), (9.0, (8.0, 3.2, 0)),
                  (11.5, (7.6, 3.0, 0)), (13.0, (3.3, 3.0, 1)), (15.5, (3.0, 2.8, 1)), (17.0, (2.4, 2.3, 1))]
    for z, (hw, hd, head) in slices:
        z = min(z, height)
        cx, cy = plane.px(*(base + lean * z))
        shade = 0.55 + 0.45 * (z / height) ** 0.7
        col = tuple(float(c) for c in np.clip(base_col * shade + 12 * (z / height), 0, 255))
        if head or lying:
            cv2.ellipse(plane.img, (int(cx * 16), int(cy * 16)), (int(hw * ppm * 16), int(hd * ppm * 16)),
                        math.degrees(yaw), 0, 360, col, -1, cv2.LINE_AA, 4)
        else:  # a flat wooden figure seen from above: a slab with rounded ends (a stadium)
            reach = max(hw - hd, 0.0) * ppm
            a = (int((cx - ca * reach) * 16), int((cy - sa * reach) * 16))
            b = (int((cx + ca * reach) * 16), int((cy + sa * reach) * 16))
            cv2.line(plane.img, a, b, col, max(1, int(round(2 * hd * ppm))), cv2.LINE_AA, 4)
    # a soft highlight on top
    tx, ty = plane.px(*(base + lean * height))
    hi = tuple(float(c) for c in np.clip(base_col * 1.15 + 35, 0, 255))
    cv2.ellipse(plane.img, (int((tx - 0.6 * ppm * ca) * 16), int((ty - 0.6 * ppm * sa) * 16)),
                (int(1.2 * ppm * 16), int(1.0 * ppm * 16)), math.degrees(yaw), 0, 360, hi, -1, cv2.LINE_AA, 4)


# --------------------------------------------------------------------------- hands


def _hands(scene: Scene, rng: np.random.Generator) -> list[SceneHand]:
    if not isinstance(scene.hands, int):
        return list(scene.hands)
    out = []
    targets = [scene.cell_centre_mm(t.x, t.y) for t in scene.tiles]
    px, py, pw, ph = scene.mat.play_rect_mm
    for _ in range(scene.hands):
        if targets and rng.uniform() < 0.7:
            tx, ty = targets[int(rng.integers(len(targets)))]
            tx, ty = tx + rng.normal(0, 10), ty + rng.normal(0, 10)
        else:
            tx, ty = px + rng.uniform(0, pw), py + rng.uniform(0, ph)
        out.append(SceneHand(float(tx), float(ty), None))
    return out


def _draw_hands(img: np.ndarray, scene: Scene, pose: CameraPose, hands: list[SceneHand], rng: np.random.Generator,
                shadow_dir: np.ndarray) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """Draw arms reaching to each hand's target. Returns the hand coverage mask (float 0..1) and the hands."""
    h, w = img.shape[:2]
    cover = np.zeros((h, w), np.float32)
    info: list[dict[str, Any]] = []
    if not hands:
        return cover, info
    cam_h = float(-pose.centre_mm[2])
    scale = pose.K[0, 0] / (cam_h - 80.0)  # hands and arms are some cm above the table
    mcx, mcy = scene.mat.width_mm / 2, scene.mat.height_mm / 2
    layer = np.zeros((h, w, 3), np.float32)  # hand colours premultiplied by coverage
    q = 4  # shadows are very soft: compute them at quarter resolution
    for hand in hands:
        tip = pose.project(np.array([[hand.x_mm, hand.y_mm]]))[0]  # fingertips touch the table
        edge = hand.edge
        if edge is None:
            dx, dy = hand.x_mm - mcx, hand.y_mm - mcy
            edge = ("right" if dx > 0 else "left") if abs(dx) > abs(dy) else ("bottom" if dy > 0 else "top")
        if edge not in ("top", "bottom", "left", "right"):
            raise VisionError(f"scene: hand edge must be top, bottom, left or right, got {edge!r}")
        mask = _hand_mask((h, w), tip, edge, scale, rng)
        x, y, bw, bh = cv2.boundingRect(mask)
        if bw == 0 or bh == 0:
            continue
        x0, y0, x1, y1 = max(x - 2, 0), max(y - 2, 0), min(x + bw + 2, w), min(y + bh + 2, h)
        m = mask[y0:y1, x0:x1].astype(np.float32) / 255
        # rounded shading from the distance to the silhouette's edge
        dist = cv2.distanceTransform((mask[y0:y1, x0:x1] > 127).astype(np.uint8), cv2.DIST_L2, 3)
        shade = 0.62 + 0.38 * np.sqrt(np.clip(dist / (26 * scale), 0, 1))
        skin = np.asarray(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], np.float32)
        tone = skin[None, None, :] * shade[..., None]
        # shadow on the table: the silhouette shifted away from the light, very soft (quarter resolution)
        off = shadow_dir * 90 * scale
        sigma = 18 * scale + 1
        grow = int(3 * sigma + abs(off).max()) + q
        sx0, sy0 = max((x0 - grow) // q * q, 0), max((y0 - grow) // q * q, 0)
        sx1, sy1 = min(x1 + grow, w), min(y1 + grow, h)
        sw, shh = (sx1 - sx0) // q, (sy1 - sy0) // q
        if sw > 0 and shh > 0:
            sx1, sy1 = sx0 + sw * q, sy0 + shh * q
            small = cv2.resize(mask[sy0:sy1, sx0:sx1], (sw, shh), interpolation=cv2.INTER_AREA).astype(np.float32)
            small = cv2.warpAffine(small / 255, np.float32([[1, 0, off[0] / q], [0, 1, off[1] / q]]), (sw, shh))
            small = cv2.GaussianBlur(small, (0, 0), sigma / q)
            sh = cv2.resize(small, (sx1 - sx0, sy1 - sy0), interpolation=cv2.INTER_LINEAR)
            img[sy0:sy1, sx0:sx1] *= (1 - 0.38 * sh * (1 - cover[sy0:sy1, sx0:sx1]))[..., None]
        lroi = layer[y0:y1, x0:x1]
        lroi *= 1 - m[..., None]
        lroi += tone * m[..., None]
        np.maximum(cover[y0:y1, x0:x1], m, out=cover[y0:y1, x0:x1])
        info.append({"x_mm": hand.x_mm, "y_mm": hand.y_mm, "edge": edge})
    # hands are out of focus (closer to the lens): soften their edges, composite premultiplied
    x, y, bw, bh = cv2.boundingRect((cover > 0).astype(np.uint8))
    if bw and bh:
        x0, y0, x1, y1 = max(x - 8, 0), max(y - 8, 0), min(x + bw + 8, w), min(y + bh + 8, h)
        soft = cv2.GaussianBlur(cover[y0:y1, x0:x1], (0, 0), 1.5)
        lay = cv2.GaussianBlur(layer[y0:y1, x0:x1], (0, 0), 1.5)
        roi = img[y0:y1, x0:x1]
        roi *= (1 - soft)[..., None]
        roi += lay
    return cover, info


def _hand_mask(shape: tuple[int, int], tip: np.ndarray, edge: str, scale: float,
               rng: np.random.Generator) -> np.ndarray:
    """Silhouette (uint8) of an arm from ``edge`` with the fingertips at ``tip`` (pixels)."""
    h, w = shape
    lateral = rng.normal(0, 0.12)
    start = {"top": (tip[0] + lateral * w, -0.2 * h), "bottom": (tip[0] + lateral * w, 1.2 * h),
             "left": (-0.2 * w, tip[1] + lateral * h), "right": (1.2 * w, tip[1] + lateral * h)}[edge]
    d = np.asarray(tip, np.float64) - np.asarray(start)
    d /= max(float(np.linalg.norm(d)), 1e-6)
    nrm = np.array([-d[1], d[0]])
    mask = np.zeros((h, w), np.uint8)
    palm_c = tip - d * 95 * scale
    wrist = palm_c - d * 45 * scale
    cv2.line(mask, _ip(start), _ip(wrist), 255, max(1, int(75 * scale)), cv2.LINE_AA)
    cv2.ellipse(mask, _ip(palm_c), (int(48 * scale), int(43 * scale)), math.degrees(math.atan2(d[1], d[0])),
                0, 360, 255, -1, cv2.LINE_AA)
    spread = rng.uniform(0.6, 1.4)
    for k, off in enumerate((-27, -9, 9, 27)):
        length = (62, 72, 68, 55)[k] * rng.uniform(0.85, 1.05)
        root = palm_c + d * 30 * scale + nrm * off * scale
        fdir = d + nrm * off * spread / 260
        fdir /= np.linalg.norm(fdir)
        cv2.line(mask, _ip(root), _ip(root + fdir * length * scale), 255, max(1, int(17 * scale)), cv2.LINE_AA)
    side = 1 if rng.uniform() < 0.5 else -1
    thumb_root = palm_c + nrm * 40 * scale * side
    tdir = d * 0.6 + nrm * side * 0.8
    tdir /= np.linalg.norm(tdir)
    cv2.line(mask, _ip(thumb_root), _ip(thumb_root + tdir * 45 * scale), 255, max(1, int(20 * scale)), cv2.LINE_AA)
    return mask


def _ip(p: Sequence[float]) -> tuple[int, int]:
    return (int(round(float(p[0]))), int(round(float(p[1]))))


# --------------------------------------------------------------------------- the frame


@lru_cache(maxsize=2)
def _noise_pool(h: int, w: int) -> np.ndarray:
    """Gaussian noise slightly larger than a frame; frames take random crops of it (much cheaper)."""
    return np.random.default_rng(1234).standard_normal((h + 64, w + 64, 3), dtype=np.float32)


def _camera_effects(img: np.ndarray, cam: CameraModel, rng: np.random.Generator, light_angle: float) -> np.ndarray:
    h, w = img.shape[:2]
    gain = np.asarray(cam.colour_cast, np.float32) * cam.exposure
    if cam.cast_jitter:
        gain = gain * (1 + rng.normal(0, cam.cast_jitter, 3)).astype(np.float32)
    if cam.light_gradient or cam.vignette:
        ys = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
        xs = np.linspace(-1, 1, w, dtype=np.float32)[None, :] * (w / h)
        field = np.ones((h, w), np.float32)
        if cam.light_gradient:
            a = math.radians(light_angle)
            field += cam.light_gradient * 0.5 * (xs * math.cos(a) + ys * math.sin(a)) / (w / h)
        if cam.vignette:
            field -= cam.vignette * (xs ** 2 + ys ** 2) / ((w / h) ** 2 + 1)
        img *= field[..., None]
    img *= gain[None, None, :]
    if cam.blur_sigma > 0:
        img = cv2.GaussianBlur(img, (0, 0), cam.blur_sigma)
    if cam.noise_sigma > 0 or cam.shot_noise > 0:
        pool = _noise_pool(h, w)
        oy, ox = int(rng.integers(0, 64)), int(rng.integers(0, 64))
        noise = pool[oy:oy + h, ox:ox + w]
        if rng.uniform() < 0.5:
            noise = -noise
        sigma = cam.noise_sigma + cam.shot_noise * np.sqrt(np.clip(img, 0, 255))
        img += noise * sigma
    out = cv2.convertScaleAbs(cv2.threshold(img, 0, 0, cv2.THRESH_TOZERO)[1])  # clip to 0..255, fast
    if cam.jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(cam.jpeg_quality)])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def render(scene: Scene, art: TileArt | None = None, camera: CameraModel | str = "default",
           rng: np.random.Generator | None = None, size: tuple[int, int] = (1920, 1080),
           geometry: TileGeometry | None = None, figure_jitter_mm: float = 2.0,
           shapes: Any = None) -> tuple[np.ndarray, RenderTruth]:
    """Render ``scene`` as a camera photo. Returns ``(bgr_image, truth)``.

    ``camera`` is a :class:`CameraModel` or a :data:`NUISANCE` preset name. ``geometry``
    (needed for figures on regions) defaults to ``art.geometry`` when the art has one. ``shapes``
    (a :class:`vision.regionmap.RegionMaps` of the art, e.g. segmented scans) puts a figure on a region
    at the deepest point of the region's true shape in the art (and its ``offset_mm`` from there); without
    it, at the slot model's anchor, which on scanned art can lie on another region.
    """
    if isinstance(camera, str):
        if camera not in NUISANCE:
            raise VisionError(f"camera: unknown nuisance preset {camera!r} (expected {', '.join(NUISANCE)})")
        camera = NUISANCE[camera]
    rng = rng if rng is not None else np.random.default_rng(0)
    geometry = geometry if geometry is not None else getattr(art, "geometry", None)
    pose = place_camera(camera, (scene.mat.width_mm, scene.mat.height_mm), size, rng)
    light_angle = camera.light_angle_deg if camera.light_angle_deg is not None else float(rng.uniform(0, 360))
    a = math.radians(light_angle)
    shadow_dir = -np.array([math.cos(a), math.sin(a)])  # shadows fall away from the bright side
    plane = _build_plane(scene, pose)
    tiles = _draw_tiles(scene, plane, art, shadow_dir, geometry)
    figures = _draw_figures(scene, plane, pose, geometry, rng, shadow_dir, figure_jitter_mm, shapes)
    img = photograph(plane.img, plane.from_mat, pose)
    hands = _hands(scene, rng)
    cover, hand_info = _draw_hands(img, scene, pose, hands, rng, shadow_dir)
    hidden = []
    for mid in scene.mat.marker_ids:
        quad = pose.project(np.array(scene.mat.marker_corners_mm(mid)))
        q = np.round(quad).astype(np.int32)
        m = np.zeros(cover.shape, np.uint8)
        cv2.fillConvexPoly(m, q, 1)
        inside = m.astype(bool)
        outside = bool((quad[:, 0] < 0).any() or (quad[:, 1] < 0).any() or (quad[:, 0] >= size[0]).any()
                       or (quad[:, 1] >= size[1]).any())
        if outside or not inside.any() or float((cover[inside] > 0.3).mean()) > 0.01:
            hidden.append(mid)
    out = _camera_effects(img, camera, rng, light_angle)
    Hinv = np.linalg.inv(pose.mat_to_undistorted())
    truth = RenderTruth(tiles=tiles, figures=figures, homography=Hinv / Hinv[2, 2], pose=pose,
                        markers_hidden=hidden, hands=hand_info, light_angle_deg=light_angle,
                        origin_mm=scene.origin, tile_mm=scene.mat.tile_mm, grid_angle_deg=scene.grid_angle_deg)
    return out, truth


def render_sheet(sheet: np.ndarray, ppm: float, camera: CameraModel | str = "clean",
                 rng: np.random.Generator | None = None, size: tuple[int, int] = (1920, 1080),
                 background: tuple[int, int, int] = (70, 110, 150)) -> tuple[np.ndarray, CameraPose]:
    """Photograph a flat printed sheet (e.g. a ChArUco board drawn at ``ppm`` px/mm) lying on a table.

    The camera is placed over the sheet as over a mat (``camera.fill``, ``tilt_deg``, ``shift_mm``
    apply to the sheet). Returns the image and the exact camera pose (sheet mm = world mm).
    """
    if isinstance(camera, str):
        camera = NUISANCE[camera]
    rng = rng if rng is not None else np.random.default_rng(0)
    if sheet.ndim == 2:
        sheet = cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR)
    h, w = sheet.shape[:2]
    pose = place_camera(camera, (w / ppm, h / ppm), size, rng)
    sheet_from_mat = np.array([[ppm, 0, 0], [0, ppm, 0], [0, 0, 1]], np.float64)
    img = photograph(sheet.astype(np.float32), sheet_from_mat, pose, prefilter=False, eight_bit=False,
                     border=cv2.BORDER_CONSTANT, border_value=background)
    light = camera.light_angle_deg if camera.light_angle_deg is not None else float(rng.uniform(0, 360))
    return _camera_effects(img, camera, rng, light), pose

