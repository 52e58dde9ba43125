"""What every act on a tournament shares: who may create and direct, the lock, the log, the page's nudge after
the commit, the timed tasks, and the scoring the pure core is given.

Locks: a change to a tournament locks its row first (_locked, then its pairings), so that two game
finalisations of one tournament, or a finalisation and a director's act, never interleave. A game's
finalisation arrives with the game's row locked (games.services.game_finalise) and takes the
tournament's next; nothing here locks a game row, so the order is always game, tournament, rating pool.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from tournaments import pairing as pure
from tournaments.broadcast import tournament_changed
from tournaments.labels import entrant_label
from tournaments.models import AuditAction, AuditEntry, Entrant, Seating, Tournament
from tournaments.scoring import points_by_place

MIN_ENTRANTS = {Seating.HEADS_UP: 2, Seating.TABLES: 3, Seating.TEAMS: 2}
# A timed task further ahead than this is left to the beat's sweep: Redis would hand an unacknowledged
# task waiting for its ETA to a second worker after its visibility timeout (durak_site.celery).
LONGEST_COUNTDOWN = datetime.timedelta(hours=12)
TaskName = Literal["start_tournament", "start_round", "seat_deadline", "refresh_standings"]


def can_create(*, user: User | None) -> bool:
    return bool(
        user is not None and user.is_authenticated and not user.is_bot
        and (user.is_superuser or user.has_perm("accounts.direct_tournaments"))
    )  # fmt: skip


def can_direct(*, user: User | None, tournament: Tournament) -> bool:
    """The tournament's own director, an administrator, or anyone who may adjudicate games."""
    if user is None or not user.is_authenticated or user.is_bot:
        return False
    return bool(
        tournament.director_id == user.pk or user.is_superuser or user.has_perm("accounts.adjudicate_games")
    )


def _require_director(by: User | None, tournament: Tournament) -> None:
    if not can_direct(user=by, tournament=tournament):
        raise ValidationError(_("Only the tournament's director may do that."))


def _require_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise ValidationError(_("Say why: every act of a director is logged with its reason."))
    return reason


def _directed(tournament: Tournament | int, by: User, reason: str) -> tuple[Tournament, str]:
    """A director's act begins so: the tournament locked, ``by`` its director, the reason said (stripped)."""
    tournament = _locked(tournament)
    _require_director(by, tournament)
    return tournament, _require_reason(reason)


def _audit(
    tournament: Tournament,
    action: AuditAction,
    *,
    actor: User | None = None,
    round_number: int | None = None,
    subject: str = "",
    reason: str = "",
    details: Mapping[str, Any] | None = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        tournament=tournament, action=action, actor=actor, round_number=round_number, subject=subject[:300],
        reason=reason, details=dict(details or {}),
    )  # fmt: skip


def _locked(tournament: Tournament | int) -> Tournament:
    pk = tournament if isinstance(tournament, int) else tournament.pk
    return Tournament.objects.select_for_update().get(pk=pk)


def _changed(tournament: Tournament) -> None:
    """Tell the tournament's pages after the commit that something moved (live standings, pairings)."""
    tournament_id = tournament.pk
    transaction.on_commit(lambda: tournament_changed(tournament_id))


def _schedule(task_name: TaskName, args: tuple[Any, ...], eta: datetime.datetime | None) -> None:
    """Run the task ``task_name`` of tournaments.tasks at ``eta`` (now if None) once the transaction commits;
    one too far ahead is left to the sweep that celery beat runs every half minute. tournaments.tasks
    imports the services, so the services import it here, when they send one (HackSoft's way)."""
    from tournaments import tasks

    task: Any = {
        "start_tournament": tasks.start_tournament, "start_round": tasks.start_round,
        "seat_deadline": tasks.seat_deadline, "refresh_standings": tasks.refresh_standings,
    }[task_name]  # fmt: skip
    now = timezone.now()
    if eta is not None and eta - now > LONGEST_COUNTDOWN:
        return

    def send() -> None:
        if eta is None or eta <= timezone.now():
            task.delay(*args)
        else:
            task.apply_async(args=args, eta=eta)

    transaction.on_commit(send)


def _subject(entrant: Entrant) -> str:
    return f"{entrant.key} {entrant_label(entrant)}"


def _scoring(tournament: Tournament) -> pure.Scoring:
    if tournament.seating == Seating.TABLES:
        first = float(points_by_place(tournament.table_size, tournament.place_points)[0]) * tournament.games_per_pairing
        return pure.Scoring(win=first, draw=first / 2)
    return pure.Scoring(win=tournament.points_win, draw=tournament.points_draw)


def _tiebreak_order(tournament: Tournament) -> tuple[pure.TieBreak, ...]:
    return tuple(pure.TieBreak(value) for value in tournament.tiebreaks)
