"""Tahiti in French and German (issue 19): seeded recorded games are played again and, at every
step, every kind of illegal action is tried; every refusal, waiting line, note, score event, final
line and describe() is rendered in fr and de. No template may fall back to English
(``i18n.missing()`` gains nothing), no sentence with words may read the same as the English, and
every rule key the engine's source names must have been provoked.

:class:`Renderings` is shared with tests/i18n/test_sunda.py.
"""
from __future__ import annotations

import copy
import json
import re
import string
from pathlib import Path
from typing import Any, Iterable

import pytest

from tablehub import i18n
from tablehub.games.base import Action, IllegalAction, Setup, TablehubError
from tablehub.games.tahiti import draft
from tablehub.games.tahiti.actions import Bid, Pass, PlaceBoat, PlaceSailboat, Roll, Save, StartPearl, TakeLetter, \
    TakePearl
from tablehub.games.tahiti.board import PEARLS, SECTORS, TAHITI, all_cells, cell_name
from tablehub.games.tahiti.engine import AUCTION, CHOOSE, ROLL, SAILBOATS, SAVE, START_PEARLS, Tahiti
from tablehub.games.tahiti.playout import random_game
from tablehub.games.tahiti.words import a_pearl, the_pearl, the_pearls
from tablehub.i18n import Text, translate
from tablehub.records import parse_record

SOURCE = Path(__file__).resolve().parents[2] / "tablehub" / "games"
#: words that read the same in every language (names on the box)
NAMES = {"Tahiti"}


def rule_keys(*files: Path) -> set[str]:
    """Every rule key the source names: ``rule="..."`` and the keys a ``_wrong_phase_rule`` returns."""
    keys: set[str] = set()
    for path in files:
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'rule="([a-z_]+)"', text))
        m = re.search(r"def _wrong_phase_rule\(self\).*?(?=\n    def )", text, re.S)
        if m:
            keys |= set(re.findall(r'return "([a-z_]+)"', m.group(0)))
    return keys


def has_words(template: str) -> bool:
    """Whether a template says something beyond its placeholders, numbers and names."""
    bare = "".join(lit for lit, _, _, _ in string.Formatter().parse(template))
    return any(w not in NAMES for w in re.findall(r"[A-Za-z]{2,}", bare))


class Renderings:
    """Renders Texts in fr and de and checks each one; collects refusals' rule keys."""

    def __init__(self) -> None:
        self.before = i18n.missing()
        self.rules: set[str] = set()
        self.seen: set[tuple[str | None, str]] = set()
        self.count = 0

    def check(self, text: Any, where: str) -> None:
        assert isinstance(text, Text), f"{where}: {text!r} is a plain str, not a translatable Text"
        english = translate(text, "en")
        assert english == str(text), where
        for lang in ("fr", "de"):
            out = translate(text, lang)
            assert out and "{" not in out.replace("{'", "").replace("{\"", ""), f"{where}: {lang}: {out!r}"
            if has_words(text.msgid if text.plural is None or text.n == 1 else text.plural):
                assert out != english, f"{where}: the {lang} rendering reads as the English: {english!r}"
        self.seen.add((text.context, text.msgid))
        self.count += 1

    def maybe(self, text: Any, where: str) -> None:
        if text is not None:
            self.check(text, where)

    def refusal(self, game: Any, action: Action, where: str) -> str | None:
        """Validate ``action``; a refusal is checked and its rule recorded. Returns the rule or None."""
        try:
            game._validate(action)
        except IllegalAction as exc:
            self.check(exc.text, f"{where}: {action!r} ({exc.rule})")
            assert game.validate(action) is exc.text or game.validate(action) == exc.text
            self.rules.add(exc.rule)
            return exc.rule
        return None

    def finish(self, expected_rules: Iterable[str]) -> None:
        gained = i18n.missing() - self.before
        assert not gained, f"templates rendered in English for want of a translation: {sorted(gained)}"
        unseen = set(expected_rules) - self.rules
        assert not unseen, f"rule keys never provoked: {sorted(unseen)}"


