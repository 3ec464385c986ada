"""The hand-entry form in French and German in a real browser (Debian's chromium, as
tests/web/test_browser.py): the move list, the help line and every field's label in the phone's
language, each input still named by its JSON key. Screenshots: tests/artifacts/screenshots/forms-*.png."""
from __future__ import annotations

import pytest

from tablehub.games.base import Setup

from .conftest import COLOURS, PLAYERS
from tests.browser import texts
from .test_browser import css, driver, server, shot, wait_for  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang, move, label, help_word, fields", [
    ("fr", "Transborder", "bateau", "coffre", ["bateau", "mise en sécurité", "joueur"]),
    ("de", "Übergeben", "Schiff", "Schatzkiste", ["Schiff", "in Sicherheit", "Spieler"])])
def test_the_move_form_reads_in_the_phones_language(driver, server, hub, lang, move, label, help_word, fields):
    from selenium.webdriver.support.ui import Select

    hub.start(Setup("karibik", PLAYERS, COLOURS))
    driver.get(f"{server.url}/language/{lang}?next=/%23enter")
    wait_for(driver, lambda: len(css(driver, "#move-type option")) > 2, what="the move form")
    names = texts(driver, "#move-type option")
    assert move in names and "Transfer" not in names, names
    Select(css(driver, "#move-type")[0]).select_by_value("transfer")
    wait_for(driver, lambda: texts(driver, "#move-fields label.field span") == fields,
             what=f"the transfer fields in {lang}")
    assert [e.get_attribute("name") for e in css(driver, "#move-fields [name]")] == ["ship", "safeguard", "player"]
    help_line = css(driver, "#move-help")[0].text
    assert help_word in help_line and "chest" not in help_line, help_line
    assert label in fields
    driver.execute_script("document.querySelector('#move-form').scrollIntoView()")
    shot(driver, f"forms-{lang}-karibik-transfer")
