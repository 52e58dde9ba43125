"""Games against a bot brought to a chosen moment through the services, for the table's browser tests: the first lead,
an attack to answer, a covered attack, a hand of 20 after many takes, a transfer offered at a perevodnoy table, a
finished game. Built in the test process before a browser opens the page (Playwright's sync API runs an event loop,
and Django refuses database calls from a thread that has one); meanwhile the test process schedules no bot move,
turn timer or finalisation (conftest.py's `quiet_test_process`), so the bot moves only where the helpers say. Once
the page plays, Daphne moves the bot as in any game."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, ViewportSize, expect

from accounts.models import User
from games import services
from games.engine import Rules, legal_actions
from games.models import Game
from games.snapshots import state_of
from games.turns import waiting_seats
from tests.games.factories import person

PHONE: ViewportSize = {"width": 390, "height": 844}
SMALL_PHONE: ViewportSize = {"width": 360, "height": 640}
LANDSCAPE_PHONE: ViewportSize = {"width": 844, "height": 390}
DESKTOP: ViewportSize = {"width": 1366, "height": 768}
VIEWPORTS = {"phone": PHONE, "small-phone": SMALL_PHONE, "landscape-phone": LANDSCAPE_PHONE, "desktop": DESKTOP}
PODKIDNOY = {"preset": "podkidnoy"}
PEREVODNOY = {"preset": "perevodnoy"}


def screenshot_dir() -> Path:
    """BROWSER_SCREENSHOT_DIR if set, else tests/e2e/screenshots/ (ignored by git)."""
    folder = Path(os.environ.get("BROWSER_SCREENSHOT_DIR") or Path(__file__).parent / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def fresh(game: Game) -> Game:
    return Game.objects.select_related("table").get(pk=game.pk)


def game_against_bot(
    player: User, *, rules: dict[str, Any], first_attacker: int, name: str = "", bots: int = 1
) -> Game:
    seated: list[int] = []
    for _ in range(bots):  # each bot an account of the bench of its own, with its own name
        seated.append(services.bot_account_for("easy", seated=seated).pk)
    bot_accounts = [User.objects.get(pk=pk) for pk in seated]
    return services.game_start_reserved(
        owner=player, rules=Rules.from_dict(rules), players=[player] + bot_accounts, turn_seconds=900,
        name=name or f"{player.username} against the bot", first_attacker=first_attacker,
    )  # fmt: skip


def bot_moves(game: Game) -> Game:
    """Let the bots (every seat but 0) move while the game waits for one of them."""
    game = fresh(game)
    while game.status == "playing" and any(seat != 0 for seat in waiting_seats(state_of(game))):
        services.game_bot_move(game_id=game.pk, seq=game.seq)
        game = fresh(game)
    return game


def move(game: Game, player: User, choose: Callable[[list[Any]], Any]) -> Game:
    action = choose(legal_actions(state_of(game), 0))
    services.game_submit_action(game_id=game.pk, user=player, action=action.to_json(), seq=game.seq)
    return bot_moves(game)


def kind(action: Any) -> str:
    return str(action.to_json()["type"])


def first_of(*kinds: str) -> Callable[[list[Any]], Any]:
    def choose(actions: list[Any]) -> Any:
        for wanted in kinds:
            for action in actions:
                if kind(action) == wanted:
                    return action
        return actions[0]

    return choose


def single_lead(actions: list[Any]) -> Any:
    """A lead of one card (the engine lists a pair's lead before its single cards)."""
    return next(action for action in actions if kind(action) == "attack" and action.cards.bit_count() == 1)


def hand_size(game: Game, seat: int = 0) -> int:
    return int(state_of(game).hands[seat].bit_count())


def state_start(name: str, language: str = "en") -> tuple[User, Game]:
    """The player leads the first bout, six cards in hand."""
    player = person(name, language=language)
    return player, game_against_bot(player, rules=PODKIDNOY, first_attacker=0)


def state_attack(name: str, language: str = "en") -> tuple[User, Game]:
    """The bot led: the player covers or takes."""
    player = person(name, language=language)
    return player, bot_moves(game_against_bot(player, rules=PODKIDNOY, first_attacker=1))


def state_cover(name: str, language: str = "en") -> tuple[User, Game]:
    """The player led and the bot covered: the player throws in or says beaten."""
    player = person(name, language=language)
    for _attempt in range(20):
        game = game_against_bot(player, rules=PODKIDNOY, first_attacker=0)
        game = move(game, player, single_lead)  # a lead of several cards of one rank would leave fewer than 5
        view = state_of(game)
        if not view.taken and 0 in waiting_seats(view):
            return player, game
    raise AssertionError("the bot took every lead of 20 deals")


def state_take(name: str, language: str = "en", cards: int = 20) -> tuple[User, Game]:
    """The player took bout after bout until he holds at least `cards` cards, and the bot leads again."""
    player = person(name, language=language)
    for _attempt in range(10):
        game = bot_moves(game_against_bot(player, rules=PODKIDNOY, first_attacker=1))
        while game.status == "playing":
            state = state_of(game)
            if hand_size(game) >= cards and state.attack and not state.taken and 0 in waiting_seats(state):
                return player, game
            game = move(game, player, first_of("take", "pass", "attack"))
    raise AssertionError(f"no hand of {cards} cards in 10 deals")


def state_transfer(name: str, language: str = "en") -> tuple[User, Game]:
    """Perevodnoy, three players: the bot on the player's right led a card whose rank he holds, so he may
    transfer it on to the bot on his left."""
    player = person(name, language=language)
    for _attempt in range(40):
        game = bot_moves(game_against_bot(player, rules=PEREVODNOY, first_attacker=2, bots=2))
        if any(kind(action) == "transfer" for action in legal_actions(state_of(game), 0)):
            return player, game
    raise AssertionError("no transfer offered in 40 deals")


def state_end(name: str, language: str = "en") -> tuple[User, Game]:
    """A game played to its end (the player covers when he can, else takes) and finalised."""
    player = person(name, language=language)
    game = game_against_bot(player, rules=PODKIDNOY, first_attacker=0)
    while game.status == "playing":
        game = move(game, player, first_of("pass", "cover", "attack", "throw", "take"))
    services.game_finalise(game_id=game.pk)
    return player, fresh(game)


STATES: dict[str, Callable[..., tuple[User, Game]]] = {
    "start": state_start, "attack": state_attack, "cover": state_cover, "take": state_take,
    "transfer": state_transfer, "end": state_end,
}  # fmt: skip


def open_game(page: Page, url: str, game: Game) -> None:
    page.goto(f"{url}/play/game/{game.pk}/")
    page.wait_for_function("window.durakTable && window.durakTable.message")
    expect(page.locator("[data-part=connection]")).to_have_attribute("data-state", "connected")
    # Let the deal's motion end, so that what is measured is where the cards rest.
    page.wait_for_function("document.getAnimations().filter(a => a.constructor.name === 'Animation').length === 0")
