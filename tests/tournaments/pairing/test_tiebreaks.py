"""Tie-breaks and standings against worked examples computed by hand (FIDE C.07, 2023, and ours).

Every expected value below is worked out in the comments beside it, not taken from the code.
Pure tests: no database, no Django settings needed.
"""

from __future__ import annotations

import pytest

from tournaments.pairing import (
    ROUND_ROBIN_ORDER,
    BoardResult,
    PairingInputError,
    Scoring,
    Standing,
    TieBreak,
    standings,
)


def game(
    first: str,
    second: str,
    points: tuple[float, float],
    *,
    durak_finishes: tuple[int, ...] = (),
    epaulettes_hung: tuple[int, ...] = (),
) -> BoardResult:
    """A played heads-up game, the first-named entrant attacking first."""
    return BoardResult(
        entrants=(first, second),
        points=points,
        first=first,
        durak_finishes=durak_finishes,
        epaulettes_hung=epaulettes_hung,
    )


def by_entrant(table: list[Standing]) -> dict[str, Standing]:
    return {standing.entrant: standing for standing in table}


# Six players, three rounds, every game played.
#   R1: A-D 1-0   B-E ½-½   C-F 0-1
#   R2: A-F ½-½   B-C 1-0   D-E 1-0
#   R3: A-C 1-0   B-D 0-1   E-F ½-½
# Points: A 2.5, B 1.5, C 0, D 2, E 1, F 2.
SIX = {"A": 2000, "B": 1900, "C": 1800, "D": 1700, "E": 1600, "F": 1500}
SIX_ROUNDS = [
    [game("A", "D", (1, 0)), game("B", "E", (0.5, 0.5)), game("C", "F", (0, 1))],
    [game("A", "F", (0.5, 0.5)), game("B", "C", (1, 0)), game("D", "E", (1, 0))],
    [game("A", "C", (1, 0)), game("B", "D", (0, 1)), game("E", "F", (0.5, 0.5))],
]


def test_all_played_worked_example() -> None:
    table = by_entrant(standings(SIX, SIX_ROUNDS))
    values = {entrant: standing.tiebreaks for entrant, standing in table.items()}
    # Buchholz (8.1): the sum of the opponents' points.
    #   A: D 2 + F 2 + C 0 = 4      B: E 1 + C 0 + D 2 = 3      C: F 2 + B 1.5 + A 2.5 = 6
    #   D: A 2.5 + E 1 + B 1.5 = 5  E: B 1.5 + D 2 + F 2 = 5.5  F: C 0 + A 2.5 + E 1 = 3.5
    assert {e: v["buchholz"] for e, v in values.items()} == {"A": 4, "B": 3, "C": 6, "D": 5, "E": 5.5, "F": 3.5}
    # Cut-1 (14.1) drops the lowest: A 4-0, B 3-0, C 6-1.5, D 5-1, E 5.5-1.5, F 3.5-0.
    assert {e: v["buchholz_cut1"] for e, v in values.items()} == {"A": 4, "B": 3, "C": 4.5, "D": 4, "E": 4, "F": 3.5}
    # Median-1 (14.3) drops the lowest and the highest: A 2, B 1, C 2, D 1.5, E 2, F 1.
    assert {e: v["median_buchholz"] for e, v in values.items()} == {"A": 2, "B": 1, "C": 2, "D": 1.5, "E": 2, "F": 1}
    # Sonneborn-Berger (9.1): opponent's points times the points scored against him.
    #   A: D 2x1 + F 2x½ + C 0x1 = 3       B: E 1x½ + C 0x1 + D 2x0 = 0.5     C: 0
    #   D: A 2.5x0 + E 1x1 + B 1.5x1 = 2.5  E: B 1.5x½ + D 2x0 + F 2x½ = 1.75  F: C 0x1 + A 2.5x½ + E 1x½ = 1.75
    assert {e: v["sonneborn_berger"] for e, v in values.items()} == {
        "A": 3,
        "B": 0.5,
        "C": 0,
        "D": 2.5,
        "E": 1.75,
        "F": 1.75,
    }
    # Progressive (7.5): running scores summed. A 1+1.5+2.5, B .5+1.5+1.5, C 0, D 0+1+2, E .5+.5+1, F 1+1.5+2.
    assert {e: v["progressive"] for e, v in values.items()} == {"A": 5, "B": 3.5, "C": 0, "D": 3, "E": 2, "F": 4.5}
    assert {e: v["wins"] for e, v in values.items()} == {"A": 2, "B": 1, "C": 0, "D": 2, "E": 0, "F": 1}
    # Average rating of opponents (10.1): A (1700+1500+1800)/3 = 1666.67 -> 1667; B (1600+1800+1700)/3 = 1700.
    assert values["A"]["average_rating_of_opponents"] == 1667
    assert values["B"]["average_rating_of_opponents"] == 1700
    # D and F are level on 2 points; Buchholz Cut-1 4 against 3.5 puts D ahead.
    order = [(s.rank, s.entrant, s.points) for s in standings(SIX, SIX_ROUNDS)]
    assert order == [(1, "A", 2.5), (2, "D", 2), (3, "F", 2), (4, "B", 1.5), (5, "E", 1), (6, "C", 0)]


