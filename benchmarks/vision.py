"""Vision benchmark: seeded rendered tables at three nuisance levels, accuracy and speed.

    tablehub bench vision [--quick] [--games neuesland,suedsee] [--levels clean,default,hard]
                          [--boards N] [--tiles 40-84] [--figures N] [--incremental N] [--repeats N]
                          [--seed S] [--from-scratch] [--verbose]

For every game and nuisance level: the set is enrolled from the (simulated) camera as a
person would (tiles laid out on the mat, then one figure per colour; other light, colour
balance, exposure and camera pose than the test tables); the game's first frame (the
start tile alone) fixes the grid; random boards (a connected blob of 40+ tiles, random
tiles and rotations, figures on random regions, each tile laid by hand against the lattice
that first frame's start tile defines, as at a table) are rendered at 1920x1080 and read. Prints per-tile accuracy (id + rotation), per-figure accuracy
(colour + region), whole-board accuracy, and CPU time per frame on one core
(``cv2.setNumThreads(1)``, one BLAS thread) for a full board and for an incremental update
(one new tile and one figure). Neues Land uses the real scans
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
from dataclasses import dataclass, field
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
from vision.recognize import Recognizer, default_catalog_path  # noqa: E402
from vision.rectify import Rectifier  # noqa: E402
from vision.sim import NUISANCE, DrawnArt, ScanArt, Scene, SceneFigure, SceneTile, render  # noqa: E402
from vision.tiles import CatalogInfo  # noqa: E402
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
                 mat: Mat | None = None, lattice: Lattice | None = None) -> Scene:
    """A connected blob of ``n_tiles`` cells around the start tile (within the play area), random
    tiles (respecting counts) and rotations, ``n_figures`` figures on random regions of random tiles.

    Every tile lies on ``lattice`` (the game's first frame's, see :func:`first_frame`), each laid by hand
    against it; the start tile lies exactly where the lattice puts cell (0, 0), as in the first frame.
    Without a lattice, the start tile is laid by hand near the middle of the play area and the others
    follow it."""
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
    for i, (x, y) in enumerate(cells[1:]):
        tiles.append(_sloppy(SceneTile(x, y, pool[order[i]], int(rng.integers(4)) * 90), rng, sloppiness))
    figures = []
    for k in rng.choice(len(tiles), size=min(n_figures, len(tiles)), replace=False):
        t = tiles[int(k)]
        regions = geometry.regions(t.tile)
        figures.append(SceneFigure(t.x, t.y, colours[int(rng.integers(len(colours)))],
                                   regions[int(rng.integers(len(regions)))][0]))
    return on_lattice(mat, tiles, figures, lattice)


def _sloppy(t: SceneTile, rng: np.random.Generator, s: float) -> SceneTile:
    """The tile laid by hand: up to 1.2 x ``s`` mm off its cell and 1.5 x ``s`` degrees turned."""
    off = tuple(float(v) for v in np.clip(rng.normal(0, 0.5, 2) * s, -1.2 * s, 1.2 * s))
    ang = float(np.clip(rng.normal(0, 0.6), -1.5, 1.5) * s)
    return SceneTile(t.x, t.y, t.tile, t.rotation, off, ang)  # type: ignore[arg-type]


def grow(scene: Scene, catalog: CatalogInfo, geometry: TileGeometry, rng: np.random.Generator,
         sloppiness: float, colour: str) -> Scene:
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
    fig = SceneFigure(x, y, colour, regions[int(rng.integers(len(regions)))][0])
    return on_lattice(scene.mat, list(scene.tiles) + [new], list(scene.figures) + [fig],
                      (scene.origin, scene.grid_angle_deg))


# --------------------------------------------------------------------------- scoring


@dataclass
class Tally:
    tiles: int = 0
    tiles_ok: int = 0
    tiles_game_ok: int = 0
    """Tiles right for the rules: a wrong turn of a tile that plays the same turned (ds083, all sea) counts."""
    figures: int = 0
    figures_ok: int = 0
    boards: int = 0
    boards_ok: int = 0
    boards_all_ok: int = 0
    tiles_wrong_sure: int = 0
    """Tiles read wrong with confidence 0.5 or more and no twin named as hidden under a figure: a silent error
    (the tracker commits it); the other wrong reads are marked guesses that go to the phone."""
    errors: list[str] = field(default_factory=list)

    def pct(self, a: int, b: int) -> str:
        return f"{100.0 * a / b:6.2f}%" if b else "     - "


def score_board(rec: Recognizer, obs: Any, truth: Any, tally: Tally, label: str) -> None:
    clf = rec.classifier
    want = {(t["x"], t["y"]): (t["tile"], t["rotation"]) for t in truth.tiles}
    got = {c: (g.tile, g.rotation) for c, g in obs.tiles.items()}
    bad = 0
    for cell in set(want) | set(got):
        tally.tiles += 1
        w, g = want.get(cell), got.get(cell)
        same = w is not None and g is not None and (
            w == g or clf.look[clf.ids.index(w[0]) + w[1] // 90] == clf.look[clf.ids.index(g[0]) + g[1] // 90])
        if same or (w is not None and g is not None and w[0] == g[0]
                    and rec.catalog.same_for_the_game(w[0], w[1], g[1])):
            tally.tiles_game_ok += 1
        if same:
            tally.tiles_ok += 1
        else:
            bad += 1
            guess = obs.tiles.get(cell)
            sure = guess is not None and guess.confidence >= 0.5 and not guess.hidden_twins
            tally.tiles_wrong_sure += sure
            mark = "" if guess is None else \
                f" (confidence {guess.confidence:.2f}{', a hidden twin' if guess.hidden_twins else ''})"
            tally.errors.append(f"{label}: tile at {cell}: truth {w}, seen {g}{mark}")
    fw = sorted((f["x"], f["y"], f["color"], f["region"]) for f in truth.figures)
    fg = sorted((f.x, f.y, f.colour, f.region) for f in obs.figures)
    missing = list(fw)
    spurious = []
    for f in fg:
        if f in missing:
            missing.remove(f)
        else:
            spurious.append(f)
    tally.figures += len(fw) + len(spurious)
    tally.figures_ok += len(fw) - len(missing)
    for f in missing:
        tally.errors.append(f"{label}: figure {f} not seen")
    for f in spurious:
        tally.errors.append(f"{label}: figure {f} seen but not there")
    tally.boards += 1
    tally.boards_ok += bad == 0
    tally.boards_all_ok += bad == 0 and not missing and not spurious


# --------------------------------------------------------------------------- running


@dataclass
class GameSetup:
    name: str
    catalog_path: Path
    catalog: CatalogInfo
    geometry: TileGeometry
    art: Any
    art_name: str


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
    return GameSetup(game, path, catalog, geometry, art, art_name)


def enrolment_camera(level: str):
    """The test camera model with other light, colour balance, exposure and pose: the enrolment session."""
    return NUISANCE[level].other_session()


def run_level(g: GameSetup, level: str, args: argparse.Namespace, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    camera = NUISANCE[level]
    t0 = time.perf_counter()
    refs, colours, lens = enrol_simulated(g.catalog_path, g.art, enrolment_camera(level), rng, size=SIZE,
                                          geometry=g.geometry)
    enrol_s = time.perf_counter() - t0
    mat = Mat.default()
    rec = Recognizer(g.catalog, refs, mat, geometry=g.geometry, colours=colours, rectifier=Rectifier(mat, lens=lens))
    tally = Tally()
    lo, hi = args.tiles
    max_tiles = sum(g.catalog.counts.values())
    # the game starts with the start tile alone on the table: that frame fixes the grid for the game, and
    # every board's tiles lie on the lattice that tile defines
    first, lattice = first_frame(g.catalog, rng, mat)
    frame0, _ = render(first, g.art, camera, rng, SIZE, geometry=g.geometry)
    grid0 = rec.observe(frame0).grid
    start_ok = 0
    for b in range(args.boards):
        n = int(rng.integers(lo, min(hi, max_tiles) + 1))
        scene = random_board(g.catalog, g.geometry, rng, n, args.figures, SLOPPINESS[level], lattice=lattice)
        frame, truth = render(scene, g.art, camera, rng, SIZE, geometry=g.geometry)
        try:
            obs = rec.observe(frame, grid=grid0)
        except Exception as exc:  # a failed board counts as all wrong, and is reported
            tally.errors.append(f"{level} board {b}: {type(exc).__name__}: {exc}")
            tally.tiles += len(truth.tiles)
            tally.figures += len(truth.figures)
            tally.boards += 1
            continue
        score_board(rec, obs, truth, tally, f"{level} board {b} ({n} tiles)")
        if args.from_scratch:
            try:
                scratch = rec.observe(frame, relocate=False)
                start_ok += _same_grid(scratch.grid, grid0)
            except Exception:
                pass
    # speed: a full board
    full = random_board(g.catalog, g.geometry, rng, max_tiles, args.figures, SLOPPINESS[level], lattice=lattice)
    frame, truth = render(full, g.art, camera, rng, SIZE, geometry=g.geometry)
    times_cold, times_known, times_locate = [], [], []
    obs = None
    rec.observe(frame, grid=grid0)  # warm-up: lazily built templates, remap tables
    for _ in range(args.repeats):
        rec.rectifier.reset()
        with Timer(times_cold):
            try:
                rec.observe(frame)
            except Exception as exc:
                tally.errors.append(f"{level} full board from scratch: {type(exc).__name__}: {exc}")
        with Timer(times_known):
            obs = rec.observe(frame, grid=grid0, relocate=False)
        with Timer(times_locate):
            rec.rectifier.locate(frame)
    full_tally = Tally()
    score_board(rec, obs, truth, full_tally, f"{level} full board")
    # speed: an incremental update (one new tile + one figure), camera still
    times_inc = []
    inc_tally = Tally()
    for k in range(args.incremental):
        base = random_board(g.catalog, g.geometry, rng, int(rng.integers(lo, min(hi, max_tiles - 1) + 1)),
                            args.figures, SLOPPINESS[level], lattice=lattice)
        more = grow(base, g.catalog, g.geometry, rng, SLOPPINESS[level],
                    CALIBRATION_COLOURS[k % len(CALIBRATION_COLOURS)])
        pose_seed = int(rng.integers(1 << 30))
        f0, _ = render(base, g.art, camera, np.random.default_rng(pose_seed), SIZE, geometry=g.geometry)
        f1, truth1 = render(more, g.art, camera, np.random.default_rng(pose_seed), SIZE, geometry=g.geometry)
        rec.rectifier.reset()
        try:
            before = rec.observe(f0, grid=grid0)
        except Exception as exc:
            inc_tally.errors.append(f"{level} incremental {k}: {type(exc).__name__}: {exc}")
            continue
        for _ in range(args.repeats):
            with Timer(times_inc):
                after = rec.observe(f1, previous=before, relocate=False)
        score_board(rec, after, truth1, inc_tally, f"{level} incremental {k}")
    return {"tally": tally, "full_tally": full_tally, "inc_tally": inc_tally, "enrol_s": enrol_s, "start_ok": start_ok,
            "cold": _ms(times_cold), "known": _ms(times_known), "locate": _ms(times_locate), "inc": _ms(times_inc),
            "inc_p90": _ms(times_inc, 90), "full_tiles": len(truth.tiles)}


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
    p.add_argument("--verbose", "-v", action="store_true", help="list every error")
    p.add_argument("--from-scratch", action="store_true",
                   help="also find the start tile afresh on every board (no grid from the game's first frame) "
                        "and count how often it lands where the game's grid is")
    args = p.parse_args(list(argv) if argv is not None else None)
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
        print("  level     tiles ok  figures ok  boards ok  +figures | ms per frame, CPU (wall): full board "
              "from scratch, full board with the game's grid, marker search, incremental median / p90")
        for level in levels:
            # the seed follows the level, not its place in --levels: `--levels default` reads the same
            # boards as the default row of a full run
            i = LEVELS.index(level) if level in LEVELS else len(LEVELS) + levels.index(level)
            r = run_level(g, level, args, args.seed * 1000 + i * 17 + len(game))
            t: Tally = r["tally"]
            ms = " | ".join(f"{r[k][0]:.0f} ({r[k][1]:.0f})" for k in ("cold", "known", "locate"))
            print(f"  {level:8s} {t.pct(t.tiles_ok, t.tiles)}  {t.pct(t.figures_ok, t.figures)}  "
                  f"{t.boards_ok:4d}/{t.boards:<4d} {t.boards_all_ok:4d}/{t.boards:<4d}| {ms} | "
                  f"{r['inc'][0]:.1f} ({r['inc'][1]:.1f}) / {r['inc_p90'][0]:.1f}")
            full_errors, inc_errors = len(r["full_tally"].errors), len(r["inc_tally"].errors)
            print(f"           tiles right for the rules (a turn that plays the same is no error): "
                  f"{t.pct(t.tiles_game_ok, t.tiles).strip()}; read wrong without a mark (confidence >= 0.5, "
                  f"no hidden twin): {t.tiles_wrong_sure} of {t.tiles - t.tiles_ok}")
            print(f"           counted: {t.tiles} tiles, {t.figures} figures; full board ({r['full_tiles']} tiles): "
                  f"{full_errors} errors; incremental updates: {inc_errors} errors; enrolment {r['enrol_s']:.1f} s")
            if args.from_scratch:
                print(f"           start tile found afresh on a full board: {r['start_ok']}/{t.boards}")
            errors = t.errors + r["full_tally"].errors + r["inc_tally"].errors
            if errors and args.verbose:
                for e in errors:
                    print(f"             {e}")
            elif errors:
                print(f"             first errors: {'; '.join(errors[:3])}")
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
