"""Property-based: any sequence of changes (moves, turns of several actions, undo of an action or a
turn, end, reopen), each one possibly hit by a real SQLite failure (a lock held past the timeout, a
row the database refuses half-way through a turn), leaves the game in memory equal to what the log
replays, every acknowledged change in the log, and every refused one absent."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from tablehub.games.base import TablehubError
from tablehub.session import Session
from tablehub.store import Store

from .conftest import SETUP, failing_insert, held_lock, log_of, quick_store, state_of


def playout(n: int = 60) -> list[dict]:
    from tablehub.games.tiles.playout import PlayoutStats, random_game

    stats = PlayoutStats()
    random_game("neuesland", players=2, seed=11, stats=stats, finish=False)
    return [a.to_dict() for a in stats.actions][:n]


PLAYOUT = playout()
FAULTS = st.sampled_from([None, None, "lock", "row"])


class LogMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="tablehub-fuzz-"))
        self.path = self.folder / "games.sqlite"
        self.store = quick_store(self.path, 50)
        self.session = Session.create(self.store, SETUP)
        self.live: list[dict] = []  # what every acknowledged change says the log holds
        self.finished = False

    def teardown(self) -> None:
        self.store.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _change(self, fault, change) -> bool:
        """Run ``change`` under ``fault``; True when it was acknowledged. A refusal changes nothing."""
        before, log_before = state_of(self.session), log_of(self.path)
        revision = self.session.revision
        next_seq = max([seq for seq, *_ in log_before], default=0) + 1
        try:
            if fault == "lock":
                with held_lock(self.path):
                    change()
            elif fault == "row":
                with failing_insert(self.path, next_seq + 1):  # the second row of a turn, if it has one
                    change()
            else:
                change()
        except TablehubError as exc:
            assert state_of(self.session) == before and self.session.revision == revision, exc
            assert log_of(self.path) == log_before, exc
            return False
        assert self.session.revision == revision + 1
        return True

    @rule(fault=FAULTS, n=st.integers(1, 3))
    def play(self, fault, n) -> None:
        if self.finished or len(self.live) + n > len(PLAYOUT):
            return
        batch = PLAYOUT[len(self.live): len(self.live) + n]
        if self._change(fault, lambda: self.session.submit_many([(a, "camera") for a in batch])):
            self.live += batch

    @rule(fault=FAULTS, scope=st.sampled_from(["action", "turn"]))
    def undo(self, fault, scope) -> None:
        if self.finished or not self.live:
            return
        out: list = []
        if self._change(fault, lambda: out.append(self.session.undo_action() if scope == "action"
                                                  else self.session.undo_turn())):
            dropped = 1 if scope == "action" else len(out[0])
            self.live = self.live[:-dropped]

    @rule(fault=FAULTS)
    def end_or_reopen(self, fault) -> None:
        change = self.session.reopen if self.finished else self.session.finish
        if self._change(fault, change):
            self.finished = not self.finished

    @invariant()
    def memory_equals_the_log(self) -> None:
        assert self.session.actions == self.live
        again = Session(Store(self.path), self.session.game_id)  # what the next start sees
        assert state_of(again) == state_of(self.session)
        assert again.revision == self.session.revision and again.game.finished == self.finished
        again.store.close()


LogMachine.TestCase.settings = settings(max_examples=30, stateful_step_count=12, deadline=None,
                                        suppress_health_check=[HealthCheck.too_slow])
test_the_log_and_the_game_never_part = LogMachine.TestCase
