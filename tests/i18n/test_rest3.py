"""The last English on a French or German console or phone (issue 19): the command line's own errors and
argparse's, vision's file-format and enrolment errors, the keys inside grouped values on the scoreboard, the
board enrolment preview's drawn lines and the chest reader's unsure lines. Each case runs in English, French
and German: the English is as before, the French and German say something else, without the English words
(``i18n.missing()`` gains nothing: ``no_new_missing``)."""
from __future__ import annotations

import ast
import errno
import json
import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tablehub import i18n
from tablehub.i18n import Text, translate

from .conftest import ROOT, placeholders

LANGS = ("fr", "de")
#: English words that a French or German line must not contain (outside paths and values it quotes)
ENGLISH = re.compile(r"\b(expected|got|must|cannot|give|missing|no such|not a|the|with|only|need|found|"
                     r"usage|error|invalid|required|unrecognized)\b", re.I)  # "argument" is French and German too


def _own_words(line: str, *quoted: str) -> str:
    """``line`` without the paths and values it quotes and the system's own words (they stay as written)."""
    for q in sorted(quoted + (os.strerror(errno.ENOENT),), key=len, reverse=True):
        line = line.replace(q, " ")
    return re.sub(r"'[^']*'|\"[^\"]*\"", " ", line)


# ------------------------------------------------------------------------------------ the command line

def _run(argv: list[str], lang: str, monkeypatch, capsys) -> tuple[int, str]:
    from tablehub.cli import main

    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "TABLEHUB_CONFIG", "TABLEHUB_CAMERA"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", {"en": "C.UTF-8", "fr": "fr_FR.UTF-8", "de": "de_DE.UTF-8"}[lang])
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    return code, capsys.readouterr().err.strip()


#: (argv, a piece of the English line); {tmp} is a scratch folder holding photo.jpg, record.json, secret
COMMANDS = [
    (["score"], "give a record or position file"),
    (["score", "{tmp}/record.json", "--photo", "{tmp}/photo.jpg"], "not both"),
    (["score", "--photo", "{tmp}/photo.jpg"], "name the game with --game"),
    (["score", "{tmp}/record.json", "--players", "a,b"], "only with --photo"),
    (["score", "--photo", "{tmp}/photo.jpg", "--game", "neuesland", "--players", "red"], "expected COLOUR=NAME pairs"),
    (["score", "--photo", "{tmp}/photo.jpg", "--game", "neuesland", "--before", "red=x"],
     "expected PLAYER=POINTS pairs"),
    (["play", "--game", "neuesland", "--option", "x"], "expected KEY=VALUE"),
    (["board", "trace", "--game", "tahiti", "{tmp}/photo.jpg"], "boards are traced"),
    (["board", "trace", "--game", "karibik", "{tmp}/none.jpg"], "cannot read the photo"),
    (["lens", "calibrate", "--photos", "{tmp}/none", "--out", "{tmp}/lens.json"], "not a folder"),
    (["lens", "calibrate", "--photos", "{tmp}/empty", "--out", "{tmp}/lens.json"], "no photos there"),
    (["lens", "board", "--out", "{tmp}/board.jpg"], "the board is written as a PNG"),
    (["sundacam", "enrol", "--out", "{tmp}/refs", "{tmp}/none.jpg"], "no such file (expected a photo"),
    (["sundacam", "enrol", "--out", "{tmp}/refs", "{tmp}/photo.jpg"], "cannot read the picture"),
    (["boardcam", "read", "--refs", "{tmp}/refs", "{tmp}/photo.jpg"], "no boardcam.json"),
    (["venue", "--broker", "b.lan", "--password-file", "{tmp}/secret"], "no --username"),
    (["venue", "--broker", "b.lan", "--venue", "a b"], "must be 1 to 64 letters"),
    (["enroll", "--game", "neuesland", "--out", "{tmp}/refs"], "give photos of the laid-out tiles"),
    (["enroll", "--game", "neuesland", "--out", "{tmp}/refs", "--scans", "{tmp}/none"], "no such folder of tile scans"),
    (["enroll", "--game", "neuesland", "--out", "{tmp}/refs", "--scans", "{tmp}"], "no scan for"),
    (["recognize", "--game", "neuesland", "--refs", "{tmp}", "{tmp}/photo.jpg"], "no references there"),
    # argparse's own: a type= check, a missing argument, an unknown option, an unknown command
    (["markers", "--play", "3"], "expected WIDTHxHEIGHT in mm"),
    (["lens", "board", "--squares", "9"], "expected COLUMNSxROWS of squares"),
    (["board", "trace"], "the following arguments are required"),
    (["pin", "--bogus"], "unrecognized arguments"),
    (["nosuch"], "invalid choice"),
]


