"""A whole game in real Chromium against Daphne: sign up, open a table against a bot, play every move by clicking
the highlighted cards and the buttons the server's legal actions offer, reload in the middle, see the result and
check the shuffle's commitment in the browser.

Bots move in the server process (in-process tasks) or, under CI=true, in a real Celery worker on Redis.
"""

from __future__ import annotations

import contextlib
import os
import re
import time

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from accounts.models import User
from games.engine import legal_actions
from games.models import Game
from tests.e2e.browsing import in_thread, log_in
from tests.e2e.table_states import open_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
SCREENSHOT_DIR = os.environ.get("BROWSER_SCREENSHOT_DIR")  # set it to look at the pages
GAME_TIMEOUT_S = 300


def _screenshot(page: Page, name: str) -> None:
    if SCREENSHOT_DIR:
        page.screenshot(path=os.path.join(SCREENSHOT_DIR, f"{name}.png"), full_page=True)


def _seq(page: Page) -> int:
    return int(page.evaluate("window.durakTable && window.durakTable.message ? window.durakTable.message.seq : -1"))


def _click(locator: Locator) -> bool:
    """Click the first match if it is there; the bots move meanwhile, so a control may vanish under the
    mouse, and then the caller looks at the page again."""
    try:
        if not locator.count():
            return False
        locator.first.click(timeout=3_000)
    except PlaywrightTimeoutError:
        return False
    return True


def _one_move(page: Page) -> bool:
    """Make one move if the page offers one: say "beaten" when that is possible, else play the first
    highlighted card (on the cover target it lights up, or with the button it brings), else take."""
    _click(page.locator("[data-action=clear]"))  # a selection left over from a view that changed
    if _click(page.locator("[data-action=pass]")):
        return True
    if _click(page.locator(".hand-card.playable")):
        if _click(page.locator(".attack-card.target")):
            return True
        if _click(
            page.locator("[data-action=attack], [data-action=throw], [data-action=transfer], [data-action=show_trump]")
        ):
            return True
        _click(page.locator("[data-action=clear]"))
    return _click(page.locator("[data-action=take]"))


# Moves a variant promises (a transfer, a trump shown to transfer, an accusation of a cheat): made by hand
# whenever the page offers one, before the ordinary clicks, and recorded by the page itself.
TRACK_MOVES = """() => {
  window.offeredMoves = new Set(); window.usedMoves = new Set();
  const root = document.getElementById("game");
  const note = (message) => { for (const a of ((message && message.view && message.view.legal) || [])) window.offeredMoves.add(a.type); };
  note(window.durakTable.message);
  root.addEventListener("durak:view", (event) => note(event.detail.message));
  root.addEventListener("durak:action-sent", (event) => window.usedMoves.add(event.detail.action.type));
}"""


# The page shows the player's move, and the game waits on him alone (a bot cannot move until he does).
MY_MOVE_ALONE = (
    "(() => { const t = window.durakTable; const m = t && t.message; return !!m && m.status === 'playing'"
    " && Array.isArray(m.waiting) && m.waiting.length === 1 && m.waiting[0] === m.seat && t.legal.length > 0; })()"
)


def _promised_move(page: Page, kinds: tuple[str, ...]) -> bool:
    """Make the first offered move of one of `kinds` not made yet through the page: its cards chosen, then its
    button (once each: made every time, transfers and shown trumps drew a random game out past its time)."""
    action = page.evaluate(
        f"() => (window.durakTable.legal || []).find((a) => {list(kinds)!r}.includes(a.type)"
        " && !(window.usedMoves && window.usedMoves.has(a.type))) || null"
    )
    if not action:
        return False
    _click(page.locator("[data-action=clear]"))
    if action["type"] == "accuse":
        return _click(page.locator("[data-action=accuse]"))
    for card in action.get("cards") or [action["card"]]:
        if not _click(page.locator(f'.hand-card[data-card="{card}"]')):
            return False
    return _click(page.locator(f"[data-action={action['type']}]"))


