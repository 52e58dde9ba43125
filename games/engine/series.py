"""The epaulette ladder (RULES.md, Epaulettes, option ``epaulette_ladder``; seed 000): a series of games as a
pure value.

Each side (a player, or a team) hangs epaulettes of its own rank: 6 first, then 7, 8, 9, 10, J, K, A, and last
the queen of the suit chosen before the series, hung alone (queens are skipped on the way up). A game whose
result carries epaulettes moves the hanging side one rung up; the series ends when a side hangs its queen.
``Series`` is what a game of the series needs to know (each seat's epaulette rank, the queen, who was the
previous durak) and what a game record carries under ``series``; ``series_after_game`` is the next value.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .cards import QUEEN_RANK, RANKS, SUITS, card_name, parse_card, rank_of
from .errors import MalformedRecord
from .result import GameResult

# The rungs, as rank indices: 6 7 8 9 10 J K A, then Q.
LADDER: tuple[int, ...] = tuple(RANKS.index(name) for name in ("6", "7", "8", "9", "10", "J", "K", "A", "Q"))


@dataclass(frozen=True)
class Series:
    players: int
    sides: tuple[tuple[int, ...], ...]  # the seats of each side: every player alone, or the two teams
    steps: tuple[int, ...]              # each side's rung on LADDER
    queen: int                          # the queen chosen before the series (a card id)
    games: int = 0                      # games finished so far
    previous_durak: int | None = None   # the durak of the last game (next_game_first: under_fool)
    finished: bool = False
    winner: int | None = None           # the side that hung its queen

    def side_of(self, seat: int) -> int:
        for index, side in enumerate(self.sides):
            if seat in side:
                return index
        raise ValueError(f"seat {seat} is in no side")

    def rank_of_side(self, side: int) -> int:
        return LADDER[self.steps[side]]

    def ranks(self) -> list[int]:
        """Each seat's epaulette rank for the next game (a rank index; Q means the queen alone)."""
        return [self.rank_of_side(self.side_of(seat)) for seat in range(self.players)]

    def to_json(self) -> dict[str, Any]:
        return {
            "sides": [list(side) for side in self.sides],
            "ranks": [RANKS[self.rank_of_side(side)] for side in range(len(self.sides))],
            "queen": card_name(self.queen),
            "games": self.games,
            "previous_durak": self.previous_durak,
            "finished": self.finished,
            "winner": self.winner,
        }


def series_start(players: int, *, queen_suit: int, teams: tuple[tuple[int, ...], ...] | None = None) -> Series:
    """A new series: every side at 6, the queen of ``queen_suit`` (0..3 for S, C, D, H) to be hung last."""
    if not 0 <= queen_suit < 4:
        raise MalformedRecord(f"not a suit: {queen_suit}")
    sides = tuple(tuple(team) for team in teams) if teams else tuple((seat,) for seat in range(players))
    return Series(players=players, sides=sides, steps=(0,) * len(sides), queen=QUEEN_RANK * 4 + queen_suit)


def series_after_game(series: Series, result: GameResult | None) -> Series:
    """The series after a game with this ``result`` (the engine's ``state.result``): the side that hung
    epaulettes climbs one rung; hanging the queen ends the series."""
    if series.finished:
        raise MalformedRecord("the series is over: its queen has been hung")
    if result is None:
        raise MalformedRecord("the game is not over")
    after = replace(series, games=series.games + 1, previous_durak=result.durak)
    epaulettes = result.epaulettes
    if epaulettes is None:
        return after
    side = series.side_of(epaulettes.by)
    if series.rank_of_side(side) != RANKS.index(epaulettes.rank):
        raise MalformedRecord("the epaulettes were not of the hanging side's rank")
    if series.steps[side] == len(LADDER) - 1:
        return replace(after, finished=True, winner=side)
    steps = list(series.steps)
    steps[side] += 1
    return replace(after, steps=tuple(steps))


def series_from_json(data: object, players: int) -> Series:
    """A record's ``series``; MalformedRecord if its shape is wrong."""
    if not isinstance(data, dict):
        raise MalformedRecord("series must be an object")
    raw_sides = data.get("sides")
    if raw_sides is None:
        raw_sides = [[seat] for seat in range(players)]
    if not isinstance(raw_sides, list) or not all(isinstance(side, list) and side for side in raw_sides):
        raise MalformedRecord("series sides must be lists of seats")
    seats = [seat for side in raw_sides for seat in side]
    if any(isinstance(seat, bool) or not isinstance(seat, int) for seat in seats) or sorted(seats) != list(range(players)):
        raise MalformedRecord("series sides must hold every seat once")
    raw_ranks = data.get("ranks", ["6"] * len(raw_sides))
    if not isinstance(raw_ranks, list) or len(raw_ranks) != len(raw_sides):
        raise MalformedRecord("series ranks must name one rung for each side")
    steps = []
    for name in raw_ranks:
        if not isinstance(name, str) or name.upper() not in RANKS or RANKS.index(name.upper()) not in LADDER:
            raise MalformedRecord(f"not a rung of the epaulette ladder: {name!r}")
        steps.append(LADDER.index(RANKS.index(name.upper())))
    try:
        queen = parse_card(data.get("queen", "Q" + SUITS[0]))
    except ValueError as error:
        raise MalformedRecord(f"series queen: {error}") from None
    if rank_of(queen) != QUEEN_RANK:
        raise MalformedRecord(f"the series' queen must be a queen, not {card_name(queen)}")
    games = data.get("games", 0)
    previous = data.get("previous_durak")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise MalformedRecord("series games must be a whole number")
    if previous is not None and (isinstance(previous, bool) or not isinstance(previous, int) or not 0 <= previous < players):
        raise MalformedRecord("series previous_durak must be a seat")
    finished = bool(data.get("finished", False))
    winner = data.get("winner")
    if winner is not None and (isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < len(raw_sides)):
        raise MalformedRecord("series winner must be a side")
    return Series(
        players=players, sides=tuple(tuple(side) for side in raw_sides), steps=tuple(steps), queen=queen,
        games=games, previous_durak=previous, finished=finished, winner=winner,
    )
