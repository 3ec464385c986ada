"""A Sunda to Sahul table through the simulated camera: rhombus pieces laid by hand, pawns and tribes.

The layout comes as data (a position as ``tablehub score`` reads it, with each piece's land
``outline`` in its own frame: ``tablehub.games.sunda.position.position_of(game, outlines=True)``);
nothing of the rules is used here. The world varies what a real table varies, not what the reader
assumes:

- the lattice lies anywhere on the mat at any angle (the first piece fixes it: ``origin_mm``,
  ``angle_deg``), ``side_mm`` long;
- every piece is laid by hand: its own offset (``offset_sigma_mm``) and turn (``turn_sigma_deg``)
  against the lattice, and the pieces are a little smaller than the lattice, so a thin gap of cloth
  (``gap_mm``, drawn per table) shows between them, with a darker cut edge;
- provisional art: water blue, land green, each piece's print a little lighter or darker, a fine
  paper texture;
- pawns are wooden cylinders (``PAWN_MM`` across, ``PAWN_HEIGHT_MM`` high) put near the node
  (``pawn_jitter_mm``), each pawn of a stack a little off the one below (``lean_mm``, sigma, per pawn;
  :func:`random_scene` draws 0.1-0.6 mm per table); a tribe is a stack, drawn as the camera sees it: every slice at height z
  moves away from the camera's nadir by z / (H - z) and grows by H / (H - z), so a stack's top is
  nearer the lens, bigger and displaced, and the sides of its pawns show on the side facing the
  nadir;
- the cloth (``cloth_bgr``) and the table's wood vary, and the frame goes through the same camera
  model as the tile games (``vision.sim.camera``: lens, tilt, light gradient, vignette, colour
  cast, noise, blur, JPEG).

- resource markers (``position["markers"]``: the marker's colour and the node of the tribe it followed) are
  flat tokens, provisional look: a disc ``MARKER_MM`` across in its colour (:data:`MARKER_COLOURS`, the paints
  of the pawns where the names are the same), a darker edge; laid by hand on the island 11-17 mm from the node
  in any direction, on land, clear of the stacks and of each other (a marker never stands under a stack).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping, Sequence

import cv2
import numpy as np

from .. import VisionError
from ..mat import Mat
from .art import PLAYER_COLOURS
from .camera import NUISANCE, CameraModel, CameraPose, photograph, place_camera
from .renderer import _camera_effects, _mat_image, _paste, _wood

SQ3 = math.sqrt(3.0)
PAWN_MM = 10.0
PAWN_HEIGHT_MM = 7.0
#: provisional print colours (BGR)
LAND_BGR = (78, 158, 118)
WATER_BGR = (178, 138, 62)
#: cloths a table may have under the pieces (BGR): grey felt, dark green felt, beige linen, brown
CLOTHS: tuple[tuple[int, int, int], ...] = ((72, 74, 78), (62, 84, 58), (150, 170, 186), (52, 70, 96))
#: the pawns' four colours (names of :data:`vision.sim.art.PLAYER_COLOURS`), provisional
PAWN_COLOURS = ("red", "yellow", "black", "purple")
#: resource markers: flat tokens, provisional look (the real set's are not public), one per colour of the engine's
#: ``marker_word``; their numbers 1-6 are the provisional set's (tablehub/games/sunda/pieces.json)
MARKER_MM = 6.0
#: where a hand lays a resource marker: (nearest, farthest mm from its node) and the clearance (mm) it keeps from the
#: stacks and the other markers, tried in turn (the first where the land allows)
MARKER_ROOM = (((11.0, 17.0), 2.0), ((8.0, 22.0), 2.0), ((8.0, 22.0), 0.5))
MARKER_COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")
#: the piece's corners in its own frame (c0 at the origin, c1 at 1,0), as the pieces file has them
FRAME = np.array([[0.0, 0.0], [1.0, 0.0], [1.5, SQ3 / 2], [0.5, SQ3 / 2]])


def unit_xy(q: float, r: float) -> np.ndarray:
    """A lattice point drawn with a unit side, y downwards (docs/sunda.md, "Coordinates")."""
    return np.array([q + r / 2.0, r * SQ3 / 2.0])


def _rot(deg: float) -> np.ndarray:
    a = math.radians(deg)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


@dataclass
class SundaScene:
    """A Sunda layout on the mat. ``position``: the ``"position"`` object of a Sunda position (pieces with
    ``outline``, tribes); ``colours``: player name -> pawn colour name."""

    position: Mapping[str, Any]
    colours: Mapping[str, str]
    mat: Mat = field(default_factory=Mat.default)
    side_mm: float = 30.0
    origin_mm: tuple[float, float] | None = None   # where lattice point 0,0 lies (None: layout centred)
    angle_deg: float = 0.0
    cloth_bgr: tuple[int, int, int] = CLOTHS[0]
    table_bgr: tuple[int, int, int] = (70, 110, 150)
    gap_mm: float = 0.9
    offset_sigma_mm: float = 0.5
    turn_sigma_deg: float = 0.5
    pawn_jitter_mm: float = 1.2
    lean_mm: float = 0.35   # each pawn of a stack sits this far (sigma, mm) off the one below: stacked by hand
    hand_errors: bool = True
    loose_markers: Sequence[tuple[str, tuple[float, float]]] = ()   # markers lying at mat points (the enrolment photo)
    #: each player's pawns in all (the rule book's count for the number of players): those not on the table stand off
    #: the layout as the player's supply (:func:`_supply_slots`); None: no supply drawn
    supply_total: int | None = None
    loose_pawns: Sequence[tuple[str, tuple[float, float]]] = ()   # pawns (colour, base mm) standing where put by hand
    hand_seed: int = 0     # the hands' errors (piece offsets and turns, pawns off their nodes), drawn per piece in
    #                        order, so that the same table with one more piece is the same table

    def lattice_to_mat(self, pts_unit: np.ndarray) -> np.ndarray:
        """Mat mm of points in lattice units (unit side, y down)."""
        o = np.asarray(self.origin_mm if self.origin_mm is not None else self.centred_origin(), np.float64)
        return np.asarray(pts_unit, np.float64).reshape(-1, 2) @ (_rot(self.angle_deg).T * self.side_mm) + o

    def centred_origin(self) -> tuple[float, float]:
        """The origin that puts the middle of the layout's extent on the middle of the play area."""
        pts = [unit_xy(*c) for c in _piece_corners(self.position)]
        if not pts:
            return self.mat.play_centre_mm
        # the middle of the extent as laid (turned): the middle of the unturned extent, turned, is not it (a long
        # layout turned 40 degrees then ran 30-60 mm over the play area's edge, where the reader does not look)
        arr = np.array(pts) @ (_rot(self.angle_deg).T * self.side_mm)
        mid = (arr.min(axis=0) + arr.max(axis=0)) / 2
        cx, cy = self.mat.play_centre_mm
        return (cx - float(mid[0]), cy - float(mid[1]))


