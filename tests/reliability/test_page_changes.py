"""Changes from the phone: a write the database refuses is a 503 "not saved ...; nothing changed"
(never a 500), a change made on a state that moved on is a 409 that changes nothing, and 20
phones pressing "undo" at once remove one action."""
from __future__ import annotations

import threading

import pytest


from .conftest import ACTIONS, SETUP, held_lock, log_of, quick_store

PIN = "4821"


@pytest.fixture()
def hub(db_path):
    from web import Hub

    store = quick_store(db_path)
    h = Hub(store, pin=PIN)
    h.start(SETUP)
    for a in ACTIONS[:3]:
        h.submit(a, source="camera")
    yield h
    h.shutdown()
    store.close()


@pytest.fixture()
def client(hub):
    from web import create_app

    return create_app(hub, heartbeat=0.2, stream_lifetime=2.0).test_client()


def post(client, path, body):
    return client.post(path, json=body, headers={"X-Tablehub-Pin": PIN})


def seen(client):
    return client.get("/api/state").get_json()


CHANGES = [
    ("/api/submit", {"action": ACTIONS[3]}),
    ("/api/undo", {"scope": "action"}),
    ("/api/undo", {"scope": "turn"}),
    ("/api/game/end", {}),
]


@pytest.mark.parametrize("path,body", CHANGES, ids=["submit", "undo-action", "undo-turn", "end"])
def test_a_change_the_database_refuses_is_a_503_that_changes_nothing(hub, client, db_path, path, body):
    before, log_before = seen(client), log_of(db_path)
    with held_lock(db_path):
        resp = post(client, path, body)
    assert resp.status_code == 503, resp.get_data(as_text=True)
    error = resp.get_json()["error"]
    assert error.startswith("not saved: ") and error.endswith("; nothing changed") and "Traceback" not in error
    after = seen(client)
    assert after["game"] == before["game"] and after["game_version"] == before["game_version"]
    assert log_of(db_path) == log_before
    assert "not saved" in after["status"].get("saving", ""), "every phone sees that the last change was not saved"
    assert post(client, path, body).status_code == 200, "the same change goes through once the lock is gone"
    assert "saving" not in seen(client)["status"]


def test_a_pending_turn_accepted_during_a_failure_logs_none_of_it(hub, client, db_path):
    hub.pending([ACTIONS[3]])
    offer = hub.offer([ACTIONS[4]])
    before, game_before = log_of(db_path), seen(client)["game"]
    with held_lock(db_path):
        resp = post(client, "/api/offer/accept", {"offer": offer, "index": 0})
    assert resp.status_code == 503 and log_of(db_path) == before
    assert seen(client)["game"] == game_before and len(hub.session.rows) == 3
    assert post(client, "/api/offer/accept", {"offer": offer, "index": 0}).status_code == 200
    assert [r.source for r in hub.session.rows] == ["camera"] * 4 + ["phone"]


def test_a_stale_version_is_refused_and_changes_nothing(hub, client, db_path):
    version = seen(client)["game_version"]
    assert post(client, "/api/submit", {"action": ACTIONS[3], "version": version}).status_code == 200
    before = log_of(db_path)
    resp = post(client, "/api/undo", {"scope": "turn", "version": version})  # drawn before the move above
    assert resp.status_code == 409 and resp.get_json()["error"].startswith("the game moved on")
    assert log_of(db_path) == before
    now = resp.get_json()["game_version"]
    assert post(client, "/api/undo", {"scope": "turn", "version": now}).status_code == 200


@pytest.mark.parametrize("path,body", [("/api/undo", {"scope": "action"}), ("/api/submit", {"action": ACTIONS[3]})],
                         ids=["undo", "submit"])
def test_twenty_phones_pressing_at_once_make_one_change(hub, path, body):
    from web.server import BackgroundServer
    import json
    import urllib.error
    import urllib.request

    version = hub.snapshot().get("game_version")  # what every phone's page shows
    rows_before = len(hub.session.rows)
    server = BackgroundServer(hub, port=0, threads=24)
    codes: list[int] = []
    go = threading.Barrier(20)

    def press() -> None:
        req = urllib.request.Request(server.url + path, data=json.dumps({**body, "version": version}).encode(),
                                     headers={"Content-Type": "application/json", "X-Tablehub-Pin": PIN})
        go.wait()
        try:
            with urllib.request.urlopen(req, timeout=20) as resp:
                codes.append(resp.status)
        except urllib.error.HTTPError as exc:
            codes.append(exc.code)

    try:
        threads = [threading.Thread(target=press) for _ in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        server.stop()
    assert sorted(codes) == [200] + [409] * 19, codes
    assert len(hub.session.rows) == rows_before + (1 if path == "/api/submit" else -1)


def test_a_version_from_another_game_is_refused(hub, client):
    version = seen(client)["game_version"]
    post(client, "/api/game/start", {"game": "neuesland", "players": ["Cy", "Di"]})
    resp = post(client, "/api/game/end", {"version": version})
    assert resp.status_code == 409 and not hub.session.game.finished
