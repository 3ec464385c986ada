"""The rest of the English a French or German phone could still read (issue 19): the API's refusals of a bad
request, the busy hub, the Sunda reader's notes quoted in a camera note, and the hand-entry form's own errors in
the page's script. Each rendered in fr and de: nothing falls back to English (``i18n.missing()`` gains nothing)
and no sentence with words reads as its English."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tablehub import i18n
from tablehub.i18n import Text, translate

from .conftest import ROOT, catalog_entries, has_words, placeholders

PIN = "4821"


@pytest.fixture()
def phone(hub):
    from web import create_app

    from ..web.conftest import Phone

    p = Phone(create_app(hub, heartbeat=0.2, stream_lifetime=2.0).test_client())
    assert p.unlock().status_code == 200
    return p


def _error(phone, lang: str, method: str, path: str, body=None, raw: bytes | None = None) -> tuple[int, str]:
    headers = {"Accept-Language": lang}
    if method == "get":
        resp = phone.client.get(path, headers=headers)
    elif raw is not None:
        resp = phone.client.post(path, data=raw, content_type="application/json",
                                 headers={"X-CSRF-Token": phone.csrf, **headers})
    else:
        resp = phone.post(path, body, **headers)
    data = resp.get_json()
    assert data and data.get("ok") is False and data.get("error"), (path, resp.status_code, resp.data[:200])
    return resp.status_code, data["error"]


#: (what, method, path, JSON body or raw bytes, a piece of the English refusal)
BAD_REQUESTS = [
    ("limit", "get", "/api/legal?limit=many", None, "limit must be a whole number"),
    ("query field", "get", "/api/legal?a-b=1", None, "is not an action field name"),
    ("hints field", "get", "/api/hints?tile=x", None, "is not known here"),
    ("hints piece", "get", "/api/hints?piece=" + "x" * 41, None, "printable ASCII"),
    ("no action", "post", "/api/submit", {"action": 3}, 'send {"action"'),
    ("action type", "post", "/api/submit", {"action": {"type": "no such"}}, "must be an action name"),
    ("undo scope", "post", "/api/undo", {"scope": "game"}, "undo scope must be"),
    ("players", "post", "/api/game/start", {"game": "tahiti", "players": "Ana"}, "players must be a list"),
    ("colours", "post", "/api/game/start", {"game": "tahiti", "players": ["Ana", "Ben"], "colours": "red"},
     "colours must be a list"),
    ("options", "post", "/api/game/start", {"game": "tahiti", "players": ["Ana", "Ben"], "options": []},
     "options must be an object"),
    ("file option", "post", "/api/game/start", {"game": "tahiti", "players": ["Ana", "Ben"],
                                                "options": {"catalog": "/etc/passwd"}}, "names a file on the hub"),
    ("resume id", "post", "/api/game/resume", {"id": "latest"}, "saved game's number"),
    ("no such game", "post", "/api/game/resume", {"id": 42}, "no game with id 42"),
    ("notice", "post", "/api/notice", {"id": 3}, "<notice id>"),
    ("offer", "post", "/api/offer/accept", {"offer": "x"}, "<offer id>"),
    ("version", "post", "/api/submit", {"action": {"type": "pass"}, "version": 3}, "game_version string"),
    ("not JSON", "post", "/api/submit", b"{action", "the request body is not JSON"),
    ("not UTF-8", "post", "/api/submit", b"\xff\xfe", "UTF-8 JSON text"),
    ("not an object", "post", "/api/submit", b"[1]", "must be a JSON object"),
    ("too deep", "post", "/api/submit", b"[" * 40 + b"]" * 40, "nests deeper than"),
    ("photo part", "post", "/api/photoscore/part", {"index": -1, "data": "x"}, "expected a part number"),
    ("photo type", "post", "/api/photoscore", {"photo": 3}, "expected the picture as a base64 string"),
    ("photo base64", "post", "/api/photoscore", {"photo": "!!"}, "not base64"),
    ("photo game", "post", "/api/photoscore", {"photo": "aGk=", "game": "chess"}, "expected neuesland, suedsee, sunda"),
    ("photo players", "post", "/api/photoscore", {"photo": "aGk=", "game": "suedsee", "players": []},
     "at most 5 colours and names"),
    ("photo before", "post", "/api/photoscore", {"photo": "aGk=", "game": "neuesland", "before": 3},
     "expected text like red=34"),
    ("photo ships", "post", "/api/photoscore", {"photo": "aGk=", "game": "suedsee", "holdings": {"ships": 3}},
     "expected an object mapping each player to a list of ship ids"),
    ("photo goods", "post", "/api/photoscore", {"photo": "aGk=", "game": "suedsee", "holdings": {"goods": []}},
     "expected an object mapping each player to their goods"),
    ("photo covered", "post", "/api/photoscore", {"photo": "aGk=", "game": "suedsee", "holdings": {"covered": 1}},
     "of fish under a boat token"),
    ("photo holdings", "post", "/api/photoscore", {"photo": "aGk=", "game": "suedsee", "holdings": {"boats": 1}},
     "expected an object with ships, goods and covered"),
]


@pytest.mark.parametrize("what, method, path, body, english", BAD_REQUESTS, ids=[b[0] for b in BAD_REQUESTS])
def test_a_bad_request_is_refused_in_the_phones_language(phone, no_new_missing, what, method, path, body, english):
    raw = body if isinstance(body, bytes) else None
    status, en = _error(phone, "en", method, path, None if raw else body, raw)
    assert english in en, en
    for lang in ("fr", "de"):
        code, said = _error(phone, lang, method, path, None if raw else body, raw)
        assert code == status
        assert said != en and english not in said, f"{lang}: {said!r} (English {en!r})"


def test_a_busy_hub_says_so_in_the_phones_language(no_new_missing):
    from web.limits import Slots
    from web.security import ApiError

    slots = Slots(i18n.T("camera streams"), 1, 1)
    slots.take("a")
    with pytest.raises(ApiError) as whole:
        slots.take("b")
    mine = Slots(i18n.T("event streams"), None, 1)
    mine.take("a")
    with pytest.raises(ApiError) as one:
        mine.take("a")
    for exc, english in ((whole, "the hub is busy: 1 camera streams are open (the most it serves); try again later"),
                         (one, "the hub is busy: 1 event streams are open from this address (at most 1); try again "
                               "later")):
        assert str(exc.value.message) == english
        for lang in ("fr", "de"):
            said = translate(exc.value.message, lang)
            assert "streams" not in said and "busy" not in said, said


# ------------------------------------------------------------------------------------ the Sunda reader's notes

def test_the_sunda_readers_notes_reach_the_phone_in_its_language(no_new_missing):
    """fit_to_set's notes (a print none of the set's, two prints as near) go through the Sunda recognizer into
    "the camera is unsure of {what}": the whole note is French or German, the English as it was."""
    from tablehub.tracking.sundacam import SundaRecognizer
    from vision.sundaset import fit_to_set, prints_array

    from ..vision.test_sunda_set import SET, _piece

    even = _piece("LLWWWWWWWWWW", weak={2: 1.0})
    even["votes"][1] = (9, 7)
    even["votes"][2] = (7, 9)
    far = _piece("LWLWLWLWLWLW", q=3)
    notes = fit_to_set([even], prints_array(SET), {}) + fit_to_set([far], prints_array(SET), {})
    assert [str(n) for n in notes] == [  # the English as it was
        "piece at 0,0: read LLWWWWWWWWWW, the set has LLLWWWWWWWWW or LWLWWWWWWWWW",
        "piece at 3,0: its print LWLWLWLWLWLW is none of the set's"], notes
    assert all(isinstance(n, Text) for n in notes)
    reading = type("R", (), {"pieces": [], "tribes": [], "unsure": notes, "conflicts": [], "ms": {}})()
    reader = type("Reader", (), {"read": lambda self, frame, previous=None: reading})()
    out = SundaRecognizer(reader)(None)
    assert len(out.notes) == 2
    for note in out.notes:
        english = translate(note, "en")
        assert english.startswith("the camera is unsure of piece at ")
        for lang, word in (("fr", "pièce en"), ("de", "Teil auf")):
            said = translate(note, lang)
            assert word in said and "piece at" not in said and " the set" not in said, said


def test_every_camera_reader_note_is_translated():
    """The vision area (the readers' notes, vision/*.py) renders in fr and de with other words than English."""
    entries = [e for lang in ("fr", "de") for e in catalog_entries(lang) if e.area == "vision"]
    assert len(entries) >= 6
    for e in entries:
        params = {name: 2 for name in placeholders(e.msgid)}
        text = i18n.Text(e.msgid, context=e.context, **params)
        said = translate(text, e.language)
        assert has_words(e.msgid) and said != str(text), (e.language, e.msgid)


def test_the_sunda_readers_uncovered_triangle_is_a_text():
    """vision/sunda.py writes its uncovered triangle's note as a Text (the reader itself needs a camera frame)."""
    import ast

    tree = ast.parse((ROOT / "vision" / "sunda.py").read_text(encoding="utf-8"))
    plain = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "append" and isinstance(n.func.value, ast.Name) and n.func.value.id == "unsure"
             and not (n.args and isinstance(n.args[0], ast.Call) and getattr(n.args[0].func, "id", "") == "T")]
    assert not plain, f"vision/sunda.py: an unsure note that is no Text at line(s) {plain}"