# ---------------------------------------------------------------------------------------------- Tahiti


def probes(game: Tahiti) -> list[Action]:
    """Actions that break each rule that can be broken now (and a few that may be legal)."""
    who = game.players[game.current]
    other = game.players[(game.current + 1) % len(game.players)]
    ps = game.state[game.current]
    out: list[Action] = [Roll(1, "Zed"), Pass(other), Roll(1), Bid(0), TakeLetter(), PlaceBoat("AA", None)]
    if game.phase == SAILBOATS:
        out += [PlaceSailboat(12), PlaceSailboat(-1, who)]
    if game.phase == START_PEARLS:
        out += [StartPearl("red")] + [StartPearl(c) for c in PEARLS]
    if game.phase == ROLL:
        out += [Roll(7), Roll("blank"), Roll(True)]
    if game.phase == SAVE:
        out += [Save(11), Save(min(ps.cash + 1, 10)), Save(-1)]
    if game.phase == AUCTION:
        out += [Bid(-1), Bid(ps.cash + 1)]
        if game.high_bid is not None:
            out.append(Bid(game.high_bid))
    if game.phase == CHOOSE:
        space = game.board.track[ps.space]
        wrong = [c for c in PEARLS if c != space.pearl]
        out += [TakeLetter(), TakePearl(None), TakePearl(wrong[0]), TakePearl("red")]
        letter = game._placing_letter()
        sector = SECTORS[letter]
        outside = next(c for c in all_cells() if c not in sector and c != TAHITI)
        taken = [c for c in sector if c in game.map]
        free = [c for c in sector if c not in game.map]
        for cell in ["ZZ", "MM", cell_name(outside)] + [cell_name(c) for c in taken[:1] + free[:1]]:
            out += [PlaceBoat(cell, None)] + [PlaceBoat(cell, c) for c in PEARLS]
    return out


def forced(game: Tahiti, seen: Renderings, where: str) -> None:
    """Rules that a short game seldom reaches, provoked on a copy whose state is pushed there."""
    if game.phase != CHOOSE:
        return
    ps = game.state[game.current]
    colour = game.board.track[ps.space].pearl
    if ps.letter_space is None and ps.pearl is None:
        empty = copy.deepcopy(game)
        empty.state[empty.current].boats = 0
        seen.refusal(empty, TakeLetter(), where)
        seen.refusal(empty, TakePearl(None), where)
        out = copy.deepcopy(game)
        out.supply[colour] = 0
        seen.refusal(out, TakePearl(None), where)
        other = next(c for c in PEARLS if c != colour)
        out.supply[other] = 0
        seen.refusal(out, TakePearl(other), where)


def every_text(game: Tahiti, seen: Renderings, where: str) -> None:
    seen.check(game.waiting_for(), f"{where}: waiting_for")
    seen.maybe(game.note, f"{where}: note")
    hints = game.hints()
    seen.maybe(hints["note"], f"{where}: hints")
    for action in game.legal_actions():
        seen.check(game.describe(action.to_dict()), f"{where}: describe {action!r}")


GAMES = [(2, 0), (3, 1), (4, 2), (4, 5)]


@pytest.fixture(scope="module")
def renderings() -> Renderings:
    return Renderings()


@pytest.mark.parametrize("players, seed", GAMES)
def test_a_recorded_game_reads_in_french_and_german(players, seed, renderings):
    record = random_game(players, seed)
    game = Tahiti(record.setup)
    for i, action in enumerate(record.history):
        where = f"game {players}/{seed}, action {i}"
        for probe in probes(game):
            renderings.refusal(game, probe, where)
        forced(game, renderings, where)
        every_text(game, renderings, where)
        game.apply(action)
    every_text(game, renderings, "the end")
    renderings.refusal(game, Roll(1), "after the end")
    assert game.finished
    for ev in game.score_log:
        renderings.check(ev.reason, f"score event {ev}")
    for line in game.final_lines:
        renderings.check(line, "final line")


