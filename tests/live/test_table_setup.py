"""Setting the table up from the phone while the hub runs: the recognizer follows the game on the
table and turns on when references appear; the calibration and enrolment screens work from camera
frames (rendered by vision.sim through a lens, as a Pi camera would see the mat)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tablehub.config import Config, VisionConfig
from tablehub.games import new_game
from tablehub.games.base import Setup
from tablehub.store import Store
from tablehub.table_setup import GameRecognizers, SetupError, SetupScreens
from tablehub.tracking.interpret import appearance
from tablehub.tracking.recognizer import RecognitionUnavailable

pytest.importorskip("vision.sim")
web_hub = pytest.importorskip("web.hub")

SIZE = (1280, 720)


# ---------------------------------------------------------------- which recognizer


class Loads:
    """A loader that says what it was asked for; unavailable until the game's index.json exists."""

    def __init__(self, root: Path):
        self.root, self.calls = root, []

    def files(self, game: str) -> list[Path]:
        return [self.root / game / "index.json"]

    def __call__(self, game: str):
        self.calls.append(game)
        if not (self.root / game / "index.json").is_file():
            raise RecognitionUnavailable(f"no references for {game}")
        return lambda frame: f"{game} read"


def test_the_recognizer_follows_the_game_and_turns_on_when_references_appear(tmp_path):
    loads = Loads(tmp_path)
    playing = [(1, "neuesland")]
    recs = GameRecognizers(loads, lambda: playing[0], loads.files)
    frame = np.zeros((4, 4, 3), np.uint8)
    with pytest.raises(RecognitionUnavailable, match="no references for neuesland"):
        recs(frame)
    with pytest.raises(RecognitionUnavailable):
        recs(frame)
    assert loads.calls == ["neuesland"], "a missing set is not looked for again on every frame"
    (tmp_path / "neuesland").mkdir()
    (tmp_path / "neuesland" / "index.json").write_text("{}")
    assert recs(frame) == "neuesland read", "references written while running are picked up"
    playing[0] = (2, "suedsee")
    with pytest.raises(RecognitionUnavailable, match="suedsee"):
        recs(frame)
    playing[0] = (3, "neuesland")
    assert recs(frame) == "neuesland read" and loads.calls == ["neuesland", "neuesland", "suedsee"]


def test_what_the_tracker_asks_besides_a_read_reaches_the_game_s_recognizer(tmp_path):
    """The tracker tells the recognizer the logged tiles (``follow``) and asks it for regions and
    confidences; through the per-game dispatcher of 'tablehub run' too, and quietly before enrolment."""
    class Rec:
        def __init__(self):
            self.known = None

        def __call__(self, frame):
            return "read"

        def follow(self, known):
            self.known = known

        def region_at(self, tile, rotation, u, v):
            return f"{tile}/{rotation}/{u}/{v}"

        def confidence(self, best, second):
            return best - second

    rec = Rec()
    index = tmp_path / "index.json"

    def load(game):
        if not index.is_file():
            raise RecognitionUnavailable("no references")
        return rec

    recs = GameRecognizers(load, lambda: (1, "neuesland"), lambda game: [index])
    recs.follow({(0, 0): ("ds001", 0)})  # nothing to tell yet: no error either
    index.write_text("{}")
    recs.follow({(0, 0): ("ds001", 0)})
    assert rec.known == {(0, 0): ("ds001", 0)}
    assert recs.region_at("ds002", 90, 0.5, 0.25) == "ds002/90/0.5/0.25"
    assert recs.confidence(0.9, 0.5) == pytest.approx(0.4)


# ---------------------------------------------------------------- the screens on a rendered table


