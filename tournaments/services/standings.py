"""The standings: every finished pairing's result loaded into the pure core's values, the tie-breaks computed
there (tournaments.pairing.standings) and stored as StandingRow, at once in a small tournament and a moment
later, by a task, in a large one."""

from __future__ import annotations

import dataclasses
import datetime
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from tournaments import pairing as pure
from tournaments.models import (
    DuplicateScoring, Entrant, MatchGame, PairingEntrant, PairingStatus, ResultKind, Round, RoundStatus, Seating, StandingRow, Tournament,
)
from tournaments.pairing.trf import TrfError, write_trf
from tournaments.pairing.trf import tournament_trf as tournament_trf_data
from tournaments.services._common import _changed, _locked, _schedule, _scoring, _tiebreak_order
from tournaments.services.duplicate import duplicate_totals

# Up to this many entrants the standings are recomputed with each result (tens of milliseconds); above,
# a task does it at most once every STANDINGS_DELAY (a second for 1,000 entrants after 7 rounds).
STANDINGS_AT_ONCE = 200
STANDINGS_DELAY = datetime.timedelta(seconds=2)


def _results_by_round(tournament: Tournament, *, upto: int | None = None) -> list[list[pure.BoardResult]]:
    """Every finished pairing's result as the pure core's values, one list a round 1..upto (default: the
    current round); an unfinished pairing is left out, so its entrants count as absent for now."""
    last = tournament.current_round if upto is None else upto
    rounds: list[list[pure.BoardResult]] = [[] for _ in range(last)]
    rows = (
        PairingEntrant.objects.filter(pairing__tournament=tournament, pairing__round__number__lte=last,
                                      pairing__status=PairingStatus.FINISHED)
        .order_by("pairing__round__number", "pairing__board", "position")
        .values("pairing_id", "points", "forfeited", "durak_finishes", "epaulettes_hung",
                round_number=F("pairing__round__number"), bye=F("pairing__bye"), kind=F("pairing__result_kind"),
                entrant_number=F("entrant__number"))
    )  # fmt: skip
    by_pairing: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        by_pairing[row["pairing_id"]].append(row)
    leads = _duplicate_leads(tournament, last) if tournament.duplicate else {}
    for pairing_id, seats in by_pairing.items():
        results = _pure_results(seats, bye=seats[0]["bye"], kind=seats[0]["kind"])
        if pairing_id in leads and results and results[0].first is not None:
            results[0] = dataclasses.replace(results[0], first=f"e{seats[leads[pairing_id]]['entrant_number']}")
        rounds[seats[0]["round_number"] - 1].extend(results)
    return rounds


def _duplicate_leads(tournament: Tournament, last: int) -> dict[int, int]:
    """A duplicate round's lead follows the hand, not the board: the pairing position that attacked first
    in each pairing's first game, for the first-attack history (tournaments.pairing.first_attack)."""
    first_games = MatchGame.objects.filter(pairing__tournament=tournament, pairing__round__number__lte=last, number=1)
    return {
        pairing_id: int(seats[first_attacker])
        for pairing_id, seats, first_attacker in first_games.values_list("pairing_id", "seats", "first_attacker")
    }


def _pure_results(seats: list[Mapping[str, Any]], *, bye: bool, kind: str) -> list[pure.BoardResult]:
    """One pairing's seats (_results_by_round's rows, by position) as the pure core's results."""
    keys = [f"e{seat['entrant_number']}" for seat in seats]
    points = [float(seat["points"] or 0.0) for seat in seats]
    if bye:
        return [pure.BoardResult(entrants=(keys[0],), points=(points[0],), bye=True)]
    forfeited = [bool(seat["forfeited"]) for seat in seats]
    played = [index for index, gone in enumerate(forfeited) if not gone]
    if kind == ResultKind.FORFEIT and (len(played) < 2 or len(seats) == 2):
        return [pure.BoardResult(entrants=tuple(keys), points=tuple(points), forfeit=True)]
    # A table where some did not come: the others played; each absentee had a zero-point unplayed round.
    results = [
        pure.BoardResult(
            entrants=tuple(keys[index] for index in played), points=tuple(points[index] for index in played),
            first=keys[played[0]], durak_finishes=tuple(seats[index]["durak_finishes"] for index in played),
            epaulettes_hung=tuple(seats[index]["epaulettes_hung"] for index in played),
        )
    ]  # fmt: skip
    results += [pure.BoardResult(entrants=(keys[index],), points=(0.0,)) for index, gone in enumerate(forfeited) if gone]
    return results


def standings_compute(*, tournament: Tournament) -> list[pure.Standing]:
    """The standings from every finished pairing (tournaments.pairing.standings)."""
    ratings = dict(
        (f"e{number}", rating)
        for number, rating in Entrant.objects.filter(tournament=tournament).order_by("number").values_list("number", "rating")
    )
    return pure.standings(
        ratings, _results_by_round(tournament), order=_tiebreak_order(tournament), scoring=_scoring(tournament),
        forfeits_as_played=tournament.is_round_robin,
        duplicate=duplicate_totals(tournament=tournament) if tournament.duplicate else None,
        by_duplicate=tournament.duplicate_scoring == DuplicateScoring.TOTAL,
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


def tournament_trf(*, tournament: Tournament) -> str:
    """A heads-up tournament's closed rounds as FIDE's Tournament Report File (tournaments.pairing.trf), for
    ``manage.py export_trf`` and the tournament's download. A round still being played is left out (its boards
    are not all scored), and then the ranks are by points rather than the standings' tie-breaks. TrfError when
    the tournament seats tables, which a TRF cannot hold."""
    if tournament.seating == Seating.TABLES:
        raise TrfError("a TRF holds heads-up pairings only; this tournament seats tables")
    closed = Round.objects.filter(tournament=tournament, status=RoundStatus.CLOSED).aggregate(last=Max("number"))
    entrants = list(Entrant.objects.filter(tournament=tournament).select_related("user").order_by("number"))
    last = closed["last"] or 0
    # The standings' ranks count every scored board: used when no round is being played, else points order.
    ranks = (
        {standing.entrant: standing.rank for standing in standings_compute(tournament=tournament)}
        if last == tournament.current_round else None
    )  # fmt: skip
    return write_trf(
        tournament_trf_data(
            tournament.name, {entrant.key: entrant.rating for entrant in entrants},
            _results_by_round(tournament, upto=last),
            names={entrant.key: entrant.team_name or entrant.user.public_name for entrant in entrants},
            ranks=ranks, planned_rounds=tournament.rounds_planned,
        )
    )  # fmt: skip
