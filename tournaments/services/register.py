"""Entering a tournament: a player himself, a team (its partners asked first), or anyone by a director, late
entries to a running Swiss included; and a team's partners accepting or declining their places."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from ratings import services as rating_services
from ratings.elo import INITIAL_RATING
from ratings.models import PlayerRating, RatingPool
from tournaments import pairing as pure
from tournaments.models import AuditAction, Entrant, EntrantStatus, Seating, TeamMember, Tournament, TournamentStatus
from tournaments.services._common import _audit, _changed, _locked, _require_director, _subject


def rating_pool_of(tournament: Tournament) -> RatingPool | None:
    """The pool the tournament's seeding reads: its own, or the pool that rates its kind of game."""
    if tournament.rating_pool is not None:
        return tournament.rating_pool
    return rating_services.pool_for_rules(
        rules=tournament.rules, players=tournament.players_per_game, teams=tournament.seating == Seating.TEAMS
    )


def _seeding_rating(tournament: Tournament, users: Sequence[User]) -> float:
    """The entrant's rating in the tournament's pool (rating_pool_of); a team's is its members' average
    (tournaments.pairing.team_rating)."""
    pool = rating_pool_of(tournament)
    found: dict[int, float] = {}
    if pool is not None:
        found = dict(PlayerRating.objects.filter(pool=pool, user__in=users).values_list("user_id", "rating"))
    return pure.team_rating([found.get(user.pk, INITIAL_RATING) for user in users])


def _check_open(tournament: Tournament, *, directing: bool, code: str) -> None:
    """Refuse an entry the tournament's state does not allow: over, running (a director's late entry to a
    Swiss with rounds left only), or, for a player himself, a final, registration not open, a wrong code."""
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise ValidationError(_("This tournament is over."))
    if tournament.status == TournamentStatus.RUNNING:
        if not directing:
            raise ValidationError(_("Registration is closed; the director may still enter you late."))
        if tournament.is_round_robin:
            raise ValidationError(_("A round robin takes no late entries: its rounds are fixed at the start."))
        if tournament.current_round >= tournament.rounds_planned:
            raise ValidationError(_("The last round is already paired."))
    elif not directing:
        now = timezone.now()
        if tournament.qualifier_id is not None:
            raise ValidationError(_("Entrants qualify from the previous stage."))
        if now < tournament.registration_opens:
            raise ValidationError(_("Registration is not open yet."))
        if now > tournament.registration_closes:
            raise ValidationError(_("Registration is closed."))
        private = tournament.registration_code.encode()
        if private and not secrets.compare_digest(code.strip().encode(), private):
            raise ValidationError(_("This registration code is not valid: ask the director for the current link.")
                                  if code else _("Registration is by invitation: follow the link the director gave you."))


def _check_members(tournament: Tournament, members: Sequence[User]) -> None:
    """Refuse the entry's people: bots where none may play, a team of the wrong size, someone entered
    already, or no room left."""
    if any(member.is_bot for member in members) and not tournament.bots_allowed:
        raise ValidationError(_("Bots may not enter this tournament."))
    if tournament.seating == Seating.TEAMS:
        if len(members) != tournament.team_size or len({member.pk for member in members}) != len(members):
            raise ValidationError(
                _("A team is %(size)s different players.") % {"size": tournament.team_size}
            )
    elif len(members) > 1:
        raise ValidationError(_("This tournament is for players, not teams."))
    taken = set(Entrant.objects.filter(tournament=tournament, user__in=members).values_list("user_id", flat=True))
    taken |= set(TeamMember.objects.filter(tournament=tournament, user__in=members).values_list("user_id", flat=True))
    if taken:
        raise ValidationError(_("Already entered: %(names)s.") % {
            "names": ", ".join(member.public_name for member in members if member.pk in taken)
        })  # fmt: skip
    active = Entrant.objects.filter(tournament=tournament, status=EntrantStatus.ACTIVE).count()
    if tournament.capacity is not None and active >= tournament.capacity:
        raise ValidationError(_("The tournament is full."))


