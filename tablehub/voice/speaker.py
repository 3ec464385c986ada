"""The Speaker: session and tracker events in, spoken sentences out, never in the caller's way.

Listeners (:meth:`Speaker.on_session`, :meth:`Speaker.on_tracker`) only render a sentence
and put it in a small bounded queue; one worker thread speaks them one after another
with espeak-ng. When the queue is full the least important announcement waiting (the
oldest among equals) is dropped and counted, a newer "Blue to play" replaces an older
one, and an espeak-ng that hangs is killed after ``timeout_s``. So the frame loop, the
GPIO callbacks and the page never wait for the voice.

>>> from tablehub.config import VoiceConfig
>>> s = Speaker(VoiceConfig(), binary=None)   # no espeak-ng: announcements off
>>> s.available, s.say("Blue to play.", "turn")
(False, False)
"""
from __future__ import annotations

import collections
import dataclasses
import datetime
import json
import logging
import os
import shutil
import threading
import time
from pathlib import Path
from typing import Any, Callable, Mapping

from ..config import ConfigError, VoiceConfig, _merge, check_voice, parse_quiet
from .espeak import LANGUAGE_VOICES, Espeak, SpeechError
from .phrases import Announcement, Phrasebook

log = logging.getLogger(__name__)

#: the keys the page may change (the ALSA device, queue and timeout stay in the settings file)
PAGE_KEYS = ("enabled", "language", "voice", "volume", "speed", "events", "quiet")


def in_quiet_hours(quiet: str, now: datetime.time) -> bool:
    """Whether ``now`` falls in ``quiet`` (``"22:00-08:00"``; the start counts, the end does not).

    >>> in_quiet_hours("22:00-08:00", datetime.time(23, 30)), in_quiet_hours("22:00-08:00", datetime.time(8, 0))
    (True, False)
    """
    span = parse_quiet(quiet)
    if span is None:
        return False
    start, end = span
    minute = now.hour * 60 + now.minute
    return start <= minute < end if start < end else minute >= start or minute < end


def engine_for(cfg: VoiceConfig, binary: str | None | object = ...) -> Espeak:
    """The espeak-ng call for these settings (``binary``: a path, ``None`` for none, default: look it up)."""
    settings = dict(voice=cfg.voice or LANGUAGE_VOICES.get(cfg.language, "en"), volume=cfg.volume,
                    speed=cfg.speed, device=cfg.device, timeout_s=cfg.timeout_s)
    if binary is ...:
        return Espeak.find(**settings)  # type: ignore[arg-type]
    return Espeak(binary, aplay=shutil.which("aplay"), **settings)  # type: ignore[arg-type]


@dataclasses.dataclass
class VoiceStats:
    queued: int = 0
    spoken: int = 0
    dropped: int = 0        # pushed out of a full queue
    superseded: int = 0     # an older "X to play" replaced by a newer one
    quiet: int = 0          # not said: voice off, event kind not chosen, or quiet hours
    failed: int = 0         # espeak-ng failed or was killed
    last_error: str = ""


