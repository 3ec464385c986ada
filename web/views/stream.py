"""Server-Sent Events: every phone gets a fresh snapshot after each change.

``GET /events``: the first message is the current ``state`` (or, with a
``Last-Event-ID`` header from a reconnecting browser, what it missed). A comment
line goes out every heartbeat so dead connections are noticed and closed; after
the stream's lifetime it ends and the browser reconnects by itself.
"""
from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request

from ..events import StreamLimit
from ..security import hub

bp = Blueprint("stream", __name__)


def _last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last")
    if raw is None:
        return None
    try:
        value = int(raw)
    except ValueError:
        return None
    return value if value >= 0 else None


@bp.get("/events")
def events() -> Response:
    h = hub()
    try:
        chunks = h.bus.stream(_last_event_id(), heartbeat=current_app.config["SSE_HEARTBEAT"],
                              lifetime=current_app.config["SSE_LIFETIME"],
                              gone=request.environ.get("waitress.client_disconnected"))
    except StreamLimit as exc:
        resp = jsonify(ok=False, error=f"the hub is busy: {exc}; retrying shortly")
        resp.status_code = 503
        resp.headers["Retry-After"] = "5"
        return resp
    resp = Response(chunks, mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp
