"""Game review in real Chromium against Daphne, with the real search (issue 34): a player who took every attack
against a bot gives the game up on its page, opens its replay from the result, asks for the analysis there and
watches its progress come over the socket; once it is done the page draws it (each player's accuracy and the
graph), the first marked decision opens with the better move named and its card pointed at, and the arrow keys
step the replay from there."""

from __future__ import annotations

import json
import random
import time
from typing import Any
from unittest import mock

import pytest
from playwright.sync_api import Browser, Page, expect

from games.models import Game
from games.services import actions, tables
from review.models import AnalysisStatus, GameAnalysis
from tests.e2e.browsing import in_thread, log_in
from tests.e2e.table_states import (
    DESKTOP, PHONE, PODKIDNOY, bot_moves, fresh, kind, game_against_bot, move, person,
    screenshot_dir,
)  # fmt: skip

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYER_MOVES = 14  # the player's moves made through the services before the page gives the game up
# The deal and the easy bot's draws are fixed: on a random deal about one game in twelve gives nothing away that
# the analysis marks (measured over 12 deals, each analysed with 3 seeds); this one gives marks under every seed.
DEAL_SEED, BOT_SEED = "review-3", 3


def _throwing_it_away(actions: list[Any]) -> Any:
    """Take every attack; lead and throw in the highest cards (the engine lists the lowest first)."""
    for wanted in ("take", "pass"):
        for action in actions:
            if kind(action) == wanted:
                return action
    return actions[-1]


def _a_game_thrown_away(name: str, language: str) -> tuple[Any, Game]:
    """A heads-up podkidnoy game against the easy bot where the player took every attack and led his highest
    cards: decisions the analysis marks (on a fixed deal, the bot's draws fixed). It is still being played."""
    player = person(name, language=language)
    with (
        mock.patch.object(tables, "shuffle_seed", lambda: DEAL_SEED),
        mock.patch.object(actions, "bot_rng", lambda: random.Random(BOT_SEED)),  # each move draws from the seed
    ):
        game = bot_moves(game_against_bot(player, rules=PODKIDNOY, first_attacker=1))
        for _ in range(PLAYER_MOVES):
            if fresh(game).status != "playing":
                break
            game = move(game, player, _throwing_it_away)
    assert fresh(game).status == "playing", "the game ended before the page could give it up"
    return player, game


def _frame(payload: Any) -> str:
    """A socket frame in brief: its type, and a view's version, status and whether it has a result."""
    try:
        message = json.loads(payload)
    except (TypeError, ValueError):
        return repr(payload)[:80]
    if not isinstance(message, dict):
        return repr(message)[:80]
    brief = {key: message.get(key) for key in ("type", "seq", "status", "code", "message") if key in message}
    if message.get("type") == "game.view":
        brief["result"] = message.get("result") is not None
    return json.dumps(brief, ensure_ascii=False)


def _shot(page: Page, name: str) -> None:
    page.screenshot(path=str(screenshot_dir() / f"review-{name}.png"), full_page=True)


