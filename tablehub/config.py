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
import ipaddress
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from . import schemas
from .i18n import LANGUAGES, T
from .games.base import TablehubError, check_players, show

CAMERA_SOURCES = ("picamera2", "opencv", "replay", "sim")
PIN_BACKENDS = ("auto", "mock", "lgpio", "rpigpio")
SYSTEM_CONFIG = Path("/etc/tablehub/tablehub.toml")
SECTIONS = ("camera", "pins", "tracking", "web", "game", "vision", "venue", "voice")


class ConfigError(TablehubError):
    pass


#: the files :func:`read_toml` names in its errors, each a word to translate
_WHAT = {"settings": T("settings"), "pin map": T("pin map")}


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


VOICE_EVENTS = ("score", "final", "turn", "illegal", "refused", "undo")  # what the voice may say (docs/voice.md)
VOICE_LANGUAGES = LANGUAGES  # the languages of tablehub.i18n: the voice speaks what the page reads


@dataclass
class VoiceConfig:
    """Spoken announcements with espeak-ng (docs/voice.md); checked by :func:`check_voice`."""

    enabled: bool = True          # off: nothing is spoken (espeak-ng absent: off, with one log line)
    language: str = "en"          # the table's language: en, fr, de (voice.po; espeak-ng speaks with its voice)
    voice: str = ""               # espeak-ng voice (espeak-ng --voices); empty: the language's own voice
    volume: int = 100             # espeak-ng amplitude, 0-200
    speed: int = 160              # words per minute, 80-450
    events: tuple[str, ...] = ("score", "final", "turn", "illegal", "undo")  # of VOICE_EVENTS
    quiet: str = ""               # quiet hours "22:00-08:00" (may cross midnight); empty: never quiet
    device: str = ""              # ALSA device (aplay -L), e.g. "plughw:CARD=Headphones"; empty: the default
    queue: int = 6                # announcements waiting at most; a full queue drops the least important
    timeout_s: float = 20.0       # an espeak-ng still running after this is killed


def parse_quiet(text: str, where: str = "[voice] quiet") -> tuple[int, int] | None:
    """``"22:00-08:00"`` as minutes after midnight ``(1320, 480)``; ``""`` as ``None``."""
    m = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*", text or "")
    if not (text or "").strip():
        return None
    if m is None:
        raise ConfigError(T("{where}: expected quiet hours like \"22:00-08:00\", got {value}", where=where, value=repr(text)))
    h1, m1, h2, m2 = (int(g) for g in m.groups())
    if h1 > 23 or h2 > 23 or m1 > 59 or m2 > 59:
        raise ConfigError(T("{where}: {value} is not a time of day range (hours 0-23, minutes 0-59)", where=where,
                            value=repr(text)))
    start, end = h1 * 60 + m1, h2 * 60 + m2
    if start == end:
        raise ConfigError(T("{where}: {value} starts and ends at the same time; leave it empty for no quiet hours",
                            where=where, value=repr(text)))
    return start, end


def check_voice(voice: VoiceConfig, where: str = "[voice]") -> None:
    """Raise a one-line :class:`ConfigError` naming the first bad ``[voice]`` key."""
    if voice.language not in VOICE_LANGUAGES:
        raise ConfigError(T("{where} language: expected one of {known}, got {value}", where=where,
                            known=", ".join(VOICE_LANGUAGES), value=repr(voice.language)))
    if voice.voice and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_+\-/]{0,40}", voice.voice):
        raise ConfigError(T("{where} voice: expected an espeak-ng voice name such as \"en-gb\" or \"de\", got {value}",
                            where=where, value=repr(voice.voice)))
    if not 0 <= voice.volume <= 200:
        raise ConfigError(T("{where} volume: expected 0 to 200 (100 is normal), got {value}", where=where,
                            value=voice.volume))
    if not 80 <= voice.speed <= 450:
        raise ConfigError(T("{where} speed: expected 80 to 450 words per minute, got {value}", where=where,
                            value=voice.speed))
    unknown = [e for e in voice.events if e not in VOICE_EVENTS]
    if unknown:
        raise ConfigError(T("{where} events: unknown {unknown} (known: {known})", where=where,
                            unknown=", ".join(map(repr, unknown)), known=", ".join(VOICE_EVENTS)))
    parse_quiet(voice.quiet, f"{where} quiet")
    if voice.device and not re.fullmatch(r"[A-Za-z0-9_:=,.\-]{1,80}", voice.device):
        raise ConfigError(T("{where} device: expected an ALSA device name such as \"plughw:CARD=Headphones\" (see "
                            "aplay -L), got {value}", where=where, value=repr(voice.device)))
    if not 1 <= voice.queue <= 100:
        raise ConfigError(T("{where} queue: expected 1 to 100 announcements, got {value}", where=where, value=voice.queue))
    if not 1 <= voice.timeout_s <= 300:
        raise ConfigError(T("{where} timeout_s: expected 1 to 300 seconds, got {value}", where=where,
                            value=voice.timeout_s))


