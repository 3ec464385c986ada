"""HTML pages, QR codes, the camera preview and the event stream, through the Flask test client."""
from __future__ import annotations

import json
import re

import pytest

from web import Hub, create_app

from .conftest import PIN

LAN = {"REMOTE_ADDR": "192.168.1.50"}


@pytest.mark.parametrize("path, words", [
    ("/", "Enter a move"), ("/setup", "New game"), ("/join", "Join the table"),
    ("/camera/calibration", "Calibration"), ("/camera/enrolment", "Enrolment: tiles, boards, pieces"),
])
def test_every_page_renders_with_its_own_assets_only(client, path, words):
    resp = client.get(path)
    html = resp.data.decode()
    assert resp.status_code == 200 and words in html
    assert 'name="csrf-token" content="' in html
    assert not re.search(r'(src|href)="(https?:)?//', html), "no external CDN: the table has no internet"
    assert "default-src 'self'" in resp.headers["Content-Security-Policy"]


def test_the_page_carries_the_current_state_for_a_fast_first_paint(client, neuesland):
    html = client.get("/").data.decode()
    state = json.loads(re.search(r'<script id="initial-state" type="application/json">(.*?)</script>', html, re.S)[1])
    assert state["game"]["players"][2]["name"] == "Chloé"


def test_static_assets_are_served(client):
    for path in ("/static/app.js", "/static/app.css", "/static/icon.svg"):
        assert client.get(path).status_code == 200


def test_an_unknown_camera_screen_is_not_found(client):
    assert client.get("/camera/xray").status_code == 404


def test_the_pin_qr_link_unlocks_the_phone(client):
    resp = client.get(f"/unlock?pin={PIN}", environ_base=LAN)
    assert resp.status_code == 302 and resp.headers["Location"].endswith("/")
    assert client.get("/api/me").get_json()["unlocked"] is True


def test_a_wrong_pin_link_says_so(client):
    resp = client.get("/unlock?pin=0000", environ_base=LAN)
    assert resp.status_code == 403 and "wrong PIN" in resp.data.decode()
    assert client.get("/api/me").get_json()["unlocked"] is False
    assert client.get("/unlock").status_code == 302, "without a PIN it leads to the join page"


def test_the_join_page_shows_the_pin_only_to_unlocked_phones_and_the_hub_itself(app, client):
    stranger = app.test_client()
    html = stranger.get("/join", environ_base=LAN).data.decode()
    assert PIN not in html and "Enter the PIN" in html
    assert PIN in client.get("/join").data.decode(), "the hub's own screen (loopback) shows the PIN"


def test_join_qr_codes_are_svg_for_every_address(client):
    from tablehub.lan import mdns_name

    ok = client.get(f"/qr/join.svg?via={mdns_name()}")
    assert ok.status_code == 200 and ok.mimetype == "image/svg+xml" and b"<svg" in ok.data
    assert client.get("/qr/join.svg?via=ip").status_code == 200
    assert client.get("/qr/join.svg?via=elsewhere").status_code == 404


def test_the_pin_qr_code_is_refused_to_strangers(app, client):
    stranger = app.test_client()
    assert stranger.get("/qr/pin.svg", environ_base=LAN).status_code == 403
    assert client.get("/qr/pin.svg").status_code == 200


def test_the_pin_qr_code_carries_the_pin(client):
    from web.views.media import unlock_url

    with client.application.test_request_context("/", base_url="http://tablehub.local:8080"):
        url = unlock_url()
    assert url.endswith(f"/unlock?pin={PIN}") and url.startswith("http://")


def test_no_camera_means_no_preview(client):
    resp = client.get("/camera.jpg")
    assert resp.status_code == 404 and "no camera" in resp.get_json()["error"]
    assert client.get("/camera.mjpg").status_code == 404


