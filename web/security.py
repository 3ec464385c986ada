"""Who may change the game: the table PIN, CSRF tokens and a brake on PIN guessing.

Viewing needs nothing. A change needs (a) the table PIN, remembered in the signed
session cookie after ``/unlock`` (or sent as the ``X-Tablehub-Pin`` header by
scripts), (b) a JSON body, and (c) for cookie-based requests the page's CSRF
token in the ``X-CSRF-Token`` header. A cookie unlocked with an old PIN stops
working when the PIN changes.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
import threading
import time
from collections import defaultdict, deque
from typing import Any, Callable, TypeVar

from flask import current_app, request, session

F = TypeVar("F", bound=Callable[..., Any])

PIN_HEADER = "X-Tablehub-Pin"
CSRF_HEADER = "X-CSRF-Token"


class ApiError(Exception):
    """A refusal sent to the page as ``{"ok": false, "error": message}`` with an HTTP status."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class PinGuard:
    """At most ``tries`` wrong PINs per client address per ``window`` seconds."""

    def __init__(self, tries: int = 5, window: float = 60.0):
        self.tries = tries
        self.window = window
        self._fails: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def _recent(self, who: str, now: float) -> deque[float]:
        q = self._fails[who]
        while q and q[0] < now - self.window:
            q.popleft()
        return q

    def check(self, who: str) -> None:
        with self._lock:
            q = self._recent(who, time.monotonic())
            if len(q) >= self.tries:
                wait = int(q[0] + self.window - time.monotonic()) + 1
                raise ApiError(429, f"too many wrong PINs from this phone; try again in {wait} s")

    def failed(self, who: str) -> None:
        with self._lock:
            self._recent(who, time.monotonic()).append(time.monotonic())

    def succeeded(self, who: str) -> None:
        with self._lock:
            self._fails.pop(who, None)


def hub() -> Any:
    return current_app.extensions["tablehub.hub"]


def _fingerprint() -> str:
    h = hub()
    return hmac.new(h.secret_key, h.pin.encode(), hashlib.sha256).hexdigest()[:20]


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def is_unlocked() -> bool:
    return session.get("unlocked") == _fingerprint()


def client_id() -> str:
    return request.remote_addr or "?"


def unlock(pin: Any) -> None:
    """Check a PIN (with the guessing brake) and remember it in the session cookie."""
    guard: PinGuard = current_app.extensions["tablehub.pinguard"]
    who = client_id()
    guard.check(who)
    if not hub().check_pin(pin if isinstance(pin, str) else str(pin) if isinstance(pin, int) else None):
        guard.failed(who)
        raise ApiError(403, "wrong PIN: it is shown on the hub's screen and QR code")
    guard.succeeded(who)
    session["unlocked"] = _fingerprint()
    session.permanent = True
    csrf_token()


def lock() -> None:
    session.pop("unlocked", None)


def is_loopback() -> bool:
    return request.remote_addr in ("127.0.0.1", "::1")


def check_change_request(need_pin: bool = True) -> None:
    """Refuse a change request that lacks JSON, the CSRF token or the PIN (raises ApiError)."""
    if not request.is_json:
        raise ApiError(415, "send the request body as JSON (Content-Type: application/json)")
    header_pin = request.headers.get(PIN_HEADER)
    if header_pin is not None:
        # A custom header cannot be sent cross-site without CORS (which this app never allows),
        # so a correct PIN header is its own CSRF proof.
        guard: PinGuard = current_app.extensions["tablehub.pinguard"]
        guard.check(client_id())
        if not hub().check_pin(header_pin):
            guard.failed(client_id())
            raise ApiError(403, f"wrong PIN in the {PIN_HEADER} header")
        return
    sent = request.headers.get(CSRF_HEADER, "")
    expected = session.get("csrf")
    if not expected or not hmac.compare_digest(sent.encode(), str(expected).encode()):
        raise ApiError(403, "this page is out of date (security token mismatch); reload it and try again")
    if need_pin and not is_unlocked():
        raise ApiError(401, "enter the table PIN first: changes to the game need it")


def change(need_pin: bool = True) -> Callable[[F], F]:
    """Decorator for routes that change something."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def inner(*args: Any, **kwargs: Any) -> Any:
            check_change_request(need_pin)
            return fn(*args, **kwargs)

        return inner  # type: ignore[return-value]

    return wrap
