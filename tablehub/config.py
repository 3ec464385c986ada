"""The hub's settings: defaults, then a TOML file, then the environment, then the command line.

The file is ``--config PATH``, else ``$TABLEHUB_CONFIG``, else ``/etc/tablehub/tablehub.toml``
if it exists. Every key is optional; a commented example is ``firmware_config/tablehub.toml``.
Environment variables, like gpiozero's ``GPIOZERO_PIN_FACTORY``, pick backends without
editing a file:

- ``TABLEHUB_CAMERA``: ``picamera2``, ``opencv``, ``replay`` or ``sim``
- ``TABLEHUB_CAMERA_PATH``: a folder of images or a video file (replay), a device (opencv)
- ``TABLEHUB_PINS``: ``mock`` (gpiozero's MockFactory), ``lgpio`` or ``auto``
- ``TABLEHUB_DATA``: where the SQLite game store lives (systemd's ``$STATE_DIRECTORY`` too)

Camera-specific vision files live in the data folder too: the lens calibration
``lens-<camera source>.json`` (``[camera] lens`` to put it elsewhere; written by
``tablehub lens calibrate``) and the tile references ``refs/<game>`` (``[vision] refs``).

>>> cfg = load_config(environ={"TABLEHUB_CAMERA": "replay"}, path=None)
>>> cfg.camera.source, cfg.pins.next
('replay', 17)
"""
from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .games.base import TablehubError

CAMERA_SOURCES = ("picamera2", "opencv", "replay", "sim")
PIN_BACKENDS = ("auto", "mock", "lgpio", "rpigpio")
SYSTEM_CONFIG = Path("/etc/tablehub/tablehub.toml")
SECTIONS = ("camera", "pins", "tracking", "web", "game", "vision")


class ConfigError(TablehubError):
    pass


@dataclass
class CameraConfig:
    source: str = "auto"          # auto: picamera2 on a Pi with a camera, else sim
    path: str = ""                # replay: folder or video; opencv: device path or index
    index: int = 0                # opencv: /dev/videoN
    width: int = 1920
    height: int = 1080
    fps: float = 8.0              # frames the loop asks for per second
    settle_s: float = 2.0         # picamera2: auto exposure/white balance settle, then locked
    retry_s: float = 2.0          # a lost camera is retried this often (backing off to 30 s)
    loop: bool = False            # replay: start again at the end
    lens: str = ""                # lens calibration file; empty: <data_dir>/lens-<source>.json if it exists


@dataclass
class PinsConfig:
    """BCM pin numbers. The documented map is firmware_config/pins.toml."""

    next: int = 17                # NEXT button to GND: click commits the turn, hold undoes
    check: int = 27               # CHECK button to GND: click re-reads, hold accepts the table as it is
    green: int = 22               # green LED (pending legal turn), via 330 ohm
    red: int = 23                 # red LED (illegal placement / camera lost), via 330 ohm
    buzzer: int = 24              # active buzzer (beep on a flagged placement)
    backend: str = "auto"         # auto: lgpio on a Pi, else gpiozero's MockFactory
    hold_s: float = 1.5           # press this long for the hold action
    debounce_s: float = 0.04      # a level must stay this long to count


@dataclass
class TrackingConfig:
    quiet_frames: int = 3         # consecutive still frames before the table is read
    motion_threshold: int = 18    # grey level change that counts as motion (0-255)
    motion_fraction: float = 0.002  # share of changed pixels that means "hands in view"
    confident: float = 0.75       # reads at or above this (and clear of the runner-up) are trusted
    margin: float = 0.10          # required lead of the best read over the runner-up


@dataclass
class VisionConfig:
    refs: str = ""                # `tablehub run`'s tile references ("{game}": the game); empty: <data_dir>/refs/{game}
    mat: str = ""                 # mat file from `tablehub markers` for enrolling from the page; empty: the
    #                               mat.json enrolled with the references, else the default mat


@dataclass
class WebConfig:
    host: str = "0.0.0.0"
    port: int = 8080
    threads: int = 122  # 110 phones on the live feed + 4 camera streams + 8 spare for page loads (web.threads_for)
    hosts: tuple[str, ...] = ()  # more names the page answers to besides its hostname(.local) and addresses


@dataclass
class GameConfig:
    name: str = "neuesland"
    players: tuple[str, ...] = ("Ana", "Ben")
    colors: tuple[str, ...] = ()


