"""The tracker: frames in, readings out, NEXT commits.

Per frame: the motion gate decides whether hands are in view; after
``quiet_frames`` still frames the table is recognised once, and
:func:`~tablehub.tracking.interpret.interpret` compares it with the committed game
state. The newest :class:`~tablehub.tracking.interpret.Reading` is kept and
announced to listeners when it changes. Buttons and the phone act through
:meth:`Tracker.commit` (NEXT), :meth:`Tracker.undo` (hold NEXT),
:meth:`Tracker.rescan` and :meth:`Tracker.override` (accept the table as it is).

A recognizer may instead read a printed board (it returns a
:class:`~tablehub.tracking.boardmoves.BoardSeen`: where each piece stands); the reading is then
:func:`~tablehub.tracking.boardmoves.board_reading`'s, through the game's own ``board_moves``
adapter, and everything after it (NEXT, the phone, the LEDs) is the same. A recognizer of a freely laid
layout (Sunda to Sahul) returns a :class:`~tablehub.tracking.layoutmoves.LayoutSeen`, read through the
game's ``layout_moves`` adapter.

Phone corrections need no special path: the phone submits the right action to the
session, the committed state then explains the table, and the next evaluation
(every frame checks whether the log changed) finds nothing pending.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol

import numpy as np

from ..games.base import TablehubError
from ..i18n import T, reason
from ..session import Session
from .boardmoves import BoardSeen, board_reading
from .layoutmoves import LayoutSeen, layout_reading
from .interpret import Reading, interpret
from .motion import MotionGate, Stillness
from .table import TableSeen, expected_from_view, seen_from_observation

log = logging.getLogger(__name__)


class Recognizer(Protocol):
    """Reads a frame: returns an observation with ``tiles`` and ``figures`` (see tracking.table)."""

    def __call__(self, frame: np.ndarray) -> Any: ...


Listener = Callable[[str, Any], None]


@dataclass(frozen=True)
class Outcome:
    """What a button press did, in one line for the log, the page and the buzzer."""

    ok: bool
    message: str
    actions: tuple[dict[str, Any], ...] = ()


class Tracker:
    """Single-threaded per frame (:meth:`feed`); button and phone calls may come from other threads."""

    def __init__(self, session: Callable[[], Session | None], recognize: Recognizer, *,
                 quiet_frames: int = 3, motion_threshold: float = 18.0, motion_fraction: float = 0.002,
                 confident: float = 0.75, margin: float = 0.10, clock: Callable[[], float] = time.perf_counter):
        self._session = session
        self._recognize = recognize
        self.gate = MotionGate(motion_threshold, motion_fraction)
        self.stillness = Stillness(quiet_frames)
        self.confident = confident
        self.margin = margin
        self._clock = clock
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.seen: TableSeen | BoardSeen | LayoutSeen | None = None
        self.reading = Reading("same")
        self._state_key: tuple[Any, ...] | None = None
        self._read_revision: int | None = None  # the session revision the last reading was made on
        self._announced: tuple[Any, ...] | None = None
        self._overridden: tuple[Any, ...] | None = None
        self.moving = True
        self.reads = 0
        self.failures = 0
        self.last_read_ms = 0.0

    # ---- listeners: "reading" (Reading), "commit" (Outcome), "refused" (Outcome), "undo" (Outcome), "motion" (bool)

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _emit(self, kind: str, payload: Any) -> None:
        for listener in list(self._listeners):
            try:
                listener(kind, payload)
            except Exception:  # one broken output (a page, a LED) must not stop the tracker
                log.exception("tracker listener failed on %s", kind)

    # ---- frames

    def feed(self, frame: np.ndarray) -> Reading | None:
        """Look at one frame. Returns the new reading when the table was read (or the game changed)."""
        moving = self.gate.moving(frame)
        if moving != self.moving:
            self.moving = moving
            self._emit("motion", moving)
        if self.stillness.update(moving):
            return self.read(frame)
        if self._state_changed():
            return self.evaluate()
        return None

    def read(self, frame: np.ndarray) -> Reading:
        """Recognise ``frame`` now and evaluate it (no motion check)."""
        t0 = self._clock()
        self._tell_logged_tiles()
        try:
            seen = self._recognize(frame)
            if not isinstance(seen, (BoardSeen, LayoutSeen)):
                seen = seen_from_observation(seen, getattr(self._recognize, "confidence", None),
                                             getattr(self._recognize, "region_at", None))
        except Exception as exc:  # vision says what a person can fix (markers covered, too dark); keep going
            self.stillness.quiet = 0  # try again after another quiet spell
            self.failures += 1
            reading = Reading("waiting", reason=T("cannot read the table: {why}",
                                                  why=reason(exc)))
            with self._lock:
                changed = reading.signature() != self._announced
                self._announced = reading.signature()
                self.reading = reading
            if changed:  # logged once per new reason, not every quiet spell (no references yet: all evening)
                log.warning("%s", reading.reason)
                self._emit("reading", reading)
            return reading
        with self._lock:
            self.seen = seen
            self.reads += 1
        reading = self.evaluate()
        self.last_read_ms = (self._clock() - t0) * 1000.0
        return reading

    def _tell_logged_tiles(self) -> None:
        """Tell a recognizer that can use it (``follow``) which tile the log holds in each cell, and one that
        reads with the game's own pieces (``use_game``: Sunda to Sahul's set of prints) which game it reads."""
        session = self._session()
        use_game = getattr(self._recognize, "use_game", None)
        if use_game is not None and session is not None:
            with session.lock:
                use_game(session.game)
        follow = getattr(self._recognize, "follow", None)
        if follow is None or session is None:
            return
        with session.lock:
            tiles = session.game.view().get("tiles", ())
        follow({(int(t["x"]), int(t["y"])): (str(t["tile"]), int(t.get("rotation", 0)) % 360) for t in tiles})

    def _key(self, session: Session | None) -> tuple[Any, ...]:
        if session is None:
            return (None,)
        return (session.game_id, len(session.rows), session.rows[-1].seq if session.rows else 0,
                session.game.finished)

    def _state_changed(self) -> bool:
        return self.seen is not None and self._key(self._session()) != self._state_key

    def evaluate(self) -> Reading:
        """Compare the last seen table with the committed state (again) and announce a change."""
        session = self._session()
        with self._lock:
            if session is None or self.seen is None:
                reading = Reading("same", notes=[T("no game running") if session is None else T("nothing seen yet")])
            else:
                with session.lock:
                    game = session.game
                    self._state_key = self._key(session)
                    self._read_revision = session.revision  # NEXT logs this reading only onto this state
                    if game.finished:
                        reading = Reading("same", notes=[T("the game is over")])
                    elif isinstance(self.seen, BoardSeen):
                        reading = board_reading(game, self.seen)
                    elif isinstance(self.seen, LayoutSeen):
                        reading = layout_reading(game, self.seen)
                    else:
                        reading = interpret(game, expected_from_view(game.view()), self.seen,
                                            self.confident, self.margin)
            if self._overridden is not None and reading.signature() == self._overridden:
                reading = Reading("same", notes=[T("overridden: the table is accepted as it is")])
            self.reading = reading
            changed = reading.signature() != self._announced
            self._announced = reading.signature()
        if changed:
            log.info("table: %s", reading.describe())
            self._emit("reading", reading)
        return reading

    # ---- buttons and phone

    def commit(self, source: str = "camera") -> Outcome:
        """NEXT: log the pending actions (the turn passes with the next tile laid)."""
        session = self._session()
        if session is None:
            return self._refuse(T("no game is running: start one on the phone"))
        with self._lock:
            reading = self.reading
            if reading.state == "pending":
                with session.lock:
                    said = reading.action_words(session.game)
                done = list(reading.actions)
                try:  # the turn is one change: all of it is logged or none
                    session.submit_many([(action, source) for action in done], expect=self._read_revision)
                except TablehubError as exc:
                    self.evaluate()
                    return self._refuse(T("could not log {actions}: {why}",
                                          actions=", ".join(str(a.get("type")) for a in done), why=exc.text))
                self._overridden = None
                outcome = Outcome(True, T("{player}: {actions}", player=session.game.current_player, actions=said),
                                  tuple(done))
            elif reading.state == "illegal":
                return self._refuse(T("fix the table first: {reason}", reason=reading.reason))
            elif reading.state == "unsure":
                return self._refuse(T("choose what was played on the phone first"))
            elif reading.state == "waiting":
                return self._refuse(T("waiting: {reason}", reason=reading.reason))
            else:
                return self._refuse(T("nothing new on the table to log"))
        self.evaluate()
        log.info("committed: %s", outcome.message)
        self._emit("commit", outcome)
        return outcome

    def undo(self) -> Outcome:
        """Hold NEXT: drop the last turn from the log."""
        session = self._session()
        if session is None:
            return self._refuse(T("no game is running"))
        try:
            dropped = session.undo_turn()
        except TablehubError as exc:
            return self._refuse(exc.text)
        outcome = Outcome(True, T("undid {count} action(s) of the last turn", count=len(dropped)), tuple(dropped))
        log.info("%s", outcome.message)
        self._emit("undo", outcome)
        self.evaluate()
        return outcome

    def rescan(self) -> None:
        """Read the table again on the next still frame."""
        self.stillness.again()

    def override(self) -> Outcome:
        """Accept the table as it is: the current flag is dropped until the table changes."""
        with self._lock:
            if self.reading.state not in ("illegal", "waiting"):
                return self._refuse(T("nothing flagged to override"))
            self._overridden = self.reading.signature()
            reason = self.reading.reason
        self.evaluate()
        return Outcome(True, T("overridden: {reason}", reason=reason))

    def _refuse(self, message: str) -> Outcome:
        outcome = Outcome(False, message)
        log.info("refused: %s", message)
        self._emit("refused", outcome)
        return outcome
