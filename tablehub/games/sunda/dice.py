"""Challenges' dice: who rolls how many (seed 003's 5 x 5 table) and the exact odds, computed.

The smaller tribe rolls one die; the larger rolls ``min(3, max(1, difference))``;
equal tribes roll one each. The highest single die wins; a tie goes to the challenger.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product

from ...i18n import T, Text

MAX_TRIBE = 5


def dice_for(challenger: int, defender: int) -> tuple[int, int]:
    """(challenger's dice, defender's dice) for tribes of these sizes."""
    if challenger == defender:
        return 1, 1
    more = min(3, max(1, abs(challenger - defender)))
    return (more, 1) if challenger > defender else (1, more)


@lru_cache(maxsize=None)
def challenger_wins(challenger_dice: int, defender_dice: int) -> Fraction:
    """The exact chance that the challenger's best die is at least the defender's best die."""
    best = [0] * 7
    for roll in product(range(1, 7), repeat=defender_dice):
        best[max(roll)] += 1
    wins = 0
    for roll in product(range(1, 7), repeat=challenger_dice):
        top = max(roll)
        wins += sum(best[1:top + 1])
    return Fraction(wins, 6 ** (challenger_dice + defender_dice))


def percent(f: Fraction) -> Text:
    """``"58.3 %"``, written with the reader's decimal mark (``"58,3 %"`` in French and German)."""
    whole, tenth = f"{float(f) * 100:.1f}".split(".")
    return T("{whole}.{tenth} %", whole=whole, tenth=tenth)


def table() -> list[list[int]]:
    """The seed's table: dice rolled by the larger tribe, rows = defender size 1-5, columns = attacker 1-5."""
    return [[max(dice_for(a, d)) for a in range(1, MAX_TRIBE + 1)] for d in range(1, MAX_TRIBE + 1)]
