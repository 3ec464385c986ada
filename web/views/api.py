"""The JSON API the page uses (and scripts may use with the ``X-Tablehub-Pin`` header).

Reads need nothing; every POST changes something and goes through
:func:`web.security.change` (JSON body, CSRF token or PIN header, unlocked PIN).
Refusals come back as ``{"ok": false, "error": "<one line>"}``.

Every change may carry ``"version"``: the ``game_version`` of the state the page saw (the
page always sends it). A change made on an older state is refused with 409 "the game moved
on" and changes nothing. A change the database could not save is refused with 503
"not saved: <reason>; nothing changed".
"""
from __future__ import annotations

import json
import re
from typing import Any, Mapping

from flask import Blueprint, Response, jsonify, request

from tablehub.games.base import Setup
from tablehub.i18n import T
from tablehub.session import Paused, Stale
from tablehub.store import NotSaved

from .. import language, security
from ..board_svg import render_board, terrain_legend
from ..present import action_forms
from ..hub import UnknownPiece
from ..security import ApiError, change, hub

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_NAME = 24
#: options that name files on the hub: set on the hub's command line, never from a phone
FILE_OPTIONS = frozenset({"catalog", "board", "data", "tracks", "ships", "pieces"})


#: JSON nesting the API reads (an action is two levels deep); deeper bodies are refused before parsing
MAX_DEPTH = 16
#: a saved game's number is an SQLite integer
MAX_ID = 2 ** 63 - 1
_STRING = re.compile(rb'"(?:\\.|[^"\\])*"')


def _depth(raw: bytes) -> int:
    """How deeply ``raw`` (JSON text) nests arrays and objects (strings skipped)."""
    depth = deepest = 0
    for ch in _STRING.sub(b'""', raw):
        if ch in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in b"]}":
            depth -= 1
    return deepest


def _body() -> dict[str, Any]:
    raw = request.get_data(cache=True)
    if _depth(raw) > MAX_DEPTH:
        raise ApiError(400, T("the request body nests deeper than {depth} levels", depth=MAX_DEPTH))
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise ApiError(400, T("the request body must be UTF-8 JSON text")) from None
    except ValueError as exc:
        raise ApiError(400, T("the request body is not JSON ({why})", why=str(exc))) from None
    if not isinstance(data, dict):
        raise ApiError(400, T("the request body must be a JSON object"))
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _ok(**extra: Any) -> Response:
    h = hub()
    return jsonify(ok=True, version=h.version, game_version=h.game_version(), **extra)


def _seen(body: Mapping[str, Any]) -> str | None:
    """The game_version the page saw (``None``: the caller did not say, no check)."""
    version = body.get("version")
    if version is not None and not isinstance(version, str):
        raise ApiError(400, T("version must be the game_version string from /api/state"))
    return version


@bp.errorhandler(NotSaved)
def _not_saved(exc: NotSaved) -> Any:
    return jsonify(ok=False, error=exc.text, saved=False), 503


@bp.errorhandler(Paused)
def _paused(exc: Paused) -> Any:
    return jsonify(ok=False, error=exc.text), 409


@bp.errorhandler(Stale)
def _stale(exc: Stale) -> Any:
    return jsonify(ok=False, error=exc.text, stale=True, game_version=hub().game_version()), 409


# ---------------------------------------------------------------------- reading


@bp.get("/state")
def state() -> Response:
    snap = hub().snapshot()
    resp = jsonify(snap)
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/board.svg")
def board_svg() -> Response:
    """The board picture in the reader's language: its ETag names the board's version and the
    language, and it varies with the ``lang`` cookie and Accept-Language (each phone its own)."""
    h = hub()
    lang = language.current()
    etag = f'"board-{h.version}-{lang}"'
    headers = {"ETag": etag, "Vary": "Cookie, Accept-Language"}
    if request.headers.get("If-None-Match") == etag:
        return Response(status=304, headers=headers)
    svg = _board_text(lang)
    return Response(svg, mimetype="image/svg+xml", headers={**headers, "Cache-Control": "no-cache"})


def _board_text(lang: str) -> str:
    h = hub()
    session = h.session
    snap = h.snapshot()
    if session is None:
        return render_board({"kind": "none"}, {}, lang=lang)
    with session.lock:
        view = session.game.view()
        game = session.game.name
    players = {p["name"]: {"css": p["css"], "colour": p["colour"]} for p in snap["game"]["players"]}
    # tile views name a figure's owner by index or by name: accept both
    for i, p in enumerate(snap["game"]["players"]):
        players[str(i)] = {"css": p["css"], "colour": p["colour"], "name": p["name"]}
    _name_figures(view, snap["game"]["players"])
    ghost = h.pending_ghost()
    _name_figures(ghost, snap["game"]["players"])
    return render_board(view, players, snap["flag"], ghost, lang=lang, game=game)


