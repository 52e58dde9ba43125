"""What a newcomer finds after `make run` (manage.py load_demo): a Swiss championship of bots that starts at
once and plays itself with its standings moving, the next championship, open for registration, with a few
bots entered already, and a rating pool with some history (rated games between the demo's bots, drawn as
`simulate_tournament --fast` draws them) so that the leaderboard and the rating charts are not empty.

Safe to repeat: a new edition is created only when the last one is over. The tournaments' sweep
(tournaments.tasks.sweep) calls ``demo_bots_swiss_renew`` and ``demo_open_swiss_renew``, so that on a demo
site a bots' Swiss is always running or due (each edition starts BOTS_SWISS_EVERY after the one before, or
at once when that is past) and an open Swiss always takes registrations (the next opens once the last starts).
"""

from __future__ import annotations

import datetime
import random

from django.db import transaction
from django.utils import timezone

from accounts.models import BotLevel, User
from accounts.services import bot_account_ensure
from ratings import elo
from ratings.models import RatedGame, RatingPool
from ratings.services import rating_apply_game
from tournaments import services
from tournaments.models import NoShow, Tournament, TournamentStatus

# (username, display name, engine, level): quick engines, so that a round of games takes seconds.
DEMO_ENTRANTS: tuple[tuple[str, str, str, BotLevel], ...] = (
    ("demo-anya", "Anya", "heuristic", BotLevel.MEDIUM),
    ("demo-boris", "Boris", "random", BotLevel.EASY),
    ("demo-vera", "Vera", "heuristic", BotLevel.MEDIUM),
    ("demo-gleb", "Gleb", "random", BotLevel.EASY),
    ("demo-dasha", "Dasha", "heuristic", BotLevel.MEDIUM),
    ("demo-egor", "Egor", "random", BotLevel.EASY),
    ("demo-zhenya", "Zhenya", "heuristic", BotLevel.MEDIUM),
    ("demo-zoya", "Zoya", "random", BotLevel.EASY),
    ("demo-igor", "Igor", "heuristic", BotLevel.MEDIUM),
    ("demo-katya", "Katya", "random", BotLevel.EASY),
    ("demo-lev", "Lev", "heuristic", BotLevel.MEDIUM),
    ("demo-masha", "Masha", "random", BotLevel.EASY),
)
BOTS_SWISS = "Bots' Swiss"
OPEN_SWISS = "Open Swiss"
OPEN_SWISS_BOTS = 5  # bots entered in the open championship, so that a newcomer has opponents
OPEN_SWISS_AHEAD = datetime.timedelta(minutes=30)
BOTS_SWISS_EVERY = datetime.timedelta(minutes=30)
BOTS_SWISS_FIRST_IN = datetime.timedelta(seconds=5)

# The rated history: games of the heads-up podkidnoy pool between the demo's bots, one every three hours back
# from now, their results drawn from a notional strength of each engine (Elo's expected score).
HISTORY_POOL = "podkidnoy-36-heads-up"
HISTORY_GAMES = 60  # ten games each for the twelve bots: all on the leaderboard (5 games at least)
HISTORY_KEY = "demo-history:"
HISTORY_EVERY = datetime.timedelta(hours=3)
HISTORY_STRENGTH = {"heuristic": 1650.0, "random": 1350.0}
HISTORY_DRAW_RATE = 0.05


def _edition(base: str) -> str:
    count = Tournament.objects.filter(name__startswith=base).count()
    return base if count == 0 else f"{base} #{count + 1}"


def _current(base: str) -> Tournament | None:
    return (
        Tournament.objects.filter(
            name__startswith=base, status__in=[TournamentStatus.REGISTRATION, TournamentStatus.RUNNING]
        )
        .order_by("-pk")
        .first()
    )


def _demo_bots() -> list[User]:
    return [
        bot_account_ensure(username=username, display_name=name, engine=engine, level=level)
        for username, name, engine, level in DEMO_ENTRANTS
    ]


def _is_demo(event: Tournament) -> bool:
    """A tournament load_demo made (the demo's first bot is entered), not one a club happened to name alike."""
    return event.entrants.filter(user__username=DEMO_ENTRANTS[0][0], user__is_bot=True).exists()


def _bots_swiss_create(*, director: User, bots: list[User], starts_at: datetime.datetime) -> Tournament:
    event = services.tournament_create(
        director=director, name=_edition(BOTS_SWISS), starts_at=starts_at,
        description=(
            "Twelve bots play seven rounds, two games a pairing; the standings move as their games end.\n"
            "Двенадцать ботов играют семь туров, по две партии в паре; таблица меняется с каждой партией."
        ),
        rounds=7, games_per_pairing=2, round_interval=45, turn_seconds=15, grace_seconds=60,
    )  # fmt: skip
    for bot in bots:
        services.tournament_register(tournament=event, user=bot, by=director)
    return event


def _open_swiss_create(*, director: User, bots: list[User], starts_at: datetime.datetime) -> Tournament:
    event = services.tournament_create(
        director=director, name=_edition(OPEN_SWISS), starts_at=starts_at,
        description=(
            "Register, take your seat when a round is paired, and play the bots.\n"
            "Зарегистрируйтесь, садитесь за стол, когда объявят пары тура, и играйте с ботами."
        ),
        rounds=3, round_interval=60, turn_seconds=30, grace_seconds=180, no_show=NoShow.BOT,
    )  # fmt: skip
    for bot in bots[:OPEN_SWISS_BOTS]:
        services.tournament_register(tournament=event, user=bot, by=director)
    return event


