"""Fixtures for the web tests: a hub on a temporary store, the Flask test client, and
games in progress built from the engines' own random playouts (no fake engines)."""
from __future__ import annotations

from typing import Any

import pytest

from tablehub.games.base import Setup

PIN = "4821"
PLAYERS = ("Ana", "Ben", "Chloé")
COLOURS = ("red", "blue", "yellow")


@pytest.fixture()
def app(hub):
    from web import create_app

    return create_app(hub, heartbeat=0.2, stream_lifetime=2.0)


@pytest.fixture()
def client(app):
    return app.test_client()


class Phone:
    """A test client that loaded the page (so it holds a CSRF token) and sends JSON like the page."""

    def __init__(self, client: Any):
        self.client = client
        client.get("/")
        with client.session_transaction() as s:
            self.csrf = s["csrf"]

    def post(self, path: str, body: Any = None, **headers: str):
        return self.client.post(path, json={} if body is None else body,
                                headers={"X-CSRF-Token": self.csrf, **headers})

    def unlock(self, pin: str = PIN):
        return self.post("/api/unlock", {"pin": pin})


@pytest.fixture()
def phone(client):
    """A phone that has not entered the PIN."""
    return Phone(client)


@pytest.fixture()
def player(client):
    """A phone unlocked with the table PIN."""
    p = Phone(client)
    assert p.unlock().status_code == 200
    return p


def neuesland_actions(seed: int = 3) -> list[dict[str, Any]]:
    """The actions of a random legal Neues Land game (3 players), as dicts."""
    from tablehub.games.tiles.playout import PlayoutStats, random_game

    stats = PlayoutStats()
    random_game("neuesland", players=3, seed=seed, stats=stats, finish=False)
    return [a.to_dict() for a in stats.actions]


@pytest.fixture(scope="session")
def nl_actions() -> list[dict[str, Any]]:
    return neuesland_actions()


def first_scoring_index(actions: list[dict[str, Any]]) -> int:
    """Index of the first action that changes a score."""
    from tablehub.games import new_game

    game = new_game(Setup("neuesland", PLAYERS, COLOURS))
    for i, a in enumerate(actions):
        if any(e.points for e in game.apply(game.parse_action(a))):
            return i
    raise AssertionError("no action of the playout scores")


@pytest.fixture()
def neuesland(hub, nl_actions):
    """A Neues Land game on the hub, started, with the first 12 actions played by the camera."""
    hub.start(Setup("neuesland", PLAYERS, COLOURS))
    for a in nl_actions[:12]:
        hub.submit(a, source="camera")
    return hub


@pytest.fixture()
def tahiti(hub):
    hub.start(Setup("tahiti", ("Ana", "Ben"), ("red", "blue")))
    return hub
