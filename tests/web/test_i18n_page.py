"""The page in the reader's language (issue 19): Accept-Language, the switch, each phone its own
language at the same table, Text rendered per reader in the JSON API and once per language on the
event stream."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from tablehub import i18n
from tablehub.games.base import Setup
from tablehub.i18n import T, translate

from .conftest import COLOURS, PIN, PLAYERS

PAGES = ["/", "/setup", "/join", "/voice", "/camera/calibration", "/camera/enrolment", "/trace/karibik",
         "/trace/tahiti"]
#: words that are the same in French and German as in English (no evidence of a missed translation)
SAME = {"phase", "PIN", "Zoom", "Options", "Scores", "Points", "Tables", "Port", "Piles", "Photo", "mm", "orange", "live",
        "online", "offline", "optional", "points", "Volume (0–200)", "{n} point"}


class _Visible(HTMLParser):
    """The text a person sees: text nodes outside script/style, and the labels screen readers say."""

    def __init__(self):
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ("aria-label", "placeholder", "alt", "title") and value:
                self.texts.append(value.strip())

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.texts.append(" ".join(data.split()))


def visible(html: str) -> list[str]:
    parser = _Visible()
    parser.feed(html)
    return parser.texts


def english_of_page(lang: str) -> set[str]:
    """page.po's English templates (without placeholders) whose ``lang`` translation differs."""
    from babel.messages.pofile import read_po

    with (i18n.LOCALE_DIR / lang / "page.po").open("rb") as fh:
        cat = read_po(fh, locale=lang)
    out = set()
    for msg in cat:
        ids = msg.id if isinstance(msg.id, (tuple, list)) else (msg.id,)
        strings = msg.string if isinstance(msg.string, (tuple, list)) else (msg.string,)
        for english in ids:
            if english and "{" not in english and english not in SAME and english not in strings \
                    and re.search(r"[A-Za-z]{2,}", english):
                out.add(english)
    return out


def english_left(html: str, lang: str) -> list[str]:
    """Visible texts that are an English sentence of page.po, or hold a long one."""
    english = english_of_page(lang)
    texts = visible(html)
    left = [t for t in texts if t in english]
    long = [e for e in english if len(e.split()) >= 4]
    left += [e for e in long for t in texts if e in t and e not in left]
    return left


@pytest.fixture()
def game(hub):
    hub.start(Setup("neuesland", PLAYERS, COLOURS))
    return hub


