"""``tablehub doctor``: check the camera, the mat markers, GPIO, numpy's ABI, disk and the service; print fixes."""
from __future__ import annotations

import argparse
import json

from ..config import load_config
from ..hardware.checks import run_checks

NAME = "doctor"
HELP = "check camera, markers in view, GPIO, numpy/OpenCV/picamera2 compatibility, disk and service"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", default="", help="settings file (default: $TABLEHUB_CONFIG or "
                        "/etc/tablehub/tablehub.toml if present)")
    parser.add_argument("--no-camera", action="store_true", help="skip the camera and marker checks")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")


def run(args: argparse.Namespace) -> int:
    cfg = load_config(args.config)
    checks = run_checks(cfg, camera=not args.no_camera)
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
