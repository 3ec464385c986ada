"""The pending turn (what the camera read and NEXT will log) on the hub, the API and the board,
and offers checked against the game as it will be after it."""
from __future__ import annotations

import pytest

from web.hub import COMMIT_COMMAND, HubError

from .conftest import PIN


def tile_then_figure(actions: list[dict], start: int = 12) -> int:
    """Index of a tile laid at or after ``start`` whose turn goes on with a figure on it."""
    return next(i for i in range(start, len(actions) - 1)
                if actions[i]["type"] == "place_tile" and actions[i + 1]["type"] == "place_figure")


@pytest.fixture()
def before_tile(neuesland, nl_actions):
    """The game just before a tile whose player then stands a figure on it; returns (tile, figure)."""
    i = tile_then_figure(nl_actions)
    for a in nl_actions[12:i]:
        neuesland.submit(a, source="camera")
    return nl_actions[i], nl_actions[i + 1]


def rows(hub) -> int:
    return len(hub.session.rows)


def test_the_pending_turn_is_in_the_snapshot_in_words_and_pushed_once(neuesland, before_tile):
    tile, figure = before_tile
    version = neuesland.version
    neuesland.pending([tile, figure], note="the colour of the figure is unclear: taken as red")
    pending = neuesland.snapshot()["pending"]
    assert [a["action"] for a in pending["actions"]] == [tile, figure]
    assert pending["actions"][0]["label"].startswith("Lay the tile with ") and tile["tile"] not in \
        pending["actions"][0]["label"], "the tile by what is on it, not its id"
    assert pending["actions"][0]["code"] == f"place_tile {tile['tile']} ({tile['x']}, {tile['y']}) {tile['rotation']}°", \
        "the id in small print, for whoever corrects a record"
    assert pending["actions"][1]["label"].startswith("Place a") and " in the " in pending["actions"][1]["label"], \
        "the figure on the pending tile, in table words (read on the game after the tile)"
    assert pending["note"].startswith("the colour") and pending["refused"] is None
    assert neuesland.version == version + 1
    neuesland.pending([tile, figure], note="the colour of the figure is unclear: taken as red")
    assert neuesland.version == version + 1, "the tracker repeating itself publishes nothing"
    neuesland.clear_pending()
    assert neuesland.snapshot()["pending"] is None and neuesland.pending_actions() == []


def test_a_pending_turn_the_rules_refuse_says_why(neuesland, before_tile):
    tile, _ = before_tile
    neuesland.pending([dict(tile, x=40, y=40)])
    assert "touches no tile on the table" in neuesland.snapshot()["pending"]["refused"]


def test_a_figure_choice_after_the_pending_tile_is_offered_as_legal(neuesland, before_tile):
    tile, figure = before_tile
    neuesland.offer([(figure, 0.6)])
    assert neuesland.snapshot()["offer"]["candidates"][0]["refused"], "without the tile the figure is refused"
    neuesland.pending([tile])
    assert neuesland.snapshot()["offer"]["candidates"][0]["refused"] is None, "re-checked when the tile is pending"
    neuesland.offer([(figure, 0.6), (dict(figure, region="nowhere"), 0.3)])
    candidates = neuesland.snapshot()["offer"]["candidates"]
    assert candidates[0]["action"] == figure and candidates[0]["refused"] is None
    assert "nowhere" in candidates[1]["refused"]


def test_accepting_a_choice_logs_the_pending_tile_first_then_the_choice(neuesland, before_tile):
    tile, figure = before_tile
    neuesland.pending([tile])
    offer = neuesland.offer([(figure, 0.6)])
    n = rows(neuesland)
    neuesland.accept(offer, 0)
    logged = neuesland.store.actions(neuesland.session.game_id)[n:]
    assert [(r.action, r.source) for r in logged] == [(tile, "camera"), (figure, "phone")]
    snap = neuesland.snapshot()
    assert snap["pending"] is None and snap["offer"] is None, "both described the table before the move"


def test_a_refused_choice_logs_nothing_not_even_the_pending_tile(neuesland, before_tile):
    tile, figure = before_tile
    neuesland.pending([tile])
    offer = neuesland.offer([(dict(figure, region="nowhere"), 0.6)])
    n = rows(neuesland)
    with pytest.raises(HubError, match="nothing logged"):
        neuesland.accept(offer, 0)
    assert rows(neuesland) == n and neuesland.pending_actions() == [tile]


