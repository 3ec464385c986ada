"""Enrolling a printed board from the phone's set-up screen (docs/boardcam.md "From the phone"):
the simulated board table (vision.sim.boardtable, through the camera model, on "another evening")
shows the empty board, then the pieces where the screen says, the page's buttons enrol them, and
the hub's running recognizer reads a frame from the new references without a restart."""
from __future__ import annotations

import numpy as np
import pytest

from tablehub.config import Config, VisionConfig
from tablehub.store import Store
from tablehub.tracking.boardmoves import BoardSeen
from tablehub.tracking.recognizer import RecognitionUnavailable
from tablehub.tracking.simtable import demo_record, table_for

pytest.importorskip("vision.boardreg")
web_hub = pytest.importorskip("web.hub")

PIN = "4821"
SIZE = (1920, 1080)  # the camera mode the table is meant for: at 1280x720 a chest's print is too blurred to enrol
ENROL_POSE = ((40.0, 40.0), 0.0)
PLAY_POSE = ((44.0, 37.0), -1.0)


class Table:
    """A hub with ``game`` on the table, the set-up screens on ``frames[0]``, and the simulated camera."""

    def __init__(self, tmp_path, game: str):
        from vision.mat import Mat

        from tablehub.commands._hub import game_recognizers
        from tablehub.table_setup import SetupScreens

        self.sim = table_for(demo_record(game, 2, 5), size=SIZE).limit(2)
        self.store = Store(tmp_path / "games.sqlite")
        self.hub = web_hub.Hub(self.store, pin=PIN)
        self.hub.start(self.sim.record.setup)
        self.cfg = Config(data_dir=str(tmp_path), vision=VisionConfig(refs=str(tmp_path / "refs" / "{game}")))
        self.frames: list = [None]
        self.screens = SetupScreens(self.hub, self.cfg, lambda: self.frames[0], lambda g: Mat.default()).register()
        self.recognizers = game_recognizers(self.cfg, self.hub)
        self.refs = tmp_path / "refs" / game
        self.sim._setup_render()
        self.camera = self.sim._camera_model.other_session()  # enrolled on another evening than it is played
        self.shots = 0

    def show(self, pieces=(), pose=ENROL_POSE, camera=None):
        from vision.sim.boardtable import render_board_scene

        self.shots += 1
        image, truth = render_board_scene(self.sim.scene(list(pieces), pose), camera or self.camera,
                                          np.random.default_rng(100 + self.shots), size=SIZE)
        self.frames[0] = image
        return truth

    def press(self, name: str):
        return self.hub.run_command(name)

    def status(self) -> str:
        return str(self.hub.snapshot()["status"]["enrolment"])

    def close(self):
        self.hub.shutdown()
        self.store.close()


@pytest.fixture()
def karibik(tmp_path):
    t = Table(tmp_path, "karibik")
    yield t
    t.close()


def _drawn(spots, ships):
    """The simulated pieces of an enrolment photo, drawn as the simulated table draws them (each on its space's
    centre, turned a little)."""
    from tablehub.tracking.simboard import spot_piece

    return [spot_piece(s, s.centre, i, ships) for i, s in enumerate(spots)]


class Phone:
    """A phone on the page: its CSRF token, JSON posts (as tests/web/conftest.py's)."""

    def __init__(self, client):
        self.client = client
        client.get("/")
        with client.session_transaction() as s:
            self.csrf = s["csrf"]

    def post(self, path: str, body=None):
        return self.client.post(path, json={} if body is None else body, headers={"X-CSRF-Token": self.csrf})

    def unlock(self):
        return self.post("/api/unlock", {"pin": PIN})


class At:
    """A spot with its space's centre (board mm)."""

    def __init__(self, spot, board):
        self.name, self.kind, self.carries, self.space = spot.name, spot.kind, spot.carries, spot.space
        self.centre = board.centres[spot.space]


