"""The live tracker on a printed board (Karibik on the packaged grid board, docs/karibik.md): the camera
reports where each ship stands (a ``BoardSeen``), the engine's adapter and rules turn a change into a
pending sail for NEXT, choices for the phone or an illegal flag with the rules' reason, exactly as for
tiles; wired to the real web Hub and gpiozero's MockFactory for the lights and the buzzer. The frames
are synthetic (a tag the scripted recognizer reads); tests/live/test_board_e2e.py plays on rendered ones."""
from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from tablehub.config import PinsConfig
from tablehub.games.base import Setup
from tablehub.hardware.cameras import SupervisedCamera
from tablehub.hardware.panel import Panel
from tablehub.store import Store
from tablehub.tracking.boardmoves import BoardSeen
from tablehub.tracking.live import LiveTable
from tablehub.tracking.tracker import Tracker

from .helpers import Buttons, ScriptedTable
from .test_tracker import FramesCamera

web_hub = pytest.importorskip("web.hub")

START = {"Arriba": 32, "Bravo": 42, "Caribic": 36, "Diabolo": 34, "Evita": 44, "Fuego": 46}
GREEN, RED, BUZZER, NEXT = 22, 23, 24, 17


@pytest.fixture()
def rig(tmp_path):
    store = Store(tmp_path / "games.sqlite")
    hub = web_hub.Hub(store, pin="1234")
    session = hub.start(Setup("karibik", ("Red", "Blue", "Green"), ("red", "blue", "green"), {"board": "grid"}))
    for action in ({"type": "deal", "towns": ["Tortuga", "Havana", "Nassau", "Port Royal", "Santiago", "San Juan"]},
                   {"type": "place_ships", "spaces": [START[s] for s in START]}):
        hub.submit(action)
    table = ScriptedTable()
    factory = MockFactory()
    panel = Panel(PinsConfig(debounce_s=0.02, hold_s=0.5), factory=factory)
    tracker = Tracker(lambda: hub.session, table, quiet_frames=3)
    live = LiveTable(SupervisedCamera(lambda: FramesCamera([]), retry_s=0.0), tracker, hub, panel)

    buttons = Buttons(factory, panel)

    class Rig:

        def show(self, **moved):
            """The board with the ships of ``moved`` elsewhere (None: not sure where), after hands over it."""
            table.states.append(BoardSeen({**START, **self.moved, **moved}, board=session.game.board.name))
            state = len(table.states) - 1
            for i in range(4):
                tracker.feed(table.frame(state, hand_at=i))
            for _ in range(4):
                tracker.feed(table.frame(state))

        def press(self, pin=NEXT, seconds=0.1):
            buttons.press(pin, seconds)

        def bid(self, *cards):
            for player, card in zip(("Red", "Blue", "Green"), cards):
                hub.submit({"type": "card", "player": player, "card": card})
            tracker.feed(table.frame(len(table.states) - 1))  # the next frame: the log changed

        def beeps(self):
            return sum(1 for s in factory.pin(BUZZER).states if s.state)

    r = Rig()
    r.__dict__.update(hub=hub, session=session, factory=factory, panel=panel, tracker=tracker, live=live,
                      store=store, moved={})
    yield r
    panel.close()
    factory.reset()
    store.close()


def test_ships_where_the_game_has_them_are_no_change_while_the_cards_are_entered(rig):
    rig.show()
    assert rig.tracker.reading.state == "same"
    assert not rig.factory.pin(GREEN).state and not rig.factory.pin(RED).state


def test_a_moved_ship_goes_pending_with_green_and_next_logs_its_sail(rig):
    rig.show()
    rig.bid(3, 1, 0)  # Red moves Arriba (on 32) by up to 3 spaces
    rig.show(Arriba=33)
    reading = rig.tracker.reading
    assert reading.state == "pending", reading.describe()
    # nothing to raid, steal or safeguard on 33: NEXT ends the move with the sail
    assert reading.actions == [{"type": "sail", "path": [33]}, {"type": "end_move"}]
    assert rig.factory.pin(GREEN).state and not rig.factory.pin(RED).state
    labels = [a["label"] for a in rig.hub.snapshot()["pending"]["actions"]]
    assert labels == ["Sail 1 space: 33", "End the move"], "the page's pending card in the game's words"
    rig.press()
    assert rig.session.actions[-2:] == [{"type": "sail", "path": [33]}, {"type": "end_move"}]
    assert [r.source for r in rig.store.actions(rig.session.game_id)[-2:]] == ["camera", "camera"]
    assert rig.session.game.ship == "Bravo" and rig.session.game.ship_at["Arriba"] == 33
    rig.moved["Arriba"] = 33
    rig.show()
    assert rig.tracker.reading.state == "same", "the log now explains the board"


def test_a_sail_into_a_port_leaves_the_move_open_for_the_phone_and_next_at_rest_ends_it(rig):
    rig.show()
    rig.bid(3, 1, 0)
    rig.show(Arriba=12)  # Havana's port, its chest face up: a raid is possible there
    assert rig.tracker.reading.actions == [{"type": "sail", "path": [22, 12]}]
    rig.press()
    rig.hub.submit({"type": "attack"})  # the phone enters what the camera cannot see
    rig.moved["Arriba"] = 12
    rig.show()
    assert rig.tracker.reading.state == "pending" and rig.tracker.reading.actions == [{"type": "end_move"}]
    rig.press()
    assert [a["type"] for a in rig.session.actions[-3:]] == ["sail", "attack", "end_move"]
    assert rig.session.game.scores()["Red"] == 2000


