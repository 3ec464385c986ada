"""Vision benchmark: seeded rendered tables at three nuisance levels, accuracy and speed.

    tablehub bench vision [--quick] [--games neuesland,suedsee] [--levels clean,default,hard] [--camera sim,field]
                          [--boards N] [--tiles 40-84] [--figures N] [--incremental N] [--repeats N]
                          [--seed S] [--anchored] [--from-scratch] [--verbose]

For every game and nuisance level: the set is enrolled from the (simulated) camera as a
person would (tiles laid out on the mat, then one figure per colour; other light, colour
balance, exposure and camera pose than the test tables); the game's first frame (the
start tile alone) fixes the grid; random boards (a connected blob of 40+ tiles, random
tiles and rotations, figures anywhere in random regions' true shapes in the art, each tile laid by hand against the lattice
that first frame's start tile defines, as at a table) are rendered at 1920x1080 and read. Prints per-tile accuracy (id + rotation), per-figure accuracy
(colour + region), whole-board accuracy, and CPU time per frame on one core
(``cv2.setNumThreads(1)``, one BLAS thread) for a full board and for an incremental update
(one new tile and one figure), and the figures wrong by cause, for the renderer's camera presets (``sim``) and a
second camera and light far from them (``field``). Neues Land uses the real scans
(../shared/data/neues_land/scans), Südsee its drawn art (provisional catalog).
See docs/vision.md.
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core, and no busy-waiting BLAS threads (when numpy is not loaded yet)

import argparse
import ctypes
import glob
import math
import platform
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from vision.enroll import CALIBRATION_COLOURS, enrol_simulated  # noqa: E402
from vision.geometry import TileGeometry  # noqa: E402
from vision.mat import Mat  # noqa: E402
from vision.loader import default_catalog_path  # noqa: E402
from vision.recognize import Recognizer  # noqa: E402
from vision.rectify import Rectifier  # noqa: E402
from vision.geometry import rotate_uv  # noqa: E402
from vision.regionmap import RegionMaps  # noqa: E402
from vision.sim import (FIELD, MAGENTA, NUISANCE, OLIVE_CLOTH, CameraModel, DrawnArt, ScanArt, Scene,  # noqa: E402
                        SceneFigure, SceneTile, place_camera, render)
from vision.tiles import CatalogInfo  # noqa: E402
from vision.cputime import StageClock  # noqa: E402
from tablehub.tracking.simtable import scans_folder  # noqa: E402

LEVELS = ("clean", "default", "hard")
SLOPPINESS = {"clean": 1.0, "default": 1.5, "hard": 2.0}
"""Hand placement per level: offsets up to 1.2 x this mm, turns up to 1.5 x this degrees."""
SIZE = (1920, 1080)


# --------------------------------------------------------------------------- scenes


Lattice = tuple[tuple[float, float], float]
"""Where the cell lattice lies on the mat: the centre of cell (0, 0) in mm and its turn (clockwise degrees)."""


def lattice_of(mat: Mat, start: SceneTile) -> Lattice:
    """The lattice a start tile laid by hand defines (at a real table the others are laid against it):
    cell (0, 0) where the tile's centre is, turned as the tile is."""
    cx, cy = mat.play_centre_mm
    return (cx + start.offset_mm[0], cy + start.offset_mm[1]), start.angle_deg


def first_frame(catalog: CatalogInfo, rng: np.random.Generator, mat: Mat | None = None) -> tuple[Scene, Lattice]:
    """The game's first frame, the start tile alone laid by hand near the middle of the play area, and
    the lattice it defines for the game."""
    mat = mat or Mat.default()
    lattice = lattice_of(mat, _sloppy(SceneTile(0, 0, catalog.start, 0), rng, 0.5))
    return on_lattice(mat, [SceneTile(0, 0, catalog.start, 0)], [], lattice), lattice


def on_lattice(mat: Mat, tiles: list[SceneTile], figures: list[SceneFigure], lattice: Lattice) -> Scene:
    return Scene(mat=mat, tiles=tiles, figures=figures, origin_mm=lattice[0], grid_angle_deg=lattice[1])


