"""The voice form in a real headless Chromium: the PIN dialog, saving, a refusal shown in the form."""
from __future__ import annotations

import pytest

from tablehub.config import VoiceConfig
from tablehub.voice import Speaker

from tests.web.test_browser import PHONE, click, css, driver, shot, wait_for  # noqa: F401 (driver: a fixture)

pytestmark = pytest.mark.browser
PIN = "4821"


@pytest.fixture()
def server(hub, tmp_path, recorder):
    from web.server import BackgroundServer
    from web.views.voice import attach

    speaker = Speaker(VoiceConfig(), store=tmp_path / "voice.json").start()
    attach(hub, speaker)
    srv = BackgroundServer(hub, threads=8)
    srv.speaker = speaker
    yield srv
    srv.stop()
    speaker.close()


def test_the_voice_form_asks_the_pin_saves_and_shows_refusals(driver, server):
    speaker = server.speaker
    driver.set_window_size(*PHONE)
    driver.get(server.url + "voice")
    wait_for(driver, lambda: css(driver, "#voice-form"), what="the voice form")
    quiet = css(driver, 'input[name="quiet"]')[0]
    quiet.clear()
    quiet.send_keys("22:00-08:00")
    click(driver, 'input[name="events"][value="turn"]')      # stop saying who plays next
    shot(driver, "voice-01-form")
    click(driver, "#voice-save")
    wait_for(driver, lambda: css(driver, "#pin-dialog")[0].get_attribute("open") is not None, what="the PIN dialog")
    assert speaker.cfg.quiet == "", "nothing changes before the PIN"
    css(driver, "#pin-input")[0].send_keys(PIN)
    click(driver, "#pin-ok")
    wait_for(driver, lambda: speaker.cfg.quiet == "22:00-08:00", what="the settings saved")
    assert "turn" not in speaker.cfg.events and "illegal" in speaker.cfg.events

    quiet = css(driver, 'input[name="quiet"]')[0]
    quiet.clear()
    quiet.send_keys("bedtime")
    click(driver, "#voice-save")
    wait_for(driver, lambda: "expected quiet hours" in css(driver, "#voice-error")[0].text, what="the refusal")
    assert speaker.cfg.quiet == "22:00-08:00"
    shot(driver, "voice-02-refused")