class Speaker:
    """Speaks announcements from a bounded queue with one worker thread (:meth:`start`, :meth:`close`)."""

    def __init__(self, cfg: VoiceConfig | None = None, *, binary: str | None | object = ...,
                 store: str | Path | None = None, clock: Callable[[], datetime.time] | None = None):
        """``binary``: the espeak-ng to run (``None``: none; default: ``espeak-ng`` on the PATH);
        ``store``: the JSON file the page's changes are saved in (read at start, over ``cfg``)."""
        self.cfg = dataclasses.replace(cfg or VoiceConfig())
        self.store = Path(store) if store else None
        self.problem: str | None = None  # a voice.json the page wrote that could not be used
        if self.store is not None:
            self._load_store()
        self.engine = engine_for(self.cfg, binary)
        self._binary = self.engine.binary
        self.book = Phrasebook(self.cfg.language)
        self._clock = clock or (lambda: datetime.datetime.now().time())
        self._queue: collections.deque[Announcement] = collections.deque()
        self._cond = threading.Condition()
        self._updating = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closing = False
        self.stats = VoiceStats()
        self._session: Any = None
        self._unsubscribe: Callable[[], None] | None = None
        self._get_session: Callable[[], Any] | None = None
        self._to_play: str | None = None

    @property
    def available(self) -> bool:
        return self.engine.available

    # ---- settings

    def settings(self) -> dict[str, Any]:
        d = dataclasses.asdict(self.cfg)
        d["events"] = list(self.cfg.events)
        return d

    def update(self, changes: Mapping[str, Any], where: str = "voice settings") -> dict[str, Any]:
        """Change the page's keys (:data:`PAGE_KEYS`); validated (one-line :class:`ConfigError`), saved, in effect
        from the next announcement."""
        bad = [k for k in changes if k not in PAGE_KEYS]
        if bad:
            raise ConfigError(f"{where}: {', '.join(map(repr, bad))} cannot be changed here "
                              f"(the page may change: {', '.join(PAGE_KEYS)})")
        with self._updating:  # two phones saving at once: one after the other, none lost half-way
            new = dataclasses.replace(self.cfg)
            _merge(new, changes, where)
            check_voice(new, where)
            if self.store is not None:
                self._save_store(new)
            self._apply(new)
            return self.settings()

    def _apply(self, new: VoiceConfig) -> None:
        with self._cond:
            old, self.cfg = self.cfg, new
            self.engine = engine_for(new, self._binary)
            if new.language != old.language:
                self.book = Phrasebook(new.language)
            if not new.enabled:
                self.stats.quiet += len(self._queue)
                self._queue.clear()

    def _load_store(self) -> None:
        assert self.store is not None
        if not self.store.is_file():
            return
        try:
            data = json.loads(self.store.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise ConfigError(f"{self.store}: expected a JSON object of voice settings")
            new = dataclasses.replace(self.cfg)
            _merge(new, {k: v for k, v in data.items() if k in PAGE_KEYS}, str(self.store))
            check_voice(new, str(self.store))
        except (OSError, ValueError, ConfigError) as exc:
            self.problem = f"the page's voice settings were not used: {exc}"
            log.warning("voice: %s", self.problem)
            return
        self.cfg = new

    def _save_store(self, new: VoiceConfig) -> None:
        assert self.store is not None
        data = {k: getattr(new, k) for k in PAGE_KEYS}
        data["events"] = list(new.events)
        tmp = self.store.with_name(self.store.name + ".tmp")
        try:
            self.store.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            os.replace(tmp, self.store)
        except OSError as exc:
            raise ConfigError(f"{self.store}: cannot save the voice settings ({exc.strerror})") from None
        self.problem = None

    # ---- the queue

    def allowed(self, kind: str) -> bool:
        """``kind`` "test" (the page's sample button) needs only the voice on."""
        cfg = self.cfg
        if kind == "test":
            return cfg.enabled
        return cfg.enabled and kind in cfg.events and not in_quiet_hours(cfg.quiet, self._clock())

    def say(self, text: str, kind: str = "score") -> bool:
        return self.announce(Announcement(kind, text))

    def announce(self, item: Announcement) -> bool:
        """Queue ``item`` without waiting. ``False`` when it will not be said (off, not chosen, quiet, no
        espeak-ng, or it was the least important of a full queue)."""
        if not self.available:
            return False
        with self._cond:
            if self._closing or not self.allowed(item.kind):
                self.stats.quiet += 1
                return False
            if item.kind == "turn":
                stale = [a for a in self._queue if a.kind == "turn"]
                for a in stale:
                    self._queue.remove(a)
                self.stats.superseded += len(stale)
            self.stats.queued += 1
            kept = True
            if len(self._queue) >= self.cfg.queue:
                victim = min(list(self._queue) + [item], key=lambda a: a.priority)  # the oldest of the least
                self.stats.dropped += 1
                if victim is item:
                    kept = False
                else:
                    self._queue.remove(victim)
            if kept:
                self._queue.append(item)
                self._cond.notify()
            return kept

    def pending(self) -> list[Announcement]:
        with self._cond:
            return list(self._queue)

    def start(self) -> "Speaker":
        if self.available and self._thread is None:
            self._closing = False
            self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
            self._thread.start()
        return self

    def close(self, timeout: float = 2.0) -> None:
        with self._cond:
            self._closing = True
            self._queue.clear()
            self._cond.notify_all()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def drain(self, timeout: float = 30.0) -> bool:
        """Wait until everything queued has been spoken (tests, the demo's end). ``False`` on timeout."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._cond:
                if not self._queue and not self._busy:
                    return True
            time.sleep(0.02)
        return False

    _busy = False

    def _run(self) -> None:
        while True:
            with self._cond:
                if not self._queue and not self._closing:
                    self._cond.wait(0.5)
            # outside the queue's lock: following asks the hub for its session (the hub's lock), and a thread
            # holding the hub's lock announces into the queue (a move logged): both locks in one thread each
            # way was a deadlock that froze the hub and the page
            self._follow()
            with self._cond:
                if self._closing:
                    return
                if not self._queue:
                    continue
                item = self._queue.popleft()
                engine = self.engine
                self._busy = True
            try:
                if self.allowed(item.kind):  # the hours may have turned quiet while it waited
                    engine.speak(item.text)
                    self.stats.spoken += 1
                else:
                    self.stats.quiet += 1
            except (SpeechError, OSError) as exc:
                if str(exc) != self.stats.last_error:  # once per new problem, not once per sentence
                    log.warning("voice: %s", exc)
                self.stats.last_error = str(exc)
                self.stats.failed += 1  # after its reason: whoever sees the count (the page, a test) sees why
            finally:
                self._busy = False

    # ---- listeners

    def follow(self, get_session: Callable[[], Any]) -> "Speaker":
        """Listen to whatever session ``get_session()`` returns now and later (a new game on the page)."""
        self._get_session = get_session
        self._follow()
        return self

    def _follow(self) -> None:
        if self._get_session is None:
            return
        session = self._get_session()
        if session is self._session:
            return
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._session = session
        if session is not None:
            self._to_play = _to_play(session)
            self._unsubscribe = session.subscribe(lambda kind, payload: self.on_session(kind, payload, session))

    def on_session(self, kind: str, payload: Mapping[str, Any], session: Any = None) -> None:
        """A :meth:`tablehub.session.Session.subscribe` listener: scores, who plays next, undo, the end."""
        try:
            said: list[Announcement] = []
            to_play = _to_play(session) if session is not None else None
            if kind == "action":
                said = self.book.action(payload, to_play if to_play != self._to_play else None)
            elif kind == "undo":
                said = [self.book.undo(payload)]
                if to_play and to_play != self._to_play:
                    said += self.book.action({}, to_play)
            elif kind == "finish":
                scores = session.game.scores() if session is not None else None
                said = self.book.finish(payload, scores)
            self._to_play = to_play
            for item in said:
                self.announce(item)
        except Exception:  # the voice must never break the session's other listeners
            log.exception("voice: could not announce %s", kind)

    def on_tracker(self, kind: str, payload: Any) -> None:
        """A :meth:`tablehub.tracking.tracker.Tracker.subscribe` listener: illegal placements, refused presses."""
        if kind == "reading" and getattr(payload, "state", None) == "illegal":
            self.announce(self.book.illegal(getattr(payload, "reason", None)))
        elif kind == "refused":
            self.announce(self.book.refused(getattr(payload, "message", "")))


def _to_play(session: Any) -> str | None:
    game = session.game
    return None if game.finished else game.to_play


def start_voice(cfg: VoiceConfig, store: str | Path | None = None) -> Speaker:
    """The hub's speaker, started; without espeak-ng it says so once in the log and stays silent."""
    speaker = Speaker(cfg, store=store)
    if not speaker.available:
        log.info("voice: espeak-ng not installed; announcements off")
    elif not speaker.cfg.enabled:
        log.info("voice: announcements are off in the settings")
    else:
        log.info("voice: speaking %s with espeak-ng voice %s%s", ", ".join(speaker.cfg.events),
                 speaker.engine.voice, "" if speaker.book.translated else
                 f" (English sentences: no {speaker.cfg.language} translation yet)")
    return speaker.start()
