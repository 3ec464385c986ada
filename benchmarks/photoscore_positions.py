"""Photo-score rows for the position-scored games (``tablehub bench photoscore --games sunda,...``).

Sunda to Sahul: per nuisance level (clean, default, hard: vision.sim.camera.NUISANCE) N seeded random games with
tribes and resources (tablehub.games.sunda.playout, 2 to 4 players, the provisional set) played to their end and
laid by the simulated table (vision.sim.sundatable.random_scene: the lattice anywhere at any angle, hand errors,
gaps, four cloths, leaning stacks, markers by hand), photographed once (1920x1080, the camera's tilt and light
from any side). The colours are enrolled per table on "another evening" (CameraModel.other_session: other light,
colour balance, exposure, arm tilt), written as ``tablehub sundacam enrol`` writes them and loaded as
``tablehub score --photo`` loads them (tablehub.photo_sunda.load_reader). The photo is scored by
tablehub.photo_sunda.score_sunda with what the photo cannot show given as a person would: the owners, bottom to
top, of each tribe the camera asked (the scorer's output names them), the truth there. Compared with the engine's
score of the true game. Prints per level the tables scored exactly, the mean / max per-player error of the others,
the tribes asked, the unsure places, and CPU ms per photo (read + score, one core); and how many tables were scored
wrong with no score-changing unsure place (silently wrong: the issue's worst failure).
"""
from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

POSITION_GAMES = ("sunda", "tahiti", "karibik")
NUISANCE_LEVELS = ("clean", "default", "hard")


@dataclass
class Row:
    tables: int = 0
    exact: int = 0
    failed: int = 0
    asked: int = 0
    unsure_matters: int = 0
    silent: int = 0            # tables scored wrong with no score-changing unsure place (silently wrong)
    errors: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def sunda_table(level: str, seed: int, i: int, folder: Path, size: tuple[int, int] = (1920, 1080)) -> dict[str, Any]:
    """Table ``i`` of a level: a whole seeded game, its references enrolled and written to ``folder``, its photo."""
    from tablehub.games.sunda.playout import random_game
    from tablehub.games.sunda.position import position_of
    from tablehub.tracking.sundarefs import write_refs
    from vision.mat import Mat
    from vision.sim.camera import NUISANCE
    from vision.sim.sundatable import (PAWN_COLOURS, enrolment_scene, marker_enrolment_scene, random_scene,
                                       render_sunda)
    from vision.sunda import enrol
    from vision.sundamarkers import enrol_markers

    rng = np.random.default_rng([seed, i, list(NUISANCE).index(level), 19])
    cam = NUISANCE[level].with_(tilt_azimuth_deg=float(rng.uniform(0, 360)), light_angle_deg=float(rng.uniform(0, 360)),
                                pose_jitter_deg=0.0)
    players = 2 + (seed + i) % 3
    game = random_game(players, seed * 1000 + i, options={"tribes": True, "resources": True})
    names = list(game.players)
    colours = {p: PAWN_COLOURS[k] for k, p in enumerate(names)}
    scene = random_scene(position_of(game, outlines=True)["position"], colours, rng)
    mat = Mat.default()
    enrol_frame, enrol_truth = render_sunda(enrolment_scene(cloth_bgr=scene.cloth_bgr, table_bgr=scene.table_bgr),
                                            cam.other_session(), rng, size=size)
    learnt = enrol(enrol_frame, mat, PAWN_COLOURS, lens=enrol_truth.lens())
    mframe, mtruth = render_sunda(marker_enrolment_scene(cloth_bgr=scene.cloth_bgr, table_bgr=scene.table_bgr),
                                  cam.other_session(), rng, size=size)
    markers = enrol_markers(mframe, mat, learnt.cloth_bgr, lens=mtruth.lens())
    frame, truth = render_sunda(scene, cam, rng, size=size)
    write_refs(folder, learnt, lens=truth.lens(), markers=markers)
    return {"game": game, "truth": truth, "frame": frame, "colours": colours}


