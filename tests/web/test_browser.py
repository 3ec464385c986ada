"""The page in a real headless Chromium at phone size, against a real waitress server.

Needs Debian's ``chromium`` and ``chromium-driver`` (scripts/test installs them); skips
cleanly without them. Screenshots for review are saved under tests/artifacts/screenshots/
(git-ignored).
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tablehub.games.base import Setup
from tests.browser import PHONE, chromium, css, texts, wait_for  # noqa: F401 (css, wait_for: other modules import them from here)

from .conftest import COLOURS, PIN, PLAYERS, first_scoring_index

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"


@pytest.fixture(scope="module")
def driver():
    with chromium(PHONE) as d:
        SHOTS.mkdir(parents=True, exist_ok=True)
        yield d


@pytest.fixture()
def server(hub):
    from web.server import BackgroundServer

    srv = BackgroundServer(hub, threads=20)
    yield srv
    srv.stop()


def click(d, selector: str) -> None:
    """Scroll an element to the middle of the screen (clear of the tab bar) and tap it."""
    element = css(d, selector)[0]
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def shot(d, name: str, folder: Path = SHOTS) -> Path:
    """A screenshot ``folder/name.png``, after checking that the page does not scroll sideways."""
    width = d.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"{name}: the page scrolls sideways ({width[0]} px wide in {width[1]})"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    d.save_screenshot(str(path))
    return path


def start_game(hub, actions, upto: int):
    hub.start(Setup("neuesland", PLAYERS, COLOURS))
    for a in actions[:upto]:
        hub.submit(a, source="camera")


def score_of(d, name: str) -> str:
    found = css(d, f'.player[data-player="{name}"] .score')
    return found[0].text if found else ""


def test_a_score_change_is_pushed_live_to_the_phone(driver, server, hub, nl_actions):
    i = first_scoring_index(nl_actions)
    start_game(hub, nl_actions, i)
    driver.set_window_size(*PHONE)
    driver.get(server.url)
    wait_for(driver, lambda: len(css(driver, ".player")) == 3, what="three players on the scoreboard")
    wait_for(driver, lambda: "live" in css(driver, "#live")[0].get_attribute("class").split(), what="the live dot")
    names = texts(driver, ".player .name")
    assert names == list(PLAYERS), "players are shown in turn order"
    colours = texts(driver, ".player .colour")
    assert colours == list(COLOURS), "every colour is written out, not only shown"
    before = {p: score_of(driver, p) for p in PLAYERS}
    shot(driver, "01-scoreboard-phone")

    events = hub.submit(nl_actions[i], source="camera")  # the tracker's path, no page involved
    scorer = next(e.player for e in events if e.points)
    expected = str(hub.snapshot()["game"]["players"][PLAYERS.index(scorer)]["score"])
    t0 = time.monotonic()
    wait_for(driver, lambda: score_of(driver, scorer) == expected, timeout=5, what=f"{scorer}'s new score")
    print(f"\nscore change reached the page in {1000 * (time.monotonic() - t0):.0f} ms")
    assert score_of(driver, scorer) != before[scorer]
    shot(driver, "02-scoreboard-after-a-score")

    driver.get(server.url + "#history")
    wait_for(driver, lambda: len(css(driver, "#turns .ev")) > 0, what="the score explained in the history")
    reasons = " ".join(texts(driver, "#turns .ev"))
    assert events[0].reason in reasons, "the history explains the score change"
    shot(driver, "03-history-phone")


def test_the_board_is_drawn_with_the_flag_and_the_suggestions(driver, server, hub, nl_actions):
    start_game(hub, nl_actions, 40)
    tile = next(a for a in nl_actions[40:] if a["type"] == "place_tile")["tile"]
    choices = hub.legal_actions({"type": "place_tile", "tile": tile}, limit=2)
    hub.offer([(choices[0], 0.64), (choices[-1], 0.22), (dict(choices[0], x=30), 0.1)],
              note="tile at the north edge: two readings fit")
    hub.flag("the sea on the east side meets a mountain", 4, 1)
    hub.set_status("table", "Illegal: the sea on the east side meets a mountain")
    driver.set_window_size(*PHONE)
    driver.get(server.url + "#board")
    wait_for(driver, lambda: len(css(driver, "#board-wrap .tile")) > 10, what="the board picture")
    assert css(driver, "#board-wrap .flag"), "the illegal placement is drawn"
    assert css(driver, "#board-wrap .last"), "the last tile is outlined"
    assert css(driver, "#board-wrap .figure"), "figures are drawn"
    assert "meets a mountain" in css(driver, "#flag")[0].text
    shot(driver, "04-board-phone")
    click(driver, "#zoom-in")
    click(driver, "#zoom-in")
    box = css(driver, "#board-wrap svg")[0].get_attribute("viewBox")
    assert box != css(driver, "#board-wrap svg")[0].get_attribute("data-view"), "the zoom buttons zoom"
    shot(driver, "05-board-zoomed")
    driver.get(server.url + "#scores")
    wait_for(driver, lambda: len(css(driver, "#offer-list li")) == 3, what="the camera's suggestions")
    assert "meets a mountain" in css(driver, '#status-strip li[data-topic="table"]')[0].text
    driver.execute_script("window.scrollTo(0, 0)")
    shot(driver, "06-suggestions-and-flag")


def test_the_pending_turn_shows_as_a_card_and_a_ghost_and_commits_after_the_pin(driver, server, hub, nl_actions):
    i = next(k for k in range(40, len(nl_actions) - 1)
             if nl_actions[k]["type"] == "place_tile" and nl_actions[k + 1]["type"] == "place_figure")
    start_game(hub, nl_actions, i)
    tile, figure = nl_actions[i], nl_actions[i + 1]
    hub.pending([tile, figure])
    driver.set_window_size(*PHONE)
    driver.delete_all_cookies()
    driver.get(server.url + "#scores")
    wait_for(driver, lambda: css(driver, "#pending")[0].is_displayed(), what="the pending card")
    card = texts(driver, "#pending")[0]
    assert card.startswith("Pending: 2 actions"), "the heading counts the actions"
    items = texts(driver, "#pending-list li")
    assert len(items) == 2 and items[0].startswith("Lay the tile with "), "each action in table words, once"
    codes = texts(driver, "#pending-list li small.code")
    assert codes[0].startswith("place_tile " + tile["tile"]), "the record's ids in small print under the words"
    assert card.count("Lay the tile with") == 1 and "Commit now" in card
    driver.execute_script("window.scrollTo(0, 0)")
    shot(driver, "20-pending-card")

    driver.get(server.url + "#board")
    wait_for(driver, lambda: len(css(driver, "#board-wrap .ghost")) == 1, what="the pending tile on the board")
    ghost = css(driver, "#board-wrap .ghost")[0]
    assert (ghost.get_attribute("data-x"), ghost.get_attribute("data-y")) == (str(tile["x"]), str(tile["y"]))
    assert css(driver, "#board-wrap .ghost-figure"), "its figure as a ghost too"
    assert "Pending" in css(driver, "#board-caption")[0].text
    driver.execute_script(
        "const g = document.querySelector('#board-wrap .ghost'); const s = g.ownerSVGElement;"
        "const b = g.getBBox(); s.setAttribute('viewBox', `${b.x - 220} ${b.y - 220} ${b.width + 440} ${b.height + 440}`);")
    shot(driver, "21-pending-ghost-on-the-board")

    driver.get(server.url + "#scores")
    wait_for(driver, lambda: css(driver, "#pending")[0].is_displayed(), what="the pending card")
    click(driver, "#pending-commit")
    wait_for(driver, lambda: css(driver, "#pin-dialog")[0].get_attribute("open") is not None, what="the PIN dialog")
    assert hub.snapshot()["pending"] is not None, "nothing is logged before the PIN"
    css(driver, "#pin-input")[0].send_keys(PIN)
    click(driver, "#pin-ok")
    wait_for(driver, lambda: hub.snapshot()["game"]["actions"] == i + 2, what="the pending turn logged")
    assert [h["action"] for h in hub.snapshot()["game"]["history"][-2:]] == [tile, figure]
    wait_for(driver, lambda: not css(driver, "#pending")[0].is_displayed(), what="the card going away")
    assert css(driver, "#toast")[0].text.startswith("Logged: Lay the tile with"), "the phone says what it logged"
    driver.execute_script("document.querySelector('#toast').classList.remove('show')")

    # a figure choice that follows a pending tile: legal, and tapping it logs the tile and then the figure
    j = next(k for k in range(i + 2, len(nl_actions) - 1)
             if nl_actions[k]["type"] == "place_tile" and nl_actions[k + 1]["type"] == "place_figure")
    for a in nl_actions[i + 2:j]:
        hub.submit(a, source="camera")
    hub.pending([nl_actions[j]])
    hub.offer([(nl_actions[j + 1], 0.55), (dict(nl_actions[j + 1], region="nowhere"), 0.2)],
              note="Which part is the figure on?")
    wait_for(driver, lambda: len(css(driver, "#offer-list li")) == 2, what="the figure choices")
    buttons = css(driver, "#offer-list button")
    assert buttons[0].is_enabled() and not buttons[1].is_enabled(), "legal after the pending tile; the other not"
    driver.execute_script("window.scrollTo(0, 0)")
    shot(driver, "22-figure-choice-after-a-pending-tile")
    click(driver, "#offer-list li:first-child button")
    wait_for(driver, lambda: hub.snapshot()["game"]["actions"] == j + 2, what="the tile and the figure logged")
    assert [h["source"] for h in hub.snapshot()["game"]["history"][-2:]] == ["camera", "phone"]


def test_a_move_entered_by_hand_after_the_pin(driver, server, hub, nl_actions):
    start_game(hub, nl_actions, 12)
    driver.set_window_size(*PHONE)
    driver.delete_all_cookies()
    driver.get(server.url + "#enter")
    wait_for(driver, lambda: len(css(driver, "#move-type option")) > 2, what="the move form")
    click(driver, "#lock-btn")
    wait_for(driver, lambda: css(driver, "#pin-dialog")[0].get_attribute("open") is not None, what="the PIN dialog")
    shot(driver, "07-pin-dialog")
    css(driver, "#pin-input")[0].send_keys(PIN)
    click(driver, "#pin-ok")
    wait_for(driver, lambda: driver.execute_script("return document.body.dataset.unlocked") == "1", what="unlocking")

    action = nl_actions[12]
    fields = css(driver, "#move-fields [name]")
    assert [f.get_attribute("name") for f in fields] == ["tile", "x", "y", "rotation"]
    for f in fields[:3]:
        f.clear()
        f.send_keys(str(action[f.get_attribute("name")]))
    from selenium.webdriver.support.ui import Select

    Select(fields[3]).select_by_value(str(action["rotation"]))
    click(driver, "#move-legal")
    wait_for(driver, lambda: len(css(driver, "#move-legal-list li")) > 0, what="legal moves for the tile")
    shot(driver, "08-enter-a-move")
    click(driver, "#move-submit")
    wait_for(driver, lambda: hub.snapshot()["game"]["actions"] == 13, what="the move reaching the hub")
    assert hub.snapshot()["game"]["history"][-1]["source"] == "phone"

    # a refused move shows the rule's reason in one line
    driver.execute_script("document.querySelector('.json-box').open = true")
    box = css(driver, "#json-action")[0]
    tile = next(a for a in nl_actions[13:] if a["type"] == "place_tile")
    box.send_keys(json.dumps(dict(tile, x=40, y=40)))
    click(driver, "#json-form button")
    wait_for(driver, lambda: css(driver, "#json-error")[0].text != "", what="the refusal")
    assert hub.check(dict(tile, x=40, y=40)) == css(driver, "#json-error")[0].text, "the rule's own words"
    assert hub.snapshot()["game"]["actions"] == 13
    shot(driver, "09-refused-move")


def test_setup_join_camera_and_results_screens(driver, server, hub, nl_actions):
    start_game(hub, nl_actions, 60)
    driver.set_window_size(*PHONE)
    driver.get(server.url + "setup")
    wait_for(driver, lambda: len(css(driver, ".game-choice")) >= 2, what="the game list")
    assert len(css(driver, "#player-rows li")) >= 2
    shot(driver, "10-setup")
    driver.get(server.url + "join")
    wait_for(driver, lambda: len(css(driver, ".qr img")) >= 2, what="QR codes")
    shot(driver, "11-join")
    driver.get(server.url + "camera/calibration")
    wait_for(driver, lambda: css(driver, "#camera-none")[0].is_displayed(), what="the no-camera notice")
    shot(driver, "12-calibration-without-camera")
    hub.end()
    driver.get(server.url)
    wait_for(driver, lambda: css(driver, "#results")[0].is_displayed(), what="the final results")
    assert len(css(driver, "#results .rank")) == 3
    shot(driver, "13-final-results")
    driver.set_window_size(1280, 900)
    driver.get(server.url)
    wait_for(driver, lambda: len(css(driver, "#board-wrap .tile")) > 10, what="the board on a wide screen")
    wait_for(driver, lambda: "on" in css(driver, "#live")[0].get_attribute("class").split(),
             what="a live stream after six pages on 4 stream slots (pages left behind free theirs)")
    shot(driver, "14-wide-screen")
    driver.set_window_size(*PHONE)


def _renamed(actions, names: tuple[str, ...]) -> list[dict]:
    """Playout actions (players P1, P2...) with our players' names."""
    rename = {f"P{i + 1}": n for i, n in enumerate(names)}
    out = []
    for a in actions:
        d = a.to_dict()
        if d.get("player") in rename:
            d["player"] = rename[d["player"]]
        out.append(d)
    return out


