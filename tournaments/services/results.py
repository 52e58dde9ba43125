"""The director's results: a board's outcome chosen by a click (first wins, second wins, a draw, a forfeit
either way, a double forfeit; at a table the places), and a game still being played stopped and decided
(awarded, drawn, or replayed with a fresh deal).

A board's outcome is a thin wrapper over ``pairing_set_result`` and ``pairing_forfeit``: the outcome is turned
into the points those services take, so their checks (the director, the reason, the version the director
looked at) and their audit entries (the result before and after) are the same. A game stopped and decided is
finalised as a game (games.decisions), rated by its pool and scored as played; a replayed one counts only by
its replacement. A board's result set without a game changes no rating; a forfeit annuls its games' ratings
(the rule and why: docs/architecture.md, "Tournaments").

Locks: as everywhere, game first, then tournament, then the pairing (games.services.game_finalise takes the
tournament's lock after the game's through the tournaments hook).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import decisions
from games import services as game_services
from games.engine import Rules
from games.models import Game, GameStatus, Seat
from games.models import Result as GameResult
from tournaments.models import (
    AuditAction, Entrant, MatchGame, MatchGameStatus, Pairing, PairingEntrant, Seating, Tournament,
)
from tournaments.pairing import duplicate
from tournaments.scoring import first_attacker_seat, points_by_place
from tournaments.services._common import _audit, _changed, _locked, _require_director, _require_reason, _scoring, _subject
from tournaments.services.direction import _check_version, pairing_forfeit, pairing_set_result

FIRST, SECOND, DRAW = "first", "second", "draw"
FORFEIT_FIRST, FORFEIT_SECOND, DOUBLE_FORFEIT = "forfeit_first", "forfeit_second", "double_forfeit"
PLACES = "places"
OUTCOMES = (FIRST, SECOND, DRAW, FORFEIT_FIRST, FORFEIT_SECOND, DOUBLE_FORFEIT, PLACES)
TABLE_OUTCOMES = (PLACES, DOUBLE_FORFEIT)

AWARD, REPLAY = "award", "replay"
GAME_DECISIONS = (AWARD, DRAW, REPLAY)


def place_groups(places: Mapping[int, int]) -> list[list[int]]:
    """Positions grouped by the place each was given (1 best), best first; equal places share a group."""
    by_place: dict[int, list[int]] = {}
    for position, place in places.items():
        by_place.setdefault(int(place), []).append(int(position))
    return [sorted(by_place[place]) for place in sorted(by_place)]


def _checked_places(places: Mapping[int, int] | None, positions: Sequence[int]) -> dict[int, int]:
    """Each of ``positions`` with a place from 1 to their number, no other position named."""
    given = {int(position): int(place) for position, place in (places or {}).items()}
    if sorted(given) != sorted(positions) or any(not 1 <= place <= len(positions) for place in given.values()):
        raise ValidationError(_("Give every player of the table a place, from 1 (the best) to the last."))
    return given


def table_points(tournament: Tournament, places: Mapping[int, int], size: int) -> list[float]:
    """A table's match points for places chosen by the director: each game of the match scored as if every
    game had ended in these places (points by place, shared places sharing their points)."""
    by_place = points_by_place(size, tournament.place_points)
    points = [Fraction(0)] * size
    rank = 0
    for group in place_groups(places):
        share = sum(by_place[rank : rank + len(group)], Fraction(0)) / len(group)
        for position in group:
            points[position] = share * tournament.games_per_pairing
        rank += len(group)
    return [float(value) for value in points]


def pairing_decide(
    *,
    pairing: Pairing,
    outcome: str,
    by: User,
    reason: str,
    seen_version: int | None,
    places: Mapping[int, int] | None = None,
) -> Pairing:
    """Set a board's result from the outcome the director clicked (OUTCOMES; `places` maps each position of
    a table to its place, 1 the best). Heads-up and teams: first or second wins the match, a draw, a forfeit
    by the first or the second, or both. Tables: the places, or a double forfeit (everyone)."""
    tournament = Tournament.objects.get(pk=pairing.tournament_id)
    _require_director(by, tournament)
    seats = list(PairingEntrant.objects.filter(pairing=pairing).select_related("entrant").order_by("position"))
    table = tournament.seating == Seating.TABLES
    if outcome not in (TABLE_OUTCOMES if table else OUTCOMES[:-1]) or pairing.bye:
        raise ValidationError(_("Choose one of the outcomes offered for this board."))
    entrants: list[Entrant] = [seat.entrant for seat in seats]
    if outcome == DOUBLE_FORFEIT:
        return pairing_forfeit(pairing=pairing, forfeiting=entrants, by=by, reason=reason, seen_version=seen_version)
    if outcome in (FORFEIT_FIRST, FORFEIT_SECOND):
        gone = entrants[0] if outcome == FORFEIT_FIRST else entrants[1]
        return pairing_forfeit(pairing=pairing, forfeiting=[gone], by=by, reason=reason, seen_version=seen_version)
    if outcome == PLACES:
        given = _checked_places(places, [seat.position for seat in seats])
        points = table_points(tournament, given, len(seats))
    else:
        scoring = _scoring(tournament)
        points = {FIRST: [scoring.win, 0.0], SECOND: [0.0, scoring.win], DRAW: [scoring.draw, scoring.draw]}[outcome]
    return pairing_set_result(pairing=pairing, points=points, by=by, reason=reason, seen_version=seen_version)


def outcome_points(tournament: Tournament, pairing: Pairing, outcome: str) -> list[float]:
    """The points a heads-up outcome records, seat by seat (what the confirmation shows)."""
    scoring = _scoring(tournament)
    table = {
        FIRST: [scoring.win, 0.0], SECOND: [0.0, scoring.win], DRAW: [scoring.draw, scoring.draw],
        FORFEIT_FIRST: [0.0, scoring.win], FORFEIT_SECOND: [scoring.win, 0.0], DOUBLE_FORFEIT: [0.0, 0.0],
    }  # fmt: skip
    return table[outcome]


def _game_groups(match_game: MatchGame, decision: str, winner: int | None, places: Mapping[int, int] | None,
                 table: bool) -> list[list[int]] | None:  # fmt: skip
    """The game's places (groups of seats, best first) for a decision taken over pairing positions."""
    positions = sorted(set(match_game.seats))
    seats_of = {position: [seat for seat, at in enumerate(match_game.seats) if at == position] for position in positions}
    if decision == REPLAY:
        return None
    if decision == DRAW:
        if table:
            raise ValidationError(_("A game at a table is decided by its places, not as a draw."))
        return None
    if table:
        given = _checked_places(places, positions)
        if len(place_groups(given)) < 2:
            raise ValidationError(_("Somebody must finish last: a table's game is not decided with one place for all."))
        return [[seat for position in group for seat in seats_of[position]] for group in place_groups(given)]
    if winner not in positions:
        raise ValidationError(_("Choose the side the game is awarded to."))
    return [seats_of[winner], [seat for position in positions if position != winner for seat in seats_of[position]]]


