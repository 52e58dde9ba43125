"""What the browser tests share: Debian's Chromium launched through Playwright, logging in through the form, and
a database call from a test body that drives the browser.

Playwright never downloads a browser here: it launches the given executable (tests/conftest.py's
`chromium_path`); tests/e2e/conftest.py's `browser` fixture opens one for a test.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from django.db import connection
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.games.factories import PASSWORD

__all__ = ["CHROMIUM_ARGS", "PASSWORD", "chromium", "in_thread", "log_in"]

# A closed network: without these, Chromium keeps trying to reach Google's services.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]  # fmt: skip
T = TypeVar("T")


@contextlib.contextmanager
def chromium(path: str) -> Iterator[Browser]:
    """Headless Chromium at `path`. While it is open, Playwright's sync API runs an event loop on this thread,
    and Django refuses database calls from a thread with a running loop."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def log_in(page: Page, base: str, username: str, *, keyboard: bool = False, language: str | None = None) -> None:
    """Log in through the form with the accounts' PASSWORD, found by the fields' ids (the form may be in
    either language) and sent with the form's button, or with Enter (`keyboard`: no click); returns once the
    page the site sends him to shows his profile link. `language` ("en", "ru"): then take it with the header's
    switch (logging in sets the account's)."""
    page.goto(f"{base}/accounts/log-in/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    if keyboard:
        page.locator("#id_password").press("Enter")
    else:
        page.locator("main form.stacked button[type=submit]").click()
    page.wait_for_url(lambda address: "/log-in/" not in address)
    expect(page.locator(".account-nav .profile-link")).to_be_visible()
    if language is not None and page.locator("html").get_attribute("lang") != language:
        page.locator(f".language-switch button[value={language}]").click()
        expect(page.locator("html")).to_have_attribute("lang", language)


def in_thread(call: Callable[[], T]) -> T:
    """A database call from the test body, on a thread without Playwright's event loop; the thread's
    connection goes back to the pool before the thread ends (else the test database's teardown finds it)."""

    def closing() -> T:
        try:
            return call()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(closing).result()
