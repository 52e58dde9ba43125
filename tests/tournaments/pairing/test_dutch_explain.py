"""What decided each board of a Dutch round (``tournaments.pairing.dutch_explain``): hand-made fields whose reasons
are known, and random tournaments whose every board must be explained consistently with how it was paired.

Pure tests: no database, no Django settings needed.
"""

from __future__ import annotations

import random

from tests.tournaments.pairing.simulate import play
from tests.tournaments.pairing.test_dutch import _field
from tournaments.pairing import BoardResult, Side, avoidances, entrants_after
from tournaments.pairing.dutch import DutchOptions, pair_dutch, pair_dutch_explained
from tournaments.pairing.dutch_explain import BoardReasons, Fact, avoidance_reasons, pair_dutch_reasons

F, S = Side.FIRST, Side.SECOND


def _by_board(reasons: list[BoardReasons]) -> dict[frozenset[str], BoardReasons]:
    return {frozenset(board.entrants): board for board in reasons}


def _facts(reasons: list[BoardReasons], *entrants: str) -> list[tuple[str, str | None, str | None]]:
    """A board's facts as (code, who, other)."""
    return [(fact.code, fact.who, fact.other) for fact in _by_board(reasons)[frozenset(entrants)].facts]


def test_odd_brackets_downfloater_is_told_and_paired_first_below() -> None:
    """Three players on 1 point: p3, the last, floats (A.4, C.5) to the 0-point bracket, where as its MDP (S1) he
    meets S2's first, p4, who floats up; the remainder p5-p8 is paired S1 v S2 in order (B.3)."""
    field = _field({1: 1.0, 2: 1.0, 3: 1.0, 4: 0.0, 5: 0.0, 6: 0.0, 7: 0.0, 8: 0.0})
    boards, _, reasons = pair_dutch_reasons(field)
    assert [board.entrants for board in boards] == [board.entrants for board in pair_dutch(field)]
    assert [board.entrants for board in reasons] == [board.entrants for board in boards]
    floater = _by_board(reasons)[frozenset(("p3", "p4"))]
    assert floater.bracket == 0.0
    assert [(f.code, f.who, f.value) for f in floater.facts[:4]] == [
        ("bracket_mdp", None, 0.0), ("float_odd", "p3", 1.0), ("upfloat", "p4", 0.0), ("first_candidate", "p3", None),
    ]  # fmt: skip
    assert floater.facts[3].place == floater.facts[3].to == 1
    assert _facts(reasons, "p5", "p7")[:2] == [("bracket_remainder", None, None), ("first_candidate", "p5", "p7")]
    assert _facts(reasons, "p1", "p2")[0] == ("bracket", None, None)
    assert not any(code.startswith("float") for code, _, _ in _facts(reasons, "p1", "p2"))


def test_a_colour_preference_that_cannot_be_met_names_who_and_the_rule() -> None:
    """p1 and p2 both strongly want to attack first (each attacked second once): the pair is forced, E.4 grants
    the higher-ranked p1, so p2's strong preference is unmet (C.10, C.11); the same below for the second side."""
    field = _field(
        {1: 1.0, 2: 1.0, 3: 0.0, 4: 0.0}, met=((1, 3), (2, 4)), sides={1: (S,), 2: (S,), 3: (F,), 4: (F,)}
    )
    boards, _, reasons = pair_dutch_reasons(field)
    assert [board.entrants for board in boards] == [("p1", "p2"), ("p4", "p3")]
    assert _facts(reasons, "p1", "p2") == [
        ("bracket", None, None), ("first_candidate", "p1", "p2"), ("c11", "p2", None), ("E.4", "p1", "p2"),
    ]  # fmt: skip
    assert ("c11", "p4", None) in _facts(reasons, "p3", "p4")
    assert _by_board(reasons)[frozenset(("p1", "p2"))].facts[2].article == "C.04.3 C.10, C.11"


def test_a_colour_criterion_moves_the_first_candidate() -> None:
    """S1 = p1 p2, S2 = p3 p4: p1 and p3 both want to attack first, p2 and p4 second. The first candidate p1-p3,
    p2-p4 leaves two preferences unmet, the transposition p1-p4, p2-p3 none: C.10 ruled p3 out for p1."""
    field = _field(
        {1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0, 5: 0.0, 6: 0.0, 7: 0.0, 8: 0.0},
        met=((1, 5), (2, 6), (3, 7), (4, 8)),
        sides={1: (S,), 2: (F,), 3: (S,), 4: (F,), 5: (F,), 6: (S,), 7: (F,), 8: (S,)},
    )
    _, _, reasons = pair_dutch_reasons(field)
    facts = _by_board(reasons)[frozenset(("p1", "p4"))].facts
    transposed = next(fact for fact in facts if fact.code == "transposed")
    assert (transposed.who, transposed.place, transposed.to) == ("p1", 1, 2)
    refused = facts[facts.index(transposed) + 1]
    assert refused == Fact("default_worse", who="p1", other="p3", criterion="C.10")
    assert refused.article == "C.04.3 C.10"
    assert not any(fact.code in ("c10", "c11") for fact in facts)


def test_a_rematch_bar_forces_the_transposition_and_says_so() -> None:
    """C.04.3 D.1: p1 has met p5, S2's first, so S2 becomes 6 5 7 8; p2's first candidate p6 went to p1."""
    field = _field(dict.fromkeys(range(1, 9), 1.0), met=((1, 5),))
    _, _, reasons = pair_dutch_reasons(field)
    assert _facts(reasons, "p1", "p6")[1:3] == [("transposed", "p1", "p6"), ("barred_rematch", "p1", "p5")]
    assert _facts(reasons, "p2", "p5")[1:3] == [("transposed", "p2", "p5"), ("default_elsewhere", "p2", "p6")]
    assert _facts(reasons, "p3", "p7")[1] == ("first_candidate", "p3", "p7")


