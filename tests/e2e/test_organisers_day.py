"""An organiser's day in real Chromium against Daphne (issue 38's first proof): a director creates an 8-player Swiss
from the club Swiss card, enters five bots in one act, two people found by their names and one from a CSV file,
runs check-in before the first round (two players say they are here, he marks the third present), starts it,
records one board's result by a click, withdraws a player after the first round, and the other players take
their seats and give up; the tournament ends with a winner. Nobody types a username or a result, and a
spectator's hall screen follows it all without a reload.

Screenshots of every page involved at 1366x768 and 390x844 go to BROWSER_SCREENSHOT_DIR (else
tests/e2e/screenshots/). The games' ends and the rounds run in the server (in-process tasks) or, under CI=true,
in a real Celery worker on Redis.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.roles import Role
from accounts.services import user_role_grant, user_sign_up
from tests.e2e.browsing import PASSWORD, in_thread, log_in
from tests.e2e.table_states import screenshot_dir
from tournaments.models import Entrant, PairingEntrant, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
# Usernames nothing like the names people know each other by: the director never types one.
PEOPLE = {"u-5521": "Anya Smirnova", "u-6630": "Борис Петров", "u-7719": "Vera Lebedeva"}


@pytest.fixture
def accounts(live_server_url: str) -> None:
    """Made before the browser starts (Django refuses database calls beside Playwright's event loop)."""
    chief = user_sign_up(username="chief", email="chief@example.com", password=PASSWORD, preferred_language="en")
    user_role_grant(user=chief, role=Role.TOURNAMENT_DIRECTOR)
    for username, name in PEOPLE.items():
        person = user_sign_up(username=username, email=f"{username}@example.com", password=PASSWORD,
                              preferred_language="en")  # fmt: skip
        person.display_name = name
        person.save()


def _shots(page: Page, name: str) -> None:
    """The page at the desktop's size and at a phone's (the same page, resized), full length."""
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)  # type: ignore[arg-type]
        page.screenshot(path=str(screenshot_dir() / f"organiser-{name}-{size}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]


def _confirm(page: Page, reason: str) -> None:
    """The director's confirmation dialog: the reason written, then Confirm."""
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("[data-part=reason]").fill(reason)
    dialog.locator("[data-part=confirm]").click()


def _seats(tournament_id: int, number: int) -> dict[str, tuple[int, int]]:
    """Each person's (pairing id, position) in round `number`, read from the database; a bye is left out."""
    rows = PairingEntrant.objects.filter(
        pairing__tournament_id=tournament_id, pairing__round__number=number, entrant__user__is_bot=False,
        pairing__bye=False,
    ).values_list("entrant__user__username", "pairing_id", "position")
    return {username: (pairing, position) for username, pairing, position in rows}


def _take_seat(page: Page, base: str, tournament_id: int) -> None:
    """A player takes his seat from the tournament page (his page follows him to the game once it is dealt)."""
    page.goto(f"{base}/tournaments/{tournament_id}/")
    page.locator("#take-seat").click()


def _give_up(page: Page) -> None:
    """A seated player, taken to his game, gives it up at once (or finds it over: his opponent gave up first)."""
    page.wait_for_url(re.compile(r".*/play/game/\d+/"), timeout=60_000)
    expect(page.locator("[data-part=connection]")).to_have_text("Connected")
    surrender = page.locator("[data-part=surrender]")
    if surrender.is_visible():
        page.once("dialog", lambda dialog: dialog.accept())
        surrender.click()
    expect(page.locator("[data-part=result]")).to_be_visible(timeout=60_000)


def _play_round(players: dict[str, Page], base: str, tournament_id: int, usernames: list[str]) -> None:
    """These players take their seats (both of a board of two people before either plays), then give up."""
    for username in usernames:
        _take_seat(players[username], base, tournament_id)
    for username in usernames:
        _give_up(players[username])


def _wait(check: Callable[[], bool], what: str, timeout_s: float = 120.0) -> None:
    import time

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if in_thread(check):
            return
        time.sleep(0.5)
    state = in_thread(_tournament_state)
    raise AssertionError(f"waited {timeout_s} s for {what}: {state}")


def _tournament_state() -> str:
    """What the tournament's rounds and boards are at, for a failure's message."""
    from tournaments.models import Pairing, Round

    rounds = list(Round.objects.values_list("number", "status", "starts_at"))
    boards = list(Pairing.objects.values_list("round__number", "board", "status", "bye"))
    from games.models import Game
    games = list(Game.objects.values_list("pk", "status", "seq", "deadline", "clock_running"))
    return f"rounds {rounds}, boards {boards}, games {games}"


def test_a_director_runs_an_eight_player_swiss_without_typing_a_username_or_a_result(
    accounts: None, tasks_run: None, browser: Browser, live_server_url: str, tmp_path: object
) -> None:
    base = live_server_url
    errors: list[str] = []

    def page_for(username: str | None) -> Page:
        page = browser.new_context(locale="en-GB", viewport=DESKTOP).new_page()  # type: ignore[arg-type]
        page.on("pageerror", lambda error: errors.append(f"{username}: {error}"))
        if username:
            log_in(page, base, username)
        return page

    # --- The director creates the Swiss from its card: two rounds, the next one soon after the last.
    director = page_for("chief")
    director.goto(f"{base}/tournaments/new/")
    director.locator("[data-preset=club-swiss]").click()
    expect(director.locator("#id_rounds")).to_have_value("5")
    _shots(director, "create")
    director.locator("#id_name").fill("Thursday Club Swiss")
    director.locator("#id_rounds").fill("2")
    director.locator("#id_round_interval").fill("5")
    director.get_by_role("button", name="Open registration").click()
    expect(director.locator("h1")).to_have_text("Thursday Club Swiss")
    tournament_id = int(re.search(r"/tournaments/(\d+)/", director.url).group(1))  # type: ignore[union-attr]

    # --- Entrants: five bots in one act, two people by name, one from a CSV file.
    director.goto(f"{base}/tournaments/{tournament_id}/direct/")
    director.get_by_label("How many").fill("5")
    director.get_by_label("Level").select_option("easy")
    director.get_by_role("button", name="Add the bots").click()
    expect(director.locator(".messages")).to_contain_text("Entered: ")
    for typed, name in (("smirn", "Anya Smirnova"), ("борис", "Борис Петров")):
        director.get_by_role("combobox", name="Player's name").press_sequentially(typed)
        director.get_by_role("listbox").get_by_role("option", name=name).click()
        expect(director.locator(".messages")).to_contain_text(f"{name} is entered.")
    csv_file = tmp_path / "players.csv"  # type: ignore[operator]
    csv_file.write_text("name;rating;e-mail\nVera Lebedeva;;u-7719@example.com\n", encoding="utf-8")
    director.locator("#csv-form input[type=file]").set_input_files(str(csv_file))
    director.locator("#csv-form").get_by_role("button", name="Preview the import").click()
    expect(director.locator("main")).to_contain_text("Vera Lebedeva")
    _shots(director, "import-preview")
    director.locator("#apply-import").click()
    expect(director.locator(".messages")).to_contain_text("Entered 1, invited 0")
    assert in_thread(lambda: Entrant.objects.filter(tournament_id=tournament_id).count()) == 8

    # --- Check-in before round 1: two players say they are here; the director marks the third present.
    director.locator("#presence-minutes").fill("120")
    director.locator(".presence-setting").get_by_role("button", name="Save").click()
    players = {username: page_for(username) for username in PEOPLE}
    for username in ("u-5521", "u-6630"):
        players[username].goto(f"{base}/tournaments/{tournament_id}/")
        players[username].locator(f"#presence-button-{tournament_id}").click()
        expect(players[username].locator(f"#presence-{tournament_id}")).to_contain_text("Checked in for round 1")
    _shots(players["u-6630"], "tournament-checked-in")
    director.goto(f"{base}/tournaments/{tournament_id}/direct/")
    vera = director.locator(".presence-list li", has_text="Vera Lebedeva")
    vera.get_by_placeholder("Reason").fill("She told me at the door")
    vera.get_by_role("button", name="Mark present").click()
    expect(director.locator(".presence-list li", has_text="Vera Lebedeva")).to_contain_text("here")
    _shots(director, "direct-before-start")

    # --- A spectator's hall screen, open from here to the end without a reload.
    hall = page_for(None)
    hall.goto(f"{base}/tournaments/{tournament_id}/hall/")
    expect(hall.locator("#hall-state")).to_contain_text("Open for registration")
    _shots(hall, "hall-before")

    # --- The start: round 1 is paired with all eight (everyone checked in); check-in is for round 1 alone.
    director.locator("#start-now").click()
    expect(hall.locator("#hall-state")).to_contain_text("Round 1 of 2.", timeout=20_000)
    director.goto(f"{base}/tournaments/{tournament_id}/direct/")
    director.locator("#presence-minutes").fill("0")
    director.locator(".presence-setting").get_by_role("button", name="Save").click()
    seats = in_thread(lambda: _seats(tournament_id, 1))
    assert set(seats) == set(PEOPLE), seats

    # The director records Vera's board by a click; the others take their seats and give up.
    vera_pairing = seats["u-7719"][0]
    director.goto(f"{base}/tournaments/{tournament_id}/direct/")
    _shots(director, "direct-round-1")
    outcome = "second" if seats["u-7719"][1] == 0 else "first"  # Vera loses her board by the director's word
    director.locator(f"#pairing-{vera_pairing} [data-outcome={outcome}]").click()
    _confirm(director, "Vera had to leave; she conceded the game")
    vera_board = in_thread(lambda: PairingEntrant.objects.filter(pairing_id=vera_pairing).first().pairing.board)  # type: ignore[union-attr]
    expect(hall.locator(f"#hall-boards tr[data-board='{vera_board}'] .result")).to_contain_text("1", timeout=20_000)
    _play_round(players, base, tournament_id, [u for u, (pairing, _) in seats.items() if pairing != vera_pairing])
    _wait(
        lambda: Tournament.objects.get(pk=tournament_id).current_round == 2
        and PairingEntrant.objects.filter(pairing__tournament_id=tournament_id, pairing__round__number=2).exists(),
        "round 2 to be paired",
        240,
    )

    # --- After round 1 the director withdraws Boris (a destructive act: red, and confirmed with a reason).
    # Round 2 was paired with him already: his board is forfeited to his opponent.
    director.goto(f"{base}/tournaments/{tournament_id}/direct/")
    row = director.locator("tr, li", has_text="Борис Петров").filter(has=director.get_by_role("button", name="Withdraw"))
    withdraw = row.first.get_by_role("button", name="Withdraw")
    assert "danger" in (withdraw.get_attribute("class") or "")
    withdraw.click()
    _confirm(director, "He is ill")
    expect(director.locator(".messages")).to_contain_text("Withdrawn", timeout=15_000)
    _shots(director, "direct-round-2")

    # --- Round 2: the people still in take their seats and give up; the bots play theirs out.
    seats = in_thread(lambda: _seats(tournament_id, 2))
    boris_pairing = seats.get("u-6630", (None, 0))[0]
    _play_round(players, base, tournament_id, [u for u, (pairing, _) in seats.items() if pairing != boris_pairing])
    _wait(lambda: Tournament.objects.get(pk=tournament_id).status == "finished", "the tournament's end", 240)
    expect(hall.locator("#hall-state")).to_contain_text("Winner:", timeout=30_000)
    _shots(hall, "hall-finished")

    finished = in_thread(lambda: Tournament.objects.get(pk=tournament_id))
    assert finished.status == "finished"
    boris = in_thread(lambda: Entrant.objects.get(tournament_id=tournament_id, user__username="u-6630"))
    assert boris.status == "withdrawn"
    # The hall was never reloaded: one navigation, the first.
    assert hall.evaluate("performance.getEntriesByType('navigation').length") == 1
    spectator = page_for(None)
    spectator.goto(f"{base}/tournaments/{tournament_id}/")
    _shots(spectator, "tournament-finished")
    spectator.goto(f"{base}/tournaments/{tournament_id}/round/1/")
    _shots(spectator, "round-1")
    spectator.goto(f"{base}/tournaments/{tournament_id}/log/")
    expect(spectator.locator("main")).to_contain_text("Vera had to leave")
    _shots(spectator, "log")
    assert errors == [], f"a page's script failed: {errors}"
