"""The shared core and the tile games (Neues Land, Südsee) in French and German (issue 19).

The recorded games (tests/*/scenarios) and seeded random games are replayed; at every position a
battery of illegal actions is tried. Every refusal, every score event and every ``describe()``
is rendered in French and German: no template may fall back to English (``i18n.missing()`` gains
nothing), and no rendering may equal its English unless its templates carry no words. Every rule
key the engines' source names must have been provoked at least once.
"""
from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from tablehub import i18n
from tablehub.games import new_game
from tablehub.games.base import Game, IllegalAction, ScoreEvent, Setup, SetupError, check_players
from tablehub.games.neuesland.engine import Draw, NeuesLand, ScoreFigure, SetAside
from tablehub.games.suedsee.engine import ChooseShip, Deliver, RevealShip, SkipIslander, Suedsee, TakeBack
from tablehub.games.tiles.game import DiscardTile, PlaceFigure, PlaceTile, TileGame
from tablehub.games.tiles.playout import PlayoutStats, random_game
from tablehub.i18n import Text, translate

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "tablehub/games/base.py", *sorted((ROOT / "tablehub/games/tiles").glob("*.py")),
           *sorted((ROOT / "tablehub/games/neuesland").glob("*.py")),
           *sorted((ROOT / "tablehub/games/suedsee").glob("*.py"))]
SCENARIOS = sorted((ROOT / "tests/neuesland/scenarios").glob("*.json")) + \
    sorted((ROOT / "tests/suedsee/scenarios").glob("*.json"))
LANGS = ("fr", "de")


def rule_keys() -> set[str]:
    """Every ``rule="..."`` the engines' source names."""
    keys: set[str] = set()
    for path in SOURCES:
        keys |= set(re.findall(r'rule="([a-z_]+)"', path.read_text(encoding="utf-8")))
    return keys


# --------------------------------------------------------------------------- rendering checks


def _words(text: object) -> str:
    """The letters a text's templates carry (placeholders, numbers and punctuation removed), nested
    Texts included; plain-string parameters (names, ids) carry none."""
    if not isinstance(text, Text):
        return ""
    template = text.msgid if text.plural is None or text.n == 1 else text.plural
    literal = "".join(part for part, *_ in string.Formatter().parse(template))
    own = re.sub(r"[^A-Za-zÀ-ÿ]+", " ", literal).strip()
    return " ".join([own] + [_words(v) for v in text.params.values()]).strip()


class Renderings:
    """Collects what was rendered, and what was wrong with it."""

    def __init__(self) -> None:
        self.count = 0
        self.same: list[str] = []
        self.plain: list[str] = []

    def check(self, text: object, what: str) -> None:
        if text is None or text == "":
            return
        if not isinstance(text, Text):
            self.plain.append(f"{what}: not a Text: {text!r}")
            return
        english = translate(text, "en")
        assert english == str(text), f"{what}: the English rendering differs from the str: {english!r} / {text!r}"
        for lang in LANGS:
            out = translate(text, lang)
            self.count += 1
            if out == english and _words(text):
                self.same.append(f"{what} [{lang}]: {out!r}")
        data = text.as_data()
        assert Text.from_data(json.loads(json.dumps(data))) == text


# --------------------------------------------------------------------------- the battery of illegal actions


