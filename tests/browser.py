"""A real headless Chromium for the page tests (Debian's ``chromium`` and ``chromium-driver``,
installed by scripts/test); a test that needs it skips cleanly without it."""
from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from typing import Iterator

import pytest

PHONE = (412, 915)
CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                "--force-device-scale-factor=1"]


@contextmanager
def chromium(window: tuple[int, int] | None = PHONE) -> Iterator:
    """A Selenium driver on a fresh profile, at ``window`` size (None: Chromium's own); quit after."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not browser or not driver_path:
        pytest.skip("Debian's chromium and chromium-driver are not installed (scripts/test installs them)")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="tablehub-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = browser
    for flag in CHROME_FLAGS + [f"--user-data-dir={profile}"]:
        opts.add_argument(flag)
    if window is not None:
        opts.add_argument(f"--window-size={window[0]},{window[1]}")
    d = webdriver.Chrome(options=opts, service=Service(driver_path))
    d.set_page_load_timeout(20)
    try:
        yield d
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)


def wait_for(d, condition, timeout: float = 5.0, what: str = "the page"):
    """``condition()``'s first true value, polled every 50 ms; a timeout names ``what`` was awaited."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(d, timeout, poll_frequency=0.05).until(lambda _: condition(), message=f"{what} within {timeout} s")


def css(d, selector):
    from selenium.webdriver.common.by import By

    return d.find_elements(By.CSS_SELECTOR, selector)


def texts(d, selector) -> list[str]:
    """The rendered text of every element ``selector`` matches, read in one script: the page re-renders what it polls
    (the pending card, the offers), and elements found first and read one by one can be gone by the time they are read
    (a StaleElementReferenceException)."""
    return d.execute_script("return [...document.querySelectorAll(arguments[0])].map(e => e.innerText)", selector)
