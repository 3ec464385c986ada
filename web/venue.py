"""The venue board's page: every table live, the finished games and the standings, for a wall
screen and for phones. Built around a :class:`tablehub.venue.board.VenueBoard` (fed over MQTT by
``tablehub venue``); it never touches a table's database and sends nothing to any table.

Routes: ``/`` the page, ``/events`` Server-Sent Events (``state``: :meth:`VenueBoard.snapshot`,
at most :data:`MIN_INTERVAL_S` apart), ``/api/board`` the same snapshot as JSON,
``/standings.csv?rule=wins|points|average`` the standings as CSV. See docs/venue.md.

>>> from tablehub.venue.board import VenueBoard
>>> app = create_venue_app(VenueBoard("cafe"))
>>> app.test_client().get("/api/board").get_json()["venue"]
'cafe'
>>> app.extensions["tablehub.venue_feed"].close()
"""
from __future__ import annotations

import datetime
import logging
import threading
from typing import Any

from flask import Flask, Response, jsonify, render_template, request

from tablehub.i18n import T, reason
from tablehub.venue.board import RULES, VenueBoard

from .events import EventBus, StreamLimit

log = logging.getLogger(__name__)

#: the page gets a fresh snapshot at most this often (50 tables at one event a second each
#: would otherwise mean 100 snapshots a second to every screen)
MIN_INTERVAL_S = 0.25


class BoardFeed:
    """Pushes the board's snapshot to an :class:`EventBus` after changes, coalesced."""

    def __init__(self, board: VenueBoard, rule: str = "wins", max_streams: int = 64,
                 min_interval_s: float = MIN_INTERVAL_S):
        if rule not in RULES:
            raise ValueError(T("ranking rule {rule} is unknown (expected one of: {known})", rule=repr(rule),
                                 known=", ".join(RULES)))
        self.board = board
        self.rule = rule
        self.bus = EventBus(keep=20, max_streams=max_streams)
        self.min_interval_s = min_interval_s
        self._dirty = threading.Event()
        self._stop = threading.Event()
        self.bus.publish("state", board.snapshot(rule))
        board.subscribe(lambda topic, message: self._dirty.set())
        self._thread = threading.Thread(target=self._run, name="tablehub-venue-feed", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self._dirty.wait(1.0):
                continue
            self._dirty.clear()
            try:
                self.bus.publish("state", self.board.snapshot(self.rule))
            except Exception:
                log.exception("venue board snapshot failed")
            self._stop.wait(self.min_interval_s)

    def close(self) -> None:
        self._stop.set()
        self.bus.close()
        self._thread.join(2.0)


def create_venue_app(board: VenueBoard, rule: str = "wins", *, title: str = "", heartbeat: float = 15.0,
                     stream_lifetime: float = 600.0, feed: BoardFeed | None = None) -> Flask:
    """The board's Flask app. ``rule``: the organiser's ranking rule (the page can show the others)."""
    app = Flask(__name__)
    from .language import current as current_language, install as install_language  # the board reads each screen's language (docs/web.md)

    install_language(app)
    feed = feed or BoardFeed(board, rule)
    app.extensions["tablehub.venue_feed"] = feed
    page_title = title or (f"{board.venue} tables" if board.venue else "Venue tables")

    def chosen_rule() -> str:
        value = request.args.get("rule", feed.rule)
        if value not in RULES:
            raise _BadRequest(T("rule must be one of: {known} (got {value})", known=", ".join(RULES), value=repr(value)))
        return value

    @app.errorhandler(ValueError)
    def _bad(exc: ValueError) -> Any:
        return jsonify(ok=False, error=reason(exc)), 400  # a Text renders in the screen's language

    @app.get("/")
    def page() -> str:
        return render_template("venue_board.html", title=page_title, rule=feed.rule, rules=RULES)

    @app.get("/api/board")
    def api_board() -> Any:
        return jsonify(board.snapshot(chosen_rule()))

    @app.get("/standings.csv")
    def standings_csv() -> Response:
        rule = chosen_rule()
        stamp = datetime.datetime.now().strftime("%Y-%m-%d")
        name = f"standings-{board.venue or 'venue'}-{stamp}-{rule}.csv"
        return Response(board.standings_csv(rule), mimetype="text/csv",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.get("/events")
    def events() -> Any:
        raw = request.headers.get("Last-Event-ID")
        last = int(raw) if raw and raw.isdigit() else None
        try:
            chunks = feed.bus.stream(last, heartbeat=heartbeat, lifetime=stream_lifetime,
                                     gone=request.environ.get("waitress.client_disconnected"),
                                     lang=current_language())
        except StreamLimit as exc:
            resp = jsonify(ok=False, error=T("the board is busy: {why}", why=reason(exc)))
            resp.status_code, resp.headers["Retry-After"] = 503, "5"
            return resp
        resp = Response(chunks, mimetype="text/event-stream")
        resp.headers["Cache-Control"] = "no-cache"
        resp.headers["X-Accel-Buffering"] = "no"
        return resp

    @app.after_request
    def _headers(resp: Any) -> Any:
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "no-referrer")
        resp.headers.setdefault("Content-Security-Policy", "default-src 'self'; style-src 'self'; "
                                "script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
        return resp

    return app


class _BadRequest(ValueError):
    pass


class VenueServer:
    """waitress serving ``app`` on ``host:port`` in a thread (0: a free port); ``stop()`` ends it."""

    def __init__(self, app: Flask, host: str = "0.0.0.0", port: int = 8090, threads: int = 72):
        from waitress.server import create_server

        from .server import WAITRESS_OPTIONS

        self.app = app
        self._server = create_server(app, host=host, port=port, threads=threads,
                                     **{**WAITRESS_OPTIONS, "ident": "tablehub-venue"})
        self.host = host
        self.port = int(self._server.effective_port)  # type: ignore[union-attr]
        self._thread = threading.Thread(target=self._run, name="tablehub-venue-web", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._server.run()
        except (OSError, ValueError):
            pass

    def stop(self, timeout: float = 5.0) -> None:
        """End every event stream, close every connection, stop the threads (as web.server does)."""
        from .server import stop_server

        self.app.extensions["tablehub.venue_feed"].close()  # every stream ends at its next wake-up
        stop_server(self._server, self._thread, timeout)
