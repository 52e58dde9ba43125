"""A bot answers at the pace its table sets: the bot move task is sent with a countdown (instant 0, about a second
~1 s, slow 2.5 to 4 s), read off the scheduler's arguments; nothing sleeps. The lobby's form and the API create
tables with a pace, about a second by default; an unknown pace is refused."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client, override_settings

from games import services
from games.models import BotPace, Table
from games.services import bot_countdown, changes
from tests.games.factories import latest_game, person, table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def paced(settings: Any) -> None:
    """The tests' settings turn the pace off (durak_site.settings.test); these tests are about it."""
    settings.GAMES_BOT_PACE = True


@pytest.fixture
def scheduled(monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any) -> Iterator[list[tuple[str, Any]]]:
    """The bot move tasks sent: ("delay", args) for at once, ("countdown", seconds) for later."""
    from games import tasks

    sent: list[tuple[str, Any]] = []
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: sent.append(("delay", args)))
    monkeypatch.setattr(
        tasks.bot_move, "apply_async", lambda args, countdown: sent.append(("countdown", (args, countdown)))
    )
    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)
    monkeypatch.setattr(tasks.finalise_game, "delay", lambda *args: None)
    global _capture
    _capture = django_capture_on_commit_callbacks
    yield sent


_capture: Any = None


def _bot_leads(pace: str, level: str = "medium") -> None:
    """A table of a person and a bot where the bot moves first: the deal schedules its move."""
    owner = person()
    for _ in range(50):
        at = table(owner, bot_pace=pace)
        services.table_join(table=at, user=owner)
        with _capture(execute=True):
            services.table_add_bot(table=at, level=level)
        if _waits_for_bot(latest_game(at)):
            return
    raise AssertionError("the bot never led in 50 deals")


def _waits_for_bot(game: Any) -> bool:
    from games.snapshots import state_of
    from games.turns import waiting_seats

    return 1 in waiting_seats(state_of(game))


def test_an_instant_table_sends_the_bot_move_at_once(scheduled: list[tuple[str, Any]]) -> None:
    _bot_leads(BotPace.INSTANT)
    assert scheduled[-1][0] == "delay"
    assert all(kind == "delay" for kind, _ in scheduled)


@pytest.mark.parametrize(("pace", "least", "most"), [(BotPace.SECOND, 0.8, 1.2), (BotPace.SLOW, 2.5, 4.0)])
def test_a_paced_table_sends_the_bot_move_with_its_countdown(
    scheduled: list[tuple[str, Any]], pace: str, least: float, most: float
) -> None:
    _bot_leads(pace)
    kind, (args, countdown) = scheduled[-1]
    assert kind == "countdown"
    game = Table.objects.latest("created").games.get()
    assert args == (game.pk, game.seq)
    assert least <= countdown <= most


def test_the_countdown_leaves_a_search_bot_its_whole_cpu_budget() -> None:
    """The expert thinks 1 CPU second after its countdown: the countdown is the pace less that second, so
    its answer still comes at about the pace, and a pace shorter than the budget waits nothing."""
    from games.bots.levels import LEVELS

    draws = [bot_countdown(pace=BotPace.SLOW, level="expert", rng=random.Random(seed)) for seed in range(50)]
    assert all(2.5 - LEVELS["expert"].seconds <= draw <= 4.0 - LEVELS["expert"].seconds for draw in draws)
    assert bot_countdown(pace=BotPace.SECOND, level="expert", rng=random.Random(1)) <= 0.2
    assert LEVELS["expert"].seconds == 1.0  # the budget itself is not cut
    seconds = [bot_countdown(pace=BotPace.SECOND, level="easy", rng=random.Random(seed)) for seed in range(50)]
    assert min(seconds) >= 0.8 and max(seconds) <= 1.2 and len(set(seconds)) > 10  # not a metronome


def test_with_the_pace_off_every_bot_answers_at_once() -> None:
    with override_settings(GAMES_BOT_PACE=False):
        assert bot_countdown(pace=BotPace.SLOW, level="easy") == 0.0


def test_a_table_defaults_to_about_a_second_and_refuses_an_unknown_pace() -> None:
    owner = person()
    assert table(owner).bot_pace == BotPace.SECOND
    with pytest.raises(ValidationError):
        table(owner, bot_pace="ludicrous")


def test_the_lobby_form_and_the_api_create_a_table_with_its_pace() -> None:
    owner = person()
    client = Client()
    client.force_login(owner)
    form = client.get("/play/").content.decode()
    assert 'name="bot_pace"' in form and 'value="second" selected' in form
    answer = client.post("/play/tables/new/", {
        "preset": "podkidnoy", "deck": 36, "players": 2, "throw_in": "all", "first_bout_limit": 6,
        "stake": 0, "turn_seconds": 30, "bot_pace": "slow",
    })  # fmt: skip
    assert answer.status_code in (200, 302)
    assert Table.objects.filter(owner=owner).latest("created").bot_pace == BotPace.SLOW
    answer = client.post("/play/tables/new/", {
        "preset": "podkidnoy", "deck": 36, "players": 2, "throw_in": "all", "first_bout_limit": 6,
        "stake": 0, "turn_seconds": 30, "bot_pace": "warp",
    })  # fmt: skip
    assert Table.objects.filter(owner=owner).count() == 1
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(owner)
    created = api.post("/api/v1/tables/", {"rules": {"preset": "podkidnoy"}, "seats": 2, "bot_pace": "instant",
                                        "join": False}, format="json")  # fmt: skip
    assert created.status_code == 201, created.content
    assert created.json()["bot_pace"] == "instant"
    refused = api.post("/api/v1/tables/", {"rules": {"preset": "podkidnoy"}, "seats": 2, "bot_pace": "warp"}, format="json")
    assert refused.status_code == 400


def test_an_aktobe_bot_says_one_card_at_once_whatever_the_pace(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """A bot's announcement ("one card!", a duel) must come before a person moves past it: those moves are sent
    at once; every other bot move keeps the slow pace."""
    from games.snapshots import state_of
    from games.turns import optional_seats

    sent: dict[int, float] = {}
    monkeypatch.setattr(changes, "schedule_bot_move", lambda *, game_id, seq, countdown: sent.update({seq: countdown}))
    from games import tasks

    monkeypatch.setattr(tasks.turn_timeout, "apply_async", lambda *args, **kwargs: None)
    monkeypatch.setattr(tasks.finalise_game, "delay", lambda *args: None)
    owner = person()
    at = table(owner, seats=3, rules={"preset": "aktobe"}, bot_pace=BotPace.SLOW)
    with django_capture_on_commit_callbacks(execute=True):
        services.table_fill_bots(table=at, level="medium")
    game = latest_game(at)
    announcing_seen = paced_seen = 0
    for _ in range(600):
        game.refresh_from_db()
        if game.status != "playing" or game.seq not in sent:
            break
        state = state_of(game)
        seats = list(at.seats.order_by("number"))
        if any(seats[seat].is_bot for seat in optional_seats(state)):
            assert sent[game.seq] == 0.0
            announcing_seen += 1
        else:
            assert 2.5 <= sent[game.seq] <= 4.0
            paced_seen += 1
        with django_capture_on_commit_callbacks(execute=True):
            services.game_bot_move(game_id=game.pk, seq=game.seq)
    assert paced_seen > 10
    assert announcing_seen > 0, "no bot announced in this game"