@pytest.mark.timeout(420)
@pytest.mark.parametrize(("language", "viewport"), [("en", DESKTOP), ("ru", PHONE)], ids=["en-desktop", "ru-phone"])
def test_a_player_asks_for_the_analysis_after_his_game_and_steps_from_his_first_marked_decision(
    language: str, viewport: Any, browser: Browser, live_server_url: str, quiet_test_process: None
) -> None:
    player, game = in_thread(lambda: _a_game_thrown_away(f"review-{language}", language))
    context = browser.new_context(viewport=viewport, locale="ru-RU" if language == "ru" else "en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    heard: list[dict[str, Any]] = []

    game_frames: list[str] = []  # what the game's sockets carried, for the failure's message

    def listen(socket: Any) -> None:
        if "/ws/analysis/" in socket.url:
            socket.on("framereceived", lambda payload: heard.append(json.loads(payload)))
        if "/ws/game/" in socket.url:
            socket.on("framesent", lambda payload: game_frames.append(f"sent {_frame(payload)}"))
            socket.on("framereceived", lambda payload: game_frames.append(f"received {_frame(payload)}"))
            socket.on("close", lambda _socket: game_frames.append("closed"))

    page.on("websocket", listen)
    log_in(page, live_server_url, player.username)

    # The game ends on its page: the player gives it up, and the result offers the replay.
    page.goto(f"{live_server_url}/play/game/{game.pk}/")
    expect(page.locator("[data-part=connection]")).to_have_attribute("data-state", "connected")
    # A click that comes as a second view of the same version re-renders the phone's table can land on nothing
    # (seen once in several CI runs: no surrender frame was sent); the player would tap again, and so does this.
    page.on("dialog", lambda dialog: dialog.accept())
    for _ in range(3):
        page.locator("[data-part=surrender]").click()
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and not any('"surrender"' in frame for frame in game_frames):
            page.wait_for_timeout(100)
        if any('"surrender"' in frame for frame in game_frames) or not page.locator("[data-part=surrender]").is_visible():
            break
    try:
        expect(page.locator("[data-part=result]")).to_be_visible(timeout=30_000)
    except AssertionError as error:
        raise AssertionError(f"no result after the surrender; the game's sockets: {game_frames}") from error
    page.locator("[data-part=replay]").click()
    page.wait_for_url(f"**/play/game/{game.pk}/replay/**")
    expect(page.locator("canvas[data-part=chart]")).to_have_count(0)

    # The analysis is asked for on the replay; its progress comes over the socket; when done the page draws it.
    page.locator("[data-part=analysis-panel] button[type=submit]").click()
    expect(page.locator("[data-part=analysis-status]")).to_be_visible()
    expect(page.locator("canvas[data-part=chart]")).to_be_visible(timeout=300_000)
    progress = [message for message in heard if message.get("type") == "analysis.progress"]
    assert any(0 < message["done"] < message["total"] for message in progress), heard
    assert any(message.get("type") == "analysis.done" and message["status"] == "done" for message in heard), heard
    stored = in_thread(lambda: GameAnalysis.objects.get(game_id=game.pk))
    assert stored.status == AnalysisStatus.DONE and stored.requested_by_id == player.pk
    decisions = (stored.result or {"decisions": []})["decisions"]
    # The first marked decision of the first player who has one (the page links each player's first).
    marked = [decision for decision in decisions if decision["mark"] and decision["seat"] == 0] or [
        decision for decision in decisions if decision["mark"]
    ]
    assert marked, "neither the player who took every attack nor the easy bot gave anything away?"
    page.wait_for_function(
        "() => { const c = document.querySelector('canvas[data-part=chart]');"
        " if (!c || !c.width || !window.Chart || !window.Chart.getChart(c)) return false;"
        " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
        " let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n > 500; }"
    )
    accuracy = page.locator("[data-part=accuracy]")
    expect(accuracy).to_contain_text("%")
    _shot(page, f"done-{language}")

    # The first marked decision opens with the better move named and its card pointed at.
    first = marked[0]["ply"]
    page.locator("[data-part=first-marked]").first.click()
    page.wait_for_url(f"**?move={first}")
    board = page.locator("#replay-board")
    expect(board).to_have_attribute("data-move", str(first))
    best = page.locator("[data-part=best-move]")
    expect(best).to_be_visible()
    expect(best).to_contain_text("Лучше" if language == "ru" else "Better")
    assert page.locator(".replay-card.best").count() >= 1
    _shot(page, f"decision-{language}")

    # The arrow keys step the replay, and the address follows.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-move", str(first + 2))
    assert page.url.endswith(f"?move={first + 2}")
    page.keyboard.press("ArrowLeft")
    expect(board).to_have_attribute("data-move", str(first + 1))
    assert page.url.endswith(f"?move={first + 1}")
    context.close()
    assert errors == [], f"the page's script failed: {errors}"