def test_the_record_of_the_docs_reads_in_french_and_german(renderings):
    text = (SOURCE.parents[1] / "docs" / "tahiti.md").read_text(encoding="utf-8")
    record = next(json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, flags=re.S) if '"actions"' in b)
    record = parse_record(record, "docs/tahiti.md")
    game = Tahiti(record.setup)
    for i, data in enumerate(record.actions):
        for probe in probes(game):
            renderings.refusal(game, probe, f"docs record, action {i}")
        every_text(game, renderings, f"docs record, action {i}")
        game.apply(game.parse_action(data))
    game.finish()
    for ev in game.score_log:
        renderings.check(ev.reason, f"docs record: {ev}")
    for line in game.final_lines:
        renderings.check(line, "docs record: final line")


def test_describe_reads_every_action_in_french_and_german(renderings):
    game = Tahiti(Setup("tahiti", ("Ana", "Ben")))
    actions = [PlaceSailboat(s) for s in range(12)] + [StartPearl(c) for c in PEARLS] + \
        [TakePearl(c) for c in PEARLS] + [TakePearl(None), TakeLetter(), Roll("blank"), Roll(3), Save(4), Bid(2),
                                          Pass()] + \
        [PlaceBoat(cell_name(c), p) for c in all_cells() for p in (None, *PEARLS)]
    for a in actions:
        text = game.describe(a.to_dict())
        if a.to_dict().get("cell") == "MM":
            continue
        renderings.check(text, f"describe {a!r}")
    assert translate(game.describe(PlaceBoat("BE", "white").to_dict()), "de") == \
        "Ein Schiffchen setzen (eine weiße Perle): Reihe B, Spalte E (nordöstlich von Tahiti)"
    assert translate(game.describe(PlaceBoat("MA", None).to_dict()), "fr") == \
        "Poser un bateau en la rangée du milieu, colonne A (à l'ouest de Tahiti)"


def test_pearl_phrases_agree_in_gender_and_case(renderings):
    assert translate(a_pearl("white"), "fr") == "une perle blanche"
    assert translate(the_pearls("white"), "fr") == "les perles blanches"
    assert translate(the_pearl("black"), "de") == "die schwarze Perle"
    assert translate(the_pearls("black"), "de") == "die schwarzen Perlen"
    for c in PEARLS:
        for phrase in (a_pearl(c), the_pearl(c), the_pearls(c)):
            renderings.check(phrase, c)


def test_a_bank_scored_in_french_and_german(renderings):
    result = Tahiti.score_position({"players": ["Ana", "Ben"], "position": {"boats": [
        {"cell": "AA", "owner": "Ana", "pearl": "white"}, {"cell": "AB", "owner": "Ben", "pearl": "white"},
        {"cell": "AC", "owner": "Ana", "pearl": "white"}, {"cell": "FF", "owner": "Ben", "pearl": "blue"},
        {"cell": "FE", "owner": "Ana", "pearl": "blue"}], "vaults": {"Ana": 1, "Ben": 7}}})
    for ev in result.events:
        renderings.check(ev.reason, f"score {ev}")
    for line in result.lines:
        renderings.check(line, "line")
    ben = next(e for e in result.events if e.player == "Ben" and "bank" in e.reason and "white" in e.reason)
    assert translate(ben.reason, "fr") == ("1 sur 3 bateaux dans le groupe blanc en AA AB AC : "
                                           "la moitié de 15, arrondie en dessous = 7")
    assert translate(ben.reason, "de") == ("1 von 3 Schiffchen in der weißen Perlenbank bei AA AB AC: "
                                           "die Hälfte von 15, abgerundet = 7")


