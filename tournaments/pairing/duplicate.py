"""Duplicate rounds (issue 37): every board of a round plays the same deal, seats rotated, and each player is
scored against the others who held the same hand, as duplicate bridge's matchpoints.

A *deal* is one shuffle of a round (for a match of several games, one per game number; at tables of mixed
sizes, one per size). Its *hands* are numbered by the seat that holds them at rotation 0: at a board with
rotation r, seat s holds hand ``(s + r) % k`` (games.engine.deal.rotated_order builds that board's deck).

The rotation follows the seeds, not the board's position (``seeded_rotation``): going down a deal's boards,
each board's top seed holds hand 0, 1, ..., k-1 in turn, so that every hand is held by higher and lower seeds
alike, whichever seat the pairing gave them (docs/experiments.md). Heads-up, half the boards play the deal
with the seats swapped over an event, not in each round: a Dutch first round, whose seats already alternate
(C.04.3 E.5), swaps none.

The first attack follows the deal: the hand that leads is fixed for the deal, and each board seats its lead
at the seat holding that hand (``lead_seat``), so that it is the hand, not the board, that attacks first.

Matchpoints (the ACBL's "Duplicate Decisions", matchpoint scoring: one point for each result beaten, a
half for each tie, here as a share of the comparisons): a player's game is compared with every other
game of the round in which the same hand of the same deal was held. He beats another holder who finished
in a worse place, or in the same place with more cards left in his hand; equal place and cards is a tie.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournaments.pairing.model import EntrantId, PairingInputError

# A hand held by nobody else in the round (a lone board of its table size) is compared with nobody: it
# scores the middle, neither helping nor hurting its holder's total.
ALONE = Fraction(1, 2)

# The name of an entrant's duplicate total in the standings (tiebreaks.DUPLICATE), the export and the CSV.
DUPLICATE_TOTAL = "duplicate"


def seeded_rotation(board: int, top_seat: int, size: int) -> int:
    """The rotation of a deal's ``board``-th board (0 the first of the round's boards at tables of ``size``;
    2: heads-up) whose top seed sits at ``top_seat``: the one at which he holds hand ``board % size``."""
    if size < 2:
        raise PairingInputError(f"a deal needs at least two seats, not {size}")
    if not 0 <= top_seat < size:
        raise PairingInputError(f"seat {top_seat} is not at a table of {size}")
    return (board % size - top_seat) % size


def top_seat(seeds: Sequence[int]) -> int:
    """The seat of a board's top seed: ``seeds`` holds, seat by seat, each player's place in the initial order
    (1 the best: pairing numbers, from the seeding ratings)."""
    if not seeds:
        raise PairingInputError("a board needs its seats' seeds")
    return min(range(len(seeds)), key=seeds.__getitem__)


def hand_at(seat: int, rotation: int, size: int) -> int:
    """The hand of the deal that ``seat`` holds at a board with ``rotation``."""
    return (seat + rotation) % size


def seat_of_hand(hand: int, rotation: int, size: int) -> int:
    """The seat that holds ``hand`` at a board with ``rotation`` (the inverse of ``hand_at``)."""
    return (hand - rotation) % size


def lead_seat(lead_hand: int, rotation: int, size: int) -> int:
    """The seat that attacks first at a board with ``rotation`` when the deal's ``lead_hand`` leads."""
    return seat_of_hand(lead_hand, rotation, size)


def deal_id(round_number: int, game_number: int, size: int) -> str:
    """The id of a round's deal: round, game of the match, players at the table ("3.1.2")."""
    return f"{round_number}.{game_number}.{size}"


def replay_deal_id(deal: str, game: int) -> str:
    """The deal of a board replayed on a fresh shuffle (game ``game``, replacing a board of ``deal``): one of
    its own, held by nobody else, so that each of its hands scores ALONE ("1.1.2/57")."""
    return f"{deal.split('/', 1)[0]}/{game}"


@dataclass(frozen=True, slots=True)
class Holding:
    """One game of a duplicate deal from one seat: the deal, the hand held, who held it, and how he finished
    (``place`` 0 the best, players who share a place share its number; ``cards_left`` in his hand at the end)."""

    deal: str
    hand: int
    holder: EntrantId
    place: int
    cards_left: int


def places_of(groups: Sequence[Sequence[int]], seats: int) -> list[int]:
    """Each seat's place (0 the best) from the engine's places: groups of seats, best first."""
    place = [0] * seats
    for index, group in enumerate(groups):
        for seat in group:
            place[seat] = index
    return place


def _beats(mine: Holding, other: Holding) -> Fraction:
    """1 if ``mine`` did better than ``other``, 1/2 alike, 0 worse."""
    if mine.place != other.place:
        return Fraction(1) if mine.place < other.place else Fraction(0)
    if mine.cards_left != other.cards_left:
        return Fraction(1) if mine.cards_left < other.cards_left else Fraction(0)
    return Fraction(1, 2)


def matchpoints(holdings: Sequence[Holding]) -> list[Fraction]:
    """Each holding's duplicate score: the share of the other holders of the same hand of the same deal whom
    it did better than, ties counting half (ALONE when nobody else held the hand)."""
    by_hand: dict[tuple[str, int], list[int]] = defaultdict(list)
    for index, holding in enumerate(holdings):
        by_hand[(holding.deal, holding.hand)].append(index)
    scores: list[Fraction] = []
    for index, holding in enumerate(holdings):
        others = [holdings[other] for other in by_hand[(holding.deal, holding.hand)] if other != index]
        if not others:
            scores.append(ALONE)
            continue
        scores.append(sum((_beats(holding, other) for other in others), Fraction(0)) / len(others))
    return scores


def duplicate_totals(holdings: Sequence[Holding], entrants: Iterable[EntrantId] = ()) -> dict[EntrantId, Fraction]:
    """Each entrant's duplicate total: the sum of his games' matchpoints (0 for ``entrants`` without a game)."""
    totals: dict[EntrantId, Fraction] = {entrant: Fraction(0) for entrant in entrants}
    for holding, score in zip(holdings, matchpoints(holdings)):
        totals[holding.holder] = totals.get(holding.holder, Fraction(0)) + score
    return totals


def hands_held(holdings: Iterable[Holding]) -> Mapping[tuple[str, int], list[EntrantId]]:
    """Who held each hand of each deal, in the order given: the round page's and the tests' view of a deal."""
    held: dict[tuple[str, int], list[EntrantId]] = defaultdict(list)
    for holding in holdings:
        held[(holding.deal, holding.hand)].append(holding.holder)
    return held