def _play_until_result(
    page: Page,
    *,
    moves_before: int = 0,
    stop_after: int | None = None,
    promised: tuple[str, ...] = (),
    timeout_s: float = GAME_TIMEOUT_S,
    give_up_after_s: float | None = None,
) -> int:
    """Play until the result shows, or (with stop_after) until that many moves are made and cards lie on the table.
    The `promised` kinds of move are made whenever they are offered."""
    deadline = time.monotonic() + timeout_s
    give_up_at = time.monotonic() + give_up_after_s if give_up_after_s is not None else None
    moves = moves_before
    result = page.locator("[data-part=result]")
    while time.monotonic() < deadline:
        if give_up_at is not None and time.monotonic() > give_up_at and not result.is_visible():
            # A game of random clicks that goes on and on: the player gives up, and the game ends as any would.
            page.once("dialog", lambda dialog: dialog.accept())
            _click(page.locator("[data-part=surrender]"))
            give_up_at = None
        if result.is_visible() or (stop_after is not None and moves >= stop_after and page.locator(".pair").count()):
            return moves
        seq = _seq(page)
        if (promised and _promised_move(page, promised)) or _one_move(page):
            moves += 1
            with contextlib.suppress(PlaywrightTimeoutError):  # a click that raced a bot's move sent nothing
                page.wait_for_function(
                    f"window.durakTable.message.seq !== {seq} || !!window.durakTable.message.result"
                    " || !document.querySelector('[data-part=error]').hidden",
                    timeout=10_000,
                )
        else:
            page.wait_for_timeout(50)
    raise AssertionError(f"no result after {timeout_s} s and {moves} moves")


