"""The voice settings on the page: shown to anyone, changed only with the table PIN, refused in one line."""
from __future__ import annotations

import json
import time

import pytest

from tablehub.config import VoiceConfig
from tablehub.games.base import Setup
from tablehub.voice import Speaker

pytest.importorskip("flask")

PIN = "4821"


@pytest.fixture()
def speaker(hub, tmp_path, recorder):
    from web.views.voice import attach

    s = Speaker(VoiceConfig(), store=tmp_path / "voice.json").start().follow(lambda: hub.session)
    attach(hub, s)
    yield s
    s.close()


@pytest.fixture()
def client(hub):
    from web import create_app

    return create_app(hub).test_client()


def csrf_of(client) -> str:
    client.get("/voice")
    with client.session_transaction() as s:
        return s["csrf"]


def test_the_form_shows_the_settings_and_the_table_language(client, speaker):
    speaker.update({"language": "de", "quiet": "22:00-08:00"})
    html = client.get("/voice").get_data(as_text=True)
    assert 'id="voice-form"' in html and 'value="22:00-08:00"' in html
    assert '<option value="de" selected>Deutsch</option>' in html
    assert "sentences yet" not in html, "voice.po has the German sentences: no English fallback note"
    assert "voice.js" in html
    state = client.get("/api/voice").get_json()
    assert state["settings"]["quiet"] == "22:00-08:00" and state["available"] and state["translated"]
    assert speaker.book.say("turn", "{player} to play.", player="Ana").text == "Ana ist am Zug."


def test_a_language_without_its_sentences_shows_the_english_fallback_note(client, speaker, monkeypatch):
    speaker.update({"language": "fr"})
    monkeypatch.setattr(speaker.book, "translated", False)
    html = client.get("/voice", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "Pas encore de phrases en Français : la voix lit les phrases anglaises avec la voix fr" in html
    html = client.get("/voice", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "No Français sentences yet: the voice reads the English sentences with the fr voice" in html


def test_changes_need_the_pin_and_are_saved(client, speaker, tmp_path):
    csrf = csrf_of(client)
    body = {"enabled": True, "language": "en", "voice": "en-us", "volume": 120, "speed": 180,
            "quiet": "23:00-07:00", "events": ["illegal", "final"]}
    refused = client.post("/api/voice", json=body, headers={"X-CSRF-Token": csrf})
    assert refused.status_code == 401 and "PIN" in refused.get_json()["error"]
    assert speaker.cfg.volume == 100, "nothing changed without the PIN"
    assert client.post("/api/unlock", json={"pin": PIN}, headers={"X-CSRF-Token": csrf}).status_code == 200
    ok = client.post("/api/voice", json=body, headers={"X-CSRF-Token": csrf})
    assert ok.status_code == 200, ok.get_data(as_text=True)
    assert ok.get_json()["voice"]["settings"]["events"] == ["illegal", "final"]
    assert (speaker.cfg.voice, speaker.engine.voice, speaker.engine.volume) == ("en-us", "en-us", 120)
    assert json.loads((tmp_path / "voice.json").read_text())["quiet"] == "23:00-07:00"


@pytest.mark.parametrize("change, message", [
    ({"quiet": "after dinner"}, 'voice settings quiet: expected quiet hours like "22:00-08:00"'),
    ({"volume": 500}, "voice settings volume: expected 0 to 200"),
    ({"events": ["gossip"]}, "voice settings: events must be some of score, final, turn, illegal, refused, undo"),
    ({"device": "hw:0"}, "voice settings: 'device' cannot be changed here"),
    ({"speed": "fast"}, "voice settings: key 'speed' must be like 160, got 'fast'"),
])
def test_a_bad_change_is_refused_in_one_line(client, speaker, change, message):
    resp = client.post("/api/voice", json=change, headers={"X-Tablehub-Pin": PIN})
    assert resp.status_code == 400
    assert resp.get_json()["error"] == message or resp.get_json()["error"].startswith(message)
    assert speaker.cfg == VoiceConfig()


def test_the_sample_button_speaks_who_plays(client, hub, speaker, recorder):
    hub.start(Setup("neuesland", ("Ana", "Ben")))
    resp = client.post("/api/voice/test", json={}, headers={"X-Tablehub-Pin": PIN})
    assert resp.get_json() == {"ok": True, "said": "Ana to play."}
    end = time.monotonic() + 5
    while not recorder() and time.monotonic() < end:
        time.sleep(0.02)
    assert recorder() == ["Ana to play."]
    client.post("/api/voice", json={"enabled": False}, headers={"X-Tablehub-Pin": PIN})
    off = client.post("/api/voice/test", json={}, headers={"X-Tablehub-Pin": PIN})
    assert off.status_code == 409 and "the voice is off" in off.get_json()["error"]


def test_a_hub_without_a_voice_says_so(client):
    assert "the voice is not running on this hub" in client.get("/voice").get_data(as_text=True)
    resp = client.post("/api/voice", json={"volume": 50}, headers={"X-Tablehub-Pin": PIN})
    assert resp.status_code == 409


def test_set_up_links_to_the_voice_page(client):
    assert 'href="/voice"' in client.get("/setup").get_data(as_text=True)
