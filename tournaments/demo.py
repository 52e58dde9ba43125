"""The tournaments a newcomer finds after `make run` (manage.py load_demo): a Swiss championship of bots that
starts at once and plays itself with its standings moving, and the next championship, open for
registration, with a few bots entered already. Safe to repeat: a new edition is created only when the
last one is over.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from accounts.models import BotLevel, User
from accounts.services import bot_account_ensure
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


@transaction.atomic
def demo_tournaments_ensure(*, director: User) -> list[str]:
    """Create what is missing; returns a line for each demo tournament, for the command to print."""
    bots = [
        bot_account_ensure(username=username, display_name=name, engine=engine, level=level)
        for username, name, engine, level in DEMO_ENTRANTS
    ]
    now = timezone.now()
    lines = []
    running = _current(BOTS_SWISS)
    if running is None:
        running = services.tournament_create(
            director=director, name=_edition(BOTS_SWISS), starts_at=now + datetime.timedelta(seconds=5),
            description=(
                "Twelve bots play seven rounds, two games a pairing; the standings move as their games end.\n"
                "Двенадцать ботов играют семь туров, по две партии в паре; таблица меняется с каждой партией."
            ),
            rounds=7, games_per_pairing=2, round_interval=45, turn_seconds=15, grace_seconds=60,
        )  # fmt: skip
        for bot in bots:
            services.tournament_register(tournament=running, user=bot, by=director)
    lines.append(f"{running.name}: {running.get_status_display()}, /tournaments/{running.pk}/")
    upcoming = _current(OPEN_SWISS)
    if upcoming is None:
        upcoming = services.tournament_create(
            director=director, name=_edition(OPEN_SWISS), starts_at=now + datetime.timedelta(minutes=30),
            description=(
                "Register, take your seat when a round is paired, and play the bots.\n"
                "Зарегистрируйтесь, садитесь за стол, когда объявят пары тура, и играйте с ботами."
            ),
            rounds=3, round_interval=60, turn_seconds=30, grace_seconds=180, no_show=NoShow.BOT,
        )  # fmt: skip
        for bot in bots[:OPEN_SWISS_BOTS]:
            services.tournament_register(tournament=upcoming, user=bot, by=director)
    lines.append(f"{upcoming.name}: {upcoming.get_status_display()}, /tournaments/{upcoming.pk}/")
    return lines