@pytest.fixture()
def scratch(tmp_path):
    (tmp_path / "photo.jpg").write_bytes(b"not a picture")
    (tmp_path / "record.json").write_text('{"game": "tahiti", "players": ["Ana", "Ben"], "actions": []}')
    (tmp_path / "secret").write_text("hunter2\n")
    (tmp_path / "empty").mkdir()
    return tmp_path


@pytest.mark.parametrize("argv, english", COMMANDS, ids=[" ".join(c[0][:2]) + ": " + c[1] for c in COMMANDS])
def test_a_commands_error_is_written_in_the_owners_language(argv, english, scratch, monkeypatch, capsys,
                                                           no_new_missing):
    argv = [a.replace("{tmp}", str(scratch)) for a in argv]
    said = {lang: _run(argv, lang, monkeypatch, capsys) for lang in ("en", *LANGS)}
    code, en = said["en"]
    assert code == 2 and english in en, said["en"]
    assert "Traceback" not in en
    for lang in LANGS:
        c, line = said[lang]
        assert c == code and "Traceback" not in line, line
        assert line != en and english not in line, f"{lang}: {line!r}"
        own = _own_words(line, str(scratch), *argv)
        assert not ENGLISH.search(own), f"{lang}: English left in {line!r}: {ENGLISH.search(own).group(0)!r}"


