"""From a freely laid layout seen by the camera to candidate game actions, for any game whose pieces are
not on a printed grid (Sunda to Sahul: pieces corner to corner on a lattice the first piece fixes).

The camera's reader returns its own observation of the table (in its own coordinates: the reader does
not know where the engine's first piece lies); the recognizer wraps it in a :class:`LayoutSeen`. The
engine's own adapter (the game's ``layout_moves``) says what it means against the committed game:
``change(game, observation)`` returns a :class:`LayoutChange` (lists of actions, each one reading of what
happened; or a reason none can be; or why to look again; and the question the phone asks when the camera
cannot tell). Every candidate is checked on a copy of the engine here, as for a printed board
(:mod:`.boardmoves`): one legal reading is ``pending`` (NEXT logs it), several, or one the adapter is not
sure of, ``unsure`` (the phone asks), none ``illegal`` with the rules' own reason (LEDs, buzzer, page).
Nothing here names a game's actions.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..games.base import Game
from ..i18n import T
from .boardmoves import _check
from .interpret import Choice, Reading


@dataclass
class LayoutSeen:
    """What the camera read in one frame: the reader's ``observation`` (opaque here), ``notes``."""

    observation: Any
    notes: list[Any] = field(default_factory=list)


@dataclass
class LayoutChange:
    """The engine adapter's reading of a frame against the committed game (module docstring).

    ``candidates``: lists of actions, each one reading of the change (empty: nothing new, unless ``reason``
    or ``waiting``); ``reason``: why no reading can be (illegal); ``waiting``: look again (something hidden);
    ``question``: set when the camera cannot tell (the phone asks even with one candidate);
    ``labels``: a line per candidate for the phone (default: the engine's words)."""

    candidates: list[list[dict[str, Any]]] = field(default_factory=list)
    reason: Any = ""  # str or Text (the page and the voice render a Text in the reader's language)
    waiting: Any = ""
    question: Any = ""
    notes: list[Any] = field(default_factory=list)


def layout_reading(game: Game, seen: LayoutSeen) -> Reading:
    """The tracker's :class:`~tablehub.tracking.interpret.Reading` of ``seen`` against ``game``."""
    notes = list(seen.notes)
    adapter = getattr(game, "layout_moves", None)
    if adapter is None:
        return Reading("waiting", reason=T("the camera is set up for a laid-out table, but {game} is not read "
                                           "that way: play from the phone", game=game.title), notes=notes)
    change: LayoutChange = adapter.change(game, seen.observation)
    notes += change.notes
    if change.waiting:
        return Reading("waiting", reason=change.waiting, notes=notes)
    if not change.candidates:
        if change.reason:
            return Reading("illegal", reason=change.reason, notes=notes)
        return Reading("same", notes=notes)
    legal, refusals = [], []
    for c in change.candidates:
        refusal = _check(game, c)
        (refusals.append(refusal) if refusal else legal.append(c))
    if not legal:
        if change.question:  # the camera was not sure of what it saw: no flag (red, beeps) on a guess
            return Reading("waiting", reason=T("{question} (looking again)", question=change.question), notes=notes)
        return Reading("illegal", reason=refusals[0], notes=notes)
    if len(legal) == 1 and not change.question:
        return Reading("pending", actions=legal[0], notes=notes)
    # the phone logs one action per choice: what would follow it (a pawn after the piece) is read again
    firsts: list[dict[str, Any]] = []
    for c in legal:
        if c[0] not in firsts:
            firsts.append(c[0])
    choices = [Choice((a,), round(1.0 / len(firsts), 3)) for a in firsts]
    question = change.question or T("Several readings fit what the camera saw: which one?")
    return Reading("unsure", choices=choices, reason=question, notes=notes, question=question)
