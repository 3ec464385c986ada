"""``tablehub bench WHAT``: the benchmarks in benchmarks/ (engine, vision, photoscore, loop, venue, ...); they print figures."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from ..games.base import TablehubError
from ..i18n import T

NAME = "bench"
HELP = T("run a benchmark that prints figures: engine, hints, vision, sunda-vision, photoscore, loop, trace, boards, "
        "venue or load (see docs/benchmarks.md)")
BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
KINDS = ("engine", "hints", "vision", "sunda-vision", "photoscore", "loop", "trace", "boards", "venue", "load")


def add_arguments(p) -> None:
    p.add_argument("what", choices=KINDS, help=T("which benchmark"))
    p.add_argument("args", nargs="...", help=T("options for that benchmark (try: tablehub bench engine --help)"))


def run(args) -> int:
    path = BENCHMARKS / f"{args.what.replace('-', '_')}.py"
    if not path.is_file():
        raise TablehubError(T("benchmark {what} is not in this checkout ({path} missing)", what=repr(args.what), path=str(path)))
    spec = importlib.util.spec_from_file_location(f"tablehub_bench_{args.what.replace('-', '_')}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses with postponed annotations look their module up here
    spec.loader.exec_module(module)
    return int(module.main(list(args.args)) or 0)