def test_the_help_is_headed_in_the_owners_language(monkeypatch, capsys):
    """argparse's headings and its own help line (the commands' help texts: tests/i18n/test_rest4.py)."""
    from tablehub.cli import main

    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    with pytest.raises(SystemExit):
        main(["pin", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("Aufruf: tablehub pin") and "Optionen:" in out and "diese Hilfe zeigen" in out, out
    monkeypatch.setenv("LANG", "C.UTF-8")
    with pytest.raises(SystemExit):
        main(["pin", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: tablehub pin") and "options:" in out and "show this help message" in out, out


def test_the_settings_language_wins_for_argparse_too(tmp_path, monkeypatch, capsys):
    settings = tmp_path / "tablehub.toml"
    settings.write_text('[voice]\nlanguage = "fr"\n', encoding="utf-8")
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    from tablehub.cli import main

    with pytest.raises(SystemExit):
        main(["run", "--config", str(settings), "--bogus"])
    assert "arguments non reconnus : --bogus" in capsys.readouterr().err


def test_argparse_still_says_what_the_catalogs_translate():
    """Each of argparse's templates in tablehub/usage_i18n.py is still in this Python's argparse (a newer
    Python that rewords one fails here), and every translation keeps its %-placeholders."""
    import argparse
    import inspect

    from tablehub.usage_i18n import MESSAGES, PLURALS

    source = inspect.getsource(argparse)
    for msgid in list(MESSAGES) + [p.msgid for p in PLURALS] + [p.plural for p in PLURALS]:
        assert repr(msgid) in source or json.dumps(msgid) in source, f"argparse no longer says {msgid!r}"
    pct = re.compile(r"%(?:\(\w+\))?[rsd]")
    for lang in LANGS:
        for msgid in MESSAGES:
            said = translate(Text(msgid), lang)
            assert said != msgid or msgid in ("options",) and lang == "fr", (lang, msgid)
            assert sorted(pct.findall(said)) == sorted(pct.findall(msgid)), (lang, msgid, said)
        for p in PLURALS:
            for n in (1, 2):
                said = translate(Text(p.msgid, plural=p.plural, n=n), lang)
                english = p.msgid if n == 1 else p.plural
                assert pct.findall(said) == ["%s"] and said != english, said


def test_no_command_or_vision_error_is_written_as_plain_english():
    """Every error raised in tablehub/commands/*.py, vision/*.py and the modules they and the phone reach for files,
    photos, the PIN, the game log and the camera's references with a sentence of its own is a Text
    (``raise X(T(...))``), not a str or f-string: a phone or a console would read it in English. Python's
    own and a programmer's errors (AttributeError, a px that is no multiple) are left out by name."""
    allowed = {("vision/recognize.py", "AttributeError"), ("vision/tiles.py", "ValueError"),
               ("vision/sundaset.py", "ValueError")}

    def plain(node: ast.AST) -> bool:
        return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str)) \
            or (isinstance(node, ast.BinOp) and (plain(node.left) or plain(node.right)))

    found = []
    paths = sorted((ROOT / "tablehub" / "commands").glob("*.py")) + sorted((ROOT / "vision").glob("*.py")) + \
        [ROOT / "tablehub" / name for name in ("cli.py", "jsonfile.py", "board_enrolment.py", "table_setup.py", "photo.py",
                                               "imagefile.py", "access.py", "session.py", "store.py", "photoscore.py",
                                               "tracking/boardcam.py", "tracking/sundarefs.py")]
    for path in paths:
        rel = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
                name = getattr(node.exc.func, "id", None) or getattr(node.exc.func, "attr", "")
                if any(plain(a) for a in node.exc.args) and (rel, name) not in allowed:
                    found.append(f"{rel}:{node.lineno} {name}")
    assert not found, "errors in plain English:\n" + "\n".join(found)


# ------------------------------------------------------------------------------------ vision's files

def _vision_error(call) -> BaseException:
    from tablehub.games.base import TablehubError
    from vision import VisionError

    with pytest.raises((VisionError, TablehubError)) as exc:
        call()
    return exc.value


def _mat(tmp_path: Path, change: dict) -> Path:
    from vision.mat import Mat

    data = Mat.default().to_dict()
    data.update(change)
    path = tmp_path / "mat.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _catalog(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "tiles.json"
    path.write_text(text, encoding="utf-8")
    return path


#: (what, a function of tmp_path that raises, a piece of the English)
VISION_FILES = [
    ("mat: unreadable", lambda p: __import__("vision.mat", fromlist=["Mat"]).Mat.load(p / "none.json"),
     "cannot read the mat file"),
    ("mat: not JSON", lambda p: __import__("vision.mat", fromlist=["Mat"]).Mat.load(_catalog(p, "{")),
     "not valid JSON"),
    ("mat: format", lambda p: __import__("vision.mat", fromlist=["Mat"]).Mat.load(_mat(p, {"format": "x"})),
     "format: expected"),
    ("mat: markers", lambda p: __import__("vision.mat", fromlist=["Mat"]).Mat.load(_mat(p, {"markers": []})),
     "markers: missing or empty"),
    ("mat: a marker id", lambda p: __import__("vision.mat", fromlist=["Mat"]).Mat.load(
        _mat(p, {"markers": [{"id": "x", "x_mm": 1, "y_mm": 1}]})), "expected an integer marker id"),
    ("mat: a number", lambda p: __import__("vision.mat", fromlist=["Mat"]).Mat.load(_mat(p, {"width_mm": "wide"})),
     "expected a number of millimetres"),
    ("mat: too few markers", lambda p: __import__("vision.mat", fromlist=["Mat"]).Mat.load(
        _mat(p, {"markers": [{"id": 1, "x_mm": 10, "y_mm": 10}]})), "expected at least 3 markers"),
    ("mat: dictionary", lambda p: __import__("vision.mat", fromlist=["Mat"]).Mat.load(
        _mat(p, {"dictionary": "DICT_NOPE"})), "is not a cv2.aruco dictionary"),
    ("lens: unreadable", lambda p: __import__("vision.calibrate", fromlist=["x"]).LensCalibration.load(p / "no.json"),
     "cannot read the lens file"),
    ("lens: not JSON", lambda p: __import__("vision.calibrate", fromlist=["x"]).LensCalibration.load(
        _catalog(p, "[1,")), "not valid JSON"),
    ("lens: a field", lambda p: __import__("vision.calibrate", fromlist=["x"]).LensCalibration.load(
        _catalog(p, '{"format": "tablehub-lens/1"}')), "missing"),
    ("lens: shape", lambda p: __import__("vision.calibrate", fromlist=["x"]).LensCalibration.load(_catalog(
        p, '{"camera_matrix": [[1]], "dist_coeffs": [0], "image_size": [4, 3]}')), "camera_matrix must be 3x3"),
    ("lens: not an object", lambda p: __import__("vision.calibrate", fromlist=["x"]).LensCalibration.load(
        _catalog(p, "[]")), "not a lens calibration"),
    ("lens board: format", lambda p: __import__("vision.calibrate", fromlist=["x"]).CharucoSpec.load(
        _catalog(p, '{"format": "x"}')), "format: expected"),
    ("lens board: squares", lambda p: __import__("vision.calibrate", fromlist=["x"]).CharucoSpec(2, 2),
     "expected at least 3 x 3 squares"),
    ("tile shapes: unreadable", lambda p: __import__("vision.geometry", fromlist=["x"]).TileGeometry(
        p / "none.json"), "cannot read the catalog"),
    ("tile shapes: tiles", lambda p: __import__("vision.geometry", fromlist=["x"]).TileGeometry(
        _catalog(p, '{"tiles": []}')), "tiles: missing or empty"),
    ("tile shapes: not JSON", lambda p: __import__("vision.geometry", fromlist=["x"]).TileGeometry(
        _catalog(p, '{"tiles": ')), "not valid JSON"),
    ("tile catalog: unreadable", lambda p: __import__("vision.tiles", fromlist=["x"]).CatalogInfo.load(
        p / "none.json"), "cannot read the catalog"),
    ("tile catalog: tiles", lambda p: __import__("vision.tiles", fromlist=["x"]).CatalogInfo.load(
        _catalog(p, '{}')), "no 'tiles' list"),
    ("colours: unreadable", lambda p: __import__("vision.pieces", fromlist=["x"]).PlayerColours.load(p / "no.json"),
     "cannot read the colour file"),
    ("colours: format", lambda p: __import__("vision.pieces", fromlist=["x"]).PlayerColours.load(
        _catalog(p, '{"format": "x"}')), "colour file (made by"),
    ("references: no index", lambda p: __import__("vision.refs", fromlist=["x"]).ReferenceSet.load(p),
     "no index.json"),
    ("references: format", lambda p: (_catalog(p, "{}").rename(p / "index.json"),
                                      __import__("vision.refs", fromlist=["x"]).ReferenceSet.load(p)),
     "format is"),
    ("piece book", lambda p: __import__("vision.boardpieces", fromlist=["x"]).PieceBook.load(_catalog(p, "{")),
     "not a readable piece book"),
    ("piece book: format", lambda p: __import__("vision.boardpieces", fromlist=["x"]).PieceBook.load(
        _catalog(p, '{"format": "x"}')), "'format' must be"),
    ("chest book", lambda p: __import__("vision.chests", fromlist=["x"]).ValueBook.load(_catalog(p, "{")),
     "not a readable chest value book"),
    ("enrol: scans", lambda p: __import__("vision.enroll", fromlist=["x"]).read_image(p / "none.png"),
     "not a readable image file"),
]


@pytest.mark.parametrize("what, call, english", VISION_FILES, ids=[v[0] for v in VISION_FILES])
def test_a_broken_vision_file_is_named_in_the_readers_language(what, call, english, tmp_path, no_new_missing):
    exc = _vision_error(lambda: call(tmp_path))
    text = i18n.reason(exc)
    assert isinstance(text, Text), f"{what}: a plain English error: {text!r}"
    assert english in str(text), str(text)
    for lang in LANGS:
        said = translate(text, lang)
        assert english not in said and said != str(text), f"{lang}: {said!r}"
        own = _own_words(said, str(tmp_path))
        assert not ENGLISH.search(own), f"{lang}: English left in {said!r}: {ENGLISH.search(own).group(0)!r}"


# ------------------------------------------------------------------------------------ the scoreboard

def _grouped() -> tuple[set[str], set[str]]:
    """The keys inside grouped values and the word values among them, over random play of every game (names:
    ships, towns, players, space numbers, are capitalised or digits and stay as written)."""
    from tablehub.games import GAMES, new_game
    from tablehub.games.base import Setup

    keys: set[str] = set()
    words: set[str] = set()

    def walk(value):
        items = value.items() if isinstance(value, dict) else (
            ((k, v) for item in value if isinstance(item, dict) for k, v in item.items() if k != "id")
            if isinstance(value, list) else ())
        for k, v in items:
            if re.fullmatch(r"[a-z][a-z_]*", str(k)):
                keys.add(k)
            if isinstance(v, str) and not isinstance(v, Text) and re.fullmatch(r"[a-z]+", v):
                words.add(v)
            if isinstance(v, (dict, list)):
                walk(v)

    for name in GAMES:
        for seed in (7, 8):
            rng = random.Random(seed)
            game = new_game(Setup(name, ("Ana", "Ben", "Cleo")))
            for _ in range(300):
                res = game.resources()
                for scope in [res.get("table") or {}] + list((res.get("players") or {}).values()):
                    for value in scope.values():
                        if isinstance(value, (dict, list)):
                            walk(value)
                actions = [] if game.finished else list(game.legal_actions())[:200]
                if not actions:
                    break
                game.apply(rng.choice(actions))
    return keys, words


def _js_dict(name: str) -> dict[str, str]:
    js = (ROOT / "web" / "static" / "app.js").read_text(encoding="utf-8")
    body = re.search(rf"const {name} = \{{(.*?)\n\}};", js, re.S).group(1)
    return dict(re.findall(r'(\w+): t\("([^"]+)"\)', body))


def test_the_keys_inside_grouped_values_have_a_label():
    keys, words = _grouped()
    assert {"bid", "bidder", "chest", "owner", "requirement"} <= keys, keys  # the check sees what it should
    labels, colours = _js_dict("SUB_KEYS"), _js_dict("SUB_WORDS")
    assert not keys - set(labels), f"keys inside grouped values shown as raw English: {sorted(keys - set(labels))}"
    assert not words - set(colours), f"words inside grouped values shown as raw English: {sorted(words - set(colours))}"
    from web.language import script_dictionary

    for lang in LANGS:
        dictionary = script_dictionary(lang)
        for template in list(labels.values()) + list(colours.values()):
            assert dictionary.get(template) and dictionary[template] != template, (lang, template)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_grouped_value_reads_in_the_phones_language():
    """app.js's compact() run by node with the French and German dictionaries: Tahiti's auction and a Karibik
    hideout read with French and German keys and colour words; names and numbers as they are."""
    from web.language import script_dictionary

    js = (ROOT / "web" / "static" / "app.js").read_text(encoding="utf-8")
    start = js.index("const SUB_KEYS = {")
    end = js.index("/* Keys shown together as one chip")
    values = [{"move": 3, "bid": 2, "bidder": "Ana", "passed": ["Ben"]},
              {"68": {"colour": "red", "owner": "Ana"}},
              {"Arriba": {"space": 12, "chest": "Tortuga", "value": 4000}}]
    for lang, expect in (("fr", ["déplacement 3 · enchère 2 · enchérisseur Ana · ont passé Ben",
                                 "68 couleur rouge · propriétaire Ana", "Arriba sur la case 12 · coffre Tortuga · valeur 4000"]),
                         ("de", ["Bewegung 3 · Gebot 2 · Bieter Ana · gepasst Ben",
                                 "68 Farbe rot · Besitzer Ana", "Arriba auf Feld 12 · Schatzkiste Tortuga · Wert 4000"])):
        words = script_dictionary(lang)
        script = (f"const WORDS = {json.dumps(words)};\n"
                  "function t(s, p) { let o = WORDS[s] || s; for (const k in (p || {})) o = o.split('{' + k + '}')"
                  ".join(p[k]); return o; }\n" + js[start:end] +
                  f"\nfor (const v of {json.dumps(values, ensure_ascii=False)}) console.log(compact(v));\n")
        out = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        assert out.stdout.splitlines() == expect, out.stdout


# ------------------------------------------------------------------------------------ the preview's lines

def test_drawn_lines_are_in_the_readers_language_with_letters_opencv_draws():
    from tablehub.i18n import drawable, drawing_language, drawn_in

    line = i18n.T("board found ({inliers} of {matches} matches agree)", inliers=40, matches=52)
    assert drawable(line) == "board found (40 of 52 matches agree)"
    with drawn_in("de"):
        assert drawing_language() == "de"
        assert drawable(line) == "Brett gefunden (40 von 52 Uebereinstimmungen passen)"
        with drawn_in("fr"):
            assert drawable(line) == "plateau trouve (40 correspondances sur 52 concordent)"
    assert drawing_language() == "en"
    assert all(ord(c) < 128 for c in drawable(i18n.T("board edge found: Enrol the empty board"), "fr"))


def test_the_camera_view_draws_in_the_phones_language(hub):
    """/camera.jpg draws the preview in the phone's language (the hub's preview reads it from drawn_in)."""
    from tablehub.i18n import drawing_language
    from web import create_app

    from ..web.conftest import Phone

    asked = []
    hub.camera_preview = lambda overlay: asked.append((overlay, drawing_language())) or b"\xff\xd8jpeg\xff\xd9"
    phone = Phone(create_app(hub, heartbeat=0.2, stream_lifetime=2.0).test_client())
    assert phone.unlock().status_code == 200
    for lang in ("de", "fr", "en"):
        resp = phone.client.get("/camera.jpg?overlay=enrolment", headers={"Accept-Language": lang})
        assert resp.status_code == 200
    assert asked == [("enrolment", "de"), ("enrolment", "fr"), ("enrolment", "en")]
    bad = phone.client.get("/camera.jpg?overlay=x", headers={"Accept-Language": "de"}).get_json()
    assert "live, calibration" in bad["error"] and "must be one of" not in bad["error"], bad


PIN = "4821"


def test_the_board_enrolment_preview_draws_its_line_in_the_readers_language():
    """The preview's status line is drawn in the language set by the view: English and French pictures differ
    where the line is, and nowhere else."""
    from tablehub.board_enrolment import _line
    from tablehub.i18n import drawn_in

    frame = np.zeros((120, 900, 3), np.uint8)
    line = i18n.T("board edge not found: tap its four corners (TL, TR, BR, BL)")
    pictures = {}
    for lang in ("en", "fr", "de"):
        img = frame.copy()
        with drawn_in(lang):
            _line(img, line, (0, 0, 255))
        pictures[lang] = img
    assert pictures["en"].any() and not np.array_equal(pictures["en"], pictures["fr"])
    assert not np.array_equal(pictures["fr"], pictures["de"])
    assert not pictures["en"][80:].any()  # only the line's band is drawn


# ------------------------------------------------------------------------------------ the chest reader

def test_the_chest_readers_unsure_lines_are_texts(no_new_missing):
    from vision.chests import _verdict

    vals = [4000, 7000, 9000]
    weak = _verdict(vals, np.float32([0.30, 0.20, 0.10]), 0.5, 0.05)
    close = _verdict(vals, np.float32([0.80, 0.78, 0.10]), 0.5, 0.05)
    sure = _verdict(vals, np.float32([0.90, 0.50, 0.10]), 0.5, 0.05)
    assert str(weak[3]) == "print not read: best 4000 (0.30)" and str(close[3]) == "4000 (0.80) or 7000 (0.78)?"
    assert sure[3] == "" and sure[0] == 4000
    for text, french, german in ((weak[3], "impression non lue", "Aufdruck nicht gelesen"),
                                 (close[3], "4000 (0.80) ou 7000 (0.78) ?", "4000 (0.80) oder 7000 (0.78)?")):
        assert isinstance(text, Text)
        assert french in translate(text, "fr") and german in translate(text, "de")
    aboard = i18n.T("the chest aboard {ship}: {why}", ship="Arriba", why=close[3])
    assert translate(aboard, "de") == "die Schatzkiste an Bord der Arriba: 4000 (0.80) oder 7000 (0.78)?"


def test_every_visionfiles_and_cli_entry_says_something_else_than_english():
    """The two areas this work added (cli.po, visionfiles.po) hold no translation equal to its English, bar
    words that are the same (photos, options) and ones that are only names and signs."""
    from .conftest import catalog_entries, has_words

    same = {("fr", "photos"), ("fr", "options"), ("fr", "[vision] mat: {why}"), ("de", "[vision] mat: {why}"),
            ("de", "--host {host}: {why}"), ("de", "--venue {value}: {why}"),
            ("de", "{piece} ({score}) or {other} ({other_score})?"), ("de", "{where}.rotation: {why}"),
            ("fr", "gpio"), ("fr", "lgpio"), ("de", "lgpio"), ("fr", "service"),  # doctor's check names
            ("de", "{line}; {why} -> tablehub games export {id}")}
    lazy = [f"{e.language} {e.area}.po:{e.line}: {e.msgid!r}" for lang in LANGS for e in catalog_entries(lang)
            if e.area in ("cli", "visionfiles") and has_words(re.sub(r"%\(\w+\)\w", "", e.msgid))
            and (lang, e.msgid) not in same and any(s == e.msgid for s in e.strings)]
    assert not lazy, "\n".join(lazy)
    for lang in LANGS:
        for e in catalog_entries(lang):
            if e.area in ("cli", "visionfiles") and e.plural is None:
                assert placeholders(e.strings[0]) == placeholders(e.msgid), (lang, e.msgid)


@pytest.mark.parametrize("module", ["tablehub.usage_i18n", "tablehub.i18n", "tablehub.cli"])
def test_the_modules_examples_run(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
