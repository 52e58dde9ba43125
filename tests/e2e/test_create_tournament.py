"""The create page in real Chromium: a director picks a preset card, sees only the fields of its format and
seating, is told at once beside the field when a value is wrong, orders the tie-breaks by keyboard and by
dragging (a mouse, then a finger), submits, and the tournament has those values."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from accounts.roles import Role
from accounts.services import user_role_grant, user_sign_up
from tests.e2e.browsing import PASSWORD, chromium, log_in
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _order(page: Page) -> list[str]:
    return page.locator("[data-tiebreak-list] li").evaluate_all("items => items.map(item => item.dataset.code)")


def _touch_drag(page: Page, grip: Locator, onto: Locator) -> None:
    """A finger put on ``grip``, moved to the top edge of ``onto`` and lifted (Chrome's touch input)."""
    start, end = grip.bounding_box(), onto.bounding_box()
    assert start is not None and end is not None
    x, y = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    touch = page.context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 13):
        moved = y + (end["y"] + 3 - y) * step / 12
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": moved}]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def _create(base: str, chromium_path: str) -> list[str]:
    """Drive the page; returns the page's script errors (the database is read once the browser is closed:
    Playwright's sync API runs an event loop, and Django refuses database calls beside one)."""
    errors: list[str] = []
    with chromium(chromium_path) as browser:
        context = browser.new_context(locale="en-GB", viewport={"width": 1366, "height": 900}, has_touch=True)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        log_in(page, base, "maker")
        page.goto(f"{base}/tournaments/new/")
        # Heads-up Swiss: its rounds show; the table size, the team size and the places' points do not.
        expect(page.locator("#id_rounds")).to_be_visible()
        for hidden in ("#id_table_size", "#id_team_size", "#id_place_points", "#id_final_starts_at"):
            expect(page.locator(hidden)).to_be_hidden()
        page.locator("[data-preset=blitz]").click()
        expect(page.locator("#id_rounds")).to_have_value("11")
        expect(page.locator("#id_clock_base")).to_be_visible()
        expect(page.locator("#id_turn_seconds")).to_be_hidden()
        # A round robin has no Swiss rounds; tables show their size and their places' points instead.
        page.locator("#id_format").select_option("round-robin")
        expect(page.locator("#id_rounds")).to_be_hidden()
        page.locator("#id_seating").select_option("tables")
        expect(page.locator("#id_table_size")).to_be_visible()
        expect(page.locator("#id_points_win")).to_be_hidden()
        expect(page.locator("#id_seating").locator("xpath=..").locator(".error")).to_contain_text("not at tables")
        page.locator("#id_seating").select_option("heads-up")
        page.locator("#id_format").select_option("swiss")
        expect(page.locator("#id_seating").locator("xpath=..").locator(".error")).to_have_count(0)
        # A wrong value is told at once, beside its field.
        page.locator("#id_points_draw").fill("3")
        expect(page.locator("#id_points_draw").locator("xpath=..").locator(".error")).to_contain_text(
            "worth more than a draw"
        )
        page.locator("#id_points_draw").fill("0.5")
        expect(page.locator("#id_points_draw").locator("xpath=..").locator(".error")).to_have_count(0)
        page.locator("#id_name").fill("Friday Blitz")
        # Tie-breaks: the first moved down by the keyboard, then the last dragged to the top.
        first = _order(page)
        assert first[:2] == ["buchholz_cut1", "buchholz"]
        page.get_by_role("button", name="Move down: Buchholz cut 1").focus()
        page.keyboard.press("Enter")
        assert _order(page)[:2] == ["buchholz", "buchholz_cut1"]
        items = page.locator("[data-tiebreak-list] li")
        last, top = items.last.locator(".grip").bounding_box(), items.first.bounding_box()
        assert last is not None and top is not None
        page.mouse.move(last["x"] + 4, last["y"] + 4)
        page.mouse.down()
        page.mouse.move(top["x"] + 20, top["y"] + top["height"] / 2, steps=12)
        page.mouse.move(top["x"] + 20, top["y"] + 3, steps=4)
        page.mouse.up()
        expected = ["wins", "buchholz", "buchholz_cut1", *first[2:-1]]
        assert _order(page) == expected, _order(page)
        # And by a finger (real touch events, which Chromium turns into pointer events): the last to second place.
        _touch_drag(page, items.last.locator(".grip"), items.nth(1))
        expected = [expected[0], expected[-1], *expected[1:-1]]
        assert _order(page) == expected, _order(page)
        page.get_by_role("button", name="Open registration").click()
        expect(page.locator("h1")).to_have_text("Friday Blitz")
    return errors


def test_a_director_creates_a_blitz_from_its_card_and_orders_the_tie_breaks(
    live_server_url: str, chromium_path: str
) -> None:
    maker = user_sign_up(username="maker", email="maker@example.com", password=PASSWORD, preferred_language="en")
    user_role_grant(user=maker, role=Role.TOURNAMENT_DIRECTOR)
    errors = _create(live_server_url, chromium_path)
    event = Tournament.objects.get(name="Friday Blitz")
    assert (event.format, event.rounds_planned, event.seating) == ("swiss", 11, "heads-up")
    assert (event.clock_base, event.clock_increment, event.round_interval, event.grace_seconds) == (60, 1, 30, 60)
    assert event.tiebreaks == [
        "wins",
        "direct_encounter",
        "buchholz",
        "buchholz_cut1",
        "sonneborn_berger",
        "progressive",
    ]
    assert errors == [], f"a page's script failed: {errors}"
