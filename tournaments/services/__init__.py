"""Every change to tournaments: creating, registering, starting, pairing rounds, seating their games,
finalising game -> match -> standings -> round, no-shows, and the directors' acts.

The bridge to the pure core (STYLE.md 3): rows are loaded into tournaments.pairing values, the pairing
and standings functions are called, and what they return is stored. A user error (a full tournament, a
round that cannot be paired) is a ValidationError with a translated message; the schedule's own calls
(tournaments.tasks) re-check state first, so a late or repeated task changes nothing.

Locks: a change to a tournament locks its row first (then its pairings), so that two game
finalisations of one tournament, or a finalisation and a director's act, never interleave. A game's
finalisation arrives with the game's row locked (games.services.game_finalise) and takes the
tournament's next; nothing here locks a game row, so the order is always game, tournament, rating pool.

The package's submodules hold the acts that grew beside these; each imports what it shares from here, and
callers import the submodule by name (``from tournaments.services import entrants``).
"""

from __future__ import annotations

import datetime
import functools
import logging
import secrets
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Max, Prefetch
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import BotLevel, User
from games import services as game_services
from games.engine import EngineError, Rules
from notices import services as notice_services
from ratings import services as rating_services
from ratings.elo import INITIAL_RATING
from ratings.models import PlayerRating, PoolFormat, RatingPool
from tournaments import pairing as pure
from tournaments import selectors
from tournaments.pairing.round_robin import MAX_PLAYERS as ROUND_ROBIN_MOST
from tournaments.pairing.tables import MAX_TABLE, MIN_TABLE
from tournaments.broadcast import tournament_changed
from tournaments.models import (
    AuditAction, AuditEntry, Dispute, DisputeStatus, Entrant, EntrantStatus, Format, MatchGame, MatchGameStatus,
    NoShow, Pairing, PairingEntrant, PairingStatus, ResultKind, Round, RoundStatus, Seating, StandingRow, TeamMember,
    Tournament, TournamentStatus,
)
from tournaments.scoring import (
    GameOutcome, first_attacker_seat, forfeit_points, game_outcome, game_seating, match_points, points_by_place,
)

if TYPE_CHECKING:
    from games.models import Result as GameResult

logger = logging.getLogger(__name__)

MAX_SWISS_ROUNDS = 30
MAX_GAMES_PER_PAIRING = 9
MIN_ENTRANTS = {Seating.HEADS_UP: 2, Seating.TABLES: 3, Seating.TEAMS: 2}
# A timed task further ahead than this is left to the beat's sweep: Redis would hand an unacknowledged
# task waiting for its ETA to a second worker after its visibility timeout (durak_site.celery).
LONGEST_COUNTDOWN = datetime.timedelta(hours=12)
SUBSTITUTE_LEVEL = BotLevel.MEDIUM
# Up to this many entrants the standings are recomputed with each result (tens of milliseconds); above,
# a task does it at most once every STANDINGS_DELAY (a second for 1,000 entrants after 7 rounds).
STANDINGS_AT_ONCE = 200
STANDINGS_DELAY = datetime.timedelta(seconds=2)
POOL_FORMATS = {Seating.HEADS_UP: PoolFormat.HEADS_UP, Seating.TABLES: PoolFormat.MULTI, Seating.TEAMS: PoolFormat.TEAMS_2V2}


# --- permissions and helpers ---------------------------------------------------------------------


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


def _schedule(task_name: str, args: tuple[Any, ...], eta: datetime.datetime | None) -> None:
    """Run a task of tournaments.tasks at ``eta`` (now if None) once the transaction commits; one too far
    ahead is left to the sweep that celery beat runs every half minute."""
    from tournaments import tasks

    task = getattr(tasks, task_name)
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
    return f"{entrant.key} {selectors.entrant_label(entrant)}"


def _scoring(tournament: Tournament) -> pure.Scoring:
    if tournament.seating == Seating.TABLES:
        first = float(points_by_place(tournament.table_size, tournament.place_points)[0]) * tournament.games_per_pairing
        return pure.Scoring(win=first, draw=first / 2)
    return pure.Scoring(win=tournament.points_win, draw=tournament.points_draw)


def _tiebreak_order(tournament: Tournament) -> tuple[pure.TieBreak, ...]:
    return tuple(pure.TieBreak(value) for value in tournament.tiebreaks)


# --- creating ------------------------------------------------------------------------------------


def _checked_rules(rules: Rules | Mapping[str, Any]) -> Rules:
    try:
        return rules if isinstance(rules, Rules) else Rules.from_dict(dict(rules))
    except (EngineError, TypeError, ValueError) as error:
        raise ValidationError(_("The rule set is not valid: %(error)s") % {"error": error}) from None


def _rules_for_seating(rules: Rules, seating: str, team_size: int) -> Rules:
    """The rule set as the seating plays it: teams of the right size, or none."""
    teams = f"{team_size}v{team_size}" if seating == Seating.TEAMS else None
    if rules.teams == teams:
        return rules
    return _checked_rules({**rules.to_dict(), "teams": teams})