# ------------------------------------------------------------------------------------ the page's scripts

SCRIPT_ERRORS = ("fill in {field}", "{field} must be a number", "{field} must be JSON, e.g. [1, 2] or {example}",
                 "cell {cell} tapped", "space {space} tapped", "{field} {value} filled in the move form")


def test_the_hand_entry_forms_errors_name_the_field_by_its_label():
    """The form's own errors (before anything is sent) are t() sentences and name the field as its label reads in
    the phone's language, not by the action's JSON key."""
    js = (ROOT / "web" / "static" / "app.js").read_text(encoding="utf-8")
    for template in SCRIPT_ERRORS:
        assert f't("{template}"' in js, template
    assert "field: name" not in js and "{ field, value }" not in js, "a field named by its JSON key"
    assert js.count("field: label") == 3
    from web.language import script_dictionary

    for lang in ("fr", "de"):
        words = script_dictionary(lang)
        for template in SCRIPT_ERRORS:
            assert template in words and words[template] != template, (lang, template)
            assert placeholders(words[template]) == placeholders(template), (lang, template)


def test_no_thrown_error_or_toast_in_the_scripts_is_plain_english():
    """Every Error thrown and every toast/confirm in web/static/*.js says a t()/tn() sentence or passes on what
    the hub answered (already in the phone's language)."""
    bad = re.compile(r"""(new Error|toast|confirm|alert)\(\s*(["'`])""")
    found = [f"{p.relative_to(ROOT)}:{i}" for p in sorted((ROOT / "web" / "static").glob("*.js"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if bad.search(line)]
    assert not found, found


# ------------------------------------------------------------------------------------ the settings and the CLI

def test_the_environment_names_the_owners_language():
    from tablehub.i18n import environment_language

    assert environment_language({"LANG": "fr_CH.UTF-8"}) == "fr"
    assert environment_language({"LC_ALL": "de_DE@euro", "LANG": "fr_FR.UTF-8"}) == "de"
    assert environment_language({"LC_ALL": "C.UTF-8", "LANG": "fr_FR.UTF-8"}) is None  # the first set decides
    assert environment_language({"LANGUAGE": "es:de", "LANG": "en_GB.UTF-8"}) == "de"
    assert environment_language({"LANG": "es_ES.UTF-8"}) is None
    assert environment_language({}) is None


#: settings files, each wrong in one way, with a piece of its English error
BAD_SETTINGS = [
    ('[voice]\nquiet = "22:00-22:00"\n', "starts and ends at the same time"),
    ('[voice]\nquiet = "25:00-08:00"\n', "is not a time of day range"),
    ('[voice]\nquiet = "late"\n', "expected quiet hours like"),
    ('[voice]\nvolume = 999\n', "expected 0 to 200 (100 is normal), got 999"),
    ('[voice]\nevents = ["score", "bells"]\n', "expected one of 'score', 'final'"),
    ('[voice]\nlanguage = "es"\n', "expected one of en, fr, de, got 'es'"),
    ('[web]\nhost = "999.1.1.1"\n', "is not an IP address (each of the four numbers is 0 to 255)"),
    ('[web]\nhost = "a b"\n', "is not an IP address or host name"),
    ('[web]\nport = "x"\n', "expected a TCP port from 1 to 65535 (0: any free port), got 'x'"),
    ('[web]\nhosts = ["a", 2]\n', "expected"),
    ('[venue]\nbroker = "b.lan"\nvenue = "a b"\n', "must be 1 to 64 letters"),
    ('[venue]\nbroker = "b.lan"\nvenue = "v"\nusername = ""\npassword = "x"\n', "password is set but username is empty"),
    ('[venue]\nbroker = "b.lan"\nvenue = "v"\nca_file = "/x"\n', "ca_file is set but tls is false"),
    ('[venue]\nbroker = "b.lan"\nvenue = "v"\ntls = true\nca_file = "/no/such/file"\n', "no such file"),
    ('[venue]\nbogus = 1\n', "unknown key 'bogus'"),
    ('[sound]\nx = 1\n', "unknown section 'sound'"),
    ('data_dir = 3\n', "expected"),
    ('[camera]\nsource = "webcam"\n', "expected one of 'auto'"),
    ('[camera\n', "not valid TOML"),
]


@pytest.mark.parametrize("content, english", BAD_SETTINGS, ids=[b[1][:30] for b in BAD_SETTINGS])
def test_a_bad_settings_file_is_named_in_the_tables_language(tmp_path, no_new_missing, content, english):
    from tablehub.config import ConfigError, load_config

    path = tmp_path / "tablehub.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        load_config(path, environ={})
    text = exc.value.text
    assert isinstance(text, Text), f"a plain English error: {text!r}"
    assert english in str(text) and str(path) in str(text), str(text)
    for lang in ("fr", "de"):
        said = translate(text, lang)
        assert str(path) in said and english not in said, f"{lang}: {said!r}"
        assert not re.search(r"\b(expected|got|must|unknown|known|is not)\b", said), f"{lang}: {said!r}"


def test_a_settings_file_that_cannot_be_read_is_named_in_the_tables_language(tmp_path, no_new_missing):
    from tablehub.config import ConfigError, load_config

    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b'[game]\nplayers = ["Jos\xe9"]\n')
    for path, english in ((bad, "line 2: the settings must be UTF-8 text (byte 0xe9 is not)"),
                          (tmp_path / "none.toml", "cannot read the settings")):
        with pytest.raises(ConfigError) as exc:
            load_config(path, environ={})
        assert english in str(exc.value)
        said = {lang: translate(exc.value.text, lang) for lang in ("fr", "de")}
        assert "réglages" in said["fr"] and "Einstellungen" in said["de"], said


def _cli(tmp_path, capsys, monkeypatch, toml: str | None, env: dict[str, str]) -> str:
    from tablehub.cli import main

    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "TABLEHUB_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    path = tmp_path / ("tablehub.toml" if toml is not None else "none.toml")
    if toml is not None:
        path.write_text(toml, encoding="utf-8")
    assert main(["run", "--config", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err, err
    return err


def test_the_command_line_writes_its_error_in_the_tables_language(tmp_path, capsys, monkeypatch, no_new_missing):
    """The settings' [voice] language first (even when the file is what is wrong), else the shell's LANG, else
    English as before."""
    english = _cli(tmp_path, capsys, monkeypatch, '[voice]\nvolume = 999\n', {})
    assert english == f"tablehub run: {tmp_path / 'tablehub.toml'}: [voice] volume: expected 0 to 200 (100 is " \
                      "normal), got 999"
    assert _cli(tmp_path, capsys, monkeypatch, '[voice]\nvolume = 999\n', {"LANG": "C.UTF-8"}) == english
    french = _cli(tmp_path, capsys, monkeypatch, '[voice]\nlanguage = "fr"\nvolume = 999\n', {"LANG": "de_DE.UTF-8"})
    assert "attendu : 0 à 200 (100 est normal), reçu 999" in french, french
    german = _cli(tmp_path, capsys, monkeypatch, '[voice]\nvolume = 999\n', {"LANG": "de_DE.UTF-8"})
    assert "erwartet: 0 bis 200 (100 ist normal), erhalten: 999" in german, german
    missing = _cli(tmp_path, capsys, monkeypatch, None, {"LANG": "fr_FR.UTF-8"})
    assert "impossible de lire le fichier de réglages" in missing, missing


# ------------------------------------------------------------------------------------ the files' schemas

SCHEMA_ERRORS = [
    ({"game": "tahiti", "players": ["Ana"], "actions": []}, None),
    ({"players": ["Ana", "Ben"], "actions": []}, "missing field 'game'"),
    ({"game": "tahiti", "players": ["Ana", "Ben"], "actions": [], "x": 1, "y": 2}, "unknown fields 'x', 'y'"),
    ({"game": "tahiti", "players": ["Ana", "Ben"], "actions": [], "x": 1}, "unknown field 'x'"),
    ({"game": "", "players": ["Ana", "Ben"], "actions": []}, 'expected a game name such as "neuesland"'),
    ({"game": "tahiti", "players": "Ana", "actions": []}, "expected"),
    ({"game": "tahiti", "players": ["Ana", "Ben"], "actions": 3}, "expected a list"),
    ({"game": "tahiti", "players": ["Ana", "Ben"], "actions": [{"type": 1}]}, "the action's type as text"),
]


@pytest.mark.parametrize("data, english", SCHEMA_ERRORS)
def test_a_files_schema_error_reads_in_the_tables_language(no_new_missing, data, english):
    from tablehub.games.base import TablehubError
    from tablehub.schemas import check

    if english is None:
        return
    with pytest.raises(TablehubError) as exc:
        check(data, "record", "game.json")
    assert english in str(exc.value), str(exc.value)
    for lang in ("fr", "de"):
        said = translate(exc.value.text, lang)
        assert said.startswith("game.json") and english not in said, f"{lang}: {said!r}"
        assert not re.search(r"\b(expected|got|unknown|missing)\b", said), f"{lang}: {said!r}"


def test_every_schema_word_is_translated():
    """Each "x-expected" of tablehub/schemas/*.schema.json renders in fr and de with words of its own."""
    from .conftest import schema_templates

    found = schema_templates()
    assert len(found) > 30
    for use in found:
        text = Text(use.msgid, context="schema")
        for lang in ("fr", "de"):
            before = i18n.missing()
            said = translate(text, lang)
            assert i18n.missing() == before, (lang, use.msgid)
            assert said != use.msgid or not has_words(use.msgid), (lang, use.msgid)


def test_a_bad_table_pin_is_refused_in_the_owners_language(tmp_path, capsys, monkeypatch, no_new_missing):
    from tablehub.cli import main

    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "TABLEHUB_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path / "data"))
    said = {}
    for lang, env in (("en", "C.UTF-8"), ("fr", "fr_FR.UTF-8"), ("de", "de_CH.UTF-8")):
        monkeypatch.setenv("LANG", env)
        assert main(["pin", "--set", "12"]) == 2
        said[lang] = capsys.readouterr().err.strip()
    assert said["en"] == "tablehub pin: the table PIN must be 4 to 12 digits, got '12'"
    assert said["fr"] == "tablehub pin: le code PIN de la table doit compter 4 à 12 chiffres, reçu '12'"
    assert said["de"] == "tablehub pin: die PIN des Tisches muss 4 bis 12 Ziffern haben, erhalten: '12'"


def test_a_json_file_that_cannot_be_read_is_named_in_the_tables_language(tmp_path, no_new_missing):
    from tablehub.games.base import TablehubError
    from tablehub.jsonfile import read_json

    bad = tmp_path / "cat.json"
    cases = [(b'{"a": }', "catalog", "not valid JSON (line 1, column 7"),
             (b'"\xe9"', "ships file", "the ships file is not UTF-8 text"),
             (b"[" * 100_000, "file", "nested too deeply"),
             (None, "holdings file", "cannot read the holdings file")]
    for content, what, english in cases:
        if content is None:
            bad.unlink()
        else:
            bad.write_bytes(content)
        with pytest.raises(TablehubError) as exc:
            read_json(bad, TablehubError, what)
        assert english in str(exc.value), str(exc.value)
        for lang in ("fr", "de"):
            said = translate(exc.value.text, lang)
            own = said.replace(str(bad), "").replace("No such file or directory", "")  # the system's own words stay
            assert said.startswith(str(bad)) and english not in said and "file" not in own, said
