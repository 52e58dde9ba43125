"""Every change to notices: sending them (a round's pairings, the reminder before the seat deadline, a
dispute, a no-show) and marking them read.

A notice is one row per person and subject (``Notice.key``, unique with the user): sending is
``get_or_create``, so a hook or a task that runs twice tells nobody twice, and the e-mail and the bell's
update go out after the commit, for new rows only. Bots are told nothing. tournaments.services calls the
hooks inside its own transactions; what they need of a round they read through tournaments.selectors.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from notices.broadcast import notices_changed
from notices.models import Notice, NoticeKind
from tournaments import selectors as tournament_selectors

if TYPE_CHECKING:
    from tournaments.models import Dispute, Pairing, PairingEntrant, Tournament

logger = logging.getLogger(__name__)

# The reminder goes this long before the seat deadline, or halfway through a shorter grace period.
REMINDER_LEAD = datetime.timedelta(minutes=3)
# A reminder task that finds the deadline moved later (a tournament paused and resumed) waits for it.
REMINDER_SLACK = datetime.timedelta(seconds=5)


def reminder_time(*, paired_at: datetime.datetime, seat_deadline: datetime.datetime) -> datetime.datetime:
    lead = min(REMINDER_LEAD, (seat_deadline - paired_at) / 2)
    return seat_deadline - lead


def _send(user_id: int, kind: str, key: str, params: dict[str, Any], url: str) -> Notice | None:
    """The notice, if it is new: one per user and key, whoever asks again."""
    notice, created = Notice.objects.get_or_create(
        user_id=user_id, key=key, defaults={"kind": kind, "params": params, "url": url}
    )
    return notice if created else None


def _send_each(user_ids: Iterable[int], kind: str, key: str, params: dict[str, Any], url: str) -> list[Notice]:
    """The same notice to each of ``user_ids``: those that are new (see ``_send``)."""
    return [notice for user_id in user_ids if (notice := _send(user_id, kind, key, params, url)) is not None]


def _deliver_after_commit(notices: Sequence[Notice]) -> None:
    """Once the rows are committed: an e-mail to each recipient with an address, and his bell is told."""
    if not notices:
        return
    ids = [notice.pk for notice in notices]
    transaction.on_commit(lambda: _deliver(ids))


def _deliver(notice_ids: list[int]) -> None:
    from notices import mail

    notices = list(Notice.objects.filter(pk__in=notice_ids).select_related("user"))
    for notice in notices:
        try:
            mail.notice_email_send(notice=notice)
        except Exception:  # a mail server down must not stop the others' notices
            logger.exception("notice %s: the e-mail was not sent", notice.pk)
    for user_id in sorted({notice.user_id for notice in notices}):
        notices_changed(user_id)


def _opponents(board: tournament_selectors.NoticeBoard, mine: tournament_selectors.NoticeSeat) -> list[dict[str, Any]]:
    """The other entrants of the board, by what names them: a team's name, else the account (its name is
    looked up when the notice is read, a bench bot's in the reader's language)."""
    return [
        {"team": seat.team_name} if seat.team_name else {"user": seat.name_user_id}
        for seat in board.seats if seat.entrant_id != mine.entrant_id
    ]  # fmt: skip


def _tournament_params(round_: tournament_selectors.NoticeRound) -> dict[str, Any]:
    return {"tournament": round_.tournament_id, "name": round_.tournament_name, "round": round_.number}


def _seat_url(tournament_id: int) -> str:
    return reverse("tournaments:detail", args=[tournament_id]) + "#my-pairing"


# --- a player's pairing and the reminder -------------------------------------------------------------


def round_paired(*, round_id: int, paired_at: datetime.datetime, seat_deadline: datetime.datetime | None) -> None:
    """tournaments.services.round_pair's hook, inside its transaction: once it commits, the pairing notices
    go out (a task), and the reminder is timed for shortly before the seat deadline."""
    from notices import tasks

    transaction.on_commit(lambda: tasks.pairing_notices.delay(round_id))
    if seat_deadline is not None:
        at = reminder_time(paired_at=paired_at, seat_deadline=seat_deadline)
        transaction.on_commit(lambda: tasks.seat_reminders.apply_async(args=(round_id,), eta=at))


@transaction.atomic
def pairing_notices_send(*, round_id: int) -> int:
    """Tell every person of a paired round his board, opponents, seat deadline and where to take his seat
    (a bye too); each once however often this runs. Returns how many notices are new."""
    round_ = tournament_selectors.round_for_notices(round_id=round_id)
    if round_ is None or not round_.running:
        return 0
    deadline = round_.seat_deadline.isoformat() if round_.seat_deadline else None
    sent: list[Notice] = []
    for board in round_.boards:
        if board.finished and not board.bye:
            continue  # decided before anyone sat down (an entrant withdrawn before the round): nothing to play
        for seat in board.seats:
            if seat.forfeited:
                continue
            params = {
                **_tournament_params(round_), "board": board.board, "bye": board.bye,
                "opponents": _opponents(board, seat), "deadline": None if board.bye else deadline,
            }  # fmt: skip
            sent += _send_each(seat.people, NoticeKind.PAIRING, f"pairing:{board.pairing_id}", params,
                               _seat_url(round_.tournament_id))
    _deliver_after_commit(sent)
    return len(sent)


@transaction.atomic
def seat_reminders_send(*, round_id: int, now: datetime.datetime | None = None) -> int:
    """Shortly before the seat deadline: remind whoever has not taken his seat yet, once. Nothing once the
    round is settled or over, or past the deadline; before the reminder's time (the deadline moved later)
    the reminder is timed again, and while the tournament is paused it looks again every REMINDER_LEAD
    (resuming it gives the round a new deadline). Returns how many reminders are new."""
    from notices import tasks

    now = now or timezone.now()
    round_ = tournament_selectors.round_for_notices(round_id=round_id)
    if round_ is not None and round_.running and round_.paired and round_.paused:
        later = now + REMINDER_LEAD
        transaction.on_commit(lambda: tasks.seat_reminders.apply_async(args=(round_id,), eta=later))
        return 0
    if (
        round_ is None or not round_.running or not round_.paired
        or round_.seat_deadline is None or round_.paired_at is None or round_.seat_deadline <= now
    ):  # fmt: skip
        return 0
    at = reminder_time(paired_at=round_.paired_at, seat_deadline=round_.seat_deadline)
    if now + REMINDER_SLACK < at:
        transaction.on_commit(lambda: tasks.seat_reminders.apply_async(args=(round_id,), eta=at))
        return 0
    sent: list[Notice] = []
    for board in round_.boards:
        if not board.waiting or board.bye:
            continue
        for seat in board.seats:
            if seat.checked_in or seat.forfeited:
                continue
            params = {
                **_tournament_params(round_), "board": board.board, "opponents": _opponents(board, seat),
                "deadline": round_.seat_deadline.isoformat(),
            }  # fmt: skip
            sent += _send_each(seat.people, NoticeKind.REMINDER, f"reminder:{board.pairing_id}", params,
                               _seat_url(round_.tournament_id))
    _deliver_after_commit(sent)
    return len(sent)


# --- the director's notices --------------------------------------------------------------------------


def _human_director(tournament: Tournament) -> int | None:
    director_id = tournament.director_id
    if director_id is None or User.objects.filter(pk=director_id, is_bot=True).exists():
        return None
    return int(director_id)


def _direct_url(tournament_id: int, round_number: int) -> str:
    return reverse("tournaments:direct", args=[tournament_id]) + f"?round={round_number}"


def dispute_filed(*, dispute: Dispute) -> None:
    """tournaments.services.dispute_file's hook, inside its transaction: the director is told who disputes
    which board (not the dispute's words: they are the player's, and may name cards)."""
    tournament, pairing = dispute.tournament, dispute.pairing
    director_id = _human_director(tournament)
    if director_id is None:
        return
    number = pairing.round.number
    params = {
        "tournament": tournament.pk, "name": tournament.name, "round": number, "board": pairing.board,
        "by": dispute.filed_by_id,
    }  # fmt: skip
    _deliver_after_commit(
        _send_each([director_id], NoticeKind.DISPUTE, f"dispute:{dispute.pk}", params, _direct_url(tournament.pk, number))
    )


def no_shows_found(*, tournament: Tournament, pairing: Pairing, seats: Iterable[PairingEntrant], substituted: bool) -> None:
    """tournaments.services.round_enforce_seat_deadline's hook, inside its transaction: the director is told
    of each entrant the deadline dropped (or gave a bot to), once."""
    director_id = _human_director(tournament)
    if director_id is None:
        return
    number = pairing.round.number
    sent: list[Notice] = []
    for seat in seats:
        entrant = seat.entrant
        named: dict[str, Any] = {"team": entrant.team_name} if entrant.team_name else {"user": entrant.user_id}
        params = {
            "tournament": tournament.pk, "name": tournament.name, "round": number, "board": pairing.board,
            "entrant": named, "substituted": substituted,
        }  # fmt: skip
        sent += _send_each([director_id], NoticeKind.NO_SHOW, f"no_show:{pairing.pk}:{entrant.pk}", params,
                           _direct_url(tournament.pk, number))
    _deliver_after_commit(sent)


# --- reading ------------------------------------------------------------------------------------------


def notices_mark_read(*, user: User, upto: Any) -> int:
    """He has seen his notices up to ``upto`` (the newest his page showed): those are read. A notice that
    came after the page was drawn stays unread; another person's notices are never touched. Returns how
    many changed."""
    try:
        newest = int(upto)
    except (TypeError, ValueError):
        raise ValidationError(_("That list of notices is not one this site showed you.")) from None
    if newest <= 0:
        raise ValidationError(_("That list of notices is not one this site showed you."))
    with transaction.atomic():
        changed = Notice.objects.filter(user=user, read_at__isnull=True, pk__lte=newest).update(read_at=timezone.now())
    if changed:
        user_id = user.pk
        transaction.on_commit(lambda: notices_changed(user_id))
    return changed
