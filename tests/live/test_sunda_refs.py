"""Sunda to Sahul on the hub's camera: the colours enrolled from one photo (``tablehub sundacam enrol``, a photo
rendered by the simulated camera on "another evening"), written to the game's references folder, and
``tablehub run``'s recognizers (``_hub.game_recognizers`` and ``build_table``, as ``run`` builds them) reading a
piece laid on the simulated camera into a pending placement; recognition off in one line while the folder is
missing; bad photos and folders refused in one line naming the file."""
from __future__ import annotations

import json

import numpy as np
import pytest

from tablehub.cli import main
from tablehub.commands._hub import build_table, game_recognizers, recognition_files, table_recognizer
from tablehub.config import Config
from tablehub.hardware.sdnotify import Notifier
from tablehub.store import Store
from tablehub.tracking.recognizer import RecognitionUnavailable
from tablehub.tracking.sundacam import SundaRecognizer

from .test_sunda_e2e import sunda_record

cv2 = pytest.importorskip("cv2")
pytest.importorskip("vision.sunda")
web_hub = pytest.importorskip("web.hub")


@pytest.fixture(scope="module")
def sim():
    from tablehub.tracking.simtable import table_for

    return table_for(sunda_record(1), size=(1280, 720)).limit(3)  # its first piece a coast piece: its turn is seen


@pytest.fixture(scope="module")
def photo(sim, tmp_path_factory):
    """The enrolment photo and the camera's lens file, as files."""
    folder = tmp_path_factory.mktemp("enrol")
    image, truth = sim.enrolment_photo()
    cv2.imwrite(str(folder / "enrol.png"), image)
    truth.lens().save(folder / "lens.json")
    return folder / "enrol.png", folder / "lens.json"


@pytest.fixture(scope="module")
def markers_photo(sim, tmp_path_factory):
    """The resource markers' enrolment photo, as a file."""
    folder = tmp_path_factory.mktemp("markers")
    image, _ = sim.markers_photo()
    cv2.imwrite(str(folder / "markers.png"), image)
    return folder / "markers.png"


def _lines(capsys) -> tuple[list[str], list[str]]:
    out = capsys.readouterr()
    return out.out.strip().splitlines(), out.err.strip().splitlines()


def test_enrol_learns_land_water_and_each_pawn_colour_and_writes_the_folder(photo, tmp_path, capsys):
    image, lens = photo
    out = tmp_path / "refs"
    assert main(["sundacam", "enrol", str(image), "--out", str(out), "--lens", str(lens)]) == 0
    lines, err = _lines(capsys)
    assert lines[0].startswith(f"Sunda colours enrolled from {image}: land L ") and not err
    assert [ln.split()[0] for ln in lines[1:5]] == ["red", "yellow", "black", "purple"]
    assert lines[-1].startswith(f"next: check with 'tablehub sundacam read FRAME --refs {out}'")
    meta = json.loads((out / "sunda.json").read_text())
    assert meta["format"] == "tablehub-sunda/1" and meta["lens"] is True and (out / "lens.json").is_file()
    c = meta["colours"]
    land, water, pawns = np.array(c["land"]), np.array(c["water"]), {k: np.array(v) for k, v in c["pawns"].items()}
    assert list(pawns) == ["red", "yellow", "black", "purple"]
    assert water[2] < land[2] - 30, (land, water)           # water is blue (b* low), land green-yellow
    assert pawns["red"][1] > 30 and pawns["yellow"][2] > 40 and pawns["black"][0] < 30, pawns
    assert pawns["purple"][2] < 0 < pawns["purple"][1], pawns  # purple: red-ish and blue-ish