@dataclass
class Config:
    camera: CameraConfig = field(default_factory=CameraConfig)
    pins: PinsConfig = field(default_factory=PinsConfig)
    tracking: TrackingConfig = field(default_factory=TrackingConfig)
    web: WebConfig = field(default_factory=WebConfig)
    game: GameConfig = field(default_factory=GameConfig)
    vision: VisionConfig = field(default_factory=VisionConfig)
    data_dir: str = ""            # empty: $TABLEHUB_DATA, $STATE_DIRECTORY, ./var in a checkout, XDG
    source: str = "defaults"      # where the settings came from, for `tablehub doctor`

    @property
    def db_path(self) -> Path:
        return Path(self.data_dir) / "games.sqlite"

    def lens_path(self, source: str) -> Path:
        """Where the lens calibration of camera ``source`` (a resolved source, not "auto") is read and written."""
        return Path(self.camera.lens) if self.camera.lens else Path(self.data_dir) / f"lens-{source}.json"

    def refs_path(self, game: str) -> Path:
        """The reference folder ``tablehub enroll`` wrote for ``game`` with this camera."""
        template = self.vision.refs or str(Path(self.data_dir) / "refs" / "{game}")
        return Path(template.replace("{game}", game))


def default_data_dir(environ: Mapping[str, str], cwd: Path | None = None) -> Path:
    """``$TABLEHUB_DATA``, systemd's ``$STATE_DIRECTORY``, ``./var`` inside a checkout, else XDG."""
    for key in ("TABLEHUB_DATA", "STATE_DIRECTORY"):
        if environ.get(key):
            return Path(environ[key].split(":")[0])
    here = cwd or Path.cwd()
    if (here / "pyproject.toml").is_file() and (here / "tablehub").is_dir():
        return here / "var"
    xdg = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "tablehub"


def _merge(section: Any, values: Mapping[str, Any], where: str) -> None:
    fields = {f.name: f for f in dataclasses.fields(section)}
    for key, value in values.items():
        if key not in fields:
            raise ConfigError(f"{where}: unknown key {key!r} (known: {', '.join(sorted(fields))})")
        current = getattr(section, key)
        if isinstance(current, bool):
            ok = isinstance(value, bool)
        elif isinstance(current, (int, float)):
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            value = type(current)(value) if ok else value
        elif isinstance(current, tuple):
            ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
            value = tuple(value) if ok else value
        else:
            ok = isinstance(value, str)
        if not ok:
            raise ConfigError(f"{where}: key {key!r} must be like {current!r}, got {value!r}")
        setattr(section, key, value)


def read_pin_map(path: str | Path) -> dict[str, int]:
    """The ``[pins]`` table of a pin map file such as firmware_config/pins.toml."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read the pin map ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: not valid TOML ({exc})") from None
    pins = data.get("pins")
    if not isinstance(pins, dict) or not all(isinstance(v, int) for v in pins.values()):
        raise ConfigError(f"{p}: expected a [pins] table of BCM numbers such as next = 17")
    return dict(pins)


def load_config(path: str | Path | None = "", environ: Mapping[str, str] | None = None,
                overrides: Mapping[str, Mapping[str, Any]] | None = None) -> Config:
    """Build the settings. ``path=""`` means: look in the usual places; ``None``: no file."""
    env = os.environ if environ is None else environ
    cfg = Config()
    if path == "":
        path = env.get("TABLEHUB_CONFIG") or (SYSTEM_CONFIG if SYSTEM_CONFIG.is_file() else None)
    if path:
        p = Path(path)
        try:
            data = tomllib.loads(p.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"{p}: cannot read the settings ({exc.strerror})") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{p}: not valid TOML ({exc})") from None
        _apply(cfg, data, str(p))
        cfg.source = str(p)
    if env.get("TABLEHUB_CAMERA"):
        cfg.camera.source = env["TABLEHUB_CAMERA"]
    if env.get("TABLEHUB_CAMERA_PATH"):
        cfg.camera.path = env["TABLEHUB_CAMERA_PATH"]
    if env.get("TABLEHUB_PINS"):
        cfg.pins.backend = env["TABLEHUB_PINS"]
    if overrides:
        _apply(cfg, overrides, "command line")
    if not cfg.data_dir:
        cfg.data_dir = str(default_data_dir(env))
    if cfg.camera.source not in CAMERA_SOURCES + ("auto",):
        raise ConfigError(f"camera source {cfg.camera.source!r} is unknown "
                          f"(expected one of: {', '.join(CAMERA_SOURCES)}, or auto)")
    if cfg.pins.backend not in PIN_BACKENDS:
        raise ConfigError(f"pin backend {cfg.pins.backend!r} is unknown (expected one of: {', '.join(PIN_BACKENDS)})")
    return cfg


def _apply(cfg: Config, data: Mapping[str, Any], where: str) -> None:
    for key, value in data.items():
        if key == "data_dir":
            if not isinstance(value, str):
                raise ConfigError(f"{where}: data_dir must be a path string")
            cfg.data_dir = value
            continue
        section = getattr(cfg, key, None) if key in SECTIONS else None
        if section is None:
            raise ConfigError(f"{where}: unknown section [{key}] (known: {', '.join(SECTIONS)}, data_dir)")
        if not isinstance(value, Mapping):
            raise ConfigError(f"{where}: [{key}] must be a table")
        values = dict(value)
        if key == "pins" and "map" in values:  # a pin map file: firmware_config/pins.toml
            values = {**read_pin_map(values.pop("map")), **values}
        _merge(section, values, f"{where} [{key}]")
