"""Games whose next task was lost pick up again (issue 10, faults).

Every move schedules what comes next (a bot's move, the turn timer, the finalisation) on the broker. A
broker that restarts empty, a worker killed before it acknowledged, or a server process restarted with its
in-process timers would otherwise leave a game waiting for ever. The sweep finds such games from what the
database says and schedules their task again: `turn_timeout` for a deadline passed more than `slack_s` ago
(in a clock game the first running clock's fall), `bot_move` for a bot (or autopiloted) seat waited for
longer than `bot_after_s`, `finalise_game` for a finished game without its result.

Each task takes the version it answers and the services re-check it under the game's row lock, so a task
that was not lost after all, and its copy, change the game once. The sweep runs every
`settings.GAMES_RECOVERY_SWEEP_S` seconds (15): from Celery beat with a broker (durak_site/celery.py),
from the in-process runner without one.
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games.models import Game, GameStatus, Result
from games.selectors import game_seats
from games.snapshots import state_of
from games.turns import waiting_seats

logger = logging.getLogger(__name__)

TIMER_SLACK_S = 5.0


@dataclass(frozen=True)
class Resumed:
    timers: list[int]
    bot_moves: list[int]
    finalisations: list[int]

    @property
    def total(self) -> int:
        return len(self.timers) + len(self.bot_moves) + len(self.finalisations)


def stalled_games(
    *, now: datetime.datetime | None = None, slack_s: float = TIMER_SLACK_S, bot_after_s: float | None = None
) -> Resumed:
    """What the sweep would schedule now, as game ids (reads only)."""
    now = now or timezone.now()
    if bot_after_s is None:
        bot_after_s = float(settings.GAMES_RECOVERY_BOT_AFTER_S)
    timers: list[int] = []
    bot_moves: list[int] = []
    playing = Game.objects.filter(status=GameStatus.PLAYING, deadline__isnull=False).select_related("table")
    for game in playing.filter(deadline__lt=now - datetime.timedelta(seconds=slack_s)):
        timers.append(game.pk)
    # The deadline is set at every move to the move's time plus the turn time: a game whose last move is
    # older than bot_after_s and that waits for a bot lost its bot's task. Only such games are loaded: the
    # last move is old when deadline <= now - bot_after_s + turn time, asked once for each turn time in use
    # (a handful), so that the comparison stays in the database on every backend.
    # A clock game's deadline is its first clock's fall instead, and `clock_since` its last move's time.
    per_move = playing.filter(clock_since__isnull=True)
    turn_times = per_move.order_by().values_list("table__turn_seconds", flat=True).distinct()
    quiet = Q(clock_since__isnull=False, clock_since__lte=now - datetime.timedelta(seconds=bot_after_s))
    for turn_seconds in turn_times:
        moved_before = now - datetime.timedelta(seconds=bot_after_s) + datetime.timedelta(seconds=turn_seconds)
        quiet |= Q(clock_since__isnull=True, table__turn_seconds=turn_seconds, deadline__lte=moved_before)
    for game in playing.filter(quiet).exclude(pk__in=timers).iterator(chunk_size=200):
        seats = game_seats(game)
        autopilot = list(game.autopilot)
        state = state_of(game)
        if any(
            seats[seat].is_bot or (seat < len(autopilot) and autopilot[seat]) for seat in waiting_seats(state)
        ):
            bot_moves.append(game.pk)
    unfinalised = Game.objects.filter(status=GameStatus.FINISHED).exclude(
        Exists(Result.objects.filter(game=OuterRef("pk")))
    )
    finalisations = list(unfinalised.values_list("pk", flat=True))
    return Resumed(timers=timers, bot_moves=bot_moves, finalisations=finalisations)


def games_resume_stalled(*, now: datetime.datetime | None = None) -> Resumed:
    """Schedule again the task each stalled game waits for; returns what was scheduled."""
    from games import tasks

    found = stalled_games(now=now)
    seqs = dict(Game.objects.filter(pk__in=found.timers + found.bot_moves).values_list("pk", "seq"))
    for game_id in found.timers:
        tasks.turn_timeout.delay(game_id, seqs[game_id])
    for game_id in found.bot_moves:
        tasks.bot_move.delay(game_id, seqs[game_id])
    for game_id in found.finalisations:
        tasks.finalise_game.delay(game_id)
    if found.total:
        logger.warning(
            "resumed stalled games: timers %s, bot moves %s, finalisations %s",
            found.timers,
            found.bot_moves,
            found.finalisations,
        )
    return found


def start_in_process_sweeps(*, first_in_s: float = 2.0) -> None:
    """Without a broker there is no beat: the server process sweeps on its in-process runner. The first
    sweep comes soon after start, so games left waiting by a restart go on at once."""
    from durak_site.inprocess_tasks import repeat_in_process

    repeat_in_process(games_resume_stalled, every_s=float(settings.GAMES_RECOVERY_SWEEP_S), first_in_s=first_in_s,
                      what="the sweep for stalled games")
