"""Reads of game review: who may ask for and read a game's analysis, the stored analysis as JSON, a player's
accuracy by rating pool, and the accuracies the fair-play review compares (ratings.fairplay)."""

from __future__ import annotations

import datetime
import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from accounts.models import User
from games.bots import review as core
from games.models import Game, GameStatus, Seat
from review.models import AnalysisStatus, GameAnalysis, SeatAccuracy


def game_players(*, game: Game) -> dict[int, int | None]:
    """Seat -> the account that played it: a rated game's rating changes name them exactly; otherwise the
    table's seats (a table keeps the same people from one game to its rematch)."""
    from ratings.models import RatingChange

    players: dict[int, int | None] = {seat: None for seat in range(game.players)}
    rated = list(RatingChange.objects.filter(rated_game__game=game).values_list("seat", "user_id"))
    if rated:
        players.update({seat: user_id for seat, user_id in rated if seat in players})
        return players
    for number, user_id in Seat.objects.filter(table_id=game.table_id, number__lt=game.players).values_list(
        "number", "user_id"
    ):
        players[number] = user_id
    return players


def tournament_of(*, game: Game) -> Any:
    """The tournament a game was dealt for (tournaments.models.MatchGame), or None."""
    from tournaments.models import Tournament

    return Tournament.objects.filter(pairings__games__game=game).first()


def can_review(*, user: User | None, game: Game) -> bool:
    """Whether ``user`` may ask for and read the analysis of ``game``: a person who played in it, a director of
    its tournament (tournaments.services.can_direct) or staff. Bots and anonymous visitors may not."""
    if user is None or not user.is_authenticated or user.is_bot:
        return False
    if user.is_staff or user.is_superuser:
        return True
    if user.pk in game_players(game=game).values():
        return True
    tournament = tournament_of(game=game)
    if tournament is None:
        return False
    from tournaments.services import can_direct

    return can_direct(user=user, tournament=tournament)


def analysis_of(*, game: Game, budget: str) -> GameAnalysis | None:
    return GameAnalysis.objects.filter(game=game, budget=budget).first()


def replay_analysis(game: Game) -> dict[str, Any] | None:
    """The analysis the replay page draws (games.bots.review's JSON): the deepest budget done, if any."""
    done = [row for row in GameAnalysis.objects.filter(game=game, status=AnalysisStatus.DONE) if row.result]
    if not done:
        return None
    budgets = list(core.BUDGETS)
    best = max(done, key=lambda row: budgets.index(row.budget) if row.budget in budgets else -1)
    return dict(best.result or {})


def analysis_url(*, game_id: int, budget: str) -> str:
    return f"{reverse('review:analysis-json', args=[game_id])}?budget={budget}"


def analysis_json(analysis: GameAnalysis) -> dict[str, Any]:
    """The stored analysis as the page and the API give it: its state, and once done the analysis's JSON
    (games.bots.review's shape) with the account of each seat. Only finished games are analysed, so every
    card in it is public."""
    players = [
        {"seat": row.seat, "username": row.user.username if row.user else None, "accuracy": row.accuracy}
        for row in analysis.seats.select_related("user").order_by("seat")
    ]
    return {
        "game": analysis.game_id,
        "budget": analysis.budget,
        "status": analysis.status,
        "progress": {"done": analysis.progress_done, "total": analysis.progress_total},
        "accuracy": analysis.accuracy,
        "players": players,
        "analysis": analysis.result if analysis.status == AnalysisStatus.DONE else None,
        "requested": analysis.created.isoformat(),
        "finished": analysis.finished.isoformat() if analysis.finished else None,
    }


def progress_message(analysis: GameAnalysis) -> dict[str, Any]:
    """What the analysis socket says of an analysis's state (review.consumers)."""
    message: dict[str, Any] = {
        "type": "analysis.done" if analysis.status in (AnalysisStatus.DONE, AnalysisStatus.FAILED) else "analysis.progress",
        "game": analysis.game_id, "budget": analysis.budget, "status": analysis.status,
        "done": analysis.progress_done, "total": analysis.progress_total,
    }  # fmt: skip
    if analysis.status == AnalysisStatus.DONE:
        message["accuracy"] = analysis.accuracy
        message["url"] = analysis_url(game_id=analysis.game_id, budget=analysis.budget)
    return message


def analyses_of_game(*, game_id: int) -> list[GameAnalysis]:
    return list(GameAnalysis.objects.filter(game_id=game_id).order_by("budget"))


def analyses_requested_since(*, user: User, since: datetime.datetime) -> int:
    """New analyses ``user`` asked for since ``since`` (his daily allowance counts these)."""
    return GameAnalysis.objects.filter(requested_by=user, automatic=False, created__gte=since).count()


def is_reviewable_game(game: Game) -> bool:
    return game.status == GameStatus.FINISHED


@dataclass(frozen=True)
class PoolAccuracy:
    pool: Any  # ratings.models.RatingPool
    games: int
    mean: float


def accuracy_by_pool(*, user: User) -> list[PoolAccuracy]:
    """A player's accuracy over his analysed rated games, by rating pool (one budget's analysis a game: the
    deepest stored), in the pools' order."""
    from ratings.models import RatingPool

    rows = (
        SeatAccuracy.objects.filter(user=user, accuracy__isnull=False, analysis__status=AnalysisStatus.DONE,
                                    analysis__game__rated_game__isnull=False)
        .values_list("analysis__game_id", "analysis__game__rated_game__pool_id", "analysis__budget", "accuracy")
    )  # fmt: skip
    chosen: dict[int, tuple[int, str, float]] = {}
    for game_id, pool_id, budget, accuracy in rows:
        if game_id not in chosen or _deeper(budget, chosen[game_id][1]):
            chosen[game_id] = (pool_id, budget, float(accuracy or 0.0))  # never None: filtered above
    by_pool: dict[int, list[float]] = defaultdict(list)
    for pool_id, _budget, accuracy in chosen.values():
        by_pool[pool_id].append(accuracy)
    pools = RatingPool.objects.filter(pk__in=by_pool).order_by("position", "pk")
    return [
        PoolAccuracy(pool=pool, games=len(by_pool[pool.pk]), mean=round(statistics.fmean(by_pool[pool.pk]), 1))
        for pool in pools
    ]


def _deeper(budget: str, than: str) -> bool:
    from games.bots.review import BUDGETS

    return BUDGETS.get(budget, 0.0) > BUDGETS.get(than, 0.0)


def accuracy_samples(*, since: datetime.datetime, pool_id: int | None = None, limit: int = 20_000) -> list[Any]:
    """Each human player's accuracy in each analysed rated game played since ``since``, with his rating in the
    game's pool before it: ratings.fairplay.AccuracySample values (one budget a game: the deepest stored)."""
    from ratings.fairplay import AccuracySample
    from ratings.models import RatingChange

    rows = SeatAccuracy.objects.filter(
        accuracy__isnull=False, user__isnull=False, user__is_bot=False, analysis__status=AnalysisStatus.DONE,
        analysis__game__rated_game__played_at__gte=since,
    )  # fmt: skip
    if pool_id is not None:
        rows = rows.filter(analysis__game__rated_game__pool_id=pool_id)
    values = list(
        rows.order_by("-analysis__game__rated_game__played_at").values_list(
            "user_id", "accuracy", "analysis__budget", "analysis__game__rated_game__id",
            "analysis__game__rated_game__pool_id", "analysis__game_id",
        )[:limit]
    )  # fmt: skip
    chosen: dict[tuple[int, int], tuple[float, str, int, int, int]] = {}
    for user_id, accuracy, budget, rated_id, pool, game_id in values:
        key = (user_id, game_id)
        if key not in chosen or _deeper(budget, chosen[key][1]):
            chosen[key] = (float(accuracy or 0.0), budget, rated_id, pool, game_id)  # never None: filtered above
    before = {
        (rated_id, user_id): rating
        for rated_id, user_id, rating in RatingChange.objects.filter(
            rated_game_id__in={value[2] for value in chosen.values()}
        ).values_list("rated_game_id", "user_id", "before")
    }
    return [
        AccuracySample(user=user_id, pool=pool, rating=before[(rated_id, user_id)], accuracy=accuracy,
                       key=f"game:{game_id}")
        for (user_id, _game), (accuracy, _budget, rated_id, pool, game_id) in chosen.items()
        if (rated_id, user_id) in before
    ]  # fmt: skip
