"""The hand-entry form's own errors in a real browser (Debian's chromium, as tests/web/test_browser.py), in
French and German: a field left empty, or not JSON, is named by its label in the phone's language, never by
the action's JSON key, and the sentence is the phone's language."""
from __future__ import annotations

import pytest

from tablehub.games.base import Setup

from ..web.conftest import COLOURS, PLAYERS
from ..web.test_browser import css, driver, server, wait_for  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser
PIN = "4821"


@pytest.mark.parametrize("lang, fill_in, not_json", [("fr", "remplissez ", " doit être du JSON"),
                                                     ("de", " ausfüllen", " muss JSON sein")])
def test_the_forms_own_errors_name_the_field_in_the_phones_language(driver, server, hub, lang, fill_in, not_json):
    from selenium.webdriver.support.ui import Select

    hub.start(Setup("karibik", PLAYERS, COLOURS))
    driver.get(f"{server.url}/language/{lang}?next=/%23enter")
    wait_for(driver, lambda: len(css(driver, "#move-type option")) > 2, what="the move form")
    found = None
    for value in [o.get_attribute("value") for o in css(driver, "#move-type option")]:
        Select(css(driver, "#move-type")[0]).select_by_value(value)
        for inp in css(driver, "#move-fields input[type=text]"):
            label, name = inp.get_attribute("data-label"), inp.get_attribute("name")
            if inp.get_attribute("data-optional") == "0" and label and label != name.replace("_", " "):
                found = (value, name, label)
                break
        if found:
            break
    assert found, "no Karibik move with a required text field whose label differs from its key"
    value, name, label = found

    def submit(target: str) -> str:
        for inp in css(driver, "#move-fields input[type=text], #move-fields input[type=number]"):
            driver.execute_script("arguments[0].value = arguments[1]", inp,
                                  target if inp.get_attribute("name") == name else "1")
        driver.execute_script("document.querySelector('#move-error').textContent = ''; "
                              "document.querySelector('#move-form').requestSubmit()")
        wait_for(driver, lambda: css(driver, "#move-error")[0].text.strip() != "", what="the form's error")
        return css(driver, "#move-error")[0].text

    said = submit("")
    assert said == (f"{fill_in}{label}" if lang == "fr" else f"{label}{fill_in}"), (said, name)
    if css(driver, f'#move-fields [name="{name}"]')[0].get_attribute("data-kind") != "str":
        said = submit("[1,")
        assert said.startswith(f"{label}{not_json}"), (said, name)
