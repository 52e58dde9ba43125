"""The game table on one screen, in real Chromium against Daphne, at four sizes (a 390x844 and a 360x640 phone,
a phone on its side at 844x390, a 1366x768 desktop) and in English and Russian: at the first lead, an attack to
answer, a covered attack, a hand of 20 after many takes, a transfer offered at a perevodnoy table and the end,
every opponent's panel, the felt, the trump and the stock, the player's panel, every card of his hand and every
button lie inside the viewport with nothing to scroll, and every card of the hand shows a strip of at least
40 px that a tap at its middle reaches. Each state is photographed into screenshot_dir() (the path is printed);
with README_SCREENSHOTS=1 the cover state in English also goes to docs/screenshots/ for the README."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.browsing import in_thread, log_in
from tests.e2e.table_states import DESKTOP, PHONE, STATES, VIEWPORTS, open_game, screenshot_dir
from tests.processes import PROJECT_DIR

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MIN_TARGET_PX = 40

# Everything a player needs during play, measured in the page: boxes of the parts, of each card of the hand and
# each button, whether a tap at the middle of a card's strip reaches that card, and the page's scroll.
MEASURE = """() => {
  const box = (element) => { const r = element.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; };
  const shown = (element) => element && !element.closest('[hidden]') && element.getClientRects().length > 0;
  const parts = {};
  const add = (name, element) => { if (shown(element)) parts[name] = box(element); };
  document.querySelectorAll('.players .player').forEach((panel, i) => add(`opponent ${i}`, panel));
  // A part of a panel or a button is there only if a tap at its middle reaches it (not clipped, not covered).
  const blocked = [];
  const reach = (name, element) => { if (!shown(element)) return; const r = element.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(element.contains(hit) || hit.contains(element))) blocked.push(name); };
  document.querySelectorAll('.players .player .role:not(.role-none), .players .player .card-count, .players .player-name')
    .forEach((element, i) => { add(`opponent part ${i}`, element); reach(`opponent part ${element.className} ${i}`, element); });
  document.querySelectorAll('.me .player .role:not(.role-none), .me .player .card-count, .me .player-name')
    .forEach((element, i) => reach(`own part ${element.className} ${i}`, element));
  add('felt', document.querySelector('.felt'));
  add('table', document.querySelector('[data-part=table]'));
  add('stock', document.querySelector('.stock-pile'));
  add('trump card', document.querySelector('.stock-pile .trump-card'));
  add('trump', document.querySelector('[data-part=trump]'));
  add('stock count', document.querySelector('[data-part=stock-count]'));
  add('me', document.querySelector('.me .player'));
  add('status', document.querySelector('.status'));
  document.querySelectorAll('.pair .card-svg').forEach((card, i) => add(`table card ${i}`, card));
  document.querySelectorAll('[data-action], [data-part=surrender], [data-part=redeal]')
    .forEach((button, i) => { add(`button ${button.dataset.action || button.dataset.part} ${i}`, button);
      reach(`button ${button.dataset.action || button.dataset.part}`, button); });
  reach('trump', document.querySelector('[data-part=trump]'));
  reach('stock count', document.querySelector('[data-part=stock-count]'));
  const hand = [...document.querySelectorAll('.hand .hand-card')].map((card) => {
    const r = card.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {card: card.dataset.card, ...box(card), reached: !!hit && hit.closest('.hand-card') === card};
  });
  const result = document.querySelector('[data-part=result]');
  // What reaches past the right edge, to say why the page would scroll sideways.
  const wide = [...document.querySelectorAll('body *')].filter((element) => element.getBoundingClientRect().right > innerWidth + 0.5)
    .slice(0, 8).map((element) => `${element.tagName.toLowerCase()}.${element.className && element.className.baseVal === undefined ? element.className : ''}@${element.getBoundingClientRect().right}`);
  return {parts, hand, blocked, wide, result: shown(result) ? box(result) : null, scrollY: window.scrollY,
          scrollHeight: document.scrollingElement.scrollHeight, width: innerWidth, height: innerHeight,
          scrollWidth: document.scrollingElement.scrollWidth};
}"""


def _open_the_log(page: Page) -> dict[str, Any]:
    """Open the log's drawer from the bar with a click on its summary: where it lies, how it scrolls, its text."""
    page.locator(".game-log > summary").click()
    return dict(
        page.evaluate(
            """() => { const body = document.querySelector('.game-log .drawer-body'); const r = body.getBoundingClientRect();
               return {top: r.top, bottom: r.bottom, lines: body.querySelectorAll('li').length, text: body.textContent,
                       scrollTop: body.scrollTop, clientHeight: body.clientHeight, scrollHeight: body.scrollHeight}; }"""
        )
    )


