"""The board screens' routes (web/views/boards.py): the PIN and CSRF guards, one-line 400s naming
the field, the 64 KiB request cap kept (a photo comes in pieces), and a whole trace-correct-save
round trip on a photo of a board whose truth is known, then a game started from the page on it."""
from __future__ import annotations

import base64

import cv2
import pytest

from tablehub.board_setup import UPLOAD_PART, BoardSetup
from tablehub.games.karibik.board import load_board
from tablehub.games.tahiti.board import load_board as tahiti_board
from tests.karibik.truth import owner_corrections, printed_photo, same_board
from web.views.boards import attach

from .conftest import PIN

PIN_HEADER = {"X-Tablehub-Pin": PIN}


@pytest.fixture()
def boards(hub, tmp_path):
    setup = BoardSetup(tmp_path / "data")
    attach(hub, setup)
    return setup


def jpeg(image) -> bytes:
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()


def upload(phone, raw: bytes, size=(600, 420)):
    parts = -(-len(raw) // UPLOAD_PART)
    for i in range(parts):
        piece = raw[i * UPLOAD_PART:(i + 1) * UPLOAD_PART]
        body = {"part": i, "parts": parts, "data": base64.b64encode(piece).decode()}
        if i == parts - 1:
            body["size_mm"] = list(size)
        resp = phone.post("/api/trace/karibik/upload", body)
        assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def test_the_screen_and_its_data_need_the_pin(client, phone, boards):
    assert client.get("/trace/karibik").status_code == 200 and client.get("/trace/tahiti").status_code == 200
    assert client.get("/trace/monopoly").status_code == 404
    for path in ("/api/trace/karibik", "/api/trace/karibik/board.svg", "/api/trace/karibik/photo.jpg"):
        resp = client.get(path, environ_base={"REMOTE_ADDR": "10.0.0.7"})
        assert resp.status_code == 401 and "PIN" in resp.get_json()["error"], path
    resp = phone.post("/api/trace/tahiti/edit", {"op": "set", "index": 0, "letter": "A", "pearl": "green"})
    assert resp.status_code == 401 and "PIN" in resp.get_json()["error"]
    resp = client.post("/api/trace/tahiti/edit", json={"op": "clear", "index": 0})  # no CSRF token, no PIN
    assert resp.status_code == 403
    assert boards.state("tahiti")["track"] == [None] * 12, "nothing changed"


def test_bad_input_is_a_400_naming_the_field(player, boards):
    truth, photo = printed_photo("grid", seed=2)
    boards._frame = lambda: photo
    for path, body, field in [
        ("/api/trace/karibik/capture", {"size_mm": "big"}, "'size_mm' must be the board's [width, height]"),
        ("/api/trace/karibik/upload", {"part": 0, "parts": 1, "data": 7}, "'data' must be the piece as base64"),
        ("/api/trace/karibik/upload", {"part": -1, "parts": 1, "data": ""}, "'part' must be the piece's number"),
        ("/api/trace/karibik/edit", {"op": "merge", "spaces": [1, "x"]}, "'spaces[1]' must be the number of a space"),
        ("/api/trace/tahiti/edit", {"op": "set", "index": 0, "letter": "Z", "pearl": "green"}, "'letter' must be one"),
        ("/api/trace/karibik/save", {"use": "yes"}, "'use' must be true or false"),
        ("/api/trace/karibik/save", {"name": 12}, "'name' must be the board's name"),
        ("/api/trace/karibik/use", {"use": None}, "'use' must be true or false"),
    ]:
        if path.endswith("edit") and "karibik" in path and boards.draft("karibik") is None:
            assert player.post("/api/trace/karibik/capture", {"size_mm": [360, 280]}).status_code == 200
        resp = player.post(path, body)
        assert resp.status_code == 400 and field in resp.get_json()["error"], (path, resp.get_json())
    assert player.post("/api/trace/karibik/explode", {}).status_code == 404
    assert player.post("/api/trace/tahiti/capture", {}).status_code == 400


def test_a_whole_photo_in_one_request_is_over_the_cap(player, boards):
    truth, photo = printed_photo("provisional", seed=0)
    raw = jpeg(photo)
    assert len(raw) > 64 * 1024
    resp = player.post("/api/trace/karibik/upload", {"part": 0, "parts": 1, "data": base64.b64encode(raw).decode(),
                                                     "size_mm": [600, 420]})
    assert resp.status_code == 413, "the page's request cap is the same for this route"
    assert boards.draft("karibik") is None


def test_trace_correct_save_round_trip_and_a_game_on_the_saved_board(player, boards, hub):
    truth, photo = printed_photo("provisional", seed=0, noise=8, jpeg=70, tilt=0.12)
    said = upload(player, jpeg(photo))
    assert said["message"].startswith(f"{len(truth.centres)} spaces and")
    draft = boards.draft("karibik")
    svg = player.client.get("/api/trace/karibik/board.svg").get_data(as_text=True)
    assert svg.count('class="sp ') == len(draft["spaces"]) and "/api/trace/karibik/photo.jpg" in svg
    assert player.client.get("/api/trace/karibik/photo.jpg").mimetype == "image/jpeg"
    fixes, marks = owner_corrections(truth, draft)
    assert len(fixes) <= 0.02 * len(draft["adjacency"])
    refused = player.post("/api/trace/karibik/save", {})
    assert refused.status_code == 400 and refused.get_json()["error"] == (
        "not saved: the traced board: 'towns' must list 16 items, got 0")
    for m in fixes + marks:
        resp = player.post("/api/trace/karibik/edit", m)
        assert resp.status_code == 200, (m, resp.get_json())
    state = resp.get_json()["state"]
    assert state["problem"] is None and state["progress"]["towns"] == 16
    saved = player.post("/api/trace/karibik/save", {"name": "Kitchen table"})
    assert saved.status_code == 200 and saved.get_json()["state"]["use"] is True
    board = load_board(saved.get_json()["state"]["saved"]["path"])
    same_board(board, truth)
    back = player.client.get("/api/trace/karibik/board.svg?which=saved").get_data(as_text=True)
    assert 'class="trace-board trace-saved"' in back and back.count('class="sp port"') == 16
    assert back.count('class="sp hideout"') == 12 and back.count('class="sp skull"') == 6

    started = player.post("/api/game/start", {"game": "karibik", "players": ["Ana", "Ben"]})
    assert started.status_code == 200, started.get_json()
    assert hub.session.setup.options["board"]["name"] == "Kitchen table"
    assert hub.session.game.board.name == "Kitchen table" and len(hub.session.game.board.towns) == 16
    assert player.post("/api/trace/karibik/use", {"use": False}).status_code == 200
    player.post("/api/game/start", {"game": "karibik", "players": ["Ana", "Ben"]})
    assert "board" not in hub.session.setup.options, "the packaged board again"


def test_tahitis_track_recorded_and_saved_through_the_page(player, boards, hub):
    order = tahiti_board().track
    svg = player.client.get("/api/trace/tahiti/board.svg").get_data(as_text=True)
    assert svg.count('class="space"') == 12 and svg.count(">?</text>") == 12
    for i, s in enumerate(order):
        resp = player.post("/api/trace/tahiti/edit", {"op": "set", "index": i, "letter": s.letter, "pearl": s.pearl})
        assert resp.status_code == 200
    assert resp.get_json()["state"]["problem"] is None
    assert player.post("/api/trace/tahiti/save", {}).status_code == 200
    player.post("/api/game/start", {"game": "tahiti", "players": ["Ana", "Ben"]})
    assert [(s.letter, s.pearl) for s in hub.session.game.board.track] == [(s.letter, s.pearl) for s in order]
    assert hub.session.game.board.provisional is False


def test_without_board_setup_the_screen_says_so(player):
    resp = player.client.get("/api/trace/karibik")
    assert resp.status_code == 409 and "board set-up is not running" in resp.get_json()["error"]
