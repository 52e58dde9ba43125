"""Reads the tournament pages need: lists, standings, rounds with their pairings and games, the crosstable,
an entrant's games, the audit log, the CSV and JSON exports. Each runs a fixed number of queries, however
many entrants and rounds (bench/pairing.py's standings_queries_1000 counts them for 1,000 entrants).
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, Prefetch, Q
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from tournaments.duplicate_selectors import duplicate_export
from tournaments.labels import entrant_label, number
from tournaments.models import (
    AuditEntry, Dispute, DisputeStatus, Entrant, EntrantStatus, MatchGame, Pairing, PairingEntrant,
    PairingStatus, ResultKind, Round, RoundStatus, Seating, StandingRow, TeamMember, Tournament, TournamentStatus,
)
from tournaments.pairing import duplicate

AUDIT_PAGE = 200
PAST_TOURNAMENTS = 50


# --- lists ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PastTournament:
    tournament: Tournament
    winners: list[str]


@dataclass(frozen=True)
class TournamentLists:
    open: Sequence[Tournament]
    running: Sequence[Tournament]
    past: Sequence[PastTournament]


def tournament_lists() -> TournamentLists:
    """Upcoming (open for registration), running, and past tournaments with their winners; the entrants
    still in are counted (annotated ``entrant_count``). Four queries."""
    counted = Tournament.objects.annotate(
        entrant_count=Count("entrants", filter=Q(entrants__status=EntrantStatus.ACTIVE))
    ).select_related("rating_pool", "director")
    upcoming = list(counted.filter(status=TournamentStatus.REGISTRATION).order_by("starts_at", "pk"))
    running = list(counted.filter(status=TournamentStatus.RUNNING).order_by("started", "pk"))
    past = list(
        counted.filter(status__in=[TournamentStatus.FINISHED, TournamentStatus.CANCELLED]).order_by("-finished", "-pk")[
            :PAST_TOURNAMENTS
        ]
    )
    winners: dict[int, list[str]] = defaultdict(list)
    for row in StandingRow.objects.filter(
        tournament__in=[event.pk for event in past if event.status == TournamentStatus.FINISHED], rank=1
    ).select_related("entrant__user").order_by("entrant__number"):
        winners[row.tournament_id].append(entrant_label(row.entrant))
    return TournamentLists(
        open=upcoming, running=running, past=[PastTournament(event, winners.get(event.pk, [])) for event in past]
    )


def registration_open(tournament: Tournament, *, now: Any = None) -> bool:
    now = now or timezone.now()
    return (
        tournament.status == TournamentStatus.REGISTRATION and tournament.qualifier_id is None
        and tournament.registration_opens <= now <= tournament.registration_closes
    )  # fmt: skip


# --- standings -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingLine:
    """A line of the standings, with what the page shows already written out (a page of a thousand lines
    renders in a fraction of the time when the template only prints)."""

    rank: int
    entrant: Entrant
    points: float
    tiebreaks: dict[str, float]
    members: list[User]
    name: str = ""
    href: str = ""
    shown_points: str = ""
    shown_tiebreaks: tuple[str, ...] = ()
    shown_members: str = ""


def shown(value: float | None) -> str:
    """Points as the pages write them: 1 and 6.5, a dash for none."""
    written = number(value)
    return "–" if written is None else str(written)


def _line(
    tournament: Tournament, rank: int, entrant: Entrant, points: float, tiebreaks: dict[str, float],
    members: list[User], entrant_href: str,
) -> StandingLine:
    return StandingLine(
        rank=rank, entrant=entrant, points=points, tiebreaks=tiebreaks, members=members,
        name=entrant_label(entrant), href=entrant_href.replace("/0/", f"/{entrant.number}/"),
        shown_points=shown(points), shown_tiebreaks=tuple(shown(tiebreaks.get(name)) for name in tournament.tiebreaks),
        shown_members=", ".join(member.public_name for member in members),
    )  # fmt: skip


def _members_by_entrant(tournament: Tournament) -> dict[int, list[User]]:
    if tournament.seating != Seating.TEAMS:
        return {}
    members: dict[int, list[User]] = defaultdict(list)
    for member in TeamMember.objects.filter(tournament=tournament).select_related("user").order_by("entrant", "position"):
        members[member.entrant_id].append(member.user)
    return members


def standings(*, tournament: Tournament) -> list[StandingLine]:
    """The stored standings, best first (3 queries; 2 without teams). Before the first result every
    entrant is listed by number at rank 1."""
    rows = list(
        StandingRow.objects.filter(tournament=tournament).select_related("entrant__user").order_by("rank", "entrant__number")
    )
    members = _members_by_entrant(tournament)
    href = reverse("tournaments:entrant", args=[tournament.pk, 0])
    if not rows:
        entrants = Entrant.objects.filter(tournament=tournament).select_related("user").order_by("number")
        return [_line(tournament, 1, entrant, 0.0, {}, members.get(entrant.pk, []), href) for entrant in entrants]
    return [
        _line(tournament, row.rank, row.entrant, row.points, dict(row.tiebreaks), members.get(row.entrant_id, []), href)
        for row in rows
    ]


def standings_csv(*, tournament: Tournament) -> str:
    """The standings as CSV: rank, entrant id, name, rating, points, then (a duplicate tournament) the
    duplicate total and each tie-break of the tournament's order."""
    lines = standings(tournament=tournament)
    order = list(tournament.tiebreaks)
    if tournament.duplicate:
        order.insert(0, duplicate.DUPLICATE_TOTAL)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["rank", "entrant", "name", "rating", "status", "points", *order])
    for line in lines:
        writer.writerow([
            line.rank, line.entrant.key, line.name, round(line.entrant.rating), line.entrant.status,
            number(line.points), *(number(line.tiebreaks.get(name)) for name in order),
        ])  # fmt: skip
    return buffer.getvalue()


