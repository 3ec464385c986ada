"""End to end on Tahiti's printed board: a recorded (seeded) Tahiti game on the simulated camera (the
provisional board printed and photographed with lens, tilt, light, noise and JPEG; enrolled on another
evening), the phone entering the rolls, bids, savings, starting pearls and pearls taken, the camera reading
the boats put on the board (a sailboat in the set-up, a letter taken, a boat placed on the map: NEXT on mock
buttons, the phone's choice where the camera cannot know), and the final score equal to the record's
(tablehub.records.replay)."""
from __future__ import annotations

import os
import re

import pytest

from tablehub.records import replay
from tablehub.tracking.simtable import demo_record

from .e2e import play
from .test_e2e import report

pytest.importorskip("vision.boardreg")
LONG = pytest.mark.skipif(bool(os.environ.get("TABLEHUB_QUICK")),
                          reason="TABLEHUB_QUICK is set: the whole game (a few minutes) is left out")
CAMERA = ("place_sailboat", "take_letter", "place_boat")


def test_the_first_steps_of_a_recorded_tahiti_game_are_read_from_the_camera(tmp_path):
    p = play(demo_record("tahiti", 2, 5), tmp_path / "games.sqlite", turns=8)
    print(report(p))
    assert p.art.startswith("the printed board's art"), report(p)
    assert p.diverged is None, p.diverged
    assert p.scores == p.expected, report(p)
    assert p.presses + p.choices >= 7 and p.corrections <= 1, f"the camera read the boats: {report(p)}"
    sources = {r.source for r in p.session.rows if r.action["type"] in CAMERA}
    assert "camera" in sources


def test_the_demo_plays_tahiti_through_the_camera(tmp_path, monkeypatch, capsys):
    from tablehub.cli import main

    monkeypatch.setenv("TABLEHUB_DATA", str(tmp_path))
    status = main(["demo", "--game", "tahiti", "--turns", "4", "--no-web", "--exit"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "4 steps of tahiti" in out and "the final score equals `tablehub score` of the record" in out
    presses = int(re.search(r"NEXT pressed (\d+) time", out).group(1))
    choices = int(re.search(r"(\d+) unsure reads? answered", out).group(1))
    assert presses + choices >= 3, f"the camera read the boats: {out}"
    assert (tmp_path / "demo-refs" / "tahiti" / "pieces.json").is_file(), "the demo enrolled the board itself"


@LONG
@pytest.mark.slow
def test_a_whole_recorded_tahiti_game_is_read_from_the_camera_and_scores_as_the_record(tmp_path):
    """Seed 5, 2 players: 236 actions, 29 camera steps (2 sailboats, 7 letters, 19 boats on the map, and what
    the phone enters after the last one). Measured (docs/history/boardcam-measured.md, "A whole Tahiti game"):
    NEXT 25, phone choices 1, corrections 2
    (60-100 s on the loaded 2-core machine: marked slow)."""
    record = demo_record("tahiti", 2, 5)
    p = play(record, tmp_path / "games.sqlite")
    print(report(p))
    print("\n".join(line for line in p.lines if "the camera read" in line))  # what the phone had to correct
    assert p.diverged is None, p.diverged
    assert p.scores == replay(record).scores() == p.expected, report(p)
    assert p.corrections <= 2, f"moves the phone had to correct: {report(p)}"
    assert p.presses + p.choices >= 25, report(p)
