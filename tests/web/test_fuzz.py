"""Property-based fuzzing of every endpoint (Hypothesis): whatever a phone or a stranger sends,
the hub answers below 500, never with a traceback, and a refusal changes nothing.

Each example runs against a fresh hub (in-memory store) with a Neues Land game in progress,
sending the PIN header so the input reaches the route's own checks.
"""
from __future__ import annotations

import json
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tablehub.games.base import Setup  # noqa: E402
from tablehub.store import Store  # noqa: E402

from .conftest import COLOURS, PIN, PLAYERS  # noqa: E402

FUZZ = settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))

#: the awkward values of issue 12: huge, non-finite, wrong types, odd text
NASTY = st.one_of(
    st.integers(), st.sampled_from([10 ** 30, -1, 0, 2 ** 63, 10 ** 5000 // 10 ** 4990]),
    st.floats(allow_nan=False), st.booleans(), st.none(),
    st.text(max_size=30), st.sampled_from(["²", "\u202e", "\x00", "\x1b[31m", "", "9" * 400]),
)
JSONISH = st.recursive(NASTY, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
FIELDS = st.sampled_from(["type", "tile", "x", "y", "rotation", "player", "region", "id", "pin", "scope",
                          "offer", "index", "game", "players", "colors", "options", "action"])
ACTION = st.dictionaries(FIELDS, JSONISH, max_size=5).map(lambda d: d)
TYPES = st.sampled_from(["place_tile", "place_figure", "score_figure", "pass", "draw"])
ACTIONISH = st.one_of(ACTION, st.builds(lambda t, d: {"type": t, **d}, TYPES | JSONISH, ACTION))
BODY = st.one_of(
    st.builds(lambda a: {"action": a}, ACTIONISH), ACTIONISH,
    st.dictionaries(FIELDS, JSONISH, max_size=6), JSONISH,
)
RAW = st.one_of(
    BODY.map(lambda b: json.dumps(b).encode()),
    st.binary(max_size=200),
    st.sampled_from([b"", b"{", b"NaN", b'{"id": NaN}', b'{"id": 1e400}', b'{"id": Infinity}',
                     b"[" * 30000, b'{"a":' * 10000, b"\xff\xfe{}", b'{"pin": "' + b"1" * 5000 + b'"}']),
)
CONTENT_TYPES = st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded",
                                 "multipart/form-data; boundary=x", "application/json; charset=latin-1", ""])


def _hub():
    from web import Hub, create_app

    hub = Hub(Store(), pin=PIN)
    hub.start(Setup("neuesland", PLAYERS, COLOURS))
    for a in _ACTIONS[:6]:
        hub.submit(a, source="camera")
    _boards(hub)
    return hub, create_app(hub, heartbeat=0.1, stream_lifetime=0.3).test_client()


def _boards(hub) -> None:
    """The board screens on a fresh folder: a Karibik draft being corrected (the grid board's
    spaces, nothing marked) and Tahiti's track with one space recorded."""
    import tempfile

    from tablehub.board_setup import BoardSetup
    from web.views.boards import attach

    setup = BoardSetup(tempfile.mkdtemp(prefix="tablehub-fuzz-"))
    setup.start_draft("karibik", _GRID_DRAFT[0])
    setup.edit("tahiti", {"op": "set", "index": 0, "letter": "A", "pearl": "green"})
    attach(hub, setup)
    hub._fuzz_boards = setup.folder  # what _fingerprint reads


_GRID_DRAFT: list[dict[str, Any]] = []


_ACTIONS: list[dict[str, Any]] = []


@pytest.fixture(scope="module", autouse=True)
def _actions():
    from .conftest import neuesland_actions

    _ACTIONS[:] = neuesland_actions()
    from tablehub.games.karibik.board import load_board
    from tests.karibik.test_draft import bare

    load_board("grid")
    _GRID_DRAFT[:] = [bare("grid")]


def _fingerprint(hub) -> Any:
    s = hub.session
    games = [(g.id, g.ended) for g in hub.store.games()]
    boards = getattr(hub, "_fuzz_boards", None)
    files = {} if boards is None else {p.name: p.read_bytes() for p in sorted(boards.glob("*"))}
    return (None if s is None else (s.game_id, len(s.rows), s.game.finished), games,
            hub.snapshot()["offer"], hub.snapshot()["flag"], files)


def _check(resp, before, hub, what: str) -> None:
    body = resp.get_data()
    assert resp.status_code < 500, f"{what}: {resp.status_code} {body[:300]!r}"
    assert b"Traceback" not in body, what
    if resp.status_code >= 400:
        assert _fingerprint(hub) == before, f"{what}: refused ({resp.status_code}) but the game changed"
        if resp.mimetype == "application/json":
            assert resp.get_json()["error"], what


POSTS = ["/api/unlock", "/api/lock", "/api/submit", "/api/check", "/api/undo", "/api/offer/accept",
         "/api/pending/commit", "/api/offer/dismiss", "/api/flag/clear", "/api/game/start", "/api/game/end",
         "/api/game/reopen", "/api/game/resume", "/api/game/close", "/api/command/x", "/api/notice",
         "/api/voice", "/api/voice/test",
         # the board screens (web/views/boards.py): one rule, /api/trace/<game>/<action>
         "/api/trace/karibik/edit", "/api/trace/tahiti/edit", "/api/trace/karibik/upload",
         "/api/trace/karibik/capture", "/api/trace/karibik/save", "/api/trace/tahiti/save",
         "/api/trace/karibik/use", "/api/trace/karibik/reset", "/api/trace/x/y",
         # a finished table scored from a photo (web/views/photoscore.py)
         "/api/photoscore", "/api/photoscore/part",
         # a printed board's corner tapped on the enrolment preview (web/views/boardenrol.py)
         "/api/enrolment/corner"]
GETS = ["/", "/setup", "/join", "/unlock", "/camera/calibration", "/api/state", "/api/board.svg",
        "/api/board.json", "/api/forms", "/api/legal", "/api/hints", "/api/games", "/api/me", "/qr/join.svg",
        "/qr/pin.svg", "/camera.jpg", "/camera.mjpg", "/events", "/voice", "/api/voice",
        "/trace/karibik", "/trace/tahiti", "/api/trace/karibik", "/api/trace/tahiti", "/api/trace/karibik/board.svg",
        "/api/trace/tahiti/board.svg", "/api/trace/karibik/photo.jpg",
        # the page's language switch (web/language.py): any code, any next
        "/language/fr", "/language/xx"]


def _rule(path: str) -> str:
    """The URL rule a fuzzed path exercises."""
    if path.startswith("/api/command"):
        return path.replace("/x", "/<name>")
    if path == "/camera/calibration":
        return "/camera/<screen>"
    if path.startswith("/language/"):
        return "/language/<code>"
    parts = path.split("/")
    if path.startswith("/trace/"):
        return "/trace/<game>"
    if path.startswith("/api/trace/"):
        return "/".join(parts[:3] + ["<game>"] + (["<action>"] if len(parts) > 4 and "." not in parts[4]
                                                   else parts[4:]))
    return path


def test_every_route_is_fuzzed():
    from web import Hub, create_app

    app = create_app(Hub(Store(), pin=PIN))
    rules = {(r.rule, m) for r in app.url_map.iter_rules() for m in r.methods - {"HEAD", "OPTIONS"}
             if r.endpoint != "static"}
    covered = {(_rule(p), "POST") for p in POSTS}
    covered |= {(_rule(p), "GET") for p in GETS}
    assert rules <= covered, f"routes without a fuzz test: {sorted(rules - covered)}"


@pytest.mark.parametrize("path", POSTS)
@FUZZ
@given(raw=RAW, content_type=CONTENT_TYPES)
def test_post_bodies_never_break_the_hub(path, raw, content_type):
    hub, client = _hub()
    before = _fingerprint(hub)
    resp = client.post(path, data=raw, headers={"X-Tablehub-Pin": PIN, "Content-Type": content_type})
    _check(resp, before, hub, f"POST {path} {content_type} {raw[:80]!r}")


@pytest.mark.parametrize("path", ["/api/submit", "/api/check", "/api/game/resume", "/api/game/start",
                                  "/api/offer/accept", "/api/undo", "/api/unlock"])
@FUZZ
@given(body=BODY)
def test_json_objects_never_break_the_hub(path, body):
    hub, client = _hub()
    before = _fingerprint(hub)
    resp = client.post(path, data=json.dumps(body), headers={"X-Tablehub-Pin": PIN,
                                                            "Content-Type": "application/json"})
    _check(resp, before, hub, f"POST {path} {json.dumps(body)[:200]}")


BOARD_FIELDS = st.sampled_from(["spaces", "space", "line", "name", "chest", "colour", "at", "index", "letter",
                                 "pearl", "part", "parts", "data", "size_mm", "use"])
BOARD_OPS = st.sampled_from(["merge", "split", "link", "unlink", "port", "hideout", "skull", "clear", "pile",
                             "unpile", "set"])
NEAR = st.one_of(JSONISH, st.integers(0, 60), st.lists(st.integers(0, 60), min_size=2, max_size=2),
                 st.lists(st.lists(st.floats(0, 400), min_size=2, max_size=2), min_size=2, max_size=2))


@pytest.mark.parametrize("path", ["/api/trace/karibik/edit", "/api/trace/tahiti/edit", "/api/trace/karibik/upload",
                                  "/api/trace/karibik/save"])
@FUZZ
@given(op=BOARD_OPS, fields=st.dictionaries(BOARD_FIELDS, NEAR, max_size=4))
def test_board_corrections_never_break_the_hub(path, op, fields):
    hub, client = _hub()
    before = _fingerprint(hub)
    body = {"op": op, **fields}
    resp = client.post(path, data=json.dumps(body), headers={"X-Tablehub-Pin": PIN, "Content-Type": "application/json"})
    _check(resp, before, hub, f"POST {path} {json.dumps(body)[:200]}")


QUERY = st.dictionaries(st.sampled_from(["x", "y", "tile", "piece", "type", "limit", "seconds", "overlay", "via", "pin",
                                         "last", "rotation", "²", "a b"]),
                        st.one_of(st.text(max_size=12), st.sampled_from(["²", "-0", "1e400", "9" * 50, "NaN",
                                                                         "-", "true", "\u0663"])), max_size=4)


@pytest.mark.parametrize("path", GETS)
@FUZZ
@given(query=QUERY, last=st.one_of(st.none(), st.text(max_size=20)))
def test_queries_never_break_the_hub(path, query, last):
    hub, client = _hub()
    hub.camera_preview = lambda overlay: b"\xff\xd8jpeg\xff\xd9"
    before = _fingerprint(hub)
    headers = {"X-Tablehub-Pin": PIN}
    if last is not None and last.isprintable() and last.isascii():
        headers["Last-Event-ID"] = last
    streaming = path in ("/camera.mjpg", "/events")
    resp = client.get(path, query_string=query, headers=headers, buffered=not streaming)
    try:
        if streaming and resp.status_code == 200:  # a live stream: its start is enough
            assert resp.mimetype in ("multipart/x-mixed-replace", "text/event-stream")
        else:
            _check(resp, before, hub, f"GET {path} {query}")
    finally:
        resp.close()
        hub.shutdown()


def test_the_examples_of_issue_12_are_400s_naming_the_field(player, neuesland, client):
    resp = player.post("/api/game/resume", {"id": 10 ** 30})
    assert resp.status_code == 400 and "id must be" in resp.get_json()["error"]
    resp = client.get("/api/legal?x=%C2%B2")
    assert resp.status_code < 500
    resp = client.get("/api/legal?limit=%C2%B2")
    assert resp.status_code == 400 and "limit" in resp.get_json()["error"]
    nested = player.client.post("/api/submit", data=b'{"action":' + b"[" * 30000 + b"]" * 30000 + b"}",
                                headers={"X-CSRF-Token": player.csrf, "Content-Type": "application/json"})
    assert nested.status_code == 400 and "nests deeper" in nested.get_json()["error"]
    text = player.client.post("/api/submit", data=b"place a tile", headers={"X-CSRF-Token": player.csrf,
                                                                            "Content-Type": "text/plain"})
    assert text.status_code == 415 and "JSON" in text.get_json()["error"]
    nan = player.client.post("/api/game/resume", data=b'{"id": NaN}', headers={"X-CSRF-Token": player.csrf,
                                                                               "Content-Type": "application/json"})
    assert nan.status_code == 400 and "NaN" in nan.get_json()["error"]


# ---------------------------------------------------------------- the photo upload (web/views/photoscore.py)

PNG_HEAD = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
PHOTOS = st.one_of(st.binary(max_size=300), st.binary(max_size=300).map(lambda b: PNG_HEAD + b),
                   st.sampled_from([PNG_HEAD + b"\x00\x00\xea\x60\x00\x00\xea\x60" + b"\x00" * 40, b"\xff\xd8\xff",
                                    b"BM" + b"\xff" * 40]))


@FUZZ
@given(photo=PHOTOS, game=st.one_of(st.none(), st.sampled_from(["neuesland", "suedsee", "karibik"]), NASTY),
       players=st.one_of(st.none(), JSONISH), as_url=st.booleans())
def test_photos_sent_to_be_scored_never_break_the_hub(tmp_path_factory, photo, game, players, as_url):
    """Whatever picture comes (noise, a header claiming 60,000 x 60,000 pixels, a truncated JPEG), the real reader
    answers with one line and the game on the table does not change."""
    import base64

    from tablehub.photo import photo_scorer

    hub, client = _hub()
    refs = tmp_path_factory.mktemp("refs")
    hub.photo_scorer = photo_scorer(lambda game: refs)
    before = _fingerprint(hub)
    text = base64.b64encode(photo).decode()
    body: dict[str, Any] = {"photo": f"data:image/png;base64,{text}" if as_url else text}
    if game is not None:
        body["game"] = game
    if players is not None:
        body["players"] = players
    resp = client.post("/api/photoscore", data=json.dumps(body),
                       headers={"X-Tablehub-Pin": PIN, "Content-Type": "application/json"})
    _check(resp, before, hub, f"POST /api/photoscore {json.dumps(body)[:200]}")
    assert resp.status_code == 400, resp.get_json()
    hub.shutdown()
