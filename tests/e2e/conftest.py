"""Fixtures of the browser tests. Each module marks itself `browser`; without Chromium its tests skip with the
reason (tests/conftest.py's `chromium_path`), and under CI=true that skip is a failure (tests/ci_enforcement.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.e2e.browsing import chromium


@pytest.fixture
def browser(chromium_path: str) -> Iterator[Browser]:
    """Headless Chromium for one test; each test opens its pages or contexts with its own viewport and locale.
    Function scope: Playwright's sync API runs an event loop on this thread, and Django refuses ORM calls from
    a thread with a running loop, so it must not outlive the test."""
    with chromium(chromium_path) as launched:
        yield launched
