"""The hub: the game's life cycle, the tracker's side (offers, flags, status, commands), history."""
from __future__ import annotations

import threading

import pytest

from tablehub.games.base import Setup, TablehubError
from web.hub import Hub, HubError

from .conftest import COLOURS, PLAYERS, first_scoring_index


def test_a_hub_without_a_game_says_so(hub):
    assert hub.snapshot()["game"] is None
    with pytest.raises(HubError, match="no game is running"):
        hub.submit({"type": "place_tile", "tile": "ds002", "x": 0, "y": 1})


def test_a_pin_is_made_up_when_none_is_given_and_bad_pins_are_refused(store):
    assert Hub(store).pin.isdigit() and len(Hub(store).pin) == 8
    with pytest.raises(HubError, match="4 to 12 digits"):
        Hub(store, pin="12a4")


def test_starting_a_game_shows_players_in_turn_order_with_colours(hub):
    hub.start(Setup("neuesland", PLAYERS, COLOURS))
    game = hub.snapshot()["game"]
    assert [(p["name"], p["colour"]) for p in game["players"]] == list(zip(PLAYERS, COLOURS))
    assert game["title"] and game["current"] == "Ana"
    assert game["players"][0]["resources"]["figures_in_supply"] == 4
    assert "tiles_left" in game["table"]


def test_every_camera_move_reaches_the_snapshot_with_who_played_it(neuesland, nl_actions):
    game = neuesland.snapshot()["game"]
    assert game["actions"] == 12
    history = game["history"]
    assert [h["action"] for h in history] == nl_actions[:12]
    assert all(h["source"] == "camera" for h in history)
    first_tiles = [h["player"] for h in history if h["action"]["type"] == "place_tile"][:3]
    assert first_tiles == ["Ana", "Ben", "Chloé"], "each tile is laid by the player whose turn it starts"


def test_moves_made_on_the_session_directly_also_reach_the_page(neuesland, nl_actions):
    """The tracker may talk to the session itself; the hub listens to it."""
    before = neuesland.version
    neuesland.session.submit(nl_actions[12], source="button")
    snap = neuesland.snapshot()
    assert snap["version"] > before and snap["game"]["history"][-1]["source"] == "button"


def test_the_history_of_a_resumed_game_matches_the_one_built_live(neuesland, nl_actions):
    live = neuesland.snapshot()["game"]["history"]
    game_id = neuesland.session.game_id
    neuesland.close()
    assert neuesland.snapshot()["game"] is None
    neuesland.resume(game_id)
    assert neuesland.snapshot()["game"]["history"] == live


def test_score_events_are_attached_to_the_move_that_caused_them(hub, nl_actions):
    i = first_scoring_index(nl_actions)
    hub.start(Setup("neuesland", PLAYERS, COLOURS))
    for a in nl_actions[: i + 1]:
        hub.submit(a)
    last = hub.snapshot()["game"]["history"][-1]
    assert last["events"] and all(e["reason"] for e in last["events"])
    scores = {p["name"]: p["score"] for p in hub.snapshot()["game"]["players"]}
    assert sum(scores.values()) == sum(e["points"] for h in hub.snapshot()["game"]["history"] for e in h["events"])


def test_undo_turn_drops_the_last_turn_everywhere(neuesland):
    before = neuesland.snapshot()["game"]["actions"]
    undone = neuesland.undo("turn")
    game = neuesland.snapshot()["game"]
    assert undone and game["actions"] == before - len(undone) == len(game["history"])
    with pytest.raises(HubError, match="'turn' or 'action'"):
        neuesland.undo("everything")


def test_ending_scores_the_game_and_reopening_undoes_it(neuesland):
    neuesland.end()
    game = neuesland.snapshot()["game"]
    assert game["finished"] and game["ended"] and game["current"] is None
    assert [r["rank"] for r in game["results"]] == sorted(r["rank"] for r in game["results"])
    for r in game["results"]:
        assert r["score"] == sum(e["points"] for e in r["events"]), f"{r['player']}'s score is explained in full"
    with pytest.raises(HubError, match="already ended"):
        neuesland.end()
    neuesland.reopen()
    assert not neuesland.snapshot()["game"]["finished"]
    with pytest.raises(HubError, match="has not ended"):
        neuesland.reopen()


def test_resume_without_an_open_game_is_refused(hub):
    with pytest.raises(HubError, match="no unfinished game"):
        hub.resume()
    with pytest.raises(TablehubError, match="no game with id 42"):
        hub.resume(42)


def test_an_offer_is_shown_best_first_with_the_rules_verdict(neuesland, nl_actions):
    good = nl_actions[12]
    bad = dict(good, x=40, y=40)
    offer_id = neuesland.offer([(bad, 0.9), {"action": good, "confidence": 0.6}], note="two readings")
    offer = neuesland.snapshot()["offer"]
    assert offer["id"] == offer_id and offer["note"] == "two readings"
    assert offer["candidates"][0]["action"] == good, "legal candidates come before refused ones"
    assert offer["candidates"][0]["refused"] is None
    assert offer["candidates"][1]["refused"], "a refused candidate says why"


