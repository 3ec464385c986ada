"""Every JSON route, and every refusal: PIN, CSRF, JSON, rules, set-up validation."""
from __future__ import annotations

import pytest

from .conftest import PIN, Phone


# ---------------------------------------------------------------- reading needs nothing


def test_state_is_readable_by_anyone(client, neuesland):
    snap = client.get("/api/state").get_json()
    assert snap["game"]["players"][0]["name"] == "Ana"
    assert snap["version"] == neuesland.version


def test_the_board_picture_is_svg_and_cached_by_version(client, neuesland):
    first = client.get("/api/board.svg")
    assert first.status_code == 200 and first.mimetype == "image/svg+xml"
    laid = sum(1 for h in neuesland.snapshot()["game"]["history"] if h["action"]["type"] == "place_tile")
    assert first.data.count(b'class="tile"') == laid + 1, "every laid tile and the start tile are drawn"
    again = client.get("/api/board.svg", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


def test_the_board_without_a_game_is_a_clean_placeholder(client):
    svg = client.get("/api/board.svg").data.decode()
    assert "No board to draw" in svg
    assert client.get("/api/board.json").get_json() == {"view": {"kind": "none"}, "legend": []}


def test_board_json_gives_the_view_and_a_terrain_legend(client, neuesland):
    data = client.get("/api/board.json").get_json()
    assert data["view"]["kind"] == "tiles"
    assert {t["name"] for t in data["legend"]} == {"plain", "mountain", "sea"}


def test_forms_describe_every_action_of_the_game(client, neuesland):
    data = client.get("/api/forms").get_json()
    types = {f["type"]: f for f in data["forms"]}
    assert set(types) >= {"place_tile", "place_figure", "score_figure"}
    fields = {f["name"]: f["kind"] for f in types["place_tile"]["fields"]}
    assert fields == {"tile": "str", "x": "int", "y": "int", "rotation": "int"}
    assert "ds002" in data["hints"]["tile"] or data["hints"]["tile"], "tile ids still in the box are suggested"


def test_forms_without_a_game_are_refused(client):
    resp = client.get("/api/forms")
    assert resp.status_code == 409 and "no game is running" in resp.get_json()["error"]


def test_legal_moves_are_filtered_by_the_query(client, neuesland, nl_actions):
    tile = nl_actions[12]["tile"]
    moves = client.get(f"/api/legal?type=place_tile&tile={tile}&limit=5").get_json()["actions"]
    assert 0 < len(moves) <= 5 and all(m["tile"] == tile for m in moves)
    assert client.get("/api/legal?limit=lots").status_code == 400


def test_games_lists_what_can_be_played_and_what_is_saved(client, neuesland):
    data = client.get("/api/games").get_json()
    names = {g["name"]: g for g in data["available"]}
    assert names["neuesland"]["available"] and names["neuesland"]["max_players"] >= 3
    assert data["saved"][0]["current"] and data["current"] == neuesland.session.game_id


def test_me_tells_a_phone_whether_it_is_unlocked(client, player):
    assert client.get("/api/me").get_json()["unlocked"] is True


# ---------------------------------------------------------------- the PIN and CSRF


def test_a_change_without_json_is_refused(phone, neuesland):
    resp = phone.client.post("/api/submit", data="type=place_tile", headers={"X-CSRF-Token": phone.csrf})
    assert resp.status_code == 415 and "JSON" in resp.get_json()["error"]


def test_a_change_without_the_csrf_token_is_refused(player, neuesland, nl_actions):
    resp = player.client.post("/api/submit", json={"action": nl_actions[12]})
    assert resp.status_code == 403 and "security token" in resp.get_json()["error"]
    resp = player.post("/api/submit", {"action": nl_actions[12]}, **{"X-CSRF-Token": "forged"})
    assert resp.status_code == 403


def test_a_change_without_the_pin_is_refused_and_changes_nothing(phone, neuesland, nl_actions):
    before = neuesland.snapshot()
    resp = phone.post("/api/submit", {"action": nl_actions[12]})
    assert resp.status_code == 401 and "PIN" in resp.get_json()["error"]
    assert neuesland.snapshot() == before


def test_a_wrong_pin_is_refused_and_guessing_is_slowed_down(phone, hub):
    for _ in range(hub.access.free + 1):
        resp = phone.unlock("0000")
        assert resp.status_code == 403 and "wrong PIN" in resp.get_json()["error"]
    resp = phone.unlock(PIN)
    assert resp.status_code == 429 and "too many wrong PINs" in resp.get_json()["error"]


def test_unlock_then_lock(phone, neuesland, nl_actions):
    assert phone.unlock().get_json()["unlocked"] is True
    assert phone.post("/api/lock").get_json()["unlocked"] is False
    assert phone.post("/api/submit", {"action": nl_actions[12]}).status_code == 401


def test_a_changed_pin_locks_phones_unlocked_with_the_old_one(player, hub, neuesland, nl_actions):
    hub.pin = "9999"
    assert player.post("/api/submit", {"action": nl_actions[12]}).status_code == 401


def test_scripts_may_send_the_pin_as_a_header_instead(client, neuesland, nl_actions):
    ok = client.post("/api/submit", json={"action": nl_actions[12]}, headers={"X-Tablehub-Pin": PIN})
    assert ok.status_code == 200
    bad = client.post("/api/submit", json={"action": nl_actions[13]}, headers={"X-Tablehub-Pin": "1111"})
    assert bad.status_code == 403 and "X-Tablehub-Pin" in bad.get_json()["error"]


# ---------------------------------------------------------------- playing


def test_a_legal_move_is_played_and_logged_from_the_phone(player, neuesland, nl_actions):
    resp = player.post("/api/submit", {"action": nl_actions[12]})
    assert resp.status_code == 200 and resp.get_json()["ok"] is True
    last = neuesland.snapshot()["game"]["history"][-1]
    assert last["action"] == nl_actions[12] and last["source"] == "phone"


def test_a_bare_action_body_is_accepted_too(player, neuesland, nl_actions):
    assert player.post("/api/submit", nl_actions[12]).status_code == 200


def test_an_illegal_move_is_refused_with_the_rule_and_changes_nothing(player, neuesland, nl_actions):
    before = neuesland.snapshot()
    resp = player.post("/api/submit", {"action": dict(nl_actions[12], x=50, y=50)})
    assert resp.status_code == 409
    error = resp.get_json()["error"]
    assert error and "\n" not in error
    assert neuesland.snapshot() == before


@pytest.mark.parametrize("action, words", [
    ({"type": "fly"}, "unknown action type"),
    ({"type": "place_tile", "tile": "ds002", "x": "one", "y": 0}, "field 'x' must be a whole number"),
    ({"type": "place_tile", "x": 1, "y": 0}, "missing field 'tile'"),
    ({"type": "place_tile", "tile": "ds002", "x": 1, "y": 0, "colour": "red"}, "unknown field"),
])
def test_a_malformed_action_gets_a_clear_message(player, neuesland, action, words):
    resp = player.post("/api/submit", {"action": action})
    assert resp.status_code == 400 and words in resp.get_json()["error"]


def test_a_body_that_is_not_an_action_is_refused(player, neuesland):
    assert player.post("/api/submit", {"move": 1}).status_code == 400
    resp = player.client.post("/api/submit", data="[1, 2]", content_type="application/json",
                              headers={"X-CSRF-Token": player.csrf})
    assert resp.status_code == 400 and "JSON object" in resp.get_json()["error"]


def test_check_says_whether_a_move_is_legal_without_playing_it(player, neuesland, nl_actions):
    ok = player.post("/api/check", {"action": nl_actions[12]}).get_json()
    assert ok["legal"] is True and ok["reason"] is None
    bad = player.post("/api/check", {"action": dict(nl_actions[12], x=50)}).get_json()
    assert bad["legal"] is False and bad["reason"]
    assert player.post("/api/check", {}).status_code == 400
    assert neuesland.snapshot()["game"]["actions"] == 12


def test_undo_the_last_turn_or_action(player, neuesland):
    n = neuesland.snapshot()["game"]["actions"]
    resp = player.post("/api/undo", {"scope": "action"})
    assert resp.status_code == 200 and len(resp.get_json()["undone"]) == 1
    assert neuesland.snapshot()["game"]["actions"] == n - 1
    assert player.post("/api/undo", {}).status_code == 200  # a turn by default
    bad = player.post("/api/undo", {"scope": "all"})
    assert bad.status_code == 409 and "'turn' or 'action'" in bad.get_json()["error"]


def test_undo_with_nothing_played_is_refused(player, hub):
    from tablehub.games.base import Setup

    hub.start(Setup("neuesland", ("Ana", "Ben")))
    resp = player.post("/api/undo", {"scope": "turn"})
    assert resp.status_code == 400 and "nothing to undo" in resp.get_json()["error"]


def test_accepting_a_suggestion(player, neuesland, nl_actions):
    offer = neuesland.offer([(nl_actions[12], 0.7), (dict(nl_actions[12], x=60), 0.2)])
    assert player.post("/api/offer/accept", {"offer": offer, "index": "0"}).status_code == 400
    assert player.post("/api/offer/accept", {"offer": offer, "index": True}).status_code == 400
    stale = player.post("/api/offer/accept", {"offer": offer + 5, "index": 0})
    assert stale.status_code == 409 and "no longer current" in stale.get_json()["error"]
    refused = player.post("/api/offer/accept", {"offer": offer, "index": 1})
    assert refused.status_code == 409, "a suggestion the rules refuse cannot be played"
    assert player.post("/api/offer/accept", {"offer": offer, "index": 0}).status_code == 200
    assert neuesland.snapshot()["offer"] is None


def test_dismissing_a_suggestion_and_a_flag(player, neuesland, nl_actions):
    neuesland.offer([nl_actions[12]])
    neuesland.flag("tile does not fit", 1, 1)
    assert player.post("/api/offer/dismiss").status_code == 200
    assert player.post("/api/flag/clear").status_code == 200
    snap = neuesland.snapshot()
    assert snap["offer"] is None and snap["flag"] is None


# ---------------------------------------------------------------- set-up


def test_start_a_game_from_the_phone(player, hub):
    resp = player.post("/api/game/start", {"game": "neuesland", "players": [" Ana ", "Ben  Bo"],
                                           "colors": ["Red", "blue"], "options": {}})
    assert resp.status_code == 200
    game = hub.snapshot()["game"]
    assert game["id"] == resp.get_json()["id"]
    assert [(p["name"], p["colour"]) for p in game["players"]] == [("Ana", "red"), ("Ben Bo", "blue")]


@pytest.mark.parametrize("body, status, words", [
    ({"players": ["A", "B"]}, 400, "choose a game"),
    ({"game": "neuesland", "players": "Ana, Ben"}, 400, "list of names"),
    ({"game": "neuesland", "players": ["Ana", " "]}, 400, "player 2 needs a name"),
    ({"game": "neuesland", "players": ["Ana", "B" * 30]}, 400, "longer than 24"),
    ({"game": "neuesland", "players": ["Ana", "Ben"], "colors": ["red"]}, 400, "one colour per player"),
    ({"game": "neuesland", "players": ["Ana", "Ben"], "colors": [1, 2]}, 400, "colour names"),
    ({"game": "neuesland", "players": ["Ana", "Ben"], "options": []}, 400, "options must be an object"),
    ({"game": "neuesland", "players": ["Ana", "Ben"], "options": {"catalog": "/etc/passwd"}}, 400,
     "names a file on the hub"),
    ({"game": "neuesland", "players": ["Ana", "Ben"], "options": {"speed": 3}}, 400, "unknown option"),
    ({"game": "chess", "players": ["Ana", "Ben"]}, 400, "unknown game"),
    ({"game": "neuesland", "players": ["Ana"]}, 400, "players"),
    ({"game": "neuesland", "players": ["Ana", "Ana"]}, 400, "distinct"),
])
def test_a_bad_setup_gets_a_clear_message(player, hub, body, status, words):
    resp = player.post("/api/game/start", body)
    assert resp.status_code == status and words in resp.get_json()["error"]
    assert hub.snapshot()["game"] is None


def test_end_reopen_close_and_resume(player, neuesland):
    game_id = neuesland.session.game_id
    assert player.post("/api/game/end").status_code == 200
    assert neuesland.snapshot()["game"]["finished"]
    assert player.post("/api/game/end").status_code == 409
    assert player.post("/api/game/reopen").status_code == 200
    assert player.post("/api/game/close").status_code == 200
    assert neuesland.snapshot()["game"] is None
    assert player.post("/api/game/end").status_code == 409
    resp = player.post("/api/game/resume", {"id": None})
    assert resp.status_code == 200 and resp.get_json()["id"] == game_id
    assert player.post("/api/game/resume", {"id": "1"}).status_code == 400
    assert player.post("/api/game/resume", {"id": 77}).status_code == 400


def test_commands_need_the_pin_and_report_back(app, player, hub):
    hub.register_command("enrol", "Enrol this tile", lambda: "ds017 learned", screen="enrolment")
    stranger = Phone(app.test_client())
    assert stranger.post("/api/command/enrol").status_code == 401
    resp = player.post("/api/command/enrol")
    assert resp.get_json()["message"] == "ds017 learned"
    assert player.post("/api/command/nope").status_code == 409


def test_unknown_api_paths_answer_in_json(client):
    resp = client.get("/api/nothing")
    assert resp.status_code == 404 and resp.get_json()["ok"] is False
    assert client.get("/api/submit").status_code == 405
