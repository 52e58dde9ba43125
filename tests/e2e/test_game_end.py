"""The end of a game in real Chromium against Daphne: a rated game against a bot played to the end shows each
player's rating change without a reload; a rematch against a bot starts the next game at once and the page goes
there; a rematch offered to a person is declined (the offerer is told, no game is dealt), then offered again,
accepted, and both pages land on the new game."""

from __future__ import annotations

import importlib
import re

import pytest
from django.apps import apps
from playwright.sync_api import Browser, Page, expect

from games import services
from games.engine import Rules
from games.models import Game, Seat
from tests.e2e.browsing import in_thread, log_in
from tests.e2e.test_play_a_game import DESKTOP, PHONE, _play_until_result
from tests.games.factories import latest_game, person, table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DELTA = re.compile(r"^(?:[+\u2212]\d+|\u00b10)$")


def _pools() -> None:
    """The rating pools of the data migration (a transactional test's flush removed them)."""
    importlib.import_module("ratings.migrations.0002_default_pools").create_pools(apps, None)


def _against_a_bot(name: str, *, rated: bool) -> Game:
    player = person(name)
    at = table(player, seats=2, rated=rated, turn_seconds=900, name=f"{name} table")
    services.table_join(table=at, user=player, seat=0)
    services.table_add_bot(table=at, level="easy", seat=1)
    return latest_game(at)


def _finished_between(names: tuple[str, ...], bots: tuple[int, ...] = ()) -> Game:
    """A game the first person gave up, finalised, made before the browser starts (Playwright's sync API
    runs an event loop, and Django refuses database calls from a thread that has one)."""
    people = [person(name) for name in names]
    seats = len(people) + len(bots)
    at = table(people[0], seats=seats, turn_seconds=900, name="Rematch table")
    humans = iter(people)
    for number in range(seats):
        if number in bots:
            services.table_add_bot(table=at, level="easy", seat=number)
        else:
            services.table_join(table=at, user=next(humans), seat=number)
    game = latest_game(at)
    services.game_surrender(game_id=game.pk, user=people[0])
    services.game_finalise(game_id=game.pk)
    game.refresh_from_db()
    return game


def _page(browser: Browser, live_server_url: str, name: str, errors: list[str], viewport: object = DESKTOP) -> Page:
    page = browser.new_context(viewport=viewport, locale="en-GB").new_page()  # type: ignore[arg-type]
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, live_server_url, name)
    return page


@pytest.fixture
def rated_game(live_server_url: str) -> Game:
    _pools()
    return _against_a_bot("end-rated", rated=True)


def test_a_rated_game_against_a_bot_shows_the_rating_change_without_a_reload(
    rated_game: Game, live_server_url: str, browser: Browser, tasks_run: None
) -> None:
    errors: list[str] = []
    page = _page(browser, live_server_url, "end-rated", errors, PHONE)
    page.goto(f"{live_server_url}/play/game/{rated_game.pk}/")
    expect(page.locator("[data-part=connection]")).to_have_text("Connected")
    page.evaluate("window.sameDocument = true")
    _play_until_result(page)

    deltas = page.locator("[data-part=places] .rating-delta")
    expect(deltas).to_have_count(2, timeout=30_000)
    texts = [text.strip() for text in deltas.all_text_contents()]
    assert all(DELTA.match(text) for text in texts), texts
    outcome = page.locator("[data-part=outcome]").text_content() or ""
    if "draw" not in outcome:
        assert {text[0] for text in texts} == {"+", "\u2212"}, texts  # one gains what the other loses
    expect(page.locator("[data-part=places] .rating-numbers").first).to_have_text(re.compile(r"^\d+ \u2192 \d+\??$"))
    assert page.evaluate("window.sameDocument === true"), "the page was reloaded"
    expect(page.locator("[data-part=rating-column]")).to_be_visible()
    expect(page.locator("[data-part=replay]")).to_have_attribute("href", f"/play/game/{rated_game.pk}/replay/")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "page scrolls sideways"
    assert errors == [], f"the page's script failed: {errors}"


@pytest.fixture
def bot_game(live_server_url: str) -> Game:
    return _finished_between(("end-solo",), bots=(1,))