# Five players, four rounds, with every kind of unplayed round (C.07 16).
#   R1: A-B 1-0   C-D 1-0   E pairing-allocated bye (1)
#   R2: A-C 1-0   B-E 0-1   D half-point bye (½, requested)
#   R3: B-C ½-½   E-D forfeit, E wins 1-0   A half-point bye (½)
#   R4: A-E 1-0   B pairing-allocated bye (1)   C absent   D absent (withdrew)
# Points: A 3.5, B 1.5, C 1.5, D 0.5, E 3.
FIVE = {"A": 2000, "B": 1900, "C": 1800, "D": 1700, "E": 1600}
FIVE_ROUNDS = [
    [game("A", "B", (1, 0)), game("C", "D", (1, 0)), BoardResult(entrants=("E",), points=(1,), bye=True)],
    [game("A", "C", (1, 0)), game("B", "E", (0, 1)), BoardResult(entrants=("D",), points=(0.5,))],
    [
        game("B", "C", (0.5, 0.5)),
        BoardResult(entrants=("E", "D"), points=(1, 0), forfeit=True),
        BoardResult(entrants=("A",), points=(0.5,)),
    ],
    [game("A", "E", (1, 0)), BoardResult(entrants=("B",), points=(1,), bye=True)],
]


def test_unplayed_rounds_worked_example() -> None:
    table = by_entrant(standings(FIVE, FIVE_ROUNDS))
    values = {entrant: standing.tiebreaks for entrant, standing in table.items()}
    assert {e: s.points for e, s in table.items()} == {"A": 3.5, "B": 1.5, "C": 1.5, "D": 0.5, "E": 3}
    # 16.3, scores as they enter an opponent's Buchholz:
    #   C was absent in R4, after his last round not voluntarily unplayed (R3): R4 counts as a draw,
    #   C = 1 + 0 + ½ + ½ = 2. D's last such round is R1; his half-point bye (R2) and absence (R4) count
    #   ½ each, his forfeit loss (R3, he had an opponent) stays 0: D = 0 + ½ + 0 + ½ = 1.
    #   A, B, E have no such rounds: 3.5, 1.5, 3.
    # 16.4, own unplayed rounds against a dummy with one's own points:
    #   A: B 1.5 + C 2 + [dummy 3.5, VUR] + E 3 = 10
    #   B: A 3.5 + E 3 + C 2 + [dummy 1.5, PAB] = 10
    #   C: D 1 + A 3.5 + B 1.5 + [dummy 1.5, VUR] = 7.5
    #   D: C 2 + [dummy 0.5, VUR] x 3 = 3.5
    #   E: [dummy 3, PAB] + B 1.5 + [dummy 3, forfeit win] + A 3.5 = 11
    assert {e: v["buchholz"] for e, v in values.items()} == {"A": 10, "B": 10, "C": 7.5, "D": 3.5, "E": 11}
    # Cut-1 cuts a voluntarily unplayed round first: A loses his 3.5 (not B's 1.5): 6.5. B cuts 1.5: 8.5.
    # C cuts his VUR 1.5: 6. D cuts a VUR 0.5: 3. E has no VUR and cuts 1.5: 9.5.
    assert {e: v["buchholz_cut1"] for e, v in values.items()} == {"A": 6.5, "B": 8.5, "C": 6, "D": 3, "E": 9.5}
    # Median-1: the VUR rule for the low cut, then the highest of the rest.
    #   A: cut 3.5 (VUR), then 3 -> 1.5 + 2 = 3.5.  B: cut 1.5 and 3.5 -> 5.  C: cut 1.5 (VUR), then 3.5 -> 2.5.
    #   D: cut 0.5 (VUR), then 2 -> 1.  E: cut 1.5 and 3.5 -> 6.
    assert {e: v["median_buchholz"] for e, v in values.items()} == {"A": 3.5, "B": 5, "C": 2.5, "D": 1, "E": 6}
    # Sonneborn-Berger with the same scores, a dummy round worth own points x points scored in it:
    #   A: 1.5x1 + 2x1 + 3.5x½ + 3x1 = 8.25       B: 0 + 0 + 2x½ + 1.5x1 = 2.5
    #   C: 1x1 + 0 + 1.5x½ + 1.5x0 = 1.75         D: 0 + 0.5x½ + 0 + 0 = 0.25
    #   E: 3x1 + 1.5x1 + 3x1 + 0 = 7.5
    assert {e: v["sonneborn_berger"] for e, v in values.items()} == {
        "A": 8.25,
        "B": 2.5,
        "C": 1.75,
        "D": 0.25,
        "E": 7.5,
    }
    # Progressive: A 1+2+2.5+3.5 = 9, B 0+0+.5+1.5 = 2, C 1+1+1.5+1.5 = 5, D 0+.5+.5+.5 = 1.5, E 1+2+3+3 = 9.
    assert {e: v["progressive"] for e, v in values.items()} == {"A": 9, "B": 2, "C": 5, "D": 1.5, "E": 9}
    # WIN (7.1) counts byes and forfeits that brought a win's points; WON (7.2) only games.
    assert {e: v["wins"] for e, v in values.items()} == {"A": 3, "B": 1, "C": 1, "D": 0, "E": 3}
    assert {e: v["games_won"] for e, v in values.items()} == {"A": 3, "B": 0, "C": 1, "D": 0, "E": 1}
    # ARO over games played: A (1900+1800+1600)/3 = 1766.67 -> 1767; D only C: 1800; E (1900+2000)/2.
    assert values["A"]["average_rating_of_opponents"] == 1767
    assert values["D"]["average_rating_of_opponents"] == 1800
    assert values["E"]["average_rating_of_opponents"] == 1950
    # B and C level on 1.5: Cut-1 8.5 against 6.
    assert [s.entrant for s in standings(FIVE, FIVE_ROUNDS)] == ["A", "E", "B", "C", "D"]