@pytest.fixture()
def table(tmp_path):
    """A hub with a Neues Land game, set-up screens reading ``frames[0]``, and the renderer's pieces."""
    from vision.geometry import TileGeometry
    from vision.mat import Mat
    from vision.sim import DrawnArt, NUISANCE

    from tablehub.setup_files import catalog_file

    store = Store(tmp_path / "games.sqlite")
    hub = web_hub.Hub(store, pin="1234")
    hub.start(Setup("neuesland", ("Ana", "Ben"), ("red", "blue")))
    cfg = Config(data_dir=str(tmp_path), vision=VisionConfig(refs=str(tmp_path / "refs" / "{game}")))
    frames: list = [None]
    camera = NUISANCE["default"].with_(pose_jitter_deg=0.0, cast_jitter=0.0)
    art = DrawnArt(TileGeometry(catalog_file("neuesland")))
    lens: list = [None]
    screens = SetupScreens(hub, cfg, lambda: frames[0], lambda game: Mat.default(), lambda: lens[0]).register()

    class Table:
        pass

    t = Table()
    t.hub, t.cfg, t.frames, t.camera, t.art, t.lens, t.screens, t.mat = \
        hub, cfg, frames, camera, art, lens, screens, Mat.default()

    def show(scene, seed=1):
        from vision.sim import render

        image, truth = render(scene, art, camera, np.random.default_rng(seed), SIZE)
        frames[0] = image
        lens[0] = truth.lens()  # what 'tablehub lens calibrate' would have measured
        return image

    t.show = show
    yield t
    hub.shutdown()
    store.close()


def test_the_screens_have_their_buttons_and_say_what_to_lay(table):
    names = {c["name"] for c in table.hub.snapshot()["commands"]}
    assert {"check_markers", "calibrate_colours", "enrol_capture", "enrol_build", "enrol_reset"} <= names
    status = table.hub.snapshot()["status"]["enrolment"]
    assert status.startswith("batch 1 of 1: lay ds001 .. ds084 (84 tiles"), status


def test_nothing_to_read_is_one_line_and_nothing_is_written(table):
    with pytest.raises(SetupError, match="no camera frame yet"):
        table.screens.capture()
    table.frames[0] = np.full((SIZE[1], SIZE[0], 3), 128, np.uint8)  # a covered lens
    with pytest.raises(SetupError, match="blank image"):
        table.screens.capture()
    table.frames[0] = np.random.default_rng(0).integers(0, 255, (SIZE[1], SIZE[0], 3), dtype=np.uint8)
    with pytest.raises(SetupError) as err:  # a picture, but no mat in it
        table.screens.capture()
    assert "\n" not in str(err.value) and "marker" in str(err.value)
    assert table.screens.captured("neuesland") == []
    with pytest.raises(SetupError, match="0 of 1 batch"):
        table.screens.build()


def test_markers_then_colours_then_tiles_enrolled_from_the_camera_and_the_table_read(table, tmp_path):
    from vision.enroll import colour_scene, enrolment_scene
    from vision.sim import scene_from_view
    from vision.tiles import CatalogInfo

    from tablehub.setup_files import catalog_file
    from tablehub.commands._hub import game_recognizers
    from tablehub.games.tiles.playout import random_game

    catalog = CatalogInfo.load(catalog_file("neuesland"))
    table.show(enrolment_scene(table.mat, catalog.tile_ids, np.random.default_rng(3)))
    assert table.screens.check_markers().startswith("markers 0, 1, 2, 3 seen")
    preview = table.screens.preview("enrolment")
    assert preview.shape == table.frames[0].shape and np.abs(preview.astype(int) - table.frames[0]).sum() > 0, \
        "the layout boxes are drawn on the preview"

    recs = game_recognizers(table.cfg, table.hub)
    with pytest.raises(RecognitionUnavailable, match="no references"):
        recs.current()
    assert "captured batch 1 of 1" in table.screens.capture()
    with pytest.raises(SetupError, match="all 1 batch"):
        table.screens.capture()
    line = table.screens.build()
    assert line.startswith("enrolled 84 tile types of neuesland"), line
    refs = tmp_path / "refs" / "neuesland"
    assert (refs / "index.json").is_file() and (refs / "lens.json").is_file() and (refs / "mat.json").is_file()

    table.show(colour_scene(table.mat, ["red", "blue"]), seed=2)
    assert "calibrated red, blue" in table.screens.calibrate_colours()
    assert (refs / "colours.json").is_file()

    whole = random_game("neuesland", players=2, seed=4, finish=False)
    game = new_game(whole.setup)
    for action in whole.history:
        if len(game.board.cells) == 12:
            break
        game.apply(action)
    view = dict(game.view(), figures=[])
    table.show(scene_from_view(view, table.mat, rng=np.random.default_rng(5)), seed=6)
    obs = recs(table.frames[0])  # the same recognizer the tracker gets in 'tablehub run'
    truth = {(t["x"], t["y"]): (t["tile"], t["rotation"]) for t in view["tiles"]}
    read = {cell: (g.tile, g.rotation) for cell, g in obs.tiles.items()}
    assert set(read) == set(truth), "every laid tile found, nothing else"
    # drawn art gives twins (tiles that mean the same to the rules) the same picture: right = same meaning
    right = sum(appearance(game, *read[cell]) == appearance(game, *want) for cell, want in truth.items())
    assert right >= len(truth) - 1, f"{right} of {len(truth)} tiles read right with the page-enrolled references"


