"""The venue board page in a real headless Chromium (wall screen and phone), live over SSE.

Needs Debian's chromium and chromium-driver (scripts/test installs them); skips without.
Screenshots go to tests/artifacts/screenshots/ (git-ignored).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tablehub.venue.board import VenueBoard
from tests.browser import chromium, wait_for
from web.venue import BoardFeed, VenueServer, create_venue_app

from .test_board import finished, msg, playing

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"


@pytest.fixture(scope="module")
def driver():
    with chromium(None) as d:
        SHOTS.mkdir(parents=True, exist_ok=True)
        yield d


def texts(d, selector: str) -> list[str]:
    """The text of every match, read in one go (the page redraws its cards on every snapshot)."""
    return d.execute_script("return Array.from(document.querySelectorAll(arguments[0]), e => e.textContent.trim())",
                            selector)


def test_the_board_updates_live_on_a_tv_and_on_a_phone(driver):
    board = VenueBoard("cafe")
    board.handle(*msg("t1", "status", 1, status="online"))
    board.handle(*playing("t1", 2, {"Ana": 3, "Ben": 1}, "Ben"))
    board.handle(*finished("t2", 1, {"Cy": 12, "Dee": 20}))
    feed = BoardFeed(board, "wins", min_interval_s=0.05)
    server = VenueServer(create_venue_app(board, "wins", feed=feed), "127.0.0.1", 0, threads=8)
    try:
        driver.set_window_size(1920, 1080)
        driver.get(f"http://127.0.0.1:{server.port}/")
        wait_for(driver, lambda: len(texts(driver, ".vb-table")) == 2, what="two table cards")
        wait_for(driver, lambda: texts(driver, "#vb-live") == ["live"], what="the live mark")
        assert texts(driver, '.vb-table[data-table="t1"] .vb-current') == ["Ben to play"]
        assert texts(driver, "#vb-standings tr td:nth-child(2)")[:1] == ["Dee"]
        driver.save_screenshot(str(SHOTS / "venue-board-tv.png"))
        # a move at table 1, then its hub vanishes: both reach the page without a reload
        board.handle(*playing("t1", 3, {"Ana": 9, "Ben": 1}, "Ana", turn=4))
        wait_for(driver, lambda: "9" in " ".join(texts(driver, '.vb-table[data-table="t1"] .vb-score')), what="Ana's 9 points")
        board.handle("tablehub/cafe/t1/status", b'{"v":1,"type":"status","venue":"cafe","table":"t1","at":1,'
                                                b'"status":"offline"}')
        wait_for(driver, lambda: texts(driver, '.vb-table[data-table="t1"] .vb-status') == ["offline"], what="t1 offline")
        # the organiser's other rule, on a phone
        driver.set_window_size(412, 915)
        from selenium.webdriver.support.ui import Select
        from selenium.webdriver.common.by import By

        Select(driver.find_element(By.ID, "vb-rule")).select_by_value("points")
        assert driver.find_element(By.ID, "vb-csv").get_attribute("href").endswith("standings.csv?rule=points")
        wide = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], f"the board scrolls sideways on a phone ({wide[0]} px in {wide[1]})"
        driver.save_screenshot(str(SHOTS / "venue-board-phone.png"))
    finally:
        server.stop()
