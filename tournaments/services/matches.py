"""A game of a pairing is over: game -> match -> standings -> round. The game's outcome is scored once for its
pairing (tournaments.scoring), the match's next game dealt or the match scored, the standings refreshed and
the round closed when it was the last; and a simulation's pairings scored without dealing their games."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from tournaments.models import (
    MatchGame, MatchGameStatus, Pairing, PairingEntrant, PairingStatus, ResultKind, Seating, Tournament,
)
from tournaments.scoring import GameOutcome, game_outcome, game_seating, match_points
from tournaments.services._common import _changed, _locked
from tournaments.services.duplicate import game_finish
from tournaments.services.rounds import _close_round_if_done, _pairing_seats, _start_next_game
from tournaments.services.standings import _standings_changed

if TYPE_CHECKING:
    from games.models import Result as GameResult


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
    if match_game.deal:
        match_game.finish = game_finish(match_game.game, result.places)
        match_game.save(update_fields=["finish"])
    _store_outcome(match_game, outcome)
    if tournament.analyse_games and not match_game.game.deck_held:  # a held deck's analysis waits (round_reveal)
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
