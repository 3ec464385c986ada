"""The page's photo upload for a Tahiti game in a real headless Chromium: the one field for what the photo cannot
show is sent as the game's own (Tahiti: the vaults), and the explained scores come back on the page. The reading
itself is tested on rendered photos in tests/photo/test_position_photos.py; here the hub's scorer records what the
page sent."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from tablehub.games.base import Setup
from tests.web.test_browser import click, css, driver, server, shot, wait_for  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser
PIN = "4821"


class _Result:
    def lines(self, language: str = "en") -> list[str]:
        return ["Vaults: Ana 12 $, Ben 7 $", "Totals: Ana 12, Ben 7 (Ana wins)"]

    def to_dict(self) -> dict:
        return {"game": "tahiti", "scores": {"Ana": 12, "Ben": 7}}


def test_a_tahiti_photo_goes_with_its_vaults_and_the_scores_come_back(driver, server, hub, tmp_path):
    hub.start(Setup("tahiti", ("Ana", "Ben"), ("red", "yellow")))
    got: dict = {}

    def scorer(data, game, names, given):
        got.update(game=game, names=names, given=given, size=len(data))
        return _Result()

    hub.photo_scorer = scorer
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.full((60, 80, 3), 128, np.uint8))
    # a wide screen shows every panel (on a phone the tab bar shows none with id "photoscore": not this test's)
    driver.set_window_size(1280, 900)
    driver.get(server.url + "#enter")
    unlocked = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const csrf = document.querySelector('meta[name="csrf-token"]').content;
        fetch("/api/unlock", {method: "POST", credentials: "same-origin",
          headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
          body: JSON.stringify({pin: arguments[0]})}).then(r => done(r.status), e => done(String(e)));""", PIN)
    assert unlocked == 200, unlocked
    wait_for(driver, lambda: css(driver, "#photoscore-given")[0].is_displayed(), what="the photo form")
    css(driver, "#photoscore-file")[0].send_keys(str(photo))
    css(driver, "#photoscore-given")[0].send_keys("red=12,yellow=7")
    click(driver, "#photoscore-form button[type=submit]")
    wait_for(driver, lambda: "Totals: Ana 12" in css(driver, "#photoscore-result")[0].text, timeout=10,
             what="the scores from the photo")
    assert got["game"] == "tahiti" and got["given"] == {"vaults": "red=12,yellow=7"}, got
    assert got["names"] == {"red": "Ana", "yellow": "Ben"} and got["size"] > 0
    assert not css(driver, "#photoscore-error")[0].text
    shot(driver, "photoscore-tahiti")
