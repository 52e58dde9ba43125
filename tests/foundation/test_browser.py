"""The site in a real browser: Debian's Chromium driven by Playwright against Daphne.

Playwright never downloads a browser here: it launches /usr/bin/chromium (executable_path).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect, sync_playwright

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A closed network: without these, Chromium keeps trying to reach Google's services.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE: ViewportSize = {"width": 390, "height": 844}
SCREENSHOT_DIR = os.environ.get("BROWSER_SCREENSHOT_DIR")  # set it to look at the pages


@pytest.fixture
def browser(chromium_path: str) -> Iterator[Browser]:
    # Function scope: Playwright's sync API runs an event loop on this thread, and Django refuses
    # ORM calls from a thread with a running loop, so it must not outlive the test.
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _screenshot(page: Page, name: str) -> None:
    if SCREENSHOT_DIR:
        page.screenshot(path=os.path.join(SCREENSHOT_DIR, f"{name}.png"), full_page=True)


def test_language_switch_in_the_browser(browser: Browser, live_server_url: str) -> None:
    page = browser.new_page(locale="en-GB")
    page.goto(f"{live_server_url}/rules/")
    expect(page.locator("h1")).to_have_text("Rules of Durak")
    expect(page.locator(".main-nav")).to_contain_text("Tournaments")
    _screenshot(page, "rules-en")

    page.get_by_role("button", name="Русский").click()

    expect(page).to_have_url(f"{live_server_url}/rules/")
    expect(page.locator("h1")).to_have_text("Правила игры в дурака")
    expect(page.locator(".main-nav")).to_contain_text("Турниры")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    _screenshot(page, "rules-ru")

    page.get_by_role("button", name="English").click()
    expect(page.locator("h1")).to_have_text("Rules of Durak")


def test_sign_up_and_edit_the_profile_on_a_phone(browser: Browser, live_server_url: str) -> None:
    page = browser.new_page(viewport=PHONE, locale="en-GB")
    page.goto(f"{live_server_url}/")
    _screenshot(page, "home-phone")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "page scrolls sideways"

    page.locator(".hero").get_by_role("link", name="Sign up and play").click()
    page.get_by_label("Username").fill("browser-player")
    page.get_by_label("E-mail").fill("browser@example.com")
    page.locator("#id_password1").fill("a-Long-passw0rd-for-tests")
    page.locator("#id_password2").fill("a-Long-passw0rd-for-tests")
    page.get_by_role("button", name="Create my account").click()

    expect(page.locator("h1")).to_have_text("Your profile")
    expect(page.locator(".messages")).to_contain_text("Welcome, browser-player!")

    # The profile form posts through htmx: only the form is redrawn, the page itself stays.
    page.evaluate("window.pageLoadMarker = 'still the same page'")
    page.get_by_label("Display name").fill("Browser Bob")
    page.get_by_label("Country").select_option("KZ")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#profile-form .saved")).to_have_text("Profile saved.")
    assert page.evaluate("window.pageLoadMarker") == "still the same page"
    expect(page.get_by_label("Display name")).to_have_value("Browser Bob")
    _screenshot(page, "profile-phone")

    page.reload()
    expect(page.locator(".profile-link")).to_have_text("Browser Bob")
    expect(page.get_by_label("Country")).to_have_value("KZ")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "page scrolls sideways"
