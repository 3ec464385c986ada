"""The page's photo upload in parts (web/views/photoscore.py): what is held, for whom, and for how long. The
reading itself is tested on rendered photos in tests/vision/test_photoscore.py."""
from __future__ import annotations

import json

from .conftest import PIN

HEADERS = {"X-Tablehub-Pin": PIN, "Content-Type": "application/json"}


def _part(client, index, data, addr):
    return client.post("/api/photoscore/part", data=json.dumps({"index": index, "data": data}), headers=HEADERS,
                       environ_base={"REMOTE_ADDR": addr})


def test_parts_are_held_per_address_and_a_fifth_address_drops_the_oldest(client, hub):
    from tablehub.photo import photo_scorer

    hub.photo_scorer = photo_scorer(lambda game: "nowhere")
    for k in range(5):
        addr = f"10.0.0.{k + 1}"
        assert _part(client, 0, "iVBORw0KGgo=", addr).get_json() == {"ok": True, "parts": 1}
    first = client.post("/api/photoscore", data=json.dumps({"game": "neuesland"}), headers=HEADERS,
                        environ_base={"REMOTE_ADDR": "10.0.0.1"})
    assert first.status_code == 400 and "in parts" in first.get_json()["error"]     # dropped for the fifth
    last = client.post("/api/photoscore", data=json.dumps({"game": "neuesland"}), headers=HEADERS,
                       environ_base={"REMOTE_ADDR": "10.0.0.5"})
    assert last.status_code == 400 and "not a readable image" in last.get_json()["error"]   # its own parts, read


def test_a_part_too_long_or_out_of_order_is_refused(client):
    assert _part(client, 0, "A" * 60_001, "10.0.0.9").status_code == 400
    assert _part(client, 0, "AAAA", "10.0.0.9").status_code == 200
    assert _part(client, 2, "AAAA", "10.0.0.9").status_code == 409
    assert _part(client, 256, "AAAA", "10.0.0.9").status_code == 400


def test_without_references_set_up_the_page_says_so(client, hub):
    resp = client.post("/api/photoscore", data=json.dumps({"photo": "iVBORw0KGgo=", "game": "suedsee"}),
                       headers=HEADERS)
    assert resp.status_code == 409 and "not set up" in resp.get_json()["error"]
