"""The game page's sound and attention in real Chromium against Daphne (static/games/sound.js, attention.js):
the cues a game against a bot plays after the first gesture (and none before it), the mute switch kept for the
account and, logged out, in the browser, the "Your move · Durak" title and favicon marker of a hidden tab, the
notification asked for with "Notify me", the clock's cue, and the header's switches at a phone's and a desktop's
size in both languages (BROWSER_SCREENSHOT_DIR set: their screenshots).

Headless Chromium may have no audio device: window.durakSound counts a cue when it is triggered and not muted,
and says whether its AudioContext runs and how many cues went into it."""

from __future__ import annotations

import contextlib
import os
import re
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from accounts.models import User
from games import services
from games.engine import Rules
from games.models import Game
from tests.e2e.browsing import in_thread, log_in
from tests.e2e.test_play_a_game import DESKTOP, PHONE, SCREENSHOT_DIR, _one_move, _play_until_result
from tests.games.factories import person

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PODKIDNOY = {"preset": "podkidnoy"}
LAPTOP: ViewportSize = {"width": 1366, "height": 768}
BOT_ANSWER_MS = 60_000  # the easy bot answers at once, but a loaded 2-core machine can take its time


def _no_turn_timer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games are dealt in the test's process, whose in-process runner would fire their first turn timer;
    Daphne, which runs every later move, keeps its own."""
    from games import tasks

    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)


def _against_the_bot(name: str, *, turn_seconds: int = 900) -> Game:
    """A heads-up game of `name` (seat 0, leading) against the easy bot; the bot moves in Daphne."""
    player = User.objects.filter(username=name).first() or person(name)
    bot = services.bot_account_for("easy")
    return services.game_start_reserved(
        owner=player,
        rules=Rules.from_dict(PODKIDNOY),
        players=[player, bot],
        turn_seconds=turn_seconds,
        name=f"{name} against the bot",
        first_attacker=0,
    )


@pytest.fixture
def bot_games(monkeypatch: pytest.MonkeyPatch, live_server_url: str) -> list[Game]:
    """Two games of sound-player against the bot (made before the browser starts: Playwright's sync API runs
    an event loop, and Django refuses database calls from a thread that has one)."""
    _no_turn_timer(monkeypatch)
    return [_against_the_bot("sound-player"), _against_the_bot("sound-player")]


# Counts the table's durak:view events (dispatched on #game; a capturing listener on window hears them).
COUNT_VIEWS = """
if (!window.countingViews) {
  window.countingViews = true;
  window.addEventListener("durak:view", () => { window.viewsDrawn = (window.viewsDrawn || 0) + 1; }, true);
}
"""


def _open(page: Page, url: str, game: Game) -> None:
    """Open a game's page and wait for the socket's first view (the second drawn, after the page's own JSON):
    a move sent before it may reach the server before the socket has joined the game."""
    page.add_init_script(COUNT_VIEWS)
    page.goto(f"{url}/play/game/{game.pk}/")
    expect(page.locator("[data-part=connection]")).to_have_text(re.compile("Connected|Подключено"))
    page.wait_for_function("window.durakTable && window.durakTable.message && window.durakSound")
    page.wait_for_function("window.viewsDrawn >= 2", timeout=BOT_ANSWER_MS)


def _gesture(page: Page) -> None:
    """A click on the page where it changes nothing: the status line above the table (the rules line is in
    a drawer now)."""
    page.locator("[data-part=status]").click()


def _played(page: Page) -> list[str]:
    return list(page.evaluate("[...window.durakSound.played]"))


def _errors_of(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def _send_first_legal(page: Page) -> None:
    """A move sent by the page's script, not by a gesture: the first legal action of the view."""
    page.wait_for_function("(window.durakTable.message.view.legal || []).length > 0")
    seq = page.evaluate("window.durakTable.message.seq")
    page.evaluate("window.durakTable.sendAction(window.durakTable.message.view.legal[0])")
    page.wait_for_function(f"window.durakTable.message.seq > {seq}", timeout=BOT_ANSWER_MS)


def _click_a_move(page: Page) -> None:
    """One move made by clicks (a gesture) once it is the player's turn; a click that raced the bot's move
    sent nothing, and then the page is looked at again."""
    page.wait_for_function("window.durakTable.message.waiting.includes(0)", timeout=BOT_ANSWER_MS)
    for _ in range(10):
        seq = page.evaluate("window.durakTable.message.seq")
        if _one_move(page):
            with contextlib.suppress(PlaywrightTimeoutError):
                page.wait_for_function(f"window.durakTable.message.seq > {seq}", timeout=10_000)
                return
        page.wait_for_timeout(200)
    raise AssertionError("no move could be made by clicking")


def _expected_end(result: dict, seat: int) -> str:
    if result["outcome"] == "draw":
        return "end-draw"
    return "end-durak" if result["durak"] == seat or seat in (result.get("losing_team") or []) else "end-won"


def test_a_game_against_the_bot_sounds_its_cues_after_the_first_gesture_and_none_before(
    bot_games: list[Game], live_server_url: str, browser: Browser
) -> None:
    page = browser.new_context(viewport=DESKTOP, locale="en-GB").new_page()
    errors = _errors_of(page)
    log_in(page, live_server_url, "sound-player", language="en")
    _open(page, live_server_url, bot_games[0])
    assert page.evaluate("window.durakSound.unlocked") is False

    # Moves made before any gesture (sent by script): the bot answers, it becomes the player's move again,
    # and nothing is played, nor is any AudioContext made.
    _send_first_legal(page)
    page.wait_for_function("window.durakTable.message.waiting.includes(0)", timeout=BOT_ANSWER_MS)
    assert _played(page) == []
    assert page.evaluate("window.durakSound.audioState") == "none"

    # The first gesture opens the page's audio; the bot's next answers are heard.
    _gesture(page)
    assert page.evaluate("window.durakSound.unlocked") is True
    page.wait_for_function("window.durakSound.audioState === 'running'", timeout=5_000)
    _play_until_result(page)
    page.wait_for_function(
        "window.durakTable.message.result && window.durakSound.played.some(c => c.startsWith('end'))"
    )
    played = _played(page)
    result = page.evaluate("window.durakTable.message.result")

    assert played.count("card") >= 2, played
    assert played.count("your-move") >= 2, played
    assert {"beaten", "take"} & set(played), played
    ends = [cue for cue in played if cue.startswith("end")]
    assert ends == [_expected_end(result, 0)], played
    # Every cue went into the page's running AudioContext.
    assert page.evaluate("window.durakSound.scheduled") == len(played)
    assert errors == [], f"the page's script failed: {errors}"


def test_the_mute_switch_holds_for_the_account_across_a_reload_and_another_games_page(
    bot_games: list[Game], live_server_url: str, browser: Browser
) -> None:
    first, second = bot_games
    page = browser.new_context(viewport=DESKTOP, locale="en-GB").new_page()
    errors = _errors_of(page)
    log_in(page, live_server_url, "sound-player", language="en")
    _open(page, live_server_url, first)
    mute = page.locator("[data-part=mute]")
    expect(mute).to_have_attribute("aria-pressed", "false")
    expect(mute).to_have_text("Mute")

    with page.expect_response(lambda response: response.url.endswith("/accounts/sound/")) as answer:
        mute.click()
    assert answer.value.status == 200 and answer.value.json() == {"muted": True}
    expect(mute).to_have_attribute("aria-pressed", "true")
    assert in_thread(lambda: User.objects.get(username="sound-player").sound_muted) is True

    page.reload()
    page.wait_for_function("window.durakSound")
    expect(mute).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.durakSound.muted") is True

    # Another game's page starts muted, read from the server (this browser's storage holds nothing).
    _open(page, live_server_url, second)
    expect(page.locator("[data-part=mute]")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.localStorage.getItem('durak.sound.muted')") is None
    # Muted, moves made by clicks (gestures) and the bot's answers count nothing.
    for _ in range(3):
        _click_a_move(page)
    page.wait_for_function("window.durakTable.message.waiting.includes(0)", timeout=BOT_ANSWER_MS)
    assert page.evaluate("window.durakSound.unlocked") is True
    assert _played(page) == []

    # Sound on again: the next move is heard, and the account keeps it.
    with page.expect_response(lambda response: response.url.endswith("/accounts/sound/")):
        page.locator("[data-part=mute]").click()
    expect(page.locator("[data-part=mute]")).to_have_attribute("aria-pressed", "false")
    assert in_thread(lambda: User.objects.get(username="sound-player").sound_muted) is False
    # Sound on again: the moves are heard. A move may call for no cue (the attacker's pass that hands a taken
    # table to the defender, the attacker to lead again: the take was cued when it was said), and then the bot
    # has nothing to answer; the next move is made.
    for _ in range(6):
        seq = page.evaluate("window.durakTable.message.seq")
        _click_a_move(page)
        page.wait_for_function(
            f"window.durakSound.played.length > 0 || window.durakTable.message.status !== 'playing'"
            f" || (window.durakTable.message.seq > {seq} && window.durakTable.message.waiting.includes(0))",
            timeout=BOT_ANSWER_MS,
        )
        if _played(page):
            break
    assert _played(page), "six moves with the sound on, and no cue"
    assert errors == [], f"the page's script failed: {errors}"


def test_a_refused_save_puts_the_switch_back_and_says_so(
    bot_games: list[Game], live_server_url: str, browser: Browser
) -> None:
    page = browser.new_context(viewport=DESKTOP, locale="ru-RU").new_page()
    log_in(page, live_server_url, "sound-player", language="ru")
    _open(page, live_server_url, bot_games[0])
    # A forged token: the server refuses (403, Django's CSRF page) and the switch goes back.
    page.route(
        "**/accounts/sound/", lambda route: route.continue_(headers={**route.request.headers, "x-csrftoken": "forged"})
    )
    with page.expect_response(lambda response: response.url.endswith("/accounts/sound/")) as answer:
        page.locator("[data-part=mute]").click()
    assert answer.value.status == 403
    expect(page.locator("[data-part=mute]")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("[data-part=sound-note]")).to_have_text("Настройка звука не сохранилась; попробуйте ещё раз.")
    if SCREENSHOT_DIR:
        page.screenshot(
            path=os.path.join(SCREENSHOT_DIR, "header-not-saved-ru-1280x900.png"),
            clip={"x": 0, "y": 0, "width": 1280, "height": 300},
        )
    assert in_thread(lambda: User.objects.get(username="sound-player").sound_muted) is False


def test_a_logged_out_spectator_keeps_the_switch_in_the_browser(
    bot_games: list[Game], live_server_url: str, browser: Browser
) -> None:
    first, second = bot_games
    player = browser.new_context(viewport=DESKTOP, locale="en-GB").new_page()
    log_in(player, live_server_url, "sound-player", language="en")
    _open(player, live_server_url, second)

    page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    errors = _errors_of(page)
    _open(page, live_server_url, first)
    assert page.evaluate("window.durakTable.message.seat") is None
    expect(page.locator("[data-part=notify]")).to_be_hidden()  # a spectator has no move to be told of
    page.locator("[data-part=mute]").click()  # no request: kept in this browser
    expect(page.locator("[data-part=mute]")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.localStorage.getItem('durak.sound.muted')") == "true"

    page.reload()
    page.wait_for_function("window.durakSound")
    expect(page.locator("[data-part=mute]")).to_have_attribute("aria-pressed", "true")
    _open(page, live_server_url, second)
    expect(page.locator("[data-part=mute]")).to_have_attribute("aria-pressed", "true")
    _gesture(page)  # heard from now on, were it not muted
    _send_first_legal(player)  # the player leads, the bot answers
    page.wait_for_function("window.durakTable.message.seq >= 2", timeout=BOT_ANSWER_MS)
    assert _played(page) == []

    page.locator("[data-part=mute]").click()
    expect(page.locator("[data-part=mute]")).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("window.localStorage.getItem('durak.sound.muted')") == "false"
    for _ in range(3):  # a move the player's page sent as the bot's crossed it is refused: he moves again
        seq = page.evaluate("window.durakTable.message.seq")
        player.wait_for_function("window.durakTable.message.waiting.includes(0)", timeout=BOT_ANSWER_MS)
        _send_first_legal(player)
        page.wait_for_function(f"window.durakTable.message.seq > {seq}", timeout=BOT_ANSWER_MS)
        if _played(page):
            break
    assert _played(page), "the spectator heard none of the moves once the sound was on"
    assert set(_played(page)) <= {"card", "cover", "take", "beaten", "transfer", "end"}
    assert in_thread(lambda: User.objects.get(username="sound-player").sound_muted) is False
    assert errors == [], f"the page's script failed: {errors}"


HIDE_SCRIPT = """
(hidden) => {
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => hidden ? "hidden" : "visible"});
  Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
  document.dispatchEvent(new Event("visibilitychange"));
}
"""

RECORD_NOTIFICATIONS = """
window.shownNotifications = [];
class RecordedNotification {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, options) { window.shownNotifications.push({title, body: options.body}); this.closed = false; }
  addEventListener() {}
  close() { this.closed = true; window.shownNotifications.at(-1).closed = true; }
}
window.Notification = RecordedNotification;
"""


@pytest.mark.parametrize(("locale", "title"), [("en-GB", "Your move · Durak"), ("ru-RU", "Ваш ход · Дурак")])
def test_a_hidden_tab_says_your_move_in_its_title_and_favicon_and_notifies(
    bot_games: list[Game], live_server_url: str, browser: Browser, locale: str, title: str
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale=locale)
    context.add_init_script(RECORD_NOTIFICATIONS)
    page = context.new_page()
    errors = _errors_of(page)
    log_in(page, live_server_url, "sound-player", language=locale[:2])
    first, second = bot_games
    _open(page, live_server_url, first)
    normal = page.title()
    assert normal.startswith(("Game", "Игра"))

    notify = page.locator("[data-part=notify]")
    expect(notify).to_be_visible()
    expect(notify).to_have_attribute("aria-pressed", "false")
    notify.click()
    expect(notify).to_have_attribute("aria-pressed", "true")

    # Hidden, the player leads; the bot answers, and it is the player's move again.
    page.evaluate(HIDE_SCRIPT, True)
    _send_first_legal(page)
    page.wait_for_function("window.durakTable.message.waiting.includes(0)", timeout=BOT_ANSWER_MS)
    expect(page).to_have_title(title)
    icon = page.locator("link[data-attention-icon]")
    assert icon.get_attribute("data-marked") == "true"
    assert (icon.get_attribute("href") or "").startswith("data:image/png")
    shown = page.evaluate("window.shownNotifications")
    ending = ": it is your move." if locale == "en-GB" else ": ваш ход."
    assert len(shown) == 1 and shown[0]["body"] == ("Game " if locale == "en-GB" else "Игра ") + f"{first.pk}{ending}"

    # Seen again: the title, the favicon and the notification go back.
    page.evaluate(HIDE_SCRIPT, False)
    expect(page).to_have_title(normal)
    assert icon.get_attribute("data-marked") == "false"
    assert page.evaluate("window.shownNotifications[0].closed") is True

    # Visible when the bot answers the next move: nothing to call back.
    _send_first_legal(page)
    page.wait_for_function(
        "window.durakTable.message.waiting.includes(0) || !!window.durakTable.message.result", timeout=BOT_ANSWER_MS
    )
    assert page.title() == normal

    # Another game, hidden: the player's move comes, and making it (still hidden) puts the title back.
    _open(page, live_server_url, second)
    normal = page.title()
    page.evaluate(HIDE_SCRIPT, True)
    _send_first_legal(page)
    page.wait_for_function("window.durakTable.message.waiting.includes(0)", timeout=BOT_ANSWER_MS)
    expect(page).to_have_title(title)
    # Read in the same task as the move is sent: the bot's answer may make it the player's move again soon.
    after = page.evaluate("""() => {
      window.durakTable.sendAction(window.durakTable.message.view.legal[0]);
      return [document.title, document.querySelector("link[data-attention-icon]").dataset.marked];
    }""")
    assert after == [normal, "false"]
    assert errors == [], f"the page's script failed: {errors}"


def test_the_players_clock_under_ten_seconds_is_cued_once(
    monkeypatch: pytest.MonkeyPatch, live_server_url: str, browser: Browser
) -> None:
    _no_turn_timer(monkeypatch)
    in_thread(lambda: person("sound-clock"))
    page = browser.new_context(viewport=DESKTOP, locale="en-GB").new_page()
    log_in(page, live_server_url, "sound-clock", language="en")
    # Dealt once the player is logged in, with 20 s a turn: his clock goes under 10 s within seconds.
    game = in_thread(lambda: _against_the_bot("sound-clock", turn_seconds=20))
    _open(page, live_server_url, game)
    _gesture(page)
    seconds = page.evaluate("(Date.parse(window.durakTable.message.deadline) - Date.now()) / 1000")
    assert seconds > 10.5, "the page opened too late to see the clock go under 10 s"
    assert "clock-low" not in _played(page)
    page.wait_for_function("window.durakSound.played.includes('clock-low')", timeout=20_000)
    left = page.evaluate("(Date.parse(window.durakTable.message.deadline) - Date.now()) / 1000")
    assert 8.5 < left < 10, "cued as the clock went under 10 s"
    page.wait_for_timeout(1_000)
    assert _played(page).count("clock-low") == 1


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "desktop"])
def test_the_header_shows_the_switches_in_the_readers_language_at_both_sizes(
    bot_games: list[Game], live_server_url: str, browser: Browser, locale: str, viewport: ViewportSize
) -> None:
    page = browser.new_context(viewport=viewport, locale=locale).new_page()
    log_in(page, live_server_url, "sound-player", language=locale[:2])
    _open(page, live_server_url, bot_games[0])
    mute, notify = page.locator("[data-part=mute]"), page.locator("[data-part=notify]")
    expect(mute).to_have_text("Mute" if locale == "en-GB" else "Без звука")
    expect(notify).to_have_text("Notify me" if locale == "en-GB" else "Уведомлять")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "page scrolls sideways"
    for state in ("on", "muted"):
        box = mute.bounding_box()
        assert box is not None and box["height"] >= 32 and box["x"] + box["width"] <= viewport["width"]
        if SCREENSHOT_DIR:
            name = f"header-{state}-{locale[:2]}-{viewport['width']}x{viewport['height']}.png"
            page.screenshot(
                path=os.path.join(SCREENSHOT_DIR, name),
                clip={"x": 0, "y": 0, "width": viewport["width"], "height": min(viewport["height"], 420)},
            )
        if state == "on":
            with page.expect_response(lambda response: response.url.endswith("/accounts/sound/")):
                mute.click()
            expect(mute).to_have_attribute("aria-pressed", "true")
    # The icon says which: the waves without the cross when on, the cross when muted.
    assert mute.locator(".sound-cross").is_visible() and not mute.locator(".sound-waves").is_visible()


CUE_CASES = """
async () => {
  const { cuesBetween, secondsLeft, isMyMove } = await import("/static/games/view_changes.js");
  const view = (fields) => ({ table: [], discard: 0, attacker: 0, defender: 1, taken: false, finished: false,
                              legal: [], ...fields });
  const message = (seq, fields, viewFields) => ({ game: 1, seq, status: "playing", seat: 0, waiting: [1],
                                                  result: null, ...fields, view: view(viewFields) });
  const lead = [{ attack: "6S", cover: null }];
  const covered = [{ attack: "6S", cover: "8S" }];
  const soon = new Date(Date.now() + 5000).toISOString();
  return {
    first: cuesBetween(null, message(0, {}, {})),
    other_game: cuesBetween(message(0, {}, {}), message(1, { game: 2 }, { table: lead })),
    same_version: cuesBetween(message(1, {}, { table: lead }), message(1, {}, { table: lead })),
    card: cuesBetween(message(0, { waiting: [0] }, {}), message(1, {}, { table: lead })),
    cover_then_my_move: cuesBetween(message(1, {}, { table: lead }), message(2, { waiting: [0] }, { table: covered })),
    take: cuesBetween(message(1, {}, { table: lead }), message(2, { waiting: [0] }, { table: lead, taken: true })),
    taken_away: cuesBetween(message(3, { waiting: [0] }, { table: lead, taken: true }), message(4, {}, {})),
    take_by_the_timer: cuesBetween(message(1, {}, { table: lead }), message(2, {}, {})),
    beaten: cuesBetween(message(2, { waiting: [0] }, { table: covered }), message(3, { waiting: [1] }, { discard: 2 })),
    transfer: cuesBetween(message(1, { waiting: [1] }, { table: lead, defender: 1 }),
                          message(2, { waiting: [2] }, { table: [...lead, { attack: "6H", cover: null }], defender: 2 })),
    won: cuesBetween(message(5, {}, {}), message(6, {}, { finished: true, result: { outcome: "durak", durak: 1 } })),
    durak: cuesBetween(message(5, {}, {}), message(6, { result: { outcome: "durak", durak: 0 } }, {})),
    team_lost: cuesBetween(message(5, {}, {}), message(6, { result: { outcome: "durak", durak: null,
                                                                       losing_team: [0, 2] } }, {})),
    draw: cuesBetween(message(5, {}, {}), message(6, { result: { outcome: "draw", durak: null } }, {})),
    spectator_end: cuesBetween(message(5, { seat: null }, {}),
                               message(6, { seat: null, result: { outcome: "durak", durak: 0 } }, {})),
    finalised_again: cuesBetween(message(6, {}, { finished: true, result: { outcome: "durak", durak: 1 } }),
                                 message(6, { result: { outcome: "durak", durak: 1 } }, { finished: true })),
    my_move_spectator: isMyMove(message(1, { seat: null, waiting: [0] }, {})),
    left_mine: Math.round(secondsLeft(message(1, { waiting: [0], deadline: soon }, {}))),
    left_not_mine: secondsLeft(message(1, { waiting: [1], deadline: soon }, {})),
    left_clock: Math.round(secondsLeft(message(1, { waiting: [1], deadline: soon,
                                                    clocks: { 0: { deadline: new Date(Date.now() + 42000).toISOString() } } }, {}))),
  };
}
"""


def test_the_cue_of_each_change_of_the_view(live_server_url: str, browser: Browser) -> None:
    """static/games/view_changes.js, run in Chromium on views made up for each kind of move."""
    page = browser.new_page()
    page.goto(f"{live_server_url}/rules/")
    cues = page.evaluate(CUE_CASES)
    assert cues == {
        "first": [],
        "other_game": [],
        "same_version": [],
        "card": ["card"],
        "cover_then_my_move": ["cover", "your-move"],
        "take": ["take", "your-move"],
        "taken_away": [],
        "take_by_the_timer": ["take"],
        "beaten": ["beaten"],
        "transfer": ["transfer"],
        "won": ["end-won"],
        "durak": ["end-durak"],
        "team_lost": ["end-durak"],
        "draw": ["end-draw"],
        "spectator_end": ["end"],
        "finalised_again": [],
        "my_move_spectator": False,
        "left_mine": 5,
        "left_not_mine": None,
        "left_clock": 42,
    }


RENDER_CUES = """
async () => {
  const { CUES, MASTER_VOLUME } = await import("/static/games/sound.js");
  const measured = {};
  for (const [name, cue] of Object.entries(CUES)) {
    const rate = 22050;
    const context = new OfflineAudioContext(1, rate * 2, rate);
    const output = context.createGain();
    output.gain.value = MASTER_VOLUME;
    output.connect(context.destination);
    cue(context, output, 0.01);
    const samples = (await context.startRendering()).getChannelData(0);
    let peak = 0, last = 0, first = -1;
    for (let i = 0; i < samples.length; i += 1) {
      const level = Math.abs(samples[i]);
      peak = Math.max(peak, level);
      if (level > 0.005) { last = i; if (first < 0) first = i; }
    }
    measured[name] = { peak, starts: first / rate, ends: last / rate };
  }
  return measured;
}
"""


def test_every_cue_is_synthesised_audible_short_and_unclipped(live_server_url: str, browser: Browser) -> None:
    """Each cue rendered offline by Chromium's Web Audio: it makes sound, starts at once, stays short and
    never reaches full scale."""
    page = browser.new_page()
    page.goto(f"{live_server_url}/rules/")
    measured = page.evaluate(RENDER_CUES)
    assert set(measured) == {
        "your-move", "card", "cover", "take", "beaten", "transfer", "clock-low", "end-won", "end-durak", "end-draw",
        "end",
    }  # fmt: skip
    for name, cue in measured.items():
        assert 0.05 < cue["peak"] < 0.9, (name, cue)
        assert cue["starts"] < 0.05, (name, cue)
        limit = 1.5 if name.startswith("end") else 0.6
        assert 0.03 < cue["ends"] < limit, (name, cue)
