"""The last English a French or German phone could still read (issue 19, second pass): the "Trace the board"
screen's and the venue board's refusals, the camera's reasons inside "table recognition is off: {why}" and
"cannot read the table: {why}" (a dark frame, covered markers, no references, the start tile), the board trace
and edit errors, Südsee/Tahiti position and board-file errors, records and set-up file errors, and every game's
scoreboard keys. Each is provoked for real and rendered in fr and de: nothing falls back to English
(``i18n.missing()`` gains nothing) and no sentence reads as its English."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import numpy as np
import pytest

from tablehub import i18n
from tablehub.i18n import Text, reason, translate

from .conftest import ROOT

PIN = "4821"
LANGS = ("fr", "de")


def _renders(text, *english_bits: str) -> dict[str, str]:
    """``text`` (a Text) in fr and de: different from its English, without the English pieces given."""
    assert isinstance(text, Text), f"plain English, not a Text: {text!r}"
    out = {}
    for lang in LANGS:
        said = translate(text, lang)
        assert said and said != str(text), f"{lang}: {said!r} reads as its English"
        for bit in english_bits:
            assert bit not in said, f"{lang}: {bit!r} left in {said!r}"
        out[lang] = said
    return out


def _raised(exc_info) -> Text:
    return reason(exc_info.value)


# ---- 1. the trace screen and the venue board


@pytest.fixture()
def phone(hub):
    from web import create_app

    from ..web.conftest import Phone

    p = Phone(create_app(hub, heartbeat=0.2, stream_lifetime=2.0).test_client())
    assert p.unlock().status_code == 200
    return p


def _json_error(resp) -> str:
    data = resp.get_json()
    assert data and data.get("ok") is False and data.get("error"), resp.data[:200]
    return data["error"]


TRACE = [  # (method, path, body, a piece of the English)
    ("get", "/trace/chess", None, "no board screen for"),
    ("post", "/api/trace/karibik/paint", {}, "no board action"),
    ("get", "/api/trace/karibik", None, "board set-up is not running"),
]


@pytest.mark.parametrize("method, path, body, english", TRACE, ids=[t[1] for t in TRACE])
def test_the_trace_screen_refuses_in_the_phones_language(phone, no_new_missing, method, path, body, english):
    def ask(lang):
        if method == "get":
            return phone.client.get(path, headers={"Accept-Language": lang})
        return phone.post(path, body, **{"Accept-Language": lang})

    en = _json_error(ask("en"))
    assert english in en, en
    for lang in LANGS:
        said = _json_error(ask(lang))
        assert said != en and english not in said, f"{lang}: {said!r}"


def test_the_trace_screens_refusals_with_a_board_setup(phone, hub, tmp_path, no_new_missing):
    from tablehub.board_setup import BoardSetup
    from web.views.boards import attach

    attach(hub, BoardSetup(tmp_path / "data"))
    cases = [("get", "/api/trace/karibik/board.svg?which=mine", None, "which must be draft or saved"),
             ("get", "/api/trace/karibik/board.svg?which=saved", None, "no saved karibik board yet"),
             ("post", "/api/trace/tahiti/capture", {}, "only the Karibik board is traced"),
             ("post", "/api/trace/karibik/save", {"use": "yes"}, "'use' must be true or false")]
    for method, path, body, english in cases:
        def ask(lang):
            if method == "get":
                return phone.client.get(path, headers={"Accept-Language": lang})
            return phone.post(path, body, **{"Accept-Language": lang})

        en = _json_error(ask("en"))
        assert english in en, (path, en)
        for lang in LANGS:
            said = _json_error(ask(lang))
            assert said != en and english not in said, f"{path} {lang}: {said!r}"


def test_a_traced_photo_without_spaces_is_refused_in_the_readers_language(tmp_path, no_new_missing):
    from tablehub.board_setup import BoardSetup, BoardSetupError

    setup = BoardSetup(tmp_path / "data")
    grey = np.full((300, 400, 3), 128, np.uint8)  # a plain grey photo: no space to find
    with pytest.raises(BoardSetupError) as exc:
        setup.trace_image(grey, (600, 420))
    assert "trace:" in str(exc.value)
    _renders(exc.value.text, "no space found", "the photo")


def test_the_venue_board_refuses_in_the_screens_language(no_new_missing):
    from tablehub.venue.board import VenueBoard
    from web.venue import BoardFeed, create_venue_app

    with pytest.raises(ValueError) as exc:
        BoardFeed(VenueBoard("cafe"), rule="luck")
    _renders(reason(exc.value), "is unknown", "expected one of")
    app = create_venue_app(VenueBoard("cafe"))
    try:
        client = app.test_client()
        en = _json_error(client.get("/api/board?rule=luck", headers={"Accept-Language": "en"}))
        assert "rule must be one of" in en
        for lang in LANGS:
            said = _json_error(client.get("/api/board?rule=luck", headers={"Accept-Language": lang}))
            assert said != en and "must be one of" not in said, said
    finally:
        app.extensions["tablehub.venue_feed"].close()


def test_a_full_event_bus_says_so_in_the_readers_language(no_new_missing):
    from web.events import EventBus, StreamLimit

    bus = EventBus(keep=2, max_streams=0)
    with pytest.raises(StreamLimit) as exc:
        bus.stream(None, heartbeat=1.0, lifetime=1.0)
    _renders(i18n.T("the board is busy: {why}", why=reason(exc.value)), "event streams", "busy")


# ---- 2. the camera's reasons, inside the tracker's sentences


FRAMES = {
    "too dark": np.full((360, 640, 3), 8, np.uint8),
    "blank image": np.full((360, 640, 3), 120, np.uint8),
    "overexposed": np.hstack([np.full((360, 400, 3), 255, np.uint8),  # most of it burnt white, the rest a scene
                              np.random.default_rng(6).integers(0, 200, (360, 240, 3)).astype(np.uint8)]),
}


@pytest.mark.parametrize("what", sorted(FRAMES))
def test_a_bad_frame_reaches_the_phone_in_its_language(what, no_new_missing):
    """The tracker's "cannot read the table: {why}" with vision's own reason, as the phone reads it."""
    from tablehub.tracking.tracker import Tracker
    from vision.rectify import check_frame

    def recognize(frame):
        check_frame(frame)
        raise AssertionError("a bad frame passed")

    reading = Tracker(lambda: None, recognize).read(FRAMES[what])
    assert reading.state == "waiting" and what in reading.reason, reading.reason
    _renders(reading.reason, what, "cannot read the table", "camera")


def test_covered_markers_are_named_in_the_readers_language(no_new_missing):
    from vision.mat import Mat
    from vision.rectify import MarkersNotFound, Rectifier

    noise = (np.random.default_rng(3).random((480, 640, 3)) * 255).astype(np.uint8)
    with pytest.raises(MarkersNotFound) as exc:
        Rectifier(Mat.default()).locate(noise)
    text = _raised(exc)
    assert "top-left" in text and "cannot place the frame" in text
    said = _renders(text, "top-left", "cannot place", "none seen", "uncover them")
    assert "en haut à gauche" in said["fr"] and "oben links" in said["de"]


def test_no_references_reach_the_phone_in_its_language(no_new_missing):
    from tablehub.tracking.recognizer import RecognitionUnavailable, make_recognizer

    with pytest.raises(RecognitionUnavailable) as exc:
        make_recognizer("neuesland", references=None)
    text = exc.value.text
    assert "no references for neuesland" in text
    _renders(text, "no references", "enrol the tiles first", "table recognition is off")


def test_a_missing_start_tile_and_an_empty_frame_in_the_readers_language(no_new_missing):
    from vision import startfind
    from vision.rectify import check_frame

    with pytest.raises(Exception) as exc:
        check_frame(np.zeros((0, 0, 3), np.uint8))
    _renders(_raised(exc), "empty image", "connected")
    # every start-tile reason is a Text with fr and de (the tracker shows them while the mat is bare)
    source = (ROOT / "vision" / "startfind.py").read_text(encoding="utf-8")
    assert not re.search(r"raise NoStartTile\(f?\"", source), "a NoStartTile raised in plain English"
    for english in ("start tile: {tile} not found: no tiles on the play area",
                    "view: no cell of the table lies whole in the frame; aim the camera at the mat"):
        _renders(i18n.Text(english, tile="C"), "not found", "no cell")
    assert startfind.NoStartTile.__mro__[1].__name__ == "VisionError"


def test_board_edit_errors_reach_the_draft_in_the_readers_language(no_new_missing):
    from vision.board_edit import split_outline

    square = [(0, 0), (10, 0), (10, 10), (0, 10)]
    with pytest.raises(Exception) as exc:
        split_outline(square, (5, 5), (5, 5))
    _renders(_raised(exc), "two different points")


# ---- 3. Südsee and Tahiti positions and board files, records, set-up files


def _setup_error(call, *args, **kw):
    from tablehub.games.base import TablehubError

    with pytest.raises(TablehubError) as exc:
        call(*args, **kw)
    return exc.value.text


SUEDSEE_POSITIONS = [  # (position data, a piece of the English)
    ({"players": "Ana"}, "expected a list of names"),
    ({"players": ["Ana", "Ben"], "position": {"ships": {"Cleo": []}, "goods": {}}}, "is not a player"),
    ({"players": ["Ana", "Ben"], "position": {"ships": {"Ana": ["nope"]}, "goods": {}}}, "is not in"),
    ({"players": ["Ana", "Ben"], "position": {"ships": {"Ana": [999]}, "goods": {}}}, "no ship is worth"),
    ({"players": ["Ana", "Ben"], "position": {"ships": {}, "goods": {}}, "options": {"ships": 3}},
     "expected a path to a ships file"),
]


@pytest.mark.parametrize("data, english", SUEDSEE_POSITIONS, ids=[e for _, e in SUEDSEE_POSITIONS])
def test_a_bad_suedsee_position_is_refused_in_the_readers_language(data, english, no_new_missing):
    from tablehub.games.suedsee.engine import Suedsee

    text = _setup_error(Suedsee.score_position, data, "pos.json")
    assert english in text, text
    _renders(text, english)


def test_a_ship_counted_twice_in_the_readers_language(no_new_missing):
    from tablehub.games.suedsee.engine import Suedsee
    from tablehub.games.suedsee.ships import load_ships

    from tablehub.games.suedsee.engine import SHIPS_FILE

    ship = sorted(load_ships(SHIPS_FILE).ships)[0]
    data = {"players": ["Ana", "Ben"], "position": {"ships": {"Ana": [ship], "Ben": [ship]}, "goods": {}}}
    text = _setup_error(Suedsee.score_position, data, "pos.json")
    assert "counted twice" in text
    _renders(text, "counted twice", "one of each ship")


@pytest.mark.parametrize("requirement, english", [
    ({"exact": {"gold": 1}}, "'exact' maps goods"), ({"any": 0}, "takes a whole number"),
    ({"kinds": []}, "'kinds' is a list"), ({"magic": 1}, "unknown requirement"),
    ({"any": 1, "same": 1}, "'requirement' is one of")])
def test_a_bad_ships_file_requirement_in_the_readers_language(requirement, english, no_new_missing):
    from tablehub.games.suedsee.ships import Requirement, ShipsError

    with pytest.raises(ShipsError) as exc:
        Requirement.from_json(requirement, "ships.json: ships[0] (s1)")
    text = exc.value.text
    assert english in text, text
    _renders(text, english)


def test_a_bad_tahiti_board_option_and_geometry_file(tmp_path, no_new_missing):
    from tablehub.games.tahiti.board import load_board
    from tablehub.games.tahiti.camera import load_geometry

    _renders(_setup_error(load_board, 42), "must be a path")
    bad = tmp_path / "geometry.json"
    for content, english in (("[]", "expected a JSON object"), ('{"size_mm": 3}', "size_mm must be"),
                             ('{"size_mm": [600, 600], "cells": {}}', "cells must name the 49 map cells"),
                             ("{nope", "not a readable Tahiti board geometry")):
        bad.write_text(content)
        text = _setup_error(load_geometry, bad)
        assert english in text, text
        _renders(text, english)


def test_record_and_position_file_errors_in_the_readers_language(no_new_missing):
    from tablehub import records

    cases = [({"game": "karibik", "players": ["A", "B"], "position": {}}, records.parse_position,
              "is scored from records"),
             ({"game": "tahiti", "players": ["A", "B"], "position": {}, "actions": []}, records.parse_position,
              "has both 'actions'"),
             ({"game": "chess", "players": ["A", "B"], "position": {}}, records.parse_position, "game:"),
             ({"game": "tahiti", "players": ["A", "B"], "colors": ["red"], "position": {}}, records.parse_position,
              "give one colour per player")]
    for data, call, english in cases:
        text = _setup_error(call, data, "f.json")
        assert english in text, text
        _renders(text, english if english != "game:" else "unknown game")


def test_a_refused_action_in_a_record_names_it_in_the_readers_language(no_new_missing):
    from tablehub import records

    record = records.parse_record({"game": "tahiti", "players": ["Ana", "Ben"],
                                   "actions": [{"type": "no such action"}]}, "r.json")
    text = _setup_error(records.replay, record)
    assert text.startswith("r.json: action 0"), text
    said = _renders(text)
    assert said["de"].startswith("r.json: Aktion 0"), said


def test_setup_file_errors_in_the_readers_language(no_new_missing):
    from tablehub.setup_files import catalog_file

    text = _setup_error(catalog_file, "chess")
    assert "no tile catalog" in text
    _renders(text, "no tile catalog", "tile games")


# ---- 4. every game's scoreboard keys have a label the page translates


def _key_info() -> set[str]:
    js = (ROOT / "web" / "static" / "app.js").read_text(encoding="utf-8")
    body = re.search(r"const KEY_INFO = \{(.*?)\n\};", js, re.S).group(1)
    hide = re.search(r"const HIDE_KEYS = new Set\(\[(.*?)\]\)", js).group(1)
    return set(re.findall(r"(\w+):\s*\[", body)) | set(re.findall(r'"(\w+)"', hide))


def test_every_games_resource_keys_have_a_label_on_the_scoreboard():
    """Random legal play through each game: every player and table key its resources() shows is in KEY_INFO
    (a label passed through t(), which test_catalogs holds to fr and de) or hidden."""
    from tablehub.games import GAMES, new_game
    from tablehub.games.base import Setup

    known = _key_info()
    assert {"auction", "colour", "seventh"} <= known
    unlabelled = {}
    for name in GAMES:
        rng = random.Random(7)
        game = new_game(Setup(name, ("Ana", "Ben", "Cleo")))
        keys: set[str] = set()
        for _ in range(300):
            res = game.resources()
            keys |= set(res.get("table") or {})
            for mine in (res.get("players") or {}).values():
                keys |= set(mine)
            actions = [] if game.finished else list(game.legal_actions())[:200]
            if not actions:
                break
            game.apply(rng.choice(actions))
        if keys - known:
            unlabelled[name] = sorted(keys - known)
    assert not unlabelled, f"scoreboard keys shown as raw English: {unlabelled}"


def test_the_scoreboard_check_catches_an_unlabelled_key(tmp_path):
    js = (ROOT / "web" / "static" / "app.js").read_text(encoding="utf-8")
    assert "auction: [" in js
    assert "auction" not in set(re.findall(r"(\w+):\s*\[", js.replace("auction: [", "")))


# ---- 5. the owner's console: a command's option errors in the table's language

CLI = [  # (argv, a piece of the English)
    (["pin", "--digits", "2"], "a PIN has"),
    (["venue", "--broker", "localhost", "--listen", "nowhere"], "expected ADDRESS:PORT"),
    (["games", "list", "--db", "{tmp}/none.db"], "no game database here"),
]


@pytest.mark.parametrize("argv, english", CLI, ids=[c[1] for c in CLI])
def test_a_commands_option_error_in_the_owners_language(argv, english, tmp_path, capsys, monkeypatch,
                                                         no_new_missing):
    from tablehub.cli import main

    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "TABLEHUB_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path / "data"))
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    said = {}
    for lang, env in (("en", "C.UTF-8"), ("fr", "fr_FR.UTF-8"), ("de", "de_DE.UTF-8")):
        monkeypatch.setenv("LANG", env)
        assert main(argv) == 2
        said[lang] = capsys.readouterr().err.strip()
    assert english in said["en"], said["en"]
    for lang in LANGS:
        assert said[lang] != said["en"] and english not in said[lang], f"{lang}: {said[lang]!r}"
