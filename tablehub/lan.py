"""Where phones find this machine: its address on the local network and its mDNS name.

Phones cannot open ``localhost``: the demo prints (and the join page shows) the
machine's LAN address and ``<hostname>.local`` (avahi announces the host name; on a
Pi set up by ``scripts/install-pi.sh`` that is ``tablehub.local``).
"""
from __future__ import annotations

import socket


def lan_ip() -> str | None:
    """This machine's address on the local network, or ``None`` when it has none (no packet is sent:
    connecting a UDP socket only asks the routing table which address it would use)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.254.254.254", 1))
        ip = str(s.getsockname()[0])
    except OSError:
        return None
    finally:
        s.close()
    return None if ip.startswith("127.") or ip == "0.0.0.0" else ip


def mdns_name(hostname: str | None = None) -> str:
    """``<host>.local``: the name avahi announces for this machine (its short host name)."""
    short = (hostname if hostname is not None else socket.gethostname()).split(".")[0] or "localhost"
    return f"{short}.local"


def url(host: str, port: int) -> str:
    return f"http://{host}/" if port == 80 else f"http://{host}:{port}/"


def page_urls(port: int, bind: str = "0.0.0.0") -> list[str]:
    """The addresses of a page served on ``bind``:``port``, the ones a phone can open first
    (the LAN address, then the mDNS name); only ``localhost`` when the page listens on loopback
    or the machine has no network."""
    if bind not in ("", "0.0.0.0", "::"):
        if bind.startswith("127.") or bind in ("localhost", "::1"):
            return [url("localhost", port)]
        return [url(bind, port)]
    ip = lan_ip()
    if ip is None:
        return [url("localhost", port)]
    return [url(ip, port), url(mdns_name(), port)]