def test_direct_encounter_in_a_round_robin() -> None:
    # Four players, Berger rounds: 1-4 2-3 / 4-3 1-2 / 2-4 3-1 with A B C D as 1 2 3 4.
    #   A-D ½-½  B-C 1-0 / D-C 1-0  A-B 1-0 / B-D ½-½  C-A 1-0
    # Points: A 1.5, B 1.5, C 1, D 2. A and B are level; A beat B, so A is ahead (6.1).
    ratings = {"A": 1500, "B": 1500, "C": 1500, "D": 1500}
    rounds = [
        [game("A", "D", (0.5, 0.5)), game("B", "C", (1, 0))],
        [game("D", "C", (1, 0)), game("A", "B", (1, 0))],
        [game("B", "D", (0.5, 0.5)), game("C", "A", (1, 0))],
    ]
    table = standings(ratings, rounds, order=ROUND_ROBIN_ORDER)
    assert [(s.rank, s.entrant) for s in table] == [(1, "D"), (2, "A"), (3, "B"), (4, "C")]
    assert by_entrant(table)["A"].tiebreaks["direct_encounter"] == 1
    assert by_entrant(table)["B"].tiebreaks["direct_encounter"] == 0


def test_direct_encounter_cycle_stays_tied_and_ranks_are_shared() -> None:
    # A beats B, B beats C, C beats A, and all beat D: A, B, C on 2 points, 1 each among themselves,
    # 2 wins each, Sonneborn-Berger 2 each (the beaten rival's 2 points, D's 0): a shared first place.
    ratings = {"A": 1500, "B": 1500, "C": 1500, "D": 1500}
    rounds = [
        [game("A", "D", (1, 0)), game("B", "C", (1, 0))],
        [game("D", "C", (0, 1)), game("A", "B", (1, 0))],
        [game("B", "D", (1, 0)), game("C", "A", (1, 0))],
    ]
    table = standings(ratings, rounds, order=(TieBreak.DIRECT_ENCOUNTER, TieBreak.WINS, TieBreak.SONNEBORN_BERGER))
    assert [(s.rank, s.entrant) for s in table] == [(1, "A"), (1, "B"), (1, "C"), (4, "D")]


