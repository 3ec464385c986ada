"""A printed board lying on the table, with pieces on it, through the simulated camera.

The board's art is a straight picture in board millimetres (``vision.boards.render_board``
draws a provisional one from board geometry given as data: no rules here). The board lies on a
wooden table at a pose (``origin_mm``, ``angle_deg``: where its top-left corner is and how it is
turned, so a bumped board is another pose); pieces stand on it at board millimetres. The frame
goes through the same camera model as the tile games (``vision.sim.camera``: lens distortion,
tilt, light gradient, vignette, colour cast, noise, blur, JPEG).

Pieces are flat top-down drawings with a soft shadow (no parallax: a real ship is ~15 mm tall;
its top is seen a little displaced in a tilted view, which this model leaves out):

- ``ship``: a brown hull (28 x 12 mm) with a sail in the ship's own colour and a flag pattern
  (stripe, cross, dot) so the six ships differ as the real ones do by name and flag
  (provisional art);
- ``chest_up``: a gold chest (12 x 9 mm) with its value in thousands printed on the lid (6 mm tall,
  strokes under 1 mm, turned with the chest);
- ``chest_down``: the same chest face down (dark wood, no value);
- a ship carrying a chest (``carries``: its value in doubloons): the chest face up on the deck where the
  player put it (``deck``: its centre along and across the hull and its turn against the hull; by default
  lengthwise on the stern, 11 mm behind the ship's middle): anywhere on the deck clear of the mast, turned
  any way, overhanging the hull's side or end as it may (:func:`deck_spot` draws such a place); the sail is
  drawn over it, so a chest near the mast has part of its lid, and maybe its print, hidden from above (the
  rules put a carried chest aboard, one per ship);
- ``sheet``: a plain light square (``look`` mm a side) lying over the board: a sheet or a hand
  hiding the art.

Tahiti's pieces (provisional art; the looks are named by :func:`piece_for_look` from the camera's
template names, e.g. ``red boat``, ``violet sailboat``, ``disc $``):

- ``boat``: a small boat (26 x 11 mm) in its player's colour (``look`` indexes :data:`BOAT_BGR`),
  with a pearl (``mark``: its colour) when it stands on the map;
- ``sailboat``: a larger boat (40 x 16 mm) in its player's colour with a light sail of that colour (seen from
  above: a band across the hull);
- ``disc``: the event disc (26 mm) on the island, ``$`` face (``look`` 0: a gold ``$`` on dark green) or treasure (1: a gold chest on dark brown).

With ``mat`` the mat's four markers are printed on the table round the board (the table is the
mat), for the markers' fallback (``vision.boardreg.MatAnchor``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np

from .. import VisionError
from ..markers import paint_marker
from ..mat import Mat
from .glyphs import put_text, text_size
from .camera import NUISANCE, CameraModel, CameraPose, photograph, place_camera
from .renderer import _camera_effects, _wood

#: the six ships' provisional looks: sail colour (BGR) and flag pattern
SHIP_LOOKS: tuple[tuple[tuple[int, int, int], str], ...] = (
    ((235, 235, 235), "stripe"),   # white sail
    ((30, 30, 30), "cross"),       # black sail
    ((40, 40, 210), "dot"),        # red sail
    ((40, 210, 235), "stripe"),    # yellow sail
    ((60, 170, 40), "cross"),      # green sail
    ((170, 60, 170), "dot"),       # purple sail
)
SHIP_MM = (28.0, 12.0)
CHEST_MM = (12.0, 9.0)
#: Tahiti's player colours (BGR), in the order of the looks' colour names; pearls' colours
BOAT_BGR: dict[str, tuple[int, int, int]] = {"red": (40, 40, 205), "yellow": (40, 205, 235),
                                             "violet": (165, 55, 150), "green": (60, 160, 30)}
PEARL_BGR: dict[str, tuple[int, int, int]] = {"green": (90, 200, 70), "white": (240, 240, 240),
                                              "black": (20, 20, 20), "blue": (215, 120, 40)}
BOAT_MM = (26.0, 11.0)
SAILBOAT_MM = (40.0, 16.0)
DISC_MM = 26.0
#: where a carried chest stands on its ship by default: its centre this far behind the ship's middle (mm, along the hull)
CHEST_ABOARD_MM = 11.0
#: the mast's radius (mm) at the ship's middle: a carried chest lies clear of it
MAST_MM = 1.5
#: the sail seen from above (mm, along x across the hull), centred on the mast: it hides what lies under it
SAIL_MM = (15.0, 10.0)
#: how far inside its space's outline a hand puts each kind's centre (mm): a small boat sits in its cell
INSET_MM = {"boat": 14.0, "sailboat": 21.0, "disc": 13.0}


@dataclass(frozen=True)
class BoardPiece:
    """One piece on the board: ``kind`` (``ship``, ``chest_up``, ``chest_down``), ``look`` (which
    ship look, 0-5, or a chest's value in doubloons), centre in board mm and yaw in degrees."""

    kind: str
    look: int
    x_mm: float
    y_mm: float
    yaw_deg: float = 0.0
    mark: tuple[int, int, int] | None = None  # what a boat carries (a pearl's colour)
    carries: int = 0  # a ship's chest aboard: its value in doubloons (0: the hold is empty)
    #: where the carried chest lies on the deck: (along, across) mm from the ship's middle in the hull's frame
    #: (along towards the stern, ``yaw_deg``'s direction) and its turn against the hull (degrees); ``None``: the stern
    deck: tuple[float, float, float] | None = None


def on_hull(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Which points (mm in the hull's frame: x along, y across) lie over the hull (the 28 x 12 mm ellipse)."""
    return (x / (SHIP_MM[0] / 2)) ** 2 + (y / (SHIP_MM[1] / 2)) ** 2 <= 1.0


def _chest_grid(along: float, across: float, turn_deg: float, n: int = 9) -> tuple[np.ndarray, np.ndarray]:
    """An n x n grid of points over a chest lying at (along, across) turned ``turn_deg`` (hull frame, mm)."""
    u, v = np.meshgrid(np.linspace(-CHEST_MM[0] / 2, CHEST_MM[0] / 2, n), np.linspace(-CHEST_MM[1] / 2, CHEST_MM[1] / 2, n))
    a = math.radians(turn_deg)
    return along + u * math.cos(a) - v * math.sin(a), across + u * math.sin(a) + v * math.cos(a)


def deck_fits(along: float, across: float, turn_deg: float, min_on_hull: float = 0.6) -> bool:
    """Whether a chest can lie there on a ship's deck: its centre over the hull, at least ``min_on_hull`` of it
    over the hull (it may overhang the side or the end, as a 12 x 9 mm chest on a 12 mm hull does), clear of the
    mast by :data:`MAST_MM`."""
    if not on_hull(np.float64(along), np.float64(across)):
        return False
    a = math.radians(turn_deg)  # the mast in the chest's own frame
    u = -along * math.cos(a) - across * math.sin(a)
    v = along * math.sin(a) - across * math.cos(a)
    if abs(u) < CHEST_MM[0] / 2 + MAST_MM and abs(v) < CHEST_MM[1] / 2 + MAST_MM:
        return False
    return float(on_hull(*_chest_grid(along, across, turn_deg)).mean()) >= min_on_hull


def deck_spot(rng: np.random.Generator, tries: int = 500) -> tuple[float, float, float]:
    """Where a player puts a chest on a ship's deck: any point and turn that fits (:func:`deck_fits`), bow or
    stern alike: (along, across, turn) for :class:`BoardPiece`'s ``deck``."""
    for _ in range(tries):
        along = float(rng.uniform(-SHIP_MM[0] / 2, SHIP_MM[0] / 2))
        across = float(rng.uniform(-SHIP_MM[1] / 2, SHIP_MM[1] / 2))
        turn = float(rng.uniform(0, 180))
        if deck_fits(along, across, turn):
            return along, across, turn
    return CHEST_ABOARD_MM, 0.0, 0.0


def print_hidden(deck: tuple[float, float, float] | None) -> float:
    """How much of a carried chest's print (the middle 4 x 6 mm of its lid) the sail hides from above (0-1)."""
    along, across, turn = deck if deck is not None else (CHEST_ABOARD_MM, 0.0, 0.0)
    u, v = np.meshgrid(np.linspace(-2.0, 2.0, 9), np.linspace(-3.0, 3.0, 9))
    a = math.radians(turn)
    x, y = along + u * math.cos(a) - v * math.sin(a), across + u * math.sin(a) + v * math.cos(a)
    return float(((np.abs(x) <= SAIL_MM[0] / 2) & (np.abs(y) <= SAIL_MM[1] / 2)).mean())


def piece_for_look(look: str, pearl: str | None = None) -> tuple[str, int, tuple[int, int, int] | None]:
    """A camera template's name (``red boat``, ``green sailboat``, ``disc $``, ``disc treasure``) as the
    simulated table draws it: (kind, look, mark)."""
    if look.startswith("disc"):
        return "disc", 0 if look.endswith("$") else 1, None
    colour, _, kind = look.partition(" ")
    if colour not in BOAT_BGR or kind not in ("boat", "sailboat"):
        raise VisionError(f"board scene: no drawing for the piece {look!r} (expected COLOUR boat, COLOUR sailboat "
                          f"with COLOUR one of {', '.join(BOAT_BGR)}, or 'disc $' / 'disc treasure')")
    return kind, list(BOAT_BGR).index(colour), PEARL_BGR[pearl] if pearl else None


def piece_size(kind: str) -> tuple[float, float]:
    """A kind's footprint (mm, length x width)."""
    return {"ship": SHIP_MM, "boat": BOAT_MM, "sailboat": SAILBOAT_MM, "disc": (DISC_MM, DISC_MM)}.get(kind, CHEST_MM)


def footprint(kind: str, x: float, y: float, yaw: float) -> np.ndarray:
    """A piece's footprint on the board (4 corners, mm), to keep pieces from standing inside each other."""
    w, h = piece_size(kind)
    return cv2.boxPoints(((x, y), (w, h), yaw)).astype(np.float32)


def overlaps(fp: np.ndarray, others: Sequence[np.ndarray], gap_mm2: float = 1.0) -> bool:
    return any(cv2.intersectConvexConvex(fp, o)[0] > gap_mm2 for o in others)


def place_piece(polygon: Sequence[Sequence[float]], kind: str, rng: np.random.Generator,
                others: Sequence[np.ndarray], tries: int = 30) -> tuple[float, float, float, np.ndarray]:
    """Where a hand puts a piece of ``kind`` in a space (``polygon``, board mm) beside the pieces already
    there (``others``: footprints): anywhere at least its kind's inset inside the outline, turned at random,
    touching others but not inside them; on a crowded space nearer the outline (10, then 4 mm: a piece
    pushed partly across the line), as a player makes room. Returns x, y, yaw and the footprint."""
    inset = INSET_MM.get(kind, 4.0)
    for margin in (inset,) + tuple(v for v in (10.0, 4.0) if v < inset):
        for _ in range(tries):
            x, y = spot_in(polygon, rng, margin)
            yaw = float(rng.uniform(0, 180))
            fp = footprint(kind, x, y, yaw)
            if not overlaps(fp, others):
                return x, y, yaw, fp
    return x, y, yaw, fp


@dataclass
class BoardScene:
    """``art``: the board's straight picture at ``art_ppm`` px/mm; the board's top-left corner
    lies at ``origin_mm`` on a table of ``table_mm``, turned by ``angle_deg``."""

    art: np.ndarray
    art_ppm: float
    pieces: list[BoardPiece] = field(default_factory=list)
    origin_mm: tuple[float, float] = (50.0, 40.0)
    angle_deg: float = 0.0
    table_mm: tuple[float, float] = (700.0, 500.0)
    mat: Mat | None = None  # a mat's markers printed on the table (table mm = mat mm), for the fallback

    @property
    def size_mm(self) -> tuple[float, float]:
        h, w = self.art.shape[:2]
        return (w / self.art_ppm, h / self.art_ppm)

    def table_from_board(self) -> np.ndarray:
        """3x3: board mm -> table mm."""
        a = math.radians(self.angle_deg)
        c, s = math.cos(a), math.sin(a)
        return np.array([[c, -s, self.origin_mm[0]], [s, c, self.origin_mm[1]], [0, 0, 1]], np.float64)


@dataclass
class BoardTruth:
    """What was rendered: the camera pose (table mm = world mm) and the board's placement."""

    pose: CameraPose
    table_from_board: np.ndarray
    pieces: list[BoardPiece]

    def board_to_image(self, pts_mm: np.ndarray) -> np.ndarray:
        """Image pixels (distorted, as in the frame) of board mm points."""
        p = np.asarray(pts_mm, np.float64).reshape(-1, 2)
        t = np.column_stack([p, np.ones(len(p))]) @ self.table_from_board.T
        return self.pose.project(t[:, :2])


def _print_turned(plane: np.ndarray, text: str, centre_px: np.ndarray, yaw: float, scale: float,
                  colour: tuple[int, int, int], stroke: float = 2.0) -> None:
    """``text`` printed centred on ``centre_px``, turned by ``yaw`` degrees as the piece it is printed on; drawn
    4 times larger and shrunk (OpenCV versions draw a stroke's width a pixel apart: the print looks alike)."""
    k = 4
    thick = max(1, int(round(stroke * k)))
    (tw, th), base = text_size(text, scale * k, thick)  # stored glyphs (vision.sim.glyphs): alike on every stack
    n = (int(2 * max(tw, th + base) / k) + 4)
    big = np.zeros((n * k, n * k), np.uint8)
    put_text(big, text, (int(n * k / 2 - tw / 2), int(n * k / 2 + th / 2)), scale * k, 255, thick)
    M = cv2.getRotationMatrix2D((n * k / 2, n * k / 2), -yaw, 1.0)
    big = cv2.warpAffine(big, M, (n * k, n * k), flags=cv2.INTER_LINEAR)
    x0, y0 = int(round(centre_px[0] - n / 2)), int(round(centre_px[1] - n / 2))
    # shrunk so that the patch's centre lands on centre_px (sub-pixel)
    A = np.float32([[1 / k, 0, centre_px[0] - x0 - n / 2], [0, 1 / k, centre_px[1] - y0 - n / 2]])
    ink = cv2.warpAffine(cv2.GaussianBlur(big, (0, 0), k / 2.5), A, (n, n), flags=cv2.INTER_LINEAR)
    h, w = plane.shape[:2]
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(w, x0 + n), min(h, y0 + n)
    if xa >= xb or ya >= yb:
        return
    a = ink[ya - y0:yb - y0, xa - x0:xb - x0, None].astype(np.float32) / 255
    region = plane[ya:yb, xa:xb].astype(np.float32)
    plane[ya:yb, xa:xb] = (region * (1 - a) + np.float32(colour) * a).astype(plane.dtype)


def _draw_piece(plane: np.ndarray, ppm: float, piece: BoardPiece, centre: np.ndarray, yaw: float,
                shadow_dir: np.ndarray) -> None:
    def rect(w: float, h: float, dx: float = 0.0, dy: float = 0.0) -> np.ndarray:
        a = math.radians(yaw)
        c, s = math.cos(a), math.sin(a)
        pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]) + [dx, dy]
        rot = pts @ np.array([[c, s], [-s, c]])
        return np.round((rot + centre) * ppm * 16).astype(np.int32)

    def ellipse(w: float, h: float, colour, off=(0.0, 0.0)) -> None:
        c = np.round((centre + off) * ppm * 16).astype(int)
        cv2.ellipse(plane, (int(c[0]), int(c[1])), (int(w / 2 * ppm * 16), int(h / 2 * ppm * 16)), yaw, 0, 360,
                    colour, -1, cv2.LINE_AA, shift=4)

    def chest(up: bool, value: int, at: np.ndarray, box, turned: float = yaw) -> None:
        """A chest, face up with its value in thousands printed on the lid, or face down (dark wood)."""
        body = (40, 175, 225) if up else (30, 45, 75)
        cv2.fillConvexPoly(plane, box(*CHEST_MM), body, cv2.LINE_AA, shift=4)
        cv2.polylines(plane, [box(*CHEST_MM)], True, (20, 40, 60), max(1, int(ppm * 0.6)), cv2.LINE_AA, shift=4)
        if up:  # printed on the lid: it turns with the chest
            _print_turned(plane, str(value // 1000), at * ppm, turned, 0.28 * ppm, (20, 30, 60), 0.8 * ppm)

    if piece.kind == "ship":
        sail, pattern = SHIP_LOOKS[piece.look % len(SHIP_LOOKS)]
        ellipse(SHIP_MM[0], SHIP_MM[1], (20, 30, 45), off=tuple(shadow_dir * 2.5))  # shadow
        ellipse(SHIP_MM[0], SHIP_MM[1], (35, 60, 95))
        ellipse(SHIP_MM[0] - 5, SHIP_MM[1] - 4, (55, 90, 135))
        if piece.carries:  # on the deck where the player put it, under the sail where they overlap
            along, across, turn = piece.deck if piece.deck is not None else (CHEST_ABOARD_MM, 0.0, 0.0)
            a = math.radians(yaw)
            at = centre + along * np.array([math.cos(a), math.sin(a)]) + across * np.array([-math.sin(a), math.cos(a)])
            b = math.radians(yaw + turn)
            cb, sb = math.cos(b), math.sin(b)

            def lying(w: float, h: float, dx: float = 0.0, dy: float = 0.0) -> np.ndarray:
                pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]) + [dx, dy]
                return np.round((pts @ np.array([[cb, sb], [-sb, cb]]) + at) * ppm * 16).astype(np.int32)

            chest(True, piece.carries, at, lying, yaw + turn)
        cv2.fillConvexPoly(plane, rect(*SAIL_MM), sail, cv2.LINE_AA, shift=4)
        mark = (30, 30, 30) if sum(sail) > 300 else (235, 235, 235)
        if pattern == "stripe":
            cv2.fillConvexPoly(plane, rect(15, 1.5), mark, cv2.LINE_AA, shift=4)
        elif pattern == "cross":
            cv2.fillConvexPoly(plane, rect(15, 1.2), mark, cv2.LINE_AA, shift=4)
            cv2.fillConvexPoly(plane, rect(1.2, 10), mark, cv2.LINE_AA, shift=4)
        else:
            cv2.fillConvexPoly(plane, rect(3, 3), mark, cv2.LINE_AA, shift=4)
    elif piece.kind in ("boat", "sailboat"):
        hull = list(BOAT_BGR.values())[piece.look % len(BOAT_BGR)]
        w, h = BOAT_MM if piece.kind == "boat" else SAILBOAT_MM
        dark = tuple(int(v * 0.6) for v in hull)
        ellipse(w, h, (20, 30, 45), off=tuple(shadow_dir * 2.0))  # shadow
        ellipse(w, h, dark)
        ellipse(w - 2.5, h - 2.5, hull)
        if piece.kind == "sailboat":
            sail = tuple(int(v * 0.45 + 255 * 0.55) for v in hull)  # a light sail of the player's colour
            cv2.fillConvexPoly(plane, rect(10, 14), sail, cv2.LINE_AA, shift=4)
            cv2.fillConvexPoly(plane, rect(1.2, 14), (60, 60, 60), cv2.LINE_AA, shift=4)
        elif piece.mark is not None:
            ellipse(5.3, 5.3, (15, 15, 15), off=tuple(shadow_dir * 0.6))
            ellipse(5.0, 5.0, piece.mark)
    elif piece.kind == "disc":
        ellipse(DISC_MM, DISC_MM, (20, 30, 45), off=tuple(shadow_dir * 1.5))
        face = (50, 110, 35) if piece.look == 0 else (40, 60, 105)  # dark green "$", dark brown treasure
        ellipse(DISC_MM, DISC_MM, face)
        if piece.look == 0:
            scale = 0.35 * ppm
            (tw, th), _ = text_size("$", scale, 2)
            put_text(plane, "$", (int(centre[0] * ppm - tw / 2), int(centre[1] * ppm + th / 2)), scale,
                     (60, 190, 230), 2)
        else:  # a treasure chest
            cv2.fillConvexPoly(plane, rect(14, 9), (40, 175, 225), cv2.LINE_AA, shift=4)
            cv2.fillConvexPoly(plane, rect(14, 1.2), (20, 40, 60), cv2.LINE_AA, shift=4)
    elif piece.kind == "sheet":  # a sheet of paper (or a hand) over the board: ``look`` is its side in mm
        cv2.fillConvexPoly(plane, rect(piece.look, piece.look), (225, 228, 230), cv2.LINE_AA, shift=4)
    elif piece.kind in ("chest_up", "chest_down"):
        sh = rect(CHEST_MM[0], CHEST_MM[1], *(shadow_dir * 1.5))
        cv2.fillConvexPoly(plane, sh, (20, 30, 45), cv2.LINE_AA, shift=4)
        chest(piece.kind == "chest_up", piece.look, centre, rect)
    else:
        raise VisionError(f"board scene: unknown piece kind {piece.kind!r} (expected ship, chest_up, chest_down, boat, "
                          "sailboat, disc, sheet)")


def render_board_scene(scene: BoardScene, camera: CameraModel | str = "default",
                       rng: np.random.Generator | None = None, size: tuple[int, int] = (1920, 1080),
                       plane_ppm: float = 3.0) -> tuple[np.ndarray, BoardTruth]:
    """The board on the table as the camera sees it, and the truth."""
    if isinstance(camera, str):
        if camera not in NUISANCE:
            raise VisionError(f"camera: unknown nuisance preset {camera!r} (expected {', '.join(NUISANCE)})")
        camera = NUISANCE[camera]
    rng = rng if rng is not None else np.random.default_rng(0)
    tw, th = scene.table_mm
    pose = place_camera(camera, (tw, th), size, rng)
    light = camera.light_angle_deg if camera.light_angle_deg is not None else float(rng.uniform(0, 360))
    a = math.radians(light)
    shadow_dir = -np.array([math.cos(a), math.sin(a)])
    pw, ph = int(round(tw * plane_ppm)), int(round(th * plane_ppm))
    plane = cv2.resize(_wood(int(tw), int(th), (60, 95, 130)), (pw, ph), interpolation=cv2.INTER_LINEAR)
    if scene.mat is not None:
        for mid in scene.mat.marker_ids:
            paint_marker(plane, scene.mat, mid, plane_ppm)
    tfb = scene.table_from_board()
    A = (np.diag([plane_ppm, plane_ppm, 1.0]) @ tfb @ np.diag([1 / scene.art_ppm, 1 / scene.art_ppm, 1.0]))[:2]
    cv2.warpAffine(scene.art, A, (pw, ph), dst=plane, flags=cv2.INTER_AREA if scene.art_ppm > plane_ppm
                   else cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    for piece in scene.pieces:
        c = tfb @ np.array([piece.x_mm, piece.y_mm, 1.0])
        _draw_piece(plane, plane_ppm, piece, c[:2], piece.yaw_deg + scene.angle_deg, shadow_dir)
    img = photograph(plane, np.diag([plane_ppm, plane_ppm, 1.0]), pose, eight_bit=False)
    out = _camera_effects(img, camera, rng, light)
    return out, BoardTruth(pose, tfb, list(scene.pieces))


def piece_templates_scene(art: np.ndarray, art_ppm: float, spots: Sequence[tuple[float, float]],
                          pieces: Sequence[tuple[str, int]]) -> BoardScene:
    """The enrolment layout: each kind of piece once, ``pieces[k]`` (kind, look) at ``spots[k]``."""
    if len(spots) < len(pieces):
        raise VisionError(f"enrolment: {len(pieces)} pieces need as many spots, got {len(spots)}")
    return BoardScene(art, art_ppm, [BoardPiece(k, look, x, y, 0.0) for (k, look), (x, y) in zip(pieces, spots)])


def spot_in(polygon: Sequence[Sequence[float]], rng: np.random.Generator, inset_mm: float = 4.0,
            tries: int = 200) -> tuple[float, float]:
    """A random point inside ``polygon`` (board mm) at least ``inset_mm`` from its outline, as a
    hand puts a piece anywhere in a space (its footprint may well cross the printed lines); the
    polygon's centre when no such point is found."""
    poly = np.float32(polygon).reshape(-1, 1, 2)
    x0, y0 = poly.reshape(-1, 2).min(axis=0)
    x1, y1 = poly.reshape(-1, 2).max(axis=0)
    for _ in range(tries):
        x, y = float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1))
        if cv2.pointPolygonTest(poly, (x, y), True) >= inset_mm:
            return x, y
    c = poly.reshape(-1, 2).mean(axis=0)
    return float(c[0]), float(c[1])
