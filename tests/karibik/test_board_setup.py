"""The board screens' state on the hub (tablehub/board_setup.py): a photo in pieces or the
camera's frame traced into a draft kept in the data folder (a reload or a restart loses
nothing), corrections, the loader's line until the board is complete, saving and playing on it."""
from __future__ import annotations

import base64
import json

import cv2
import pytest

from tablehub.board_setup import UPLOAD_PART, BoardSetup, BoardSetupError
from tablehub.games.karibik.board import load_board
from tests.karibik.truth import owner_corrections, printed_photo, same_board


def jpeg(image) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return data.tobytes()


def send(setup: BoardSetup, raw: bytes, size=(600, 420)) -> str:
    parts = -(-len(raw) // UPLOAD_PART)
    for i in range(parts):
        said = setup.upload(i, parts, base64.b64encode(raw[i * UPLOAD_PART:(i + 1) * UPLOAD_PART]).decode(),
                            list(size) if i == parts - 1 else None)
    return said


def test_a_photo_in_pieces_is_traced_corrected_saved_and_played_on(tmp_path):
    truth, photo = printed_photo("provisional", seed=1, noise=6, jpeg=80, tilt=0.1)
    setup = BoardSetup(tmp_path)
    raw = jpeg(photo)
    assert len(raw) > UPLOAD_PART, "the photo needs several pieces"
    assert send(setup, raw) == f"{len(truth.centres)} spaces and 218 adjacent pairs proposed"
    assert (tmp_path / "boards" / "karibik-draft.json").is_file() and setup.photo_path("karibik")

    again = BoardSetup(tmp_path)  # the phone reloads, the hub restarts: the draft is still there
    draft = again.draft("karibik")
    assert len(draft["spaces"]) == len(truth.centres)
    with pytest.raises(BoardSetupError, match="not saved: the traced board: 'towns' must list 16 items, got 0"):
        again.save("karibik")
    fixes, marks = owner_corrections(truth, draft)
    assert len(fixes) <= 0.02 * len(draft["adjacency"]), "adjacency recovered >= 98 % before any correction"
    for m in fixes + marks:
        again.edit("karibik", m)
    assert again.state("karibik")["problem"] is None
    assert again.save("karibik", "Our board") == ("saved as karibik.json in the data folder's boards/; new karibik "
                                                  "games started from the page play on it")
    saved = load_board(str(tmp_path / "boards" / "karibik.json"))
    assert saved.name == "Our board"
    same_board(saved, truth)
    option = again.board_option("karibik")
    assert option == json.loads((tmp_path / "boards" / "karibik.json").read_text(encoding="utf-8"))
    assert again.use("karibik", False) == "new karibik games play on the packaged board"
    assert again.board_option("karibik") is None
    assert again.reset("karibik") == "the karibik draft is forgotten (the saved board stays)"
    assert again.draft("karibik") is None and again.saved_board("karibik") is not None


def test_the_cameras_frame_is_traced_and_a_missing_one_is_one_line(tmp_path):
    truth, photo = printed_photo("grid", seed=2)
    assert BoardSetup(tmp_path, lambda: photo).trace_frame([360, 280]).startswith("48 spaces and")
    with pytest.raises(BoardSetupError, match="no camera frame: .* upload a photo instead"):
        BoardSetup(tmp_path).trace_frame([360, 280])
    with pytest.raises(BoardSetupError,
                       match=r"'size_mm' must be the board's \[width, height\] in mm, each 100 to 2000"):
        BoardSetup(tmp_path, lambda: photo).trace_frame([36, 28])


def test_pieces_out_of_order_or_not_a_picture_are_refused(tmp_path):
    setup = BoardSetup(tmp_path)
    piece = base64.b64encode(b"x" * 100).decode()
    with pytest.raises(BoardSetupError, match="'part': piece 1 came out of order \\(expected 0\\)"):
        setup.upload(1, 3, piece)
    setup.upload(0, 2, piece)
    with pytest.raises(BoardSetupError, match="'data' is not base64 text"):
        setup.upload(1, 2, "not base64!")
    with pytest.raises(BoardSetupError, match="'data' must be the piece as base64 text, at most 40960 bytes"):
        setup.upload(0, 2, "A" * (UPLOAD_PART * 2))
    setup.upload(0, 2, piece)
    with pytest.raises(BoardSetupError, match="the photo is not a JPEG or PNG picture"):
        setup.upload(1, 2, piece, [600, 420])
    with pytest.raises(BoardSetupError, match="'parts' must be the number of pieces, 1 to 204"):
        setup.upload(0, 10_000, piece)
    with pytest.raises(BoardSetupError, match="no traced board yet"):
        setup.edit("karibik", {"op": "skull", "space": 1})


def test_tahiti_starts_empty_and_saves_once_complete(tmp_path):
    setup = BoardSetup(tmp_path)
    from tablehub.games.tahiti.board import load_board as tahiti_board

    order = tahiti_board().track
    assert setup.state("tahiti")["track"] == [None] * 12
    for i, s in enumerate(order[:11]):
        setup.edit("tahiti", {"op": "set", "index": i, "letter": s.letter, "pearl": s.pearl})
    with pytest.raises(BoardSetupError, match="not saved: the recorded track: track space 11 not recorded yet"):
        setup.save("tahiti")
    setup.edit("tahiti", {"op": "set", "index": 11, "letter": order[11].letter, "pearl": order[11].pearl})
    setup.save("tahiti")
    assert tahiti_board(str(tmp_path / "boards" / "tahiti.json")).track == order
    assert setup.board_option("tahiti")["track"][0] == {"letter": order[0].letter, "pearl": order[0].pearl}
    assert setup.board_option("karibik") is None