def test_direct_encounter_when_not_all_have_met() -> None:
    # X, Y, Z end on 2 points. X beat Y and Z; Y and Z never met. X's 2 is more than Y or Z could have
    # reached (0 + the 1 of their missing game), so X is ahead (6.2); Y and Z cannot be told apart.
    ratings = {"X": 1500, "Y": 1500, "Z": 1500, "P": 1500}
    rounds = [
        [game("X", "Y", (1, 0)), game("Z", "P", (1, 0))],
        [game("X", "Z", (1, 0)), game("Y", "P", (1, 0))],
        [BoardResult(entrants=("Y",), points=(1,), bye=True), BoardResult(entrants=("Z",), points=(1,))],
    ]
    table = standings(ratings, rounds, order=(TieBreak.DIRECT_ENCOUNTER,))
    assert [(s.rank, s.entrant) for s in table] == [(1, "X"), (2, "Y"), (2, "Z"), (4, "P")]
    # Now X beat Y, Z beat X, Y and Z never met; X takes a full-point bye in R3, Z is absent:
    #   X 1 + 0 + 1 = 2, Y 0 + 1 + 1 = 2, Z 1 + 1 + 0 = 2.
    # Among them X has 1 (nothing missing), Z 1 (could reach 2 against Y), Y 0 (could reach 1):
    # nobody's points exceed what every other could still have reached, so all three stay level.
    rounds = [
        [game("X", "Y", (1, 0)), game("Z", "P", (1, 0))],
        [game("Z", "X", (1, 0)), game("Y", "P", (1, 0))],
        [BoardResult(entrants=("Y",), points=(1,), bye=True), BoardResult(entrants=("X",), points=(1,))],
    ]
    table = standings(ratings, rounds, order=(TieBreak.DIRECT_ENCOUNTER,))
    assert {s.entrant: s.rank for s in table} == {"X": 1, "Y": 1, "Z": 1, "P": 4}


def test_tables_worked_example() -> None:
    # Six players at tables of three, places scored 2, 1, 0 (win 2, draw 1).
    #   R1: (A, B, C) 2 1 0   (D, E, F) 2 1 0
    #   R2: (A, D, E) 0 2 1   (B, C, F) 2 0 1
    # Points: A 2, B 3, C 0, D 4, E 2, F 1.
    ratings = {name: 1500 for name in "ABCDEF"}
    rounds = [
        [
            BoardResult(entrants=("A", "B", "C"), points=(2, 1, 0), first="A"),
            BoardResult(entrants=("D", "E", "F"), points=(2, 1, 0), first="D"),
        ],
        [
            BoardResult(entrants=("A", "D", "E"), points=(0, 2, 1), first="A"),
            BoardResult(entrants=("B", "C", "F"), points=(2, 0, 1), first="B"),
        ],
    ]
    table = by_entrant(standings(ratings, rounds, scoring=Scoring(win=2, draw=1)))
    values = {entrant: standing.tiebreaks for entrant, standing in table.items()}
    # Buchholz, the mean of the table opponents' points per round:
    #   A: (B 3 + C 0)/2 + (D 4 + E 2)/2 = 1.5 + 3 = 4.5    E: (D 4 + F 1)/2 + (A 2 + D 4)/2 = 2.5 + 3 = 5.5
    #   D: (E 2 + F 1)/2 + (A 2 + E 2)/2 = 1.5 + 2 = 3.5
    assert (values["A"]["buchholz"], values["E"]["buchholz"], values["D"]["buchholz"]) == (4.5, 5.5, 3.5)
    # Sonneborn-Berger, the mean of opponent's points x pairwise result (1 ahead, ½ level, 0 behind):
    #   A: (3x1 + 0x1)/2 + (4x0 + 2x0)/2 = 1.5   D: (2x1 + 1x1)/2 + (2x1 + 2x1)/2 = 3.5
    #   E: (4x0 + 1x1)/2 + (2x1 + 4x0)/2 = 1.5
    assert (values["A"]["sonneborn_berger"], values["D"]["sonneborn_berger"], values["E"]["sonneborn_berger"]) == (
        1.5,
        3.5,
        1.5,
    )
    # A table is won by scoring more than everyone else at it.
    assert {e: v["wins"] for e, v in values.items()} == {"A": 1, "B": 1, "C": 0, "D": 2, "E": 0, "F": 0}
    # A and E level on 2 points and on Cut-1 (A: 4.5 - 1.5 = 3, E: 5.5 - 2.5 = 3); Buchholz puts E ahead.
    assert (values["A"]["buchholz_cut1"], values["E"]["buchholz_cut1"]) == (3, 3)
    assert (table["E"].rank, table["A"].rank) == (3, 4)
    # E finished ahead of A at their one shared table: direct encounter 1 against 0.
    assert (values["E"]["direct_encounter"], values["A"]["direct_encounter"]) == (1, 0)


