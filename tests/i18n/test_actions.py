"""An action the hub cannot read (a hand-entry form or an API client sent a bad field) is refused
in the reader's language, every game alike (issue 19: "every refusal ... in all three languages")."""
from __future__ import annotations

import pytest

from tablehub import i18n
from tablehub.games import GAMES, new_game
from tablehub.games.base import Setup
from tablehub.games.base import ActionFormatError

#: bad shapes that every game's reader refuses before any rule is asked
BAD = [
    ("not an object", ["place"]),
    ("no type", {"x": 1}),
    ("type not text", {"type": 7}),
    ("unknown type", {"type": "fly_away"}),
]


def create(game: str, players: list[str]):
    return new_game(Setup(game, tuple(players)))


def _refusals(game: str) -> list[i18n.Text]:
    g = create(game, ["Ana", "Ben", "Cleo"])
    out = []
    for _, data in BAD:
        with pytest.raises(ActionFormatError) as info:
            g.parse_action(data)
        out.append(info.value.text)
    # a known type with an unknown field, a missing field and a field of the wrong type
    kind = sorted(g.ACTIONS)[0]
    for data in ({"type": kind, "colour_of_the_sky": 1}, {"type": kind}, {"type": kind, "note": 5}):
        try:
            g.parse_action(data)
        except ActionFormatError as exc:
            out.append(exc.text)
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("lang", ["fr", "de"])
def test_an_unreadable_action_is_refused_in_the_readers_language(game, lang):
    before = {m for m in i18n.missing() if m[0] == lang}
    for text in _refusals(game):
        assert isinstance(text, i18n.Text), f"{game}: refusal {text!r} is plain English, not a Text"
        shown = i18n.translate(text, lang)
        assert shown != str(text), f"{game}: {text!r} reads the same in {lang}"
        assert "field" not in shown and "expected" not in shown, shown
    new = {m for m in i18n.missing() if m[0] == lang} - before
    assert not new, f"{game}: templates with no {lang} translation: {sorted(m[2] for m in new)}"


def test_the_english_refusal_names_the_field_and_what_was_expected():
    g = create("neuesland", ["Ana", "Ben"])
    with pytest.raises(ActionFormatError) as info:
        g.parse_action({"type": "place_tile", "tile": "ds017", "x": "one", "y": 0, "rotation": 0})
    assert str(info.value) == ("action (place_tile): field 'x' must be a whole number from -1000000 to 1000000, "
                               "got 'one'")
    assert i18n.translate(info.value.text, "de") == ("Aktion (place_tile): Feld „x“ muss eine ganze Zahl von "
                                                     "-1000000 bis 1000000 sein, erhalten: 'one'")


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_an_unknown_game_is_refused_in_the_readers_language(lang):
    from tablehub.games import SetupError
    with pytest.raises(SetupError) as info:
        create("chess", ["Ana", "Ben"])
    assert "'chess'" in str(info.value)
    shown = i18n.translate(info.value.text, lang)
    assert "'chess'" in shown and "unknown" not in shown, shown


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_board_set_up_screens_refuse_in_the_readers_language(tmp_path, lang):
    from tablehub.board_setup import BoardSetup, BoardSetupError
    screens = BoardSetup(tmp_path)
    calls = [lambda: screens.use("chess", True), lambda: screens.use("karibik", "maybe"),
             lambda: screens.use("karibik", True), lambda: screens.upload(0, 1, "%%%"),
             lambda: screens.upload(5, 1, ""), lambda: screens.trace_bytes(b"not a picture", [400, 300]),
             lambda: screens.save("karibik", "x" * 500), lambda: screens.trace_frame([400, 300])]
    before = {m for m in i18n.missing() if m[0] == lang}
    for call in calls:
        with pytest.raises(BoardSetupError) as info:
            call()
        shown = i18n.translate(info.value.text, lang)
        assert isinstance(info.value.text, i18n.Text) and shown != str(info.value), shown
    assert not {m for m in i18n.missing() if m[0] == lang} - before
