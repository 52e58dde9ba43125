"""A clock game against a bot in real Chromium against Daphne: the lobby's form shows the clock's fields once
the clock is chosen, the game page shows two clocks (static/games/clocks.js), the player's counts down while
the game waits for him and stands still once he has moved (with the increment added), while the bot's runs.

The bot answers within milliseconds, so the test routes the page's socket through itself and holds back
what comes after the view that answers the player's move: the page then shows that view for as long as the
test looks at it.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from tests.e2e.browsing import in_thread, log_in
from tests.e2e.test_play_a_game import DESKTOP, _one_move, _screenshot, _seq
from tests.games.factories import person

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _seconds(text: str) -> int:
    minutes, seconds = re.match(r"(\d+):(\d\d)", text).groups()  # type: ignore[union-attr]
    return int(minutes) * 60 + int(seconds)


def _my_clock(page: Page) -> Any:
    return page.locator(".me .player .clock")


def _bot_clock(page: Page) -> Any:
    return page.locator(".players .player .clock")


def test_a_clock_game_against_a_bot_shows_two_clocks_that_run_on_their_owners_move(
    browser: Browser, live_server_url: str, tasks_run: None
) -> None:
    in_thread(lambda: person("clock-player"))
    page = browser.new_context(viewport=DESKTOP, locale="en-GB").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, live_server_url, "clock-player")
    page.goto(f"{live_server_url}/play/")

    # The per-move timer's field shows until the clock is chosen; then the base and the increment do.
    expect(page.get_by_label("Time per turn")).to_be_visible()
    expect(page.get_by_label("Base time in minutes")).to_be_hidden()
    page.get_by_label("Time control").select_option("clock")
    expect(page.get_by_label("Base time in minutes")).to_be_visible()
    expect(page.get_by_label("Increment in seconds")).to_be_visible()
    expect(page.get_by_label("Time per turn")).to_be_hidden()
    page.get_by_label("Table name").fill("Clock against the bot")
    page.get_by_label("Base time in minutes").fill("3")
    page.get_by_label("Increment in seconds").fill("2")
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("h1")).to_have_text("Clock against the bot")
    expect(page.locator(".table-page")).to_contain_text("clock 3+2")

    # The player's socket goes through the test, which may hold back what follows a view it names.
    hold: dict[str, Any] = {"after": None, "passed": False}

    def route(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()

        def forward(message: str | bytes) -> None:
            data = json.loads(message)
            after = hold["after"]
            if after is not None and data.get("type") == "game.view" and data["seq"] > after:
                if hold["passed"]:
                    return
                hold["passed"] = True
            socket.send(message)

        server.on_message(forward)

    page.route_web_socket(re.compile(r".*/ws/game/.*"), route)
    page.locator("#fill-level").select_option("easy")
    page.get_by_role("button", name="Fill with bots").click()
    page.wait_for_url("**/play/game/*/")
    expect(page.locator("[data-part=connection]")).to_have_text("Connected")
    expect(page.locator(".rules-words")).to_contain_text("clock 3+2")
    expect(page.locator(".player .clock")).to_have_count(2)
    expect(_my_clock(page)).to_have_text(re.compile(r"^\d+:\d\d$"))

    checked = False
    for _ in range(20):
        # His move: his clock runs (highlighted) and counts down, the bot's stands.
        expect(_my_clock(page)).to_have_class(re.compile(r"\brunning\b"), timeout=15_000)
        my_seat = page.evaluate("window.durakTable.message.seat")
        if my_seat not in page.evaluate("window.durakTable.message.clocks.running"):
            continue
        expect(_bot_clock(page)).not_to_have_class(re.compile(r"\brunning\b"))
        bot_before, mine_before = _bot_clock(page).text_content() or "", _seconds(_my_clock(page).text_content() or "")
        page.wait_for_timeout(1300)
        mine_later = _seconds(_my_clock(page).text_content() or "")
        assert mine_later < mine_before, (mine_before, mine_later)
        assert _bot_clock(page).text_content() == bot_before
        if not checked:
            _screenshot(page, "clock-game-his-move")

        # He moves; the test holds back what follows the view that answers it.
        seq = _seq(page)
        hold["after"], hold["passed"] = seq, False
        if not _one_move(page):
            hold["after"] = None
            continue
        page.wait_for_function(f"window.durakTable.message.seq > {seq}", timeout=10_000)
        running = page.evaluate("window.durakTable.message.clocks.running")
        if my_seat in running:  # still his move (one card of two covered): look again at the next one
            hold["after"] = None
            page.evaluate("window.durakTable.send({type: 'sync'})")
            continue
        expect(_my_clock(page)).not_to_have_class(re.compile(r"\brunning\b"))
        expect(_bot_clock(page)).to_have_class(re.compile(r"\brunning\b"))
        stopped = _seconds(_my_clock(page).text_content() or "")
        # The increment came with his move: about two seconds more than his clock showed as he moved.
        assert mine_later <= stopped <= mine_later + 3, (mine_later, stopped)
        bot_then = _seconds(_bot_clock(page).text_content() or "")
        page.wait_for_timeout(1300)
        assert _seconds(_my_clock(page).text_content() or "") == stopped  # his clock stands still
        assert _seconds(_bot_clock(page).text_content() or "") < bot_then  # the bot's runs
        checked = True
        break
    assert checked, "the player never had a move that handed the turn to the bot"

    # Let the game go on: the clocks follow the next views.
    hold["after"] = None
    page.evaluate("window.durakTable.send({type: 'sync'})")
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and page.evaluate("window.durakTable.message.seq") <= seq + 1:
        page.wait_for_timeout(100)
    expect(page.locator(".player .clock")).to_have_count(2)
    assert errors == [], f"the page's script failed: {errors}"