def test_accepting_a_suggestion_plays_it_and_clears_the_offer(neuesland, nl_actions):
    offer_id = neuesland.offer([dict(nl_actions[12], confidence=0.55)])
    with pytest.raises(HubError, match="no longer current"):
        neuesland.accept(offer_id + 1, 0)
    with pytest.raises(HubError, match="does not exist"):
        neuesland.accept(offer_id, 3)
    neuesland.accept(offer_id, 0)
    snap = neuesland.snapshot()
    assert snap["offer"] is None and snap["game"]["history"][-1]["action"] == nl_actions[12]


def test_an_empty_offer_withdraws_it_and_bad_candidates_are_refused(neuesland):
    neuesland.offer([{"type": "discard_tile", "tile": "ds002"}])
    neuesland.offer([])
    assert neuesland.snapshot()["offer"] is None
    with pytest.raises(HubError, match="a suggestion must be"):
        neuesland.offer(["place tile"])


def test_a_flag_stays_until_cleared(neuesland, nl_actions):
    neuesland.flag("a sea side meets a plain", 2, -1)
    assert neuesland.snapshot()["flag"]["reason"] == "a sea side meets a plain"
    neuesland.submit(nl_actions[12])
    assert neuesland.snapshot()["flag"] is not None, "a move elsewhere does not fix the table"
    neuesland.clear_flag()
    assert neuesland.snapshot()["flag"] is None


def test_status_lines_and_commands_for_the_camera_screens(hub):
    calls = []
    hub.set_status("calibration", "markers: 4 of 4 seen")
    hub.register_command("calibrate", "Calibrate now", lambda: calls.append(1) or "calibrated: 0.4 mm error")
    snap = hub.snapshot()
    assert snap["status"] == {"calibration": "markers: 4 of 4 seen"}
    assert snap["commands"] == [{"name": "calibrate", "label": "Calibrate now", "screen": "calibration", "help": ""}]
    assert hub.run_command("calibrate") == "calibrated: 0.4 mm error" and calls == [1]
    hub.set_status("calibration", None)
    assert hub.snapshot()["status"] == {}
    with pytest.raises(HubError, match="no command 'x'"):
        hub.run_command("x")
    with pytest.raises(HubError, match="screen must be one of"):
        hub.register_command("y", "Y", lambda: None, screen="kitchen")


def test_the_preview_is_asked_for_the_screen_overlay(store):
    asked = []
    hub = Hub(store, pin="1234", camera_preview=lambda overlay: asked.append(overlay) or b"\xff\xd8jpeg")
    assert hub.preview("calibration") == b"\xff\xd8jpeg" and asked == ["calibration"]
    assert hub.snapshot()["camera"] is True
    with pytest.raises(HubError, match="overlay must be one of"):
        hub.preview("xray")
    assert Hub(store, pin="1234").preview() is None


def test_legal_moves_for_a_drawn_tile_come_from_the_engine(neuesland, nl_actions):
    tile = nl_actions[12]["tile"]
    moves = neuesland.legal_actions({"type": "place_tile", "tile": tile}, limit=500)
    assert moves and all(m["tile"] == tile for m in moves)
    assert {k: nl_actions[12][k] for k in ("x", "y", "rotation")} in [
        {k: m[k] for k in ("x", "y", "rotation")} for m in moves]


def test_the_hub_is_safe_to_use_from_several_threads(neuesland, nl_actions):
    errors = []
    versions = []

    def tracker():
        try:
            for i in range(30):
                neuesland.flag(f"flag {i}", i, 0)
                neuesland.offer([nl_actions[12]])
                neuesland.clear_flag()
        except Exception as exc:  # pragma: no cover - the assertion below reports it
            errors.append(exc)

    def phone():
        try:
            for _ in range(60):
                versions.append(neuesland.snapshot()["version"])
        except Exception as exc:  # pragma: no cover
            errors.append(exc)

    threads = [threading.Thread(target=tracker) for _ in range(3)] + [threading.Thread(target=phone) for _ in range(3)]
    for t in threads:
        t.start()
    neuesland.submit(nl_actions[12])
    for t in threads:
        t.join(10)
    assert not errors
    assert neuesland.snapshot()["game"]["actions"] == 13
    assert neuesland.bus.last_id == neuesland.version, "every change was published exactly once"


def test_repeated_tracker_reports_publish_nothing_new(hub):
    hub.set_status("table", "Seen: ds017 at (1, 0)")
    hub.flag("sea meets plain", 1, 0)
    version = hub.version
    for _ in range(5):
        hub.set_status("table", "Seen: ds017 at (1, 0)")
        hub.flag("sea meets plain", 1, 0)
        hub.clear_offer()
    assert hub.version == version, "the phones are not woken for nothing"
    hub.set_status("table", None)
    hub.set_status("table", None)
    assert hub.version == version + 1
