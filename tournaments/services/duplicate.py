"""Duplicate rounds (issue 37), the Django side of tournaments.pairing.duplicate: a round's deals drawn and
committed when it is paired, each board's game dealt from its deal at its rotation with the lead following
the hand, the decks held back until the round is over, and the duplicate scores read from the games.

A round's deals are one shuffle per game of the match and per table size (Round.deals, keyed by the deal
id). Each is committed when the round is paired (SHA-256 of its salt and the shuffle's order, public from
then on); each board's game also commits, as every game does, to its deck as that board was dealt it.
While a board of the round still plays, a finished board's deck, record and replay stay hidden
(games.models.Game.deck_held); the round's close reveals them all (``round_reveal``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games import services as game_services
from games.engine import Rules, deal
from games.models import Game, GameStatus
from games.snapshots import state_of
from tournaments.models import Entrant, MatchGame, Pairing, Round, Seating, Tournament
from tournaments.pairing import duplicate as pure
from tournaments.duplicate_selectors import duplicate_holdings
from tournaments.scoring import first_attacker_seat


@dataclass(frozen=True, slots=True)
class BoardDeal:
    """How one game of a board is dealt: the deal's id and secret seed, the board's rotation, the lead seat."""

    deal: str
    seed: str
    rotation: int
    first_attacker: int


def _new_deal(rules: Rules, players: int) -> dict[str, str]:
    seed, salt = secrets.token_hex(16), secrets.token_hex(16)
    return {"seed": seed, "salt": salt, "commitment": deal(rules, players, seed=seed, salt=salt).commitment}


def _board_sizes(round_: Round) -> list[int]:
    """The number of entrants at each board that plays (no bye), in board order."""
    pairings = Pairing.objects.filter(round=round_, bye=False).order_by("board").prefetch_related("seats")
    return [len(pairing.seats.all()) for pairing in pairings]


def round_draw_deals(*, tournament: Tournament, round_: Round) -> None:
    """Draw and commit the round's deals as it is paired: one a game of the match and a table size."""
    if not tournament.duplicate:
        return
    rules = Rules.from_dict(tournament.rules)
    deals: dict[str, Any] = dict(round_.deals)
    for size in sorted(set(_board_sizes(round_))):
        for number in range(1, tournament.games_per_pairing + 1):
            deals.setdefault(pure.deal_id(round_.number, number, size), _new_deal(rules, size))
    round_.deals = deals
    round_.save(update_fields=["deals"])


def board_deal(*, tournament: Tournament, pairing: Pairing, number: int, entrants: Sequence[Entrant]) -> BoardDeal:
    """Game ``number`` of ``pairing`` with ``entrants`` seated (seat by seat): its deal (drawn now if the round
    has none of that size, e.g. a table a forfeit left shorter), its rotation (the board's top seed, by seeding
    rating then entrant number, holds the hand of the board's place among the round's boards of that size,
    pure.seeded_rotation) and the seat holding the hand that leads."""
    players = len(entrants)
    round_ = Round.objects.select_for_update().get(pk=pairing.round_id)
    identifier = pure.deal_id(round_.number, number, players)
    if identifier not in round_.deals:
        round_.deals = {**round_.deals, identifier: _new_deal(Rules.from_dict(tournament.rules), players)}
        round_.save(update_fields=["deals"])
    same_size = [
        board.pk for board in Pairing.objects.filter(round=round_, bye=False).order_by("board").prefetch_related("seats")
        if len(board.seats.all()) == players
    ]  # fmt: skip
    index = same_size.index(pairing.pk) if pairing.pk in same_size else pairing.board - 1
    keys = [(-entrant.rating, entrant.number) for entrant in entrants]
    order = sorted(keys)
    rotation = pure.seeded_rotation(index, pure.top_seat([order.index(key) + 1 for key in keys]), players)
    lead_hand = first_attacker_seat(number, players)
    return BoardDeal(
        deal=identifier, seed=round_.deals[identifier]["seed"], rotation=rotation,
        first_attacker=pure.lead_seat(lead_hand, rotation, players),
    )  # fmt: skip


def game_finish(game: Game, places: Sequence[Sequence[int]]) -> dict[str, list[int]]:
    """A finished game's places (0 the best) and the cards left in each hand, per seat (MatchGame.finish)."""
    state = state_of(game)
    return {
        "places": pure.places_of(places, game.players),
        "cards": [hand.bit_count() for hand in state.hands[: game.players]],
    }


def round_reveal(*, tournament: Tournament, round_: Round) -> int:
    """The round is over: every deck its boards held back is revealed, a replayed board's stopped game's too
    (and, when the tournament analyses its games, their analyses queued now that their records are open; a
    stopped game is not analysed). Returns how many games were held."""
    ids = list(
        MatchGame.objects.filter(pairing__round=round_, game__deck_held=True).values_list("game_id", flat=True)
    )
    # A game a director ordered replayed is no longer its match's game, but it held the round's deck too.
    seeds = [value["seed"] for value in round_.deals.values()]
    replaced = list(Game.objects.filter(deck_held=True, seed__in=seeds).exclude(pk__in=ids).values_list("pk", flat=True))
    revealed = game_services.games_reveal(game_ids=ids + replaced)
    if tournament.analyse_games and ids:
        from review.services import analysis_request_automatic  # review imports tournaments

        for game_id in Game.objects.filter(pk__in=ids, status=GameStatus.FINISHED).values_list("pk", flat=True):
            analysis_request_automatic(game_id=game_id)
    return revealed


def duplicate_totals(*, tournament: Tournament, upto: int | None = None) -> dict[str, Fraction]:
    """Each entrant's duplicate total over the finished games of rounds 1..upto (every entrant listed)."""
    if not tournament.duplicate:
        return {}
    keys = [f"e{number}" for number in tournament.entrants.values_list("number", flat=True)]
    return pure.duplicate_totals([holding for _, _, holding in duplicate_holdings(tournament=tournament, upto=upto)], keys)


def duplicate_applies(tournament: Tournament) -> bool:
    """Whether the tournament's seating can play duplicate deals: heads-up players or tables, not teams."""
    return tournament.seating in (Seating.HEADS_UP, Seating.TABLES) and tournament.team_size <= 1