def test_karibik_board_pieces_and_chests_enrolled_from_the_screen_then_the_hub_reads_the_table(karibik):
    from tablehub.board_enrolment import BoardEnrolError, chest_spots, piece_rounds
    from tablehub.games.karibik.engine import SHIPS
    from web import create_app

    t = karibik
    adapter = t.sim.adapter
    board = t.sim.board
    names = {c["name"] for c in t.hub.snapshot()["commands"] if c["screen"] == "enrolment"}
    assert {"board_enrol_board", "board_enrol_pieces", "board_enrol_chests", "board_forget_corners"} <= names
    assert t.status().startswith("step 1: lay the whole empty board in view"), t.status()

    # no frame yet; then the empty board, whose edge on the wooden table is not found: one line each
    with pytest.raises(BoardEnrolError, match="^no camera frame yet"):
        t.press("board_enrol_board")
    truth = t.show()
    with pytest.raises(BoardEnrolError) as err:
        t.press("board_enrol_board")
    assert str(err.value).startswith("the board's edge was not found: tap its four corners") and "\n" not in str(err.value)
    assert not t.refs.exists(), "nothing written"
    with pytest.raises(RecognitionUnavailable, match="no board references"):
        t.recognizers.current()

    # the four corners tapped on the preview, through the page's route (PIN, CSRF)
    w, h = board.size
    corners = truth.board_to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    phone = Phone(create_app(t.hub).test_client())
    assert phone.post("/api/enrolment/corner", {"x": 0.5, "y": 0.5}).status_code == 401, "the PIN first"
    assert phone.unlock().status_code == 200
    assert phone.post("/api/enrolment/corner", {"x": 1.5, "y": 0.5}).status_code == 400
    for i, (x, y) in enumerate(corners):
        r = phone.post("/api/enrolment/corner", {"x": x / SIZE[0], "y": y / SIZE[1]})
        assert r.status_code == 200, r.get_json()
    assert "four corners set" in r.get_json()["message"]
    tapped = t.screens.preview("enrolment")
    assert np.abs(tapped.astype(int) - t.frames[0]).sum() > 0, "the corners are drawn on the preview"
    r = phone.post("/api/command/board_enrol_board")
    assert r.status_code == 200 and r.get_json()["message"].startswith("empty board enrolled from the corners tapped")
    assert (t.refs / "boardcam.json").is_file() and (t.refs / "empty.png").is_file()
    assert t.status().startswith("step 2, the pieces, photo 1 of 2: put 1: Arriba on space"), t.status()
    with pytest.raises(RecognitionUnavailable, match="the pieces are not enrolled"):
        t.recognizers.current()

    # the preview draws the board found and the spaces of the first photo
    plain = t.frames[0]
    drawn = t.screens.preview("enrolment")
    assert drawn.shape == plain.shape and np.abs(drawn.astype(int) - plain).sum() > 0

    rounds = piece_rounds(adapter, board)
    assert [len(r) for r in rounds] == [8, 6]
    spaces = [s.space for s in rounds[0]]
    assert len(set(spaces)) == 8
    gaps = [np.hypot(*np.subtract(board.centres[a], board.centres[b])) for i, a in enumerate(spaces)
            for b in spaces[i + 1:]]
    assert min(gaps) > 80.0, f"the pieces are laid far apart ({min(gaps):.0f} mm)"
    assert [s.space for s in rounds[1]] == spaces[:6], "each ship laden on its own space again"

    # a piece missing: named in one line, nothing enrolled
    first = [At(s, board) for s in rounds[0]]
    t.show(_drawn([s for s in first if s.name != "Bravo"], list(SHIPS)))
    with pytest.raises(BoardEnrolError) as err:
        t.press("board_enrol_pieces")
    line = str(err.value)
    assert line.startswith("not found where expected: Bravo on space") and "\n" not in line and "Arriba" not in line
    assert not (t.refs / "pieces.json").exists()

    t.show(_drawn(first, list(SHIPS)))
    assert t.press("board_enrol_pieces").startswith("photo 1 of the pieces enrolled: 8 templates")
    assert t.status().startswith("step 2, the pieces, photo 2 of 2: put 1: Arriba carrying a chest on space")
    assert t.recognizers.available("karibik") is None, "recognition turned on without a restart"
    t.show(_drawn([At(s, board) for s in rounds[1]], list(SHIPS)))
    assert t.press("board_enrol_pieces").startswith("photo 2 of the pieces enrolled: 14 templates")

    # the board out of view: one line, what was enrolled stays
    kept = (t.refs / "pieces.json").read_bytes()
    t.frames[0] = np.full((SIZE[1], SIZE[0], 3), (60, 95, 130), np.uint8)
    with pytest.raises(BoardEnrolError, match="^the pieces: the board is not found in the picture"):
        t.press("board_enrol_pieces")
    assert (t.refs / "pieces.json").read_bytes() == kept

    # step 3: the chests' values
    assert t.status().startswith("step 3, the chests' values: put one chest face up of each value, 1: 4,000 on")
    t.show(_drawn([At(s, board) for s in chest_spots(adapter, board)], list(SHIPS)))
    assert t.press("board_enrol_chests") == "5 chest values enrolled: 4000, 5000, 6000, 7000, 8000"
    assert (t.refs / "chests.json").is_file()
    assert t.status().startswith("karibik's board and pieces are enrolled")

    # the hub's recognizer reads a frame on the evening it is played: ships where they stand
    from vision.sim.boardtable import BoardPiece

    where = {"Arriba": 40, "Bravo": 50, "Evita": 21}
    c = board.centres
    t.show([BoardPiece("ship", SHIPS.index(n), *c[s], 20.0) for n, s in where.items()], pose=PLAY_POSE,
           camera=t.sim._camera_model)
    seen = t.recognizers(t.frames[0])
    assert isinstance(seen, BoardSeen)
    assert {n: seen.pieces[n] for n in where} == where, (seen.pieces, seen.notes)
    assert all(seen.pieces[n] is None for n in SHIPS if n not in where)

    # enrolled again (another light, no taps): the board is found again by its art
    t.show(camera=t.sim._camera_model)
    assert t.press("board_enrol_board").startswith("empty board enrolled from the board enrolled before")


