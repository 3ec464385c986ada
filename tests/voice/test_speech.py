"""The real espeak-ng writes speech to a WAV file: plausible length for the words, not silence,
and the volume and speed settings reach it."""
from __future__ import annotations

import array
import math
import wave

import pytest

from tablehub.config import VoiceConfig
from tablehub.voice import Phrasebook, SpeechError
from tablehub.voice.speaker import engine_for


def listen(path) -> tuple[float, float]:
    """(seconds, RMS of the 16-bit samples as a fraction of full scale)."""
    with wave.open(str(path)) as w:
        assert (w.getsampwidth(), w.getnchannels()) == (2, 1)
        frames = w.readframes(w.getnframes())
        seconds = w.getnframes() / w.getframerate()
    samples = array.array("h", frames)
    rms = math.sqrt(sum(s * s for s in samples) / max(1, len(samples))) / 32768
    return seconds, rms


def synthesise(tmp_path, text: str, name: str = "said", **settings) -> tuple[float, float]:
    engine = engine_for(VoiceConfig(**settings))
    wav = tmp_path / f"{name}.wav"
    engine.speak(text, wav=wav)
    return listen(wav)


@pytest.mark.parametrize("text", [
    "Blue to play.",
    Phrasebook().illegal("the sea meets a mountain on the east side").text,
    "Red scores 10 for a finished area of 5 tiles. Blue to play. Green scores 3 for a small lake of two tiles.",
])
def test_a_sentence_becomes_speech_of_a_plausible_length(espeak_ng, tmp_path, text):
    words = len(text.split())
    seconds, rms = synthesise(tmp_path, text, speed=160)
    spoken = words / 160 * 60                      # at 160 words a minute
    assert 0.5 * spoken <= seconds <= 2.0 * spoken + 0.8, f"{words} words took {seconds:.2f} s"
    assert rms > 0.02, f"the WAV is (nearly) silent: RMS {rms:.4f}"


def test_speed_and_volume_reach_espeak_ng(espeak_ng, tmp_path):
    text = "Ana scores 4 for a finished road of 4 tiles."
    slow, loud = synthesise(tmp_path, text, "slow", speed=120, volume=180)
    fast, quiet = synthesise(tmp_path, text, "fast", speed=320, volume=40)
    assert fast < 0.7 * slow
    assert quiet < 0.5 * loud
    _, silent = synthesise(tmp_path, text, "mute", volume=0)
    assert silent < 0.001


def test_german_and_french_voices_speak_their_own_sentences(espeak_ng, tmp_path, no_new_missing):
    expected = {"de": "Ana ist am Zug.", "fr": "À Ana de jouer."}
    for language in ("de", "fr"):
        book = Phrasebook(language)
        assert book.translated
        text = book.action({}, "Ana")[0].text
        assert text == expected[language]
        seconds, rms = synthesise(tmp_path, text, language, language=language)
        assert seconds > 0.3 and rms > 0.02
        assert engine_for(VoiceConfig(language=language)).voice == language


def test_a_french_announcement_with_an_engine_reason_is_spoken_in_french(espeak_ng, tmp_path, no_new_missing):
    """A score whose reason is a Text (the engines' form) is rendered whole in French, then spoken
    to a WAV of a plausible length for its words."""
    from tablehub.i18n import T

    book = Phrasebook("fr")
    said = book.action({"events": [{"player": "Rouge", "points": 4, "kind": "score",
                                    "reason": T("illegal placement")}]}, to_play="Bleu")
    texts = [a.text for a in said]
    assert texts == ["Rouge marque 4 pour placement interdit.", "À Bleu de jouer."]
    text = " ".join(texts)
    seconds, rms = synthesise(tmp_path, text, "fr-score", language="fr", speed=160)
    spoken = len(text.split()) / 160 * 60
    assert 0.5 * spoken <= seconds <= 2.0 * spoken + 0.8, f"{len(text.split())} words took {seconds:.2f} s"
    assert rms > 0.02


def test_an_unknown_voice_is_one_line_from_espeak_ng(espeak_ng, tmp_path):
    with pytest.raises(SpeechError, match=r"espeak-ng failed \(exit \d+\): .*voice does not exist"):
        engine_for(VoiceConfig(voice="xx-nowhere")).speak("hello", wav=tmp_path / "x.wav")


def test_an_alsa_device_gets_the_sound_through_aplay(espeak_ng):
    import shutil

    if shutil.which("aplay") is None:
        pytest.skip("aplay (alsa-utils) is not installed")
    engine_for(VoiceConfig(device="null")).speak("Blue to play.")   # ALSA's null device takes anything
    with pytest.raises(SpeechError, match=r"^aplay failed \(exit 1\): .*audio open error"):
        engine_for(VoiceConfig(device="nosuchdevice")).speak("Blue to play.")
