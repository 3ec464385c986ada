"""The board's model and page, fed hand-made messages (no broker needed)."""
from __future__ import annotations

import csv
import io
import json

import pytest

from tablehub.venue.board import VenueBoard
from web.venue import BoardFeed, create_venue_app


def msg(table: str, type_: str, seq: int, run: str = "r1", venue: str = "cafe", **fields) -> tuple[str, bytes]:
    kind = {"state": "state", "event": "events", "status": "status", "result": "results"}[type_]
    topic = f"tablehub/{venue}/{table}/{kind}" + (f"/{fields['game_id']}" if type_ == "result" else "")
    body = {"v": 1, "type": type_, "venue": venue, "table": table, "at": 1000.0 + seq, "run": run, "seq": seq, **fields}
    return topic, json.dumps(body).encode()


def finished(table: str, seq: int, scores: dict[str, int], game_id: int = 1, ended: float = 5000.0, **kw):
    best = max(scores.values())
    return msg(table, "state", seq, game_id=game_id, game="neuesland", title="Neues Land", turn=30,
               players=[{"name": n, "colour": None, "score": s} for n, s in scores.items()], current=None,
               finished=True, winners=[n for n, s in scores.items() if s == best], started=100.0, ended=ended,
               last_event="game ended", **kw)


def playing(table: str, seq: int, scores: dict[str, int], current: str, run: str = "r1", turn: int = 3):
    return msg(table, "state", seq, run=run, game_id=1, game="neuesland", title="Neues Land", turn=turn,
               players=[{"name": n, "colour": "red", "score": s} for n, s in scores.items()], current=current,
               finished=False, winners=[], started=100.0, ended=None, last_event=None)


def test_standings_under_each_rule_with_shared_ranks():
    board = VenueBoard("cafe")
    board.handle(*finished("t1", 1, {"Ana": 30, "Ben": 20}))
    board.handle(*finished("t2", 1, {"Ana": 10, "Cy": 40}))
    board.handle(*finished("t3", 1, {"Ben": 25, "Cy": 25}))  # a shared win
    wins = {r["player"]: (r["rank"], r["wins"], r["points"], r["games"]) for r in board.standings("wins")}
    assert wins == {"Cy": (1, 2, 65, 2), "Ben": (2, 1, 45, 2), "Ana": (3, 1, 40, 2)}  # wins, then points
    points = [(r["rank"], r["player"]) for r in board.standings("points")]
    assert points == [(1, "Cy"), (2, "Ben"), (3, "Ana")]
    board.handle(*finished("t4", 1, {"Ana": 5, "Dee": 0}))
    assert [(r["rank"], r["player"]) for r in board.standings("wins")][:3] == [(1, "Cy"), (2, "Ana"), (3, "Ben")]
    average = {r["player"]: r["average"] for r in board.standings("average")}
    assert average["Cy"] == 32.5 and average["Ana"] == 15.0
    with pytest.raises(ValueError, match="ranking rule 'elo' is unknown"):
        board.standings("elo")


def test_ties_share_a_rank():
    board = VenueBoard()
    board.handle(*finished("t1", 1, {"Ana": 30, "Ben": 20}))
    board.handle(*finished("t2", 1, {"Cy": 30, "Dee": 20}))
    ranked = [(r["rank"], r["player"]) for r in board.standings("wins")]
    assert ranked == [(1, "Ana"), (1, "Cy"), (3, "Ben"), (3, "Dee")]


def test_the_csv_export():
    board = VenueBoard("cafe")
    board.handle(*finished("t10", 1, {"Ana": 30, "Ben": 20}))
    board.handle(*finished("t2", 1, {"Ana": 12, "Ben": 20}))
    rows = list(csv.DictReader(io.StringIO(board.standings_csv("points"))))
    assert [(r["rank"], r["player"], r["games"], r["wins"], r["points"], r["tables"]) for r in rows] == \
        [("1", "Ana", "2", "1", "42", "t2 t10"), ("2", "Ben", "2", "1", "40", "t2 t10")]


