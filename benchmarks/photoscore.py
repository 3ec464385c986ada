"""Photo-score benchmark: rendered FINAL tables of whole seeded random games, scored from one photo each.

    tablehub bench photoscore [--quick] [--games neuesland,suedsee,sunda,tahiti,karibik] [--levels clean,default,hard]
                              [--camera sim,field] [--tables N] [--seed S] [--scans DIR] [--verbose]

For every game, camera model and nuisance level: the set is enrolled from the simulated camera with other
light and pose (as ``tablehub bench vision`` does); then whole games are played out with random legal moves
(2 to 5 players; tiles kept on the mat's play area: a tile that fits only beyond it is set aside), and the
final table (every tile, the figures left standing as at the end) is laid by hand, rendered at 1920x1080
and read from that one photo: the start tile is found afresh, as for a game that ran without the hub.
Each table is then scored by ``tablehub.photo.score_photo`` (a position consistent with the rules, the
engine's final evaluation) with what a photo cannot show given as a person would give it (the score track
before the final evaluation; Südsee's ships, goods and boat tokens), and compared with the engine's score of
the true game. Prints the share of tables whose scores are exactly right, the mean per-player score error on
the others, the tiles repaired from alternatives and left out, the unsure cells listed, and CPU ms per photo
(recognition + scoring, one core). Neues Land uses the scans when they are there (../shared), else drawn art.
Sunda to Sahul, Tahiti and Karibik (``--games sunda,tahiti,karibik``): their rows are
benchmarks/photoscore_positions.py's (its docstring says how their tables are made). See docs/benchmarks.md.
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import importlib.util
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


def _vision_bench() -> Any:
    """``benchmarks/vision.py``: its enrolment session, cameras, hand placement and figures anywhere."""
    name = "tablehub_bench_vision"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("vision.py"))
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


VB = _vision_bench()

from vision.enroll import CALIBRATION_COLOURS  # noqa: E402
from vision.mat import Mat  # noqa: E402
from vision.sim import Scene, SceneTile, render  # noqa: E402
from tablehub.games.base import TablehubError  # noqa: E402
from tablehub.games.tiles.game import TileGame  # noqa: E402
from tablehub.games.tiles.playout import random_game  # noqa: E402
from tablehub.photo import score_photo  # noqa: E402
from tablehub.photoscore import Holdings  # noqa: E402
from tablehub.tracking.simtable import scans_folder  # noqa: E402
from benchmarks.photoscore_positions import POSITION_GAMES, position_rows, write_position_example  # noqa: E402


# --------------------------------------------------------------------------- the final table of a game


def final_game(game: str, seed: int, mat: Mat) -> TileGame:
    """A whole seeded random game (2 to 5 players) kept on the mat's play area, not yet finished."""
    cols, rows = mat.cells
    hx, hy = (cols - 1) // 2, (rows - 1) // 2
    return random_game(game, players=2 + seed % 4, seed=seed, finish=False,
                       within=lambda c: abs(c[0]) <= hx and abs(c[1]) <= hy)


def final_scene(g: TileGame, setup: Any, rng: np.random.Generator, sloppiness: float, mat: Mat) -> Scene:
    """The game's table as it lies at the end: every tile laid by hand against the start tile's lattice, every
    figure left standing anywhere in its region's true shape, in its player's colour."""
    start = VB._sloppy(SceneTile(0, 0, setup.catalog.start, 0), rng, 0.5)
    lattice = VB.lattice_of(mat, start)
    tiles = [SceneTile(0, 0, setup.catalog.start, 0)]
    where = {}
    for cell, placed in sorted(g.board, key=lambda kv: kv[1].order):
        if cell == (0, 0):
            continue
        t = VB._sloppy(SceneTile(cell[0], cell[1], placed.tile.id, 90 * placed.rot), rng, sloppiness)
        tiles.append(t)
        where[cell] = t
    where[(0, 0)] = tiles[0]
    figures = []
    for f in g.figures:
        region = g.board.cells[f.cell].tile.regions[f.region].id
        figures.append(VB.figure_anywhere(where[f.cell], CALIBRATION_COLOURS[f.owner], region, setup.geometry,
                                          setup.true_regions, rng, mat.tile_mm))
    return VB.on_lattice(mat, tiles, figures, lattice)


