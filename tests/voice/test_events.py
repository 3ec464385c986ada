"""What the voice says for a real game: the session's scores and turns, undo, the end, and the
tracker's illegal placements (wired as `tablehub run` wires it)."""
from __future__ import annotations

import time

import pytest

from tablehub.config import load_config
from tablehub.games.base import Setup
from tablehub.voice import Phrasebook, Speaker


def wait_for_lines(lines, n: int, timeout: float = 10.0) -> list[str]:
    end = time.monotonic() + timeout
    while time.monotonic() < end and len(lines()) < n:
        time.sleep(0.02)
    return lines()


def test_phrases_for_scores_turns_and_refusals():
    book = Phrasebook("en")
    said = book.action({"events": [
        {"player": "Red", "points": 10, "reason": "finished area of 5 tiles", "kind": "score"},
        {"player": "Blue", "points": 1, "reason": "a lone market.", "kind": "score"},
        {"player": "Ana", "points": 0, "reason": "delivers 2 fish to the ship", "kind": "score"},
        {"player": "Ben", "points": -3, "reason": "a shipwreck", "kind": "score"}]}, to_play="Blue")
    assert [a.text for a in said] == ["Red scores 10 for finished area of 5 tiles.",
                                      "Blue scores 1 point for a lone market.",
                                      "Ana: delivers 2 fish to the ship.",
                                      "Ben loses 3 for a shipwreck.",
                                      "Blue to play."]
    assert [a.kind for a in said] == ["score"] * 4 + ["turn"]
    end = book.finish({"events": [{"player": "Ana", "points": 6, "reason": "an open town"}]},
                      {"Ana": 40, "Ben": 40, "Chloé": 12})
    assert [a.text for a in end][-1] == "Ana and Ben share the win with 40."
    assert end[0].text == "Final scoring. Ana gets 6 for an open town."
    assert book.score({"player": "Ben", "points": 1, "kind": "final",
                       "reason": "final scoring: thief on complete mountain"}).text == \
        "Final scoring. Ben gets 1 for thief on complete mountain."
    assert book.undo({"actions": [{}, {}]}).text == "Undone: 2 actions."


def test_a_played_game_is_announced_in_order(store, recorder):
    from tablehub.games.tiles.playout import PlayoutStats, random_game
    from tablehub.session import Session

    stats = PlayoutStats()
    random_game("neuesland", players=2, seed=3, stats=stats, finish=False)
    session = Session.create(store, Setup("neuesland", ("Ana", "Ben")))
    speaker = Speaker(load_config(None, environ={}).voice).start().follow(lambda: session)
    expected: list[str] = []
    try:
        book = Phrasebook()
        to_play = session.game.to_play
        for action in stats.actions[:30]:
            events = session.submit(action.to_dict())
            expected += [book.score(e.to_dict()).text for e in events]
            if session.game.to_play != to_play:
                to_play = session.game.to_play
                expected.append(f"{to_play} to play.")
            assert speaker.drain(10), "each action is said before the next (the test waits; a table would not)"
        assert any("scores" in line for line in expected), "the playout scored within 30 actions"
        session.undo_action()
        expected.append("Undone: one action.")
        speaker.drain(10)
    finally:
        speaker.close()
    said = recorder()
    assert said[:len(expected)] == expected


def test_the_run_wiring_speaks_an_illegal_placement_the_tracker_flags(tmp_path, recorder):
    """The voice is one more tracker listener next to the LEDs and the buzzer (tablehub run's open_voice)."""
    web_hub = pytest.importorskip("web.hub")
    from gpiozero.pins.mock import MockFactory

    from tablehub.commands._hub import open_voice
    from tablehub.config import PinsConfig
    from tablehub.hardware.cameras import SupervisedCamera
    from tablehub.hardware.panel import Panel
    from tablehub.store import Store
    from tablehub.tracking.live import LiveTable
    from tablehub.tracking.table import TileSeen
    from tablehub.tracking.tracker import Tracker

    from tests.live.helpers import ScriptedTable, start_tile

    store = Store(tmp_path / "games.sqlite")
    hub = web_hub.Hub(store, pin="1234")
    session = hub.start(Setup("neuesland", ("Ana", "Ben"), ("red", "blue")))
    table = ScriptedTable()
    factory = MockFactory()
    panel = Panel(PinsConfig(), factory=factory)
    tracker = Tracker(lambda: hub.session, table, quiet_frames=3)
    live = LiveTable(SupervisedCamera(lambda: None, retry_s=0.0), tracker, hub, panel)
    cfg = load_config(None, environ={}, overrides={"data_dir": str(tmp_path)})
    speaker = open_voice(cfg, hub, live)
    try:
        state = table.state([start_tile(session.game), TileSeen(0, 1, "ds040", 0, 0.95)])
        for i in range(4):
            tracker.feed(table.frame(state, hand_at=i))
        for _ in range(4):
            tracker.feed(table.frame(state))
        assert tracker.reading.state == "illegal" and factory.pin(23).state, "red LED on"
        said = wait_for_lines(recorder, 1)
        assert said == [f"Illegal: {tracker.reading.reason.rstrip('.')}."]
        assert "does not continue" in said[0]
        # a new game on the page: the voice follows the hub's session
        hub.start(Setup("neuesland", ("Cleo", "Dan")))
        deadline = time.monotonic() + 3
        while speaker._session is not hub.session and time.monotonic() < deadline:
            time.sleep(0.05)
        assert speaker._session is hub.session
    finally:
        speaker.close()
        panel.close()
        hub.shutdown()
        store.close()


def test_announcing_while_the_voice_follows_the_hub_does_not_deadlock(recorder):
    """The voice's thread asks the hub for its session (the hub's lock) every half second; a thread that
    holds the hub's lock (a move being logged) announces into the voice's queue. The voice must not hold its
    queue's lock while it waits for the hub's (it did: `tablehub demo --voice` froze in CI)."""
    import threading

    hub_lock = threading.RLock()

    def session():  # as web.hub.Hub.session: under the hub's lock
        with hub_lock:
            return None

    speaker = Speaker(load_config(None, environ={}).voice).start().follow(session)
    assert speaker.available
    try:
        with hub_lock:                  # the hub logs a move...
            time.sleep(0.8)             # ...long enough for the voice's thread to wake and ask for the session
            announcer = threading.Thread(target=speaker.say, args=("Blue to play.", "turn"), daemon=True)
            announcer.start()           # ...and announces it, from a thread other than the voice's
            announcer.join(2.0)
            assert not announcer.is_alive(), "announce blocked: the voice holds its queue while it waits for the hub"
        assert wait_for_lines(recorder, 1) == ["Blue to play."]
    finally:
        speaker.close()