@transaction.atomic
def tournament_create(
    *,
    director: User,
    name: str,
    starts_at: datetime.datetime,
    rules: Rules | Mapping[str, Any] | None = None,
    rating_pool: RatingPool | None = None,
    description: str = "",
    format: str = Format.SWISS,
    rounds: int = 5,
    seating: str = Seating.HEADS_UP,
    table_size: int = 4,
    team_size: int = 2,
    games_per_pairing: int = 1,
    points_win: float = 1.0,
    points_draw: float = 0.5,
    place_points: Sequence[float] = (),
    tiebreaks: Sequence[str] | None = None,
    registration_opens: datetime.datetime | None = None,
    registration_closes: datetime.datetime | None = None,
    round_interval: int = 60,
    turn_seconds: int = 30,
    clock_base: int | None = None,
    clock_increment: int = 0,
    grace_seconds: int = 300,
    capacity: int | None = None,
    bots_allowed: bool = True,
    no_show: str = NoShow.FORFEIT,
    auto_advance: bool = True,
    analyse_games: bool = False,
    qualifier: Tournament | None = None,
    qualify_count: int = 0,
) -> Tournament:
    """Create a tournament open for registration; it starts by itself at ``starts_at``."""
    if not can_create(user=director):
        raise ValidationError(_("Only a tournament director may create a tournament."))
    problems: list[str] = []
    name = name.strip()
    if not name:
        problems.append(str(_("A tournament needs a name.")))
    if format not in Format.values:
        raise ValidationError(_("Unknown format %(format)s.") % {"format": format})
    if seating not in Seating.values:
        raise ValidationError(_("Unknown seating %(seating)s.") % {"seating": seating})
    if seating != Seating.TABLES:
        table_size = 2
    if seating != Seating.TEAMS:
        team_size = 1
    if rating_pool is not None:
        built = _checked_rules(rating_pool.rules)
        if not rating_pool.active:
            problems.append(str(_("That rating pool no longer rates games.")))
        if rating_pool.format != POOL_FORMATS[Seating(seating)]:
            problems.append(str(_("The rating pool is for another kind of game than this seating.")))
        players = table_size if seating == Seating.TABLES else 2 * team_size
        if not rating_pool.min_players <= players <= rating_pool.max_players:
            problems.append(str(_("The rating pool does not rate games of %(count)s players.") % {"count": players}))
    else:
        built = _rules_for_seating(_checked_rules(rules or {"preset": "podkidnoy"}), seating, team_size)
    if seating == Seating.TABLES and not MIN_TABLE <= table_size <= min(MAX_TABLE, built.max_players):
        problems.append(str(_("A table seats 3 to %(most)s players with this deck.") % {"most": min(6, built.max_players)}))
    if seating == Seating.TEAMS and team_size not in (2, 3):
        problems.append(str(_("Teams have 2 or 3 players.")))
    if seating == Seating.TEAMS and 2 * team_size > built.max_players:
        problems.append(str(_("This deck does not seat two teams of %(size)s.") % {"size": team_size}))
    round_robin = format != Format.SWISS
    if round_robin and seating == Seating.TABLES:
        problems.append(str(_("A round robin is played heads-up or in teams, not at tables.")))
    if round_robin and capacity is not None and capacity > ROUND_ROBIN_MOST:
        problems.append(str(_("A round robin takes at most %(most)s entrants.") % {"most": ROUND_ROBIN_MOST}))
    if not round_robin and not 1 <= rounds <= MAX_SWISS_ROUNDS:
        problems.append(str(_("A Swiss has 1 to %(most)s rounds.") % {"most": MAX_SWISS_ROUNDS}))
    if not 1 <= games_per_pairing <= MAX_GAMES_PER_PAIRING:
        problems.append(str(_("A pairing plays 1 to %(most)s games.") % {"most": MAX_GAMES_PER_PAIRING}))
    if not points_win > points_draw >= 0:
        problems.append(str(_("A win must be worth more than a draw, and a draw nothing negative.")))
    places = [float(value) for value in place_points]
    if places and (
        len(places) > table_size - 1 or any(value < 0 for value in places)
        or any(a < b for a, b in zip(places, places[1:], strict=False))
    ):  # fmt: skip
        problems.append(str(_("Points by place go down from the first place, at most one value a place but the durak's.")))
    order = list(tiebreaks) if tiebreaks is not None else [
        tiebreak.value for tiebreak in (pure.ROUND_ROBIN_ORDER if round_robin else pure.SWISS_ORDER)
    ]
    if any(value not in {tiebreak.value for tiebreak in pure.TieBreak} for value in order) or len(set(order)) != len(order):
        problems.append(str(_("Unknown or repeated tie-break.")))
    now = timezone.now()
    registration_opens = registration_opens or min(now, starts_at)
    registration_closes = registration_closes or starts_at
    if not registration_opens <= registration_closes <= starts_at:
        problems.append(str(_("Registration opens, then closes, no later than the start.")))
    if not game_services.MIN_TURN_SECONDS <= turn_seconds <= game_services.MAX_TURN_SECONDS:
        problems.append(str(_("A turn lasts %(least)s seconds at least.") % {"least": game_services.MIN_TURN_SECONDS}))
    try:
        game_services.clock_check(base_seconds=clock_base, increment_seconds=clock_increment)
    except ValidationError as error:
        problems.extend(str(message) for message in error.messages)
    if round_interval < 0 or grace_seconds < 0:
        problems.append(str(_("Times cannot be negative.")))
    if capacity is not None and capacity < MIN_ENTRANTS[Seating(seating)]:
        problems.append(str(_("Room for fewer entrants than a game needs.")))
    if no_show not in NoShow.values:
        problems.append(str(_("Unknown rule for no-shows.")))
    if qualifier is not None:
        if qualify_count < MIN_ENTRANTS[Seating(seating)]:
            problems.append(str(_("Say how many entrants qualify.")))
        if qualifier.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
            problems.append(str(_("The qualifier is already over.")))
        if qualifier.seating != seating or qualifier.team_size != team_size:
            problems.append(str(_("A final is seated as its qualifier.")))
        if round_robin and qualify_count > ROUND_ROBIN_MOST:
            problems.append(str(_("A round robin takes at most %(most)s entrants.") % {"most": ROUND_ROBIN_MOST}))
    if problems:
        raise ValidationError(problems)
    tournament = Tournament.objects.create(
        name=name[:100], description=description.strip(), director=director, rules=built.to_dict(),
        rating_pool=rating_pool, format=format, rounds_planned=rounds if not round_robin else 0, seating=seating,
        table_size=table_size, team_size=team_size, games_per_pairing=games_per_pairing, points_win=points_win,
        points_draw=points_draw, place_points=places, tiebreaks=order, registration_opens=registration_opens,
        registration_closes=registration_closes, starts_at=starts_at, round_interval=round_interval,
        turn_seconds=turn_seconds, clock_base=clock_base,
        clock_increment=clock_increment if clock_base is not None else 0, grace_seconds=grace_seconds, capacity=capacity, bots_allowed=bots_allowed,
        no_show=no_show, auto_advance=auto_advance, analyse_games=analyse_games, qualifier=qualifier,
        qualify_count=qualify_count if qualifier is not None else 0,
    )  # fmt: skip
    _audit(tournament, AuditAction.CREATED, actor=director, subject=tournament.name)
    _schedule("start_tournament", (tournament.pk,), starts_at)
    _changed(tournament)
    return tournament


