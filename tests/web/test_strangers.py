"""Strangers on the Wi-Fi: PIN guessing, freezing the page, DNS rebinding, a busy port.

The server tests use a real waitress server on loopback and real sockets.
"""
from __future__ import annotations

import socket
import stat
import tempfile
import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from tablehub.config import PinsConfig
from tablehub.games.base import TablehubError
from tablehub.store import Store

from .conftest import PIN, Phone


class Clock:
    def __init__(self, t: float = 1_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


def _app(hub):
    from web import create_app

    return create_app(hub, heartbeat=0.2, stream_lifetime=2.0)


# ---------------------------------------------------------------- the PIN


def test_a_guesser_rotating_addresses_gets_fewer_than_10_guesses_a_minute(tmp_path):
    from tablehub.access import PinKeeper
    from web import Hub

    clock = Clock()
    hub = Hub(Store(tmp_path / "g.sqlite"), access=PinKeeper(tmp_path, pin="31415926", clock=clock))
    client = _app(hub).test_client()
    checked = refused = 0
    for i in range(3000):  # one guess every 20 ms for a minute, each from a new address
        clock.t += 0.02
        resp = client.post("/api/unlock", json={"pin": f"{i:08d}"}, headers={"X-Tablehub-Pin": f"{i:08d}"},
                           environ_base={"REMOTE_ADDR": f"10.0.{i // 250 % 250}.{i % 250 + 1}"})
        if resp.status_code == 403:
            checked += 1
        elif resp.status_code == 429:
            refused += 1
    assert checked < 10, f"{checked} PINs were checked in one minute"
    assert checked + refused == 3000


def test_300_quick_guesses_from_300_addresses_get_at_most_4_pins_checked(client):
    """The same attack on the real clock (fails on the per-address brake of old: all 300 checked)."""
    checked = 0
    for i in range(300):
        resp = client.post("/api/unlock", json={"pin": f"{i:04d}"}, headers={"X-Tablehub-Pin": f"{i:04d}"},
                           environ_base={"REMOTE_ADDR": f"10.1.{i // 250}.{i % 250 + 1}"})
        assert resp.status_code in (403, 429)
        checked += resp.status_code == 403
    assert checked <= 4


def test_the_lockout_holds_until_the_owner_lifts_it_even_for_the_right_pin(tmp_path, caplog):
    from tablehub.access import PinKeeper
    from web import Hub

    clock = Clock()
    keeper = PinKeeper(tmp_path, pin="31415926", clock=clock)
    hub = Hub(Store(tmp_path / "g.sqlite"), access=keeper)
    client = _app(hub).test_client()
    for i in range(keeper.lock_after):
        clock.t += 3600  # slowly: the delays never bite, the count does
        assert client.post("/api/unlock", json={"pin": "00000000"},
                           headers={"X-Tablehub-Pin": "00000000"}).status_code == 403
    assert sum("wrong PIN from" in r.message for r in caplog.records) == keeper.lock_after, "every guess logged"
    clock.t += 7 * 24 * 3600
    resp = client.post("/api/unlock", json={}, headers={"X-Tablehub-Pin": "31415926"})
    assert resp.status_code == 429 and "locked" in resp.get_json()["error"]
    assert "PIN entry is locked" in hub.snapshot()["status"]["pin"], "the page says so"
    # a restart keeps the lockout
    hub2 = Hub(Store(tmp_path / "g.sqlite"), access=PinKeeper(tmp_path, clock=clock))
    assert _app(hub2).test_client().post("/api/unlock", json={}, headers={"X-Tablehub-Pin": "31415926"}
                                         ).status_code == 429
    # lifted on the Pi's console (another process, the same files)
    from tablehub.cli import main

    assert main(["pin", "--data", str(tmp_path), "--lift"]) == 0
    assert client.post("/api/unlock", json={"pin": "3141 5926"},
                       headers={"X-Tablehub-Pin": "31415926"}).status_code == 200
    assert "pin" not in hub.snapshot()["status"]


def test_holding_next_and_check_together_lifts_the_lockout_and_fires_neither_button(tmp_path):
    from tablehub.access import PinKeeper
    from tablehub.commands._hub import lift_on_hold
    from tablehub.hardware.panel import Panel
    from web import Hub

    keeper = PinKeeper(tmp_path, pin="31415926", lock_after=1)
    hub = Hub(Store(tmp_path / "g.sqlite"), access=keeper)
    assert keeper.guess("1", "10.0.0.9") is False and keeper.status()["locked"]
    factory = MockFactory()
    panel = Panel(PinsConfig(debounce_s=0.04, hold_s=1.0), factory=factory)
    calls = []
    for button in ("next", "check"):
        for event in ("click", "hold"):
            panel.on(button, event, lambda b=button, e=event: calls.append((b, e)))
    lift_on_hold(panel, hub)
    try:
        factory.pin(17).drive_low()
        factory.pin(27).drive_low()
        for t in range(0, 400):
            panel.poll(t * 0.01)
        assert keeper.status()["locked"], "4 s is not enough"
        for t in range(400, 560):
            panel.poll(t * 0.01)
        assert not keeper.status()["locked"]
        factory.pin(17).drive_high()
        factory.pin(27).drive_high()
        for t in range(560, 600):
            panel.poll(t * 0.01)
        assert calls == [], "no undo, no override, no commit"
    finally:
        panel.close()
        factory.reset()


def test_the_pin_and_the_cookie_key_survive_a_restart_so_phones_stay_unlocked(tmp_path):
    from tablehub.access import PinKeeper
    from web import Hub

    first = Hub(Store(tmp_path / "g.sqlite"), access=PinKeeper(tmp_path))
    assert len(first.pin) == 8 and first.pin.isdigit()
    client = _app(first).test_client()
    phone = Phone(client)
    assert phone.unlock(first.pin).status_code == 200
    for name in ("pin", "cookie-key"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600
    again = Hub(Store(tmp_path / "g2.sqlite"), access=PinKeeper(tmp_path))
    assert again.pin == first.pin
    app2 = _app(again)
    client2 = app2.test_client()
    cookie = client.get_cookie("tablehub")
    client2.set_cookie("tablehub", cookie.value)
    assert client2.get("/api/me").get_json()["unlocked"] is True
    # `tablehub pin --new` beside the running hub: the old PIN stops working there at once
    from tablehub.cli import main

    old = first.pin
    assert main(["pin", "--data", str(tmp_path), "--new"]) == 0
    assert client2.get("/api/me").get_json()["unlocked"] is False
    assert again.pin != old and first.pin == again.pin


# ---------------------------------------------------------------- a real server on loopback


@pytest.fixture()
def server(tmp_path):
    from web import Hub
    from web.server import BackgroundServer

    store = Store(tmp_path / "g.sqlite")
    frame = b"\xff\xd8" + b"x" * 2000 + b"\xff\xd9"
    hub = Hub(store, pin=PIN, camera_preview=lambda overlay: frame)
    srv = BackgroundServer(hub)  # the defaults `tablehub run` uses
    yield srv
    srv.stop()
    store.close()


def _get(port: int, path: str, host: str = "127.0.0.1", timeout: float = 10.0, **headers: str) -> tuple[int, bytes]:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Host": host, **headers})
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def test_45_camera_streams_and_100_idle_connections_leave_the_page_answering(server):
    port = server.port
    socks = []
    try:
        statuses = []
        for i in range(45):  # from "other" addresses: loopback counts toward the total cap only
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"GET /camera.mjpg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            socks.append(s)
        for s in socks:
            statuses.append(s.recv(64).split(b" ")[1])
        import web

        assert statuses.count(b"200") == web.CAMERA_STREAMS, statuses
        assert statuses.count(b"503") == 45 - web.CAMERA_STREAMS
        for _ in range(100):
            socks.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        t0 = time.monotonic()
        assert _get(port, "/")[0] == 200
        status, body = _get(port, "/api/state")
        assert status == 200 and b'"version"' in body
        assert time.monotonic() - t0 < 5
    finally:
        for s in socks:
            s.close()


def test_the_camera_needs_the_pin_from_another_address(hub):
    from web import create_app

    hub.camera_preview = lambda overlay: b"\xff\xd8jpeg\xff\xd9"
    client = create_app(hub).test_client()
    far = {"REMOTE_ADDR": "192.168.1.50"}
    assert client.get("/camera.jpg", environ_base=far).status_code == 401
    assert client.get("/camera.mjpg?seconds=1", environ_base=far).status_code == 401
    phone = Phone(client)
    client.post("/api/unlock", json={"pin": PIN}, headers={"X-CSRF-Token": phone.csrf}, environ_base=far)
    assert client.get("/camera.jpg", environ_base=far).status_code == 200


def test_camera_streams_are_capped_per_address(hub):
    from web import CAMERA_STREAMS_PER_CLIENT, create_app

    hub.camera_preview = lambda overlay: b"\xff\xd8jpeg\xff\xd9"
    client = create_app(hub).test_client()
    far = {"REMOTE_ADDR": "192.168.1.50"}
    client.get("/")
    client.post("/api/unlock", json={"pin": PIN}, headers={"X-Tablehub-Pin": PIN}, environ_base=far)
    open_ = [client.get("/camera.mjpg?seconds=5", environ_base=far, buffered=False)
             for _ in range(CAMERA_STREAMS_PER_CLIENT)]
    assert all(r.status_code == 200 for r in open_)
    assert client.get("/camera.mjpg?seconds=5", environ_base=far).status_code == 503
    for r in open_:
        r.close()
    assert client.get("/camera.mjpg?seconds=1", environ_base=far, buffered=False).status_code == 200


def _spool_bytes() -> int:
    total = 0
    for p in Path(tempfile.gettempdir()).iterdir():
        try:
            if p.is_file():
                total += p.stat().st_size
        except OSError:
            pass
    return total


def test_a_300_mb_post_is_refused_from_its_headers_without_being_read(server):
    before = _spool_bytes()
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    try:
        s.sendall(b"POST /api/submit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 314572800\r\n\r\n" + b"[" * 65536)
        reply = s.recv(4096)
        assert reply.startswith(b"HTTP/1.1 413"), reply[:80]
    finally:
        s.close()
    assert _spool_bytes() - before < 1_000_000, "nothing was spooled to disk"


def test_a_chunked_body_is_cut_off_at_the_servers_limit(server):
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sent = 0
    reply = b""
    try:
        s.sendall(b"POST /api/submit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b"10000\r\n" + b"[" * 0x10000 + b"\r\n"
        s.settimeout(0.05)
        deadline = time.monotonic() + 15
        while sent < 300_000_000 and time.monotonic() < deadline:  # up to 300 MB, 15 s at most
            try:
                s.sendall(chunk)
                sent += len(chunk)
            except OSError:
                break
            try:
                reply = s.recv(4096)
                if reply:
                    break
            except socket.timeout:
                pass
    finally:
        s.close()
    assert reply.startswith(b"HTTP/1.1 413") or sent < 4_000_000, (sent, reply[:80])
    assert sent < 4_000_000, f"{sent} bytes were accepted"


# ---------------------------------------------------------------- DNS rebinding


def test_only_the_hubs_own_names_are_answered(server):
    port = server.port
    status, body = _get(port, "/api/state", host=f"evil.example:{port}")
    assert status == 421 and b"does not answer to the name" in body
    assert _get(port, "/", host="attacker.test")[0] == 421
    # the hub's mDNS name is its own host name's (tablehub.local on a Pi the installer named "tablehub")
    for host in (f"127.0.0.1:{port}", "localhost", f"[::1]:{port}", f"{socket.gethostname()}.local"):
        assert _get(port, "/api/state", host=host)[0] == 200, host
    from web.security import own_addresses

    for ip in sorted(own_addresses())[:3]:
        shown = f"[{ip}]" if ":" in ip else ip
        assert _get(port, "/api/state", host=shown)[0] == 200, ip


def test_names_from_the_settings_are_answered(tmp_path):
    from web import Hub, create_app

    hub = Hub(Store(tmp_path / "g.sqlite"), pin=PIN, hostnames=("tablehub.local", "games.home.arpa"))
    client = create_app(hub).test_client()
    assert client.get("/api/state", headers={"Host": "games.home.arpa"}).status_code == 200
    assert client.get("/api/state", headers={"Host": "other.home.arpa"}).status_code == 421


# ---------------------------------------------------------------- a busy port


def test_a_busy_port_is_one_line_naming_the_port_and_the_option(hub):
    from web.server import BackgroundServer

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        with pytest.raises(TablehubError, match=rf"port {port} is in use.*--port"):
            BackgroundServer(hub, port=port)
        with pytest.raises(TablehubError, match="1 to 65535"):
            BackgroundServer(hub, port=99999)
    finally:
        taken.close()
