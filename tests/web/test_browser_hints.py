"""'Where can it go?' in a real headless Chromium on a 360 px phone: the ghosts of the drawn tile on
the Neues Land board, a tap showing the tile turned and filling the move form, the toggle.

Screenshots go to a folder under the system's temporary directory (``TABLEHUB_SHOTS`` to choose
another): ``hints-neuesland-360.png`` and ``hints-neuesland-tapped-360.png``.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from .conftest import COLOURS, PLAYERS  # noqa: F401  (the hub fixture's game)
from .test_browser import css, driver, server, shot, start_game, wait_for  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

NARROW = (360, 780)
SHOTS = Path(os.environ.get("TABLEHUB_SHOTS") or Path(tempfile.gettempdir()) / "tablehub-hints")


def _shown_look(d, selector: str) -> str | None:
    """The turn shown at the hint ``selector`` (``None``: only its ghost)."""
    return d.execute_script(
        "const l = [...document.querySelectorAll(arguments[0] + ' .hint-look')]"
        ".find((n) => n.getAttribute('display') === 'inline'); return l ? l.dataset.look : null;", selector)


def test_the_drawn_tiles_ghosts_on_the_neuesland_board(driver, server, hub, nl_actions):  # noqa: F811
    start_game(hub, nl_actions, 12)
    lay = next(a for a in nl_actions[12:] if a["type"] == "place_tile")
    expected = hub.hints(lay["tile"])
    assert expected["count"] > 0
    driver.set_window_size(*NARROW)
    driver.get(server.url + "#board")
    wait_for(driver, lambda: len(css(driver, "#board-wrap .tile")) > 3, what="the board picture")
    toggle = css(driver, "#hint-show")[0]
    assert toggle.is_selected(), "hints are on by default"
    assert "drawn tile" in css(driver, "#hint-note")[0].text, "with no tile chosen the page asks for it"

    box = css(driver, "#hint-piece")[0]
    box.send_keys(lay["tile"])
    driver.execute_script("arguments[0].dispatchEvent(new Event('change'))", box)
    wait_for(driver, lambda: len(css(driver, "#board-wrap .hints .hint")) == expected["count"],
             what="one ghost per legal cell")
    drawn = {(int(h.get_attribute("data-hint-x")), int(h.get_attribute("data-hint-y")))
             for h in css(driver, "#board-wrap .hints .hint")}
    assert drawn == {(p["x"], p["y"]) for p in expected["places"]}
    assert f"{expected['count']} place" in css(driver, "#hint-note")[0].text
    # readable at 360 px: the toggle's words on one line, not clipped
    label = css(driver, ".hint-toggle")[0]
    assert label.size["height"] < 60 and label.size["width"] <= NARROW[0]
    shot(driver, "hints-neuesland-360", SHOTS)

    place = max(expected["places"], key=lambda p: len(p["rotations"]))
    selector = f'#board-wrap .hints .hint[data-hint-x="{place["x"]}"][data-hint-y="{place["y"]}"]'
    assert _shown_look(driver, selector) is None, "before a tap only the ghost square shows"
    css(driver, selector + " .hint-ghost")[0].click()
    wait_for(driver, lambda: _shown_look(driver, selector) == str(place["rotations"][0]), what="the tile turned")
    fields = {n: css(driver, f'#move-fields [name="{n}"]')[0].get_attribute("value")
              for n in ("tile", "x", "y", "rotation")}
    assert fields == {"tile": lay["tile"], "x": str(place["x"]), "y": str(place["y"]),
                      "rotation": str(place["rotations"][0])}, "the tap fills the move form"
    shot(driver, "hints-neuesland-tapped-360", SHOTS)
    if len(place["rotations"]) > 1:
        css(driver, selector + " .hint-ghost")[0].click()
        wait_for(driver, lambda: _shown_look(driver, selector) == str(place["rotations"][1]), what="the next turn")
        value = css(driver, '#move-fields [name="rotation"]')[0].get_attribute("value")
        assert value == str(place["rotations"][1])

    toggle.click()
    wait_for(driver, lambda: not css(driver, "#board-wrap .hints")[0].is_displayed(), what="hints hidden")
    assert "no-hints" in css(driver, "#board-wrap")[0].get_attribute("class")
