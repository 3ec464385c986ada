"""The phone page: live scores, resources, board, history, corrections and set-up.

``create_app(hub)`` builds the Flask app around a :class:`~web.hub.Hub`;
``serve(hub, host, port, threads)`` runs it with waitress (what ``tablehub run`` does).
Everything is served from this package: no CDN, the table's network has no internet.
See docs/web.md.
"""
from __future__ import annotations

import datetime
import logging
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from tablehub.games.base import IllegalAction, TablehubError

from tablehub.i18n import T

from .hub import Hub, HubError
from .limits import Slots
from .security import ApiError, HostCheck

__all__ = ["Hub", "HubError", "create_app", "serve", "threads_for"]

log = logging.getLogger(__name__)

#: waitress threads kept free for ordinary requests besides the event and camera streams
SPARE_THREADS = 8
#: camera streams (MJPEG, 4 frames a second each) at once, and from one address
CAMERA_STREAMS, CAMERA_STREAMS_PER_CLIENT = 4, 2
#: event streams from one address (a phone with a few tabs open; the hub itself is not capped)
EVENT_STREAMS_PER_CLIENT = 4
#: largest request body the app reads (a move, a set-up form: a few hundred bytes)
MAX_BODY = 64 * 1024


def create_app(hub: Hub, *, heartbeat: float = 15.0, stream_lifetime: float = 600.0) -> Flask:
    """The Flask app for one hub. ``heartbeat``: seconds between keep-alive comments on the
    event streams; ``stream_lifetime``: seconds before a stream ends and the phone reconnects."""
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=hub.secret_key,
        SESSION_COOKIE_NAME="tablehub",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=datetime.timedelta(hours=12),
        MAX_CONTENT_LENGTH=MAX_BODY,
        MAX_FORM_MEMORY_SIZE=MAX_BODY,
        SSE_HEARTBEAT=heartbeat,
        SSE_LIFETIME=stream_lifetime,
    )
    app.extensions["tablehub.hub"] = hub
    from .language import install as install_language  # the reader's language (docs/web.md)

    install_language(app)
    hosts = HostCheck(tuple(hub.hostnames))
    app.extensions["tablehub.hosts"] = hosts
    app.extensions["tablehub.camera_slots"] = Slots(T("camera streams"), CAMERA_STREAMS, CAMERA_STREAMS_PER_CLIENT)
    app.extensions["tablehub.event_slots"] = Slots(T("event streams"), None, EVENT_STREAMS_PER_CLIENT)

    @app.before_request
    def _own_host() -> Any:
        # DNS rebinding: a page elsewhere whose name now points here sends its own name
        if not hosts.allowed(request.headers.get("Host")):
            message = hosts.refusal(request.headers.get("Host"))
            log.warning("refused a request for host %r from %s", request.headers.get("Host"), request.remote_addr)
            if request.path.startswith("/api/"):
                return jsonify(ok=False, error=message), 421
            return Response(message + "\n", status=421, mimetype="text/plain")
        return None

    from .views import api, media, pages, stream

    for bp in (pages.bp, api.bp, stream.bp, media.bp):
        app.register_blueprint(bp)
    from .views import voice  # spoken announcements' settings (docs/voice.md)

    app.register_blueprint(voice.bp)
    from .views import boards  # the owner's board traced and corrected (docs/karibik.md, docs/tahiti.md)

    app.register_blueprint(boards.bp)

    from .views import photoscore  # a finished table scored from a photo (docs/web.md)

    app.register_blueprint(photoscore.bp)
    from .views import boardenrol  # a printed board's corners tapped on the enrolment preview (docs/boardcam.md)

    app.register_blueprint(boardenrol.bp)

    @app.errorhandler(ApiError)
    def _api_error(exc: ApiError) -> Any:
        return jsonify(ok=False, error=exc.message), exc.status

    @app.errorhandler(TablehubError)
    def _refused(exc: TablehubError) -> Any:
        status = 409 if isinstance(exc, (IllegalAction, HubError)) else 400
        return jsonify(ok=False, error=exc.text), status  # a Text renders in the reader's language

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Any:
        if request.path.startswith("/api/"):
            return jsonify(ok=False, error=T("{name}: {description}", name=exc.name, description=exc.description)), exc.code
        return exc

    @app.after_request
    def _headers(resp: Any) -> Any:
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("X-Frame-Options", "DENY")
        resp.headers.setdefault("Referrer-Policy", "no-referrer")
        resp.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
            "script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
        return resp

    return app


def threads_for(streams: int) -> int:
    """waitress threads for ``streams`` open event streams, the camera streams and ordinary requests."""
    return streams + CAMERA_STREAMS + SPARE_THREADS


def streams_for(threads: int) -> int:
    """Event streams ``threads`` waitress threads can carry, keeping the camera's and the spare ones."""
    return max(1, threads - CAMERA_STREAMS - SPARE_THREADS)


def serve(hub: Hub, host: str = "0.0.0.0", port: int = 8080, threads: int | None = None,
          **waitress_options: Any) -> None:
    """Serve the page with waitress until interrupted (blocks).

    ``threads`` defaults to enough for the hub's stream limit plus the camera's and spare
    ones; the event bus is limited to what the threads can carry so page loads never starve.
    A port in use (or any other bind failure) is one :class:`TablehubError` line.
    """
    import waitress

    from .server import WAITRESS_OPTIONS, bind_error

    if threads is None:
        threads = threads_for(hub.bus.max_streams)
    hub.bus.max_streams = streams_for(threads)
    if hub.port is None:
        hub.port = port
    app = create_app(hub)
    log.info("serving the table page on http://%s:%d/ with %d threads", host, port, threads)
    try:
        waitress.serve(app, host=host, port=port, threads=threads, **{**WAITRESS_OPTIONS, **waitress_options})
    except OSError as exc:
        raise TablehubError(bind_error(host, port, exc)) from None
    finally:
        hub.shutdown()