def piece_corners(q: int, r: int, turn: int) -> list[tuple[int, int]]:
    """The four lattice points (clockwise from the acute corner c0) of a piece at ``q, r, turn``."""
    dirs = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
    d, e = dirs[turn % 6], dirs[(turn + 1) % 6]
    return [(q, r), (q + d[0], r + d[1]), (q + d[0] + e[0], r + d[1] + e[1]), (q + e[0], r + e[1])]


def _piece_corners(position: Mapping[str, Any]):
    for pd in position.get("pieces", []):
        yield from piece_corners(pd["q"], pd["r"], pd["turn"])


@dataclass
class SundaTruth:
    """What was rendered: the camera pose (mat mm = world mm), the lattice and every piece's real place."""

    pose: CameraPose
    side_mm: float
    origin_mm: tuple[float, float]
    angle_deg: float
    pieces: list[dict[str, Any]]      # q, r, turn, sides, join, corners_mm (as laid)
    stacks: list[dict[str, Any]]      # q, r, pawns (owners bottom to top), colours, base_mm
    markers: list[dict[str, Any]] = field(default_factory=list)   # marker (its colour), q, r (its node), centre_mm
    supply: list[dict[str, Any]] = field(default_factory=list)    # player, colour, base_mm: the pawns off the table

    def lens(self):
        from ..calibrate import LensCalibration

        return LensCalibration(self.pose.K.copy(), self.pose.dist.copy(), self.pose.size, rms_px=0.0)

    def node_mm(self, q: float, r: float) -> np.ndarray:
        return unit_xy(q, r) @ (_rot(self.angle_deg).T * self.side_mm) + np.asarray(self.origin_mm)


@lru_cache(maxsize=2)
def _texture(h: int, w: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    fine = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 1.0)
    coarse = cv2.resize(rng.standard_normal((max(h // 30, 2), max(w // 30, 2))).astype(np.float32), (w, h),
                        interpolation=cv2.INTER_CUBIC)
    out = 1.0 + 0.035 * fine + 0.03 * coarse
    out.setflags(write=False)
    return out


def _poly_px(pts_mm: np.ndarray, x0: float, y0: float, ppm: float) -> np.ndarray:
    return np.round((pts_mm - [x0, y0]) * ppm * 16).astype(np.int32).reshape(-1, 1, 2)


def _draw_pieces(plane: np.ndarray, scene: SundaScene, origin: np.ndarray, x0: float, y0: float, ppm: float,
                 rng: np.random.Generator) -> list[dict[str, Any]]:
    h, w = plane.shape[:2]
    art = np.zeros((h, w, 3), np.float32)
    cover = np.zeros((h, w), np.uint8)
    rim = np.zeros((h, w), np.uint8)
    land = np.asarray(LAND_BGR, np.float32)
    water = np.asarray(WATER_BGR, np.float32)
    M = _rot(scene.angle_deg).T * scene.side_mm
    # the gap: each piece is its rhombus shrunk about its middle (a rhombus has an incircle, so scaling is an
    # even inset of gap/2 on every side); the incircle's radius is side * sin(60) / 2
    inset = 1.0 - (scene.gap_mm / 2) / (scene.side_mm * SQ3 / 4)
    truth = []
    for pd in scene.position.get("pieces", []):
        q, r, turn = int(pd["q"]), int(pd["r"]), int(pd["turn"])
        c0 = unit_xy(q, r)
        R = _rot(60.0 * turn)
        frame_unit = FRAME @ R.T + c0
        mid_unit = frame_unit.mean(axis=0)
        if scene.hand_errors:
            off = rng.normal(0.0, scene.offset_sigma_mm, 2)
            err = float(rng.normal(0.0, scene.turn_sigma_deg))
        else:
            off, err = np.zeros(2), 0.0
        mid_mm = mid_unit @ M + origin
        E = _rot(err)

        def place(pts_frame: np.ndarray) -> np.ndarray:
            u = (np.asarray(pts_frame, np.float64).reshape(-1, 2) @ R.T + c0)
            mm = u @ M + origin
            return ((mm - mid_mm) * inset) @ E.T + mid_mm + off

        corners_mm = place(FRAME)
        tone = float(rng.uniform(0.93, 1.07))
        tint = rng.uniform(0.97, 1.03, 3).astype(np.float32)
        cv2.fillPoly(art, [_poly_px(corners_mm, x0, y0, ppm)], tuple(float(v) for v in water * tone * tint),
                     cv2.LINE_AA, 4)
        for poly in pd.get("outline") or []:
            if len(poly) >= 3:
                cv2.fillPoly(art, [_poly_px(place(np.array(poly)), x0, y0, ppm)],
                             tuple(float(v) for v in land * tone * tint), cv2.LINE_AA, 4)
        cv2.fillPoly(cover, [_poly_px(corners_mm, x0, y0, ppm)], 255, cv2.LINE_AA, 4)
        cv2.polylines(rim, [_poly_px(corners_mm, x0, y0, ppm)], True, 255, max(1, int(round(0.5 * ppm))),
                      cv2.LINE_AA, 4)
        truth.append({"q": q, "r": r, "turn": turn, "sides": pd.get("sides"), "join": pd.get("join", "water"),
                      "corners_mm": corners_mm.tolist()})
    a = (cover.astype(np.float32) / 255.0)[..., None]
    art *= _texture(h, w, 5)[..., None]
    plane *= 1.0 - a
    plane += art * a
    # the cardboard's cut edge: a little darker
    plane *= (1.0 - 0.35 * (rim.astype(np.float32) / 255.0))[..., None]
    # pieces lie a little above the cloth: a faint shadow into the gaps
    return truth


def _stack_at(base: np.ndarray, lean: np.ndarray, z: float, nadir: np.ndarray, cam_h: float) -> tuple[np.ndarray, float]:
    """Where the slice of a stack at height ``z`` is seen on the mat (its middle, pushed from the nadir by
    z / (H - z)) and its radius there (grown by H / (H - z)): the camera's central projection."""
    at = base + lean + (base + lean - nadir) * z / (cam_h - z)
    return at, PAWN_MM / 2 * cam_h / (cam_h - z)


def _disc(plane: np.ndarray, at: np.ndarray, rad: float, col: tuple[float, ...], x0: float, y0: float,
          ppm: float) -> None:
    cv2.circle(plane, (int((at[0] - x0) * ppm * 16), int((at[1] - y0) * ppm * 16)), int(rad * ppm * 16), col, -1,
               cv2.LINE_AA, 4)


def _shadow_of(shadow: np.ndarray, base: np.ndarray, height: float, shadow_dir: np.ndarray, x0: float, y0: float,
               ppm: float) -> None:
    s = base + shadow_dir * height * 0.3
    cv2.ellipse(shadow, (int((s[0] - x0) * ppm * 16), int((s[1] - y0) * ppm * 16)),
                (int((PAWN_MM / 2 + 1.0 + height * 0.15) * ppm * 16),) * 2, 0, 0, 360, 1.0, -1, cv2.LINE_AA, 4)


def _draw_stacks(plane: np.ndarray, scene: SundaScene, origin: np.ndarray, x0: float, y0: float, ppm: float,
                 pose: CameraPose, rng: np.random.Generator, shadow_dir: np.ndarray,
                 loose: Sequence[tuple[np.ndarray, str, float]] = ()) -> list[dict[str, Any]]:
    """The tribes, each drawn as the camera sees it (every 0.5 mm slice projected from the camera's centre), and the
    ``loose`` pawns standing alone off the layout (base mm, colour name, how dark its sides are: the supply), painted
    slice by slice all together from the mat up: where touching pawns overlap on the image, the higher slice (the
    first a ray from the lens meets) is seen."""
    nadir = pose.centre_mm[:2]
    cam_h = float(-pose.centre_mm[2])
    M = _rot(scene.angle_deg).T * scene.side_mm
    jobs, truth = [], []
    shadow = np.zeros(plane.shape[:2], np.float32)
    for td in scene.position.get("tribes", []):
        pawns = list(td["pawns"])
        try:
            cols = [scene.colours[p] for p in pawns]
            bgr = [np.asarray(PLAYER_COLOURS[c], np.float64) for c in cols]
        except KeyError as exc:
            raise VisionError(f"sunda scene: tribes at {td['q']},{td['r']}: no pawn colour for {exc}") from None
        hand = np.random.default_rng([scene.hand_seed, 1, td["q"] + 1000, td["r"] + 1000])
        base = unit_xy(td["q"], td["r"]) @ M + origin + hand.uniform(-1, 1, 2) * scene.pawn_jitter_mm / math.sqrt(2)
        height = PAWN_HEIGHT_MM * len(pawns)
        _shadow_of(shadow, base, height, shadow_dir, x0, y0, ppm)
        side = float(hand.uniform(0.6, 0.85))    # how dark its sides are (wood, light)
        # a stack leans: each pawn a little off the one below (drawn after the rest: the same table otherwise)
        lean = np.cumsum(np.vstack([np.zeros((1, 2)), hand.normal(0.0, scene.lean_mm, (max(len(pawns) - 1, 0), 2))]),
                         axis=0)
        jobs.append((base, bgr, side, lean))
        truth.append({"q": td["q"], "r": td["r"], "pawns": pawns, "colours": cols, "base_mm": base.tolist()})
    for base, _, _ in loose:
        _shadow_of(shadow, base, PAWN_HEIGHT_MM, shadow_dir, x0, y0, ppm)
    if jobs or len(loose):
        shadow = cv2.GaussianBlur(shadow, (0, 0), 1.5 * ppm)
        plane *= (1.0 - 0.45 * shadow)[..., None]
    for base, bgr, side, lean in jobs:
        n = len(bgr)
        step = 0.5
        for z in np.arange(0.0, n * PAWN_HEIGHT_MM, step):
            k = min(int(z // PAWN_HEIGHT_MM), n - 1)
            at, rad = _stack_at(base, lean[k], z, nadir, cam_h)
            # the sides: shaded, a thin darker seam where two pawns meet
            seam = 0.8 if (z % PAWN_HEIGHT_MM) < 0.6 and z > 0 else 1.0
            _disc(plane, at, rad, tuple(float(v) for v in np.clip(bgr[k] * side * seam, 0, 255)), x0, y0, ppm)
        at, rad = _stack_at(base, lean[-1], n * PAWN_HEIGHT_MM, nadir, cam_h)
        _disc(plane, at, rad, tuple(float(v) for v in np.clip(bgr[-1] * 1.0 + 8, 0, 255)), x0, y0, ppm)
    if len(loose):
        flat = np.zeros(2)
        paint = [np.asarray(PLAYER_COLOURS[c], np.float64) for _, c, _ in loose]
        for z in np.arange(0.0, PAWN_HEIGHT_MM, 0.5):
            for (base, _, side), bgr in zip(loose, paint):
                at, rad = _stack_at(base, flat, z, nadir, cam_h)
                _disc(plane, at, rad, tuple(float(v) for v in np.clip(bgr * side, 0, 255)), x0, y0, ppm)
        for (base, _, _), bgr in zip(loose, paint):
            at, rad = _stack_at(base, flat, PAWN_HEIGHT_MM, nadir, cam_h)
            _disc(plane, at, rad, tuple(float(v) for v in np.clip(bgr + 8, 0, 255)), x0, y0, ppm)
    return truth


#: a player's supply as a hand leaves it: how many loose groups (fewest, most), the gap between a pawn and the one it
#: is put beside (touching: a pawn's width apart, with this chance; else up to the largest gap, mm), and how far the
#: pawns keep off the pieces (mm) and off the mat's markers and edge
SUPPLY_GROUPS = (1, 3)
SUPPLY_TOUCHING = 0.5
SUPPLY_GAP_MM = 14.0
SUPPLY_CLEAR_MM = 4.0


def supply_counts(scene: SundaScene) -> dict[str, int]:
    """Each player's pawns off the table (``scene.supply_total`` less their pawns in the position's tribes and water
    rights); empty when the scene draws no supply."""
    if scene.supply_total is None:
        return {}
    pos = scene.position
    out = {}
    for player in scene.colours:
        on = sum(list(t["pawns"]).count(player) for t in pos.get("tribes", []))
        on += sum(1 for w in pos.get("water_rights", []) if w.get("owner") == player)
        out[player] = max(int(scene.supply_total) - on, 0)
    return out


def _supply_slots(scene: SundaScene, pieces: list[dict[str, Any]], pose: CameraPose) -> dict[str, list[np.ndarray]]:
    """Where each player's pawns stand when off the table (``scene.supply_total`` places a player, in the order a hand
    takes them back: the last first): loose groups on the mat on the player's side, between the layout and the mat's
    edge (players sit on opposite sides first), pawns touching or a little apart, clear of the pieces, the mat's
    markers and each other, every one in view (the frame's edge may be near). Drawn from the table's own hand
    (``hand_seed``), so the same table with fewer pawns in supply keeps the others where they stood."""
    mat = scene.mat
    hand = np.random.default_rng([scene.hand_seed, 4])
    # the layout as laid, 1 px/mm over the mat: each point's distance to the nearest piece
    lay = np.full((int(mat.height_mm) + 1, int(mat.width_mm) + 1), 255, np.uint8)
    for p in pieces:
        cv2.fillPoly(lay, [np.round(np.asarray(p["corners_mm"])).astype(np.int32).reshape(-1, 1, 2)], 0)
    far = cv2.distanceTransform(lay, cv2.DIST_L2, 5)
    ext = np.array([c for p in pieces for c in p["corners_mm"]]) if pieces else np.array([mat.play_centre_mm] * 2)
    lo, hi = ext.min(axis=0), ext.max(axis=0)
    markers = [np.array(mat.marker_corners_mm(m)) for m in mat.marker_ids]
    nadir, cam_h = pose.centre_mm[:2], float(-pose.centre_mm[2])
    w, h = pose.size
    rim = np.array([[math.cos(a), math.sin(a)] for a in np.linspace(0, 2 * math.pi, 13)[:-1]])
    placed: list[np.ndarray] = []

    def fits(b: np.ndarray) -> bool:
        r = PAWN_MM / 2
        if not (r + 1 <= b[0] <= mat.width_mm - r - 1 and r + 1 <= b[1] <= mat.height_mm - r - 1):
            return False
        if float(far[int(round(b[1])), int(round(b[0]))]) < r + SUPPLY_CLEAR_MM:
            return False
        if any(np.all(b >= c.min(axis=0) - r - 3) and np.all(b <= c.max(axis=0) + r + 3) for c in markers):
            return False
        if any(float(np.linalg.norm(b - o)) < PAWN_MM for o in placed):
            return False
        top, rad = _stack_at(b, np.zeros(2), PAWN_HEIGHT_MM, nadir, cam_h)
        px = pose.project(np.vstack([b + rim * r, top + rim * rad]), z_mm=np.r_[np.zeros(12), -PAWN_HEIGHT_MM * np.ones(12)])
        return bool(np.all((px[:, 0] >= 2) & (px[:, 0] <= w - 3) & (px[:, 1] >= 2) & (px[:, 1] <= h - 3)))

    # the sides players sit on (bottom, top, left, right of the mat), opposite ones first
    pairs = [(0, 1), (2, 3)]
    first = int(hand.integers(2))
    sides = list(pairs[first]) + list(pairs[1 - first])
    if hand.random() < 0.5:
        sides = [sides[1], sides[0], sides[3], sides[2]]
    out: dict[str, list[np.ndarray]] = {}
    for k, player in enumerate(scene.colours):
        side = sides[k % 4]
        # the band between the layout and the mat's edge on that side
        if side in (0, 1):
            band_y = (hi[1], mat.height_mm) if side == 0 else (0.0, lo[1])
            band_x = (0.0, mat.width_mm)
        else:
            band_x = (hi[0], mat.width_mm) if side == 3 else (0.0, lo[0])
            band_y = (0.0, mat.height_mm)
        n_groups = int(hand.integers(SUPPLY_GROUPS[0], SUPPLY_GROUPS[1] + 1))
        mine: list[np.ndarray] = []
        group: list[np.ndarray] = []
        per = max(1, -(-int(scene.supply_total or 0) // n_groups))
        while len(mine) < int(scene.supply_total or 0):
            if not group or len(group) >= per:
                group = []
                for _ in range(400):       # a new group: somewhere in the band, where a pawn fits
                    b = np.array([hand.uniform(*band_x), hand.uniform(*band_y)])
                    if fits(b):
                        group.append(b)
                        break
                else:
                    band_x, band_y = (0.0, mat.width_mm), (0.0, mat.height_mm)   # no room there: anywhere
                    continue
            else:
                for _ in range(400):       # the next pawn beside one of the group's
                    gap = 0.0 if hand.random() < SUPPLY_TOUCHING else float(hand.uniform(0.0, SUPPLY_GAP_MM))
                    a = float(hand.uniform(0, 2 * math.pi))
                    b = group[int(hand.integers(len(group)))] + (PAWN_MM + 0.05 + gap) * np.array([math.cos(a),
                                                                                                  math.sin(a)])
                    if fits(b):
                        group.append(b)
                        break
                else:
                    group = []              # the group is hemmed in: another one
                    continue
            placed.append(group[-1])
            mine.append(group[-1])
        out[player] = mine
    return out


def _draw_markers(plane: np.ndarray, scene: SundaScene, origin: np.ndarray, x0: float, y0: float, ppm: float,
                  pose: CameraPose, stacks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The resource markers, each laid by hand near its node on land (the plane's colour there nearer the land's
    than the water's or the cloth's), clear of the stacks (their bases and tops as the camera sees them) and of the
    markers laid before."""
    nadir = pose.centre_mm[:2]
    cam_h = float(-pose.centre_mm[2])
    M = _rot(scene.angle_deg).T * scene.side_mm
    land, water = np.asarray(LAND_BGR, np.float32), np.asarray(WATER_BGR, np.float32)
    cloth = np.asarray(scene.cloth_bgr, np.float32)
    keep_off = []            # (point, radius) a marker's middle must keep clear of
    for st in stacks:
        b = np.asarray(st["base_mm"])
        z = PAWN_HEIGHT_MM * len(st["pawns"])
        top = b + (b - nadir) * z / (cam_h - z)
        for k in np.linspace(0, 1, 5):
            keep_off.append((b + k * (top - b), PAWN_MM / 2 * cam_h / (cam_h - z) + MARKER_MM / 2 + 2.0))
    out = []
    ring = np.array([[math.cos(a), math.sin(a)] for a in np.linspace(0, 2 * math.pi, 9)[:-1]])

    def on_land(p: np.ndarray) -> bool:
        for q in np.vstack([p[None], p + ring * (MARKER_MM / 2 + 1.0)]):
            px, py = int(round((q[0] - x0) * ppm)), int(round((q[1] - y0) * ppm))
            if not (0 <= py < plane.shape[0] and 0 <= px < plane.shape[1]):
                return False
            c = plane[py, px]
            dl, dw, dc = (float(np.linalg.norm(c - v)) for v in (land, water, cloth))
            if not dl < min(dw, dc):
                return False
        return True

    def draw(name: str, at: np.ndarray) -> None:
        bgr = np.asarray(PLAYER_COLOURS[name], np.float64)
        centre = (int((at[0] - x0) * ppm * 16), int((at[1] - y0) * ppm * 16))
        cv2.circle(plane, centre, int(MARKER_MM / 2 * ppm * 16), tuple(float(v) for v in bgr * 0.7), -1, cv2.LINE_AA, 4)
        cv2.circle(plane, centre, int((MARKER_MM / 2 - 0.4) * ppm * 16), tuple(float(v) for v in bgr), -1,
                   cv2.LINE_AA, 4)

    for name, at in scene.loose_markers:
        draw(name, np.asarray(at, np.float64))
    for md in scene.position.get("markers", []):
        name = str(md["marker"])
        if name not in PLAYER_COLOURS:
            raise VisionError(f"sunda scene: markers: no colour for marker {name!r} (expected one of "
                              f"{', '.join(MARKER_COLOURS)})")
        hand = np.random.default_rng([scene.hand_seed, 3, md["q"] + 1000, md["r"] + 1000])
        node = unit_xy(md["q"], md["r"]) @ M + origin
        at = None
        # a hand lays it 11-17 mm from the node; where the land there is taken (a thin spit, a tall stack leaning
        # over it, the tribe's other markers) a little farther or nearer, and at last touching the other markers
        for (near, far), clear in MARKER_ROOM:
            for _ in range(200):
                p = node + float(hand.uniform(near, far)) * np.array([math.cos(a := float(hand.uniform(0, 2 * math.pi))),
                                                                       math.sin(a)])
                if on_land(p) and all(np.linalg.norm(p - c) >= rad - 2.0 + clear for c, rad in keep_off):
                    at = p
                    break
            if at is not None:
                break
        if at is None:
            raise VisionError(f"sunda scene: markers: no room on land within {MARKER_ROOM[-1][0][1]:.0f} mm of "
                              f"{md['q']},{md['r']} for the {name} marker")
        keep_off.append((at, MARKER_MM + 2.0))
        draw(name, at)
        out.append({"marker": name, "q": md["q"], "r": md["r"], "centre_mm": at.tolist()})
    return out


def _supply(scene: SundaScene, pieces: list[dict[str, Any]], pose: CameraPose) -> list[dict[str, Any]]:
    """The supply's pawns as drawn: ``scene.loose_pawns`` where they were put, and each player's first
    :func:`supply_counts` places of :func:`_supply_slots`, each with how dark its sides are (its own wood and light)."""
    out = [{"player": None, "colour": c, "base_mm": list(map(float, at)), "side": 0.72} for c, at in scene.loose_pawns]
    counts = supply_counts(scene)
    if not counts:
        return out
    slots = _supply_slots(scene, pieces, pose)
    for k, (player, n) in enumerate(counts.items()):
        shade = np.random.default_rng([scene.hand_seed, 5, k]).uniform(0.6, 0.85, len(slots[player]))
        for b, side in list(zip(slots[player], shade))[:n]:
            out.append({"player": player, "colour": scene.colours[player], "base_mm": b.tolist(), "side": float(side)})
    return out


def marker_enrolment_scene(mat: Mat | None = None, **kw: Any) -> SundaScene:
    """The markers' enrolment photo (``vision.sundamarkers.enrolment_points``): each marker flat on the cloth at
    its place, nothing else."""
    from ..sundamarkers import enrolment_points

    mat = mat or Mat.default()
    pts = enrolment_points(mat)
    return SundaScene({"pieces": [], "tribes": []}, {}, mat, origin_mm=mat.play_centre_mm,
                      loose_markers=tuple(pts.items()), **kw)


def render_sunda(scene: SundaScene, camera: CameraModel | str = "default", rng: np.random.Generator | None = None,
                 size: tuple[int, int] = (1920, 1080), plane_ppm: float = 2.5) -> tuple[np.ndarray, SundaTruth]:
    """The layout on the mat as the camera sees it, and the truth."""
    if isinstance(camera, str):
        if camera not in NUISANCE:
            raise VisionError(f"camera: unknown nuisance preset {camera!r} (expected {', '.join(NUISANCE)})")
        camera = NUISANCE[camera]
    rng = rng if rng is not None else np.random.default_rng(0)
    mat = scene.mat
    pose = place_camera(camera, (mat.width_mm, mat.height_mm), size, rng)
    light = camera.light_angle_deg if camera.light_angle_deg is not None else float(rng.uniform(0, 360))
    a = math.radians(light)
    shadow_dir = -np.array([math.cos(a), math.sin(a)])
    margin = 0.15 * max(mat.width_mm, mat.height_mm)
    x0, y0 = -margin, -margin
    pw, ph = int(round((mat.width_mm + 2 * margin) * plane_ppm)), int(round((mat.height_mm + 2 * margin) * plane_ppm))
    wood = _wood(int(mat.width_mm + 2 * margin) + 2, int(mat.height_mm + 2 * margin) + 2, tuple(scene.table_bgr))
    plane = cv2.resize(wood, (pw, ph), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    _paste(plane, _mat_image(mat, plane_ppm, tuple(scene.cloth_bgr)), int(round(margin * plane_ppm)),
           int(round(margin * plane_ppm)), shadow=True)
    origin = np.asarray(scene.origin_mm if scene.origin_mm is not None else scene.centred_origin(), np.float64)
    pieces = _draw_pieces(plane, scene, origin, x0, y0, plane_ppm, np.random.default_rng([scene.hand_seed, 0]))
    supply = _supply(scene, pieces, pose)
    stacks = _draw_stacks(plane, scene, origin, x0, y0, plane_ppm, pose, np.random.default_rng([scene.hand_seed, 1]),
                          shadow_dir, [(np.asarray(p["base_mm"]), p["colour"], p["side"]) for p in supply])
    markers = _draw_markers(plane, scene, origin, x0, y0, plane_ppm, pose, stacks)
    from_mat = np.array([[plane_ppm, 0, -x0 * plane_ppm], [0, plane_ppm, -y0 * plane_ppm], [0, 0, 1]])
    img = photograph(plane, from_mat, pose)
    out = _camera_effects(img, camera, rng, light)
    return out, SundaTruth(pose, scene.side_mm, (float(origin[0]), float(origin[1])), scene.angle_deg, pieces, stacks,
                           markers, supply)


def random_scene(position: Mapping[str, Any], colours: Mapping[str, str], rng: np.random.Generator,
                 mat: Mat | None = None, **overrides: Any) -> SundaScene:
    """A table as the world varies it: the lattice at a random angle and place (an angle at which the layout
    fits on the play area, as players keep it on the mat), a random cloth, wood, gap between 0.6 and 1.4 mm."""
    mat = mat or Mat.default()
    angle = fitting_angle(position, mat, rng, overrides.get("side_mm", 30.0))
    scene = SundaScene(position, colours, mat, angle_deg=angle,
                       cloth_bgr=CLOTHS[int(rng.integers(len(CLOTHS)))],
                       table_bgr=tuple(int(v) for v in rng.integers(60, 160, 3)),  # type: ignore[arg-type]
                       gap_mm=float(rng.uniform(0.6, 1.4)), hand_seed=int(rng.integers(1 << 30)))
    # how far each pawn of a stack sits off the one below (players stack more or less carefully; its own stream)
    scene.lean_mm = float(np.random.default_rng([scene.hand_seed, 2]).uniform(0.1, 0.6))
    for k, v in overrides.items():
        setattr(scene, k, v)
    cx, cy = scene.centred_origin()
    scene.origin_mm = (cx + float(rng.uniform(-5, 5)), cy + float(rng.uniform(-5, 5)))
    return scene


def fitting_angle(position: Mapping[str, Any], mat: Mat, rng: np.random.Generator, side_mm: float,
                  tries: int = 60, between: tuple[float, float] = (0.0, 360.0)) -> float:
    """A random angle (degrees, ``between``) at which the layout fits on the play area (players keep it on the
    mat); of the tries, the tightest when none fits."""
    corners = list(_piece_corners(position))
    if not corners:
        return float(rng.uniform(*between))
    pts = np.array([unit_xy(*c) for c in corners]) * side_mm
    x, y, w, h = mat.play_rect_mm
    best, best_over = between[0], float("inf")
    for _ in range(tries):
        a = float(rng.uniform(*between))
        p = pts @ _rot(a).T
        ext = p.max(axis=0) - p.min(axis=0)
        over = max(ext[0] - (w - 30), ext[1] - (h - 30))
        if over <= 0:
            return a
        if over < best_over:
            best, best_over = a, over
    return best


def enrolment_scene(colours: Sequence[str] = PAWN_COLOURS, mat: Mat | None = None, **kw: Any) -> SundaScene:
    """The enrolment layout (``vision.sunda.ENROL``): an all-land and an all-water piece and one pawn of each
    colour, at the places the reader's enrolment expects."""
    from ..sunda import enrolment_layout

    mat = mat or Mat.default()
    pos, names, origin, angle = enrolment_layout(mat, colours)
    return SundaScene(pos, {n: n for n in names}, mat, origin_mm=origin, angle_deg=angle, **kw)


def _corner_values(ring: str) -> list[str]:
    """Land (L), water (W) or a coast ending (C) at each corner, from the two slots beside it."""
    out = []
    for k in range(4):
        a, b = ring[(3 * k - 1) % 12], ring[3 * k]
        out.append(a if a == b else "C")
    return out


def compare_reading(reading: Any, truth: SundaTruth) -> dict[str, Any]:
    """How a :class:`vision.sunda.SundaReading` compares with what was rendered.

    The reading's lattice is its own (any lattice point may be its 0,0, any of the six directions its
    D0); the truth's points are carried onto it through the mat (a point more than a fifth of a side
    off any reader's point is a lattice misfit: nothing matches). Counts: ``sides`` and ``corners``
    right of all the truth's pieces' (a piece not found counts all its sides and corners wrong),
    ``pieces_found``, ``extra_pieces`` (read where none lies), ``pawns_right`` (a stack found on its
    node with its top colour), and per stack ``heights_right`` (height and every colour right),
    ``heights_asked``, ``heights_wrong`` (sure but wrong)."""
    to_reader, misfit = lattice_map(reading, truth)
    res: dict[str, Any] = {"pieces": len(truth.pieces), "sides": 0, "corners": 0, "pieces_found": 0,
                           "extra_pieces": 0, "stacks": len(truth.stacks), "pawns_right": 0, "heights_right": 0,
                           "heights_asked": 0, "heights_wrong": 0, "lattice_misfit": misfit, "wrong": []}
    if to_reader is None:
        res["extra_pieces"] = len(reading.pieces)
        res["wrong"].append(f"lattice {misfit:.2f} of a side off")
        return res
    read_by = {}
    for i, p in enumerate(reading.pieces):
        cs = corners_of_placement(p["q"], p["r"], p["turn"])
        read_by[frozenset(cs)] = (i, cs)
    seen = set()
    for tp in truth.pieces:
        cs = [to_reader(c) for c in corners_of_placement(tp["q"], tp["r"], tp["turn"])]
        hit = read_by.get(frozenset(cs))
        if hit is None:
            res["wrong"].append(f"piece at {tp['q']},{tp['r']} turn {tp['turn']} not found")
            continue
        i, rcs = hit
        seen.add(i)
        res["pieces_found"] += 1
        shift = rcs.index(cs[0])
        rsides = reading.pieces[i]["sides"].split()
        rring = "".join(rsides[(k + shift) % 4] for k in range(4))
        tring = tp["sides"].replace(" ", "")
        ok_sides = sum(rring[3 * k:3 * k + 3] == tring[3 * k:3 * k + 3] for k in range(4))
        ok_corners = sum(a == b for a, b in zip(_corner_values(rring), _corner_values(tring)))
        res["sides"] += ok_sides
        res["corners"] += ok_corners
        if ok_sides < 4 or ok_corners < 4:
            rp = reading.pieces[i]
            res["wrong"].append(f"piece at {tp['q']},{tp['r']} turn {tp['turn']} (read at {rp['q']},{rp['r']} turn "
                                f"{rp['turn']}): read {rring}, is {tring}")
    res["extra_pieces"] = len(reading.pieces) - len(seen)
    tribes = {(t.q, t.r): t for t in reading.tribes}
    for st in truth.stacks:
        t = tribes.get(to_reader((st["q"], st["r"])))
        if t is None or t.top != st["colours"][-1]:
            res["wrong"].append(f"stack at {st['q']},{st['r']} ({'/'.join(st['colours'])}): "
                                f"{'not found' if t is None else 'top read ' + t.top}")
            continue
        res["pawns_right"] += 1
        if t.ask:
            res["heights_asked"] += 1
        elif t.height == len(st["colours"]) and list(t.colours) == list(st["colours"]):
            res["heights_right"] += 1
        else:
            res["heights_wrong"] += 1
            res["wrong"].append(f"stack at {st['q']},{st['r']} ({'/'.join(st['colours'])}): read sure as "
                                f"{'/'.join(str(c) for c in t.colours)}")
    res["extra_pawns"] = max(0, len(reading.tribes) - res["pawns_right"])
    return res


def lattice_map(reading: Any, truth: SundaTruth):
    """The function carrying the truth's lattice points onto the reading's (through the mat), and how far off a
    lattice point the truth's points fall on the reading's lattice (in sides); ``None`` when over a fifth."""
    lat = reading.lattice
    pts = np.array([[0, 0], [1, 0], [0, 1]])
    mm = unit_xy_many(pts) @ (_rot(truth.angle_deg).T * truth.side_mm) + np.asarray(truth.origin_mm)
    f = lat.to_lattice(mm)
    img = np.round(f).astype(int)
    misfit = float(np.abs(f - img).max())
    if misfit > 0.2:
        return None, misfit
    A = np.stack([img[1] - img[0], img[2] - img[0]])

    def to_reader(qr) -> tuple[int, int]:
        v = np.asarray(qr) @ A + img[0]
        return int(v[0]), int(v[1])
    return to_reader, misfit


def unit_xy_many(qr: np.ndarray) -> np.ndarray:
    qr = np.asarray(qr, np.float64).reshape(-1, 2)
    return np.column_stack([qr[:, 0] + qr[:, 1] / 2, qr[:, 1] * SQ3 / 2])


def corners_of_placement(q: int, r: int, turn: int) -> list[tuple[int, int]]:
    return piece_corners(q, r, turn)
