"""The person at a simulated table: presses NEXT, answers the phone, corrects misreads.

Used by ``tablehub demo`` and the live end-to-end tests. After each frame,
:meth:`SimPlayer.after_frame` looks at which turn the sim camera is showing and
what the tracker made of it, and acts as a player would:

- before the hands reach in: enter what only the phone knows (a discarded tile...);
- once the table is still and read: if the pending turn is what was really played
  (:func:`~tablehub.tracking.script.equivalent`), press NEXT on the mock button pin;
  if the camera is unsure, pick the right choice on the phone (``hub.accept``);
  otherwise (misread, missed, flagged) enter the turn on the phone (``hub.submit``);
- after the turn is logged: enter the phone-only actions that follow (deliveries).

It counts what it had to do (``presses``, ``choices``, ``corrections``) so tests and
the demo can report how much the camera did by itself.
"""
from __future__ import annotations

import logging
import time
from typing import Any, Callable

from ..games.base import TablehubError
from .interpret import next_actions
from .script import TurnScript, equivalent, twin_action

log = logging.getLogger(__name__)


class SimPlayer:
    def __init__(self, hub: Any, tracker: Any, camera: Any, turns: list[TurnScript], factory: Any = None,
                 next_pin: int = 17, say: Callable[[str], None] = log.info, press_s: float = 0.08):
        self.hub, self.tracker, self.camera, self.factory = hub, tracker, camera, factory
        self.turns = {t.number: t for t in turns}
        self.flat: list[dict[str, Any]] = [a for t in turns for a in t.actions]
        self.next_pin = next_pin
        self.say = say
        self.press_s = press_s
        self._pressing_since: float | None = None
        self._phase: tuple[int, str] | None = None
        self._reads_at_phase = 0
        self._handled: set[int] = set()
        self.presses = self.choices = 0
        self.corrected_turns: set[int] = set()  # turns whose visible moves had to be entered on the phone
        self.diverged: str | None = None
        self._awaiting: tuple[int, float] | None = None  # (log length it brings, time) of the last NEXT press

    # ---- bookkeeping over the record

    def _logged(self) -> int:
        return len(self.hub.session.rows)

    def _end_of(self, turn: TurnScript, part: str) -> int:
        """How many actions the log holds once ``part`` ("before", "table", "after") of ``turn`` is done."""
        n = sum(len(t.actions) for t in self.turns.values() if t.number < turn.number)
        n += len(turn.before)
        if part in ("table", "after"):
            n += len(turn.table)
        if part == "after":
            n += len(turn.after)
        return n

    def _enter(self, upto: int, why: str) -> None:
        """Enter the record's actions on the phone until the log holds ``upto`` of them."""
        while self._logged() < upto and not self.diverged:
            action = self.flat[self._logged()]
            session = self.hub.session
            try:
                try:
                    self.hub.submit(action, source="phone")
                except TablehubError:
                    twin = twin_action(session.game, action)
                    if twin is None:
                        raise
                    self.hub.submit(twin, source="phone")
                    action = twin
            except TablehubError as exc:
                self.diverged = f"the log no longer follows the record at action {self._logged()}: {exc}"
                self.say(f"  {self.diverged}")
                return
            self.say(f"  phone ({why}): {action}")
            if action.get("type") in next_actions(session.game):
                self.corrected_turns.add(self._turn_of(self._logged() - 1))

    @property
    def corrections(self) -> int:
        return len(self.corrected_turns)

    def _turn_of(self, index: int) -> int:
        n = 0
        for t in sorted(self.turns.values(), key=lambda t: t.number):
            n += len(t.actions)
            if index < n:
                return t.number
        return -1

    # ---- the button

    def _press_next(self, actions: int = 1) -> None:
        """Press NEXT for a pending turn of ``actions`` actions (committed one by one by the panel's thread)."""
        self._awaiting = (self._logged() + actions, time.monotonic())
        if self.factory is None:
            self.tracker.commit()
        else:
            self.factory.pin(self.next_pin).drive_low()
            self._pressing_since = time.monotonic()
        self.presses += 1

    def _release(self) -> bool:
        if self._pressing_since is None:
            return False
        if time.monotonic() - self._pressing_since >= self.press_s:
            self.factory.pin(self.next_pin).drive_high()
            self._pressing_since = None
        return True

    # ---- per frame

    def after_frame(self) -> None:
        if self._release():
            return
        if self._awaiting is not None:
            count, at = self._awaiting
            if self._logged() < count and time.monotonic() - at < 1.0:
                return  # the press is still being handled (all its actions, not just the first)
            self._awaiting = None
        shot = getattr(self.camera, "current", None)
        if shot is None or shot.turn not in self.turns:
            return
        turn = self.turns[shot.turn]
        if self._phase != (turn.number, shot.phase):
            self._phase = (turn.number, shot.phase)
            self._reads_at_phase = self.tracker.reads if self.tracker is not None else 0
        if self._logged() < self._end_of(turn, "before"):
            self._enter(self._end_of(turn, "before"), "before the camera's turn")
        if shot.phase != "still":
            return
        if self._logged() >= self._end_of(turn, "table"):
            self._enter(self._end_of(turn, "after"), "after the camera's turn")
            return
        if self.tracker is None:
            self._enter(self._end_of(turn, "table"), "no camera recognition")
            return
        if self.tracker.reads == self._reads_at_phase:
            return  # not read yet since the hands left
        want = self.flat[self._logged():self._end_of(turn, "table")]
        game = self.hub.session.game
        reading = self.tracker.reading
        if reading.state == "pending" and equivalent(game, reading.actions, want):
            self._press_next(len(reading.actions))
            return
        if reading.state == "unsure" and turn.number not in self._handled:
            offer = self.hub.snapshot().get("offer")
            for i, c in enumerate((offer or {}).get("candidates", [])):
                if equivalent(game, [c["action"]], want[:1]):
                    self._handled.add(turn.number)
                    self.say(f"  phone: the camera was unsure; {turn.player} picks choice {i + 1}")
                    self.hub.accept(offer["id"], i)
                    self.choices += 1
                    return
        self.say(f"  phone: the camera read '{reading.describe()}'; {turn.player} enters the turn instead")
        self._enter(self._end_of(turn, "table"), "correction")

    def finish(self, wait_s: float = 2.0) -> None:
        """After the camera's last frame: let the last turn be read and committed, enter what is left."""
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline and not self.diverged and (
                self._logged() < len(self.flat) or self._pressing_since or self._awaiting):
            self.after_frame()
            time.sleep(0.02)
        if self._logged() < len(self.flat) and not self.diverged:
            self._enter(len(self.flat), "end of the game")
