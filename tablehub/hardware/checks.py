"""What ``tablehub doctor`` checks, one function per thing that can be wrong, each with its fix.

Every check returns a :class:`Check`: ``ok``, ``warn`` or ``fail``, one line saying
what was found, and for anything not ok one line saying what to do.
"""
from __future__ import annotations

import grp
import os
import shutil
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from ..config import Config
from ..i18n import T, reason

BOOT_CONFIGS = (Path("/boot/firmware/config.txt"), Path("/boot/config.txt"))
INCLUDE_LINE = "include tablehub.txt"


@dataclass(frozen=True)
class Check:
    name: str
    status: str        # ok, warn, fail, skip
    found: str
    fix: str = ""

    def line(self) -> str:
        head = f"{self.status.upper():4} {self.name}: {self.found}"
        return head + (f"\n     fix: {self.fix}" if self.fix and self.status in ("warn", "fail") else "")


# --------------------------------------------------------------------------- numpy ABI

NUMPY_ABI_SIGNS = (
    "compiled using NumPy 1.x cannot be run in",        # numpy 2 loading a numpy-1 extension (apt picamera2/simplejpeg)
    "numpy.core.multiarray failed to import",           # numpy 1 loading a numpy-2 extension (recent cv2 wheels)
    "numpy.dtype size changed, may indicate binary incompatibility",
    "_ARRAY_API not found",
)

ABI_FIX = T("keep one numpy for everything: on Raspberry Pi OS Bookworm use Debian's python3-numpy and "
            "python3-opencv (`sudo apt install python3-opencv`, then `.venv/bin/pip uninstall -y numpy "
            "opencv-python-headless`), or pin wheels built for numpy 1.x (`pip install 'numpy<2' "
            "'opencv-python-headless<4.10'`); scripts/install-pi.sh does the former")


def numpy_abi_problem(output: str) -> str | None:
    """The line of an import's output that shows a numpy ABI mismatch, or ``None``."""
    for line in output.splitlines():
        if any(sign in line for sign in NUMPY_ABI_SIGNS):
            return line.strip()
    return None


def check_numpy_abi(python: str = sys.executable, modules: Sequence[str] = ("numpy", "cv2", "picamera2")) -> Check:
    """Import numpy, OpenCV and picamera2 together in a fresh interpreter and look for ABI complaints."""
    code = ("import importlib, numpy\nprint('numpy', numpy.__version__)\n"
            f"for m in {list(modules[1:])!r}:\n"
            "    try:\n        mod = importlib.import_module(m)\n        print(m, getattr(mod, '__version__', 'ok'))\n"
            "    except ModuleNotFoundError:\n        print(m, 'absent')\n"
            "    except Exception as exc:\n        print(m, 'FAILED', type(exc).__name__, exc)\n")
    try:
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Check("numpy ABI", "fail", T("could not run {python} ({why})", python=python, why=str(exc)))
    text = out.stdout + out.stderr
    versions = ", ".join(line.strip() for line in out.stdout.splitlines() if line.strip())
    problem = numpy_abi_problem(text)
    if problem or "FAILED" in out.stdout or out.returncode != 0:
        return Check("numpy ABI", "fail", problem or versions or text.strip()[-200:], ABI_FIX)
    return Check("numpy ABI", "ok", versions)


# --------------------------------------------------------------------------- camera and markers

def check_camera(cfg: Config, read_frame: Callable[[], Any] | None = None,
                 what: str | None = None) -> tuple[Check, Any]:
    """Open the configured camera and read one frame (``read_frame``, named ``what``, reads it instead:
    ``tablehub doctor`` renders a simulated table for the sim camera). Returns the check and the frame
    (or None)."""
    from .cameras import CameraError, make_camera, resolve_source

    source = resolve_source(cfg.camera)
    if source == "sim" and read_frame is None:
        return Check("camera", "skip", T("the sim camera (no Pi camera found); `tablehub demo` uses it"),
                     T("on a Pi, connect the camera and set [camera] source = \"picamera2\"")), None
    try:
        if read_frame is None:
            camera = make_camera(cfg.camera)
            with camera:
                frame = camera.read()
            what = camera.describe()
        else:
            frame, what = read_frame(), what or source
    except CameraError as exc:
        busy = "busy" in str(exc).lower() or "another program" in str(exc).lower()
        fix = (T("the tablehub service holds the camera: `sudo systemctl stop tablehub`, run doctor, start it again")
               if busy else T("check the ribbon cable or USB plug, `rpicam-hello --list-cameras`, and that the user "
                              "is in the video group"))
        return Check("camera", "fail", reason(exc), fix), None
    h, w = frame.shape[:2]
    mean = float(frame.mean())
    if mean < 25 or mean > 235:
        return Check("camera", "warn", T("{what}: {width}x{height}, mean brightness {mean}/255", what=what, width=w,
                                         height=h, mean=format(mean, ".0f")),
                     T("the picture is too dark or too bright: light the table evenly, avoid direct sun")), frame
    return Check("camera", "ok", T("{what}: {width}x{height}, mean brightness {mean}/255", what=what, width=w, height=h,
                                   mean=format(mean, ".0f"))), frame


