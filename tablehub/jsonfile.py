"""Reading the project's JSON files (records, catalogs, boards, ships) with one-line errors."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .games.base import TablehubError


def read_json(path: str | Path, error: type[TablehubError] = TablehubError, what: str = "file") -> tuple[Any, str]:
    """Parse a JSON file (``-`` = standard input). Returns ``(data, source name)``.

    Problems raise ``error`` with one line: ``PATH: cannot read the WHAT (...)`` or
    ``PATH: not valid JSON (line L, column C: ...)``.
    """
    if str(path) == "-":
        text, source = sys.stdin.read(), "<stdin>"
    else:
        p = Path(path).expanduser()
        source = str(p)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise error(f"{p}: cannot read the {what} ({exc.strerror})") from None
        except UnicodeDecodeError:
            raise error(f"{p}: the {what} is not UTF-8 text") from None
    try:
        return json.loads(text), source
    except json.JSONDecodeError as exc:
        raise error(f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
