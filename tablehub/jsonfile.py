"""Reading the project's JSON files (records, catalogs, boards, ships) with one-line errors."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .games.base import TablehubError
from .i18n import T, Tc

#: the files read, each a word to translate (inside "cannot read the {what}": fr "le fichier de {what}")
_WHAT = {"file": Tc("file", "file"), "references": Tc("file", "references"),
         "holdings file": Tc("file", "holdings file"), "Sunda pieces file": Tc("file", "Sunda pieces file"),
         "catalog": Tc("file", "catalog"), "ships file": Tc("file", "ships file"),
         "Tahiti board file": Tc("file", "Tahiti board file"), "Karibik board file": Tc("file", "Karibik board file")}


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
            raise error(T("{path}: cannot read the {what} ({why})", path=str(p), what=_WHAT.get(what, what),
                            why=exc.strerror)) from None
        except UnicodeDecodeError:
            raise error(T("{path}: the {what} is not UTF-8 text", path=str(p), what=_WHAT.get(what, what))) from None
    return parse_json(text, source, error)


def read_folder_meta(folder: str | Path, name: str, fmt: str, error: type[TablehubError], enrol: str) -> dict[str, Any]:
    """A references folder's description file ``folder/name`` (``boardcam.json``, ``sunda.json``): a JSON
    object whose ``format`` is ``fmt``. Problems raise ``error`` in one line naming the file; ``enrol`` says
    how to make the folder when the file is missing (``"run 'tablehub boardcam enrol-board' first"``)."""
    path = Path(folder) / name
    if not path.is_file():
        raise error(T("{folder}: no {name} ({enrol})", folder=str(Path(folder)), name=name, enrol=enrol))
    meta, _ = read_json(path, error, "references")
    if not isinstance(meta, dict) or meta.get("format") != fmt:
        raise error(T("{path}: 'format' must be {format}", path=str(path), format=repr(fmt)))
    return meta


class LongNumber(float):
    """A JSON number written with more digits than any field takes (more than :data:`MAX_DIGITS`).

    It reads as an infinite float, so every whole-number field refuses it ("got a 5000-digit number"),
    instead of Python's int conversion failing on it (more than 4,300 digits) or a later step spending
    time on a huge integer."""

    digits: int = 0

    def __new__(cls, text: str) -> "LongNumber":
        self = super().__new__(cls, "-inf" if text.startswith("-") else "inf")
        self.digits = len(text.lstrip("-"))
        return self

    def __repr__(self) -> str:
        return f"a {self.digits}-digit number"


#: a JSON integer longer than this is read as a :class:`LongNumber`
MAX_DIGITS = 30


def _int(text: str) -> int | float:
    return int(text) if len(text) <= MAX_DIGITS else LongNumber(text)


def parse_json(text: str, source: str, error: type[TablehubError] = TablehubError) -> tuple[Any, str]:
    """``json.loads`` with one-line errors: bad syntax (with line and column), nesting deeper than Python's
    parser goes, numbers too long to be any field's value (kept as :class:`LongNumber`)."""
    try:
        return json.loads(text, parse_int=_int), source
    except json.JSONDecodeError as exc:
        raise error(T("{source}: not valid JSON (line {line}, column {column}: {why})", source=source,
                        line=exc.lineno, column=exc.colno, why=exc.msg)) from None
    except RecursionError:
        raise error(T("{source}: not valid JSON (lists or objects nested too deeply)", source=source)) from None
    except ValueError as exc:  # a float literal Python cannot read
        raise error(T("{source}: not valid JSON ({why})", source=source, why=str(exc).splitlines()[0][:120])) from None
