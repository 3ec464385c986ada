"""The queue never makes the caller wait: a slow or stuck espeak-ng, a flood of events."""
from __future__ import annotations

import datetime
import os
import time

from tablehub.config import VoiceConfig
from tablehub.voice import Announcement, Speaker



def wait_until(condition, timeout: float = 10.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return False


def slow_speaker(shell_script, tmp_path, seconds: float, **settings) -> Speaker:
    """A speaker whose espeak-ng is a real command that takes ``seconds`` per sentence."""
    binary = shell_script(tmp_path / "slow-espeak", f"echo $$ >> {tmp_path}/pids\nexec sleep {seconds}\n")
    cfg = VoiceConfig(events=("score", "final", "turn", "illegal", "refused", "undo"), **settings)
    return Speaker(cfg, binary=binary)


def test_the_listener_returns_at_once_while_espeak_ng_is_busy(shell_script, tmp_path):
    speaker = slow_speaker(shell_script, tmp_path, 3).start()
    try:
        payload = {"events": [{"player": "Ana", "points": 4, "reason": "finished road", "kind": "score"}]}
        speaker.on_session("action", payload)
        assert wait_until(lambda: (tmp_path / "pids").exists()), "the worker started espeak-ng"
        t0 = time.perf_counter()
        for _ in range(20):
            speaker.on_session("action", payload)
        took = time.perf_counter() - t0
        assert took < 0.5, f"20 events took {took:.2f} s while espeak-ng was busy"
        assert len(speaker.pending()) == speaker.cfg.queue
    finally:
        speaker.close()


def test_a_flood_keeps_the_queue_bounded_and_drops_the_least_important_first(shell_script, tmp_path):
    speaker = slow_speaker(shell_script, tmp_path, 30, queue=4)   # not started: nothing leaves the queue
    speaker.announce(Announcement("illegal", "Illegal: the sea meets a mountain."))
    for i in range(500):
        speaker.announce(Announcement("score", f"Ana scores {i}."))
        speaker.announce(Announcement("turn", f"Ben to play ({i})."))
    waiting = speaker.pending()
    assert len(waiting) == 4
    assert waiting[0].kind == "illegal", "the most important stays"
    assert [a.kind for a in waiting].count("turn") <= 1, "a newer 'to play' replaces the older"
    assert [a.text for a in waiting if a.kind == "score"][-1] == "Ana scores 499.", "the newest scores stay"
    assert speaker.stats.dropped > 400 and speaker.stats.superseded > 0


def test_a_stuck_espeak_ng_is_killed_after_the_timeout_and_the_next_sentence_is_said(shell_script, tmp_path):
    speaker = slow_speaker(shell_script, tmp_path, 60, timeout_s=1.0).start()
    try:
        speaker.announce(Announcement("score", "first"))
        assert wait_until(lambda: speaker.stats.failed == 1, 8.0), "the stuck call was stopped"
        assert "took longer than 1 s and was stopped" in speaker.stats.last_error
        pid = int((tmp_path / "pids").read_text().split()[0])
        assert wait_until(lambda: not _alive(pid), 2.0), "the stuck espeak-ng is gone"
        speaker.announce(Announcement("score", "second"))
        assert wait_until(lambda: len((tmp_path / "pids").read_text().split()) == 2, 3.0), "the queue goes on"
    finally:
        speaker.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie not yet reaped counts as gone
        return "State:\tZ" not in open(f"/proc/{pid}/status").read()
    except OSError:
        return False


def test_quiet_hours_and_unchosen_events_are_not_said(shell_script, tmp_path):
    now = [datetime.time(23, 30)]
    binary = shell_script(tmp_path / "espeak", "exit 0\n")
    speaker = Speaker(VoiceConfig(quiet="22:00-08:00", events=("score", "illegal")), binary=binary,
                      clock=lambda: now[0])
    assert not speaker.announce(Announcement("illegal", "Illegal: no."))
    now[0] = datetime.time(8, 0)
    assert speaker.announce(Announcement("illegal", "Illegal: no."))
    assert not speaker.announce(Announcement("turn", "Ben to play.")), "turn is not among the chosen events"
    assert speaker.stats.quiet == 2
    speaker.update({"enabled": False})
    assert speaker.pending() == [] and not speaker.announce(Announcement("score", "Ana scores 1 point."))


def test_without_espeak_ng_nothing_is_queued_and_one_line_is_logged(monkeypatch, tmp_path, caplog):
    from tablehub.voice import start_voice

    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng on it
    with caplog.at_level("INFO", logger="tablehub.voice"):
        speaker = start_voice(VoiceConfig())
    try:
        assert not speaker.available and speaker._thread is None
        speaker.on_session("action", {"events": [{"player": "Ana", "points": 2, "reason": "x"}]})
        assert speaker.pending() == []
        assert [r.getMessage() for r in caplog.records] == ["voice: espeak-ng not installed; announcements off"]
    finally:
        speaker.close()
