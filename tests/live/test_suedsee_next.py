"""Südsee: NEXT alone moves a turn on, also when the player lays no islander.

The engine ends the islander step with an explicit ``skip_islander`` (or by itself at the next
tile; a completed market's ship award waits for it). The camera sees no "skip"; the tracker
adds it to a turn with no islander step, so NEXT logs it with the tile, and offers it alone after
the phone logged the turn's tile.
"""
from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from tablehub.config import PinsConfig
from tablehub.games import new_game
from tablehub.games.base import Setup
from tablehub.hardware.cameras import SupervisedCamera
from tablehub.hardware.cameras.base import Camera
from tablehub.hardware.panel import Panel
from tablehub.records import Record, replay
from tablehub.store import Store
from tablehub.tracking.interpret import interpret
from tablehub.tracking.live import LiveTable
from tablehub.tracking.script import turns_of
from tablehub.tracking.simtable import demo_record
from tablehub.tracking.table import FigureSeen, TableSeen, TileSeen, expected_from_view
from tablehub.tracking.tracker import Tracker

from .helpers import Buttons, ScriptedTable

SETUP = Setup("suedsee", ("Ana", "Ben"), ("red", "blue"))
SKIP = {"type": "skip_islander"}


def ready(game):
    """Past the set-up's ship reveals (the phone's): the first tile is next."""
    while game.must_choose:
        game.apply(next(a for a in game.legal_actions() if a.type == "reveal_ship"))
    return game


@pytest.fixture()
def game():
    return ready(new_game(SETUP))


def laid(game, tile: str = "A2") -> TileSeen:
    p = next(iter(game.legal_placements(tile)))
    return TileSeen(p.x, p.y, tile, p.rotation, 0.95)


def with_tile(game, tile: TileSeen, figures=()) -> TableSeen:
    base = expected_from_view(game.view())
    return TableSeen({**base.tiles, tile.cell: tile}, tuple(base.figures) + tuple(figures))


def test_a_tile_with_no_islander_is_pending_with_the_end_of_the_islander_step(game):
    tile = laid(game)
    reading = interpret(game, expected_from_view(game.view()), with_tile(game, tile))
    assert reading.state == "pending", reading.describe()
    assert reading.actions == [{"type": "place_tile", "tile": "A2", "x": tile.x, "y": tile.y,
                                "rotation": tile.rotation}, SKIP]
    assert reading.describe(game).endswith("; No islander this turn"), "the engine's own words"


def test_a_tile_with_an_islander_has_no_skip(game):
    tile = laid(game)
    region = next(r.id for r in game.catalog.tile("A2").regions if r.terrain in game.figure_roles)
    seen = with_tile(game, tile, [FigureSeen(tile.x, tile.y, "red", region)])
    reading = interpret(game, expected_from_view(game.view()), seen)
    assert reading.state == "pending", reading.describe()
    assert [a["type"] for a in reading.actions] == ["place_tile", "place_figure"]


def test_after_the_phone_logged_the_tile_the_skip_alone_is_pending_then_nothing(game):
    tile = laid(game)
    seen = with_tile(game, tile)
    game.apply(game.parse_action({"type": "place_tile", "tile": "A2", "x": tile.x, "y": tile.y,
                                  "rotation": tile.rotation}))   # a phone choice
    reading = interpret(game, expected_from_view(game.view()), seen)
    assert reading.state == "pending" and reading.actions == [SKIP], reading.describe()
    game.apply(game.parse_action(SKIP))
    assert interpret(game, expected_from_view(game.view()), seen).state == "same"


def test_neues_land_has_no_skip():
    nl = new_game(Setup("neuesland", ("Ana", "Ben"), ("red", "blue")))
    p = next(iter(nl.legal_placements("ds040")))
    seen = with_tile(nl, TileSeen(p.x, p.y, "ds040", p.rotation, 0.95))
    reading = interpret(nl, expected_from_view(nl.view()), seen)
    assert [a["type"] for a in reading.actions] == ["place_tile"]


class NoFrames(Camera):
    def open(self):
        pass

    def read(self):
        raise RuntimeError("not used")


def test_next_on_the_mock_pin_logs_the_tile_and_the_skip_and_the_islander_step_is_over(tmp_path):
    web_hub = pytest.importorskip("web.hub")
    store = Store(tmp_path / "games.sqlite")
    hub = web_hub.Hub(store, pin="1234")
    session = hub.start(SETUP)
    for a in list(ready(new_game(SETUP)).history):
        hub.submit(a.to_dict(), source="phone")                      # the set-up's reveals
    table = ScriptedTable()
    factory = MockFactory()
    panel = Panel(PinsConfig(debounce_s=0.02, hold_s=0.5), factory=factory)
    tracker = Tracker(lambda: hub.session, table, quiet_frames=3)
    LiveTable(SupervisedCamera(lambda: NoFrames(), retry_s=0.0), tracker, hub, panel)
    try:
        tile = laid(session.game)
        state = table.state(list(expected_from_view(session.game.view()).tiles.values()) + [tile])
        for i in range(4):
            tracker.feed(table.frame(state, hand_at=i))
        for _ in range(4):
            tracker.feed(table.frame(state))
        assert tracker.reading.state == "pending", tracker.reading.describe()
        Buttons(factory, panel).press(17)
        assert session.actions[-2:] == [{"type": "place_tile", "tile": "A2", "x": tile.x, "y": tile.y,
                                         "rotation": tile.rotation}, SKIP]
        assert session.game.waiting_for() is None and not session.game.step_open
        assert tracker.reading.state == "same"
    finally:
        panel.close()
        factory.reset()
        store.close()


def test_the_script_closes_each_islander_step_as_next_does_and_the_game_is_the_same():
    record = demo_record("suedsee", 2, 5)
    turns = turns_of(record)
    flat = [a for t in turns for a in t.actions]
    assert len(flat) > len(record.actions), "the record leaves islander steps open (no islander, no skip)"
    for t in turns:
        if any(a["type"] == "place_tile" for a in t.table):
            assert any(a["type"] in ("place_figure", "take_back", "skip_islander") for a in t.table), \
                f"turn {t.number}: the camera's part ends the islander step: {t.table}"
    a, b = replay(record), replay(Record(record.setup, flat, record.source))
    assert a.scores() == b.scores() and a.resources()["players"] == b.resources()["players"]