def test_a_pending_turn_that_was_logged_another_way_is_dropped(neuesland, before_tile):
    tile, _ = before_tile
    neuesland.pending([tile])
    neuesland.submit(tile, source="phone")
    assert neuesland.snapshot()["pending"] is None


def test_commit_now_runs_the_registered_commit_like_next(neuesland, before_tile):
    tile, figure = before_tile
    with pytest.raises(HubError, match="nothing is pending"):
        neuesland.commit_pending()
    calls = []

    def commit() -> str:
        calls.append(neuesland.pending_actions())
        for a in neuesland.pending_actions():
            neuesland.session.submit(a, source="camera")
        return "Ana: logged"

    neuesland.register_command(COMMIT_COMMAND, "Commit now", commit, screen="scoreboard")
    neuesland.pending([tile, figure])
    assert neuesland.commit_pending() == "Ana: logged" and calls == [[tile, figure]]
    assert neuesland.session.actions[-2:] == [tile, figure]


def test_commit_now_without_a_tracker_logs_the_pending_actions_all_or_nothing(neuesland, before_tile):
    tile, figure = before_tile
    neuesland.pending([tile, dict(figure, region="nowhere")])
    n = rows(neuesland)
    with pytest.raises(HubError, match="nothing logged"):
        neuesland.commit_pending()
    assert rows(neuesland) == n
    neuesland.pending([tile, figure])
    assert "logged" in neuesland.commit_pending()
    assert neuesland.session.actions[-2:] == [tile, figure]


def test_a_refused_commit_command_is_a_409_with_its_reason(player, neuesland, before_tile):
    from tablehub.games.base import TablehubError

    def refuse() -> str:
        raise TablehubError("choose what was played on the phone first")

    neuesland.register_command(COMMIT_COMMAND, "Commit now", refuse, screen="scoreboard")
    neuesland.pending([before_tile[0]])
    resp = player.post("/api/pending/commit")
    assert resp.status_code == 409 and "choose what was played" in resp.get_json()["error"]


def test_commit_now_on_the_api_needs_the_pin(phone, neuesland, before_tile):
    tile, _ = before_tile
    neuesland.pending([tile])
    n = rows(neuesland)
    assert phone.post("/api/pending/commit").status_code == 401 and rows(neuesland) == n
    phone.unlock(PIN)
    resp = phone.post("/api/pending/commit")
    assert resp.status_code == 200 and resp.get_json()["message"].startswith("logged: Lay the tile with ")
    assert neuesland.session.actions[-1] == tile


def test_the_pending_tile_is_a_ghost_on_the_board(client, neuesland, before_tile):
    tile, figure = before_tile
    neuesland.pending([tile, figure])
    svg = client.get("/api/board.svg").get_data(as_text=True)
    ghost = f'<g class="ghost" data-x="{tile["x"]}" data-y="{tile["y"]}" data-tile="{tile["tile"]}">'
    assert ghost in svg, "the tile is drawn at its cell"
    assert 'opacity="0.5"' in svg and "stroke-dasharray=\"12 8\"" in svg, "translucent, dashed outline"
    assert 'class="ghost-figure"' in svg, "the figure on it too"
    assert f'class="free" data-x="{tile["x"]}" data-y="{tile["y"]}"' not in svg, "its cell is not free"
    neuesland.clear_pending()
    assert 'class="ghost"' not in client.get("/api/board.svg").get_data(as_text=True)


def test_the_state_route_carries_the_pending_turn(client, neuesland, before_tile):
    neuesland.pending([before_tile[0]])
    assert client.get("/api/state").get_json()["pending"]["actions"][0]["action"] == before_tile[0]


def test_pending_from_several_threads_keeps_the_hub_consistent(neuesland, before_tile):
    import threading

    tile, figure = before_tile
    errors = []

    def flip(k: int) -> None:
        try:
            for j in range(15):
                if (j + k) % 3 == 0:
                    neuesland.clear_pending()
                else:
                    neuesland.pending([tile] if (j + k) % 3 == 1 else [tile, figure])
                neuesland.offer([(figure, 0.5)])
        except Exception as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=flip, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)  # generous: this checks consistency, not speed (each call validates on a game copy)
    assert errors == [] and all(not t.is_alive() for t in threads)
    neuesland.pending([tile])
    assert neuesland.snapshot()["offer"]["candidates"][0]["refused"] is None