# --- registering ---------------------------------------------------------------------------------


def _seeding_rating(tournament: Tournament, users: Sequence[User]) -> float:
    """The entrant's rating in the tournament's pool, or in the pool that rates its kind of game; a team's
    is its members' average (tournaments.pairing.team_rating)."""
    pool = tournament.rating_pool
    if pool is None:
        pool = rating_services.pool_for_rules(
            rules=tournament.rules, players=tournament.players_per_game, teams=tournament.seating == Seating.TEAMS
        )
    found: dict[int, float] = {}
    if pool is not None:
        found = dict(PlayerRating.objects.filter(pool=pool, user__in=users).values_list("user_id", "rating"))
    return pure.team_rating([found.get(user.pk, INITIAL_RATING) for user in users])


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
    now = timezone.now()
    late = tournament.status == TournamentStatus.RUNNING
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise ValidationError(_("This tournament is over."))
    if late:
        if not directing:
            raise ValidationError(_("Registration is closed; the director may still enter you late."))
        if tournament.is_round_robin:
            raise ValidationError(_("A round robin takes no late entries: its rounds are fixed at the start."))
        if tournament.current_round >= tournament.rounds_planned:
            raise ValidationError(_("The last round is already paired."))
    elif not directing:
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
    members = [user, *partners]
    if any(member.is_bot for member in members) and not tournament.bots_allowed:
        raise ValidationError(_("Bots may not enter this tournament."))
    if tournament.seating == Seating.TEAMS:
        if len(members) != tournament.team_size or len({member.pk for member in members}) != len(members):
            raise ValidationError(
                _("A team is %(size)s different players.") % {"size": tournament.team_size}
            )
    elif partners:
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
    tournament = _locked(entrant.tournament_id)
    _require_director(by, tournament)
    reason = _require_reason(reason)
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


# --- starting and pairing ------------------------------------------------------------------------


@transaction.atomic
def tournament_start(
    *, tournament: Tournament, by: User | None = None, now: datetime.datetime | None = None, deal_games: bool = True
) -> Tournament:
    """Start at ``starts_at`` (the schedule) or earlier (a director): pair and seat round 1. With too few
    entrants the tournament is cancelled. Nothing happens if it has started already or is not due.
    ``deal_games`` False leaves every pairing waiting (manage.py simulate_tournament --fast)."""
    tournament = _locked(tournament)
    now = now or timezone.now()
    if by is not None:
        _require_director(by, tournament)
    if tournament.status != TournamentStatus.REGISTRATION:
        return tournament
    if by is None and tournament.starts_at > now:
        return tournament
    if by is None and tournament.qualifier is not None and tournament.qualifier.status == TournamentStatus.RUNNING:
        return tournament  # a final waits for its qualifier, which enters its best and starts it (_qualify)
    # A team whose partners did not all accept in time does not play.
    for pending in Entrant.objects.filter(tournament=tournament, status=EntrantStatus.PENDING).select_related("user"):
        subject = _subject(pending)
        pending.delete()
        _audit(tournament, AuditAction.UNREGISTERED, actor=by, subject=subject,
               reason=str(_("Not every partner accepted before the start.")))
    entrants = list(Entrant.objects.filter(tournament=tournament, status=EntrantStatus.ACTIVE).select_related("user"))
    needed = 3 if tournament.is_round_robin else MIN_ENTRANTS[Seating(tournament.seating)]
    too_many = tournament.is_round_robin and len(entrants) > ROUND_ROBIN_MOST
    if len(entrants) < needed or too_many:
        tournament.status = TournamentStatus.CANCELLED
        tournament.finished = now
        tournament.save(update_fields=["status", "finished"])
        reason = (
            _("%(count)s entrants: a round robin takes at most %(most)s.") % {"count": len(entrants), "most": ROUND_ROBIN_MOST}
            if too_many else _("%(count)s entrants: at least %(least)s are needed.") % {"count": len(entrants), "least": needed}
        )  # fmt: skip
        _audit(tournament, AuditAction.CANCELLED, actor=by, reason=str(reason))
        _changed(tournament)
        return tournament
    if tournament.rating_pool_id is not None:
        for entrant in entrants:
            users = [entrant.user] if tournament.seating != Seating.TEAMS else [
                member.user for member in entrant.members.select_related("user")
            ]
            entrant.rating = _seeding_rating(tournament, users)
        Entrant.objects.bulk_update(entrants, ["rating"])
    if tournament.is_round_robin:
        cycle = len(pure.berger_table(len(entrants)))
        tournament.rounds_planned = cycle * (2 if tournament.format == Format.DOUBLE_ROUND_ROBIN else 1)
    tournament.status = TournamentStatus.RUNNING
    tournament.started = now
    tournament.save(update_fields=["status", "started", "rounds_planned"])
    _audit(tournament, AuditAction.STARTED, actor=by, subject=f"{len(entrants)}")
    Round.objects.get_or_create(tournament=tournament, number=1, defaults={"starts_at": now})
    standings_refresh(tournament=tournament)
    round_pair(tournament=tournament, number=1, deal_games=deal_games)
    _changed(tournament)
    return tournament