def test_evening_only_duplicates_stale_copies_and_strangers_are_ignored():
    board = VenueBoard("cafe", since=4000.0)
    board.handle(*finished("t1", 5, {"Ana": 30, "Ben": 20}, ended=3000.0))  # yesterday
    assert board.results() == [] and len(board.results(None)) == 1
    assert board.handle(*playing("t2", 7, {"Ana": 3, "Ben": 0}, "Ben", turn=4))
    assert not board.handle(*playing("t2", 6, {"Ana": 1, "Ben": 0}, "Ana", turn=2))  # older copy, resent
    assert not board.handle(*playing("t2", 7, {"Ana": 3, "Ben": 0}, "Ben", turn=4))  # QoS 1 duplicate
    assert board.handle(*playing("t2", 1, {"Ana": 0, "Ben": 0}, "Ana", run="r2", turn=1))  # the hub restarted
    t2 = [t for t in board.tables() if t["table"] == "t2"][0]
    assert t2["turn"] == 1 and t2["current"] == "Ana"
    assert not board.handle("tablehub/cafe/t3/state", b"not json")
    assert not board.handle("tablehub/cafe/t3/state", json.dumps({"v": 2, "type": "state"}).encode())
    assert not board.handle(*msg("t3", "status", 1, venue="other", status="online"))  # another venue
    assert not board.handle("tablehub/cafe/t4/state", msg("t3", "status", 1, status="online")[1])  # wrong table
    assert board.ignored == 3 and {t["table"] for t in board.tables()} == {"t1", "t2"}


def test_a_reopened_game_withdraws_its_result_and_offline_is_shown():
    board = VenueBoard("cafe")
    board.handle(*finished("t1", 5, {"Ana": 30, "Ben": 20}))
    board.handle(*msg("t1", "status", 6, status="online"))
    assert board.results(None)
    board.handle("tablehub/cafe/t1/results/1", b"")
    assert board.results(None) == []
    board.handle("tablehub/cafe/t1/status", json.dumps({"v": 1, "type": "status", "venue": "cafe", "table": "t1",
                                                        "at": 1.0, "status": "offline"}).encode())
    assert board.tables()[0]["online"] is False


def test_the_page_the_api_the_csv_and_the_event_stream():
    board = VenueBoard("cafe")
    board.handle(*playing("t1", 1, {"Ana <b>": 3, "Ben": 1}, "Ben"))
    board.handle(*msg("t1", "event", 2, kind="action", game_id=1, game="neuesland", text="Ana laid a tile",
                      source="camera", action={"type": "place_tile"}, score_events=[]))
    board.handle(*finished("t2", 1, {"Cy": 12, "Dee": 20}))
    feed = BoardFeed(board, "points", min_interval_s=0.01)
    app = create_venue_app(board, "points", feed=feed)
    client = app.test_client()
    page = client.get("/")
    assert page.status_code == 200 and b"venue_board.js" in page.data and b'data-rule="points"' in page.data
    snap = client.get("/api/board").get_json()
    t1 = snap["tables"][0]
    assert (t1["table"], t1["current"], t1["last_event"], t1["online"]) == ("t1", "Ben", "Ana laid a tile", True)
    assert snap["rule"] == "points" and [r["player"] for r in snap["standings"]["points"]] == ["Dee", "Cy"]
    csv_resp = client.get("/standings.csv?rule=wins")
    assert csv_resp.mimetype == "text/csv" and "attachment" in csv_resp.headers["Content-Disposition"]
    assert csv_resp.get_data(as_text=True).splitlines()[1].startswith("1,Dee,1,1,20")
    assert client.get("/standings.csv?rule=elo").status_code == 400
    stream = client.get("/events", buffered=False)
    first = next(stream.response)
    first = first.decode() if isinstance(first, bytes) else first
    assert "event: state" in first and '"table":"t1"' in first
    stream.close()
    feed.close()
