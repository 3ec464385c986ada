"""The Tahiti action vocabulary (JSON examples in docs/tahiti.md).

Every action may name the ``player`` who does it; when given it must be the
player the engine expects (the roller, the next bidder, the next saver, the
auction winner), which lets several phones submit without stepping on each other.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...i18n import N_
from ..base import Action


#: what the hand-entry form calls these actions' fields (web/present.py action_forms; tahiti.po)
FIELDS: dict[str, str] = {
    "space": N_("space"),
    "pearl": N_("pearl"),
    "face": N_("face"),
    "amount": N_("amount"),
    "cell": N_("cell"),
}


@dataclass(frozen=True)
class PlaceSailboat(Action):
    """Setup: put your sailboat on track space ``space`` (0-11, clockwise)."""

    type: ClassVar[str] = "place_sailboat"
    label: ClassVar[str] = N_("Place sailboat")
    help: ClassVar[str] = N_("Setup: put your sailboat on a track space (0-11, clockwise).")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    space: int
    player: str | None = None


@dataclass(frozen=True)
class StartPearl(Action):
    """Setup: take a starting pearl (a colour no other player took) onto a boat in front of you."""

    type: ClassVar[str] = "start_pearl"
    label: ClassVar[str] = N_("Start pearl")
    help: ClassVar[str] = N_("Setup: take a starting pearl (a colour no other player took) onto a boat in front of "
                             "you.")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    pearl: str
    player: str | None = None


@dataclass(frozen=True)
class Roll(Action):
    """The roller's die shows ``face``: 1, 2, 3, 4 or "blank"."""

    type: ClassVar[str] = "roll"
    label: ClassVar[str] = N_("Roll")
    help: ClassVar[str] = N_("The roller's die shows 1, 2, 3, 4 or \"blank\".")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    face: int | str
    player: str | None = None


@dataclass(frozen=True)
class Save(Action):
    """Treasure event: put the announced ``amount`` (0-10 $) into your vault."""

    type: ClassVar[str] = "save"
    label: ClassVar[str] = N_("Save into the vault")
    help: ClassVar[str] = N_("Treasure event: put the announced amount (0-10 $) into your vault.")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    amount: int
    player: str | None = None


@dataclass(frozen=True)
class Bid(Action):
    """Auction: bid ``amount`` $ (more than the current bid, at most your cash)."""

    type: ClassVar[str] = "bid"
    label: ClassVar[str] = N_("Bid")
    help: ClassVar[str] = N_("Auction: bid an amount in $ (more than the current bid, at most your cash).")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    amount: int
    player: str | None = None


@dataclass(frozen=True)
class Pass(Action):
    """Auction: pass for good."""

    type: ClassVar[str] = "pass"
    label: ClassVar[str] = N_("Pass")
    help: ClassVar[str] = N_("Auction: pass for good.")
    player: str | None = None


@dataclass(frozen=True)
class TakeLetter(Action):
    """Holding neither pearl nor letter: put an empty boat on your sailboat's space (take its letter)."""

    type: ClassVar[str] = "take_letter"
    label: ClassVar[str] = N_("Take letter")
    help: ClassVar[str] = N_("Holding neither pearl nor letter: put an empty boat on your sailboat's space (take its "
                             "letter).")
    player: str | None = None


@dataclass(frozen=True)
class TakePearl(Action):
    """Holding neither pearl nor letter: take a pearl of the space's colour onto a boat in front of you.

    ``pearl`` may be left out; it is required (any colour still in supply) when the
    space's colour has run out."""

    type: ClassVar[str] = "take_pearl"
    label: ClassVar[str] = N_("Take pearl")
    help: ClassVar[str] = N_("Holding neither pearl nor letter: take a pearl of the space's colour onto a boat in "
                             "front of you (name the pearl only when that colour has run out).")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    pearl: str | None = None
    player: str | None = None


@dataclass(frozen=True)
class PlaceBoat(Action):
    """Holding a letter (take the space's pearl) or a pearl (take the space's letter): put the
    boat with its pearl on the empty ``cell`` of the letter's sector.

    ``pearl`` names the colour taken: optional, required when the space's colour has run
    out (a substitute still in supply); when you place the pearl you held, it may be
    left out or must be that pearl."""

    type: ClassVar[str] = "place_boat"
    label: ClassVar[str] = N_("Place boat")
    help: ClassVar[str] = N_("Holding a letter or a pearl: put the boat with its pearl on an empty cell of the "
                             "letter's sector.")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    cell: str
    pearl: str | None = None
    player: str | None = None


ACTIONS: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (PlaceSailboat, StartPearl, Roll, Save, Bid, Pass, TakeLetter, TakePearl, PlaceBoat)
}