def test_the_camera_preview_as_jpeg_and_as_a_bounded_mjpeg_stream(store):
    frames = {"n": 0}

    def preview(overlay):
        frames["n"] += 1
        return b"\xff\xd8" + overlay.encode() + b"\xff\xd9"

    client = create_app(Hub(store, pin="1234", camera_preview=preview)).test_client()
    jpg = client.get("/camera.jpg?overlay=calibration")
    assert jpg.status_code == 200 and jpg.mimetype == "image/jpeg" and b"calibration" in jpg.data
    assert client.get("/camera.jpg?overlay=xray").status_code == 400
    assert client.get("/camera.mjpg?seconds=soon").status_code == 400
    mjpg = client.get("/camera.mjpg?overlay=enrolment&seconds=1")
    assert mjpg.status_code == 200 and mjpg.data.count(b"--frame") >= 2 and b"enrolment" in mjpg.data


def test_a_camera_without_a_frame_yet_says_so(store):
    client = create_app(Hub(store, pin="1234", camera_preview=lambda overlay: None)).test_client()
    resp = client.get("/camera.jpg")
    assert resp.status_code == 503 and "no camera frame yet" in resp.get_json()["error"]


# ---------------------------------------------------------------- the event stream


def _sse_events(text: str) -> list[dict]:
    out = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and not line.startswith(":"))
        if "event" in fields:
            out.append({"id": int(fields["id"]), "event": fields["event"], "data": json.loads(fields["data"])})
    return out


def test_the_event_stream_starts_with_the_state_and_pushes_each_change(client, neuesland, nl_actions):
    stream = client.get("/events", buffered=False)
    assert stream.mimetype == "text/event-stream" and stream.headers["Cache-Control"] == "no-cache"
    it = iter(stream.response)
    first = _sse_events(next(it).decode())
    assert first[0]["event"] == "state" and first[0]["data"]["game"]["actions"] == 12
    neuesland.submit(nl_actions[12])
    pushed = _sse_events(next(it).decode())
    assert pushed[0]["data"]["game"]["actions"] == 13
    stream.close()
    assert neuesland.bus.streams == 0, "a closed stream frees its slot"


def test_a_reconnect_with_last_event_id_resumes_after_it(client, neuesland, nl_actions):
    last = neuesland.bus.last_id
    neuesland.submit(nl_actions[12])
    neuesland.flag("not a fit", 0, 3)
    stream = client.get("/events", headers={"Last-Event-ID": str(last)}, buffered=False)
    events = _sse_events(next(iter(stream.response)).decode())
    stream.close()
    assert [e["id"] for e in events] == [neuesland.bus.last_id], "only the newest state is replayed"
    assert events[0]["data"]["flag"]["reason"] == "not a fit"


def test_the_stream_heartbeats_and_ends_by_itself(client, neuesland):
    stream = client.get("/events", buffered=False)
    chunks = list(stream.response)  # lifetime 2 s, heartbeat 0.2 s in the test app
    stream.close()
    assert chunks[0].startswith(b"retry: ") and b": ping" in chunks[1]
    assert neuesland.bus.streams == 0


def test_a_full_hub_answers_busy_instead_of_hanging(client, hub):
    hub.bus.max_streams = 1
    first = client.get("/events", buffered=False)
    next(iter(first.response))
    busy = client.get("/events")
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "5"
    assert "busy" in busy.get_json()["error"]
    first.close()


def test_serve_gives_waitress_enough_threads_for_the_streams(monkeypatch, hub):
    import waitress

    import web

    seen = {}
    monkeypatch.setattr(waitress, "serve", lambda app, **kw: seen.update(kw, app=app))
    web.serve(hub, host="127.0.0.1", port=8123, threads=40)
    assert seen["threads"] == 40 and seen["port"] == 8123 and seen["host"] == "127.0.0.1"
    assert hub.bus.max_streams == 40 - web.SPARE_THREADS - web.CAMERA_STREAMS, "page loads keep spare threads"
    assert hub.port == 8123 and hub.bus.closed, "the streams end when the server stops"
    assert web.threads_for(30) == 30 + web.SPARE_THREADS + web.CAMERA_STREAMS


def test_a_background_server_keeps_threads_free_for_page_loads(hub):
    from web.server import BackgroundServer

    srv = BackgroundServer(hub, threads=16)
    try:
        assert hub.bus.max_streams == 16 - 8 - 4
    finally:
        srv.stop()