def true_owners(reading: Any, truth: Any, asked: list[tuple[int, int]]) -> dict[tuple[int, int], list[str]]:
    """What a person gives for the tribes the camera asked: each one's true owners bottom to top."""
    from vision.sim.sundatable import lattice_map

    to_reader, _ = lattice_map(reading, truth)
    at = {to_reader((s["q"], s["r"])): list(s["pawns"]) for s in truth.stacks} if to_reader else {}
    return {node: at[node] for node in asked if node in at}


def misread(reading: Any, t: dict[str, Any], game: Any) -> str:
    """What the reader got wrong on a table (vision.sim.sundatable.compare_reading, the sunda-vision bench's markers)."""
    from benchmarks.sunda_vision import compare_markers
    from vision.sim.sundatable import compare_reading

    wrong = [w for w in compare_reading(reading, t["truth"])["wrong"] if "asked" not in w]
    return "; ".join(wrong[:4] + joins_wrong(reading, t["truth"])[:2]
                     + compare_markers(reading, t["truth"], game)["wrong"][:3])


def joins_wrong(reading: Any, truth: Any) -> list[str]:
    """The pieces found whose ``join`` (a piece's land runs joined across its middle, or not) is read otherwise than
    laid: compare_reading counts sides and corners, and a join misread merges or splits an island, so the score
    moves with every side right (the photo bench's default table 5 at seed 1)."""
    from vision.sim.sundatable import corners_of_placement, lattice_map

    to_reader, _ = lattice_map(reading, truth)
    if to_reader is None:
        return []
    read = {frozenset(corners_of_placement(p["q"], p["r"], p["turn"])): p for p in reading.pieces}
    out = []
    for tp in truth.pieces:
        rp = read.get(frozenset(to_reader(c) for c in corners_of_placement(tp["q"], tp["r"], tp["turn"])))
        want, got = tp.get("join") or "water", (rp or {}).get("join") or "water"
        ring = (tp.get("sides") or "").replace(" ", "")
        runs = sum(1 for k in range(len(ring)) if ring[k] == "L" and ring[k - 1] != "L")
        if rp is not None and want != got and runs >= 2:     # a join matters only between two runs of land
            out.append(f"piece at {tp['q']},{tp['r']} turn {tp['turn']}: join read {got}, is {want}")
    return out


def run_sunda(level: str, tables: int, seed: int, verbose: bool) -> Row:
    from tablehub.games.base import TablehubError
    from tablehub.photo_sunda import load_reader, score_sunda

    row = Row()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(tables):
            folder = Path(tmp) / f"t{i}"
            t = sunda_table(level, seed, i, folder)
            game, names = t["game"], {c: p for p, c in t["colours"].items()}
            truth_scores = game.scores()
            row.tables += 1
            c0 = time.process_time()
            try:
                reader = load_reader(folder)
                reading = reader.read(t["frame"])
                asked = [(tr.q, tr.r) for tr in reading.tribes if tr.ask]
                given = true_owners(reading, t["truth"], asked)
                result = score_sunda(reader, t["frame"], f"table {i}", names, given, reading=reading)
            except TablehubError as exc:
                row.failed += 1
                row.errors.extend(abs(v) for v in truth_scores.values())
                row.notes.append(f"{level} table {i}: {exc}")
                continue
            except Exception as exc:  # a reader's failure is a table not scored, said
                row.failed += 1
                row.errors.extend(abs(v) for v in truth_scores.values())
                row.notes.append(f"{level} table {i}: {type(exc).__name__}: {exc}")
                continue
            row.times.append(time.process_time() - c0)
            row.asked += len(asked)
            row.unsure_matters += sum(1 for u in result.unsure if u.matters)
            got = {p: result.scores.get(p, 0) for p in truth_scores}
            if got == truth_scores:
                row.exact += 1
            else:
                row.errors.extend(abs(got[p] - truth_scores[p]) for p in truth_scores)
                row.silent += not any(u.matters for u in result.unsure)
                row.notes.append(f"{level} table {i}: read {got}, is {truth_scores}; "
                                 + "; ".join(str(n) for n in result.notes[:3]) + "; " + misread(reading, t, game))
    return row


