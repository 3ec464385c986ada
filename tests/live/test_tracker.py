"""The tracker on synthetic frames: the motion gate, one read per quiet spell, NEXT, undo, override,
phone corrections; wired to the real web Hub and to gpiozero's MockFactory for the lights."""
from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from tablehub.config import PinsConfig
from tablehub.games.base import Setup
from tablehub.hardware.cameras import CameraLost, SupervisedCamera
from tablehub.hardware.cameras.base import Camera
from tablehub.hardware.panel import Panel
from tablehub.store import Store
from tablehub.tracking.live import LiveTable
from tablehub.tracking.motion import MotionGate, Stillness, small_grey
from tablehub.tracking.table import FigureSeen, TileSeen
from tablehub.tracking.tracker import Tracker

from .helpers import Buttons, ScriptedTable, start_tile

web_hub = pytest.importorskip("web.hub")

LEGAL = TileSeen(0, 1, "ds040", 270, 0.95)
ILLEGAL = TileSeen(0, 1, "ds040", 0, 0.95)
UNSURE = TileSeen(0, 1, "ds040", 270, 0.5, alternatives=(("ds041", 270, 0.45),))


class FramesCamera(Camera):
    """Plays a list of frames (None in the list = the device is lost for one read)."""

    def __init__(self, frames):
        self.frames = list(frames)

    def open(self):
        pass

    def read(self):
        if not self.frames:
            raise CameraLost("gone")
        f = self.frames.pop(0)
        if f is None:
            raise CameraLost("cable pulled")
        return f


@pytest.fixture()
def rig(tmp_path):
    store = Store(tmp_path / "games.sqlite")
    hub = web_hub.Hub(store, pin="1234")
    session = hub.start(Setup("neuesland", ("Ana", "Ben"), ("red", "blue")))
    table = ScriptedTable()
    factory = MockFactory()
    panel = Panel(PinsConfig(debounce_s=0.02, hold_s=0.5), factory=factory)
    tracker = Tracker(lambda: hub.session, table, quiet_frames=3)
    cam = SupervisedCamera(lambda: FramesCamera([]), retry_s=0.0)
    live = LiveTable(cam, tracker, hub, panel)

    class Rig:
        pass

    r = Rig()
    r.__dict__.update(store=store, hub=hub, session=session, table=table, factory=factory, panel=panel,
                      tracker=tracker, live=live, start=start_tile(session.game))

    def show(state, hands=4, quiet=4):
        for i in range(hands):
            tracker.feed(table.frame(state, hand_at=i))
        for _ in range(quiet):
            tracker.feed(table.frame(state))

    r.show, r.press = show, Buttons(factory, panel).press
    yield r
    panel.close()
    factory.reset()
    store.close()


def test_the_motion_gate_sees_hands_and_not_sensor_noise():
    rng = __import__("numpy").random.default_rng(0)
    table = ScriptedTable()
    base = table.frame(0).astype(int)
    gate = MotionGate()
    gate.moving(table.frame(0))
    noisy = (base + rng.normal(0, 3, base.shape)).clip(0, 255).astype("uint8")
    assert not gate.moving(noisy), "sensor noise is not motion"
    assert gate.moving(table.frame(0, hand_at=1)), "a hand is motion"
    assert small_grey(__import__("numpy").zeros((1080, 1920, 3), "uint8")).shape == (135, 240)


def test_stillness_fires_once_per_quiet_spell():
    s = Stillness(3)
    fired = [s.update(m) for m in [True, False, False, False, False, True, False, False, False]]
    assert fired == [False, False, False, True, False, False, False, False, True]


def test_the_table_is_read_once_after_the_hands_leave(rig):
    a = rig.table.state([rig.start])
    rig.show(a, hands=5, quiet=6)
    assert rig.table.calls == 1, "one recognition per quiet spell, none while hands move"