def test_sign_up_open_a_table_against_a_bot_and_play_a_whole_game(
    browser: Browser, live_server_url: str, tasks_run: None
) -> None:
    page = browser.new_page(viewport=DESKTOP, locale="en-GB")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(f"{live_server_url}/accounts/sign-up/")
    page.get_by_label("Username").fill("clicking-player")
    page.get_by_label("E-mail").fill("clicking@example.com")
    page.locator("#id_password1").fill("a-Long-passw0rd-for-tests")
    page.locator("#id_password2").fill("a-Long-passw0rd-for-tests")
    page.get_by_role("button", name="Create my account").click()
    expect(page.locator("h1")).to_have_text("Your profile")

    page.locator(".main-nav").get_by_role("link", name="Play").click()
    expect(page.locator("h1")).to_have_text("Play")
    # A second visitor keeps the lobby open: the new table appears there without a reload.
    watcher = browser.new_page(viewport=PHONE, locale="en-GB")
    watcher.goto(f"{live_server_url}/play/")
    expect(watcher.locator("#lobby-tables")).to_contain_text("No table is waiting for players.")

    page.get_by_label("Table name").fill("Me against the bot")
    page.get_by_label("Time per turn").select_option("900")
    page.get_by_role("button", name="Open the table").click()

    expect(page.locator("h1")).to_have_text("Me against the bot")
    expect(page.locator("tr[data-seat='0']")).to_contain_text("clicking-player")
    expect(watcher.locator("#open-tables")).to_contain_text("Me against the bot", timeout=10_000)
    expect(watcher.locator("#open-tables")).to_contain_text("Podkidnoy · 36 cards · 2 players")
    _screenshot(watcher, "lobby-phone")
    watcher.close()
    page.locator("#fill-level").select_option("easy")
    page.get_by_role("button", name="Fill with bots").click()

    page.wait_for_url("**/play/game/*/")
    expect(page.locator("[data-part=connection]")).to_have_text("Connected")
    expect(page.locator(".players .player")).to_contain_text(
        "Random Rita"
    )  # the easy bench's first bot (accounts.bot_names)
    expect(page.locator(".hand .hand-card")).to_have_count(6)
    assert page.locator(".hand .card-svg .card-rank").first.text_content() in {
        "6",
        "7",
        "8",
        "9",
        "10",
        "J",
        "Q",
        "K",
        "A",
    }

    moves = _play_until_result(page, stop_after=4)
    if not page.locator("[data-part=result]").is_visible():
        _screenshot(page, "game-desktop")
        page.set_viewport_size(PHONE)
        # The table lays itself out again for the new size (a resize handler): then nothing reaches past the edge.
        page.wait_for_function("document.documentElement.scrollWidth <= window.innerWidth", timeout=5_000)
        _screenshot(page, "game-phone")
        page.set_viewport_size(DESKTOP)

        # From here the game waits on the player alone, so no bot's move can come between what the checks
        # compare: a reload and a refused move must leave the version exactly as it was.
        page.wait_for_function(MY_MOVE_ALONE, timeout=30_000)

        # A reload puts the player back where he was: same version, same hand.
        seq, hand = (
            _seq(page),
            sorted(page.locator(".hand-card").evaluate_all("cards => cards.map(c => c.dataset.card)")),
        )
        page.reload()
        expect(page.locator("[data-part=connection]")).to_have_text("Connected")
        page.wait_for_function(MY_MOVE_ALONE, timeout=30_000)
        assert _seq(page) == seq
        assert sorted(page.locator(".hand-card").evaluate_all("cards => cards.map(c => c.dataset.card)")) == hand

        # A dropped connection comes back by itself and asks for the game as it stands.
        page.evaluate("window.durakTable.socket.close()")
        expect(page.locator("[data-part=connection]")).to_have_text(re.compile("Connection lost"))
        expect(page.locator("[data-part=connection]")).to_have_text("Connected")

        # A move the server refuses is shown, and changes nothing.
        seq = _seq(page)
        page.evaluate("window.durakTable.send({type: 'action', action: {type: 'take'}, seq: -1})")
        expect(page.locator("[data-part=error]")).to_contain_text("Refused:")
        page.wait_for_function(MY_MOVE_ALONE, timeout=30_000)  # the page asked for the game again after the refusal
        assert _seq(page) == seq

    _play_until_result(page, moves_before=moves)

    result = page.locator("[data-part=result]")
    expect(result).to_be_visible()
    expect(page.locator("[data-part=outcome]")).to_have_text(re.compile(r"(is the durak|A draw)"))
    expect(page.locator("[data-part=places] tr")).to_have_count(2)
    expect(page.locator("[data-part=status]")).to_have_text("The game is over.")
    _screenshot(page, "result-desktop")

    page.get_by_role("button", name="Check it in this browser").click()
    expect(page.locator("[data-part=check-output]")).to_contain_text("matches the commitment")
    expect(page.locator("[data-part=check-command]")).to_contain_text("| sha256sum")

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download the game record (JSON)").click()
    assert download_info.value.suggested_filename.startswith("durak-game-")
    assert errors == [], f"the page's script failed: {errors}"