def _results_by_round(tournament: Tournament, *, upto: int | None = None) -> list[list[pure.Result]]:
    """Every finished pairing's result as the pure core's values, one list a round 1..upto (default: the
    current round); an unfinished pairing is left out, so its entrants count as absent for now."""
    last = tournament.current_round if upto is None else upto
    rounds: list[list[pure.Result]] = [[] for _ in range(last)]
    rows = (
        PairingEntrant.objects.filter(pairing__tournament=tournament, pairing__round__number__lte=last,
                                      pairing__status=PairingStatus.FINISHED)
        .order_by("pairing__round__number", "pairing__board", "position")
        .values_list("pairing_id", "pairing__round__number", "pairing__bye", "pairing__result_kind", "entrant__number",
                     "points", "forfeited", "durak_finishes", "epaulettes_hung")
    )  # fmt: skip
    by_pairing: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for row in rows:
        by_pairing[row[0]].append(row)
    for seats in by_pairing.values():
        number, bye, kind = seats[0][1], seats[0][2], seats[0][3]
        rounds[number - 1].extend(_pure_results(seats, bye=bye, kind=kind))
    return rounds


def _pure_results(seats: list[tuple[Any, ...]], *, bye: bool, kind: str) -> list[pure.Result]:
    keys = [f"e{seat[4]}" for seat in seats]
    points = [float(seat[5] or 0.0) for seat in seats]
    if bye:
        return [pure.Result(entrants=(keys[0],), points=(points[0],), bye=True)]
    forfeited = [bool(seat[6]) for seat in seats]
    played = [index for index, gone in enumerate(forfeited) if not gone]
    if kind == ResultKind.FORFEIT and (len(played) < 2 or len(seats) == 2):
        return [pure.Result(entrants=tuple(keys), points=tuple(points), forfeit=True)]
    # A table where some did not come: the others played; each absentee had a zero-point unplayed round.
    results = [
        pure.Result(
            entrants=tuple(keys[index] for index in played), points=tuple(points[index] for index in played),
            first=keys[played[0]], durak_finishes=tuple(seats[index][7] for index in played),
            epaulettes_hung=tuple(seats[index][8] for index in played),
        )
    ]  # fmt: skip
    results += [pure.Result(entrants=(keys[index],), points=(0.0,)) for index, gone in enumerate(forfeited) if gone]
    return results


def _new_pairings(
    tournament: Tournament, number: int, entrants: list[Entrant], absentees: Sequence[str] = ()
) -> tuple[list[pure.Pairing], pure.AvoidanceReport]:
    """What the pure core pairs for round ``number``, and what the requested avoidances did to it;
    ``absentees`` (who did not check in) are left out."""
    from tournaments.services.avoidances import avoidance_keys

    if tournament.is_round_robin:
        order = sorted(entrants, key=lambda entrant: (-entrant.rating, entrant.number))
        cycle = pure.round_robin([entrant.key for entrant in order], double=tournament.format == Format.DOUBLE_ROUND_ROBIN)
        return cycle[number - 1], pure.AvoidanceReport()
    ratings = {entrant.key: entrant.rating for entrant in entrants}
    history = _results_by_round(tournament, upto=number - 1)
    gone = [entrant.key for entrant in entrants if not entrant.active]
    values = pure.entrants_after(ratings, history, withdrawn=gone)
    absent = [entrant.key for entrant in entrants if entrant.first_round > number] + list(absentees)
    avoid = avoidance_keys(tournament=tournament)
    if tournament.seating == Seating.TABLES:
        return pure.seat_tables_explained(values, table_size=tournament.table_size, absent=absent, avoid=avoid)
    return pure.pair_swiss_explained(values, absent=absent, avoid=avoid)


@transaction.atomic
def round_pair(*, tournament: Tournament, number: int, by: User | None = None, deal_games: bool = True) -> Round:
    """Pair round ``number`` and publish it: its pairings, byes scored, bots seated, games dealt where
    everyone is there, the grace period for no-shows started. Nothing if it is paired already. A round
    that cannot be paired pauses the tournament for the director, with the reason in the log.
    ``deal_games`` False leaves the pairings waiting (simulations score them themselves)."""
    tournament = _locked(tournament)
    if by is not None:
        _require_director(by, tournament)
    round_ = Round.objects.select_for_update().filter(tournament=tournament, number=number).first()
    if round_ is not None and round_.status != RoundStatus.SCHEDULED:
        return round_
    if tournament.status != TournamentStatus.RUNNING or number != tournament.current_round + 1:
        raise ValidationError(_("Round %(number)s cannot be paired now.") % {"number": number})
    if number > tournament.rounds_planned:
        raise ValidationError(_("The tournament has %(count)s rounds.") % {"count": tournament.rounds_planned})
    if Round.objects.filter(tournament=tournament, number__lt=number).exclude(status=RoundStatus.CLOSED).exists():
        raise ValidationError(_("The previous round is not over."))
    now = timezone.now()
    if round_ is None:
        round_ = Round.objects.create(tournament=tournament, number=number, starts_at=now)
    entrants = list(Entrant.objects.filter(tournament=tournament).select_related("user"))
    from tournaments.services import entrants as presence  # its module imports this one

    absentees = presence.presence_absentees(tournament, number, entrants)
    try:
        drawn, avoided = _new_pairings(tournament, number, entrants, absentees)
    except pure.PairingError as error:
        tournament.paused = True
        tournament.save(update_fields=["paused"])
        _audit(tournament, AuditAction.PAUSED, round_number=number, reason=str(error))
        _changed(tournament)
        return round_
    by_key = {entrant.key: entrant for entrant in entrants}
    boards: list[Pairing] = []
    seats: list[PairingEntrant] = []
    for board, drawn_pairing in enumerate(drawn, start=1):
        pairing = Pairing(round=round_, tournament=tournament, board=board, bye=drawn_pairing.bye)
        if drawn_pairing.bye:
            pairing.status, pairing.result_kind, pairing.finished_at = PairingStatus.FINISHED, ResultKind.BYE, now
        boards.append(pairing)
    Pairing.objects.bulk_create(boards)
    for pairing, drawn_pairing in zip(boards, drawn, strict=True):
        for position, key in enumerate(drawn_pairing.entrants):
            seats.append(PairingEntrant(
                pairing=pairing, entrant=by_key[key], position=position,
                points=tournament.points_win if drawn_pairing.bye else None,
            ))  # fmt: skip
    PairingEntrant.objects.bulk_create(seats)
    round_.status = RoundStatus.PAIRED
    round_.paired_at = now
    round_.seat_deadline = now + datetime.timedelta(seconds=tournament.grace_seconds)
    round_.save(update_fields=["status", "paired_at", "seat_deadline"])
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    from tournaments.services.avoidances import report_details

    _audit(tournament, AuditAction.ROUND_PAIRED, actor=by, round_number=number, subject=f"{len(boards)}",
           details=report_details(avoided, by_key))  # fmt: skip
    presence.presence_record_absent(tournament, number, absentees)
    _seat_round(tournament, round_, now=now, deal_games=deal_games)
    if deal_games:
        _schedule("seat_deadline", (tournament.pk, number), round_.seat_deadline)
        notice_services.round_paired(round_id=round_.pk, paired_at=now, seat_deadline=round_.seat_deadline)
    _changed(tournament)
    return round_


