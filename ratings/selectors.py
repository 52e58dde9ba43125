"""Reads the ratings pages need: pools, leaderboards, a player's ratings with their history, recent rated
games with their changes, and a player's record. Each runs a fixed number of queries, however many rows."""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db.models import Count, OuterRef, Prefetch, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from ratings.models import EpauletteRecord, EpauletteRole, PlayerRating, RatedGame, RatingChange, RatingPool

# A leaderboard lists players with at least this many games in the pool who played in the last N days
# (None: everyone); both can be set in settings and changed per page view.
LEADERBOARD_MIN_GAMES: int = getattr(settings, "RATINGS_LEADERBOARD_MIN_GAMES", 5)
LEADERBOARD_ACTIVE_DAYS: int | None = getattr(settings, "RATINGS_LEADERBOARD_ACTIVE_DAYS", 90)
LEADERBOARD_SIZE = 100
HISTORY_POINTS = 500  # the latest games of each pool drawn on a player's chart
RECENT_GAMES = 20
# Epaulette ranks in the order of the ladder (RULES.md, Epaulettes), the queen last.
EPAULETTE_RANKS = ("6", "7", "8", "9", "10", "J", "K", "A", "Q")


def pool_list(*, include_inactive: bool = False) -> list[RatingPool]:
    """The pools with their number of rated players and games (annotated ``player_count``, ``game_count``)."""
    players = (
        PlayerRating.objects.filter(pool=OuterRef("pk")).order_by().values("pool").annotate(n=Count("pk")).values("n")
    )
    games = RatedGame.objects.filter(pool=OuterRef("pk")).order_by().values("pool").annotate(n=Count("pk")).values("n")
    pools = RatingPool.objects.annotate(
        player_count=Coalesce(Subquery(players), 0), game_count=Coalesce(Subquery(games), 0)
    ).order_by("position", "pk")
    if not include_inactive:
        pools = pools.filter(active=True)
    return list(pools)


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    rating: PlayerRating

    @property
    def user(self) -> User:
        return self.rating.user


def leaderboard(
    *,
    pool: RatingPool,
    min_games: int = LEADERBOARD_MIN_GAMES,
    active_days: int | None = LEADERBOARD_ACTIVE_DAYS,
    limit: int = LEADERBOARD_SIZE,
    now: datetime.datetime | None = None,
) -> list[LeaderboardRow]:
    """The pool's best ratings: players with ``min_games`` games or more who played within ``active_days``
    days (None: ever); bots included and marked by ``row.user.is_bot``. One query."""
    ratings = PlayerRating.objects.filter(pool=pool, games__gte=max(min_games, 1)).select_related("user")
    if active_days is not None:
        since = (now or timezone.now()) - datetime.timedelta(days=active_days)
        ratings = ratings.filter(last_played__gte=since)
    top = ratings.order_by("-rating", "user__username")[:limit]
    return [LeaderboardRow(rank=index + 1, rating=rating) for index, rating in enumerate(top)]


@dataclass
class PoolHistory:
    """A player's rating in one pool and its course: one point after each of his rated games."""

    rating: PlayerRating
    points: list[RatingChange] = field(default_factory=list)

    @property
    def pool(self) -> RatingPool:
        return self.rating.pool

    def chart_data(self) -> dict[str, Any]:
        """What the page's Chart.js line chart draws: the rating after each game (the first point is the
        rating before the first game shown), labelled by date."""
        labels: list[str] = []
        values: list[float] = []
        if self.points:
            first = self.points[0]
            labels.append("")
            values.append(round(first.before, 1))
        for change in self.points:
            labels.append(timezone.localtime(change.rated_game.played_at).date().isoformat())
            values.append(round(change.after, 1))
        return {"pool": self.pool.name, "labels": labels, "ratings": values}


def player_ratings(*, user: User, history_points: int = HISTORY_POINTS) -> list[PoolHistory]:
    """The player's rating in every pool he has played in, with its history (the latest
    ``history_points`` games of each pool, oldest first). Two queries."""
    ratings = list(
        PlayerRating.objects.filter(user=user).select_related("pool").order_by("pool__position", "pool_id")
    )
    histories = {rating.pool_id: PoolHistory(rating=rating) for rating in ratings}
    changes = (
        RatingChange.objects.filter(user=user)
        .select_related("rated_game")
        .order_by("rated_game__pool_id", "-rated_game__sequence")
    )
    for change in changes.iterator(chunk_size=2000):
        history = histories.get(change.rated_game.pool_id)
        if history is not None and len(history.points) < history_points:
            history.points.append(change)
    for history in histories.values():
        history.points.reverse()
    return list(histories.values())


def recent_rated_games(
    *, user: User | None = None, pool: RatingPool | None = None, limit: int = RECENT_GAMES
) -> list[RatedGame]:
    """The latest rated games (of ``user``, of ``pool``), newest first, each with ``seat_changes`` (every
    player's change, best place first, users loaded). Two queries."""
    games = RatedGame.objects.select_related("pool")
    if user is not None:
        games = games.filter(changes__user=user)
    if pool is not None:
        games = games.filter(pool=pool)
    changes = RatingChange.objects.select_related("user").order_by("seat")
    recent: list[RatedGame] = list(
        games.order_by("-played_at", "-pk").prefetch_related(Prefetch("changes", queryset=changes, to_attr="seat_changes"))[
            :limit
        ]
    )
    for rated_game in recent:
        # Best first: by place (players out together keep their seat order), the durak last.
        place_of = {seat: index for index, group in enumerate(rated_game.outcome["places"]) for seat in group}
        rated_game.seat_changes.sort(key=lambda change: (place_of.get(change.seat, 0), change.seat))  # type: ignore[attr-defined]
    return recent