def test_the_recorded_track_reads_in_french_and_german(renderings):
    d = draft.new_draft()
    d, said = draft.apply(d, {"op": "set", "index": 3, "letter": "B", "pearl": "black"})
    renderings.check(said, "draft set")
    assert translate(said, "fr") == "case 3 du pourtour : B avec une perle noire"
    d, said = draft.apply(d, {"op": "clear", "index": 3})
    renderings.check(said, "draft clear")
    renderings.check(draft.problem(d), "draft problem")
    for bad in ({"op": "x", "index": 0}, {"op": "set", "index": 99}, {"op": "set", "index": 0, "letter": "Q"},
                {"op": "set", "index": 0, "letter": "A", "pearl": "red"}, "nonsense"):
        with pytest.raises(draft.DraftError) as err:
            draft.apply(d, bad)
        renderings.check(err.value.text, f"draft {bad!r}")


GOOD = {"players": ["Ana", "Ben"], "position": {"boats": [{"cell": "AA", "owner": "Ana", "pearl": "white"}],
                                                "vaults": {"Ana": 1}}}


@pytest.mark.parametrize("data", [
    [], {"position": 3}, {"position": {"boats": []}}, {"players": "Ana", "position": {}},
    {"players": ["Ana", "Ana"], "position": {}}, {"players": ["Ana"], "position": {"boats": 3}},
    {"players": ["Ana"], "position": {"boats": [3]}},
    {"players": ["Ana"], "position": {"boats": [{"cell": "AA", "owner": "Ana", "pearl": "white", "x": 1}]}},
    {"players": ["Ana"], "position": {"boats": [{"cell": "ZZ", "owner": "Ana", "pearl": "white"}]}},
    {"players": ["Ana"], "position": {"boats": [{"cell": "MM", "owner": "Ana", "pearl": "white"}]}},
    {"players": ["Ana"], "position": {"boats": [{"cell": "AA", "owner": "Ana", "pearl": "white"}] * 2}},
    {"players": ["Ana"], "position": {"boats": [{"cell": "AA", "owner": "Zed", "pearl": "white"}]}},
    {"players": ["Ana"], "position": {"boats": [{"cell": "AA", "owner": "Ana", "pearl": "red"}]}},
    {"players": ["Ana"], "position": {"boats": [{"cell": c, "owner": "Ana", "pearl": p}
                                                for c, p in zip(["AA", "AB", "AC", "AD", "AE", "AF", "BA", "BB",
                                                                 "BC", "BD", "BE", "BF", "CA", "CB", "CC", "CD"],
                                                                ["white", "black", "blue", "green"] * 4)]}},
] + [{"players": ["Ana", "Ben"], "position": {"boats": [{"cell": c, "owner": o, "pearl": colour}
                                                        for c, o in zip(["AA", "AB", "AC", "AD", "AE", "AF", "BA"],
                                                                        ["Ana", "Ben"] * 4)]}}
     for colour in PEARLS] + [
    {"players": ["Ana"], "position": {"boats": [], "vaults": 3}},
    {"players": ["Ana"], "position": {"boats": [], "vaults": {"Zed": 1}}},
    {"players": ["Ana"], "position": {"boats": [], "vaults": {"Ana": -1}}},
])
def test_a_bad_position_reads_in_french_and_german(data, renderings):
    """Positions given bare (no "position" object: its schema's errors are the core's, tablehub/schemas.py)."""
    if isinstance(data, dict) and isinstance(data.get("position"), dict) and "players" in data:
        data = {"players": data["players"], **data["position"]}
    with pytest.raises(TablehubError) as err:
        Tahiti.score_position(data, "table.json")
    renderings.check(err.value.text, f"position error {err.value}")
    renderings.check(Tahiti.provisional, "provisional")


def test_every_rule_key_was_provoked_and_nothing_fell_back_to_english(renderings):
    """Runs last in this module: the games above provoked every rule key of the engine."""
    keys = rule_keys(SOURCE / "tahiti" / "engine.py")
    assert len(keys) >= 20, keys
    assert renderings.count > 1000
    renderings.finish(keys)
