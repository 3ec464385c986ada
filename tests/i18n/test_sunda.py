"""Sunda to Sahul in French and German (issue 19): the rule scenarios (tests/sunda/scenarios) and
seeded games with every level on are played again and, at every step, illegal actions are tried;
every refusal (engine and layout), waiting line, challenge line, score event, final line and
describe() is rendered in fr and de. No template may fall back to English, no sentence with words
may read the same as the English, and every rule key the source names must have been provoked.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tablehub.games.base import Action, Setup, TablehubError
from tablehub.games.sunda.actions import Challenge, Consent, PlaceMarker, PlacePawn, PlacePiece, Roll, WaterRight
from tablehub.games.sunda.dice import challenger_wins, percent
from tablehub.games.sunda.drawing import expand
from tablehub.games.sunda.engine import LEVELS, Sunda
from tablehub.games.sunda.pieces import build_piece_set, load_pieces
from tablehub.games.sunda.playout import all_levels, random_game
from tablehub.games.tahiti.actions import Pass
from tablehub.i18n import translate
from tablehub.records import parse_record
from tests.i18n.test_tahiti import SOURCE, Renderings, rule_keys

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "sunda" / "scenarios").glob("*.json"))


def probes(game: Sunda) -> list[Action]:
    """Actions that break each rule that can be broken now (and a few that may be legal)."""
    me = game.current_player
    other = game.players[(game.current + 1) % len(game.players)] if len(game.players) > 1 else "Zed"
    pool = sorted(game.pool)
    out: list[Action] = [PlacePawn(0, 0, "Zed"), PlacePawn(0, 0, other), Pass(), Roll((1,), (1,)),
                         PlacePiece("nope", 0, 0, 0), WaterRight(0, 0), Consent(0, 0), PlaceMarker("nope"),
                         PlaceMarker(game.set.markers[0].id) if game.set.markers else Pass()]
    if pool:
        out += [PlacePiece(pool[0], 0, 0, 7), PlacePiece(pool[0], 5, 5, 0), PlacePiece(pool[0], 40, 40, 0)]
    for placed in game.board.placed[-2:]:
        out.append(PlacePiece(placed.piece.id, placed.q, placed.r, placed.turn))
        if pool:
            out += [PlacePiece(pool[0], placed.q, placed.r, t) for t in range(6)]
    points = list(game.tribes)[:4] + list(game.water)[:2] + game.formed_land[:2] + game.formed_fresh[:2] + \
        [p for p in list(game.board.nodes)[:3]] + [(99, 99)]
    for pt in points:
        out += [PlacePawn(*pt), WaterRight(*pt), Consent(*pt)]
    tribes = list(game.tribes)
    for a in tribes[:4]:
        out.append(Challenge(a, (99, 99)))
        for d in tribes[:4]:
            out.append(Challenge(a, d))
    if game.pending is not None:
        c, d = game.pending.dice
        out += [Roll((1,) * (c + 1), (1,) * d), Roll((1,) * c, (1,) * (d + 1)), Roll((7,) * c, (1,) * d),
                Roll((1,) * c, (0,) * d)]
    for m in game.set.markers:
        out.append(PlaceMarker(m.id, me))
    return out


def forced(game: Sunda, seen: Renderings, where: str) -> None:
    """Rules a short game seldom reaches, provoked on copies pushed there: an empty supply, a second
    consent, the very first phase."""
    if game.in_turn and game.pending is None and game.claim is None and game.formed_land:
        empty = copy.deepcopy(game)
        empty.supply[empty.current] = 0
        seen.refusal(empty, PlacePawn(*game.formed_land[0]), where)
    for pt in game.tribes:
        if game.validate(Consent(*pt)) is None:
            again = copy.deepcopy(game)
            again.apply(Consent(*pt))
            seen.refusal(again, Consent(*pt), where)


def every_text(game: Sunda, seen: Renderings, where: str) -> None:
    seen.check(game.waiting_for(), f"{where}: waiting_for")
    table = game.resources()["table"]
    seen.maybe(table["challenge"], f"{where}: challenge")
    seen.maybe(table["last_challenge"], f"{where}: last challenge")
    for island in game.view()["islands"]:
        seen.check(island["name"], f"{where}: island")
    for action in list(game.legal_actions())[:12]:
        data = action.to_dict()
        seen.maybe(game.describe(data), f"{where}: describe {action!r}")
        data.pop("player", None)
        seen.maybe(game.describe(data), f"{where}: describe {action!r} (nobody named)")
    if game.pool and not game.finished:
        seen.maybe(game.hints(sorted(game.pool)[0])["note"], f"{where}: hints")
    seen.maybe(game.hints()["note"], f"{where}: hints, no piece")


def play(game: Sunda, actions: list[Action], seen: Renderings, name: str) -> None:
    """Play ``actions``, trying the probes and rendering every text before each one."""
    for i, action in enumerate(actions):
        where = f"{name}, action {i}"
        for probe in probes(game):
            seen.refusal(game, probe, where)
        forced(game, seen, where)
        every_text(game, seen, where)
        if seen.refusal(game, action, where) is None:
            game.apply(action)
            seen.maybe(game.describe(action.to_dict()), f"{where}: describe")
    for probe in probes(game):
        seen.refusal(game, probe, f"{name}, at the end")
    every_text(game, seen, f"{name}, at the end")
    game.finish()
    seen.refusal(game, PlacePawn(0, 0), f"{name}, finished")
    every_text(game, seen, f"{name}, finished")
    for ev in game.score_log:
        seen.check(ev.reason, f"{name}: score event {ev}")
    for line in game.final_lines:
        seen.check(line, f"{name}: final line")


@pytest.fixture(scope="module")
def renderings() -> Renderings:
    return Renderings()


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_a_rule_scenario_reads_in_french_and_german(path, renderings):
    data = expand(json.loads(path.read_text(encoding="utf-8")))
    game = Sunda(Setup("sunda", tuple(data["players"]), options=data.get("options", {})))
    actions = [game.parse_action({k: v for k, v in raw.items() if k != "refused"})
               for raw in data["actions"] if raw.get("type") not in ("expect", "finish")]
    play(game, actions, renderings, path.stem)


RECORDS = [Path(__file__).resolve().parents[2] / "docs" / "examples" / name
           for name in ("sunda-random-3p.json", "sunda-lake.json")]


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_a_recorded_game_of_the_docs_reads_in_french_and_german(path, renderings):
    record = parse_record(json.loads(path.read_text(encoding="utf-8")), str(path))
    game = Sunda(record.setup)
    play(game, [game.parse_action(a) for a in record.actions], renderings, path.stem)
    assert game.score_log and game.final_lines


@pytest.mark.parametrize("players, seed, levels", [(2, 3, True), (3, 4, True), (1, 5, False)])
def test_a_recorded_game_reads_in_french_and_german(players, seed, levels, renderings):
    options = all_levels() if levels else {}
    record = random_game(players, seed, options=options, finish=False)
    game = Sunda(Setup("sunda", record.players, options=options))
    play(game, list(record.history)[:60], renderings, f"game {players}/{seed}")


def test_layout_refusals_and_words_read_in_french_and_german(renderings):
    record = random_game(2, 3, options=all_levels(), finish=True)
    refusal = next(r for r in (record.validate(PlacePiece(p.id, q, r, t))
                               for p in record.set.pieces[:40] if p.id not in record.pool
                               for q, r, t in [(0, 0, 0)]) if r)
    renderings.check(refusal, "a placed piece")
    edge = Sunda(Setup("sunda", ("Ana", "Ben")))
    first = edge.set.pieces[0]
    edge.apply(PlacePiece(first.id, 0, 0, 0))
    mismatched = [edge.validate(PlacePiece(p.id, q, r, t)) for p in edge.set.pieces[1:30]
                  for q, r in ((1, 0), (0, 1), (-1, 0), (0, -1), (1, -1), (-1, 1)) for t in range(6)]
    said = [m for m in mismatched if m and m.msgid.startswith("{piece}'s side")]
    assert said, "some piece next to the first does not continue its coast"
    for m in said[:20]:
        renderings.check(m, "edge mismatch")
    assert " ne prolonge pas la côte de " in translate(said[0], "fr")
    assert " setzt die Küste von " in translate(said[0], "de")


EXAMPLE = json.loads((Path(__file__).resolve().parents[2] / "docs/examples/sunda-position.json").read_text())


@pytest.mark.parametrize("change", [
    lambda d: d["position"]["pieces"].append({"q": 0, "r": 0, "turn": 0, "sides": "WWW WWW WWW WWW"}),
    lambda d: d["position"]["pieces"].append({"q": 4, "r": -1, "turn": 0, "sides": "LLL LLL LLL LLL"}),
    lambda d: d["position"]["pieces"].append({"q": 4, "r": -1, "turn": 9, "sides": "LLL LLL LLL LLL"}),
    lambda d: d["position"]["pieces"].append({"q": "x", "r": -1, "sides": "LLL LLL LLL LLL"}),
    lambda d: d["position"]["pieces"][0].update(sides="LL"),
    lambda d: d["position"]["pieces"][0].update(join="both"),
    lambda d: d["position"].update(pieces=[]),
    lambda d: d["position"].update(pieces=7),
    lambda d: d["position"]["tribes"][0].update(q=5),
    lambda d: d["position"]["tribes"][0].update(pawns=["Ana"] * 6),
    lambda d: d["position"]["tribes"][0].update(pawns=["Zed"]),
    lambda d: d["position"]["tribes"].append(dict(d["position"]["tribes"][0])),
    lambda d: d["position"].update(water_rights=[{"q": 1, "r": 0, "owner": "Ana"}]),
    lambda d: d["position"]["markers"].append({"marker": "red", "q": 3, "r": 3}),
    lambda d: d["position"]["markers"].append({"marker": "nope", "q": 3, "r": 3}),
    lambda d: d["position"]["markers"].append(dict(d["position"]["markers"][0])),
    lambda d: d["position"].update(colour=1),
    lambda d: d.update(players=[]),
    lambda d: d.update(position=3),
    lambda d: d.update(options={}),
    lambda d: d.update(options={"tribes": True}),
    lambda d: d.update(options={"pieces": 5}),
])
def test_a_bad_position_reads_in_french_and_german(change, renderings):
    data = copy.deepcopy(EXAMPLE)
    change(data)
    with pytest.raises(TablehubError) as err:
        Sunda.score_position(data, "table.json")
    renderings.check(err.value.text, f"position error {err.value}")


@pytest.mark.parametrize("change", [
    lambda d: d.update(format="x"), lambda d: d.update(game="tahiti"), lambda d: d.update(colour=1),
    lambda d: d.update(provisional="yes"), lambda d: d.update(notes=[1]), lambda d: d["markers"].pop(),
    lambda d: d["markers"][2].update(number=0), lambda d: d["markers"][2].update(id=d["markers"][1]["id"]),
    lambda d: d.update(pieces=[]), lambda d: d["pieces"].__setitem__(0, 3),
    lambda d: d["pieces"][0].update(id=""), lambda d: d["pieces"][3].update(sides="LLL WWW"),
    lambda d: d["pieces"][5].update(join="both"), lambda d: d["pieces"][5].update(colour="red"),
    lambda d: d["pieces"][7].update(outline=[[[0, 0], [9, 9], [1, 0]]]), lambda d: d["pieces"][7].update(outline=3),
    lambda d: d["pieces"][7].update(note=3), lambda d: d["pieces"][8].update(id="s001"),
])
def test_a_bad_pieces_file_reads_in_french_and_german(change, renderings):
    data = copy.deepcopy(load_pieces().to_dict())
    change(data)
    with pytest.raises(TablehubError) as err:
        build_piece_set(data, "mine.json")
    renderings.check(err.value.text, f"pieces error {err.value}")
    with pytest.raises(TablehubError) as err:
        build_piece_set([], "mine.json")
    renderings.check(err.value.text, "not an object")
    with pytest.raises(TablehubError) as err:
        load_pieces(5)
    renderings.check(err.value.text, "option")


def test_odds_and_provisional_notes_read_in_french_and_german(renderings):
    odds = percent(challenger_wins(1, 1))
    assert (odds, translate(odds, "fr"), translate(odds, "de")) == ("58.3 %", "58,3 %", "58,3 %")
    game = Sunda(Setup("sunda", ("Ana", "Ben")))
    renderings.check(game.provisional, "provisional")
    data = copy.deepcopy(EXAMPLE)
    renderings.check(Sunda.score_position(data, "x").provisional, "provisional markers")
    for line in Sunda.score_position(data, "x").lines[-2:]:
        renderings.check(line, "position line")


def test_every_rule_key_was_provoked_and_nothing_fell_back_to_english(renderings):
    """Runs last in this module: the scenarios and games above provoked every rule key."""
    keys = rule_keys(SOURCE / "sunda" / "engine.py", SOURCE / "sunda" / "board.py")
    assert len(keys) >= 30, keys
    assert set(LEVELS) <= {"water_rights", "tribes", "cooperation", "challenges", "resources"}
    assert renderings.count > 1000
    renderings.finish(keys)