def _seat_round(tournament: Tournament, round_: Round, *, now: datetime.datetime, deal_games: bool) -> None:
    """Forfeit the withdrawn (a round robin still pairs them), check the bots in, deal every pairing whose
    entrants are all there, and close the round if nothing is left to play."""
    waiting = list(_seats_of(tournament, Pairing.objects.filter(round=round_, status=PairingStatus.WAITING).order_by("board")))
    with game_services.lobby_batch():  # one lobby message for the round, not one a game
        forfeited = _seat_pairings(tournament, waiting, now=now, deal_games=deal_games)
    if forfeited:
        _standings_changed(tournament)
    _close_round_if_done(tournament, round_)


def _seat_pairings(tournament: Tournament, waiting: list[Pairing], *, now: datetime.datetime, deal_games: bool) -> bool:
    """_seat_round's loop over the waiting pairings; whether anyone was dropped."""
    forfeited = False
    for pairing in waiting:
        seats = list(pairing.seats.all())
        gone = [seat for seat in seats if not seat.entrant.active]
        if gone:
            _drop(tournament, pairing, seats, gone, actor=None, reason=str(_("Withdrawn before the round.")))
            forfeited = True
            if pairing.status != PairingStatus.WAITING:
                continue
        if not deal_games:
            continue
        bots = [seat for seat in seats if seat.checked_in is None and _all_bots(tournament, seat.entrant)]
        for seat in bots:
            seat.checked_in = now
        PairingEntrant.objects.bulk_update(bots, ["checked_in"])
        if _everyone_seated(seats) and pairing.status == PairingStatus.WAITING:
            _start_next_game(tournament, pairing, seats)
    return forfeited


def _seats_of(tournament: Tournament, pairings: Any) -> Any:
    """``pairings`` (a queryset) with their seats, entrants and users, and a team's members only in a team
    tournament: one query each, whatever the number of pairings."""
    seats = PairingEntrant.objects.select_related("entrant__user").order_by("position")
    if tournament.seating == Seating.TEAMS:
        seats = seats.prefetch_related("entrant__members__user")
    return pairings.prefetch_related(Prefetch("seats", queryset=seats))


def _pairing_seats(tournament: Tournament, pairing: Pairing) -> list[PairingEntrant]:
    seats = pairing.seats.select_related("entrant__user").order_by("position")
    if tournament.seating == Seating.TEAMS:
        seats = seats.prefetch_related("entrant__members__user")
    return list(seats)


def _all_bots(tournament: Tournament, entrant: Entrant) -> bool:
    return all(member.is_bot for member in _members(tournament, entrant))


def _members(tournament: Tournament, entrant: Entrant) -> list[User]:
    if tournament.seating == Seating.TEAMS:
        return [member.user for member in sorted(entrant.members.all(), key=lambda member: member.position)]
    return [entrant.user]


def _start_next_game(tournament: Tournament, pairing: Pairing, seats: Sequence[PairingEntrant]) -> MatchGame | None:
    """Deal the pairing's next game: the seats as scoring.game_seating places the entrants (a team's
    members apart), a bot for an absentee who is substituted, the lead going round the seats game by game.
    A table leaves out whoever forfeited."""
    played = MatchGame.objects.filter(pairing=pairing).count()
    if played >= tournament.games_per_pairing:
        return None
    number = played + 1
    present = {seat.position for seat in seats if not seat.forfeited}
    by_position = {seat.position: seat for seat in seats}
    seating = [(position, member) for position, member in game_seating(len(seats), tournament.team_size, number)
               if position in present]  # fmt: skip
    players: list[User | None] = [
        None if by_position[position].substituted else _members(tournament, by_position[position].entrant)[member]
        for position, member in seating
    ]
    # Each absentee's substitute is a bench bot of its own (a name and a rating apart), none already seated.
    for index, player in enumerate(players):
        if player is None:
            seated = {other.pk for other in players if other is not None}
            players[index] = game_services.bot_account_for(SUBSTITUTE_LEVEL, seated=seated)
    round_number = pairing.round.number
    game = game_services.game_start_reserved(
        owner=tournament.director, rules=Rules.from_dict(tournament.rules), players=[one for one in players if one],
        rated=tournament.rated,
        turn_seconds=tournament.turn_seconds, clock_base=tournament.clock_base,
        clock_increment=tournament.clock_increment,
        name=f"{tournament.name[:40]} · {round_number}.{pairing.board}" + (f" · {number}" if tournament.games_per_pairing > 1 else ""),
        first_attacker=first_attacker_seat(number, len(players)),
    )  # fmt: skip
    match_game = MatchGame.objects.create(
        pairing=pairing, number=number, game=game, seats=[position for position, _ in seating],
        first_attacker=first_attacker_seat(number, len(players)),
    )  # fmt: skip
    if pairing.status != PairingStatus.PLAYING:
        pairing.status = PairingStatus.PLAYING
        pairing.save(update_fields=["status"])
    return match_game


