"""The page in French and German in a real browser (Debian's chromium, as tests/web/test_browser.py):
what the scripts draw (scores, turn, history, set-up) is in the phone's language too, and no English
string of page.po is left in the visible text. Screenshots: tests/artifacts/screenshots/i18n-*.png."""
from __future__ import annotations

import pytest

from .conftest import COLOURS, PLAYERS  # noqa: F401  (the hub fixture's game)
from .test_browser import css, driver, server, shot, start_game, wait_for  # noqa: F401  (fixtures)
from .test_i18n_page import english_of_page

pytestmark = pytest.mark.browser


def english_in(text: str, lang: str) -> list[str]:
    """Lines of the visible text that are an English sentence of page.po, or hold a long one."""
    english = english_of_page(lang)
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    left = [line for line in lines if line in english]
    left += [e for e in english if len(e.split()) >= 4 for line in lines if e in line]
    return left


def body_text(d) -> str:
    return d.execute_script("return document.body.innerText")


@pytest.mark.parametrize("lang, turn_word, to_play, history", [
    ("fr", "Tour", "de jouer", "caméra"), ("de", "Zug", "ist am Zug", "Kamera")])
def test_the_scoreboard_history_and_set_up_in_the_phones_language(driver, server, hub, nl_actions, lang,
                                                                   turn_word, to_play, history):
    start_game(hub, nl_actions, 12)
    driver.get(f"{server.url}/language/{lang}?next=/")
    wait_for(driver, lambda: css(driver, "#turn") and css(driver, "#turn")[0].text.startswith(turn_word),
             what=f"the turn line in {lang}")
    assert driver.execute_script("return document.documentElement.lang") == lang
    assert to_play in css(driver, "#whose")[0].text
    text = body_text(driver)
    assert not english_in(text, lang), f"English on the scoreboard in {lang}: {english_in(text, lang)}"
    shot(driver, f"i18n-{lang}-scoreboard")

    driver.get(f"{server.url}/#history")
    wait_for(driver, lambda: css(driver, "#turns li"), what="the history")
    text = body_text(driver)
    assert history.upper() in text.upper() and not english_in(text, lang), english_in(text, lang)
    shot(driver, f"i18n-{lang}-history")

    driver.get(f"{server.url}/setup")
    wait_for(driver, lambda: css(driver, "#game-choices label"), what="the game choices")
    text = body_text(driver)
    assert not english_in(text, lang), f"English on the set-up page in {lang}: {english_in(text, lang)}"
    shot(driver, f"i18n-{lang}-setup")


def test_the_check_finds_english_on_an_english_page(driver, server, hub, nl_actions):
    start_game(hub, nl_actions, 4)
    driver.get(f"{server.url}/language/en?next=/")
    wait_for(driver, lambda: css(driver, "#turn") and css(driver, "#turn")[0].text.startswith("Turn"),
             what="the English turn line")
    assert english_in(body_text(driver), "fr"), "the check sees English where there is English"