def test_a_legal_tile_goes_pending_with_green_and_next_logs_it(rig):
    rig.show(rig.table.state([rig.start, LEGAL]))
    assert rig.tracker.reading.state == "pending"
    assert rig.factory.pin(22).state and not rig.factory.pin(23).state, "green on, red off"
    snap = rig.hub.snapshot()
    assert [a["action"]["tile"] for a in snap["pending"]["actions"]] == ["ds040"], "the page's pending card"
    assert "table" not in snap["status"], "no status line saying the card again"
    rig.press(17, 0.1)
    assert rig.session.actions == [{"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 270}]
    assert rig.tracker.reading.state == "same" and not rig.factory.pin(22).state
    assert rig.store.actions(rig.session.game_id)[-1].source == "camera"


def test_an_illegal_tile_is_flagged_with_red_and_a_beep_until_the_table_is_fixed(rig):
    rig.show(rig.table.state([rig.start, ILLEGAL]))
    flag = rig.hub.snapshot()["flag"]
    assert flag is not None and "does not continue" in flag["reason"] and (flag["x"], flag["y"]) == (0, 1)
    assert rig.factory.pin(23).state and not rig.factory.pin(22).state
    rig.press(17, 0.1)
    assert rig.session.actions == [], "NEXT does not log an illegal placement"
    rig.show(rig.table.state([rig.start, LEGAL]))   # the player turns the tile
    assert rig.hub.snapshot()["flag"] is None and rig.tracker.reading.state == "pending"
    assert not rig.factory.pin(23).state


def test_holding_check_overrides_a_flag_until_the_table_changes(rig):
    rig.show(rig.table.state([rig.start, ILLEGAL]))
    rig.press(27, 0.7)
    assert rig.hub.snapshot()["flag"] is None and rig.tracker.reading.state == "same"
    rig.show(rig.table.state([rig.start, ILLEGAL, TileSeen(1, 0, "ds041", 0)]))
    assert rig.tracker.reading.state == "illegal", "a new change is judged again"


def test_an_unsure_read_is_offered_on_the_phone_and_the_phone_choice_is_logged(rig):
    rig.show(rig.table.state([rig.start, UNSURE]))
    offer = rig.hub.snapshot()["offer"]
    assert rig.tracker.reading.state == "unsure" and offer is not None
    wanted = {"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 270}
    index = [c["action"] for c in offer["candidates"]].index(wanted)
    rig.hub.accept(offer["id"], index)
    rig.tracker.feed(rig.table.frame(len(rig.table.states) - 1))   # next frame: the log changed
    assert rig.session.actions == [wanted]
    assert rig.tracker.reading.state == "same" and rig.hub.snapshot()["offer"] is None


def test_a_misread_is_corrected_from_the_phone(rig):
    misread = TileSeen(0, 1, "ds041", 270, 0.97)      # confidently wrong, and legal
    state = rig.table.state([rig.start, misread])
    rig.show(state)
    assert rig.tracker.reading.actions[0]["tile"] == "ds041"
    right = {"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 270}
    rig.hub.submit(right, source="phone")              # the player fixes it on the phone
    rig.tracker.feed(rig.table.frame(state))
    assert rig.tracker.reading.state == "same", "the logged tile now explains the cell"
    rig.press(17, 0.1)
    assert rig.session.actions == [right]


def test_a_tile_nudged_or_lifted_and_put_back_is_not_a_new_move(rig):
    rig.show(rig.table.state([rig.start, LEGAL]))
    rig.press(17, 0.1)
    rig.show(rig.table.state([rig.start, TileSeen(0, 1, "ds040", 270, 0.6)]))  # nudged: read less surely
    assert rig.tracker.reading.state == "same"
    rig.show(rig.table.state([rig.start]))                                      # lifted
    assert rig.tracker.reading.state == "waiting"
    rig.show(rig.table.state([rig.start, LEGAL]))                               # put back
    assert rig.tracker.reading.state == "same"
    assert len(rig.session.actions) == 1


def test_a_figure_on_the_new_tile_is_logged_with_it_and_hold_next_undoes_the_turn(rig):
    region = rig.session.game.catalog.tile("ds040").regions[0].id
    rig.show(rig.table.state([rig.start, LEGAL], [FigureSeen(0, 1, "red", region)]))
    assert [a["type"] for a in rig.tracker.reading.actions] == ["place_tile", "place_figure"]
    rig.press(17, 0.1)
    assert len(rig.session.actions) == 2
    rig.press(17, 0.7)
    assert rig.session.actions == [], "holding NEXT undid the whole turn"
    assert rig.tracker.reading.state == "pending", "the tiles are still on the table, so it is pending again"


def test_a_lost_camera_shows_on_the_page_and_the_red_led_blinks(rig):
    cam = SupervisedCamera(lambda: FramesCamera([rig.table.frame(0), None]), retry_s=60)
    live = LiveTable(cam, None, rig.hub, rig.panel)
    assert live.step() and live.step()
    assert "camera lost" in rig.hub.snapshot()["status"]["camera"]
    assert rig.panel.lights.red == "blink"


# ---- the pending turn on the page: the card, "Commit now", offers checked after it

def test_a_pending_turn_reaches_the_page_and_commit_now_logs_it_like_next(rig):
    region = rig.session.game.catalog.tile("ds040").regions[0].id
    rig.show(rig.table.state([rig.start, LEGAL], [FigureSeen(0, 1, "red", region)]))
    pending = rig.hub.snapshot()["pending"]
    assert [a["action"]["type"] for a in pending["actions"]] == ["place_tile", "place_figure"]
    assert rig.hub.pending_ghost()["tiles"][0]["tile"] == "ds040", "the board draws the tile as a ghost"
    commands = {c["name"]: c for c in rig.hub.snapshot()["commands"]}
    assert commands["commit"]["screen"] == "scoreboard"
    message = rig.hub.commit_pending()                  # the page's "Commit now" button
    assert message.startswith("Ana: ") and len(rig.session.actions) == 2
    assert {r.source for r in rig.store.actions(rig.session.game_id)} == {"camera"}, "logged as NEXT logs"
    assert rig.hub.snapshot()["pending"] is None and rig.tracker.reading.state == "same"
    assert rig.hub.snapshot()["status"]["table"].startswith("Ana: "), "the outcome shows as NEXT's does"


def test_commit_now_is_refused_with_the_trackers_reason(rig):
    rig.show(rig.table.state([rig.start, LEGAL]))
    assert rig.hub.snapshot()["pending"] is not None
    rig.show(rig.table.state([rig.start, ILLEGAL]))     # the player turns the tile the wrong way
    assert rig.hub.snapshot()["pending"] is None, "an illegal reading withdraws the pending turn"
    rig.hub.pending([{"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 270}])  # a stale page
    with pytest.raises(web_hub.HubError, match="fix the table first"):
        rig.hub.commit_pending()
    assert rig.session.actions == []


def test_an_unsure_read_clears_the_pending_turn(rig):
    rig.show(rig.table.state([rig.start, LEGAL]))
    assert rig.hub.snapshot()["pending"] is not None
    rig.show(rig.table.state([rig.start, UNSURE]))
    assert rig.hub.snapshot()["pending"] is None and rig.hub.snapshot()["offer"] is not None


def test_a_figure_choice_after_the_pending_tile_is_legal_and_accepting_logs_both(rig):
    region = rig.session.game.catalog.tile("ds040").regions[0].id
    rig.show(rig.table.state([rig.start, LEGAL]))
    assert rig.tracker.reading.state == "pending"
    figure = {"type": "place_figure", "region": region}
    offer = rig.hub.offer([(figure, 0.6), ({"type": "place_figure", "region": "nowhere"}, 0.3)],
                          note="Which part is the figure on?")
    candidates = rig.hub.snapshot()["offer"]["candidates"]
    assert candidates[0]["action"] == figure and candidates[0]["refused"] is None, \
        "checked after the pending tile, the figure is legal"
    with pytest.raises(web_hub.HubError, match="nothing logged"):
        rig.hub.accept(offer, 1)
    assert rig.session.actions == [], "a refused choice logs nothing, not even the pending tile"
    rig.hub.accept(offer, 0)
    tile = {"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 270}
    assert rig.session.actions == [tile, figure]
    assert [r.source for r in rig.store.actions(rig.session.game_id)] == ["camera", "phone"]


def test_a_table_that_cannot_be_read_says_so_once_not_every_quiet_spell(tmp_path, caplog):
    """No references yet (or markers covered all evening): one warning and one reading per reason."""
    store = Store(tmp_path / "games.sqlite")
    hub = web_hub.Hub(store, pin="1234")
    hub.start(Setup("neuesland", ("Ana", "Ben")))
    table = ScriptedTable()
    still = table.frame(table.state([start_tile(hub.session.game)]))

    def unreadable(frame):
        raise RuntimeError("table recognition is off: no references in var/refs/neuesland")

    tracker = Tracker(lambda: hub.session, unreadable, quiet_frames=3)
    readings = []
    tracker.subscribe(lambda kind, p: readings.append(p) if kind == "reading" else None)
    try:
        with caplog.at_level("WARNING", logger="tablehub.tracking.tracker"):
            for _ in range(40):
                tracker.feed(still)
        assert tracker.failures >= 10, "it keeps trying (references may appear at any time)"
        assert [r.reason for r in readings] == ["cannot read the table: table recognition is off: no references "
                                                "in var/refs/neuesland"]
        assert len([r for r in caplog.records if "no references" in r.getMessage()]) == 1
    finally:
        hub.shutdown()
        store.close()


def test_the_recognizer_is_told_the_logged_tiles_before_each_read(rig):
    """A recognizer with ``follow`` (vision's TrackerRecognizer) learns which tile the log holds in each cell
    before it reads: a look-alike read where the log knows better is read as the logged tile."""
    told = []
    rig.table.follow = lambda tiles: told.append(dict(tiles))
    rig.show(rig.table.state([rig.start, LEGAL]))
    rig.press(17, 0.1)
    rig.show(rig.table.state([rig.start, LEGAL]))
    assert told[0] == {(0, 0): (rig.start.tile, rig.start.rotation)}
    assert told[-1] == {(0, 0): (rig.start.tile, rig.start.rotation), (0, 1): ("ds040", 270)}


# ---- NEXT logs the turn as one change

def test_next_logs_the_turn_whole_or_not_at_all_and_never_onto_a_state_it_did_not_read(rig, tmp_path):
    import sqlite3

    region = rig.session.game.catalog.tile("ds040").regions[0].id
    rig.show(rig.table.state([rig.start, LEGAL], [FigureSeen(0, 1, "red", region)]))
    con = sqlite3.connect(tmp_path / "games.sqlite", isolation_level=None)
    con.execute("CREATE TRIGGER inject BEFORE INSERT ON actions WHEN NEW.seq = 2 "
                "BEGIN SELECT RAISE(ABORT, 'injected write failure'); END")  # the figure's row fails
    rig.press(17, 0.1)
    assert rig.session.actions == [] and rig.store.actions(rig.session.game_id) == [], "not the tile alone"
    assert "not saved" in rig.hub.snapshot()["status"]["table"]
    con.execute("DROP TRIGGER inject")
    con.close()
    rig.hub.submit(LEGAL_PHONE, source="phone")  # a phone logs the tile meanwhile
    rig.press(17, 0.1)  # NEXT on the reading made before the phone's move
    assert [r.source for r in rig.store.actions(rig.session.game_id)] == ["phone"], "the stale turn is refused"
    assert "moved on" in rig.hub.snapshot()["status"]["table"]


LEGAL_PHONE = {"type": "place_tile", "tile": "ds040", "x": 0, "y": 1, "rotation": 270}
