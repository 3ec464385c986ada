"""Many tables, one venue: each hub publishes its game over MQTT, a venue board shows them all.

- :mod:`.payloads`: topics and the versioned JSON messages (schema: ``schema.json`` beside it)
- :mod:`.publisher`: :class:`VenuePublisher`, the hub's side (a queue and paho's network thread;
  the session's listeners only enqueue)
- :mod:`.board`: :class:`VenueBoard`, the tables, the finished games and the standings, built
  only from what arrives over MQTT; :class:`BoardListener` feeds it from the broker
- :mod:`.mqtt`: one place that turns ``[venue]`` settings into a paho client (credentials, TLS)

Nothing received over MQTT changes a game: the hub subscribes to nothing. See docs/venue.md.
"""
from __future__ import annotations

from .payloads import SCHEMA_VERSION, schema
from .publisher import VenuePublisher, start_publishing

__all__ = ["SCHEMA_VERSION", "VenuePublisher", "schema", "start_publishing"]
