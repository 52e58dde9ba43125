"""A tournament's rounds: its start, each round paired by the pure core (tournaments.pairing) and stored, its
games dealt as the entrants take their seats, the no-shows settled after the grace period, and the round
closed when every pairing is over, then the next one scheduled or the tournament finished (its final's
qualifiers entered). The bridge of STYLE.md 3: a round that cannot be paired pauses the tournament for its
director with the reason in the log; the schedule's own calls re-check state, so a late task does nothing."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Max, Prefetch
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import BotLevel, User
from games import services as game_services
from games.engine import Rules
from notices import services as notice_services
from tournaments import pairing as pure
from tournaments import selectors
from tournaments.models import (
    AuditAction, Entrant, EntrantStatus, Format, MatchGame, MatchGameStatus, NoShow, Pairing, PairingEntrant,
    PairingStatus, ResultKind, Round, RoundStatus, Seating, TeamMember, Tournament, TournamentStatus,
)
from tournaments.pairing.dutch import DutchOptions
from tournaments.pairing.dutch_explain import BoardReasons, avoidance_reasons, pair_dutch_reasons
from tournaments.pairing.round_robin import MAX_PLAYERS as ROUND_ROBIN_MOST
from tournaments.scoring import first_attacker_seat, forfeit_points, game_seating
from tournaments.services._common import (
    MIN_ENTRANTS, _audit, _changed, _locked, _require_director, _schedule, _subject,
)
from tournaments.services.avoidances import avoidance_keys, report_details
from tournaments.services.duplicate import board_deal, round_draw_deals, round_reveal
from tournaments.services.entrants import presence_absentees, presence_record_absent
from tournaments.services.explanations import explanations_json
from tournaments.services.register import _seeding_rating
from tournaments.services.standings import _results_by_round, _standings_changed, standings_refresh

SUBSTITUTE_LEVEL = BotLevel.MEDIUM


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


def _new_pairings(
    tournament: Tournament, number: int, entrants: list[Entrant], absentees: Sequence[str] = ()
) -> tuple[list[pure.Board], pure.AvoidanceReport, list[BoardReasons] | None]:
    """What the pure core pairs for round ``number``, what the requested avoidances did to it, and per board
    what decided it (None: a round robin); ``absentees`` (who did not check in) are left out. A heads-up Swiss
    is paired by the exact Dutch engine when ``settings.TOURNAMENT_DUTCH_PAIRING`` is on, which says why
    each board is so (``dutch_explain``), else by ``pairing.swiss``, whose boards only the avoidances explain."""
    if tournament.is_round_robin:
        order = sorted(entrants, key=lambda entrant: (-entrant.rating, entrant.number))
        cycle = pure.round_robin([entrant.key for entrant in order], double=tournament.format == Format.DOUBLE_ROUND_ROBIN)
        return cycle[number - 1], pure.AvoidanceReport(), None
    ratings = {entrant.key: entrant.rating for entrant in entrants}
    history = _results_by_round(tournament, upto=number - 1)
    gone = [entrant.key for entrant in entrants if not entrant.active]
    values = pure.entrants_after(ratings, history, withdrawn=gone)
    absent = [entrant.key for entrant in entrants if entrant.first_round > number] + list(absentees)
    avoid = avoidance_keys(tournament=tournament)
    if tournament.seating == Seating.TABLES:
        drawn, report = pure.seat_tables_explained(values, table_size=tournament.table_size, absent=absent, avoid=avoid)
    elif settings.TOURNAMENT_DUTCH_PAIRING:
        options = DutchOptions(last_round=number == tournament.rounds_planned)
        return pair_dutch_reasons(values, absent=absent, options=options, avoid=avoid)
    else:
        drawn, report = pure.pair_swiss_explained(values, absent=absent, avoid=avoid)
    return drawn, report, avoidance_reasons(drawn, report)


def _store_pairings(
    tournament: Tournament, round_: Round, drawn: Sequence[pure.Board], by_key: Mapping[str, Entrant],
    now: datetime.datetime, reasons: Sequence[BoardReasons] | None = None,
) -> list[Pairing]:
    """Write the drawn pairings, with what decided each (``reasons``, in the boards' order), and their seats
    (two bulk inserts); a bye is finished at once, scored a win."""
    boards: list[Pairing] = []
    explained = explanations_json(reasons, by_key) or [{} for _ in drawn]
    for board, (drawn_pairing, explanation) in enumerate(zip(drawn, explained, strict=True), start=1):
        pairing = Pairing(round=round_, tournament=tournament, board=board, bye=drawn_pairing.bye, explanation=explanation)
        if drawn_pairing.bye:
            pairing.status, pairing.result_kind, pairing.finished_at = PairingStatus.FINISHED, ResultKind.BYE, now
        boards.append(pairing)
    Pairing.objects.bulk_create(boards)
    PairingEntrant.objects.bulk_create(
        PairingEntrant(
            pairing=pairing, entrant=by_key[key], position=position,
            points=tournament.points_win if drawn_pairing.bye else None,
        )
        for pairing, drawn_pairing in zip(boards, drawn, strict=True)
        for position, key in enumerate(drawn_pairing.entrants)
    )  # fmt: skip
    return boards


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
    absentees = presence_absentees(tournament, number, entrants)
    try:
        drawn, avoided, reasons = _new_pairings(tournament, number, entrants, absentees)
    except pure.PairingError as error:
        tournament.paused = True
        tournament.save(update_fields=["paused"])
        _audit(tournament, AuditAction.PAUSED, round_number=number, reason=str(error))
        _changed(tournament)
        return round_
    by_key = {entrant.key: entrant for entrant in entrants}
    boards = _store_pairings(tournament, round_, drawn, by_key, now, reasons)
    round_.status = RoundStatus.PAIRED
    round_.paired_at = now
    round_.seat_deadline = now + datetime.timedelta(seconds=tournament.grace_seconds)
    round_.save(update_fields=["status", "paired_at", "seat_deadline"])
    round_draw_deals(tournament=tournament, round_=round_)
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    _audit(tournament, AuditAction.ROUND_PAIRED, actor=by, round_number=number, subject=f"{len(boards)}",
           details=report_details(avoided, by_key))  # fmt: skip
    presence_record_absent(tournament, number, absentees)
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
    dealt = (
        board_deal(tournament=tournament, pairing=pairing, number=number,
                   entrants=[by_position[position].entrant for position, _ in seating])
        if tournament.duplicate else None
    )  # fmt: skip
    first_attacker = dealt.first_attacker if dealt is not None else first_attacker_seat(number, len(players))
    game = game_services.game_start_reserved(
        owner=tournament.director, rules=Rules.from_dict(tournament.rules), players=[one for one in players if one],
        rated=tournament.rated,
        turn_seconds=tournament.turn_seconds, clock_base=tournament.clock_base,
        clock_increment=tournament.clock_increment,
        name=f"{tournament.name[:40]} · {round_number}.{pairing.board}" + (f" · {number}" if tournament.games_per_pairing > 1 else ""),
        first_attacker=first_attacker, deal_seed=dealt.seed if dealt else None,
        rotation=dealt.rotation if dealt else 0, deck_held=dealt is not None,
    )  # fmt: skip
    match_game = MatchGame.objects.create(
        pairing=pairing, number=number, game=game, seats=[position for position, _ in seating],
        first_attacker=first_attacker, deal=dealt.deal if dealt else "", rotation=dealt.rotation if dealt else None,
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
    if tournament.duplicate:
        # Every board has played the round's deals: their decks are shown, and the round's duplicate scores
        # (counted once a round is closed) enter the standings.
        round_reveal(tournament=tournament, round_=round_)
        standings_refresh(tournament=tournament)
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