def test_too_far_is_flagged_red_with_a_beep_and_the_rules_reason_until_the_ship_is_put_right(rig):
    rig.show()
    rig.bid(3, 1, 0)
    before = rig.beeps()
    rig.show(Arriba=52)  # round Bravo on 42: 4 spaces, the allowance is 3
    flag = rig.hub.snapshot()["flag"]
    assert flag is not None and flag["reason"] == "Arriba may move 3 spaces: Red bid 3; this path enters 4"
    assert rig.factory.pin(RED).state and not rig.factory.pin(GREEN).state
    assert rig.beeps() > before, "the buzzer beeped"
    rig.press()
    assert rig.session.actions[-1]["type"] == "card", "NEXT logs nothing flagged"
    rig.show(Arriba=43)
    assert rig.hub.snapshot()["flag"] is None and rig.tracker.reading.state == "pending"


def test_the_wrong_ship_moved_is_flagged(rig):
    rig.show()
    rig.bid(3, 1, 0)
    rig.show(Bravo=43)
    assert rig.hub.snapshot()["flag"]["reason"] == "Bravo moved, but Arriba is the ship being moved"


def test_ways_past_different_hideouts_are_choices_on_the_phone_that_say_what_the_camera_saw(rig):
    rig.show()
    rig.bid(3, 1, 0)
    rig.show(Arriba=21)  # via 22 (blue hideout) or 31 (open sea)
    offer = rig.hub.snapshot()["offer"]
    assert rig.tracker.reading.state == "unsure" and offer is not None
    assert "via space 22 (blue hideout)" in offer["note"] and "Arriba sails to space 21" in offer["note"]
    paths = [c["action"]["path"] for c in offer["candidates"]]
    assert sorted(paths) == [[22, 21], [31, 21]]
    rig.hub.accept(offer["id"], paths.index([31, 21]))
    rig.moved["Arriba"] = 21
    rig.show()
    assert rig.tracker.reading.actions == [{"type": "end_move"}], "the move's end is read again, for NEXT"
    rig.press()
    assert rig.session.actions[-2:] == [{"type": "sail", "path": [31, 21]}, {"type": "end_move"}]


def test_the_moving_ship_the_camera_is_not_sure_of_means_waiting(rig):
    rig.show()
    rig.bid(3, 1, 0)
    rig.show(Arriba=None, Evita=None)
    assert rig.tracker.reading.state == "waiting" and "Arriba" in rig.tracker.reading.reason
    rig.press()
    assert rig.session.game.ship == "Arriba", "NEXT logs nothing while waiting"


def test_a_move_read_from_the_cameras_best_guess_is_asked_on_the_phone(rig):
    rig.show()
    rig.bid(3, 1, 0)
    table = rig.tracker._recognize
    table.states.append(BoardSeen({**START, "Arriba": None}, board=rig.session.game.board.name,
                                  guesses={"Arriba": (33,)}))
    for i in range(8):
        rig.tracker.feed(table.frame(len(table.states) - 1, hand_at=i if i < 4 else None))
    offer = rig.hub.snapshot()["offer"]
    assert rig.tracker.reading.state == "unsure" and "not sure it sees Arriba on space 33" in offer["note"]
    assert [c["action"] for c in offer["candidates"]] == [{"type": "sail", "path": [33]}]
    assert not rig.hub.snapshot()["flag"]


def test_references_of_another_board_are_refused_in_one_line(rig):
    rig.show()
    rig.tracker.seen = BoardSeen(dict(START), board="Another board")
    reading = rig.tracker.evaluate()
    assert reading.state == "waiting"
    assert reading.reason == (f"the camera's references are of the board 'Another board', but this game is played "
                              f"on '{rig.session.game.board.name}': enrol this board (tablehub boardcam)")


def test_the_moving_ship_where_two_spaces_meet_is_asked_on_the_phone_with_both_readings(rig):
    rig.show()
    rig.bid(3, 1, 0)
    table = rig.tracker._recognize
    table.states.append(BoardSeen({**START, "Arriba": None}, board=rig.session.game.board.name,
                                  guesses={"Arriba": (32, 33)}))
    for i in range(8):
        rig.tracker.feed(table.frame(len(table.states) - 1, hand_at=i if i < 4 else None))
    offer = rig.hub.snapshot()["offer"]
    assert offer["note"].startswith("Arriba stands where spaces 32 and 33 meet: which move? Arriba stays on space 32")
    assert [c["action"] for c in offer["candidates"]] == [{"type": "end_move"}, {"type": "sail", "path": [33]}]
    rig.hub.accept(offer["id"], 1)
    assert rig.session.actions[-1] == {"type": "sail", "path": [33]}


def test_what_the_camera_says_about_a_reading_that_stands_is_on_the_page(rig):
    """A reading with nothing to log ("same") may still carry what the camera noticed (a ship not seen sure, a
    hold's value read against the game): the page's status line says it, and says nothing once it is gone."""
    rig.show(Arriba=None)  # while the cards are entered no ship may move: taken as still where it stood
    assert rig.tracker.reading.state == "same" and rig.tracker.reading.notes
    said = str(rig.hub.snapshot()["status"].get("table"))
    assert "Arriba" in said and "32" in said
    rig.show()
    assert rig.tracker.reading.state == "same" and not rig.tracker.reading.notes
    assert rig.hub.snapshot()["status"].get("table") is None
