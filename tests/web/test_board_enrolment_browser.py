"""The enrolment screen of a printed board (Karibik) in headless Chromium at phone size: the board's
corners tapped on the letterboxed camera picture, the empty board enrolled from its button, then the
pieces' layout drawn on the picture and the first photo of the pieces enrolled. The camera is the
simulated board table (vision.sim.boardtable). Screenshots for review: tests/artifacts/screenshots/
board-enrolment-*.png. Skips without Debian's chromium and chromium-driver."""
from __future__ import annotations

import numpy as np
import pytest

from .conftest import PIN
from tests.browser import texts
from .test_browser import PHONE, click, css, driver, shot, wait_for  # noqa: F401 (driver: the fixture)

pytestmark = pytest.mark.browser
SIZE = (1280, 720)


def test_a_printed_board_enrolled_from_the_phone(driver, tmp_path):  # noqa: F811
    pytest.importorskip("vision.boardreg")
    import cv2
    from selenium.webdriver.common.action_chains import ActionChains
    from vision.mat import Mat
    from vision.sim.boardtable import BoardPiece, render_board_scene

    from tablehub.board_enrolment import piece_rounds
    from tablehub.config import Config, VisionConfig
    from tablehub.games.karibik.engine import SHIPS
    from tablehub.store import Store
    from tablehub.table_setup import SetupScreens
    from tablehub.tracking.simtable import demo_record, table_for
    from web import Hub
    from web.server import BackgroundServer

    sim = table_for(demo_record("karibik", 2, 5), size=SIZE).limit(2)
    sim._setup_render()
    camera = sim._camera_model.other_session()
    frames: list = [None]
    screens: list = []

    def preview(overlay):
        frame = screens[0].preview(overlay)
        return None if frame is None else cv2.imencode(".jpg", frame)[1].tobytes()

    def show(pieces=(), seed=1):
        frames[0], truth = render_board_scene(sim.scene(list(pieces), ((40.0, 40.0), 0.0)), camera,
                                              np.random.default_rng(seed), size=SIZE)
        return truth

    store = Store(tmp_path / "games.sqlite")
    hub = Hub(store, pin=PIN, camera_preview=preview)
    hub.start(sim.record.setup)
    cfg = Config(data_dir=str(tmp_path), vision=VisionConfig(refs=str(tmp_path / "refs" / "{game}")))
    screens.append(SetupScreens(hub, cfg, lambda: frames[0], lambda g: Mat.default()).register())
    truth = show()
    srv = BackgroundServer(hub, threads=16)
    try:
        driver.set_window_size(*PHONE)
        driver.get(srv.url + "camera/enrolment")
        click(driver, "#lock-btn")
        wait_for(driver, lambda: css(driver, "#pin-dialog")[0].get_attribute("open") is not None, what="the PIN dialog")
        css(driver, "#pin-input")[0].send_keys(PIN)
        click(driver, "#pin-ok")
        wait_for(driver, lambda: driver.execute_script("return document.body.dataset.unlocked") == "1",
                 what="unlocking")
        wait_for(driver, lambda: driver.execute_script(
            "return document.querySelector('#camera-img').naturalWidth") == SIZE[0], timeout=15, what="a frame")
        labels = texts(driver, "#camera-commands button")
        assert labels == ["Enrol the empty board", "Forget the corners", "Enrol the pieces",
                          "Enrol the chest values"], labels
        assert css(driver, "#camera-board-help")[0].is_displayed() and not css(driver, "#camera-guides")[0].is_displayed()
        assert "step 1: lay the whole empty board" in css(driver, "#camera-status")[0].text

        # the four corners tapped where the picture shows them (letterboxed: 16:9 in a 4:3 box)
        img = css(driver, "#camera-img")[0]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", img)
        box = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height]", img)
        scale = min(box[0] / SIZE[0], box[1] / SIZE[1])
        w, h = sim.board.size
        for x, y in truth.board_to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)):
            ActionChains(driver).move_to_element_with_offset(img, int(round((x - SIZE[0] / 2) * scale)),
                                                             int(round((y - SIZE[1] / 2) * scale))).click().perform()
        wait_for(driver, lambda: "four corners set" in css(driver, "#camera-msg")[0].text, what="the fourth corner")
        taps = screens[0].boards._taps["karibik"]
        got = np.float64(taps) * SIZE
        want = truth.board_to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
        err = float(np.abs(got - want).max())
        print(f"corners tapped within {err:.1f} px of the frame's ({1 / scale:.1f} frame px per CSS px)")
        assert err < 1.0 / scale + 1, (got, want)  # within a CSS pixel of the phone
        driver.execute_script("return new Promise((r) => setTimeout(r, 1200))")  # the preview shows the taps
        shot(driver, "board-enrolment-1-corners-tapped")

        click(driver, "#camera-commands button:nth-child(1)")
        wait_for(driver, lambda: "step 2, the pieces, photo 1 of 2" in css(driver, "#camera-status")[0].text,
                 timeout=20, what="the empty board enrolled")
        assert css(driver, "#camera-msg")[0].text.startswith("empty board enrolled from the corners tapped")
        driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", img)
        driver.execute_script("return new Promise((r) => setTimeout(r, 1500))")
        shot(driver, "board-enrolment-2-pieces-layout")

        spots = piece_rounds(sim.adapter, sim.board)[0]
        c = sim.board.centres
        show([BoardPiece("ship", SHIPS.index(s.name), *c[s.space], 20.0) if s.kind == "ship" else
              BoardPiece("chest_up" if s.name == "chest up" else "chest_down", 6000, *c[s.space], 10.0)
              for s in spots], seed=2)
        driver.execute_script("return new Promise((r) => setTimeout(r, 1500))")
        click(driver, "#camera-commands button:nth-child(3)")
        wait_for(driver, lambda: "photo 2 of 2" in css(driver, "#camera-status")[0].text, timeout=20,
                 what="the first photo of the pieces enrolled")
        driver.execute_script("return new Promise((r) => setTimeout(r, 1500))")
        shot(driver, "board-enrolment-3-first-photo-enrolled")
    finally:
        srv.stop()
        hub.shutdown()
        store.close()