# --- rounds and pairings -------------------------------------------------------------------------


@dataclass
class SeatLine:
    entrant: Entrant
    position: int
    points: float | None
    game_points: float
    forfeited: bool
    substituted: bool
    checked_in: bool

    @property
    def name(self) -> str:
        return entrant_label(self.entrant)


@dataclass
class PairingLine:
    pairing: Pairing
    seats: list[SeatLine]
    games: list[MatchGame]

    @property
    def playing_game(self) -> MatchGame | None:
        return next((game for game in self.games if game.status == "playing"), None)


def _pairing_lines(pairings: Sequence[Pairing]) -> list[PairingLine]:
    lines = []
    for pairing in pairings:
        seats = [
            SeatLine(seat.entrant, seat.position, seat.points, seat.game_points, seat.forfeited, seat.substituted,
                     seat.checked_in is not None)
            for seat in pairing.seats.all()
        ]  # fmt: skip
        lines.append(PairingLine(pairing, seats, list(pairing.games.all())))
    return lines


def _pairings_query(*, explained: bool = False) -> Any:
    """Pairings with their round, seats and games; their ``explanation`` only when ``explained`` (the director's
    round page: the other pages never show it)."""
    query = Pairing.objects.select_related("round")
    if not explained:
        query = query.defer("explanation")
    return query.prefetch_related(
        Prefetch("seats", queryset=PairingEntrant.objects.select_related("entrant__user").order_by("position")),
        # Only ids and status: a game's record is its own page's business.
        Prefetch("games", queryset=MatchGame.objects.only("pk", "pairing_id", "number", "game_id", "status", "seats",
                                                          "overridden").order_by("number")),
    )


def rounds(*, tournament: Tournament) -> list[Round]:
    return list(Round.objects.filter(tournament=tournament).order_by("number"))


def round_pairings(
    *, tournament: Tournament, number: int, limit: int | None = None, explained: bool = False
) -> list[PairingLine]:
    """A round's pairings in board order (the first ``limit``), with their seats and games (3 queries); with
    what decided each board when ``explained``."""
    pairings = _pairings_query(explained=explained).filter(tournament=tournament, round__number=number).order_by("board")
    return _pairing_lines(list(pairings[:limit] if limit is not None else pairings))