def test_start_over_forgets_the_captured_batches(table):
    from vision.enroll import enrolment_scene
    from vision.tiles import CatalogInfo

    from tablehub.setup_files import catalog_file

    table.show(enrolment_scene(table.mat, CatalogInfo.load(catalog_file("neuesland")).tile_ids))
    table.screens.capture()
    assert len(table.screens.captured("neuesland")) == 1
    assert table.screens.reset() == "forgot 1 captured batch(es)"
    assert table.screens.captured("neuesland") == []
    assert table.hub.snapshot()["status"]["enrolment"].startswith("batch 1 of 1")


def test_a_game_without_tiles_has_nothing_to_enrol(tmp_path):
    """Sunda has no tiles and no printed board: nothing to enrol; a printed board (Tahiti) has its own steps
    (tests/live/test_board_enrolment.py), and the tile buttons refuse it in one line."""
    from vision.mat import Mat

    store = Store(tmp_path / "games.sqlite")
    hub = web_hub.Hub(store, pin="1234")
    try:
        hub.start(Setup("sunda", ("Ana", "Ben")))
        screens = SetupScreens(hub, Config(data_dir=str(tmp_path)), lambda: None, lambda g: Mat.default()).register()
        assert hub.snapshot()["status"]["enrolment"].startswith("nothing to enrol: --game sunda: no tile catalog")
        hub.start(Setup("tahiti", ("Ana", "Ben")))
        screens.preview("enrolment")  # the line follows the game on the table
        assert hub.snapshot()["status"]["enrolment"].startswith("step 1: lay the whole empty board in view")
        with pytest.raises(Exception) as err:
            screens.capture()
        assert "tahiti" in str(err.value) and "\n" not in str(err.value)
    finally:
        hub.shutdown()
        store.close()


def test_the_preview_keeps_its_rectifier_while_mat_and_lens_stay(table):
    """The preview locates the mat in every frame it draws: the kept rectifier searches where the markers
    were last seen (a new one per frame always searched the whole frame); a new lens makes a new one."""
    from vision.enroll import enrolment_scene
    from vision.tiles import CatalogInfo

    from tablehub.setup_files import catalog_file

    table.show(enrolment_scene(table.mat, CatalogInfo.load(catalog_file("neuesland")).tile_ids[:4],
                               np.random.default_rng(3)))
    table.screens.preview("calibration")
    first = table.screens._tracking_rectifier("neuesland")
    assert first.last is not None, "the mat was found and is remembered"
    table.screens.preview("calibration")
    assert table.screens._tracking_rectifier("neuesland") is first
    table.lens[0] = None
    assert table.screens._tracking_rectifier("neuesland") is not first