def test_a_rematch_against_a_bot_starts_the_next_game_at_once(
    bot_game: Game, live_server_url: str, browser: Browser, tasks_run: None
) -> None:
    errors: list[str] = []
    page = _page(browser, live_server_url, "end-solo", errors)
    page.goto(f"{live_server_url}/play/game/{bot_game.pk}/")
    expect(page.locator("[data-part=result]")).to_be_visible()
    expect(page.locator("[data-part=rating-column]")).to_be_hidden()  # an unrated game says nothing of ratings
    expect(page.locator("[data-part=result-title]")).to_have_text("You are the durak")
    page.locator("[data-action=rematch-offer]").click()
    page.wait_for_url(re.compile(rf".*/play/game/(?!{bot_game.pk}/)\d+/$"))
    expect(page.locator("[data-part=connection]")).to_have_text("Connected")
    expect(page.locator(".hand .hand-card")).to_have_count(6)

    new = in_thread(lambda: Game.objects.exclude(pk=bot_game.pk).get(table_id=bot_game.table_id))
    assert page.url.endswith(f"/play/game/{new.pk}/")
    assert (new.rules, new.players, new.stake) == (bot_game.rules, bot_game.players, bot_game.stake)
    seats = in_thread(
        lambda: list(Seat.objects.filter(table_id=new.table_id).values_list("user__username", "bot_level"))
    )
    assert seats[0] == ("end-solo", "") and seats[1][1] == "easy"
    assert errors == [], f"the page's script failed: {errors}"


@pytest.fixture
def people_game(live_server_url: str) -> Game:
    return _finished_between(("end-anna", "end-boris"))


def test_a_rematch_offer_is_declined_then_offered_again_and_accepted(
    people_game: Game, live_server_url: str, browser: Browser
) -> None:
    errors: list[str] = []
    anna = _page(browser, live_server_url, "end-anna", errors)
    boris = _page(browser, live_server_url, "end-boris", errors, PHONE)
    watcher = browser.new_context(viewport=PHONE, locale="en-GB").new_page()  # nobody signed in
    watcher.on("pageerror", lambda error: errors.append(str(error)))
    for page in (anna, boris, watcher):
        page.goto(f"{live_server_url}/play/game/{people_game.pk}/")
        expect(page.locator("[data-part=connection]")).to_have_text("Connected")
    for page in (anna, boris):
        expect(page.locator("[data-action=rematch-offer]")).to_be_visible()
    expect(watcher.locator("[data-part=rematch]")).to_be_hidden()  # a spectator offers nothing

    anna.locator("[data-action=rematch-offer]").click()
    expect(anna.locator("[data-part=rematch-status]")).to_have_text("You offered a rematch. Waiting for end-boris…")
    expect(boris.locator("[data-part=rematch-status]")).to_have_text("end-anna offers a rematch.")
    expect(watcher.locator("[data-part=rematch-status]")).to_have_text("end-anna offers a rematch.")
    expect(watcher.locator("[data-action=rematch-accept]")).to_have_count(0)
    boris.locator("[data-action=rematch-decline]").click()
    expect(anna.locator("[data-part=rematch-status]")).to_have_text("end-boris declined the rematch.")
    expect(boris.locator("[data-part=rematch-status]")).to_have_text("end-boris (you) declined the rematch.")
    assert in_thread(lambda: Game.objects.filter(table_id=people_game.table_id).count()) == 1
    # A second offer while one is open is refused, with the reason shown.
    anna.locator("[data-action=rematch-offer]").click()
    expect(boris.locator("[data-part=rematch-status]")).to_have_text("end-anna offers a rematch.")
    anna.evaluate("window.durakTable.send({type: 'rematch.offer'})")
    expect(anna.locator("[data-part=error]")).to_contain_text("A rematch is already offered")

    boris.locator("[data-action=rematch-accept]").click()
    for page in (anna, boris, watcher):
        page.wait_for_url(re.compile(rf".*/play/game/(?!{people_game.pk}/)\d+/$"))
        expect(page.locator("[data-part=connection]")).to_have_text("Connected")
    for page in (anna, boris):
        expect(page.locator(".hand .hand-card")).to_have_count(6)
    assert anna.url == boris.url == watcher.url
    new = in_thread(lambda: Game.objects.exclude(pk=people_game.pk).get(table_id=people_game.table_id))
    assert anna.url.endswith(f"/play/game/{new.pk}/")
    users = in_thread(
        lambda: list(Seat.objects.filter(table_id=new.table_id).values_list("user__username", flat=True))
    )
    assert users == ["end-anna", "end-boris"]
    assert Rules.from_dict(new.rules) == Rules.from_dict(people_game.rules)
    assert errors == [], f"the page's script failed: {errors}"
