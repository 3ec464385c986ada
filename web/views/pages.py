"""The HTML pages. Each is a shell the page's script fills from ``/api/state`` and ``/events``."""
from __future__ import annotations

from flask import Blueprint, Response, redirect, render_template, request, url_for

from tablehub.i18n import LANGUAGES, N_, T

from .. import security
from ..present import SETUP_COLOURS, COLOURS
from ..security import ApiError, hub
from .media import join_urls

bp = Blueprint("pages", __name__)

SCREENS = {"calibration": N_("Calibration"), "enrolment": N_("Enrolment: tiles, boards, pieces")}


def _page(template: str, **context: object) -> str:
    return render_template(template, csrf=security.csrf_token(), unlocked=security.is_unlocked(),
                           snapshot=hub().snapshot(), **context)


@bp.get("/")
def index() -> str:
    return _page("index.html", page="play")


@bp.get("/setup")
def setup() -> str:
    colours = [{"name": c, "css": COLOURS[c]} for c in SETUP_COLOURS]
    return _page("setup.html", page="setup", colours=colours)


@bp.get("/camera/<screen>")
def camera(screen: str) -> str:
    if screen not in SCREENS:
        raise ApiError(404, T("no camera screen {screen} (try {choices})", screen=repr(screen), choices=", ".join(SCREENS)))
    return _page("camera.html", page=screen, screen=screen, screen_title=T(SCREENS[screen]))


@bp.get("/join")
def join() -> str:
    show_pin = security.is_unlocked() or security.is_loopback()
    return _page("join.html", page="join", urls=join_urls(), show_pin=show_pin,
                 pin=hub().pin if show_pin else None)


@bp.get("/unlock")
def unlock() -> Response:
    """The PIN QR code opens this: unlock and go to the scoreboard."""
    pin = request.args.get("pin")
    if pin is None:
        return redirect(url_for("pages.join"))
    try:
        security.unlock(pin)
    except ApiError as exc:
        return Response(render_template("message.html", title=T("Not unlocked"), message=exc.message,
                                        csrf=security.csrf_token(), unlocked=False, page="join",
                                        snapshot=hub().snapshot()), status=exc.status)
    return redirect(url_for("pages.index"))


@bp.get("/language/<code>")
def language(code: str) -> Response:
    """The page's language switch: this phone reads ``code`` from now on (a cookie; no PIN needed).
    ``?next=/path`` goes back to the page the switch was pressed on."""
    from ..language import COOKIE, COOKIE_AGE

    if code not in LANGUAGES:
        raise ApiError(404, T("no language {code} (try {choices})", code=repr(code[:20]), choices=", ".join(LANGUAGES)))
    target = request.args.get("next", "/")
    if not (target.startswith("/") and not target.startswith("//") and "\\" not in target and target.isascii()
            and target.isprintable() and len(target) <= 200):
        target = "/"
    resp = redirect(target)
    resp.set_cookie(COOKIE, code, max_age=COOKIE_AGE, samesite="Lax", httponly=False)
    return resp