@transaction.atomic
def pairing_check_in(*, pairing: Pairing, user: User) -> MatchGame | None:
    """He takes his seat: once every entrant of the pairing is there its first game is dealt. Returns the
    game being played, if any. A team is checked in by any of its members."""
    tournament = _locked(pairing.tournament_id)
    pairing = Pairing.objects.select_for_update().select_related("round").get(pk=pairing.pk)
    seats = _pairing_seats(tournament, pairing)
    mine = next((seat for seat in seats if user.pk in {member.pk for member in _members(tournament, seat.entrant)}), None)
    if mine is None:
        raise ValidationError(_("You do not play in this pairing."))
    if pairing.status == PairingStatus.FINISHED:
        raise ValidationError(_("This pairing is over."))
    if pairing.status == PairingStatus.PLAYING:
        return MatchGame.objects.filter(pairing=pairing, status=MatchGameStatus.PLAYING).select_related("game").first()
    if tournament.paused:
        raise ValidationError(_("The tournament is paused; the director will resume it."))
    if mine.checked_in is None:
        mine.checked_in = timezone.now()
        mine.save(update_fields=["checked_in"])
    started = None
    if _everyone_seated(seats):
        started = _start_next_game(tournament, pairing, seats)
    _changed(tournament)
    return started


# --- no-shows ------------------------------------------------------------------------------------


@transaction.atomic
def round_enforce_seat_deadline(*, tournament: Tournament, number: int, now: datetime.datetime | None = None) -> int:
    """The grace period of round ``number`` is over: whoever has not taken his seat forfeits, or a bot
    plays for him, as the tournament says. Returns how many pairings it settled; nothing before the
    deadline, while paused, or once settled."""
    tournament = _locked(tournament)
    now = now or timezone.now()
    round_ = Round.objects.filter(tournament=tournament, number=number).first()
    if (
        tournament.paused or tournament.status != TournamentStatus.RUNNING or round_ is None
        or round_.status != RoundStatus.PAIRED or round_.seat_deadline is None or round_.seat_deadline > now
    ):  # fmt: skip
        return 0
    settled = 0
    waiting = Pairing.objects.filter(round=round_, status=PairingStatus.WAITING).select_related("round").order_by("board")
    for pairing in _seats_of(tournament, waiting):
        seats = list(pairing.seats.all())
        absent = [seat for seat in seats if seat.checked_in is None and not seat.forfeited]
        if not absent:
            continue
        settled += 1
        for seat in absent:
            _audit(tournament, AuditAction.NO_SHOW if tournament.no_show == NoShow.FORFEIT else AuditAction.SUBSTITUTED,
                   round_number=number, subject=_subject(seat.entrant))
        notice_services.no_shows_found(tournament=tournament, pairing=pairing, seats=absent, substituted=tournament.no_show == NoShow.BOT)
        if tournament.no_show == NoShow.BOT:
            for seat in absent:
                seat.substituted = True
                seat.checked_in = now
            PairingEntrant.objects.bulk_update(absent, ["substituted", "checked_in"])
            _start_next_game(tournament, pairing, seats)
            continue
        _drop(tournament, pairing, seats, absent, actor=None, reason=str(_("Did not take the seat in time.")))
    if settled:
        _standings_changed(tournament)
        _close_round_if_done(tournament, round_)
        _changed(tournament)
    return settled


def _everyone_seated(seats: Sequence[PairingEntrant]) -> bool:
    """Every entrant who is to play the pairing has taken his seat (a forfeiter at a table plays no more)."""
    return all(seat.checked_in is not None or seat.forfeited for seat in seats)


def _drop(
    tournament: Tournament, pairing: Pairing, seats: Sequence[PairingEntrant], gone: Sequence[PairingEntrant],
    *, actor: User | None, reason: str,
) -> None:
    """Entrants who will not play the pairing (a no-show, a withdrawal). At a table the others play on
    without them, if two or more are left, and they score 0; otherwise the whole pairing is forfeited."""
    leaving = {seat.pk for seat in gone}
    staying = [seat for seat in seats if seat.pk not in leaving and not seat.forfeited]
    if tournament.seating == Seating.TABLES and len(staying) >= 2:
        for seat in gone:
            seat.forfeited, seat.points = True, 0.0
        PairingEntrant.objects.bulk_update(list(gone), ["forfeited", "points"])
        if _everyone_seated(seats):
            _start_next_game(tournament, pairing, seats)
        return
    absent = {seat.entrant_id for seat in seats if seat.pk in leaving or seat.forfeited}
    _forfeit(tournament, pairing, absent, actor=actor, reason=reason)


def _forfeit(tournament: Tournament, pairing: Pairing, gone: set[int], *, actor: User | None, reason: str) -> None:
    """Nobody plays the pairing: the entrants in ``gone`` (PairingEntrant.entrant ids) score 0, the others a
    forfeit win; everyone in ``gone`` is a double forfeit."""
    seats = list(PairingEntrant.objects.filter(pairing=pairing).select_related("entrant__user").order_by("position"))
    before = [seat.points for seat in seats] if pairing.status == PairingStatus.FINISHED else None
    flags = [seat.entrant_id in gone for seat in seats]
    points = forfeit_points(
        flags, table=tournament.seating == Seating.TABLES, win=tournament.points_win, place_points=tournament.place_points,
        games=tournament.games_per_pairing,
    )  # fmt: skip
    for seat, flag, value in zip(seats, flags, points, strict=True):
        seat.forfeited, seat.points, seat.game_points, seat.durak_finishes, seat.epaulettes_hung = flag, value, 0, 0, 0
    PairingEntrant.objects.bulk_update(seats, ["forfeited", "points", "game_points", "durak_finishes", "epaulettes_hung"])
    Pairing.objects.filter(pk=pairing.pk).update(
        status=PairingStatus.FINISHED, result_kind=ResultKind.FORFEIT, finished_at=timezone.now(),
        version=F("version") + 1,
    )
    pairing.status, pairing.result_kind = PairingStatus.FINISHED, ResultKind.FORFEIT
    _audit(
        tournament, AuditAction.FORFEIT, actor=actor, round_number=pairing.round.number,
        subject=" – ".join(f"{_subject(seat.entrant)} {selectors.shown(value)}" for seat, value in zip(seats, points, strict=True)),
        reason=reason, details={"pairing": pairing.pk, "points": points, "forfeited": [seat.entrant.key for seat in seats if seat.forfeited],
                                "before": before, "after": points},
    )  # fmt: skip