def position_rows(game: str, levels: list[str], tables: int, seed: int, verbose: bool) -> tuple[int, int]:
    """The game's rows; returns (tables exactly right, tables)."""
    if game == "karibik":
        print("\nkaribik: not benchmarked: its score is the money in front of the players, which a photo of the board "
              "cannot show (docs/karibik.md \"Scoring from a photo\")")
        return 0, 0
    what = "the colours" if game == "sunda" else "the board and its pieces"
    print(f"\n{game}: the simulated table (provisional art), 1920x1080, {what} enrolled on another evening")
    asked = "tribes asked (given)" if game == "sunda" else "  pearls/owners unsure"
    print(f"  level      exact  per-player error (mean / max)  {asked}  unsure left  | CPU ms per photo (median / max)")
    exact = total = 0
    run = run_sunda if game == "sunda" else run_tahiti
    for level in levels:
        row = run(level, tables, seed * 1000 + 7 * list(NUISANCE_LEVELS).index(level), verbose)
        err = f"{np.mean(row.errors):.2f} / {max(row.errors)}" if row.errors else "-"
        ms = f"{1000 * float(np.median(row.times)):.0f} / {1000 * max(row.times):.0f}" if row.times else "-"
        print(f"  {level:9s} {row.exact:3d}/{row.tables:<3d}  {err:>28s}  {row.asked:22d}  {row.unsure_matters:11d}  | {ms}"
              + (f"  ({row.failed} photos not read)" if row.failed else "")
              + (f"  ({row.silent} wrong with nothing unsure)" if row.silent else ""))
        for n in (row.notes if verbose else row.notes[:2]):
            print(f"      {n}")
        exact, total = exact + row.exact, total + row.tables
    return exact, total


def write_sunda_example(folder: Path, seed: int) -> int:
    """A runnable example for docs/sunda.md: the references, the photo of a seeded game's final table, and the
    command that scores it (with the engine's score of the true game)."""
    import cv2

    t = sunda_table("default", seed, 0, folder / "refs")
    cv2.imwrite(str(folder / "table.png"), t["frame"])
    game = t["game"]
    players = ",".join(f"{c}={p}" for p, c in t["colours"].items())
    print(f"wrote {folder / 'refs'} (colours enrolled from the simulated camera) and {folder / 'table.png'} (the final "
          f"table of a seeded {len(game.players)}-player game)")
    print(f"tablehub score --photo {folder / 'table.png'} --game sunda --refs {folder / 'refs'} --players {players}")
    from tablehub.photo_sunda import load_reader

    reading = load_reader(folder / "refs").read(t["frame"])
    given = true_owners(reading, t["truth"], [(tr.q, tr.r) for tr in reading.tribes if tr.ask])
    tribes = ";".join(f"{q},{r}=" + ",".join(o) for (q, r), o in given.items())
    print(f"  with the tribes the camera asks, as the players give them: --tribes='{tribes}'")
    print("the engine's score of the true game: " + ", ".join(f"{p} {n}" for p, n in game.scores().items()))
    return 0


def write_tahiti_example(folder: Path, seed: int) -> int:
    """A runnable example for docs/tahiti.md: the board's references, the photo of a seeded game's final table, and
    the command that scores it (the vaults given as the players would)."""
    import cv2

    from tablehub.games.tahiti.camera import COLOURS

    t = tahiti_table("default", seed, 0, folder / "refs")
    cv2.imwrite(str(folder / "table.png"), t["frame"])
    game = t["game"]
    players = ",".join(f"{COLOURS[k]}={p}" for k, p in enumerate(game.players))
    vaults = ",".join(f"{COLOURS[k]}={ps.vault}" for k, ps in enumerate(game.state))
    print(f"wrote {folder / 'refs'} (the board and pieces enrolled from the simulated camera) and {folder / 'table.png'} "
          f"(the final table of a seeded {len(game.players)}-player game)")
    print(f"tablehub score --photo {folder / 'table.png'} --game tahiti --refs {folder / 'refs'} --players {players} "
          f"--vaults {vaults}")
    print("the engine's score of the true game: " + ", ".join(f"{p} {n}" for p, n in game.scores().items()))
    return 0


