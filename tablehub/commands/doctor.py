"""``tablehub doctor``: check the camera, the mat markers, GPIO, numpy's ABI, disk and the service; print fixes."""
from __future__ import annotations

import argparse
import json

from ..config import Config, load_config
from ..games.base import TablehubError
from ..hardware.checks import Check, run_checks

NAME = "doctor"
HELP = "check camera, lens file, markers in view, GPIO, numpy/OpenCV/picamera2 compatibility, disk and service"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", default="", help="settings file (default: $TABLEHUB_CONFIG or "
                        "/etc/tablehub/tablehub.toml if present)")
    parser.add_argument("--no-camera", action="store_true", help="skip the camera and marker checks")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")


def check_lens(cfg: Config) -> Check:
    """Whether the camera has a lens file, whether it reads, fits the camera's frames, and how good it is."""
    try:
        from vision import VisionError

        from .lens import configured_lens, describe, lens_path
    except ImportError as exc:
        return Check("lens", "skip", f"vision is not installed ({exc})")
    path = lens_path(cfg)
    redo = "run 'tablehub lens calibrate' again (docs/vision-setup.md)"
    try:
        lens = configured_lens(cfg)
        if lens is None:
            return Check("lens", "skip", f"no lens file ({path}): fine for standard lenses; wide ones: "
                         "'tablehub lens calibrate'")
        configured_lens(cfg, (cfg.camera.width, cfg.camera.height))  # it must fit the camera's frames
    except (VisionError, TablehubError) as exc:
        return Check("lens", "fail", str(exc), f"{redo}, or remove the file to run without it")
    if lens.rms_px > 1.0:
        return Check("lens", "warn", f"{path}: {describe(lens)}",
                     f"sharp photos of a flat board give under 1 px: {redo}")
    return Check("lens", "ok", f"{path}: {describe(lens)}")


def run(args: argparse.Namespace) -> int:
    cfg = load_config(args.config)
    checks = run_checks(cfg, camera=not args.no_camera)
    after_markers = next((i + 1 for i, c in enumerate(checks) if c.name == "markers"), 1)
    checks.insert(after_markers, check_lens(cfg))
    if args.json:
        print(json.dumps([c.__dict__ for c in checks], indent=1))
    else:
        print(f"tablehub doctor (settings: {cfg.source}, data: {cfg.data_dir})")
        for c in checks:
            print(c.line())
    failed = [c for c in checks if c.status == "fail"]
    if not args.json:
        print("all good" if not failed else f"{len(failed)} problem(s) to fix")
    return 1 if failed else 0
