"""Pictures: QR codes (join the page, unlock with the PIN) and the camera preview."""
from __future__ import annotations

import io
import time
from typing import Iterator

import segno
from flask import Blueprint, Response, current_app, request

from tablehub.i18n import T, drawn_in
from tablehub.lan import lan_ip

from .. import language, security
from ..hub import PREVIEW_OVERLAYS
from ..limits import Held, Slots
from ..security import ApiError, hub

bp = Blueprint("media", __name__)

#: an MJPEG stream ends after this many seconds (the page reopens it), so no thread is held forever
MJPEG_SECONDS = 120
MJPEG_FPS = 4


def local_ip() -> str | None:
    """This machine's address on the local network (no packet is sent)."""
    return lan_ip()


def join_urls() -> list[dict[str, str]]:
    """The addresses a phone can open: each hub hostname, then the IP address."""
    h = hub()
    port = request.host.rpartition(":")[2] if ":" in request.host else ""
    if not port.isdigit():
        port = str(h.port) if h.port else ""
    suffix = f":{port}" if port and port != "80" else ""
    out = [{"via": name, "url": f"http://{name}{suffix}/"} for name in h.hostnames]
    ip = local_ip()
    if ip and not ip.startswith("127."):
        out.append({"via": "ip", "url": f"http://{ip}{suffix}/"})
    else:
        out.append({"via": "ip", "url": f"{request.host_url}"})
    return out


def _qr_svg(data: str) -> Response:
    buf = io.BytesIO()
    segno.make(data, error="m").save(buf, kind="svg", scale=6, border=2, dark="#111", light="#fff",
                                     xmldecl=False, svgns=True)
    return Response(buf.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@bp.get("/qr/join.svg")
def qr_join() -> Response:
    via = request.args.get("via", hub().hostnames[0] if hub().hostnames else "ip")
    for u in join_urls():
        if u["via"] == via:
            return _qr_svg(u["url"])
    raise ApiError(404, T("no join address called {via}", via=repr(via)))


def unlock_url() -> str:
    return f"{join_urls()[-1]['url']}unlock?pin={hub().pin}"


@bp.get("/qr/pin.svg")
def qr_pin() -> Response:
    """The QR code that carries the PIN: for the hub's own screen and for unlocked phones only."""
    if not (security.is_unlocked() or security.is_loopback()):
        raise ApiError(403, T("only a phone that already has the PIN (or the hub itself) can show the PIN code"))
    return _qr_svg(unlock_url())


def _overlay() -> str:
    overlay = request.args.get("overlay", "live")
    if overlay not in PREVIEW_OVERLAYS:
        raise ApiError(400, T("overlay must be one of {overlays}, got {overlay}", overlays=", ".join(PREVIEW_OVERLAYS),
                              overlay=repr(overlay)))
    return overlay


@bp.get("/camera.jpg")
def camera_jpg() -> Response:
    h = hub()
    security.may_see_camera()
    overlay = _overlay()
    if h.camera_preview is None:
        raise ApiError(404, T("this hub has no camera"))
    with drawn_in(language.current()):  # the preview's drawn lines in the phone's language
        frame = h.preview(overlay)
    if not frame:
        raise ApiError(503, T("no camera frame yet"))
    return Response(frame, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/camera.mjpg")
def camera_mjpg() -> Response:
    """A live MJPEG stream; each holds a server thread, so they are capped (web.CAMERA_STREAMS)."""
    h = hub()
    security.may_see_camera()
    overlay = _overlay()
    if h.camera_preview is None:
        raise ApiError(404, T("this hub has no camera"))
    raw = request.args.get("seconds", str(MJPEG_SECONDS))
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 6):
        raise ApiError(400, T("seconds must be a whole number of seconds (1 to {most})", most=MJPEG_SECONDS))
    seconds = max(1, min(MJPEG_SECONDS, int(raw)))
    slots: Slots = current_app.extensions["tablehub.camera_slots"]
    release = slots.take(security.client_id())

    lang = language.current()

    def frames() -> Iterator[bytes]:
        end = time.monotonic() + seconds
        while time.monotonic() < end and not h.bus.closed:
            with drawn_in(lang):
                frame = h.preview(overlay)
            if frame:
                yield (b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + str(len(frame)).encode()
                       + b"\r\n\r\n" + frame + b"\r\n")
            time.sleep(1 / MJPEG_FPS)

    return Response(Held(frames(), release), mimetype="multipart/x-mixed-replace; boundary=frame",
                    headers={"Cache-Control": "no-store"})