def test_board_steps_on_a_tile_game_and_without_a_game_are_one_line(tmp_path):
    from tablehub.board_enrolment import BoardEnrolError
    from tablehub.games.base import Setup
    from tablehub.table_setup import SetupScreens
    from vision.mat import Mat

    store = Store(tmp_path / "games.sqlite")
    hub = web_hub.Hub(store, pin=PIN)
    cfg = Config(data_dir=str(tmp_path))
    screens = SetupScreens(hub, cfg, lambda: None, lambda g: Mat.default()).register()
    with pytest.raises(BoardEnrolError, match="^start or resume a game first"):
        hub.run_command("board_enrol_board")
    hub.start(Setup("neuesland", ("Ana", "Ben"), ("red", "blue")))
    with pytest.raises(BoardEnrolError, match="^neuesland has no printed board the camera reads"):
        hub.run_command("board_enrol_pieces")
    assert screens.boards.game() is None
    hub.shutdown()
    store.close()


def test_tahiti_s_pieces_are_laid_once_each_the_disc_s_second_face_in_a_second_photo():
    from tablehub.board_enrolment import piece_rounds
    from tablehub.games.tahiti.camera import TahitiBoardMoves, camera_board
    from tablehub.games.tahiti.board import load_board

    board = camera_board(load_board(None))
    rounds = piece_rounds(TahitiBoardMoves(), board)
    assert [len(r) for r in rounds] == [25, 1]
    names = [(s.name, s.carries) for r in rounds for s in r]
    assert sorted(names, key=str) == sorted(TahitiBoardMoves.camera_looks(), key=str)
    spaces = [s.space for s in rounds[0]]
    assert len(set(spaces)) == 25 and all(s < 100 and s != 24 for s in spaces), "the sea cells, not the island"
    assert rounds[1][0].name == "disc treasure" and rounds[1][0].space == \
        next(s.space for s in rounds[0] if s.name == "disc $"), "the disc turned over where it lay"
    assert str(rounds[0][1].said) == "red boat with a green pearl"


def test_tahiti_s_board_and_pieces_enrolled_from_the_screen_then_the_hub_reads_boats(tmp_path):
    """All 26 templates from two photos on the page (25 pieces, then the disc turned over), and a frame read."""
    from vision.sim.boardtable import BoardPiece, piece_for_look

    from tablehub.board_enrolment import piece_rounds

    t = Table(tmp_path, "tahiti")
    try:
        board = t.sim.board
        truth = t.show()
        w, h = board.size
        for x, y in truth.board_to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)):
            t.screens.boards.tap(x / SIZE[0], y / SIZE[1])
        assert t.press("board_enrol_board").startswith("empty board enrolled from the corners tapped")
        rounds = piece_rounds(t.sim.adapter, board)

        def drawn(spots):
            out = []
            for i, s in enumerate(spots):
                kind, look, mark = piece_for_look(s.name, s.carries)
                out.append(BoardPiece(kind, look, *board.centres[s.space], 30.0 * i, mark))
            return out

        assert t.status().startswith("step 2, the pieces, photo 1 of 2: put 1: red boat on"), t.status()
        t.show(drawn(rounds[0]))
        assert t.press("board_enrol_pieces").startswith("photo 1 of the pieces enrolled: 25 templates")
        t.show(drawn(rounds[1]))
        assert t.press("board_enrol_pieces").startswith("photo 2 of the pieces enrolled: 26 templates")
        assert t.status().startswith("tahiti's board and pieces are enrolled"), "Tahiti has no chest values"

        c = board.centres
        cells = {"red boat": board.space_of("BE"), "yellow sailboat": board.space_of("track 3")}
        pieces = [BoardPiece(*piece_for_look("red boat", "white")[:2], *c[cells["red boat"]], 20.0,
                             piece_for_look("red boat", "white")[2]),
                  BoardPiece(*piece_for_look("yellow sailboat")[:2], *c[cells["yellow sailboat"]], 0.0)]
        t.show(pieces, pose=PLAY_POSE, camera=t.sim._camera_model)
        seen = t.recognizers(t.frames[0])
        found = sorted((s.look, s.space) for s in seen.found)
        assert found == sorted(cells.items()), (found, seen.notes)
    finally:
        t.close()
