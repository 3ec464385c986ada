"""``POST /api/photoscore``: a finished tile-game table scored from a photo sent from the phone
(``tablehub score --photo`` on the page; docs/web.md "Score a finished table from a photo").

The body is JSON ``{"photo": "<base64 PNG or JPEG>", "game": "neuesland", "players": {"red": "Ana"},
"before": "red=34,blue=20", "holdings": {"ships": ..., "goods": ..., "covered": ...}}`` (all but the photo may be
left out: ``game`` and ``players`` are then the game on the table and its players' colours; ``before`` and
``holdings`` are what ``--before`` and ``--holdings`` give on the command line). ``game`` may also be ``sunda``,
``tahiti`` or ``karibik``, with ``tribes`` and ``levels`` (Sunda), ``vaults`` (Tahiti) or ``money`` (Karibik) as
text, as ``tablehub score --photo`` takes them. The answer is the
explained final scores and the unsure cells; nothing about the game on the table changes. It takes the PIN like
every change (reading a photo costs the hub a few seconds of CPU), one photo at a time. A photo larger than one
request may carry (64 KiB, as every route) comes first in parts (``POST /api/photoscore/part``), held in memory
by client address until the scoring request takes them.
"""
from __future__ import annotations

import base64
import binascii
import json
import threading
import time
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from tablehub.games.base import TablehubError
from tablehub.i18n import T
from tablehub.photo import POSITION_GAMES

from .. import security
from ..limits import Slots
from ..security import ApiError, change, hub

bp = Blueprint("photoscore", __name__, url_prefix="/api")

PART_CHARS = 60_000
"""A photo comes in parts of at most this many base64 characters (``POST /api/photoscore/part``), each request
within the page's 64 KiB body cap and waitress's 128 KiB (web/server.py): no route needs a bigger body."""
MAX_PARTS = 256
"""At most this many parts: 15 MB of base64, an 11 MB photo (a phone's 12 MP JPEG is 3 to 6 MB)."""
MAX_UPLOADS = 4
"""Photos being sent at once, one per address; a fifth address starting one drops the oldest."""
UPLOAD_TTL_S = 600.0
"""A photo whose parts stop coming is dropped after this long."""
UPLOADS = "tablehub.photoscore_uploads"
SLOTS = "tablehub.photoscore_slots"


class Uploads:
    """The parts of the photos being sent, by client address (one photo each, in memory)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_client: dict[str, tuple[float, list[str]]] = {}

    def add(self, client: str, index: int, data: str) -> int:
        """Part ``index`` of ``client``'s photo (0 starts a new one); returns the parts held."""
        now = time.monotonic()
        with self._lock:
            for c in [c for c, (t, _) in self._by_client.items() if now - t > UPLOAD_TTL_S]:
                del self._by_client[c]
            if index == 0:
                if client not in self._by_client and len(self._by_client) >= MAX_UPLOADS:
                    oldest = min(self._by_client, key=lambda c: self._by_client[c][0])
                    del self._by_client[oldest]
                self._by_client[client] = (now, [])
            held = self._by_client.get(client)
            if held is None or len(held[1]) != index:
                have = 0 if held is None else len(held[1])
                raise ApiError(409, f"index: part {index} came after {have} part(s); send the photo again from part 0")
            held[1].append(data)
            self._by_client[client] = (now, held[1])
            return len(held[1])

    def take(self, client: str) -> str | None:
        with self._lock:
            held = self._by_client.pop(client, None)
        return None if held is None else "".join(held[1])


def _app_thing(key: str, make: Any) -> Any:
    thing = current_app.extensions.get(key)
    if thing is None:
        thing = current_app.extensions[key] = make()
    return thing


def _slots() -> Slots:
    return _app_thing(SLOTS, lambda: Slots("photo readings", total=1, per_client=1))


def _uploads() -> Uploads:
    return _app_thing(UPLOADS, Uploads)