def _tahiti_actions(names: tuple[str, ...]) -> list[dict]:
    from tablehub.games.tahiti.playout import random_game

    return _renamed(random_game(len(names), seed=1, max_actions=120).history, names)


def test_a_suedsee_game_shows_goods_ships_and_its_board(driver, server, hub):
    from tablehub.games.tiles.playout import PlayoutStats, random_game

    stats = PlayoutStats()
    random_game("suedsee", players=3, seed=2, stats=stats, finish=False)
    hub.start(Setup("suedsee", PLAYERS, COLOURS))
    for a in _renamed(stats.actions[:80], PLAYERS):
        hub.submit(a, source="camera")
    driver.set_window_size(*PHONE)
    driver.get(server.url)
    wait_for(driver, lambda: len(css(driver, '.res li[data-key="ships"]')) == 3, what="everyone's ships")
    assert css(driver, '#table-res li[data-key="face_up_ships"] ul li'), "face-up ships are listed one per line"
    shot(driver, "18-suedsee-scores")
    driver.get(server.url + "#board")
    wait_for(driver, lambda: len(css(driver, "#board-wrap .tile")) > 20, what="the Südsee board")
    shot(driver, "19-suedsee-board")


def test_a_tahiti_game_draws_its_map_and_money(driver, server, hub):
    names = ("Ana", "Ben", "Chloé")
    hub.start(Setup("tahiti", names, COLOURS))
    for a in _tahiti_actions(names):
        hub.submit(a, source="phone")
    driver.set_window_size(*PHONE)
    driver.get(server.url)
    wait_for(driver, lambda: len(css(driver, '.res li[data-key="cash"]')) == 3, what="everyone's cash")
    assert "provisional" in css(driver, "#provisional")[0].text.lower(), "provisional data is labelled"
    shot(driver, "15-tahiti-scores")
    driver.get(server.url + "#board")
    wait_for(driver, lambda: len(css(driver, "#board-wrap .space")) == 12, what="the Tahiti track")
    assert css(driver, "#board-wrap .boat"), "boats are drawn on the map"
    shot(driver, "16-tahiti-board")