def write_position_example(game: str, folder: Path, seed: int) -> int:
    if game == "sunda":
        return write_sunda_example(folder, seed)
    if game == "tahiti":
        return write_tahiti_example(folder, seed)
    raise SystemExit("tablehub bench photoscore --example: Karibik has no example (its score is not on the board)")


# --------------------------------------------------------------------------- Tahiti


def tahiti_refs(level: str, rng: np.random.Generator, folder: Path, size: tuple[int, int] = (1920, 1080)) -> Any:
    """The Tahiti board and its pieces enrolled under the level's camera on another evening (as ``tablehub bench
    boards`` enrols them: the empty board with its corners given, one photo of every look on the sea cells),
    written as ``tablehub boardcam enrol-board`` / ``enrol-pieces`` write them. Returns the camera model."""
    from tablehub.games.tahiti.board import load_board as load_track
    from tablehub.games.tahiti.camera import TahitiBoardMoves, camera_board
    from tablehub.tracking.boardcam import PIECES, write_refs
    from vision import VisionError
    from vision.boardpieces import enrol_pieces
    from vision.boardreg import BoardReference, BoardRegistrar
    from vision.boards import render_board
    from vision.calibrate import LensCalibration
    from vision.sim.boardtable import BoardPiece, BoardScene, piece_for_look, render_board_scene
    from vision.sim.camera import NUISANCE

    board = camera_board(load_track(None))
    printed = board.printed()
    bsize = tuple(printed.pop("size_mm"))
    art = render_board(bsize, px_per_mm=3.0, **printed)
    w, h = bsize
    cam = NUISANCE[level].with_(tilt_azimuth_deg=float(rng.uniform(0, 360)), light_angle_deg=float(rng.uniform(0, 360)))
    enrol_cam = cam.other_session()

    def scene(pieces, origin=(40.0, 40.0), angle=0.0) -> Any:
        return BoardScene(art, 3.0, pieces, origin_mm=origin, angle_deg=angle, table_mm=(w + 80, h + 80))

    photo, truth = render_board_scene(scene([]), enrol_cam, rng, size=size)
    lens = LensCalibration(truth.pose.K, truth.pose.dist, size)
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    ref = BoardReference.from_photo(photo, bsize, 2.0, corners_px=truth.board_to_image(corners), lens=lens)
    kinds = [(*piece_for_look(n, carries), n, piece_for_look(n)[0]) for n, carries in TahitiBoardMoves.camera_looks()]
    for attempt in range(3):   # a piece not found: the owner lays the pieces again and takes another photo
        where = [int(s) for s in rng.choice(TahitiBoardMoves.enrol_spaces(board), len(kinds), replace=False)]
        photo, _ = render_board_scene(scene([BoardPiece(k, v, *board.centres[s], mark=m) for (k, v, m, _, _), s
                                             in zip(kinds, where)]), enrol_cam, rng, size=size)
        r0 = BoardRegistrar(ref, lens).register(photo)
        try:
            if r0 is None:
                raise VisionError("the enrolment photo is not registered")
            book = enrol_pieces(r0.canvas(photo, 2.0, bsize), ref.canvas, 2.0,
                                [(n, k, *board.centres[s]) for (_, _, _, n, k), s in zip(kinds, where)])
            break
        except VisionError:
            if attempt == 2:
                raise
    write_refs(folder, "provisional", board, ref, lens=lens, game="tahiti")
    book.save(folder / PIECES)
    return cam, art, board


