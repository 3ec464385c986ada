"""What lies on the table: tiles on a grid, figures on tile regions, hands.

Grid conventions: cell ``(x, y)``; x grows east (right on the mat), y grows south
(down); the cell pitch is the mat's tile size; the centre of cell (0, 0) lies at
``origin_mm`` on the mat (default: the centre of the play area), and the lattice is
turned by ``grid_angle_deg`` (clockwise, about that centre). At a real table tiles are
laid against their neighbours, so the whole lattice follows the start tile's small turn;
each tile's own ``offset_mm`` and ``angle_deg`` (hand placement) are relative to the lattice.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from .. import VisionError
from ..mat import Mat


@dataclass(frozen=True)
class SceneTile:
    """A tile of type ``tile`` at cell (x, y), turned clockwise by ``rotation`` (0/90/180/270).

    ``offset_mm`` (along the lattice's east and south) and ``angle_deg`` (clockwise) are how
    sloppily it was put down against the lattice.
    """

    x: int
    y: int
    tile: str
    rotation: int = 0
    offset_mm: tuple[float, float] = (0.0, 0.0)
    angle_deg: float = 0.0


@dataclass(frozen=True)
class SceneFigure:
    """A figure of player colour ``color`` on region ``region`` (catalog id) of the tile at (x, y).

    ``region=None`` puts it in the middle of the cell. ``offset_mm`` moves it from the
    region's anchor (``None``: a small random jitter that keeps it inside the region).
    ``lying`` figures (a farmer, a fisher) are drawn on their side.
    """

    x: int
    y: int
    color: str
    region: str | int | None = None
    offset_mm: tuple[float, float] | None = None
    lying: bool = False


@dataclass(frozen=True)
class SceneHand:
    """A hand reaching in from a table edge ("top", "bottom", "left", "right"; None: nearest)
    with its fingertips at mat point ``(x_mm, y_mm)``."""

    x_mm: float
    y_mm: float
    edge: str | None = None


@dataclass
class Scene:
    """A table to draw. ``hands`` is a count (random reaches) or explicit :class:`SceneHand` s.

    ``origin_mm`` and ``grid_angle_deg`` place the cell lattice on the mat (see the module's doc).
    """

    mat: Mat = field(default_factory=Mat.default)
    tiles: list[SceneTile] = field(default_factory=list)
    figures: list[SceneFigure] = field(default_factory=list)
    hands: int | Sequence[SceneHand] = 0
    origin_mm: tuple[float, float] | None = None
    mat_colour: tuple[int, int, int] = (62, 84, 58)  # dark green felt-like board (BGR)
    table_colour: tuple[int, int, int] = (70, 110, 150)  # wood (BGR)
    grid_angle_deg: float = 0.0

    @property
    def origin(self) -> tuple[float, float]:
        return self.origin_mm if self.origin_mm is not None else self.mat.play_centre_mm

    def _turn(self) -> tuple[float, float]:
        a = math.radians(self.grid_angle_deg)
        return math.cos(a), math.sin(a)

    def lattice_to_mat(self, x: float, y: float) -> tuple[float, float]:
        """Mat mm of lattice point (x, y), in cells (cell centres at integers)."""
        ox, oy = self.origin
        t = self.mat.tile_mm
        c, s = self._turn()
        return (ox + t * (c * x - s * y), oy + t * (s * x + c * y))

    def cell_centre_mm(self, x: float, y: float) -> tuple[float, float]:
        return self.lattice_to_mat(x, y)

    def cell_at_mm(self, x_mm: float, y_mm: float) -> tuple[int, int]:
        ox, oy = self.origin
        t = self.mat.tile_mm
        c, s = self._turn()
        dx, dy = (x_mm - ox) / t, (y_mm - oy) / t
        return (int(np.floor(c * dx + s * dy + 0.5)), int(np.floor(-s * dx + c * dy + 0.5)))

    def tile_pose(self, tile: SceneTile) -> tuple[tuple[float, float], float]:
        """Where a scene tile lies on the mat: its centre (mm) and its turn (clockwise degrees), its hand
        placement taken against the lattice."""
        t = self.mat.tile_mm
        return (self.lattice_to_mat(tile.x + tile.offset_mm[0] / t, tile.y + tile.offset_mm[1] / t),
                self.grid_angle_deg + tile.angle_deg)


def scene_from_view(view: Mapping[str, Any], mat: Mat | None = None, origin_mm: tuple[float, float] | None = None,
                    rng: np.random.Generator | None = None, sloppiness: float = 1.0,
                    hands: int | Sequence[SceneHand] = 0, grid_angle_deg: float = 0.0) -> Scene:
    """A scene from a tile game's ``view()`` JSON::

        {"kind": "tiles", "tiles": [{"x": 0, "y": 0, "tile": "ds001", "rotation": 0}, ...],
         "figures": [{"x": 0, "y": 0, "region": "G:N", "color": "red"}, ...]}

    Figures without a colour get one per ``owner`` (red, blue, green, ... in order of appearance).

    ``origin_mm=None`` centres the laid tiles on the play area; ``grid_angle_deg`` turns the
    lattice (the start tile's turn). With ``rng``, tiles get a hand-placed look against the
    lattice: offsets up to ``1.2 * sloppiness`` mm and turns up to ``1.5 * sloppiness`` degrees.
    """
    if not isinstance(view, Mapping) or view.get("kind") != "tiles":
        kind = view.get("kind") if isinstance(view, Mapping) else type(view).__name__
        raise VisionError(f"view: expected a tile game's view (kind 'tiles'), got kind {kind!r}")
    mat = mat or Mat.default()
    tiles: list[SceneTile] = []
    for i, t in enumerate(view.get("tiles", [])):
        try:
            x, y, tile, rot = int(t["x"]), int(t["y"]), str(t["tile"]), int(t.get("rotation", 0))
        except (KeyError, TypeError, ValueError):
            raise VisionError(f"view: tiles[{i}]: expected {{x, y, tile, rotation}}, got {t!r}") from None
        off, ang = (0.0, 0.0), 0.0
        if rng is not None and sloppiness > 0:
            off = (float(rng.normal(0, 0.5)) * sloppiness, float(rng.normal(0, 0.5)) * sloppiness)
            off = (float(np.clip(off[0], -1.2 * sloppiness, 1.2 * sloppiness)),
                   float(np.clip(off[1], -1.2 * sloppiness, 1.2 * sloppiness)))
            ang = float(np.clip(rng.normal(0, 0.6), -1.5, 1.5)) * sloppiness
        tiles.append(SceneTile(x, y, tile, rot, off, ang))
    figures: list[SceneFigure] = []
    owners: dict[str, str] = {}  # figures without a colour get one per owner, in order of appearance
    spare = ["red", "blue", "green", "yellow", "black", "purple", "orange"]
    for i, f in enumerate(view.get("figures", []) or []):
        try:
            colour = f.get("color") or f.get("colour")
            if not colour:
                owner = str(f.get("owner", "?"))
                colour = owners.setdefault(owner, spare[len(owners) % len(spare)])
            figures.append(SceneFigure(int(f["x"]), int(f["y"]), str(colour), f.get("region"),
                                       lying=bool(f.get("lying", False))))
        except (KeyError, TypeError, ValueError, AttributeError):
            raise VisionError(f"view: figures[{i}]: expected {{x, y, region, color}}, got {f!r}") from None
    if origin_mm is None and tiles:
        xs = [t.x for t in tiles]
        ys = [t.y for t in tiles]
        cx, cy = mat.play_centre_mm
        origin_mm = (cx - (min(xs) + max(xs)) / 2 * mat.tile_mm, cy - (min(ys) + max(ys)) / 2 * mat.tile_mm)
    return Scene(mat=mat, tiles=tiles, figures=figures, hands=hands, origin_mm=origin_mm,
                 grid_angle_deg=float(grid_angle_deg))
