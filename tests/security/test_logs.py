"""No log line names a card (issue 10; made to bite in issue 39).

Every logger is captured, the `django` logger too (it does not propagate to the root), each record formatted
with its traceback, over a whole game against a bot whose tasks run in process as the site runs them: refused
moves (a card the player cannot see, a stale version), timeouts, a bot task that crashes on an illegal move,
and the game's end. Logs go to files and services that players' secrecy must not depend on; the action log in
the database is the game's memory, not the server log. The planted-defect test shows the proof fails on one
log line with a card.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client, override_settings

from durak_site.inprocess_tasks import in_process_runner
from games import services, tasks
from games.services import actions, changes
from games.engine import Action, action_from_json
from games.engine.cards import card_name, names
from games.models import Game, GameStatus, Result, Seat
from games.snapshots import state_of
from games.turns import waiting_seats
from tests.games.factories import latest_game, person, table
from tests.leakproof import cards_in

pytestmark = pytest.mark.django_db(transaction=True)


class _Keep(logging.Handler):
    def __init__(self, lines: list[str]) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines = lines
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))  # with the traceback and stack, when the record has one


@contextlib.contextmanager
def every_log_line() -> Iterator[list[str]]:
    """Every record of every logger while the block runs, formatted as a log file would hold it."""
    lines: list[str] = []
    handler = _Keep(lines)
    loggers = [logging.getLogger()] + [
        logger
        for logger in logging.Logger.manager.loggerDict.values()
        if isinstance(logger, logging.Logger) and not logger.propagate
    ]
    levels = [(logger, logger.level) for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
    try:
        yield lines
    finally:
        for logger, level in levels:
            logger.removeHandler(handler)
            logger.setLevel(level)


def assert_no_card_in(lines: list[str]) -> None:
    named = [(line[:200], sorted(cards_in(line))) for line in lines if cards_in(line)]
    assert named == [], f"log lines name cards: {named}"


def _idle() -> None:
    assert in_process_runner().wait_until_idle(timeout_s=30)


@pytest.fixture(autouse=True)
def tasks_in_process() -> Iterator[None]:
    """The site's tasks run in this process whatever the run's REDIS_URL (under CI=true no worker runs here)."""
    with override_settings(TASKS_IN_PROCESS=True):
        yield


@pytest.fixture(autouse=True)
def timers_fire_when_the_test_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hour-long turn timers would keep the in-process runner busy for an hour: they are dropped, and the
    test fires the timer task itself (tasks.turn_timeout.delay), which runs as a lost timer's would."""
    schedule = tasks.turn_timeout.apply_async

    def now_only(args: Any = None, kwargs: Any = None, **options: Any) -> Any:
        if (options.get("countdown") or 0) > 60:
            return None
        return schedule(args, kwargs, **options)

    monkeypatch.setattr(tasks.turn_timeout, "apply_async", now_only)


def _play_a_game_with_everything_that_logs(monkeypatch: pytest.MonkeyPatch) -> tuple[Game, int, int, int]:
    anna = person()
    at = table(anna, seats=2, stake=0, turn_seconds=3600)
    services.table_join(table=at, user=anna)
    services.table_add_bot(table=at, level="medium")
    _idle()
    game = latest_game(at)
    anna_seat = Seat.objects.get(table=at, user=anna, bot_level="").number
    # Once, the bot's move is illegal (a bot with a bug): its task fails and must say so without the cards.
    choose = actions.bot_action
    crashed: list[int] = []

    def buggy_bot(**arguments: Any) -> Action:
        state = arguments["state"]
        hand = names(state.hands[arguments["seat"]])
        if not crashed and len(hand) >= 2 and state.attacker == arguments["seat"] and not state.attack:
            crashed.append(game.pk)
            # A card it does not hold: the engine's refusal names it.
            return action_from_json({"type": "attack", "cards": names(sum(1 << card for card in state.stock))[:1]})
        return choose(**arguments)

    monkeypatch.setattr(actions, "bot_action", buggy_bot)
    # The game's end is settled by a task that crashes once (the database went away) and runs again.
    finalise = services.game_finalise
    failed: list[int] = []

    def crashing_finalise(*, game_id: int) -> Any:
        if not failed:
            failed.append(game_id)
            raise RuntimeError("the database went away")
        return finalise(game_id=game_id)

    monkeypatch.setattr(services, "game_finalise", crashing_finalise)
    refused = timeouts = 0
    for turn in range(600):
        _idle()
        game = Game.objects.get(pk=game.pk)
        if game.status == GameStatus.FINISHED:
            break
        state = state_of(game)
        if anna_seat not in waiting_seats(state):
            tasks.bot_move.delay(game.pk, game.seq)  # a lost or crashed task: the next one goes on
            continue
        # First a card she cannot see (the bot's or the stock's), then a stale version: both refused.
        hidden = state.hands[1 - anna_seat] | sum(1 << card for card in state.stock[1:])  # not the face-up card
        other = next((card for card in range(52) if hidden >> card & 1), None)
        if other is not None:
            for bad, seq in (
                ({"type": "attack", "cards": [card_name(other)]}, game.seq),
                ({"type": "take"}, game.seq + 5),
            ):
                with pytest.raises(services.GameActionError):
                    services.game_submit_action(game_id=game.pk, user=anna, action=bad, seq=seq)
                refused += 1
        tasks.turn_timeout.delay(game.pk, game.seq)  # her time runs out: the default move
        timeouts += 1
        del turn
    _idle()
    game = Game.objects.get(pk=game.pk)
    # Pages asked for while it ran, refused: the `django` logger's lines.
    Client().get(f"/play/game/{game.pk}/record.json")
    Client().get("/play/game/999999/")
    return game, refused, timeouts, len(crashed)


def test_a_whole_game_with_refused_moves_timeouts_and_a_crashed_task_logs_no_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with every_log_line() as lines:
        game, refused, timeouts, crashed = _play_a_game_with_everything_that_logs(monkeypatch)
        assert game.status == GameStatus.FINISHED
        tasks.finalise_game.delay(game.pk)  # the crashed settlement again
        _idle()
    assert Result.objects.filter(game=game).count() == 1
    assert refused > 0 and timeouts > 0 and crashed == 1
    # What the capture must have seen for the proof to mean anything: the django logger (it does not propagate),
    # a crashed task's traceback, the bot's refused move.
    assert any(line.startswith("django.request ") for line in lines), "the django logger was not captured"
    assert any("RuntimeError: the database went away" in line and "Traceback" in line for line in lines)
    assert any("chose a refused move" in line for line in lines)
    assert_no_card_in(lines)


def test_the_log_proof_fails_on_one_line_with_a_card(monkeypatch: pytest.MonkeyPatch) -> None:
    record = changes._record_action

    def chatty(**arguments: Any) -> Any:
        logging.getLogger("django.request").debug("seat %s played %s", arguments["seat"], arguments["action"].to_json())
        return record(**arguments)

    monkeypatch.setattr(changes, "_record_action", chatty)
    with every_log_line() as lines:
        anna = person()
        at = table(anna, seats=2, stake=0, turn_seconds=3600)
        services.table_join(table=at, user=anna)
        services.table_add_bot(table=at, level="easy")
        _idle()
        game = latest_game(at)
        for _ in range(3):
            _idle()
            game.refresh_from_db()
            tasks.turn_timeout.delay(game.pk, game.seq)
        _idle()
    with pytest.raises(AssertionError, match="log lines name cards"):
        assert_no_card_in(lines)
