"""The schedule's side: a round paired when it is due, and the sweep celery beat runs every half minute to do
whatever the timed tasks (tournaments.tasks) should have done and did not (a worker restarted, a start
further ahead than a task may wait)."""

from __future__ import annotations

import datetime
import functools
import logging
from collections.abc import Callable

from django.db import transaction
from django.utils import timezone

from tournaments.models import PairingStatus, Round, RoundStatus, Tournament, TournamentStatus
from tournaments.services._common import _locked
from tournaments.services.rounds import round_enforce_seat_deadline, round_pair, tournament_start
from tournaments.services.standings import standings_refresh_pending

logger = logging.getLogger(__name__)


@transaction.atomic
def round_start_due(
    *, tournament: Tournament, number: int, now: datetime.datetime | None = None, deal_games: bool = True
) -> Round | None:
    """The schedule's call: pair round ``number`` if it is due, the tournament runs and is not paused."""
    now = now or timezone.now()
    tournament = _locked(tournament)
    round_ = Round.objects.filter(tournament=tournament, number=number).first()
    if (
        round_ is None or round_.status != RoundStatus.SCHEDULED or round_.starts_at is None or round_.starts_at > now
        or tournament.paused or tournament.status != TournamentStatus.RUNNING
    ):  # fmt: skip
        return None
    return round_pair(tournament=tournament, number=number, deal_games=deal_games)


def tournaments_sweep(*, now: datetime.datetime | None = None) -> dict[str, int]:
    """What celery beat runs every half minute: whatever the timed tasks should have done and did not
    (a worker restarted, a start far ahead), each in its own transaction. Returns counts for the log."""
    now = now or timezone.now()
    counts = {"started": 0, "rounds": 0, "no_shows": 0, "standings": 0}

    def attempt(name: str, call: Callable[[], bool]) -> None:
        try:
            if call():
                counts[name] += 1
        except Exception:  # one tournament's trouble must not hold up the others
            logger.exception("tournament sweep: %s failed", name)

    for pk in Tournament.objects.filter(status=TournamentStatus.REGISTRATION, starts_at__lte=now).values_list("pk", flat=True):
        attempt("started", functools.partial(_sweep_start, pk, now))
    running = Tournament.objects.filter(status=TournamentStatus.RUNNING, paused=False)
    for pk, number in Round.objects.filter(
        tournament__in=running, status=RoundStatus.SCHEDULED, starts_at__lte=now
    ).values_list("tournament_id", "number"):
        attempt("rounds", functools.partial(_sweep_round, pk, number, now))
    for pk, number in Round.objects.filter(
        tournament__in=running, status=RoundStatus.PAIRED, seat_deadline__lte=now, pairings__status=PairingStatus.WAITING
    ).values_list("tournament_id", "number").distinct():
        attempt("no_shows", functools.partial(_sweep_seats, pk, number, now))
    for pk in Tournament.objects.filter(standings_pending=True).values_list("pk", flat=True):
        attempt("standings", functools.partial(_sweep_standings, pk))
    return counts


def _sweep_standings(pk: int) -> bool:
    return standings_refresh_pending(tournament=Tournament.objects.get(pk=pk))


def _sweep_start(pk: int, now: datetime.datetime) -> bool:
    return tournament_start(tournament=Tournament.objects.get(pk=pk), now=now).status != TournamentStatus.REGISTRATION


def _sweep_round(pk: int, number: int, now: datetime.datetime) -> bool:
    return round_start_due(tournament=Tournament.objects.get(pk=pk), number=number, now=now) is not None


def _sweep_seats(pk: int, number: int, now: datetime.datetime) -> bool:
    return round_enforce_seat_deadline(tournament=Tournament.objects.get(pk=pk), number=number, now=now) > 0
