"""``POST /api/photoscore``: a finished tile-game table scored from a photo sent from the phone
(``tablehub score --photo`` on the page; docs/web.md "Score a finished table from a photo").

The body is JSON ``{"photo": "<base64 PNG or JPEG>", "game": "neuesland", "players": {"red": "Ana"}}``
(``game`` and ``players`` may be left out: the game on the table and its players' colours). The answer is the
explained final scores and the unsure cells; nothing about the game on the table changes. It takes the PIN like
every change (reading a photo costs the hub a few seconds of CPU), one photo at a time.
"""
from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from tablehub.games.base import TablehubError

from .. import security
from ..limits import Slots
from ..security import ApiError, change, hub

bp = Blueprint("photoscore", __name__, url_prefix="/api")

PHOTO_BODY = 16 * 1024 * 1024
"""This route's own body cap (the page's is 64 KiB): a phone's photo (12 MP JPEG: 3 to 6 MB) sent as base64
(a third more), with room to spare. The photo's pixels are checked from its header before it is decoded."""
SLOTS = "tablehub.photoscore_slots"


def _slots() -> Slots:
    slots = current_app.extensions.get(SLOTS)
    if slots is None:
        slots = current_app.extensions[SLOTS] = Slots("photo readings", total=1, per_client=1)
    return slots


@bp.post("/photoscore")
@change()
def photoscore() -> Response:
    request.max_content_length = PHOTO_BODY
    try:
        body = json.loads(request.get_data(cache=False).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ApiError(400, "send {\"photo\": \"<base64 PNG or JPEG>\"} as JSON") from None
    if not isinstance(body, dict) or not isinstance(body.get("photo"), str):
        raise ApiError(400, "photo: expected the picture as a base64 string")
    text = body["photo"]
    if text.startswith("data:") and "," in text:  # a data URL, as the browser's FileReader gives it
        text = text.split(",", 1)[1]
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ApiError(400, "photo: not base64") from None
    game, names = _game_and_names(body)
    scorer = getattr(hub(), "photo_scorer", None)
    if scorer is None:
        raise ApiError(409, "scoring from a photo is not set up on this hub (it runs without the camera's "
                            "references: 'tablehub enroll')")
    release = _slots().take(security.client_id())
    try:
        result = scorer(data, game, names)
    except TablehubError as exc:
        raise ApiError(400, str(exc)) from None
    finally:
        release()
    return jsonify(ok=True, lines=result.lines(), **result.to_dict())


def _game_and_names(body: dict[str, Any]) -> tuple[str, dict[str, str] | None]:
    """The game named, else the one on the table; the colours named, else the table's players' colours."""
    session = hub().session
    game = body.get("game")
    if game is None and session is not None:
        game = session.setup.game
    if game not in ("neuesland", "suedsee"):
        raise ApiError(400, f"game: expected neuesland or suedsee (the tile games the camera reads), got "
                            f"{str(game)[:40]!r}")
    names = body.get("players")
    if names is None and session is not None and session.setup.game == game and session.setup.colors:
        names = dict(zip(session.setup.colors, session.setup.players))
    if names is not None and (not isinstance(names, dict) or len(names) > 5 or not all(
            isinstance(k, str) and isinstance(v, str) and len(k) <= 24 and len(v) <= 24 for k, v in names.items())):
        raise ApiError(400, "players: expected an object of at most 5 colours and names, e.g. {\"red\": \"Ana\"}")
    return game, names