@dataclass
class VenueConfig:
    """Publishing this table to a venue's MQTT broker (docs/venue.md); off while ``broker`` is empty."""

    broker: str = ""              # host name or address of the venue's Mosquitto; empty: publish nothing
    port: int = 0                 # 0: 1883, or 8883 with tls
    venue: str = ""               # topic name of the café, club or tournament, e.g. "cafe-du-port"
    table: str = ""               # topic name of this table; empty: the machine's host name
    username: str = ""
    password: str = ""
    tls: bool = False
    ca_file: str = ""             # with tls: the CA that signed the broker's certificate; empty: the system's
    keepalive: int = 15           # seconds; the broker marks the table offline after 1.5 times this

    @property
    def enabled(self) -> bool:
        return bool(self.broker)

    @property
    def broker_port(self) -> int:
        return self.port or (8883 if self.tls else 1883)


@dataclass
class Config:
    camera: CameraConfig = field(default_factory=CameraConfig)
    pins: PinsConfig = field(default_factory=PinsConfig)
    tracking: TrackingConfig = field(default_factory=TrackingConfig)
    web: WebConfig = field(default_factory=WebConfig)
    game: GameConfig = field(default_factory=GameConfig)
    vision: VisionConfig = field(default_factory=VisionConfig)
    venue: VenueConfig = field(default_factory=VenueConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
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
    """Set checked values (``tablehub/schemas/settings.schema.json``) on a section, in its field types."""
    fields = {f.name: f for f in dataclasses.fields(section)}
    for key, value in values.items():
        if key not in fields:  # the schema knows the same keys; this guards a schema out of step
            raise ConfigError(T("{where}: unknown key {key} (known: {known})", where=where, key=repr(key),
                                known=", ".join(sorted(fields))))
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
            raise ConfigError(T("{where}: key {key} must be like {example}, got {value}", where=where, key=repr(key),
                                example=repr(current), value=repr(value)))
        setattr(section, key, value)


def read_toml(path: str | Path, what: str) -> dict[str, Any]:
    """A TOML file with one-line errors: unreadable, not UTF-8 (with the line), not TOML."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise ConfigError(T("{path}: cannot read the {what} ({why})", path=str(p), what=_WHAT.get(what, what),
                                why=exc.strerror)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError(T("{path}: line {line}: the {what} must be UTF-8 text (byte 0x{byte} is not); save it as UTF-8",
                            path=str(p), line=line, what=_WHAT.get(what, what), byte=format(raw[exc.start], "02x"))) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(T("{path}: not valid TOML ({why})", path=str(p), why=str(exc))) from None
    except RecursionError:
        raise ConfigError(T("{path}: not valid TOML (nested too deeply)", path=str(p))) from None


def read_pin_map(path: str | Path) -> dict[str, int]:
    """The ``[pins]`` table of a pin map file such as firmware_config/pins.toml."""
    p = Path(path)
    data = read_toml(p, "pin map")
    pins = data.get("pins")
    if not isinstance(pins, dict) or not all(isinstance(v, int) for v in pins.values()):
        raise ConfigError(T("{path}: expected a [pins] table of BCM numbers such as next = 17", path=str(p)))
    return dict(pins)


def table_language(path: str | Path | None = "", environ: Mapping[str, str] | None = None) -> str | None:
    """The table's language (``[voice] language``) the settings file names, read leniently, as the command line's
    errors need it even when the file is what is wrong; ``None`` without a file, an unreadable one, or one that
    names no language the hub speaks. ``path`` as :func:`load_config`'s."""
    env = os.environ if environ is None else environ
    if path == "":
        path = env.get("TABLEHUB_CONFIG") or (SYSTEM_CONFIG if SYSTEM_CONFIG.is_file() else None)
    if not path:
        return None
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    voice = data.get("voice")
    language = voice.get("language") if isinstance(voice, dict) else None
    return language if language in LANGUAGES else None


def load_config(path: str | Path | None = "", environ: Mapping[str, str] | None = None,
                overrides: Mapping[str, Mapping[str, Any]] | None = None) -> Config:
    """Build the settings. ``path=""`` means: look in the usual places; ``None``: no file."""
    env = os.environ if environ is None else environ
    cfg = Config()
    if path == "":
        path = env.get("TABLEHUB_CONFIG") or (SYSTEM_CONFIG if SYSTEM_CONFIG.is_file() else None)
    if path:
        p = Path(path)
        _apply(cfg, read_toml(p, "settings"), str(p))
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
        raise ConfigError(T("camera source {value} is unknown (expected one of: {known}, or auto)",
                            value=repr(cfg.camera.source), known=", ".join(CAMERA_SOURCES)))
    if cfg.pins.backend not in PIN_BACKENDS:
        raise ConfigError(T("pin backend {value} is unknown (expected one of: {known})", value=repr(cfg.pins.backend),
                            known=", ".join(PIN_BACKENDS)))
    check_venue(cfg.venue, cfg.source)
    check_voice(cfg.voice, f"{cfg.source} [voice]")
    return cfg


def topic_name_error(name: str) -> str | None:
    """Why ``name`` cannot be one level of an MQTT topic (venue, table), or ``None``."""
    if not name:
        return T("must not be empty")
    if len(name) > 64 or not all(c.isalnum() or c in "-_." for c in name):
        return T("must be 1 to 64 letters, digits, '-', '_' or '.' (no spaces, '/', '+' or '#')")
    return None


def check_venue(venue: VenueConfig, where: str = "settings") -> None:
    """One-line errors for a ``[venue]`` table that cannot work; fills in the table name (the host name)."""
    if not venue.enabled:
        return
    if not venue.table:
        import socket

        venue.table = "".join(c if c.isalnum() or c in "-_." else "-" for c in socket.gethostname())[:64] or "table"
    for key in ("venue", "table"):
        problem = topic_name_error(getattr(venue, key))
        if problem:
            raise ConfigError(T("{where} [venue] {key} = {value}: {problem}", where=where, key=key,
                                value=repr(getattr(venue, key)), problem=problem))
    if any(c.isspace() or c in "/#+" for c in venue.broker):
        raise ConfigError(T("{where} [venue] broker = {value}: expected a host name or address", where=where,
                            value=repr(venue.broker)))
    if not 0 <= venue.port <= 65535:
        raise ConfigError(T("{where} [venue] port = {value}: expected 1 to 65535 (0: 1883, or 8883 with tls)", where=where,
                            value=venue.port))
    if venue.password and not venue.username:
        raise ConfigError(T("{where} [venue] password is set but username is empty", where=where))
    if venue.ca_file and not venue.tls:
        raise ConfigError(T("{where} [venue] ca_file is set but tls is false (set tls = true)", where=where))
    if venue.ca_file and not Path(venue.ca_file).is_file():
        raise ConfigError(T("{where} [venue] ca_file = {value}: no such file", where=where, value=repr(venue.ca_file)))
    if not 5 <= venue.keepalive <= 600:
        raise ConfigError(T("{where} [venue] keepalive = {value}: expected 5 to 600 seconds", where=where,
                            value=venue.keepalive))


def host_problem(host: str) -> str | None:
    """Why ``host`` cannot be served on (``None`` when it is an IP address or a host name).

    A name made only of digits and dots must be a real IPv4 address (``256.1.1.1`` is not).
    """
    try:
        ipaddress.ip_address(host.strip("[]"))
        return None
    except ValueError:
        pass
    labels = host.rstrip(".").split(".")
    if all(label.isdigit() for label in labels):
        return T("not an IP address (each of the four numbers is 0 to 255)")
    if len(host) > 253 or not all(_LABEL.match(label) for label in labels):
        return T("not an IP address or host name")
    return None


_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")


def ensure_data_dir(cfg: Config, option: str = "data_dir") -> Path:
    """Create the data folder if needed; a one-line :class:`ConfigError` naming it when that fails."""
    path = Path(cfg.data_dir)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(T("{option} {path}: cannot create the data folder ({why})", option=option, path=str(path),
                                why=exc.strerror or str(exc))) from None
    if not path.is_dir():
        raise ConfigError(T("{option} {path}: not a folder", option=option, path=str(path)))
    return path


def _apply(cfg: Config, data: Mapping[str, Any], where: str) -> None:
    """Check ``data`` (a settings file's tables, or the command line's) against the settings schema and
    what it cannot say (a host that is not an address, player names), then set it on ``cfg``."""
    schemas.check(data, "settings", where, ConfigError, toml=True)
    web = data.get("web", {})
    if "host" in web and host_problem(web["host"]):
        raise ConfigError(T("{where}: [web] host: {host} is {problem}", where=where, host=show(web["host"]),
                                problem=host_problem(web["host"])))
    game = data.get("game", {})
    if "players" in game:
        check_players(game["players"], f"{where}: [game]")
    for key, value in data.items():
        if key == "data_dir":
            if not isinstance(value, str):
                raise ConfigError(T("{where}: data_dir must be a path string", where=where))
            cfg.data_dir = value
            continue
        section = getattr(cfg, key, None) if key in SECTIONS else None
        if section is None:
            raise ConfigError(T("{where}: unknown section [{key}] (known: {known}, data_dir)", where=where, key=key,
                                known=", ".join(SECTIONS)))
        if not isinstance(value, Mapping):
            raise ConfigError(T("{where}: [{key}] must be a table", where=where, key=key))
        values = dict(value)
        if key == "pins" and "map" in values:  # a pin map file: firmware_config/pins.toml
            values = {**read_pin_map(values.pop("map")), **values}
            schemas.check({"pins": values}, "settings", f"{where} (with the pin map)", ConfigError, toml=True)
        _merge(section, values, f"{where} [{key}]")
