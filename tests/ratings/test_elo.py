"""Worked examples and properties of ratings/elo.py: heads-up, multi-player, teams, K-factors, recompute.

Pure tests: no database, no Django settings needed.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.elo import (
    EloChange,
    EloGame,
    EloRating,
    Outcome,
    apply_game,
    display_delta,
    display_rating,
    expected_score,
    format_rating,
    heads_up,
    is_provisional,
    k_factor,
    outcome_from_result,
    rate_game,
    recompute,
    replay,
)


def established(rating: float, games: int = 100) -> EloRating:
    """A player past the provisional games who has never reached 2400 unless rated there: K = 20."""
    return EloRating(rating=rating, games=games, peak=rating)


def veteran(rating: float) -> EloRating:
    """A player who reached 2400 at some time: K = 10 whatever his rating now."""
    return EloRating(rating=rating, games=100, peak=max(rating, 2400.0))


# --- expected score -------------------------------------------------------------------------------


def test_expected_score_is_the_logistic_curve_close_to_the_fide_table() -> None:
    # FIDE table 8.1.2: D = 0 -> 0.50, D = 100 -> 0.64, D = 200 -> 0.76. The logistic curve we use instead
    # gives 0.5, 1 / (1 + 10 ** -0.25) = 0.6401 and 1 / (1 + 10 ** -0.5) = 0.7597.
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1600, 1500) == pytest.approx(0.6401, abs=1e-4)
    assert expected_score(1700, 1500) == pytest.approx(0.7597, abs=1e-4)
    assert expected_score(1500, 1700) == pytest.approx(0.2403, abs=1e-4)


def test_a_difference_over_400_counts_as_400() -> None:
    # FIDE 8.3.1: 2000 against 2500 is rated as 2000 against 2400. Uncapped the expectation would be
    # 1 / (1 + 10 ** 1.25) = 0.0532; capped it is 1 / (1 + 10) = 0.0909.
    assert expected_score(2000, 2500) == pytest.approx(1 / 11)
    assert expected_score(2500, 2000) == pytest.approx(10 / 11)
    assert expected_score(2000, 2400) == expected_score(2000, 3000)


# --- heads-up -------------------------------------------------------------------------------------


def test_fide_style_heads_up_example() -> None:
    # A 1500 beats B 1700, both K = 20 (past 30 games, never 2400).
    # D = -200, E_A = 1 / (1 + 10 ** (200 / 400)) = 1 / (1 + 3.1623) = 0.24025
    # A: 20 * (1 - 0.24025) = +15.195  ->  1515.19, shown 1515
    # B: 20 * (0 - 0.75975) = -15.195  ->  1684.81, shown 1685
    a, b = rate_game([established(1500), established(1700)], heads_up(1.0))
    assert a.k == 20 and b.k == 20
    assert a.delta == pytest.approx(15.195, abs=1e-3)
    assert b.delta == pytest.approx(-15.195, abs=1e-3)
    assert a.after == EloRating(rating=a.before.rating + a.delta, games=101, peak=a.after.rating)
    assert display_rating(a.after.rating) == 1515
    assert display_rating(b.after.rating) == 1685
    assert b.after.peak == 1700  # a loss leaves the peak alone


def test_capped_upset_gains_what_a_400_point_upset_gains() -> None:
    # 2000 beats 2500: rated as against 2400, 20 * (1 - 1/11) = +18.18 (uncapped it would be +18.94).
    winner, loser = rate_game([established(2000), established(2500)], heads_up(1.0))
    assert winner.delta == pytest.approx(18.18, abs=1e-2)
    # The 2500 player reached 2400 long ago: K = 10, so he loses half as much.
    assert loser.k == 10
    assert loser.delta == pytest.approx(-9.09, abs=1e-2)


def test_heads_up_draw() -> None:
    # 1500 draws with 1700: 20 * (0.5 - 0.24025) = +5.19 for the lower-rated player, -5.19 for the other.
    low, high = rate_game([established(1500), established(1700)], heads_up(0.5))
    assert low.delta == pytest.approx(5.195, abs=1e-3)
    assert high.delta == pytest.approx(-5.195, abs=1e-3)


def test_heads_up_loss_mirrors_the_win() -> None:
    win = rate_game([established(1500), established(1700)], heads_up(1.0))
    loss = rate_game([established(1700), established(1500)], heads_up(0.0))
    assert [change.delta for change in win] == pytest.approx([change.delta for change in reversed(loss)])


def test_heads_up_score_must_be_a_game_score() -> None:
    with pytest.raises(ValueError):
        heads_up(0.25)


# --- provisional players and K-factors -------------------------------------------------------------


def test_a_new_player_is_provisional_and_moves_at_k_40() -> None:
    # A newcomer (1500, 0 games) beats an established 1500: 40 * (1 - 0.5) = +20; the other loses
    # 20 * 0.5 = 10. The newcomer is shown "1520?" until he has 30 games.
    newcomer, regular = rate_game([EloRating(), established(1500)], heads_up(1.0))
    assert newcomer.k == 40 and regular.k == 20
    assert newcomer.delta == pytest.approx(20.0)
    assert regular.delta == pytest.approx(-10.0)
    assert is_provisional(newcomer.after)
    assert format_rating(newcomer.after) == "1520?"
    assert format_rating(regular.after) == "1490"


def test_k_40_covers_exactly_the_first_30_games() -> None:
    player = EloRating(rating=1500.0, games=29, peak=1500.0)
    assert k_factor(player) == 40 and is_provisional(player)
    (change, _) = rate_game([player, established(1500)], heads_up(0.5))
    assert change.k == 40  # the 30th game is still at K = 40
    assert change.after.games == 30
    assert k_factor(change.after) == 20 and not is_provisional(change.after)


def test_k_stays_10_after_reaching_2400_even_below_it() -> None:
    # 2395 beats 2300: 20 * (1 - 0.6401) = +7.20 -> 2402.2, 2400 reached: K = 10 from the next game on.
    player = established(2395)
    (win, _) = rate_game([player, established(2300)], heads_up(1.0))
    assert win.k == 20
    assert win.after.rating > 2400
    assert k_factor(win.after) == 10
    # Losing to 2450: 10 * (0 - 0.5716) -> below 2400 again, yet K stays 10 (FIDE 8.3.3).
    (loss, _) = rate_game([win.after, established(2450)], heads_up(0.0))
    assert loss.k == 10
    assert loss.after.rating < 2400
    assert loss.after.peak == win.after.rating
    assert k_factor(loss.after) == 10


def test_a_provisional_player_over_2400_still_has_k_40() -> None:
    assert k_factor(EloRating(rating=2450.0, games=10, peak=2450.0)) == 40


def test_team_k_is_the_members_average() -> None:
    # A provisional member (K 40) with an established one (K 20): the team develops at K 30.
    team = [EloRating(games=5), established(1500), established(1500), established(1500)]
    changes = rate_game(team, Outcome(places=((0, 2), (1, 3)), teams=((0, 2), (1, 3))))
    assert changes[0].k == changes[2].k == 30
    assert changes[0].delta == changes[2].delta == pytest.approx(30 * 0.5)
    assert changes[1].delta == pytest.approx(-20 * 0.5)


# --- multi-player ----------------------------------------------------------------------------------


def test_four_player_game_with_a_shared_place() -> None:
    # Seats 0..3 rated 1600, 1550, 1450, 1400, all K = 20. Seat 1 went out first, seats 0 and 2 went out
    # in the same bout, seat 3 is the durak. Each pair is a heads-up game; the change is 20 / 3 times the
    # sum of (score - expected) over the three opponents:
    #   seat 0: vs 1: 0 - 0.5715, vs 2: 0.5 - 0.7034, vs 3: 1 - 0.7597 -> -0.5346 * 20/3 = -3.56
    #   seat 1: vs 0: 1 - 0.4285, vs 2: 1 - 0.6401, vs 3: 1 - 0.7034 -> +1.2280 * 20/3 = +8.19
    #   seat 2: vs 0: 0.5 - 0.2966, vs 1: 0 - 0.3599, vs 3: 1 - 0.5715 -> +0.2720 * 20/3 = +1.81
    #   seat 3: vs 0: 0 - 0.2403, vs 1: 0 - 0.2966, vs 2: 0 - 0.4285 -> -0.9654 * 20/3 = -6.44
    ratings = [established(1600), established(1550), established(1450), established(1400)]
    changes = rate_game(ratings, Outcome(places=((1,), (0, 2), (3,))))
    assert [change.delta for change in changes] == pytest.approx([-3.564, 8.187, 1.813, -6.436], abs=1e-3)
    assert sum(change.delta for change in changes) == pytest.approx(0.0, abs=1e-9)
    assert all(change.after.games == 101 for change in changes)


def test_a_table_moves_a_rating_as_much_as_a_heads_up_game() -> None:
    # Among equals, going out first at a table of n gains K / (n - 1) * (n - 1) * 0.5 = K / 2, the same
    # as winning a heads-up game; the durak loses K / 2.
    for seats in range(2, 7):
        one_per_place = Outcome(places=tuple((seat,) for seat in range(seats)))
        changes = rate_game([established(1500)] * seats, one_per_place)
        assert changes[0].delta == pytest.approx(10.0)
        assert changes[-1].delta == pytest.approx(-10.0)


def test_drawn_multi_player_game_is_a_draw_for_everyone() -> None:
    # Seats 0 and 1 went out early, seats 2 and 3 together in the last bout: a draw, nobody lost.
    result = {"outcome": "draw", "durak": None, "losing_team": None, "out_order": [0, 1, 2, 3]}
    outcome = outcome_from_result(result, seats=4)
    assert outcome == Outcome(places=((0, 1, 2, 3),))
    changes = rate_game([established(1500)] * 4, outcome)
    assert all(change.delta == 0.0 for change in changes)
    # Against unequal opposition a draw still moves ratings towards each other.
    changes = rate_game([established(1700), established(1500), established(1500), established(1500)], outcome)
    assert changes[0].delta < 0 < changes[1].delta


# --- teams -----------------------------------------------------------------------------------------


def test_two_versus_two() -> None:
    # Team (0, 2) = 1600 and 1400, average 1500; team (1, 3) = 1500 and 1700, average 1600; all K 20.
    # Team (1, 3) lost: E = 1 / (1 + 10 ** (100 / 400)) = 0.3599 for the winners,
    # each winner +20 * (1 - 0.3599) = +12.80, each loser -12.80, whatever his own rating.
    ratings = [established(1600), established(1500), established(1400), established(1700)]
    result = {"outcome": "durak", "durak": None, "losing_team": [1, 3], "out_order": [0, 2]}
    outcome = outcome_from_result(result, seats=4, teams=[[0, 2], [1, 3]])
    changes = rate_game(ratings, outcome)
    assert [change.delta for change in changes] == pytest.approx([12.80, -12.80, 12.80, -12.80], abs=1e-2)
    assert changes[3].after.rating == pytest.approx(1700 - 12.80, abs=1e-2)


def test_drawn_team_game() -> None:
    ratings = [established(1600), established(1500), established(1400), established(1700)]
    result = {"outcome": "draw", "durak": None, "losing_team": None, "out_order": [0, 1, 2, 3]}
    changes = rate_game(ratings, outcome_from_result(result, seats=4, teams=[[0, 2], [1, 3]]))
    # Team (0, 2) at 1500 drew team (1, 3) at 1600: 20 * (0.5 - 0.3599) = +2.80 each.
    assert [change.delta for change in changes] == pytest.approx([2.80, -2.80, 2.80, -2.80], abs=1e-2)


def test_a_team_must_not_be_split_across_places() -> None:
    with pytest.raises(ValueError, match="split"):
        rate_game([established(1500)] * 4, Outcome(places=((0, 1), (2, 3)), teams=((0, 2), (1, 3))))


# --- building the outcome from the engine's result -------------------------------------------------


def test_outcome_from_a_heads_up_result() -> None:
    result = {"outcome": "durak", "durak": 0, "losing_team": None, "out_order": [1]}
    assert outcome_from_result(result, seats=2) == heads_up(0.0)
    draw = {"outcome": "draw", "durak": None, "losing_team": None, "out_order": [0, 1]}
    assert outcome_from_result(draw, seats=2) == heads_up(0.5)


def test_outcome_from_a_multi_player_result_groups_players_out_in_one_bout() -> None:
    result = {"outcome": "durak", "durak": 2, "losing_team": None, "out_order": [4, 0, 3, 1]}
    outcome = outcome_from_result(result, seats=5, out_bouts=[7, 9, 9, 12])
    assert outcome == Outcome(places=((4,), (0, 3), (1,), (2,)))


def test_outcome_from_result_refuses_what_it_cannot_know() -> None:
    result = {"outcome": "durak", "durak": 2, "losing_team": None, "out_order": [0, 1]}
    with pytest.raises(ValueError, match="out_bouts"):
        outcome_from_result(result, seats=3)
    with pytest.raises(ValueError):
        outcome_from_result(result, seats=3, out_bouts=[5])
    with pytest.raises(ValueError):
        outcome_from_result(result, seats=3, out_bouts=[5, 4])
    with pytest.raises(ValueError):
        outcome_from_result(result, seats=4, out_bouts=[1, 2])
    with pytest.raises(ValueError):
        outcome_from_result({"outcome": "resigned"}, seats=2)


@pytest.mark.parametrize(
    "places",
    [((0,), (0, 1)), ((0,),), ((0,), (), (1,)), ((0,), (2,))],
    ids=["seat twice", "seat missing", "empty place", "no such seat"],
)
def test_places_must_cover_every_seat_once(places: tuple[tuple[int, ...], ...]) -> None:
    with pytest.raises(ValueError):
        rate_game([established(1500), established(1500)], Outcome(places=places))


def test_a_player_cannot_sit_twice() -> None:
    with pytest.raises(ValueError):
        apply_game({}, EloGame(players=("ann", "ann"), outcome=heads_up(1.0)))


# --- display rounding ------------------------------------------------------------------------------


def test_display_rounds_half_away_from_zero_and_deltas_add_up() -> None:
    assert [display_rating(value) for value in (1520.5, 1520.49, 1521.5, -2.5, -2.49)] == [
        1521,
        1520,
        1522,
        -3,
        -2,
    ]
    before = EloRating(rating=1500.4, games=50, peak=1500.4)
    after = EloRating(rating=1500.6, games=51, peak=1500.6)
    change = EloChange(before=before, after=after, delta=0.2, k=20)
    # Shown 1500 -> 1501: the change is shown as +1, not as round(0.2) = 0.
    assert display_delta(change) == 1


# --- recomputation ---------------------------------------------------------------------------------


def synthetic_pool(seed: int, count: int) -> list[EloGame[str]]:
    """A mixed sequence of heads-up, multi-player (with shared places and draws) and 2v2 games."""
    rng = random.Random(seed)
    names = [f"p{index}" for index in range(12)]
    games: list[EloGame[str]] = []
    for _ in range(count):
        kind = rng.choice(["heads-up", "table", "teams"])
        if kind == "heads-up":
            players = tuple(rng.sample(names, 2))
            outcome = heads_up(rng.choice([1.0, 0.5, 0.0]))
        elif kind == "table":
            seats = rng.randint(3, 6)
            players = tuple(rng.sample(names, seats))
            order = list(range(seats))
            rng.shuffle(order)
            places: list[list[int]] = []
            for seat in order:
                if places and rng.random() < 0.2:
                    places[-1].append(seat)
                else:
                    places.append([seat])
            outcome = Outcome(places=tuple(tuple(group) for group in places))
        else:
            players = tuple(rng.sample(names, 4))
            teams = ((0, 2), (1, 3))
            winner = rng.choice([0, 1, None])
            places_of_teams = (teams[winner], teams[1 - winner]) if winner is not None else ((0, 1, 2, 3),)
            outcome = Outcome(places=places_of_teams, teams=teams)
        games.append(EloGame(players=players, outcome=outcome))
    return games


def test_recompute_equals_incremental_updates() -> None:
    games = synthetic_pool(seed=6, count=600)
    # Incrementally, as ratings/services.py will: load each player's rating, rate the game, store it.
    stored: dict[str, EloRating] = {}
    history: list[list[EloChange]] = []
    for game in games:
        before = [stored.get(player, EloRating()) for player in game.players]
        changes = rate_game(before, game.outcome)
        for player, change in zip(game.players, changes, strict=True):
            stored[player] = change.after
        history.append(changes)
    # Exactly equal floats, not approximately: recomputation must reproduce the stored ratings.
    assert recompute(games) == stored
    assert [changes for _, changes in replay(games)] == history
    # The pool went through every kind of game and past the provisional games.
    assert any(rating.games > 30 for rating in stored.values())


def test_recompute_continues_from_initial_ratings() -> None:
    games = synthetic_pool(seed=7, count=200)
    halfway = recompute(games[:100])
    assert recompute(games[100:], initial=halfway) == recompute(games)


def test_replay_chains_each_players_history() -> None:
    last_seen: dict[str, EloRating] = {}
    for game, changes in replay(synthetic_pool(seed=8, count=300)):
        for player, change in zip(game.players, changes, strict=True):
            assert change.before == last_seen.get(player, EloRating())
            assert change.after.rating == change.before.rating + change.delta
            last_seen[player] = change.after


# --- properties ------------------------------------------------------------------------------------

ratings_values = st.floats(min_value=800, max_value=2800, allow_nan=False)


@st.composite
def finishing_places(draw: st.DrawFn, seats: int) -> tuple[tuple[int, ...], ...]:
    order = draw(st.permutations(range(seats)))
    cuts = draw(st.lists(st.booleans(), min_size=seats - 1, max_size=seats - 1))
    places: list[list[int]] = [[order[0]]]
    for seat, shares_place in zip(order[1:], cuts, strict=True):
        if shares_place:
            places[-1].append(seat)
        else:
            places.append([seat])
    return tuple(tuple(group) for group in places)


@given(a=ratings_values, b=ratings_values, score=st.sampled_from([0.0, 0.5, 1.0]), games=st.integers(0, 200))
def test_heads_up_with_equal_k_conserves_rating(a: float, b: float, score: float, games: int) -> None:
    # Both have reached 2400 once, so both have K 10 (or both K 40 while provisional).
    first = EloRating(rating=a, games=games, peak=max(a, 2400))
    second = EloRating(rating=b, games=games, peak=max(b, 2400))
    changes = rate_game([first, second], heads_up(score))
    assert changes[0].k == changes[1].k
    assert changes[0].delta + changes[1].delta == pytest.approx(0.0, abs=1e-9)
    assert abs(changes[0].delta) <= changes[0].k


@given(data=st.data(), seats=st.integers(2, 6))
def test_multi_player_with_equal_k_conserves_rating(data: st.DataObject, seats: int) -> None:
    # Everyone reached 2400 once: K 10 for all.
    ratings = [veteran(data.draw(ratings_values)) for _ in range(seats)]
    changes = rate_game(ratings, Outcome(places=data.draw(finishing_places(seats))))
    assert sum(change.delta for change in changes) == pytest.approx(0.0, abs=1e-9)
    # A table never moves a player by more than his K, as a single game would not.
    assert all(abs(change.delta) <= change.k for change in changes)


@given(data=st.data(), seats=st.integers(2, 6))
def test_among_equals_a_better_place_never_gains_less(data: st.DataObject, seats: int) -> None:
    places = data.draw(finishing_places(seats))
    changes = rate_game([established(1500)] * seats, Outcome(places=places))
    deltas_by_place = [[changes[seat].delta for seat in group] for group in places]
    for better, worse in zip(deltas_by_place, deltas_by_place[1:], strict=False):
        assert min(better) > max(worse)
    for group in deltas_by_place:
        assert max(group) == pytest.approx(min(group))


@given(
    team_a=st.tuples(ratings_values, ratings_values),
    team_b=st.tuples(ratings_values, ratings_values),
    losing=st.sampled_from([0, 1, None]),
)
def test_two_versus_two_with_equal_k_conserves_rating(
    team_a: tuple[float, float], team_b: tuple[float, float], losing: int | None
) -> None:
    ratings = [veteran(team_a[0]), veteran(team_b[0]), veteran(team_a[1]), veteran(team_b[1])]
    teams = ((0, 2), (1, 3))
    places = ((0, 1, 2, 3),) if losing is None else (teams[1 - losing], teams[losing])
    changes = rate_game(ratings, Outcome(places=places, teams=teams))
    assert sum(change.delta for change in changes) == pytest.approx(0.0, abs=1e-9)
    assert changes[0].delta == changes[2].delta and changes[1].delta == changes[3].delta


def test_unequal_k_is_not_zero_sum() -> None:
    # The documented exception: a provisional player (K 40) against an established one (K 20).
    changes = rate_game([EloRating(), established(1500)], heads_up(1.0))
    assert sum(change.delta for change in changes) == pytest.approx(10.0)
