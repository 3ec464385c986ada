"""What each carrier holds: the game's history is the answer, the camera's reading of the hold a check
(game-agnostic: Karibik's ships and their chests are one case).

A carried item is hard to read where it is carried (a chest's print on a ship's deck is often partly under
the sail: docs/boardcam.md "Chests"), but it was seen before it was taken aboard: a chest lies face up on a
port, its value read there, until a ship takes it, and the tracker logged that chest action from what the
camera saw. So what a carrier holds comes from the committed game (``expected``: carrier -> the item's
value, ``0`` for an empty hold), and the camera's reading of the hold (``read``: a value, ``0`` empty, ``None``
laden but its value not read, :data:`MAYBE` not even sure whether the hold is laden) only checks it
(:func:`check_holds`): it **agrees**, is **unsure** (says nothing), or **disagrees**, on whether the hold
is laden (``presence``: something changed hands, or the camera misread the deck) or only on the value (a
misread print, or an exchange of two carried items: the one change only the values show). A value read sure
against the history that no action explains is said (:func:`contradicted`: the tracker's note), never taken
over the history and never silently dropped.

:func:`hold_tally` counts, over a played session, the carried items the tracker knew (taken aboard by an
action logged from the camera's reading: the item was seen where it lay) against those it had to ask (the
phone entered the action that took them aboard)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

#: the camera's reading of a hold it cannot even say is laden (Karibik: a sail of the lids' colour)
MAYBE = "maybe"

AGREES, UNSURE, DISAGREES = "agrees", "unsure", "disagrees"


@dataclass(frozen=True)
class HoldCheck:
    """One carrier's hold: what the game has (``expected``), what the camera read (``read``) and the verdict
    on whether it is laden (``presence``) and on the value (``value``): :data:`AGREES`, :data:`UNSURE` or
    :data:`DISAGREES`."""

    carrier: str
    expected: Any
    read: Any
    presence: str
    value: str


def check_one(carrier: str, expected: Any, read: Any) -> HoldCheck:
    """The camera's ``read`` of one hold against the game's ``expected`` (module docstring)."""
    if read is MAYBE or read == MAYBE:
        return HoldCheck(carrier, expected, read, UNSURE, UNSURE)
    laden_read, laden_expected = read != 0, bool(expected)
    if laden_read != laden_expected:
        return HoldCheck(carrier, expected, read, DISAGREES, DISAGREES)
    if read is None:  # laden, its value not read
        return HoldCheck(carrier, expected, read, AGREES, UNSURE)
    return HoldCheck(carrier, expected, read, AGREES, AGREES if read == expected else DISAGREES)


def check_holds(expected: Mapping[str, Any], read: Mapping[str, Any]) -> dict[str, HoldCheck]:
    """Each hold the camera read (``read``; a carrier it did not find says nothing) against the game's."""
    return {c: check_one(c, expected[c], r) for c, r in read.items() if c in expected}


def contradicted(checks: Mapping[str, HoldCheck]) -> list[HoldCheck]:
    """The holds whose value the camera read **sure** and other than the game's, laden alike (a misread print, or two
    carried items exchanged unseen): the history stands (it is never overwritten by one frame), but the player is
    told (a note), in the carriers' order."""
    return [c for _, c in sorted(checks.items()) if c.presence == AGREES and c.value == DISAGREES]


def presence_fits(checks: Mapping[str, HoldCheck]) -> bool:
    """No hold is read laden where the game has it empty, or the other way round."""
    return all(c.presence != DISAGREES for c in checks.values())


def values_fit(checks: Mapping[str, HoldCheck]) -> bool:
    """No hold's value is read other than the game's."""
    return all(c.value != DISAGREES for c in checks.values())


@dataclass
class HoldTally:
    """Items taken aboard over a session: ``known`` (the action that took them aboard was logged from the
    camera's reading), ``asked`` (entered on the phone), and how: (source, action type) -> count."""

    known: int = 0
    asked: int = 0
    by: dict[tuple[str, str], int] | None = None

    def line(self) -> str:
        total = self.known + self.asked
        share = f" ({100.0 * self.known / total:.0f} %)" if total else ""
        return f"hold values known from the camera's history {self.known}{share}, asked on the phone {self.asked}"


def hold_tally(game: Any, rows: Iterable[Any], holds: Callable[[Any], Mapping[str, Any]],
               camera_sources: Iterable[str] = ("camera",)) -> HoldTally:
    """Replay ``rows`` (each with ``action`` and ``source``) on ``game`` (a new game of the session's set-up) and
    count each item that came aboard a carrier (``holds(game)``: carrier -> the item it holds, ``None`` when
    empty) by the source of the action that brought it: a camera source is known, any other asked."""
    cams = set(camera_sources)
    tally = HoldTally(by={})
    for row in rows:
        before = dict(holds(game))
        game.apply(game.parse_action(row.action))
        after = holds(game)
        for carrier, item in after.items():
            if item is not None and before.get(carrier) != item:
                if row.source in cams:
                    tally.known += 1
                else:
                    tally.asked += 1
                key = (row.source, str(row.action.get("type")))
                tally.by[key] = tally.by.get(key, 0) + 1  # type: ignore[index]
    return tally