def test_run_reads_a_laid_piece_from_the_enrolled_folder_into_a_pending_placement(photo, sim, tmp_path, capsys):
    image, lens = photo
    cfg = Config(data_dir=str(tmp_path))
    refs = cfg.refs_path("sunda")
    with pytest.raises(RecognitionUnavailable) as err:
        table_recognizer(cfg, "sunda")
    assert str(err.value) == (f"table recognition is off: no Sunda references in {refs}; enrol the colours "
                              f"('tablehub sundacam enrol PHOTO --out {refs}')")
    assert refs / "sunda.json" in recognition_files(cfg, "sunda", tmp_path / "lens.json")
    assert main(["sundacam", "enrol", str(image), "--out", str(refs), "--lens", str(lens)]) == 0
    capsys.readouterr()

    store = Store(tmp_path / "games.sqlite")
    hub = web_hub.Hub(store, pin="1234")
    hub.start(sim.record.setup)
    recognizers = game_recognizers(cfg, hub)           # as `tablehub run` builds them
    assert recognizers.available("sunda") is None
    assert isinstance(recognizers.current(), SundaRecognizer)
    camera = sim.camera()
    table = build_table(cfg, hub, lambda: camera, None, Notifier({}), recognizers)
    want = sim.turns[0].table[0]
    assert want["type"] == "place_piece"
    frames = sum(s.frames for s in sim.shots() if s.turn <= 1)  # the empty table, a hand laying the piece, still
    pending = None
    for _ in range(frames):
        if not table.step():
            break
        reading = table.tracker.reading
        if reading.state == "pending":
            pending = reading
            break
    assert pending is not None, table.tracker.reading.describe()
    got = pending.actions[0]
    assert got["type"] == "place_piece" and {k: got[k] for k in ("q", "r", "turn")} == \
        {k: want[k] for k in ("q", "r", "turn")}, (got, want)
    # the tracker gave the reader the running game's set of prints (vision/sundaset.py's constraint)
    reader = recognizers.current().reader
    from vision.sundaset import prints_array
    want_prints = prints_array([p.ring for p in hub.session.game.set.pieces])
    assert reader.prints is not None and np.array_equal(reader.prints, want_prints)
    store.close()


def test_a_damaged_references_file_turns_recognition_off_in_one_line(tmp_path):
    """A folder whose sunda.json is damaged turns recognition off in one line naming the file."""
    cfg = Config(data_dir=str(tmp_path))
    refs = cfg.refs_path("sunda")
    refs.mkdir(parents=True)
    (refs / "sunda.json").write_text('{"format": "tablehub-sunda/1", "colours": {"land": [1, 2]}}')
    with pytest.raises(RecognitionUnavailable, match=rf"^table recognition is off: {refs / 'sunda.json'}: 'colours' "
                                                     r"must hold land, water, cloth_bgr and pawns"):
        table_recognizer(cfg, "sunda")


def _render(tmp_path, name, position=None):
    from vision.sim.sundatable import enrolment_scene, render_sunda

    scene = enrolment_scene()
    if position is not None:
        scene.position = position(scene.position)
    image, _ = render_sunda(scene, "default", np.random.default_rng(1), size=(1280, 720))
    path = tmp_path / name
    cv2.imwrite(str(path), image)
    return path


@pytest.mark.parametrize("case, expect", [
    ("missing", "{p}: no such file (expected a photo, JPEG or PNG)"),
    ("notimage", "{p}: cannot read the picture (expected a JPEG or PNG file)"),
    ("nopieces", "{p}: no land piece seen at its place (expected the all-land piece left of the play area's middle "
                 "and the all-water piece right of it, see docs/sunda.md)"),
    ("noyellow", "{p}: no yellow pawn seen at its place (expected the pawns in a row below the pieces, red, yellow, "
                 "black, purple from the left; the yellow one is number 2)"),
    ("colours", "--colours: expected distinct pawn colours among red, yellow, black, purple separated by commas, "
                "got 'red,green'"),
])
def test_bad_enrolment_input_is_one_line_naming_the_file(tmp_path, capsys, case, expect):
    args = []
    if case == "missing":
        p = tmp_path / "none.png"
    elif case == "notimage":
        p = tmp_path / "photo.jpg"
        p.write_text("not a picture")
    elif case == "nopieces":
        p = _render(tmp_path, "empty.png", lambda pos: {"pieces": [], "tribes": []})
    elif case == "noyellow":
        p = _render(tmp_path, "noyellow.png", lambda pos: dict(pos, tribes=[t for t in pos["tribes"]
                                                                          if t["pawns"] != ["yellow"]]))
    else:
        p = tmp_path / "none.png"
        args = ["--colours", "red,green"]
    out = tmp_path / "refs"
    assert main(["sundacam", "enrol", str(p), "--out", str(out), *args]) == 2
    lines, err = _lines(capsys)
    assert err == [f"tablehub sundacam: {expect.format(p=p)}"] and not lines
    assert not (out / "sunda.json").exists()


