"""The table's buttons, lights and buzzer, with gpiozero.

Two buttons (to ground, internal pull-ups) and three outputs, pins from
:class:`~tablehub.config.PinsConfig` (documented in ``firmware_config/pins.toml``):

========  =====================================  ===========================================
NEXT      click: log the pending turn            hold: undo the last turn
CHECK     click: read the table again now        hold: accept the table as it is (override)
green     on: a legal turn is pending            blinking: choose on the phone
red       on: illegal placement (with a beep)    blinking: the camera is lost
buzzer    one beep: illegal; chirp: logged;      long beep: refused (nothing to log, or flagged)
both      NEXT and CHECK held together for ``chord_s`` (5 s): ``("both", "hold")``, which lifts
          a PIN lockout; while both are down neither button's own click or hold fires
========  =====================================  ===========================================

Debouncing is ours (:class:`ButtonDecoder`), not gpiozero's ``bounce_time``: the
panel polls the button levels every ``poll_s`` (10 ms) and a level counts only
after it stayed put for ``debounce_s``. That behaves the same on every pin factory,
and tests drive it with gpiozero's ``MockFactory`` and a fake clock.

On a Raspberry Pi 5 the pin factory is lgpio; lgpio writes its notification pipes
into ``$LG_WD``, which :func:`pin_factory` points at a writable runtime folder.
"""
from __future__ import annotations

import logging
import os
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..config import PinsConfig
from ..games.base import TablehubError

log = logging.getLogger(__name__)


class PanelError(TablehubError):
    pass


def on_raspberry_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text(errors="replace").lower()
    except OSError:
        return False


def runtime_dir() -> Path:
    """Where lgpio may write (systemd's RuntimeDirectory, the user's runtime dir, else /tmp)."""
    for key in ("RUNTIME_DIRECTORY", "XDG_RUNTIME_DIR"):
        if os.environ.get(key):
            return Path(os.environ[key].split(":")[0])
    return Path(tempfile.gettempdir())


def pin_factory(backend: str = "auto") -> Any:
    """A gpiozero pin factory: ``mock`` (MockFactory), ``lgpio``, ``rpigpio``, or ``auto``."""
    if backend == "auto":
        backend = "lgpio" if on_raspberry_pi() else "mock"
    if backend == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    if backend == "lgpio":
        os.environ.setdefault("LG_WD", str(runtime_dir()))
        try:
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory()
        except Exception as exc:  # ImportError, or lgpio's own error when /dev/gpiochip* is not ours
            raise PanelError(f"the lgpio pin factory cannot start ({exc}); install python3-lgpio and add the "
                             "user to the gpio group, or set TABLEHUB_PINS=mock") from None
    if backend == "rpigpio":
        try:
            from gpiozero.pins.rpigpio import RPiGPIOFactory

            return RPiGPIOFactory()
        except Exception as exc:
            raise PanelError(f"the RPi.GPIO pin factory cannot start ({exc})") from None
    raise PanelError(f"unknown pin backend {backend!r} (expected auto, mock, lgpio or rpigpio)")


@dataclass
class ButtonDecoder:
    """Turns raw levels sampled over time into ``click`` and ``hold`` events.

    A level change counts once it has lasted ``debounce_s``. A press that lasts
    ``hold_s`` gives ``hold`` at that moment (and no click on release); a shorter
    press gives ``click`` on release.

    >>> d = ButtonDecoder(debounce_s=0.02, hold_s=1.0)
    >>> [e for t, p in [(0, True), (0.005, False), (0.01, True), (0.05, True), (0.2, False), (0.25, False)]
    ...  for e in d.update(p, t)]
    ['click']
    """

    debounce_s: float = 0.04
    hold_s: float = 1.5
    pressed: bool = False
    _raw: bool = False
    _raw_since: float = 0.0
    _pressed_at: float = 0.0
    _held: bool = False

    def update(self, raw: bool, now: float) -> list[str]:
        events: list[str] = []
        if raw != self._raw:
            self._raw, self._raw_since = raw, now
        if raw != self.pressed and now - self._raw_since >= self.debounce_s:
            self.pressed = raw
            if raw:
                self._pressed_at, self._held = self._raw_since, False
            elif not self._held:
                events.append("click")
        if self.pressed and not self._held and now - self._pressed_at >= self.hold_s:
            self._held = True
            events.append("hold")
        return events


@dataclass
class Lights:
    """What the LEDs and buzzer should show, as a small value (for tests and the page)."""

    green: str = "off"   # off, on, blink
    red: str = "off"


STATE_LIGHTS = {
    "pending": Lights("on", "off"),
    "unsure": Lights("blink", "off"),
    "illegal": Lights("off", "on"),
    "camera_lost": Lights("off", "blink"),
}


