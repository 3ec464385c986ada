"""A finished Sunda to Sahul or Tahiti table scored from one photo (``tablehub score --photo IMG --game sunda|tahiti``),
and Karibik's refusal without the money (docs/sunda.md, docs/tahiti.md, docs/karibik.md "Scoring from a photo").

The photos are final tables of seeded random games drawn by the simulated camera (benchmarks/photoscore_positions.py,
the bench's own tables), the references enrolled from it on another evening and written as the commands write them."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from benchmarks import photoscore_positions as P
from tablehub.cli import main
from tests.cli import one_line_error
from vision.pearls import classify



@pytest.fixture(scope="module")
def sunda(tmp_path_factory):
    """The table of docs/sunda.md's example (``tablehub bench photoscore --example photo --games sunda --seed 3``)."""
    folder = tmp_path_factory.mktemp("sunda") / "photo"
    t = P.sunda_table("default", 3, 0, folder / "refs")
    cv2.imwrite(str(folder / "table.png"), t["frame"])
    return folder, t


@pytest.fixture(scope="module")
def tahiti(tmp_path_factory):
    """The table of docs/tahiti.md's example (``--example photo --games tahiti --seed 1``)."""
    folder = tmp_path_factory.mktemp("tahiti") / "photo"
    t = P.tahiti_table("default", 1, 0, folder / "refs")
    cv2.imwrite(str(folder / "table.png"), t["frame"])
    return folder, t


ROOT = Path(__file__).resolve().parents[2]


def _doc_runs(doc: str, folder: Path, capsys, monkeypatch) -> int:
    """Every ``$ tablehub score --photo`` of the doc's example block run in the example's folder: the lines it shows
    (``...`` skips) come out in that order."""
    import re
    import shlex

    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    block = re.search(r"```\n(\$ tablehub bench photoscore --example photo.*?)```", text, re.S).group(1)
    runs = re.split(r"^\$ ", block, flags=re.M)[2:]   # the first is the example's own command
    monkeypatch.chdir(folder.parent)
    for run in runs:
        command, *shown = run.rstrip("\n").split("\n")
        assert main(shlex.split(command)[1:]) == 0, command
        out = capsys.readouterr().out.splitlines()
        at = 0
        for line in (s for s in shown if s.strip() != "..."):
            assert line in out[at:], f"{doc}: {line!r} not printed (after line {at}) by {command}"
            at = out.index(line, at) + 1
    return len(runs)


def test_the_docs_examples_print_what_they_show(sunda, tahiti, capsys, monkeypatch):
    assert _doc_runs("sunda.md", sunda[0], capsys, monkeypatch) == 2
    assert _doc_runs("tahiti.md", tahiti[0], capsys, monkeypatch) == 1


def _sunda_args(folder: Path, t) -> list[str]:
    players = ",".join(f"{c}={p}" for p, c in t["colours"].items())
    return ["score", "--photo", str(folder / "table.png"), "--game", "sunda", "--refs", str(folder / "refs"),
            "--players", players]