def _name_figures(view: dict[str, Any], players: list[dict[str, Any]]) -> None:
    for f in view.get("figures") or []:
        owner = f.get("owner")
        if isinstance(owner, int) and not isinstance(owner, bool) and 0 <= owner < len(players):
            f["owner"] = players[owner]["name"]


@bp.get("/board.json")
def board_json() -> Response:
    """The raw view (for other drawings) plus the terrain legend."""
    session = hub().session
    if session is None:
        return jsonify(view={"kind": "none"}, legend=[])
    with session.lock:
        view = session.game.view()
        game = session.game.name
    return jsonify(view=view, legend=terrain_legend(view, game=game))


@bp.get("/forms")
def forms() -> Response:
    """The action types of the running game and their fields, for the hand-entry form."""
    session = hub().session
    if session is None:
        raise ApiError(409, T("no game is running: start or resume one on the set-up page"))
    with session.lock:
        game = session.game
        out = action_forms(game)
        hints = _field_hints(game)
    return jsonify(forms=out, hints=hints, game=game.name)


def _field_hints(game: Any) -> dict[str, list[str]]:
    """Values worth suggesting per field name (tile ids still in the box, for tile games; what an
    engine's own ``field_hints()`` suggests)."""
    hints: dict[str, list[str]] = {}
    box = getattr(game, "box", None)
    if box is not None and hasattr(box, "items"):
        hints["tile"] = sorted(k for k, n in box.items() if n > 0)
    own = getattr(game, "field_hints", None)
    if callable(own):
        hints.update(own())
    return hints


@bp.get("/legal")
def legal() -> Response:
    """Legal actions now that match the query's fields (e.g. ``?type=place_tile&tile=ds017``)."""
    prefix: dict[str, Any] = {}
    for key, value in request.args.items():
        if key == "limit":
            continue
        if not (key.isascii() and key.isidentifier() and len(key) <= 40):
            raise ApiError(400, T("query field {key} is not an action field name", key=repr(key[:40])))
        prefix[key] = _query_value(value)
    raw = request.args.get("limit", "60")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 6):
        raise ApiError(400, T("limit must be a whole number from 1 to 200, got {value}", value=repr(raw[:20])))
    limit = max(1, min(200, int(raw)))
    return jsonify(actions=hub().legal_actions(prefix, limit=limit))


@bp.get("/hints")
def hints() -> Response:
    """Where the piece being placed may go now (``?piece=<tile or piece id>``; without it the
    camera's pending tile or piece): the places, their moves and the board layer (``svg``)."""
    for key in request.args:
        if key != "piece":
            raise ApiError(400, T("query field {key} is not known here (only 'piece': the tile or piece to place)",
                                key=repr(key[:40])))
    piece = request.args.get("piece")
    if piece is not None and not (0 < len(piece) <= 40 and piece.isascii() and piece.isprintable()):
        raise ApiError(400, T("piece must be a tile or piece id of 1 to 40 printable ASCII characters, got {value}",
                            value=repr(piece[:40])))
    try:
        out = hub().hints(piece, lang=language.current())
    except UnknownPiece as exc:
        raise ApiError(400, exc.text) from None
    resp = jsonify(ok=True, **out)
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _query_value(value: str) -> Any:
    """A query value as the action field it stands for: a whole number (ASCII digits only, at most
    18 of them), true/false, else the text."""
    digits = value[1:] if value.startswith("-") else value
    if digits.isascii() and digits.isdigit() and len(digits) <= 18:
        return int(value)
    if value in ("true", "false"):
        return value == "true"
    return value


@bp.get("/games")
def games() -> Response:
    h = hub()
    return jsonify(available=h.games_available(), saved=h.saved_games(),
                   current=h.session.game_id if h.session else None)


# ---------------------------------------------------------------------- unlocking


@bp.post("/unlock")
@change(need_pin=False)
def unlock() -> Response:
    security.unlock(_body().get("pin"))
    return _ok(unlocked=True)


@bp.post("/lock")
@change(need_pin=False)
def lock() -> Response:
    security.lock()
    return _ok(unlocked=False)


@bp.get("/me")
def me() -> Response:
    return jsonify(unlocked=security.is_unlocked(), csrf=security.csrf_token())


# ---------------------------------------------------------------------- playing


@bp.post("/submit")
@change()
def submit() -> Response:
    body = _body()
    action = _action(body.get("action", body if "type" in body else None))
    events = hub().submit(action, source="phone", version=_seen(body))
    return _ok(events=[e.to_dict() for e in events])


@bp.post("/check")
@change()
def check() -> Response:
    action = _action(_body().get("action"))
    reason = hub().check(action)
    return _ok(legal=reason is None, reason=reason)


@bp.post("/undo")
@change()
def undo() -> Response:
    body = _body()
    scope = body.get("scope", "turn")
    undone = hub().undo(scope if isinstance(scope, str) else repr(scope), version=_seen(body))
    return _ok(undone=undone)


