"""The table PIN, the key that signs the phones' cookies, and the brake on PIN guessing.

A :class:`PinKeeper` keeps three small files in the data folder, each readable by the
service's user only (mode 0600):

- ``pin``: the table PIN (:data:`DEFAULT_DIGITS` random digits unless the owner chose one);
  it survives restarts, so phones unlocked yesterday stay unlocked.
- ``cookie-key``: the key that signs the phones' session cookies (a new key would lock
  every phone out at each restart).
- ``pin-brake.json``: wrong guesses since the last right one, and whether PIN entry is
  locked. One count for the whole hub, not per address: a guesser who changes address
  gains nothing.

The brake: the first :attr:`PinKeeper.free` wrong PINs cost nothing (typos); after that each
wrong PIN makes the hub refuse every PIN, right or wrong, for a delay that doubles
(2 s, 4 s, 8 s, ... up to :attr:`PinKeeper.max_delay`); after :attr:`PinKeeper.lock_after`
wrong PINs in a row, PIN entry stays locked until the owner lifts it at the table (hold
NEXT and CHECK together) or on the hub's console (``tablehub pin --lift``). Phones already
unlocked keep working meanwhile. Every wrong PIN is logged with the address it came from.

The ``tablehub pin`` command, run beside the service, changes these files; the service
notices (it looks at the files' modification times) without a restart.

>>> keeper = PinKeeper(pin="12345678", clock=lambda: 0.0)
>>> keeper.guess("12345678", "10.0.0.7")
True
>>> keeper.guess("00000000", "10.0.0.7")
False
>>> keeper.normalize(" 1234-5678 ")
'12345678'
"""
from __future__ import annotations

import json
import logging
import os
import secrets
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable

from .games.base import TablehubError
from .i18n import T

log = logging.getLogger(__name__)

#: digits of a PIN the hub picks itself (10**8 possibilities; typed once per phone)
DEFAULT_DIGITS = 8
#: a PIN the owner sets: this many digits at least and at most
MIN_DIGITS, MAX_DIGITS = 4, 12

PIN_FILE = "pin"
KEY_FILE = "cookie-key"
BRAKE_FILE = "pin-brake.json"


class PinError(TablehubError):
    """A PIN the owner chose that is not 4 to 12 digits, or a PIN file that cannot be used."""


class PinRefused(TablehubError):
    """No PIN is checked now (the brake or the lockout); ``retry_s`` is ``None`` when locked."""

    def __init__(self, message: str, retry_s: float | None):
        super().__init__(message)
        self.retry_s = retry_s


@dataclass
class BrakeState:
    failures: int = 0            # wrong PINs since the last right one (or the last lift)
    last_failure: float = 0.0    # wall-clock time of the last wrong PIN
    locked: bool = False         # PIN entry locked until the owner lifts it


def new_pin(digits: int = DEFAULT_DIGITS) -> str:
    return "".join(str(secrets.randbelow(10)) for _ in range(digits))


def check_pin_format(pin: str) -> str:
    """``pin`` without spaces and dashes, if it is 4 to 12 digits (else :class:`PinError`)."""
    clean = PinKeeper.normalize(pin)
    if not (clean.isascii() and clean.isdigit() and MIN_DIGITS <= len(clean) <= MAX_DIGITS):
        raise PinError(T("the table PIN must be {least} to {most} digits, got {value}", least=MIN_DIGITS, most=MAX_DIGITS,
                             value=repr(pin)))
    return clean


def grouped(pin: str) -> str:
    """The PIN as shown to people: groups of four digits (``1234 5678``)."""
    return " ".join(pin[i:i + 4] for i in range(0, len(pin), 4))


def _write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically, mode 0600, keeping the folder owner's ownership
    (``sudo tablehub pin`` must not leave a root-owned file the service cannot read)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o600)
        if os.geteuid() == 0:
            st = path.parent.stat()
            os.chown(tmp, st.st_uid, st.st_gid)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


