"""The pieces file: the packaged provisional set, the generator that made it, and one-line errors."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tablehub.games.base import Setup, SetupError
from tablehub.games.sunda.engine import Sunda
from tablehub.games.sunda.pieces import DEFAULT_PIECES, build_piece_set, load_pieces, regions_of

ROOT = Path(__file__).resolve().parents[2]


def test_the_packaged_set_is_136_provisional_pieces_with_islands_lakes_and_sea():
    ps = load_pieces()
    assert len(ps.pieces) == 136 and ps.provisional
    assert [m.number for m in ps.markers] == [1, 2, 3, 4, 5, 6]
    kinds = {"land": 0, "water": 0, "coast": 0}
    for p in ps.pieces:
        kinds["land" if p.land == 12 else "water" if p.land == 0 else "coast"] += 1
    assert all(n >= 20 for n in kinds.values()), kinds
    assert Sunda(Setup("sunda", ("A", "B"))).provisional, "the engine says the set is provisional"


def test_the_generator_makes_the_committed_file(tmp_path):
    out = tmp_path / "pieces.json"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "sunda_pieces.py"), "--out", str(out)], check=True,
                   capture_output=True)
    assert json.loads(out.read_text()) == json.loads(DEFAULT_PIECES.read_text())


def test_regions_follow_the_runs_and_the_join():
    ring = "LLL WWW LLL WWW".replace(" ", "")
    assert regions_of(ring, "water")[1] == ("L", "W", "L")  # two land regions, water joined
    assert regions_of(ring, "land")[1] == ("L", "W", "W")   # one land region across the piece


def good() -> dict:
    return json.loads(DEFAULT_PIECES.read_text())


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(format="x"), "field 'format' must be"),
    (lambda d: d["pieces"][3].update(sides="LLL WWW"), "piece s004: field 'sides' must be 4 sides"),
    (lambda d: d["pieces"][3].update(sides="LLL WWW XXX WWW"), "piece s004: field 'sides'"),
    (lambda d: d["pieces"][5].update(join="both"), "piece s006: field 'join'"),
    (lambda d: d["pieces"][5].update(colour="red"), "piece s006: unknown field(s) colour"),
    (lambda d: d["pieces"][7].update(outline=[[[0, 0], [9, 9], [1, 0]]]), "piece s008: outline[0]"),
    (lambda d: d["pieces"][8].update(id="s001"), "piece s001: duplicate piece id"),
    (lambda d: d["markers"].pop(), "field 'markers' must list the 6"),
    (lambda d: d["markers"][2].update(number=0), "markers[2]: must be"),
])
def test_a_bad_pieces_file_gets_one_line_naming_the_file_and_field(tmp_path, change, words):
    data = good()
    change(data)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SetupError) as err:
        Sunda(Setup("sunda", ("A", "B"), options={"pieces": str(path)}))
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith(str(path)) and words in msg, msg


def test_an_owners_own_pieces_are_not_provisional(tmp_path):
    data = good()
    data["provisional"] = False
    data["set"] = "my box"
    assert build_piece_set(data, "mine").provisional is False
    g = Sunda(Setup("sunda", ("A", "B"), options={"pieces": data}))
    assert g.provisional is None


def test_a_missing_or_broken_file_is_one_line(tmp_path):
    with pytest.raises(SetupError, match="cannot read"):
        load_pieces(str(tmp_path / "nope.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(SetupError, match="not valid JSON"):
        load_pieces(str(bad))