@bp.post("/offer/accept")
@change()
def accept() -> Response:
    body = _body()
    offer, index = body.get("offer"), body.get("index")
    if not _is_int(offer) or not _is_int(index):
        raise ApiError(400, T('send {{"offer": <offer id>, "index": <0-based choice>}} as whole numbers'))
    events = hub().accept(offer, index, source="phone", version=_seen(body))
    return _ok(events=[e.to_dict() for e in events])


@bp.post("/pending/commit")
@change()
def commit_pending() -> Response:
    return _ok(message=hub().commit_pending(version=_seen(_body())))


@bp.post("/offer/dismiss")
@change()
def dismiss() -> Response:
    hub().clear_offer()
    return _ok()


@bp.post("/flag/clear")
@change()
def clear_flag() -> Response:
    hub().clear_flag()
    return _ok()


def _action(action: Any) -> dict[str, Any]:
    """The action object of a request, its ``type`` a name (the game checks the other fields)."""
    if not isinstance(action, dict):
        raise ApiError(400, T("send {example}", example='{"action": {"type": ..., ...}}'))
    kind = action.get("type")
    if not (isinstance(kind, str) and 0 < len(kind) <= 40 and kind.isascii() and kind.isidentifier()):
        raise ApiError(400, T("action field 'type' must be an action name such as \"place_tile\", got {value}",
                                value=format(repr(kind), ".60")))
    return action


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# ---------------------------------------------------------------------- set-up


@bp.post("/game/start")
@change()
def start() -> Response:
    body = _body()
    setup = parse_setup(body)
    session = hub().start(setup, version=_seen(body))
    return _ok(id=session.game_id)


def parse_setup(body: Mapping[str, Any]) -> Setup:
    """A :class:`Setup` from the set-up form, with one-line reasons for bad input."""
    game = body.get("game")
    if not isinstance(game, str) or not game:
        raise ApiError(400, T("choose a game"))
    players = body.get("players")
    if not isinstance(players, list) or not players:
        raise ApiError(400, T("players must be a list of names"))
    names = []
    for i, p in enumerate(players, 1):
        if not isinstance(p, str) or not p.strip():
            raise ApiError(400, T("player {number} needs a name", number=i))
        if len(p.strip()) > MAX_NAME:
            raise ApiError(400, T("player {number}'s name is longer than {max} characters", number=i, max=MAX_NAME))
        names.append(" ".join(p.split()))
    colours = body.get("colors", body.get("colours", []))
    if not isinstance(colours, list) or not all(isinstance(c, str) and 0 < len(c) <= 20 for c in colours):
        raise ApiError(400, T("colours must be a list of colour names"))
    if colours and len(colours) != len(names):
        raise ApiError(400, T("choose one colour per player ({players}), got {colours}", players=len(names), colours=len(colours)))
    options = body.get("options", {})
    if not isinstance(options, dict):
        raise ApiError(400, T("options must be an object"))
    for key in options:
        if key in FILE_OPTIONS:
            raise ApiError(400, T("option '{key}' names a file on the hub: set it on the hub's command line", key=key))
    if "board" not in options:  # the owner's board saved on the board screen, when they chose to play on it
        from .boards import board_option

        saved = board_option(game)
        if saved is not None:
            options = {**options, "board": saved}
    return Setup(game, tuple(names), tuple(c.strip().lower() for c in colours), dict(options))


@bp.post("/game/end")
@change()
def end() -> Response:
    events = hub().end(version=_seen(_body()))
    return _ok(events=[e.to_dict() for e in events])


@bp.post("/game/reopen")
@change()
def reopen() -> Response:
    hub().reopen(version=_seen(_body()))
    return _ok()


@bp.post("/game/resume")
@change()
def resume() -> Response:
    body = _body()
    game_id = body.get("id")
    if game_id is not None and not (_is_int(game_id) and 1 <= game_id <= MAX_ID):
        raise ApiError(400, T("id must be a saved game's number (or null for the latest unfinished one)"))
    session = hub().resume(game_id, version=_seen(body))
    return _ok(id=session.game_id)


@bp.post("/game/close")
@change()
def close() -> Response:
    hub().close(version=_seen(_body()))
    return _ok()


@bp.post("/command/<name>")
@change()
def command(name: str) -> Response:
    return _ok(message=hub().run_command(name))


@bp.post("/notice")
@change()
def notice() -> Response:
    """The owner's answer to a banner: ``{"id": ..., "choice": "continue" | "new" | "dismiss"}``."""
    body = _body()
    key, choice = body.get("id"), body.get("choice")
    if not isinstance(key, str) or not isinstance(choice, str):
        raise ApiError(400, T('send {{"id": <notice id>, "choice": "continue", "new" or "dismiss"}}'))
    return _ok(message=hub().answer(key, choice, version=_seen(body)))
