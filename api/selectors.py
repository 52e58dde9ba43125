"""Reads of the API: which tables and games a caller may see, games with their players, a player's history.

Visibility follows the pages (games.views): a private table and its games are seen only by its owner and
its players. A game's record (every hand, the stock's order) is read only once the game is over
(games.selectors.game_record_json); nothing here returns a running game's record.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from accounts.models import User
from games.models import Game, GameStatus, Seat, Table
from ratings.models import RatedGame, RatingChange


def visible_tables(user: User | Any) -> QuerySet[Table]:
    tables = Table.objects.all()
    if user is not None and user.is_authenticated:
        seated = Seat.objects.filter(table=OuterRef("pk"), user=user)
        return tables.filter(Q(private=False) | Q(owner=user) | Q(Exists(seated)))
    return tables.filter(private=False)


def _seats_prefetch() -> Prefetch[Any]:
    return Prefetch("table__seats", queryset=Seat.objects.select_related("user__bot_account").order_by("number"))


def visible_games(user: User | Any) -> QuerySet[Game]:
    return (
        Game.objects.filter(table__in=visible_tables(user))
        .select_related("table", "result", "rated_game__pool")
        .prefetch_related(_seats_prefetch())
        .defer("record")
    )


def finished_games(user: User | Any) -> QuerySet[Game]:
    return visible_games(user).filter(status=GameStatus.FINISHED).order_by("-finished", "-pk")


def game_players(game: Game) -> list[Seat]:
    """The game's seats in order, from the prefetched table seats."""
    return [seat for seat in game.table.seats.all() if seat.number < game.players]


def players() -> QuerySet[User]:
    return User.objects.filter(is_active=True).select_related("bot_account").order_by("username")


def is_program_bot(user: User) -> bool:
    """Played by a program through the bot API (the relation is loaded by `players`)."""
    # A missing reverse one-to-one raises RelatedObjectDoesNotExist, an AttributeError.
    return hasattr(user, "bot_account")


def rating_history(*, user: User) -> QuerySet[RatingChange]:
    """A player's rating changes, newest first, each with its rated game and pool."""
    return (
        RatingChange.objects.filter(user=user)
        .select_related("rated_game__pool")
        .order_by("-rated_game__played_at", "-rated_game_id")
    )


def rated_game_of(game: Game) -> RatedGame | None:
    try:
        rated: RatedGame = game.rated_game
    except RatedGame.DoesNotExist:
        return None
    return rated


def playing_games_of(user: User) -> QuerySet[Game]:
    """The running games in which this account holds a seat as a person (a bot account's games)."""
    seated = Seat.objects.filter(table=OuterRef("table"), user=user, bot_level="", number__lt=OuterRef("players"))
    return (
        Game.objects.filter(status=GameStatus.PLAYING)
        .filter(Exists(seated))
        .select_related("table")
        .prefetch_related(_seats_prefetch())
        .defer("record")
        .order_by("started", "pk")
    )