def _json_body() -> dict[str, Any]:
    try:
        body = json.loads(request.get_data(cache=False).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ApiError(400, T("send a JSON object (see docs/web.md: POST /api/photoscore)")) from None
    if not isinstance(body, dict):
        raise ApiError(400, T("send a JSON object (see docs/web.md: POST /api/photoscore)"))
    return body


@bp.post("/photoscore/part")
@change()
def photo_part() -> Response:
    """``{"index": i, "data": "<base64, at most 60,000 characters>"}``: part i of the photo (0 starts anew)."""
    body = _json_body()
    index, data = body.get("index"), body.get("data")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < MAX_PARTS:
        raise ApiError(400, T("index: expected a part number from 0 to {last}", last=MAX_PARTS - 1))
    if not isinstance(data, str) or not data or len(data) > PART_CHARS:
        raise ApiError(400, T("data: expected a base64 string of 1 to {most} characters", most=PART_CHARS))
    return jsonify(ok=True, parts=_uploads().add(security.client_id(), index, data))


@bp.post("/photoscore")
@change()
def photoscore() -> Response:
    """The photo (``"photo"``, when it fits in one request, else the parts sent) read and scored."""
    body = _json_body()
    text = body.get("photo")
    if text is None:
        text = _uploads().take(security.client_id())
        if text is None:
            raise ApiError(400, T("photo: send it as \"photo\" or in parts to /api/photoscore/part first"))
    if not isinstance(text, str):
        raise ApiError(400, T("photo: expected the picture as a base64 string"))
    if text.startswith("data:") and "," in text:  # a data URL, as the browser's FileReader gives it
        text = text.split(",", 1)[1]
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ApiError(400, T("photo: not base64")) from None
    game, names = _game_and_names(body)
    held = _given(body, game) if game in POSITION_GAMES else _holdings(body, names)
    scorer = getattr(hub(), "photo_scorer", None)
    if scorer is None:
        raise ApiError(409, T("scoring from a photo is not set up on this hub (it runs without the camera's "
                              "references: 'tablehub enroll')"))
    release = _slots().take(security.client_id())
    try:
        result = scorer(data, game, names, held)
    except TablehubError as exc:
        raise ApiError(400, exc.text) from None  # a Text reads in the phone's language
    finally:
        release()
    from ..language import current

    return jsonify(ok=True, lines=result.lines(current()), **result.to_dict())  # the report in the phone's language


def _game_and_names(body: dict[str, Any]) -> tuple[str, dict[str, str] | None]:
    """The game named, else the one on the table; the colours named, else the table's players' colours."""
    session = hub().session
    game = body.get("game")
    if game is None and session is not None:
        game = session.setup.game
    if game not in ("neuesland", "suedsee") + tuple(POSITION_GAMES):
        raise ApiError(400, T("game: expected neuesland, suedsee, sunda, tahiti or karibik (the games scored from a "
                              "photo), got {value}", value=repr(str(game)[:40])))
    names = body.get("players")
    if names is None and session is not None and session.setup.game == game and session.setup.colors:
        names = dict(zip(session.setup.colors, session.setup.players))
    if names is not None and (not isinstance(names, dict) or len(names) > 5 or not all(
            isinstance(k, str) and isinstance(v, str) and len(k) <= 24 and len(v) <= 24 for k, v in names.items())):
        raise ApiError(400, T("players: expected an object of at most 5 colours and names, e.g. {example}",
                              example='{"red": "Ana"}'))
    return game, names


#: the page's one field for what a photo of these games cannot show (``"given"``), by game
GIVEN_AS = {"sunda": "tribes", "tahiti": "vaults", "karibik": "money"}


def _given(body: dict[str, Any], game: str) -> dict[str, str]:
    """What the photo cannot show of Sunda, Tahiti or Karibik, as on the command line (tablehub.photo_position):
    ``"tribes": "1,0=Ana,Ben"``, ``"levels": "tribes,resources"``, ``"vaults": "red=12"``, ``"money": "red=34000"``;
    the page's one field ``"given"`` is the game's own (tribes, vaults or money)."""
    out = {}
    for key in ("tribes", "levels", "vaults", "money", "given"):
        value = body.get(key)
        if value is None or value == "":
            continue
        if not isinstance(value, str) or len(value) > 400:
            raise ApiError(400, T("{key}: expected text of at most 400 characters", key=key))
        out[GIVEN_AS[game] if key == "given" else key] = value
    return out


def _holdings(body: dict[str, Any], names: dict[str, str] | None) -> Any:
    """What the photo cannot show, as on the command line: ``"before": "red=34,blue=20"`` (Neues Land's score
    track) and ``"holdings": {"ships": ..., "goods": ..., "covered": ...}`` (Südsee)."""
    from tablehub.photoscore import Holdings, PhotoScoreError, holdings_from, parse_before

    before, held = body.get("before"), body.get("holdings")
    if before is not None and not (isinstance(before, str) and len(before) <= 200):
        raise ApiError(400, T("before: expected text like red=34,blue=20"))
    try:
        out = holdings_from(held, "holdings", names) if held is not None else Holdings()
        out.before = parse_before(before, names)
    except PhotoScoreError as exc:
        raise ApiError(400, exc.text) from None
    return out