def probes(g: TileGame) -> list:
    """Actions to try at this position: many of them are refused, for as many reasons as the position allows."""
    tiles = sorted(g.catalog.by_id)
    some = tiles[len(tiles) // 2]
    gone = next((t for t in tiles if g.box[t] <= 0), None)
    out: list = [PlaceTile("zz999", 1, 0, 0), PlaceTile(some, 1, 0, 45), PlaceTile(some, 0, 0, 0),
                 PlaceTile(some, 40, 40, 0), DiscardTile("zz999"), PlaceFigure("nowhere")]
    occupied = [c for c in g.board.cells if c != (0, 0)]
    if occupied:
        out.append(PlaceTile(some, occupied[-1][0], occupied[-1][1], 0))
    for cell in list(g.board.open)[:3]:
        out.extend(PlaceTile(t, cell[0], cell[1], r) for t in tiles[::7] for r in (0, 90, 180, 270))
    out.extend(DiscardTile(t) for t in tiles[::9])
    if gone:
        out.extend([PlaceTile(gone, 1, 0, 0), DiscardTile(gone)])
    if g.last_cell is not None:
        out.extend(PlaceFigure(r.id) for r in g.board.cells[g.last_cell].tile.regions)
    removal = g.figure_removal
    if removal is not None:
        out.append(removal(50, 50, "X"))
        for cell, placed in list(g.board.cells.items())[-6:]:
            out.append(removal(cell[0], cell[1], "nowhere"))
            out.extend(removal(cell[0], cell[1], r.id) for r in placed.tile.regions)
        for f in g.figures:
            region = g.board.cells[f.cell].tile.regions[f.region]
            out.append(removal(f.cell[0], f.cell[1], region.id))
    if isinstance(g, NeuesLand):
        out.extend([SetAside(some), SetAside("zz999"), Draw(some), Draw("zz999")])
        if gone:
            out.extend([SetAside(gone), Draw(gone)])
        if g.expert:
            out.extend(PlaceTile(t, 1, 0, 0) for t in tiles[:3])
    if isinstance(g, Suedsee):
        ships = sorted(g.shipset.ships)
        out.extend([SkipIslander(), RevealShip("nope"), ChooseShip("nope"), Deliver("nope")])
        out.extend(RevealShip(s) for s in ships[:3] + g.display[:1] + [t for s in g.taken for t in s][:1])
        out.extend(ChooseShip(s) for s in ships[:2] + g.display)
        out.extend(Deliver(s) for s in g.display + ships[:1] + [t for s in g.taken for t in s][:1])
        for s in g.display:
            out.extend([Deliver(s, {"pearl": 1}), Deliver(s, {"fish": -1}), Deliver(s, {"fish": 1}),
                        Deliver(s, {"shell": 3, "banana": 3}), Deliver(s, {"shell": 9}),
                        Deliver(s, {"shell": 1, "banana": 1, "fish": 1})])
    return out


class Probe:
    """Replays games, probing each position; keeps the rules seen and checks every rendering."""

    def __init__(self) -> None:
        self.rules: dict[str, str] = {}
        self.render = Renderings()

    def refuse(self, g: Game, action, where: str) -> None:
        try:
            g._validate(action)
        except IllegalAction as exc:
            self.rules.setdefault(exc.rule, str(exc))
            assert isinstance(exc.text, Text), f"{where}: refusal {exc.rule} is not a Text: {exc.text!r}"
            self.render.check(exc.text, f"{where}: refusal {exc.rule}")
            assert g.validate(action) is exc.text or g.validate(action) == exc.text

    def position(self, g: TileGame, where: str) -> None:
        for action in probes(g):
            self.refuse(g, action, where)
        if isinstance(g, Suedsee):
            self.render.check(g.waiting_for(), f"{where}: waiting_for")
        for placed_cell in list(g.board.cells)[-2:]:
            self.render.check(g.cell_words(placed_cell), f"{where}: cell words")
            self.render.check(g.placed_words(placed_cell), f"{where}: placed words")
        if g.figures:  # a game whose figure may not stand on a terrain (the rule's words, shipped words only)
            f = g.figures[0]
            terrain = g.board.cells[f.cell].tile.regions[f.region].terrain
            g.figure_roles = {k: v for k, v in type(g).figure_roles.items() if k != terrain}
            try:
                if g.last_cell is not None:
                    for r in g.board.cells[g.last_cell].tile.regions:
                        self.refuse(g, PlaceFigure(r.id), where)
                self.render.check(g.standing_problem(f.cell, f.region), f"{where}: standing problem")
            finally:
                del g.figure_roles

    def play(self, g: TileGame, actions: list, where: str, every: int = 1) -> None:
        for i, action in enumerate(actions):
            if isinstance(action, dict):
                if action.get("type") == "finish":  # the record ends the game here
                    break
                if action.get("type") not in g.ACTIONS:  # the record's checks ("expect"), not actions
                    continue
                refused = action.get("refused")
                action = g.parse_action({k: v for k, v in action.items() if k not in ("refused", "that")})
                if refused:  # the record says the rules refuse it here
                    with pytest.raises(IllegalAction) as exc:
                        g._validate(action)
                    assert exc.value.rule == refused, f"{where} #{i}: {exc.value.rule} refused, not {refused}"
                    self.refuse(g, action, f"{where} #{i}")
                    continue
            if i % every == 0:
                self.position(g, f"{where} #{i}")
            self.render.check(g.describe(action.to_dict()), f"{where} #{i}: describe {action.type}")
            for ev in g.apply(action):
                self.events(ev, f"{where} #{i}")
        for ev in g.finish():
            self.events(ev, f"{where}: finish")
        # the finished game: nothing more is accepted
        for action in (PlaceTile("zz999", 1, 0, 0), SkipIslander() if isinstance(g, NeuesLand) else SetAside("x")):
            try:
                g.apply(action)
            except IllegalAction as exc:
                self.rules.setdefault(exc.rule, str(exc))
                self.render.check(exc.text, f"{where}: after the end")
        for cell, placed in list(g.board.cells.items())[-4:]:
            for r in placed.tile.regions:
                self.render.check(g.standing_problem(cell, r.index), f"{where}: standing problem at the end")

    def events(self, ev: ScoreEvent, where: str) -> None:
        assert isinstance(ev.reason, Text), f"{where}: score reason is not a Text: {ev.reason!r}"
        self.render.check(ev.reason, f"{where}: score")


def _replay(probe: Probe, game: str, players: int, seed: int, options: dict, every: int) -> None:
    st = PlayoutStats()
    random_game(game, players, seed=seed, options=options, stats=st)
    g = new_game(Setup(game, tuple(f"P{i + 1}" for i in range(players)), (), options))
    probe.play(g, st.actions, f"{game} seed {seed} {options}", every=every)


@pytest.fixture(scope="module")
def probed() -> Probe:
    before = i18n.missing()
    probe = Probe()
    for path in SCENARIOS:
        data = json.loads(path.read_text(encoding="utf-8"))
        g = new_game(Setup(data["game"], tuple(data["players"]), (), dict(data.get("options") or {})))
        probe.play(g, data["actions"], path.name)
    for game, players, seed, options in (
            ("neuesland", 2, 3, {}), ("neuesland", 4, 5, {}), ("neuesland", 3, 7, {"expert": True}),
            ("neuesland", 2, 8, {"expert": True, "set_aside": False}),
            ("suedsee", 2, 3, {}), ("suedsee", 4, 11, {}), ("suedsee", 3, 12, {"takeback": "any"})):
        _replay(probe, game, players, seed, options, every=5)
    # refusals a random game rarely reaches: an expert game's first moves, setting aside when it is done
    g = new_game(Setup("neuesland", ("Ana", "Ben", "Cleo"), (), {"expert": True}))
    probe.position(g, "expert start")
    for tile in ("ds017", "ds020"):
        g.apply(SetAside(tile))
    probe.position(g, "expert set aside")
    for tile in ("ds021", "ds022", "ds023"):
        g.apply(Draw(tile))
    probe.position(g, "expert drawing")
    for tile in ("ds024", "ds025", "ds026"):
        g.apply(Draw(tile))
    probe.position(g, "expert hands full")
    g = new_game(Setup("neuesland", ("Ana", "Ben"), (), {"expert": True, "set_aside": False}))
    probe.refuse(g, SetAside("ds017"), "expert without set aside")
    probe.refuse(new_game(Setup("neuesland", ("Ana", "Ben"))), TakeBack(0, 0, "S:S"), "a foreign action")
    try:
        new_game(Setup("neuesland", ("Ana", "Ben"))).apply(TakeBack(0, 0, "S:S"))
    except IllegalAction as exc:
        probe.rules.setdefault(exc.rule, str(exc))
        probe.render.check(exc.text, "a foreign action applied")
    probe.missing_before = before  # type: ignore[attr-defined]
    return probe


def test_every_rule_key_is_provoked(probed):
    keys = rule_keys()
    assert len(keys) > 30, "the rule keys were not found in the source"
    never = sorted(keys - set(probed.rules))
    assert not never, f"rule keys never provoked: {never}"


def test_nothing_falls_back_to_english(probed):
    gained = sorted(i18n.missing() - probed.missing_before, key=str)
    assert not gained, f"{len(gained)} templates fell back to English, e.g. {gained[:10]}"
    assert probed.render.count > 5000


def test_renderings_are_translated_and_texts(probed):
    assert not probed.render.plain, probed.render.plain[:10]
    assert not probed.render.same, probed.render.same[:10]


def test_english_stays_as_it_was():
    """A few sentences the records and tests compare, word for word."""
    g = new_game(Setup("neuesland", ("Ana", "Ben")))
    assert g.words.tile(g.catalog.tile("ds081")) == "the tile with a lake, two plains and two mountains"
    assert g.validate(PlaceFigure("G:N")) == "placing a figure comes after laying the turn's tile"
    with pytest.raises(IllegalAction) as exc:
        g.apply(PlaceTile("ds017", 0, 0, 0))
    assert str(exc.value).startswith("The start tile already lies there (cell 0, 0 already holds tile ds001)")
    assert translate(exc.value.text, "fr").startswith("La tuile de départ est déjà là")
    assert translate(exc.value.text, "de").startswith("Das Startplättchen liegt schon dort")


def test_gender_and_case_follow_the_word():
    """The region's noun decides its article and case: not one template with a slot for any noun."""
    g = new_game(Setup("neuesland", ("Ana", "Ben")))
    words = g.words
    start = g.catalog.tile("ds001")
    bay, mountain = start.region("S:S"), start.region("M:EW")
    assert translate(words.region(bay, 0), "de") == "die Bucht im Süden"
    assert translate(words.region_on(bay, 0), "de") == "in der Bucht im Süden"
    assert translate(words.region(mountain, 0), "de") == "das Gebirge von Osten nach Westen"
    assert translate(words.region_on(mountain, 1), "fr") == "sur la montagne du nord au sud"
    assert translate(words.place(g.board.cells, (1, 0)), "de") == "östlich von dem Startplättchen"
    assert translate(words.place(g.board.cells, (1, 0)), "fr") == "à l'est de la tuile de départ"
    lake = g.catalog.tile("ds081")
    assert translate(words.tile(lake), "de") == "das Plättchen mit einem See, zwei Ebenen und zwei Gebirgen"
    assert translate(words.tile_of(lake), "de") == "dem Plättchen mit einem See, zwei Ebenen und zwei Gebirgen"
    assert translate(words.tile(lake), "fr") == "la tuile avec un lac, deux plaines et deux montagnes"


def test_setup_errors_render_in_both_languages():
    render = Renderings()
    bad = [lambda: check_players(["Ana", "ana"], "neuesland"), lambda: check_players("Ana", "neuesland"),
           lambda: check_players(["", "Ben"]), lambda: check_players(["A" * 30, "Ben"]),
           lambda: check_players(["Ana\x1b", "Ben"]), lambda: check_players([" Ana", "Ben"]),
           lambda: check_players([3, "Ben"]), lambda: new_game(Setup("neuesland", ("Ana",))),
           lambda: new_game(Setup("neuesland", ("Ana", "Ben"), ("red",))),
           lambda: new_game(Setup("neuesland", ("Ana", "Ben"), ("red", "red"))),
           lambda: new_game(Setup("neuesland", ("Ana", "Ben"), (), {"colour": 1})),
           lambda: new_game(Setup("neuesland", ("Ana", "Ben"), (), {"expert": "yes"})),
           lambda: new_game(Setup("suedsee", ("Ana", "Ben"), (), {"takeback": "never"})),
           lambda: new_game(Setup("suedsee", ("Ana", "Ben"), (), {"ships": ""})),
           lambda: NeuesLand(Setup("suedsee", ("Ana", "Ben")))]
    for i, make in enumerate(bad):
        with pytest.raises(SetupError) as exc:
            make()
        render.check(exc.value.text, f"setup error {i}")
    assert render.count == 2 * len(bad)
    assert not render.plain and not render.same, (render.plain, render.same)


# --------------------------------------------------------------------------- the tracker's messages


def _source_templates(paths: list[Path]) -> list[tuple[str | None, str, str | None]]:
    """(context, template, plural) of every T/Tn/Tc/N_ call in ``paths`` (what pybabel extracts)."""
    from babel.messages.extract import extract_from_file

    keywords = {"T": None, "Tn": (1, 2), "Tc": ((1, "c"), 2), "N_": None}
    out = []
    for path in paths:
        for _, message, _, context in extract_from_file("python", str(path), keywords=keywords):
            if isinstance(message, tuple):
                out.append((context, message[0], message[1]))
            else:
                out.append((context, message, None))
    return out


TRACKING = sorted((ROOT / "tablehub/tracking").glob("*.py"))


def test_every_template_of_this_area_is_translated_in_both_languages():
    """Every template the core, the tile games and the tracker write is in the fr and de catalogs, with the
    same placeholders (i18n.translate would fall back to English otherwise)."""
    templates = _source_templates(SOURCES + TRACKING)
    assert len(templates) > 250, "the templates were not found in the source"
    for lang in LANGS:
        catalog = i18n.catalog(lang)
        absent = [(c, m) for c, m, _ in templates if (c, m) not in catalog.messages]
        assert not absent, f"{lang}: {len(absent)} templates have no translation, e.g. {absent[:5]}"
        for context, msgid, plural in templates:
            for n in (1, 2):
                text = Text(msgid, context=context, plural=plural, n=n if plural else None)
                before = i18n.missing()
                translate(text, lang)
                assert i18n.missing() == before, f"{lang}: {msgid!r} does not render (placeholders?)"


def _reading_texts(reading) -> list:
    return [t for t in (reading.reason, reading.question, *reading.notes) if t]


def test_the_trackers_flags_and_notes_render_in_both_languages():
    from tablehub.tracking.interpret import interpret
    from tablehub.tracking.table import FigureSeen, TableSeen, TileSeen, expected_from_view

    before = i18n.missing()
    render = Renderings()
    g = new_game(Setup("neuesland", ("Ana", "Ben"), ("red", "blue")))
    base = expected_from_view(g.view())

    def seen(*tiles, figures=()):
        return TableSeen({**base.tiles, **{t.cell: t for t in tiles}}, tuple(base.figures) + tuple(figures))

    readings = {
        "edge mismatch": interpret(g, base, seen(TileSeen(0, 1, "ds040", 0, 0.95))),
        "two tiles": interpret(g, base, seen(TileSeen(0, 1, "ds040", 270, 0.95), TileSeen(0, -1, "ds040", 0, 0.95))),
        "unsure": interpret(g, base, seen(TileSeen(0, 1, "ds040", 270, 0.55,
                                                   alternatives=(("ds040", 0, 0.5), ("ds041", 270, 0.4))))),
        "pending": interpret(g, base, seen(TileSeen(0, 1, "ds040", 270, 0.95))),
        "same": interpret(g, base, seen()),
        "wrong colour": interpret(g, base, seen(TileSeen(0, 1, "ds040", 270, 0.95),
                                                figures=(FigureSeen(0, 1, "blue", "G:N"),))),
        "stray figure": interpret(g, base, seen(TileSeen(0, 1, "ds040", 270, 0.95),
                                                figures=(FigureSeen(5, 5, "green", None),))),
    }
    assert readings["edge mismatch"].state == "illegal" and readings["two tiles"].state == "illegal"
    assert readings["wrong colour"].state == "illegal"
    assert readings["stray figure"].notes, "a figure off the tiles is noted"
    for name, reading in readings.items():
        for text in _reading_texts(reading):
            render.check(text, f"{name}: reading")
        render.check(reading.describe(g), f"{name}: describe")
        render.check(reading.describe(None), f"{name}: describe without the game")
    assert translate(readings["two tiles"].reason, "de").startswith("neue Plättchen bei 0,-1 und 0,1")
    assert translate(readings["wrong colour"].reason, "fr").startswith("une figurine (bleu) est sur la nouvelle tuile")
    assert not render.plain, render.plain
    assert not render.same, render.same
    assert i18n.missing() == before


def test_the_score_explanation_reads_in_each_language():
    from tablehub.explain import explain

    before = i18n.missing()
    g = random_game("neuesland", 3, seed=21)
    english = explain(g)
    assert explain(g, "en") == english and english.endswith(("wins.", "share the win."))
    for lang, totals in (("fr", "Totaux :"), ("de", "Summen:")):
        text = explain(g, lang)
        assert totals in text.splitlines() and text != english
        assert len(text.splitlines()) == len(english.splitlines())
    assert i18n.missing() == before