def _camera_frame(overlay: str) -> bytes:
    """A synthetic camera picture (a mat with four markers) for the preview screens."""
    import cv2
    import numpy as np

    img = np.zeros((480, 640, 3), np.uint8)
    img[:] = (40, 90, 50)
    for x, y in ((20, 20), (560, 20), (20, 400), (560, 400)):
        cv2.rectangle(img, (x, y), (x + 60, y + 60), (0, 0, 0), -1)
        cv2.rectangle(img, (x + 15, y + 15), (x + 45, y + 45), (255, 255, 255), -1)
    cv2.rectangle(img, (270, 190), (370, 290), (120, 170, 200), -1)
    cv2.putText(img, f"overlay: {overlay}", (200, 460), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2)
    ok, jpg = cv2.imencode(".jpg", img)
    assert ok
    return jpg.tobytes()


def test_the_calibration_screen_shows_the_live_preview_status_and_commands(driver, store):
    pytest.importorskip("cv2")
    from web import Hub
    from web.server import BackgroundServer

    hub = Hub(store, pin=PIN, camera_preview=_camera_frame)
    hub.set_status("calibration", "markers: 4 of 4 seen, 0.6 mm reprojection error")
    hub.register_command("calibrate", "Calibrate now", lambda: "calibrated", screen="calibration")
    srv = BackgroundServer(hub, threads=16)
    try:
        driver.set_window_size(*PHONE)
        driver.get(srv.url + "camera/calibration")
        wait_for(driver, lambda: css(driver, "#camera-img")[0].is_displayed(), what="the camera picture")
        wait_for(driver, lambda: driver.execute_script(
            "return document.querySelector('#camera-img').naturalWidth") == 640, what="a decoded frame")
        assert "markers: 4 of 4" in css(driver, "#camera-status")[0].text
        assert texts(driver, "#camera-commands button") == ["Calibrate now"]
        shot(driver, "17-calibration-with-camera")
    finally:
        srv.stop()
