"""The director's acts, each logged with its reason: an entrant withdrawn, disqualified or reinstated (and a
player's own withdrawal), the rounds' conduct (start the next now, pair again, pause, resume, end early), a
pairing's or a game's result set or forfeited, and disputes filed by players and decided.

A decision names the version of the pairing the director looked at (``seen_version``) and is refused if the
pairing changed since (another director, a game's end). The games keep their own records; a forfeit annuls
the ratings of the games it replaces, a game's result set is rated again in its pool.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from notices import services as notice_services
from ratings import services as rating_services
from tournaments import selectors
from tournaments.models import (
    AuditAction, Dispute, DisputeStatus, Entrant, EntrantStatus, MatchGame, MatchGameStatus, Pairing,
    PairingEntrant, PairingStatus, ResultKind, Round, RoundStatus, Seating, Tournament, TournamentStatus,
)
from tournaments.scoring import game_outcome
from tournaments.services._common import (
    _audit, _changed, _directed, _locked, _require_director, _require_reason, _schedule, _scoring, _subject,
)
from tournaments.services.matches import _positions, _score_match, _store_outcome
from tournaments.services.rounds import (
    _close_round_if_done, _drop, _finish, _forfeit, _members, _pairing_seats, round_pair,
)
from tournaments.services.standings import _standings_changed


def _leave(entrant: Entrant, *, status: str, by: User, reason: str, action: AuditAction) -> Entrant:
    tournament = _locked(entrant.tournament_id)
    entrant = Entrant.objects.select_related("user").get(pk=entrant.pk)
    if tournament.status == TournamentStatus.REGISTRATION:
        subject = _subject(entrant)
        entrant.delete()
        _audit(tournament, AuditAction.UNREGISTERED, actor=by, subject=subject, reason=reason)
        _changed(tournament)
        return entrant
    if tournament.status != TournamentStatus.RUNNING:
        raise ValidationError(_("This tournament is over."))
    if entrant.status == status:
        return entrant
    entrant.status = status
    entrant.left_after_round = tournament.current_round
    entrant.save(update_fields=["status", "left_after_round"])
    _audit(tournament, action, actor=by, round_number=tournament.current_round, subject=_subject(entrant), reason=reason)
    # A game of the current round he has not sat down to is lost by forfeit; one under way goes on.
    waiting = PairingEntrant.objects.filter(
        entrant=entrant, pairing__round__number=tournament.current_round, pairing__status=PairingStatus.WAITING,
        pairing__bye=False,
    ).select_related("pairing__round").first()  # fmt: skip
    if waiting is not None:
        seats = _pairing_seats(tournament, waiting.pairing)
        _drop(tournament, waiting.pairing, seats, [seat for seat in seats if seat.entrant_id == entrant.pk],
              actor=by, reason=reason)
        _close_round_if_done(tournament, waiting.pairing.round)
    _standings_changed(tournament)
    _changed(tournament)
    return entrant


@transaction.atomic
def entrant_withdraw(*, entrant: Entrant, by: User, reason: str = "") -> Entrant:
    """He leaves: before the start his entry is removed; later he is paired no more, and a game of the
    current round he has not sat down to is lost by forfeit. He, or a director (with a reason)."""
    tournament = entrant.tournament
    if by.pk != entrant.user_id:
        _require_director(by, tournament)
        reason = _require_reason(reason)
    return _leave(entrant, status=EntrantStatus.WITHDRAWN, by=by, reason=reason.strip(), action=AuditAction.WITHDRAWN)


@transaction.atomic
def entrant_disqualify(*, entrant: Entrant, by: User, reason: str) -> Entrant:
    _require_director(by, entrant.tournament)
    return _leave(
        entrant, status=EntrantStatus.DISQUALIFIED, by=by, reason=_require_reason(reason),
        action=AuditAction.DISQUALIFIED,
    )  # fmt: skip


@transaction.atomic
def entrant_reinstate(*, entrant: Entrant, by: User, reason: str) -> Entrant:
    """Undo a withdrawal or disqualification: he is paired again from the next round (the rounds he
    missed stay absences, his forfeits stand)."""
    tournament, reason = _directed(entrant.tournament_id, by, reason)
    entrant = Entrant.objects.select_related("user").get(pk=entrant.pk)
    if tournament.status != TournamentStatus.RUNNING:
        raise ValidationError(_("Only a running tournament reinstates entrants."))
    if entrant.active:
        raise ValidationError(_("This entrant is playing."))
    entrant.status = EntrantStatus.ACTIVE
    entrant.left_after_round = None
    entrant.save(update_fields=["status", "left_after_round"])
    _audit(tournament, AuditAction.REINSTATED, actor=by, round_number=tournament.current_round,
           subject=_subject(entrant), reason=reason)
    _standings_changed(tournament)
    _changed(tournament)
    return entrant


@transaction.atomic
def round_confirm(*, tournament: Tournament, by: User, reason: str = "") -> Round:
    """The director starts the next round now (the only way on when the tournament does not advance by
    itself, or to skip the rest of the interval)."""
    tournament = _locked(tournament)
    _require_director(by, tournament)
    round_ = Round.objects.filter(tournament=tournament, number=tournament.current_round + 1).first()
    if round_ is None or round_.status != RoundStatus.SCHEDULED:
        raise ValidationError(_("No round is waiting to start."))
    if tournament.paused:
        raise ValidationError(_("The tournament is paused; resume it first."))
    round_.starts_at = timezone.now()
    round_.save(update_fields=["starts_at"])
    _audit(tournament, AuditAction.ROUND_CONFIRMED, actor=by, round_number=round_.number, reason=reason.strip())
    return round_pair(tournament=tournament, number=round_.number)


@transaction.atomic
def round_repair(*, tournament: Tournament, by: User, reason: str) -> Round:
    """Pair the current round again (after a late entry or a withdrawal, say): only while none of its
    games has been dealt; its byes and forfeits are drawn anew, and late entries waiting for the next
    round play in this one."""
    tournament, reason = _directed(tournament, by, reason)
    round_ = Round.objects.filter(tournament=tournament, number=tournament.current_round).first()
    if round_ is None or round_.status != RoundStatus.PAIRED:
        raise ValidationError(_("No round is waiting for its players."))
    if MatchGame.objects.filter(pairing__round=round_).exists():
        raise ValidationError(_("A game of this round has been dealt: it can no longer be paired again."))
    if tournament.is_round_robin:
        raise ValidationError(_("A round robin's rounds are fixed by the Berger table."))
    Pairing.objects.filter(round=round_).delete()
    Entrant.objects.filter(tournament=tournament, first_round=round_.number + 1).update(first_round=round_.number)
    round_.status = RoundStatus.SCHEDULED
    round_.save(update_fields=["status"])
    tournament.current_round -= 1
    tournament.save(update_fields=["current_round"])
    _audit(tournament, AuditAction.ROUND_REPAIRED, actor=by, round_number=round_.number, reason=reason)
    return round_pair(tournament=tournament, number=round_.number)


@transaction.atomic
def tournament_pause(*, tournament: Tournament, by: User, reason: str) -> Tournament:
    """Stop the schedule: no round is paired and no no-show is settled until the director resumes. Games
    under way are played on."""
    tournament, reason = _directed(tournament, by, reason)
    if tournament.status != TournamentStatus.RUNNING or tournament.paused:
        raise ValidationError(_("Only a running tournament can be paused."))
    tournament.paused = True
    tournament.save(update_fields=["paused"])
    _audit(tournament, AuditAction.PAUSED, actor=by, round_number=tournament.current_round, reason=reason)
    _changed(tournament)
    return tournament


@transaction.atomic
def tournament_resume(*, tournament: Tournament, by: User, reason: str = "") -> Tournament:
    """Restart the schedule: the players of the current round get a fresh grace period, a round already
    due is paired now."""
    tournament = _locked(tournament)
    _require_director(by, tournament)
    if not tournament.paused:
        raise ValidationError(_("The tournament is not paused."))
    tournament.paused = False
    tournament.save(update_fields=["paused"])
    _audit(tournament, AuditAction.RESUMED, actor=by, round_number=tournament.current_round, reason=reason.strip())
    now = timezone.now()
    current = Round.objects.filter(tournament=tournament, number=tournament.current_round, status=RoundStatus.PAIRED).first()
    if current is not None:
        current.seat_deadline = now + datetime.timedelta(seconds=tournament.grace_seconds)
        current.save(update_fields=["seat_deadline"])
        _schedule("seat_deadline", (tournament.pk, current.number), current.seat_deadline)
    upcoming = Round.objects.filter(tournament=tournament, number=tournament.current_round + 1,
                                    status=RoundStatus.SCHEDULED).first()  # fmt: skip
    if upcoming is not None and upcoming.starts_at is not None:
        if upcoming.starts_at <= now:
            round_pair(tournament=tournament, number=upcoming.number)
        else:
            _schedule("start_round", (tournament.pk, upcoming.number), upcoming.starts_at)
    _changed(tournament)
    return tournament


@transaction.atomic
def tournament_finish_early(*, tournament: Tournament, by: User, reason: str) -> Tournament:
    """End a running tournament after its current round (every pairing of it finished): the standings
    as they stand are final."""
    tournament, reason = _directed(tournament, by, reason)
    if tournament.status != TournamentStatus.RUNNING:
        raise ValidationError(_("Only a running tournament can be ended."))
    if Pairing.objects.filter(tournament=tournament).exclude(status=PairingStatus.FINISHED).exists():
        raise ValidationError(_("Finish or settle the current round's pairings first."))
    Round.objects.filter(tournament=tournament, status=RoundStatus.SCHEDULED).delete()
    Round.objects.filter(tournament=tournament, status=RoundStatus.PAIRED).update(
        status=RoundStatus.CLOSED, closed_at=timezone.now()
    )
    tournament.rounds_planned = tournament.current_round
    tournament.save(update_fields=["rounds_planned"])
    _finish(tournament, actor=by, reason=reason)
    _changed(tournament)
    return tournament


def _check_version(pairing: Pairing, seen: int | None) -> None:
    """Refuse a decision taken on a version of the pairing that is no longer current (None: not checked,
    for callers that showed no version)."""
    if seen is not None and seen != pairing.version:
        raise ValidationError(
            _("This pairing changed after you looked at it (another director's decision or a game's end): "
              "look at it again before you decide.")
        )


def _editable_pairing(
    tournament: Tournament, pairing: Pairing, seen: int | None = None
) -> tuple[Pairing, list[PairingEntrant]]:
    pairing = Pairing.objects.select_for_update().select_related("round").get(pk=pairing.pk)
    if pairing.tournament_id != tournament.pk:
        raise ValidationError(_("That pairing belongs to another tournament."))
    _check_version(pairing, seen)
    if pairing.bye:
        raise ValidationError(_("A bye has no result to set."))
    if pairing.status == PairingStatus.PLAYING:
        raise ValidationError(_("A game of this pairing is being played; set its result once it is over."))
    if tournament.status not in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
        raise ValidationError(_("This tournament has not started."))
    seats = list(pairing.seats.select_related("entrant__user").order_by("position"))
    return pairing, seats


def _after_adjudication(tournament: Tournament, pairing: Pairing) -> None:
    _standings_changed(tournament)
    _close_round_if_done(tournament, pairing.round)
    _changed(tournament)


def _annul_ratings(pairing: Pairing) -> None:
    for match_game in MatchGame.objects.filter(pairing=pairing).select_related("game"):
        rating_services.rating_game_outcome_set(game=match_game.game, places=None)


@transaction.atomic
def pairing_set_result(
    *, pairing: Pairing, points: Sequence[float], by: User, reason: str, seen_version: int | None = None
) -> Pairing:
    """The director sets a pairing's match points (an agreed result, a decision on a dispute); the
    standings follow. The games keep their own results (and ratings). `seen_version`: the pairing's
    version the director decided on (refused if it changed since)."""
    tournament, reason = _directed(pairing.tournament_id, by, reason)
    pairing, seats = _editable_pairing(tournament, pairing, seen_version)
    values = [float(value) for value in points]
    most = _scoring(tournament).win
    if len(values) != len(seats) or any(not 0 <= value <= most for value in values):
        raise ValidationError(_("Give each entrant between 0 and %(most)s points.") % {"most": selectors.shown(most)})
    before = [seat.points for seat in seats] if pairing.status == PairingStatus.FINISHED else None
    for seat, value in zip(seats, values, strict=True):
        seat.points, seat.forfeited = value, False
    PairingEntrant.objects.bulk_update(seats, ["points", "forfeited"])
    pairing.status, pairing.result_kind, pairing.finished_at = PairingStatus.FINISHED, ResultKind.OVERRIDE, timezone.now()
    pairing.version += 1
    pairing.save(update_fields=["status", "result_kind", "finished_at", "version"])
    _audit(
        tournament, AuditAction.RESULT_SET, actor=by, round_number=pairing.round.number,
        subject=" – ".join(f"{_subject(seat.entrant)} {selectors.shown(value)}" for seat, value in zip(seats, values, strict=True)),
        reason=reason, details={"pairing": pairing.pk, "before": before, "after": values},
    )  # fmt: skip
    _after_adjudication(tournament, pairing)
    return pairing


@transaction.atomic
def pairing_forfeit(
    *, pairing: Pairing, forfeiting: Sequence[Entrant], by: User, reason: str, seen_version: int | None = None
) -> Pairing:
    """The director scores a pairing as forfeited by ``forfeiting`` (every entrant: a double forfeit).
    Games it had are no longer rated: the forfeit replaces what was played. `seen_version` as in
    pairing_set_result."""
    tournament, reason = _directed(pairing.tournament_id, by, reason)
    pairing, seats = _editable_pairing(tournament, pairing, seen_version)
    gone = {entrant.pk for entrant in forfeiting}
    if not gone or not gone <= {seat.entrant_id for seat in seats}:
        raise ValidationError(_("Choose who forfeits among the pairing's entrants."))
    _annul_ratings(pairing)
    _forfeit(tournament, pairing, gone, actor=by, reason=reason)
    _after_adjudication(tournament, pairing)
    return pairing


@transaction.atomic
def match_game_set_result(
    *, match_game: MatchGame, places: Sequence[Sequence[int]], by: User, reason: str, seen_version: int | None = None
) -> MatchGame:
    """The director overrides a finished game's result with ``places`` (groups of seats, best first, as
    the engine gives them): the game's rating is recomputed with its pool, the match and the standings
    follow. `seen_version`: the version of the game's pairing the director decided on, as in
    pairing_set_result."""
    pairing = Pairing.objects.get(pk=match_game.pairing_id)
    tournament, reason = _directed(pairing.tournament_id, by, reason)
    pairing = Pairing.objects.select_for_update().get(pk=pairing.pk)
    _check_version(pairing, seen_version)
    match_game = MatchGame.objects.select_for_update().select_related("game").get(pk=match_game.pk)
    if match_game.status != MatchGameStatus.FINISHED:
        raise ValidationError(_("Only a finished game's result can be set."))
    groups = [[int(seat) for seat in group] for group in places]
    seats_given = sorted(seat for group in groups for seat in group)
    if seats_given != list(range(len(match_game.seats))) or any(not group for group in groups):
        raise ValidationError(_("Name every seat of the game exactly once, best place first."))
    before = match_game.outcome
    outcome = game_outcome(
        places=groups, seats=match_game.seats, positions=_positions(pairing.pk),
        table=tournament.seating == Seating.TABLES, place_points=tournament.place_points,
    )  # fmt: skip
    match_game.overridden = True
    _store_outcome(match_game, outcome)
    rating_services.rating_game_outcome_set(game=match_game.game, places=groups)
    Pairing.objects.filter(pk=pairing.pk).update(version=F("version") + 1)
    pairing = Pairing.objects.select_for_update().select_related("round").get(pk=pairing.pk)
    _audit(
        tournament, AuditAction.GAME_RESULT_SET, actor=by, round_number=pairing.round.number,
        subject=f"{pairing.round.number}.{pairing.board} #{match_game.number}", reason=reason,
        details={"game": match_game.game_id, "places": groups, "before": before, "after": match_game.outcome},
    )  # fmt: skip
    if pairing.status == PairingStatus.FINISHED and pairing.result_kind in (ResultKind.PLAYED, ResultKind.OVERRIDE):
        seats = list(pairing.seats.select_related("entrant__user").order_by("position"))
        outcomes = [game.outcome for game in MatchGame.objects.filter(pairing=pairing).order_by("number") if game.outcome]
        _score_match(tournament, pairing, seats, outcomes, ResultKind.OVERRIDE)
        _after_adjudication(tournament, pairing)
    else:
        _changed(tournament)
    return match_game


@transaction.atomic
def dispute_file(*, pairing: Pairing, user: User, text: str) -> Dispute:
    """An entrant of the pairing asks the director to look at it (cheating, a disconnection, ...)."""
    tournament = _locked(pairing.tournament_id)
    members = {member.pk for seat in _pairing_seats(tournament, pairing) for member in _members(tournament, seat.entrant)}
    if user.pk not in members:
        raise ValidationError(_("Only a player of this pairing may dispute it."))
    text = text.strip()
    if not text:
        raise ValidationError(_("Say what happened."))
    dispute = Dispute.objects.create(tournament=tournament, pairing=pairing, filed_by=user, text=text[:4000])
    _audit(tournament, AuditAction.DISPUTE_FILED, actor=user, round_number=pairing.round.number,
           subject=f"{pairing.round.number}.{pairing.board}", reason=text[:4000], details={"dispute": dispute.pk})
    notice_services.dispute_filed(dispute=dispute)
    _changed(tournament)
    return dispute


@transaction.atomic
def dispute_resolve(*, dispute: Dispute, by: User, upheld: bool, resolution: str) -> Dispute:
    """The director decides a dispute; a changed result is a separate act (a forfeit or a result set)."""
    tournament, resolution = _directed(dispute.tournament_id, by, resolution)
    dispute = Dispute.objects.select_for_update().select_related("pairing__round").get(pk=dispute.pk)
    if dispute.status != DisputeStatus.OPEN:
        raise ValidationError(_("This dispute is decided."))
    dispute.status = DisputeStatus.UPHELD if upheld else DisputeStatus.DISMISSED
    dispute.resolution, dispute.resolved_by, dispute.resolved = resolution, by, timezone.now()
    dispute.save(update_fields=["status", "resolution", "resolved_by", "resolved"])
    _audit(tournament, AuditAction.DISPUTE_RESOLVED, actor=by, round_number=dispute.pairing.round.number,
           subject=f"{dispute.pairing.round.number}.{dispute.pairing.board}: {dispute.get_status_display()}",
           reason=resolution, details={"dispute": dispute.pk, "upheld": upheld})
    _changed(tournament)
    return dispute