def what_a_photo_cannot_show(g: TileGame) -> Holdings:
    """What the players give by hand: the score track before the final evaluation (Neues Land), the ships and
    goods in front of them and the boat tokens on the seas (Südsee)."""
    if getattr(g, "score_track", True):
        return Holdings(before={p: sum(e.points for e in g.score_log if e.player == p) for p in g.players})
    board = g.board
    return Holdings(ships={p: list(g.taken[i]) for i, p in enumerate(g.players)},   # type: ignore[attr-defined]
                    goods={p: dict(g.goods[i]) for i, p in enumerate(g.players)},   # type: ignore[attr-defined]
                    covered=[(c[0], c[1], board.cells[c].tile.regions[ri].id)
                             for c, ri in sorted(g.covered)])                        # type: ignore[attr-defined]


def figure_errors(g: TileGame, result: Any) -> str:
    """The figures of the true table the position lacks, and those it has that the table lacks."""
    true = sorted((f.cell[0], f.cell[1], CALIBRATION_COLOURS[f.owner], g.board.cells[f.cell].tile.regions[f.region].id)
                  for f in g.figures)
    seen = sorted((s.reading.x, s.reading.y, s.reading.colour, s.region) for s in result.figures if not s.problem)
    missing = [f for f in true if f not in seen]
    extra = [f for f in seen if f not in true]
    if not missing and not extra:
        return ""
    show = lambda fs: ", ".join(f"{c} {r} at {x},{y}" for x, y, c, r in fs) or "none"  # noqa: E731
    return f"figures: not in the position {show(missing)}; in it but not on the table {show(extra)}; "


# --------------------------------------------------------------------------- running


@dataclass
class Tally:
    tables: int = 0
    exact: int = 0
    player_errors: list[int] = field(default_factory=list)
    """|score read - true score| per player, on the tables not exactly right."""
    repaired: int = 0
    left_out: int = 0
    unsure: int = 0
    unsure_matters: int = 0
    """Unsure cells with an alternative that would change a score."""
    wrong_tiles: int = 0
    """Tiles of the position (after repair) that are not the true tile turned as it lies (a turn that plays the
    same counts as right)."""
    failed: int = 0
    flagged: int = 0
    """Tables not exactly right whose unsure list has an entry that would change a score (a person checking those
    cells may find the error)."""
    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def run_level(game: str, setup: Any, family: str, level: str, tables: int, seed: int) -> Tally:
    rng = np.random.default_rng(seed)
    cloth = VB.mat_colour_of(family)
    rec, _, _, mat = VB.enrolled_recognizer(setup, level, family, rng)     # the family's cloth, as bench vision
    rec.fit_found_grid = True     # as tablehub.photo.load_recognizer reads a photo
    tally = Tally()
    for b in range(tables):
        game_seed = seed * 100 + b
        g = final_game(game, game_seed, mat)
        names = {CALIBRATION_COLOURS[i]: p for i, p in enumerate(g.players)}
        holdings = what_a_photo_cannot_show(g)
        scene = final_scene(g, setup, rng, VB.SLOPPINESS[level], mat)
        if cloth is not None:
            scene.mat_colour = cloth
        frame, _ = render(scene, setup.art, VB.board_camera(family, level, b, mat, rng), rng, VB.SIZE,
                          geometry=setup.geometry, shapes=setup.true_regions)
        g.finish()
        truth = g.scores()
        tally.tables += 1
        rec.rectifier.reset()
        c0 = time.process_time()
        try:
            result = score_photo(rec, frame, game, f"table {b}", names, holdings)
        except TablehubError as exc:
            tally.failed += 1
            tally.player_errors.extend(abs(v) for v in truth.values())
            tally.errors.append(f"{family}/{level} table {b} (seed {game_seed}): {exc}")
            continue
        tally.times.append(time.process_time() - c0)
        got = result.scores
        tally.repaired += len(result.choice.repaired)
        tally.left_out += len(result.choice.dropped) + sum(1 for s in result.figures if s.problem)
        tally.unsure += len(result.unsure)
        tally.unsure_matters += sum(1 for u in result.unsure if u.matters)
        wrong = []
        for cell, placed in g.board:
            read = result.choice.tiles.get(cell)
            if read is None or read.tile != placed.tile.id or not (
                    read.rotation == 90 * placed.rot or setup.catalog.same_for_the_game(read.tile, read.rotation,
                                                                                       90 * placed.rot)):
                tally.wrong_tiles += 1
                seen = "nothing" if read is None else f"{read.tile} r{read.rotation}"
                wrong.append(f"{cell[0]},{cell[1]} {placed.tile.id} r{90 * placed.rot} read {seen}")
        if got == truth:
            tally.exact += 1
            continue
        tally.player_errors.extend(abs(got.get(p, 0) - truth[p]) for p in truth)
        tally.flagged += any(u.matters for u in result.unsure)
        diff = ", ".join(f"{p} {got.get(p, 0) - truth[p]:+d}" for p in truth if got.get(p, 0) != truth[p])
        tally.errors.append(f"{family}/{level} table {b} (seed {game_seed}, {len(g.board.cells)} tiles, "
                            f"{len(g.figures)} figures): {diff}; {figure_errors(g, result)}"
                            + (f"tiles: {'; '.join(wrong[:6])}{' ...' if len(wrong) > 6 else ''}; " if wrong else "")
                            + "; ".join(line for line in result.lines() if line.startswith("left out"))[:300])
    return tally


