"""Helpers for the tournament tests: directors, bots and players, tournaments built and played through the
services (bot games moved by games.services step by step, so a test needs no task runner)."""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Iterable
from typing import Any

from django.utils import timezone

from accounts.models import BotLevel, User
from accounts.roles import Role
from accounts.services import bot_account_ensure, user_role_grant
from games import services as game_services
from games.models import Game, GameStatus
from tests.games.factories import person
from tournaments import services
from tournaments.models import MatchGame, MatchGameStatus, Tournament

_numbers = itertools.count(1)

__all__ = ["bot", "bots", "director", "person", "play_games", "tournament"]


def director(name: str | None = None) -> User:
    user = person(name or f"director{next(_numbers)}")
    return user_role_grant(user=user, role=Role.TOURNAMENT_DIRECTOR)


def bot(name: str | None = None, *, engine: str = "random", level: BotLevel = BotLevel.EASY) -> User:
    username = name or f"tbot{next(_numbers)}"
    return bot_account_ensure(username=username, display_name=username.title(), engine=engine, level=level)


def bots(count: int) -> list[User]:
    return [bot() for _ in range(count)]


def tournament(by: User | None = None, **options: Any) -> Tournament:
    """A tournament open for registration now, starting in an hour unless ``starts_at`` is given."""
    options.setdefault("starts_at", timezone.now() + datetime.timedelta(hours=1))
    options.setdefault("name", f"Cup {next(_numbers)}")
    return services.tournament_create(director=by or director(), **options)


def enter(event: Tournament, players: Iterable[User], **options: Any) -> None:
    for player in players:
        services.tournament_register(tournament=event, user=player, by=event.director, **options)


def finish_game(game: Game) -> None:
    """Move the bots of a game until it is over, then finalise it (what the tasks would do)."""
    for _ in range(5000):
        game.refresh_from_db()
        if game.status == GameStatus.FINISHED:
            game_services.game_finalise(game_id=game.pk)
            return
        game_services.game_bot_move(game_id=game.pk, seq=game.seq)
    raise AssertionError(f"game {game.pk} did not end")


def play_games(event: Tournament, *, rounds: int = 1) -> None:
    """Play every game being played in ``event``, including the next games of a match, until none is left."""
    for _ in range(10_000):
        playing = MatchGame.objects.filter(pairing__tournament=event, status=MatchGameStatus.PLAYING).select_related("game").first()
        if playing is None:
            return
        finish_game(playing.game)
    raise AssertionError("games kept coming")
