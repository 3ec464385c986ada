"""The Sunda to Sahul action vocabulary (JSON examples in docs/sunda.md).

Lattice points are ``q, r`` (see :mod:`.lattice`). Every action may name the
``player`` who does it; when given it must be the player the engine expects (the
placer; for ``consent`` the tribe's chief), so several phones can submit safely.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...i18n import N_
from ..base import Action


#: what the hand-entry form calls these actions' fields (web/present.py action_forms; sunda.po)
FIELDS: dict[str, str] = {
    "piece": N_("piece"),
    "turn": N_("turn"),
    "attacker": N_("attacker"),
    "defender": N_("defender"),
    "challenger": N_("challenger"),
    "marker": N_("marker"),
}


@dataclass(frozen=True)
class PlacePiece(Action):
    """Lay a piece from the pool: its acute corner c0 at q, r, turned turn x 60 degrees clockwise (0-5).

    Starts a phase (the turn's first or second)."""

    type: ClassVar[str] = "place_piece"
    label: ClassVar[str] = N_("Place piece")
    help: ClassVar[str] = N_("Lay a piece from the pool: its acute corner c0 at q, r, turned turn x 60 degrees "
                             "clockwise (0-5); it starts a phase.")
    field_labels: ClassVar[dict[str, str]] = FIELDS
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
    label: ClassVar[str] = N_("Place pawn")
    help: ClassVar[str] = N_("Put a pawn on the land node q, r this phase's piece formed, or (tribes) on a tribe on "
                             "its island.")
    q: int
    r: int
    player: str | None = None


@dataclass(frozen=True)
class WaterRight(Action):
    """Water rights: put a pawn on the fresh-water node q, r that this phase's piece made."""

    type: ClassVar[str] = "water_right"
    label: ClassVar[str] = N_("Water right")
    help: ClassVar[str] = N_("Water rights: put a pawn on the fresh-water node q, r that this phase's piece made.")
    q: int
    r: int
    player: str | None = None


@dataclass(frozen=True)
class Consent(Action):
    """Cooperation: the chief of the tribe at q, r (player) lets the placer join it this phase."""

    type: ClassVar[str] = "consent"
    label: ClassVar[str] = N_("Consent")
    help: ClassVar[str] = N_("Cooperation: the chief of the tribe at q, r (the player) lets the placer join it this "
                             "phase.")
    q: int
    r: int
    player: str | None = None


@dataclass(frozen=True)
class Challenge(Action):
    """Challenges: instead of a pawn, pit your tribe at attacker [q, r] against the tribe at defender.

    The attacker is a tribe you lead, on any island; the defender a tribe led by another player,
    on the attacker's island."""

    type: ClassVar[str] = "challenge"
    label: ClassVar[str] = N_("Challenge")
    help: ClassVar[str] = N_("Challenges: instead of a pawn, pit a tribe you lead (attacker, [q, r]) against another "
                             "player's tribe on its island (defender).")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    attacker: tuple[int, int]
    defender: tuple[int, int]
    player: str | None = None


@dataclass(frozen=True)
class Roll(Action):
    """The table's dice for the pending challenge: the challenger's faces and the defender's, e.g. [5, 2]."""

    type: ClassVar[str] = "roll"
    label: ClassVar[str] = N_("Roll")
    help: ClassVar[str] = N_("The table's dice for the pending challenge: the challenger's faces and the defender's, "
                             "e.g. [5, 2].")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    challenger: tuple[int, ...]
    defender: tuple[int, ...]


@dataclass(frozen=True)
class PlaceMarker(Action):
    """Resources: after a pawn or a water right this phase, put an unused marker on that island."""

    type: ClassVar[str] = "place_marker"
    label: ClassVar[str] = N_("Place marker")
    help: ClassVar[str] = N_("Resources: after a pawn or a water right this phase, put an unused marker on that "
                             "island.")
    field_labels: ClassVar[dict[str, str]] = FIELDS
    marker: str
    player: str | None = None


ACTIONS: dict[str, type[Action]] = {
    cls.type: cls for cls in (PlacePiece, PlacePawn, WaterRight, Consent, Challenge, Roll, PlaceMarker)
}
