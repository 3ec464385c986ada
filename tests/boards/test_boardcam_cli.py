"""`tablehub boardcam`: enrol the empty board and the pieces from photos, then read a frame."""
from __future__ import annotations

import cv2

from tablehub.cli import main
from vision.sim.boardtable import BoardPiece
from vision.sim.camera import NUISANCE


def test_enrol_the_board_and_pieces_then_read_a_frame(table, tmp_path, capsys):
    cam = NUISANCE["clean"].with_(tilt_deg=5.0, tilt_azimuth_deg=40.0)
    photo, truth = table.shoot(table.scene(), camera=cam, seed=1)
    cv2.imwrite(str(tmp_path / "empty.png"), photo)
    corners = ",".join(f"{v:.2f}" for v in table.corners(truth).ravel())
    refs = tmp_path / "refs"
    assert main(["boardcam", "enrol-board", str(tmp_path / "empty.png"), "--out", str(refs),
                 "--corners", corners]) == 0
    c = table.board.centres
    at = {"Arriba": 11, "Bravo": 12, "chest up": 13}
    pieces = [BoardPiece("ship", 0, *c[11]), BoardPiece("ship", 1, *c[12]), BoardPiece("chest_up", 5000, *c[13])]
    photo, _ = table.shoot(table.scene(pieces), camera=cam, seed=2)
    cv2.imwrite(str(tmp_path / "pieces.png"), photo)
    assert main(["boardcam", "enrol-pieces", str(tmp_path / "pieces.png"), "--refs", str(refs),
                 "--at", ",".join(f"{k}={v}" for k, v in at.items())]) == 0
    frame, _ = table.shoot(table.scene([BoardPiece("ship", 1, *c[40], 30.0), BoardPiece("ship", 0, *c[50])],
                                       origin=(45.0, 36.0)), camera=cam, seed=3)
    cv2.imwrite(str(tmp_path / "frame.png"), frame)
    capsys.readouterr()
    assert main(["boardcam", "read", str(tmp_path / "frame.png"), "--refs", str(refs)]) == 0
    out = capsys.readouterr().out
    assert "2 pieces" in out
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}
    assert "space 50" in lines["Arriba"] and "space 40" in lines["Bravo"], out


def test_mistakes_get_one_line(tmp_path, capsys):
    assert main(["boardcam", "read", str(tmp_path / "nothing.png"), "--refs", str(tmp_path)]) != 0
    err = capsys.readouterr().err
    assert "no boardcam.json" in err and "Traceback" not in err