def round_size(*, tournament: Tournament, number: int) -> int:
    return Pairing.objects.filter(tournament=tournament, round__number=number).count()


def current_round(*, tournament: Tournament) -> Round | None:
    return Round.objects.filter(tournament=tournament, number=tournament.current_round).first()


def upcoming_round(*, tournament: Tournament) -> Round | None:
    return Round.objects.filter(
        tournament=tournament, number=tournament.current_round + 1, status=RoundStatus.SCHEDULED
    ).first()


@dataclass
class MyPairing:
    """The reader's pairing in the current round: what he has to do now."""

    line: PairingLine
    mine: SeatLine


def my_pairing(*, tournament: Tournament, user: User | None) -> MyPairing | None:
    """The reader's pairing of the current round (as a player or a team member), if he plays in it."""
    if user is None or not user.is_authenticated or tournament.current_round == 0:
        return None
    entrant = Entrant.objects.filter(Q(user=user) | Q(members__user=user), tournament=tournament).first()
    if entrant is None:
        return None
    pairing = _pairings_query().filter(
        tournament=tournament, round__number=tournament.current_round, seats__entrant=entrant
    ).first()
    if pairing is None:
        return None
    line = _pairing_lines([pairing])[0]
    mine = next(seat for seat in line.seats if seat.entrant.pk == entrant.pk)
    return MyPairing(line=line, mine=mine)


def my_entrant(*, tournament: Tournament, user: User | None) -> Entrant | None:
    if user is None or not user.is_authenticated:
        return None
    return Entrant.objects.filter(Q(user=user) | Q(members__user=user), tournament=tournament).first()


def asked_to_join(*, entrant: Entrant | None, user: User | None) -> bool:
    """Whether `user` is a partner the team's captain named and who has not answered yet (services.team_accept)."""
    if entrant is None or user is None or entrant.status != EntrantStatus.PENDING:
        return False
    return entrant.members.filter(user=user, accepted=False).exists()


# --- the crosstable ------------------------------------------------------------------------------


@dataclass
class CrossCell:
    round_number: int
    opponents: list[str]  # entrant ids ("e4"), several at a table
    points: float | None
    bye: bool = False
    forfeit: bool = False
    first: bool = False  # he attacked first in the pairing's first game


@dataclass
class CrossRow:
    line: StandingLine
    cells: list[CrossCell | None]


def crosstable(*, tournament: Tournament) -> list[CrossRow]:
    """Per entrant (in standings order) and round: opponents, his points, bye or forfeit (4 queries)."""
    lines = standings(tournament=tournament)
    seats = (
        PairingEntrant.objects.filter(pairing__tournament=tournament)
        .values("pairing_id", "entrant_id", "position", "points", round_number=F("pairing__round__number"),
                bye=F("pairing__bye"), kind=F("pairing__result_kind"), entrant_number=F("entrant__number"))
        .order_by("pairing_id", "position")
    )  # fmt: skip
    by_pairing: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for row in seats:
        by_pairing[row["pairing_id"]].append(row)
    cells: dict[int, dict[int, CrossCell]] = defaultdict(dict)
    for members in by_pairing.values():
        for seat in members:
            cells[seat["entrant_id"]][seat["round_number"]] = CrossCell(
                round_number=seat["round_number"],
                opponents=[f"e{other['entrant_number']}" for other in members if other is not seat],
                points=seat["points"], bye=seat["bye"], forfeit=seat["kind"] == ResultKind.FORFEIT,
                first=seat["position"] == 0 and not seat["bye"],
            )  # fmt: skip
    count = max((round_number for row in cells.values() for round_number in row), default=0)
    return [
        CrossRow(line, [cells[line.entrant.pk].get(number) for number in range(1, count + 1)]) for line in lines
    ]


# --- an entrant ----------------------------------------------------------------------------------


def entrant_pairings(*, entrant: Entrant) -> list[PairingLine]:
    """Every pairing of an entrant, round by round, with the games and their records."""
    pairings = _pairings_query().filter(seats__entrant=entrant).order_by("round__number")
    return _pairing_lines(list(pairings))


