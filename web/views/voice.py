"""The voice settings page (``/voice``) and its API (``/api/voice``): docs/voice.md.

``tablehub run`` gives the hub its :class:`tablehub.voice.Speaker` with :func:`attach`;
without one (a hub started elsewhere) the page says the voice is not running. Reading
needs nothing; a change goes through :func:`web.security.change` (PIN, CSRF) like every
other change, is validated by the speaker (one-line refusals) and saved in the data folder.
"""
from __future__ import annotations

import weakref
from typing import Any

from flask import Blueprint, Response, jsonify, request

from tablehub.config import VOICE_EVENTS, VOICE_LANGUAGES
from tablehub.i18n import LANGUAGE_NAMES, T

from ..security import ApiError, change, hub

bp = Blueprint("voice", __name__)

_speakers: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()

EVENT_LABELS = {"score": T("Points scored"), "final": T("Final scores and the winner"), "turn": T("Who plays next"),
                "illegal": T("Illegal placements"), "refused": T("Refused button presses"), "undo": T("Undo")}
#: each language in its own name (the same words on every phone)
LANGUAGE_LABELS = LANGUAGE_NAMES


def attach(the_hub: Any, speaker: Any) -> None:
    """Let the page show and change ``speaker``'s settings."""
    _speakers[the_hub] = speaker


def _speaker() -> Any:
    return _speakers.get(hub())


def _state() -> dict[str, Any]:
    s = _speaker()
    if s is None:
        return {"running": False, "available": False, "note": T("the voice is not running on this hub")}
    translated = s.book.translated
    note = None
    if not s.available:
        note = T("espeak-ng is not installed on the hub (apt install espeak-ng): nothing is spoken")
    elif not translated:
        note = T("No {language} sentences yet: the voice reads the English sentences with the {voice} voice",
                 language=LANGUAGE_LABELS.get(s.cfg.language, s.cfg.language), voice=s.engine.voice)
    return {"running": True, "available": s.available, "settings": s.settings(), "translated": translated,
            "note": note, "problem": s.problem, "stats": vars(s.stats).copy(), "voice": s.engine.voice}


@bp.get("/voice")
def page() -> str:
    from .pages import _page

    return _page("voice.html", page="voice", voice=_state(), events=EVENT_LABELS,
                 languages={k: LANGUAGE_LABELS[k] for k in VOICE_LANGUAGES})


@bp.get("/api/voice")
def state() -> Response:
    resp = jsonify(_state())
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.post("/api/voice")
@change()
def update() -> Response:
    s = _speaker()
    if s is None:
        raise ApiError(409, T("the voice is not running on this hub"))
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ApiError(400, T("the request body must be a JSON object of voice settings"))
    events = data.get("events")
    if isinstance(events, list) and any(e not in VOICE_EVENTS for e in events):
        raise ApiError(400, T("voice settings: events must be some of {events}", events=", ".join(VOICE_EVENTS)))
    s.update(data)  # a ConfigError becomes {"ok": false, "error": ...} (400) in create_app
    return jsonify(ok=True, voice=_state())


@bp.post("/api/voice/test")
@change()
def test() -> Response:
    """Say a sample sentence now (whatever events are chosen, even in quiet hours; not when the voice is off)."""
    s = _speaker()
    if s is None or not s.available:
        raise ApiError(409, T("the voice is not running on this hub (is espeak-ng installed?)"))
    session = hub().session
    who = session.game.current_player if session is not None else "Blue"
    sample = s.book.action({}, who)[0]
    if not s.announce(sample.__class__("test", sample.text)):
        raise ApiError(409, T("nothing was said: the voice is off"))
    return jsonify(ok=True, said=sample.text)
