"""Who may change the game: the table PIN, CSRF tokens, the brake on PIN guessing, and
which Host names the hub answers to.

Viewing the scores needs nothing; the camera needs the PIN (it films someone's home).
A change needs (a) the table PIN, remembered in the signed session cookie after
``/unlock`` (or sent as the ``X-Tablehub-Pin`` header by scripts), (b) a JSON body,
and (c) for cookie-based requests the page's CSRF token in the ``X-CSRF-Token``
header. A cookie unlocked with an old PIN stops working when the PIN changes.
Every PIN typed goes through the hub's one brake (:class:`tablehub.access.PinKeeper`):
a guesser who rotates addresses gains nothing.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import ipaddress
import secrets
from typing import Any, Callable, TypeVar

from flask import current_app, request, session

from tablehub.access import PinRefused
from tablehub.i18n import T

F = TypeVar("F", bound=Callable[..., Any])

PIN_HEADER = "X-Tablehub-Pin"
CSRF_HEADER = "X-CSRF-Token"


class ApiError(Exception):
    """A refusal sent to the page as ``{"ok": false, "error": message}`` with an HTTP status."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


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


def guess(pin: Any, wrong: str) -> None:
    """Check a PIN through the hub's brake; ApiError 429 (braked or locked) or 403 ``wrong``."""
    if isinstance(pin, int) and not isinstance(pin, bool) and 0 <= pin < 10 ** 12:
        pin = str(pin)
    if not isinstance(pin, str) or len(pin) > 40:
        pin = None  # counted as a wrong guess: the brake sees every try
    try:
        right = hub().access.guess(pin, client_id())
    except PinRefused as exc:
        raise ApiError(429, exc.text) from None
    if not right:
        raise ApiError(403, wrong)


def unlock(pin: Any) -> None:
    """Check a PIN (with the guessing brake) and remember it in the session cookie."""
    guess(pin, T("wrong PIN: it is shown on the hub's screen and QR code, and by `tablehub pin` on the hub"))
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
        raise ApiError(415, T("send the request body as JSON (Content-Type: application/json)"))
    header_pin = request.headers.get(PIN_HEADER)
    if header_pin is not None:
        # A custom header cannot be sent cross-site without CORS (which this app never allows),
        # so a correct PIN header is its own CSRF proof.
        guess(header_pin, f"wrong PIN in the {PIN_HEADER} header")
        return
    sent = request.headers.get(CSRF_HEADER, "")
    expected = session.get("csrf")
    if not expected or not hmac.compare_digest(sent.encode(), str(expected).encode()):
        raise ApiError(403, T("this page is out of date (security token mismatch); reload it and try again"))
    if need_pin and not is_unlocked():
        raise ApiError(401, T("enter the table PIN first: changes to the game need it"))


def change(need_pin: bool = True) -> Callable[[F], F]:
    """Decorator for routes that change something."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def inner(*args: Any, **kwargs: Any) -> Any:
            check_change_request(need_pin)
            return fn(*args, **kwargs)

        return inner  # type: ignore[return-value]

    return wrap


def may_see_camera() -> None:
    """The camera films someone's home: unlocked phones and the hub's own screen only."""
    if not (is_unlocked() or is_loopback()):
        raise ApiError(401, T("enter the table PIN first: the camera view needs it"))


# ---------------------------------------------------------------------- Host names (DNS rebinding)

LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def own_addresses() -> set[str]:
    """Every IP address of this machine (Linux: /proc; elsewhere what the resolver says)."""
    import socket

    found: set[str] = set()
    try:  # IPv4: the LOCAL host routes of every interface
        lines = open("/proc/net/fib_trie", encoding="ascii").read().splitlines()
        for prev, line in zip(lines, lines[1:]):
            if "/32 host LOCAL" in line:
                found.add(prev.split()[-1])
    except OSError:
        pass
    try:  # IPv6
        for line in open("/proc/net/if_inet6", encoding="ascii"):
            raw = line.split()[0]
            found.add(str(ipaddress.IPv6Address(int(raw, 16))))
    except (OSError, ValueError, IndexError):
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.add(str(info[4][0]).split("%")[0])
    except OSError:
        pass
    return found


def own_names(extra: tuple[str, ...] = ()) -> set[str]:
    """The names the hub answers to: its hostname (and ``.local``), configured names, localhost."""
    import socket

    host = socket.gethostname().lower()
    names = set(LOCAL_NAMES) | {host, f"{host}.local"} | {n.lower().rstrip(".") for n in extra}
    return names


def host_name(header: str) -> str:
    """The name or address of a Host header, without port and brackets, lower case."""
    h = header.strip().lower()
    if h.startswith("["):
        return h[1:h.index("]")] if "]" in h else h[1:]
    if h.count(":") == 1:
        h = h.rpartition(":")[0]
    return h.rstrip(".")


class HostCheck:
    """Accept only requests addressed to the hub by one of its own names or addresses.

    A web page elsewhere that rebinds its own name to the hub's address (DNS rebinding)
    sends its own name in the Host header, and is refused.
    """

    def __init__(self, extra_names: tuple[str, ...] = ()):
        self.names = own_names(extra_names)
        self._addresses = own_addresses()
        self._refreshed = 0.0

    def allowed(self, header: str | None) -> bool:
        if not header:
            return False
        name = host_name(header)
        if name in self.names:
            return True
        try:
            ip = ipaddress.ip_address(name)
        except ValueError:
            return False
        if ip.is_loopback or str(ip) in self._addresses:
            return True
        import time

        if time.monotonic() - self._refreshed > 10:  # a new DHCP address: look again, not too often
            self._refreshed = time.monotonic()
            self._addresses = own_addresses()
        return str(ip) in self._addresses

    def refusal(self, header: str | None) -> str:
        return (f"this hub does not answer to the name {header!r}: open it by its own name or address "
                f"({', '.join(sorted(n for n in self.names if n not in LOCAL_NAMES))} or its IP address); "
                "add other names under [web] hosts in the settings")