@transaction.atomic
def match_game_decide(
    *,
    match_game: MatchGame,
    decision: str,
    by: User,
    reason: str,
    seen_version: int | None,
    winner: int | None = None,
    places: Mapping[int, int] | None = None,
    seen_seq: int | None = None,
) -> MatchGame:
    """Stop a game of the tournament still being played and decide it: award it to the side at pairing
    position `winner` (a table: `places`, position -> place), score it a draw (heads-up, teams), or order it
    replayed with a fresh deal (the same players in the same seats, under a new commitment). Every reader of
    the game is told at once (games.decisions); the standings, the round and the ratings follow as after any
    game; the log has it with the reason. `seen_version`: the pairing's version the director decided on;
    `seen_seq`: the game's version, when the caller knows it."""
    if decision not in GAME_DECISIONS:
        raise ValidationError(_("Choose what to do with the game: award it, a draw, or a replay."))
    pairing = Pairing.objects.select_related("round").get(pk=match_game.pairing_id)
    tournament = Tournament.objects.get(pk=pairing.tournament_id)
    _require_director(by, tournament)
    reason = _require_reason(reason)
    match_game = MatchGame.objects.get(pk=match_game.pk)
    table = tournament.seating == Seating.TABLES
    groups = _game_groups(match_game, decision, winner, places, table)
    # The game's row first, then the tournament's (the order game_finalise keeps).
    game = game_services._locked_game(match_game.game_id)
    tournament = _locked(tournament.pk)
    locked_pairing = Pairing.objects.select_for_update().get(pk=pairing.pk)
    _check_version(locked_pairing, seen_version)
    match_game = MatchGame.objects.select_for_update().select_related("game").get(pk=match_game.pk)
    if match_game.status != MatchGameStatus.PLAYING or game.status != GameStatus.PLAYING:
        raise ValidationError(_("This game has just ended: its result stands. Look at the board again."))
    game, result = _game_decided(game.pk, decision, groups, reason, seen_seq)
    replaced_by = None
    if decision == REPLAY:
        replaced_by = _replay(tournament, match_game)
        decisions.game_replaced(game=game, new_game=replaced_by.game)
    else:
        MatchGame.objects.filter(pk=match_game.pk).update(overridden=True)
    decisions.announce(game)
    match_game.refresh_from_db()
    _audit(
        tournament, AuditAction.GAME_DECIDED, actor=by, round_number=pairing.round.number,
        subject=f"{pairing.round.number}.{pairing.board} #{match_game.number} " + " – ".join(
            _subject(seat.entrant) for seat in pairing.seats.select_related("entrant__user").order_by("position")
        ), reason=reason,
        details={
            "game": game.pk, "decision": decision, "places": result.places if decision != REPLAY else None,
            "before": None, "after": match_game.outcome["points"] if decision != REPLAY and match_game.outcome else None,
            "replayed_by": replaced_by.game_id if replaced_by is not None else None,
        },
    )  # fmt: skip
    _changed(tournament)
    return replaced_by if replaced_by is not None else match_game


