"""The ratings pages: the pools, a pool's leaderboard, a player's ratings with charts, games and record.

Views read through ratings.selectors only; nothing here writes.
"""

from __future__ import annotations

from django.contrib.auth.decorators import permission_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from accounts.models import User
from ratings import fairplay, selectors
from ratings.models import RatingPool
from review import selectors as review_selectors

MAX_ACTIVE_DAYS = 3650


def _int_parameter(request: HttpRequest, name: str, default: int | None, low: int, high: int) -> int | None:
    """A whole-number query parameter within [low, high]; "" or "all" means no limit (None)."""
    raw = request.GET.get(name)
    if raw is None:
        return default
    if raw.strip() in ("", "all"):
        return None
    try:
        return min(max(int(raw), low), high)
    except ValueError:
        return default


@require_safe
def pool_list(request: HttpRequest) -> HttpResponse:
    return render(request, "ratings/pool_list.html", {"pools": selectors.pool_list()})


@require_safe
def pool_leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    pool = get_object_or_404(RatingPool, slug=slug)
    min_games = _int_parameter(request, "min_games", selectors.LEADERBOARD_MIN_GAMES, 1, 10_000) or 1
    active_days = _int_parameter(request, "days", selectors.LEADERBOARD_ACTIVE_DAYS, 1, MAX_ACTIVE_DAYS)
    context = {
        "pool": pool,
        "rows": selectors.leaderboard(pool=pool, min_games=min_games, active_days=active_days),
        "min_games": min_games,
        "active_days": active_days,
        "recent_games": selectors.recent_rated_games(pool=pool, limit=10),
    }
    return render(request, "ratings/leaderboard.html", context)


@require_safe
def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username)
    histories = selectors.player_ratings(user=player)
    context = {
        "player": player,
        "histories": histories,
        "charts": [history.chart_data() for history in histories],
        "record": selectors.player_record(user=player, ratings=[history.rating for history in histories]),
        "recent_games": selectors.recent_rated_games(user=player),
        "accuracy": review_selectors.accuracy_by_pool(user=player),
    }
    return render(request, "ratings/player.html", context)


FAIR_PLAY_KINDS = {
    fairplay.FREQUENT_PAIR: _("Often play each other"),
    fairplay.LOSING_PATTERN: _("Loses to one opponent in a pattern"),
    fairplay.BOT_TIMING: _("Bot-like timing"),
    fairplay.ACCURACY_ABOVE_RATING: _("Accuracy far above his rating's usual"),
    fairplay.STEADY_ACCURACY: _("Steady bot-like accuracy"),
}
FAIR_PLAY_EXPLANATIONS = {
    fairplay.FREQUENT_PAIR: _("Most of the less active account's rated games were against the other one."),
    fairplay.LOSING_PATTERN: _(
        "The first account finishes behind the second far more often than behind anyone else it meets."
    ),
    fairplay.BOT_TIMING: _("A person's thinking times are too quick or too regular for a person."),
    fairplay.ACCURACY_ABOVE_RATING: _(
        "His mean accuracy in analysed games is far above that of players rated near him in the same pool."
    ),
    fairplay.STEADY_ACCURACY: _("A high accuracy with little spread over many analysed games: people have bad games."),
}


@require_safe
@permission_required("accounts.direct_tournaments", raise_exception=True)
def fair_play(request: HttpRequest) -> HttpResponse:
    """Directors review accounts the fair-play signals point at (ratings.fairplay); nothing is decided here."""
    days = _int_parameter(request, "days", selectors.FAIR_PLAY_DAYS, 1, MAX_ACTIVE_DAYS) or selectors.FAIR_PLAY_DAYS
    review = selectors.fair_play_review(days=days)
    rows = [
        {
            "kind": FAIR_PLAY_KINDS[flag.kind],
            "explanation": FAIR_PLAY_EXPLANATIONS[flag.kind],
            "people": [review.users[user] for user in flag.users if user in review.users],
            "score": round(flag.score * 100),
            "evidence": sorted(flag.evidence.items()),
            "games": [key.removeprefix("game:") for key in flag.games if key.startswith("game:")],
        }
        for flag in review.flags
    ]
    context = {"rows": rows, "review": review, "days": days}
    return render(request, "ratings/fair_play.html", context)