# --- a game is over: game -> match -> standings -> round ------------------------------------------


def tournament_game_finished(result: GameResult) -> None:
    """The games.hooks callback (registered in TournamentsConfig.ready), run inside game_finalise's
    transaction: score the game for its pairing, once, and queue its analysis when the tournament analyses
    every game."""
    match_game = MatchGame.objects.filter(game_id=result.game_id).select_related("pairing").first()
    if match_game is None:
        return
    tournament = _locked(match_game.pairing.tournament_id)
    match_game = MatchGame.objects.select_for_update().get(pk=match_game.pk)
    if match_game.status == MatchGameStatus.FINISHED:
        return
    epaulettes = result.epaulettes or {}
    by_seat = epaulettes.get("by")
    outcome = game_outcome(
        places=result.places, seats=match_game.seats, positions=_positions(match_game.pairing_id),
        table=tournament.seating == Seating.TABLES, epaulettes_by=int(by_seat) if by_seat is not None else None,
        place_points=tournament.place_points,
    )  # fmt: skip
    _store_outcome(match_game, outcome)
    if tournament.analyse_games:
        # review imports tournaments (who directs a game's tournament): imported here, not at the top.
        from review.services import analysis_request_automatic

        analysis_request_automatic(game_id=result.game_id)
    _after_game(tournament, match_game.pairing_id)


def _positions(pairing_id: int) -> int:
    return PairingEntrant.objects.filter(pairing_id=pairing_id).count()


def _store_outcome(match_game: MatchGame, outcome: GameOutcome) -> None:
    match_game.outcome = outcome.as_json()
    match_game.status = MatchGameStatus.FINISHED
    match_game.save(update_fields=["outcome", "status", "overridden"])


def _tally(seats: list[PairingEntrant], outcomes: Iterable[Mapping[str, Any]]) -> None:
    """Sum the games' points, durak finishes and epaulettes into the pairing's seats (a forfeiter keeps 0)."""
    for seat in seats:
        seat.game_points, seat.durak_finishes, seat.epaulettes_hung = 0.0, 0, 0
    for outcome in outcomes:
        for seat in seats:
            seat.game_points += float(outcome["points"][seat.position])
            seat.durak_finishes += int(outcome["durak"][seat.position])
            seat.epaulettes_hung += int(outcome["epaulettes"][seat.position])


def _after_game(tournament: Tournament, pairing_id: int) -> None:
    """After a game's outcome is stored: deal the next game of the match, or score the match, refresh the
    standings and close the round when it was the last."""
    pairing = Pairing.objects.select_for_update().select_related("round").get(pk=pairing_id)
    if pairing.status == PairingStatus.FINISHED:
        return  # the director settled it meanwhile
    seats = _pairing_seats(tournament, pairing)
    games = list(MatchGame.objects.filter(pairing=pairing).order_by("number"))
    if any(game.status != MatchGameStatus.FINISHED for game in games):
        return
    if len(games) < tournament.games_per_pairing:
        _start_next_game(tournament, pairing, seats)
        _changed(tournament)
        return
    _score_match(tournament, pairing, seats, [game.outcome for game in games if game.outcome], ResultKind.PLAYED)
    _standings_changed(tournament)
    _close_round_if_done(tournament, pairing.round)
    _changed(tournament)


def _score_match(
    tournament: Tournament, pairing: Pairing, seats: list[PairingEntrant], outcomes: Sequence[Mapping[str, Any]],
    kind: str,
) -> None:
    _tally(seats, outcomes)
    playing = [seat for seat in seats if not seat.forfeited]
    points = match_points(
        [seat.game_points for seat in playing], table=tournament.seating == Seating.TABLES,
        win=tournament.points_win, draw=tournament.points_draw,
    )  # fmt: skip
    for seat, value in zip(playing, points, strict=True):
        seat.points = value
    PairingEntrant.objects.bulk_update(seats, ["points", "game_points", "durak_finishes", "epaulettes_hung"])
    pairing.status, pairing.result_kind, pairing.finished_at = PairingStatus.FINISHED, kind, timezone.now()
    pairing.version += 1
    pairing.save(update_fields=["status", "result_kind", "finished_at", "version"])


def _close_round_if_done(tournament: Tournament, round_: Round) -> bool:
    """Close the round once every pairing is finished: then the tournament ends after its last round, or
    the next round is scheduled (after the interval, or for the director to confirm)."""
    if round_.status != RoundStatus.PAIRED:
        return False
    if Pairing.objects.filter(round=round_).exclude(status=PairingStatus.FINISHED).exists():
        return False
    now = timezone.now()
    Round.objects.filter(pk=round_.pk).update(status=RoundStatus.CLOSED, closed_at=now)
    round_.status, round_.closed_at = RoundStatus.CLOSED, now
    _audit(tournament, AuditAction.ROUND_CLOSED, round_number=round_.number)
    if round_.number >= tournament.rounds_planned:
        _finish(tournament, actor=None, reason="")
        return True
    starts_at = now + datetime.timedelta(seconds=tournament.round_interval) if tournament.auto_advance else None
    Round.objects.get_or_create(tournament=tournament, number=round_.number + 1, defaults={"starts_at": starts_at})
    if starts_at is not None:
        _schedule("start_round", (tournament.pk, round_.number + 1), starts_at)
    return True


def _finish(tournament: Tournament, *, actor: User | None, reason: str) -> None:
    standings = standings_refresh(tournament=tournament)
    tournament.status = TournamentStatus.FINISHED
    tournament.finished = timezone.now()
    tournament.save(update_fields=["status", "finished"])
    winners = {line.entrant for line in standings if line.rank == 1}
    entrants = Entrant.objects.filter(tournament=tournament).select_related("user").order_by("number")
    _audit(
        tournament, AuditAction.FINISHED, actor=actor, round_number=tournament.current_round,
        subject=", ".join(_subject(entrant) for entrant in entrants if entrant.key in winners), reason=reason,
    )  # fmt: skip
    for final in Tournament.objects.filter(qualifier=tournament, status=TournamentStatus.REGISTRATION):
        _qualify(final, tournament, standings)


