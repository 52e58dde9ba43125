"""ratings.fairplay: the signals fire on the patterns they describe and stay quiet on honest play."""

from __future__ import annotations

import random

from ratings.fairplay import (
    BOT_TIMING,
    FREQUENT_PAIR,
    LOSING_PATTERN,
    RatedResult,
    bot_like_timing,
    frequent_pairs,
    losing_patterns,
    review,
)


def _heads_up(key: str, winner: int, loser: int) -> RatedResult:
    return RatedResult(key=key, places=((winner,), (loser,)))


def _honest_club(players: int = 12, games: int = 600, seed: int = 7) -> list[RatedResult]:
    """Everyone meets everyone at random; the better player (lower number) wins 60 % of the time."""
    rng = random.Random(seed)
    results = []
    for number in range(games):
        a, b = rng.sample(range(1, players + 1), 2)
        strong, weak = min(a, b), max(a, b)
        winner, loser = (strong, weak) if rng.random() < 0.6 else (weak, strong)
        results.append(_heads_up(f"game:{number}", winner, loser))
    return results


def test_an_honest_club_raises_no_flag() -> None:
    rng = random.Random(3)
    people = {user: [rng.lognormvariate(1.0, 0.8) for _ in range(200)] for user in range(1, 13)}
    assert review(_honest_club(), people) == []


def test_two_accounts_playing_mostly_each_other_are_a_frequent_pair() -> None:
    results = _honest_club()
    # Account 100 plays 30 rated games, 25 of them against account 101 (who also plays the club).
    results += [_heads_up(f"game:t{i}", 101, 100) if i % 2 else _heads_up(f"game:t{i}", 100, 101) for i in range(25)]
    results += [_heads_up(f"game:o{i}", 100, 1 + i % 12) for i in range(5)]
    results += [_heads_up(f"game:p{i}", 1 + i % 12, 101) for i in range(20)]
    flags = frequent_pairs(results)
    assert [flag.users for flag in flags] == [(100, 101)]
    flag = flags[0]
    assert flag.kind == FREQUENT_PAIR
    assert flag.evidence["games_together"] == 25
    assert flag.evidence["share"] == round(25 / 30, 3)
    assert len(flag.games) == 20  # the latest ones, to look at
    # Nine games together are too few to say anything.
    assert frequent_pairs(results[:609]) == []


def test_an_account_that_loses_to_one_opponent_only_is_a_losing_pattern() -> None:
    rng = random.Random(5)
    results = _honest_club()
    # Account 60 plays the club evenly, and loses all 12 of its games to account 61 (an ordinary player).
    for i in range(40):
        other = 1 + i % 12
        results.append(_heads_up(f"game:a{i}", 60, other) if rng.random() < 0.5 else _heads_up(f"game:a{i}", other, 60))
        other = 1 + (i + 5) % 12
        results.append(_heads_up(f"game:b{i}", 61, other) if rng.random() < 0.5 else _heads_up(f"game:b{i}", other, 61))
    results += [_heads_up(f"game:f{i}", 61, 60) for i in range(12)]
    flags = losing_patterns(results)
    assert [(flag.kind, flag.users) for flag in flags] == [(LOSING_PATTERN, (60, 61))]
    assert flags[0].evidence["loss_rate"] == 1.0
    assert flags[0].evidence["loss_rate_others"] < 0.65


def test_losing_to_a_player_who_beats_everyone_is_no_pattern() -> None:
    results = [_heads_up(f"game:c{i}", 70, 1 + i % 12) for i in range(120)]  # 70 beats the whole club
    results += _honest_club()
    assert losing_patterns(results) == []


def test_an_account_that_loses_to_everyone_is_no_pattern() -> None:
    results = _honest_club()
    results += [_heads_up(f"game:w{i}", 1 + i % 12, 50) for i in range(60)]
    assert losing_patterns(results) == []


def test_places_at_tables_count_who_finished_behind_whom() -> None:
    rng = random.Random(9)
    results = []
    for i in range(40):
        other = 1 + i % 5
        # Three at a table: 8 always finishes right behind 7, wherever 7 ends up against the third.
        order = [(7,), (8,), (other,)] if rng.random() < 0.5 else [(other,), (7,), (8,)]
        results.append(RatedResult(key=f"game:t{i}", places=tuple(order)))
        results.append(_heads_up(f"game:x{i}", 8, other))
    flags = losing_patterns(results)
    assert [flag.users for flag in flags] == [(8, 7)]


def test_quick_or_regular_thinking_times_look_like_a_bot() -> None:
    rng = random.Random(11)
    person = [rng.lognormvariate(1.2, 0.9) for _ in range(300)]
    metronome = [1.5 + rng.uniform(-0.1, 0.1) for _ in range(300)]
    instant = [rng.uniform(0.05, 0.3) for _ in range(300)]
    flags = bot_like_timing({1: person, 2: metronome, 3: instant, 4: metronome[:30]})
    assert sorted(flag.users for flag in flags) == [(2,), (3,)]
    assert all(flag.kind == BOT_TIMING for flag in flags)
    by_user = {flag.users[0]: flag for flag in flags}
    assert by_user[2].evidence["cv"] < 0.2
    assert by_user[3].evidence["median_s"] < 0.35