@transaction.atomic
def demo_open_swiss_renew(*, now: datetime.datetime | None = None) -> Tournament | None:
    """On a demo site, open the next open Swiss for registration once the last one has started (or ended):
    a newcomer always finds one to enter. It starts OPEN_SWISS_AHEAD from now."""
    now = now or timezone.now()
    last = Tournament.objects.filter(name__startswith=OPEN_SWISS).select_related("director").order_by("-pk").first()
    if (
        last is None
        or not _is_demo(last)
        or Tournament.objects.filter(name__startswith=OPEN_SWISS, status=TournamentStatus.REGISTRATION).exists()
    ):
        return None
    Tournament.objects.select_for_update().filter(pk=last.pk).first()
    if Tournament.objects.filter(name__startswith=OPEN_SWISS, status=TournamentStatus.REGISTRATION).exists():
        return None
    return _open_swiss_create(director=last.director, bots=_demo_bots(), starts_at=now + OPEN_SWISS_AHEAD)


@transaction.atomic
def demo_bots_swiss_renew(*, now: datetime.datetime | None = None) -> Tournament | None:
    """On a demo site (one where load_demo created a bots' Swiss), schedule the next bots' Swiss when none
    is running or due: BOTS_SWISS_EVERY after the last one started, or in a few seconds when that is past.
    Returns the new edition, or None when there is nothing to do. The sweep calls it every half minute."""
    now = now or timezone.now()
    last = Tournament.objects.filter(name__startswith=BOTS_SWISS).select_related("director").order_by("-pk").first()
    if last is None or not _is_demo(last) or _current(BOTS_SWISS) is not None:
        return None
    # Two sweeps at once: the lock on the last edition lets one of them create the next.
    Tournament.objects.select_for_update().filter(pk=last.pk).first()
    if _current(BOTS_SWISS) is not None:
        return None
    starts_at = max(last.starts_at + BOTS_SWISS_EVERY, now + BOTS_SWISS_FIRST_IN)
    return _bots_swiss_create(director=last.director, bots=_demo_bots(), starts_at=starts_at)


def demo_rating_history_ensure(*, now: datetime.datetime | None = None) -> int:
    """Rate the demo's history in the heads-up pool (HISTORY_GAMES games between the demo's bots) if it is
    not there yet; returns how many games were rated now. Each game's key is fixed, so a repeat rates none."""
    pool = RatingPool.objects.filter(slug=HISTORY_POOL, active=True).first()
    if pool is None or RatedGame.objects.filter(game_key__startswith=HISTORY_KEY).count() >= HISTORY_GAMES:
        return 0
    now = now or timezone.now()
    bots = _demo_bots()
    engines = {bot.pk: engine for bot, (_, _, engine, _) in zip(bots, DEMO_ENTRANTS, strict=True)}
    rng = random.Random(38)
    rated = 0
    boards = len(bots) // 2
    order: list[User] = []
    for index in range(HISTORY_GAMES):
        if index % boards == 0:  # each bot one game a "round", so that every bot reaches the leaderboard
            order = rng.sample(bots, len(bots))
        first, second = order[2 * (index % boards)], order[2 * (index % boards) + 1]
        if rng.random() < HISTORY_DRAW_RATE:
            places: tuple[tuple[int, ...], ...] = ((0, 1),)
        else:
            expected = elo.expected_score(HISTORY_STRENGTH[engines[first.pk]], HISTORY_STRENGTH[engines[second.pk]])
            places = ((0,), (1,)) if rng.random() < expected else ((1,), (0,))
        played_at = now - HISTORY_EVERY * (HISTORY_GAMES - index)
        key = f"{HISTORY_KEY}{index}"
        if not RatedGame.objects.filter(game_key=key).exists():
            rating_apply_game(
                pool=pool,
                game_key=key,
                players=[first, second],
                outcome=elo.Outcome(places=places),
                played_at=played_at,
            )
            rated += 1
    return rated


@transaction.atomic
def demo_tournaments_ensure(*, director: User) -> list[str]:
    """Create what is missing; returns a line for each demo tournament and the rated history, for the command
    to print."""
    bots = _demo_bots()
    now = timezone.now()
    demo_rating_history_ensure(now=now)  # first: an entry's seeding rating may come from the bot's rating
    lines = []
    running = _current(BOTS_SWISS)
    if running is None:
        running = _bots_swiss_create(director=director, bots=bots, starts_at=now + BOTS_SWISS_FIRST_IN)
    lines.append(f"{running.name}: {running.get_status_display()}, /tournaments/{running.pk}/")
    upcoming = _current(OPEN_SWISS)
    if upcoming is None:
        upcoming = _open_swiss_create(director=director, bots=bots, starts_at=now + OPEN_SWISS_AHEAD)
    lines.append(f"{upcoming.name}: {upcoming.get_status_display()}, /tournaments/{upcoming.pk}/")
    history = RatedGame.objects.filter(game_key__startswith=HISTORY_KEY).count()
    lines.append(f"Rated history: {history} games between the demo's bots in the pool {HISTORY_POOL}, /ratings/")
    return lines
