"""Readers of duplicate rounds (issue 37): who held each hand of a round's deals and how he did, the deals
shown only once their round is over, and the tournament export's deal ids and hands. Split from
tournaments.selectors, which imports `duplicate_export` for its export; both write points and names with
tournaments.labels."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine import Rules, deal
from games.engine.deal import deck_text
from tournaments.labels import entrant_label, number
from tournaments.models import Entrant, MatchGame, MatchGameStatus, Round, RoundStatus, Tournament
from tournaments.pairing import duplicate


def duplicate_export(
    tournament: Tournament,
) -> tuple[dict[tuple[int, int], list[dict[str, Any]]], dict[int, dict[str, dict[str, str]]]]:
    """A duplicate tournament's games by (round, board) and deals' commitments by round, for the export.

    Each game of a closed round: its number, deal id, the entrant and the hand of the deal at each seat (seat
    s holds hand (s + rotation) % players), each seat's place (0 the best) and cards left at the end, and its
    duplicate score, so that the scores can be recomputed from the file alone (a replayed board's deal is one
    of its own, "1.1.2/57", not among the round's deals: held by nobody else). A round being played shows
    only its deals' commitments."""
    held = duplicate_holdings(tournament=tournament)
    scores = duplicate.matchpoints([holding for _, _, holding in held])
    games: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    by_game: dict[int, dict[str, Any]] = {}
    for (match_game, seat, holding), score in zip(held, scores, strict=True):
        item = by_game.get(match_game.pk)
        if item is None:
            item = {"number": match_game.number, "deal": match_game.deal, "rotation": match_game.rotation,
                    "entrants": [], "hands": [], "places": [], "cards_left": [], "duplicate": []}  # fmt: skip
            by_game[match_game.pk] = item
            games[(match_game.pairing.round.number, match_game.pairing.board)].append(item)
        item["entrants"].append(holding.holder)
        item["hands"].append(holding.hand)
        item["places"].append(holding.place)
        item["cards_left"].append(holding.cards_left)
        item["duplicate"].append(number(float(score)))
        if seat == match_game.first_attacker:
            item["first"] = holding.holder  # the lead follows the hand, not the board
    deals = {
        round_number: {identifier: _deal_shown(tournament, identifier, value, closed=status == RoundStatus.CLOSED)
                       for identifier, value in sorted(round_deals.items())}
        for round_number, round_deals, status in Round.objects.filter(tournament=tournament).values_list(
            "number", "deals", "status")
    }  # fmt: skip
    return dict(games), deals


def _deal_shown(tournament: Tournament, identifier: str, value: Mapping[str, str], *, closed: bool) -> dict[str, str]:
    """A round's deal as it may be shown: its commitment; once the round is closed also the salt and the
    shuffle's order (as rotation 0 deals it), which the commitment can be checked against."""
    if not closed:
        return {"commitment": value["commitment"]}
    size = int(identifier.rsplit(".", 1)[1])
    order = deal(Rules.from_dict(tournament.rules), size, seed=value["seed"], salt=value["salt"]).order
    return {"commitment": value["commitment"], "salt": value["salt"], "deck": deck_text(order)}


# --- duplicate rounds (tournaments.pairing.duplicate) ---------------------------------------------


def _entrant_keys(match_game: MatchGame) -> list[str]:
    """The entrant key at each seat of a game (match_game.seats names each seat's pairing position)."""
    by_position = {seat.position: seat.entrant.key for seat in match_game.pairing.seats.all()}
    return [by_position[position] for position in match_game.seats]


def duplicate_holdings(*, tournament: Tournament, upto: int | None = None) -> list[tuple[MatchGame, int, duplicate.Holding]]:
    """Every finished game of a duplicate deal in the closed rounds 1..upto, one holding a seat: (game, seat,
    holding). A round being played counts nothing yet: how the other holders of a hand did says something
    of the hand to a player who still holds it."""
    games = (
        MatchGame.objects.filter(pairing__tournament=tournament, status=MatchGameStatus.FINISHED, finish__isnull=False,
                                 pairing__round__status=RoundStatus.CLOSED)
        .exclude(deal="")
        .select_related("pairing__round")
        .prefetch_related("pairing__seats__entrant")
        .order_by("pairing__round__number", "pairing__board", "number")
    )  # fmt: skip
    if upto is not None:
        games = games.filter(pairing__round__number__lte=upto)
    holdings = []
    for match_game in games:
        keys = _entrant_keys(match_game)
        players = len(match_game.seats)
        finish: dict[str, list[int]] = match_game.finish or {}
        for seat, key in enumerate(keys):
            holdings.append((match_game, seat, duplicate.Holding(
                deal=match_game.deal, hand=duplicate.hand_at(seat, match_game.rotation or 0, players), holder=key,
                place=int(finish["places"][seat]), cards_left=int(finish["cards"][seat]),
            )))  # fmt: skip
    return holdings



@dataclass(frozen=True)
class HandHolder:
    """One holder of a hand of a round's deal, as the round's page shows him."""

    entrant: Entrant
    name: str
    board: int
    seat: int
    place: int  # 1 the best
    cards_left: int
    score: float


@dataclass(frozen=True)
class DealLine:
    """A deal of a round with, per hand, how every holder did; ``commitment`` published at the pairing, the
    salt and the shuffle's order once the round is closed."""

    deal: str
    commitment: str
    hands: list[tuple[int, list[HandHolder]]]
    salt: str = ""  # with the deck, once the round is closed
    deck: str = ""
    board: int = 0  # a replayed board's number (its deal is its own, pure.replay_deal_id), else 0

    @property
    def game(self) -> int:
        """The game of each match the deal is played in (the id is round.game.players, a replay's
        round.game.players/game)."""
        return int(self.deal.split("/", 1)[0].split(".")[1])

    @property
    def players(self) -> int:
        return int(self.deal.split("/", 1)[0].split(".")[2])

    @property
    def replay(self) -> bool:
        """Whether this is a board a director ordered replayed on a fresh deck, scored alone (pure.ALONE)."""
        return "/" in self.deal


def round_deals(*, tournament: Tournament, round_: Round) -> list[DealLine]:
    """A duplicate round's deals, each with how every holder of each hand did (best first), then the boards a
    director ordered replayed, each on a deck of its own and scored alone (``DealLine.replay``). A round being
    played lists its deals' commitments only: how a hand fared elsewhere says something of it."""
    closed = round_.status == RoundStatus.CLOSED
    held = duplicate_holdings(tournament=tournament, upto=round_.number) if closed else []
    mine = [(match_game, seat, holding) for match_game, seat, holding in held
            if match_game.pairing.round.number == round_.number]  # fmt: skip
    scores = duplicate.matchpoints([holding for _, _, holding in held])
    score_of = {(match_game.pk, seat): score for (match_game, seat, _), score in zip(held, scores, strict=True)}
    entrants = {entrant.key: entrant for entrant in Entrant.objects.filter(tournament=tournament).select_related("user")}

    def hands_of(identifier: str) -> list[tuple[int, list[HandHolder]]]:
        by_hand: dict[int, list[HandHolder]] = defaultdict(list)
        for match_game, seat, holding in mine:
            if holding.deal != identifier:
                continue
            by_hand[holding.hand].append(HandHolder(
                entrant=entrants[holding.holder], name=entrant_label(entrants[holding.holder]),
                board=match_game.pairing.board, seat=seat + 1,
                place=holding.place + 1, cards_left=holding.cards_left,
                score=float(score_of[(match_game.pk, seat)]),
            ))  # fmt: skip
        return [
            (hand + 1, sorted(holders, key=lambda holder: (-holder.score, holder.board)))
            for hand, holders in sorted(by_hand.items())
        ]  # fmt: skip

    lines = []
    for identifier, value in sorted(round_.deals.items()):
        shown = _deal_shown(tournament, identifier, value, closed=closed)
        lines.append(DealLine(deal=identifier, commitment=value["commitment"], hands=hands_of(identifier),
                              salt=shown.get("salt", ""), deck=shown.get("deck", "")))  # fmt: skip
    # A replayed board's game was dealt a fresh deck under its own commitment (public from its start, as every
    # game's), its deck shown once the game is over; listed from the start too, its holders once the round is closed.
    replays = (
        MatchGame.objects.filter(pairing__round=round_, deal__contains="/")
        .select_related("game", "pairing").order_by("pairing__board", "number")
    )  # fmt: skip
    for match_game in replays:
        game = match_game.game
        deck = game.revealed_deck if closed and not game.deck_held else ""
        lines.append(DealLine(deal=match_game.deal, commitment=game.commitment, hands=hands_of(match_game.deal),
                              salt=game.salt if deck else "", deck=deck, board=match_game.pairing.board))  # fmt: skip
    return lines
