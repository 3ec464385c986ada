"""The HTML pages. Each is a shell the page's script fills from ``/api/state`` and ``/events``."""
from __future__ import annotations

from flask import Blueprint, Response, redirect, render_template, request, url_for

from .. import security
from ..present import SETUP_COLOURS, COLOURS
from ..security import ApiError, hub
from .media import join_urls

bp = Blueprint("pages", __name__)

SCREENS = {"calibration": "Calibration", "enrolment": "Tile enrolment"}


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
        raise ApiError(404, f"no camera screen {screen!r} (try {', '.join(SCREENS)})")
    return _page("camera.html", page=screen, screen=screen, screen_title=SCREENS[screen])


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
        return Response(render_template("message.html", title="Not unlocked", message=exc.message,
                                        csrf=security.csrf_token(), unlocked=False, page="join",
                                        snapshot=hub().snapshot()), status=exc.status)
    return redirect(url_for("pages.index"))
