"""Server-Sent Events: every phone gets a fresh snapshot after each change.

``GET /events``: the first message is the current ``state`` (or, with a
``Last-Event-ID`` header from a reconnecting browser, what it missed). A comment
line goes out every heartbeat so dead connections are noticed and closed; after
the stream's lifetime it ends and the browser reconnects by itself.
"""
from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request

from .. import language
from ..events import StreamLimit
from tablehub.i18n import T, reason

from ..limits import Held, Slots
from ..security import ApiError, client_id, hub

bp = Blueprint("stream", __name__)


def _last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last")
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 18):
        return None  # not an id this hub gave: start afresh with the current state
    return int(raw)


def _busy(message: str) -> Response:
    resp = jsonify(ok=False, error=message)
    resp.status_code = 503
    resp.headers["Retry-After"] = "5"
    return resp


@bp.get("/events")
def events() -> Response:
    h = hub()
    slots: Slots = current_app.extensions["tablehub.event_slots"]
    try:
        release = slots.take(client_id())
    except ApiError as exc:
        return _busy(exc.message)
    try:
        chunks = h.bus.stream(_last_event_id(), heartbeat=current_app.config["SSE_HEARTBEAT"],
                              lifetime=current_app.config["SSE_LIFETIME"],
                              gone=request.environ.get("waitress.client_disconnected"),
                              lang=language.current())
    except StreamLimit as exc:
        release()
        return _busy(T("the hub is busy: {why}; retrying shortly", why=reason(exc)))
    resp = Response(Held(chunks, release), mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp
