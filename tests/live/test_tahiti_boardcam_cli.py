"""`tablehub boardcam` on Tahiti's board: enrol the empty board and each colour's pieces from photos (cells
named as on the board), then read a frame: boats by colour, on their cells."""
from __future__ import annotations

import numpy as np
import pytest

from tablehub.cli import main
from tablehub.games.tahiti.board import load_board
from tablehub.games.tahiti.camera import camera_board

cv2 = pytest.importorskip("cv2")
pytest.importorskip("vision.boardreg")
FRAME = (1280, 720)


def shoot(board, art, pieces, seed, origin=(40.0, 40.0)):
    from vision.sim.boardtable import BoardScene, render_board_scene
    from vision.sim.camera import NUISANCE

    w, h = board.size
    scene = BoardScene(art, 3.0, list(pieces), origin_mm=origin, table_mm=(w + 80, h + 80))
    cam = NUISANCE["clean"].with_(tilt_deg=5.0, tilt_azimuth_deg=40.0)
    return render_board_scene(scene, cam, np.random.default_rng(seed), size=FRAME)


def test_enrol_tahitis_board_and_pieces_then_read_a_frame(tmp_path, capsys):
    from vision.boards import render_board
    from vision.sim.boardtable import BoardPiece, piece_for_look

    board = camera_board(load_board(None))
    printed = board.printed()
    art = render_board(printed.pop("size_mm"), px_per_mm=3.0, **printed)
    photo, truth = shoot(board, art, [], 1)
    cv2.imwrite(str(tmp_path / "empty.png"), photo)
    w, h = board.size
    corners = truth.board_to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    refs = tmp_path / "refs"
    assert main(["boardcam", "enrol-board", str(tmp_path / "empty.png"), "--out", str(refs), "--game", "tahiti",
                 "--corners", ",".join(f"{v:.2f}" for v in corners.ravel())]) == 0
    at = {"red boat": "AA", "yellow boat": "AD", "red sailboat": "CA", "yellow sailboat": "CD", "disc $": "MM"}
    c = {name: board.centres[board.space_of(cell)] for name, cell in at.items()}
    photo, _ = shoot(board, art, [BoardPiece(*piece_for_look(n)[:2], *c[n]) for n in at], 2)
    cv2.imwrite(str(tmp_path / "pieces.png"), photo)
    assert main(["boardcam", "enrol-pieces", str(tmp_path / "pieces.png"), "--refs", str(refs),
                 "--at", ",".join(f"{k}={v}" for k, v in at.items())]) == 0
    frame, _ = shoot(board, art, [BoardPiece(*piece_for_look("yellow boat")[:2], *board.centres[board.space_of("BE")], 30),
                                  BoardPiece(*piece_for_look("red boat")[:2], *board.centres[board.space_of("FA")]),
                                  BoardPiece(*piece_for_look("disc $")[:2], *board.centres[board.space_of("MM")])],
                     3, origin=(44.0, 37.0))
    cv2.imwrite(str(tmp_path / "frame.png"), frame)
    capsys.readouterr()
    assert main(["boardcam", "read", str(tmp_path / "frame.png"), "--refs", str(refs)]) == 0
    out = capsys.readouterr().out
    assert "3 pieces" in out, out
    lines = [line.split() for line in out.splitlines() if line.startswith("  ")]
    assert ["yellow", "boat", "BE"] in [ln[:3] for ln in lines] and ["red", "boat", "FA"] in [ln[:3] for ln in lines], out
    assert main(["boardcam", "enrol-pieces", str(tmp_path / "pieces.png"), "--refs", str(refs),
                 "--at", "red boat=QQ"]) != 0
    assert "must be NAME=SPACE with a space of the board provisional" in capsys.readouterr().err


def test_bench_boards_covers_tahiti(capsys):
    import re

    assert main(["bench", "boards", "--games", "tahiti", "--frames", "1", "--levels", "clean", "--size", "960x540"]) == 0
    out = capsys.readouterr().out
    assert "Tahiti provisional board 500x500 mm" in out and "Karibik" not in out
    row = next(line for line in out.splitlines() if line.startswith("clean "))
    assert 0 <= float(re.search(r"([\d.]+)%", row).group(1)) <= 100
    with pytest.raises(SystemExit):
        main(["bench", "boards", "--games", "sunda"])
    assert "unknown board 'sunda'" in capsys.readouterr().err