def test_an_avoidance_moves_the_board_and_is_named() -> None:
    field = _field(dict.fromkeys(range(1, 9), 1.0))
    boards, report, reasons = pair_dutch_reasons(field, avoid=avoidances([("p1", "p5")]))
    assert (boards, report) == pair_dutch_explained(field, avoid=avoidances([("p1", "p5")]))
    first = _facts(reasons, "p1", "p6")
    assert ("barred_avoid", "p1", "p5") in first and ("avoid_kept", "p1", "p5") in first
    assert ("avoid_kept", "p5", "p1") in _facts(reasons, "p2", "p5")
    assert not any(code.startswith("avoid") for code, _, _ in _facts(reasons, "p3", "p7"))


def test_floats_for_want_of_a_partner_and_for_completion() -> None:
    """p1 and p2 (1 point) have met: neither has a partner in his bracket (C.1). p3 and p4 (0) have met: p1
    and p2 could pair but float so that the round can be completed (C.4)."""
    _, _, reasons = pair_dutch_reasons(_field({1: 1.0, 2: 1.0, 3: 0.0, 4: 0.0, 5: 0.0, 6: 0.0}, met=((1, 2),)))
    assert ("float_no_partner", "p1", None) in _facts(reasons, "p1", "p3")
    _, _, reasons = pair_dutch_reasons(_field({1: 1.0, 2: 1.0, 3: 0.0, 4: 0.0}, met=((3, 4),)))
    assert ("float_completion", "p1", None) in _facts(reasons, "p1", "p3")
    assert ("float_completion", "p2", None) in _facts(reasons, "p2", "p4")


def test_the_bye_says_why_it_is_not_lower() -> None:
    """p5, the only player on 0, had a bye already (C.2): the bye goes to a 1-point player, who floats so that
    the round can be completed."""
    _, _, reasons = pair_dutch_reasons(_field({1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0, 5: 0.0}, byes={5: 1}))
    bye = reasons[-1]
    assert bye.codes() == ["bye", "float_completion", "bye_c2"]
    assert bye.facts[0].value == bye.facts[1].value == 1.0
    assert bye.facts[2] == Fact("bye_c2", who=bye.entrants[0], value=1.0)


def test_round_one_is_the_first_candidate_everywhere() -> None:
    field = _field(dict.fromkeys(range(1, 6), 0.0))
    field = [entrant.__class__(id=entrant.id, rating=entrant.rating) for entrant in field]
    boards, _, reasons = pair_dutch_reasons(field)
    assert [board.entrants for board in boards] == [("p1", "p3"), ("p4", "p2"), ("p5",)]
    assert _facts(reasons, "p1", "p3") == [("bracket", None, None), ("first_candidate", "p1", "p3"), ("E.5", "p1", "p3")]
    assert [fact.code for fact in reasons[-1].facts] == ["bye"]


def test_random_tournaments_every_board_is_explained_as_it_was_paired() -> None:
    """Every round of random tournaments: the boards are pair_dutch's; every board names its bracket, its order
    and exactly one rule of E; a board of two scores has its upfloat and a downfloat
    reason for the higher; S1 v S2 numbers of a first candidate agree."""
    rng = random.Random(35)
    for size, rounds in ((15, 5), (24, 6)):
        ratings = {f"e{index:02d}": float(rng.randint(1200, 2200)) for index in range(size)}
        results: list[list[BoardResult]] = []
        for number in range(1, rounds + 1):
            entrants = entrants_after(ratings, results)
            options = DutchOptions(last_round=number == rounds)
            boards, _, reasons = pair_dutch_reasons(entrants, options=options)
            assert boards == pair_dutch(entrants, options=options)
            scores = {entrant.id: entrant.score for entrant in entrants}
            for board, why in zip(boards, reasons, strict=True):
                codes = why.codes()
                if board.bye:
                    assert codes[0] == "bye"
                    continue
                assert codes[0] in ("bracket", "bracket_mdp", "bracket_remainder")
                assert [code for code in codes if code.startswith("E.")] and len([c for c in codes if c.startswith("E.")]) == 1
                assert sum(code in ("first_candidate", "transposed", "exchanged") for code in codes) >= 1
                high, low = sorted(board.entrants, key=lambda entrant: -scores[entrant])
                if scores[high] != scores[low]:
                    assert Fact("upfloat", who=low, other=high, value=scores[low]) in why.facts
                    assert any(f.code.startswith("float_") and f.who == high for f in why.facts)
                    assert codes[0] == "bracket_mdp"
                for fact in why.facts:
                    if fact.code == "first_candidate":
                        assert fact.place == fact.to
            results.append(play(boards, ratings, rng, forfeits=0.05))


def test_an_engine_without_brackets_says_what_the_avoidances_did() -> None:
    from tournaments.pairing import pair_swiss_explained

    field = _field(dict.fromkeys(range(1, 9), 1.0))
    boards, report = pair_swiss_explained(field, avoid=avoidances([("p1", "p5")]))
    reasons = avoidance_reasons(boards, report)
    assert [board.entrants for board in reasons] == [board.entrants for board in boards]
    told = {fact.who for board in reasons for fact in board.facts if fact.code == "avoid_kept"}
    assert told == ({"p1", "p5"} if report.kept_apart else set())
    assert all(board.bracket is None for board in reasons)
