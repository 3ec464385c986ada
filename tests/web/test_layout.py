"""The page's layout on a small phone (360 px wide), measured in a real headless Chromium:
the set-up's name boxes are wide enough to type a name in, the game title is not cut, and the
History heading is not hidden under the sticky bar when its link is followed."""
from __future__ import annotations

import pytest

from tablehub.games.base import Setup

from .conftest import COLOURS, PLAYERS
from .test_browser import css, driver, server, shot, wait_for  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

SMALL_PHONE = (360, 740)


def rect(d, selector: str) -> dict:
    return d.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                            "return {top: r.top, bottom: r.bottom, width: r.width, left: r.left, right: r.right};",
                            selector)


def test_player_name_boxes_are_usable_on_a_360_px_phone(driver, server, hub):
    driver.set_window_size(*SMALL_PHONE)
    driver.get(server.url + "setup")
    wait_for(driver, lambda: len(css(driver, '#player-rows input[name="player"]')) >= 2, what="the player rows")
    widths = [e.size["width"] for e in css(driver, '#player-rows input[name="player"]')]
    inner = driver.execute_script("return window.innerWidth")
    assert min(widths) >= 0.5 * inner, f"name boxes {widths} px wide on a {inner} px screen: too narrow to type in"
    colour = css(driver, '#player-rows select[name="colour"]')[0]
    assert colour.size["width"] >= 100, "the colour choice stays readable"
    shot(driver, "layout-setup-360")


def test_the_game_title_is_not_cut_on_a_360_px_phone(driver, server, hub):
    hub.start(Setup("neuesland", PLAYERS, COLOURS))
    driver.set_window_size(*SMALL_PHONE)
    driver.get(server.url)
    wait_for(driver, lambda: css(driver, "#game-title")[0].text.strip() != "", what="the game title")
    title = css(driver, "#game-title")[0]
    assert "Carcassonne Neues Land" in title.text
    overflow = driver.execute_script("const e = arguments[0]; return [e.scrollWidth, e.clientWidth, "
                                     "e.scrollHeight, e.clientHeight]", title)
    assert overflow[0] <= overflow[1] and overflow[2] <= overflow[3] + 1, \
        f"the title is cut (scroll {overflow[0]}x{overflow[2]} in {overflow[1]}x{overflow[3]})"
    shot(driver, "layout-title-360")


@pytest.mark.parametrize("size", [(1000, 520), SMALL_PHONE], ids=["laptop", "phone"])
def test_the_history_heading_shows_below_the_sticky_bar_after_its_link(driver, server, hub, nl_actions, size):
    hub.start(Setup("neuesland", PLAYERS, COLOURS))
    for a in nl_actions[:12]:
        hub.submit(a, source="camera")
    hub.pending([nl_actions[12]])  # a pending card above the sections, as during play
    driver.set_window_size(*size)
    driver.get(server.url + "setup")
    wait_for(driver, lambda: len(css(driver, '.tabbar a[data-tab="history"]')) == 1, what="the tab bar")
    css(driver, '.tabbar a[data-tab="history"]')[0].click()  # the link from another page: /#history
    wait_for(driver, lambda: len(css(driver, "#turns li")) > 0, what="the history")
    driver.execute_script("location.hash = ''; location.hash = '#history'")  # follow the link once drawn
    driver.execute_script("return new Promise((ok) => setTimeout(ok, 400))")
    bar = rect(driver, ".topbar")
    heading = rect(driver, "#history h2")
    assert heading["top"] >= bar["bottom"], \
        f"the History heading (top {heading['top']:.0f} px) is under the sticky bar (bottom {bar['bottom']:.0f} px)"
    shot(driver, f"layout-history-{size[0]}")


def test_the_photo_score_panel_shows_under_its_tab_on_a_360_px_phone(driver, server, hub):
    """On a phone one section shows at a time; the photo-score panel belongs to the Enter tab (its
    data-section), so opening that tab must show it, not only the section whose id is the tab's."""
    hub.start(Setup("neuesland", PLAYERS, COLOURS))
    driver.set_window_size(*SMALL_PHONE)
    driver.get(server.url + "#enter")
    wait_for(driver, lambda: css(driver, "#enter")[0].is_displayed(), what="the Enter tab")
    assert css(driver, "#photoscore")[0].is_displayed(), "the photo-score panel is hidden on a phone"
    assert css(driver, "#photoscore-file")[0].is_displayed()
    driver.get(server.url + "#scores")
    wait_for(driver, lambda: css(driver, "#scores")[0].is_displayed(), what="the Scores tab")
    assert not css(driver, "#photoscore")[0].is_displayed(), "the photo-score panel shows under another tab"
    shot(driver, "layout-photoscore-360")
