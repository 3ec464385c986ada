"""Karibik on the page: the board picture (API) and, in Debian's headless Chromium at phone size,
a move entered from the phone alone by tapping the path on the board."""
from __future__ import annotations

from pathlib import Path

import pytest

from tablehub.games.base import Setup
from tests.browser import PHONE, chromium

PIN = "4821"
PLAYERS = ("Ana", "Ben", "Chloé")
SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"


def started(hub) -> dict:
    """A 3-player game on the provisional board where Ana won Arriba with 3 (Ben played a thief)."""
    hub.start(Setup("karibik", PLAYERS, ("red", "blue", "green")))
    game = hub.session.game
    hub.submit({"type": "deal", "towns": [t.name for t in game.board.towns[:6]]})
    hub.submit({"type": "place_ships", "spaces": list(game.board.skulls)})
    for player, card in zip(PLAYERS, (3, -1, 1)):
        hub.submit({"type": "card", "player": player, "card": card, "ship": "Arriba"})
    return hub.snapshot()


def test_the_board_picture_shows_spaces_ships_reach_and_the_provisional_label(hub):
    from web import create_app

    snap = started(hub)
    assert snap["game"]["view_kind"] == "karibik"
    client = create_app(hub, heartbeat=0.2, stream_lifetime=2.0).test_client()
    svg = client.get("/api/board.svg").get_data(as_text=True)
    game = hub.session.game
    assert svg.count('data-space="') == len(game.board.centres)
    assert svg.count('class="ship"') == 6
    assert svg.count('class="space reachable"') == len(game.view()["reachable"]) > 0
    assert "PROVISIONAL BOARD" in svg
    assert svg.count('class="chest face-up"') == 6
    legal = client.get("/api/legal?type=sail&limit=200").get_json()["actions"]
    assert legal and all(a["type"] == "sail" for a in legal)
    assert {a["path"][-1] for a in legal} == set(game.view()["reachable"]), "a way to every reachable space"
    data = client.get("/api/forms").get_json()
    forms = {f["type"] for f in data["forms"]}
    assert {"card", "seventh", "sail", "attack", "steal", "swap", "transfer", "safeguard", "end_move"} <= forms
    assert data["hints"]["ship"][0] == "Arriba" and len(data["hints"]["ship"]) == 6


@pytest.mark.browser
def test_a_path_tapped_on_the_board_sails_the_ship(hub):
    with chromium(PHONE) as d:
        _sail_by_taps(hub, d)


def _sail_by_taps(hub, d) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    from web.server import BackgroundServer

    started(hub)
    game = hub.session.game
    start = game.ship_at["Arriba"]
    blocked = set(game.occupant) - {start}
    first = next(n for n in game.board.neighbours[start] if n not in blocked)
    second = next(n for n in game.board.neighbours[first] if n not in blocked and n != start)
    srv = BackgroundServer(hub, threads=8)
    SHOTS.mkdir(parents=True, exist_ok=True)

    def wait(cond, what):
        WebDriverWait(d, 8, poll_frequency=0.05).until(lambda _: cond(), message=what)

    def tap_space(space: int) -> None:
        el = d.find_element(By.CSS_SELECTOR, f'#board-wrap [data-space="{space}"] polygon')
        d.execute_script("""
            const el = arguments[0]; const r = el.getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            const wrap = document.querySelector('#board-wrap');
            for (const type of ['pointerdown', 'pointerup']) {
              wrap.dispatchEvent(new PointerEvent(type, {clientX: x, clientY: y, pointerId: 1, bubbles: true}));
            }""", el)

    try:
        d.set_window_size(*PHONE)
        d.get(srv.url)
        wait(lambda: "provisional" in d.find_element(By.ID, "provisional").text.lower(), "the provisional label")
        d.save_screenshot(str(SHOTS / "karibik-01-scores.png"))
        d.get(srv.url + "#enter")
        wait(lambda: len(d.find_elements(By.CSS_SELECTOR, "#move-type option")) > 5, "the move form")
        d.find_element(By.ID, "lock-btn").click()
        wait(lambda: d.find_element(By.ID, "pin-dialog").get_attribute("open") is not None, "the PIN dialog")
        d.find_element(By.ID, "pin-input").send_keys(PIN)
        d.find_element(By.ID, "pin-ok").click()
        wait(lambda: d.execute_script("return document.body.dataset.unlocked") == "1", "unlocking")
        Select(d.find_element(By.ID, "move-type")).select_by_value("sail")
        d.get(srv.url + "#board")
        d.execute_script("location.hash = '#board'")
        wait(lambda: len(d.find_elements(By.CSS_SELECTOR, "#board-wrap [data-space]")) == len(game.board.centres),
             "the Karibik board")
        d.save_screenshot(str(SHOTS / "karibik-02-board.png"))
        tap_space(first)
        tap_space(second)
        d.execute_script("location.hash = '#enter'")
        path = d.find_element(By.CSS_SELECTOR, '#move-fields [name="path"]')
        wait(lambda: path.get_attribute("value") == f"[{first},{second}]", "the tapped path in the form")
        d.save_screenshot(str(SHOTS / "karibik-03-path.png"))
        d.execute_script("document.querySelector('#move-submit').scrollIntoView({block: 'center'})")
        d.find_element(By.ID, "move-submit").click()
        wait(lambda: hub.snapshot()["game"]["actions"] == 6, "the sail reaching the hub")
        assert hub.session.game.ship_at["Arriba"] == second
        d.execute_script("location.hash = '#board'")
        wait(lambda: d.find_elements(By.CSS_SELECTOR, "#board-wrap polyline.path"), "the path just sailed")
        d.save_screenshot(str(SHOTS / "karibik-04-sailed.png"))
    finally:
        srv.stop()


def test_the_board_module_docstring_example_runs():
    import doctest

    import web.board_karibik

    result = doctest.testmod(web.board_karibik)
    assert result.failed == 0 and result.attempted > 0