def test_read_prints_the_piece_laid_with_its_land_and_water(photo, sim, tmp_path, capsys):
    image, lens = photo
    refs = tmp_path / "refs"
    assert main(["sundacam", "read", str(image), "--refs", str(refs)]) == 2
    assert _lines(capsys)[1] == [f"tablehub sundacam: {refs}: no sunda.json (run 'tablehub sundacam enrol PHOTO "
                                 f"--out {refs}' first)"]
    assert main(["sundacam", "enrol", str(image), "--out", str(refs), "--lens", str(lens)]) == 0
    capsys.readouterr()
    shot = next(s for s in sim.shots() if s.turn == 1 and s.phase == "still")
    frame = tmp_path / "frame.png"
    cv2.imwrite(str(frame), sim.draw(shot, 0))
    assert main(["sundacam", "read", str(frame), "--refs", str(refs)]) == 0
    lines, err = _lines(capsys)
    laid = shot.view["position"]["pieces"][0]["sides"]
    assert lines[0] == "1 piece, 0 tribes" and not err, lines
    assert lines[1].endswith(f": {laid}"), (lines, laid)


def test_enrol_with_the_markers_photo_learns_each_marker_colour_and_the_hub_reads_markers(photo, markers_photo,
                                                                                          tmp_path, capsys):
    """``--markers``: the six resource markers' colours are enrolled like the rest, written to sunda.json and given
    to the hub's reader (a MarkerFinder); without it the reader reads no marker and the enrolment says so."""
    from tablehub.tracking.sundarefs import load_reader
    from vision.sundamarkers import MARKER_NAMES, MarkerFinder

    image, lens = photo
    out = tmp_path / "refs"
    assert main(["sundacam", "enrol", str(image), "--markers", str(markers_photo), "--out", str(out),
                 "--lens", str(lens)]) == 0
    lines, err = _lines(capsys)
    assert not err and [ln.split()[0] for ln in lines if " marker: L " in ln] == list(MARKER_NAMES), lines
    m = {k: np.array(v) for k, v in json.loads((out / "sunda.json").read_text())["colours"]["markers"].items()}
    assert list(m) == list(MARKER_NAMES)
    assert m["red"][1] > 30 and m["orange"][1] > 15 and m["orange"][2] > 40 and m["yellow"][2] > 50, m
    assert m["blue"][2] < -15 and m["green"][1] < -15 and m["purple"][1] > 15 > m["purple"][2], m
    assert m["orange"][1] < m["red"][1] and m["yellow"][1] < m["orange"][1], m   # red, orange, yellow in order
    reader = load_reader(out)
    assert isinstance(reader.markers, MarkerFinder) and set(reader.markers.markers) == set(MARKER_NAMES)

    plain = tmp_path / "plain"
    assert main(["sundacam", "enrol", str(image), "--out", str(plain), "--lens", str(lens)]) == 0
    lines, _ = _lines(capsys)
    assert "  resource markers: not enrolled (give --markers PHOTO to have them read; the phone enters them)" in lines
    assert load_reader(plain).markers is None


def test_a_marker_missing_from_the_markers_photo_is_one_line_naming_the_photo(photo, sim, tmp_path, capsys):
    image, lens = photo
    shot, _ = sim.markers_photo(leave_out=("orange",))
    path = tmp_path / "markers.png"
    cv2.imwrite(str(path), shot)
    out = tmp_path / "refs"
    assert main(["sundacam", "enrol", str(image), "--markers", str(path), "--out", str(out), "--lens", str(lens)]) == 2
    lines, err = _lines(capsys)
    assert err == [f"tablehub sundacam: {path}: no orange marker seen at its place (305, 290 mm on the mat) (expected "
                   "the six resource markers in a row 60 mm above the play area's middle, 30 mm apart, red, orange, "
                   "yellow, green, blue, purple from the left)"] and not lines, err
    assert not (out / "sunda.json").exists()


def test_damaged_marker_colours_turn_recognition_off_in_one_line(tmp_path, photo, markers_photo, capsys):
    image, lens = photo
    cfg = Config(data_dir=str(tmp_path))
    refs = cfg.refs_path("sunda")
    assert main(["sundacam", "enrol", str(image), "--markers", str(markers_photo), "--out", str(refs)]) == 0
    capsys.readouterr()
    meta = json.loads((refs / "sunda.json").read_text())
    meta["colours"]["markers"]["red"] = [1, 2]
    (refs / "sunda.json").write_text(json.dumps(meta))
    with pytest.raises(RecognitionUnavailable, match=rf"^table recognition is off: {refs / 'sunda.json'}: "
                                                     r"'colours.markers' must map each resource marker to three "
                                                     r"numbers \(Lab\)"):
        table_recognizer(cfg, "sunda")
