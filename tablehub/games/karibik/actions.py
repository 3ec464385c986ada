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

from ..base import Action


@dataclass(frozen=True)
class PlaceShips(Action):
    """Set-up: the skull spaces where Arriba, Bravo, Caribic, Diabolo, Evita and Fuego start."""

    type: ClassVar[str] = "place_ships"
    spaces: tuple[int, ...]


@dataclass(frozen=True)
class Deal(Action):
    """Set-up: the 6 chests turned face up, by the town each names."""

    type: ClassVar[str] = "deal"
    towns: tuple[str, ...]


@dataclass(frozen=True)
class Card(Action):
    """The card ``player`` put on the ship being resolved: 0 to 5 barrels, or -1 (the thief)."""

    type: ClassVar[str] = "card"
    player: str
    card: int
    ship: str | None = None


@dataclass(frozen=True)
class Seventh(Action):
    """A tie for the best bid: ``player`` reveals their 7th card (``card``) or keeps it hidden (null)."""

    type: ClassVar[str] = "seventh"
    player: str
    card: int | None = None


@dataclass(frozen=True)
class Sail(Action):
    """The moving ship sails ``path``: the spaces it enters, in order."""

    type: ClassVar[str] = "sail"
    path: tuple[int, ...]
    player: str | None = None


@dataclass(frozen=True)
class Attack(Action):
    """Raid the port the ship is on: take its face-up chest into an empty hold (+2,000).
    ``chest`` (a town) only when two chests lie face up there."""

    type: ClassVar[str] = "attack"
    chest: str | None = None
    player: str | None = None


@dataclass(frozen=True)
class Steal(Action):
    """Take the chest of the ``ship`` on an adjacent space into an empty hold."""

    type: ClassVar[str] = "steal"
    ship: str
    player: str | None = None


@dataclass(frozen=True)
class Swap(Action):
    """Exchange chests with the adjacent ``ship``, or (no ship) with the port the ship is on (no bonus)."""

    type: ClassVar[str] = "swap"
    ship: str | None = None
    chest: str | None = None
    player: str | None = None


@dataclass(frozen=True)
class Transfer(Action):
    """Hand the chest to the adjacent ``ship`` (empty hold); ``safeguard`` when that ship is on a hideout."""

    type: ClassVar[str] = "transfer"
    ship: str
    safeguard: bool = False
    player: str | None = None


@dataclass(frozen=True)
class Safeguard(Action):
    """Unload the chest in the hideout the ship is on: its value goes to the hideout's owner."""

    type: ClassVar[str] = "safeguard"
    player: str | None = None


@dataclass(frozen=True)
class EndMove(Action):
    """The moving ship's turn is over."""

    type: ClassVar[str] = "end_move"
    player: str | None = None


@dataclass(frozen=True)
class RevealPile(Action):
    """Round end: the 2 chests of the next pile go face up on their towns."""

    type: ClassVar[str] = "reveal_pile"
    towns: tuple[str, ...]


ACTIONS: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (PlaceShips, Deal, Card, Seventh, Sail, Attack, Steal, Swap, Transfer, Safeguard, EndMove,
                RevealPile)
}
