"""The one place where ``[venue]`` settings become a paho-mqtt 2.x client.

paho runs its own network thread (``loop_start``) which reconnects by itself, backing
off from 1 to 30 seconds; QoS 1 messages published while the broker is away wait in
paho's queue and go out in order once it is back.
"""
from __future__ import annotations

import ssl
from typing import Any

from ..config import ConfigError, VenueConfig

#: reconnect back-off (seconds): doubles from the first to the second
RECONNECT_DELAY = (1, 30)


def make_client(settings: VenueConfig, client_id: str = "", *, will: tuple[str, bytes] | None = None,
                max_queued: int = 0) -> Any:
    """A connected-on-demand paho client for ``settings`` (call ``connect_async`` and ``loop_start``).

    ``will``: ``(topic, payload)`` the broker publishes (QoS 1, retained) if this client
    vanishes without saying goodbye. ``max_queued``: messages kept while disconnected
    (0: no limit).
    """
    try:
        import paho.mqtt.client as mqtt
    except ImportError:  # pragma: no cover - a dependency of the package
        raise ConfigError("[venue] needs paho-mqtt 2.x (pip install 'paho-mqtt>=2.0')") from None
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311,
                         clean_session=True)
    if settings.username:
        client.username_pw_set(settings.username, settings.password or None)
    if settings.tls:
        try:
            client.tls_set(ca_certs=settings.ca_file or None, cert_reqs=ssl.CERT_REQUIRED,
                           tls_version=ssl.PROTOCOL_TLS_CLIENT)
        except (OSError, ssl.SSLError) as exc:
            raise ConfigError(f"[venue] ca_file = {settings.ca_file!r}: cannot load it as a CA ({exc})") from None
    if will is not None:
        client.will_set(will[0], will[1], qos=1, retain=True)
    client.reconnect_delay_set(*RECONNECT_DELAY)
    client.max_queued_messages_set(max_queued)
    client.max_inflight_messages_set(100)
    return client
