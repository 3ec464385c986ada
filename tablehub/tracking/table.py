"""What is on the table, in one shape for both sides of a comparison.

:class:`TableSeen` holds tiles by grid cell and the figures on them. It is built
either from the committed game state (``Game.view()``, see
:func:`expected_from_view`) or from what the camera recognised
(:func:`seen_from_observation`, an adapter over :mod:`vision.recognize`'s result).
Cells are the engine's grid coordinates (the start tile is at 0, 0).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

Cell = tuple[int, int]

#: vision's mapping of (best match score, best score of a read that means something else) to a confidence
Calibration = Callable[[float, float], float]

#: vision's region under a point of a laid tile: (tile id, rotation, u, v) -> region id (or None)
RegionAt = Callable[[str, int, float, float], "str | None"]


@dataclass(frozen=True)
class TileSeen:
    x: int
    y: int
    tile: str
    rotation: int                     # degrees clockwise: 0, 90, 180, 270
    confidence: float = 1.0
    alternatives: tuple[tuple[str, int, float], ...] = ()  # runners-up: (tile, rotation, confidence)
    separated: bool = False           # the confidence already accounts for the runner-up's margin
    scores: tuple[tuple[str, int, float], ...] = ()  # raw match scores (tile, rotation, score), best read first
    calibrate: Calibration | None = field(default=None, compare=False, repr=False)

    @property
    def cell(self) -> Cell:
        return (self.x, self.y)

    def reads(self) -> list[tuple[str, int, float]]:
        """The best read then the runners-up, best first, without repeats."""
        return _best_first(((self.tile, self.rotation, self.confidence), *self.alternatives))

    def scored_reads(self) -> list[tuple[str, int, float]]:
        """The reads with their raw match scores, best score first, without repeats (empty when unknown)."""
        return _best_first(self.scores)


def _best_first(reads: Iterable[tuple[str, int, float]]) -> list[tuple[str, int, float]]:
    """(tile, rotation, value) reads, the first of each (tile, rotation) kept, highest value first."""
    out: dict[tuple[str, int], float] = {}
    for t, r, v in reads:
        out.setdefault((t, r % 360), v)
    return sorted(((t, r, v) for (t, r), v in out.items()), key=lambda o: -o[2])


@dataclass(frozen=True)
class FigureSeen:
    x: int
    y: int
    color: str
    region: str | None = None         # region id in the tile's own frame ("G:N"), when known
    confidence: float = 1.0
    at: tuple[float, float] | None = None  # where on its tile (u east, v south, fractions of the tile as it lies)

    @property
    def cell(self) -> Cell:
        return (self.x, self.y)

    def key(self) -> tuple[Cell, str, str | None]:
        return (self.cell, self.color, self.region)


@dataclass(frozen=True)
class TableSeen:
    tiles: Mapping[Cell, TileSeen] = field(default_factory=dict)
    figures: tuple[FigureSeen, ...] = ()
    in_view: frozenset[Cell] | None = None
    """The cells the camera sees (vision's ``Observation.in_view``); ``None``: every cell (the committed
    state, or a recognizer that does not say: an observation with no or an empty ``in_view``)."""
    region_at: RegionAt | None = field(default=None, compare=False, repr=False)
    """Names the region under a figure's place (``FigureSeen.at``) on whatever tile is logged there."""

    def figures_at(self, cell: Cell) -> list[FigureSeen]:
        return [f for f in self.figures if f.cell == cell]

    def sees(self, cell: Cell) -> bool:
        """Whether the camera sees ``cell``: only then does a tile or figure missing there mean anything."""
        return self.in_view is None or cell in self.in_view


def expected_from_view(view: Mapping[str, Any]) -> TableSeen:
    """The table as the committed game state says it is (``Game.view()`` of a tile game)."""
    tiles = {}
    for t in view.get("tiles", ()):
        cell = (int(t["x"]), int(t["y"]))
        tiles[cell] = TileSeen(cell[0], cell[1], str(t["tile"]), int(t.get("rotation", 0)) % 360)
    figures = tuple(FigureSeen(int(f["x"]), int(f["y"]), str(f.get("color") or f.get("owner")), f.get("region"))
                    for f in view.get("figures", ()))
    return TableSeen(tiles, figures)


