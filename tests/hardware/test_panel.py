"""Buttons, LEDs and buzzer on gpiozero's MockFactory, with a fake clock for our debounce."""
from __future__ import annotations

import threading
import time
import tomllib
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from tablehub.config import PinsConfig, read_pin_map
from tablehub.hardware.panel import ButtonDecoder, Panel

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def factory():
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture()
def panel(factory):
    p = Panel(PinsConfig(debounce_s=0.04, hold_s=1.0), factory=factory)
    calls = []
    p.on("next", "click", lambda: calls.append("commit"))
    p.on("next", "hold", lambda: calls.append("undo"))
    p.on("check", "click", lambda: calls.append("rescan"))
    p.on("check", "hold", lambda: calls.append("override"))
    p.calls = calls
    yield p
    p.close()


def press(factory, panel, pin: int, levels: list[tuple[float, bool]]):
    """Drive the mock pin to each level (pressed = low) and poll at that time."""
    for t, pressed in levels:
        (factory.pin(pin).drive_low if pressed else factory.pin(pin).drive_high)()
        panel.poll(t)


def test_a_click_on_next_commits_once_despite_contact_bounce(factory, panel):
    press(factory, panel, 17, [(0.000, True), (0.003, False), (0.006, True), (0.010, False), (0.012, True),
                               (0.060, True), (0.200, False), (0.204, True), (0.207, False), (0.260, False)])
    assert panel.calls == ["commit"]


def test_a_glitch_shorter_than_the_debounce_is_no_press(factory, panel):
    press(factory, panel, 17, [(0.0, True), (0.02, False), (0.5, False)])
    assert panel.calls == []


def test_holding_next_undoes_and_the_release_does_not_also_commit(factory, panel):
    press(factory, panel, 17, [(0.0, True), (0.5, True), (1.05, True), (1.5, True), (2.0, False), (2.1, False)])
    assert panel.calls == ["undo"]


def test_check_clicks_rescan_and_holds_override(factory, panel):
    press(factory, panel, 27, [(0.0, True), (0.1, True), (0.2, False), (0.3, False)])
    press(factory, panel, 27, [(1.0, True), (1.1, True), (2.2, True), (2.3, False), (2.4, False)])
    assert panel.calls == ["rescan", "override"]


def test_lights_follow_the_tracker_state(factory, panel):
    green, red = factory.pin(22), factory.pin(23)
    panel.show("pending")
    assert green.state and not red.state
    panel.show("illegal")
    assert red.state and not green.state
    panel.show("same")
    assert not red.state and not green.state


def test_an_illegal_placement_beeps(factory, panel):
    buzzer = factory.pin(24)
    panel.beep("illegal")
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and not any(s.state for s in buzzer.states):
        time.sleep(0.01)
    assert any(s.state for s in buzzer.states), "the buzzer pin went high"


def test_the_background_poller_turns_a_real_press_into_a_commit(factory):
    with Panel(PinsConfig(debounce_s=0.02, hold_s=5), factory=factory, poll_s=0.005) as p:
        seen = []
        p.on("next", "click", lambda: seen.append("commit"))
        p.start()
        factory.pin(17).drive_low()
        time.sleep(0.1)
        factory.pin(17).drive_high()
        deadline = time.monotonic() + 2
        while not seen and time.monotonic() < deadline:
            time.sleep(0.01)
    assert seen == ["commit"]


def test_the_documented_pin_map_is_the_default_and_the_boot_pulls_match_it():
    documented = read_pin_map(ROOT / "firmware_config" / "pins.toml")
    defaults = PinsConfig()
    assert documented == {k: getattr(defaults, k) for k in documented}
    boot = (ROOT / "firmware_config" / "tablehub.txt").read_text()
    assert f"gpio={documented['next']},{documented['check']}=ip,pu" in boot
    assert f"gpio={documented['green']},{documented['red']},{documented['buzzer']}=op,dl" in boot


def test_the_example_settings_file_loads(tmp_path):
    from tablehub.config import load_config

    text = (ROOT / "firmware_config" / "tablehub.toml").read_text()
    text = text.replace("/etc/tablehub/pins.toml", str(ROOT / "firmware_config" / "pins.toml"))
    (tmp_path / "t.toml").write_text(text)
    cfg = load_config(tmp_path / "t.toml", environ={})
    assert cfg.camera.source == "picamera2" and cfg.web.port == 80 and cfg.pins.next == 17
    assert tomllib.loads(text)["game"]["players"] == list(cfg.game.players)


def test_decoder_hold_fires_while_still_pressed():
    d = ButtonDecoder(debounce_s=0.01, hold_s=0.5)
    assert d.update(True, 0.0) == [] and d.update(True, 0.02) == []
    assert d.update(True, 0.6) == ["hold"]
    assert d.update(False, 0.7) == [] and d.update(False, 0.8) == []


def test_lights_and_beeps_from_several_threads_at_once_do_not_break_gpiozero():
    """The frame loop, the button poller and the camera supervisor all drive the outputs; gpiozero's
    background blink threads must never be stopped before they start."""
    factory = MockFactory()
    errors: list[BaseException] = []
    hook = threading.excepthook
    threading.excepthook = lambda args: errors.append(args.exc_value)
    panel = Panel(PinsConfig(), factory=factory)
    try:
        def churn(states):
            try:
                for _ in range(60):
                    for state in states:
                        panel.show(state)
                        panel.beep("ok")
            except BaseException as exc:  # noqa: BLE001 - collected and asserted below
                errors.append(exc)

        threads = [threading.Thread(target=churn, args=(order,)) for order in
                   (("unsure", "camera_lost"), ("camera_lost", "unsure"), ("unsure", "pending", "camera_lost"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert errors == [], errors[:3]
    finally:
        threading.excepthook = hook
        panel.close()
        factory.reset()
