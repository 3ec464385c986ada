"""The hub's recognizer for a printed board (Karibik): loaded from the game's references folder
(``[vision] refs``, default ``<data>/refs/karibik``) as tile references are, reloaded when they change,
refused in one line saying how to enrol while they are missing; enrolled here as the demo enrols
itself (a rendered empty board and rendered pieces on "another evening")."""
from __future__ import annotations

import re

import pytest

from tablehub.commands._hub import game_recognizers, recognition_files, table_recognizer
from tablehub.config import Config
from tablehub.store import Store
from tablehub.tracking.boardmoves import BoardSeen
from tablehub.tracking.recognizer import RecognitionUnavailable
from tablehub.tracking.simtable import demo_record, table_for

pytest.importorskip("vision.boardreg")
web_hub = pytest.importorskip("web.hub")


@pytest.fixture(scope="module")
def sim():
    record = demo_record("karibik", 2, 5)
    return table_for(record, size=(1280, 720)).limit(3)


def test_without_references_recognition_is_off_in_one_line_that_says_how_to_enrol(tmp_path):
    cfg = Config(data_dir=str(tmp_path))
    refs = tmp_path / "refs" / "karibik"
    with pytest.raises(RecognitionUnavailable) as err:
        table_recognizer(cfg, "karibik")
    assert str(err.value) == (f"table recognition is off: no board references in {refs}; enrol the empty board and "
                              f"the pieces ('tablehub boardcam enrol-board PHOTO --out {refs}', then 'enrol-pieces')")
    assert refs / "boardcam.json" in recognition_files(cfg, "karibik", tmp_path / "lens.json")


def test_the_hub_reads_the_board_from_the_enrolled_references_and_says_what_is_missing(tmp_path, sim):
    cfg = Config(data_dir=str(tmp_path))
    refs = cfg.refs_path("karibik")
    sim.enrol(refs)
    (refs / "pieces.json").rename(tmp_path / "pieces.json")
    with pytest.raises(RecognitionUnavailable, match="the pieces are not enrolled in .*enrol-pieces"):
        table_recognizer(cfg, "karibik")
    (tmp_path / "pieces.json").rename(refs / "pieces.json")

    store = Store(tmp_path / "games.sqlite")
    hub = web_hub.Hub(store, pin="1234")
    hub.start(sim.record.setup)
    recognizers = game_recognizers(cfg, hub)
    assert recognizers.available("karibik") is None
    camera = sim.camera()
    camera.open()
    shots = [s for s in sim.shots() if s.turn == 1 and s.phase == "still"]
    frame = sim.draw(shots[0], 0)
    seen = recognizers(frame)
    assert isinstance(seen, BoardSeen) and seen.board == sim.board.name
    ships = {k: v for k, v in seen.pieces.items() if k in sim.turns[0].view["pieces"]}
    want = sim.turns[0].view["pieces"]
    assert sum(ships[k] == want[k] for k in want) >= 5, (ships, want, seen.guesses)
    store.close()


def test_the_demo_plays_karibik_through_the_camera(tmp_path, monkeypatch, capsys):
    from tablehub.cli import main

    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path))
    status = main(["demo", "--game", "karibik", "--turns", "4", "--no-web", "--exit"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "4 steps of karibik" in out and "the final score equals `tablehub score` of the record" in out
    presses = int(re.search(r"NEXT pressed (\d+) time", out).group(1))
    choices = int(re.search(r"(\d+) unsure reads? answered", out).group(1))
    assert presses + choices >= 3, f"the camera read the moves: {out}"
    assert (tmp_path / "demo-refs" / "karibik" / "pieces.json").is_file(), "the demo enrolled the board itself"
