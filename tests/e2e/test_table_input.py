"""Playing the table by hand in real Chromium against Daphne and a bot: a whole game by dragging cards with a
finger on a 390x844 phone (touch events, no click on a card), a whole game from the keyboard alone on a desktop
(no mouse at all), and the motion: right after a move the moved card is animated, and with reduced motion
nothing animates."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import Browser, CDPSession, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e.browsing import in_thread, log_in
from tests.e2e.table_states import DESKTOP, PHONE, open_game, state_start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAME_TIMEOUT_S = 300
TAP_WAIT_MS = 600
WAAPI = "a => a.constructor.name === 'Animation'"  # the table's own motion, not a CSS pulse or transition


def _seq(page: Page) -> int:
    return int(page.evaluate("window.durakTable.message.seq"))


def _finished(page: Page) -> bool:
    return bool(page.evaluate("!!window.durakTable.message.result || window.durakTable.message.status === 'finished'"))


def _wait_for_change(page: Page, seq: int) -> None:
    try:
        page.wait_for_function(
            f"window.durakTable.message.seq !== {seq} || !!window.durakTable.message.result"
            " || !document.querySelector('[data-part=error]').hidden",
            timeout=10_000,
        )
    except PlaywrightTimeoutError:
        pass


def _centre(page: Page, selector: str) -> tuple[float, float] | None:
    box = page.evaluate(
        """(selector) => { const element = document.querySelector(selector); if (!element || element.hidden) return null;
           const r = (element.querySelector(':scope > .card-svg') || element).getBoundingClientRect();
           return r.width ? [r.left + r.width / 2, r.top + r.height / 2] : null; }""",
        selector,
    )
    return (box[0], box[1]) if box else None


def _touch(cdp: CDPSession, kind: str, x: float | None = None, y: float | None = None) -> None:
    points = [] if x is None or y is None else [{"x": x, "y": y, "id": 1}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def _touch_drag(page: Page, cdp: CDPSession, card: str) -> str | None:
    """Press a card with a finger, move it until the drop places light up, move onto the best of them and lift:
    an attack card to cover, the transfer zone, or the table. Returns the kind of place it was dropped on."""
    start = _centre(page, f'.hand-card[data-card="{card}"]')
    if start is None:
        return None
    x, y = start
    _touch(cdp, "touchStart", x, y)
    for step in range(1, 5):
        _touch(cdp, "touchMove", x, y - 6 * step)
    places = page.evaluate(
        """() => [...document.querySelectorAll('.drop-target')].map((element) =>
             element.classList.contains('attack-card') ? 'cover' : element.dataset.part)"""
    )
    choice = next((kind for kind in ("cover", "transfer-zone", "table") if kind in places), None)
    selector = {
        "cover": ".attack-card.drop-target",
        "transfer-zone": "[data-part=transfer-zone]",
        "table": "[data-part=table]",
    }
    end = _centre(page, selector[choice]) if choice else None
    if end is None:
        _touch(cdp, "touchEnd")
        return None
    if choice == "table":
        # The middle of the table may be an attack card; its lower left corner is felt.
        box = page.locator("[data-part=table]").bounding_box()
        assert box is not None
        end = (box["x"] + 6, box["y"] + box["height"] - 6)
    steps = 6
    for step in range(1, steps + 1):
        _touch(cdp, "touchMove", x + (end[0] - x) * step / steps, y - 24 + (end[1] - y + 24) * step / steps)
    _touch(cdp, "touchEnd")
    return choice


def _tap(page: Page, cdp: CDPSession, selector: str) -> int:
    """Tap the button with a finger until the table sends its move; returns the taps it took (0: no button).

    Headless Chromium drops the click of a tap that comes within about 0.4 s of the end of a drag (the touch
    events arrive, no click follows; measured: a pause of 0.4 s before each tap, or a second tap, always
    worked). A person's tap comes later than that, so the tap is made again when no move was sent within
    `TAP_WAIT_MS`, instead of waiting `_wait_for_change`'s 10 s for a move that was never sent."""
    seq = _seq(page)
    for taps in range(1, 4):
        centre = _centre(page, selector)
        if centre is None:
            return taps - 1
        _touch(cdp, "touchStart", *centre)
        _touch(cdp, "touchEnd")
        try:
            page.wait_for_function(f"window.durakTable.pendingSeq === {seq} || window.durakTable.message.seq !== {seq}",
                                   timeout=TAP_WAIT_MS)
            return taps
        except PlaywrightTimeoutError:
            continue
    return 3