def user_tournament_games(*, user: User, limit: int = 10) -> list[tuple[Tournament, PairingLine, SeatLine]]:
    """For a player's profile: his pairings in running tournaments' current rounds, the waiting first."""
    entrants = list(
        Entrant.objects.filter(Q(user=user) | Q(members__user=user), tournament__status=TournamentStatus.RUNNING)
        .select_related("tournament").distinct()[:limit]
    )  # fmt: skip
    found = []
    for entrant in entrants:
        event = entrant.tournament
        pairing = _pairings_query().filter(
            tournament=event, round__number=event.current_round, seats__entrant=entrant
        ).first()
        if pairing is None or pairing.status == PairingStatus.FINISHED:
            continue
        line = _pairing_lines([pairing])[0]
        found.append((event, line, next(seat for seat in line.seats if seat.entrant.pk == entrant.pk)))
    return found


# --- the log and disputes ------------------------------------------------------------------------


def audit_log(*, tournament: Tournament, limit: int = AUDIT_PAGE) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(tournament=tournament).select_related("actor").order_by("-at", "-pk")[:limit])


def open_disputes(*, tournament: Tournament) -> list[Dispute]:
    return list(
        Dispute.objects.filter(tournament=tournament, status=DisputeStatus.OPEN)
        .select_related("pairing__round", "filed_by").order_by("created")
    )  # fmt: skip


# --- the export ----------------------------------------------------------------------------------


