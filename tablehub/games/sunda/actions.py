"""The Sunda to Sahul action vocabulary (JSON examples in docs/sunda.md).

Lattice points are ``q, r`` (see :mod:`.lattice`). Every action may name the
``player`` who does it; when given it must be the player the engine expects (the
placer; for ``consent`` the tribe's chief), so several phones can submit safely.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..base import Action


@dataclass(frozen=True)
class PlacePiece(Action):
    """Lay a piece from the pool: its acute corner c0 at q, r, turned turn x 60 degrees clockwise (0-5).

    Starts a phase (the turn's first or second)."""

    type: ClassVar[str] = "place_piece"
    piece: str
    q: int
    r: int
    turn: int = 0
    player: str | None = None


@dataclass(frozen=True)
class PlacePawn(Action):
    """Put a pawn on the land node q, r this phase's piece formed, or (tribes) on a tribe on its island.

    With tribes, ``q, r`` may name a tribe standing on the island of a node formed this phase."""

    type: ClassVar[str] = "place_pawn"
    q: int
    r: int
    player: str | None = None


@dataclass(frozen=True)
class WaterRight(Action):
    """Water rights: put a pawn on the fresh-water node q, r that this phase's piece made."""

    type: ClassVar[str] = "water_right"
    q: int
    r: int
    player: str | None = None


@dataclass(frozen=True)
class Consent(Action):
    """Cooperation: the chief of the tribe at q, r (player) lets the placer join it this phase."""

    type: ClassVar[str] = "consent"
    q: int
    r: int
    player: str | None = None


@dataclass(frozen=True)
class Challenge(Action):
    """Challenges: instead of a pawn, pit your tribe at attacker [q, r] against the tribe at defender.

    The attacker is a tribe you lead, on any island; the defender a tribe led by another player,
    on the attacker's island."""

    type: ClassVar[str] = "challenge"
    attacker: tuple[int, int]
    defender: tuple[int, int]
    player: str | None = None


@dataclass(frozen=True)
class Roll(Action):
    """The table's dice for the pending challenge: the challenger's faces and the defender's, e.g. [5, 2]."""

    type: ClassVar[str] = "roll"
    challenger: tuple[int, ...]
    defender: tuple[int, ...]


@dataclass(frozen=True)
class PlaceMarker(Action):
    """Resources: after a pawn or a water right this phase, put an unused marker on that island."""

    type: ClassVar[str] = "place_marker"
    marker: str
    player: str | None = None


ACTIONS: dict[str, type[Action]] = {
    cls.type: cls for cls in (PlacePiece, PlacePawn, WaterRight, Consent, Challenge, Roll, PlaceMarker)
}