class PinKeeper:
    """The PIN, the cookie key and the guessing brake; kept in ``folder`` (or in memory when ``None``).

    ``pin``: the owner's choice (4-12 digits, written to the folder); ``None`` keeps the PIN
    already there, or picks :data:`DEFAULT_DIGITS` random digits. ``clock``: wall-clock
    seconds (tests pass a fake one).
    """

    def __init__(self, folder: str | Path | None = None, pin: str | None = None, *,
                 clock: Callable[[], float] = time.time, free: int = 3, lock_after: int = 10,
                 base_delay: float = 2.0, max_delay: float = 300.0,
                 on_change: Callable[[], None] | None = None):
        self.folder = Path(folder) if folder is not None else None
        self.clock = clock
        self.free = free
        self.lock_after = lock_after
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.on_change = on_change  # called when the lockout starts or ends (the page shows it)
        self._lock = threading.RLock()
        self._stamps: dict[str, tuple[int, int] | None] = {}
        self._brake = BrakeState()
        self._changed = False  # the lockout started or ended: tell on_change once the lock is released
        self._key = b""
        if self.folder is not None:
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise PinError(T("cannot create the data folder {folder} for the PIN ({why})", folder=str(self.folder),
                                   why=exc.strerror)) from None
        chosen = check_pin_format(pin) if pin is not None else None
        self._pin = chosen or ""
        self._load(chosen)

    # ------------------------------------------------------------------ files

    def _path(self, name: str) -> Path | None:
        return self.folder / name if self.folder is not None else None

    def _stamp(self, path: Path) -> tuple[int, int] | None:
        try:
            st = path.stat()
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_ino)

    def _load(self, chosen: str | None) -> None:
        pin_path, key_path = self._path(PIN_FILE), self._path(KEY_FILE)
        if pin_path is None or key_path is None:
            self._pin = chosen or new_pin()
            self._key = secrets.token_bytes(32)
            return
        if chosen is not None:
            self._save(PIN_FILE, chosen + "\n")
        self._reload_pin(create=True)
        try:
            key = bytes.fromhex(key_path.read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            key = b""
        if len(key) < 32:
            key = secrets.token_bytes(32)
            self._save(KEY_FILE, key.hex() + "\n")
        self._key = key
        self._reload_brake()

    def _save(self, name: str, text: str) -> None:
        path = self._path(name)
        if path is None:
            return
        try:
            _write_private(path, text)
        except OSError as exc:
            raise PinError(T("cannot write {path} ({why})", path=str(path), why=exc.strerror)) from None
        self._stamps[name] = self._stamp(path)

    def _reload_pin(self, create: bool = False) -> None:
        path = self._path(PIN_FILE)
        if path is None:
            return
        stamp = self._stamp(path)
        if stamp is not None and stamp == self._stamps.get(PIN_FILE) and self._pin:
            return
        try:
            text = path.read_text(encoding="utf-8").strip()
            self._pin = check_pin_format(text)
        except PermissionError:
            if not create and self._pin:
                log.warning("the PIN file %s is unreadable (permission denied); keeping the PIN in use", path)
                self._stamps[PIN_FILE] = stamp
                return
            raise PinError(T("cannot read the PIN file {path} (permission denied): run this as the service's user, e.g. "
                             "`sudo -u tablehub tablehub pin`", path=str(path))) from None
        except (OSError, UnicodeDecodeError, PinError) as exc:
            if not create and self._pin:
                log.warning("the PIN file %s is unreadable (%s); keeping PIN in use", path, exc)
                self._stamps[PIN_FILE] = stamp
                return
            if stamp is not None:
                log.warning("the PIN file %s is unusable (%s); a new PIN is made", path, exc)
            self._pin = new_pin()
            self._save(PIN_FILE, self._pin + "\n")
            return
        self._stamps[PIN_FILE] = stamp

    def _reload_brake(self) -> None:
        path = self._path(BRAKE_FILE)
        if path is None:
            return
        stamp = self._stamp(path)
        if stamp == self._stamps.get(BRAKE_FILE, ()):
            return
        was_locked = self._brake.locked
        self._stamps[BRAKE_FILE] = stamp
        if stamp is None:
            self._brake = BrakeState()  # `tablehub pin --lift` removes it
        else:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                self._brake = BrakeState(int(data["failures"]), float(data["last_failure"]), bool(data["locked"]))
            except (OSError, ValueError, KeyError, TypeError) as exc:
                # a damaged brake file must not unlock guessing: count it as locked until lifted
                log.warning("the PIN brake file %s is unreadable (%s); PIN entry stays locked until lifted", path, exc)
                self._brake = BrakeState(self.lock_after, self.clock(), True)
        if was_locked != self._brake.locked:
            self._changed = True

    def _save_brake(self) -> None:
        try:
            self._save(BRAKE_FILE, json.dumps(asdict(self._brake)) + "\n")
        except PinError as exc:
            log.warning("%s: the brake holds until the hub restarts", exc)

    # ------------------------------------------------------------------ the PIN

    @staticmethod
    def normalize(pin: str) -> str:
        return "".join(ch for ch in pin if ch not in " -\t")

    @property
    def pin(self) -> str:
        with self._lock:
            self._reload_pin()
            return self._pin

    @property
    def secret_key(self) -> bytes:
        return self._key

    def set_pin(self, pin: str) -> str:
        """Use ``pin`` from now on (phones unlocked with the old one are locked again)."""
        clean = check_pin_format(pin)
        with self._lock:
            self._save(PIN_FILE, clean + "\n")
            self._pin = clean
        log.warning("the table PIN was changed")
        return clean

    def rotate(self, digits: int = DEFAULT_DIGITS) -> str:
        """A new random PIN."""
        return self.set_pin(new_pin(digits))

    def matches(self, pin: Any) -> bool:
        """Whether ``pin`` is the PIN (no brake: for code that already holds the PIN)."""
        if not isinstance(pin, str):
            return False
        import hmac

        return hmac.compare_digest(self.normalize(pin).encode(), self.pin.encode())

    # ------------------------------------------------------------------ the brake

    def delay_after(self, failures: int) -> float:
        """Seconds every PIN is refused after the ``failures``-th wrong one in a row."""
        if failures <= self.free:
            return 0.0
        return min(self.max_delay, self.base_delay * 2 ** (failures - self.free - 1))

    def _notify(self) -> None:
        with self._lock:
            changed, self._changed = self._changed, False
        if changed and self.on_change is not None:
            self.on_change()

    def status(self) -> dict[str, Any]:
        """``{"failures", "locked", "wait_s"}``: the brake as it stands."""
        with self._lock:
            self._reload_brake()
            b = self._brake
            wait = max(0.0, b.last_failure + self.delay_after(b.failures) - self.clock()) if b.failures else 0.0
            out = {"failures": b.failures, "locked": b.locked, "wait_s": wait}
        self._notify()
        return out

    def guess(self, pin: Any, who: str) -> bool:
        """Check a PIN typed on a phone at address ``who``, through the brake.

        Returns whether it is right; raises :class:`PinRefused` when no PIN is checked now.
        """
        try:
            return self._guess(pin, who)
        finally:
            self._notify()

    def _guess(self, pin: Any, who: str) -> bool:
        with self._lock:
            self._reload_brake()
            b = self._brake
            if b.locked:
                raise PinRefused(T("PIN entry is locked after {n} wrong PINs; the owner lifts it by holding NEXT and "
                                   "CHECK together on the table, or with `tablehub pin --lift` on the hub", n=b.failures),
                                 None)
            wait = b.last_failure + self.delay_after(b.failures) - self.clock() if b.failures else 0.0
            if wait > 0:
                raise PinRefused(T("too many wrong PINs on this table; try again in {s} s", s=int(wait) + 1), wait)
            if self.matches(pin):
                if b.failures:
                    log.info("right PIN from %s after %d wrong ones", who, b.failures)
                    self._brake = BrakeState()
                    self._save_brake()
                return True
            b.failures += 1
            b.last_failure = self.clock()
            if b.failures >= self.lock_after:
                b.locked = True
                self._changed = True
            self._save_brake()
            if b.locked:
                log.warning("wrong PIN from %s (%d in a row): PIN entry is locked until the owner lifts it",
                            who, b.failures)
            else:
                log.warning("wrong PIN from %s (%d in a row; the next PIN is checked in %.0f s)",
                            who, b.failures, self.delay_after(b.failures))
        return False

    def lift(self, by: str = "the owner") -> bool:
        """End a lockout and forget the wrong guesses; returns whether anything was locked."""
        with self._lock:
            self._reload_brake()
            was = self._brake.locked
            had = self._brake.failures
            self._brake = BrakeState()
            self._changed = self._changed or was
            self._save_brake()
        if had:
            log.warning("PIN entry %s by %s (%d wrong PINs forgotten)", "unlocked" if was else "brake reset", by, had)
        self._notify()
        return was