def check_markers(frame: Any) -> Check:
    if frame is None:
        return Check("markers", "skip", T("no frame to look at"))
    try:
        from vision.markers import detect_markers
        from vision.mat import Mat
    except ImportError as exc:
        return Check("markers", "skip", T("vision is not installed ({why})", why=str(exc)))
    mat = Mat.default()
    found = detect_markers(frame, mat)
    seen = sorted(found.corners)
    if len(seen) == len(mat.marker_ids):
        return Check("markers", "ok", T("all {n} mat markers in view", n=len(seen)))
    missing = ", ".join(mat.marker_label(i) for i in found.missing)
    status = "warn" if len(seen) >= 3 else "fail"
    return Check("markers", status, T("{n} of {total} mat markers in view (missing: {missing})", n=len(seen),
                                      total=len(mat.marker_ids), missing=missing),
                 T("move the camera or the mat so all four corner markers are visible and uncovered "
                   "(print them with `tablehub markers`)"))


# --------------------------------------------------------------------------- GPIO

RUNNING = ("active", "activating", "reloading", "deactivating")


def service_state(unit: str = "tablehub") -> str | None:
    """What ``systemctl is-active`` says of ``unit`` ("active", "inactive"...), ``None`` without systemd."""
    if shutil.which("systemctl") is None:
        return None
    try:
        out = subprocess.run(["systemctl", "is-active", unit], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


def check_gpio(cfg: Config, service: str | None = None) -> Check:
    """Claim the buttons, LEDs and buzzer once; ``service``: the tablehub service's state (when it runs,
    it holds the pins, and claiming them here would fail, or take them from it)."""
    from .panel import Panel, PanelError, on_raspberry_pi

    if cfg.pins.backend == "mock" or (cfg.pins.backend == "auto" and not on_raspberry_pi()):
        return Check("gpio", "skip", T("not a Raspberry Pi: buttons and LEDs run on gpiozero's MockFactory"))
    if service in RUNNING:
        return Check("gpio", "skip", T("the tablehub service is {state} and holds the pins, so they are not claimed "
                                       "here; to check them: `sudo systemctl stop tablehub`, doctor, `sudo systemctl "
                                       "start tablehub`", state=service))
    chips = sorted(Path("/dev").glob("gpiochip*"))
    if not chips:
        return Check("gpio", "fail", T("no /dev/gpiochip* devices"), T("update Raspberry Pi OS (Bookworm or later)"))
    if not all(os.access(c, os.R_OK | os.W_OK) for c in chips):
        return Check("gpio", "fail", T("no access to {path}", path=str(chips[0])),
                     T("add the user to the gpio group: `sudo usermod -aG gpio $USER`, then log in again"))
    try:
        with Panel(cfg.pins):
            pass
    except PanelError as exc:
        return Check("gpio", "fail", reason(exc), T("install python3-lgpio (apt) and make the venv with "
                                                    "--system-site-packages; if the service runs, it holds the pins: "
                                                    "stop it first"))
    return Check("gpio", "ok", T("buttons on GPIO{next}/GPIO{check}, LEDs on GPIO{green}/GPIO{red}, buzzer on "
                                 "GPIO{buzzer}", next=cfg.pins.next, check=cfg.pins.check, green=cfg.pins.green,
                                 red=cfg.pins.red, buzzer=cfg.pins.buzzer))


def check_groups(user: str = "tablehub", groups: Sequence[str] = ("video", "gpio")) -> Check:
    members = {}
    for g in groups:
        try:
            members[g] = grp.getgrnam(g).gr_mem
        except KeyError:
            return Check("groups", "skip", T("there is no {group} group here (not Raspberry Pi OS)", group=g))
    missing = [g for g, m in members.items() if user not in m]
    if missing:
        return Check("groups", "warn", T("user {user} is not in {groups}", user=user, groups=", ".join(missing)),
                     T("`sudo usermod -aG {groups} {user}` (scripts/install-pi.sh does it)", groups=",".join(groups),
                       user=user))
    return Check("groups", "ok", T("user {user} is in {groups}", user=user, groups=", ".join(groups)))


# --------------------------------------------------------------------------- disk and store

DAMAGED_FIX = T("restart the hub (`sudo systemctl restart tablehub`): it sets the damaged file aside beside itself "
                "and salvages every game it can still read into a new one (docs/reliability.md)")


def check_disk(cfg: Config, min_free_mb: int = 200) -> Check:
    folder = Path(cfg.data_dir)
    probe = folder if folder.exists() else next((p for p in folder.parents if p.exists()), Path("/"))
    usage = shutil.disk_usage(probe)
    free_mb = usage.free // 2**20
    if not os.access(probe, os.W_OK):
        return Check("disk", "fail", T("{folder} is not writable", folder=str(folder)),
                     T("`sudo chown tablehub {folder}` or set TABLEHUB_DATA to a writable folder", folder=str(folder)))
    if free_mb < min_free_mb:
        return Check("disk", "fail", T("{free} MB free on {path}", free=free_mb, path=str(probe)),
                     T("free some space: the game log needs little, but SQLite cannot write on a full card"))
    db = cfg.db_path
    if db.exists():
        try:
            con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
            try:
                result = con.execute("PRAGMA quick_check").fetchone()[0]
                games = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            finally:
                con.close()
        except sqlite3.Error as exc:
            return Check("disk", "fail", f"{db}: {exc}", DAMAGED_FIX)
        if result != "ok":
            return Check("disk", "fail", f"{db}: {result}", DAMAGED_FIX)
        return Check("disk", "ok", T("{free} MB free; {path} holds {n} game(s), SQLite integrity ok (replays: see 'game "
                                     "log')", free=free_mb, path=str(db), n=games))
    return Check("disk", "ok", T("{free} MB free; {path} will be created at first start", free=free_mb, path=str(db)))


# --------------------------------------------------------------------------- service and boot config

def check_service(unit: str = "tablehub") -> Check:
    if shutil.which("systemctl") is None:
        return Check("service", "skip", T("no systemctl here"))
    try:
        active = subprocess.run(["systemctl", "is-active", unit], capture_output=True, text=True, timeout=10)
        enabled = subprocess.run(["systemctl", "is-enabled", unit], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Check("service", "skip", T("systemctl did not answer ({why})", why=str(exc)))
    state, boot = active.stdout.strip() or "unknown", enabled.stdout.strip() or "not installed"
    if state == "active":
        return Check("service", "ok", T("{unit} is active ({boot})", unit=unit, boot=boot))
    if boot in ("not installed", "") or "No such file" in enabled.stderr or "not-found" in boot:
        return Check("service", "skip", T("{unit} is not installed (fine on a laptop)", unit=unit),
                     T("on the Pi: `sudo scripts/install-pi.sh`"))
    return Check("service", "fail", T("{unit} is {state} ({boot})", unit=unit, state=state, boot=boot),
                 T("`journalctl -u {unit} -n 50` shows why; `sudo systemctl restart {unit}`", unit=unit))


def check_boot_config(paths: Sequence[Path] = BOOT_CONFIGS) -> Check:
    from .panel import on_raspberry_pi

    path = next((p for p in paths if p.is_file()), None)
    if path is None:
        status = "warn" if on_raspberry_pi() else "skip"
        return Check("boot config", status, T("no /boot/firmware/config.txt here"))
    lines = [line.strip() for line in path.read_text(errors="replace").splitlines()]
    if INCLUDE_LINE in lines:
        snippet = path.parent / "tablehub.txt"
        if not snippet.is_file():
            return Check("boot config", "fail", T("{path} includes tablehub.txt but {snippet} is missing", path=str(path),
                                                  snippet=str(snippet)),
                         f"`sudo cp firmware_config/tablehub.txt {snippet}`")
        return Check("boot config", "ok", T("{path} includes tablehub.txt (camera, button pulls)", path=str(path)))
    return Check("boot config", "warn", T("{path} does not include tablehub.txt", path=str(path)),
                 T("`echo '{line}' | sudo tee -a {path}` and copy firmware_config/tablehub.txt next to it",
                   line=INCLUDE_LINE, path=str(path)))


def check_lgpio_workdir(environ: Any = os.environ) -> Check:
    from .panel import on_raspberry_pi, runtime_dir

    if not on_raspberry_pi():
        return Check("lgpio", "skip", T("not a Raspberry Pi"))
    wd = Path(environ.get("LG_WD") or runtime_dir())
    if os.access(wd, os.W_OK):
        return Check("lgpio", "ok", T("LG_WD={path} is writable", path=str(wd)))
    return Check("lgpio", "fail", T("LG_WD={path} is not writable (lgpio puts its notification pipes there)",
                                    path=str(wd)),
                 T("set LG_WD to a writable folder (the unit uses /run/tablehub)"))


def run_checks(cfg: Config, camera: bool = True, read_frame: Callable[[], Any] | None = None,
               what: str | None = None) -> list[Check]:
    """Every check; ``read_frame`` (named ``what``) stands for the camera (see :func:`check_camera`)."""
    checks = [check_numpy_abi()]
    frame = None
    if camera:
        cam, frame = check_camera(cfg, read_frame, what)
        checks.append(cam)
        checks.append(check_markers(frame))
    checks += [check_gpio(cfg, service_state()), check_lgpio_workdir(), check_groups(), check_disk(cfg), check_service(),
               check_boot_config()]
    return checks