def _game_decided(
    game_id: int, decision: str, groups: Sequence[Sequence[int]] | None, reason: str, seen_seq: int | None
) -> tuple[Game, GameResult]:
    """games.decisions.game_decide for the director's ``decision``, its refusals in the director's words."""
    kind = {AWARD: decisions.AWARD, DRAW: decisions.DRAW, REPLAY: decisions.REPLAY}[decision]
    try:
        return decisions.game_decide(game_id=game_id, kind=kind, places=groups, reason=reason, seq=seen_seq)
    except game_services.GameActionError as error:
        if error.code == "stale":
            raise ValidationError(_("The game has moved on since you looked at it: look at it again before you decide.")) from None
        if error.code == "finished":
            raise ValidationError(_("This game has just ended: its result stands. Look at the board again.")) from None
        raise ValidationError(error.message) from None


def _replay(tournament: Tournament, match_game: MatchGame) -> MatchGame:
    """Deal the game again with the same players in the same seats (a fresh deal, a new commitment); the
    match's game is the new one from now on.

    In a duplicate round the replay is dealt a fresh deck too, not the round's: its players have seen their
    hands and part of the others', so the round's cards again would not be the contest the other boards
    played. It becomes a deal of its own (pure.replay_deal_id), compared with nobody, so that each of its hands
    scores the middle (pure.ALONE), as duplicate bridge gives a board that could not be played an average.
    The stopped game held the round's deck: it stays held until the round ends (round_reveal finds it by
    the round's deals)."""
    old = match_game.game
    players = [
        seat.user for seat in Seat.objects.filter(table_id=old.table_id, number__lt=old.players)
        .select_related("user").order_by("number")
    ]  # fmt: skip
    if any(player is None for player in players):
        raise ValidationError(_("A seat of this game is empty: it cannot be dealt again."))
    table = old.table
    first_attacker = first_attacker_seat(match_game.number, len(players))
    new_game = game_services.game_start_reserved(
        owner=tournament.director, rules=Rules.from_dict(old.rules),
        players=[player for player in players if player is not None], rated=table.rated,
        turn_seconds=table.turn_seconds, clock_base=table.clock_base, clock_increment=table.clock_increment,
        name=table.name, first_attacker=first_attacker,
    )  # fmt: skip
    changed: dict[str, object] = {"game": new_game, "first_attacker": first_attacker}
    if match_game.deal:
        changed |= {"deal": duplicate.replay_deal_id(match_game.deal, new_game.pk), "rotation": 0}
    MatchGame.objects.filter(pk=match_game.pk).update(**changed)
    return MatchGame.objects.select_related("game").get(pk=match_game.pk)
