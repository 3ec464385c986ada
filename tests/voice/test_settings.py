"""[voice] in the settings file, and the page's changes saved in the data folder."""
from __future__ import annotations

import json

import pytest

from tablehub.config import ConfigError, VoiceConfig, load_config
from tablehub.voice import Speaker


def settings_file(tmp_path, text: str):
    path = tmp_path / "tablehub.toml"
    path.write_text(text)
    return path


def test_voice_settings_are_read_from_the_file(tmp_path):
    cfg = load_config(settings_file(tmp_path, '[voice]\nenabled = false\nlanguage = "de"\nvoice = "de"\n'
                                              'volume = 150\nspeed = 200\nevents = ["illegal"]\n'
                                              'quiet = "22:00-08:00"\ndevice = "plughw:CARD=Headphones"\n'),
                      environ={})
    assert cfg.voice == VoiceConfig(False, "de", "de", 150, 200, ("illegal",), "22:00-08:00",
                                    "plughw:CARD=Headphones")
    assert load_config(None, environ={}).voice == VoiceConfig()


@pytest.mark.parametrize("line, message", [
    ("volume = 201", r"\[voice\] volume: expected 0 to 200 \(100 is normal\), got 201"),
    ("speed = 60", r"\[voice\] speed: expected 80 to 450 words per minute, got 60"),
    ('language = "it"', r"\[voice\] language: expected one of en, fr, de, got 'it'"),
    ('events = ["score", "scores"]', r"\[voice\] events\[1\]: expected one of 'score', 'final', 'turn', 'illegal', 'refused', 'undo', got 'scores'"),
    ('quiet = "10pm-7am"', r'\[voice\] quiet: expected quiet hours like "22:00-08:00", got \'10pm-7am\''),
    ('voice = "en gb"', r"\[voice\] voice: expected an espeak-ng voice name"),
    ('device = "hw:0; rm -rf /"', r"\[voice\] device: expected an ALSA device name"),
    ("queue = 0", r"\[voice\] queue: expected a whole number from 1 to 100, got 0"),
    ('volume = "loud"', r"\[voice\] volume: expected 0 to 200 \(100 is normal\), got 'loud'"),
    ("loud = true", r"\[voice\]: unknown key 'loud'"),
])
def test_a_bad_voice_setting_is_one_line_naming_file_and_key(tmp_path, line, message):
    path = settings_file(tmp_path, f"[voice]\n{line}\n")
    with pytest.raises(ConfigError, match=message) as err:
        load_config(path, environ={})
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_page_changes_are_validated_saved_and_used_after_a_restart(tmp_path):
    store = tmp_path / "voice.json"
    speaker = Speaker(VoiceConfig(), binary=None, store=store)
    speaker.update({"volume": 60, "quiet": "23:00-07:30", "events": ["illegal", "final"], "language": "fr"})
    assert json.loads(store.read_text())["quiet"] == "23:00-07:30"
    with pytest.raises(ConfigError, match=r"voice settings quiet: expected quiet hours"):
        speaker.update({"quiet": "late"})
    with pytest.raises(ConfigError, match=r"'device' cannot be changed here"):
        speaker.update({"device": "hw:1"})
    assert speaker.cfg.quiet == "23:00-07:30", "a refused change changes nothing"
    again = Speaker(VoiceConfig(device="hw:2"), binary=None, store=store)
    assert (again.cfg.volume, again.cfg.events, again.cfg.language, again.cfg.device) == \
        (60, ("illegal", "final"), "fr", "hw:2")
    assert again.engine.voice == "fr" and again.book.translated  # voice.po speaks French


def test_a_damaged_saved_file_is_kept_and_reported_not_used(tmp_path):
    store = tmp_path / "voice.json"
    store.write_text('{"volume": 999}')
    speaker = Speaker(VoiceConfig(volume=80), binary=None, store=store)
    assert speaker.cfg.volume == 80
    assert "volume: expected 0 to 200" in speaker.problem
    assert store.read_text() == '{"volume": 999}', "kept as it was"
    speaker.update({"volume": 90})
    assert speaker.problem is None and json.loads(store.read_text())["volume"] == 90
