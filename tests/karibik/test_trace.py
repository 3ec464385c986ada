"""`tablehub board trace`: the spaces and adjacency of boards rendered from known data (the
packaged boards, printed with labels, photographed in perspective with noise and JPEG) are
recovered before any correction; the command writes a draft the loader refuses until filled in."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from tablehub.cli import main
from tablehub.games.karibik.board import BoardError, load_board
from vision import VisionError
from vision.boards import photograph, render_board, score_trace, trace_board


def rendered(name: str) -> tuple[object, np.ndarray]:
    board = load_board(name)
    printed = board.printed()
    return board, render_board(printed.pop("size_mm"), **printed)


def recovery(board, traced) -> tuple[float, float, float]:
    """(spaces found one-to-one, true adjacent pairs found, proposed pairs that are true)."""
    truth = {(min(a, b), max(a, b)) for a, ns in board.neighbours.items() for b in ns}
    r = score_trace(dict(board.centres), truth, traced)
    return r["spaces"], r["pairs"], r["precision"]


@pytest.mark.parametrize("name, seed", [("provisional", 0), ("provisional", 1), ("grid", 2)])
def test_spaces_and_adjacency_are_recovered_from_a_photo(name, seed):
    board, straight = rendered(name)
    photo = photograph(straight, seed=seed, noise=8, jpeg=70, tilt=0.12)
    traced = trace_board(photo, board.size)
    assert traced.found_edge
    spaces, pairs, precision = recovery(board, traced)
    assert len(traced.polygons) == len(board.centres) or spaces < 1
    assert spaces >= 0.98 and pairs >= 0.98 and precision >= 0.98, (spaces, pairs, precision)


def test_the_recovery_measure_can_fail():
    board, straight = rendered("grid")
    traced = trace_board(photograph(straight, seed=0), board.size)
    traced.adjacency = traced.adjacency[::2]  # half the pairs lost
    traced.polygons = traced.polygons[:10] + traced.polygons[20:]
    spaces, pairs, _ = recovery(board, traced)
    assert spaces < 0.98 and pairs < 0.6


def test_a_photo_without_a_board_is_one_clear_error():
    with pytest.raises(VisionError, match="no space found on the board"):
        trace_board(np.full((300, 400, 3), 128, np.uint8), (600, 420))


def test_the_command_writes_a_draft_and_an_overlay(tmp_path, capsys):
    board, straight = rendered("provisional")
    photo = tmp_path / "board.jpg"
    cv2.imwrite(str(photo), photograph(straight, seed=3, jpeg=85))
    out, overlay = tmp_path / "mine.json", tmp_path / "overlay.png"
    assert main(["board", "trace", str(photo), "--game", "caribbean", "--size", "600x420",
                 "--out", str(out), "--overlay", str(overlay)]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"{len(board.centres)} spaces, 218 adjacent pairs (board edge found)")
    draft = json.loads(out.read_text(encoding="utf-8"))
    assert len(draft["spaces"]) == len(board.centres) and draft["towns"] == []
    assert cv2.imread(str(overlay)) is not None
    with pytest.raises(BoardError, match="a traced draft: fill in its 16 towns, 12 hideouts, 6 skulls and 5 piles"):
        load_board(str(out))
    assert main(["board", "trace", str(tmp_path / "none.jpg")]) == 2
    assert "cannot read the photo" in capsys.readouterr().err
    assert main(["board", "trace", str(photo), "--game", "tahiti"]) == 2
    assert "only karibik boards are traced" in capsys.readouterr().err