def test_a_perevodnoy_cheating_table_of_three_is_played_to_the_end_on_a_phone(
    browser: Browser, live_server_url: str, tasks_run: None
) -> None:
    """Every option box of the form reaches the table, and a game of three at it runs on a phone: the player clicks
    moves for a minute (an accusation the server offers is made), then gives up, and the result shows every
    place. A game of random clicks against two random bots at a cheating table runs to 600 moves and more, past
    five minutes, and the moves the variant promises come too seldom to wait for: a transfer and a trump shown
    are made through the page in the test below, from deals where the server offers them. Motion is off (the
    moves, not the animations, are what this test is about)."""
    page = browser.new_page(viewport=PHONE, locale="en-GB", reduced_motion="reduce")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server_url}/accounts/sign-up/")
    page.get_by_label("Username").fill("phone-player")
    page.get_by_label("E-mail").fill("phone@example.com")
    page.locator("#id_password1").fill("a-Long-passw0rd-for-tests")
    page.locator("#id_password2").fill("a-Long-passw0rd-for-tests")
    page.get_by_role("button", name="Create my account").click()

    page.goto(f"{live_server_url}/play/")
    page.locator("#id_preset").select_option("perevodnoy")
    page.locator("#id_players").select_option("3")
    page.locator("#id_transfer_by_showing_trump").check()
    page.locator("#id_cheating").check()
    page.locator("#id_throw_in").select_option("neighbours")
    page.get_by_label("Time per turn").select_option("900")
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator(".rules-words")).to_have_text(
        "Perevodnoy · 36 cards · 3 players · transfer by showing a trump · only the neighbours throw in · cheating allowed"
    )
    page.locator("#fill-level").select_option("easy")
    page.get_by_role("button", name="Fill with bots").click()
    page.wait_for_url("**/play/game/*/")
    expect(page.locator(".players .player")).to_have_count(2)
    page.wait_for_function("window.durakTable && window.durakTable.message")
    page.evaluate(TRACK_MOVES)

    promised = ("transfer", "show_trump", "accuse")
    _play_until_result(page, promised=promised, timeout_s=150, give_up_after_s=60)

    offered = set(page.evaluate("[...window.offeredMoves]"))
    used = set(page.evaluate("[...window.usedMoves]"))
    assert offered & {"accuse"} <= used, (offered, used)  # an accusation offered is made
    expect(page.locator("[data-part=places] tr")).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "page scrolls sideways"
    _screenshot(page, "result-phone")
    assert errors == [], f"the page's script failed: {errors}"


# A perevodnoy table of three where a player is shown a card to transfer, by laying one of its rank or by showing
# the trump of its rank, and cheats may be accused.
PEREVODNOY_ALL_OPTIONS = {"preset": "perevodnoy", "transfer_by_showing_trump": True, "cheating": True}


def _deal_offering(name: str, wanted: str) -> tuple[User, Game]:
    """A fresh game of three, dealt again until the bot on the player's right has led and the server offers the
    player a move of kind `wanted`."""
    from tests.e2e.table_states import bot_moves, game_against_bot, kind, state_of
    from tests.games.factories import person

    player = person(name)
    for _attempt in range(200):
        game = bot_moves(game_against_bot(player, rules=PEREVODNOY_ALL_OPTIONS, first_attacker=2, bots=2))
        if any(kind(action) == wanted for action in legal_actions(state_of(game), 0)):
            return player, game
    raise AssertionError(f"no deal of 200 offered {wanted}")


@pytest.mark.parametrize("wanted", ["transfer", "show_trump"])
def test_a_transfer_and_a_trump_shown_are_made_through_the_page(
    browser: Browser, live_server_url: str, quiet_test_process: None, wanted: str
) -> None:
    """The moves perevodnoy promises, made on a phone as a player makes them: the cards the server offers for
    the move chosen by clicks, then the move's button; the game's record then holds exactly that move."""
    player, game = in_thread(lambda: _deal_offering(f"promised-{wanted}", wanted))
    page = browser.new_page(viewport=PHONE, locale="en-GB", reduced_motion="reduce")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, live_server_url, player.username)
    open_game(page, live_server_url, game)
    page.evaluate(TRACK_MOVES)
    seq = _seq(page)
    action = page.evaluate(f"() => window.durakTable.legal.find((a) => a.type === {wanted!r})")
    assert action, "the page does not offer the move the server does"
    for card in action.get("cards") or [action["card"]]:
        page.locator(f'.hand-card[data-card="{card}"]').click()
    button = page.locator(f"[data-action={wanted}]")
    expect(button).to_be_visible()
    button.click()
    page.wait_for_function(f"window.durakTable.message.seq > {seq}")

    record = in_thread(lambda: Game.objects.get(pk=game.pk).record)
    assert record["actions"][seq] == {"seat": 0, **action}, record["actions"][seq]
    assert page.evaluate("[...window.usedMoves]") == [wanted]
    assert errors == [], f"the page's script failed: {errors}"