@dataclass
class PlayerRecord:
    """A player's record over his rated games: per pool wins, durak finishes and draws, and epaulettes
    hung and received by rank (``epaulettes`` lists (rank, hung, received), ranks in ladder order)."""

    pools: list[PlayerRating]
    epaulettes: list[tuple[str, int, int]]

    @property
    def games(self) -> int:
        return sum(rating.games for rating in self.pools)

    @property
    def wins(self) -> int:
        return sum(rating.wins for rating in self.pools)

    @property
    def durak_finishes(self) -> int:
        return sum(rating.durak_finishes for rating in self.pools)

    @property
    def draws(self) -> int:
        return sum(rating.draws for rating in self.pools)

    @property
    def epaulettes_hung(self) -> int:
        return sum(hung for _, hung, _ in self.epaulettes)

    @property
    def epaulettes_received(self) -> int:
        return sum(received for _, _, received in self.epaulettes)


def player_record(*, user: User, ratings: list[PlayerRating] | None = None) -> PlayerRecord:
    """The player's record; pass ``ratings`` when already loaded (``player_ratings``). One or two queries."""
    if ratings is None:
        ratings = list(PlayerRating.objects.filter(user=user).select_related("pool").order_by("pool__position"))
    counts: dict[str, dict[str, int]] = defaultdict(lambda: {EpauletteRole.HUNG: 0, EpauletteRole.RECEIVED: 0})
    for row in EpauletteRecord.objects.filter(user=user).values("rank", "role").annotate(n=Count("pk")).order_by():
        counts[row["rank"]][row["role"]] = row["n"]
    ordered = sorted(counts, key=lambda rank: EPAULETTE_RANKS.index(rank) if rank in EPAULETTE_RANKS else 99)
    return PlayerRecord(
        pools=ratings,
        epaulettes=[(rank, counts[rank][EpauletteRole.HUNG], counts[rank][EpauletteRole.RECEIVED]) for rank in ordered],
    )


# Fair play (ratings.fairplay): how far back the review looks, and at most how many games it reads.
FAIR_PLAY_DAYS = 90
FAIR_PLAY_MAX_GAMES = 20_000
FAIR_PLAY_MAX_ACTIONS = 200_000


@dataclass
class FairPlayReview:
    flags: list[Any]
    users: dict[int, User]
    games_read: int
    moves_read: int
    since: datetime.datetime
    accuracies_read: int = 0


def fair_play_review(*, days: int = FAIR_PLAY_DAYS, pool: RatingPool | None = None) -> FairPlayReview:
    """The fair-play flags over the rated games (the human moves of live games, and the accuracies of analysed
    games) of the last `days` days, with the accounts they name. A fixed number of queries."""
    from games.models import ActionLog, Seat
    from ratings import fairplay

    since = timezone.now() - datetime.timedelta(days=days)
    rated = RatedGame.objects.filter(played_at__gte=since)
    if pool is not None:
        rated = rated.filter(pool=pool)
    rated_games = list(rated.order_by("-played_at").values("pk", "game_key", "outcome")[:FAIR_PLAY_MAX_GAMES])
    seat_users: dict[int, dict[int, int]] = defaultdict(dict)
    for change in RatingChange.objects.filter(rated_game__in=[row["pk"] for row in rated_games]).values(
        "rated_game_id", "seat", "user_id"
    ):
        seat_users[change["rated_game_id"]][change["seat"]] = change["user_id"]
    results = []
    for row in reversed(rated_games):
        users = seat_users[row["pk"]]
        places = tuple(
            tuple(users[seat] for seat in group if seat in users) for group in row["outcome"].get("places", [])
        )
        results.append(fairplay.RatedResult(key=row["game_key"], places=tuple(group for group in places if group)))

    # Thinking times of people: from the move before to each move a person made himself.
    actions = list(
        ActionLog.objects.filter(at__gte=since)
        .order_by("game_id", "seq", "pk")
        .values("game_id", "game__table_id", "seat", "at", "by_timer", "by_autopilot")[:FAIR_PLAY_MAX_ACTIONS]
    )
    tables = {action["game__table_id"] for action in actions}
    humans = {
        (seat["table_id"], seat["number"]): seat["user_id"]
        for seat in Seat.objects.filter(table_id__in=tables, bot_level="", user__isnull=False, user__is_bot=False)
        .values("table_id", "number", "user_id")
    }  # fmt: skip
    thinking: dict[int, list[float]] = defaultdict(list)
    previous: Any = None
    for action in actions:
        if previous is not None and previous["game_id"] == action["game_id"]:
            user = humans.get((action["game__table_id"], action["seat"]))
            if user is not None and not action["by_timer"] and not action["by_autopilot"]:
                thinking[user].append((action["at"] - previous["at"]).total_seconds())
        previous = action
    # Accuracies of analysed rated games (review/): the accuracy signals compare them within rating bands.
    from review.selectors import accuracy_samples

    accuracies = accuracy_samples(since=since, pool_id=pool.pk if pool is not None else None)
    flags = fairplay.review(results, thinking, accuracies=accuracies)
    named = {user for flag in flags for user in flag.users}
    return FairPlayReview(
        flags=flags,
        users={user.pk: user for user in User.objects.filter(pk__in=named)},
        games_read=len(rated_games),
        moves_read=len(actions),
        since=since,
        accuracies_read=len(accuracies),
    )