@pytest.mark.parametrize("lang", ["fr", "de"])
@pytest.mark.parametrize("path", PAGES)
def test_every_page_in_french_and_german_shows_no_english_string_of_page_po(app, game, lang, path):
    html = app.test_client().get(path, headers={"Accept-Language": f"{lang}-CH,{lang};q=0.9,en;q=0.5"})
    assert html.status_code == 200
    text = html.get_data(as_text=True)
    assert f'<html lang="{lang}">' in text
    assert not english_left(text, lang), f"English on {path} in {lang}: {english_left(text, lang)}"
    # and the check can fail: the English page is full of them
    english = app.test_client().get(path, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert english_left(english, lang), "the check finds the English strings on the English page"


def test_the_scripts_get_the_readers_dictionary(app, game):
    html = app.test_client().get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    words = json.loads(re.search(r'<script id="page-dictionary" type="application/json">(.*?)</script>', html,
                                 re.S).group(1))
    assert words["Nothing to undo yet"] == "Noch nichts zurückzunehmen"
    assert words["one action"] == ["eine Aktion", "{n} Aktionen"]
    english = app.test_client().get("/").get_data(as_text=True)
    assert '<script id="page-dictionary" type="application/json">{}</script>' in english
    assert "/static/i18n.js" in html and html.index("/static/i18n.js") < html.index("/static/app.js")


def test_the_switch_keeps_a_phone_in_its_language_without_the_pin(app, game):
    phone = app.test_client()
    resp = phone.get("/language/de?next=/setup", headers={"Accept-Language": "fr"})
    assert resp.status_code == 302 and resp.headers["Location"].endswith("/setup")
    assert "lang=de" in resp.headers["Set-Cookie"]
    page = phone.get("/setup", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "Neue Partie" in page and "Nouvelle partie" not in page, "the switch wins over Accept-Language"
    assert 'href="/language/fr?next=' in page  # the switch is on every page
    back = phone.get("/language/en?next=//evil.example/x")
    assert back.headers["Location"].endswith("/") and "evil" not in back.headers["Location"]
    assert "New game" in phone.get("/setup", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    bad = phone.get("/language/xx")
    assert bad.status_code == 404 and "no language 'xx'" in bad.get_json()["error"]


def test_two_phones_at_one_table_read_their_own_language(app, game):
    ana, ben = app.test_client(), app.test_client()
    ana.get("/language/fr")
    ben.get("/language/de")
    # a refusal the page shows a person: a wrong PIN
    for phone, words in ((ana, "code PIN erroné"), (ben, "falsche PIN")):
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', phone.get("/").get_data(as_text=True)).group(1)
        resp = phone.post("/api/unlock", json={"pin": "0000"}, headers={"X-CSRF-Token": csrf})
        assert resp.status_code == 403 and resp.get_json()["error"].startswith(words)
    # a notice (Text title and text) in the state each phone reads
    game.notice("x", "error", T("Game {id} cannot be opened", id=7), T("the game has already ended"))
    fr = ana.get("/api/state").get_json()["notices"][-1]
    de = ben.get("/api/state").get_json()["notices"][-1]
    assert (fr["title"], fr["text"]) == ("La partie 7 ne peut pas être ouverte", "la partie est déjà terminée")
    assert (de["title"], de["text"]) == ("Partie 7 lässt sich nicht öffnen", "die Partie ist schon beendet")
    assert game.snapshot()["notices"][-1]["title"] == "Game 7 cannot be opened", "the hub keeps the English"


def _first_state(phone, **headers: str) -> dict:
    """The first ``state`` event a phone's /events stream sends."""
    resp = phone.get("/events", headers=headers, buffered=False)
    try:
        chunk = next(iter(resp.response))
        chunk = chunk.decode() if isinstance(chunk, bytes) else chunk
    finally:
        resp.close()
    return json.loads("".join(line[6:] for line in chunk.splitlines() if line.startswith("data: ")))


def test_the_event_stream_speaks_each_phones_language(app, game):
    game.notice("y", "warn", T("Game {id} stops replaying at action {seq}", id=3, seq=9), "plain words stay")
    fr = app.test_client()
    fr.get("/language/fr")
    fr_state = _first_state(fr)
    de_state = _first_state(app.test_client(), **{"Accept-Language": "de-DE,de;q=0.8"})
    en_state = _first_state(app.test_client())
    assert fr_state["notices"][-1]["title"] == "La partie 3 ne se rejoue plus à partir de l'action 9"
    assert de_state["notices"][-1]["title"] == "Partie 3 lässt sich ab Aktion 9 nicht mehr abspielen"
    assert en_state["notices"][-1]["title"] == "Game 3 stops replaying at action 9"
    assert {s["notices"][-1]["text"] for s in (fr_state, de_state, en_state)} == {"plain words stay"}


def test_an_event_is_rendered_once_per_language_however_many_phones_read_it(monkeypatch):
    from web import events as events_module
    from web.events import EventBus

    calls = []
    real = events_module.localize
    monkeypatch.setattr(events_module, "localize", lambda payload, lang: calls.append(lang) or real(payload, lang))
    bus = EventBus()
    event = bus.publish("state", {"why": T("the game has already ended"), "n": 1})
    texts = [event.data_in(lang) for lang in ["fr", "de", "en"] * 50]
    assert calls == ["fr", "de"], "one rendering per language, none for English"
    assert [json.loads(t)["why"] for t in texts[:3]] == [
        "la partie est déjà terminée", "die Partie ist schon beendet", "the game has already ended"]
    assert len(set(texts)) == 3
    plain = bus.publish("state", {"why": "not a Text", "n": 2})
    assert plain.payload is None and plain.data_in("fr") is plain.data, "plain payloads are never rendered again"


def test_a_stale_change_is_refused_in_the_readers_language(app, game):
    phone = app.test_client()
    phone.get("/language/de")
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', phone.get("/").get_data(as_text=True)).group(1)
    phone.post("/api/unlock", json={"pin": PIN}, headers={"X-CSRF-Token": csrf})
    resp = phone.post("/api/undo", json={"scope": "turn", "version": "999.0"}, headers={"X-CSRF-Token": csrf})
    assert resp.status_code == 409
    error = resp.get_json()["error"]
    assert error.startswith("die Partie ist weitergegangen (diese Seite sah Partie 999 bei Änderung 0"), error


def test_an_engine_refusal_written_as_a_text_reaches_the_page_translated(app, game, monkeypatch, nl_actions):
    """Where an engine refuses with a Text, the JSON error is in the reader's language; a plain
    string refusal (an engine not converted yet) passes through unchanged."""
    from tablehub.games.base import IllegalAction

    phone = app.test_client()
    phone.get("/language/fr")
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', phone.get("/").get_data(as_text=True)).group(1)
    phone.post("/api/unlock", json={"pin": PIN}, headers={"X-CSRF-Token": csrf})
    action = nl_actions[0]
    for reason, expected in ((T("the game has already ended"), "la partie est déjà terminée"),
                             ("an engine's plain words", "an engine's plain words")):
        def refuse(action, reason=reason):
            raise IllegalAction(reason, rule="test")

        monkeypatch.setattr(game.session.game, "apply", refuse)
        monkeypatch.setattr(game.session.game, "validate", refuse)
        resp = phone.post("/api/submit", json={"action": action}, headers={"X-CSRF-Token": csrf})
        assert resp.status_code in (400, 409)
        assert expected in resp.get_json()["error"], resp.get_json()


def test_the_venue_board_reads_each_screens_language():
    from tablehub.venue.board import VenueBoard
    from web.venue import BoardFeed, create_venue_app

    board = VenueBoard("cafe")
    feed = BoardFeed(board, "wins", min_interval_s=0.01)
    try:
        client = create_venue_app(board, "wins", feed=feed).test_client()
        for lang, words in (("fr", "Classement"), ("de", "Tabelle")):
            html = client.get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
            assert f'<html lang="{lang}">' in html and words in html
            assert not english_left(html, lang), english_left(html, lang)
            assert '"No table has published yet."' in html  # the script's dictionary is embedded
    finally:
        feed.close()


def test_the_tracker_status_line_reads_in_each_phones_language(app, game):
    """The tracker's status line (what NEXT just logged, why the table waits) stays a Text in the hub: a French
    phone read "Ana: Lay the tile ..." in English while its history was French."""
    game.set_status("table", T("fix the table first: {reason}", reason=T("the game is over")))
    fr, de = app.test_client(), app.test_client()
    fr.get("/language/fr")
    de.get("/language/de")
    said = {lang: phone.get("/api/state").get_json()["status"]["table"] for lang, phone in (("fr", fr), ("de", de))}
    assert said["fr"] == translate(T("fix the table first: {reason}", reason=T("the game is over")), "fr")
    assert "la partie est terminée" in said["fr"] and "das Spiel ist vorbei" in said["de"], said
    assert _first_state(fr)["status"]["table"] == said["fr"]
    version = game.snapshot()["version"]
    game.set_status("table", T("fix the table first: {reason}", reason=T("the game is over")))
    assert game.snapshot()["version"] == version, "the same words again publish nothing"