@transaction.atomic
def tournament_register(
    *,
    tournament: Tournament,
    user: User,
    partners: Sequence[User] = (),
    team_name: str = "",
    by: User | None = None,
    rating: float | None = None,
    reason: str = "",
    code: str = "",
) -> Entrant:
    """Enter ``user`` (with ``partners``, a team). People enter themselves while registration is open; a
    director enters anyone (bots too) and, once the tournament runs, adds late entries to a Swiss, who
    are paired from the next round on. ``rating`` sets the seeding rating instead of the pool's. A private
    event's players enter with its registration ``code`` (services.entrants)."""
    tournament = _locked(tournament)
    directing = by is not None and by.pk != user.pk
    if directing:
        _require_director(by, tournament)
    elif user.is_bot or any(partner.is_bot for partner in partners):
        raise ValidationError(_("A bot is entered by the director."))
    _check_open(tournament, directing=directing, code=code)
    members = [user, *partners]
    _check_members(tournament, members)
    late = tournament.status == TournamentStatus.RUNNING
    number = (Entrant.objects.filter(tournament=tournament).aggregate(top=Max("number"))["top"] or 0) + 1
    # Partners a player names are asked, not enrolled: the team plays once each has accepted
    # (team_accept); a director's entry is complete at once.
    asking = bool(partners) and not directing
    entrant = Entrant.objects.create(
        tournament=tournament, user=user, number=number, team_name=team_name.strip()[:60],
        rating=rating if rating is not None else _seeding_rating(tournament, members),
        first_round=tournament.current_round + 1 if late else 1,
        status=EntrantStatus.PENDING if asking else EntrantStatus.ACTIVE,
    )  # fmt: skip
    if tournament.seating == Seating.TEAMS:
        TeamMember.objects.bulk_create(
            TeamMember(tournament=tournament, entrant=entrant, user=member, position=position,
                       accepted=position == 0 or not asking)
            for position, member in enumerate(members)
        )
    _audit(
        tournament, AuditAction.LATE_ENTRY if late else AuditAction.REGISTERED, actor=by or user,
        round_number=entrant.first_round if late else None, subject=_subject(entrant), reason=reason.strip(),
    )  # fmt: skip
    _changed(tournament)
    return entrant


def _pending_membership(tournament: Tournament, user: User) -> TeamMember:
    member = (
        TeamMember.objects.select_for_update().select_related("entrant__user")
        .filter(tournament=tournament, user=user, accepted=False).first()
    )  # fmt: skip
    if member is None or member.entrant.status != EntrantStatus.PENDING:
        raise ValidationError(_("No team is waiting for your answer in this tournament."))
    if tournament.status != TournamentStatus.REGISTRATION:
        raise ValidationError(_("Registration is closed."))
    return member


@transaction.atomic
def team_accept(*, tournament: Tournament, user: User) -> Entrant:
    """A partner named by a team's captain accepts his place; once every partner has, the team is entered."""
    tournament = _locked(tournament)
    member = _pending_membership(tournament, user)
    member.accepted = True
    member.save(update_fields=["accepted"])
    entrant = member.entrant
    if not TeamMember.objects.filter(entrant=entrant, accepted=False).exists():
        active = Entrant.objects.filter(tournament=tournament, status=EntrantStatus.ACTIVE).count()
        if tournament.capacity is not None and active >= tournament.capacity:
            raise ValidationError(_("The tournament is full."))
        entrant.status = EntrantStatus.ACTIVE
        entrant.save(update_fields=["status"])
    _audit(tournament, AuditAction.TEAM_ACCEPTED, actor=user, subject=_subject(entrant))
    _changed(tournament)
    return entrant


@transaction.atomic
def team_decline(*, tournament: Tournament, user: User) -> None:
    """A partner named by a team's captain declines: the team's entry is withdrawn."""
    tournament = _locked(tournament)
    member = _pending_membership(tournament, user)
    subject = _subject(member.entrant)
    member.entrant.delete()
    _audit(tournament, AuditAction.TEAM_DECLINED, actor=user, subject=subject)
    _changed(tournament)