def test_durak_finishes_and_epaulettes() -> None:
    # Two players level on points; fewer durak finishes is better, epaulettes hung are counted.
    ratings = {"A": 1500, "B": 1500, "C": 1500, "D": 1500}
    rounds = [
        [
            game("A", "B", (1, 0), durak_finishes=(1, 2), epaulettes_hung=(1, 0)),
            game("C", "D", (1, 0), durak_finishes=(0, 3), epaulettes_hung=(2, 0)),
        ]
    ]
    table = standings(ratings, rounds, order=(TieBreak.DURAK_FINISHES,))
    values = {s.entrant: s.tiebreaks for s in table}
    assert [s.entrant for s in table] == ["C", "A", "B", "D"]
    assert (values["A"]["durak_finishes"], values["D"]["durak_finishes"]) == (1, 3)
    assert (values["A"]["epaulettes_hung"], values["C"]["epaulettes_hung"]) == (1, 2)
    table = standings(ratings, rounds, order=(TieBreak.EPAULETTES_HUNG,))
    assert [s.entrant for s in table][:2] == ["C", "A"]


def test_standing_as_dict_fills_the_simulation_json() -> None:
    first = standings(SIX, SIX_ROUNDS)[0].as_dict()
    assert set(first) == {"rank", "entrant", "points", "tiebreaks"}
    tiebreaks = first["tiebreaks"]
    assert isinstance(tiebreaks, dict)
    assert {"buchholz", "buchholz_cut1", "median_buchholz", "sonneborn_berger", "progressive", "wins"} <= set(tiebreaks)
    assert first == {
        "rank": 1,
        "entrant": "A",
        "points": 2.5,
        "tiebreaks": tiebreaks,
    }


def test_forfeits_as_played_counts_the_scheduled_opponent() -> None:
    ratings = {"A": 1500, "B": 1500}
    rounds = [[BoardResult(entrants=("A", "B"), points=(1, 0), forfeit=True)]]
    # Unplayed: dummy opponents with one's own points (A 1, B 0). Played: the opponent's points.
    unplayed = by_entrant(standings(ratings, rounds))
    played = by_entrant(standings(ratings, rounds, forfeits_as_played=True))
    assert (unplayed["A"].tiebreaks["buchholz"], unplayed["B"].tiebreaks["buchholz"]) == (1, 0)
    assert (played["A"].tiebreaks["buchholz"], played["B"].tiebreaks["buchholz"]) == (0, 1)


def test_results_naming_an_entrant_twice_in_a_round_are_refused() -> None:
    with pytest.raises(PairingInputError):
        standings({"A": 1, "B": 1, "C": 1}, [[game("A", "B", (1, 0)), game("A", "C", (1, 0))]])
    with pytest.raises(PairingInputError):
        standings({"A": 1}, [[game("A", "Z", (1, 0))]])
