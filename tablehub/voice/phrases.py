"""What the voice says: short sentences rendered from the session's and the tracker's structured events.

Every sentence is a template marked for translation with gettext (domain ``tablehub``,
catalogs in ``tablehub/locale/<lang>/LC_MESSAGES/tablehub.mo``, the standard layout that
Babel's ``pybabel extract/compile`` writes). Today no catalog exists, so every language
speaks the English templates (:attr:`Phrasebook.translated` says so); when the page's
translations land, a catalog for ``fr`` or ``de`` makes these sentences French or German
without a change here.

The parts the engines fill in (a score's reason, a refusal's reason) are the engines'
own text, English today; they become translatable when the engines emit rule keys.

>>> book = Phrasebook("en")
>>> [a.text for a in book.action({"events": [{"player": "Red", "points": 10, "kind": "score",
...     "reason": "finished area of 5 tiles"}]}, to_play="Blue")]
['Red scores 10 for finished area of 5 tiles.', 'Blue to play.']
>>> book.illegal("the sea meets a mountain on the east side").text
'Illegal: the sea meets a mountain on the east side.'
"""
from __future__ import annotations

import gettext
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "tablehub"

#: how much an announcement matters when the queue is full (the least important goes first)
PRIORITY = {"turn": 0, "undo": 1, "refused": 2, "score": 3, "final": 4, "illegal": 5, "test": 5}


def N_(text: str) -> str:
    """Marks a template for extraction (``pybabel extract -k N_``) without translating it here."""
    return text


SCORES = N_("{player} scores {points} for {reason}.")
SCORES_ONE = N_("{player} scores 1 point for {reason}.")
LOSES = N_("{player} loses {points} for {reason}.")
NOTE = N_("{player}: {reason}.")
FINAL = N_("Final scoring. {player} gets {points} for {reason}.")
TO_PLAY = N_("{player} to play.")
ILLEGAL = N_("Illegal: {reason}.")
REFUSED = N_("Not logged: {reason}.")
UNDONE = N_("Undone: {count} actions.")
UNDONE_ONE = N_("Undone: one action.")
TOTAL = N_("{player} has {points}.")
WINS = N_("{player} wins with {points}.")
SHARE = N_("{players} share the win with {points}.")
AND = N_("{first} and {last}")


@dataclass(frozen=True)
class Announcement:
    """One sentence to speak: ``kind`` is one of :data:`tablehub.config.VOICE_EVENTS`."""

    kind: str
    text: str

    @property
    def priority(self) -> int:
        return PRIORITY.get(self.kind, 0)


class Phrasebook:
    """The voice's sentences in one language (gettext catalog, English when there is none)."""

    def __init__(self, language: str = "en", localedir: Path = LOCALE_DIR):
        self.language = language
        self._t = gettext.translation(DOMAIN, localedir=str(localedir), languages=[language], fallback=True)
        #: False while no catalog exists for ``language``: the sentences are English
        self.translated = language == "en" or isinstance(self._t, gettext.GNUTranslations)

    def say(self, kind: str, template: str, **fields: Any) -> Announcement:
        return Announcement(kind, self._t.gettext(template).format(**fields))

    # ---- session events

    def score(self, event: Mapping[str, Any]) -> Announcement:
        player, points = event.get("player", "?"), int(event.get("points", 0))
        reason = _clause(str(event.get("reason", "")))
        if event.get("kind") == "final":  # the template says "Final scoring" already
            reason = re.sub(r"^final (scoring|evaluation)\s*:\s*", "", reason, flags=re.I)
            return self.say("final", FINAL, player=player, points=points, reason=reason)
        if points == 0:
            return self.say("score", NOTE, player=player, reason=reason)
        if points < 0:
            return self.say("score", LOSES, player=player, points=-points, reason=reason)
        return self.say("score", SCORES_ONE if points == 1 else SCORES, player=player, points=points,
                        reason=reason)

    def action(self, payload: Mapping[str, Any], to_play: str | None = None) -> list[Announcement]:
        """The session's ``action`` event: its score events, then who plays next."""
        said = [self.score(e) for e in payload.get("events") or []]
        if to_play:
            said.append(self.say("turn", TO_PLAY, player=to_play))
        return said

    def undo(self, payload: Mapping[str, Any]) -> Announcement:
        n = len(payload.get("actions") or [])
        return self.say("undo", UNDONE_ONE) if n == 1 else self.say("undo", UNDONE, count=n)

    def finish(self, payload: Mapping[str, Any], scores: Mapping[str, int] | None = None) -> list[Announcement]:
        """The session's ``finish`` event: the final evaluation, then the totals and the winner."""
        said = [self.score({**e, "kind": "final"}) for e in payload.get("events") or []]
        if scores:
            said += [self.say("final", TOTAL, player=p, points=v) for p, v in scores.items()]
            best = max(scores.values())
            winners = [p for p, v in scores.items() if v == best]
            if len(winners) == 1:
                said.append(self.say("final", WINS, player=winners[0], points=best))
            else:
                names = self._t.gettext(AND).format(first=", ".join(winners[:-1]), last=winners[-1])
                said.append(self.say("final", SHARE, players=names, points=best))
        return said

    # ---- tracker events

    def illegal(self, reason: str | None) -> Announcement:
        return self.say("illegal", ILLEGAL, reason=_clause(reason or "illegal placement"))

    def refused(self, message: str) -> Announcement:
        return self.say("refused", REFUSED, reason=_clause(message))


def _clause(text: str) -> str:
    """An engine's reason as a clause inside a sentence: no trailing full stop, one line."""
    return " ".join(text.split()).rstrip(" .;:")


def templates() -> Iterable[str]:
    """Every sentence template (for catalogs and tests)."""
    return (SCORES, SCORES_ONE, LOSES, NOTE, FINAL, TO_PLAY, ILLEGAL, REFUSED, UNDONE, UNDONE_ONE, TOTAL, WINS,
            SHARE, AND)