def _get(obj: Any, *names: str, default: Any = None) -> Any:
    for n in names:
        if isinstance(obj, Mapping) and n in obj:
            return obj[n]
        if hasattr(obj, n):
            return getattr(obj, n)
    return default


def _alternatives(raw: Iterable[Any] | None, best_confidence: float, best_score: float | None
                  ) -> tuple[tuple[str, int, float], ...]:
    """Runners-up as (tile, rotation, confidence). Vision reports runners-up by match score only;
    their confidence is then the best read's scaled by the score ratio (it orders the choices)."""
    out = []
    for a in raw or ():
        if isinstance(a, (tuple, list)):
            out.append((str(a[0]), int(a[1]) % 360, float(a[2])))
            continue
        conf = _get(a, "confidence")
        if conf is None:
            score = float(_get(a, "score", default=0.0))
            conf = best_confidence * max(0.0, score) / best_score if best_score else 0.0
        out.append((str(_get(a, "tile")), int(_get(a, "rotation", default=0)) % 360, float(conf)))
    return tuple(out)


def _scores(tile: str, rotation: int, score: float, raw: Iterable[Any] | None
            ) -> tuple[tuple[str, int, float], ...]:
    """The best read and its runners-up by raw match score (runners-up given as objects or dicts with a score)."""
    out = [(tile, rotation, score)]
    for a in raw or ():
        s = None if isinstance(a, (tuple, list)) else _get(a, "score")
        if s is None:
            return ()
        out.append((str(_get(a, "tile")), int(_get(a, "rotation", default=0)) % 360, float(s)))
    return tuple(out)


def seen_from_observation(obs: Any, calibrate: Calibration | None = None,
                          region_at: RegionAt | None = None) -> TableSeen:
    """Adapt a recognition result (objects or dicts with tiles and figures) to :class:`TableSeen`.

    ``calibrate``: vision's score -> confidence mapping; with it (and raw match scores in the
    result) the tracker recomputes confidences for reads grouped by what they mean to the rules.
    ``region_at``: vision's region lookup, to name a figure's region on the tile logged under it."""
    if isinstance(obs, TableSeen):
        return obs
    tiles = {}
    raw = _get(obs, "tiles", default=()) or ()
    for t in (raw.values() if isinstance(raw, Mapping) else raw):
        tile = _get(t, "tile", "tile_id")
        if tile is None:
            continue
        x, y = int(_get(t, "x")), int(_get(t, "y"))
        confidence = float(_get(t, "confidence", "score", default=1.0))
        score = _get(t, "score")
        separated = score is not None and _get(t, "confidence") is not None  # vision.tiles.TileGuess
        rotation = int(_get(t, "rotation", default=0)) % 360
        raw_alts = _get(t, "alternatives", "runners_up", "candidates")
        scores = (_scores(str(tile), rotation, float(score), raw_alts)
                  if calibrate is not None and separated else ())
        tiles[(x, y)] = TileSeen(x, y, str(tile), rotation, confidence,
                                 _alternatives(raw_alts, confidence, float(score) if score is not None else None),
                                 separated, scores, calibrate if scores else None)
    figures = tuple(
        FigureSeen(int(_get(f, "x")), int(_get(f, "y")), str(_get(f, "color", "colour")),
                   _get(f, "region"), float(_get(f, "confidence", default=1.0)), _place(f))
        for f in _get(obs, "figures", default=()) or ())
    in_view = _get(obs, "in_view")
    return TableSeen(tiles, figures, frozenset((int(x), int(y)) for x, y in in_view) if in_view else None,
                     region_at)


def _place(figure: Any) -> tuple[float, float] | None:
    u, v = _get(figure, "u"), _get(figure, "v")
    return (float(u), float(v)) if u is not None and v is not None else None
