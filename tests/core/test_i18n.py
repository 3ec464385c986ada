"""The translation core (tablehub/i18n.py): a Text renders in each reader's language."""
from __future__ import annotations

import copy
import json
import pickle

import pytest

from tablehub import i18n
from tablehub.i18n import T, Text, Tn, translate


def test_text_is_its_english_sentence_and_renders_from_the_catalog():
    over = T("the game is over")
    assert over == "the game is over" and isinstance(over, str)
    assert translate(over, "fr") == "la partie est terminée"
    assert translate(over, "de") == "das Spiel ist vorbei"
    assert translate(over, "xx") == "the game is over"  # an unknown language reads English


def test_plural_forms_follow_each_language():
    assert [translate(Tn("one tile", "{n} tiles", n), "de") for n in (1, 2)] == ["ein Plättchen", "2 Plättchen"]
    # French counts 0 and 1 as singular
    assert [translate(Tn("one tile", "{n} tiles", n), "fr") for n in (0, 1, 5)] == ["0 tuile", "1 tuile", "5 tuiles"]
    assert Tn("one tile", "{n} tiles", 1) == "one tile"


def test_nested_texts_are_translated_and_plain_parameters_kept():
    outer = Text("{player}: {why}", player="Ana", why=T("the game is over"))
    assert outer == "Ana: the game is over"
    # the outer template has no catalog entry: English template, but the inner text is French
    assert translate(outer, "fr") == "Ana: la partie est terminée"
    assert ("fr", None, "{player}: {why}") in i18n.missing()


def test_json_form_survives_a_stream_and_copies_keep_the_template():
    text = Text("{player}: {why}", player="Ana", why=Tn("one tile", "{n} tiles", 4))
    data = json.loads(json.dumps(text.as_data()))
    again = Text.from_data(data)
    assert again == text and translate(data, "de") == "Ana: 4 Plättchen"
    for clone in (copy.deepcopy(text), pickle.loads(pickle.dumps(text))):
        assert clone == text and clone.msgid == text.msgid and translate(clone, "de") == "Ana: 4 Plättchen"


def test_a_translation_with_foreign_placeholders_falls_back_to_english(tmp_path, monkeypatch):
    (tmp_path / "fr").mkdir()
    (tmp_path / "fr" / "x.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "{player} wins"\nmsgstr "{joueur} gagne"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "catalog", lambda lang: i18n.Catalog(lang, tmp_path))
    assert translate(T("{player} wins", player="Ana"), "fr") == "Ana wins"


@pytest.mark.parametrize("header, expected", [
    ("de-CH,de;q=0.9,en;q=0.8", "de"), ("en-GB,fr;q=0.9", "en"), ("es,fr;q=0.5", "fr"),
    ("fr;q=0,de;q=0.1", "de"), ("", "en"), ("*", "en")])
def test_best_language_reads_accept_language(header, expected):
    assert i18n.best_language(header) == expected


def test_a_parameter_named_n_fills_its_placeholder_without_a_plural():
    text = T("{n} boats left", n=3)
    assert text == "3 boats left" and translate(text, "fr") == "3 boats left"
    assert Text.from_data(text.as_data()) == text


def test_capital_makes_the_first_letter_a_capital_in_every_language():
    text = i18n.capital(T("{first} and {last}", first=T("the game is over"), last="Ana"))
    assert text == "The game is over and Ana"
    assert translate(text, "fr") == "La partie est terminée et Ana"
    assert translate(Text.from_data(json.loads(json.dumps(text.as_data()))), "de") == "Das Spiel ist vorbei und Ana"
    assert translate(copy.deepcopy(text), "de") == "Das Spiel ist vorbei und Ana"
    assert not any(m[2] == "{text}" for m in i18n.missing())
