"""Every change is all or nothing: a write the database refuses leaves the game and its log as
they were, the caller hears "not saved: <reason>; nothing changed", and the next start replays."""
from __future__ import annotations

import pytest

from tablehub.games.base import TablehubError
from tablehub.session import Session
from tablehub.store import Store

from .conftest import ACTIONS, SETUP, TURNS, failing_insert, full_database, held_lock, log_of, quick_store, state_of


def played(path, turns=TURNS):
    store = quick_store(path)
    s = Session.create(store, SETUP)
    for turn in turns:
        for a in turn:
            s.submit(a, source="phone")
    return store, s


CHANGES = {
    "submit": lambda s: s.submit(ACTIONS[len(s.rows)] if len(s.rows) < len(ACTIONS) else ACTIONS[0]),
    "undo_action": lambda s: s.undo_action(),
    "undo_turn": lambda s: s.undo_turn(),
    "finish": lambda s: s.finish(),
}


def _fault(kind, store, path):
    return held_lock(path) if kind == "lock" else full_database(store)


FAULTS = [(change, "lock") for change in sorted(CHANGES)] + [("submit", "full")]
# SQLITE_FULL from max_page_count needs a write that grows the file (a new action); the real full file
# system in test_full_disk.py fails every kind of change


@pytest.mark.parametrize("change,fault", FAULTS)
def test_a_refused_write_changes_nothing_and_says_not_saved(db_path, change, fault):
    store, s = played(db_path, TURNS[:2])
    before, log_before = state_of(s), log_of(db_path)
    with _fault(fault, store, db_path):
        with pytest.raises(TablehubError, match=r"^not saved: .*; nothing changed$") as err:
            CHANGES[change](s)
    assert ("full" in str(err.value)) if fault == "full" else ("another program" in str(err.value))
    assert state_of(s) == before, "the game in memory is as it was"
    assert log_of(db_path) == log_before, "the log is as it was"
    CHANGES[change](s)  # the same change goes through once the fault is gone
    after = state_of(s)
    store.close()
    again = Session(Store(db_path), s.game_id)
    assert state_of(again) == after, "what the page showed is what the next start replays"


def test_reopen_is_all_or_nothing(db_path):
    store, s = played(db_path, TURNS[:2])
    s.finish()
    before = state_of(s)
    with held_lock(db_path):
        with pytest.raises(TablehubError, match="not saved"):
            s.reopen()
    assert state_of(s) == before and s.game.finished
    s.reopen()
    assert not s.game.finished


def test_later_moves_never_build_on_a_move_that_was_not_saved(db_path):
    """The issue's fault 1: the move stayed in memory, later moves built on it, the next start failed."""
    store, s = played(db_path, TURNS[:1])
    with held_lock(db_path):
        with pytest.raises(TablehubError):
            s.submit(TURNS[1][0])
    s.submit(TURNS[1][0])  # played again once the lock is gone: legal, because the first never happened
    for a in TURNS[2]:
        s.submit(a)
    store.close()
    again = Session(Store(db_path), s.game_id)  # old code: "the log no longer replays at action N"
    assert again.game.scores() == s.game.scores() and again.game.turn == s.game.turn == 3


def test_a_turn_of_several_actions_is_one_transaction(db_path):
    """The tracker's NEXT and the page's "accept" log a turn as one change: a failure on its second
    row leaves none of it in the log or the game."""
    store, s = played(db_path, TURNS[:2])
    before, log_before = state_of(s), log_of(db_path)
    with failing_insert(db_path, nth_seq=5):  # the turn's second action
        with pytest.raises(TablehubError, match="not saved"):
            s.submit_many([(a, "camera") for a in TURNS[2]])
    assert state_of(s) == before and log_of(db_path) == log_before
    s.submit_many([(a, "camera") for a in TURNS[2]])
    assert [r.source for r in s.rows][-2:] == ["camera", "camera"] and s.game.scores() == {"Ana": 1, "Ben": 0}


def test_the_rules_still_refuse_half_a_turn_without_logging_any(db_path):
    store, s = played(db_path, TURNS[:2])
    before = state_of(s)
    with pytest.raises(TablehubError, match=r"no tile lies .*\(cell 9, 9\)"):
        s.submit_many([(TURNS[2][0], "camera"), ({"type": "score_figure", "x": 9, "y": 9, "region": "G:S"}, "camera")])
    assert state_of(s) == before and len(log_of(db_path)) == 3