def random_board(catalog: CatalogInfo, geometry: TileGeometry, rng: np.random.Generator, n_tiles: int,
                 n_figures: int, sloppiness: float, colours: Sequence[str] = CALIBRATION_COLOURS,
                 mat: Mat | None = None, lattice: Lattice | None = None,
                 true_regions: RegionMaps | None = None, legal: str | None = None) -> Scene:
    """A connected blob of ``n_tiles`` cells around the start tile (within the play area), random
    tiles (respecting counts) and rotations, ``n_figures`` figures on random regions of random tiles.
    ``legal`` (a game's name): the tiles are instead the first ``n_tiles`` laid in a seeded random game of it
    (:func:`tablehub.games.tiles.playout.random_game`, kept on the play area): every side fits its neighbour, as
    on a table played by the rules.

    Every tile lies on ``lattice`` (the game's first frame's, see :func:`first_frame`), each laid by hand
    against it; the start tile lies exactly where the lattice puts cell (0, 0), as in the first frame.
    Without a lattice, the start tile is laid by hand near the middle of the play area and the others
    follow it. With ``true_regions`` (the regions' shapes from the art) figures stand anywhere in their region
    (:func:`figure_anywhere`), else on the slot model's anchor (a little jitter)."""
    mat = mat or Mat.default()
    cols, rows = mat.cells
    half_x, half_y = (cols - 1) // 2, (rows - 1) // 2
    pool = [t for t in catalog.tile_ids for _ in range(catalog.counts.get(t, 1))]
    pool.remove(catalog.start)
    n_tiles = min(n_tiles, len(pool) + 1)
    order = list(rng.permutation(len(pool)))
    cells = [(0, 0)]
    taken = {(0, 0)}
    while len(cells) < n_tiles:
        x, y = cells[int(rng.integers(len(cells)))]
        dx, dy = [(1, 0), (-1, 0), (0, 1), (0, -1)][int(rng.integers(4))]
        c = (x + dx, y + dy)
        if abs(c[0]) <= half_x and abs(c[1]) <= half_y and c not in taken:
            cells.append(c)
            taken.add(c)
    # the start tile's hand placement is drawn either way, so that a seed gives the same tiles and figures
    start = _sloppy(SceneTile(0, 0, catalog.start, 0), rng, 0.5)
    lattice = lattice if lattice is not None else lattice_of(mat, start)
    tiles = [SceneTile(0, 0, catalog.start, 0)]
    if legal is not None:
        from tablehub.games.tiles.playout import random_game
        game = random_game(legal, players=2, seed=int(rng.integers(2 ** 31)), finish=False,
                           within=lambda c: abs(c[0]) <= half_x and abs(c[1]) <= half_y)
        laid = sorted(((c, p) for c, p in game.board.cells.items() if c != (0, 0)), key=lambda kv: kv[1].order)
        for (x, y), placed in laid[:n_tiles - 1]:
            tiles.append(_sloppy(SceneTile(x, y, placed.tile.id, 90 * placed.rot), rng, sloppiness))
    for i, (x, y) in enumerate(cells[1:] if legal is None else ()):
        tiles.append(_sloppy(SceneTile(x, y, pool[order[i]], int(rng.integers(4)) * 90), rng, sloppiness))
    figures = []
    for k in rng.choice(len(tiles), size=min(n_figures, len(tiles)), replace=False):
        t = tiles[int(k)]
        regions = geometry.regions(t.tile)
        colour = colours[int(rng.integers(len(colours)))]
        region = regions[int(rng.integers(len(regions)))][0]
        figures.append(SceneFigure(t.x, t.y, colour, region) if true_regions is None else
                       figure_anywhere(t, colour, region, geometry, true_regions, rng, mat.tile_mm))
    return on_lattice(mat, tiles, figures, lattice)


EDGE_MM = (3.0, 8.0)
"""A figure near its tile's edge stands this far from it (its base, about 16 mm across, overhangs the seam; no
centre is nearer the edge than the lower bound, where a figure stands half on the next tile) ..."""
EDGE_SHARE = 0.4
"""... on this share of the figures; the others anywhere in their region."""
CLEAR_MM = 3.0
"""A figure's centre stands at least this far from any other region of its tile (where a player would see it
as on that region): anywhere else in the region's true shape, the tile's own edge no border."""


def figure_anywhere(t: SceneTile, colour: str, region: str, geometry: TileGeometry, true_regions: RegionMaps,
                    rng: np.random.Generator, tile_mm: float) -> SceneFigure:
    """A figure at a random point of ``region``'s true shape (from the art, not the slot model): near the tile's
    edge (:data:`EDGE_MM`) on :data:`EDGE_SHARE` of the figures where the region reaches it."""
    pts = true_regions.points_in(t.tile, region, CLEAR_MM / tile_mm)
    edge = np.minimum(np.minimum(pts[:, 0], 1 - pts[:, 0]), np.minimum(pts[:, 1], 1 - pts[:, 1])) * tile_mm
    near = pts[(edge >= EDGE_MM[0]) & (edge <= EDGE_MM[1])]
    on = pts[edge >= EDGE_MM[0]]      # a centre nearer the edge than that stands half on the next tile
    pool = near if len(near) and rng.random() < EDGE_SHARE else on if len(on) else pts
    u, v = pool[int(rng.integers(len(pool)))]
    ru, rv = rotate_uv(float(u), float(v), t.rotation)
    au, av = true_regions.anchor(t.tile, region, t.rotation)    # the renderer measures offsets from there
    return SceneFigure(t.x, t.y, colour, region, ((ru - au) * tile_mm, (rv - av) * tile_mm))


def _sloppy(t: SceneTile, rng: np.random.Generator, s: float) -> SceneTile:
    """The tile laid by hand: up to 1.2 x ``s`` mm off its cell and 1.5 x ``s`` degrees turned."""
    off = tuple(float(v) for v in np.clip(rng.normal(0, 0.5, 2) * s, -1.2 * s, 1.2 * s))
    ang = float(np.clip(rng.normal(0, 0.6), -1.5, 1.5) * s)
    return SceneTile(t.x, t.y, t.tile, t.rotation, off, ang)  # type: ignore[arg-type]


