"""End to end on Sunda to Sahul: a recorded (seeded, with tribes) game on the simulated camera (the provisional
pieces drawn with every piece off its place by hand, through lens, tilt, light, noise and JPEG; the colours
enrolled on another evening), the camera reading each piece laid and each pawn put down (NEXT on mock buttons;
the phone's choices where the camera cannot tell a tribe's height), the phone entering the rest (consent,
challenges and their dice, markers), and the final score equal to the record's (tablehub.records.replay)."""
from __future__ import annotations

import os

import pytest

from tablehub.games.sunda.playout import random_game
from tablehub.records import Record, replay

from .e2e import play
from .test_e2e import report

pytest.importorskip("vision.sunda")
LONG = pytest.mark.skipif(bool(os.environ.get("TABLEHUB_QUICK")),
                          reason="TABLEHUB_QUICK is set: the whole game (a few minutes) is left out")


def sunda_record(seed: int, options: dict | None = None) -> Record:
    game = random_game(2, seed, options=dict(options or {"tribes": True}), finish=False)
    return Record(game.setup, [a.to_dict() for a in game.history], source=f"random sunda game (seed {seed})")


def test_the_first_steps_of_a_recorded_sunda_game_are_read_from_the_camera(tmp_path):
    p = play(sunda_record(3), tmp_path / "games.sqlite", turns=24)
    print(report(p))
    assert p.art.startswith("the provisional Sunda pieces"), report(p)
    assert p.diverged is None, p.diverged
    assert p.scores == p.expected, report(p)
    assert p.presses + p.choices >= 22 and p.corrections <= 1, f"the camera read the steps: {report(p)}"
    sources = {r.source for r in p.session.rows if r.action["type"] in ("place_piece", "place_pawn")}
    assert "camera" in sources


@LONG
@pytest.mark.slow
@pytest.mark.parametrize("seed, options", [(3, {"tribes": True}),
                                           (5, {"tribes": True, "water_rights": True, "challenges": True,
                                                "resources": True})])
def test_a_whole_recorded_sunda_game_is_read_from_the_camera_and_scores_as_the_record(tmp_path, seed, options):
    """Every piece and pawn of a whole game through the camera; the phone enters consent, challenges, dice and
    markers, and answers when the camera cannot tell a tribe's height."""
    record = sunda_record(seed, options)
    p = play(record, tmp_path / "games.sqlite")
    print(report(p))
    print("\n".join(line for line in p.lines if "the camera read" in line))  # what the phone had to correct
    assert p.diverged is None, p.diverged
    assert p.scores == replay(record).scores() == p.expected, report(p)
    assert p.corrections <= 3, f"steps the phone had to correct: {report(p)}"
    assert p.presses + p.choices >= p.turns - 10, report(p)
