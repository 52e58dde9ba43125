"""A finished game's replay in real Chromium against Daphne: the arrow keys, Home/End and the slider step
through it and the address follows; ?move=N opens there; with an analysis the chance graph is drawn and a
marked move jumps to its decision, where the better move is named and its card is pointed at. On a phone
nothing is wider than the screen. With BROWSER_SCREENSHOT_DIR set, the pages are photographed there."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, Page, ViewportSize, expect

from games import services, views_replay
from games.bots.review import JudgedDecision, JudgedGame
from games.engine import load_record
from games.engine.cards import names
from games.models import Game
from tests.e2e.browsing import in_thread
from tests.games.factories import latest_game, person, table
from tests.ratings.helpers import play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1366, "height": 768}
SCREENSHOT_DIR = os.environ.get("BROWSER_SCREENSHOT_DIR")


def _shot(page: Page, name: str) -> None:
    if SCREENSHOT_DIR:
        page.screenshot(path=os.path.join(SCREENSHOT_DIR, f"{name}.png"), full_page=True)


def _finished_game() -> Game:
    first, second = person("replay-anna"), person("replay-boris")
    at = table(first, seats=2, turn_seconds=900, name="Replay table")
    services.table_join(table=at, user=first, seat=0)
    services.table_join(table=at, user=second, seat=1)
    game = play_out(latest_game(at))
    services.game_finalise(game_id=game.pk)
    game.refresh_from_db()
    return game


def _analysis(game: Game) -> tuple[dict[str, Any], int, str]:
    """An analysis with a blunder at the first lead of the second bout or later: (its JSON, its ply, the
    better card)."""
    actions = game.record["actions"]
    attacks = [index for index, action in enumerate(actions) if action["type"] == "attack"]
    ply = attacks[1] if len(attacks) > 1 else attacks[0]
    seat = actions[ply]["seat"]
    played = {key: value for key, value in actions[ply].items() if key != "seat"}
    hand = names(_hand_before(game, ply, seat))
    better = next(card for card in hand if card not in played["cards"])
    decisions = [
        JudgedDecision(ply=index, seat=action["seat"], played={k: v for k, v in action.items() if k != "seat"},
                 best={k: v for k, v in action.items() if k != "seat"}, before=0.5 + 0.001 * index,
                 after=0.5 + 0.001 * index, best_after=0.5 + 0.001 * index, forced=False, solved=False)
        for index, action in enumerate(actions) if index != ply
    ]  # fmt: skip
    decisions.insert(ply, JudgedDecision(ply=ply, seat=seat, played=played, best={"type": "attack", "cards": [better]},
                                   before=0.62, after=0.41, best_after=0.62, forced=False, solved=False))
    return JudgedGame(budget="default", players=2, decisions=tuple(decisions)).to_json(), ply, better


def _hand_before(game: Game, ply: int, seat: int) -> int:
    from games.engine import play

    record = load_record(game.record)
    state = record.initial_state()
    for turn, action in record.actions[:ply]:
        play(state, turn, action)
    return state.hands[seat]


def _page(browser: Browser, viewport: ViewportSize, locale: str, errors: list[str]) -> Page:
    page = browser.new_context(viewport=viewport, locale=locale).new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def _move(page: Page) -> int:
    return int(page.locator("#replay-board").get_attribute("data-move") or "-1")


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"  # type: ignore[index]


def test_the_replay_steps_by_keys_and_slider_and_opens_at_move_n(live_server_url: str, browser: Browser) -> None:
    game = in_thread(_finished_game)
    last = len(game.record["actions"])
    url = f"{live_server_url}{reverse('games:game-replay', args=[game.pk])}"
    errors: list[str] = []
    page = _page(browser, DESKTOP, "en-GB", errors)
    page.goto(f"{url}?move=3")
    expect(page.locator("#replay-board")).to_have_attribute("data-move", "3")
    expect(page.locator("[data-part=counter]")).to_have_text(f"Move 3 of {last}")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-board")).to_have_attribute("data-move", "4")
    assert page.url.endswith("?move=4")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-board")).to_have_attribute("data-move", "2")
    page.keyboard.press("Home")
    expect(page.locator("#replay-board")).to_have_attribute("data-move", "0")
    expect(page.locator("[data-part=line]")).to_have_text("The deal")
    # At the deal every hand is face up: six cards each, and the stock in its order.
    expect(page.locator(".replay-player .replay-hand .replay-card")).to_have_count(12)
    assert page.locator(".stock-order .replay-card").count() == 24
    assert page.locator(".stock-order .replay-card").last.get_attribute("data-card") == game.record["stock"][-1]
    page.keyboard.press("End")
    expect(page.locator("#replay-board")).to_have_attribute("data-move", str(last))
    expect(page.locator("[data-part=end]")).to_contain_text("is the durak")
    _shot(page, "replay-end-desktop-en")
    slider = page.locator("[data-part=slider]")
    slider.fill(str(last // 2))
    expect(page.locator("#replay-board")).to_have_attribute("data-move", str(last // 2))
    assert page.url.endswith(f"?move={last // 2}")
    # The move list: a click opens the position after that move.
    page.locator(".move-line[data-step='5']").click()
    expect(page.locator("#replay-board")).to_have_attribute("data-move", "5")
    _shot(page, "replay-desktop-en")
    phone = _page(browser, PHONE, "en-GB", errors)
    phone.goto(f"{url}?move={last // 2}")
    expect(phone.locator("#replay-board")).to_have_attribute("data-move", str(last // 2))
    _shot(phone, "replay-phone-en")
    _no_sideways_scroll(phone)
    phone.locator("[data-go=next]").click()
    expect(phone.locator("#replay-board")).to_have_attribute("data-move", str(last // 2 + 1))
    # In Russian: the counter, the court cards' letters (В, Д, К, Т) and the shuffle's check in words.
    for viewport, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
        russian = _page(browser, viewport, "ru-RU", errors)
        russian.goto(f"{url}?move={last // 2}")
        expect(russian.locator("[data-part=counter]")).to_have_text(f"Ход {last // 2} из {last}")
        expect(russian.locator("[data-part=shuffle-verdict]")).to_contain_text("колода не менялась во время игры")
        if viewport is PHONE:
            _no_sideways_scroll(russian)
        _shot(russian, f"replay-{label}-ru")
        russian.close()
    assert not errors, errors


def _serve_with_analysis(page: Page, game: Game, analysis: dict[str, Any], language: str, url: str) -> None:
    """The replay page as the site renders it once the game has its analysis (the review app's storage is not
    there yet: the page is rendered in the test process with `analysis_json_for` answering, and served to the
    browser in place of Daphne's answer; its scripts and styles come from Daphne)."""
    original = views_replay.analysis_json_for
    views_replay.analysis_json_for = lambda of: analysis if of.pk == game.pk else None  # type: ignore[assignment]
    try:
        html = in_thread(
            lambda: Client().get(reverse("games:game-replay", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language).content
        )
    finally:
        views_replay.analysis_json_for = original
    page.route(f"{url}*", lambda route: route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html))


def test_the_analysis_graph_is_drawn_and_a_marked_move_opens_its_decision(
    live_server_url: str, browser: Browser
) -> None:
    game = in_thread(_finished_game)
    analysis, ply, better = _analysis(game)
    url = f"{live_server_url}{reverse('games:game-replay', args=[game.pk])}"
    errors: list[str] = []
    for viewport, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        for language, locale in (("en", "en-GB"), ("ru", "ru-RU")):
            page = _page(browser, viewport, locale, errors)
            _serve_with_analysis(page, game, analysis, language, url)
            page.goto(f"{url}?move=1")
            canvas = page.locator("canvas[data-part=chart]")
            expect(canvas).to_be_visible()
            page.wait_for_function("() => { const c = document.querySelector('canvas[data-part=chart]');"
                                   " return c && c.width > 0 && window.Chart && window.Chart.getChart(c); }")
            drawn = page.evaluate(
                "() => { const c = document.querySelector('canvas[data-part=chart]');"
                " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
                " let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n; }"
            )
            assert drawn > 500, "the graph is drawn on its canvas"
            mark = page.locator(f".move-mark[data-decision='{ply}']")
            expect(mark).to_have_text("??")
            mark.click()
            expect(page.locator("#replay-board")).to_have_attribute("data-move", str(ply))
            best = page.locator("[data-part=best-move]")
            expect(best).to_be_visible()
            if language == "en":
                expect(best).to_contain_text("Better: lead")
            expect(page.locator(f".replay-player .replay-card.best[data-card='{better}']")).to_be_visible()
            assert page.url.endswith(f"?move={ply}")
            if viewport is PHONE:
                _no_sideways_scroll(page)
            _shot(page, f"replay-analysis-{label}-{language}")
            # A point of the graph opens its decision too.
            page.keyboard.press("End")
            expect(page.locator("#replay-board")).to_have_attribute("data-move", str(len(game.record["actions"])))
            canvas.scroll_into_view_if_needed()
            box = canvas.bounding_box()
            assert box is not None
            point = page.evaluate(
                "(ply) => { const chart = window.Chart.getChart(document.querySelector('canvas[data-part=chart]'));"
                " for (const [i, set] of chart.data.datasets.entries()) { const j = set.data.findIndex((p) => p.ply === ply);"
                " if (j >= 0) { const e = chart.getDatasetMeta(i).data[j]; return {x: e.x, y: e.y}; } } return null; }",
                ply,
            )
            assert point is not None
            page.mouse.click(box["x"] + point["x"], box["y"] + point["y"])
            expect(page.locator("#replay-board")).to_have_attribute("data-move", str(ply))
            page.close()
    assert not errors, errors


def test_the_analysis_board_refuses_a_bad_record_in_words_and_keeps_it(live_server_url: str, browser: Browser) -> None:
    errors: list[str] = []
    pasted = '{"rules": {"deck": 36}, "players": 2, "hands": [["6S", "XX"], ["7S"]], "stock": []}'
    for viewport, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        for locale, expected in (("en-GB", "“XX” is not a card"), ("ru-RU", "«XX» — не карта")):
            page = _page(browser, viewport, locale, errors)
            page.goto(f"{live_server_url}/analysis/")
            page.locator("#record").fill(pasted)
            page.locator("form.record-form button[type=submit]").click()
            expect(page.locator("[data-part=record-problem]")).to_contain_text(expected)
            expect(page.locator("#record")).to_have_value(pasted)
            if viewport is PHONE:
                _no_sideways_scroll(page)
            _shot(page, f"analysis-board-error-{label}-{locale[:2]}")
            page.close()
    # A move the rules refuse: said in words, and the moves before it can be stepped through.
    hands = [["6S", "9S", "JH", "QH", "7C", "AS"], ["7S", "8S", "10D", "JD", "6H", "KC"]]
    deck = [rank + suit for suit in "CDHS" for rank in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    record = {
        "rules": {"deck": 36}, "players": 2, "hands": hands, "first_attacker": 0,
        "stock": [card for card in deck if not any(card in hand for hand in hands)],
        "actions": [{"seat": 0, "type": "attack", "cards": ["9S"]}, {"seat": 1, "type": "cover", "attack": "9S", "card": "7S"}],
    }  # fmt: skip
    for viewport, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        for locale, expected in (("en-GB", "Move 2 is not allowed: 7♠ does not beat 9♠."),
                                 ("ru-RU", "Ход 2 не по правилам: 7♠ не бьёт 9♠.")):  # fmt: skip
            page = _page(browser, viewport, locale, errors)
            page.goto(f"{live_server_url}/analysis/")
            page.locator("#record").fill(json.dumps(record))
            page.locator("form.record-form button[type=submit]").click()
            expect(page.locator("[data-part=record-problem]")).to_have_text(expected)
            expect(page.locator("#replay-board")).to_have_attribute("data-move", "1")
            expect(page.locator("[data-part=counter]")).not_to_be_empty()  # the script has started
            page.keyboard.press("Home")
            expect(page.locator("#replay-board")).to_have_attribute("data-move", "0")
            expect(page.locator(".replay-player .replay-card")).to_have_count(12)
            if viewport is PHONE:
                _no_sideways_scroll(page)
            _shot(page, f"analysis-board-illegal-{label}-{locale[:2]}")
            page.close()
    assert not errors, errors