def grow(scene: Scene, catalog: CatalogInfo, geometry: TileGeometry, rng: np.random.Generator,
         sloppiness: float, colour: str, true_regions: RegionMaps | None = None) -> Scene:
    """The same table plus one new tile next to it and one figure on that new tile."""
    used: dict[str, int] = {}
    for t in scene.tiles:
        used[t.tile] = used.get(t.tile, 0) + 1
    free = [t for t in catalog.tile_ids if used.get(t, 0) < catalog.counts.get(t, 1)]
    taken = {(t.x, t.y) for t in scene.tiles}
    cols, rows = scene.mat.cells
    options = sorted({(t.x + dx, t.y + dy) for t in scene.tiles for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                      if (t.x + dx, t.y + dy) not in taken and abs(t.x + dx) <= (cols - 1) // 2
                      and abs(t.y + dy) <= (rows - 1) // 2})
    x, y = options[int(rng.integers(len(options)))]
    tid = free[int(rng.integers(len(free)))]
    new = _sloppy(SceneTile(x, y, tid, int(rng.integers(4)) * 90), rng, sloppiness)
    regions = geometry.regions(tid)
    region = regions[int(rng.integers(len(regions)))][0]
    fig = SceneFigure(x, y, colour, region) if true_regions is None else \
        figure_anywhere(new, colour, region, geometry, true_regions, rng, scene.mat.tile_mm)
    out = on_lattice(scene.mat, list(scene.tiles) + [new], list(scene.figures) + [fig],
                      (scene.origin, scene.grid_angle_deg))
    out.mat_colour = scene.mat_colour
    return out


# --------------------------------------------------------------------------- scoring


@dataclass
class Tally:
    tiles: int = 0
    tiles_ok: int = 0
    """Tiles right for the game (:func:`same_answer`): the true tile, a look-alike, or the true tile in a turn that
    plays the same (ds083, all sea, in any turn)."""
    tiles_turned_same: int = 0
    """... of those, the ones read in another turn than the picture's, one the game cannot tell from it: counted
    right, and shown, so that the count hides nothing."""
    figures: int = 0
    figures_ok: int = 0
    boards: int = 0
    boards_ok: int = 0
    boards_all_ok: int = 0
    tiles_ok_unsure: int = 0
    """Tiles counted right but read unsure (confidence under 0.5, or a twin named hidden under a figure): the phone
    asks, offering the right answer first."""
    boards_unasked: int = 0
    """... of the boards fully right, those the phone has nothing to ask about: every tile read sure (confidence 0.5
    or more, no twin named hidden under a figure) and no figure asked. A right tile the phone asks about counts
    fully right above (the answer offered first is right), an asked figure does not; this count holds both to the
    stricter reading, so the two can be compared."""
    figures_wrong_region: int = 0
    """Figures seen on their tile in their colour, on another region."""
    figures_missed: int = 0
    figures_phantom: int = 0
    """Figures seen where none stands (not explained as one of the others)."""
    figures_wrong_colour: int = 0
    """Figures seen on their tile and region in another colour."""
    figures_asked: int = 0
    """Figures seen on their tile in their colour on a tile the photo cannot tell from its twins, whose region differs
    between them (``FigureSeen.on_twins``): marked, for the phone to ask; never counted right (nor wrong)."""
    figures_asked_right: int = 0
    """... of those, the ones whose region (on the twin taken) is the true one."""
    figures_asked_bare: int = 0
    """... of those, the ones whose tile a frame of the same board without figures reads right and sure (confidence
    0.5 or more, no hidden twin): at a table the tile is laid before its figure, the live loop reads it bare and the
    game's log holds it (:func:`live_settles`); counted beside, never as right."""
    figures_asked_bare_right: int = 0
    """... and of those, the ones whose region on that tile where the figure was found is the true one (the
    tracker names a figure's region on the logged tile: ``TrackerRecognizer.region_at``)."""
    tiles_silently_empty: int = 0
    """Tiles not reported with no warning naming their cell."""
    tiles_wrong_sure: int = 0
    """Tiles read wrong for the game (:func:`same_answer`) with confidence 0.5 or more and no twin named as hidden under a figure: a silent error
    (the tracker commits it); the other wrong reads are marked guesses that go to the phone."""
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What is counted right but differs from the truth's record (:attr:`tiles_turned_same`), printed with -v."""

    def pct(self, a: int, b: int) -> str:
        return f"{100.0 * a / b:6.2f}%" if b else "     - "


def _looks_same(rec: Recognizer, w: tuple[str, int], g: tuple[str, int]) -> bool:
    """Whether (tile, rotation) ``w`` and ``g`` are one picture: the same, or templates that look the same."""
    clf = rec.classifier
    return w == g or clf.look[clf.ids.index(w[0]) + w[1] // 90] == clf.look[clf.ids.index(g[0]) + g[1] // 90]


def same_answer(rec: Recognizer, w: tuple[str, int] | None, g: tuple[str, int] | None) -> bool:
    """Whether reading ``g`` (tile, rotation) where ``w`` lies is right for the game: one picture
    (:func:`_looks_same`), or the tile in a turn the game cannot tell from the true one
    (:meth:`CatalogInfo.same_for_the_game`: ds083 all sea in any turn; ds013 turned 180): the answer the tracker
    logs as the same move. The bench counts tiles, silent errors and boards fully right by it, as the figures
    (:func:`_as_truth_names`)."""
    return w is not None and g is not None and (
        _looks_same(rec, w, g) or (w[0] == g[0] and rec.catalog.same_for_the_game(w[0], w[1], g[1])))


def _as_truth_names(rec: Recognizer, f: Any, got: dict, want: dict) -> str | None:
    """A seen figure's region named as the truth names it: on a tile read right for the rules in another turn (U1
    turned 90 or 270 degrees: its sea ``S:W`` lies where the other turn has ``S:E``), the true tile's region that
    reaches the same slots of the table (:meth:`CatalogInfo.region_layout`), a figure there stands on the same place;
    else the name as seen."""
    w, g = want.get((f.x, f.y)), got.get((f.x, f.y))
    if w is None or g is None or f.region is None or w == g or w[0] != g[0] \
            or not rec.catalog.same_for_the_game(w[0], w[1], g[1]):
        return f.region
    layout = rec.catalog.region_layout(g[0], g[1], f.region)
    same = [str(r["id"]) for r in rec.catalog.data["tiles"][rec.catalog.tile_ids.index(w[0])].get("regions", [])
            if layout is not None and rec.catalog.region_layout(w[0], w[1], str(r["id"])) == layout]
    return same[0] if len(same) == 1 else f.region


def live_settles(rec: Recognizer, obs: Any, bare: Any, truth: Any, tally: Tally) -> None:
    """The asked figures of ``obs`` (``FigureSeen.on_twins``) that the live loop would settle: the tile under each,
    read in ``bare`` (a frame of the same board without figures, as the table was before the figure was put on
    it), is the true tile, read sure; the figure's region is then the logged tile's region where it was found
    (``TrackerRecognizer.region_at``, the point). Counted in ``tally.figures_asked_bare`` and
    ``figures_asked_bare_right``; what counts as right does not change."""
    want = {(t["x"], t["y"]): (t["tile"], t["rotation"]) for t in truth.tiles}
    for f in obs.figures:
        if not getattr(f, "on_twins", ()) or not any((g["x"], g["y"], g["color"]) == (f.x, f.y, f.colour)
                                                     for g in truth.figures):
            continue            # a phantom asked (counted as a phantom)
        t, w = bare.tiles.get((f.x, f.y)), want.get((f.x, f.y))
        if t is None or w is None or t.confidence < 0.5 or t.hidden_twins \
                or not same_answer(rec, w, (t.tile, t.rotation)):
            continue
        tally.figures_asked_bare += 1
        region = rec.regions.region_at(t.tile, t.rotation, f.u, f.v) if rec.regions is not None else None
        tally.figures_asked_bare_right += any(
            (g["x"], g["y"], g["color"]) == (f.x, f.y, f.colour) and g["region"] == region for g in truth.figures)


def score_board(rec: Recognizer, obs: Any, truth: Any, tally: Tally, label: str) -> None:
    want = {(t["x"], t["y"]): (t["tile"], t["rotation"]) for t in truth.tiles}
    got = {c: (g.tile, g.rotation) for c, g in obs.tiles.items()}
    bad = 0
    unsure = sum(g.confidence < 0.5 or bool(g.hidden_twins) for g in obs.tiles.values())
    for cell in set(want) | set(got):
        tally.tiles += 1
        w, g = want.get(cell), got.get(cell)
        if same_answer(rec, w, g):
            tally.tiles_ok += 1
            seen = obs.tiles.get(cell)
            tally.tiles_ok_unsure += seen is not None and (seen.confidence < 0.5 or bool(seen.hidden_twins))
            if not _looks_same(rec, w, g):  # type: ignore[arg-type]
                tally.tiles_turned_same += 1
                guess = obs.tiles[cell]
                tally.notes.append(f"{label}: tile at {cell}: truth {w}, seen {g} (confidence "
                                   f"{guess.confidence:.2f}): the same for the game, counted right")
        else:
            bad += 1
            guess = obs.tiles.get(cell)
            sure = guess is not None and guess.confidence >= 0.5 and not guess.hidden_twins
            tally.tiles_wrong_sure += sure
            mark = "" if guess is None else \
                f" (confidence {guess.confidence:.2f}{', a hidden twin' if guess.hidden_twins else ''})"
            tally.errors.append(f"{label}: tile at {cell}: truth {w}, seen {g}{mark}")
    for cell, w in want.items():
        if cell not in got and not any(f"({cell[0]}, {cell[1]})" in text for text in obs.warnings):
            tally.tiles_silently_empty += 1
    fw = sorted((f["x"], f["y"], f["color"], f["region"]) for f in truth.figures)
    fg = sorted((f.x, f.y, f.colour, _as_truth_names(rec, f, got, want))
                for f in obs.figures if not getattr(f, "on_twins", ()))
    asked = sorted((f.x, f.y, f.colour, _as_truth_names(rec, f, got, want))
                   for f in obs.figures if getattr(f, "on_twins", ()))
    missing = list(fw)
    spurious = []
    for f in fg:
        if f in missing:
            missing.remove(f)
        else:
            spurious.append(f)
    ok = len(fw) - len(missing)
    # a figure marked asked (its region depends on which twin lies there) answers the figure of its colour on its
    # tile: neither right nor wrong, the phone asks
    for f in asked:
        hit = f if f in missing else next((m for m in missing if m[:3] == f[:3]), None)
        if hit is None:
            spurious.append(f)
            continue
        missing.remove(hit)
        tally.figures_asked += 1
        tally.figures_asked_right += hit == f
        tally.errors.append(f"{label}: figure {hit} asked: seen {f[3]} on the twin taken"
                            f"{' (right)' if hit == f else ''}")
    tally.figures += len(fw) + len(spurious)
    tally.figures_ok += ok
    # the errors by cause: a figure seen on its tile in its colour on another region, in another colour on its
    # region (or elsewhere on its tile), not seen at all; what is left of the sightings are phantoms
    for f in list(missing):
        for kind, same in (("on another region", lambda a, b: a[:3] == b[:3]),
                           ("in another colour", lambda a, b: a[:2] == b[:2] and a[3] == b[3]),
                           ("in another colour and region", lambda a, b: a[:2] == b[:2])):
            hit = next((g for g in spurious if same(f, g)), None)
            if hit is not None:
                spurious.remove(hit)
                if kind == "on another region":
                    tally.figures_wrong_region += 1
                else:
                    tally.figures_wrong_colour += 1
                tally.errors.append(f"{label}: figure {f} seen {kind}: {hit}")
                break
        else:
            tally.figures_missed += 1
            tally.errors.append(f"{label}: figure {f} not seen")
    tally.figures_phantom += len(spurious)
    for f in spurious:
        tally.errors.append(f"{label}: figure {f} seen but not there")
    tally.boards += 1
    tally.boards_ok += bad == 0
    tally.boards_all_ok += bad == 0 and not missing and not spurious and not asked
    tally.boards_unasked += bad == 0 and not missing and not spurious and not asked and not unsure


# --------------------------------------------------------------------------- running


@dataclass
class GameSetup:
    name: str
    catalog_path: Path
    catalog: CatalogInfo
    geometry: TileGeometry
    art: Any
    art_name: str
    true_regions: RegionMaps | None = None
    """The regions' true shapes in the art (scans: segmented by terrain; drawn art: the shapes it was drawn
    from), where the bench stands figures."""


def game_setup(game: str, scans: Path | None) -> GameSetup | None:
    path = default_catalog_path(game)
    if not path.is_file():
        return None
    catalog = CatalogInfo.load(path)
    geometry = TileGeometry(path)
    if game == "neuesland" and scans is not None and (scans / f"{catalog.start}.png").is_file():
        art, art_name = ScanArt(scans), f"scans ({scans})"
    else:
        art, art_name = DrawnArt(geometry), "drawn art (provisional)" if game != "neuesland" else "drawn art"
    if isinstance(art, ScanArt):
        truths = RegionMaps(geometry, {t: art.image(t, ART_PX) for t in catalog.tile_ids})
    else:
        truths = RegionMaps(geometry, {})     # drawn art is drawn from the slot model: its shapes are the truth
    return GameSetup(game, path, catalog, geometry, art, art_name, truths)


ART_PX = 100
"""The scans' own size: their regions are segmented there."""


CAMERAS = {"sim": NUISANCE, "field": FIELD}
"""Camera and light models: ``sim`` the renderer's presets (:data:`vision.sim.NUISANCE`), ``field`` a second one
far from them (:data:`vision.sim.FIELD`: another lens, warm and magenta casts, a dim corner, an olive cloth,
heavier JPEG, some frames with a marker at the frame's edge)."""
CLIP_EVERY = 4
"""On the field camera every this-many-th board is framed so that a marker's white border runs off the frame."""


def camera_of(family: str, level: str) -> CameraModel:
    return CAMERAS[family][level]


def enrolment_camera(level: str, family: str = "sim"):
    """The test camera model with other light, colour balance, exposure and pose: the enrolment session."""
    return camera_of(family, level).other_session()


def enrolled_recognizer(g: Any, level: str, family: str, rng: np.random.Generator) -> tuple[Recognizer, Any, Any, Mat]:
    """A recogniser on references enrolled as this bench enrols them (``level``'s enrolment camera of ``family``, on
    the family's cloth), read through the enrolment's lens on the default mat: (recogniser, refs, colours, mat)."""
    refs, colours, lens = enrol_simulated(g.catalog_path, g.art, enrolment_camera(level, family), rng, size=SIZE,
                                          geometry=g.geometry, mat_colour=mat_colour_of(family))
    mat = Mat.default()
    rec = Recognizer(g.catalog, refs, mat, geometry=g.geometry, colours=colours, rectifier=Rectifier(mat, lens=lens))
    rec.shapes_folder = shapes_folder(g)
    return rec, refs, colours, mat


def shapes_folder(g: GameSetup) -> Path | None:
    """The set's scans, where the recogniser learns its regions' shapes (a person enrolling by camera has the scans
    the set was printed from; None for drawn art, whose references are as sharp as its art)."""
    return g.art.folder if isinstance(g.art, ScanArt) else None


def mat_colour_of(family: str) -> tuple[int, int, int] | None:
    return OLIVE_CLOTH if family == "field" else None


def board_camera(family: str, level: str, board: int, mat: Mat, rng: np.random.Generator) -> CameraModel:
    """The camera for one board: on the field camera a magenta cast on odd boards (warm on the others) and every
    :data:`CLIP_EVERY`-th board framed with a marker's white border cut by the frame's edge."""
    cam = camera_of(family, level)
    if family != "field":
        return cam
    if board % 2:
        cam = cam.with_(colour_cast=MAGENTA)
    if board % CLIP_EVERY == CLIP_EVERY - 1:
        cam = clipped_marker_camera(cam, mat, rng)
    return cam


def clipped_marker_camera(cam: CameraModel, mat: Mat, rng: np.random.Generator, inside_px: float = 3.0
                          ) -> CameraModel:
    """``cam`` aimed (its height and tilt fixed) so that the marker nearest the frame's top or bottom edge has its
    black square ``inside_px`` inside the frame: its white border is cut off there, as on a table framed
    tight."""
    azimuth = float(rng.uniform(0, 360)) if cam.tilt_azimuth_deg is None else cam.tilt_azimuth_deg
    cam = cam.with_(tilt_azimuth_deg=azimuth, pose_jitter_deg=0.0)
    pose = place_camera(cam, (mat.width_mm, mat.height_mm), SIZE, np.random.default_rng(0))
    cam = cam.with_(height_mm=float(-pose.centre_mm[2]))
    quads = np.array([mat.marker_corners_mm(m) for m in mat.marker_ids])

    def gap(c: CameraModel) -> tuple[float, float]:
        p = place_camera(c, (mat.width_mm, mat.height_mm), SIZE, np.random.default_rng(0))
        y = p.project(quads.reshape(-1, 2))[:, 1]
        return float(y.min()), float(SIZE[1] - 1 - y.max())

    top, bottom = gap(cam)
    side = 0 if top < bottom else 1
    shift = list(cam.shift_mm)
    for _ in range(4):   # where the camera looks moves the picture by about a pixel a pixel-width of mat
        g0 = gap(cam.with_(shift_mm=tuple(shift)))[side]
        g1 = gap(cam.with_(shift_mm=(shift[0], shift[1] + 1.0)))[side]
        slope = g1 - g0
        if abs(slope) < 1e-6:
            break
        shift[1] += (inside_px - g0) / slope
    return cam.with_(shift_mm=(shift[0], shift[1]))


def row_seed(seed: int, game: str, level: str, family: str, levels: list[str]) -> int:
    """The seed of one row (game, camera, level). It follows the row itself, not its place in ``--levels`` or
    ``--camera``: ``--camera field --levels hard`` reads the same boards as the field/hard row of a full run.
    (Before, the camera's place in ``--camera`` counted, so a field row run alone read the sim row's boards.)"""
    i = LEVELS.index(level) if level in LEVELS else len(LEVELS) + levels.index(level)
    return seed * 1000 + i * 17 + len(game) + 7919 * list(CAMERAS).index(family)


def run_level(g: GameSetup, level: str, args: argparse.Namespace, seed: int, family: str = "sim") -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    camera = camera_of(family, level)
    cloth = mat_colour_of(family)
    truths = g.true_regions if getattr(args, "anywhere", True) else None
    t0 = time.perf_counter()
    refs, colours, lens = enrol_simulated(g.catalog_path, g.art, enrolment_camera(level, family), rng, size=SIZE,
                                          geometry=g.geometry, mat_colour=cloth)
    enrol_s = time.perf_counter() - t0
    mat = Mat.default()
    rec = Recognizer(g.catalog, refs, mat, geometry=g.geometry, colours=colours, rectifier=Rectifier(mat, lens=lens))
    rec.shapes_folder = shapes_folder(g)
    tally = Tally()
    lo, hi = args.tiles
    max_tiles = sum(g.catalog.counts.values())
    # the game starts with the start tile alone on the table: that frame fixes the grid for the game, and
    # every board's tiles lie on the lattice that tile defines
    first, lattice = first_frame(g.catalog, rng, mat)
    if cloth is not None:
        first.mat_colour = cloth
    frame0, _ = render(first, g.art, camera, rng, SIZE, geometry=g.geometry, shapes=truths)
    grid0 = rec.observe(frame0).grid
    start_ok = 0
    for b in range(args.boards):
        n = int(rng.integers(lo, min(hi, max_tiles) + 1))
        scene = random_board(g.catalog, g.geometry, rng, n, args.figures, SLOPPINESS[level], lattice=lattice,
                             true_regions=truths, legal=g.name if getattr(args, "legal", False) else None)
        if cloth is not None:
            scene.mat_colour = cloth
        cam = board_camera(family, level, b, mat, rng)
        frame, truth = render(scene, g.art, cam, rng, SIZE, geometry=g.geometry, shapes=truths)
        try:
            obs = rec.observe(frame, grid=grid0)
        except Exception as exc:  # a failed board counts as all wrong, and is reported
            tally.errors.append(f"{level} board {b}: {type(exc).__name__}: {exc}")
            tally.tiles += len(truth.tiles)
            tally.figures += len(truth.figures)
            tally.boards += 1
            continue
        score_board(rec, obs, truth, tally, f"{level} board {b} ({n} tiles)")
        if any(getattr(f, "on_twins", ()) for f in obs.figures):
            # the same board without its figures, as the live loop saw it before they were put on (its own noise:
            # the row's generator is not touched)
            bare_frame, _ = render(replace(scene, figures=[]), g.art, cam, np.random.default_rng([seed, b]), SIZE,
                                   geometry=g.geometry, shapes=truths)
            try:
                live_settles(rec, obs, rec.observe(bare_frame, grid=grid0), truth, tally)
            except Exception as exc:
                tally.errors.append(f"{level} board {b} without its figures: {type(exc).__name__}: {exc}")
        if args.from_scratch:
            try:
                scratch = rec.observe(frame, relocate=False)
                start_ok += _same_grid(scratch.grid, grid0)
            except Exception:
                pass
    # speed: a full board
    full = random_board(g.catalog, g.geometry, rng, max_tiles, args.figures, SLOPPINESS[level], lattice=lattice,
                        true_regions=truths, legal=g.name if getattr(args, "legal", False) else None)
    if cloth is not None:
        full.mat_colour = cloth
    frame, truth = render(full, g.art, camera, rng, SIZE, geometry=g.geometry, shapes=truths)
    times_cold, times_known, times_locate = [], [], []
    obs = None
    rec.observe(frame, grid=grid0)  # warm-up: lazily built templates, remap tables
    # CPU per stage of the timed readings (vision.cputime): where the time goes
    clocks = {"cold": StageClock(), "known": StageClock(), "inc": StageClock()}
    for _ in range(args.repeats):
        rec.rectifier.reset()
        rec.clock = clocks["cold"]
        with Timer(times_cold):
            try:
                rec.observe(frame)
            except Exception as exc:
                tally.errors.append(f"{level} full board from scratch: {type(exc).__name__}: {exc}")
        rec.clock = clocks["known"]
        with Timer(times_known):
            obs = rec.observe(frame, grid=grid0, relocate=False)
        rec.clock = StageClock()
        with Timer(times_locate):
            rec.rectifier.locate(frame)
    full_tally = Tally()
    score_board(rec, obs, truth, full_tally, f"{level} full board")
    # speed: an incremental update (one new tile + one figure), camera still
    times_inc = []
    inc_tally = Tally()
    for k in range(args.incremental):
        base = random_board(g.catalog, g.geometry, rng, int(rng.integers(lo, min(hi, max_tiles - 1) + 1)),
                            args.figures, SLOPPINESS[level], lattice=lattice, true_regions=truths)
        if cloth is not None:
            base.mat_colour = cloth
        more = grow(base, g.catalog, g.geometry, rng, SLOPPINESS[level],
                    CALIBRATION_COLOURS[k % len(CALIBRATION_COLOURS)], true_regions=truths)
        pose_seed = int(rng.integers(1 << 30))
        f0, _ = render(base, g.art, camera, np.random.default_rng(pose_seed), SIZE, geometry=g.geometry,
                       shapes=truths)
        f1, truth1 = render(more, g.art, camera, np.random.default_rng(pose_seed), SIZE, geometry=g.geometry,
                            shapes=truths)
        rec.rectifier.reset()
        try:
            before = rec.observe(f0, grid=grid0)
        except Exception as exc:
            inc_tally.errors.append(f"{level} incremental {k}: {type(exc).__name__}: {exc}")
            continue
        for _ in range(args.repeats):
            rec.clock = clocks["inc"]
            with Timer(times_inc):
                after = rec.observe(f1, previous=before, relocate=False)
            rec.clock = StageClock()
        score_board(rec, after, truth1, inc_tally, f"{level} incremental {k}")
    return {"tally": tally, "full_tally": full_tally, "inc_tally": inc_tally, "enrol_s": enrol_s, "start_ok": start_ok,
            "cold": _ms(times_cold), "known": _ms(times_known), "locate": _ms(times_locate), "inc": _ms(times_inc),
            "inc_p90": _ms(times_inc, 90), "full_tiles": len(truth.tiles), "clocks": clocks}


def _fully_right(t: Tally, r: dict[str, Any]) -> str:
    """Boards fully right counting the row's boards, its full board and its incremental updates (each a board)."""
    ok = t.boards_all_ok + sum(r[k].boards_all_ok for k in ("full_tally", "inc_tally"))
    n = t.boards + sum(r[k].boards for k in ("full_tally", "inc_tally"))
    return f"{ok}/{n} = {t.pct(ok, n).strip()}"


def _same_grid(a: Any, b: Any) -> bool:
    """Two grids that put every cell within 3 mm of each other (and north the same way)."""
    da = (a.angle_deg - b.angle_deg + 180.0) % 360.0 - 180.0
    return abs(da) < 2.0 and math.dist(a.origin_mm, b.origin_mm) < 3.0


class Timer:
    """Appends (cpu seconds, wall seconds) of the block to a list. CPU time is what this process used
    (all its threads), so other jobs on a shared machine do not inflate it."""

    def __init__(self, into: list):
        self.into = into

    def __enter__(self) -> "Timer":
        self.cpu, self.wall = time.process_time(), time.perf_counter()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.into.append((time.process_time() - self.cpu, time.perf_counter() - self.wall))


def _ms(times: list, pct: float = 50) -> tuple[float, float]:
    """(cpu ms, wall ms) at the given percentile."""
    if not times:
        return (float("nan"), float("nan"))
    arr = np.array(times) * 1000
    return (float(np.percentile(arr[:, 0], pct)), float(np.percentile(arr[:, 1], pct)))


def single_thread_blas() -> str:
    """Make numpy's OpenBLAS use one thread even when numpy was imported before this module.

    Several BLAS threads busy-wait between the many small products of recognition: on a
    2-core machine that doubles the CPU time of an incremental update.
    """
    libs = glob.glob(os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs", "*openblas*"))
    for lib in libs:
        try:
            cdll = ctypes.CDLL(lib)
        except OSError:
            continue
        for name in ("scipy_openblas_set_num_threads64_", "openblas_set_num_threads64_", "openblas_set_num_threads"):
            fn = getattr(cdll, name, None)
            if fn is not None:
                fn(1)
                return "one BLAS thread"
    return f"BLAS threads as set by OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}"


def _range(text: str) -> tuple[int, int]:
    lo, _, hi = text.partition("-")
    return int(lo), int(hi or lo)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tablehub bench vision", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="CI size: 2 boards per level, 1 incremental, 2 repeats")
    p.add_argument("--games", default="neuesland,suedsee", help="comma-separated games (default: both)")
    p.add_argument("--levels", default=",".join(LEVELS), help="nuisance levels (default: clean,default,hard)")
    p.add_argument("--boards", type=int, default=20, help="random boards per level (default 20)")
    p.add_argument("--tiles", type=_range, default=(40, 84), help="tiles per board, MIN-MAX (default 40-84)")
    p.add_argument("--figures", type=int, default=10, help="figures per board (default 10)")
    p.add_argument("--incremental", type=int, default=4, help="incremental updates timed per level (default 4)")
    p.add_argument("--repeats", type=int, default=5, help="timing repeats per frame (default 5)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--scans", default=str(scans_folder("neuesland")),
                   help="Neues Land tile scans (default $TABLEHUB_SHARED or ../shared, then data/neues_land/scans)")
    p.add_argument("--camera", default="sim,field",
                   help="camera and light models, comma-separated: sim (the renderer's presets), field (another "
                        "lens, warm and magenta casts, a dim corner, an olive cloth, heavy JPEG, markers at the "
                        "frame's edge); default both")
    p.add_argument("--anchored", action="store_true",
                   help="stand figures on the slot model's anchors (the bench before issue 14) instead of anywhere "
                        "in their region's true shape")
    p.add_argument("--legal", action="store_true",
                   help="boards laid by the rules (the first tiles of a seeded random game: every side fits its "
                        "neighbour) instead of random tiles in random turns")
    p.add_argument("--verbose", "-v", action="store_true", help="list every error")
    p.add_argument("--from-scratch", action="store_true",
                   help="also find the start tile afresh on every board (no grid from the game's first frame) "
                        "and count how often it lands where the game's grid is")
    args = p.parse_args(list(argv) if argv is not None else None)
    args.anywhere = not args.anchored
    families = [c.strip() for c in args.camera.split(",") if c.strip()]
    if [c for c in families if c not in CAMERAS]:
        print(f"tablehub bench vision: --camera: unknown camera(s) {', '.join(c for c in families if c not in CAMERAS)}"
              f" (known: {', '.join(CAMERAS)})", file=sys.stderr)
        return 2
    if args.quick:
        args.boards, args.incremental, args.repeats = min(args.boards, 2), min(args.incremental, 1), 2
    cv2.setNumThreads(1)
    blas = single_thread_blas()
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    unknown = [lv for lv in levels if lv not in NUISANCE]
    if unknown:
        print(f"tablehub bench vision: unknown level(s) {', '.join(unknown)} (known: {', '.join(NUISANCE)})",
              file=sys.stderr)
        return 2
    scans = Path(args.scans) if args.scans else None
    print(f"vision benchmark: Python {platform.python_version()}, OpenCV {cv2.__version__}, one core "
          f"(cv2.setNumThreads(1), {blas}), frames {SIZE[0]}x{SIZE[1]}, seed {args.seed}")
    print(f"  {args.boards} boards/level of {args.tiles[0]}-{args.tiles[1]} tiles with {args.figures} figures; "
          "references and colours enrolled from a camera session with other light and pose")
    status = 0
    for game in [x.strip() for x in args.games.split(",") if x.strip()]:
        g = game_setup(game, scans)
        if g is None:
            print(f"\n{game}: no catalog ({default_catalog_path(game)}), skipped")
            continue
        print(f"\n{game}: {len(g.catalog.tile_ids)} tile types, {sum(g.catalog.counts.values())} tiles, "
              f"art: {g.art_name}")
        where = "on the slot model's anchors" if args.anchored else "anywhere in their region (true shapes: the art)"
        print(f"  figures {where}")
        print("  level     tiles ok  figures ok  boards ok  +figures | ms per frame, CPU (wall): full board "
              "from scratch, full board with the game's grid, marker search, incremental median / p90")
        for family, level in [(f, lv) for f in families for lv in levels]:
            r = run_level(g, level, args, row_seed(args.seed, game, level, family, levels), family)
            t: Tally = r["tally"]
            ms = " | ".join(f"{r[k][0]:.0f} ({r[k][1]:.0f})" for k in ("cold", "known", "locate"))
            name = level if family == "sim" else f"{family}/{level}"
            print(f"  {name:13s} {t.pct(t.tiles_ok, t.tiles)}  {t.pct(t.figures_ok, t.figures)}  "
                  f"{t.boards_ok:4d}/{t.boards:<4d} {t.boards_all_ok:4d}/{t.boards:<4d}| {ms} | "
                  f"{r['inc'][0]:.1f} ({r['inc'][1]:.1f}) / {r['inc_p90'][0]:.1f}")
            full_errors, inc_errors = len(r["full_tally"].errors), len(r["inc_tally"].errors)
            print(f"           tiles right for the game, counted above: {t.tiles_ok} of {t.tiles}, "
                  f"{t.tiles_turned_same} of them read in another turn that plays the same (ds083 all sea); "
                  f"read wrong without a mark (confidence >= 0.5, no hidden twin): {t.tiles_wrong_sure} of "
                  f"{t.tiles - t.tiles_ok}")
            print(f"           figures wrong: {t.figures_wrong_region} on another region, {t.figures_missed} missed, "
                  f"{t.figures_phantom} phantom, {t.figures_wrong_colour} in another colour; asked (on a tile not "
                  f"told from its twins, its region differs between them; not counted right): {t.figures_asked} "
                  f"({t.figures_asked_right} of them on the true region; the live loop, reading the tile bare "
                  f"before the figure is put on it: {t.figures_asked_bare} settled, {t.figures_asked_bare_right} "
                  f"of them on the true region); tiles missed without a "
                  f"warning: {t.tiles_silently_empty}")
            print(f"           boards fully right (every tile and figure): {t.boards_all_ok}/{t.boards} = "
                  f"{t.pct(t.boards_all_ok, t.boards).strip()}; with the full board and the incremental updates: "
                  f"{_fully_right(t, r)}; of the row's boards, with nothing for the phone to ask (every tile "
                  f"sure, no figure asked): {t.boards_unasked}/{t.boards}, {t.tiles_ok_unsure} tiles right but read "
                  f"unsure")
            print(f"           counted: {t.tiles} tiles, {t.figures} figures; full board ({r['full_tiles']} tiles): "
                  f"{full_errors} errors; incremental updates: {inc_errors} errors; enrolment {r['enrol_s']:.1f} s")
            print("           CPU ms per stage (mean per reading, this thread): from scratch: "
                  f"{r['clocks']['cold'].summary()}")
            print(f"             with the game's grid: {r['clocks']['known'].summary()}")
            print(f"             incremental: {r['clocks']['inc'].summary()}")
            if args.from_scratch:
                print(f"           start tile found afresh on a full board: {r['start_ok']}/{t.boards}")
            errors = t.errors + r["full_tally"].errors + r["inc_tally"].errors
            if args.verbose:
                for e in t.notes + r["full_tally"].notes + r["inc_tally"].notes:
                    print(f"             {e}")
            if errors and args.verbose:
                for e in errors:
                    print(f"             {e}")
            elif errors:
                print(f"             first errors: {'; '.join(errors[:3])}")
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
