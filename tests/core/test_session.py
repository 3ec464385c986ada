"""Sessions: an append-only SQLite action log that replays, undoes and survives a restart."""
import sqlite3

import pytest

from tablehub.games.base import ActionFormatError, IllegalAction, Setup, SetupError
from tablehub.session import Session, SessionError
from tablehub.store import Store, StoreError

SETUP = Setup("neuesland", ("Ana", "Ben"))
TURNS = [
    [{"type": "place_tile", "tile": "ds017", "x": 1, "y": 0, "rotation": 0}, {"type": "place_figure", "region": "G:S"}],
    [{"type": "place_tile", "tile": "ds004", "x": 0, "y": -1, "rotation": 0}],
    [{"type": "place_tile", "tile": "ds002", "x": -1, "y": -1, "rotation": 90},
     {"type": "score_figure", "x": 1, "y": 0, "region": "G:S"}],
]


def play(session, turns=TURNS):
    for turn in turns:
        for a in turn:
            session.submit(a, source="phone")


def test_a_game_survives_closing_the_database(tmp_path):
    path = tmp_path / "games.sqlite"
    store = Store(path)
    s = Session.create(store, SETUP)
    play(s)
    scores, turn = s.game.scores(), s.game.turn
    store.close()
    again = Session.resume(Store(path))
    assert again is not None and again.game_id == s.game_id
    assert again.game.scores() == scores == {"Ana": 1, "Ben": 0} and again.game.turn == turn == 3


def test_the_log_is_in_wal_mode_with_full_sync(tmp_path):
    store = Store(tmp_path / "g.sqlite")
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_refused_action_changes_nothing_and_is_not_logged(store):
    s = Session.create(store, SETUP)
    play(s, TURNS[:1])
    before = (s.game.scores(), s.game.resources(), len(s.rows))
    with pytest.raises(IllegalAction, match="touches no placed tile"):
        s.submit({"type": "place_tile", "tile": "ds040", "x": 9, "y": 9, "rotation": 0})
    with pytest.raises(ActionFormatError, match="unknown action type 'fly'"):
        s.submit({"type": "fly"})
    with pytest.raises(ActionFormatError, match="field 'x' must be a whole number"):
        s.submit({"type": "place_tile", "tile": "ds040", "x": "one", "y": 0})
    assert (s.game.scores(), s.game.resources(), len(s.rows)) == before
    assert len(store.actions(s.game_id)) == 2


def test_undo_the_last_action_and_the_last_turn(store):
    s = Session.create(store, SETUP)
    play(s)
    assert s.undo_action()["type"] == "score_figure"
    assert s.game.scores() == {"Ana": 0, "Ben": 0}
    assert s.game.resources()["players"]["Ana"]["figures_in_supply"] == 3
    dropped = s.undo_turn()
    assert [a["type"] for a in dropped] == ["place_tile"]  # what was left of Ana's second turn
    assert s.game.current_player == "Ben" and s.game.turn == 2
    dropped = s.undo_turn()
    assert [a["tile"] for a in dropped] == ["ds004"]
    dropped = s.undo_turn()
    assert [a["type"] for a in dropped] == ["place_tile", "place_figure"]
    assert s.game.turn == 0 and len(s.game.board.cells) == 1
    with pytest.raises(SessionError, match="nothing to undo"):
        s.undo_turn()


def test_undo_never_deletes_what_was_recorded(store):
    s = Session.create(store, SETUP)
    play(s)
    s.undo_turn()
    audit = list(store.iter_all_actions(s.game_id))
    assert len(audit) == 5
    assert [undone is not None for *_, undone in audit] == [False, False, False, True, True]


def test_finishing_runs_the_final_evaluation_and_is_remembered(tmp_path):
    path = tmp_path / "g.sqlite"
    s = Session.create(Store(path), SETUP)
    play(s, TURNS[:2])
    events = s.finish()
    assert [(e.player, e.points, e.kind) for e in events] == [("Ana", 1, "final")]
    reopened = Session(Store(path), s.game_id)
    assert reopened.game.finished and reopened.game.scores() == {"Ana": 1, "Ben": 0}
    assert Session.resume(Store(path)) is None  # no unfinished game left
    with pytest.raises(SessionError, match="the game has ended"):
        reopened.undo_action()
    reopened.reopen()
    assert not reopened.game.finished


def test_listeners_hear_every_change(store):
    s = Session.create(store, SETUP)
    heard = []
    s.subscribe(lambda kind, payload: heard.append(kind))
    play(s, TURNS[:1])
    s.undo_action()
    s.finish()
    assert heard == ["action", "action", "undo", "finish"]


def test_bad_setups_are_refused_before_anything_is_stored(store):
    with pytest.raises(SetupError, match="needs 2 to 5 players, got 1"):
        Session.create(store, Setup("neuesland", ("Ana",)))
    with pytest.raises(SetupError, match="unknown game 'chess'"):
        Session.create(store, Setup("chess", ("Ana", "Ben")))
    assert store.games() == []


def test_an_unknown_game_id_and_an_unopenable_file(store, tmp_path):
    with pytest.raises(StoreError, match="no game with id 42"):
        Session(store, 42)
    folder = tmp_path / "dir.sqlite"
    folder.mkdir()
    with pytest.raises(StoreError, match="cannot open the game database"):
        Store(folder)


def test_a_log_that_no_longer_replays_is_reported_not_crashed(tmp_path):
    path = tmp_path / "g.sqlite"
    s = Session.create(Store(path), SETUP)
    play(s, TURNS[:1])
    db = sqlite3.connect(path)
    db.execute("UPDATE actions SET action = '{\"type\": \"place_tile\", \"tile\": \"ds017\", \"x\": 7, \"y\": 7}'"
               " WHERE seq = 1")
    db.commit()
    with pytest.raises(SessionError, match="no longer replays at action 1"):
        Session(Store(path), s.game_id)
