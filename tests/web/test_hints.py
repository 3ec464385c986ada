"""GET /api/hints: 'Where can it go?' for the board picture (the engines' side: tests/core/test_hints.py)."""
from __future__ import annotations

import json
import re
from html import unescape
from typing import Any, Callable

import pytest

from tablehub.games.base import Setup, hinted_actions


def _places_in(svg: str) -> list[list[dict[str, Any]]]:
    """The moves each drawn hint carries (``data-actions``), in drawing order."""
    return [json.loads(unescape(m)) for m in re.findall(r'<g class="hint" [^>]*data-actions="([^"]*)"', svg)]


def _next_tile(hub, actions: list[dict[str, Any]], done: int) -> dict[str, Any]:
    return next(a for a in actions[done:] if a["type"] == "place_tile")


def test_hints_need_no_pin_and_are_the_engines_own(neuesland, phone, nl_actions):
    lay = _next_tile(neuesland, nl_actions, 12)
    resp = phone.client.get(f"/api/hints?piece={lay['tile']}")
    assert resp.status_code == 200, resp.get_json()
    data = resp.get_json()
    with neuesland.session.lock:
        own = neuesland.session.game.hints(lay["tile"])
    assert data["places"] == own["places"] and data["count"] == len(own["places"]) > 0
    assert data["source"] == "asked" and data["piece"] == lay["tile"] and data["kind"] == "tiles"
    assert lay in hinted_actions(data)  # the move the playout made next is among the hints
    drawn = _places_in(data["svg"])
    assert [p for places in drawn for p in places] == hinted_actions(data)
    looks = sum(len(p["rotations"]) for p in data["places"])
    assert data["svg"].count('class="hint-look"') == looks
    assert data["game_version"] == neuesland.game_version() and data["ms"] >= 0


@pytest.mark.parametrize("query,field", [
    ("x=1", "'x'"), ("piece=", "piece"), ("piece=" + "a" * 41, "piece"), ("piece=%C2%B2", "piece"),
    ("piece=nope", "piece"), ("piece=ds017&tile=ds017", "'tile'"), ("piece=%00", "piece"),
])
def test_bad_queries_are_400s_naming_the_field(neuesland, client, query, field):
    resp = client.get(f"/api/hints?{query}")
    assert resp.status_code == 400, (query, resp.get_json())
    error = resp.get_json()["error"]
    assert field in error and "\n" not in error


def test_no_game_is_a_409(client):
    resp = client.get("/api/hints")
    assert resp.status_code == 409 and "no game" in resp.get_json()["error"]


def test_without_a_piece_the_pending_tile_is_hinted(neuesland, client, nl_actions):
    lay = _next_tile(neuesland, nl_actions, 12)
    assert client.get("/api/hints").get_json()["places"] == []  # nothing drawn, nothing pending: no guess
    neuesland.pending([lay], note="read by the camera")
    data = client.get("/api/hints").get_json()
    assert data["source"] == "pending" and data["piece"] == lay["tile"]
    assert lay in hinted_actions(data)
    # the hints are for the game before the pending tile: its own cell is still among them
    assert any((p["x"], p["y"]) == (lay["x"], lay["y"]) for p in data["places"])


def test_a_pending_tile_the_set_lacks_is_said_not_refused(neuesland, client, nl_actions):
    lay = dict(_next_tile(neuesland, nl_actions, 12), tile="zz999")
    neuesland.pending([lay], note="misread")
    resp = client.get("/api/hints")
    assert resp.status_code == 200
    data = resp.get_json()
    assert data["places"] == [] and "zz999" in data["note"] and data["source"] == "pending"


def test_hints_are_cached_per_game_version(neuesland, client, nl_actions):
    lay = _next_tile(neuesland, nl_actions, 12)
    first = client.get(f"/api/hints?piece={lay['tile']}").get_json()
    again = client.get(f"/api/hints?piece={lay['tile']}").get_json()
    assert (first["cached"], again["cached"]) == (False, True) and again["places"] == first["places"]
    neuesland.submit(lay, source="camera")
    after = client.get(f"/api/hints?piece={lay['tile']}").get_json()
    assert after["cached"] is False and after["game_version"] != first["game_version"]
    assert lay not in hinted_actions(after)  # that cell is taken now


def test_a_finished_game_hints_nothing(neuesland, client, nl_actions):
    neuesland.end()
    tile = _next_tile(neuesland, nl_actions, 12)["tile"]
    data = client.get(f"/api/hints?piece={tile}").get_json()
    assert data["places"] == [] and data["note"] == "the game is over"


def _replay_until(hub, actions: list[Any], stop: Callable[[Any], bool]) -> None:
    for a in actions:
        with hub.session.lock:
            if stop(hub.session.game):
                return
        hub.submit(a.to_dict(), source="phone")
    raise AssertionError("the position never came")


def test_tahiti_hints_draw_the_cells_a_boat_may_take(hub, client):
    from tablehub.games.tahiti.actions import PlaceBoat
    from tablehub.games.tahiti.playout import random_game

    done = random_game(2, seed=2)
    hub.start(Setup("tahiti", ("P1", "P2")))
    _replay_until(hub, done.history, lambda g: any(isinstance(a, PlaceBoat) for a in g.legal_actions()))
    data = client.get("/api/hints").get_json()
    cells = {p["cell"] for p in data["places"]}
    assert cells and set(re.findall(r'<g class="hint" data-hint-cell="(\w+)"', data["svg"])) == cells


def test_karibik_hints_draw_the_spaces_the_ship_may_reach(hub, client):
    from tablehub.games.karibik.engine import MOVE
    from tablehub.games.karibik.playout import random_game

    done = random_game(2, seed=4)
    hub.start(Setup("karibik", ("P1", "P2")))
    _replay_until(hub, done.history, lambda g: g.phase == MOVE and g.allowance - g.steps > 1)
    data = client.get("/api/hints").get_json()
    spaces = {p["space"] for p in data["places"]}
    with hub.session.lock:
        reach = set(hub.session.game.view()["reachable"])
    assert spaces and spaces == reach
    assert set(map(int, re.findall(r'<g class="hint" data-hint-space="(\d+)"', data["svg"]))) == spaces


def test_sunda_hints_draw_the_chosen_piece_each_way(hub, client):
    hub.start(Setup("sunda", ("Ana", "Ben")))
    with hub.session.lock:
        piece = sorted(hub.session.game.pool)[0]
    data = client.get(f"/api/hints?piece={piece}").get_json()
    assert [(p["q"], p["r"]) for p in data["places"]] == [(0, 0)]  # the first piece: its corner at the origin
    turns = data["places"][0]["turns"]
    assert turns and data["svg"].count('class="hint-look"') == len(turns)
    assert client.get("/api/hints?piece=s9999").status_code == 400