def write_example(folder: Path, game: str, seed: int, scans: Path | None) -> int:
    """A runnable example for docs/vision.md: references enrolled from the simulated camera, the photo of a
    seeded game's final table, and the command that scores it (with the engine's score of the true game)."""
    from vision.calibrate import LensCalibration

    setup = VB.game_setup(game, scans)
    rng = np.random.default_rng(seed)
    rec, refs, colours, mat = VB.enrolled_recognizer(setup, "default", "sim", rng)
    lens = rec.rectifier.lens
    out = folder / "refs"
    refs.save(out)
    colours.save(out / "colours.json")
    LensCalibration(lens.camera_matrix, lens.dist_coeffs, lens.image_size).save(out / "lens.json")
    g = final_game(game, seed, mat)
    frame, _ = render(final_scene(g, setup, rng, VB.SLOPPINESS["default"], mat), setup.art, "default", rng,
                      VB.SIZE, geometry=setup.geometry, shapes=setup.true_regions)
    cv2.imwrite(str(folder / "table.png"), frame)
    held = what_a_photo_cannot_show(g)
    colour = {p: CALIBRATION_COLOURS[i] for i, p in enumerate(g.players)}
    extra = ""
    if held.before:
        extra = " --before " + ",".join(f"{colour[p]}={n}" for p, n in held.before.items())
    else:
        import json

        (folder / "holdings.json").write_text(json.dumps({"ships": {colour[p]: v for p, v in held.ships.items()},
                                                          "goods": {colour[p]: v for p, v in held.goods.items()},
                                                          "covered": held.covered}, indent=1) + "\n")
        extra = f" --holdings {folder / 'holdings.json'}"
    g.finish()
    print(f"wrote {out} (references enrolled from the simulated camera, {setup.art_name}) and {folder / 'table.png'} "
          f"(the final table of a seeded {len(g.players)}-player game: {len(g.board.cells)} tiles, "
          f"{len(g.figures)} figures)")
    print(f"tablehub score --photo {folder / 'table.png'} --game {game} --refs {out}{extra}")
    names = {p: colour[p].capitalize() for p in g.players}
    print("the engine's score of the true game: " + ", ".join(f"{names[p]} {n}" for p, n in g.scores().items()))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tablehub bench photoscore", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="CI size: 2 tables, the default level, the sim camera")
    p.add_argument("--games", default="neuesland,suedsee", help="comma-separated games (default: both)")
    p.add_argument("--levels", default=",".join(VB.LEVELS), help="nuisance levels (default: clean,default,hard)")
    p.add_argument("--camera", default="sim,field", help="camera and light models: sim, field (default: both)")
    p.add_argument("--tables", type=int, default=10, help="final tables per level (default 10)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--scans", default=str(scans_folder("neuesland")),
                   help="Neues Land tile scans (default $TABLEHUB_SHARED or ../shared, then data/neues_land/scans); "
                        "'none': drawn art")
    p.add_argument("--verbose", "-v", action="store_true", help="list every table not scored exactly")
    p.add_argument("--example", metavar="DIR", help="write a runnable example instead: references, the photo of one "
                   "final table (--games: the first game, --seed) and the command that scores it")
    args = p.parse_args(list(argv) if argv is not None else None)
    if args.example and args.games.split(",")[0].strip() in POSITION_GAMES:   # benchmarks/photoscore_positions.py
        folder = Path(args.example)
        folder.mkdir(parents=True, exist_ok=True)
        return write_position_example(args.games.split(",")[0].strip(), folder, args.seed)
    if args.example:
        scans_dir = None if args.scans.lower() == "none" else Path(args.scans)
        folder = Path(args.example)
        folder.mkdir(parents=True, exist_ok=True)
        return write_example(folder, args.games.split(",")[0].strip(), args.seed, scans_dir)
    if args.quick:
        args.tables, args.levels, args.camera = min(args.tables, 2), "default", "sim"
    families = [c.strip() for c in args.camera.split(",") if c.strip()]
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    bad = [c for c in families if c not in VB.CAMERAS] + [lv for lv in levels if lv not in VB.LEVELS]
    if bad:
        print(f"tablehub bench photoscore: unknown camera or level {', '.join(bad)} (cameras: "
              f"{', '.join(VB.CAMERAS)}; levels: {', '.join(VB.LEVELS)})", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    blas = VB.single_thread_blas()
    scans = None if args.scans.lower() == "none" else Path(args.scans)
    print(f"photo-score benchmark: Python {platform.python_version()}, OpenCV {cv2.__version__}, one core "
          f"({blas}), frames {VB.SIZE[0]}x{VB.SIZE[1]}, seed {args.seed}")
    print(f"  {args.tables} final tables of whole random games per level, each read from one photo (start tile "
          f"found afresh); scores compared with the engine's on the true game")
    total = Tally()
    for game in [x.strip() for x in args.games.split(",") if x.strip()]:
        if game in POSITION_GAMES:   # Sunda, Tahiti, Karibik: their rows are benchmarks/photoscore_positions.py's
            exact, tables = position_rows(game, levels, args.tables, args.seed, args.verbose)
            total.tables += tables
            total.exact += exact
            continue
        setup = VB.game_setup(game, scans)
        if setup is None:
            print(f"\n{game}: no catalog, skipped")
            continue
        print(f"\n{game}: art: {setup.art_name}")
        print("  camera/level    exact  per-player error (mean / max)  tiles wrong  repaired  left out  unsure (change "
              "a score) | CPU ms per photo (median / max)")
        for family in families:
            for level in levels:
                seed = args.seed * 1000 + VB.LEVELS.index(level) * 17 + len(game) + 7919 * families.index(family)
                t = run_level(game, setup, family, level, args.tables, seed)
                errs = t.player_errors
                err = f"{np.mean(errs):.2f} / {max(errs)}" if errs else "-"
                ms = (f"{1000 * float(np.median(t.times)):.0f} / {1000 * max(t.times):.0f}" if t.times else "-")
                unsure = f"{t.unsure} ({t.unsure_matters})"
                print(f"  {family + '/' + level:14s} {t.exact:3d}/{t.tables:<3d}  {err:>28s}  {t.wrong_tiles:11d} "
                      f"{t.repaired:9d} {t.left_out:9d} {unsure:>23s} | {ms}"
                      + (f"  ({t.failed} photos not read)" if t.failed else "")
                      + (f"  (wrong with a score-changing unsure entry: {t.flagged} of {t.tables - t.exact})"
                         if t.exact < t.tables else ""))
                for e in (t.errors if args.verbose else t.errors[:2]):
                    print(f"      {e}")
                total.tables += t.tables
                total.exact += t.exact
    share = 100.0 * total.exact / total.tables if total.tables else 0.0
    print(f"\nscores exactly right: {total.exact}/{total.tables} tables ({share:.1f} %; target >= 95 %)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
