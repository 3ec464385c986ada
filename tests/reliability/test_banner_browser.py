"""The banner in a real headless Chromium: a game whose log stops replaying is shown up to its last
good action with the two choices; "Continue" (after the PIN) sets the bad tail aside and the banner
goes from every phone. Needs Debian's chromium and chromium-driver; skips cleanly without them."""
from __future__ import annotations

import sqlite3

import pytest

from tablehub.session import Session
from tablehub.store import Store

from tests.browser import PHONE, chromium, css, wait_for

from .conftest import ACTIONS, SETUP, log_of

pytestmark = pytest.mark.browser
PIN = "4821"


@pytest.fixture()
def driver():
    with chromium(PHONE) as d:
        yield d


def tap(d, selector: str) -> None:
    element = css(d, selector)[0]
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def test_the_owner_continues_a_broken_game_from_the_banner(driver, tmp_path):
    from web import Hub
    from web.server import BackgroundServer

    db = tmp_path / "games.sqlite"
    store = Store(db)
    s = Session.create(store, SETUP, current=True)
    for a in ACTIONS:
        s.submit(a)
    store.close()
    con = sqlite3.connect(db)
    con.execute("""UPDATE actions SET action = '{"type": "place_tile", "tile": "ds999", "x": 0, "y": -1,
                   "rotation": 0}' WHERE seq = 3""")
    con.commit()
    con.close()
    store = Store(db)
    hub = Hub(store, pin=PIN)
    hub.restore()
    server = BackgroundServer(hub, threads=8)
    try:
        driver.get(server.url + "/")
        wait_for(driver, lambda: css(driver, "#notices [data-notice]"), timeout=8, what="the banner")
        assert not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"], "no script error"
        driver.save_screenshot(str(tmp_path / "banner.png"))
        banner = css(driver, "#notices [data-notice]")[0]
        assert "stops replaying at action 3" in banner.text and "ds999" in banner.text
        assert [b.get_attribute("data-choice") for b in css(driver, "#notices button")] == ["continue", "new"]
        tap(driver, '#notices button[data-choice="continue"]')
        wait_for(driver, lambda: css(driver, "#pin-dialog")[0].get_attribute("open") is not None, timeout=8, what="the PIN dialog")
        assert [u for *_, u in log_of(db)] == [0] * 5, "nothing changes before the PIN"
        css(driver, "#pin-input")[0].send_keys(PIN)
        tap(driver, "#pin-ok")
        wait_for(driver, lambda: not css(driver, "#notices [data-notice]"), timeout=8, what="the banner going away")
        assert [u for *_, u in log_of(db)] == [0, 0, 1, 1, 1]
        assert "continues from action 2" in css(driver, "#toast")[0].text
    finally:
        server.stop()
        hub.shutdown()
        store.close()
