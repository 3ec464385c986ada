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
    ("notice", "post", "/api/notice", {"id": 3}, "<notice id>"),
    ("offer", "post", "/api/offer/accept", {"offer": "x"}, "<offer id>"),
    ("version", "post", "/api/submit", {"action": {"type": "pass"}, "version": 3}, "game_version string"),
    ("not JSON", "post", "/api/submit", b"{action", "the request body is not JSON"),
    ("not UTF-8", "post", "/api/submit", b"\xff\xfe", "UTF-8 JSON text"),
    ("not an object", "post", "/api/submit", b"[1]", "must be a JSON object"),
    ("too deep", "post", "/api/submit", b"[" * 40 + b"]" * 40, "nests deeper than"),
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