def tournament_export(*, tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as DESIGN.md's "Tournament simulation output": entrants, every round's
    pairings with their points, the standings with every tie-break (5 queries). A duplicate tournament adds
    ``duplicate`` (its scoring), each round's ``deals`` (deal id -> its commitment, and once the round is
    closed its salt and deck) and, for a closed round, each pairing's ``games`` with their deal and hands; its
    standings carry the ``duplicate`` total."""
    entrants = list(Entrant.objects.filter(tournament=tournament).select_related("user").order_by("number"))
    listed = []
    for entrant in entrants:
        item: dict[str, Any] = {"id": entrant.key, "name": entrant_label(entrant), "rating": round(entrant.rating)}
        if entrant.status != EntrantStatus.ACTIVE and entrant.left_after_round is not None:
            item["withdrawn_after"] = entrant.left_after_round
        listed.append(item)
    seats = (
        PairingEntrant.objects.filter(pairing__tournament=tournament)
        .values("points", "forfeited", round_number=F("pairing__round__number"), board=F("pairing__board"),
                bye=F("pairing__bye"), kind=F("pairing__result_kind"), status=F("pairing__status"),
                entrant_number=F("entrant__number"))
        .order_by("pairing__round__number", "pairing__board", "position")
    )  # fmt: skip
    boards: dict[int, dict[int, list[Mapping[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for seat in seats:
        boards[seat["round_number"]][seat["board"]].append(seat)
    games, deals = duplicate_export(tournament) if tournament.duplicate else ({}, {})
    exported_rounds = []
    for round_number in sorted(boards):
        pairings = []
        for board in sorted(boards[round_number]):
            members = boards[round_number][board]
            first_seat = members[0]
            item = {"entrants": [f"e{seat['entrant_number']}" for seat in members]}
            if first_seat["bye"]:
                item["bye"] = True
            elif first_seat["kind"] == ResultKind.FORFEIT and (
                len(members) == 2 or sum(not seat["forfeited"] for seat in members) < 2
            ):
                item["forfeit"] = True
            else:
                item["first"] = item["entrants"][0]
                absent = [f"e{seat['entrant_number']}" for seat in members if seat["forfeited"]]
                if absent:
                    item["absent"] = absent
            finished = first_seat["status"] == PairingStatus.FINISHED
            item["points"] = [number(seat["points"]) for seat in members] if finished else None
            if tournament.duplicate and (round_number, board) in games:
                item["games"] = games[(round_number, board)]
                if "first" in item and "first" in item["games"][0]:
                    item["first"] = item["games"][0]["first"]  # the hand leads, not the board
            pairings.append(item)
        exported = {"number": round_number, "pairings": pairings}
        if tournament.duplicate:
            exported["deals"] = deals.get(round_number, {})
        exported_rounds.append(exported)
    lines = [
        {"rank": row.rank, "entrant": row.entrant.key, "points": number(row.points),
         "tiebreaks": {name: number(value) for name, value in row.tiebreaks.items()}}
        for row in StandingRow.objects.filter(tournament=tournament).select_related("entrant").order_by("rank", "entrant__number")
    ]  # fmt: skip
    exported_tournament = {
        "format": tournament.format,
        "seating": tournament.seating,
        "rounds_planned": tournament.rounds_planned,
        "entrants": listed,
        "rounds": exported_rounds,
        "standings": lines,
    }
    if tournament.duplicate:
        exported_tournament["duplicate"] = {"scoring": tournament.duplicate_scoring}
    return exported_tournament


# --- a round's boards for its notices (notices.services) ------------------------------------------


@dataclass(frozen=True)
class NoticeSeat:
    """An entrant on a board, as the notices need it: who plays for him (his people, bots left out), the
    name to call him by (a team's name, else his account's, looked up in the reader's language), whether
    he has taken his seat or forfeited."""

    entrant_id: int
    name_user_id: int
    team_name: str
    people: tuple[int, ...]
    checked_in: bool
    forfeited: bool


@dataclass(frozen=True)
class NoticeBoard:
    pairing_id: int
    board: int
    bye: bool
    waiting: bool  # nobody has started playing it
    finished: bool  # its result is in (a bye, a forfeit, the games played)
    seats: tuple[NoticeSeat, ...]


@dataclass(frozen=True)
class NoticeRound:
    tournament_id: int
    tournament_name: str
    director_id: int | None
    paused: bool
    running: bool
    number: int
    paired: bool  # paired and not over
    paired_at: Any
    seat_deadline: Any
    boards: tuple[NoticeBoard, ...]


def round_for_notices(*, round_id: int) -> NoticeRound | None:
    """A round's boards with their entrants and people: four queries however many boards."""
    round_ = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if round_ is None:
        return None
    tournament = round_.tournament
    seats = list(
        PairingEntrant.objects.filter(pairing__round=round_).select_related("entrant__user", "pairing")
        .order_by("pairing__board", "position")
    )  # fmt: skip
    members: dict[int, list[User]] = defaultdict(list)
    if tournament.seating == Seating.TEAMS:
        entrant_ids = {seat.entrant_id for seat in seats}
        for member in TeamMember.objects.filter(entrant_id__in=entrant_ids).select_related("user").order_by("position"):
            members[member.entrant_id].append(member.user)
    by_board: dict[int, list[PairingEntrant]] = defaultdict(list)
    for seat in seats:
        by_board[seat.pairing_id].append(seat)
    boards = []
    for pairing_seats in by_board.values():
        pairing = pairing_seats[0].pairing
        boards.append(NoticeBoard(
            pairing_id=pairing.pk, board=pairing.board, bye=pairing.bye, waiting=pairing.status == PairingStatus.WAITING,
            finished=pairing.status == PairingStatus.FINISHED,
            seats=tuple(
                NoticeSeat(
                    entrant_id=seat.entrant_id, name_user_id=seat.entrant.user_id, team_name=seat.entrant.team_name,
                    people=tuple(user.pk for user in (members.get(seat.entrant_id) or [seat.entrant.user]) if not user.is_bot),
                    checked_in=seat.checked_in is not None, forfeited=seat.forfeited,
                )
                for seat in pairing_seats
            ),
        ))  # fmt: skip
    return NoticeRound(
        tournament_id=tournament.pk, tournament_name=tournament.name, director_id=tournament.director_id,
        paused=tournament.paused, running=tournament.status == TournamentStatus.RUNNING, number=round_.number,
        paired=round_.status == RoundStatus.PAIRED, paired_at=round_.paired_at, seat_deadline=round_.seat_deadline,
        boards=tuple(sorted(boards, key=lambda board: board.board)),
    )  # fmt: skip
