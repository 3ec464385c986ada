"""The "Trace the board" set-up screen (``/trace/karibik``, ``/trace/tahiti``) and its API
(``/api/trace/<game>...``): docs/karibik.md, docs/tahiti.md.

``tablehub run`` and ``tablehub demo`` give the hub its :class:`tablehub.board_setup.BoardSetup`
with :func:`attach`; without one the screen says board set-up is not running. The web layer
only reads requests and calls the core (the corrections are ``tablehub.games.*.draft``'s).

Guards: the screen's data and pictures (a photo of someone's table) need the PIN, like the
camera; every change goes through :func:`web.security.change` (PIN, CSRF) and is refused in
one line naming the field. A photo from the phone comes in pieces of at most
``tablehub.board_setup.UPLOAD_PART`` bytes (base64 JSON), so the page's 64 KiB request cap
stays as it is for every route.
"""
from __future__ import annotations

import weakref
from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for

from tablehub.board_setup import GAMES, UPLOAD_PART, BoardSetup
from tablehub.i18n import T

from .. import language, security
from ..board_trace_svg import karibik_trace_svg, tahiti_track_svg
from ..security import ApiError, change, hub

bp = Blueprint("boards", __name__)

TITLES = {"karibik": T("Trace the Karibik board"), "tahiti": T("Tahiti's track order")}
ACTIONS = ("capture", "upload", "edit", "save", "use", "reset")

_setups: "weakref.WeakKeyDictionary[Any, BoardSetup]" = weakref.WeakKeyDictionary()


def attach(the_hub: Any, setup: BoardSetup) -> None:
    """Let the page set up the owner's boards with ``setup``."""
    _setups[the_hub] = setup


def setup_of(the_hub: Any) -> BoardSetup | None:
    return _setups.get(the_hub)


def _setup() -> BoardSetup:
    s = setup_of(hub())
    if s is None:
        raise ApiError(409, T("board set-up is not running on this hub (tablehub run and tablehub demo start it)"))
    return s


def _game(game: str) -> str:
    if game not in GAMES:
        raise ApiError(404, T("no board screen for {game} (try {known})", game=repr(game[:30]), known=", ".join(GAMES)))
    return game


def _may_see() -> None:
    if not (security.is_unlocked() or security.is_loopback()):
        raise ApiError(401, T("enter the table PIN first: the board set-up needs it"))


def board_option(game: str) -> dict[str, Any] | None:
    """The saved board new games of ``game`` play on (``None``: the packaged board): for the set-up form."""
    s = setup_of(hub())
    return None if s is None else s.board_option(game)


@bp.get("/trace/<game>")
def page(game: str) -> str:
    from .pages import _page

    _game(game)
    return _page("trace.html", page="trace", game=game, screen_title=TITLES[game], part=UPLOAD_PART)


@bp.get("/api/trace/<game>")
def state(game: str) -> Response:
    _may_see()
    out = _setup().state(_game(game))
    resp = jsonify(out)
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/api/trace/<game>/board.svg")
def board_svg(game: str) -> Response:
    _may_see()
    s, game = _setup(), _game(game)
    which = request.args.get("which", "draft")
    if which not in ("draft", "saved"):
        raise ApiError(400, T("which must be draft or saved, got {which}", which=repr(which[:20])))
    if which == "saved":
        board = s.saved_board(game)  # loaded by the engine's own loader: what a game will play on
        if board is None:
            raise ApiError(404, T("no saved {game} board yet", game=game))
        data = board.to_dict()
    else:
        data = s.draft(game)
        if data is None:
            raise ApiError(404, T("no traced board yet: take or upload a photo of the empty board first"))
    if game == "tahiti":
        svg = tahiti_track_svg(data["track"], lang=language.current())
    else:
        photo = s.photo_path(game)
        url = url_for("boards.photo", game=game, v=int(photo.stat().st_mtime)) if photo else None
        svg = karibik_trace_svg(data, url, saved=which == "saved", lang=language.current())
    return Response(svg, mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-store", "Vary": "Cookie, Accept-Language"})


@bp.get("/api/trace/<game>/photo.jpg")
def photo(game: str) -> Response:
    _may_see()
    path = _setup().photo_path(_game(game))
    if path is None:
        raise ApiError(404, T("no photo yet: take or upload one"))
    return Response(path.read_bytes(), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.post("/api/trace/<game>/<action>")
@change()
def act(game: str, action: str) -> Response:
    from .api import _body

    game = _game(game)
    if action not in ACTIONS:
        raise ApiError(404, T("no board action {action} (known: {known})", action=repr(action[:20]), known=", ".join(ACTIONS)))
    body = _body()
    s = _setup()
    if action == "capture":
        if game != "karibik":
            raise ApiError(400, T("only the Karibik board is traced from a photo"))
        message = s.trace_frame(body.get("size_mm", [600, 420]))
    elif action == "upload":
        if game != "karibik":
            raise ApiError(400, T("only the Karibik board is traced from a photo"))
        message = s.upload(body.get("part"), body.get("parts"), body.get("data"), body.get("size_mm"))
    elif action == "edit":
        message = s.edit(game, body)  # {"op": ..., its fields}; other keys (the page's "version") are ignored
    elif action == "save":
        use = body.get("use", True)
        if not isinstance(use, bool):
            raise ApiError(400, T("'use' must be true or false, got {value}", value=str(use)[:30]))
        message = s.save(game, body.get("name"), use=use)
    elif action == "use":
        message = s.use(game, body.get("use"))
    else:
        message = s.reset(game)
    return jsonify(ok=True, message=message, state=s.state(game))
