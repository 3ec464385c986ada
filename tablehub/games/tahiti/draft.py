"""The owner's Tahiti track order, recorded on the phone (the "Trace the board" screen).

The rule book does not give the order of the 12 track spaces (docs/tahiti.md), so the owner
goes round their own board clockwise from any space (it becomes space 0) and records each
space's letter and pearl. A draft is ``{"track": [entry or None] * 12}``; :func:`apply` makes
one change (``{"op": "set", "index": i, "letter": "A", "pearl": "green"}`` or ``{"op":
"clear", "index": i}``) and :func:`finished` / :func:`problem` turn it into the board file the
engine loads (checked by the same loader, :func:`.board.board_from_dict`).
"""
from __future__ import annotations

import copy
from typing import Any, Mapping

from ..base import SetupError
from .board import LETTERS, PEARLS, TRACK_LENGTH, board_from_dict

OPS = ("set", "clear")


class DraftError(SetupError):
    """A change that cannot be made: one line naming the field."""


def new_draft() -> dict[str, Any]:
    return {"track": [None] * TRACK_LENGTH}


def _index(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < TRACK_LENGTH:
        raise DraftError(f"'index' must be a track space, 0 to {TRACK_LENGTH - 1}, got {str(value)[:40]!r}")
    return value


def apply(draft: Mapping[str, Any], request: Any) -> tuple[dict[str, Any], str]:
    """One change: the new draft (``draft`` is not changed) and what was done, in one line."""
    if not isinstance(request, Mapping):
        raise DraftError("send the change as an object {\"op\": ..., ...}")
    op = request.get("op")
    if op not in OPS:
        raise DraftError(f"'op' must be one of {', '.join(OPS)}, got {str(op)[:40]!r}")
    new = copy.deepcopy(dict(draft))
    i = _index(request.get("index"))
    if op == "clear":
        new["track"][i] = None
        return new, f"track space {i} cleared"
    letter, pearl = request.get("letter"), request.get("pearl")
    if letter not in LETTERS:
        raise DraftError(f"'letter' must be one of {', '.join(LETTERS)}, got {str(letter)[:40]!r}")
    if pearl not in PEARLS:
        raise DraftError(f"'pearl' must be one of {', '.join(PEARLS)}, got {str(pearl)[:40]!r}")
    new["track"][i] = {"letter": letter, "pearl": pearl}
    return new, f"track space {i}: {letter} with a {pearl} pearl"


def finished(draft: Mapping[str, Any], name: str | None = None) -> dict[str, Any]:
    """The board file: the recorded order, the owner's real board (not provisional)."""
    return {"name": name or "my board (recorded)", "provisional": False,
            "track": [dict(s) if s else None for s in draft["track"]]}


def problem(draft: Mapping[str, Any], source: str = "the recorded track") -> str | None:
    """Why the engine would refuse the recorded track (one line), or ``None`` when it loads."""
    missing = [i for i, s in enumerate(draft["track"]) if not s]
    if missing:
        return (f"{source}: track space{'s' if len(missing) > 1 else ''} "
                f"{', '.join(map(str, missing))} not recorded yet ({TRACK_LENGTH - len(missing)} of {TRACK_LENGTH})")
    try:
        board_from_dict(finished(draft), source)
    except SetupError as exc:
        return str(exc)
    return None


def counts(draft: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """How often each letter and pearl is recorded (the provisional board has each letter twice and
    each pearl three times; the page shows the counts as a check, the loader does not require them)."""
    letters = {k: 0 for k in LETTERS}
    pearls = {k: 0 for k in PEARLS}
    for s in draft["track"]:
        if s:
            letters[s["letter"]] += 1
            pearls[s["pearl"]] += 1
    return {"letters": letters, "pearls": pearls}
