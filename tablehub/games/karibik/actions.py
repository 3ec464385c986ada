"""The Karibik action vocabulary (JSON examples in docs/karibik.md).

Set-up and the chest piles are what the table drew (``place_ships``, ``deal``,
``reveal_pile``). Each ship of a round is a turn: every player's card on it (``card``), the
tied players' 7th cards when the best bid is tied (``seventh``), then the winner's move: paths
sailed (``sail``) and chest actions at the ship's space in any order, closed by ``end_move``.
Actions of the move may name the ``player`` who moves; when given it must be the bid's winner.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...i18n import N_
from ..base import Action


#: what the hand-entry form calls these actions' fields (web/present.py action_forms; karibik.po)
FIELDS: dict[str, str] = {
    "spaces": N_("spaces"),
    "towns": N_("towns"),
    "card": N_("card"),
    "ship": N_("ship"),
    "path": N_("path"),
    "chest": N_("chest"),
    "safeguard": N_("safeguard"),
}


@dataclass(frozen=True)
class PlaceShips(Action):
    """Set-up: the skull spaces where Arriba, Bravo, Caribic, Diabolo, Evita and Fuego start."""

    type: ClassVar[str] = "place_ships"
    label: ClassVar[str] = N_("Place ships")
    help: ClassVar[str] = N_("Set-up: the skull spaces where Arriba, Bravo, Caribic, Diabolo, Evita and Fuego start.")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    spaces: tuple[int, ...]


@dataclass(frozen=True)
class Deal(Action):
    """Set-up: the 6 chests turned face up, by the town each names."""

    type: ClassVar[str] = "deal"
    label: ClassVar[str] = N_("Deal")
    help: ClassVar[str] = N_("Set-up: the 6 chests turned face up, by the town each names.")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    towns: tuple[str, ...]


@dataclass(frozen=True)
class Card(Action):
    """The card ``player`` put on the ship being resolved: 0 to 5 barrels, or -1 (the thief)."""

    type: ClassVar[str] = "card"
    label: ClassVar[str] = N_("Card")
    help: ClassVar[str] = N_("The card a player put on the ship being resolved: 0 to 5 barrels, or -1 (the thief).")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    player: str
    card: int
    ship: str | None = None


@dataclass(frozen=True)
class Seventh(Action):
    """A tie for the best bid: ``player`` reveals their 7th card (``card``) or keeps it hidden (null)."""

    type: ClassVar[str] = "seventh"
    label: ClassVar[str] = N_("Seventh")
    help: ClassVar[str] = N_("A tie for the best bid: the player reveals their 7th card or keeps it hidden (no card).")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    player: str
    card: int | None = None


@dataclass(frozen=True)
class Sail(Action):
    """The moving ship sails ``path``: the spaces it enters, in order."""

    type: ClassVar[str] = "sail"
    label: ClassVar[str] = N_("Sail")
    help: ClassVar[str] = N_("The moving ship sails a path: the spaces it enters, in order.")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    path: tuple[int, ...]
    player: str | None = None


@dataclass(frozen=True)
class Attack(Action):
    """Raid the port the ship is on: take its face-up chest into an empty hold (+2,000).
    ``chest`` (a town) only when two chests lie face up there."""

    type: ClassVar[str] = "attack"
    label: ClassVar[str] = N_("Attack")
    help: ClassVar[str] = N_("Raid the port the ship is on: take its face-up chest into an empty hold (+2,000); name "
                             "the chest (a town) only when two lie face up there.")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    chest: str | None = None
    player: str | None = None


@dataclass(frozen=True)
class Steal(Action):
    """Take the chest of the ``ship`` on an adjacent space into an empty hold."""

    type: ClassVar[str] = "steal"
    label: ClassVar[str] = N_("Steal")
    help: ClassVar[str] = N_("Take the chest of the ship on an adjacent space into an empty hold.")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    ship: str
    player: str | None = None


@dataclass(frozen=True)
class Swap(Action):
    """Exchange chests with the adjacent ``ship``, or (no ship) with the port the ship is on (no bonus)."""

    type: ClassVar[str] = "swap"
    label: ClassVar[str] = N_("Swap")
    help: ClassVar[str] = N_("Exchange chests with the adjacent ship, or (no ship) with the port the ship is on (no "
                             "bonus).")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    ship: str | None = None
    chest: str | None = None
    player: str | None = None


@dataclass(frozen=True)
class Transfer(Action):
    """Hand the chest to the adjacent ``ship`` (empty hold); ``safeguard`` when that ship is on a hideout."""

    type: ClassVar[str] = "transfer"
    label: ClassVar[str] = N_("Transfer")
    help: ClassVar[str] = N_("Hand the chest to the adjacent ship (empty hold); safeguard it when that ship is on a "
                             "hideout.")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    ship: str
    safeguard: bool = False
    player: str | None = None


@dataclass(frozen=True)
class Safeguard(Action):
    """Unload the chest in the hideout the ship is on: its value goes to the hideout's owner."""

    type: ClassVar[str] = "safeguard"
    label: ClassVar[str] = N_("Safeguard")
    help: ClassVar[str] = N_("Unload the chest in the hideout the ship is on: its value goes to the hideout's owner.")
    player: str | None = None


@dataclass(frozen=True)
class EndMove(Action):
    """The moving ship's turn is over."""

    type: ClassVar[str] = "end_move"
    label: ClassVar[str] = N_("End move")
    help: ClassVar[str] = N_("The moving ship's turn is over.")
    player: str | None = None


@dataclass(frozen=True)
class RevealPile(Action):
    """Round end: the 2 chests of the next pile go face up on their towns."""

    type: ClassVar[str] = "reveal_pile"
    label: ClassVar[str] = N_("Reveal pile")
    help: ClassVar[str] = N_("Round end: the 2 chests of the next pile go face up on their towns.")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    towns: tuple[str, ...]


ACTIONS: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (PlaceShips, Deal, Card, Seventh, Sail, Attack, Steal, Swap, Transfer, Safeguard, EndMove,
                RevealPile)
}