def test_a_whole_game_is_played_by_dragging_cards_with_a_finger(
    browser: Browser, live_server_url: str, quiet_test_process: None
) -> None:
    player, game = in_thread(lambda: state_start("dragging-finger"))
    context = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True, is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, live_server_url, player.username)
    open_game(page, live_server_url, game)
    cdp = context.new_cdp_session(page)
    page.evaluate("""() => { window.pointerKinds = new Set();
        document.addEventListener('pointerdown', (event) => window.pointerKinds.add(event.pointerType), true); }""")
    drops: dict[str, int] = {}
    returned = 0
    taps_again = 0
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while not _finished(page):
        assert time.monotonic() < deadline, f"no result after {GAME_TIMEOUT_S} s, drops {drops}"
        seq = _seq(page)
        legal = page.evaluate("window.durakTable.legal.map((action) => action.type)")
        if "pass" in legal:
            taps_again += max(0, _tap(page, cdp, "[data-action=pass]") - 1)
        elif page.locator(".hand-card.playable").count():
            card = page.locator(".hand-card.playable").first.get_attribute("data-card")
            assert card is not None
            dropped = _touch_drag(page, cdp, card)
            if dropped is None:
                returned += 1
                if "take" in legal:
                    taps_again += max(0, _tap(page, cdp, "[data-action=take]") - 1)
            else:
                drops[dropped] = drops.get(dropped, 0) + 1
        elif "take" in legal:
            taps_again += max(0, _tap(page, cdp, "[data-action=take]") - 1)
        else:
            page.wait_for_timeout(50)
            continue
        _wait_for_change(page, seq)
    expect(page.locator("[data-part=result]")).to_be_visible(timeout=30_000)
    assert drops.get("table", 0) >= 1 and sum(drops.values()) >= 5, drops
    assert page.evaluate("[...window.pointerKinds]") == ["touch"]
    assert errors == [], f"the page's script failed: {errors}"
    print(f"\ndrops by place: {drops}, drags without a place: {returned}, taps made again: {taps_again}")


def test_an_invalid_drop_returns_the_card_to_the_hand(
    browser: Browser, live_server_url: str, quiet_test_process: None
) -> None:
    player, game = in_thread(lambda: state_start("dropping-astray"))
    page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    log_in(page, live_server_url, player.username)
    open_game(page, live_server_url, game)
    card = page.locator(".hand-card.playable").first
    home = card.bounding_box()
    assert home is not None
    name = card.get_attribute("data-card")
    page.mouse.move(home["x"] + home["width"] / 2, home["y"] + 20)
    page.mouse.down()
    page.mouse.move(home["x"] + home["width"] / 2, home["y"] - 30, steps=4)
    assert page.locator("[data-part=table].drop-target").count() == 1  # the lead may go on the table
    status = page.locator(".status").bounding_box()
    assert status is not None
    page.mouse.move(status["x"] + 20, status["y"] + 5, steps=6)  # the status line is no place for a card
    page.mouse.up()
    assert (
        page.evaluate(
            f"document.querySelector('.hand-card[data-card=\"{name}\"]').getAnimations().filter({WAAPI}).length"
        )
        > 0
    )
    page.wait_for_function("document.getAnimations().filter(a => a.constructor.name === 'Animation').length === 0")
    assert page.locator(".drop-target").count() == 0
    assert _seq(page) == 0 and page.locator(".pair").count() == 0
    back = page.locator(f'.hand-card[data-card="{name}"]').bounding_box()
    assert back is not None and abs(back["x"] - home["x"]) < 1 and abs(back["y"] - home["y"]) < 1