def _outside(measured: dict[str, Any]) -> list[str]:
    width, height = measured["width"], measured["height"]
    boxes = dict(measured["parts"])
    boxes.update({f"hand card {card['card']}": card for card in measured["hand"]})
    return [
        f"{name} at {box['left']:.0f},{box['top']:.0f}-{box['right']:.0f},{box['bottom']:.0f}"
        for name, box in boxes.items()
        if box["left"] < -0.5 or box["top"] < -0.5 or box["right"] > width + 0.5 or box["bottom"] > height + 0.5
    ]


def _summary(state: str, viewport: str, measured: dict[str, Any]) -> str:
    hand = measured["hand"]
    parts = measured["parts"]
    narrowest = min((card["width"] for card in hand), default=0)
    lowest = max((box["bottom"] for box in [*parts.values(), *hand]), default=0)
    felt = parts.get("felt", {"height": 0})
    hand_top = min((card["top"] for card in hand), default=0)
    buttons = [name for name in parts if name.startswith("button")]
    return (
        f"{state:9} {viewport:16} hand {len(hand):2} cards from y={hand_top:.0f}, narrowest strip {narrowest:.0f} px;"
        f" felt {felt['height']:.0f} px high; lowest box y={lowest:.0f} of {measured['height']};"
        f" buttons {len(buttons)}; scrollHeight {measured['scrollHeight']}"
    )


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("state", list(STATES))
def test_the_whole_table_is_on_one_screen(
    state: str, language: str, browser: Browser, live_server_url: str, quiet_test_process: None
) -> None:
    player, game = in_thread(lambda: STATES[state](f"layout-{state}-{language}", language))
    folder = screenshot_dir()
    print(f"\nscreenshots: {folder}")
    errors: list[str] = []
    for name, viewport in VIEWPORTS.items():
        context = browser.new_context(viewport=viewport, locale="ru-RU" if language == "ru" else "en-GB")
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        log_in(page, live_server_url, player.username)
        open_game(page, live_server_url, game)
        measured = page.evaluate(MEASURE)
        page.screenshot(path=str(folder / f"table-{state}-{name}-{language}.png"))
        if os.environ.get("README_SCREENSHOTS") == "1" and state == "cover" and language == "en":
            if viewport in (PHONE, DESKTOP):
                target = (
                    Path(PROJECT_DIR)
                    / "docs"
                    / "screenshots"
                    / f"table-{'phone' if viewport == PHONE else 'desktop'}.png"
                )
                target.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(target))
        print(_summary(state, name, measured))
        log = _open_the_log(page) if state in ("cover", "take") else None
        if log is not None:
            page.screenshot(path=str(folder / f"table-{state}-{name}-{language}-log.png"))
        context.close()
        if log is not None:
            assert log["lines"] >= 2, f"{name}: {log}"
            assert log["top"] >= 0 and log["bottom"] <= measured["height"] + 0.5, f"{name}: the log drawer at {log}"
            assert log["scrollTop"] + log["clientHeight"] >= log["scrollHeight"] - 1, (
                f"{name}: the log opens at its end"
            )
            if language == "ru":
                assert not any(f"{rank}{suit}" in log["text"] for rank in "JQKA" for suit in "♠♣♦♥"), log["text"]

        assert measured["scrollY"] == 0
        assert measured["scrollHeight"] <= measured["height"], f"{name}: the page scrolls ({measured['scrollHeight']})"
        assert measured["scrollWidth"] <= measured["width"], f"{name}: the page scrolls sideways: {measured['wide']}"
        assert errors == [], f"the page's script failed: {errors}"
        if state == "end":
            assert measured["result"] is not None, f"{name}: no result shown"
            result = measured["result"]
            assert result["top"] >= 0 and result["bottom"] <= measured["height"] + 0.5
            continue
        assert not _outside(measured), f"{name}: outside the viewport: {_outside(measured)}"
        assert measured["blocked"] == [], f"{name}: clipped or covered: {measured['blocked']}"
        expected = {"start": 6, "attack": 6, "cover": 5, "transfer": 6}.get(state)
        if expected is not None:
            assert len(measured["hand"]) == expected, f"{name}: {len(measured['hand'])} cards in the hand"
        else:
            assert len(measured["hand"]) >= 20
        for card in measured["hand"]:
            assert card["width"] >= MIN_TARGET_PX, f"{name}: {card['card']} shows only {card['width']:.0f} px"
            assert card["reached"], f"{name}: a tap at the middle of {card['card']} reaches another element"
        parts = measured["parts"]
        assert "table" in parts and "me" in parts and "opponent 0" in parts
        assert "trump" in parts and "stock count" in parts
        if state in ("start", "attack", "cover", "transfer"):
            assert "stock" in parts and "trump card" in parts
        buttons = {name.split()[1] for name in parts if name.startswith("button")}
        assert "surrender" in buttons
        wanted = {"attack": {"take"}, "take": {"take"}, "cover": {"pass"}, "transfer": {"take"}}.get(state, set())
        assert wanted <= buttons, f"{name}: buttons {buttons}"
