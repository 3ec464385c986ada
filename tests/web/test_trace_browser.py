"""The board screen in a real headless Chromium at 360 px: the camera's photo traced, two spaces
tapped and merged, a port marked, a reload that loses nothing, Save, and the saved board drawn
back; Tahiti's track tapped in. Screenshots for review go to $TMPDIR/tablehub-trace-shots/."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from tablehub.board_setup import BoardSetup
from tablehub.games.karibik.board import load_board
from tests.karibik.truth import match, owner_corrections, printed_photo, same_board
from tests.web.test_browser import click, css, driver, shot, wait_for  # noqa: F401 (driver: a fixture)
from vision.board_edit import inside

pytestmark = pytest.mark.browser
PIN = "4821"
NARROW = (360, 780)
SHOTS = Path(os.environ.get("TABLEHUB_TRACE_SHOTS", Path(tempfile.gettempdir()) / "tablehub-trace-shots"))


@pytest.fixture()
def hub(tmp_path):
    from tablehub.store import Store
    from web import Hub

    store = Store(tmp_path / "games.sqlite")
    h = Hub(store, pin=PIN)
    yield h
    h.shutdown()
    store.close()


def serve(hub, setup):
    from web.server import BackgroundServer
    from web.views.boards import attach

    attach(hub, setup)
    return BackgroundServer(hub, threads=8)


def spaces_shown(d) -> int:
    return len(css(d, "#trace-svg svg .sp"))


def test_a_traced_board_is_merged_marked_saved_and_drawn_back(driver, hub, tmp_path):
    truth, photo = printed_photo("grid", seed=4, split=33)  # space 33 printed cut in two: the tracer sees two
    setup = BoardSetup(tmp_path / "data", lambda: photo)
    srv = serve(hub, setup)
    try:
        driver.set_window_size(*NARROW)
        driver.get(srv.url + "trace/karibik")
        wait_for(driver, lambda: "No traced board yet" in css(driver, "#trace-svg")[0].text, what="the empty screen")
        css(driver, "#trace-w")[0].clear()
        css(driver, "#trace-w")[0].send_keys("360")
        css(driver, "#trace-h")[0].clear()
        css(driver, "#trace-h")[0].send_keys("280")
        click(driver, "#trace-capture")
        wait_for(driver, lambda: css(driver, "#pin-dialog")[0].get_attribute("open") is not None, what="the PIN dialog")
        css(driver, "#pin-input")[0].send_keys(PIN)
        click(driver, "#pin-ok")
        wait_for(driver, lambda: spaces_shown(driver) == 49, timeout=15, what="49 proposed spaces (33 in two)")
        draft = setup.draft("karibik")
        halves = [sp["id"] for sp in draft["spaces"] if inside(truth.polygons[33], sp["center"])]
        assert len(halves) == 2
        driver.execute_script("document.querySelector('#trace-status').scrollIntoView()")
        shot(driver, "trace-01-proposed", SHOTS)

        click(driver, "#trace-zoom")  # the spaces are small at 360 px: zoomed in, the box scrolls, not the page
        for s in halves:
            click(driver, f'#trace-svg [data-space="{s}"]')
        wait_for(driver, lambda: css(driver, "#trace-selected")[0].text == f"{halves[0]}, {halves[1]}",
                 what="both halves selected")
        driver.execute_script("document.querySelector('#trace-status').scrollIntoView()")
        shot(driver, "trace-01b-selected", SHOTS)
        click(driver, '#trace-tools [data-op="merge"]')
        wait_for(driver, lambda: spaces_shown(driver) == 48, what="the halves merged")
        click(driver, "#trace-zoom")
        assert f"merged space {halves[1]} into space {halves[0]}" in css(driver, "#trace-msg")[0].text
        draft = setup.draft("karibik")
        assert match(truth, draft)[33] == halves[0]

        fixes, marks = owner_corrections(truth, draft)
        assert fixes == [], "the merge gave back the true adjacency"
        first = marks[0]  # the first town, marked by taps and typing
        click(driver, "#trace-none")
        click(driver, f'#trace-svg [data-space="{first["space"]}"]')
        css(driver, "#trace-town")[0].send_keys(first["name"])
        driver.execute_script("arguments[0].value = arguments[1]", css(driver, "#trace-chest")[0], str(first["chest"]))
        click(driver, '#trace-tools [data-op="port"]')
        wait_for(driver, lambda: len(setup.draft("karibik")["towns"]) == 1, what="the port marked")
        assert setup.draft("karibik")["towns"][0]["name"] == first["name"]
        driver.execute_script("document.querySelector('#trace-tools').scrollIntoView()")
        shot(driver, "trace-02b-tools", SHOTS)
        for m in marks[1:]:  # the other 15 towns, 12 hideouts, 6 skulls and 5 piles: the same requests, not tapped
            setup.edit("karibik", m)

        driver.refresh()  # a reload loses nothing: the draft is on the hub
        wait_for(driver, lambda: "Complete: the board loads" in css(driver, "#trace-status")[0].text,
                 what="the complete draft after a reload")
        wait_for(driver, lambda: spaces_shown(driver) == 48, what="the corrected spaces after the reload")
        driver.execute_script("document.querySelector('#trace-status').scrollIntoView()")
        shot(driver, "trace-02-marked", SHOTS)
        click(driver, "#trace-save")
        wait_for(driver, lambda: css(driver, "#trace-saved")[0].is_displayed()
                 and len(css(driver, "#trace-saved-svg svg .sp.port")) == 16, what="the saved board drawn back")
        wait_for(driver, lambda: css(driver, "#trace-use")[0].is_selected(), what="'new games play on it' ticked")
        same_board(load_board(str(setup.saved_path("karibik"))), truth)
        driver.execute_script("document.querySelector('#trace-saved').scrollIntoView()")
        shot(driver, "trace-03-saved", SHOTS)
    finally:
        srv.stop()


def test_tahitis_track_is_tapped_in_order(driver, hub, tmp_path):
    from tablehub.games.tahiti.board import load_board as tahiti_board

    setup = BoardSetup(tmp_path / "data")
    srv = serve(hub, setup)
    order = tahiti_board().track
    try:
        driver.set_window_size(*NARROW)
        driver.get(srv.url + "trace/tahiti")
        wait_for(driver, lambda: len(css(driver, "#trace-svg svg .space")) == 12, what="the 12 track spaces")
        for i, s in enumerate(order[:3]):
            click(driver, f'#trace-letters [data-letter="{s.letter}"]')
            click(driver, f'#trace-pearls [data-pearl="{s.pearl}"]')
            if i == 0:
                wait_for(driver, lambda: css(driver, "#pin-dialog")[0].get_attribute("open") is not None,
                         what="the PIN dialog")
                css(driver, "#pin-input")[0].send_keys(PIN)
                click(driver, "#pin-ok")
            wait_for(driver, lambda i=i: css(driver, "#trace-selected")[0].text == str(i + 1), what="the next space")
        assert setup.draft("tahiti")["track"][:3] == [{"letter": s.letter, "pearl": s.pearl} for s in order[:3]]
        click(driver, '#trace-svg [data-space="7"]')
        assert css(driver, "#trace-selected")[0].text == "7"
        shot(driver, "trace-04-tahiti", SHOTS)
    finally:
        srv.stop()


def test_a_space_is_split_by_a_line_tapped_across_it(driver, hub, tmp_path):
    from selenium.webdriver.common.actions.action_builder import ActionBuilder

    truth, photo = printed_photo("grid", seed=5)
    setup = BoardSetup(tmp_path / "data", lambda: photo)
    setup.trace_frame([360, 280])
    srv = serve(hub, setup)
    try:
        driver.set_window_size(*NARROW)
        driver.get(srv.url + "trace/karibik")
        wait_for(driver, lambda: spaces_shown(driver) == 48, what="the traced board")
        draft = setup.draft("karibik")
        s = match(truth, draft)[44]
        (x0, y0), (x1, y1) = truth.polygons[44][0], truth.polygons[44][2]  # opposite corners of the square
        click(driver, f'#trace-svg [data-space="{s}"]')
        click(driver, '#trace-tools [data-mode="line"]')
        assert "tap 2 points" in css(driver, "#trace-mode")[0].text
        for mm in ((x0 - 3, (y0 + y1) / 2), (x1 + 3, (y0 + y1) / 2)):  # across it, a little outside each side
            x, y = driver.execute_script(
                "const svg = document.querySelector('#trace-svg svg'); const p = svg.createSVGPoint();"
                "p.x = arguments[0]; p.y = arguments[1]; const q = p.matrixTransform(svg.getScreenCTM());"
                "return [q.x, q.y];", *mm)
            actions = ActionBuilder(driver)
            actions.pointer_action.move_to_location(int(x), int(y)).click()
            actions.perform()
        wait_for(driver, lambda: css(driver, "#pin-dialog")[0].get_attribute("open") is not None, what="the PIN dialog")
        css(driver, "#pin-input")[0].send_keys(PIN)
        click(driver, "#pin-ok")
        wait_for(driver, lambda: spaces_shown(driver) == 49, what="the space split in two")
        new = max(sp["id"] for sp in setup.draft("karibik")["spaces"])
        assert f"split space {s} along the line tapped: the new part is space {new}" in css(driver, "#trace-msg")[0].text
        halves = [sp for sp in setup.draft("karibik")["spaces"] if sp["id"] in (s, new)]
        got = sorted(sp["center"][1] for sp in halves)
        want = sorted([(3 * y0 + y1) / 4, (y0 + 3 * y1) / 4])  # the upper and the lower half
        assert all(abs(g - w) <= 2 for g, w in zip(got, want)), (got, want)
    finally:
        srv.stop()
