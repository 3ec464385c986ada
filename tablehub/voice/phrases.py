"""What the voice says: short sentences rendered from the session's and the tracker's structured events.

Every sentence is a template of :mod:`tablehub.i18n` (catalogs ``tablehub/locale/<lang>/voice.po``,
gettext ``.po`` files that ``pybabel extract`` with ``babel.cfg`` lists), rendered in the table's
language (``[voice] language``). The parts the engines fill in (a score's reason, a refusal's
reason) are :class:`~tablehub.i18n.Text` where an engine wrote them as one, and are spoken in the
table's language too; a reason still written as a plain string is spoken as it is.

>>> book = Phrasebook("en")
>>> [a.text for a in book.action({"events": [{"player": "Red", "points": 10, "kind": "score",
...     "reason": "finished area of 5 tiles"}]}, to_play="Blue")]
['Red scores 10 for finished area of 5 tiles.', 'Blue to play.']
>>> book.illegal("the sea meets a mountain on the east side").text
'Illegal: the sea meets a mountain on the east side.'
>>> Phrasebook("de").action({}, to_play="Blau")[0].text
'Blau ist am Zug.'
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from tablehub import i18n
from tablehub.i18n import N_, Text, translate

#: the voice's catalog area (tablehub/locale/<lang>/voice.po)
AREA = "voice"

#: how much an announcement matters when the queue is full (the least important goes first)
PRIORITY = {"turn": 0, "undo": 1, "refused": 2, "score": 3, "final": 4, "illegal": 5, "test": 5}


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


@dataclass(frozen=True)
class Announcement:
    """One sentence to speak: ``kind`` is one of :data:`tablehub.config.VOICE_EVENTS`."""

    kind: str
    text: str

    @property
    def priority(self) -> int:
        return PRIORITY.get(self.kind, 0)


class Phrasebook:
    """The voice's sentences in one language (:mod:`tablehub.i18n`; English where a sentence has no
    translation, which :attr:`translated` and :func:`tablehub.i18n.missing` say)."""

    def __init__(self, language: str = "en"):
        if language not in i18n.LANGUAGES:
            raise ValueError(f"voice language: expected one of {', '.join(i18n.LANGUAGES)}, got {language!r}")
        self.language = language
        #: False while some sentence has no translation in ``language`` (it is spoken in English)
        self.translated = language == i18n.DEFAULT_LANGUAGE or all(
            i18n.catalog(language).lookup(Text(t)) for t in templates())

    def say(self, kind: str, template: str, **fields: Any) -> Announcement:
        return Announcement(kind, translate(Text(template, **fields), self.language))

    def words(self, text: Any) -> str:
        """An engine's text (a Text, its JSON form or a plain string) in the table's language, as a clause."""
        return _clause(translate(text, self.language))

    # ---- session events

    def score(self, event: Mapping[str, Any]) -> Announcement:
        player, points = event.get("player", "?"), int(event.get("points", 0))
        reason = self.words(event.get("reason", ""))
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
                said.append(self.say("final", SHARE, players=i18n.join(winners), points=best))
        return said

    # ---- tracker events

    def illegal(self, reason: str | None) -> Announcement:
        return self.say("illegal", ILLEGAL, reason=self.words(reason or Text(N_("illegal placement"))))

    def refused(self, message: str) -> Announcement:
        return self.say("refused", REFUSED, reason=self.words(message))


def _clause(text: str) -> str:
    """An engine's reason as a clause inside a sentence: no trailing full stop, one line."""
    return " ".join(text.split()).rstrip(" .;:")


def templates() -> Iterable[str]:
    """Every sentence template (for catalogs and tests)."""
    return (SCORES, SCORES_ONE, LOSES, NOTE, FINAL, TO_PLAY, ILLEGAL, REFUSED, UNDONE, UNDONE_ONE, TOTAL, WINS,
            SHARE)