def _focused(page: Page) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => { const e = document.activeElement;
           return {card: e && e.dataset ? e.dataset.card || null : null, action: e && e.dataset ? e.dataset.action || null : null,
                   hand: !!(e && e.classList && e.classList.contains('hand-card') && e.classList.contains('playable')),
                   target: !!(e && e.classList && e.classList.contains('target'))}; }"""
        )
    )


def _tab_to_hand(page: Page) -> bool:
    for _press in range(40):
        if _focused(page)["hand"]:
            return True
        page.keyboard.press("Tab")
    return False


def test_a_whole_game_is_played_from_the_keyboard(
    browser: Browser, live_server_url: str, quiet_test_process: None
) -> None:
    player, game = in_thread(lambda: state_start("keyboard-player"))
    page = browser.new_context(viewport=DESKTOP, locale="en-GB").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, live_server_url, player.username, keyboard=True)  # typed and sent with Enter: no click
    open_game(page, live_server_url, game)
    page.evaluate("""() => { window.mouseClicks = 0;
        document.addEventListener('pointerdown', () => { window.mouseClicks += 1; }, true); }""")
    keys: dict[str, int] = {}
    deadline = time.monotonic() + GAME_TIMEOUT_S

    def press(key: str) -> None:
        page.keyboard.press(key)
        keys[key] = keys.get(key, 0) + 1

    while not _finished(page):
        assert time.monotonic() < deadline, f"no result after {GAME_TIMEOUT_S} s, keys {keys}"
        seq = _seq(page)
        legal = page.evaluate("window.durakTable.legal.map((action) => action.type)")
        if "pass" in legal:
            press("p")
        elif page.locator(".hand-card.playable").count() and _tab_to_hand(page):
            press("Enter")
            if _focused(page)["target"]:
                press("Enter")  # covers the attack card the focus went to
            elif _seq(page) == seq and page.evaluate("window.durakTable.pendingSeq") is None:
                # Several moves for this card: the focus went to the first of their buttons.
                if _focused(page)["action"] in {"attack", "throw", "transfer", "show_trump", "give", "duel"}:
                    press("Enter")
                elif "take" in legal:
                    press("Escape")
                    press("t")
        elif "take" in legal:
            press("t")
        else:
            page.wait_for_timeout(50)
            continue
        _wait_for_change(page, seq)
    expect(page.locator("[data-part=result]")).to_be_visible(timeout=30_000)
    assert keys.get("Enter", 0) >= 3, keys
    assert page.evaluate("window.mouseClicks") == 0
    assert errors == [], f"the page's script failed: {errors}"
    titles = page.evaluate("[...document.querySelectorAll('[aria-keyshortcuts]')].map((b) => b.title)")
    print(f"\nkeys pressed: {keys}; shortcut titles at the end: {titles}")


def test_the_take_and_pass_buttons_name_their_keys(
    browser: Browser, live_server_url: str, quiet_test_process: None
) -> None:
    from tests.e2e.table_states import state_attack

    player, game = in_thread(lambda: state_attack("shortcut-titles"))
    page = browser.new_context(viewport=DESKTOP, locale="en-GB").new_page()
    log_in(page, live_server_url, player.username)
    open_game(page, live_server_url, game)
    take = page.locator("[data-action=take]")
    assert take.get_attribute("title") == "Take (key T)"
    assert take.get_attribute("aria-keyshortcuts") == "T"
    seq = _seq(page)
    page.keyboard.press("t")
    _wait_for_change(page, seq)
    assert _seq(page) > seq
    # The key took: the game's record holds the take at that version (the page may already show the bot's
    # next lead, so it is asked of the record, not of the page).
    from games.models import Game

    record = in_thread(lambda: Game.objects.get(pk=game.pk).record)
    assert record["actions"][seq] == {"seat": 0, "type": "take"}


def _lead_and_watch(page: Page) -> tuple[str, int, int]:
    """Lead the first playable card (click, then its button) and look at the card as soon as it is on the table:
    how many of the table's own animations run on it, and on the whole page."""
    card = page.locator(".hand-card.playable").first
    name = card.get_attribute("data-card")
    assert name is not None
    card.click()
    page.locator("[data-action=attack]").click()
    page.wait_for_selector(f'.attack-card[data-card="{name}"]')
    on_card = page.evaluate(
        f"document.querySelector('.attack-card[data-card=\"{name}\"]').getAnimations().filter({WAAPI}).length"
    )
    on_page = page.evaluate("document.getAnimations().length")
    return name, on_card, on_page


def test_a_move_animates_the_card_it_moves(browser: Browser, live_server_url: str, quiet_test_process: None) -> None:
    player, game = in_thread(lambda: state_start("moving-cards"))
    page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    log_in(page, live_server_url, player.username)
    open_game(page, live_server_url, game)
    name, on_card, _on_page = _lead_and_watch(page)
    assert on_card > 0, f"{name} appeared on the table without moving"


def test_with_reduced_motion_nothing_moves(browser: Browser, live_server_url: str, quiet_test_process: None) -> None:
    player, game = in_thread(lambda: state_start("still-cards"))
    page = browser.new_context(viewport=PHONE, locale="en-GB", reduced_motion="reduce").new_page()
    log_in(page, live_server_url, player.username)
    page.goto(f"{live_server_url}/play/game/{game.pk}/")
    page.wait_for_function("window.durakTable && window.durakTable.message")
    assert page.evaluate("document.getAnimations().length") == 0  # not even the deal
    name, on_card, on_page = _lead_and_watch(page)
    assert (on_card, on_page) == (0, 0), f"{name}: {on_card} animations on the card, {on_page} on the page"
    # Nor when the bot answers: sample the page for a while after its move.
    page.wait_for_function("window.durakTable.message.seq >= 2", timeout=15_000)
    for _sample in range(10):
        assert (
            page.evaluate("document.getAnimations().length + document.querySelector('.motion-layer').childElementCount")
            == 0
        )
        page.wait_for_timeout(30)
