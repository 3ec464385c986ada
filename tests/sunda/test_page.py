"""The Sunda page: the board picture, the hand-entry forms and legal lists on a real Flask app and
hub (SQLite), and a screenshot in Debian's headless Chromium with a challenge's odds on the board."""
from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

from tablehub.games.base import Setup
from tablehub.games.sunda.drawing import expand
from tests.browser import PHONE, chromium

PIN = "2468"
SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"
SCENARIOS = Path(__file__).parent / "scenarios"


def challenge_pending(hub, stop: str = "roll") -> None:
    """The challenges scenario up to its first action of type ``stop`` (default: its first roll,
    where a 1 v 1 challenge waits for its dice)."""
    data = expand(json.loads((SCENARIOS / "challenges.json").read_text()))
    hub.start(Setup("sunda", tuple(data["players"]), ("red", "blue"), data["options"]))
    for a in data["actions"]:
        if a["type"] == stop:
            break
        if "refused" in a or a["type"] == "expect":
            continue
        hub.submit(a)


def test_the_board_module_doctest_runs():
    import web.board_sunda

    result = doctest.testmod(web.board_sunda)
    assert result.failed == 0 and result.attempted > 0


def test_the_docs_board_picture_is_drawn_by_its_script(tmp_path):
    import subprocess
    import sys

    out = tmp_path / "board.svg"
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, str(root / "scripts" / "sunda_board_svg.py"), "--out", str(out)], check=True,
                   capture_output=True, cwd=root)
    svg = out.read_text()
    for part in ("coast-complete", "coast-open", "coast-islet", 'class="node"', "tribe of 3"):
        assert part in svg, part
    assert svg == (root / "docs" / "sunda-board.svg").read_text(), "run scripts/sunda_board_svg.py"


def test_the_board_shows_land_tribes_and_the_odds_before_the_dice(hub):
    from web import create_app

    challenge_pending(hub)
    client = create_app(hub, heartbeat=0.2, stream_lifetime=2.0).test_client()
    svg = client.get("/api/board.svg").get_data(as_text=True)
    assert "board-sunda" in svg and svg.count('class="piece"') == 10
    assert "58.3 %" in svg and 'class="challenge"' in svg
    assert "tribe of 2" in svg, "tribe heights are drawn and named"
    state = client.get("/api/state").get_json()
    assert "58.3 %" in json.dumps(state), "the waiting line says the odds too"


def test_the_phone_can_list_and_play_the_moves(hub):
    from web import create_app

    client = create_app(hub, heartbeat=0.2, stream_lifetime=2.0).test_client()
    client.get("/")
    with client.session_transaction() as s:
        csrf = s["csrf"]

    def post(path, body):
        return client.post(path, json=body, headers={"X-CSRF-Token": csrf})

    assert post("/api/unlock", {"pin": PIN}).status_code == 200
    refused = post("/api/game/start", {"game": "sunda", "players": ["Ana", "Ben"],
                                       "options": {"pieces": "/etc/passwd"}})
    assert refused.status_code == 400 and "pieces" in refused.get_json()["error"]
    assert post("/api/game/start", {"game": "sunda_to_sahul", "players": ["Ana", "Ben"],
                                    "options": {"tribes": True}}).status_code == 200
    forms = {f["type"]: [x["name"] for x in f["fields"]] for f in client.get("/api/forms").get_json()["forms"]}
    assert forms["place_piece"] == ["piece", "q", "r", "turn", "player"]
    assert {"place_pawn", "water_right", "consent", "challenge", "roll", "place_marker"} <= set(forms)
    listed = client.get("/api/legal?type=place_piece&piece=s001").get_json()["actions"]
    assert [(a["q"], a["r"]) for a in listed] == [(0, 0)] * 6
    assert post("/api/submit", {"action": listed[2]}).status_code == 200
    bad = post("/api/submit", {"action": {"type": "place_pawn", "q": 5, "r": 5}})
    assert bad.status_code in (400, 409) and "\n" not in json.dumps(bad.get_json())
    assert hub.session.game.board.placed[0].turn == listed[2]["turn"]


@pytest.fixture()
def phone(hub):
    """Debian's headless Chromium at phone size on a real waitress server for ``hub``."""
    from web.server import BackgroundServer

    srv = BackgroundServer(hub, threads=8)
    try:
        with chromium(PHONE) as d:
            d.url = srv.url
            SHOTS.mkdir(parents=True, exist_ok=True)
            yield d
    finally:
        srv.stop()


@pytest.mark.browser
def test_a_pawn_is_played_from_the_phone_with_the_legal_list(hub, phone):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    challenge_pending(hub, stop="challenge")   # Ana has just formed 4,1: she may claim
    d = phone
    d.get(d.url + "#enter")
    WebDriverWait(d, 8).until(lambda _: d.find_elements(By.CSS_SELECTOR, "#move-type option"))
    Select(d.find_element(By.ID, "move-type")).select_by_value("place_pawn")
    d.find_element(By.ID, "move-legal").click()
    WebDriverWait(d, 8).until(lambda _: d.find_elements(By.CSS_SELECTOR, "#move-legal-list button"))
    labels = [b.text for b in d.find_elements(By.CSS_SELECTOR, "#move-legal-list button")]
    assert "q 4, r 1" in labels and "q 3, r 1" in labels, labels   # the new node, or join her tribe
    d.save_screenshot(str(SHOTS / "sunda-enter-legal-pawns.png"))
    d.find_elements(By.CSS_SELECTOR, "#move-legal-list button")[labels.index("q 3, r 1")].click()
    d.find_element(By.ID, "move-submit").click()
    WebDriverWait(d, 8).until(lambda _: d.find_element(By.ID, "pin-dialog").get_attribute("open") is not None)
    d.find_element(By.ID, "pin-input").send_keys(PIN)
    d.find_element(By.ID, "pin-ok").click()
    WebDriverWait(d, 8).until(lambda _: hub.session.game.tribes.get((3, 1)) == [0, 0])


@pytest.mark.browser
def test_a_screenshot_of_the_board_in_headless_chromium(hub, phone):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    challenge_pending(hub)
    d = phone
    d.get(d.url + "#board")
    WebDriverWait(d, 8).until(lambda _: d.find_elements(By.CSS_SELECTOR, "#board-wrap .piece"))
    odds = d.find_elements(By.CSS_SELECTOR, "#board-wrap .odds")
    assert len(odds) == 2 and "58.3 %" in odds[1].text
    assert d.find_elements(By.CSS_SELECTOR, "#board-wrap .coast"), "coasts are outlined"
    d.save_screenshot(str(SHOTS / "sunda-board-challenge.png"))
    d.get(d.url + "#scores")
    WebDriverWait(d, 8).until(lambda _: "58.3" in d.find_element(By.TAG_NAME, "body").text)
    d.save_screenshot(str(SHOTS / "sunda-scores-challenge.png"))