def tahiti_table(level: str, seed: int, i: int, folder: Path, size: tuple[int, int] = (1920, 1080)) -> dict[str, Any]:
    """Table ``i`` of a level: a whole seeded Tahiti game (2 to 4 players) played to its end, its board and pieces
    enrolled into ``folder``, the photo of its final table (every piece the game leaves on the board, each anywhere
    in its space, turned at random; the board moved and turned a little on the table)."""
    from tablehub.games.tahiti.camera import TahitiBoardMoves
    from tablehub.games.tahiti.playout import random_game
    from vision.sim.boardtable import BoardPiece, BoardScene, piece_for_look, place_piece, render_board_scene

    rng = np.random.default_rng([seed, i, 23, len(level)])
    cam, art, board = tahiti_refs(level, rng, folder, size)
    game = random_game(2 + (seed + i) % 3, seed * 1000 + i)
    adapter = TahitiBoardMoves()
    where, drawn = adapter.pieces(game), adapter.drawn(game)
    pieces, footprints = [], []
    for name, space in sorted(where.items(), key=lambda kv: kv[1]):
        kind, look, mark = piece_for_look(drawn[name]["look"], drawn[name].get("pearl"))
        x, y, yaw, fp = place_piece(board.polygons[space], kind, rng, footprints)
        footprints.append(fp)
        pieces.append(BoardPiece(kind, look, x, y, yaw, mark))
    w, h = board.size
    origin = (40 + float(rng.uniform(-10, 10)), 40 + float(rng.uniform(-10, 10)))
    frame, _ = render_board_scene(BoardScene(art, 3.0, pieces, origin_mm=origin, angle_deg=float(rng.uniform(-3, 3)),
                                             table_mm=(w + 80, h + 80)), cam, rng, size=size)
    return {"game": game, "frame": frame}


def run_tahiti(level: str, tables: int, seed: int, verbose: bool) -> Row:
    from tablehub.games.base import TablehubError
    from tablehub.games.tahiti.camera import COLOURS
    from tablehub.photo_board import load_recognizer, score_tahiti

    row = Row()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(tables):
            folder = Path(tmp) / f"t{i}"
            t = tahiti_table(level, seed, i, folder)
            game = t["game"]
            names = {COLOURS[k]: p for k, p in enumerate(game.players)}
            vaults = {p: ps.vault for p, ps in zip(game.players, game.state)}   # what a person gives: --vaults
            truth_scores = game.scores()
            row.tables += 1
            c0 = time.process_time()
            try:
                rec = load_recognizer("tahiti", folder)
                result = score_tahiti(rec, t["frame"], f"table {i}", names, vaults)
            except TablehubError as exc:
                row.failed += 1
                row.errors.extend(abs(v) for v in truth_scores.values())
                row.notes.append(f"{level} table {i}: {exc}")
                continue
            row.times.append(time.process_time() - c0)
            row.asked += len(result.unsure)
            row.unsure_matters += sum(1 for u in result.unsure if u.matters)
            got = {p: result.scores.get(p, 0) for p in truth_scores}
            if got == truth_scores:
                row.exact += 1
            else:
                row.errors.extend(abs(got[p] - truth_scores[p]) for p in truth_scores)
                true_boats = {(c, b.owner, b.pearl) for c, b in game.map.items()}
                from tablehub.games.tahiti.board import cell_name, parse_cell
                read = {(parse_cell(b["cell"]), b["owner"], b["pearl"]) for b in result.position["position"]["boats"]}
                wrong = sorted(f"{cell_name(c)} {o} {p}" for c, o, p in true_boats - read)
                extra = sorted(f"{cell_name(c)} {o} {p}" for c, o, p in read - true_boats)
                row.notes.append(f"{level} table {i}: read {got}, is {truth_scores}; boats not read {wrong}, read "
                                 f"wrong {extra}; " + "; ".join(str(n) for n in result.notes[:3]))
    return row
