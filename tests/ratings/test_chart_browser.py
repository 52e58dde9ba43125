"""The rating chart in a real browser: the vendored Chart.js draws one line chart per pool."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect, sync_playwright

from ratings.models import PlayerRating, RatingPool
from tests.ratings.helpers import person, synthetic_games

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOT_DIR = os.environ.get("BROWSER_SCREENSHOT_DIR")


def test_the_player_page_draws_a_chart_per_pool(live_server_url: str, chromium_path: str) -> None:
    people = [person(f"chart{number}") for number in range(4)]
    synthetic_games(RatingPool.objects.get(slug="podkidnoy-36-heads-up"), people, 12, seed=21)
    synthetic_games(RatingPool.objects.get(slug="podkidnoy-36-multi"), people, 6, seed=22, seats=(3, 4))
    games = {row.pool.slug: row.games for row in PlayerRating.objects.filter(user=people[0]).select_related("pool")}

    # Playwright's sync API runs an event loop on this thread, so the data is made before it starts.
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(locale="ru-RU")
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{live_server_url}/ratings/player/chart0/")
        expect(page.locator("canvas")).to_have_count(len(games))
        page.wait_for_function("() => window.Chart && document.querySelectorAll('canvas').length > 0 && "
                               "[...document.querySelectorAll('canvas')].every(c => window.Chart.getChart(c))")
        points = page.evaluate(
            "() => [...document.querySelectorAll('canvas')].map(c => window.Chart.getChart(c).data.datasets[0].data.length)"
        )
        assert sorted(points) == sorted(count + 1 for count in games.values())
        if SCREENSHOT_DIR:
            page.screenshot(path=os.path.join(SCREENSHOT_DIR, "ratings-player-ru.png"), full_page=True)
        browser.close()
    assert errors == []
