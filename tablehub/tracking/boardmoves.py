"""From the pieces seen on a printed board to candidate game actions, for any board game.

The camera reports where each named piece stands (``seen``: piece -> space, or ``None`` when
unsure) and the committed game says where each stood (``before``). What moved is handed to the
engine's own adapter (the game's ``board_moves``: ``candidates(game, moved)`` returns lists of
actions, each one reading of the change, or a reason; ``explain(game, actions)`` a line for the
phone), and every candidate is checked on a copy of the engine. The result, as for the tiles
(:mod:`.interpret`): ``same``, ``waiting`` (a piece unsure: look again), ``pending`` (one legal
reading), ``unsure`` (several: the phone asks with ``choices``) or ``illegal`` (``reason`` from
the rules). Nothing here names a game's actions.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..games.base import Game, IllegalAction, TablehubError


@dataclass
class BoardReading:
    status: str
    actions: list[dict[str, Any]] = field(default_factory=list)
    choices: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)
    reason: str = ""


def _check(game: Game, actions: list[dict[str, Any]]) -> str | None:
    trial = game.copy()
    for i, data in enumerate(actions):
        try:
            trial.apply(trial.parse_action(data, where=f"action {i + 1}"))
        except (IllegalAction, TablehubError) as exc:
            return str(exc)
    return None


def read_board(game: Game, before: Mapping[str, int], seen: Mapping[str, int | None]) -> BoardReading:
    """What the change from ``before`` to ``seen`` means in ``game`` (module docstring)."""
    adapter = getattr(game, "board_moves", None)
    if adapter is None:
        raise TablehubError(f"{game.name}: the camera does not read this game's board (no board_moves adapter)")
    unsure = sorted(p for p in before if seen.get(p) is None)
    if unsure:
        return BoardReading("waiting", reason=f"not sure where {', '.join(unsure)} stand(s): looking again")
    moved = {p: (before[p], seen[p]) for p in before if seen[p] != before[p]}
    if not moved:
        return BoardReading("same")
    candidates, why = adapter.candidates(game, moved)
    if not candidates:
        return BoardReading("illegal", reason=why)
    legal, refusals = [], []
    for c in candidates:
        refusal = _check(game, c)
        (refusals.append(refusal) if refusal else legal.append(c))
    if not legal:
        return BoardReading("illegal", reason=refusals[0])
    if len(legal) == 1:
        return BoardReading("pending", actions=legal[0])
    return BoardReading("unsure", choices=[(adapter.explain(game, c), c) for c in legal],
                        reason="several ways fit what the camera saw: which one?")