def test_sunda_photo_lists_every_asked_tribe_and_scores_exactly_once_they_are_given(sunda, capsys):
    folder, t = sunda
    game = t["game"]
    assert main(_sunda_args(folder, t) + ["--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["game"] == "sunda" and first["position"]["position"]["pieces"]
    asked = [u for u in first["unsure"] if u["where"].startswith("the tribe at")]
    # each tribe the camera asked is listed, with a possibility per other height
    assert asked and all(u["possibilities"] for u in asked)
    # the person gives each asked tribe's owners (the truth, mapped to the reader's lattice)
    from tablehub.photo_sunda import load_reader

    reader = load_reader(folder / "refs")
    reading = reader.read(t["frame"])
    given = P.true_owners(reading, t["truth"], [(tr.q, tr.r) for tr in reading.tribes if tr.ask])
    assert len(given) == len(asked)
    tribes = ";".join(f"{q},{r}=" + ",".join(owners) for (q, r), owners in given.items())
    assert main(_sunda_args(folder, t) + ["--tribes=" + tribes, "--json"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["scores"] == game.scores()
    assert not [u for u in second["unsure"] if u["where"].startswith("the tribe at")]
    # the text output explains it
    assert main(_sunda_args(folder, t) + ["--tribes=" + tribes]) == 0
    text = capsys.readouterr().out
    assert "Totals:" in text and "given: the owners of" in text and "water rights" in text


def test_sunda_photo_refuses_a_tribe_not_on_the_photo_and_bad_options(sunda, capsys):
    folder, t = sunda
    err = one_line_error(capsys, _sunda_args(folder, t) + ["--tribes=40,40=P1"])
    assert "--tribes: no tribe at 40,40 on the photo" in err
    assert "--tribes: expected" in one_line_error(capsys, _sunda_args(folder, t) + ["--tribes", "1;2"])
    assert "--levels: gold is not a Sunda level" in one_line_error(capsys, _sunda_args(folder, t) + ["--levels", "gold"])
    assert "--vaults: not for sunda" in one_line_error(capsys, _sunda_args(folder, t) + ["--vaults", "red=3"])


def test_sunda_photo_without_enrolled_colours_says_which_command_enrols_them(tmp_path, sunda, capsys):
    folder, _ = sunda
    err = one_line_error(capsys, ["score", "--photo", str(folder / "table.png"), "--game", "sunda", "--refs",
                             str(tmp_path / "none")])
    assert "no Sunda colours enrolled there" in err and "tablehub sundacam enrol" in err


def _tahiti_args(folder: Path, t) -> list[str]:
    from tablehub.games.tahiti.camera import COLOURS

    players = ",".join(f"{COLOURS[k]}={p}" for k, p in enumerate(t["game"].players))
    return ["score", "--photo", str(folder / "table.png"), "--game", "tahiti", "--refs", str(folder / "refs"),
            "--players", players]


def test_tahiti_photo_with_the_vaults_scores_the_game_exactly(tahiti, capsys):
    folder, t = tahiti
    game = t["game"]
    from tablehub.games.tahiti.camera import COLOURS

    vaults = ",".join(f"{COLOURS[k]}={ps.vault}" for k, ps in enumerate(game.state))
    assert main(_tahiti_args(folder, t) + ["--vaults", vaults, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"] == game.scores()
    boats = {(b["cell"], b["owner"], b["pearl"]) for b in out["position"]["position"]["boats"]}
    from tablehub.games.tahiti.board import cell_name

    assert boats == {(cell_name(c), b.owner, b.pearl) for c, b in game.map.items()}
    # without the vaults: the banks only, and the output says the vaults are not on the photo
    assert main(_tahiti_args(folder, t)) == 0
    text = capsys.readouterr().out
    assert "not on the photo: the dollars in the vaults" in text
    banks = {p: game.scores()[p] - ps.vault for p, ps in zip(game.players, game.state)}
    assert f"Totals: {', '.join(f'{p} {n}' for p, n in banks.items())}" in text


def test_tahiti_and_karibik_photos_without_references_or_money_areone_line_error(tahiti, tmp_path, capsys):
    folder, t = tahiti
    err = one_line_error(capsys, ["score", "--photo", str(folder / "table.png"), "--game", "tahiti", "--refs",
                             str(tmp_path / "none")])
    assert "tablehub boardcam enrol-board" in err
    assert "--vaults: expected PLAYER=NUMBER" in one_line_error(capsys, _tahiti_args(folder, t) + ["--vaults", "red=-3"])
    assert "--vaults: blue is not a player" in one_line_error(capsys, _tahiti_args(folder, t) + ["--vaults", "blue=3"])
    err = one_line_error(capsys, ["score", "--photo", str(folder / "table.png"), "--game", "karibik", "--refs",
                             str(folder / "refs")])
    assert "--money: a Karibik score is the doubloons" in err
    assert "--tribes: not for tahiti" in one_line_error(capsys, _tahiti_args(folder, t) + ["--tribes", "1,0=P1"])


@pytest.mark.parametrize("lab, pearl", [((95, 2, -1), "white"), ((9, 6, 3), "black"), ((70, -50, 40), "green"),
                                        ((50, 6, -50), "blue"), ((60, -30, 10), "green"), ((40, -10, -35), "blue")])
def test_a_pearl_is_read_by_what_its_colour_is(lab, pearl):
    assert classify(*lab).pearl == pearl


@pytest.mark.parametrize("lab", [(45, 55, 35), (75, 0, 80), (46, 3, 2)])
def test_the_hulls_colour_or_a_grey_is_no_sure_pearl(lab):
    seen = classify(*lab)
    assert seen.pearl is None and len(seen.candidates) == 4 and seen.why


def test_the_pages_upload_scores_a_tahiti_photo_with_its_vaults(tahiti):
    """``POST /api/photoscore``'s scorer (tablehub.photo.photo_scorer) on the photo's bytes: the same scores."""
    from tablehub.games.tahiti.camera import COLOURS
    from tablehub.photo import photo_scorer

    folder, t = tahiti
    game = t["game"]
    score = photo_scorer(lambda g: folder / "refs")
    names = {COLOURS[k]: p for k, p in enumerate(game.players)}
    vaults = ",".join(f"{COLOURS[k]}={ps.vault}" for k, ps in enumerate(game.state))
    result = score((folder / "table.png").read_bytes(), "tahiti", names, {"vaults": vaults})
    assert result.scores == game.scores()
    en, fr = result.lines(), result.lines("fr")   # the report in the phone's language
    assert any(line.startswith("Totals:") for line in en) and len(fr) == len(en) and fr != en


def test_a_tribe_on_a_node_read_as_water_makes_the_land_there():
    from tablehub.photo_sunda import land_under

    pos = {"position": {"pieces": [{"q": 0, "r": 0, "turn": 0, "sides": "WWW WWW WWW WWW"},
                                   {"q": 5, "r": 5, "turn": 0, "sides": "WWW WWW WWW WWW"}]}}
    changed = land_under(pos, (1, 0))        # corner 1 of the first piece (vision.sunda.corners_of)
    assert len(changed) == 1
    assert pos["position"]["pieces"][0]["sides"] == "WWL LWW WWW WWW"   # the slots either side of corner 1
    assert pos["position"]["pieces"][1]["sides"] == "WWW WWW WWW WWW"
    assert land_under(pos, (1, 0)) == [] and land_under(pos, (3, 3)) == []


def test_a_pearl_read_more_often_than_the_game_has_it_is_repaired_on_the_least_sure_boat():
    from tablehub.games.tahiti.scoring import score_position
    from tablehub.photo_board import consistent_tahiti

    cells = ["AA", "AC", "AE", "BB", "BD", "BF", "CA"]      # seven boats read with a green pearl: the game has six
    boats = [{"cell": c, "colours": ["red"], "pearls": ["green"], "pearl_sure": True, "lab": (60.0, -40.0, 35.0)}
             for c in cells]
    boats[4].update(pearls=["green", "blue", "white"], pearl_sure=False)
    chosen = {b["cell"]: ("red", b["pearls"][0]) for b in boats}

    def position(choice=None):
        return {"game": "tahiti", "players": ["Ana"], "position": {
            "boats": [{"cell": b["cell"], "owner": "Ana", "pearl": chosen[b["cell"]][1]} for b in boats],
            "vaults": {}}}

    notes: list = []
    result, pos = consistent_tahiti(boats, chosen, position, lambda p: score_position(p, "t"), notes)
    assert chosen["BD"] == ("red", "blue") and len(notes) == 1 and "BD" in str(notes[0])
    assert sum(1 for b in pos["position"]["boats"] if b["pearl"] == "green") == 6
    # all sure: the one nearest another pearl (the least green) is switched
    boats[4].update(pearls=["green"], pearl_sure=True, lab=(70.0, -12.0, 14.0))
    chosen = {b["cell"]: ("red", "green") for b in boats}
    notes = []
    consistent_tahiti(boats, chosen, position, lambda p: score_position(p, "t"), notes)
    assert chosen["BD"] == ("red", "white"), chosen