class Panel:
    """Buttons NEXT and CHECK, green and red LEDs, a buzzer. A context manager; :meth:`close` frees the pins."""

    BUTTONS = ("next", "check")
    #: seconds NEXT and CHECK must be held together for ``("both", "hold")``
    CHORD_S = 5.0

    def __init__(self, pins: PinsConfig | None = None, factory: Any = None,
                 clock: Callable[[], float] = time.monotonic, poll_s: float = 0.01, chord_s: float = CHORD_S):
        from gpiozero import LED, Buzzer, DigitalInputDevice

        self.pins = pins or PinsConfig()
        self.factory = factory if factory is not None else pin_factory(self.pins.backend)
        self._clock = clock
        self.poll_s = poll_s
        self.handlers: dict[tuple[str, str], Callable[[], Any]] = {}
        self._devices: list[Any] = []
        try:
            self.inputs = {name: DigitalInputDevice(getattr(self.pins, name), pull_up=True, bounce_time=None,
                                                    pin_factory=self.factory) for name in self.BUTTONS}
            self._devices += list(self.inputs.values())
            self.green = LED(self.pins.green, pin_factory=self.factory)
            self.red = LED(self.pins.red, pin_factory=self.factory)
            self.buzzer = Buzzer(self.pins.buzzer, pin_factory=self.factory)
            self._devices += [self.green, self.red, self.buzzer]
        except Exception as exc:  # gpiozero raises its own GPIO errors (pin in use, no access)
            self.close()
            used = (self.pins.next, self.pins.check, self.pins.green, self.pins.red, self.pins.buzzer)
            raise PanelError(f"cannot claim the table's GPIO pins {used} ({exc}); "
                             "see docs/raspberry-pi.md") from None
        self.decoders = {name: ButtonDecoder(self.pins.debounce_s, self.pins.hold_s) for name in self.BUTTONS}
        self.chord_s = chord_s
        self._chord_since: float | None = None  # both buttons down since (None: not both)
        self._chord_fired = False
        self.lights = Lights()
        # the frame loop, the button poller and the camera supervisor all drive the outputs: gpiozero's
        # blink/beep stop the old background thread and start a new one, which two threads at once break
        # ("cannot join thread before it is started")
        self._outputs = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    # ---- buttons

    def on(self, button: str, event: str, handler: Callable[[], Any]) -> None:
        """Call ``handler`` on ``(button, event)``, e.g. ``panel.on("next", "hold", tracker.undo)``."""
        if not ((button in self.BUTTONS and event in ("click", "hold")) or (button, event) == ("both", "hold")):
            raise PanelError(f"no such button event {button}/{event}")
        self.handlers[(button, event)] = handler

    def poll(self, now: float | None = None) -> list[tuple[str, str]]:
        """Sample the buttons once; run and return the events found."""
        t = self._clock() if now is None else now
        fired = []
        for name, device in self.inputs.items():
            for event in self.decoders[name].update(bool(device.is_active), t):
                fired.append((name, event))
        fired = self._chord(fired, t)
        for name, event in fired:
            log.info("button %s %s", name, event)
            handler = self.handlers.get((name, event))
            if handler is not None:
                try:
                    handler()
                except Exception:
                    log.exception("handler for %s %s failed", name, event)
        return fired

    def _chord(self, fired: list[tuple[str, str]], t: float) -> list[tuple[str, str]]:
        """Both buttons down: swallow their own events until both are up again; after ``chord_s``
        of both held, one ``("both", "hold")``."""
        both = all(d.pressed for d in self.decoders.values())
        if both and self._chord_since is None:
            self._chord_since, self._chord_fired = t, False
        if self._chord_since is None:
            return fired
        fired = []  # a chord is on (or ending): the single-button events are not meant
        if both and not self._chord_fired and t - self._chord_since >= self.chord_s:
            self._chord_fired = True
            fired.append(("both", "hold"))
        if not any(d.pressed for d in self.decoders.values()):
            self._chord_since = None
        return fired

    def start(self) -> "Panel":
        """Poll the buttons in a background thread."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._loop, name="panel", daemon=True)
            self._thread.start()
        return self

    def _loop(self) -> None:
        while not self._stop.wait(self.poll_s):
            self.poll()

    # ---- lights and sound

    def show(self, state: str) -> Lights:
        """Light the LEDs for a tracker state (pending, unsure, illegal, camera_lost; anything else: off)."""
        lights = STATE_LIGHTS.get(state, Lights())
        with self._outputs:
            if lights != self.lights:
                for led, mode in ((self.green, lights.green), (self.red, lights.red)):
                    if mode == "on":
                        led.on()
                    elif mode == "blink":
                        led.blink(0.3, 0.3)
                    else:
                        led.off()
                self.lights = lights
        return lights

    def beep(self, kind: str = "illegal") -> None:
        """``illegal``: three short beeps; ``ok``: one chirp; ``refused``: one long beep."""
        on, off, n = {"illegal": (0.08, 0.08, 3), "ok": (0.03, 0.0, 1), "refused": (0.4, 0.0, 1)}.get(
            kind, (0.1, 0.0, 1))
        with self._outputs:
            self.buzzer.beep(on, off, n, background=True)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1)
        self._thread = None
        for device in getattr(self, "_devices", []):
            try:
                device.close()
            except Exception:
                log.debug("closing %r failed", device, exc_info=True)
        self._devices = []

    def __enter__(self) -> "Panel":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