def _qualify(final: Tournament, qualifier: Tournament, standings: Sequence[pure.Standing]) -> None:
    """Enter the best ``qualify_count`` still playing into the final; it starts at its time, or now if that
    has passed."""
    final = _locked(final)
    entrants = {entrant.key: entrant for entrant in Entrant.objects.filter(tournament=qualifier).select_related("user")}
    already = set(Entrant.objects.filter(tournament=final).values_list("user_id", flat=True))
    chosen = [
        entrants[line.entrant] for line in standings
        if entrants[line.entrant].active and entrants[line.entrant].user_id not in already
    ][: final.qualify_count]  # fmt: skip
    first = (Entrant.objects.filter(tournament=final).aggregate(top=Max("number"))["top"] or 0) + 1
    for number, entrant in enumerate(chosen, start=first):
        copy = Entrant.objects.create(
            tournament=final, user=entrant.user, number=number, team_name=entrant.team_name, rating=entrant.rating
        )
        if final.seating == Seating.TEAMS:
            TeamMember.objects.bulk_create(
                TeamMember(tournament=final, entrant=copy, user=member.user, position=member.position)
                for member in entrant.members.select_related("user")
            )
        _audit(final, AuditAction.QUALIFIED, subject=_subject(copy), details={"from": qualifier.pk})
    if final.starts_at <= timezone.now():
        tournament_start(tournament=final)
    _changed(final)


# --- standings -----------------------------------------------------------------------------------


def standings_compute(*, tournament: Tournament) -> list[pure.Standing]:
    """The standings from every finished pairing (tournaments.pairing.standings)."""
    ratings = dict(
        (f"e{number}", rating)
        for number, rating in Entrant.objects.filter(tournament=tournament).order_by("number").values_list("number", "rating")
    )
    return pure.standings(
        ratings, _results_by_round(tournament), order=_tiebreak_order(tournament), scoring=_scoring(tournament),
        forfeits_as_played=tournament.is_round_robin,
    )  # fmt: skip


def _standings_changed(tournament: Tournament) -> None:
    """A result changed: recompute the standings now in a small tournament; in a large one (where one
    computation takes a good part of a second) at most once every STANDINGS_DELAY seconds, by a task,
    so that a round's many results do not each pay for it inside their games' finalisation."""
    if Entrant.objects.filter(tournament=tournament).count() <= STANDINGS_AT_ONCE:
        standings_refresh(tournament=tournament)
        return
    if Tournament.objects.filter(pk=tournament.pk, standings_pending=False).update(standings_pending=True):
        _schedule("refresh_standings", (tournament.pk,), timezone.now() + STANDINGS_DELAY)


@transaction.atomic
def standings_refresh_pending(*, tournament: Tournament) -> bool:
    """The task's call: recompute the standings if a result is waiting for it; False if none was."""
    tournament = _locked(tournament)
    if not tournament.standings_pending:
        return False
    standings_refresh(tournament=tournament)
    _changed(tournament)
    return True


def standings_refresh(*, tournament: Tournament) -> list[pure.Standing]:
    """Recompute the standings and store them (StandingRow); the same results always give the same rows.
    Nothing is pending after it."""
    lines = standings_compute(tournament=tournament)
    Tournament.objects.filter(pk=tournament.pk, standings_pending=True).update(standings_pending=False)
    ids = dict(Entrant.objects.filter(tournament=tournament).values_list("number", "pk"))
    StandingRow.objects.filter(tournament=tournament).delete()
    StandingRow.objects.bulk_create(
        [
            StandingRow(tournament=tournament, entrant_id=ids[int(line.entrant[1:])], rank=line.rank, points=line.points,
                        tiebreaks=dict(line.tiebreaks))
            for line in lines
        ],
        batch_size=500,
    )  # fmt: skip
    return lines


# --- the schedule and the director's conduct of rounds ---------------------------------------------


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
    tournament = _locked(tournament)
    _require_director(by, tournament)
    reason = _require_reason(reason)
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
    tournament = _locked(tournament)
    _require_director(by, tournament)
    reason = _require_reason(reason)
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
    tournament = _locked(tournament)
    _require_director(by, tournament)
    reason = _require_reason(reason)
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


# --- adjudication --------------------------------------------------------------------------------


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
    tournament = _locked(pairing.tournament_id)
    _require_director(by, tournament)
    reason = _require_reason(reason)
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
    tournament = _locked(pairing.tournament_id)
    _require_director(by, tournament)
    reason = _require_reason(reason)
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
    tournament = _locked(pairing.tournament_id)
    _require_director(by, tournament)
    reason = _require_reason(reason)
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
    tournament = _locked(dispute.tournament_id)
    _require_director(by, tournament)
    resolution = _require_reason(resolution)
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


# --- simulations ---------------------------------------------------------------------------------


@transaction.atomic
def pairing_record_simulated(*, pairing: Pairing, games: Sequence[Sequence[Sequence[int]]]) -> Pairing:
    """Score a pairing from simulated games (``places`` of each, seats as scoring.game_seating gives them)
    without dealing them: manage.py simulate_tournament --fast. Real tournaments never call this."""
    tournament = _locked(pairing.tournament_id)
    pairing = Pairing.objects.select_for_update().select_related("round").get(pk=pairing.pk)
    if pairing.status != PairingStatus.WAITING:
        return pairing
    seats = list(pairing.seats.select_related("entrant__user").order_by("position"))
    outcomes = []
    for number, places in enumerate(games, start=1):
        seating = [position for position, _ in game_seating(len(seats), tournament.team_size, number)]
        outcome = game_outcome(places=places, seats=seating, positions=len(seats),
                               table=tournament.seating == Seating.TABLES, place_points=tournament.place_points)
        outcomes.append(outcome.as_json())
    _score_match(tournament, pairing, seats, outcomes, ResultKind.PLAYED)
    _standings_changed(tournament)
    _close_round_if_done(tournament, pairing.round)
    return pairing


# --- the sweep -------------------------------------------------------------------------------------


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
